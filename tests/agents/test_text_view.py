"""The text view of a seat's decision: the seat's information only, every part of the
observation by its legend's title and labels, the legal moves by id and name, and the rules
from the game's page."""

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
from experiments.tools.docs import observation_text as docs_observation_text
from heist_envs.art_robbery.components import CARD_COUNTS as ART_CARD_COUNTS
from heist_envs.art_robbery.components import GREEDY_THIEF_CARD
from heist_envs.core.layout import EACH_SEAT, ONE_HOT, build_layout, legend
from heist_envs.toits_de_paris.components import card_id as toits_card_id
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


def parts_by_title(game, observation) -> dict[str, list[str]]:
    """The observation text as {a part's title: its text lines}: a part's line starts at the
    margin, its groups' lines are indented under it."""
    parts: dict[str, list[str]] = {}
    for line in observation_text(game, observation).splitlines():
        if line.startswith("  "):
            parts[next(reversed(parts))].append(line.strip())
        else:
            title, _, text = line.partition(":")
            parts[title] = [text.strip()] if text.strip() else []
    return parts


def agent_text(env, agent) -> dict[str, list[str]]:
    return parts_by_title(env.game, env.observe(agent)["observation"])


@pytest.mark.parametrize("name", heist_envs.game_names())
def test_the_legend_describes_every_part_of_the_layout_with_its_own_title(name):
    game = heist_envs.get_game(name)
    legend = game.obs_legend
    assert list(legend.parts) == list(game.layout)
    titles = [part.title for part in legend.parts.values()]
    assert len(set(titles)) == len(titles) and not any(":" in title for title in titles)


@pytest.mark.parametrize("name", heist_envs.game_names())
def test_a_layout_part_without_a_description_or_of_another_size_is_refused(name):
    game = heist_envs.get_game(name)
    fields = {"seats": game.obs_legend.seats, "relative": game.obs_legend.relative}
    sizes = [(part, s.stop - s.start) for part, s in game.layout.items()]
    grown, _ = build_layout([*sizes, ("new_part", 3)])
    with pytest.raises(ValueError, match="without a Part: \\['new_part'\\]"):
        legend(grown, game.obs_legend.parts, players=game.obs_legend.players, **fields)
    first, size = sizes[0]
    resized, _ = build_layout([(first, size + 1), *sizes[1:]])
    with pytest.raises(ValueError, match=f"part '{first}' .* of {size + 1} values"):
        legend(resized, game.obs_legend.parts, players=game.obs_legend.players, **fields)


@pytest.mark.parametrize("name", heist_envs.game_names())
def test_the_text_writes_every_part_by_its_title_and_every_legal_move_by_id_and_name(name):
    game = heist_envs.get_game(name)
    s = game.new_state(seed=5)[0]
    seat = int(s.actor)
    observation = np.zeros(game.obs_size, game.obs_dtype)
    game.observe(s, seat, observation)
    titles = [part.title for part in game.obs_legend.parts.values()]
    assert list(parts_by_title(game, observation)) == titles
    text = seat_text(game, s, seat)
    assert observation_text(game, observation) in text
    _, _, move_lines = text.partition("Your legal moves (id: name):\n")
    legal = legal_actions(game, s)
    assert move_lines.splitlines() == [f"{a}: {game.action_name(a)}" for a in legal]
    mask = np.zeros(game.num_actions, np.int8)
    mask[legal] = 1
    assert legal_moves(game, mask) == [(a, game.action_name(a)) for a in legal]


@pytest.mark.parametrize("name", heist_envs.game_names())
def test_the_legend_numbers_the_seats_as_the_observation_does(name):
    """Every game's ``actor`` part sets the entry of the seat that decides: counted from the
    observer in a relative legend, the seat number in an absolute one; the game's page says
    which."""
    game = heist_envs.get_game(name)
    legend = game.obs_legend
    assert legend.parts["actor"].kind == ONE_HOT
    assert legend.parts["actor"].axes == ((EACH_SEAT,),)
    s = game.new_state(seed=3, num_players=game.max_players)[0]
    n = game.num_seats(int(s.num_players))
    seen = set()
    for seat in range(n):
        observation = np.zeros(game.obs_size, game.obs_dtype)
        game.observe(s, seat, observation)
        expected = (int(s.actor) - seat) % n if legend.relative else int(s.actor)
        assert np.flatnonzero(observation[game.layout["actor"]]).tolist() == [expected]
        seen.add(expected)
    assert len(seen) == (n if legend.relative else 1)
    page = "\n".join(docs_observation_text(game))
    assert ("seats relative to the observer" in page) == legend.relative
    assert ("seats absolute" in page) == (not legend.relative)


def test_art_robbery_names_the_cards_in_hand_the_tokens_holders_and_the_phase():
    hands = [0, 0, 0, 3, 6, 1, 1, 2, 2, 4, 5, 5, 7, 7, 8]  # seat 0, seat 1, seat 2
    rest = [c for c, k in enumerate(ART_CARD_COUNTS) for _ in range(k - hands.count(c))]
    rest.remove(GREEDY_THIEF_CARD)
    env = heist_envs.make("art_robbery", num_players=3)
    env.reset(seed=0, options={"deck_order": hands + [GREEDY_THIEF_CARD] + rest})
    first = agent_text(env, "player_0")
    assert first["your hand"] == ["Number 0 ×3, Number 3, Boss"]
    assert first["phase"] == ["play a card"] and first["whose turn"] == ["you"]
    assert first["raid"] == ["1 of 4 (Sketches)"]
    env.step(3)  # seat 0 plays its Number 3: the 3 token of the centre
    text = agent_text(env, "player_1")
    assert text["tokens"][1] == "player +2: Sketches 3 token (slot 5)"
    assert text["tokens"][0].startswith("centre: Sketches 0 token (slot 0) with 1 alibi, ")
    assert text["cards played"] == ["player +2: Number 3"]
    assert text["token points held"] == ["you 0, player +1 0, player +2 3"]  # no player +3
    assert agent_text(env, "player_0")["your hand"] == ["Number 0 ×3, Boss, Greedy Thief"]
    env.step(1)  # seat 1 plays a Number 1 and takes a 1 token
    env.step(GREEDY_THIEF_CARD)  # seat 2 may take any token of the centre
    text = agent_text(env, "player_2")
    assert text["phase"] == ["choose a token"] and text["who decides now"] == ["you"]
    assert text["card played this turn"] == ["Greedy Thief"]
    assert text["tokens you may take"] == [
        "0 token (slot 0), 1 token (slot 3), 2 token (slot 4), 4 token (slot 6), "
        "5 token (slot 7), Boss token (slot 8)"
    ]


def test_les_toits_de_paris_names_the_board_the_collections_and_the_leader():
    top = toits_card_id(1, 3)  # a Gold card with two arrows
    rest = [c for c in range(90) if c != top]
    env = heist_envs.make("toits_de_paris", num_players=3)
    env.reset(seed=0, options={"deck_order": rest[:15] + [top] + rest[15:]})
    env.step(1)  # continue: a second card
    text = agent_text(env, "player_1")
    assert text["board"] == ["space 1: Gold A2", "space 2: Jewellery P"]
    assert text["inspector"] == ["space 6"] and text["phase"] == ["theft"]
    assert text["leader"] == ["player +2"] and text["cards in the draw pile"] == ["73"]
    env.step(0)  # stop: the leader must take one card
    text = agent_text(env, "player_0")
    assert text["phase"] == ["leader must take"] and text["how the theft ended"] == ["normal stop"]
    env.step(2)  # the leader takes space 1
    text = agent_text(env, "player_1")
    assert text["collections"] == ["you: Jewellery P", "player +2: Gold A2"]
    assert (
        "player +2: Jewellery 0, Gold 1, Paintings 0, Gems 0, Statues 0"
        in text["cards per colour, the joker included"]
    )


def test_how_to_rob_a_bank_names_each_sides_cards_and_hides_the_robbers_hands_from_the_bank():
    hands = [[0, 0, 1, 1, 2, 3, 4, 4], [0, 0, 0, 1, 2, 3, 4, 5], [0, 0, 1, 1, 2, 2, 3, 6]]
    hands.append([0, 0, 0, 0, 0, 1, 5, 5])
    tiles = ["T2", "T3", "T4", "T5", "T1", "T6", "T7", "T8", "P4"]  # the mask in the centre
    env = heist_envs.make("how_to_rob_a_bank", num_players=4)
    env.reset(seed=0, options={"hands": hands, "tile_layouts": [tiles]})
    text = agent_text(env, "bank")
    assert text["phase"] == ["setup: the bank picks the vehicle's street corner"]
    assert text["you are"] == ["bank"] and "room 4: T1 (mask)" in text["room tiles"]
    assert text["robbers' rooms"] == ["yellow: room 4", "red: room 4", "green: room 4"]
    while env.observe(env.agent_selection)["action_mask"][8:].any():  # to the planning
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    bank = agent_text(env, "bank")
    assert bank["your hand"] == ["Move ×2, Double move ×2, Lock, Tackle, Tackle or Lock ×2"]
    assert bank["the robbers' hands (robbers see them)"] == ["none"]
    red = agent_text(env, "robber_red")
    assert red["you are"] == ["robber_red"]
    assert red["your hand"] == ["Move ×2, Pick up ×2, Unlock ×2, Pepper spray, Unlock or Pick up"]
    assert red["the robbers' hands (robbers see them)"][0] == (
        "yellow: Move ×3, Pick up, Unlock, Pepper spray, Crawl, Spray or Pick up"
    )
    env.step(1)  # the bank plans its card type 1
    assert agent_text(env, "robber_red")["planned stacks, first played first"] == [
        "bank: Double move"
    ]


def test_thiefs_market_names_the_market_the_piles_and_the_stage():
    env = heist_envs.make("thiefs_market", num_players=4)
    row_a = [11, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 13]  # Necklace first
    env.reset(seed=0, options={"dice": [3, 2, 2, 2, 1, 1], "deck_order": {"A": row_a}})
    env.step(0)  # seat 0 takes a green die
    text = agent_text(env, "player_1")
    assert text["dice in each pile"] == ["player +3: green"]
    assert text["dice in the centre"] == ["green ×2, white ×2, blue ×2, red ×2, purse, mask"]
    assert text["market"][0] == "A-row slot 0: Necklace (2W, 2 VP) — 2 VP at the end"
    assert text["stage"] == ["divide: taking"] and text["who decides now"] == ["player +3"]
    assert text["gold"] == ["you 1, player +1 1, player +2 1, player +3 1"]


def test_a_game_without_a_legend_gets_its_parts_as_values():
    game = replace(heist_envs.get_game("art_robbery"), obs_legend=None)
    s = game.new_state(seed=1, num_players=3)[0]
    observation = np.zeros(game.obs_size, game.obs_dtype)
    game.observe(s, 0, observation)
    lines = observation_text(game, observation).splitlines()
    assert [line.split(":")[0] for line in lines] == list(game.layout)
    assert lines[list(game.layout).index("raid")] == "raid: [1, 0, 0, 0]"
    assert lines[list(game.layout).index("tokens")].startswith(
        "tokens: 252 values, the nonzero ones (index=value): 0=1, 7=1, "
    )
    assert part_text(np.array([0.0, 1.0, 0.25])) == "[0, 1, 0.25]"
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
