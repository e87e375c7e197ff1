"""TorchRL's ``PettingZooWrapper`` with action masks: a random-policy rollout across several
games (auto-reset), identical for the same seed.

Run: ``python -m experiments.examples.torchrl_pettingzoo``.
"""

import torch
from torchrl.envs.libs.pettingzoo import PettingZooWrapper

import heist_envs


def rollout(game="art_robbery", num_players=3, steps=300, seed=0):
    env = PettingZooWrapper(
        heist_envs.make(game, num_players=num_players),
        use_mask=True,
        categorical_actions=True,
        seed=seed,
    )
    torch.manual_seed(seed)  # the random policy samples masked actions with torch
    return env.rollout(steps, break_when_any_done=False)


def main(game="art_robbery", num_players=3, steps=300, seed=0):
    first, second = rollout(game, num_players, steps, seed), rollout(game, num_players, steps, seed)
    same = all(torch.equal(first[k], second[k]) for k in first.keys(True, True))
    return first, same


if __name__ == "__main__":
    data, same = main()
    ended = int(data["next", "done"].sum())
    print(f"{data.batch_size[0]} steps, {ended} games ended; identical: {same}")
