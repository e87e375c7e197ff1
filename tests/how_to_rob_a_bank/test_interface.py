"""How to Rob a Bank's Python side: options, action names, observation layout, determinize,
text render and the PettingZoo environment."""

import numpy as np
import pytest

import heist_envs
from heist_envs.how_to_rob_a_bank import GAME
from heist_envs.how_to_rob_a_bank.actions import (
    CRAWL_4,
    END_TURN,
    GUARD_1_MOVE_E,
    NUM_ACTIONS,
    PLAN_3,
    PLAN_5,
    VEHICLE_CW,
)
from heist_envs.how_to_rob_a_bank.components import DECK_COUNTS, TILE_NAMES
from heist_envs.how_to_rob_a_bank.observation import LAYOUT, OBS_SIZE
from heist_envs.how_to_rob_a_bank.state import PLAN
from tests.helpers import play

from .positions import (
    L0,
    R_MOVE,
    YELLOW,
    first_card,
    new_game,
    obs,
    part,
    place_bags,
    planned_game,
    tile_ids,
)


def test_action_names_are_readable():
    assert GAME.action_name(PLAN_3) == "PLAN_3 (robber: Pepper spray | bank: Tackle)"
    assert GAME.action_name(GUARD_1_MOVE_E) == "guard 1 moves E"
    assert GAME.action_name(CRAWL_4) == "crawl to room 4"
    assert GAME.action_name(END_TURN) == "end turn"
    names = [GAME.action_name(a) for a in range(NUM_ACTIONS)]
    assert len(set(names)) == NUM_ACTIONS
    s = new_game()
    play(GAME, s, VEHICLE_CW)
    assert GAME.action_name(PLAN_3, s) == "plan Tackle"  # the bank plans
    assert GAME.action_name(PLAN_5, s) == "PLAN_5 (unused)"  # the bank has no card 5
    with pytest.raises(ValueError, match="out of range"):
        GAME.action_name(NUM_ACTIONS)


def test_layout_names_every_part_of_the_observation():
    covered = np.zeros(OBS_SIZE, int)
    for part_slice in LAYOUT.values():
        covered[part_slice] += 1
    assert (covered == 1).all()
    assert {"stacks", "own_hand", "robber_hands", "vehicle", "room_wall", "slot_pending"} <= set(
        LAYOUT
    )


def test_tile_layouts_option_accepts_names_and_ids():
    by_name = new_game(layout=L0)
    by_id = GAME.new_state(3, 0, {"tile_layouts": [tile_ids(L0)]})[0]
    assert by_name.tile.tolist() == by_id.tile.tolist() == tile_ids(L0)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"tile_layouts": [["T1"] * 9]}, "each tile in play"),
        ({"tile_layouts": [L0[:8] + ["P4"]]}, "each tile in play"),
        ({"tile_layouts": [L0] * 4}, "1 to 3 layouts"),
        ({"hands": [[0] * 8]}, "one hand per seat"),
        ({"hands": [[0] * 8, [0] * 8, [0] * 8]}, "seat 0"),
        ({"hands": [[0, 0, 0, 0, 1, 1, 1, 2]] * 3}, "seat 1"),
    ],
)
def test_bad_options_raise_a_clear_value_error(options, message):
    with pytest.raises(ValueError, match=message):
        GAME.new_state(3, 0, options)


def test_hands_option_fixes_the_round_1_draw():
    bank = [0, 0, 1, 1, 2, 3, 4, 4]
    robber = [0, 0, 0, 1, 2, 3, 4, 5]
    s = GAME.new_state(3, 0, {"hands": [bank, robber, robber], "tile_layouts": [L0]})[0]
    play(GAME, s, VEHICLE_CW)
    assert s.phase == PLAN
    assert s.hand[0].tolist() == np.bincount(bank, minlength=8).tolist()
    assert (s.hand[1] + s.aside[1] == DECK_COUNTS[1]).all()


def test_determinize_redeals_only_the_other_sides_hand_split():
    s = new_game()
    play(GAME, s, VEHICLE_CW)
    for seat in (0, 1):
        changed = False
        for seed in range(20):
            other = s.copy()
            GAME.determinize(other, seat, seed)
            assert (obs(other, seat) == obs(s, seat)).all()
            same_side = [0] if seat == 0 else [1, 2]
            for p in range(3):
                assert (other.hand[p] + other.aside[p] == s.hand[p] + s.aside[p]).all()
                assert other.hand[p].sum() == s.hand[p].sum()
                if p in same_side:
                    assert (other.hand[p] == s.hand[p]).all()
                else:
                    changed |= bool((other.hand[p] != s.hand[p]).any())
        assert changed


def test_render_draws_rooms_walls_pieces_and_the_avenue():
    s = planned_game({1: first_card(R_MOVE)})
    place_bags(s, floor=[1], carried=[YELLOW], locked=[8], stolen=1)
    text = GAME.render(s)
    for tile in L0:
        assert tile in text
    assert "################" in text  # room 2's north wall and room 6's south wall
    assert "<VAN>" in text and "s11" in text
    assert "Y+1" in text and "G0" in text and "L1" in text and "stolen 1/4" in text
    assert GAME.render(s, 0).count("hidden cards") == 0  # hands are empty in Phase 3


def test_render_hides_the_other_sides_hands():
    s = new_game()
    play(GAME, s, VEHICLE_CW)
    spectator = GAME.render(s)
    bank_view = GAME.render(s, 0)
    yellow_view = GAME.render(s, 1)
    assert "hidden" not in spectator
    assert bank_view.count("8 hidden cards") == 2  # both robbers
    assert yellow_view.count("8 hidden cards") == 1  # the bank only


def test_pettingzoo_env_plays_a_whole_game_with_team_rewards():
    env = heist_envs.make("how_to_rob_a_bank", num_players=4, render_mode="ansi")
    env.reset(seed=3)
    assert env.agents == ["bank", "robber_yellow", "robber_red", "robber_green"]
    rng = np.random.default_rng(3)
    while not all(env.terminations.values()):
        env.step(int(rng.choice(env.legal_actions())))
    rewards = [env.rewards[a] for a in env.agents]
    assert rewards[0] == -rewards[1] and len(set(rewards[1:])) == 1
    assert "game over" in env.render()


def test_tile_names_are_unique():
    assert len(set(TILE_NAMES)) == len(TILE_NAMES)
    assert part(obs(new_game(), 0), "target").tolist() == [4]
