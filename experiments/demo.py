"""Play one game between agents and print it turn by turn, ending with scores and the winner.

python -m experiments.demo art_robbery --players 4 --seed 1
"""

import argparse

import heist_envs
from agents import RandomAgent


def play_game(game_name, num_players=None, seed=None, agents=None, show=print):
    """Play a whole game; ``agents`` maps agent names to agents (random by default).

    Returns the final rewards and the game's results (``infos``) per agent.
    """
    env = heist_envs.make(game_name, num_players=num_players, render_mode="ansi")
    env.reset(seed=seed)
    if agents is None:
        agents = {
            a: RandomAgent(None if seed is None else seed + i)
            for i, a in enumerate(env.possible_agents)
        }
    show(env.render())
    rewards, results = {}, {}
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        if termination or truncation:
            rewards[agent] = reward
            results[agent] = info
            env.step(None)
            continue
        action = agents[agent].act(observation["observation"], observation["action_mask"])
        show(f"\n{agent}: {env.action_name(action)}")
        env.step(action)
        show(env.render())
    ended = "truncated" if truncation else "finished"
    show(f"\nGame {ended}.")
    for agent in env.possible_agents:
        details = ", ".join(f"{k} {v}" for k, v in results[agent].items())
        show(f"  {agent}: reward {rewards[agent]:+.0f}" + (f" ({details})" if details else ""))
    winners = [a for a in env.possible_agents if rewards[a] > 0]
    show(f"Winner: {', '.join(winners) if winners else 'nobody'}")
    return rewards, results


def add_arguments(parser):
    parser.add_argument(
        "game",
        nargs="?",
        default="art_robbery",
        help=f"one of: {', '.join(heist_envs.game_names())}",
    )
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
