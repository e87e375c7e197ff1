"""Les Toits de Paris invariants over random playouts (hypothesis chooses seeds, player
counts, options and card tables)."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from heist_envs.core.game import RUNNING, TERMINATED
from heist_envs.toits_de_paris import GAME
from heist_envs.toits_de_paris.components import (
    ARROWS,
    BELLS,
    CARD_TABLE,
    COLOUR,
    FEATHERS,
    INSP_START,
    NUM_CARDS,
    NUM_COLOURS,
    NUM_PLAYERS_MAX,
    NUM_TOKEN_SETS,
    RAID_BELLS,
    RESERVE,
    RESERVE_SIZE,
    TIEBREAK,
    VP,
    WHITE,
)
from heist_envs.toits_de_paris.rules import cards_on_board
from heist_envs.toits_de_paris.state import (
    CAUGHT,
    COUP,
    DISCARDED,
    EMPTY,
    GAME_OVER,
    GONE,
    HIGH_TOKEN,
    IN_DRAW,
    IN_RESERVE,
    JOKER,
    LEADER_EXTRA,
    LEADER_FREE,
    LEADER_MUST,
    LOW_TOKEN,
    NORMAL,
    ON_BOARD,
    OTHER_TAKE,
    SEAT_0,
    THEFT,
    UNUSED,
)
from tests.helpers import legal_actions, random_playout

MAX_DECISIONS = 336  # spec §4.5, default card data


def check_conservation(s):
    """90 cards, each in exactly one place (draw pile, reserve, board, a collection, the
    discard), with ``card_loc`` agreeing; 4 character cards, each unused, a joker or gone."""
    n = s.num_players
    draw = s.deck[s.draw_top :].tolist()
    reserve = s.deck[s.reserve_top : RESERVE_SIZE].tolist()
    board = [int(c) for c in s.board[1:] if c != EMPTY]
    owned = np.flatnonzero(s.card_loc >= SEAT_0).tolist()
    discard = np.flatnonzero(s.card_loc == DISCARDED).tolist()
    assert sorted(draw + reserve + board + owned + discard) == list(range(NUM_CARDS))
    assert (s.card_loc[draw] == IN_DRAW).all() and (s.card_loc[reserve] == IN_RESERVE).all()
    assert (s.card_loc[board] == ON_BOARD).all()
    assert (s.card_loc < SEAT_0 + n).all()
    assert s.joker.shape == (NUM_PLAYERS_MAX,)
    for p in range(NUM_PLAYERS_MAX):
        assert s.joker[p] in (UNUSED, GONE, *range(NUM_COLOURS))
        assert p < n or s.joker[p] == UNUSED  # absent seats' cards stay in the box


def check_turn(s):
    """The phase, the acting seat and the board agree with the state machine (§4)."""
    n = s.num_players
    assert 1 <= s.insp <= INSP_START and 0 <= s.n <= 7
    assert all(s.board[space] == EMPTY for space in range(s.n + 1, 8))
    assert s.joker_offer == 0
    for p in range(n):
        for colour in range(NUM_COLOURS):
            mine = (s.card_loc == SEAT_0 + p) & (s.card_table[:, COLOUR] == colour)
            assert s.card_table[mine, BELLS].sum() < RAID_BELLS  # a 3rd bell is raided at once
    if s.status != RUNNING:
        assert s.phase == GAME_OVER and s.actor == -1 and s.status == TERMINATED
        assert cards_on_board(s) == 0 and legal_actions(GAME, s).size == 0
        return
    assert 0 <= s.actor < n and legal_actions(GAME, s).size > 0
    assert s.phase == JOKER or s.pending_draws == 0
    if s.phase == THEFT:
        assert s.actor == s.leader and s.n <= 6 and s.insp >= s.n + 2
        assert all(s.board[space] != EMPTY for space in range(1, s.n + 1))
    elif s.phase == LEADER_MUST:
        assert s.actor == s.leader and s.outcome == NORMAL and s.need_left >= 1
        assert cards_on_board(s) >= 2  # one card left is taken automatically (D31)
    elif s.phase == LEADER_FREE:
        assert s.actor == s.leader and s.outcome == COUP and cards_on_board(s) >= 1
    elif s.phase == OTHER_TAKE:
        assert 1 <= s.taker_offset < n and s.actor == (s.leader + s.taker_offset) % n
        assert cards_on_board(s) >= 2
    elif s.phase == LEADER_EXTRA:
        assert s.actor == s.leader and s.outcome != CAUGHT and cards_on_board(s) >= 1
    else:
        assert s.phase == JOKER and s.actor == s.gainer and s.joker[s.actor] == UNUSED


def expected_awards(s):
    """Token awards [seat, set] written out again from the spec's §5 text."""
    n = int(s.num_players)
    table = s.card_table
    awards = np.zeros((n, NUM_TOKEN_SETS), np.int64)
    for t in range(NUM_TOKEN_SETS):
        values, holder = [0] * n, None
        for p in range(n):
            owned = np.flatnonzero(s.card_loc == SEAT_0 + p)
            if t == WHITE:
                values[p] = int(table[owned, FEATHERS].sum())
            else:
                mine = owned[table[owned, COLOUR] == t]
                values[p] = len(mine) + int(s.joker[p] == t)
                if table[mine, TIEBREAK].any():
                    holder = p
        groups = []
        for v in sorted({v for v in values if v >= 1}, reverse=True):
            group = [p for p in range(n) if values[p] == v]
            if holder in group and len(group) >= 2:
                groups += [[holder], [p for p in group if p != holder]]
            else:
                groups.append(group)
        if groups and len(groups[0]) == 1:
            awards[groups[0][0], t] = HIGH_TOKEN
            if len(groups) > 1 and len(groups[1]) <= 2:
                awards[groups[1], t] = LOW_TOKEN
        elif groups and len(groups[0]) == 2:
            awards[groups[0], t] = LOW_TOKEN
    return awards


def check_final_scores(s):
    """The scores equal the cards' points plus the tokens, recomputed; returns 1/k to the
    k winners (D28)."""
    n = int(s.num_players)
    awards = expected_awards(s)
    np.testing.assert_array_equal(s.token_award[:n], awards)
    scores = []
    for p in range(n):
        owned = np.flatnonzero(s.card_loc == SEAT_0 + p)
        tokens = sum(
            int(s.token_high[t]) if a == HIGH_TOKEN else int(s.token_low[t]) if a else 0
            for t, a in enumerate(awards[p])
        )
        scores.append(int(s.card_table[owned, VP].sum()) + tokens)
    assert s.score[:n].tolist() == scores
    assert GAME.scores(s)["score"] == scores
    out = np.zeros(n, np.float32)
    GAME.returns(s, out)
    winners = [p for p in range(n) if scores[p] == max(scores)]
    assert out.tolist() == [np.float32(1 / len(winners)) if p in winners else 0 for p in range(n)]


def playout_checks():
    """An ``on_step`` that checks every invariant, the character cards' one-way changes and
    D21 (a new turn starts only while the draw pile has cards), and counts decisions."""
    seen = {"steps": -1, "joker": None, "turn": 0, "end_triggered": 0}

    def on_step(s):
        seen["steps"] += 1
        check_conservation(s)
        check_turn(s)
        if seen["joker"] is not None:
            for before, now in zip(seen["joker"], s.joker.tolist(), strict=True):
                assert now in (before, GONE) or before == UNUSED
        if s.turn != seen["turn"]:
            assert not seen["end_triggered"] and s.board[1] == s.deck[s.draw_top - 1]
        seen.update(joker=s.joker.tolist(), turn=int(s.turn), end_triggered=int(s.end_triggered))

    return on_step, seen


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**63 - 1),
    num_players=st.integers(2, 4),
    first_leader=st.sampled_from([0, 1, "random"]),
)
def test_random_playouts_keep_every_invariant_and_score_correctly(seed, num_players, first_leader):
    on_step, seen = playout_checks()
    options = {"first_leader": first_leader}
    s = random_playout(GAME, num_players, seed, options, on_step=on_step)[0]
    assert s.status == TERMINATED and 0 < seen["steps"] <= MAX_DECISIONS
    check_final_scores(s)


def random_card_table(rng):
    """Card data other than the default: up to 3 arrows, 2 bells on a card, reserve and bell
    symbols together, 0-3 points, one tie-breaker per colour."""
    table = CARD_TABLE.copy()
    size = NUM_CARDS
    table[:, ARROWS] = rng.choice(4, size, p=[0.6, 0.2, 0.1, 0.1])
    table[:, BELLS] = rng.choice(3, size, p=[0.7, 0.2, 0.1])
    table[:, RESERVE] = rng.random(size) < 0.2
    table[:, FEATHERS] = rng.choice(3, size, p=[0.8, 0.15, 0.05])
    table[:, VP] = rng.choice(4, size)
    table[:, TIEBREAK] = 0
    for colour in range(NUM_COLOURS):
        table[18 * colour + rng.integers(18), TIEBREAK] = 1
    return table


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**63 - 1), num_players=st.integers(2, 4))
def test_random_playouts_with_other_card_data(seed, num_players):
    """The rules read the card table from the state: other data plays by the same rules."""
    table = random_card_table(np.random.default_rng(seed))
    on_step, _ = playout_checks()
    options = {"card_table": table.tolist(), "reward": "score"}
    s = random_playout(GAME, num_players, seed, options, on_step=on_step)[0]
    assert s.status == TERMINATED
    np.testing.assert_array_equal(s.token_award[:num_players], expected_awards(s))
    out = np.zeros(num_players, np.float32)
    GAME.returns(s, out)
    assert out.tolist() == s.score[:num_players].tolist()


@settings(max_examples=20, deadline=None)
@given(
    seed=st.integers(0, 2**63 - 1),
    num_players=st.integers(2, 4),
    cut=st.integers(0, 200),
    redeal_seed=st.integers(0, 2**63 - 1),
)
def test_determinize_re_deals_only_the_unseen_cards(seed, num_players, cut, redeal_seed):
    """§6: the draw pile and the reserve are re-dealt (same sizes, same cards together);
    everything else is unchanged, and the result keeps every invariant."""
    state = GAME.new_state(num_players, seed)
    s = state[0]
    rng = np.random.default_rng(seed)
    for _ in range(cut):
        if s.status != RUNNING:
            break
        GAME.apply(s, int(rng.choice(legal_actions(GAME, s))))
    other = s.copy()
    GAME.determinize(other, int(s.actor) % num_players, redeal_seed)
    check_conservation(other)
    unseen = sorted(s.deck[s.reserve_top : RESERVE_SIZE].tolist() + s.deck[s.draw_top :].tolist())
    unseen_after = other.deck[other.reserve_top : RESERVE_SIZE].tolist()
    unseen_after += other.deck[other.draw_top :].tolist()
    assert sorted(unseen_after) == unseen
    for name in GAME.state_dtype.names:
        if name not in ("rng", "deck", "card_loc"):
            np.testing.assert_array_equal(other[name], s[name], err_msg=name)
    known = (s.card_loc != IN_DRAW) & (s.card_loc != IN_RESERVE)
    np.testing.assert_array_equal(other.card_loc[known], s.card_loc[known])
