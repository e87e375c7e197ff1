"""The web table's HTTP API on a live ``heist serve``: static files only from its folder,
moves and records checked as the Python API checks them, nothing hidden sent to a player."""

import html
import http.client
import json
import socket
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request
from http.cookiejar import CookieJar

import pytest

pytest.importorskip("starlette")  # the web extra

import heist_envs  # noqa: E402
from heist_envs.core.record import GameRecord  # noqa: E402


class Browser:
    """A browser session against the server: its own cookie jar."""

    def __init__(self, base):
        self.base = base
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))

    def request(self, path, body=None, content_type="application/json"):
        """(status, parsed JSON or text) of a GET, or of a POST when ``body`` is given."""
        data = None if body is None else body if isinstance(body, bytes) else json.dumps(body)
        request = urllib.request.Request(
            self.base + path,
            data=data.encode() if isinstance(data, str) else data,
            headers={"Content-Type": content_type},
            method="GET" if body is None else "POST",
        )
        try:
            with self.opener.open(request) as response:
                status, text = response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            status, text = error.code, error.read().decode()
        try:
            return status, json.loads(text)
        except json.JSONDecodeError:
            return status, text

    def new_table(self, game="art_robbery", players=("human", "random"), seed=1, **extra):
        status, table = self.request(
            "/api/tables",
            {
                "game": game,
                "num_players": extra.get("num_players", len(players)),
                "players": list(players),
                "seed": seed,
            },
        )
        assert status == 200, table
        return table

    def view(self, table, **params):
        return self.request(f"/api/tables/{table['id']}/view?{urllib.parse.urlencode(params)}")


@pytest.fixture
def client(server):
    return Browser(server)


def raw_get(base, path, host=None):
    """A GET of ``path`` exactly as written (no normalisation of ``..``)."""
    netloc = urllib.parse.urlsplit(base).netloc
    connection = http.client.HTTPConnection(netloc, timeout=10)
    connection.putrequest("GET", path, skip_host=True)
    connection.putheader("Host", host or netloc)
    connection.endheaders()
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response.status, body


@pytest.mark.parametrize(
    "path",
    [
        "/static/../server.py",
        "/static/%2e%2e/server.py",
        "/static/..%2fserver.py",
        "/static/%2e%2e%2f%2e%2e%2fcli.py",
        "/static//etc/passwd",
        "/static/../../../../../../etc/passwd",
        "/static/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
    ],
)
def test_no_file_outside_the_static_folder_is_served(server, path):
    status, body = raw_get(server, path)
    assert status == 404
    assert b"import" not in body and b"root:" not in body


def test_the_page_and_its_static_files_are_served(server):
    assert raw_get(server, "/")[0] == 200
    status, body = raw_get(server, "/static/app.js")
    assert status == 200 and b"drawTable" in body


def test_the_favicon_and_each_games_rules_page_are_served(server):
    status, body = raw_get(server, "/favicon.ico")
    assert status == 200 and body.startswith(b"<svg")
    for name in heist_envs.game_names():
        status, body = raw_get(server, f"/rules/{name}")
        title = heist_envs.get_game(name).title
        assert status == 200 and f"<h1>{title}" in html.unescape(body.decode()), body[:200]
    assert raw_get(server, "/rules/chess")[0] == 404
    assert raw_get(server, "/rules/..%2fREADME")[0] == 404


def test_requests_for_other_host_names_are_refused(server):
    """On loopback the server answers only to its own names (no DNS rebinding)."""
    assert raw_get(server, "/api/setup", host="attacker.example")[0] == 400


def test_an_illegal_move_gets_the_python_apis_message_and_changes_nothing(client):
    table = client.new_table(seed=1)
    before = client.view(table)[1]
    env = heist_envs.make("art_robbery", num_players=2)
    env.reset(seed=1)
    for action in [1000, -1, "3", 2.5, None, True]:
        with pytest.raises((ValueError, TypeError)) as expected:
            env.step(action)
        status, answer = client.request(f"/api/tables/{table['id']}/move", {"action": action})
        assert (status, answer["error"]) == (400, str(expected.value))
    assert client.view(table)[1] == before


def test_a_move_of_an_agent_seat_or_an_agents_move_for_you_is_refused(client):
    table = client.new_table(players=("random", "human"))
    view = client.view(table)[1]
    assert view["actor"] == 0 and view["legal"] == []
    status, answer = client.request(f"/api/tables/{table['id']}/move", {"action": 0})
    assert status == 400 and "played by random" in answer["error"]
    assert client.request(f"/api/tables/{table['id']}/advance", {})[0] == 200
    status, answer = client.request(f"/api/tables/{table['id']}/advance", {})
    assert status == 400 and "waits for your move" in answer["error"]


def test_while_you_play_only_your_seats_are_shown_and_no_record_is_given(client):
    table = client.new_table(players=("human", "random", "random"), num_players=3)
    status, view = client.view(table)
    assert status == 200 and view["seat"] == 0
    hands = [p["hand"] for p in view["table"]["players"]]
    assert hands[0] and hands[1] is None and hands[2] is None
    for seat in ("spectator", "1", "player_2"):
        status, answer = client.view(table, seat=seat)
        assert status == 403 and "your seats only" in answer["error"]
    status, answer = client.request(f"/api/tables/{table['id']}/record")
    assert status == 403 and "once it is over" in answer["error"]


def test_tables_belong_to_their_browser_session(client, server):
    table = client.new_table()
    stranger = Browser(server)
    assert stranger.view(table)[0] == 404
    assert stranger.request(f"/api/tables/{table['id']}/move", {"action": 0})[0] == 404
    assert stranger.request("/api/tables")[1] == []
    assert [t["id"] for t in client.request("/api/tables")[1]] == [table["id"]]


def test_bad_setups_get_a_message(client):
    cases = [
        ({"game": "chess", "players": []}, "unknown game"),
        ({"game": "art_robbery", "num_players": 9, "players": []}, "out of range"),
        ({"game": "art_robbery", "num_players": 2, "players": ["human"]}, "a player for each"),
        ({"game": "art_robbery", "num_players": 2, "players": ["human", "god"]}, "unknown player"),
        ({"game": "art_robbery", "num_players": 2, "players": ["human"] * 2, "seed": "x"}, "seed"),
    ]
    for body, message in cases:
        status, answer = client.request("/api/tables", body)
        assert status == 400 and message in answer["error"], answer
    status, answer = client.request("/api/tables", b"[1, 2", "application/json")
    assert status == 400 and "JSON object" in answer["error"]
    assert client.request("/api/tables")[1] == []


def test_a_request_nested_too_deeply_is_refused(client):
    nested = b'{"game": ' + b"[" * 30_000 + b"]" * 30_000 + b"}"
    status, answer = client.request("/api/tables", nested)
    assert status == 400 and "nested" in answer["error"]


@pytest.mark.parametrize("players", [None, 5])
def test_players_that_are_not_a_list_get_a_message(client, players):
    body = {"game": "art_robbery", "num_players": 2, "players": players}
    status, answer = client.request("/api/tables", body)
    assert status == 400
    assert answer["error"] == (
        "players must be a list with a player for each of the 2 seats (player_0, player_1), "
        f"got {players!r}"
    )


@pytest.mark.parametrize("param", ["step", "seat"])
@pytest.mark.parametrize("value", ["\u00b2", "-1", "1.5"])
def test_a_step_or_seat_that_is_not_a_whole_number_is_named(client, param, value):
    table = client.new_table()
    status, answer = client.view(table, **{param: value})
    assert status == 400
    allowed = {
        "step": "step must be a whole number 0 to 0 (the moves played)",
        "seat": "unknown seat",
    }
    assert answer["error"].startswith(allowed[param]) and repr(value) in answer["error"]


def test_a_table_in_play_survives_other_clients_requests(client, server):
    """Requests without a cookie make no session, so they cannot push out a table in use
    (before, each made one and the 256 newest were kept)."""
    table = client.new_table()
    for _ in range(256):
        assert raw_get(server, "/api/tables")[0] == 200
    assert client.view(table)[0] == 200
    assert "set-cookie" not in urllib.request.urlopen(server + "/api/setup").headers


def played_record(client, game="toits_de_paris", moves=30):
    table = client.new_table(game, players=("random", "random"), seed=3)
    for _ in range(moves):
        assert client.request(f"/api/tables/{table['id']}/advance", {})[0] == 200
    status, text = client.request(f"/api/tables/{table['id']}/record")
    assert status == 200
    return table, text


def test_a_record_downloads_and_replays_step_by_step(client):
    table, record = played_record(client)
    assert len(GameRecord.from_json(json.dumps(record)).replay().actions) == 30
    status, replay = client.request("/api/replay", json.dumps(record).encode(), "text/plain")
    assert status == 200 and replay["mode"] == "replay" and replay["steps"] == 30
    for step in (0, 17, 30):
        mine = client.view(replay, step=step, seat="spectator")[1]
        original = client.view(table, step=step, seat="spectator")[1]
        assert mine["table"] == original["table"] and mine["log"] == original["log"]
    assert client.view(replay, step=31)[0] == 400
    assert client.view(replay, seat="player_7")[0] == 400


@pytest.mark.parametrize(
    "change",
    [
        lambda r: "{not json",
        lambda r: json.dumps({**r, "format": "pickle"}),
        lambda r: json.dumps({**r, "actions": r["actions"] + [99]}),
        lambda r: json.dumps({**r, "actions": ["__import__('os')"]}),
        lambda r: json.dumps({**r, "game": "chess_v0"}),
        lambda r: json.dumps({**r, "options": {"evil": 1}}),
        lambda r: json.dumps({**r, "num_players": 99}),
    ],
)
def test_a_bad_record_gets_the_python_apis_message_and_makes_no_table(client, change):
    _, record = played_record(client, moves=5)
    tables = client.request("/api/tables")[1]
    text = change(record)
    with pytest.raises(ValueError) as expected:
        GameRecord.from_json(text).replay()
    status, answer = client.request("/api/replay", text.encode(), "text/plain")
    assert (status, answer["error"]) == (400, str(expected.value))
    assert client.request("/api/tables")[1] == tables


def test_a_record_that_is_not_text_is_refused(client):
    status, answer = client.request("/api/replay", b"\xff\xfe{}", "text/plain")
    assert status == 400 and "UTF-8" in answer["error"]
    assert client.request("/api/tables")[1] == []


def test_an_oversized_upload_is_refused_unread(client):
    # only the headers go out: the server must answer from the declared length alone (a body
    # sent as well races the refusal, and the client may see its pipe closed instead)
    url = urllib.parse.urlsplit(client.base)
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
    connection.putrequest("POST", "/api/replay")
    connection.putheader("Content-Type", "text/plain")
    connection.putheader("Content-Length", str(2 << 20))
    connection.endheaders()
    response = connection.getresponse()
    status, answer = response.status, json.loads(response.read())
    connection.close()
    assert status == 413 and "limit" in answer["error"]
    assert client.request("/api/tables")[1] == []


@pytest.mark.slow  # loading torch and compiling ISMCTS take most of a minute
def test_every_registry_agent_can_take_a_seat(client):
    """Watch offers every agent the registry makes from its name alone, the shipped PPO
    policy included (an RLlib policy needs a checkpoint path, which a page never names)."""
    from agents.registry import ready_agent_names
    from experiments.tools.protocol import POOL

    names = ready_agent_names()
    assert "ppo" in names and "rllib" not in names
    offered = client.request("/api/setup")[1]["players"]
    # the person, the agents of the registry, then the reference pool's (a person's games rate)
    assert offered == list(dict.fromkeys(["human", *names, *POOL]))
    table = client.new_table(players=names, num_players=4, seed=2)
    assert table["mode"] == "watch"
    for _ in range(12):
        status, answer = client.request(f"/api/tables/{table['id']}/advance", {})
        assert status == 200, answer
    view = client.view(table)[1]
    assert view["steps"] == 12 and {m["seat"] for m in view["log"]} == {0, 1, 2, 3}


def test_heist_serve_binds_to_loopback_unless_told(monkeypatch):
    from experiments import cli
    from experiments.web import server

    calls = []

    def serve(host, port, agents, save_games):
        calls.append((host, port, save_games))

    monkeypatch.setattr(server, "serve", serve)
    cli.main(["serve"])
    cli.main(["serve", "--host", "0.0.0.0", "--port", "8123", "--save-games", "mine.jsonl"])
    assert calls == [("127.0.0.1", 8000, None), ("0.0.0.0", 8123, "mine.jsonl")]


def heist_serve(*args):
    command = [sys.executable, "-m", "experiments.cli", "serve", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("port", ["99999", "0", "-1"])
def test_a_port_out_of_range_gets_one_line_naming_the_range(port):
    """Issue 52 item 5: ``--port 99999`` printed 72 lines and 3 tracebacks."""
    done = heist_serve("--port", port)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        f"heist serve: error: --port must be 1 to 65535, got {port}"
    ]


def test_a_port_in_use_gets_one_line():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = heist_serve("--port", str(port))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        f"heist serve: error: cannot listen on 127.0.0.1:{port}: Address already in use: "
        "another program listens there; choose another --port"
    ]
