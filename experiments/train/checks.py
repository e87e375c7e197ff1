"""The checks every trainer's flags pass before anything is built or trained: a bad value stops
the command with one line that names the flag and what it may be.

:class:`Parser` is argparse with one-line errors; :func:`check_least` checks whole numbers
(steps, batch sizes, games, counts) against a table of least values, :func:`check_learning_rate`
and :func:`check_share` check rates; :func:`parse_stages` reads an ``--opponents`` list of
training stages and :func:`check_opponents` builds their pools once, so that an unknown agent
or a policy for another game or player count is refused at once. ``--init`` and ``--side``
have :func:`check_init` and :func:`learner_sides`. The sb3, imitation, weights and rllib
trainers call them, and so can any other.
"""

from __future__ import annotations

import argparse

from agents.registry import agent_names, split_specs


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line, ``PROG: error: MESSAGE`` (``--help``
    shows the usage)."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message}\n")


def flag(dest) -> str:
    """The command-line name of the argparse destination ``dest``."""
    return "--" + dest.replace("_", "-")


def check_least(args, least: dict[str, int]):
    """A ValueError for the first flag of ``least`` (``{dest: least value}``) given below its
    least value (a flag left at None is not checked)."""
    for dest, low in least.items():
        value = getattr(args, dest)
        if value is not None and value < low:
            raise ValueError(f"{flag(dest)} must be at least {low}, got {value}")


def check_learning_rate(dest, value):
    """A ValueError unless ``value`` is a learning rate: above 0 and at most 1."""
    if not 0 < value <= 1:  # NaN fails too
        raise ValueError(
            f"{flag(dest)} must be above 0 and at most 1 (Adam's step size, e.g. 3e-4), "
            f"got {value:g}"
        )


def check_share(dest, value):
    """A ValueError unless ``value`` is between 0 and 1."""
    if not 0 <= value <= 1:
        raise ValueError(f"{flag(dest)} must be between 0 and 1, got {value:g}")


# Training stages -------------------------------------------------------------------------------


def parse_stages(specs, timesteps):
    """``[(opponent specs, timesteps)]`` from ``POOL[:STEPS]`` items; an item without
    ``:STEPS`` gets ``timesteps``. ``POOL`` is comma-separated agent specs
    (:func:`agents.registry.split_specs`) and ``self``; ``STEPS`` a whole number of at least 1."""
    stages = []
    for spec in specs:
        pool, steps = split_steps(spec)
        try:
            count = int(steps) if steps else timesteps
        except ValueError:
            count = 0
        if count < 1:
            raise ValueError(
                f"--opponents {spec!r}: STEPS must be a whole number of at least 1 (POOL:STEPS, "
                "e.g. random:50000)"
            )
        stages.append((split_specs(pool), count))
    return stages


def split_steps(spec) -> tuple[str, str | None]:
    """``POOL[:STEPS]`` as (POOL, STEPS or None). The part after the last colon is STEPS
    unless it belongs to the last agent's spec: its parameters (``heuristic:weights=tuned``)
    or the class of a module or file agent (``package.module:Name``, ``file.py:Name``)."""
    pool, colon, steps = spec.rpartition(":")
    if not colon or "=" in steps:
        return spec, None
    last = split_specs(pool)[-1]
    names_a_class = ":" not in last and last not in ("self", *agent_names())
    if steps.isidentifier() and names_a_class:
        return spec, None
    return pool, steps


def check_opponents(stages, eval_opponents, game_name, seed, num_players):
    """Build every stage's pool (``self`` aside) and the evaluations' opponents once, so that
    a bad spec (an unknown agent, a weights file that cannot be read, a policy for another game
    or player count) stops the run before anything trains; the ValueError names the spec and
    what is wrong."""
    from experiments.train.evaluate import make_opponents

    for names, _ in stages:
        agents = [name for name in names if name != "self"]
        if agents:
            try:
                make_opponents(",".join(agents), game_name, seed, num_players)
            except ValueError as error:
                raise ValueError(f"--opponents {','.join(names)}: {error}") from None
    try:
        make_opponents(eval_opponents, game_name, num_players=num_players)
    except ValueError as error:
        raise ValueError(f"--eval-opponents {eval_opponents}: {error}") from None


# Starting points and sides ---------------------------------------------------------------------


def check_init(path, game_name) -> dict:
    """The metadata of checkpoint ``path`` to start training ``game_name`` from, at any player
    count (the observation size is fixed); a ValueError says what is wrong with it."""
    from agents.ppo import checkpoint_info

    try:
        info = checkpoint_info(path)
    except ValueError as error:
        raise ValueError(f"--init {path}: {error}") from None
    if info["game"] != game_name:
        raise ValueError(f"--init {path} is a {info['game']} policy, not a {game_name} one")
    return info


def learner_sides(game, side) -> list[int] | None:
    """The side indices the learner plays: every side for no ``--side``, else the one it
    names; a ValueError lists the sides the game has."""
    if side is None:
        return None
    if side not in game.side_names:
        sides = ", ".join(game.side_names) or "none (every seat plays the same role)"
        raise ValueError(f"--side {side}: {game.name} has the sides {sides}")
    return [game.side_names.index(side)]
