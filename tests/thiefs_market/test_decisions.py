"""Thief's Market: one test per decision D1-D33 of spec section 9, named after it."""

import numpy as np

from heist_envs.core.game import TERMINATED, TRUNCATED
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
from heist_envs.thiefs_market.components import CARD_DECK, CARD_ICONS, WISHLIST
from heist_envs.thiefs_market.observation import LAYOUT
from heist_envs.thiefs_market.state import (
    D_CHOOSE,
    D_RETURNING,
    D_TAKING,
    DISCARDED,
    EMPTY_SLOT,
    IN_CENTRE,
    P_LAA,
    P_MAIN,
    P_PAY,
    P_WAIVE,
    TRIMMED,
    UNOWNED,
)
from tests.thiefs_market.builders import (
    A_ROW,
    B_ROW,
    C_ROW,
    B,
    G,
    R,
    W,
    buy,
    card,
    check_invariants,
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
    waive,
)

TAKES = {take(f) for f in range(6)} | {TAKE_PAWN}
STEALS = {steal(k) for k in range(1, 5)}


def test_d1_a_pawn_alone_is_a_pile_that_cannot_be_stolen():
    s = new_game(3)
    divide(s, "GGGWWWBBRR")
    play(s, TAKE_PAWN, FINISH_TAKE)
    assert rules.pile_size(s, 0) == 1 and s.actor == 1
    assert not mask_of(s) & STEALS
    play(s, take(G), FINISH_TAKE)
    assert s.actor == 2  # seat 0 has a pile: it is skipped


def test_d2_a_robbed_seat_acts_again_when_its_turn_comes():
    s = new_game(3)
    divide(s, "GGGWWWBBRR")
    play(s, take(G), take(W), FINISH_TAKE, steal(2), give_back(G))
    assert s.pile[0].sum() == 0 and s.actor == 2
    play(s, take(B), FINISH_TAKE)
    assert s.actor == 0 and s.stage == D_CHOOSE


def test_d3_the_next_actor_is_clockwise_from_the_thief_not_the_victim():
    s = new_game(4)
    divide(s, "GGGWWWBBBRR")
    play(s, take(G), take(W), FINISH_TAKE)  # seat 0
    play(s, take(B), FINISH_TAKE)  # seat 1
    play(s, steal(2), give_back(G))  # seat 2 robs seat 0
    assert s.actor == 3  # not seat 0, the victim


def test_d4_a_take_is_one_object_at_a_time_and_never_mixed_with_a_steal():
    s = new_game(3)
    divide(s, "GGGWWWBBRR")
    assert FINISH_TAKE not in mask_of(s)  # at least one object
    play(s, take(G), FINISH_TAKE)
    play(s, take(W))
    assert s.stage == D_TAKING and not mask_of(s) & STEALS
    assert s.pile[1].sum() == 1 and FINISH_TAKE in mask_of(s)


def test_d5_the_first_actor_must_take_there_is_no_pass():
    s = new_game(5)
    assert s.stage == D_CHOOSE and mask_of(s) <= TAKES and mask_of(s)
    assert not mask_of(s) & (STEALS | {FINISH_TAKE, END_TURN, TAKE_ALL})


def test_d6_steal_any_opponent_with_two_objects_the_whole_pile_and_pawn_move():
    s = new_game(4)
    divide(s, "GGGWWWBBBRR")
    play(s, take(G), TAKE_PAWN, FINISH_TAKE)
    play(s, take(W), take(W), FINISH_TAKE)
    assert {steal(2), steal(3)} <= mask_of(s)  # seat 2 may rob seat 0 (not a neighbour)
    play(s, steal(2))
    assert s.pile[2].tolist() == dice("G").tolist() and s.pawn_loc == 2
    assert s.pile[0].sum() == 0 and s.steal_victim == 0


def test_d7_the_pawn_counts_as_returned_or_kept_and_is_never_rolled():
    s = new_game(3)
    divide(s, "GGGWWWBBRR")
    play(s, take(G), TAKE_PAWN, FINISH_TAKE, steal(2))
    assert RETURN_PAWN in mask_of(s)
    rng = s.rng
    play(s, RETURN_PAWN)  # size 1 left: FINISH_RETURN follows automatically
    assert s.pawn_loc == IN_CENTRE and s.rng == rng and s.pile[1].tolist() == dice("G").tolist()


def test_d8_returned_dice_are_rolled_together_at_finish_return():
    s = new_game(3)
    divide(s, "GGGWWWBBRR")
    play(s, take(G), take(W), take(B), take(R), FINISH_TAKE, steal(2))
    rng = s.rng
    play(s, give_back(G), give_back(W))
    assert s.rng == rng and s.ret_buf.tolist() == dice("GW").tolist()
    twin = s.copy()
    faces = [rand_below(twin, 6) for _ in range(2)]
    centre = s.centre.copy()
    play(s, FINISH_RETURN)
    for f in faces:
        centre[f] += 1
    assert s.centre.tolist() == centre.tolist() and s.ret_buf.sum() == 0


def test_d9_the_last_seat_takes_everything_or_steals():
    s = new_game(3)
    divide(s, "GGGWWWBBRR")
    play(s, take(G), take(G), FINISH_TAKE, take(W), take(W), FINISH_TAKE)
    assert mask_of(s) == {TAKE_ALL, steal(1), steal(2)}
    play(s, TAKE_ALL)
    assert s.centre.sum() == 0 and s.pawn_loc == 2 and s.stage == P_MAIN


def test_d10_a_seat_that_is_not_last_may_empty_the_centre():
    s = new_game(3)
    divide(s, "GGGGGGGGGG")
    for _ in range(10):
        GAME.apply(s, take(G))
    play(s, TAKE_PAWN)
    assert s.centre.sum() == 0 and s.actor == 1 and mask_of(s) == {steal(2)}


def test_d11_every_round_has_exactly_p_takes():
    for seed in range(20):
        s = new_game(5, seed=seed)
        rng = np.random.default_rng(seed)
        while s.stage in (D_CHOOSE, D_TAKING, D_RETURNING):
            GAME.apply(s, int(rng.choice(sorted(mask_of(s)))))
        assert s.takes == 5 and s.centre.sum() == 0 and s.pawn_loc >= 0


def test_d12_the_snapshot_is_taken_at_the_end_of_divide_and_counts_the_pawn():
    s = new_game(3)
    purchases(s, {0: "GRP", 1: "W", 2: "B"}, pawn=0)
    assert s.snap_gem[0].tolist() == [1, 0, 0, 1] and s.snap_size[0] == 4
    s.gold[0] = 9
    put_in_market(s, A_ROW, 0, card("Pawnbroker"))
    play(s, buy(A_ROW, 0), PAY_DIE)
    assert s.snap_gem[0].tolist() == [1, 0, 0, 1] and s.snap_size[0] == 4


def test_d13_lucky_appendage_no_returned_die_is_rerolled():
    s = new_game(3)
    give(s, 0, card("Lucky Animal Appendage"))
    divide(s, "GGGWWWBBRR")
    play(s, take(G), take(W), take(B), take(R), FINISH_TAKE, steal(2))
    rng = s.rng
    play(s, give_back(G), give_back(W), FINISH_RETURN)
    assert s.rng == rng and s.centre.tolist() == dice("GGGWWWBR").tolist()


def test_d14_lucky_appendage_reroll_is_optional_and_skipped_without_dice():
    s = new_game(3)
    give(s, 1, card("Lucky Animal Appendage"))
    purchases(s, {0: "G", 1: "RR", 2: "B"}, pawn=0)
    assert s.stage == P_LAA and s.actor == 1 and mask_of(s) == {LAA_REROLL_0 + R, LAA_SKIP}
    play(s, LAA_SKIP)
    assert s.pile[1].tolist() == dice("RR").tolist() and s.stage == P_MAIN and s.actor == 0
    s = new_game(3)
    give(s, 1, card("Lucky Animal Appendage"))
    purchases(s, {0: "GR", 2: "B"}, pawn=1)
    assert s.stage == P_MAIN and s.actor == 1


def test_d15_payment_by_gem_die_or_gold_purse_and_mask_never_pay_no_cancel():
    s = new_game(3)
    put_in_market(s, A_ROW, 0, card("Tailor"))  # 1R
    purchases(s, {0: "PM", 1: "G", 2: "G"}, pawn=0)
    s.gold[0] = 0
    assert buy(A_ROW, 0) not in mask_of(s)
    s.gold[0] = 1
    s.pile[0] = dice("RPM")
    play(s, buy(A_ROW, 0))
    assert s.stage == P_PAY and mask_of(s) == {PAY_DIE, PAY_GOLD}  # no cancel, no ability
    play(s, PAY_GOLD)
    assert s.pile[0].tolist() == dice("RPM").tolist() and s.gold[0] == 0
    end_turns(s, 3)
    assert s.gold[0] == 1  # the purse's gold arrives after Purchases


def test_d16_insurance_waives_one_gem_on_every_purchase_but_not_on_itself():
    s = new_game(4)
    insurance, crown = card("Insurance Racket"), card("Crown")
    open_rows(s, C_ROW)
    put_in_market(s, C_ROW, 0, insurance)
    put_in_market(s, C_ROW, 1, crown)  # 1W 2B
    purchases(s, {0: "GWRWB", 1: "G", 2: "G", 3: "G"}, pawn=0)
    s.gold[0] = 0
    play(s, buy(C_ROW, 0))  # no waiver on itself: all three gems paid
    assert s.stage == P_MAIN and s.pile[0].tolist() == dice("WB").tolist()
    play(s, buy(C_ROW, 1))  # only one B can be waived (W leaves 2B for one die): automatic
    assert s.owner[crown] == 0 and s.pile[0].sum() == 0 and s.stage == P_MAIN
    s = new_game(4)
    open_rows(s, C_ROW)
    give(s, 0, insurance)
    put_in_market(s, C_ROW, 1, crown)
    purchases(s, {0: "WB", 1: "G", 2: "G", 3: "G"}, pawn=0)
    s.gold[0] = 1
    play(s, buy(C_ROW, 1))
    assert s.stage == P_WAIVE and mask_of(s) == {waive(W), waive(B)}


def test_d17_extra_purchase_cards_bought_mid_turn_count_at_once():
    s = new_game(4)
    official = card("Corrupt Official")
    put_in_market(s, A_ROW, 0, official)
    purchases(s, {0: "W", 1: "G", 2: "G", 3: "G"}, pawn=0)
    s.gold[0] = 0
    assert rules.allowed_buys(s, 0) == 1
    play(s, buy(A_ROW, 0))
    assert rules.allowed_buys(s, 0) == 2 and s.buys_made == 1


def test_d18_on_purchase_infamy_reads_the_printed_cost():
    s = new_game(4)
    buffalo = card("Anthropomorphic Water Buffalo")  # R; costs 1W 2R
    open_rows(s, B_ROW)
    put_in_market(s, B_ROW, 0, buffalo)
    purchases(s, {0: "", 1: "G", 2: "G", 3: "G"}, pawn=0)
    s.gold[0] = 3
    play(s, buy(B_ROW, 0))  # paid with gold only; itself included
    assert s.infamy[0] == 1


def test_d19_other_players_infamy_is_observed():
    s = new_game(3)
    s.infamy[:3] = [4, 5, 6]
    obs = np.zeros(GAME.obs_size, GAME.obs_dtype)
    GAME.observe(s, 1, obs)
    assert obs[LAYOUT["infamy"]][:3].tolist() == [5, 6, 4]


def test_d20_unlabeled_potion_only_draws_from_the_newest_open_deck():
    s = new_game(3)
    potion = card("Unlabeled Potion")
    put_in_market(s, A_ROW, 0, potion)
    set_deck(s, A_ROW, [])
    purchases(s, {0: "BR", 1: "G", 2: "G"}, pawn=0)
    s.gold[0] = 0
    deck_b = s.deck_size[B_ROW]
    play(s, buy(A_ROW, 0))  # row B is not open: nothing is gained
    assert s.owner[potion] == DISCARDED and s.deck_size[B_ROW] == deck_b
    assert (s.owner == 0).sum() == 0 and s.buys_made == 1


def test_d21_only_the_newest_row_is_refilled_lowest_position_first():
    s = new_game(3)
    open_rows(s, B_ROW)
    purchases(s, {0: "G", 1: "G", 2: "G"}, pawn=0)
    top = s.deck[B_ROW, s.deck_size[B_ROW] - 1]
    give(s, 1, s.market[1], s.market[8], s.market[6])
    end_turns(s, 3)
    assert s.market[1] == EMPTY_SLOT and s.market[6] == top and s.market[8] >= 0


def test_d22_buying_from_older_rows_never_ends_the_game():
    s = new_game(3)
    open_rows(s, C_ROW)
    set_deck(s, C_ROW, [])
    purchases(s, {0: "G", 1: "G", 2: "G"}, pawn=0)
    give(s, 1, s.market[0], s.market[5])
    end_turns(s, 3)
    assert s.status != TERMINATED and s.round_number == 2
    purchases(s, {0: "G", 1: "G", 2: "G"}, pawn=0)
    give(s, 1, s.market[12])
    end_turns(s, 3)
    assert s.status == TERMINATED


def test_d23_truncation_at_max_rounds_gives_no_winner():
    s = new_game(3, max_rounds=1)
    purchases(s, {0: "G", 1: "G", 2: "G"}, pawn=0)
    end_turns(s, 3)
    assert s.status == TRUNCATED and s.actor == -1
    out = np.ones(3, np.float32)
    GAME.returns(s, out)
    assert (out == 0).all()


def test_d24_loyalty_program_counts_free_gained_cards_never_the_potion():
    s = new_game(3)
    loyalty, potion, brooch = card("Loyalty Program"), card("Unlabeled Potion"), card("Brooch")
    open_rows(s, B_ROW)
    give(s, 0, loyalty)
    put_in_market(s, B_ROW, 0, potion)
    set_deck(s, B_ROW, [brooch])
    purchases(s, {0: "BR", 1: "G", 2: "G"}, pawn=0)
    s.gold[0] = 0
    play(s, buy(B_ROW, 0))
    assert s.owner[brooch] == 0 and s.owner[potion] == DISCARDED
    assert rules.card_points(s, loyalty, 0) == 1


def test_d25_majorities_need_one_icon_or_gold_and_ties_lose_one():
    awards = np.zeros(4, np.int64)
    rules.majority_award(np.array([0, 0, 0, 0]), 4, 3, 1, awards)
    assert awards.tolist() == [0, 0, 0, 0]
    rules.majority_award(np.array([2, 2, 1, 0]), 4, 3, 1, awards)
    assert awards.tolist() == [2, 2, 0, 0]  # no second place after a tie for first
    awards[:] = 0
    rules.majority_award(np.array([3, 1, 1, 0]), 4, 3, 1, awards)
    assert awards.tolist() == [3, 0, 0, 0]
    awards[:] = 0
    rules.majority_award(np.array([0, 1, 0, 0]), 4, 3, 0, awards)
    assert awards.tolist() == [0, 3, 0, 0]


def test_d26_once_per_round_flags_reset_at_round_start_exit_strategy_unlimited():
    s = new_game(3)
    tailor, exit_strategy = card("Tailor"), card("Exit Strategy")
    give(s, 0, tailor, exit_strategy)
    purchases(s, {0: "RR", 1: "G", 2: "G"}, pawn=0)
    s.gold[0] = 2
    play(s, spend(R), EXIT_STRATEGY, EXIT_STRATEGY)
    assert spend(R) not in mask_of(s) and s.used[tailor] == 1 and s.used[exit_strategy] == 0
    end_turns(s, 3)
    assert s.used.sum() == 0
    purchases(s, {0: "R", 1: "G", 2: "G"}, pawn=0)
    assert spend(R) in mask_of(s)


def test_d27_conversions_only_change_faces_jeweller_converts_only_purses():
    s = new_game(3)
    jeweller_card, scales = card("Legitimate Jeweller"), card("Imbalanced Scales")
    give(s, 0, jeweller_card, scales, card("Pawnbroker"))
    purchases(s, {0: "GM", 1: "G", 2: "G"}, pawn=0)
    assert not {jeweller(c) for c in range(4)} & mask_of(s)  # a mask die is not a purse
    play(s, to_purse(G))
    assert s.gold[0] == 1 and s.pile[0].tolist() == dice("PM").tolist()
    play(s, jeweller(R))
    assert s.pile[0].tolist() == dice("RM").tolist()
    end_turns(s, 3)
    assert s.gold[0] == 1  # no purse turned in: no Scales bonus


def test_d28_final_ties_break_on_cards_then_tokens_then_share():
    s = new_game(3)
    s.status = TERMINATED
    s.infamy[:3] = [5, 5, 5]
    give(s, 1, card("Alchemical Lab"))
    out = np.zeros(3, np.float32)
    GAME.returns(s, out)
    assert out.tolist() == [-1, 1, -1]
    give(s, 2, card("Glamer"))
    GAME.returns(s, out)
    assert out.tolist() == [-1, 1, 1]


def test_d29_a_seat_that_can_afford_nothing_still_gets_its_turn():
    s = new_game(3)
    give(s, 1, card("Tailor"))
    s.market[:] = EMPTY_SLOT
    purchases(s, {0: "G", 1: "R", 2: "G"}, pawn=0)
    s.gold[:3] = 0
    play(s, END_TURN)
    assert s.actor == 1 and s.stage == P_MAIN and mask_of(s) == {spend(R), END_TURN}
    play(s, spend(R), END_TURN)
    assert s.actor == 2


def test_d30_seat_0_starts_round_1_unless_the_option_says_otherwise():
    assert new_game(4).actor == 0
    assert new_game(4, first_player=3).actor == 3
    starts = {int(new_game(5, seed=seed, first_player="random").actor) for seed in range(40)}
    assert starts == {0, 1, 2, 3, 4}


def test_d31_big_haul_shows_the_wishlist_icon():
    assert CARD_ICONS[card("Big Haul")].tolist() == [0, 0, 0, 0, 0, 1]
    assert CARD_ICONS[card("The Heist"), WISHLIST] == 1


def test_d32_affordability_ignores_abilities_that_are_not_yet_used():
    s = new_game(3)
    put_in_market(s, A_ROW, 0, card("Tailor"))  # 1R
    give(s, 0, card("Alchemical Lab"), card("Gauntlet of Evil Intent"))
    purchases(s, {0: "M", 1: "G", 2: "G"}, pawn=0)
    s.gold[0] = 0
    assert buy(A_ROW, 0) not in mask_of(s)
    play(s, GAUNTLET)
    assert buy(A_ROW, 0) in mask_of(s)
    play(s, buy(A_ROW, 0))
    assert s.stage == P_MAIN and not {convert(R, G), GAUNTLET} & mask_of(s)


def test_d33_determinize_re_deals_hidden_cards_and_replaces_the_rng():
    s = new_game(4, seed=11)
    open_rows(s, B_ROW)
    give(s, 1, s.market[2])
    check_invariants(s)
    a, b = s.copy(), s.copy()
    GAME.determinize(a, 0, 5)
    GAME.determinize(b, 2, 5)
    assert a.tobytes() == b.tobytes()  # no seat sees more than another
    assert a.rng != s.rng
    check_invariants(a)
    assert a.market.tolist() == s.market.tolist() and a.deck_size.tolist() == s.deck_size.tolist()
    assert a.owner[1] == s.owner[1]
    seen = (s.owner >= 0) | np.isin(np.arange(49), s.market)
    assert (a.owner[seen] == s.owner[seen]).all()
    hidden = ~seen & (s.owner != DISCARDED)
    for d in range(3):
        assert hidden[a.deck[d, : a.deck_size[d]]].all()  # only unseen cards are re-dealt
    assert any(
        a.deck[d, : a.deck_size[d]].tolist() != s.deck[d, : s.deck_size[d]].tolist()
        for d in range(3)
    )
    for d in range(3):
        letter = np.equal(CARD_DECK, d)
        assert (a.owner[letter] == TRIMMED).sum() == (s.owner[letter] == TRIMMED).sum()


def test_d33_determinize_keeps_the_card_being_paid_for():
    """Section 7: the card being paid for has left the market but everyone saw it bought;
    it is not an unseen card, so it is never re-dealt into a deck or the box."""
    s = new_game(4, seed=3)
    tailor = card("Tailor")
    put_in_market(s, A_ROW, 2, tailor)
    purchases(s, {0: "R", 1: "G", 2: "G", 3: "G"}, pawn=0)
    s.gold[0] = 1
    play(s, buy(A_ROW, 2))
    assert s.stage == P_PAY and s.pending_card == tailor
    for seed in range(5):
        a = s.copy()
        GAME.determinize(a, 1, seed)
        check_invariants(a)
        assert a.pending_card == tailor and a.owner[tailor] == UNOWNED
        assert tailor not in a.deck[A_ROW, : a.deck_size[A_ROW]]


def test_d15_gold_may_pay_a_gem_that_dice_cover_while_gold_is_spare():
    s = new_game(3)
    put_in_market(s, A_ROW, 0, card("Glamer"))  # 2B
    purchases(s, {0: "BBM", 1: "G", 2: "G"}, pawn=0)
    s.gold[0] = 1
    play(s, buy(A_ROW, 0))
    assert s.stage == P_PAY and s.need.tolist() == [0, 0, 2, 0]
    play(s, PAY_DIE, PAY_DIE)
    assert s.pile[0].tolist() == dice("M").tolist() and s.gold[0] == 1 and s.stage == P_MAIN
    assert s.owner[card("Glamer")] == 0
