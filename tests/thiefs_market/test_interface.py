"""Thief's Market's options and test hooks, action names, observation layout and render."""

import numpy as np
import pytest

import heist_envs
from heist_envs.thiefs_market import GAME
from heist_envs.thiefs_market.actions import (
    END_TURN,
    EXIT_STRATEGY,
    FINISH_TAKE,
    GAUNTLET,
    LAA_REROLL_0,
    NUM_ACTIONS,
    PAY_DIE,
    PAY_GOLD,
    TAKE_ALL,
    action_name,
    convert_gem_action,
    convert_gem_faces,
)
from heist_envs.thiefs_market.components import CARD_DECK, CARD_NAMES
from heist_envs.thiefs_market.observation import LAYOUT, OBS_SIZE
from heist_envs.thiefs_market.state import P_PAY, STAGE_NAMES, TRIMMED
from tests.thiefs_market.builders import (
    A_ROW,
    B_ROW,
    B,
    G,
    R,
    buy,
    card,
    check_invariants,
    convert,
    jeweller,
    new_game,
    open_rows,
    play,
    purchases,
    put_in_market,
    spend,
    steal,
    take,
    to_purse,
    waive,
)

A_IDS = list(range(16, 3, -1))  # 13 A cards (ids 16..4), top first
B_IDS = list(range(35, 23, -1))
C_IDS = list(range(49, 38, -1))


def test_deck_order_option_fixes_row_a_the_decks_and_the_trim():
    s = new_game(3, deck_order={"A": A_IDS, "B": B_IDS, "C": C_IDS})
    assert (s.market[:5] + 1).tolist() == A_IDS[:5]
    assert (s.deck[0, : s.deck_size[0]][::-1] + 1).tolist() == A_IDS[5:]
    assert (s.deck[1, : s.deck_size[1]][::-1] + 1).tolist() == B_IDS
    assert (s.deck[2, : s.deck_size[2]][::-1] + 1).tolist() == C_IDS
    assert sorted(np.flatnonzero(s.owner == TRIMMED) + 1) == [1, 2, 3] + list(range(17, 24)) + [
        36,
        37,
        38,
    ]
    check_invariants(s)
    partial = new_game(3, seed=4, deck_order={"C": C_IDS})
    assert (partial.deck[2, : partial.deck_size[2]][::-1] + 1).tolist() == C_IDS
    check_invariants(partial)


def test_dice_option_fixes_the_first_roll():
    s = new_game(5, dice=[1, 2, 3, 4, 2, 1])
    assert s.centre.tolist() == [1, 2, 3, 4, 2, 1]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"first_player": 3}, "first_player must be a seat 0..2"),
        ({"first_player": "last"}, "first_player"),
        ({"max_rounds": 0}, "max_rounds must be an integer"),
        ({"max_rounds": 2.5}, "max_rounds"),
        ({"deck_order": {"D": []}}, "keys among"),
        ({"deck_order": {"A": A_IDS[:12]}}, "must list 13 different card ids of deck A"),
        ({"deck_order": {"A": A_IDS[:12] + [20]}}, "deck A"),
        ({"deck_order": {"A": A_IDS[:12] + [A_IDS[0]]}}, "different"),
        ({"dice": [1, 1, 1, 1, 1, 1]}, "summing to 10"),
        ({"dice": [10, 0, 0, 0, 0]}, "6 counts"),
        ({"dice": [11, -1, 0, 0, 0, 0]}, ">= 0"),
    ],
)
def test_bad_options_raise_value_errors_that_say_what_is_allowed(options, message):
    with pytest.raises(ValueError, match=message):
        GAME.new_state(3, 0, options)


def test_action_names_are_readable():
    s = new_game(4)
    open_rows(s, B_ROW)
    put_in_market(s, B_ROW, 3, card("Brooch"))
    assert action_name(buy(B_ROW, 3), s) == "buy B-row slot 3 (Brooch)"
    assert action_name(buy(B_ROW, 3)) == "buy B-row slot 3"
    assert action_name(convert(R, B)) == "Alchemical Lab: red→blue"
    assert action_name(to_purse(G)) == "Pawnbroker: green→purse"
    assert action_name(jeweller(B)) == "Legitimate Jeweller: purse→blue"
    assert action_name(spend(R)) == "Tailor: spend a red die for 1 infamy"
    assert action_name(GAUNTLET) == "Gauntlet of Evil Intent: spend a mask die for 1 gold"
    assert action_name(EXIT_STRATEGY) == "Exit Strategy: pay 1 gold for 2 infamy"
    assert action_name(steal(2)) == "steal pile of player +2"
    assert action_name(steal(2), s) == "steal pile of player 2 (+2)"
    assert action_name(take(G)) == "take a green die"
    assert action_name(waive(B)) == "Insurance Racket: waive a blue gem"
    assert action_name(LAA_REROLL_0 + R) == "Lucky Animal Appendage: reroll a red die"
    assert action_name(END_TURN) == "end purchase turn"
    names = [action_name(a) for a in range(NUM_ACTIONS)]
    assert len(set(names)) == NUM_ACTIONS
    with pytest.raises(ValueError, match="out of range"):
        action_name(NUM_ACTIONS)


def test_action_ids_match_the_spec_table():
    assert (FINISH_TAKE, TAKE_ALL, PAY_DIE, PAY_GOLD, GAUNTLET, END_TURN) == (8, 7, 47, 48, 73, 75)
    assert [convert_gem_action(0, t) for t in (1, 2, 3)] == [49, 50, 51]
    assert [convert_gem_action(3, t) for t in (0, 1, 2)] == [58, 59, 60]
    pairs = [(f, t) for f in range(4) for t in range(4) if f != t]
    assert [convert_gem_faces(convert_gem_action(f, t)) for f, t in pairs] == pairs
    assert sorted(convert_gem_action(f, t) for f, t in pairs) == list(range(49, 61))
    assert (steal(1), steal(4), buy(0, 0), buy(2, 4), waive(0), jeweller(0)) == (
        9,
        12,
        28,
        42,
        43,
        61,
    )
    assert (to_purse(0), spend(0), EXIT_STRATEGY, NUM_ACTIONS) == (65, 69, 74, 76)


def test_layout_names_every_part_of_the_observation():
    covered = np.zeros(OBS_SIZE, np.int64)
    for part in LAYOUT.values():
        covered[part] += 1
    assert (covered == 1).all() and GAME.obs_size == OBS_SIZE == 1283  # as documented


def test_observation_shows_the_market_payment_and_seats_relative_to_the_observer():
    s = new_game(4)
    tailor = card("Tailor")
    put_in_market(s, A_ROW, 2, tailor)
    purchases(s, {0: "R", 1: "G", 2: "G", 3: "G"}, pawn=0)
    s.gold[0] = 1
    play(s, buy(A_ROW, 2))
    assert s.stage == P_PAY
    obs = np.zeros(OBS_SIZE, GAME.obs_dtype)
    GAME.observe(s, 1, obs)
    assert obs[LAYOUT["stage"]][P_PAY] == 1 and obs[LAYOUT["need"]].tolist() == [0, 0, 0, 1]
    assert obs[LAYOUT["pending_card"]][tailor] == 1
    assert obs[LAYOUT["actor"]].tolist() == [0, 0, 0, 1, 0]  # seat 0 is 3 seats after seat 1
    assert obs[LAYOUT["market_card"]][2] == 0
    assert obs[LAYOUT["market"]].reshape(15, 49)[2].sum() == 0
    pile = obs[LAYOUT["pile"]].reshape(5, 6)
    assert pile[3].tolist() == [0, 0, 0, 1, 0, 0] and obs[LAYOUT["has_pawn"]][3] == 1
    assert obs[LAYOUT["seat_in_game"]].tolist() == [1, 1, 1, 1, 0]
    assert obs[LAYOUT["num_players"]].tolist() == [0, 1, 0]
    GAME.observe(s, 0, obs)
    slot0 = s.market[0]
    assert obs[LAYOUT["market_card"]][0] == slot0 + 1
    assert obs[LAYOUT["market"]].reshape(15, 49)[0, slot0] == 1
    assert obs[LAYOUT["allowed_buys"]][0] == 1 and obs[LAYOUT["buys_made"]][0] == 0


def test_render_shows_the_table_and_hides_deck_order_from_seats():
    s = new_game(3)
    put_in_market(s, A_ROW, 0, card("Tailor"))
    spectator = GAME.render(s)
    seat_view = GAME.render(s, 1)
    assert "round 1" in spectator and STAGE_NAMES[0] in spectator and "Tailor (1R)" in seat_view
    assert "deck A (top first)" in spectator and "trimmed" in spectator
    assert "top first" not in seat_view and "trimmed" not in seat_view
    assert "player 1 (you)" in seat_view
    hidden = [CARD_NAMES[x] for x in range(49) if s.owner[x] == TRIMMED and CARD_DECK[x] == 2]
    assert all(name not in seat_view for name in hidden if name != "Treasure Map")


def test_env_plays_a_game_and_reports_scores_in_infos():
    env = heist_envs.make("thiefs_market", num_players=3, render_mode="ansi")
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    assert "Thief's Market" in env.render()
    while env.state_record.status == 0:
        env.step(int(rng.choice(env.legal_actions())))
    info = env.infos["player_0"]
    assert {"score", "card_vp", "infamy_vp", "henchman_award", "gold_award", "cards"} <= set(info)
    rewards = [env.rewards[a] for a in env.possible_agents]
    assert max(rewards) == 1 or rewards == [0, 0, 0]
