"""A trained MaskablePPO policy as an agent, and the policies shipped with the package.

Checkpoints load without unpickling Python objects: only the policy's tensors are read, with
``torch.load(weights_only=True)``, into a network built from the game's spaces and the
architecture in the checkpoint's ``.json`` metadata. Two layouts are read this way:

- a whole SB3 model (``model.save``, as ``experiments.train.sb3`` writes it): the tensors of its
  ``policy.pth`` member; the rest of the zip (pickled optimiser settings, schedules) is never
  opened;
- a policy alone (``save_checkpoint(..., policy_only=True)``, the shipped files): the
  policy's ``state_dict``, written with ``torch.save``.

A policy saved by SB3's own ``policy.save`` pickles its constructor arguments; it is refused
unless loaded with ``trusted=True`` (``export_policy`` then rewrites it in the safe layout).
"""

from __future__ import annotations

import hashlib
import json
import pickle
import zipfile
from pathlib import Path

import numpy as np

import heist_envs
from heist_envs.core.errors import GameRecordError

POLICY_DIR = Path(__file__).parent / "policies"

#: Activation functions a checkpoint may name (metadata ``activation``), by lower-case name.
ACTIVATIONS = {"tanh": "Tanh", "relu": "ReLU", "elu": "ELU", "gelu": "GELU", "silu": "SiLU"}
#: SB3's default for MlpPolicy, for checkpoints whose metadata names none.
DEFAULT_ACTIVATION = "tanh"


def checkpoint_info(path) -> dict:
    """The metadata saved beside a checkpoint (``<checkpoint>.json``)."""
    path = Path(path)
    if not path.is_file():
        raise GameRecordError(f"checkpoint {path} not found")
    meta = path.with_suffix(".json")
    if not meta.is_file():
        raise GameRecordError(
            f"checkpoint {path} has no metadata file {meta.name} beside it (save_checkpoint "
            "writes one), so its game and player count are unknown"
        )
    try:
        info = json.loads(meta.read_text())
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise GameRecordError(f"checkpoint metadata {meta} is not valid JSON: {error}") from None
    if not isinstance(info, dict) or "game" not in info or "num_players" not in info:
        raise GameRecordError(f"checkpoint metadata {meta} needs the keys game and num_players")
    check_info(info, meta)
    digest = info.get("weights_sha256")
    if digest is not None and digest != file_digest(path):
        raise GameRecordError(
            f"checkpoint {path} is not the file its metadata {meta.name} was written for "
            "(its weights_sha256 differs): changed since it was saved; save it again"
        )
    return info


def file_digest(path) -> str:
    """The SHA-256 of a file, as a checkpoint's metadata keeps its weights'."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def check_info(info, where):
    """A GameRecordError naming the field and what it allows unless the metadata's own
    fields (``game``, ``num_players``, ``policy_only``, ``activation``, ``side``) are well
    typed: the one check of every loader (``PPOAgent``, ``export_policy``, ``heist train
    --init``)."""

    def refuse(key, allowed):
        raise GameRecordError(f"{where}: {key!r} must be {allowed}; got {info[key]!r:.80}")

    names = heist_envs.game_names()
    if info["game"] not in names:  # a list or a number is no name either
        refuse("game", f"one of {', '.join(names)}")
    game = heist_envs.get_game(info["game"])
    counts = trained_counts(info)
    if not counts or not all(
        type(n) is int and game.min_players <= n <= game.max_players for n in counts
    ):
        refuse(
            "num_players",
            f"a player count {game.min_players} to {game.max_players}, or a list of them",
        )
    if "policy_only" in info and not isinstance(info["policy_only"], bool):
        refuse("policy_only", "true or false")
    if "side" in info and info["side"] not in game.side_names:
        refuse("side", f"one of {', '.join(game.side_names) or 'nothing (no sides here)'}")
    activation = info.get("activation", DEFAULT_ACTIVATION)
    if not isinstance(activation, str) or activation.lower() not in ACTIVATIONS:
        refuse("activation", f"one of {', '.join(ACTIVATIONS)}")


def trained_counts(info) -> list[int]:
    """The player counts a checkpoint was trained for: ``num_players`` is one count, or a
    list of them for a count-general policy."""
    counts = info["num_players"]
    return list(counts) if isinstance(counts, list) else [counts]


def check_checkpoint(path, game_name, num_players=None) -> tuple[dict, int]:
    """The checkpoint's metadata and the player count to play it at (its own if
    ``num_players`` is None); raises if it was trained for another game or count."""
    game = heist_envs.get_game(game_name)
    info = checkpoint_info(path)
    counts = trained_counts(info)
    if num_players is None and len(counts) == 1:
        num_players = counts[0]
    num_players = game.check_players(num_players)
    if info["game"] != game.name or num_players not in counts:
        trained = " or ".join(str(n) for n in counts)
        raise GameRecordError(
            f"checkpoint {path} was trained for {info['game']} with {trained} players, "
            f"not {game.name} with {num_players}"
        )
    return info, num_players


def write_info(path, game_name, num_players, policy_only, activation, extra) -> Path:
    info = {"game": game_name, "num_players": num_players, "policy_only": policy_only}
    info |= {"activation": activation.__name__.lower(), **extra}
    path.with_suffix(".json").write_text(json.dumps(info, indent=1) + "\n")
    return path


def save_policy(policy, path, game_name, num_players, **extra) -> Path:
    """Save a policy's weights alone (a small file to ship) with its metadata."""
    import torch

    path = Path(path).with_suffix(".zip")
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.save(policy.state_dict(), path)
    return write_info(path, game_name, num_players, True, policy.activation_fn, extra)


def save_checkpoint(model, path, game_name, num_players, policy_only=False, **extra) -> Path:
    """Save a model (or, with ``policy_only``, just its policy's weights) with the metadata
    :class:`PPOAgent` checks when loading it. ``num_players`` is a count, or a list of counts
    for a policy trained on several."""
    if policy_only:
        return save_policy(model.policy, path, game_name, num_players, **extra)
    path = Path(path).with_suffix(".zip")
    path.parent.mkdir(parents=True, exist_ok=True)
    model.save(path)
    return write_info(path, game_name, num_players, False, model.policy.activation_fn, extra)


def read_weights(path, policy_only) -> dict:
    """The policy's tensors from a checkpoint (a ``torch.save`` of them with
    ``policy_only``, else an SB3 model zip), read without unpickling any Python object."""
    import torch

    if not zipfile.is_zipfile(path):
        raise GameRecordError(
            f"{path} is not a checkpoint file (truncated or not a checkpoint: a checkpoint is "
            "a zip archive, as torch.save and SB3's model.save write it)"
        )
    try:
        if policy_only:
            return torch.load(path, map_location="cpu", weights_only=True)
        with zipfile.ZipFile(path) as archive, archive.open("policy.pth") as member:
            return torch.load(member, map_location="cpu", weights_only=True)
    except pickle.UnpicklingError:
        raise GameRecordError(
            f"checkpoint {path} holds pickled Python objects besides tensors, which are not "
            "loaded; if you trust its source, load it with trusted=True"
        ) from None
    except (zipfile.BadZipFile, KeyError, RuntimeError, EOFError, OSError) as error:
        raise GameRecordError(
            f"cannot read checkpoint {path} (truncated or not a checkpoint): {error}"
        ) from None


def hidden_layers(weights, net) -> list[int]:
    """Hidden layer widths of ``mlp_extractor.<net>``, from its weight shapes."""
    prefix = f"mlp_extractor.{net}."
    layers = sorted(
        (int(key[len(prefix) :].split(".")[0]), tensor.shape[0])
        for key, tensor in weights.items()
        if key.startswith(prefix) and key.endswith(".weight")
    )
    return [width for _, width in layers]


def net_arch(weights) -> dict:
    """The actor's and critic's hidden layer widths, from a policy's weights."""
    return {"pi": hidden_layers(weights, "policy_net"), "vf": hidden_layers(weights, "value_net")}


def policy_kwargs_like(policy) -> dict:
    """SB3 ``policy_kwargs`` that build a network shaped like ``policy`` (layers, activation),
    for a model that starts from its weights."""
    return {"net_arch": net_arch(policy.state_dict()), "activation_fn": policy.activation_fn}


def build_policy(game, weights, activation):
    """A MaskableActorCriticPolicy for ``game`` shaped like ``weights``, holding them."""
    import torch
    from gymnasium import spaces
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    env = heist_envs.make(game.name)
    policy = MaskableActorCriticPolicy(
        env.observation_space(env.possible_agents[0])["observation"],
        spaces.Discrete(game.num_actions),
        lambda _: 0.0,
        net_arch=net_arch(weights),
        activation_fn=getattr(torch.nn, ACTIVATIONS[activation]),
        ortho_init=False,  # the checkpoint's weights replace any initial ones
    )
    # a per-seat value head (agents.network) is the search's: the policy plays without it
    weights = {k: v for k, v in weights.items() if not k.startswith("seat_value_net.")}
    try:
        policy.load_state_dict(weights)
    except RuntimeError as error:
        reason = str(error).splitlines()[0]
        raise GameRecordError(f"checkpoint weights do not fit {game.name}: {reason}") from None
    policy.set_training_mode(False)
    return policy


def load_policy(path, trusted=False):
    """The MaskablePPO policy saved at ``path`` (a whole model or a policy alone).

    Only tensors are read; ``trusted=True`` also accepts layouts that need unpickling
    (SB3's ``policy.save``), which can run arbitrary code: use it for your own files only.
    """
    info = checkpoint_info(path)
    game = heist_envs.get_game(info["game"])
    try:
        weights = read_weights(path, info.get("policy_only"))
    except GameRecordError:
        if not trusted:
            raise
        from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

        return MaskableActorCriticPolicy.load(path, device="cpu")
    return build_policy(game, weights, info.get("activation", DEFAULT_ACTIVATION).lower())


def export_policy(checkpoint, dest, trusted=False):
    """Write the policy of a checkpoint, with its metadata, as a small safe file (the
    layout shipped in ``agents/policies``)."""
    info = checkpoint_info(checkpoint)
    policy = load_policy(checkpoint, trusted)
    own = ("game", "num_players", "policy_only", "activation")
    extra = {k: v for k, v in info.items() if k not in own}
    return save_policy(policy, dest, info["game"], info["num_players"], **extra)


def shipped_policy(game_name, num_players=None) -> Path:
    """The checkpoint shipped for ``game_name``: ``<game>_<n>p.zip`` for a table of ``n``
    players where one was trained for that count, else ``<game>.zip`` (the default count)."""
    name = heist_envs.get_game(game_name).name
    path = POLICY_DIR / f"{name}_{num_players}p.zip"
    if num_players is None or not path.exists():
        path = POLICY_DIR / f"{name}.zip"
    if not path.exists():
        available = sorted(p.stem for p in POLICY_DIR.glob("*.zip"))
        raise ValueError(f"no shipped policy for {game_name}; available: {available}")
    return path


def shipped_side_policies(game_name, num_players=None) -> dict[str, Path]:
    """Side name -> the policy shipped for that side alone (``<policy>-<side>.zip`` beside
    the shipped policy: ``how_to_rob_a_bank-bank.zip``), for the sides that have one; the
    ``ppo`` agent plays them on their sides and the shipped policy on the others."""
    path = shipped_policy(game_name, num_players)
    sides = heist_envs.get_game(game_name).side_names
    found = {side: path.with_name(f"{path.stem}-{side}.zip") for side in sides}
    return {side: side_path for side, side_path in found.items() if side_path.exists()}


def shipped_prior(game_name, num_players=None) -> Path:
    """The policy that guides ``ismcts:prior=shipped``: the shipped policy, or the file of its
    name in ``agents/policies/priors`` where one is there (the policy it replaced, which the
    guided search was measured with)."""
    path = shipped_policy(game_name, num_players)
    prior = POLICY_DIR / "priors" / path.name
    return prior if prior.exists() else path


def masked_logits(policy, obs, masks):
    """The actor's logits for a batch (torch tensors), illegal actions at -inf: the policy's
    forward pass alone, without building SB3's distribution objects."""
    import torch

    features = policy.extract_features(obs, policy.pi_features_extractor)
    logits = policy.action_net(policy.mlp_extractor.forward_actor(features))
    return logits.masked_fill(~masks, -torch.inf)


class PPOAgent:
    """Plays a MaskablePPO checkpoint trained on one game and player count (or several).

    In a game whose sides play different roles (``Game.side_names``: How to Rob a Bank's bank
    and robbers), ``side_paths`` gives a side its own checkpoint (``{"bank": PATH}``); the
    side of each decision is read from the observation's ``observer`` seat, and a side not
    named plays ``path``. A checkpoint trained for one side (``heist train --side``, its
    metadata's ``side``) plays that side only.
    """

    def __init__(
        self, path, game_name, num_players=None, deterministic=True, trusted=False, side_paths=None
    ):
        game = heist_envs.get_game(game_name)
        side_paths = check_side_paths(game, side_paths or {})
        _, self.num_players = check_checkpoint(path, game_name, num_players)
        if game.side_names:
            paths = [side_paths.get(side, path) for side in game.side_names]
            self.team_of_seat = np.array(game.teams(self.num_players))
            self.observer = game.layout["observer"]
        else:
            paths = [path]
        loaded = {}  # one network per file, whichever sides play it
        for side, side_path in zip(game.side_names or [None], paths, strict=True):
            info, _ = check_checkpoint(side_path, game_name, self.num_players)
            if info.get("side") not in (None, side):
                raise GameRecordError(
                    f"checkpoint {side_path} was trained to play the {info['side']} only, "
                    f"not the {side}; give it as ppo:{info['side']}={side_path}"
                )
            if side_path not in loaded:
                loaded[side_path] = load_policy(side_path, trusted)
            if loaded[side_path].observation_space.shape != (game.obs_size,):
                raise GameRecordError(f"checkpoint {side_path} expects another observation size")
        self.policies = [loaded[side_path] for side_path in paths]
        self.policy = self.policies[0]
        self.deterministic = deterministic

    @property
    def one_network(self) -> bool:
        """Whether every side plays the same network (a batch of any seats' decisions can go
        through it in one forward pass)."""
        return all(policy is self.policy for policy in self.policies)

    def policy_for(self, observation):
        """The policy of the observing seat's side."""
        if self.one_network:
            return self.policy
        seat = int(np.argmax(observation[self.observer]))
        return self.policies[self.team_of_seat[seat]]

    def act(self, observation, action_mask) -> int:
        observation = np.asarray(observation)
        action, _ = self.policy_for(observation).predict(
            observation,
            action_masks=np.asarray(action_mask, bool),
            deterministic=self.deterministic,
        )
        return int(action)


def check_side_paths(game, side_paths) -> dict:
    """``side_paths`` (side name -> checkpoint), checked against the game's sides."""
    unknown = sorted(set(side_paths) - set(game.side_names))
    if unknown:
        sides = ", ".join(game.side_names) or "none: every seat plays the same role"
        raise ValueError(f"ppo: {game.name} has no side {', '.join(unknown)}; its sides: {sides}")
    return side_paths


def make_ppo(game_name, seed=None, path=None, num_players=None, trusted=False, **side_paths):
    """The shipped policy for the game, or the checkpoint at ``path``; ``num_players`` is the
    table's player count, checked against the counts the policy was trained for. In a game
    whose sides play different roles, ``SIDE=PATH`` parameters (``ppo:bank=FILE``) give a
    side its own checkpoint (:class:`PPOAgent`); without ``path``, a side's shipped policy
    (:func:`shipped_side_policies`) plays that side unless a parameter names another."""
    if path is None:
        path = shipped_policy(game_name, num_players)
        side_paths = {**shipped_side_policies(game_name, num_players), **side_paths}
    return PPOAgent(path, game_name, num_players, trusted=trusted, side_paths=side_paths)
