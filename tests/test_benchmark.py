"""The benchmark script runs and writes its records (a smoke test: speed is not asserted)."""

import json

from experiments import benchmark


def test_benchmark_writes_records(tmp_path, monkeypatch):
    monkeypatch.setattr(benchmark, "BATCH_SIZES", (1, 8))
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
