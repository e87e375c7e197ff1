"""Games as tables: both ways of playing them, the columns, replays, saving and bad input."""

import logging
import os
from functools import partial

import numpy as np
import pandas as pd
import pytest

import heist_envs
from agents.arena import Entrant
from agents.base import RandomAgent
from agents.restricted import action_kinds, make_restricted
from experiments.studies.data import TABLES, GameData, play_games
from heist_envs.core.record import GameRecord


@pytest.fixture(scope="module", params=heist_envs.game_names())
def random_data(request):
    game = heist_envs.get_game(request.param)
    return play_games(game.name, games=12, num_players=game.min_players + 1, seed=5, progress=False)


def replay(data, index):
    """A fresh environment that has replayed game ``index`` of ``data``."""
    row = data.games.loc[data.games["game"] == index].iloc[0]
    actions = data.decisions.loc[data.decisions["game"] == index, "action"].tolist()
    return GameRecord(data.game, data.num_players, int(row["seed"]), {}, actions).replay(), row


def test_batched_games_replay_from_their_seed_and_actions(random_data):
    """Each row's seed and the decisions' actions replay the game to the tabled result."""
    game = heist_envs.get_game(random_data.game)
    for index in range(len(random_data.games)):
        env, row = replay(random_data, index)
        assert all(env.terminations.values()) or all(env.truncations.values())
        for name, values in game.scores(env.state_record).items():
            if all(isinstance(v, (int, float)) for v in values):
                assert [row[f"{name}_{k}"] for k in range(len(values))] == values
        for k, agent in enumerate(env.possible_agents):
            assert row[f"reward_{k}"] == env.rewards[agent]


def test_decisions_table_matches_the_replay(random_data):
    """Seat, legal-action count, phase and running score of every decision are those of the
    replayed game at that decision."""
    game = heist_envs.get_game(random_data.game)
    moves = random_data.decisions[random_data.decisions["game"] == 3]
    env = heist_envs.make(random_data.game, num_players=random_data.num_players)
    env.reset(seed=int(random_data.games.loc[3, "seed"]))
    phase_field = "stage" if game.name == "thiefs_market" else "phase"
    for row in moves.itertuples():
        assert env.possible_agents.index(env.agent_selection) == row.seat
        assert len(env.legal_actions()) == row.legal_actions
        assert row.action in env.legal_actions()
        assert int(getattr(env.state_record, phase_field)) == moves["phase"].cat.categories.get_loc(
            row.phase
        )
        env.step(row.action)
    assert list(moves["decision"]) == list(range(len(moves)))
    assert len(moves) == random_data.games.loc[3, "decisions"]


def test_action_kinds_and_names(random_data):
    kinds = action_kinds(random_data.game)
    game = heist_envs.get_game(random_data.game)
    for row in random_data.decisions.drop_duplicates("action").itertuples():
        assert row.action in kinds[row.action_kind]
        assert row.action_name == game.action_name(row.action)


def test_winners_follow_the_rewards(random_data):
    games = random_data.games
    seats = random_data.num_seats
    rewards = games[[f"reward_{k}" for k in range(seats)]].to_numpy()
    won = games[[f"won_{k}" for k in range(seats)]].to_numpy()
    best = rewards.max(axis=1, keepdims=True)
    assert (won == ((rewards == best) & (best > 0))).all()
    assert (games["terminated"] != games["truncated"]).all()


@pytest.mark.parametrize("name", ["art_robbery", "toits_de_paris", "thiefs_market"])
def test_running_scores_are_the_games_scores_at_each_decision(name):
    """``score_k`` at a decision is what ``Game.scores`` reports for that position."""
    data = play_games(name, games=2, num_players=3, seed=4, progress=False)
    game = heist_envs.get_game(name)
    env = heist_envs.make(name, num_players=3)
    env.reset(seed=int(data.games.loc[1, "seed"]))
    moves = data.decisions[data.decisions["game"] == 1]
    for row in moves.itertuples():
        expected = game.scores(env.state_record)["score"]
        assert [getattr(row, f"score_{k}") for k in range(3)] == expected
        env.step(row.action)
    final = data.games.loc[1, [f"score_{k}" for k in range(3)]].tolist()
    assert final == game.scores(env.state_record)["score"]


def test_arena_agents_rotate_and_record_every_decision():
    data = play_games("art_robbery", ["random", "heuristic"], games=4, num_players=2, seed=3,
                      progress=False)  # fmt: skip
    assert data.games["agent_0"].tolist() == ["random", "heuristic", "random", "heuristic"]
    for g in range(4):
        moves = data.decisions[data.decisions["game"] == g]
        assert len(moves) == data.games.loc[g, "decisions"]
        seat_agent = dict(zip(moves["seat"], moves["agent"], strict=False))
        assert seat_agent == {0: data.games.loc[g, "agent_0"], 1: data.games.loc[g, "agent_1"]}
    env, row = replay(data, 1)
    assert [row[f"score_{k}"] for k in range(2)] == heist_envs.get_game("art_robbery").scores(
        env.state_record
    )["score"]


def both_routes(game, agents, num_players, games=6, **kwargs):
    """The same games through the batched and the serial route: equal tables."""
    batched, serial = (
        play_games(game, agents, games, num_players, seed=4, progress=False, route=r, **kwargs)
        for r in ("batched", "serial")
    )
    for name in TABLES:
        pd.testing.assert_frame_equal(getattr(batched, name), getattr(serial, name))
    return batched


def test_heuristic_and_random_play_the_same_decisions_on_both_routes(caplog):
    with caplog.at_level(logging.WARNING):
        data = both_routes("art_robbery", ["heuristic", "random", "heuristic"], 3)
        both_routes("how_to_rob_a_bank", ["random", "heuristic", "heuristic"], 3, rotate=False)
        both_routes("art_robbery", ["heuristic"], 2, options={"max_turns": 6})
    assert caplog.records == []  # every table batched
    assert len(data.decisions) > 100
    assert set(data.games["agent_0"]) == {"heuristic", "random"}


def test_a_restricted_heuristic_plays_the_same_decisions_on_both_routes():
    kind = "play the Greedy Thief"
    restricted = Entrant("restricted", partial(make_restricted, agent="heuristic", forbid=[kind]))
    data = both_routes("art_robbery", [restricted, "heuristic"], 2)
    rate = (
        (data.decisions["action_kind"] == kind)
        .groupby(data.decisions["agent"], observed=True)
        .mean()
    )
    assert rate["restricted"] < rate["heuristic"]  # only where nothing else is legal


def test_a_heuristic_restricted_by_a_rule_plays_the_same_decisions_on_both_routes():
    from agents.toits_de_paris.restrictions import MaxReveals

    rule = MaxReveals(1)
    restricted = Entrant("restricted", partial(make_restricted, agent="heuristic", rule=rule))
    data = both_routes("toits_de_paris", [restricted, "heuristic"], 2, games=4)
    revealed = data.decisions.groupby("agent", observed=True)["revealed"].mean()
    assert revealed["restricted"] < revealed["heuristic"]


def test_a_network_plays_the_same_decisions_on_both_routes():
    pytest.importorskip("sb3_contrib")
    data = both_routes("art_robbery", ["ppo", "heuristic"] * 2, 4, games=4)
    assert set(data.decisions["agent"]) == {"ppo", "heuristic"}


def test_a_table_that_cannot_batch_says_so_when_asked(caplog):
    with caplog.at_level(logging.WARNING, logger="agents.arena"):
        data = play_games("art_robbery", [RandomAgent(1), "heuristic"], games=2, num_players=2,
                          progress=False, route="batched")  # fmt: skip
    assert [r.getMessage() for r in caplog.records] == [
        "art_robbery: not batched, one game at a time: RandomAgent is none of heuristic, ppo, "
        "random"
    ]
    assert len(data.games) == 2


def test_same_seed_same_tables():
    one = play_games("toits_de_paris", [RandomAgent(1)], games=3, num_players=2, seed=9,
                     progress=False)  # fmt: skip
    two = play_games("toits_de_paris", [RandomAgent(1)], games=3, num_players=2, seed=9,
                     progress=False)  # fmt: skip
    pd.testing.assert_frame_equal(one.decisions, two.decisions)
    pd.testing.assert_frame_equal(one.games, two.games)


def test_thiefs_market_buys_name_the_card():
    data = play_games("thiefs_market", games=5, num_players=3, seed=1, progress=False)
    buys = data.decisions["action_kind"] == "buy a card"
    assert (data.decisions.loc[buys, "card"] > 0).all()
    assert (data.decisions.loc[~buys, "card"] == 0).all()


def test_seats_table():
    data = play_games("how_to_rob_a_bank", games=6, num_players=3, seed=1, progress=False)
    seats = data.seats()
    assert len(seats) == 6 * 3
    assert set(seats.columns) >= {"game", "seat", "agent", "reward", "won", "stolen"}
    robbers = seats[seats["seat"] > 0].groupby("game")["won"].nunique()
    assert (robbers == 1).all()  # the robbers share one outcome


def test_save_and_load(tmp_path):
    data = play_games("art_robbery", games=3, num_players=2, seed=1, progress=False)
    paths = data.save(tmp_path / "out")
    assert sorted(p.name for p in paths) == ["decisions.parquet", "games.parquet"]
    loaded = GameData.load(tmp_path / "out")
    assert (loaded.game, loaded.num_players) == ("art_robbery", 2)
    pd.testing.assert_frame_equal(loaded.decisions, data.decisions)
    pd.testing.assert_frame_equal(loaded.games, data.games)


def test_unwritable_path_leaves_nothing(tmp_path):
    data = play_games("art_robbery", games=2, num_players=2, seed=1, progress=False)
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(ValueError, match="cannot write game data"):
        data.save(blocker / "out")
    with pytest.raises(ValueError, match="cannot write"):
        data.save(tmp_path / "decisions.parquet" / "..")  # a folder, not a file, in the way
    assert sorted(p.name for p in tmp_path.iterdir()) == ["decisions.parquet", "file"]
    with pytest.raises(ValueError, match="no saved game data"):
        GameData.load(tmp_path)


def test_read_only_folder_leaves_nothing(tmp_path):
    data = play_games("art_robbery", games=2, num_players=2, seed=1, progress=False)
    folder = tmp_path / "readonly"
    folder.mkdir()
    os.chmod(folder, 0o500)
    try:
        if os.access(folder, os.W_OK):
            pytest.skip("running as a user who may write anywhere")
        with pytest.raises(ValueError, match="cannot write game data"):
            data.save(folder)
        assert os.listdir(folder) == []
    finally:
        os.chmod(folder, 0o700)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"games": 0}, "games must be a positive integer"),
        ({"agents": ["nobody"]}, "unknown agent 'nobody'"),
        ({"agents": ["random", "random"]}, "give one agent for all of them or one per seat"),
        ({"num_players": 9}, "out of range"),
        ({"options": {"colour": 1}}, "unknown option"),
        ({"route": "fast"}, "route must be one of auto, batched, serial, got 'fast'"),
    ],
)
def test_bad_input(kwargs, message):
    with pytest.raises(ValueError, match=message):
        play_games("art_robbery", **{"num_players": 3, "progress": False, **kwargs})


def test_options_are_recorded_and_used():
    data = play_games("art_robbery", games=2, num_players=2, seed=1, options={"max_turns": 3},
                      progress=False)  # fmt: skip
    assert data.games["truncated"].all()
    assert '"max_turns": 3' in data.games.loc[0, "options"]
    assert np.array_equal(data.games["decisions"], [3 + t for t in data.games["decisions"] - 3])
