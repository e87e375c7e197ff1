"""Helpers the tools and trainers share: seeds and seated agents, compiling before the first
game, figures and text of tournament tables, CSV files and learning-curve plots."""

from __future__ import annotations

import csv
import io
import os
import time
from pathlib import Path

import numpy as np
from numba.core import event

import heist_envs
from agents import RandomAgent
from agents.arena import TournamentResult, agent_seed, parse_entrant, play
from agents.arena.results import held_sides
from agents.registry import AgentBuildError, error_text
from agents.stats import Z95, wilson_interval

PROJECT = Path(__file__).resolve().parents[1]
#: the help of --trust-agents (heist arena, heist leaderboard)
TRUST_AGENTS = (
    "play outside agents (files, modules, installed packages) in the game's process, where "
    "they could read the whole game, instead of in processes of their own that are sent only "
    "their seat's observations: for agents you trust (no extra processes)"
)


class Interrupted(KeyboardInterrupt):
    """Ctrl-C, after the tool kept what it had done: the message says what and where (the
    ``heist`` command prints it as its one line and exits with 130); ``kept``, where given,
    is what it kept (a partial card, a partial result), for a caller in Python."""

    def __init__(self, message="", kept=None):
        super().__init__(message)
        self.kept = kept


def run_iterations(count, log, fields, iterate, keep, finish, kept_what, plot):
    """An iterating trainer's loop: ``iterate(i)`` -> (its ``log`` row, its result, the line
    to print); ``keep(i, result)`` saves iteration i's checkpoint and returns its path, before
    its row is logged, so that a logged iteration is kept; after the last, ``finish(result)``,
    whose value this returns. Ctrl-C raises :class:`Interrupted` saying that ``kept_what`` was
    kept after the last iteration logged, and where the curve ``plot()`` drew is."""
    kept = result = None  # the last iteration kept, and its result
    try:
        with open(log, "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=fields)
            writer.writeheader()
            for i in range(count):
                row, result, report = iterate(i)
                kept = i, keep(i, result)
                writer.writerow(row)
                f.flush()
                print(report, flush=True)
        return finish(result)
    except KeyboardInterrupt:
        if kept is None:
            raise Interrupted("no iteration had finished, nothing kept") from None
        raise Interrupted(
            f"kept {kept_what} after iteration {kept[0]} in {kept[1]}, and the learning curve "
            f"of its {kept[0] + 1} iterations in {log} and {plot()}"
        ) from None


# Seeds and seats -------------------------------------------------------------------------------


def fresh_seed() -> int:
    """A random seed short enough to type back in."""
    return int(np.random.default_rng().integers(1 << 31))


def agents_from_specs(game, num_players, specs, seed, seats=None) -> dict:
    """Agents built from agent specs (``name`` or ``name:key=value,...``) for the sides that
    hold ``seats`` (default: every side): one spec per side, or one for all. Returns
    ``{seat: (agent, label)}``."""
    sides = [s for s in game.side_seats(num_players) if seats is None or s[0] in seats]
    entrants = [parse_entrant(text) for text in specs]
    if len(entrants) == 1:
        entrants *= len(sides)
    if len(entrants) != len(sides):
        raise ValueError(
            f"{game.name} with {num_players} players has {len(sides)} "
            f"{'sides' if seats is None else 'other sides'}; give one agent for each, or one "
            f"for all, got {len(specs)}"
        )
    return {
        k: (entrant.build(game.name, agent_seed(seed, k), num_players), entrant.label)
        for entrant, side in zip(entrants, sides, strict=True)
        for k in side
    }


def show_outcome(env_names, result, show=print):
    """Print how a game ended: every seat's reward and results, then the winners."""
    show(f"\nGame {'truncated' if result.truncated else 'finished'}.")
    for name, reward, details in zip(env_names, result.rewards, result.results, strict=True):
        extra = ", ".join(f"{k} {v}" for k, v in details.items())
        show(f"  {name}: reward {reward:+g}" + (f" ({extra})" if extra else ""))
    best = max(result.rewards)
    winners = [n for n, r in zip(env_names, result.rewards, strict=True) if r == best and r > 0]
    show(f"Winner: {', '.join(winners) if winners else 'nobody'}")


# Compiling before the first game ---------------------------------------------------------------


class CompileNotice(event.Listener):
    """Calls ``tell`` once, when numba starts compiling a function it caches: a cache miss,
    as on the first use after installing. Loading from the cache compiles nothing, and the
    small uncached wrappers compiled in every process (heist_envs.core.compiled) are quick."""

    def __init__(self, tell):
        self.tell = tell
        self.told = False

    def on_start(self, ev):
        if not self.told and ev.data["dispatcher"].stats.cache_path is not None:
            self.told = True
            self.tell()

    def on_end(self, ev):
        pass


def warm_up(game_name, num_players=None, show=print):
    """Compile ``game_name``'s kernels before the first game, telling the user when numba
    compiles them (the first use after installing; later runs load them from its cache)."""
    game = heist_envs.get_game(game_name)
    started = time.perf_counter()
    notice = CompileNotice(
        lambda: show(
            f"Compiling {game.title}'s rules (first use after installing: 10-30 s; later runs "
            "load them from numba's cache)..."
        )
    )
    with event.install_listener("numba:compile", notice):
        seats = game.num_seats(game.check_players(num_players))
        agents = [RandomAgent(k) for k in range(seats)]
        play(game.name, agents, num_players, seed=0, on_step=render_every_view)
    if notice.told:
        show(f"Compiled in {time.perf_counter() - started:.0f} s.")


def render_every_view(env, agent, action):
    """Draw the table as the spectator and as the actor (the views the commands print)."""
    env.game.render(env.state_record)
    if agent is not None:
        env.game.render(env.state_record, env.possible_agents.index(agent))


# Figures of a tournament table -----------------------------------------------------------------


def builds(entrant, game, num_players) -> str | None:
    """None if ``entrant`` can play ``game`` at ``num_players``, else why not (paths inside
    the project relative to it, so that the report reads the same on every machine)."""
    try:
        entrant.check(game.name, num_players)
    except AgentBuildError as error:  # an outside agent's own code failed
        return f"{error.call} raised {error.reason}"
    except (TypeError, ValueError) as error:
        return str(error).replace(f"{PROJECT}{os.sep}", "")
    except Exception as error:  # a factory's own code failed
        return f"building it raised {error_text(error)}"
    return None


def agent_figures(result: TournamentResult, index, side=None) -> dict:
    """Games, wins and win rate (Wilson interval), decisions and decisions per second of
    entrant ``index`` over the sides it held (only ``side``, if given).

    Decisions per second: :meth:`~agents.arena.TournamentResult.decisions_per_second`."""
    games = wins = decisions = 0
    for record in result.games:
        held = held_sides(record, index, side)
        games += len(held)
        wins += sum(record["outcomes"][s].won for s in held)
        decisions += sum(
            record["seat_decisions"][k] for k in result.held_seats(record, index, side)
        )
    low, high = wilson_interval(wins, games)
    return {
        "games": games,
        "wins": wins,
        "win_rate": wins / games if games else None,
        "win_low": low,
        "win_high": high,
        "decisions": decisions,
        "decisions_per_second": result.decisions_per_second(index, side),
    }


def rating_figures(rating=None) -> dict:
    """An OpenSkill rating's mu, sigma, 95% interval and ordinal (all None without one)."""
    if rating is None:
        return dict.fromkeys(["mu", "sigma", "rating_low", "rating_high", "ordinal"])
    half = Z95 * rating["sigma"]
    return {
        "mu": rating["mu"],
        "sigma": rating["sigma"],
        "rating_low": rating["mu"] - half,
        "rating_high": rating["mu"] + half,
        "ordinal": rating["ordinal"],
    }


# Text of reports -------------------------------------------------------------------------------


def rate_text(row) -> str:
    rate = row["decisions_per_second"]
    return "" if rate is None else f"{rate:,.0f}"


def duration(seconds) -> str:
    return f"{seconds:.0f} s" if seconds < 120 else f"{seconds / 60:.0f} min"


def markdown_table(header, rows) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(v) for v in row) + " |" for row in rows]
    return lines


# CSV files -------------------------------------------------------------------------------------


def write_csv(path, rows):
    """Write ``rows`` (dicts with the same keys) to the CSV file ``path``, header first."""
    text = io.StringIO()
    writer = csv.DictWriter(text, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    Path(path).write_text(text.getvalue())


def append_csv(path, row):
    """Add ``row`` (a dict) to the CSV log ``path``, writing the header first in a new one."""
    new = not path.exists()
    with path.open("a", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(row))
        if new:
            writer.writeheader()
        writer.writerow(row)


# Plots -----------------------------------------------------------------------------------------


def read_csv(path) -> list[dict]:
    with Path(path).open() as f:
        return list(csv.DictReader(f))


def plot_win_rate(ax, steps, rate, low, high, label):
    """A win-rate curve with its 95% interval as a band, on a 0..1 axis."""
    ax.plot(steps, rate, marker="o", label=label)
    ax.fill_between(steps, low, high, alpha=0.25, label="95% interval")
    ax.set_ylabel("win rate")
    ax.set_ylim(0, 1)
    ax.legend(loc="lower right")


def plot_learning_curve(
    log, path, title, opponents, x_column, x_label, bounds=("ci_low", "ci_high"), rewards=None
):
    """A PNG of the win rate against ``opponents`` logged in the CSV ``log`` (its
    ``win_rate`` column and the interval's ``bounds`` columns) over its ``x_column``.

    ``rewards`` (a CSV log with the same ``x_column``, and {label: column}) adds a panel
    above of those columns: the learning side's reward against each kind of opponent."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = read_csv(log)
    if rewards is None:
        fig, ax = plt.subplots(figsize=(6, 3.5))
        ax.set_title(title)
    else:
        fig, (top, ax) = plt.subplots(2, 1, figsize=(6, 6), sharex=True)
        reward_log, columns = rewards
        reward_rows = read_csv(reward_log)
        steps = [int(r[x_column]) for r in reward_rows]
        for label, column in columns.items():
            top.plot(steps, [float(r[column]) for r in reward_rows], label=label)
        top.set_ylabel("learning side's reward")
        top.legend(loc="lower right")
        top.set_title(title)
    low, high = bounds
    plot_win_rate(
        ax,
        [int(r[x_column]) for r in rows],
        [float(r["win_rate"]) for r in rows],
        [float(r[low]) for r in rows],
        [float(r[high]) for r in rows],
        f"win rate vs {opponents}",
    )
    ax.set_xlabel(x_label)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
