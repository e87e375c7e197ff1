"""Generate ``docs/games/<game>.md`` from each game's metadata, components and rules text.

    python -m experiments.tools.docs          # or: heist docs
    python -m experiments.tools.docs --check  # exit 1 if a committed page is out of date

A page holds the game's description, how to play it and how to read its text render (written
in ``docs/rules/<game>.md``), its components (card and tile tables generated from the game's
``components`` data), players and seats, options, the full action table, the observation
layout, the baseline agents' settings for the game, and the rule decisions, kept in
``docs/decisions/<game>.md`` (edit the written parts there, then regenerate).
"""

import argparse
import importlib
import sys
from pathlib import Path

import numpy as np

import heist_envs
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
    from agents.ppo import POLICY_DIR, checkpoint_info
    from agents.profiles import profile

    heuristic = profile(game.name).heuristic
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
    else:
        shipped = "no shipped policy; train one with `heist train`"
    rows = [
        ("`random`", "a uniformly random legal action"),
        ("`heuristic`", " ".join(heuristic.__doc__.strip().split("\n\n")[0].split())),
        ("`ismcts`", f"1000 simulations per decision, rollouts by {rollouts}; {settings}"),
        ("`ppo`", shipped),
    ]
    return table(["agent", "for this game"], rows)


def decisions(game: Game, root: Path) -> str:
    return (root / "decisions" / f"{game.name}.md").read_text().strip()


def rules(game: Game, root: Path) -> str:
    return (root / "rules" / f"{game.name}.md").read_text().strip()


def components_module(game: Game):
    return importlib.import_module(f"heist_envs.{game.name}.components")


def art_robbery_components(data) -> list[str]:
    lines = ["Cards (one deck for the whole game):", ""]
    lines += table(
        ["card", "count"],
        [(name, int(n)) for name, n in zip(data.CARD_NAMES, data.CARD_COUNTS, strict=True)],
    )
    lines += ["", "Loot tokens of each raid, with their alibi dots:", ""]
    values = [
        "Boss (5)" if k == data.BOSS_SLOT else int(v) for k, v in enumerate(data.TOKEN_VALUES)
    ]
    lines += table(
        ["token", *map(str, values)],
        [
            [f"alibis, raid {r + 1} ({name})", *map(int, data.TOKEN_ALIBIS[r])]
            for r, name in enumerate(data.RAID_NAMES)
        ],
    )
    return lines


def toits_de_paris_components(data) -> list[str]:
    kinds: dict[tuple, int] = {}
    for row in data.COLOUR_CARDS:
        kinds[row] = kinds.get(row, 0) + 1
    fields = data.CARD_FIELDS[1:]
    lines = [f"Each colour ({', '.join(data.COLOUR_NAMES)}) has the same 18 cards:", ""]
    lines += table(
        ["kind", "cards", *fields],
        [(f"`{row[0]}`", count, *row[1:]) for row, count in kinds.items()],
    )
    lines += ["", "Reward tokens, one high and two low per category:", ""]
    lines += table(
        ["category", "high", "low"],
        [
            (name, int(high), int(low))
            for name, high, low in zip(
                data.TOKEN_SET_NAMES, data.TOKEN_HIGH, data.TOKEN_LOW, strict=True
            )
        ],
    )
    return lines


def how_to_rob_a_bank_components(data) -> list[str]:
    lines = ["Room tiles (nine in play; a thick wall's side as printed, before any turn):", ""]
    rows = []
    for t, name in enumerate(data.TILE_NAMES):
        symbols = ["mask"] * data.TILE_MASK[t] + ["alarm"] * data.TILE_ALARM[t]
        symbols += ["bag"] * data.TILE_BAGS[t] + ["guard badge"] * data.TILE_BADGES[t]
        wall = data.TILE_WALL[t]
        counts = [label for i, label in enumerate(("2-3", "4")) if data.TILE_IN_PLAY[i, t]]
        rows.append(
            (
                f"`{name}`",
                ", ".join(symbols) or "nothing",
                data.DIRECTION_NAMES[wall] if wall >= 0 else "none",
                " and ".join(counts) + " players",
            )
        )
    lines += table(["tile", "symbols", "thick wall", "in play at"], rows)
    for side, (who, seat) in enumerate((("The bank's", 0), ("Each robber's", 1))):
        lines += ["", f"{who} deck of 15 cards:", ""]
        rows = []
        for t, name in enumerate(data.CARD_NAMES[side]):
            slots = [data.SLOT_KIND_NAMES[k] for k in data.CARD_SLOTS[side, t] if k >= 0]
            rows.append((name, " + ".join(slots), int(data.DECK_COUNTS[seat, t])))
        lines += table(["card", "actions", "in the deck"], rows)
    return lines


def thiefs_market_components(data) -> list[str]:
    lines = [
        f"The {data.NUM_CARDS} market cards (costs in gems: `G` green, `W` white, `B` blue, "
        "`R` red; each card exists once, Treasure Map twice):",
        "",
    ]
    lines += table(
        ["id", "deck", "card", "cost", "icons", "effect"],
        [
            (card.id, card.deck, card.name, card.cost, card.icons, data.effect_text(card))
            for card in data.CARD_TABLE
        ],
    )
    return lines


COMPONENT_TABLES = {
    "art_robbery": art_robbery_components,
    "toits_de_paris": toits_de_paris_components,
    "how_to_rob_a_bank": how_to_rob_a_bank_components,
    "thiefs_market": thiefs_market_components,
}


def page(game: Game, root: Path = DOCS) -> str:
    """The Markdown page of ``game``."""
    summary, _, details = game.description.strip().partition("\n\n")
    lines = [
        f"# {game.title} (`{game.env_name}`)",
        "",
        f"<!-- Generated by `heist docs` from the game's metadata and components, "
        f"docs/rules/{game.name}.md and docs/decisions/{game.name}.md; edit those and "
        "regenerate. -->",
        "",
        " ".join(summary.split()),
        "",
        "```text",
        details.strip(),
        "```",
        "",
        rules(game, root),
        "",
        "## Components",
        "",
    ]
    lines += COMPONENT_TABLES[game.name](components_module(game))
    lines += [
        "",
        "## Players and seats",
        "",
        f"{game.min_players} to {game.max_players} players (default {game.default_players}); "
        f"{game.information} information, {'with' if game.chance else 'no'} chance. Each seat "
        "is one PettingZoo agent.",
        "",
    ]
    lines += seats_table(game)
    lines += ["", "## Options", ""]
    if game.options:
        lines += [
            "Given to the constructor (defaults for every game) or to `reset(options=...)`.",
            "",
        ]
        lines += table(
            ["option", "default", "meaning"],
            [(f"`{name}`", f"`{opt.default!r}`", opt.doc) for name, opt in game.options.items()],
        )
    else:
        lines.append("None.")
    lines += [
        "",
        "## Actions",
        "",
        f"`Discrete({game.num_actions})`, the same table for every seat; the action mask marks "
        "the legal ones. Names as `game.action_name(a)` gives them without a state (with one, "
        "`env.action_name(a)` can be more specific).",
        "",
    ]
    lines += table(["id", "action"], [(a, game.action_name(a)) for a in range(game.num_actions)])
    lines += [
        "",
        "## Observation",
        "",
        f"`Box(float32, ({game.obs_size},))` (the kernel writes "
        f"{np.dtype(game.obs_dtype).name}), seats relative to the observer; "
        "`game.layout[part]` is the slice of each part.",
        "",
    ]
    lines += table(
        ["part", "indices", "size"],
        [
            (f"`{name}`", f"{part.start}-{part.stop - 1}", part.stop - part.start)
            for name, part in game.layout.items()
        ],
    )
    lines += [
        "",
        "## Baseline agents",
        "",
        "Built by name with `agents.registry.make_agent(name, game_name)`; the search settings "
        "are `agents.ismcts.SEARCH_SETTINGS` with the game's `SEARCH_DEFAULTS`.",
        "",
    ]
    lines += agents_table(game)
    lines += [
        "",
        "## Rule decisions",
        "",
        "Where the rulebook is silent or ambiguous, the project decides as follows; tests and "
        "docstrings cite these as D1, D2, ... (section numbers refer to the project's rules "
        "specification, which these decisions summarise).",
        "",
        decisions(game, root),
        "",
    ]
    return "\n".join(lines)


def pages(root: Path = DOCS) -> dict[Path, str]:
    """Every game's page, by the path it is written to."""
    return {
        root / "games" / f"{name}.md": page(heist_envs.get_game(name), root)
        for name in heist_envs.game_names()
    }


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
