"""The checks the trainers share (experiments.train.checks): each bad value is a ValueError
that names the flag and what it may be."""

import argparse

import pytest

from experiments.train import checks, rllib


def test_whole_numbers_are_checked_against_their_least_values():
    args = argparse.Namespace(steps=0, games=None, workers=3)
    with pytest.raises(ValueError, match="^--steps must be at least 1, got 0$"):
        checks.check_least(args, {"steps": 1})
    checks.check_least(args, {"games": 1, "workers": 1})  # None: left to its default


@pytest.mark.parametrize("rate", [0.0, -3e-4, 1.5, float("nan"), float("inf")])
def test_a_learning_rate_is_above_0_and_at_most_1(rate):
    with pytest.raises(ValueError, match="--lr must be above 0 and at most 1"):
        checks.check_learning_rate("lr", rate)


def test_good_rates_and_shares_pass():
    checks.check_learning_rate("lr", 1.0)
    checks.check_learning_rate("lr", 3e-4)
    checks.check_share("beta", 0.0)
    with pytest.raises(ValueError, match="--beta must be between 0 and 1, got -0.1"):
        checks.check_share("beta", -0.1)


def test_a_policy_for_another_game_or_count_is_refused_as_an_opponent():
    stages = checks.parse_stages(["random,ppo:path=agents/policies/art_robbery.zip:100"], 7)
    with pytest.raises(ValueError, match="was trained for art_robbery with 4 players, not .* 3"):
        checks.check_opponents(stages, "heuristic", "art_robbery", 0, 3)
    with pytest.raises(ValueError, match="--eval-opponents nobody: unknown agent 'nobody'"):
        checks.check_opponents([], "nobody", "art_robbery", 0, 3)
    checks.check_opponents(stages, "heuristic", "art_robbery", 0, 4)


@pytest.mark.parametrize(
    "flags, message",
    [
        (["--lr", "-3"], "--lr must be above 0 and at most 1"),
        (["--batch-size", "0"], "--batch-size must be at least 1, got 0"),
        (["--minibatch-size", "0"], "--minibatch-size must be at least 1, got 0"),
        (["--pool-size", "-1"], "--pool-size must be at least 0, got -1"),
    ],
)
def test_rllib_flags_are_checked_before_ray_starts(flags, message):
    with pytest.raises(ValueError, match=message):
        rllib.parse_args(["--game", "art_robbery", *flags])
