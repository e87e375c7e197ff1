"""Score a MaskablePPO checkpoint against chosen opponents (seat-rotated, batched).

python -m experiments.train.evaluate CHECKPOINT --game GAME --games 1000 --opponents heuristic

A checkpoint trained for one side (``heist train --side``) is scored on that side only.

The default opponents are the game's heuristic agent: a win rate against random players says
little about a policy's strength.
"""

from __future__ import annotations

import argparse
import json

import numpy as np

import heist_envs
from agents.stats import wilson_interval
from heist_envs.core.sb3_vec import SelfPlayVecEnv
from heist_envs.core.single_agent import AgentOpponent, PolicyOpponent, RandomOpponent


def win_rate(
    policy, game_name, num_players, opponents, games=1000, seed=0, num_envs=32, learner_sides=None
):
    """Play ``games`` episodes of ``policy`` (a model with ``predict``; one that sets
    ``wants_info_set`` also gets each decision's information set) with every seat in turn
    (of ``learner_sides`` only, if given: side indices); returns a dict with the win rate, its
    95% interval, the mean reward, the fair share, and under ``by_side`` the games, win rate
    and interval of each side played (named by its seats)."""
    game = heist_envs.get_game(game_name)
    env = SelfPlayVecEnv(
        game, num_envs, num_players, opponents, seed, rotate_seats=True, learner_sides=learner_sides
    )
    obs = env.reset()
    results = []  # (learner seat, reward) of each finished episode
    while len(results) < games:
        seats = env.learner_seat.copy()
        search = getattr(policy, "wants_info_set", False)  # every game waits for its learner
        extra = {"info_sets": env.info_sets(np.ones(num_envs, bool))} if search else {}
        actions, _ = policy.predict(
            obs, action_masks=env.action_masks(), deterministic=True, **extra
        )
        obs, reward, done, _ = env.step(actions)
        results.extend(zip(seats[done].tolist(), reward[done].tolist(), strict=True))
    results = results[:games]
    rewards = np.array([reward for _, reward in results])
    names = game.agent_names(env.games.num_players)
    team = env.team_of_seat
    by_side = {
        "+".join(n for n, t in zip(names, team, strict=True) if t == team[side]): wins_summary(
            [reward for seat, reward in results if seat == side]
        )
        for side in env.side_seats[env.learner_sides]
    }
    return {
        "game": game.name,
        "num_players": env.games.num_players,
        **wins_summary(rewards),
        "mean_reward": float(rewards.mean()),
        "fair_share": 1 / len(env.side_seats),
        "by_side": by_side,
    }


def wins_summary(rewards):
    """Games, win rate (reward > 0) and its 95% Wilson interval."""
    games = len(rewards)
    wins = sum(reward > 0 for reward in rewards)
    low, high = wilson_interval(wins, max(games, 1))
    return {"games": games, "win_rate": wins / max(games, 1), "ci_low": low, "ci_high": high}


def make_opponents(spec, game_name, seed=0, num_players=None):
    """Opponents from comma-separated agent specs (:func:`agents.registry.split_specs`:
    ``random``, ``heuristic``, ``heuristic:weights=tuned``, ``ppo:path=run/final.zip``, ...)
    for a table of ``num_players``. The heuristic plays compiled, inside the engine's loop,
    where the game has a compiled one (:func:`agents.compiled.compiled_heuristic`); a PPO
    policy plays one batched forward pass per round; other agents are called per decision.
    A bad spec (an unknown agent, a weights file that cannot be read, a policy for another
    game or player count) raises a ValueError that says what is wrong."""
    from agents.compiled import compiled_heuristic
    from agents.registry import make_agent, parse_spec, split_specs

    opponents = []
    for k, text in enumerate(split_specs(spec)):
        if text == "random":
            opponents.append(RandomOpponent(seed + k))
            continue
        name, params = parse_spec(text)
        agent = make_agent(name, game_name, seed=seed + k, num_players=num_players, **params)
        compiled = None
        if name == "heuristic":
            compiled = compiled_heuristic(game_name, params.get("weights"), seed + k)
        if compiled is not None:
            opponents.append(compiled)
        elif name == "ppo" and agent.one_network:
            opponents.append(PolicyOpponent(agent.policy, agent.deterministic, text, seed + k))
        else:
            opponents.append(AgentOpponent(agent, text))
    return opponents


def main(argv=None):
    from agents.ppo import check_checkpoint, load_policy

    parser = argparse.ArgumentParser(
        prog="python -m experiments.train.evaluate", description=__doc__.splitlines()[0]
    )
    parser.add_argument("checkpoint", help="a .zip saved by experiments.train.sb3 (trusted source)")
    parser.add_argument("--game", required=True, choices=heist_envs.game_names())
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument(
        "--opponents", default="heuristic", help="comma-separated agent specs (default: heuristic)"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", metavar="PATH", help="write the result here")
    args = parser.parse_args(argv)
    game = heist_envs.get_game(args.game)
    try:
        info, num_players = check_checkpoint(args.checkpoint, game.name, args.players)
        policy = load_policy(args.checkpoint)
        opponents = make_opponents(args.opponents, game.name, args.seed, num_players)
    except ValueError as error:
        parser.exit(2, f"{parser.prog}: error: {error}\n")
    side = info.get("side")  # trained for this side alone
    sides = [game.side_names.index(side)] if side else None
    result = win_rate(
        policy, game.name, num_players, opponents, args.games, args.seed, learner_sides=sides
    )
    result["opponents"] = args.opponents
    print(
        f"{result['game']} ({result['num_players']}p) vs {args.opponents}: win rate "
        f"{result['win_rate']:.3f} [{result['ci_low']:.3f}, {result['ci_high']:.3f}] over "
        f"{args.games} games (fair share {result['fair_share']:.3f})"
    )
    for side, scored in result["by_side"].items():
        print(
            f"  as {side}: {scored['win_rate']:.3f} [{scored['ci_low']:.3f}, "
            f"{scored['ci_high']:.3f}] over {scored['games']} games"
        )
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)
    return result


if __name__ == "__main__":
    main()
