"""docs/games/*.md: current with the games' metadata, and complete."""

import re
import shutil

import pytest

from experiments.tools.docs import DOCS, cell, page, pages, stale
from heist_envs.core.catalog import GAME_MODULES
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


@pytest.mark.parametrize("name", game_names())
def test_page_shows_the_environment_s_facts_as_a_markdown_table(name):
    """The facts table of the game's docstring (reStructuredText) becomes a Markdown table: no
    double backticks, roles or ``====`` borders reach the page."""
    game = get_game(name)
    head = page(game).split("## How to play")[0]
    assert "``" not in head and ":mod:" not in head and "=====" not in head
    assert f"| environment | `{game.env_name}` |" in head
    assert f"| Import | `from heist_envs import {game.env_name}` |" in head
    actions = next(line for line in head.splitlines() if line.startswith("| Actions |"))
    assert actions.startswith(f"| Actions | `Discrete({game.num_actions})`")
    assert f"`heist_envs.{name}.rules`" in head  # :mod:`.rules`, resolved


def test_a_wrapped_row_of_a_docstring_table_is_one_row():
    from experiments.tools.docs import rst_table

    lines = ["====  =====", "A     one", "      two", "B     three", "====  ====="]
    assert rst_table(lines) == [["A", "one two"], ["B", "three"]]


ROOT = DOCS.parent
#: the pages with tables generated from the registry, and the tables each holds
GENERATED_TABLES = {
    ROOT / "README.md": ["games"],
    DOCS / "index.md": ["games"],
    DOCS / "environments.md": ["options"],
    DOCS / "leaderboard_overview.md": ["leaderboard"],
}


@pytest.mark.parametrize("path", GENERATED_TABLES, ids=lambda p: p.name)
def test_the_hand_written_pages_hold_their_generated_tables(path):
    text = path.read_text()
    for name in GENERATED_TABLES[path]:
        assert f"<!-- generated: {name} " in text and f"<!-- end generated: {name} -->" in text
    assert path in pages()


def test_a_game_added_to_the_registry_joins_the_games_and_options_tables(monkeypatch):
    """tests/vault registered beside the shipped games: the README's and the front page's
    games tables and the options table go stale, and their regenerated text lists it."""
    from experiments.tools.docs import filled, games_table, options_table

    shipped = {name: get_game(name) for name in game_names()}
    monkeypatch.setitem(GAME_MODULES, "vault", "tests.vault")
    games = "\n".join(games_table("docs/games"))
    vault = "| [Vault](docs/games/vault.md), the test game | 2–3 | `player_0`… | `vault_v0` |"
    assert f"{vault} take one or two gold bars in turn; whoever takes the last one wins |" in games
    for game in shipped.values():
        assert f"[{game.title}](docs/games/{game.name}.md)" in games
    assert "| `bank`, `robber_yellow`, `robber_red`, (`robber_green`) |" in games
    options = "\n".join(options_table("games"))
    for game in shipped.values():
        for option in game.options:
            assert f"| [{game.title}](games/{game.name}.md) | `{option}` |" in options
    for path in (ROOT / "README.md", DOCS / "index.md"):
        text = filled(path, DOCS)
        assert text != path.read_text() and "vault_v0" in text


def test_the_leaderboard_tables_hold_every_agent_of_the_csv():
    import csv

    from experiments.tools.docs import leaderboard_tables

    text = "\n".join(leaderboard_tables(DOCS))
    with open(DOCS / "leaderboard.csv", newline="") as file:
        rows = [row for row in csv.DictReader(file) if row["side"] == "all"]
    for row in rows:
        low, high = float(row["win_low"]), float(row["win_high"])
        assert f"[{low:.2f}, {high:.2f}] #{row['rank']}" in text
        assert f"| `{row['agent']}` |" in text
    assert text.count("\n| agent |") + text.startswith("| agent |") == len(
        {r["game"] for r in rows}
    )


def test_a_changed_decision_makes_the_page_stale(tmp_path):
    for part in ("decisions", "rules"):
        shutil.copytree(DOCS / part, tmp_path / part)
    for path, text in pages(tmp_path).items():
        path.parent.mkdir(exist_ok=True)
        path.write_text(text)
    assert stale(tmp_path) == []
    decisions = tmp_path / "decisions" / "art_robbery.md"
    decisions.write_text(decisions.read_text() + "- **D99** A new decision.\n")
    assert stale(tmp_path) == [tmp_path / "games" / "art_robbery.md"]


#: codes each game's text render uses, which its page must explain
RENDER_CODES = {
    "art_robbery": ["`B`", "`*`", "`Greedy`", "`1x2`", "`N hidden cards`", "`>`"],
    "toits_de_paris": ["`c0`", "`A1`", "`R`", "`F`", "`V1`", "`TB`", "`P`", "`B`", "`--`"],
    "how_to_rob_a_bank": ["`#`", "`G0`", "`Y`", "`Y+2`", "`$1`", "`L1`", "`A`", "`<VAN>`"],
    "thiefs_market": ["`G`", "`P`", "`M`", "`B2`", "`(1W 2R)`", "`pawn`", "`Tailor*`"],
}


@pytest.mark.parametrize("name", game_names())
def test_page_teaches_the_game_and_its_render(name):
    text = page(get_game(name))
    for section in ("## How to play", "### Setup", "### What is hidden", "## Components"):
        assert section in text
    assert "### A turn" in text or "### A round" in text
    assert "scoring" in text.lower() and re.search(r"^### .*\bend\b", text, re.M | re.I)
    legend = text[text.index("### Reading the text render") :]
    for code in RENDER_CODES[name]:
        assert f"| {code}" in legend, code


def test_no_document_points_outside_the_repository():
    sources = [ROOT / "README.md", *DOCS.rglob("*.md"), *(ROOT / "heist_envs").rglob("*.py")]
    assert [p for p in sources if "shared/rules" in p.read_text()] == []


def test_thiefs_market_page_lists_every_card_with_cost_and_effect():
    from heist_envs.thiefs_market import components

    text = page(get_game("thiefs_market"))
    for card in components.CARD_TABLE:
        row = f"| {card.id} | {card.deck} | {cell(card.name)} | {card.cost} | {card.icons} | "
        assert row in text
        effect = text.split(row)[1].split(" |")[0]
        assert len(effect) > 10
    assert "| 42 | C | Insurance Racket | 1G 1W 1R | wishlist | +1 purchase every round" in text
    assert "turn one red die of your pile to green or white or blue" in text


def test_bank_page_lists_tiles_and_both_decks():
    from heist_envs.how_to_rob_a_bank import components

    text = page(get_game("how_to_rob_a_bank"))
    for tile in components.TILE_NAMES:
        assert f"| `{tile}` |" in text
    assert "| `P4` | guard badge | none | 4 players |" in text
    for side, names in enumerate(components.CARD_NAMES):
        seat = 0 if side == 0 else 1
        for t, card in enumerate(names):
            assert f"| {card} | " in text and f" | {components.DECK_COUNTS[seat, t]} |" in text
    assert "| Double move | Guard move + Guard move | 3 |" in text


def test_the_ppo_row_names_each_sides_own_policy():
    from experiments.tools.docs import agents_table

    bank = next(row for row in agents_table(get_game("how_to_rob_a_bank")) if "`ppo`" in row)
    assert bank.endswith(
        "a side with a policy of its own plays that one: `how_to_rob_a_bank-bank.zip` (bank), "
        "`how_to_rob_a_bank-robbers.zip` (robbers) |"
    )
    art = next(row for row in agents_table(get_game("art_robbery")) if "`ppo`" in row)
    assert "policy of its own" not in art
