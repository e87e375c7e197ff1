"""Files the installed package reads at run time live inside its packages (the wheel carries
only those; .ci/wheel_check installs one and runs it outside the checkout)."""

from pathlib import Path

import pytest

from heist_envs.registry import game_names

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("name", game_names())
def test_the_web_tables_rules_pages_are_inside_the_package(name):
    pytest.importorskip("starlette")
    from experiments.web.server import RULES

    assert ROOT / "experiments" in RULES.parents
    assert (RULES / f"{name}.md").read_text() == (
        ROOT / "docs" / "games" / f"{name}.md"
    ).read_text()


@pytest.mark.parametrize("name", game_names())
def test_the_text_views_rules_pages_are_inside_the_package(name):
    from agents.text_view import RULES_PAGES

    assert ROOT / "agents" in RULES_PAGES.parents
    assert (RULES_PAGES / f"{name}.md").read_text() == (
        ROOT / "docs" / "games" / f"{name}.md"
    ).read_text()
