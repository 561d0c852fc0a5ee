"""A Bakugan figure slot left on "plays your strongest recorded copy" plays that
copy everywhere a deck is read: the playtest start page, the API, the deck
tools, reports and the doctor (``decks.copies.deck_lines``, the one resolver)."""

from urllib.parse import quote

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from rest_framework.test import APIClient

from cards.community.readings import reading_fields
from cards.models import Card
from collection.models import CollectionEntry, ImportPreview
from decks.models import Deck
from decks.play.doctor import MAX_ROUNDS, candidate_run, doctor_apply, doctor_start
from decks.play.models import Playtest
from decks.play.reports import deck_report_start
from decks.play.services import playtest_create
from decks.play.simulation import engine_decks_from_specs
from decks.services import deck_slot_set
from decks.table.companion.models import TableGame
from tests.factories import make_entry

FIGURES = (
    ("pyrus-dragonoid-b1", 340),
    ("aquos-preyas-b1", 320),
    ("haos-tigrerra-b1", 300),
)
GATES = ("1/48", "9/48", "17/48")
ABILITIES = ("25/48", "33/48", "41/48")

pytestmark = pytest.mark.django_db


def card(set_slug, key):
    return Card.objects.get(card_set__slug=set_slug, key=key)


def figure(key):
    return card("figures-spin-master", key)


def import_collection(client, rows=FIGURES):
    """Upload a collection CSV with each figure copy's G-Power and apply it."""
    lines = ["game,set,number,quantity,g_power"]
    lines += [f"bakugan,figures-spin-master,{key},1,{g}" for key, g in rows]
    lines += [f"bakugan,1-48,{key},1," for key in GATES + ABILITIES]
    upload = SimpleUploadedFile("mine.csv", "\n".join(lines).encode(), "text/csv")
    response = client.post(
        reverse("collection:import"), {"kind": "file", "mode": "add", "file": upload}
    )
    assert response.status_code == 302
    preview = ImportPreview.objects.latest("pk")
    client.post(preview.get_absolute_url(), {"action": "apply"})


def build_deck_from_owned(client, figures=FIGURES):
    """Make a deck in the editor, adding owned cards and leaving the slots as they are."""
    client.post(reverse("decks:create"), {"game": "bakugan", "name": "Mine"})
    deck = Deck.objects.latest("pk")
    add = reverse("decks:add", args=[deck.pk])
    for key, _ in figures:
        client.post(add, {"card": figure(key).pk, "zone": "bakugan", "quantity": 1})
    for zone, keys in (("gate", GATES), ("ability", ABILITIES)):
        for key in keys:
            client.post(
                add, {"card": card("1-48", key).pk, "zone": zone, "quantity": 1}
            )
    assert sum(deck.entries.values_list("quantity", flat=True)) == 9
    assert not deck.entries.filter(g_power__isnull=False).exists()
    return deck


def test_the_start_page_plays_the_copies_the_api_plays(client, user, official):
    client.force_login(user)
    import_collection(client)
    deck = build_deck_from_owned(client)
    page = client.get(reverse("play:new") + f"?deck={deck.pk}").content.decode()
    assert "G-Power is unknown" not in page
    assert "cannot be playtested yet" not in page
    assert 'name="opponent"' in page
    api = APIClient()
    api.force_authenticate(user)
    response = api.post(
        "/api/playtests/", {"deck": deck.pk, "opponent": "random"}, format="json"
    )
    assert response.status_code == 201
    game = Playtest.objects.get(pk=response.json()["id"])
    assert [c["g_power"] for c in game.decks[0]["bakugan"]] == [340, 320, 300]


def test_a_figure_with_no_recorded_copy_links_to_recording_one_in_the_collection(
    client, user, official
):
    client.force_login(user)
    import_collection(client, rows=FIGURES[:2])
    tigrerra = figure("haos-tigrerra-b1")
    unrecorded = make_entry(user, tigrerra, quantity=1)
    deck = build_deck_from_owned(client)
    start = reverse("play:new") + f"?deck={deck.pk}"
    page = client.get(start).content.decode()
    back = quote(start)
    edit = reverse("collection:entry_edit", args=[unrecorded.pk])
    assert page.count("G-Power is unknown") == 1
    assert (
        f'{tigrerra.display_name}</a>: Its G-Power is unknown. · <a href="{edit}?next='
        f"{back}\">record your copy's G-Power in your collection</a>"
    ) in page
    assert reverse("community:transcribe", args=[tigrerra.pk]) not in page
    deck_page = client.get(deck.get_absolute_url()).content.decode()
    assert "but none has its G-Power recorded" in deck_page
    assert f'<a href="{edit}?next={quote(deck.get_absolute_url())}">' in deck_page
    copies = reverse("collection:entries") + f"?card={tigrerra.pk}"
    assert f'<a href="{copies}">record a copy\'s</a>' in deck_page
    assert edit in client.get(copies).content.decode()
    assert reverse("community:transcribe", args=[tigrerra.pk]) not in deck_page
    unrecorded.delete()
    page = client.get(start).content.decode()
    add = reverse("collection:entry_add", args=[tigrerra.pk])
    assert f'<a href="{add}?next={back}">record your copy' in page


def test_the_deck_tools_show_each_figure_at_the_g_power_of_its_copy(
    client, user, official
):
    client.force_login(user)
    import_collection(client)
    deck = build_deck_from_owned(client)
    page = client.get(deck.get_absolute_url())
    rows = page.context["tools"]["gate_table"]["rows"]
    assert [(r["line"].card.key, r["g_power"]) for r in rows] == [
        (key, g) for key, g in FIGURES
    ]
    assert all(None not in r["cells"] for r in rows)
    text = page.content.decode()
    for _, g_power in FIGURES:
        assert f"Plays your strongest recorded copy: {g_power}&nbsp;G" in text


def test_a_slot_of_two_copies_plays_the_two_strongest_in_tools_and_game(
    client, user, official
):
    client.force_login(user)
    import_collection(client, rows=(*FIGURES, ("pyrus-dragonoid-b1", 500)))
    deck = build_deck_from_owned(client, figures=FIGURES[:2] + FIGURES[:1])
    dragonoid = figure("pyrus-dragonoid-b1")
    assert deck.entries.get(card=dragonoid).quantity == 2
    page = client.get(deck.get_absolute_url())
    rows = page.context["tools"]["gate_table"]["rows"]
    assert sorted(r["g_power"] for r in rows if r["line"].card_id == dragonoid.pk) == [
        340,
        500,
    ]
    assert (
        "Plays your strongest recorded copy: 500&nbsp;G, 340&nbsp;G"
        in page.content.decode()
    )
    game = playtest_create(owner=user, deck=deck, opponent="random", seed=3)
    played = [c["g_power"] for c in game.decks[0]["bakugan"] if c["id"] == dragonoid.pk]
    assert sorted(played) == [340, 500]


def test_reports_the_doctor_and_batch_simulation_play_the_strongest_copies(
    client, user, official, django_capture_on_commit_callbacks
):
    client.force_login(user)
    import_collection(client)
    deck = build_deck_from_owned(client)
    with django_capture_on_commit_callbacks(execute=False):
        report = deck_report_start(owner=user, deck=deck, games=10)
        doctor = doctor_start(owner=user, deck=deck, games=20, seed=3)
    powers = [g for _, g in FIGURES]
    assert [c["g_power"] for c in report.decks[0]["bakugan"]] == powers
    candidates = list(doctor.candidates.all())
    assert len(candidates) > 1
    for candidate in candidates:
        assert [c["g_power"] for c in candidate.deck["bakugan"]] == powers
    simulated = engine_decks_from_specs("bakugan", [str(deck.pk)], players=2)
    assert [c["g_power"] for c in simulated[0]["bakugan"]] == powers


def test_the_transcribe_page_never_asks_a_figures_g_power():
    assert reading_fields("bakugan", "bakugan") == (
        "card_type",
        "name",
        "attribute",
        "printed_number",
    )


def test_a_doctor_swap_applied_keeps_every_figure_slot_as_saved(
    client, user, official, django_capture_on_commit_callbacks
):
    client.force_login(user)
    import_collection(client, rows=(*FIGURES, ("pyrus-dragonoid-b1", 500)))
    deck = build_deck_from_owned(client)
    dragonoid = deck.entries.get(card=figure("pyrus-dragonoid-b1"))
    named = CollectionEntry.objects.get(card=dragonoid.card, g_power=340)
    deck_slot_set(entry=dragonoid, copy=named.pk)
    deck_slot_set(entry=deck.entries.get(card=figure("aquos-preyas-b1")), g_power=450)
    with django_capture_on_commit_callbacks(execute=False):
        doctor = doctor_start(owner=user, deck=deck, games=20, bot="random", seed=2)
    for _ in range(MAX_ROUNDS + 1):
        waiting = list(doctor.candidates.filter(done=False))
        for candidate in waiting:
            candidate_run(candidate.pk)
        doctor.refresh_from_db()
        if not waiting:
            break
    assert doctor.status == "done"
    doctor_apply(doctor=doctor, index=doctor.result["top"][0]["index"], user=user)
    slots = sorted(
        (e.card.key, e.copy_id, e.g_power)
        for e in deck.entries.filter(zone="bakugan").select_related("card")
    )
    assert slots == [
        ("aquos-preyas-b1", None, 450),
        ("haos-tigrerra-b1", None, None),
        ("pyrus-dragonoid-b1", named.pk, 340),
    ]


def test_the_table_companion_reads_each_figure_at_its_copys_g_power(
    client, user, official
):
    client.force_login(user)
    import_collection(client)
    deck = build_deck_from_owned(client)
    client.post(
        reverse("table:companion-new") + "?game=bakugan",
        {"game": "bakugan", "players": 2, "deck_0": deck.pk},
    )
    figures = TableGame.objects.get().setup["cards"][0]["figures"]
    assert [(f["id"], f["g_power"]) for f in figures] == [
        (figure(key).pk, g_power) for key, g_power in FIGURES
    ]
