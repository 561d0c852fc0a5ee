"""`make run` serves without Django's debug pages unless DEBUG=1, on HOST:PORT."""

import os
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    """Return a folder for the module's scratch SQLite file, shared by its tests."""
    # Each `make run` sets the file up (migrate, load_cards); on a file an earlier
    # test set up that finds nothing to do and costs a quarter of the CPU.
    return tmp_path_factory.mktemp("make-run")


def _missing_page(tmp_path, **env) -> tuple[int, str]:
    """Run `make run` on the scratch SQLite file; return a missing page's code and text."""
    port = _free_port()
    environ = {
        k: v for k, v in os.environ.items() if k not in ("DEBUG", "DATABASE_URL")
    }
    environ.update(SQLITE_PATH=str(tmp_path / "run.sqlite3"), **env)
    proc = subprocess.Popen(
        ["make", "--no-print-directory", "run", f"PORT={port}", "HOST=127.0.0.1"],
        cwd=ROOT,
        env=environ,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/no-such-page/")
            except urllib.error.HTTPError as error:
                return error.code, error.read().decode()
            except OSError:
                assert proc.poll() is None, "make run stopped"
                time.sleep(0.5)
        raise AssertionError("make run did not serve within four minutes")
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)


def test_make_run_answers_a_missing_page_without_the_url_list(scratch):
    code, text = _missing_page(scratch)
    assert code == 404
    assert "URLconf" not in text
    assert "<h1>Page not found</h1>" in text


@pytest.mark.slow
def test_make_run_with_debug_1_shows_the_debug_page(scratch):
    code, text = _missing_page(scratch, DEBUG="1")
    assert code == 404
    assert "URLconf" in text
