"""The per-game validity checks (``Game.check_state``) and what ``determinize`` forgets.

Every state reached by legal play, and every world ``determinize`` samples from one, passes
the check; a world carries nothing its seat could not know, so two worlds that differ only
in such things determinize to the same bytes.
"""

import numpy as np
import pytest

import heist_envs
from heist_envs.art_robbery.components import NUM_CARD_TYPES
from heist_envs.core.errors import InvalidStateError
from heist_envs.core.game import RUNNING
from heist_envs.thiefs_market.components import CARD_DECK, NUM_DECKS
from heist_envs.thiefs_market.state import TRIMMED, UNOWNED
from heist_envs.toits_de_paris.components import RESERVE_SIZE
from heist_envs.toits_de_paris.state import IN_DRAW, IN_RESERVE
from tests.helpers import legal_actions

GAMES = [heist_envs.get_game(name) for name in heist_envs.game_names()]
CONFIGS = [(g, n) for g in GAMES for n in range(g.min_players, g.max_players + 1)]


def visited_states(game, num_players, seed):
    """Every record of one random game, a copy each."""
    state = game.new_state(num_players, seed)
    s = state[0]
    rng = np.random.default_rng(seed)
    yield state.copy()
    while s.status == RUNNING:
        game.apply(s, int(rng.choice(legal_actions(game, s))))
        yield state.copy()


@pytest.mark.parametrize("game, num_players", CONFIGS, ids=lambda c: str(getattr(c, "name", c)))
def test_every_state_of_random_games_and_their_worlds_passes(game, num_players):
    for k, state in enumerate(visited_states(game, num_players, num_players)):
        game.check_state(state[0])
        world = state.copy()
        game.determinize(world[0], max(int(state[0].actor), 0), np.uint64(k))
        game.check_state(world[0])


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_the_error_names_the_field_and_what_it_allows(game):
    state = game.new_state(seed=0)
    state[0].actor = 100
    with pytest.raises(InvalidStateError, match=rf"{game.name}: .*field actor = 100; allowed"):
        game.check_state(state[0])


# Two worlds that differ only in what ``seat`` cannot know, per game: each function takes a
# 1-element state, a seat and an RNG, and returns a copy changed only in such things.


def art_robbery_unknown(state, seat, rng):
    """The pile's order and the slots above it, and how the unseen cards split between the
    pile and the opponents' hands."""
    copy = state.copy()
    s, other = state[0], copy[0]
    n, size = int(s.num_players), int(s.deck_size)
    if not s.reshuffled:  # after a reshuffle the pile's composition is partly known
        cards = list(s.deck[:size])
        for q in range(n):
            if q != seat:
                for t in range(NUM_CARD_TYPES):
                    cards += [t] * int(s.hands[q, t])
        rng.shuffle(cards)
        other.deck[:size] = cards[:size]
        k = size
        for q in range(n):
            if q != seat:
                hand_size = int(s.hands[q].sum())
                other.hands[q] = np.bincount(cards[k : k + hand_size], minlength=NUM_CARD_TYPES)
                k += hand_size
    other.deck[size:] = rng.integers(0, NUM_CARD_TYPES, len(s.deck) - size)
    return copy


def toits_unknown(state, seat, rng):
    """The order of the draw pile and the reserve, and which unseen card is in which."""
    copy = state.copy()
    s, other = state[0], copy[0]
    slots = list(range(s.reserve_top, RESERVE_SIZE)) + list(range(s.draw_top, len(s.deck)))
    cards = s.deck[slots].copy()
    rng.shuffle(cards)
    other.deck[slots] = cards
    for i in slots:
        other.card_loc[other.deck[i]] = IN_RESERVE if i < RESERVE_SIZE else IN_DRAW
    return copy


def bank_unknown(state, seat, rng):
    """The other side's hand/aside split, and the round-1 hands fixed by the options."""
    copy = state.copy()
    s, other = state[0], copy[0]
    for q in range(int(s.n_seats)):
        if (q == 0) != (seat == 0):
            pool = []
            for t in range(len(s.hand[q])):
                pool += [t] * int(s.hand[q, t] + s.aside[q, t])
            rng.shuffle(pool)
            size = int(s.hand[q].sum())
            other.hand[q] = np.bincount(pool[:size], minlength=len(s.hand[q]))
            other.aside[q] = np.bincount(pool[size:], minlength=len(s.hand[q]))
    other.fixed_hand[:] = rng.integers(0, 3, s.fixed_hand.shape)
    return copy


def market_unknown(state, seat, rng):
    """Each deck's order, and which unseen cards of its letter are in it or trimmed."""
    copy = state.copy()
    s, other = state[0], copy[0]
    for d in range(NUM_DECKS):
        size = int(s.deck_size[d])
        hidden = [
            x
            for x in range(len(s.owner))
            if CARD_DECK[x] == d
            and (s.owner[x] == TRIMMED or (s.owner[x] == UNOWNED and x in s.deck[d, :size]))
        ]
        rng.shuffle(hidden)
        other.deck[d, :size] = hidden[:size]
        other.owner[hidden[:size]] = UNOWNED
        other.owner[hidden[size:]] = TRIMMED
    return copy


UNKNOWN = {
    "art_robbery": art_robbery_unknown,
    "toits_de_paris": toits_unknown,
    "how_to_rob_a_bank": bank_unknown,
    "thiefs_market": market_unknown,
}


@pytest.mark.parametrize("game, num_players", CONFIGS, ids=lambda c: str(getattr(c, "name", c)))
def test_worlds_differing_only_in_unknowable_slots_determinize_alike(game, num_players):
    rng = np.random.default_rng(num_players)
    differed = 0
    for k, state in enumerate(visited_states(game, num_players, 7)):
        if k % 5 or state[0].status != RUNNING:
            continue
        for seat in range(game.num_seats(num_players)):
            world, other = state.copy(), UNKNOWN[game.name](state, seat, rng)
            differed += world.tobytes() != other.tobytes()
            game.determinize(world[0], seat, np.uint64(k))
            game.determinize(other[0], seat, np.uint64(k))
            assert world.tobytes() == other.tobytes(), f"{game.name}: step {k}, seat {seat}"
    assert differed > 0
