"""Collision valuation for the bots: the score of a position and of each move."""

from __future__ import annotations

from ..core import (
    EngineError,
    copy_state,
)
from . import (
    HAND_SIZE,
    TURN_CAP,
    Action,
    State,
    _Card,
    _legal_now,
    _move,
    _refusal,
    _targets,
    hits,
)


def score(state: State, player: int) -> float:
    """Return a heuristic value of ``state`` for ``player`` (greedy bot)."""
    s = state
    if s.phase == "over":
        if s.winner is None:
            return 0.0
        return 1000.0 if s.winner == player else -1000.0
    if s.out[player]:
        return -500.0
    cards, hand = s.cards, s.hand[player]
    return _value(
        _spin_term(s, player, [*map(len, s.spin)]),
        len({cards[uid].colour for uid in hand}),
        len(hand),
        len(s.characters[player]),
        _threat(player, s.battle, s.attacker, s.defender),
    )


def _spin_term(s: State, player: int, spins: list) -> float:
    """Return the first term of ``score``: ten a spin card above the rivals' mean.

    ``spins`` gives each seat's spin count, so that ``scores_after`` can
    value hits without making them; who is out is read from ``s``. With two
    players the one rival is the mean, divided by one as the loop divides.
    """
    out = s.out
    if s.n == 2 and not out[1 - player]:
        return 10.0 * spins[player] - 10.0 * (spins[1 - player] / 1)
    total = count = 0  # the rivals' spin cards, summed as ``score`` sums them
    for q in range(s.n):
        if q != player and not out[q]:
            total += spins[q]
            count += 1
    return 10.0 * spins[player] - 10.0 * (total / count)


def _value(
    spin_term: float, colours: int, held: int, characters: int, threat: float
) -> float:
    """Return ``score`` of a game going on for a player still in it, from its parts.

    The parts: the ``_spin_term``, the number of colours in the player's hand
    and of cards in it, the player's Characters in play and the battle's
    ``_threat``; ``scores_after`` works them out for a move without making it.
    """
    value = spin_term
    value += 0.5 * colours + 0.2 * held
    value += 1.5 * characters
    if threat:
        value += threat
    return value


def _threat(player: int, battle: int, attacker: int, defender: int) -> float:
    """Return the score term of a battle under way: +4 to the attacker, -4 to the defender.

    Without it a one-ply bot sees nothing in attacking (the hits come later)
    and two such bots can pass to the turn cap.
    """
    if battle == 1:
        if attacker == player:
            return 4.0
        if defender == player:
            return -4.0
    return 0.0


def scores_after(state: State, actions, player: int) -> list[float]:
    """Return ``player``'s score after each action, as ``search.scores_after_reference``.

    The greedy bot asks this at every decision, and the plain definition
    copies the whole state and makes the move once per action. Most moves
    are valued here without making them: a card played or stopped with that
    fires no text (``_score_of_card``) and a pass or an unstopped battle that
    ends the turn quietly (``_score_of_turn_end``). Any other action is made
    on a copy without the log and the events (``_lookahead``), which no rule
    and no score reads. A test holds this to the plain definition along
    whole games, basic and advanced, for every seat.
    """
    s = state
    if s.phase == "over":
        raise EngineError("game_over", "The game is over.")
    legal = _legal_now(s)
    spins = [*map(len, s.spin)]
    # What every card move leaves as it is: the spin piles, the player's hand
    # less the card moved (counted by colour, index -1 last).
    hand = None
    if not s.out[player]:
        hand = _Hand(s, player, spins)
    values = []
    for action in actions:
        if action not in legal:
            raise _refusal(s, action)
        kind = action.kind
        if kind == "play" or kind == "stop":
            value = _score_of_card(s, action, player, hand, spins)
        elif kind == "pass" or kind == "nostop":
            value = _score_of_turn_end(s, action, player, spins)
        elif kind == "discard":
            value = _score_of_discard(s, action, player, hand)
        elif kind == "test":
            value = _score_of_test(s, action, player, spins)
        else:
            value = None
        if value is None:
            after = _lookahead(s)
            _move(after, action)
            value = score(after, player)
        values.append(value)
    return values


class _Hand:
    """What a card move leaves of a player's score parts, worked out once a decision."""

    __slots__ = ("spin_term", "uids", "counts", "colours", "characters")

    def __init__(self, s: State, player: int, spins: list):
        self.spin_term = _spin_term(s, player, spins)
        self.uids = s.hand[player]
        self.counts = counts = [0] * 5  # cards of each colour, -1 (none) last
        cards = s.cards
        for uid in self.uids:
            counts[cards[uid].colour] += 1
        self.colours = 5 - counts.count(0)
        self.characters = len(s.characters[player])


def _score_of_card(
    s: State, action: Action, player: int, hand: _Hand | None, spins: list
) -> float | None:
    """Return ``player``'s score after a play or a stop; None if it must be made.

    A play or a stop that fires no text (any card in the basic game; in the
    advanced game an Action without play-symbol text, or any Character)
    takes the card from its owner's hand or table to the battle pile and
    leaves the game in the stop step (``_play``, ``_stop``): only the
    mover's hand or Characters and the battle change. An Action's text is
    valued by ``_score_of_text``. ``hand`` is None for a player who is out.
    """
    uid = action.card
    card = s.cards[uid]
    if action.kind == "play":
        mover, chosen = s.turn_player, action.target
        threat = _threat(player, 1, mover, action.target)
    else:
        mover, chosen = s.responder, s.chosen_opponent
        threat = _threat(player, s.battle, s.attacker, s.defender)
    if s.advanced and card.play and card.kind == "action":
        return _score_of_text(s, player, hand, spins, mover, uid, chosen, threat)
    if hand is None:
        return -500.0
    return _value_without(s, player, hand, mover, uid, threat)


def _score_of_text(
    s: State,
    player: int,
    hand: _Hand | None,
    spins: list,
    owner: int,
    uid: int,
    chosen: int,
    threat: float,
) -> float | None:
    """Return ``player``'s score after an Action whose play-symbol text fires; None for most.

    Valued here: text of which at most one step passes its turn limit
    (``_fire``), aimed at one player (``_targets``, with the opponent the play
    chooses), that draws or gains spin from a deck holding more cards than
    it asks (no reshuffle), loses spin without putting anybody out, or
    discards (a hand no bigger than the amount goes whole; otherwise a choice
    is asked, which changes nothing yet). That is ``_run`` for those ops;
    the battle then waits in its stop step or on the choice. Removing, and
    anything else, is made on a copy.
    """
    steps = s.cards[uid].play_firing[s.turn_player == owner]
    if len(steps) > 1:
        return None
    targets = _targets(s, owner, steps[0][2], chosen) if steps else []
    if len(targets) > 1:
        return None
    if hand is None:
        # Out already: -500, unless the text may end the game (made on a copy).
        if targets and steps[0][0] == "lose_spin" and steps[0][1] >= spins[targets[0]]:
            return None
        return -500.0
    if not targets:
        return _value_without(s, player, hand, owner, uid, threat)
    op, amount = steps[0][0], steps[0][1]
    p = targets[0]
    held = s.hand[player]
    if player == owner:
        held = [other for other in held if other != uid]
    spin_term = hand.spin_term
    if op == "draw" or op == "gain_spin":
        deck = s.deck[p]
        if len(deck) <= amount:
            return None  # the deck runs out: a reshuffle draws on the generator
        if op == "draw":
            if p == player:
                held = held + deck[len(deck) - amount :]
        else:
            room = s.cards[s.blade[p]].spin - spins[p]
            gained = max(0, min(amount, room))
            if gained:
                spins = spins[:]
                spins[p] += gained
                spin_term = _spin_term(s, player, spins)
    elif op == "lose_spin":
        lost = min(amount, spins[p])
        if lost == spins[p]:
            return None  # the player goes out (ruling C17)
        spins = spins[:]
        spins[p] -= lost
        spin_term = _spin_term(s, player, spins)
    elif op == "discard":
        size = len(s.hand[p]) - (1 if p == owner else 0)
        if size <= amount and p == player:
            held = []
    else:
        return None
    cards = s.cards
    return _value(
        spin_term,
        len({cards[other].colour for other in held}),
        len(held),
        hand.characters,
        threat,
    )


def _value_without(
    s: State, player: int, hand: _Hand, mover: int, uid: int, threat: float
) -> float:
    """Return ``player``'s score once ``mover``'s card ``uid`` has left hand or table."""
    colours, held, characters = hand.colours, len(hand.uids), hand.characters
    if player == mover:
        if uid in hand.uids:
            held -= 1
            if hand.counts[s.cards[uid].colour] == 1:
                colours -= 1
        else:
            characters -= 1  # a Character stops from the table
    return _value(hand.spin_term, colours, held, characters, threat)


def _score_of_discard(s: State, action: Action, player: int, hand: _Hand | None):
    """Return ``player``'s score after a chosen discard; None if more than it follows.

    A discard chosen for text or for the refill (rulings C12, C15 aside:
    ``pick`` is not valued here) moves one card from hand to discard pile
    (``_choose``). When the choice goes on, or when it ends and the game
    simply resumes, that is all: after text, resuming means no more text
    queued and the battle's stop step or the turn's main step next; after
    the refill's discard down to five the turn ends, which is quiet unless
    the cap is reached or passive text fires at the next turn's start. Any
    other case is made on a copy. The battle term is read as it stands.
    """
    kind, _, subject, remaining, _, _ = s.choice
    if remaining == 1 or len(s.hand[subject]) == 1:  # the choice ends
        if kind == "refill":
            if s.turn >= TURN_CAP or (s.advanced and _passive_text_in_play(s)):
                return None
        elif s.queue or not (
            s.then == "stop" or (s.then == "main" and not s.out[s.turn_player])
        ):
            return None
    if hand is None:
        return -500.0
    threat = _threat(player, s.battle, s.attacker, s.defender)
    return _value_without(s, player, hand, subject, action.card, threat)


def _score_of_turn_end(
    s: State, action: Action, player: int, spins: list
) -> float | None:
    """Return ``player``'s score after a quiet pass or no-stop; None otherwise.

    Quiet means: no passive text in play, the battle winner's win-symbol
    text (if any) one step that draws, gains or loses spin for one player
    (``_win_step``), nobody goes out, no hand over five, every card drawn or
    gained from a deck that does not run out (so no reshuffle draws on the
    generator, as in ``_refill``'s fast path), and the turn cap not reached.
    The only changes a score then reads are the defender's spin after the
    hits (rulings C4-C6, ``_no_stop``), the win text's cards and spin, the
    hands refilled from the tops of their decks (ruling C7) and no battle.
    """
    if s.turn >= TURN_CAP or (s.advanced and _passive_text_in_play(s)):
        return None
    cards = s.cards
    emptied = -1  # the seat whose hand a pass discards
    # Win text's cards off the top of one seat's deck, before the refill.
    early_seat, early_cards, early_to_hand = -1, 0, False
    if action.kind == "pass":
        emptied = s.turn_player
    else:
        attacker, defender = s.attacker, s.defender
        winner = attacker if s.responder == defender else defender
        if winner == attacker:
            top = cards[s.pile[attacker][-1]]
            pile = s.pile[defender]
            against = cards[pile[-1] if pile else s.blade[defender]]  # ruling C5
            paid = min(hits(top, against), spins[defender])
            if paid == spins[defender]:
                return None  # the defender goes out
            spins = spins[:]
            spins[defender] -= paid
        top = cards[s.pile[winner][-1]]
        if s.advanced and top.kind == "action" and top.win:
            step = _win_step(s, winner, top)
            if step is None:
                return None
            if step:
                p, op, amount = step
                if op == "lose_spin":
                    lost = min(amount, spins[p])
                    if lost == spins[p]:
                        return None  # the player goes out
                    spins = spins[:]
                    spins[p] -= lost
                elif len(s.deck[p]) <= amount:
                    return None  # the deck runs out: a reshuffle
                elif op == "draw":
                    early_seat, early_cards, early_to_hand = p, amount, True
                else:  # gain_spin, up to the strength (ruling C14)
                    room = cards[s.blade[p]].spin - spins[p]
                    early_seat, early_cards = p, max(0, min(amount, room))
                    spins = spins[:]
                    spins[p] += early_cards
    hands = s.hand[:]  # each seat's hand once the battle or pass is over
    tops = [*map(len, s.deck)]  # where each deck's top is then
    if emptied >= 0:
        hands[emptied] = []
    if early_seat >= 0:
        tops[early_seat] -= early_cards
        if early_to_hand:
            deck = s.deck[early_seat]
            hands[early_seat] = hands[early_seat] + deck[tops[early_seat] :]
    return _score_of_refill(s, player, spins, hands, tops, len(s.characters[player]))


def _score_of_refill(
    s: State, player: int, spins: list, hands: list, tops: list, characters: int
) -> float | None:
    """Return ``player``'s score after the refill and the turn's end; None if not quiet.

    ``hands``, ``tops`` (where each deck's top is) and ``spins`` are the
    seats' as the move leaves them before the refill; ``characters`` the
    player's. Quiet: nobody is out of spin, no hand is over five and every
    refill comes from a deck that keeps a card (``_refill``'s fast path, no
    reshuffle); the caller checks the turn cap and passive text.
    """
    out = s.out
    for p in range(s.n):
        if out[p]:
            continue
        need = HAND_SIZE - len(hands[p])
        if not spins[p] or need < 0 or (need > 0 and tops[p] <= need):
            return None
    if out[player]:
        return -500.0
    hand = hands[player]
    need = HAND_SIZE - len(hand)
    if need:
        top = tops[player]
        hand = hand + s.deck[player][top - need : top]
    cards = s.cards
    return _value(
        _spin_term(s, player, spins),
        len({cards[uid].colour for uid in hand}),
        len(hand),
        characters,
        0.0,
    )


def _score_of_test(s: State, action: Action, player: int, spins: list) -> float | None:
    """Return ``player``'s score after a test (ruling C11); None if it must be made.

    Valued here when the tested deck keeps a card (no reshuffle), a passing
    card fires no text and brings no passive text into play, and the turn
    then ends quietly (``_score_of_refill``, no cap, no passive text in
    play): the tested card leaves the hand for the table or the discard pile
    and the test card leaves the top of its deck (``_test``).
    """
    if s.turn >= TURN_CAP or _passive_text_in_play(s):
        return None
    tp, uid, target = s.turn_player, action.card, action.target
    deck = s.deck[target]
    if len(deck) < 2:
        return None  # the test card is the last, or there is none
    card = s.cards[uid]
    passed = hits(card, s.cards[deck[-1]]) > 0
    if passed and (card.play_firing[True] or card.passive):
        return None
    hands = s.hand[:]
    hands[tp] = [other for other in hands[tp] if other != uid]
    tops = [*map(len, s.deck)]
    tops[target] -= 1
    characters = len(s.characters[player])
    if passed and card.kind == "character" and player == tp:
        characters += 1
    return _score_of_refill(s, player, spins, hands, tops, characters)


def _win_step(s: State, winner: int, top: _Card) -> tuple | None:
    """Return the one win-symbol step of ``top`` as (seat, op, amount), () for none.

    None when more than one step fires, when one is aimed at several
    players, or when its op is not ``draw``, ``gain_spin`` or ``lose_spin``.
    """
    steps = top.win_firing[s.turn_player == winner]
    if not steps:
        return ()
    if len(steps) > 1:
        return None
    op, amount, target, _, _ = steps[0]
    if op not in ("draw", "gain_spin", "lose_spin"):
        return None
    targets = _targets(s, winner, target)
    if len(targets) > 1:
        return None
    return (targets[0], op, amount) if targets else ()


def _passive_text_in_play(s: State) -> bool:
    """Return whether a Blade or Character of a player still in has passive text."""
    if not s.passive_text:
        return False  # no card of the game has any
    cards = s.cards
    for p in range(s.n):
        if s.out[p]:
            continue
        if cards[s.blade[p]].passive:
            return True
        for uid in s.characters[p]:
            if cards[uid].passive:
                return True
    return False


def _lookahead(state: State) -> State:
    """Return a copy of ``state`` to try a move on: ``copy_state`` less the log and events.

    Only the saved form, the view and ``apply``'s legal-action cache read the
    log and the events, and the copy is only scored, so it starts both empty.
    """
    shell = object.__new__(State)
    shell.__dict__ = {**state.__dict__, "log": [], "events": []}
    return copy_state(shell)
