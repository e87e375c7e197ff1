"""The benchmark protocol behind ``heist eval``: any agent against a fixed reference pool.

Protocol v4 seats the agent on one side of a table whose other sides all hold one reference
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

A person is rated on the same scale from the games they saved at the web table
(:func:`rate_person`, ``heist eval --human FILE``): the games of theirs that are games of
the card's tables, each replayed to its saved outcome first.
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
from typing import NamedTuple

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
    rate_summary,
    side_outcomes,
    unique_labels,
)
from agents.arena.batched import unbatched_reason
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
from experiments.web.saved_games import read_saved_games
from heist_envs.core.game import normalize_seed

VERSION = "v4"
#: the reference pool of the protocol (v1's); an agent that cannot play a table (the tuned
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
#: games per table whose agents all play in the arena's batched route
#: (:mod:`agents.arena.batched`), whose games cost milliseconds
BATCHED_GAMES = 2000
#: the reference whose games cost the most (a second or more of search each) and the games
#: of its tables: what keeps the full protocol of all four games within 20 minutes on two
#: cores (docs/agents.md)
DEEP_SEARCH = "ismcts:simulations=1000"
DEEP_SEARCH_GAMES = 60
#: ``--quick``: games per table, and per table that batches
QUICK_GAMES = 10
QUICK_BATCHED_GAMES = 1000
#: OpenSkill's drift (tau) in the anchored rating: none, since a program's strength does not
#: change between its games, so the rating's sigma narrows with every game instead of
#: stopping at the floor that the default drift leaves (protocol v1's)
DRIFT = 0.0
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
    batched_games_per_table: int | None
    deep_search_games_per_table: int
    ratings_source: str
    tables: list[dict]
    ratings: list[dict]
    failures: list[dict]
    left_out: list[str]
    wall_seconds: float
    isolated: bool
    planned_games: int
    results: list[TournamentResult] = field(default_factory=list, repr=False)
    #: the agent's own counts (its ``stats()``, as the ``llm`` agent keeps them) summed over
    #: its seats of every game: none for an agent without them
    agent_stats: dict = field(default_factory=dict)
    #: with ``heist eval --exploit``: the reports of :func:`experiments.tools.exploit.measure`
    exploitability: list[dict] = field(default_factory=list)

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
            "batched_games_per_table": self.batched_games_per_table,
            "deep_search_games_per_table": self.deep_search_games_per_table,
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
            **({"agent_stats": self.agent_stats} if self.agent_stats else {}),
            **({"exploitability": self.exploitability} if self.exploitability else {}),
        }

    def markdown(self) -> str:
        lines = [
            *self.heading_lines(),
            *self.rating_lines(),
            *self.win_rate_lines(),
            *self.failure_lines(),
            *self.exploit_lines(),
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
            f"table{self.fewer_text()} rounded up to whole seat rotations, "
            f"{self.time_limit:g} s per decision): "
            f"{self.games} games in {duration(self.wall_seconds)}. Reference pool: "
            + ", ".join(f"`{spec}`" for spec in POOL)
            + f". Frozen reference ratings: {self.ratings_source}. {where}",
        ]

    def fewer_text(self) -> str:
        """The tables whose games per table differ from the others'."""
        parts = []
        if self.batched_games_per_table:
            parts.append(f"{self.batched_games_per_table} at a table whose agents play batched")
        if self.deep_search_games_per_table != self.games_per_table:
            parts.append(f"{self.deep_search_games_per_table} against `{DEEP_SEARCH}`")
        return f" ({', '.join(parts)})" if parts else ""

    def rating_lines(self) -> list[str]:
        return rating_lines(self.ratings, "agent")

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
        if self.agent_stats:
            lines += [
                "",
                "The agent's own counts (its `stats()`), summed over its seats of every game: "
                + ", ".join(f"{name} {value:,.6g}" for name, value in self.agent_stats.items())
                + ".",
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

    def exploit_lines(self) -> list[str]:
        """The exploitability section (``--exploit``): none without it."""
        if not self.exploitability:
            return []
        lines = [
            "",
            "## Exploitability",
            "",
            "A best response (the torch PPO learner: `heist exploit`, docs/ladder.md) trained "
            "for the minutes shown in one seat against the agent in every other seat; its win "
            "rate against the agent, the agent's own in that seat against copies of itself (the "
            "same deals), and the gain, the difference, each with its 95% interval.",
            "",
        ]

        def rate(figures):
            return interval_text(figures["win_rate"], figures["ci_low"], figures["ci_high"])

        lines += markdown_table(
            ["players", "side", "minutes", "steps", "best response", "agent itself", "gain",
             "games"],
            [
                [
                    r["num_players"],
                    r["side"] or "any seat",
                    f"{r['minutes']:g}",
                    f"{r['steps']:,}",
                    rate(r["best_response"]),
                    rate(r["agent_itself"]),
                    interval_text(r["gain"]["value"], r["gain"]["ci_low"], r["gain"]["ci_high"],
                                  "+.3f"),
                    r["best_response"]["games"],
                ]
                for r in self.exploitability
            ],
        )  # fmt: skip
        return lines

    def write(self, out_dir) -> list[Path]:
        """Write ``card.md`` and ``card.json`` into ``out_dir``."""
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        paths = [out / "card.md", out / "card.json"]
        paths[0].write_text(self.markdown())
        paths[1].write_text(json.dumps(self.to_dict(), indent=1) + "\n")
        return paths


def rating_lines(ratings, who) -> list[str]:
    """The card's section of anchored ratings (rows of :func:`anchored_rating`), of the
    ``who`` (an agent, a person) rated."""
    references = [spec for spec in POOL if any(spec in r["references"] for r in ratings)]
    article = "an" if who[0] in "aeiou" else "a"
    lines = [
        "",
        "## Anchored rating",
        "",
        f"OpenSkill (Plackett-Luce) rating mu of the {who}, beside the references' ratings, "
        "frozen at their values in the leaderboard run they come from and on the same "
        f"scale: {article} {who} rated above a reference tends to finish ahead of it. Each "
        "interval is mu ± 1.96 sigma, sigma being how uncertain the rating still is after "
        "the games: it says how far the games pin the rating down, not how the "
        f"{who} would do at other tables. The ordinal, mu - 3 sigma, is what the "
        "leaderboard ranks by.",
        "",
    ]

    def rating(figures):
        return interval_text(figures["mu"], figures["rating_low"], figures["rating_high"], ".1f")

    lines += markdown_table(
        ["players", f"{who}: rating [95%]", "ordinal", "games rated"]
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
            for r in ratings
        ],
    )
    return lines


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
    batched=None,
    exploit_minutes=None,
    exploit_out=None,
) -> Card:
    """Run the protocol for ``agent`` (an agent spec) on ``game_name``: every player count of
    the game (or ``counts``), :data:`GAMES` games per table, :data:`BATCHED_GAMES` at a table
    that batches unless ``batched`` is False and :data:`DEEP_SEARCH_GAMES` against
    :data:`DEEP_SEARCH` (``quick``: :data:`QUICK_GAMES`, and :data:`QUICK_BATCHED_GAMES` at a
    table that batches),
    the agent's decisions limited to ``time_limit`` seconds. Bad input (an unknown game or
    count, a bad number, a spec that does not load, an agent that plays no count) raises a
    ValueError before any game is played. ``batched``: the route of the tables
    (:func:`agents.arena.play_tournaments`). Ctrl-C during the games raises
    :class:`~experiments.common.Interrupted`, its ``kept`` the partial card.

    ``exploit_minutes`` adds the exploitability section: after the tables, a best response
    per side trained that long (:mod:`experiments.tools.exploit`, its files in
    ``exploit_out``) at the game's player count, or the first of ``counts`` without it."""
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
    deep_games = QUICK_GAMES if quick else DEEP_SEARCH_GAMES
    batched_games = None
    if batched is not False:
        batched_games = QUICK_BATCHED_GAMES if quick else BATCHED_GAMES
    plans, where, left_out = plan_tables(
        entrant, game, counts, seed, games, batched_games, deep_games
    )
    if not plans:
        raise ValueError(f"agent {agent!r} plays no table of {game.name}: {'; '.join(left_out)}")
    exploiting = None
    if exploit_minutes is not None:
        from experiments.tools import exploit

        default = game.check_players(None)
        players = default if default in counts else counts[0]
        exploiting = exploit.options(
            agent, game.name, players=players, minutes=exploit_minutes, out=exploit_out,
            games=QUICK_GAMES * 10 if quick else exploit.DEFAULT_GAMES,
        )  # fmt: skip
        sides = exploit.check(exploiting)
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
            batched_games_per_table=batched_games,
            deep_search_games_per_table=deep_games,
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
            agent_stats=summed_stats(entrant.label, results),
        )

    try:
        scored = card(play_tournaments(plans, workers, progress, batched))
    except TournamentInterrupted as stop:
        kept = card(stop.results)
        raise Interrupted(f"{kept.games} of {kept.planned_games} games played", kept) from None
    if exploiting is not None:
        scored.exploitability = [exploit.measure(exploiting, side) for side in sides]
    return scored


def plan_tables(
    entrant, game, counts, seed, games, batched_games=None, deep_games=None
) -> tuple[list, list, list[str]]:
    """The tournaments of the protocol: per player count of ``counts`` and reference of
    :data:`POOL` that can play it, the agent against the reference in every other side,
    ``games`` games each (``batched_games`` where both play in the batched route, and
    ``deep_games`` against :data:`DEEP_SEARCH`, if given).
    Returns their plans, where each is (player count, reference spec), and why the tables
    left out are (the counts the agent cannot play for one reason, together)."""
    plans, where, left_out = [], [], []
    cannot: dict[str, list[int]] = {}
    for num_players in counts:
        why = builds(entrant, game, num_players)
        if why:
            cannot.setdefault(why, []).append(num_players)
            continue
        sides = len(game.side_seats(num_players))
        for index, spec in enumerate(POOL):
            reference = parse_entrant(spec)
            why = builds(reference, game, num_players)
            if why:
                left_out.append(f"{num_players} players, `{spec}`: {why}")
                continue
            table = table_seed(seed, num_players, index)
            lineup = [entrant] + [reference] * (sides - 1)
            batches = batched_games and not any(map(unbatched_reason, (entrant, reference)))
            count = batched_games if batches else games
            if spec == DEEP_SEARCH and deep_games is not None:
                count = deep_games
            plans.append(plan_tournament(game.name, lineup, count, num_players, table))
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


def summed_stats(label, results) -> dict:
    """The counts of the agent's ``stats()`` (entrant ``label``'s seats of each game's
    record) summed by name, in the order the agent gives them."""
    total: dict = {}
    for result in results:
        for record in result.games:
            seats = zip(record["agents"], record.get("agent_stats") or [], strict=False)
            for stats in (stats for who, stats in seats if who == label and stats):
                for name, value in stats.items():
                    total[name] = total.get(name, 0) + value
    return total


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
    row |= rating_figures(rate(labels, records, fixed, DRIFT)[label] if records else None)
    references = {
        spec: rating_figures({"mu": mu, "sigma": sigma, "ordinal": mu - 3 * sigma})
        for spec, (mu, sigma) in (frozen or {}).items()
        if spec in POOL
    }
    return row | {"references": references}


# A person's saved games ----------------------------------------------------------------------

#: the person's label in a rating of their saved games
PERSON = "person"


class SavedTable(NamedTuple):
    """A saved game as :func:`anchored_rating` reads a table's result: the labels of its
    entrants (the person, then the reference's copies) and the game, seated as a tournament
    seats them (the entrant of each side)."""

    agents: list[str]
    games: list[dict]


@dataclass
class PersonCard:
    """The card of a person's saved games (:func:`rate_person`): an anchored rating per
    player count on the benchmark card's scale, the games against each reference, why the
    others do not rate, and the lines of the file that failed their checks."""

    file: str
    game: str
    ratings_source: str
    saved_games: int
    ratings: list[dict]
    tables: list[dict]
    not_rated: dict[str, int]
    invalid: list[str]

    @property
    def rated_games(self) -> int:
        return sum(t["games"] for t in self.tables)

    write = Card.write

    def to_dict(self) -> dict:
        return {
            "protocol": VERSION,
            "person": self.file,
            "game": self.game,
            "pool": list(POOL),
            "ratings_source": self.ratings_source,
            "saved_games": self.saved_games,
            "rated_games": self.rated_games,
            "anchored_ratings": self.ratings,
            "tables": self.tables,
            "not_rated": self.not_rated,
            "invalid_lines": self.invalid,
        }

    def markdown(self) -> str:
        title = heist_envs.get_game(self.game).title
        lines = [
            f"# Rating card: the person of `{self.file}` on {title}",
            "",
            f"{self.saved_games} saved games of {title} pass their checks (each replays "
            "through the rules from its seed and actions to the outcome saved; that shows a "
            "game is a legal game with that outcome, not who chose the person's moves). "
            f"{self.rated_games} of them rate: those where the person held one side and one "
            f"agent of the reference pool of protocol `{VERSION}` every other side, as at the "
            "benchmark card's tables (`heist eval`), at a player count with frozen ratings. "
            "Reference pool: " + ", ".join(f"`{spec}`" for spec in POOL) + ". Frozen "
            f"reference ratings: {self.ratings_source}.",
        ]
        if self.ratings:
            lines += rating_lines(self.ratings, "person")
            lines += ["", "## Games against each reference", ""]
            lines += markdown_table(
                ["players", "reference", "games", "win rate [95% CI]", "fair share"],
                [
                    [
                        t["players"],
                        f"`{t['reference']}`",
                        t["games"],
                        interval_text(t["win_rate"], t["win_low"], t["win_high"]),
                        f"{t['fair_share']:.3f}",
                    ]
                    for t in self.tables
                ],
            )
        if self.not_rated:
            lines += ["", "## Not rated", ""]
            lines += [
                f"- {games} game{'s' * (games != 1)}: {why}"
                for why, games in self.not_rated.items()
            ]
        if self.invalid:
            lines += ["", "## Lines that failed their checks (left out)", ""]
            lines += [f"- {line}" for line in self.invalid]
        return "\n".join(lines) + "\n"


def rate_person(path, game_name=None, counts=None, ratings_path=RATINGS) -> PersonCard:
    """The card of the games a person saved at the web table (``heist serve --save-games
    FILE``, :mod:`experiments.web.saved_games`): the person's anchored rating per player
    count, from the games at which they held one side and one reference of :data:`POOL`
    every other (the benchmark card's tables), in the order played, the references' ratings
    frozen as on the card. ``game_name`` chooses the game where the file holds several;
    ``counts``, the player counts. A game that fails its checks is left out, with a line
    saying why (:attr:`PersonCard.invalid`), and the others rate; an unreadable file, one
    without a valid game, or an unknown game or count raises a ValueError."""
    games, invalid = read_saved_games(path)
    if not games:
        why = f": {invalid[0]}" if invalid else " (it is empty)"
        more = f" (and {len(invalid) - 1} lines more)" if len(invalid) > 1 else ""
        raise ValueError(f"{path} holds no saved game that passes its checks{why}{more}")
    played = Counter(heist_envs.get_game(g.record.game).name for g in games)
    if game_name is None and len(played) > 1:
        held = ", ".join(f"{name} ({n})" for name, n in played.items())
        raise ValueError(f"{path} holds games of several games: {held}; choose one with --game")
    game = heist_envs.get_game(game_name or next(iter(played)))
    if game.name not in played:
        raise ValueError(f"{path} holds no game of {game.name}; it holds {', '.join(played)}")
    wanted = {game.check_players(n) for n in counts or ()}
    games = [
        g
        for g in games
        if heist_envs.get_game(g.record.game) is game
        and (not wanted or g.record.num_players in wanted)
    ]
    frozen_file = reference_ratings(ratings_path)
    frozen = frozen_file["ratings"].get(game.name, {})
    where, results, not_rated = [], [], Counter()
    for saved in games:
        table = card_table(game, saved, frozen)
        if isinstance(table, str):
            not_rated[table] += 1
            continue
        spec, side = table
        sides = game.side_seats(saved.record.num_players)
        copies = unique_labels([parse_entrant(spec)] * (len(sides) - 1))
        others = iter(range(1, len(sides)))
        seating = [0 if i == side else next(others) for i in range(len(sides))]
        scores = [None] * saved.record.num_players
        outcomes = side_outcomes({"rewards": saved.rewards, "scores": scores}, sides)
        game_seated = {"seating": seating, "outcomes": outcomes, "side": side}
        where.append((saved.record.num_players, spec))
        results.append(SavedTable([PERSON, *(c.label for c in copies)], [game_seated]))
    rated_counts = sorted({n for n, _ in where})
    return PersonCard(
        file=str(path),
        game=game.name,
        ratings_source=frozen_file["source"],
        saved_games=len(games),
        ratings=[anchored_rating(PERSON, n, where, results, frozen[str(n)]) for n in rated_counts],
        tables=person_tables(game, where, results),
        not_rated=dict(not_rated),
        invalid=invalid,
    )


def card_table(game, saved, frozen) -> tuple[str, int] | str:
    """The benchmark card's table a saved game is a game of: the reference that held every
    side but the person's, and the person's side; or why it is none (a str)."""
    record = saved.record
    n = record.num_players
    if game.check_options(record.options) != game.check_options({}):
        return f"played with options {record.options}; the card's games use the defaults"
    sides = game.side_seats(n)
    mine = saved.person_seats
    if mine not in sides:
        return "the person held other seats than one side (at the card's tables a player holds one)"
    others = {who for k, who in enumerate(record.players) if k not in mine}
    if len(others) > 1:
        return "different agents held the other sides (the card's tables seat one reference)"
    [spec] = others
    if spec not in POOL:
        return f"`{spec}` is not in the reference pool"
    if spec not in frozen.get(str(n), {}):
        return f"no frozen rating of `{spec}` at {n} players"
    return spec, sides.index(mine)


def person_tables(game, where, results) -> list[dict]:
    """Per player count and reference (in the pool's order): the person's games and win
    rate with its 95% Wilson interval, and the fair share."""
    won: dict[tuple, list[bool]] = {}
    for key, result in zip(where, results, strict=True):
        [seated] = result.games
        won.setdefault(key, []).append(seated["outcomes"][seated["side"]].won)
    return [
        {
            "players": n,
            "reference": spec,
            "games": len(wins),
            **rate_summary(sum(wins), len(wins)),
            "fair_share": 1 / len(game.side_seats(n)),
        }
        for (n, spec), wins in sorted(won.items(), key=lambda kv: (kv[0][0], POOL.index(kv[0][1])))
    ]


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
