"""The torch learner (``heist train --backend torch``): its loss, masking and advantages against
hand computations, its checkpoints as agents, its flags, Ctrl-C, and its learning beside
MaskablePPO's."""

import json
import math

import numpy as np
import pytest
import torch

pytest.importorskip("sb3_contrib")

import heist_envs  # noqa: E402
from agents.network import PolicyValueNet, sample, save_network  # noqa: E402
from agents.ppo import PPOAgent, load_policy  # noqa: E402
from experiments.common import Interrupted  # noqa: E402
from experiments.train import evaluate, torch_ppo  # noqa: E402
from heist_envs.core.sb3_vec import SelfPlayVecEnv  # noqa: E402
from heist_envs.core.single_agent import PolicyOpponent, SelfPlayGames  # noqa: E402

#: a MaskablePPO policy (its critic with layers of its own), Thief's Market's, 128 x 128 tanh
SB3_POLICY = "agents/policies/priors/thiefs_market.zip"

# Advantages -------------------------------------------------------------------------------------


def test_advantages_follow_the_hand_computation_across_episode_ends():
    """Three steps of two games, gamma 0.9, lambda 0.8. Game 0 ends its episode at step 1
    (reward 1) and plays on into the next, which the rollout cuts after step 2: bootstrapped
    with the last value 0.2. Game 1's game is truncated at its last step (reward 0, ended):
    its last value 0.9 belongs to the next episode and is not used."""
    gamma, lam = 0.9, 0.8
    rewards = torch.tensor([[0.0, 0.0], [1.0, 0.0], [0.0, 0.0]])
    values = torch.tensor([[0.5, 0.1], [0.4, 0.2], [0.3, 0.3]])
    ends = torch.tensor([[False, False], [True, False], [False, True]])
    last = torch.tensor([0.2, 0.9])
    adv, returns = torch_ppo.advantages(rewards, values, ends, last, gamma, lam)
    # game 0: step 2 is a new episode, cut by the rollout: delta = 0 + 0.9 * 0.2 - 0.3
    d2 = 0.9 * 0.2 - 0.3  # -0.12
    d1 = 1.0 - 0.4  # the episode ends: no value after it; nothing of step 2 flows back
    d0 = 0.9 * 0.4 - 0.5  # -0.14
    a0 = [d0 + gamma * lam * d1, d1, d2]
    # game 1: ends with its truncation at step 2
    e2 = 0.0 - 0.3
    e1 = 0.9 * 0.3 - 0.2
    e0 = 0.9 * 0.2 - 0.1
    a1 = [e0 + gamma * lam * (e1 + gamma * lam * e2), e1 + gamma * lam * e2, e2]
    expected = torch.tensor([a0, a1]).T
    assert torch.allclose(adv, expected, atol=1e-6)
    assert torch.allclose(returns, expected + values, atol=1e-6)


# Masking ----------------------------------------------------------------------------------------


def test_a_masked_action_gets_no_probability_and_is_never_drawn():
    net = PolicyValueNet(5, 4, (8,))
    obs = torch.randn(1000, 5)
    masks = torch.tensor([True, False, True, True]).repeat(1000, 1)
    masks[::2, 3] = False
    logits, values = net(obs, masks)
    probs = logits.softmax(-1)
    assert (probs[~masks] == 0).all() and (probs[masks] > 0).all()
    assert torch.allclose(probs.sum(-1), torch.ones(1000))
    drawn = sample(logits, torch.Generator().manual_seed(0))
    assert masks[torch.arange(1000), drawn].all()
    assert set(drawn.tolist()) == {0, 2, 3}
    assert values.shape == (1000,)


def test_a_masked_action_gets_no_gradient_and_the_entropy_stays_finite():
    net = PolicyValueNet(5, 3, (8,))
    obs, masks = torch.randn(4, 5), torch.tensor([[True, True, False]] * 4)
    loss, figures = torch_ppo.ppo_loss(
        net, obs, masks, torch.tensor([0, 1, 0, 1]), torch.full((4,), -0.7),
        torch.tensor([1.0, -1.0, 0.5, 0.0]), torch.zeros(4), ent_coef=0.01,
    )  # fmt: skip
    loss.backward()
    assert torch.isfinite(loss) and torch.isfinite(figures["entropy"])
    assert net.policy_head.bias.grad[2] == 0 and net.policy_head.weight.grad[2].eq(0).all()
    assert net.policy_head.bias.grad[:2].ne(0).all()


# The loss ---------------------------------------------------------------------------------------


def fixed_net(logits, value):
    """A network whose every observation gets ``logits`` and ``value`` (the heads' weights 0,
    their biases those numbers)."""
    net = PolicyValueNet(2, len(logits), (4,))
    with torch.no_grad():
        net.policy_head.weight.zero_()
        net.policy_head.bias.copy_(torch.tensor(logits))
        net.value_head.weight.zero_()
        net.value_head.bias.fill_(value)
    return net


def test_the_loss_follows_the_hand_computation():
    """Three decisions under logits (1, 0, -1), one with action 2 masked, one with action 0
    masked; ratios of the new to the old probability 1.5 (clipped at 1.2, advantage above
    the mean), 1 and 0.5 (clipped at 0.8, advantage below)."""
    net = fixed_net([1.0, 0.0, -1.0], 0.5)
    masks = torch.tensor([[True, True, True], [True, True, False], [False, True, True]])
    actions = torch.tensor([0, 1, 2])
    e = math.e
    probs = [  # softmax over the legal actions
        [e / (e + 1 + 1 / e), 1 / (e + 1 + 1 / e), (1 / e) / (e + 1 + 1 / e)],
        [e / (e + 1), 1 / (e + 1), 0.0],
        [0.0, 1 / (1 + 1 / e), (1 / e) / (1 + 1 / e)],
    ]
    taken = [probs[k][a] for k, a in enumerate(actions.tolist())]
    ratios = [1.5, 1.0, 0.5]
    old = torch.tensor([math.log(p / r) for p, r in zip(taken, ratios, strict=True)])
    adv, returns = torch.tensor([2.0, 0.0, -1.0]), torch.tensor([1.0, 0.0, 0.5])
    loss, figures = torch_ppo.ppo_loss(net, torch.zeros(3, 2), masks, actions, old, adv,
                                       returns, ent_coef=0.01)  # fmt: skip
    mean = 1 / 3
    std = math.sqrt(((2 - mean) ** 2 + mean**2 + (1 + mean) ** 2) / 2)  # unbiased
    norm = [(a - mean) / (std + 1e-8) for a in (2.0, 0.0, -1.0)]
    clipped = [min(max(r, 0.8), 1.2) for r in ratios]
    surrogate = [min(n * r, n * c) for n, r, c in zip(norm, ratios, clipped, strict=True)]
    policy_loss = -sum(surrogate) / 3
    value_loss = ((0.5 - 1) ** 2 + 0.5**2 + 0) / 3
    entropy = -sum(p * math.log(p) for row in probs for p in row if p > 0) / 3
    kl = sum((r - 1) - math.log(r) for r in ratios) / 3
    assert figures["policy_loss"].item() == pytest.approx(policy_loss, rel=1e-5)
    assert figures["value_loss"].item() == pytest.approx(value_loss, rel=1e-5)
    assert figures["entropy"].item() == pytest.approx(entropy, rel=1e-5)
    assert figures["approx_kl"].item() == pytest.approx(kl, rel=1e-5)
    assert figures["clip_fraction"].item() == pytest.approx(2 / 3)
    total = policy_loss + torch_ppo.VF_COEF * value_loss - 0.01 * entropy
    assert loss.item() == pytest.approx(total, rel=1e-5)


# The engine's arrays and the opponents ----------------------------------------------------------


def test_step_arrays_plays_the_games_step_plays():
    game = heist_envs.get_game("art_robbery")
    by_step, by_arrays = (SelfPlayVecEnv(game, 8, 3, seed=4) for _ in range(2))
    obs = by_step.reset()
    by_arrays.reset()
    rng = np.random.default_rng(0)
    for _ in range(200):
        assert np.array_equal(obs, by_arrays.games.obs)
        assert np.array_equal(by_step.action_masks(), by_arrays.games.masks.astype(bool))
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in by_step.action_masks()])
        obs, rewards, dones, infos = by_step.step(actions)
        rewards_b, dones_b = by_arrays.step_arrays(actions)
        assert np.array_equal(rewards, rewards_b) and np.array_equal(dones, dones_b)
        for i in np.flatnonzero(dones):
            assert np.array_equal(infos[i]["terminal_observation"], by_arrays.terminal_obs[i])
    assert by_arrays.env_seconds > 0


def test_a_network_snapshot_plays_as_a_policy_opponent():
    game = heist_envs.get_game("art_robbery")
    net = PolicyValueNet(game.obs_size, game.num_actions, (16,), low_precision=True)
    opponent = PolicyOpponent(net, deterministic=True)
    env = SelfPlayGames(game, 8, 3, [opponent], seed=1)
    env.reset()
    obs, masks = env.games.obs, env.games.masks
    chosen = opponent.act_batch(obs, masks)
    assert masks[np.arange(8), chosen].all()
    expected, _ = net.predict(obs.astype(np.float32), masks.astype(bool))
    assert np.array_equal(chosen, expected)
    for _ in range(50):
        env.step_arrays(np.argmax(env.games.masks, axis=1))


# Checkpoints -------------------------------------------------------------------------------------


def test_the_exported_policy_computes_what_the_network_computes(tmp_path):
    """The trunk written into both halves of SB3's layout: the ``ppo`` agent's policy gives
    the network's logits and values, and reading it back gives the network itself."""
    from agents.ppo import masked_logits

    game = heist_envs.get_game("thiefs_market")
    net = PolicyValueNet(game.obs_size, game.num_actions, (32, 16), "relu")
    with torch.no_grad():
        net.value_head.bias.fill_(0.3)  # not the initial 0
    path = save_network(net, tmp_path / "net", game.name, 3, timesteps=0)
    policy = load_policy(path)
    env = SelfPlayGames(game, 16, 3, seed=2)
    env.reset()
    obs = torch.as_tensor(env.games.obs, dtype=torch.float32)
    masks = torch.as_tensor(env.games.masks).bool()
    with torch.no_grad():
        logits, values = net(obs, masks)
        theirs = masked_logits(policy, obs, masks)
        assert torch.allclose(logits[masks], theirs[masks], atol=1e-5)
        assert torch.allclose(values, policy.predict_values(obs).squeeze(-1), atol=1e-5)
    agent = PPOAgent(path, game.name, 3)
    actions = [agent.act(o, m) for o, m in zip(env.games.obs, env.games.masks, strict=True)]
    assert actions == net.predict(obs.numpy(), masks.numpy())[0].tolist()
    back, with_value = PolicyValueNet.from_sb3_weights(policy.state_dict(), "relu")
    assert with_value and back.hidden == [32, 16]
    pairs = zip(back.state_dict().values(), net.state_dict().values(), strict=True)
    assert all(torch.equal(a, b) for a, b in pairs)


def test_an_sb3_policy_gives_its_actor_and_leaves_the_value_head_fresh():
    weights = load_policy(SB3_POLICY).state_dict()
    net, with_value = PolicyValueNet.from_sb3_weights(weights, "tanh")
    assert not with_value and net.hidden == [128, 128]
    assert torch.equal(net.trunk[0].weight, weights["mlp_extractor.policy_net.0.weight"])
    assert torch.equal(net.policy_head.bias, weights["action_net.bias"])
    assert not torch.equal(net.value_head.weight, weights["value_net.weight"])


# Training end to end ----------------------------------------------------------------------------

SMALL = ["--game", "art_robbery", "--players", "3", "--n-envs", "16", "--n-steps", "16"]


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    out = tmp_path_factory.mktemp("torch_run")
    args = [*SMALL, "--timesteps", "3000", "--snapshot-every", "1000", "--eval-every", "1500"]
    torch_ppo.main(args + ["--eval-games", "30", "--opponents", "random,self", "--out", str(out)])
    return out


def test_training_writes_the_files_heist_train_writes(trained):
    for name in ("progress.csv", "eval.csv", "final.zip", "final.json", "learning_curve.png"):
        assert (trained / name).exists(), name
    assert sorted(p.name for p in (trained / "checkpoints").glob("*.zip")) == [
        "step_1536.zip",
        "step_3072.zip",
    ]
    rows = (trained / "eval.csv").read_text().splitlines()
    assert rows[0].startswith("timesteps,elapsed_s,win_rate,ci_low,ci_high") and len(rows) == 4
    info = json.loads((trained / "final.json").read_text())
    assert info["game"] == "art_robbery" and info["num_players"] == 3 and info["policy_only"]
    assert info["trainer"] == "torch_ppo" and info["opponents"] == ["random,self:3000"]
    assert info["timesteps"] == 3072 and info["n_epochs"] == torch_ppo.DEFAULTS["n_epochs"]
    assert info["batch_size"] == 256 and info["precision"] == "bfloat16"  # a rollout: 16 x 16
    assert info["win_rate_vs_heuristic"]["games"] == 30
    seconds = info["seconds"]
    assert set(seconds) == {*torch_ppo.PHASES, "evaluations"}
    assert all(value >= 0 for value in seconds.values())
    assert sum(seconds.values()) == pytest.approx(info["train_seconds"], abs=0.2)
    assert 0 < info["env_share"] < 1
    progress = (trained / "progress.csv").read_text().splitlines()
    assert progress[0].startswith("timesteps,elapsed_s,steps_per_second,policy_loss")
    assert len(progress) == 1 + 3072 // 256


def test_its_checkpoints_play_as_the_ppo_agent_evaluate_and_enter_the_arena(trained):
    from agents.arena import play, tournament
    from agents.base import RandomAgent

    agent = PPOAgent(trained / "final.zip", "art_robbery")
    assert agent.num_players == 3
    play("art_robbery", [agent, RandomAgent(1), RandomAgent(2)], 3, seed=0)
    scored = evaluate.main([str(trained / "final.zip"), "--game", "art_robbery", "--games", "12"])
    assert scored["games"] == 12 and scored["num_players"] == 3
    spec = f"ppo:path={trained / 'checkpoints' / 'step_1536.zip'}"
    result = tournament("art_robbery", [spec, "random"], games=6, num_players=3, seed=1,
                        workers=1, progress=False)  # fmt: skip
    assert len(result.games) == 6


def test_the_same_command_and_seed_train_the_same_weights(tmp_path):
    def weights(seed, out):
        args = [*SMALL[:4], "--n-envs", "8", "--n-steps", "16", "--seed", str(seed)]
        args += ["--opponents", "random,self:256", "heuristic,self:512"]
        args += ["--snapshot-every", "256", "--eval-every", "512", "--eval-games", "4"]
        return torch_ppo.main(args + ["--out", str(tmp_path / out)]).policy.state_dict()

    first, second, other = weights(5, "a"), weights(5, "b"), weights(6, "c")
    assert all(torch.equal(first[key], second[key]) for key in first)
    assert not torch.equal(first["policy_head.weight"], other["policy_head.weight"])


def test_init_from_its_checkpoint_gives_back_the_whole_network(trained, tmp_path, capsys):
    """Its own checkpoint gives back the value head too; the critic's warm-up and the stage
    after it then train from there."""
    args = [*SMALL, "--init", str(trained / "final.zip"), "--eval-every", "100000"]
    args += ["--eval-games", "4", "--opponents", "heuristic:256", "--out", str(tmp_path)]
    start = torch_ppo.initial_network(
        torch_ppo.parse_args(args), heist_envs.get_game("art_robbery")
    )
    assert "starts fresh" not in capsys.readouterr().out
    saved = load_policy(trained / "final.zip").state_dict()
    assert torch.equal(start.value_head.weight, saved["value_net.weight"])
    assert torch.equal(start.trunk[0].weight, saved["mlp_extractor.policy_net.0.weight"])
    learner = torch_ppo.main(args + ["--critic-warmup", "256"])
    assert learner.num_timesteps == 512
    assert not torch.equal(learner.policy.policy_head.weight, start.policy_head.weight)
    info = json.loads((tmp_path / "final.json").read_text())
    assert info["init"] == str(trained / "final.zip") and info["opponents"] == ["heuristic:256"]


def test_critic_warmup_trains_the_value_head_alone(trained):
    args = torch_ppo.parse_args([*SMALL, "--opponents", "random"])
    net = PolicyValueNet(heist_envs.get_game("art_robbery").obs_size, 20, (16,))
    env = SelfPlayGames(heist_envs.get_game("art_robbery"), 16, 3, seed=0)
    learner = torch_ppo.Learner(env, net, args)
    before = {key: value.clone() for key, value in net.state_dict().items()}
    learner.set_actor_trainable(False)
    learner.learn(512)
    changed = {
        key for key, value in net.state_dict().items() if not torch.equal(before[key], value)
    }
    assert changed == {"value_head.weight", "value_head.bias"}


def test_target_kl_stops_an_update_at_the_first_minibatch_past_it():
    """The first minibatch meets the policy that played the rollout (its ratios all 1, to the
    bit: the trunk's results do not depend on the batch); after one step the policy has
    moved past a target of 1e-9, so the update stops there."""
    args = [*SMALL, "--opponents", "random", "--batch-size", "64", "--target-kl", "1e-9"]
    args = torch_ppo.parse_args(args)
    game = heist_envs.get_game("art_robbery")
    net = PolicyValueNet(game.obs_size, game.num_actions, (16,), low_precision=True)
    learner = torch_ppo.Learner(SelfPlayGames(game, 16, 3, seed=0), net, args)
    figures = []
    learner.learn(512, after_update=figures.append)
    assert [update["minibatches"] for update in figures] == [1, 1]
    assert figures[0]["approx_kl"] == 0 and figures[0]["clip_fraction"] == 0


def test_an_sb3_checkpoint_with_init_critic_trunk_says_the_value_head_is_fresh(capsys):
    args = ["--game", "thiefs_market", "--init", SB3_POLICY, "--init-critic", "trunk"]
    net = torch_ppo.initial_network(
        torch_ppo.parse_args(args), heist_envs.get_game("thiefs_market")
    )
    assert (
        "value head starts fresh (--critic-warmup STEPS trains it first)" in capsys.readouterr().out
    )
    assert net.activation == "tanh" and net.hidden == [128, 128] and net.critic is None


def test_an_sb3_checkpoint_keeps_its_critic_by_default_and_its_values(capsys):
    """The default ``--init-critic keep``: the value is MaskablePPO's own critic, its layers
    apart from the actor's trunk, so the value loss never trains the actor's features; the
    network gives SB3's values, saves them back in SB3's layout, and reads back whole."""
    args = torch_ppo.parse_args(["--game", "thiefs_market", "--init", SB3_POLICY])
    net = torch_ppo.initial_network(args, heist_envs.get_game("thiefs_market"))
    assert "keeps layers of its own ([128, 128])" in capsys.readouterr().out
    policy = load_policy(SB3_POLICY)
    env = SelfPlayGames(heist_envs.get_game("thiefs_market"), 8, 4, seed=0)
    env.reset()
    obs, masks = torch.from_numpy(env.games.obs).float(), torch.from_numpy(env.games.masks)
    with torch.no_grad():
        _, values = net(obs, masks.bool())
        assert torch.allclose(values, policy.predict_values(obs).squeeze(-1), atol=1e-2)
    back, with_value = PolicyValueNet.from_sb3_weights(net.sb3_weights(), "tanh", keep_critic=True)
    assert with_value and back.critic_hidden == [128, 128]
    pairs = zip(back.state_dict().values(), net.state_dict().values(), strict=True)
    assert all(torch.equal(a, b) for a, b in pairs)


def test_the_kept_critic_trains_and_the_frozen_actor_does_not():
    """With the actor frozen (the critic's warm-up) only the critic's layers and the value
    head move; the actor's trunk is not the value's, so nothing else does."""
    args = torch_ppo.parse_args([*SMALL, "--opponents", "random"])
    game = heist_envs.get_game("art_robbery")
    net = PolicyValueNet(game.obs_size, game.num_actions, (16,), critic_hidden=(8,))
    learner = torch_ppo.Learner(SelfPlayGames(game, 16, 3, seed=0), net, args)
    before = {key: value.clone() for key, value in net.state_dict().items()}
    learner.set_actor_trainable(False)
    learner.learn(512)
    changed = {
        key for key, value in net.state_dict().items() if not torch.equal(before[key], value)
    }
    assert changed == {"critic.0.weight", "critic.0.bias", "value_head.weight", "value_head.bias"}


def test_a_side_trains_alone_at_the_arenas_tables(tmp_path):
    """``--side`` and ``--seating arena`` seat the learner as the SB3 trainer does."""
    args = ["--game", "how_to_rob_a_bank", "--players", "3", "--side", "bank", "--n-envs", "8"]
    args += ["--n-steps", "16", "--opponents", "heuristic,self:256", "--seating", "arena"]
    args += ["--snapshot-every", "128", "--eval-every", "256", "--eval-games", "6"]
    learner = torch_ppo.main(args + ["--pool-size", "1", "--out", str(tmp_path)])
    env = learner.env
    bank = heist_envs.get_game("how_to_rob_a_bank").side_names.index("bank")
    assert (env.team_of_seat[env.learner_seat] == env.team_of_seat[env.side_seats[bank]]).all()
    assert len(env.opponents) == 2 and isinstance(env.opponents[-1], PolicyOpponent)
    info = json.loads((tmp_path / "final.json").read_text())
    assert info["side"] == "bank" and info["seating"] == "arena"
    assert list(info["win_rate_vs_heuristic"]["by_side"]) == ["bank"]


@pytest.mark.parametrize(
    "flags, message",
    [
        (["--batch-size", "0"], "--batch-size must be 1 to 256 (a rollout: --n-envs 16 x "
         "--n-steps 16), got 0"),
        (["--batch-size", "257"], "--batch-size must be 1 to 256"),
        (["--learning-rate", "0"], "--learning-rate must be above 0 and at most 1"),
        (["--learning-rate", "2"], "--learning-rate must be above 0 and at most 1"),
        (["--timesteps", "-5"], "--timesteps must be at least 1, got -5"),
        (["--opponents", "random:-1"], "--opponents 'random:-1': STEPS must be a whole number "
         "of at least 1 (POOL:STEPS, e.g. random:50000)"),
        (["--n-envs", "0"], "--n-envs must be at least 1, got 0"),
        (["--net-arch", "128,0"], "--net-arch must be layer widths of at least 1, comma-separated"),
        (["--net-arch", "wide"], "--net-arch must be layer widths of at least 1"),
        (["--device", "tpu"], "--device tpu:"),
        (["--device", "cuda:99"], "--device cuda:99:"),
        (["--opponents", "nosuchagent"], "--opponents nosuchagent:"),
        (["--opponents", "ppo:path=agents/policies/toits_de_paris.zip"], "not art_robbery with 3"),
        (["--opponents", "ppo:path=agents/policies/art_robbery.zip"],
         "with 4 players, not art_robbery with 3"),
        (["--eval-opponents", "nosuchagent"], "--eval-opponents nosuchagent:"),
        (["--init", "agents/policies/thiefs_market.zip"],
         "is a thiefs_market policy, not a art_robbery one"),
    ],
)  # fmt: skip
def test_bad_flags_get_one_line_before_anything_trains(flags, message, tmp_path, capsys):
    out = tmp_path / "run"
    with pytest.raises(SystemExit) as stop:
        torch_ppo.main([*SMALL, "--out", str(out), *flags])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert message in err.splitlines()[-1] and "Traceback" not in err
    assert not out.exists()


def test_ctrl_c_keeps_the_last_update_and_the_curve_and_says_where(tmp_path, monkeypatch):
    updates = []
    update = torch_ppo.Learner.update

    def interrupted_third(self, last_values):
        if len(updates) == 2:
            raise KeyboardInterrupt
        updates.append(self.num_timesteps)
        return update(self, last_values)

    monkeypatch.setattr(torch_ppo.Learner, "update", interrupted_third)
    args = [*SMALL, "--opponents", "random", "--eval-every", "256", "--eval-games", "4"]
    with pytest.raises(Interrupted) as stop:
        torch_ppo.main(args + ["--out", str(tmp_path)])
    kept = tmp_path / "interrupted.zip"
    # evaluated at steps 0, 256, 512 and 768 (the third update's rollout, then Ctrl-C)
    assert str(stop.value) == (
        f"kept the policy after 512 steps in {kept}, and the learning curve of its 4 "
        f"evaluations in {tmp_path / 'eval.csv'} and {tmp_path / 'learning_curve.png'}"
    )
    assert (tmp_path / "learning_curve.png").exists() and not (tmp_path / "final.zip").exists()
    assert json.loads(kept.with_suffix(".json").read_text())["timesteps"] == 512
    PPOAgent(kept, "art_robbery", 3)  # plays as any checkpoint


def test_ctrl_c_before_the_first_update_keeps_nothing(tmp_path, monkeypatch):
    def interrupted(self):
        raise KeyboardInterrupt

    monkeypatch.setattr(torch_ppo.Learner, "collect", interrupted)
    with pytest.raises(Interrupted, match="^nothing was trained yet, nothing kept$"):
        torch_ppo.main([*SMALL, "--opponents", "random", "--out", str(tmp_path)])
    assert not (tmp_path / "interrupted.zip").exists()


def test_heist_train_runs_it_as_the_torch_backend(tmp_path, capsys):
    from experiments import cli

    args = ["train", "--backend", "torch", *SMALL, "--timesteps", "256", "--opponents", "random"]
    cli.main(args + ["--eval-games", "4", "--out", str(tmp_path)])
    assert json.loads((tmp_path / "final.json").read_text())["trainer"] == "torch_ppo"
    with pytest.raises(SystemExit):
        cli.main(["train", "--backend", "torch", *SMALL, "--batch-size", "0"])
    assert "--batch-size must be 1 to 256" in capsys.readouterr().err


# Learning beside MaskablePPO ---------------------------------------------------------------------

#: Art Robbery at 3 players against random players, where a few thousand steps teach either
#: learner to win about 0.45 against random play's third; MaskablePPO's settings for both (10
#: passes in minibatches of 1,024, its step size, tanh units), so that only the implementations
#: differ (one trunk here, two there; bfloat16 here)
LEARNING = ["--game", "art_robbery", "--players", "3", "--n-envs", "32", "--n-steps", "32"]
LEARNING += ["--eval-opponents", "random", "--snapshot-every", "1000000"]
MATCHED = ["--n-epochs", "10", "--batch-size", "1024", "--learning-rate", "3e-4"]
MATCHED += ["--activation", "tanh"]


def learning_curves(tmp_path, seeds, steps, every, games):
    """Each learner's win rate against random players at every evaluation (the trainers' own,
    the same games for both), pooled over ``seeds``: {learner: [(timesteps, wins, games)]}."""
    from experiments.common import read_csv
    from experiments.train import sb3

    curves = {}
    for name, main, extra in (("sb3", sb3.main, []), ("torch", torch_ppo.main, MATCHED)):
        pooled = []
        for seed in seeds:
            out = tmp_path / f"{name}_{seed}"
            args = [*LEARNING, "--opponents", f"random:{steps}", "--eval-every", str(every)]
            main(
                args + ["--eval-games", str(games), "--seed", str(seed), "--out", str(out), *extra]
            )
            rows = read_csv(out / "eval.csv")
            pooled = pooled or [[int(row["timesteps"]), 0, 0] for row in rows]
            for point, row in zip(pooled, rows, strict=True):
                point[1] += round(float(row["win_rate"]) * games)
                point[2] += games
        curves[name] = pooled
    return curves


def not_separated(curves) -> list[str]:
    """The points after step 0 at which the two curves' 95% intervals do not overlap, or where
    a learner is not above random play's third, as lines (none: the check holds). At step 0
    each plays its untrained network's greedy moves, which depend on its initial draw alone."""
    from agents.stats import wilson_interval

    failures = []
    for (steps, *ours), (_, *theirs) in zip(curves["torch"][1:], curves["sb3"][1:], strict=True):
        (low, high), (their_low, their_high) = wilson_interval(*ours), wilson_interval(*theirs)
        line = f"{steps}: torch {ours[0] / ours[1]:.3f} [{low:.3f}, {high:.3f}], "
        line += f"sb3 {theirs[0] / theirs[1]:.3f} [{their_low:.3f}, {their_high:.3f}]"
        print(line)
        if low > their_high or their_low > high:
            failures.append(f"separated at {line}")
    for name, curve in curves.items():
        steps, wins, games = curve[-1]
        if wilson_interval(wins, games)[0] <= 1 / 3:
            failures.append(f"{name} not above random play at {steps} steps")
    return failures


def test_it_learns_as_maskable_ppo_does_at_equal_steps(tmp_path):
    """Three seeds each, 12,288 steps: the final win rates, pooled over the seeds, are not
    separated, and both are above random play's."""
    curves = learning_curves(tmp_path, range(3), 12288, 12288, 300)
    assert not not_separated(curves)


@pytest.mark.slow
def test_its_learning_curve_is_maskable_ppos(tmp_path):
    """The measurement behind docs/training/index.md's table: eight seeds each, evaluated
    every 4,096 steps to 24,576 with 400 games, pooled: no point separated."""
    curves = learning_curves(tmp_path, range(8), 24576, 4096, 400)
    assert not not_separated(curves)
