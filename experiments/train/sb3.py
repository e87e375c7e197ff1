"""Train a MaskablePPO policy for one game against an opponent pool, in stages, with periodic
evaluation against the heuristic agent.

    python -m experiments.train.sb3 --game GAME \
        --opponents random,self:400000 heuristic,self:600000 --out runs/GAME

Each ``--opponents`` item is one stage: the pool (agent specs such as ``heuristic`` or
``heuristic:weights=tuned``, and ``self`` for the policy's own recent snapshots) and its
timesteps. The heuristic plays compiled, inside the engine's loop, where its game has one
(:func:`experiments.train.evaluate.make_opponents`). Learning first against random players
and itself, then against the heuristic with its snapshots beside it, lets the policy find the
game's basics cheaply (random opponents cost nothing) and then learn to beat the strongest
fixed player while self-play keeps it from overfitting to that one opponent.

``--init CHECKPOINT`` starts from a checkpoint's weights: a run's ``final.zip`` (to go on
training, or to train for another player count: the observation size is the same at every
count), a shipped policy, or an :mod:`experiments.train.imitation` run. An imitation run's value
head never learned, so ``--critic-warmup STEPS`` first trains the critic alone (actor
frozen) against the first stage's pool: the first policy updates then follow real
advantages instead of noise.

Writes to ``--out``: ``progress.csv`` (SB3's training log), ``eval.csv`` (win rate against
``--eval-opponents``, default the game's heuristic, with its 95% interval at every evaluation),
``checkpoints/``, ``final.zip`` (+ ``.json`` metadata: stages, seed, init, the last
evaluation) and ``learning_curve.png``. ``--arena-games N`` also scores each checkpoint head to
head in the arena's mixed tables (``arena_curve.csv`` and ``.png``, see
:mod:`experiments.train.arena_curve`): an evaluation with one seat against a full table of
heuristics cannot show how two copies of the policy fare at one table. ``--seating arena``
trains at those tables: the learner's latest snapshot takes the learner's other seats and the
pool's agents the rest, as :func:`agents.arena.schedule` seats two entrants.

The defaults of ``--timesteps``, ``--opponents`` and ``--shaping`` and the rollout length are
the game's (``agents/<game>/training.py``, see :mod:`agents.profiles`). ``--shaping SCALE``
adds potential-based reward shaping with the game's potential (:mod:`experiments.train.shaping`;
policy-invariant; 0 = off). Torch runs on ``--threads`` threads (default 1: the batched engine
and the evaluations share the cores).
The commands that made the shipped policies, with their wall times, are in docs/training/index.md.
"""

from __future__ import annotations

import argparse
import copy
import random
import time
from pathlib import Path

import heist_envs
from agents.arena import schedule
from agents.ppo import save_checkpoint
from agents.profiles import profile
from agents.registry import agent_names, split_specs
from experiments.common import append_csv, plot_learning_curve
from experiments.train import arena_curve
from experiments.train.evaluate import make_opponents, win_rate
from experiments.train.shaping import scaled_potential
from heist_envs.core.sb3_vec import SelfPlayVecEnv
from heist_envs.core.single_agent import PolicyOpponent

PPO_SETTINGS = {
    "batch_size": 1024,
    "learning_rate": 3e-4,
    "ent_coef": 0.01,
    "gamma": 0.995,
    "gae_lambda": 0.95,
    "n_epochs": 10,
}
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
                checkpoint = out / "checkpoints" / f"step_{steps}.zip"
                save_checkpoint(
                    self.model, checkpoint, args.game, args.players, timesteps=steps,
                    **side_metadata(args),
                )  # fmt: skip
                if args.arena_games:
                    score_head_to_head(args, checkpoint, steps, out / "arena_curve.csv")
            return True

        def _on_rollout_start(self):
            pool.draw_opponents()

    return TrainingCallback()


def side_metadata(args) -> dict:
    """The checkpoint metadata of a one-side policy (``--side``): its side; none otherwise."""
    return {"side": args.side} if args.side else {}


def evaluate_and_log(model, args, eval_log, steps, start, pool_size):
    result = win_rate(
        model,
        args.game,
        args.players,
        make_opponents(args.eval_opponents, args.game, num_players=args.players),
        args.eval_games,
        seed=10_000 + steps,
        learner_sides=args.learner_sides,
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
    append_csv(eval_log, row)
    print(
        f"  step {steps}: win rate vs {args.eval_opponents} {row['win_rate']:.3f} "
        f"[{row['ci_low']:.3f}, {row['ci_high']:.3f}]"
    )
    return result


def score_head_to_head(args, checkpoint, steps, log):
    """Score ``checkpoint`` the arena's way against the first ``--eval-opponents`` agent
    (:mod:`experiments.train.arena_curve`) and log it."""
    rows = arena_curve.head_to_head(
        checkpoint, args.game, args.players, args.arena_against, args.arena_games, 10_000 + steps
    )
    for row in rows:
        row = {"timesteps": steps, **row}
        append_csv(log, row)
        print(arena_curve.row_text(row, args.arena_against))


def make_parser():
    """The trainer's flags; those whose default depends on the game default to None here."""
    parser = argparse.ArgumentParser(prog="heist train", description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True, choices=heist_envs.game_names())
    parser.add_argument("--players", type=int, default=None, help="default: the game's")
    parser.add_argument("--timesteps", type=int, default=None, help="default: per game")
    parser.add_argument("--n-envs", type=int, default=256)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--opponents",
        nargs="+",
        default=None,
        metavar="POOL[:STEPS]",
        help="the opponent pool of each training stage, in order: comma-separated agent specs "
        "(random, heuristic, heuristic:weights=tuned, ppo:path=FILE, ...) and 'self' for the "
        "policy's own snapshots, with the stage's timesteps after a colon (default: "
        "--timesteps); default: per game",
    )
    parser.add_argument(
        "--critic-warmup",
        type=int,
        default=0,
        metavar="STEPS",
        help="first train only the critic for this many steps (against the first stage's pool)",
    )
    parser.add_argument(
        "--init",
        default=None,
        help="start from this checkpoint's weights (a run's final.zip, an imitation run, "
        "a shipped policy) instead of a fresh network",
    )
    parser.add_argument(
        "--seating",
        choices=("random", "arena"),
        default="random",
        help="random: every opponent seat draws from the pool; arena: seat the learner, its "
        "latest snapshot and the pool's agents as the arena's two-agent tables do (A B A B at "
        "4 players), the snapshot in the learner's other seats (each stage's pool needs 'self' "
        "and an agent)",
    )
    parser.add_argument(
        "--side",
        default=None,
        help="in a game whose sides play different roles (one of its side names), "
        "train a policy for this side alone: the learner plays only its seats, evaluations "
        "score only it (play it with ppo:SIDE=FILE)",
    )
    parser.add_argument("--pool-size", type=int, default=5, help="snapshots kept in the pool")
    parser.add_argument("--snapshot-every", type=int, default=50_000)
    parser.add_argument("--eval-every", type=int, default=50_000)
    parser.add_argument("--eval-games", type=int, default=400)
    parser.add_argument(
        "--eval-opponents",
        default=None,
        help="comma-separated agent specs the evaluations seat the policy against "
        "(default: heuristic, or random for a game without one)",
    )
    parser.add_argument(
        "--arena-games",
        type=int,
        default=0,
        metavar="N",
        help="also score each checkpoint head to head against the first --eval-opponents agent "
        "in N games of the arena's mixed tables, into arena_curve.csv/.png (default 0: off)",
    )
    parser.add_argument(
        "--shaping",
        type=float,
        default=None,
        help="scale of the game's shaping potential (agents/<game>/shaping.py); 0 turns it off; "
        "default: per game",
    )
    parser.add_argument(
        "--learning-rate",
        type=float,
        default=PPO_SETTINGS["learning_rate"],
        help="Adam's step size; a fine-tune from --init wants a smaller one",
    )
    parser.add_argument(
        "--ent-coef",
        type=float,
        default=PPO_SETTINGS["ent_coef"],
        help="weight of the entropy bonus",
    )
    parser.add_argument(
        "--n-steps",
        type=int,
        default=None,
        help="steps each game plays per rollout (a rollout holds n-envs times as many); "
        "default: per game",
    )
    parser.add_argument(
        "--n-epochs",
        type=int,
        default=PPO_SETTINGS["n_epochs"],
        help="passes over each rollout per update",
    )
    parser.add_argument(
        "--target-kl",
        type=float,
        default=None,
        help="stop an update's epochs once the policy has moved this far (approximate KL "
        "divergence from the rollout's policy); keeps a fine-tune from --init near its start "
        "(default: no limit)",
    )
    parser.add_argument(
        "--gae-lambda",
        type=float,
        default=PPO_SETTINGS["gae_lambda"],
        help="lambda of the advantages' estimate (GAE): 1 credits each decision with the "
        "game's discounted outcome less the critic's value, lower leans on the critic for "
        "credit further back",
    )
    parser.add_argument("--threads", type=int, default=1, help="torch threads")
    parser.add_argument("--out", default=None, help="output folder (default runs/<game>)")
    return parser


def parse_args(argv, parser=None):
    """The flags, with the game's defaults (:class:`agents.profiles.TrainingDefaults`) where
    they are not given, and ``stages``: the parsed ``--opponents``. ``parser`` (default
    :func:`make_parser`'s) may add flags of another trainer's."""
    parser = parser or make_parser()
    args = parser.parse_args(argv)
    game = heist_envs.get_game(args.game)
    args.game = game.name
    args.players = game.check_players(args.players)
    game_profile = profile(game.name)
    defaults = game_profile.training
    args.timesteps = args.timesteps or defaults.timesteps
    if args.arena_games < 0:
        parser.error("--arena-games must be 0 (off) or more")
    for flag in ("n_steps", "n_epochs"):
        if getattr(args, flag) is not None and getattr(args, flag) < 1:
            parser.error(f"--{flag.replace('_', '-')} must be 1 or more")
    if args.target_kl is not None and args.target_kl <= 0:
        parser.error("--target-kl must be above 0 (leave it out for no limit)")
    if not 0 <= args.gae_lambda <= 1:
        parser.error("--gae-lambda must be between 0 and 1")
    if args.eval_opponents is None:
        args.eval_opponents = "heuristic" if game_profile.heuristic is not None else "random"
    args.arena_against = split_specs(args.eval_opponents)[0]
    try:
        args.stages = parse_stages(args.opponents or defaults.opponents, args.timesteps)
        check_opponents(args, game.name)
        check_seating(args)
        args.learner_sides = learner_sides(game, args.side)
    except ValueError as error:
        parser.error(str(error))
    args.n_steps = args.n_steps or defaults.n_steps
    args.shaping = defaults.shaping if args.shaping is None else args.shaping
    args.out = Path(args.out or f"runs/{game.name}")
    if args.init:
        try:
            check_init(args.init, game.name)
        except ValueError as error:
            parser.error(str(error))
    return args


def check_seating(args):
    """With ``--seating arena`` every stage's pool holds 'self' and an agent (the snapshot
    fills the learner's other seats, the agents the rest); a ValueError says which does not."""
    if args.seating != "arena":
        return
    for names, _ in args.stages:
        if "self" not in names or all(name == "self" for name in names):
            raise ValueError(
                f"--seating arena: the pool {','.join(names)} needs 'self' and at least one "
                "agent (e.g. heuristic,self)"
            )


def learner_sides(game, side) -> list[int] | None:
    """The side indices the learner plays: every side for no ``--side``, else the one it
    names; a ValueError lists the sides the game has."""
    if side is None:
        return None
    if side not in game.side_names:
        sides = ", ".join(game.side_names) or "none (every seat plays the same role)"
        raise ValueError(f"--side {side}: {game.name} has the sides {sides}")
    return [game.side_names.index(side)]


def check_init(path, game_name) -> dict:
    """The metadata of checkpoint ``path`` to start training ``game_name`` from, at any player
    count (the observation size is fixed); a ValueError says what is wrong with it."""
    from agents.ppo import checkpoint_info

    try:
        info = checkpoint_info(path)
    except ValueError as error:
        raise ValueError(f"--init {path}: {error}") from None
    if info["game"] != game_name:
        raise ValueError(f"--init {path} is a {info['game']} policy, not a {game_name} one")
    return info


def make_env(game, args, base_opponents):
    """The training env: ``args.n_envs`` games, shaped with ``args.shaping`` if non-zero,
    seated as ``args.seating`` says."""
    seatings = None
    if args.seating == "arena":
        seatings = schedule(2, len(set(game.teams(args.players))))
    return SelfPlayVecEnv(
        game,
        args.n_envs,
        args.players,
        base_opponents or None,
        seed=args.seed,
        shaping=scaled_potential(game.name, args.shaping),
        shaping_gamma=PPO_SETTINGS["gamma"],
        seatings=seatings,
        learner_sides=args.learner_sides,
    )


def parse_stages(specs, timesteps):
    """``[(opponent specs, timesteps)]`` from ``POOL[:STEPS]`` items; an item without
    ``:STEPS`` gets ``timesteps``. ``POOL`` is comma-separated agent specs
    (:func:`agents.registry.split_specs`) and ``self``."""
    stages = []
    for spec in specs:
        pool, steps = split_steps(spec)
        try:
            stages.append((split_specs(pool), int(steps) if steps else timesteps))
        except ValueError:
            raise ValueError(f"--opponents {spec!r}: STEPS must be an integer") from None
    return stages


def split_steps(spec) -> tuple[str, str | None]:
    """``POOL[:STEPS]`` as (POOL, STEPS or None). The part after the last colon is STEPS
    unless it belongs to the last agent's spec: its parameters (``heuristic:weights=tuned``)
    or the class of a module or file agent (``package.module:Name``, ``file.py:Name``)."""
    pool, colon, steps = spec.rpartition(":")
    if not colon or "=" in steps:
        return spec, None
    last = split_specs(pool)[-1]
    names_a_class = ":" not in last and last not in ("self", *agent_names())
    if steps.isidentifier() and names_a_class:
        return spec, None
    return pool, steps


def check_opponents(args, game_name):
    """Build every stage's pool and the evaluations' opponents once, so that a bad spec
    stops the run before anything trains; a ValueError names the spec and what is wrong."""
    for names, _ in args.stages:
        agents = [name for name in names if name != "self"]
        if agents:
            try:
                make_opponents(",".join(agents), game_name, args.seed, args.players)
            except ValueError as error:
                raise ValueError(f"--opponents {','.join(names)}: {error}") from None
    try:
        make_opponents(args.eval_opponents, game_name, num_players=args.players)
    except ValueError as error:
        raise ValueError(f"--eval-opponents {args.eval_opponents}: {error}") from None


def maskable_ppo(env, n_steps, seed, policy_kwargs, init_policy=None, **settings):
    """A MaskablePPO model on ``env`` with the project's settings (``PPO_SETTINGS``, updated
    by ``settings``); with ``init_policy``, shaped like it and starting from its weights (actor
    and critic) instead of ``policy_kwargs``."""
    from sb3_contrib import MaskablePPO

    from agents.ppo import policy_kwargs_like

    if init_policy is not None:
        policy_kwargs = policy_kwargs_like(init_policy)
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=n_steps,
        seed=seed,
        device="cpu",
        policy_kwargs=policy_kwargs,
        verbose=0,
        **{**PPO_SETTINGS, **settings},
    )
    if init_policy is not None:
        model.policy.load_state_dict(init_policy.state_dict())
    return model


def build_model(env, args, init_policy):
    """The run's MaskablePPO model on ``env`` (:func:`maskable_ppo`)."""
    settings = {
        "learning_rate": args.learning_rate,
        "ent_coef": args.ent_coef,
        "target_kl": args.target_kl,
        "n_epochs": args.n_epochs,
        "gae_lambda": args.gae_lambda,
    }
    policy_kwargs = {"net_arch": NET_ARCH}
    return maskable_ppo(env, args.n_steps, args.seed, policy_kwargs, init_policy, **settings)


def set_actor_trainable(policy, trainable):
    """Freeze or unfreeze the actor (policy layers and logits); the critic always trains.

    A warm start whose value head never learned (an imitation run's) first fits its critic
    with the actor frozen, so the first policy updates follow real advantages."""
    for module in (policy.mlp_extractor.policy_net, policy.action_net):
        module.requires_grad_(trainable)


def main(argv=None):
    import torch
    from stable_baselines3.common.logger import configure
    from stable_baselines3.common.vec_env import VecMonitor

    from agents.ppo import load_policy

    args = parse_args(argv)
    torch.set_num_threads(args.threads)
    game = heist_envs.get_game(args.game)
    init_policy = None
    if args.init:
        init_policy = load_policy(args.init)  # checked by parse_args
    args.out.mkdir(parents=True, exist_ok=True)
    eval_log = args.out / "eval.csv"
    eval_log.unlink(missing_ok=True)
    (args.out / "arena_curve.csv").unlink(missing_ok=True)
    env = make_env(game, args, [])
    pool = SelfPlay(env, [], args.pool_size, False, args.seed)
    model = build_model(VecMonitor(env), args, init_policy)
    model.set_logger(configure(str(args.out), ["csv"]))
    start = time.perf_counter()
    callback = make_callback(args, env, pool, eval_log, args.out)
    stages = [(args.stages[0][0], args.critic_warmup, False)] if args.critic_warmup else []
    stages += [(names, steps, True) for names, steps in args.stages]
    for k, (names, steps, train_actor) in enumerate(stages):
        set_actor_trainable(model.policy, train_actor)
        agents = [n for n in names if n != "self"]
        seed = args.seed + 100 * k
        base = make_opponents(",".join(agents), game.name, seed, args.players) if agents else []
        pool.base, pool.use_snapshots = base, "self" in names
        if pool.use_snapshots and not pool.snapshots:
            pool.snapshot(model)
        env.set_opponents(base + pool.snapshots[-1:])
        what = "steps" if train_actor else "steps (critic only)"
        print(f"stage {k + 1}/{len(stages)}: {steps} {what} against {','.join(names)}")
        model.learn(steps, callback=callback, progress_bar=True, reset_num_timesteps=k == 0)
    train_seconds = time.perf_counter() - start
    result = evaluate_and_log(
        model, args, eval_log, model.num_timesteps, start, len(pool.snapshots)
    )
    shaping = {"shaping": args.shaping} if args.shaping else {}
    init = {"init": str(args.init)} if args.init else {}
    save_checkpoint(
        model,
        args.out / "final",
        game.name,
        args.players,
        **shaping,
        **init,
        **side_metadata(args),
        opponents=[f"{','.join(names)}:{steps}" for names, steps in args.stages],
        seed=args.seed,
        seating=args.seating,
        learning_rate=args.learning_rate,
        ent_coef=args.ent_coef,
        target_kl=args.target_kl,
        n_steps=args.n_steps,
        n_epochs=args.n_epochs,
        gae_lambda=args.gae_lambda,
        timesteps=model.num_timesteps,
        train_seconds=round(train_seconds, 1),
        env_share=round(env.env_seconds / train_seconds, 3),
        **{f"win_rate_vs_{args.eval_opponents.replace(',', '_')}": result},
    )
    plot_learning_curve(
        eval_log,
        args.out / "learning_curve.png",
        f"{game.title}, {args.players}p",
        args.eval_opponents,
        "timesteps",
        "timesteps",
    )
    if args.arena_games:
        title = f"{game.title}, {args.players}p: head to head against {args.arena_against}"
        log, plot = args.out / "arena_curve.csv", args.out / "arena_curve.png"
        arena_curve.plot(log, plot, title, args.arena_against)
    print(
        f"trained {model.num_timesteps} steps in {train_seconds:.0f} s "
        f"({model.num_timesteps / train_seconds:.0f} steps/s; env share "
        f"{env.env_seconds / train_seconds:.1%}); saved {args.out / 'final.zip'}"
    )
    return model


if __name__ == "__main__":
    main()
