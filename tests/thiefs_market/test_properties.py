"""Thief's Market invariants over random playouts (hypothesis chooses seeds and player counts).

After every step: dice per player count conserved; the pawn in one place; the 49 cards each
in exactly one place (deck, market, a player, the box), in the state and in a world sampled
by determinize; gold and infamy never negative; the acting seat's mask never empty, and a
sub-decision is only presented with a real choice (spec 8.1); exactly P takes in every
Divide (D11). At the end: returns equal a recomputation of the scoring written again from
the rulebook text.
"""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from heist_envs.core.game import RUNNING, TERMINATED, TRUNCATED
from heist_envs.thiefs_market import GAME
from heist_envs.thiefs_market.components import CARD_TABLE, parse_icons
from heist_envs.thiefs_market.observation import LAYOUT
from heist_envs.thiefs_market.state import (
    D_CHOOSE,
    D_RETURNING,
    D_TAKING,
    P_LAA,
    P_MAIN,
    P_PAY,
    P_WAIVE,
)
from tests.helpers import legal_actions, random_playout
from tests.thiefs_market.builders import check_invariants

SUB_DECISIONS = (D_TAKING, D_RETURNING, P_LAA, P_WAIVE, P_PAY)
PURCHASES = (P_LAA, P_MAIN, P_WAIVE, P_PAY)


def check_step(s):
    check_invariants(s)
    world = s.copy()
    GAME.determinize(world, max(int(s.actor), 0), 1)
    check_invariants(world)  # a sampled world holds every card in exactly one place too
    if s.status != RUNNING:
        assert s.actor == -1
        return
    legal = legal_actions(GAME, s)
    assert len(legal) >= 1, f"empty mask for seat {s.actor} in stage {s.stage}"
    if s.stage in SUB_DECISIONS:
        assert len(legal) >= 2, "a forced sub-decision must be applied automatically"
    if s.stage in PURCHASES:
        assert s.takes == s.num_players
    if s.stage == D_CHOOSE:
        assert s.pile[s.actor].sum() == 0 and s.pawn_loc != s.actor


def majority(values, first, second):
    """Awards as spec section 6 words them (D25)."""
    n = len(values)
    out = [0] * n
    competing = [v for v in values if v >= 1]
    if not competing:
        return out
    top = max(competing)
    leaders = [q for q in range(n) if values[q] == top]
    if len(leaders) > 1:
        for q in leaders:
            out[q] = first - 1
        return out
    out[leaders[0]] = first
    rest = [v for v in competing if v < top]
    if second and rest:
        seconds = [q for q in range(n) if values[q] == max(rest)]
        for q in seconds:
            out[q] = second if len(seconds) == 1 else second - 1
    return out


def recompute_scores(s):
    """Each seat's (total, cards, tokens), from the card table's text (section 6, 5.9)."""
    n = int(s.num_players)
    owned = [[c for c in CARD_TABLE if s.owner[c.id - 1] == q] for q in range(n)]
    icons = [np.sum([parse_icons(c.icons) for c in cards] or [[0] * 6], axis=0) for cards in owned]
    henchmen = [int(i[0]) for i in icons]
    gold = [int(s.gold[q]) for q in range(n)]
    infamy = [int(s.infamy[q]) for q in range(n)]
    hench_award = majority(henchmen, 3, 1)
    gold_award = majority(gold, 3, 0)
    results = []
    for q in range(n):
        vp = 0
        for c in owned[q]:
            vp += c.vp
            if c.name.endswith("Safehouse"):
                vp += c.pa if icons[q][1] == 1 else c.pb
            elif c.name == "Collecting Golem":
                vp += 3 * (int(icons[q][2]) // 2)
            elif c.name == "Loyalty Program":
                vp += len(owned[q]) - 1
            elif c.name == "Political Campaign":
                vp += infamy[q] // 2
            elif c.name == "Treasure Map":
                rival = any(icons[r][4] for r in range(n) if r != q)
                vp += 5 if rival else 7
        total = vp + infamy[q] + hench_award[q] + gold_award[q]
        results.append((total, len(owned[q]), infamy[q] + gold[q]))
    return results


def recompute_returns(s):
    results = recompute_scores(s)
    best = max(results)
    return [1.0 if r == best else -1.0 for r in results]


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**63 - 1), num_players=st.integers(3, 5))
def test_random_playouts_keep_the_invariants_and_score_correctly(seed, num_players):
    state = random_playout(GAME, num_players, seed, on_step=check_step)
    s = state[0]
    assert s.status in (TERMINATED, TRUNCATED)
    out = np.zeros(num_players, np.float32)
    GAME.returns(s, out)
    if s.status == TERMINATED:
        assert out.tolist() == recompute_returns(s)
        assert GAME.scores(s)["score"] == [r[0] for r in recompute_scores(s)]
    else:
        assert (out == 0).all()


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**63 - 1), max_rounds=st.integers(1, 4))
def test_short_games_are_truncated_at_max_rounds(seed, max_rounds):
    s = random_playout(GAME, 4, seed, options={"max_rounds": max_rounds}, on_step=check_step)[0]
    assert (s.status == TRUNCATED and s.round_number == max_rounds) or s.status == TERMINATED


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**63 - 1), num_players=st.integers(3, 5))
def test_observations_fit_the_layout_for_every_seat(seed, num_players):
    obs = np.zeros(GAME.obs_size, GAME.obs_dtype)

    def observe_all(s):
        for seat in range(num_players):
            GAME.observe(s, seat, obs)
            assert obs.min() >= 0
            assert obs[LAYOUT["seat_in_game"]].sum() == num_players

    random_playout(GAME, num_players, seed, on_step=observe_all)
