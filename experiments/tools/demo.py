"""Play one game between agents and print it turn by turn, ending with scores and the winner.

python -m experiments.tools.demo art_robbery --players 4 --seed 1
"""

import argparse
import time

import numpy as np
from numba.core import event

import heist_envs
from agents import RandomAgent
from agents.arena import agent_seed, parse_entrant, play, side_seats


def fresh_seed() -> int:
    """A random seed short enough to type back in."""
    return int(np.random.default_rng().integers(1 << 31))


class CompileNotice(event.Listener):
    """Calls ``tell`` once, when numba starts compiling a function it caches: a cache miss,
    as on the first use after installing. Loading from the cache compiles nothing, and the
    small uncached wrappers compiled in every process (heist_envs.core.compiled) are quick."""

    def __init__(self, tell):
        self.tell = tell
        self.told = False

    def on_start(self, ev):
        if not self.told and ev.data["dispatcher"].stats.cache_path is not None:
            self.told = True
            self.tell()

    def on_end(self, ev):
        pass


def warm_up(game_name, num_players=None, show=print):
    """Compile ``game_name``'s kernels before the first game, telling the user when numba
    compiles them (the first use after installing; later runs load them from its cache)."""
    game = heist_envs.get_game(game_name)
    started = time.perf_counter()
    notice = CompileNotice(
        lambda: show(
            f"Compiling {game.title}'s rules (first use after installing: 10-30 s; later runs "
            "load them from numba's cache)..."
        )
    )
    with event.install_listener("numba:compile", notice):
        seats = game.num_seats(game.check_players(num_players))
        agents = [RandomAgent(k) for k in range(seats)]
        play(game.name, agents, num_players, seed=0, on_step=render_every_view)
    if notice.told:
        show(f"Compiled in {time.perf_counter() - started:.0f} s.")


def render_every_view(env, agent, action):
    """Draw the table as the spectator and as the actor (the views the commands print)."""
    env.game.render(env.state_record)
    if agent is not None:
        env.game.render(env.state_record, env.possible_agents.index(agent))


def seat_agents(game, num_players, specs, seed, seats=None):
    """Agents built from agent specs (``name`` or ``name:key=value,...``) for the sides that
    hold ``seats`` (default: every side): one spec per side, or one for all. Returns
    ``{seat: (agent, label)}``."""
    sides = [s for s in side_seats(game, num_players) if seats is None or s[0] in seats]
    entrants = [parse_entrant(text) for text in specs]
    if len(entrants) == 1:
        entrants *= len(sides)
    if len(entrants) != len(sides):
        raise ValueError(
            f"{game.name} with {num_players} players has {len(sides)} "
            f"{'sides' if seats is None else 'other sides'}; give one agent for each, or one "
            f"for all, got {len(specs)}"
        )
    return {
        k: (entrant.build(game.name, agent_seed(seed, k), num_players), entrant.label)
        for entrant, side in zip(entrants, sides, strict=True)
        for k in side
    }


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
    seated = seat_agents(game, num_players, args.agents, seed)
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
