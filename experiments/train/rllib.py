"""Self-play training on Ray RLlib: multi-agent PPO with action masking against a league.

    heist train --backend rllib --game GAME --iterations 50 --out runs/rllib_GAME
    heist train --backend rllib --game GAME --address HEAD_IP:6379 --env-runners 16 ...

Without ``--address`` Ray starts on this machine; with it the run joins a running cluster
(docs/distributed.md). Each episode one side learns (its seats play the trained policy) and
the other seats play an opponent drawn from the league: the trained policy itself, a frozen
snapshot of it (one every ``--snapshot-every`` iterations, the last ``--pool-size`` kept) or
the heuristic agent. Every ``--eval-every`` iterations (and at the end) the run saves a
checkpoint and plays it against the heuristic in the arena.

Writes to ``--out``: ``metrics.csv`` (one row per iteration), ``eval.csv`` (win rate vs the
heuristic with its 95% interval), ``checkpoints/iter_NNNN`` (RLlib checkpoints, each with the
weights-only export that ``make_agent("rllib", game, checkpoint=...)`` plays without
unpickling: ``heist.json`` and ``weights/<module>.pt``), ``final`` (the last one) and
``learning_curve.png``. Needs the ``rllib`` extra.
"""

from __future__ import annotations

import random
import re
import shutil
import socket
import sys
import threading
import time
import zlib
from dataclasses import dataclass, replace
from pathlib import Path

import heist_envs
from experiments.common import Interrupted, append_csv, plot_learning_curve
from experiments.train.checks import Parser, check_learning_rate, check_least

#: the league's non-trained opponent: the game's heuristic agent (agents.profiles)
HEURISTIC = "heuristic"
SNAPSHOT = re.compile(r"_it\d+$")  # a snapshot's module id ends in its iteration tag
#: the least value of each integer flag (a pool of 0 snapshots: the league has none)
LEAST = {
    "iterations": 1,
    "env_runners": 0,
    "batch_size": 1,
    "minibatch_size": 1,
    "epochs": 1,
    "pool_size": 0,
    "snapshot_every": 1,
    "eval_every": 1,
    "eval_games": 1,
}
ADDRESS = re.compile(r"^(auto|(ray://)?[\w.-]+:\d{1,5})$")


@dataclass(frozen=True)
class League:
    """RLlib's agent-to-module mapping: who plays each seat in an episode.

    Drawn once per episode from its id (every agent of the episode sees the same draw): the
    learning side, and the opponent of the other seats, uniformly among the trained policy
    itself (``"self"``), each snapshot tag and the heuristic. A seat of the learning side
    plays its trained policy; another seat plays its policy's snapshot, the heuristic, or
    (``"self"``) its trained policy too.
    """

    agents: tuple[str, ...]
    seat_policies: tuple[str, ...]
    teams: tuple[int, ...]
    snapshots: tuple[str, ...] = ()

    def __call__(self, agent_id, episode, **kwargs):
        rng = random.Random(zlib.crc32(str(episode.id_).encode()))
        learning_team = rng.choice(sorted(set(self.teams)))
        opponent = rng.choice(("self", HEURISTIC, *self.snapshots))
        seat = self.agents.index(agent_id)
        policy = self.seat_policies[seat]
        if self.teams[seat] == learning_team or opponent == "self":
            return policy
        return HEURISTIC if opponent == HEURISTIC else snapshot_id(policy, opponent)


def snapshot_id(policy, tag) -> str:
    return f"{policy}_{tag}"


def opponent_kind(module_id) -> str | None:
    """``"heuristic"`` or ``"snapshot"`` for a league opponent's module, None for a trained one."""
    if module_id == HEURISTIC:
        return HEURISTIC
    return "snapshot" if SNAPSHOT.search(module_id) else None


def league_metrics_callback():
    """The RLlib callback class that logs, per opponent kind, the learning side's mean reward
    in the episodes it played against it (``reward_vs_heuristic``, ``reward_vs_snapshot``);
    self-play episodes, where every seat learns, say nothing about strength and are skipped."""
    from ray.rllib.callbacks.callbacks import RLlibCallback

    class LeagueMetrics(RLlibCallback):
        def on_episode_end(self, *, episode, metrics_logger=None, **kwargs):
            modules = {agent: episode.module_for(agent) for agent in episode.agent_episodes}
            kinds = {opponent_kind(m) for m in modules.values()} - {None}
            if not kinds:
                return
            learners = [a for a, m in modules.items() if opponent_kind(m) is None]
            reward = sum(episode.agent_episodes[a].get_return() for a in learners) / len(learners)
            metrics_logger.log_value(f"reward_vs_{kinds.pop()}", reward, reduce="mean", window=200)

    return LeagueMetrics


def parse_args(argv):
    parser = Parser(prog="heist train --backend rllib", description=__doc__.splitlines()[0])
    parser.add_argument("--game", required=True, help=", ".join(heist_envs.game_names()))
    parser.add_argument("--players", type=int, default=None, help="default: the game's")
    parser.add_argument("--iterations", type=int, default=20, help="training iterations")
    parser.add_argument("--env-runners", type=int, default=1, help="sampling actors (default 1)")
    parser.add_argument("--address", default=None, help="join this Ray cluster (HOST:PORT)")
    parser.add_argument("--batch-size", type=int, default=4000, help="env steps per iteration")
    parser.add_argument("--minibatch-size", type=int, default=256)
    parser.add_argument("--epochs", type=int, default=4, help="PPO epochs per iteration")
    parser.add_argument("--hidden", default="128,128", help="hidden layer sizes")
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--pool-size", type=int, default=5, help="snapshots kept in the league")
    parser.add_argument("--snapshot-every", type=int, default=5, help="iterations")
    parser.add_argument("--eval-every", type=int, default=10, help="iterations")
    parser.add_argument("--eval-games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=None, help="output folder (default runs/rllib_<game>)")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    args = parser.parse_args(argv)
    game = heist_envs.get_game(args.game)
    args.game = game.name
    args.players = game.check_players(args.players)
    check_least(args, LEAST)
    check_learning_rate("lr", args.lr)
    try:
        args.hidden = [int(size) for size in args.hidden.split(",")]
    except ValueError:
        raise ValueError(f"--hidden takes sizes like 128,128, got {args.hidden!r}") from None
    if args.address is not None and not ADDRESS.match(args.address):
        raise ValueError(
            f"--address takes HOST:PORT (e.g. 10.0.0.1:6379) or auto, got {args.address!r}"
        )
    args.out = Path(args.out or f"runs/rllib_{game.name}")
    return args


def start_ray(address, connect_timeout_s=5.0, join_timeout_s=20.0):
    """Join the cluster at ``address``, or start Ray on this machine (None). A cluster that
    does not answer is a one-line ValueError within seconds, not a hang: nothing listening
    fails the connection check, and a service that never completes Ray's handshake fails
    after ``join_timeout_s``."""
    if address and address != "auto":
        host, _, port = address.removeprefix("ray://").rpartition(":")
        try:
            socket.create_connection((host, int(port)), timeout=connect_timeout_s).close()
        except OSError as error:
            raise ValueError(
                f"no Ray cluster answers at {address} ({error.strerror or error}); start one "
                "with `ray start --head` (docs/distributed.md)"
            ) from None
    import ray

    failure = []

    def join():
        try:
            ray.init(address=address, include_dashboard=False, logging_level="error")
        except (ConnectionError, RuntimeError, TimeoutError, ValueError) as error:
            failure.append(str(error).strip(" '\"\n").splitlines() or [type(error).__name__])

    if not address:
        join()  # starts Ray's processes, which end with the thread that started them
    else:
        joining = threading.Thread(target=join, daemon=True)
        joining.start()
        joining.join(join_timeout_s)
        if joining.is_alive():
            raise ValueError(
                f"{address} does not answer as a Ray cluster within {join_timeout_s:.0f} s (a "
                "cluster with token authentication needs RAY_AUTH_MODE=token: "
                "docs/distributed.md)"
            )
    if failure:
        raise ValueError(f"cannot join the Ray cluster at {address}: {failure[0][0]}")


def build_config(args, game):
    import gymnasium as gym
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    from agents.rllib import AgentRLModule, trained_module_spec
    from heist_envs.integrations.rllib import (
        HeistMultiAgentEnv,
        observation_space,
        seat_policies,
        trained_policies,
    )

    spaces = {
        "observation_space": observation_space(game),
        "action_space": gym.spaces.Discrete(game.num_actions),
    }
    trained = trained_policies(game, args.players)
    specs = {p: trained_module_spec(game, args.hidden) for p in trained}
    specs[HEURISTIC] = RLModuleSpec(
        module_class=AgentRLModule,
        model_config={"game": game.name, "agent": HEURISTIC, "seed": args.seed},
        **spaces,
    )
    league = League(
        tuple(game.agent_names(args.players)),
        tuple(seat_policies(game, args.players)),
        tuple(game.teams(args.players)),
    )
    config = (
        PPOConfig()
        .environment(
            HeistMultiAgentEnv, env_config={"game": game.name, "num_players": args.players}
        )
        # no sample timeout: RLlib discards the episodes of a runner slower than it (60 s by
        # default; a loaded cluster node is), which left iterations with no steps counted
        .env_runners(
            num_env_runners=args.env_runners,
            rollout_fragment_length="auto",
            sample_timeout_s=None,
        )
        .multi_agent(policies=set(specs), policy_mapping_fn=league, policies_to_train=trained)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs=specs))
        .training(
            train_batch_size_per_learner=args.batch_size,
            minibatch_size=min(args.minibatch_size, args.batch_size),
            num_epochs=args.epochs,
            lr=args.lr,
            entropy_coeff=0.01,
            gamma=0.995,
        )
        .callbacks(league_metrics_callback())
        .debugging(seed=args.seed, log_level="ERROR")
    )
    return config, league, trained


def add_snapshot(algo, league, trained, iteration, pool_size) -> League:
    """Freeze the trained policies as this iteration's snapshot (dropping the oldest beyond
    ``pool_size``) and return the league that draws from the new pool."""
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    tag = f"it{iteration}"
    snapshots = (*league.snapshots, tag)[-pool_size:]
    new_league = replace(league, snapshots=snapshots)
    for policy in trained:
        module = algo.get_module(policy)
        algo.add_module(
            snapshot_id(policy, tag),
            RLModuleSpec.from_module(module),
            new_agent_to_module_mapping_fn=new_league,
            new_should_module_be_updated=trained,
        )
        algo.set_state(
            {
                "learner_group": {
                    "learner": {"rl_module": {snapshot_id(policy, tag): module.get_state()}}
                }
            }
        )
    for old in set(league.snapshots) - set(snapshots):
        for policy in trained:
            algo.remove_module(
                snapshot_id(policy, old),
                new_agent_to_module_mapping_fn=new_league,
                new_should_module_be_updated=trained,
            )
    return new_league


def learner_states(algo, trained) -> dict:
    """Each trained module's full state (the value head too) from the learner; the env
    runners hold inference-only copies."""
    components = [f"learner/rl_module/{policy}" for policy in trained]
    modules = algo.learner_group.get_state(components=components)["learner"]["rl_module"]
    return {policy: modules[policy] for policy in trained}


def evaluate(checkpoint, args, seed) -> dict:
    """The checkpoint's win rate against the heuristic in the arena, with its interval."""
    from agents.arena import Entrant, tournament

    entrant = Entrant("rllib", "rllib", {"checkpoint": str(checkpoint)})
    result = tournament(
        args.game,
        [entrant, HEURISTIC],
        games=args.eval_games,
        num_players=args.players,
        seed=seed,
        workers=1,
        progress=False,
    )
    row = result.summary[0]
    return {
        k: row[k] for k in ("games", "seat_games", "win_rate", "win_low", "win_high", "mean_reward")
    }


def metrics_row(iteration, result, trained, elapsed, league) -> dict:
    """One ``metrics.csv`` row from a training result: RLlib's counts summed over the env
    runners, the league's rewards, each seat's mean return (a shared policy's episode return
    is the sum over seats, the same every game) and each trained policy's entropy."""
    runners = result.get("env_runners", {})
    learners = result.get("learners", {})
    row = {
        "iteration": iteration,
        "elapsed_s": round(elapsed, 1),
        "iteration_s": round(result.get("time_this_iter_s", 0.0), 2),
        "env_steps": int(runners.get("num_env_steps_sampled_lifetime", 0)),
        "episodes": int(runners.get("num_episodes_lifetime", 0)),
        "episode_len_mean": round(runners.get("episode_len_mean", float("nan")), 1),
        "snapshots": len(league.snapshots),
    }
    for kind in (HEURISTIC, "snapshot"):
        row[f"reward_vs_{kind}"] = round(runners.get(f"reward_vs_{kind}", float("nan")), 4)
    seat_returns = runners.get("agent_episode_returns_mean", {})
    for agent in league.agents:
        row[f"{agent}_return_mean"] = round(float(seat_returns.get(agent, float("nan"))), 4)
    for policy in trained:
        entropy = learners.get(policy, {}).get("entropy", float("nan"))
        row[f"{policy}_entropy"] = round(float(entropy), 4)
    return row


def save_and_evaluate(algo, args, game, trained, iteration, row, evals):
    """Save a checkpoint of ``iteration`` (RLlib's own files and the weights-only export),
    play it against the heuristic, append the scores to ``evals``; returns the folder and the
    scores."""
    from agents.rllib import write_checkpoint_info, write_weights
    from heist_envs.integrations.rllib import seat_policies

    checkpoint = args.out / "checkpoints" / f"iter_{iteration:04d}"
    algo.save_to_path(checkpoint.resolve())
    write_weights(checkpoint, learner_states(algo, trained))
    write_checkpoint_info(
        checkpoint,
        game.name,
        args.players,
        seat_policies(game, args.players),
        args.hidden,
        iteration=iteration,
        env_steps=row["env_steps"],
    )
    scores = evaluate(checkpoint, args, seed=args.seed + iteration)
    append_csv(
        evals,
        {"iteration": iteration, "env_steps": row["env_steps"], "elapsed_s": row["elapsed_s"]}
        | scores,
    )
    return checkpoint, scores


def train(args):
    start_ray(args.address)  # first: a cluster that does not answer fails fast
    import ray
    from tqdm import tqdm

    game = heist_envs.get_game(args.game)
    args.out.mkdir(parents=True, exist_ok=True)
    metrics, evals = args.out / "metrics.csv", args.out / "eval.csv"
    metrics.unlink(missing_ok=True)
    evals.unlink(missing_ok=True)
    checkpoint = bar = None  # the last checkpoint saved
    try:
        config, league, trained = build_config(args, game)
        algo = config.build_algo()
        start = time.perf_counter()
        bar = tqdm(
            range(1, args.iterations + 1),
            desc=f"{game.name} (rllib)",
            unit="it",
            disable=args.no_progress,
        )
        for iteration in bar:
            result = algo.train()
            row = metrics_row(iteration, result, trained, time.perf_counter() - start, league)
            append_csv(metrics, row)
            bar.set_postfix(
                {k: v for k, v in row.items() if k.endswith("return_mean")}
                | {"steps": row["env_steps"]}
            )
            if args.pool_size and iteration % args.snapshot_every == 0:
                league = add_snapshot(algo, league, trained, iteration, args.pool_size)
            if iteration % args.eval_every == 0 or iteration == args.iterations:
                checkpoint, scores = save_and_evaluate(
                    algo, args, game, trained, iteration, row, evals
                )
                bar.write(
                    f"iteration {iteration}: win rate vs heuristic {scores['win_rate']:.3f} "
                    f"[{scores['win_low']:.3f}, {scores['win_high']:.3f}], {scores['games']} games"
                )
        algo.stop()
    except KeyboardInterrupt:
        if bar is not None:
            bar.close()
        if checkpoint is None:
            raise Interrupted(
                f"no checkpoint had been saved yet (one every --eval-every {args.eval_every} "
                "iterations), nothing kept"
            ) from None
        raise Interrupted(
            f"kept the last checkpoint, {checkpoint}, and the learning curve of its evaluations "
            f"in {evals} and {plot_curve(args, game, metrics, evals)}"
        ) from None
    finally:
        ray.shutdown()
    final = args.out / "final"
    shutil.rmtree(final, ignore_errors=True)
    shutil.copytree(checkpoint, final)
    plot_curve(args, game, metrics, evals)
    seconds = time.perf_counter() - start
    print(f"trained {args.iterations} iterations in {seconds:.0f} s; saved {final}")
    return final


def plot_curve(args, game, metrics, evals):
    """``learning_curve.png`` from the run's logs; returns its path."""
    path = args.out / "learning_curve.png"
    plot_learning_curve(
        evals,
        path,
        f"{game.title}, {args.players}p (RLlib PPO)",
        HEURISTIC,
        "env_steps",
        "env steps",
        bounds=("win_low", "win_high"),
        rewards=(
            metrics,
            {f"vs {HEURISTIC}": f"reward_vs_{HEURISTIC}", "vs snapshots": "reward_vs_snapshot"},
        ),
    )
    return path


def measure_sampling(game_name, num_players=None, runner_counts=(1, 2), steps=2000):
    """Sampling throughput of RLlib env runners on this game, for each count in
    ``runner_counts``, in one Ray session on this machine: every runner samples ``steps``
    env steps at once (after a short warm-up), timed together; then the learner's PPO update
    on those episodes is timed. Returns one dict per runner count."""
    import ray
    from ray.rllib.utils.metrics import (
        NUM_ENV_STEPS_SAMPLED_LIFETIME,
        NUM_MODULE_STEPS_TRAINED_LIFETIME,
    )

    args = parse_args(["--game", game_name, "--batch-size", str(steps)])
    args.players = heist_envs.get_game(game_name).check_players(num_players)
    game = heist_envs.get_game(args.game)
    rows = []
    start_ray(None)
    try:
        for count in runner_counts:
            args.env_runners = count
            config, _, _ = build_config(args, game)
            algo = config.build_algo()
            runners = algo.env_runner_group
            runners.foreach_env_runner(
                lambda r: r.sample(num_timesteps=200), local_env_runner=False
            )
            start = time.perf_counter()
            batches = runners.foreach_env_runner(
                lambda r: r.sample(num_timesteps=steps), local_env_runner=False
            )
            seconds = time.perf_counter() - start
            episodes = [episode for batch in batches for episode in batch]
            sampled = sum(episode.env_steps() for episode in episodes)
            start = time.perf_counter()
            algo.learner_group.update(
                episodes=episodes,
                timesteps={
                    NUM_ENV_STEPS_SAMPLED_LIFETIME: sampled,
                    NUM_MODULE_STEPS_TRAINED_LIFETIME: 0,
                },
                num_epochs=args.epochs,
                minibatch_size=args.minibatch_size,
            )
            learner_seconds = time.perf_counter() - start
            algo.stop()
            rows.append(
                {
                    "env_runners": count,
                    "steps_per_second": sampled / seconds,
                    "per_runner": sampled / seconds / count,
                    "learner_steps_per_second": sampled / learner_seconds,
                }
            )
    finally:
        ray.shutdown()
    return rows


def main(argv=None):
    try:
        args = parse_args(argv)
        return train(args)
    except ValueError as error:
        sys.exit(f"heist train --backend rllib: error: {error}")
    except ModuleNotFoundError as missing:
        sys.exit(
            f"heist train --backend rllib: {missing}; install the rllib extra: "
            'pip install -e ".[rllib]"'
        )


if __name__ == "__main__":
    main()
