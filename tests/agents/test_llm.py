"""The ``llm`` agent against a stub endpoint on 127.0.0.1 that answers as a model would:
well-formed, malformed, illegal, slow and failing (tests/agents/llm_stub.py)."""

import logging
import socket
import sys

import numpy as np
import pytest

import heist_envs
from agents.arena import plan_tournament, play
from agents.base import RandomAgent
from agents.registry import make_agent, parse_spec, ready_agent_names
from agents.text_view import decision_text, rules_summary
from tests.agents.llm_stub import SLOW_SECONDS, StubServer

pytest.importorskip("openai")
from agents.llm import LLMAgent, NotAMove, read_move  # noqa: E402


@pytest.fixture(scope="module")
def stub():
    server = StubServer()
    yield server
    server.stop()


@pytest.fixture
def lines(caplog):
    """The lines the agent writes (its logger's warnings)."""
    caplog.set_level(logging.WARNING, logger="agents.llm")
    return lambda: [r.getMessage() for r in caplog.records if r.name == "agents.llm"]


def closed_port_url() -> str:
    """An endpoint on 127.0.0.1 where nothing listens: connecting is refused."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


def llm(game_name, stub_or_url, model="first", seed=0, **options):
    url = stub_or_url if isinstance(stub_or_url, str) else stub_or_url.base_url
    return make_agent("llm", game_name, seed=seed, model=model, base_url=url, **options)


def decisions_of(game_name, agent, count, seed=3):
    """``agent``'s moves at the first ``count`` positions of a game the first legal move
    plays, with the masks it saw."""
    env = heist_envs.make(game_name)
    env.reset(seed=seed)
    moves = []
    for _ in range(count):
        observation = env.observe(env.agent_selection)
        moves.append(
            (
                agent.act(observation["observation"], observation["action_mask"]),
                observation["action_mask"].copy(),
            )
        )
        env.step(env.legal_actions()[0])
    return moves


@pytest.mark.parametrize("name", heist_envs.game_names())
def test_the_llm_agent_plays_a_full_game_of_every_game_through_the_stub(name, stub, lines):
    """Seat 0's model answers prose first and the first legal id once re-asked, seat 1's
    names the last legal move; the counters show seat 0's retries, one per decision."""
    game = heist_envs.get_game(name)
    seats = game.num_seats(game.min_players)
    agents = [llm(name, stub, "malformed", seed=0), llm(name, stub, "by-name", seed=1)]
    agents += [RandomAgent(k) for k in range(2, seats)]
    expected = {0: lambda legal: legal[0], 1: lambda legal: legal[-1]}
    played = {0: [], 1: []}

    def on_step(env, agent_name, action):
        seat = env.possible_agents.index(agent_name) if agent_name else None
        if seat in expected:
            played[seat].append(action == expected[seat](env.legal_actions()))

    result = play(name, agents, game.min_players, seed=11, on_step=on_step)
    assert result.forfeit is None and not result.truncated
    malformed, by_name = agents[0].stats(), agents[1].stats()
    assert malformed["decisions"] == result.seat_decisions[0] > 0
    assert malformed["retries"] == malformed["decisions"]
    assert malformed["requests"] == 2 * malformed["decisions"]
    assert by_name["decisions"] == by_name["requests"] == result.seat_decisions[1] > 0
    assert by_name["retries"] == 0
    for stats in (malformed, by_name):
        assert stats["fallbacks"] == stats["failures"] == 0 and not stats["stopped"]
        assert stats["prompt_tokens"] == 100 * stats["requests"]  # the stub's usage
        assert stats["completion_tokens"] == 3 * stats["requests"]
        assert stats["request_seconds"] > 0
    assert all(played[0]) and all(played[1])  # the first legal move; the last one by name
    assert lines() == []


def test_a_decision_sends_the_rules_and_the_seats_text_view(stub):
    agent = llm("art_robbery", stub)
    before = len(stub.requests)
    ((move, mask),) = decisions_of("art_robbery", agent, 1)
    game = heist_envs.get_game("art_robbery")
    request = stub.requests[before]
    system, user = request["messages"]
    assert request["model"] == "first" and system["role"] == "system"
    assert rules_summary(game) in system["content"]
    env = heist_envs.make("art_robbery")
    env.reset(seed=3)
    observation = env.observe(env.agent_selection)
    assert user["content"] == decision_text(game, observation["observation"], mask)
    assert move == int(np.flatnonzero(mask)[0])


def test_the_key_comes_from_the_environment_and_a_placeholder_stands_in_without_one(
    stub, monkeypatch
):
    monkeypatch.setenv("OPENAI_API_KEY", "secret-1")
    decisions_of("art_robbery", llm("art_robbery", stub), 1)
    monkeypatch.delenv("OPENAI_API_KEY")
    decisions_of("art_robbery", llm("art_robbery", stub), 1)
    assert stub.keys[-2:] == ["secret-1", "no-key"]


def test_the_endpoint_comes_from_the_environment_without_base_url(stub, monkeypatch):
    monkeypatch.setenv("OPENAI_BASE_URL", stub.base_url)
    agent = make_agent("llm", "art_robbery", model="first")
    decisions_of("art_robbery", agent, 2)
    assert agent.stats()["requests"] == 2


def test_an_illegal_answer_is_answered_with_what_was_wrong_and_asked_again(stub, lines):
    agent = llm("art_robbery", stub, "illegal")
    before = len(stub.requests)
    moves = decisions_of("art_robbery", agent, 3)
    assert all(mask[move] for move, mask in moves)
    assert agent.stats()["retries"] == 3 and agent.stats()["fallbacks"] == 0
    reasked = stub.requests[before + 1]["messages"]
    assert [m["role"] for m in reasked] == ["system", "user", "assistant", "user"]
    assert "is not a legal move now" in reasked[3]["content"]
    assert lines() == []


def test_replies_that_never_name_a_move_play_the_seeded_fallback_after_the_retries(stub, lines):
    agent = llm("art_robbery", stub, "stubborn", seed=7, retries=1)
    moves = decisions_of("art_robbery", agent, 4)
    fallback = RandomAgent(7)
    assert [move for move, _ in moves] == [fallback.act(None, mask) for _, mask in moves]
    stats = agent.stats()
    assert stats["requests"] == 8 and stats["retries"] == 4 and stats["fallbacks"] == 4
    assert stats["failures"] == 0 and not stats["stopped"]
    assert len(lines()) == 4
    assert all("(2 replies named no legal move); played the fallback" in line for line in lines())


@pytest.mark.parametrize(
    ("model", "url", "options", "what"),
    [
        ("first", None, {}, "could not reach the endpoint ([Errno 111] Connection refused)"),
        ("slow", "stub", {"timeout": SLOW_SECONDS / 5}, "no answer within 0.2 s"),
        ("failing", "stub", {}, "the endpoint answered with an error: Error code: 500"),
        ("garbage", "stub", {}, "the endpoint's answer is not a chat completion: '<html>"),
        ("no-choices", "stub", {}, "the endpoint's answer is not a chat completion: \"ChatCom"),
    ],
    ids=["refused", "timeout", "HTTP 500", "garbage", "no choices"],
)
def test_a_failing_endpoint_gives_one_line_and_the_game_goes_on_with_the_fallback(
    stub, lines, model, url, options, what
):
    agent = llm("art_robbery", stub if url else closed_port_url(), model, seed=2, **options)
    agents = [agent, RandomAgent(1), RandomAgent(2)]
    result = play("art_robbery", agents, 3, seed=4)
    assert result.forfeit is None
    stats = agent.stats()
    assert stats["decisions"] == stats["fallbacks"] == result.seat_decisions[0]
    assert stats["requests"] == stats["failures"] == 3  # max_failures in a row, then it stops
    assert stats["stopped"] and stats["retries"] == 0
    written = lines()
    assert len(written) == 4 and all("\n" not in line for line in written)
    assert all(what in line for line in written[:3]), written[0]
    assert "3 requests in a row failed; it plays the fallback" in written[3]


def test_a_spent_budget_stops_the_requests(stub, lines):
    agent = llm("art_robbery", stub, "slow", timeout=SLOW_SECONDS / 5, budget=0.3)
    moves = decisions_of("art_robbery", agent, 4)
    assert all(mask[move] for move, mask in moves)
    assert agent.stats()["requests"] == 2  # 0.2 s, then the 0.1 s the budget has left
    assert "for answers, its budget; it plays the fallback" in lines()[-1]


def test_a_missing_configuration_refuses_before_any_game_starts(stub, monkeypatch):
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    before = len(stub.requests)
    needs = "agent 'llm' needs model=NAME and an endpoint, base_url=URL or the environment's"
    with pytest.raises(ValueError, match=needs):
        plan_tournament("art_robbery", ["llm", "random"], games=2)
    with pytest.raises(ValueError, match=needs):
        plan_tournament("art_robbery", ["llm:model=first", "random"], games=2)
    with pytest.raises(ValueError, match=needs):
        plan_tournament("art_robbery", [f"llm:base_url={stub.base_url}", "random"], games=2)
    assert len(stub.requests) == before
    assert "llm" not in ready_agent_names()  # never offered where no parameters are given


def test_the_heist_command_refuses_an_unconfigured_llm_in_one_line(monkeypatch, capsys):
    from experiments import cli

    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    with pytest.raises(SystemExit) as stop:
        cli.main(["arena", "art_robbery", "--agents", "llm:model=x", "random", "--games", "2"])
    error = capsys.readouterr().err
    assert stop.value.code == 2 and error.count("\n") == 1 and "needs model=NAME" in error


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"timeout": 0}, "timeout must be a positive number, got 0"),
        ({"budget": "lots"}, "budget must be a positive number, got 'lots'"),
        ({"retries": -1}, "retries must be a whole number, at least 0; got -1"),
        ({"max_failures": 1.5}, "max_failures must be a whole number, at least 1; got 1.5"),
    ],
)
def test_bad_options_are_refused_in_one_line(stub, options, message):
    with pytest.raises(ValueError, match=message):
        llm("art_robbery", stub, **options)


def test_a_spec_names_the_model_and_the_endpoint(stub):
    target, params = parse_spec(f"llm:model=first,base_url={stub.base_url},retries=1")
    agent = make_agent(target, "toits_de_paris", **params)
    assert isinstance(agent, LLMAgent) and agent.retries == 1 and agent.model == "first"


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("7", 7),
        ("I take the dog.\n\n`7`.", 7),
        ("**play guard dog**", 7),
        ("Play Number 1", 1),
    ],
)
def test_a_reply_names_its_move_on_its_last_line_by_id_or_by_name(reply, expected):
    assert read_move(heist_envs.get_game("art_robbery"), reply, [1, 7, 8]) == expected


@pytest.mark.parametrize(
    ("reply", "problem"),
    [
        (None, "The reply was empty"),
        (" \n ", "The reply was empty"),
        ("3", r"3 \(play Number 3\) is not a legal move now"),
        ("99", "99 is not a move id .they run from 0 to 19."),
        ("play Boss", "'play Boss' is not a legal move now"),
        ("7, I think", "neither a move id nor a move's name"),
        ("\u00b2", "neither a move id nor a move's name"),
    ],
)
def test_a_reply_that_names_no_legal_move_says_why(reply, problem):
    with pytest.raises(NotAMove, match=problem):
        read_move(heist_envs.get_game("art_robbery"), reply, [1, 7, 8])


def test_without_the_extra_the_agent_names_the_extra_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "openai", None)  # import openai fails as if not installed
    monkeypatch.delitem(sys.modules, "agents.llm")
    with pytest.raises(ValueError, match=r"agent 'llm' needs the 'llm' extra .*\[llm\]"):
        make_agent("llm", "art_robbery", model="first", base_url="http://127.0.0.1:1/v1")


def test_the_card_shows_the_agents_retries(stub, monkeypatch):
    from experiments.tools import protocol

    monkeypatch.setattr(protocol, "POOL", ("random",))
    monkeypatch.setattr(protocol, "QUICK_GAMES", 1)
    spec = f"llm:model=malformed,base_url={stub.base_url}"
    card = protocol.evaluate(
        spec, "art_robbery", counts=[2], quick=True, workers=1, progress=False,
        show=lambda text: None,
    )  # fmt: skip
    stats = card.to_dict()["agent_stats"]
    decisions = stats["decisions"]
    assert decisions > 0 and stats["retries"] == decisions  # each first answer is prose
    assert stats["fallbacks"] == 0 and stats["requests"] == 2 * decisions
    assert f"retries {stats['retries']:,.6g}" in card.markdown()
