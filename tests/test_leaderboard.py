"""heist leaderboard: the quick run's files and figures, head-to-head counts, bad input."""

import csv

import pytest

from agents.arena import Entrant, TournamentResult, workers
from experiments.cli import main
from experiments.tools.leaderboard import default_agents, head_to_head
from heist_envs import get_game
from tests.test_cli import run

AGENT_COLUMNS = [
    "game", "players", "table_games", "agent", "side", "rank", "mu", "sigma", "rating_low",
    "rating_high", "ordinal", "games", "wins", "win_rate", "win_low", "win_high", "decisions",
    "decisions_per_second",
]  # fmt: skip
PAIR_COLUMNS = [
    "game", "players", "table_games", "agent", "opponent", "side", "games", "wins", "losses",
    "ties", "win_rate", "win_low", "win_high",
]  # fmt: skip
QUICK_AGENTS = {
    "random", "heuristic", "ismcts:simulations=10", "ismcts:simulations=50",
    "ismcts:simulations=10,prior=shipped", "ppo",
}  # fmt: skip


def read_csv(path):
    with open(path, newline="") as file:
        reader = csv.DictReader(file)
        return reader.fieldnames, list(reader)


def number(text):
    return float(text) if text != "" else None


@pytest.fixture(scope="module")
def quick(tmp_path_factory):
    """One quick run of a four-player game and of the game with sides, shared by the tests."""
    out = tmp_path_factory.mktemp("leaderboard")
    argv = ["leaderboard", "--quick", "--games", "art_robbery", "how_to_rob_a_bank"]
    argv += ["--out", str(out), "--no-progress"]
    main(argv)  # exits on an error
    return out


def test_quick_run_writes_every_agent_of_both_tables(quick):
    assert {p.name for p in quick.iterdir()} == {
        "leaderboard.md",
        "leaderboard.csv",
        "leaderboard_head_to_head.csv",
    }
    columns, rows = read_csv(quick / "leaderboard.csv")
    assert columns == AGENT_COLUMNS
    overall = [r for r in rows if r["side"] == "all"]
    assert {(r["game"], r["players"]) for r in overall} == {
        ("art_robbery", "4"),
        ("how_to_rob_a_bank", "4"),
    }
    for game in ["art_robbery", "how_to_rob_a_bank"]:
        mine = [r for r in overall if r["game"] == game]
        assert {r["agent"] for r in mine} == QUICK_AGENTS
        assert [int(r["rank"]) for r in mine] == [1, 2, 3, 4, 5, 6]
        ordinals = [float(r["ordinal"]) for r in mine]
        assert ordinals == sorted(ordinals, reverse=True)
    assert {r["side"] for r in rows if r["game"] == "art_robbery"} == {"all"}
    assert {r["side"] for r in rows if r["game"] == "how_to_rob_a_bank"} == {
        "all",
        "bank",
        "robbers",
    }


def test_intervals_hold_the_rates_and_decision_rates_are_measured(quick):
    _, rows = read_csv(quick / "leaderboard.csv")
    for r in rows:
        assert number(r["win_low"]) <= number(r["win_rate"]) <= number(r["win_high"])
        assert number(r["decisions_per_second"]) > 0 and int(r["decisions"]) > 0
        if r["side"] == "all":
            assert number(r["rating_low"]) < number(r["mu"]) < number(r["rating_high"])
            # each agent holds one of the sides in sides/6 of the games
            sides = len(get_game(r["game"]).side_seats(int(r["players"])))
            assert int(r["games"]) == int(r["table_games"]) * sides // 6
        else:
            assert r["mu"] == ""
    _, pairs = read_csv(quick / "leaderboard_head_to_head.csv")
    for r in pairs:
        assert number(r["win_low"]) <= number(r["win_rate"]) <= number(r["win_high"])
    # a side's figures add up to the whole
    bank = {(r["game"], r["agent"], r["side"]): r for r in rows if r["game"] == "how_to_rob_a_bank"}
    for agent in QUICK_AGENTS:
        sides = [bank["how_to_rob_a_bank", agent, side] for side in ("bank", "robbers")]
        whole = bank["how_to_rob_a_bank", agent, "all"]
        assert sum(int(s["wins"]) for s in sides) == int(whole["wins"])
        assert sum(int(s["games"]) for s in sides) == int(whole["games"])


def test_head_to_head_is_symmetric(quick):
    columns, rows = read_csv(quick / "leaderboard_head_to_head.csv")
    assert columns == PAIR_COLUMNS
    pairs = {(r["game"], r["side"], r["agent"], r["opponent"]): r for r in rows}
    ties_seen = 0
    for (game, side, agent, opponent), r in pairs.items():
        games, wins, losses, ties = (int(r[k]) for k in ("games", "wins", "losses", "ties"))
        assert games == wins + losses + ties > 0
        if side == "all":
            back = pairs[game, "all", opponent, agent]
            assert (int(back["wins"]), int(back["losses"])) == (losses, wins)
            assert float(r["win_rate"]) + float(back["win_rate"]) == pytest.approx(1 - ties / games)
            ties_seen += ties
        elif side == "bank":  # the bank's record against the robbers, seen from both sides
            back = pairs[game, "robbers", opponent, agent]
            assert (int(back["wins"]), int(back["losses"])) == (losses, wins)
    assert ties_seen > 0  # four-player games: both lose in most meetings
    sides = {(r["game"], r["side"]) for r in rows}
    assert ("art_robbery", "bank") not in sides and ("how_to_rob_a_bank", "robbers") in sides


def test_report_shows_each_table_and_the_command(quick):
    text = (quick / "leaderboard.md").read_text()
    assert "## Art Robbery, 4 players" in text and "## How to Rob a Bank, 4 players" in text
    assert "`heist leaderboard --quick --games art_robbery how_to_rob_a_bank --out " in text
    assert "(seed 12)" in text and "By side:" in text and "As bank (rows)" in text
    assert "`ismcts:simulations=50`" in text


def result_of(game_name, num_players, seatings_and_rewards, labels):
    game = get_game(game_name)
    records = [
        {
            "game": i,
            "seating": seating,
            "rewards": rewards,
            "scores": [None] * len(rewards),
            "forfeit": None,
        }
        for i, (seating, rewards) in enumerate(seatings_and_rewards)
    ]
    entrants = [Entrant(label, "random") for label in labels]
    sides = game.side_seats(num_players)
    return TournamentResult.build(game, num_players, 0, entrants, sides, records)


def counts(figures):
    return figures["games"], figures["wins"], figures["losses"], figures["ties"]


def test_head_to_head_counts_wins_losses_and_ties():
    result = result_of(
        "art_robbery",
        3,
        [
            ((0, 1, 2), [1.0, -1.0, -1.0]),  # A beats B and C; B and C tie
            ((1, 2, 0), [1.0, 1.0, -1.0]),  # B and C both win (a tie), both beat A
            ((2, 0, 1), [0.0, 0.0, 0.0]),  # a truncated game: nobody wins
        ],
        ["A", "B", "C"],
    )
    assert counts(head_to_head(result, 0, 1)) == (3, 1, 1, 1)
    assert counts(head_to_head(result, 1, 0)) == (3, 1, 1, 1)
    assert counts(head_to_head(result, 1, 2)) == (3, 0, 0, 3)
    assert head_to_head(result, 0, 2)["win_rate"] == pytest.approx(1 / 3)


def test_head_to_head_by_side_and_with_several_sides_each():
    bank = result_of(
        "how_to_rob_a_bank", 4, [((0, 1), [1.0, -1.0, -1.0, -1.0]), ((1, 0), [1.0] + [-1.0] * 3)],
        ["A", "B"],
    )  # fmt: skip
    assert counts(head_to_head(bank, 0, 1, side=0)) == (1, 1, 0, 0)  # A's bank beat B
    assert counts(head_to_head(bank, 0, 1, side=1)) == (1, 0, 1, 0)  # A's robbers lost
    assert counts(head_to_head(bank, 0, 1)) == (2, 1, 1, 0)
    # two entrants at four seats: every side of one meets every side of the other
    shared = result_of("art_robbery", 4, [((0, 1, 0, 1), [1.0, -1.0, -1.0, -1.0])], ["A", "B"])
    assert counts(head_to_head(shared, 0, 1)) == (4, 2, 0, 2)


def test_an_agent_trained_for_another_count_sits_out_with_the_reason(tmp_path, capsys):
    argv = ["leaderboard", "--games", "art_robbery", "--counts", "5", "--games-per-table", "5"]
    argv += ["--agents", "random", "heuristic", "ppo", "--out", str(tmp_path), "--no-progress"]
    status, _ = run(argv, capsys)
    assert status == 0
    _, rows = read_csv(tmp_path / "leaderboard.csv")
    assert {r["agent"] for r in rows} == {"random", "heuristic"}
    text = (tmp_path / "leaderboard.md").read_text()
    assert "`ppo` does not play this table: checkpoint" in text and "with 4 players" in text


def test_the_tuned_heuristic_sits_where_its_weights_belong(tmp_path, capsys):
    assert "heuristic:weights=tuned" in default_agents((10,), ["toits_de_paris_v0"])
    assert "heuristic:weights=tuned" not in default_agents((10,), ["art_robbery"])
    argv = ["leaderboard", "--games", "art_robbery", "toits_de_paris", "--counts", "3"]
    argv += ["--games-per-table", "3", "--agents", "random", "heuristic:weights=tuned"]
    status, _ = run([*argv, "--out", str(tmp_path), "--no-progress"], capsys)
    assert status == 0
    _, rows = read_csv(tmp_path / "leaderboard.csv")
    seated = {(r["game"], r["agent"]) for r in rows}
    assert ("toits_de_paris", "heuristic:weights=tuned") in seated
    assert ("art_robbery", "heuristic:weights=tuned") not in seated
    text = (tmp_path / "leaderboard.md").read_text()
    assert "`heuristic:weights=tuned` does not play this table: the art_robbery heuristic" in text


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--games", "art_robbery", "--agents", "heuristic:weights=tuned"], "cannot play art_r"),
        (["--games", "chess"], "unknown game 'chess'; available: art_robbery"),
        (["--agents", "random", "nobody"], "unknown agent 'nobody'; available:"),
        (["--games", "toits_de_paris", "--counts", "5"], "allowed: 2 to 4"),
        (["--agents", "ismcts:budget=3"], "unknown ISMCTS setting(s) budget"),
        (["--agents", "ppo:path=missing.zip"], "checkpoint missing.zip not found"),
        (["--games-per-table", "0"], "must be at least 1"),
    ],
)
def test_bad_input_is_one_line_naming_what_is_allowed(argv, message, tmp_path, capsys):
    status, text = run(["leaderboard", *argv, "--out", str(tmp_path)], capsys)
    assert status == 2 and message in text and "Traceback" not in text
    assert text.startswith("heist leaderboard: error: ") and text.count("\n") == 1
    assert not list(tmp_path.iterdir())  # nothing played, nothing written


def test_an_unwritable_folder_is_refused_before_any_game(tmp_path, capsys):
    taken = tmp_path / "a_file"
    taken.write_text("")
    argv = ["leaderboard", "--games", "art_robbery", "--agents", "random", "--out", str(taken)]
    status, text = run(argv, capsys)
    assert status == 2 and f"heist leaderboard: error: cannot write to {taken}: " in text


def test_help_lists_the_choices(capsys):
    status, text = run(["leaderboard", "--help"], capsys)
    assert status == 0 and text.startswith("usage: heist leaderboard")
    for option in ["--games", "--counts", "--agents", "--games-per-table", "--quick", "--out"]:
        assert option in text
    assert "every agent against every other" in run(["--help"], capsys)[1]


def test_a_quick_run_leaves_the_committed_leaderboard_alone(tmp_path, monkeypatch, capsys):
    """--quick without --out writes under results/, never over docs/leaderboard.md."""
    monkeypatch.chdir(tmp_path)
    argv = ["leaderboard", "--quick", "--games", "toits_de_paris", "--games-per-table", "2"]
    status, text = run([*argv, "--agents", "random", "heuristic", "--no-progress"], capsys)
    assert status == 0 and "wrote results/leaderboard_quick/leaderboard.md" in text
    assert not (tmp_path / "docs").exists()
    assert (tmp_path / "results" / "leaderboard_quick" / "leaderboard.csv").exists()


def test_update_replaces_only_the_tables_it_plays(quick, tmp_path, capsys):
    for path in quick.iterdir():
        (tmp_path / path.name).write_bytes(path.read_bytes())
    argv = ["leaderboard", "--games", "art_robbery", "--agents", "random", "heuristic"]
    argv += ["--counts", "4", "--games-per-table", "4", "--seed", "5", "--out", str(tmp_path)]
    status, text = run([*argv, "--no-progress", "--update"], capsys)
    assert status == 0 and f"updated {tmp_path / 'leaderboard.md'}" in text
    before = (quick / "leaderboard.md").read_text()
    after = (tmp_path / "leaderboard.md").read_text()
    bank = before[before.index("## How to Rob a Bank") :]
    assert after.endswith(bank)  # the other table, word for word
    assert after[: after.index("## ")] == before[: before.index("## ")]  # the header too
    art = after[after.index("## Art Robbery") : after.index("## How to Rob a Bank")]
    assert "from `heist leaderboard --games art_robbery" in art and "(seed 5)" in art
    assert "`ismcts:simulations=10`" not in art  # this run's agents only
    for name in ("leaderboard.csv", "leaderboard_head_to_head.csv"):
        columns, old = read_csv(quick / name)
        new_columns, new = read_csv(tmp_path / name)
        assert new_columns == columns
        assert [r for r in new if r["game"] != "art_robbery"] == [
            r for r in old if r["game"] != "art_robbery"
        ]
        assert {r["agent"] for r in new if r["game"] == "art_robbery"} == {"random", "heuristic"}
        assert new[0]["game"] == "art_robbery"  # in its old place, first
    argv[argv.index("--counts") + 1] = "3"  # a table the page lacks goes last
    assert run([*argv, "--no-progress", "--update"], capsys)[0] == 0
    page = (tmp_path / "leaderboard.md").read_text()
    assert page.index("## Art Robbery, 3 players") > page.index("## How to Rob a Bank")
    assert read_csv(tmp_path / "leaderboard.csv")[1][-1]["players"] == "3"


def test_an_updated_table_seats_the_full_runs_agents():
    """A table updated alone lists the agents it leaves out (heuristic:weights=tuned, in a
    game whose heuristic has no weights) as the full leaderboard does."""
    from argparse import Namespace

    from experiments.tools.leaderboard import TUNED_HEURISTIC, run_agents

    args = Namespace(agents=None, games=["how_to_rob_a_bank"], update=True)
    assert TUNED_HEURISTIC in run_agents(args, (100,))
    assert TUNED_HEURISTIC not in run_agents(Namespace(**{**vars(args), "update": False}), (100,))
    assert run_agents(Namespace(**{**vars(args), "agents": ["random"]}), (100,)) == ["random"]


def test_an_update_of_one_game_leaves_out_the_agents_that_cannot_play_it(
    tmp_path, capsys, monkeypatch
):
    """`--update --games how_to_rob_a_bank`: the tuned heuristic (Les Toits de Paris's
    weights) sits out with its reason instead of stopping the run."""
    from experiments.tools import leaderboard

    played = []
    monkeypatch.setattr(leaderboard, "check_updatable", lambda out: None)
    monkeypatch.setattr(leaderboard, "run", lambda tables, *args: played.extend(tables))
    monkeypatch.setattr(leaderboard, "update", lambda tables, *args: [])
    argv = ["leaderboard", "--games", "how_to_rob_a_bank", "--counts", "3", "--update"]
    status, text = run([*argv, "--out", str(tmp_path), "--no-progress"], capsys)
    assert status == 0, text
    [table] = played
    assert "has no weights" in table["left_out"][leaderboard.TUNED_HEURISTIC]
    assert {"ppo", "heuristic", "random"} <= set(table["agents"])
    status, text = run([*argv, "--agents", leaderboard.TUNED_HEURISTIC], capsys)
    assert status == 2 and "cannot play how_to_rob_a_bank" in text  # named: an error


def test_update_needs_a_leaderboard_to_update(tmp_path, capsys):
    argv = ["leaderboard", "--games", "art_robbery", "--agents", "random", "--update"]
    status, text = run([*argv, "--out", str(tmp_path)], capsys)
    assert status == 2 and text.count("\n") == 1
    assert "--update needs a leaderboard in" in text and "missing: leaderboard.md" in text
    assert not list(tmp_path.iterdir())


def test_ctrl_c_writes_the_tables_played_beside_the_leaderboard(tmp_path, monkeypatch, capsys):
    from tests.test_cli import interrupt_after

    interrupt_after(monkeypatch, workers, "_tick", 9)  # as the third game of the second table ends
    argv = ["leaderboard", "--games", "art_robbery", "--counts", "3", "4", "--agents", "random"]
    argv += ["heuristic", "--games-per-table", "4", "--out", str(tmp_path), "--no-progress"]
    status, text = run(argv, capsys)
    assert status == 130 and "Traceback" not in text
    partial = [tmp_path / name for name in ("leaderboard_partial.md", "leaderboard_partial.csv")]
    assert text.splitlines()[-1].startswith(
        "heist leaderboard: interrupted: kept 1 whole table and 2 of 4 games of the next, "
        f"written (marked partial) to {partial[0]}, {partial[1]}, "
    )
    assert not (tmp_path / "leaderboard.md").exists()  # a whole one is never replaced
    page = partial[0].read_text()
    assert "**Partial: interrupted.** 1 whole table, then 2 of 4 games of the last" in page
    _, rows = read_csv(partial[1])
    assert {(row["players"], row["table_games"]) for row in rows} == {("3", "6"), ("4", "2")}


def test_a_run_into_the_docs_folder_makes_its_overview_tables_anew(quick, tmp_path, capsys):
    """A leaderboard written to the docs folder remakes the overview page's generated tables
    (``heist docs``'s job), so `heist docs --check` holds after it."""
    from experiments.tools import docs

    root = tmp_path / "docs"
    root.mkdir()
    for path in quick.iterdir():
        (root / path.name).write_bytes(path.read_bytes())
    overview = root / "leaderboard_overview.md"
    overview.write_text(
        "# Overview\n\n<!-- generated: leaderboard -->\nstale\n"
        "<!-- end generated: leaderboard -->\n"
    )
    argv = ["leaderboard", "--games", "art_robbery", "--agents", "random", "heuristic"]
    argv += ["--counts", "4", "--games-per-table", "4", "--seed", "5", "--out", str(root)]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(docs, "DOCS", root.resolve())
        status, text = run([*argv, "--no-progress", "--update"], capsys)
    assert status == 0 and f"updated {overview.resolve()}" in text
    page = overview.read_text()
    assert "stale" not in page and "**Art Robbery**" in page and "`heuristic`" in page
    assert page == docs.filled(overview, root)
