"""A tournament's results: each side's outcome in a game, OpenSkill ratings, the per-entrant
and per-seat summaries, and their tables and files (:class:`TournamentResult`).
"""

from __future__ import annotations

import csv
import io
import json
import statistics
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import NamedTuple

import numpy as np
from openskill.models import PlackettLuce

from ..stats import interval_text, mean_interval, wilson_interval


class Outcome(NamedTuple):
    """How one side did in one game."""

    reward: float
    won: bool  # the best reward of the game, and positive (a truncated game has no winner)
    score: float | None  # None where the game reports no score


def held_sides(record, index, side=None) -> list[int]:
    """The sides entrant ``index`` held in a game (only ``side``, if given)."""
    return [
        s for s, entrant in enumerate(record["seating"]) if entrant == index and side in (None, s)
    ]


def side_outcomes(record, sides) -> list[Outcome]:
    """Each side's :class:`Outcome` in one game (a team's: its seats' mean)."""
    rewards = [_mean([record["rewards"][k] for k in seats]) for seats in sides]
    best = max(rewards)
    outcomes = []
    for seats, reward in zip(sides, rewards, strict=True):
        scores = [record["scores"][k] for k in seats]
        score = None if None in scores else _mean(scores)
        outcomes.append(Outcome(reward, reward == best and reward > 0, score))
    return outcomes


def _mean(values) -> float:
    """The mean of a few numbers, as ``float(np.mean(values))`` gives it, without numpy's
    cost per call (the same sum, in order, for up to 8 of them)."""
    total = 0.0
    for value in values:
        total += value
    return float(total) / len(values)


def rate(labels, records, frozen=None, drift=None) -> dict[str, dict]:
    """OpenSkill (Plackett-Luce) ratings from the games in order, sides ranked by reward.

    An entrant holding several sides of one game is rated once per side, and keeps the mean
    of those updates. ``frozen`` maps labels to (mu, sigma) ratings that the games leave as
    they are: the other entrants are rated against them (an anchored rating). ``drift``:
    OpenSkill's tau, the sigma added before every game (None: OpenSkill's default, 25/300)."""
    model = PlackettLuce() if drift is None else PlackettLuce(tau=drift)
    frozen = frozen or {}
    ratings = {label: model.rating(*frozen.get(label, ()), name=label) for label in labels}
    for record in records:
        seated = [labels[i] for i in record["seating"]]
        rewards = [outcome.reward for outcome in record["outcomes"]]
        updated = model.rate([[ratings[label]] for label in seated], scores=rewards)
        held: dict[str, list] = {}
        for label, team in zip(seated, updated, strict=True):
            if label not in frozen:
                held.setdefault(label, []).append(team[0])
        for label, mine in held.items():
            if len(mine) == 1:  # the update itself, named as the entrant
                ratings[label] = mine[0]
                continue
            ratings[label] = model.rating(
                mu=_mean([r.mu for r in mine]), sigma=_mean([r.sigma for r in mine]), name=label
            )
    return {
        label: {"mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal()}
        for label, r in ratings.items()
    }


def rate_summary(wins, games) -> dict:
    low, high = wilson_interval(wins, games)
    return {"win_rate": wins / games if games else None, "win_low": low, "win_high": high}


def mean_summary(name, values) -> dict:
    if not values:
        return {f"mean_{name}": None, f"{name}_low": None, f"{name}_high": None}
    mean, low, high = mean_interval(values)
    return {f"mean_{name}": mean, f"{name}_low": low, f"{name}_high": high}


def entrant_summary(index, label, records, rating, num_sides) -> dict:
    """One row of the summary: how entrant ``index`` did over every side it held, and its
    fair share: the win rate per side held of an entrant as strong as the others, one win
    in ``num_sides``."""
    held = [
        (side, record["outcomes"][side])
        for record in records
        for side, entrant in enumerate(record["seating"])
        if entrant == index
    ]
    wins = sum(outcome.won for _, outcome in held)
    first = [outcome.won for side, outcome in held if side == 0]
    other = [outcome.won for side, outcome in held if side != 0]
    first_rate = sum(first) / len(first) if first else None
    other_rate = sum(other) / len(other) if other else None
    return {
        "agent": label,
        "games": sum(index in record["seating"] for record in records),
        "seat_games": len(held),
        "wins": wins,
        **rate_summary(wins, len(held)),
        "fair_share": 1 / num_sides,
        **mean_summary("reward", [outcome.reward for _, outcome in held]),
        **mean_summary("score", [o.score for _, o in held if o.score is not None]),
        **rating,
        "first_seat_games": len(first),
        "first_seat_win_rate": first_rate,
        "other_seat_win_rate": other_rate,
        "first_seat_advantage": first_rate - other_rate if first and other else None,
        "forfeits": sum(
            1 for record in records if record["forfeit"] and record["forfeit"]["entrant"] == label
        ),
    }


@dataclass
class TournamentResult:
    """A finished tournament: every game, and the per-entrant and per-seat summaries.

    ``summary`` holds one dict per entrant (columns of ``summary.csv``): ``games`` counts the
    games it sat in, ``seat_games`` the sides it held in them (the count behind its rates: an
    entrant holding two seats of a game plays two seat-games), ``win_rate`` per side held,
    with its Wilson interval (``win_low``, ``win_high``) and its ``fair_share`` (the win
    rate of an entrant as strong as the others: 1 / the number of sides, How to Rob a Bank's
    bank and robbers being two), ``mean_reward`` and ``mean_score`` with normal intervals,
    the OpenSkill ``mu``, ``sigma``
    and ``ordinal`` (mu - 3 sigma), its win rate in the first seat (the side holding seat 0)
    and elsewhere, their difference ``first_seat_advantage``, and its ``forfeits``.
    ``seats`` holds each side's win rate whoever held it; ``first_seat_advantage`` is the
    first side's win rate minus the mean over sides. A tournament stopped by Ctrl-C is
    :attr:`partial`: ``games`` holds those finished of its ``planned_games``, and the seat
    rotations may not be complete.
    """

    game: str
    num_players: int
    seed: int
    agents: list[str]
    side_agents: list[list[str]]
    games: list[dict]
    summary: list[dict]
    seats: list[dict]
    first_seat_advantage: float | None
    planned_games: int

    @property
    def partial(self) -> bool:
        return len(self.games) < self.planned_games

    @cached_property
    def seat_of(self) -> dict[str, int]:
        """Each agent name's seat index, from the sides' agents in order."""
        return {name: k for k, name in enumerate(sum(self.side_agents, []))}

    def held_seats(self, record, index, side=None) -> list[int]:
        """The seats of the sides entrant ``index`` held in a game (only ``side``, if given)."""
        return [
            self.seat_of[name]
            for s in held_sides(record, index, side)
            for name in self.side_agents[s]
        ]

    def decisions_per_second(self, index, side=None) -> float | None:
        """Entrant ``index``'s decisions a second over the sides it held (only ``side``, if
        given): the median over its games of its decisions over the CPU time its ``act`` calls
        took in that game, so that compiling once per process (search agents) does not count
        and other processes on the cores hardly do. None where no game timed it. Not in the
        summary, which the same seeds must reproduce."""
        rates = []
        for record in self.games:
            seats = self.held_seats(record, index, side)
            made = sum(record["seat_decisions"][k] for k in seats)
            seconds = sum(record["act_cpu_seconds"][k] for k in seats)
            if made and seconds > 0:
                rates.append(made / seconds)
        return statistics.median(rates) if rates else None

    @classmethod
    def build(cls, game, num_players, seed, entrants, sides, records, planned_games=None):
        labels = [e.label for e in entrants]
        for record in records:
            record["outcomes"] = side_outcomes(record, sides)
        ratings = rate(labels, records)
        summary = [
            entrant_summary(index, label, records, ratings[label], len(sides))
            for index, label in enumerate(labels)
        ]
        names = game.agent_names(num_players)
        seats = []
        for side, seat_list in enumerate(sides):
            wins = sum(record["outcomes"][side].won for record in records)
            seats.append(
                {
                    "seat": side,
                    "agents": [names[k] for k in seat_list],
                    "games": len(records),
                    "wins": wins,
                    **rate_summary(wins, len(records)),
                }
            )
        advantage = None
        if records:
            advantage = seats[0]["win_rate"] - float(np.mean([s["win_rate"] for s in seats]))
        return cls(
            game=game.name,
            num_players=num_players,
            seed=seed,
            agents=labels,
            side_agents=[[names[k] for k in seat_list] for seat_list in sides],
            games=records,
            summary=summary,
            seats=seats,
            first_seat_advantage=advantage,
            planned_games=len(records) if planned_games is None else planned_games,
        )

    @property
    def forfeits(self) -> list[dict]:
        """The forfeited games: game index, offending entrant, seat, decision, reason, detail."""
        return [{"game": r["game"], **r["forfeit"]} for r in self.games if r["forfeit"]]

    def to_dict(self) -> dict:
        """The tournament as JSON-compatible data, the same for the same seed: without the
        times of the agents' decisions and their own counts (in ``games``), which vary from
        run to run."""
        left_out = ("outcomes", "act_cpu_seconds", "agent_stats")
        games = [{k: v for k, v in r.items() if k not in left_out} for r in self.games]
        return {
            "game": self.game,
            "num_players": self.num_players,
            "seed": self.seed,
            "agents": self.agents,
            "sides": self.side_agents,
            "summary": self.summary,
            "seats": self.seats,
            "first_seat_advantage": self.first_seat_advantage,
            "planned_games": self.planned_games,
            "partial": self.partial,
            "forfeits": self.forfeits,
            "games": games,
        }

    def summary_csv(self) -> str:
        return _csv(self.summary)

    def games_csv(self) -> str:
        rows = []
        for r in self.games:
            row = {"game": r["game"], "seed": r["seed"], "truncated": r["truncated"]}
            row["decisions"] = r["decisions"]
            forfeit = r["forfeit"]
            row["forfeit"] = (
                f"{forfeit['entrant']} (seat {forfeit['seat']}, decision {forfeit['decision']}): "
                f"{forfeit['reason']}: {forfeit['detail']}"
                if forfeit
                else ""
            )
            for k, label in enumerate(r["agents"]):
                row[f"seat{k}_agent"] = label
                row[f"seat{k}_reward"] = r["rewards"][k]
                row[f"seat{k}_score"] = r["scores"][k]
            rows.append(row)
        return _csv(rows)

    def write(self, out_dir) -> list[Path]:
        """Write ``summary.csv``, ``games.csv`` and ``tournament.json`` into ``out_dir``."""
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        files = {
            "summary.csv": self.summary_csv(),
            "games.csv": self.games_csv(),
            "tournament.json": json.dumps(self.to_dict(), indent=1) + "\n",
        }
        for name, text in files.items():
            (out / name).write_text(text)
        return [out / name for name in files]

    def table(self) -> str:
        """The summary as text: one line per entrant (with its fair share: the win rate of an
        entrant as strong as the others), then the seats and any forfeits."""
        columns = [
            ("agent", f"<{max(12, *(len(label) for label in self.agents))}"),
            ("games", ">5"),
            ("seat-games", ">10"),
            ("win rate [95% CI]", "<20"),
            ("fair share", ">10"),
            ("mean reward [95% CI]", "<23"),
            ("score", ">7"),
            ("rating mu ± sigma", "<17"),
            ("1st-seat adv", ">12"),
            ("decisions/s", ">11"),
        ]

        def row(values):
            return "  ".join(f"{v:{fmt}}" for v, (_, fmt) in zip(values, columns, strict=True))

        played = f"{len(self.games)} games"
        if self.partial:
            played = (
                f"{len(self.games)} of {self.planned_games} games, partial: interrupted, the seat "
                "rotations not all complete"
            )
        lines = [f"{self.game}, {self.num_players} players, {played} (seed {self.seed})"]
        if not self.games:
            return "\n".join(lines)
        lines.append(row([name for name, _ in columns]))
        for index, s in enumerate(self.summary):
            advantage = s["first_seat_advantage"]
            rate = self.decisions_per_second(index)
            values = [
                s["agent"],
                s["games"],
                s["seat_games"],
                interval_text(s["win_rate"], s["win_low"], s["win_high"]),
                f"{s['fair_share']:.3f}",
                interval_text(s["mean_reward"], s["reward_low"], s["reward_high"], "+.3f"),
                "" if s["mean_score"] is None else f"{s['mean_score']:.1f}",
                f"{s['mu']:6.2f} ± {s['sigma']:5.2f}",
                "" if advantage is None else f"{advantage:+.3f}",
                "" if rate is None else f"{rate:,.0f}",
            ]
            lines.append(row(values))
        seats = ", ".join(
            f"{'+'.join(s['agents'])} {interval_text(s['win_rate'], s['win_low'], s['win_high'])}"
            for s in self.seats
        )
        lines.append(f"win rate by seat: {seats}")
        lines.append(f"first-seat advantage: {self.first_seat_advantage:+.3f}")
        for f in self.forfeits:
            lines.append(
                f"forfeit: game {f['game']}, {f['entrant']} as {f['agent']}, decision "
                f"{f['decision']}: {f['reason']}: {f['detail']}"
            )
        return "\n".join(lines)


def _csv(rows) -> str:
    text = io.StringIO()
    writer = csv.DictWriter(text, fieldnames=list(rows[0]) if rows else [], lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return text.getvalue()
