"""Thief's Market rollouts for ISMCTS: a greedy loot-and-buy policy and a score projection.

Games are long (about 430 decisions at four players), so a search at 1,000 simulations per
decision cannot play every simulation to the end. It plays a few moves with the policy below
and then scores the position with :func:`evaluate` (``rollout_depth`` in
:data:`SEARCH_DEFAULTS`).

**Values.** Every seat gets a *projected score* in final points:

- its score if the game ended now (the kernel's ``score_table``: card VP, infamy, majority
  awards);
- the dice in its pile that will pay off: a mask is an infamy at the end of the round, a purse
  a gold; and, while the seat still has a purchase to make this round, the best card its gem
  dice and gold can buy now (a seat still without a pile in Divide expects its share of the
  centre instead);
- a gold is worth a little more than its part in the gold award (it pays a gem later);
- an ability card keeps paying: ``ABILITY_PER_ROUND`` (by effect) times the rounds likely
  left.

A card's worth to a seat (:func:`card_value`) is its printed VP, a point per henchman icon,
its scoring effect as it would count now (safehouses, wands, maps, loyalty, campaign), the
infamy it brings at once, and its ability for the rounds left. Projected scores become win
chances by a softmax whose temperature shrinks as the game nears its end, and a seat's
expected return is ``2 p - 1``, on the scale of the game's +-1 returns.

**Rollout policy** (epsilon-greedy on the full state, the heuristic agent's ideas): in Divide
it values each face by what it pays (mask an infamy, purse a gold, gems more when the
seat's best market cards need them), takes up to ``MAX_TAKE`` objects, steals a pile when
that beats taking, and returns the least useful object. In a purchase turn it buys the card
of highest value less the gold it costs, pays with dice first, waives the gem that saves
most gold, and spends leftover dice and gold on infamy. With probability ``EPSILON`` it plays
a random legal move, so that rollouts stay diverse.
"""

import numba as nb
import numpy as np

from heist_envs.core.playout import random_legal_action
from heist_envs.thiefs_market.actions import (
    BUY_0,
    END_TURN,
    EXIT_STRATEGY,
    FINISH_RETURN,
    FINISH_TAKE,
    GAUNTLET,
    LAA_SKIP,
    NUM_ACTIONS,
    PAY_DIE,
    PAY_GOLD,
    RETURN_DIE_0,
    RETURN_PAWN,
    SPEND_FOR_INFAMY_0,
    STEAL_1,
    TAKE_ALL,
    TAKE_DIE_0,
    TAKE_PAWN,
    TO_PURSE_0,
    WAIVE_0,
)
from heist_envs.thiefs_market.components import (
    BUILDING,
    CARD_COST,
    CARD_ICONS,
    CARD_VP,
    COMPASS,
    EFFECT,
    EFFECT_NAMES,
    GAIN_TOP_CARD,
    GOLD_FOR_INFAMY,
    HENCHMAN,
    INFAMY_EQ_PILE_SIZE,
    INSURANCE_CARD,
    MASK,
    NUM_CARDS,
    NUM_DECKS,
    NUM_EFFECTS,
    NUM_FACES,
    NUM_GEMS,
    NUM_ICONS,
    NUM_PLAYERS_MAX,
    NUM_SLOTS,
    PA,
    PB,
    PURSE,
    SAFEHOUSE,
    TREASURE_MAP,
    TURN_IN_GOLD_CARDS,
    TURN_IN_INFAMY_CARDS,
    VP_PER_INFAMY_PAIR,
    VP_PER_OTHER_CARD,
    VP_PER_WAND_PAIR,
    WAND,
)
from heist_envs.thiefs_market.rules import (
    NUM_SCORE_COLUMNS,
    TOTAL,
    allowed_buys,
    pile_size,
    score_table,
)
from heist_envs.thiefs_market.state import (
    D_CHOOSE,
    D_RETURNING,
    D_TAKING,
    IN_CENTRE,
    P_LAA,
    P_MAIN,
    P_PAY,
    P_WAIVE,
)

# Search settings that suit these rollouts (agents.ismcts reads them).
SEARCH_DEFAULTS = {"uct_c": 0.35, "rollout_depth": 10}

# --- values, in final points ---------------------------------------------------------------

# Points per round an owned ability brings, by effect code (0: none, or scored at the end).
_ABILITY = {
    "CONVERT_DIE": 0.25,
    "SPEND_DIE_FOR_INFAMY": 0.4,
    "SPEND_DIE_FOR_GOLD": 0.3,
    "GOLD_FOR_INFAMY": 0.4,
    "EXTRA_BUY_IF_PILE_HAS": 0.5,
    "EXTRA_BUY_AND_DISCOUNT": 0.9,
    "INFAMY_ON_BUY_WITH": 0.4,
    "INFAMY_IF_PAWN": 0.3,
    "INFAMY_WHEN_STOLEN": 0.15,
    "LUCKY_APPENDAGE": 0.1,
    "BONUS_GOLD_ON_TURN_IN": 0.3,
    "BONUS_INFAMY_ON_TURN_IN": 0.4,
}

ABILITY_PER_ROUND = np.array([_ABILITY.get(name, 0.0) for name in EFFECT_NAMES])
assert len(ABILITY_PER_ROUND) == NUM_EFFECTS

HENCHMAN_POINTS = 1.0  # an icon toward the henchman majority (3 and 1 VP)
POTION_POINTS = 3.0  # the card the Unlabeled Potion gains
FUTURE_CARDS = 2  # cards still to come, for Loyalty Program
FUTURE_INFAMY = 4  # infamy still to come, for Political Campaign
GOLD_POINTS = 0.5  # a gold's buying power, on top of the gold award
GOLD_SPEND = 0.4  # what a gold spent on a card costs the buyer
GEM_POINTS = 0.3  # a gem die of a seat that buys nothing with it still has some use
PAWN_POINTS = 0.5  # buying first, and the next round's first take
FACE_POINTS = np.array([0.5, 0.5, 0.5, 0.5, 0.9, 1.0])  # a die in Divide (G W B R P M)
NEED_BONUS = 0.6  # a gem needed by the best market card (halved for the second, ...)
NEED_RANKS = 3  # market cards whose missing gems raise a face's value
CARDS_PER_ROUND = np.array([1.0, 1.0, 1.0, 3.5, 4.5, 5.5])  # by player count
MAX_ROUNDS_LEFT = 10.0

# Win chances: softmax of projected scores at temperature TEMP_END + TEMP_ROUND * rounds left.
TEMP_END = 1.5
TEMP_ROUND = 1.0

# --- the rollout policy ------------------------------------------------------------------------

EPSILON = 0.1  # chance of a random legal move
MAX_TAKE = 4  # objects taken before a pile becomes a tempting target
FINISH_TAKE_VALUE = 0.45  # stop taking when no object is worth more
STEAL_PENALTY = 0.5  # the object a thief must give back, and the bad blood


@nb.njit(cache=True)
def rounds_left(s):
    """Rounds the game likely still has (cards left to buy over cards bought a round)."""
    cards = 0
    for d in range(NUM_DECKS):
        cards += s.deck_size[d]
    for slot in range(NUM_SLOTS):
        cards += s.market[slot] >= 0
    return min(MAX_ROUNDS_LEFT, cards / CARDS_PER_ROUND[s.num_players])


@nb.njit(cache=True)
def seat_icons(s, q, icons):
    """Icons q owns (into ``icons``); returns the number of cards q owns."""
    icons[:] = 0
    cards = 0
    for x in range(NUM_CARDS):
        if s.owner[x] == q:
            cards += 1
            for i in range(NUM_ICONS):
                icons[i] += CARD_ICONS[x, i]
    return cards


@nb.njit(cache=True)
def rival_compass(s, q):
    for x in range(NUM_CARDS):
        if s.owner[x] >= 0 and s.owner[x] != q and CARD_ICONS[x, COMPASS] > 0:
            return True
    return False


@nb.njit(cache=True)
def card_value(s, q, x, icons, cards, rounds):
    """Points card ``x`` would bring seat ``q`` (who owns ``icons`` and ``cards`` cards)."""
    effect = EFFECT[x]
    value = CARD_VP[x] + HENCHMAN_POINTS * CARD_ICONS[x, HENCHMAN]
    value += ABILITY_PER_ROUND[effect] * rounds
    if effect == SAFEHOUSE:
        value += PB[x] if icons[BUILDING] >= 1 else PA[x]
        if icons[BUILDING] == 1:
            value += 2.0  # the safehouse already owned goes up too
    elif effect == VP_PER_WAND_PAIR:
        value += PA[x] * ((icons[WAND] + 1) // 2)
    elif effect == TREASURE_MAP:
        value += PB[x] if rival_compass(s, q) else PA[x]
    elif effect == VP_PER_OTHER_CARD:
        value += PA[x] * (cards + FUTURE_CARDS)
    elif effect == VP_PER_INFAMY_PAIR:
        value += PA[x] * ((s.infamy[q] + FUTURE_INFAMY) // 2)
    elif effect == INFAMY_EQ_PILE_SIZE:
        value += s.snap_size[q] if s.stage >= P_LAA else pile_size(s, q)
    elif effect == GOLD_FOR_INFAMY:
        value += s.gold[q]
    elif effect == GAIN_TOP_CARD:
        value += POTION_POINTS
    if EFFECT[x] != VP_PER_WAND_PAIR and CARD_ICONS[x, WAND] > 0:
        for y in range(NUM_CARDS):  # a wand raises the Collecting Golem owned
            if EFFECT[y] == VP_PER_WAND_PAIR and s.owner[y] == q and icons[WAND] % 2 == 1:
                value += PA[y]
    return value


@nb.njit(cache=True)
def gold_needed(s, q, x, dice):
    """Gold q must add to ``dice`` (gem counts) to pay for x, Insurance waiver included."""
    short = 0
    for c in range(NUM_GEMS):
        if CARD_COST[x, c] > dice[c]:
            short += CARD_COST[x, c] - dice[c]
    if INSURANCE_CARD >= 0 and s.owner[INSURANCE_CARD] == q and x != INSURANCE_CARD and short:
        short -= 1
    return short


@nb.njit(cache=True)
def best_buy(s, q, dice, icons, cards, rounds):
    """The best value less gold spent among the market cards q can pay for (0 if none)."""
    best = 0.0
    for slot in range(NUM_SLOTS):
        x = s.market[slot]
        if x >= 0:
            short = gold_needed(s, q, x, dice)
            if short <= s.gold[q]:
                value = card_value(s, q, x, icons, cards, rounds) - GOLD_SPEND * short
                best = max(best, value)
    return best


@nb.njit(cache=True)
def will_buy(s, q):
    """Whether q still has a purchase turn (or purchases left in it) this round."""
    if s.stage < P_LAA:
        return True
    if s.stage == P_LAA:
        return True
    done = s.turns_done
    n = s.num_players
    for i in range(done):
        if (s.first_player + i) % n == q:
            return False
    if q == s.actor:
        return s.buys_made < allowed_buys(s, q)
    return True


@nb.njit(cache=True)
def projected_score(s, q, base, rounds, icons):
    """q's score now (``base``) plus what its pile, gold and abilities are worth."""
    cards = seat_icons(s, q, icons)
    value = base + GOLD_POINTS * s.gold[q]
    for x in range(NUM_CARDS):
        if s.owner[x] == q:
            value += ABILITY_PER_ROUND[EFFECT[x]] * rounds
    pile = s.pile[q]
    purses = pile[PURSE]
    masks = pile[MASK]
    value += (1.0 + GOLD_POINTS) * purses + masks
    for y in TURN_IN_GOLD_CARDS:
        if s.owner[y] == q and purses > 0:
            value += 1.0
    for y in TURN_IN_INFAMY_CARDS:
        if s.owner[y] == q and masks > 0:
            value += 1.0
    if s.pending_card >= 0 and q == s.actor:
        value += card_value(s, q, s.pending_card, icons, cards, rounds)
    elif will_buy(s, q):
        if s.stage < P_LAA and pile_size(s, q) == 0:
            value += centre_share(s)
        else:
            value += best_buy(s, q, pile, icons, cards, rounds)
            if s.pawn_loc == q and s.stage < P_LAA:
                value += PAWN_POINTS
    return value


@nb.njit(cache=True)
def centre_share(s):
    """What a seat still without a pile in Divide expects: its share of the centre."""
    without = 0
    for q in range(s.num_players):
        without += pile_size(s, q) == 0
    total = PAWN_POINTS * (s.pawn_loc == IN_CENTRE)
    for f in range(NUM_FACES):
        total += FACE_POINTS[f] * s.centre[f]
    return total / max(1, without) + GEM_POINTS


@nb.njit(cache=True)
def evaluate(s, out):
    """Each seat's expected return (+1 win, -1 loss) from its projected score."""
    n = s.num_players
    table = np.zeros((NUM_PLAYERS_MAX, NUM_SCORE_COLUMNS), np.int64)
    score_table(s, table)
    rounds = rounds_left(s)
    icons = np.zeros(NUM_ICONS, np.int64)
    temp = TEMP_END + TEMP_ROUND * rounds
    scores = np.zeros(n)
    for q in range(n):
        scores[q] = projected_score(s, q, table[q, TOTAL], rounds, icons) / temp
    top = scores.max()
    total = 0.0
    for q in range(n):
        scores[q] = np.exp(scores[q] - top)
        total += scores[q]
    out[:] = 0.0
    for q in range(n):
        out[q] = 2.0 * scores[q] / total - 1.0


# --- the rollout policy ------------------------------------------------------------------------


@nb.njit(cache=True)
def face_values(s, q, values, icons, cards, rounds):
    """What one more die of each face is worth to q in Divide."""
    for f in range(NUM_FACES):
        values[f] = FACE_POINTS[f]
    best = np.full(NEED_RANKS, -1.0)
    which = np.full(NEED_RANKS, -1, np.int64)
    for slot in range(NUM_SLOTS):
        x = s.market[slot]
        if x < 0:
            continue
        v = card_value(s, q, x, icons, cards, rounds)
        for r in range(NEED_RANKS):
            if v > best[r]:
                for k in range(NEED_RANKS - 1, r, -1):
                    best[k] = best[k - 1]
                    which[k] = which[k - 1]
                best[r] = v
                which[r] = x
                break
    for r in range(NEED_RANKS):
        x = which[r]
        if x >= 0:
            for c in range(NUM_GEMS):
                if CARD_COST[x, c] > s.pile[q, c]:
                    values[c] += NEED_BONUS / (r + 1)


@nb.njit(cache=True)
def divide_action(s, mask, values):
    """Take the most useful object, take all, or steal the best pile; finish after a few."""
    p = s.actor
    size = pile_size(s, p)
    best = -1
    best_value = -np.inf
    for a in range(TAKE_DIE_0, STEAL_1 + NUM_PLAYERS_MAX - 1):
        if not mask[a]:
            continue
        if a < TAKE_PAWN:
            v = values[a - TAKE_DIE_0] if size < MAX_TAKE else -1.0
        elif a == TAKE_PAWN:
            v = PAWN_POINTS if size < MAX_TAKE else -1.0
        elif a == TAKE_ALL:
            v = PAWN_POINTS * (s.pawn_loc == IN_CENTRE)
            for f in range(NUM_FACES):
                v += values[f] * s.centre[f]
        elif a == FINISH_TAKE:
            v = FINISH_TAKE_VALUE
        else:
            victim = (p + a - STEAL_1 + 1) % s.num_players
            pawn = s.pawn_loc == victim
            v = PAWN_POINTS * pawn - STEAL_PENALTY
            least = PAWN_POINTS if pawn else np.inf
            for f in range(NUM_FACES):
                if s.pile[victim, f] > 0:
                    v += values[f] * s.pile[victim, f]
                    least = min(least, values[f])
            v -= least
        if v > best_value:
            best_value = v
            best = a
    return best


@nb.njit(cache=True)
def return_action(s, mask, values):
    """Return the least useful object, then finish."""
    if mask[FINISH_RETURN]:
        return FINISH_RETURN
    best = -1
    least = np.inf
    for a in range(RETURN_DIE_0, RETURN_PAWN + 1):
        if mask[a]:
            v = PAWN_POINTS if a == RETURN_PAWN else values[a - RETURN_DIE_0]
            if v < least:
                least = v
                best = a
    return best


@nb.njit(cache=True)
def purchase_action(s, mask, icons, cards, rounds):
    """Buy the best card; then spend leftover dice and gold on infamy; then end the turn."""
    p = s.actor
    best = -1
    best_value = 0.0
    for slot in range(NUM_SLOTS):
        if mask[BUY_0 + slot]:
            x = s.market[slot]
            v = card_value(s, p, x, icons, cards, rounds)
            v -= GOLD_SPEND * gold_needed(s, p, x, s.pile[p])
            if v > best_value:
                best_value = v
                best = BUY_0 + slot
    if best >= 0:
        return best
    for c in range(NUM_GEMS):
        if mask[SPEND_FOR_INFAMY_0 + c]:
            return SPEND_FOR_INFAMY_0 + c
    if mask[GAUNTLET]:
        return GAUNTLET
    if mask[EXIT_STRATEGY] and rounds < 1.0:
        return EXIT_STRATEGY
    for c in range(NUM_GEMS):
        if mask[TO_PURSE_0 + c]:
            return TO_PURSE_0 + c
    return END_TURN


@nb.njit(cache=True)
def waive_action(s, mask):
    """Waive the gem that leaves the least to pay in gold."""
    p = s.actor
    best = -1
    least = np.inf
    for c in range(NUM_GEMS):
        if mask[WAIVE_0 + c]:
            short = 0
            for d in range(NUM_GEMS):
                missing = s.need[d] - (d == c) - s.pile[p, d]
                short += max(0, missing)
            if short < least:
                least = short
                best = WAIVE_0 + c
    return best


@nb.njit(cache=True)
def rollout_action(s, mask):
    """The policy's move for ``s.actor``: a random legal one with probability EPSILON."""
    if np.random.random() < EPSILON:
        return random_legal_action(mask, NUM_ACTIONS)
    stage = s.stage
    if stage == P_PAY:
        return PAY_DIE if mask[PAY_DIE] else PAY_GOLD
    if stage == P_WAIVE:
        return waive_action(s, mask)
    if stage == P_LAA:
        return LAA_SKIP
    p = s.actor
    icons = np.zeros(NUM_ICONS, np.int64)
    cards = seat_icons(s, p, icons)
    rounds = rounds_left(s)
    if stage == P_MAIN:
        return purchase_action(s, mask, icons, cards, rounds)
    values = np.zeros(NUM_FACES)
    face_values(s, p, values, icons, cards, rounds)
    if stage == D_RETURNING:
        return return_action(s, mask, values)
    return divide_action(s, mask, values)


assert D_CHOOSE < D_TAKING < D_RETURNING < P_LAA < P_MAIN
