"""Position builders and action shorthands for the Thief's Market tests.

Positions are built by writing record fields, then calling the kernel's own automatic steps
(e.g. ``rules.end_divide``) so that snapshots and stage changes happen as in play.
"""

import numpy as np

from heist_envs.thiefs_market import GAME, rules
from heist_envs.thiefs_market.actions import (
    BUY_0,
    END_TURN,
    JEWELLER_0,
    RETURN_DIE_0,
    SPEND_FOR_INFAMY_0,
    STEAL_1,
    TAKE_DIE_0,
    TO_PURSE_0,
    WAIVE_0,
    convert_gem_action,
)
from heist_envs.thiefs_market.components import (
    CARD_DECK,
    CARD_NAMES,
    DICE_BY_PLAYERS,
    FACE_CODES,
    NUM_CARDS,
    NUM_DECKS,
    NUM_FACES,
    NUM_SLOTS,
    ROW_SIZE,
)
from heist_envs.thiefs_market.state import (
    D_CHOOSE,
    DISCARDED,
    EMPTY_SLOT,
    IN_CENTRE,
    IN_RETURN_BUFFER,
    TRIMMED,
    UNOWNED,
)
from tests.helpers import legal_actions

G, W, B, R, P, M = range(6)
A_ROW, B_ROW, C_ROW = range(3)


def card(name, nth=0):
    """The card index of the ``nth`` card called ``name`` (two are called Treasure Map)."""
    return [x for x in range(NUM_CARDS) if CARD_NAMES[x] == name][nth]


def card_id(identifier):
    """The card index of the card with spec id ``identifier`` (1..49)."""
    return identifier - 1


def dice(text):
    """Face counts from letters: dice("GGR P") -> [2, 0, 0, 1, 1, 0]."""
    counts = np.zeros(NUM_FACES, np.int8)
    for letter in text.replace(" ", ""):
        counts[FACE_CODES.index(letter)] += 1
    return counts


def new_game(num_players=4, seed=0, **options):
    return GAME.new_state(num_players, seed, options or None)[0]


def mask_of(s):
    return set(legal_actions(GAME, s).tolist())


def play(s, *actions):
    for a in actions:
        legal = mask_of(s)
        assert a in legal, f"{GAME.action_name(a, s)} ({a}) not legal; legal: {sorted(legal)}"
        GAME.apply(s, a)


# Action shorthands (spec 8.2).
def take(f):
    return TAKE_DIE_0 + f


def steal(k):
    return STEAL_1 + k - 1


def give_back(f):
    return RETURN_DIE_0 + f


def buy(row, pos):
    return BUY_0 + ROW_SIZE * row + pos


def waive(c):
    return WAIVE_0 + c


def convert(from_gem, to_gem):
    return convert_gem_action(from_gem, to_gem)


def jeweller(c):
    return JEWELLER_0 + c


def to_purse(c):
    return TO_PURSE_0 + c


def spend(c):
    return SPEND_FOR_INFAMY_0 + c


# Cards.
def remove_card(s, x):
    """Take card x out of the market and the decks (its owner is left to the caller)."""
    for slot in range(NUM_SLOTS):
        if s.market[slot] == x:
            s.market[slot] = EMPTY_SLOT
    for d in range(NUM_DECKS):
        rest = [c for c in s.deck[d, : s.deck_size[d]] if c != x]
        s.deck[d, :] = -1
        s.deck[d, : len(rest)] = rest
        s.deck_size[d] = len(rest)


def give(s, seat, *cards):
    for x in cards:
        remove_card(s, x)
        s.owner[x] = seat


def put_in_market(s, row, pos, x):
    """Show card x at (row, pos); a card shown there before goes to the box."""
    remove_card(s, x)
    slot = ROW_SIZE * row + pos
    if s.market[slot] >= 0:
        s.owner[s.market[slot]] = TRIMMED
    s.market[slot] = x
    s.owner[x] = UNOWNED


def set_deck(s, d, top_first):
    """Deck d holds exactly these cards, top first; its other unseen cards go to the box."""
    for x in s.deck[d, : s.deck_size[d]]:
        s.owner[x] = TRIMMED
    for x in top_first:
        remove_card(s, x)
        s.owner[x] = UNOWNED
    s.deck[d, :] = -1
    s.deck[d, : len(top_first)] = list(reversed(top_first))
    s.deck_size[d] = len(top_first)


def open_rows(s, newest):
    """Deal rows up to ``newest`` (every row full) as the refill would have."""
    for row in range(1, newest + 1):
        for pos in range(ROW_SIZE):
            slot = ROW_SIZE * row + pos
            if s.market[slot] == EMPTY_SLOT:
                s.market[slot] = rules.draw(s, row)
    s.newest_row = newest


# Phases.
def divide(s, centre, first=0):
    """A fresh Divide: ``centre`` dice (letters) plus the pawn in the centre, no piles."""
    s.centre[:] = dice(centre)
    assert s.centre.sum() == DICE_BY_PLAYERS[s.num_players]
    s.pile[:] = 0
    s.ret_buf[:] = 0
    s.pawn_loc = IN_CENTRE
    s.actor = first
    s.stage = D_CHOOSE


def purchases(s, piles, pawn=0):
    """End Divide with these piles (seat -> letters) and the pawn with ``pawn``; the other
    dice are in the centre. Runs the kernel's end of Divide (snapshot, Eyepatch, P_LAA)."""
    s.pile[:] = 0
    for seat, text in piles.items():
        s.pile[seat] = dice(text)
    s.centre[:] = 0
    s.centre[G] = DICE_BY_PLAYERS[s.num_players] - s.pile.sum()
    assert s.centre[G] >= 0
    s.pawn_loc = pawn
    rules.end_divide(s)


def end_turns(s, count):
    for _ in range(count):
        play(s, END_TURN)


# Invariants (also used by the property tests).
def check_invariants(s):
    """Dice per player count conserved, the pawn in one place, 49 cards each in exactly one
    place (deck, market, a player, the box, or being paid for), no negative gold or infamy,
    empty unused seats."""
    n = int(s.num_players)
    total = s.centre.sum() + s.pile[:n].sum() + s.ret_buf.sum()
    assert total == DICE_BY_PLAYERS[n], f"{total} dice in play"
    assert (s.centre >= 0).all() and (s.pile >= 0).all() and (s.ret_buf >= 0).all()
    assert s.pawn_loc in (IN_CENTRE, IN_RETURN_BUFFER) or 0 <= s.pawn_loc < n
    places = np.zeros(NUM_CARDS, np.int64)
    for d in range(NUM_DECKS):
        for x in s.deck[d, : s.deck_size[d]]:
            assert CARD_DECK[x] == d
            places[x] += 1
        assert (s.deck[d, s.deck_size[d] :] == -1).all()
    for slot in range(NUM_SLOTS):
        x = s.market[slot]
        if x >= 0:
            assert CARD_DECK[x] == slot // ROW_SIZE
            places[x] += 1
    if s.pending_card >= 0:  # bought and being paid for: on its way to the buyer
        places[s.pending_card] += 1
    for x in range(NUM_CARDS):
        owner = s.owner[x]
        assert owner in (UNOWNED, TRIMMED, DISCARDED) or 0 <= owner < n
        places[x] += owner != UNOWNED
    assert (places == 1).all(), f"cards not in exactly one place: {np.flatnonzero(places != 1)}"
    assert (s.gold[:n] >= 0).all() and (s.infamy[:n] >= 0).all()
    assert (s.gold[n:] == 0).all() and (s.infamy[n:] == 0).all() and (s.pile[n:] == 0).all()
