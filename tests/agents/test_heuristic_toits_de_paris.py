"""Les Toits de Paris's heuristic, rule of thumb by rule of thumb: each test builds a position,
names the move the heuristic must play and the one it must not. (Its theft decisions, reveal
on or stop, and how its weights move them: tests/agents/test_tune_heuristic.py.)"""

from heist_envs.toits_de_paris import GAME
from heist_envs.toits_de_paris.actions import (
    CONTINUE,
    DECLINE_JOKER,
    JOKER_COLOUR_0,
    PASS,
    STOP,
    take_action,
)
from heist_envs.toits_de_paris.state import JOKER, LEADER_EXTRA, LEADER_MUST
from tests.helpers import heuristic_moves, play
from tests.toits_de_paris.positions import board, card, cards, new_game, position


def sharing(s, revealed):
    """Reveal ``revealed`` cards in all (the first is up) and stop: the leader takes first."""
    play(GAME, s, *[CONTINUE] * (revealed - 1), STOP)
    assert s.phase == LEADER_MUST and s.actor == 0
    return s


def space_of(s, label, copy=0):
    """The take action of the board space that holds the card ``label``."""
    (space,) = [k for k, c in board(s).items() if c == card(label, copy)]
    return take_action(space)


def test_a_card_is_worth_the_points_and_majorities_it_adds_to_the_lead():
    # each card wins its colour's majority; the 2-point card adds its points on top
    s = sharing(new_game(2, draw=cards("c0:P", "c1:P", "c2:V2")), 3)
    assert heuristic_moves(GAME, s) == {space_of(s, "c2:V2")}


def test_a_reserve_symbol_is_worth_a_draw():
    s = sharing(new_game(2, draw=cards("c0:P", "c1:R", "c2:P")), 3)
    assert heuristic_moves(GAME, s) == {space_of(s, "c1:R")}


def test_a_card_that_sets_off_a_police_raid_is_never_taken():
    # two bells of colour 1 held: a third discards the colour
    held = cards("c1:A1B", "c1:PB", "c1:V2")
    draw = [card("c1:PB", 1), *cards("c0:P", "c2:P")]
    s = sharing(position(2, draw=draw, collections={0: held}), 3)
    moves = heuristic_moves(GAME, s)
    assert moves == {space_of(s, "c0:P"), space_of(s, "c2:P")}
    assert space_of(s, "c1:PB", 1) not in moves


def test_a_bell_one_short_of_a_raid_risks_every_card_of_its_colour():
    # one bell of colour 1 held: the bell card would leave the colour a bell from a raid
    draw = [card("c1:PB"), card("c1:P"), card("c2:P")]
    s = sharing(position(2, draw=draw, collections={0: cards("c1:A1B", "c1:V2", "c1:V1")}), 2)
    assert heuristic_moves(GAME, s) == {space_of(s, "c1:P")}
    # with no bell held the two cards are worth the same: the tie is broken at random
    s = sharing(position(2, draw=draw, collections={0: cards("c1:V2", "c1:V1")}), 2)
    assert heuristic_moves(GAME, s) == {space_of(s, "c1:P"), space_of(s, "c1:PB")}


def test_the_leader_takes_the_extra_card_while_it_is_worth_anything():
    s = sharing(new_game(2, draw=cards("c0:P", "c1:P", "c2:V2")), 3)
    play(GAME, s, space_of(s, "c2:V2"), space_of(s, "c1:P"))
    assert s.phase == LEADER_EXTRA and s.actor == 0
    assert heuristic_moves(GAME, s) == {space_of(s, "c0:P")}


def test_the_leader_passes_an_extra_card_that_would_set_off_a_raid():
    held = cards("c1:A1B", "c1:PB", "c1:V2")
    draw = [*cards("c0:P", "c2:P"), card("c1:PB", 1)]
    s = sharing(position(2, draw=draw, collections={0: held}), 3)
    play(GAME, s, space_of(s, "c0:P"), space_of(s, "c2:P"))
    assert s.phase == LEADER_EXTRA and s.actor == 0
    assert heuristic_moves(GAME, s) == {PASS}


def test_the_joker_goes_to_a_colour_where_it_wins_a_majority():
    # a raid discards seat 0's colour 3: it keeps one colour-1 card and is offered the joker
    held = cards("c3:A1B", "c3:PB", "c3:P", "c3:V1", "c1:P")
    draw = [card("c3:PB", 1), *cards("c1:PB", "c0:P", "c1:A2B", "c1:A1B", "c0:P")]
    s = position(2, draw=draw, collections={0: held})
    play(GAME, s, STOP)
    assert s.phase == JOKER and s.actor == 0
    moves = heuristic_moves(GAME, s, seeds=range(64))
    assert moves == {JOKER_COLOUR_0 + colour for colour in (0, 2, 3, 4)}  # ties, all played
    assert JOKER_COLOUR_0 + 1 not in moves and DECLINE_JOKER not in moves
