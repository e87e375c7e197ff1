"""A live web table for the tests: ``heist serve`` on a free port, and Debian's Chromium
driven by Playwright (no browser download)."""

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

#: the repository, so that a server started in another folder runs this checkout
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def serving(*args, cwd=None):
    """The base URL of ``heist serve [args]`` running on loopback in its own process (in
    ``cwd``), until the block ends."""
    pytest.importorskip("uvicorn")
    pytest.importorskip("starlette")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "experiments.cli", "serve", "--port", str(port), *args]
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [ROOT, os.environ.get("PYTHONPATH")])),
    }
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=cwd, env=env
    )
    deadline = time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(f"{base}/api/setup", timeout=5).close()
            break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                pytest.fail(f"heist serve did not start: {process.stdout.read().decode()}")
            time.sleep(0.1)
    try:
        yield base
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture(scope="session")
def server():
    """The base URL of ``heist serve`` running on loopback, in its own process, for the
    whole test session."""
    with serving() as base:
        yield base


def skip_without_chromium(path: str = CHROMIUM) -> None:
    """Skip when there is no Chromium at ``path`` (the README's test command runs on machines
    that have none, CI's first stage included); fail instead where $HEIST_REQUIRE_CHROMIUM is
    set, as `.ci/run` sets it once it has installed Debian's chromium package."""
    if os.path.exists(path):
        return
    if os.environ.get("HEIST_REQUIRE_CHROMIUM"):
        pytest.fail(f"HEIST_REQUIRE_CHROMIUM is set but there is no Chromium at {path}")
    pytest.skip(f"no Chromium at {path} (apt-get install chromium)")


@pytest.fixture(scope="session")
def browser():
    """Headless Chromium from the system, driven by Playwright."""
    sync_api = pytest.importorskip("playwright.sync_api")
    skip_without_chromium()
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser, server):
    """A fresh browser session (its own cookie) on the table's page."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, accept_downloads=True)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(error))
    page.goto(server)
    yield page
    context.close()
    assert not errors, f"script errors in the page: {errors}"


@pytest.fixture(scope="session")
def screenshots(tmp_path_factory):
    """Where screenshots go: $HEIST_WEB_SCREENSHOTS (docs/web regenerates the web table
    page's), else a temporary folder."""
    folder = os.environ.get("HEIST_WEB_SCREENSHOTS")
    if folder:
        os.makedirs(folder, exist_ok=True)
        return folder
    return str(tmp_path_factory.mktemp("screenshots"))
