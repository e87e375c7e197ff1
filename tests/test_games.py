"""Tests every registered game must pass: PettingZoo's API and seed tests, honest
observations, reproducibility (jitted or not), a golden playthrough, and clear errors."""

import importlib
import json
import os
import subprocess
import sys

import numpy as np
import pytest
from pettingzoo.test import (
    api_test,
    parallel_api_test,
    parallel_seed_test,
    performance_benchmark,
    render_test,
    seed_test,
    state_test,
)
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

import heist_envs
from heist_envs.core.errors import GameRecordError, IllegalActionError
from heist_envs.core.game import RUNNING
from heist_envs.core.record import GameRecord
from tests.conftest import game_player_counts
from tests.golden import golden_path, playthrough
from tests.helpers import legal_actions, random_playout

GAME_COUNTS = game_player_counts()
slow = pytest.mark.slow


@pytest.mark.parametrize(("name", "num_players"), GAME_COUNTS)
def test_pettingzoo_api(name, num_players):
    api_test(heist_envs.make(name, num_players=num_players), num_cycles=300)


@pytest.mark.parametrize(("name", "num_players"), GAME_COUNTS)
def test_pettingzoo_parallel_api_after_turn_based_conversion(name, num_players):
    env = heist_envs.make(name, num_players=num_players)
    parallel_api_test(turn_based_aec_to_parallel(env), num_cycles=300)


@pytest.mark.parametrize(("name", "num_players"), GAME_COUNTS)
def test_pettingzoo_parallel_env_passes_the_parallel_api_and_seed_tests(name, num_players):
    """Issue 29 item 7; issue 52 item 11: parallel_seed_test samples every agent's action
    unmasked, and the default env (which raises on an illegal action) passes it."""
    module = importlib.import_module(f"heist_envs.{name}_v0")
    parallel_api_test(module.parallel_env(num_players=num_players), num_cycles=300)
    parallel_seed_test(lambda: module.parallel_env(num_players=num_players))


@pytest.mark.parametrize(("name", "num_players"), GAME_COUNTS)
def test_parallel_env_samples_legal_actions_for_a_whole_game(name, num_players):
    """Issue 52 item 11: unmasked samples are legal for the agent to act, so a parallel loop
    of ``action_space(agent).sample()`` plays a game to its end, the same game twice."""
    module = importlib.import_module(f"heist_envs.{name}_v0")
    records = []
    for _ in range(2):
        env = module.parallel_env(num_players=num_players)
        env.reset(seed=3)
        for i, agent in enumerate(env.possible_agents):
            env.action_space(agent).seed(i)
        while env.agents:
            env.step({agent: env.action_space(agent).sample() for agent in env.agents})
        assert env.unwrapped.outcome()["status"] in ("terminated", "truncated")
        records.append(env.unwrapped.actions)
    assert records[0] == records[1]


@pytest.mark.parametrize(("name", "num_players"), GAME_COUNTS)
def test_pettingzoo_state(name, num_players):
    """state_test steps unmasked random actions: illegal ones end the game here."""

    def make():
        return heist_envs.make(name, num_players=num_players, illegal_action="terminate")

    state_test(make(), turn_based_aec_to_parallel(make()), num_cycles=100)


@pytest.mark.parametrize(("name", "num_players"), GAME_COUNTS)
def test_pettingzoo_render(name, num_players):
    render_test(
        lambda render_mode: heist_envs.make(name, num_players=num_players, render_mode=render_mode)
    )


@slow  # performance_benchmark runs 5 s a call
@pytest.mark.parametrize(("name", "num_players"), GAME_COUNTS)
def test_pettingzoo_performance_benchmark(name, num_players, capsys):
    performance_benchmark(heist_envs.make(name, num_players=num_players))
    assert "turns per second" in capsys.readouterr().out


@pytest.mark.parametrize(("name", "num_players"), GAME_COUNTS)
def test_pettingzoo_seed(name, num_players):
    seed_test(lambda: heist_envs.make(name, num_players=num_players), num_cycles=300)


@pytest.mark.parametrize(("name", "num_players"), GAME_COUNTS)
def test_observation_ignores_hidden_information(name, num_players):
    """States that differ only in what a seat cannot see (determinize re-deals exactly that)
    give that seat identical observations and, when it acts, identical masks."""
    game = heist_envs.get_game(name)
    obs_a = np.zeros(game.obs_size, game.obs_dtype)
    obs_b = np.zeros(game.obs_size, game.obs_dtype)
    changed = [0]

    def check(s):
        for seat in range(game.num_seats(num_players)):
            other = s.copy()
            game.determinize(other, seat, 12345 + seat)
            game.observe(s, seat, obs_a)
            game.observe(other, seat, obs_b)
            np.testing.assert_array_equal(obs_a, obs_b)
            if s.actor == seat:
                np.testing.assert_array_equal(legal_actions(game, s), legal_actions(game, other))
            changed[0] += other.tobytes() != s.tobytes()

    for seed in range(3):
        random_playout(game, num_players, seed, on_step=check)
    assert changed[0] > 0, "determinize never changed anything hidden"


@pytest.mark.parametrize("name", heist_envs.game_names())
def test_determinize_depends_only_on_what_the_seat_knows(name):
    """Two worlds of one information set determinize to the same world for the same seed:
    search agents cannot learn hidden information even from which world they sample."""
    game = heist_envs.get_game(name)

    def check(s):
        for seat in range(game.num_seats(int(s.num_players))):
            direct = s.copy()
            game.determinize(direct, seat, np.uint64(7))
            via_other_world = s.copy()
            game.determinize(via_other_world, seat, np.uint64(99))
            game.determinize(via_other_world, seat, np.uint64(7))
            assert direct.tobytes() == via_other_world.tobytes()

    random_playout(game, game.default_players, 4, on_step=check)


@pytest.mark.parametrize("name", heist_envs.game_names())
def test_determinize_is_reproducible(name):
    game = heist_envs.get_game(name)
    state = random_playout(game, game.default_players, 7, options=None)
    a, b = state[0].copy(), state[0].copy()
    game.determinize(a, 0, 99)
    game.determinize(b, 0, 99)
    assert a.tobytes() == b.tobytes()


def trajectory_digest(name, num_players, seeds):
    """A digest of whole random games (the state and every seat's observation after every
    step), for jit/no-jit comparison."""
    import hashlib

    game = heist_envs.get_game(name)
    digest = hashlib.sha256()
    obs = np.zeros(game.obs_size, game.obs_dtype)

    def record(s):
        digest.update(s.tobytes())
        for seat in range(game.num_seats(num_players)):
            game.observe(s, seat, obs)
            digest.update(obs.tobytes())

    for seed in seeds:
        random_playout(game, num_players, seed, on_step=record)
    return digest.hexdigest()


@pytest.mark.parametrize("name", heist_envs.game_names())
def test_jitted_and_interpreted_kernels_agree(name):
    """Same seed and actions give the same game, bit for bit, with NUMBA_DISABLE_JIT=1."""
    game = heist_envs.get_game(name)
    seeds = [1, 2]
    code = (
        "from tests.test_games import trajectory_digest; "
        f"print(trajectory_digest({name!r}, {game.default_players}, {seeds}))"
    )
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run(
        [sys.executable, "-W", "ignore", "-c", code],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip() == trajectory_digest(name, game.default_players, seeds)


@pytest.mark.parametrize("name", heist_envs.game_names())
def test_golden_playthrough(name):
    """The recorded game replays with identical observations, masks and rewards."""
    golden = json.loads(golden_path(name).read_text())
    replayed = playthrough(name, golden["num_players"], golden["seed"], golden["actions"])
    assert len(replayed["steps"]) == len(golden["steps"])
    for i, (got, want) in enumerate(zip(replayed["steps"], golden["steps"], strict=True)):
        assert got == want, f"step {i} differs from the golden playthrough"
    assert replayed["final_rewards"] == golden["final_rewards"]


@pytest.mark.parametrize("name", heist_envs.game_names())
def test_game_record_replays_exactly(name):
    env = heist_envs.make(name)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    while env.state_record.status == RUNNING:
        env.step(int(rng.choice(env.legal_actions())))
    text = env.game_record().to_json()
    replayed = GameRecord.from_json(text).replay()
    assert replayed.state_record.tobytes() == env.state_record.tobytes()


@pytest.mark.parametrize("name", heist_envs.game_names())
def test_state_dict_round_trip_continues_identically(name):
    env = heist_envs.make(name)
    env.reset(seed=3)
    for _ in range(5):
        env.step(env.legal_actions()[0])
    saved = json.loads(json.dumps(env.state_dict()))
    clone = env.clone()
    other = heist_envs.make(name)
    other.load_state(saved)
    for _ in range(20):
        if env.state_record.status != RUNNING:
            break
        action = env.legal_actions()[-1]
        for e in (env, clone, other):
            e.step(action)
    assert env.state_record.tobytes() == clone.state_record.tobytes()
    assert env.state_record.tobytes() == other.state_record.tobytes()


@pytest.mark.parametrize("name", heist_envs.game_names())
def test_illegal_action_raises_and_leaves_game_unchanged(name):
    env = heist_envs.make(name)
    env.reset(seed=1)
    illegal = [a for a in range(env.game.num_actions) if a not in env.legal_actions()]
    before = env.state_record.tobytes()
    for action in illegal[:3] + [-1, env.game.num_actions]:
        with pytest.raises(IllegalActionError, match="legal actions: "):
            env.step(action)
    for action in (None, "x", "3", 2.7, True, np.float32(1)):
        with pytest.raises(TypeError, match="action"):
            env.step(action)
    assert env.state_record.tobytes() == before


@pytest.mark.parametrize("name", heist_envs.game_names())
def test_bad_configuration_raises_value_error(name):
    game = heist_envs.get_game(name)
    for n in (game.min_players - 1, game.max_players + 1):
        with pytest.raises(ValueError, match="allowed: "):
            heist_envs.make(name, num_players=n)
    with pytest.raises(ValueError, match="unknown option"):
        heist_envs.make(name, no_such_option=1)
    env = heist_envs.make(name)
    env.reset(seed=3)
    before = (env.state_record.tobytes(), env.game_record())
    with pytest.raises(ValueError):
        env.reset(options=dict.fromkeys(game.options, "not a valid value"))
    assert (env.state_record.tobytes(), env.game_record()) == before
    with pytest.raises(ValueError, match="unknown game"):
        heist_envs.make(name + "_typo")


@pytest.mark.parametrize("name", heist_envs.game_names())
def test_malformed_records_raise_clear_errors(name):
    env = heist_envs.make(name)
    env.reset(seed=1)
    record = json.loads(env.game_record().to_json())
    bad_records = [
        "not json",
        json.dumps({**record, "format": "other"}),
        json.dumps({**record, "actions": ["a"]}),
        json.dumps({**record, "actions": [env.game.num_actions]}),
        json.dumps({**record, "num_players": 99}),
    ]
    for text in bad_records:
        with pytest.raises(GameRecordError):
            GameRecord.from_json(text).replay()
    saved = env.state_dict()
    for broken in (
        {**saved, "game": "other_v0"},
        {**saved, "fields": {**saved["fields"], "num_players": 99}},
        {**saved, "fields": {k: v for k, v in saved["fields"].items() if k != "actor"}},
        {**saved, "fields": {**saved["fields"], "rng": "zz"}},
    ):
        with pytest.raises(GameRecordError):
            env.load_state(broken)
