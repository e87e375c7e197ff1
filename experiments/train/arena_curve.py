"""A training run's learning curve head to head: each checkpoint against an agent in the
arena's two-agent mixed tables, seats rotated.

    python -m experiments.train.arena_curve runs/GAME --against heuristic --games 400

A trainer's own evaluations seat one copy of the policy against a full table of opponents.
A policy can learn to exploit such a table and still lose where it counts: the arena seats
each agent at half the seats, so two copies of the policy share a table, and a policy that
only ever met its opponents alone can undo itself there. This scores every checkpoint of
a run (``RUN/checkpoints/step_*.zip`` of PPO and imitation, ``iter_*.zip`` of expert
iteration) the arena's way and writes ``RUN/arena_curve.csv`` (both agents' win rate per seat
played, with 95% intervals; in a team game, per side) and ``RUN/arena_curve.png``. An expert
iteration checkpoint records the wall-clock seconds its run had trained, so its curve is
drawn against training minutes: where a network stops gaining on a search, per hour.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from agents.arena import tournament
from agents.ppo import checkpoint_info
from experiments.common import agent_figures, plot_win_rate, read_csv, write_csv

CHECKPOINT = re.compile(r"^(step|iter)_(\d+)\.zip$")
COUNTED = {"step": "timesteps", "iter": "iteration"}  # what a checkpoint's number counts
AXIS = {
    "timesteps": "training steps",
    "iteration": "iteration",
    "train_minutes": "training minutes (wall clock)",
}


def checkpoints(run: Path, every: int = 1) -> list[tuple[int, Path]]:
    """The run's checkpoints as (timesteps or iteration, path), in order; every
    ``every``-th, and the last."""
    found = sorted(
        (int(match.group(2)), path)
        for path in (run / "checkpoints").glob("*.zip")
        if (match := CHECKPOINT.match(path.name))
    )
    return [item for k, item in enumerate(found) if k % every == 0 or k == len(found) - 1]


def head_to_head(path, game, num_players, against, games, seed) -> list[dict]:
    """One checkpoint against ``against``: both agents' figures over the sides they held,
    one row for a free-for-all game (side ``all``) and one per side in a team game, where
    the sides differ and each is scored on its own. A checkpoint trained for one side
    (``heist train --side``) plays that side, and the shipped policy the other."""
    trained_side = checkpoint_info(path).get("side")
    result = tournament(
        game,
        [f"ppo:{trained_side or 'path'}={path}", against],
        games=games,
        num_players=num_players,
        seed=seed,
        workers=1,
        progress=False,
    )
    sides = result.side_agents
    if any(len(side) > 1 for side in sides):
        scored = [("+".join(names), k) for k, names in enumerate(sides)]
    else:
        scored = [("all", None)]
    rows = []
    for name, side in scored:
        policy, opponent = agent_figures(result, 0, side), agent_figures(result, 1, side)
        rows.append(
            {
                "side": name,
                "games": len(result.games),
                "win_rate": round(policy["win_rate"], 4),
                "ci_low": round(policy["win_low"], 4),
                "ci_high": round(policy["win_high"], 4),
                "against_win_rate": round(opponent["win_rate"], 4),
                "against_ci_low": round(opponent["win_low"], 4),
                "against_ci_high": round(opponent["win_high"], 4),
            }
        )
    return rows


def counted_column(row) -> str:
    """The column of ``row`` that numbers its checkpoint: timesteps or iteration."""
    return next(key for key in COUNTED.values() if key in row)


def row_text(row, against) -> str:
    """One scored checkpoint as a line of progress output."""
    side = "" if row["side"] == "all" else f" as {row['side']}"
    counted = counted_column(row)
    return (
        f"  {counted} {row[counted]}: head to head against {against}{side}: "
        f"{row['win_rate']:.3f} [{row['ci_low']:.3f}, {row['ci_high']:.3f}] against "
        f"{row['against_win_rate']:.3f} [{row['against_ci_low']:.3f}, "
        f"{row['against_ci_high']:.3f}]"
    )


def plot(log, path, title, against):
    """Both agents' curves from the CSV ``log``, one panel per side, over the training
    minutes where the log has them and its checkpoints' numbers otherwise."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [
        {key: value if key == "side" else float(value) for key, value in row.items()}
        for row in read_csv(log)
    ]
    sides = list(dict.fromkeys(row["side"] for row in rows))
    x_key = "train_minutes" if "train_minutes" in rows[0] else counted_column(rows[0])
    fig, axes = plt.subplots(len(sides), 1, figsize=(6, 3.5 * len(sides)), squeeze=False)
    for ax, side in zip(axes[:, 0], sides, strict=True):
        mine = [row for row in rows if row["side"] == side]
        steps = [row[x_key] for row in mine]
        for prefix, label in (("", "the policy"), ("against_", against)):
            plot_win_rate(
                ax,
                steps,
                [row[f"{prefix}win_rate"] for row in mine],
                [row[f"{prefix}ci_low"] for row in mine],
                [row[f"{prefix}ci_high"] for row in mine],
                label,
            )
        ax.set_title(title if side == "all" else f"{title}\nas {side}")
        ax.set_xlabel(AXIS[x_key])
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m experiments.train.arena_curve", description=__doc__.splitlines()[0]
    )
    parser.add_argument("run", type=Path, help="a training run's folder (--out of heist train)")
    parser.add_argument("--against", default="heuristic", help="agent spec (default: heuristic)")
    parser.add_argument("--games", type=int, default=400, help="games per checkpoint")
    parser.add_argument("--every", type=int, default=1, help="score every n-th checkpoint")
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args(argv)
    if args.games < 1 or args.every < 1:
        parser.error("--games and --every must be at least 1")
    found = checkpoints(args.run, args.every)
    if not found:
        parser.exit(
            2, f"{parser.prog}: error: no checkpoints/step_*.zip or iter_*.zip in {args.run}\n"
        )
    rows = []
    for steps, path in found:
        try:
            info = checkpoint_info(path)
            game, num_players = info["game"], info["num_players"]
            scored = head_to_head(path, game, num_players, args.against, args.games, args.seed)
        except ValueError as error:  # a bad --against spec, a checkpoint without metadata
            parser.exit(2, f"{parser.prog}: error: {error}\n")
        counted = {COUNTED[CHECKPOINT.match(path.name).group(1)]: steps}
        if "train_seconds" in info:  # expert iteration's checkpoints: wall time so far
            counted["train_minutes"] = round(info["train_seconds"] / 60, 3)
        for row in scored:
            rows.append({**counted, **row})
            print(row_text(rows[-1], args.against))
    log = args.run / "arena_curve.csv"
    write_csv(log, rows)
    title = f"{game}, {num_players} players: head to head against {args.against}"
    plot(log, args.run / "arena_curve.png", title, args.against)
    return rows


if __name__ == "__main__":
    main()
