"""Ray RLlib and heist agents, both ways: a policy trained with RLlib as a heist agent
(:class:`RLlibAgent`), and a heist agent as a fixed RLlib module (:class:`AgentRLModule`),
which lets self-play training use the heuristic as an opponent.

Needs the ``rllib`` extra. :class:`RLlibAgent` plays on CPU in this process: it loads the
trained modules' weights from the checkpoint and runs their forward pass in torch, with no
Ray cluster. RLlib checkpoints are pickles: load only checkpoints from a trusted source.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import numpy as np
import torch
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.rl_module import RLModule

import heist_envs
from heist_envs.core.errors import GameRecordError
from heist_envs.integrations.rllib import observing_seat

#: the metadata file written into every training checkpoint (see :func:`write_checkpoint_info`)
INFO_FILE = "heist.json"
#: where an RLlib algorithm checkpoint keeps each module
MODULES_DIR = Path("learner_group", "learner", "rl_module")


def write_checkpoint_info(checkpoint, game_name, num_players, seat_policies, **extra):
    """Record beside an algorithm checkpoint which game it plays and which module plays
    each seat; :class:`RLlibAgent` checks it when loading."""
    info = {
        "game": game_name,
        "num_players": num_players,
        "seat_policies": seat_policies,
        **extra,
    }
    (Path(checkpoint) / INFO_FILE).write_text(json.dumps(info, indent=1) + "\n")


def checkpoint_info(checkpoint) -> dict:
    path = Path(checkpoint) / INFO_FILE
    if not path.exists():
        raise GameRecordError(
            f"{path} is missing: {checkpoint} is not a checkpoint written by heist train "
            "--backend rllib"
        )
    return json.loads(path.read_text())


@functools.lru_cache(maxsize=16)
def load_module(checkpoint: str, module_id: str) -> RLModule:
    """One trained module of an algorithm checkpoint, on CPU, in evaluation mode (cached:
    a tournament builds an agent per seat and game)."""
    module = RLModule.from_checkpoint(Path(checkpoint) / MODULES_DIR / module_id)
    module.eval()
    return module


class RLlibAgent:
    """Plays a checkpoint of ``heist train --backend rllib``: the greedy action of the
    seat's module (or one sampled from it, with ``deterministic=False``)."""

    def __init__(self, checkpoint, game_name, num_players=None, deterministic=True, seed=None):
        self.game = heist_envs.get_game(game_name)
        info = checkpoint_info(checkpoint)
        num_players = self.game.check_players(num_players or info.get("num_players"))
        if info.get("game") != self.game.name or info.get("num_players") != num_players:
            raise GameRecordError(
                f"checkpoint {checkpoint} was trained for {info.get('game')} with "
                f"{info.get('num_players')} players, not {self.game.name} with {num_players}"
            )
        self.num_players = num_players
        self.seat_policies = info["seat_policies"]
        checkpoint = str(Path(checkpoint).resolve())
        self.modules = {p: load_module(checkpoint, p) for p in set(self.seat_policies)}
        self.deterministic = deterministic
        self.generator = torch.Generator().manual_seed(0 if seed is None else seed)

    def act(self, observation, action_mask) -> int:
        seat = observing_seat(self.game, observation)  # None: every seat plays one policy
        module = self.modules[self.seat_policies[0 if seat is None else seat]]
        batch = {
            Columns.OBS: {
                "observations": torch.as_tensor(np.asarray(observation, np.float32))[None],
                "action_mask": torch.as_tensor(np.asarray(action_mask, np.float32))[None],
            }
        }
        with torch.no_grad():
            logits = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS][0]
        if self.deterministic:
            return int(torch.argmax(logits))
        return int(torch.multinomial(torch.softmax(logits, 0), 1, generator=self.generator))


def make_rllib(game_name, seed=None, checkpoint=None, num_players=None, deterministic=True):
    """The policy of an RLlib training checkpoint (a folder under ``--out``/checkpoints)."""
    if checkpoint is None:
        raise ValueError(
            "the rllib agent needs checkpoint=PATH (a heist train --backend rllib one)"
        )
    return RLlibAgent(checkpoint, game_name, num_players, deterministic, seed)


class AgentRLModule(RLModule):
    """A heist agent (from :mod:`agents.registry`) as an RLlib module that is never trained:
    ``model_config`` is ``{"game": name, "agent": registry name, "seed": int}``. The agent
    reads the game's own observation dtype, as it does in the arena."""

    def setup(self):
        from .registry import make_agent

        config = self.model_config
        self.agent = make_agent(config["agent"], config["game"], seed=config.get("seed"))
        self.obs_dtype = heist_envs.get_game(config["game"]).obs_dtype

    def _forward_inference(self, batch, **kwargs):
        observations = np.asarray(batch[Columns.OBS]["observations"]).astype(self.obs_dtype)
        masks = np.asarray(batch[Columns.OBS]["action_mask"]).astype(np.int8)
        actions = [self.agent.act(o, m) for o, m in zip(observations, masks, strict=True)]
        return {Columns.ACTIONS: np.array(actions, np.int64)}

    def _forward_exploration(self, batch, **kwargs):
        return self._forward_inference(batch, **kwargs)

    def _forward_train(self, batch, **kwargs):
        raise NotImplementedError("an AgentRLModule plays a fixed agent and is not trained")
