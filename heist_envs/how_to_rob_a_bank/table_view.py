"""How to Rob a Bank's table as JSON-ready data for the web (``Game.table_view``).

Hands are private to a side: the bank sees its own, a robber every robber's
(:func:`sees_hand`, which the text render follows too); the board, the planned stacks and
the card pools are public.
"""

from .components import (
    CARD_NAMES,
    CARD_SLOTS,
    DIRECTION_NAMES,
    N_CARD_TYPES,
    N_ROOMS,
    N_SPACES,
    NUM_CYCLES,
    PIECE_TEXTS,
    ROBBER_COLOURS,
    ROBBERS,
    SIDE_NAMES,
    SLOT_KIND_NAMES,
    SPACE_ROOM,
    SPACE_SIDE,
    SYMBOL_TEXTS,
    TILE_ALARM,
    TILE_BADGES,
    TILE_BAGS,
    TILE_MASK,
    TILE_NAMES,
    side_of,
)
from .state import (
    ALARM_NAMES,
    CARRIED,
    FLOOR,
    NO_WINNER,
    PHASE_TITLES,
    ROB,
    STOLEN,
    SUPPLY,
)


def sees_hand(seat, player) -> bool:
    """Whether ``seat`` (None: the spectator) sees ``player``'s hand: a side sees its own."""
    return seat is None or side_of(seat) == side_of(player)


def rooms(s):
    result = []
    for r in range(N_ROOMS):
        t = int(s.tile[r])
        on_floor = (s.bag_where == FLOOR) & (s.bag_at == r)
        result.append(
            {
                "tile": TILE_NAMES[t],
                "mask": int(TILE_MASK[t]),
                "alarm_symbol": int(TILE_ALARM[t]),
                "bag_symbol": int(TILE_BAGS[t]),
                "badge": int(TILE_BADGES[t]),
                "wall": DIRECTION_NAMES[s.wall[r]] if s.wall[r] >= 0 else None,
                "bags": int((on_floor & (s.bag_locked == 0)).sum()),
                "locked_bags": int((on_floor & (s.bag_locked == 1)).sum()),
            }
        )
    return result


def seats(s, seat):
    first = NUM_CYCLES * (int(s.round_num) - 1)
    result = []
    for p in range(int(s.n_seats)):
        names = CARD_NAMES[side_of(p)]
        result.append(
            {
                "hand": [names[t] for t in range(N_CARD_TYPES) for _ in range(s.hand[p, t])]
                if sees_hand(seat, p)
                else None,
                "hand_size": int(s.hand[p].sum()),
                "pool": int(s.hand[p].sum() + s.aside[p].sum()),
                "stack": [
                    {"card": names[int(s.stack[p, i])], "played": bool(i < s.n_revealed[p])}
                    for i in range(first, int(s.n_planned[p]))
                ],
            }
        )
    return result


def card_in_play(s):
    """The card the acting seat plays in the Rob phase, and its slots; else None."""
    if s.phase != ROB or s.card < 0:
        return None
    side = side_of(int(s.turn_seat))
    return {
        "seat": int(s.turn_seat),
        "name": CARD_NAMES[side][int(s.card)],
        "slots": [
            {"kind": SLOT_KIND_NAMES[kind], "done": bool(s.slot_done[j])}
            for j, kind in enumerate(CARD_SLOTS[side, int(s.card)])
            if kind >= 0
        ],
        "extra_used": bool(s.extra_used) if side == ROBBERS else None,
    }


def table_view(s, seat=None):
    """The table of record ``s`` from ``seat``'s view (None: the spectator's)."""
    guards = [
        {"room": int(s.guard_room[g]), "awake": bool(s.guard_awake[g])}
        for g in range(int(s.n_guards))
    ]
    robbers = [
        {
            "colour": ROBBER_COLOURS[x],
            "room": int(s.robber_room[x]),
            "awake": bool(s.robber_awake[x]),
            "carried": int(((s.bag_where == CARRIED) & (s.bag_at == x)).sum()),
        }
        for x in range(int(s.n_robbers))
    ]
    return {
        "phase": PHASE_TITLES[int(s.phase)],
        "round": int(s.round_num),
        "cycle": int(s.cycle) + 1 if s.phase == ROB else None,
        "rooms": rooms(s),
        "guards": guards,
        "robbers": robbers,
        "alarm": {"room": int(s.alarm_room), "state": ALARM_NAMES[int(s.alarm)]},
        "street": [
            {
                "room": int(SPACE_ROOM[i]),
                "side": DIRECTION_NAMES[SPACE_SIDE[i]],
                "vehicle": int(s.vehicle) == i,
                "candidate": i in s.veh_cand.tolist(),
            }
            for i in range(N_SPACES)
        ],
        "stolen": int((s.bag_where == STOLEN).sum()),
        "supply": int((s.bag_where == SUPPLY).sum()),
        "target": int(s.target),
        "seats": seats(s, seat),
        "card": card_in_play(s),
        "winner": None if s.winner == NO_WINNER else SIDE_NAMES[s.winner],
        "symbol_texts": SYMBOL_TEXTS,
        "legend": PIECE_TEXTS,
    }
