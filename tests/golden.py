"""Golden playthroughs: one recorded game per registered game, with every seat's observation
(as a SHA-256 digest of its bytes, which keeps the files small), mask and reward at every
step. ``tests/test_games.py`` replays them and compares.

Regenerate on purpose only (a rules change that alters play), then review the diff:
``python -m tests.golden``
"""

import hashlib
import json
from pathlib import Path

import numpy as np

import heist_envs
from heist_envs.registry import game_names, get_game

GOLDEN_DIR = Path(__file__).parent / "golden"
GOLDEN_SEED = 2026


def playthrough(name, num_players, seed=GOLDEN_SEED, actions=None):
    """Play a game (random legal actions from ``seed``, or the given ones) and record it."""
    env = heist_envs.make(name, num_players=num_players)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = []
    chosen = []
    for i in range(10_000):
        if env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
            break
        views = {}
        for agent in env.agents:
            obs = env.observe(agent)
            native = obs["observation"].astype(env.game.obs_dtype)  # float32 holds them exactly
            views[agent] = {
                "observation": hashlib.sha256(native.tobytes()).hexdigest(),
                "action_mask": "".join(map(str, obs["action_mask"].tolist())),
                "reward": env._cumulative_rewards[agent],
            }
        action = int(rng.choice(env.legal_actions())) if actions is None else actions[i]
        steps.append({"agent": env.agent_selection, "action": action, "views": views})
        chosen.append(action)
        env.step(action)
    final = {a: env.rewards[a] for a in env.agents}
    return {
        "game": name,
        "num_players": num_players,
        "seed": seed,
        "actions": chosen,
        "steps": steps,
        "final_rewards": final,
    }


def golden_path(name):
    return GOLDEN_DIR / f"{name}.json"


def main():
    GOLDEN_DIR.mkdir(exist_ok=True)
    for name in game_names():
        record = playthrough(name, get_game(name).default_players)
        golden_path(name).write_text(json.dumps(record, indent=0) + "\n")
        print(f"wrote {golden_path(name)} ({len(record['steps'])} steps)")


if __name__ == "__main__":
    main()
