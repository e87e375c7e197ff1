"""The documentation site keeps every section the long README had, each on its page."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"

#: each heading of the README before it became a front page -> the page that holds it now
#: and the heading it has there
FORMER_README_SECTIONS = {
    "heist-envs": ("index.md", "heist-envs"),
    "Using an environment": ("environments.md", "Using an environment"),
    "Options, replays and saved games": ("environments.md", "Options, replays and saved games"),
    "The kernel": ("environments.md", "The kernel"),
    "Reliability": ("environments.md", "Reliability"),
    "Batched games and training": ("training/index.md", "Batched games and training"),
    "What is safe to load": ("training/index.md", "What is safe to load"),
    "Search guided by a trained policy": (
        "training/guided_search.md",
        "Search guided by a trained policy",
    ),
    "The learned player of each game": (
        "training/learned_players.md",
        "The learned player of each game",
    ),
    "Distributed self-play on Ray RLlib": (
        "training/index.md",
        "Distributed self-play on Ray RLlib",
    ),
    "The batched engine on a GPU": ("training/index.md", "The batched engine on a GPU"),
    "Agents, tournaments and the `heist` command": (
        "arena.md",
        "Agents, tournaments and the `heist` command",
    ),
    "Leaderboard": ("leaderboard_overview.md", "Leaderboard"),
    "Notebooks": ("studies.md", "The notebooks"),
    "The web table": ("web/README.md", "The web table"),
    "Speed": ("benchmarks.md", "Benchmarks"),
    "Threads on shared cores": ("benchmarks.md", "Threads on shared cores"),
    "Development": ("development.md", "Development"),
    "Notes on PettingZoo conventions": ("environments.md", "Notes on PettingZoo conventions"),
}


def headings(path: Path) -> set[str]:
    return set(re.findall(r"^#+ (.+?)\s*$", path.read_text(), re.M))


@pytest.mark.parametrize("section", FORMER_README_SECTIONS)
def test_a_former_readme_section_has_its_page(section):
    page, heading = FORMER_README_SECTIONS[section]
    assert heading in headings(DOCS / page), f"{section!r}: no heading {heading!r} in docs/{page}"


def test_the_training_research_log_is_a_page_of_its_own():
    log = (DOCS / "training" / "research_log.md").read_text()
    for attempt in ("Soft labels", "PPO fine-tunes at a small step", "The heuristic's move"):
        assert attempt in log


def test_the_readme_is_a_front_page():
    readme = (ROOT / "README.md").read_text()
    assert readme.count("\n") <= 250
    commands = re.findall(r"```bash\n(.*?)```", readme, re.S)
    assert "heist demo" in commands[0] and "python -m pytest" in commands[1]
    for page in re.findall(r"\]\((docs/[^)#]+)", readme):
        assert (ROOT / page).is_file(), page


def readme_commands() -> dict[str, list[str]]:
    """The README's bash blocks, by the heading of the section they are in."""
    sections = re.split(r"^#{1,2} ", (ROOT / "README.md").read_text(), flags=re.M)[1:]
    return {
        section.splitlines()[0]: re.findall(r"```bash\n(.*?)```", section, re.S)
        for section in sections
    }


def test_the_front_page_installs_shows_a_game_the_games_and_a_picture():
    from heist_envs.registry import game_names

    text = (DOCS / "index.md").read_text()
    install = re.search(r"```bash\n(.*?)```", text, re.S).group(1).strip().splitlines()
    assert " && ".join(install) == readme_commands()["heist-envs"][0].strip()  # in lines
    assert re.search(r"```python\n.*env\.reset\(seed=.*env\.step\(", text, re.S)
    for name in game_names():
        assert f"](games/{name}.md)" in text  # a row of the games table
    pictures = re.findall(r"!\[[^\]]+\]\(([^)]+)\)", text)
    assert pictures and all((DOCS / picture).is_file() for picture in pictures)
    # the navigation is the sidebar's: no toctree prints a list of links in the page
    toctrees = re.findall(r"```\{toctree\}\n(.*?)```", text, re.S)
    assert toctrees and all(":hidden:" in block for block in toctrees)


def test_the_leaderboard_overview_opens_with_its_tables_and_they_fit_the_column():
    """Its tables come after a heading and one short paragraph; no row holds more text than
    fits the site's column at 1280 px (85 characters: rows of 82 fit, in screenshots)."""
    text = (DOCS / "leaderboard_overview.md").read_text()
    assert len(text[: text.index("\n|")]) < 900
    rows = [line for line in text.splitlines() if line.startswith("|") and "---" not in line]
    assert rows
    widest = max(rows, key=lambda row: len(re.sub(r"[|`]", "", row)))
    assert len(re.sub(r"[|`]", "", widest)) <= 85, widest


def page_title(path: Path) -> str:
    """A page's title as the navigation shows it: its first level-1 heading."""
    if path.suffix == ".ipynb":
        cells = json.loads(path.read_text())["cells"]
        text = "".join("".join(cell["source"]) + "\n" for cell in cells)
    else:
        text = path.read_text()
    return re.search(r"^# (.+?)\s*$", text, re.M).group(1)


def navigation_titles() -> list[str]:
    """The title of every entry of the site's toctrees, as the sidebar shows them."""
    titles = []
    for path in sorted(p for p in DOCS.rglob("*.md") if "_build" not in p.parts):
        for block in re.findall(r"```\{toctree\}\n(.*?)```", path.read_text(), re.S):
            for entry in block.splitlines():
                if not entry.strip() or entry.startswith(":"):
                    continue
                named = re.fullmatch(r"(.+?) <(.+)>", entry.strip())
                if named:
                    titles.append(named.group(1))
                    continue
                target = path.parent / entry.strip()
                source = next(
                    target.with_suffix(s)
                    for s in (".md", ".ipynb")
                    if target.with_suffix(s).exists()
                )
                titles.append(page_title(source))
    return titles


def test_each_entry_of_the_navigation_has_a_title_of_its_own():
    titles = navigation_titles()
    assert len(titles) >= 30
    assert sorted(t for t in set(titles) if titles.count(t) > 1) == []


def test_the_api_reference_imports_without_the_gpu_extra():
    """Every module docs/api.md documents imports as autodoc imports it, with numba-cuda
    absent (the gpu extra's CUDA wheels): docs/conf.py's stand-ins are enough."""
    pytest.importorskip("sphinx")
    modules = re.findall(r"^\.\. automodule:: (\S+)", (DOCS / "api.md").read_text(), re.M)
    assert "heist_envs.core.gpu" in modules
    script = f"""
import importlib, importlib.abc, runpy, sys

class NoNumbaCuda(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] == "numba_cuda" or name.startswith("numba.cuda"):
            raise ModuleNotFoundError(f"No module named {{name!r}} (the test hides it)")

sys.meta_path.insert(0, NoNumbaCuda())
from sphinx.ext.autodoc.mock import mock

conf = runpy.run_path({str(DOCS / "conf.py")!r})
with mock(conf.get("autodoc_mock_imports", [])):
    for name in {modules!r}:
        importlib.import_module(name)
"""
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-2000:]


def extras(command: str) -> set[str]:
    """The extras a ``pip install -e ".[...]"`` command names."""
    return set(re.search(r"\.\[([\w,-]+)\]", command).group(1).split(","))


def test_the_readme_builds_the_site_with_the_extras_of_its_test_command_and_docs():
    """The Documentation command installs the docs extra and no extra the README's test
    command leaves out (the gpu extra's CUDA wheels least of all)."""
    commands = readme_commands()
    documentation, tested = extras(commands["Documentation"][0]), extras(commands["heist-envs"][1])
    assert "docs" in documentation and documentation - {"docs"} <= tested
    assert "gpu" not in documentation
    build = "sphinx-build -W --keep-going -b html docs docs/_build/html"
    assert build in commands["Documentation"][0]


#: a figure: a decimal number; an interval: two of them in brackets
FIGURE = re.compile(r"\d\.\d")
INTERVAL = re.compile(r"\[[+−-]?\d+(\.\d+)?, [+−-]?\d+(\.\d+)?\]")
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def conclusions(path: Path) -> str:
    """The text of a notebook's Conclusions cell, or "" if it has none."""
    for cell in json.loads(path.read_text())["cells"]:
        text = "".join(cell["source"])
        if cell["cell_type"] == "markdown" and text.startswith("## Conclusions"):
            return text
    return ""


def figures_without_interval(text: str) -> list[str]:
    """The clauses of ``text`` (its sentences, their parts between semicolons, its list
    items) that quote a figure with no 95% interval anywhere in the clause."""
    clauses = [" ".join(clause.split()) for clause in re.split(r"\.\s|;\s|\n- ", text)]
    return [c for c in clauses if FIGURE.search(c) and not INTERVAL.search(c)]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_figure_of_a_notebook_s_conclusions_comes_with_its_interval(path):
    assert figures_without_interval(conclusions(path)) == []


def test_a_figure_alone_in_its_clause_is_found():
    text = "- **Ratings.** A 0.40 [0.30, 0.50] rate; random wins at most 0.115 anywhere."
    assert figures_without_interval(text) == ["random wins at most 0.115 anywhere."]
