"""The agent profile of a game: each built-in game's parts found in its agents/ folder, and the
defaults for a game without the folder or without some of its modules."""

import sys
from pathlib import Path

import numpy as np
import pytest

import agents
from agents import profiles
from agents.compiled import HeuristicAgent
from agents.profiles import (
    GameProfile,
    TrainingDefaults,
    check_weights,
    heuristic_games,
    make_heuristic,
    profile,
    weighted_games,
)
from experiments.train.shaping import scaled_potential
from heist_envs.core import catalog
from heist_envs.registry import game_names, get_game

AGENTS = Path(agents.__file__).parent
#: GameProfile field -> the module of agents/<game>/ it comes from
PARTS = {
    "compiled": "compiled",
    "rollout": "rollout",
    "potential": "shaping",
}


def has_no_parts(found):
    """Whether ``found`` is all defaults: no module of the game's folder behind it."""
    parts = (found.compiled, found.rollout, found.potential)
    return parts == (None,) * 3 and found.training == TrainingDefaults()


@pytest.fixture
def fresh_profiles():
    """Profiles looked up anew in the test, and forgotten after it."""
    profiles._profile.cache_clear()
    yield
    profiles._profile.cache_clear()


@pytest.mark.parametrize("game_name", game_names())
def test_each_built_in_game_finds_the_parts_its_folder_holds(game_name):
    found = profile(game_name)
    assert found.game_name == game_name
    for part, module in PARTS.items():
        present = (AGENTS / game_name / f"{module}.py").exists()
        assert (getattr(found, part) is not None) == present, (game_name, part)
    # one heuristic agent class for every game, playing the game's compiled module
    assert found.heuristic is HeuristicAgent
    assert callable(found.compiled.act) and callable(found.compiled.params)
    assert callable(found.compiled.scores)
    has_training = (AGENTS / game_name / "training.py").exists()
    assert (found.training != TrainingDefaults()) == has_training


def test_the_built_in_games_parts():
    assert heuristic_games() == game_names()
    assert weighted_games() == ["toits_de_paris"]
    with_rollouts = [name for name in game_names() if profile(name).rollout is not None]
    assert with_rollouts == ["how_to_rob_a_bank", "thiefs_market", "toits_de_paris"]
    assert [name for name in game_names() if profile(name).potential] == ["how_to_rob_a_bank"]
    bank = profile("how_to_rob_a_bank").training
    assert bank.shaping == 1.0 and bank.opponents == ("heuristic,self",)
    game = get_game("how_to_rob_a_bank")
    s = game.new_state(4, seed=1)[0]
    obs, mask = np.zeros(game.obs_size, game.obs_dtype), np.zeros(game.num_actions, np.int8)
    game.observe(s, s.actor, obs)
    game.legal_mask(s, mask)
    legal, scores = bank.teacher_scores(obs, mask)
    assert legal.tolist() == np.flatnonzero(mask).tolist() and len(scores) == len(legal)
    assert profile("thiefs_market").training.n_steps == 64
    assert profile("art_robbery_v0") is profile("art_robbery")


def test_a_game_without_a_folder_gets_every_default(monkeypatch, fresh_profiles):
    monkeypatch.setitem(catalog.GAME_MODULES, "folderless", "tests.no_such_module")
    found = profile("folderless")
    assert found.game_name == "folderless" and has_no_parts(found)
    assert found.heuristic is None and not found.weighted
    assert "folderless" in game_names() and "folderless" not in heuristic_games()
    with pytest.raises(
        ValueError, match="no heuristic agent for game 'folderless'; available: art"
    ):
        make_heuristic("folderless")
    assert scaled_potential("folderless", 0) is None
    with pytest.raises(ValueError, match=r"no shaping potential for folderless.*how_to_rob_a_bank"):
        scaled_potential("folderless", 1.0)


@pytest.mark.parametrize("name", ["arena", "registry", "not.a.name", "policies"])
def test_names_that_are_no_game_folder_get_the_defaults(name):
    # agents.registry is a module, agents.arena a package of the arena's own modules and
    # agents/policies a folder of files: none is a game's
    assert has_no_parts(GameProfile(name))


def test_a_folder_with_some_parts_gets_the_defaults_for_the_others(
    tmp_path, monkeypatch, fresh_profiles
):
    folder = tmp_path / "partial_game"
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    (folder / "training.py").write_text(
        "from agents.profiles import TrainingDefaults\n\nTRAINING = TrainingDefaults(n_steps=8)\n"
    )
    monkeypatch.setattr(agents, "__path__", [*agents.__path__, str(tmp_path)])
    try:
        found = profile("partial_game")
        training, others = found.training, (found.heuristic, found.rollout, found.potential)
    finally:  # forget the folder's modules
        for module in [m for m in sys.modules if m.startswith("agents.partial_game")]:
            del sys.modules[module]
        vars(agents).pop("partial_game", None)
    assert training == TrainingDefaults(n_steps=8)
    assert training.opponents == TrainingDefaults().opponents
    assert others == (None, None, None)


def test_weights_are_refused_where_the_heuristic_has_none():
    check_weights("toits_de_paris", "tuned")
    check_weights("art_robbery", None)
    with pytest.raises(ValueError, match="the art_robbery heuristic has no weights to replace; "):
        check_weights("art_robbery_v0", "tuned")
    with pytest.raises(ValueError, match="games with weights: toits_de_paris"):
        profile("thiefs_market").compiled.params({"x": 1.0})
