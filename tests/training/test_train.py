"""The training script end to end on a tiny budget, and checkpoints loaded as agents."""

import json

import numpy as np
import pytest
import torch

pytest.importorskip("sb3_contrib")

import heist_envs  # noqa: E402
from agents.arena import play  # noqa: E402
from agents.base import RandomAgent  # noqa: E402
from agents.ppo import PPOAgent, export_policy, load_policy, shipped_policy  # noqa: E402
from experiments.train import arena_curve, checks, evaluate  # noqa: E402
from experiments.train import sb3 as train  # noqa: E402
from heist_envs.core.errors import GameRecordError  # noqa: E402
from heist_envs.core.single_agent import PolicyOpponent  # noqa: E402


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    out = tmp_path_factory.mktemp("run")
    args = ["--game", "art_robbery", "--players", "3", "--timesteps", "3000", "--n-envs", "16"]
    args += ["--snapshot-every", "1000", "--eval-games", "30"]
    train.main(args + ["--opponents", "random,self", "--out", str(out)])
    return out


def test_training_writes_logs_checkpoints_and_a_learning_curve(trained):
    for name in ("progress.csv", "eval.csv", "final.zip", "final.json", "learning_curve.png"):
        assert (trained / name).exists(), name
    assert list((trained / "checkpoints").glob("step_*.zip"))
    rows = (trained / "eval.csv").read_text().splitlines()
    assert rows[0].startswith("timesteps,elapsed_s,win_rate,ci_low,ci_high")
    steps = [int(row.split(",")[0]) for row in rows[1:]]
    # the untrained policy first, then points during the run (a fifth of it apart by
    # default, for a short run), then the trained one: 3,072 steps, whole rollouts of 512
    assert steps[0] == 0 and steps[-1] == 3072 and steps == sorted(steps)
    assert len([s for s in steps if 0 < s < 3072]) >= 4
    info = json.loads((trained / "final.json").read_text())
    assert info["game"] == "art_robbery" and info["num_players"] == 3
    assert 0 < info["env_share"] < 1
    assert info["opponents"] == ["random,self:3000"] and info["seed"] == 0
    assert info["timesteps"] == 3072
    assert info["learning_rate"] == 3e-4 and info["ent_coef"] == 0.01  # PPO_SETTINGS
    assert info["win_rate_vs_heuristic"]["games"] == 30  # evaluated against the heuristic


def test_stages_parse_pools_and_budgets():
    assert checks.parse_stages(["random,self:400", "heuristic"], 7) == [
        (["random", "self"], 400),
        (["heuristic"], 7),
    ]
    for stage in ["heuristic:lots", "random:-5", "random:0"]:
        with pytest.raises(ValueError, match="STEPS must be a whole number of at least 1"):
            checks.parse_stages([stage], 7)
    with pytest.raises(SystemExit):
        train.parse_args(["--game", "art_robbery", "--opponents", "heuristic:1e5"])


def test_stages_read_agent_specs_with_parameters():
    stages = ["heuristic:weights=tuned,self:500", "heuristic:weights=x.json"]
    assert checks.parse_stages(stages, 7) == [
        (["heuristic:weights=tuned", "self"], 500),
        (["heuristic:weights=x.json"], 7),
    ]
    assert checks.parse_stages(["ismcts:simulations=50,rollout=fast,random:300"], 7) == [
        (["ismcts:simulations=50,rollout=fast", "random"], 300)
    ]
    assert checks.parse_stages(["my.module:Bot", "path/bot.py:Bot:300"], 7) == [
        (["my.module:Bot"], 7),
        (["path/bot.py:Bot"], 300),
    ]


def test_opponent_specs_resolve_to_the_engines_opponents():
    from heist_envs.core.single_agent import AgentOpponent, PolicyOpponent, RandomOpponent

    opponents = evaluate.make_opponents("random,ppo,ismcts:simulations=5", "art_robbery", 0, 4)
    assert [type(o) for o in opponents] == [RandomOpponent, PolicyOpponent, AgentOpponent]
    assert opponents[2].agent.simulations == 5


@pytest.mark.parametrize(
    "flags, message",
    [
        (["--opponents", "nobody,self"], "--opponents nobody,self: unknown agent 'nobody'"),
        (
            ["--game", "toits_de_paris", "--opponents", "heuristic:weights=no/such.json"],
            "cannot read heuristic weights from no/such.json",
        ),
        (
            ["--opponents", "heuristic:weights=tuned"],
            "the art_robbery heuristic has no weights to replace; games with weights: toits_de",
        ),
        (
            ["--opponents", "random,ppo:path=agents/policies/thiefs_market.zip:500"],
            "was trained for thiefs_market with 4 players, not art_robbery with 3",
        ),
        (
            ["--opponents", "ppo:path=agents/policies/art_robbery.zip"],
            "was trained for art_robbery with 4 players, not art_robbery with 3",
        ),
        (["--eval-opponents", "heuristic,nobody"], "--eval-opponents heuristic,nobody: unknown"),
        (["--arena-games", "-1"], "--arena-games must be at least 0, got -1"),
        (["--n-steps", "0"], "--n-steps must be at least 1, got 0"),
        (["--n-epochs", "0"], "--n-epochs must be at least 1, got 0"),
        (["--target-kl", "0"], "--target-kl must be above 0 (leave it out for no limit)"),
        (["--gae-lambda", "1.5"], "--gae-lambda must be between 0 and 1"),
        # issue 52: this one trained 0 steps, saved a policy and exited 0
        (["--opponents", "random:-5"], "--opponents 'random:-5': STEPS must be a whole number"),
        (["--opponents", "random:0"], "--opponents 'random:0': STEPS must be a whole number"),
        (["--timesteps", "0"], "--timesteps must be at least 1, got 0"),
        (["--opponents", "random", "--timesteps", "-5"], "--timesteps must be at least 1, got -5"),
        (["--learning-rate", "-1"], "--learning-rate must be above 0 and at most 1"),
        (["--learning-rate", "0"], "--learning-rate must be above 0 and at most 1"),
        (["--learning-rate", "nan"], "--learning-rate must be above 0 and at most 1"),
        (["--eval-games", "0"], "--eval-games must be at least 1, got 0"),
        (["--eval-every", "0"], "--eval-every must be at least 1, got 0"),
        (["--n-envs", "0"], "--n-envs must be at least 1, got 0"),
        (["--n-envs", "1", "--n-steps", "1"], "a rollout (--n-envs games times --n-steps)"),
        (["--pool-size", "0"], "--pool-size must be at least 1, got 0"),
        (["--critic-warmup", "-1"], "--critic-warmup must be at least 0"),
        (["--players", "9"], "art_robbery: num_players=9 is out of range; allowed: 2 to 5"),
    ],
)
def test_bad_flags_and_opponent_specs_get_one_clear_line_before_anything_trains(
    flags, message, tmp_path, capsys
):
    out = tmp_path / "run"
    args = ["--game", "art_robbery", "--players", "3", "--out", str(out), *flags]
    with pytest.raises(SystemExit) as exit_info:
        train.main(args)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err and "Traceback" not in err
    assert not out.exists()


def test_each_stage_says_it_plays_whole_rollouts(tmp_path, capsys):
    """A stage ends at the first whole rollout that reaches its steps: the line and the bar
    say how many that is."""
    args = ["--game", "art_robbery", "--players", "3", "--n-envs", "8", "--eval-games", "4"]
    train.main(args + ["--opponents", "random:600", "--out", str(tmp_path)])
    out, err = capsys.readouterr()
    line = "stage 1/1: 768 steps against random (600 asked, rounded up to whole rollouts of "
    assert line + "256: 8 games x 32 steps)" in out
    assert "768/768" in err.split("\r")[-1]
    assert json.loads((tmp_path / "final.json").read_text())["timesteps"] == 768


def test_warm_start_and_critic_warmup_train_the_critic_alone_then_the_actor(trained, tmp_path):
    out = tmp_path / "tuned"
    args = ["--game", "art_robbery", "--players", "3", "--n-envs", "16", "--eval-games", "10"]
    args += ["--init", str(trained / "final.zip"), "--critic-warmup", "600"]
    args += ["--opponents", "heuristic:600", "--eval-every", "100000", "--out", str(out)]
    args += ["--learning-rate", "2e-5", "--ent-coef", "0", "--target-kl", "0.02"]
    args += ["--n-steps", "8", "--n-epochs", "3", "--gae-lambda", "1"]
    model = train.main(args)
    assert model.learning_rate == 2e-5 and model.ent_coef == 0.0 and model.target_kl == 0.02
    assert model.n_steps == 8 and model.n_epochs == 3 and model.gae_lambda == 1.0
    start = PPOAgent(trained / "final.zip", "art_robbery").policy.state_dict()
    after = model.policy.state_dict()
    assert not torch.equal(start["action_net.weight"], after["action_net.weight"])
    info = json.loads((out / "final.json").read_text())
    assert info["init"] == str(trained / "final.zip") and info["opponents"] == ["heuristic:600"]
    assert info["learning_rate"] == 2e-5 and info["ent_coef"] == 0.0 and info["target_kl"] == 0.02
    assert info["n_steps"] == 8 and info["n_epochs"] == 3 and info["gae_lambda"] == 1.0

    warm = train.build_model(
        model.get_env(),
        train.parse_args(args),
        PPOAgent(trained / "final.zip", "art_robbery").policy,
    )
    assert all(torch.equal(start[k], v) for k, v in warm.policy.state_dict().items())

    frozen = train.build_model(model.get_env(), train.parse_args(args), None)
    before = {k: v.clone() for k, v in frozen.policy.state_dict().items()}
    train.set_actor_trainable(frozen.policy, False)
    frozen.learn(600)
    now = frozen.policy.state_dict()
    for key in before:
        actor = key.startswith(("action_net", "mlp_extractor.policy_net"))
        assert torch.equal(before[key], now[key]) == actor, key


def test_the_same_command_and_seed_train_the_same_weights(tmp_path):
    """What lets a shipped policy be remade by its command: the stages against the compiled
    heuristic and the policy's snapshots, evaluations between them, repeat bit for bit."""

    def weights(seed, out):
        args = ["--game", "art_robbery", "--players", "3", "--n-envs", "8", "--seed", str(seed)]
        args += ["--opponents", "random,self:256", "heuristic,self:512"]
        args += ["--snapshot-every", "256", "--eval-every", "512", "--eval-games", "4"]
        return train.main(args + ["--out", str(tmp_path / out)]).policy.state_dict()

    first, second, other = weights(5, "a"), weights(5, "b"), weights(6, "c")
    assert all(torch.equal(first[key], second[key]) for key in first)
    assert not torch.equal(first["action_net.weight"], other["action_net.weight"])


def test_checkpoint_plays_as_an_agent_and_evaluates(trained):
    agent = PPOAgent(trained / "final.zip", "art_robbery")
    result = play("art_robbery", [agent, RandomAgent(1), RandomAgent(2)], 3, seed=0)
    assert len(result.rewards) == 3
    scored = evaluate.main([str(trained / "final.zip"), "--game", "art_robbery", "--games", "20"])
    assert scored["games"] == 20 and 0 <= scored["ci_low"] <= scored["win_rate"]
    assert scored["opponents"] == "heuristic"  # the default: not random
    assert scored["fair_share"] == pytest.approx(1 / 3)


def test_arena_curve_scores_each_checkpoint_head_to_head(trained, capsys):
    steps = [steps for steps, _ in arena_curve.checkpoints(trained)]
    assert steps == sorted(steps) and len(steps) >= 2
    rows = arena_curve.main([str(trained), "--games", "6", "--against", "random"])
    assert [row["timesteps"] for row in rows] == steps
    for row in rows:
        assert row["games"] == 6 and row["side"] == "all"
        assert 0 <= row["ci_low"] <= row["win_rate"] <= row["ci_high"] <= 1
        assert row["against_ci_low"] <= row["against_win_rate"] <= row["against_ci_high"]
    header = (trained / "arena_curve.csv").read_text().splitlines()[0]
    assert header.startswith("timesteps,side,games,win_rate,ci_low,ci_high,against_win_rate")
    assert (trained / "arena_curve.png").stat().st_size > 0
    for argv, message in [
        ([str(trained / "checkpoints")], "no checkpoints/step_*.zip"),
        ([str(trained), "--against", "nosuch"], "unknown agent 'nosuch'; available:"),
        ([str(trained), "--every", "0"], "--games and --every must be at least 1"),
    ]:
        with pytest.raises(SystemExit):
            arena_curve.main(argv)
        assert message in capsys.readouterr().err


def test_training_scores_its_checkpoints_head_to_head_with_arena_games(tmp_path):
    args = ["--game", "art_robbery", "--players", "3", "--timesteps", "2000", "--n-envs", "16"]
    args += ["--eval-every", "1000", "--eval-games", "10", "--eval-opponents", "random"]
    train.main(args + ["--opponents", "random", "--arena-games", "6", "--out", str(tmp_path)])
    rows = (tmp_path / "arena_curve.csv").read_text().splitlines()
    assert rows[0].startswith("timesteps,side,games,win_rate,ci_low,ci_high,against_win_rate")
    checkpoints = sorted((tmp_path / "checkpoints").glob("step_*.zip"))
    assert [row.split(",")[0] for row in rows[1:]] == [p.stem[5:] for p in checkpoints]
    assert all(row.split(",")[1:3] == ["all", "6"] for row in rows[1:])
    assert (tmp_path / "arena_curve.png").stat().st_size > 0


def test_arena_curve_scores_a_team_games_sides_apart():
    path = shipped_policy("how_to_rob_a_bank", 4)
    rows = arena_curve.head_to_head(path, "how_to_rob_a_bank", 4, "random", 4, seed=0)
    assert [row["side"] for row in rows] == ["bank", "robber_yellow+robber_red+robber_green"]
    for row in rows:  # on each side, one agent held it in half the games
        assert row["games"] == 4
        assert row["win_rate"] in (0, 0.5, 1) and row["against_win_rate"] in (0, 0.5, 1)


def test_exported_policy_is_small_and_plays_the_same(trained, tmp_path):
    shipped = export_policy(trained / "final.zip", tmp_path / "art_robbery")
    assert shipped.stat().st_size < (trained / "final.zip").stat().st_size / 2
    full, small = PPOAgent(trained / "final.zip", "art_robbery"), PPOAgent(shipped, "art_robbery")
    obs = np.zeros(full.policy.observation_space.shape, np.int8)
    mask = np.ones(20, np.int8)
    assert full.act(obs, mask) == small.act(obs, mask)


def test_shipped_policies_load_by_name(tmp_path, monkeypatch):
    from agents import ppo
    from agents.registry import make_agent

    shipped = sorted(ppo.POLICY_DIR.glob("*.zip"))
    assert {p.stem for p in shipped} >= set(heist_envs.game_names())
    for path in shipped:
        if "-" in path.stem:  # a side's policy: test_a_sides_shipped_policy_plays_that_side
            continue
        game, _, suffix = path.stem.rpartition("_")  # <game>_<n>p: trained for n players
        if game in heist_envs.game_names() and suffix[:-1].isdigit() and suffix.endswith("p"):
            players = int(suffix[:-1])
        else:
            game, players = path.stem, heist_envs.get_game(path.stem).default_players
        assert ppo.checkpoint_info(path)["policy_only"], f"{path.name}: ship export_policy's layout"
        agent = make_agent("ppo", game, num_players=players)
        assert agent.num_players == players
        assert ppo.shipped_policy(game, players) == path
    monkeypatch.setattr(ppo, "POLICY_DIR", tmp_path)
    with pytest.raises(ValueError, match="no shipped policy for art_robbery"):
        make_agent("ppo", "art_robbery")


def test_the_guided_search_keeps_the_prior_it_was_measured_with(tmp_path, monkeypatch):
    import shutil

    from agents import ppo

    shipped = ppo.POLICY_DIR
    monkeypatch.setattr(ppo, "POLICY_DIR", tmp_path)
    for name in (
        "art_robbery.zip",
        "art_robbery.json",
        "art_robbery_3p.zip",
        "art_robbery_3p.json",
    ):
        shutil.copy(shipped / name, tmp_path / name)
    assert ppo.shipped_prior("art_robbery", 4) == tmp_path / "art_robbery.zip"
    (tmp_path / "priors").mkdir()
    for name in ("art_robbery.zip", "art_robbery.json"):
        shutil.copy(shipped / name, tmp_path / "priors" / name)
    assert ppo.shipped_prior("art_robbery", 4) == tmp_path / "priors" / "art_robbery.zip"
    assert ppo.shipped_prior("art_robbery", 3) == tmp_path / "art_robbery_3p.zip"
    assert ppo.shipped_policy("art_robbery", 4) == tmp_path / "art_robbery.zip"


def test_checkpoint_for_another_game_or_player_count_is_refused(trained):
    with pytest.raises(GameRecordError, match="trained for art_robbery with 3 players"):
        PPOAgent(trained / "final.zip", "art_robbery", num_players=4)
    with pytest.raises(GameRecordError, match="not toits_de_paris"):
        PPOAgent(trained / "final.zip", "toits_de_paris")


def test_team_game_evaluation_rotates_sides():
    class FirstLegal:
        def predict(self, obs, action_masks, deterministic=True):
            return np.argmax(action_masks, axis=1), None

    result = evaluate.win_rate(
        FirstLegal(), "how_to_rob_a_bank", 4, evaluate.make_opponents("random", "x"), games=16
    )
    assert result["fair_share"] == 0.5 and result["games"] == 16
    sides = result["by_side"]
    assert list(sides) == ["bank", "robber_yellow+robber_red+robber_green"]
    assert sum(side["games"] for side in sides.values()) == 16


@pytest.mark.parametrize(
    "init, message",
    [
        ("no/such.zip", "--init no/such.zip: checkpoint no/such.zip not found"),
        ("agents/policies/thiefs_market.zip", "is a thiefs_market policy, not a art_robbery one"),
    ],
)
def test_a_bad_init_checkpoint_gets_one_clear_line(init, message, capsys):
    with pytest.raises(SystemExit) as exit_info:
        train.parse_args(["--game", "art_robbery", "--init", init])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_arena_seating_trains_and_is_recorded(tmp_path):
    args = ["--game", "thiefs_market", "--players", "3", "--timesteps", "1500", "--n-envs", "8"]
    args += ["--eval-every", "1000", "--eval-games", "6", "--eval-opponents", "random"]
    args += ["--snapshot-every", "500", "--seating", "arena"]
    train.main(args + ["--opponents", "random,self", "--out", str(tmp_path)])
    meta = json.loads((tmp_path / "final.json").read_text())
    assert meta["seating"] == "arena" and meta["timesteps"] >= 1500


@pytest.mark.parametrize("pool", ["random", "self"])
def test_arena_seating_needs_self_and_an_agent_in_every_pool(pool, tmp_path, capsys):
    out = tmp_path / "run"
    args = ["--game", "art_robbery", "--players", "3", "--seating", "arena", "--out", str(out)]
    with pytest.raises(SystemExit):
        train.main(args + ["--opponents", "random,self:100", pool])
    err = capsys.readouterr().err
    assert f"--seating arena: the pool {pool} needs 'self' and at least one agent" in err
    assert not out.exists()


@pytest.fixture(scope="module")
def bank_side(tmp_path_factory):
    """A tiny run that trains How to Rob a Bank's bank alone (``--side bank``)."""
    out = tmp_path_factory.mktemp("bank")
    args = ["--game", "how_to_rob_a_bank", "--side", "bank", "--timesteps", "600"]
    args += ["--n-envs", "8", "--eval-every", "300", "--eval-games", "6", "--shaping", "0"]
    train.main(args + ["--opponents", "random", "--out", str(out)])
    return out / "final.zip"


def test_a_side_is_trained_and_evaluated_alone(bank_side):
    info = json.loads(bank_side.with_suffix(".json").read_text())
    assert info["side"] == "bank"
    assert list(info["win_rate_vs_heuristic"]["by_side"]) == ["bank"]  # scored as the bank only
    checkpoint = sorted((bank_side.parent / "checkpoints").glob("*.json"))[0]
    assert json.loads(checkpoint.read_text())["side"] == "bank"


def test_each_side_plays_its_own_checkpoint(bank_side):
    robbers = shipped_policy("how_to_rob_a_bank", 4)
    agent = PPOAgent(robbers, "how_to_rob_a_bank", side_paths={"bank": bank_side})
    env = heist_envs.make("how_to_rob_a_bank")
    env.reset(seed=1)
    seen = set()
    for name in env.agent_iter(400):
        obs, _, done, cut, _ = env.last()
        if done or cut:
            env.step(None)
            continue
        policy = agent.policy_for(obs["observation"])
        expected = agent.policies[0] if name == "bank" else agent.policies[1]
        assert policy is expected
        seen.add(name == "bank")
        env.step(agent.act(obs["observation"], obs["action_mask"]))
    assert seen == {True, False}
    bank_weights = load_policy(bank_side).state_dict()
    for key, tensor in agent.policies[0].state_dict().items():
        assert torch.equal(tensor, bank_weights[key])  # the bank plays the bank checkpoint


def test_a_side_checkpoint_refuses_the_other_side(bank_side, capsys):
    with pytest.raises(GameRecordError, match="trained to play the bank only, not the robbers"):
        PPOAgent(bank_side, "how_to_rob_a_bank")  # it would play the robbers too
    with pytest.raises(ValueError, match="has no side vault; its sides: bank, robbers"):
        PPOAgent(bank_side, "how_to_rob_a_bank", side_paths={"vault": bank_side})
    with pytest.raises(ValueError, match="art_robbery has no side bank; its sides: none"):
        PPOAgent(shipped_policy("art_robbery"), "art_robbery", side_paths={"bank": bank_side})
    for game, side, message in [
        ("how_to_rob_a_bank", "vault", "--side vault: how_to_rob_a_bank has the sides bank,"),
        ("art_robbery", "bank", "--side bank: art_robbery has the sides none (every seat plays"),
    ]:
        with pytest.raises(SystemExit):
            train.parse_args(["--game", game, "--side", side])
        assert message in capsys.readouterr().err


def test_side_metadata_is_checked(bank_side, tmp_path):
    path = export_policy(bank_side, tmp_path / "bank")
    meta = path.with_suffix(".json")
    info = json.loads(meta.read_text())
    meta.write_text(json.dumps({**info, "side": "vault"}))
    with pytest.raises(GameRecordError, match="'side' must be one of bank, robbers"):
        PPOAgent(path, "how_to_rob_a_bank", side_paths={"bank": path})


def test_a_side_checkpoint_is_evaluated_on_its_side(bank_side):
    scored = evaluate.main([str(bank_side), "--game", "how_to_rob_a_bank", "--games", "6"])
    assert list(scored["by_side"]) == ["bank"] and scored["games"] == 6


def test_a_side_plays_the_arena_and_its_curve(bank_side):
    agent = evaluate.make_opponents(f"ppo:bank={bank_side}", "how_to_rob_a_bank", 0, 4)[0]
    assert agent.name == f"ppo:bank={bank_side}"  # two policies: played per decision
    rows = arena_curve.head_to_head(bank_side, "how_to_rob_a_bank", 4, "random", 4, seed=0)
    assert [row["side"] for row in rows] == ["bank", "robber_yellow+robber_red+robber_green"]


@pytest.mark.parametrize("players, stem", [(3, "how_to_rob_a_bank_3p"), (4, "how_to_rob_a_bank")])
def test_the_shipped_bank_agent_plays_a_network_per_side(players, stem):
    from agents import ppo
    from agents.registry import make_agent

    sides = ppo.shipped_side_policies("how_to_rob_a_bank", players)
    assert sides == {side: ppo.POLICY_DIR / f"{stem}-{side}.zip" for side in ("bank", "robbers")}
    agent = make_agent("ppo", "how_to_rob_a_bank", num_players=players)
    weights = [load_policy(sides[side]).state_dict() for side in ("bank", "robbers")]
    for policy, side_weights in zip(agent.policies, weights, strict=True):
        assert all(torch.equal(t, side_weights[k]) for k, t in policy.state_dict().items())
    # the guided search keeps the policy it was measured with, not a side's network
    assert ppo.shipped_prior("how_to_rob_a_bank", players).name == f"{stem}.zip"


def test_a_sides_shipped_policy_plays_that_side(bank_side, tmp_path, monkeypatch):
    import shutil

    from agents import ppo
    from agents.registry import make_agent

    for name in ("how_to_rob_a_bank.zip", "how_to_rob_a_bank.json"):
        shutil.copy(ppo.POLICY_DIR / name, tmp_path / name)
    both = load_policy(tmp_path / "how_to_rob_a_bank.zip").state_dict()
    monkeypatch.setattr(ppo, "POLICY_DIR", tmp_path)
    assert ppo.shipped_side_policies("how_to_rob_a_bank", 4) == {}
    export_policy(bank_side, tmp_path / "how_to_rob_a_bank-bank")
    side_file = tmp_path / "how_to_rob_a_bank-bank.zip"
    assert ppo.shipped_side_policies("how_to_rob_a_bank", 4) == {"bank": side_file}
    bank = load_policy(side_file).state_dict()

    def plays(agent):
        return [
            all(torch.equal(t, weights[k]) for k, t in policy.state_dict().items())
            for policy, weights in zip(agent.policies, (bank, both), strict=True)
        ]

    agent = make_agent("ppo", "how_to_rob_a_bank", num_players=4)
    assert plays(agent) == [True, True] and not agent.one_network
    path = str(tmp_path / "how_to_rob_a_bank.zip")  # a path given plays every side
    agent = make_agent("ppo", "how_to_rob_a_bank", num_players=4, path=path)
    assert plays(agent) == [False, True] and agent.one_network  # one network, loaded once
    opponent = evaluate.make_opponents(f"ppo:path={path}", "how_to_rob_a_bank", 0, 4)[0]
    assert isinstance(opponent, PolicyOpponent)  # one batched forward pass for every seat
