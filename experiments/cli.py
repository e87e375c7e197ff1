"""The ``heist`` command: ``heist demo GAME``, ``heist bench``."""

import argparse

from experiments import benchmark, demo


def main(argv=None):
    parser = argparse.ArgumentParser(prog="heist", description="heist-envs games and tools")
    commands = parser.add_subparsers(dest="command", required=True)
    demo.add_arguments(commands.add_parser("demo", help="play a game between random agents"))
    commands.add_parser(
        "bench", help="run experiments/benchmark.py (its --help lists options)", add_help=False
    )
    args, rest = parser.parse_known_args(argv)
    if args.command == "bench":
        benchmark.main(rest)
    elif rest:
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    else:
        demo.run(args)


if __name__ == "__main__":
    main()
