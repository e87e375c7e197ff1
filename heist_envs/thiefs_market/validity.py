"""Thief's Market's state check: every field in range and the fields consistent with play."""

import numpy as np

from heist_envs.core.game import RUNNING
from heist_envs.core.validity import expect, in_range

from . import rules
from .components import (
    CARD_COST,
    CARD_DECK,
    DECK_KEPT,
    DECK_TOTALS,
    DICE_BY_PLAYERS,
    EFFECT,
    GAIN_TOP_CARD,
    INSURANCE_CARD,
    LUCKY_CARD,
    NUM_CARDS,
    NUM_DECKS,
    ROW_SIZE,
)
from .state import (
    D_CHOOSE,
    D_RETURNING,
    D_TAKING,
    DISCARDED,
    EMPTY_SLOT,
    GAME_OVER,
    IN_RETURN_BUFFER,
    NOBODY,
    P_LAA,
    P_PAY,
    P_WAIVE,
    TRIMMED,
    UNOWNED,
)

MAX_ROUNDS_LIMIT = np.iinfo(np.int16).max
#: Gold and infamy stay far below this in any game; the bound keeps sums from overflowing.
TOKENS_LIMIT = 1 << 24
SUB_DECISIONS = (D_TAKING, D_RETURNING, P_LAA, P_WAIVE, P_PAY)


def validate(s):
    """Raise InvalidStateError naming the first field that no game of the rules can hold."""
    check_counters(s)
    check_dice(s)
    check_cards(s)
    check_stage(s)


def check_counters(s):
    """The stage, rounds, seats, counts of the turn and every seat's gold and infamy."""
    n = int(s.num_players)
    running = s.status == RUNNING
    in_range("start_seat", s.start_seat, -1, n - 1)
    in_range("stage", s.stage, D_CHOOSE, GAME_OVER)
    expect(running == (s.stage != GAME_OVER), "stage", "game over exactly when the game is")
    in_range("max_rounds", s.max_rounds, 1, MAX_ROUNDS_LIMIT)
    in_range("round_number", s.round_number, 1, s.max_rounds)
    in_range("first_player", s.first_player, 0, n - 1)
    in_range("newest_row", s.newest_row, 0, NUM_DECKS - 1)
    in_range("takes", s.takes, 0, n)
    in_range("steals", s.steals, 0, np.iinfo(np.int8).max)
    in_range("turns_done", s.turns_done, 0, n)
    in_range("buys_made", s.buys_made, 0, NUM_CARDS)
    in_range("gold", s.gold[:n], 0, TOKENS_LIMIT)
    in_range("infamy", s.infamy[:n], 0, TOKENS_LIMIT)
    in_range("gold", s.gold[n:], 0, 0)
    in_range("infamy", s.infamy[n:], 0, 0)


def check_dice(s):
    """Dice and the pawn: the player count's dice, each in one place."""
    n = int(s.num_players)
    dice = int(DICE_BY_PLAYERS[n])
    for name in ("centre", "pile", "ret_buf"):
        in_range(name, s[name], 0, dice)
    in_range("pile", s.pile[n:], 0, 0)
    total = int(s.centre.sum()) + int(s.pile.sum()) + int(s.ret_buf.sum())
    expect(total == dice, "centre", f"{dice} dice in all with {n} players")
    in_range("pawn_loc", s.pawn_loc, IN_RETURN_BUFFER, n - 1)
    in_range("snap_gem", s.snap_gem, 0, 1)
    in_range("snap_size", s.snap_size, 0, dice + 1)
    in_range("snap_gem", s.snap_gem[n:], 0, 0)
    in_range("snap_size", s.snap_size[n:], 0, 0)


def check_cards(s):
    """Cards: 49, each in one place (a deck, the market, being paid for, a seat, the box)."""
    n = int(s.num_players)
    in_range("owner", s.owner, DISCARDED, n - 1)
    in_range("used", s.used, 0, 1)
    in_range("pending_card", s.pending_card, -1, NUM_CARDS - 1)
    places = np.zeros(NUM_CARDS, np.int64)
    for d in range(NUM_DECKS):
        in_range(f"deck_size[{d}]", s.deck_size[d], 0, DECK_KEPT[d])
        in_range(f"deck[{d}]", s.deck[d, : s.deck_size[d]], 0, NUM_CARDS - 1)
        in_range(f"deck[{d}]", s.deck[d, s.deck_size[d] :], -1, -1)
        cards = s.deck[d, : s.deck_size[d]]
        expect((CARD_DECK[cards] == d).all(), f"deck[{d}]", f"cards of deck {'ABC'[d]}")
        places[cards] += 1
        trimmed = int(((s.owner == TRIMMED) & (d == CARD_DECK)).sum())
        expect(trimmed == DECK_TOTALS[d] - DECK_KEPT[d], "owner", f"the setup trim of deck {d}")
    in_range("market", s.market, EMPTY_SLOT, NUM_CARDS - 1)
    for slot in range(len(s.market)):
        x = s.market[slot]
        row = slot // ROW_SIZE
        expect(x < 0 or CARD_DECK[x] == row, f"market[{slot}]", f"a card of deck {'ABC'[row]}")
        expect(x < 0 or row <= s.newest_row, f"market[{slot}]", "empty beyond the newest row")
        if x >= 0:
            places[x] += 1
    if s.pending_card >= 0:
        places[s.pending_card] += 1
    places += s.owner != UNOWNED
    bad = np.flatnonzero(places != 1)
    expect(bad.size == 0, f"owner[{bad[0] if bad.size else 0}]", "each card in exactly one place")
    discarded = np.flatnonzero(s.owner == DISCARDED)
    expect((EFFECT[discarded] == GAIN_TOP_CARD).all(), "owner", "only a bought potion discarded")


def check_stage(s):
    """The stage: the card being paid for, a thief returning and who acts."""
    n = int(s.num_players)
    stage = int(s.stage)
    paying = stage in (P_WAIVE, P_PAY)
    expect((s.pending_card >= 0) == paying, "pending_card", "a card only while it is paid for")
    in_range("need", s.need, 0, CARD_COST.max())
    if paying:
        cost = CARD_COST[s.pending_card]
        expect((s.need <= cost).all(), "need", f"at most the card's cost {cost.tolist()}")
        expect(stage != P_WAIVE or (s.need == cost).all(), "need", "the whole cost")
        expect(stage == P_WAIVE or s.need.any(), "need", "a gem still to pay")
    else:
        in_range("need", s.need, 0, 0)
    returning = stage == D_RETURNING
    expect(returning or not s.ret_buf.any(), "ret_buf", "empty unless a thief is returning")
    expect(returning or s.pawn_loc != IN_RETURN_BUFFER, "pawn_loc", "not in the return buffer")
    if returning:
        in_range("steal_victim", s.steal_victim, 0, n - 1)
        expect(s.steal_victim != s.actor, "steal_victim", "another seat than the thief")
    else:
        in_range("steal_victim", s.steal_victim, NOBODY, NOBODY)
    if s.status != RUNNING:
        return
    actor = int(s.actor)
    if stage in (D_CHOOSE, D_TAKING, D_RETURNING):
        in_range("takes", s.takes, 0, n - 1)
        if stage == D_CHOOSE:
            expect(rules.pile_size(s, actor) == 0, "pile", "the choosing seat has no pile")
            expect(s.pawn_loc != actor, "pawn_loc", "not the choosing seat's")
        in_range("snap_size", s.snap_size, 0, 0)
    else:
        expect(s.takes == n, "takes", f"{n}: every seat took once before purchases")
        expect(s.pawn_loc == s.first_player, "pawn_loc", "with the first player")
        if stage != P_LAA:  # purchases have started
            in_range("turns_done", s.turns_done, 0, n - 1)
        expect(stage != P_LAA or s.owner[LUCKY_CARD] == actor, "actor", "the Appendage owner")
        expect(stage != P_WAIVE or s.owner[INSURANCE_CARD] == actor, "actor", "the Racket owner")
    if stage in SUB_DECISIONS:
        expect(rules.forced_action(s) < 0, "stage", "a sub-decision with a real choice")
