"""Measure the card list API against a trivial JSON view on one local server."""

import http.client
import itertools
import os
import socket
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.test import Client
from django.test.utils import override_settings

TARGETS = (
    ("trivial view /api/ping/", "/api/ping/"),
    ("card list, page of 50", "/api/cards/?page_size=50"),
    (
        "card list, page of 50, filtered (q)",
        "/api/cards/?page_size=50&q=is%3Aofficial+-colour%3Ared",
    ),
    (
        "card list, page of 50, filtered (params)",
        "/api/cards/?page_size=50&number_min=2",
    ),
    # A new parameter value every request, so the list's reused SQL never applies.
    (
        "card list, page of 50, new filter each request",
        "/api/cards/?page_size=50&number_min=-{n}",
    ),
)


def path_for(template: str, counter) -> str:
    return template.format(n=next(counter) % 99999) if "{n}" in template else template


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(port: int, path: str) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", path, headers={"Accept": "application/json"})
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


class Command(BaseCommand):
    help = (
        "Start the site on a loopback port (gunicorn, else runserver), hit the card list "
        "API and a trivial JSON view from a thread pool, and print requests/s and ratios."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--seconds", type=float, default=2.0, help="Per target and round."
        )
        parser.add_argument("--rounds", type=int, default=5)
        parser.add_argument("--concurrency", type=int, default=4)
        parser.add_argument("--workers", type=int, default=2, help="Server processes.")
        parser.add_argument(
            "--cpu-requests",
            type=int,
            default=200,
            help="Requests per target for the in-process CPU time (0 skips it).",
        )

    def handle(self, *args, seconds, rounds, concurrency, workers, cpu_requests, **o):
        if seconds <= 0 or rounds < 1 or concurrency < 1 or workers < 1:
            raise CommandError(
                "--seconds, --rounds, --concurrency and --workers must be positive."
            )
        if cpu_requests < 0:
            raise CommandError("--cpu-requests must not be negative.")
        port = free_port()
        server = self.start_server(port, workers)
        rates = {label: [] for label, _ in TARGETS}
        errors = dict.fromkeys(rates, 0)
        try:
            self.wait_until_up(port, server)
            for _, path in TARGETS:  # warm up every worker's caches
                for n in range(4 * workers):
                    get(port, path_for(path, iter([n])))
            counter = itertools.count(1)
            for round_ in range(rounds):
                # Interleaved, starting one target later each round, so load that
                # comes and goes on a shared machine spreads over every target.
                shift = round_ % len(TARGETS)
                for label, path in TARGETS[shift:] + TARGETS[:shift]:
                    rate, bad = self.measure(port, path, seconds, concurrency, counter)
                    rates[label].append(rate)
                    errors[label] += bad
        finally:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
        self.stdout.write(
            f"Wall: {rounds} interleaved rounds of {seconds:g}s per target, "
            f"{concurrency} client threads, {workers} gunicorn workers, one server; "
            "median of rounds"
        )
        baseline = rates[TARGETS[0][0]]
        for label, values in rates.items():
            ratios = [
                rate / base for rate, base in zip(values, baseline, strict=True) if base
            ]
            self.stdout.write(
                f"  {label:47} {statistics.median(values):8.1f} req/s  "
                f"{statistics.median(ratios):5.2f}x trivial  ({errors[label]} not 200)"
            )
        if cpu_requests:
            self.measure_cpu(cpu_requests, rounds)

    def measure_cpu(self, requests: int, rounds: int) -> None:
        """Print CPU time per request in this process (Django's test client)."""
        # As the server runs: DEBUG would record every query.
        with override_settings(DEBUG=False):
            times = self.time_requests(
                Client(HTTP_ACCEPT="application/json"), requests, rounds
            )
        per_round = max(1, requests // rounds)
        self.stdout.write(
            f"CPU: {per_round * rounds} requests per target in this process "
            f"(test client, DEBUG off), median of {rounds} rounds"
        )
        baseline = statistics.median(times[TARGETS[0][0]])
        for label, values in times.items():
            cost = statistics.median(values)
            self.stdout.write(
                f"  {label:47} {cost * 1000:8.2f} ms  {baseline / cost:5.2f}x trivial"
            )

    def time_requests(self, client, requests: int, rounds: int) -> dict:
        """Return each target's CPU seconds per request, one figure per round."""
        counter = itertools.count(100000)
        per_round = max(1, requests // rounds)
        times = {label: [] for label, _ in TARGETS}
        for _, path in TARGETS:
            for _ in range(20):
                client.get(path_for(path, counter))
        for round_ in range(rounds):
            shift = round_ % len(TARGETS)
            for label, path in TARGETS[shift:] + TARGETS[:shift]:
                start = time.process_time()
                for _ in range(per_round):
                    response = client.get(path_for(path, counter))
                    if response.status_code != 200:
                        raise CommandError(f"{path} answered {response.status_code}.")
                times[label].append((time.process_time() - start) / per_round)
        return times

    def start_server(self, port: int, workers: int):
        env = {
            **os.environ,
            "DEBUG": "0",
            "DJANGO_SETTINGS_MODULE": "cardsite.settings",
        }
        base = Path(settings.BASE_DIR)
        gunicorn = Path(sys.executable).with_name("gunicorn")
        if gunicorn.exists():
            command = [
                str(gunicorn),
                "cardsite.wsgi:application",
                "--bind",
                f"127.0.0.1:{port}",
                "--workers",
                str(workers),
                "--log-level",
                "warning",
            ]
        else:
            command = [
                sys.executable,
                "manage.py",
                "runserver",
                "--noreload",
                f"127.0.0.1:{port}",
            ]
        return subprocess.Popen(command, cwd=base, env=env, stdout=subprocess.DEVNULL)

    def wait_until_up(self, port: int, server) -> None:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if server.poll() is not None:
                raise CommandError("The server stopped before answering.")
            try:
                if get(port, "/api/ping/") == 200:
                    return
            except OSError:
                time.sleep(0.2)
        raise CommandError("The server did not answer within 30 seconds.")

    def measure(self, port: int, path: str, seconds: float, concurrency: int, counter):
        """Return (requests/s, non-200 answers) over ``seconds``."""
        deadline = time.monotonic() + seconds

        def worker(_):
            done = errors = 0
            while time.monotonic() < deadline:
                if get(port, path_for(path, counter)) != 200:
                    errors += 1
                done += 1
            return done, errors

        start = time.monotonic()
        with ThreadPoolExecutor(concurrency) as pool:
            outcomes = list(pool.map(worker, range(concurrency)))
        elapsed = time.monotonic() - start
        return sum(d for d, _ in outcomes) / elapsed, sum(e for _, e in outcomes)
