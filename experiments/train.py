"""Train a MaskablePPO policy for one game by self-play against its own past snapshots and
random opponents, with periodic evaluation against random.

    python -m experiments.train --game art_robbery --timesteps 300000 --out runs/art_robbery

Writes to ``--out``: ``progress.csv`` (SB3's training log), ``eval.csv`` (win rate vs random
with its 95% interval at every evaluation), ``checkpoints/``, ``final.zip`` (+ ``.json``
metadata) and ``learning_curve.png``.

``--shaping SCALE`` adds potential-based reward shaping with the game's potential from
:mod:`experiments.shaping` (policy-invariant; the default is per game, 0 = off). Torch runs
on ``--threads`` threads (default 1: the batched engine and the evaluations share the cores).

How to Rob a Bank's shipped policy comes from :mod:`experiments.imitation` (DAgger on the
heuristic agent), not from this script: see ``GAME_DEFAULTS``.
"""

from __future__ import annotations

import argparse
import copy
import csv
import random
import time
from pathlib import Path

import heist_envs
from agents.ppo import save_checkpoint
from experiments.evaluate import make_opponents, win_rate
from experiments.shaping import scaled_potential
from heist_envs.core.single_agent import PolicyOpponent, SelfPlayVecEnv

#: Defaults per game (timesteps, rollout length, shaping scale); flags override them.
GAME_DEFAULTS = {
    "art_robbery": {"timesteps": 400_000, "n_steps": 32, "shaping": 0.0},
    "toits_de_paris": {"timesteps": 400_000, "n_steps": 32, "shaping": 0.0},
    # The robbers' team reward is too sparse to learn from (random robbers steal 0.013 bags
    # a game): shaping rewards their progress toward the target (experiments.shaping).
    # Even so PPO's robbers win no game; the shipped policy for this game is trained by
    # imitating the heuristic with DAgger instead (experiments.imitation).
    "how_to_rob_a_bank": {"timesteps": 400_000, "n_steps": 32, "shaping": 1.0},
    "thiefs_market": {"timesteps": 600_000, "n_steps": 64, "shaping": 0.0},
}
PPO_SETTINGS = {"batch_size": 1024, "learning_rate": 3e-4, "ent_coef": 0.01, "gamma": 0.995}
NET_ARCH = [128, 128]


class SelfPlay:
    """The opponent pool: the base opponents plus the policy's latest snapshots.

    Each rollout plays against the base opponents and one snapshot drawn from the pool, so
    every opponent decision costs one batched forward pass, whatever the pool's size.
    """

    def __init__(self, env, base_opponents, pool_size, use_snapshots, seed):
        self.env = env
        self.base = list(base_opponents)
        self.snapshots = []
        self.pool_size = pool_size
        self.use_snapshots = use_snapshots
        self.rng = random.Random(seed)

    def snapshot(self, model):
        if self.use_snapshots:
            frozen = copy.deepcopy(model.policy)
            frozen.set_training_mode(False)
            seed = self.rng.randrange(1 << 31)
            self.snapshots.append(PolicyOpponent(frozen, name="snapshot", seed=seed))
            self.snapshots = self.snapshots[-self.pool_size :]

    def draw_opponents(self):
        if self.snapshots:
            self.env.set_opponents(self.base + [self.rng.choice(self.snapshots)])


def make_callback(args, env, pool, eval_log, out):
    from stable_baselines3.common.callbacks import BaseCallback

    class TrainingCallback(BaseCallback):
        def __init__(self):
            super().__init__()
            self.next_snapshot = args.snapshot_every
            self.next_eval = args.eval_every
            self.start = time.perf_counter()

        def _on_step(self):
            steps = self.num_timesteps
            if steps >= self.next_snapshot:
                self.next_snapshot += args.snapshot_every
                pool.snapshot(self.model)
            if steps >= self.next_eval:
                self.next_eval += args.eval_every
                evaluate_and_log(self.model, args, eval_log, steps, self.start, len(pool.snapshots))
                save_checkpoint(
                    self.model,
                    out / "checkpoints" / f"step_{steps}",
                    args.game,
                    args.players,
                    timesteps=steps,
                )
            return True

        def _on_rollout_start(self):
            pool.draw_opponents()

    return TrainingCallback()


def evaluate_and_log(model, args, eval_log, steps, start, pool_size):
    result = win_rate(
        model,
        args.game,
        args.players,
        make_opponents("random", args.game),
        args.eval_games,
        seed=10_000 + steps,
    )
    row = {
        "timesteps": steps,
        "elapsed_s": round(time.perf_counter() - start, 1),
        "win_rate": round(result["win_rate"], 4),
        "ci_low": round(result["ci_low"], 4),
        "ci_high": round(result["ci_high"], 4),
        "mean_reward": round(result["mean_reward"], 4),
        "snapshots_in_pool": pool_size,
    }
    new = not eval_log.exists()
    with eval_log.open("a", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(row))
        if new:
            writer.writeheader()
        writer.writerow(row)
    print(
        f"  step {steps}: win rate vs random {row['win_rate']:.3f} "
        f"[{row['ci_low']:.3f}, {row['ci_high']:.3f}]"
    )
    return result


def plot_learning_curve(eval_log, path, title):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with eval_log.open() as f:
        rows = list(csv.DictReader(f))
    steps = [int(r["timesteps"]) for r in rows]
    rate = [float(r["win_rate"]) for r in rows]
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.plot(steps, rate, marker="o", label="win rate vs random")
    ax.fill_between(
        steps,
        [float(r["ci_low"]) for r in rows],
        [float(r["ci_high"]) for r in rows],
        alpha=0.25,
        label="95% interval",
    )
    ax.set_xlabel("timesteps")
    ax.set_ylabel("win rate")
    ax.set_ylim(0, 1)
    ax.set_title(title)
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def parse_args(argv):
    parser = argparse.ArgumentParser(prog="heist train", description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True, choices=heist_envs.game_names())
    parser.add_argument("--players", type=int, default=None, help="default: the game's")
    parser.add_argument("--timesteps", type=int, default=None, help="default: per game")
    parser.add_argument("--n-envs", type=int, default=256)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--opponents",
        default="random,self",
        help="comma-separated: agent names (random, heuristic, ...) and 'self' "
        "for a pool of the policy's own snapshots",
    )
    parser.add_argument("--pool-size", type=int, default=5, help="snapshots kept in the pool")
    parser.add_argument("--snapshot-every", type=int, default=50_000)
    parser.add_argument("--eval-every", type=int, default=50_000)
    parser.add_argument("--eval-games", type=int, default=400)
    parser.add_argument(
        "--shaping",
        type=float,
        default=None,
        help="scale of the game's shaping potential (experiments.shaping); 0 turns it off; "
        "default: per game",
    )
    parser.add_argument("--threads", type=int, default=1, help="torch threads")
    parser.add_argument("--out", default=None, help="output folder (default runs/<game>)")
    args = parser.parse_args(argv)
    game = heist_envs.get_game(args.game)
    args.game = game.name
    args.players = game.check_players(args.players)
    defaults = GAME_DEFAULTS[game.name]
    args.timesteps = args.timesteps or defaults["timesteps"]
    args.n_steps = defaults["n_steps"]
    args.shaping = defaults["shaping"] if args.shaping is None else args.shaping
    args.out = Path(args.out or f"runs/{game.name}")
    return args


def make_env(game, args, base_opponents):
    """The training env: ``args.n_envs`` games, shaped with ``args.shaping`` if non-zero."""
    return SelfPlayVecEnv(
        game,
        args.n_envs,
        args.players,
        base_opponents or None,
        seed=args.seed,
        shaping=scaled_potential(game.name, args.shaping),
        shaping_gamma=PPO_SETTINGS["gamma"],
    )


def main(argv=None):
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.logger import configure
    from stable_baselines3.common.vec_env import VecMonitor

    args = parse_args(argv)
    torch.set_num_threads(args.threads)
    args.out.mkdir(parents=True, exist_ok=True)
    eval_log = args.out / "eval.csv"
    eval_log.unlink(missing_ok=True)
    game = heist_envs.get_game(args.game)
    names = [n for n in args.opponents.split(",") if n != "self"]
    base = make_opponents(",".join(names), game.name, args.seed) if names else []
    env = make_env(game, args, base)
    use_snapshots = "self" in args.opponents.split(",")
    pool = SelfPlay(env, env.opponents, args.pool_size, use_snapshots, args.seed)
    model = MaskablePPO(
        "MlpPolicy",
        VecMonitor(env),
        n_steps=args.n_steps,
        seed=args.seed,
        device="cpu",
        policy_kwargs={"net_arch": NET_ARCH},
        verbose=0,
        **PPO_SETTINGS,
    )
    model.set_logger(configure(str(args.out), ["csv"]))
    start = time.perf_counter()
    callback = make_callback(args, env, pool, eval_log, args.out)
    model.learn(args.timesteps, callback=callback, progress_bar=True)
    train_seconds = time.perf_counter() - start
    result = evaluate_and_log(
        model, args, eval_log, model.num_timesteps, start, len(pool.snapshots)
    )
    shaping = {"shaping": args.shaping} if args.shaping else {}
    save_checkpoint(
        model,
        args.out / "final",
        game.name,
        args.players,
        **shaping,
        timesteps=model.num_timesteps,
        train_seconds=round(train_seconds, 1),
        env_share=round(env.env_seconds / train_seconds, 3),
        win_rate_vs_random=result,
    )
    plot_learning_curve(eval_log, args.out / "learning_curve.png", f"{game.title}, {args.players}p")
    print(
        f"trained {model.num_timesteps} steps in {train_seconds:.0f} s "
        f"({model.num_timesteps / train_seconds:.0f} steps/s; env share "
        f"{env.env_seconds / train_seconds:.1%}); saved {args.out / 'final.zip'}"
    )
    return model


if __name__ == "__main__":
    main()
