"""How to Rob a Bank decisions D1-D35 (spec section 8), one test or more each."""

import numpy as np

from heist_envs.core.game import RUNNING, TERMINATED
from heist_envs.how_to_rob_a_bank import GAME, agent_names, rules
from heist_envs.how_to_rob_a_bank.actions import (
    CRAWL_0,
    CRAWL_6,
    END_TURN,
    GUARD_0_MOVE_E,
    GUARD_0_MOVE_N,
    LOCK_ALARM,
    LOCK_BAG_0,
    LOCK_BAG_1,
    MOVE_E,
    MOVE_N,
    MOVE_S,
    MOVE_W,
    PASS_TO_RED,
    PICKUP,
    PLAN_0,
    SPRAY,
    TACKLE_RED,
    TACKLE_YELLOW,
    THROW,
    TRIGGER_ALARM,
    UNLOCK_ALARM,
    UNLOCK_BAG,
    VEHICLE_CCW,
    VEHICLE_CW,
    WAKE_GUARDS,
)
from heist_envs.how_to_rob_a_bank.components import (
    CARD_SLOTS,
    GMOVE,
    MOVE,
    TACKLE,
    TILE_BADGES,
    VEHICLE_CANDIDATES,
)
from heist_envs.how_to_rob_a_bank.components import (
    PICKUP as PICKUP_SLOT,
)
from heist_envs.how_to_rob_a_bank.state import (
    BANK_WINS,
    GAME_OVER,
    ON_LOCKED,
    ON_UNLOCKED,
    PLAN,
    RINGING,
    STOLEN,
)
from tests.helpers import legal_actions, play

from .positions import (
    B_DOUBLE_MOVE,
    B_LOCK,
    B_MOVE,
    B_TACKLE,
    B_TACKLE_OR_LOCK,
    R_CRAWL,
    R_MOVE,
    R_PICKUP,
    R_SPRAY,
    R_UNLOCK,
    R_UNLOCK_OR_PICKUP,
    RED,
    YELLOW,
    begin_turn,
    carried,
    connected,
    first_card,
    floor_bags,
    mask_of,
    new_game,
    obs,
    part,
    place_bags,
    planned_game,
)

EXTRAS = {VEHICLE_CCW, VEHICLE_CW, THROW, PASS_TO_RED, TRIGGER_ALARM}


def test_d1_every_room_is_open_and_a_lone_guard_can_always_move_twice():
    for seed in range(200):
        s = GAME.new_state(3 + seed % 2, seed)[0]
        assert connected(s)
        s.guard_awake[:] = 0
        s.guard_awake[0] = 1
        for room in range(9):
            s.guard_room[0] = room
            s.start_room[0] = room
            assert rules.can_move(s, 2), (seed, room)


def test_d1_fallback_drops_an_impossible_mandatory_move():
    """Only reachable by breaking connectivity by hand: the Move slot is dropped."""
    s = planned_game({1: first_card(R_MOVE)})
    s.wall[0] = 1  # E: with room 3's wall N below, room 0 is closed
    s.wall[3] = 0
    begin_turn(s, 1)
    assert mask_of(s) == {VEHICLE_CCW, VEHICLE_CW}
    play(GAME, s, VEHICLE_CW)
    assert s.actor == 2 and s.robber_room[YELLOW] == 0


def test_d2_crawling_to_the_same_room_is_illegal():
    s = planned_game({1: first_card(R_CRAWL)})
    s.robber_room[YELLOW] = 6
    begin_turn(s, 1)
    assert CRAWL_6 not in mask_of(s) and CRAWL_0 in mask_of(s)


def test_d3_pickup_takes_exactly_one_of_several_bags():
    s = planned_game({1: first_card(R_PICKUP)})
    place_bags(s, floor=[4, 4, 4])
    s.robber_room[YELLOW] = 4
    begin_turn(s, 1)
    play(GAME, s, PICKUP)
    assert carried(s, YELLOW) == 1 and floor_bags(s, 4) == 2


def test_d4_tackled_robber_drops_all_bags_unlocked():
    s = planned_game({0: [B_TACKLE, B_LOCK, B_MOVE, B_MOVE, B_MOVE]})
    place_bags(s, carried=[YELLOW, YELLOW, YELLOW])
    s.robber_room[YELLOW] = 3  # guard 0's room
    begin_turn(s, 0)
    play(GAME, s, TACKLE_YELLOW)
    assert floor_bags(s, 3, locked=0) == 3 and carried(s, YELLOW) == 0


def test_d5_trigger_with_every_guard_down_still_rings():
    s = planned_game()
    s.robber_room[YELLOW] = 4
    s.guard_awake[:2] = 0
    rooms = s.guard_room.copy()
    begin_turn(s, 1)
    play(GAME, s, TRIGGER_ALARM)
    assert s.alarm == RINGING and (s.guard_room == rooms).all()


def test_d6_alarm_returns_at_the_start_of_the_banks_next_turn():
    s = planned_game({0: [B_LOCK, B_DOUBLE_MOVE, B_MOVE, B_MOVE, B_MOVE], 1: first_card(R_MOVE)})
    s.robber_room[YELLOW] = 4
    s.guard_room[:2] = [0, 8]
    begin_turn(s, 1)
    play(GAME, s, TRIGGER_ALARM, MOVE_E)
    assert s.actor == 2 and s.alarm == RINGING  # still ringing during red's turn
    play(GAME, s, END_TURN)
    assert s.actor == 0 and s.cycle == 1 and s.alarm == ON_UNLOCKED


def test_d7_the_avenue_is_a_ring():
    s = planned_game({1: first_card(R_MOVE)})
    s.vehicle = 11
    begin_turn(s, 1)
    play(GAME, s, VEHICLE_CW)
    assert s.vehicle == 0


def test_d8_target_reached_mid_turn_ends_the_game_immediately():
    """The card's Move slot is still pending when the throw wins: it is never played."""
    s = planned_game({1: first_card(R_MOVE)})
    place_bags(s, stolen=3, carried=[YELLOW])
    s.robber_room[YELLOW] = 8
    s.vehicle = 6
    begin_turn(s, 1)
    play(GAME, s, THROW)
    assert s.status == TERMINATED and s.phase == GAME_OVER and s.slot_done[0] == 0


def test_d9_at_2_players_yellow_plans_and_plays_before_red():
    s = new_game(num_players=2)
    assert agent_names(2) == ["bank", "robber_yellow", "robber_red"]
    play(GAME, s, VEHICLE_CW)
    order = []
    while s.phase == PLAN:
        order.append(int(s.actor))
        play(GAME, s, int(legal_actions(GAME, s)[0]))
    assert order == [0, 1, 2] * 5


def test_d10_yellow_picks_the_street_and_the_bank_the_corner():
    s = new_game()
    assert s.actor == 1 and mask_of(s) == {VEHICLE_CCW, VEHICLE_CW}
    centre = new_game(layout=["T3", "T4", "T5", "T6", "T1", "T7", "T8", "P23", "T2"])
    assert centre.actor == 0


def test_d11_unlock_targets_a_locked_bag_or_the_locked_alarm_in_the_room():
    s = planned_game({1: first_card(R_UNLOCK_OR_PICKUP)})
    s.robber_room[YELLOW] = 4
    place_bags(s, locked=[5])
    s.alarm = ON_LOCKED  # in room 4
    begin_turn(s, 1)
    m = mask_of(s)
    assert UNLOCK_ALARM in m and UNLOCK_BAG not in m
    play(GAME, s, UNLOCK_ALARM)
    assert s.alarm == ON_UNLOCKED
    s.robber_room[YELLOW] = 5
    s.alarm = ON_LOCKED
    begin_turn(s, 1)
    m = mask_of(s)
    assert UNLOCK_BAG in m and UNLOCK_ALARM not in m


def test_d12_guards_never_move_bags():
    s = planned_game({0: [B_DOUBLE_MOVE, B_LOCK, B_MOVE, B_MOVE, B_MOVE]})
    place_bags(s, floor=[3, 4], carried=[RED])
    s.robber_room[RED] = 4
    before = (s.bag_where.copy(), s.bag_at.copy())
    begin_turn(s, 0)
    play(GAME, s, GUARD_0_MOVE_E, GUARD_0_MOVE_N)
    assert (s.bag_where == before[0]).all() and (s.bag_at == before[1]).all()


def test_d13_move_is_mandatory_other_slots_are_optional():
    s = planned_game({1: first_card(R_PICKUP)})
    s.robber_room[YELLOW] = 1
    begin_turn(s, 1)
    assert {PICKUP, END_TURN} <= mask_of(s)
    play(GAME, s, END_TURN)
    assert floor_bags(s, 1) == 1
    s = planned_game({1: first_card(R_MOVE)})
    begin_turn(s, 1)
    assert END_TURN not in mask_of(s)
    s = planned_game({0: [B_MOVE, B_LOCK, B_LOCK, B_MOVE, B_MOVE]})
    begin_turn(s, 0)
    assert END_TURN not in mask_of(s)


def test_d14_extra_action_before_or_after_the_card_not_between_two_slots():
    s = planned_game({1: first_card(R_PICKUP)})
    s.robber_room[YELLOW] = 1
    begin_turn(s, 1)
    play(GAME, s, PICKUP)
    assert {VEHICLE_CCW, VEHICLE_CW} <= mask_of(s)  # after the card
    place_bags(s, floor=[1])
    begin_turn(s, 1)
    play(GAME, s, VEHICLE_CW)
    assert s.actor == 1 and PICKUP in mask_of(s)  # before the card
    # A two-slot robber card loaded as data: Move then Pick up.
    s = planned_game({1: first_card(R_MOVE)})
    begin_turn(s, 1)
    s.card_slots[:] = [MOVE, PICKUP_SLOT, -1]
    play(GAME, s, MOVE_E)
    assert s.actor == 1 and not mask_of(s) & EXTRAS
    play(GAME, s, PICKUP)
    assert {VEHICLE_CCW, VEHICLE_CW} <= mask_of(s)


def test_d15_spray_hits_the_lowest_index_conscious_guard():
    s = planned_game({1: first_card(R_SPRAY)})
    s.robber_room[YELLOW] = 6
    s.guard_room[:2] = [6, 6]
    s.guard_awake[:2] = [0, 1]
    begin_turn(s, 1)
    play(GAME, s, SPRAY)
    assert s.guard_awake[:2].tolist() == [0, 0]


def test_d16_no_pass_to_an_unconscious_robber():
    s = planned_game({1: first_card(R_MOVE)})
    place_bags(s, carried=[YELLOW])
    s.robber_room[RED] = 0
    s.robber_awake[RED] = 0
    begin_turn(s, 1)
    assert PASS_TO_RED not in mask_of(s)


def test_d17_triggering_the_alarm_is_optional():
    s = planned_game({1: first_card(R_MOVE)})
    s.robber_room[YELLOW] = 1
    begin_turn(s, 1)
    play(GAME, s, MOVE_S)  # into the alarm room: nothing happens by itself
    assert s.alarm == ON_UNLOCKED
    assert {TRIGGER_ALARM, END_TURN} <= mask_of(s)
    play(GAME, s, END_TURN)
    assert s.alarm == ON_UNLOCKED


def test_d18_the_vehicle_moves_from_anywhere_even_under_guard():
    s = planned_game({1: first_card(R_MOVE)})
    s.robber_room[YELLOW] = 3  # with conscious guard 0, far from the vehicle
    begin_turn(s, 1)
    assert {VEHICLE_CCW, VEHICLE_CW} <= mask_of(s)


def test_d19_carried_bags_cannot_be_locked():
    s = planned_game({0: [B_TACKLE_OR_LOCK, B_LOCK, B_MOVE, B_MOVE, B_MOVE]})
    place_bags(s, carried=[YELLOW])
    s.robber_room[YELLOW] = 3
    begin_turn(s, 0)
    assert LOCK_BAG_0 not in mask_of(s) and TACKLE_YELLOW in mask_of(s)


def test_d20_enclosure_fix_is_automatic_and_deterministic():
    layout = ["T5", "T1", "T2", "T3", "T4", "T6", "T7", "T8", "P23"]
    a, b = new_game(layout=layout, seed=1), new_game(layout=layout, seed=2)
    assert a.rotation.tolist() == b.rotation.tolist() == [1] + [0] * 8
    assert a.phase == PLAN  # no setup decision for the fix


def test_d21_robbers_see_each_others_hands_the_bank_only_its_own():
    s = new_game()
    play(GAME, s, VEHICLE_CW)
    hands = part(obs(s, 2), "robber_hands").reshape(3, 8)
    assert (hands[YELLOW] == s.hand[1]).all() and (hands[RED] == s.hand[2]).all()
    assert (part(obs(s, 0), "robber_hands") == 0).all()
    assert (part(obs(s, 1), "own_hand") == s.hand[1]).all()


def test_d22_colours_by_player_count():
    assert agent_names(2) == agent_names(3) == ["bank", "robber_yellow", "robber_red"]
    assert agent_names(4)[-1] == "robber_green"


def test_d23_guard_i_starts_on_the_ith_badge_room():
    for seed in range(20):
        s = GAME.new_state(4, seed)[0]
        badges = [r for r in range(9) if TILE_BADGES[s.tile[r]]]
        assert s.guard_room.tolist() == badges


def test_d24_everyone_starts_the_next_round_conscious():
    s = planned_game({2: [R_MOVE, R_MOVE, R_MOVE, R_UNLOCK, R_UNLOCK]})
    s.robber_awake[:2] = 0
    s.guard_awake[:2] = 0
    s.robber_awake[RED] = 1
    begin_turn(s, 2, cycle=4)
    play(GAME, s, END_TURN)
    assert s.round_num == 2
    assert s.robber_awake[:2].tolist() == [1, 1] and s.guard_awake[:2].tolist() == [1, 1]


def test_d25_entering_a_room_of_the_other_side_has_no_effect():
    s = planned_game({1: first_card(R_MOVE)})
    place_bags(s, carried=[YELLOW])
    begin_turn(s, 1)
    play(GAME, s, MOVE_S)  # into guard 0's room 3
    assert s.robber_awake[YELLOW] == 1 and carried(s, YELLOW) == 1
    assert s.guard_awake[0] == 1


def test_d26_early_end_is_off_by_default_and_optional():
    for early_end, stolen, over in ((True, 1, True), (False, 1, False), (True, 2, False)):
        s = new_game(num_players=4, layout=None, early_end=early_end)
        s.round_num = 2
        place_bags(s, stolen=stolen)
        rules.end_round(s)  # 4 players: target 5, 3 bags in round 3
        assert (s.phase == GAME_OVER) == over
        if over:
            assert s.winner == BANK_WINS
        else:
            assert s.round_num == 3 and s.status == RUNNING


def test_d27_an_or_card_allows_exactly_one_action():
    s = planned_game({1: first_card(R_UNLOCK_OR_PICKUP)})
    place_bags(s, floor=[1], locked=[1])
    s.robber_room[YELLOW] = 1
    begin_turn(s, 1)
    play(GAME, s, PICKUP)
    assert UNLOCK_BAG not in mask_of(s) and PICKUP not in mask_of(s)


def test_d28_wake_guards_only_before_any_slot():
    s = planned_game({0: [B_DOUBLE_MOVE, B_LOCK, B_MOVE, B_MOVE, B_MOVE]})
    s.guard_awake[1] = 0
    begin_turn(s, 0)
    assert WAKE_GUARDS in mask_of(s)
    play(GAME, s, GUARD_0_MOVE_E)
    assert s.actor == 0 and WAKE_GUARDS not in mask_of(s)


def test_d29_no_guard_move_enters_its_start_room():
    s = planned_game({0: [B_DOUBLE_MOVE, B_LOCK, B_MOVE, B_MOVE, B_MOVE]})
    s.guard_awake[1] = 0
    begin_turn(s, 0)
    probe = s.copy()
    rules.rob_action(probe, GUARD_0_MOVE_N)  # 3 -> 0, before the automatic steps
    assert mask_of(probe) == {GUARD_0_MOVE_E}  # not back south to 3
    play(GAME, s, GUARD_0_MOVE_N)
    assert s.guard_room[0] == 1  # A5 played the only legal second step


def test_d30_vehicle_opposite_the_robbers_start():
    expected = {
        0: (5, 6),
        1: (7, -1),
        2: (8, 9),
        3: (4, -1),
        4: (-1, -1),
        5: (10, -1),
        6: (2, 3),
        7: (1, -1),
        8: (11, 0),
    }
    assert {r: tuple(VEHICLE_CANDIDATES[r].tolist()) for r in range(9)} == expected
    s = new_game(layout=["T3", "T4", "T5", "T1", "T6", "T7", "T8", "P23", "T2"])
    assert s.mask_room == 3 and s.vehicle == 4 and s.phase == PLAN


def test_d31_two_players_play_the_three_player_game():
    a, b = GAME.new_state(2, 11)[0], GAME.new_state(3, 11)[0]
    rng = np.random.default_rng(0)
    while a.status == RUNNING:
        legal = legal_actions(GAME, a)
        assert (legal == legal_actions(GAME, b)).all()
        action = int(rng.choice(legal))
        GAME.apply(a, action)
        GAME.apply(b, action)
        b.num_players = 2
        assert a.tobytes() == b.tobytes()
        b.num_players = 3


def test_d32_a_wall_blocks_only_the_throw_across_its_side():
    for room, vehicle, ok in ((8, 5, False), (8, 6, True), (2, 2, False), (2, 3, True)):
        s = planned_game({1: first_card(R_MOVE)})
        place_bags(s, carried=[YELLOW])
        s.robber_room[YELLOW] = room
        s.vehicle = vehicle
        begin_turn(s, 1)
        assert (THROW in mask_of(s)) == ok, (room, vehicle)


def test_d33_only_a_conscious_robber_can_be_tackled():
    s = planned_game({0: [B_TACKLE, B_LOCK, B_MOVE, B_MOVE, B_MOVE]})
    s.robber_room[:2] = [3, 3]
    s.robber_awake[YELLOW] = 0
    begin_turn(s, 0)
    m = mask_of(s)
    assert TACKLE_YELLOW not in m and TACKLE_RED in m


def test_d34_lock_bag_belongs_to_the_lowest_conscious_guard_of_the_room():
    s = planned_game({0: [B_LOCK, B_LOCK, B_MOVE, B_MOVE, B_MOVE]})
    s.guard_room[:2] = [5, 5]
    begin_turn(s, 0)
    m = mask_of(s)
    assert LOCK_BAG_0 in m and LOCK_BAG_1 not in m
    s.guard_awake[0] = 0
    begin_turn(s, 0)
    assert LOCK_BAG_1 in mask_of(s)


def test_d35_decks_are_slot_lists_and_a_move_tackle_card_works_as_data():
    bank_cards = [tuple(k for k in CARD_SLOTS[0, t] if k >= 0) for t in range(5)]
    assert (GMOVE, TACKLE) not in bank_cards and (TACKLE, GMOVE) not in bank_cards
    s = planned_game({0: [B_TACKLE, B_LOCK, B_MOVE, B_MOVE, B_MOVE]})
    s.robber_room[RED] = 3
    begin_turn(s, 0)
    s.card_slots[:] = [GMOVE, TACKLE, -1]
    m = mask_of(s)
    assert {TACKLE_RED, GUARD_0_MOVE_N} <= m and END_TURN not in m
    play(GAME, s, TACKLE_RED)
    assert s.actor == 0 and END_TURN not in mask_of(s)
    play(GAME, s, GUARD_0_MOVE_N)
    assert s.actor == 1 and s.robber_awake[RED] == 0


def test_a3_to_a6_never_ask_a_plan_automatically():
    """PLAN is always asked, even with one card type left (spec 7.4)."""
    s = new_game()
    play(GAME, s, VEHICLE_CW)
    s.hand[0] = 0
    s.hand[0, B_MOVE] = 8
    assert mask_of(s) == {PLAN_0 + B_MOVE} and s.phase == PLAN


def test_throw_adds_to_stolen_and_the_card_goes_on():
    s = planned_game({1: first_card(R_MOVE)})
    place_bags(s, stolen=1, carried=[YELLOW])
    s.robber_room[YELLOW] = 8
    s.vehicle = 6
    begin_turn(s, 1)
    play(GAME, s, THROW)
    assert s.stolen == 2 == (s.bag_where == STOLEN).sum()
    assert s.actor == 1 and mask_of(s) == {MOVE_N, MOVE_W}


def test_spec_5_3_a_conscious_guard_blocks_the_alarm_actions():
    """UNLOCK_ALARM and TRIGGER_ALARM need no conscious guard in the room; an unconscious one
    blocks nothing."""
    for alarm, action in ((ON_LOCKED, UNLOCK_ALARM), (ON_UNLOCKED, TRIGGER_ALARM)):
        s = planned_game()  # yellow's first card is Unlock
        s.robber_room[YELLOW] = 4
        s.guard_room[0] = 4
        s.alarm = alarm
        begin_turn(s, 1)
        assert action not in mask_of(s)
        s.guard_awake[0] = 0
        begin_turn(s, 1)
        assert action in mask_of(s)


def test_spec_5_6_lock_alarm_needs_a_conscious_guard_in_the_alarm_room():
    s = planned_game()  # the bank's Lock card; no floor bag in rooms 3 and 4
    s.guard_room[:2] = [4, 6]
    s.guard_awake[:2] = [0, 1]
    begin_turn(s, 0)
    assert mask_of(s) == {WAKE_GUARDS, END_TURN}
    s.guard_awake[0] = 1
    begin_turn(s, 0)
    assert mask_of(s) == {LOCK_ALARM, END_TURN}
    play(GAME, s, LOCK_ALARM)
    assert s.alarm == ON_LOCKED and s.actor == 1
