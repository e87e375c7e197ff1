"""Building How to Rob a Bank positions for tests: fixed tile layouts, planned stacks, pieces."""

import numpy as np

from heist_envs.how_to_rob_a_bank import GAME, rules
from heist_envs.how_to_rob_a_bank.actions import PLAN_0, VEHICLE_CW
from heist_envs.how_to_rob_a_bank.components import NEIGHBOUR, NUM_BAGS, NUM_CYCLES, TILE_NAMES
from heist_envs.how_to_rob_a_bank.observation import LAYOUT, OBS_DTYPE, OBS_SIZE
from heist_envs.how_to_rob_a_bank.state import CARRIED, FLOOR, PLAN, ROB, STOLEN, SUPPLY
from tests.helpers import legal_actions, play

# Card types (spec 2.3).
B_MOVE, B_DOUBLE_MOVE, B_LOCK, B_TACKLE, B_TACKLE_OR_LOCK = range(5)
R_MOVE, R_PICKUP, R_UNLOCK, R_SPRAY, R_CRAWL, R_SPRAY_OR_PICKUP, R_UNLOCK_OR_PICKUP = range(7)
YELLOW, RED, GREEN = 0, 1, 2  # robber indices; their seats are 1 + index

# Layout L0 (spec section 9): walls room 2 N, room 6 S, room 7 W, room 8 E; mask in room 0,
# alarm in room 4, bags in rooms 1, 2, 5, 8, guard 0 in room 3, guard 1 in room 6.
L0 = ["T1", "T4", "T3", "T7", "T2", "P23", "T6", "T8", "T5"]

# Harmless default stacks: Lock cards for the bank (nothing lockable at the L0 start),
# Unlock cards for the robbers (optional, nothing to unlock).
DEFAULT_BANK = [B_LOCK, B_LOCK, B_MOVE, B_MOVE, B_MOVE]
DEFAULT_ROBBER = [R_UNLOCK, R_UNLOCK, R_MOVE, R_MOVE, R_MOVE]


def tile_ids(names):
    return [TILE_NAMES.index(n) for n in names]


def new_game(num_players=3, layout=L0, seed=0, **options):
    """A new game record; ``layout`` (tile names for rooms 0-8) is used in every round."""
    if layout is not None:
        options["tile_layouts"] = [layout] * 3
    return GAME.new_state(num_players, seed, options)[0]


def obs(s, seat):
    out = np.zeros(OBS_SIZE, OBS_DTYPE)
    GAME.observe(s, seat, out)
    return out


def part(vector, name):
    """The observation part called ``name`` (see ``LAYOUT``)."""
    return vector[LAYOUT[name]]


def mask_of(s):
    return set(legal_actions(GAME, s).tolist())


def first_card(card):
    """A robber stack that starts with ``card`` (not Unlock), then two Unlocks and two Moves."""
    return [card, R_UNLOCK, R_UNLOCK, R_MOVE, R_MOVE]


def planned_game(stacks=None, num_players=3, layout=L0, setup=(VEHICLE_CW,), seed=0):
    """A game at the start of Phase 3 of round 1 with the given stacks ({seat: 5 types}).

    The setup decisions are played, each seat's hand is set to its stack's cards, and the
    stacks are planned through PLAN actions; the kernel then starts the bank's first turn.
    """
    s = new_game(num_players, layout, seed)
    play(GAME, s, *setup)
    assert s.phase == PLAN
    stacks = dict(stacks or {})
    for p in range(s.n_seats):
        stack = stacks.setdefault(p, DEFAULT_BANK if p == 0 else DEFAULT_ROBBER)
        counts = np.bincount(stack, minlength=s.hand.shape[1]).astype(np.int8)
        s.aside[p] += s.hand[p] - counts
        s.hand[p] = counts
        assert (s.aside[p] >= 0).all(), f"seat {p}'s stack is not made of its deck's cards"
    for k in range(NUM_CYCLES):
        for p in range(s.n_seats):
            play(GAME, s, PLAN_0 + stacks[p][k])
    assert s.phase == ROB
    return s


def begin_turn(s, seat, cycle=0):
    """Start ``seat``'s turn of ``cycle`` afresh from the current pieces (reveal, A3/A4, A5)."""
    s.phase = ROB
    s.turn_seat = seat
    s.cycle = cycle
    rules.start_turn(s)
    rules.settle(s)


def place_bags(s, floor=(), carried=(), stolen=0, locked=()):
    """Redistribute the 7 bags: ``floor``/``locked`` are rooms (one entry per bag),
    ``carried`` robber indices; the rest go to SUPPLY."""
    places = (
        [(STOLEN, -1, 0)] * stolen
        + [(FLOOR, r, 0) for r in floor]
        + [(FLOOR, r, 1) for r in locked]
        + [(CARRIED, x, 0) for x in carried]
    )
    assert len(places) <= NUM_BAGS
    places += [(SUPPLY, -1, 0)] * (NUM_BAGS - len(places))
    for b, (where, at, lock) in enumerate(places):
        s.bag_where[b] = where
        s.bag_at[b] = at
        s.bag_locked[b] = lock
    s.stolen = stolen


def floor_bags(s, room, locked=None):
    on_floor = (s.bag_where == FLOOR) & (s.bag_at == room)
    if locked is not None:
        on_floor &= s.bag_locked == locked
    return int(on_floor.sum())


def carried(s, robber):
    return int(((s.bag_where == CARRIED) & (s.bag_at == robber)).sum())


def edge_open(s, a, b):
    """Whether rooms a and b are neighbours with no wall on the edge between them (3.2)."""
    for d in range(4):
        if NEIGHBOUR[a, d] == b:
            return s.wall[a] != d and s.wall[b] != (d + 2) % 4
    return False


def connected(s):
    """Whether every room is reachable from room 0 (a plain BFS, independent of the kernel)."""
    seen = {0}
    todo = [0]
    while todo:
        a = todo.pop()
        for b in range(9):
            if b not in seen and edge_open(s, a, b):
                seen.add(b)
                todo.append(b)
    return len(seen) == 9
