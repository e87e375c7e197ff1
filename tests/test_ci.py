"""CI runs the README's two commands exactly as the README writes them, before anything else
installs: a CI that installed more extras first would hide a dependency the README's command
lacks (starlette's TestClient needed an HTTP client that only the docs extra brought)."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: the shell blocks of a Markdown page
SHELL_BLOCK = re.compile(r"```bash\n(.*?)```", re.S)
#: a line of a shell script that installs Python packages
INSTALLS = re.compile(r"\bpip install\b")


def readme_commands() -> list[str]:
    """The README's first two shell blocks, each one command: install and demo, then tests."""
    blocks = SHELL_BLOCK.findall((ROOT / "README.md").read_text())[:2]
    commands = [block.strip() for block in blocks]
    assert all("\n" not in command for command in commands), commands
    return commands


def ci_lines() -> list[str]:
    return [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]


def test_the_readme_starts_with_an_install_and_demo_then_a_test_command():
    install, tests = readme_commands()
    assert "pip install" in install and "heist demo" in install
    assert tests.endswith("python -m pytest")


def test_ci_runs_the_readme_commands_verbatim_before_any_other_install():
    lines = ci_lines()
    positions = [lines.index(command) for command in readme_commands()]
    assert positions == sorted(positions)
    up_to_them = [line for line in lines[: positions[-1] + 1] if not line.startswith("#")]
    other_installs = [line for line in up_to_them if INSTALLS.search(line)]
    assert other_installs == [lines[k] for k in positions if INSTALLS.search(lines[k])]


def test_the_readme_test_command_names_every_extra_the_default_suite_needs():
    """The extras of the README's test command bring what the default suite imports without a
    skip: the web table's TestClient needs an HTTP client (httpx2, or httpx on Python 3.10)."""
    extras = re.search(r'-e "\.\[([^\]]+)\]"', readme_commands()[1]).group(1).split(",")
    tomllib = pytest.importorskip("tomllib")  # Python 3.11 on
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    named = [
        requirement
        for extra in extras
        for requirement in pyproject["project"]["optional-dependencies"][extra]
    ]
    assert any(requirement.startswith("httpx2") for requirement in named)
    assert any(requirement.startswith("httpx>") for requirement in named)


def test_the_browser_tests_skip_without_chromium_under_ci_and_fail_only_when_required(
    monkeypatch, tmp_path
):
    """A fresh machine has no Chromium, and the README's test command skips the browser tests
    there, CI's included (a ``CI`` variable once turned the skip into 13 errors)."""
    from tests.web.conftest import skip_without_chromium

    missing = str(tmp_path / "chromium")
    monkeypatch.setenv("CI", "true")
    monkeypatch.delenv("HEIST_REQUIRE_CHROMIUM", raising=False)
    with pytest.raises(pytest.skip.Exception):
        skip_without_chromium(missing)
    monkeypatch.setenv("HEIST_REQUIRE_CHROMIUM", "1")
    with pytest.raises(pytest.fail.Exception, match="HEIST_REQUIRE_CHROMIUM"):
        skip_without_chromium(missing)


def test_ci_requires_chromium_only_after_installing_it():
    lines = ci_lines()
    require = lines.index("export HEIST_REQUIRE_CHROMIUM=1")
    install = next(
        k for k, line in enumerate(lines) if "apt-get install" in line and "chromium" in line
    )
    assert lines.index(readme_commands()[1]) < install < require
    browser_runs = [k for k, line in enumerate(lines) if "pytest" in line and "tests/web" in line]
    assert browser_runs and all(k > require for k in browser_runs)
