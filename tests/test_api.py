"""The AEC adapter's contract with RL libraries: options, seeding, actions, infos,
observation dtypes, registration, copies and the order of calls (issues 11 and 17)."""

import copy
import importlib
import json
import pickle
import subprocess
import sys
import warnings

import gymnasium
import numpy as np
import pettingzoo
import pytest

import heist_envs
from heist_envs.core.errors import CallOrderError, GameRecordError, IllegalActionError
from heist_envs.core.game import RUNNING, TRUNCATED
from tests.conftest import game_player_counts

GAMES = heist_envs.game_names()
GAME_COUNTS = game_player_counts()


def play_to_end(env, seed=0):
    """Random legal actions until the game is over; the env stays at its end."""
    rng = np.random.default_rng(seed)
    while env.state_record.status == RUNNING:
        env.step(int(rng.choice(env.legal_actions())))


def play_steps(env, steps, seed=0):
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if env.state_record.status != RUNNING:
            return
        env.step(int(rng.choice(env.legal_actions())))


# Options --------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_unknown_reset_option_warns_naming_the_allowed_ones_and_is_ignored(name):
    env = heist_envs.make(name)
    with pytest.warns(UserWarning, match=r"unknown reset option.*'options'.*allowed: "):
        env.reset(seed=0, options={"options": 1})
    plain = heist_envs.make(name)
    plain.reset(seed=0)
    assert env.state_record.tobytes() == plain.state_record.tobytes()
    assert "options" not in env.game_record().options


@pytest.mark.parametrize("name", GAMES)
def test_constructor_options_stay_strict(name):
    with pytest.raises(ValueError, match="unknown option"):
        heist_envs.make(name, no_such_option=1)
    with pytest.raises(ValueError, match="illegal_action must be one of"):
        heist_envs.make(name, illegal_action="ignore")


# Seeding --------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_unseeded_reset_continues_the_generator_of_the_last_seeded_one(name):
    """Gymnasium's contract: reset(seed=s); reset() plays the same second game every time."""

    def second_game(seed):
        env = heist_envs.make(name)
        env.reset(seed=seed)
        env.reset()
        return env.state_record.tobytes(), env.game_seed

    first, first_seed = second_game(1)
    assert second_game(1) == (first, first_seed)
    assert second_game(2)[0] != first
    env = heist_envs.make(name)
    env.reset(seed=1)
    assert env.state_record.tobytes() != first, "the second game repeats the first"


@pytest.mark.parametrize("name", GAMES)
def test_env_seed_is_not_an_int_attribute(name):
    """Tianshou's PettingZooEnv.seed() calls env.seed(seed) when it exists."""
    env = heist_envs.make(name)
    env.reset(seed=3)
    assert not isinstance(getattr(env, "seed", None), int)
    assert env.game_seed == 3


# Actions --------------------------------------------------------------------------------------

INTEGER_TYPES = [
    np.int8,
    np.int16,
    np.int32,
    np.int64,
    np.uint8,
    np.uint16,
    np.uint32,
    np.uint64,
    np.intp,
]


@pytest.mark.parametrize("name", GAMES)
def test_integer_like_actions_are_accepted(name):
    """SB3's predict() returns a 0-d array; numpy scalars of every width are integers too."""
    reference = heist_envs.make(name)
    reference.reset(seed=4)
    action = reference.legal_actions()[-1]
    reference.step(action)
    values = [np.array(action), np.array(action, np.int32)] + [t(action) for t in INTEGER_TYPES]
    for value in values:
        env = heist_envs.make(name)
        env.reset(seed=4)
        env.step(value)
        assert env.state_record.tobytes() == reference.state_record.tobytes(), repr(value)


@pytest.mark.parametrize("name", GAMES)
def test_non_integer_actions_raise_type_error_and_change_nothing(name):
    env = heist_envs.make(name)
    env.reset(seed=4)
    before = env.state_record.tobytes()
    legal = env.legal_actions()[0]
    for value in (float(legal), str(legal), True, None, np.array([legal]), np.float64(legal)):
        with pytest.raises(TypeError, match="action"):
            env.step(value)
    assert env.state_record.tobytes() == before


@pytest.mark.parametrize("name", GAMES)
def test_illegal_action_message_does_not_contradict_itself(name):
    env = heist_envs.make(name)
    env.reset(seed=4)
    illegal = next(a for a in range(env.game.num_actions) if a not in env.legal_actions())
    with pytest.raises(IllegalActionError) as raised:
        env.step(np.array(illegal))
    message = str(raised.value)
    assert f"action {illegal} (" in message and "is not legal now" in message
    listed = message.split("legal actions: ")[1]
    assert all(f"{a} (" in listed for a in env.legal_actions())
    assert not listed.startswith(f"{illegal} (") and f", {illegal} (" not in listed


@pytest.mark.parametrize(("name", "num_players"), GAME_COUNTS)
def test_illegal_action_terminate_ends_the_game_with_minus_one_for_the_offender(name, num_players):
    env = heist_envs.make(name, num_players=num_players, illegal_action="terminate")
    env.reset(seed=2)
    play_steps(env, 3)
    offender = env.agent_selection
    before = env.state_record.tobytes()
    illegal = next(a for a in range(env.game.num_actions) if a not in env.legal_actions())
    env.step(illegal)
    assert env.state_record.tobytes() == before
    assert all(env.terminations.values())
    assert env.rewards == {a: (-1.0 if a == offender else 0.0) for a in env.possible_agents}
    assert {a: env.infos[a]["illegal_action"] for a in env.agents} == {
        a: float(a == offender) for a in env.possible_agents
    }
    assert env.outcome()["status"] == "illegal action"
    assert env.outcome()["illegal_agent"] == offender
    assert not env.legal_actions()
    _, reward, terminated, _, _ = env.last()
    assert terminated and reward == env._cumulative_rewards[env.agent_selection]
    for _ in env.agent_iter():
        env.step(None)
    assert env.agents == []


# Infos and outcome -----------------------------------------------------------------------------


def numbers_only(info):
    for key, value in info.items():
        assert isinstance(key, str)
        if isinstance(value, np.ndarray):
            assert np.issubdtype(value.dtype, np.number), (key, value)
        else:
            assert isinstance(value, (int, float, np.number)), (key, value)
            assert not isinstance(value, (bool, np.bool_)), (key, value)


@pytest.mark.parametrize(("name", "num_players"), GAME_COUNTS)
def test_infos_hold_only_numbers_and_outcome_has_the_rest(name, num_players):
    env = heist_envs.make(name, num_players=num_players)
    for seed in range(3):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while env.state_record.status == RUNNING:
            for info in env.infos.values():
                numbers_only(info)
            env.step(int(rng.choice(env.legal_actions())))
        for agent in env.possible_agents:
            numbers_only(env.infos[agent])
            assert env.infos[agent]["provisional"] == float(env.truncations[agent])
        outcome = env.outcome()
        assert outcome["status"] in ("terminated", "truncated")
        assert outcome["returns"] == {a: env.rewards[a] for a in env.possible_agents}
        results = heist_envs.get_game(name).scores(env.state_record)
        for seat, agent in enumerate(env.possible_agents):
            assert outcome["results"][agent] == {k: v[seat] for k, v in results.items()}


def test_text_results_moved_from_infos_to_outcome():
    """Tianshou's buffer failed on text in infos (Les Toits' tokens, the bank's winner)."""
    for name, key in (("toits_de_paris", "tokens"), ("how_to_rob_a_bank", "winner")):
        env = heist_envs.make(name)
        env.reset(seed=1)
        play_to_end(env)
        agent = env.possible_agents[0]
        assert key not in env.infos[agent]
        assert isinstance(env.outcome()["results"][agent][key], str)


def test_truncated_art_robbery_scores_are_marked_provisional():
    env = heist_envs.make("art_robbery", num_players=3, max_turns=4)
    env.reset(seed=1)
    play_to_end(env)
    assert env.state_record.status == TRUNCATED
    for agent in env.possible_agents:
        assert env.truncations[agent] and env.infos[agent]["provisional"] == 1.0
        assert "score" in env.infos[agent]
    assert env.outcome()["provisional"] is True
    finished = heist_envs.make("art_robbery", num_players=3)
    finished.reset(seed=1)
    play_to_end(finished)
    assert all(finished.infos[a]["provisional"] == 0.0 for a in finished.possible_agents)
    assert finished.outcome()["provisional"] is False


# Observation dtype -----------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "num_players"), GAME_COUNTS)
def test_observations_are_float32_within_finite_bounds(name, num_players):
    env = heist_envs.make(name, num_players=num_players)
    space = env.observation_space(env.possible_agents[0])["observation"]
    assert space.dtype == np.float32
    assert np.isfinite(space.low).all() and np.isfinite(space.high).all()
    assert np.isfinite(env.state_space.low).all() and np.isfinite(env.state_space.high).all()
    for seed in range(2):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while env.state_record.status == RUNNING:
            for agent in env.possible_agents:
                assert env.observation_space(agent).contains(env.observe(agent))
            assert env.state_space.contains(env.state())
            env.step(int(rng.choice(env.legal_actions())))


# Registration ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_games_are_in_pettingzoos_registry_and_importable_modules(name):
    num_players = heist_envs.get_game(name).min_players
    env = pettingzoo.make("aec", f"heist/{name}_v0", num_players=num_players)
    assert isinstance(env, heist_envs.core.aec.HeistEnv) and env.game.name == name
    module = importlib.import_module(f"heist_envs.{name}_v0")
    assert module.env().game.name == name
    assert module.raw_env().game.name == name


def test_game_modules_are_attributes_of_the_package():
    """Issue 29 item 6: PettingZoo's SB3 tutorial reaches the envs as
    ``heist_envs.<game>_v0``, which raised AttributeError once ``__init__`` stopped importing
    them."""
    code = "import heist_envs; print([heist_envs.{}.env().game.name for _ in [0]][0])"
    for name in GAMES:
        result = subprocess.run(
            [sys.executable, "-c", code.format(f"{name}_v0")], capture_output=True, text=True
        )
        assert result.stdout.strip() == name, result.stderr
    assert sorted(heist_envs.__all__) == sorted(
        ["game_names", "get_game", "make"] + [f"{name}_v0" for name in GAMES]
    )
    with pytest.raises(AttributeError, match="has no attribute 'chess_v0'"):
        heist_envs.chess_v0  # noqa: B018


@pytest.mark.parametrize("name", GAMES)
def test_games_are_in_pettingzoos_parallel_registry(name):
    """Issue 52 item 11: only the AEC ids were registered (NamespaceNotFound)."""
    num_players = heist_envs.get_game(name).min_players
    env = pettingzoo.make("parallel", f"heist/{name}_v0", num_players=num_players)
    assert isinstance(env, pettingzoo.ParallelEnv) and env.unwrapped.game.name == name
    observations, _ = env.reset(seed=1)
    assert set(observations) == set(env.agents) == set(env.possible_agents)


@pytest.mark.parametrize("name", GAMES)
def test_game_modules_offer_a_parallel_env(name):
    """Issue 29 item 7: users had to find turn_based_aec_to_parallel themselves."""
    module = importlib.import_module(f"heist_envs.{name}_v0")
    env = module.parallel_env(num_players=heist_envs.get_game(name).min_players)
    assert isinstance(env, pettingzoo.ParallelEnv)
    assert env.unwrapped.game.name == name
    observations, infos = env.reset(seed=1)
    assert set(observations) == set(env.agents)


@pytest.mark.parametrize("name", GAMES)
def test_single_agent_envs_are_in_gymnasiums_registry(name):
    from heist_envs.registry import gymnasium_id

    env = gymnasium.make(gymnasium_id(name), illegal_action="terminate")
    assert env.unwrapped.vec.game.name == name
    obs, info = env.reset(seed=1)
    assert env.observation_space.contains(obs)


@pytest.mark.parametrize("name", GAMES)
def test_gymnasiums_env_checker_passes(name):
    from gymnasium.utils.env_checker import check_env

    from heist_envs.registry import gymnasium_id

    env = gymnasium.make(gymnasium_id(name), illegal_action="terminate")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)


# Copies ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_deepcopy_pickle_and_clone_are_independent_and_live(name):
    env = heist_envs.make(name)
    env.reset(seed=5)
    play_steps(env, 3)
    copies = [copy.deepcopy(env), pickle.loads(pickle.dumps(env)), env.clone()]
    rng = np.random.default_rng(5)
    for _ in range(15):
        if env.state_record.status != RUNNING:
            break
        action = int(rng.choice(env.legal_actions()))
        for e in [env, *copies]:
            e.step(action)
    for other in copies:
        assert other.state_dict() == env.state_dict()
        assert other.state_record.tobytes() == env.state_record.tobytes()
        assert other.last()[0]["observation"].tobytes() == env.last()[0]["observation"].tobytes()
    copies[0].reset(seed=9)
    assert copies[1].state_dict() == env.state_dict()


# Order of calls --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_calls_before_reset_say_to_call_reset(name):
    env = heist_envs.make(name)
    calls = [
        lambda: env.step(0),
        lambda: env.last(),
        lambda: env.observe(env.possible_agents[0]),
        env.legal_actions,
        env.state,
        env.state_dict,
        env.game_record,
        env.outcome,
    ]
    for call in calls:
        with pytest.raises(CallOrderError, match=r"call reset\(\) first"):
            call()


def test_agent_iter_before_reset_says_to_call_reset():
    """Issue 29 item 5: agent_iter() before reset() yielded nothing, silently."""
    env = heist_envs.make("art_robbery")
    with pytest.raises(CallOrderError, match=r"agent_iter\(\) needs a game: call reset\(\) first"):
        env.agent_iter()


@pytest.mark.parametrize("name", GAMES)
def test_calls_after_every_agent_is_done_say_to_call_reset(name):
    env = heist_envs.make(name)
    env.reset(seed=1)
    play_to_end(env)
    for _ in env.agent_iter():
        env.step(None)
    for call in (lambda: env.step(None), lambda: env.step(0), env.last):
        with pytest.raises(CallOrderError, match=r"every agent is done; call reset\(\)"):
            call()
    assert env.outcome()["status"] in ("terminated", "truncated")


# Saved states ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_state_saved_at_the_end_reloads_with_the_final_rewards(name):
    env = heist_envs.make(name)
    env.reset(seed=2)
    play_to_end(env)
    final = {a: env.rewards[a] for a in env.possible_agents}
    assert any(final.values()), "a game with no reward"
    loaded = heist_envs.make(name)
    loaded.load_state(json.loads(json.dumps(env.state_dict())))
    for agent in loaded.agent_iter():
        _, reward, terminated, truncated, _ = loaded.last()
        assert terminated or truncated
        assert reward == final[agent]
        loaded.step(None)


@pytest.mark.parametrize("name", GAMES)
def test_rejected_load_state_leaves_the_env_exactly_as_it_was(name):
    env = heist_envs.make(name)
    env.reset(seed=2)
    play_steps(env, 4)
    saved = env.state_dict()
    before = (env.state_record.tobytes(), env.agent_selection, env.game_record(), env.last()[1:])
    bad = [
        {**saved, "fields": {**saved["fields"], "actor": 50}},
        {**saved, "fields": {**saved["fields"], "num_players": 99}},
        {**saved, "game": "other_v0"},
    ]
    for data in bad:
        with pytest.raises((GameRecordError, IndexError)):
            env.load_state(data)
        after = (env.state_record.tobytes(), env.agent_selection, env.game_record(), env.last()[1:])
        assert after == before
