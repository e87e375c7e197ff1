"""What describes a game on ``Game``, built by ``Game.from_package`` from its folder: sides,
action kinds, the studies' hooks, component tables and the table view; and the defaults a game
without them gets."""

import dataclasses
import importlib
import sys
import textwrap

import pytest

import heist_envs
from experiments.tools.docs import components_text
from heist_envs.core.game import Game
from heist_envs.core.study import NO_STUDY
from tests.helpers import random_playout

#: A game folder that defines only the kernel's parts (Art Robbery's kernel, re-exported):
#: no components, study, table view, action kinds, sides or options.
BARE_GAME = {
    "__init__.py": '''
        """A bare game: the kernel and nothing that describes it further."""

        from heist_envs.art_robbery import score_breakdown, scores  # noqa: F401
        from heist_envs.core.game import Game

        from . import rules


        def setup(s, seed, options):
            s.max_turns = 1000
            rules.init(s, seed)


        GAME = Game.from_package(
            __name__, title="Bare", min_players=2, max_players=5, default_players=3
        )
    ''',
    "rules.py": """
        from heist_envs.art_robbery.rules import (  # noqa: F401
            apply, determinize, init, legal_mask, returns,
        )
    """,
    "state.py": "from heist_envs.art_robbery.state import STATE_DTYPE  # noqa: F401\n",
    "observation.py": """
        from heist_envs.art_robbery.observation import (  # noqa: F401
            LAYOUT, OBS_DTYPE, OBS_SIZE, observe,
        )
    """,
    "actions.py": "from heist_envs.art_robbery.actions import NUM_ACTIONS, action_name  # noqa\n",
    "render.py": "from heist_envs.art_robbery.render import render  # noqa: F401\n",
    "validity.py": "from heist_envs.art_robbery.validity import validate  # noqa: F401\n",
}


def write_package(root, name, files):
    folder = root / name
    folder.mkdir()
    for file, text in files.items():
        (folder / file).write_text(textwrap.dedent(text))


@pytest.fixture(scope="module")
def packages(tmp_path_factory):
    """A folder on ``sys.path`` to write game packages in."""
    root = tmp_path_factory.mktemp("games")
    sys.path.insert(0, str(root))
    yield root
    sys.path.remove(str(root))
    for name in [m for m in sys.modules if m.startswith("k_bare")]:
        del sys.modules[name]


@pytest.fixture(scope="module")
def bare(packages):
    write_package(packages, "k_bare", BARE_GAME)
    return importlib.import_module("k_bare").GAME


@pytest.mark.parametrize("name", heist_envs.game_names())
def test_each_game_is_read_from_its_folder(name):
    game = heist_envs.get_game(name)
    module = importlib.import_module(f"heist_envs.{name}")
    assert game.name == name and game.description == module.__doc__
    assert game.state_dtype is importlib.import_module(f"heist_envs.{name}.state").STATE_DTYPE
    components = importlib.import_module(f"heist_envs.{name}.components")
    assert (game.min_players, game.max_players) == (
        components.NUM_PLAYERS_MIN,
        components.NUM_PLAYERS_MAX,
    )
    assert game.study is importlib.import_module(f"heist_envs.{name}.study").STUDY
    assert game.table_view is importlib.import_module(f"heist_envs.{name}.table_view").table_view
    assert game.component_tables()  # every built-in game lists its components
    kinds = game.action_kinds
    assert sorted(a for ids in kinds.values() for a in ids) == list(range(game.num_actions))


def test_the_bank_and_the_robbers_are_the_sides_of_how_to_rob_a_bank():
    game = heist_envs.get_game("how_to_rob_a_bank")
    assert game.side_names == ("bank", "robbers")
    assert game.side_seats(4) == [[0], [1, 2, 3]]
    assert game.side_seats(2) == [[0], [1, 2]]  # the 2-player game is the 3-seat one


def test_in_a_game_without_roles_every_seat_is_a_side():
    game = heist_envs.get_game("art_robbery")
    assert game.side_names == ()
    assert game.side_seats(3) == [[0], [1], [2]]


def test_side_names_must_name_every_team():
    game = heist_envs.get_game("art_robbery")
    with pytest.raises(ValueError, match="side_names .* but 2 players make teams \\[0, 1\\]"):
        dataclasses.replace(game, side_names=("thieves",))


def test_action_kinds_must_hold_every_action_once():
    game = heist_envs.get_game("toits_de_paris")
    kinds = {**game.action_kinds, "stop again": range(0, 1)}
    with pytest.raises(ValueError, match="every action id 0 to 15 exactly once"):
        dataclasses.replace(game, action_kinds=kinds)


def test_a_bare_game_gets_safe_defaults(bare):
    art = heist_envs.get_game("art_robbery")
    assert bare.name == "k_bare" and bare.description.startswith("A bare game")
    assert bare.options == {} and bare.version == 0
    assert bare.agent_names(3) == ["player_0", "player_1", "player_2"]
    assert bare.side_names == () and bare.side_seats(3) == [[0], [1], [2]]
    # one action kind per distinct action name
    names = [art.action_name(a) for a in range(art.num_actions)]
    assert list(bare.action_kinds) == list(dict.fromkeys(names))
    for kind, ids in bare.action_kinds.items():
        assert [names[a] for a in ids] == [kind] * len(ids)
    assert bare.study is NO_STUDY and bare.study.score is None
    assert bare.component_tables() == []
    assert components_text(bare) == ["None listed."]
    state = random_playout(bare, 3, seed=5)
    s = state[0]
    assert bare.study.phase_names[int(s[bare.study.phase])] == "terminated"
    assert bare.study.game_rounds(s, 41) == 41.0  # counted in decisions
    for seat in (None, 0, 2):
        assert bare.table_view(s, seat) == {"text": bare.render(s, seat)}
    hidden = bare.new_state(3, 9)[0]
    assert "hidden cards" in bare.table_view(hidden, 0)["text"]


def test_the_bare_game_plays_the_kernel_it_was_given(bare):
    art = heist_envs.get_game("art_robbery")
    a, b = random_playout(bare, 4, seed=8), random_playout(art, 4, seed=8)
    assert a.tobytes() == b.tobytes()


def test_a_missing_kernel_part_is_named(packages):
    files = {**BARE_GAME, "validity.py": "CHECKS = ()\n"}
    write_package(packages, "k_bare_invalid", files)
    with pytest.raises(ValueError, match="k_bare_invalid.validity must define validate"):
        importlib.import_module("k_bare_invalid")


def test_an_import_error_inside_an_optional_module_is_raised(packages):
    files = {**BARE_GAME, "study.py": "import k_no_such_module  # noqa: F401\n"}
    write_package(packages, "k_bare_broken", files)
    with pytest.raises(ModuleNotFoundError, match="k_no_such_module"):
        importlib.import_module("k_bare_broken")


def test_metadata_overrides_what_the_folder_says():
    art = heist_envs.get_game("art_robbery")
    game = Game.from_package(
        "heist_envs.art_robbery", title="Art", max_players=3, default_players=2
    )
    assert (game.title, game.min_players, game.max_players) == ("Art", 2, 3)
    assert game.study is art.study and game.apply is art.apply
    with pytest.raises(ValueError, match="allowed: 2 to 3"):
        game.check_players(4)
