"""Art Robbery's heuristic, rule of thumb by rule of thumb: each test builds a position, names
the move the heuristic must play and the one it must not."""

from heist_envs.art_robbery import GAME
from heist_envs.art_robbery.actions import GIVE_DOG, GIVE_TOKEN, TAKE_SLOT_0
from heist_envs.art_robbery.components import (
    BOSS_CARD,
    BOSS_SLOT,
    GREEDY_THIEF_CARD,
    GUARD_DOG_CARD,
)
from heist_envs.art_robbery.state import BOX, CENTRE, DOG, NOBODY, TOKEN
from tests.helpers import heuristic_moves, play

# Cards and raid-1 token slots: slots 0, 1 are 0s with an alibi dot, 2, 3 are 1s, 4 a 2, 5 a 3,
# 6 a 4, 7 a 5 and 8 the Boss token.
N0, N1, N2, N3, N4, N5 = range(6)
ZERO, ONE, OTHER_ONE, TWO, THREE, FOUR, FIVE = 0, 2, 3, 4, 5, 6, 7


def position(hand, tokens=(), raid=0, earlier=(), dog=NOBODY):
    """Three players, seat 0 to play ``hand``: the raid's tokens in the centre but ``tokens``
    ((slot, holder) pairs; BOX for the box), earlier raids' tokens in the box but raid 1's
    ``earlier`` ((slot, holder) pairs), the Guard Dog with ``dog``."""
    s = GAME.new_state(3, 0)[0]
    s.raid = raid
    s.token_loc[:raid] = BOX
    s.token_loc[raid] = CENTRE
    for slot, holder in earlier:
        s.token_loc[0, slot] = holder
    for slot, holder in tokens:
        s.token_loc[raid, slot] = holder
    s.dog = dog
    s.hands[0] = 0
    for card in hand:
        s.hands[0, card] += 1
    return s


def take(slot):
    return TAKE_SLOT_0 + slot


def test_alibi_dots_outweigh_points_while_the_player_may_end_with_the_fewest():
    # nobody has an alibi yet: the 0 token's dot is worth more than the 3 token's points
    s = position([N0, N3, N3, N3, N3])
    assert heuristic_moves(GAME, s) == {N0}


def test_points_outweigh_alibi_dots_once_the_player_leads_in_alibis():
    # seat 0 holds raid 1's two dotted 0s: two dots ahead, a raid-2 0 token is worth little
    s = position([N0, N3, N3, N3, N3], raid=1, earlier=[(0, 0), (1, 0)])
    assert heuristic_moves(GAME, s) == {N3}


def test_without_a_4_or_5_the_boss_token_is_worth_less_than_a_4():
    s = position([GREEDY_THIEF_CARD] * 5, tokens=[(k, 1) for k in (0, 1, 2, 3, 4, 5, FIVE)])
    play(GAME, s, GREEDY_THIEF_CARD)
    assert s.phase == TOKEN
    assert heuristic_moves(GAME, s) == {take(FOUR)}


def test_with_a_4_or_5_the_boss_token_is_kept_so_it_is_taken_first():
    tokens = [(k, 1) for k in (0, 1, 2, 3, 4, 5)] + [(FIVE, 0)]
    s = position([GREEDY_THIEF_CARD] * 5, tokens=tokens)
    play(GAME, s, GREEDY_THIEF_CARD)
    assert heuristic_moves(GAME, s) == {take(BOSS_SLOT)}


def test_the_holder_of_the_boss_token_takes_the_4_that_keeps_it():
    # a dotted 0 and the 4 would be worth the same, but the 4 keeps the Boss token
    tokens = [(k, 1) for k in (1, 2, 3, 4, 5, FIVE)] + [(BOSS_SLOT, 0)]
    s = position([GREEDY_THIEF_CARD] * 5, tokens=tokens)
    play(GAME, s, GREEDY_THIEF_CARD)
    assert heuristic_moves(GAME, s) == {take(FOUR)}


def test_a_steal_is_aimed_at_the_leader():
    # both 1s are held, one by each rival; seat 1 leads with the 5 too
    s = position([N1] * 5, tokens=[(ONE, 1), (OTHER_ONE, 2), (FIVE, 1)])
    play(GAME, s, N1)
    assert s.phase == TOKEN
    assert heuristic_moves(GAME, s) == {take(ONE)}


def test_a_steal_from_the_guard_dogs_holder_counts_half():
    # the leader holds the Guard Dog, which it may give instead: the other rival is robbed
    s = position([N1] * 5, tokens=[(ONE, 1), (OTHER_ONE, 2), (FIVE, 1)], dog=1)
    play(GAME, s, N1)
    assert heuristic_moves(GAME, s) == {take(OTHER_ONE)}


def test_a_card_that_takes_nothing_is_discarded_the_least_useful_first():
    # every token is seat 0's own: no card takes anything; the 1 goes, never the Greedy Thief
    # or the Boss card
    s = position([N1, N2, N4, BOSS_CARD, GREEDY_THIEF_CARD], tokens=[(k, 0) for k in range(9)])
    assert heuristic_moves(GAME, s) == {N1}


def test_the_guard_dog_goes_to_save_a_token_worth_a_point_more():
    # seat 0 plays its 5 to steal seat 1's 5: seat 1 gives the Guard Dog instead
    s = position([N5] * 5, tokens=[(FIVE, 1)], dog=1)
    play(GAME, s, N5)
    assert s.phase == DOG and s.actor == 1
    assert heuristic_moves(GAME, s) == {GIVE_DOG}


def test_the_guard_dog_is_kept_when_the_token_is_worth_little():
    s = position([N1] * 5, tokens=[(ONE, 1), (OTHER_ONE, BOX)], dog=1)
    play(GAME, s, N1)
    assert s.phase == DOG and s.actor == 1
    assert heuristic_moves(GAME, s) == {GIVE_TOKEN}


def test_the_guard_dog_card_takes_the_pawn_back_when_the_player_holds_loot():
    # the dog would protect seat 0's loot; its 1s take nothing (seat 0 holds both 1 tokens)
    tokens = [(ONE, 0), (OTHER_ONE, 0), (FOUR, 0), (FIVE, 0)]
    s = position([GUARD_DOG_CARD, N1, N1, N1, N1], tokens=tokens, dog=2)
    assert heuristic_moves(GAME, s) == {GUARD_DOG_CARD}
