"""The spec's decisions D1-D34 (§8), one test each, named after the decision."""

import numpy as np
import pytest

from heist_envs.core.game import TERMINATED
from heist_envs.toits_de_paris import GAME, rules
from heist_envs.toits_de_paris.actions import (
    CONTINUE,
    DECLINE_JOKER,
    JOKER_COLOUR_0,
    PASS,
    STOP,
    take_action,
)
from heist_envs.toits_de_paris.components import (
    BELLS,
    CARD_TABLE,
    INSP_START,
    NEED,
    NUM_COLOURS,
    NUM_PLAYERS_MAX,
    RESERVE,
    TIEBREAK,
    card_id,
)
from heist_envs.toits_de_paris.observation import LAYOUT
from heist_envs.toits_de_paris.state import (
    CAUGHT,
    COUP,
    GAME_OVER,
    GONE,
    HIGH_TOKEN,
    JOKER,
    LEADER_EXTRA,
    LEADER_FREE,
    LEADER_MUST,
    LOW_TOKEN,
    NO_TOKEN,
    NORMAL,
    OTHER_TAKE,
    THEFT,
    UNUSED,
)
from tests.helpers import play

from .positions import (
    board,
    card,
    cards,
    collection,
    colour_count,
    discard,
    mask,
    new_game,
    position,
    reserve_cards,
)

H, L, N = HIGH_TOKEN, LOW_TOKEN, NO_TOKEN


def colour_awards(values, tb=None, colour=0):
    """Token awards per seat for colour ``colour`` when seat p holds values[p] of its cards and
    seat ``tb`` holds its tie-breaker (counted among its cards)."""
    pool = iter(
        card_id(colour, k) for k in range(18) if not CARD_TABLE[card_id(colour, k), TIEBREAK]
    )
    collections = {}
    for p, v in enumerate(values):
        owned = [next(pool) for _ in range(v - (p == tb))]
        if p == tb:
            owned.append(card(f"c{colour}:TB"))
        collections[p] = owned
    s = position(len(values), collections=collections)
    awards = np.zeros_like(s.token_award)
    rules.tally(s, awards, np.zeros_like(s.score))
    return awards[: len(values), colour].tolist()


def obs(s, seat):
    out = np.zeros(GAME.obs_size, GAME.obs_dtype)
    GAME.observe(s, seat, out)
    return out


def test_d1_positions_spaces_1_to_7_inspector_from_8():
    """D1: on a card = insp <= n (caught), directly in front = insp = n + 1 (coup)."""
    s = new_game(2, draw=cards("c0:A1"))
    assert s.insp == INSP_START - 1 == 7 and s.n == 1 and board(s) == {1: card("c0:A1")}
    s = new_game(2, draw=cards("c0:A3", "c1:A2"))
    play(GAME, s, CONTINUE)
    assert s.insp == s.n + 1 and s.outcome == COUP
    s = new_game(2, draw=cards("c0:A3", "c1:A3"))
    play(GAME, s, CONTINUE)  # the inspector on 2, on the 2nd card: caught
    assert discard(s) == [card("c1:A3")] and collection(s, 1) == [card("c0:A3")]


def test_d2_first_card_of_each_turn_is_revealed_automatically():
    """D2: the leader's first choice comes after the first reveal, every turn."""
    s = new_game(2, draw=cards("c0:P", "c1:V1"))
    assert s.phase == THEFT and s.n == 1 and board(s) == {1: card("c0:P")}
    play(GAME, s, STOP)
    assert s.leader == 1 and s.phase == THEFT and s.n == 1 and board(s) == {1: card("c1:V1")}


def test_d3_coup_d_eclat_ends_the_theft_immediately():
    """D3: no CONTINUE after a coup d'eclat, even with cards left in the piles."""
    s = new_game(2, draw=cards("c0:A3", "c1:A2"))
    play(GAME, s, CONTINUE)
    assert s.phase == LEADER_FREE and CONTINUE not in mask(s) and STOP not in mask(s)


def test_d4_need_never_exceeds_the_cards_and_an_emptied_board_moves_on():
    """D4: NEED[n] <= n; defensively, a board emptied before need_left reaches 0 ends the
    leader's takes."""
    assert all(NEED[n] <= n for n in range(1, 7))
    s = new_game(2, draw=cards("c0:P", "c1:P"))
    play(GAME, s, CONTINUE, STOP)
    s.need_left = 4  # as if a swapped table asked for more than the board holds
    play(GAME, s, take_action(1))  # the last card is then taken automatically
    assert collection(s, 0) == sorted(cards("c0:P", "c1:P"))
    assert s.leader == 1 and s.phase == THEFT


@pytest.mark.parametrize(("seventh", "outcome"), [("c0:V1", COUP), ("c0:A2", CAUGHT)])
def test_d5_the_seventh_card_gives_coup_or_caught(seventh, outcome):
    """D5: no normal stop on space 7: coup with no arrow, caught (spaces 8-a..7) with arrows."""
    draw = cards("c0:P", "c1:P", "c2:P", "c3:P", "c4:P", "c1:V1", seventh)
    s = new_game(2, draw=draw)
    play(GAME, s, *[CONTINUE] * 6)
    assert s.n == 7 and s.outcome == outcome and STOP not in mask(s)
    if outcome == CAUGHT:
        assert s.insp == 6 and discard(s) == sorted(draw[5:7])


def test_d6_inspector_never_passes_the_left_edge():
    """D6: the lowest reachable position is 1, with the 3rd card; then every card is lost."""
    s = new_game(3, draw=cards("c0:A2", "c1:A2", "c2:A3", "c3:P"))
    play(GAME, s, CONTINUE)
    assert s.insp == 4 and s.phase == THEFT
    play(GAME, s, CONTINUE)  # caught on space 1: all three discarded, nothing to share
    assert discard(s) == sorted(cards("c0:A2", "c1:A2", "c2:A3"))
    assert s.leader == 1 and s.turn == 2 and board(s) == {1: card("c3:P")}


def test_d7_caught_discards_the_covered_card_and_everything_right_of_it():
    """D7: spaces insp..n are discarded; spaces 1..insp-1 go to the others; leader gets none."""
    draw = cards("c0:P", "c1:P", "c2:P", "c3:A2", "c4:A3")
    s = new_game(3, draw=draw)
    play(GAME, s, *[CONTINUE] * 4)
    assert s.outcome == CAUGHT and s.insp == 3
    assert board(s) == {1: draw[0], 2: draw[1]} and discard(s) == sorted(draw[2:])
    assert s.phase == OTHER_TAKE and s.actor == 1 and mask(s) == {take_action(1), take_action(2)}
    play(GAME, s, take_action(2))
    assert collection(s, 1) == [draw[1]] and collection(s, 2) == [draw[0]]
    assert collection(s, 0) == [] and s.leader == 1


def test_d8_coup_leader_takes_any_number_one_per_decision():
    """D8: PASS at once is allowed; each TAKE takes one card."""
    s = new_game(2, draw=cards("c0:A3", "c1:A2"))
    play(GAME, s, CONTINUE)
    assert mask(s) == {take_action(1), take_action(2), PASS}
    play(GAME, s, PASS)
    assert collection(s, 0) == [] and s.phase == OTHER_TAKE and s.actor == 1


@pytest.mark.parametrize("outcome", [NORMAL, COUP, CAUGHT])
def test_d9_the_leader_extra_card_after_normal_and_coup_only(outcome):
    """D9: the optional extra card when not caught and cards remain."""
    draw = {
        NORMAL: cards("c0:P", "c1:P", "c2:P", "c3:P"),
        COUP: cards("c0:A3", "c1:P", "c2:A1", "c3:P"),
        CAUGHT: cards("c0:P", "c1:P", "c2:P", "c3:A2", "c4:A3"),
    }[outcome]
    s = new_game(2, draw=draw)
    play(GAME, s, CONTINUE, CONTINUE)
    if outcome == NORMAL:
        play(GAME, s, STOP, take_action(1))
    elif outcome == COUP:
        play(GAME, s, PASS)
    else:
        play(GAME, s, CONTINUE, CONTINUE)
    assert s.outcome == outcome
    play(GAME, s, min(mask(s)))  # seat 1's one card
    if outcome == CAUGHT:
        assert s.leader == 1
    else:
        assert s.phase == LEADER_EXTRA and s.actor == 0 and PASS in mask(s)


def test_d9_the_extra_card_is_one_card_and_the_rest_is_discarded():
    """D9, PHASE DE PARTAGE: after the leader's extra card the cards left are discarded and
    leadership passes left; nobody takes again."""
    draw = cards("c0:P", "c1:P", "c2:P", "c3:P", "c4:P")
    s = new_game(2, draw=draw)
    play(GAME, s, *[CONTINUE] * 4, STOP, take_action(1), take_action(2), take_action(3))
    assert s.phase == LEADER_EXTRA and mask(s) == {take_action(4), take_action(5), PASS}
    play(GAME, s, take_action(4))
    assert collection(s, 0) == sorted([*draw[0:2], draw[3]]) and collection(s, 1) == [draw[2]]
    assert discard(s) == [draw[4]]
    assert s.leader == 1 and s.phase == THEFT and s.turn == 2


def test_d10_one_take_one_card_spaces_keep_their_numbers_effects_after_each():
    """D10: no compaction; a card's reserve draw resolves before the next take."""
    s = new_game(2, draw=cards("c0:P", "c1:R", "c2:P", "c3:P"), reserve=cards("c4:V2"))
    play(GAME, s, *[CONTINUE] * 3, STOP, take_action(2))
    assert board(s) == {1: card("c0:P"), 3: card("c2:P"), 4: card("c3:P")}
    assert collection(s, 0) == sorted(cards("c1:R", "c4:V2"))
    assert s.phase == LEADER_MUST and mask(s) == {take_action(1), take_action(3), take_action(4)}


def test_d11_resolution_order_raid_joker_offer_then_reserve_draw():
    """D11: add card, bell check and raid, joker offer, then the reserve draw."""
    table = CARD_TABLE.copy()
    both = card("c4:PB", 1)
    table[both, RESERVE] = 1
    s = position(
        2,
        draw=[both],
        reserve=cards("c1:V1"),
        collections={0: cards("c4:PB", "c4:A1B")},
        card_table=table,
    )
    play(GAME, s, STOP)
    assert s.phase == JOKER and s.pending_draws == 1 and reserve_cards(s)[0] == card("c1:V1")
    assert obs(s, 0)[LAYOUT["pending_draws"]].tolist() == [1]  # public (§6)
    play(GAME, s, JOKER_COLOUR_0 + 4)
    assert collection(s, 0) == [card("c1:V1")] and s.joker[0] == 4


def test_d12_reserve_draw_on_gaining_not_on_revealing():
    """D12: revealing a reserve card onto the board draws nothing; gaining it does."""
    s = new_game(2, draw=cards("c0:R", "c1:P"), reserve=cards("c2:V1"))
    assert rules.reserve_size(s) == 15
    play(GAME, s, CONTINUE, STOP)
    assert rules.reserve_size(s) == 15
    play(GAME, s, take_action(1))
    assert collection(s, 0) == sorted(cards("c0:R", "c2:V1")) and rules.reserve_size(s) == 14
    # Nor does revealing one from the reserve in the last turn.
    s = position(2, draw=cards("c1:P"), draw_size=1, reserve=cards("c0:R", "c2:V1"))
    play(GAME, s, CONTINUE)
    assert board(s)[2] == card("c0:R") and s.pending_draws == 0
    assert reserve_cards(s)[0] == card("c2:V1")
    play(GAME, s, STOP, take_action(2))
    assert collection(s, 0) == sorted(cards("c0:R", "c2:V1")) and s.phase == GAME_OVER


def test_d13_empty_reserve_stops_the_chain():
    """D13: a reserve symbol with nothing to draw does nothing, and is not deferred."""
    s = position(2, draw=cards("c0:R", "c1:P", "c2:V1"), reserve=cards("c3:R"), reserve_size=1)
    play(GAME, s, CONTINUE, CONTINUE, STOP, take_action(1))
    assert collection(s, 0) == sorted(cards("c0:R", "c3:R"))
    assert rules.reserve_size(s) == 0 and s.pending_draws == 0
    assert s.phase == OTHER_TAKE and s.actor == 1


def test_d14_bells_counted_on_the_current_collection():
    """D14: raided cards no longer count; a joker has no bell."""
    s = position(
        2,
        draw=cards("c0:A1B", "c0:P", "c0:A2B"),
        collections={0: cards("c0:PB", "c0:PB")},
        jokers={0: 1},
    )
    play(GAME, s, STOP)  # the 3rd bell: raid
    assert colour_count(s, 0, 0) == 0 and s.phase == THEFT and s.leader == 1
    play(GAME, s, CONTINUE, STOP, take_action(1))  # seat 0 takes c0:A2B: one bell, no raid
    assert collection(s, 0) == [card("c0:A2B")]
    s = position(2, draw=cards("c0:A2B"), collections={0: cards("c0:PB", "c0:P")}, jokers={0: 0})
    play(GAME, s, STOP)  # two bells and a joker of that colour: no raid
    assert colour_count(s, 0, 0) == 4


def test_d15_a_raid_discards_the_joker_of_that_colour():
    """D15: the character card goes with its colour and is gone for good."""
    s = position(2, draw=cards("c2:A1B"), collections={0: cards("c2:PB", "c2:PB")}, jokers={0: 2})
    play(GAME, s, STOP)
    assert s.joker[0] == GONE and colour_count(s, 0, 2) == 0 and s.phase == THEFT


@pytest.mark.parametrize("colour", range(NUM_COLOURS))
def test_d16_joker_any_colour_counts_as_one_card_offered_once(colour):
    """D16: any of the 5 colours (the raided one too); one card for majorities; no second
    offer once flipped."""
    s = position(
        2,
        draw=cards("c3:A1B", "c0:P", "c1:A1B"),
        collections={0: cards("c3:PB", "c3:PB", "c1:PB", "c1:PB")},
    )
    play(GAME, s, STOP)
    assert s.phase == JOKER and mask(s) == set(range(JOKER_COLOUR_0, DECLINE_JOKER + 1))
    play(GAME, s, JOKER_COLOUR_0 + colour)
    held = 2 if colour == 1 else 0  # seat 0 still holds c1:PB, c1:PB
    assert s.joker[0] == colour and colour_count(s, 0, colour) == 1 + held
    awards = np.zeros_like(s.token_award)
    rules.tally(s, awards, np.zeros_like(s.score))
    assert awards[0, colour] == HIGH_TOKEN
    play(GAME, s, CONTINUE, STOP, take_action(1))  # seat 0 gains c1:A1B: a raid of colour 1
    assert colour_count(s, 0, 1) == 0 and s.phase == THEFT
    assert s.joker[0] == (GONE if colour == 1 else colour)


def test_d17_the_raided_non_leader_decides_the_joker():
    """D17: the JOKER actor is the raided player, here not the leader."""
    s = position(3, draw=cards("c1:A1B", "c0:P"), collections={1: cards("c1:PB", "c1:PB")})
    play(GAME, s, CONTINUE, STOP, take_action(2))
    assert s.phase == JOKER and s.actor == 1 and s.leader == 0
    assert obs(s, 1)[LAYOUT["actor"]][0] == 1  # the observer itself decides
    play(GAME, s, DECLINE_JOKER)
    assert s.leader == 1 and s.phase == THEFT


def test_d17_play_resumes_where_the_joker_decision_interrupted_it():
    """§4.4, D17: a raid during the leader's required takes; after the JOKER decision the
    leader still owes the rest of NEED[n]."""
    s = position(
        2,
        draw=cards("c0:A1B", "c1:P", "c2:P", "c3:P", "c4:P"),
        collections={0: cards("c0:PB", "c0:PB")},
    )
    play(GAME, s, *[CONTINUE] * 4, STOP)
    assert s.phase == LEADER_MUST and s.need_left == 2
    play(GAME, s, take_action(1))  # the 3rd colour-0 bell: a raid
    assert s.phase == JOKER and s.actor == 0
    play(GAME, s, DECLINE_JOKER)
    assert s.phase == LEADER_MUST and s.actor == 0 and s.need_left == 1
    assert mask(s) == {take_action(space) for space in range(2, 6)}
    play(GAME, s, take_action(2))
    assert collection(s, 0) == [card("c1:P")] and s.phase == OTHER_TAKE and s.actor == 1


def test_d18_character_cards_are_identical_and_powerless():
    """D18: every seat starts with an UNUSED character; seats play by the same rules, so a
    game dealt the same way from another first leader looks the same to its leader."""
    draw = cards("c0:P", "c1:A1", "c2:V1")
    a = new_game(4, draw=draw, first_leader=0)
    b = new_game(4, draw=draw, first_leader=2)
    assert (a.joker == UNUSED).all() and (b.joker == UNUSED).all()
    for s in (a, b):
        play(GAME, s, CONTINUE, CONTINUE, STOP, take_action(1))
    np.testing.assert_array_equal(obs(a, 0), obs(b, 2))


def test_d19_the_discard_pile_is_public():
    """D19: every seat sees the discarded cards."""
    s = new_game(3, draw=cards("c0:P", "c1:P", "c2:A3", "c3:A3"))
    play(GAME, s, CONTINUE, CONTINUE, CONTINUE)
    for seat in range(3):
        seen = np.flatnonzero(obs(s, seat)[LAYOUT["discard"]]).tolist()
        assert seen == discard(s) == sorted(cards("c1:P", "c2:A3", "c3:A3"))


def test_d20_the_last_draw_card_ends_the_game_after_this_sharing():
    """D20: the leader still chooses; CONTINUE reveals the reserve's top; the game ends."""
    s = position(2, draw=cards("c0:P"), draw_size=1, reserve=cards("c1:P", "c2:P"))
    assert s.end_triggered and mask(s) == {STOP, CONTINUE}
    play(GAME, s, CONTINUE)
    assert board(s) == {1: card("c0:P"), 2: card("c1:P")} and rules.reserve_size(s) == 14
    play(GAME, s, STOP, take_action(1))
    assert s.phase == GAME_OVER and s.status == TERMINATED and s.turn == 1


def test_d21_a_turn_never_starts_with_an_empty_draw_pile():
    """D21: the turn that empties the draw pile is the last one."""
    s = position(2, draw=cards("c0:P", "c1:P"), draw_size=2)
    assert not s.end_triggered
    play(GAME, s, STOP)
    assert s.turn == 2 and s.end_triggered and rules.draw_size(s) == 0  # the last card ...
    play(GAME, s, STOP)
    assert s.phase == GAME_OVER and s.turn == 2  # ... and no third turn started


def test_d22_a_player_needs_one_card_to_rank():
    """D22: A 1, the others 0: A high, no low for players with nothing."""
    assert colour_awards([1, 0, 0]) == [H, N, N]


@pytest.mark.parametrize(
    ("values", "tb", "expected"),
    [
        ([3, 3, 2], 1, [L, H, N]),
        ([3, 3, 3], 0, [H, L, L]),
        ([3, 3, 3, 3], 0, [H, N, N, N]),
        ([5, 3, 3], 2, [H, N, L]),
        ([2, 2, 2, 1], 2, [L, L, H, N]),
    ],
)
def test_d23_the_tie_breaker_holder_ranks_just_above_those_tied(values, tb, expected):
    """D23: for 1st or 2nd place, ties of any size; the others stay tied below."""
    assert colour_awards(values, tb) == expected


def test_d23_no_tie_breaker_for_feathers():
    """D23: the white category has no tie-breaker: the colour-0 tie-breaker does not count."""
    s = position(2, collections={0: cards("c0:F", "c0:TB"), 1: cards("c1:F")})
    awards = np.zeros_like(s.token_award)
    rules.tally(s, awards, np.zeros_like(s.score))
    assert awards[:2, 5].tolist() == [L, L]


def test_d24_two_tied_first_both_low_no_high():
    """D24: the pair takes both lows; nobody else gets a token of that set."""
    assert colour_awards([3, 3, 2]) == [L, L, N]


def test_d25_more_than_two_tied_first_nobody():
    """D25."""
    assert colour_awards([2, 2, 2, 1]) == [N, N, N, N]


def test_d26_ties_for_second():
    """D26: two tied 2nd both get a low; more than two: no low, 1st keeps the high."""
    assert colour_awards([5, 3, 3]) == [H, L, L]
    assert colour_awards([4, 2, 2, 2]) == [H, N, N, N]


def test_d27_a_category_nobody_holds_is_not_awarded():
    """D27: all at 0: nobody."""
    assert colour_awards([0, 0, 0]) == [N, N, N]


@pytest.mark.parametrize(("reward", "expected"), [("win", [0.5, 0.5]), ("score", [12, 12])])
def test_d28_shared_victory_and_the_reward_option(reward, expected):
    """D28: every player with the top total wins, 1/k each; reward="score" gives the totals."""
    s = position(
        2,
        draw=cards("c0:P"),
        draw_size=1,
        reserve_size=0,
        collections={0: cards("c0:F", "c1:F"), 1: cards("c2:F", "c3:F")},
        reward=reward,
    )
    play(GAME, s, STOP)
    out = np.zeros(2, np.float32)
    GAME.returns(s, out)
    assert out.tolist() == expected


def test_d28_a_single_winner_takes_the_whole_reward():
    """D28: 1 to the winner, 0 to the others (constant sum)."""
    s = position(3, draw=cards("c0:V2"), draw_size=1, reserve_size=0)
    play(GAME, s, STOP)
    out = np.zeros(3, np.float32)
    GAME.returns(s, out)
    assert out.tolist() == [1.0, 0.0, 0.0]


def test_d29_seats_are_clockwise_left_neighbour_is_next():
    """D29: others take from L+1 on; leadership passes to L+1 (wrapping)."""
    s = new_game(4, draw=cards("c0:P", "c1:P", "c2:P", "c3:P", "c4:P"), first_leader=3)
    play(GAME, s, *[CONTINUE] * 4, STOP, take_action(1), take_action(2))
    takers = []
    while s.phase == OTHER_TAKE:
        takers.append(int(s.actor))
        play(GAME, s, min(mask(s)))
    assert takers == [0, 1] and len(collection(s, 2)) == 1  # seat 2's single card: automatic
    assert s.leader == 0


def test_d30_first_leader_option():
    """D30: seat 0 by default, a given seat, or a seeded random seat."""
    assert GAME.new_state(3, 1)[0].leader == 0
    assert GAME.new_state(3, 1, {"first_leader": 2})[0].leader == 2
    leaders = {
        int(GAME.new_state(4, seed, {"first_leader": "random"})[0].leader) for seed in range(40)
    }
    assert leaders == {0, 1, 2, 3}
    again = GAME.new_state(4, 7, {"first_leader": "random"})[0]
    assert again.leader == GAME.new_state(4, 7, {"first_leader": "random"})[0].leader
    for bad in (3, -1, "youngest", 1.0, True):
        with pytest.raises(ValueError, match="first_leader"):
            GAME.new_state(3, 1, {"first_leader": bad})


def test_d31_only_single_card_mandatory_takes_are_automatic():
    """D31: LEADER_MUST / OTHER_TAKE with one card are applied; a THEFT with only STOP, a
    LEADER_FREE or LEADER_EXTRA with one card are still decisions."""
    s = new_game(2, draw=cards("c0:P"))
    play(GAME, s, STOP)  # LEADER_MUST with one card: applied
    assert collection(s, 0) == [card("c0:P")] and s.leader == 1
    s = new_game(2, draw=cards("c0:A3", "c1:A2"))
    play(GAME, s, CONTINUE, take_action(1))
    assert s.phase == LEADER_FREE and mask(s) == {take_action(2), PASS}
    s = new_game(3, draw=cards("c0:P", "c1:P", "c2:P", "c3:P"))
    play(GAME, s, CONTINUE, CONTINUE, CONTINUE, STOP, take_action(1), take_action(2))
    play(GAME, s, take_action(3))  # seat 1 chooses; seat 2's single card is applied
    assert collection(s, 2) == [card("c3:P")] and s.leader == 1
    s = new_game(2, draw=cards("c0:P", "c1:P", "c2:P"))
    play(GAME, s, CONTINUE, CONTINUE, STOP, take_action(1), take_action(2))
    assert s.phase == LEADER_EXTRA and mask(s) == {take_action(3), PASS}
    s = position(2, draw=cards("c0:P"), draw_size=1, reserve_size=0)
    assert s.phase == THEFT and mask(s) == {STOP}


def test_d32_bells_are_counted_as_symbols():
    """D32: a card with two bell symbols and a one-bell card make three: raid."""
    table = CARD_TABLE.copy()
    double = card("c0:PB")
    table[double, BELLS] = 2
    s = position(2, draw=cards("c0:A1B"), collections={0: [double]}, card_table=table)
    play(GAME, s, STOP)
    assert s.phase == JOKER and colour_count(s, 0, 0) == 0


def test_d33_a_normal_stop_takes_exactly_need():
    """D33: not fewer (no PASS in LEADER_MUST), not more (then the others take)."""
    s = new_game(2, draw=cards("c0:P", "c1:P", "c2:P", "c3:P", "c4:P"))
    play(GAME, s, *[CONTINUE] * 4, STOP)
    assert s.need_left == NEED[5] == 2 and PASS not in mask(s)
    play(GAME, s, take_action(1))
    assert s.phase == LEADER_MUST and PASS not in mask(s)
    play(GAME, s, take_action(2))
    assert s.phase == OTHER_TAKE and len(collection(s, 0)) == 2


@pytest.mark.parametrize(("n", "expected"), [(1, 1), (2, 1), (3, 1), (4, 2), (5, 2)])
def test_d34_need_is_the_number_under_the_last_card(n, expected):
    """D34: NEED[n] from the last revealed card's space, not the inspector's (here on 7)."""
    s = new_game(2, draw=cards("c0:A1", "c1:P", "c2:P", "c3:P", "c4:P"))
    play(GAME, s, *[CONTINUE] * (n - 1))
    assert s.insp == 7 and s.n == n
    play(GAME, s, STOP)
    if n == 1:
        assert collection(s, 0) == [card("c0:A1")]  # the single card, taken automatically
    else:
        assert s.phase == LEADER_MUST and s.need_left == expected


def test_spec_numbers_players_and_seats():
    """§3: up to 4 seats; absent seats' character cards stay in the box (UNUSED)."""
    s = GAME.new_state(2, 3)[0]
    assert s.joker.shape == (NUM_PLAYERS_MAX,) and (s.joker[2:] == UNUSED).all()
