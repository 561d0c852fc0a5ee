"""Browser tests: Debian's Chromium driven by Playwright against a real server process.

They skip (with a message saying how to enable them) when Chromium is not
installed; ``.ci/run`` sets ``CARDSITE_BROWSER_TESTS=required``, which turns a
skip into a failure.
"""

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings

from tests.utils import subprocess_env

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = (
    os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
)
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]


def _require_browser():
    if Path(CHROMIUM).exists():
        return
    message = "Chromium is not installed: run `apt-get install chromium` to enable the browser tests."
    if os.environ.get("CARDSITE_BROWSER_TESTS") == "required":
        pytest.fail(message)
    pytest.skip(message)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``manage.py runserver`` in its own process, on the test database; restartable.

    It serves each connection on its own thread: Chromium opens connections it
    may not use at once (preconnects), and a one-connection-at-a-time server
    sits reading such an idle socket while the real request waits, which
    stalled a page load for 30 s in CI.
    """

    def __init__(self):
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc = None
        self.env = subprocess_env()

    def start(self):
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "manage.py",
                "runserver",
                f"127.0.0.1:{self.port}",
                "--noreload",
            ],
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(self.url + "/", timeout=2)
                return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("the test server did not start")

    def stop(self):
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(timeout=10)
            self.proc = None

    def restart(self):
        self.stop()
        self.start()


@pytest.fixture
def server(transactional_db):
    srv = Server()
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture(scope="session")
def browser():
    _require_browser()
    from playwright.sync_api import sync_playwright

    # Playwright's sync API keeps an event loop in this thread; the ORM calls the
    # tests make are still synchronous, so Django's async guard is off while it runs.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as p:
            chromium = p.chromium.launch(
                executable_path=CHROMIUM, args=ARGS, headless=True
            )
            yield chromium
            chromium.close()
    finally:
        os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)


def signed_in_context(browser, server, client, user, width: int, height: int):
    """Return a browser context of ``width`` x ``height`` signed in as ``user``."""
    client.force_login(user)
    context = browser.new_context(viewport={"width": width, "height": height})
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": server.url,
            }
        ]
    )
    return context


@pytest.fixture
def signed_in_page(browser, server, user, client):
    """Return a page whose session belongs to ``user``, on the server."""
    context = signed_in_context(browser, server, client, user, 1280, 900)
    page = context.new_page()
    yield page
    context.close()


def screenshot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def click_to_the_end(page, limit=600):
    """Click the first offered move (or pass the device) until the game is over."""
    for _ in range(limit):
        if page.locator("text=Game over").count():
            return
        if page.locator(".pass-screen").count():
            page.locator(".pass-screen a").click()
            continue
        buttons = page.locator(".choices button")
        if buttons.count() == 0:
            page.reload()
            continue
        version = page.locator("#board").get_attribute("data-version")
        buttons.first.click()
        page.wait_for_function(
            "v => { const b = document.querySelector('#board'); return b && b.dataset.version !== v; }",
            arg=version,
            timeout=15000,
        )
    raise AssertionError("the game did not end within the click limit")


def run_task_worker(server) -> None:
    """Let the task worker take every queued task, as the one ``make run`` starts."""
    subprocess.run(
        [
            sys.executable,
            "manage.py",
            "db_worker",
            "--batch",
            "--no-startup-delay",
            "--no-reload",
        ],
        cwd=ROOT,
        env=server.env,
        check=True,
        capture_output=True,
        timeout=600,
    )


def start_job(page, server, deck, job: str, games: int) -> None:
    """Start a ``job`` ("reports" or "doctor") of ``deck`` from its playtest start
    page, with the random bot, and land on the job's page."""
    page.goto(f"{server.url}/play/new/?deck={deck.pk}")
    form = page.locator(f"form[action='/play/{job}/new/']")
    form.locator("input[name=games]").fill(str(games))
    form.locator("select[name=bot]").select_option("random")
    form.locator("button[type=submit]").click()
    page.wait_for_url(f"**/play/{job}/*/")
