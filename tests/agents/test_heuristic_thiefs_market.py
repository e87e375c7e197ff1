"""Thief's Market's heuristic, rule of thumb by rule of thumb: each test builds a position,
names the move the heuristic must play and the one it must not."""

from heist_envs.thiefs_market import GAME
from heist_envs.thiefs_market.actions import (
    END_TURN,
    FINISH_RETURN,
    FINISH_TAKE,
    PAY_DIE,
    PAY_GOLD,
    SPEND_FOR_INFAMY_0,
)
from heist_envs.thiefs_market.components import NUM_SLOTS
from heist_envs.thiefs_market.state import (
    D_CHOOSE,
    D_RETURNING,
    D_TAKING,
    EMPTY_SLOT,
    P_MAIN,
    P_PAY,
    TRIMMED,
)
from tests.helpers import heuristic_moves
from tests.thiefs_market.builders import (
    A_ROW,
    C_ROW,
    G,
    M,
    P,
    R,
    W,
    buy,
    card,
    card_id,
    convert,
    give,
    give_back,
    mask_of,
    new_game,
    open_rows,
    play,
    purchases,
    put_in_market,
    steal,
    take,
)

DICE = [2, 2, 2, 1, 2, 2]  # the 11 dice of four players: G W B R P M


def market(s, *names):
    """Only these cards in the market (row A, in order), the others boxed."""
    for slot in range(NUM_SLOTS):
        if s.market[slot] >= 0:
            s.owner[s.market[slot]] = TRIMMED
            s.market[slot] = EMPTY_SLOT
    for pos, name in enumerate(names):
        put_in_market(s, A_ROW, pos, card(name))


def purchase_turn(pile, names, owned=(), gold=0):
    """Seat 0's purchase turn with ``pile`` (dice letters), ``gold``, these cards owned and
    only ``names`` in the market."""
    s = new_game(4)
    give(s, 0, *[card(name) for name in owned])
    purchases(s, {0: pile, 1: "B", 2: "B", 3: "B"}, pawn=0)
    market(s, *names)
    s.gold[0] = gold
    assert s.stage == P_MAIN and s.actor == 0
    return s


def test_it_buys_the_card_worth_most_points():
    # both are affordable: the Monocle (3 VP, W R) over the Necklace (2 VP, W W)
    s = purchase_turn("WWR", ["Necklace", "Menacing Monocle"])
    assert heuristic_moves(GAME, s) == {buy(A_ROW, 1)}


def test_it_converts_a_die_when_that_makes_a_better_card_affordable():
    # G W buys nothing; the Stone's G -> W buys the Necklace
    s = purchase_turn("GW", ["Necklace"], owned=["Philosopher's Stone"])
    assert heuristic_moves(GAME, s) == {convert(G, W)}
    assert END_TURN in mask_of(s)


def test_it_buys_before_it_spends_what_is_left():
    s = purchase_turn("G", ["Nearby Safehouse"], owned=["Public Relations Expert"])
    assert heuristic_moves(GAME, s) == {buy(A_ROW, 0)}
    assert SPEND_FOR_INFAMY_0 + G in mask_of(s)


def test_leftover_dice_become_infamy_once_nothing_is_worth_buying():
    s = purchase_turn("G", ["Crown"], owned=["Public Relations Expert"])
    assert heuristic_moves(GAME, s) == {SPEND_FOR_INFAMY_0 + G}
    assert END_TURN in mask_of(s)


def test_it_pays_with_dice_before_gold():
    s = new_game(4)
    open_rows(s, C_ROW)
    put_in_market(s, C_ROW, 0, card_id(49))  # Treasure Map: 1G 2R
    purchases(s, {0: "GRPP", 1: "W", 2: "W", 3: "W"}, pawn=0)
    s.gold[0] = 1
    play(s, buy(C_ROW, 0))
    assert s.stage == P_PAY and mask_of(s) == {PAY_DIE, PAY_GOLD}
    assert heuristic_moves(GAME, s) == {PAY_DIE}


def test_dividing_the_loot_it_takes_the_gems_its_best_market_card_needs():
    s = new_game(4, dice=DICE)
    market(s, "Menacing Monocle")  # W R
    assert s.stage == D_CHOOSE
    assert heuristic_moves(GAME, s) == {take(W), take(R)}
    s = new_game(4, dice=DICE)
    market(s, "Pawnbroker")  # G G
    assert heuristic_moves(GAME, s) == {take(G)}


def test_with_no_gem_wanted_a_mask_is_worth_most():
    s = new_game(4, dice=DICE)
    market(s)
    assert heuristic_moves(GAME, s) == {take(M)}


def test_it_stops_taking_after_four_objects():
    s = new_game(4, dice=DICE)
    market(s)
    play(s, take(M), take(M), take(P))
    assert s.stage == D_TAKING and heuristic_moves(GAME, s) == {take(P)}
    play(s, take(P))
    assert heuristic_moves(GAME, s) == {FINISH_TAKE}


def test_it_steals_a_pile_when_that_beats_taking():
    s = new_game(4, dice=DICE)
    market(s)
    play(s, take(M), take(P), take(M), FINISH_TAKE)  # seat 0 holds two masks and a purse
    assert s.actor == 1
    assert heuristic_moves(GAME, s) == {steal(3)}  # seat 0 is seat 1's third on
    s = new_game(4, dice=DICE)
    market(s)
    play(s, take(G), take(W), FINISH_TAKE)  # two gems nobody wants: not worth a steal
    assert heuristic_moves(GAME, s) == {take(M)}


def test_a_thief_returns_its_least_useful_object_and_only_one():
    s = new_game(4, dice=DICE)
    market(s)
    play(s, take(M), take(P), take(G), FINISH_TAKE, steal(3))  # seat 1 robs seat 0
    assert s.stage == D_RETURNING and s.actor == 1
    assert heuristic_moves(GAME, s) == {give_back(G)}
    play(s, give_back(G))
    assert heuristic_moves(GAME, s) == {FINISH_RETURN}
    assert give_back(M) in mask_of(s)
