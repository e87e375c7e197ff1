"""The web table in a real browser (Debian's Chromium, headless): a full game of each game
played by clicking legal actions, a page reload mid-game, a download that replays, a saved
record replayed back and forth with seat views that hide other hands, and bad input shown in
the page. Each game's table is pictured mid-game in $HEIST_WEB_SCREENSHOTS (``docs/web``
retakes the web table page's pictures; by default a temporary folder)."""

import json
import os
import re

import numpy as np
import pytest

import heist_envs
from heist_envs.core.record import GameRecord

#: game -> (player count, who plays each seat): you in one or more seats, random agents in
#: the others (How to Rob a Bank: you run both robbers against the bank).
PLAY = {
    "art_robbery": (2, ["human", "random"]),
    "toits_de_paris": (2, ["human", "random"]),
    "how_to_rob_a_bank": (2, ["random", "human", "human"]),
    "thiefs_market": (3, ["human", "random", "random"]),
}
SCREENSHOT_AFTER = 20  # your moves before the table's picture is taken


def start_game(page, game, num_players, players, seed):
    page.click("#show-new")
    page.select_option("#game", game)
    page.select_option("#num-players", str(num_players))
    for k, who in enumerate(players):
        page.select_option(f'.seat-player[data-seat="{k}"]', who)
    page.fill("#seed", str(seed))
    page.click("#start")
    page.wait_for_selector(f'#board[data-game="{game}"]')
    page.select_option("#pace", "0")


def next_turn(page) -> dict:
    """Wait until you may move or the game is over: the position shown, the seat it is drawn
    from and how many legal actions are offered (none once the game is over)."""
    handle = page.wait_for_function(
        """() => {
            const board = document.getElementById("board");
            const legal = document.querySelectorAll("#actions button.legal").length;
            const over = document.querySelector("#status.over") !== null;
            const {step, seat} = board.dataset;
            return (legal || over) && {legal, over, step, seat};
        }"""
    )
    return handle.json_value()


def step_of(page) -> str:
    return page.get_attribute("#board", "data-step")


def click_legal_action(page, turn, rng):
    page.locator("#actions button.legal").nth(int(rng.integers(turn["legal"]))).click()
    page.wait_for_function(f"document.getElementById('board').dataset.step !== '{turn['step']}'")


def check_seat_view_hides_other_hands(page, game, seat):
    """The table is drawn from your seat: other sides' hands are card backs only."""
    if game == "art_robbery":
        others = page.locator(f'#board .player:not([data-seat="{seat}"])')
        assert others.locator(".card.art").count() == 0
        assert page.locator(f'#board .player[data-seat="{seat}"] .hand .card.art').count() > 0
    if game == "how_to_rob_a_bank":  # you are the robbers: the bank's hand is hidden
        assert page.locator('#board .player[data-seat="0"] .hand .card.plan').count() == 0


@pytest.mark.parametrize(
    "game",
    # one game in the default suite; the longer three (half a minute each) with -m slow
    [g if g == "art_robbery" else pytest.param(g, marks=pytest.mark.slow) for g in PLAY],
)
def test_a_full_game_by_clicking_legal_actions(page, game, screenshots, tmp_path):
    num_players, players = PLAY[game]
    mine = [k for k, who in enumerate(players) if who == "human"]
    rng = np.random.default_rng(1)
    start_game(page, game, num_players, players, seed=7)
    moves = 0
    turn = next_turn(page)
    while not turn["over"]:
        assert int(turn["seat"]) in mine
        if moves % 10 == 0:
            check_seat_view_hides_other_hands(page, game, int(turn["seat"]))
        if moves == 3:  # a reload keeps the game in progress
            page.reload()
            page.wait_for_selector(f'#board[data-game="{game}"][data-step="{turn["step"]}"]')
            turn = next_turn(page)
        if moves == SCREENSHOT_AFTER:
            page.mouse.move(0, 0)
            page.screenshot(path=os.path.join(screenshots, f"{game}.png"), full_page=True)
        click_legal_action(page, turn, rng)
        moves += 1
        turn = next_turn(page)
    assert moves > 5
    assert page.locator("#outcome table.scores").count() == 1
    page.screenshot(path=tmp_path / f"{game}-over.png", full_page=True)

    with page.expect_download() as download:
        page.click("#download")
    with open(download.value.path()) as saved:
        record = GameRecord.from_json(saved.read())
    assert record.game == heist_envs.get_game(game).env_name
    assert record.players == players
    assert len(record.actions) == int(step_of(page))
    env = record.replay()
    assert all(env.terminations[a] or env.truncations[a] for a in env.possible_agents)


def saved_record(tmp_path, game="art_robbery", num_players=3, seed=5, moves=40):
    env = heist_envs.make(game, num_players=num_players)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        env.step(int(rng.choice(env.legal_actions())))
    path = tmp_path / "record.json"
    path.write_text(env.game_record().to_json())
    return path


def test_replay_a_saved_record_back_and_forth_and_from_each_seat(page, tmp_path):
    path = saved_record(tmp_path)
    page.click("#show-replay")
    page.set_input_files("#record-file", str(path))
    page.click("#load-record")
    page.wait_for_selector('#board[data-game="art_robbery"][data-step="0"]')
    assert page.text_content("#step-label") == "move 0 of 40"
    assert page.locator("#pace-controls").is_hidden()  # nothing to pace in a replay
    for _ in range(3):
        page.click("#forward")
    page.wait_for_selector('#board[data-step="3"]')
    page.click("#back")
    page.wait_for_selector('#board[data-step="2"]')
    page.click("#latest")
    page.wait_for_selector('#board[data-step="40"]')

    # the spectator sees every hand; a seat sees its own and card backs for the others
    assert page.locator("#board .card.back").count() == 1  # the draw pile only
    page.select_option("#view-seat", "1")
    page.wait_for_selector('#board[data-seat="1"]')
    assert page.locator('#board .player[data-seat="1"] .hand .card.art').count() > 0
    for other in (0, 2):
        panel = page.locator(f'#board .player[data-seat="{other}"]')
        assert panel.locator(".card.art").count() == 0
        assert panel.locator(".card.back").count() > 0
    page.screenshot(path=tmp_path / "replay-seat-view.png", full_page=True)
    page.click("#first")
    page.wait_for_selector('#board[data-step="0"][data-seat="1"]')


def slow_fetches(page, path_part, delays_ms, method=None):
    """Reload the page with its requests to URLs holding ``path_part`` (of ``method``, if
    given) held back: the k-th by ``delays_ms[k]`` (the last delay for the rest), as a busy
    server answers."""
    page.add_init_script(
        f"""(() => {{
            const realFetch = window.fetch, delays = {json.dumps(delays_ms)};
            const method = {json.dumps(method)};
            let calls = 0;
            window.fetch = async (url, options) => {{
                const held = !method || (options?.method || "GET") === method;
                if (held && String(url).includes({json.dumps(path_part)})) {{
                    const wait = delays[Math.min(calls++, delays.length - 1)];
                    await new Promise((resolve) => setTimeout(resolve, wait));
                }}
                return realFetch(url, options);
            }};
        }})()"""
    )
    page.reload()


def test_the_page_answers_clicks_made_before_the_server_sent_its_setup(page, tmp_path):
    slow_fetches(page, "/api/setup", [1000])
    page.click("#show-replay")  # at once: the setup is still on its way
    page.set_input_files("#record-file", str(saved_record(tmp_path)))
    page.click("#load-record")
    page.wait_for_selector('#board[data-game="art_robbery"][data-step="0"]')


def test_quick_clicks_through_a_replay_land_on_the_last_position_asked_for(page, tmp_path):
    """Three clicks on ▶ faster than the server answers go three moves on, and a slow answer
    for an earlier position does not replace the one asked for last."""
    path = saved_record(tmp_path)
    slow_fetches(page, "/view?", [0, 600, 400, 200, 0])  # the answers come back last first
    page.click("#show-replay")
    page.set_input_files("#record-file", str(path))
    page.click("#load-record")
    page.wait_for_selector('#board[data-game="art_robbery"][data-step="0"]')
    for _ in range(3):
        page.click("#forward")
    page.wait_for_selector('#board[data-step="3"]')
    page.wait_for_timeout(1000)  # every answer is in
    assert step_of(page) == "3"
    assert page.text_content("#step-label") == "move 3 of 40"


def test_bad_records_and_moves_get_a_message_and_change_nothing(page, tmp_path):
    page.click("#show-replay")
    page.fill("#record-text", "{not json")
    page.click("#load-record")
    page.wait_for_selector("#message:not([hidden])")
    assert "not valid JSON" in page.text_content("#message")

    record = json.loads(saved_record(tmp_path).read_text())
    record["actions"].append(999)
    page.fill("#record-text", json.dumps(record))
    page.click("#load-record")
    page.wait_for_function("document.getElementById('message').textContent.includes('999')")

    big = tmp_path / "big.json"
    big.write_text(" " * (2 << 20))
    page.set_input_files("#record-file", str(big))
    page.click("#load-record")
    page.wait_for_function("document.getElementById('message').textContent.includes('limit')")
    assert page.locator("#game-area").is_hidden()  # no table was made

    start_game(page, "art_robbery", 2, ["human", "random"], seed=3)
    step = next_turn(page)["step"]
    page.evaluate("playAction(1000)")
    page.wait_for_function("document.getElementById('message').textContent.includes('1000')")
    assert step_of(page) == step
    assert page.locator("#actions button.legal").count() > 0


def settled_step(page, quiet_ms=1000, tries=20) -> int:
    """The position shown once it has stayed the same for ``quiet_ms``: a move under way may
    land however slow the server is, but the board must come to rest."""
    step = step_of(page)
    for _ in range(tries):
        page.wait_for_timeout(quiet_ms)
        now = step_of(page)
        if now == step:
            return int(step)
        step = now
    raise AssertionError(f"the board kept moving for {tries * quiet_ms} ms after the pause")


def test_watch_agents_with_pause_and_step(page):
    start_game(page, "how_to_rob_a_bank", 2, ["random", "heuristic", "heuristic"], seed=2)
    assert page.locator("#board .bank-grid .room").count() == 9
    assert page.locator('#board .room[class*="wall-"]').count() >= 3
    assert page.locator("#board .piece.guard").count() == 2
    page.wait_for_function("Number(document.getElementById('board').dataset.step) >= 5")
    page.click("#pause")
    paused_at = settled_step(page)  # a move under way lands, then nothing moves
    page.click("#step-once")
    page.wait_for_selector(f'#board[data-step="{paused_at + 1}"]')
    page.wait_for_timeout(500)
    assert int(step_of(page)) == paused_at + 1
    page.click("#pause")  # run again
    page.wait_for_function(
        f"Number(document.getElementById('board').dataset.step) >= {paused_at + 4}"
    )


#: game -> (player count, seed, what the result names): agents in every seat, quick to finish
WATCH = {
    "art_robbery": (3, 4, ["token points", "fewest-alibis penalty", "the fewest alibis"]),
    "toits_de_paris": (2, 1, ["card points", "majority tokens", "token points"]),
    "how_to_rob_a_bank": (2, 1, ["bags stolen", "target", "win"]),
    "thiefs_market": (3, 1, ["card VP", "henchmen", "cards owned"]),
}


def page_fits(page) -> bool:
    """Nothing sticks out sideways: no horizontal scrolling, the result inside its panel."""
    return page.evaluate(
        """() => {
            const aside = document.querySelector("aside").getBoundingClientRect();
            const result = document.querySelector("#outcome").getBoundingClientRect();
            const page = document.documentElement;
            return page.scrollWidth <= page.clientWidth && result.right <= aside.right + 0.5;
        }"""
    )


@pytest.mark.parametrize(
    "game",
    [g if g == "art_robbery" else pytest.param(g, marks=pytest.mark.slow) for g in WATCH],
)
def test_the_end_of_a_game_says_who_won_and_why(page, game, screenshots):
    """Random agents play a game to its end: the status and the result give the winners and
    the rules' scoring parts, the pace controls go, the page fits 1,024 to 1,920 px, the
    record names the agents and the menu counts the moves."""
    num_players, seed, words = WATCH[game]
    players = ["random"] * heist_envs.get_game(game).num_seats(num_players)
    start_game(page, game, num_players, players, seed)
    assert page.locator("#pause").is_visible()
    page.wait_for_selector("#status.over", timeout=120_000)
    steps = step_of(page)
    status = page.text_content("#status")
    result = page.text_content("#outcome")
    assert status.startswith("Game over: ") and status[len("Game over: ") :] in result
    assert all(word in result for word in words), result
    winners = page.locator("#outcome th.winner").all_text_contents()
    assert winners and all(w.removeprefix("★ ") in status or "robber" in w for w in winners)
    assert page.locator("#pace-controls").is_hidden() and page.locator("#download").is_visible()
    board = page.text_content("#board")
    assert "GAME_OVER" not in board and "game over" in board  # phases named for people
    if game == "how_to_rob_a_bank":
        assert "s0-s11" in page.text_content("#board dl.legend")
    if game == "art_robbery":
        assert ": take " in page.get_attribute("#board .card.art >> nth=0", "title")
    assert page.get_attribute("#rules", "href") == f"/rules/{game}"
    assert f"{steps} moves, over" in page.locator("#tables option:checked").text_content()
    for width in (1024, 1920):
        page.set_viewport_size({"width": width, "height": 900})
        assert page_fits(page), f"the page does not fit {width} px"
    page.set_viewport_size({"width": 1280, "height": 900})
    page.mouse.move(0, 0)
    page.screenshot(path=os.path.join(screenshots, f"{game}-end.png"), full_page=True)

    with page.expect_download() as download:
        page.click("#download")
    with open(download.value.path()) as saved:
        assert GameRecord.from_json(saved.read()).players == players


def test_thiefs_market_cards_say_what_they_do(page):
    from heist_envs.thiefs_market.components import CARD_NAMES, CARD_TEXTS

    texts = dict(zip(CARD_NAMES, CARD_TEXTS, strict=True))
    start_game(page, "thiefs_market", 3, ["human", "random", "random"], seed=2)
    cards = page.locator("#board .market-row .card.market:not(.empty)")
    assert cards.count() == 5  # row A
    for card in cards.all():
        name = card.locator("b").text_content()
        assert texts[name] in card.get_attribute("title")
        assert card.locator(".effect").text_content() == texts[name]
    for width in (1024, 1920):
        page.set_viewport_size({"width": width, "height": 900})
        assert page_fits(page), f"the page does not fit {width} px"


def test_a_replay_labels_the_seats_with_the_agents_that_played(page, tmp_path):
    path = saved_record(tmp_path, num_players=2, moves=10)
    record = json.loads(path.read_text())
    path.write_text(json.dumps({**record, "players": ["heuristic", "ppo"]}))
    page.click("#show-replay")
    page.set_input_files("#record-file", str(path))
    page.click("#load-record")
    page.wait_for_selector('#board[data-game="art_robbery"][data-step="0"]')
    labels = page.locator("#board .player .who small").all_text_contents()
    assert labels == ["heuristic", "ppo"]


def test_every_seat_starts_with_an_agent_and_the_button_says_watch_or_play(page):
    """Issue 52 item 9: seat 0 defaulted to you, so watching meant changing it first."""
    page.wait_for_selector("#new-game:not([hidden]) .seat-player")
    page.select_option("#game", "how_to_rob_a_bank")
    page.select_option("#num-players", "2")
    seats = page.locator(".seat-player")
    assert [seats.nth(k).input_value() for k in range(seats.count())] == ["heuristic"] * 3
    assert page.text_content("#start") == "Watch"
    page.select_option('.seat-player[data-seat="1"]', "human")
    assert page.text_content("#start") == "Play"
    page.select_option('.seat-player[data-seat="1"]', "random")
    assert page.text_content("#start") == "Watch"
    page.click("#start")
    page.wait_for_selector('#board[data-game="how_to_rob_a_bank"]')
    assert page.text_content("#title") == "How to Rob a Bank · watch"
    assert page.locator("#actions button.legal").count() == 0


def test_the_page_says_what_it_loads_and_how_long_an_agent_thinks(page, screenshots):
    """Issue 52 item 9: the first table with search and network seats showed nothing for
    30 s or more (here the server's answers are held back instead)."""
    slow_fetches(page, "/api/tables", [2500], method="POST")
    slow_fetches(page, "/advance", [3500])
    page.click("#show-new")
    page.select_option("#game", "how_to_rob_a_bank")
    page.select_option("#num-players", "2")
    for k, who in enumerate(["random", "heuristic", "heuristic"]):
        page.select_option(f'.seat-player[data-seat="{k}"]', who)
    page.click("#start")
    loading = page.locator("#loading")
    assert loading.is_visible()  # at once, before the server answers
    assert loading.text_content().startswith(
        "Setting up the table: loading random for bank; heuristic for robber_yellow, robber_red…"
    )
    page.wait_for_function("document.getElementById('loading').textContent.includes('… 1 s')")
    page.mouse.move(0, 0)
    page.locator("#new-game").screenshot(path=os.path.join(screenshots, "loading.png"))
    page.wait_for_selector('#board[data-game="how_to_rob_a_bank"]')
    assert loading.is_hidden()
    page.wait_for_function(
        "/ · thinking… [2-9] s$/.test(document.getElementById('status').textContent)"
    )
    status = page.text_content("#status")
    assert re.fullmatch(r"To act: \w+ \((random|heuristic)\) · thinking… \d s", status), status


def test_how_to_rob_a_bank_buttons_and_log_name_the_cards_planned(page, tmp_path):
    """Issue 52 item 9: the buttons and the log showed raw names (``PLAN_0 (Move)``)."""
    rng = np.random.default_rng(0)
    start_game(page, "how_to_rob_a_bank", 2, ["random", "human", "human"], seed=7)
    turn = next_turn(page)
    while not page.locator("#actions button.legal", has_text="plan ").count():
        click_legal_action(page, turn, rng)
        turn = next_turn(page)
    buttons = page.locator("#actions button.legal").all_text_contents()
    assert buttons and all(b.startswith("plan ") and "PLAN_" not in b for b in buttons), buttons
    page.mouse.move(0, 0)
    page.screenshot(path=tmp_path / "how_to_rob_a_bank-plan.png", full_page=True)
    click_legal_action(page, turn, rng)
    log = page.locator("#log li").all_text_contents()
    assert any(" plan " in entry for entry in log) and not any("PLAN_" in e for e in log), log
