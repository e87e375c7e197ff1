"""How to Rob a Bank's rollout policy for ISMCTS: both sides play the heuristic's plan.

Random robbers almost never steal a bag (a theft needs a route, a pick-up card at the bag,
a route on to a room facing the vehicle and the vehicle moved there), so random rollouts
score every robber plan as lost and the search learns nothing. The rollouts here play
the heuristic's ideas (:mod:`agents.how_to_rob_a_bank.compiled`) on the full sampled state:

- **Robbers, planning.** The team plan: in seat order each robber takes the bag room its
  cards reach most cheaply (one a teammate took counts ``TAKEN_COST`` more) and plans the
  cards of its route there (a Crawl for a long trip), its pick-up card, the route on to the
  nearest room a bag can be thrown from, then the optional cards (to wait for the vehicle)
  and spare moves last.
- **Robbers, robbing.** Throw, pick up, unlock, spray whenever possible; move toward the
  planned bag (else the nearest), or when carrying toward a throw room; spend a spare extra
  action driving the vehicle toward the room of the team's next throw by the planned cards.
- **Bank.** Tackle (bag carriers first), lock floor bags, move guards toward carriers, bags
  and robbers, wake guards when half are down; plan Double move, Tackle-or-lock, Tackle,
  Move, Lock in that order; put the vehicle far from the bags.

Each decision scores the legal actions from the tables below and takes the best, except
that with probability ``EPSILON`` it plays a uniformly random legal action, so the rollouts
of one tree stay diverse. Both sides play the same policy; in self-play at 4 players the
robbers win about 48% (heuristic against heuristic: about 60%).

A full game is about 140 moves, too long to roll out 1000 times per decision within the
arena's budget, so ``SEARCH_DEFAULTS`` cuts rollouts after a few moves and scores the state
with ``evaluate``: a logistic model of the robbers' chance to win, fitted to the policy's
self-play, over (robbers in play, round, bags still needed) and the round's progress (the
share of cycles left, bags carried, unlocked floor bags, guards down, and how many robbers'
remaining planned cards still reach a throw). A state still in setup or planning is first
played on by the policy until every card is planned, so a plan is judged by where it leads.
"""

import numba as nb
import numpy as np

from heist_envs.core.game import RUNNING
from heist_envs.core.playout import random_legal_action
from heist_envs.how_to_rob_a_bank import actions as A
from heist_envs.how_to_rob_a_bank.components import (
    MAX_ROBBERS,
    N_CARD_TYPES,
    N_ROOMS,
    N_SPACES,
    NEIGHBOUR,
    NUM_BAGS,
    NUM_CYCLES,
    NUM_ROUNDS,
    SPACE_ROOM,
    SPACE_SIDE,
    STREET_CORNERS,
    TILE_BAGS,
)
from heist_envs.how_to_rob_a_bank.rules import apply, guard_up_in, is_open, legal_mask, returns
from heist_envs.how_to_rob_a_bank.state import (
    CARRIED,
    FLOOR,
    PLAN,
    ROB,
    SETUP_CORNER,
    SETUP_STREET,
)

EPSILON = 0.03  # chance of a uniformly random legal action at any rollout decision
FAR = 99  # the distance between rooms no open path joins
NOISE = 1e-3  # random tie-breaking among equally scored actions

# ---- Cards ------------------------------------------------------------------------------
R_MOVE, R_PICKUP, R_UNLOCK, R_SPRAY, R_CRAWL, R_SPRAY_OR_PICKUP, R_UNLOCK_OR_PICKUP = range(7)
PICKUP_CARDS = np.array([R_PICKUP, R_SPRAY_OR_PICKUP, R_UNLOCK_OR_PICKUP], np.int64)
IS_PICKUP_CARD = np.zeros(N_CARD_TYPES, np.bool_)
IS_PICKUP_CARD[PICKUP_CARDS] = True
# The order robbers plan their leftover cards in: optional ones first (a robber can wait in
# place for the vehicle with them), moving cards last.
WAITING_ORDER = np.array(
    [R_PICKUP, R_UNLOCK, R_SPRAY, R_SPRAY_OR_PICKUP, R_UNLOCK_OR_PICKUP, R_MOVE, R_CRAWL],
    np.int64,
)
# Bank card types, best first: the order the bank plans them in.
BANK_PLAN_ORDER = np.array([1, 4, 3, 0, 2], np.int64)  # Double move, Tackle or lock, ...

# ---- Action values ----------------------------------------------------------------------
# Base score of each ROB-phase action; the families below add their situational terms.
ACTION_VALUE = np.zeros(A.NUM_ACTIONS, np.float64)
ACTION_VALUE[A.THROW] = 100.0
ACTION_VALUE[A.PICKUP] = 90.0
ACTION_VALUE[A.UNLOCK_BAG] = 80.0
ACTION_VALUE[A.SPRAY] = 70.0
ACTION_VALUE[A.MOVE_N : A.CRAWL_8 + 1] = 50.0  # minus the distance left to the goal
ACTION_VALUE[A.END_TURN] = 10.0
ACTION_VALUE[A.TACKLE_YELLOW : A.TACKLE_GREEN + 1] = 100.0  # plus TACKLE_PER_BAG a bag
ACTION_VALUE[A.LOCK_BAG_0 : A.LOCK_BAG_2 + 1] = 60.0
ACTION_VALUE[A.GUARD_0_MOVE_N : A.GUARD_2_MOVE_W + 1] = 50.0  # plus the threats' pull
ACTION_VALUE[A.LOCK_ALARM] = 20.0
GUARDED_ROOM = 0.5  # a robber's reluctance to step into a room with a conscious guard
TACKLE_PER_BAG = 10.0
WAKE_MANY, WAKE_FEW = 40.0, 5.0  # WAKE_GUARDS with at least half the guards down, or fewer
# Bank threat weights per room: what pulls the guards.
THREAT_BAG, THREAT_ROBBER, THREAT_CARRIED = 1.5, 1.0, 3.0
THREAT_HERE = 2.0  # how much a guard prefers to stay where the threat is
TAKEN_COST = 10  # a bag room a teammate already aims at counts this much farther


# ---- Geometry ---------------------------------------------------------------------------


@nb.njit(cache=True)
def bfs(s, src, out):
    """out[r]: the fewest moves between room ``src`` and room r (FAR: none)."""
    out[:] = FAR
    out[src] = 0
    queue = np.empty(N_ROOMS, np.int64)
    queue[0] = src
    head, tail = 0, 1
    while head < tail:
        r = queue[head]
        head += 1
        for d in range(4):
            if is_open(s, r, d):
                n = NEIGHBOUR[r, d]
                if out[n] == FAR:
                    out[n] = out[r] + 1
                    queue[tail] = n
                    tail += 1


@nb.njit(cache=True)
def ring(a, b):
    return min((a - b) % N_SPACES, (b - a) % N_SPACES)


@nb.njit(cache=True)
def can_throw_from(s, space):
    """A bag can be thrown into ``space`` from the room it faces (no wall in between)."""
    return s.wall[SPACE_ROOM[space]] != SPACE_SIDE[space]


@nb.njit(cache=True)
def throw_steps(s, room):
    """The vehicle's ring steps to a space ``room`` can throw into (FAR: none)."""
    best = FAR
    for sp in range(N_SPACES):
        if SPACE_ROOM[sp] == room and can_throw_from(s, sp):
            steps = ring(s.vehicle, sp) if s.vehicle >= 0 else 0
            best = min(best, steps)
    return best


@nb.njit(cache=True)
def carried(s, robber):
    n = 0
    for b in range(NUM_BAGS):
        if s.bag_where[b] == CARRIED and s.bag_at[b] == robber:
            n += 1
    return n


@nb.njit(cache=True)
def floor_bags(s, out):
    """out[r]: the floor bags in room r; returns their total."""
    out[:] = 0
    total = 0
    for b in range(NUM_BAGS):
        if s.bag_where[b] == FLOOR:
            out[s.bag_at[b]] += 1
            total += 1
    return total


# ---- Choosing ---------------------------------------------------------------------------


@nb.njit(cache=True)
def best_of(mask, score):
    """The legal action of highest score, ties broken at random."""
    best, best_score = -1, -np.inf
    for a in range(len(mask)):
        if mask[a]:
            v = score[a] + NOISE * np.random.random()
            if v > best_score:
                best, best_score = a, v
    return best


# ---- Planning ---------------------------------------------------------------------------


@nb.njit(cache=True)
def bank_plan(s, mask):
    for k in BANK_PLAN_ORDER:
        if mask[A.PLAN_0 + k]:
            return A.PLAN_0 + k
    return random_legal_action(mask, A.NUM_ACTIONS)


# ---- Robbers: the team plan ------------------------------------------------------------


@nb.njit(cache=True)
def all_distances(s):
    """dist[a, b]: the fewest moves from room a to room b through open edges."""
    dist = np.empty((N_ROOMS, N_ROOMS), np.int64)
    for r in range(N_ROOMS):
        bfs(s, r, dist[r])
    return dist


@nb.njit(cache=True)
def nearest_throw_rooms(s, dist):
    """Per room: the closest room to throw from (the vehicle's steps break ties)."""
    steps = np.empty(N_ROOMS, np.int64)
    for t in range(N_ROOMS):
        steps[t] = throw_steps(s, t)
    out = np.full(N_ROOMS, -1, np.int64)
    for r in range(N_ROOMS):
        best = FAR * FAR
        for t in range(N_ROOMS):
            if steps[t] < FAR and dist[r, t] * FAR + steps[t] < best:
                best = dist[r, t] * FAR + steps[t]
                out[r] = t
    return out


@nb.njit(cache=True)
def round_cards(s, p, cards):
    """cards[t]: seat p's cards of type t this round, planned (stacked) or in hand."""
    base = NUM_CYCLES * (s.round_num - 1)
    for t in range(N_CARD_TYPES):
        cards[t] = s.hand[p, t]
    for i in range(base, s.n_planned[p]):
        cards[s.stack[p, i]] += 1


@nb.njit(cache=True)
def route(moves, crawl, there, after):
    """How robber cards reach a bag ``there`` moves away and a throw room ``after`` moves on:
    (feasible, cards there, cards after, crawl there, crawl after)."""
    if moves >= there + after and not (crawl and there >= 2):
        return True, there, after, False, False
    if crawl and moves >= after:
        return True, min(there, 1), after, there > 0, False
    if crawl and moves >= there:
        return True, there, min(after, 1), False, after > 0
    return False, 0, 0, False, False


@nb.njit(cache=True)
def team_targets(s, dist, throw_room, upto, cards):
    """Each robber's planned bag room up to robber ``upto`` (-1: none), as the heuristic's
    team plan: the cheapest route among the round's bag rooms, a teammate's counting 10 more.
    ``cards`` ends holding robber ``upto``'s round cards."""
    targets = np.full(MAX_ROBBERS, -1, np.int64)
    for x in range(upto + 1):
        round_cards(s, 1 + x, cards)
        if cards[R_PICKUP] + cards[R_SPRAY_OR_PICKUP] + cards[R_UNLOCK_OR_PICKUP] == 0:
            continue
        best, best_cost = -1, FAR * FAR
        for room in range(N_ROOMS):
            if TILE_BAGS[s.tile[room]] == 0 or throw_room[room] < 0:
                continue
            there = dist[s.mask_room, room]
            after = dist[room, throw_room[room]]
            ok, n_there, n_after, _, _ = route(cards[R_MOVE], cards[R_CRAWL] > 0, there, after)
            if not ok:
                continue
            cost = n_there + n_after
            for y in range(x):
                if targets[y] == room:
                    cost += TAKEN_COST
            if cost < best_cost:
                best, best_cost = room, cost
        targets[x] = best
    return targets


@nb.njit(cache=True)
def team_outlook(s):
    """What the robbers' moves are judged by: room-to-room distances, each room's nearest
    throw room, every robber's planned bag room (``team_targets``) and the floor bags."""
    dist = all_distances(s)
    throw_room = nearest_throw_rooms(s, dist)
    cards = np.zeros(N_CARD_TYPES, np.int64)
    targets = team_targets(s, dist, throw_room, s.n_robbers - 1, cards)
    bags = np.zeros(N_ROOMS, np.int64)
    floor_bags(s, bags)
    return dist, throw_room, targets, bags


@nb.njit(cache=True)
def robber_plan(s, mask):
    """The next card of the robber's route plan (see the module docstring)."""
    p = s.actor
    x = p - 1
    done = s.n_planned[p] - NUM_CYCLES * (s.round_num - 1)
    dist = all_distances(s)
    throw_room = nearest_throw_rooms(s, dist)
    cards = np.zeros(N_CARD_TYPES, np.int64)
    room = team_targets(s, dist, throw_room, x, cards)[x]
    order = np.full(2 * NUM_CYCLES + N_CARD_TYPES, -1, np.int64)
    n = 0
    if room >= 0:
        there = dist[s.mask_room, room]
        after = dist[room, throw_room[room]]
        _, n_there, n_after, crawl_there, crawl_after = route(
            cards[R_MOVE], cards[R_CRAWL] > 0, there, after
        )
        for _ in range(n_there):
            order[n] = R_CRAWL if crawl_there else R_MOVE
            cards[order[n]] -= 1
            n += 1
        for t in PICKUP_CARDS:
            if cards[t] > 0:
                order[n] = t
                cards[t] -= 1
                n += 1
                break
        for _ in range(n_after):
            order[n] = R_CRAWL if crawl_after else R_MOVE
            cards[order[n]] -= 1
            n += 1
    for t in WAITING_ORDER:
        for _ in range(cards[t]):
            order[n] = t
            n += 1
    want = order[done] if done < n else -1
    if want >= 0 and mask[A.PLAN_0 + want]:
        return A.PLAN_0 + want
    return random_legal_action(mask, A.NUM_ACTIONS)


# ---- Robbers: robbing -------------------------------------------------------------------


@nb.njit(cache=True)
def step_toward(s, dist, room, goal):
    """The next room on a shortest open path from ``room`` to ``goal``."""
    if room == goal:
        return room
    best, best_d = room, FAR + 1
    for d in range(4):
        if is_open(s, room, d):
            n = NEIGHBOUR[room, d]
            if dist[n, goal] < best_d:
                best, best_d = n, dist[n, goal]
    return best


@nb.njit(cache=True)
def bag_target(s, dist, targets, bags, x, room):
    """The floor bag room robber x goes for: its planned one, else the nearest (-1: none)."""
    if targets[x] >= 0 and bags[targets[x]] > 0:
        return targets[x]
    best, best_cost = -1, FAR * FAR
    for r in range(N_ROOMS):
        if bags[r] > 0:
            cost = (dist[room, r] * 2 + guard_up_in(s, r)) * N_ROOMS + r
            if cost < best_cost:
                best, best_cost = r, cost
    return best


@nb.njit(cache=True)
def throw_eta(s, dist, throw_room, targets, bags, x):
    """(cards until robber x can throw, the room it throws from) by its planned cards."""
    p = 1 + x
    room = s.robber_room[x]
    carrying = carried(s, x) > 0
    if carrying and throw_steps(s, room) < FAR:
        return 0, room
    first = s.n_revealed[p]
    if s.turn_seat == p and not s.card_started:
        first -= 1
    end = NUM_CYCLES * s.round_num
    for i in range(first, end):
        card = s.stack[p, i]
        goal = throw_room[room] if carrying else bag_target(s, dist, targets, bags, x, room)
        if goal < 0:
            break
        if card == R_MOVE:
            room = step_toward(s, dist, room, goal)
        elif card == R_CRAWL:
            room = goal
        elif not carrying and room == goal and IS_PICKUP_CARD[card]:
            carrying = True
        if carrying and throw_steps(s, room) < FAR:
            return i - first + 1, room
    return FAR, -1


@nb.njit(cache=True)
def robber_rob(s, mask):
    me = s.actor - 1
    room = s.robber_room[me]
    for a in (A.THROW, A.PICKUP, A.UNLOCK_BAG, A.SPRAY):
        if mask[a]:
            return a
    dist, throw_room, targets, bags = team_outlook(s)
    first, first_eta, first_room = -1, FAR, -1
    for x in range(s.n_robbers):
        if s.robber_awake[x]:
            eta, where = throw_eta(s, dist, throw_room, targets, bags, x)
            if eta < first_eta:
                first, first_eta, first_room = x, eta, where
    moving = False
    for a in range(A.MOVE_N, A.UNLOCK_ALARM + 1):
        moving = moving or mask[a] > 0
    if moving:
        if carried(s, me) > 0:
            goal = first_room if me == first else throw_room[room]
        else:
            goal = bag_target(s, dist, targets, bags, me, room)
        if goal < 0:
            goal = room
        score = ACTION_VALUE.copy()
        for d in range(4):
            if mask[A.MOVE_N + d]:
                n = NEIGHBOUR[room, d]
                score[A.MOVE_N + d] -= dist[n, goal] + GUARDED_ROOM * guard_up_in(s, n)
        for r in range(N_ROOMS):
            if mask[A.CRAWL_0 + r]:
                score[A.CRAWL_0 + r] -= dist[r, goal] + GUARDED_ROOM * guard_up_in(s, r)
        return best_of(mask, score)
    if mask[A.VEHICLE_CW] and first_room >= 0:
        want, want_steps = -1, FAR
        for sp in range(N_SPACES):
            steps = ring(s.vehicle, sp)
            if SPACE_ROOM[sp] == first_room and can_throw_from(s, sp) and steps < want_steps:
                want, want_steps = sp, steps
        if want_steps > 0:
            cw = (want - s.vehicle) % N_SPACES
            return A.VEHICLE_CW if cw <= N_SPACES - cw else A.VEHICLE_CCW
    if mask[A.END_TURN]:
        return A.END_TURN
    return random_legal_action(mask, A.NUM_ACTIONS)


@nb.njit(cache=True)
def bank_rob(s, mask):
    score = ACTION_VALUE.copy()
    for x in range(s.n_robbers):
        score[A.TACKLE_YELLOW + x] += TACKLE_PER_BAG * carried(s, x)
    if mask[A.WAKE_GUARDS]:
        down = 0
        for g in range(s.n_guards):
            down += 1 - s.guard_awake[g]
        score[A.WAKE_GUARDS] = WAKE_MANY if 2 * down >= s.n_guards else WAKE_FEW
    moving = False
    for a in range(A.GUARD_0_MOVE_N, A.GUARD_2_MOVE_W + 1):
        moving = moving or mask[a] > 0
    if moving:
        threat = np.zeros(N_ROOMS, np.float64)
        bags = np.zeros(N_ROOMS, np.int64)
        floor_bags(s, bags)
        for r in range(N_ROOMS):
            threat[r] = THREAT_BAG * bags[r]
        for x in range(s.n_robbers):
            if s.robber_awake[x]:
                threat[s.robber_room[x]] += THREAT_ROBBER + THREAT_CARRIED * carried(s, x)
        dist = np.empty(N_ROOMS, np.int64)
        for r in range(N_ROOMS):
            if threat[r] > 0:
                bfs(s, r, dist)
                for a in range(A.GUARD_0_MOVE_N, A.GUARD_2_MOVE_W + 1):
                    if mask[a]:
                        g, d = divmod(a - A.GUARD_0_MOVE_N, 4)
                        here = s.guard_room[g]
                        score[a] += threat[r] * (dist[here] - dist[NEIGHBOUR[here, d]])
        for a in range(A.GUARD_0_MOVE_N, A.GUARD_2_MOVE_W + 1):
            if mask[a]:
                score[a] -= THREAT_HERE * threat[s.guard_room[(a - A.GUARD_0_MOVE_N) // 4]]
    return best_of(mask, score)


# ---- Setup ------------------------------------------------------------------------------


@nb.njit(cache=True)
def steps_to_bags(s, space):
    """Ring steps from ``space`` to the nearest space a bag room can throw into."""
    bags = np.zeros(N_ROOMS, np.int64)
    floor_bags(s, bags)
    best = FAR
    for sp in range(N_SPACES):
        if can_throw_from(s, sp) and bags[SPACE_ROOM[sp]] > 0:
            best = min(best, ring(space, sp))
    return best


@nb.njit(cache=True)
def setup_action(s, mask):
    """The bank's corner far from the bags; the robbers' street near them."""
    if s.phase == SETUP_CORNER:
        best, best_v = -1, -1
        for c in range(4):
            v = steps_to_bags(s, STREET_CORNERS[c, 0]) + steps_to_bags(s, STREET_CORNERS[c, 1])
            if v > best_v:
                best, best_v = A.CORNER_0 + c, v
        return best
    ccw = steps_to_bags(s, s.veh_cand[0])
    cw = steps_to_bags(s, s.veh_cand[1])
    return A.VEHICLE_CCW if ccw <= cw else A.VEHICLE_CW


# ---- Value -----------------------------------------------------------------------------

# Features of a running state for ``evaluate``: a one-hot of (robbers in play, round, bags
# still needed), then the current round's progress.
N_NEED = 5  # bags the robbers may still need: 1..target (5 at most)
F_PROGRESS = 2 * NUM_ROUNDS * N_NEED  # first progress feature
# Progress features: the share of the round's cycles left, the bags carried by conscious
# robbers (and times the share left), the unlocked floor bags times the share left, the
# guards down, and the robbers whose planned cards still reach a throw this round.
N_FEATURES = F_PROGRESS + 6


@nb.njit(cache=True)
def planned_throws(s):
    """How many conscious robbers' remaining cards still reach a throw this round."""
    dist, throw_room, targets, bags = team_outlook(s)
    n = 0
    for x in range(s.n_robbers):
        if s.robber_awake[x]:
            eta, _ = throw_eta(s, dist, throw_room, targets, bags, x)
            n += eta < FAR
    return n


@nb.njit(cache=True)
def features(s, out):
    """Write ``evaluate``'s features of ``s``, a state in the ROB phase, into ``out``."""
    out[:] = 0.0
    need = min(max(s.target - s.stolen, 1), N_NEED)
    out[((s.n_robbers - 2) * NUM_ROUNDS + s.round_num - 1) * N_NEED + need - 1] = 1.0
    left = (NUM_CYCLES - s.cycle) / NUM_CYCLES
    load = 0
    floor = 0
    for b in range(NUM_BAGS):
        if s.bag_where[b] == CARRIED and s.robber_awake[s.bag_at[b]]:
            load += 1
        elif s.bag_where[b] == FLOOR and not s.bag_locked[b]:
            floor += 1
    down = 0
    for g in range(s.n_guards):
        down += 1 - s.guard_awake[g]
    out[F_PROGRESS] = left
    out[F_PROGRESS + 1] = load
    out[F_PROGRESS + 2] = load * left
    out[F_PROGRESS + 3] = floor * left
    out[F_PROGRESS + 4] = down
    out[F_PROGRESS + 5] = planned_throws(s)


@nb.njit(cache=True)
def evaluate(s, out):
    """Each seat's expected return, 2 P(win) - 1, with P from a logistic model over
    ``features`` fitted to this policy's self-play (``VALUE_WEIGHTS``).

    A state before the round's ROB phase (setup, planning) is first played on with the
    policy until its cards are all planned, so that plans are judged by what they reach.
    This plays ``s`` forward in place: the search passes its scratch world, which it resets
    before the next simulation."""
    mask = np.empty(A.NUM_ACTIONS, np.int8)
    while s.status == RUNNING and s.phase != ROB:
        legal_mask(s, mask)
        apply(s, rollout_action(s, mask))
    if s.status != RUNNING:
        returns(s, out)
        return
    f = np.empty(N_FEATURES, np.float64)
    features(s, f)
    z = 0.0
    for i in range(N_FEATURES):
        z += VALUE_WEIGHTS[i] * f[i]
    robbers = 2.0 / (1.0 + np.exp(-z)) - 1.0  # the robbers' expected return
    out[:] = robbers
    out[0] = -robbers


# ---- The hooks --------------------------------------------------------------------------


@nb.njit(cache=True)
def rollout_action(s, mask):
    """A legal action for ``s.actor``: the policy's, or a random one with chance EPSILON."""
    if np.random.random() < EPSILON:
        return random_legal_action(mask, A.NUM_ACTIONS)
    if s.phase == ROB:
        return bank_rob(s, mask) if s.actor == 0 else robber_rob(s, mask)
    if s.phase == PLAN:
        return bank_plan(s, mask) if s.actor == 0 else robber_plan(s, mask)
    return setup_action(s, mask)


# Logistic value model (robbers' log-odds of winning), fitted to 6000 self-play games of this
# policy (half at 4 players, half at 3) by ``python -m agents.how_to_rob_a_bank.fit_value``.
# [robbers in play - 2, round - 1, bags needed - 1]:
VALUE_BY_NEED = np.array(
    [
        [
            [0.00, 1.33, -1.05, -3.46, 0.00],
            [0.87, -1.58, -3.74, -5.71, 0.00],
            [-1.69, -4.43, -11.80, -9.77, 0.00],
        ],
        [
            [0.00, 1.36, 0.51, -1.44, -3.64],
            [1.66, -0.64, -2.87, -4.67, -6.18],
            [-1.31, -3.80, -6.37, -11.38, -8.39],
        ],
    ],
    np.float64,
)
# Per progress feature (see ``features``):
PROGRESS_WEIGHTS = np.array([-0.00, 0.13, 1.18, 0.43, -0.01, 0.87], np.float64)
VALUE_WEIGHTS = np.concatenate((VALUE_BY_NEED.ravel(), PROGRESS_WEIGHTS))

# The search plans the robbers' card stacks worse than the heuristic's team plan (each robber
# searches alone, and judges a plan only by a few moves and the value model), but plays the
# Rob phase better. So a search given a trained policy (``prior``) lets it take the setup
# and planning decisions alone (``prior_alone``) and searches the rest without it
# (``prior_c`` 0: the policy's probabilities made the Rob phase worse); without a prior
# these two settings do nothing.
SEARCH_DEFAULTS = {"uct_c": 1.0, "rollout_depth": 6, "prior_c": 0.0, "prior_alone": True}
PRIOR_ALONE_PHASES = (SETUP_CORNER, SETUP_STREET, PLAN)
