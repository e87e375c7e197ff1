"""Takes the loot that is worth most to it, minding the alibi count.

Art Robbery's heuristic player, written once, in numba. Every card in hand is valued by the
token it would take (or steal) now: the token's points, its alibi dots weighted by how close
the player is to having the fewest alibis (which loses everything at the end:
:data:`ALIBI_WEIGHT`), a bonus for keeping the Boss token (a 4 or 5 of the raid alongside it)
and, for a steal, half the victim's loss (more where the token keeps the victim's Boss or the
victim leads); a steal from the Guard Dog's holder counts half, since it may give the dog
instead. A card that would take nothing is discarded, the least useful first
(:data:`KEEP_VALUE`: Greedy Thief and Boss cards are kept). The same values pick the token to
take, and decide whether a stolen token is worth giving the Guard Dog away (when it is worth a
point more than keeping the dog).

:func:`scores` values every legal action from the seat's observation and action mask alone;
:func:`act` plays the best (:func:`agents.compiled.best_with_ties_at_random`).
"""

from collections import namedtuple

import numba as nb
import numpy as np

from heist_envs.art_robbery.actions import GIVE_DOG, GIVE_TOKEN, TAKE_SLOT_0
from heist_envs.art_robbery.components import (
    BOSS_CARD,
    BOSS_SLOT,
    GREEDY_THIEF_CARD,
    GUARD_DOG_CARD,
    NUM_PLAYERS_MIN,
    NUM_RAIDS,
    TOKEN_ALIBIS,
    TOKEN_VALUES,
    TOKENS_PER_RAID,
)
from heist_envs.art_robbery.observation import LAYOUT, TOKEN_PLACES
from heist_envs.art_robbery.state import DOG, PLAY, TOKEN

from ..compiled import best_with_ties_at_random
from ..profiles import check_weights

CENTRE_PLACE, SEAT_PLACE = 0, 2  # token places: centre, box, then relative seats
#: the Number tokens that keep the Boss (a 4 or a 5)
HIGH_SLOTS = np.flatnonzero(TOKEN_VALUES[:BOSS_SLOT] >= 4)
#: How much holding on to a card is worth, when playing it now would gain nothing.
KEEP_VALUE = np.array([0.0, 0.1, 0.2, 0.3, 0.5, 0.6, 0.8, 0.3, 1.2])
#: An alibi dot's weight by the lead in alibis over the opponent with the fewest (0: no lead).
ALIBI_WEIGHT = np.array([4.0, 2.0, 0.7, 0.3])

_PHASE, _PHASE_STOP = LAYOUT["phase"].start, LAYOUT["phase"].stop
_NUM_PLAYERS, _NUM_PLAYERS_STOP = LAYOUT["num_players"].start, LAYOUT["num_players"].stop
_RAID, _RAID_STOP = LAYOUT["raid"].start, LAYOUT["raid"].stop
_TOKENS = LAYOUT["tokens"].start
_DOG, _DOG_STOP = LAYOUT["dog"].start, LAYOUT["dog"].stop
_PENDING, _PENDING_STOP = LAYOUT["pending_token"].start, LAYOUT["pending_token"].stop
_VALUE = LAYOUT["loot_value"].start
_ALIBIS = LAYOUT["alibis"].start

#: IS_HIGH[slot]: the slot is one of HIGH_SLOTS (the Number tokens that keep the Boss)
IS_HIGH = np.isin(np.arange(TOKENS_PER_RAID), HIGH_SLOTS)
_CENTRE, _NOT_HERE = -1, -2  # holder codes besides relative seats

#: The observation decoded: ``holder[slot]`` is -1 for the centre, -2 for the box or not out
#: yet, else the relative seat; ``dog`` -1 for the centre, else the relative seat.
View = namedtuple("View", ["n", "raid", "holder", "dog", "values", "alibi_weight"])


def params(weights=None) -> np.ndarray:
    """The parameter vector: empty, Art Robbery's heuristic has no weights to replace
    (``weights`` other than None raise :func:`agents.profiles.check_weights`'s ValueError)."""
    check_weights("art_robbery", weights)
    return np.zeros(0)


@nb.njit(cache=True)
def view(obs):
    """The :data:`View` of ``obs``."""
    n = NUM_PLAYERS_MIN + np.argmax(obs[_NUM_PLAYERS:_NUM_PLAYERS_STOP])
    raid = min(np.argmax(obs[_RAID:_RAID_STOP]), NUM_RAIDS - 1)
    holder = np.empty(TOKENS_PER_RAID, np.int64)
    for slot in range(TOKENS_PER_RAID):
        base = _TOKENS + (raid * TOKENS_PER_RAID + slot) * TOKEN_PLACES
        seats = obs[base + SEAT_PLACE : base + TOKEN_PLACES]
        if obs[base + CENTRE_PLACE] == 1:
            holder[slot] = _CENTRE
        elif seats.any():
            holder[slot] = np.argmax(seats)
        else:
            holder[slot] = _NOT_HERE
    dog = np.argmax(obs[_DOG:_DOG_STOP]) - 1
    values = obs[_VALUE : _VALUE + n]
    alibis = obs[_ALIBIS : _ALIBIS + n]
    margin = np.int64(alibis[0]) - np.int64(alibis[1:].min())
    alibi_weight = ALIBI_WEIGHT[min(max(margin, 0), len(ALIBI_WEIGHT) - 1)]
    return View(n, raid, holder, dog, values, alibi_weight)


@nb.njit(cache=True)
def holds_high(v, seat):
    """Whether ``seat`` holds a Number token that keeps the Boss (one of HIGH_SLOTS)."""
    for i in HIGH_SLOTS:
        if v.holder[i] == seat:
            return True
    return False


@nb.njit(cache=True)
def token_value(v, slot):
    """What the token is worth to the agent once it holds it."""
    value = TOKEN_VALUES[slot] + v.alibi_weight * TOKEN_ALIBIS[v.raid, slot]
    if slot == BOSS_SLOT:
        value = 5.0 if holds_high(v, 0) else 2.0
    elif IS_HIGH[slot] and v.holder[BOSS_SLOT] == 0 and not holds_high(v, 0):
        value += 3.0
    return value


@nb.njit(cache=True)
def loss_to(v, seat, slot):
    """What losing the token costs its holder."""
    loss = np.float64(TOKEN_VALUES[slot])
    if IS_HIGH[slot] and v.holder[BOSS_SLOT] == seat:
        loss += 2.0
    if v.values[seat] >= v.values.max():
        loss *= 1.5
    return loss


@nb.njit(cache=True)
def take_value(v, slot):
    """What taking the token is worth; a steal adds half the holder's loss."""
    seat = v.holder[slot]
    if seat == _CENTRE:
        return token_value(v, slot)
    gain = token_value(v, slot) + 0.5 * loss_to(v, seat, slot)
    if v.dog == seat:
        gain *= 0.5
    return gain


@nb.njit(cache=True)
def dog_value(v):
    """What holding the Guard Dog is worth: a share of the tokens it would protect."""
    held = 0.0
    for i in range(TOKENS_PER_RAID):
        if v.holder[i] == 0:
            held += token_value(v, i)
    return 0.3 + 0.15 * held


@nb.njit(cache=True)
def takes(v, card, slot, number_in_centre):
    """Whether playing ``card`` would take ``slot``: the Greedy Thief a token of the centre, the
    Boss card the Boss token from the centre or a rival, a Number card a token of its value from
    the centre if ``number_in_centre``, else from a rival."""
    holder = v.holder[slot]
    if card == GREEDY_THIEF_CARD:
        return holder == _CENTRE
    if card == BOSS_CARD:
        return slot == BOSS_SLOT and (holder == _CENTRE or 1 <= holder < v.n)
    if slot >= BOSS_SLOT or TOKEN_VALUES[slot] != card:
        return False
    return holder == _CENTRE if number_in_centre else holder > 0


@nb.njit(cache=True)
def card_value(v, card):
    """What playing ``card`` now gains: the best token it would take (0 if none)."""
    if card == GUARD_DOG_CARD:
        return 0.0 if v.dog == 0 else dog_value(v)
    number_in_centre = False
    for i in range(BOSS_SLOT):
        if TOKEN_VALUES[i] == card and v.holder[i] == _CENTRE:
            number_in_centre = True
    best, found = 0.0, False
    for i in range(TOKENS_PER_RAID):
        if takes(v, card, i, number_in_centre):
            value = take_value(v, i)
            if not found or value > best:
                best, found = value, True
    return best


@nb.njit(cache=True)
def scores(obs, mask, params):
    """The legal actions of one seat's observation and action mask and the heuristic's score
    of each (it plays the best, ties broken at random)."""
    legal = np.flatnonzero(mask)
    phase = np.argmax(obs[_PHASE:_PHASE_STOP])
    v = view(obs)
    values = np.zeros(len(legal))
    if phase == PLAY:
        for k in range(len(legal)):
            values[k] = card_value(v, legal[k]) - KEEP_VALUE[legal[k]]
    elif phase == TOKEN:
        for k in range(len(legal)):
            values[k] = take_value(v, legal[k] - TAKE_SLOT_0)
    elif phase == DOG:
        slot = np.argmax(obs[_PENDING:_PENDING_STOP])
        give_dog = token_value(v, slot) >= dog_value(v) + 1.0
        chosen = GIVE_DOG if give_dog else GIVE_TOKEN
        for k in range(len(legal)):
            values[k] = 1.0 if legal[k] == chosen else 0.0
    return legal, values


@nb.njit(cache=True)
def act(obs, mask, params, rng):
    """The heuristic's action for one seat's observation and action mask."""
    legal, values = scores(obs, mask, params)
    return best_with_ties_at_random(legal, values, rng)
