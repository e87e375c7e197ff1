"""Fit How to Rob a Bank's rollout value model (``agents.how_to_rob_a_bank.rollout``).

Plays ``--games`` games of the rollout policy against itself (alternately 4 and 3 players),
samples ROB-phase states (each with chance ``--sample``), labels each with whether the
robbers went on to win, and fits a logistic regression over the module's ``features`` by
Newton's method with a small L2 penalty. Prints the log-loss against the base rate's and
the weights in the module's table layout (``VALUE_BY_NEED``, ``PROGRESS_WEIGHTS``), to be
pasted there.

    python -m agents.how_to_rob_a_bank.fit_value --games 6000
"""

from __future__ import annotations

import argparse

import numba as nb
import numpy as np

import heist_envs
from agents.how_to_rob_a_bank import rollout as policy
from heist_envs.core.game import RUNNING
from heist_envs.how_to_rob_a_bank.state import ROB

GAME = heist_envs.get_game("how_to_rob_a_bank")
legal_mask, apply = GAME.legal_mask, GAME.apply
NUM_ACTIONS = GAME.num_actions


@nb.njit
def sample_game(state, seed, rate, features, rows):
    """Play one self-play game; write sampled ROB-phase features from row ``rows``; -> count."""
    np.random.seed(seed)
    s = state[0]
    mask = np.zeros(NUM_ACTIONS, np.int8)
    row = np.empty(policy.N_FEATURES)
    n = 0
    while s.status == RUNNING:
        if np.random.random() < rate and rows + n < features.shape[0] and s.phase == ROB:
            policy.features(s, row)
            features[rows + n] = row
            n += 1
        legal_mask(s, mask)
        apply(s, policy.rollout_action(s, mask))
    return n


def fit_logistic(x, y, l2=1e-2, iterations=30):
    w = np.zeros(x.shape[1])
    for _ in range(iterations):
        p = 1 / (1 + np.exp(-x @ w))
        gradient = x.T @ (p - y) + l2 * w
        hessian = (x.T * (p * (1 - p))) @ x + l2 * np.eye(x.shape[1])
        w -= np.linalg.solve(hessian, gradient)
    return w


def log_loss(p, y):
    return float(-np.mean(y * np.log(p + 1e-9) + (1 - y) * np.log(1 - p + 1e-9)))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6000)
    parser.add_argument("--sample", type=float, default=0.1, help="chance to keep a state")
    parser.add_argument("--seed", type=int, default=1_000_000)
    args = parser.parse_args(argv)
    features = np.zeros((args.games * 20, policy.N_FEATURES))
    labels = []
    rows = 0
    for k in range(args.games):
        state = GAME.new_state(4 if k % 2 == 0 else 3, seed=args.seed + k)
        n = sample_game(GAME.kernel_view(state), k, args.sample, features, rows)
        labels += [float(state[0]["winner"] == 1)] * n
        rows += n
    x, y = features[:rows], np.array(labels)
    w = fit_logistic(x, y)
    base = np.full_like(y, y.mean())
    print(f"{rows} states, robbers win {y.mean():.3f}")
    print(
        f"log-loss {log_loss(1 / (1 + np.exp(-x @ w)), y):.3f} (base rate {log_loss(base, y):.3f})"
    )
    np.set_printoptions(precision=2, suppress=True, linewidth=100)
    print("VALUE_BY_NEED =", repr(w[: policy.F_PROGRESS].reshape(policy.VALUE_BY_NEED.shape)))
    print("PROGRESS_WEIGHTS =", repr(w[policy.F_PROGRESS :]))


if __name__ == "__main__":
    main()
