"""Each game's score breakdown (who won and why) agrees with the returns the kernel reports."""

import json
import re

import numpy as np
import pytest

import heist_envs
from heist_envs.core.breakdown import CUT_SHORT, ranking
from tests.helpers import random_playout

NAMES = ["a", "b", "c"]


def winners_by_returns(game, s):
    """The seats the kernel rewards as winners: a positive return (Les Toits de Paris gives
    1/k to k co-winners, the others +1)."""
    out = np.zeros(game.num_seats(int(s.num_players)), np.float32)
    game.returns(s, out)
    return [p for p, r in enumerate(out) if r > 0]


@pytest.mark.parametrize("name", heist_envs.game_names())
def test_the_breakdown_names_the_winners_the_kernel_rewards(name):
    game = heist_envs.get_game(name)
    for num_players in range(game.min_players, game.max_players + 1):
        for seed in range(6):
            s = random_playout(game, num_players, seed)[0]
            result = game.score_breakdown(s)
            assert json.loads(json.dumps(result)) == result
            assert result["winners"] == winners_by_returns(game, s)
            names = game.agent_names(num_players)
            assert all(len(c["values"]) == len(names) for c in result["columns"])
            if name != "how_to_rob_a_bank":  # the robbers' seats win as "the robbers"
                assert all(names[p] in result["text"] for p in result["winners"])


def test_art_robbery_shows_the_points_before_the_fewest_alibis_penalty():
    game = heist_envs.get_game("art_robbery")
    for num_players, penalty in (
        (2, r"the fewest alibis \(\d+\) and loses? 10 points"),
        (4, r"the fewest alibis \(\d+\) and scores? 0"),
    ):
        s = random_playout(game, num_players, 3)[0]
        columns = {c["label"]: c["values"] for c in game.score_breakdown(s)["columns"]}
        assert columns["score"] == game.scores(s)["score"]
        points, fine = np.array(columns["token points"]), np.array(columns["fewest-alibis penalty"])
        assert (points + fine == columns["score"]).all()
        caught = np.array(columns["alibis"]) == min(columns["alibis"])
        assert (fine[~caught] == 0).all()
        assert (fine[caught] == (-10 if num_players == 2 else -points[caught])).all()
        assert re.search(penalty, game.score_breakdown(s)["text"])


def test_a_game_cut_short_has_no_winner():
    game = heist_envs.get_game("art_robbery")
    s = random_playout(game, 4, 1, options={"max_turns": 5})[0]
    result = game.score_breakdown(s)
    assert (result["winners"], result["text"]) == ([], CUT_SHORT)


def test_thiefs_market_breakdown_adds_up_to_the_score():
    game = heist_envs.get_game("thiefs_market")
    s = random_playout(game, 4, 2)[0]
    columns = {c["label"]: c["values"] for c in game.score_breakdown(s)["columns"]}
    parts = ("card VP", "infamy", "henchmen", "gold")
    assert np.sum([columns[p] for p in parts], axis=0).tolist() == columns["score"]


@pytest.mark.parametrize(
    "keys, winners, text",
    [
        ([("points", [3, 9, 4])], [1], "b wins with 9 points."),
        (
            [("points", [9, 9, 4]), ("alibis", [2, 5, 7])],
            [1],
            "a and b tie on 9 points; b wins on most alibis (5 against 2).",
        ),
        (
            [("points", [9, 9, 9]), ("cards", [4, 4, 2]), ("tokens", [1, 1, 6])],
            [0, 1],
            "a, b and c tie on 9 points; a and b have the most cards (4) and 1 tokens, "
            "and share the win.",
        ),
        ([("points", [5, 5, 5])], [0, 1, 2], "a, b and c tie on 5 points, and share the win."),
    ],
)
def test_ranking_names_what_decided_the_win(keys, winners, text):
    assert ranking(NAMES, keys) == (winners, text)
