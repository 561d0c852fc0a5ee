"""Bakugan Battle Brawlers (Spin Master, 2007-2012): the rules engine.

What it models: the current rule book for two players and the four-player cross.
Each seat brings three Bakugan, three Gate cards and three Ability cards
(exactly three of each; another shape is a bad deck).

- Set-up (ruling B1): in turn order from the first player, each player chooses
  which of their gates to place face down in front of the opponent (four
  players: in the centre cross, ruling B8). The owner knows a face-down gate;
  the others see its back.
- First player (ruling B9): option ``"first"`` (a seat index), else the seed.
  Turns go clockwise (seat order) from there; four players likewise (B8).
- A turn: the player chooses an unused Bakugan to roll; with none unused the
  used pile is recycled first (the text says so). The roll is a chance step
  (ruling B2) with outcomes "missed" and "landed on gate X" for each gate in
  play: a roll lands with probability ``options["land_probability"]`` (default
  0.6) spread evenly over the gates. With ``options["table"]`` the rolling
  player enters the outcome instead: ``to_act`` is that player and the outcomes
  are their legal actions. A Bakugan touching two gates counts for the one it
  rests on most (B11): the outcome names one gate either way.
- Landing: a missed Bakugan goes to the used pile. On an empty gate it stands
  and the turn ends. On a gate holding the player's own Bakugan it moves to
  another gate; a gate holding one's own Bakugan is no place to move to (B11);
  with several places the player chooses (B3, an action), with one it goes
  there; with none the player wins the gate landed on, both Bakugan going to
  the used pile (B11). Moving onto an empty gate ends the turn; onto an
  opponent's Bakugan starts a battle, as does landing on one.
- Battle: both Bakugan leave the gate; the "before a battle" window; the gate
  opens and its ``gate_open`` steps apply; steps held from cards played before
  or after the roll apply; the "in battle" window; then each Bakugan adds the
  gate bonus for its own attribute (B5); the higher G-Power wins (unless a
  ``lower_wins`` step says the lower); a tie goes to the Bakugan that stood on
  the gate first (the defender). The winner takes the gate to their used pile
  and both Bakugan go to their owners' used piles (B6); then the gate's and the
  cards' after-battle steps apply and the "after a battle" window opens.
- Ability windows (B10): before a roll and after a roll (every player may
  play), before a battle, in battle and after a battle (only the two
  battlers). Every window opens and goes round every seat that may play in
  it, holding a card for it or not: each player plays one card or passes, and
  the window closes when every one of them has passed in a row. A seat with
  nothing to play has one choice, to pass, and its pass reads exactly like a
  chosen one ("P2 passes"), so nobody learns from a window what kinds of
  ability card another player still holds (the playtest may play such a
  forced pass by itself). The battle windows alternate between the two
  battlers from the player whose turn it is (B10), with four players too
  (otherwise from the battler whose turn comes first). The windows anyone may
  play in (before and after a roll) start with the player whose turn it is
  when two play; with four they start with the player whose turn is next, as
  the four-player text says ("If two people want to play a card at the same
  time, the person whose turn is next gets to play their card first"), and go
  round in turn order from there. Each ability card is
  played once per game and goes to the used pile (B4). A card plays in the
  window its ``timing`` names; without one, in the window of its first step's
  timing, else in battle.
- New gates (B7): when the field is empty at the end of a turn, each player
  holding a gate places one, in turn order from the next player; a player
  with none places none; when nobody can place, the game ends: most gates won
  wins, a tie for most is a draw. Three gates won wins at once.
- No Bakugan to roll (four-player text, applied to every game): a player with
  no unused or used Bakugan may move a standing Bakugan onto a gate holding
  an enemy Bakugan (a battle, the moved one attacking); with no enemy Bakugan
  standing, they move a gate on which they stand to their used pile (it counts
  as won) with all their standing Bakugan. A player with no Bakugan at all
  (all removed, B12) skips the turn.
- Every game ends (ruling E3): after ``TURN_CAP`` turns the game is a draw
  and the log says so.

Effect encoding (card "effects", core vocabulary). An ability card's steps run
when it is played; a gate's ``gate_open`` steps run when it opens and its
``after_battle`` steps once the battle is decided.

The official cards (issue 18) add to that vocabulary (``cards.effects``):
``attribute_bonus`` (the card's printed bonus for the Bakugan's attribute, or
its opponent's with ``of``), ``gate_bonus_again`` (the gate bonus once more, or
``amount`` more times; -2 subtracts it), ``no_gate_bonus``, ``nullify_gate``
(the gate's steps stop counting, its bonus does not), ``no_abilities`` (those
players may not play in the rest of the battle: each battle window still asks
them in turn, and passing is their only choice), ``double_ability_bonus`` and
``zero_ability_bonus`` (G-Power from Ability cards, optionally of colours),
``zero_printed``, ``return_abilities``/``discard_ability`` (``amount`` 0 is
all; the last used come back first, hand order goes first), ``take_gate``
(the gate an opponent won last), ``keep_gate`` (after the battle: the gate
goes back to the field, open), ``reroll`` and ``move_bakugan`` (after the roll:
the roll is made again, or the landed Bakugan moves to another gate as in
B3), ``extra_turn`` (if no battle comes this turn), ``return_bakugan`` and
``clear_field`` (before the roll, at once). Each step may carry ``if``
conditions (``cards.effects.EFFECT_CONDITIONS``: the target's attribute, the
gate's class and owner, printed G-Power, the win margin, ...), all of which
must hold for the target Bakugan, and ``per`` (``amount`` times a count). A
card not encoded, or encoded with a step this engine lacks, plays as its bonus
alone: a gate gives its bonus, an ability its printed bonus for its owner's
Bakugan in battle (issue 18; B4 otherwise stands: printed numbers act only
through the encoding), or nothing when it prints none. "Lowest"/"highest"
printed G-Power is strict.

The later series (issue 18) add: ``reroll_on_miss`` (before the roll: a miss
is rolled again, ``amount`` times), ``best_gate_bonus`` and ``cap_gate_bonus``,
``change_attribute`` (``to``: best, own_best, worst, none, swap, opposite, or a
Trap's), ``clear_bonuses`` (what was given before it, the gate bonus too, no
longer counts), ``copy_printed``, ``swap_battler`` (``of`` the pile, ``to``
best: its owner brings its strongest; worst: the card's player forces the
weakest, only to gain), ``join_gate`` (after an opponent's roll lands on an
empty gate: the owner's strongest unused Bakugan of those attributes stands
there first, so a battle follows), ``place_gate`` and ``bank_gate`` (the
first gate of the hand into the field, or into the used pile as won),
``send_used``, ``peek_gates`` and ``face_up_gates`` (what a player may see),
``clear_field`` at a gate's opening (Galeforce, counted by ``cleared_bakugan``),
``no_abilities`` with ``colours`` (those colours only), counts read when the
battle is decided (``cards.effects.LATE_COUNTS``: cards played in the battle),
and the ``used_pile`` timing: the step acts in every battle while the card
lies in a used pile (a won gate, a used Ability card; ``reroll_on_miss`` when
its owner rolls, the roll before which the card was played included: Rip Tide
played before its owner's roll re-rolls that roll if it misses, since the
Bakugan is thrown after the window). An ``arm`` step makes those lasting steps
start only if its conditions held when the card was played, for the card's
player (played in another player's roll window too). The site's decks hold no Bakugan
Traps: a ``trap`` condition never holds and the Trap ops find none. Where a
card lets its player choose, the engine chooses what serves them (the help
page lists each such reading).

- ``add_g_power`` (amount, target, optional attribute): adds to the battle
  G-Power of each target Bakugan (of that attribute only, when given).
- ``swap_g_power``: exchanges the two battlers' printed G-Power; every bonus
  (Ability cards, played before the gate opened or after, and the gate bonus)
  stays with the Bakugan it was given to (issue 35).
- ``lower_wins``: the lower G-Power wins this battle (a tie still goes to the
  defender).
- ``cancel_gate``: the gate's bonus and its not yet decided steps do not count
  (its immediate ``remove_bakugan``/``win_gate`` steps have already happened).
- ``win_gate`` (target): that Bakugan wins the battle at once.
- ``remove_bakugan`` (target): that Bakugan leaves the game for good (B12).
  In a battle its opponent wins at once; with both removed nobody wins and
  the gate stays in play, open.
- Targets: ``self`` is the card owner's battler, ``opponent``/``each_opponent``
  the other battler, ``attacker`` the Bakugan that arrived, ``defender`` the
  one that stood there, ``all`` both. For a gate, ``self`` is its owner's
  battler, except in ``after_battle`` steps, where ``self`` is the winner and
  ``opponent`` the loser (so a Doom Card is
  ``{"op": "remove_bakugan", "timing": "after_battle", "target": "opponent"}``).
- ``turn``: ``your`` runs the step only in its owner's turn, ``opponent`` only
  in another player's turn.
- Cards played before or after a roll hold their steps for their owner's
  next battle this turn; unused, they lapse at the end of the turn (logged).
  A step timed ``after_battle`` on a card played earlier waits until the
  battle is decided. After a battle only ``remove_bakugan`` still acts on the
  two battlers; other steps have no effect there.
- A card with no steps, or with a step whose op or timing this engine does not
  support, plays as its basic self: an ability card is just used up, a gate
  gives its bonus only; the log says the text is not encoded.

Card data: Bakugan need ``attribute`` and ``g_power``; a gate needs all six
bonuses (B5); null is unknown and blocks play (``card_problems``); a bonus
named in the card's ``not_printed`` list counts 0 (E4). Printed ability
bonuses are shown only; they act only through encoded steps (B4).

Gate labels: a gate on the field is labelled by its owner and the order in
which its owner put it on the field ("P2-G1" is the first gate Player 2
placed), never by its place in the deck, so the label says nothing of which
card it is. The place action names the gate by its place in its owner's hand
("P2 places G3"); the view's copy of the action log shows another player's
placement as "P2 places a gate".

Hidden information: ``view(state, player)`` shows a face-down gate's name,
bonuses and text only to its owner; everyone sees it once it has opened in a
battle. A gate taken into a used pile without ever opening (B11, the "no
Bakugan to roll" clear, a battle decided before the gate opens) stays face
down to the others, but the player who took it may look at it. The stored
event log names gates in full (replays and tests read it); the view's copy
names a gate the viewer may not see by its label only ("P2-G1"), and so does
``describe`` for whoever chooses a move or enters a roll. Other players'
gate and ability hands are counts.

Readings where the rulings are silent: the "no Bakugan to roll" rule holds in
two-player games too, and "all of his standing Bakugan" means every one the
player has standing; the B7 placement starts with the next player to take a
turn; held steps apply after the gate's own steps.

The package, from the bottom up: ``state`` (actions, card data, the state,
set-up, turn order), ``effects`` (the effects interpreter), ``battle``
(landings and battles), ``windows`` (the ability windows), ``play`` (legal
actions, chance, applying a move), ``view`` (words, views, the saved form) and
``valuation`` (the bots' scores); this module re-exports their interface.
"""

from ..core import (
    CHANCE,
    EngineError,
    copy_state,
)
from .battle import _powers, battle_winner
from .play import (
    _chance_outcomes_reference,
    apply,
    apply_reference,
    chance_outcomes,
    legal_actions,
    play_forced,
)
from .state import (
    _WINDOW_ORDERS,
    ABILITY_TIMINGS,
    ATTRIBUTES,
    BATTLE_WINDOWS,
    BONUS_ALONE,
    GAME,
    GATE_TIMINGS,
    GATES_TO_WIN,
    MAX_PLAYERS,
    MIN_PLAYERS,
    MISS,
    NAME,
    NOT_ENCODED,
    OPS,
    PROSPECT_BATTLE,
    PROSPECT_FIELD,
    PROSPECT_GUARD,
    PROSPECT_ROLL,
    PROSPECT_STAND,
    SEAT_COUNTS,
    SLUG,
    TURN_CAP,
    VERSION,
    WINDOW_WORDS,
    WINDOWS,
    ZONES,
    Action,
    Battle,
    State,
    _gname,
    _gname_reference,
    _known,
    _window_order,
    card_problems,
    g_power_on_gate,
    is_over,
    length,
    new_game,
    parse_action,
    player_count,
    to_act,
    winner,
)
from .valuation import (
    _prospects,
    _prospects_reference,
    score,
    scores_after,
)
from .view import (
    action_cards,
    describe,
    from_json,
    to_json,
    view,
    why_not,
)

__all__ = [
    "battle_winner",
    "ABILITY_TIMINGS",
    "ATTRIBUTES",
    "Action",
    "BATTLE_WINDOWS",
    "BONUS_ALONE",
    "Battle",
    "GAME",
    "GATES_TO_WIN",
    "GATE_TIMINGS",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "MISS",
    "NAME",
    "NOT_ENCODED",
    "OPS",
    "PROSPECT_BATTLE",
    "PROSPECT_FIELD",
    "PROSPECT_GUARD",
    "PROSPECT_ROLL",
    "PROSPECT_STAND",
    "SEAT_COUNTS",
    "SLUG",
    "State",
    "TURN_CAP",
    "VERSION",
    "WINDOWS",
    "WINDOW_WORDS",
    "ZONES",
    "action_cards",
    "apply",
    "apply_reference",
    "card_problems",
    "chance_outcomes",
    "describe",
    "from_json",
    "g_power_on_gate",
    "is_over",
    "legal_actions",
    "length",
    "new_game",
    "parse_action",
    "play_forced",
    "player_count",
    "score",
    "scores_after",
    "to_act",
    "to_json",
    "view",
    "why_not",
    "winner",
    # Core names and private ones that callers and tests read from this package.
    "CHANCE",
    "EngineError",
    "copy_state",
    "_WINDOW_ORDERS",
    "_chance_outcomes_reference",
    "_gname",
    "_gname_reference",
    "_known",
    "_powers",
    "_prospects",
    "_prospects_reference",
    "_window_order",
]
