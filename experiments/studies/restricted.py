"""How much is a mechanic worth? Restricted play (Jaffe et al., AIIDE 2012) in one call.

:func:`restricted_play` plays an agent that may not use some actions
(:class:`agents.restricted.RestrictedAgent`) against the same agent unrestricted, in an arena
tournament (every seat rotation, a seed per game), and reports both win rates with 95% Wilson
intervals, overall and, in a game of two sides, per side. The drop in win rate is what the
forbidden actions are worth to that agent; its 95% interval resamples whole games
(:func:`agents.stats.paired_difference_interval`), since both agents sit at every table and
one's win is the other's loss.

    result = restricted_play(game_name, forbid=[action_kind], games=400)
    print(result.table())

Rules that depend on the position read the observation (``rule(observation) -> ids``); a
game's own are module-level classes in ``agents/<game>/restrictions.py`` (so that arena
worker processes can build them), e.g. ``MaxReveals`` in Les Toits de Paris.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
import pandas as pd

import heist_envs
from agents.arena import Entrant, TournamentResult, parse_entrant, tournament
from agents.restricted import forbidden_ids, make_restricted
from agents.stats import paired_difference_interval, wilson_interval

RESTRICTED = "restricted"


@dataclass
class RestrictedPlayResult:
    """A restricted-play study: ``rows`` holds, per agent (``restricted`` and the unrestricted
    one) and side (``all`` first), the games, wins and win rate with its Wilson interval."""

    game: str
    num_players: int
    restriction: str
    rows: list[dict]
    tournament: TournamentResult

    @property
    def frame(self) -> pd.DataFrame:
        return pd.DataFrame(self.rows)

    def win_rate(self, agent=RESTRICTED, side="all") -> float:
        for row in self.rows:
            if row["agent"] == agent and row["side"] == side:
                return row["win_rate"]
        raise ValueError(f"no result for agent {agent!r} on side {side!r}")

    @property
    def effect(self) -> float:
        """The restricted agent's win rate minus the unrestricted one's (all sides)."""
        return self.win_rate() - self.win_rate(self.tournament.agents[1])

    @property
    def effects(self) -> pd.DataFrame:
        """Per side (``all`` first): the effect of the restriction on the win rate, with its
        95% interval from a bootstrap over the games."""
        sides = self.frame.loc[self.frame["agent"] == RESTRICTED, "side"].tolist()
        rows = []
        for k in range(len(sides)):  # all, then each side of a two-sided game
            effect, low, high = win_rate_difference(self.tournament, side=None if k == 0 else k - 1)
            rows.append({"effect": effect, "effect_low": low, "effect_high": high})
        return pd.DataFrame(rows, index=pd.Index(sides, name="side"))

    def table(self) -> str:
        lines = [
            f"{self.game}, {self.num_players} players, {len(self.tournament.games)} games: "
            f"{self.restriction}"
        ]
        for r in self.rows:
            lines.append(
                f"  {r['agent']:<12} {r['side']:<36} {r['games']:>5} seat-games  win rate "
                f"{r['win_rate']:.3f} [{r['win_low']:.3f}, {r['win_high']:.3f}]"
            )
        for side, row in self.effects.iterrows():
            lines.append(
                f"  effect of the restriction on the win rate ({side}): {row['effect']:+.3f} "
                f"[{row['effect_low']:+.3f}, {row['effect_high']:+.3f}]"
            )
        return "\n".join(lines)


def restricted_play(
    game_name,
    forbid=(),
    rule=None,
    agent="heuristic",
    games=200,
    num_players=None,
    seed=0,
    workers=None,
    progress=True,
) -> RestrictedPlayResult:
    """Play ``agent`` restricted by ``forbid`` (action ids, kind names) and/or ``rule``
    against ``agent`` unrestricted for ``games`` games (rounded up to whole seat rotations)."""
    game = heist_envs.get_game(game_name)
    if forbid or rule is None:
        forbidden_ids(game.name, forbid)  # a clear error here, not in a worker
    plain = parse_entrant(agent)
    factory = functools.partial(make_restricted, agent=agent, forbid=forbid, rule=rule)
    result = tournament(
        game.name,
        [Entrant(RESTRICTED, factory), plain],
        games=games,
        num_players=num_players,
        seed=seed,
        workers=workers,
        progress=progress,
    )
    items = [forbid] if isinstance(forbid, (str, int)) else list(forbid)
    restriction = "forbid " + ", ".join([str(f) for f in items] + ([str(rule)] if rule else []))
    rows = side_rows(result)
    return RestrictedPlayResult(game.name, result.num_players, restriction, rows, result)


def side_rows(result: TournamentResult) -> list[dict]:
    """Win rates per entrant, over all sides and then per side (in team games)."""
    sides = [None]
    if len(result.side_agents) == 2:  # team games: what each side's holder won
        sides += [0, 1]
    rows = []
    for index, label in enumerate(result.agents):
        for side in sides:
            won, held_seats = (int(x.sum()) for x in held(result, index, side))
            low, high = wilson_interval(won, held_seats)
            rows.append(
                {
                    "agent": label,
                    "side": "all" if side is None else "+".join(result.side_agents[side]),
                    "games": held_seats,
                    "wins": won,
                    "win_rate": won / held_seats if held_seats else float("nan"),
                    "win_low": low,
                    "win_high": high,
                }
            )
    return rows


def win_rate_difference(result: TournamentResult, a=0, b=1, side=None):
    """Entrant ``a``'s win rate minus entrant ``b``'s (on side ``side`` only, if given) in one
    tournament, and the 95% interval of that difference: (difference, low, high)."""
    wins_a, seats_a = held(result, a, side)
    wins_b, seats_b = held(result, b, side)
    difference = wins_a.sum() / seats_a.sum() - wins_b.sum() / seats_b.sum()
    return (difference, *paired_difference_interval(wins_a, seats_a, wins_b, seats_b))


def held(result: TournamentResult, entrant: int, side: int | None = None):
    """Per game: the seats ``entrant`` won and the seats it held (on ``side`` only, if given)."""
    seats = np.array(
        [
            [e == entrant and side in (None, k) for k, e in enumerate(record["seating"])]
            for record in result.games
        ]
    )
    won = np.array([[outcome.won for outcome in record["outcomes"]] for record in result.games])
    return (seats & won).sum(axis=1), seats.sum(axis=1)
