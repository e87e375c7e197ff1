"""PPO with action masks, written for the batched engine: ``heist train --backend torch``.

    heist train --backend torch --game GAME --out runs/GAME

The algorithm of sb3-contrib's MaskablePPO (illegal actions' logits masked, the clipped
objective, a value loss, an entropy bonus, GAE across episode ends, advantages normalised per
minibatch, gradients clipped), in one file in CleanRL's manner, fed from the engine's arrays:
a rollout is ``--n-steps`` rounds over ``--n-envs`` games, each round one forward pass of the
network over every game's observation and one step of the self-play games
(:meth:`heist_envs.core.single_agent.SelfPlayGames.step_arrays`: no Python per game), into
buffers allocated once. What makes it fast (measured in docs/training/index.md): one trunk for
the policy and the value (:mod:`agents.network`) computed in bfloat16, two passes
over a rollout in minibatches of 4,096 at a step size of 3e-3 where MaskablePPO makes ten in
minibatches of 1,024 at 3e-4, and collection without autograd.

It takes the SB3 trainer's flags (:mod:`experiments.train.sb3`) and plays the same opponents
the same way: training stages of opponent pools (compiled heuristics, tuned or file weights,
``ppo`` policies, any agent, and ``self``: snapshots of the network), ``--seating arena``,
``--side``, shaping, evaluations and the head-to-head curve, ``--init`` and
``--critic-warmup`` (with one trunk, the warm-up trains the value head alone). It writes the
same files to ``--out``: ``eval.csv``, ``checkpoints/``, ``final.zip`` with its ``.json``,
``learning_curve.png`` and ``arena_curve.*``, the checkpoints in the layout the ``ppo`` agent
plays; ``progress.csv`` logs each update, and ``final.json`` says where the time went
(``seconds``: each of :data:`PHASES`, and the evaluations). Its own flags: ``--batch-size``
(the minibatch), ``--net-arch``, ``--activation``, ``--precision`` and ``--device`` (``cuda``
on a GPU).
"""

from __future__ import annotations

import copy
import time

import heist_envs
from agents.network import PolicyValueNet, sample, save_network
from agents.ppo import ACTIVATIONS, DEFAULT_ACTIVATION, checkpoint_info, read_weights
from experiments.common import Interrupted, append_csv
from experiments.train import sb3
from experiments.train.evaluate import make_opponents

#: The learner's defaults where they differ from the SB3 trainer's (``sb3.PPO_SETTINGS``, SB3's
#: tanh): two passes over a rollout in minibatches of 4,096 with a step size ten times as large
#: (MaskablePPO makes ten in minibatches of 1,024), ReLU units and the trunk in bfloat16, each
#: measured to learn more per minute (docs/training/index.md)
DEFAULTS = {
    "n_epochs": 2,
    "batch_size": 4096,
    "learning_rate": 3e-3,
    "activation": "relu",
    "precision": "bfloat16",
}
#: MaskablePPO's defaults for what neither trainer takes a flag for
CLIP_RANGE = 0.2
VF_COEF = 0.5
MAX_GRAD_NORM = 0.5
ADAM_EPS = 1e-5
#: Where a second of learning goes: stepping the games and opponents, the network's forward
#: passes while collecting, the advantages, the update's forward pass (with its loss), its
#: backward pass (with the gradient clipping), the optimiser's step, and the rest (Python)
PHASES = (
    "env",
    "collect_forward",
    "advantages",
    "update_forward",
    "update_backward",
    "optimizer",
    "python",
)


class Rollout:
    """The buffers of one rollout, allocated once: ``steps`` rounds of ``num_envs`` games
    (observations in the dtype the network's first layer reads)."""

    def __init__(self, steps, num_envs, obs_size, num_actions, obs_dtype, device):
        import torch

        def zeros(*shape, dtype=torch.float32):
            return torch.zeros((steps, num_envs, *shape), dtype=dtype, device=device)

        self.obs = zeros(obs_size, dtype=obs_dtype)
        self.masks = zeros(num_actions, dtype=torch.bool)
        self.actions = zeros(dtype=torch.int64)
        self.log_probs = zeros()
        self.values = zeros()
        self.rewards = zeros()
        self.ends = zeros(dtype=torch.bool)  # the episode ended with this step


def advantages(rewards, values, ends, last_values, gamma, gae_lambda):
    """GAE over a rollout (``[steps, games]`` tensors): returns (advantages, returns).

    ``ends[t]`` marks the steps that ended an episode (a truncated game too: it ends with
    reward 0, no value to bootstrap): nothing after them is credited to them. The rollout's
    last step is bootstrapped with ``last_values``, the values of the observations after it.
    """
    import torch

    result = torch.zeros_like(rewards)
    next_values, next_advantage = last_values, torch.zeros_like(last_values)
    for t in reversed(range(len(rewards))):
        going_on = (~ends[t]).float()
        delta = rewards[t] + gamma * next_values * going_on - values[t]
        next_advantage = delta + gamma * gae_lambda * going_on * next_advantage
        result[t] = next_advantage
        next_values = values[t]
    return result, result + values


def ppo_loss(net, obs, masks, actions, old_log_probs, advantages, returns, ent_coef):
    """The loss of one minibatch (MaskablePPO's: clipped surrogate, ``VF_COEF`` times the
    values' squared error, less ``ent_coef`` times the entropy of the masked policy, the
    advantages normalised over the minibatch), and its figures as tensors."""
    import torch

    logits, values = net(obs, masks)
    log_policy = logits.log_softmax(-1)
    log_probs = log_policy.gather(-1, actions[:, None]).squeeze(-1)
    entropy = -(log_policy.exp() * log_policy).sum(-1).mean()
    advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-8)
    log_ratio = log_probs - old_log_probs
    ratio = log_ratio.exp()
    clipped = ratio.clamp(1 - CLIP_RANGE, 1 + CLIP_RANGE)
    policy_loss = -torch.min(advantages * ratio, advantages * clipped).mean()
    value_loss = torch.nn.functional.mse_loss(values, returns)
    loss = policy_loss + VF_COEF * value_loss - ent_coef * entropy
    with torch.no_grad():
        figures = {
            "policy_loss": policy_loss.detach(),
            "value_loss": value_loss.detach(),
            "entropy": entropy.detach(),
            "approx_kl": ((ratio - 1) - log_ratio).mean(),
            "clip_fraction": ((ratio - 1).abs() > CLIP_RANGE).float().mean(),
        }
    return loss, figures


class Learner:
    """The network, its optimiser and its rollout buffers over the self-play games ``env``;
    ``policy`` and ``predict`` as the trainers' tools ask of a model (the snapshot pool,
    the evaluations)."""

    def __init__(self, env, net, args):
        import torch

        self.torch = torch
        self.env, self.policy, self.args = env, net, args
        self.device = torch.device(args.device)
        self.optimizer = torch.optim.Adam(net.parameters(), lr=args.learning_rate, eps=ADAM_EPS)
        game = env.game
        self.rollout = Rollout(
            args.n_steps, env.num_envs, game.obs_size, game.num_actions, net.obs_dtype, self.device
        )
        self.generator = torch.Generator(self.device).manual_seed(args.seed)
        self.obs = torch.from_numpy(env.games.obs)  # views of the engine's arrays
        self.masks = torch.from_numpy(env.games.masks)
        self.num_timesteps = 0
        self.seconds = dict.fromkeys(PHASES, 0.0)
        self.kept = None  # (steps, weights) after the last finished update

    def predict(self, obs, action_masks, deterministic=True):
        return self.policy.predict(obs, action_masks, deterministic)

    def set_actor_trainable(self, trainable):
        """Freeze or unfreeze the trunk and the policy head; the value head always trains."""
        for module in (self.policy.trunk, self.policy.policy_head):
            module.requires_grad_(trainable)

    def keep(self):
        """Remember the weights as they are now, trained on every step so far."""
        self.kept = (self.num_timesteps, copy.deepcopy(self.policy.state_dict()))

    def collect(self):
        """Play one rollout into the buffers; returns the values of the observations after
        it."""
        torch, rollout, net = self.torch, self.rollout, self.policy
        clock, env_before = time.perf_counter, self.env.env_seconds
        forward = 0.0
        net.eval()
        with torch.inference_mode():
            for t in range(self.args.n_steps):
                start = clock()
                obs, masks = rollout.obs[t], rollout.masks[t]
                obs.copy_(self.obs)
                masks.copy_(self.masks)
                logits, values = net(obs, masks)
                actions = sample(logits, self.generator)
                rollout.actions[t] = actions
                rollout.values[t] = values
                rollout.log_probs[t] = logits.log_softmax(-1).gather(-1, actions[:, None])[:, 0]
                forward += clock() - start
                rewards, dones = self.env.step_arrays(actions.cpu().numpy())
                rollout.rewards[t].copy_(torch.from_numpy(rewards))
                rollout.ends[t].copy_(torch.from_numpy(dones))
            start = clock()
            _, last_values = net(self.obs.to(self.device), self.masks.to(self.device).bool())
            forward += clock() - start
        self.num_timesteps += self.args.n_steps * self.env.num_envs
        self.seconds["collect_forward"] += forward
        self.seconds["env"] += self.env.env_seconds - env_before
        return last_values

    def update(self, last_values) -> dict:
        """``--n-epochs`` passes over the rollout in minibatches of ``--batch-size`` (fewer
        when the policy moved past ``--target-kl``); returns the update's mean figures."""
        torch, rollout, net, args = self.torch, self.rollout, self.policy, self.args
        clock = time.perf_counter
        start = clock()
        gamma = sb3.PPO_SETTINGS["gamma"]
        advantage, returns = advantages(
            rollout.rewards, rollout.values, rollout.ends, last_values, gamma, args.gae_lambda
        )
        self.seconds["advantages"] += clock() - start
        net.train()
        sums, batches = {}, 0
        for batch in self.minibatches(advantage, returns):
            start = clock()
            loss, figures = ppo_loss(net, *batch, args.ent_coef)
            middle = clock()
            if args.target_kl is not None and figures["approx_kl"] > 1.5 * args.target_kl:
                break  # as SB3 stops: before the step that would move the policy further
            self.optimizer.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), MAX_GRAD_NORM)
            end = clock()
            self.optimizer.step()
            self.seconds["update_forward"] += middle - start
            self.seconds["update_backward"] += end - middle
            self.seconds["optimizer"] += clock() - end
            for name, value in figures.items():
                sums[name] = sums.get(name, 0.0) + float(value)
            batches += 1
        self.keep()
        values, returns = rollout.values.flatten(), returns.flatten()
        explained = 1 - float((returns - values).var() / returns.var().clamp_min(1e-12))
        means = {name: total / max(batches, 1) for name, total in sums.items()}
        return {**means, "explained_variance": explained, "minibatches": batches}

    def minibatches(self, advantage, returns):
        """The rollout's steps, ``--n-epochs`` times over in a fresh random order, in
        minibatches of ``--batch-size``: (obs, masks, actions, log_probs, advantages,
        returns) each."""
        rollout, args = self.rollout, self.args
        flat = [
            rollout.obs.flatten(0, 1),
            rollout.masks.flatten(0, 1),
            rollout.actions.flatten(),
            rollout.log_probs.flatten(),
            advantage.flatten(),
            returns.flatten(),
        ]
        size = len(flat[0])
        for _ in range(args.n_epochs):
            order = self.torch.randperm(size, generator=self.generator, device=self.device)
            for first in range(0, size, args.batch_size):
                rows = order[first : first + args.batch_size]
                yield [part.index_select(0, rows) for part in flat]  # faster than part[rows]

    def learn(self, steps, after_collect=None, after_update=None):
        """Collect and update until ``steps`` more steps are played (whole rollouts);
        ``after_collect()`` runs after each rollout is played and before its update (where
        SB3's callbacks see its last step), ``after_update(figures)`` after the update."""
        if self.num_timesteps == 0:
            self.env.reset()  # the first deals, with the first stage's opponents
        goal = self.num_timesteps + steps
        while self.num_timesteps < goal:
            last_values = self.collect()
            if after_collect:
                after_collect()
            figures = self.update(last_values)
            if after_update:
                after_update(figures)


def make_parser():
    """The SB3 trainer's flags, with this learner's defaults, and its own."""
    parser = sb3.make_parser()
    parser.description = __doc__.split("\n\n")[0]
    parser.set_defaults(n_epochs=DEFAULTS["n_epochs"], learning_rate=DEFAULTS["learning_rate"])
    parser.add_argument(
        "--batch-size",
        type=int,
        default=None,
        help="the minibatch: steps per gradient step, at most a rollout (--n-envs x --n-steps; "
        f"default {DEFAULTS['batch_size']:,} or a rollout if less)",
    )
    parser.add_argument(
        "--net-arch",
        default=",".join(str(width) for width in sb3.NET_ARCH),
        help="widths of the trunk's layers, comma-separated (with --init: the checkpoint's)",
    )
    parser.add_argument(
        "--activation",
        default=DEFAULTS["activation"],
        choices=sorted(ACTIVATIONS),
        help="the trunk's activation (with --init: the checkpoint's)",
    )
    parser.add_argument(
        "--precision",
        default=DEFAULTS["precision"],
        choices=("bfloat16", "float32"),
        help="of the trunk's arithmetic (its weights, the heads and the loss stay float32): "
        "bfloat16 makes the first layer about three times as fast on CPUs with AVX-512 BF16; "
        "float32 for CPUs without",
    )
    parser.add_argument(
        "--init-critic",
        default="keep",
        choices=("keep", "trunk"),
        help="with --init of a policy whose critic has layers of its own (any MaskablePPO "
        "run's): keep that critic, its layers and value head (keep), or put a fresh value "
        "head on the actor's trunk, as one network (trunk); the learner's own checkpoints "
        "come back as they were saved",
    )
    parser.add_argument("--device", default="cpu", help="torch device: cpu, or cuda on a GPU")
    return parser


def parse_args(argv):
    """The SB3 trainer's flags checked as it checks them, and this learner's own; a bad value
    stops the command with a line naming the flag and what it may be."""
    import torch

    parser = make_parser()
    args = sb3.parse_args(argv, parser)
    rollout = args.n_envs * args.n_steps
    if args.batch_size is None:
        args.batch_size = min(DEFAULTS["batch_size"], rollout)
    widths = args.net_arch.split(",")
    checks = (  # sb3.parse_args checked the flags the two trainers share
        (
            1 <= args.batch_size <= rollout,
            f"--batch-size must be 1 to {rollout:,} (a rollout: --n-envs {args.n_envs} x "
            f"--n-steps {args.n_steps}), got {args.batch_size}",
        ),
        (
            all(width.isdigit() and int(width) >= 1 for width in widths),
            f"--net-arch must be layer widths of at least 1, comma-separated (e.g. 128,128), "
            f"got {args.net_arch}",
        ),
    )
    for ok, message in checks:
        if not ok:
            parser.error(message)
    args.net_arch = [int(width) for width in widths]
    try:
        torch.empty(0, device=args.device)
    except (AssertionError, RuntimeError, ValueError) as error:  # no CUDA: AssertionError
        reason = str(error).splitlines()[0]
        parser.error(f"--device {args.device}: {reason} (cpu, or cuda where torch sees a GPU)")
    return args


def initial_network(args, game):
    """A fresh network, or with ``--init`` the checkpoint's (its shape and activation; its
    value head too where it was one of this learner's; a MaskablePPO policy's critic, its own
    layers and value head, with ``--init-critic keep``, else a fresh value head on the trunk;
    said on stdout)."""
    low_precision = args.precision == "bfloat16"
    if not args.init:
        return PolicyValueNet(
            game.obs_size, game.num_actions, args.net_arch, args.activation, low_precision
        )
    info = checkpoint_info(args.init)  # checked by parse_args
    activation = info.get("activation", DEFAULT_ACTIVATION).lower()
    weights = read_weights(args.init, info.get("policy_only"))
    keep = args.init_critic == "keep"
    net, with_value = PolicyValueNet.from_sb3_weights(
        weights, activation, low_precision, keep_critic=keep
    )
    if net.critic is not None:
        print(f"--init {args.init}: its critic keeps layers of its own ({net.critic_hidden})")
    elif not with_value:
        print(
            f"--init {args.init}: its critic is not its actor's trunk, so the value head starts "
            "fresh (--critic-warmup STEPS trains it first)"
        )
    return net


def metadata(args) -> dict:
    """What the checkpoints say of how they were trained: the SB3 trainer's metadata and this
    learner's own settings."""
    return {
        **sb3.run_metadata(args),
        "trainer": "torch_ppo",
        "batch_size": args.batch_size,
        "precision": args.precision,
        "init_critic": args.init_critic,
    }


class Run:
    """One training run: the learner, its opponent pool and its schedule of snapshots,
    evaluations and checkpoints."""

    def __init__(self, args):
        import torch

        self.args = args
        self.game = heist_envs.get_game(args.game)
        torch.manual_seed(args.seed)
        torch.set_num_threads(args.threads)
        self.env = sb3.make_env(self.game, args, [])
        net = initial_network(args, self.game).to(args.device)
        self.learner = Learner(self.env, net, args)
        self.pool = sb3.SelfPlay(self.env, [], args.pool_size, False, args.seed)
        self.eval_log = args.out / "eval.csv"
        self.next_snapshot, self.next_eval = args.snapshot_every, args.eval_every
        self.evaluation_seconds = 0.0  # with their checkpoints and head-to-head games
        self.start = time.perf_counter()
        self.evaluations = sb3.Evaluations(args, self.eval_log, self.start)

    def stages(self):
        """(pool, steps, whether the actor trains): the critic's warm-up first, if asked."""
        args = self.args
        first = [(args.stages[0][0], args.critic_warmup, False)] if args.critic_warmup else []
        return first + [(names, steps, True) for names, steps in args.stages]

    def start_stage(self, k, names, train_actor):
        """Seat stage ``k``'s pool (agent specs and ``self``) and freeze the actor or not."""
        args, pool = self.args, self.pool
        self.learner.set_actor_trainable(train_actor)
        agents = ",".join(name for name in names if name != "self")
        seed = args.seed + 100 * k
        pool.base = make_opponents(agents, self.game.name, seed, args.players) if agents else []
        pool.use_snapshots = "self" in names
        if pool.use_snapshots and not pool.snapshots:
            pool.snapshot(self.learner)
        self.env.set_opponents(pool.base + pool.snapshots[-1:])

    def train(self):
        self.evaluate()  # the curve's first point
        stages = self.stages()
        for k, (names, steps, train_actor) in enumerate(stages):
            self.start_stage(k, names, train_actor)
            what = "steps" if train_actor else "steps (critic only)"
            print(f"stage {k + 1}/{len(stages)}: {steps} {what} against {','.join(names)}")
            self.play_stage(f"stage {k + 1}/{len(stages)}", steps)

    def play_stage(self, label, steps):
        """Learn ``steps`` steps against the pool as seated, on schedule, with a progress
        bar."""
        from tqdm import tqdm

        learner, start = self.learner, self.learner.num_timesteps
        with tqdm(total=steps, desc=label, unit="step") as bar:

            def after_collect():
                bar.update(min(learner.num_timesteps - start, steps) - bar.n)
                self.on_schedule()

            def after_update(figures):
                self.log_update(figures)
                self.pool.draw_opponents()

            self.pool.draw_opponents()
            learner.learn(steps, after_collect, after_update)

    def log_update(self, figures):
        elapsed = time.perf_counter() - self.start
        steps = self.learner.num_timesteps
        row = {"timesteps": steps, "elapsed_s": round(elapsed, 2)}
        row |= {"steps_per_second": round(steps / elapsed)}
        row |= {name: round(value, 5) for name, value in figures.items()}
        append_csv(self.args.out / "progress.csv", row)

    def on_schedule(self):
        """Snapshot, evaluate and save a checkpoint when their steps come."""
        args, steps = self.args, self.learner.num_timesteps
        if steps >= self.next_snapshot:
            self.next_snapshot += args.snapshot_every
            self.pool.snapshot(self.learner)
        if steps >= self.next_eval:
            self.next_eval += args.eval_every
            start = time.perf_counter()
            self.evaluate()
            checkpoint = args.out / "checkpoints" / f"step_{steps}.zip"
            save_network(self.learner.policy, checkpoint, args.game, args.players,
                         timesteps=steps, **sb3.side_metadata(args))  # fmt: skip
            if args.arena_games:
                sb3.score_head_to_head(args, checkpoint, steps, args.out / "arena_curve.csv")
            self.evaluation_seconds += time.perf_counter() - start

    def evaluate(self):
        steps, pool = self.learner.num_timesteps, len(self.pool.snapshots)
        return self.evaluations(self.learner, steps, pool)

    def finish(self):
        """Evaluate, save ``final.zip`` and draw the curves."""
        args, learner = self.args, self.learner
        train_seconds = time.perf_counter() - self.start
        result = self.evaluate()
        seconds = {**learner.seconds, "evaluations": self.evaluation_seconds}
        seconds["python"] = train_seconds - sum(seconds.values())
        save_network(
            learner.policy,
            args.out / "final",
            args.game,
            args.players,
            **metadata(args),
            timesteps=learner.num_timesteps,
            train_seconds=round(train_seconds, 1),
            env_share=round(seconds["env"] / train_seconds, 3),
            seconds={phase: round(value, 2) for phase, value in seconds.items()},
            **{f"win_rate_vs_{args.eval_opponents.replace(',', '_')}": result},
        )
        sb3.plot_curves(args, self.game, self.eval_log)
        steps = learner.num_timesteps
        print(
            f"trained {steps} steps in {train_seconds:.0f} s ({steps / train_seconds:.0f} "
            f"steps/s; env share {seconds['env'] / train_seconds:.1%}); saved "
            f"{args.out / 'final.zip'}"
        )

    def keep_interrupted(self) -> str:
        """After Ctrl-C: save the weights of the last finished update as ``interrupted.zip``
        and draw the curves of the evaluations so far; returns the line that says where."""
        if self.learner.kept is None:
            return "nothing was trained yet, nothing kept"
        steps, weights = self.learner.kept
        self.learner.policy.load_state_dict(weights)
        path = save_network(
            self.learner.policy,
            self.args.out / "interrupted",
            self.args.game,
            self.args.players,
            **metadata(self.args),
            timesteps=steps,
            interrupted=True,
        )
        return sb3.kept_line(path, steps, self.args, self.game, self.eval_log)


def main(argv=None):
    args = parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for stale in (
        "eval.csv",
        "progress.csv",
        "arena_curve.csv",
        "interrupted.zip",
        "interrupted.json",
    ):
        (args.out / stale).unlink(missing_ok=True)
    run = Run(args)
    try:
        run.train()
        run.finish()
    except KeyboardInterrupt:
        raise Interrupted(run.keep_interrupted()) from None
    return run.learner


if __name__ == "__main__":
    main()
