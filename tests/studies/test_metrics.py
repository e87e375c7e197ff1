"""Game metrics: each one on games whose answer is known, the command and docs/metrics.md."""

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import heist_envs
from agents.stats import Z95, wilson_interval
from experiments.studies.data import GameData
from experiments.studies.metrics import game_metrics, lead_changes, markdown, metrics
from tests.test_cli import run

DOC = Path(__file__).resolve().parents[2] / "docs" / "metrics.md"


def made_up(scores_by_game, finals, rewards, truncated, legal):
    """Two-seat Art Robbery data: running scores per decision, final scores and rewards."""
    decisions, games = [], []
    for g, scores in enumerate(scores_by_game):
        for d, (a, b) in enumerate(scores):
            decisions.append(
                {"game": g, "decision": d, "seat": d % 2, "agent": "x", "legal_actions": legal[g],
                 "action": 0, "action_kind": "play a Number card", "score_0": a, "score_1": b}
            )  # fmt: skip
        r0, r1 = rewards[g]
        games.append(
            {"game": g, "decisions": len(scores), "rounds": len(scores) / 2,
             "truncated": truncated[g], "reward_0": r0, "reward_1": r1,
             "won_0": r0 > 0 and r0 >= r1, "won_1": r1 > 0 and r1 >= r0,
             "agent_0": "x", "agent_1": "x", "score_0": finals[g][0], "score_1": finals[g][1]}
        )  # fmt: skip
    frame = pd.DataFrame(games)
    frame["winning_sides"] = frame["won_0"].astype(int) + frame["won_1"].astype(int)
    frame["shared_win"] = frame["winning_sides"] > 1
    return GameData("art_robbery", 2, pd.DataFrame(decisions), frame)


@pytest.fixture
def data():
    return made_up(
        scores_by_game=[
            [(0, 0), (1, 0), (1, 2), (1, 2), (3, 2)],  # leaders: -, 0, 1, 1, 0: 2 changes
            [(0, 0), (2, 0), (2, 2), (2, 1)],  # -, 0, tie, 0: no change
            [(0, 0), (0, 1)],  # -, 1, then the final scores make 0 the leader: 1 change
        ],
        finals=[(3, 2), (2, 1), (4, 1)],
        rewards=[(1, -1), (1, 1), (0, 0)],
        truncated=[False, False, True],
        legal=[2, 4, 9],
    )


def test_lead_changes(data):
    assert lead_changes(data).tolist() == [2, 0, 1]


def test_game_metrics(data):
    result = game_metrics(data)
    assert result["games"] == 3
    assert result["decisions"]["mean"] == pytest.approx(11 / 3)
    assert result["decisions"]["max"] == 5
    low, high = result["decisions"]["low"], result["decisions"]["high"]
    half = Z95 * np.std([5, 4, 2], ddof=1) / np.sqrt(3)
    assert (low, high) == pytest.approx((11 / 3 - half, 11 / 3 + half))
    branching = result["branching"]
    assert branching["mean"] == pytest.approx((2 * 5 + 4 * 4 + 9 * 2) / 11)
    assert branching["max"] == 9 and branching["per_game"]["mean"] == pytest.approx(5.0)
    assert branching["per_game"]["low"] < 5.0 < branching["per_game"]["high"]
    first, second = result["win_rate_by_side"]
    assert (first["wins"], second["wins"]) == (2, 1)
    assert first["win_low"] < 2 / 3 < first["win_high"]
    assert result["first_side_advantage"] == pytest.approx(2 / 3 - 0.5)
    assert result["shared_win_rate"] == pytest.approx(1 / 3)
    assert result["no_winner_rate"] == pytest.approx(1 / 3)
    assert result["truncation_rate"] == pytest.approx(1 / 3)
    assert result["lead_changes"]["mean"] == pytest.approx(1.0)
    assert result["action_kind_rate"]["play a Number card"] == 1.0
    assert result["action_kind_rate"]["take a token"] == 0.0


def test_metrics_are_reproducible_and_complete():
    one = metrics("how_to_rob_a_bank", games=30, num_players=3, seed=4, progress=False)
    two = metrics("how_to_rob_a_bank", games=30, num_players=3, seed=4, progress=False)
    assert one == two
    assert one["lead_changes"] is None  # no per-seat score race
    assert [s["side"] for s in one["win_rate_by_side"]] == ["bank", "robber_yellow+robber_red"]
    assert sum(s["win_rate"] for s in one["win_rate_by_side"]) == pytest.approx(1.0)
    assert sum(one["action_kind_rate"].values()) == pytest.approx(1.0)
    text = markdown([one])
    assert "## How to Rob a Bank" in text and "| random | 3 | 30 |" in text
    assert "Rounds: at most 3 in a heist." in text


def test_metrics_command_writes_json(tmp_path, capsys):
    path = tmp_path / "m.json"
    argv = ["metrics", "toits_de_paris", "--players", "2", "--games", "10", "--json", str(path)]
    status, text = run(argv + ["--no-progress"], capsys)
    assert status == 0 and "branching factor" in text
    saved = json.loads(path.read_text())
    assert saved["games"] == 10 and saved["players"] == 2 and saved["agents"] == ["random"]


def test_metrics_command_plays_a_heuristic_table_batched_as_one_at_a_time(tmp_path, capsys):
    argv = ["metrics", "art_robbery", "--players", "2", "--agents", "heuristic", "random"]
    argv += ["--games", "6"]
    for route in ("batched", "serial"):
        path = tmp_path / f"{route}.json"
        status, _ = run(argv + ["--route", route, "--json", str(path), "--no-progress"], capsys)
        assert status == 0
    assert json.loads((tmp_path / "batched.json").read_text()) == json.loads(path.read_text())


def test_metrics_command_names_the_rounds_once(capsys):
    argv = ["metrics", "thiefs_market", "--players", "3", "--games", "2", "--no-progress"]
    status, text = run(argv, capsys)
    assert status == 0 and " rounds (one Divide and one Purchase phase each)" in text
    assert "rounds (rounds" not in text


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--games", "0"], "games must be a positive integer"),
        (["--agents", "bogus"], "unknown agent 'bogus'"),
        (["--players", "7"], "out of range"),
        (["--json", "/nonexistent-folder/m.json"], "cannot write"),
        (["--route", "fast"], "invalid choice: 'fast'"),
    ],
)
def test_metrics_command_bad_input(argv, message, capsys, tmp_path):
    status, text = run(["metrics", "art_robbery", "--games", "3", *argv], capsys)
    assert status == 2 and message in text and "Traceback" not in text


def test_metrics_doc_covers_every_game_and_player_count():
    """docs/metrics.md is regenerated by ``python -m experiments.studies.metrics
    docs/metrics.md`` (a few minutes: too long to check here); it must cover every game."""
    text = DOC.read_text()
    for name in heist_envs.game_names():
        game = heist_envs.get_game(name)
        assert f"## {game.title}" in text
        section = text.split(f"## {game.title}")[1].split("\n## ")[0]
        for players in range(game.min_players, game.max_players + 1):
            assert f"| random | {players} |" in section
            assert f"| heuristic | {players} |" in section


@pytest.mark.parametrize("wins, games", [(0, 200), (0, 75), (75, 75), (3, 7)])
def test_wilson_interval_holds_the_rate(wins, games):
    """At a rate of 0 the lower bound is 0 itself, not a rounding error above it (which made
    matplotlib reject the notebooks' error bars)."""
    low, high = wilson_interval(wins, games)
    assert 0.0 <= low <= wins / games <= high <= 1.0
