"""Community pages: proposing, reviewing, help wanted, custom cards, imports."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from cards.community import services as community
from cards.models import Card, CardChange, CardDataImport, CardSet, CardSubmission
from tests.factories import make_card, make_png


def _submit(user, card, **fields):
    return community.card_submission_create(
        user=user, game="bakugan", card=card, fields=fields, source="my copy"
    )


@pytest.mark.django_db
def test_suggest_page_sends_only_the_changed_fields(client, user, gate):
    client.force_login(user)
    url = f"/community/cards/{gate.pk}/suggest/"
    page = client.get(url)
    assert page.status_code == 200
    data = {}
    for name in community.submission_fields("bakugan"):
        value = page.context["form"][name].value()
        if isinstance(value, list):
            value = json.dumps(value)
        data[name] = "" if value is None else value
    data.update(bonus_aquos="-30", source_note="my own copy")

    response = client.post(url, data)

    submission = CardSubmission.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/community/submissions/{submission.pk}/"
    assert submission.fields == {"bonus_aquos": -30}
    assert submission.source == "my own copy"


@pytest.mark.django_db
def test_suggest_page_shows_the_rule_broken(client, user, bakugan_set):
    client.force_login(user)

    response = client.post(
        "/community/games/bakugan/suggest/",
        {
            "set": "test-series",
            "key": "5",
            "card_type": "gate",
            "source_note": "my copy",
            "not_printed": "[]",
            "effects": "[]",
        },
    )

    assert response.status_code == 200
    assert response.context["form"].errors["gate_class"] == [
        "A Gate card needs its class: gold, silver or copper."
    ]
    assert CardSubmission.objects.count() == 0


@pytest.mark.django_db
def test_suggest_needs_sign_in(client, gate):
    response = client.get(f"/community/cards/{gate.pk}/suggest/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


@pytest.mark.django_db
def test_non_moderator_cannot_accept_through_the_page(client, user, gate):
    submission = _submit(user, gate, bonus_haos=5)
    client.force_login(user)

    page = client.get(f"/community/submissions/{submission.pk}/")
    response = client.post(
        f"/community/submissions/{submission.pk}/accept/", {"verification": "verified"}
    )

    assert page.status_code == 200
    assert b"Accept and apply" not in page.content
    assert response.status_code == 403
    assert client.get("/community/review/").status_code == 403
    assert CardSubmission.objects.get().status == "pending"
    assert Card.objects.get(pk=gate.pk).bonus_haos is None


@pytest.mark.django_db
def test_another_users_submission_page_is_404(client, user, other_user, gate):
    submission = _submit(user, gate, bonus_haos=5)
    client.force_login(other_user)

    assert client.get(f"/community/submissions/{submission.pk}/").status_code == 404
    reject = client.post(
        f"/community/submissions/{submission.pk}/reject/", {"reason": "no"}
    )
    assert reject.status_code == 404
    assert list(client.get("/community/submissions/").context["page_obj"]) == []


@pytest.mark.django_db
def test_moderator_reviews_from_the_queue(client, user, moderator, gate):
    submission = _submit(user, gate, bonus_haos=5)
    client.force_login(moderator)

    queue = client.get("/community/review/")
    detail = client.get(f"/community/submissions/{submission.pk}/")
    response = client.post(
        f"/community/submissions/{submission.pk}/accept/",
        {"verification": "verified", "note": "Checked my copy."},
    )

    assert [s.pk for s in queue.context["page_obj"]] == [submission.pk]
    assert detail.context["rows"] == [
        {
            "field": "bonus_haos",
            "label": "Bonus haos",
            "current": None,
            "proposed": 5,
            "changed": True,
        }
    ]
    assert response.status_code == 302
    card = Card.objects.get(pk=gate.pk)
    assert (card.bonus_haos, card.verification) == (5, "verified")
    history = client.get(f"/community/cards/{gate.pk}/history/")
    assert history.status_code == 200
    assert b"Submission #" in history.content


@pytest.mark.django_db
def test_help_wanted_page_lists_unknown_fields_and_unverified_cards(client, gate):
    verified = make_card(
        card_set=gate.card_set,
        key="2/48",
        name="Known",
        card_type="ability",
        colour="red",
        text="Add 100 G-Power.",
        timing="in-battle",
        source="copy",
        verification="verified",
    )

    response = client.get("/community/help-wanted/bakugan/test-series/")

    assert response.status_code == 200
    (entry,) = response.context["report"]
    assert [row["card"] for row in entry["rows"]] == [gate]
    assert entry["rows"][0]["unknown"] == [
        "Bonus aquos",
        "Bonus subterra",
        "Bonus haos",
        "Bonus darkus",
        "Bonus ventus",
    ]
    assert (entry["total"], entry["complete"], entry["unverified"]) == (2, 1, 1)
    assert b"Bonus aquos, Bonus subterra" in response.content
    assert verified.display_name.encode() not in response.content


@pytest.mark.django_db
def test_help_wanted_for_an_unknown_game_is_404(client):
    assert client.get("/community/help-wanted/chess/").status_code == 404


@pytest.mark.django_db
def test_custom_cards_stay_out_of_official_checklists(client, user, gate):
    custom = community.custom_set_create(
        user=user, game="bakugan", name="Public proxies", is_public=True
    )
    card = community.custom_card_create(
        user=user,
        card_set=custom,
        fields={"name": "Proxy Zzyzx", "card_type": "gate", "gate_class": "gold"},
    )

    official = client.get("/games/bakugan/")
    help_wanted = client.get("/community/help-wanted/bakugan/?practice=1")
    own_page = client.get(card.get_absolute_url())

    assert [c.pk for c in official.context["cards"]] == [gate.pk]
    assert [e["set"].slug for e in help_wanted.context["report"]] == ["test-series"]
    assert own_page.status_code == 200
    assert b"custom \xc2\xb7 not printed" in own_page.content


@pytest.mark.django_db
def test_custom_set_and_card_pages(client, user, other_user):
    client.force_login(user)
    made = client.post(
        "/community/custom/", {"game": "metal-fusion", "name": "Homebrew"}
    )
    card_set = CardSet.objects.get(owner=user)
    assert made.status_code == 302
    assert (card_set.kind, card_set.is_public) == ("custom", False)

    response = client.post(
        f"/community/custom/sets/{card_set.pk}/new/",
        {"name": "Spark", "card_type": "effect", "timing": "when-revealed",
         "not_printed": "[]", "effects": "[]"},
    )  # fmt: skip

    card = Card.objects.get(card_set=card_set)
    assert response.status_code == 302
    assert (card.name, card.key, card.distribution) == ("Spark", "1", "custom")
    client.force_login(other_user)
    assert client.get(f"/community/custom/sets/{card_set.pk}/").status_code == 404
    assert client.get(f"/community/custom/cards/{card.pk}/edit/").status_code == 404
    assert client.get(card.get_absolute_url()).status_code == 404


DATA = {
    "format": "cardsite-card-data",
    "version": 1,
    "game": "bakugan",
    "sets": [
        {
            "slug": "test-series",
            "name": "Test series",
            "kind": "official",
            "source": "test",
            "cards": [
                {"key": "1/48", "number": 1, "printed_number": "1/48",
                 "name": "Test Gate", "card_type": "gate", "gate_class": "gold",
                 "bonus_pyrus": 100, "bonus_aquos": 70,
                 "source": "the test's own copy"},
                {"key": "4/48", "name": "Fresh", "card_type": "ability",
                 "source": "file"},
            ],
        }
    ],
}  # fmt: skip


@pytest.mark.django_db
def test_import_previews_then_applies_all(client, moderator, gate):
    client.force_login(moderator)
    upload = SimpleUploadedFile("series.json", json.dumps(DATA).encode())

    response = client.post("/community/import/", {"file": upload})

    data_import = CardDataImport.objects.get()
    assert response["Location"] == f"/community/import/{data_import.token}/"
    preview = client.get(response["Location"])
    assert (preview.context["new_count"], preview.context["changed_count"]) == (1, 1)
    (changed,) = preview.context["changed_cards"]
    assert [(f.field, f.old, f.new) for f in changed.changes] == [
        ("bonus_aquos", None, 70)
    ]
    assert Card.objects.get(pk=gate.pk).bonus_aquos is None  # nothing applied yet

    applied = client.post(response["Location"], {"apply": "1"})

    assert applied.status_code == 302
    assert Card.objects.get(pk=gate.pk).bonus_aquos == 70
    assert Card.objects.filter(key="4/48").exists()
    change = CardChange.objects.get(card=gate)
    assert change.source == "Data file series.json (imported by mod)"
    assert change.user == moderator
    assert CardDataImport.objects.count() == 0


@pytest.mark.django_db
def test_import_with_problems_keeps_nothing(client, moderator, gate):
    client.force_login(moderator)
    bad = json.loads(json.dumps(DATA))
    bad["sets"][0]["cards"][1]["card_type"] = "blade"
    upload = SimpleUploadedFile("bad.json", json.dumps(bad).encode())

    response = client.post("/community/import/", {"file": upload})

    assert response.status_code == 200
    assert response.context["problems"] == [
        "test-series/4/48 card_type: Bakugan card types are: gate, ability, bakugan."
    ]
    assert CardDataImport.objects.count() == 0
    assert not Card.objects.filter(key="4/48").exists()


@pytest.mark.django_db
def test_import_is_for_moderators_only(client, user):
    client.force_login(user)
    assert client.get("/community/import/").status_code == 403


@pytest.mark.django_db
def test_card_page_shows_history_and_a_correction_link(client, user, moderator, gate):
    submission = _submit(user, gate, bonus_haos=5)
    community.card_submission_accept(submission=submission, moderator=moderator)

    response = client.get(gate.get_absolute_url())

    assert response.status_code == 200
    content = response.content.decode()
    assert "History of this card" in content
    assert "<code>bonus_haos</code>: " in content
    # A correction is a reading on the transcribe page, not the raw field form.
    assert (
        f'href="/community/cards/{gate.pk}/transcribe/">Correct what this card prints'
        in content
    )


@pytest.mark.django_db
def test_every_community_page_renders(client, user, moderator, gate, media_root):
    submission = community.card_submission_create(
        user=user,
        game="bakugan",
        card=gate,
        fields={"bonus_haos": 5},
        source="scan",
        scan=SimpleUploadedFile("s.png", make_png()),
    )
    custom = community.custom_set_create(user=moderator, game="collision", name="C")
    card = community.custom_card_create(
        user=moderator, card_set=custom, fields={"card_type": "event"}
    )
    client.force_login(moderator)
    for url in (
        "/community/help-wanted/",
        "/community/help-wanted/bakugan/",
        "/community/help-wanted/bakugan/?practice=1",
        "/community/submissions/",
        "/community/review/",
        "/community/review/?status=accepted",
        "/community/review/?status=bogus",
        f"/community/submissions/{submission.pk}/",
        "/community/games/collision/suggest/",
        f"/community/cards/{gate.pk}/suggest/",
        f"/community/cards/{gate.pk}/history/",
        "/community/custom/",
        f"/community/custom/sets/{custom.pk}/",
        f"/community/custom/sets/{custom.pk}/new/",
        f"/community/custom/cards/{card.pk}/edit/",
        "/community/import/",
    ):
        response = client.get(url)
        assert response.status_code == 200, url
        assert b"style=" not in response.content.split(b"<main")[1], url
    assert client.get("/community/help-wanted/bakugan/nope/").status_code == 404
    assert client.get("/community/games/chess/suggest/").status_code == 404


@pytest.mark.django_db
def test_pending_scan_is_seen_by_uploader_and_moderators_only(
    client, user, other_user, moderator, gate, media_root
):
    submission = community.card_submission_create(
        user=user,
        game="bakugan",
        card=gate,
        fields={},
        source="scan",
        scan=SimpleUploadedFile("s.png", make_png()),
    )
    url = f"/community/scans/{submission.scans.get().pk}/"

    assert client.get(url).status_code == 404
    client.force_login(other_user)
    assert client.get(url).status_code == 404
    client.force_login(user)
    assert client.get(url)["Content-Type"] == "image/png"
    client.force_login(moderator)
    assert client.get(url + "thumb/").status_code == 200
    community.card_submission_accept(submission=submission, moderator=moderator)
    client.logout()
    assert client.get(url).status_code == 200


@pytest.mark.django_db
def test_a_custom_card_with_text_longer_than_a_card_prints_is_refused(client, user):
    client.force_login(user)
    card_set = community.custom_set_create(user=user, game="bakugan", name="Mine")

    response = client.post(
        f"/community/custom/sets/{card_set.pk}/new/",
        {"name": "Long", "card_type": "ability", "text": "word " * 420,
         "not_printed": "[]", "effects": "[]"},
    )  # fmt: skip

    assert response.status_code == 200
    assert response.context["form"].errors == {
        "text": [
            "Keep this to 2,000 characters (it has 2,099); no printed card holds more."
        ]
    }
    assert not Card.objects.filter(card_set=card_set).exists()
