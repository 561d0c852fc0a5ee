"""Load test: gunicorn with production settings on SQLite and PostgreSQL, driven by locust.

For each database: a fresh database in a temporary directory (SQLite file, or a
throwaway PostgreSQL cluster on a loopback port), migrate, load the card data,
seed users with sample decks, collections and signed-in sessions
(``tools/loadtest/seed.py``), start gunicorn on a loopback port, run locust
headless for the run time (bounded by a request count as well), stop everything,
and print per request kind: requests, failures, server errors (5xx), throughput,
median and p95 latency, plus the "database is locked" lines in gunicorn's log.

Plain HTTP on loopback: ``SECURE_SSL_REDIRECT=0`` and ``SECURE_COOKIES=0`` let the
session and CSRF cookies travel without TLS; everything else is ``make serve``'s
production configuration. Exits non-zero when any run had a failure, a 5xx or a
"database is locked".

    .venv/bin/python tools/loadtest/run.py [--backends sqlite,postgres] [--run-time 60]
"""

import argparse
import json
import os
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import defaultdict
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
LOCUSTFILE = Path(__file__).resolve().parent / "locustfile.py"
SEED = Path(__file__).resolve().parent / "seed.py"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run(cmd, env, **kw) -> subprocess.CompletedProcess:
    """Run a command in the repository; raise with its output when it fails."""
    done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, **kw)
    if done.returncode != 0:
        raise SystemExit(
            f"{' '.join(map(str, cmd))} failed ({done.returncode}):\n"
            f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
        )
    return done


@contextmanager
def sqlite_database(tmp: Path):
    yield {"SQLITE_PATH": str(tmp / "db.sqlite3")}


@contextmanager
def postgres_database(tmp: Path):
    """Start a throwaway PostgreSQL cluster (as ``postgres`` when run as root)."""
    versions = sorted(
        Path("/usr/lib/postgresql").glob("*/bin"),
        key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0,
    )
    if not versions:
        raise SystemExit("PostgreSQL is not installed (apt-get install postgresql).")
    pgbin = versions[-1]
    pgdir = tmp / "pg"
    pgdir.mkdir()
    as_postgres = []
    if os.geteuid() == 0:
        shutil.chown(tmp, "postgres")
        shutil.chown(pgdir, "postgres")
        as_postgres = ["runuser", "-u", "postgres", "--"]
    port = free_port()
    env = dict(os.environ)
    run(
        [*as_postgres, pgbin / "initdb", "-D", pgdir / "data", "-A", "trust"]
        + ["-U", "postgres"],
        env,
    )
    options = (
        f"-p {port} -k {pgdir} -c listen_addresses=127.0.0.1 -c max_connections=100"
    )
    run(
        [*as_postgres, pgbin / "pg_ctl", "-D", pgdir / "data", "-l", pgdir / "log"]
        + ["-w", "-o", options, "start"],
        env,
    )
    try:
        run(
            [*as_postgres, pgbin / "createdb", "-h", "127.0.0.1", "-p", str(port)]
            + ["-U", "postgres", "cardsite"],
            env,
        )
        yield {"DATABASE_URL": f"postgres://postgres@127.0.0.1:{port}/cardsite"}
    finally:
        subprocess.run(
            [*as_postgres, pgbin / "pg_ctl", "-D", pgdir / "data", "-m", "fast"]
            + ["-w", "stop"],
            cwd=ROOT,
            capture_output=True,
        )


DATABASES = {"sqlite": sqlite_database, "postgres": postgres_database}


def wait_until_up(url: str, proc, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"gunicorn exited with {proc.returncode} before serving.")
        try:
            with urllib.request.urlopen(url + "/", timeout=5) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise SystemExit("gunicorn did not answer within a minute.")


def percentile(values: list[float], q: float) -> float:
    """Return the ``q`` quantile (nearest rank) of ``values``."""
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * q // 1))
    return ordered[int(rank) - 1]


def summarise(records: list[dict], seconds: float) -> list[dict]:
    """Return one row per request kind (the name before the colon) and one overall."""
    groups = defaultdict(list)
    for r in records:
        groups[r["name"].split(":")[0]].append(r)
    rows = []
    for kind, items in [*sorted(groups.items()), ("overall", records)]:
        times = [r["ms"] for r in items]
        rows.append(
            {
                "kind": kind,
                "requests": len(items),
                "failures": sum(r["failed"] for r in items),
                "server_errors": sum(r["status"] >= 500 for r in items),
                "rps": round(len(items) / seconds, 1) if seconds else 0.0,
                "median_ms": round(statistics.median(times), 1) if times else 0.0,
                "p95_ms": round(percentile(times, 0.95), 1) if times else 0.0,
            }
        )
    return rows


def load_test(backend: str, args) -> dict:
    """Run the whole load test on one database and return its figures."""
    tmp = Path(tempfile.mkdtemp(prefix=f"cardsite-loadtest-{backend}-"))
    try:
        with DATABASES[backend](tmp) as db_env:
            return _load_test(backend, args, tmp, db_env)
    finally:
        if args.keep:
            print(f"  files kept in {tmp}", file=sys.stderr)
        else:
            shutil.rmtree(tmp, ignore_errors=True)


def _load_test(backend: str, args, tmp: Path, db_env: dict) -> dict:
    env = _server_env(tmp, db_env)
    t0 = time.monotonic()

    def say(text):
        print(
            f"[{backend} {time.monotonic() - t0:6.1f}s] {text}",
            file=sys.stderr,
            flush=True,
        )

    _prepare_database(env, args, tmp, say)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    say(f"gunicorn with {args.workers} workers on {url}")
    server = _start_gunicorn(port, args.workers, env, tmp)
    try:
        wait_until_up(url, server)
        say(f"locust: {args.users} users for {args.run_time} s")
        load_before = round(os.getloadavg()[0], 1)
        elapsed = _run_locust(url, args, env, tmp)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
    return _figures(backend, args, tmp, min(float(args.run_time), elapsed), load_before)


def _server_env(tmp: Path, db_env: dict) -> dict:
    """Return ``make serve``'s production environment on plain loopback HTTP."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "SQLITE_PATH", "DEBUG"}
    }
    env.update(
        db_env,
        CARDSITE_PRODUCTION="1",
        SECRET_KEY=secrets.token_urlsafe(50),
        SECURE_SSL_REDIRECT="0",
        SECURE_COOKIES="0",
        MEDIA_ROOT=str(tmp / "media"),
        PYTHONUNBUFFERED="1",
        LOG_LEVEL="WARNING",
    )
    return env


def _prepare_database(env: dict, args, tmp: Path, say) -> None:
    """Migrate, load the cards, collect static files and seed the users."""
    python = str(BIN / "python")
    say("migrating")
    run([python, "manage.py", "migrate", "--no-input", "-v", "0"], env)
    say("loading cards")
    run([python, "manage.py", "load_cards"], env)
    run([python, "manage.py", "collectstatic", "--no-input", "-v", "0"], env)
    say("seeding users, decks and collections")
    seed = run(
        [python, str(SEED), "--users", str(args.users)]
        + ["--i-know-this-is-a-throwaway-database"],
        env,
    ).stdout
    (tmp / "seed.json").write_text(seed.strip().splitlines()[-1], encoding="utf-8")


def _start_gunicorn(port: int, workers: int, env: dict, tmp: Path):
    """Start gunicorn in its own session, logging to files in ``tmp``."""
    return subprocess.Popen(
        [
            str(BIN / "gunicorn"),
            "cardsite.wsgi:application",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            str(workers),
            "--timeout",
            "60",
            "--access-logfile",
            str(tmp / "gunicorn-access.log"),
            "--access-logformat",
            '%(s)s %(m)s "%(U)s" %(M)s',
            "--error-logfile",
            str(tmp / "gunicorn-error.log"),
            "--capture-output",
        ],
        cwd=ROOT,
        env=env,
        start_new_session=True,
    )


def _run_locust(url: str, args, env: dict, tmp: Path) -> float:
    """Run locust headless against ``url``; return the seconds it ran."""
    locust_env = dict(
        env,
        LOADTEST_SEED=str(tmp / "seed.json"),
        LOADTEST_RECORDS=str(tmp / "requests.jsonl"),
        LOADTEST_MAX_REQUESTS=str(args.max_requests),
        LOADTEST_THINK=str(args.think),
    )
    started = time.monotonic()
    locust = subprocess.run(
        [
            str(BIN / "locust"),
            "-f",
            str(LOCUSTFILE),
            "--headless",
            "--users",
            str(args.users),
            "--spawn-rate",
            str(args.users),
            "--run-time",
            f"{args.run_time}s",
            "--host",
            url,
            "--csv",
            str(tmp / "locust"),
            "--only-summary",
            "--loglevel",
            "WARNING",
            "--exit-code-on-error",
            "0",
        ],
        cwd=ROOT,
        env=locust_env,
        capture_output=True,
        text=True,
        timeout=args.run_time + 120,
    )
    elapsed = time.monotonic() - started
    if locust.returncode != 0:
        raise SystemExit(f"locust failed:\n{locust.stderr[-3000:]}")
    return elapsed


def _figures(backend: str, args, tmp: Path, seconds: float, load_before) -> dict:
    """Return the run's figures from the request records and gunicorn's logs."""
    with (tmp / "requests.jsonl").open(encoding="utf-8") as lines:
        records = [json.loads(line) for line in lines]
    error_log = tmp / "gunicorn-error.log"
    log_text = error_log.read_text(encoding="utf-8", errors="replace")
    access_log = tmp / "gunicorn-access.log"
    access = access_log.read_text(encoding="utf-8", errors="replace").splitlines()
    return {
        "backend": backend,
        "users": args.users,
        "workers": args.workers,
        "seconds": round(seconds, 1),
        "think": args.think,
        "rows": summarise(records, seconds),
        "load_average_before": load_before,
        "access_log_requests": len(access),
        "server_5xx_in_access_log": sum(
            1 for line in access if line[:1] == "5" and line[:3].isdigit()
        ),
        "database_is_locked": log_text.lower().count("database is locked"),
        "tracebacks": log_text.count("Traceback (most recent call last)"),
        "locust_aggregated_requests": _locust_aggregated(tmp / "locust_stats.csv"),
        "first_failures": [r for r in records if r["failed"]][:10],
    }


def _locust_aggregated(path: Path) -> int | None:
    """Return the request count of locust's own Aggregated row (a cross-check)."""
    import csv

    if not path.exists():
        return None
    with path.open(encoding="utf-8") as f:
        for row in csv.DictReader(f):
            if row.get("Name") == "Aggregated":
                return int(row["Request Count"])
    return None


def print_report(results: list[dict]) -> None:
    header = (
        "| database | kind | requests | failures | 5xx | req/s | median ms | p95 ms |"
    )
    print(header)
    print("|" + "---|" * 8)
    for result in results:
        for row in result["rows"]:
            print(
                f"| {result['backend']} | {row['kind']} | {row['requests']} | "
                f"{row['failures']} | {row['server_errors']} | {row['rps']} | "
                f"{row['median_ms']} | {row['p95_ms']} |"
            )
    print()
    for result in results:
        print(
            f"{result['backend']}: {result['users']} users (0-{result['think']} s between "
            f"requests), {result['workers']} gunicorn "
            f"workers, {result['seconds']} s; 5xx in the access log: "
            f"{result['server_5xx_in_access_log']}; 'database is locked' in the error "
            f"log: {result['database_is_locked']}; tracebacks: {result['tracebacks']}; "
            f"requests in the access log: {result['access_log_requests']} (one is the "
            f"start-up check); locust's own CSV counted "
            f"{result['locust_aggregated_requests']}; 1-minute load average before "
            f"the run: {result['load_average_before']} on {os.cpu_count()} CPUs."
        )
        for failure in result["first_failures"]:
            print(f"  failure: {failure}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backends", default="sqlite,postgres")
    parser.add_argument(
        "--run-time", type=int, default=60, help="Seconds per database."
    )
    parser.add_argument("--users", type=int, default=12, help="Concurrent users.")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers.")
    parser.add_argument(
        "--think",
        type=float,
        default=0.2,
        help="Most seconds a user waits between requests.",
    )
    parser.add_argument("--max-requests", type=int, default=100_000)
    parser.add_argument("--json", type=Path, help="Also write the figures here.")
    parser.add_argument("--keep", action="store_true", help="Keep logs and databases.")
    args = parser.parse_args(argv)
    backends = [b.strip() for b in args.backends.split(",") if b.strip()]
    unknown = [b for b in backends if b not in DATABASES]
    if unknown or not backends:
        parser.error(f"--backends takes sqlite and/or postgres, not {unknown}")
    if not 1 <= args.run_time <= 600 or args.users < 1 or args.workers < 1:
        parser.error("--run-time is 1 to 600 s; --users and --workers are positive.")
    results = [load_test(backend, args) for backend in backends]
    print_report(results)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    bad = any(
        row["failures"] or row["server_errors"]
        for result in results
        for row in result["rows"]
    ) or any(r["database_is_locked"] or r["server_5xx_in_access_log"] for r in results)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
