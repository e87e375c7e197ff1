"""Expert iteration (experiments.train.exit) on tiny budgets."""

import json

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

import torch  # noqa: E402

import heist_envs  # noqa: E402
from agents.arena import play  # noqa: E402
from agents.batch_search import BatchSearch  # noqa: E402
from agents.network import (  # noqa: E402
    NetworkEvaluator,
    PolicyValueNet,
    load_network,
    save_network,
)
from agents.ppo import PPOAgent  # noqa: E402
from agents.registry import make_agent  # noqa: E402
from experiments.common import read_csv  # noqa: E402
from experiments.train import arena_curve  # noqa: E402
from experiments.train import exit as expert  # noqa: E402

TINY = ["--iterations", "2", "--games-per-iteration", "4", "--simulations", "8"]
TINY += ["--eval-games", "4", "--net-arch", "16", "--epochs", "1"]


def test_self_play_records_the_search_policy_and_returns_relative_to_the_decider():
    game = heist_envs.get_game("how_to_rob_a_bank")
    net = PolicyValueNet(game.obs_size, game.num_actions, (8,), value_seats=4)
    search = BatchSearch(game, NetworkEvaluator(net), simulations=4, selection="puct", seed=0)
    (obs, masks, policies, values), _ = expert.self_play(game, 4, 1, search, seed=1)
    assert obs.shape == (len(masks), game.obs_size) and values.shape == (len(masks), 4)
    np.testing.assert_allclose(policies.sum(1), 1, rtol=1e-5)
    assert (policies[masks == 0] == 0).all() and (masks.sum(1) > 1).all()
    # one game: every row is its returns seen from the seat that decided (a rotation)
    rotations = {tuple(np.roll(values[0], -k)) for k in range(4)}
    assert {tuple(row) for row in values} <= rotations
    assert len({tuple(row) for row in values}) > 1  # both sides decided


def test_an_iteration_runs_end_to_end_and_its_checkpoint_plays_as_ppo(tmp_path):
    out = tmp_path / "run"
    net, result = expert.main(["--game", "art_robbery", "--players", "3", *TINY, "--out", str(out)])
    rows = read_csv(out / "exit.csv")
    assert [int(r["iteration"]) for r in rows] == [0, 1] and int(rows[1]["games"]) == 8
    assert int(rows[1]["decisions"]) > int(rows[0]["decisions"]) > 0
    assert result["games"] == 4 and (out / "learning_curve.png").stat().st_size > 0
    info = json.loads((out / "final.json").read_text())
    assert info["method"] == "exit" and info["num_players"] == 3 and info["value_seats"] == 3
    back, _ = load_network(out / "final.zip", "art_robbery", 3)
    for mine, theirs in zip(net.parameters(), back.parameters(), strict=True):
        torch.testing.assert_close(mine, theirs)
    agent = PPOAgent(out / "checkpoints" / "iter_1.zip", "art_robbery", num_players=3)
    others = [make_agent("random", "art_robbery", seed=s) for s in range(2)]
    assert len(play("art_robbery", [agent, *others], 3, seed=0).rewards) == 3
    # the run's curve head to head, over the wall-clock minutes each checkpoint had trained
    curve = arena_curve.main([str(out), "--games", "3", "--against", "random"])
    assert [row["iteration"] for row in curve] == [0, 1]
    minutes = [row["train_minutes"] for row in curve]
    last = json.loads((out / "checkpoints" / "iter_1.json").read_text())
    assert 0 < minutes[0] < minutes[1] == round(last["train_seconds"] / 60, 3)
    header = (out / "arena_curve.csv").read_text().splitlines()[0]
    assert header.startswith("iteration,train_minutes,side,games,win_rate")
    assert (out / "arena_curve.png").stat().st_size > 0


def test_a_run_can_start_from_a_policy_with_a_new_value_per_seat(tmp_path):
    game = heist_envs.get_game("art_robbery")
    policy = PolicyValueNet(game.obs_size, game.num_actions, (16,))  # one value: a ppo file
    path = save_network(policy, tmp_path / "policy", "art_robbery", 3)
    start, _ = load_network(path, "art_robbery", 3, policy_start=True)
    assert start.value_seats == 3 and start.hidden == [16]
    for layer, theirs in (
        (start.trunk[0], policy.trunk[0]),
        (start.policy_head, policy.policy_head),
    ):
        torch.testing.assert_close(layer.weight, theirs.weight)
    with pytest.raises(ValueError, match="one per seat"):  # a search guide still needs one
        load_network(path, "art_robbery", 3)
    out = tmp_path / "run"
    expert.main(
        ["--game", "art_robbery", "--players", "3", *TINY, "--init", str(path), "--out", str(out)]
    )
    info = json.loads((out / "final.json").read_text())
    assert info["init"] == str(path) and info["value_seats"] == 3 and info["net_arch"] == [16]


@pytest.mark.parametrize(
    "flags, message",
    [
        (["--games-per-iteration", "5000"], "--games-per-iteration must be 1 to 4096, got 5000"),
        (["--simulations", "0"], "--simulations must be at least 1"),
        (["--games-per-iteration", "4096", "--simulations", "2000"], "tree nodes; at most"),
        (["--mix", "1.5"], "--mix must be between 0 and 1, got 1.5"),
        (["--players", "9"], "players"),
        (
            ["--init", "agents/policies/art_robbery_3p.zip"],
            "with 3 players, not art_robbery with 4",
        ),
    ],
)
def test_bad_flags_stop_the_run_in_one_line(tmp_path, capsys, flags, message):
    with pytest.raises(SystemExit) as stop:
        expert.main(["--game", "art_robbery", *flags, "--out", str(tmp_path / "run")])
    assert stop.value.code == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and message in err, err
    assert not (tmp_path / "run").exists()
