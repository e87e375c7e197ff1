"""Les Toits de Paris as text. Everything but the order of the draw pile and the reserve is
public, so every seat's view shows the same table (the seat's own line is marked "you")."""

import numpy as np

from .components import (
    COLOUR,
    COLOUR_NAMES,
    NUM_COLOURS,
    NUM_SPACES,
    TOKEN_SET_NAMES,
    card_kind,
    card_label,
)
from .rules import draw_size, reserve_size
from .state import (
    DISCARDED,
    EMPTY,
    GAME_OVER,
    GONE,
    HIGH_TOKEN,
    LEADER_MUST,
    LOW_TOKEN,
    NONE,
    OUTCOME_NAMES,
    PHASE_NAMES,
    SEAT_0,
    UNUSED,
)


def joker_text(joker):
    if joker == UNUSED:
        return "unused"
    if joker == GONE:
        return "gone"
    return f"joker in {COLOUR_NAMES[joker]}"


def collection_text(s, p):
    """p's cards grouped by colour, e.g. "Gold: A2 R V1 joker"."""
    owned = np.flatnonzero(s.card_loc == SEAT_0 + p)
    groups = []
    for colour in range(NUM_COLOURS):
        kinds = [card_kind(s.card_table[c]) for c in owned if s.card_table[c, COLOUR] == colour]
        if s.joker[p] == colour:
            kinds.append("joker")
        if kinds:
            groups.append(f"{COLOUR_NAMES[colour]}: {' '.join(kinds)}")
    return " | ".join(groups) or "(no cards)"


def board_text(s):
    spaces = []
    for space in range(1, NUM_SPACES + 1):
        card = s.board[space]
        label = "--" if card == EMPTY else card_label(card, s.card_table)
        spaces.append(f"{space}:{label}")
    return "  ".join(spaces)


def render(s, seat=None):
    n = int(s.num_players)
    lines = []
    if s.phase == GAME_OVER:
        lines.append(f"Les Toits de Paris: game over after {int(s.turn)} turns")
    else:
        status = f"player {int(s.actor)} to decide: {PHASE_NAMES[s.phase]}"
        if s.phase == LEADER_MUST:
            status += f" ({int(s.need_left)} more)"
        if s.pending_draws:
            status += f" ({int(s.pending_draws)} reserve draw(s) to follow)"
        lines.append(
            f"Les Toits de Paris: turn {int(s.turn)}, leader player {int(s.leader)}, {status}"
        )
        outcome = "" if s.outcome == NONE else f"   {OUTCOME_NAMES[s.outcome]}"
        inspector = "notch" if s.insp > NUM_SPACES else f"space {int(s.insp)}"
        lines.append(f"  board: {board_text(s)}   inspector: {inspector}{outcome}")
    discard = np.flatnonzero(s.card_loc == DISCARDED)
    per_colour = np.bincount(s.card_table[discard, COLOUR], minlength=NUM_COLOURS)
    lines.append(
        f"  draw pile: {draw_size(s)}   reserve: {reserve_size(s)}   discard: {len(discard)} ("
        + ", ".join(f"{COLOUR_NAMES[c]} {per_colour[c]}" for c in range(NUM_COLOURS))
        + ")"
        + ("   last turn" if s.end_triggered and s.phase != GAME_OVER else "")
    )
    for p in range(n):
        marker = ">" if p == s.actor else " "
        who = f"player {p}" + (" (you)" if seat == p else "")
        lines.append(
            f"{marker} {who:<15} {collection_text(s, p)}   character: {joker_text(s.joker[p])}"
        )
        if s.phase == GAME_OVER:
            tokens = [
                f"{TOKEN_SET_NAMES[t]} {'high' if a == HIGH_TOKEN else 'low'}"
                for t, a in enumerate(s.token_award[p])
                if a in (HIGH_TOKEN, LOW_TOKEN)
            ]
            lines.append(f"    score {int(s.score[p])}   tokens: {', '.join(tokens) or '-'}")
    return "\n".join(lines)
