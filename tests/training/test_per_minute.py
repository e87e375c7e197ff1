"""experiments.train.per_minute: both learners' commands as heist train takes them, the plot
and the bad input."""

import argparse

import pytest

from experiments.train import per_minute, sb3, torch_ppo


def test_each_learner_gets_a_command_its_trainer_accepts(tmp_path):
    args = argparse.Namespace(
        game="thiefs_market", players=4, seed=3, opponents="heuristic", eval_games=400
    )
    for backend, trainer in (("sb3", sb3), ("torch", torch_ppo)):
        command = per_minute.train_command(backend, args, tmp_path / backend)
        flags = command[command.index("--backend") + 2 :]
        parsed = trainer.parse_args(flags)
        assert parsed.eval_every == per_minute.EVAL_EVERY[backend]
        assert parsed.stages == [(["heuristic"], 1_000_000_000)]
        assert (parsed.eval_opponents, parsed.players, parsed.threads) == ("heuristic", 4, 1)


def test_the_plot_draws_both_curves(tmp_path):
    rows = [
        {"learner": learner, "minutes": m, "win_rate": 0.2 + m / 10, "ci_low": 0.1, "ci_high": 0.5}
        for learner in per_minute.EVAL_EVERY
        for m in (0.0, 1.0, 2.0)
    ]
    path = tmp_path / "curve.png"
    per_minute.plot(rows, path, "title", "heuristic")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("flags", [["--minutes", "0"], ["--minutes", "500"], ["--eval-games", "0"]])
def test_bad_budgets_stop_before_anything_trains(flags, tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        per_minute.main(["--game", "art_robbery", "--out", str(tmp_path), *flags])
    assert stop.value.code == 2 and "--minutes must be above 0" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())
