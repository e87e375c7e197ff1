"""Les Toits de Paris's table as JSON-ready data for the web (``Game.table_view``).

Everything is public but the order of the draw pile and the reserve: every seat sees the same
table, and only the spectator sees the next cards (:func:`sees_upcoming`).
"""

import numpy as np

from .components import (
    ARROWS,
    BELLS,
    COLOUR,
    COLOUR_NAMES,
    FEATHERS,
    NEED,
    NUM_COLOURS,
    NUM_SPACES,
    RESERVE,
    RESERVE_SIZE,
    TIEBREAK,
    TOKEN_SET_NAMES,
    VP,
    card_kind,
    card_text,
)
from .rules import draw_size, reserve_size
from .state import (
    DISCARDED,
    EMPTY,
    GAME_OVER,
    GONE,
    HIGH_TOKEN,
    NO_TOKEN,
    OUTCOME_NAMES,
    PHASE_NAMES,
    SEAT_0,
    UNUSED,
)

UPCOMING = 7  # draw-pile cards the spectator sees coming: a turn reveals at most 7


def sees_upcoming(seat) -> bool:
    """Whether ``seat`` (None: the spectator) sees the next cards of the draw pile and the
    reserve: only the spectator does."""
    return seat is None


def card(s, c):
    row = s.card_table[c]
    return {
        "id": int(c),
        "colour": int(row[COLOUR]),
        "kind": card_kind(row),
        "text": card_text(row),
        "arrows": int(row[ARROWS]),
        "bells": int(row[BELLS]),
        "reserve": int(row[RESERVE]),
        "feathers": int(row[FEATHERS]),
        "vp": int(row[VP]),
        "tiebreak": int(row[TIEBREAK]),
    }


def table_view(s, seat=None):
    """The table of record ``s`` from ``seat``'s view (None: the spectator's)."""
    n = int(s.num_players)
    over = s.phase == GAME_OVER
    players = []
    for p in range(n):
        owned = np.flatnonzero(s.card_loc == SEAT_0 + p)
        joker = int(s.joker[p])
        players.append(
            {
                "cards": [card(s, c) for c in owned],
                "joker": {UNUSED: "unused", GONE: "gone"}.get(joker, joker),
                "score": int(s.score[p]) if over else None,
                "tokens": [
                    {"set": TOKEN_SET_NAMES[t], "high": int(a) == HIGH_TOKEN}
                    for t, a in enumerate(s.token_award[p])
                    if over and a != NO_TOKEN
                ],
            }
        )
    discard = np.flatnonzero(s.card_loc == DISCARDED)
    return {
        "turn": int(s.turn),
        "leader": int(s.leader),
        "phase": PHASE_NAMES[int(s.phase)],
        "outcome": OUTCOME_NAMES[int(s.outcome)],
        "need_left": int(s.need_left),
        "pending_draws": int(s.pending_draws),
        "board": [
            card(s, s.board[i]) if s.board[i] != EMPTY else None for i in range(1, NUM_SPACES + 1)
        ]
        if not over
        else [],
        "inspector": int(s.insp),
        "need": NEED[1 : NUM_SPACES + 1].tolist(),
        "draw_pile": int(draw_size(s)),
        "reserve": int(reserve_size(s)),
        "upcoming": {
            "draw": [card(s, c) for c in s.deck[s.draw_top : s.draw_top + UPCOMING]],
            "reserve": [card(s, c) for c in s.deck[s.reserve_top : RESERVE_SIZE]],
        }
        if sees_upcoming(seat)
        else None,
        "discard": np.bincount(s.card_table[discard, COLOUR], minlength=NUM_COLOURS).tolist(),
        "last_turn": bool(s.end_triggered) and not over,
        "colour_names": list(COLOUR_NAMES),
        "players": players,
    }
