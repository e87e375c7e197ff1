"""What one seat may know, as a flat float32 vector with named parts (``LAYOUT``).

Everything but the order of the draw pile and the reserve is public (spec §6), and the public
state is a sufficient statistic of the public history, so the observation is the public state
with seats relative to the observer: index 0 is the observer, 1 the next seat clockwise, ...
Blocks marked [relative seat, ...] hold NUM_PLAYERS_MAX rows; absent seats' rows are zero.
``LEGEND`` says how each part reads (its entries' labels, its seats), for the text view
(:mod:`heist_envs.core.layout`).
"""

import numba as nb
import numpy as np

from heist_envs.core.layout import (
    EACH_SEAT,
    build_layout,
    count,
    flag,
    legend,
    number,
    one_hot,
    player_count,
)

from .components import (
    BELLS,
    CARD_TABLE,
    COLOUR,
    COLOUR_NAMES,
    DRAW_SIZE,
    FEATHERS,
    INSP_START,
    NUM_CARDS,
    NUM_COLOURS,
    NUM_PLAYERS_MAX,
    NUM_PLAYERS_MIN,
    NUM_SPACES,
    RESERVE_SIZE,
    VP,
    card_kind,
)
from .rules import draw_size, reserve_size
from .state import (
    DISCARDED,
    EMPTY,
    GONE,
    NUM_OUTCOMES,
    NUM_PHASES,
    ON_BOARD,
    OUTCOME_NAMES,
    PHASE_NAMES,
    SEAT_0,
    UNUSED,
)

JOKER_STATES = NUM_COLOURS + 2  # one-hot: unused, joker of colour 0..4, gone

LAYOUT, OBS_SIZE = build_layout(
    [
        ("collections", NUM_PLAYERS_MAX * NUM_CARDS),  # [relative seat, card] owned
        ("colour_counts", NUM_PLAYERS_MAX * NUM_COLOURS),  # [relative seat, colour], joker in
        ("bells", NUM_PLAYERS_MAX * NUM_COLOURS),  # [relative seat, colour] bell symbols
        ("feathers", NUM_PLAYERS_MAX),  # [relative seat] feather symbols
        ("card_vp", NUM_PLAYERS_MAX),  # [relative seat] victory points on cards
        ("jokers", NUM_PLAYERS_MAX * JOKER_STATES),  # [relative seat, joker state] one-hot
        ("board", NUM_SPACES * NUM_CARDS),  # [space 1..7, card] one-hot, all zero = empty
        ("inspector", INSP_START),  # one-hot position 1..8
        ("revealed", INSP_START),  # one-hot: cards revealed this turn, 0..7
        ("discard", NUM_CARDS),  # cards in the discard pile
        ("discard_colour_counts", NUM_COLOURS),  # discard pile cards per colour
        ("unknown", NUM_CARDS),  # cards in the draw pile or the reserve (order unknown)
        ("draw_pile_size", 1),  # / 75
        ("reserve_size", 1),  # / 15
        ("phase", NUM_PHASES),  # one-hot
        ("outcome", NUM_OUTCOMES),  # one-hot: none, normal stop, coup d'eclat, caught
        ("need_left", 1),  # cards the leader still must take (normal stop)
        ("leader", NUM_PLAYERS_MAX),  # one-hot relative seat
        ("actor", NUM_PLAYERS_MAX),  # one-hot relative seat who decides now
        ("end_triggered", 1),  # the draw pile is exhausted: this is the last turn
        ("num_players", NUM_PLAYERS_MAX - NUM_PLAYERS_MIN + 1),  # one-hot 2..4
        ("pending_draws", 1),  # reserve draws owed to the JOKER decider
    ]
)
OBS_DTYPE = np.float32

#: every card by its colour and kind, as the render writes a collection: "Gold A2B" (the
#: default card table's: the text view does not see a ``card_table`` option)
CARDS = tuple(f"{COLOUR_NAMES[row[COLOUR]]} {card_kind(row)}" for row in CARD_TABLE)
SPACES = tuple(f"space {space}" for space in range(1, NUM_SPACES + 1))
LEGEND = legend(
    LAYOUT,
    {
        "collections": count("collections", (EACH_SEAT,), CARDS),
        "colour_counts": number("cards per colour, the joker included", (EACH_SEAT,), COLOUR_NAMES),
        "bells": count("bells per colour", (EACH_SEAT,), COLOUR_NAMES),
        "feathers": number("feathers", (EACH_SEAT,)),
        "card_vp": number("victory points on cards", (EACH_SEAT,)),
        "jokers": one_hot(
            "character cards",
            (EACH_SEAT,),
            ("unused", *(f"joker in {name}" for name in COLOUR_NAMES), "gone"),
        ),
        "board": one_hot("board", SPACES, CARDS),
        "inspector": one_hot("inspector", (*SPACES, "the notch right of space 7 (its start)")),
        "revealed": one_hot("cards revealed this turn", [str(k) for k in range(INSP_START)]),
        "discard": count("discard pile", CARDS),
        "discard_colour_counts": number("discard pile per colour", COLOUR_NAMES),
        "unknown": count("cards in the draw pile or the reserve, order unknown", CARDS),
        "draw_pile_size": number("cards in the draw pile", scale=DRAW_SIZE),
        "reserve_size": number("cards in the reserve", scale=RESERVE_SIZE),
        "phase": one_hot("phase", PHASE_NAMES),
        "outcome": one_hot("how the theft ended", OUTCOME_NAMES),
        "need_left": number("cards the leader must still take"),
        "leader": one_hot("leader", (EACH_SEAT,)),
        "actor": one_hot("who decides now", (EACH_SEAT,)),
        "end_triggered": flag("last turn (the draw pile is used up)"),
        "num_players": player_count(NUM_PLAYERS_MIN, NUM_PLAYERS_MAX),
        "pending_draws": number("reserve draws owed to the joker decider"),
    },
    seats=NUM_PLAYERS_MAX,
    relative=True,
    players="num_players",
    notes=(
        "A card is its colour and its kind: A1-A3 1 to 3 arrows (the inspector moves that "
        "far), R reserve (gaining it draws the top reserve card), F a feather, V1 or V2 victory "
        "points, TB the colour's tie-breaker (1 point), P a plain card; a final B is a bell "
        "(A1B: one arrow and a bell).",
    ),
)

_COLLECTIONS = LAYOUT["collections"].start
_COUNTS = LAYOUT["colour_counts"].start
_BELLS = LAYOUT["bells"].start
_FEATHERS = LAYOUT["feathers"].start
_VP = LAYOUT["card_vp"].start
_JOKERS = LAYOUT["jokers"].start
_BOARD = LAYOUT["board"].start
_INSPECTOR = LAYOUT["inspector"].start
_REVEALED = LAYOUT["revealed"].start
_DISCARD = LAYOUT["discard"].start
_DISCARD_COUNTS = LAYOUT["discard_colour_counts"].start
_UNKNOWN = LAYOUT["unknown"].start
_DRAW_SIZE = LAYOUT["draw_pile_size"].start
_RESERVE_SIZE = LAYOUT["reserve_size"].start
_PHASE = LAYOUT["phase"].start
_OUTCOME = LAYOUT["outcome"].start
_NEED_LEFT = LAYOUT["need_left"].start
_LEADER = LAYOUT["leader"].start
_ACTOR = LAYOUT["actor"].start
_END = LAYOUT["end_triggered"].start
_NUM_PLAYERS = LAYOUT["num_players"].start
_PENDING = LAYOUT["pending_draws"].start


@nb.njit(cache=True)
def relative(p, seat, n):
    """Seat p as seen from ``seat`` (0 = itself), as an int64 index."""
    return np.int64((np.int64(p) - np.int64(seat)) % n)


@nb.njit(cache=True)
def observe(s, seat, out):
    # Record fields are int8: indices are computed in int64 (no wrap-around without the jit).
    n = np.int64(s.num_players)
    out[:] = 0
    for card in range(NUM_CARDS):
        loc = np.int64(s.card_loc[card])
        colour = np.int64(s.card_table[card, COLOUR])
        if loc >= SEAT_0:
            rel = relative(loc - SEAT_0, seat, n)
            out[_COLLECTIONS + rel * NUM_CARDS + card] = 1
            out[_COUNTS + rel * NUM_COLOURS + colour] += 1
            out[_BELLS + rel * NUM_COLOURS + colour] += s.card_table[card, BELLS]
            out[_FEATHERS + rel] += s.card_table[card, FEATHERS]
            out[_VP + rel] += s.card_table[card, VP]
        elif loc == DISCARDED:
            out[_DISCARD + card] = 1
            out[_DISCARD_COUNTS + colour] += 1
        elif loc != ON_BOARD:
            out[_UNKNOWN + card] = 1
    for p in range(n):
        rel = relative(p, seat, n)
        joker = np.int64(s.joker[p])
        if joker == UNUSED:
            out[_JOKERS + rel * JOKER_STATES] = 1
        elif joker == GONE:
            out[_JOKERS + rel * JOKER_STATES + JOKER_STATES - 1] = 1
        else:
            out[_JOKERS + rel * JOKER_STATES + 1 + joker] = 1
            out[_COUNTS + rel * NUM_COLOURS + joker] += 1
    for space in range(1, s.n + 1):
        card = np.int64(s.board[space])
        if card != EMPTY:
            out[_BOARD + (space - 1) * NUM_CARDS + card] = 1
    out[_INSPECTOR + np.int64(s.insp) - 1] = 1
    out[_REVEALED + np.int64(s.n)] = 1
    out[_DRAW_SIZE] = draw_size(s) / DRAW_SIZE
    out[_RESERVE_SIZE] = reserve_size(s) / RESERVE_SIZE
    out[_PHASE + np.int64(s.phase)] = 1
    out[_OUTCOME + np.int64(s.outcome)] = 1
    out[_NEED_LEFT] = s.need_left
    out[_LEADER + relative(s.leader, seat, n)] = 1
    if s.actor >= 0:
        out[_ACTOR + relative(s.actor, seat, n)] = 1
    out[_END] = s.end_triggered
    out[_NUM_PLAYERS + n - NUM_PLAYERS_MIN] = 1
    out[_PENDING] = s.pending_draws
