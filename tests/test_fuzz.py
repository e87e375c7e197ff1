"""Fuzzing: tampered state dicts, records, options and batched-engine arguments, each batch
run in a worker process (tests/fuzz.py) so that a crash or a hang fails the test instead of
ending the run. The default suite runs a fast slice; ``-m slow`` runs many more cases."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import heist_envs
from tests.fuzz import ALLOWED, run_cases

GAMES = [heist_envs.get_game(name) for name in heist_envs.game_names()]
JUNK = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=5)
    | st.sampled_from(["random", "win", "score", "T1", "P4"]),
    lambda inner: st.lists(inner, max_size=12) | st.dictionaries(st.text(max_size=2), inner),
    max_leaves=60,
)


def base(game):
    """The game, its player count and a position reached by random play."""
    return st.fixed_dictionaries(
        {
            "game": st.just(game.name),
            "players": st.integers(game.min_players, game.max_players),
            "seed": st.integers(0, 2**31),
            "moves": st.integers(0, 120),
        }
    )


def tampered(game):
    """One element of one field changed within its dtype."""
    return base(game).flatmap(
        lambda b: st.fixed_dictionaries(
            {
                **{k: st.just(v) for k, v in b.items()},
                "kind": st.just("state"),
                "field": st.integers(0, 2**20),
                "index": st.integers(0, 2**20),
                "mode": st.sampled_from(["delta", "bound", "any"]),
                "number": st.sampled_from([-2, -1, 1, 2]) | st.integers(0, 2**62),
            }
        )
    )


def malformed(game):
    how = ["missing", "float", "string", "bool", "nested", "deep", "huge", "list"]
    how += ["version", "game", "not_a_dict"]
    return (
        base(game)
        .map(lambda b: {**b, "kind": "malformed"})
        .flatmap(
            lambda b: st.fixed_dictionaries(
                {
                    **{k: st.just(v) for k, v in b.items()},
                    "field": st.integers(0, 2**20),
                    "how": st.sampled_from(how),
                    "number": st.integers(0, 2**20),
                }
            )
        )
    )


def record(game):
    how = ["action", "action_type", "game", "num_players", "seed", "options", "version"]
    how += ["deep", "deep_text", "none"]
    return base(game).flatmap(
        lambda b: st.fixed_dictionaries(
            {
                **{k: st.just(v) for k, v in b.items()},
                "kind": st.just("record"),
                "how": st.sampled_from(how),
                "number": st.integers(0, 2**20),
            }
        )
    )


def options(game):
    names = sorted(game.options)
    return st.fixed_dictionaries(
        {
            "kind": st.just("options"),
            "game": st.just(game.name),
            "players": st.integers(game.min_players, game.max_players),
            "seed": st.integers(0, 2**31),
            "options": st.dictionaries(st.sampled_from(names), JUNK, max_size=2),
        }
    )


def vector(game):
    return st.fixed_dictionaries(
        {
            "kind": st.just("vector"),
            "game": st.just(game.name),
            "players": st.integers(game.min_players, game.max_players),
            "seed": st.integers(0, 2**31),
            "num_envs": st.integers(-2, 6) | JUNK,
            "actions": st.none() | JUNK,
            "active": st.none() | JUNK,
        }
    )


def any_case(game):
    return st.one_of(tampered(game), malformed(game), record(game), options(game), vector(game))


def check(cases):
    failures = [(c, outcome) for c, outcome in run_cases(cases) if outcome not in ALLOWED]
    assert not failures, f"{len(failures)} failing cases, first: {failures[0]}"


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
@settings(max_examples=1, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_fuzz_fast_slice(game, data):
    """40 cases per game in one worker: half tampered values, the rest everything else."""
    cases = data.draw(st.lists(tampered(game), min_size=20, max_size=20))
    cases += data.draw(st.lists(any_case(game), min_size=20, max_size=20))
    check(cases)


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_fuzz_long(game, data):
    """10 workers of 100 cases per game."""
    check(data.draw(st.lists(any_case(game), min_size=100, max_size=100)))


def test_the_measured_cases_take_every_registered_game_in_turn(monkeypatch):
    """A game registered beside the shipped ones (tests/vault, a fifth) is tampered with too."""
    from heist_envs.core.catalog import GAME_MODULES
    from tests.fuzz import tampered_state_cases

    monkeypatch.setitem(GAME_MODULES, "vault", "tests.vault")
    names = heist_envs.game_names()
    assert len(names) == 5
    cases = tampered_state_cases(2 * len(names), seed=0)
    assert [case["game"] for case in cases] == names * 2
    vault = heist_envs.get_game("vault")
    players = [case["players"] for case in cases if case["game"] == "vault"]
    assert all(vault.min_players <= n <= vault.max_players for n in players)
