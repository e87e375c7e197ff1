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


def save_checkpoint(model, path, game_name, num_players, **extra):
    """Save a model with the metadata :class:`PPOAgent` checks when loading it."""
    path = Path(path).with_suffix(".zip")
    path.parent.mkdir(parents=True, exist_ok=True)
    model.save(path)
    info = {"game": game_name, "num_players": num_players, **extra}
    path.with_suffix(".json").write_text(json.dumps(info, indent=1) + "\n")
    return path


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
        from sb3_contrib import MaskablePPO

        game = heist_envs.get_game(game_name)
        info = checkpoint_info(path)
        num_players = game.check_players(num_players or info.get("num_players"))
        if info.get("game") != game.name or info.get("num_players") != num_players:
            raise GameRecordError(
                f"checkpoint {path} was trained for {info.get('game')} with "
                f"{info.get('num_players')} players, not {game.name} with {num_players}"
            )
        self.model = MaskablePPO.load(path, device="cpu")
        if self.model.observation_space.shape != (game.obs_size,):
            raise GameRecordError(f"checkpoint {path} expects another observation size")
        self.deterministic = deterministic
        self.num_players = num_players

    def act(self, observation, action_mask) -> int:
        action, _ = self.model.predict(
            np.asarray(observation),
            action_masks=np.asarray(action_mask, bool),
            deterministic=self.deterministic,
        )
        return int(action)


def make_ppo(game_name, seed=None, path=None, num_players=None):
    """The shipped policy for the game, or the checkpoint at ``path``."""
    return PPOAgent(path or shipped_policy(game_name), game_name, num_players)
