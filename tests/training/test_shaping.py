"""Potential-based reward shaping: the hook in SelfPlayVecEnv, the bank potential, the flag."""

import numpy as np
import pytest

pytest.importorskip("stable_baselines3")

import heist_envs  # noqa: E402
from agents.how_to_rob_a_bank import shaping as bank_shaping  # noqa: E402
from agents.profiles import profile  # noqa: E402
from experiments.train import sb3 as train  # noqa: E402
from experiments.train import shaping  # noqa: E402
from heist_envs.core.sb3_vec import SelfPlayVecEnv  # noqa: E402
from heist_envs.core.vector import VectorGames  # noqa: E402
from heist_envs.how_to_rob_a_bank.state import CARRIED, FLOOR, STOLEN  # noqa: E402

BANK = "how_to_rob_a_bank"


def random_episodes(env, steps, seed=0):
    """Play random learner actions; per finished episode, the list of its rewards and the
    potential of its first learner decision."""
    rng = np.random.default_rng(seed)
    env.reset()
    first_phi = env.potential.copy()
    current = [[] for _ in range(env.num_envs)]
    episodes = []
    for _ in range(steps):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in env.action_masks()])
        _, rewards, dones, _ = env.step(actions)
        for i in range(env.num_envs):
            current[i].append(float(rewards[i]))
            if dones[i]:
                episodes.append((current[i], float(first_phi[i])))
                current[i] = []
                first_phi[i] = env.potential[i]
    return episodes


class StolenPotential:
    """A potential that moves often: the robbers' stolen and carried bags plus the round,
    so random games change it many times per episode."""

    def __call__(self, states, seats):
        base = bank_shaping.potential(states, seats, carried_weight=0.5)
        return base + 0.1 * states["round_num"] * np.where(seats == 0, -1, 1)


@pytest.mark.parametrize("gamma", [1.0, 0.9])
def test_shaping_telescopes_to_minus_the_first_potential(gamma):
    game = heist_envs.get_game(BANK)
    potential = StolenPotential()
    env = SelfPlayVecEnv(game, 4, seed=2, shaping=potential, shaping_gamma=gamma)
    plain = SelfPlayVecEnv(game, 4, seed=2)
    shaped_eps = random_episodes(env, 600)
    plain_eps = random_episodes(plain, 600)
    assert len(shaped_eps) >= 4
    moved = 0
    for (shaped, phi0), (rewards, _) in zip(shaped_eps, plain_eps, strict=False):
        assert len(shaped) == len(rewards)
        discount = gamma ** np.arange(len(shaped))
        extra = np.dot(discount, np.array(shaped) - np.array(rewards))
        # sum_t gamma^t (gamma Phi(s_t+1) - Phi(s_t)) = gamma^T Phi(s_T) - Phi(s_0), Phi(s_T)=0
        assert extra == pytest.approx(-phi0, abs=1e-4)
        moved += np.count_nonzero(np.array(shaped[:-1]))
        assert phi0 != 0  # round 1 already counts
    assert moved > 0, "the potential never changed within an episode"


def test_shaping_leaves_terminal_rewards_when_off():
    game = heist_envs.get_game(BANK)
    episodes = random_episodes(SelfPlayVecEnv(game, 4, seed=2), 400)
    for rewards, phi0 in episodes:
        assert phi0 == 0 and all(r == 0 for r in rewards[:-1])


def test_bank_potential_counts_stolen_and_carried_bags_and_is_zero_sum():
    games = VectorGames(heist_envs.get_game(BANK), 2, 4)
    games.reset(seed=0)
    s = games.states
    robbers, bank = np.array([1, 3]), np.array([0, 0])
    assert (bank_shaping.potential(s, robbers) == 0).all()
    s["bag_where"][0, :3] = [STOLEN, STOLEN, CARRIED]
    s["bag_at"][0, 2] = 1  # carried by robber 1 (red)
    s["stolen"][0] = 2
    s["bag_where"][1, :3] = [CARRIED, FLOOR, FLOOR]
    s["bag_at"][1, 0] = 0
    s["vehicle"] = 4  # street space 4 faces room 5
    s["robber_room"][0, 1] = 5  # next to the vehicle: closeness 1
    s["robber_room"][1, 0] = 3  # two rooms away: closeness 1/2
    target = s["target"][0]
    near = bank_shaping.NEAR_WEIGHT
    carried = bank_shaping.CARRIED_WEIGHT
    expected = np.array([2 + carried + near, carried + near / 2], np.float32) / target
    assert bank_shaping.potential(s, robbers) == pytest.approx(expected)
    assert bank_shaping.potential(s, bank) == pytest.approx(-expected)
    assert bank_shaping.potential(s, np.array([2, 0])) == pytest.approx([expected[0], -expected[1]])
    flat = bank_shaping.potential(s, robbers, carried_weight=0.5, near_weight=0)
    assert flat == pytest.approx(np.array([2.5, 0.5]) / target)


def test_scaled_potential_and_unknown_games():
    assert shaping.scaled_potential("art_robbery", 0) is None
    with pytest.raises(ValueError, match="no shaping potential for art_robbery"):
        shaping.scaled_potential("art_robbery", 1.0)
    games = VectorGames(heist_envs.get_game(BANK), 1, 4)
    games.reset(seed=0)
    games.states["stolen"][0] = 1
    seats = np.array([1])
    doubled = shaping.scaled_potential(BANK, 2.0)(games.states, seats)
    assert doubled == pytest.approx(2 * bank_shaping.potential(games.states, seats))


def test_shaping_flag_reaches_the_env():
    args = train.parse_args(["--game", BANK, "--n-envs", "2"])
    assert args.shaping == profile(BANK).training.shaping > 0
    env = train.make_env(heist_envs.get_game(BANK), args, [])
    assert env.shaping is not None and env.shaping_gamma == train.PPO_SETTINGS["gamma"]
    off = train.parse_args(["--game", BANK, "--shaping", "0", "--n-envs", "2"])
    assert train.make_env(heist_envs.get_game(BANK), off, []).shaping is None
    other = train.parse_args(["--game", "art_robbery", "--n-envs", "2"])
    assert other.shaping == 0
    assert train.make_env(heist_envs.get_game("art_robbery"), other, []).shaping is None
