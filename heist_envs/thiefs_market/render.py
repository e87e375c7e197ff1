"""Thief's Market as text: the table from one seat's view or the spectator's
(``seat=None``). Only the spectator sees the decks' order and the trimmed cards, as in the
table view."""

from .components import (
    CARD_COST,
    CARD_NAMES,
    CARD_VP,
    DECK_LETTERS,
    FACE_CODES,
    NUM_CARDS,
    NUM_DECKS,
    NUM_FACES,
    NUM_GEMS,
    ROW_SIZE,
)
from .rules import allowed_buys, pile_size
from .state import (
    DISCARDED,
    GAME_OVER,
    IN_CENTRE,
    IN_RETURN_BUFFER,
    P_LAA,
    P_MAIN,
    P_PAY,
    P_WAIVE,
    STAGE_NAMES,
    TRIMMED,
)
from .table_view import sees_decks


def cost_text(counts):
    return " ".join(f"{int(counts[c])}{FACE_CODES[c]}" for c in range(NUM_GEMS) if counts[c])


def dice_text(counts, pawn=False):
    dice = [f"{FACE_CODES[f]}{int(counts[f])}" for f in range(NUM_FACES) if counts[f]]
    return " ".join(dice + (["pawn"] if pawn else [])) or "-"


def card_text(x):
    vp = f", {int(CARD_VP[x])} VP" if CARD_VP[x] else ""
    return f"{CARD_NAMES[x]} ({cost_text(CARD_COST[x])}{vp})"


def render(s, seat=None):
    n = int(s.num_players)
    stage = int(s.stage)
    lines = []
    if stage == GAME_OVER:
        lines.append(f"Thief's Market: game over after round {int(s.round_number)}")
    else:
        lines.append(
            f"Thief's Market: round {int(s.round_number)}, {STAGE_NAMES[stage]}, "
            f"player {int(s.actor)} to act"
        )
    for row in range(NUM_DECKS):
        if row > s.newest_row:
            break
        cards = []
        for pos in range(ROW_SIZE):
            x = int(s.market[row * ROW_SIZE + pos])
            cards.append(f"[{pos}] " + (card_text(x) if x >= 0 else "-"))
        lines.append(f"  row {DECK_LETTERS[row]}: " + "  ".join(cards))
    decks = "  ".join(f"{DECK_LETTERS[d]} {int(s.deck_size[d])}" for d in range(NUM_DECKS))
    lines.append(f"  decks: {decks}   newest row: {DECK_LETTERS[int(s.newest_row)]}")
    if sees_decks(seat):
        for d in range(NUM_DECKS):
            top_first = [CARD_NAMES[int(s.deck[d, i])] for i in range(s.deck_size[d] - 1, -1, -1)]
            lines.append(f"  deck {DECK_LETTERS[d]} (top first): {', '.join(top_first) or '-'}")
        trimmed = [CARD_NAMES[x] for x in range(NUM_CARDS) if s.owner[x] == TRIMMED]
        lines.append(f"  trimmed to the box: {', '.join(trimmed)}")
    discarded = [CARD_NAMES[x] for x in range(NUM_CARDS) if s.owner[x] == DISCARDED]
    if discarded:
        lines.append(f"  discarded: {', '.join(discarded)}")
    if stage != GAME_OVER:
        lines.append(f"  centre: {dice_text(s.centre, s.pawn_loc == IN_CENTRE)}")
    if s.steal_victim >= 0:
        returning = dice_text(s.ret_buf, s.pawn_loc == IN_RETURN_BUFFER)
        lines.append(
            f"  player {int(s.actor)} stole player {int(s.steal_victim)}'s pile; "
            f"returning: {returning}"
        )
    purchases = stage in (P_LAA, P_MAIN, P_WAIVE, P_PAY)
    for q in range(n):
        marker = ">" if q == s.actor else " "
        who = f"player {q}" + (" (you)" if seat == q else "")
        owned = [
            CARD_NAMES[x] + ("*" if s.used[x] else "") for x in range(NUM_CARDS) if s.owner[x] == q
        ]
        pile = dice_text(s.pile[q], s.pawn_loc == q)
        extra = ""
        if purchases:
            snap = "".join(FACE_CODES[c] for c in range(NUM_GEMS) if s.snap_gem[q, c])
            extra = f"  snapshot: {snap or '-'}/{int(s.snap_size[q])}"
            extra += f"  buys allowed: {allowed_buys(s, q)}"
        lines.append(
            f"{marker} {who:<16} gold {int(s.gold[q]):>2}  infamy {int(s.infamy[q]):>2}  "
            f"pile ({pile_size(s, q)}): {pile}{extra}"
        )
        lines.append(f"    cards: {', '.join(owned) or '-'}")
    if stage in (P_MAIN, P_WAIVE, P_PAY):
        lines.append(f"  purchases this turn: {int(s.buys_made)}   (* = used this round)")
    if s.pending_card >= 0:
        lines.append(
            f"  paying for {CARD_NAMES[int(s.pending_card)]}: still {cost_text(s.need) or '-'}"
        )
    return "\n".join(lines)
