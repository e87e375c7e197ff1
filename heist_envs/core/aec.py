"""One PettingZoo AEC environment for every game.

The guarantees PettingZoo's usual wrapper stack gives (order enforcing, action bounds,
illegal moves) are checked here directly, so a step costs a mask look-up rather than three
layers of attribute forwarding. Illegal actions raise :class:`IllegalActionError` and leave
the game unchanged, or with ``illegal_action="terminate"`` end the game as PettingZoo's
classic games do.
"""

from __future__ import annotations

import copy
import warnings

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.conversions import turn_based_aec_to_parallel_wrapper

from heist_envs.core.catalog import get_game, is_registered
from heist_envs.core.errors import CallOrderError, GameRecordError, IllegalActionError
from heist_envs.core.game import RUNNING, TERMINATED, Game, SeedStream
from heist_envs.core.record import GameRecord, load_state_dict, state_dict

#: What an illegal action does: raise IllegalActionError (the game unchanged), or end the game
#: with -1 for the offender and 0 for everyone else (PettingZoo's classic convention).
ILLEGAL_ACTION_MODES = ("raise", "terminate")

#: The dtype of every game's observations and states, whatever the kernel writes: one network
#: serves every game without casts.
OBS_DTYPE = np.float32


def action_id(action) -> int:
    """An action id from any integer-like value (int, numpy integer, 0-d integer array), or
    a TypeError saying what is accepted."""
    if isinstance(action, np.ndarray) and action.ndim == 0:
        action = action[()]
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise TypeError(
            f"an action must be an integer action id (int, numpy integer or 0-d integer "
            f"array), got {action!r} of type {type(action).__name__}"
        )
    return int(action)


def check_illegal_action(mode: str) -> str:
    """``mode`` if it is one of :data:`ILLEGAL_ACTION_MODES`, else a ValueError."""
    if mode not in ILLEGAL_ACTION_MODES:
        raise ValueError(f"illegal_action must be one of {ILLEGAL_ACTION_MODES}, got {mode!r}")
    return mode


def _is_number(value) -> bool:
    return isinstance(value, (int, float, np.number)) and not isinstance(value, (bool, np.bool_))


class HeistEnv(AECEnv):
    """A turn-based game as a PettingZoo ``AECEnv``.

    Args:
        game: the game's :class:`~heist_envs.core.game.Game`.
        num_players: the player count (the game's default when None).
        render_mode: ``"ansi"`` (``render()`` returns text) or ``"human"`` (prints it).
        render_seat: render from this seat's view (index or agent name); None shows every
            hand (the spectator's view).
        illegal_action: ``"raise"`` (an :class:`IllegalActionError`, the game unchanged) or
            ``"terminate"`` (the game ends: the offender gets -1, everyone else 0, and every
            agent's info has ``illegal_action`` 1.0 for the offender, 0.0 for the others).
        **options: the game's options, the defaults for every ``reset``; ``reset(options=...)``
            overrides them for one game.

    Observations are float32 for every game (the kernel's integer values, exactly), within
    finite bounds (``game.obs_bounds``). Seeding follows Gymnasium: ``reset(seed=s)`` plays
    the game of seed ``s`` and seeds a generator from which each later unseeded ``reset()``
    draws its game's seed (``game_seed``).
    """

    def __init__(
        self,
        game: Game,
        num_players=None,
        render_mode=None,
        render_seat=None,
        illegal_action="raise",
        **options,
    ):
        self.game = game
        self.num_players = game.check_players(num_players)
        self.default_options = game.check_options(options)
        game.new_state(self.num_players, 0, self.default_options)  # a bad value raises here
        if render_mode not in (None, "ansi", "human"):
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', got {render_mode!r}")
        self.render_mode = render_mode
        self.illegal_action = check_illegal_action(illegal_action)
        self.metadata = {
            "name": game.env_name,
            "render_modes": ["ansi", "human"],
            "is_parallelizable": False,
        }
        self.possible_agents = list(game.agent_names(self.num_players))
        self.render_seat = self._seat_of(render_seat) if render_seat is not None else None
        low, high = game.obs_bounds
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(low, high, (game.obs_size,), OBS_DTYPE),
                "action_mask": spaces.Box(0, 1, (game.num_actions,), np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = {a: spaces.Discrete(game.num_actions) for a in self.possible_agents}
        self.state_space = _state_space(game)
        self._entry = game.entry
        self._state = None
        self._seeds = SeedStream()  # seeded by reset(seed=...); unseeded resets draw from it
        self.game_seed = None
        self.agents = []

    # PettingZoo API -------------------------------------------------------------------------

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        """Start a new game; ``options`` override the constructor's game options once.

        Unknown option names are ignored with a warning naming the allowed ones; a bad value
        of a known option raises ValueError and leaves the env as it was.
        """
        options = self.game.options_dict(options)
        unknown = sorted(set(options) - set(self.game.options), key=str)
        if unknown:
            allowed = ", ".join(sorted(self.game.options)) or "none"
            warnings.warn(
                f"{self.game.name}: ignoring unknown reset option(s) {unknown}; allowed: {allowed}",
                UserWarning,
                stacklevel=2,
            )
            options = {k: v for k, v in options.items() if k not in unknown}
        merged = {**self.default_options, **options}
        seeds = copy.deepcopy(self._seeds)  # kept only if the game starts
        game_seed = seeds.next(seed)
        state = self.game.new_state(self.num_players, game_seed, merged)  # may raise
        self.game_seed, self.options, self._seeds = game_seed, merged, seeds
        self._start(state)

    def observe(self, agent):
        self._require_game("observe")
        seat = self._seat_of(agent)
        self._entry.observe(self._kstate, seat, self._obs)
        mask = self._mask.copy() if seat == self._actor else np.zeros_like(self._mask)
        return {"observation": self._obs.astype(OBS_DTYPE), "action_mask": mask}

    def agent_iter(self, max_iter=2**63):
        self._require_game("agent_iter")
        return super().agent_iter(max_iter)

    def last(self, observe=True):
        self._require_agents("last")
        return super().last(observe)

    def step(self, action):
        self._require_agents("step")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise TypeError(
                f"{agent} is to act and got None (None is the action of an agent that is "
                f"done); legal actions: {self._legal_text()}"
            )
        action = action_id(action)
        if not (0 <= action < self.game.num_actions and self._mask[action]):
            if self.illegal_action == "terminate":
                self.actions.append(action)  # the record replays the ending too
                self._end_by_illegal_action(agent)
                return
            raise IllegalActionError(self._illegal_text(agent, action))
        actor, status = self._entry.advance(self._kstate, action, self._mask)
        self.actions.append(action)
        self._cumulative_rewards[agent] = 0.0
        self._after_move(actor, status)
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        if self.render_mode is None:
            return None
        self._require_game("render")
        text = self.game.render(self._state[0], self.render_seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def state(self) -> np.ndarray:
        """The full game state (hidden information included) as a flat float32 vector, within
        ``state_space``."""
        self._require_game("state")
        s = self._state[0]
        return np.concatenate([np.ravel(s[n]).astype(OBS_DTYPE) for n in _state_fields(self.game)])

    def close(self):
        pass

    # Beyond PettingZoo ----------------------------------------------------------------------

    @property
    def state_record(self):
        """The kernel record of the current game (the live one: copy before changing it)."""
        self._require_game("state_record")
        return self._state[0]

    def legal_actions(self) -> list[int]:
        """The acting agent's legal action ids (none once the game is over)."""
        self._require_game("legal_actions")
        return np.flatnonzero(self._mask).tolist()

    def action_name(self, action) -> str:
        """The name of action id ``action`` in the current position."""
        self._require_game("action_name")
        action = action_id(action)
        if not 0 <= action < self.game.num_actions:
            raise ValueError(f"{self.game.name}: {self._out_of_range_text(action)}")
        return self.game.action_name(action, self._state[0])

    def outcome(self) -> dict:
        """How the game stands, with the full results that ``infos`` leave out (text
        included): ``status`` ("running", "terminated", "truncated" or "illegal action"),
        ``provisional`` (True unless the game ended by its rules: the scores are those of the
        position as it stands), the ``illegal_agent`` (or None), and per agent its
        ``returns`` and ``results`` (``game.scores``)."""
        self._require_game("outcome")
        status = int(self._state[0].status)
        if self._illegal_agent is not None:
            name = "illegal action"
        else:
            name = {RUNNING: "running", TERMINATED: "terminated"}.get(status, "truncated")
        returns = dict.fromkeys(self.possible_agents, 0.0)
        if self._illegal_agent is not None:
            returns[self._illegal_agent] = -1.0
        elif status != RUNNING:
            self._entry.returns(self._kstate, self._returns)
            returns = dict(zip(self.possible_agents, self._returns.tolist(), strict=True))
        results = self.game.scores(self._state[0])
        return {
            "status": name,
            "provisional": name != "terminated",
            "illegal_agent": self._illegal_agent,
            "returns": returns,
            "results": {
                agent: {k: v[seat] for k, v in results.items()}
                for seat, agent in enumerate(self.possible_agents)
            },
        }

    def clone(self) -> HeistEnv:
        """An independent copy of this environment, RNG included."""
        return copy.deepcopy(self)

    def state_dict(self) -> dict:
        """The game state as JSON-compatible data (RNG included); see :meth:`load_state`."""
        self._require_game("state_dict")
        return state_dict(self.game, self._state, self.agent_selection, self._illegal_agent)

    def load_state(self, data: dict):
        """Continue from a :meth:`state_dict`; raises GameRecordError if it does not fit, and
        then leaves the env exactly as it was. A finished game reloads with its final rewards
        in ``last()``, for the agent that was selected when it was saved; a game ended by an
        illegal action reloads ended so."""
        loaded = copy.copy(self)  # shares the configuration; _start gives it its own buffers
        loaded._start(load_state_dict(self.game, data, self.num_players))
        loaded._restore_ending(data.get("illegal_agent"), data.get("agent_selection"))
        loaded.game_seed = None  # the game did not start here: no record replays it
        loaded.options = self.default_options
        self.__dict__.update(loaded.__dict__)

    def game_record(self) -> GameRecord:
        """The game so far as config + seed + actions, which replays it exactly."""
        self._require_game("game_record")
        if self.game_seed is None:
            raise GameRecordError("this game continues a loaded state; it has no record")
        return GameRecord(
            game=self.game.env_name,
            num_players=self.num_players,
            seed=self.game_seed,
            options=self.options,
            actions=list(self.actions),
            illegal_action=self.illegal_action,
        )

    # Copies and pickles ---------------------------------------------------------------------

    def __getstate__(self):
        """Everything but the views and compiled entry points (rebuilt on unpickling); a
        registered game travels by name."""
        data = dict(self.__dict__)
        data.pop("_kstate", None)
        data.pop("_entry", None)
        if is_registered(self.game):
            data["game"] = self.game.name
        return data

    def __setstate__(self, data):
        if isinstance(data["game"], str):
            data["game"] = get_game(data["game"])
        self.__dict__.update(data)
        self._entry = self.game.entry
        if self._state is not None:
            self._kstate = self.game.kernel_view(self._state)

    # Internals ------------------------------------------------------------------------------

    def _start(self, state):
        """Set up the bookkeeping of a game that starts (or continues) at ``state``, in new
        objects only: nothing a copy of this env shares is changed."""
        game = self.game
        self._state = state
        self._kstate = game.kernel_view(state)
        self._mask = np.zeros(game.num_actions, np.int8)
        self._obs = np.zeros(game.obs_size, game.obs_dtype)
        self._returns = np.zeros(len(self.possible_agents), np.float32)
        self._illegal_agent = None
        self.actions = []
        self.agents = list(self.possible_agents)
        self.agent_selection = self.agents[0]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._after_move()
        self._accumulate_rewards()  # a finished game's rewards show in last()

    def _require_game(self, call):
        if self._state is None:
            raise CallOrderError(f"{call}() needs a game: call reset() first")

    def _require_agents(self, call):
        self._require_game(call)
        if not self.agents:
            raise CallOrderError(
                f"{call}(): the game is over and every agent is done; call reset() to play again"
            )

    def _restore_ending(self, illegal_agent, agent_selection):
        """Apply a saved state's bookkeeping to the game just loaded: the illegal action that
        ended it (the kernel record is that of the position where it was tried) and, once
        the game is over, the selected agent."""
        actor = self.agent_selection if self._actor >= 0 else None
        if illegal_agent is not None:
            if illegal_agent != actor:
                raise GameRecordError(
                    f"saved state has illegal_agent {illegal_agent!r:.80}; allowed: None, or "
                    f"the agent to act in its position ({actor or 'none: the game is over'})"
                )
            self._end_by_illegal_action(illegal_agent)
        if agent_selection is None:
            return
        allowed = [actor] if self._actor >= 0 else self.possible_agents
        if agent_selection not in allowed:
            raise GameRecordError(
                f"saved state has agent_selection {agent_selection!r:.80}; allowed: "
                f"{', '.join(allowed)}"
            )
        self.agent_selection = agent_selection

    def _seat_of(self, agent) -> int:
        if (
            isinstance(agent, (int, np.integer))
            and not isinstance(agent, (bool, np.bool_))
            and 0 <= agent < len(self.possible_agents)
        ):
            return int(agent)
        try:
            return self.possible_agents.index(agent)
        except ValueError:
            raise ValueError(
                f"unknown agent {agent!r}; agents: {', '.join(self.possible_agents)}"
            ) from None

    def _legal_text(self) -> str:
        return ", ".join(f"{a} ({self.game.action_name(a)})" for a in self.legal_actions())

    def _illegal_text(self, agent, action) -> str:
        if 0 <= action < self.game.num_actions:
            what = f"action {action} ({self.action_name(action)}) is not legal now"
        else:
            what = self._out_of_range_text(action)
        return f"{self.game.name}: {what} for {agent}; legal actions: {self._legal_text()}"

    def _out_of_range_text(self, action) -> str:
        return f"action {action} is out of range 0-{self.game.num_actions - 1}"

    def _end_by_illegal_action(self, agent):
        """End the game: -1 to ``agent``, 0 to the others; the kernel record is unchanged."""
        self._illegal_agent = agent
        self._actor = -1
        self._mask[:] = 0
        self._cumulative_rewards[agent] = 0.0
        for other in self.agents:
            self.terminations[other] = True
            self.rewards[other] = -1.0 if other == agent else 0.0
            self.infos[other] = {"illegal_action": float(other == agent)}
        self._accumulate_rewards()

    def _after_move(self, actor=None, status=None):
        """Sync the PettingZoo bookkeeping with the kernel after a move (which returned the
        new actor and status) or after a new state was set (None: ask the kernel)."""
        if status is None:
            actor, status = self._entry.refresh(self._kstate, self._mask)
        self._actor = actor
        if status == RUNNING:
            self.infos[self.agent_selection].pop("action_mask", None)
            self.agent_selection = self.possible_agents[actor]
            self.infos[self.agent_selection]["action_mask"] = self._mask.copy()
            self.rewards = dict.fromkeys(self.agents, 0.0)
            return
        done = self.terminations if status == TERMINATED else self.truncations
        self._entry.returns(self._kstate, self._returns)
        results = self.game.scores(self._state[0])
        for seat, agent in enumerate(self.possible_agents):
            if agent in done:
                done[agent] = True
                self.rewards[agent] = float(self._returns[seat])
                info = {k: v[seat] for k, v in results.items() if _is_number(v[seat])}
                info["provisional"] = float(status != TERMINATED)
                self.infos[agent] = info


class LegalActionSpace(spaces.Discrete):
    """An agent's action space in :class:`HeistParallelEnv`: ``sample()`` without a mask
    draws among the actions the agent may take now, as ``sample(mask)`` does with its
    observation's mask (an agent not to act has none: ``start``, which the env ignores). A
    parallel loop samples every agent's action at once and unmasked (PettingZoo's
    ``parallel_seed_test`` does), and only one agent is to act."""

    def __init__(self, env: HeistEnv, agent: str):
        super().__init__(env.game.num_actions)
        self._env = env
        self._agent = agent

    def sample(self, mask=None, probability=None):
        if mask is None and probability is None and self._env.agents:
            mask = self._env.observe(self._agent)["action_mask"]
        return super().sample(mask, probability)


class HeistParallelEnv(turn_based_aec_to_parallel_wrapper):
    """A :class:`HeistEnv` as a PettingZoo ``ParallelEnv``, through PettingZoo's turn-based
    conversion (one agent acts per step; the others' actions are ignored), with action spaces
    that sample legal actions (:class:`LegalActionSpace`)."""

    def __init__(self, aec_env: HeistEnv):
        super().__init__(aec_env)
        self._action_spaces = {a: LegalActionSpace(aec_env, a) for a in aec_env.possible_agents}

    def action_space(self, agent):
        return self._action_spaces[agent]


def _state_fields(game: Game) -> list[str]:
    return [n for n in game.state_dtype.names if n != "rng"]


def _state_space(game: Game) -> spaces.Box:
    """The Box of :meth:`HeistEnv.state`: each field within its dtype's range."""
    lows, highs = [], []
    for name in _state_fields(game):
        ftype = game.state_dtype.fields[name][0]
        info = np.iinfo(ftype.base)
        size = int(np.prod(ftype.shape, dtype=np.int64))
        lows.append(np.full(size, info.min, OBS_DTYPE))
        highs.append(np.full(size, info.max, OBS_DTYPE))
    return spaces.Box(np.concatenate(lows), np.concatenate(highs), dtype=OBS_DTYPE)
