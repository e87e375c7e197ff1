"""Generate ``docs/games/<game>.md`` from each game's metadata, components and rules text.

    python -m experiments.tools.docs          # or: heist docs
    python -m experiments.tools.docs --check  # exit 1 if a committed page is out of date

A page holds the game's description, how to play it and how to read its text render (written
in ``docs/rules/<game>.md``), its components (card and tile tables from the game's
``component_tables``), players and seats, options, the full action table, the observation
layout, the baseline agents' settings for the game, and the rule decisions, kept in
``docs/decisions/<game>.md`` (edit the written parts there, then regenerate).

It also writes the tables that hand-written pages hold between ``<!-- generated: NAME -->``
and ``<!-- end generated: NAME -->`` (:data:`TABLES`): the games table of the README and of
the front page and the options table of ``docs/environments.md``, from the registry, and the
leaderboard overview's tables, from ``docs/leaderboard.csv``.
"""

import argparse
import csv
import os
import re
import sys
from pathlib import Path

import numpy as np

import heist_envs
from heist_envs.core.catalog import GAME_MODULES
from heist_envs.core.game import Game

DOCS = Path(__file__).resolve().parents[2] / "docs"


def cell(value) -> str:
    """Text for a Markdown table cell."""
    return str(value).replace("|", "\\|").replace("\n", " ")


def table(header, rows) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return lines


def seats_table(game: Game) -> list[str]:
    """Each player count's agents, and its teams where seats share an outcome."""
    rows = []
    for n in range(game.min_players, game.max_players + 1):
        names, teams = game.agent_names(n), game.teams(n)
        sides = [
            " + ".join(f"`{name}`" for name, t in zip(names, teams, strict=True) if t == team)
            for team in sorted(set(teams))
        ]
        rows.append([n, ", ".join(f"`{name}`" for name in names), "; ".join(sides)])
    if all(len(set(game.teams(row[0]))) == game.num_seats(row[0]) for row in rows):
        return table(["players", "agents (seats)"], [row[:2] for row in rows])
    return table(["players", "agents (seats)", "teams"], rows)


def agents_table(game: Game) -> list[str]:
    """What each registry agent plays for ``game``, from the agents' own settings."""
    from agents.ismcts import ISMCTSAgent
    from agents.ppo import POLICY_DIR, checkpoint_info, shipped_side_policies
    from agents.profiles import profile

    heuristic = profile(game.name).compiled
    search = ISMCTSAgent(game.name)
    settings = ", ".join(f"`{key}={value!r}`" for key, value in search.settings.items())
    rollouts = (
        f"the compiled rollout policy of `agents/{game.name}/rollout.py`"
        if search.rollout == "policy"
        else "uniformly random legal moves"
    )
    policy = POLICY_DIR / f"{game.name}.zip"
    if policy.exists():
        info = checkpoint_info(policy)
        if "timesteps" in info:
            trained = f"{info['timesteps']:,} steps"
        else:  # experiments.train.imitation: DAgger on a teacher's choices
            teacher = info.get("teacher", "heuristic")
            trained = f"imitates `{teacher}` (DAgger, {info['decisions']:,} decisions)"
        shipped = (
            f"shipped policy `agents/policies/{game.name}.zip`: {info['num_players']} players, "
            f"{trained}"
        )
        sides = shipped_side_policies(game.name, info["num_players"])
        if sides:
            own = ", ".join(f"`{path.name}` ({side})" for side, path in sides.items())
            shipped += f"; a side with a policy of its own plays that one: {own}"
    else:
        shipped = "no shipped policy; train one with `heist train`"
    rows = [
        ("`random`", "a uniformly random legal action"),
        ("`heuristic`", heuristic_text(heuristic)),
        ("`ismcts`", f"1000 simulations per decision, rollouts by {rollouts}; {settings}"),
        ("`ppo`", shipped),
    ]
    return table(["agent", "for this game"], rows)


def heuristic_text(heuristic) -> str:
    """The first paragraph of the heuristic's docstring (its module's), or that the game has
    none."""
    if heuristic is None:
        return "no heuristic for this game (`agents/<game>/compiled.py` would add one)"
    return " ".join(heuristic.__doc__.strip().split("\n\n")[0].split())


def decisions(game: Game, root: Path) -> str:
    return (root / "decisions" / f"{game.name}.md").read_text().strip()


def rules(game: Game, root: Path) -> str:
    return (root / "rules" / f"{game.name}.md").read_text().strip()


def components_text(game: Game) -> list[str]:
    """The game's component tables (``Game.component_tables``), each under its caption."""
    lines = []
    for caption, header, rows in game.component_tables():
        lines += ([""] if lines else []) + [caption, "", *table(header, rows)]
    return lines or ["None listed."]


RST_ROLE = re.compile(r":[a-z]+:`~?([^`]+)`")
RST_BORDER = re.compile(r"^=+( +=+)+$")


def markdown_text(text: str, game: Game) -> str:
    """Docstring text (reStructuredText) as Markdown: ``code`` in single backticks, a role
    such as :mod:`.rules` as the dotted name it stands for, this page's own path as "this
    page", lines joined."""
    package = GAME_MODULES.get(game.name, "")

    def role(match):
        target = match.group(1)
        return f"`{package + target if target.startswith('.') else target}`"

    text = RST_ROLE.sub(role, " ".join(text.split())).replace("``", "`")
    return text.replace(f"`docs/games/{game.name}.md`", "this page")


def rst_table(lines: list[str]) -> list[list[str]]:
    """The rows of a reStructuredText simple table (its lines, borders included): a line
    whose first column is blank continues the row above it."""
    border = lines[0]
    starts = [i for i, c in enumerate(border) if c == "=" and (i == 0 or border[i - 1] == " ")]
    rows: list[list[str]] = []
    for line in lines[1:]:
        if RST_BORDER.match(line):
            continue
        cells = [line[a:b].strip() for a, b in zip(starts, [*starts[1:], None], strict=True)]
        if cells[0] or not rows:
            rows.append(cells)
        else:
            rows[-1] = [f"{old} {new}".strip() for old, new in zip(rows[-1], cells, strict=True)]
    return rows


def description_text(game: Game) -> list[str]:
    """The description after its summary line: its table of the environment's facts as a
    Markdown table, its paragraphs as paragraphs."""
    _, _, details = game.description.strip().partition("\n\n")
    lines: list[str] = []
    for block in details.strip().split("\n\n"):
        block_lines = block.strip("\n").splitlines()
        if RST_BORDER.match(block_lines[0]):
            rows = [[name, markdown_text(value, game)] for name, value in rst_table(block_lines)]
            lines += [*table(["environment", f"`{game.env_name}`"], rows), ""]
        else:
            lines += [markdown_text(block, game), ""]
    return lines


def heading_text(game: Game, root: Path) -> list[str]:
    """The title, where the page comes from, the summary and the environment's facts, and
    the rules."""
    summary = game.description.strip().partition("\n\n")[0]
    return [
        f"# {game.title} (`{game.env_name}`)",
        "",
        f"<!-- Generated by `heist docs` from the game's metadata and components, "
        f"docs/rules/{game.name}.md and docs/decisions/{game.name}.md; edit those and "
        "regenerate. -->",
        "",
        markdown_text(summary, game),
        "",
        *description_text(game),
        rules(game, root),
    ]


def introduced(text: str, lines: list[str]) -> list[str]:
    """A section's lines after the paragraph that introduces them."""
    return [text, "", *lines]


def players_text(game: Game) -> list[str]:
    """Player counts, information and chance, and each count's seats."""
    text = (
        f"{game.min_players} to {game.max_players} players (default {game.default_players}); "
        f"{game.information} information, {'with' if game.chance else 'no'} chance. Each seat "
        "is one PettingZoo agent."
    )
    return introduced(text, seats_table(game))


def option_rows(game: Game) -> list[tuple[str, str, str]]:
    """(name, default, meaning) of each of the game's reset options."""
    return [(f"`{name}`", f"`{opt.default!r}`", opt.doc) for name, opt in game.options.items()]


def options_text(game: Game) -> list[str]:
    """The reset options and their defaults, or None."""
    if not game.options:
        return ["None."]
    return introduced(
        "Given to the constructor (defaults for every game) or to `reset(options=...)`.",
        table(["option", "default", "meaning"], option_rows(game)),
    )


def actions_text(game: Game) -> list[str]:
    """The action space and every action's name."""
    text = (
        f"`Discrete({game.num_actions})`, the same table for every seat; the action mask marks "
        "the legal ones. Names as `game.action_name(a)` gives them without a state (with one, "
        "`env.action_name(a)` can be more specific)."
    )
    rows = [(a, game.action_name(a)) for a in range(game.num_actions)]
    return introduced(text, table(["id", "action"], rows))


def seats_clause(game: Game) -> str:
    """How the observation numbers the seats, as its legend says (nothing without one)."""
    if game.obs_legend is None:
        return ""
    if game.obs_legend.relative:
        return ", seats relative to the observer (0 is the observer, 1 the next seat)"
    return ", seats absolute (seat numbers, the same for every observer)"


def observation_text(game: Game) -> list[str]:
    """The observation's shape and its named parts."""
    text = (
        f"`Box(float32, ({game.obs_size},))` (the kernel writes "
        f"{np.dtype(game.obs_dtype).name}){seats_clause(game)}; "
        "`game.layout[part]` is the slice of each part."
    )
    rows = [
        (f"`{name}`", f"{part.start}-{part.stop - 1}", part.stop - part.start)
        for name, part in game.layout.items()
    ]
    return introduced(text, table(["part", "indices", "size"], rows))


def baseline_agents_text(game: Game) -> list[str]:
    return introduced(
        "Built by name with `agents.registry.make_agent(name, game_name)`; the search settings "
        "are `agents.ismcts.SEARCH_SETTINGS` with the game's `SEARCH_DEFAULTS`.",
        agents_table(game),
    )


def decisions_text(game: Game, root: Path) -> list[str]:
    return introduced(
        "Where the rulebook is silent or ambiguous, the project decides as follows; tests and "
        "docstrings cite these as D1, D2, ... (section numbers refer to the project's rules "
        "specification, which these decisions summarise).",
        [decisions(game, root)],
    )


def page(game: Game, root: Path = DOCS) -> str:
    """The Markdown page of ``game``: its heading and rules, then a section per part."""
    sections = [
        ("Components", components_text(game)),
        ("Players and seats", players_text(game)),
        ("Options", options_text(game)),
        ("Actions", actions_text(game)),
        ("Observation", observation_text(game)),
        ("Baseline agents", baseline_agents_text(game)),
        ("Rule decisions", decisions_text(game, root)),
    ]
    lines = heading_text(game, root)
    for title, body in sections:
        lines += ["", f"## {title}", "", *body]
    return "\n".join([*lines, ""])


def game_link(game: Game, games_dir: str) -> str:
    """The game's title, linking to its page in ``games_dir``."""
    return f"[{game.title}]({games_dir}/{game.name}.md)"


def seat_names_text(game: Game) -> str:
    """The agents of the largest game; those a smaller game lacks in parentheses."""
    names = game.agent_names(game.max_players)
    if names == [f"player_{i}" for i in range(len(names))]:
        return "`player_0`…"
    always = game.agent_names(game.min_players)
    return ", ".join(f"`{name}`" if name in always else f"(`{name}`)" for name in names)


def games_table(games_dir: str) -> list[str]:
    """Every registered game in a row: its page and makers, players, agents, env and what it
    is, from the summary line of its description ("Title (makers): what it is.")."""
    rows = []
    for name in heist_envs.game_names():
        game = heist_envs.get_game(name)
        summary = markdown_text(game.description.strip().partition("\n\n")[0], game)
        credit, _, in_short = summary.partition(": ")
        if not in_short or not credit.startswith(game.title):
            credit, in_short = game.title, summary
        rows.append(
            [
                game_link(game, games_dir) + credit.removeprefix(game.title),
                f"{game.min_players}–{game.max_players}",
                seat_names_text(game),
                f"`{game.env_name}`",
                in_short.rstrip("."),
            ]
        )
    return table(["game", "players", "agents", "env", "in short"], rows)


def options_table(games_dir: str) -> list[str]:
    """Every registered game's reset options."""
    rows = []
    for name in heist_envs.game_names():
        game = heist_envs.get_game(name)
        rows += [(game_link(game, games_dir), *row) for row in option_rows(game)]
    return table(["game", "option", "default", "meaning"], rows)


def leaderboard_tables(root: Path) -> list[str]:
    """A table per game of ``leaderboard.csv`` (what ``heist leaderboard`` wrote): each
    agent's win rate [95% CI] and rank at each player count, in its rank order at the
    first."""
    with open(root / "leaderboard.csv", newline="") as file:
        rows = [row for row in csv.DictReader(file) if row["side"] == "all"]
    lines = []
    for name in dict.fromkeys(row["game"] for row in rows):
        tables = {}  # players -> {agent: row}
        for row in rows:
            if row["game"] == name:
                tables.setdefault(row["players"], {})[row["agent"]] = row
        first = next(iter(tables.values()))
        ranked = sorted(first, key=lambda agent: int(first[agent]["rank"]))
        agents = dict.fromkeys([*ranked, *(agent for t in tables.values() for agent in t)])
        header = ["agent"] + [
            f"{n} players ({int(next(iter(t.values()))['table_games']):,} games)"
            for n, t in tables.items()
        ]
        body = [
            [f"`{agent}`"]
            + [win_rate_text(t[agent]) if agent in t else "sits out" for t in tables.values()]
            for agent in agents
        ]
        lines += ([""] if lines else []) + [f"**{heist_envs.get_game(name).title}**", ""]
        lines += table(header, body)
    return lines


def win_rate_text(row: dict) -> str:
    """A leaderboard row's win rate, its interval and its rank: 0.19 [0.16, 0.22] #4."""
    low, rate, high = (float(row[key]) for key in ("win_low", "win_rate", "win_high"))
    return f"{rate:.2f} [{low:.2f}, {high:.2f}] #{row['rank']}"


#: the tables that hand-written pages hold, each between ``<!-- generated: NAME ... -->``
#: and ``<!-- end generated: NAME -->``: NAME -> the table's lines from the docs folder and
#: the folder of game pages as the page links it
TABLES = {
    "games": lambda root, games_dir: games_table(games_dir),
    "options": lambda root, games_dir: options_table(games_dir),
    "leaderboard": lambda root, games_dir: leaderboard_tables(root),
}
GENERATED = re.compile(r"(<!-- generated: (\w+)[^\n]*-->\n)(.*?)(<!-- end generated: \2 -->)", re.S)


def table_pages(root: Path) -> list[Path]:
    """The hand-written pages that hold generated tables: the README, the front page, the
    page on using an environment and the leaderboard's overview."""
    names = ["index.md", "environments.md", "leaderboard_overview.md"]
    paths = [root.parent / "README.md", *(root / name for name in names)]
    return [path for path in paths if path.exists()]


def filled(path: Path, root: Path) -> str:
    """``path``'s text with each of its generated tables made anew."""
    games_dir = Path(os.path.relpath(root / "games", path.parent)).as_posix()

    def fill(match):
        made = TABLES[match.group(2)](root, games_dir)
        return "\n".join([match.group(1), *made, "", match.group(4)])

    return GENERATED.sub(fill, path.read_text())


def pages(root: Path = DOCS) -> dict[Path, str]:
    """Every game's page, and every page that holds generated tables, by its path."""
    games = {
        root / "games" / f"{name}.md": page(heist_envs.get_game(name), root)
        for name in heist_envs.game_names()
    }
    return games | {path: filled(path, root) for path in table_pages(root)}


def stale(root: Path = DOCS) -> list[Path]:
    """The pages whose committed text differs from what the metadata generates now."""
    return [
        path for path, text in pages(root).items() if not path.exists() or path.read_text() != text
    ]


def main(argv=None):
    parser = argparse.ArgumentParser(prog="heist docs", description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check that they are current")
    args = parser.parse_args(argv)
    if args.check:
        outdated = stale()
        for path in outdated:
            print(f"out of date: {path} (run: heist docs)")
        if not outdated:
            print(f"{DOCS / 'games'}/*.md are current: each matches its game's metadata")
        sys.exit(1 if outdated else 0)
    for path, text in pages().items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
