"""What one seat may know, as a flat int8 vector with named parts (``LAYOUT``, spec 6.3).

Seats are absolute (0 bank, 1 yellow, 2 red, 3 green): the two sides play different roles.
Everything is public except the hands: the bank sees its own hand, a robber sees every
robber's hand (D21). Planned stacks are kept over the whole game, in planning order.
``LEGEND`` says how each part reads (its entries' labels, its seats), for the text view
(:mod:`heist_envs.core.layout`).
"""

import numba as nb
import numpy as np

from heist_envs.core.layout import (
    EACH_SEAT,
    ROWS,
    build_layout,
    count,
    flag,
    legend,
    number,
    one_hot,
    player_count,
)

from .components import (
    CARD_NAMES,
    DIRECTION_NAMES,
    MAX_GUARDS,
    MAX_ROBBERS,
    MAX_SEATS,
    MAX_SLOTS,
    N_CARD_TYPES,
    N_ROOMS,
    N_SLOT_KINDS,
    N_SPACES,
    N_TILES,
    NUM_CYCLES,
    NUM_PLAYERS_MAX,
    NUM_PLAYERS_MIN,
    NUM_ROUNDS,
    ROBBER_COLOURS,
    SLOT_KIND_NAMES,
    TILE_NAMES,
    side_of,
    tile_symbols,
)
from .state import (
    ALARM_NAMES,
    CARRIED,
    FLOOR,
    NUM_PHASES,
    ON_LOCKED,
    ON_UNLOCKED,
    PHASE_TITLES,
    ROB,
    STACK_SIZE,
    STOLEN,
    SUPPLY,
)

LAYOUT, OBS_SIZE = build_layout(
    [
        ("phase", NUM_PHASES),  # one-hot: SETUP_CORNER, SETUP_STREET, PLAN, ROB, GAME_OVER
        ("actor", MAX_SEATS),  # one-hot seat that decides now
        ("round", NUM_ROUNDS),  # one-hot
        ("cycle", NUM_CYCLES),  # one-hot, during ROB
        ("num_players", NUM_PLAYERS_MAX - NUM_PLAYERS_MIN + 1),  # one-hot 2..4
        ("observer", MAX_SEATS),  # one-hot own seat
        ("room_tile", N_ROOMS * N_TILES),  # [room, tile] one-hot
        ("room_rotation", N_ROOMS * 4),  # [room, quarter-turns] one-hot
        ("room_wall", N_ROOMS * 5),  # [room, none/N/E/S/W] one-hot
        ("room_guards_conscious", N_ROOMS),  # counts
        ("room_guards_unconscious", N_ROOMS),
        ("room_robbers", N_ROOMS * MAX_ROBBERS),  # [room, colour] presence
        ("room_bags_unlocked", N_ROOMS),  # floor bag counts
        ("room_bags_locked", N_ROOMS),
        ("room_alarm", N_ROOMS * 2),  # [room, on-unlocked/on-locked]
        ("robber_in_play", MAX_ROBBERS),
        ("robber_room", MAX_ROBBERS * N_ROOMS),  # [robber, room] one-hot
        ("robber_conscious", MAX_ROBBERS),
        ("robber_carried", MAX_ROBBERS),  # bags carried
        ("guard_in_play", MAX_GUARDS),
        ("guard_room", MAX_GUARDS * N_ROOMS),  # [guard, room] one-hot
        ("guard_conscious", MAX_GUARDS),
        ("guard_start_room", MAX_GUARDS * N_ROOMS),  # [guard, room] one-hot, this bank turn
        ("stolen", 1),
        ("supply", 1),
        ("target", 1),
        ("alarm", 3),  # one-hot: on unlocked, on locked, ringing
        ("alarm_room", N_ROOMS),  # one-hot
        ("vehicle", N_SPACES),  # one-hot, zero while unplaced
        ("vehicle_candidates", N_SPACES),  # SETUP_STREET candidates
        ("stacks", MAX_SEATS * STACK_SIZE * (N_CARD_TYPES + 1)),  # [seat, pos, type|empty]
        ("stacks_played", MAX_SEATS * STACK_SIZE),  # [seat, pos] revealed flags
        ("turn_seat", MAX_SEATS),  # one-hot seat whose ROB turn it is
        ("card", N_CARD_TYPES),  # one-hot type of the revealed card
        ("card_slots", MAX_SLOTS * N_SLOT_KINDS),  # [slot, kind] one-hot
        ("slot_pending", MAX_SLOTS),
        ("slot_done", MAX_SLOTS),
        ("extra_used", 1),
        ("card_started", 1),
        ("pool", MAX_SEATS * N_CARD_TYPES),  # [seat, type] hand + aside counts (public)
        ("hand_size", MAX_SEATS),
        ("played", MAX_SEATS * N_CARD_TYPES),  # [seat, type] cards played so far
        ("own_hand", N_CARD_TYPES),
        ("robber_hands", MAX_ROBBERS * N_CARD_TYPES),  # [robber, type]; robber viewers only
    ]
)
OBS_DTYPE = np.int8


def tile_text(tile):
    """A room tile with its printed symbols: "T1 (mask)", "T8"."""
    symbols = tile_symbols(tile)
    return TILE_NAMES[tile] + (f" ({', '.join(symbols)})" if symbols else "")


ROOMS = tuple(f"room {r}" for r in range(N_ROOMS))
STREET = tuple(f"street space {i}" for i in range(N_SPACES))
GUARDS = tuple(f"guard {g}" for g in range(MAX_GUARDS))
SLOTS = tuple(f"action {j + 1}" for j in range(MAX_SLOTS))
STACK = tuple(f"round {p // NUM_CYCLES + 1} card {p % NUM_CYCLES + 1}" for p in range(STACK_SIZE))
#: each seat's card types by name: the bank's deck is not the robbers'
SEAT_CARDS = tuple(
    (*CARD_NAMES[side_of(p)], *[None] * (N_CARD_TYPES - len(CARD_NAMES[side_of(p)])))
    for p in range(MAX_SEATS)
)
LEGEND = legend(
    LAYOUT,
    {
        "phase": one_hot("phase", PHASE_TITLES),
        "actor": one_hot("who decides now", (EACH_SEAT,)),
        "round": one_hot("round", [f"{r} of {NUM_ROUNDS}" for r in range(1, NUM_ROUNDS + 1)]),
        "cycle": one_hot(
            "robbing cycle", [f"{c} of {NUM_CYCLES}" for c in range(1, NUM_CYCLES + 1)]
        ),
        "num_players": player_count(NUM_PLAYERS_MIN, NUM_PLAYERS_MAX),
        "observer": one_hot("you are", (EACH_SEAT,)),
        "room_tile": one_hot("room tiles", ROOMS, [tile_text(t) for t in range(N_TILES)]),
        "room_rotation": one_hot("tiles turned clockwise", ROOMS, (None, "90°", "180°", "270°")),
        "room_wall": one_hot("thick walls", ROOMS, (None, *(f"{d} side" for d in DIRECTION_NAMES))),
        "room_guards_conscious": count("conscious guards by room", ROOMS),
        "room_guards_unconscious": count("knocked-out guards by room", ROOMS),
        "room_robbers": count("robbers by room", ROOMS, ROBBER_COLOURS),
        "room_bags_unlocked": count("unlocked bags on the floor by room", ROOMS),
        "room_bags_locked": count("locked bags on the floor by room", ROOMS),
        "room_alarm": count("alarm switched on, by room", ROOMS, ("unlocked", "locked")),
        "robber_in_play": count("robbers in play", ROBBER_COLOURS),
        "robber_room": one_hot("robbers' rooms", ROBBER_COLOURS, ROOMS),
        "robber_conscious": count("conscious robbers", ROBBER_COLOURS),
        "robber_carried": count("bags carried", ROBBER_COLOURS),
        "guard_in_play": count("guards in play", GUARDS),
        "guard_room": one_hot("guards' rooms", GUARDS, ROOMS),
        "guard_conscious": count("conscious guards", GUARDS),
        "guard_start_room": one_hot("guards' rooms at the start of the bank's turn", GUARDS, ROOMS),
        "stolen": number("bags stolen"),
        "supply": number("bags in the supply"),
        "target": number("bags the robbers must steal"),
        "alarm": one_hot("alarm", ALARM_NAMES),
        "alarm_room": one_hot("alarm's room", ROOMS),
        "vehicle": one_hot("getaway vehicle", STREET),
        "vehicle_candidates": count("street spaces the robbers may pick for the vehicle", STREET),
        "stacks": one_hot(
            "planned stacks, first played first",
            (EACH_SEAT,),
            STACK,
            tuple((None, *cards) for cards in SEAT_CARDS),
            labels_by=ROWS,
        ),
        "stacks_played": count("stack cards played", (EACH_SEAT,), STACK),
        "turn_seat": one_hot("whose robbing turn", (EACH_SEAT,)),
        "card": one_hot("card being played", SEAT_CARDS, labels_by="turn_seat"),
        "card_slots": one_hot("the card's actions", SLOTS, SLOT_KIND_NAMES),
        "slot_pending": count("actions still to take", SLOTS),
        "slot_done": count("actions taken", SLOTS),
        "extra_used": flag("the turn's extra action is used"),
        "card_started": flag("the card's actions have begun"),
        "pool": count(
            "cards left to each player (hand and set aside)",
            (EACH_SEAT,),
            SEAT_CARDS,
            labels_by=ROWS,
        ),
        "hand_size": number("cards in hand", (EACH_SEAT,)),
        "played": count("cards played so far", (EACH_SEAT,), SEAT_CARDS, labels_by=ROWS),
        "own_hand": count("your hand", SEAT_CARDS, labels_by="observer"),
        "robber_hands": count(
            "the robbers' hands (robbers see them)", ROBBER_COLOURS, SEAT_CARDS[1]
        ),
    },
    seats=MAX_SEATS,
    relative=False,
    players="num_players",
    notes=(
        "Rooms are 3 * row + column from the north-west: room 0 north-west, room 4 the centre, "
        "room 8 south-east. Street spaces 0-11 run clockwise from the north-west corner.",
    ),
)

_PHASE = LAYOUT["phase"].start
_ACTOR = LAYOUT["actor"].start
_ROUND = LAYOUT["round"].start
_CYCLE = LAYOUT["cycle"].start
_NUM_PLAYERS = LAYOUT["num_players"].start
_OBSERVER = LAYOUT["observer"].start
_TILE = LAYOUT["room_tile"].start
_ROTATION = LAYOUT["room_rotation"].start
_WALL = LAYOUT["room_wall"].start
_GUARDS_UP = LAYOUT["room_guards_conscious"].start
_GUARDS_DOWN = LAYOUT["room_guards_unconscious"].start
_ROOM_ROBBERS = LAYOUT["room_robbers"].start
_BAGS_UNLOCKED = LAYOUT["room_bags_unlocked"].start
_BAGS_LOCKED = LAYOUT["room_bags_locked"].start
_ROOM_ALARM = LAYOUT["room_alarm"].start
_ROBBER_IN_PLAY = LAYOUT["robber_in_play"].start
_ROBBER_ROOM = LAYOUT["robber_room"].start
_ROBBER_UP = LAYOUT["robber_conscious"].start
_CARRIED = LAYOUT["robber_carried"].start
_GUARD_IN_PLAY = LAYOUT["guard_in_play"].start
_GUARD_ROOM = LAYOUT["guard_room"].start
_GUARD_UP = LAYOUT["guard_conscious"].start
_START_ROOM = LAYOUT["guard_start_room"].start
_STOLEN = LAYOUT["stolen"].start
_SUPPLY = LAYOUT["supply"].start
_TARGET = LAYOUT["target"].start
_ALARM = LAYOUT["alarm"].start
_ALARM_ROOM = LAYOUT["alarm_room"].start
_VEHICLE = LAYOUT["vehicle"].start
_CANDIDATES = LAYOUT["vehicle_candidates"].start
_STACKS = LAYOUT["stacks"].start
_STACKS_PLAYED = LAYOUT["stacks_played"].start
_TURN_SEAT = LAYOUT["turn_seat"].start
_CARD = LAYOUT["card"].start
_SLOTS = LAYOUT["card_slots"].start
_PENDING = LAYOUT["slot_pending"].start
_DONE = LAYOUT["slot_done"].start
_EXTRA = LAYOUT["extra_used"].start
_STARTED = LAYOUT["card_started"].start
_POOL = LAYOUT["pool"].start
_HAND_SIZE = LAYOUT["hand_size"].start
_PLAYED = LAYOUT["played"].start
_OWN_HAND = LAYOUT["own_hand"].start
_ROBBER_HANDS = LAYOUT["robber_hands"].start


@nb.njit(cache=True)
def observe(s, seat, out):
    out[:] = 0
    out[_PHASE + int(s.phase)] = 1
    if s.actor >= 0:
        out[_ACTOR + int(s.actor)] = 1
    out[_ROUND + int(s.round_num) - 1] = 1
    if s.phase == ROB:
        out[_CYCLE + int(s.cycle)] = 1
    out[_NUM_PLAYERS + int(s.num_players) - NUM_PLAYERS_MIN] = 1
    out[_OBSERVER + int(seat)] = 1
    for room in range(N_ROOMS):
        out[_TILE + room * N_TILES + int(s.tile[room])] = 1
        out[_ROTATION + room * 4 + int(s.rotation[room])] = 1
        out[_WALL + room * 5 + int(s.wall[room]) + 1] = 1
    for g in range(s.n_guards):
        out[_GUARD_IN_PLAY + g] = 1
        room = int(s.guard_room[g])
        out[_GUARD_ROOM + g * N_ROOMS + room] = 1
        out[_START_ROOM + g * N_ROOMS + int(s.start_room[g])] = 1
        out[_GUARD_UP + g] = s.guard_awake[g]
        if s.guard_awake[g]:
            out[_GUARDS_UP + room] += 1
        else:
            out[_GUARDS_DOWN + room] += 1
    for x in range(s.n_robbers):
        out[_ROBBER_IN_PLAY + x] = 1
        room = int(s.robber_room[x])
        out[_ROBBER_ROOM + x * N_ROOMS + room] = 1
        out[_ROOM_ROBBERS + room * MAX_ROBBERS + x] = 1
        out[_ROBBER_UP + x] = s.robber_awake[x]
    for b in range(s.bag_where.shape[0]):
        where = s.bag_where[b]
        if where == FLOOR:
            if s.bag_locked[b]:
                out[_BAGS_LOCKED + int(s.bag_at[b])] += 1
            else:
                out[_BAGS_UNLOCKED + int(s.bag_at[b])] += 1
        elif where == CARRIED:
            out[_CARRIED + int(s.bag_at[b])] += 1
        elif where == SUPPLY:
            out[_SUPPLY] += 1
        elif where == STOLEN:
            out[_STOLEN] += 1
    out[_TARGET] = s.target
    out[_ALARM + int(s.alarm)] = 1
    out[_ALARM_ROOM + int(s.alarm_room)] = 1
    if s.alarm == ON_UNLOCKED:
        out[_ROOM_ALARM + int(s.alarm_room) * 2] = 1
    elif s.alarm == ON_LOCKED:
        out[_ROOM_ALARM + int(s.alarm_room) * 2 + 1] = 1
    if s.vehicle >= 0:
        out[_VEHICLE + int(s.vehicle)] = 1
    for i in range(2):
        if s.veh_cand[i] >= 0:
            out[_CANDIDATES + int(s.veh_cand[i])] = 1
    for p in range(s.n_seats):
        for pos in range(STACK_SIZE):
            t = int(s.stack[p, pos])
            out[_STACKS + (p * STACK_SIZE + pos) * (N_CARD_TYPES + 1) + t + 1] = 1
            if pos < s.n_revealed[p]:
                out[_STACKS_PLAYED + p * STACK_SIZE + pos] = 1
        size = 0
        for t in range(N_CARD_TYPES):
            out[_POOL + p * N_CARD_TYPES + t] = s.hand[p, t] + s.aside[p, t]
            out[_PLAYED + p * N_CARD_TYPES + t] = s.played[p, t]
            size += s.hand[p, t]
        out[_HAND_SIZE + p] = size
    if s.card >= 0:
        out[_TURN_SEAT + int(s.turn_seat)] = 1
        out[_CARD + int(s.card)] = 1
        for j in range(MAX_SLOTS):
            kind = int(s.card_slots[j])
            if kind >= 0:
                out[_SLOTS + j * N_SLOT_KINDS + kind] = 1
                out[_PENDING + j] = 1 - s.slot_done[j]
                out[_DONE + j] = s.slot_done[j]
        out[_EXTRA] = s.extra_used
        out[_STARTED] = s.card_started
    for t in range(N_CARD_TYPES):
        out[_OWN_HAND + t] = s.hand[seat, t]
    if seat > 0:
        for x in range(s.n_robbers):
            for t in range(N_CARD_TYPES):
                out[_ROBBER_HANDS + x * N_CARD_TYPES + t] = s.hand[1 + x, t]
