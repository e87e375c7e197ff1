"""Thief's Market's card table (spec 2.3-2.5): rulebook totals, and clear errors for
inconsistent card data."""

import numpy as np
import pytest

from heist_envs.thiefs_market.components import (
    CARD_COST,
    CARD_DECK,
    CARD_ICONS,
    CARD_NAMES,
    CARD_TABLE,
    CARD_VP,
    CONVERT_DIE,
    CONVERTER,
    DICE_BY_PLAYERS,
    EFFECT,
    EXTRA_BUY_CARDS,
    GOLD_FOR_INFAMY,
    MASK,
    PA,
    PB,
    RED,
    SAFEHOUSE,
    SPENDER,
    VP,
    card_arrays,
    parse_cost,
    validate_card_table,
)


def test_deck_sizes_icons_and_dice_match_the_rulebook():
    assert np.bincount(CARD_DECK).tolist() == [16, 19, 14]
    assert CARD_ICONS.sum(axis=0).tolist() == [18, 4, 10, 9, 2, 7]
    assert DICE_BY_PLAYERS[3:].tolist() == [10, 11, 13]
    assert len(CARD_TABLE) == 49 and len(set(CARD_NAMES)) == 48  # two Treasure Maps


def test_card_rows_spot_checks_against_the_spec_table():
    row = {c.id: c for c in CARD_TABLE}
    assert (row[19].name, row[19].deck, row[19].vp) == ("Brooch", "B", 3)
    assert CARD_COST[19 - 1].tolist() == [1, 0, 0, 1]
    assert CARD_COST[44 - 1].tolist() == [1, 1, 1, 1] and CARD_NAMES[43] == "Loyalty Program"
    assert CARD_COST[49 - 1].tolist() == [1, 0, 0, 2] and CARD_COST[48 - 1].tolist() == [2, 0, 1, 0]
    assert CARD_VP.tolist().count(0) == 41 and sorted(CARD_VP[CARD_VP > 0]) == [
        2,
        2,
        3,
        3,
        4,
        4,
        6,
        6,
    ]
    assert (EFFECT[CARD_VP > 0] == VP).all()
    assert CONVERTER[RED].tolist() == [0, 0, 0, -1, 1, -1]  # Alchemical Lab, Bondsman
    assert SPENDER.tolist() == [13, 8, 2, 15, -1, 25] and SPENDER[MASK] == 25
    assert sorted(CARD_NAMES[x] for x in EXTRA_BUY_CARDS) == [
        "Corrupt Official",
        "Disgruntled Minion",
        "Executive Assistant",
        "Guy In a Trenchcoat",
    ]


def test_card_arrays_are_built_from_the_table():
    deck, cost, icons, vp, effect, pa, pb = card_arrays(CARD_TABLE)
    assert (deck == CARD_DECK).all() and (cost == CARD_COST).all() and (icons == CARD_ICONS).all()
    assert (vp == CARD_VP).all() and (effect == EFFECT).all() and (pa == PA).all()
    assert (pb == PB).all()


def modified(index, **changes):
    table = list(CARD_TABLE)
    table[index] = table[index]._replace(**changes)
    return table


def test_the_default_table_is_valid():
    validate_card_table(CARD_TABLE)


@pytest.mark.parametrize(
    ("table", "message"),
    [
        (CARD_TABLE[:48], "needs 49 rows"),
        (modified(0, id=7), "id must be 1"),
        (modified(0, deck="D"), "deck must be one of"),
        (modified(0, deck="B"), "deck sizes A/B/C"),
        (modified(10, cost="2X"), "bad cost"),
        (modified(10, cost=""), "costs at least one gem"),
        (modified(10, icons="hat"), "unknown icon"),
        (modified(10, icons="thief"), "icon totals"),
        (modified(10, vp=0), "positive VP"),
        (modified(0, vp=2), "only VP cards print VP"),
        (modified(0, effect=42), "unknown effect code"),
        (modified(0, pb=0b1000), "to-set pb of other faces"),
        (modified(0, pa=MASK, pb=0b1), "turn a gem into gems or purse"),
        (modified(12, pa=RED, pb=0b0111), "two cards convert"),
        (modified(2, pa=4), "gem colour pa"),
        (modified(25, pa=RED), "mask die"),
        (modified(38, pa=0), "GOLD_FOR_INFAMY needs"),
        (modified(41, pb=2), "waives pb = 1"),
        (modified(9, icons="tools"), "its own building icon"),
        (modified(47, icons="tools"), "its own compass icon"),
        (modified(36, pa=0), "VP per unit"),
        (modified(23, pa=1), "takes no parameters"),
        (modified(3, pb=1), "takes no pb"),
        (modified(15, pa=1), "two cards spend"),
        (modified(37, effect=GOLD_FOR_INFAMY, vp=0, pa=1, pb=2), "at most one GOLD_FOR_INFAMY"),
    ],
)
def test_inconsistent_card_data_raises_a_clear_error(table, message):
    with pytest.raises(ValueError, match=message):
        validate_card_table(table)


def test_cost_parsing():
    assert parse_cost("1W 2R") == [0, 1, 0, 2]
    assert parse_cost("1G 1W 1B 1R") == [1, 1, 1, 1]
    with pytest.raises(ValueError, match="gems G, W, B, R"):
        parse_cost("1P")


def test_effect_parameters_follow_the_spec_codes():
    assert all(EFFECT[x] == SAFEHOUSE for x in (9, 19, 24, 30))
    assert [(PA[x], PB[x]) for x in (9, 19, 24, 30)] == [(1, 2), (2, 4), (2, 4), (2, 4)]
    assert [int(PB[x]) for x in range(49) if EFFECT[x] == CONVERT_DIE] == [
        0b0111,
        0b10000,
        0b10000,
        0b1011,
        0b10000,
        0b1110,
        0b10000,
        0b1101,
        0b1111,
    ]
