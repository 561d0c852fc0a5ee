"""Locust users of the card site: browse, search, edit a collection, import, playtest.

Started by ``tools/loadtest/run.py`` (``make loadtest``), which seeds the database
and passes, through the environment:

- ``LOADTEST_SEED``: the JSON written by ``tools/loadtest/seed.py`` (users with a
  signed-in session each, their sample decks and entries, cards, sets, searches);
- ``LOADTEST_RECORDS``: a file that receives one JSON line per request (name, kind,
  status, milliseconds, failed), from which the runner computes the summary;
- ``LOADTEST_MAX_REQUESTS``: the run stops after this many requests, whatever the
  run time left;
- ``LOADTEST_THINK``: the most seconds a user waits between two requests.

Each locust user is one site user, so its collection and its games are its own and
no request of the mix is refused for another user's doing: every non-2xx/3xx answer
is a failure, except where a task says what it expects.
"""

import csv
import io
import itertools
import json
import os
import random
import secrets

import gevent
from locust import HttpUser, between, events, task

SEED = json.loads(open(os.environ["LOADTEST_SEED"], encoding="utf-8").read())
MAX_REQUESTS = int(os.environ.get("LOADTEST_MAX_REQUESTS", "200000"))
_RECORDS = open(os.environ["LOADTEST_RECORDS"], "w", encoding="utf-8")  # noqa: SIM115
_next_user = itertools.count()
_counted = itertools.count(1)
_environment = None


@events.init.add_listener
def remember_environment(environment, **kwargs):
    global _environment
    _environment = environment


@events.request.add_listener
def record(request_type, name, response_time, response, exception, **kwargs):
    """Write one line per request; stop the run at the request bound."""
    status = getattr(response, "status_code", 0) or 0
    _RECORDS.write(
        json.dumps(
            {
                "name": name,
                "status": status,
                "ms": round(response_time, 3),
                "failed": exception is not None,
                "error": str(exception)[:200] if exception else "",
            }
        )
        + "\n"
    )
    if next(_counted) == MAX_REQUESTS and _environment.runner is not None:
        # Quit from a greenlet of its own: quitting kills the user that asked.
        gevent.spawn(_environment.runner.quit)


@events.quitting.add_listener
def close_records(**kwargs):
    _RECORDS.flush()
    _RECORDS.close()


class SiteUser(HttpUser):
    """One signed-in collector doing a mix of everything the site offers."""

    wait_time = between(0, float(os.environ.get("LOADTEST_THINK", "0.2")))

    def on_start(self):
        index = next(_next_user)
        users = SEED["users"]
        if index >= len(users):
            raise RuntimeError("More locust users than seeded site users.")
        self.me = users[index]
        self.rng = random.Random(index)
        self.client.cookies.set("sessionid", self.me["session"])
        # Any well-formed token works: Django compares the cookie with the header.
        self.csrf = secrets.token_hex(16)
        self.client.cookies.set("csrftoken", self.csrf)
        self.entries = list(self.me["entries"])
        self.owned = set(self.me["owned_cards"])
        self.created: list[int] = []
        self.game = None

    def _headers(self, json_body=True):
        headers = {"X-CSRFToken": self.csrf, "Accept": "application/json"}
        if json_body:
            headers["Content-Type"] = "application/json"
        return headers

    def _expect(self, response, *codes):
        if response.status_code in codes:
            response.success()
        else:
            response.failure(f"HTTP {response.status_code}: {response.text[:200]}")

    # Browsing

    @task(2)
    def browse_home(self):
        self.client.get("/", name="browse: home")

    @task(3)
    def browse_game(self):
        self.client.get(
            f"/games/{self.rng.choice(SEED['games'])}/", name="browse: game page"
        )

    @task(3)
    def browse_set(self):
        s = self.rng.choice(SEED["sets"])
        self.client.get(f"/games/{s['game']}/sets/{s['set']}/", name="browse: set page")

    @task(6)
    def browse_card(self):
        card = self.rng.choice(SEED["cards"])
        self.client.get(f"/cards/{card['id']}/", name="browse: card page")

    # Searching

    @task(3)
    def search_page(self):
        q = self.rng.choice(SEED["searches"])
        self.client.get("/search/", params={"q": q}, name="search: page")

    @task(3)
    def search_api(self):
        q = self.rng.choice(SEED["searches"])
        self.client.get(
            "/api/cards/",
            params={"q": q},
            headers=self._headers(False),
            name="search: API",
        )

    # Collection

    @task(2)
    def collection_page(self):
        self.client.get("/collection/", name="collection: page")

    @task(4)
    def collection_update(self):
        entry = self.rng.choice(self.entries)
        with self.client.patch(
            f"/api/collection/{entry}/",
            json={"quantity": self.rng.randint(1, 9)},
            headers=self._headers(),
            name="collection: API update",
            catch_response=True,
        ) as response:
            self._expect(response, 200)

    @task(2)
    def collection_add_or_remove(self):
        if len(self.created) >= 3:
            entry = self.created.pop(0)
            with self.client.delete(
                f"/api/collection/{entry}/",
                headers=self._headers(),
                name="collection: API delete",
                catch_response=True,
            ) as response:
                self._expect(response, 204)
            return
        card = self.rng.choice(SEED["cards"])
        if card["id"] in self.owned:
            return
        with self.client.post(
            "/api/collection/",
            json={"card": card["id"], "quantity": 1, "condition": "lightly-played"},
            headers=self._headers(),
            name="collection: API create",
            catch_response=True,
        ) as response:
            self._expect(response, 201)
            if response.status_code == 201:
                self.created.append(response.json()["id"])
                self.owned.add(card["id"])

    @task(1)
    def collection_import(self):
        """Upload a small CSV, then apply its preview (two requests, whole or nothing)."""
        by_id = {c["id"]: c for c in SEED["cards"]}
        rows = self.rng.sample(sorted(self.me["owned_cards"]), 3)
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(["game", "set", "number", "quantity", "language"])
        for card_id in rows:
            c = by_id[card_id]
            # German copies are a variant of their own: created once, then updated.
            writer.writerow([c["game"], c["set"], c["number"], 1, "de"])
        with self.client.post(
            "/collection/import/",
            data={"mode": "add"},
            files={"file": ("cards.csv", out.getvalue().encode(), "text/csv")},
            headers={"X-CSRFToken": self.csrf},
            allow_redirects=False,
            name="collection: CSV upload",
            catch_response=True,
        ) as response:
            self._expect(response, 302)
            location = response.headers.get("Location", "")
        if "/collection/import/" not in location:
            return
        with self.client.post(
            location,
            data={"action": "apply"},
            headers={"X-CSRFToken": self.csrf},
            allow_redirects=False,
            name="collection: CSV apply",
            catch_response=True,
        ) as response:
            self._expect(response, 302)
            if "/collection/entries/" not in response.headers.get("Location", ""):
                response.failure("The import was not applied.")

    # Playtests

    @task(8)
    def playtest_step(self):
        if self.game is None or self.game["over"] or not self.game["legal_actions"]:
            slug = self.rng.choice(SEED["games"])
            with self.client.post(
                "/api/playtests/",
                json={
                    "deck": self.me["decks"][slug],
                    "opponent": "random",
                    "seed": self.rng.randrange(2**31),
                },
                headers=self._headers(),
                name="playtest: create",
                catch_response=True,
            ) as response:
                self._expect(response, 201)
                self.game = response.json() if response.status_code == 201 else None
            return
        choice = self.rng.choice(self.game["legal_actions"])
        with self.client.post(
            f"/api/playtests/{self.game['id']}/actions/",
            json={"action": choice["id"], "version": self.game["version"]},
            headers=self._headers(),
            name="playtest: action",
            catch_response=True,
        ) as response:
            self._expect(response, 200)
            self.game = response.json() if response.status_code == 200 else None

    @task(2)
    def playtest_view(self):
        if self.game is None:
            return
        self.client.get(f"/play/{self.game['id']}/", name="playtest: board page")
