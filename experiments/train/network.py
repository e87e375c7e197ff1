"""The policy-and-value network of :mod:`experiments.train.torch_ppo`: one trunk of fully
connected layers over a seat's observation, shared by a policy head (a logit per action,
illegal actions masked) and a value head (the seat's expected return).

It needs torch alone (no stable-baselines3), so that any trainer can use it as a policy and a
value, a search-guided one included. Its checkpoints are written in SB3's ``MlpPolicy``
layout, the trunk copied into both the actor's and the critic's layers
(:meth:`PolicyValueNet.sb3_weights`): the ``ppo`` agent (:mod:`agents.ppo`), the arena,
``experiments.train.evaluate`` and ``heist train --init`` read them as they read every other
policy, and :meth:`PolicyValueNet.from_sb3_weights` reads them back (or any SB3 policy's
actor).

One trunk instead of SB3's two halves the arithmetic of every pass; the first layer, over
observations of 400 to 1,294 numbers, is most of it. With ``low_precision`` the trunk computes
in bfloat16 (its weights kept in float32, the heads in float32): its first layer three times
as fast on a CPU with AVX-512 BF16, and its results do not depend on the batch a row comes in,
so the probabilities an update recomputes are those the rollout was played with
(docs/training/index.md has the measurements, and those of the sparse layers that lost).
The ``ppo`` agent plays an exported network in float32.
"""

from __future__ import annotations

import torch
from torch import nn
from torch.nn import functional

from agents.ppo import ACTIVATIONS, hidden_layers

#: The logit of an illegal action: its probability is exactly 0, and 0 * logit stays finite
#: in the entropy (as sb3-contrib's masked distribution does it).
ILLEGAL_LOGIT = -1e8


class PolicyValueNet(nn.Module):
    """``hidden`` layers of ``activation`` units over ``obs_size`` inputs, then a policy head
    of ``num_actions`` logits and a value head. ``forward(obs, masks)`` gives the masked
    logits and the values of a batch."""

    def __init__(
        self, obs_size, num_actions, hidden=(128, 128), activation="tanh", low_precision=False
    ):
        super().__init__()
        layers, width = [], obs_size
        for size in hidden:
            layers += [nn.Linear(width, size), getattr(nn, ACTIVATIONS[activation])()]
            width = size
        self.trunk = nn.Sequential(*layers)
        self.policy_head = nn.Linear(width, num_actions)
        self.value_head = nn.Linear(width, 1)
        self.activation = activation
        self.low_precision = low_precision
        # SB3's and CleanRL's initialisation: orthogonal, small policy logits at the start
        for layer in self.trunk[::2]:
            nn.init.orthogonal_(layer.weight, 2**0.5)
            nn.init.zeros_(layer.bias)
        for head, gain in ((self.policy_head, 0.01), (self.value_head, 1.0)):
            nn.init.orthogonal_(head.weight, gain)
            nn.init.zeros_(head.bias)

    @property
    def hidden(self) -> list[int]:
        return [layer.out_features for layer in self.trunk[::2]]

    @property
    def obs_dtype(self) -> torch.dtype:
        """The dtype the first layer reads (a rollout may store observations in it)."""
        return torch.bfloat16 if self.low_precision else torch.float32

    def features(self, obs):
        """The trunk's output (float32) for a batch of observations (any dtype)."""
        if not self.low_precision:
            return self.trunk(obs.float())
        x, low = obs.to(torch.bfloat16), torch.bfloat16
        for layer, activation in zip(self.trunk[::2], self.trunk[1::2], strict=True):
            x = activation(functional.linear(x, layer.weight.to(low), layer.bias.to(low)))
        return x.float()

    def forward(self, obs, masks):
        """(logits with illegal actions at :data:`ILLEGAL_LOGIT`, values) of a batch;
        ``masks`` is bool, True where an action is legal."""
        x = self.features(obs)
        logits = self.policy_head(x).masked_fill(~masks, ILLEGAL_LOGIT)
        return logits, self.value_head(x).squeeze(-1)

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
        """The weights in SB3's ``MlpPolicy`` layout (``mlp_extractor.policy_net`` and
        ``value_net`` both the trunk, ``action_net`` the policy head, ``value_net`` the value
        head), on the CPU."""
        weights = {}
        for k, layer in enumerate(self.trunk[::2]):
            for net in ("policy_net", "value_net"):
                weights[f"mlp_extractor.{net}.{2 * k}.weight"] = layer.weight
                weights[f"mlp_extractor.{net}.{2 * k}.bias"] = layer.bias
        for name, head in (("action_net", self.policy_head), ("value_net", self.value_head)):
            weights[f"{name}.weight"], weights[f"{name}.bias"] = head.weight, head.bias
        return {key: tensor.detach().cpu().clone() for key, tensor in weights.items()}

    @classmethod
    def from_sb3_weights(cls, weights, activation, low_precision=False):
        """A network holding an SB3 policy's actor (its layers as the trunk, its action net
        as the policy head), and its value head where the critic's layers are the actor's
        (a network of this class saved it); returns (network, whether the value came too).
        A policy with a critic of its own (any SB3 run's) leaves the value head fresh."""
        trunk = hidden_layers(weights, "policy_net")
        net = cls(
            weights["mlp_extractor.policy_net.0.weight"].shape[1],
            weights["action_net.weight"].shape[0],
            trunk,
            activation,
            low_precision,
        )
        for k, layer in enumerate(net.trunk[::2]):
            layer.weight.data.copy_(weights[f"mlp_extractor.policy_net.{2 * k}.weight"])
            layer.bias.data.copy_(weights[f"mlp_extractor.policy_net.{2 * k}.bias"])
        net.policy_head.weight.data.copy_(weights["action_net.weight"])
        net.policy_head.bias.data.copy_(weights["action_net.bias"])
        shared = hidden_layers(weights, "value_net") == trunk and all(
            torch.equal(tensor, weights[key.replace("policy_net", "value_net")])
            for key, tensor in weights.items()
            if key.startswith("mlp_extractor.policy_net.")
        )
        if shared:
            net.value_head.weight.data.copy_(weights["value_net.weight"])
            net.value_head.bias.data.copy_(weights["value_net.bias"])
        return net, shared


def sample(logits, generator=None):
    """One action per row of masked logits, drawn from their softmax (the Gumbel-max trick:
    one uniform per logit, no normalising)."""
    uniform = torch.rand(logits.shape, generator=generator, device=logits.device)
    return (logits - torch.log(-torch.log(uniform.clamp_min(1e-20)))).argmax(-1)
