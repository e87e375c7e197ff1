"""A game defined in this folder alone, registered from here, runs on every floor: the AEC env
(PettingZoo's own tests), the batched engine, the arena, the metrics, the docs generator and the
web table. Nothing outside this folder knows it."""

from pathlib import Path

import pytest
from pettingzoo.test import api_test, seed_test

import heist_envs
from heist_envs.core.catalog import GAME_MODULES
from heist_envs.core.engines import vector_games

NAME = "vault"
HERE = Path(__file__).parent


@pytest.fixture(autouse=True)
def registered(monkeypatch):
    """Vault is a known game during each test, and forgotten after it."""
    monkeypatch.setitem(GAME_MODULES, NAME, __package__)
    return heist_envs.get_game(NAME)


@pytest.mark.parametrize("num_players", [2, 3])
def test_the_aec_env_passes_pettingzoo_s_tests(num_players):
    api_test(heist_envs.make(NAME, num_players=num_players), num_cycles=50)
    seed_test(lambda: heist_envs.make(NAME, num_players=num_players), num_cycles=50)


def test_the_batched_engine_plays_it_to_the_end_with_one_winner_a_game():
    games = vector_games(heist_envs.get_game(NAME), num_envs=32, num_players=3)
    games.reset(seed=5)
    finished = 0
    for step in range(200):
        games.step(games.random_actions(seed=step))
        ended = games.terminated
        finished += int(ended.sum())
        assert (games.rewards[ended] == 1).sum(axis=1).tolist() == [1] * int(ended.sum())
    assert finished > 100


def test_the_arena_rates_agents_at_it():
    from agents.arena import tournament

    result = tournament(
        NAME, ["random", "ismcts:simulations=200"], games=60, seed=3, workers=1, progress=False
    )
    rates = {row["agent"]: row for row in result.summary}
    search, random = rates["ismcts:simulations=200"], rates["random"]
    assert search["games"] == random["games"] == 60
    assert search["win_low"] > random["win_high"]  # search plays the take-last game well


def test_the_metrics_measure_it():
    from experiments.studies.metrics import metrics

    result = metrics(NAME, ["random"], games=60, num_players=2, seed=1, progress=False)
    assert result["games"] == 60 and result["rounds_counted_as"].startswith("decisions")
    assert 3 <= result["decisions"]["mean"] <= 9  # 5-9 bars, one or two a turn


def test_the_docs_generator_writes_its_page():
    from experiments.tools.docs import page

    text = page(heist_envs.get_game(NAME), root=HERE / "docs")
    assert text.startswith("# Vault (`vault_v0`)")
    assert "whoever takes the last one wins" in text and "V1:" in text
    assert "2 to 3 players (default 2)" in text and "no heuristic for this game" in text


def test_the_web_table_serves_it():
    from starlette.testclient import TestClient

    from experiments.web.server import create_app

    client = TestClient(create_app())
    client.get("/")
    answer = client.post(
        "/api/tables", json={"game": NAME, "players": ["human", "random"], "seed": 2}
    )
    assert answer.status_code == 200, answer.text
    view = client.get(f"/api/tables/{answer.json()['id']}/view").json()
    assert view["table"] == {"text": "Vault: 8 bars left, player 0 to take"}
    assert view["legal"] == [
        {"action": 0, "name": "take 1 bar"},
        {"action": 1, "name": "take 2 bars"},
    ]
