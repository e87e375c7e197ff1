"""The policy-and-value network: one trunk of fully connected layers over a seat's
observation, shared by a policy head (a logit per action, illegal actions masked) and a value
head: the observing seat's expected return (:mod:`experiments.train.torch_ppo`), or with
``value_seats`` every seat's, relative to the observer (column k: seat ``(observer + k) % n``;
a seat's return is its team's outcome where teams play), which guides the batched search
(:class:`NetworkEvaluator`) and which expert iteration trains (:mod:`experiments.train.exit`).

It needs torch alone (no stable-baselines3), so that any trainer can use it as a policy and a
value, a search-guided one included. Its checkpoints are written in SB3's ``MlpPolicy``
layout, the trunk copied into both the actor's and the critic's layers
(:meth:`PolicyValueNet.sb3_weights`; the per-seat head beside them as ``seat_value_net``, its
observer's column as SB3's ``value_net``): the ``ppo`` agent (:mod:`agents.ppo`), the arena,
``experiments.train.evaluate`` and ``heist train --init`` read them as they read every other
policy, and :meth:`PolicyValueNet.from_sb3_weights` reads them back (or any SB3 policy's
actor).

One trunk instead of SB3's two halves the arithmetic of every pass (``critic_hidden`` gives
the value layers of its own: a MaskablePPO policy's critic, kept when the torch learner
fine-tunes it, since a value loss training an SB3 actor's features undid it); the first layer, over
observations of 400 to 1,294 numbers, is most of it. With ``low_precision`` the trunk computes
in bfloat16 (its weights kept in float32, the heads in float32): its first layer three times
as fast on a CPU with AVX-512 BF16, and its results do not depend on the batch a row comes in,
so the probabilities an update recomputes are those the rollout was played with
(docs/training/index.md has the measurements, and those of the sparse layers that lost).
The ``ppo`` agent plays an exported network in float32. The search's passes
(:meth:`PolicyValueNet.evaluate`, forward only) take a float32 first layer through the
non-zero inputs alone (:func:`sparse_linear`): faster there than the dense layer, the same
sums in another order (docs/benchmarks.md).
"""

from __future__ import annotations

from pathlib import Path

import numba as nb
import numpy as np
import torch
from torch import nn
from torch.nn import functional

import heist_envs
from agents.ppo import (
    ACTIVATIONS,
    DEFAULT_ACTIVATION,
    check_checkpoint,
    file_digest,
    hidden_layers,
    read_weights,
    write_info,
)
from heist_envs.core.errors import GameRecordError

#: The logit of an illegal action: its probability is exactly 0, and 0 * logit stays finite
#: in the entropy (as sb3-contrib's masked distribution does it).
ILLEGAL_LOGIT = -1e8


class PolicyValueNet(nn.Module):
    """``hidden`` layers of ``activation`` units over ``obs_size`` inputs, then a policy head
    of ``num_actions`` logits and a value head of ``value_seats`` values (1: the observer's;
    the seats of the table: every seat's, relative to the observer). ``forward(obs, masks)``
    gives the masked logits and the values of a batch (a column per seat where there are
    several)."""

    def __init__(
        self,
        obs_size,
        num_actions,
        hidden=(128, 128),
        activation="tanh",
        low_precision=False,
        value_seats=1,
        critic_hidden=None,
    ):
        super().__init__()
        self.trunk, width = self.layers(obs_size, hidden, activation)
        self.policy_head = nn.Linear(width, num_actions)
        # the value reads the trunk, or with critic_hidden layers of its own (an SB3 critic's)
        self.critic = None
        if critic_hidden is not None:
            self.critic, width = self.layers(obs_size, critic_hidden, activation)
        self.value_head = nn.Linear(width, value_seats)
        self.activation = activation
        self.low_precision = low_precision
        self._first_rows = (None, None)  # (the weight's identity and version, its transpose)
        # SB3's and CleanRL's initialisation: orthogonal, small policy logits at the start,
        # once every layer exists (the order a seed's networks have always been drawn in)
        layers = [*self.trunk[::2], *(() if self.critic is None else self.critic[::2])]
        for layer in layers:
            nn.init.orthogonal_(layer.weight, 2**0.5)
            nn.init.zeros_(layer.bias)
        for head, gain in ((self.policy_head, 0.01), (self.value_head, 1.0)):
            nn.init.orthogonal_(head.weight, gain)
            nn.init.zeros_(head.bias)

    @staticmethod
    def layers(width, sizes, activation) -> tuple[nn.Sequential, int]:
        """Fully connected layers of ``sizes`` units over ``width`` inputs, and the last
        one's width."""
        layers = []
        for size in sizes:
            layers += [nn.Linear(width, size), getattr(nn, ACTIVATIONS[activation])()]
            width = size
        return nn.Sequential(*layers), width

    def new_value_head(self, value_seats):
        """Replace the value head by a new one of ``value_seats`` values (initialised as in
        ``__init__``), on the trunk or the critic it reads."""
        self.value_head = nn.Linear(self.value_head.in_features, value_seats)
        nn.init.orthogonal_(self.value_head.weight, 1.0)
        nn.init.zeros_(self.value_head.bias)

    @property
    def hidden(self) -> list[int]:
        return [layer.out_features for layer in self.trunk[::2]]

    @property
    def critic_hidden(self) -> list[int] | None:
        """The widths of the critic's own layers (None: the value reads the trunk)."""
        return None if self.critic is None else [layer.out_features for layer in self.critic[::2]]

    @property
    def value_seats(self) -> int:
        return self.value_head.out_features

    @property
    def obs_dtype(self) -> torch.dtype:
        """The dtype the first layer reads (a rollout may store observations in it)."""
        return torch.bfloat16 if self.low_precision else torch.float32

    def features(self, obs, layers=None):
        """The output (float32) of the trunk, or of ``layers``, for a batch of observations
        (any dtype)."""
        layers = self.trunk if layers is None else layers
        if not self.low_precision:
            return layers(obs.float())
        x, low = obs.to(torch.bfloat16), torch.bfloat16
        for layer, activation in zip(layers[::2], layers[1::2], strict=True):
            x = activation(functional.linear(x, layer.weight.to(low), layer.bias.to(low)))
        return x.float()

    def forward(self, obs, masks):
        """(logits with illegal actions at :data:`ILLEGAL_LOGIT`, values) of a batch;
        ``masks`` is bool, True where an action is legal."""
        return self.heads(self.features(obs), masks, self.critic_features(obs))

    def critic_features(self, obs):
        """What the value head reads: the critic's output, or None where it reads the
        trunk's."""
        return None if self.critic is None else self.features(obs, self.critic)

    def heads(self, x, masks, critic_x=None):
        """:meth:`forward`'s results from the trunk's output ``x`` (and the critic's,
        ``critic_x``, where it has layers of its own)."""
        logits = self.policy_head(x).masked_fill(~masks, ILLEGAL_LOGIT)
        values = self.value_head(x if critic_x is None else critic_x)
        return logits, values.squeeze(-1) if self.value_seats == 1 else values

    def evaluate(self, obs, masks):
        """(move probabilities, values) as numpy for a batch of numpy observations and masks
        (int8 or bool), no gradients: :meth:`forward`'s results, the float32 first layer
        summed over each observation's non-zero inputs alone (:func:`sparse_linear`; the
        search's leaves are 5 to 20% non-zero)."""
        with torch.inference_mode():
            if self.low_precision:
                x = self.features(torch.from_numpy(obs))
            else:
                first = self.trunk[0]
                x = np.empty((len(obs), first.out_features), np.float32)
                sparse_linear(obs, self.first_rows(), first.bias.detach().numpy(), x)
                x = self.trunk[1:](torch.from_numpy(x))
            critic_x = self.critic_features(torch.from_numpy(obs))
            logits, values = self.heads(x, torch.from_numpy(masks).bool(), critic_x)
            return torch.softmax(logits, -1).numpy(), values.reshape(len(obs), -1).numpy()

    def first_rows(self) -> np.ndarray:
        """The first layer's weight transposed, a row per input (float32, C-contiguous), made
        again only when the weight is replaced or written in place (torch counts every such
        write, an optimiser's step or ``load_state_dict`` included; a write through ``.data``
        goes uncounted)."""
        weight = self.trunk[0].weight
        key = (weight.data_ptr(), weight._version)
        if self._first_rows[0] != key:
            self._first_rows = (key, weight.detach().T.contiguous().numpy())
        return self._first_rows[1]

    def action_logits(self, obs):
        """The policy's logits (unmasked) of a batch on the CPU, wherever the network is:
        what :class:`heist_envs.core.single_agent.PolicyOpponent` plays a snapshot with."""
        device = self.policy_head.weight.device
        return self.policy_head(self.features(obs.to(device))).cpu()

    def predict(self, obs, action_masks, deterministic=True):
        """(actions, None) for a batch of observations and masks (numpy), as SB3's
        ``predict`` answers: the most likely legal action, or one drawn with
        ``deterministic=False``. What ``experiments.train.evaluate.win_rate`` plays."""
        device = self.policy_head.weight.device
        with torch.inference_mode():
            obs = torch.as_tensor(obs, device=device)
            masks = torch.as_tensor(action_masks, device=device).bool()
            logits, _ = self(obs, masks)
            actions = logits.argmax(-1) if deterministic else sample(logits)
        return actions.cpu().numpy(), None

    def set_training_mode(self, mode):
        """``train(mode)`` under SB3's name, which the trainers' snapshot pool calls
        (:class:`experiments.train.sb3.SelfPlay`)."""
        self.train(mode)

    # SB3's layout ------------------------------------------------------------------------------

    def sb3_weights(self) -> dict:
        """The weights in SB3's ``MlpPolicy`` layout (``mlp_extractor.policy_net`` the
        trunk, ``mlp_extractor.value_net`` the critic's layers or the trunk again,
        ``action_net`` the policy head, ``value_net`` the value head's observer column; a
        per-seat head also whole as ``seat_value_net``), on the CPU."""
        weights = {}
        critic = self.trunk if self.critic is None else self.critic
        for net, layers in (("policy_net", self.trunk), ("value_net", critic)):
            for k, layer in enumerate(layers[::2]):
                weights[f"mlp_extractor.{net}.{2 * k}.weight"] = layer.weight
                weights[f"mlp_extractor.{net}.{2 * k}.bias"] = layer.bias
        weights["action_net.weight"] = self.policy_head.weight
        weights["action_net.bias"] = self.policy_head.bias
        weights["value_net.weight"] = self.value_head.weight[:1]
        weights["value_net.bias"] = self.value_head.bias[:1]
        if self.value_seats > 1:
            weights["seat_value_net.weight"] = self.value_head.weight
            weights["seat_value_net.bias"] = self.value_head.bias
        return {key: tensor.detach().cpu().clone() for key, tensor in weights.items()}

    @classmethod
    def from_sb3_weights(
        cls, weights, activation, low_precision=False, seat_values=False, keep_critic=False
    ):
        """A network holding an SB3 policy's actor (its layers as the trunk, its action net
        as the policy head), and its value head where the critic's layers are the actor's
        (a network of this class saved it); returns (network, whether the value came too).
        A policy with a critic of its own (any SB3 run's) leaves the value head fresh on the
        trunk, or with ``keep_critic`` comes with that critic, its layers and value head. With
        ``seat_values`` the value head is the saved per-seat one (``seat_value_net``, which
        must be there), else the observer's value alone."""
        trunk, critic = hidden_layers(weights, "policy_net"), hidden_layers(weights, "value_net")
        shared = critic == trunk and all(
            torch.equal(tensor, weights[key.replace("policy_net", "value_net")])
            for key, tensor in weights.items()
            if key.startswith("mlp_extractor.policy_net.")
        )
        own_critic = keep_critic and not shared
        net = cls(
            weights["mlp_extractor.policy_net.0.weight"].shape[1],
            weights["action_net.weight"].shape[0],
            trunk,
            activation,
            low_precision,
            weights["seat_value_net.weight"].shape[0] if seat_values else 1,
            critic if own_critic else None,
        )
        value = "seat_value_net" if seat_values else "value_net"
        copies = [(net.trunk, "policy_net")] + [(net.critic, "value_net")] * own_critic
        with torch.no_grad():  # counted writes (first_rows sees them)
            for layers, name in copies:
                for k, layer in enumerate(layers[::2]):
                    layer.weight.copy_(weights[f"mlp_extractor.{name}.{2 * k}.weight"])
                    layer.bias.copy_(weights[f"mlp_extractor.{name}.{2 * k}.bias"])
            net.policy_head.weight.copy_(weights["action_net.weight"])
            net.policy_head.bias.copy_(weights["action_net.bias"])
            if shared or own_critic:
                net.value_head.weight.copy_(weights[f"{value}.weight"])
                net.value_head.bias.copy_(weights[f"{value}.bias"])
        return net, shared or own_critic


@nb.njit(cache=True)
def sparse_linear(obs, weight_t, bias, out):
    """``out = obs @ weight_t + bias`` (float32; ``weight_t``: a linear layer's weight
    transposed, C-contiguous) through the non-zero entries of each row of ``obs`` alone: their
    columns gathered first, then their weight rows added up, four at a time."""
    columns = np.zeros(obs.shape[1] + 3, np.int64)
    values = np.zeros(obs.shape[1] + 3, np.float32)
    width = out.shape[1]
    for j in range(obs.shape[0]):
        count = 0
        for i in range(obs.shape[1]):
            columns[count] = i
            count += obs[j, i] != 0
        for n in range(count):
            values[n] = obs[j, columns[n]]
        values[count : count + 3] = 0.0  # the last four's padding adds nothing
        for u in range(width):
            out[j, u] = bias[u]
        for n in range(0, count, 4):
            i0, i1, i2, i3 = columns[n], columns[n + 1], columns[n + 2], columns[n + 3]
            x0, x1, x2, x3 = values[n], values[n + 1], values[n + 2], values[n + 3]
            for u in range(width):
                out[j, u] += (x0 * weight_t[i0, u] + x1 * weight_t[i1, u]) + (
                    x2 * weight_t[i2, u] + x3 * weight_t[i3, u]
                )


def sample(logits, generator=None):
    """One action per row of masked logits, drawn from their softmax (the Gumbel-max trick:
    one uniform per logit, no normalising)."""
    uniform = torch.rand(logits.shape, generator=generator, device=logits.device)
    return (logits - torch.log(-torch.log(uniform.clamp_min(1e-20)))).argmax(-1)


# Checkpoints -------------------------------------------------------------------------------------


def save_network(net, path, game_name, num_players, **extra) -> Path:
    """Write ``net`` as a policy-only checkpoint in SB3's layout (what the ``ppo`` agent
    plays), with its metadata: the game, player count, ``value_seats`` and the file's
    ``weights_sha256``, which loading checks."""
    path = Path(path).with_suffix(".zip")
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.save(net.sb3_weights(), path)
    activation = getattr(torch.nn, ACTIVATIONS[net.activation])
    extra = {**extra, "value_seats": net.value_seats, "weights_sha256": file_digest(path)}
    return write_info(path, game_name, num_players, True, activation, extra)


def load_network(
    path, game_name, num_players=None, policy_start=False
) -> tuple[PolicyValueNet, int]:
    """The per-seat network saved at ``path`` for ``game_name`` (and ``num_players``, its own
    count if None) and the player count; a GameRecordError in one line where the checkpoint
    is for another game, count or one side, has no value per seat, or cannot be read. With
    ``policy_start`` a policy without a value per seat (a ``ppo`` checkpoint, a shipped
    policy) is read too, its trunk and policy head, with a new value head per seat: expert
    iteration's start from a trained policy."""
    game = heist_envs.get_game(game_name)
    info, num_players = check_checkpoint(path, game.name, num_players)
    if info.get("side") is not None:
        raise GameRecordError(
            f"checkpoint {path} plays the {info['side']} only; a search guide plays every "
            "seat (heist train --method exit writes one)"
        )
    seats = game.num_seats(num_players)
    per_seat = info.get("value_seats") == seats
    if not (per_seat or policy_start):
        raise GameRecordError(
            f"checkpoint {path} has {info.get('value_seats', 1)} value(s) per decision; a "
            f"search guide for {game.name} with {num_players} players has one per seat "
            f"({seats}), as heist train --method exit writes it"
        )
    weights = read_weights(path, info.get("policy_only"))
    activation = info.get("activation", DEFAULT_ACTIVATION).lower()
    try:
        net, _ = PolicyValueNet.from_sb3_weights(weights, activation, seat_values=per_seat)
    except (KeyError, RuntimeError, IndexError) as error:
        reason = str(error).splitlines()[0] if str(error) else repr(error)
        raise GameRecordError(
            f"checkpoint {path}: its weights are not a network ({reason})"
        ) from None
    if not per_seat:
        net.new_value_head(seats)
    shape = (net.trunk[0].in_features, net.policy_head.out_features, net.value_seats)
    if shape != (game.obs_size, game.num_actions, seats):
        raise GameRecordError(
            f"checkpoint {path}: its network reads {shape[0]} numbers and writes {shape[1]} "
            f"moves and {shape[2]} values; {game.name} needs {game.obs_size}, "
            f"{game.num_actions} and {seats}"
        )
    return net.eval(), num_players


# The search's guide ------------------------------------------------------------------------------


class NetworkEvaluator:
    """The batched search's evaluator (:class:`agents.batch_search.Evaluator`) from a
    per-seat network: each leaf's prior is the policy head's softmax over its legal moves,
    its values the value head's, all the leaves of a simulation step in one forward pass
    (:meth:`PolicyValueNet.evaluate`).
    ``mix`` in [0, 1] blends in the values of ``rollouts`` (a
    :class:`~agents.batch_search.RolloutEvaluator`): ``(1 - mix) * network + mix * rollout``."""

    scores_finished = False

    def __init__(self, net, mix=0.0, rollouts=None):
        if isinstance(mix, bool) or not isinstance(mix, (int, float)) or not 0 <= mix <= 1:
            raise ValueError(f"mix must be a number from 0 to 1, got {mix!r:.80}")
        if mix > 0 and rollouts is None:
            raise ValueError("mix above 0 blends in rollouts: give the rollout evaluator")
        self.net, self.mix, self.rollouts = net, float(mix), rollouts

    def __call__(self, leaves):
        priors, values = self.net.evaluate(leaves.observations, leaves.masks)
        if self.mix > 0:
            values = (1 - self.mix) * values + self.mix * self.rollouts(leaves)[1]
        return priors, values.astype(np.float32)
