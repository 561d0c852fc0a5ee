"""The card list API against a bare Django project, both under gunicorn.

The yardstick is a project made by ``django-admin startproject`` in a temporary
directory with one view answering a fixed JSON body of the card list page's
size (the site's page of 50, read once before the servers start, sent as it
is): Django's default middleware and nothing else. A second view of the same
project answering ``JsonResponse({"ok": True})`` is measured beside it. The
bare project and the site run under the same gunicorn settings (sync workers,
``--workers``), and the client keeps ``--connections`` requests in flight from
two processes. Each round measures every target in turn, starting one target
later each round, so load that comes and goes on a shared machine falls on both
sides; each target's figure is the median over rounds of its requests/s divided
by the bare project's in that round. On a machine shared with other work those
ratios swing with the load, so the servers' CPU time per answer is printed too
(read from /proc): bare's over the target's is what the throughput ratio would
be with the machine to themselves.
"""

import itertools
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from django.conf import settings
from django.core.management import call_command

from tools.bench.timing import BenchError, Row

BARE = "bare Django, fixed JSON of the page's size"
PAGE = "/api/cards/?page_size=50"
TARGETS = (
    (BARE, "bare", "/page/"),
    ('bare Django, JsonResponse({"ok": True})', "bare", "/json/"),
    ("site, trivial DRF view /api/ping/", "site", "/api/ping/"),
    ("card list, page of 50", "site", PAGE),
    (
        "card list, page of 50, filtered (q)",
        "site",
        "/api/cards/?page_size=50&q=is%3Aofficial+-colour%3Ared",
    ),
    (
        "card list, page of 50, filtered (params)",
        "site",
        "/api/cards/?page_size=50&number_min=2",
    ),
    # A new parameter value every request: nothing kept for the listing applies.
    (
        "card list, page of 50, new filter each request",
        "site",
        "/api/cards/?page_size=50&number_min=-{n}",
    ),
)
GOALS = {
    "card list, page of 50": 0.5,
    "card list, page of 50, filtered (q)": 0.5,
    "card list, page of 50, filtered (params)": 0.5,
    "card list, page of 50, new filter each request": 0.3,
}
BARE_URLS = """from pathlib import Path

from django.http import HttpResponse, JsonResponse
from django.urls import path

PAGE = Path(__file__).with_name("page.json").read_bytes()


def ok(request):
    return JsonResponse({"ok": True})


def page(request):
    return HttpResponse(PAGE, content_type="application/json")


urlpatterns = [path("json/", ok), path("page/", page)]
"""


def add_arguments(parser) -> None:
    parser.add_argument(
        "--seconds", type=float, default=3.0, help="Per target and round."
    )
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument(
        "--connections", type=int, default=16, help="Requests in flight."
    )
    parser.add_argument("--workers", type=int, default=2, help="Per server.")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def server_cpu(pid: int) -> float:
    """Return the CPU seconds of a gunicorn master and its workers so far.

    A worker that exits (gunicorn restarts one) takes its time with it; the
    workers here live for the whole run.
    """
    pids = [pid]
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            pids += [int(p) for p in f.read().split()]
    except OSError:
        return 0.0
    total = 0
    for each in pids:
        try:
            with open(f"/proc/{each}/schedstat") as f:
                total += int(f.read().split()[0])
        except (OSError, ValueError, IndexError):
            pass
    return total / 1e9


def get(port: int, path: str) -> int:
    """Send one GET on a new connection (gunicorn's sync workers close each)."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as conn:
        conn.sendall(
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\n"
            "Connection: close\r\n\r\n".encode()
        )
        first = b""
        while True:
            chunk = conn.recv(65536)
            if not chunk:
                break
            if not first:
                first = chunk
    match = re.match(rb"HTTP/1\.[01] (\d{3})", first)
    return int(match.group(1)) if match else 0


def client_process(port: int, template: str, seconds: float, threads: int, seed: int):
    """Return (answers, non-200 answers) of ``threads`` client threads over ``seconds``."""
    deadline = time.monotonic() + seconds
    counter = itertools.count(seed)
    lock = threading.Lock()
    totals = [0, 0]

    def run():
        done = bad = 0
        while time.monotonic() < deadline:
            with lock:
                n = next(counter)
            path = template.format(n=n % 99999 + 1) if "{n}" in template else template
            if get(port, path) != 200:
                bad += 1
            done += 1
        with lock:
            totals[0] += done
            totals[1] += bad

    workers = [threading.Thread(target=run) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return tuple(totals)


def make_bare(directory: str) -> Path:
    """Write the bare project (startproject, DEBUG off, two JSON views)."""
    root = Path(directory)
    call_command("startproject", "bare", str(root), verbosity=0)
    settings_file = root / "bare" / "settings.py"
    text = settings_file.read_text()
    text = text.replace("DEBUG = True", "DEBUG = False")
    text = text.replace("ALLOWED_HOSTS = []", 'ALLOWED_HOSTS = ["127.0.0.1"]')
    settings_file.write_text(text)
    (root / "bare" / "urls.py").write_text(BARE_URLS)
    (root / "bare" / "page.json").write_bytes(page_body())
    return root


def page_body() -> bytes:
    """Return the body of the site's card list page the bare project answers."""
    from django.test import Client

    response = Client(HTTP_ACCEPT="application/json").get(PAGE)
    if response.status_code != 200:
        raise BenchError(
            f"{PAGE} answered {response.status_code}: is the database migrated "
            "and loaded (make setup)?"
        )
    return response.content


def start(cwd: Path, app: str, port: int, workers: int, *, bare: bool):
    """Start gunicorn serving ``app`` from ``cwd`` on ``port``."""
    gunicorn = Path(sys.executable).with_name("gunicorn")
    if not gunicorn.exists():
        raise BenchError("gunicorn is not installed (requirements.txt).")
    env = {**os.environ, "DEBUG": "0"}
    env["DJANGO_SETTINGS_MODULE"] = "bare.settings" if bare else "cardsite.settings"
    command = [str(gunicorn), app, "--bind", f"127.0.0.1:{port}"]
    command += ["--workers", str(workers), "--worker-class", "sync"]
    command += ["--log-level", "warning"]
    return subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL)


def wait_until_up(port: int, path: str, server) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise BenchError("A server stopped before answering.")
        try:
            if get(port, path) == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise BenchError("A server did not answer within 30 seconds.")


def load(pool, port, path, seconds, connections, seed=0):
    """Return (requests/s, non-200 answers, answers) over ``seconds``."""
    half = connections // 2
    start_ = time.monotonic()
    futures = [
        pool.submit(client_process, port, path, seconds, threads, seed + i * 1_000_000)
        for i, threads in enumerate((half, connections - half))
    ]
    outcomes = [f.result() for f in futures]
    elapsed = time.monotonic() - start_
    done = sum(d for d, _ in outcomes)
    return done / elapsed, sum(b for _, b in outcomes), done


def stop(servers) -> None:
    for server in servers:
        server.terminate()
    for server in servers:
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()


def rounds(servers, ports, args) -> tuple[dict, dict, dict]:
    """Return the requests/s, server CPU per answer and errors of every target."""
    rates = {label: [] for label, _, _ in TARGETS}
    cpu = {label: [] for label in rates}
    errors = dict.fromkeys(rates, 0)
    with ProcessPoolExecutor(2) as pool:
        for _, side, path in TARGETS:  # warm every worker
            load(pool, ports[side], path, 0.5, args.connections)
        for round_ in range(args.rounds):
            shift = round_ % len(TARGETS)
            for label, side, path in TARGETS[shift:] + TARGETS[:shift]:
                server = servers[side]
                used = server_cpu(server.pid)
                rate, bad, done = load(
                    pool,
                    ports[side],
                    path,
                    args.seconds,
                    args.connections,
                    seed=round_ * 10_000_000,
                )
                used = server_cpu(server.pid) - used
                rates[label].append(rate)
                cpu[label].append(used / done if done else 0.0)
                errors[label] += bad
    return rates, cpu, errors


def serve_and_measure(args) -> tuple[dict, dict, dict]:
    """Start both servers, check every target answers, measure, stop them."""
    with tempfile.TemporaryDirectory(prefix="bench-bare-") as bare_dir:
        ports = {"bare": free_port(), "site": free_port()}
        servers = {}
        try:
            servers["bare"] = start(
                make_bare(bare_dir), "bare.wsgi:application", ports["bare"],
                args.workers, bare=True,
            )  # fmt: skip
            servers["site"] = start(
                Path(settings.BASE_DIR), "cardsite.wsgi:application", ports["site"],
                args.workers, bare=False,
            )  # fmt: skip
            for _, side, path in (TARGETS[0], TARGETS[2]):
                wait_until_up(ports[side], path, servers[side])
            for label, side, path in TARGETS:
                status = get(ports[side], path.format(n=1))
                if status != 200:
                    raise BenchError(
                        f"{label} answered {status}: is the database migrated "
                        "and loaded (make setup)?"
                    )
            return rounds(servers, ports, args)
        finally:
            stop(servers.values())


def _verdict(label: str, ratio: float) -> str:
    goal = GOALS.get(label)
    if goal is None:
        return ""
    return f", goal {goal:.1f}x {'met' if ratio >= goal else 'NOT MET'}"


def rows(args):
    """Yield each target's requests/s and its server CPU per answer."""
    if args.seconds <= 0 or args.rounds < 1 or args.connections < 2 or args.workers < 1:
        raise BenchError(
            "--seconds, --rounds and --workers must be positive, --connections 2 or more."
        )
    rates, cpu, errors = serve_and_measure(args)
    how = f"median of {args.rounds} rounds"
    for label, values in rates.items():
        ratio = statistics.median(
            r / b for r, b in zip(values, rates[BARE], strict=True) if b
        )
        rate = statistics.median(values)
        yield Row(
            f"API {label}",
            f"{rate:.1f} wall req/s",
            f"{ratio:.2f}x bare, {errors[label]} not 200, {how}{_verdict(label, ratio)}",
            seconds=1 / rate if rate else None,
        )
    for label, values in cpu.items():
        ratios = [b / c for c, b in zip(values, cpu[BARE], strict=True) if c]
        ratio = statistics.median(ratios) if ratios else 0.0
        per_answer = statistics.median(values)
        yield Row(
            f"API CPU {label}",
            f"{per_answer * 1000:.2f} ms server CPU/answer",
            f"{ratio:.2f}x bare{_verdict(label, ratio)}",
            seconds=per_answer,
        )
