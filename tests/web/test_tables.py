"""Tables and sessions without the HTTP layer."""

import json

import pytest

from experiments.web.tables import (
    NoSuchTable,
    NotAllowed,
    ServerFull,
    SessionStore,
    TableError,
    new_table,
    replay_table,
)
from heist_envs.core.errors import GameRecordError
from heist_envs.core.record import GameRecord


class Clock:
    """A clock the test moves by hand."""

    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def test_sessions_keep_their_newest_tables_and_make_room_from_the_longest_idle():
    clock = Clock()
    store = SessionStore(max_sessions=2, max_tables=2, idle_seconds=600, clock=clock)
    first = store.new_session()
    tables = [new_table("art_robbery", 2, ["random", "random"], seed=k) for k in range(3)]
    for table in tables:
        store.add(first, table)
    assert store.tables(first) == tables[1:]
    with pytest.raises(NoSuchTable):
        store.get(first, tables[0].id)
    second = store.new_session()
    with pytest.raises(NoSuchTable):
        store.get(second, tables[1].id)
    clock.now = 601
    store.new_session()
    assert not store.known(first) and store.known(second)


def test_a_session_in_use_is_never_pushed_out_by_new_ones():
    """New sessions (other browsers, or a client without cookies) are refused while every
    session held was used within ``idle_seconds``; then the longest idle one makes room."""
    clock = Clock()
    store = SessionStore(max_sessions=2, idle_seconds=600, clock=clock)
    mine = store.new_session()
    table = new_table("art_robbery", 2, ["human", "random"], seed=1)
    store.add(mine, table)
    other = store.new_session()
    for _ in range(256):
        with pytest.raises(ServerFull, match="2 browser sessions in use"):
            store.new_session()
    clock.now = 500
    assert store.get(mine, table.id) is table
    clock.now = 1000  # other idle for 1000 s, mine for 500 s
    store.new_session()
    assert not store.known(other) and store.get(mine, table.id) is table


def test_a_policy_is_seated_for_the_tables_player_count_or_refused():
    pytest.importorskip("torch")
    table = new_table("art_robbery", 3, ["human", "ppo", "ppo"], seed=1)
    assert table.agents[1].num_players == 3
    with pytest.raises(ValueError, match="art_robbery with 2"):
        new_table("art_robbery", 2, ["human", "ppo"], seed=1)


def test_a_replayed_record_shows_every_position_of_the_game():
    table = new_table("how_to_rob_a_bank", 3, ["heuristic", "random", "random"], seed=4)
    for _ in range(40):
        table.advance()
    replay = replay_table(table.record_json().encode())
    assert replay.mode == "replay" and len(replay.moves) == 40
    for step in (0, 1, 20, 40):
        assert replay.view(None, step) | {"id": 0, "mode": 0, "players": 0} == table.view(
            None, step
        ) | {"id": 0, "mode": 0, "players": 0}
    with pytest.raises(TableError, match="step must be 0 to 40"):
        replay.view(None, 41)


def test_while_you_play_other_views_and_the_record_wait_for_the_end():
    table = new_table("toits_de_paris", 2, ["human", "random"], seed=1)
    assert table.view()["seat"] == 0
    with pytest.raises(NotAllowed):
        table.view(None)
    with pytest.raises(NotAllowed):
        table.view(1)
    with pytest.raises(NotAllowed):
        table.record_json()
    while not table.over:
        if table.actor() == 0:
            table.play(table.env.legal_actions()[-1])
        else:
            table.advance()
    assert table.view(None)["outcome"]["rewards"]
    assert table.record_json()


def test_a_downloaded_record_names_who_played_and_its_replay_shows_them():
    table = new_table("toits_de_paris", 2, ["heuristic", "random"], seed=1)
    for _ in range(5):
        table.advance()
    text = table.record_json()
    assert GameRecord.from_json(text).players == ["heuristic", "random"]
    replay = replay_table(text.encode())
    assert replay.players == ["heuristic", "random"] and replay.human_seats() == []
    assert "players" not in json.loads(table.env.game_record().to_json())  # optional
    for players in ("random", [1, 2], ["x" * 101]):
        with pytest.raises(GameRecordError, match="'players' must be a list"):
            GameRecord.from_json(json.dumps({**json.loads(text), "players": players}))


def test_how_to_rob_a_bank_names_the_plan_cards_in_the_buttons_and_the_log():
    """Issue 52 item 9: the buttons and the log showed the action table's raw names
    (``PLAN_0 (Move)``); they show the game's names for people, the acting side's card."""
    from heist_envs.how_to_rob_a_bank.components import CARD_NAMES

    table = new_table("how_to_rob_a_bank", 2, ["human"] * 3, seed=1)
    offered = {0: set(), 1: set()}  # side (0 the bank, 1 the robbers) -> plan buttons
    while len(table.moves) < 30:
        actor = table.actor()
        legal = table.view(actor)["legal"]
        names = [move["name"] for move in legal]
        offered[min(actor, 1)].update(n for n in names if n.startswith("plan "))
        table.play(legal[-1]["action"])
    log = [move.name for move in table.moves]  # the log beside the table lists these
    assert not [n for n in log + sorted(offered[0] | offered[1]) if "PLAN_" in n]
    for side, cards in enumerate(CARD_NAMES):
        assert offered[side] and offered[side] <= {f"plan {card}" for card in cards}
    assert any(name.startswith("plan ") for name in log)
