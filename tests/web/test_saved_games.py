"""A person's games saved at the web table (``heist serve --save-games FILE``) and rated on
the benchmark card's scale (``heist eval --human FILE``): opt-in, append-only, every game
checked by replaying it, and a tampered or unreadable file named in one line."""

import errno
import json
import os
import subprocess
import sys

import numpy as np
import pytest

from agents.arena import Outcome, rate
from agents.stats import Z95
from experiments import cli
from experiments.tools.protocol import (
    DRIFT,
    RATINGS,
    card_table,
    rate_person,
    reference_ratings,
)
from experiments.web.saved_games import GameSaver, SavedGame, read_saved_games
from experiments.web.tables import TableError, new_table
from heist_envs.core.record import GameRecord
from tests.web.conftest import serving
from tests.web.test_server import Browser

#: the lineups played: the person's seat and a reference of the pool in every other
LINEUPS = [
    ["human", "heuristic", "heuristic"],
    ["random", "human", "random"],
    ["heuristic", "heuristic", "human"],
]


def play_saved_games(path, games=3, seed=0):
    """Games at web tables that save to ``path`` (the lineups in turn): the person plays
    random legal moves."""
    saver = GameSaver(path)
    rng = np.random.default_rng(seed)
    for k in range(games):
        table = new_table("art_robbery", 3, LINEUPS[k % len(LINEUPS)], seed=seed + k, saver=saver)
        assert table.saved == "pending"
        while not table.over:
            if table.actor() in table.human_seats():
                table.play(int(rng.choice(table.env.legal_actions())))
            else:
                table.advance()
        assert table.saved == "saved"
    return path


@pytest.fixture(scope="module")
def saved_file(tmp_path_factory):
    return play_saved_games(tmp_path_factory.mktemp("person") / "games.jsonl")


def lines_of(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def eval_human(path, *args, capsys):
    """``heist eval --human PATH ARGS``: (exit status, stdout, stderr lines)."""
    try:
        status = cli.main(["eval", "--human", str(path), *args])
    except SystemExit as stop:
        status = stop.code
    out, err = capsys.readouterr()
    return status, out, err.strip().splitlines()


def test_each_saved_game_carries_what_rating_needs(saved_file):
    [first, *_] = lines_of(saved_file)
    assert first["format"] == "heist-envs/saved-game" and first["version"] == 1
    assert first["heist_envs"] and first["saved"].endswith("Z")
    record = GameRecord.from_json(json.dumps(first["record"]))
    assert record.players == LINEUPS[0] and record.num_players == 3 and record.seed == 0
    env = record.replay()
    assert first["outcome"] == {
        "rewards": [float(env.rewards[a]) for a in env.possible_agents],
        "truncated": False,
    }


def test_a_persons_saved_games_give_an_anchored_rating_on_the_cards_scale(saved_file):
    card = rate_person(saved_file)
    assert (card.game, card.saved_games, card.rated_games, card.invalid) == (
        "art_robbery",
        3,
        3,
        [],
    )
    [row] = card.ratings
    assert row["players"] == 3 and row["games"] == 3
    assert row["rating_low"] < row["mu"] < row["rating_high"]
    assert row["mu"] == pytest.approx(row["rating_low"] + Z95 * row["sigma"])
    assert row["sigma"] < 25 / 3  # the games moved it from the default rating
    frozen = reference_ratings()["ratings"]["art_robbery"]["3"]
    assert row["references"]["heuristic"]["mu"] == frozen["heuristic"][0]
    counts = {(t["players"], t["reference"]): t["games"] for t in card.tables}
    assert counts == {(3, "random"): 1, (3, "heuristic"): 2}

    # the same rating as the arena's, the references frozen, seated side by side as played
    labels, records, fixed = ["person"], [], {}
    for saved in read_saved_games(saved_file)[0]:
        seating = []
        for who in saved.record.players:
            if who == "human":
                seating.append(0)
            else:
                fixed[f"{who}@{len(labels)}"] = frozen[who]
                seating.append(len(labels))
                labels.append(f"{who}@{len(labels)}")
        outcomes = [Outcome(reward, False, None) for reward in saved.rewards]
        records.append({"seating": seating, "outcomes": outcomes})
    expected = rate(labels, records, fixed, DRIFT)["person"]
    assert (row["mu"], row["sigma"]) == pytest.approx((expected["mu"], expected["sigma"]))

    text = card.markdown()
    assert "| players | person: rating [95%] | ordinal | games rated |" in text
    assert "| 3 | `heuristic` | 2 |" in text and "| 3 | `random` | 1 |" in text


def test_heist_eval_human_prints_the_card_and_writes_it(saved_file, tmp_path, capsys):
    status, out, err = eval_human(saved_file, "--out", str(tmp_path / "card"), capsys=capsys)
    assert status is None and err == []
    assert out.startswith(f"# Rating card: the person of `{saved_file}` on Art Robbery")
    card = json.loads((tmp_path / "card" / "card.json").read_text())
    assert card["rated_games"] == 3 and card["anchored_ratings"][0]["games"] == 3
    assert (tmp_path / "card" / "card.md").read_text() == out.split("\nwrote ")[0]


def tampered(path, tmp_path, edit) -> os.PathLike:
    """A copy of ``path`` whose second line ``edit`` changed (a dict -> its new text)."""
    lines = path.read_text().splitlines(keepends=True)
    lines[1] = edit(json.loads(lines[1]))
    copy = tmp_path / "tampered.jsonl"
    copy.write_text("".join(lines))
    return copy


def edited_outcome(game):
    game["outcome"]["rewards"][0] += 1.0
    return json.dumps(game) + "\n"


def bad_action(game):
    game["record"]["actions"][4] = 999
    return json.dumps(game) + "\n"


def cut_short(game):
    return json.dumps(game)[:500] + "\n"


@pytest.mark.parametrize(
    "edit, why",
    [
        (edited_outcome, 'line 2: its saved outcome {"rewards": ['),
        (
            bad_action,
            "line 2: game record action 4 does not replay: art_robbery: action 999 is out",
        ),
        (cut_short, "line 2: not a whole JSON object (a write cut short, or an edit)"),
    ],
)
def test_a_tampered_game_is_named_in_one_line_and_the_others_rate(
    saved_file, tmp_path, capsys, edit, why
):
    path = tampered(saved_file, tmp_path, edit)
    status, out, err = eval_human(path, capsys=capsys)
    assert status is None
    [line] = err
    assert line.startswith(f"heist eval: {path} {why}") and line.endswith("; left out")
    assert "| 3 | `heuristic` | 2 |" in out  # line 2 was the game against random
    card = rate_person(path)
    assert [(t["reference"], t["games"]) for t in card.tables] == [("heuristic", 2)]
    assert card.invalid == [line.removeprefix(f"heist eval: {path} ").removesuffix("; left out")]
    assert "## Lines that failed their checks (left out)" in card.markdown()


def test_a_file_with_no_valid_game_or_none_readable_is_one_error_line(saved_file, tmp_path, capsys):
    one = tmp_path / "one.jsonl"
    one.write_text(edited_outcome(lines_of(saved_file)[0]))
    status, out, err = eval_human(one, capsys=capsys)
    assert status == 2 and out == ""
    [line] = err
    assert line.startswith(
        f"heist eval: error: {one} holds no saved game that passes its checks: line 1: its "
        "saved outcome"
    )
    for path, why in [
        (tmp_path / "missing.jsonl", "No such file or directory"),
        (tmp_path, "Is a directory"),
    ]:
        status, out, err = eval_human(path, capsys=capsys)
        assert (status, err) == (2, [f"heist eval: error: cannot read {path}: {why}"])
    wrong = tmp_path / "notes.txt"
    wrong.write_text("my notes\n")
    status, _, err = eval_human(wrong, capsys=capsys)
    assert status == 2 and err == [
        f"heist eval: error: {wrong} holds no saved game that passes its checks: line 1: not "
        "a whole JSON object (a write cut short, or an edit)"
    ]


def test_a_file_of_several_games_rates_the_one_chosen(saved_file, tmp_path, capsys):
    path = tmp_path / "both.jsonl"
    path.write_text(saved_file.read_text())
    table = new_table("toits_de_paris", 2, ["random", "human"], seed=1, saver=GameSaver(path))
    while not table.over:
        if table.actor() in table.human_seats():
            table.play(table.env.legal_actions()[0])
        else:
            table.advance()
    status, out, err = eval_human(path, capsys=capsys)
    assert status == 2 and err == [
        f"heist eval: error: {path} holds games of several games: art_robbery (3), "
        "toits_de_paris (1); choose one with --game"
    ]
    status, out, err = eval_human(path, "--game", "toits_de_paris", capsys=capsys)
    assert status is None and err == []
    assert "- 1 game: no frozen rating of `random` at 2 players" in out
    status, out, _ = eval_human(path, "--game", "art_robbery", capsys=capsys)
    assert "| 3 | `heuristic` | 2 |" in out


def test_an_agent_and_human_games_or_neither_are_refused_in_one_line(saved_file, capsys):
    for argv, message in [
        (["eval", "random", "--human", str(saved_file)], "give an agent to score or --human"),
        (["eval", "--game", "art_robbery"], "give the agent to score and --game GAME"),
        (["eval", "--human", str(saved_file), "--game", "thiefs_market"], "holds no game of"),
        (["eval", "--human", str(saved_file), "--players", "9"], "out of range"),
        (["eval", "--human", str(saved_file), "--exploit"], "--exploit measures an agent"),
    ]:
        with pytest.raises(SystemExit) as stop:
            cli.main(argv)
        [line] = capsys.readouterr().err.strip().splitlines()
        assert stop.value.code == 2 and message in line, line


def test_only_games_against_one_reference_of_the_pool_rate_and_the_others_say_why():
    frozen = reference_ratings(RATINGS)["ratings"]["art_robbery"]

    def why(players, game="art_robbery", options=None):
        record = GameRecord(game, len(players), 1, options or {}, [], players=players)
        return card_table(heist_game(game), SavedGame(1, record, [], False), frozen)

    assert why(["random", "human", "random"]) == ("random", 1)
    assert why(["human", "ismcts", "ismcts"]) == "`ismcts` is not in the reference pool"
    assert why(["human", "random", "heuristic"]).startswith("different agents held")
    assert why(["human", "human", "random"]).startswith("the person held other seats")
    assert why(["human", "random"]) == "no frozen rating of `random` at 2 players"
    assert why(["human", "random", "random"], options={"max_turns": 10}).startswith(
        "played with options {'max_turns': 10}"
    )
    # How to Rob a Bank: the robbers are one side, held by one player at the card's tables
    bank = reference_ratings(RATINGS)["ratings"]["how_to_rob_a_bank"]
    record = GameRecord("how_to_rob_a_bank", 4, 1, {}, [], players=["ppo", "human", "ppo", "ppo"])
    saved = SavedGame(1, record, [], False)
    assert card_table(heist_game("how_to_rob_a_bank"), saved, bank).startswith("the person held")
    record.players = ["ppo", "human", "human", "human"]
    assert card_table(heist_game("how_to_rob_a_bank"), saved, bank) == ("ppo", 1)


def heist_game(name):
    import heist_envs

    return heist_envs.get_game(name)


def test_saving_appends_on_a_line_of_its_own_after_a_write_cut_short(saved_file, tmp_path):
    """A crash in the middle of a write leaves a last line without its newline: the next
    game is saved whole on a line of its own, and every game saved before still rates."""
    path = tmp_path / "games.jsonl"
    whole = saved_file.read_text()
    path.write_text(whole + whole.splitlines()[0][:300])  # a fourth game, cut short
    play_saved_games(path, games=1, seed=10)
    games, problems = read_saved_games(path)
    assert [g.line for g in games] == [1, 2, 3, 5]
    assert problems == ["line 4: not a whole JSON object (a write cut short, or an edit)"]
    assert path.read_text().startswith(whole)


def test_a_file_that_holds_something_else_is_refused_and_left_as_it_was(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("not games\n")
    with pytest.raises(ValueError, match="is not a file of saved games"):
        GameSaver(notes)
    assert notes.read_text() == "not games\n"
    with pytest.raises(ValueError, match=f"cannot save games to {tmp_path}/no/such.jsonl"):
        GameSaver(tmp_path / "no" / "such.jsonl")
    command = [sys.executable, "-m", "experiments.cli", "serve", "--save-games", str(notes)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().splitlines() == [
        f"heist serve: error: {notes} is not a file of saved games (its first line is no "
        "saved game); name a new file or one that heist serve --save-games wrote"
    ]


def test_a_watched_game_is_never_saved(tmp_path):
    with pytest.raises(TableError, match="only a game you play is saved"):
        new_table("art_robbery", 2, ["random", "random"], saver=GameSaver(tmp_path / "g.jsonl"))
    assert (tmp_path / "g.jsonl").read_text() == ""


def test_a_failed_write_is_said_and_keeps_the_game_and_the_file(tmp_path, monkeypatch):
    path = play_saved_games(tmp_path / "g.jsonl", games=1)
    before = path.read_bytes()

    def full_disk(fd, data):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "write", full_disk)
    table = new_table("art_robbery", 3, LINEUPS[1], seed=9, saver=GameSaver(path))
    while not table.over:
        if table.actor() in table.human_seats():
            table.play(table.env.legal_actions()[0])
        else:
            table.advance()
    assert table.saved == "not saved: cannot write g.jsonl: No space left on device"
    assert path.read_bytes() == before
    assert GameRecord.from_json(table.record_json()).players == LINEUPS[1]


def play_through_the_api(client, save=None, seed=3):
    """A 3-player game at a web table, the person's moves their first legal ones; the
    table's summary at the end."""
    body = {"game": "art_robbery", "num_players": 3, "players": ["human", "random", "random"]}
    if save is not None:
        body["save"] = save
    status, table = client.request("/api/tables", {**body, "seed": seed})
    assert status == 200, table
    while not table["over"]:
        status, view = client.view(table)
        route = "move" if view["legal"] else "advance"
        payload = {"action": view["legal"][0]["action"]} if view["legal"] else {}
        status, table = client.request(f"/api/tables/{table['id']}/{route}", payload)
        assert status == 200, table
    return table


def test_games_are_saved_through_the_server_only_when_asked_and_rate(tmp_path, capsys):
    """The person opts in twice: the server is started with --save-games FILE, and the page
    sends save for a game; the game is written when it ends and rates."""
    with serving("--save-games", "games.jsonl", cwd=tmp_path) as base:
        client = Browser(base)
        assert client.request("/api/setup")[1]["save_games"] == "games.jsonl"
        assert play_through_the_api(client, save=False)["saved"] is None
        assert (tmp_path / "games.jsonl").read_text() == ""
        assert play_through_the_api(client, save=True)["saved"] == "saved"
        status, answer = client.request(
            "/api/tables", {"game": "art_robbery", "players": ["human", "random"], "save": 1}
        )
        assert status == 400 and answer["error"] == "save must be true or false, got 1"
    [game] = lines_of(tmp_path / "games.jsonl")
    assert game["record"]["players"] == ["human", "random", "random"]
    status, out, err = eval_human(tmp_path / "games.jsonl", capsys=capsys)
    assert status is None and err == []
    assert "| 3 | `random` | 1 |" in out


def test_without_save_games_the_server_writes_no_file(tmp_path):
    with serving(cwd=tmp_path) as base:
        client = Browser(base)
        assert client.request("/api/setup")[1]["save_games"] is None
        assert play_through_the_api(client)["saved"] is None
        status, answer = client.request(
            "/api/tables", {"game": "art_robbery", "players": ["human", "random"], "save": True}
        )
        assert status == 400 and answer["error"].startswith("this server saves no games; start")
    assert os.listdir(tmp_path) == []


def test_the_page_offers_saving_only_for_a_game_you_play_where_the_server_saves(
    browser, tmp_path, page
):
    """The box shows only when the server was started with --save-games and a seat is
    yours; ticked, the game is saved when it ends, and the result says so."""
    page.select_option('.seat-player[data-seat="0"]', "human")
    assert page.locator("#save-choice").is_hidden()  # the session's server saves nothing

    with serving("--save-games", "mine.jsonl", cwd=tmp_path) as base:
        context = browser.new_context()
        saving = context.new_page()
        saving.goto(base)
        saving.wait_for_selector("#new-game:not([hidden]) .seat-player")
        assert saving.locator("#save-choice").is_hidden()  # watching: nothing to save
        saving.select_option("#num-players", "3")
        saving.select_option('.seat-player[data-seat="0"]', "human")
        saving.select_option('.seat-player[data-seat="1"]', "random")
        saving.select_option('.seat-player[data-seat="2"]', "random")
        assert saving.locator("#save-choice").is_visible() and saving.is_checked("#save")
        assert "mine.jsonl" in saving.text_content("#save-label")
        saving.fill("#seed", "4")
        saving.click("#start")
        saving.wait_for_selector('#board[data-game="art_robbery"]')
        assert saving.text_content("#title").endswith("· saved when it ends")
        saving.select_option("#pace", "0")
        while not saving.locator("#status.over").count():
            saving.locator("#actions button.legal, #status.over").first.wait_for()
            if saving.locator("#actions button.legal").count():
                step = saving.get_attribute("#board", "data-step")
                saving.locator("#actions button.legal").first.click()
                saving.wait_for_function(
                    f"document.getElementById('board').dataset.step !== '{step}'"
                )
        assert saving.text_content("#saved") == "Saved to mine.jsonl for rating."
        context.close()
    [game] = lines_of(tmp_path / "mine.jsonl")
    assert game["record"]["seed"] == 4 and game["record"]["players"][0] == "human"
