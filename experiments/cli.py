"""The ``heist`` command: demo, play, arena, eval, exploit, bench, train and docs (``heist
COMMAND --help``).

Every command is one row of :data:`COMMANDS`. A command with ``add_arguments`` has its
arguments parsed here and its ``run(args)`` called with them; one without parses its own:
its ``run(rest)`` gets the rest of the command line (the tool's own --help lists it). A
tool is imported only when its command is called.
"""

import argparse
import importlib
import json
import logging
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import heist_envs
from agents.arena.batched import ROUTES
from agents.registry import agent_names
from heist_envs.core.game import normalize_seed

GAMES = f"one of: {', '.join(heist_envs.game_names())}"
AGENTS = (
    f"agent specs: a name ({', '.join(agent_names())}), package.module:Name or "
    "path/to/file.py:Name, each optionally with parameters: SPEC:key=value,... (docs/agents.md)"
)
#: heist train --method ppo --backend NAME -> the trainer's module
PPO_BACKENDS = {
    "sb3": "experiments.train.sb3",
    "torch": "experiments.train.torch_ppo",
    "rllib": "experiments.train.rllib",
}
#: heist train --method NAME -> the trainer's module, for the methods besides ppo
TRAINERS = {
    "imitation": "experiments.train.imitation",
    "weights": "experiments.train.weights",
    "exit": "experiments.train.exit",
}


def tool(module, function) -> Callable:
    """``module.function``, its module imported only when it is called."""

    def call(*args):
        return getattr(importlib.import_module(module), function)(*args)

    return call


# Arguments and runs of the commands parsed here ------------------------------------------------


def add_play_arguments(parser):
    parser.add_argument("game", help=GAMES)
    parser.add_argument(
        "--against", nargs="+", default=["random"], metavar="AGENT", help=f"opponents: {AGENTS}"
    )
    parser.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    parser.add_argument("--players", type=int, default=None, help="player count")
    parser.add_argument("--seed", type=int, default=None, help="seed of the deal and the agents")


def run_play(args):
    from experiments.tools.play import play_human

    return play_human(args.game, args.against, args.seat, args.players, args.seed)


def add_tournament_limits(parser, time_limit, time_limit_help):
    """The last arguments of a command that plays a tournament: the time limit of a decision
    and whether to show the progress bar."""
    parser.add_argument(
        "--time-limit", type=float, default=time_limit, metavar="SECONDS", help=time_limit_help
    )
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    add_route(parser)


def add_route(parser):
    """``--route``: where a command's games play (:data:`ROUTES`)."""
    parser.add_argument(
        "--route",
        choices=tuple(ROUTES),
        default="auto",
        help="auto: a table of only heuristic, ppo and random agents plays its games many at "
        "once (the same games as one at a time), the others one at a time; batched: the same, "
        "saying which table cannot batch; serial: every game one at a time",
    )


def check_numbers(args):
    """A ValueError for a bad number of a tournament command, before any agent is loaded."""
    from agents.arena import check_count, check_time_limit

    heist_envs.get_game(args.game).check_players(args.players)
    if getattr(args, "games", None) is not None:
        check_count("games", args.games)
    check_count("workers", args.workers, allow_none=True)
    check_time_limit(args.time_limit)
    if args.seed is not None:
        normalize_seed(args.seed)


def add_arena_arguments(parser):
    from experiments.common import TRUST_AGENTS

    parser.add_argument("game", help=GAMES)
    parser.add_argument("--agents", nargs="+", required=True, metavar="AGENT", help=AGENTS)
    parser.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    parser.add_argument("--players", type=int, default=None, help="player count")
    parser.add_argument("--seed", type=int, default=None, help="tournament seed")
    parser.add_argument("--workers", type=int, default=None, help="processes (default: cores)")
    parser.add_argument("--out", default=None, help="write summary.csv, games.csv, tournament.json")
    parser.add_argument("--trust-agents", action="store_true", help=TRUST_AGENTS)
    add_tournament_limits(
        parser,
        None,
        "the most one decision of any agent may take; past it that game is lost (default: no "
        "limit)",
    )


def run_arena(args):
    from agents.arena import TournamentInterrupted, parse_entrant, tournament
    from experiments.common import Interrupted, warm_up

    logging.basicConfig(format="%(levelname)s: %(message)s")
    check_numbers(args)
    entrants = [
        replace(parse_entrant(spec, trusted=args.trust_agents), time_limit=args.time_limit)
        for spec in args.agents
    ]
    warm_up(args.game, args.players)
    try:
        result = tournament(
            args.game,
            entrants,
            games=args.games,
            num_players=args.players,
            seed=args.seed,
            workers=args.workers,
            progress=not args.no_progress,
            batched=ROUTES[args.route],
        )
    except TournamentInterrupted as stop:
        result = stop.results[0]
        written = show_tournament(result, args.out)
        kept = f"the {len(result.games)} games finished of {result.planned_games}, summarised above"
        raise Interrupted(kept_text(kept, written)) from None
    show_tournament(result, args.out)


def show_tournament(result, out) -> list[Path]:
    """Print a tournament's table and write its files into ``out`` (if given)."""
    print(result.table())
    written = result.write(out) if out and result.games else []
    for path in written:
        print(f"wrote {path}")
    return written


def kept_text(kept, written) -> str:
    """What an interrupted command kept: ``kept``, and the ``written`` files (marked partial)."""
    if written:
        kept += f" and written (marked partial) to {', '.join(map(str, written))}"
    return f"kept {kept}"


def add_eval_arguments(parser):
    from experiments.tools import exploit, protocol

    parser.add_argument("agent", nargs="?", help=f"the agent to score: one of the {AGENTS}")
    parser.add_argument("--game", help=f"{GAMES} (with --human: where the file holds several)")
    parser.add_argument(
        "--human",
        metavar="FILE",
        help="rate a person instead of an agent, on the card's scale, from the games heist "
        "serve --save-games FILE saved (--quick, --seed, --workers and --time-limit, which "
        "say how an agent's games are played, do not apply)",
    )
    parser.add_argument(
        "--players", nargs="+", type=int, metavar="N", help="player counts (default: all)"
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"{protocol.QUICK_GAMES} games per table instead of {protocol.GAMES} (and "
        f"{protocol.DEEP_SEARCH_GAMES} against {protocol.DEEP_SEARCH}), "
        f"{protocol.QUICK_BATCHED_GAMES} at a table that batches instead of "
        f"{protocol.BATCHED_GAMES} (a smoke test: its card is marked quick)",
    )
    parser.add_argument(
        "--exploit",
        nargs="?",
        type=float,
        const=exploit.DEFAULT_MINUTES,
        metavar="MINUTES",
        help="add the card's exploitability section: a best response trained MINUTES per side "
        f"(default {exploit.DEFAULT_MINUTES}) against the agent, as heist exploit does (its "
        "files in OUT/exploit)",
    )
    parser.add_argument("--out", help="write card.md and card.json into this folder")
    parser.add_argument("--json", help="write the card's JSON to this file")
    parser.add_argument(
        "--seed", type=int, default=protocol.SEED, help=f"protocol seed (default {protocol.SEED})"
    )
    parser.add_argument("--workers", type=int, default=None, help="processes (default: cores)")
    add_tournament_limits(
        parser,
        protocol.TIME_LIMIT,
        "the most one of the agent's decisions may take; past it the game is lost (default "
        f"{protocol.TIME_LIMIT:g})",
    )


def run_eval(args):
    from experiments.common import Interrupted
    from experiments.tools import protocol

    logging.basicConfig(format="%(levelname)s: %(message)s")
    if args.human:
        if args.agent:
            raise ValueError(f"give an agent to score or --human FILE, not both ({args.agent!r})")
        if args.exploit is not None:
            raise ValueError("--exploit measures an agent; a person's games (--human) have none")
        card = protocol.rate_person(args.human, args.game, args.players)
        for line in card.invalid:
            print(f"heist eval: {args.human} {line}; left out", file=sys.stderr)
        show_card(card, args)
        return
    if not args.agent or not args.game:
        raise ValueError("give the agent to score and --game GAME (or --human FILE)")
    try:
        card = protocol.evaluate(
            args.agent,
            args.game,
            counts=args.players,
            quick=args.quick,
            seed=args.seed,
            workers=args.workers,
            time_limit=args.time_limit,
            progress=not args.no_progress,
            batched=ROUTES[args.route],
            exploit_minutes=args.exploit,
            exploit_out=Path(args.out) / "exploit" if args.out else None,
        )
    except Interrupted as stop:
        if stop.kept is None:
            raise
        card = stop.kept
        written = show_card(card, args)
        kept = f"the {card.games} games finished of {card.planned_games}, in the partial card above"
        raise Interrupted(kept_text(kept, written)) from None
    show_card(card, args)


def show_card(card, args) -> list[Path]:
    """Print a benchmark card and write it where ``--out`` and ``--json`` say."""
    print(card.markdown())
    written = card.write(args.out) if args.out else []
    if args.json:
        Path(args.json).write_text(json.dumps(card.to_dict(), indent=1) + "\n")
        written.append(Path(args.json))
    for path in written:
        print(f"wrote {path}")
    return written


def add_serve_arguments(parser):
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port, 1 to 65535 (default 8000)")
    parser.add_argument(
        "--agents",
        nargs="+",
        default=[],
        metavar="AGENT",
        help="outside agents the menu offers besides the built-in ones: package.module:Name or "
        "path/to/file.py:Name specs (their code runs in the server)",
    )
    parser.add_argument(
        "--save-games",
        metavar="FILE",
        help="append the games you play and ask to save (a box in the page) to FILE, for "
        "heist eval --human FILE to rate; without it no game is saved",
    )


def run_serve(args):
    if not 1 <= args.port <= 65535:
        raise ValueError(f"--port must be 1 to 65535, got {args.port}")
    try:
        from experiments.web.server import serve
    except ModuleNotFoundError as missing:
        sys.exit(f'heist serve: needs the web extra ({missing}): pip install -e ".[web]"')
    serve(args.host, args.port, args.agents, args.save_games)


# Runs of the commands that parse their own arguments -------------------------------------------


def run_train(rest):
    """Forward to the trainer of ``--method``: ppo (MaskablePPO on SB3; the torch learner with
    ``--backend torch``, RLlib's PPO with ``--backend rllib``), imitation (DAgger), weights
    (CMA-ES over a heuristic's weights) or exit (expert iteration);
    the rest of the arguments are the trainer's own (its --help lists them)."""
    choice = argparse.ArgumentParser(prog="heist train", add_help=False)
    choice.add_argument("--method", choices=["ppo", *TRAINERS], default="ppo")
    choice.add_argument("--backend", choices=sorted(PPO_BACKENDS))
    chosen, rest = choice.parse_known_args(rest)
    if chosen.method == "ppo":
        module = PPO_BACKENDS[chosen.backend or "sb3"]
    elif chosen.backend:
        choice.error(f"--backend is for --method ppo, not {chosen.method}")
    else:
        module = TRAINERS[chosen.method]
    try:
        trainer = importlib.import_module(module)
    except ModuleNotFoundError as missing:
        sys.exit(f"heist train: cannot load the trainer ({missing})")
    trainer.main(rest)


def run_metrics(rest):
    try:
        from experiments.studies import metrics
    except ModuleNotFoundError as missing:
        sys.exit(f"heist metrics: needs the studies extra, pip install -e '.[studies]' ({missing})")
    metrics.command(rest)


# The commands ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Command:
    """A ``heist`` command: ``help`` is its line in ``heist --help``, ``description`` opens
    its own --help. ``add_arguments(parser)`` adds its arguments, and ``run(args)`` gets
    them parsed; without ``add_arguments``, ``run(rest)`` parses the rest itself."""

    name: str
    help: str
    run: Callable
    add_arguments: Callable | None = None
    description: str | None = None


DEMO = "experiments.tools.demo"
COMMANDS = (
    Command(
        "demo",
        "watch a game between random agents",
        tool(DEMO, "run"),
        tool(DEMO, "add_arguments"),
        "Play a game between random agents and print it turn by turn.",
    ),
    Command(
        "watch",
        "watch any agents play, step by step or at a pace",
        tool(DEMO, "watch"),
        tool(DEMO, "add_watch_arguments"),
        "Watch agents play a game, move by move, at a set pace (--delay) or one move per Enter "
        "(--step). The seed is printed so that the game can be replayed.",
    ),
    Command(
        "play",
        "play a game in the terminal against agents",
        run_play,
        add_play_arguments,
        "Play a game in the terminal: the table is drawn from your seat and your legal moves "
        "are listed by number. Type a number to play it; q, end of input (Ctrl-D) or Ctrl-C "
        "leaves.",
    ),
    Command(
        "arena",
        "a tournament between agents, with ratings",
        run_arena,
        add_arena_arguments,
        "Play a tournament between agents in every seat rotation and print each agent's win "
        "rate and mean reward with 95% intervals, its OpenSkill rating and the first-seat "
        "advantage.",
    ),
    Command(
        "eval",
        "score an agent with the benchmark protocol",
        run_eval,
        add_eval_arguments,
        "Run the benchmark protocol (docs/agents.md): the agent against a fixed reference pool "
        "at every player count, seats rotated, fixed seeds, and print its benchmark card: win "
        "rate with 95% intervals against each reference, a rating anchored to the references' "
        "published ratings, decisions per second, and the games it lost by failing. Loading an "
        "agent from a file or module runs its code. With --human FILE instead of an agent, it "
        "rates a person on the same scale from the games heist serve --save-games saved.",
    ),
    Command(
        "exploit",
        "how exploitable an agent is: a best response's gain against it",
        tool("experiments.tools.exploit", "run"),
        tool("experiments.tools.exploit", "add_arguments"),
        "Train a best response (the torch PPO learner) in one seat against the agent in every "
        "other seat for --minutes of wall-clock time, then report its win rate against the "
        "agent, the agent's own rate in that seat against copies of itself, and the gain, each "
        "with its 95% interval, and the best response's curve (docs/ladder.md). How to Rob a "
        "Bank: each side.",
    ),
    Command(
        "serve",
        "the web table: watch, replay and play in a browser",
        run_serve,
        add_serve_arguments,
        "Serve the web table: watch agents play, replay saved game records and play against "
        "agents in a browser. Binds to 127.0.0.1 (this machine only) unless --host says "
        "otherwise.",
    ),
    Command(
        "bench",
        "speed of heist-envs beside other libraries",
        tool("experiments.tools.benchmark", "main"),
    ),
    Command(
        "train",
        "train a player: --method ppo (--backend sb3, torch or rllib), imitation, weights or exit",
        run_train,
    ),
    Command(
        "docs",
        "regenerate docs/games/*.md (--check: verify them)",
        tool("experiments.tools.docs", "main"),
    ),
    Command(
        "metrics",
        "game metrics: length, branching, win rates by seat, ...",
        run_metrics,
    ),
    Command(
        "leaderboard",
        "every agent against every other: docs/leaderboard.md",
        tool("experiments.tools.leaderboard", "main"),
    ),
)


def parser_for(command_name=None) -> argparse.ArgumentParser:
    """The ``heist`` parser, with the arguments of ``command_name`` (only the called
    command's are added, so that only its tool is imported)."""
    parser = argparse.ArgumentParser(prog="heist", description="heist-envs games and tools")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        if command.add_arguments is None:
            help_line = f"{command.help}; its --help lists options"
            commands.add_parser(command.name, help=help_line, add_help=False)
            continue
        sub = commands.add_parser(command.name, help=command.help, description=command.description)
        if command.name == command_name:
            command.add_arguments(sub)
    return parser


def main(argv=None):
    try:
        return run_command(argv)
    except KeyboardInterrupt as stop:
        # Ctrl-C: one line, never a traceback. A tool that kept what it had done raises
        # experiments.common.Interrupted, whose message says what it kept and where.
        argv = sys.argv[1:] if argv is None else list(argv)
        name = " ".join(["heist", *argv[:1]])
        print(f"{name}: interrupted{f': {stop}' if str(stop) else ''}", file=sys.stderr)
        return 128 + 2  # killed by SIGINT, in the shell's words
    except BrokenPipeError:
        # the reader left (`heist demo | head`): stop quietly, as a shell tool does, and point
        # stdout at devnull so that the interpreter's last flush does not fail again
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 128 + 13  # killed by SIGPIPE, in the shell's words


def run_command(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = parser_for(argv[0] if argv else None)
    args, rest = parser.parse_known_args(argv)
    command = next(c for c in COMMANDS if c.name == args.command)
    if command.add_arguments is None:
        command.run(rest)  # it exits with its status itself; what it returns is for Python
        return None
    if rest:
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    try:
        return command.run(args)
    except ValueError as error:
        parser.exit(2, f"heist {command.name}: error: {error}\n")


if __name__ == "__main__":
    sys.exit(main())
