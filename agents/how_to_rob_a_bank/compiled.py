"""Plays either side: the robbers run one shared plan, the bank chases the loot.

How to Rob a Bank's heuristic player, written once, in numba. Robbers: at each round's start
every robber computes the same team plan from public facts and the robbers' shared hands. Each
robber takes the bag room it reaches soonest (not one a teammate took), with a Crawl for long
trips or Move cards along the shortest open path, then its pick-up card and the moves to the
nearest room a bag can be thrown from; optional cards follow (so it can wait for the getaway
vehicle) and spare Move cards come last. While robbing it throws, picks up, unlocks and sprays
whenever it can, moves toward its bag (or, carrying one, toward its throw room), and spends
spare extra actions driving the vehicle to the robber whose throw comes first by the planned
cards. Bank: guards tackle robbers (bag carriers first), lock floor bags, and move toward
carriers, bags and robbers; the bank plans its cards in :data:`BANK_PLAN_ORDER`; the vehicle
goes to the street corner farthest from the bags.

:func:`scores` values every legal action from the seat's observation (a :data:`View` of it)
and action mask alone; :func:`act` plays the best
(:func:`agents.compiled.best_with_ties_at_random`).
"""

from collections import namedtuple

import numba as nb
import numpy as np

from heist_envs.how_to_rob_a_bank import actions as A
from heist_envs.how_to_rob_a_bank import components as C
from heist_envs.how_to_rob_a_bank.observation import LAYOUT
from heist_envs.how_to_rob_a_bank.state import PLAN, ROB, SETUP_CORNER, SETUP_STREET, STACK_SIZE

from ..compiled import best_with_ties_at_random
from ..profiles import check_weights

GAME = "how_to_rob_a_bank"
FAR = 99  # the distance between rooms no open path joins

# Robber card types (spec 2.3).
R_MOVE, R_PICKUP, R_UNLOCK, R_SPRAY, R_CRAWL, R_SPRAY_OR_PICKUP, R_UNLOCK_OR_PICKUP = range(7)
PICKUP_CARDS = (R_PICKUP, R_SPRAY_OR_PICKUP, R_UNLOCK_OR_PICKUP)
MOVING_CARDS = (R_MOVE, R_CRAWL)
# Bank card types, in the order the bank plans them.
B_MOVE, B_DOUBLE_MOVE, B_LOCK, B_TACKLE, B_TACKLE_OR_LOCK = range(5)
BANK_PLAN_ORDER = (B_DOUBLE_MOVE, B_TACKLE_OR_LOCK, B_TACKLE, B_MOVE, B_LOCK)

# Robber action priorities: a throw scores, then getting and freeing bags.
ROBBER_ACTION_VALUE = {A.THROW: 100.0, A.PICKUP: 90.0, A.UNLOCK_BAG: 80.0, A.SPRAY: 70.0}

# Where the observation's parts lie: LAYOUT's slices as ints the jitted code can use.
_PHASE_START, _PHASE_STOP = LAYOUT["phase"].start, LAYOUT["phase"].stop
_OBSERVER_START, _OBSERVER_STOP = LAYOUT["observer"].start, LAYOUT["observer"].stop
_ROUND_START, _ROUND_STOP = LAYOUT["round"].start, LAYOUT["round"].stop
_ROOM_TILE_START = LAYOUT["room_tile"].start
_ROOM_WALL_START, _ROOM_WALL_STOP = LAYOUT["room_wall"].start, LAYOUT["room_wall"].stop
_WALL_OPTIONS = (_ROOM_WALL_STOP - _ROOM_WALL_START) // C.N_ROOMS  # no wall, then N, E, S, W
_GUARDS_UP_START = LAYOUT["room_guards_conscious"].start
_BAGS_UNLOCKED_START = LAYOUT["room_bags_unlocked"].start
_BAGS_LOCKED_START = LAYOUT["room_bags_locked"].start
_ROBBER_IN_PLAY_START = LAYOUT["robber_in_play"].start
_ROBBER_IN_PLAY_STOP = LAYOUT["robber_in_play"].stop
_ROBBER_ROOM_START = LAYOUT["robber_room"].start
_ROBBER_UP_START = LAYOUT["robber_conscious"].start
_CARRIED_START = LAYOUT["robber_carried"].start
_GUARD_IN_PLAY_START, _GUARD_IN_PLAY_STOP = (
    LAYOUT["guard_in_play"].start,
    LAYOUT["guard_in_play"].stop,
)
_GUARD_ROOM_START = LAYOUT["guard_room"].start
_GUARD_UP_START = LAYOUT["guard_conscious"].start
_VEHICLE_START, _VEHICLE_STOP = LAYOUT["vehicle"].start, LAYOUT["vehicle"].stop
_CANDIDATES_START = LAYOUT["vehicle_candidates"].start
_STACKS_START = LAYOUT["stacks"].start
_STACK_OPTIONS = C.N_CARD_TYPES + 1  # an empty place, then the card types
_STACKS_PLAYED_START = LAYOUT["stacks_played"].start
_TURN_SEAT_START, _TURN_SEAT_STOP = LAYOUT["turn_seat"].start, LAYOUT["turn_seat"].stop
_CARD_START, _CARD_STOP = LAYOUT["card"].start, LAYOUT["card"].stop
_CARD_STARTED_START = LAYOUT["card_started"].start
_ROBBER_HANDS_START = LAYOUT["robber_hands"].start

#: per action, its fixed robber value in ROBBER_ACTION_VALUE (NaN: none)
_ROBBER_ACTION_VALUE = np.array([ROBBER_ACTION_VALUE.get(a, np.nan) for a in range(A.NUM_ACTIONS)])
#: the card types in the order robbers plan the cards left after the route and pick-up:
#: optional ones first (the robber can wait in place for the vehicle with them), moving ones last
_WAITING_ORDER = tuple(sorted(range(C.N_CARD_TYPES), key=lambda card: (card in MOVING_CARDS, card)))

#: The observation decoded. Per-robber and per-guard arrays
#: have C.MAX_ROBBERS and C.MAX_GUARDS entries (the first n_robbers and n_guards are in play);
#: ``target`` and ``plan`` are the team plan, filled by :func:`team_plan` where it is needed.
View = namedtuple(
    "View",
    [
        "obs",
        "phase",
        "seat",
        "round",
        "wall",  # per room, the side of its thick wall (-1: none)
        "bag_room",  # per room, whether this round's tile starts a bag there
        "mask_room",
        "guards_up",
        "bags",
        "n_robbers",
        "robber_room",
        "robber_up",
        "carried",
        "n_guards",
        "guard_room",
        "guard_up",
        "vehicle",  # its street space, -1 while unplaced
        "dist",
        "throw_space",  # per street space, whether a bag can be thrown into it
        "throw_room",  # per room, whether it faces a throw space
        "nearest_throw_room",
        "round_stacks",  # [robber, k]: its k-th card planned this round
        "round_stack_len",
        "target",  # per robber: its planned bag room (-1: none)
        "plan",  # [robber, k]: its k-th card of the round in the team plan
    ],
)


# --- reading the observation ---------------------------------------------------------------


@nb.njit(cache=True)
def _argmax(obs, start, stop):
    """numpy's ``argmax`` of ``obs[start:stop]``: the first place of its largest entry."""
    best = 0
    for i in range(1, stop - start):
        if obs[start + i] > obs[start + best]:
            best = i
    return best


@nb.njit(cache=True)
def _any(obs, start, stop):
    for i in range(start, stop):
        if obs[i] != 0:
            return True
    return False


@nb.njit(cache=True)
def _count(obs, start, stop):
    """``int(obs[start:stop].sum())`` for 0/1 entries."""
    total = 0
    for i in range(start, stop):
        total += int(obs[i])
    return total


@nb.njit(cache=True)
def decode_view(obs):
    """The :data:`View` of ``obs`` with its geometry; the team plan is left empty."""
    wall = np.empty(C.N_ROOMS, np.int64)
    bag_room = np.zeros(C.N_ROOMS, np.bool_)
    mask_room = -1
    guards_up = np.empty(C.N_ROOMS, np.int64)
    bags = np.empty(C.N_ROOMS, np.int64)
    for r in range(C.N_ROOMS):
        at = _ROOM_WALL_START + _WALL_OPTIONS * r
        wall[r] = _argmax(obs, at, at + _WALL_OPTIONS) - 1
        at = _ROOM_TILE_START + C.N_TILES * r
        tile = _argmax(obs, at, at + C.N_TILES)
        bag_room[r] = C.TILE_BAGS[tile] != 0
        if mask_room < 0 and C.TILE_MASK[tile] != 0:
            mask_room = r
        guards_up[r] = int(obs[_GUARDS_UP_START + r])
        bags[r] = int(obs[_BAGS_UNLOCKED_START + r] + obs[_BAGS_LOCKED_START + r])
    n_robbers = _count(obs, _ROBBER_IN_PLAY_START, _ROBBER_IN_PLAY_STOP)
    robber_room = np.empty(C.MAX_ROBBERS, np.int64)
    robber_up = np.empty(C.MAX_ROBBERS, np.bool_)
    carried = np.empty(C.MAX_ROBBERS, np.int64)
    for x in range(C.MAX_ROBBERS):
        at = _ROBBER_ROOM_START + C.N_ROOMS * x
        robber_room[x] = _argmax(obs, at, at + C.N_ROOMS)
        robber_up[x] = obs[_ROBBER_UP_START + x] > 0
        carried[x] = int(obs[_CARRIED_START + x])
    n_guards = _count(obs, _GUARD_IN_PLAY_START, _GUARD_IN_PLAY_STOP)
    guard_room = np.empty(C.MAX_GUARDS, np.int64)
    guard_up = np.empty(C.MAX_GUARDS, np.bool_)
    for g in range(C.MAX_GUARDS):
        at = _GUARD_ROOM_START + C.N_ROOMS * g
        guard_room[g] = _argmax(obs, at, at + C.N_ROOMS)
        guard_up[g] = obs[_GUARD_UP_START + g] > 0
    vehicle = -1
    if _any(obs, _VEHICLE_START, _VEHICLE_STOP):
        vehicle = _argmax(obs, _VEHICLE_START, _VEHICLE_STOP)
    the_round = _argmax(obs, _ROUND_START, _ROUND_STOP)
    distances = dist(wall)
    spaces = throw_spaces(wall)
    rooms = throw_rooms(spaces)
    stacks, stack_len = round_stacks(obs, the_round, n_robbers)
    return View(
        obs,
        _argmax(obs, _PHASE_START, _PHASE_STOP),
        _argmax(obs, _OBSERVER_START, _OBSERVER_STOP),
        the_round,
        wall,
        bag_room,
        mask_room,
        guards_up,
        bags,
        n_robbers,
        robber_room,
        robber_up,
        carried,
        n_guards,
        guard_room,
        guard_up,
        vehicle,
        distances,
        spaces,
        rooms,
        nearest_throw_room(distances, spaces, rooms, vehicle),
        stacks,
        stack_len,
        np.full(C.MAX_ROBBERS, -1, np.int64),
        np.zeros((C.MAX_ROBBERS, C.DECK_SIZE), np.int64),  # a robber's cards all come from its deck
    )


# --- geometry ------------------------------------------------------------------------------


@nb.njit(cache=True)
def open_edge(wall, room, d):
    neighbour = C.NEIGHBOUR[room, d]
    return neighbour >= 0 and wall[room] != d and wall[neighbour] != (d + 2) % 4


@nb.njit(cache=True)
def dist(wall):
    """dist[a, b]: the fewest moves from room a to room b through open edges."""
    table = np.full((C.N_ROOMS, C.N_ROOMS), FAR, np.int64)
    for room in range(C.N_ROOMS):
        table[room, room] = 0
        for d in range(4):
            if open_edge(wall, room, d):
                table[room, C.NEIGHBOUR[room, d]] = 1
    for via in range(C.N_ROOMS):  # Floyd-Warshall
        for a in range(C.N_ROOMS):
            for b in range(C.N_ROOMS):
                table[a, b] = min(table[a, b], table[a, via] + table[via, b])
    return table


@nb.njit(cache=True)
def throw_spaces(wall):
    """Per street space, whether a bag can be thrown into it from the room it faces."""
    spaces = np.empty(C.N_SPACES, np.bool_)
    for s in range(C.N_SPACES):
        spaces[s] = wall[C.SPACE_ROOM[s]] != C.SPACE_SIDE[s]
    return spaces


@nb.njit(cache=True)
def throw_rooms(throw_space):
    rooms = np.zeros(C.N_ROOMS, np.bool_)
    for s in range(C.N_SPACES):
        if throw_space[s]:
            rooms[C.SPACE_ROOM[s]] = True
    return rooms


@nb.njit(cache=True)
def nearest_throw_room(dist, throw_space, throw_room, vehicle):
    """Per room: the closest room to throw from (the vehicle's steps break ties)."""
    steps = np.zeros(C.N_ROOMS, np.int64)
    for t in range(C.N_ROOMS):
        if throw_room[t]:
            steps[t] = vehicle_steps(throw_space, vehicle, t)
    nearest = np.empty(C.N_ROOMS, np.int64)
    for room in range(C.N_ROOMS):
        best = -1
        for t in range(C.N_ROOMS):
            if throw_room[t] and (
                best < 0 or (dist[room, t], steps[t]) < (dist[room, best], steps[best])
            ):
                best = t
        nearest[room] = best
    return nearest


@nb.njit(cache=True)
def ring(a, b):
    return min((a - b) % C.N_SPACES, (b - a) % C.N_SPACES)


@nb.njit(cache=True)
def vehicle_steps(throw_space, vehicle, room):
    """Ring steps the vehicle needs to face ``room`` (0 while it is unplaced)."""
    if vehicle < 0:
        return 0
    steps = C.N_SPACES
    for s in range(C.N_SPACES):
        if throw_space[s] and C.SPACE_ROOM[s] == room:
            steps = min(steps, ring(vehicle, s))
    return steps


@nb.njit(cache=True)
def step_toward(v, room, goal):
    """The next room on a shortest open path from ``room`` to ``goal``."""
    if room == goal:
        return room
    best = -1
    for d in range(4):
        if open_edge(v.wall, room, d):
            neighbour = C.NEIGHBOUR[room, d]
            if best < 0 or (v.dist[neighbour, goal], neighbour) < (v.dist[best, goal], best):
                best = neighbour
    return best


# --- setup ---------------------------------------------------------------------------------


@nb.njit(cache=True)
def steps_to_bags(v, space):
    """Ring steps from ``space`` to the nearest space a bag room can throw into."""
    near = False  # whether a bag room can be thrown from at all
    for s in range(C.N_SPACES):
        if v.throw_space[s] and v.bag_room[C.SPACE_ROOM[s]]:
            near = True
    steps = C.N_SPACES
    for s in range(C.N_SPACES):
        if v.throw_space[s] and (v.bag_room[C.SPACE_ROOM[s]] or not near):
            steps = min(steps, ring(space, s))
    return steps


@nb.njit(cache=True)
def corner_value(v, k):
    """The bank puts the vehicle far from the bags."""
    total = 0
    for s in C.STREET_CORNERS[k]:
        total += steps_to_bags(v, s)
    return float(total)


@nb.njit(cache=True)
def street_value(v, action):
    """The robbers put the vehicle near the bags."""
    a, b = -1, -1
    for s in range(C.N_SPACES):
        if v.obs[_CANDIDATES_START + s] != 0:
            if a < 0:
                a = s
            else:
                b = s
    ccw, cw = (a, b) if (b - a) % C.N_SPACES == 1 else (b, a)
    return -float(steps_to_bags(v, ccw if action == A.VEHICLE_CCW else cw))


@nb.njit(cache=True)
def bank_plan_value(a):
    """Minus the card's place in BANK_PLAN_ORDER: the bank plans its best cards first."""
    for rank in range(len(BANK_PLAN_ORDER)):
        if BANK_PLAN_ORDER[rank] == a:
            return float(-rank)
    raise ValueError("how_to_rob_a_bank: the bank has no card of this type")


# --- robbers: planning ---------------------------------------------------------------------


@nb.njit(cache=True)
def round_stacks(obs, the_round, n_robbers):
    """Per robber: the card types planned this round, in order, and how many there are."""
    stacks = np.zeros((C.MAX_ROBBERS, C.NUM_CYCLES), np.int64)
    lengths = np.zeros(C.MAX_ROBBERS, np.int64)
    first = the_round * C.NUM_CYCLES
    for x in range(n_robbers):
        for place in range(first, first + C.NUM_CYCLES):
            at = _STACKS_START + ((1 + x) * STACK_SIZE + place) * _STACK_OPTIONS
            card = _argmax(obs, at, at + _STACK_OPTIONS) - 1
            if card >= 0:
                stacks[x, lengths[x]] = card
                lengths[x] += 1
    return stacks, lengths


@nb.njit(cache=True)
def route(v, hand, target):
    """Cards from the start room to ``target`` and from there to a throw room, as
    (found, first leg's card, how many, second leg's card, how many)."""
    there = v.dist[v.mask_room, target]
    after = v.dist[target, v.nearest_throw_room[target]]
    moves, crawl = hand[R_MOVE], hand[R_CRAWL] > 0
    if moves >= there + after and not (crawl and there >= 2):
        return True, R_MOVE, there, R_MOVE, after
    if crawl and moves >= after:
        return True, R_CRAWL, int(there > 0), R_MOVE, after
    if crawl and moves >= there:
        return True, R_MOVE, there, R_CRAWL, int(after > 0)
    return False, R_MOVE, 0, R_MOVE, 0


@nb.njit(cache=True)
def team_plan(v):
    """Fill ``v.target`` and ``v.plan``: per robber, its target bag room or -1 and its cards
    in order. Every robber computes the same plan at every decision of the round: while
    planning, the hands are rebuilt from the stacks; while robbing only the planned cards are
    left, which keeps each robber's cheapest target (its route is among them) the same."""
    taken = np.zeros(C.N_ROOMS, np.bool_)
    for x in range(v.n_robbers):
        hand = np.zeros(C.N_CARD_TYPES, np.int64)  # the round's planned cards and the hand
        for k in range(v.round_stack_len[x]):
            hand[v.round_stacks[x, k]] += 1
        for t in range(C.N_CARD_TYPES):
            hand[t] += int(v.obs[_ROBBER_HANDS_START + C.N_CARD_TYPES * x + t])
        pickup = -1
        for t in PICKUP_CARDS:
            if pickup < 0 and hand[t] > 0:
                pickup = t
        best_cost, best_room = 0, -1
        best_route = (R_MOVE, 0, R_MOVE, 0)
        for room in range(C.N_ROOMS):
            if not v.bag_room[room] or pickup < 0:
                continue
            found, there_card, n_there, after_card, n_after = route(v, hand, room)
            if not found:
                continue
            cost = n_there + n_after + 10 * taken[room]  # a room a teammate took: farther
            if best_room < 0 or cost < best_cost:
                best_cost, best_room = cost, room
                best_route = (there_card, n_there, after_card, n_after)
        rest = hand.copy()
        k = 0
        if best_room >= 0:
            taken[best_room] = True
            there_card, n_there, after_card, n_after = best_route
            for card, times in ((there_card, n_there), (pickup, 1), (after_card, n_after)):
                for _ in range(times):
                    v.plan[x, k] = card
                    rest[card] -= 1
                    k += 1
        for card in _WAITING_ORDER:
            for _ in range(rest[card]):
                v.plan[x, k] = card
                k += 1
        v.target[x] = best_room


@nb.njit(cache=True)
def robber_plan(v):
    me = v.seat - 1
    return v.plan[me, v.round_stack_len[me]]


# --- robbers: robbing ----------------------------------------------------------------------


@nb.njit(cache=True)
def remaining_cards(v, x):
    """Robber x's cards still to play this round, in order (its current card first)."""
    first = v.round * C.NUM_CYCLES
    at = _STACKS_PLAYED_START + (1 + x) * STACK_SIZE + first
    done = _count(v.obs, at, at + C.NUM_CYCLES)
    cards = np.empty(1 + C.NUM_CYCLES, np.int64)
    n = 0
    if (
        _any(v.obs, _TURN_SEAT_START, _TURN_SEAT_STOP)
        and _argmax(v.obs, _TURN_SEAT_START, _TURN_SEAT_STOP) == 1 + x
        and not v.obs[_CARD_STARTED_START]
    ):
        cards[0] = _argmax(v.obs, _CARD_START, _CARD_STOP)
        n = 1
    for k in range(done, v.round_stack_len[x]):
        cards[n] = v.round_stacks[x, k]
        n += 1
    return cards[:n]


@nb.njit(cache=True)
def bag_target(v, x, room):
    """The floor bag robber x goes for: its planned one, else the nearest (-1: none)."""
    target = v.target[x]
    if target >= 0 and v.bags[target]:
        return target
    best = -1
    for r in range(C.N_ROOMS):
        if v.bags[r] and (
            best < 0 or (v.dist[room, r], v.guards_up[r]) < (v.dist[room, best], v.guards_up[best])
        ):
            best = r
    return best


@nb.njit(cache=True)
def throw_eta(v, x):
    """(cards until robber x can throw, the room it throws from), from its stack."""
    room, carrying = v.robber_room[x], v.carried[x] > 0
    if carrying and v.throw_room[room]:
        return 0, room
    cards = remaining_cards(v, x)
    for i in range(len(cards)):
        card = cards[i]
        goal = v.nearest_throw_room[room] if carrying else bag_target(v, x, room)
        if goal < 0:
            break
        if card == R_MOVE:
            room = step_toward(v, room, goal)
        elif card == R_CRAWL:
            room = goal
        elif card in PICKUP_CARDS and not carrying and room == goal:
            carrying = True
        if carrying and v.throw_room[room]:
            return i + 1, room
    return FAR, -1


@nb.njit(cache=True)
def first_throw(v):
    """(robber, room) of the team's next throw by the planned cards: the vehicle's aim."""
    best_eta, best_room, best_x = FAR, -1, -1
    for x in range(v.n_robbers):
        if v.robber_up[x]:
            eta, room = throw_eta(v, x)
            if best_x < 0 or eta < best_eta:
                best_eta, best_room, best_x = eta, room, x
    return (best_x, best_room) if best_eta < FAR else (-1, -1)


@nb.njit(cache=True)
def goal_room(v, x, first, throw_room):
    """Where robber x heads: a throw room when carrying, else a floor bag (``first`` and
    ``throw_room``: :func:`first_throw`)."""
    room = v.robber_room[x]
    if v.carried[x]:
        return throw_room if x == first else v.nearest_throw_room[room]
    target = bag_target(v, x, room)
    return room if target < 0 else target


@nb.njit(cache=True)
def vehicle_gain(v, throw_room, action):
    """Ring steps a vehicle move gains toward the next throw, from ``throw_room`` (the room
    of :func:`first_throw`; negative: away)."""
    if throw_room < 0:
        return 0
    want = -1
    for s in range(C.N_SPACES):
        if (
            v.throw_space[s]
            and C.SPACE_ROOM[s] == throw_room
            and (want < 0 or ring(v.vehicle, s) < ring(v.vehicle, want))
        ):
            want = s
    moved = (v.vehicle + (1 if action == A.VEHICLE_CW else -1)) % C.N_SPACES
    return ring(v.vehicle, want) - ring(moved, want)


@nb.njit(cache=True)
def robber_values(v, legal):
    me = v.seat - 1
    room = v.robber_room[me]
    first, throw_room = first_throw(v)
    goal = goal_room(v, me, first, throw_room)
    card_first = False  # it may set up a throw
    for a in legal:
        if a < A.VEHICLE_CCW:
            card_first = True
    scores = np.empty(len(legal))
    for k in range(len(legal)):
        a = legal[k]
        if not np.isnan(_ROBBER_ACTION_VALUE[a]):
            value = _ROBBER_ACTION_VALUE[a]
        elif A.MOVE_N <= a <= A.CRAWL_8:
            there = C.NEIGHBOUR[room, a - A.MOVE_N] if a <= A.MOVE_W else a - A.CRAWL_0
            value = 50.0 - v.dist[there, goal] - 0.5 * v.guards_up[there]
        elif card_first:
            value = -1.0
        elif a == A.VEHICLE_CCW or a == A.VEHICLE_CW:
            value = 30.0 * vehicle_gain(v, throw_room, a)
        else:
            value = 10.0 if a == A.END_TURN else 0.0
        scores[k] = value
    return scores


# --- bank ----------------------------------------------------------------------------------


@nb.njit(cache=True)
def bank_value(v, threats, a):
    """The bank's score of action ``a`` (``threats``: :func:`threats`)."""
    if A.TACKLE_YELLOW <= a <= A.TACKLE_GREEN:
        return 100.0 + 10 * v.carried[a - A.TACKLE_YELLOW]
    if A.LOCK_BAG_0 <= a <= A.LOCK_BAG_2:
        return 60.0
    if a == A.LOCK_ALARM:
        return 20.0
    if A.GUARD_0_MOVE_N <= a <= A.GUARD_2_MOVE_W:
        g, d = divmod(a - A.GUARD_0_MOVE_N, 4)
        here = v.guard_room[g]
        there = C.NEIGHBOUR[here, d]
        pull = 0.0
        for r in range(C.N_ROOMS):
            pull += threats[r] * (v.dist[here, r] - v.dist[there, r])
        return 50.0 + pull - 2 * threats[here]
    if a == A.WAKE_GUARDS:
        down = 0
        for g in range(v.n_guards):
            if not v.guard_up[g]:
                down += 1
        return 40.0 if 2 * down >= v.n_guards else 5.0
    return 10.0


@nb.njit(cache=True)
def threats(v):
    """Per room, how much the guards want to be there: carriers, bags, robbers."""
    weights = 1.5 * v.bags
    for x in range(v.n_robbers):
        if v.robber_up[x]:
            weights[v.robber_room[x]] += 1 + 3 * v.carried[x]
    return weights


# --- the decision --------------------------------------------------------------------------


@nb.njit(cache=True)
def action_scores(v, legal):
    """The strategy's score of each legal action."""
    scores = np.zeros(len(legal))
    if v.phase == SETUP_CORNER:
        for k in range(len(legal)):
            scores[k] = corner_value(v, legal[k] - A.CORNER_0)
    elif v.phase == SETUP_STREET:
        for k in range(len(legal)):
            scores[k] = street_value(v, legal[k])
    elif v.phase == PLAN and v.seat == 0:
        for k in range(len(legal)):
            scores[k] = bank_plan_value(legal[k])
    elif v.phase == PLAN:
        team_plan(v)
        wanted = robber_plan(v)
        for k in range(len(legal)):
            scores[k] = 1.0 if legal[k] == wanted else 0.0
    elif v.phase == ROB and v.seat == 0:
        weights = threats(v)
        for k in range(len(legal)):
            scores[k] = bank_value(v, weights, legal[k])
    elif v.phase == ROB:
        team_plan(v)
        scores = robber_values(v, legal)
    return scores


@nb.njit(cache=True)
def scores(obs, mask, params):
    """The legal actions of one seat's observation and mask and the strategy's score of each
    (``params``: :func:`params`, empty)."""
    legal = np.flatnonzero(mask)
    return legal, action_scores(decode_view(obs), legal)


@nb.njit(cache=True)
def act(obs, mask, params, rng):
    """The heuristic's action for one seat, ties broken with ``rng`` (``params``:
    :func:`params`, empty)."""
    legal, values = scores(obs, mask, params)
    return best_with_ties_at_random(legal, values, rng)


def params(weights=None) -> np.ndarray:
    """The compiled heuristic's parameters: none (this heuristic has no weights to tune)."""
    check_weights(GAME, weights)
    return np.zeros(0)
