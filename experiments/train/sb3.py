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
``--eval-opponents``, default the game's heuristic, with its 95% interval at every evaluation:
before training, every ``--eval-every`` steps and at the end), ``checkpoints/``, ``final.zip``
(+ ``.json`` metadata: stages, seed, init, the last evaluation) and ``learning_curve.png``;
Ctrl-C saves the policy of the last finished update as ``interrupted.zip`` instead of
``final.zip``, and draws the curve so far. ``--arena-games N`` also scores each checkpoint head to
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

import copy
import math
import random
import time
from pathlib import Path

import heist_envs
from agents.arena import schedule
from agents.ppo import save_checkpoint
from agents.profiles import profile
from agents.registry import split_specs
from experiments.common import Interrupted, append_csv, plot_learning_curve, read_csv
from experiments.train import arena_curve
from experiments.train.checks import (
    Parser,
    check_init,
    check_learning_rate,
    check_least,
    check_opponents,
    check_share,
    learner_sides,
    parse_stages,
)
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
#: The least value of each whole-number flag (0 for those where 0 turns a part off).
LEAST = {
    "timesteps": 1,
    "n_envs": 1,
    "critic_warmup": 0,
    "pool_size": 1,
    "snapshot_every": 1,
    "eval_every": 1,
    "eval_games": 1,
    "arena_games": 0,
    "n_steps": 1,
    "n_epochs": 1,
    "threads": 1,
}
#: Evaluations a run makes at least, besides the one before it trains (see ``--eval-every``).
EVAL_POINTS = 5
EVAL_EVERY = 50_000


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


def make_callback(args, env, pool, evaluations, out):
    from stable_baselines3.common.callbacks import BaseCallback

    class TrainingCallback(BaseCallback):
        """Snapshots, evaluations and checkpoints on their schedules, the stage's progress bar
        (``bar``), and ``kept``: (steps, weights) of the policy after its last finished
        update, what Ctrl-C saves (an update it stops may have changed only part of them)."""

        def __init__(self):
            super().__init__()
            self.next_snapshot = args.snapshot_every
            self.next_eval = args.eval_every
            self.bar = None
            self.kept = None

        def _on_step(self):
            steps = self.num_timesteps
            self.bar.update(self.training_env.num_envs)
            if steps >= self.next_snapshot:
                self.next_snapshot += args.snapshot_every
                pool.snapshot(self.model)
            if steps >= self.next_eval:
                self.next_eval = (steps // args.eval_every + 1) * args.eval_every
                with self.bar.external_write_mode():  # its lines print below the bar
                    self.evaluate(steps)
            return True

        def evaluate(self, steps):
            """Score the policy, log it and save it as a checkpoint."""
            evaluations(self.model, steps, len(pool.snapshots))
            checkpoint = out / "checkpoints" / f"step_{steps}.zip"
            save_checkpoint(
                self.model, checkpoint, args.game, args.players, timesteps=steps,
                **side_metadata(args),
            )  # fmt: skip
            if args.arena_games:
                score_head_to_head(args, checkpoint, steps, out / "arena_curve.csv")

        def _on_rollout_start(self):
            self.keep()
            pool.draw_opponents()

        def keep(self):
            """Remember the policy as it is now, trained on every step so far."""
            self.kept = (self.model.num_timesteps, copy.deepcopy(self.model.policy.state_dict()))

    return TrainingCallback()


def side_metadata(args) -> dict:
    """The checkpoint metadata of a one-side policy (``--side``): its side; none otherwise."""
    return {"side": args.side} if args.side else {}


class Evaluations:
    """A run's evaluations against ``--eval-opponents``, logged to ``eval_log`` (times from
    ``start``). A step's evaluation is played once: where ``--eval-every`` divides the run,
    the last one on schedule is also the final one."""

    def __init__(self, args, eval_log, start):
        self.args, self.eval_log, self.start = args, eval_log, start
        self.last = None  # (steps, result)

    def __call__(self, model, steps, pool_size):
        if self.last is None or self.last[0] != steps:
            args, log = self.args, self.eval_log
            self.last = steps, evaluate_and_log(model, args, log, steps, self.start, pool_size)
        return self.last[1]


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
    parser = Parser(prog="heist train", description=__doc__.split("\n\n")[0])
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
    parser.add_argument(
        "--eval-every",
        type=int,
        default=None,
        metavar="STEPS",
        help="steps between evaluations, each saving a checkpoint; the run is also evaluated "
        f"before it trains and at its end (default: a fifth of the run, at most {EVAL_EVERY:,} "
        "and at least one rollout)",
    )
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
    """The flags, checked, with the game's defaults (:class:`agents.profiles.TrainingDefaults`)
    where they are not given, and ``stages``: the parsed ``--opponents``. ``parser`` (default
    :func:`make_parser`'s) may add flags of another trainer's."""
    parser = parser or make_parser()
    args = parser.parse_args(argv)
    game = heist_envs.get_game(args.game)
    args.game = game.name
    game_profile = profile(game.name)
    defaults = game_profile.training
    if args.eval_opponents is None:
        args.eval_opponents = "heuristic" if game_profile.heuristic is not None else "random"
    args.arena_against = split_specs(args.eval_opponents)[0]
    try:
        args.players = game.check_players(args.players)
        check_least(args, LEAST)
        if args.n_envs * (args.n_steps or defaults.n_steps) < 2:
            raise ValueError("a rollout (--n-envs games times --n-steps) must hold 2 steps or more")
        check_learning_rate("learning_rate", args.learning_rate)
        check_share("gae_lambda", args.gae_lambda)
        if args.target_kl is not None and not args.target_kl > 0:
            raise ValueError("--target-kl must be above 0 (leave it out for no limit)")
        if args.timesteps is None:
            args.timesteps = defaults.timesteps
        args.stages = parse_stages(args.opponents or defaults.opponents, args.timesteps)
        check_opponents(args.stages, args.eval_opponents, game.name, args.seed, args.players)
        check_seating(args)
        args.learner_sides = learner_sides(game, args.side)
        if args.init:
            check_init(args.init, game.name)
    except ValueError as error:
        parser.error(str(error))
    args.n_steps = args.n_steps or defaults.n_steps
    if args.eval_every is None:  # no shorter than a rollout: the policy changes once a rollout
        steps = args.critic_warmup + sum(steps for _, steps in args.stages)
        args.eval_every = max(args.n_envs * args.n_steps, min(EVAL_EVERY, steps // EVAL_POINTS))
    args.shaping = defaults.shaping if args.shaping is None else args.shaping
    args.out = Path(args.out or f"runs/{game.name}")
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


def run_metadata(args) -> dict:
    """The metadata of the run's checkpoints that says how it was trained."""
    return {
        **({"shaping": args.shaping} if args.shaping else {}),
        **({"init": str(args.init)} if args.init else {}),
        **side_metadata(args),
        "opponents": [f"{','.join(names)}:{steps}" for names, steps in args.stages],
        "seed": args.seed,
        "seating": args.seating,
        "learning_rate": args.learning_rate,
        "ent_coef": args.ent_coef,
        "target_kl": args.target_kl,
        "n_steps": args.n_steps,
        "n_epochs": args.n_epochs,
        "gae_lambda": args.gae_lambda,
    }


def stage_line(k, stages, args) -> tuple[str, int]:
    """The line that says what stage ``k`` of ``stages`` plays (its steps, rounded up to whole
    rollouts: SB3 ends a stage at the first rollout that reaches its steps, and its pool), and
    those steps."""
    names, steps, train_actor = stages[k]
    rollout = args.n_envs * args.n_steps
    runs = math.ceil(steps / rollout) * rollout
    rounded = (
        f" ({steps:,} asked, rounded up to whole rollouts of {rollout:,}: {args.n_envs} games "
        f"x {args.n_steps} steps)"
        if runs != steps
        else ""
    )
    what = "steps" if train_actor else "steps (critic only)"
    return f"stage {k + 1}/{len(stages)}: {runs:,} {what} against {','.join(names)}{rounded}", runs


def plot_curves(args, game, eval_log):
    """``learning_curve.png`` from ``eval_log`` (and with ``--arena-games``,
    ``arena_curve.png``); returns the paths drawn."""
    curve = args.out / "learning_curve.png"
    title = f"{game.title}, {args.players}p"
    plot_learning_curve(eval_log, curve, title, args.eval_opponents, "timesteps", "timesteps")
    drawn = [curve]
    log = args.out / "arena_curve.csv"
    if args.arena_games and log.exists():
        drawn.append(args.out / "arena_curve.png")
        against = args.arena_against
        arena_curve.plot(log, drawn[-1], f"{title}: head to head against {against}", against)
    return drawn


def keep_interrupted(model, callback, args, game, eval_log) -> str:
    """After Ctrl-C: save the policy of the last finished update as ``interrupted.zip`` and
    draw the curves of the evaluations so far; returns the line that says where they are."""
    steps, weights = callback.kept or (0, None)
    if not steps:
        return "nothing was trained yet, nothing kept"
    model.policy.load_state_dict(weights)
    metadata = {"timesteps": steps, "interrupted": True, **run_metadata(args)}
    path = save_checkpoint(model, args.out / "interrupted", game.name, args.players, **metadata)
    return kept_line(path, steps, args, game, eval_log)


def kept_line(path, steps, args, game, eval_log) -> str:
    """What Ctrl-C kept: the policy after ``steps`` in ``path`` and, where there were
    evaluations, their log and the curves, drawn now."""
    kept = f"kept the policy after {steps:,} steps in {path}"
    if not eval_log.exists():  # Ctrl-C during the first evaluation
        return kept
    evaluations = len(read_csv(eval_log))
    curves = " and ".join(str(p) for p in plot_curves(args, game, eval_log))
    plural = "s" if evaluations > 1 else ""
    curve = f"the learning curve of its {evaluations} evaluation{plural} in {eval_log} and {curves}"
    return f"{kept}, and {curve}"


def main(argv=None):
    import torch
    from stable_baselines3.common.logger import configure
    from stable_baselines3.common.vec_env import VecMonitor
    from tqdm import tqdm

    from agents.ppo import load_policy

    args = parse_args(argv)
    torch.set_num_threads(args.threads)
    game = heist_envs.get_game(args.game)
    init_policy = None
    if args.init:
        init_policy = load_policy(args.init)  # checked by parse_args
    args.out.mkdir(parents=True, exist_ok=True)
    eval_log = args.out / "eval.csv"
    for stale in ("eval.csv", "arena_curve.csv", "interrupted.zip", "interrupted.json"):
        (args.out / stale).unlink(missing_ok=True)
    env = make_env(game, args, [])
    pool = SelfPlay(env, [], args.pool_size, False, args.seed)
    model = build_model(VecMonitor(env), args, init_policy)
    model.set_logger(configure(str(args.out), ["csv"]))
    start = time.perf_counter()
    evaluations = Evaluations(args, eval_log, start)
    callback = make_callback(args, env, pool, evaluations, args.out)
    stages = [(args.stages[0][0], args.critic_warmup, False)] if args.critic_warmup else []
    stages += [(names, steps, True) for names, steps in args.stages]
    try:
        evaluations(model, 0, 0)  # the curve's first point
        for k, (names, steps, train_actor) in enumerate(stages):
            set_actor_trainable(model.policy, train_actor)
            agents = [n for n in names if n != "self"]
            seed = args.seed + 100 * k
            base = make_opponents(",".join(agents), game.name, seed, args.players) if agents else []
            pool.base, pool.use_snapshots = base, "self" in names
            if pool.use_snapshots and not pool.snapshots:
                pool.snapshot(model)
            env.set_opponents(base + pool.snapshots[-1:])
            line, runs = stage_line(k, stages, args)
            print(line, flush=True)
            with tqdm(total=runs, desc=f"stage {k + 1}/{len(stages)}", unit="step") as bar:
                callback.bar = bar
                model.learn(steps, callback=callback, reset_num_timesteps=k == 0)
            callback.keep()
        train_seconds = time.perf_counter() - start
        result = evaluations(model, model.num_timesteps, len(pool.snapshots))
        save_checkpoint(
            model,
            args.out / "final",
            game.name,
            args.players,
            **run_metadata(args),
            timesteps=model.num_timesteps,
            train_seconds=round(train_seconds, 1),
            env_share=round(env.env_seconds / train_seconds, 3),
            **{f"win_rate_vs_{args.eval_opponents.replace(',', '_')}": result},
        )
        plot_curves(args, game, eval_log)
    except KeyboardInterrupt:
        raise Interrupted(keep_interrupted(model, callback, args, game, eval_log)) from None
    print(
        f"trained {model.num_timesteps} steps in {train_seconds:.0f} s "
        f"({model.num_timesteps / train_seconds:.0f} steps/s; env share "
        f"{env.env_seconds / train_seconds:.1%}); saved {args.out / 'final.zip'}"
    )
    return model


if __name__ == "__main__":
    main()
