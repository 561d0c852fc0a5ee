"""The card list API's answers, kept per worker and keyed on the card list versions.

Every write to a game, set or card (``save``, ``delete``, and the querysets'
``update`` and ``bulk_create``) adds one, in the same transaction, to the shared
``CardListVersion`` row, or, when only one user sees what was written (their
private custom set or its cards), to that user's ``OwnerCardListVersion`` row
(``cards/signals.py``, ``cards/querysets.py``). Each request reads the shared
number and, signed in, its user's own (one small query), so an answer kept by
any worker is served only while nothing that user sees has changed since it
was made: a cached answer is always the one the request would compute. The
ETag is both numbers and the request's key, so a client revalidating an
unchanged list gets 304 Not Modified.
"""

import hashlib
from collections import OrderedDict
from dataclasses import dataclass
from threading import Lock

from django.http import HttpResponse, HttpResponseNotModified
from django.utils.http import parse_etags

from ..models import CardListVersion

# One queryset per database, made once: a manager and a queryset built on every
# request cost about half as much as the version query itself.
_VERSIONS: dict = {}


def _versions(using: str):
    versions = _VERSIONS.get(using)
    if versions is None:
        versions = _VERSIONS[using] = CardListVersion.objects.using(using)
    return versions


def card_list_version(using: str = "default") -> int:
    """Return the shared card list version."""
    return _versions(using).current()


def card_list_versions(user, using: str = "default") -> tuple[int, int]:
    """Return the shared card list version and ``user``'s own (0 when none)."""
    return _versions(using).current_for(user)


@dataclass(frozen=True)
class Answer:
    status: int
    content: bytes
    headers: tuple


class AnswerCache:
    """A bounded, per-process map from (version, request key) to a rendered answer.

    A move of the shared version drops every answer; a user's own version is
    part of the key, so their answers kept under an older one are never asked
    for again and leave by the byte bound, least recently used first.
    """

    def __init__(self, max_bytes: int = 16 * 1024 * 1024):
        self.max_bytes = max_bytes
        self.version = None
        self.answers: OrderedDict = OrderedDict()
        self.size = 0
        self.lock = Lock()

    def get(self, version: int, key) -> Answer | None:
        with self.lock:
            if version != self.version:
                return None
            answer = self.answers.get(key)
            if answer is not None:
                self.answers.move_to_end(key)
            return answer

    def put(self, version: int, key, answer: Answer) -> None:
        if len(answer.content) > self.max_bytes // 8:
            return
        with self.lock:
            if version != self.version:
                self.clear_locked()
                self.version = version
            old = self.answers.pop(key, None)
            if old is not None:
                self.size -= len(old.content)
            self.answers[key] = answer
            self.size += len(answer.content)
            while self.size > self.max_bytes:
                _, dropped = self.answers.popitem(last=False)
                self.size -= len(dropped.content)

    def clear(self) -> None:
        with self.lock:
            self.clear_locked()

    def clear_locked(self) -> None:
        self.answers.clear()
        self.size = 0


ANSWERS = AnswerCache()
# Everything a worker keeps under the card list version (see worker_caches_clear).
WORKER_CACHES = [ANSWERS]


def worker_caches_clear() -> None:
    """Forget what this worker keeps (tests and benchmarks measuring a cold worker)."""
    for kept in WORKER_CACHES:
        kept.clear()


# Headers of a kept answer that are replayed; the middleware adds the rest again.
KEPT_HEADERS = ("Content-Type", "Vary", "Allow", "ETag")


def request_key(request):
    """Return what a JSON card list answer depends on, or None when it is not kept."""
    if request.method != "GET":
        return None
    params = request.GET
    accept = request.headers.get("Accept", "")
    if "format" in params or "text/html" in accept or "indent" in accept:
        return None  # the browsable API and indented JSON are not kept
    user = request.user
    return (
        user.pk if user.is_authenticated else None,
        tuple(sorted((name, tuple(params.getlist(name))) for name in params)),
    )


def etag_for(version: int, key) -> str:
    digest = hashlib.blake2b(repr(key).encode(), digest_size=12).hexdigest()
    return f'"{version:x}-{digest}"'


def kept_answer(request, version: int, key):
    """Return the 304 or the kept answer for ``request``, or None to compute it."""
    etag = etag_for(version, key)
    asked = request.headers.get("If-None-Match")
    if asked and etag in parse_etags(asked):
        response = HttpResponseNotModified()
        response["ETag"] = etag
        return response
    answer = ANSWERS.get(version, key)
    if answer is None:
        return None
    response = HttpResponse(answer.content, status=answer.status)
    for name, value in answer.headers:
        response[name] = value
    return response


def keep_answer(version: int, key, response) -> None:
    """Tag a computed 200 JSON page with its ETag and keep it."""
    if response.status_code != 200:
        return
    response["ETag"] = etag_for(version, key)
    if hasattr(response, "render"):
        response.render()  # a DRF response; a plain one is rendered already
    ANSWERS.put(
        version,
        key,
        Answer(
            status=response.status_code,
            content=response.content,
            headers=tuple(
                (name, response[name]) for name in KEPT_HEADERS if name in response
            ),
        ),
    )
