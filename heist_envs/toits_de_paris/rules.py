"""Les Toits de Paris's rules: the only place they live (how to play: docs/games/toits_de_paris.md).

Plain functions over one state record, compiled by numba; with ``NUMBA_DISABLE_JIT=1`` the
same code runs as Python. ``apply`` plays one decision, then ``settle`` plays every automatic
step after it (reveals, sharing transitions, single-card takes, reserve draws, raids, the next
turn, scoring) until some seat faces a decision or the game is over.
"""

import numba as nb
import numpy as np

from heist_envs.core.game import RUNNING, TERMINATED
from heist_envs.core.rng import rand_below, seed_rng, shuffle

from .actions import (
    CONTINUE,
    DECLINE_JOKER,
    JOKER_COLOUR_0,
    PASS,
    STOP,
    TAKE_SPACE_1,
)
from .components import (
    ARROWS,
    BELLS,
    COLOUR,
    FEATHERS,
    INSP_START,
    NEED,
    NUM_CARDS,
    NUM_PLAYERS_MAX,
    NUM_TOKEN_SETS,
    RAID_BELLS,
    RESERVE,
    RESERVE_SIZE,
    TIEBREAK,
    VP,
    WHITE,
)
from .state import (
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
    NONE,
    NORMAL,
    ON_BOARD,
    OTHER_TAKE,
    REWARD_SCORE,
    SEAT_0,
    SHARING_OVER,
    THEFT,
    UNUSED,
)


@nb.njit(cache=True)
def init(s, seed):
    """Shuffle the 90 loot cards, pick the first leader, lay out the game, start turn 1."""
    seed_rng(s, seed)
    for i in range(NUM_CARDS):
        s.deck[i] = i
    shuffle(s, s.deck, NUM_CARDS)
    if s.first_leader >= 0:
        s.leader = s.first_leader
    else:
        s.leader = rand_below(s, s.num_players)
    deal(s)


@nb.njit(cache=True)
def deal(s):
    """Lay out a new game from ``s.deck`` and ``s.leader`` and start the first turn.

    ``deck[0:15]`` is the reserve and ``deck[15:90]`` the draw pile, each top card first.
    """
    s.reserve_top = 0
    s.draw_top = RESERVE_SIZE
    for i in range(NUM_CARDS):
        s.card_loc[s.deck[i]] = IN_RESERVE if i < RESERVE_SIZE else IN_DRAW
    s.joker[:] = UNUSED
    s.token_award[:] = 0
    s.score[:] = 0
    s.turn = 0
    s.end_triggered = 0
    s.pending_draws = 0
    s.joker_offer = 0
    s.gainer = -1
    s.resume_phase = THEFT
    s.status = RUNNING
    start_turn(s)
    settle(s)


@nb.njit(cache=True)
def legal_mask(s, out):
    out[:] = 0
    phase = s.phase
    if phase == THEFT:
        out[STOP] = 1
        if draw_size(s) + reserve_size(s) > 0:
            out[CONTINUE] = 1
    elif phase == JOKER:
        for a in range(JOKER_COLOUR_0, DECLINE_JOKER + 1):
            out[a] = 1
    elif phase != GAME_OVER:
        for space in range(1, s.n + 1):
            if s.board[space] != EMPTY:
                out[TAKE_SPACE_1 + space - 1] = 1
        if phase in (LEADER_FREE, LEADER_EXTRA):
            out[PASS] = 1


@nb.njit(cache=True)
def apply(s, action):
    """Play one legal decision and every automatic step after it."""
    phase = s.phase
    if phase == THEFT:
        if action == STOP:
            s.outcome = NORMAL
            s.need_left = NEED[s.n]
            s.phase = LEADER_MUST
        else:
            reveal(s)
    elif phase == JOKER:
        p = s.gainer
        if action != DECLINE_JOKER:
            s.joker[p] = action - JOKER_COLOUR_0
        s.phase = s.resume_phase
        s.actor = p
        if not resolve(s, p):
            after_take(s)
    elif action == PASS:
        if phase == LEADER_FREE:
            go_others(s, 1)
        else:
            s.phase = SHARING_OVER
    else:
        take(s, action - TAKE_SPACE_1 + 1)
    settle(s)


@nb.njit(cache=True)
def settle(s):
    """Play the automatic steps until a seat faces a decision or the game is over (§7.3)."""
    while True:
        if s.phase == SHARING_OVER:
            end_sharing(s)
        elif s.phase in (LEADER_MUST, OTHER_TAKE) and cards_on_board(s) == 1:
            take(s, first_card_space(s))  # a mandatory take with one card left (D31)
        else:
            return


@nb.njit(cache=True)
def draw_size(s):
    return NUM_CARDS - s.draw_top


@nb.njit(cache=True)
def reserve_size(s):
    return RESERVE_SIZE - s.reserve_top


@nb.njit(cache=True)
def cards_on_board(s):
    count = 0
    for space in range(1, s.n + 1):
        if s.board[space] != EMPTY:
            count += 1
    return count


@nb.njit(cache=True)
def first_card_space(s):
    for space in range(1, s.n + 1):
        if s.board[space] != EMPTY:
            return space
    return 0


# --- Theft phase (§4.2) ---


@nb.njit(cache=True)
def start_turn(s):
    """Inspector back to its notch, board cleared, first card revealed (D2)."""
    s.turn += 1
    s.insp = INSP_START
    s.board[:] = EMPTY
    s.n = 0
    s.outcome = NONE
    s.need_left = 0
    s.taker_offset = 0
    s.actor = s.leader
    reveal(s)


@nb.njit(cache=True)
def reveal(s):
    """Place the next card (draw pile, then the reserve once it is empty: D20) and move the
    inspector; caught, coup d'eclat, or the leader's next theft decision."""
    if draw_size(s) > 0:
        card = s.deck[s.draw_top]
        s.draw_top += 1
        if draw_size(s) == 0:
            s.end_triggered = 1
    else:
        card = s.deck[s.reserve_top]
        s.reserve_top += 1
    s.n += 1
    s.board[s.n] = card
    s.card_loc[card] = ON_BOARD
    s.insp = max(1, s.insp - s.card_table[card, ARROWS])  # the clamp never binds (D6)
    if s.insp <= s.n:
        caught(s)
    elif s.insp == s.n + 1:
        s.outcome = COUP  # a forced stop (D3)
        s.phase = LEADER_FREE
    else:
        s.phase = THEFT


@nb.njit(cache=True)
def caught(s):
    """The card under the inspector and every card right of it are discarded (D7)."""
    s.outcome = CAUGHT
    for space in range(s.insp, s.n + 1):
        discard_space(s, space)
    go_others(s, 1)


@nb.njit(cache=True)
def discard_space(s, space):
    card = s.board[space]
    if card != EMPTY:
        s.card_loc[card] = DISCARDED
        s.board[space] = EMPTY


# --- Sharing phase (§4.3) ---


@nb.njit(cache=True)
def take(s, space):
    """The actor takes the card on ``space``; its effects resolve; unless a JOKER decision
    interrupts them, the sharing goes on (D10)."""
    p = s.actor
    if s.phase == LEADER_MUST:
        s.need_left -= 1
    card = s.board[space]
    s.board[space] = EMPTY
    gain(s, p, card)
    if not resolve(s, p):
        after_take(s)


@nb.njit(cache=True)
def after_take(s):
    """The step after a take of the current phase, once the gain is resolved."""
    phase = s.phase
    if phase == LEADER_MUST:
        if s.need_left == 0 or cards_on_board(s) == 0:  # the second test: D4
            go_others(s, 1)
    elif phase == LEADER_FREE:
        if cards_on_board(s) == 0:
            go_others(s, 1)
    elif phase == OTHER_TAKE:
        go_others(s, s.taker_offset + 1)
    else:
        s.phase = SHARING_OVER


@nb.njit(cache=True)
def go_others(s, k):
    """The k-th player clockwise from the leader must take a card, while cards remain."""
    if k == s.num_players or cards_on_board(s) == 0:
        go_extra(s)
    else:
        s.taker_offset = k
        s.phase = OTHER_TAKE
        s.actor = (s.leader + k) % s.num_players


@nb.njit(cache=True)
def go_extra(s):
    """The leader's optional extra card, unless caught or the board is empty (D9)."""
    if s.outcome != CAUGHT and cards_on_board(s) > 0:
        s.phase = LEADER_EXTRA
        s.actor = s.leader
    else:
        s.phase = SHARING_OVER


@nb.njit(cache=True)
def end_sharing(s):
    """Discard the rest of the board; the game ends, or leadership passes left (D29)."""
    for space in range(1, s.n + 1):
        discard_space(s, space)
    if s.end_triggered:
        finish(s)
    else:
        s.leader = (s.leader + 1) % s.num_players
        start_turn(s)


# --- Gaining a card (§4.4) ---


@nb.njit(cache=True)
def gain(s, p, card):
    """Add the card to p's collection; a 3rd bell brings a raid; note the reserve draw (D11)."""
    s.card_loc[card] = SEAT_0 + p
    colour = s.card_table[card, COLOUR]
    if s.card_table[card, BELLS] > 0 and bells(s, p, colour) >= RAID_BELLS:
        raid(s, p, colour)
        if s.joker[p] == UNUSED:
            s.joker_offer = 1
    if s.card_table[card, RESERVE] > 0:
        s.pending_draws += 1  # even if the card was just raided (D12)


@nb.njit(cache=True)
def bells(s, p, colour):
    """Bell symbols on p's current cards of ``colour`` (D14, D32)."""
    count = 0
    for card in range(NUM_CARDS):
        if s.card_loc[card] == SEAT_0 + p and s.card_table[card, COLOUR] == colour:
            count += s.card_table[card, BELLS]
    return count


@nb.njit(cache=True)
def raid(s, p, colour):
    """Police raid: every card of ``colour`` in p's collection is discarded, the joker too (D15)."""
    for card in range(NUM_CARDS):
        if s.card_loc[card] == SEAT_0 + p and s.card_table[card, COLOUR] == colour:
            s.card_loc[card] = DISCARDED
    if s.joker[p] == colour:
        s.joker[p] = GONE


@nb.njit(cache=True)
def resolve(s, p):
    """Offer the joker, then make the owed reserve draws, chained (D11, D13).

    Returns True when a JOKER decision interrupts; play resumes after it.
    """
    while True:
        if s.joker_offer:
            s.joker_offer = 0
            s.resume_phase = s.phase
            s.phase = JOKER
            s.gainer = p
            s.actor = p  # the raided player decides, leader or not (D17)
            return True
        if s.pending_draws == 0:
            return False
        s.pending_draws -= 1
        if reserve_size(s) > 0:
            card = s.deck[s.reserve_top]
            s.reserve_top += 1
            gain(s, p, card)


# --- Scoring (§5) ---


@nb.njit(cache=True)
def finish(s):
    """Award the reward tokens, total the scores, end the game."""
    tally(s, s.token_award, s.score)
    s.phase = GAME_OVER
    s.actor = -1
    s.status = TERMINATED


@nb.njit(cache=True)
def tally(s, awards, scores):
    """The tokens (``awards[p, t]``: NO/LOW/HIGH_TOKEN) and scores the collections earn now."""
    awards[:] = 0
    scores[:] = 0
    values = np.zeros((NUM_TOKEN_SETS, NUM_PLAYERS_MAX), np.int64)
    holder = np.full(NUM_TOKEN_SETS, -1, np.int64)  # tie-breaker holders; white has none
    for card in range(NUM_CARDS):
        loc = s.card_loc[card]
        if loc >= SEAT_0:
            p = loc - SEAT_0
            colour = s.card_table[card, COLOUR]
            values[colour, p] += 1
            values[WHITE, p] += s.card_table[card, FEATHERS]
            if s.card_table[card, TIEBREAK]:
                holder[colour] = p
            scores[p] += s.card_table[card, VP]
    for p in range(s.num_players):
        if s.joker[p] >= 0:
            values[s.joker[p], p] += 1  # a joker counts as one card of its colour (D16)
    for t in range(NUM_TOKEN_SETS):
        award(s, t, values[t], holder[t], awards, scores)


@nb.njit(cache=True)
def award(s, t, values, holder, awards, scores):
    """Give token set t by majority of ``values`` (D22-D27).

    Players rank by key 2 * value, plus 1 for the tie-breaker holder, who thus ranks just above
    the players tied with them (D23); players with value 0 have key 0 and are not ranked (D22).
    """
    n = s.num_players
    keys = np.zeros(NUM_PLAYERS_MAX, np.int64)
    for p in range(n):
        if values[p] > 0:
            keys[p] = 2 * values[p] + (1 if p == holder else 0)
    first = top_key(keys, n, np.iinfo(np.int64).max)
    if first == 0:
        return
    group = count_key(keys, n, first)
    if group == 1:
        give(keys, n, first, t, HIGH_TOKEN, awards)
        second = top_key(keys, n, first)
        if second > 0 and count_key(keys, n, second) <= 2:
            give(keys, n, second, t, LOW_TOKEN, awards)  # one or a pair 2nd; more: nobody (D26)
    elif group == 2:
        give(keys, n, first, t, LOW_TOKEN, awards)  # a pair 1st: both lows, no high (D24)
    # more than two tied 1st: nobody gets a token of this set (D25)
    for p in range(n):
        if awards[p, t] == HIGH_TOKEN:
            scores[p] += s.token_high[t]
        elif awards[p, t] == LOW_TOKEN:
            scores[p] += s.token_low[t]


@nb.njit(cache=True)
def top_key(keys, n, below):
    """The largest key under ``below`` (0 when none)."""
    best = 0
    for p in range(n):
        if best < keys[p] < below:
            best = keys[p]
    return best


@nb.njit(cache=True)
def count_key(keys, n, key):
    count = 0
    for p in range(n):
        if keys[p] == key:
            count += 1
    return count


@nb.njit(cache=True)
def give(keys, n, key, t, token, awards):
    """Token ``token`` of set t to every player ranked with ``key``."""
    for p in range(n):
        if keys[p] == key:
            awards[p, t] = token


@nb.njit(cache=True)
def returns(s, out):
    """Default: 1/k to each of the k players with the top score, 0 otherwise (D28);
    ``reward="score"``: the scores."""
    n = s.num_players
    out[:] = 0.0
    if s.status != TERMINATED:
        return
    if s.reward_mode == REWARD_SCORE:
        for p in range(n):
            out[p] = s.score[p]
        return
    best = s.score[0]
    for p in range(1, n):
        best = max(best, s.score[p])
    winners = 0
    for p in range(n):
        if s.score[p] == best:
            winners += 1
    for p in range(n):
        if s.score[p] == best:
            out[p] = 1.0 / winners


@nb.njit(cache=True)
def determinize(s, seat, seed):
    """Re-deal the unseen cards (draw pile and reserve), the same for every seat (§6)."""
    seed_rng(s, seed)
    unseen = np.empty(NUM_CARDS, np.int8)
    k = 0
    for i in range(s.reserve_top, RESERVE_SIZE):
        unseen[k] = s.deck[i]
        k += 1
    for i in range(s.draw_top, NUM_CARDS):
        unseen[k] = s.deck[i]
        k += 1
    unseen[:k].sort()  # forget the true order: the deal depends on the seed alone
    shuffle(s, unseen, k)
    k = 0
    for i in range(s.reserve_top, RESERVE_SIZE):
        s.deck[i] = unseen[k]
        s.card_loc[unseen[k]] = IN_RESERVE
        k += 1
    for i in range(s.draw_top, NUM_CARDS):
        s.deck[i] = unseen[k]
        s.card_loc[unseen[k]] = IN_DRAW
        k += 1
