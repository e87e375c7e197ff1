"""Art Robbery invariants over random playouts (hypothesis chooses seeds and player counts)."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from heist_envs.art_robbery import GAME
from heist_envs.art_robbery.components import (
    BOSS_SLOT,
    CARD_COUNTS,
    NUM_CARD_TYPES,
    NUM_RAIDS,
    TOKEN_ALIBIS,
    TOKEN_VALUES,
)
from heist_envs.art_robbery.state import BOX, CENTRE, DOG, NOT_YET_OUT, TOKEN
from heist_envs.core.game import TERMINATED, TRUNCATED
from tests.helpers import random_playout


def check_conservation(s):
    """55 cards and 36 tokens, each in exactly one place."""
    n = s.num_players
    pile = np.bincount(s.deck[: s.deck_size], minlength=NUM_CARD_TYPES)
    assert ((pile + s.hands[:n].sum(axis=0) + s.discard) == CARD_COUNTS).all()
    assert (s.hands[n:] == 0).all()
    sizes = s.hands[:n].sum(axis=1)
    if s.phase in (TOKEN, DOG):  # the card is played, the draw comes at the end of the turn
        sizes[s.turn_player] += 1
    assert (sizes == 5).all()
    for r in range(NUM_RAIDS):
        places = s.token_loc[r]
        assert ((places >= BOX) & (places < n)).all() if r <= s.raid else True
        if r < s.raid:
            assert not (places == CENTRE).any()
        if r > s.raid:
            assert (places == NOT_YET_OUT).all()
        assert not (places[:BOSS_SLOT] == BOX).any()


def recompute_returns(s):
    """Scoring written out again from the rulebook text, independent of the kernel."""
    n = int(s.num_players)
    value = [0] * n
    alibis = [0] * n
    for r in range(NUM_RAIDS):
        for i in range(9):
            p = int(s.token_loc[r, i])
            if p >= 0:
                value[p] += int(TOKEN_VALUES[i])
                alibis[p] += int(TOKEN_ALIBIS[r, i])
    low = min(alibis)
    for p in range(n):
        if alibis[p] == low:
            value[p] = value[p] - 10 if n == 2 else 0
    best = max(zip(value, alibis, strict=True))
    return [1.0 if (value[p], alibis[p]) == best else -1.0 for p in range(n)]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**63 - 1), num_players=st.integers(2, 5))
def test_random_playouts_conserve_components_and_score_correctly(seed, num_players):
    state = random_playout(GAME, num_players, seed, on_step=check_conservation)
    s = state[0]
    assert s.status in (TERMINATED, TRUNCATED)
    out = np.zeros(num_players, np.float32)
    GAME.returns(s, out)
    if s.status == TERMINATED:
        assert out.tolist() == recompute_returns(s)
    else:
        assert (out == 0).all()
