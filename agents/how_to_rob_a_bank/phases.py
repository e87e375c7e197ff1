"""Which How to Rob a Bank decisions does an agent play well: setup and planning, or robbing?

One side (``--side``) is played by a pair of agents: ``--plan`` takes the setup and Plan-phase
decisions (choosing a start and programming the card stacks), ``--rob`` the Rob-phase ones.
The other side is the heuristic. Agents are named as ``heist arena`` names them.

    python -m agents.how_to_rob_a_bank.phases --plan heuristic --rob ismcts:simulations=100
    python -m agents.how_to_rob_a_bank.phases --plan ppo --rob ismcts:simulations=100 --side bank
    python -m agents.how_to_rob_a_bank.phases --plan heuristic --plan-noise 0.01

``--plan-noise EPS`` replaces each setup or planning decision that has a choice, with
probability EPS, by a uniformly random other legal move: how much a plan that is right at all
but a few decisions costs (an imitation of the plan gets some share of them wrong).

Game ``k`` (``k`` from ``--seed``) is dealt from seed ``k`` and the agents of its seats are
seeded from it, so two runs with the same ``--seed`` and ``--games`` play the same deals.
Prints the side's win rate with its 95% Wilson interval.
"""

from __future__ import annotations

import argparse

import numpy as np

import heist_envs
from agents.arena import parse_entrant, play
from agents.how_to_rob_a_bank.rollout import PRIOR_ALONE_PHASES
from agents.stats import wilson_interval

GAME = "how_to_rob_a_bank"


class PhaseSplit:
    """Plays setup and planning (the phases a search with ``prior_alone`` leaves to its
    policy, ``PRIOR_ALONE_PHASES``) with ``plan``, and the Rob phase with ``rob``; with
    ``plan_noise``, a planning decision with a choice is, with that probability, a uniformly
    random legal move other than ``plan``'s (drawn from ``seed``)."""

    wants_info_set = True

    def __init__(self, plan, rob, plan_noise=0.0, seed=None):
        self.plan, self.rob = plan, rob
        self.plan_noise = plan_noise
        self.rng = np.random.default_rng(seed)

    def act(self, observation, action_mask, info_set):
        planning = info_set.kernel_state()[0]["phase"] in PRIOR_ALONE_PHASES
        agent = self.plan if planning else self.rob
        if getattr(agent, "wants_info_set", False):
            action = agent.act(observation, action_mask, info_set)
        else:
            action = agent.act(observation, action_mask)
        if planning and self.plan_noise:
            others = np.flatnonzero(action_mask)
            others = others[others != action]
            if len(others) and self.rng.random() < self.plan_noise:
                return int(self.rng.choice(others))
        return action


def side_win_rate(plan, rob, side, games, seed, num_players=4, plan_noise=0.0) -> tuple[int, int]:
    """Wins of ``side`` (played by ``plan``/``rob`` specs, ``plan_noise`` as
    :class:`PhaseSplit` takes it) against the heuristic, and games."""
    plan_entrant, rob_entrant = parse_entrant(plan), parse_entrant(rob)
    heuristic = parse_entrant("heuristic")
    game = heist_envs.get_game(GAME)
    team = game.side_names.index(side)
    teams = game.teams(num_players)
    wins = 0
    for game_seed in range(seed, seed + games):
        seats = []
        for seat in range(game.num_seats(num_players)):
            agent_seed = game_seed * 10 + seat
            if teams[seat] == team:
                plan_agent = plan_entrant.build(GAME, agent_seed, num_players)
                rob_agent = rob_entrant.build(GAME, agent_seed + 5, num_players)
                seats.append(PhaseSplit(plan_agent, rob_agent, plan_noise, agent_seed + 7))
            else:
                seats.append(heuristic.build(GAME, agent_seed, num_players))
        result = play(GAME, seats, num_players=num_players, seed=game_seed)
        wins += result.rewards[teams.index(team)] > 0
    return wins, games


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m agents.how_to_rob_a_bank.phases", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--plan", default="heuristic", help="agent for setup and planning")
    parser.add_argument("--rob", default="heuristic", help="agent for the Rob phase")
    parser.add_argument(
        "--plan-noise",
        type=float,
        default=0.0,
        metavar="EPS",
        help="replace each setup or planning decision with a choice, with probability EPS, "
        "by a random other legal move (default 0: none)",
    )
    parser.add_argument("--side", default="robbers", choices=heist_envs.get_game(GAME).side_names)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1000, help="the first game's seed")
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args(argv)
    try:
        num_players = heist_envs.get_game(GAME).check_players(args.players)
        if args.games < 1:
            raise ValueError(f"--games must be at least 1, got {args.games}")
        if not 0 <= args.plan_noise <= 1:
            raise ValueError(f"--plan-noise must be between 0 and 1, got {args.plan_noise}")
        wins, games = side_win_rate(
            args.plan, args.rob, args.side, args.games, args.seed, num_players, args.plan_noise
        )
    except ValueError as error:
        parser.error(str(error))
    low, high = wilson_interval(wins, games)
    noise = f" (plan noise {args.plan_noise})" if args.plan_noise else ""
    print(
        f"{args.side}: plan {args.plan}{noise}, rob {args.rob}: {wins}/{games} won, "
        f"{wins / games:.3f} [{low:.3f}, {high:.3f}] against the heuristic"
    )


if __name__ == "__main__":
    main()
