"""Game metrics in the spirit of TAG's game reports and Ludii's concepts.

:func:`game_metrics` summarises a :class:`~experiments.studies.data.GameData`: game length in
decisions and rounds, branching factor (legal actions per decision; and per game, the mean
over its decisions), each side's win rate with
its 95% Wilson interval and the first side's advantage, shared-win, no-winner and truncation
rates, lead changes per game (decisiveness; where the game has a running score) and how often
each action kind is chosen. Means over games come with their 95% interval (``low``, ``high``).
:func:`metrics` plays the games first.

``python -m experiments.studies.metrics docs/metrics.md`` regenerates the project's table.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

import numpy as np

import heist_envs
from agents.stats import mean_interval, wilson_interval
from experiments.common import Interrupted
from experiments.studies.data import GameData, play_games, write_whole
from heist_envs.core.game import normalize_seed


def metrics(
    game_name,
    agents=("random",),
    games=1000,
    num_players=None,
    seed=0,
    progress=True,
    route="auto",
) -> dict:
    """Play ``games`` games (:func:`~experiments.studies.data.play_games`, seats rotated, in
    its ``route``) and return their :func:`game_metrics`. Ctrl-C raises
    :class:`~experiments.common.Interrupted`, its ``kept`` the metrics of the games finished
    by then (``partial``; None if none was)."""

    def described(data, partial):
        result = game_metrics(data)
        result["agents"] = [str(a) for a in ([agents] if isinstance(agents, str) else agents)]
        result["seed"] = seed
        return result | {"planned_games": games, "partial": partial}

    try:
        data = play_games(
            game_name, agents, games, num_players, seed, progress=progress, route=route
        )
    except Interrupted as stop:
        kept = None if stop.kept is None else described(stop.kept, True)
        raise Interrupted(str(stop), kept) from None
    return described(data, False)


def spread(values) -> dict:
    values = np.asarray(values, np.float64)
    _, low, high = mean_interval(values.tolist())
    return {
        "mean": float(values.mean()),
        "low": low,
        "high": high,
        "std": float(values.std(ddof=1)) if len(values) > 1 else 0.0,
        "min": float(values.min()),
        "max": float(values.max()),
    }


def lead_changes(data: GameData) -> np.ndarray | None:
    """Per game: how often the sole leader in running score changed (ties lead nobody), over
    every decision and the final scores; None for a game without a running score."""
    if heist_envs.get_game(data.game).study.score is None:
        return None
    seats = data.num_seats
    columns = [f"score_{k}" for k in range(seats)]
    scores = np.vstack([data.decisions[columns].to_numpy(), data.games[columns].to_numpy()])
    games = np.concatenate([data.decisions["game"].to_numpy(), data.games["game"].to_numpy()])
    order = np.concatenate(
        [data.decisions["decision"].to_numpy(), data.games["decisions"].to_numpy()]
    )
    sort = np.lexsort((order, games))
    scores, games = scores[sort], games[sort]
    best = scores.max(axis=1, keepdims=True)
    sole = (scores == best).sum(axis=1) == 1
    leader = np.where(sole, scores.argmax(axis=1), -1)
    counts = np.zeros(len(data.games), np.int64)
    index = {g: i for i, g in enumerate(data.games["game"])}
    previous_game, previous = None, -1
    for g, lead in zip(games, leader, strict=True):
        if g != previous_game:
            previous_game, previous = g, -1
        if lead >= 0:
            if previous >= 0 and lead != previous:
                counts[index[g]] += 1
            previous = lead
    return counts


def game_metrics(data: GameData) -> dict:
    """The metrics of the played games (see the module docstring) as a JSON-ready dict."""
    game = heist_envs.get_game(data.game)
    frame, decisions = data.games, data.decisions
    names = game.agent_names(data.num_players)
    side_rates = []
    for seats in game.side_seats(data.num_players):
        wins = int(frame[f"won_{seats[0]}"].sum())
        low, high = wilson_interval(wins, len(frame))
        side_rates.append(
            {
                "side": "+".join(names[k] for k in seats),
                "wins": wins,
                "win_rate": wins / len(frame),
                "win_low": low,
                "win_high": high,
            }
        )
    mean_rate = float(np.mean([s["win_rate"] for s in side_rates]))
    by_agent = []
    seats = data.seats()
    for label, held in seats.groupby("agent", sort=True):
        wins = int(held["won"].sum())
        low, high = wilson_interval(wins, len(held))
        by_agent.append(
            {
                "agent": label,
                "seats": len(held),
                "win_rate": wins / len(held),
                "win_low": low,
                "win_high": high,
            }
        )
    kinds = decisions["action_kind"].value_counts(normalize=True)
    leads = lead_changes(data)
    return {
        "game": data.game,
        "players": data.num_players,
        "games": len(frame),
        "decisions": spread(frame["decisions"]),
        "rounds": spread(frame["rounds"]),
        "rounds_counted_as": game.study.rounds_doc,
        "branching": {
            "mean": float(decisions["legal_actions"].mean()),
            "max": int(decisions["legal_actions"].max()),
            "per_game": spread(decisions.groupby("game")["legal_actions"].mean()),
        },
        "win_rate_by_side": side_rates,
        "first_side_advantage": side_rates[0]["win_rate"] - mean_rate,
        "win_rate_by_agent": by_agent,
        "shared_win_rate": float(frame["shared_win"].mean()),
        "no_winner_rate": float((frame["winning_sides"] == 0).mean()),
        "truncation_rate": float(frame["truncated"].mean()),
        "lead_changes": None if leads is None else spread(leads),
        "action_kind_rate": {kind: float(kinds.get(kind, 0.0)) for kind in game.action_kinds},
    }


def metrics_text(result: dict) -> str:
    """The metrics as a few lines of text, for the terminal."""
    d, r, b = result["decisions"], result["rounds"], result["branching"]
    played = f"{result['games']} games"
    if result.get("partial"):
        played = f"{result['games']} of {result['planned_games']} games, partial: interrupted"
    lines = [
        f"{result['game']}, {result['players']} players, {played} "
        f"({', '.join(result.get('agents', []))})",
        f"length: {d['mean']:.1f} ± {d['std']:.1f} decisions (min {d['min']:.0f}, max "
        f"{d['max']:.0f}); {r['mean']:.2f} ± {r['std']:.2f} rounds ({result['rounds_counted_as']})",
        f"branching factor: mean {b['mean']:.2f}, max {b['max']}",
        "win rate by side: "
        + ", ".join(
            f"{s['side']} {s['win_rate']:.3f} [{s['win_low']:.3f}, {s['win_high']:.3f}]"
            for s in result["win_rate_by_side"]
        ),
        f"first-side advantage: {result['first_side_advantage']:+.3f}",
        "win rate by agent (per seat held): "
        + ", ".join(
            f"{a['agent']} {a['win_rate']:.3f} [{a['win_low']:.3f}, {a['win_high']:.3f}]"
            for a in result["win_rate_by_agent"]
        ),
        f"shared wins: {result['shared_win_rate']:.3f}, no winner: "
        f"{result['no_winner_rate']:.3f}, truncated: {result['truncation_rate']:.3f}",
    ]
    if result["lead_changes"] is not None:
        lc = result["lead_changes"]
        lines.append(f"lead changes per game: {lc['mean']:.2f} ± {lc['std']:.2f}")
    kinds = sorted(result["action_kind_rate"].items(), key=lambda kv: -kv[1])
    lines.append("action kinds: " + ", ".join(f"{k} {v:.3f}" for k, v in kinds if v > 0))
    return "\n".join(lines)


def write_text(path, text):
    """Write ``text`` to ``path`` whole or not at all."""
    write_whole(path, lambda temp: Path(temp).write_text(text))


def write_json(path, result):
    write_text(path, json.dumps(result, indent=1) + "\n")


# docs/metrics.md ----------------------------------------------------------------------------

#: The agent sets of docs/metrics.md: (label, agents, games per player count).
DOC_AGENTS = [("random", ["random"], 10_000), ("heuristic", ["heuristic"], 10_000)]
DOC_SEED = 0


def markdown(results: list[dict]) -> str:
    """docs/metrics.md from :func:`metrics` results (per game, agents and player count)."""
    lines = [
        "# Game metrics",
        "",
        "Generated by `python -m experiments.studies.metrics docs/metrics.md` (seed "
        f"{DOC_SEED}; every agent plays every seat). Length in decisions and rounds (mean ± "
        "standard deviation), branching factor (legal actions per decision, mean and max), "
        "win rate of the first side (seat 0, or the bank) and its advantage over the mean "
        "side, shared wins (more than one winning side), truncated games and lead changes per "
        "game (how often the sole leader in running score changes). Then the share of "
        "decisions of each action kind. `heist metrics GAME` computes the same for other "
        "agents and player counts.",
    ]
    for name in heist_envs.game_names():
        rows = [r for r in results if r["game"] == name]
        if not rows:
            continue
        game = heist_envs.get_game(name)
        lines += [
            "",
            f"## {game.title}",
            "",
            f"Rounds: {rows[0]['rounds_counted_as']}.",
            "",
            "| agents | players | games | decisions | rounds | branching | first side wins "
            "| first-side adv. | shared wins | truncated | lead changes |",
            "|---|---:|---:|---|---|---|---|---:|---:|---:|---|",
        ]
        for r in rows:
            first = r["win_rate_by_side"][0]
            lc = r["lead_changes"]
            leads = "n/a" if lc is None else f"{lc['mean']:.2f} ± {lc['std']:.2f}"
            lines.append(
                f"| {', '.join(r['agents'])} | {r['players']} | {r['games']} "
                f"| {r['decisions']['mean']:.1f} ± {r['decisions']['std']:.1f} "
                f"| {r['rounds']['mean']:.2f} ± {r['rounds']['std']:.2f} "
                f"| {r['branching']['mean']:.2f} (max {r['branching']['max']}) "
                f"| {first['side']} {first['win_rate']:.3f} "
                f"[{first['win_low']:.3f}, {first['win_high']:.3f}] "
                f"| {r['first_side_advantage']:+.3f} | {r['shared_win_rate']:.3f} "
                f"| {r['truncation_rate']:.3f} "
                f"| {leads} |"
            )
        headers = [f"{', '.join(r['agents'])} {r['players']}p" for r in rows]
        lines += [
            "",
            "| action kind | " + " | ".join(headers) + " |",
            "|---|" + "---:|" * len(rows),
        ]
        for kind in rows[0]["action_kind_rate"]:
            cells = [f"{r['action_kind_rate'][kind]:.3f}" for r in rows]
            lines.append(f"| {kind} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def doc_results(progress=True) -> list[dict]:
    results = []
    for name in heist_envs.game_names():
        game = heist_envs.get_game(name)
        for _, agents, games in DOC_AGENTS:
            for players in range(game.min_players, game.max_players + 1):
                results.append(metrics(name, agents, games, players, DOC_SEED, progress))
    return results


def command(argv=None):
    """``heist metrics``: play games and print (or save) their metrics."""
    from agents.registry import agent_names
    from experiments.cli import add_route

    parser = argparse.ArgumentParser(
        prog="heist metrics",
        description="Play games between agents (every agent in every seat) and print the game "
        "metrics: length, branching factor, win rate by seat with 95% intervals, first-seat "
        "advantage, shared wins, truncations, lead changes and action kinds.",
    )
    parser.add_argument("game", help=f"one of: {', '.join(heist_envs.game_names())}")
    parser.add_argument("--players", type=int, default=None, help="player count")
    parser.add_argument(
        "--agents",
        nargs="+",
        default=["random"],
        metavar="AGENT",
        help=f"one agent for every seat or one per seat ({', '.join(agent_names())}, "
        "optionally name:key=value,...); default random",
    )
    parser.add_argument("--games", type=int, default=1000, help="games to play (default 1000)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    parser.add_argument("--json", default=None, metavar="PATH", help="also write them as JSON")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    add_route(parser)
    args = parser.parse_args(argv)
    try:
        if args.json:
            check_writable(args.json)
        normalize_seed(args.seed)
        try:
            result = metrics(
                args.game,
                args.agents,
                args.games,
                args.players,
                args.seed,
                not args.no_progress,
                args.route,
            )
        except Interrupted as stop:
            if stop.kept is None:
                raise
            show(stop.kept, args.json)
            where = f" and written (marked partial) to {args.json}" if args.json else ""
            kept = f"kept the metrics of the {stop.kept['games']} games finished of {args.games}"
            raise Interrupted(f"{kept}, printed above{where}") from None
        show(result, args.json)
    except ValueError as error:
        parser.exit(2, f"heist metrics: error: {error}\n")


def show(result, json_path):
    """Print the metrics and write them as JSON to ``json_path`` (if given)."""
    print(metrics_text(result))
    if json_path:
        write_json(json_path, result)
        print(f"wrote {json_path}")


def check_writable(path):
    """A ValueError now, before any game is played, if ``path`` cannot be written."""
    folder = Path(path).parent
    if Path(path).is_dir() or not folder.is_dir() or not os.access(folder, os.W_OK):
        raise ValueError(f"cannot write {str(path)!r}: not a writable file path")


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m experiments.studies.metrics",
        description="Regenerate the game metrics table (docs/metrics.md).",
    )
    parser.add_argument("out", help="the Markdown file to write, e.g. docs/metrics.md")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bars")
    args = parser.parse_args(argv)
    write_text(args.out, markdown(doc_results(not args.no_progress)))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
