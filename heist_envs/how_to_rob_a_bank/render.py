"""How to Rob a Bank as text: the bank's 3x3 rooms with their walls (``#``), pieces and bags,
the avenue around it, and the card stacks, from one seat's view (the other side's hands
hidden) or the spectator's (``seat=None``: every hand shown).

In a room: ``G0`` a conscious guard, ``g0`` an unconscious one; ``Y``/``R``/``V`` a robber
(lower case when unconscious) with ``+n`` carried bags; ``$n`` unlocked and ``Ln`` locked
floor bags; ``A`` the alarm (``A:locked`` when locked). Street spaces show ``s<i>``, the
vehicle as ``<VAN>``, and a SETUP_STREET candidate as ``s<i>?``.
"""

from .components import (
    CARD_NAMES,
    CARD_SLOTS,
    N_CARD_TYPES,
    N_ROOMS,
    NUM_CYCLES,
    NUM_ROUNDS,
    ROBBER_COLOURS,
    SIDE_NAMES,
    SLOT_KIND_NAMES,
    SPACE_ROOM,
    SPACE_SIDE,
    TILE_ALARM,
    TILE_BADGES,
    TILE_BAGS,
    TILE_MASK,
    TILE_NAMES,
    E,
    N,
    S,
    W,
    side_of,
)
from .state import ALARM_NAMES, CARRIED, FLOOR, GAME_OVER, ON_LOCKED, PHASE_NAMES, ROB, STOLEN
from .table_view import sees_hand

CELL = 16  # characters inside a room
MARGIN = 10  # room for the west street labels
ROBBER_LETTERS = "YRV"  # yellow, red, green (V for vert: G names guards)


def seat_names(s):
    return ["bank"] + [f"robber_{c}" for c in ROBBER_COLOURS[: int(s.n_robbers)]]


def tile_text(s, room):
    t = int(s.tile[room])
    symbols = ["mask"] * TILE_MASK[t] + ["alarm"] * TILE_ALARM[t]
    symbols += ["bag"] * TILE_BAGS[t] + ["badge"] * TILE_BADGES[t]
    return f"{room}:{TILE_NAMES[t]} {' '.join(symbols)}"


def pieces_text(s, room):
    parts = []
    for g in range(int(s.n_guards)):
        if s.guard_room[g] == room:
            parts.append(("G" if s.guard_awake[g] else "g") + str(g))
    for x in range(int(s.n_robbers)):
        if s.robber_room[x] == room:
            letter = ROBBER_LETTERS[x] if s.robber_awake[x] else ROBBER_LETTERS[x].lower()
            carried = int(((s.bag_where == CARRIED) & (s.bag_at == x)).sum())
            parts.append(letter + (f"+{carried}" if carried else ""))
    return " ".join(parts)


def floor_text(s, room):
    on_floor = (s.bag_where == FLOOR) & (s.bag_at == room)
    unlocked = int((on_floor & (s.bag_locked == 0)).sum())
    locked = int((on_floor & (s.bag_locked == 1)).sum())
    parts = [f"${unlocked}"] * (unlocked > 0) + [f"L{locked}"] * (locked > 0)
    if s.alarm_room == room and s.alarm != 2:
        parts.append("A:locked" if s.alarm == ON_LOCKED else "A")
    return " ".join(parts)


def space_label(s, i):
    if s.vehicle == i:
        return "<VAN>"
    return f"s{i}" + ("?" if i in (s.veh_cand[0], s.veh_cand[1]) else "")


def spaces_beside(s, room, side):
    return " ".join(
        space_label(s, i)
        for i in range(len(SPACE_ROOM))
        if SPACE_ROOM[i] == room and SPACE_SIDE[i] == side
    )


def has_wall(s, room, side):
    return 0 <= room < N_ROOMS and s.wall[room] == side


def board_lines(s):
    north = "".join(f" {spaces_beside(s, c, N):^{CELL}}" for c in range(3))
    lines = [(" " * MARGIN + north).rstrip()]
    for row in range(4):
        border = " " * MARGIN + "+"
        for col in range(3):
            above, below = 3 * (row - 1) + col, 3 * row + col
            walled = (row > 0 and has_wall(s, above, S)) or (row < 3 and has_wall(s, below, N))
            border += ("#" if walled else "-") * CELL + "+"
        lines.append(border)
        if row == 3:
            break
        texts = [[tile_text(s, 3 * row + c), pieces_text(s, 3 * row + c)] for c in range(3)]
        for c in range(3):
            texts[c].append(floor_text(s, 3 * row + c))
        for k in range(3):
            west = spaces_beside(s, 3 * row, W) if k == 1 else ""
            line = f"{west:>{MARGIN - 1}} "
            for col in range(4):
                left, right = 3 * row + col - 1, 3 * row + col
                walled = (col > 0 and has_wall(s, left, E)) or (col < 3 and has_wall(s, right, W))
                line += "#" if walled else "|"
                if col < 3:
                    line += f"{texts[col][k]:<{CELL}.{CELL}}"
            if k == 1:
                line += " " + spaces_beside(s, 3 * row + 2, E)
            lines.append(line.rstrip())
    south = "".join(f" {spaces_beside(s, 6 + c, S):^{CELL}}" for c in range(3))
    lines.append((" " * MARGIN + south).rstrip())
    return lines


def hand_text(s, p):
    side = side_of(p)
    return ", ".join(
        f"{CARD_NAMES[side][t]} x{int(s.hand[p, t])}" for t in range(N_CARD_TYPES) if s.hand[p, t]
    )


def stack_text(s, p):
    side = side_of(p)
    first = NUM_CYCLES * (int(s.round_num) - 1)
    cards = []
    for pos in range(first, int(s.n_planned[p])):
        name = CARD_NAMES[side][int(s.stack[p, pos])]
        cards.append(f"({name})" if pos < s.n_revealed[p] else name)
    return " > ".join(cards) or "-"


def card_lines(s, seat):
    names = seat_names(s)
    lines = ["cards (this round's stack, first played first; (played)):"]
    for p in range(int(s.n_seats)):
        size = int(s.hand[p].sum())
        hand = hand_text(s, p) if sees_hand(seat, p) else f"{size} hidden cards" * (size > 0)
        pool = int(s.hand[p].sum() + s.aside[p].sum())
        marker = ">" if p == s.actor else " "
        you = " (you)" if seat == p else ""
        lines.append(f"{marker} {names[p] + you:<22} stack: {stack_text(s, p)}")
        lines.append(f"  {'':<22} hand: {hand or '-'}   pool: {pool}")
    if s.phase == ROB and s.card >= 0:
        p = int(s.turn_seat)
        slots = []
        for j, kind in enumerate(CARD_SLOTS[side_of(p), int(s.card)]):
            if kind >= 0:
                state = "done" if s.slot_done[j] else "pending"
                slots.append(f"{SLOT_KIND_NAMES[kind]} ({state})")
        extra = "" if p == 0 else f"; extra action {'used' if s.extra_used else 'unused'}"
        lines.append(
            f"  {names[p]} plays {CARD_NAMES[side_of(p)][int(s.card)]}: {', '.join(slots)}{extra}"
        )
    return lines


def render(s, seat=None):
    names = seat_names(s)
    stolen = int((s.bag_where == STOLEN).sum())
    supply = int((s.bag_where == 0).sum())
    if s.phase == GAME_OVER:
        head = f"How to Rob a Bank: game over, the {SIDE_NAMES[s.winner]} won"
    else:
        cycle = f", cycle {int(s.cycle) + 1}/{NUM_CYCLES}" if s.phase == ROB else ""
        head = (
            f"How to Rob a Bank: round {int(s.round_num)}/{NUM_ROUNDS}{cycle}, "
            f"{PHASE_NAMES[s.phase]}: {names[s.actor]} to act"
        )
    lines = [
        head,
        f"  stolen {stolen}/{int(s.target)}   supply {supply}   "
        f"alarm: {ALARM_NAMES[s.alarm]} (room {int(s.alarm_room)})",
    ]
    lines += board_lines(s)
    lines += card_lines(s, seat)
    return "\n".join(lines)
