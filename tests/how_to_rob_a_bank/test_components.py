"""How to Rob a Bank component tables: the rulebook's totals (spec 1, 2) and their check."""

import itertools

import numpy as np
import pytest

from heist_envs.how_to_rob_a_bank import GAME, rules
from heist_envs.how_to_rob_a_bank.components import (
    BANK,
    CARD_SLOTS,
    DECK_COUNTS,
    DECK_SIZE,
    GMOVE,
    MOVE,
    N_TILES,
    NUM_BAGS,
    SPACE_ROOM,
    SPACE_SIDE,
    STREET_CORNERS,
    TARGET_2_3,
    TARGET_4,
    TILE_ALARM,
    TILE_BADGES,
    TILE_BAGS,
    TILE_IN_PLAY,
    TILE_MASK,
    TILE_WALL,
    ComponentError,
    check_components,
    street_corner,
    vehicle_candidates,
)

from .positions import connected


@pytest.mark.parametrize(
    ("column", "guards", "bags", "target"), [(0, 2, 4, TARGET_2_3), (1, 3, 3, TARGET_4)]
)
def test_totals_by_player_count_spec_1(column, guards, bags, target):
    used = TILE_IN_PLAY[column].astype(bool)
    assert used.sum() == 9 and len(TILE_BAGS) == N_TILES == 10
    assert TILE_BADGES[used].sum() == guards
    assert TILE_BAGS[used].sum() == bags
    assert TILE_MASK[used].sum() == TILE_ALARM[used].sum() == 1
    assert NUM_BAGS - (target - 1) >= bags  # the token check of spec 4.5


def test_decks_walls_and_avenue_spec_2():
    assert (DECK_COUNTS.sum(axis=1) == DECK_SIZE).all()
    assert (TILE_WALL >= 0).sum() == 4
    assert len(SPACE_ROOM) == len(SPACE_SIDE) == 12
    assert STREET_CORNERS.tolist() == [[11, 0], [2, 3], [8, 9], [5, 6]]


def test_state_is_seeded_from_the_tables():
    s = GAME.new_state(4, 0)[0]
    assert (s.hand + s.aside + s.played)[:4].sum(axis=1).tolist() == [15] * 4


def modified(name, value):
    tables = {
        "tile_bags": TILE_BAGS,
        "tile_badges": TILE_BADGES,
        "tile_alarm": TILE_ALARM,
        "tile_mask": TILE_MASK,
        "tile_wall": TILE_WALL,
        "tile_in_play": TILE_IN_PLAY,
        "card_slots": CARD_SLOTS,
        "deck_counts": DECK_COUNTS,
        "space_room": SPACE_ROOM,
        "space_side": SPACE_SIDE,
    }
    tables[name] = value
    return tables


def with_entry(table, index, value):
    table = np.array(table)
    table[index] = value
    return table


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("deck_counts", with_entry(DECK_COUNTS, (1, 0), 4), "15 cards"),
        ("deck_counts", with_entry(DECK_COUNTS, (0, 0), 5), "15 cards"),
        ("tile_wall", with_entry(TILE_WALL, 0, 0), "4 tiles have a thick wall"),
        ("tile_wall", with_entry(TILE_WALL, 2, 7), "wall side"),
        ("tile_mask", with_entry(TILE_MASK, 1, 1), "one mask room"),
        ("tile_alarm", with_entry(TILE_ALARM, 1, 0), "one alarm room"),
        ("tile_badges", with_entry(TILE_BADGES, 9, 0), "3 guard badges"),
        ("tile_bags", with_entry(TILE_BAGS, 0, 5), "bags per round"),
        ("tile_in_play", with_entry(TILE_IN_PLAY, (0, 9), 1), "9 tiles are in play"),
        ("tile_bags", TILE_BAGS[:9], "10 entries"),
        ("card_slots", with_entry(CARD_SLOTS, (BANK, 0, 0), MOVE), "other side"),
        ("card_slots", with_entry(CARD_SLOTS, (1, 0, 0), GMOVE), "other side"),
        ("space_room", with_entry(SPACE_ROOM, 0, 4), "outer side"),
        ("space_room", with_entry(SPACE_ROOM, 1, 0), "must face 2 street"),
    ],
)
def test_swapped_tables_that_break_the_totals_raise_a_clear_error(name, value, message):
    with pytest.raises(ComponentError, match=message):
        check_components(**modified(name, value))


def test_swapped_tables_that_keep_the_totals_are_accepted():
    robber_deck = [4, 3, 2, 2, 1, 2, 1, 0]
    check_components(**modified("deck_counts", np.array([DECK_COUNTS[0]] + [robber_deck] * 3)))
    check_components(**modified("tile_wall", np.array([0, -1, 1, -1, 2, -1, 3, -1, -1, -1])))


def test_a_16_space_avenue_keeps_the_corner_rules_spec_2_5():
    """Corner squares (room -1) face no room; the candidates become the spaces beside it."""
    room = [-1, 0, 1, 2, -1, 2, 5, 8, -1, 8, 7, 6, -1, 6, 3, 0]
    side = [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3]
    check_components(**{**modified("space_room", np.array(room)), "space_side": np.array(side)})
    assert vehicle_candidates(room, 0) == (7, 9)
    assert vehicle_candidates(room, 1) == (10, -1)
    assert street_corner(room, 0) == (15, 1)


@pytest.mark.slow
def test_enclosure_fix_over_every_layout_spec_3_4():
    """All 9! orders of the 2-3 player tiles: about 20.9% need a fix, never more than two
    rotated tiles, and the bank is always connected afterwards."""
    s = GAME.new_state(3, 0)[0]
    tiles = np.flatnonzero(TILE_IN_PLAY[0])
    fixed = 0
    total = 0
    for order in itertools.permutations(tiles):
        s.tile[:] = order
        s.rotation[:] = 0
        s.wall[:] = TILE_WALL[s.tile]
        rules.fix_enclosure(s)
        turned = int((s.rotation != 0).sum())
        assert turned <= 2 and rules.is_connected(s)
        fixed += turned > 0
        total += 1
    assert round(100 * fixed / total, 1) == 20.9


def test_enclosure_fix_on_sampled_layouts_spec_3_4():
    for seed in range(300):
        s = GAME.new_state(2 + seed % 3, seed)[0]
        assert connected(s) and int((s.rotation != 0).sum()) <= 2
