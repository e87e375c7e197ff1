"""The benchmark protocol behind ``heist eval``: any agent against a fixed reference pool.

Protocol v1 seats the agent on one side of a table whose other sides all hold one reference
agent, for every reference of :data:`POOL` that plays the table and every player count of the
game, seats rotated, each table's games seeded from the protocol's seed. It reports the
agent's win rate against each reference and count with a 95% Wilson interval, its decisions
per second, the games it lost by failing (illegal move, exception, time limit, crash), and an
anchored rating per count: OpenSkill, with the references' ratings frozen at their values in a
published leaderboard run (:data:`RATINGS`), so the number means the same on every machine and
in every run; the card prints those ratings beside the agent's. An outside agent plays in a
process of its own, which receives only its seat's observations and action masks (and worlds
sampled from its information set, for a search agent): :mod:`agents.isolation`.

    card = evaluate("my_agents.py:MyAgent", GAME, quick=True)
    print(card.markdown())
    card.write("out/")  # card.md, card.json

Each table is an :func:`agents.arena.tournament` between the agent and copies of one
reference: ``heist arena GAME --agents AGENT REF REF ... --players N --games G --seed S``
plays the same games.
"""

from __future__ import annotations

import argparse
import csv
import json
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path

import heist_envs
from agents.arena import (
    FORFEIT_REASONS,
    TournamentInterrupted,
    TournamentResult,
    check_count,
    check_time_limit,
    parse_entrant,
    plan_tournament,
    play_tournaments,
    rate,
    side_seats,
)
from agents.stats import interval_text
from experiments.common import (
    Interrupted,
    agent_figures,
    builds,
    duration,
    markdown_table,
    rate_text,
    rating_figures,
    warm_up,
)
from heist_envs.core.game import normalize_seed

VERSION = "v1"
#: the reference pool of protocol v1; an agent that cannot play a table (the tuned
#: heuristic where a game's heuristic has no weights, a network at a count none was trained
#: for) sits it out
POOL = (
    "random",
    "heuristic",
    "heuristic:weights=tuned",
    "ismcts:simulations=100",
    "ismcts:simulations=1000",
    "ppo",
)
SEED = 31
#: games per table (agent and one reference at one player count), rounded up to whole
#: seat rotations
GAMES = 200
QUICK_GAMES = 10
#: the most seconds one of the agent's decisions may take; past it, that game is lost
TIME_LIMIT = 10.0
#: the references' frozen ratings, from a published leaderboard run (see :func:`freeze`)
RATINGS = Path(__file__).resolve().parents[2] / "agents" / f"reference_ratings_{VERSION}.json"
#: failures listed one by one in the markdown card (the JSON card lists them all)
LISTED_FAILURES = 20


def freeze(leaderboard_csv, source) -> dict:
    """The reference ratings of :data:`POOL` from a leaderboard's ``leaderboard.csv``: per
    game and player count, each reference's (mu, sigma); ``source`` says which run it was."""
    ratings: dict = {}
    with open(leaderboard_csv, newline="") as rows:
        for row in csv.DictReader(rows):
            if row["side"] == "all" and row["agent"] in POOL:
                table = ratings.setdefault(row["game"], {}).setdefault(row["players"], {})
                table[row["agent"]] = [float(row["mu"]), float(row["sigma"])]
    return {"protocol": VERSION, "source": source, "model": "PlackettLuce", "ratings": ratings}


def reference_ratings(path=RATINGS) -> dict:
    return json.loads(Path(path).read_text())


def table_seed(seed, num_players, reference) -> int:
    """The seed of the table of ``reference`` (its index in :data:`POOL`) at ``num_players``."""
    return seed + 100 * num_players + reference


@dataclass
class Card:
    """A benchmark card: the protocol, its tables and their results, and the agent's figures."""

    agent: str
    game: str
    quick: bool
    seed: int
    games_per_table: int
    time_limit: float
    ratings_source: str
    tables: list[dict]
    ratings: list[dict]
    failures: list[dict]
    left_out: list[str]
    wall_seconds: float
    isolated: bool
    planned_games: int
    results: list[TournamentResult] = field(default_factory=list, repr=False)

    @property
    def protocol(self) -> str:
        return f"{VERSION}-quick" if self.quick else VERSION

    @property
    def games(self) -> int:
        return sum(t["games"] for t in self.tables)

    @property
    def partial(self) -> bool:
        """Stopped by Ctrl-C: the card holds the games finished by then, and is no score."""
        return any(result.partial for result in self.results)

    def failure_counts(self) -> dict:
        counts = Counter(f["reason"] for f in self.failures)
        return {reason: counts[reason] for reason in FORFEIT_REASONS}

    def decisions_per_second(self) -> float | None:
        rates = [t["decisions_per_second"] for t in self.tables if t["decisions_per_second"]]
        return statistics.median(rates) if rates else None

    def to_dict(self) -> dict:
        return {
            "protocol": self.protocol,
            "agent": self.agent,
            "game": self.game,
            "seed": self.seed,
            "games_per_table": self.games_per_table,
            "time_limit": self.time_limit,
            "pool": list(POOL),
            "isolated": self.isolated,
            "ratings_source": self.ratings_source,
            "anchored_ratings": self.ratings,
            "tables": self.tables,
            "decisions_per_second": self.decisions_per_second(),
            "games": self.games,
            "planned_games": self.planned_games,
            "partial": self.partial,
            "failures": self.failure_counts(),
            "failed_games": self.failures,
            "left_out": self.left_out,
            "wall_seconds": self.wall_seconds,
        }

    def markdown(self) -> str:
        lines = [
            *self.heading_lines(),
            *self.rating_lines(),
            *self.win_rate_lines(),
            *self.failure_lines(),
        ]
        if self.left_out:
            lines += ["", "## Not played", ""] + [f"- {why}" for why in self.left_out]
        return "\n".join(lines) + "\n"

    def heading_lines(self) -> list[str]:
        title = heist_envs.get_game(self.game).title
        lines = [f"# Benchmark card: `{self.agent}` on {title}", ""]
        if self.partial:
            lines += [
                f"**Partial: interrupted after {self.games} of {self.planned_games} games**; "
                "its figures cover the games finished by then (some tables' seat rotations "
                "incomplete), so it is no score of the protocol.",
                "",
            ]
        if self.isolated:
            where = (
                "The agent played in a process of its own, which received only its seat's "
                "observations and action masks (and worlds sampled from its information set, "
                "for a search agent), never the game or its state."
            )
        else:
            where = (
                f"`{self.agent}` is one of this project's agents: it played in the game's process."
            )
        return lines + [
            f"Protocol `{self.protocol}` (seed {self.seed}, {self.games_per_table} games per "
            f"table rounded up to whole seat rotations, {self.time_limit:g} s per decision): "
            f"{self.games} games in {duration(self.wall_seconds)}. Reference pool: "
            + ", ".join(f"`{spec}`" for spec in POOL)
            + f". Frozen reference ratings: {self.ratings_source}. {where}",
        ]

    def rating_lines(self) -> list[str]:
        references = [spec for spec in POOL if any(spec in r["references"] for r in self.ratings)]
        lines = [
            "",
            "## Anchored rating",
            "",
            "OpenSkill (Plackett-Luce) rating mu of the agent, beside the references' ratings, "
            "frozen at their values in the leaderboard run they come from and on the same "
            "scale: an agent rated above a reference tends to finish ahead of it. Each interval "
            "is mu ± 1.96 sigma, sigma being how uncertain the rating still is after the games: "
            "it says how far the games pin the rating down, not how the agent would do at other "
            "tables. The ordinal, mu - 3 sigma, is what the leaderboard ranks by.",
            "",
        ]

        def rating(figures):
            return interval_text(
                figures["mu"], figures["rating_low"], figures["rating_high"], ".1f"
            )

        lines += markdown_table(
            ["players", "agent: rating [95%]", "ordinal", "games rated"]
            + [f"`{spec}` (frozen)" for spec in references],
            [
                [
                    r["players"],
                    rating(r) if r["mu"] is not None else "no frozen ratings at this count",
                    "" if r["ordinal"] is None else f"{r['ordinal']:.1f}",
                    r["games"],
                ]
                + [
                    rating(r["references"][spec]) if spec in r["references"] else ""
                    for spec in references
                ]
                for r in self.ratings
            ],
        )
        return lines

    def win_rate_lines(self) -> list[str]:
        lines = [
            "",
            "## Win rate against each reference",
            "",
            "The agent holds one side, the reference every other; a side wins with the best "
            "positive reward, so an agent as strong as the reference wins about the fair share.",
            "",
        ]
        lines += markdown_table(
            [
                "players",
                "reference",
                "seed",
                "games",
                "win rate [95% CI]",
                "fair share",
                "decisions/s",
                "failures",
            ],  # fmt: skip
            [
                [
                    t["players"],
                    f"`{t['reference']}`",
                    t["seed"],
                    t["games"],
                    interval_text(t["win_rate"], t["win_low"], t["win_high"]),
                    f"{t['fair_share']:.3f}",
                    rate_text(t),
                    t["failures"],
                ]
                for t in self.tables
            ],
        )
        return lines

    def failure_lines(self) -> list[str]:
        games = self.games
        overall = self.decisions_per_second()
        counts = self.failure_counts()
        lines = [
            "",
            "## Decisions and failures",
            "",
            "Decisions per second (median over the tables of the agent's decisions over the CPU "
            "time of its `act` calls): "
            + ("none measured" if overall is None else f"{overall:,.0f}")
            + ".",
            "",
            f"Games the agent lost by failing: {len(self.failures)} of {games} ("
            + ", ".join(f"{reason}: {n}" for reason, n in counts.items())
            + ").",
        ]
        if self.failures:
            lines += ["", "Each at its game's seed and decision number:", ""]
            lines += [
                f"- {f['players']} players against `{f['reference']}`, game {f['game']} (seed "
                f"{f['seed']}), seat {f['seat']}, decision {f['decision']}: {f['reason']}: "
                f"{f['detail']}"
                for f in self.failures[:LISTED_FAILURES]
            ]
            if len(self.failures) > LISTED_FAILURES:
                lines.append(f"- and {len(self.failures) - LISTED_FAILURES} more (card.json)")
        return lines

    def write(self, out_dir) -> list[Path]:
        """Write ``card.md`` and ``card.json`` into ``out_dir``."""
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        paths = [out / "card.md", out / "card.json"]
        paths[0].write_text(self.markdown())
        paths[1].write_text(json.dumps(self.to_dict(), indent=1) + "\n")
        return paths


def evaluate(
    agent,
    game_name,
    counts=None,
    quick=False,
    seed=SEED,
    workers=None,
    time_limit=TIME_LIMIT,
    progress=True,
    show=print,
    ratings_path=RATINGS,
) -> Card:
    """Run the protocol for ``agent`` (an agent spec) on ``game_name``: every player count of
    the game (or ``counts``), :data:`GAMES` games per table (``quick``: :data:`QUICK_GAMES`),
    the agent's decisions limited to ``time_limit`` seconds. Bad input (an unknown game or
    count, a bad number, a spec that does not load, an agent that plays no count) raises a
    ValueError before any game is played. Ctrl-C during the games raises
    :class:`~experiments.common.Interrupted`, its ``kept`` the partial card."""
    game = heist_envs.get_game(game_name)
    if time_limit is None:
        raise ValueError("the protocol needs a time limit: it plays the agent in worker processes")
    check_time_limit(time_limit)
    check_count("workers", workers, allow_none=True)
    normalize_seed(seed)
    all_counts = range(game.min_players, game.max_players + 1)
    counts = [game.check_players(n) for n in dict.fromkeys(counts or all_counts)]
    entrant = replace(parse_entrant(agent), time_limit=time_limit)
    frozen_file = reference_ratings(ratings_path)
    games = QUICK_GAMES if quick else GAMES
    plans, where, left_out = plan_tables(entrant, game, counts, seed, games)
    if not plans:
        raise ValueError(f"agent {agent!r} plays no table of {game.name}: {'; '.join(left_out)}")
    warm_up(game.name, counts[0], show)
    started = time.perf_counter()

    def card(results) -> Card:
        tables, failures = table_figures(entrant.label, where, results)
        frozen = frozen_file["ratings"].get(game.name, {})
        return Card(
            agent=agent,
            game=game.name,
            quick=quick,
            seed=seed,
            games_per_table=games,
            time_limit=time_limit,
            ratings_source=frozen_file["source"],
            tables=tables,
            ratings=[
                anchored_rating(entrant.label, n, where, results, frozen.get(str(n)))
                for n in counts
                if any(played == n for played, _ in where)
            ],
            failures=failures,
            left_out=left_out,
            wall_seconds=time.perf_counter() - started,
            isolated=entrant.isolated,
            planned_games=sum(len(plan.tasks) for plan in plans),
            results=results,
        )

    try:
        return card(play_tournaments(plans, workers, progress))
    except TournamentInterrupted as stop:
        kept = card(stop.results)
        raise Interrupted(f"{kept.games} of {kept.planned_games} games played", kept) from None


def plan_tables(entrant, game, counts, seed, games) -> tuple[list, list, list[str]]:
    """The tournaments of the protocol: per player count of ``counts`` and reference of
    :data:`POOL` that can play it, the agent against the reference in every other side.
    Returns their plans, where each is (player count, reference spec), and why the tables
    left out are (the counts the agent cannot play for one reason, together)."""
    plans, where, left_out = [], [], []
    cannot: dict[str, list[int]] = {}
    for num_players in counts:
        why = builds(entrant, game, num_players)
        if why:
            cannot.setdefault(why, []).append(num_players)
            continue
        sides = len(side_seats(game, num_players))
        for index, spec in enumerate(POOL):
            reference = parse_entrant(spec)
            why = builds(reference, game, num_players)
            if why:
                left_out.append(f"{num_players} players, `{spec}`: {why}")
                continue
            table = table_seed(seed, num_players, index)
            lineup = [entrant] + [reference] * (sides - 1)
            plans.append(plan_tournament(game.name, lineup, games, num_players, table))
            where.append((num_players, spec))
    agent_cannot = [
        f"{', '.join(map(str, ns))} players: the agent cannot play ({why})"
        for why, ns in cannot.items()
    ]
    return plans, where, agent_cannot + left_out


def table_figures(label, where, results) -> tuple[list[dict], list[dict]]:
    """The card's row of each table (the agent's figures against its reference) and the games
    the agent (entrant ``label``) lost by failing."""
    tables, failures = [], []
    for (num_players, spec), result in zip(where, results, strict=True):
        lost = [f for f in result.forfeits if f["entrant"] == label]
        seeds = {record["game"]: record["seed"] for record in result.games}
        failures += [
            {"players": num_players, "reference": spec, "seed": seeds[f["game"]]} | f for f in lost
        ]
        tables.append(
            {
                "players": num_players,
                "reference": spec,
                "seed": result.seed,
                "fair_share": result.summary[0]["fair_share"],
                **agent_figures(result, 0),
                "failures": len(lost),
            }
        )
    return tables, failures


def anchored_rating(label, num_players, where, results, frozen) -> dict:
    """The agent's rating at ``num_players`` from its games against the references that have a
    frozen rating at that count (``frozen``: spec -> (mu, sigma)), in table order, and the
    references' frozen ratings (under ``references``)."""
    labels, records, fixed = [label], [], {}
    for (n, spec), result in zip(where, results, strict=True):
        if n != num_players or spec not in (frozen or {}):
            continue
        offset = len(labels)
        labels += result.agents[1:]  # the reference's copies: spec, spec_2, ...
        fixed |= dict.fromkeys(result.agents[1:], frozen[spec])
        for record in result.games:
            seating = [0 if i == 0 else offset + i - 1 for i in record["seating"]]
            records.append({**record, "seating": seating})
    row = {"players": num_players, "games": len(records)}
    row |= rating_figures(rate(labels, records, fixed)[label] if records else None)
    references = {
        spec: rating_figures({"mu": mu, "sigma": sigma, "ordinal": mu - 3 * sigma})
        for spec, (mu, sigma) in (frozen or {}).items()
        if spec in POOL
    }
    return row | {"references": references}


def main(argv=None):
    """``python -m experiments.tools.protocol LEADERBOARD_CSV --source TEXT``: write the frozen
    reference ratings (:data:`RATINGS`) from a leaderboard run."""
    parser = argparse.ArgumentParser(
        prog="python -m experiments.tools.protocol", description=main.__doc__
    )
    parser.add_argument("leaderboard_csv", help="a leaderboard run's leaderboard.csv")
    parser.add_argument("--source", required=True, help="which run it was, for the cards")
    parser.add_argument("--out", default=str(RATINGS), help=f"default {RATINGS.name}")
    args = parser.parse_args(argv)
    Path(args.out).write_text(
        json.dumps(freeze(args.leaderboard_csv, args.source), indent=1) + "\n"
    )
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
