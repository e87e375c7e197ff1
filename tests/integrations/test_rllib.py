"""The RLlib integration: every game passes RLlib's own environment check, forfeits end an
episode, the league maps seats to modules, bad input fails fast with one line, and (slow) a
tiny self-play run trains, checkpoints and exports a policy that plays in the arena."""

import json
import os
import time
from types import SimpleNamespace

import numpy as np
import pytest

pytest.importorskip("ray.rllib")

from ray.rllib.utils.pre_checks.env import check_multiagent_environments  # noqa: E402

import heist_envs  # noqa: E402
from experiments.cli import main as heist  # noqa: E402
from experiments.train.rllib import HEURISTIC, League  # noqa: E402
from heist_envs.integrations.rllib import (  # noqa: E402
    HeistMultiAgentEnv,
    observation_space,
    seat_policies,
)


def play_masked(env, seed):
    """A whole game of uniformly random legal actions; the last step's results."""
    rng = np.random.default_rng(seed)
    observations, _ = env.reset(seed=seed)
    while True:
        ((agent, observation),) = observations.items()
        assert env.observation_spaces[agent].contains(observation)
        legal = np.flatnonzero(observation["action_mask"])
        observations, rewards, terminated, truncated, _ = env.step({agent: rng.choice(legal)})
        if terminated["__all__"] or truncated["__all__"]:
            return observations, rewards, terminated, truncated


@pytest.mark.parametrize("game", heist_envs.game_names())
def test_every_game_passes_rllibs_environment_check(game):
    env = HeistMultiAgentEnv({"game": game})
    for _ in range(3):  # its random action is illegal in most positions, legal in some
        check_multiagent_environments(env)
    observations, rewards, terminated, truncated = play_masked(env, seed=3)
    assert set(observations) == set(rewards) == set(env.agents)
    for observation in observations.values():
        assert observation["observations"].dtype == np.float32
        assert observation["action_mask"].dtype == np.float32
    assert terminated["__all__"] != truncated["__all__"]


@pytest.mark.parametrize("game", heist_envs.game_names())
def test_observation_spaces_have_the_games_finite_bounds(game):
    """Issue 29 item 9: Les Toits de Paris declared Box(-inf, inf)."""
    space = observation_space(heist_envs.get_game(game))["observations"]
    low, high = heist_envs.get_game(game).obs_bounds
    assert np.isfinite(space.low).all() and np.isfinite(space.high).all()
    assert (space.low == low).all() and (space.high == high).all()


def test_final_rewards_are_the_games():
    env = HeistMultiAgentEnv({"game": "art_robbery", "num_players": 3})
    _, rewards, terminated, _ = play_masked(env, seed=5)
    assert terminated["__all__"]
    assert rewards == env.env.rewards and sorted(set(rewards.values())) in ([-1.0, 1.0], [1.0])


def test_an_illegal_action_ends_the_episode_as_a_loss_for_the_offenders_side():
    env = HeistMultiAgentEnv({"game": "how_to_rob_a_bank", "num_players": 4})
    observations, _ = env.reset(seed=1)
    ((agent, observation),) = observations.items()
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    observations, rewards, terminated, _, _ = env.step({agent: illegal})
    assert terminated["__all__"] and set(observations) == set(env.agents)
    offender_team = env.game.teams(4)[env.agents.index(agent)]
    for other, team in zip(env.agents, env.game.teams(4), strict=True):
        assert rewards[other] == (-1.0 if team == offender_team else 0.0)


def test_symmetric_games_share_one_policy_and_the_bank_game_has_one_per_side():
    art = heist_envs.get_game("art_robbery")
    bank = heist_envs.get_game("how_to_rob_a_bank")
    assert seat_policies(art, 4) == ["main"] * 4
    assert seat_policies(bank, 4) == ["bank", "robbers", "robbers", "robbers"]
    assert seat_policies(bank, 2) == ["bank", "robbers", "robbers"]


def test_the_league_draws_once_per_episode_and_the_learning_side_plays_its_policy():
    bank = heist_envs.get_game("how_to_rob_a_bank")
    league = League(
        tuple(bank.agent_names(4)), tuple(seat_policies(bank, 4)), tuple(bank.teams(4)), ("it5",)
    )
    seen = set()
    for k in range(200):
        episode = SimpleNamespace(id_=f"episode-{k}")
        modules = [league(agent, episode) for agent in league.agents]
        assert modules == [league(agent, episode) for agent in league.agents]
        assert modules[1] == modules[2] == modules[3]  # the robbers are one side
        assert "bank" in modules or "robbers" in modules  # one side learns
        seen.add(tuple(modules))
    assert seen == {
        ("bank", "robbers", "robbers", "robbers"),
        ("bank", HEURISTIC, HEURISTIC, HEURISTIC),
        (HEURISTIC, "robbers", "robbers", "robbers"),
        ("bank", "robbers_it5", "robbers_it5", "robbers_it5"),
        ("bank_it5", "robbers", "robbers", "robbers"),
    }


@pytest.mark.parametrize(
    "flags, message",
    [
        (["--game", "chess"], "unknown game 'chess'; available: art_robbery"),
        (["--game", "thiefs_market", "--players", "2"], "out of range; allowed: 3 to 5"),
        (["--game", "art_robbery", "--address", "nowhere"], "--address takes HOST:PORT"),
        (["--game", "art_robbery", "--address", "127.0.0.1:1"], "no Ray cluster answers at"),
        (["--game", "art_robbery", "--iterations", "0"], "--iterations must be at least 1"),
    ],
)
def test_bad_input_is_one_line_within_seconds(flags, message, capsys, tmp_path):
    start = time.perf_counter()
    with pytest.raises(SystemExit) as exit:
        heist(["train", "--backend", "rllib", *flags, "--out", str(tmp_path)])
    assert time.perf_counter() - start < 10
    text = str(exit.value.code)
    assert text.startswith("heist train --backend rllib: error: ") and message in text
    assert "\n" not in text and "Traceback" not in capsys.readouterr().err


@pytest.mark.slow
def test_a_short_self_play_run_trains_checkpoints_and_exports_a_playable_agent(tmp_path):
    from agents.arena import tournament
    from agents.registry import make_agent
    from agents.rllib import load_module

    out = tmp_path / "run"
    heist(
        ["train", "--backend", "rllib", "--game", "how_to_rob_a_bank", "--players", "2"]
        + ["--iterations", "2", "--env-runners", "1", "--batch-size", "2000"]
        + ["--minibatch-size", "500", "--epochs", "1", "--hidden", "16"]
        + ["--snapshot-every", "1", "--eval-every", "1", "--eval-games", "4"]
        + ["--out", str(out), "--no-progress"]
    )
    metrics = (out / "metrics.csv").read_text().splitlines()
    evals = (out / "eval.csv").read_text().splitlines()
    assert len(metrics) == 3 and len(evals) == 3 and (out / "learning_curve.png").exists()
    assert int(metrics[-1].split(",")[3]) >= 400  # env steps sampled
    # training changed the weights of both sides' policies. Each episode draws which side
    # learns and whether the other plays itself, so a side learns in an iteration only if one
    # of its episodes drew it: 2,000 steps (many episodes) make that near certain, where 200
    # (one or two episodes) sometimes left a side untrained.
    for policy in ("bank", "robbers"):
        first = load_module(str(out / "checkpoints" / "iter_0001"), policy).state_dict()
        assert (out / "final" / "weights" / f"{policy}.pt").is_file()
        final = load_module(str(out / "final"), policy).state_dict()
        assert any(not np.array_equal(first[k], final[k]) for k in final)
    # the exported policy plays every seat in the arena, with Ray shut down
    agent = make_agent("rllib", "how_to_rob_a_bank", checkpoint=str(out / "final"))
    assert agent.num_players == 2
    result = tournament(
        "how_to_rob_a_bank",
        [f"rllib:checkpoint={out / 'final'}", "heuristic"],
        games=2,
        num_players=2,
        workers=1,
        progress=False,
    )
    assert not result.forfeits and result.summary[0]["games"] == 2


def test_the_rllib_agent_refuses_a_folder_that_is_not_a_checkpoint_for_its_game(tmp_path):
    from agents.registry import make_agent
    from agents.rllib import write_checkpoint_info
    from heist_envs.core.errors import GameRecordError

    with pytest.raises(GameRecordError, match="heist.json is missing"):
        make_agent("rllib", "art_robbery", checkpoint=str(tmp_path))
    write_checkpoint_info(tmp_path, "toits_de_paris", 4, ["main"] * 4, [16])
    with pytest.raises(GameRecordError, match="trained for toits_de_paris with 4 players"):
        make_agent("rllib", "art_robbery", checkpoint=str(tmp_path))
    with pytest.raises(ValueError, match="needs checkpoint=PATH"):
        make_agent("rllib", "art_robbery")


class Payload:
    """Pickles as a call that creates a folder: loading it must not run it."""

    def __init__(self, marker):
        self.marker = str(marker)

    def __reduce__(self):
        return (os.makedirs, (self.marker,))


def tiny_checkpoint(folder, payload_marker=None, export=True):
    """A checkpoint folder of heist train --backend rllib for Art Robbery at 3 players: its
    heist.json, the weights-only export of a fresh module (``export``; returned), and
    RLlib's pickled module files holding ``Payload(payload_marker)`` where one is given."""
    import pickle

    from agents.rllib import MODULES_DIR, write_checkpoint_info

    game = heist_envs.get_game("art_robbery")
    folder.mkdir(exist_ok=True)
    write_checkpoint_info(folder, game.name, 3, seat_policies(game, 3), hidden=[16])
    if payload_marker is not None:
        pickled = folder / MODULES_DIR / "main"
        pickled.mkdir(parents=True)
        for name in ("class_and_ctor_args.pkl", "module_state.pkl"):
            (pickled / name).write_bytes(pickle.dumps(Payload(payload_marker)))
    if export:
        from agents.rllib import trained_module_spec, write_weights

        module = trained_module_spec(game, [16]).build()
        write_weights(folder, {"main": module.get_state()})
        return module
    return None


def test_an_rllib_checkpoint_is_not_unpickled_unless_trusted(tmp_path, capsys):
    """Issue 29 item 1: RLModule.from_checkpoint unpickled the module files, so a checkpoint
    folder could run any code (here: create a folder) when an agent was made from it."""
    from agents.registry import make_agent
    from heist_envs.core.errors import GameRecordError

    marker = tmp_path / "ran"
    folder = tmp_path / "checkpoint"
    tiny_checkpoint(folder, payload_marker=marker, export=False)
    with pytest.raises(GameRecordError, match="if you trust its source, load it with trusted=True"):
        make_agent("rllib", "art_robbery", num_players=3, checkpoint=str(folder))
    with pytest.raises(SystemExit):
        heist(
            ["arena", "art_robbery", "--players", "3", "--games", "1", "--workers", "1"]
            + ["--agents", f"rllib:checkpoint={folder}", "random", "--no-progress"]
        )
    assert "trusted=True" in capsys.readouterr().err
    assert not marker.exists()


def test_the_weights_only_export_plays_without_unpickling(tmp_path):
    """What heist train --backend rllib writes beside RLlib's files (weights/<module>.pt) is
    read with torch.load(weights_only=True); RLlib's pickled files are never opened."""
    from ray.rllib.core.columns import Columns

    from agents.registry import make_agent

    marker = tmp_path / "ran"
    import torch

    module = tiny_checkpoint(tmp_path, payload_marker=marker)
    agent = make_agent("rllib", "art_robbery", num_players=3, checkpoint=str(tmp_path))
    env = heist_envs.make("art_robbery", num_players=3)
    env.reset(seed=4)
    observation = env.last()[0]
    batch = {
        Columns.OBS: {
            "observations": torch.as_tensor(observation["observation"])[None],
            "action_mask": torch.as_tensor(observation["action_mask"], dtype=torch.float32)[None],
        }
    }
    with torch.no_grad():
        logits = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS][0]
    assert agent.act(observation["observation"], observation["action_mask"]) == int(logits.argmax())
    assert not marker.exists()


def test_a_tampered_weights_export_is_refused_in_one_line(tmp_path):
    from agents.registry import make_agent
    from heist_envs.core.errors import GameRecordError

    marker = tmp_path / "ran"
    import torch

    tiny_checkpoint(tmp_path)
    torch.save({"x": Payload(marker)}, tmp_path / "weights" / "main.pt")
    with pytest.raises(GameRecordError, match="pickled Python objects"):
        make_agent("rllib", "art_robbery", num_players=3, checkpoint=str(tmp_path))
    assert not marker.exists()
    info = json.loads((tmp_path / "heist.json").read_text())
    for key, value, message in [
        ("seat_policies", ["../x"] * 3, "'seat_policies' must be \\['main', 'main', 'main'\\]"),
        ("hidden", [16, -1], "'hidden' must be a list of positive layer widths"),
        ("num_players", "3", "'num_players' must be a player count 2 to 5"),
    ]:
        (tmp_path / "heist.json").write_text(json.dumps({**info, key: value}))
        with pytest.raises(GameRecordError, match=message):
            make_agent("rllib", "art_robbery", num_players=3, checkpoint=str(tmp_path))


def test_metrics_rows_have_each_seats_return():
    """Issue 29 item 11: with one shared policy RLlib's episode return is the sum over seats,
    a constant; each seat's return is logged too."""
    from experiments.train.rllib import metrics_row

    art = heist_envs.get_game("art_robbery")
    league = League(tuple(art.agent_names(3)), tuple(seat_policies(art, 3)), tuple(art.teams(3)))
    result = {
        "env_runners": {
            "num_env_steps_sampled_lifetime": 800,
            "agent_episode_returns_mean": {"player_0": 1.0, "player_1": -1.0},
        }
    }
    row = metrics_row(2, result, ["main"], 1.0, league)
    assert row["env_steps"] == 800
    assert row["player_0_return_mean"] == 1.0 and row["player_1_return_mean"] == -1.0
    assert np.isnan(row["player_2_return_mean"])


@pytest.mark.slow
def test_metrics_count_the_steps_of_every_runner_even_a_slow_one(tmp_path, monkeypatch):
    """Issue 29 item 11: on a loaded two-node cluster metrics.csv's first row had 0 env steps
    and NaN rewards. RLlib drops the episodes of a runner slower than its sample timeout (60 s
    by default); here every runner is slower than a timeout of 10 ms."""
    import csv

    from ray.rllib.algorithms.ppo import PPOConfig

    configure = PPOConfig.__init__

    def slow_runners(self, *args, **kwargs):
        configure(self, *args, **kwargs)
        self.sample_timeout_s = 0.01

    monkeypatch.setattr(PPOConfig, "__init__", slow_runners)
    out = tmp_path / "run"
    heist(
        ["train", "--backend", "rllib", "--game", "art_robbery", "--players", "3"]
        + ["--iterations", "2", "--env-runners", "2", "--batch-size", "400"]
        + ["--minibatch-size", "200", "--epochs", "1", "--hidden", "16", "--pool-size", "0"]
        + ["--eval-every", "2", "--eval-games", "2", "--out", str(out), "--no-progress"]
    )
    with (out / "metrics.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert [int(row["env_steps"]) >= 400 * k for k, row in enumerate(rows, 1)] == [True, True]
    for row in rows:
        returns = [float(row[f"player_{seat}_return_mean"]) for seat in range(3)]
        assert all(np.isfinite(returns)), row
