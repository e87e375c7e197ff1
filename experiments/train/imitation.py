"""Train a MaskablePPO policy by imitating a teacher (the heuristic, or ISMCTS) with DAgger.

    python -m experiments.train.imitation --game GAME --iterations 7 \\
        --games-per-iteration 4000 --out runs/GAME_dagger

DAgger (Ross, Gordon and Bagnell 2011) against the drift that sinks one-shot behaviour
cloning: each iteration plays games in which the learner side (one side per game, the sides in
turn; the other seats play at random unless ``--opponents`` says otherwise) is driven by a
mixture of teacher and student, labels every decision of the learner side with the teacher's
choice, adds them to the data set of all iterations so far, and retrains the student on it.
Iteration ``i`` lets the teacher choose with probability ``beta_i = beta ** i`` at each
decision (iteration 0 is plain behaviour cloning), so later iterations visit the states the
student itself reaches and teach it to recover from its own mistakes.

The teacher is the game's heuristic (:func:`agents.profiles.make_heuristic`) unless
``--teacher`` names another agent as the arena does: ``--teacher ismcts:simulations=300``
distills a search (expert iteration's distillation step: the label is the set of moves its root
visited most, from the learner's information set; with ``--soft-labels``, the share of the
root's visits each move got, as AlphaZero trains its policy). Where the game's training
defaults give the heuristic's scoring function (``teacher_scores`` of
:class:`agents.profiles.TrainingDefaults`), the label is the set of actions it ranks best (its
ties are broken at random, so any of them is the teacher's move), else the action it plays. The
student is the policy network of a ``MaskablePPO`` model built as :mod:`experiments.train.sb3`
builds it (``--net-arch`` and ``--activation`` aside: the defaults, two ReLU layers of 512, fit
the heuristic far better than the sb3 trainer's 128 tanh units), or ``--init``'s network, trained by
cross-entropy on its masked logits: ``-log`` of the probability it gives the best set (or, with
soft labels, the cross-entropy of the visit shares), with Adam, warm-started from the previous
iteration. Decisions with one legal action are played but not stored. The value head stays
untrained; a later PPO fine-tune would have to fit it. ``--opponents heuristic`` seats the
heuristic (unlabelled) at the other seats, the tables a policy meets when it is scored against
the heuristic; ``--side`` (one of the game's ``side_names``, where its sides play different
roles) has the student play, and be scored on, that side's seats alone, for a policy of that side
(``<policy>-<side>.zip``, as the ``ppo`` agent's side policies are shipped); ``--workers``
collects and labels games in several processes, which a search teacher needs (it labels ~150
decisions a second a core). After each iteration the student plays ``--eval-games``
seat-rotated games against ``--eval-opponents`` (default: the heuristic), the learning curve.

The data, not the fit, limits the student: a plain MLP on the one-hot observation matches
93% of its training decisions but fewer of the new ones its own play reaches, so the defaults
use many games per iteration (docs/training/research_log.md has the runs behind them).
The heuristic labels a batch of decisions in one compiled call
(:func:`agents.compiled.best_actions`), so data is cheap.

Writes to ``--out``: ``dagger.csv`` (per iteration: data size, fit loss and accuracy,
win rate against ``--eval-opponents`` per side), ``learning_curve.png``,
``checkpoints/iter_<i>.zip`` and ``final.zip`` (+ ``.json``
metadata, as :func:`agents.ppo.save_checkpoint` writes it), which ``experiments.train.evaluate``,
``agents.ppo.PPOAgent`` and ``agents.ppo.export_policy`` read like any trained checkpoint.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np

import heist_envs
from agents.base import InfoSet
from agents.compiled import TIE, best_actions
from agents.ppo import ACTIVATIONS, masked_logits, save_checkpoint
from agents.profiles import make_heuristic, profile
from experiments.common import plot_learning_curve, run_iterations
from experiments.train.checks import (
    Parser,
    check_init,
    check_learning_rate,
    check_least,
    check_share,
    learner_sides,
)
from experiments.train.evaluate import make_opponents, win_rate
from experiments.train.sb3 import maskable_ppo
from heist_envs.core.sb3_vec import SelfPlayVecEnv
from heist_envs.core.single_agent import PolicyOpponent, RandomOpponent
from heist_envs.core.vector import VectorGames


class Teacher:
    """Labels decisions with the best actions of a teacher agent: the game's heuristic, or any
    agent spec the arena takes, e.g. ``ismcts:simulations=1000`` (its most visited moves, or
    with ``soft`` the share of its root visits each move got)."""

    def __init__(
        self,
        game_name,
        spec="heuristic",
        seed=0,
        num_players=None,
        soft=False,
        heuristic_alone=False,
    ):
        from agents.arena import parse_entrant

        self.game = heist_envs.get_game(game_name)
        self.agent = parse_entrant(spec).build(self.game.name, seed, num_players)
        scores = profile(self.game.name).training.teacher_scores
        self.scores = scores if spec == "heuristic" else None
        # The same labels from the compiled heuristic, a batch at a time.
        self.compiled = best_actions(self.game.name) if self.scores is not None else None
        if soft and not hasattr(self.agent, "visit_counts"):
            raise ValueError(f"soft labels need a search teacher (ismcts:...), not {spec!r}")
        self.soft = soft
        self.heuristic_phases = ()
        if heuristic_alone:
            if not hasattr(self.agent, "visit_counts"):
                raise ValueError(
                    "--heuristic-alone splits the labels between the heuristic and a search "
                    f"teacher (ismcts:...), not {spec!r}"
                )
            rollout = profile(self.game.name).rollout
            self.heuristic_phases = getattr(rollout, "PRIOR_ALONE_PHASES", ())
            if not self.heuristic_phases:
                raise ValueError(
                    f"--heuristic-alone: {self.game.name} names no phases "
                    "(PRIOR_ALONE_PHASES) for the heuristic to label alone"
                )
            self.compiled = best_actions(self.game.name)

    def best_rows(self, obs, masks, info_sets) -> np.ndarray:
        """:meth:`best` of each row of ``obs`` and ``masks`` (``info_sets(k)``: row k's
        information set), in one compiled call where the compiled heuristic labels; with
        ``heuristic_alone``, the heuristic labels the rows in its phases (with ``soft``, an
        equal share to each of its best moves) and the search the rest."""
        if not self.heuristic_phases:
            if self.compiled is not None:
                return self.compiled(obs, masks)
            return np.stack([self.best(obs[k], masks[k], info_sets(k)) for k in range(len(obs))])
        best = self.compiled(obs, masks)
        if self.soft:
            best = (best / best.sum(axis=1, keepdims=True)).astype(np.float32)
        for k in range(len(obs)):
            info_set = info_sets(k)
            if info_set.kernel_state()[0]["phase"] not in self.heuristic_phases:
                best[k] = self.best(obs[k], masks[k], info_set)
        return best

    def best(self, obs, mask, info_set) -> np.ndarray:
        """A bool row over the actions: the ones the teacher ranks best (one or tied); with
        ``soft``, a float32 row: the share of the search's root visits each action got."""
        best = np.zeros(len(mask), np.bool_)
        if self.scores is not None:
            legal, scores = self.scores(obs, mask)
            best[legal[scores >= scores.max() - TIE]] = True
        elif hasattr(self.agent, "visit_counts"):
            legal = np.flatnonzero(mask)
            counts = self.agent.visit_counts(legal, info_set, obs)
            if self.soft:
                shares = np.zeros(len(mask), np.float32)
                visits = np.maximum(counts, 0)  # -1: a move the search never tried
                shares[legal] = visits / visits.sum()
                return shares
            best[legal[counts == counts.max()]] = True
        else:
            best[self.agent.act(obs, mask)] = True
        return best


class Dataset:
    """Labelled decisions of ``game``: observations, legal masks and the teacher's labels
    (bool best sets, or with ``soft`` float32 shares of a search's visits)."""

    def __init__(self, game, soft=False):
        self.obs = np.zeros((0, game.obs_size), game.obs_dtype)
        self.masks = np.zeros((0, game.num_actions), np.bool_)
        self.best = np.zeros((0, game.num_actions), np.float32 if soft else np.bool_)

    def __len__(self):
        return len(self.obs)

    def extend(self, obs, masks, best):
        self.obs = np.concatenate([self.obs, np.asarray(obs, self.obs.dtype)])
        self.masks = np.concatenate([self.masks, np.asarray(masks, np.bool_)])
        self.best = np.concatenate([self.best, np.asarray(best, self.best.dtype)])


def collect(
    game,
    num_players,
    teacher,
    student=None,
    beta=1.0,
    games=100,
    num_envs=64,
    seed=0,
    opponents="random",
    sides=None,
):
    """Play ``games`` games (and finish none beyond them), one learner side per game, the
    sides in turn (or the ``sides`` listed: side indices), the other seats played by
    ``opponents``: ``"random"``, ``"heuristic"``
    (the game's heuristic, not labelled) or ``"teacher"`` (its move, and each such decision
    with a choice is labelled too); every learner decision with a choice is labelled by
    ``teacher`` (:meth:`Teacher.best`). The learner plays the teacher's move (a random one of
    its best, or of its most visited) with
    probability ``beta`` at each decision, else the ``student`` policy's most likely move.

    Returns ``(obs, masks, best, outcomes)``: the labelled decisions and, per side index,
    the learner's rewards in the games that ended.
    """
    run = LabelledGames(
        game, num_players, teacher, student, beta, games, num_envs, seed, opponents, sides
    )
    while run.active.any():
        run.step()
    return run.result()


class LabelledGames:
    """The games :func:`collect` plays (its arguments), one step of every game at a time."""

    def __init__(
        self, game, num_players, teacher, student, beta, games, num_envs, seed, opponents, sides
    ):
        self.game, self.teacher, self.beta, self.games = game, teacher, beta, games
        self.opponents = opponents
        self.rng = np.random.default_rng(seed)
        self.vg = VectorGames(game, num_envs, num_players)
        self.vg.reset(seed=seed)
        self.team_of_seat = np.array(game.teams(self.vg.num_players), np.int64)
        self.side_team = np.unique(self.team_of_seat)
        self.sides = np.arange(len(self.side_team)) if sides is None else np.asarray(sides)
        self.learner_side = self.sides[np.arange(num_envs) % len(self.sides)]
        self.started = num_envs
        self.policy = PolicyOpponent(student, deterministic=True) if student is not None else None
        self.noise = RandomOpponent(seed)
        self.heuristic = make_heuristic(game.name, seed) if opponents == "heuristic" else None
        self.obs_out, self.mask_out, self.best_out = [], [], []
        self.outcomes = {int(k): [] for k in self.sides}
        self.active = np.ones(num_envs, np.bool_)

    def label(self, rows, masks):
        """The teacher's best actions for the decisions of games ``rows`` (a row each), those
        with a choice stored."""
        vg = self.vg
        if not len(rows):
            return []

        def info_set(k):
            i = rows[k]
            return InfoSet(self.game, vg.states[i : i + 1].copy(), int(vg.actors[i]))

        row_masks = masks[rows]
        best = self.teacher.best_rows(vg.obs[rows], row_masks, info_set)
        choice = row_masks.sum(axis=1) > 1
        self.obs_out.append(vg.obs[rows[choice]])  # indexing by rows copies
        self.mask_out.append(row_masks[choice].astype(np.bool_))
        self.best_out.append(best[choice])
        return best

    def step(self):
        """One decision in every active game: the other seats', then the learner's."""
        vg = self.vg
        masks = vg.masks
        learner = self.active & (self.team_of_seat[vg.actors] == self.side_team[self.learner_side])
        actions = self.noise.act_batch(vg.obs, masks)
        self.play_others(actions, np.flatnonzero(self.active & ~learner), masks)
        self.play_learners(actions, np.flatnonzero(learner), masks)
        vg.step(actions, active=self.active)
        self.end_games()

    def play_others(self, actions, others, masks):
        """Set the moves of the other seats: the teacher's (labelled), the heuristic's, or
        the random ones already in ``actions``."""
        if self.opponents == "teacher":
            for i, best in zip(others, self.label(others, masks), strict=True):
                actions[i] = self.rng.choice(np.flatnonzero(best == best.max()))
        elif self.heuristic is not None and len(others):
            actions[others] = self.heuristic.act_batch(self.vg.obs[others], masks[others])

    def play_learners(self, actions, rows, masks):
        """Label the learner's decisions with a choice and set its moves: the teacher's with
        probability ``beta``, else the student's."""
        if not len(rows):
            return
        choice = masks[rows].sum(axis=1) > 1
        teach = self.rng.random(len(rows)) < self.beta
        if self.policy is not None and (~teach).any():
            student_rows = rows[~teach]
            actions[student_rows] = self.policy.act_batch(
                self.vg.obs[student_rows], masks[student_rows]
            )
        labelled = self.label(rows[choice], masks)
        for i, best, taught in zip(rows[choice], labelled, teach[choice], strict=True):
            if taught or self.policy is None:
                actions[i] = self.rng.choice(np.flatnonzero(best == best.max()))

    def end_games(self):
        """Record the learner's reward in each game that ended, and start the next game in
        its place while games are left to start."""
        vg = self.vg
        for i in np.flatnonzero(self.active & (vg.terminated | vg.truncated)):
            side = self.learner_side[i]
            seat = int(np.flatnonzero(self.team_of_seat == self.side_team[side])[0])
            self.outcomes[int(side)].append(float(vg.rewards[i, seat]))
            if self.started < self.games:
                self.learner_side[i] = self.sides[self.started % len(self.sides)]
                self.started += 1
            else:
                self.active[i] = False

    def result(self):
        """``(obs, masks, best, outcomes)``, as :func:`collect` returns them."""
        empty = Dataset(self.game, self.teacher.soft)
        stored = (self.obs_out, self.mask_out, self.best_out)
        parts = zip((empty.obs, empty.masks, empty.best), stored, strict=True)
        return (*(np.concatenate([first, *rest]) for first, rest in parts), self.outcomes)


def imitation_loss(logits, best):
    """Cross-entropy of the teacher's label: ``-log`` of the probability given to the best
    set (a bool row), or of each action weighted by its share (a float row)."""
    import torch

    if best.dtype == torch.bool:
        return (logits.logsumexp(1) - logits.masked_fill(~best, -torch.inf).logsumexp(1)).mean()
    log_p = logits.log_softmax(1).masked_fill(best == 0, 0.0)  # illegal: -inf, share 0
    return -(best * log_p).sum(1).mean()


def fit(policy, data, epochs=4, batch_size=512, optimizer=None, lr=1e-3, seed=0):
    """Train the actor of ``policy`` on ``data`` for ``epochs`` passes; returns the optimizer
    (to carry over iterations) and the last epoch's mean loss and accuracy (the share of
    decisions whose most likely legal action is among the teacher's best, or most visited)."""
    import torch

    if optimizer is None:
        optimizer = torch.optim.Adam(policy.parameters(), lr=lr)
    policy.set_training_mode(True)
    rng = np.random.default_rng(seed)
    loss_sum = correct = 0.0
    for _ in range(epochs):
        loss_sum = correct = 0.0
        order = rng.permutation(len(data))
        for start in range(0, len(order), batch_size):
            idx = np.sort(order[start : start + batch_size])
            obs = torch.as_tensor(data.obs[idx], dtype=torch.float32)
            masks = torch.as_tensor(data.masks[idx])
            best = torch.as_tensor(data.best[idx])
            logits = masked_logits(policy, obs, masks)
            loss = imitation_loss(logits, best)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            with torch.no_grad():
                hit = best.gather(1, logits.argmax(1, keepdim=True)) == best.max(1, True).values
            loss_sum += float(loss.detach()) * len(idx)
            correct += float(hit.sum())
    policy.set_training_mode(False)
    n = max(len(data), 1)
    return optimizer, loss_sum / n, correct / n


def build_model(game, num_players, net_arch, seed=0, activation="relu", init_policy=None):
    """A MaskablePPO model as :mod:`experiments.train.sb3` builds it (its PPO settings and the
    game's rollout length), with ``net_arch`` hidden layers of ``activation`` units, or shaped
    like ``init_policy`` and starting from its weights."""
    import torch

    env = SelfPlayVecEnv(game, 256, num_players, seed=seed)
    policy_kwargs = {
        "net_arch": list(net_arch),
        "activation_fn": getattr(torch.nn, ACTIVATIONS[activation]),
    }
    n_steps = profile(game.name).training.n_steps
    return maskable_ppo(env, n_steps, seed, policy_kwargs, init_policy)


def _collect_share(game_name, teacher_spec, teacher_options, seed, kwargs):
    """One share of :func:`collect`, with a teacher seeded from the share's own seed: the pool
    hands shares to whichever process is free, so a teacher kept from an earlier share (its
    random state moved on) would make the data depend on that order. A search's compiled code
    is kept per process (:func:`agents.ismcts.compiled_search`), so a new teacher is cheap."""
    teacher = Teacher(game_name, teacher_spec, seed, kwargs["num_players"], **teacher_options)
    return collect(heist_envs.get_game(game_name), teacher=teacher, seed=seed, **kwargs)


def _init_worker():
    """A collecting process: one torch thread, and Ctrl-C left to the parent, which ends it."""
    import signal

    import torch

    torch.set_num_threads(1)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def collect_parallel(
    pool, workers, game, teacher_spec, games, seed, teacher_options=None, **kwargs
):
    """:func:`collect` split over ``workers`` processes of ``pool`` (``None``: in this one),
    each playing its share of the ``games`` from its own seed, its teacher built with
    ``teacher_options`` (:class:`Teacher`'s keywords); the results concatenated."""
    shares = [games // workers + (k < games % workers) for k in range(workers)]
    jobs = [
        (game.name, teacher_spec, teacher_options or {}, seed + 7 * k, {**kwargs, "games": n})
        for k, n in enumerate(shares)
        if n
    ]
    if pool is None:
        parts = [_collect_share(*job) for job in jobs]
    else:
        parts = pool.starmap(_collect_share, jobs)
    outcomes = {side: [r for part in parts for r in part[3][side]] for side in parts[0][3]}
    return (*(np.concatenate([part[k] for part in parts]) for k in range(3)), outcomes)


#: The least value of each whole-number flag.
LEAST = {
    "iterations": 1,
    "games_per_iteration": 1,
    "epochs": 1,
    "batch_size": 1,
    "eval_games": 1,
    "num_envs": 1,
    "workers": 1,
    "threads": 1,
}
FIELDS = [
    "iteration",
    "beta",
    "games",
    "new_decisions",
    "decisions",
    "collect_win_rate",
    "loss",
    "accuracy",
    "win_rate",
    "ci_low",
    "ci_high",
    "win_rate_by_side",
    "elapsed_s",
    "cpu_s",
]


def parse_args(argv):
    parser = Parser(
        prog="python -m experiments.train.imitation", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--game", required=True, choices=heist_envs.game_names())
    parser.add_argument("--players", type=int, default=None, help="default: the game's")
    parser.add_argument("--iterations", type=int, default=7, help="DAgger iterations")
    parser.add_argument("--games-per-iteration", type=int, default=4000)
    parser.add_argument("--beta", type=float, default=0.5, help="teacher share decays as beta**i")
    parser.add_argument("--epochs", type=int, default=3, help="passes over the data per iteration")
    parser.add_argument("--batch-size", type=int, default=512)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--net-arch", default="512,512", help="hidden layer sizes")
    parser.add_argument("--activation", default="relu", choices=sorted(ACTIVATIONS))
    parser.add_argument(
        "--teacher",
        default="heuristic",
        help="the agent whose choices are imitated, as the arena names agents: heuristic, "
        "or a search such as ismcts:simulations=1000 (its most visited moves)",
    )
    parser.add_argument(
        "--soft-labels",
        action="store_true",
        help="a search teacher's label is the share of its root visits each move got, not "
        "its most visited moves",
    )
    parser.add_argument(
        "--heuristic-alone",
        action="store_true",
        help="with a search teacher, the heuristic labels the phases the game's search leaves "
        "to a policy (its rollout module's PRIOR_ALONE_PHASES) and the search the rest",
    )
    parser.add_argument(
        "--init", default=None, help="start the student from this checkpoint's weights"
    )
    parser.add_argument(
        "--opponents",
        default="random",
        choices=["random", "heuristic", "teacher"],
        help="who plays the other seats while collecting (the teacher's decisions are labelled)",
    )
    parser.add_argument(
        "--eval-opponents",
        default="heuristic",
        help="comma-separated agents the student is scored against after each iteration",
    )
    parser.add_argument(
        "--side",
        default=None,
        help="in a game whose sides play different roles (its side names), imitate this "
        "side alone: the student plays and is scored on its seats only",
    )
    parser.add_argument("--eval-games", type=int, default=200, help="per iteration")
    parser.add_argument("--num-envs", type=int, default=64, help="games played at once")
    parser.add_argument(
        "--workers", type=int, default=1, help="processes that collect (and label) games"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1, help="torch threads")
    parser.add_argument("--out", default=None, help="output folder (default runs/<game>_dagger)")
    args = parser.parse_args(argv)
    game = heist_envs.get_game(args.game)
    args.game = game.name
    args.out = Path(args.out or f"runs/{game.name}_dagger")
    try:
        args.players = game.check_players(args.players)
        check_least(args, LEAST)
        check_learning_rate("lr", args.lr)
        check_share("beta", args.beta)
        args.net_arch = hidden_sizes(args.net_arch)
        args.learner_sides = learner_sides(game, args.side)
        Teacher(game.name, args.teacher, args.seed, args.players, **teacher_keywords(args))
        make_opponents(args.eval_opponents, game.name, num_players=args.players)
        if args.init:
            check_init(args.init, game.name)
    except ValueError as error:
        parser.error(str(error))
    return args


def hidden_sizes(text) -> list[int]:
    """``--net-arch``'s layer sizes (``512,512``); a ValueError says what it takes."""
    try:
        sizes = [int(n) for n in text.split(",")]
    except ValueError:
        sizes = []
    if not sizes or min(sizes) < 1:
        raise ValueError(
            f"--net-arch takes hidden layer sizes of 1 or more like 512,512, got {text!r}"
        )
    return sizes


def teacher_keywords(args):
    """:class:`Teacher`'s keywords from the command line."""
    return {"soft": args.soft_labels, "heuristic_alone": args.heuristic_alone}


def worker_pool(workers):
    """A pool of ``workers`` processes that collect games, or None for one (this process)."""
    import multiprocessing

    if workers == 1:
        return None
    return multiprocessing.get_context("fork").Pool(workers, initializer=_init_worker)


class DaggerRun:
    """One imitation run of :func:`main`'s ``args``: the student, the decisions labelled so
    far, the collecting processes and the clocks."""

    def __init__(self, args):
        from agents.ppo import load_policy

        self.args = args
        self.game = heist_envs.get_game(args.game)
        self.init_policy = load_policy(args.init) if args.init else None
        self.model = build_model(
            self.game, args.players, args.net_arch, args.seed, args.activation, self.init_policy
        )
        self.policy = self.model.policy
        self.data = Dataset(self.game, args.soft_labels)
        self.optimizer = None
        self.wall, self.cpu = time.perf_counter(), time.process_time()
        self.pool = worker_pool(args.workers)

    def iteration(self, i):
        """Collect and label games, refit the student on all the data, score it; returns its
        row of ``dagger.csv``, the score (:func:`~experiments.train.evaluate.win_rate`) and a
        line that reports them."""
        args, game = self.args, self.game
        beta = args.beta**i
        student = self.policy if i or self.init_policy is not None else None
        obs, masks, best, outcomes = collect_parallel(
            self.pool,
            args.workers,
            game,
            args.teacher,
            args.games_per_iteration,
            args.seed + 1_000_003 * (i + 1),
            teacher_options=teacher_keywords(args),
            num_players=args.players,
            student=student,
            beta=beta,
            num_envs=args.num_envs,
            opponents=args.opponents,
            sides=args.learner_sides,
        )
        self.data.extend(obs, masks, best)
        self.optimizer, loss, accuracy = fit(
            self.policy,
            self.data,
            args.epochs,
            args.batch_size,
            self.optimizer,
            args.lr,
            args.seed + i,
        )
        seed = args.seed + 7919 * (i + 1)
        opponents = make_opponents(args.eval_opponents, game.name, seed, args.players)
        result = win_rate(
            self.policy,
            game.name,
            args.players,
            opponents,
            args.eval_games,
            seed,
            learner_sides=args.learner_sides,
        )
        ended = [r for side in outcomes.values() for r in side]
        row = {
            "iteration": i,
            "beta": round(beta, 4),
            "games": args.games_per_iteration,
            "new_decisions": len(obs),
            "decisions": len(self.data),
            "collect_win_rate": round(float(np.mean(np.array(ended) > 0)), 4),
            "loss": round(loss, 4),
            "accuracy": round(accuracy, 4),
            "win_rate": round(result["win_rate"], 4),
            "ci_low": round(result["ci_low"], 4),
            "ci_high": round(result["ci_high"], 4),
            "win_rate_by_side": " ".join(
                f"{k}={v['win_rate']:.3f}" for k, v in result["by_side"].items()
            ),
            "elapsed_s": round(time.perf_counter() - self.wall, 1),
            "cpu_s": round(time.process_time() - self.cpu, 1),
        }
        report = (
            f"iteration {i} (beta {beta:.3f}): {len(self.data)} decisions, loss {loss:.3f}, "
            f"accuracy {accuracy:.3f}; vs {args.eval_opponents} {row['win_rate']:.3f} "
            f"[{row['ci_low']:.3f}, {row['ci_high']:.3f}] ({row['win_rate_by_side']}); "
            f"{row['elapsed_s']:.0f} s"
        )
        return row, result, report

    def save_final(self, result):
        """Save ``final.zip`` with the run's metadata and report it; returns its path."""
        from agents.ppo import net_arch

        args = self.args
        train_seconds = time.perf_counter() - self.wall
        cpu_seconds = time.process_time() - self.cpu
        path = save_checkpoint(
            self.model,
            args.out / "final",
            self.game.name,
            args.players,
            method="dagger",
            teacher=args.teacher,
            soft_labels=args.soft_labels,
            heuristic_alone=args.heuristic_alone,
            init=args.init,
            opponents=args.opponents,
            iterations=args.iterations,
            games_per_iteration=args.games_per_iteration,
            beta=args.beta,
            epochs=args.epochs,
            net_arch=net_arch(self.policy.state_dict()),
            decisions=len(self.data),
            workers=args.workers,
            train_seconds=round(train_seconds, 1),
            cpu_seconds=round(cpu_seconds, 1),
            eval_opponents=args.eval_opponents,
            win_rate=result,
            **({"side": args.side} if args.side else {}),
        )
        print(
            f"trained {args.iterations} iterations on {len(self.data)} decisions in "
            f"{train_seconds:.0f} s ({cpu_seconds:.0f} s CPU in this process); saved {path}"
        )
        return path


def plot_curve(args, log):
    """Draw ``log`` (``dagger.csv``) as ``learning_curve.png``; returns its path."""
    path = args.out / "learning_curve.png"
    title = f"{args.game}, {args.players} players: imitating {args.teacher}"
    plot_learning_curve(log, path, title, args.eval_opponents, "decisions", "labelled decisions")
    return path


def main(argv=None):
    import torch

    args = parse_args(argv)
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    args.out.mkdir(parents=True, exist_ok=True)
    log = args.out / "dagger.csv"
    run = DaggerRun(args)

    def keep(i, result):
        checkpoint = args.out / "checkpoints" / f"iter_{i}"
        return save_checkpoint(run.model, checkpoint, run.game.name, args.players)

    def finish(result):
        plot_curve(args, log)
        run.save_final(result)
        return result

    try:
        result = run_iterations(
            args.iterations, log, FIELDS, run.iteration, keep, finish, "the student",
            lambda: plot_curve(args, log),
        )  # fmt: skip
    finally:
        if run.pool is not None:
            run.pool.terminate()  # idle after a finished run; collecting after Ctrl-C
    return run.model, result


if __name__ == "__main__":
    main()
