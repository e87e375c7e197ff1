"""Play one game between agents and print it turn by turn, ending with scores and the winner.

python -m experiments.tools.demo GAME --players 4 --seed 1
"""

import argparse
import time

import heist_envs
from agents import RandomAgent
from agents.arena import play
from experiments.common import agents_from_specs, fresh_seed, show_outcome, warm_up


def play_game(game_name, num_players=None, seed=None, agents=None, show=print, pause=None):
    """Play and print a whole game (random agents unless ``agents`` lists one per seat);
    ``pause()`` is called after each printed move."""
    game = heist_envs.get_game(game_name)
    seats = game.num_seats(game.check_players(num_players))
    if agents is None:
        agents = [RandomAgent(None if seed is None else seed + k) for k in range(seats)]

    def show_step(env, agent, action):
        show(env.game.render(env.state_record))
        if agent is not None:
            show(f"\n{agent}: {env.action_name(action)}")
            if pause:
                pause()

    result = play(game_name, agents, num_players, seed, on_step=show_step)
    show_outcome(game.agent_names(game.check_players(num_players)), result, show)
    return result


def add_arguments(parser):
    games = heist_envs.game_names()
    parser.add_argument("game", nargs="?", default=games[0], help=f"one of: {', '.join(games)}")
    parser.add_argument("--players", type=int, default=None, help="player count")
    parser.add_argument("--seed", type=int, default=None, help="seed of the deal and the agents")


def add_watch_arguments(parser):
    add_arguments(parser)
    parser.add_argument(
        "--agents",
        nargs="+",
        default=["heuristic"],
        metavar="AGENT",
        help="one agent per side, or one for all (default heuristic): a name, optionally with "
        "parameters (name:key=value,...)",
    )
    pace = parser.add_mutually_exclusive_group()
    pace.add_argument("--delay", type=float, default=1.0, help="seconds between moves (default 1)")
    pace.add_argument("--step", action="store_true", help="wait for Enter after each move")


def run(args, show=print):
    """``heist demo``: random agents."""
    seed = fresh_seed() if args.seed is None else args.seed
    warm_up(args.game, args.players, show)
    show(f"Seed {seed} (replay this game with --seed {seed}).")
    play_game(args.game, args.players, seed, show=show)


def watch(args, show=print, read=input):
    """``heist watch``: any agents, at a set pace or one move per Enter."""
    game = heist_envs.get_game(args.game)
    num_players = game.check_players(args.players)
    seed = fresh_seed() if args.seed is None else args.seed
    seated = agents_from_specs(game, num_players, args.agents, seed)
    agents = [seated[k][0] for k in range(len(seated))]
    labels = ", ".join(
        f"{name} {seated[k][1]}" for k, name in enumerate(game.agent_names(num_players))
    )
    warm_up(game.name, num_players, show)
    show(f"Seed {seed} (replay this game with --seed {seed}): {labels}.")
    if args.step:

        def pause():
            read("(Enter for the next move) ")

    else:

        def pause():
            time.sleep(args.delay)

    try:
        play_game(game.name, num_players, seed, agents, show, pause)
    except (KeyboardInterrupt, EOFError):
        show("\nStopped.")
        return 130
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_arguments(parser)
    run(parser.parse_args(argv))


if __name__ == "__main__":
    main()
