"""Art Robbery's state check: every field in range and the fields consistent with play."""

import numpy as np

from heist_envs.core.game import RUNNING, TERMINATED, TRUNCATED
from heist_envs.core.validity import expect, in_range, one_of

from . import rules
from .components import (
    BOSS_SLOT,
    CARD_COUNTS,
    GUARD_DOG_CARD,
    HAND_SIZE,
    NUM_CARD_TYPES,
    NUM_CARDS,
    NUM_RAIDS,
    TOKENS_PER_RAID,
)
from .state import BOX, CENTRE, DOG, GAME_OVER, NOT_YET_OUT, PLAY, STATE_DTYPE, TOKEN

INT32_MAX = np.iinfo(np.int32).max


def validate(s):
    """Raise InvalidStateError naming the first field that no game of the rules can hold."""
    mid_turn = s.phase in (TOKEN, DOG)  # the card is played, the draw is still to come
    check_progress(s)
    check_cards(s, mid_turn)
    check_tokens(s)
    check_turn(s, mid_turn)


def check_progress(s):
    """The phase, raid, turn player and turn count, and the status they imply."""
    n = int(s.num_players)
    running = s.status == RUNNING
    in_range("max_turns", s.max_turns, 1, INT32_MAX)
    in_range("phase", s.phase, PLAY, GAME_OVER)
    expect(running == (s.phase != GAME_OVER), "phase", "game over exactly when the game is")
    in_range("raid", s.raid, 0, NUM_RAIDS if s.status == TERMINATED else NUM_RAIDS - 1)
    expect(s.status != TERMINATED or s.raid == NUM_RAIDS, "raid", "4 once every raid is over")
    in_range("turn_player", s.turn_player, 0, n - 1)
    in_range("turns", s.turns, 0, s.max_turns - running)
    expect(s.status != TRUNCATED or s.turns == s.max_turns, "turns", "max_turns once truncated")


def check_cards(s, mid_turn):
    """Cards: 55, each in the pile, a hand or the discard; five in every hand."""
    n = int(s.num_players)
    in_range("deck_size", s.deck_size, 0, NUM_CARDS)
    in_range("deck", s.deck[: s.deck_size], 0, NUM_CARD_TYPES - 1)
    in_range("deck", s.deck[s.deck_size :], -1, NUM_CARD_TYPES - 1)
    in_range("hands", s.hands, 0, HAND_SIZE)
    in_range("hands", s.hands[n:], 0, 0)
    in_range("discard", s.discard, 0, NUM_CARDS)
    pile = np.bincount(s.deck[: s.deck_size], minlength=NUM_CARD_TYPES)
    total = pile + s.hands.sum(axis=0, dtype=np.int64) + s.discard
    expect((total == CARD_COUNTS).all(), "deck", "pile, hands and discard hold the 55 cards")
    sizes = s.hands[:n].sum(axis=1)
    for p in range(n):
        size = HAND_SIZE - (mid_turn and p == s.turn_player)
        expect(sizes[p] == size, f"hands[{p}]", f"{size} cards")
    in_range("played", s.played, 0, s.turns + 1)
    in_range("played", s.played[n:], 0, 0)
    expect(s.played.sum() == s.turns + mid_turn, "played", "one card played per turn")
    in_range("reshuffled", s.reshuffled, 0, 1)
    in_range("reshuffle_counts", s.reshuffle_counts, 0, CARD_COUNTS.max())
    expect((s.reshuffle_counts <= CARD_COUNTS).all(), "reshuffle_counts", "at most the deck")
    in_range("drawn_since", s.drawn_since, 0, CARD_COUNTS.max())
    in_range("drawn_since", s.drawn_since[n:], 0, 0)
    if s.reshuffled:
        left = s.reshuffle_counts - s.drawn_since.sum(axis=0, dtype=np.int64)
        expect((pile <= left).all(), "drawn_since", "the pile is what was reshuffled, less draws")
    else:
        in_range("reshuffle_counts", s.reshuffle_counts, 0, 0)


def check_tokens(s):
    """Tokens: raids before the current one are banked, later ones not yet out."""
    n = int(s.num_players)
    running = s.status == RUNNING
    raid = int(s.raid)
    in_range("token_loc", s.token_loc, NOT_YET_OUT, n - 1)
    for r in range(NUM_RAIDS):
        places = s.token_loc[r]
        name = f"token_loc[{r}]"
        if r < raid:
            one_of(name, places[:BOSS_SLOT], range(n))
            one_of(name, places[BOSS_SLOT:], [BOX, *range(n)])
        elif r == raid:
            in_range(name, places, CENTRE, n - 1)
            expect(not running or (places == CENTRE).any(), name, "a token in the centre")
        else:
            in_range(name, places, NOT_YET_OUT, NOT_YET_OUT)
    in_range("dog", s.dog, -1, n - 1)


def check_turn(s, mid_turn):
    """The card being played, the tokens it offers and who acts."""
    running = s.status == RUNNING
    if not mid_turn:
        in_range("pending_card", s.pending_card, -1, -1)
        in_range("pending_token", s.pending_token, -1, -1)
        in_range("offered", s.offered, 0, 0)
        expect(not running or s.actor == s.turn_player, "actor", "the turn player")
        return
    in_range("pending_card", s.pending_card, 0, NUM_CARD_TYPES - 1)
    expect(s.pending_card != GUARD_DOG_CARD, "pending_card", "a card that takes a token")
    played = s.played[s.turn_player, s.pending_card]
    expect(played > 0, "pending_card", "a card the turn player played")
    if s.phase == TOKEN:
        in_range("pending_token", s.pending_token, -1, -1)
        expect(s.actor == s.turn_player, "actor", "the turn player")
        world = np.zeros(1, STATE_DTYPE).view(np.recarray)
        world[0] = s
        rules.offer_tokens(world[0], world[0].pending_card)
        expect((s.offered == world[0].offered).all(), "offered", "the tokens the card may take")
        expect(s.offered.sum() >= 2, "offered", "two or more tokens to choose from")
    else:
        in_range("offered", s.offered, 0, 0)
        in_range("pending_token", s.pending_token, 0, TOKENS_PER_RAID - 1)
        holder = s.token_loc[s.raid, s.pending_token]
        expect(holder >= 0 and holder != s.turn_player, "pending_token", "another seat's token")
        expect(holder == s.dog, "dog", "held by the seat being robbed")
        expect(s.actor == holder, "actor", "the seat being robbed")
