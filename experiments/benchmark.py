"""Speed of heist-envs, side by side with other libraries' environments in the same run.

Modes (agent decisions per second; chance nodes are not counted):

- ``kernel-jit``: random playouts entirely in compiled code (heist_envs.core.playout).
- ``kernel-python``: a Python loop over the kernel computing the actor's observation and
  mask every step, as a custom training loop would.
- ``aec``: the standard PettingZoo loop (``agent_iter``/``last``/``step``) sampling from the
  mask, for heist-envs and PettingZoo classic games alike.
- ``openspiel`` / ``openspiel-tensor``: OpenSpiel random play, without and with the acting
  player's observation tensor each step (only where ``pyspiel`` is installed).

    python -m experiments.benchmark [--quick] [--json results.json] [--games art_robbery]
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

import heist_envs
from heist_envs.core.compiled import kernel_view
from heist_envs.core.game import RUNNING

PLAYERS = 4


class UniformPicker:
    """Picks uniformly among legal actions from pre-drawn uniforms, so that every library's
    loop pays the same, small cost for the random agent."""

    def __init__(self, seed=0, size=1 << 16):
        self.uniforms = np.random.default_rng(seed).random(size).tolist()
        self.i = 0

    def pick(self, legal):
        self.i = (self.i + 1) % len(self.uniforms)
        return legal[int(self.uniforms[self.i] * len(legal))]


def timed(run_batch, seconds):
    """Call ``run_batch()`` -> (steps, games) until ``seconds`` pass; returns the rates."""
    run_batch()  # warm-up (compilation, caches)
    steps = games = 0
    start = time.perf_counter()
    while True:
        s, g = run_batch()
        steps += s
        games += g
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return steps / elapsed, games / elapsed


def kernel_jit(name, num_players, seconds):
    game = heist_envs.get_game(name)
    state = kernel_view(game.new_state(num_players, 0))
    batch = 1000
    seed = [0]

    def run_batch():
        seed[0] += batch
        return game.entry.random_playouts(state, batch, seed[0]), batch

    return timed(run_batch, seconds)


def kernel_python(name, num_players, seconds):
    game = heist_envs.get_game(name)
    entry = game.entry
    mask = np.zeros(game.num_actions, np.int8)
    obs = np.zeros(game.obs_size, game.obs_dtype)
    picker = UniformPicker()
    state = kernel_view(game.new_state(num_players, 0))
    seed = [0]

    def run_batch():
        seed[0] += 1
        steps = 0
        actor, status = entry.restart(state, seed[0], mask, obs)
        while status == RUNNING:
            actor, status = entry.advance_observe(state, picker.pick(mask.nonzero()[0]), mask, obs)
            steps += 1
        return steps, 1

    return timed(run_batch, seconds)


def aec_loop(make_env, seconds):
    """The usual PettingZoo loop with mask sampling; identical for every library."""
    env = make_env()
    picker = UniformPicker()
    seed = [0]

    def run_batch():
        seed[0] += 1
        env.reset(seed=seed[0])
        steps = 0
        for _ in env.agent_iter():
            observation, reward, termination, truncation, info = env.last()
            if termination or truncation:
                action = None
            else:
                action = picker.pick(observation["action_mask"].nonzero()[0])
                steps += 1
            env.step(action)
        return steps, 1

    return timed(run_batch, seconds)


def openspiel_loop(game_name, with_tensor, seconds):
    import pyspiel

    game = pyspiel.load_game(game_name)
    rng = np.random.default_rng(0)
    picker = UniformPicker()

    def run_batch():
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(outcomes[rng.choice(len(outcomes), p=probs)])
                continue
            if with_tensor:
                state.observation_tensor(state.current_player())
            state.apply_action(picker.pick(state.legal_actions()))
            steps += 1
        return steps, 1

    return timed(run_batch, seconds)


def pettingzoo_classic(env_name):
    """A PettingZoo classic env constructor, or None if its extras are not installed."""
    try:
        if env_name == "connect_four":
            from pettingzoo.classic import connect_four_v3 as module
        else:
            from pettingzoo.classic import texas_holdem_v4 as module
    except ImportError:
        return None
    return module.env


def run(games, seconds, players=PLAYERS):
    """Every benchmark row, as records ``{library, game, mode, num_players, ...}``."""
    rows = []

    def record(library, game, mode, num_players, rates):
        steps, games_per_s = rates
        rows.append(
            {
                "library": library,
                "game": game,
                "mode": mode,
                "num_players": num_players,
                "steps_per_second": round(steps, 1),
                "games_per_second": round(games_per_s, 2),
            }
        )
        print(f"  {library:<11} {game:<20} {mode:<17} {num_players}p {steps:>14,.0f} steps/s")

    for name in games:
        n = min(
            max(players, heist_envs.get_game(name).min_players),
            heist_envs.get_game(name).max_players,
        )
        record("heist-envs", name, "kernel-jit", n, kernel_jit(name, n, seconds))
        record("heist-envs", name, "kernel-python", n, kernel_python(name, n, seconds))
        record(
            "heist-envs",
            name,
            "aec",
            n,
            aec_loop(lambda name=name, n=n: heist_envs.make(name, num_players=n), seconds),
        )
    for env_name in ("connect_four", "texas_holdem"):
        make = pettingzoo_classic(env_name)
        if make is not None:
            record("pettingzoo", env_name, "aec", 2, aec_loop(make, seconds))
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("  (pyspiel not installed: OpenSpiel rows skipped)")
    else:
        for game_name in ("connect_four", "leduc_poker"):
            for mode, with_tensor in (("openspiel", False), ("openspiel-tensor", True)):
                rates = openspiel_loop(game_name, with_tensor, seconds)
                record("openspiel", game_name, mode, 2, rates)
    return rows


def ratios(rows):
    """The comparisons the targets are stated in, per heist-envs game."""
    rate = {(r["library"], r["game"], r["mode"]): r["steps_per_second"] for r in rows}
    lines = []
    pz_c4 = rate.get(("pettingzoo", "connect_four", "aec"))
    os_c4 = rate.get(("openspiel", "connect_four", "openspiel-tensor"))
    for (library, game, mode), value in rate.items():
        if library != "heist-envs":
            continue
        if mode == "aec" and pz_c4:
            lines.append(f"{game} aec / pettingzoo connect_four aec: {value / pz_c4:.1f}x")
        if mode == "kernel-python" and os_c4:
            lines.append(
                f"{game} kernel-python / openspiel connect_four with tensors: {value / os_c4:.1f}x"
            )
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(prog="heist bench", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="0.5 s per row instead of 3 s")
    parser.add_argument("--json", metavar="PATH", help="write the records to this file")
    parser.add_argument(
        "--games",
        nargs="+",
        default=heist_envs.game_names(),
        choices=heist_envs.game_names(),
        help="heist-envs games to measure",
    )
    parser.add_argument(
        "--players",
        type=int,
        default=PLAYERS,
        help="player count for heist-envs games (clamped to each game's range)",
    )
    args = parser.parse_args(argv)
    print("library     game                 mode              players   agent-steps/s")
    rows = run(args.games, 0.5 if args.quick else 3.0, args.players)
    print()
    for line in ratios(rows):
        print(line)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    return rows


if __name__ == "__main__":
    main()
