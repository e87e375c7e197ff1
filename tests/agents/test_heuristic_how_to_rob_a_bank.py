"""How to Rob a Bank's heuristic, rule of thumb by rule of thumb: each test builds a position,
names the move the heuristic must play and the one it must not. Robbers are seats 1 (yellow)
and 2 (red), the bank seat 0; the layout is L0 (tests/how_to_rob_a_bank/positions.py) unless
a test says otherwise."""

import numpy as np
import pytest

from heist_envs.how_to_rob_a_bank import GAME
from heist_envs.how_to_rob_a_bank.actions import (
    CORNER_0,
    CORNER_2,
    CORNER_6,
    CORNER_8,
    END_TURN,
    LOCK_BAG_0,
    MOVE_E,
    MOVE_N,
    PLAN_0,
    TACKLE_RED,
    TACKLE_YELLOW,
    THROW,
    VEHICLE_CCW,
    VEHICLE_CW,
    WAKE_GUARDS,
)
from heist_envs.how_to_rob_a_bank.state import PLAN, SETUP_CORNER, SETUP_STREET
from tests.helpers import heuristic_moves, play
from tests.how_to_rob_a_bank.positions import (
    B_DOUBLE_MOVE,
    B_LOCK,
    B_MOVE,
    B_TACKLE,
    R_CRAWL,
    R_MOVE,
    RED,
    YELLOW,
    begin_turn,
    first_card,
    mask_of,
    new_game,
    place_bags,
    planned_game,
)

#: the mask in room 0 and this round's bags in rooms 5, 6, 7 and 8: two rooms away at least
FAR_BAGS = ["T1", "T2", "T6", "T7", "T8", "T3", "T4", "T5", "P23"]
#: L0 at four players (its 2-3 player tile swapped for the 4-player one)
L0_4 = ["T1", "T4", "T3", "T7", "T2", "P4", "T6", "T8", "T5"]


def test_the_bank_puts_the_vehicle_at_a_corner_far_from_the_bags():
    # this layout's bags are in rooms 0, 1, 2 (the top row) and 7
    s = new_game(layout=["T3", "T4", "T5", "T6", "T1", "T7", "T8", "P23", "T2"])
    assert s.phase == SETUP_CORNER and s.actor == 0
    moves = heuristic_moves(GAME, s)
    assert moves == {CORNER_6, CORNER_8}
    assert not moves & {CORNER_0, CORNER_2}


def test_the_robbers_put_the_vehicle_where_a_bag_room_can_throw_into_it():
    # the candidates both face room 8, a bag room, but its wall faces the counter-clockwise one
    s = new_game()
    assert s.phase == SETUP_STREET and s.actor == 1
    assert heuristic_moves(GAME, s) == {VEHICLE_CW}


def test_the_bank_plans_its_double_move_first():
    s = new_game()
    play(GAME, s, VEHICLE_CW)
    assert s.phase == PLAN and s.actor == 0 and PLAN_0 + B_MOVE in mask_of(s)
    assert heuristic_moves(GAME, s) == {PLAN_0 + B_DOUBLE_MOVE}


@pytest.mark.parametrize(
    ("crawls", "first"), [(1, R_CRAWL), (0, R_MOVE)], ids=["crawl-for-a-long-trip", "moves"]
)
def test_a_robber_plans_a_crawl_for_a_long_trip_and_moves_without_one(crawls, first):
    s = new_game(layout=FAR_BAGS)
    play(GAME, s, VEHICLE_CW, PLAN_0 + B_MOVE)
    assert s.phase == PLAN and s.actor == 1
    hand = np.array([3, 1, 1, 0, crawls, 0, 0, 0], np.int8)  # moves, a pick-up, an unlock
    s.aside[1] += s.hand[1] - hand
    s.hand[1] = hand
    assert heuristic_moves(GAME, s) == {PLAN_0 + first}


def test_a_robber_throws_whenever_it_can():
    s = planned_game({1: first_card(R_MOVE)})
    place_bags(s, carried=[YELLOW])
    s.robber_room[YELLOW] = 8
    s.vehicle = 6  # faces room 8
    begin_turn(s, 1)
    assert MOVE_N in mask_of(s)
    assert heuristic_moves(GAME, s) == {THROW}


def test_a_robber_without_a_bag_moves_toward_the_nearest_one():
    s = planned_game({1: first_card(R_MOVE)})
    s.robber_room[YELLOW] = 7  # room 8 east has a bag; room 4 north has none
    begin_turn(s, 1)
    assert heuristic_moves(GAME, s) == {MOVE_E}


def test_a_robber_carrying_a_bag_heads_for_the_room_the_vehicle_faces():
    # from the centre every side room is a move away: the vehicle faces room 5, east
    s = planned_game({1: first_card(R_MOVE)})
    place_bags(s, carried=[YELLOW])
    s.robber_room[YELLOW] = 4
    s.vehicle = 4
    begin_turn(s, 1)
    assert heuristic_moves(GAME, s) == {MOVE_E}


@pytest.mark.parametrize(("vehicle", "toward"), [(0, VEHICLE_CW), (8, VEHICLE_CCW)])
def test_a_spare_extra_action_drives_the_vehicle_toward_the_next_throw(vehicle, toward):
    # yellow carries a bag in room 5 (its street space: 4) and its card, an Unlock, does nothing
    s = planned_game()
    place_bags(s, carried=[YELLOW])
    s.robber_room[YELLOW] = 5
    s.vehicle = vehicle
    begin_turn(s, 1)
    assert mask_of(s) == {VEHICLE_CCW, VEHICLE_CW, END_TURN}
    assert heuristic_moves(GAME, s) == {toward}


@pytest.mark.parametrize("carrier", [YELLOW, RED])
def test_a_guard_tackles_the_bag_carrier_first(carrier):
    s = planned_game({0: [B_TACKLE, B_DOUBLE_MOVE, B_MOVE, B_MOVE, B_MOVE]})
    s.robber_room[[YELLOW, RED]] = 2
    s.guard_room[0] = 2
    place_bags(s, floor=[1, 5], carried=[carrier])
    begin_turn(s, 0)
    assert {TACKLE_YELLOW, TACKLE_RED} <= mask_of(s)
    assert heuristic_moves(GAME, s) == {TACKLE_YELLOW if carrier == YELLOW else TACKLE_RED}


def test_a_guard_locks_a_floor_bag_rather_than_end_the_turn():
    s = planned_game({0: [B_LOCK, B_LOCK, B_MOVE, B_MOVE, B_MOVE]})
    place_bags(s, floor=[3])
    s.guard_room[0] = 3
    begin_turn(s, 0)
    assert mask_of(s) == {LOCK_BAG_0, END_TURN}
    assert heuristic_moves(GAME, s) == {LOCK_BAG_0}


def test_the_bank_wakes_its_guards_when_half_are_down():
    s = planned_game()
    s.guard_awake[:2] = [0, 1]
    begin_turn(s, 0)
    assert mask_of(s) == {WAKE_GUARDS, END_TURN}
    assert heuristic_moves(GAME, s) == {WAKE_GUARDS}


def test_the_bank_does_not_wake_its_guards_for_one_of_three():
    s = planned_game(num_players=4, layout=L0_4)
    s.guard_awake[:3] = [0, 1, 1]
    begin_turn(s, 0)
    assert mask_of(s) == {WAKE_GUARDS, END_TURN}
    assert heuristic_moves(GAME, s) == {END_TURN}
