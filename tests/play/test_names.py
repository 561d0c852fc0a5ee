"""One name per seat: board, log, buttons and replay say "You", "Casual bot"..."""

import random
import re

import pytest

from decks.play.models import Playtest
from decks.play.names import seat_names, speak
from decks.play.services import (
    PlaytestError,
    acting_seat,
    load_state,
    playtest_create,
    playtest_share,
)
from tests.engine.scenarios import CASES

pytestmark = pytest.mark.django_db

NAMES = ["You", "Casual bot"]


@pytest.mark.parametrize(
    "engine, spoken",
    [
        ("Player 1 plays Quick Strike.", "You play Quick Strike."),
        ("Player 1 has won three gates.", "You have won three gates."),
        ("Player 1 passes", "You pass"),
        ("Player 1 is out.", "You are out."),
        ("Player 1's Dragonoid wins.", "Your Dragonoid wins."),
        (
            "Battle: Player 2's Preyas against Player 1's Gorem.",
            "Battle: Casual bot's Preyas against your Gorem.",
        ),
        ("The seed picks Player 1 to go first.", "The seed picks you to go first."),
        ("Player 2 discards 1.", "Casual bot discards 1."),
        ("Not your move: it is Player 1's.", "Not your move: it is yours."),
    ],
)
def test_an_engine_sentence_is_spoken_with_the_seats_names(engine, spoken):
    assert speak(engine, NAMES) == spoken


def test_several_bots_are_numbered_and_a_watcher_never_reads_you(user, deck_for):
    deck = deck_for("collide-o")
    pt = playtest_create(owner=user, deck=deck, players=3, opponent="greedy", seed=2)
    assert seat_names(pt) == ["You", "Casual bot 1", "Casual bot 2"]
    assert seat_names(pt, watcher=True)[0] == user.get_username()


def test_the_board_log_and_buttons_never_say_player_n(client, user, deck_for):
    deck = deck_for("collision")
    pt = playtest_create(owner=user, deck=deck, opponent="greedy", seed=5)
    client.force_login(user)
    page = client.get(f"/play/{pt.pk}/")
    events, choices = page.context["events"], page.context["choices"]
    assert events and choices
    assert not [e for e in events if re.search(r"\bPlayer [12]\b", e)]
    assert not [c.label for c in choices if re.search(r"\bPlayer [12]\b", c.label)]
    html = page.content.decode()
    assert "You · " in html and "Casual bot · " in html


def test_a_shared_replay_watched_by_someone_else_never_says_you(
    client, user, other_user, deck_for
):
    deck = deck_for("bakugan")
    pt = playtest_create(owner=user, deck=deck, opponent="greedy", seed=5)
    playtest_share(playtest=pt, on=True)
    client.force_login(other_user)
    page = client.get(f"/play/shared/{pt.share_token}/?step={len(pt.log)}")
    assert page.status_code == 200
    text = " ".join(page.context["events"])
    assert not re.search(r"\b[Yy]ou(r)?\b", text)
    assert user.get_username() in text


# Each game's log phrases as its engine writes them, spoken to seat 1's owner:
# the whole clause after "You" reads in the second person, "their" as "your".
PHRASES = {
    "collision": [
        (
            "Player 1 stands A-blade up, deals a spin pile of 6 and draws 5.",
            "You stand A-blade up, deal a spin pile of 6 and draw 5.",
        ),
        (
            "Player 1 is the last player left and wins.",
            "You are the last player left and win.",
        ),
        (
            "Player 1 does not stop: Player 2 wins the battle.",
            "You do not stop: Casual bot wins the battle.",
        ),
        (
            "Player 1's spin pile is empty: Player 1 is out.",
            "Your spin pile is empty: you are out.",
        ),
        ("Turn 2: Player 1.", "Turn 2: You."),
        ("B13: Player 1 chooses 1 to discard.", "B13: You choose 1 to discard."),
        (
            "Player 1 tests A2 against B8 from Player 2's deck: 1 matched, it passes.",
            "You test A2 against B8 from Casual bot's deck: 1 matched, it passes.",
        ),
        (
            "A18: Player 2's hand is shuffled face down; Player 1 picks 1 to discard.",
            "A18: Casual bot's hand is shuffled face down; you pick 1 to discard.",
        ),
        (
            "B36: every Character of Player 1 is removed.",
            "B36: every Character of yours is removed.",
        ),
        (
            "B25 against A-blade: 0 hits: no notch (C4); Player 1 loses 0 spin.",
            "B25 against A-blade: 0 hits: no notch (C4); you lose 0 spin.",
        ),
        (
            "Player 1 passes and discards the whole hand.",
            "You pass and discard the whole hand.",
        ),
        (
            "Player 1 shuffles the discard pile into a new deck.",
            "You shuffle the discard pile into a new deck.",
        ),
    ],
    "metal-fusion": [
        (
            "Battle power on blue: Player 2 5, Player 3 7, Player 1 6.",
            "Battle power on blue: Casual bot 5, Beginner bot 7, you 6.",
        ),
        (
            "Effect #4 adds +2 to the power of Player 1.",
            "Effect #4 adds +2 to your power.",
        ),
        (
            "Effect #15 goes to Player 1's hand all the same.",
            "Effect #15 goes to your hand all the same.",
        ),
        (
            "Player 1 discards Effect #12 from their hand to use it.",
            "You discard Effect #12 from your hand to use it.",
        ),
        (
            "Player 2 has no card left to reveal; cards in hand: Player 1 0, "
            "Player 2 4. Player 2 wins (ruling M6).",
            "Casual bot has no card left to reveal; cards in hand: you 0, "
            "Casual bot 4. Casual bot wins (ruling M6).",
        ),
        (
            "Player 1 holds 2 cards in hand and wins (ruling M5).",
            "You hold 2 cards in hand and win (ruling M5).",
        ),
        (
            "Player 1 puts Effect #4 into their hand.",
            "You put Effect #4 into your hand.",
        ),
        (
            "Player 1 slides Effect #4 under their beyblade as a booster.",
            "You slide Effect #4 under your beyblade as a booster.",
        ),
        (
            "Player 1 turns over #15, #3; Player 2 turns over #1: Player 2 attacks "
            "first (ruling M2).",
            "You turn over #15, #3; Casual bot turns over #1: Casual bot attacks "
            "first (ruling M2).",
        ),
        (
            "Player 1 wins the battle and takes Effect #4.",
            "You win the battle and take Effect #4.",
        ),
    ],
    "collide-o": [
        (
            "Nobody can play on the lone card: Player 1 puts card 0 (blue | yellow |"
            " black) under the set-aside pile and turns up card 4 (rulings O4, O8).",
            "Nobody can play on the lone card: you put card 0 (blue | yellow |"
            " black) under the set-aside pile and turn up card 4 (rulings O4, O8).",
        ),
        (
            "Nobody can play: Player 1 removes card 7 from the left end and card 14"
            " from the right end (ruling O4).",
            "Nobody can play: you remove card 7 from the left end and card 14"
            " from the right end (ruling O4).",
        ),
        (
            "Player 1 plays card 20 (red | green | red) on the right end, turned "
            "end to end.",
            "You play card 20 (red | green | red) on the right end, turned end to end.",
        ),
        (
            "Player 1's last card can still be challenged; the result waits.",
            "Your last card can still be challenged; the result waits.",
        ),
        ("Player 1 cannot play and passes.", "You cannot play and pass."),
    ],
    "bakugan": [
        (
            "Battle on P1-G2 (Doom): Player 1's Dragonoid (340 G) against "
            "Player 2's Preyas (310 G).",
            "Battle on P1-G2 (Doom): your Dragonoid (340 G) against "
            "Casual bot's Preyas (310 G).",
        ),
        (
            "Player 1 has no Bakugan to roll and no enemy stands: P1-G2 goes to "
            "their used pile with their Bakugan.",
            "You have no Bakugan to roll and no enemy stands: P1-G2 goes to "
            "your used pile with your Bakugan.",
        ),
        (
            "Player 1's Dragonoid has nowhere to move: Player 1 wins P2-G2 with "
            "both Bakugan.",
            "Your Dragonoid has nowhere to move: you win P2-G2 with both Bakugan.",
        ),
        (
            "Player 1's Gorem wins: Player 1 takes P1-G1.",
            "Your Gorem wins: you take P1-G1.",
        ),
        (
            "Player 2's Gorem wins: Player 2 takes P1-G1.",
            "Casual bot's Gorem wins: Casual bot takes P1-G1.",
        ),
        ("Player 1 has won three gates.", "You have won three gates."),
        (
            "Player 1 moves P1-G1 to their used pile.",
            "You move P1-G1 to your used pile.",
        ),
    ],
}


@pytest.mark.parametrize(
    "engine, spoken",
    [pair for phrases in PHRASES.values() for pair in phrases],
)
def test_every_games_log_lines_read_whole_in_the_second_person(engine, spoken):
    assert speak(engine, ["You", "Casual bot", "Beginner bot"]) == spoken


@pytest.mark.parametrize("slug", sorted(PHRASES))
def test_no_played_log_line_leaves_a_third_person_verb_after_you(slug):
    case = CASES[slug]
    game = case.game
    wrong = []
    for seed in range(6):
        players, options = case.setups[seed % len(case.setups)]
        state = game.new_game(case.decks(players, seed), dict(options), seed)
        rng = random.Random(seed)
        for _ in range(300):
            if game.is_over(state):
                break
            outcomes = game.chance_outcomes(state)
            if outcomes:
                action = rng.choices(*zip(*outcomes, strict=True))[0]
            else:
                action = rng.choice(game.legal_actions(state))
            state = game.apply(state, action)
        names = ["You"] + [f"Casual bot {i}" for i in range(1, players)]
        for line in game.view(state, 0).events:
            said = speak(line, names)
            if re.search(r"\b[Yy]ou (?!\w+ss\b)[a-z]+s\b", said) or (
                re.search(r"\b[Yy]ou\b", said) and " their " in said
            ):
                wrong.append(said)
    assert wrong == []


def test_hot_seat_names_entered_at_the_start_are_the_names_everywhere(
    client, user, other_user, deck_for
):
    deck = deck_for("collision")
    client.force_login(user)
    answer = client.post(
        "/play/new/",
        {
            "deck": deck.pk,
            "opponent": "hotseat",
            "players": 2,
            "seed": 5,
            "seat_name": ["  Ann  ", "Bo"],
        },
    )
    pt = Playtest.objects.get()
    assert answer.status_code == 302
    assert [s.get("label") for s in pt.seats] == ["Ann", "Bo"]
    seat = acting_seat(pt, load_state(pt))
    page = client.get(f"/play/{pt.pk}/?seat={seat}")
    events, choices = page.context["events"], page.context["choices"]
    assert events[:4] == [
        "Ann stands Ember Wing, Practice Blade up, deals a spin pile of 6 and draws 5.",
        "Bo stands Ember Wing, Practice Blade up, deals a spin pile of 6 and draws 5.",
        "The seed picks Bo to go first.",
        "Turn 1: Bo.",
    ]
    assert choices and all(c.label.endswith(" against Ann.") for c in choices[:-1])
    assert "Ann · " in page.content.decode() and "Bo · " in page.content.decode()
    playtest_share(playtest=pt, on=True)
    client.force_login(other_user)
    replay = client.get(f"/play/shared/{pt.share_token}/?step={len(pt.log)}")
    said = " ".join(replay.context["events"])
    assert "Ann" in said and not re.search(r"\b[Yy]ou\b|Player [12]", said)


@pytest.mark.parametrize(
    "names, message",
    [
        (["Ann", "ann"], "Each player needs a name of their own."),
        (["A" * 31, "Bo"], "A player's name is at most 30 characters."),
        (["Ann\x00", "Bo"], "A player's name holds a control character."),
    ],
)
def test_hot_seat_names_that_would_confuse_the_log_are_refused(
    user, deck_for, names, message
):
    with pytest.raises(PlaytestError) as refused:
        playtest_create(
            owner=user,
            deck=deck_for("collision"),
            opponent="hotseat",
            seed=1,
            names=names,
        )
    assert refused.value.message == message
    assert Playtest.objects.count() == 0


def test_a_hot_seat_seat_left_unnamed_is_player_n(user, deck_for):
    pt = playtest_create(
        owner=user,
        deck=deck_for("collision"),
        opponent="hotseat",
        seed=1,
        names=["Ann"],
    )
    assert seat_names(pt) == ["Ann", "Player 2"]
