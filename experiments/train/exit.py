"""Expert iteration: a per-seat network learns the moves and outcomes of the search it guides.

heist train --method exit --game GAME [--players N] [--iterations 10] [--simulations 16]

Each iteration plays ``--games-per-iteration`` games at once, every seat's decision (where
it has a choice) searched by the batched search (:class:`agents.batch_search.BatchSearch`,
its leaves scored in one forward pass of the network, :class:`agents.network.NetworkEvaluator`,
``--mix`` of the value from rollouts), all the games' decisions of a turn in one batch. The
search's visit distribution at each decision (with ``--selection gumbel``, its improved
policy) is the policy head's target (cross-entropy), each seat's final return, relative to
the seat that decided, the value head's (mean squared error); the network trains on the
last ``--window`` iterations' decisions and guides the next iteration's search (Anthony,
Tian and Barber 2017; AlphaZero). After each iteration the network alone is scored against
``--eval-opponents`` (:func:`experiments.train.evaluate.win_rate`), its checkpoint saved in
``checkpoints/iter_I.zip`` and its row written to ``exit.csv``; ``learning_curve.png`` draws
them. Every checkpoint plays as the ``ppo`` agent (its policy head) and guides the search
as ``ismcts:network=PATH``. Ctrl-C keeps the last finished iteration and says where.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np

import heist_envs
from agents.batch_search import MAX_BATCH, MAX_NODES, MAX_SIMULATIONS, BatchSearch
from agents.ppo import ACTIVATIONS
from experiments.common import plot_learning_curve, run_iterations
from experiments.train.checks import Parser, check_learning_rate, check_least, check_share
from experiments.train.evaluate import make_opponents, win_rate
from experiments.train.imitation import hidden_sizes
from heist_envs.core.game import RUNNING

LEAST = {
    "iterations": 1,
    "games_per_iteration": 1,
    "simulations": 1,
    "epochs": 1,
    "batch_size": 1,
    "window": 1,
    "eval_games": 1,
    "threads": 1,
}
FIELDS = [
    "iteration",
    "games",
    "new_decisions",
    "decisions",
    "policy_loss",
    "value_loss",
    "win_rate",
    "ci_low",
    "ci_high",
    "win_rate_by_side",
    "search_s",
    "elapsed_s",
    "cpu_s",
]


def parse_args(argv):
    parser = Parser(prog="heist train --method exit", description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True, choices=heist_envs.game_names())
    parser.add_argument("--players", type=int, default=None, help="default: the game's")
    parser.add_argument("--iterations", type=int, default=10)
    parser.add_argument(
        "--games-per-iteration", type=int, default=64, help=f"played at once (1 to {MAX_BATCH})"
    )
    parser.add_argument("--simulations", type=int, default=16, help="per searched decision")
    parser.add_argument("--selection", default="gumbel", choices=["puct", "gumbel"])
    parser.add_argument(
        "--mix", type=float, default=0.0, help="the rollouts' share of the leaves' values"
    )
    parser.add_argument("--epochs", type=int, default=4, help="passes over the data per iteration")
    parser.add_argument("--batch-size", type=int, default=256)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--value-weight", type=float, default=1.0, help="of the value loss")
    parser.add_argument("--window", type=int, default=4, help="iterations of decisions trained on")
    parser.add_argument("--net-arch", default="128,128", help="hidden layer sizes")
    parser.add_argument("--activation", default="relu", choices=sorted(ACTIVATIONS))
    parser.add_argument(
        "--init",
        default=None,
        help="start from this checkpoint: a run's, or a policy's (a new value head per seat)",
    )
    parser.add_argument(
        "--eval-opponents",
        default="heuristic",
        help="comma-separated agents the network alone is scored against after each iteration",
    )
    parser.add_argument("--eval-games", type=int, default=200, help="per iteration")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1, help="torch threads")
    parser.add_argument("--out", default=None, help="output folder (default runs/<game>_exit)")
    args = parser.parse_args(argv)
    game = heist_envs.get_game(args.game)
    args.game = game.name
    args.out = Path(args.out or f"runs/{game.name}_exit")
    try:
        args.players = game.check_players(args.players)
        check_least(args, LEAST)
        check_searches(args.games_per_iteration, args.simulations)
        check_learning_rate("lr", args.lr)
        check_share("mix", args.mix)
        if not args.value_weight >= 0:
            raise ValueError(f"--value-weight must be at least 0, got {args.value_weight:g}")
        args.net_arch = hidden_sizes(args.net_arch)
        make_opponents(args.eval_opponents, game.name, num_players=args.players)
        if args.init:
            from agents.network import load_network

            load_network(args.init, game.name, args.players, policy_start=True)
    except ValueError as error:
        parser.error(str(error))
    return args


def check_searches(games, simulations):
    """A ValueError unless ``games`` searches of ``simulations`` fit one batch."""
    if games > MAX_BATCH:
        raise ValueError(f"--games-per-iteration must be 1 to {MAX_BATCH}, got {games}")
    if simulations > MAX_SIMULATIONS:
        raise ValueError(f"--simulations must be 1 to {MAX_SIMULATIONS:,}, got {simulations}")
    if games * (simulations + 1) > MAX_NODES:
        raise ValueError(
            f"--games-per-iteration {games} of --simulations {simulations} need "
            f"{games * (simulations + 1):,} tree nodes; at most {MAX_NODES:,} (games × "
            "(simulations + 1))"
        )


class Decisions:
    """The searched decisions kept for training, an array each: the decider's observation,
    legal mask, the search's policy and every seat's return relative to the decider; one
    block per iteration, the last ``window`` kept."""

    def __init__(self, window):
        self.window, self.blocks = window, []

    def add(self, block):
        self.blocks = [*self.blocks, block][-self.window :]

    def __len__(self):
        return sum(len(block[0]) for block in self.blocks)

    def arrays(self):
        return [np.concatenate(parts) for parts in zip(*self.blocks, strict=True)]


def self_play(game, num_players, games, search, seed):
    """Play ``games`` games at once, every decision with a choice searched by ``search``
    (all the games' decisions of a turn in one batch); returns the decisions' (observations,
    masks, policies, values) and the seconds spent searching."""
    entry, num_seats = game.entry, game.num_seats(num_players)
    states = np.repeat(game.kernel_view(game.new_state(num_players, seed)), games)
    masks = np.zeros((games, game.num_actions), np.int8)
    obs = np.zeros(game.obs_size, game.obs_dtype)
    running = np.ones(games, bool)
    for i in range(games):
        _, status = entry.restart(states[i : i + 1], seed + i, masks[i], obs)
        running[i] = status == RUNNING
    taken = [[] for _ in range(games)]  # (observation, mask, policy, decider) of each game
    searching = 0.0
    while running.any():
        live = np.flatnonzero(running)
        chosen = live[masks[live].sum(1) > 1]
        actions = {int(i): int(np.flatnonzero(masks[i])[0]) for i in live}
        if len(chosen):
            started = time.perf_counter()
            result = search.search(states[chosen])
            searching += time.perf_counter() - started
            targets = result.policy if result.improved is None else result.improved
            for j, i in enumerate(chosen):
                actor = int(states[i]["actor"])
                seen = np.zeros(game.obs_size, game.obs_dtype)
                entry.observe(states[i : i + 1], actor, seen)
                taken[i].append((seen, masks[i].copy(), targets[j], actor))
                actions[int(i)] = int(result.actions[j])
        for i, action in actions.items():
            _, status = entry.advance(states[i : i + 1], action, masks[i])
            running[i] = status == RUNNING
    returns = np.zeros(num_seats, np.float32)
    rows = []
    for i in range(games):
        entry.returns(states[i : i + 1], returns)
        for seen, mask, target, actor in taken[i]:
            rows.append((seen, mask, target, returns[(actor + np.arange(num_seats)) % num_seats]))
    obs_rows, mask_rows, policies, values = (np.stack(part) for part in zip(*rows, strict=True))
    return (obs_rows, mask_rows, policies.astype(np.float32), values), searching


def fit(net, optimizer, data, epochs, batch_size, value_weight, seed):
    """Train ``net`` on ``data`` (:class:`Decisions`): cross-entropy to the search's policy,
    ``value_weight`` × mean squared error to the returns; returns the last epoch's mean
    policy and value losses."""
    import torch

    obs, masks, policies, values = (torch.as_tensor(a) for a in data.arrays())
    masks = masks.bool()
    generator = torch.Generator().manual_seed(seed)
    net.train()
    for _ in range(epochs):
        order = torch.randperm(len(obs), generator=generator)
        totals, seen = np.zeros(2), 0
        for start in range(0, len(obs), batch_size):
            rows = order[start : start + batch_size]
            logits, predicted = net(obs[rows], masks[rows])
            log_probs = torch.log_softmax(logits, -1)
            policy_loss = -(policies[rows] * log_probs).sum(-1).mean()
            value_loss = ((predicted.reshape(len(rows), -1) - values[rows]) ** 2).mean()
            optimizer.zero_grad()
            (policy_loss + value_weight * value_loss).backward()
            optimizer.step()
            totals += len(rows) * np.array([policy_loss.item(), value_loss.item()])
            seen += len(rows)
    net.eval()
    return totals / seen


class ExitRun:
    """One expert-iteration run of :func:`main`'s ``args``: the network, its optimiser, the
    decisions kept and the clocks."""

    def __init__(self, args):
        import torch

        from agents.batch_search import RolloutEvaluator
        from agents.network import NetworkEvaluator, PolicyValueNet, load_network

        self.args = args
        self.game = game = heist_envs.get_game(args.game)
        seats = game.num_seats(args.players)
        if args.init:
            self.net, _ = load_network(args.init, game.name, args.players, policy_start=True)
        else:
            self.net = PolicyValueNet(
                game.obs_size, game.num_actions, args.net_arch, args.activation, value_seats=seats
            )
        self.net.eval()
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=args.lr)
        rollouts = RolloutEvaluator(game) if args.mix > 0 else None
        evaluator = NetworkEvaluator(self.net, args.mix, rollouts)
        self.search = BatchSearch(game, evaluator, args.simulations, args.selection, seed=args.seed)
        self.data = Decisions(args.window)
        self.wall, self.cpu = time.perf_counter(), time.process_time()

    def iteration(self, i):
        """Play and search a batch of games, train on the decisions kept, score the network
        alone; returns its row of ``exit.csv``, the score and a line that reports them."""
        args, game = self.args, self.game
        block, searching = self_play(
            game,
            args.players,
            args.games_per_iteration,
            self.search,
            args.seed + 1_000_003 * (i + 1),
        )
        self.data.add(block)
        policy_loss, value_loss = fit(
            self.net,
            self.optimizer,
            self.data,
            args.epochs,
            args.batch_size,
            args.value_weight,
            args.seed + i,
        )
        seed = args.seed + 7919 * (i + 1)
        opponents = make_opponents(args.eval_opponents, game.name, seed, args.players)
        result = win_rate(self.net, game.name, args.players, opponents, args.eval_games, seed)
        row = {
            "iteration": i,
            "games": args.games_per_iteration * (i + 1),
            "new_decisions": len(block[0]),
            "decisions": len(self.data),
            "policy_loss": round(float(policy_loss), 4),
            "value_loss": round(float(value_loss), 4),
            "win_rate": round(result["win_rate"], 4),
            "ci_low": round(result["ci_low"], 4),
            "ci_high": round(result["ci_high"], 4),
            "win_rate_by_side": " ".join(
                f"{k}={v['win_rate']:.3f}" for k, v in result["by_side"].items()
            ),
            "search_s": round(searching, 1),
            "elapsed_s": round(time.perf_counter() - self.wall, 1),
            "cpu_s": round(time.process_time() - self.cpu, 1),
        }
        report = (
            f"iteration {i}: {len(block[0])} searched decisions ({searching:.0f} s searching), "
            f"policy loss {policy_loss:.3f}, value loss {value_loss:.3f}; network alone vs "
            f"{args.eval_opponents} {row['win_rate']:.3f} [{row['ci_low']:.3f}, "
            f"{row['ci_high']:.3f}]; {row['elapsed_s']:.0f} s"
        )
        return row, result, report

    def save(self, path, **extra):
        """Save the network with the run's metadata; returns its path."""
        from agents.network import save_network

        args = self.args
        return save_network(
            self.net,
            path,
            self.game.name,
            args.players,
            method="exit",
            simulations=args.simulations,
            selection=args.selection,
            mix=args.mix,
            games_per_iteration=args.games_per_iteration,
            net_arch=self.net.hidden,
            init=args.init,
            train_seconds=round(time.perf_counter() - self.wall, 1),
            cpu_seconds=round(time.process_time() - self.cpu, 1),
            eval_opponents=args.eval_opponents,
            **extra,
        )


def plot_curve(args, log):
    """Draw ``log`` (``exit.csv``) as ``learning_curve.png``; returns its path."""
    path = args.out / "learning_curve.png"
    title = f"{args.game}, {args.players} players: expert iteration, network alone"
    plot_learning_curve(log, path, title, args.eval_opponents, "games", "self-play games")
    return path


def main(argv=None):
    import torch

    args = parse_args(argv)
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    args.out.mkdir(parents=True, exist_ok=True)
    log = args.out / "exit.csv"
    run = ExitRun(args)

    def keep(i, result):
        return run.save(args.out / "checkpoints" / f"iter_{i}", iteration=i, win_rate=result)

    def finish(result):
        plot_curve(args, log)
        path = run.save(args.out / "final", iteration=args.iterations - 1, win_rate=result)
        print(f"trained {args.iterations} iterations in {duration(run)}; saved {path}")
        return result

    result = run_iterations(
        args.iterations, log, FIELDS, run.iteration, keep, finish, "the network",
        lambda: plot_curve(args, log),
    )  # fmt: skip
    return run.net, result


def duration(run) -> str:
    return f"{time.perf_counter() - run.wall:.0f} s ({time.process_time() - run.cpu:.0f} s CPU)"


if __name__ == "__main__":
    main()
