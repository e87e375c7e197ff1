"""Art Robbery's rules: the only place they live (how to play: docs/games/art_robbery.md).

Plain functions over one state record, compiled by numba; with ``NUMBA_DISABLE_JIT=1`` the
same code runs as Python.
"""

import numba as nb
import numpy as np

from heist_envs.core.game import RUNNING, TERMINATED, TRUNCATED
from heist_envs.core.rng import seed_rng, shuffle

from .actions import GIVE_DOG, GIVE_TOKEN, TAKE_SLOT_0
from .components import (
    BOSS_CARD,
    BOSS_KEEP_MIN_VALUE,
    BOSS_SLOT,
    CARD_COUNTS,
    GREEDY_THIEF_CARD,
    GUARD_DOG_CARD,
    HAND_SIZE,
    NUM_CARD_TYPES,
    NUM_CARDS,
    NUM_RAIDS,
    TOKEN_ALIBIS,
    TOKEN_VALUES,
    TOKENS_PER_RAID,
    TWO_PLAYER_ALIBI_PENALTY,
)
from .state import BOX, CENTRE, DOG, GAME_OVER, NOBODY, NOT_YET_OUT, PLAY, TOKEN


@nb.njit(cache=True)
def init(s, seed):
    """Shuffle the 55 cards, deal 5 to each seat, lay out raid 1; seat 0 starts."""
    seed_rng(s, seed)
    k = 0
    for t in range(NUM_CARD_TYPES):
        for _ in range(CARD_COUNTS[t]):
            s.deck[k] = t
            k += 1
    shuffle(s, s.deck, NUM_CARDS)
    s.deck_size = NUM_CARDS
    s.hands[:] = 0
    s.discard[:] = 0
    s.played[:] = 0
    s.reshuffled = 0
    s.reshuffle_counts[:] = 0
    s.drawn_since[:] = 0
    deal(s)
    s.token_loc[:] = NOT_YET_OUT
    s.token_loc[0, :] = CENTRE
    s.dog = NOBODY
    s.raid = 0
    s.turns = 0
    s.pending_card = -1
    s.pending_token = -1
    s.offered[:] = 0
    s.status = RUNNING
    s.phase = PLAY
    s.turn_player = 0
    s.actor = 0


@nb.njit(cache=True)
def deal(s):
    """Deal HAND_SIZE cards from the top of the pile to each seat in turn."""
    for p in range(s.num_players):
        for _ in range(HAND_SIZE):
            s.deck_size -= 1
            s.hands[p, s.deck[s.deck_size]] += 1


@nb.njit(cache=True)
def legal_mask(s, out):
    out[:] = 0
    if s.phase == PLAY:
        for t in range(NUM_CARD_TYPES):
            if s.hands[s.turn_player, t] > 0:
                out[t] = 1
    elif s.phase == TOKEN:
        for i in range(TOKENS_PER_RAID):
            out[TAKE_SLOT_0 + i] = s.offered[i]
    elif s.phase == DOG:
        out[GIVE_TOKEN] = 1
        out[GIVE_DOG] = 1


@nb.njit(cache=True)
def apply(s, action):
    """Play one legal decision and every automatic step after it."""
    if s.phase == PLAY:
        play_card(s, action)
    elif s.phase == TOKEN:
        acquire(s, action - TAKE_SLOT_0)
    elif action == GIVE_TOKEN:
        s.token_loc[s.raid, s.pending_token] = s.turn_player
        end_turn(s)
    else:
        s.dog = s.turn_player
        end_turn(s)


@nb.njit(cache=True)
def play_card(s, card):
    p = s.turn_player
    s.hands[p, card] -= 1
    s.discard[card] += 1
    s.played[p, card] += 1
    s.pending_card = card
    if card == GUARD_DOG_CARD:
        s.dog = p
        end_turn(s)
        return
    offer_tokens(s, card)
    num_offered = 0
    last = -1
    for i in range(TOKENS_PER_RAID):
        if s.offered[i]:
            num_offered += 1
            last = i
    if num_offered == 0:
        end_turn(s)
    elif num_offered == 1:
        acquire(s, last)
    else:
        s.phase = TOKEN


@nb.njit(cache=True)
def offer_tokens(s, card):
    """Fill ``s.offered`` with the slots the card may take, one per identical class (D11)."""
    p = s.turn_player
    r = s.raid
    s.offered[:] = 0
    if card == BOSS_CARD:
        holder = s.token_loc[r, BOSS_SLOT]
        if holder == CENTRE or (holder >= 0 and holder != p):
            s.offered[BOSS_SLOT] = 1
        return
    if card == GREEDY_THIEF_CARD:
        for i in range(TOKENS_PER_RAID):
            if s.token_loc[r, i] == CENTRE:
                s.offered[i] = 1
    else:
        value = card  # Number cards 0-5 take Number tokens (slots below BOSS_SLOT) only (D7)
        found_in_centre = False
        for i in range(BOSS_SLOT):
            if TOKEN_VALUES[i] == value and s.token_loc[r, i] == CENTRE:
                s.offered[i] = 1
                found_in_centre = True
        if not found_in_centre:
            for i in range(BOSS_SLOT):
                holder = s.token_loc[r, i]
                if TOKEN_VALUES[i] == value and holder >= 0 and holder != p:
                    s.offered[i] = 1
    # Identical tokens (D11): same Number value, alibis and location; keep the lowest slot.
    for i in range(BOSS_SLOT):
        if s.offered[i]:
            for j in range(i + 1, BOSS_SLOT):
                if (
                    s.offered[j]
                    and TOKEN_VALUES[j] == TOKEN_VALUES[i]
                    and TOKEN_ALIBIS[r, j] == TOKEN_ALIBIS[r, i]
                    and s.token_loc[r, j] == s.token_loc[r, i]
                ):
                    s.offered[j] = 0


@nb.njit(cache=True)
def acquire(s, slot):
    """Take a centre token, or steal one (the victim decides if they hold the Guard Dog)."""
    s.offered[:] = 0
    holder = s.token_loc[s.raid, slot]
    if holder == CENTRE or s.dog != holder:
        s.token_loc[s.raid, slot] = s.turn_player
        end_turn(s)
    else:
        s.phase = DOG
        s.pending_token = slot
        s.actor = holder


@nb.njit(cache=True)
def draw(s, p):
    """Draw one card for seat p, first shuffling the discard into a new pile if needed (D5)."""
    if s.deck_size == 0:
        k = 0
        for t in range(NUM_CARD_TYPES):
            for _ in range(s.discard[t]):
                s.deck[k] = t
                k += 1
        shuffle(s, s.deck, k)
        s.deck_size = k
        s.reshuffled = 1
        s.reshuffle_counts[:] = s.discard
        s.discard[:] = 0
        s.drawn_since[:] = 0
    s.deck_size -= 1
    card = s.deck[s.deck_size]
    s.hands[p, card] += 1
    s.drawn_since[p, card] += 1


@nb.njit(cache=True)
def centre_is_empty(s):
    for i in range(TOKENS_PER_RAID):
        if s.token_loc[s.raid, i] == CENTRE:
            return False
    return True


@nb.njit(cache=True)
def end_turn(s):
    p = s.turn_player
    draw(s, p)
    s.turns += 1
    s.pending_card = -1
    s.pending_token = -1
    next_player = (p + 1) % s.num_players
    if centre_is_empty(s):
        end_raid(s)
        if s.raid == NUM_RAIDS:
            s.phase = GAME_OVER
            s.status = TERMINATED
            s.actor = -1
            return
        if s.dog != NOBODY:
            next_player = s.dog
    if s.turns >= s.max_turns:
        s.phase = GAME_OVER
        s.status = TRUNCATED
        s.actor = -1
        return
    s.phase = PLAY
    s.turn_player = next_player
    s.actor = next_player


@nb.njit(cache=True)
def end_raid(s):
    """Boss keep check (D8), bank the raid, lay out the next one."""
    r = s.raid
    holder = s.token_loc[r, BOSS_SLOT]
    if holder >= 0:
        keeps = False
        for i in range(BOSS_SLOT):
            if s.token_loc[r, i] == holder and TOKEN_VALUES[i] >= BOSS_KEEP_MIN_VALUE:
                keeps = True
        if not keeps:
            s.token_loc[r, BOSS_SLOT] = BOX
    s.raid = r + 1
    if s.raid < NUM_RAIDS:
        s.token_loc[s.raid, :] = CENTRE


@nb.njit(cache=True)
def loot(s, out_values, out_alibis):
    """Each seat's token values and alibi dots, before the alibi penalty."""
    out_values[:] = 0
    out_alibis[:] = 0
    for r in range(NUM_RAIDS):
        for i in range(TOKENS_PER_RAID):
            holder = s.token_loc[r, i]
            if holder >= 0:
                out_values[holder] += TOKEN_VALUES[i]
                out_alibis[holder] += TOKEN_ALIBIS[r, i]


@nb.njit(cache=True)
def final_scores(s, out_scores, out_alibis):
    """Scores after the alibi penalty (section 6; D6)."""
    n = s.num_players
    loot(s, out_scores, out_alibis)
    fewest = out_alibis[0]
    for p in range(1, n):
        fewest = min(fewest, out_alibis[p])
    for p in range(n):
        if out_alibis[p] == fewest:
            if n == 2:
                out_scores[p] -= TWO_PLAYER_ALIBI_PENALTY
            else:
                out_scores[p] = 0


@nb.njit(cache=True)
def returns(s, out):
    """+1 for every winner (highest score, then most alibis; shared wins), -1 otherwise (D10)."""
    n = s.num_players
    out[:] = 0.0
    if s.status != TERMINATED:
        return
    scores = np.zeros(n, np.int64)
    alibis = np.zeros(n, np.int64)
    final_scores(s, scores, alibis)
    best = 0
    for p in range(1, n):
        if scores[p] > scores[best] or (scores[p] == scores[best] and alibis[p] > alibis[best]):
            best = p
    for p in range(n):
        won = scores[p] == scores[best] and alibis[p] == alibis[best]
        out[p] = 1.0 if won else -1.0


@nb.njit(cache=True)
def determinize(s, seat, seed):
    """Re-deal what ``seat`` cannot see: opponents' hands and the draw pile (spec section 7)."""
    seed_rng(s, seed)
    n = s.num_players
    # unseen = the 55 cards less seat's hand and the discard: opponents' hands plus the pile
    unseen = np.zeros(NUM_CARD_TYPES, np.int64)
    for t in range(NUM_CARD_TYPES):
        unseen[t] = CARD_COUNTS[t] - s.hands[seat, t] - s.discard[t]
    pile = np.zeros(NUM_CARD_TYPES, np.int64)
    cards = np.zeros(NUM_CARDS, np.int8)
    if s.reshuffled:
        # The pile is what was reshuffled, less seat's own draws and the opponents' draws.
        k = 0
        for t in range(NUM_CARD_TYPES):
            for _ in range(s.reshuffle_counts[t] - s.drawn_since[seat, t]):
                cards[k] = t
                k += 1
        while True:
            shuffle(s, cards, k)
            pile[:] = 0
            for j in range(s.deck_size):
                pile[cards[j]] += 1
            consistent = True
            for t in range(NUM_CARD_TYPES):
                if pile[t] > unseen[t]:
                    consistent = False
            if consistent:
                break
    else:
        k = 0
        for t in range(NUM_CARD_TYPES):
            for _ in range(unseen[t]):
                cards[k] = t
                k += 1
        shuffle(s, cards, k)
        for j in range(s.deck_size):
            pile[cards[j]] += 1
    # The pile, in a fresh random order.
    k = 0
    for t in range(NUM_CARD_TYPES):
        for _ in range(pile[t]):
            s.deck[k] = t
            k += 1
    shuffle(s, s.deck, k)
    # Opponents' hands: the rest of the unseen cards, dealt at random. Hand sizes are public:
    # the turn player holds 4 cards until the draw that ends their turn.
    k = 0
    for t in range(NUM_CARD_TYPES):
        for _ in range(unseen[t] - pile[t]):
            cards[k] = t
            k += 1
    shuffle(s, cards, k)
    k = 0
    for q in range(n):
        if q != seat:
            size = s.hands[q].sum()
            s.hands[q, :] = 0
            for _ in range(size):
                s.hands[q, cards[k]] += 1
                k += 1
    # Which opponent drew what since the reshuffle is not tracked (spec section 7).
    for q in range(n):
        if q != seat:
            s.drawn_since[q, :] = 0
    # The slots above the pile hold cards drawn earlier, opponents' included: forget them.
    s.deck[s.deck_size :] = -1
