"""One learning seat against opponents, backed by the batched engine: the self-play games
(:class:`SelfPlayGames`) and their Gymnasium env (:class:`SingleAgentEnv`). Their SB3
``VecEnv``, :class:`heist_envs.core.sb3_vec.SelfPlayVecEnv`, lives apart, so that Gymnasium
users need no stable-baselines3.

In every game a learner seat is drawn per episode; the other seats are played by opponents
drawn from a pool (random, a frozen MaskablePPO policy, any agent with
``act(observation, action_mask)``, or a compiled policy that the engine plays inside its
compiled loop), which can be replaced between episodes for self-play. In
team games the learner plays every seat of its side (teammates share its policy) unless
``team_play=False``. ``action_masks()`` serves sb3-contrib's MaskablePPO.

Rewards are the learner seat's terminal return. A truncated game ends the episode with
reward 0 and is reported as done, not as a time limit: there is no value to bootstrap.
Observations are float32 for every game (:data:`heist_envs.core.aec.OBS_DTYPE`); the
observation of a game's last state, the learner's, comes as SB3's ``terminal_observation``
info in the VecEnv and as the observation of the terminating step in the Gymnasium env.
Seeding follows SB3 and Gymnasium: a seed given at a reset (``VecEnv.seed`` then ``reset()``,
or ``reset(seed=...)``) reseeds the deals, the seat draws and the opponents, and unseeded
resets carry on from it.
The optional ``shaping`` hook adds potential-based shaping to them (see
:class:`SelfPlayGames`; potentials in :mod:`experiments.train.shaping`).
"""

from __future__ import annotations

import time
import warnings
from typing import Protocol

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from numba.core.dispatcher import Dispatcher

from heist_envs.core.aec import OBS_DTYPE, action_id, check_illegal_action
from heist_envs.core.errors import CallOrderError, IllegalActionError
from heist_envs.core.game import Game
from heist_envs.core.playout import random_legal_actions
from heist_envs.core.policy_rng import check_seed, seat_rng_rows
from heist_envs.core.vector import VectorGames, opponent_loop


class Opponent(Protocol):
    """Plays a batch of decisions: one legal action per row of ``masks`` (one that sets
    ``wants_info_set`` also gets each row's :class:`agents.base.InfoSet`). (A
    :class:`CompiledOpponent` is the other kind: the engine plays it in compiled code.)"""

    def act_batch(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray: ...


def reseed_opponents(opponents, seed):
    """Reseed every opponent that draws random numbers (those with ``reseed(seed)``)."""
    for k, opponent in enumerate(opponents):
        if hasattr(opponent, "reseed"):
            opponent.reseed(seed + 1 + k)


class RandomOpponent:
    """Uniformly random legal actions, drawn in compiled code."""

    name = "random"

    def __init__(self, seed=0):
        self.seed = seed

    def reseed(self, seed):
        self.seed = seed

    def act_batch(self, obs, masks):
        self.seed += 1
        out = np.empty(len(masks), np.int64)
        random_legal_actions(masks, self.seed, out)
        return out


class AgentOpponent:
    """Any agent with ``act(observation, action_mask) -> int``, called once per decision; a
    search agent (``wants_info_set``) also gets each decision's information set."""

    def __init__(self, agent, name=None):
        self.agent = agent
        self.name = name or type(agent).__name__
        self.wants_info_set = getattr(agent, "wants_info_set", False)

    def act_batch(self, obs, masks, info_sets=None):
        extra = [[s] for s in info_sets] if self.wants_info_set else [[]] * len(obs)
        calls = zip(obs, masks, extra, strict=True)
        return np.array([self.agent.act(o, m, *x) for o, m, x in calls], np.int64)


class PolicyOpponent:
    """A frozen MaskablePPO policy (``model.policy``), or any network with
    ``action_logits(obs) -> logits`` (torch tensors), one batched forward pass per call.

    It samples from the masked action distribution (or takes its mode when
    ``deterministic``) straight from the actor's logits, without SB3's per-call overhead.
    """

    def __init__(self, policy, deterministic=False, name="policy", seed=0):
        import torch

        self.torch = torch
        self.policy = policy
        self.deterministic = deterministic
        self.name = name
        self.generator = torch.Generator().manual_seed(seed)

    def reseed(self, seed):
        self.generator.manual_seed(seed)

    def logits(self, obs):
        """The actor's logits of a batch: a network's own ``action_logits(obs)`` where it has
        one, else through SB3's actor layers."""
        policy = self.policy
        if hasattr(policy, "action_logits"):
            return policy.action_logits(obs)
        features = policy.extract_features(obs, policy.pi_features_extractor)
        return policy.action_net(policy.mlp_extractor.forward_actor(features))

    def act_batch(self, obs, masks):
        torch = self.torch
        with torch.no_grad():
            logits = self.logits(torch.as_tensor(obs, dtype=torch.float32))
            logits[torch.as_tensor(masks == 0)] = -torch.inf
            if not self.deterministic:
                uniform = torch.rand(logits.shape, generator=self.generator)
                logits = logits - torch.log(-torch.log(uniform.clamp_min(1e-20)))
            return logits.argmax(dim=1).numpy().astype(np.int64)


class CompiledOpponent:
    """A compiled policy ``act(obs, mask, params, rng) -> int`` that the engine plays inside
    its compiled loop, so that its decisions cost no Python call.

    ``act`` is a ``numba.njit`` function over one seat's observation row (the game's
    ``obs_dtype``), its int8 mask row, the float64 vector ``params`` and a uint64 random state
    of :data:`heist_envs.core.policy_rng.RNG_WORDS` words (draw with
    :func:`heist_envs.core.policy_rng.next_double`). Each (game, seat) it plays has its own
    random state, derived from ``seed`` and the place alone
    (:func:`heist_envs.core.policy_rng.seat_rng_rows`) and carried on from episode to
    episode, and from pool to pool; ``reseed(seed)`` derives them anew. Opponents of a pool
    that share ``act`` are played by one loop, their ``params`` stacked: they must be of
    one length.
    """

    def __init__(self, act, params, name="compiled", seed=0):
        if not isinstance(act, Dispatcher):
            raise ValueError(f"act must be a numba.njit function, got {act!r:.80}")
        params = np.asarray(params, np.float64)
        if params.ndim != 1:
            raise ValueError(f"params must be a vector (1-D), got shape {params.shape}")
        self.act = act
        self.params = params
        self.name = name
        self.reseed(seed)

    def reseed(self, seed):
        self.seed = check_seed(seed)
        self.rngs = None

    def seat_rngs(self, num_envs, num_seats) -> np.ndarray:
        """The random states ``[num_envs, num_seats, RNG_WORDS]`` it plays with in a batch of
        that shape: as left by its last games of that shape, else derived from the seed."""
        if self.rngs is None or self.rngs.shape[:2] != (num_envs, num_seats):
            self.rngs = seat_rng_rows(self.seed, num_envs, num_seats)
        return self.rngs


class CompiledGroup:
    """The compiled opponents of a pool that share one policy, and the loop that plays them:
    their params stacked, their random states stacked (each opponent's ``rngs`` a view of its
    part, so that it carries on from there), and the slot of each opponent of the pool."""

    def __init__(self, games: VectorGames, pool, act):
        members = {}  # id -> opponent, each object once
        for opponent in pool:
            if isinstance(opponent, CompiledOpponent) and opponent.act is act:
                members.setdefault(id(opponent), opponent)
        unique = list(members.values())
        lengths = {len(opponent.params) for opponent in unique}
        if len(lengths) > 1:
            named = ", ".join(f"{o.name}: {len(o.params)}" for o in unique)
            raise ValueError(
                f"compiled opponents that share a policy need params of one length; got {named}"
            )
        self.opponents = unique
        self.params = np.stack([opponent.params for opponent in unique])
        self.rngs = np.stack([o.seat_rngs(games.num_envs, games.num_seats) for o in unique])
        for slot, opponent in enumerate(unique):
            opponent.rngs = self.rngs[slot]
        slot_of = {id(opponent): slot for slot, opponent in enumerate(unique)}
        self.slot_of = np.array([slot_of.get(id(opponent), -1) for opponent in pool], np.int64)
        self.loop = opponent_loop(games.game, act)


class SelfPlayGames:
    """``num_envs`` games, each with one learning seat, stepped together (SB3's ``VecEnv``
    protocol without SB3: :class:`heist_envs.core.sb3_vec.SelfPlayVecEnv` adds it).

    The learner's seat is drawn at random per episode, or with ``rotate_seats`` taken in
    turn over the sides (episode k plays side k mod sides, from that side's first seat), for
    fair evaluations: a side is a seat, or a team in team games.

    ``seatings`` (entrant per side, 0 the learner's, 1 the others', as a tournament's
    :func:`agents.arena.schedule` lists them for two entrants) seats the pool as a two-agent
    tournament table does: each episode draws a seating and one of entrant 0's seats for the
    learner, every other entrant-0 seat plays the pool's last opponent (the learner's copy, a
    snapshot) and every entrant-1 seat one of the others, drawn at random. Without it each
    opponent seat draws from the whole pool.

    ``learner_sides`` (side indices, in team order: :meth:`Game.side_seats`) keeps the
    learner to those sides, for a policy of one side in a game whose sides play different
    roles (How to Rob a Bank's bank or its robbers); the seat draws, rotations and seatings
    above then choose among the seats of those sides only. Default: every side.

    ``shaping``, a potential ``(states, seats) -> float[num_envs]`` (the batched state
    records of ``self.games.states`` and the learner's seat per game), adds
    ``shaping_gamma * Phi(s') - Phi(s)`` to each learner reward, where ``s`` and ``s'`` are
    the states at the learner's decision and at its next one (opponents' moves in between),
    and ``Phi(s') = 0`` when the episode ended (Ng, Harada and Russell 1999: with
    ``shaping_gamma`` equal to the learner's discount the optimal policies are unchanged, and
    the discounted shaping of an episode sums to ``-Phi(s_0)``). Without it rewards stay
    terminal.
    """

    def __init__(
        self,
        game: Game,
        num_envs: int = 8,
        num_players=None,
        opponents=None,
        seed=0,
        options=None,
        team_play=True,
        rotate_seats=False,
        shaping=None,
        shaping_gamma=1.0,
        seatings=None,
        learner_sides=None,
    ):
        if seatings is not None and rotate_seats:
            raise ValueError("rotate_seats and seatings each choose the learner's seat; pass one")
        self.game = game
        self.shaping = shaping
        self.shaping_gamma = shaping_gamma
        self.potential = np.zeros(num_envs, np.float32)  # Phi at each learner decision
        self.rotate_seats = rotate_seats
        self.episodes_started = 0
        self.env_seconds = 0.0  # time spent stepping games and opponents
        self.games = VectorGames(game, num_envs, num_players, options)
        self.num_seats = self.games.num_seats
        self.opponents = list(opponents) if opponents else [RandomOpponent(seed)]
        self.team_of_seat = np.array(game.teams(self.games.num_players), np.int64)
        self.team_play = team_play
        _, self.side_seats, side_of_seat = np.unique(
            self.team_of_seat, return_index=True, return_inverse=True
        )
        self.learner_sides = self._check_sides(learner_sides)
        self.learner_seats = np.flatnonzero(np.isin(side_of_seat, self.learner_sides))
        self.seat_plans = None if seatings is None else self._seat_plans(seatings, side_of_seat)
        self.copy_seats = np.zeros((num_envs, self.num_seats), np.bool_)  # the learner's copies
        self.rng = np.random.default_rng(seed)
        self._seed = seed
        self.learner_seat = np.zeros(num_envs, np.int64)
        self.opponent_of = np.zeros((num_envs, self.num_seats), np.int64)
        self.terminal_obs = np.zeros((num_envs, game.obs_size), OBS_DTYPE)
        self.last_obs = np.zeros((num_envs, game.obs_size), game.obs_dtype)  # compiled loops'
        self.num_envs = num_envs
        self.compiled = self._group_compiled()
        low, high = game.obs_bounds
        self.observation_space = spaces.Box(low, high, (game.obs_size,), OBS_DTYPE)
        self.action_space = spaces.Discrete(game.num_actions)

    # Stepping ---------------------------------------------------------------------------------

    def reset(self):
        """Deal every game anew (from the last seed, see :meth:`reseed`) and let opponents
        play up to each learner's first decision; returns the learners' observations."""
        self._check_pool(self.opponents)
        self.games.reset(seed=self._seed)
        self._seed += self.num_envs
        self._new_episodes(np.ones(self.num_envs, np.bool_))
        self._play_opponents(*self._outcome_buffers())
        if self.shaping is not None:
            self.potential = self._potential()
        return self.games.obs.astype(OBS_DTYPE)

    def reseed(self, seed):
        """Seed the deals (game i's k-th episode from ``seed + i + k * num_envs``), the
        learner seat and opponent draws, and every opponent with ``reseed``."""
        self.rng = np.random.default_rng(seed)
        self._seed = seed
        reseed_opponents(self.opponents, seed)
        self.compiled = self._group_compiled()

    def step(self, actions):
        """Play one learner action per game, then the opponents up to each learner's next
        decision; returns (obs, rewards, dones, infos) as SB3's ``VecEnv.step`` does."""
        start = time.perf_counter()
        rewards, dones = self._play(actions)
        infos = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(dones):
            infos[i]["terminal_observation"] = self.terminal_obs[i].copy()
        self.env_seconds += time.perf_counter() - start
        return self.games.obs.astype(OBS_DTYPE), rewards, dones, infos

    def step_arrays(self, actions):
        """:meth:`step` without its per-game work (the infos, the float copy of the
        observations), for a learner that reads the arrays: returns (rewards, dones). The
        learners' next observations and masks are then ``games.obs`` and ``games.masks``
        (the engine's arrays, in the game's dtypes, rewritten by the next step), and where
        a game ended, its learner's last observation is ``terminal_obs[i]`` and whether it
        was truncated ``truncated[i]``."""
        start = time.perf_counter()
        outcome = self._play(actions)
        self.env_seconds += time.perf_counter() - start
        return outcome

    def _play(self, actions):
        actions = np.asarray(actions).reshape(self.num_envs)
        rewards, dones, truncated = self._outcome_buffers()
        self._step_games(actions, None, rewards, dones, truncated)
        self._play_opponents(rewards, dones, truncated)
        if self.shaping is not None:
            self._add_shaping(rewards, dones)
        self.truncated = truncated
        return rewards, dones

    def action_masks(self) -> np.ndarray:
        return self.games.masks.astype(bool)

    # Self-play pool ---------------------------------------------------------------------------

    def set_opponents(self, opponents):
        """Replace the opponent pool; games already under way finish with their opponents
        drawn anew from the new pool at their next decision."""
        opponents = list(opponents)
        self._check_pool(opponents)
        previous, self.opponents = self.opponents, opponents
        try:
            self.compiled = self._group_compiled()
        except ValueError:
            self.opponents = previous
            raise
        self._draw_opponents(np.ones(self.num_envs, np.bool_))

    # Internals --------------------------------------------------------------------------------

    def _seat_plans(self, seatings, side_of_seat):
        """Every (learner seat, seats of the learner's copies) a seating allows, one row per
        entrant-0 seat of each seating: ``[plans, 1 + num_seats]``."""
        plans = []
        for seating in seatings:
            if len(seating) != len(self.side_seats) or set(seating) - {0, 1} or 0 not in seating:
                raise ValueError(
                    f"seating {tuple(seating)}: give entrant 0 or 1 for each of the "
                    f"{len(self.side_seats)} sides, entrant 0 at least once"
                )
            ours = np.asarray(seating)[side_of_seat] == 0
            for seat in np.flatnonzero(ours & np.isin(side_of_seat, self.learner_sides)):
                copies = ours.copy()
                copies[seat] = False
                plans.append([seat, *copies])
        if not plans:
            raise ValueError(
                f"no seating gives entrant 0 a seat on the learner's sides {self.learner_sides}"
            )
        return np.array(plans, np.int64)

    def _check_sides(self, sides) -> np.ndarray:
        """The learner's side indices (every side for None); a ValueError names the sides
        there are unless ``sides`` is a non-empty set of them."""
        count = len(self.side_seats)
        if sides is None:
            return np.arange(count)
        chosen = sorted({int(side) for side in sides})
        if not chosen or not all(0 <= side < count for side in chosen):
            raise ValueError(
                f"learner_sides {list(sides)}: give side indices 0 to {count - 1} "
                f"(their seats: {self.game.side_seats(self.games.num_players)})"
            )
        return np.array(chosen, np.int64)

    def _check_pool(self, opponents):
        if self.seat_plans is not None and len(opponents) < 2:
            raise ValueError(
                "seatings need a pool of at least two opponents: the others' agents, then the "
                "learner's copy last"
            )

    def _new_episodes(self, which):
        k = int(which.sum())
        if self.seat_plans is not None:
            plan = self.seat_plans[self.rng.integers(len(self.seat_plans), size=k)]
            self.learner_seat[which] = plan[:, 0]
            self.copy_seats[which] = plan[:, 1:].astype(np.bool_)
        elif self.rotate_seats:
            order = self.episodes_started + np.arange(k)
            first_seats = self.side_seats[self.learner_sides]
            self.learner_seat[which] = first_seats[order % len(first_seats)]
        else:
            seats = self.learner_seats
            self.learner_seat[which] = seats[self.rng.integers(len(seats), size=k)]
        self.episodes_started += k
        self._draw_opponents(which)

    def _draw_opponents(self, which):
        """Draw the opponent of each seat of the games ``which``: from the whole pool, or with
        seatings the learner's copy (the pool's last) at its copies' seats and one of the
        others elsewhere."""
        shape = (int(which.sum()), self.num_seats)
        if self.seat_plans is None:
            self.opponent_of[which] = self.rng.integers(len(self.opponents), size=shape)
            return
        copy = len(self.opponents) - 1
        others = self.rng.integers(copy, size=shape)
        self.opponent_of[which] = np.where(self.copy_seats[which], copy, others)

    def _potential(self):
        phi = self.shaping(self.games.states, self.learner_seat)
        return np.asarray(phi, np.float32).reshape(self.num_envs)

    def _add_shaping(self, rewards, dones):
        """Add ``gamma * Phi(s') - Phi(s)``; an ended episode's ``Phi(s')`` is 0, and the
        potential kept for it is that of the next episode's first learner decision."""
        phi = self._potential()
        rewards += self.shaping_gamma * np.where(dones, np.float32(0), phi) - self.potential
        self.potential = phi

    def _learner_to_act(self):
        actor_team = self.team_of_seat[self.games.actors]
        if self.team_play:
            return actor_team == self.team_of_seat[self.learner_seat]
        return self.games.actors == self.learner_seat

    def _outcome_buffers(self):
        """Per game: the learner's reward, whether its game ended, whether by truncation."""
        n = self.num_envs
        return np.zeros(n, np.float32), np.zeros(n, np.bool_), np.zeros(n, np.bool_)

    def _group_compiled(self):
        """The pool's compiled opponents, one group per policy."""
        acts = {}
        for opponent in self.opponents:
            if isinstance(opponent, CompiledOpponent):
                acts.setdefault(id(opponent.act), opponent.act)
        return [CompiledGroup(self.games, self.opponents, act) for act in acts.values()]

    def _step_games(self, actions, active, rewards, dones, truncated):
        """Step the games, then note the episodes that ended: the learner's reward and last
        observation (of the ended game, replayed from a copy: the engine deals anew at
        once)."""
        g = self.games
        before = g.states.copy()
        g.step(actions, active)
        ended = g.terminated | g.truncated
        if ended.any():
            for i in np.flatnonzero(ended & ~dones):
                self._observe_last(before[i : i + 1], int(actions[i]), i)
            self._end_episodes(ended, rewards, dones, truncated)

    def _end_episodes(self, ended, rewards, dones, truncated):
        """Note the learner's reward of the episodes that ended (the first to end in this
        step, per game) and draw the next episodes' learners and opponents."""
        g = self.games
        first = ended & ~dones
        rewards[first] = g.rewards[first, self.learner_seat[first]]
        truncated |= first & g.truncated
        dones |= ended
        self._new_episodes(ended)

    def _observe_last(self, state, action, i):
        """Write into ``terminal_obs[i]`` the learner's view after ``action`` in ``state``."""
        entry = self.game.entry
        entry.advance(state, action, np.zeros(self.game.num_actions, np.int8))
        obs = np.zeros(self.game.obs_size, self.game.obs_dtype)
        entry.observe(state, int(self.learner_seat[i]), obs)
        self.terminal_obs[i] = obs

    def _play_compiled(self, rewards, dones, truncated):
        """Let the compiled opponents play, in their compiled loops, until every game waits
        for its learner or for a Python opponent. A loop returns when an episode ends; the
        next episode's learner and opponents are drawn here, then it goes on."""
        g = self.games
        more = True
        while more:
            more = False
            for group in self.compiled:
                ended, played = True, 0
                while ended:
                    game_index, action, decisions = group.loop(
                        g.states,
                        g.base_seed,
                        g.episodes,
                        g.actors,
                        g.obs,
                        g.masks,
                        g.rewards,
                        g.terminated,
                        g.truncated,
                        self.learner_seat,
                        self.team_of_seat,
                        self.team_play,
                        group.slot_of[self.opponent_of],
                        group.params,
                        group.rngs,
                        self.last_obs,
                    )
                    if game_index >= 0:
                        self._raise_illegal(group, game_index, action)
                    played += decisions
                    ended_games = g.terminated | g.truncated
                    ended = ended_games.any()
                    if ended:
                        first = ended_games & ~dones
                        self.terminal_obs[first] = self.last_obs[first]
                        self._end_episodes(ended_games, rewards, dones, truncated)
                # another group's moves may have handed an earlier group seats to play
                more |= played > 0 and len(self.compiled) > 1

    def _raise_illegal(self, group, i, action):
        g = self.games
        seat = int(g.actors[i])
        name = group.opponents[group.slot_of[self.opponent_of[i, seat]]].name
        try:
            g.raise_illegal(int(action), i, seat, g.masks[i])
        except IllegalActionError as e:
            raise IllegalActionError(
                f"an opponent returned an illegal action (compiled opponent {name!r}): {e}"
            ) from None

    def info_sets(self, rows):
        """The information set of the seat to move in each game of ``rows`` (a mask), as a
        search agent takes it."""
        from agents.base import InfoSet

        g = self.games
        return [
            InfoSet(g.game, g.states[i : i + 1].copy(), int(g.actors[i]))
            for i in np.flatnonzero(rows)
        ]

    def _play_opponents(self, rewards, dones, truncated):
        """Let opponents decide until every game waits for its learner: the compiled ones in
        their loops, the others a batch per opponent per round."""
        g = self.games
        while True:
            self._play_compiled(rewards, dones, truncated)
            waiting = ~self._learner_to_act()
            if not waiting.any():
                return
            actions = np.zeros(self.num_envs, np.int64)
            seat_owner = self.opponent_of[np.arange(self.num_envs), g.actors]
            for k, opponent in enumerate(self.opponents):
                rows = waiting & (seat_owner == k)
                if rows.any():
                    search = getattr(opponent, "wants_info_set", False)
                    extra = (self.info_sets(rows),) if search else ()
                    actions[rows] = opponent.act_batch(g.obs[rows], g.masks[rows], *extra)
            try:
                self._step_games(actions, waiting, rewards, dones, truncated)
            except IllegalActionError as e:
                raise IllegalActionError(f"an opponent returned an illegal action: {e}") from None


class SingleAgentEnv(gym.Env):
    """One game with one learning seat as a Gymnasium env.

    The learner's legal actions come as ``info["action_mask"]`` (int8 0/1, as in the AEC
    env's infos) from ``reset`` and every ``step``, and from ``action_masks()`` (bool, for
    sb3-contrib's MaskablePPO). The step that ends a game returns that game's last
    observation (the learner's) with ``terminated`` or ``truncated`` set and an all-zero mask:
    no action is legal until ``reset()`` (in a Gymnasium vector env with next-step autoreset,
    the action sent for that row only resets it).
    ``illegal_action="terminate"`` ends the episode on an illegal action with reward -1 and
    ``info["illegal_action"] == 1.0`` (the default ``"raise"`` raises IllegalActionError).
    ``reset(seed=s)`` reseeds the deal, the learner's seat and the opponents; unseeded resets
    carry on from the last seed (the constructor's ``seed`` before any).
    """

    metadata = {"render_modes": []}
    render_mode = None

    def __init__(
        self, game: Game, num_players=None, opponents=None, seed=0, illegal_action="raise", **kw
    ):
        self.illegal_action = check_illegal_action(illegal_action)
        self.vec = SelfPlayGames(game, 1, num_players, opponents, seed, **kw)
        self.observation_space = self.vec.observation_space
        self.action_space = self.vec.action_space
        self._first_seed = seed
        self._running = False

    def reset(self, seed=None, options=None):
        if options:
            warnings.warn(
                f"SingleAgentEnv takes no reset options; ignoring {sorted(options, key=str)} "
                "(game options go to the constructor: options={...})",
                UserWarning,
                stacklevel=2,
            )
        if seed is None and self._np_random is None:
            seed = self._first_seed
        super().reset(seed=seed)
        self.vec.reseed(int(self.np_random.integers(1 << 63)))
        obs = self.vec.reset()[0]
        self._running = True
        return obs, {"seat": int(self.vec.learner_seat[0]), "action_mask": self._info_mask()}

    def step(self, action):
        if not self._running:
            raise CallOrderError("step(): the episode is over or not started; call reset() first")
        action = action_id(action)
        mask = self.vec.games.masks[0]
        if not (0 <= action < len(mask) and mask[action]):
            if self.illegal_action == "raise":
                legal = np.flatnonzero(mask).tolist()
                raise IllegalActionError(
                    f"{self.vec.game.name}: action {action} is not legal now; legal: {legal}"
                )
            self._running = False
            obs = self.vec.games.obs[0].astype(OBS_DTYPE)
            return obs, -1.0, True, False, {"illegal_action": 1.0, "action_mask": self._info_mask()}
        obs, rewards, dones, infos = self.vec.step(np.array([action]))
        if not dones[0]:
            return obs[0], float(rewards[0]), False, False, {"action_mask": self._info_mask()}
        self._running = False
        truncated = bool(self.vec.truncated[0])
        obs = infos[0]["terminal_observation"]
        return obs, float(rewards[0]), not truncated, truncated, {"action_mask": self._info_mask()}

    def action_masks(self):
        """The learner's legal actions (bool); none while no episode runs."""
        if not self._running:
            return np.zeros(self.action_space.n, bool)
        return self.vec.action_masks()[0]

    def _info_mask(self):
        return self.action_masks().astype(np.int8)


def __getattr__(name):
    """``SelfPlayVecEnv``, imported from its home :mod:`heist_envs.core.sb3_vec` on first use
    (code written before it moved imports it from here)."""
    if name == "SelfPlayVecEnv":
        from heist_envs.core.sb3_vec import SelfPlayVecEnv

        return SelfPlayVecEnv
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
