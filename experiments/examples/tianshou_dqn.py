"""Tianshou's PettingZoo route (its tic-tac-toe example, test/pettingzoo/tic_tac_toe.py): a DQN
learner in one seat, Tianshou's masked random policy in the others, trained for a few hundred
steps. Run: ``python -m experiments.examples.tianshou_dqn``.
"""

import numpy as np
import torch
from tianshou.algorithm import DQN, MARLRandomDiscreteMaskedOffPolicyAlgorithm
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
from tianshou.algorithm.multiagent.marl import MultiAgentOffPolicyAlgorithm
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.data import Collector, CollectStats, VectorReplayBuffer
from tianshou.env import DummyVectorEnv
from tianshou.env.pettingzoo_env import PettingZooEnv
from tianshou.trainer import OffPolicyTrainerParams
from tianshou.utils.net.common import Net

import heist_envs


def main(game="toits_de_paris", num_players=2, steps=400, seed=0):
    def get_env():
        return PettingZooEnv(heist_envs.make(game, num_players=num_players))

    env = get_env()
    observation_space = env.observation_space["observation"]
    net = Net(
        state_shape=observation_space.shape,
        action_shape=env.action_space.n,
        hidden_sizes=[64, 64],
    )
    learner = DQN(
        policy=DiscreteQLearningPolicy(
            model=net, action_space=env.action_space, eps_training=0.1, eps_inference=0.05
        ),
        optim=AdamOptimizerFactory(lr=1e-3),
        n_step_return_horizon=3,
        gamma=0.9,
        target_update_freq=50,
    )
    opponents = [
        MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=env.action_space)
        for _ in env.agents[1:]
    ]
    algorithm = MultiAgentOffPolicyAlgorithm(algorithms=[learner, *opponents], env=env)

    train_envs = DummyVectorEnv([get_env for _ in range(2)])
    test_envs = DummyVectorEnv([get_env for _ in range(2)])
    np.random.seed(seed)
    torch.manual_seed(seed)
    train_envs.seed(seed)  # PettingZooEnv.seed(): reset(seed=...) on each env
    test_envs.seed(seed)
    train_collector = Collector[CollectStats](
        algorithm, train_envs, VectorReplayBuffer(2000, len(train_envs)), exploration_noise=True
    )
    test_collector = Collector[CollectStats](algorithm, test_envs, exploration_noise=True)
    train_collector.reset()
    train_collector.collect(n_step=64)
    result = algorithm.run_training(
        OffPolicyTrainerParams(
            training_collector=train_collector,
            test_collector=test_collector,
            max_epochs=1,
            epoch_num_steps=steps,
            collection_step_num_env_steps=10,
            test_step_num_episodes=2,
            batch_size=32,
            update_step_num_gradient_steps_per_sample=0.1,
            test_in_training=False,
            show_progress=False,
            verbose=False,
            multi_agent_return_reduction=lambda rewards: rewards[:, 0],
        )
    )
    return result, train_collector


if __name__ == "__main__":
    result, collector = main()
    print(f"{collector.collect_step} steps collected; best reward {result.best_reward}")
