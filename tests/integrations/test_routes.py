"""The routes users take with their RL libraries, each a short run of the documented example
in ``experiments/examples`` (the ``integrations`` extra installs the libraries)."""

import numpy as np
import pytest


def test_sb3_maskable_ppo_on_the_gymnasium_registered_env():
    pytest.importorskip("sb3_contrib")
    from experiments.examples import sb3_maskable_ppo

    model, reward = sb3_maskable_ppo.main(steps=256)
    assert model.num_timesteps >= 256
    assert reward in (-1.0, 0.0, 1.0)


def test_pettingzoo_sb3_action_mask_tutorial():
    pytest.importorskip("sb3_contrib")
    from experiments.examples import pettingzoo_sb3_action_mask

    model = pettingzoo_sb3_action_mask.main(steps=256, num_players=3)
    assert model.num_timesteps >= 256


def test_supersuit_and_unmasked_ppo_with_illegal_action_terminate():
    pytest.importorskip("supersuit")
    from experiments.examples import supersuit_sb3_ppo

    model = supersuit_sb3_ppo.main(steps=256)
    assert model.num_timesteps >= 256


def test_the_supersuit_route_repeats_for_a_fixed_seed():
    """Issue 29 item 10: PPO's first reset was unseeded, so two runs differed."""
    pytest.importorskip("supersuit")
    from experiments.examples import supersuit_sb3_ppo

    first, second = (supersuit_sb3_ppo.main(steps=256, seed=3) for _ in range(2))
    weights = first.policy.state_dict()
    assert all((weights[k] == v).all() for k, v in second.policy.state_dict().items())


@pytest.mark.slow  # up to two minutes on 2 shared cores; CI runs the slow routes
def test_tianshou_dqn_through_its_pettingzoo_env():
    pytest.importorskip("tianshou")
    from experiments.examples import tianshou_dqn

    result, collector = tianshou_dqn.main(steps=300)
    assert collector.collect_step >= 300
    assert np.isfinite(result.best_reward)


def test_torchrl_masked_rollouts_repeat_for_a_fixed_seed():
    pytest.importorskip("torchrl")
    from experiments.examples import torchrl_pettingzoo

    data, same = torchrl_pettingzoo.main(steps=300)
    assert same, "two rollouts with the same seed differ"
    assert int(data["next", "done"].sum()) >= 1, "no game ended: no unseeded reset was tested"
    for agent in ("player_0", "player_1", "player_2"):
        acted = data[agent, "mask"]
        actions = data[agent, "action"][acted]
        masks = data[agent, "action_mask"][acted]
        assert masks.gather(-1, actions.unsqueeze(-1)).all(), "an illegal action was sampled"
