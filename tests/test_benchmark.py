"""The benchmark script runs and writes its records (a smoke test: speed is not asserted)."""

import json
import re
from pathlib import Path

import pytest

from experiments.tools import benchmark


def test_benchmark_writes_records(tmp_path, monkeypatch):
    monkeypatch.setattr(benchmark, "QUICK_BATCH_SIZES", (1, 8))
    monkeypatch.setattr(benchmark, "installed", lambda module: False)  # heist-envs rows only
    rows = benchmark.main(
        [
            "--quick",
            "--games",
            "art_robbery",
            "--sections",
            "batch",
            "--json",
            str(tmp_path / "b.json"),
        ]
    )
    saved = json.loads((tmp_path / "b.json").read_text())
    assert saved == rows
    modes = {(r["library"], r["mode"]) for r in rows}
    assert ("heist-envs", "batch-8") in modes
    keys = {"library", "game", "mode", "num_players", "steps_per_second", "games_per_second"}
    assert all(keys <= set(r) and r["steps_per_second"] > 0 for r in rows)


def test_rows_are_saved_as_they_are_measured(tmp_path, monkeypatch):
    def interrupted(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(benchmark, "aec_loop", interrupted)  # the third row of the section
    path = tmp_path / "b.json"
    args = ["--quick", "--games", "art_robbery", "--sections", "single", "--json", str(path)]
    with pytest.raises(KeyboardInterrupt):
        benchmark.main(args)
    saved = json.loads(path.read_text())
    assert [r["mode"] for r in saved] == ["kernel-jit", "kernel-python"]


def test_shared_section_compares_idle_and_busy_cores(monkeypatch):
    monkeypatch.setattr(benchmark, "installed", lambda module: False)  # no training rows
    rows = benchmark.run(["art_robbery"], 0.1, sections=["shared"])
    assert [(r["mode"], r["neighbour"]) for r in rows] == [
        ("batch-1024", "idle"),
        ("batch-1024", "busy"),
    ]
    assert all(r["steps_per_second"] > 0 for r in rows)


def test_pgx_is_in_the_bench_extra():
    text = (Path(__file__).resolve().parents[1] / "pyproject.toml").read_text()
    bench = re.search(r"^bench = \[(.*?)\]$", text, re.S | re.M).group(1)
    assert '"pgx>=' in bench


def test_train_section_compares_ppo_against_random_and_the_heuristic(monkeypatch):
    speeds = {"random": 8000.0, "heuristic": 3000.0}
    env_speeds = {"random": 50_000.0, "heuristic": 100_000.0}

    def training(name, num_players, timesteps, num_envs, opponents):
        return speeds[opponents], 0.05

    def self_play(name, num_players, seconds, opponents):
        return env_speeds[opponents]

    def torch_training(name, num_players, timesteps, num_envs):
        return 16_000.0, {"env": 0.4}

    monkeypatch.setattr(benchmark, "installed", lambda module: module == "sb3_contrib")
    monkeypatch.setattr(benchmark, "sb3_training", training)
    monkeypatch.setattr(benchmark, "self_play_speed", self_play)
    monkeypatch.setattr(benchmark, "torch_training", torch_training)
    rows = benchmark.run(["art_robbery", "thiefs_market"], 0.1, sections=["train"])
    assert [(r["game"], r["mode"], r["steps_per_second"]) for r in rows] == [
        (game, mode, rate)
        for game in ("art_robbery", "thiefs_market")
        for mode, rate in [
            ("env-vs-random", 50_000.0),
            ("ppo-vs-random", 8000.0),
            ("env-vs-heuristic", 100_000.0),
            ("ppo-vs-heuristic", 3000.0),
            ("torch-vs-heuristic", 16_000.0),
        ]
    ]
    assert rows[4]["env_share"] == 0.4
    assert benchmark.ratios(rows) == [
        line
        for game in ("art_robbery", "thiefs_market")
        for line in (
            f"{game} env-vs-heuristic / env-vs-random: 2.00x",
            f"{game} ppo-vs-heuristic / ppo-vs-random: 0.38 (target: at least 0.5)",
            f"{game} torch-vs-heuristic / ppo-vs-heuristic: 5.3x (target: at least 5x)",
            f"{game} torch-vs-heuristic / env-vs-heuristic: 0.16 (goal: 0.5)",
        )
    ]


def test_phases_section_splits_a_second_of_each_learner_against_the_heuristic():
    pytest.importorskip("sb3_contrib")
    rows = benchmark.run(["art_robbery"], 0.1, players=3, sections=["phases"], train_steps=512,
                         train_envs=16)  # fmt: skip
    assert [r["mode"] for r in rows] == ["sb3-phases", "torch-phases"]
    from experiments.train.torch_ppo import PHASES

    for row in rows:
        shares = [row[phase] for phase in PHASES]
        assert row["steps_per_second"] > 0 and all(share >= 0 for share in shares[:-1])
        assert sum(shares) == pytest.approx(1, abs=0.002)
        assert row["env"] > 0 and row["collect_forward"] > 0 and row["update_backward"] > 0


def test_self_play_speed_plays_the_learner_against_the_compiled_heuristic():
    assert benchmark.self_play_speed("art_robbery", 3, 0.05, "heuristic", num_envs=8) > 0


def test_tournament_section_compares_the_serial_and_the_batched_route(monkeypatch):
    played = []

    def speed(name, num_players, agent, games, batched):
        played.append((agent, games, batched))
        return (2000.0, 4000.0) if batched else (40.0, 400.0)

    monkeypatch.setattr(benchmark, "installed", lambda module: True)
    monkeypatch.setattr(benchmark, "tournament_speed", speed)
    rows = benchmark.run(["art_robbery"], 0.1, sections=["tournament"])
    assert [r["mode"] for r in rows] == [
        f"tournament-{route}-{mode}"
        for mode, routes in (
            ("heuristic-vs-heuristic", ("serial", "batched", "compiled")),
            ("ppo-vs-heuristic", ("serial", "batched")),
        )
        for route in routes
    ]
    assert played[:2] == [("heuristic", 40, False), ("heuristic", 2000, True)]
    assert benchmark.ratios(rows) == [
        "art_robbery heuristic-vs-heuristic tournament, batched / serial games per second: 50.0x "
        "(target: at least 50x)",
        "art_robbery heuristic-vs-heuristic tournament, the batched route's compiled play alone "
        "/ serial games per second (the most batching can give): 100.0x",
        "art_robbery ppo-vs-heuristic tournament, batched / serial games per second: 50.0x "
        "(target: at least 50x)",
    ]


def test_tournament_speed_plays_a_timed_tournament():
    games, acting = benchmark.tournament_speed("art_robbery", 2, "heuristic", 4, batched=True)
    assert 0 < games < acting  # the agents' own time is part of the wall time
