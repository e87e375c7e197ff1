"""A rule-based How to Rob a Bank player, for the bank or for a robber."""

from functools import cached_property

import numpy as np

import heist_envs
from heist_envs.how_to_rob_a_bank import actions as A
from heist_envs.how_to_rob_a_bank.components import (
    MAX_GUARDS,
    MAX_ROBBERS,
    MAX_SEATS,
    N_CARD_TYPES,
    N_ROOMS,
    N_SPACES,
    N_TILES,
    NEIGHBOUR,
    NUM_CYCLES,
    SPACE_ROOM,
    SPACE_SIDE,
    STREET_CORNERS,
    TILE_BAGS,
    TILE_MASK,
)
from heist_envs.how_to_rob_a_bank.state import PLAN, ROB, SETUP_CORNER, SETUP_STREET, STACK_SIZE

LAYOUT = heist_envs.get_game("how_to_rob_a_bank").layout
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


def waiting_order(card):
    """Cards left after the route and pick-up: optional ones first (the robber can wait in
    place for the vehicle with them), moving ones last."""
    return (card in MOVING_CARDS, card)


class HeuristicAgent:
    """Plays either side: the robbers run one shared plan, the bank chases the loot.

    Robbers: at each round's start every robber computes the same team plan from public
    facts and the robbers' shared hands. Each robber takes the bag room it reaches soonest
    (not one a teammate took), with a Crawl for long trips or Move cards along the shortest
    open path, then its pick-up card and the moves to the nearest room a bag can be thrown
    from; optional cards follow (so it can wait for the getaway vehicle) and spare Move
    cards come last. While robbing it throws, picks up, unlocks and sprays whenever it can,
    moves toward its bag (or, carrying one, toward its throw room), and spends spare extra
    actions driving the vehicle to the robber whose throw comes first by the planned cards.
    Bank: guards tackle robbers (bag carriers first), lock floor bags, and move toward
    carriers, bags and robbers; the vehicle goes to the street corner farthest from the bags.
    """

    def __init__(self, seed=None):
        self.rng = np.random.default_rng(seed)

    def act(self, observation, action_mask) -> int:
        legal, scores = action_scores(observation, action_mask)
        scores = scores + 1e-6 * self.rng.random(len(legal))
        return int(legal[np.argmax(scores)])


def action_scores(observation, action_mask):
    """The legal actions and the strategy's score of each (the agent plays the best, ties
    broken at random); imitation learning labels decisions with them."""
    legal = np.flatnonzero(action_mask)
    view = _View(np.asarray(observation))
    if view.phase == SETUP_CORNER:
        scores = [view.corner_value(a - A.CORNER_0) for a in legal]
    elif view.phase == SETUP_STREET:
        scores = [view.street_value(a) for a in legal]
    elif view.phase == PLAN and view.seat == 0:
        scores = [-BANK_PLAN_ORDER.index(a) for a in legal]
    elif view.phase == PLAN:
        wanted = view.robber_plan()
        scores = [float(a == wanted) for a in legal]
    elif view.phase == ROB and view.seat == 0:
        scores = [view.bank_value(a) for a in legal]
    elif view.phase == ROB:
        scores = view.robber_values(legal)
    else:
        scores = [0.0] * len(legal)
    return legal, np.asarray(scores, dtype=float)


class _View:
    """The observation decoded (seats are absolute: 0 bank, 1 + x robber x)."""

    def __init__(self, obs):
        self.obs = obs
        self.phase = int(np.argmax(obs[LAYOUT["phase"]]))
        self.seat = int(np.argmax(obs[LAYOUT["observer"]]))
        self.round = int(np.argmax(obs[LAYOUT["round"]]))
        self.wall = obs[LAYOUT["room_wall"]].reshape(N_ROOMS, 5).argmax(axis=1) - 1
        tiles = obs[LAYOUT["room_tile"]].reshape(N_ROOMS, N_TILES).argmax(axis=1)
        self.bag_rooms = np.flatnonzero(TILE_BAGS[tiles])  # where this round's bags started
        self.mask_room = int(np.flatnonzero(TILE_MASK[tiles])[0])
        self.guards_up = obs[LAYOUT["room_guards_conscious"]].astype(int)
        unlocked, locked = obs[LAYOUT["room_bags_unlocked"]], obs[LAYOUT["room_bags_locked"]]
        self.bags = (unlocked + locked).astype(int)
        self.n_robbers = int(obs[LAYOUT["robber_in_play"]].sum())
        rooms = obs[LAYOUT["robber_room"]].reshape(MAX_ROBBERS, N_ROOMS)
        self.robber_room = rooms.argmax(axis=1)[: self.n_robbers]
        self.robber_up = obs[LAYOUT["robber_conscious"]][: self.n_robbers] > 0
        self.carried = obs[LAYOUT["robber_carried"]][: self.n_robbers].astype(int)
        n_guards = int(obs[LAYOUT["guard_in_play"]].sum())
        self.guard_room = obs[LAYOUT["guard_room"]].reshape(MAX_GUARDS, N_ROOMS).argmax(axis=1)
        self.guard_room = self.guard_room[:n_guards]
        self.guard_up = obs[LAYOUT["guard_conscious"]][:n_guards] > 0
        vehicle = obs[LAYOUT["vehicle"]]
        self.vehicle = int(np.argmax(vehicle)) if vehicle.any() else -1

    # --- geometry --------------------------------------------------------------------------

    def open_edge(self, room, d):
        nb = NEIGHBOUR[room, d]
        return nb >= 0 and self.wall[room] != d and self.wall[nb] != (d + 2) % 4

    @cached_property
    def dist(self):
        """dist[a, b]: the fewest moves from room a to room b through open edges."""
        dist = np.full((N_ROOMS, N_ROOMS), FAR, dtype=int)
        np.fill_diagonal(dist, 0)
        for room in range(N_ROOMS):
            for d in range(4):
                if self.open_edge(room, d):
                    dist[room, NEIGHBOUR[room, d]] = 1
        for via in range(N_ROOMS):  # Floyd-Warshall
            dist = np.minimum(dist, dist[:, via : via + 1] + dist[via : via + 1, :])
        return dist

    @cached_property
    def throw_spaces(self):
        """The street spaces a bag can be thrown into from the room they face."""
        return [s for s in range(N_SPACES) if self.wall[SPACE_ROOM[s]] != SPACE_SIDE[s]]

    @cached_property
    def throw_rooms(self):
        return sorted({int(SPACE_ROOM[s]) for s in self.throw_spaces})

    @cached_property
    def nearest_throw_room(self):
        """Per room: the closest room to throw from (the vehicle's steps break ties)."""
        steps = {t: self.vehicle_steps(t) for t in self.throw_rooms}
        return [
            min(steps, key=lambda t, r=room: (self.dist[r, t], steps[t])) for room in range(N_ROOMS)
        ]

    @staticmethod
    def ring(a, b):
        return min((a - b) % N_SPACES, (b - a) % N_SPACES)

    def vehicle_steps(self, room):
        """Ring steps the vehicle needs to face ``room`` (0 while it is unplaced)."""
        if self.vehicle < 0:
            return 0
        return min(self.ring(self.vehicle, s) for s in self.throw_spaces if SPACE_ROOM[s] == room)

    def step_toward(self, room, goal):
        """The next room on a shortest open path from ``room`` to ``goal``."""
        if room == goal:
            return room
        options = [NEIGHBOUR[room, d] for d in range(4) if self.open_edge(room, d)]
        return int(min(options, key=lambda nb: (self.dist[nb, goal], nb)))

    # --- setup -----------------------------------------------------------------------------

    def steps_to_bags(self, space):
        """Ring steps from ``space`` to the nearest space a bag room can throw into."""
        near = [s for s in self.throw_spaces if SPACE_ROOM[s] in self.bag_rooms]
        return min(self.ring(space, s) for s in near or self.throw_spaces)

    def corner_value(self, k):
        """The bank puts the vehicle far from the bags."""
        return float(sum(self.steps_to_bags(s) for s in STREET_CORNERS[k]))

    def street_value(self, action):
        """The robbers put the vehicle near the bags."""
        a, b = np.flatnonzero(self.obs[LAYOUT["vehicle_candidates"]])
        ccw, cw = (a, b) if (b - a) % N_SPACES == 1 else (b, a)
        return -float(self.steps_to_bags(ccw if action == A.VEHICLE_CCW else cw))

    # --- robbers: planning -----------------------------------------------------------------

    @cached_property
    def round_stacks(self):
        """Per robber: the card types planned this round, in order."""
        stacks = self.obs[LAYOUT["stacks"]].reshape(MAX_SEATS, STACK_SIZE, N_CARD_TYPES + 1)
        first = self.round * NUM_CYCLES
        types = stacks[1 : 1 + self.n_robbers, first : first + NUM_CYCLES].argmax(axis=2) - 1
        return [[int(t) for t in row if t >= 0] for row in types]

    def route(self, hand, target):
        """Cards from the start room to ``target`` and from there to a throw room, or None."""
        there = self.dist[self.mask_room, target]
        after = self.dist[target, self.nearest_throw_room[target]]
        moves, crawl = hand[R_MOVE], hand[R_CRAWL] > 0
        if moves >= there + after and not (crawl and there >= 2):
            return [R_MOVE] * there, [R_MOVE] * after
        if crawl and moves >= after:
            return [R_CRAWL] * int(there > 0), [R_MOVE] * after
        if crawl and moves >= there:
            return [R_MOVE] * there, [R_CRAWL] * int(after > 0)
        return None

    @cached_property
    def team_plan(self):
        """Per robber: (its target bag room or -1, its five cards in order).

        Every robber computes the same plan at every decision of the round. While planning,
        the hands are rebuilt from the stacks; while robbing only the planned cards are left,
        which keeps each robber's cheapest target (its route is among them) the same.
        """
        hands = self.obs[LAYOUT["robber_hands"]].reshape(MAX_ROBBERS, N_CARD_TYPES).astype(int)
        taken = set()
        plans = []
        for x in range(self.n_robbers):
            cards = sorted(self.round_stacks[x] + [t for t in range(8) for _ in range(hands[x, t])])
            pickups = [t for t in PICKUP_CARDS for _ in range(cards.count(t))]
            hand = np.bincount(cards, minlength=N_CARD_TYPES)
            best = None
            for room in self.bag_rooms:
                route = self.route(hand, room) if pickups else None
                if route is None:
                    continue
                cost = len(route[0]) + len(route[1]) + 10 * (room in taken)
                if best is None or cost < best[0]:
                    best = (cost, int(room), route)
            if best is None:
                plans.append((-1, sorted(cards, key=waiting_order)))
                continue
            _, room, (there, after) = best
            taken.add(room)
            order = there + pickups[:1] + after
            rest = list(cards)
            for t in order:
                rest.remove(t)
            rest.sort(key=waiting_order)
            plans.append((room, order + rest))
        return plans

    def robber_plan(self):
        me = self.seat - 1
        return self.team_plan[me][1][len(self.round_stacks[me])]

    # --- robbers: robbing ------------------------------------------------------------------

    def remaining_cards(self, x):
        """Robber x's cards still to play this round, in order (its current card first)."""
        played = self.obs[LAYOUT["stacks_played"]].reshape(MAX_SEATS, STACK_SIZE)
        first = self.round * NUM_CYCLES
        done = int(played[1 + x, first : first + NUM_CYCLES].sum())
        cards = self.round_stacks[x][done:]
        turn = self.obs[LAYOUT["turn_seat"]]
        if turn.any() and turn.argmax() == 1 + x and not self.obs[LAYOUT["card_started"]][0]:
            cards = [int(np.argmax(self.obs[LAYOUT["card"]]))] + cards
        return cards

    def bag_target(self, x, room):
        """The floor bag robber x goes for: its planned one, else the nearest (-1: none)."""
        target = self.team_plan[x][0]
        if target >= 0 and self.bags[target]:
            return target
        floor = np.flatnonzero(self.bags)
        if len(floor) == 0:
            return -1
        return int(min(floor, key=lambda r: (self.dist[room, r], self.guards_up[r], r)))

    def throw_eta(self, x):
        """(cards until robber x can throw, the room it throws from), from its stack."""
        room, carrying = int(self.robber_room[x]), self.carried[x] > 0
        if carrying and room in self.throw_rooms:
            return 0, room
        for i, card in enumerate(self.remaining_cards(x)):
            goal = self.nearest_throw_room[room] if carrying else self.bag_target(x, room)
            if goal < 0:
                break
            if card == R_MOVE:
                room = self.step_toward(room, goal)
            elif card == R_CRAWL:
                room = goal
            elif card in PICKUP_CARDS and not carrying and room == goal:
                carrying = True
            if carrying and room in self.throw_rooms:
                return i + 1, room
        return FAR, -1

    @cached_property
    def first_throw(self):
        """(robber, room) of the team's next throw by the planned cards: the vehicle's aim."""
        etas = [(*self.throw_eta(x), x) for x in range(self.n_robbers) if self.robber_up[x]]
        eta, room, x = min(etas, default=(FAR, -1, -1), key=lambda e: (e[0], e[2]))
        return (x, room) if eta < FAR else (-1, -1)

    def goal_room(self, x):
        """Where robber x heads: a throw room when carrying, else a floor bag."""
        room = int(self.robber_room[x])
        first, throw_room = self.first_throw
        if self.carried[x]:
            return throw_room if x == first else self.nearest_throw_room[room]
        target = self.bag_target(x, room)
        return room if target < 0 else target

    def vehicle_gain(self, action):
        """Ring steps a vehicle move gains toward the next throw (negative: away)."""
        _, room = self.first_throw
        if room < 0:
            return 0
        spaces = [s for s in self.throw_spaces if SPACE_ROOM[s] == room]
        want = min(spaces, key=lambda s: (self.ring(self.vehicle, s), s))
        moved = (self.vehicle + (1 if action == A.VEHICLE_CW else -1)) % N_SPACES
        return self.ring(self.vehicle, want) - self.ring(moved, want)

    def robber_values(self, legal):
        me = self.seat - 1
        room = self.robber_room[me]
        goal = self.goal_room(me)
        card_first = any(a < A.VEHICLE_CCW for a in legal)  # it may set up a throw
        scores = []
        for a in legal:
            if a in ROBBER_ACTION_VALUE:
                value = ROBBER_ACTION_VALUE[a]
            elif A.MOVE_N <= a <= A.CRAWL_8:
                nb = NEIGHBOUR[room, a - A.MOVE_N] if a <= A.MOVE_W else a - A.CRAWL_0
                value = 50.0 - self.dist[nb, goal] - 0.5 * self.guards_up[nb]
            elif card_first:
                value = -1.0
            elif a in (A.VEHICLE_CCW, A.VEHICLE_CW):
                value = 30.0 * self.vehicle_gain(a)
            else:
                value = 10.0 if a == A.END_TURN else 0.0
            scores.append(value)
        return scores

    # --- bank ------------------------------------------------------------------------------

    def bank_value(self, a):
        if A.TACKLE_YELLOW <= a <= A.TACKLE_GREEN:
            return 100.0 + 10 * self.carried[a - A.TACKLE_YELLOW]
        if A.LOCK_BAG_0 <= a <= A.LOCK_BAG_2:
            return 60.0
        if a == A.LOCK_ALARM:
            return 20.0
        if A.GUARD_0_MOVE_N <= a <= A.GUARD_2_MOVE_W:
            g, d = divmod(a - A.GUARD_0_MOVE_N, 4)
            here = self.guard_room[g]
            there = NEIGHBOUR[here, d]
            weights = self.threats
            pull = weights @ (self.dist[here] - self.dist[there])
            return 50.0 + pull - 2 * weights[here]
        if a == A.WAKE_GUARDS:
            return 40.0 if 2 * (~self.guard_up).sum() >= len(self.guard_up) else 5.0
        return 10.0

    @cached_property
    def threats(self):
        """Per room, how much the guards want to be there: carriers, bags, robbers."""
        weights = 1.5 * self.bags
        for x in range(self.n_robbers):
            if self.robber_up[x]:
                weights[self.robber_room[x]] += 1 + 3 * self.carried[x]
        return weights
