"""Bad input through the public API: a clear ValueError and an unchanged game, never a crash.

Each test is a reproduction from the issue that made the library crash, hang, corrupt a game
or raise an internal error.
"""

import json
import multiprocessing
import os

import numpy as np
import pytest

import heist_envs
from heist_envs.core.errors import GameRecordError, InvalidStateError
from heist_envs.core.record import GameRecord
from heist_envs.core.vector import VectorGames

ART, BANK, TOITS, MARKET = (
    "art_robbery",
    "how_to_rob_a_bank",
    "toits_de_paris",
    "thiefs_market",
)


def started(name, num_players=None, seed=0):
    env = heist_envs.make(name, num_players=num_players)
    env.reset(seed=seed)
    return env


def tampered(env, **fields):
    data = env.state_dict()
    data["fields"].update(fields)
    return data


@pytest.mark.parametrize(
    "name, field, value",
    [
        (ART, "raid", 19),
        (BANK, "n_seats", 127),
        (BANK, "n_guards", 108),
        (TOITS, "n", 94),
        (MARKET, "stage", 14),
        (ART, "actor", 50),
    ],
)
def test_out_of_range_fields_are_rejected_and_leave_the_env_as_it_was(name, field, value):
    """Issue items 1 and 2: these loaded, then crashed, hung or corrupted the env."""
    env = started(name)
    before = env.state_record.tobytes()
    with pytest.raises(InvalidStateError, match=f"field {field} = {value}; allowed"):
        env.load_state(tampered(env, **{field: value}))
    assert env.state_record.tobytes() == before
    env.step(env.legal_actions()[0])  # the env plays on


def test_a_running_state_without_a_legal_action_is_rejected():
    env = started(ART, 2)
    hands = np.zeros((5, 9), np.int64)
    data = tampered(env, hands=hands.tolist(), discard=[6, 6, 6, 6, 6, 6, 6, 6, 7])
    data["fields"]["deck_size"] = 0
    with pytest.raises(InvalidStateError):
        env.load_state(data)


def test_state_and_record_versions_are_checked():
    env = started(ART)
    data = env.state_dict()
    data["version"] = 2
    with pytest.raises(GameRecordError, match="version 2"):
        env.load_state(data)
    record = json.loads(env.game_record().to_json())
    record["version"] = 0
    with pytest.raises(GameRecordError, match="version 0"):
        GameRecord.from_json(json.dumps(record))


@pytest.mark.parametrize(
    "key, value, message",
    [
        ("seed", None, "'seed' must be an integer"),
        ("game", ["art_robbery_v0"], "'game' must be a game name"),
        ("num_players", "4", "'num_players' must be an integer"),
        ("actions", [1.5], "'actions' must be a list of integers"),
        ("options", [], "'options' must be a dict"),
    ],
)
def test_records_with_fields_of_the_wrong_type_are_rejected(key, value, message):
    """Issue item 10: a record with ``seed: null`` replayed with a random seed; a record
    whose game is a list raised TypeError."""
    record = json.loads(started(ART).game_record().to_json())
    record[key] = value
    with pytest.raises(GameRecordError, match=message):
        GameRecord.from_json(json.dumps(record))


def test_deeply_nested_and_oversized_records_are_rejected():
    deep = "[" * 100_000 + "]" * 100_000
    with pytest.raises(GameRecordError, match="nested too deeply"):
        GameRecord.from_json(deep)
    with pytest.raises(GameRecordError, match="at most"):
        GameRecord.from_json(" " * (1 << 26))
    env = started(ART)
    data = env.state_dict()
    nested = 0
    for _ in range(100_000):
        nested = [nested]
    data["fields"]["deck"] = nested
    with pytest.raises(GameRecordError, match="field 'deck'"):
        env.load_state(data)


@pytest.mark.parametrize(
    "name, options, message",
    [
        (ART, {"max_turns": 2**31}, "max_turns must be an integer 1 to 2147483647"),
        (ART, {"deck_order": [10**12] * 55}, "deck_order must hold each card type"),
        (TOITS, {"reward": ["win"]}, "reward must be one of"),
        (BANK, {"tile_layouts": 5}, "tile_layouts must be a list"),
        (BANK, {"hands": 5}, "hands must be a list"),
        (BANK, {"early_end": "False"}, "early_end must be True or False"),
        (BANK, {"early_end": 1}, "early_end must be True or False"),
        (MARKET, {"deck_order": {"A": 5}}, r"deck_order\['A'\] must list"),
    ],
)
def test_bad_option_values_raise_a_value_error_naming_the_option(name, options, message):
    """Issue items 5 and 10: OverflowError, MemoryError, TypeError, or accepted wrongly."""
    env = heist_envs.make(name)
    with pytest.raises(ValueError, match=message):
        env.reset(seed=0, options=options)
    with pytest.raises(ValueError, match=message):
        heist_envs.get_game(name).new_state(seed=0, options=options)


def test_numpy_option_values_are_stored_as_plain_python_values():
    """Issue item 5: ``max_rounds=np.int64(5)`` broke ``game_record().to_json()``."""
    env = heist_envs.make(MARKET, max_rounds=np.int64(5))
    env.reset(seed=1, options={"first_player": np.int8(2)})
    env.step(env.legal_actions()[0])
    record = GameRecord.from_json(env.game_record().to_json())
    assert record.options["max_rounds"] == 5 and record.options["first_player"] == 2
    assert record.replay().state_dict() == env.state_dict()
    env = heist_envs.make(BANK, early_end=np.bool_(True))
    assert env.default_options["early_end"] is True


def test_batched_engine_takes_numpy_batch_counts_and_checks_its_arguments():
    """Issue item 4: ``np.int64(8)`` failed and broke later batches; a short ``active``
    array was read out of bounds."""
    game = heist_envs.get_game(ART)
    for num_envs in (np.int64(8), 8, np.uint16(8)):
        games = VectorGames(game, num_envs, 2)
        _, _, masks = games.reset(0)
        actions = masks.argmax(axis=1)
        games.step(actions)
    before = games.states.tobytes()
    for active in (np.ones(3, bool), np.ones(9, bool), [2] * 8, "yes"):
        with pytest.raises(ValueError, match="active must be 8 bools"):
            games.step(actions, active=active)
    for num_envs in (0, -1, 2.0, True, "8", 1 << 40):
        with pytest.raises(ValueError, match="num_envs must be"):
            VectorGames(game, num_envs, 2)
    with pytest.raises(ValueError, match="game must be"):
        VectorGames("art_robbery", 8)
    assert games.states.tobytes() == before


def _child_runs_a_batch(name):
    games = VectorGames(heist_envs.get_game(name), 1024, 2)
    _, _, masks = games.reset(1)
    games.step(masks.argmax(axis=1))
    return int(games.episodes.sum()) >= 0


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_forked_child_runs_batches_after_the_parent_ran_a_parallel_one():
    """Issue item 9: the child was killed ("fork() called from a process already using GNU
    OpenMP"); it now steps its batches with the serial loops."""
    _child_runs_a_batch(ART)  # the parent starts its threads
    context = multiprocessing.get_context("fork")
    with context.Pool(2) as pool:
        assert pool.map(_child_runs_a_batch, [ART, ART]) == [True, True]


def test_bad_option_values_are_refused_when_the_env_is_made():
    """Not first at the ``reset`` that would use them."""
    with pytest.raises(ValueError, match="max_turns"):
        heist_envs.make(ART, max_turns=2**31)
    with pytest.raises(ValueError, match="max_rounds"):
        heist_envs.make(MARKET, max_rounds="many")


def test_a_record_with_an_unknown_option_is_refused():
    """A reset only warns about an unknown option; a record naming one is malformed."""
    env = heist_envs.make(ART)
    env.reset(seed=3)
    data = json.loads(env.game_record().to_json())
    data["options"]["evil"] = 1
    with pytest.raises(GameRecordError, match="evil"):
        GameRecord.from_json(json.dumps(data)).replay()


# Round 2 (issue 29): endings, seats, keys and seeds ------------------------------------------


def ended_by_an_illegal_action(name):
    """Issue 29 item 3's game: seed 3, five first-legal moves, then an illegal one."""
    env = heist_envs.make(name, num_players=3, illegal_action="terminate")
    env.reset(seed=3)
    for _ in range(5):
        env.step(env.legal_actions()[0])
    env.step(next(a for a in range(env.game.num_actions) if a not in env.legal_actions()))
    return env


@pytest.mark.parametrize("name", [ART, BANK, TOITS, MARKET])
def test_an_ending_by_an_illegal_action_survives_records_and_saved_states(name):
    """Issue 29 item 3: the record replayed, and the state reloaded, as a running game."""
    env = ended_by_an_illegal_action(name)
    ending = env.outcome()
    assert ending["status"] == "illegal action"
    replayed = GameRecord.from_json(env.game_record().to_json()).replay()
    loaded = heist_envs.make(name, num_players=3)
    loaded.load_state(json.loads(json.dumps(env.state_dict())))
    for other in (replayed, loaded):
        assert other.outcome() == ending
        assert other.agent_selection == env.agent_selection
        assert other.last()[1:] == env.last()[1:]


def test_a_record_ending_in_an_illegal_action_needs_the_terminate_mode():
    record = GameRecord.from_json(ended_by_an_illegal_action(ART).game_record().to_json())
    assert record.illegal_action == "terminate"
    with pytest.raises(GameRecordError, match="action 5 does not replay"):
        record.replay(illegal_action="raise")


def test_a_finished_game_reloads_with_the_agent_that_was_selected():
    """Issue 29 item 4: the first agent was selected, so last() gave another agent's reward."""
    env = heist_envs.make(MARKET, num_players=3)
    env.reset(seed=1)
    while env.state_record.status == 0:
        env.step(env.legal_actions()[0])
    loaded = heist_envs.make(MARKET, num_players=3)
    loaded.load_state(json.loads(json.dumps(env.state_dict())))
    assert (loaded.agent_selection, loaded.last()[1]) == (env.agent_selection, env.last()[1])
    data = env.state_dict()
    data["agent_selection"] = "player_9"
    with pytest.raises(GameRecordError, match="agent_selection 'player_9'; allowed: player_0"):
        loaded.load_state(data)


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda env: env.observe(True), ValueError, "unknown agent True; agents: player_0"),
        (lambda env: env.action_name(1.5), TypeError, "an action must be an integer"),
        (lambda env: env.action_name(None), TypeError, "an action must be an integer"),
        (lambda env: env.action_name(10**6), ValueError, "action 1000000 is out of range 0-"),
        (lambda env: env.reset(options="abc"), ValueError, "options must be a dict, got 'abc'"),
        (lambda env: env.reset(options=5), ValueError, "options must be a dict, got 5"),
        (
            lambda env: heist_envs.make([ART]),
            ValueError,
            r"game must be a name, got \[.art_robbery.\]; available: ",
        ),
    ],
)
def test_leftover_bad_arguments_are_named_with_what_is_allowed(call, error, message):
    """Issue 29 item 5: read as seat 1, named action 1, or a TypeError from inside."""
    env = started(ART, 3)
    before = env.state_dict()
    with pytest.raises(error, match=message):
        call(env)
    assert env.state_dict() == before


def test_records_and_states_with_an_extra_key_are_refused():
    """Issue 29 item 5: an extra key was ignored."""
    env = started(ART, 3)
    record = json.loads(env.game_record().to_json())
    with pytest.raises(GameRecordError, match=r"unexpected key\(s\) \['evil'\]; allowed: "):
        GameRecord.from_json(json.dumps({**record, "evil": 1}))
    with pytest.raises(GameRecordError, match=r"unexpected key\(s\) \['evil'\]; allowed: "):
        env.load_state({**env.state_dict(), "evil": 1})


@pytest.mark.parametrize("seed", [2**64, 2**200, -1, -(2**70)])
def test_seeds_outside_64_bits_are_refused_not_reduced(seed):
    """Issue 29 item 5: 2**64, 2**200 and -2**70 all played seed 0's game."""
    env = started(ART, 3)
    before = env.state_dict()
    with pytest.raises(ValueError, match=r"seed must be in \[0, 2\*\*64\)"):
        env.reset(seed=seed)
    assert env.state_dict() == before
    record = json.loads(env.game_record().to_json())
    with pytest.raises(GameRecordError, match=r"seed must be in \[0, 2\*\*64\)"):
        GameRecord.from_json(json.dumps({**record, "seed": seed}))
    env.reset(seed=2**64 - 1)  # the largest seed plays
