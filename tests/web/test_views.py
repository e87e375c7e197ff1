"""The web table's views: plain JSON, and a seat's view holds nothing that seat cannot see."""

import json

import numpy as np
import pytest

import heist_envs
from experiments.web.views import table_view
from tests.helpers import random_playout


def views_along_a_game(name, seed, check, every=7):
    """``check(game, s, seat)`` for every seat and the spectator, on every ``every``-th
    position of a random game (a view takes a few milliseconds)."""
    game = heist_envs.get_game(name)
    steps = [0]

    def on_step(s):
        steps[0] += 1
        if steps[0] % every == 1:
            for seat in [None, *range(game.num_seats(int(s.num_players)))]:
                check(game, s, seat)

    random_playout(game, game.default_players, seed, on_step=on_step)


@pytest.mark.parametrize("name", heist_envs.game_names())
def test_views_are_plain_json(name):
    def check(game, s, seat):
        view = table_view(game, s, seat)
        assert json.loads(json.dumps(view)) == view

    views_along_a_game(name, 3, check)


@pytest.mark.parametrize("name", heist_envs.game_names())
def test_a_seat_view_is_the_same_in_every_world_the_seat_cannot_tell_apart(name):
    """determinize re-deals exactly what a seat cannot see: its view must not change, while
    the spectator's does (so the comparison can fail)."""
    spectator_changed = [0]

    def check(game, s, seat):
        if seat is None:
            return
        other = s.copy()
        game.determinize(other, seat, np.uint64(4321 + seat))
        assert table_view(game, other, seat) == table_view(game, s, seat)
        if table_view(game, other, None) != table_view(game, s, None):
            spectator_changed[0] += 1

    views_along_a_game(name, 5, check)
    assert spectator_changed[0] > 0


def test_an_art_robbery_seat_sees_its_own_hand_and_only_counts_of_the_others():
    game = heist_envs.get_game("art_robbery")
    s = game.new_state(3, 11)[0]
    view = table_view(game, s, 1)
    hands = [p["hand"] for p in view["players"]]
    assert hands[0] is None and hands[2] is None and len(hands[1]) == 5
    assert [p["hand_size"] for p in view["players"]] == [5, 5, 5]
    spectator = table_view(game, s, None)
    assert all(len(p["hand"]) == 5 for p in spectator["players"])


def test_thiefs_market_decks_and_trimmed_cards_only_in_the_spectator_view():
    game = heist_envs.get_game("thiefs_market")
    s = game.new_state(4, 2)[0]
    seat_view = table_view(game, s, 0)
    assert seat_view["trimmed"] is None
    assert all(row["deck"] is None for row in seat_view["rows"])
    spectator = table_view(game, s, None)
    assert spectator["trimmed"] and spectator["rows"][0]["deck"]
