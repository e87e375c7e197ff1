"""Learn a heuristic's weights by CMA-ES against a table of heuristics.

A heuristic with weights values its moves with a table of them (``WEIGHTS`` in
``agents/<game>/compiled.py``; :mod:`agents.profiles` lists what such a game provides). This
run searches that table with CMA-ES (the ``cma`` package): each candidate plays one seat of
``--games`` games at each player count in ``--counts``, heuristics with the ``--opponents``
table the other seats (default: the hand-set table, where the search also starts), in the
compiled form (the game's rollout module's ``policy_action``, the same valuation read from
the state); its fitness is its mean win share over the fair share, averaged over the counts,
on seeds that every candidate of a generation shares. ``--seating arena`` scores it at the
arena's two-agent tables instead: the candidate holds the seats of one of two agents as
:func:`agents.arena.schedule` seats them (two of four, A B A B), its win share per seat held;
a table tuned against three copies of the hand-set one gives up part of its edge where a
copy of itself sits opposite. After each generation the mean of the search distribution is
scored the same way on one fixed set of seeds (the learning curve).
Writes the learned table (``heuristic:weights=PATH`` plays it; the shipped one, the default
``--out``, is ``weights=tuned``) and the curve as a PNG.

    python -m experiments.train.weights --game GAME --generations 30 --seed 0
    heist train --method weights --game GAME  # the same
"""

from __future__ import annotations

import json
import shlex
import sys
import time
from functools import cache
from pathlib import Path

import cma
import numba as nb
import numpy as np

import heist_envs
from agents.arena import schedule, seat_entrants
from agents.profiles import profile, weighted_games
from experiments.common import Interrupted
from experiments.train.checks import Parser, check_least
from heist_envs.core.game import RUNNING

#: CMA-ES steps in units of each weight's scale: its hand-set size, at least this.
MIN_SCALE = 0.3
EVAL_SEED = 999_000_000  # the learning curve's fixed games
#: The least value of each whole-number flag (CMA-ES needs two candidates a generation).
LEAST = {"generations": 1, "population": 2, "games": 1, "eval_games": 1}


class WeightedHeuristic:
    """What the search needs of a game whose heuristic has weights: the hand-set table, where
    the learned one ships, how a table is read, and a compiled player of one seat's row of
    weights that plays one game to the end (:meth:`seat_returns`)."""

    def __init__(self, game_name):
        game_profile = profile(game_name)
        self.game = heist_envs.get_game(game_name)
        heuristic, rollout = game_profile.compiled, game_profile.rollout
        if not game_profile.weighted or not hasattr(rollout, "policy_action"):
            raise ValueError(
                f"the {self.game.name} heuristic has no weights to tune (a table WEIGHTS in "
                f"agents/{self.game.name}/compiled.py and a compiled policy_action in its "
                f"rollout.py); games with weights: {', '.join(weighted_games())}"
            )
        self.hand_set, self.tuned_path = heuristic.WEIGHTS, heuristic.TUNED_WEIGHTS
        self.load_weights = heuristic.load_weights
        self.seat_returns = compiled_seat_returns(self.game.name)

    def vector(self, table) -> np.ndarray:
        """A table of weights as the compiled policy takes it: float64, in ``WEIGHTS`` order."""
        return np.array([table[name] for name in self.hand_set])

    def table(self, vector) -> dict:
        """A vector of weights as the table a file holds (rounded to 4 decimals)."""
        return {name: round(float(v), 4) for name, v in zip(self.hand_set, vector, strict=True)}


@cache
def compiled_seat_returns(game_name):
    """A compiled ``seat_returns(state, weights, seed)`` for the game (built once per
    process): play one game to the end, each seat with its row of ``weights`` for the rollout
    module's ``policy_action`` (numba's ``np.random`` seeded with ``seed``); -> per-seat
    returns."""
    game = heist_envs.get_game(game_name)
    legal_mask, apply, returns = game.legal_mask, game.apply, game.returns
    policy_action, num_actions = profile(game_name).rollout.policy_action, game.num_actions

    @nb.njit
    def seat_returns(state, weights, seed):
        np.random.seed(seed)
        s = state[0]
        mask = np.zeros(num_actions, np.int8)
        while s.status == RUNNING:
            legal_mask(s, mask)
            apply(s, policy_action(s, mask, weights[s.actor]))
        out = np.zeros(s.num_players, np.float32)
        returns(s, out)
        return out

    return seat_returns


def candidate_seats(game, seating, num_players) -> list[list[int]]:
    """The seats the candidate holds in each game of a cycle: one seat in turn (``one``), or
    the seats of entrant 0 of two as the arena seats them (``arena``: A B A B at 4 players)."""
    if seating == "one":
        return [[seat] for seat in range(num_players)]
    sides = game.side_seats(num_players)
    return [
        [seat for seat, entrant in enumerate(seat_entrants(sides, lineup)) if entrant == 0]
        for lineup in schedule(2, len(sides))
    ]


def relative_share(heuristic, candidate, opponents, num_players, games, seed, seating="one"):
    """``candidate``'s mean return per seat it holds over ``games`` games (seatings cycled, see
    :func:`candidate_seats`) against the ``opponents`` weights at the other seats, over the
    fair share (1: as strong as them)."""
    game = heuristic.game
    cycle = candidate_seats(game, seating, num_players)
    weights = np.tile(opponents, (num_players, 1))
    total = held = 0.0
    for k in range(games):
        seats = cycle[k % len(cycle)]
        weights[:] = opponents
        weights[seats] = candidate
        state = game.new_state(num_players, seed=seed + k)
        total += heuristic.seat_returns(game.kernel_view(state), weights, seed + k)[seats].sum()
        held += len(seats)
    return float(total / held * num_players)


def fitness(heuristic, candidate, opponents, counts, games, seed, seating="one") -> list[float]:
    return [
        relative_share(heuristic, candidate, opponents, n, games, seed + 10_000_000 * n, seating)
        for n in counts
    ]


def plot_curve(curve, counts, opponents, title, path):
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
    ax.set_title(f"{title}: learned weights against the {opponents} heuristic")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def parse_args(argv):
    """The flags, checked, with ``heuristic`` (the game's :class:`WeightedHeuristic`) and
    ``table`` (the opponents' weights) added."""
    games = weighted_games()
    parser = Parser(prog="heist train --method weights", description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--game",
        choices=games,
        default=next(iter(games), None),
        required=not games,
        help="a game whose heuristic has weights (default: the first)",
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
    parser.add_argument(
        "--seating",
        choices=["one", "arena"],
        default="one",
        help="the candidate's seats: one seat in turn against the opponents' table (default), "
        "or the seats of one of two agents as the arena seats them (two of four, A B A B)",
    )
    parser.add_argument(
        "--out", type=Path, default=None, help="default: the shipped table (weights=tuned)"
    )
    parser.add_argument(
        "--curve", type=Path, default=None, help="default: docs/learning_curves/<game>_tuned.png"
    )
    args = parser.parse_args(argv)
    try:
        args.heuristic = WeightedHeuristic(args.game)
        for n in args.counts:
            args.heuristic.game.check_players(n)
        check_least(args, LEAST)
        args.table = args.heuristic.load_weights(
            None if args.opponents == "hand-set" else args.opponents
        )
    except ValueError as error:
        parser.error(str(error))
    args.out = args.out or args.heuristic.tuned_path
    args.curve = args.curve or Path(f"docs/learning_curves/{args.game}_tuned.png")
    return args


def search(args):
    """Run CMA-ES from the opponents' table; yields, after each generation, the mean of the
    search distribution and its point of the learning curve."""
    heuristic = args.heuristic
    opponents = heuristic.vector(args.table)
    scale = np.maximum(np.abs(opponents), MIN_SCALE)
    es = cma.CMAEvolutionStrategy(
        np.zeros(len(scale)),
        0.5,
        {"popsize": args.population, "seed": args.seed + 1, "verbose": -9},
    )
    start = time.time()
    for generation in range(args.generations):
        seed = args.seed * 1_000_003 + generation * args.games
        candidates = es.ask()
        es.tell(
            candidates,
            [
                -np.mean(
                    fitness(
                        heuristic,
                        opponents + x * scale,
                        opponents,
                        args.counts,
                        args.games,
                        seed,
                        args.seating,
                    )
                )
                for x in candidates
            ],
        )
        mean = opponents + es.mean * scale
        share = fitness(
            heuristic, mean, opponents, args.counts, args.eval_games, EVAL_SEED, args.seating
        )
        print(
            f"generation {generation + 1}: "
            + ", ".join(f"{n} players {s:.3f}" for n, s in zip(args.counts, share, strict=True))
            + f" ({time.time() - start:.0f} s)",
            flush=True,
        )
        yield mean, {"generation": generation + 1, "share": share}


def write_table(args, mean, curve, seconds, argv):
    """Write the table of weights ``mean`` with the run's record, and its learning curve."""
    heuristic = args.heuristic
    record = {
        "game": heuristic.game.name,
        "weights": heuristic.table(mean),
        "hand_set": heuristic.hand_set,
        "opponents": {"name": args.opponents, "weights": args.table},
        "counts": args.counts,
        "seating": args.seating,
        "command": "python -m experiments.train.weights "
        + shlex.join(sys.argv[1:] if argv is None else argv),
        "wall_seconds": round(seconds),
        "curve": curve,
    }
    if len(curve) < args.generations:
        record["interrupted_after_generation"] = len(curve)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(record, indent=1) + "\n")
    args.curve.parent.mkdir(parents=True, exist_ok=True)
    plot_curve(curve, args.counts, args.opponents, heuristic.game.title, args.curve)


def main(argv=None):
    args = parse_args(argv)
    start = time.time()
    kept, curve = None, []  # the last generation's mean, and the curve so far
    try:
        for mean, point in search(args):
            kept = mean
            curve.append(point)
    except KeyboardInterrupt:
        if not curve:
            raise Interrupted("no generation had finished, nothing written") from None
        write_table(args, kept, curve, time.time() - start, argv)
        raise Interrupted(
            f"wrote the weights after generation {len(curve)} of {args.generations} to "
            f"{args.out} and the curve to {args.curve}"
        ) from None
    write_table(args, kept, curve, time.time() - start, argv)
    print(f"wrote {args.out} and {args.curve}")


if __name__ == "__main__":
    main()
