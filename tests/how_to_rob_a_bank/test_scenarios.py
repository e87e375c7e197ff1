"""How to Rob a Bank scenarios S1-S18 (spec section 9), each naming the rules it checks."""

import numpy as np
import pytest

from heist_envs.core.game import RUNNING, TERMINATED
from heist_envs.how_to_rob_a_bank import GAME, agent_names, rules
from heist_envs.how_to_rob_a_bank.actions import (
    CORNER_0,
    CORNER_2,
    CORNER_6,
    CORNER_8,
    CRAWL_0,
    CRAWL_6,
    CRAWL_8,
    END_TURN,
    GUARD_0_MOVE_E,
    GUARD_0_MOVE_N,
    GUARD_0_MOVE_S,
    GUARD_0_MOVE_W,
    GUARD_1_MOVE_N,
    LOCK_BAG_1,
    MOVE_E,
    MOVE_N,
    MOVE_S,
    MOVE_W,
    PASS_TO_RED,
    PASS_TO_YELLOW,
    PICKUP,
    PLAN_0,
    SPRAY,
    TACKLE_RED,
    TACKLE_YELLOW,
    THROW,
    TRIGGER_ALARM,
    UNLOCK_BAG,
    VEHICLE_CCW,
    VEHICLE_CW,
    WAKE_GUARDS,
)
from heist_envs.how_to_rob_a_bank.components import (
    DECK_COUNTS,
    NUM_CYCLES,
    TILE_ALARM,
    TILE_BADGES,
    TILE_MASK,
    TILE_NAMES,
    E,
    S,
)
from heist_envs.how_to_rob_a_bank.state import (
    BANK_WINS,
    FLOOR,
    GAME_OVER,
    ON_LOCKED,
    ON_UNLOCKED,
    PLAN,
    RINGING,
    ROB,
    SETUP_CORNER,
    SETUP_STREET,
    STOLEN,
    SUPPLY,
)
from tests.helpers import legal_actions, play

from .positions import (
    B_DOUBLE_MOVE,
    B_LOCK,
    B_MOVE,
    B_TACKLE,
    L0,
    R_CRAWL,
    R_MOVE,
    R_PICKUP,
    R_SPRAY,
    R_SPRAY_OR_PICKUP,
    R_UNLOCK,
    R_UNLOCK_OR_PICKUP,
    RED,
    YELLOW,
    begin_turn,
    carried,
    connected,
    edge_open,
    first_card,
    floor_bags,
    mask_of,
    new_game,
    obs,
    part,
    place_bags,
    planned_game,
    tile_ids,
)

EXTRA_ACTIONS = {VEHICLE_CCW, VEHICLE_CW, THROW, PASS_TO_YELLOW, PASS_TO_RED, TRIGGER_ALARM}


# ---- S1 --------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(10))
def test_s1_setup_at_4_players_spec_1_and_4_2(seed):
    """4 players: P4 in play, 3 guards on badges, 3 bags, robbers on the mask, target 5."""
    s = GAME.new_state(4, seed)[0]
    assert agent_names(4) == ["bank", "robber_yellow", "robber_red", "robber_green"]
    assert sorted(s.tile.tolist()) == [0, 1, 2, 3, 4, 5, 6, 7, 9]
    badges = [r for r in range(9) if TILE_BADGES[s.tile[r]]]
    assert sorted(s.guard_room.tolist()) == badges and len(set(badges)) == 3
    assert s.guard_awake.tolist() == [1, 1, 1]
    assert (s.bag_where == FLOOR).sum() == 3
    assert (s.bag_locked == 0).all()
    assert (s.bag_where == SUPPLY).sum() == 4 and s.stolen == 0
    assert s.alarm == ON_UNLOCKED and TILE_ALARM[s.tile[s.alarm_room]]
    assert TILE_MASK[s.tile[s.mask_room]]
    assert s.robber_room.tolist() == [s.mask_room] * 3 and s.robber_awake.tolist() == [1, 1, 1]
    assert s.target == 5
    assert connected(s)


@pytest.mark.parametrize("num_players", [2, 3])
@pytest.mark.parametrize("seed", range(10))
def test_s1_setup_at_2_and_3_players_spec_1_and_4_2(num_players, seed):
    """2-3 players: two robbers, P23 in play, 2 guards, 4 bags on the board, target 4."""
    s = GAME.new_state(num_players, seed)[0]
    assert agent_names(num_players) == ["bank", "robber_yellow", "robber_red"]
    assert sorted(s.tile.tolist()) == [0, 1, 2, 3, 4, 5, 6, 7, 8]
    assert s.n_guards == 2 and s.n_robbers == 2
    assert s.guard_awake[:2].tolist() == [1, 1] and s.guard_room[2] == -1
    assert (s.bag_where == FLOOR).sum() == 4 and (s.bag_where == SUPPLY).sum() == 3
    assert s.robber_room[2] == -1
    assert s.target == 4
    assert connected(s)
    assert len(s.bag_where) == 7


# ---- S2 --------------------------------------------------------------------------------------


def test_s2_enclosure_fix_rotates_one_tile_spec_3_4_d20():
    """Room 0 (T5 wall E) is closed by T3's wall N in room 3: T5 turns a quarter, wall S."""
    s = new_game(layout=["T5", "T1", "T2", "T3", "T4", "T6", "T7", "T8", "P23"])
    assert s.rotation.tolist() == [1, 0, 0, 0, 0, 0, 0, 0, 0]
    assert s.wall[0] == S
    assert edge_open(s, 0, 1) and not edge_open(s, 0, 3)
    assert connected(s)
    assert s.mask_room == 1 and s.vehicle == 7
    assert s.phase == PLAN and s.actor == 0


# ---- S3 --------------------------------------------------------------------------------------


def test_s3_robbers_choose_the_street_for_a_corner_start_spec_4_2_d10():
    s = new_game()
    assert s.phase == SETUP_STREET and agent_names(3)[s.actor] == "robber_yellow"
    assert mask_of(s) == {VEHICLE_CCW, VEHICLE_CW}
    other = s.copy()
    play(GAME, s, VEHICLE_CW)
    play(GAME, other, VEHICLE_CCW)
    assert s.vehicle == 6 and other.vehicle == 5


@pytest.mark.parametrize(("start", "action", "end"), [(11, VEHICLE_CW, 0), (0, VEHICLE_CCW, 11)])
def test_s3_vehicle_ring_wraps_and_extra_action_is_then_spent_d7(start, action, end):
    s = planned_game({1: first_card(R_MOVE)})
    s.vehicle = start
    begin_turn(s, 1)
    play(GAME, s, action)
    assert s.vehicle == end
    assert s.actor == 1 and not mask_of(s) & EXTRA_ACTIONS


# ---- S4 --------------------------------------------------------------------------------------


def test_s4_robbers_start_in_the_centre_bank_picks_the_corner_d10():
    layout = ["T3", "T4", "T5", "T6", "T1", "T7", "T8", "P23", "T2"]
    s = new_game(layout=layout)
    assert connected(s) and s.mask_room == 4
    assert s.phase == SETUP_CORNER and s.actor == 0
    assert mask_of(s) == {CORNER_0, CORNER_2, CORNER_6, CORNER_8}
    play(GAME, s, CORNER_2)
    assert s.phase == SETUP_STREET and s.actor == 1
    play(GAME, s, VEHICLE_CW)
    assert s.vehicle == 3


def test_s4_no_throw_through_the_wall_facing_the_vehicle_d32():
    layout = ["T3", "T4", "T5", "T6", "T1", "T7", "T8", "P23", "T2"]
    s = planned_game(layout=layout, setup=(CORNER_2, VEHICLE_CW))
    s.robber_room[YELLOW] = 2
    s.guard_room[:2] = [6, 7]
    place_bags(s, carried=[YELLOW])
    begin_turn(s, 1)
    assert s.wall[2] == E and s.vehicle == 3
    assert THROW not in mask_of(s)


# ---- S5 --------------------------------------------------------------------------------------


def test_s5_planning_order_masks_and_public_stacks_spec_4_3_and_6():
    s = new_game()
    play(GAME, s, VEHICLE_CW)
    names = agent_names(3)
    order = []
    rng = np.random.default_rng(0)
    for i in range(15):
        assert s.phase == PLAN
        p = int(s.actor)
        order.append(names[p])
        legal = legal_actions(GAME, s)
        assert set(legal.tolist()) == {PLAN_0 + k for k in range(8) if s.hand[p, k] > 0}
        k = int(rng.choice(legal)) - PLAN_0
        position = int(s.n_planned[p])
        GAME.apply(s, PLAN_0 + k)
        for seat in range(3):
            stacks = part(obs(s, seat), "stacks").reshape(4, 15, 9)
            assert stacks[p, position, k + 1] == 1
        if i < 14:
            _check_hand_visibility(s)
    assert order == ["bank", "robber_yellow", "robber_red"] * 5
    assert s.phase == ROB


def _check_hand_visibility(s):
    """The bank cannot see the robbers' hand/aside split; robbers see each other's hands
    but never the bank's (D21)."""
    other = s.copy()
    for p in (1, 2):
        pool = other.hand[p] + other.aside[p]
        size = int(other.hand[p].sum())
        cards = np.repeat(np.arange(8), pool)[::-1][:size]
        other.hand[p] = np.bincount(cards, minlength=8)
        other.aside[p] = pool - other.hand[p]
    assert (obs(s, 0) == obs(other, 0)).all()
    yellow = obs(s, 1)
    assert (part(yellow, "robber_hands").reshape(3, 8)[RED] == s.hand[2]).all()
    bank_split = s.copy()
    pool = bank_split.hand[0] + bank_split.aside[0]
    cards = np.repeat(np.arange(8), pool)[::-1][: int(bank_split.hand[0].sum())]
    bank_split.hand[0] = np.bincount(cards, minlength=8)
    bank_split.aside[0] = pool - bank_split.hand[0]
    for seat in (1, 2):
        assert (obs(s, seat) == obs(bank_split, seat)).all()


# ---- S6 --------------------------------------------------------------------------------------


def test_s6_card_economy_across_rounds_spec_4_3_table():
    """Pools 15/10/5 before each draw, hands 8/8/5, stacks of 5, pools 10/5/0 after planning."""
    for seed in range(50):
        s = GAME.new_state(3, seed)[0]
        rng = np.random.default_rng(seed)
        seen_plan, seen_rob = set(), set()
        while s.status == RUNNING:
            r = int(s.round_num)
            pool = (s.hand + s.aside)[:3].sum(axis=1)
            first = NUM_CYCLES * (r - 1)
            if s.phase in (SETUP_CORNER, SETUP_STREET):
                assert pool.tolist() == [(4 - r) * 5] * 3
                assert (s.stack[:3, first:] == -1).all()
            if s.phase == PLAN and r not in seen_plan:
                seen_plan.add(r)
                assert pool.tolist() == [(4 - r) * 5] * 3
                assert s.hand[:3].sum(axis=1).tolist() == [8, 8, 5][r - 1 : r] * 3
            if s.phase == ROB and r not in seen_rob:
                seen_rob.add(r)
                assert (s.stack[:3, first : first + 5] >= 0).all()
                assert pool.tolist() == [10, 5, 0][r - 1 : r] * 3
            GAME.apply(s, int(rng.choice(legal_actions(GAME, s))))
        if s.winner == BANK_WINS:
            assert seen_plan == seen_rob == {1, 2, 3}
            assert (s.played[:3] == DECK_COUNTS[:3]).all()
            out = np.zeros(3, np.float32)
            GAME.returns(s, out)
            assert out.tolist() == [1.0, -1.0, -1.0]
            return
    pytest.fail("no bank win in 50 random games")


# ---- S7 --------------------------------------------------------------------------------------


def test_s7_mandatory_move_and_walls_spec_5_4_and_3_2_d13():
    s = planned_game({1: first_card(R_MOVE)})
    s.robber_room[YELLOW] = 7
    begin_turn(s, 1)
    m = mask_of(s)
    assert {MOVE_N, MOVE_E} <= m
    assert MOVE_W not in m and MOVE_S not in m and END_TURN not in m
    play(GAME, s, VEHICLE_CW)
    assert mask_of(s) == {MOVE_N, MOVE_E}
    play(GAME, s, MOVE_E)
    assert s.robber_room[YELLOW] == 8
    assert s.turn_seat == 2 and s.actor == 2  # A6 ended yellow's turn


# ---- S8 --------------------------------------------------------------------------------------


def test_s8_pickup_is_blocked_by_a_conscious_guard_spec_5_3():
    s = planned_game({1: [R_PICKUP, R_MOVE, R_UNLOCK, R_UNLOCK, R_MOVE]})
    s.robber_room[YELLOW] = 5
    s.guard_room[0] = 5
    begin_turn(s, 1)
    assert PICKUP not in mask_of(s)
    s.guard_awake[0] = 0
    begin_turn(s, 1)
    play(GAME, s, PICKUP)
    assert carried(s, YELLOW) == 1 and floor_bags(s, 5) == 0
    begin_turn(s, 1, cycle=1)
    play(GAME, s, MOVE_N)
    assert s.robber_room[YELLOW] == 2 and carried(s, YELLOW) == 1  # the bag moved with her


# ---- S9 --------------------------------------------------------------------------------------


def test_s9_spray_or_pickup_is_one_action_d15_d27():
    s = planned_game({1: first_card(R_SPRAY_OR_PICKUP)})
    s.robber_room[[YELLOW, RED]] = 5
    s.guard_room[0] = 5
    place_bags(s, floor=[5], carried=[YELLOW])
    s.vehicle = 4  # faces room 5
    begin_turn(s, 1)
    m = mask_of(s)
    assert SPRAY in m and PICKUP not in m
    assert THROW not in m and PASS_TO_RED not in m
    play(GAME, s, SPRAY)
    assert s.guard_awake[0] == 0
    m = mask_of(s)
    assert PICKUP not in m
    assert THROW in m and PASS_TO_RED in m


def test_s9_spray_knocks_out_the_lowest_index_guard_only_d15():
    s = planned_game({1: first_card(R_SPRAY)})
    s.robber_room[YELLOW] = 5
    s.guard_room[:2] = [5, 5]
    begin_turn(s, 1)
    play(GAME, s, SPRAY)
    assert s.guard_awake[:2].tolist() == [0, 1]


# ---- S10 -------------------------------------------------------------------------------------


def test_s10_throw_reaching_the_target_ends_the_game_at_once_d8():
    s = planned_game({1: first_card(R_MOVE)})
    place_bags(s, stolen=3, carried=[YELLOW])
    s.robber_room[YELLOW] = 5
    s.vehicle = 6
    begin_turn(s, 1)
    play(GAME, s, MOVE_S, THROW)
    assert s.stolen == 4 and (s.bag_where == STOLEN).sum() == 4
    assert s.status == TERMINATED and s.phase == GAME_OVER and s.actor == -1
    out = np.zeros(3, np.float32)
    GAME.returns(s, out)
    assert out.tolist() == [-1.0, 1.0, 1.0]
    assert s.n_revealed[2] == 0  # red's card was never revealed


def test_s10_variant_wall_blocks_the_throw_to_space_5_d32():
    s = planned_game({1: first_card(R_MOVE)})
    place_bags(s, stolen=3, carried=[YELLOW])
    s.robber_room[YELLOW] = 5
    s.vehicle = 5
    begin_turn(s, 1)
    play(GAME, s, MOVE_S)
    assert s.robber_room[YELLOW] == 8 and s.actor == 1
    assert THROW not in mask_of(s)


# ---- S11 -------------------------------------------------------------------------------------


def test_s11_passing_a_bag_d16():
    s = planned_game({1: first_card(R_MOVE)})
    s.robber_room[[YELLOW, RED]] = 1
    place_bags(s, carried=[YELLOW, YELLOW])
    s.guard_room[0] = 1
    begin_turn(s, 1)
    assert PASS_TO_RED not in mask_of(s)
    s.guard_awake[0] = 0
    begin_turn(s, 1)
    play(GAME, s, PASS_TO_RED)
    assert carried(s, YELLOW) == 1 and carried(s, RED) == 1
    assert s.actor == 1 and not mask_of(s) & EXTRA_ACTIONS
    s.robber_awake[RED] = 0
    begin_turn(s, 1)
    assert PASS_TO_RED not in mask_of(s)


# ---- S12 -------------------------------------------------------------------------------------


def test_s12_alarm_rings_then_returns_at_the_banks_next_turn_d5_d6():
    stacks = {
        0: [B_LOCK, B_LOCK, B_MOVE, B_MOVE, B_MOVE],
        1: [R_UNLOCK, R_UNLOCK, R_MOVE, R_MOVE, R_MOVE],
        2: [R_UNLOCK, R_SPRAY, R_MOVE, R_MOVE, R_MOVE],
    }
    s = planned_game(stacks)
    s.robber_room[[YELLOW, RED]] = 4
    s.guard_room[:2] = [0, 8]
    s.guard_awake[:2] = [1, 0]
    begin_turn(s, 1, cycle=1)
    play(GAME, s, TRIGGER_ALARM)
    assert s.guard_room[:2].tolist() == [4, 8]
    assert s.alarm == RINGING
    assert s.actor == 2  # guard 0 now blocks yellow's Unlock: A5 ended her turn
    play(GAME, s, SPRAY)
    assert s.guard_awake[:2].tolist() == [0, 0]
    assert TRIGGER_ALARM not in mask_of(s)
    play(GAME, s, END_TURN)
    # The bank's cycle-3 turn: the alarm returns, A4 wakes both guards and spends the card.
    assert s.actor == 1 and s.cycle == 2
    assert s.alarm == ON_UNLOCKED and s.alarm_room == 4
    assert s.guard_awake[:2].tolist() == [1, 1]
    assert s.guard_room[:2].tolist() == [4, 8]


def test_s12_variant_a_locked_alarm_cannot_be_triggered():
    s = planned_game()
    s.robber_room[YELLOW] = 4
    s.alarm = ON_LOCKED
    begin_turn(s, 1)
    assert TRIGGER_ALARM not in mask_of(s)


# ---- S13 -------------------------------------------------------------------------------------


def test_s13a_double_move_may_not_return_to_the_start_room_d1_d29():
    s = planned_game({0: [B_DOUBLE_MOVE, B_LOCK, B_MOVE, B_MOVE, B_MOVE]})
    s.guard_room[:2] = [3, 6]
    s.guard_awake[:2] = [1, 0]
    begin_turn(s, 0)
    m = mask_of(s)
    assert GUARD_0_MOVE_S not in m
    assert {GUARD_0_MOVE_N, GUARD_0_MOVE_E} <= m and END_TURN not in m
    play(GAME, s, GUARD_0_MOVE_E)
    assert s.guard_room[0] == 4
    m = mask_of(s)
    assert GUARD_0_MOVE_W not in m
    assert {GUARD_0_MOVE_N, GUARD_0_MOVE_E, GUARD_0_MOVE_S} <= m


def test_s13b_two_guards_share_a_double_move_d29():
    s = planned_game({0: [B_DOUBLE_MOVE, B_LOCK, B_MOVE, B_MOVE, B_MOVE]})
    s.guard_room[:2] = [3, 6]
    begin_turn(s, 0)
    assert GUARD_0_MOVE_S in mask_of(s)
    # Right after GUARD_0_MOVE_S (before the automatic steps) guard 1's step is legal and
    # guard 0's step back is not ...
    probe = s.copy()
    rules.rob_action(probe, GUARD_0_MOVE_S)
    assert mask_of(probe) == {GUARD_1_MOVE_N}
    assert GUARD_0_MOVE_N not in mask_of(probe)
    # ... so it is the only legal action, and A5 plays it.
    play(GAME, s, GUARD_0_MOVE_S)
    assert s.guard_room[:2].tolist() == [6, 3] and s.actor == 1


# ---- S14 -------------------------------------------------------------------------------------


def test_s14_tackle_drops_the_bags_and_the_robber_wakes_next_turn_d4_a3():
    stacks = {
        0: [B_TACKLE, B_DOUBLE_MOVE, B_MOVE, B_MOVE, B_MOVE],
        1: [R_UNLOCK, R_UNLOCK, R_MOVE, R_MOVE, R_MOVE],
        2: [R_MOVE] * 5,
    }
    s = planned_game(stacks)
    s.robber_room[RED] = 2
    place_bags(s, floor=[1, 5], carried=[RED, RED])
    s.guard_room[0] = 2
    begin_turn(s, 0)
    assert TACKLE_YELLOW not in mask_of(s)
    play(GAME, s, TACKLE_RED)
    assert s.robber_awake[RED] == 0 and carried(s, RED) == 0
    assert floor_bags(s, 2, locked=0) == 2
    assert s.actor == 1
    before = {k: s[k].copy() for k in ("robber_room", "guard_room", "guard_awake", "bag_at")}
    vehicle = int(s.vehicle)
    play(GAME, s, END_TURN)
    assert s.actor == 0 and s.cycle == 1  # red's turn resolved by itself
    assert s.robber_awake[RED] == 1 and s.n_revealed[2] == 1
    assert s.vehicle == vehicle
    for k, v in before.items():
        assert (s[k] == v).all()


# ---- S15 -------------------------------------------------------------------------------------


def test_s15_wake_guards_instead_of_the_card_d28():
    s = planned_game()
    s.guard_awake[:2] = [0, 1]
    begin_turn(s, 0)
    assert mask_of(s) == {WAKE_GUARDS, END_TURN}
    play(GAME, s, WAKE_GUARDS)
    assert s.guard_awake[:2].tolist() == [1, 1] and s.actor == 1


def test_s15_wake_guards_spends_a_card_with_mandatory_moves_d28():
    """WAKE_GUARDS sacrifices the card: a Double move's two moves are never played."""
    s = planned_game({0: [B_DOUBLE_MOVE, B_LOCK, B_MOVE, B_MOVE, B_MOVE]})
    s.guard_awake[:2] = [0, 1]
    rooms = s.guard_room.copy()
    begin_turn(s, 0)
    play(GAME, s, WAKE_GUARDS)
    assert s.guard_awake[:2].tolist() == [1, 1] and (s.guard_room == rooms).all()
    assert s.actor == 1 and s.turn_seat == 1


def test_s15_variant_all_guards_down_wake_by_themselves_a4():
    """A4: no bank decision, and the card (here a mandatory Move) is spent unplayed."""
    s = planned_game({0: [B_MOVE, B_LOCK, B_LOCK, B_MOVE, B_MOVE]})
    s.guard_awake[:2] = [0, 0]
    rooms = s.guard_room.copy()
    revealed, played = int(s.n_revealed[0]), int(s.played[0, B_MOVE])
    begin_turn(s, 0)
    assert s.guard_awake[:2].tolist() == [1, 1] and (s.guard_room == rooms).all()
    assert s.actor == 1 and s.turn_seat == 1
    assert s.n_revealed[0] == revealed + 1 and s.played[0, B_MOVE] == played + 1


def test_s15_variant_no_wake_once_the_card_has_started_d28():
    s = planned_game({0: [B_DOUBLE_MOVE, B_LOCK, B_MOVE, B_MOVE, B_MOVE]})
    s.guard_awake[:2] = [0, 1]
    begin_turn(s, 0)
    assert WAKE_GUARDS in mask_of(s)
    play(GAME, s, GUARD_1_MOVE_N)
    assert WAKE_GUARDS not in mask_of(s)


# ---- S16 -------------------------------------------------------------------------------------


def test_s16_lock_and_unlock_one_item_each_d3_d19():
    s = planned_game({1: first_card(R_UNLOCK_OR_PICKUP)})
    place_bags(s, floor=[5, 5])
    s.guard_room[:2] = [3, 5]
    begin_turn(s, 0)
    play(GAME, s, LOCK_BAG_1)
    assert floor_bags(s, 5, locked=1) == 1 and floor_bags(s, 5, locked=0) == 1
    s.robber_room[YELLOW] = 5
    begin_turn(s, 1)
    assert PICKUP not in mask_of(s) and UNLOCK_BAG not in mask_of(s)
    s.guard_awake[1] = 0
    begin_turn(s, 1)
    assert {PICKUP, UNLOCK_BAG} <= mask_of(s)
    play(GAME, s, UNLOCK_BAG)
    assert floor_bags(s, 5, locked=0) == 2
    assert PICKUP not in mask_of(s)


def test_s16_no_lock_targets_a_carried_bag_d19():
    s = planned_game()
    place_bags(s, carried=[YELLOW])
    s.robber_room[YELLOW] = 3  # guard 0's room
    begin_turn(s, 0)
    assert s.actor == 1  # the Lock card had nothing to lock: A5 ended the bank's turn


# ---- S17 -------------------------------------------------------------------------------------


def test_s17_crawl_to_any_other_room_d2():
    s = planned_game({1: first_card(R_CRAWL)})
    s.robber_room[YELLOW] = 6
    place_bags(s, carried=[YELLOW])
    begin_turn(s, 1)
    m = mask_of(s)
    assert CRAWL_6 not in m and END_TURN not in m
    assert {CRAWL_0 + r for r in range(9) if r != 6} <= m
    play(GAME, s, CRAWL_8)
    assert s.robber_room[YELLOW] == 8 and carried(s, YELLOW) == 1


# ---- S18 -------------------------------------------------------------------------------------


def test_s18_end_of_round_returns_bags_and_resets_pieces_spec_4_5():
    s = planned_game({2: [R_MOVE, R_MOVE, R_MOVE, R_UNLOCK, R_UNLOCK]})
    place_bags(s, stolen=2, carried=[YELLOW], floor=[4])
    assert (s.bag_where == SUPPLY).sum() == 3
    s.robber_awake[YELLOW] = 0
    s.guard_awake[1] = 0
    s.alarm = RINGING
    begin_turn(s, 2, cycle=4)
    play(GAME, s, END_TURN)
    assert s.stolen == 2 and (s.bag_where == STOLEN).sum() == 2
    assert s.round_num == 2 and s.phase == SETUP_STREET
    assert carried(s, YELLOW) == 0
    # Round 2 is laid out (L0 again): 4 fresh unlocked floor bags, SUPPLY 1.
    assert (s.bag_where == FLOOR).sum() == 4 and (s.bag_locked == 0).all()
    assert (s.bag_where == SUPPLY).sum() == 1
    assert s.guard_awake[:2].tolist() == [1, 1] and s.robber_awake[:2].tolist() == [1, 1]
    assert s.robber_room[:2].tolist() == [s.mask_room] * 2
    assert s.alarm == ON_UNLOCKED
    assert len(s.bag_where) == 7


def test_l0_geometry_matches_the_spec():
    """Layout L0's walls, dead end and throws (spec section 9)."""
    s = new_game()
    assert [TILE_NAMES[t] for t in s.tile] == L0 and s.tile.tolist() == tile_ids(L0)
    assert s.wall.tolist() == [-1, -1, 0, -1, -1, -1, 2, 3, 1]
    assert not edge_open(s, 6, 7) and connected(s)
    assert [r for r in range(9) if edge_open(s, 6, r)] == [3]
    assert s.mask_room == 0 and s.alarm_room == 4
    assert sorted(s.bag_at[s.bag_where == FLOOR].tolist()) == [1, 2, 5, 8]
    assert s.guard_room[:2].tolist() == [3, 6]
