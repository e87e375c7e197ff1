"""The batched route plays the serial route's games, and says when a table cannot take it."""

import logging
from dataclasses import replace
from functools import partial

import numpy as np
import pytest

from agents.arena import Entrant, agent_seed, parse_entrant, tournament
from agents.arena.batched import seat_seeds, unbatched_reason
from agents.base import make_random
from heist_envs import get_game
from heist_envs.core.policy_rng import rng_state


def both_routes(agents, game="art_robbery", games=6, num_players=3, **kwargs):
    kwargs = dict(
        games=games, num_players=num_players, seed=11, workers=1, progress=False, **kwargs
    )
    serial = tournament(game, agents, batched=False, **kwargs)
    batched = tournament(game, agents, batched=True, **kwargs)
    return serial, batched


def test_seat_seeds_are_the_serial_routes_agent_seeds_and_random_states():
    seeds = np.array([0, 1, 2**32 - 1, 2**32, 2**64 - 1, 123456789012345], np.uint64)
    agent_seeds = np.zeros((len(seeds), 4), np.uint64)
    rngs = np.zeros((len(seeds), 4, 1), np.uint64)
    seat_seeds(np.arange(len(seeds)), seeds, agent_seeds, rngs)
    for g, seed in enumerate(seeds.tolist()):
        for seat in range(4):
            assert agent_seeds[g, seat] == agent_seed(seed, seat)
            assert rngs[g, seat, 0] == rng_state(int(agent_seeds[g, seat]))[0]


def test_heuristics_play_the_same_games_on_both_routes():
    serial, batched = both_routes(["heuristic", "heuristic", "random"])
    assert serial.to_dict() == batched.to_dict()
    assert len({tuple(r["rewards"]) for r in batched.games}) > 1  # not one game replayed
    assert all(sum(r["seat_decisions"]) == r["decisions"] for r in batched.games)


def test_game_options_deal_as_the_env_deals():
    serial, batched = both_routes(["heuristic", "random"], options={"max_turns": 20})
    assert serial.to_dict() == batched.to_dict()
    assert any(r["truncated"] for r in batched.games)


def test_a_network_plays_the_same_games_on_both_routes():
    pytest.importorskip("sb3_contrib")
    serial, batched = both_routes(["ppo", "heuristic"], games=4, num_players=4)
    assert serial.to_dict() == batched.to_dict()


def test_a_table_that_cannot_batch_plays_one_game_at_a_time_and_says_so(caplog):
    factory = Entrant("mine", make_random)
    with caplog.at_level(logging.WARNING, logger="agents.arena"):
        serial, batched = both_routes([factory, "random"], games=2)
    said = [r.getMessage() for r in caplog.records]
    assert said == [
        "art_robbery: not batched, one game at a time: mine is none of heuristic, ppo, random"
    ]
    assert serial.to_dict() == batched.to_dict()


def test_a_decision_past_its_time_limit_loses_the_game_on_the_batched_route():
    hurried = replace(parse_entrant("heuristic"), time_limit=1e-12)
    result = tournament("art_robbery", [hurried, "random"], games=4, num_players=2, seed=1,
                        progress=False, batched=True)  # fmt: skip
    assert [f["reason"] for f in result.forfeits] == ["timeout"] * 4
    assert {f["entrant"] for f in result.forfeits} == {"heuristic"}


def test_the_quick_card_plays_more_games_at_the_tables_that_batch(monkeypatch):
    from experiments.tools import protocol

    monkeypatch.setattr(protocol, "POOL", ("random", "ismcts:simulations=2"))
    monkeypatch.setattr(protocol, "QUICK_BATCHED_GAMES", 30)
    monkeypatch.setattr(protocol, "QUICK_GAMES", 2)
    card = protocol.evaluate("heuristic", "art_robbery", counts=[2], quick=True, workers=1,
                             progress=False, show=lambda *a: None)  # fmt: skip
    assert [t["games"] for t in card.tables] == [30, 2]
    assert "2 games per table (30 at a table whose agents play batched)" in card.markdown()
    serial = protocol.evaluate("heuristic", "art_robbery", counts=[2], quick=True, workers=1,
                               progress=False, show=lambda *a: None, batched=False)  # fmt: skip
    assert [t["games"] for t in serial.tables] == [2, 2]


def test_the_restricted_heuristic_plays_the_same_games_on_both_routes(caplog):
    from agents.restricted import make_restricted

    kind = next(iter(get_game("art_robbery").action_kinds))
    restricted = Entrant("restricted", partial(make_restricted, agent="heuristic", forbid=[kind]))
    searching = Entrant("searching", partial(make_restricted, agent="ismcts", forbid=[0]))
    with caplog.at_level(logging.WARNING, logger="agents.arena"):
        serial, batched = both_routes([restricted, "heuristic"])
    assert caplog.records == []  # it batched
    assert serial.to_dict() == batched.to_dict()
    unrestricted = tournament("art_robbery", ["heuristic", "heuristic"], games=6, num_players=3,
                              seed=11, workers=1, progress=False)  # fmt: skip
    assert [r["rewards"] for r in unrestricted.games] != [r["rewards"] for r in batched.games]
    assert unbatched_reason(searching) == "searching is none of heuristic, ppo, random"


def odd_rule(observation):
    """Forbid the Boss and the Greedy Thief where the observation's sum is odd, every action
    elsewhere (so those decisions play unrestricted)."""
    return THIEVES if int(observation.sum()) % 2 else range(get_game("art_robbery").num_actions)


KINDS = get_game("art_robbery").action_kinds
THIEVES = [*KINDS["play the Boss"], *KINDS["play the Greedy Thief"]]


def test_agents_restricted_by_a_rule_play_the_same_games_on_both_routes(caplog):
    from agents.restricted import make_restricted

    ruled = [
        Entrant(f"ruled {agent}", partial(make_restricted, agent=agent, rule=odd_rule))
        for agent in ("heuristic", "random")
    ]
    with caplog.at_level(logging.WARNING, logger="agents.arena"):
        serial, batched = both_routes([*ruled, "heuristic"])
    assert caplog.records == []  # it batched
    assert serial.to_dict() == batched.to_dict()
    plain = tournament("art_robbery", ["heuristic", "random", "heuristic"], games=6,
                       num_players=3, seed=11, workers=1, progress=False)  # fmt: skip
    assert [r["scores"] for r in plain.games] != [r["scores"] for r in batched.games]
