"""Play a game in the terminal against agents: ``heist play GAME --against AGENT...``.

The table is drawn from your seat (other hands hidden); your legal moves are listed by number.
Type a number to play it, ``q`` to leave; end of input or Ctrl-C leaves too.
"""

import numpy as np

import heist_envs
from agents.arena import run_game
from experiments.common import agents_from_specs, fresh_seed, show_outcome, warm_up


class Quit(Exception):
    """The person left the game."""


class HumanAgent:
    """Asks the person at the terminal for each move of the seats it plays in ``env``."""

    def __init__(self, env, read=input, show=print):
        self.env = env
        self.read = read
        self.show = show

    def act(self, observation, action_mask) -> int:
        env = self.env
        seat = env.possible_agents.index(env.agent_selection)
        legal = np.flatnonzero(action_mask).tolist()
        moves = "\n".join(f"  {i}. {env.action_name(a)}" for i, a in enumerate(legal, 1))
        self.show("\n" + env.game.render(env.state_record, seat))
        self.show(f"\nYour move as {env.agent_selection}:\n{moves}")
        while True:
            try:
                answer = self.read("> ").strip()
            except EOFError:
                raise Quit("end of input") from None
            if answer.lower() in ("q", "quit"):
                raise Quit("you quit")
            if answer.isdigit() and 1 <= int(answer) <= len(legal):
                return legal[int(answer) - 1]
            self.show(
                f"{answer!r} is not a legal move: type a number from 1 to {len(legal)}, "
                f"or q to quit.\n{moves}"
            )


def play_human(game_name, against, seat=0, num_players=None, seed=None, read=input, show=print):
    """Play one game at ``seat`` (your side: every seat of its team) against the agents named
    in ``against``: one for every other side, or one for them all. Returns an exit status."""
    game = heist_envs.get_game(game_name)
    num_players = game.check_players(num_players)
    names = game.agent_names(num_players)
    if not 0 <= seat < len(names):
        raise ValueError(f"seat must be 0 to {len(names) - 1} ({', '.join(names)}), got {seat}")
    mine = next(seats for seats in game.side_seats(num_players) if seat in seats)
    seed = fresh_seed() if seed is None else seed
    others = agents_from_specs(game, num_players, against, seed, set(range(len(names))) - set(mine))
    env = heist_envs.make(game.name, num_players=num_players)
    human = HumanAgent(env, read, show)
    agents = [others[k][0] if k in others else human for k in range(len(names))]
    labels = [others[k][1] if k in others else "you" for k in range(len(names))]
    warm_up(game.name, num_players, show)

    def show_move(env, agent, action):
        if agent is not None:
            show(f"{agent} ({labels[names.index(agent)]}): {env.action_name(action)}")

    show(
        f"{game.title}: you play {', '.join(names[k] for k in mine)}. Seed {seed} (replay "
        f"this deal with --seed {seed})."
    )
    try:
        result = run_game(env, agents, seed, on_step=show_move)
    except Quit as reason:
        show(f"\nGame abandoned ({reason}).")
        return 0
    except KeyboardInterrupt:
        show("\nGame abandoned (interrupted).")
        return 130
    show("\n" + game.render(env.state_record))
    show_outcome(names, result, show)
    return 0
