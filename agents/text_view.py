"""A seat's decision as text, for players that read (language models), for every game.

The text is a function of the seat's observation and action mask alone, so it holds only
what the seat may know (the observation's own hidden-information guarantee carries over):

- :func:`observation_text`: the observation part by part, as the game's ``LAYOUT`` names
  the parts (a short part in full, a long one as its nonzero entries);
- :func:`moves_text`: the legal moves, each by id and by name (``Game.action_name`` without
  a state: the game's action table);
- :func:`rules_summary`: the "How to play" section of the game's page
  (``docs/games/<game>.md``, carried by the package through the ``rules`` link beside this
  module), without the part that teaches the text render, which the text view is not.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from heist_envs.core.game import Game

#: the games' pages (a link to docs/games, package data of the wheel)
RULES_PAGES = Path(__file__).parent / "rules"
#: the page's section that teaches the game, and its subsection that teaches the text render
HOW_TO_PLAY = "## How to play"
READING_THE_RENDER = "### Reading the text render"
#: a part of up to this many values is written in full; a longer one by its nonzero entries
FULL_PART = 12


def rules_summary(game: Game) -> str:
    """How to play ``game``, from its page; the game's description where it has no page."""
    page = RULES_PAGES / f"{game.name}.md"
    if not page.is_file():
        return " ".join(game.description.split())
    text = page.read_text()
    start = text.index(HOW_TO_PLAY)
    end = text.find("\n## ", start + len(HOW_TO_PLAY))
    section = text[start : end if end >= 0 else len(text)]
    return section.split(READING_THE_RENDER)[0].strip()


def number(value) -> str:
    """An observation value as text: an integer without a decimal point."""
    value = float(value)
    return str(int(value)) if value.is_integer() else f"{value:.4g}"


def part_text(values: np.ndarray) -> str:
    """One part of an observation: a single value, the list of a short part, or the nonzero
    entries (``index=value``) of a long one."""
    if len(values) == 1:
        return number(values[0])
    if len(values) <= FULL_PART:
        return "[" + ", ".join(number(v) for v in values) + "]"
    nonzero = np.flatnonzero(values)
    if not len(nonzero):
        return f"{len(values)} values, all 0"
    entries = ", ".join(f"{i}={number(values[i])}" for i in nonzero)
    return f"{len(values)} values, the nonzero ones (index=value): {entries}"


def observation_text(game: Game, observation) -> str:
    """The seat's observation, a line per part of the game's layout."""
    observation = np.asarray(observation)
    if observation.shape != (game.obs_size,):
        raise ValueError(
            f"{game.name}: an observation holds {game.obs_size} values, got shape "
            f"{observation.shape}"
        )
    return "\n".join(
        f"{name}: {part_text(observation[part])}" for name, part in game.layout.items()
    )


def legal_moves(game: Game, action_mask) -> list[tuple[int, str]]:
    """The legal moves of ``action_mask`` as (id, name) pairs, in id order."""
    return [(int(a), game.action_name(int(a))) for a in np.flatnonzero(action_mask)]


def moves_text(game: Game, action_mask) -> str:
    """The legal moves, a line each: ``id: name``."""
    return "\n".join(f"{a}: {name}" for a, name in legal_moves(game, action_mask))


def decision_text(game: Game, observation, action_mask) -> str:
    """What a seat sees when it decides: its observation, then its legal moves."""
    return (
        f"Your observation ({game.title}; part: values):\n"
        f"{observation_text(game, observation)}\n\n"
        f"Your legal moves (id: name):\n{moves_text(game, action_mask)}"
    )
