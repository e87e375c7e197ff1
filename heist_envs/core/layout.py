"""Named slices of a flat observation vector, and how each slice reads.

:func:`build_layout` lays the parts end to end (a game's ``LAYOUT``); a :class:`Legend`
(a game's ``LEGEND``, written next to it) says part by part what the values mean: the labels
of the entries (from the game's component tables), which axes are the seats, and whether a
part counts things, holds quantities or names one value. It is plain data: the text view
(:mod:`agents.text_view`) writes an observation with it, and code that reads an observation
by ``LAYOUT`` can take its labels from it (:meth:`Legend.axes`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from math import prod


def build_layout(parts):
    """``[(name, size), ...]`` -> (``{name: slice}``, total size), slices laid end to end."""
    layout = {}
    start = 0
    for name, size in parts:
        if name in layout:
            raise ValueError(f"duplicate layout entry {name!r}")
        layout[name] = slice(start, start + size)
        start += size
    return layout, start


# How a part's values read (Part.kind):
COUNT = "count"  # how many of each labelled thing there are (a 0/1 entry is a count too)
NUMBER = "number"  # a quantity per entry
ONE_HOT = "one-hot"  # along the last axis, the one entry that is set names the value
CODE = "code"  # each entry's value is an index into Part.values
FLAG = "flag"  # one entry, yes or no
KINDS = (COUNT, NUMBER, ONE_HOT, CODE, FLAG)

#: an axis label standing for the seats: Legend.seats entries, in seat order
EACH_SEAT = "<seats>"
#: Part.labels_by of a part whose first axis is the seats: each seat's row reads by its own
#: labels
ROWS = "<rows>"


@dataclass(frozen=True)
class Part:
    """How one part of an observation reads.

    ``axes`` holds the labels of each axis, outermost first; their lengths multiply to the
    part's size. An axis may hold :data:`EACH_SEAT`, which stands for every seat. A label
    ``None`` is never written: an entry that needs no word (an empty stack position, a room
    without a thick wall) or, for a seat, one not in the game.

    ``labels_by``: where the last axis's labels depend on a seat (a card type of the bank is
    not a robber's), that axis is a tuple of label tuples, one per seat, and ``labels_by``
    says whose apply: the name of a one-hot seat part of the same observation, or
    :data:`ROWS`.
    """

    title: str
    kind: str
    axes: tuple = ()
    #: CODE: the label of each value an entry can hold
    values: tuple = ()
    #: NUMBER: the stored value times ``scale`` is the quantity (a normalised count)
    scale: float = 1
    #: ONE_HOT over one axis of entries: list the entries under each value (tokens by
    #: holder) instead of each entry's value
    by_value: bool = False
    labels_by: str | None = None


def count(title, *axes, labels_by=None) -> Part:
    return Part(title, COUNT, axes, labels_by=labels_by)


def number(title, *axes, scale=1) -> Part:
    return Part(title, NUMBER, axes, scale=scale)


def one_hot(title, *axes, by_value=False, labels_by=None) -> Part:
    return Part(title, ONE_HOT, axes, by_value=by_value, labels_by=labels_by)


def code(title, values, *axes) -> Part:
    return Part(title, CODE, axes, values=tuple(values))


def flag(title) -> Part:
    return Part(title, FLAG)


def player_count(low: int, high: int) -> Part:
    """The one-hot player count of ``low`` to ``high`` players (a legend's ``players``)."""
    return one_hot("players", [str(n) for n in range(low, high + 1)])


@dataclass(frozen=True)
class Legend:
    """How a game's observation reads: a :class:`Part` for every part of its layout."""

    parts: Mapping[str, Part]
    #: the entries of a seat axis: the most seats the game has
    seats: int
    #: seat entries count from the observer (0 = itself, 1 the next seat clockwise, ...);
    #: otherwise they are the seat numbers, the same for every observer
    relative: bool
    #: the one-hot part that gives the player count (its labels are the counts)
    players: str
    #: what a reader needs to know to read the labels (a code's meaning, how rooms count)
    notes: tuple[str, ...] = ()

    def seat_names(self, agents: list[str]) -> list[str]:
        """The seats in play as the legend names them, given the game's agents at that
        player count: from the observer ("you", "player +1", ...) or the agents' names."""
        if not self.relative:
            return list(agents)
        return ["you"] + [f"player +{k}" for k in range(1, len(agents))]

    def axes(self, name: str, seat_names: list[str]) -> list:
        """Part ``name``'s axes with :data:`EACH_SEAT` written out as ``seat_names`` (the seats
        in play; the legend's other seat entries are ``None``). A ``labels_by`` part's last
        axis stays a tuple of label tuples."""
        seats = [*seat_names, *[None] * (self.seats - len(seat_names))]
        return [
            [label for entry in axis for label in (seats if entry == EACH_SEAT else [entry])]
            for axis in self.parts[name].axes
        ]


def legend(layout: Mapping[str, slice], parts: Mapping[str, Part], **fields) -> Legend:
    """The :class:`Legend` of ``parts``, or a ValueError naming the parts of ``layout`` it
    does not describe (or those it describes that ``layout`` lacks), or a part it describes
    at the wrong size."""
    result = Legend(parts=dict(parts), **fields)
    missing = [name for name in layout if name not in parts]
    extra = [name for name in parts if name not in layout]
    if missing or extra:
        raise ValueError(
            f"legend: parts of the layout without a Part: {missing}; not in it: {extra}"
        )
    if result.players not in parts or parts[result.players].kind != ONE_HOT:
        raise ValueError(f"legend: players must name a one-hot part, got {result.players!r}")
    for name, part in parts.items():
        check_part(result, name, part, layout[name].stop - layout[name].start)
    return result


def check_part(legend: Legend, name: str, part: Part, size: int) -> None:
    """A ValueError unless ``part`` reads a part of ``size`` values."""
    if part.kind not in KINDS:
        raise ValueError(f"legend: part {name!r} has kind {part.kind!r}; allowed: {KINDS}")
    axes = legend.axes(name, [f"seat {i}" for i in range(legend.seats)])
    if part.labels_by is not None:
        sets = axes[-1]
        by = legend.parts.get(part.labels_by)
        if part.labels_by != ROWS and (by is None or by.kind != ONE_HOT):
            raise ValueError(
                f"legend: part {name!r} takes its labels by {part.labels_by!r}, not a one-hot part"
            )
        if part.labels_by == ROWS and len(sets) != len(axes[0]):
            raise ValueError(
                f"legend: part {name!r} needs a label tuple for each of its {len(axes[0])} rows"
            )
        if len({len(labels) for labels in sets}) != 1:
            raise ValueError(f"legend: part {name!r}'s label tuples differ in length")
        axes[-1] = sets[0]
    shape = [len(axis) for axis in axes]
    cells = shape[:-1] if part.kind == ONE_HOT else shape
    allowed = {FLAG: (0,), NUMBER: (0, 1, 2), COUNT: (1, 2), ONE_HOT: (0, 1, 2), CODE: (1,)}
    if (
        prod(shape) != size
        or len(cells) not in allowed[part.kind]
        or (part.kind == ONE_HOT and not axes)
    ):
        raise ValueError(
            f"legend: part {name!r} ({part.kind}) of {size} values has axes of lengths {shape}"
        )
    if part.by_value and (part.kind != ONE_HOT or len(cells) != 1):
        raise ValueError(f"legend: part {name!r}: by_value lists one axis of one-hot entries")
    if part.kind == CODE and not part.values:
        raise ValueError(f"legend: part {name!r} (a code) needs the labels of its values")
