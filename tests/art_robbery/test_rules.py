"""Art Robbery scenarios (spec section 10) and decisions D1-D11, each naming its rule."""

import numpy as np
import pytest

from heist_envs.art_robbery import GAME
from heist_envs.art_robbery.actions import GIVE_DOG, GIVE_TOKEN, TAKE_SLOT_0
from heist_envs.art_robbery.components import (
    BOSS_CARD,
    BOSS_SLOT,
    CARD_COUNTS,
    GREEDY_THIEF_CARD,
    GUARD_DOG_CARD,
    NUM_CARD_TYPES,
)
from heist_envs.art_robbery.state import BOX, CENTRE, DOG, NOBODY, PLAY, TOKEN
from heist_envs.core.game import RUNNING, TERMINATED, TRUNCATED
from tests.helpers import legal_actions, play

# Raid 1 slots: 0,1 = value 0 (1 alibi), 2,3 = value 1, 4 = 2, 5 = 3, 6 = 4, 7 = 5, 8 = Boss.
N0, N1, N2, N3, N4, N5 = range(6)


def new_game(num_players=3, seed=0, **options):
    return GAME.new_state(num_players, seed, options or None)[0]


def give_hand(s, seat, cards):
    """Give ``seat`` exactly these five cards (the rest of the deck is left as dealt)."""
    s.hands[seat, :] = 0
    for c in cards:
        s.hands[seat, c] += 1


def mask_of(s):
    return set(legal_actions(GAME, s).tolist())


def take(slot):
    return TAKE_SLOT_0 + slot


def test_scenario_1_number_card_takes_from_the_centre_and_hand_refills():
    s = new_game()
    give_hand(s, 0, [N3, N0, N0, N1, N1])
    pile = s.deck_size
    play(GAME, s, N3)
    assert s.token_loc[0, 5] == 0
    assert s.hands[0].sum() == 5 and s.deck_size == pile - 1
    assert s.discard[N3] == 1 and s.actor == 1


def test_scenario_2_number_card_steals_and_the_player_chooses_the_victim():
    s = new_game()
    give_hand(s, 0, [N1] * 5)
    s.token_loc[0, 2] = 1
    s.token_loc[0, 3] = 2
    play(GAME, s, N1)
    assert s.phase == TOKEN and s.actor == 0
    assert mask_of(s) == {take(2), take(3)}
    play(GAME, s, take(3))
    assert s.token_loc[0, 3] == 0 and s.token_loc[0, 2] == 1


def test_scenario_3_number_card_with_no_token_to_take_does_nothing():
    """The only value-4 token is the player's own: nothing moves, the card is spent."""
    s = new_game()
    give_hand(s, 0, [N4] * 5)
    s.token_loc[0, 6] = 0
    before = s.token_loc.copy()
    play(GAME, s, N4)
    assert (s.token_loc == before).all()
    assert s.discard[N4] == 1 and s.hands[0].sum() == 5 and s.actor == 1 and s.phase == PLAY


@pytest.mark.parametrize("victim_choice", [GIVE_DOG, GIVE_TOKEN])
def test_scenario_4_guard_dog_defence_is_the_victims_decision(victim_choice):
    s = new_game()
    give_hand(s, 0, [N5] * 5)
    s.token_loc[0, 7] = 1
    s.dog = 1
    play(GAME, s, N5)
    assert s.phase == DOG and s.actor == 1 and mask_of(s) == {GIVE_TOKEN, GIVE_DOG}
    play(GAME, s, victim_choice)
    if victim_choice == GIVE_DOG:
        assert s.dog == 0 and s.token_loc[0, 7] == 1
    else:
        assert s.dog == 1 and s.token_loc[0, 7] == 0
    assert s.actor == 1 and s.phase == PLAY  # then the next seat plays as usual


def test_scenario_5_guard_dog_card_takes_the_pawn_from_an_opponent():
    s = new_game()
    give_hand(s, 0, [GUARD_DOG_CARD] * 5)
    s.dog = 2
    play(GAME, s, GUARD_DOG_CARD)
    assert s.dog == 0


def test_scenario_6_greedy_thief_takes_the_boss_token_and_never_steals():
    s = new_game()
    give_hand(s, 0, [GREEDY_THIEF_CARD] * 5)
    play(GAME, s, GREEDY_THIEF_CARD)
    assert take(BOSS_SLOT) in mask_of(s)
    play(GAME, s, take(BOSS_SLOT))
    assert s.token_loc[0, BOSS_SLOT] == 0
    # Centre down to the 0 tokens; the opponent's 5 is never offered.
    s = new_game()
    give_hand(s, 0, [GREEDY_THIEF_CARD] * 5)
    s.token_loc[0, 2:] = 1
    play(GAME, s, GREEDY_THIEF_CARD)
    assert s.token_loc[0, 0] == 0  # the two 0 tokens are identical: taken automatically
    assert (s.token_loc[0, 2:] == 1).all()


def finish_raid_1(s, boss_holder, holder_tokens, last_player=1):
    """Everything of raid 1 held except slot 5 (a 3); ``last_player`` takes it."""
    s.token_loc[0, :] = 2
    s.token_loc[0, BOSS_SLOT] = boss_holder
    for slot in holder_tokens:
        s.token_loc[0, slot] = boss_holder
    s.token_loc[0, 5] = CENTRE
    s.turn_player = s.actor = last_player
    give_hand(s, last_player, [N3] * 5)
    play(GAME, s, N3)
    assert s.raid == 1


def test_scenario_7_d8_boss_kept_with_a_4_of_the_raid():
    s = new_game()
    finish_raid_1(s, boss_holder=0, holder_tokens=[6])
    assert s.token_loc[0, BOSS_SLOT] == 0


def test_scenario_7_d8_boss_lost_without_a_4_or_5():
    s = new_game()
    finish_raid_1(s, boss_holder=0, holder_tokens=[4])
    assert s.token_loc[0, BOSS_SLOT] == BOX


def test_scenario_7_d8_boss_lost_when_the_5_taken_was_stolen_before_the_raid_ended():
    s = new_game()
    s.token_loc[0, BOSS_SLOT] = 0
    s.token_loc[0, 7] = 0  # player 0 took the 5 ...
    s.turn_player = s.actor = 1
    give_hand(s, 1, [N5] * 5)
    play(GAME, s, N5)  # ... player 1 steals it
    assert s.token_loc[0, 7] == 1
    for slot in (0, 1, 2, 3, 4, 6):
        s.token_loc[0, slot] = 2
    s.turn_player = s.actor = 2
    give_hand(s, 2, [N3] * 5)
    play(GAME, s, N3)  # player 2 empties the centre
    assert s.raid == 1 and s.token_loc[0, BOSS_SLOT] == BOX


def test_scenario_8_d4_next_raid_starts_with_the_dog_holder():
    s = new_game()
    s.dog = 2
    finish_raid_1(s, boss_holder=0, holder_tokens=[6], last_player=1)
    assert s.actor == 2 and s.turn_player == 2 and s.dog == 2  # D4: the dog stays
    assert (s.token_loc[1] == CENTRE).all()


def test_scenario_8_dog_holder_who_emptied_the_centre_plays_again():
    s = new_game()
    s.dog = 1
    finish_raid_1(s, boss_holder=0, holder_tokens=[6], last_player=1)
    assert s.actor == 1


def test_scenario_8_dog_in_the_centre_next_seat_after_the_emptier_starts():
    s = new_game()
    finish_raid_1(s, boss_holder=0, holder_tokens=[6], last_player=2)
    assert s.dog == NOBODY and s.actor == 0  # (2 + 1) mod 3


def test_scenario_9_d5_empty_pile_reshuffles_the_discard_when_a_draw_is_needed():
    s = new_game()
    # Move the whole draw pile onto the discard.
    for i in range(s.deck_size):
        s.discard[s.deck[i]] += 1
    s.deck_size = 0
    discard_before = s.discard.copy()
    card = int(np.flatnonzero(s.hands[0])[0])
    play(GAME, s, card)
    if s.phase == TOKEN:
        play(GAME, s, sorted(mask_of(s))[0])
    discard_before[card] += 1
    assert s.reshuffled == 1
    assert (s.reshuffle_counts == discard_before).all()
    assert s.discard.sum() == 0 and s.deck_size == discard_before.sum() - 1
    total = s.hands.sum(axis=0) + s.discard + np.bincount(s.deck[: s.deck_size], minlength=9)
    assert (total == CARD_COUNTS).all()


def test_d5_no_reshuffle_while_the_pile_has_cards():
    s = new_game()
    for i in range(s.deck_size - 1):
        s.discard[s.deck[i]] += 1
    s.deck[0] = s.deck[s.deck_size - 1]
    s.deck_size = 1
    give_hand(s, 0, [GUARD_DOG_CARD] * 5)
    play(GAME, s, GUARD_DOG_CARD)
    assert s.reshuffled == 0 and s.deck_size == 0


def end_with(s, tokens):
    """Finish the game with ``tokens[(raid, slot)] = holder``; others go to the box."""
    s.token_loc[:] = BOX
    for (raid, slot), holder in tokens.items():
        s.token_loc[raid, slot] = holder
    s.raid = 4
    s.status = TERMINATED
    s.actor = -1


def results(s):
    out = np.zeros(s.num_players, np.float32)
    GAME.returns(s, out)
    return GAME.scores(s), out.tolist()


def test_scenario_10_tied_fewest_alibis_score_zero_and_the_best_other_wins():
    s = new_game(4)
    # alibis: p0 1, p1 1, p2 2, p3 3; values: p0 5, p1 5, p2 4, p3 3
    end_with(
        s,
        {
            (0, 0): 0,
            (0, 7): 0,
            (0, 1): 1,
            (1, 7): 1,
            (1, 0): 2,
            (1, 1): 2,
            (2, 6): 2,
            (2, 0): 3,
            (2, 1): 3,
            (2, 5): 3,
        },
    )
    scores, returns = results(s)
    assert scores["alibis"] == [1, 1, 2, 3]
    assert scores["score"] == [0, 0, 4, 3]
    assert returns == [-1, -1, 1, -1]


def test_scenario_11_d6_two_players_fewer_alibis_lose_ten_then_the_result():
    s = new_game(2)
    # p0: value 7, 1 alibi; p1: value 2, 2 alibis -> p0 7 - 10 = -3 < 2
    end_with(s, {(0, 0): 0, (0, 6): 0, (0, 5): 0, (0, 1): 1, (1, 2): 1, (0, 2): 1})
    scores, returns = results(s)
    assert scores["alibis"] == [1, 2] and scores["score"] == [-3, 2]
    assert returns == [-1, 1]


def test_d6_two_player_alibi_tie_both_lose_ten_not_floored():
    s = new_game(2)
    end_with(s, {(0, 0): 0, (0, 1): 1, (0, 2): 1})
    scores, returns = results(s)
    assert scores["score"] == [-10, -9] and returns == [-1, 1]


def test_scenario_12_d10_score_tie_broken_by_most_alibis_and_full_tie_shares_the_win():
    s = new_game(3)
    # p0: 5 pts 2 alibis, p1: 5 pts 1 alibi, p2 fewest (0) scores 0
    end_with(s, {(0, 7): 0, (0, 0): 0, (0, 1): 0, (1, 7): 1, (1, 0): 1, (2, 3): 2})
    scores, returns = results(s)
    assert scores["score"] == [5, 5, 0] and scores["alibis"] == [2, 1, 0]
    assert returns == [1, -1, -1]
    s = new_game(3)
    end_with(s, {(0, 7): 0, (0, 0): 0, (1, 7): 1, (0, 1): 1, (2, 3): 2})
    _, returns = results(s)
    assert returns == [1, 1, -1]


def test_scenario_13_d7_number_5_never_takes_the_boss_token():
    s = new_game()
    s.token_loc[0, :7] = 1
    give_hand(s, 0, [N5, N5, GREEDY_THIEF_CARD, GREEDY_THIEF_CARD, N0])
    play(GAME, s, N5)  # only the 5 is a Number 5 token: taken with no choice
    assert s.token_loc[0, 7] == 0 and s.token_loc[0, BOSS_SLOT] == CENTRE
    s = new_game()
    s.token_loc[0, :7] = 1
    give_hand(s, 0, [GREEDY_THIEF_CARD] * 5)
    play(GAME, s, GREEDY_THIEF_CARD)
    assert mask_of(s) == {take(7), take(BOSS_SLOT)}  # {16, 17}
    s = new_game()
    s.token_loc[0, :8] = 1  # only the Boss token is left in the centre; the 5 is with p1
    give_hand(s, 0, [N5] * 5)
    play(GAME, s, N5)
    assert s.token_loc[0, 7] == 0 and s.token_loc[0, BOSS_SLOT] == CENTRE


def test_scenario_14_d11_identical_tokens_are_offered_once():
    s = new_game()
    give_hand(s, 0, [N0] * 5)
    play(GAME, s, N0)  # both 0 tokens (1 alibi each) in the centre: slot 0, automatically
    assert s.token_loc[0, 0] == 0 and s.token_loc[0, 1] == CENTRE
    s = new_game()
    s.token_loc[0, 0] = s.token_loc[0, 1] = 1
    give_hand(s, 0, [N0] * 5)
    play(GAME, s, N0)  # both with one opponent: slot 0 stolen automatically
    assert s.token_loc[0, 0] == 0 and s.token_loc[0, 1] == 1
    s = new_game()
    s.token_loc[0, 0] = 1
    s.token_loc[0, 1] = 2
    give_hand(s, 0, [N0] * 5)
    play(GAME, s, N0)
    assert mask_of(s) == {9, 10}


def test_d11_tokens_of_equal_value_but_different_alibis_are_both_offered():
    s = new_game()
    s.raid = 1  # raid 2: slots 0 and 1 are 0s with 1 alibi; slot 2 is a 1 with 1 alibi
    s.token_loc[0, :] = 0
    s.token_loc[1, :] = CENTRE
    s.token_loc[1, 3] = 1  # the 1 without alibis is with an opponent, slot 2 in the centre
    give_hand(s, 0, [N1] * 5)
    play(GAME, s, N1)  # the centre holds a 1: it is taken, opponents are not offered
    assert s.token_loc[1, 2] == 0
    s = new_game()
    s.raid = 2  # raid 3: slot 0 has 2 alibis, slot 1 has 1: not identical
    s.token_loc[:2, :] = 0
    s.token_loc[2, :] = CENTRE
    give_hand(s, 0, [N0] * 5)
    play(GAME, s, N0)
    assert mask_of(s) == {9, 10}


def test_scenario_15_d9_truncation_after_max_turns_card_plays():
    s = new_game(4, max_turns=3)
    for _ in range(3):
        assert s.status == RUNNING
        play(GAME, s, int(np.flatnonzero(s.hands[s.actor])[0]))
        while s.phase in (TOKEN, DOG):
            play(GAME, s, sorted(mask_of(s))[0])
    assert s.status == TRUNCATED and s.actor == -1 and s.turns == 3
    _, returns = results(s)
    assert returns == [0, 0, 0, 0]


def test_scenario_16_three_players_all_tied_for_fewest_alibis_share_the_win():
    s = new_game(3)
    end_with(s, {(0, 0): 0, (0, 7): 0, (0, 1): 1, (1, 2): 2})
    scores, returns = results(s)
    assert scores["score"] == [0, 0, 0] and returns == [1, 1, 1]


def test_d1_deck_holds_six_of_each_number_and_55_cards():
    assert CARD_COUNTS[:6].tolist() == [6] * 6 and CARD_COUNTS.sum() == 55
    s = new_game(5)
    pile = np.bincount(s.deck[: s.deck_size], minlength=NUM_CARD_TYPES)
    assert ((s.hands.sum(axis=0) + pile) == CARD_COUNTS).all()


def test_d2_banked_tokens_of_earlier_raids_are_never_stolen():
    s = new_game()
    s.token_loc[0, :] = 1  # raid 1 banked by player 1
    s.raid = 1
    s.token_loc[1, :] = CENTRE
    s.token_loc[1, 7] = 0  # this raid's 5 is the player's own
    give_hand(s, 0, [N5] * 5)
    play(GAME, s, N5)
    assert (s.token_loc[0] == 1).all() and s.token_loc[1, 7] == 0


def test_d3_boss_card_steals_the_boss_token_and_the_dog_defends_it():
    s = new_game()
    s.token_loc[0, BOSS_SLOT] = 2
    give_hand(s, 0, [BOSS_CARD] * 5)
    play(GAME, s, BOSS_CARD)
    assert s.token_loc[0, BOSS_SLOT] == 0
    s = new_game()
    s.token_loc[0, BOSS_SLOT] = 2
    s.dog = 2
    give_hand(s, 0, [BOSS_CARD] * 5)
    play(GAME, s, BOSS_CARD)
    assert s.phase == DOG and s.actor == 2


def test_boss_card_does_nothing_when_the_player_holds_the_boss_token():
    s = new_game()
    s.token_loc[0, BOSS_SLOT] = 0
    give_hand(s, 0, [BOSS_CARD] * 5)
    play(GAME, s, BOSS_CARD)
    assert s.token_loc[0, BOSS_SLOT] == 0 and s.actor == 1


def test_card_choice_is_always_the_agents_even_with_one_card_type():
    s = new_game()
    give_hand(s, 0, [N2] * 5)
    assert mask_of(s) == {N2} and s.phase == PLAY and s.actor == 0


def test_deck_order_option_fixes_the_deal_and_rejects_a_wrong_deck():
    order = [t for t in range(NUM_CARD_TYPES) for _ in range(CARD_COUNTS[t])]
    s = new_game(2, deck_order=order)
    assert s.hands[0].tolist() == [5, 0, 0, 0, 0, 0, 0, 0, 0]
    assert s.hands[1].tolist() == [1, 4, 0, 0, 0, 0, 0, 0, 0]
    assert s.deck[s.deck_size - 1] == 1  # the next card drawn
    with pytest.raises(ValueError, match="deck_order"):
        new_game(2, deck_order=order[:-1] + [0])
    with pytest.raises(ValueError, match="deck_order"):
        new_game(2, deck_order=[0] * 3)
    with pytest.raises(ValueError, match="max_turns"):
        new_game(2, max_turns=0)


def test_section_7_opponents_hands_and_pile_order_are_hidden():
    """Swapping a card between an opponent's hand and the pile, and reordering the pile,
    changes nothing in seat 0's observation or mask."""
    state = GAME.new_state(4, 3)
    other = state.copy()
    s = other[0]
    top = int(s.deck[s.deck_size - 1])
    held = next(t for t in range(NUM_CARD_TYPES) if s.hands[1, t] and t != top)
    s.hands[1, held] -= 1
    s.hands[1, top] += 1
    s.deck[s.deck_size - 1] = held
    s.deck[: s.deck_size] = s.deck[: s.deck_size][::-1].copy()
    assert other.tobytes() != state.tobytes()
    obs = [np.zeros(GAME.obs_size, GAME.obs_dtype) for _ in range(2)]
    for st, o in zip((state, other), obs, strict=True):
        GAME.observe(st[0], 0, o)
    np.testing.assert_array_equal(obs[0], obs[1])
    assert mask_of(state[0]) == mask_of(other[0])
    GAME.observe(state[0], 1, obs[0])
    GAME.observe(other[0], 1, obs[1])
    assert not np.array_equal(obs[0], obs[1]), "seat 1 sees its own hand change"


def card_totals(s):
    n = s.num_players
    pile = np.bincount(s.deck[: s.deck_size], minlength=NUM_CARD_TYPES)
    return s.hands[:n].sum(axis=0) + s.discard + pile


@pytest.mark.parametrize("seat", [1, 2])
def test_section_7_determinize_keeps_the_public_hand_sizes_in_the_dog_phase(seat):
    """During the Guard Dog defence the thief holds 4 cards (the draw ends the turn); a
    re-deal gives every opponent as many cards as they hold and keeps all 55 cards."""
    rest = CARD_COUNTS.copy()
    rest[N5] -= 5
    order = [N5] * 5 + [t for t in range(NUM_CARD_TYPES) for _ in range(rest[t])]  # seat 0: 5s
    s = new_game(3, deck_order=order)
    s.token_loc[0, 7] = 1
    s.dog = 1
    play(GAME, s, N5)
    assert s.phase == DOG and s.actor == 1
    sizes = s.hands[:3].sum(axis=1).tolist()
    assert sizes == [4, 5, 5]
    for seed in range(20):
        other = s.copy()
        GAME.determinize(other, seat, seed)
        assert other.hands[:3].sum(axis=1).tolist() == sizes
        assert (card_totals(other) == CARD_COUNTS).all()
        assert (other.hands[seat] == s.hands[seat]).all()


def test_section_7_determinize_after_a_reshuffle_deals_the_pile_from_the_reshuffled_cards():
    """After a reshuffle the pile is a sub-multiset of (reshuffled cards - own draws since)."""
    state = GAME.new_state(4, 11)
    s = state[0]
    rng = np.random.default_rng(11)
    while not (s.reshuffled and s.phase == PLAY and s.drawn_since[s.actor].sum() >= 3):
        play(GAME, s, int(rng.choice(legal_actions(GAME, s))))
    seat = int(s.actor)
    known = s.reshuffle_counts - s.drawn_since[seat]
    for seed in range(20):
        other = s.copy()
        GAME.determinize(other, seat, seed)
        pile = np.bincount(other.deck[: other.deck_size], minlength=NUM_CARD_TYPES)
        assert (pile <= known).all() and other.deck_size == s.deck_size
        assert (card_totals(other) == CARD_COUNTS).all()
        assert (other.hands[seat] == s.hands[seat]).all() and (other.discard == s.discard).all()


def test_section_7_render_shows_the_public_hand_size_of_a_hidden_hand():
    """Hand sizes are public: the thief holds 4 cards during the Guard Dog defence."""
    s = new_game(3)
    give_hand(s, 0, [N5] * 5)
    s.token_loc[0, 7] = 1
    s.dog = 1
    play(GAME, s, N5)
    rows = [" ".join(line.split()) for line in GAME.render(s, seat=1).splitlines()]
    assert any(row.startswith("player 0 hand: 4 hidden cards") for row in rows)
    assert any(row.startswith("player 2 hand: 5 hidden cards") for row in rows)
