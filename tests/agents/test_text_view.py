"""The text view of a seat's decision: the seat's information only, every part of the
observation by name, the legal moves by id and name, and the rules from the game's page."""

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

import heist_envs
from agents.text_view import (
    RULES_PAGES,
    decision_text,
    legal_moves,
    observation_text,
    part_text,
    rules_summary,
)
from tests.helpers import legal_actions, random_playout

ROOT = Path(__file__).resolve().parents[2]


def seat_text(game, s, seat) -> str:
    """The text view of ``seat`` in record ``s``, from its observation (and mask, if it acts)."""
    observation = np.zeros(game.obs_size, game.obs_dtype)
    game.observe(s, seat, observation)
    mask = np.zeros(game.num_actions, np.int8)
    if s.actor == seat:
        game.legal_mask(s, mask)
    return decision_text(game, observation, mask)


@pytest.mark.parametrize("name", heist_envs.game_names())
def test_a_seat_text_is_the_same_in_every_world_the_seat_cannot_tell_apart(name):
    """determinize re-deals exactly what a seat cannot see: the seat's text must not change,
    while the worlds themselves differ (so the comparison can fail)."""
    game = heist_envs.get_game(name)
    changed = [0]

    def check(s):
        for seat in range(game.num_seats(int(s.num_players))):
            other = s.copy()
            game.determinize(other, seat, np.uint64(2024 + seat))
            assert seat_text(game, other, seat) == seat_text(game, s, seat)
            changed[0] += other.tobytes() != s.tobytes()

    for seed in range(2):
        random_playout(game, game.default_players, seed, on_step=check)
    assert changed[0] > 0


@pytest.mark.parametrize("name", heist_envs.game_names())
def test_the_text_names_every_part_and_every_legal_move_by_id_and_name(name):
    game = heist_envs.get_game(name)
    s = game.new_state(seed=5)[0]
    seat = int(s.actor)
    text = seat_text(game, s, seat)
    observation_lines, _, move_lines = text.partition("Your legal moves (id: name):\n")
    parts = [line.split(":")[0] for line in observation_lines.splitlines()[1:] if line]
    assert parts == list(game.layout)
    legal = legal_actions(game, s)
    assert move_lines.splitlines() == [f"{a}: {game.action_name(a)}" for a in legal]
    mask = np.zeros(game.num_actions, np.int8)
    mask[legal] = 1
    assert legal_moves(game, mask) == [(a, game.action_name(a)) for a in legal]


def test_a_part_is_a_value_a_short_list_or_the_nonzero_entries_of_a_long_one():
    assert part_text(np.array([33.0])) == "33"
    assert part_text(np.array([0.0, 1.0, 0.25])) == "[0, 1, 0.25]"
    long = np.zeros(40, np.float32)
    long[[3, 17]] = [1, 2]
    assert part_text(long) == "40 values, the nonzero ones (index=value): 3=1, 17=2"
    assert part_text(np.zeros(40)) == "40 values, all 0"


def test_an_observation_of_the_wrong_size_is_refused_in_one_line():
    game = heist_envs.get_game("art_robbery")
    with pytest.raises(ValueError, match=f"holds {game.obs_size} values, got shape \\(3,\\)"):
        observation_text(game, np.zeros(3))


@pytest.mark.parametrize("name", heist_envs.game_names())
def test_the_rules_summary_is_how_to_play_from_the_games_page(name):
    """The summary teaches the game, and leaves out the text render, which the view is not."""
    game = heist_envs.get_game(name)
    summary = rules_summary(game)
    page = (ROOT / "docs" / "games" / f"{name}.md").read_text()
    assert summary.startswith("## How to play\n\n### The idea")
    assert summary in page and "### What is hidden" in summary
    assert "Reading the text render" not in summary and "\n## " not in summary


def test_a_game_without_a_page_is_summarised_by_its_description():
    game = replace(heist_envs.get_game("art_robbery"), name="no_such_page")
    assert not (RULES_PAGES / "no_such_page.md").exists()
    assert rules_summary(game) == " ".join(game.description.split())
