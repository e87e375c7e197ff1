"""One PettingZoo AEC environment for every game.

The guarantees PettingZoo's usual wrapper stack gives (order enforcing, action bounds,
illegal moves) are checked here directly, so a step costs a mask look-up rather than three
layers of attribute forwarding. Illegal actions raise :class:`IllegalActionError` and leave
the game unchanged.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from heist_envs.core.errors import GameRecordError, IllegalActionError
from heist_envs.core.game import RUNNING, TERMINATED, Game, normalize_seed
from heist_envs.core.record import GameRecord, load_state_dict, state_dict


class HeistEnv(AECEnv):
    """A turn-based game as a PettingZoo ``AECEnv``.

    Args:
        game: the game's :class:`~heist_envs.core.game.Game`.
        num_players: the player count (the game's default when None).
        render_mode: ``"ansi"`` (``render()`` returns text) or ``"human"`` (prints it).
        render_seat: render from this seat's view (index or agent name); None shows every
            hand (the spectator's view).
        **options: the game's options, the defaults for every ``reset``; ``reset(options=...)``
            overrides them for one game.
    """

    def __init__(self, game: Game, num_players=None, render_mode=None, render_seat=None, **options):
        self.game = game
        self.num_players = game.check_players(num_players)
        self.default_options = game.check_options(options)
        if render_mode not in (None, "ansi", "human"):
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', got {render_mode!r}")
        self.render_mode = render_mode
        self.metadata = {
            "name": game.env_name,
            "render_modes": ["ansi", "human"],
            "is_parallelizable": False,
        }
        self.possible_agents = list(game.agent_names(self.num_players))
        self.render_seat = self._seat_of(render_seat) if render_seat is not None else None
        obs_info = np.iinfo(game.obs_dtype) if np.issubdtype(game.obs_dtype, np.integer) else None
        low, high = (obs_info.min, obs_info.max) if obs_info else (-np.inf, np.inf)
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(low, high, (game.obs_size,), game.obs_dtype),
                "action_mask": spaces.Box(0, 1, (game.num_actions,), np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = {a: spaces.Discrete(game.num_actions) for a in self.possible_agents}
        self._entry = game.entry
        self._state = None
        self._mask = np.zeros(game.num_actions, np.int8)
        self._obs = np.zeros(game.obs_size, game.obs_dtype)
        self._returns = np.zeros(len(self.possible_agents), np.float32)

    # PettingZoo API -------------------------------------------------------------------------

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        """Start a new game; ``options`` override the constructor's game options once."""
        merged = dict(self.default_options)
        if options:
            self.game.check_options(options)
            merged.update(options)
        seed = normalize_seed(seed)
        state = self.game.new_state(self.num_players, seed, merged)  # may raise: change nothing
        self.seed, self.options = seed, merged
        self._set_state(state)
        self.actions = []
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._after_move()

    def observe(self, agent):
        seat = self._seat_of(agent)
        self._entry.observe(self._kstate, seat, self._obs)
        mask = self._mask.copy() if seat == self._actor else np.zeros_like(self._mask)
        return {"observation": self._obs.copy(), "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._check_legal(action)
        action = int(action)
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
        text = self.game.render(self._state[0], self.render_seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def state(self) -> np.ndarray:
        """The full game state (hidden information included) as a flat float32 vector."""
        s = self._state[0]
        names = [n for n in self.game.state_dtype.names if n != "rng"]
        return np.concatenate([np.ravel(s[n]).astype(np.float32) for n in names])

    def close(self):
        pass

    # Beyond PettingZoo ----------------------------------------------------------------------

    @property
    def state_record(self):
        """The kernel record of the current game (the live one: copy before changing it)."""
        return self._state[0]

    def legal_actions(self) -> list[int]:
        """The acting agent's legal action ids."""
        return np.flatnonzero(self._mask).tolist()

    def action_name(self, action) -> str:
        return self.game.action_name(action, self._state[0])

    def clone(self) -> HeistEnv:
        """An independent copy of this environment, RNG included."""
        other = HeistEnv.__new__(HeistEnv)
        other.__dict__.update(self.__dict__)
        other._set_state(self._state.copy())
        other._mask = self._mask.copy()
        other._obs = self._obs.copy()
        other._returns = self._returns.copy()
        other.actions = list(self.actions)
        other.agents = list(self.agents)
        for name in ("rewards", "_cumulative_rewards", "terminations", "truncations"):
            setattr(other, name, dict(getattr(self, name)))
        other.infos = {a: dict(i) for a, i in self.infos.items()}
        return other

    def state_dict(self) -> dict:
        """The game state as JSON-compatible data (RNG included); see :meth:`load_state`."""
        return state_dict(self.game, self._state)

    def load_state(self, data: dict):
        """Continue from a :meth:`state_dict`; raises GameRecordError if it does not fit."""
        state = load_state_dict(self.game, data, self.num_players)
        self.reset(seed=0)
        self._set_state(state)
        self.seed = None  # the game did not start here: no record replays it
        self._after_move()

    def game_record(self) -> GameRecord:
        """The game so far as config + seed + actions, which replays it exactly."""
        if self.seed is None:
            raise GameRecordError("this game continues a loaded state; it has no record")
        return GameRecord(
            game=self.game.env_name,
            num_players=self.num_players,
            seed=self.seed,
            options=self.options,
            actions=list(self.actions),
        )

    # Internals ------------------------------------------------------------------------------

    def _set_state(self, state):
        self._state = state
        self._kstate = self.game.kernel_view(state)

    def _seat_of(self, agent) -> int:
        if isinstance(agent, (int, np.integer)) and 0 <= agent < len(self.possible_agents):
            return int(agent)
        try:
            return self.possible_agents.index(agent)
        except ValueError:
            raise ValueError(
                f"unknown agent {agent!r}; agents: {', '.join(self.possible_agents)}"
            ) from None

    def _check_legal(self, action):
        ok = (
            action is not None
            and not isinstance(action, bool)
            and isinstance(action, (int, np.integer))
            and 0 <= action < self.game.num_actions
            and self._mask[action]
        )
        if not ok:
            legal = ", ".join(f"{a} ({self.game.action_name(a)})" for a in self.legal_actions())
            what = (
                f"action {action!r}"
                if not isinstance(action, (int, np.integer))
                or not 0 <= action < self.game.num_actions
                else f"action {int(action)} ({self.action_name(int(action))})"
            )
            raise IllegalActionError(
                f"{self.game.name}: {what} is not legal for {self.agent_selection}; "
                f"legal actions: {legal}"
            )

    def _after_move(self, actor=None, status=None):
        """Sync the PettingZoo bookkeeping with the kernel after a move (which returned the
        new actor and status) or after a new state was set (None: ask the kernel)."""
        if status is None:
            actor, status = self._entry.refresh(self._kstate, self._mask)
        self._actor = actor
        if status == RUNNING:
            previous = getattr(self, "agent_selection", None)
            if previous in self.infos:
                self.infos[previous].pop("action_mask", None)
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
                self.infos[agent] = {k: v[seat] for k, v in results.items()}
