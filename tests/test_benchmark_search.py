"""The benchmark's search rows: decisions per second of each search over the same decisions."""

import numpy as np

from experiments.tools import benchmark
from heist_envs.core.game import RUNNING


def test_search_section_measures_every_search_over_the_same_decisions(monkeypatch):
    seen = []

    def measure(rate):
        def decisions(name, states, simulations, seconds):
            seen.append((name, states.tobytes(), simulations))
            return rate

        return decisions

    monkeypatch.setattr(benchmark, "installed", lambda module: False)  # no OpenSpiel row
    monkeypatch.setattr(benchmark, "ismcts_speed", lambda name, n, seconds: 1e5)
    monkeypatch.setattr(
        benchmark,
        "SEARCH_PLAYERS",
        {
            "decisions-ismcts-{}": measure(300.0),
            "decisions-batch1-{}": measure(100.0),
            "decisions-batch64-{}": measure(3300.0),
        },
    )
    rows = benchmark.run(["art_robbery"], 0.01, sections=["search"])
    assert [(r["mode"], r["steps_per_second"]) for r in rows] == [
        ("ismcts-1000", 1e5),
        ("decisions-ismcts-100", 300.0),
        ("decisions-batch1-100", 100.0),
        ("decisions-batch64-100", 3300.0),
    ]
    assert len(seen) == 3 and seen[0] == seen[1] == seen[2] and seen[0][2] == 100
    assert benchmark.ratios(rows) == [
        "art_robbery batched search / ISMCTS decisions at 100 simulations: 11.00x"
    ]


def test_the_decisions_are_of_running_games_with_a_choice_and_both_searches_label_them():
    states = benchmark.decision_states("art_robbery", 4, 12)
    assert len(states) == 12 and (states["status"] == RUNNING).all()
    assert len(np.unique(states["actor"])) == 4
    for decisions in benchmark.SEARCH_PLAYERS.values():
        assert decisions("art_robbery", states, 10, 0.01) > 0


def test_the_guided_search_labels_the_decisions_and_its_ratio_is_to_ismcts_at_100():
    states = benchmark.decision_states("thiefs_market", 4, 8)
    assert benchmark.guided_search_decisions("thiefs_market", states, 4, 0.01, batch=4) > 0
    rows = [
        {"library": "heist-envs", "game": "thiefs_market", "mode": mode, "steps_per_second": rate}
        for mode, rate in (("decisions-ismcts-100", 400.0), (benchmark.GUIDED_MODE, 4400.0))
    ]
    assert benchmark.ratios(rows) == [
        "thiefs_market guided search at 8 simulations / ISMCTS decisions at 100: 11.0x "
        "(target: at least 10x)"
    ]
