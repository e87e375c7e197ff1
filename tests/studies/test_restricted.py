"""Restricted play: the agent wrapper, its bad input, the position rules and the study."""

import numpy as np
import pytest

from agents.base import RandomAgent
from agents.how_to_rob_a_bank.restrictions import BankNeverPlans
from agents.restricted import RestrictedAgent, forbidden_ids, make_restricted
from agents.thiefs_market.restrictions import NeverBuy
from agents.toits_de_paris.restrictions import MaxReveals
from experiments.studies.data import play_games
from experiments.studies.restricted import restricted_play
from heist_envs.how_to_rob_a_bank.observation import LAYOUT as BANK_LAYOUT
from heist_envs.thiefs_market.observation import LAYOUT as MARKET_LAYOUT
from heist_envs.toits_de_paris.actions import CONTINUE
from heist_envs.toits_de_paris.observation import LAYOUT as TOITS_LAYOUT


def test_forbidden_ids_from_ids_and_kinds():
    assert forbidden_ids("art_robbery", ["play the Greedy Thief", 18]).tolist() == [8, 18]
    assert forbidden_ids("toits_de_paris", "use the joker").tolist() == [10, 11, 12, 13, 14]


@pytest.mark.parametrize(
    "forbid, message",
    [
        ([20], r"action id 20 is out of range; allowed: 0 to 19"),
        ([-1], "out of range"),
        (["steal"], "unknown action kind 'steal'; kinds: play a Number card"),
        ([], "nothing to forbid"),
        (list(range(20)), "every action is forbidden"),
        ([1.5], "forbid takes action ids and action kind names"),
    ],
)
def test_forbidden_ids_bad_input(forbid, message):
    with pytest.raises(ValueError, match=message):
        forbidden_ids("art_robbery", forbid)


def test_restricted_agent_never_plays_a_forbidden_action_it_can_avoid():
    agent = RestrictedAgent(RandomAgent(0), "art_robbery", forbid=["play the Greedy Thief"])
    data = play_games("art_robbery", [agent, "random"], games=30, num_players=2, seed=1,
                      rotate=False, progress=False)  # fmt: skip
    moves = data.decisions
    mine = moves[(moves["seat"] == 0) & (moves["action_kind"] == "play the Greedy Thief")]
    theirs = moves[(moves["seat"] == 1) & (moves["action_kind"] == "play the Greedy Thief")]
    assert len(theirs) > 30  # the unrestricted seat plays it often
    assert len(mine) == agent.unrestricted_decisions  # only when nothing else was legal
    assert agent.decisions == (moves["seat"] == 0).sum()


def test_everything_forbidden_plays_unrestricted():
    agent = RestrictedAgent(RandomAgent(0), "toits_de_paris", forbid=["stop", "continue"])
    mask = np.zeros(16, np.int8)
    mask[[0, 1]] = 1
    assert agent.act(np.zeros(1), mask) in (0, 1)
    assert agent.unrestricted_decisions == 1
    mask[2] = 1
    assert agent.act(np.zeros(1), mask) == 2


def test_rules_read_the_observation():
    toits = np.zeros(TOITS_LAYOUT["pending_draws"].stop, np.float32)
    toits[TOITS_LAYOUT["revealed"].start + 2] = 1
    assert MaxReveals(2)(toits) == [CONTINUE] and MaxReveals(3)(toits) == []
    market = np.zeros(MARKET_LAYOUT["num_players"].stop, np.int16)
    market[MARKET_LAYOUT["market_card"].start + 7] = 48  # a Treasure Map; card 49 is the other
    market[MARKET_LAYOUT["market_card"].start + 9] = 49
    assert NeverBuy("Treasure Map")(market) == [28 + 7, 28 + 9]
    assert NeverBuy("Fence")(market) == []
    with pytest.raises(ValueError, match="no card is called 'Fence!'"):
        NeverBuy("Fence!")
    bank = np.zeros(BANK_LAYOUT["observer"].stop, np.int8)
    bank[BANK_LAYOUT["observer"].start] = 1
    assert BankNeverPlans(3)(bank) == [3]
    bank[BANK_LAYOUT["observer"].start : BANK_LAYOUT["observer"].start + 2] = [0, 1]
    assert BankNeverPlans(3)(bank) == []


def test_make_restricted_bad_agent():
    with pytest.raises(ValueError, match="unknown agent 'nobody'"):
        make_restricted("art_robbery", agent="nobody", forbid=[1])


def test_a_crippling_restriction_loses():
    """Never revealing a second card in Les Toits de Paris costs the heuristic most wins."""
    result = restricted_play("toits_de_paris", rule=MaxReveals(1), games=60, num_players=2,
                             seed=1, workers=1, progress=False)  # fmt: skip
    frame = result.frame
    assert set(frame["agent"]) == {"restricted", "heuristic"}
    assert result.win_rate() < 0.2 < 0.8 < result.win_rate("heuristic")
    assert result.effect < -0.6
    effect = result.effects.loc["all"]
    assert effect["effect"] == pytest.approx(result.effect)
    assert effect["effect_low"] <= result.effect <= effect["effect_high"] < 0  # 0 is out
    row = frame[frame["agent"] == "restricted"].iloc[0]
    assert row["win_low"] <= row["win_rate"] <= row["win_high"]
    assert "revealing more than 1 cards" in result.table()
    assert "   60 seat-games" in result.table()


def test_team_games_report_each_side():
    result = restricted_play("how_to_rob_a_bank", rule=BankNeverPlans(0), agent="random",
                             games=8, num_players=3, seed=1, workers=1, progress=False)  # fmt: skip
    sides = result.frame.groupby("agent")["side"].apply(list).to_dict()
    assert sides["restricted"] == ["all", "bank", "robber_yellow+robber_red"]
    assert result.frame.loc[result.frame["side"] == "bank", "games"].tolist() == [4, 4]
    effects = result.effects
    assert effects.index.tolist() == ["all", "bank", "robber_yellow+robber_red"]
    assert (effects["effect_low"] <= effects["effect"]).all()
    assert (effects["effect"] <= effects["effect_high"]).all()


def test_restricted_play_bad_input():
    with pytest.raises(ValueError, match="out of range"):
        restricted_play("thiefs_market", forbid=[76], games=2, progress=False)
    with pytest.raises(ValueError, match="games must be at least 1"):
        restricted_play("thiefs_market", forbid=[75], games=0, progress=False)
