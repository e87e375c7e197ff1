"""A trained MaskablePPO policy as an agent, and the policies shipped with the package.

SB3 checkpoints are pickles: load only checkpoints from a trusted source.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

import heist_envs
from heist_envs.core.errors import GameRecordError

POLICY_DIR = Path(__file__).parent / "policies"


def checkpoint_info(path) -> dict:
    """The metadata saved beside a checkpoint (``<checkpoint>.json``)."""
    meta = Path(path).with_suffix(".json")
    if not meta.exists():
        raise GameRecordError(f"{meta} is missing: cannot tell which game {path} was trained on")
    return json.loads(meta.read_text())


def save_checkpoint(model, path, game_name, num_players, policy_only=False, **extra):
    """Save a model (or, with ``policy_only``, just its policy: a small file to ship) with
    the metadata :class:`PPOAgent` checks when loading it."""
    path = Path(path).with_suffix(".zip")
    path.parent.mkdir(parents=True, exist_ok=True)
    (model.policy if policy_only else model).save(path)
    info = {"game": game_name, "num_players": num_players, "policy_only": policy_only, **extra}
    path.with_suffix(".json").write_text(json.dumps(info, indent=1) + "\n")
    return path


def export_policy(checkpoint, dest):
    """Write the policy of a whole-model checkpoint, with its metadata, as a small file."""
    from sb3_contrib import MaskablePPO

    info = checkpoint_info(checkpoint)
    model = MaskablePPO.load(checkpoint, device="cpu")
    extra = {k: v for k, v in info.items() if k not in ("game", "num_players", "policy_only")}
    return save_checkpoint(model, dest, info["game"], info["num_players"], True, **extra)


def load_policy(path):
    """The MaskablePPO policy saved at ``path`` (a whole model or a policy alone)."""
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    if checkpoint_info(path).get("policy_only"):
        return MaskableActorCriticPolicy.load(path, device="cpu")
    return MaskablePPO.load(path, device="cpu").policy


def shipped_policy(game_name) -> Path:
    """The checkpoint shipped for ``game_name``."""
    path = POLICY_DIR / f"{heist_envs.get_game(game_name).name}.zip"
    if not path.exists():
        available = sorted(p.stem for p in POLICY_DIR.glob("*.zip"))
        raise ValueError(f"no shipped policy for {game_name}; available: {available}")
    return path


class PPOAgent:
    """Plays a MaskablePPO checkpoint trained on one game and player count."""

    def __init__(self, path, game_name, num_players=None, deterministic=True):
        game = heist_envs.get_game(game_name)
        info = checkpoint_info(path)
        num_players = game.check_players(num_players or info.get("num_players"))
        if info.get("game") != game.name or info.get("num_players") != num_players:
            raise GameRecordError(
                f"checkpoint {path} was trained for {info.get('game')} with "
                f"{info.get('num_players')} players, not {game.name} with {num_players}"
            )
        self.policy = load_policy(path)
        if self.policy.observation_space.shape != (game.obs_size,):
            raise GameRecordError(f"checkpoint {path} expects another observation size")
        self.deterministic = deterministic
        self.num_players = num_players

    def act(self, observation, action_mask) -> int:
        action, _ = self.policy.predict(
            np.asarray(observation),
            action_masks=np.asarray(action_mask, bool),
            deterministic=self.deterministic,
        )
        return int(action)


def make_ppo(game_name, seed=None, path=None, num_players=None):
    """The shipped policy for the game, or the checkpoint at ``path``."""
    return PPOAgent(path or shipped_policy(game_name), game_name, num_players)
