"""Buys the card worth most points, and loots the dice that pay for it.

Thief's Market's heuristic player, written once, in numba. Cards are valued in final points:
printed VP, henchman icons (toward the majority), safehouse, wand, compass and loyalty bonuses
as they would score now, infamy gained at once, and a fading value for ability cards. In a
purchase turn it converts a die when that makes a better card affordable, buys the best card it
can, pays with dice before gold, and turns leftover dice and gold into infamy or purses.
Dividing the loot, it values masks and purses (infamy and gold) and the gems its best market
cards need; it steals a pile when that beats taking, returns the least useful object, and stops
taking after a few objects.

:func:`scores` values every legal action from the seat's observation (read through the game's
``LAYOUT``) and action mask alone; :func:`act` plays the best
(:func:`agents.compiled.best_with_ties_at_random`).
"""

import numba as nb
import numpy as np

from heist_envs.thiefs_market import actions as A
from heist_envs.thiefs_market import components as C
from heist_envs.thiefs_market.observation import LAYOUT
from heist_envs.thiefs_market.state import (
    D_CHOOSE,
    D_RETURNING,
    D_TAKING,
    P_MAIN,
    P_PAY,
    P_WAIVE,
)

from ..compiled import best_with_ties_at_random
from ..profiles import check_weights

PAWN_VALUE = 0.5  # buying first, and the next round's first take
FACE_VALUE = np.array([0.5, 0.5, 0.5, 0.5, 0.9, 1.0])  # gems, purse (1 gold), mask (1 infamy)
ABILITY_VALUE = 1.2  # a card whose worth is its ability, early in the game
ABILITY_FADE = 25  # cards left to buy (decks and market) below which abilities fade
FUTURE_CARDS, FUTURE_INFAMY = 2, 4  # still to come, for the cards that count them
MAX_TAKE = 4  # objects taken before a pile becomes a tempting target
GOLD_COST = 0.3  # points a gold spent on a purchase is worth keeping
HENCHMAN_VALUE = 1.0  # a thief icon, toward the henchman majority
SECOND_BUILDING_VALUE = 2.0  # a second building icon lifts the safehouse owned to its pb VP
GOLEM_WAND_VALUE = 1.5  # a wand icon, for the owner of a card paying per wand pair
BUY_FIRST = 10  # a purchase, or a conversion toward a better one, outranks every other move
CONVERT_GAIN = 0.5  # the least gain for which a conversion is worth its die
SPEND_FOR_INFAMY_VALUE = 1.2  # leftover moves, once nothing is worth buying
TO_PURSE_VALUE = 1.0
EXIT_STRATEGY_VALUE = 1.5
END_TURN_VALUE = 0.5
TARGET_CARDS = 3  # the best market cards whose missing gems raise a gem die's value
TARGET_GEM_VALUE = 0.6  # for the best of them; the next ones count 1/2, 1/3 of it
FINISH_TAKE_VALUE = 0.45  # stop taking unless a die or the pawn is worth more
STEAL_COST = 0.5  # a steal gives an object back and makes the thief a target
FINISH_RETURN_VALUE = 2.0  # once one object is on its way back

# Where the observation's parts start (and end, for the one-hot ones), as plain ints for numba;
# per-seat parts are laid out relative seat by relative seat, seat 0 being the observer.
_NUM_PLAYERS, _NUM_PLAYERS_END = LAYOUT["num_players"].start, LAYOUT["num_players"].stop
_STAGE, _STAGE_END = LAYOUT["stage"].start, LAYOUT["stage"].stop
_GOLD = LAYOUT["gold"].start
_INFAMY = LAYOUT["infamy"].start
_PILE = LAYOUT["pile"].start
_PILE_SIZE = LAYOUT["pile_size"].start
_HAS_PAWN = LAYOUT["has_pawn"].start
_OWNED = LAYOUT["owned"].start
_SNAP_SIZE = LAYOUT["snap_size"].start
_ALLOWED_BUYS = LAYOUT["allowed_buys"].start
_BUYS_MADE = LAYOUT["buys_made"].start
_CENTRE = LAYOUT["centre"].start
_PAWN_IN_CENTRE = LAYOUT["pawn_in_centre"].start
_RETURN_BUFFER, _RETURN_BUFFER_END = LAYOUT["return_buffer"].start, LAYOUT["return_buffer"].stop
_PAWN_IN_RETURN_BUFFER = LAYOUT["pawn_in_return_buffer"].start
_MARKET_CARD = LAYOUT["market_card"].start
_DECK_SIZES, _DECK_SIZES_END = LAYOUT["deck_sizes"].start, LAYOUT["deck_sizes"].stop
_NEED = LAYOUT["need"].start

#: per CONVERT_GEM action (from A.CONVERT_GEM_0): the gem turned, and the gem it becomes
_CONVERT_FROM, _CONVERT_TO = np.array(
    [A.convert_gem_faces(action) for action in range(A.CONVERT_GEM_0, A.JEWELLER_0)], np.int64
).T.copy()


def params(weights=None) -> np.ndarray:
    """The parameter vector: empty, the Thief's Market heuristic has no weights to replace
    (``weights`` other than None raise :func:`agents.profiles.check_weights`'s ValueError)."""
    check_weights("thiefs_market", weights)
    return np.zeros(0)


@nb.njit(cache=True)
def scores(obs, mask, params):
    """The legal actions of one seat's observation and mask and the heuristic's score of each
    (it plays the best, ties broken at random; ``params`` is unused)."""
    legal = np.flatnonzero(mask)
    values = np.empty(len(legal))
    stage = np.argmax(obs[_STAGE:_STAGE_END])
    pile = obs[_PILE : _PILE + C.NUM_FACES].astype(np.int64)
    if stage in (D_CHOOSE, D_TAKING):
        faces = _face_values(obs, pile, _card_values(obs))
        for k in range(len(legal)):
            values[k] = _divide_value(obs, faces, legal[k])
    elif stage == D_RETURNING:
        faces = _face_values(obs, pile, _card_values(obs))
        for k in range(len(legal)):
            values[k] = _return_value(obs, faces, legal[k])
    elif stage == P_MAIN:
        cards = _card_values(obs)
        now = _best_buy(obs, cards, pile)
        for k in range(len(legal)):
            values[k] = _purchase_value(obs, cards, pile, now, legal[k])
    elif stage == P_WAIVE:
        for k in range(len(legal)):
            values[k] = _waive_value(obs, pile, legal[k] - A.WAIVE_0)
    elif stage == P_PAY:
        for k in range(len(legal)):
            values[k] = 1.0 if legal[k] == A.PAY_DIE else 0.0
    else:
        for k in range(len(legal)):
            values[k] = 1.0 if legal[k] == A.LAA_SKIP else 0.0
    return legal, values


@nb.njit(cache=True)
def act(obs, mask, params, rng):
    """The heuristic's action for one seat's observation and mask (``params`` is unused)."""
    legal, values = scores(obs, mask, params)
    return best_with_ties_at_random(legal, values, rng)


# --- the observation decoded ---------------------------------------------------------------


@nb.njit(cache=True)
def _num_players(obs):
    return C.NUM_PLAYERS_MIN + np.argmax(obs[_NUM_PLAYERS:_NUM_PLAYERS_END])


@nb.njit(cache=True)
def _owns(obs, seat, x):
    return obs[_OWNED + seat * C.NUM_CARDS + x] > 0


@nb.njit(cache=True)
def _market_card(obs, slot):
    """The card in a market slot, -1 when it is empty."""
    return np.int64(obs[_MARKET_CARD + slot]) - 1


@nb.njit(cache=True)
def _icons(obs):
    """The icons on the agent's cards."""
    icons = np.zeros(C.NUM_ICONS, np.int64)
    for x in range(C.NUM_CARDS):
        if _owns(obs, 0, x):
            icons += C.CARD_ICONS[x]
    return icons


@nb.njit(cache=True)
def _num_owned(obs):
    count = 0
    for x in range(C.NUM_CARDS):
        if _owns(obs, 0, x):
            count += 1
    return count


@nb.njit(cache=True)
def _owns_effect(obs, effect):
    for x in range(C.NUM_CARDS):
        if _owns(obs, 0, x) and C.EFFECT[x] == effect:
            return True
    return False


@nb.njit(cache=True)
def _rival_compass(obs):
    """Whether another seat owns a card with a compass icon."""
    for seat in range(1, _num_players(obs)):
        for x in range(C.NUM_CARDS):
            if _owns(obs, seat, x) and C.CARD_ICONS[x, C.COMPASS] > 0:
                return True
    return False


@nb.njit(cache=True)
def _insured(obs):
    return C.INSURANCE_CARD >= 0 and _owns(obs, 0, C.INSURANCE_CARD)


@nb.njit(cache=True)
def _ability_value(obs):
    """An ability card's value, fading as the cards left to buy run out."""
    deck_left = np.int64(0)
    for d in range(_DECK_SIZES, _DECK_SIZES_END):
        deck_left += obs[d]
    for slot in range(C.NUM_SLOTS):
        if _market_card(obs, slot) >= 0:
            deck_left += 1
    return ABILITY_VALUE * min(1.0, deck_left / ABILITY_FADE)


@nb.njit(cache=True)
def _returning(obs):
    """Whether an object is on its way back to the centre."""
    buffer = np.int64(obs[_PAWN_IN_RETURN_BUFFER])
    for f in range(_RETURN_BUFFER, _RETURN_BUFFER_END):
        buffer += obs[f]
    return buffer > 0


# --- cards ---------------------------------------------------------------------------------


@nb.njit(cache=True)
def _card_values(obs):
    """Per market slot: the value of its card (0.0 for an empty slot, never read)."""
    icons = _icons(obs)
    ability_value = _ability_value(obs)
    values = np.zeros(C.NUM_SLOTS)
    for slot in range(C.NUM_SLOTS):
        x = _market_card(obs, slot)
        if x >= 0:
            values[slot] = _card_value(obs, x, icons, ability_value)
    return values


@nb.njit(cache=True)
def _card_value(obs, x, icons, ability_value):
    """Points the card ``x`` is expected to bring the agent."""
    effect = C.EFFECT[x]
    value = float(C.CARD_VP[x]) + HENCHMAN_VALUE * C.CARD_ICONS[x, C.HENCHMAN]
    if effect == C.VP:
        return value
    if effect == C.SAFEHOUSE:
        safehouse = C.PB[x] if icons[C.BUILDING] else C.PA[x]
        return value + safehouse + (SECOND_BUILDING_VALUE if icons[C.BUILDING] == 1 else 0.0)
    if effect == C.VP_PER_WAND_PAIR:
        return value + C.PA[x] * ((icons[C.WAND] + 1) // 2)
    if effect == C.TREASURE_MAP:
        return value + (C.PB[x] if _rival_compass(obs) else C.PA[x])
    if effect == C.VP_PER_OTHER_CARD:
        return value + _num_owned(obs) + FUTURE_CARDS
    if effect == C.VP_PER_INFAMY_PAIR:
        return value + (np.int64(obs[_INFAMY]) + FUTURE_INFAMY) // 2
    if effect == C.INFAMY_EQ_PILE_SIZE:
        return value + obs[_SNAP_SIZE]
    if effect == C.INFAMY_ON_BUY_WITH:
        return value + 1 + ability_value
    if effect == C.GOLD_FOR_INFAMY:
        return value + obs[_GOLD] + ability_value
    if effect == C.EXTRA_BUY_AND_DISCOUNT:
        return value + 2 * ability_value
    if _owns_effect(obs, C.VP_PER_WAND_PAIR):
        value += GOLEM_WAND_VALUE * C.CARD_ICONS[x, C.WAND]
    return value + ability_value


@nb.njit(cache=True)
def _shortfall(obs, cost, dice):
    """The gems of ``cost`` that ``dice`` lack (to pay in gold), less one gem if insured."""
    short = 0
    for c in range(C.NUM_GEMS):
        short += max(0, np.int64(cost[c]) - dice[c])
    if not _insured(obs):
        return short
    least = short
    for c in range(C.NUM_GEMS):
        if cost[c] > 0:
            least = min(least, short - (1 if cost[c] > dice[c] else 0))
    return least


@nb.njit(cache=True)
def _buy_value(obs, cards, slot, dice):
    """A card's value, less a little for the gold its payment takes."""
    return cards[slot] - GOLD_COST * _shortfall(obs, C.CARD_COST[_market_card(obs, slot)], dice)


@nb.njit(cache=True)
def _best_buy(obs, cards, dice):
    """The value of the best card in the market payable with these dice and the gold."""
    if np.int64(obs[_ALLOWED_BUYS]) - obs[_BUYS_MADE] <= 0:
        return 0.0
    best, found = 0.0, False
    for slot in range(C.NUM_SLOTS):
        x = _market_card(obs, slot)
        if x >= 0 and _shortfall(obs, C.CARD_COST[x], dice) <= obs[_GOLD]:
            value = _buy_value(obs, cards, slot, dice)
            if not found or value > best:
                best, found = value, True
    return best


@nb.njit(cache=True)
def _purchase_value(obs, cards, pile, now, action):
    """Buy the best card (converting a die first when that buys a better one); then turn
    leftover dice and gold into infamy or purses. ``now``: the best buy without converting."""
    if A.BUY_0 <= action < A.BUY_0 + C.NUM_SLOTS:
        return BUY_FIRST + _buy_value(obs, cards, action - A.BUY_0, pile)
    if A.CONVERT_GEM_0 <= action < A.TO_PURSE_0:
        dice = pile.copy()
        if action < A.JEWELLER_0:
            src, dst = (
                _CONVERT_FROM[action - A.CONVERT_GEM_0],
                _CONVERT_TO[action - A.CONVERT_GEM_0],
            )
        else:
            src, dst = C.PURSE, action - A.JEWELLER_0
        dice[src] -= 1
        dice[dst] += 1
        gain = _best_buy(obs, cards, dice) - now - (FACE_VALUE[C.PURSE] if src == C.PURSE else 0.0)
        return BUY_FIRST + gain if gain > CONVERT_GAIN else -1.0
    if now > 0:
        return 0.0
    if A.SPEND_FOR_INFAMY_0 <= action < A.SPEND_FOR_INFAMY_0 + C.NUM_GEMS:
        return SPEND_FOR_INFAMY_VALUE
    if A.TO_PURSE_0 <= action < A.SPEND_FOR_INFAMY_0:
        return TO_PURSE_VALUE
    if action == A.EXIT_STRATEGY:
        return EXIT_STRATEGY_VALUE
    return END_TURN_VALUE if action == A.END_TURN else 0.0


@nb.njit(cache=True)
def _waive_value(obs, pile, c):
    """Minus the gems still missing once gem ``c`` is waived."""
    short = 0
    for g in range(C.NUM_GEMS):
        need = np.int64(obs[_NEED + g]) - (1 if g == c else 0)
        short += max(0, need - pile[g])
    return -float(short)


# --- dividing the loot ---------------------------------------------------------------------


@nb.njit(cache=True)
def _face_values(obs, pile, cards):
    """Per face: what one more die of it is worth (gems by the cards they would buy); the
    best market cards taken in order of value, market order among equals (a stable sort)."""
    values = FACE_VALUE.copy()
    ranked = np.zeros(C.NUM_SLOTS, np.bool_)
    for rank in range(TARGET_CARDS):
        best = -1
        for slot in range(C.NUM_SLOTS):
            unranked = _market_card(obs, slot) >= 0 and not ranked[slot]
            if unranked and (best < 0 or cards[slot] > cards[best]):
                best = slot
        if best < 0:
            break
        ranked[best] = True
        cost = C.CARD_COST[_market_card(obs, best)]
        for c in range(C.NUM_GEMS):
            if cost[c] > pile[c]:
                values[c] += TARGET_GEM_VALUE / (rank + 1)
    return values


@nb.njit(cache=True)
def _pile_value(obs, start, pawn, values):
    """The value of the six dice counts at ``obs[start:]`` and, with ``pawn``, the pawn."""
    total = 0.0
    for f in range(C.NUM_FACES):
        total += obs[start + f] * values[f]
    return total + (PAWN_VALUE if pawn else 0.0)


@nb.njit(cache=True)
def _divide_value(obs, values, action):
    if A.TAKE_DIE_0 <= action < A.TAKE_PAWN:
        return values[action - A.TAKE_DIE_0] if obs[_PILE_SIZE] < MAX_TAKE else -1.0
    if action == A.TAKE_PAWN:
        return PAWN_VALUE if obs[_PILE_SIZE] < MAX_TAKE else -1.0
    if action == A.FINISH_TAKE:
        return FINISH_TAKE_VALUE
    if action == A.TAKE_ALL:
        return _pile_value(obs, _CENTRE, obs[_PAWN_IN_CENTRE] != 0, values)
    victim = action - A.STEAL_1 + 1
    start = _PILE + victim * C.NUM_FACES
    pawn = obs[_HAS_PAWN + victim] != 0
    kept = PAWN_VALUE if pawn else np.inf  # the object least worth keeping goes back
    for f in range(C.NUM_FACES):
        if obs[start + f]:
            kept = min(kept, values[f])
    return _pile_value(obs, start, pawn, values) - kept - STEAL_COST


@nb.njit(cache=True)
def _return_value(obs, values, action):
    """Return the least useful object, and only one."""
    if action == A.FINISH_RETURN:
        return FINISH_RETURN_VALUE if _returning(obs) else 0.0
    if action == A.RETURN_PAWN:
        return 1 - PAWN_VALUE
    return 1 - values[action - A.RETURN_DIE_0]
