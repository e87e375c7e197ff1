"""The table of each game as JSON-compatible data for the browser, from the kernel record.

``table_view(game, s, seat)`` is what the browser draws. With ``seat=None`` it is the
spectator's view (every hand, the decks' order); with a seat it holds only what that seat's
observation holds, so a page showing a seat's view cannot reveal anything hidden from it,
even to someone reading the page's network traffic. The text renders
(``heist_envs/<game>/render.py``) show the same things.
"""

import numpy as np

from heist_envs.art_robbery import components as ar
from heist_envs.art_robbery import rules as ar_rules
from heist_envs.art_robbery import state as ar_state
from heist_envs.how_to_rob_a_bank import components as hb
from heist_envs.how_to_rob_a_bank import state as hb_state
from heist_envs.thiefs_market import components as tm
from heist_envs.thiefs_market import rules as tm_rules
from heist_envs.thiefs_market import state as tm_state
from heist_envs.toits_de_paris import components as tp
from heist_envs.toits_de_paris import rules as tp_rules
from heist_envs.toits_de_paris import state as tp_state


def _ints(values) -> list[int]:
    return [int(v) for v in values]


# Art Robbery --------------------------------------------------------------------------------


def _art_token(raid, slot):
    return {
        "raid": raid,
        "slot": slot,
        "value": int(ar.TOKEN_VALUES[slot]),
        "alibis": int(ar.TOKEN_ALIBIS[raid, slot]),
        "boss": slot == ar.BOSS_SLOT,
    }


def art_robbery_view(s, seat):
    """Hands are private (a seat sees its own); the draw pile's order is nobody's."""
    n = int(s.num_players)
    raid = int(s.raid)
    live = raid < ar.NUM_RAIDS
    centre = [
        _art_token(raid, i)
        for i in range(ar.TOKENS_PER_RAID)
        if live and s.token_loc[raid, i] == ar_state.CENTRE
    ]
    players = []
    for p in range(n):
        held = [
            _art_token(r, i)
            for r in range(ar.NUM_RAIDS)
            for i in range(ar.TOKENS_PER_RAID)
            if s.token_loc[r, i] == p
        ]
        shown = seat is None or seat == p
        players.append(
            {
                "hand": [
                    ar.CARD_NAMES[t] for t in range(ar.NUM_CARD_TYPES) for _ in range(s.hands[p, t])
                ]
                if shown
                else None,
                "hand_size": int(s.hands[p].sum()),
                "tokens": held,
                "played": _ints(s.played[p]),
                "has_dog": int(s.dog) == p,
            }
        )
    final = None
    if s.phase == ar_state.GAME_OVER and raid == ar.NUM_RAIDS:
        scores, alibis = np.zeros(n, np.int64), np.zeros(n, np.int64)
        ar_rules.final_scores(s, scores, alibis)
        final = {"score": _ints(scores), "alibis": _ints(alibis)}
    return {
        "raid": raid,
        "raid_names": list(ar.RAID_NAMES),
        "phase": ar_state.PHASE_NAMES[int(s.phase)],
        "turn_player": int(s.turn_player),
        "turns": int(s.turns),
        "centre": centre,
        "offered": [i for i in range(ar.TOKENS_PER_RAID) if s.offered[i]]
        if s.phase == ar_state.TOKEN
        else [],
        "pending_card": ar.CARD_NAMES[s.pending_card] if s.pending_card >= 0 else None,
        "pending_token": _art_token(raid, int(s.pending_token)) if s.pending_token >= 0 else None,
        "dog_in_centre": int(s.dog) == ar_state.NOBODY,
        "draw_pile": int(s.deck_size),
        "discard": {ar.CARD_NAMES[t]: int(s.discard[t]) for t in range(ar.NUM_CARD_TYPES)},
        "boxed": [
            ar.RAID_NAMES[r]
            for r in range(ar.NUM_RAIDS)
            if s.token_loc[r, ar.BOSS_SLOT] == ar_state.BOX
        ],
        "card_names": list(ar.CARD_NAMES),
        "card_texts": list(ar.CARD_TEXTS),
        "players": players,
        "final": final,
    }


# Les Toits de Paris -------------------------------------------------------------------------


def _toits_card(s, card):
    row = s.card_table[card]
    return {
        "id": int(card),
        "colour": int(row[tp.COLOUR]),
        "kind": tp.card_kind(row),
        "text": tp.card_text(row),
        "arrows": int(row[tp.ARROWS]),
        "bells": int(row[tp.BELLS]),
        "reserve": int(row[tp.RESERVE]),
        "feathers": int(row[tp.FEATHERS]),
        "vp": int(row[tp.VP]),
        "tiebreak": int(row[tp.TIEBREAK]),
    }


UPCOMING = 7  # draw-pile cards the spectator sees coming: a turn reveals at most 7


def toits_de_paris_view(s, seat):
    """Everything is public but the order of the draw pile and the reserve: every seat sees
    the same table, and the spectator sees the next cards too."""
    n = int(s.num_players)
    over = s.phase == tp_state.GAME_OVER
    players = []
    for p in range(n):
        owned = np.flatnonzero(s.card_loc == tp_state.SEAT_0 + p)
        joker = int(s.joker[p])
        players.append(
            {
                "cards": [_toits_card(s, c) for c in owned],
                "joker": {tp_state.UNUSED: "unused", tp_state.GONE: "gone"}.get(joker, joker),
                "score": int(s.score[p]) if over else None,
                "tokens": [
                    {"set": tp.TOKEN_SET_NAMES[t], "high": int(a) == tp_state.HIGH_TOKEN}
                    for t, a in enumerate(s.token_award[p])
                    if over and a != tp_state.NO_TOKEN
                ],
            }
        )
    discard = np.flatnonzero(s.card_loc == tp_state.DISCARDED)
    return {
        "turn": int(s.turn),
        "leader": int(s.leader),
        "phase": tp_state.PHASE_NAMES[int(s.phase)],
        "outcome": tp_state.OUTCOME_NAMES[int(s.outcome)],
        "need_left": int(s.need_left),
        "pending_draws": int(s.pending_draws),
        "board": [
            _toits_card(s, s.board[i]) if s.board[i] != tp_state.EMPTY else None
            for i in range(1, tp.NUM_SPACES + 1)
        ]
        if not over
        else [],
        "inspector": int(s.insp),
        "need": _ints(tp.NEED[1 : tp.NUM_SPACES + 1]),
        "draw_pile": int(tp_rules.draw_size(s)),
        "reserve": int(tp_rules.reserve_size(s)),
        "upcoming": {
            "draw": [_toits_card(s, c) for c in s.deck[s.draw_top : s.draw_top + UPCOMING]],
            "reserve": [_toits_card(s, c) for c in s.deck[s.reserve_top : tp.RESERVE_SIZE]],
        }
        if seat is None
        else None,
        "discard": _ints(np.bincount(s.card_table[discard, tp.COLOUR], minlength=tp.NUM_COLOURS)),
        "last_turn": bool(s.end_triggered) and not over,
        "colour_names": list(tp.COLOUR_NAMES),
        "players": players,
    }


# How to Rob a Bank --------------------------------------------------------------------------


def _bank_side(seat):
    return hb.BANK if seat == 0 else hb.ROBBERS


def how_to_rob_a_bank_view(s, seat):
    """Hands are private to a side (the bank sees its own, a robber every robber's); the
    board, the planned stacks and the card pools are public."""
    rooms = []
    for r in range(hb.N_ROOMS):
        t = int(s.tile[r])
        on_floor = (s.bag_where == hb_state.FLOOR) & (s.bag_at == r)
        rooms.append(
            {
                "tile": hb.TILE_NAMES[t],
                "mask": int(hb.TILE_MASK[t]),
                "alarm_symbol": int(hb.TILE_ALARM[t]),
                "bag_symbol": int(hb.TILE_BAGS[t]),
                "badge": int(hb.TILE_BADGES[t]),
                "wall": hb.DIRECTION_NAMES[s.wall[r]] if s.wall[r] >= 0 else None,
                "bags": int((on_floor & (s.bag_locked == 0)).sum()),
                "locked_bags": int((on_floor & (s.bag_locked == 1)).sum()),
            }
        )
    guards = [
        {"room": int(s.guard_room[g]), "awake": bool(s.guard_awake[g])}
        for g in range(int(s.n_guards))
    ]
    robbers = [
        {
            "colour": hb.ROBBER_COLOURS[x],
            "room": int(s.robber_room[x]),
            "awake": bool(s.robber_awake[x]),
            "carried": int(((s.bag_where == hb_state.CARRIED) & (s.bag_at == x)).sum()),
        }
        for x in range(int(s.n_robbers))
    ]
    first = hb.NUM_CYCLES * (int(s.round_num) - 1)
    seats = []
    for p in range(int(s.n_seats)):
        names = hb.CARD_NAMES[_bank_side(p)]
        visible = seat is None or _bank_side(seat) == _bank_side(p)
        seats.append(
            {
                "hand": [names[t] for t in range(hb.N_CARD_TYPES) for _ in range(s.hand[p, t])]
                if visible
                else None,
                "hand_size": int(s.hand[p].sum()),
                "pool": int(s.hand[p].sum() + s.aside[p].sum()),
                "stack": [
                    {"card": names[int(s.stack[p, i])], "played": bool(i < s.n_revealed[p])}
                    for i in range(first, int(s.n_planned[p]))
                ],
            }
        )
    card = None
    if s.phase == hb_state.ROB and s.card >= 0:
        side = _bank_side(int(s.turn_seat))
        card = {
            "seat": int(s.turn_seat),
            "name": hb.CARD_NAMES[side][int(s.card)],
            "slots": [
                {"kind": hb.SLOT_KIND_NAMES[kind], "done": bool(s.slot_done[j])}
                for j, kind in enumerate(hb.CARD_SLOTS[side, int(s.card)])
                if kind >= 0
            ],
            "extra_used": bool(s.extra_used) if side == hb.ROBBERS else None,
        }
    return {
        "phase": hb_state.PHASE_TITLES[int(s.phase)],
        "round": int(s.round_num),
        "cycle": int(s.cycle) + 1 if s.phase == hb_state.ROB else None,
        "rooms": rooms,
        "guards": guards,
        "robbers": robbers,
        "alarm": {"room": int(s.alarm_room), "state": hb_state.ALARM_NAMES[int(s.alarm)]},
        "street": [
            {
                "room": int(hb.SPACE_ROOM[i]),
                "side": hb.DIRECTION_NAMES[hb.SPACE_SIDE[i]],
                "vehicle": int(s.vehicle) == i,
                "candidate": i in _ints(s.veh_cand),
            }
            for i in range(hb.N_SPACES)
        ],
        "stolen": int((s.bag_where == hb_state.STOLEN).sum()),
        "supply": int((s.bag_where == hb_state.SUPPLY).sum()),
        "target": int(s.target),
        "seats": seats,
        "card": card,
        "winner": {hb_state.BANK_WINS: "bank", hb_state.ROBBERS_WIN: "robbers"}.get(int(s.winner)),
        "symbol_texts": hb.SYMBOL_TEXTS,
        "legend": hb.PIECE_TEXTS,
    }


# Thief's Market -----------------------------------------------------------------------------


def _market_card(card, used=False, points=None):
    """A market card; ``points``: what an owned card scores at the end as things stand."""
    card = int(card)
    return {
        "id": card,
        "name": tm.CARD_NAMES[card],
        "deck": tm.DECK_LETTERS[int(tm.CARD_DECK[card])],
        "cost": {tm.FACE_CODES[g]: int(tm.CARD_COST[card, g]) for g in range(tm.NUM_GEMS)},
        "vp": int(tm.CARD_VP[card]),
        "text": tm.CARD_TEXTS[card],
        "points": points,
        "icons": [
            tm.ICON_NAMES[i] for i in range(tm.NUM_ICONS) for _ in range(tm.CARD_ICONS[card, i])
        ],
        "used": bool(used),
    }


def _dice(counts):
    return {tm.FACE_CODES[f]: int(counts[f]) for f in range(tm.NUM_FACES)}


def thiefs_market_view(s, seat):
    """Everything is public but the decks' order and the cards trimmed at setup, which
    only the spectator sees."""
    n = int(s.num_players)
    stage = int(s.stage)
    buying = stage in (tm_state.P_LAA, tm_state.P_MAIN, tm_state.P_WAIVE, tm_state.P_PAY)
    rows = []
    for row in range(tm.NUM_DECKS):
        slots = s.market[row * tm.ROW_SIZE : (row + 1) * tm.ROW_SIZE]
        rows.append(
            {
                "letter": tm.DECK_LETTERS[row],
                "open": bool(row <= s.newest_row),
                "deck_size": int(s.deck_size[row]),
                "deck": [_market_card(s.deck[row, i]) for i in range(s.deck_size[row] - 1, -1, -1)]
                if seat is None
                else None,
                "slots": [_market_card(x) if x >= 0 else None for x in slots],
            }
        )
    players = []
    for q in range(n):
        players.append(
            {
                "gold": int(s.gold[q]),
                "infamy": int(s.infamy[q]),
                "pile": _dice(s.pile[q]),
                "pawn": int(s.pawn_loc) == q,
                "pile_size": int(tm_rules.pile_size(s, q)),
                "cards": [
                    _market_card(x, s.used[x], int(tm_rules.card_points(s, x, q)))
                    for x in range(tm.NUM_CARDS)
                    if s.owner[x] == q
                ],
                "snapshot": {
                    "gems": [tm.FACE_CODES[g] for g in range(tm.NUM_GEMS) if s.snap_gem[q, g]],
                    "size": int(s.snap_size[q]),
                    "buys": int(tm_rules.allowed_buys(s, q)),
                }
                if buying
                else None,
            }
        )
    return {
        "round": int(s.round_number),
        "stage": tm_state.STAGE_NAMES[stage],
        "first_player": int(s.first_player),
        "rows": rows,
        "centre": _dice(s.centre) if stage != tm_state.GAME_OVER else None,
        "pawn_in_centre": int(s.pawn_loc) == tm_state.IN_CENTRE,
        "steal": {
            "victim": int(s.steal_victim),
            "returning": _dice(s.ret_buf),
            "pawn": int(s.pawn_loc) == tm_state.IN_RETURN_BUFFER,
        }
        if s.steal_victim >= 0
        else None,
        "buys_made": int(s.buys_made) if buying else None,
        "paying": {
            "card": _market_card(s.pending_card),
            "need": {tm.FACE_CODES[g]: int(s.need[g]) for g in range(tm.NUM_GEMS)},
        }
        if s.pending_card >= 0
        else None,
        "trimmed": [tm.CARD_NAMES[x] for x in range(tm.NUM_CARDS) if s.owner[x] == tm_state.TRIMMED]
        if seat is None
        else None,
        "discarded": [
            tm.CARD_NAMES[x] for x in range(tm.NUM_CARDS) if s.owner[x] == tm_state.DISCARDED
        ],
        "players": players,
    }


#: game name -> view function ``(s, seat) -> dict``
TABLE_VIEWS = {
    "art_robbery": art_robbery_view,
    "toits_de_paris": toits_de_paris_view,
    "how_to_rob_a_bank": how_to_rob_a_bank_view,
    "thiefs_market": thiefs_market_view,
}


def table_view(game, s, seat=None) -> dict:
    """The drawn table of record ``s`` from ``seat``'s view (None: the spectator's)."""
    return TABLE_VIEWS[game.name](s, seat)
