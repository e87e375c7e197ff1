"""The leaderboard: every agent against every other, per game and player count.

Each table (a game at a player count) is one :func:`agents.arena.tournament`: a round robin
of mixed tables with the seats rotated, rated by OpenSkill. The report gives, per agent, its
rating with a 95% interval, its win rate with a Wilson interval, its decisions per second, and
its head-to-head record against every other agent: in the games where both sat, how often it
won and the other did not. In games of sides with different roles (How to Rob a Bank's bank
and robbers) every figure is given per side as well.

    heist leaderboard                   # docs/leaderboard.md and docs/leaderboard*.csv
    heist leaderboard --quick            # a small run for CI and tests, in results/ (or --out)
    heist leaderboard --games GAME --update          # rerun one game's tables in place
"""

from __future__ import annotations

import argparse
import os
import resource
import shlex
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import heist_envs
from agents.arena import TournamentInterrupted, TournamentResult, parse_entrant, tournament
from agents.arena.results import held_sides
from agents.profiles import profile
from agents.registry import ready_agent_names
from agents.stats import interval_text, wilson_interval
from experiments.common import (
    TRUST_AGENTS,
    Interrupted,
    agent_figures,
    builds,
    duration,
    markdown_table,
    rate_text,
    rating_figures,
    read_csv,
    warm_up,
    write_csv,
)
from heist_envs.core.game import normalize_seed

#: The agents every table holds besides ISMCTS at its budgets (any other agent the registry
#: can make from its name alone joins them).
BASE_AGENTS = ["random", "heuristic"]
#: The heuristic with learned weights, where a game's heuristic has them (the others sit out).
TUNED_HEURISTIC = "heuristic:weights=tuned"


@dataclass(frozen=True)
class Size:
    """How much a run plays: games per table, ISMCTS budgets, player counts per game; and
    where it writes by default (a quick run never replaces the committed full one)."""

    games: int
    simulations: tuple[int, ...]
    other_count: bool  # each game's default count and one other, or the default only
    out: str


FULL = Size(games=1000, simulations=(100, 1000), other_count=True, out="docs")
QUICK = Size(games=20, simulations=(10, 50), other_count=False, out="results/leaderboard_quick")
DEFAULT_SEED = 12


def default_agents(simulations, game_names=()) -> list[str]:
    """random, heuristic, ISMCTS at each budget, ISMCTS at the smallest budget guided by the
    shipped policy, the heuristic with learned weights if one of ``game_names`` has them,
    then every other agent that needs no parameter (the shipped policies' ``ppo`` among
    them)."""
    ismcts = [f"ismcts:simulations={n}" for n in simulations]
    guided = [f"ismcts:simulations={min(simulations)},prior=shipped"] if simulations else []
    weighted = any(profile(heist_envs.get_game(name).name).weighted for name in game_names)
    tuned = [TUNED_HEURISTIC] if weighted else []
    others = [n for n in ready_agent_names() if n not in [*BASE_AGENTS, "ismcts"]]
    return [*BASE_AGENTS, *ismcts, *guided, *tuned, *others]


def run_agents(args, simulations) -> list[str]:
    """The agents a run seats: ``--agents``, else the defaults for its games, or with
    ``--update`` for every game, so that an updated table lists the agents it leaves out as
    the full run does."""
    games = heist_envs.game_names() if args.update else args.games
    return args.agents or default_agents(simulations, games)


def default_counts(game, other_count=True) -> list[int]:
    """The game's default player count, and the one below it (above, at the minimum)."""
    default = game.default_players
    if not other_count:
        return [default]
    other = default - 1 if default > game.min_players else default + 1
    return [default, other]


# Choosing who plays where ----------------------------------------------------------------------


def plan(game_names, counts, agents, other_count=True, named=True, trusted=False) -> list[dict]:
    """The tables to play: game, player count, the entrants that sit and those left out.

    ``counts`` are the player counts of every game; if empty, each game's
    :func:`default_counts`.

    Bad input raises a ValueError before any game is played: an unknown game or agent, a
    player count the game does not allow, or an agent that cannot play any of the games at
    any count (a missing checkpoint, an unknown parameter) when the user ``named`` the
    agents. An agent that plays only some games or counts (a policy trained for one count,
    weights only one game's heuristic has) sits out the other tables, with the reason, and so
    does a default agent that plays none of them (an update of one game's tables). Outside
    agents play in processes of their own unless ``trusted`` (:class:`agents.arena.Entrant`).
    """
    games = {heist_envs.get_game(name).name: heist_envs.get_game(name) for name in game_names}
    entrants = [parse_entrant(text, trusted) for text in dict.fromkeys(agents)]
    tables = []
    for game in games.values():
        if counts:
            game_counts = [game.check_players(n) for n in dict.fromkeys(counts)]
        else:
            game_counts = default_counts(game, other_count)
        for num_players in game_counts:
            reasons = {e.label: builds(e, game, num_players) for e in entrants}
            tables.append(
                {
                    "game": game,
                    "num_players": num_players,
                    "agents": [label for label, why in reasons.items() if why is None],
                    "left_out": {label: why for label, why in reasons.items() if why},
                }
            )
    for entrant in entrants if named else ():
        if not any(entrant.label in table["agents"] for table in tables):
            if any(
                builds(entrant, game, n) is None
                for game in games.values()
                for n in range(game.min_players, game.max_players + 1)
            ):
                continue  # plays other counts of these games: the tables say why not these
            game = next(iter(games.values()))
            raise ValueError(
                f"agent {entrant.label!r} cannot play {', '.join(games)}: "
                f"{builds(entrant, game, game.default_players)}"
            )
    return tables


# Figures from a tournament's games ---------------------------------------------------------------


def side_names(result: TournamentResult) -> list[str] | None:
    """The names of the sides, for games whose sides play different roles; else None."""
    return list(heist_envs.get_game(result.game).side_names) or None


def head_to_head(result: TournamentResult, a, b, side=None) -> dict:
    """Entrant ``a`` against ``b`` in the games where both sat: a meeting is a side of ``a``
    (only ``side``, if given) and a side of ``b`` in one game; ``a`` wins it when its side
    won and ``b``'s did not, loses it the other way round, and ties it otherwise (both won,
    or neither)."""
    wins = losses = ties = 0
    for record in result.games:
        won = [outcome.won for outcome in record["outcomes"]]
        for mine in held_sides(record, a, side):
            for theirs in held_sides(record, b):
                if won[mine] and not won[theirs]:
                    wins += 1
                elif won[theirs] and not won[mine]:
                    losses += 1
                else:
                    ties += 1
    meetings = wins + losses + ties
    low, high = wilson_interval(wins, meetings)
    return {
        "games": meetings,
        "wins": wins,
        "losses": losses,
        "ties": ties,
        "win_rate": wins / meetings if meetings else None,
        "win_low": low,
        "win_high": high,
    }


def ranked(result: TournamentResult) -> list[int]:
    """Entrant indices by OpenSkill ordinal (mu - 3 sigma), best first."""
    return sorted(range(len(result.agents)), key=lambda i: -result.summary[i]["ordinal"])


def table_rows(result: TournamentResult) -> tuple[list[dict], list[dict]]:
    """The table's rows of leaderboard.csv (per agent, and per agent and side) and of
    leaderboard_head_to_head.csv (per pair of agents, and per side)."""
    key = {"game": result.game, "players": result.num_players, "table_games": len(result.games)}
    sides = [("all", None)] + [(name, s) for s, name in enumerate(side_names(result) or [])]
    agents, pairs = [], []
    for rank, index in enumerate(ranked(result), 1):
        rating = result.summary[index]
        label = result.agents[index]
        for side_name, side in sides:
            row = {**key, "agent": label, "side": side_name, "rank": rank}
            row |= rating_figures(rating if side is None else None)
            agents.append(row | agent_figures(result, index, side))
            for other, opponent in enumerate(result.agents):
                if other != index:
                    pair = {**key, "agent": label, "opponent": opponent, "side": side_name}
                    pairs.append(pair | head_to_head(result, index, other, side))
    return agents, pairs


# The report ------------------------------------------------------------------------------------


def table_markdown(table, agent_rows, pair_rows, source=None) -> list[str]:
    """One table's section: ranking, sides, head-to-head matrix, who sat out; ``source``
    (command, seed) names the run that made it, where the page's header does not."""
    game, num_players = table["game"], table["num_players"]
    result = table["result"]
    made_by = f", from `{source[0]}` (seed {source[1]})" if source else ""
    lines = [
        f"## {game.title}, {num_players} players",
        "",
        f"{len(result.games)} games ({duration(table['seconds'])} of wall time, "
        f"{duration(table['cpu_seconds'])} of CPU time){made_by}.",
        "",
    ]
    overall = [r for r in agent_rows if r["side"] == "all"]
    lines += markdown_table(
        ["rank", "agent", "rating [95%]", "ordinal", "win rate [95% CI]", "games", "decisions/s"],
        [
            [
                r["rank"],
                f"`{r['agent']}`",
                interval_text(r["mu"], r["rating_low"], r["rating_high"], ".1f"),
                f"{r['ordinal']:.1f}",
                interval_text(r["win_rate"], r["win_low"], r["win_high"]),
                r["games"],
                rate_text(r),
            ]
            for r in overall
        ],
    )
    names = side_names(result)
    order = [r["agent"] for r in overall]
    if names:
        by_side = {(r["agent"], r["side"]): r for r in agent_rows}
        header = ["agent"]
        for name in names:
            header += [f"as {name}: win rate [95% CI]", "games", "decisions/s"]
        rows = []
        for agent in order:
            row = [f"`{agent}`"]
            for name in names:
                r = by_side[(agent, name)]
                row += [interval_text(r["win_rate"], r["win_low"], r["win_high"]), r["games"]]
                row.append(rate_text(r))
            rows.append(row)
        lines += ["", "By side:", "", *markdown_table(header, rows)]
    pairs = {(r["agent"], r["opponent"], r["side"]): r for r in pair_rows}
    matrices = [
        (
            "all",
            "Head to head: how often the row's agent won and the column's did not, "
            "in the games where both sat (the rest are ties: both won, or neither).",
        )
    ]
    if names:
        matrices.append(
            (names[0], f"As {names[0]} (rows) against {names[1]} (columns): the {names[0]}'s "
             "win rate.")
        )  # fmt: skip
    for side, caption in matrices:
        rows = []
        for agent in order:
            row = [f"`{agent}`"]
            for opponent in order:
                r = pairs.get((agent, opponent, side))
                row.append(interval_text(r["win_rate"], r["win_low"], r["win_high"]) if r else "")
            rows.append(row)
        lines += ["", caption, "", *markdown_table(["", *(f"`{a}`" for a in order)], rows)]
    for label, why in table["left_out"].items():
        lines += ["", f"`{label}` does not play this table: {why.rstrip('.')}."]
    return lines + [""]


def report(tables, command, seed, wall_seconds, partial=False) -> str:
    lines = ["# Leaderboard", ""]
    if partial:
        whole = sum(not table["result"].partial for table in tables)
        last = tables[-1]["result"]
        lines += [
            f"**Partial: interrupted.** {whole} whole table{'s' * (whole != 1)}, then "
            f"{len(last.games)} of "
            f"{last.planned_games} games of the last (its seat rotations not all complete).",
            "",
        ]
    lines += [
        "Every agent against every other, per game and player count: each table is a round "
        "robin of mixed games (every group of agents that fills the sides, in every seat "
        "rotation; in How to Rob a Bank an agent plays a whole side, the bank or all the "
        "robbers), rated with OpenSkill (Plackett-Luce, sides ranked by reward). Agents are "
        "ranked by the rating's ordinal (mu - 3 sigma); the rating's interval is mu ± 1.96 "
        "sigma. A game is won by the sides with the best reward, if positive; win rates and "
        "head-to-head rates carry 95% Wilson intervals (a head-to-head meeting is one game in "
        "which both agents sat). Decisions per second: each agent's median over its games of "
        "its decisions over the CPU time its `act` calls took, on the machine that ran the "
        "command (compiling a search agent once per process does not count).",
        "",
        f"Generated by `{command}` (seed {seed}) in {duration(wall_seconds)} of wall time "
        f"({duration(sum(t['cpu_seconds'] for t in tables))} of CPU time); "
        "the same command and seed give the same games and tables (times and decisions per "
        "second vary with the machine). Every figure is in `leaderboard.csv` (per agent, "
        "and per agent and side) and `leaderboard_head_to_head.csv` (per pair of agents).",
        "",
    ]
    for table in tables:
        lines += table_markdown(table, table["agent_rows"], table["pair_rows"])
    return "\n".join(lines)


# Running ---------------------------------------------------------------------------------------


def cpu_seconds() -> float:
    """CPU time of this process and its finished children (a tournament's workers)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def run(tables, games, seed, workers, progress=True, show=print) -> list[dict]:
    """Play every table's tournament and add its result, rows, wall and CPU time to it. On
    Ctrl-C the table in play keeps its partial result, and :class:`TournamentInterrupted`
    goes on up (the tables after it have no result)."""
    for table in tables:
        game, num_players = table["game"], table["num_players"]
        warm_up(game.name, num_players, show)
        started, cpu_started = time.perf_counter(), cpu_seconds()

        def keep(result, table=table, started=started, cpu_started=cpu_started):
            table["seconds"] = time.perf_counter() - started
            table["cpu_seconds"] = cpu_seconds() - cpu_started
            table["result"] = result
            table["agent_rows"], table["pair_rows"] = table_rows(result)

        try:
            result = tournament(
                game.name,
                table["agents"],
                games=games,
                num_players=num_players,
                seed=seed,
                workers=workers,
                progress=progress,
            )
        except TournamentInterrupted as stop:
            keep(stop.results[0])
            raise
        keep(result)
        show(f"{game.name}, {num_players} players: {len(result.games)} games in "
             f"{table['seconds']:.0f} s ({table['cpu_seconds']:.0f} s of CPU)")  # fmt: skip
    return tables


def check_writable(out):
    """A ValueError now, before any game is played, if the folder ``out`` cannot be written."""
    try:
        Path(out).mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ValueError(f"cannot write to {out}: {error.strerror}") from None
    if not os.access(out, os.W_OK):
        raise ValueError(f"cannot write to {out}: permission denied")


def leaderboard_paths(out, partial=False) -> list[Path]:
    """The leaderboard's files in ``out``; a ``partial`` one's names end in ``_partial``, so
    that an interrupted run never replaces a whole leaderboard."""
    out, end = Path(out), "_partial" if partial else ""
    names = [f"leaderboard{end}.md", f"leaderboard{end}.csv", f"leaderboard_head_to_head{end}.csv"]
    return [out / name for name in names]


def write(tables, out, command, seed, wall_seconds, partial=False) -> list[Path]:
    paths = leaderboard_paths(out, partial)
    paths[0].write_text(report(tables, command, seed, wall_seconds, partial))
    write_csv(paths[1], [row for table in tables for row in table["agent_rows"]])
    write_csv(paths[2], [row for table in tables for row in table["pair_rows"]])
    return paths


def check_updatable(out):
    """A ValueError now, before any game is played, if ``out`` holds no leaderboard to update."""
    missing = [path.name for path in leaderboard_paths(out) if not path.is_file()]
    if missing:
        raise ValueError(
            f"--update needs a leaderboard in {out}; missing: {', '.join(missing)} "
            "(run without --update to write one)"
        )


def overview_pages(out) -> list[Path]:
    """Where ``out`` is the docs folder: its pages' tables made anew from the leaderboard
    just written (what ``heist docs`` does), so that they never lag it; returns the pages
    that changed."""
    from experiments.tools import docs

    if Path(out).resolve() != docs.DOCS:
        return []
    changed = []
    for path in docs.table_pages(docs.DOCS):
        text = docs.filled(path, docs.DOCS)
        if text != path.read_text():
            path.write_text(text)
            changed.append(path)
    return changed


def update(tables, out, command, seed) -> list[Path]:
    """Replace this run's tables in the leaderboard in ``out`` (the page's section and CSV
    rows of each game and player count it played; a table new to the page goes last), and
    leave the others as they are. Each replaced section names the command that made it."""
    paths = leaderboard_paths(out)
    header, sections = page_sections(paths[0].read_text())
    for table in tables:
        lines = table_markdown(table, table["agent_rows"], table["pair_rows"], (command, seed))
        sections[lines[0]] = lines
    paths[0].write_text("\n".join(header + [line for lines in sections.values() for line in lines]))
    for path, key in zip(paths[1:], ("agent_rows", "pair_rows"), strict=True):
        fresh = {(table["game"].name, str(table["num_players"])): table[key] for table in tables}
        rows = []
        for row in read_csv(path):
            table_key = (row["game"], row["players"])
            if table_key not in fresh:
                rows.append(row)
            elif fresh[table_key] is not None:  # the first of the table's old rows
                rows += fresh[table_key]
                fresh[table_key] = None
        rows += [row for table_rows in fresh.values() if table_rows for row in table_rows]
        write_csv(path, rows)
    return paths


def page_sections(text) -> tuple[list[str], dict[str, list[str]]]:
    """A leaderboard page's lines before its first table, and each table's lines (from its
    ``## `` heading to the next), by heading, in the page's order."""
    header, sections, heading = [], {}, None
    for line in text.split("\n"):
        if line.startswith("## "):
            heading = line
            sections[heading] = []
        (header if heading is None else sections[heading]).append(line)
    return header, sections


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="heist leaderboard",
        description="Play every agent against every other in round-robin mixed tables, per "
        "game and player count, and write the leaderboard: OpenSkill ratings, win rates and "
        "head-to-head win rates with 95% intervals, decisions per second "
        "(leaderboard.md, leaderboard.csv, leaderboard_head_to_head.csv).",
    )
    parser.add_argument(
        "--games",
        nargs="+",
        default=heist_envs.game_names(),
        metavar="GAME",
        help=f"games (default: all: {', '.join(heist_envs.game_names())})",
    )
    parser.add_argument(
        "--counts",
        nargs="+",
        type=int,
        metavar="N",
        help="player counts, for every game (default: each game's default count and the one "
        "below it; with --quick the default only)",
    )
    parser.add_argument(
        "--agents",
        nargs="+",
        metavar="AGENT",
        help="agent specs, as for heist arena: names or outside agents, docs/agents.md "
        "(default: random, heuristic, ISMCTS at the "
        "--simulations budgets, ISMCTS at the smallest budget guided by the shipped policy "
        f"(prior=shipped), {TUNED_HEURISTIC} in games whose heuristic has weights, and "
        f"{', '.join(default_agents(())[2:]) or 'none'})",
    )
    parser.add_argument(
        "--simulations",
        nargs="+",
        type=int,
        metavar="N",
        help=f"ISMCTS budgets of the default agents (default {' '.join(map(str, FULL.simulations))}"
        f"; --quick: {' '.join(map(str, QUICK.simulations))})",
    )
    parser.add_argument(
        "--games-per-table",
        type=int,
        metavar="N",
        help=f"games per table, rounded up to whole rotations (default {FULL.games}; --quick: "
        f"{QUICK.games})",
    )
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="tournament seed")
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    parser.add_argument(
        "--out", help=f"folder to write to (default {FULL.out}; --quick: {QUICK.out})"
    )
    parser.add_argument(
        "--quick", action="store_true", help="a small run for CI: few games, small budgets"
    )
    parser.add_argument(
        "--update",
        action="store_true",
        help="replace only the tables this run plays (its --games and counts) in the "
        "leaderboard already in the output folder; the others stay as they are",
    )
    parser.add_argument("--trust-agents", action="store_true", help=TRUST_AGENTS)
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bars")
    argv = sys.argv[1:] if argv is None else list(argv)
    args = parser.parse_args(argv)
    size = QUICK if args.quick else FULL
    simulations = size.simulations if args.simulations is None else args.simulations
    games = size.games if args.games_per_table is None else args.games_per_table
    try:
        agents = run_agents(args, simulations)
        if games < 1 or args.workers < 1 or min(simulations) < 1:
            raise ValueError("games per table, workers and simulations must be at least 1")
        normalize_seed(args.seed)
        tables = plan(
            args.games, args.counts, agents, size.other_count, bool(args.agents), args.trust_agents
        )
        out = args.out or size.out
        check_writable(out)
        if args.update:
            check_updatable(out)
        started = time.perf_counter()
        command = shlex.join(["heist", "leaderboard", *argv])
        try:
            run(tables, games, args.seed, args.workers, not args.no_progress)
        except TournamentInterrupted:
            played = [table for table in tables if "result" in table]
            wall = time.perf_counter() - started
            written = write(played, out, command, args.seed, wall, partial=True)
            last = played[-1]["result"]
            whole = len(played) - 1
            kept = (
                f"kept {whole} whole table{'s' * (whole != 1)} and {len(last.games)} of "
                f"{last.planned_games} games of the next, written (marked partial) to "
                f"{', '.join(map(str, written))}; the leaderboard in {out} is unchanged"
            )
            raise Interrupted(kept) from None
        wall = time.perf_counter() - started
        if args.update:
            written = update(tables, out, command, args.seed)
        else:
            written = write(tables, out, command, args.seed, wall)
        written += overview_pages(out)
        for path in written:
            print(f"{'updated' if args.update else 'wrote'} {path}")
    except ValueError as error:
        parser.exit(2, f"heist leaderboard: error: {error}\n")
    return tables


if __name__ == "__main__":
    main()
