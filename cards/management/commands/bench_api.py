"""Measure the card list API against a trivial JSON view on one local server."""

import http.client
import os
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

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
)


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
        parser.add_argument("--seconds", type=float, default=5.0, help="Per target.")
        parser.add_argument("--concurrency", type=int, default=4)
        parser.add_argument("--workers", type=int, default=2, help="Server processes.")

    def handle(self, *args, seconds, concurrency, workers, **options):
        if seconds <= 0 or concurrency < 1 or workers < 1:
            raise CommandError(
                "--seconds, --concurrency and --workers must be positive."
            )
        port = free_port()
        server = self.start_server(port, workers)
        try:
            self.wait_until_up(port, server)
            results = {}
            for label, path in TARGETS:
                results[label] = self.measure(port, path, seconds, concurrency)
        finally:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
        baseline = results[TARGETS[0][0]][0]
        self.stdout.write(
            f"{seconds:g}s per target, {concurrency} client threads, {workers} server "
            f"workers, port {port}"
        )
        for label, (rate, errors, count) in results.items():
            ratio = rate / baseline if baseline else 0.0
            self.stdout.write(
                f"{label:45} {rate:8.1f} req/s  {ratio:5.2f}x trivial  "
                f"({count} requests, {errors} not 200)"
            )

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

    def measure(self, port: int, path: str, seconds: float, concurrency: int):
        """Return (requests/s, non-200 answers, requests) over ``seconds``."""
        for _ in range(10):  # warm up every worker's caches
            get(port, path)
        deadline = time.monotonic() + seconds

        def worker(_):
            done = errors = 0
            while time.monotonic() < deadline:
                if get(port, path) != 200:
                    errors += 1
                done += 1
            return done, errors

        start = time.monotonic()
        with ThreadPoolExecutor(concurrency) as pool:
            outcomes = list(pool.map(worker, range(concurrency)))
        elapsed = time.monotonic() - start
        count = sum(d for d, _ in outcomes)
        return count / elapsed, sum(e for _, e in outcomes), count
