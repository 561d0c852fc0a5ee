"""Kill the server (SIGKILL, every gunicorn process at once) mid-burst; lose nothing.

A real gunicorn serves the test database. Threads drive playtests and collection
writes over HTTP as fast as they can; the server is killed while requests are in
flight and started again. Every answer the server gave (a 2xx) must be in the
database afterwards, the stored game state must equal a replay of its stored
log, and a CSV import killed inside its transaction is applied whole or not at
all (and can then be applied).
"""

import http.client
import json
import os
import secrets
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from cards.models import Card
from collection.models import CollectionEntry, ImportPreview
from decks.engine import engine_for
from decks.play.models import Playtest
from decks.play.services import replay_to
from tests.utils import subprocess_env

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.django_db(transaction=True)

LOST = (OSError, http.client.HTTPException)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Gunicorn:
    """gunicorn on the test database, in a process group of its own (killable whole)."""

    def __init__(self, tmp_path):
        self.port = _free_port()
        self.proc = None
        self.log = tmp_path / "gunicorn.log"
        self.env = subprocess_env(DEBUG="0")

    def start(self):
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "cardsite.wsgi:application",
                "--bind",
                f"127.0.0.1:{self.port}",
                "--workers",
                "2",
                "--timeout",
                "120",
                "--error-logfile",
                str(self.log),
                "--capture-output",
            ],
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"gunicorn exited: {self.log.read_text()[-2000:]}")
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
                conn.request("GET", "/api/games/")
                conn.getresponse().read()
                conn.close()
                return
            except LOST:
                time.sleep(0.2)
        raise RuntimeError("gunicorn did not start within a minute")

    def kill(self):
        """Kill the master and every worker at once, as a power cut would."""
        if self.proc is not None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=30)
            self.proc = None

    def server_errors(self) -> str:
        text = self.log.read_text(errors="replace") if self.log.exists() else ""
        return "\n".join(
            line
            for line in text.splitlines()
            if "Traceback" in line or "database is locked" in line.lower()
        )


@pytest.fixture
def server(transactional_db, tmp_path):
    srv = Gunicorn(tmp_path)
    srv.start()
    yield srv
    srv.kill()


class Site:
    """A signed-in browser of the server: session cookie plus CSRF token."""

    def __init__(self, server, client, user):
        client.force_login(user)
        self.server = server
        self.session = client.cookies[settings.SESSION_COOKIE_NAME].value
        self.csrf = secrets.token_hex(16)

    def request(self, method, path, body=b"", content_type=None, timeout=60):
        """Return (status, headers, body bytes); raise LOST when the server died."""
        headers = {
            "Cookie": f"{settings.SESSION_COOKIE_NAME}={self.session}; "
            f"csrftoken={self.csrf}",
            "X-CSRFToken": self.csrf,
            "Accept": "application/json",
        }
        if content_type:
            headers["Content-Type"] = content_type
        conn = http.client.HTTPConnection(
            "127.0.0.1", self.server.port, timeout=timeout
        )
        try:
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            return response.status, dict(response.getheaders()), response.read()
        finally:
            conn.close()

    def json(self, method, path, data):
        status, _, body = self.request(
            method, path, json.dumps(data).encode(), "application/json"
        )
        return status, (json.loads(body) if body else None)

    def upload(self, path, fields: dict, filename: str, content: bytes):
        boundary = uuid.uuid4().hex
        parts = [
            f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode()
            for k, v in fields.items()
        ]
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; '
            f'filename="{filename}"\r\nContent-Type: text/csv\r\n\r\n'.encode()
            + content
            + b"\r\n"
        )
        body = b"".join(parts) + f"--{boundary}--\r\n".encode()
        return self.request(
            "POST", path, body, f"multipart/form-data; boundary={boundary}"
        )


class Recorder:
    """What one burst thread sent and what the server acknowledged."""

    def __init__(self):
        self.acks = 0
        self.pending = None
        self.errors: list[str] = []


def _play(site: Site, deck_id: int, seed: int, rec: Recorder, games: dict, stop):
    """Play random legal actions until the server dies; record every 2xx answer."""
    state = None
    step = 0
    while not stop.is_set():
        try:
            if state is None or state["over"] or not state["legal_actions"]:
                rec.pending = None
                status, state = site.json(
                    "POST",
                    "/api/playtests/",
                    {"deck": deck_id, "opponent": "random", "seed": seed + step},
                )
                if status != 201:
                    rec.errors.append(f"create answered {status}: {state}")
                    return
                games[state["id"]] = {"acks": [], "pending": None}
                games[state["id"]]["acks"].append((state["version"], state["log"]))
                rec.acks += 1
                continue
            step += 1
            action = state["legal_actions"][(seed + step) % len(state["legal_actions"])]
            games[state["id"]]["pending"] = action["id"]
            status, body = site.json(
                "POST",
                f"/api/playtests/{state['id']}/actions/",
                {"action": action["id"], "version": state["version"]},
            )
        except LOST:
            return
        if status != 200:
            rec.errors.append(f"action answered {status}: {body}")
            return
        games[state["id"]]["pending"] = None
        games[state["id"]]["acks"].append((body["version"], body["log"]))
        state = body
        rec.acks += 1


def _collect(site: Site, card_ids: list[int], rec: Recorder, entries: dict, stop):
    """Create an entry per card then raise its quantity; record every 2xx answer."""
    for card_id in card_ids:
        for quantity in (1, 2):
            if stop.is_set():
                return
            entry = entries.get(card_id)
            entries.setdefault(card_id, {"id": None, "acked": None, "pending": None})
            entries[card_id]["pending"] = quantity
            try:
                if entry is None or entry["id"] is None:
                    status, body = site.json(
                        "POST", "/api/collection/", {"card": card_id, "quantity": 1}
                    )
                    expected = 201
                else:
                    status, body = site.json(
                        "PATCH", f"/api/collection/{entry['id']}/", {"quantity": 2}
                    )
                    expected = 200
            except LOST:
                return
            if status != expected:
                rec.errors.append(f"collection answered {status}: {body}")
                return
            entries[card_id].update(id=body["id"], acked=body["quantity"], pending=None)
            rec.acks += 1


def _same_json(value) -> object:
    return json.loads(json.dumps(value))


def test_killed_server_loses_no_acknowledged_playtest_action_or_collection_write(
    server, client, user, deck_for, practice
):
    decks = [deck_for("collision").pk, deck_for("metal-fusion").pk]
    practice("bakugan")
    card_ids = list(
        Card.objects.filter(card_set__game__slug="bakugan")
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    site = Site(server, client, user)
    stop = threading.Event()
    games: dict = {}
    entries: dict = {}
    recorders = [Recorder() for _ in range(3)]
    threads = [
        threading.Thread(
            target=_play, args=(site, decks[i], 11 + i, recorders[i], games, stop)
        )
        for i in range(2)
    ] + [
        threading.Thread(
            target=_collect, args=(site, card_ids, recorders[2], entries, stop)
        )
    ]
    for t in threads:
        t.start()
    # The deadline only matters on a machine busy with other work.
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not all(
        r.acks >= 6 or r.errors for r in recorders
    ):
        time.sleep(0.02)
    server.kill()  # with requests of all three threads in flight
    stop.set()
    for t in threads:
        t.join(timeout=60)
    report = [(r.acks, r.errors) for r in recorders], server.server_errors()
    assert [r.errors for r in recorders] == [[], [], []], report
    assert all(r.acks >= 6 for r in recorders), report
    server.start()

    assert games and entries
    for game_id, seen in games.items():
        pt = Playtest.objects.get(pk=game_id)
        last_version, last_log = seen["acks"][-1]
        where = (pt.game, game_id, pt.version, last_version, seen["pending"])
        for version, log in seen["acks"]:
            assert pt.version >= version, where
            # Every acknowledged action is in the stored log.
            assert pt.log[: len(log)] == log, where
        # At most the one unanswered action went through, and then whole.
        assert pt.version - last_version in (0, 1), where
        if pt.version == last_version + 1:
            assert seen["pending"] is not None, where
            assert pt.log[len(last_log)] == seen["pending"], where
        else:
            assert pt.log == last_log, where
        game = engine_for(pt.game)
        assert _same_json(game.to_json(replay_to(pt))) == pt.state, where
        status, body = site.json("GET", f"/api/playtests/{game_id}/", None)
        assert (status, body["version"], body["log"]) == (200, pt.version, pt.log)
        if not body["over"] and body["legal_actions"]:
            status, after = site.json(
                "POST",
                f"/api/playtests/{game_id}/actions/",
                {"action": body["legal_actions"][0]["id"], "version": pt.version},
            )
            assert (status, after["version"]) == (200, pt.version + 1), after

    for card_id, seen in entries.items():
        stored = list(
            CollectionEntry.objects.filter(user=user, card_id=card_id).values_list(
                "pk", "quantity"
            )
        )
        if seen["id"] is None:  # a create that got no answer: whole or absent
            assert stored == [] or [q for _, q in stored] == [1]
            continue
        assert len(stored) == 1 and stored[0][0] == seen["id"]
        assert stored[0][1] in {seen["acked"], seen["pending"]} - {None}
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            assert cursor.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert server.server_errors() == ""


def _write_lock_held() -> bool:
    """Return whether another connection is inside a write transaction now."""
    if connection.vendor == "sqlite":
        probe = sqlite3.connect(
            settings.DATABASES["default"]["NAME"], timeout=0, isolation_level=None
        )
        try:
            probe.execute("BEGIN IMMEDIATE")
            probe.execute("ROLLBACK")
            return False
        except sqlite3.OperationalError:
            return True
        finally:
            probe.close()
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            " AND pid <> pg_backend_pid() AND xact_start IS NOT NULL"
            " AND (state = 'idle in transaction' OR query_start > xact_start)"
        )
        return cursor.fetchone()[0] > 0


def test_csv_import_killed_inside_its_transaction_is_applied_whole_or_not_at_all(
    server, client, user, practice
):
    practice("collision")
    cards = list(
        Card.objects.filter(card_set__game__slug="collision").order_by("pk")[:60]
    )
    variants = [
        (card, condition, finish, language)
        for card in cards
        for condition in ("mint", "near-mint", "played")
        for finish in ("normal", "foil")
        for language in ("en", "de", "fr", "ja")
    ]  # 1,440 entries: replacing them all keeps the transaction open a while
    CollectionEntry.objects.bulk_create(
        CollectionEntry(
            user=user,
            card=card,
            condition=condition,
            finish=finish,
            language=language,
            quantity=1,
        )
        for card, condition, finish, language in variants
    )
    lines = ["game,set,number,quantity,condition,finish,language"] + [
        f"collision,{card.card_set.slug},{card.key},3,{condition},{finish},{language}"
        for card, condition, finish, language in variants
    ]
    site = Site(server, client, user)
    status, headers, _ = site.upload(
        "/collection/import/",
        {"mode": "replace"},
        "mine.csv",
        ("\n".join(lines) + "\n").encode(),
    )
    assert status == 302, headers
    preview_url = headers["Location"]
    token = preview_url.rstrip("/").rsplit("/", 1)[-1]
    assert ImportPreview.objects.filter(user=user, token=token).exists()

    answer = {}

    def apply():
        try:
            answer["status"] = site.request(
                "POST",
                preview_url,
                b"action=apply",
                "application/x-www-form-urlencoded",
            )[0]
        except LOST as exc:
            answer["lost"] = repr(exc)

    thread = threading.Thread(target=apply)
    thread.start()
    deadline = time.monotonic() + 30
    inside = False
    while time.monotonic() < deadline and thread.is_alive():
        if _write_lock_held():
            inside = True
            break
        time.sleep(0.002)
    server.kill()
    thread.join(timeout=30)
    assert inside and "status" not in answer, answer  # killed mid-transaction
    server.start()

    quantities = sorted(
        CollectionEntry.objects.filter(user=user).values_list("quantity", flat=True)
    )
    pending = ImportPreview.objects.filter(user=user, token=token).exists()
    # Whole (all 3, preview used up) or nothing (all 1, preview still there).
    assert (quantities, pending) in (
        ([1] * len(variants), True),
        ([3] * len(variants), False),
    )
    if pending:
        status, headers, _ = site.request(
            "POST", preview_url, b"action=apply", "application/x-www-form-urlencoded"
        )
        assert (status, headers["Location"]) == (302, "/collection/entries/")
        assert set(
            CollectionEntry.objects.filter(user=user).values_list("quantity", flat=True)
        ) == {3}
    assert server.server_errors() == ""
