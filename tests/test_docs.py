"""docs/games/*.md: current with the games' metadata, and complete."""

import shutil

import pytest

from experiments.docs import DOCS, cell, page, pages, stale
from heist_envs.registry import game_names, get_game


def test_committed_pages_are_current():
    assert stale() == [], "docs/games is out of date: run `heist docs` and commit the result"
    assert sorted(p.name for p in (DOCS / "games").glob("*.md")) == [
        f"{name}.md" for name in game_names()
    ]


@pytest.mark.parametrize("name", game_names())
def test_page_lists_everything_about_the_game(name):
    game = get_game(name)
    text = page(game)
    assert text.startswith(f"# {game.title} (`{game.env_name}`)")
    for a in range(game.num_actions):
        assert f"| {a} | {cell(game.action_name(a))} |" in text
    for option in game.options:
        assert f"| `{option}` |" in text
    for part, where in game.layout.items():
        assert f"| `{part}` | {where.start}-{where.stop - 1} | {where.stop - where.start} |" in text
    for agent in game.agent_names(game.max_players):
        assert f"`{agent}`" in text
    assert "## Rule decisions" in text and "D1" in text and "D2" in text


def test_a_changed_decision_makes_the_page_stale(tmp_path):
    shutil.copytree(DOCS / "decisions", tmp_path / "decisions")
    for path, text in pages(tmp_path).items():
        path.parent.mkdir(exist_ok=True)
        path.write_text(text)
    assert stale(tmp_path) == []
    decisions = tmp_path / "decisions" / "art_robbery.md"
    decisions.write_text(decisions.read_text() + "- **D99** A new decision.\n")
    assert stale(tmp_path) == [tmp_path / "games" / "art_robbery.md"]
