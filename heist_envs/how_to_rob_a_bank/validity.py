"""How to Rob a Bank's state check: every field in range and the fields consistent with play."""

from typing import NamedTuple

import numpy as np

from heist_envs.core.game import RUNNING
from heist_envs.core.validity import expect, in_range

from . import rules
from .components import (
    CARD_SLOTS,
    CENTRE_ROOM,
    DECK_COUNTS,
    DECK_SIZE,
    HAND_SIZE,
    MAX_SEATS,
    N_CARD_TYPES,
    N_ROOMS,
    N_SLOT_KINDS,
    N_SPACES,
    NUM_BAGS,
    NUM_CYCLES,
    NUM_ROUNDS,
    STREET_CORNERS,
    TARGET_2_3,
    TARGET_4,
    TILE_ALARM,
    TILE_BADGES,
    TILE_BAGS,
    TILE_IN_PLAY,
    TILE_MASK,
    TILE_WALL,
    VEHICLE_CANDIDATES,
)
from .state import (
    BANK_WINS,
    CARRIED,
    FLOOR,
    GAME_OVER,
    NO_WINNER,
    PLAN,
    RINGING,
    ROB,
    ROBBERS_WIN,
    SETUP_CORNER,
    SETUP_STREET,
    STACK_SIZE,
    STOLEN,
    SUPPLY,
)


class Setup(NamedTuple):
    """What the player count fixes: the tiles in play, robbers, seats and guards."""

    in_play: np.ndarray  # per tile, whether it is in play
    tiles: list[int]  # the tiles in play
    robbers: int
    seats: int
    guards: int

    @classmethod
    def of(cls, s):
        n = int(s.num_players)
        in_play = TILE_IN_PLAY[1 if n == 4 else 0].astype(bool)
        robbers = 3 if n == 4 else 2
        tiles = sorted(np.flatnonzero(in_play).tolist())
        return cls(in_play, tiles, robbers, robbers + 1, int(TILE_BADGES[in_play].sum()))


def validate(s):
    """Raise InvalidStateError naming the first field that no game of the rules can hold."""
    setup = Setup.of(s)
    check_options(s, setup)
    check_position(s, setup)
    check_board(s, setup)
    check_bags(s, setup)
    check_cards(s, setup)
    check_phase(s, setup)


def check_options(s, setup):
    """The counts the player count fixes, and the options that fix the layouts and hands."""
    n = int(s.num_players)
    in_play, tiles, robbers, seats, guards = setup
    for name, value in (
        ("n_robbers", robbers),
        ("n_seats", seats),
        ("n_guards", guards),
        ("target", TARGET_4 if n == 4 else TARGET_2_3),
        ("bags_per_round", int(TILE_BAGS[in_play].sum())),
    ):
        in_range(name, s[name], value, value)
    in_range("early_end", s.early_end, 0, 1)
    in_range("n_fixed_layouts", s.n_fixed_layouts, 0, NUM_ROUNDS)
    for r in range(NUM_ROUNDS):
        if r < s.n_fixed_layouts:
            expect(sorted(s.fixed_tiles[r].tolist()) == tiles, f"fixed_tiles[{r}]", f"{tiles}")
        else:
            in_range(f"fixed_tiles[{r}]", s.fixed_tiles[r], 0, 0)
    in_range("fixed_hands", s.fixed_hands, 0, 1)
    in_range("fixed_hand", s.fixed_hand, 0, HAND_SIZE)
    for p in range(MAX_SEATS):
        if s.fixed_hands and p < seats:
            expect(s.fixed_hand[p].sum() == HAND_SIZE, f"fixed_hand[{p}]", f"{HAND_SIZE} cards")
            expect((s.fixed_hand[p] <= DECK_COUNTS[p]).all(), f"fixed_hand[{p}]", "its deck's")
        else:
            in_range(f"fixed_hand[{p}]", s.fixed_hand[p], 0, 0)


def check_position(s, setup):
    """The phase, round, cycle, turn and winner, and the card being played."""
    running = s.status == RUNNING
    in_range("phase", s.phase, SETUP_CORNER, GAME_OVER)
    expect(running == (s.phase != GAME_OVER), "phase", "game over exactly when the game is")
    expect(s.status != 2, "status", "0 or 1: the game is never truncated")
    in_range("round_num", s.round_num, 1, NUM_ROUNDS)
    in_range("cycle", s.cycle, 0, NUM_CYCLES - running)  # 5 after the last round
    in_range("turn_seat", s.turn_seat, 0, setup.seats - 1)
    in_range("winner", s.winner, NO_WINNER if running else BANK_WINS, NO_WINNER if running else 1)
    in_range("card", s.card, -1, N_CARD_TYPES - 1)
    in_range("card_slots", s.card_slots, -1, N_SLOT_KINDS - 1)
    for name in ("slot_done", "extra_used", "card_started"):
        in_range(name, s[name], 0, 1)
    in_range("vehicle", s.vehicle, -1, N_SPACES - 1)
    in_range("veh_cand", s.veh_cand, -1, N_SPACES - 1)


def check_board(s, setup):
    """The bank's tiles, walls and alarm, and where the guards and robbers are."""
    tiles, robbers, guards = setup.tiles, setup.robbers, setup.guards
    expect(sorted(s.tile.tolist()) == tiles, "tile", f"each tile in play once: {tiles}")
    in_range("rotation", s.rotation, 0, 3)
    for room in range(N_ROOMS):
        side = TILE_WALL[s.tile[room]]
        wall = -1 if side < 0 else (side + s.rotation[room]) % 4
        expect(side >= 0 or s.rotation[room] == 0, f"rotation[{room}]", "0 for a tile with no wall")
        expect(s.wall[room] == wall, f"wall[{room}]", f"{wall} (the tile's wall, rotated)")
    expect(rules.is_connected(s), "rotation", "a bank whose rooms are all connected")
    mask_room = int(np.flatnonzero(TILE_MASK[s.tile])[0])
    alarm_room = int(np.flatnonzero(TILE_ALARM[s.tile])[0])
    in_range("mask_room", s.mask_room, mask_room, mask_room)
    in_range("alarm_room", s.alarm_room, alarm_room, alarm_room)
    in_range("alarm", s.alarm, 0, RINGING)
    in_range("guard_room", s.guard_room[:guards], 0, N_ROOMS - 1)
    in_range("guard_room", s.guard_room[guards:], -1, -1)
    in_range("start_room", s.start_room[:guards], 0, N_ROOMS - 1)
    in_range("start_room", s.start_room[guards:], -1, -1)
    in_range("guard_awake", s.guard_awake[:guards], 0, 1)
    in_range("guard_awake", s.guard_awake[guards:], 0, 0)
    in_range("robber_room", s.robber_room[:robbers], 0, N_ROOMS - 1)
    in_range("robber_room", s.robber_room[robbers:], -1, -1)
    in_range("robber_awake", s.robber_awake[:robbers], 0, 1)
    in_range("robber_awake", s.robber_awake[robbers:], 0, 0)


def check_bags(s, setup):
    """Bags: each in one place; floor bags in a room, carried ones by a conscious robber."""
    in_range("bag_where", s.bag_where, SUPPLY, STOLEN)
    in_range("bag_locked", s.bag_locked, 0, 1)
    for b in range(NUM_BAGS):
        where, at = int(s.bag_where[b]), int(s.bag_at[b])
        if where == FLOOR:
            in_range(f"bag_at[{b}]", at, 0, N_ROOMS - 1)
        elif where == CARRIED:
            in_range(f"bag_at[{b}]", at, 0, setup.robbers - 1)
            expect(s.robber_awake[at], f"bag_at[{b}]", "a conscious robber")
        else:
            in_range(f"bag_at[{b}]", at, -1, -1)
        expect(where == FLOOR or not s.bag_locked[b], f"bag_locked[{b}]", "0 off the floor")
    stolen = int((s.bag_where == STOLEN).sum())
    in_range("stolen", s.stolen, stolen, stolen)
    target = int(s.target)
    if s.status == RUNNING:
        expect(stolen < target, "stolen", f"fewer than the target {target} in a running game")
    else:
        won = BANK_WINS if stolen < target else ROBBERS_WIN
        in_range("winner", s.winner, won, won)


def planned_before(s) -> int:
    """The cards each seat planned in the rounds before this one."""
    return NUM_CYCLES * (int(s.round_num) - 1)


def check_cards(s, setup):
    """Cards: per seat, 15 in hand, aside, planned and not yet played, or played."""
    seats = setup.seats
    done = planned_before(s)
    in_range("n_planned", s.n_planned[:seats], done, done + NUM_CYCLES)
    in_range("n_revealed", s.n_revealed[:seats], done, done + NUM_CYCLES)
    in_range("n_planned", s.n_planned[seats:], 0, 0)
    in_range("n_revealed", s.n_revealed[seats:], 0, 0)
    in_range("hand", s.hand, 0, HAND_SIZE)
    in_range("aside", s.aside, 0, DECK_SIZE)
    in_range("played", s.played, 0, DECK_SIZE)
    for p in range(MAX_SEATS):
        if p >= seats:
            for name in ("hand", "aside", "played"):
                in_range(f"{name}[{p}]", s[name][p], 0, 0)
            in_range(f"stack[{p}]", s.stack[p], -1, -1)
            continue
        planned, revealed = int(s.n_planned[p]), int(s.n_revealed[p])
        expect(revealed <= planned, f"n_revealed[{p}]", f"at most n_planned ({planned})")
        in_range(f"stack[{p}]", s.stack[p, :planned], 0, N_CARD_TYPES - 1)
        in_range(f"stack[{p}]", s.stack[p, planned:], -1, -1)
        played = np.bincount(s.stack[p, :revealed], minlength=N_CARD_TYPES)
        expect((s.played[p] == played).all(), f"played[{p}]", f"the revealed cards {played}")
        waiting = np.bincount(s.stack[p, revealed:planned], minlength=N_CARD_TYPES)
        total = s.hand[p] + s.aside[p] + waiting + played
        expect((total == DECK_COUNTS[p]).all(), f"aside[{p}]", "the deck's 15 cards in all")
    in_range("n_planned", s.n_planned, 0, STACK_SIZE)


def check_phase(s, setup):
    """What the phase implies: cards in hand only while planning, the vehicle's candidates,
    the plans made so far, the card revealed in a turn and who acts."""
    seats, guards = setup.seats, setup.guards
    phase, actor, done = int(s.phase), int(s.actor), planned_before(s)
    if phase != PLAN:
        in_range("hand", s.hand, 0, 0)
    if phase in (SETUP_CORNER, SETUP_STREET, PLAN):
        in_range("n_revealed", s.n_revealed[:seats], done, done)
        in_range("vehicle", s.vehicle, -1 if phase != PLAN else 0, -1 if phase != PLAN else 11)
        check_no_card(s)
    if phase in (SETUP_CORNER, SETUP_STREET):
        in_range("n_planned", s.n_planned[:seats], done, done)
    if phase == SETUP_CORNER:
        in_range("mask_room", s.mask_room, CENTRE_ROOM, CENTRE_ROOM)
        in_range("actor", actor, 0, 0)
        in_range("veh_cand", s.veh_cand, -1, -1)
    elif phase == SETUP_STREET:
        in_range("actor", actor, 1, 1)
        pairs = [tuple(VEHICLE_CANDIDATES[s.mask_room])]
        if s.mask_room == CENTRE_ROOM:
            pairs = [tuple(c) for c in STREET_CORNERS]
        expect(tuple(s.veh_cand) in pairs, "veh_cand", f"one of {pairs}")
    else:
        in_range("veh_cand", s.veh_cand, -1, -1)
    if phase == PLAN:
        made = int(s.n_planned[:seats].sum()) - seats * done  # plans made this round
        expect(made < seats * NUM_CYCLES, "n_planned", "a plan still to make")
        for p in range(seats):
            mine = made // seats + (p < made % seats)
            in_range(f"n_planned[{p}]", s.n_planned[p], done + mine, done + mine)
            size = min(HAND_SIZE, DECK_SIZE - done) - mine
            expect(s.hand[p].sum() == size, f"hand[{p}]", f"{size} cards")
        in_range("actor", actor, made % seats, made % seats)
    elif phase == ROB:
        in_range("vehicle", s.vehicle, 0, N_SPACES - 1)
        in_range("n_planned", s.n_planned[:seats], done + NUM_CYCLES, done + NUM_CYCLES)
        seat, cycle = int(s.turn_seat), int(s.cycle)
        for p in range(seats):
            shown = done + cycle + (p <= seat)
            in_range(f"n_revealed[{p}]", s.n_revealed[p], shown, shown)
        in_range("actor", actor, seat, seat)
        card = int(s.stack[seat, done + cycle])
        in_range("card", s.card, card, card)
        slots = CARD_SLOTS[0 if seat == 0 else 1, card]
        expect((s.card_slots == slots).all(), "card_slots", f"the card's slots {slots.tolist()}")
        in_range("extra_used", s.extra_used, 1 if seat == 0 else 0, 1)
        expect(not rules.turn_over(s), "slot_done", "something left to do in the turn")
        if seat == 0:
            expect(s.guard_awake[:guards].any(), "guard_awake", "a conscious guard (A4)")
        else:
            expect(s.robber_awake[seat - 1], "robber_awake", "the acting robber conscious (A3)")


def check_no_card(s):
    """Between rounds' turns: no card revealed and nothing pending."""
    in_range("card", s.card, -1, -1)
    in_range("card_slots", s.card_slots, -1, -1)
    for name in ("slot_done", "extra_used", "card_started"):
        in_range(name, s[name], 0, 0)
