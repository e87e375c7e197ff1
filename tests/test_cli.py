"""The heist command: every subcommand's --help, demo, arena, train forwarding, docs,
heist play driven through standard input, and Ctrl-C in the commands that play many games."""

import io
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import types

import pytest

from experiments.cli import main
from experiments.tools.play import play_human


def run(argv, capsys, stdin=None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    try:
        status = main(argv)
    except SystemExit as exit:
        status = exit.code
    out, err = capsys.readouterr()
    return status or 0, out + err


@pytest.mark.parametrize("command", ["demo", "play", "arena"])
def test_every_command_has_help(command, capsys):
    status, text = run([command, "--help"], capsys)
    assert status == 0 and f"heist {command}" in text and "art_robbery" in text


def test_top_level_help_lists_the_commands(capsys):
    status, text = run(["--help"], capsys)
    assert status == 0
    for command in ["demo", "play", "arena", "bench", "train", "docs"]:
        assert command in text


def test_bench_and_docs_forward_their_help(capsys):
    assert "usage: heist bench" in run(["bench", "--help"], capsys)[1]
    assert "--check" in run(["docs", "--help"], capsys)[1]


def test_train_forwards_its_arguments(monkeypatch, capsys):
    calls = []
    trainer = types.SimpleNamespace(main=calls.append)
    monkeypatch.setitem(sys.modules, "experiments.train.sb3", trainer)
    monkeypatch.setattr("experiments.train.sb3", trainer, raising=False)
    run(["train", "--game", "art_robbery", "--timesteps", "10"], capsys)
    assert calls == [["--game", "art_robbery", "--timesteps", "10"]]


@pytest.mark.parametrize(
    ("method", "module"),
    [
        ("imitation", "experiments.train.imitation"),
        ("weights", "experiments.train.weights"),
        ("exit", "experiments.train.exit"),
    ],
)
def test_train_forwards_each_method_to_its_trainer(method, module, monkeypatch, capsys):
    calls = []
    trainer = types.SimpleNamespace(main=calls.append)
    monkeypatch.setitem(sys.modules, module, trainer)
    monkeypatch.setattr(module, trainer, raising=False)
    run(["train", "--method", method, "--game", "toits_de_paris", "--seed", "3"], capsys)
    assert calls == [["--game", "toits_de_paris", "--seed", "3"]]


def test_train_refuses_a_backend_for_a_method_without_one(capsys):
    status, text = run(["train", "--method", "weights", "--backend", "rllib"], capsys)
    assert status == 2 and "--backend is for --method ppo, not weights" in text
    status, text = run(["train", "--method", "dqn"], capsys)
    assert status == 2 and "choose from 'ppo', 'imitation', 'weights'" in text


@pytest.mark.parametrize(
    "argv, message",
    [
        # issue 52: this one trained 0 steps for five minutes, saved a policy and exited 0
        (
            ["train", "--game", "art_robbery", "--opponents", "random:-5"],
            "heist train: error: --opponents 'random:-5': STEPS must be a whole number of at "
            "least 1 (POOL:STEPS, e.g. random:50000)",
        ),
        (
            ["train", "--game", "art_robbery", "--learning-rate", "-1"],
            "heist train: error: --learning-rate must be above 0 and at most 1",
        ),
        (
            ["train", "--method", "imitation", "--game", "art_robbery", "--batch-size", "0"],
            "error: --batch-size must be at least 1, got 0",
        ),
        (
            ["train", "--method", "exit", "--game", "art_robbery", "--mix", "2"],
            "heist train --method exit: error: --mix must be between 0 and 1, got 2",
        ),
        (
            ["train", "--method", "weights", "--population", "1"],
            "heist train --method weights: error: --population must be at least 2, got 1",
        ),
        (
            ["train", "--method", "weights", "--counts", "9"],
            "heist train --method weights: error: toits_de_paris: num_players=9 is out of range",
        ),
    ],
)
def test_bad_training_flags_are_one_line_before_anything_trains(argv, message, capsys):
    status, text = run(argv, capsys)
    assert status == 2 and text.count("\n") == 1 and message in text


def test_demo(capsys):
    status, text = run(["demo", "toits_de_paris", "--players", "2", "--seed", "1"], capsys)
    assert status == 0 and "Winner:" in text


def test_docs_check_passes_and_says_so(capsys):
    status, text = run(["docs", "--check"], capsys)
    assert status == 0 and text.endswith(
        "/games/*.md are current: each matches its game's metadata\n"
    )
    assert text.count("\n") == 1


def test_a_reader_that_leaves_early_ends_the_demo_quietly():
    """`heist demo ... | head`: no BrokenPipeError traceback once the reader has gone."""
    command = [sys.executable, "-m", "experiments.cli", "demo", "toits_de_paris", "--seed", "1"]
    demo = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    demo.stdout.readline()
    demo.stdout.close()
    errors = demo.stderr.read()
    assert demo.wait(timeout=120) == 141  # as if killed by SIGPIPE
    assert errors == ""


def test_arena_prints_and_writes(tmp_path, capsys):
    argv = ["arena", "art_robbery", "--agents", "random", "random", "--games", "2"]
    argv += ["--players", "2", "--seed", "1", "--workers", "1", "--no-progress"]
    status, text = run([*argv, "--out", str(tmp_path)], capsys)
    assert status == 0 and "random_2" in text and "win rate by seat" in text
    assert {p.name for p in tmp_path.iterdir()} == {"games.csv", "summary.csv", "tournament.json"}


def test_arena_counts_games_and_seat_games_apart(capsys):
    """Two agents at a four-seat table each sit in every game and hold two seats of it."""
    argv = ["arena", "art_robbery", "--agents", "random", "heuristic", "--games", "4"]
    status, text = run([*argv, "--players", "4", "--workers", "1", "--no-progress"], capsys)
    lines = text.splitlines()
    assert status == 0 and "4 players, 4 games" in lines[0]
    assert lines[1].split()[1:3] == ["games", "seat-games"]
    for line in lines[2:4]:
        assert line.split()[1:3] == ["4", "8"]


def test_arena_progress_says_the_workers_are_starting(capsys):
    """Until the first game is in, the bar says the workers load or compile the agents,
    rather than a pace of one game in the whole start-up."""
    argv = ["arena", "toits_de_paris", "--agents", "random", "heuristic", "--games", "8"]
    status, text = run([*argv, "--players", "2", "--workers", "2"], capsys)
    frames = [frame for frame in text.split("\r") if "toits_de_paris:" in frame]
    assert status == 0 and "0/8" in frames[0]
    assert "first game: loading or compiling the agents' code" in frames[0]
    assert "8/8" in frames[-1] and "compiling" not in frames[-1]


def test_arena_unknown_names_list_the_valid_ones(capsys):
    status, text = run(["arena", "art_robbery", "--agents", "random", "nobody"], capsys)
    assert status == 2 and "unknown agent 'nobody'" in text and "random" in text
    status, text = run(["arena", "chess", "--agents", "random"], capsys)
    assert status == 2 and "available: art_robbery" in text


def test_play_asks_again_on_bad_input_and_leaves_on_end_of_input(monkeypatch, capsys):
    argv = ["play", "art_robbery", "--players", "2", "--seed", "3", "--against", "random"]
    status, text = run(argv, capsys, stdin="x\n0\n99\n\n1\n1\n", monkeypatch=monkeypatch)
    assert status == 0
    assert text.count("is not a legal move") == 4
    assert "1. play Number 3" in text and "player_1 (random): " in text
    assert "hidden cards" in text  # drawn from the player's seat: the opponent's hand hidden
    assert text.rstrip().endswith("Game abandoned (end of input).")


def test_play_a_whole_game_and_quit(monkeypatch, capsys):
    argv = ["play", "art_robbery", "--players", "3", "--seed", "5", "--seat", "1"]
    status, text = run(argv, capsys, stdin="1\n" * 1000, monkeypatch=monkeypatch)
    assert status == 0 and "Your move as player_1" in text and "Winner:" in text
    status, text = run(argv, capsys, stdin="q\n", monkeypatch=monkeypatch)
    assert status == 0 and "Game abandoned (you quit)." in text


def test_play_a_team_game_as_the_robbers(monkeypatch, capsys):
    argv = ["play", "how_to_rob_a_bank", "--players", "3", "--seat", "2", "--seed", "1"]
    status, text = run(argv, capsys, stdin="1\n" * 2000, monkeypatch=monkeypatch)
    assert status == 0 and "you play robber_yellow, robber_red" in text
    assert "Your move as robber_yellow" in text and "Your move as robber_red" in text
    assert "bank (random): " in text and "Winner:" in text


def test_play_errors_and_interrupt(capsys):
    status, text = run(["play", "art_robbery", "--players", "2", "--against", "a", "b"], capsys)
    assert status == 2 and "unknown agent 'a'" in text
    status, text = run(["play", "art_robbery", "--against", "random", "random"], capsys)
    assert status == 2 and "3 other sides" in text

    def interrupt(prompt):
        raise KeyboardInterrupt

    lines = []
    assert play_human("art_robbery", ["random"], read=interrupt, show=lines.append) == 130
    assert lines[-1] == "\nGame abandoned (interrupted)."


def test_play_through_the_console_script_with_piped_input():
    command = [sys.executable, "-m", "experiments.cli", "play", "toits_de_paris", "--seed", "2"]
    done = subprocess.run(
        command, input="nonsense\n1\n", capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "'nonsense' is not a legal move" in done.stdout
    assert "Game abandoned (end of input)." in done.stdout and not done.stderr


def game_part(text):
    """The output from the seed on (a compilation notice may come first)."""
    return text[text.index("Seed ") :]


def test_watch_plays_any_agents_and_prints_the_seed(capsys):
    argv = ["watch", "toits_de_paris", "--players", "2", "--agents", "heuristic", "random"]
    status, text = run([*argv, "--seed", "4", "--delay", "0"], capsys)
    assert status == 0 and "Seed 4 (replay this game with --seed 4)" in text
    assert "player_0 heuristic, player_1 random" in text and "Winner:" in text
    again = run([*argv, "--seed", "4", "--delay", "0"], capsys)[1]
    assert game_part(again) == game_part(text)  # the seed replays the game


def test_watch_step_by_step_waits_for_enter(monkeypatch, capsys):
    argv = ["watch", "art_robbery", "--players", "2", "--agents", "random", "--step"]
    status, text = run(argv, capsys, stdin="\n" * 3, monkeypatch=monkeypatch)
    assert status == 130 and text.count("(Enter for the next move)") == 4
    assert text.rstrip().endswith("Stopped.")


def test_demo_and_play_print_a_seed_that_replays_the_game(monkeypatch, capsys):
    status, text = run(["demo", "art_robbery", "--players", "2"], capsys)
    seed = int(text.split("Seed ")[1].split()[0])
    again = run(["demo", "art_robbery", "--players", "2", "--seed", str(seed)], capsys)[1]
    assert game_part(again) == game_part(text)
    argv = ["play", "art_robbery", "--players", "2", "--against", "random"]
    text = run(argv, capsys, stdin="q\n", monkeypatch=monkeypatch)[1]
    assert "Seed " in text and "replay this deal with --seed" in text


FRESH_KERNEL = """
import numba as nb


@nb.njit(cache=True)
def add_one(x):
    return x + 1
"""


def test_compilation_is_announced_when_numba_compiles(tmp_path, monkeypatch):
    """A cache miss (here a cached function never compiled before) brings the notice."""
    from experiments import common

    (tmp_path / "fresh_kernel.py").write_text(FRESH_KERNEL)
    monkeypatch.syspath_prepend(str(tmp_path))
    from fresh_kernel import add_one

    def compile_then_play(*args, **kwargs):
        add_one(1)
        return play(*args, **kwargs)

    play = common.play
    monkeypatch.setattr(common, "play", compile_then_play)
    lines = []
    common.warm_up("art_robbery", 2, show=lines.append)
    assert lines[0].startswith("Compiling Art Robbery's rules (first use after installing")
    assert lines[1].startswith("Compiled in ") and len(lines) == 2


def test_a_slow_start_without_compiling_is_not_announced(monkeypatch):
    """Loading the kernels (compiled already here, as they would be from numba's cache) says
    nothing, however long the first game takes."""
    from experiments import common

    common.warm_up("art_robbery", 2, show=lambda line: None)

    def slow_play(*args, **kwargs):
        time.sleep(1.5)
        return play(*args, **kwargs)

    play = common.play
    monkeypatch.setattr(common, "play", slow_play)
    lines = []
    common.warm_up("art_robbery", 2, show=lines.append)
    assert lines == []


@pytest.mark.slow
def test_only_a_cold_cache_is_announced(tmp_path):
    """With an empty numba cache the demo says it compiles; run again, it says nothing."""
    command = [sys.executable, "-m", "experiments.cli", "demo", "toits_de_paris", "--seed", "1"]
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    texts = [
        subprocess.run(command, env=env, capture_output=True, text=True, timeout=300).stdout
        for _ in range(2)
    ]
    assert texts[0].startswith("Compiling Les Toits de Paris's rules")
    assert texts[1].startswith("Seed 1 ")


def test_helps_say_what_the_commands_are(capsys):
    from experiments.train import imitation

    status, text = run(["train", "--help"], capsys)
    assert "evaluation against the heuristic agent." in " ".join(text.split())
    with pytest.raises(SystemExit):
        imitation.main(["--help"])
    assert capsys.readouterr().out.startswith("usage: python -m experiments.train.imitation")


def test_agent_errors_name_every_setting(capsys):
    status, text = run(["play", "art_robbery", "--against", "ismcts:budget=3"], capsys)
    assert status == 2 and "unknown ISMCTS setting(s) budget" in text
    assert "simulations" in text and "seconds" in text and "uct_c" in text
    status, text = run(["play", "art_robbery", "--against", "heuristic:depth=3"], capsys)
    assert status == 2 and "agent 'heuristic:depth=3' has no parameter depth" in text


def ctrl_c_once(command, ready, timeout=300) -> subprocess.CompletedProcess:
    """Run ``command`` and press Ctrl-C (SIGINT to its whole process group, as a terminal
    does) once its standard error matches ``ready``."""
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    err, seen = [], threading.Event()

    def read():
        for chunk in iter(lambda: process.stderr.read(64), ""):
            err.append(chunk)
            if re.search(ready, "".join(err)):
                seen.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    assert seen.wait(timeout), "".join(err)
    os.killpg(process.pid, signal.SIGINT)
    out = process.stdout.read()
    process.wait(timeout)
    reader.join(timeout)
    return subprocess.CompletedProcess(command, process.returncode, out, "".join(err))


def test_ctrl_c_in_the_arena_keeps_the_games_played(tmp_path):
    """Workers and an outside agent's processes as well: one line, no traceback."""
    from tests.agents.test_outside_agents import AGENT_FILE

    (tmp_path / "my_agents.py").write_text(AGENT_FILE)
    command = [
        sys.executable, "-m", "experiments.cli", "arena", "art_robbery", "--agents", "heuristic",
        f"{tmp_path / 'my_agents.py'}:Lowest", "--games", "5000", "--workers", "2", "--out",
        str(tmp_path / "out"),
    ]  # fmt: skip
    done = ctrl_c_once(command, r"\| ([3-9]|\d\d+)/5000 ")  # a few games in
    assert done.returncode == 130 and "Traceback" not in done.stderr, done.stderr
    last = done.stderr.splitlines()[-1]
    played = int(
        re.fullmatch(r"heist arena: interrupted: kept the (\d+) games finished of 5000.*", last)[1]
    )
    assert f", {played} of 5000 games, partial: interrupted" in done.stdout.splitlines()[0]
    kept = json.loads((tmp_path / "out" / "tournament.json").read_text())
    assert kept["partial"] and kept["planned_games"] == 5000 and len(kept["games"]) == played >= 3
    assert "written (marked partial) to" in last and "tournament.json" in last


def interrupt_after(monkeypatch, target, name, calls):
    """Ctrl-C in the ``calls``-th call of ``target.name``."""
    original, made = getattr(target, name), []

    def then_stop(*args, **kwargs):
        made.append(1)
        if len(made) == calls:
            raise KeyboardInterrupt
        return original(*args, **kwargs)

    monkeypatch.setattr(target, name, then_stop)


def test_ctrl_c_in_eval_keeps_the_partial_card(tmp_path, monkeypatch, capsys):
    from agents.arena import workers
    from experiments.tools import protocol

    monkeypatch.setattr(protocol, "POOL", ("random", "heuristic"))
    monkeypatch.setattr(protocol, "QUICK_BATCHED_GAMES", 10)
    interrupt_after(monkeypatch, workers, "_tick", 5)  # as the fifth game ends
    argv = ["eval", "random", "--game", "art_robbery", "--players", "2", "--quick"]
    status, text = run([*argv, "--workers", "1", "--out", str(tmp_path), "--no-progress"], capsys)
    assert status == 130 and text.count("Traceback") == 0
    assert text.splitlines()[-1] == (
        "heist eval: interrupted: kept the 4 games finished of 20, in the partial card above and "
        f"written (marked partial) to {tmp_path / 'card.md'}, {tmp_path / 'card.json'}"
    )
    card = json.loads((tmp_path / "card.json").read_text())
    assert card["partial"] and card["games"] == 4 and card["planned_games"] == 20
    assert [t["games"] for t in card["tables"]] == [2, 2]  # the tables advance together
    assert "**Partial: interrupted after 4 of 20 games**" in (tmp_path / "card.md").read_text()


def stop_after_games(games, played):
    """The batched route's records, then Ctrl-C after the ``played``-th game."""
    for n, record in enumerate(games, 1):
        yield record
        if n == played:
            raise KeyboardInterrupt


@pytest.mark.parametrize("route", ["serial", "batched"])
def test_ctrl_c_in_metrics_keeps_the_games_played(route, tmp_path, monkeypatch, capsys):
    from experiments.studies import data

    if route == "serial":
        interrupt_after(monkeypatch, data, "run_game", 4)
    else:
        batched = data.play_batched
        monkeypatch.setattr(data, "play_batched", lambda *a: stop_after_games(batched(*a), 3))
    path = tmp_path / "metrics.json"
    argv = ["metrics", "art_robbery", "--agents", "heuristic", "--games", "50", "--json", str(path)]
    status, text = run([*argv, "--route", route, "--no-progress"], capsys)
    assert status == 130 and "Traceback" not in text
    assert "art_robbery, 4 players, 3 of 50 games, partial: interrupted (heuristic)" in text
    assert text.splitlines()[-1] == (
        "heist metrics: interrupted: kept the metrics of the 3 games finished of 50, printed "
        f"above and written (marked partial) to {path}"
    )
    kept = json.loads(path.read_text())
    assert kept["partial"] and kept["games"] == 3 and kept["planned_games"] == 50
