"""Play one game between agents and print it turn by turn, ending with scores and the winner.

python -m experiments.demo art_robbery --players 4 --seed 1
"""

import argparse

import heist_envs
from agents import RandomAgent
from agents.arena import play


def play_game(game_name, num_players=None, seed=None, agents=None, show=print):
    """Play and print a whole game (random agents unless ``agents`` lists one per seat)."""
    game = heist_envs.get_game(game_name)
    seats = game.num_seats(game.check_players(num_players))
    if agents is None:
        agents = [RandomAgent(None if seed is None else seed + k) for k in range(seats)]

    def show_step(env, agent, action):
        show(env.game.render(env.state_record))
        if agent is not None:
            show(f"\n{agent}: {env.action_name(action)}")

    result = play(game_name, agents, num_players, seed, on_step=show_step)
    show_outcome(game.agent_names(game.check_players(num_players)), result, show)
    return result


def show_outcome(env_names, result, show=print):
    """Print how a game ended: every seat's reward and results, then the winners."""
    show(f"\nGame {'truncated' if result.truncated else 'finished'}.")
    for name, reward, details in zip(env_names, result.rewards, result.results, strict=True):
        extra = ", ".join(f"{k} {v}" for k, v in details.items())
        show(f"  {name}: reward {reward:+g}" + (f" ({extra})" if extra else ""))
    best = max(result.rewards)
    winners = [n for n, r in zip(env_names, result.rewards, strict=True) if r == best and r > 0]
    show(f"Winner: {', '.join(winners) if winners else 'nobody'}")


def add_arguments(parser):
    games = ", ".join(heist_envs.game_names())
    parser.add_argument("game", nargs="?", default="art_robbery", help=f"one of: {games}")
    parser.add_argument("--players", type=int, default=None, help="player count")
    parser.add_argument("--seed", type=int, default=None, help="seed of the deal and the agents")


def run(args):
    play_game(args.game, args.players, args.seed)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_arguments(parser)
    run(parser.parse_args(argv))


if __name__ == "__main__":
    main()
