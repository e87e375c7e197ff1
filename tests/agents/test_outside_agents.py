"""Agents from outside the project: specs naming files, modules and installed packages, in
every command that takes an agent, and agents that fail without stopping the run."""

import json
import re
import subprocess
import sys
import textwrap
from types import SimpleNamespace

import numpy as np
import pytest

import heist_envs
from agents import arena, registry
from agents.arena import (
    Entrant,
    Outcome,
    parse_entrant,
    plan_tournament,
    play_tournaments,
    tournament,
    workers,
)
from agents.stats import Z95
from experiments import cli, common
from experiments.tools import leaderboard, protocol

#: an outside agent, as a user would write it: a class taking the game name and seed
AGENT_FILE = '''
import numpy as np


class Lowest:
    """The lowest-numbered legal action, or with probability ``explore`` a random one."""

    def __init__(self, game_name, seed=None, explore=0.0):
        self.rng = np.random.default_rng(seed)
        self.explore = explore

    def act(self, observation, action_mask):
        legal = np.flatnonzero(action_mask)
        if self.rng.random() < self.explore:
            return int(self.rng.choice(legal))
        return int(legal[0])


def make_lowest(game_name, seed=None, explore=0.0):
    return Lowest(game_name, seed, explore)


def no_seed(game_name):
    return Lowest(game_name)
'''

#: agents that fail at their second decision, one way each
FAILING_FILE = """
import os
import time

import numpy as np


class Failing:
    def __init__(self, game_name, seed=None):
        self.decisions = 0

    def act(self, observation, action_mask):
        self.decisions += 1
        legal = int(np.flatnonzero(action_mask)[0])
        return self.fail(action_mask) if self.decisions == 2 else legal


class Raises(Failing):
    def fail(self, action_mask):
        raise RuntimeError("lost its way")


class Illegal(Failing):
    def fail(self, action_mask):
        return int(np.flatnonzero(action_mask == 0)[0])


class NotAnInteger(Failing):
    def fail(self, action_mask):
        return "north"


class Slow(Failing):
    def fail(self, action_mask):
        time.sleep(1.3)
        return int(np.flatnonzero(action_mask)[0])


class Hangs(Failing):
    def fail(self, action_mask):
        time.sleep(600)


class Crashes(Failing):
    def fail(self, action_mask):
        os._exit(3)


class ReturnsTrue(Failing):
    def fail(self, action_mask):
        return True


class Sleeper:
    def __init__(self, game_name, seed=None, secs=1.0):
        self.secs = float(secs)


class BreaksWhenBuilt:
    def __init__(self, game_name, seed=None):
        if seed != 0:  # the arena's check builds it with seed 0: the games then fail
            raise KeyError("no such table")


class HangsWhenBuilt:
    def __init__(self, game_name, seed=None):
        if seed != 0:
            time.sleep(600)
"""

#: an agent that looks for the game through its caller's frames, the garbage collector and
#: its information set, and writes what it found (a line of JSON per decision) to ``report``
SPY_FILE = """
import gc
import json
import sys

import numpy as np

import heist_envs
from heist_envs.core.aec import HeistEnv


class Spy:
    wants_info_set = True

    def __init__(self, game_name, seed=None, report=""):
        self.game = heist_envs.get_game(game_name)
        self.report = report
        self.looked_in_gc = False

    def is_the_game(self, value):
        if isinstance(value, HeistEnv):
            return True
        try:
            state = getattr(value, "_state", value)
            return isinstance(state, np.ndarray) and state.dtype == self.game.state_dtype
        except Exception:
            return False

    def act(self, observation, action_mask, info_set):
        frames, frame = [], sys._getframe(1)
        while frame is not None:
            frames += [name for name, value in frame.f_locals.items() if self.is_the_game(value)]
            frame = frame.f_back
        collected = None  # every object of the process, at its first decision of the game
        if not self.looked_in_gc:
            collected = sum(1 for value in gc.get_objects() if self.is_the_game(value))
            self.looked_in_gc = True
        held = [name for name, value in vars(info_set).items() if self.is_the_game(value)]
        world = info_set.sample(7)  # a world consistent with what the seat knows
        view = np.zeros_like(observation)
        self.game.entry.observe(self.game.kernel_view(world), info_set.seat, view)
        found = {"frames": frames, "collected": collected, "info_set": held}
        found["sample_agrees"] = bool((view == observation).all())
        with open(self.report, "a") as out:
            out.write(json.dumps(found) + "\\n")
        return int(np.flatnonzero(action_mask)[0])
"""


@pytest.fixture
def agent_file(tmp_path):
    path = tmp_path / "my_agents.py"
    path.write_text(AGENT_FILE)
    return path


@pytest.fixture
def installed(tmp_path, monkeypatch):
    """A package installed into a folder of its own, registering ``lowest`` through the
    ``heist_envs.agents`` entry-point group (as ``pip install`` would write it)."""
    site = tmp_path / "site"
    (site / "lowest_agents").mkdir(parents=True)
    (site / "lowest_agents" / "__init__.py").write_text(AGENT_FILE)
    info = site / "lowest_agents-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: lowest-agents\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[heist_envs.agents]\nlowest = lowest_agents:Lowest\n")
    monkeypatch.syspath_prepend(str(site))
    return "lowest"


def test_specs_name_files_modules_and_installed_agents(agent_file, installed, monkeypatch):
    in_file = parse_entrant(f"{agent_file}:Lowest:explore=0.5")
    assert in_file.label == f"{agent_file}:Lowest:explore=0.5"
    assert in_file.agent == f"{agent_file}:Lowest" and in_file.kwargs == {"explore": 0.5}
    assert in_file.build("art_robbery", seed=1).explore == 0.5
    factory = parse_entrant(f"{agent_file}:make_lowest")
    assert factory.build("art_robbery", seed=1).explore == 0.0
    monkeypatch.syspath_prepend(str(agent_file.parent))
    from_module = parse_entrant("my_agents:Lowest:explore=1")
    assert from_module.agent == "my_agents:Lowest" and from_module.kwargs == {"explore": 1}
    assert installed in registry.agent_names() and installed in registry.ready_agent_names()
    assert parse_entrant("lowest:explore=0.25").build("thiefs_market", seed=2).explore == 0.25
    assert parse_entrant("ismcts:simulations=50").kwargs == {"simulations": 50}


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("{folder}/nowhere.py:Lowest", "no file .*nowhere.py; accepted forms: NAME"),
        ("{file}:Highest", "my_agents.py has no 'Highest'; accepted forms"),
        ("no_such_module.inner:Agent", "no module named 'no_such_module'"),
        ("{file}", "unknown agent .*; available: .*random.*; accepted forms"),
        ("{file}:no_seed", r"must be called as no_seed\(game_name, seed=None, \*\*parameters\)"),
        ("{file}:Lowest:depth=3", "has no parameter depth; its parameters: explore"),
        ("{file}:Lowest:depth", "expected key=value"),
    ],
)
def test_bad_specs_say_in_one_line_what_is_wrong(agent_file, spec, message):
    spec = spec.format(folder=agent_file.parent, file=agent_file)
    with pytest.raises(ValueError, match=message) as error:
        tournament("art_robbery", [spec, "random"], games=1, num_players=2, progress=False)
    assert "\n" not in str(error.value)


def test_a_file_that_fails_to_load_is_named(tmp_path):
    broken = tmp_path / "broken.py"
    broken.write_text("import numpy\nraise ImportError('needs torch 9')\n")
    with pytest.raises(ValueError, match="loading .*broken.py raised ImportError: needs torch 9"):
        parse_entrant(f"{broken}:Agent", trusted=True)
    with pytest.raises(ValueError, match="loading .*broken.py raised ImportError: needs torch 9"):
        tournament("art_robbery", [f"{broken}:Agent", "random"], games=1, progress=False)


def run_cli(capsys, *argv) -> str:
    assert cli.main(list(argv)) is None
    return capsys.readouterr().out


def test_an_outside_agent_plays_in_the_arena_eval_and_leaderboard(
    agent_file, tmp_path, capsys, monkeypatch
):
    spec = f"{agent_file}:Lowest:explore=0.1"
    out = run_cli(
        capsys, "arena", "art_robbery", "--agents", spec, "random", "--games", "4",
        "--players", "2", "--seed", "5", "--workers", "2", "--no-progress",
    )  # fmt: skip
    assert re.search(rf"{re.escape(spec)}\s+4 ", out)

    monkeypatch.setattr(protocol, "POOL", ("random", "heuristic"))
    monkeypatch.setattr(protocol, "QUICK_GAMES", 4)
    card_dir = tmp_path / "card"
    run_cli(
        capsys, "eval", spec, "--game", "art_robbery", "--quick", "--players", "2", "4",
        "--out", str(card_dir), "--workers", "2", "--no-progress",
    )  # fmt: skip
    card = json.loads((card_dir / "card.json").read_text())
    assert card["protocol"] == "v4-quick" and card["pool"] == ["random", "heuristic"]
    assert [(t["players"], t["reference"]) for t in card["tables"]] == [
        (2, "random"), (2, "heuristic"), (4, "random"), (4, "heuristic")
    ]  # fmt: skip
    for table in card["tables"]:  # the same games as the arena plays with the same seed
        sides = table["players"]
        direct = tournament(
            "art_robbery", [spec] + [table["reference"]] * (sides - 1), games=4,
            num_players=sides, seed=table["seed"], workers=1, progress=False,
        )  # fmt: skip
        figures = common.agent_figures(direct, 0)
        assert table["games"] == figures["games"] == len(direct.games)
        assert table["wins"] == figures["wins"]
        assert (table["win_low"], table["win_high"]) == (figures["win_low"], figures["win_high"])
    two, four = card["anchored_ratings"]
    assert two["mu"] is None and two["games"] == 0  # the published run has no 2-player tables
    assert four["games"] == 8 and four["rating_low"] < four["mu"] < four["rating_high"]
    assert card["failures"] == dict.fromkeys(["illegal action", "error", "timeout", "crash"], 0)
    assert card["isolated"] and not card["partial"] and card["planned_games"] == 16
    frozen = protocol.reference_ratings()["ratings"]["art_robbery"]["4"]["heuristic"]
    assert four["references"]["heuristic"]["mu"] == frozen[0]
    markdown = (card_dir / "card.md").read_text()
    assert "# Benchmark card" in markdown and "played in a process of its own" in markdown
    assert (
        "| players | agent: rating [95%] | ordinal | games rated | `random` (frozen) |" in markdown
    )
    mu, sigma = frozen
    assert f"{mu:.1f} [{mu - 1.96 * sigma:.1f}, {mu + 1.96 * sigma:.1f}]" in markdown
    assert "sigma being how uncertain the rating still is" in markdown

    board = tmp_path / "board"
    leaderboard.main(
        ["--quick", "--games", "art_robbery", "--agents", spec, "random", "--games-per-table",
         "2", "--out", str(board), "--no-progress"]
    )  # fmt: skip
    rows = (board / "leaderboard.csv").read_text()
    assert f"art_robbery,4,2,{spec}," in rows


def test_an_installed_agent_plays_in_worker_processes_and_gets_a_card(installed, monkeypatch):
    monkeypatch.setattr(protocol, "POOL", ("random",))
    monkeypatch.setattr(protocol, "QUICK_GAMES", 2)
    card = protocol.evaluate(
        f"{installed}:explore=0.5", "toits_de_paris", counts=[2, 3], quick=True, workers=2,
        progress=False, show=lambda text: None,
    )  # fmt: skip
    assert [(t["players"], t["games"]) for t in card.tables] == [(2, 2), (3, 3)]
    assert card.results[0].agents == ["lowest:explore=0.5", "random"]
    assert not card.failures and card.ratings[1]["games"] == 3


@pytest.mark.slow  # waits out eight kinds of failure, timeouts among them
def test_failing_agents_lose_their_games_and_the_run_goes_on(tmp_path, monkeypatch):
    monkeypatch.setattr(workers, "BUILD_TIME_LIMIT", 1.0)
    failing = tmp_path / "failing.py"
    failing.write_text(FAILING_FILE)
    kinds = {
        "Raises": ("error", "RuntimeError: lost its way"),
        "Illegal": ("illegal action", "("),
        "NotAnInteger": ("illegal action", "'north' (not an action id)"),
        "Slow": ("timeout", "a decision took"),
        "Hangs": ("timeout", "ran past 1 s and was stopped"),
        "Crashes": ("crash", "exit code 3"),
        "ReturnsTrue": ("illegal action", "True (not an action id)"),
        "BreaksWhenBuilt": ("error", "building the agent: KeyError"),
        "HangsWhenBuilt": ("timeout", "building the agent ran past 1 s and was stopped"),
    }
    plans = [
        plan_tournament(
            "art_robbery",
            [Entrant(name, f"{failing}:{name}", time_limit=1.0), "random"],
            games=2,
            num_players=2,
            seed=4,
        )
        for name in kinds
    ]
    results = play_tournaments(plans, workers=2, progress=False)
    for (name, (reason, detail)), result in zip(kinds.items(), results, strict=True):
        assert len(result.forfeits) == 2, name
        for forfeit in result.forfeits:
            assert forfeit["entrant"] == name and forfeit["reason"] == reason
            assert detail in forfeit["detail"], forfeit
            if name.endswith("WhenBuilt"):
                assert forfeit["decision"] == 0
            else:  # its second decision: its first came before
                assert forfeit["decision"] >= 1
        failed, random_row = result.summary
        assert failed["win_rate"] == 0.0 and random_row["win_rate"] == 1.0
        assert failed["forfeits"] == 2


@pytest.mark.slow  # waits out a time limit and a worker's crash
def test_the_parent_counts_each_seats_decisions_of_a_game_it_ends(tmp_path):
    """A trusted agent plays in the worker: its hang or crash ends the worker, and the parent
    records the game with the decisions each seat had made."""
    failing = tmp_path / "failing.py"
    failing.write_text(FAILING_FILE)
    plans = [
        plan_tournament(
            "art_robbery",
            [Entrant(name, f"{failing}:{name}", time_limit=1.0, trusted=True), "random"],
            games=2,
            num_players=2,
            seed=4,
        )
        for name in ("Hangs", "Crashes")
    ]
    for result in play_tournaments(plans, workers=2, progress=False):
        for record in result.games:
            forfeit = record["forfeit"]
            assert forfeit["reason"] in ("timeout", "crash")
            assert "worker" in forfeit["detail"] or "stopped" in forfeit["detail"]
            decisions = record["seat_decisions"]
            assert sum(decisions) == forfeit["decision"] + 1  # the one it failed in too
            assert decisions[forfeit["seat"]] == 2  # it fails at its second decision


def test_a_card_counts_the_games_an_agent_lost_by_failing(tmp_path, monkeypatch):
    failing = tmp_path / "failing.py"
    failing.write_text(FAILING_FILE)
    monkeypatch.setattr(protocol, "POOL", ("random",))
    monkeypatch.setattr(protocol, "QUICK_GAMES", 2)
    card = protocol.evaluate(
        f"{failing}:Crashes", "art_robbery", counts=[2], quick=True, workers=1, progress=False,
        show=lambda text: None,
    )  # fmt: skip
    assert card.failure_counts()["crash"] == 2 and card.tables[0]["wins"] == 0
    text = card.markdown()
    lost = "Games the agent lost by failing: 2 of 2 (illegal action: 0, error: 0, timeout: 0, "
    assert lost + "crash: 2)" in text and "decision " in text


def test_messages_name_the_spec_as_written_and_the_parameters(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "my_agents.py").write_text(FAILING_FILE + AGENT_FILE)
    for spec, message in [
        (
            "my_agents.py:Sleeper:secs=abc",
            "agent 'my_agents.py:Sleeper:secs=abc': Sleeper(secs='abc') raised ValueError: "
            "could not convert string to float: 'abc'",
        ),
        ("my_agents.py:Lowest:depth=3", "agent 'my_agents.py:Lowest:depth=3' has no parameter"),
        (
            "my_agents.py:Lowest:explore=1,explore=2",
            "agent 'my_agents.py:Lowest:explore=1,explore=2': explore is given twice",
        ),
    ]:
        with pytest.raises(SystemExit):
            cli.main(["arena", "art_robbery", "--agents", spec, "random", "--no-progress"])
        error = capsys.readouterr().err
        assert error.startswith(f"heist arena: error: {message}"), error
        assert str(tmp_path) not in error and error.count("\n") == 1


def test_bad_numbers_are_refused_before_an_agent_loads(tmp_path, capsys):
    loaded = tmp_path / "loaded"
    noisy = tmp_path / "noisy.py"
    noisy.write_text(f"open({str(loaded)!r}, 'w').close()\n" + AGENT_FILE)
    spec = f"{noisy}:Lowest"
    for option, message in [
        (["--games", "-1"], "games must be at least 1 (a whole number), got -1"),
        (["--workers", "0"], "workers must be at least 1 (a whole number), got 0"),
        (["--seed", "-1"], "seed must be in [0, 2**64), got -1"),
        (["--players", "9"], "num_players=9 is out of range; allowed: 2 to 5"),
        (["--time-limit", "0"], "the time limit must be a positive number of seconds"),
    ]:
        for trust in ([], ["--trust-agents"]):  # a trusted agent loads here, an isolated one not
            with pytest.raises(SystemExit):
                cli.main(["arena", "art_robbery", "--agents", spec, "random", *option, *trust])
            error = capsys.readouterr().err
            assert message in error and error.count("\n") == 1 and not loaded.exists(), error


def test_eval_says_a_spec_error_every_count_shares_once(agent_file, capsys):
    with pytest.raises(SystemExit):
        cli.main(["eval", f"{agent_file}:Lowest:depth=3", "--game", "art_robbery"])
    error = capsys.readouterr().err
    assert error.count("has no parameter depth") == 1 and error.count("\n") == 1, error
    assert "2, 3, 4, 5 players: the agent cannot play (agent " in error


def test_a_crash_of_the_calling_process_says_what_happened(tmp_path):
    failing = tmp_path / "failing.py"
    failing.write_text(FAILING_FILE)
    command = [
        sys.executable, "-m", "experiments.cli", "arena", "art_robbery", "--agents",
        f"{failing}:Crashes", "random", "--games", "2", "--players", "2", "--seed", "3",
        "--workers", "1", "--no-progress",
    ]  # fmt: skip
    trusted = subprocess.run([*command, "--trust-agents"], capture_output=True, text=True)
    assert trusted.returncode == 3 and trusted.stdout == ""
    said = trusted.stderr.splitlines()[-1]
    assert re.search(r"ended in game 0 of art_robbery at 2 players \(seed \d+\), seat \d", said)
    assert "(failing.py:Crashes)" not in said and f"({failing}:Crashes) at decision " in said
    assert "A time limit (--time-limit) or a second worker (--workers 2)" in said
    isolated = subprocess.run(command, capture_output=True, text=True)  # its own process
    assert isolated.returncode == 0 and isolated.stdout.count("crash: the agent's process") == 2


def test_the_docs_example_agent_runs(tmp_path):
    page = (protocol.RATINGS.parents[1] / "docs" / "agents.md").read_text()
    example = textwrap.dedent(re.search(r"```python\n(.*?)```", page, re.S)[1])
    path = tmp_path / "my_agent.py"
    path.write_text(example)
    result = tournament(
        "art_robbery", [f"{path}:Greedy", "random"], games=4, num_players=2, seed=3, workers=1,
        progress=False,
    )  # fmt: skip
    assert not result.forfeits and result.summary[0]["games"] == 4


def test_eval_refuses_bad_input_in_one_line(agent_file, capsys):
    for argv, message in [
        (["nowhere.py:Agent", "--game", "art_robbery"], "no file nowhere.py; accepted forms"),
        ([f"{agent_file}:Lowest", "--game", "chess"], "unknown game 'chess'"),
        ([f"{agent_file}:Lowest", "--game", "art_robbery", "--players", "9"], "players"),
        ([f"{agent_file}:Lowest", "--game", "art_robbery", "--time-limit", "0"], "time limit"),
    ]:
        with pytest.raises(SystemExit) as exit:
            cli.main(["eval", *argv])
        error = capsys.readouterr().err
        assert exit.value.code == 2 and message in error and error.count("\n") == 1, error


def test_a_card_says_which_counts_an_agent_cannot_play(tmp_path, monkeypatch):
    path = tmp_path / "four.py"
    path.write_text(
        AGENT_FILE
        + textwrap.dedent("""
        def four_only(game_name, seed=None, num_players=None):
            if num_players != 4:
                raise RuntimeError("plays 4 players only")
            return Lowest(game_name, seed)
        """)
    )
    monkeypatch.setattr(protocol, "POOL", ("random",))
    monkeypatch.setattr(protocol, "QUICK_GAMES", 4)
    spec = f"{path}:four_only"
    with pytest.raises(ValueError, match="plays no table of art_robbery: 2 players: the agent"):
        protocol.evaluate(spec, "art_robbery", counts=[2], quick=True, progress=False)
    card = protocol.evaluate(
        spec, "art_robbery", counts=[2, 4], quick=True, workers=1, progress=False,
        show=lambda text: None,
    )  # fmt: skip
    assert [t["players"] for t in card.tables] == [4] and not card.failures
    assert card.left_out == [
        "2 players: the agent cannot play (four_only() raised RuntimeError: plays 4 players only)"
    ]
    assert "## Not played" in card.markdown()


def test_frozen_ratings_stay_and_anchor_the_others():
    result = tournament(
        "art_robbery", ["random", "random"], games=4, num_players=2, seed=2, workers=1,
        progress=False,
    )  # fmt: skip
    free = arena.rate(result.agents, result.games)
    anchored = arena.rate(result.agents, result.games, frozen={"random_2": (30.0, 1.0)})
    assert (anchored["random_2"]["mu"], anchored["random_2"]["sigma"]) == (30.0, 1.0)
    assert anchored["random"]["mu"] != free["random"]["mu"]
    assert anchored["random"]["sigma"] < 25 / 3


@pytest.mark.slow  # waits out the time limit in worker processes
def test_arena_time_limit_stops_a_hanging_agent(tmp_path, capsys):
    failing = tmp_path / "failing.py"
    failing.write_text(FAILING_FILE)
    out = run_cli(
        capsys, "arena", "art_robbery", "--agents", f"{failing}:Hangs", "random", "--games",
        "2", "--players", "2", "--seed", "1", "--workers", "2", "--time-limit", "0.5",
        "--no-progress",
    )  # fmt: skip
    assert out.count(": timeout: a decision ran past 0.5 s and was stopped") == 2


def test_a_failing_entrant_loses_at_every_seat_it_holds(tmp_path, capsys):
    failing = tmp_path / "my_agents.py"
    failing.write_text(FAILING_FILE)
    out = run_cli(
        capsys, "arena", "art_robbery", "--agents", f"{failing}:Raises", "heuristic", "--games",
        "20", "--seed", "4", "--no-progress",
    )  # fmt: skip
    raises, heuristic = (line.split() for line in out.splitlines()[2:4])
    assert raises[:4] == [f"{failing}:Raises", "20", "40", "0.000"]  # two seats, no win
    assert heuristic[:4] == ["heuristic", "20", "40", "1.000"]
    assert raises[6] == heuristic[6] == "0.250"  # the fair share: one of four sides


def spy_reports(tmp_path, capsys, *options) -> list[dict]:
    spy, report = tmp_path / "spy.py", tmp_path / "found.jsonl"
    spy.write_text(SPY_FILE)
    report.unlink(missing_ok=True)
    run_cli(
        capsys, "arena", "thiefs_market", "--agents", f"{spy}:Spy:report={report}", "random",
        "--games", "2", "--players", "3", "--seed", "2", "--workers", "1", "--no-progress",
        *options,
    )  # fmt: skip
    return [json.loads(line) for line in report.read_text().splitlines()]


def test_an_outside_agent_finds_nothing_of_the_game_in_its_process(tmp_path, capsys):
    reports = spy_reports(tmp_path, capsys)
    for found in reports:
        assert found["frames"] == [] and found["info_set"] == [] and found["sample_agrees"]
    # it looked through every object of its process at its first decision of each game
    assert [found["collected"] for found in reports if found["collected"] is not None] == [0] * 9
    trusted = spy_reports(tmp_path, capsys, "--trust-agents")  # in the game's process: all of it
    for found in trusted:
        assert "env" in found["frames"] and found["info_set"] == ["_state"]
    assert all(found["collected"] > 0 for found in trusted if found["collected"] is not None)


@pytest.mark.slow  # loads the compiled search in the agent's processes
def test_an_outside_search_agent_plays_on_sampled_worlds(tmp_path):
    """ISMCTS from a file: its information set's worlds come from the game's process."""
    search = tmp_path / "search.py"
    search.write_text("from agents.ismcts import make_ismcts\n")
    result = tournament(
        "art_robbery", [f"{search}:make_ismcts:simulations=20", "random"], games=2,
        num_players=2, seed=1, workers=1, progress=False,
    )  # fmt: skip
    assert not result.forfeits and len(result.games) == 2
    assert all(sum(record["seat_decisions"]) == record["decisions"] for record in result.games)


def test_an_isolated_agents_stats_come_back_to_the_card(tmp_path, monkeypatch):
    monkeypatch.setattr(protocol, "POOL", ("random",))
    monkeypatch.setattr(protocol, "QUICK_GAMES", 2)
    path = tmp_path / "counting.py"
    path.write_text(
        "import numpy as np\n\n\nclass Counting:\n"
        "    def __init__(self, game_name, seed=None):\n        self.decisions = 0\n\n"
        "    def act(self, observation, action_mask):\n        self.decisions += 1\n"
        "        return int(np.flatnonzero(action_mask)[0])\n\n"
        "    def stats(self):\n        return {'decisions': self.decisions, 'note': 'text'}\n"
    )
    card = protocol.evaluate(
        f"{path}:Counting", "art_robbery", counts=[2], quick=True, workers=1, progress=False,
        show=lambda text: None,
    )  # fmt: skip
    assert card.isolated
    played = sum(r["seat_decisions"][r["agents"].index(card.results[0].agents[0])]
                 for r in card.results[0].games)  # fmt: skip
    assert card.agent_stats == {"decisions": played} and played > 0
    assert f"decisions {played:,}" in card.markdown()


def test_the_anchored_rating_narrows_below_two_points_with_enough_games():
    """Protocol v2 rates a fixed program without drift: its interval narrows with the games
    (v1's default drift left about +-3.3 however many games were played)."""
    rng = np.random.default_rng(5)
    refs = ["heuristic", "heuristic_2", "heuristic_3"]
    games = []
    for _ in range(3000):
        rewards = rng.permutation([1.0, 0.0, 0.0, 0.0])
        games.append(
            {"seating": [0, 1, 2, 3], "outcomes": [Outcome(r, r > 0, None) for r in rewards]}
        )
    table = SimpleNamespace(agents=["me", *refs], games=games)
    frozen = {"heuristic": (23.0, 1.77)}
    row = protocol.anchored_rating("me", 4, [(4, "heuristic")], [table], frozen)
    assert row["games"] == 3000
    assert row["rating_high"] - row["mu"] < 2.0 and row["mu"] - row["rating_low"] < 2.0
    assert abs(row["mu"] - 23.0) < 2.0  # as strong as the reference: rated beside it
    drifting = arena.rate(["me", *refs], games, dict.fromkeys(refs, frozen["heuristic"]))["me"]
    assert Z95 * drifting["sigma"] > 3.0  # the drift's floor, which v1 cards stopped at


def test_the_full_protocol_plays_fewer_games_against_the_deep_search():
    game = heist_envs.get_game("art_robbery")
    entrant = parse_entrant("heuristic")
    plans, where, _ = protocol.plan_tables(
        entrant, game, [4], protocol.SEED, protocol.GAMES, protocol.BATCHED_GAMES,
        protocol.DEEP_SEARCH_GAMES,
    )  # fmt: skip
    games = {spec: len(plan.tasks) for (_, spec), plan in zip(where, plans, strict=True)}
    assert games == {
        "random": 2000, "heuristic": 2000, "ppo": 2000,
        "ismcts:simulations=100": 200, "ismcts:simulations=1000": 60,
    }  # fmt: skip
