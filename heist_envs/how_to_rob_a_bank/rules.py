"""How to Rob a Bank's rules: the only place they live (docs/games/how_to_rob_a_bank.md).

Plain functions over one state record, compiled by numba; with ``NUMBA_DISABLE_JIT=1`` the
same code runs as Python. Seat 0 is the bank, seat 1 + i is robber i (yellow, red, green).
"""

import numba as nb
import numpy as np

from heist_envs.core.game import RUNNING, TERMINATED
from heist_envs.core.rng import rand_below, seed_rng, shuffle

from .actions import (
    CORNER_0,
    CORNER_8,
    CRAWL_0,
    END_TURN,
    GUARD_0_MOVE_N,
    LOCK_ALARM,
    LOCK_BAG_0,
    MOVE_N,
    NUM_ACTIONS,
    PASS_TO_YELLOW,
    PICKUP,
    PLAN_0,
    SPRAY,
    TACKLE_YELLOW,
    THROW,
    TRIGGER_ALARM,
    UNLOCK_ALARM,
    UNLOCK_BAG,
    VEHICLE_CCW,
    VEHICLE_CW,
    WAKE_GUARDS,
)
from .components import (
    BANK,
    CARD_SLOTS,
    DECK_COUNTS,
    GMOVE,
    HAND_SIZE,
    MAX_GUARDS,
    MAX_ROBBERS,
    MAX_SEATS,
    MAX_SLOTS,
    N_CARD_TYPES,
    N_ROOMS,
    N_SPACES,
    N_TILES,
    NEIGHBOUR,
    NUM_BAGS,
    NUM_CYCLES,
    NUM_ROUNDS,
    ROBBERS,
    SLOT_IS_OR,
    SLOT_MANDATORY,
    SLOT_VERBS,
    SPACE_ROOM,
    SPACE_SIDE,
    STREET_CORNERS,
    TARGET_2_3,
    TARGET_4,
    TILE_ALARM,
    TILE_BADGES,
    TILE_BAGS,
    TILE_IN_PLAY,
    TILE_MASK,
    TILE_WALL,
    V_CRAWL,
    V_GMOVE,
    V_LOCK,
    V_MOVE,
    V_PICKUP,
    V_SPRAY,
    V_TACKLE,
    V_UNLOCK,
    VEHICLE_CANDIDATES,
)
from .state import (
    BANK_WINS,
    CARRIED,
    FLOOR,
    GAME_OVER,
    NO_WINNER,
    ON_LOCKED,
    ON_UNLOCKED,
    PLAN,
    RINGING,
    ROB,
    ROBBERS_WIN,
    SETUP_CORNER,
    SETUP_STREET,
    STOLEN,
    SUPPLY,
)

ALL_ROOMS = (1 << N_ROOMS) - 1

# ---- Setup and rounds (spec 4.1, 4.2) --------------------------------------------------


@nb.njit(cache=True)
def tile_set(s):
    """The TILE_IN_PLAY row of the player count: 0 at 2-3 players, 1 at 4."""
    return 1 if s.num_players == 4 else 0


@nb.njit(cache=True)
def init(s, seed):
    """Set the player-count values, give every seat its deck, and start round 1."""
    seed_rng(s, seed)
    four = s.num_players == 4
    s.n_robbers = 3 if four else 2
    s.n_seats = s.n_robbers + 1
    s.target = TARGET_4 if four else TARGET_2_3
    guards = 0
    bags = 0
    for t in range(N_TILES):
        if TILE_IN_PLAY[tile_set(s), t]:
            guards += TILE_BADGES[t]
            bags += TILE_BAGS[t]
    s.n_guards = guards
    s.bags_per_round = bags
    for p in range(MAX_SEATS):
        for t in range(N_CARD_TYPES):
            s.aside[p, t] = DECK_COUNTS[p, t] if p < s.n_seats else 0
    s.hand[:] = 0
    s.played[:] = 0
    s.stack[:] = -1
    s.n_planned[:] = 0
    s.n_revealed[:] = 0
    s.bag_where[:] = SUPPLY
    s.bag_at[:] = -1
    s.bag_locked[:] = 0
    s.stolen = 0
    s.winner = NO_WINNER
    s.status = RUNNING
    s.round_num = 1
    start_round(s)


@nb.njit(cache=True)
def start_round(s):
    """Phase 1 Study: lay the tiles, fix enclosures, place tokens and pieces, then the vehicle."""
    r = s.round_num - 1
    if r < s.n_fixed_layouts:
        for room in range(N_ROOMS):
            s.tile[room] = s.fixed_tiles[r, room]
    else:
        k = 0
        for t in range(N_TILES):
            if TILE_IN_PLAY[tile_set(s), t]:
                s.tile[k] = t
                k += 1
        shuffle(s, s.tile, N_ROOMS)
    for room in range(N_ROOMS):
        s.rotation[room] = 0
        s.wall[room] = TILE_WALL[s.tile[room]]
    fix_enclosure(s)
    place_pieces(s)
    s.cycle = 0
    s.turn_seat = 0
    clear_turn(s)
    s.vehicle = -1
    s.veh_cand[:] = -1
    m = s.mask_room
    if VEHICLE_CANDIDATES[m, 0] < 0:  # the centre: the bank picks a street corner
        s.phase = SETUP_CORNER
        s.actor = 0
    elif VEHICLE_CANDIDATES[m, 1] >= 0:  # two candidates: robber_yellow picks
        s.veh_cand[0] = VEHICLE_CANDIDATES[m, 0]
        s.veh_cand[1] = VEHICLE_CANDIDATES[m, 1]
        s.phase = SETUP_STREET
        s.actor = 1
    else:
        s.vehicle = VEHICLE_CANDIDATES[m, 0]
        start_planning(s)


@nb.njit(cache=True)
def place_pieces(s):
    """Bags from SUPPLY on bag symbols, guards on badges (D23), alarm, robbers on the mask."""
    g = 0
    for room in range(N_ROOMS):
        t = s.tile[room]
        for _ in range(TILE_BAGS[t]):
            for b in range(NUM_BAGS):
                if s.bag_where[b] == SUPPLY:
                    s.bag_where[b] = FLOOR
                    s.bag_at[b] = room
                    s.bag_locked[b] = 0
                    break
        for _ in range(TILE_BADGES[t]):
            s.guard_room[g] = room
            s.guard_awake[g] = 1
            g += 1
        if TILE_ALARM[t]:
            s.alarm_room = room
        if TILE_MASK[t]:
            s.mask_room = room
    for h in range(g, MAX_GUARDS):
        s.guard_room[h] = -1
        s.guard_awake[h] = 0
    for h in range(MAX_GUARDS):
        s.start_room[h] = s.guard_room[h]
    s.alarm = ON_UNLOCKED
    for i in range(MAX_ROBBERS):
        in_play = i < s.n_robbers
        s.robber_room[i] = s.mask_room if in_play else -1
        s.robber_awake[i] = 1 if in_play else 0


@nb.njit(cache=True)
def is_open(s, r, d):
    """Movement from room r in direction d: on the board and no wall on either side (3.2)."""
    n = NEIGHBOUR[r, d]
    return n >= 0 and s.wall[r] != d and s.wall[n] != (d + 2) % 4


@nb.njit(cache=True)
def is_connected(s):
    """Whether every room can be reached from room 0 through open edges."""
    seen = 1
    frontier = 1
    while frontier:
        grown = 0
        for r in range(N_ROOMS):
            if (frontier >> r) & 1:
                for d in range(4):
                    if is_open(s, r, d):
                        bit = 1 << np.int64(NEIGHBOUR[r, d])
                        if not seen & bit:
                            seen |= bit
                            grown |= bit
        frontier = grown
    return seen == ALL_ROOMS


@nb.njit(cache=True)
def rotate_walled(s, code):
    """Give the walled tiles, in board order, the quarter-turns of base-4 digits of code."""
    for room in range(N_ROOMS):
        side = TILE_WALL[s.tile[room]]
        if side >= 0:
            q = code % 4
            code //= 4
            s.rotation[room] = q
            s.wall[room] = (side + q) % 4


@nb.njit(cache=True)
def fix_enclosure(s):
    """Rotate the fewest walled tiles, in a fixed order, until the bank is connected (3.4)."""
    if is_connected(s):
        return
    walled = 0
    for room in range(N_ROOMS):
        if TILE_WALL[s.tile[room]] >= 0:
            walled += 1
    codes = 4**walled
    for turned in range(1, walled + 1):
        for code in range(1, codes):
            nonzero = 0
            c = code
            while c:
                if c % 4:
                    nonzero += 1
                c //= 4
            if nonzero == turned:
                rotate_walled(s, code)
                if is_connected(s):
                    return


# ---- Phase 2: Plan (spec 4.3) ----------------------------------------------------------


@nb.njit(cache=True)
def pool_size(s, p):
    total = 0
    for t in range(N_CARD_TYPES):
        total += s.hand[p, t] + s.aside[p, t]
    return total


@nb.njit(cache=True)
def deal_hand(s, p, size):
    """Seat p's hand becomes size cards drawn at random from its pool (hand + aside)."""
    total = 0
    for t in range(N_CARD_TYPES):
        s.aside[p, t] += s.hand[p, t]
        s.hand[p, t] = 0
        total += s.aside[p, t]
    for _ in range(size):
        x = rand_below(s, total)
        t = 0
        while x >= s.aside[p, t]:
            x -= s.aside[p, t]
            t += 1
        s.aside[p, t] -= 1
        s.hand[p, t] += 1
        total -= 1


@nb.njit(cache=True)
def start_planning(s):
    for p in range(s.n_seats):
        if s.round_num == 1 and s.fixed_hands:
            for t in range(N_CARD_TYPES):
                s.hand[p, t] = s.fixed_hand[p, t]
                s.aside[p, t] -= s.fixed_hand[p, t]
        else:
            deal_hand(s, p, min(HAND_SIZE, pool_size(s, p)))
    s.phase = PLAN
    s.actor = 0


@nb.njit(cache=True)
def plan(s, k):
    """PLAN_k: the card goes face up on the actor's stack; the next seat plans (A2 at the end)."""
    p = s.actor
    s.hand[p, k] -= 1
    s.stack[p, s.n_planned[p]] = k
    s.n_planned[p] += 1
    if p == s.n_seats - 1 and s.n_planned[p] == NUM_CYCLES * s.round_num:
        for q in range(s.n_seats):
            for t in range(N_CARD_TYPES):
                s.aside[q, t] += s.hand[q, t]
                s.hand[q, t] = 0
        s.phase = ROB
        s.cycle = 0
        s.turn_seat = 0
        start_turn(s)
        settle(s)
    else:
        s.actor = (p + 1) % s.n_seats


# ---- Phase 3: Rob (spec 4.4, 5) --------------------------------------------------------


@nb.njit(cache=True)
def clear_turn(s):
    s.card = -1
    s.card_slots[:] = -1
    s.slot_done[:] = 0
    s.extra_used = 0
    s.card_started = 0


@nb.njit(cache=True)
def spend_card(s):
    """The card is used up and the turn has nothing left: A6 ends it."""
    s.slot_done[:] = 1
    s.extra_used = 1


@nb.njit(cache=True)
def start_turn(s):
    """Reveal the turn seat's card; alarm return (D6), A4 and A3."""
    p = s.turn_seat
    t = s.stack[p, NUM_CYCLES * (s.round_num - 1) + s.cycle]
    s.n_revealed[p] += 1
    s.played[p, t] += 1
    s.card = t
    side = BANK if p == 0 else ROBBERS
    for j in range(MAX_SLOTS):
        s.card_slots[j] = CARD_SLOTS[side, t, j]
        s.slot_done[j] = 0
    s.card_started = 0
    s.actor = p
    if p == 0:
        if s.alarm == RINGING:
            s.alarm = ON_UNLOCKED
        s.extra_used = 1  # the bank has no extra action
        anyone_up = False
        for g in range(s.n_guards):
            s.start_room[g] = s.guard_room[g]
            if s.guard_awake[g]:
                anyone_up = True
        if not anyone_up:  # A4
            for g in range(s.n_guards):
                s.guard_awake[g] = 1
            spend_card(s)
    else:
        s.extra_used = 0
        if not s.robber_awake[p - 1]:  # A3
            s.robber_awake[p - 1] = 1
            spend_card(s)


@nb.njit(cache=True)
def turn_over(s):
    """A6: no pending slot and the extra action used (always so for the bank)."""
    if not s.extra_used:
        return False
    for j in range(MAX_SLOTS):
        if s.card_slots[j] >= 0 and not s.slot_done[j]:
            return False
    return True


@nb.njit(cache=True)
def end_turn(s):
    s.turn_seat += 1
    if s.turn_seat == s.n_seats:
        s.turn_seat = 0
        s.cycle += 1
        if s.cycle == NUM_CYCLES:
            end_round(s)
            return
    start_turn(s)


@nb.njit(cache=True)
def end_round(s):
    """Bags on the board go back to SUPPLY; the bank wins after round 3 (4.5, 4.6, D26)."""
    for b in range(NUM_BAGS):
        if s.bag_where[b] == FLOOR or s.bag_where[b] == CARRIED:
            s.bag_where[b] = SUPPLY
            s.bag_at[b] = -1
            s.bag_locked[b] = 0
    clear_turn(s)
    rounds_left = NUM_ROUNDS - s.round_num
    if rounds_left == 0 or (s.early_end and s.stolen + s.bags_per_round * rounds_left < s.target):
        game_over(s, BANK_WINS)
        return
    s.round_num += 1
    start_round(s)


@nb.njit(cache=True)
def game_over(s, winner):
    s.winner = winner
    s.phase = GAME_OVER
    s.status = TERMINATED
    s.actor = -1


@nb.njit(cache=True)
def settle(s):
    """Run A5 (a single legal action) and A6 (end of turn) until a real decision or the end."""
    mask = np.empty(NUM_ACTIONS, np.int8)
    while s.phase == ROB:
        if turn_over(s):
            end_turn(s)
            continue
        n = rob_mask(s, mask)
        if n > 1:
            return
        if n == 1:
            a = 0
            while not mask[a]:
                a += 1
            rob_action(s, a)
        else:  # D1 fallback, unreachable in a connected bank: drop the mandatory slots
            for j in range(MAX_SLOTS):
                if s.card_slots[j] >= 0 and SLOT_MANDATORY[s.card_slots[j]]:
                    s.slot_done[j] = 1


@nb.njit(cache=True)
def guard_up_in(s, room):
    """cg(room): some conscious guard in play is in the room."""
    for g in range(s.n_guards):
        if s.guard_awake[g] and s.guard_room[g] == room:
            return True
    return False


@nb.njit(cache=True)
def floor_bag(s, room, locked):
    """A floor bag in the room with the given locked flag, or -1."""
    for b in range(NUM_BAGS):
        if s.bag_where[b] == FLOOR and s.bag_at[b] == room and s.bag_locked[b] == locked:
            return b
    return -1


@nb.njit(cache=True)
def carried_bag(s, robber):
    """A bag the robber carries, or -1."""
    for b in range(NUM_BAGS):
        if s.bag_where[b] == CARRIED and s.bag_at[b] == robber:
            return b
    return -1


@nb.njit(cache=True)
def can_step(s, g, d):
    """Guard g may step in direction d: conscious, open edge, not into its start room (D29)."""
    room = s.guard_room[g]
    return s.guard_awake[g] and is_open(s, room, d) and NEIGHBOUR[room, d] != s.start_room[g]


@nb.njit(cache=True)
def can_move(s, k):
    """Whether k more guard moves can still be made this turn (the lookahead of D1)."""
    if k <= 0:
        return True
    for g in range(s.n_guards):
        for d in range(4):
            if can_step(s, g, d):
                if k == 1:
                    return True
                room = s.guard_room[g]
                s.guard_room[g] = NEIGHBOUR[room, d]
                ok = can_move(s, k - 1)
                s.guard_room[g] = room
                if ok:
                    return True
    return False


@nb.njit(cache=True)
def rob_mask(s, out):
    """The ROB-phase legal actions of the actor (spec 7.2); returns how many."""
    out[:] = 0
    verbs = 0
    pending = False
    mandatory = False
    gmoves = 0
    for j in range(MAX_SLOTS):
        kind = s.card_slots[j]
        if kind >= 0 and not s.slot_done[j]:
            pending = True
            verbs |= SLOT_VERBS[kind]
            if SLOT_MANDATORY[kind]:
                mandatory = True
            if kind == GMOVE:
                gmoves += 1
    n = 0
    if s.actor == 0:
        if verbs & V_GMOVE:
            for g in range(s.n_guards):
                for d in range(4):
                    if can_step(s, g, d):
                        room = s.guard_room[g]
                        s.guard_room[g] = NEIGHBOUR[room, d]
                        ok = can_move(s, gmoves - 1)
                        s.guard_room[g] = room
                        if ok:
                            out[GUARD_0_MOVE_N + 4 * g + d] = 1
                            n += 1
        if verbs & V_LOCK:
            for g in range(s.n_guards):
                room = s.guard_room[g]
                if s.guard_awake[g] and floor_bag(s, room, 0) >= 0:
                    lowest = True
                    for h in range(g):
                        if s.guard_awake[h] and s.guard_room[h] == room:
                            lowest = False
                    if lowest:
                        out[LOCK_BAG_0 + g] = 1
                        n += 1
            if s.alarm == ON_UNLOCKED and guard_up_in(s, s.alarm_room):
                out[LOCK_ALARM] = 1
                n += 1
        if verbs & V_TACKLE:
            for x in range(s.n_robbers):
                if s.robber_awake[x] and guard_up_in(s, s.robber_room[x]):
                    out[TACKLE_YELLOW + x] = 1
                    n += 1
        if not s.card_started:
            for g in range(s.n_guards):
                if not s.guard_awake[g]:
                    out[WAKE_GUARDS] = 1
                    n += 1
                    break
    else:
        me = s.actor - 1
        room = s.robber_room[me]
        guarded = guard_up_in(s, room)
        if verbs & V_MOVE:
            for d in range(4):
                if is_open(s, room, d):
                    out[MOVE_N + d] = 1
                    n += 1
        if verbs & V_CRAWL:
            for r in range(N_ROOMS):
                if r != room:
                    out[CRAWL_0 + r] = 1
                    n += 1
        if guarded:
            if verbs & V_SPRAY:
                out[SPRAY] = 1
                n += 1
        else:
            if verbs & V_PICKUP and floor_bag(s, room, 0) >= 0:
                out[PICKUP] = 1
                n += 1
            if verbs & V_UNLOCK:
                if floor_bag(s, room, 1) >= 0:
                    out[UNLOCK_BAG] = 1
                    n += 1
                if s.alarm == ON_LOCKED and s.alarm_room == room:
                    out[UNLOCK_ALARM] = 1
                    n += 1
        if not s.extra_used and (not s.card_started or not pending):
            out[VEHICLE_CCW] = 1
            out[VEHICLE_CW] = 1
            n += 2
            if not guarded:
                if carried_bag(s, me) >= 0:
                    v = s.vehicle
                    if SPACE_ROOM[v] == room and s.wall[room] != SPACE_SIDE[v]:
                        out[THROW] = 1
                        n += 1
                    for x in range(s.n_robbers):
                        if x != me and s.robber_awake[x] and s.robber_room[x] == room:
                            out[PASS_TO_YELLOW + x] = 1
                            n += 1
                if s.alarm == ON_UNLOCKED and s.alarm_room == room:
                    out[TRIGGER_ALARM] = 1
                    n += 1
    if not mandatory:
        out[END_TURN] = 1
        n += 1
    return n


@nb.njit(cache=True)
def fill_slot(s, verb):
    """Mark the first pending slot accepting verb done, preferring single-kind slots (7.1)."""
    for pass_or in range(2):
        for j in range(MAX_SLOTS):
            kind = s.card_slots[j]
            if (
                kind >= 0
                and not s.slot_done[j]
                and SLOT_IS_OR[kind] == pass_or
                and SLOT_VERBS[kind] & verb
            ):
                s.slot_done[j] = 1
                s.card_started = 1
                return


@nb.njit(cache=True)
def rob_action(s, a):
    """Play one ROB-phase action (spec 5.4-5.6)."""
    if a == END_TURN:
        spend_card(s)
    elif a >= GUARD_0_MOVE_N:
        bank_action(s, a)
    else:
        robber_action(s, a)


@nb.njit(cache=True)
def robber_action(s, a):
    me = s.actor - 1
    room = s.robber_room[me]
    if a < CRAWL_0:
        fill_slot(s, V_MOVE)
        s.robber_room[me] = NEIGHBOUR[room, a - MOVE_N]  # carried bags go with the robber
    elif a < PICKUP:
        fill_slot(s, V_CRAWL)
        s.robber_room[me] = a - CRAWL_0
    elif a == PICKUP:
        fill_slot(s, V_PICKUP)
        b = floor_bag(s, room, 0)
        s.bag_where[b] = CARRIED
        s.bag_at[b] = me
    elif a == UNLOCK_BAG:
        fill_slot(s, V_UNLOCK)
        s.bag_locked[floor_bag(s, room, 1)] = 0
    elif a == UNLOCK_ALARM:
        fill_slot(s, V_UNLOCK)
        s.alarm = ON_UNLOCKED
    elif a == SPRAY:
        fill_slot(s, V_SPRAY)
        for g in range(s.n_guards):
            if s.guard_awake[g] and s.guard_room[g] == room:
                s.guard_awake[g] = 0
                break
    else:
        s.extra_used = 1
        if a == VEHICLE_CCW:
            s.vehicle = (s.vehicle + N_SPACES - 1) % N_SPACES
        elif a == VEHICLE_CW:
            s.vehicle = (s.vehicle + 1) % N_SPACES
        elif a == THROW:
            b = carried_bag(s, me)
            s.bag_where[b] = STOLEN
            s.bag_at[b] = -1
            s.stolen += 1
            if s.stolen >= s.target:
                game_over(s, ROBBERS_WIN)
        elif a < TRIGGER_ALARM:
            s.bag_at[carried_bag(s, me)] = a - PASS_TO_YELLOW
        else:
            for g in range(s.n_guards):
                if s.guard_awake[g]:
                    s.guard_room[g] = s.alarm_room
            s.alarm = RINGING


@nb.njit(cache=True)
def bank_action(s, a):
    if a < LOCK_BAG_0:
        fill_slot(s, V_GMOVE)
        g = (a - GUARD_0_MOVE_N) // 4
        s.guard_room[g] = NEIGHBOUR[s.guard_room[g], (a - GUARD_0_MOVE_N) % 4]
    elif a < LOCK_ALARM:
        fill_slot(s, V_LOCK)
        s.bag_locked[floor_bag(s, s.guard_room[a - LOCK_BAG_0], 0)] = 1
    elif a == LOCK_ALARM:
        fill_slot(s, V_LOCK)
        s.alarm = ON_LOCKED
    elif a < WAKE_GUARDS:
        fill_slot(s, V_TACKLE)
        x = a - TACKLE_YELLOW
        s.robber_awake[x] = 0
        for b in range(NUM_BAGS):
            if s.bag_where[b] == CARRIED and s.bag_at[b] == x:
                s.bag_where[b] = FLOOR
                s.bag_at[b] = s.robber_room[x]
                s.bag_locked[b] = 0
    else:  # WAKE_GUARDS
        for g in range(s.n_guards):
            s.guard_awake[g] = 1
        spend_card(s)


# ---- Kernel interface ------------------------------------------------------------------


@nb.njit(cache=True)
def legal_mask(s, out):
    out[:] = 0
    if s.phase == SETUP_CORNER:
        for a in range(CORNER_0, CORNER_8 + 1):
            out[a] = 1
    elif s.phase == SETUP_STREET:
        out[VEHICLE_CCW] = 1
        out[VEHICLE_CW] = 1
    elif s.phase == PLAN:
        for k in range(N_CARD_TYPES):
            if s.hand[s.actor, k] > 0:
                out[PLAN_0 + k] = 1
    elif s.phase == ROB:
        rob_mask(s, out)


@nb.njit(cache=True)
def apply(s, action):
    """Play one legal decision and every automatic step after it."""
    if s.phase == SETUP_CORNER:
        c = action - CORNER_0
        s.veh_cand[0] = STREET_CORNERS[c, 0]
        s.veh_cand[1] = STREET_CORNERS[c, 1]
        s.phase = SETUP_STREET
        s.actor = 1
    elif s.phase == SETUP_STREET:
        s.vehicle = s.veh_cand[0] if action == VEHICLE_CCW else s.veh_cand[1]
        s.veh_cand[:] = -1
        start_planning(s)
    elif s.phase == PLAN:
        plan(s, action - PLAN_0)
    else:
        rob_action(s, action)
        settle(s)


@nb.njit(cache=True)
def returns(s, out):
    """Team rewards: +1 to the winning side's seats, -1 to the other side's (spec 1)."""
    out[:] = 0.0
    if s.status != TERMINATED:
        return
    bank = 1.0 if s.winner == BANK_WINS else -1.0
    out[0] = bank
    for p in range(1, min(s.n_seats, out.shape[0])):
        out[p] = -bank


@nb.njit(cache=True)
def determinize(s, seat, seed):
    """Re-deal the other side's hand/aside split (spec 6.3), then reseed the RNG. The
    ``hands`` option's round-1 hands are dropped: they tell the other side's first draw."""
    seed_rng(s, seed)
    s.fixed_hands = 0
    s.fixed_hand[:] = 0
    for q in range(s.n_seats):
        if (q == 0) != (seat == 0):
            size = 0
            for t in range(N_CARD_TYPES):
                size += s.hand[q, t]
            deal_hand(s, q, size)
