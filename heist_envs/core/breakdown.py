"""Who won a finished game and why: the score breakdown behind a game's
``score_breakdown(s)`` (:class:`~heist_envs.core.game.Game`), in plain data for people.

A breakdown is a dict: ``columns``, the scoring parts in the order the rules add them up
(each ``{"label", "values", "help"}``, one value a seat), ``winners`` (seat indices; none in a
game cut short) and ``text``, a sentence naming the winners and what decided it: the score,
a tie-breaker, a penalty.
"""

from heist_envs.core.game import TRUNCATED

CUT_SHORT = "The game was cut short by the environment's turn limit: nobody wins."


def listed(names) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def part(label, values, help=""):
    """One scoring part: its label, a value a seat, and what it counts."""
    return {
        "label": label,
        "values": [v if isinstance(v, str) else int(v) for v in values],
        "help": help,
    }


def ranking(names, keys) -> tuple[list[int], str]:
    """The winners and a sentence saying what decided it. ``keys`` are ``(what, per-seat
    values)`` in the rules' order, higher first: the score, then each tie-breaker; seats equal
    on every key share the win."""
    (what, values), tie_breakers = keys[0], keys[1:]
    best = max(values)
    seats = [p for p, v in enumerate(values) if v == best]
    if len(seats) == 1:
        return seats, f"{names[seats[0]]} wins with {best} {what}."
    text = f"{listed(names[p] for p in seats)} tie on {best} {what}"
    for what, values in tie_breakers:
        best = max(values[p] for p in seats)
        top = [p for p in seats if values[p] == best]
        if len(top) == 1:
            others = ", ".join(str(values[p]) for p in seats if p != top[0])
            return top, f"{text}; {names[top[0]]} wins on most {what} ({best} against {others})."
        if len(top) < len(seats):
            text += f"; {listed(names[p] for p in top)} have the most {what} ({best})"
        else:
            text += f" and {best} {what}"
        seats = top
    return seats, f"{text}, and share the win."


def breakdown(s, columns, winners, text) -> dict:
    """The breakdown of finished record ``s``; a game cut short has no winner."""
    if int(s.status) == TRUNCATED:
        winners, text = [], CUT_SHORT
    return {"columns": columns, "winners": [int(p) for p in winners], "text": text}
