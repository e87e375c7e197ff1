"""The web table's menu offers the outside agents ``heist serve --agents`` names, and plays them."""

import json
import subprocess
import sys
import time
import urllib.request
from http.cookiejar import CookieJar

import pytest

from tests.agents.test_outside_agents import AGENT_FILE
from tests.web.conftest import free_port

pytest.importorskip("starlette")  # the web extra
pytest.importorskip("uvicorn")


def test_the_menu_offers_and_plays_an_outside_agent(tmp_path):
    path = tmp_path / "my_agents.py"
    path.write_text(AGENT_FILE)
    spec = f"{path}:Lowest:explore=0.2"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "experiments.cli", "serve", "--port", str(port)]
    server = subprocess.Popen([*command, "--agents", spec], stdout=subprocess.PIPE)
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))

    def call(route, body=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(base + route, data, {"Content-Type": "application/json"})
        with opener.open(request, timeout=30) as response:
            return json.loads(response.read())

    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                setup = call("/api/setup")
                break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, "no server"
                time.sleep(0.2)
        assert spec in setup["players"] and "random" in setup["players"]
        table = call(
            "/api/tables",
            {"game": "art_robbery", "num_players": 2, "players": [spec, "random"], "seed": 3},
        )
        for _ in range(4):
            view = call(f"/api/tables/{table['id']}/advance", {})
        assert view["steps"] == 4 and view["players"] == [spec, "random"]
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_serve_refuses_a_bad_spec_in_one_line(tmp_path):
    command = [sys.executable, "-m", "experiments.cli", "serve", "--agents", "nowhere.py:Agent"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "heist serve: error: agent 'nowhere.py:Agent': no file nowhere.py; accepted forms: "
        "NAME[:key=value,...] (a built-in or installed agent), package.module:Name[:key=value,"
        "...], path/to/file.py:Name[:key=value,...]"
    ]


def test_serve_loads_an_outside_agent_before_it_listens(tmp_path):
    """The web table plays its agents in its own process, so it loads their code at start:
    a file without the class named is refused before the server listens."""
    path = tmp_path / "my_agents.py"
    path.write_text(AGENT_FILE)
    command = [sys.executable, "-m", "experiments.cli", "serve", "--port", str(free_port())]
    done = subprocess.run(
        [*command, "--agents", f"{path}:NoSuchAgent"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    [line] = done.stderr.strip().splitlines()
    assert line.startswith("heist serve: error: agent ") and "NoSuchAgent" in line
    assert "heist web table on" not in done.stdout
