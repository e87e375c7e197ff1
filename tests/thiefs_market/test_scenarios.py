"""Thief's Market: the 18 scenarios of spec section 10, each naming the rules it checks."""

import numpy as np
import pytest

from heist_envs.core.game import RUNNING, TERMINATED, TRUNCATED
from heist_envs.core.rng import rand_below
from heist_envs.thiefs_market import GAME, rules
from heist_envs.thiefs_market.actions import (
    END_TURN,
    EXIT_STRATEGY,
    FINISH_RETURN,
    FINISH_TAKE,
    GAUNTLET,
    LAA_REROLL_0,
    LAA_SKIP,
    PAY_DIE,
    PAY_GOLD,
    RETURN_PAWN,
    TAKE_ALL,
    TAKE_PAWN,
)
from heist_envs.thiefs_market.components import CARD_DECK, CARD_ICONS, DECK_KEPT, WISHLIST
from heist_envs.thiefs_market.state import (
    D_CHOOSE,
    D_RETURNING,
    D_TAKING,
    DISCARDED,
    EMPTY_SLOT,
    GAME_OVER,
    IN_CENTRE,
    P_LAA,
    P_MAIN,
    P_PAY,
    TRIMMED,
    UNOWNED,
)
from tests.thiefs_market.builders import (
    A_ROW,
    B_ROW,
    C_ROW,
    B,
    G,
    M,
    P,
    R,
    W,
    buy,
    card,
    card_id,
    check_invariants,
    convert,
    dice,
    end_turns,
    give,
    give_back,
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

TAKES = {take(f) for f in range(6)} | {TAKE_PAWN}


def rolled_faces(s, count):
    """The faces the record's RNG will roll next (a copy is rolled, not the record)."""
    twin = s.copy()
    return [rand_below(twin, 6) for _ in range(count)]


def test_scenario_1_setup_4_players_d30_d31():
    """Section 2.2 and 3: 11 dice, trimmed decks, row A dealt, 1 gold each; D30 seat 0 first;
    D31 Big Haul's icon is wishlist; every card in exactly one place."""
    s = new_game(4)
    assert s.centre.sum() == 11 and s.pile.sum() == 0 and s.pawn_loc == IN_CENTRE
    assert s.deck_size.tolist() == [8, 12, 11]
    assert (s.market[:5] >= 0).all() and (s.market[5:] == EMPTY_SLOT).all()
    assert s.newest_row == A_ROW
    assert s.gold[:4].tolist() == [1, 1, 1, 1] and s.infamy[:4].tolist() == [0, 0, 0, 0]
    assert s.first_player == 0 and s.actor == 0 and s.stage == D_CHOOSE and s.round_number == 1
    assert [(s.owner[np.equal(CARD_DECK, d)] == TRIMMED).sum() for d in range(3)] == [3, 7, 3]
    assert DECK_KEPT.tolist() == [13, 12, 11]
    check_invariants(s)
    assert CARD_ICONS.sum(axis=0).tolist() == [18, 4, 10, 9, 2, 7]
    assert CARD_ICONS[card("Big Haul"), WISHLIST] == 1


def test_scenario_2_basic_divide_3_players_d4_d9():
    """4.3: takes one object at a time (D4); the last seat may only take everything or
    steal (D9); the pawn holder purchases first and starts the next round."""
    s = new_game(3, dice=[2, 2, 2, 1, 2, 1])
    play(s, take(G), take(G), TAKE_PAWN, FINISH_TAKE)
    assert s.actor == 1 and s.stage == D_CHOOSE
    play(s, take(W), take(W), FINISH_TAKE)
    assert s.actor == 2
    assert mask_of(s) == {TAKE_ALL, steal(1), steal(2)}  # seat 0 has 3 objects, seat 1 has 2
    play(s, TAKE_ALL)
    assert s.pile[2].tolist() == [0, 0, 2, 1, 2, 1] and s.centre.sum() == 0
    assert s.stage == P_MAIN and s.first_player == 0 and s.actor == 0
    order = []
    for _ in range(3):
        order.append(int(s.actor))
        play(s, END_TURN)
    assert order == [0, 1, 2]
    assert s.round_number == 2 and s.stage == D_CHOOSE and s.actor == 0


def steal_example(variant_returns_red):
    s = new_game(3, dice=[2, 2, 2, 2, 1, 1])
    play(s, take(R), take(B), TAKE_PAWN, FINISH_TAKE)  # Erin
    centre = s.centre.copy()
    play(s, steal(2))  # Michael steals Erin's pile
    assert s.stage == D_RETURNING and s.steal_victim == 0 and s.pile[0].sum() == 0
    rng = s.rng
    if variant_returns_red:
        expected_face = rolled_faces(s, 1)[0]
        play(s, give_back(R))
        assert s.rng == rng, "nothing is rolled before FINISH_RETURN (D8)"
        play(s, FINISH_RETURN)
        centre[expected_face] += 1
        assert s.pile[1].tolist() == dice("B").tolist() and s.pawn_loc == 1
    else:
        play(s, RETURN_PAWN, FINISH_RETURN)
        assert s.rng == rng, "a returned pawn is never rolled (D7)"
        assert s.pawn_loc == IN_CENTRE
    assert s.centre.tolist() == centre.tolist()
    return s


def test_scenario_3_rulebook_steal_example_d2_d3_d6_d7_d8():
    """D6 whole pile moves; D7 the pawn may be returned, unrolled; D3 next actor clockwise
    from the thief; D2 the victim acts again later."""
    s = steal_example(variant_returns_red=False)
    assert s.actor == 2 and s.stage == D_CHOOSE
    assert take(G) in mask_of(s)  # seat 2 is not last: seat 0 also lacks a pile
    play(s, take(G), FINISH_TAKE)
    assert s.actor == 0 and TAKE_ALL in mask_of(s) and not mask_of(s) & TAKES


def test_scenario_3_variant_michael_returns_red_which_is_rerolled():
    s = steal_example(variant_returns_red=True)
    assert s.actor == 2


def test_scenario_4_steal_limits_d1_d7():
    """A pile of one object (the pawn alone, or one die) cannot be stolen; a thief returns at
    least one object and keeps at least one (8.1)."""
    s = new_game(3, dice=[3, 3, 2, 2, 0, 0])
    play(s, TAKE_PAWN, FINISH_TAKE)
    assert not mask_of(s) & {steal(1), steal(2)}
    play(s, take(G), FINISH_TAKE)
    assert mask_of(s) == {TAKE_ALL}
    s = new_game(3, dice=[3, 3, 2, 2, 0, 0])
    play(s, take(G), TAKE_PAWN, FINISH_TAKE, steal(2))
    assert mask_of(s) == {give_back(G), RETURN_PAWN}  # FINISH_RETURN masked before a return
    play(s, give_back(G))  # size 1 now: FINISH_RETURN is applied automatically
    assert s.stage == D_CHOOSE and s.pile[1].sum() == 0 and s.pawn_loc == 1 and s.actor == 2


def test_scenario_5_empty_centre_forces_a_steal_d5_d9_d10_d11():
    s = new_game(3, dice=[3, 3, 2, 2, 0, 0])
    for f, count in enumerate([3, 3, 2, 2]):
        for _ in range(count):
            GAME.apply(s, take(f))
    assert s.stage == D_TAKING and s.actor == 0
    play(s, TAKE_PAWN)  # the centre is empty: FINISH_TAKE is applied automatically (D10)
    assert s.actor == 1 and s.stage == D_CHOOSE
    assert mask_of(s) == {steal(2)}  # D9: nothing to take, so the only action is a steal
    play(s, steal(2))
    faces = rolled_faces(s, 4)
    play(s, RETURN_PAWN, give_back(G), give_back(G), give_back(W), give_back(B))
    assert s.stage == D_RETURNING and s.pile[1].sum() == 6
    play(s, FINISH_RETURN)
    assert s.pawn_loc == IN_CENTRE
    assert s.centre.tolist() == np.bincount(faces, minlength=6).tolist()
    assert s.actor == 2 and take(faces[0]) in mask_of(s)  # not last: seat 0 lacks a pile too
    play(s, TAKE_PAWN, FINISH_TAKE)
    assert s.actor == 0 and TAKE_ALL in mask_of(s)
    play(s, TAKE_ALL)
    assert s.takes == 3 and s.steals == 1 and s.stage == P_MAIN  # D11: exactly P takes


def test_scenario_6_lucky_animal_appendage_and_snapshot_timing_d12_d13_d14():
    s = new_game(3, dice=[3, 1, 1, 2, 2, 1], first_player=2)
    laa, minion = card("Lucky Animal Appendage"), card("Disgruntled Minion")
    give(s, 2, laa, minion)
    play(s, take(R), take(B), take(M), TAKE_PAWN, FINISH_TAKE)  # seat 2
    play(s, steal(2))  # seat 0 steals seat 2's pile {R, B, M, pawn}
    rng = s.rng
    play(s, give_back(B), give_back(M), FINISH_RETURN)
    assert s.rng == rng and s.centre.tolist() == [3, 1, 1, 1, 2, 1]  # D13: faces kept
    assert s.actor == 1
    play(s, take(G), take(G), take(G), take(B), take(P), take(P), take(M), FINISH_TAKE)
    assert s.actor == 2 and s.centre.tolist() == dice("WR").tolist()
    play(s, TAKE_ALL)
    assert s.snap_gem[2].tolist() == [0, 1, 0, 1] and s.snap_size[2] == 2
    assert s.stage == P_LAA and s.actor == 2
    assert mask_of(s) == {LAA_REROLL_0 + W, LAA_REROLL_0 + R, LAA_SKIP}
    x = rolled_faces(s, 1)[0]
    play(s, LAA_REROLL_0 + R)
    assert s.pile[2].tolist() == (dice("W") + dice("GWBRPM"[x])).tolist()
    assert s.snap_gem[2].tolist() == [0, 1, 0, 1]  # D12, D14: the snapshot is unchanged
    assert rules.allowed_buys(s, 2) == 2
    assert s.stage == P_MAIN and s.actor == 0  # then purchases start with the pawn holder
    s = new_game(3)
    give(s, 2, laa)
    purchases(s, {0: "GG", 1: "W"}, pawn=2)  # seat 2 holds only the pawn: no P_LAA (D14)
    assert s.stage == P_MAIN and s.actor == 2


def test_scenario_7_wicked_clutches_and_eyepatch():
    """5.7: +1 infamy per steal of the Clutches owner's pile; Eyepatch counts only the pawn
    holder at the end of Divide."""
    s = new_game(4, dice=[3, 3, 3, 2, 0, 0])
    give(s, 0, card("Wicked Clutches"))
    play(s, take(G), take(W), take(B), FINISH_TAKE)
    play(s, steal(3))  # seat 1 steals seat 0
    assert s.infamy[0] == 1
    play(s, give_back(G), FINISH_RETURN)
    play(s, steal(3))  # seat 2 steals seat 1 (W, B)
    play(s, give_back(W))
    assert s.actor == 3
    play(s, take(G), FINISH_TAKE)
    assert s.actor == 0
    play(s, take(G), take(W), FINISH_TAKE)
    assert s.actor == 1
    play(s, steal(3))  # seat 1 steals seat 0 again
    assert s.infamy[0] == 2
    play(s, give_back(G))
    assert s.actor == 0 and mask_of(s) & {TAKE_ALL}
    s = new_game(3, dice=[3, 3, 2, 2, 0, 0])
    eyepatch = card("Eyepatch of Command")
    give(s, 0, eyepatch)
    play(s, take(G), TAKE_PAWN, FINISH_TAKE, steal(2), give_back(G))  # seat 1 keeps the pawn
    play(s, take(G), FINISH_TAKE, TAKE_ALL)
    assert s.stage == P_MAIN and s.pawn_loc == 1 and s.infamy[0] == 0
    s = new_game(3)
    give(s, 0, eyepatch)
    purchases(s, {0: "G", 1: "W", 2: "B"}, pawn=0)
    assert s.infamy[0] == 1


def buyer_of_map_49(gold, pile="GRPP"):
    s = new_game(4)
    open_rows(s, C_ROW)
    put_in_market(s, C_ROW, 0, card_id(49))  # Treasure Map 1G 2R
    purchases(s, {0: pile, 1: "W", 2: "W", 3: "W"}, pawn=0)
    s.gold[0] = gold
    return s


@pytest.mark.parametrize("order", [(PAY_DIE, PAY_GOLD), (PAY_GOLD, PAY_DIE)])
def test_scenario_8_payment_legality_d15(order):
    s = buyer_of_map_49(gold=1)
    assert buy(C_ROW, 0) in mask_of(s)
    play(s, buy(C_ROW, 0))  # on G: PAY_GOLD is masked (the gold is needed for R): auto PAY_DIE
    assert s.stage == P_PAY and s.need.tolist() == [0, 0, 0, 2]
    assert mask_of(s) == {PAY_DIE, PAY_GOLD}
    play(s, order[0])  # the other way to pay the last R is then the only one: automatic
    assert s.stage == P_MAIN and s.owner[card_id(49)] == 0
    assert s.pile[0].tolist() == dice("PP").tolist() and s.gold[0] == 0


def test_scenario_8_payment_legality_d29_d32():
    assert buy(C_ROW, 0) not in mask_of(buyer_of_map_49(gold=0))  # purses never pay (D15)
    s = buyer_of_map_49(gold=2)
    play(s, buy(C_ROW, 0))
    assert s.need.tolist() == [1, 0, 0, 2] and mask_of(s) == {PAY_DIE, PAY_GOLD}
    play(s, PAY_DIE, PAY_GOLD, PAY_GOLD)
    assert s.owner[card_id(49)] == 0 and s.pile[0].tolist() == dice("RPP").tolist()
    # Nothing affordable: P_MAIN is still presented with END_TURN alone (D29).
    s = buyer_of_map_49(gold=0, pile="")
    assert s.stage == P_MAIN and s.actor == 0 and mask_of(s) == {END_TURN}
    # D32: an ability that could still change a die does not make a card affordable.
    s = new_game(4)
    stone, necklace = card("Philosopher's Stone"), card("Necklace")
    give(s, 0, stone)
    put_in_market(s, A_ROW, 1, necklace)  # 2W
    purchases(s, {0: "GW", 1: "B", 2: "B", 3: "B"}, pawn=0)
    s.gold[0] = 0
    assert buy(A_ROW, 1) not in mask_of(s)
    play(s, convert(G, W))
    assert buy(A_ROW, 1) in mask_of(s)
    s.pile[0] = dice("GW")  # the Stone is now used: the Necklace stays masked
    assert buy(A_ROW, 1) not in mask_of(s) and convert(G, W) not in mask_of(s)


def test_scenario_9_extra_purchases_d12_d17():
    s = new_game(4)
    minion, official = card("Disgruntled Minion"), card("Corrupt Official")
    tailor, pr_expert = card("Tailor"), card("Public Relations Expert")
    give(s, 0, minion)
    put_in_market(s, A_ROW, 0, tailor)  # 1R
    put_in_market(s, A_ROW, 1, official)  # 1W
    put_in_market(s, A_ROW, 2, pr_expert)  # 1G
    purchases(s, {0: "RW", 1: "B", 2: "B", 3: "B"}, pawn=0)
    s.gold[0] = 1
    assert rules.allowed_buys(s, 0) == 2
    play(s, buy(A_ROW, 0), PAY_DIE)  # pays the R die; the snapshot still holds R
    assert s.pile[0, R] == 0 and rules.allowed_buys(s, 0) == 2
    play(s, buy(A_ROW, 1), PAY_DIE)
    assert rules.allowed_buys(s, 0) == 3 and buy(A_ROW, 2) in mask_of(s)
    play(s, buy(A_ROW, 2))  # no G die: the gold pays by itself
    assert s.buys_made == 3 and s.gold[0] == 0
    # Without W in the snapshot, Corrupt Official adds nothing: BUY masked after 2.
    s = new_game(4)
    give(s, 0, minion)
    for pos, x in enumerate((tailor, official, pr_expert)):
        put_in_market(s, A_ROW, pos, x)
    purchases(s, {0: "R", 1: "B", 2: "B", 3: "B"}, pawn=0)
    s.gold[0] = 2
    play(s, buy(A_ROW, 0), PAY_DIE, buy(A_ROW, 1))
    assert s.buys_made == 2 and buy(A_ROW, 2) not in mask_of(s)
    # A die converted to W during Purchases does not create the purchase.
    s = new_game(4)
    give(s, 0, official, card("Philosopher's Stone"))
    purchases(s, {0: "G", 1: "B", 2: "B", 3: "B"}, pawn=0)
    play(s, convert(G, W))
    assert rules.allowed_buys(s, 0) == 1


def test_scenario_10_insurance_racket_d16():
    s = new_game(4)
    insurance, loyalty, tailor = (
        card("Insurance Racket"),
        card("Loyalty Program"),
        card("Tailor"),
    )
    open_rows(s, C_ROW)
    put_in_market(s, C_ROW, 0, insurance)
    put_in_market(s, C_ROW, 1, loyalty)
    put_in_market(s, A_ROW, 0, tailor)
    purchases(s, {0: "GWR", 1: "B", 2: "B", 3: "B"}, pawn=0)
    s.gold[0] = 0
    play(s, buy(C_ROW, 0))  # no waiver on Insurance Racket itself: all 3 gems are paid
    assert s.owner[insurance] == 0 and s.pile[0].sum() == 0 and s.stage == P_MAIN
    assert rules.allowed_buys(s, 0) == 2
    s.pile[0] = dice("GWB")
    assert buy(C_ROW, 1) in mask_of(s)
    play(s, buy(C_ROW, 1))  # only WAIVE(R) is legal: applied, then the dice pay by themselves
    assert s.owner[loyalty] == 0 and s.pile[0].sum() == 0 and s.stage == P_MAIN
    s.pile[0] = 0
    s.buys_made = 0
    play(s, buy(A_ROW, 0))  # Tailor (1R) with no dice and no gold: free
    assert s.owner[tailor] == 0 and s.gold[0] == 0 and s.stage == P_MAIN


def test_scenario_11_abilities_once_per_round_d26_d15():
    s = new_game(3)
    lab = card("Alchemical Lab")
    give(s, 0, lab)
    purchases(s, {0: "RR", 1: "G", 2: "G"}, pawn=0)
    play(s, convert(R, B))
    assert s.pile[0].tolist() == dice("RB").tolist() and s.used[lab] == 1
    assert convert(R, B) not in mask_of(s) and convert(R, G) not in mask_of(s)
    end_turns(s, 3)
    assert s.round_number == 2 and (s.used == 0).all()
    purchases(s, {0: "R", 1: "G", 2: "G"}, pawn=0)
    assert convert(R, B) in mask_of(s)
    # Exit Strategy: no limit per round.
    s = new_game(3)
    give(s, 0, card("Exit Strategy"))
    purchases(s, {0: "G", 1: "G", 2: "G"}, pawn=0)
    s.gold[0] = 3
    play(s, EXIT_STRATEGY, EXIT_STRATEGY, EXIT_STRATEGY)
    assert s.gold[0] == 0 and s.infamy[0] == 6 and EXIT_STRATEGY not in mask_of(s)
    # Gauntlet: the gold it gives pays at once.
    s = new_game(3)
    tailor = card("Tailor")
    give(s, 0, card("Gauntlet of Evil Intent"))
    put_in_market(s, A_ROW, 0, tailor)
    purchases(s, {0: "M", 1: "G", 2: "G"}, pawn=0)
    s.gold[0] = 0
    assert buy(A_ROW, 0) not in mask_of(s)
    play(s, GAUNTLET)
    assert s.gold[0] == 1 and s.pile[0, M] == 0
    play(s, buy(A_ROW, 0))  # PAY_GOLD is the only way: applied automatically
    assert s.owner[tailor] == 0 and s.gold[0] == 0
    # Bondsman R->P: the die gives 1 gold at the end of the round.
    s = new_game(3)
    give(s, 0, card("Bondsman"))
    purchases(s, {0: "R", 1: "G", 2: "G"}, pawn=0)
    play(s, to_purse(R))
    assert s.gold[0] == 1
    end_turns(s, 3)
    assert s.gold[0] == 2
    # A card bought this turn can be used this turn.
    s = new_game(3)
    put_in_market(s, A_ROW, 0, tailor)
    purchases(s, {0: "R", 1: "G", 2: "G"}, pawn=0)
    s.gold[0] = 1
    play(s, buy(A_ROW, 0))  # paid with the R die or gold: keep the die
    if s.stage == P_PAY:
        play(s, PAY_GOLD)
    assert spend(R) in mask_of(s)
    play(s, spend(R))
    assert s.infamy[0] == 1


def test_scenario_12_on_purchase_infamy_d18():
    s = new_game(4)
    noble, monger = card("Easily Impressed Noble"), card("Rumor-Monger")
    open_rows(s, C_ROW)
    give(s, 0, noble)
    put_in_market(s, B_ROW, 0, monger)  # 2G 1W
    put_in_market(s, C_ROW, 0, card_id(48))  # Treasure Map 2G 1B
    purchases(s, {0: "", 1: "B", 2: "B", 3: "B"}, pawn=0)
    s.gold[0] = 3
    play(s, buy(B_ROW, 0))  # all gold: +1 Rumor-Monger (G, itself included), +1 Noble (W)
    assert s.owner[monger] == 0 and s.gold[0] == 0 and s.infamy[0] == 2
    s.gold[0] = 3
    s.buys_made = 0
    play(s, buy(C_ROW, 0))  # +1 only: one per card, despite 2G
    assert s.infamy[0] == 3
    # The Insurance waiver of the W of The Heist (1G 1W) does not stop the Noble.
    s = new_game(4)
    heist, insurance = card("The Heist"), card("Insurance Racket")
    open_rows(s, C_ROW)
    give(s, 0, noble, insurance)
    put_in_market(s, C_ROW, 0, heist)
    purchases(s, {0: "G", 1: "B", 2: "B", 3: "B"}, pawn=0)
    s.gold[0] = 0
    play(s, buy(C_ROW, 0))  # only WAIVE(W) is payable: auto; the G die pays
    assert s.owner[heist] == 0
    assert s.infamy[0] == 1 + s.snap_size[0]  # Noble + The Heist's own gain


def test_scenario_13_big_haul_and_the_heist_d12():
    s = new_game(4)
    big_haul, heist = card("Big Haul"), card("The Heist")
    open_rows(s, C_ROW)
    put_in_market(s, C_ROW, 0, big_haul)  # 1G 1B
    put_in_market(s, C_ROW, 1, heist)
    purchases(s, {0: "GRP", 1: "W", 2: "B", 3: "B"}, pawn=0)
    assert s.snap_size[0] == 4
    s.gold[0] = 1
    play(s, buy(C_ROW, 0))
    assert s.pile[0].tolist() == dice("RP").tolist() and s.infamy[0] == 4  # not 3
    s = new_game(4)
    open_rows(s, C_ROW)
    put_in_market(s, C_ROW, 1, heist)
    purchases(s, {0: "GRP", 1: "W", 2: "B"}, pawn=3)  # seat 3's pile: the pawn alone
    assert s.snap_size[3] == 1 and s.actor == 3
    s.gold[3] = 2
    play(s, buy(C_ROW, 1))
    assert s.infamy[3] == 1


def potion_position(deck_b, newest=B_ROW, extra_cards=()):
    s = new_game(4)
    potion, dockhand = card("Unlabeled Potion"), card("Sticky-Fingered Dockhand")
    open_rows(s, newest)
    put_in_market(s, B_ROW, 0, potion)
    give(s, 0, dockhand, *extra_cards)
    set_deck(s, B_ROW, deck_b)
    purchases(s, {0: "BR", 1: "G", 2: "G", 3: "G"}, pawn=0)
    s.gold[0] = 0
    return s, potion


def test_scenario_14_unlabeled_potion_d20():
    brooch = card("Brooch")
    others = [card("Bookie"), card("Menacing Monocle")]
    s, potion = potion_position([brooch, *others], extra_cards=[card("Rumor-Monger")])
    market = s.market.copy()
    play(s, buy(B_ROW, 0))
    assert s.owner[potion] == DISCARDED and s.owner[brooch] == 0
    assert s.deck_size[B_ROW] == 2 and s.buys_made == 1
    assert s.infamy[0] == 1  # Dockhand for the Potion's B; Brooch's G triggers nothing
    market[B_ROW * 5] = EMPTY_SLOT  # the Potion's slot; the free card leaves no vacancy
    assert s.market.tolist() == market.tolist()
    s, potion = potion_position([])
    play(s, buy(B_ROW, 0))
    assert s.owner[potion] == DISCARDED and (s.owner == 0).sum() == 1  # the Dockhand only
    # With row C open, the gain comes from deck C; Big Haul gives its snap_size infamy.
    s, potion = potion_position([brooch], newest=C_ROW)
    big_haul = card("Big Haul")
    set_deck(s, C_ROW, [big_haul])
    play(s, buy(B_ROW, 0))
    assert s.owner[big_haul] == 0 and s.owner[brooch] == UNOWNED
    assert s.infamy[0] == 1 + s.snap_size[0]


def test_scenario_15_end_of_round_turn_in_d27():
    s = new_game(3)
    scales, estate = card("Imbalanced Scales"), card("Island Estate")
    give(s, 0, scales, estate)
    give(s, 1, card("Tailor"))
    purchases(s, {0: "PPPMM", 1: "M", 2: "G"}, pawn=2)
    end_turns(s, 3)
    assert s.gold[:3].tolist() == [1 + 4, 1, 1] and s.infamy[:3].tolist() == [3, 1, 0]
    assert s.pile.sum() == 0 and s.centre.sum() == 10
    assert s.first_player == 2 and s.actor == 2 and s.pawn_loc == IN_CENTRE
    s = new_game(3)
    give(s, 0, scales, estate)
    purchases(s, {0: "M", 1: "G", 2: "G"}, pawn=0)
    end_turns(s, 3)
    assert s.gold[0] == 1 and s.infamy[0] == 2


def test_scenario_16_market_progression_a_to_b_d21():
    s = new_game(3)
    last = s.deck[A_ROW, s.deck_size[A_ROW] - 1]
    set_deck(s, A_ROW, [last])
    row_a = s.market[:5].copy()
    purchases(s, {0: "G", 1: "G", 2: "G"}, pawn=0)
    for pos in (0, 2, 4):
        give(s, 0, row_a[pos])
    end_turns(s, 3)
    assert s.market[0] == last and s.deck_size[A_ROW] == 0
    assert s.market[2] == EMPTY_SLOT and s.market[4] == EMPTY_SLOT
    assert s.newest_row == B_ROW and s.deck_size[B_ROW] == 7
    assert (s.market[5:10] >= 0).all() and (s.market[10:] == EMPTY_SLOT).all()
    check_invariants(s)
    purchases(s, {0: "G", 1: "G", 2: "G"}, pawn=0)
    give(s, 1, s.market[1], s.market[6])
    end_turns(s, 3)
    assert s.market[1] == EMPTY_SLOT and s.market[6] >= 0 and s.deck_size[B_ROW] == 6


def game_end_position(c_cards_bought):
    s = new_game(3)
    open_rows(s, C_ROW)
    set_deck(s, C_ROW, [s.deck[C_ROW, 0]])
    purchases(s, {0: "PP", 1: "G", 2: "G"}, pawn=0)
    give(s, 1, s.market[0])
    for pos in range(c_cards_bought):
        give(s, 1, s.market[10 + pos])
    end_turns(s, 3)
    return s


def test_scenario_17_game_end_d22_d23():
    s = game_end_position(c_cards_bought=2)
    assert s.status == TERMINATED and s.stage == GAME_OVER and s.actor == -1
    assert s.gold[0] == 3  # turned in before the end
    assert s.market[10] >= 0 and s.market[11] == EMPTY_SLOT and s.deck_size[C_ROW] == 0
    s = game_end_position(c_cards_bought=1)
    assert s.status == RUNNING and s.deck_size[C_ROW] == 0 and (s.market[10:] >= 0).all()
    purchases(s, {0: "G", 1: "G", 2: "G"}, pawn=0)
    end_turns(s, 3)
    assert s.status == RUNNING and s.round_number == 3
    s = new_game(3, max_rounds=2)
    for _ in range(2):
        purchases(s, {0: "G", 1: "G", 2: "G"}, pawn=0)
        end_turns(s, 3)
    assert s.status == TRUNCATED and s.stage == GAME_OVER
    out = np.ones(3, np.float32)
    GAME.returns(s, out)
    assert out.tolist() == [0, 0, 0]


def scored(owners=None, gold=(0, 0, 0, 0), infamy=(0, 0, 0, 0)):
    """A finished 4-player game with these cards (seat -> card indices), gold and infamy."""
    s = new_game(4)
    for seat, cards in (owners or {}).items():
        give(s, seat, *cards)
    s.gold[:4] = gold
    s.infamy[:4] = infamy
    s.status = TERMINATED
    return GAME.scores(s), s


HENCHMEN_A = [
    "Bondsman",
    "Coercion Coordinator",
    "Corrupt Official",
    "Disgruntled Minion",
    "Fence",
    "Guy In a Trenchcoat",
    "Local Celebrity",
    "Pawnbroker",
    "Public Relations Expert",
    "Tailor",
]


def henchmen(first, last):
    """Henchman cards with one icon each."""
    return [card(name) for name in HENCHMEN_A[first:last]]


ASSISTANT = "Executive Assistant"  # shows 2 henchman icons


@pytest.mark.parametrize(
    ("owners", "counts", "awards"),
    [
        ({0: [ASSISTANT, 0, 1], 1: [2, 3, 4, 5], 2: [6, 7]}, [4, 4, 2, 0], [2, 2, 0, 0]),
        ({0: [0, 1, 2, 3, 4], 1: [5, 6, 7], 2: [ASSISTANT, 8]}, [5, 3, 3, 0], [3, 0, 0, 0]),
        ({0: [0, 1, 2, 3, 4], 1: [5, 6, 7]}, [5, 3, 0, 0], [3, 1, 0, 0]),
        ({}, [0, 0, 0, 0], [0, 0, 0, 0]),
    ],
)
def test_scenario_18_henchman_majority_d25(owners, counts, awards):
    cards = {
        seat: [card(HENCHMEN_A[i] if i != ASSISTANT else ASSISTANT) for i in items]
        for seat, items in owners.items()
    }
    result, _ = scored(cards)
    assert result["henchmen"] == counts
    assert result["henchman_award"] == awards


@pytest.mark.parametrize(
    ("gold", "awards"), [((2, 2, 1, 0), [2, 2, 0, 0]), ((0, 0, 0, 0), [0, 0, 0, 0])]
)
def test_scenario_18_gold_majority_d25(gold, awards):
    result, _ = scored(gold=gold)
    assert result["gold_award"] == awards


def test_scenario_18_card_scoring_d24():
    nearby, concealed = card("Nearby Safehouse"), card("Concealed Safehouse")
    assert scored({0: [nearby, concealed]})[0]["card_vp"][0] == 6
    assert scored({0: [concealed]})[0]["card_vp"][0] == 2
    wands = [card("Alchemical Lab"), card("Glamer"), card("Philosopher's Stone")]
    golem = card("Collecting Golem")
    assert scored({0: [golem, *wands, card("Shadowy Hood")]})[0]["card_vp"][0] == 6 + 2
    maps = [card_id(48), card_id(49)]
    assert scored({0: maps})[0]["card_vp"][0] == 14
    assert scored({0: maps[:1], 1: maps[1:]})[0]["card_vp"][:2] == [5, 5]
    loyalty = card("Loyalty Program")
    seven = [
        card(name)
        for name in ("Alchemical Lab", "Glamer", "Philosopher's Stone", "Necklace")
        + ("Shadowy Hood", "Brooch", "Crown")
    ]
    assert scored({0: [loyalty, *seven]})[0]["card_vp"][0] == 7 + 2 + 2 + 3 + 6
    result, _ = scored({0: [card("Political Campaign")]}, infamy=(9, 0, 0, 0))
    assert result["card_vp"][0] == 4 and result["score"][0] == 4 + 9


def test_scenario_18_final_ties_d28():
    out = np.zeros(4, np.float32)
    # 30 vs 30 on cards: the seat with more cards wins.
    result, s = scored({0: [card("Alchemical Lab")]}, infamy=(30, 30, 0, 0))
    assert result["score"][:2] == [30, 30]
    GAME.returns(s, out)
    assert out.tolist() == [1, -1, -1, -1]
    # Same cards: more tokens (infamy + gold) wins.
    result, s = scored(
        {0: [card("Necklace")], 1: [card("Menacing Monocle")]}, infamy=(28, 27, 0, 0)
    )
    assert result["score"][:2] == [30, 30] and result["tokens"][:2] == [28, 27]
    GAME.returns(s, out)
    assert out.tolist() == [1, -1, -1, -1]
    # Same again: a shared win.
    result, s = scored(infamy=(30, 30, 0, 0))
    GAME.returns(s, out)
    assert out.tolist() == [1, 1, -1, -1]
