"""Ctrl-C during `heist train`: a real SIGINT to the command's process group, as a terminal
sends it (collecting workers included), stops every trainer with one line that says what it
kept and where, exit code 130 and no traceback."""

import json
import os
import re
import signal
import subprocess
import sys
import time

import pytest

pytest.importorskip("sb3_contrib")

from agents.arena import play  # noqa: E402
from agents.base import RandomAgent  # noqa: E402
from agents.ppo import PPOAgent  # noqa: E402
from agents.registry import make_agent  # noqa: E402

BAR = re.compile(r"\d+/\d+ \[")  # a frame of a progress bar: "12/300 [00:03<..."


def rows(path) -> int:
    """The data rows of the CSV file ``path`` so far (0 before it exists)."""
    return max(len(path.read_text().splitlines()) - 1, 0) if path.exists() else 0


def interrupt(tmp_path, argv, ready, timeout=240):
    """Run ``heist train ARGV`` in a process group of its own and send the group SIGINT once
    ``ready()`` holds; returns the exit code, stdout and the lines of stderr that are not
    progress bars."""
    out, err = tmp_path / "stdout", tmp_path / "stderr"
    command = [sys.executable, "-m", "experiments.cli", "train", *argv]
    env = {**os.environ, "NUMBA_NUM_THREADS": "1"}
    with out.open("w") as stdout, err.open("w") as stderr:
        process = subprocess.Popen(
            command, stdout=stdout, stderr=stderr, env=env, start_new_session=True
        )
        deadline = time.monotonic() + timeout
        while not ready():
            assert process.poll() is None, err.read_text()
            assert time.monotonic() < deadline, "the run never got going"
            time.sleep(0.2)
        os.killpg(process.pid, signal.SIGINT)
        code = process.wait(timeout=120)
    lines = [line for line in err.read_text().splitlines() if line.strip() and not BAR.search(line)]
    return code, out.read_text(), lines


def test_ppo_keeps_the_policy_of_its_last_update_and_the_curve(tmp_path):
    run = tmp_path / "run"
    argv = ["--game", "art_robbery", "--players", "3", "--n-envs", "16"]
    argv += ["--opponents", "random:10000000", "--eval-every", "512", "--eval-games", "6"]
    code, _, lines = interrupt(
        tmp_path, [*argv, "--out", str(run)], lambda: rows(run / "eval.csv") >= 3
    )
    assert code == 130
    assert len(lines) == 1, lines
    [line] = lines
    assert line.startswith("heist train: interrupted: kept the policy after ")
    assert f"in {run / 'interrupted.zip'}" in line and str(run / "learning_curve.png") in line
    info = json.loads((run / "interrupted.json").read_text())
    assert info["interrupted"] is True and info["opponents"] == ["random:10000000"]
    assert info["timesteps"] > 0 and info["timesteps"] % (16 * 32) == 0  # whole updates
    assert f"after {info['timesteps']:,} steps" in line
    assert (run / "learning_curve.png").stat().st_size > 0 and not (run / "final.zip").exists()
    agent = PPOAgent(run / "interrupted.zip", "art_robbery", num_players=3)
    assert len(play("art_robbery", [agent, RandomAgent(1), RandomAgent(2)], 3, seed=0).rewards) == 3


def kept_iteration(run, line, what, log_name):
    """The checkpoint that an iterating trainer's Ctrl-C ``line`` says it kept, after checking
    the line, the logged rows, the curve and that no final checkpoint was written."""
    iteration = int(line.split("after iteration ")[1].split()[0])
    checkpoint = run / "checkpoints" / f"iter_{iteration}.zip"
    assert line == (
        f"heist train: interrupted: kept {what} after iteration {iteration} in "
        f"{checkpoint}, and the learning curve of its {iteration + 1} iterations in "
        f"{run / log_name} and {run / 'learning_curve.png'}"
    )
    assert rows(run / log_name) >= iteration + 1
    assert (run / "learning_curve.png").stat().st_size > 0 and not (run / "final.zip").exists()
    return checkpoint


def test_imitation_keeps_its_last_iteration_and_stops_its_workers(tmp_path):
    run = tmp_path / "run"
    argv = ["--method", "imitation", "--game", "art_robbery", "--iterations", "100000"]
    argv += ["--games-per-iteration", "40", "--epochs", "1", "--eval-games", "4"]
    argv += ["--net-arch", "16", "--num-envs", "8", "--workers", "2"]
    code, _, lines = interrupt(
        tmp_path, [*argv, "--out", str(run)], lambda: rows(run / "dagger.csv") >= 1
    )
    assert code == 130 and len(lines) == 1, lines  # the workers print nothing either
    PPOAgent(kept_iteration(run, lines[0], "the student", "dagger.csv"), "art_robbery")


def test_exit_keeps_its_last_iteration_and_the_curve(tmp_path):
    run = tmp_path / "run"
    argv = ["--method", "exit", "--game", "art_robbery", "--iterations", "100000"]
    argv += ["--games-per-iteration", "4", "--simulations", "4", "--epochs", "1"]
    argv += ["--eval-games", "4", "--net-arch", "16"]
    code, _, lines = interrupt(
        tmp_path, [*argv, "--out", str(run)], lambda: rows(run / "exit.csv") >= 1
    )
    assert code == 130 and len(lines) == 1, lines
    checkpoint = kept_iteration(run, lines[0], "the network", "exit.csv")
    make_agent("ismcts", "art_robbery", network=str(checkpoint), simulations=4)
    PPOAgent(checkpoint, "art_robbery")


def test_weights_writes_the_table_of_its_last_generation(tmp_path):
    table, curve = tmp_path / "weights.json", tmp_path / "curve.png"
    argv = ["--method", "weights", "--game", "toits_de_paris", "--generations", "100000"]
    argv += ["--population", "2", "--games", "2", "--eval-games", "2", "--counts", "2"]
    argv += ["--out", str(table), "--curve", str(curve)]
    code, _, lines = interrupt(
        tmp_path, argv, lambda: "generation 1:" in (tmp_path / "stdout").read_text()
    )
    assert code == 130 and len(lines) == 1, lines
    record = json.loads(table.read_text())
    generations = record["interrupted_after_generation"]
    assert generations == len(record["curve"]) >= 1
    assert lines[0] == (
        f"heist train: interrupted: wrote the weights after generation {generations} of 100000 "
        f"to {table} and the curve to {curve}"
    )
    assert curve.stat().st_size > 0
    from agents.toits_de_paris.compiled import WEIGHT_NAMES

    agent = make_agent("heuristic", "toits_de_paris", weights=str(table))
    assert list(agent.params) == [record["weights"][name] for name in WEIGHT_NAMES]


@pytest.mark.slow
def test_rllib_keeps_its_last_checkpoint_and_the_curve(tmp_path):
    pytest.importorskip("ray")
    run = tmp_path / "run"
    argv = ["--backend", "rllib", "--game", "art_robbery", "--players", "2"]
    argv += ["--iterations", "100000", "--batch-size", "200", "--minibatch-size", "100"]
    argv += ["--eval-every", "1", "--eval-games", "2", "--no-progress", "--out", str(run)]
    code, _, lines = interrupt(tmp_path, argv, lambda: rows(run / "eval.csv") >= 1, timeout=600)
    assert code == 130
    line = lines[-1]
    assert line.startswith(
        f"heist train: interrupted: kept the last checkpoint, {run}/checkpoints/iter_"
    )
    assert "Traceback" not in "\n".join(lines)
    checkpoint = line.split("kept the last checkpoint, ")[1].split(",")[0]
    assert (run / "learning_curve.png").stat().st_size > 0 and not (run / "final").exists()
    make_agent("rllib", "art_robbery", checkpoint=checkpoint, num_players=2)
