"""A seat's decision as text, for players that read (language models) and people, for every
game.

The text is a function of the seat's observation and action mask alone, so it holds only
what the seat may know (the observation's own hidden-information guarantee carries over):

- :func:`observation_text`: the observation part by part, as the game's legend
  (``Game.obs_legend``, :class:`heist_envs.core.layout.Legend`) reads it: the entries by
  their labels (card names, token kinds, rooms), the seats by name, one-hot parts by the
  value they name (``your hand: Number 0 ×3, Number 3, Boss``; ``phase: play a card``); a
  game without a legend gets its ``LAYOUT`` parts as values;
- :func:`moves_text`: the legal moves, each by id and by name (``Game.action_name`` without
  a state: the game's action table);
- :func:`rules_summary`: the "How to play" section of the game's page
  (``docs/games/<game>.md``, carried by the package through the ``rules`` link beside this
  module), without the part that teaches the text render, which the text view is not.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np

from heist_envs.core.game import Game
from heist_envs.core.layout import CODE, COUNT, FLAG, NUMBER, ONE_HOT, ROWS, Legend, Part

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
    value = round(float(value), 4)
    return str(int(value)) if value.is_integer() else f"{value:.4g}"


def part_text(values: np.ndarray) -> str:
    """A part of a game without a legend: a single value, the list of a short part, or the
    nonzero entries (``index=value``) of a long one."""
    if len(values) == 1:
        return number(values[0])
    if len(values) <= FULL_PART:
        return "[" + ", ".join(number(v) for v in values) + "]"
    nonzero = np.flatnonzero(values)
    if not len(nonzero):
        return f"{len(values)} values, all 0"
    entries = ", ".join(f"{i}={number(values[i])}" for i in nonzero)
    return f"{len(values)} values, the nonzero ones (index=value): {entries}"


def hot(values: np.ndarray) -> int | None:
    """The index of the entry a one-hot vector sets; None when none is set."""
    nonzero = np.flatnonzero(values)
    return int(nonzero[0]) if len(nonzero) else None


def tally(counts: list[tuple[str, int]]) -> str:
    """Counted labels, equal labels added up, in first-seen order: ``Number 0 ×3, Boss``."""
    total: Counter = Counter()
    for label, k in counts:
        total[label] += k
    return ", ".join(label if k == 1 else f"{label} ×{k}" for label, k in total.items() if k)


class PartReader:
    """The text of one observation's parts, as its game's legend reads them."""

    def __init__(self, game: Game, observation: np.ndarray):
        self.game, self.legend, self.observation = game, game.obs_legend, observation
        entry = hot(self.values(self.legend.players))
        if entry is None:
            raise ValueError(f"{game.name}: the observation's {self.legend.players} names no count")
        players = int(self.legend.axes(self.legend.players, [])[0][entry])
        self.seat_names = self.legend.seat_names(game.agent_names(players))

    def values(self, name: str) -> np.ndarray:
        return self.observation[self.game.layout[name]]

    def lines(self, name: str) -> list[str]:
        """Part ``name`` as ``title: text``, or as a title line and an indented line per group
        that has something to say (a seat, a room, a holder of tokens)."""
        part = self.legend.parts[name]
        axes = self.legend.axes(name, self.seat_names)
        values = self.values(name)
        if part.kind == FLAG:
            return [f"{part.title}: {'yes' if values[0] else 'no'}"]
        if part.kind == NUMBER and not axes:
            return [f"{part.title}: {number(values[0] * part.scale)}"]
        cells = self.cells(part, axes, values)
        if part.kind == ONE_HOT and len(axes) == 1:
            return [f"{part.title}: {cells[0][1] if cells else 'none'}"]
        if part.kind in (COUNT, NUMBER) and len(axes) == 1:
            return [f"{part.title}: {self.items(part, cells) or 'none'}"]
        groups: dict = {}
        for labels, value in cells:
            if part.by_value:
                groups.setdefault(value, []).append(labels[0])
            else:
                groups.setdefault(labels[0], []).append((labels[1:], value))
        if part.by_value:  # in the order of the values
            groups = {value: groups[value] for value in axes[-1] if value in groups}
        if not groups:
            return [f"{part.title}: none"]
        return [
            f"{part.title}:",
            *(f"  {label}: {self.items(part, entries)}" for label, entries in groups.items()),
        ]

    def value_labels(self, part: Part, labels, row: int) -> list:
        """The labels of the part's last axis; a ``labels_by`` part's are those of the seat
        that applies: the row's own, or the seat a one-hot part names."""
        if part.labels_by is None:
            return labels
        seat = row if part.labels_by == ROWS else hot(self.values(part.labels_by))
        return labels[seat or 0]

    def cells(self, part: Part, axes: list, values: np.ndarray) -> list[tuple[tuple, object]]:
        """The part's entries that have something to say, in order, each as (its labels on
        the axes that hold entries, its value): a count or a quantity, or the label of the
        value a one-hot or code entry names. Entries with a ``None`` label (a seat not in the
        game, a value that needs no word) and zero counts are left out."""
        width = len(axes[-1][0]) if part.labels_by else len(axes[-1])
        grid = values.reshape([len(axis) for axis in axes[:-1]] + [width])
        entry_axes = axes[:-1] if part.kind == ONE_HOT else axes
        result = []
        for index in np.ndindex(grid.shape[: len(entry_axes)]):
            last = self.value_labels(part, axes[-1], index[0] if index else 0)
            if part.kind == ONE_HOT:
                labels = [axis[i] for axis, i in zip(entry_axes, index, strict=True)]
                entry = hot(grid[index])
                value = None if entry is None else last[entry]
            else:
                labels = [axis[i] for axis, i in zip(axes[:-1], index, strict=False)]
                labels.append(last[index[-1]])
                value = part.values[int(grid[index])] if part.kind == CODE else grid[index]
            if None in labels or value is None or (part.kind == COUNT and value == 0):
                continue
            result.append((tuple(labels), value))
        return result

    def items(self, part: Part, entries: list) -> str:
        """Entries on one line: ``label ×k`` for counts, ``label value`` for quantities, the
        values that one-hot or code entries name (a stack's cards, in order), the entries a
        ``by_value`` part holds under one value."""
        if part.by_value:
            return ", ".join(entries)
        if part.kind == COUNT:
            return tally([(labels[-1], int(k)) for labels, k in entries])
        if part.kind == NUMBER:
            return ", ".join(f"{labels[-1]} {number(v * part.scale)}" for labels, v in entries)
        return ", ".join(value for _, value in entries)


def observation_lines(game: Game, observation) -> tuple[list[str], list[str]]:
    """(How to read the text: the seats' names and the legend's notes; a line, or a block
    of lines, per part of the game's layout)."""
    observation = np.asarray(observation)
    if observation.shape != (game.obs_size,):
        raise ValueError(
            f"{game.name}: an observation holds {game.obs_size} values, got shape "
            f"{observation.shape}"
        )
    if game.obs_legend is None:
        parts = [f"{name}: {part_text(observation[part])}" for name, part in game.layout.items()]
        return ["Each line is a part of the observation and its values."], parts
    reader = PartReader(game, observation)
    parts = [line for name in game.layout for line in reader.lines(name)]
    return [seats_text(game.obs_legend, reader.seat_names), *game.obs_legend.notes], parts


def seats_text(legend: Legend, names: list[str]) -> str:
    """How the text names the seats in play."""
    if not legend.relative:
        return f"Players are named by seat: {', '.join(names)}."
    return f"Players are named from your seat: you, then clockwise {', '.join(names[1:])}."


def observation_text(game: Game, observation) -> str:
    """The seat's observation, a line (or a block of lines) per part of the game's layout."""
    return "\n".join(observation_lines(game, observation)[1])


def legal_moves(game: Game, action_mask) -> list[tuple[int, str]]:
    """The legal moves of ``action_mask`` as (id, name) pairs, in id order."""
    return [(int(a), game.action_name(int(a))) for a in np.flatnonzero(action_mask)]


def moves_text(game: Game, action_mask) -> str:
    """The legal moves, a line each: ``id: name``."""
    return "\n".join(f"{a}: {name}" for a, name in legal_moves(game, action_mask))


def decision_text(game: Game, observation, action_mask) -> str:
    """What a seat sees when it decides: its observation, then its legal moves."""
    reading, parts = observation_lines(game, observation)
    return "\n".join(
        [
            f"Your observation ({game.title}):",
            *reading,
            "",
            *parts,
            "",
            "Your legal moves (id: name):",
            moves_text(game, action_mask),
        ]
    )
