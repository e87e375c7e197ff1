"""Components (§2), options, action names (§7.2), the observation layout (§6), rendering and
the PettingZoo environment."""

import hashlib
import os
import subprocess
import sys

import numpy as np
import pytest

import heist_envs
from heist_envs.core.record import state_dict
from heist_envs.toits_de_paris import GAME, rules
from heist_envs.toits_de_paris.actions import (
    CONTINUE,
    DECLINE_JOKER,
    JOKER_COLOUR_0,
    NUM_ACTIONS,
    PASS,
    STOP,
    TAKE_SPACE_1,
    action_name,
    take_action,
)
from heist_envs.toits_de_paris.components import (
    ARROWS,
    BELLS,
    CARD_TABLE,
    COLOUR,
    FEATHERS,
    NEED,
    NUM_CARDS,
    RESERVE,
    TIEBREAK,
    TOKEN_HIGH,
    TOKEN_LOW,
    VP,
    card_label,
)
from heist_envs.toits_de_paris.observation import LAYOUT, OBS_SIZE
from heist_envs.toits_de_paris.state import JOKER
from tests.helpers import legal_actions, play, random_playout

from .positions import card, cards, discard, new_game, position


def test_components_match_the_spec_totals():
    """§2.4 totals, read from the card table; §2.5 tokens; §2.6 board numbers."""
    table = CARD_TABLE
    assert table.shape == (90, 7)
    assert np.bincount(table[:, COLOUR]).tolist() == [18] * 5
    assert (table[:, ARROWS] > 0).sum() == 30 and table[:, ARROWS].sum() == 50
    assert table[:, ARROWS].max() == 3
    assert table[:, BELLS].sum() == 20
    assert table[:, RESERVE].sum() == 10
    assert table[:, FEATHERS].sum() == 10
    assert ((table[:, VP] > 0) & (table[:, TIEBREAK] == 0)).sum() == 15
    tiebreakers = table[table[:, TIEBREAK] == 1]
    assert np.bincount(tiebreakers[:, COLOUR]).tolist() == [1] * 5
    assert (tiebreakers[:, VP] == 1).all()
    assert table[:, VP].sum() == 25
    assert (table[:, ARROWS:].sum(axis=1) == 0).sum() == 10  # no symbol at all
    assert TOKEN_HIGH.size == TOKEN_LOW.size == 6  # 6 sets x (1 high + 2 low) = 18 tokens
    assert NEED[1:7].tolist() == [1, 1, 1, 2, 2, 4]


def test_setup_deals_15_to_the_reserve_and_75_to_the_draw_pile():
    """§3: reserve = deck[0..14], draw pile = deck[15..89], the first card revealed."""
    s = GAME.new_state(4, 11)[0]
    assert rules.reserve_size(s) == 15 and rules.draw_size(s) == 74
    assert sorted(s.deck.tolist()) == list(range(NUM_CARDS))
    assert s.board[1] == s.deck[15] and s.insp == 8 - CARD_TABLE[s.deck[15], ARROWS]


def test_deck_order_fixes_the_deal():
    order = list(range(89, -1, -1))
    s = GAME.new_state(2, 1, {"deck_order": order})[0]
    assert s.deck.tolist() == order and s.board[1] == order[15]


@pytest.mark.parametrize(
    "bad",
    [list(range(89)), [0] * 90, list(range(1, 91)), [float(i) for i in range(90)], "0-89", 5],
)
def test_a_deck_order_that_is_not_a_permutation_is_a_clear_value_error(bad):
    with pytest.raises(ValueError, match="deck_order must be"):
        GAME.new_state(2, 1, {"deck_order": bad})


def test_card_table_and_token_values_options():
    table = CARD_TABLE.copy()
    table[:, VP] = 3
    s = new_game(2, draw=cards("c0:P"), card_table=table, token_values=[[9] * 6, [4] * 6])
    assert (s.card_table == table).all() and (s.token_high == 9).all() and (s.token_low == 4).all()
    wrong_shape = CARD_TABLE[:80]
    too_many_arrows = CARD_TABLE.copy()
    too_many_arrows[0, ARROWS] = 4
    two_tiebreakers = CARD_TABLE.copy()
    two_tiebreakers[0, TIEBREAK] = 1
    for bad, match in [
        (wrong_shape, "card_table must be integers of shape"),
        (too_many_arrows, "'arrows' must be within 0-3"),
        (two_tiebreakers, "one tie-breaker per colour"),
    ]:
        with pytest.raises(ValueError, match=match):
            GAME.new_state(2, 1, {"card_table": bad})
    with pytest.raises(ValueError, match="token_values"):
        GAME.new_state(2, 1, {"token_values": [5, 2]})
    with pytest.raises(ValueError, match="reward must be one of"):
        GAME.new_state(2, 1, {"reward": "points"})


def test_action_ids_and_names_follow_the_spec_table():
    """§7.2: 16 actions; a take names the card on its space, e.g. "take space 3 (c1:A2)"."""
    assert (STOP, CONTINUE, TAKE_SPACE_1, PASS, JOKER_COLOUR_0, DECLINE_JOKER) == (
        0,
        1,
        2,
        9,
        10,
        15,
    )
    assert NUM_ACTIONS == GAME.num_actions == 16 and take_action(7) == 8
    s = new_game(2, draw=cards("c0:P", "c4:P", "c1:A2"))
    play(GAME, s, CONTINUE, CONTINUE)
    assert action_name(take_action(3), s) == "take space 3 (c1:A2)"
    assert action_name(take_action(3)) == "take space 3"
    assert action_name(take_action(5), s) == "take space 5"
    assert action_name(STOP) == "stop" and action_name(PASS) == "pass"
    assert action_name(JOKER_COLOUR_0 + 1) == "joker colour 1 (Gold)"
    assert action_name(DECLINE_JOKER) == "decline joker"
    names = {action_name(a) for a in range(NUM_ACTIONS)}
    assert len(names) == NUM_ACTIONS
    with pytest.raises(ValueError, match="out of range"):
        action_name(16)


def test_card_labels_follow_the_spec_notation():
    """§2.4: "c<colour>:<kind>", the kind read from the card's symbols."""
    assert card_label(card("c1:A2")) == "c1:A2"
    kinds = ("A1", "A1", "A1B", "A2", "A2B", "A3", "R", "R", "F", "F")
    kinds += ("V1", "V1", "V2", "TB", "P", "P", "PB", "PB")
    assert [card_label(c) for c in range(18)] == [f"c0:{k}" for k in kinds]


def test_layout_names_every_part_of_the_observation():
    """§6: the named slices tile the observation exactly."""
    parts = sorted(LAYOUT.values(), key=lambda part: part.start)
    assert parts[0].start == 0 and parts[-1].stop == OBS_SIZE == GAME.obs_size
    for before, after in zip(parts, parts[1:], strict=False):
        assert before.stop == after.start
    for name in (
        "collections",
        "board",
        "inspector",
        "discard_colour_counts",
        "draw_pile_size",
        "reserve_size",
        "jokers",
        "phase",
        "actor",
    ):
        assert name in LAYOUT


def observation(s, seat):
    out = np.zeros(GAME.obs_size, GAME.obs_dtype)
    GAME.observe(s, seat, out)
    return {name: out[part] for name, part in LAYOUT.items()}


def test_observation_reads_by_name_with_seats_relative_to_the_observer():
    s = position(
        3, draw=cards("c1:A2", "c0:P"), collections={2: cards("c3:PB", "c3:V2")}, jokers={1: 4}
    )
    play(GAME, s, CONTINUE)
    view = observation(s, 2)
    collections = view["collections"].reshape(4, NUM_CARDS)
    assert np.flatnonzero(collections[0]).tolist() == sorted(cards("c3:PB", "c3:V2"))
    assert view["colour_counts"].reshape(4, 5)[0].tolist() == [0, 0, 0, 2, 0]
    assert view["bells"].reshape(4, 5)[0, 3] == 1 and view["card_vp"][0] == 2
    assert view["colour_counts"].reshape(4, 5)[2, 4] == 1  # seat 1's joker, 2 seats on
    assert view["jokers"].reshape(4, 7)[2].tolist() == [0, 0, 0, 0, 0, 1, 0]
    board = view["board"].reshape(7, NUM_CARDS)
    assert board[0, card("c1:A2")] == 1 and board[1, card("c0:P")] == 1 and board[2:].sum() == 0
    assert np.flatnonzero(view["inspector"]).tolist() == [5]  # position 6
    assert np.flatnonzero(view["revealed"]).tolist() == [2]
    assert view["draw_pile_size"][0] == pytest.approx(rules.draw_size(s) / 75)
    assert view["reserve_size"][0] == 1.0
    assert np.flatnonzero(view["leader"]).tolist() == [1]  # seat 0 seen from seat 2
    assert np.flatnonzero(view["actor"]).tolist() == [1]
    assert np.flatnonzero(view["num_players"]).tolist() == [1]
    assert view["discard"].sum() == len(discard(s)) == view["discard_colour_counts"].sum()
    assert view["unknown"].sum() == rules.draw_size(s) + rules.reserve_size(s)
    assert view["collections"].reshape(4, NUM_CARDS)[3].sum() == 0  # no 4th seat


def test_render_shows_the_table_as_text():
    s = position(2, draw=cards("c1:A2", "c0:P"), collections={1: cards("c3:PB")}, jokers={0: 2})
    play(GAME, s, CONTINUE)
    text = GAME.render(s, seat=1)
    assert "turn 1" in text and "1:c1:A2" in text and "2:c0:P" in text
    assert "inspector: space 6" in text and "player 1 (you)" in text
    assert "Gems: PB" in text and "joker in Paintings" in text


def test_joker_decision_moves_agent_selection_to_the_raided_player():
    """D17 through the PettingZoo environment: the raided non-leader is agent_selection."""
    s = position(3, draw=cards("c1:A1B", "c0:P"), collections={1: cards("c1:PB", "c1:PB")})
    state = GAME.new_states(1)
    state[0] = s
    env = heist_envs.make("toits_de_paris", num_players=3, render_mode="ansi")
    env.load_state(state_dict(GAME, state))
    for action in (CONTINUE, STOP, take_action(2)):
        env.step(action)
    assert env.state_record.phase == JOKER and env.agent_selection == "player_1"
    assert env.observe("player_1")["action_mask"][JOKER_COLOUR_0 : DECLINE_JOKER + 1].all()
    env.step(DECLINE_JOKER)
    assert env.agent_selection == "player_1" and env.state_record.leader == 1
    assert "Les Toits de Paris" in env.render()


def test_scores_for_infos():
    s = position(2, draw=cards("c0:V2"), draw_size=1, reserve_size=0)
    assert GAME.scores(s)["score"] == [0, 0]
    play(GAME, s, STOP)
    assert GAME.scores(s) == {
        "score": [7, 0],
        "card_points": [2, 0],
        "token_points": [5, 0],
        "tokens": ["H-----", "------"],
    }


def observation_digest(seeds):
    """A digest of every seat's observation and mask along random games."""
    digest = hashlib.sha256()
    out = np.zeros(GAME.obs_size, GAME.obs_dtype)

    def record(s):
        for seat in range(s.num_players):
            GAME.observe(s, seat, out)
            digest.update(out.tobytes())
        digest.update(legal_actions(GAME, s).tobytes())

    for seed in seeds:
        random_playout(GAME, 4, seed, on_step=record)
    return digest.hexdigest()


def test_jitted_and_interpreted_observations_agree():
    """Observations too are identical with NUMBA_DISABLE_JIT=1 (int8 fields, int64 indices)."""
    code = (
        "from tests.toits_de_paris.test_interface import observation_digest; "
        "print(observation_digest([3, 4]))"
    )
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run(
        [sys.executable, "-W", "error", "-c", code], env=env, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == observation_digest([3, 4])
