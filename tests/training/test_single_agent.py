"""One learning seat against opponents, on the batched engine."""

import numpy as np
import pytest

pytest.importorskip("stable_baselines3")

import heist_envs  # noqa: E402
from heist_envs.core.errors import CallOrderError, IllegalActionError  # noqa: E402
from heist_envs.core.sb3_vec import SelfPlayVecEnv  # noqa: E402
from heist_envs.core.single_agent import (  # noqa: E402
    AgentOpponent,
    RandomOpponent,
    SingleAgentEnv,
)


def play_random(env, steps, seed=0):
    rng = np.random.default_rng(seed)
    obs = env.reset()
    episodes = []
    for _ in range(steps):
        masks = env.action_masks()
        assert masks.any(axis=1).all(), "a learner decision with no legal action"
        assert obs.shape == (env.num_envs, env.game.obs_size)
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, dones, infos = env.step(actions)
        episodes.extend(rewards[dones].tolist())
        assert (rewards[~dones] == 0).all()
    return episodes


@pytest.mark.parametrize("name", heist_envs.game_names())
def test_learner_acts_only_on_its_turns_and_gets_terminal_rewards(name):
    game = heist_envs.get_game(name)
    env = SelfPlayVecEnv(game, num_envs=4, seed=1)
    episodes = play_random(env, 400 if name != "thiefs_market" else 1200)
    assert episodes, "no episode finished"
    assert set(episodes) <= {-1.0, 0.0, 1.0} | {1 / k for k in range(1, 6)}
    learner_team = env.team_of_seat[env.learner_seat]
    assert (env.team_of_seat[env.games.actors] == learner_team).all()


def test_team_play_gives_the_learner_every_seat_of_its_side():
    game = heist_envs.get_game("how_to_rob_a_bank")
    env = SelfPlayVecEnv(game, num_envs=8, seed=3)
    env.reset()
    robbers = env.team_of_seat[env.learner_seat] == 1
    assert robbers.any()
    env.team_play = False
    env.reset()
    assert (env.games.actors == env.learner_seat).all()


class IllegalAgent:
    def act(self, observation, action_mask):
        return int(np.flatnonzero(action_mask == 0)[0])


def test_an_opponent_returning_an_illegal_action_is_named():
    game = heist_envs.get_game("art_robbery")
    env = SelfPlayVecEnv(game, num_envs=2, opponents=[AgentOpponent(IllegalAgent())], seed=0)
    with pytest.raises(IllegalActionError, match="an opponent returned an illegal action.*game"):
        play_random(env, 20)


def test_opponent_pool_can_be_swapped_between_episodes():
    game = heist_envs.get_game("art_robbery")
    env = SelfPlayVecEnv(game, num_envs=2, seed=0)
    play_random(env, 50)
    env.set_opponents([RandomOpponent(5), RandomOpponent(6)])
    assert set(np.unique(env.opponent_of)) <= {0, 1}
    play_random(env, 50)


def test_gymnasium_env_steps_with_masks_and_is_reproducible():
    game = heist_envs.get_game("art_robbery")

    def run(seed):
        env = SingleAgentEnv(game, num_players=3)
        obs, info = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        trace = [obs.tobytes()]
        for _ in range(300):
            action = rng.choice(np.flatnonzero(env.action_masks()))
            obs, reward, terminated, truncated, _ = env.step(action)
            trace.append((obs.tobytes(), reward, terminated, truncated))
            if terminated or truncated:
                obs, info = env.reset()
        return trace

    first = run(4)
    assert first == run(4)
    assert any(t[2] for t in first[1:]), "no game terminated"


class RecordingAgent:
    """Random legal actions, each appended to a shared log (the game's action sequence)."""

    def __init__(self, log, seed):
        self.log = log
        self.rng = np.random.default_rng(seed)

    def act(self, observation, action_mask):
        action = int(self.rng.choice(np.flatnonzero(action_mask)))
        self.log.append(action)
        return action


@pytest.mark.parametrize("name", heist_envs.game_names())
def test_the_terminating_step_returns_the_last_observation_of_the_ended_game(name):
    """Gymnasium's convention (and SB3's terminal_observation): replaying every move of the
    episode in the AEC env gives the learner's observation at the end."""
    game = heist_envs.get_game(name)
    log = []
    env = SingleAgentEnv(game, opponents=[AgentOpponent(RecordingAgent(log, 1))])
    obs, info = env.reset(seed=7)
    game_seed = int(env.vec.games.base_seed)
    rng = np.random.default_rng(7)
    terminated = truncated = False
    while not (terminated or truncated):
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        log.append(action)
        obs, reward, terminated, truncated, _ = env.step(action)
    replay = heist_envs.make(name)
    replay.reset(seed=game_seed)
    for action in log:  # then the opponents' first moves of the next game
        if replay.state_record.status != 0:
            break
        replay.step(action)
    assert replay.state_record.status != 0
    expected = replay.observe(info["seat"])["observation"]
    np.testing.assert_array_equal(obs, expected)
    assert reward == replay.rewards[replay.possible_agents[info["seat"]]]
    with pytest.raises(CallOrderError, match=r"call reset\(\) first"):
        env.step(0)


def test_vec_env_reports_sb3s_terminal_observation():
    game = heist_envs.get_game("art_robbery")
    env = SelfPlayVecEnv(game, num_envs=3, seed=2)
    obs = env.reset()
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(200):
        masks = env.action_masks()
        obs, _, dones, infos = env.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
        assert obs.dtype == np.float32
        for i in range(env.num_envs):
            assert ("terminal_observation" in infos[i]) == bool(dones[i])
            if dones[i]:
                ended += 1
                terminal = infos[i]["terminal_observation"]
                assert terminal.dtype == np.float32 and terminal.shape == obs[i].shape
                assert not np.array_equal(terminal, obs[i])
    assert ended > 0


def run_episodes(env, seed, steps=150, reset_seed=None):
    """A trace of observations and rewards of random play, resetting after each episode."""
    obs, info = env.reset(seed=reset_seed)
    rng = np.random.default_rng(seed)
    trace = [obs.tobytes(), info["seat"]]
    for _ in range(steps):
        obs, reward, terminated, truncated, _ = env.step(
            int(rng.choice(np.flatnonzero(env.action_masks())))
        )
        trace.append((obs.tobytes(), reward))
        if terminated or truncated:
            obs, info = env.reset()
            trace.append((obs.tobytes(), info["seat"]))
    return trace


@pytest.mark.parametrize("name", heist_envs.game_names())
def test_reset_with_the_same_seed_replays_the_same_episodes(name):
    """reset(seed=123) twice with the same actions: the same episodes, opponents included,
    and the unseeded resets that follow carry on the same way."""
    env = SingleAgentEnv(heist_envs.get_game(name), seed=0)
    first = run_episodes(env, 1, reset_seed=123)
    assert run_episodes(env, 1, reset_seed=123) == first
    assert run_episodes(env, 1, reset_seed=124) != first


def test_vec_env_seed_then_reset_is_reproducible():
    game = heist_envs.get_game("toits_de_paris")

    def trace(env):
        env.seed(5)
        out = [env.reset().tobytes()]
        for _ in range(2):
            rng = np.random.default_rng(0)
            for _ in range(40):
                masks = env.action_masks()
                obs, rewards, _, _ = env.step(
                    np.array([rng.choice(np.flatnonzero(m)) for m in masks])
                )
                out.append((obs.tobytes(), rewards.tobytes()))
            out.append(env.reset().tobytes())  # unseeded: carries on from seed 5
        return out

    env = SelfPlayVecEnv(game, num_envs=2, seed=0)
    first = trace(env)
    assert trace(env) == first
    assert trace(SelfPlayVecEnv(game, num_envs=2, seed=99)) == first


def test_single_agent_env_rejects_non_integer_actions_and_bad_order():
    env = SingleAgentEnv(heist_envs.get_game("art_robbery"), num_players=3)
    with pytest.raises(CallOrderError, match=r"call reset\(\) first"):
        env.step(0)
    obs, _ = env.reset(seed=1)
    assert obs.dtype == np.float32
    legal = int(np.flatnonzero(env.action_masks())[0])
    before = env.vec.games.states.tobytes()
    for value in (legal + 0.7, str(legal), None, True):
        with pytest.raises(TypeError, match="action"):
            env.step(value)
    assert env.vec.games.states.tobytes() == before
    env.step(np.array(legal))  # SB3's predict() output


def test_single_agent_illegal_action_terminate():
    game = heist_envs.get_game("art_robbery")
    env = SingleAgentEnv(game, num_players=3)
    env.reset(seed=1)
    illegal = int(np.flatnonzero(env.action_masks() == 0)[0])
    with pytest.raises(IllegalActionError, match="not legal"):
        env.step(illegal)
    env = SingleAgentEnv(game, num_players=3, illegal_action="terminate")
    env.reset(seed=1)
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, 1.0)
    assert not info["action_mask"].any() and not env.action_masks().any()
    with pytest.raises(CallOrderError):
        env.step(0)


@pytest.mark.parametrize("name", heist_envs.game_names())
def test_info_holds_the_mask_and_a_finished_episode_has_no_legal_action(name):
    """Issue 29 item 8: after ``terminated`` the mask was the next game's legal moves, and
    ``info`` had no mask."""
    env = SingleAgentEnv(heist_envs.get_game(name), seed=0)
    _, info = env.reset(seed=2)
    rng = np.random.default_rng(2)
    done = False
    while not done:
        mask = env.action_masks()
        assert mask.any() and np.array_equal(info["action_mask"], mask)
        assert info["action_mask"].dtype == np.int8
        _, _, terminated, truncated, info = env.step(rng.choice(np.flatnonzero(mask)))
        done = terminated or truncated
    assert not info["action_mask"].any() and not env.action_masks().any()
    _, info = env.reset()
    assert info["action_mask"].any() and np.array_equal(info["action_mask"], env.action_masks())


def test_gymnasium_vector_envs_see_the_mask_in_infos():
    """Issue 29 item 8: ``gymnasium.make_vec`` users (CleanRL style) had no mask in infos."""
    import gymnasium

    from heist_envs.registry import gymnasium_id

    vec = gymnasium.make_vec(gymnasium_id("art_robbery"), num_envs=2, num_players=3)
    _, infos = vec.reset(seed=1)
    rng = np.random.default_rng(1)
    ended = np.zeros(2, bool)
    episodes = 0
    for _ in range(200):
        masks = infos["action_mask"]
        assert masks.shape == (2, vec.single_action_space.n)
        # the step after a game's end only resets it (next-step autoreset): its mask is empty
        assert np.array_equal(masks.any(axis=1), ~ended)
        actions = [rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks]
        _, _, terminated, truncated, infos = vec.step(actions)
        ended = terminated | truncated
        episodes += int(ended.sum())
    assert episodes >= 2, "no game ended"
    vec.close()


def check_arena_seating(env, seen):
    """Each game's seats follow one of the arena's two-agent seatings: the learner's copies
    (the pool's last opponent) exactly where entrant 0 sits, another opponent elsewhere."""
    copy = len(env.opponents) - 1
    for i in range(env.num_envs):
        learner = int(env.learner_seat[i])
        ours = env.copy_seats[i].copy()
        ours[learner] = True
        seating = tuple(int(not ours[seat]) for seat in range(env.num_seats))
        assert seating in env_seatings(env.num_seats)
        others = np.flatnonzero(~ours)
        assert (env.opponent_of[i, env.copy_seats[i]] == copy).all()
        assert (env.opponent_of[i, others] < copy).all()
        seen.add((seating, learner))


def env_seatings(num_seats):
    from agents.arena import schedule

    return schedule(2, num_seats)


@pytest.mark.parametrize("num_players", [4, 3])
def test_arena_seating_seats_the_learners_copy_and_the_others_as_the_arena_does(num_players):
    game = heist_envs.get_game("thiefs_market")
    pool = [RandomOpponent(1), RandomOpponent(2), RandomOpponent(3)]
    seatings = env_seatings(num_players)
    env = SelfPlayVecEnv(game, 16, num_players, pool, seed=4, seatings=seatings)
    seen = set()
    env.reset()
    check_arena_seating(env, seen)
    for step in range(300):
        masks = env.action_masks()
        env.step(np.array([np.flatnonzero(m)[0] for m in masks]))
        check_arena_seating(env, seen)
        if step == 150:  # a new pool mid-episode keeps each game's seating
            learners = env.learner_seat.copy()
            env.set_opponents([RandomOpponent(5), RandomOpponent(6)])
            assert (env.learner_seat == learners).all()
            check_arena_seating(env, seen)
    # every seat of entrant 0 in every seating held the learner
    every = {(s, k) for s in seatings for k in range(num_players) if s[k] == 0}
    assert seen == every
    if num_players == 4:  # A B A B: the copy sits opposite the learner
        assert (env.copy_seats.argmax(1) == (env.learner_seat + 2) % 4).all()


def test_arena_seating_bad_input_is_refused():
    game = heist_envs.get_game("thiefs_market")
    pool = [RandomOpponent(1), RandomOpponent(2)]
    with pytest.raises(ValueError, match="rotate_seats and seatings"):
        SelfPlayVecEnv(game, 2, 4, pool, seatings=[(0, 1, 0, 1)], rotate_seats=True)
    with pytest.raises(ValueError, match=r"seating \(0, 1, 0\): give entrant 0 or 1 for each"):
        SelfPlayVecEnv(game, 2, 4, pool, seatings=[(0, 1, 0)])
    with pytest.raises(ValueError, match="entrant 0 at least once"):
        SelfPlayVecEnv(game, 2, 4, pool, seatings=[(1, 1, 1, 1)])
    env = SelfPlayVecEnv(game, 2, 4, [RandomOpponent(1)], seatings=[(0, 1, 0, 1)])
    with pytest.raises(ValueError, match="at least two opponents"):
        env.reset()
    env.set_opponents(pool)
    env.reset()
    with pytest.raises(ValueError, match="at least two opponents"):
        env.set_opponents([RandomOpponent(3)])
    assert env.opponents == pool


@pytest.mark.parametrize("seating", ["random", "rotate", "arena"])
@pytest.mark.parametrize("side, seats", [(0, {0}), (1, {1, 2, 3})])
def test_learner_sides_keep_the_learner_to_one_side(side, seats, seating):
    """A policy for one of How to Rob a Bank's sides learns from that side's decisions only,
    whichever way the learner is seated."""
    game = heist_envs.get_game("how_to_rob_a_bank")
    pool = [RandomOpponent(1), RandomOpponent(2)]
    kwargs = {"rotate": {"rotate_seats": True}, "arena": {"seatings": [(0, 1), (1, 0)]}}
    env = SelfPlayVecEnv(game, 8, 4, pool, seed=3, learner_sides=[side], **kwargs.get(seating, {}))
    env.reset()
    seen, episodes = set(), 0
    while episodes < 20:
        seen |= set(env.learner_seat.tolist())
        assert (env.team_of_seat[env.games.actors] == side).all()  # only its side's turns
        masks = env.action_masks()
        _, _, dones, _ = env.step(np.array([np.flatnonzero(m)[0] for m in masks]))
        episodes += int(dones.sum())
    assert seen == (seats if seating != "rotate" else {min(seats)})


def test_learner_sides_bad_input_is_refused():
    game = heist_envs.get_game("how_to_rob_a_bank")
    for sides in ([2], [], [-1]):
        with pytest.raises(ValueError, match=r"give side indices 0 to 1 \(their seats: "):
            SelfPlayVecEnv(game, 2, 4, learner_sides=sides)
    pool = [RandomOpponent(1), RandomOpponent(2)]
    with pytest.raises(ValueError, match=r"no seating gives entrant 0 a seat on the learner's"):
        SelfPlayVecEnv(game, 2, 4, pool, seatings=[(0, 1)], learner_sides=[1])  # only the bank
