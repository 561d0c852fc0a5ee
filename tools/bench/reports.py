"""Deck report on 1, then 2 (or more) running task workers: wall and worker CPU.

    python -m tools.bench reports                      # 2,000 greedy games
    python -m tools.bench reports --workers 1 --workers 2 --workers 3 --games 1000

For each worker count it starts that many ``db_worker`` processes on this
database, waits until each is polling the queue (their start-up is not part of
the figure: workers run all the time, as ``make run``'s does), then stores a
fresh report (a throwaway user and practice sample decks, all deleted after)
and times it from the request to the report's last write. It reads each
worker's CPU time (``/proc/<pid>/stat``) before and after, so the figures mean
something on a loaded machine too:

- ``wall``: seconds until the report was done; ``speed-up``: one worker's wall
  time over this one's (what a user waits; on a machine whose cores are busy
  with other work it cannot reach N).
- ``CPU``: each worker's CPU seconds for the report; ``busiest``: the most any
  one worker spent; ``capacity``: one worker's CPU over the busiest's here,
  the speed-up when each worker has a core to itself (the wall time is then
  the busiest worker's CPU time); ``overhead``: the extra CPU the split cost
  over one worker's; ``cores``: the CPU the workers got per second of wall time.

Also: the seconds the last slice spends merging the tallies, the load average
before and after, and whether every run's result was the same (it must be).
The workers use this process's database. Other tasks on its queue would be run
too: run it on a database of its own (``SQLITE_PATH`` or ``DATABASE_URL``).
"""

import os
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import quote

from django.contrib.auth import get_user_model
from django.db import connection, transaction

from cards.games import GAMES
from decks.play.models import DeckReport
from decks.play.reports import (
    MAX_GAMES,
    deck_report_start,
    merge_tallies,
    report_figures,
)
from decks.samples import sample_deck
from tools.bench.timing import BenchError, Row

ROOT = Path(__file__).resolve().parents[2]
READY = "Starting worker"  # what db_worker logs once set up, before its first poll


def add_arguments(parser) -> None:
    parser.add_argument("--game", default=next(iter(GAMES)), choices=sorted(GAMES))
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--bot", default="greedy")
    parser.add_argument("--workers", type=int, action="append")
    parser.add_argument(
        "--interval",
        type=float,
        default=0.2,
        help="db_worker --interval: seconds an idle worker waits between polls",
    )


def cpu_seconds(pid: int) -> float | None:
    """Return the CPU seconds (user + system) process ``pid`` has used, if known."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[1].split()  # from field 3 (state) on
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Workers:
    """``count`` running db_worker processes, each polling every ``interval`` s."""

    def __init__(self, count: int, interval: float):
        command = [
            sys.executable,
            "manage.py",
            "db_worker",
            "--no-startup-delay",
            "--no-reload",
            "--queue-name",
            "*",
            "--interval",
            str(interval),
            "--verbosity",
            "1",
        ]
        env = {**os.environ, **_database_env(), "PYTHONUNBUFFERED": "1"}
        self.logs = [tempfile.TemporaryFile() for _ in range(count)]
        self.processes = [
            subprocess.Popen(
                command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
            )
            for log in self.logs
        ]

    def wait_ready(self, timeout: float = 120) -> None:
        deadline = time.monotonic() + timeout
        for process, log in zip(self.processes, self.logs, strict=True):
            while True:
                log.seek(0)
                if READY.encode() in log.read():
                    break
                if process.poll() is not None or time.monotonic() > deadline:
                    log.seek(0)
                    raise BenchError(
                        "A worker did not start: " + log.read().decode()[-2000:]
                    )
                time.sleep(0.05)

    def cpu(self) -> list[float | None]:
        return [cpu_seconds(p.pid) for p in self.processes]

    def stop(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        for log in self.logs:
            log.close()


def wait_done(report_id: int, poll: float = 0.02) -> DeckReport:
    while True:
        report = DeckReport.objects.get(pk=report_id)
        if report.status in (DeckReport.Status.DONE, DeckReport.Status.FAILED):
            return report
        time.sleep(poll)


def timed_report(owner, decks, count: int, opts) -> tuple[dict, dict]:
    """Return (figures, result) of one report finished by ``count`` workers."""
    deck, opponent = decks
    workers = Workers(count, opts["interval"])
    try:
        workers.wait_ready()
        before = workers.cpu()
        started = time.perf_counter()
        with transaction.atomic():
            report = deck_report_start(
                owner=owner,
                deck=deck,
                opponent_deck=None if GAMES[opts["game"]].shared_pack else opponent,
                games=opts["games"],
                bot=opts["bot"],
                seed=1,
            )
        report = wait_done(report.pk)
        seconds = time.perf_counter() - started
        after = workers.cpu()
    finally:
        workers.stop()
    if report.status != DeckReport.Status.DONE:
        raise BenchError(f"The report ended {report.status}: {report.error}")
    merge_started = time.process_time()
    report_figures(
        report,
        merge_tallies(report.chunks.order_by("index").values_list("tally", flat=True)),
    )
    merge = time.process_time() - merge_started
    cpu = [
        None if a is None or b is None else round(b - a, 2)
        for a, b in zip(before, after, strict=True)
    ]
    figures = {
        "workers": count,
        "seconds": round(seconds, 2),
        "cpu": cpu,
        "merge_ms": round(merge * 1000, 1),
    }
    return figures, report.result


def add_speed_ups(runs: list[dict]) -> None:
    """Add each run's speed-up, and its capacity and overhead, against the first."""
    first = runs[0]
    for row in runs:
        row["speed_up"] = round(first["seconds"] / row["seconds"], 2)
        if None in row["cpu"] or None in first["cpu"]:
            continue
        busiest = max(row["cpu"])
        one = sum(first["cpu"])  # the first run's CPU: one worker's
        row["busiest"] = busiest
        row["capacity"] = round(one / busiest, 2) if busiest else None
        row["overhead"] = round(sum(row["cpu"]) / sum(first["cpu"]) - 1, 3)
        row["cores"] = round(sum(row["cpu"]) / row["seconds"], 2)


def measure(opts: dict) -> dict:
    """Time one report per worker count in ``opts['workers']``; return the summary."""
    counts = opts.get("workers") or [1, 2]
    if not 1 <= opts["games"] <= MAX_GAMES or min(counts) < 1:
        raise BenchError(f"--games runs 1 to {MAX_GAMES}; --workers at least 1.")
    owner = get_user_model().objects.create_user(
        f"bench-reports-{secrets.token_hex(4)}"
    )
    load_before = os.getloadavg()
    runs, results = [], []
    try:
        decks = [
            sample_deck(owner=owner, game_slug=opts["game"], variant=v) for v in (0, 1)
        ]
        for count in counts:
            figures, result = timed_report(owner, decks, count, opts)
            runs.append(figures)
            results.append(result)
    finally:
        owner.delete()
    add_speed_ups(runs)
    summary = {
        "game": opts["game"],
        "games": opts["games"],
        "bot": opts["bot"],
        "interval": opts["interval"],
        "database": connection.vendor,
        "runs": runs,
        "same_result": all(r == results[0] for r in results),
        "load_average": [round(load_before[0], 2), round(os.getloadavg()[0], 2)],
    }
    if runs[0]["workers"] != 1:
        summary["note"] = "capacity and overhead are against the first run"
    return summary


def rows(args):
    """Yield one row per worker count, then the load and the sameness of results."""
    summary = measure(vars(args))
    what = f"{args.games} {args.bot} {args.game} games on {summary['database']}"
    for run in summary["runs"]:
        cpu = " + ".join(f"{c:.2f}" for c in run["cpu"] if c is not None)
        note = f"speed-up {run['speed_up']:.2f}x, CPU {cpu or 'unknown'} s"
        if "capacity" in run:
            note += (
                f", busiest {run['busiest']:.2f} s, capacity {run['capacity']:.2f}x,"
                f" overhead {run['overhead']:+.1%}, cores used {run['cores']:.2f}"
            )
        yield Row(
            f"deck report, {what}, {run['workers']} worker(s)",
            f"wall {run['seconds']:.2f} s",
            note + f", merge CPU {run['merge_ms']} ms",
            seconds=run["seconds"] / args.games,
            data=run,
        )
    before, after = summary["load_average"]
    yield Row(
        "deck report, same result every run",
        str(summary["same_result"]),
        f"load average {before} before, {after} after (on {os.cpu_count()} cores),"
        f" workers polling every {args.interval} s",
        data={k: v for k, v in summary.items() if k != "runs"},
    )


def _database_env() -> dict:
    """Return the variables that point a worker at the database this process uses."""
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return {"SQLITE_PATH": str(db["NAME"]), "DATABASE_URL": ""}
    user = quote(db.get("USER") or "")
    password = quote(db.get("PASSWORD") or "")
    login = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    host = db.get("HOST") or "localhost"
    port = f":{db['PORT']}" if db.get("PORT") else ""
    return {"DATABASE_URL": f"postgres://{login}{host}{port}/{db['NAME']}"}
