"""The spec's scenarios (§9), one test each, naming the rules they check."""

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
from heist_envs.toits_de_paris.components import CARD_TABLE, RESERVE, VP, WHITE
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

JOKER_ACTIONS = set(range(JOKER_COLOUR_0, DECLINE_JOKER + 1))
ZERO_ARROW_7 = ("c0:P", "c1:P", "c2:P", "c3:P", "c4:P", "c0:V1", "c1:V1")


def awards(num_players, collections, jokers=None):
    """Token awards [seat, set] the collections earn (§5)."""
    s = position(num_players, collections=collections, jokers=jokers)
    result = np.zeros_like(s.token_award)
    rules.tally(s, result, np.zeros_like(s.score))
    return result[:num_players]


def test_scenario_01_normal_stop_leader_extra_declined():
    """PHASE DE PARTAGE: a normal stop takes NEED[n] (D33); the leader may pass the extra (D9)."""
    s = new_game(2, draw=cards("c0:P", "c1:P", "c2:V2"))
    play(GAME, s, CONTINUE, CONTINUE)
    assert s.n == 3 and s.insp == 8 and s.phase == THEFT
    play(GAME, s, STOP)
    assert s.phase == LEADER_MUST and s.need_left == 1 and mask(s) == {2, 3, 4}
    play(GAME, s, take_action(3))
    assert s.phase == OTHER_TAKE and s.actor == 1 and mask(s) == {2, 3}
    play(GAME, s, take_action(2))
    assert s.phase == LEADER_EXTRA and s.actor == 0 and mask(s) == {2, PASS}
    play(GAME, s, PASS)
    assert collection(s, 0) == [card("c2:V2")]
    assert collection(s, 1) == [card("c1:P")]
    assert discard(s) == [card("c0:P")]
    assert s.leader == 1 and s.actor == 1 and s.insp == 8 and s.n == 1


def test_scenario_02_caught_no_extra_for_the_leader():
    """LA MAIN DANS LE SAC: the covered card and those right of it are discarded (D7); the
    leader takes nothing, not even the extra card (D9)."""
    s = new_game(2, draw=cards("c0:A3", "c1:P", "c2:P", "c3:A2"))
    assert s.insp == 5
    play(GAME, s, CONTINUE, CONTINUE, CONTINUE)
    assert s.outcome == CAUGHT and s.insp == 3 and s.n == 4
    assert discard(s) == sorted(cards("c2:P", "c3:A2"))
    assert s.phase == OTHER_TAKE and s.actor == 1 and mask(s) == {2, 3}
    play(GAME, s, take_action(1))
    assert collection(s, 1) == [card("c0:A3")]
    assert collection(s, 0) == []
    assert discard(s) == sorted(cards("c1:P", "c2:P", "c3:A2"))
    assert s.leader == 1 and s.turn == 2


def test_scenario_03_coup_d_eclat_before_space_7():
    """COUP D'ECLAT !: the inspector right in front of the last card ends the theft at once
    (D3); the leader takes freely (D8); a single card left is taken automatically (D31)."""
    s = new_game(3, draw=cards("c0:A3", "c1:A2"))
    play(GAME, s, CONTINUE)
    assert s.outcome == COUP and s.insp == 3 and s.n == 2
    assert s.phase == LEADER_FREE and s.actor == 0 and mask(s) == {2, 3, PASS}
    play(GAME, s, take_action(2), PASS)
    assert collection(s, 0) == [card("c1:A2")]
    assert collection(s, 1) == [card("c0:A3")]
    assert collection(s, 2) == []
    assert s.leader == 1 and s.phase == THEFT and s.turn == 2


def test_scenario_04_coup_d_eclat_on_space_7():
    """D5: the 7th card with no arrow leaves the inspector in its notch: coup d'eclat."""
    seven = cards(*ZERO_ARROW_7)
    s = new_game(2, draw=seven)
    play(GAME, s, *[CONTINUE] * 5)
    assert s.n == 6 and s.insp == 8 and CONTINUE in mask(s)
    play(GAME, s, CONTINUE)
    assert s.n == 7 and s.outcome == COUP and s.phase == LEADER_FREE
    for space in range(1, 8):
        assert s.phase == LEADER_FREE and s.actor == 0
        play(GAME, s, take_action(space))
    assert collection(s, 0) == sorted(seven)
    assert collection(s, 1) == []
    assert s.leader == 1 and s.turn == 2


@pytest.mark.parametrize(
    ("seventh", "insp", "discarded_spaces", "choices"),
    [("c0:A1", 7, [7], [6, 5, 4]), ("c0:A3", 5, [5, 6, 7], [4, 3, 2])],
)
def test_scenario_05_caught_on_space_7(seventh, insp, discarded_spaces, choices):
    """D5, D7: the 7th card with arrows catches the leader; the other three take in turn."""
    draw = cards(*ZERO_ARROW_7[:6], seventh)
    s = new_game(4, draw=draw)
    play(GAME, s, *[CONTINUE] * 6)
    assert s.outcome == CAUGHT and s.insp == insp
    assert discard(s) == sorted(draw[space - 1] for space in discarded_spaces)
    for seat, options in zip((1, 2, 3), choices, strict=True):
        assert s.phase == OTHER_TAKE and s.actor == seat and len(mask(s)) == options
        play(GAME, s, min(mask(s)))
        assert len(collection(s, seat)) == 1
    assert collection(s, 0) == []
    assert len(discard(s)) == 7 - 3
    assert s.leader == 1 and s.turn == 2


def test_scenario_06_normal_stop_at_6_takes_4():
    """§2.6, D33: stopping on space 6 the leader must take 4 cards, no pass before."""
    s = new_game(2, draw=cards(*ZERO_ARROW_7[:6]))
    play(GAME, s, *[CONTINUE] * 5, STOP)
    assert s.phase == LEADER_MUST and s.need_left == 4
    for taken in range(4):
        assert s.phase == LEADER_MUST and PASS not in mask(s)
        assert len(mask(s)) == 6 - taken
        play(GAME, s, min(mask(s)))
    assert len(collection(s, 0)) == 4
    assert s.phase == OTHER_TAKE and s.actor == 1 and len(mask(s)) == 2
    play(GAME, s, min(mask(s)))
    assert s.phase == LEADER_EXTRA and len(mask(s)) == 2 and PASS in mask(s)
    play(GAME, s, min(mask(s)))
    assert len(collection(s, 0)) == 5 and len(collection(s, 1)) == 1


def test_scenario_06_variant_need_uses_the_last_card_space_not_the_inspector():
    """D34: after 4 cards with the inspector on 6, a stop takes NEED[4] = 2."""
    s = new_game(2, draw=cards("c0:A2", *ZERO_ARROW_7[:5]))
    play(GAME, s, CONTINUE, CONTINUE, CONTINUE)
    assert s.n == 4 and s.insp == 6 and s.phase == THEFT
    play(GAME, s, STOP)
    assert s.need_left == 2


def test_scenario_07_reserve_chain():
    """EFFETS DES CARTES: gaining a reserve card draws the reserve's top, chained (D11, D12)."""
    s = new_game(2, draw=cards("c0:R", "c4:P", "c3:V1"), reserve=cards("c1:R", "c2:V1", "c3:P"))
    play(GAME, s, CONTINUE, CONTINUE, STOP, take_action(3))
    assert s.phase == OTHER_TAKE and s.actor == 1
    play(GAME, s, take_action(1))
    assert collection(s, 1) == sorted(cards("c0:R", "c1:R", "c2:V1"))
    assert len(reserve_cards(s)) == 13 and reserve_cards(s)[0] == card("c3:P")
    assert s.phase == LEADER_EXTRA


def test_scenario_08_police_raid_and_joker():
    """Objets sous surveillance: a 3rd bell discards the colour (D14); the joker is offered
    (D16); a later raid of the joker's colour discards it too, with no new offer (D15)."""
    held = cards("c3:A1B", "c3:PB", "c3:P", "c3:V1", "c1:P")
    draw = [card("c3:PB", 1)] + cards("c1:PB", "c0:P", "c1:A2B", "c1:A1B", "c0:P")
    s = position(2, draw=draw, collections={0: held})
    play(GAME, s, STOP)  # the single card is taken automatically
    assert s.phase == JOKER and s.actor == 0 and mask(s) == JOKER_ACTIONS
    assert collection(s, 0) == [card("c1:P")]
    assert len(discard(s)) == 5
    play(GAME, s, JOKER_COLOUR_0 + 1)
    assert s.joker[0] == 1 and colour_count(s, 0, 1) == 2
    assert s.leader == 1 and s.phase == THEFT
    # Turn 2 (seat 1): seat 0 takes c1:PB; turn 3 (seat 0): c1:A2B; turn 4: c1:A1B.
    play(GAME, s, CONTINUE, STOP, take_action(2))
    play(GAME, s, STOP)
    assert colour_count(s, 0, 1) == 4
    play(GAME, s, CONTINUE, STOP, take_action(2))
    assert s.joker[0] == GONE and colour_count(s, 0, 1) == 0
    assert s.phase == THEFT and s.leader == 0 and s.actor == 0


def test_scenario_09_joker_declined_offered_again_non_leader_decides():
    """D16, D17: the raided non-leader decides; declining keeps the card for a later raid."""
    held = cards("c2:PB", "c2:PB", "c4:PB", "c4:PB")
    draw = cards("c2:A1B", "c0:P", "c1:P", "c3:P", "c0:V1", "c4:A1B", "c0:P")
    s = position(3, draw=draw, collections={2: held})
    play(GAME, s, *[CONTINUE] * 4, STOP, take_action(2), take_action(3), take_action(4))
    assert s.phase == OTHER_TAKE and s.actor == 2 and mask(s) == {take_action(1), take_action(5)}
    play(GAME, s, take_action(1))
    assert s.phase == JOKER and s.actor == 2 and s.leader == 0
    play(GAME, s, DECLINE_JOKER)
    assert s.joker[2] == UNUSED
    assert s.phase == LEADER_EXTRA and s.actor == 0 and board(s) == {5: card("c0:V1")}
    play(GAME, s, PASS)
    assert s.leader == 1
    play(GAME, s, CONTINUE, STOP, take_action(2))  # seat 2 takes c4:A1B automatically
    assert s.phase == JOKER and s.actor == 2
    play(GAME, s, JOKER_COLOUR_0 + 4)
    assert s.joker[2] == 4 and colour_count(s, 2, 4) == 1


def test_scenario_10_bell_on_a_reserve_drawn_card():
    """D11, D14: a reserve-drawn card's bell counts; the raid's joker offer comes before any
    further draw, and the chain ends at a card without the reserve symbol."""
    s = position(
        2,
        draw=cards("c0:R", "c0:P"),
        reserve=cards("c1:R", "c4:A1B", "c2:P"),
        collections={1: cards("c4:PB", "c4:PB")},
    )
    play(GAME, s, CONTINUE, STOP, take_action(2))  # seat 1 takes c0:R automatically
    assert s.phase == JOKER and s.actor == 1
    assert collection(s, 1) == sorted(cards("c0:R", "c1:R"))
    assert set(cards("c4:PB", "c4:PB", "c4:A1B")) <= set(discard(s))
    assert reserve_cards(s)[0] == card("c2:P") and s.pending_draws == 0


def test_scenario_10_variant_bell_and_reserve_on_one_card():
    """D11: a card with a bell and the reserve symbol that brings a raid: the joker decision
    first, then its reserve draw (D12: even though the card itself was discarded)."""
    table = CARD_TABLE.copy()
    both = card("c4:PB", 1)
    table[both, RESERVE] = 1
    s = position(
        2,
        draw=[card("c0:P"), both],
        reserve=cards("c2:V1"),
        collections={1: cards("c4:PB", "c4:A1B")},
        card_table=table,
    )
    play(GAME, s, CONTINUE, STOP, take_action(1))  # seat 1 takes the bell+reserve card
    assert s.phase == JOKER and s.actor == 1 and s.pending_draws == 1
    assert collection(s, 1) == [] and reserve_cards(s)[0] == card("c2:V1")
    play(GAME, s, DECLINE_JOKER)
    assert collection(s, 1) == [card("c2:V1")]


def test_scenario_11_reserve_empty():
    """D13: with the reserve empty a reserve symbol does nothing; play goes on."""
    s = position(2, draw=cards("c0:R", "c0:P"), reserve_size=0)
    play(GAME, s, CONTINUE, STOP, take_action(2))
    assert collection(s, 1) == [card("c0:R")]
    assert s.phase == THEFT and s.leader == 1 and s.actor == 1 and s.pending_draws == 0


def test_scenario_12_end_of_game():
    """FIN DE PARTIE, D20, D21: the last draw-pile card triggers the end; the leader goes on
    into the reserve; the game ends after this turn's sharing, scored."""
    s = position(3, draw=cards("c0:P", "c1:P"), draw_size=2, reserve=cards("c2:P", "c3:A3"))
    play(GAME, s, CONTINUE)
    assert s.end_triggered and rules.draw_size(s) == 0 and CONTINUE in mask(s)
    play(GAME, s, CONTINUE)
    assert board(s)[3] == card("c2:P")
    play(GAME, s, CONTINUE)
    assert s.outcome == COUP and s.insp == 5 and s.n == 4
    play(GAME, s, PASS, take_action(1), take_action(2), PASS)
    assert s.phase == GAME_OVER and s.status == TERMINATED and s.actor == -1 and s.turn == 1
    assert mask(s) == set()
    assert GAME.scores(s)["score"] == s.score[:3].tolist()


def test_scenario_12_variant_both_piles_empty_only_stop():
    """D20, D31: both piles empty: the mask is {STOP}, still the leader's decision."""
    s = position(3, draw=cards("c0:P", "c1:P"), draw_size=2, reserve_size=0)
    play(GAME, s, CONTINUE)
    assert s.phase == THEFT and mask(s) == {STOP}
    play(GAME, s, STOP, take_action(1))  # seat 1 takes the last card automatically
    assert s.phase == GAME_OVER and s.status == TERMINATED
    assert collection(s, 0) == [card("c0:P")] and collection(s, 1) == [card("c1:P")]


def test_scenario_13_two_way_ties_and_the_tie_breaker():
    """Calcul des scores, D23, D24: a pair tied 1st takes both lows; the tie-breaker holder wins
    the tie and the high token."""
    a = cards("c0:P", "c0:P", "c0:V1")
    c = [card("c0:F", 1), card("c0:R")]
    result = awards(3, {0: a, 1: [card("c0:V1", 1), card("c0:V2"), card("c0:F")], 2: c})
    assert result[:, 0].tolist() == [LOW_TOKEN, LOW_TOKEN, NO_TOKEN]
    result = awards(3, {0: a, 1: cards("c0:TB", "c0:V2", "c0:F"), 2: c})
    assert result[:, 0].tolist() == [LOW_TOKEN, HIGH_TOKEN, NO_TOKEN]


def test_scenario_14_ties_of_more_than_two():
    """D23, D25, D26: three tied 1st: nobody; the tie-breaker splits them; three tied 2nd:
    only the high; a joker counts as a card of its colour."""
    c1 = cards("c1:P", "c1:P", "c1:V1", "c1:V1", "c1:F", "c1:F", "c1:V2")
    result = awards(4, {0: c1[0:2], 1: c1[2:4], 2: c1[4:6], 3: c1[6:7]})
    assert result[:, 1].tolist() == [NO_TOKEN] * 4
    with_tb = {0: c1[0:2], 1: c1[2:4], 2: [c1[4], card("c1:TB")], 3: c1[6:7]}
    assert awards(4, with_tb)[:, 1].tolist() == [LOW_TOKEN, LOW_TOKEN, HIGH_TOKEN, NO_TOKEN]

    c2 = cards("c2:P", "c2:P", "c2:V1", "c2:V1", "c2:F", "c2:F", "c2:V2", "c2:R", "c2:R", "c2:A1")
    result = awards(4, {0: c2[0:4], 1: c2[4:6], 2: c2[6:8], 3: c2[8:10]})
    assert result[:, 2].tolist() == [HIGH_TOKEN, NO_TOKEN, NO_TOKEN, NO_TOKEN]
    with_tb = {0: c2[0:4], 1: c2[4:6], 2: c2[6:8], 3: [c2[8], card("c2:TB")]}
    assert awards(4, with_tb)[:, 2].tolist() == [HIGH_TOKEN, NO_TOKEN, NO_TOKEN, LOW_TOKEN]

    result = awards(4, {0: [card("c3:P")], 1: [card("c3:P", 1), card("c3:V1")]}, jokers={0: 3})
    assert result[:, 3].tolist() == [LOW_TOKEN, LOW_TOKEN, NO_TOKEN, NO_TOKEN]


def test_scenario_15_feathers_zero_cards_shared_victory():
    """D22, D27, D28: feathers rank like colours (2-2: both lows); nobody with a colour: not
    awarded; equal totals share the victory; the score is recomputed from the final state."""
    both_two = awards(2, {0: cards("c0:F", "c1:F"), 1: cards("c2:F", "c3:F")})
    assert both_two[:, WHITE].tolist() == [LOW_TOKEN, LOW_TOKEN]
    assert both_two[:, 4].tolist() == [NO_TOKEN, NO_TOKEN]
    one_zero = awards(2, {0: cards("c0:F"), 1: cards("c1:P")})
    assert one_zero[:, WHITE].tolist() == [HIGH_TOKEN, NO_TOKEN]

    # Seat 0 ends with c0:F c1:F c0:P, seat 1 with c2:F c3:F: 5 + 5 + 2 each.
    s = position(
        2,
        draw=cards("c0:P"),
        draw_size=1,
        reserve_size=0,
        collections={0: cards("c0:F", "c1:F"), 1: cards("c2:F", "c3:F")},
    )
    play(GAME, s, STOP)
    assert s.phase == GAME_OVER
    assert s.score[:2].tolist() == [12, 12]
    out = np.zeros(2, np.float32)
    GAME.returns(s, out)
    assert out.tolist() == [0.5, 0.5]
    for p in range(2):
        owned = collection(s, p)
        tokens = sum(
            int(s.token_high[t]) if a == HIGH_TOKEN else int(s.token_low[t]) if a else 0
            for t, a in enumerate(s.token_award[p])
        )
        assert s.score[p] == int(CARD_TABLE[owned, VP].sum()) + tokens
