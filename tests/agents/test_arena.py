"""The arena: single games, seat schedules, tournaments, ratings, forfeits and their output."""

import csv
import functools
import io
import json
import logging
import sys
import types
from collections import Counter
from itertools import combinations

import numpy as np
import pytest

from agents import arena
from agents.arena import (
    Entrant,
    as_entrant,
    forfeit_result,
    parse_entrant,
    play,
    run_game,
    schedule,
    tournament,
    workers,
)
from agents.base import RandomAgent
from heist_envs import get_game
from heist_envs.core.errors import IllegalActionError
from heist_envs.registry import make


class IllegalAgent:
    """Plays the first action its mask forbids."""

    def act(self, observation, action_mask):
        return int(np.flatnonzero(action_mask == 0)[0])


def make_illegal(game_name, seed=None):
    return IllegalAgent()


def make_seeded_random(game_name, seed=None, offset=0):
    return RandomAgent(seed + offset)


def test_play_keeps_raising_on_illegal_actions():
    with pytest.raises(IllegalActionError):
        play("art_robbery", [IllegalAgent(), RandomAgent(0)], num_players=2, seed=1)
    result = play("art_robbery", [RandomAgent(0), RandomAgent(1)], num_players=2, seed=1)
    assert sorted(result.rewards) == [-1.0, 1.0] and result.forfeit is None


class SlowAgent(RandomAgent):
    """A random agent that spends CPU time on every decision."""

    def act(self, observation, action_mask):
        sum(range(200_000))
        return super().act(observation, action_mask)


def test_games_count_each_seats_decisions_and_act_time():
    result = play("art_robbery", [SlowAgent(0), RandomAgent(1)], num_players=2, seed=1)
    assert sum(result.seat_decisions) == result.num_decisions and min(result.seat_decisions) > 0
    slow, fast = (t / n for t, n in zip(result.act_cpu_seconds, result.seat_decisions, strict=True))
    assert slow > 10 * fast > 0
    env = make("art_robbery", num_players=2)
    forfeited = run_game(env, [RandomAgent(0), IllegalAgent()], 1, forfeit=True)
    assert sum(forfeited.seat_decisions) == forfeited.num_decisions + 1  # the illegal one too
    assert forfeited.seat_decisions[1] == 1


def test_run_game_forfeit_names_the_seat_and_action():
    env = make("how_to_rob_a_bank", num_players=3)
    result = run_game(env, [RandomAgent(0), RandomAgent(1), IllegalAgent()], 5, forfeit=True)
    assert result.forfeit["seat"] == 2 and result.forfeit["agent"] == "robber_red"
    assert result.rewards == [1.0, -1.0, -1.0]  # the offender's whole team loses
    assert isinstance(result.forfeit["action"], int) and result.forfeit["action_name"]


@pytest.mark.parametrize(("entrants", "sides"), [(2, 2), (2, 4), (3, 3), (4, 2), (2, 3)])
def test_schedule_gives_every_entrant_every_side_equally(entrants, sides):
    seatings = schedule(entrants, sides)
    assert len(set(seatings)) == len(seatings)
    for side in range(sides):
        held = Counter(seating[side] for seating in seatings)
        assert set(held) == set(range(entrants)) and len(set(held.values())) == 1
    if entrants >= sides:  # a round robin: every group of `sides` entrants meets
        groups = {frozenset(s) for s in seatings}
        assert groups == {frozenset(c) for c in combinations(range(entrants), sides)}


def test_entrants_from_names_specs_instances_and_factories():
    assert parse_entrant("random") == Entrant("random", "random", {}, spec="random")
    assert parse_entrant("ismcts:simulations=50,uct_c=2.0,mode=fast").kwargs == {
        "simulations": 50,
        "uct_c": 2.0,
        "mode": "fast",
    }
    with pytest.raises(ValueError, match="available: .*random"):
        parse_entrant("nobody")
    with pytest.raises(ValueError, match="key=value"):
        parse_entrant("random:oops")
    instance = RandomAgent(0)
    assert as_entrant(instance).build("art_robbery", seed=3) is instance
    assert as_entrant(make_illegal).label == "make_illegal"


def test_unknown_game_or_agent_lists_the_valid_ones():
    with pytest.raises(ValueError, match="available: art_robbery, how_to_rob_a_bank"):
        tournament("chess", ["random"], games=1, progress=False)
    with pytest.raises(ValueError, match="available: .*random"):
        tournament("art_robbery", ["random", "alphazero"], games=1, progress=False)
    with pytest.raises(ValueError, match="agent 'random:depth=3' has no parameter depth"):
        tournament("art_robbery", ["random:depth=3"], games=1, progress=False)


def test_tournament_summary_seeds_and_output(tmp_path):
    result = tournament(
        "art_robbery", ["random", "random"], games=7, num_players=2, seed=11, workers=1
    )
    assert len(result.games) == 8  # rounded up to whole rotations
    assert result.agents == ["random", "random_2"]
    assert len({g["seed"] for g in result.games}) == 8
    for row in result.summary:
        assert row["games"] == 8 and row["first_seat_games"] == 4
        assert row["win_low"] <= row["win_rate"] <= row["win_high"]
        assert row["reward_low"] <= row["mean_reward"] <= row["reward_high"]
        assert row["mean_score"] is not None and row["sigma"] < 25 / 3
    wins = sum(row["wins"] for row in result.summary)
    assert wins == sum(seat["wins"] for seat in result.seats)
    again = tournament("art_robbery", ["random", "random"], games=8, num_players=2, seed=11)
    assert again.to_dict() == result.to_dict()

    paths = result.write(tmp_path)
    assert sorted(p.name for p in paths) == ["games.csv", "summary.csv", "tournament.json"]
    summary = list(csv.DictReader(io.StringIO((tmp_path / "summary.csv").read_text())))
    assert [row["agent"] for row in summary] == ["random", "random_2"]
    games = list(csv.DictReader(io.StringIO((tmp_path / "games.csv").read_text())))
    assert len(games) == 8 and {"seat0_agent", "seat1_reward"} <= set(games[0])
    data = json.loads((tmp_path / "tournament.json").read_text())
    assert data["game"] == "art_robbery" and len(data["games"]) == 8 and data["seed"] == 11
    assert "first-seat advantage" in result.table()


def test_the_table_reports_each_entrants_decisions_a_second_from_its_own_cpu_time():
    """A side's decisions over its agents' ``act`` CPU time: the robbers' three seats count
    together, and the games where the entrant held the bank do not count for its robbers."""
    result = tournament(
        "how_to_rob_a_bank", ["random", "heuristic"], games=4, num_players=4, seed=2, workers=1
    )
    robbers = [
        sum(record["seat_decisions"][1:]) / sum(record["act_cpu_seconds"][1:])
        for record in result.games
        if record["seating"][1] == 1
    ]
    assert result.decisions_per_second(1, side=1) == pytest.approx(float(np.median(robbers)))
    for record in result.games:
        record["act_cpu_seconds"] = [0.0] * 4
    assert result.decisions_per_second(1) is None
    assert "decisions/s" in result.table()
    assert "decisions_per_second" not in result.summary[0]  # the summary stays reproducible


def test_team_game_entrants_play_whole_sides():
    result = tournament(
        "how_to_rob_a_bank", ["random", "random"], games=4, num_players=4, seed=2, workers=1
    )
    assert result.side_agents == [["bank"], ["robber_yellow", "robber_red", "robber_green"]]
    for record in result.games:
        robbers = record["agents"][1:]
        assert len(set(robbers)) == 1 and robbers[0] != record["agents"][0]
    assert [row["games"] for row in result.summary] == [4, 4]
    assert [row["first_seat_games"] for row in result.summary] == [2, 2]
    assert [seat["games"] for seat in result.seats] == [4, 4]
    assert [row["fair_share"] for row in result.summary] == [0.5, 0.5]


def test_forfeits_are_recorded_logged_and_rated(caplog):
    with caplog.at_level(logging.WARNING, logger="agents.arena"):
        result = tournament(
            "toits_de_paris", ["random", make_illegal], games=4, num_players=2, seed=3, workers=1
        )
    assert len(result.games) == 4 and len(result.forfeits) == 4
    assert {f["entrant"] for f in result.forfeits} == {"make_illegal"}
    random_row, illegal_row = result.summary
    assert random_row["win_rate"] == 1.0 and illegal_row["win_rate"] == 0.0
    assert illegal_row["forfeits"] == 4 and random_row["forfeits"] == 0
    assert random_row["mu"] > illegal_row["mu"]
    assert "make_illegal" in caplog.text and "illegal action" in caplog.text
    assert "forfeit: game 0, make_illegal" in result.table()


@pytest.mark.slow  # worker processes that each compile the kernels on a cold cache
def test_parallel_games_match_serial_ones_and_unpicklable_agents_run_here(caplog):
    factory = functools.partial(make_seeded_random, offset=1)
    entries = ["random", Entrant("shifted", factory)]
    kwargs = {"games": 6, "num_players": 3, "seed": 4, "progress": False}
    serial = tournament("thiefs_market", entries, workers=1, **kwargs)
    parallel = tournament("thiefs_market", entries, workers=2, **kwargs)
    assert parallel.to_dict() == serial.to_dict()
    with caplog.at_level(logging.WARNING, logger="agents.arena"):
        local = tournament(
            "art_robbery", [RandomAgent(0), lambda g, seed=None: RandomAgent(seed)], workers=2,
            games=2, num_players=2, progress=False,
        )  # fmt: skip
    assert "cannot be sent to worker processes" in caplog.text and len(local.games) == 2


def test_factories_from_an_interactive_main_play_here(monkeypatch, caplog):
    interactive = types.ModuleType("__main__")  # a notebook's: no __file__ to re-import

    def notebook_factory(game_name, seed=None):
        return RandomAgent(seed)

    notebook_factory.__module__ = "__main__"
    notebook_factory.__qualname__ = "notebook_factory"
    interactive.notebook_factory = notebook_factory
    monkeypatch.setitem(sys.modules, "__main__", interactive)
    with caplog.at_level(logging.WARNING, logger="agents.arena"):
        result = tournament(
            "art_robbery", ["random", notebook_factory], games=2, num_players=2, workers=2
        )
    assert "cannot be sent to worker processes" in caplog.text and len(result.games) == 2


class TrueAgent:
    """Returns ``True``, which Python counts as 1 but is no action id."""

    def act(self, observation, action_mask):
        return True


def test_true_is_not_an_action():
    env = make("art_robbery", num_players=2)
    result = run_game(env, [TrueAgent(), RandomAgent(1)], 1, forfeit=True)
    assert result.forfeit["reason"] == "illegal action"
    assert result.forfeit["detail"] == "True (not an action id)"
    assert result.forfeit["action"] == "True"


def test_a_forfeit_loses_every_seat_its_owner_holds():
    game = get_game("art_robbery")
    alone = forfeit_result(game, 4, 2, 5, "error", "boom")
    assert alone.rewards == [1.0, 1.0, -1.0, 1.0]  # no owners given: the seat alone
    owned = forfeit_result(game, 4, 2, 5, "error", "boom", owners=[0, 1, 0, 1])
    assert owned.rewards == [-1.0, 1.0, -1.0, 1.0]  # seat 0 is the same entrant's
    bank = forfeit_result(get_game("how_to_rob_a_bank"), 3, 2, 5, "error", "x", [1, 0, 0])
    assert bank.rewards == [1.0, -1.0, -1.0]  # a team loses together


def test_fair_share_is_one_win_per_side():
    result = tournament(
        "how_to_rob_a_bank", ["random", "random"], games=2, num_players=4, seed=2, workers=1,
        progress=False,
    )  # fmt: skip
    assert [row["fair_share"] for row in result.summary] == [0.5, 0.5]  # bank and robbers
    header, first = result.table().splitlines()[1:3]
    assert "fair share" in header and "0.500" in first.split()


def test_the_tables_of_several_tournaments_advance_together(monkeypatch):
    played, tick = [], workers._tick

    def noted(bar, record, first):
        played.append(min(record["agents"]))  # "a" or "b": which tournament it is
        return tick(bar, record, first)

    monkeypatch.setattr(workers, "_tick", noted)
    plans = [
        arena.plan_tournament("art_robbery", [Entrant(label, "random"), "random"], 4, 2, 1)
        for label in ("a", "b")
    ]
    arena.play_tournaments(plans, workers=1, progress=False)
    assert played == ["a", "b"] * 4


def interrupt_at(monkeypatch, games):
    """Ctrl-C as the tournament's game number ``games`` ends."""
    tick = workers._tick
    ended = []

    def tick_then_stop(bar, record, first):
        ended.append(record)
        if len(ended) == games:
            raise KeyboardInterrupt
        return tick(bar, record, first)

    monkeypatch.setattr(workers, "_tick", tick_then_stop)


def test_ctrl_c_keeps_the_games_finished(monkeypatch, tmp_path):
    interrupt_at(monkeypatch, 3)
    with pytest.raises(arena.TournamentInterrupted) as stop:
        tournament("art_robbery", ["random", "heuristic"], games=10, num_players=2, workers=1)
    (result,) = stop.value.results
    assert str(stop.value) == "2 of 10 games finished" and result.partial
    assert len(result.games) == 2 and result.planned_games == 10
    assert sum(row["seat_games"] for row in result.summary) == 4
    assert "2 of 10 games, partial: interrupted" in result.table().splitlines()[0]
    result.write(tmp_path)
    data = json.loads((tmp_path / "tournament.json").read_text())
    assert data["partial"] and data["planned_games"] == 10 and len(data["games"]) == 2
