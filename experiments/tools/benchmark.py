"""Speed of heist-envs, side by side with other libraries' environments in the same run.

Sections and modes (agent decisions per second; chance nodes are not counted):

- ``single``: ``kernel-jit``, random playouts entirely in compiled code; ``kernel-python``,
  a Python loop over the kernel with the actor's observation and mask every step; ``aec``,
  the standard PettingZoo loop (``agent_iter``/``last``/``step``) sampling from the mask,
  for heist-envs and PettingZoo classic games alike; ``openspiel`` / ``openspiel-tensor``,
  OpenSpiel random play without and with the observation tensor (where ``pyspiel`` is).
- ``batch``: ``batch-B``, the batched engine (``VectorGames``) stepping B games at once with
  observations, masks and random legal actions, beside PGX on the CPU (where ``pgx`` is
  installed) at the same batch sizes, with auto-reset.
- ``train``: MaskablePPO learning on ``SelfPlayVecEnv`` (env steps per second inside
  ``learn``) and the share of that time spent in the environment (where sb3-contrib is),
  against random opponents (``ppo-vs-random``) and against the game's heuristic
  (``ppo-vs-heuristic``, compiled where the game has a compiled one), with the same settings;
  the summary gives their ratio (the target: at least 0.5); the environment alone
  (``env-vs-random``, ``env-vs-heuristic``: ``SelfPlayVecEnv``'s learner steps per second, 64
  games, the learner's moves at random, no network); and the torch learner
  (``torch-vs-heuristic``: ``heist train --backend torch`` at its defaults, the same games
  and rollouts), with its ratio to ``ppo-vs-heuristic`` (the target: at least 5) and to
  ``env-vs-heuristic`` (the goal: 0.5).
- ``search``: ISMCTS simulations per second, beside OpenSpiel's ISMCTS bot on leduc_poker;
  and search decisions per second at 100 simulations over the same 256 decisions of random
  games, one process on one core: plain ISMCTS one decision at a time
  (``decisions-ismcts-100``) and the batched search, PUCT with the rollout evaluator
  (:mod:`agents.batch_search`), one decision at a time as its agent plays
  (``decisions-batch1-100``) and 64 at once (``decisions-batch64-100``); the summary gives
  the ratio of the last to the first. Over the same decisions, the network-guided batched
  search as expert iteration labels with it (``decisions-guided256-8``: a Gumbel root, the
  per-seat network's priors and values, no rollouts, 8 simulations, 256 at once, where
  torch is installed), and its ratio to ISMCTS@100 (the target: at least 10).
- ``shared``: the batched engine at batch 1024, MaskablePPO learning and the torch learner
  with one and two threads, for the first game, on idle cores and beside a busy neighbour
  (another process spinning on one core), with the thread defaults of
  :mod:`heist_envs.core.threads`.
- ``phases`` (only when named): where a second of learning against the heuristic goes, per
  game, for MaskablePPO (``sb3-phases``) and the torch learner (``torch-phases``): the share
  of each of :data:`experiments.train.torch_ppo.PHASES`.
- ``layers`` (only when named): the first layer's forward and backward passes over 4,096 of
  each game's observations, rows per second, dense and sparse (:data:`FIRST_LAYERS`).
- ``tournament`` (only when named): arena tournaments of the heuristic
  (``heuristic-vs-heuristic``) and of the shipped network (``ppo-vs-heuristic``) against
  the heuristic, games per second, one game at a time in one process
  (``tournament-serial-...``) and in the arena's batched route (``tournament-batched-...``,
  50 times the games; ``tournament-compiled-heuristic-vs-heuristic``: its compiled play
  alone, the ceiling of any batched route); the summary gives their ratios (the target: at
  least 50).
- ``rllib`` (only when named): Ray RLlib env runners sampling the game, 1 and 2 of them side
  by side, and the PPO learner's rate on the same batch (where ray[rllib] is installed; see
  docs/distributed.md).

``--device cuda``: the batched engine on the GPU (``vector_games(..., device="cuda")``) at
batches of 4096, 65,536 and 262,144 per game, beside PGX (connect_four, leduc_holdem) on the
same GPU where ``pgx`` is installed; only the batch comparison runs. Without a CUDA GPU it
stops with the engine's error saying what is missing.

``--quick`` (under two minutes on an otherwise idle 2-core machine) measures each row for a
quarter of a second, batches of 1024 only, and short training runs on 32 games. ``--json
PATH`` is rewritten after every row, so an interrupted run keeps what it measured.

    python -m experiments.tools.benchmark [--quick] [--json results.json] [--sections single batch]
    python -m experiments.tools.benchmark --device cuda [--json results.json]
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import subprocess
import sys
import time
import warnings
from dataclasses import dataclass
from functools import partial

import numpy as np

import heist_envs
from heist_envs.core.errors import DeviceError
from heist_envs.core.game import RUNNING

PLAYERS = 4
#: Other libraries' environments measured beside ours, by their own names: PettingZoo
#: classic (env -> its module in pettingzoo.classic), OpenSpiel (random play, with and without
#: the observation tensor; and its ISMCTS bot), PGX (batched, on the CPU and on the GPU).
PETTINGZOO_ENVS = {"connect_four": "connect_four_v3", "texas_holdem": "texas_holdem_v4"}
OPENSPIEL_GAMES = ("connect_four", "leduc_poker")
OPENSPIEL_ISMCTS_GAME = "leduc_poker"
PGX_ENVS = ("connect_four", "leduc_holdem")


class UniformPicker:
    """Picks uniformly among legal actions from pre-drawn uniforms, so that every library's
    loop pays the same, small cost for the random agent."""

    def __init__(self, seed=0, size=1 << 16):
        self.uniforms = np.random.default_rng(seed).random(size).tolist()
        self.i = 0

    def pick(self, legal):
        self.i = (self.i + 1) % len(self.uniforms)
        return legal[int(self.uniforms[self.i] * len(legal))]


def timed(run_batch, seconds):
    """Call ``run_batch()`` -> (steps, games) until ``seconds`` pass; returns the rates."""
    run_batch()  # warm-up (compilation, caches)
    steps = games = 0
    start = time.perf_counter()
    while True:
        s, g = run_batch()
        steps += s
        games += g
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return steps / elapsed, games / elapsed


def kernel_jit(name, num_players, seconds):
    game = heist_envs.get_game(name)
    state = game.kernel_view(game.new_state(num_players, 0))
    batch = 1000
    seed = [0]

    def run_batch():
        seed[0] += batch
        return game.entry.random_playouts(state, batch, seed[0]), batch

    return timed(run_batch, seconds)


def kernel_python(name, num_players, seconds):
    game = heist_envs.get_game(name)
    entry = game.entry
    mask = np.zeros(game.num_actions, np.int8)
    obs = np.zeros(game.obs_size, game.obs_dtype)
    picker = UniformPicker()
    state = game.kernel_view(game.new_state(num_players, 0))
    seed = [0]

    def run_batch():
        seed[0] += 1
        steps = 0
        actor, status = entry.restart(state, seed[0], mask, obs)
        while status == RUNNING:
            actor, status = entry.advance_observe(state, picker.pick(mask.nonzero()[0]), mask, obs)
            steps += 1
        return steps, 1

    return timed(run_batch, seconds)


def aec_loop(make_env, seconds):
    """The usual PettingZoo loop with mask sampling; identical for every library."""
    env = make_env()
    picker = UniformPicker()
    seed = [0]

    def run_batch():
        seed[0] += 1
        env.reset(seed=seed[0])
        steps = 0
        for _ in env.agent_iter():
            observation, reward, termination, truncation, info = env.last()
            if termination or truncation:
                action = None
            else:
                action = picker.pick(observation["action_mask"].nonzero()[0])
                steps += 1
            env.step(action)
        return steps, 1

    return timed(run_batch, seconds)


def apply_chance_outcome(state, rng):
    """Sample an OpenSpiel chance node's outcome by its probability and apply it."""
    outcomes, probs = zip(*state.chance_outcomes(), strict=True)
    state.apply_action(outcomes[rng.choice(len(outcomes), p=probs)])


def openspiel_loop(game_name, with_tensor, seconds):
    import pyspiel

    game = pyspiel.load_game(game_name)
    rng = np.random.default_rng(0)
    picker = UniformPicker()

    def run_batch():
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                apply_chance_outcome(state, rng)
                continue
            if with_tensor:
                state.observation_tensor(state.current_player())
            state.apply_action(picker.pick(state.legal_actions()))
            steps += 1
        return steps, 1

    return timed(run_batch, seconds)


BATCH_SIZES = (1, 64, 1024, 4096)
QUICK_BATCH_SIZES = (1024,)


def batch_engine(name, num_players, batch, seconds):
    from heist_envs.core.playout import random_legal_actions, random_legal_actions_parallel
    from heist_envs.core.vector import VectorGames

    games = VectorGames(heist_envs.get_game(name), batch, num_players)
    pick = random_legal_actions_parallel if games.parallel else random_legal_actions
    _, _, masks = games.reset(seed=0)
    actions = np.zeros(batch, np.int64)
    calls = [0]

    def run_batch():
        ended = 0
        for _ in range(max(1, 4096 // batch)):
            calls[0] += 1
            pick(masks, calls[0], actions)
            games.step(actions)
            ended += int(games.terminated.sum() + games.truncated.sum())
        return batch * max(1, 4096 // batch), ended

    return timed(run_batch, seconds)


GPU_BATCH_SIZES = (4096, 65_536, 262_144)
GPU_STEPS_PER_CALL = 16


def cuda_batch_engine(name, num_players, batch, seconds):
    """The GPU engine stepping ``batch`` games with random legal actions drawn on the device;
    games finished are counted from the episode counters."""
    from numba import cuda

    from heist_envs.core.engines import vector_games

    games = vector_games(heist_envs.get_game(name), batch, num_players, device="cuda")
    games.reset(seed=0)
    calls = [0]
    finished = [0]

    def run_batch():
        for _ in range(GPU_STEPS_PER_CALL):
            calls[0] += 1
            games.step(games.random_actions(calls[0]))
        cuda.synchronize()
        total = int(games.episodes.copy_to_host().sum())
        ended, finished[0] = total - finished[0], total
        return batch * GPU_STEPS_PER_CALL, ended

    return timed(run_batch, seconds)


def run_cuda(games, seconds, players=PLAYERS, json_path=None):
    """The GPU rows: the engine at each of GPU_BATCH_SIZES per game, then PGX beside it."""
    from heist_envs.core.engines import vector_games

    vector_games(heist_envs.get_game(games[0]), 1, device="cuda")  # no GPU: stop here, named
    rows = []
    for name in games:
        game = heist_envs.get_game(name)
        n = min(max(players, game.min_players), game.max_players)
        for batch in GPU_BATCH_SIZES:
            rates = cuda_batch_engine(name, n, batch, seconds)
            add_row(rows, json_path, "heist-envs-cuda", name, f"batch-{batch}", n, *rates)
    if installed("pgx"):
        for env_name in PGX_ENVS:
            for batch in GPU_BATCH_SIZES:
                rates = pgx_batch(env_name, batch, seconds)
                add_row(rows, json_path, "pgx", env_name, f"batch-{batch}", 2, *rates)
    return rows


def pgx_batch(env_name, batch, seconds):
    import jax
    import jax.numpy as jnp
    import pgx
    from pgx.experimental import auto_reset

    env = pgx.make(env_name)
    init = jax.jit(jax.vmap(env.init))
    step = jax.jit(jax.vmap(auto_reset(env.step, env.init)))

    @jax.jit
    def random_step(state, key):
        key, act_key, reset_key = jax.random.split(key, 3)
        logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
        action = jax.random.categorical(act_key, logits, axis=-1)
        state = step(state, action, jax.random.split(reset_key, batch))
        return state, key

    holder = {
        "state": init(jax.random.split(jax.random.PRNGKey(0), batch)),
        "key": jax.random.PRNGKey(1),
    }

    def run_batch():
        ended = 0
        for _ in range(max(1, 4096 // batch)):
            holder["state"], holder["key"] = random_step(holder["state"], holder["key"])
            ended += int(holder["state"].terminated.sum())
        holder["state"].observation.block_until_ready()
        return batch * max(1, 4096 // batch), ended

    return timed(run_batch, seconds)


def warm_up_learning(learn_a_rollout, env):
    """Learn rollouts until the first episodes have ended, so that what is timed next pays no
    compilation (an episode's end compiles the entry points numba cannot cache)."""
    while env.episodes_started <= env.num_envs:
        learn_a_rollout()


def sb3_model(name, num_players, num_envs, opponents):
    """The MaskablePPO model the bench trains (its defaults, rollouts of 32 steps, minibatches
    of 1,024, torch on one thread as ``experiments.train.sb3`` runs it) on ``num_envs`` games
    against ``opponents`` (agent specs, as ``heist train`` takes them), warmed up
    (:func:`warm_up_learning`); returns (model, env)."""
    import torch
    from sb3_contrib import MaskablePPO

    from experiments.train.evaluate import make_opponents
    from heist_envs.core.sb3_vec import SelfPlayVecEnv

    pool = make_opponents(opponents, name, 0, num_players)
    env = SelfPlayVecEnv(heist_envs.get_game(name), num_envs, num_players, pool, seed=0)
    torch.set_num_threads(1)
    model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=1024, device="cpu", seed=0)
    model.learn(env.num_envs * 32)
    warm_up_learning(lambda: model.learn(env.num_envs * 32, reset_num_timesteps=False), env)
    env.env_seconds = 0.0
    return model, env


def sb3_training(name, num_players, timesteps, num_envs=256, opponents="random"):
    """MaskablePPO env steps per second inside ``learn`` and the env's share of that time
    (:func:`sb3_model`)."""
    model, env = sb3_model(name, num_players, num_envs, opponents)
    start = time.perf_counter()
    model.learn(timesteps, reset_num_timesteps=False)
    elapsed = time.perf_counter() - start
    return timesteps / elapsed, env.env_seconds / elapsed


class PhaseClock:
    """The seconds of MaskablePPO's phases, from wrappers around the methods its loops call
    on the model's own objects (SB3 unchanged): the policy's forward passes while collecting
    (``forward``, ``predict_values``), the advantages (the buffer's
    ``compute_returns_and_advantage``), and in the update, from ``evaluate_actions`` to the
    optimiser's ``zero_grad`` (the forward pass and the loss), from there to its ``step``
    (the backward pass and the gradient clipping), and the step itself."""

    def __init__(self, model):
        from experiments.train.torch_ppo import PHASES

        self.seconds = dict.fromkeys(PHASES, 0.0)
        self.mark = 0.0
        policy, optimizer = model.policy, model.policy.optimizer
        self.wrap(policy, "forward", phase="collect_forward")
        self.wrap(policy, "predict_values", phase="collect_forward")
        self.wrap(model.rollout_buffer, "compute_returns_and_advantage", phase="advantages")
        self.wrap(policy, "evaluate_actions", mark="start")
        self.wrap(optimizer, "zero_grad", since_mark="update_forward", mark="end")
        self.wrap(optimizer, "step", since_mark="update_backward", phase="optimizer")

    def wrap(self, owner, method, phase=None, since_mark=None, mark=None):
        """Replace ``owner.method`` by a wrapper that adds its call's time to ``phase``, the
        time from the mark to its call to ``since_mark``, and sets the mark at the call's
        ``start`` or ``end``."""
        original = getattr(owner, method)
        clock = time.perf_counter

        def timed_call(*args, **kwargs):
            start = clock()
            if since_mark:
                self.seconds[since_mark] += start - self.mark
            if mark == "start":
                self.mark = start
            result = original(*args, **kwargs)
            end = clock()
            if phase:
                self.seconds[phase] += end - start
            if mark == "end":
                self.mark = end
            return result

        setattr(owner, method, timed_call)


def sb3_phases(name, num_players, timesteps, num_envs=256, opponents="heuristic"):
    """MaskablePPO's steps per second as :func:`sb3_training` measures them, and the share of
    each phase in its time (:class:`PhaseClock`; the env's is ``SelfPlayVecEnv``'s
    own ``step``, the rest is Python: SB3's loops, the masks' and the buffer's copies)."""
    model, env = sb3_model(name, num_players, num_envs, opponents)
    clock = PhaseClock(model)
    start = time.perf_counter()
    model.learn(timesteps, reset_num_timesteps=False)
    elapsed = time.perf_counter() - start
    clock.seconds["env"] = env.env_seconds
    return timesteps / elapsed, shares(clock.seconds, elapsed)


def torch_training(
    name, num_players, timesteps, num_envs=256, opponents="heuristic", flags=(), threads=1
):
    """The torch learner's steps per second inside its loop (``heist train --backend torch``
    at its defaults, or with ``flags``, rollouts of 32 steps on ``num_envs`` games against
    ``opponents``, torch on ``threads``, warmed up as :func:`sb3_model` is), and the share of
    each phase in its time (:data:`experiments.train.torch_ppo.PHASES`)."""
    from agents.registry import split_specs
    from experiments.train import torch_ppo

    argv = ["--game", name, "--players", str(num_players), "--n-envs", str(num_envs)]
    argv += ["--n-steps", "32", "--opponents", opponents, "--threads", str(threads), *flags]
    run = torch_ppo.Run(torch_ppo.parse_args(argv))
    learner = run.learner
    run.start_stage(0, split_specs(opponents), True)
    warm_up_learning(lambda: learner.learn(1), run.env)
    learner.seconds = dict.fromkeys(learner.seconds, 0.0)
    before, start = learner.num_timesteps, time.perf_counter()
    learner.learn(timesteps)
    elapsed = time.perf_counter() - start
    return (learner.num_timesteps - before) / elapsed, shares(learner.seconds, elapsed)


def shares(seconds, elapsed) -> dict:
    """Each phase's share of ``elapsed`` (``seconds``: phase -> seconds, ``python`` last:
    its share is the rest)."""
    *timed, rest = seconds
    figures = {phase: round(seconds[phase] / elapsed, 3) for phase in timed}
    return figures | {rest: round(1 - sum(figures.values()), 3)}  # the shown shares sum to 1


def self_play_speed(name, num_players, seconds, opponents="random", num_envs=64):
    """Learner steps per second of ``SelfPlayVecEnv`` (``num_envs`` games, the learner's moves
    drawn at random, no network) against ``opponents``: what training pays for its opponents,
    timed after the first episodes end (compilation, terminal observations)."""
    from experiments.train.evaluate import make_opponents
    from heist_envs.core.playout import random_legal_actions
    from heist_envs.core.sb3_vec import SelfPlayVecEnv

    pool = make_opponents(opponents, name, 0, num_players)
    env = SelfPlayVecEnv(heist_envs.get_game(name), num_envs, num_players, pool, seed=0)
    env.reset()
    actions = np.empty(num_envs, np.int64)
    calls = [0]

    def run_batch():
        calls[0] += 1
        random_legal_actions(env.games.masks, calls[0], actions)
        return num_envs, int(env.step(actions)[2].sum())

    ended = 0
    while ended < num_envs:
        ended += run_batch()[1]
    return timed(run_batch, seconds)[0]


class TimeUp(Exception):
    """Stops a benchmark game once its time is up."""


#: the search decisions rows: simulations per decision, decisions searched at once by the
#: batched search, and the decisions (of random games) both searches label
SEARCH_SIMULATIONS = 100
SEARCH_BATCH = 64
SEARCH_STATES = 256
#: the guided search's row: simulations per decision and decisions searched at once by the
#: network-guided batched search, and its network's hidden layers (``heist train --method
#: exit``'s default shape)
GUIDED_SIMULATIONS = 8
GUIDED_BATCH = 256
GUIDED_HIDDEN = (128, 128)
GUIDED_MODE = f"decisions-guided{GUIDED_BATCH}-{GUIDED_SIMULATIONS}"
#: the guided search's decisions a second a core, as a multiple of ISMCTS@100's
GUIDED_TARGET = 10


def ismcts_speed(name, num_players, seconds):
    """ISMCTS simulations per second (1000 per decision) in games against random agents,
    over the decisions made in ``seconds`` (the last game is cut short)."""
    from agents.arena import play
    from agents.base import RandomAgent
    from agents.ismcts import ISMCTSAgent

    seats = heist_envs.get_game(name).num_seats(num_players)
    agent = ISMCTSAgent(name, simulations=1000, seed=0)
    play(
        name,
        [ISMCTSAgent(name, simulations=10)] + [RandomAgent(1)] * (seats - 1),
        num_players,
        seed=0,
    )  # compile
    start = time.perf_counter()

    def stop_when_done(env, agent_name, action):
        if time.perf_counter() - start > seconds:
            raise TimeUp

    seed = 0
    with contextlib.suppress(TimeUp):
        while True:
            seed += 1
            opponents = [RandomAgent(seed)] * (seats - 1)
            play(name, [agent, *opponents], num_players, seed=seed, on_step=stop_when_done)
    return agent.simulations_run / agent.search_seconds


def decision_states(name, num_players, count, seed=0):
    """``count`` states of decisions with more than one legal move, every such decision of
    random games in turn (plain records, as the batched engine holds them)."""
    game = heist_envs.get_game(name)
    entry = game.entry
    mask = np.zeros(game.num_actions, np.int8)
    obs = np.zeros(game.obs_size, game.obs_dtype)
    picker = UniformPicker(seed)
    state = game.kernel_view(game.new_state(num_players, 0))
    states = []
    while len(states) < count:
        _, status = entry.restart(state, seed + len(states), mask, obs)
        while status == RUNNING and len(states) < count:
            legal = mask.nonzero()[0]
            if len(legal) > 1:
                states.append(state.copy())
            _, status = entry.advance(state, picker.pick(legal), mask)
    return np.concatenate(states)


def ismcts_decisions(name, states, simulations, seconds):
    """Plain ISMCTS (:class:`agents.ismcts.ISMCTSAgent`, the game's default settings):
    decisions per second over ``states``, one at a time."""
    from agents.base import InfoSet
    from agents.ismcts import ISMCTSAgent

    game = heist_envs.get_game(name)
    agent = ISMCTSAgent(name, simulations=simulations, seed=0)
    mask = np.zeros(game.num_actions, np.int8)
    at = [0]

    def run_batch():
        for _ in range(8):
            state = states[at[0] : at[0] + 1]
            at[0] = (at[0] + 1) % len(states)
            game.entry.refresh(state, mask)
            agent.visit_counts(mask.nonzero()[0], InfoSet(game, state, int(state[0]["actor"])))
        return 8, 0

    return timed(run_batch, seconds)[0]


def batch_search_decisions(name, states, simulations, seconds, batch=SEARCH_BATCH):
    """The batched search (:class:`agents.batch_search.BatchSearch`, PUCT, the rollout
    evaluator with the game's default settings): decisions per second over ``states``,
    ``batch`` searched at once."""
    from agents.batch_search import BatchSearchAgent

    search = BatchSearchAgent(name, simulations=simulations, seed=0).searcher
    return searched_per_second(search, states, seconds, batch)


def searched_per_second(search, states, seconds, batch) -> float:
    """Decisions per second of ``search`` (a :class:`~agents.batch_search.BatchSearch`) over
    ``states`` in turn, ``batch`` at once."""
    at = [0]

    def run_batch():
        rows = np.arange(at[0], at[0] + batch) % len(states)
        at[0] = (at[0] + batch) % len(states)
        search.search(states[rows])
        return batch, 0

    return timed(run_batch, seconds)[0]


def guided_search_decisions(name, states, simulations, seconds, batch=GUIDED_BATCH):
    """The network-guided batched search as expert iteration labels with it (a Gumbel root,
    PUCT below on the policy head's priors, the per-seat value head's values at the leaves, no
    rollouts; a fresh network of :data:`GUIDED_HIDDEN`, as fast as a trained one of its shape,
    on one torch thread): decisions per second over ``states``, ``batch`` searched at once."""
    import torch

    from agents.batch_search import BatchSearch
    from agents.network import NetworkEvaluator, PolicyValueNet

    game = heist_envs.get_game(name)
    torch.set_num_threads(1)
    seats = game.num_seats(int(states[0]["num_players"]))
    net = PolicyValueNet(game.obs_size, game.num_actions, GUIDED_HIDDEN, "relu", value_seats=seats)
    search = BatchSearch(game, NetworkEvaluator(net.eval()), simulations, "gumbel", seed=0)
    return searched_per_second(search, states, seconds, batch)


def openspiel_ismcts_speed(game_name, seconds):
    import pyspiel

    game = pyspiel.load_game(game_name)
    evaluator = pyspiel.RandomRolloutEvaluator(1, 0)
    bot = pyspiel.ISMCTSBot(0, evaluator, 1.4, 1000)
    rng = np.random.default_rng(0)
    sims = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                apply_chance_outcome(state, rng)
            elif state.current_player() == 0:
                state.apply_action(bot.step(state))
                sims += 1000
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.integers(len(legal))])
    return sims / (time.perf_counter() - start)


def pettingzoo_classic(env_name):
    """A PettingZoo classic env constructor, or None if its extras are not installed."""
    try:
        module = importlib.import_module(f"pettingzoo.classic.{PETTINGZOO_ENVS[env_name]}")
    except ImportError:
        return None
    return module.env


@contextlib.contextmanager
def busy_neighbour(busy):
    """While active (if ``busy``), another process keeps one core busy."""
    if not busy:
        yield
        return
    spinner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        time.sleep(0.2)  # let it start spinning
        yield
    finally:
        spinner.kill()
        spinner.wait()


def installed(module):
    try:
        __import__(module)
    except ImportError:
        print(f"  ({module} not installed: its rows are skipped)")
        return False
    return True


#: the unit of a row's rate, by the start of its mode
UNITS = {"ismcts": "sims/s", "decisions": "decisions/s", "tournament": "games/s"}


def add_row(rows, json_path, library, game, mode, num_players, rate, games_per_s=None, **extra):
    """Append a record to ``rows``, print it, and rewrite ``json_path`` with every row."""
    rows.append(
        {
            "library": library,
            "game": game,
            "mode": mode,
            "num_players": num_players,
            "steps_per_second": round(rate, 1),
            "games_per_second": None if games_per_s is None else round(games_per_s, 2),
            **extra,
        }
    )
    if json_path:
        with open(json_path, "w") as f:
            json.dump(rows, f, indent=1)
    unit = next((u for prefix, u in UNITS.items() if mode.startswith(prefix)), "steps/s")
    more = "".join(f"  {k} {v}" for k, v in extra.items())
    print(
        f"  {library:<11} {game:<20} {mode:<21} {num_players}p {rate:>14,.0f} {unit}{more}",
        flush=True,
    )


@dataclass(frozen=True)
class Settings:
    """How long each row measures: ``seconds`` per row, training runs of ``train_steps``
    steps on ``train_envs`` games, the batched engine at ``batch_sizes``."""

    seconds: float
    train_steps: int
    train_envs: int
    batch_sizes: tuple[int, ...]


def single_rows(record, counts, settings):
    """One game at a time: the kernel compiled and from Python, the AEC loop, beside
    PettingZoo classic and OpenSpiel."""
    seconds = settings.seconds
    for name, n in counts.items():
        record("heist-envs", name, "kernel-jit", n, *kernel_jit(name, n, seconds))
        record("heist-envs", name, "kernel-python", n, *kernel_python(name, n, seconds))
        record(
            "heist-envs",
            name,
            "aec",
            n,
            *aec_loop(lambda name=name, n=n: heist_envs.make(name, num_players=n), seconds),
        )
    for env_name in PETTINGZOO_ENVS:
        make = pettingzoo_classic(env_name)
        if make is not None:
            record("pettingzoo", env_name, "aec", 2, *aec_loop(make, seconds))
    if installed("pyspiel"):
        for game_name in OPENSPIEL_GAMES:
            for mode, with_tensor in (("openspiel", False), ("openspiel-tensor", True)):
                rates = openspiel_loop(game_name, with_tensor, seconds)
                record("openspiel", game_name, mode, 2, *rates)


def batch_rows(record, counts, settings):
    """The batched engine at every batch size, beside PGX on the CPU."""
    for name, n in counts.items():
        for batch in settings.batch_sizes:
            rates = batch_engine(name, n, batch, settings.seconds)
            record("heist-envs", name, f"batch-{batch}", n, *rates)
    if installed("pgx"):
        for env_name in PGX_ENVS:
            for batch in settings.batch_sizes:
                rates = pgx_batch(env_name, batch, settings.seconds)
                record("pgx", env_name, f"batch-{batch}", 2, *rates)


def train_rows(record, counts, settings):
    """MaskablePPO learning on each game against random players and against the heuristic,
    and the environment's share of its time; then the torch learner against the heuristic."""
    if not installed("sb3_contrib"):
        return
    for name, n in counts.items():
        for opponents in ("random", "heuristic"):
            rate = self_play_speed(name, n, settings.seconds, opponents)
            record("heist-envs", name, f"env-vs-{opponents}", n, rate)
            rate, share = sb3_training(
                name, n, settings.train_steps, settings.train_envs, opponents
            )
            mode = f"ppo-vs-{opponents}"
            record("heist-envs", name, mode, n, rate, env_share=round(share, 3))
        rate, phases = torch_training(name, n, settings.train_steps, settings.train_envs)
        record("heist-envs", name, "torch-vs-heuristic", n, rate, env_share=phases["env"])


def phases_rows(record, counts, settings):
    """Where a second of learning against the heuristic goes, per game: MaskablePPO's
    (``sb3-phases``) and the torch learner's (``torch-phases``), each phase's share."""
    if not installed("sb3_contrib"):
        return
    for name, n in counts.items():
        for mode, measure in (("sb3-phases", sb3_phases), ("torch-phases", torch_training)):
            rate, phases = measure(name, n, settings.train_steps, settings.train_envs)
            record("heist-envs", name, mode, n, rate, **phases)


def search_rows(record, counts, settings):
    """ISMCTS simulations per second, beside OpenSpiel's ISMCTS bot; and decisions per
    second at SEARCH_SIMULATIONS of each of SEARCH_PLAYERS, over the same decisions."""
    seconds = settings.seconds * 4
    for name, n in counts.items():
        record("heist-envs", name, "ismcts-1000", n, ismcts_speed(name, n, seconds))
        states = decision_states(name, n, SEARCH_STATES)
        for mode, decisions in SEARCH_PLAYERS.items():
            rate = decisions(name, states, SEARCH_SIMULATIONS, seconds)
            record("heist-envs", name, mode.format(SEARCH_SIMULATIONS), n, rate)
        if installed("torch"):
            rate = guided_search_decisions(name, states, GUIDED_SIMULATIONS, seconds)
            record("heist-envs", name, GUIDED_MODE, n, rate)
    if installed("pyspiel"):
        rate = openspiel_ismcts_speed(OPENSPIEL_ISMCTS_GAME, seconds)
        record("openspiel", OPENSPIEL_ISMCTS_GAME, "ismcts-1000", 2, rate)


def shared_rows(record, counts, settings):
    """The first game's batched engine and training on idle cores and beside a busy one; the
    torch learner with one and two threads."""
    name, n = next(iter(counts.items()))
    for neighbour in ("idle", "busy"):
        with busy_neighbour(neighbour == "busy"):
            rates = batch_engine(name, n, 1024, settings.seconds)
            record("heist-envs", name, "batch-1024", n, *rates, neighbour=neighbour)
            if installed("sb3_contrib"):
                rate, share = sb3_training(name, n, settings.train_steps, settings.train_envs)
                record("heist-envs", name, "ppo-vs-random", n, rate,
                       env_share=round(share, 3), neighbour=neighbour)  # fmt: skip
                for threads in (1, 2):
                    rate, _ = torch_training(name, n, settings.train_steps, settings.train_envs,
                                             threads=threads)  # fmt: skip
                    record("heist-envs", name, "torch-vs-heuristic", n, rate,
                           neighbour=neighbour, threads=threads)  # fmt: skip


#: the tables the tournament section plays: mode -> agents (the first seated against the
#: second in every other side)
TOURNAMENT_TABLES = {"heuristic-vs-heuristic": "heuristic", "ppo-vs-heuristic": "ppo"}
#: the table whose compiled play alone the section also times: single-threaded compiled code,
#: whose CPU time is its time (a network's forward passes count every torch thread's)
COMPILED_TABLE = "heuristic-vs-heuristic"


def tournament_speed(name, num_players, agent, games, batched) -> tuple[float, float]:
    """Games per second of a tournament of ``agent`` against the heuristic, one process (the
    serial route with one worker), after a few untimed games that load or compile the code;
    and games per second of the agents' own CPU time alone (in the batched route: the
    compiled play and the forward passes, the rules' steps included)."""
    from agents.arena import tournament

    agents = [agent, "heuristic"]
    play = partial(tournament, name, agents, num_players=num_players, workers=1,
                   progress=False, batched=batched)  # fmt: skip
    play(games=4, seed=1)
    started = time.perf_counter()
    result = play(games=games, seed=2)
    wall = time.perf_counter() - started
    acting = sum(sum(r["act_cpu_seconds"]) for r in result.games)
    return len(result.games) / wall, len(result.games) / acting


def tournament_rows(record, counts, settings):
    """Tournaments of the heuristic and of the shipped network against the heuristic, one
    game at a time (``serial``) and in the batched route (``batched``), games per second;
    and the heuristic table's compiled play alone (``compiled``): the most a batched route
    can reach while the heuristic's decisions cost what they cost."""
    serial_games = max(40, int(100 * settings.seconds))
    for name, n in counts.items():
        for mode, agent in TOURNAMENT_TABLES.items():
            if agent == "ppo" and not installed("sb3_contrib"):
                continue
            for route, games in (("serial", serial_games), ("batched", 50 * serial_games)):
                rate, acting = tournament_speed(name, n, agent, games, route == "batched")
                record("heist-envs", name, f"tournament-{route}-{mode}", n, rate, rate)
                if route == "batched" and agent == "heuristic":
                    record("heist-envs", name, f"tournament-compiled-{mode}", n, acting, acting)


#: The first layer's variants ``--sections layers`` measures: dense in float32 (what SB3
#: computes), dense in bfloat16 (the torch learner's), and two that pay only for the non-zero
#: inputs: a gather of the weights' rows (``embedding_bag``) and a sparse CSR matrix product
FIRST_LAYERS = ("dense-f32", "dense-bf16", "gather", "sparse-csr")


def observation_rows(name, num_players, rows):
    """``rows`` learners' observations (float32) from games against the game's heuristic, the
    learner's moves at random, after their first rounds."""
    from experiments.train.evaluate import make_opponents
    from heist_envs.core.playout import random_legal_actions
    from heist_envs.core.single_agent import SelfPlayGames

    pool = make_opponents("heuristic", name, 0, num_players)
    env = SelfPlayGames(heist_envs.get_game(name), 256, num_players, pool, seed=0)
    env.reset()
    seen, actions = [], np.empty(256, np.int64)
    for k in range(20 + -(-rows // 256)):
        if k >= 20:
            seen.append(env.games.obs.astype(np.float32))
        random_legal_actions(env.games.masks, k, actions)
        env.step_arrays(actions)
    return np.concatenate(seen)[:rows]


def first_layer_speed(obs, variant, seconds, width=128):
    """Rows per second of a first layer of ``width`` units over the observations ``obs`` (a
    minibatch), forward and backward (the weights' gradient: an update's work), torch on one
    thread, as :data:`FIRST_LAYERS` names the variant. The non-zero inputs' indices are found
    once, outside the timing, as a rollout could store them."""
    import torch
    from torch.nn import functional

    torch.set_num_threads(1)
    x = torch.as_tensor(obs)
    weight = torch.nn.Parameter(torch.randn(width, x.shape[1]) * 0.01)
    bias = torch.nn.Parameter(torch.zeros(width))
    grad = torch.randn(len(x), width)
    rows, cols = x.nonzero(as_tuple=True)
    offsets = torch.searchsorted(rows, torch.arange(len(x)))
    with warnings.catch_warnings():  # "sparse CSR tensor support is in beta state"
        warnings.simplefilter("ignore", UserWarning)
        csr = x.to_sparse_csr()
    values, low = x[rows, cols], x.bfloat16()
    forward = {
        "dense-f32": lambda: functional.linear(x, weight, bias),
        "dense-bf16": lambda: functional.linear(low, weight.bfloat16(), bias.bfloat16()).float(),
        "gather": lambda: (
            functional.embedding_bag(cols, weight.T, offsets, mode="sum", per_sample_weights=values)
            + bias
        ),
        "sparse-csr": lambda: torch.sparse.mm(csr, weight.T) + bias,
    }[variant]

    def run_batch():
        weight.grad = bias.grad = None
        forward().backward(grad)
        return len(x), 0

    return timed(run_batch, seconds)[0]


def layers_rows(record, counts, settings):
    """The first layer's forward and backward passes per game, over 4,096 real observations
    (the torch learner's minibatch), in each of :data:`FIRST_LAYERS`; each row says how many
    of the inputs are non-zero."""
    if not installed("torch"):
        return
    for name, n in counts.items():
        obs = observation_rows(name, n, 4096)
        nonzero = round(float((obs != 0).mean()), 3)
        for variant in FIRST_LAYERS:
            rate = first_layer_speed(obs, variant, settings.seconds)
            record("heist-envs", name, f"layer-{variant}", n, rate, nonzero=nonzero)


def rllib_rows(record, counts, settings):
    """Ray RLlib env runners sampling each game, and the PPO learner's rate."""
    if not installed("ray.rllib"):
        return
    from experiments.train.rllib import measure_sampling

    for name, n in counts.items():
        steps = settings.train_steps // 32
        for r in measure_sampling(name, n, runner_counts=(1, 2), steps=steps):
            mode = f"rllib-sample-{r['env_runners']}"
            per_runner = round(r["per_runner"], 1)
            learner = round(r["learner_steps_per_second"], 1)
            record("ray-rllib", name, mode, n, r["steps_per_second"], None,
                   per_runner=per_runner, learner_steps_per_second=learner)  # fmt: skip


#: the searches whose decisions per second the search section measures: mode (with the
#: simulations per decision) -> ``(name, states, simulations, seconds) -> decisions/s``
SEARCH_PLAYERS = {
    "decisions-ismcts-{}": ismcts_decisions,
    "decisions-batch1-{}": partial(batch_search_decisions, batch=1),
    f"decisions-batch{SEARCH_BATCH}-{{}}": batch_search_decisions,
}

#: section name -> what measures its rows, in the order they run
SECTION_ROWS = {
    "single": single_rows,
    "batch": batch_rows,
    "train": train_rows,
    "search": search_rows,
    "shared": shared_rows,
    "phases": phases_rows,
    "layers": layers_rows,
    "rllib": rllib_rows,
    "tournament": tournament_rows,
}
SECTIONS = tuple(SECTION_ROWS)
#: MaskablePPO's speed against the heuristic, as a share of its speed against random players
HEURISTIC_TRAINING_TARGET = 0.5
#: The torch learner's speed against the heuristic, as a multiple of MaskablePPO's
TORCH_TRAINING_TARGET = 5
#: The batched route's tournament games per second, as a multiple of the serial route's
TOURNAMENT_TARGET = 50
# phases trains twice more per game, layers measures the learner's first layer, and rllib
# starts Ray: only when named
DEFAULT_SECTIONS = SECTIONS[:5]


def run(
    games,
    seconds,
    players=PLAYERS,
    sections=DEFAULT_SECTIONS,
    train_steps=65_536,
    train_envs=256,
    batch_sizes=BATCH_SIZES,
    json_path=None,
):
    """Every benchmark row, as records ``{library, game, mode, num_players, ...}``; the rows
    so far are written to ``json_path`` after each one."""
    rows = []

    def record(*args, **extra):
        add_row(rows, json_path, *args, **extra)

    counts = {}
    for name in games:
        game = heist_envs.get_game(name)
        counts[name] = min(max(players, game.min_players), game.max_players)
    settings = Settings(seconds, train_steps, train_envs, batch_sizes)
    for section, measure in SECTION_ROWS.items():
        if section in sections:
            measure(record, counts, settings)
    return rows


@dataclass(frozen=True)
class Ratio:
    """A line of the summary: each row of ``library`` at ``mode`` (None: any) over the row
    ``theirs`` (library, environment, mode: another library's environment, or None for the
    same game; None for the same mode); ``text`` names the two (with ``{mode}``) and
    ``after`` follows the ratio."""

    library: str
    mode: str | None
    theirs: tuple[str, str | None, str | None]
    text: str
    digits: int = 1
    after: str = "x"


#: the comparisons the targets are stated in: against other libraries' environments, and
#: training against the heuristic against training against random players
RATIOS = (
    Ratio("heist-envs-cuda", None, ("pgx", "connect_four", None),
          "cuda {mode} / pgx connect_four {mode}", digits=2),
    Ratio("heist-envs", "batch-4096", ("pgx", "connect_four", "batch-4096"),
          "batch-4096 / pgx connect_four batch-4096"),
    Ratio("heist-envs", "aec", ("pettingzoo", "connect_four", "aec"),
          "aec / pettingzoo connect_four aec"),
    Ratio("heist-envs", "kernel-python", ("openspiel", "connect_four", "openspiel-tensor"),
          "kernel-python / openspiel connect_four with tensors"),
    Ratio("heist-envs", "env-vs-heuristic", ("heist-envs", None, "env-vs-random"),
          "env-vs-heuristic / env-vs-random", digits=2),
    Ratio("heist-envs", f"decisions-batch{SEARCH_BATCH}-{SEARCH_SIMULATIONS}",
          ("heist-envs", None, f"decisions-ismcts-{SEARCH_SIMULATIONS}"),
          f"batched search / ISMCTS decisions at {SEARCH_SIMULATIONS} simulations", digits=2),
    Ratio("heist-envs", GUIDED_MODE, ("heist-envs", None, f"decisions-ismcts-{SEARCH_SIMULATIONS}"),
          f"guided search at {GUIDED_SIMULATIONS} simulations / ISMCTS decisions at "
          f"{SEARCH_SIMULATIONS}", after=f"x (target: at least {GUIDED_TARGET}x)"),
    Ratio("heist-envs", "ppo-vs-heuristic", ("heist-envs", None, "ppo-vs-random"),
          "ppo-vs-heuristic / ppo-vs-random", digits=2,
          after=f" (target: at least {HEURISTIC_TRAINING_TARGET})"),
    Ratio("heist-envs", "torch-vs-heuristic", ("heist-envs", None, "ppo-vs-heuristic"),
          "torch-vs-heuristic / ppo-vs-heuristic",
          after=f"x (target: at least {TORCH_TRAINING_TARGET}x)"),
    Ratio("heist-envs", "torch-vs-heuristic", ("heist-envs", None, "env-vs-heuristic"),
          "torch-vs-heuristic / env-vs-heuristic", digits=2, after=" (goal: 0.5)"),
    *(Ratio("heist-envs", f"tournament-batched-{mode}",
            ("heist-envs", None, f"tournament-serial-{mode}"),
            f"{mode} tournament, batched / serial games per second",
            after=f"x (target: at least {TOURNAMENT_TARGET}x)") for mode in TOURNAMENT_TABLES),
    Ratio("heist-envs", f"tournament-compiled-{COMPILED_TABLE}",
          ("heist-envs", None, f"tournament-serial-{COMPILED_TABLE}"),
          f"{COMPILED_TABLE} tournament, the batched route's compiled play alone / serial games "
          "per second (the most batching can give)"),
)  # fmt: skip


def ratios(rows):
    """The :data:`RATIOS` lines, per heist-envs game and mode measured."""
    rate = {(r["library"], r["game"], r["mode"]): r["steps_per_second"] for r in rows}
    lines = []
    for (library, game, mode), value in rate.items():
        for ratio in RATIOS:
            if library != ratio.library or ratio.mode not in (None, mode):
                continue
            peer, env, peer_mode = ratio.theirs
            theirs = rate.get((peer, env or game, peer_mode or mode))
            if theirs:
                text = ratio.text.format(mode=mode)
                lines.append(f"{game} {text}: {value / theirs:.{ratio.digits}f}{ratio.after}")
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(prog="heist bench", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick", action="store_true", help="a short run: 0.25 s per row instead of 3 s"
    )
    parser.add_argument(
        "--json", metavar="PATH", help="write the records to this file (after every row)"
    )
    parser.add_argument(
        "--games",
        nargs="+",
        default=heist_envs.game_names(),
        choices=heist_envs.game_names(),
        help="heist-envs games to measure",
    )
    parser.add_argument(
        "--players",
        type=int,
        default=PLAYERS,
        help="player count for heist-envs games (clamped to each game's range)",
    )
    parser.add_argument(
        "--sections",
        nargs="+",
        default=list(DEFAULT_SECTIONS),
        choices=SECTIONS,
        help=f"which comparisons to run (default: {' '.join(DEFAULT_SECTIONS)})",
    )
    parser.add_argument(
        "--device",
        choices=("cpu", "cuda"),
        default="cpu",
        help="cuda: the batched engine on the GPU beside PGX there (only the batch comparison)",
    )
    args = parser.parse_args(argv)
    print("library     game                 mode                  players   per second")
    seconds = 0.25 if args.quick else 3.0
    train_steps, train_envs = (1_024, 32) if args.quick else (65_536, 256)
    batch_sizes = QUICK_BATCH_SIZES if args.quick else BATCH_SIZES
    if args.device == "cuda":
        try:
            rows = run_cuda(args.games, seconds, args.players, args.json)
        except DeviceError as error:
            parser.exit(2, f"heist bench: error: {error}\n")
    else:
        rows = run(
            args.games,
            seconds,
            args.players,
            args.sections,
            train_steps,
            train_envs,
            batch_sizes,
            args.json,
        )
    print()
    for line in ratios(rows):
        print(line)
    return rows


if __name__ == "__main__":
    main()
