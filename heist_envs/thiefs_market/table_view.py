"""Thief's Market's table as JSON-ready data for the web (``Game.table_view``).

Everything is public but the decks' order and the cards trimmed at setup, which only the
spectator sees (:func:`sees_decks`, which the text render follows too).
"""

from .components import (
    CARD_COST,
    CARD_DECK,
    CARD_ICONS,
    CARD_NAMES,
    CARD_TEXTS,
    CARD_VP,
    DECK_LETTERS,
    FACE_CODES,
    ICON_NAMES,
    NUM_CARDS,
    NUM_DECKS,
    NUM_FACES,
    NUM_GEMS,
    NUM_ICONS,
    ROW_SIZE,
)
from .rules import allowed_buys, card_points, pile_size
from .state import (
    DISCARDED,
    GAME_OVER,
    IN_CENTRE,
    IN_RETURN_BUFFER,
    P_LAA,
    P_MAIN,
    P_PAY,
    P_WAIVE,
    STAGE_NAMES,
    TRIMMED,
)


def sees_decks(seat) -> bool:
    """Whether ``seat`` (None: the spectator) sees the decks' order and the trimmed cards:
    only the spectator does."""
    return seat is None


def market_card(card, used=False, points=None):
    """A market card; ``points``: what an owned card scores at the end as things stand."""
    card = int(card)
    return {
        "id": card,
        "name": CARD_NAMES[card],
        "deck": DECK_LETTERS[int(CARD_DECK[card])],
        "cost": {FACE_CODES[g]: int(CARD_COST[card, g]) for g in range(NUM_GEMS)},
        "vp": int(CARD_VP[card]),
        "text": CARD_TEXTS[card],
        "points": points,
        "icons": [ICON_NAMES[i] for i in range(NUM_ICONS) for _ in range(CARD_ICONS[card, i])],
        "used": bool(used),
    }


def dice(counts):
    return {FACE_CODES[f]: int(counts[f]) for f in range(NUM_FACES)}


def market_rows(s, seat):
    rows = []
    for row in range(NUM_DECKS):
        slots = s.market[row * ROW_SIZE : (row + 1) * ROW_SIZE]
        rows.append(
            {
                "letter": DECK_LETTERS[row],
                "open": bool(row <= s.newest_row),
                "deck_size": int(s.deck_size[row]),
                "deck": [market_card(s.deck[row, i]) for i in range(s.deck_size[row] - 1, -1, -1)]
                if sees_decks(seat)
                else None,
                "slots": [market_card(x) if x >= 0 else None for x in slots],
            }
        )
    return rows


def players(s, buying):
    result = []
    for q in range(int(s.num_players)):
        result.append(
            {
                "gold": int(s.gold[q]),
                "infamy": int(s.infamy[q]),
                "pile": dice(s.pile[q]),
                "pawn": int(s.pawn_loc) == q,
                "pile_size": int(pile_size(s, q)),
                "cards": [
                    market_card(x, s.used[x], int(card_points(s, x, q)))
                    for x in range(NUM_CARDS)
                    if s.owner[x] == q
                ],
                "snapshot": {
                    "gems": [FACE_CODES[g] for g in range(NUM_GEMS) if s.snap_gem[q, g]],
                    "size": int(s.snap_size[q]),
                    "buys": int(allowed_buys(s, q)),
                }
                if buying
                else None,
            }
        )
    return result


def table_view(s, seat=None):
    """The table of record ``s`` from ``seat``'s view (None: the spectator's)."""
    stage = int(s.stage)
    buying = stage in (P_LAA, P_MAIN, P_WAIVE, P_PAY)
    return {
        "round": int(s.round_number),
        "stage": STAGE_NAMES[stage],
        "first_player": int(s.first_player),
        "rows": market_rows(s, seat),
        "centre": dice(s.centre) if stage != GAME_OVER else None,
        "pawn_in_centre": int(s.pawn_loc) == IN_CENTRE,
        "steal": {
            "victim": int(s.steal_victim),
            "returning": dice(s.ret_buf),
            "pawn": int(s.pawn_loc) == IN_RETURN_BUFFER,
        }
        if s.steal_victim >= 0
        else None,
        "buys_made": int(s.buys_made) if buying else None,
        "paying": {
            "card": market_card(s.pending_card),
            "need": {FACE_CODES[g]: int(s.need[g]) for g in range(NUM_GEMS)},
        }
        if s.pending_card >= 0
        else None,
        "trimmed": [CARD_NAMES[x] for x in range(NUM_CARDS) if s.owner[x] == TRIMMED]
        if sees_decks(seat)
        else None,
        "discarded": [CARD_NAMES[x] for x in range(NUM_CARDS) if s.owner[x] == DISCARDED],
        "players": players(s, buying),
    }
