"""Building Les Toits de Paris positions for tests, in the spec's card notation ("c2:V2")."""

import numpy as np

from heist_envs.toits_de_paris import GAME, rules
from heist_envs.toits_de_paris.components import (
    ARROWS,
    BELLS,
    CARD_TABLE,
    COLOUR,
    DRAW_SIZE,
    FEATHERS,
    KIND_NAMES,
    NUM_CARDS,
    RESERVE,
    RESERVE_SIZE,
    TIEBREAK,
    VP,
    card_id,
)
from heist_envs.toits_de_paris.state import DISCARDED, IN_DRAW, IN_RESERVE, ON_BOARD, SEAT_0
from tests.helpers import legal_actions


def card(label, copy=0):
    """The id of a card written "c<colour>:<kind>"; ``copy`` picks among cards of one kind."""
    colour, kind = label[1:].split(":")
    ks = [k for k, name in enumerate(KIND_NAMES) if name == kind]
    return card_id(int(colour), ks[copy])


def cards(*labels):
    """Ids of several labels; a label repeated picks the next copy of its kind."""
    seen = {}
    ids = []
    for label in labels:
        ids.append(card(label, seen.get(label, 0)))
        seen[label] = seen.get(label, 0) + 1
    return ids


def filler(excluded, table=CARD_TABLE):
    """The other cards, harmless first: no arrows, no reserve symbol, no bell, no points."""
    rest = [c for c in range(NUM_CARDS) if c not in set(excluded)]
    return sorted(
        rest,
        key=lambda c: (
            table[c, ARROWS],
            table[c, RESERVE],
            table[c, BELLS],
            table[c, FEATHERS] + table[c, VP] + table[c, TIEBREAK],
            c,
        ),
    )


def deck_order(draw=(), reserve=(), table=CARD_TABLE):
    """A ``deck_order`` option with these cards on top of the draw pile and of the reserve,
    both padded with filler (zero-arrow cards first)."""
    rest = filler(list(draw) + list(reserve), table)
    k = RESERVE_SIZE - len(reserve)
    return list(reserve) + rest[:k] + list(draw) + rest[k:]


def new_game(num_players, draw=(), reserve=(), **options):
    """A new game whose piles start with these cards; the first card is already revealed."""
    table = np.asarray(options.get("card_table", CARD_TABLE))
    options["deck_order"] = deck_order(draw, reserve, table)
    return GAME.new_state(num_players, 0, options)[0]


def position(
    num_players,
    draw=(),
    reserve=(),
    collections=None,
    jokers=None,
    leader=0,
    reserve_size=None,
    draw_size=None,
    **options,
):
    """A game at the start of ``leader``'s turn (its first card revealed) with these
    collections and jokers; the piles start with the listed cards, padded with filler up to
    ``reserve_size`` / ``draw_size`` (None: as many as fit), other cards in the discard pile."""
    collections = collections or {}
    owned = [c for seat_cards in collections.values() for c in seat_cards]
    listed = list(draw) + list(reserve) + owned
    assert len(set(listed)) == len(listed), "a card listed twice"
    table = np.asarray(options.get("card_table", CARD_TABLE))
    rest = filler(listed, table)
    if reserve_size is None:
        reserve_size = min(RESERVE_SIZE, len(reserve) + len(rest))
    reserve_pile = list(reserve) + rest[: reserve_size - len(reserve)]
    rest = rest[reserve_size - len(reserve) :]
    if draw_size is None:
        draw_size = min(DRAW_SIZE, len(draw) + len(rest))
    draw_pile = list(draw) + rest[: draw_size - len(draw)]
    discard = rest[draw_size - len(draw) :]
    assert len(reserve_pile) == reserve_size and len(draw_pile) == draw_size <= DRAW_SIZE

    s = GAME.new_state(num_players, 0, {"first_leader": leader, **options})[0]
    gone = owned + discard  # cards no longer in a pile: the slots before the piles' tops
    split = RESERVE_SIZE - reserve_size
    deck = gone[:split] + reserve_pile + gone[split:] + draw_pile
    s.deck[:] = deck
    s.reserve_top = split
    s.draw_top = NUM_CARDS - draw_size
    s.card_loc[reserve_pile] = IN_RESERVE
    s.card_loc[draw_pile] = IN_DRAW
    s.card_loc[discard] = DISCARDED
    for seat, seat_cards in collections.items():
        s.card_loc[list(seat_cards)] = SEAT_0 + seat
    for seat, joker in (jokers or {}).items():
        s.joker[seat] = joker
    s.turn = 0
    s.leader = leader
    rules.start_turn(s)
    rules.settle(s)
    return s


def collection(s, seat):
    return sorted(np.flatnonzero(s.card_loc == SEAT_0 + seat).tolist())


def discard(s):
    return sorted(np.flatnonzero(s.card_loc == DISCARDED).tolist())


def board(s):
    """{space: card} of the cards on the board."""
    return {space: int(s.board[space]) for space in range(1, 8) if s.board[space] >= 0}


def mask(s):
    return set(legal_actions(GAME, s).tolist())


def colour_count(s, seat, colour):
    """Cards of ``colour`` in the seat's collection, the joker included."""
    owned = np.flatnonzero(s.card_loc == SEAT_0 + seat)
    return int((s.card_table[owned, COLOUR] == colour).sum()) + int(s.joker[seat] == colour)


def reserve_cards(s):
    return s.deck[s.reserve_top : RESERVE_SIZE].tolist()


def on_board(s):
    return sorted(np.flatnonzero(s.card_loc == ON_BOARD).tolist())
