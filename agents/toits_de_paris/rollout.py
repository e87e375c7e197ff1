"""Les Toits de Paris's rollout policy and evaluation for ISMCTS (see :mod:`agents.profiles`).

Rollout policy (:func:`rollout_action`): the heuristic's strategy
(:mod:`agents.toits_de_paris.compiled`), read from the full state instead of an observation, with a
little randomness (``EPSILON``) so that rollouts of one position stay diverse.

- Sharing (take a card, pass, joker colour): a card is worth the change it makes to the
  taker's margin over the best opponent if the game were scored now (card points, colour and
  feather majorities with the tie-breakers, a police raid's losses), plus a little for any
  card (majorities are still open) and for a reserve draw, minus a risk for a colour one bell
  away from a raid. Takers pick the best card; the leader takes freely while a card is worth
  more than nothing (``denial``: a card taken is one the others cannot have).
- Theft (stop or reveal another card): the leader reveals on while the expected share of
  cards, looking ahead to the end of the theft with the arrow counts of the cards it has not
  seen (the draw pile and reserve: the rollout never peeks at their order), beats stopping
  now. A random rollout stops half the time with one card on the board, the weakest way to
  lead with four players, which is why ISMCTS with random rollouts learnt to stop at once.

Evaluation (:func:`evaluate`): each seat's chance of winning from the scores the collections
would earn if the game ended now: a softmax of the scores with a temperature that grows
with the cards still to be revealed (``TEMPERATURE``: hand-set, not fitted). It lets the
search cut rollouts after ``rollout_depth`` moves (``SEARCH_DEFAULTS``; a whole game is about
125 policy moves), which bounds the cost of a simulation and smooths the backed-up signal.

Search settings (``SEARCH_DEFAULTS``): a full tree loses to the heuristic here. It expands
uniformly random moves and averages its backups, which penalises lines where the searcher
has many decisions of its own to come (revealing on, then choosing cards), and after a
reveal one node stands for every card the sampled worlds put on the board. So the tree is
held to the root's moves (``tree_depth`` 1: UCB over the root's moves, the policy after
them), rollouts are cut after 10 moves, and every rollout, finished or not, is scored by
``evaluate``'s win chances, a much less noisy signal than one 4-player win or loss.
"""

import numba as nb
import numpy as np

from heist_envs.core.playout import random_legal_action
from heist_envs.toits_de_paris.actions import (
    CONTINUE,
    DECLINE_JOKER,
    JOKER_COLOUR_0,
    NUM_ACTIONS,
    PASS,
    STOP,
    TAKE_SPACE_1,
)
from heist_envs.toits_de_paris.components import (
    ARROWS,
    BELLS,
    CARD_FIELD_MAX,
    COLOUR,
    FEATHERS,
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
from heist_envs.toits_de_paris.rules import award
from heist_envs.toits_de_paris.state import (
    EMPTY,
    IN_DRAW,
    IN_RESERVE,
    JOKER,
    LEADER_EXTRA,
    LEADER_FREE,
    REWARD_WIN,
    SEAT_0,
    THEFT,
    UNUSED,
)

from .compiled import (
    BELL_RISK,
    CARD_POTENTIAL,
    CONTINUE_MARGIN,
    DENIAL,
    JOKER_NOW,
    JOKER_OFFER,
    OTHERS_ON_STOP,
    RESERVE_DRAW,
    params,
    reveal_value,
    stop_value,
    theft_values,
)

# The heuristic's hand-set weights (score points) as an array, in ``WEIGHT_NAMES`` order; the
# policy functions take the array, so that a tuning run can play other weights.
WEIGHTS = params()

EPSILON = 0.1  # chance of a uniformly random legal move in a rollout

# Win chances at a cut: softmax(score / T), T = TEMPERATURE[0] + TEMPERATURE[1] * cards left
# to reveal (draw pile and reserve).
TEMPERATURE = np.array([2.0, 0.15])

SEARCH_DEFAULTS = {"uct_c": 0.5, "rollout_depth": 10, "tree_depth": 1, "evaluate_end": True}

NO_HOLDER = -1
MAX_ARROWS = CARD_FIELD_MAX[ARROWS]


# --- The collections as the scoring sees them ---


@nb.njit(cache=True)
def collect(s, values, vp, bells, holder):
    """Per seat: ``values[p, t]`` cards of colour t (joker included) and, at t = WHITE,
    feathers; ``vp[p]`` card points; ``bells[p, c]`` bell symbols; ``holder[t]`` the seat
    holding colour t's tie-breaker (NO_HOLDER for none, and always for white)."""
    values[:] = 0
    vp[:] = 0
    bells[:] = 0
    holder[:] = NO_HOLDER
    table = s.card_table
    for card in range(NUM_CARDS):
        loc = s.card_loc[card]
        if loc >= SEAT_0:
            p = loc - SEAT_0
            colour = table[card, COLOUR]
            values[p, colour] += 1
            values[p, WHITE] += table[card, FEATHERS]
            vp[p] += table[card, VP]
            bells[p, colour] += table[card, BELLS]
            if table[card, TIEBREAK]:
                holder[colour] = p
    for p in range(s.num_players):
        if s.joker[p] >= 0:
            values[p, s.joker[p]] += 1


@nb.njit(cache=True)
def score_now(s, values, vp, holder, awards, out):
    """The scores the collections would earn if the game ended now: card points, and the
    token sets by the kernel's majority rules (``rules.award``, D22-D27; ``awards`` is its
    scratch)."""
    awards[:] = 0
    for p in range(s.num_players):
        out[p] = vp[p]
    for t in range(NUM_TOKEN_SETS):
        award(s, t, values[:, t], holder[t], awards, out)


@nb.njit(cache=True)
def standing(s):
    """The collections as they stand and the scores they would earn now, in fresh arrays that
    the caller may change and score again: (values, vp, bells, holder, awards, scores)."""
    values = np.zeros((NUM_PLAYERS_MAX, NUM_TOKEN_SETS), np.int64)
    vp = np.zeros(NUM_PLAYERS_MAX, np.int64)
    bells = np.zeros((NUM_PLAYERS_MAX, NUM_COLOURS), np.int64)
    holder = np.zeros(NUM_TOKEN_SETS, np.int64)
    awards = np.zeros((NUM_PLAYERS_MAX, NUM_TOKEN_SETS), np.int8)
    scores = np.zeros(NUM_PLAYERS_MAX, np.float64)
    collect(s, values, vp, bells, holder)
    score_now(s, values, vp, holder, awards, scores)
    return values, vp, bells, holder, awards, scores


@nb.njit(cache=True)
def margin(scores, p, n):
    """Seat p's score minus the best opponent's."""
    best = -1e9
    for q in range(n):
        if q != p and scores[q] > best:
            best = scores[q]
    return scores[p] - best


# --- Sharing decisions ---


@nb.njit(cache=True)
def card_gain(s, p, card, values, vp, bells, holder, awards, base, scores, w):
    """What gaining ``card`` is worth to seat p now (``base``: p's margin as things stand);
    ``values``, ``vp`` and ``holder`` are restored before returning; ``w``: the weights."""
    n = s.num_players
    table = s.card_table
    colour = table[card, COLOUR]
    gain = w[RESERVE_DRAW] * table[card, RESERVE]
    after = bells[p, colour] + table[card, BELLS]
    if table[card, BELLS] > 0 and after >= RAID_BELLS:  # a police raid: the colour is lost
        lost_feathers = table[card, FEATHERS]
        lost_vp = table[card, VP]
        for other in range(NUM_CARDS):
            if s.card_loc[other] == SEAT_0 + p and table[other, COLOUR] == colour:
                lost_feathers += table[other, FEATHERS]
                lost_vp += table[other, VP]
        old_count, old_holder = values[p, colour], holder[colour]
        values[p, colour] = 0
        values[p, WHITE] -= lost_feathers - table[card, FEATHERS]
        vp[p] -= lost_vp - table[card, VP]
        if holder[colour] == p:
            holder[colour] = NO_HOLDER
        score_now(s, values, vp, holder, awards, scores)
        values[p, colour] = old_count
        values[p, WHITE] += lost_feathers - table[card, FEATHERS]
        vp[p] += lost_vp - table[card, VP]
        holder[colour] = old_holder
        if s.joker[p] == UNUSED:
            gain += w[JOKER_OFFER]
        return gain + margin(scores, p, n) - base
    gain += w[CARD_POTENTIAL]
    if after == RAID_BELLS - 1:
        gain -= w[BELL_RISK] * (values[p, colour] + 1)
    old_holder = holder[colour]
    values[p, colour] += 1
    values[p, WHITE] += table[card, FEATHERS]
    vp[p] += table[card, VP]
    if table[card, TIEBREAK]:
        holder[colour] = p
    score_now(s, values, vp, holder, awards, scores)
    values[p, colour] -= 1
    values[p, WHITE] -= table[card, FEATHERS]
    vp[p] -= table[card, VP]
    holder[colour] = old_holder
    return gain + margin(scores, p, n) - base


@nb.njit(cache=True)
def best_share(s, mask, w):
    """The best take (or PASS where legal and nothing is worth taking), or the best joker."""
    p = s.actor
    n = s.num_players
    values, vp, bells, holder, awards, scores = standing(s)
    base = margin(scores, p, n)
    if s.phase == JOKER:
        best, best_gain = DECLINE_JOKER, 0.0
        for colour in range(NUM_COLOURS):
            values[p, colour] += 1
            score_now(s, values, vp, holder, awards, scores)
            values[p, colour] -= 1
            gain = margin(scores, p, n) - base + w[JOKER_NOW]
            if gain > best_gain:
                best, best_gain = JOKER_COLOUR_0 + colour, gain
        return best
    free = s.phase == LEADER_FREE or s.phase == LEADER_EXTRA
    best, best_gain = -1, -np.inf
    if mask[PASS]:
        best, best_gain = PASS, 0.0
    for space in range(1, s.n + 1):
        card = s.board[space]
        if card == EMPTY:
            continue
        gain = card_gain(s, p, card, values, vp, bells, holder, awards, base, scores, w)
        if free:
            gain += w[DENIAL]
        if gain > best_gain:
            best, best_gain = TAKE_SPACE_1 + space - 1, gain
    return best


# --- Theft decisions ---


@nb.njit(cache=True)
def should_continue(s, w):
    """Reveal on while the expected share with best play after (over the arrows of the
    unseen cards) beats stopping now by more than ``w[CONTINUE_MARGIN]``: the compiled
    heuristic's look-ahead (:func:`agents.toits_de_paris.compiled.theft_values`), with the
    unseen cards counted from the state instead of the observation."""
    counts = np.zeros(MAX_ARROWS + 1, np.float64)
    unseen = 0
    for card in range(NUM_CARDS):
        loc = s.card_loc[card]
        if loc in (IN_DRAW, IN_RESERVE):
            counts[s.card_table[card, ARROWS]] += 1
            unseen += 1
    if unseen == 0:
        return False
    odds = counts / unseen
    players, others_on_stop = s.num_players, w[OTHERS_ON_STOP]
    theft = theft_values(odds, players, others_on_stop)
    stop = stop_value(s.n, players, others_on_stop) + w[CONTINUE_MARGIN]
    return reveal_value(s.n, s.insp, odds, players, theft) > stop


# --- The compiled hooks ---


@nb.njit(cache=True)
def policy_action(s, mask, w):
    """The policy's move with weights ``w``, without the random part."""
    if s.phase == THEFT:
        if mask[CONTINUE] and should_continue(s, w):
            return CONTINUE
        return STOP
    return best_share(s, mask, w)


@nb.njit(cache=True)
def rollout_action(s, mask):
    """A legal action for ``s.actor``: the policy's move, or a random one (``EPSILON``)."""
    if np.random.random() < EPSILON:
        return random_legal_action(mask, NUM_ACTIONS)
    return policy_action(s, mask, WEIGHTS)


@nb.njit(cache=True)
def evaluate(s, out):
    """Each seat's chance of winning (the ``win`` returns' scale; for ``reward="score"``
    the scores as they stand)."""
    n = s.num_players
    scores = standing(s)[-1]
    out[:] = 0.0
    if s.reward_mode != REWARD_WIN:
        for p in range(n):
            out[p] = scores[p]
        return
    left = (NUM_CARDS - s.draw_top) + (RESERVE_SIZE - s.reserve_top)
    temperature = TEMPERATURE[0] + TEMPERATURE[1] * left
    top = scores[0]
    for p in range(1, n):
        top = max(top, scores[p])
    total = 0.0
    for p in range(n):
        out[p] = np.exp((scores[p] - top) / temperature)
        total += out[p]
    for p in range(n):
        out[p] /= total
