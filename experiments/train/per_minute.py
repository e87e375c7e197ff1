"""Learning per wall-clock minute: the SB3 trainer (MaskablePPO) and the torch learner, each at
its defaults, trained side by side on the same machine for the same minutes against the same
opponents and evaluated against them, so that both share whatever else loads the cores.

    python -m experiments.train.per_minute --game GAME --minutes 5 --out docs/learning_curves

Each learner runs ``heist train --backend NAME`` in a process of its own (one torch thread, one
numba thread) until the minutes are up, when it gets Ctrl-C and keeps its evaluations. Writes
``<game>_per_minute.csv`` (learner, minutes, timesteps, win rate and its 95% interval) and
``<game>_per_minute.png`` (both curves over wall-clock minutes, intervals as bands).
"""

from __future__ import annotations

import argparse
import csv
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import heist_envs
from agents.stats import interval_text
from experiments.common import plot_win_rate, read_csv

#: each learner's evaluations: about every half minute at its speed on two shared cores
EVAL_EVERY = {"sb3": 65_536, "torch": 524_288}
FIELDS = ["learner", "minutes", "timesteps", "win_rate", "ci_low", "ci_high", "games"]


def train_command(backend, args, out) -> list[str]:
    """The ``heist train`` command of one learner, run until interrupted."""
    return [
        sys.executable, "-m", "experiments.cli", "train", "--backend", backend,
        "--game", args.game, "--players", str(args.players), "--seed", str(args.seed),
        "--opponents", f"{args.opponents}:1000000000", "--eval-opponents", args.opponents,
        "--eval-every", str(EVAL_EVERY[backend]), "--eval-games", str(args.eval_games),
        "--threads", "1", "--out", str(out),
    ]  # fmt: skip


def run_side_by_side(args, work: Path) -> list[dict]:
    """Train both learners at once for ``args.minutes``; their evaluations as rows."""
    env = {**os.environ, "NUMBA_NUM_THREADS": "1"}
    runs = {}
    for backend in EVAL_EVERY:
        log = (work / f"{backend}.log").open("w")
        command = train_command(backend, args, work / backend)
        runs[backend] = subprocess.Popen(
            command, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True
        )
    time.sleep(args.minutes * 60)
    for process in runs.values():
        os.killpg(process.pid, signal.SIGINT)
    rows = []
    for backend, process in runs.items():
        process.wait(timeout=600)
        for row in read_csv(work / backend / "eval.csv"):
            rows.append({
                "learner": backend,
                "minutes": round(float(row["elapsed_s"]) / 60, 2),
                "timesteps": int(row["timesteps"]),
                "win_rate": row["win_rate"],
                "ci_low": row["ci_low"],
                "ci_high": row["ci_high"],
                "games": args.eval_games,
            })  # fmt: skip
    return rows


def plot(rows, path, title, opponents):
    """Both learners' win rates over wall-clock minutes."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.5))
    for learner in EVAL_EVERY:
        mine = [row for row in rows if row["learner"] == learner]
        plot_win_rate(
            ax,
            [row["minutes"] for row in mine],
            *([float(row[key]) for row in mine] for key in ("win_rate", "ci_low", "ci_high")),
            f"{learner} vs {opponents}",
        )
    ax.set_title(title)
    ax.set_xlabel("wall-clock minutes (both learners at once, one core's share each)")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="per_minute", description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True, choices=heist_envs.game_names())
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--minutes", type=float, default=5.0, help="each learner's wall time")
    parser.add_argument("--opponents", default="heuristic", help="trained and evaluated against")
    parser.add_argument("--eval-games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("docs/learning_curves"))
    args = parser.parse_args(argv)
    if not 0 < args.minutes <= 180 or args.eval_games < 1:
        parser.error("--minutes must be above 0 and at most 180, --eval-games at least 1")
    heist_envs.get_game(args.game).check_players(args.players)
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        rows = run_side_by_side(args, Path(work))
    stem = args.out / f"{args.game}_per_minute"
    with open(stem.with_suffix(".csv"), "w", newline="") as file:
        writer = csv.DictWriter(file, fieldnames=FIELDS)
        writer.writeheader()
        writer.writerows(rows)
    title = f"{heist_envs.get_game(args.game).title}, {args.players}p: learning per minute"
    plot(rows, stem.with_suffix(".png"), title, args.opponents)
    for row in rows:
        rate = interval_text(*(float(row[key]) for key in ("win_rate", "ci_low", "ci_high")))
        print(f"{row['learner']:>5} {row['minutes']:6.2f} min {row['timesteps']:>10,} steps {rate}")
    print(f"wrote {stem.with_suffix('.csv')} and {stem.with_suffix('.png')}")


if __name__ == "__main__":
    main()
