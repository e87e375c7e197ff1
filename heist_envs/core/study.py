"""What the studies (:mod:`experiments.studies`) read from a game's states: its phases, how
long a game was in its own rounds, each seat's running score and extra per-decision columns.

Each game folder describes its own in ``study.py`` (``STUDY``); a game without one gets
:data:`NO_STUDY`'s defaults. Columns are computed over arrays of state records, so the batched
engine and the one-game loop share them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class GameStudy:
    """How the studies read one game's states.

    ``phase``: the state field holding the phase, ``phase_names`` its names (default: the
    header's ``status``, which is "running" at every decision); ``rounds(s)``: how long a
    finished game was, in the game's own rounds (``rounds_doc`` says how they are counted,
    printed after the word "rounds"), or None to count decisions; ``score``: a compiled
    ``score(s, out)`` writing each seat's running score (the score it would have if the game
    ended now, by the kernel's own scoring), or None where the game has no per-seat score
    race; ``columns``: extra per-decision columns, each ``f(states, actions) -> array``.
    """

    phase: str = "status"
    phase_names: tuple[str, ...] = ("running", "terminated", "truncated")
    rounds: Callable | None = None
    rounds_doc: str = "decisions (the game counts no rounds of its own)"
    score: Callable | None = None
    columns: dict[str, Callable] = field(default_factory=dict)

    def game_rounds(self, s, decisions: int) -> float:
        """How long the finished game ``s`` of ``decisions`` decisions was, in rounds."""
        return float(decisions) if self.rounds is None else self.rounds(s)


#: The study of a game that describes none: one phase, rounds counted in decisions, no score.
NO_STUDY = GameStudy()


def state_field(name: str) -> Callable:
    """A per-decision column: the state field ``name`` at the decision."""

    def column(states, actions):
        return states[name].astype(np.int64)

    column.__doc__ = f"the state field {name!r} at the decision"
    return column
