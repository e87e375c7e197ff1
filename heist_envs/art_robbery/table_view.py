"""Art Robbery's table as JSON-ready data for the web (``Game.table_view``).

A seat's view holds only what its observation holds: its own hand, and of the others' hands
only their sizes; the draw pile's order is nobody's. The text render hides the same hands
(:func:`sees_hand`).
"""

import numpy as np

from .components import (
    BOSS_SLOT,
    CARD_NAMES,
    CARD_TEXTS,
    NUM_CARD_TYPES,
    NUM_RAIDS,
    RAID_NAMES,
    TOKEN_ALIBIS,
    TOKEN_VALUES,
    TOKENS_PER_RAID,
)
from .rules import final_scores
from .state import BOX, CENTRE, GAME_OVER, NOBODY, PHASE_NAMES, TOKEN


def sees_hand(seat, player) -> bool:
    """Whether ``seat`` (None: the spectator) sees ``player``'s hand: a seat sees its own."""
    return seat is None or seat == player


def token(raid, slot):
    return {
        "raid": raid,
        "slot": slot,
        "value": int(TOKEN_VALUES[slot]),
        "alibis": int(TOKEN_ALIBIS[raid, slot]),
        "boss": slot == BOSS_SLOT,
    }


def table_view(s, seat=None):
    """The table of record ``s`` from ``seat``'s view (None: the spectator's)."""
    n = int(s.num_players)
    raid = int(s.raid)
    live = raid < NUM_RAIDS
    centre = [
        token(raid, i) for i in range(TOKENS_PER_RAID) if live and s.token_loc[raid, i] == CENTRE
    ]
    players = []
    for p in range(n):
        held = [
            token(r, i)
            for r in range(NUM_RAIDS)
            for i in range(TOKENS_PER_RAID)
            if s.token_loc[r, i] == p
        ]
        players.append(
            {
                "hand": [CARD_NAMES[t] for t in range(NUM_CARD_TYPES) for _ in range(s.hands[p, t])]
                if sees_hand(seat, p)
                else None,
                "hand_size": int(s.hands[p].sum()),
                "tokens": held,
                "played": s.played[p].tolist(),
                "has_dog": int(s.dog) == p,
            }
        )
    final = None
    if s.phase == GAME_OVER and raid == NUM_RAIDS:
        scores, alibis = np.zeros(n, np.int64), np.zeros(n, np.int64)
        final_scores(s, scores, alibis)
        final = {"score": scores.tolist(), "alibis": alibis.tolist()}
    return {
        "raid": raid,
        "raid_names": list(RAID_NAMES),
        "phase": PHASE_NAMES[int(s.phase)],
        "turn_player": int(s.turn_player),
        "turns": int(s.turns),
        "centre": centre,
        "offered": [i for i in range(TOKENS_PER_RAID) if s.offered[i]] if s.phase == TOKEN else [],
        "pending_card": CARD_NAMES[s.pending_card] if s.pending_card >= 0 else None,
        "pending_token": token(raid, int(s.pending_token)) if s.pending_token >= 0 else None,
        "dog_in_centre": int(s.dog) == NOBODY,
        "draw_pile": int(s.deck_size),
        "discard": {CARD_NAMES[t]: int(s.discard[t]) for t in range(NUM_CARD_TYPES)},
        "boxed": [RAID_NAMES[r] for r in range(NUM_RAIDS) if s.token_loc[r, BOSS_SLOT] == BOX],
        "card_names": list(CARD_NAMES),
        "card_texts": list(CARD_TEXTS),
        "players": players,
        "final": final,
    }
