"""Art Robbery as text: the table from one seat's view (others' hands hidden, as in the
table view) or the spectator's (``seat=None``: every hand shown)."""

import numpy as np

from .components import (
    BOSS_SLOT,
    CARD_NAMES,
    NUM_CARD_TYPES,
    NUM_RAIDS,
    RAID_NAMES,
    TOKEN_ALIBIS,
    TOKEN_VALUES,
    TOKENS_PER_RAID,
)
from .rules import final_scores
from .state import BOX, CENTRE, GAME_OVER, NOBODY, PHASE_NAMES
from .table_view import sees_hand

SHORT_CARD = ("0", "1", "2", "3", "4", "5", "Boss", "Dog", "Greedy")


def token_label(raid, slot):
    label = "B" if slot == BOSS_SLOT else str(TOKEN_VALUES[slot])
    return label + "*" * int(TOKEN_ALIBIS[raid, slot])


def hand_text(counts):
    return " ".join(SHORT_CARD[t] for t in range(NUM_CARD_TYPES) for _ in range(counts[t]))


def render(s, seat=None):
    n = int(s.num_players)
    raid = int(s.raid)
    lines = []
    if s.phase == GAME_OVER:
        lines.append(f"Art Robbery: game over after {int(s.turns)} card plays")
        if s.raid == NUM_RAIDS:
            scores = np.zeros(n, np.int64)
            alibis = np.zeros(n, np.int64)
            final_scores(s, scores, alibis)
            lines.append(f"  final scores (after the alibi penalty): {scores.tolist()}")
    else:
        lines.append(
            f"Art Robbery: raid {raid + 1}/{NUM_RAIDS} ({RAID_NAMES[raid]}), "
            f"card play {int(s.turns) + 1}, player {int(s.turn_player)} to "
            f"{PHASE_NAMES[s.phase]}"
            + (f" (player {int(s.actor)} decides)" if s.actor != s.turn_player else "")
        )
        centre = [
            token_label(raid, i) for i in range(TOKENS_PER_RAID) if s.token_loc[raid, i] == CENTRE
        ]
        lines.append(f"  centre: {' '.join(centre) or '(empty)'}   (* = alibi dot, B = Boss)")
    dog = "centre" if s.dog == NOBODY else f"player {int(s.dog)}"
    discard = " ".join(
        f"{SHORT_CARD[t]}x{int(s.discard[t])}" for t in range(NUM_CARD_TYPES) if s.discard[t]
    )
    lines.append(f"  guard dog: {dog}   draw pile: {int(s.deck_size)}   discard: {discard or '-'}")
    boxed = [f"{RAID_NAMES[r]} Boss" for r in range(NUM_RAIDS) if s.token_loc[r, BOSS_SLOT] == BOX]
    if boxed:
        lines.append(f"  in the box: {', '.join(boxed)}")
    for p in range(n):
        table = [
            token_label(raid, i)
            for i in range(TOKENS_PER_RAID)
            if raid < NUM_RAIDS and s.token_loc[raid, i] == p
        ]
        value = alibis = 0
        for r in range(NUM_RAIDS):
            for i in range(TOKENS_PER_RAID):
                if s.token_loc[r, i] == p and (r < raid or raid == NUM_RAIDS):
                    value += int(TOKEN_VALUES[i])
                    alibis += int(TOKEN_ALIBIS[r, i])
        shown = sees_hand(seat, p)
        hand = hand_text(s.hands[p]) if shown else f"{int(s.hands[p].sum())} hidden cards"
        who = f"player {p}" + (" (you)" if seat == p else "")
        marker = ">" if p == s.actor else " "
        lines.append(
            f"{marker} {who:<16} hand: {hand:<28} this raid: {' '.join(table) or '-':<12} "
            f"banked: {value} pts, {alibis} alibis"
        )
    if s.pending_card >= 0:
        lines.append(f"  card played: {CARD_NAMES[s.pending_card]}")
    return "\n".join(lines)
