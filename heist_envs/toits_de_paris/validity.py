"""Les Toits de Paris's state check: every field in range and the fields consistent with play."""

import numpy as np

from heist_envs.core.game import RUNNING, TERMINATED
from heist_envs.core.validity import expect, in_range, one_of

from . import rules
from .components import (
    BELLS,
    CARD_FIELD_MAX,
    CARD_FIELDS,
    COLOUR,
    INSP_START,
    NEED,
    NUM_CARDS,
    NUM_COLOURS,
    NUM_SPACES,
    RAID_BELLS,
    RESERVE_SIZE,
    TIEBREAK,
)
from .state import (
    CAUGHT,
    COUP,
    DISCARDED,
    EMPTY,
    GAME_OVER,
    GONE,
    IN_DRAW,
    IN_RESERVE,
    JOKER,
    LEADER_EXTRA,
    LEADER_FREE,
    LEADER_MUST,
    NORMAL,
    NUM_OUTCOMES,
    ON_BOARD,
    OTHER_TAKE,
    REWARD_SCORE,
    SEAT_0,
    THEFT,
    UNUSED,
)

TOKEN_VALUE_MAX = 100


def validate(s):
    """Raise InvalidStateError naming the first field that no game of the rules can hold."""
    check_options(s)
    check_cards(s)
    check_turn(s)


def check_options(s):
    """The options the game was set up with (its card table and tokens) and its status."""
    n = int(s.num_players)
    in_range("first_leader", s.first_leader, -1, n - 1)
    in_range("reward_mode", s.reward_mode, 0, REWARD_SCORE)
    for column, (name, top) in enumerate(zip(CARD_FIELDS, CARD_FIELD_MAX, strict=True)):
        in_range(f"card_table[:, {column}] ({name})", s.card_table[:, column], 0, top)
    tiebreakers = np.bincount(
        s.card_table[s.card_table[:, TIEBREAK] == 1, COLOUR], minlength=NUM_COLOURS
    )
    expect(tiebreakers.max() <= 1, "card_table", "at most one tie-breaker per colour")
    in_range("token_high", s.token_high, 0, TOKEN_VALUE_MAX)
    in_range("token_low", s.token_low, 0, TOKEN_VALUE_MAX)
    expect(s.status != 2, "status", "0 or 1: the game is never truncated")
    in_range("phase", s.phase, THEFT, GAME_OVER)
    expect((s.status == RUNNING) == (s.phase != GAME_OVER), "phase", "game over with the game")


def check_cards(s):
    """Cards: the deck is the deal order; each card lies in exactly one place."""
    n = int(s.num_players)
    expect(sorted(s.deck.tolist()) == list(range(NUM_CARDS)), "deck", "a permutation of 0-89")
    in_range("reserve_top", s.reserve_top, 0, RESERVE_SIZE)
    in_range("draw_top", s.draw_top, RESERVE_SIZE, NUM_CARDS)
    in_range("n", s.n, 0, NUM_SPACES)
    in_range("board[0]", s.board[0], EMPTY, EMPTY)
    in_range("board", s.board[1 : s.n + 1], EMPTY, NUM_CARDS - 1)
    in_range("board", s.board[s.n + 1 :], EMPTY, EMPTY)
    in_range("card_loc", s.card_loc, IN_DRAW, SEAT_0 + n - 1)
    expected = np.full(NUM_CARDS, -1, np.int64)
    expected[s.deck[s.draw_top :]] = IN_DRAW
    expected[s.deck[s.reserve_top : RESERVE_SIZE]] = IN_RESERVE
    board = [int(c) for c in s.board[1:] if c != EMPTY]
    expect(len(set(board)) == len(board), "board", "each card at most once")
    expected[board] = ON_BOARD
    for card in range(NUM_CARDS):
        loc = int(s.card_loc[card])
        if expected[card] >= 0:
            expect(loc == expected[card], f"card_loc[{card}]", f"{expected[card]} (its pile)")
        else:
            expect(loc == DISCARDED or loc >= SEAT_0, f"card_loc[{card}]", "discarded or owned")
    expect(s.end_triggered == (s.draw_top == NUM_CARDS), "end_triggered", "1 once the pile is out")
    one_of("joker", s.joker[:n], [GONE, UNUSED, *range(NUM_COLOURS)])
    in_range("joker", s.joker[n:], UNUSED, UNUSED)
    for p in range(n):
        for colour in range(NUM_COLOURS):
            mine = (s.card_loc == SEAT_0 + p) & (s.card_table[:, COLOUR] == colour)
            bells = s.card_table[mine, BELLS].sum()
            expect(bells < RAID_BELLS, "card_loc", f"fewer than {RAID_BELLS} bells of a colour")


def check_turn(s):
    """The turn: its counters, the final tally once over, and who acts in each phase."""
    n = int(s.num_players)
    in_range("turn", s.turn, 1, NUM_CARDS)
    in_range("leader", s.leader, 0, n - 1)
    in_range("insp", s.insp, 1, INSP_START)
    in_range("outcome", s.outcome, 0, NUM_OUTCOMES - 1)
    in_range("need_left", s.need_left, 0, NEED.max())
    in_range("taker_offset", s.taker_offset, 0, n - 1)
    in_range("joker_offer", s.joker_offer, 0, 0)
    in_range("gainer", s.gainer, -1, n - 1)
    in_range("resume_phase", s.resume_phase, THEFT, LEADER_EXTRA)
    in_range("pending_draws", s.pending_draws, 0, 0 if s.phase != JOKER else RESERVE_SIZE)
    in_range("token_award", s.token_award, 0, 2)
    on_board = int(rules.cards_on_board(s))
    if s.status == TERMINATED:
        expect(on_board == 0, "board", "empty once the game is over")
        awards = np.zeros_like(s.token_award)
        scores = np.zeros_like(s.score)
        rules.tally(s, awards, scores)
        expect((awards == s.token_award).all(), "token_award", "the final awards")
        expect((scores == s.score).all(), "score", "the final scores")
        return
    in_range("token_award", s.token_award, 0, 0)
    in_range("score", s.score, 0, 0)
    leader, phase = int(s.leader), int(s.phase)
    expect(phase in (JOKER, OTHER_TAKE) or s.actor == leader, "actor", "the leader")
    if phase == THEFT:
        expect(s.n >= 1 and s.insp >= s.n + 2, "insp", "at least two spaces right of the cards")
        expect(on_board == s.n, "board", "every revealed card still on the board")
    elif phase == LEADER_MUST:
        expect(s.outcome == NORMAL and s.need_left >= 1, "need_left", "a card still to take")
        expect(on_board >= 2, "board", "two or more cards")
    elif phase == LEADER_FREE:
        expect(s.outcome == COUP and on_board >= 1, "outcome", "a coup d'eclat with cards left")
    elif phase == OTHER_TAKE:
        expect(s.taker_offset >= 1, "taker_offset", f"1 to {n - 1}")
        expect(s.actor == (leader + s.taker_offset) % n, "actor", "the taker")
        expect(on_board >= 2, "board", "two or more cards")
    elif phase == LEADER_EXTRA:
        expect(s.outcome != CAUGHT and on_board >= 1, "outcome", "not caught, cards left")
    else:
        expect(s.resume_phase != THEFT, "resume_phase", "the phase of the take")
        expect(s.actor == s.gainer, "actor", "the raided player (gainer)")
        expect(s.joker[s.actor] == UNUSED, "joker", "the raided player's character unused")
