"""Learn Les Toits de Paris's heuristic weights by CMA-ES against a table of heuristics.

The heuristic agent (``agents.toits_de_paris.heuristic``) values its moves with a table of
weights (``WEIGHTS``: what a card's potential, a reserve draw, a bell's risk are worth, how
much better revealing on must be than stopping). This run searches that table with CMA-ES
(the ``cma`` package): each candidate plays one seat of ``--games`` games at each player
count in ``--counts``, heuristics with the ``--opponents`` table the other seats (default:
the hand-set table, where the search also starts), in the compiled form the search's
rollouts use (``agents.toits_de_paris.rollout.policy_action``, the same valuation read from
the state); its fitness is its mean win share over the fair share, averaged over
the counts, on seeds that every candidate of a generation shares. After each generation the
mean of the search distribution is scored the same way on one fixed set of seeds (the
learning curve). Writes the learned table (``heuristic:weights=PATH`` plays it; the shipped
one is ``weights=tuned``) and the curve as a PNG.

    python -m experiments.train.weights --generations 30 --seed 0
    heist train --method weights --game toits_de_paris  # the same
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from pathlib import Path

import cma
import numba as nb
import numpy as np

import heist_envs
from agents.heuristic import WEIGHTED
from agents.toits_de_paris import rollout as policy
from agents.toits_de_paris.heuristic import TUNED_WEIGHTS, WEIGHTS, load_weights
from heist_envs.core.game import RUNNING

GAME = heist_envs.get_game("toits_de_paris")
legal_mask, apply, returns = GAME.legal_mask, GAME.apply, GAME.returns
#: CMA-ES steps in units of each weight's scale: its hand-set size, at least this.
MIN_SCALE = 0.3
EVAL_SEED = 999_000_000  # the learning curve's fixed games


@nb.njit
def seat_return(state, weights, seed):
    """Play one game to the end, each seat with its row of ``weights``; -> per-seat returns."""
    np.random.seed(seed)
    s = state[0]
    mask = np.zeros(policy.NUM_ACTIONS, np.int8)
    while s.status == RUNNING:
        legal_mask(s, mask)
        apply(s, policy.policy_action(s, mask, weights[s.actor]))
    out = np.zeros(s.num_players, np.float32)
    returns(s, out)
    return out


def relative_share(candidate, opponents, num_players, games, seed) -> float:
    """``candidate``'s mean return in one seat of ``games`` games (seats rotated) against
    the ``opponents`` weights at the other seats, over the fair share (1: as strong as them)."""
    weights = np.tile(opponents, (num_players, 1))
    total = 0.0
    for k in range(games):
        seat = k % num_players
        weights[:] = opponents
        weights[seat] = candidate
        state = GAME.new_state(num_players, seed=seed + k)
        total += seat_return(GAME.kernel_view(state), weights, seed + k)[seat]
    return float(total / games * num_players)


def fitness(candidate, opponents, counts, games, seed) -> list[float]:
    return [relative_share(candidate, opponents, n, games, seed + 10_000_000 * n) for n in counts]


def plot_curve(curve, counts, opponents, path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.5))
    generations = [point["generation"] for point in curve]
    for i, n in enumerate(counts):
        ax.plot(generations, [point["share"][i] for point in curve], label=f"{n} players")
    ax.axhline(1.0, color="grey", lw=0.8, ls="--")
    ax.set_xlabel("CMA-ES generation")
    ax.set_ylabel("win share / fair share")
    ax.set_title(f"Les Toits de Paris: learned weights against the {opponents} heuristic")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--game", choices=WEIGHTED, default=GAME.name, help="a game whose heuristic has weights"
    )
    parser.add_argument("--generations", type=int, default=30)
    parser.add_argument("--population", type=int, default=12)
    parser.add_argument("--games", type=int, default=2000, help="games per candidate and count")
    parser.add_argument("--eval-games", type=int, default=4000, help="games per point of the curve")
    parser.add_argument("--counts", type=int, nargs="+", default=[4, 3, 2])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--opponents",
        default="hand-set",
        help="the weights the other seats play, where the search starts: hand-set (default), "
        "tuned (the shipped table) or a file this command wrote",
    )
    parser.add_argument("--out", type=Path, default=TUNED_WEIGHTS)
    parser.add_argument(
        "--curve", type=Path, default=Path("docs/learning_curves/toits_de_paris_tuned.png")
    )
    args = parser.parse_args(argv)
    for n in args.counts:
        try:
            GAME.check_players(n)
        except ValueError as error:
            parser.error(str(error))
    if min(args.generations, args.population, args.games, args.eval_games) < 1:
        parser.error("generations, population, games and eval-games must be at least 1")
    try:
        table = load_weights(None if args.opponents == "hand-set" else args.opponents)
    except ValueError as error:
        parser.error(str(error))
    opponents = np.array([table[name] for name in policy.WEIGHT_NAMES])

    scale = np.maximum(np.abs(opponents), MIN_SCALE)
    es = cma.CMAEvolutionStrategy(
        np.zeros(len(scale)),
        0.5,
        {"popsize": args.population, "seed": args.seed + 1, "verbose": -9},
    )
    start = time.time()
    curve = []
    for generation in range(args.generations):
        seed = args.seed * 1_000_003 + generation * args.games
        candidates = es.ask()
        es.tell(
            candidates,
            [
                -np.mean(fitness(opponents + x * scale, opponents, args.counts, args.games, seed))
                for x in candidates
            ],
        )
        mean = opponents + es.mean * scale
        share = fitness(mean, opponents, args.counts, args.eval_games, EVAL_SEED)
        curve.append({"generation": generation + 1, "share": share})
        print(
            f"generation {generation + 1}: "
            + ", ".join(f"{n} players {s:.3f}" for n, s in zip(args.counts, share, strict=True))
            + f" ({time.time() - start:.0f} s)",
            flush=True,
        )
    record = {
        "game": GAME.name,
        "weights": {
            name: round(float(v), 4) for name, v in zip(policy.WEIGHT_NAMES, mean, strict=True)
        },
        "hand_set": WEIGHTS,
        "opponents": {"name": args.opponents, "weights": table},
        "counts": args.counts,
        "command": "python -m experiments.train.weights "
        + shlex.join(sys.argv[1:] if argv is None else argv),
        "wall_seconds": round(time.time() - start),
        "curve": curve,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(record, indent=1) + "\n")
    args.curve.parent.mkdir(parents=True, exist_ok=True)
    plot_curve(curve, args.counts, args.opponents, args.curve)
    print(f"wrote {args.out} and {args.curve}")


if __name__ == "__main__":
    main()
