"""Ray RLlib and heist agents, both ways: a policy trained with RLlib as a heist agent
(:class:`RLlibAgent`), and a heist agent as a fixed RLlib module (:class:`AgentRLModule`),
which lets self-play training use the heuristic as an opponent.

Needs the ``rllib`` extra. :class:`RLlibAgent` plays on CPU in this process: it loads the
trained modules' weights from the checkpoint and runs their forward pass in torch, with no
Ray cluster.

What is loaded: RLlib's own checkpoint files are pickles (``RLModule.from_checkpoint``
unpickles the module's class, constructor arguments and state), which can run any code, so
they are read only with ``trusted=True``. ``heist train --backend rllib`` also writes a
weights-only export into every checkpoint folder: each trained module's ``state_dict`` as
``weights/<module>.pt`` (tensors only, read with ``torch.load(weights_only=True)``) and, in
``heist.json``, what rebuilds the module (game, player count, hidden layers). The agent
plays that export whenever a folder has it, without opening RLlib's files.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import gymnasium as gym
import numpy as np
import torch
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.rl_module import RLModule, RLModuleSpec

import heist_envs
from heist_envs.core.errors import GameRecordError
from heist_envs.core.game import Game
from heist_envs.integrations.rllib import observation_space, observing_seat, seat_policies

from .ppo import check_info, read_weights

#: the metadata file written into every training checkpoint (see :func:`write_checkpoint_info`)
INFO_FILE = "heist.json"
#: where an RLlib algorithm checkpoint keeps each module (pickled: read only when trusted)
MODULES_DIR = Path("learner_group", "learner", "rl_module")
#: where a checkpoint folder keeps its weights-only export, ``<module>.pt`` per trained module
WEIGHTS_DIR = "weights"


def trained_module_spec(game: Game, hidden) -> RLModuleSpec:
    """The module every trained policy is: RLlib's action-masking PPO module, an MLP of
    ``hidden`` tanh layers, over the game's spaces (:func:`observation_space`)."""
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import (
        ActionMaskingTorchRLModule,
    )

    return RLModuleSpec(
        module_class=ActionMaskingTorchRLModule,
        observation_space=observation_space(game),
        action_space=gym.spaces.Discrete(game.num_actions),
        model_config={
            "fcnet_hiddens": hidden,
            "fcnet_activation": "tanh",
            "head_fcnet_hiddens": [],
            "vf_share_layers": False,  # as PPO builds it: the critic has its own encoder
        },
    )


def write_checkpoint_info(checkpoint, game_name, num_players, seat_policies, hidden, **extra):
    """Record beside an algorithm checkpoint which game it plays, which module plays each
    seat and the modules' hidden layers; :class:`RLlibAgent` checks it when loading."""
    info = {
        "game": game_name,
        "num_players": num_players,
        "seat_policies": seat_policies,
        "hidden": hidden,
        **extra,
    }
    (Path(checkpoint) / INFO_FILE).write_text(json.dumps(info, indent=1) + "\n")


def write_weights(checkpoint, states):
    """The weights-only export: each module's state (``{module id: {name: array}}``, as
    ``get_state`` gives it) as tensors alone, in ``weights/<module id>.pt`` of the checkpoint
    folder."""
    folder = Path(checkpoint) / WEIGHTS_DIR
    folder.mkdir(parents=True, exist_ok=True)
    for module_id, state in states.items():
        tensors = {name: torch.as_tensor(value) for name, value in state.items()}
        torch.save(tensors, folder / f"{module_id}.pt")


def checkpoint_info(checkpoint) -> dict:
    """The checkpoint's ``heist.json``, each field checked (the game, the player count and
    the hidden layers as for a PPO checkpoint's metadata; the seat modules the game's own)."""
    path = Path(checkpoint) / INFO_FILE
    if not path.is_file():
        raise GameRecordError(
            f"{path} is missing: {checkpoint} is not a checkpoint written by heist train "
            "--backend rllib"
        )
    try:
        info = json.loads(path.read_text())
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise GameRecordError(f"checkpoint metadata {path} is not valid JSON: {error}") from None
    keys = ("game", "num_players", "seat_policies")
    if not isinstance(info, dict) or not all(k in info for k in keys):
        raise GameRecordError(f"checkpoint metadata {path} needs the keys {', '.join(keys)}")
    check_info(info, path)
    if isinstance(info["num_players"], list):
        raise GameRecordError(f"{path}: 'num_players' must be one player count; got a list")
    expected = seat_policies(heist_envs.get_game(info["game"]), info["num_players"])
    if info["seat_policies"] != expected:
        raise GameRecordError(
            f"{path}: 'seat_policies' must be {expected}; got {info['seat_policies']!r:.80}"
        )
    hidden = info.get("hidden")
    if hidden is not None and not (
        isinstance(hidden, list) and all(type(n) is int and n > 0 for n in hidden)
    ):
        raise GameRecordError(
            f"{path}: 'hidden' must be a list of positive layer widths; got {hidden!r:.80}"
        )
    return info


@functools.lru_cache(maxsize=16)
def load_module(checkpoint: str, module_id: str, trusted=False) -> RLModule:
    """One trained module of a checkpoint folder, on CPU, in evaluation mode (cached: a
    tournament builds an agent per seat and game): from its weights-only export, or, only
    with ``trusted=True``, from RLlib's pickled checkpoint files."""
    weights = Path(checkpoint) / WEIGHTS_DIR / f"{module_id}.pt"
    if weights.is_file():
        info = checkpoint_info(checkpoint)
        if info.get("hidden") is None:
            raise GameRecordError(f"{Path(checkpoint) / INFO_FILE} needs the key hidden")
        module = trained_module_spec(heist_envs.get_game(info["game"]), info["hidden"]).build()
        try:
            module.load_state_dict(read_weights(weights, policy_only=True))
        except RuntimeError as error:
            reason = str(error).splitlines()[0]
            raise GameRecordError(f"{weights} does not fit its module: {reason}") from None
    elif trusted:
        module = RLModule.from_checkpoint(Path(checkpoint) / MODULES_DIR / module_id)
    else:
        raise GameRecordError(
            f"{checkpoint} has no weights-only export ({WEIGHTS_DIR}/{module_id}.pt, written "
            "by heist train --backend rllib), and its RLlib checkpoint files are pickles, "
            "which can run any code when loaded; if you trust its source, load it with "
            "trusted=True"
        )
    module.eval()
    return module


class RLlibAgent:
    """Plays a checkpoint of ``heist train --backend rllib``: the greedy action of the
    seat's module (or one sampled from it, with ``deterministic=False``). The checkpoint's
    weights-only export is played; ``trusted=True`` also unpickles RLlib's own checkpoint
    files where a folder has no export (use it only for checkpoints you made)."""

    def __init__(
        self,
        checkpoint,
        game_name,
        num_players=None,
        deterministic=True,
        seed=None,
        trusted=False,
    ):
        self.game = heist_envs.get_game(game_name)
        info = checkpoint_info(checkpoint)
        num_players = self.game.check_players(num_players or info["num_players"])
        if info["game"] != self.game.name or info["num_players"] != num_players:
            raise GameRecordError(
                f"checkpoint {checkpoint} was trained for {info['game']} with "
                f"{info['num_players']} players, not {self.game.name} with {num_players}"
            )
        self.num_players = num_players
        self.seat_policies = info["seat_policies"]
        checkpoint = str(Path(checkpoint).resolve())
        self.modules = {p: load_module(checkpoint, p, trusted) for p in set(self.seat_policies)}
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


def make_rllib(
    game_name, seed=None, checkpoint=None, num_players=None, deterministic=True, trusted=False
):
    """The policy of an RLlib training checkpoint (a folder under ``--out``/checkpoints);
    ``trusted`` as for :class:`RLlibAgent`."""
    if checkpoint is None:
        raise ValueError(
            "the rllib agent needs checkpoint=PATH (a heist train --backend rllib one)"
        )
    return RLlibAgent(checkpoint, game_name, num_players, deterministic, seed, trusted)


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
