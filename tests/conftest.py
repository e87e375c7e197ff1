import pytest

from heist_envs.registry import game_names, get_game


def game_player_counts():
    return [
        (name, n)
        for name in game_names()
        for n in range(get_game(name).min_players, get_game(name).max_players + 1)
    ]


@pytest.fixture(params=game_names())
def game(request):
    return get_game(request.param)
