"""Thief's Market: one test per card effect code (spec 2.5 and section 5), over every card
that carries it."""

import numpy as np
import pytest

from heist_envs.core.game import TERMINATED
from heist_envs.thiefs_market import GAME, rules
from heist_envs.thiefs_market.actions import (
    EXIT_STRATEGY,
    FINISH_RETURN,
    FINISH_TAKE,
    GAUNTLET,
    LAA_REROLL_0,
    LAA_SKIP,
    TAKE_ALL,
)
from heist_envs.thiefs_market.components import (
    BONUS_GOLD_ON_TURN_IN,
    BONUS_INFAMY_ON_TURN_IN,
    CARD_COST,
    CARD_ICONS,
    CARD_NAMES,
    CARD_VP,
    CONVERT_DIE,
    EFFECT,
    EXTRA_BUY_AND_DISCOUNT,
    EXTRA_BUY_IF_PILE_HAS,
    FACE_CODES,
    GAIN_TOP_CARD,
    GOLD_FOR_INFAMY,
    HENCHMAN,
    INFAMY_EQ_PILE_SIZE,
    INFAMY_IF_PAWN,
    INFAMY_ON_BUY_WITH,
    INFAMY_WHEN_STOLEN,
    LUCKY_APPENDAGE,
    PA,
    PB,
    SAFEHOUSE,
    SPEND_DIE_FOR_GOLD,
    SPEND_DIE_FOR_INFAMY,
    TREASURE_MAP,
    VP,
    VP_PER_INFAMY_PAIR,
    VP_PER_OTHER_CARD,
    VP_PER_WAND_PAIR,
)
from heist_envs.thiefs_market.state import DISCARDED, P_LAA, P_MAIN
from tests.thiefs_market.builders import (
    A_ROW,
    B_ROW,
    B,
    G,
    M,
    P,
    R,
    W,
    buy,
    card,
    convert,
    dice,
    divide,
    end_turns,
    give,
    give_back,
    jeweller,
    mask_of,
    new_game,
    open_rows,
    play,
    purchases,
    put_in_market,
    set_deck,
    spend,
    steal,
    take,
    to_purse,
)


def cards_with(code):
    return [x for x in range(49) if EFFECT[x] == code]


def named(code):
    return pytest.mark.parametrize("x", cards_with(code), ids=lambda x: CARD_NAMES[x])


def points(owned, seat=0, infamy=0, others=None):
    """Card VP of ``seat`` owning ``owned`` in a finished 4-player game."""
    s = new_game(4)
    give(s, seat, *owned)
    for other, cards in (others or {}).items():
        give(s, other, *cards)
    s.infamy[seat] = infamy
    s.status = TERMINATED
    return GAME.scores(s)["card_vp"][seat]


def conversion_action(from_face, to_face):
    if from_face == P:
        return jeweller(to_face)
    if to_face == P:
        return to_purse(from_face)
    return convert(from_face, to_face)


@named(VP)
def test_effect_0_vp_scores_the_printed_value(x):
    assert points([x]) == CARD_VP[x] > 0


@named(CONVERT_DIE)
def test_effect_1_convert_die_turns_one_die_once_per_round(x):
    from_face = int(PA[x])
    targets = [f for f in range(6) if PB[x] >> f & 1]
    for to_face in targets:
        s = new_game(3)
        purchases(s, {0: FACE_CODES[from_face] * 2, 1: "G", 2: "G"}, pawn=0)
        action = conversion_action(from_face, to_face)
        assert action not in mask_of(s)  # only the owner may use it
        give(s, 0, x)
        assert {conversion_action(from_face, t) for t in targets} <= mask_of(s)
        play(s, action)
        expected = dice(FACE_CODES[from_face] + FACE_CODES[to_face])
        assert s.pile[0].tolist() == expected.tolist() and s.used[x] == 1
        assert not {conversion_action(from_face, t) for t in targets} & mask_of(s)


@named(SPEND_DIE_FOR_INFAMY)
def test_effect_2_spend_die_for_infamy(x):
    c = int(PA[x])
    s = new_game(3)
    give(s, 0, x)
    purchases(s, {0: FACE_CODES[c] * 2, 1: "G", 2: "G"}, pawn=0)
    centre = s.centre[c]
    play(s, spend(c))
    assert s.infamy[0] == PB[x] == 1 and s.pile[0, c] == 1 and s.centre[c] == centre + 1
    assert spend(c) not in mask_of(s)


@named(SPEND_DIE_FOR_GOLD)
def test_effect_3_spend_die_for_gold_gauntlet(x):
    s = new_game(3)
    give(s, 0, x)
    purchases(s, {0: "MM", 1: "G", 2: "G"}, pawn=0)
    play(s, GAUNTLET)
    assert s.gold[0] == 1 + PB[x] and s.pile[0, M] == 1 and GAUNTLET not in mask_of(s)
    end_turns(s, 3)
    assert s.infamy[0] == 1  # only the mask die left in the pile is turned in


@named(GOLD_FOR_INFAMY)
def test_effect_4_gold_for_infamy_exit_strategy(x):
    s = new_game(3)
    give(s, 0, x)
    purchases(s, {0: "", 1: "G", 2: "G"}, pawn=0)
    s.gold[0] = 2
    play(s, EXIT_STRATEGY, EXIT_STRATEGY)
    assert s.gold[0] == 0 and s.infamy[0] == 4 and EXIT_STRATEGY not in mask_of(s)


@named(EXTRA_BUY_IF_PILE_HAS)
def test_effect_5_extra_buy_if_the_snapshot_had_the_colour(x):
    c = int(PA[x])
    s = new_game(3)
    give(s, 0, x)
    purchases(s, {0: FACE_CODES[c], 1: "G", 2: "G"}, pawn=0)
    assert rules.allowed_buys(s, 0) == 2
    purchases(s, {0: "P", 1: "G", 2: "G"}, pawn=0)
    assert rules.allowed_buys(s, 0) == 1


@named(EXTRA_BUY_AND_DISCOUNT)
def test_effect_6_insurance_racket_extra_buy_and_one_gem_waived(x):
    s = new_game(3)
    give(s, 0, x)
    put_in_market(s, A_ROW, 0, card("Necklace"))  # 2W
    purchases(s, {0: "W", 1: "G", 2: "G"}, pawn=0)
    s.gold[0] = 0
    assert rules.allowed_buys(s, 0) == 1 + PA[x] == 2
    play(s, buy(A_ROW, 0))
    assert s.owner[card("Necklace")] == 0 and s.pile[0].sum() == 0


@named(INFAMY_ON_BUY_WITH)
def test_effect_7_infamy_on_buying_a_card_with_the_colour(x):
    c = int(PA[x])
    s = new_game(3)
    give(s, 0, x)
    with_colour = next(y for y in range(16) if CARD_COST[y, c] and y != x)
    without = next(y for y in range(16) if not CARD_COST[y, c] and y != x)
    put_in_market(s, A_ROW, 0, with_colour)
    put_in_market(s, A_ROW, 1, without)
    purchases(s, {0: "", 1: "G", 2: "G"}, pawn=0)
    s.gold[0] = 9
    play(s, buy(A_ROW, 1))
    assert s.infamy[0] == 0
    s.buys_made = 0
    play(s, buy(A_ROW, 0))
    assert s.infamy[0] == 1


@named(INFAMY_IF_PAWN)
def test_effect_8_infamy_if_holding_the_pawn_at_the_end_of_divide(x):
    s = new_game(3)
    give(s, 1, x)
    purchases(s, {0: "G", 1: "W", 2: "B"}, pawn=1)
    assert s.infamy[:3].tolist() == [0, 1, 0]
    purchases(s, {0: "G", 1: "W", 2: "B"}, pawn=2)
    assert s.infamy[:3].tolist() == [0, 1, 0]


@named(INFAMY_WHEN_STOLEN)
def test_effect_9_infamy_each_time_the_pile_is_stolen(x):
    s = new_game(3)
    give(s, 0, x)
    divide(s, "GGGWWWBBRR")
    play(s, take(G), take(W), FINISH_TAKE, steal(2))
    assert s.infamy[0] == 1 and s.infamy[1] == 0


@named(LUCKY_APPENDAGE)
def test_effect_10_lucky_appendage_keeps_returned_faces_and_offers_a_reroll(x):
    s = new_game(3)
    give(s, 0, x)
    divide(s, "GGGWWWBBRR")
    play(s, take(G), take(W), take(B), take(R), FINISH_TAKE, steal(2))
    rng = s.rng
    play(s, give_back(G), give_back(W), FINISH_RETURN)
    assert s.rng == rng and s.centre[G] == 3 and s.centre[W] == 3
    play(s, take(B), FINISH_TAKE, TAKE_ALL)
    assert s.stage == P_LAA and s.actor == 0 and LAA_SKIP in mask_of(s)
    assert {a - LAA_REROLL_0 for a in mask_of(s) if a != LAA_SKIP} == {
        f for f in range(6) if s.pile[0, f]
    }
    play(s, LAA_SKIP)
    assert s.stage == P_MAIN


@named(BONUS_GOLD_ON_TURN_IN)
def test_effect_11_one_bonus_gold_when_turning_in_purses(x):
    s = new_game(3)
    give(s, 0, x)
    purchases(s, {0: "PP", 1: "PP", 2: "G"}, pawn=0)
    end_turns(s, 3)
    assert s.gold[:3].tolist() == [1 + 2 + 1, 1 + 2, 1]


@named(BONUS_INFAMY_ON_TURN_IN)
def test_effect_12_one_bonus_infamy_when_turning_in_masks(x):
    s = new_game(3)
    give(s, 0, x)
    purchases(s, {0: "MM", 1: "MM", 2: "G"}, pawn=0)
    end_turns(s, 3)
    assert s.infamy[:3].tolist() == [2 + 1, 2, 0]


@named(GAIN_TOP_CARD)
def test_effect_13_gain_top_card_unlabeled_potion(x):
    s = new_game(3)
    open_rows(s, B_ROW)
    put_in_market(s, B_ROW, 0, x)
    top = card("Bookie")
    set_deck(s, B_ROW, [top, card("Brooch")])
    purchases(s, {0: "BR", 1: "G", 2: "G"}, pawn=0)
    s.gold[0] = 0
    play(s, buy(B_ROW, 0))
    assert s.owner[x] == DISCARDED and s.owner[top] == 0 and s.deck_size[B_ROW] == 1


@named(INFAMY_EQ_PILE_SIZE)
def test_effect_14_infamy_equal_to_the_end_of_divide_pile(x):
    s = new_game(3)
    open_rows(s, 2)
    put_in_market(s, 2, 0, x)
    purchases(s, {0: "GBWWP", 1: "G", 2: "G"}, pawn=0)
    s.gold[0] = 0
    play(s, buy(2, 0))
    assert s.owner[x] == 0 and s.infamy[0] == 6


@named(SAFEHOUSE)
def test_effect_15_safehouse_counts_building_icons(x):
    assert points([x]) == PA[x]
    other = next(y for y in cards_with(SAFEHOUSE) if y != x)
    assert points([x, other]) == PB[x] + PB[other]


@named(VP_PER_WAND_PAIR)
def test_effect_16_vp_per_pair_of_wand_icons(x):
    wands = [y for y in range(49) if CARD_ICONS[y, 2] and y != x and EFFECT[y] != VP]
    assert points([x]) == 0
    assert points([x, wands[0]]) == PA[x]
    assert points([x, *wands[:2]]) == PA[x]
    assert points([x, *wands[:3]]) == 2 * PA[x]


@named(VP_PER_OTHER_CARD)
def test_effect_17_vp_per_other_card_owned(x):
    others = [card("Alchemical Lab"), card("Glamer"), card("Bookie")]
    assert points([x]) == 0
    assert points([x, *others]) == 3 * PA[x]


@named(VP_PER_INFAMY_PAIR)
def test_effect_18_vp_per_two_infamy(x):
    assert points([x], infamy=9) == 4 * PA[x]
    assert points([x], infamy=1) == 0


@named(TREASURE_MAP)
def test_effect_19_treasure_map_loses_value_to_a_rival_compass(x):
    other = next(y for y in cards_with(TREASURE_MAP) if y != x)
    assert points([x]) == PA[x] == 7
    assert points([x], others={2: [other]}) == PB[x] == 5
    assert points([x, other]) == 14


def test_every_effect_code_has_a_test_and_a_card():
    codes = set(EFFECT.tolist())
    assert codes == set(range(20))
    tested = {
        int(name.split("_")[2])
        for name in globals()
        if name.startswith("test_effect_") and name.split("_")[2].isdigit()
    }
    assert tested == codes


def test_henchman_icons_count_executive_assistant_twice():
    assert CARD_ICONS[card("Executive Assistant"), HENCHMAN] == 2
    assert np.count_nonzero(CARD_ICONS[:, HENCHMAN]) == 17
