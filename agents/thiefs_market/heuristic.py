"""A rule-based Thief's Market player."""

from functools import cached_property

import numpy as np

import heist_envs
from heist_envs.thiefs_market.actions import (
    BUY_0,
    CONVERT_GEM_0,
    END_TURN,
    EXIT_STRATEGY,
    FINISH_RETURN,
    FINISH_TAKE,
    JEWELLER_0,
    LAA_SKIP,
    PAY_DIE,
    RETURN_DIE_0,
    RETURN_PAWN,
    SPEND_FOR_INFAMY_0,
    STEAL_1,
    TAKE_ALL,
    TAKE_DIE_0,
    TAKE_PAWN,
    TO_PURSE_0,
    WAIVE_0,
    convert_gem_faces,
)
from heist_envs.thiefs_market.components import (
    BUILDING,
    CARD_COST,
    CARD_ICONS,
    CARD_VP,
    COMPASS,
    EFFECT,
    EXTRA_BUY_AND_DISCOUNT,
    GOLD_FOR_INFAMY,
    HENCHMAN,
    INFAMY_EQ_PILE_SIZE,
    INFAMY_ON_BUY_WITH,
    INSURANCE_CARD,
    NUM_CARDS,
    NUM_FACES,
    NUM_GEMS,
    NUM_PLAYERS_MAX,
    NUM_PLAYERS_MIN,
    NUM_SLOTS,
    PA,
    PB,
    PURSE,
    SAFEHOUSE,
    TREASURE_MAP,
    VP,
    VP_PER_INFAMY_PAIR,
    VP_PER_OTHER_CARD,
    VP_PER_WAND_PAIR,
    WAND,
)
from heist_envs.thiefs_market.state import (
    D_CHOOSE,
    D_RETURNING,
    D_TAKING,
    P_MAIN,
    P_PAY,
    P_WAIVE,
)

LAYOUT = heist_envs.get_game("thiefs_market").layout
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


class HeuristicAgent:
    """Buys the card worth most points, and loots the dice that pay for it.

    Cards are valued in final points: printed VP, henchman icons (toward the majority),
    safehouse, wand, compass and loyalty bonuses as they would score now, infamy gained at
    once, and a fading value for ability cards. In a purchase turn it converts a die when
    that makes a better card affordable, buys the best card it can, pays with dice before
    gold, and turns leftover dice and gold into infamy or purses. Dividing the loot, it
    values masks and purses (infamy and gold) and the gems its best market cards need; it
    steals a pile when that beats taking, returns the least useful object, and stops taking
    after a few objects.
    """

    def __init__(self, seed=None):
        self.rng = np.random.default_rng(seed)

    def act(self, observation, action_mask) -> int:
        obs = np.asarray(observation)
        legal = np.flatnonzero(action_mask)
        view = _View(obs)
        stage = int(np.argmax(obs[LAYOUT["stage"]]))
        if stage in (D_CHOOSE, D_TAKING):
            scores = [view.divide_value(a) for a in legal]
        elif stage == D_RETURNING:
            scores = [view.return_value(a) for a in legal]
        elif stage == P_MAIN:
            scores = [view.purchase_value(a) for a in legal]
        elif stage == P_WAIVE:
            scores = [view.waive_value(a - WAIVE_0) for a in legal]
        elif stage == P_PAY:
            scores = [float(a == PAY_DIE) for a in legal]
        else:
            scores = [float(a == LAA_SKIP) for a in legal]
        scores = np.asarray(scores, dtype=float) + 1e-6 * self.rng.random(len(legal))
        return int(legal[np.argmax(scores)])


class _View:
    """The observation decoded (relative seat 0 = the agent) and the valuations."""

    def __init__(self, obs):
        self.n = NUM_PLAYERS_MIN + int(np.argmax(obs[LAYOUT["num_players"]]))
        n = self.n
        self.gold = int(obs[LAYOUT["gold"]][0])
        self.infamy = int(obs[LAYOUT["infamy"]][0])
        piles = obs[LAYOUT["pile"]].reshape(NUM_PLAYERS_MAX, NUM_FACES)[:n]
        self.piles = piles.astype(int)
        self.pile = self.piles[0]
        buffer = obs[LAYOUT["return_buffer"]].sum() + obs[LAYOUT["pawn_in_return_buffer"]].sum()
        self.returning = int(buffer) > 0  # an object is on its way back to the centre
        self.pile_sizes = obs[LAYOUT["pile_size"]][:n]
        self.pawn_holder = np.flatnonzero(obs[LAYOUT["has_pawn"]][:n])
        owned = obs[LAYOUT["owned"]].reshape(NUM_PLAYERS_MAX, NUM_CARDS)[:n] > 0
        self.mine = np.flatnonzero(owned[0])
        self.icons = CARD_ICONS[self.mine].sum(axis=0)
        self.rival_compass = bool(CARD_ICONS[owned[1:].any(axis=0), COMPASS].sum())
        self.snap_size = int(obs[LAYOUT["snap_size"]][0])
        self.buys_left = int(obs[LAYOUT["allowed_buys"]][0] - obs[LAYOUT["buys_made"]][0])
        self.centre = obs[LAYOUT["centre"]].astype(int)
        self.pawn_in_centre = bool(obs[LAYOUT["pawn_in_centre"]][0])
        self.market = obs[LAYOUT["market_card"]].astype(int) - 1
        self.need = obs[LAYOUT["need"]].astype(int)
        deck_left = obs[LAYOUT["deck_sizes"]].sum() + (self.market >= 0).sum()
        self.ability_value = ABILITY_VALUE * min(1.0, deck_left / ABILITY_FADE)
        self.insured = INSURANCE_CARD in self.mine
        self.card_values = {x: self.card_value(x) for x in self.market if x >= 0}

    # --- cards -----------------------------------------------------------------------------

    def card_value(self, x):
        """Points the card ``x`` is expected to bring the agent."""
        icons = self.icons
        effect = EFFECT[x]
        value = float(CARD_VP[x]) + HENCHMAN_VALUE * CARD_ICONS[x, HENCHMAN]
        if effect == VP:
            return value
        if effect == SAFEHOUSE:
            return (
                value
                + (PB[x] if icons[BUILDING] else PA[x])
                + SECOND_BUILDING_VALUE * (icons[BUILDING] == 1)
            )
        if effect == VP_PER_WAND_PAIR:
            return value + PA[x] * ((icons[WAND] + 1) // 2)
        if effect == TREASURE_MAP:
            return value + (PB[x] if self.rival_compass else PA[x])
        if effect == VP_PER_OTHER_CARD:
            return value + len(self.mine) + FUTURE_CARDS
        if effect == VP_PER_INFAMY_PAIR:
            return value + (self.infamy + FUTURE_INFAMY) // 2
        if effect == INFAMY_EQ_PILE_SIZE:
            return value + self.snap_size
        if effect == INFAMY_ON_BUY_WITH:
            return value + 1 + self.ability_value
        if effect == GOLD_FOR_INFAMY:
            return value + self.gold + self.ability_value
        if effect == EXTRA_BUY_AND_DISCOUNT:
            return value + 2 * self.ability_value
        if (EFFECT[self.mine] == VP_PER_WAND_PAIR).any():
            value += GOLEM_WAND_VALUE * CARD_ICONS[x, WAND]
        return value + self.ability_value

    def shortfall(self, cost, dice):
        short = np.maximum(0, cost - dice[:NUM_GEMS])
        if self.insured:
            return min(short.sum() - (short[c] > 0) for c in range(NUM_GEMS) if cost[c] > 0)
        return short.sum()

    def buy_value(self, x, dice):
        """A card's value, less a little for the gold its payment takes."""
        return self.card_values[x] - GOLD_COST * self.shortfall(CARD_COST[x], dice)

    def best_buy(self, dice):
        """The value of the best card in the market payable with these dice and the gold."""
        if self.buys_left <= 0:
            return 0.0
        affordable = [
            self.buy_value(x, dice)
            for x in self.market
            if x >= 0 and self.shortfall(CARD_COST[x], dice) <= self.gold
        ]
        return max(affordable, default=0.0)

    def purchase_value(self, action):
        """Buy the best card (converting a die first when that buys a better one); then
        turn leftover dice and gold into infamy or purses."""
        if BUY_0 <= action < BUY_0 + NUM_SLOTS:
            return BUY_FIRST + self.buy_value(self.market[action - BUY_0], self.pile)
        now = self.best_buy(self.pile)
        if CONVERT_GEM_0 <= action < TO_PURSE_0:
            dice = self.pile.copy()
            if action < JEWELLER_0:
                src, dst = convert_gem_faces(action)
            else:
                src, dst = PURSE, action - JEWELLER_0
            dice[src] -= 1
            dice[dst] += 1
            gain = self.best_buy(dice) - now - (FACE_VALUE[PURSE] if src == PURSE else 0.0)
            return BUY_FIRST + gain if gain > CONVERT_GAIN else -1.0
        if now > 0:
            return 0.0  # buy first; spend what is left afterwards
        if SPEND_FOR_INFAMY_0 <= action < SPEND_FOR_INFAMY_0 + NUM_GEMS:
            return SPEND_FOR_INFAMY_VALUE
        if TO_PURSE_0 <= action < SPEND_FOR_INFAMY_0:
            return TO_PURSE_VALUE
        if action == EXIT_STRATEGY:
            return EXIT_STRATEGY_VALUE
        return END_TURN_VALUE if action == END_TURN else 0.0

    def waive_value(self, c):
        need = self.need.copy()
        need[c] -= 1
        return -float(np.maximum(0, need - self.pile[:NUM_GEMS]).sum())

    # --- dividing the loot -----------------------------------------------------------------

    @cached_property
    def face_values(self):
        """Per face: what one more die of it is worth (gems by the cards they would buy)."""
        values = FACE_VALUE.copy()
        cards = sorted(self.card_values, key=lambda x: -self.card_values[x])
        for rank, x in enumerate(cards[:TARGET_CARDS]):
            missing = CARD_COST[x] > self.pile[:NUM_GEMS]
            values[:NUM_GEMS] += (TARGET_GEM_VALUE / (rank + 1)) * missing
        return values

    def pile_value(self, dice, pawn):
        return float(dice @ self.face_values) + PAWN_VALUE * pawn

    def divide_value(self, action):
        if TAKE_DIE_0 <= action < TAKE_PAWN:
            face = action - TAKE_DIE_0
            return self.face_values[face] if self.pile_sizes[0] < MAX_TAKE else -1.0
        if action == TAKE_PAWN:
            return PAWN_VALUE if self.pile_sizes[0] < MAX_TAKE else -1.0
        if action == FINISH_TAKE:
            return FINISH_TAKE_VALUE
        if action == TAKE_ALL:
            return self.pile_value(self.centre, self.pawn_in_centre)
        victim = action - STEAL_1 + 1
        dice = self.piles[victim]
        pawn = victim in self.pawn_holder
        kept = [self.face_values[f] for f in range(NUM_FACES) if dice[f]] + [PAWN_VALUE] * pawn
        return self.pile_value(dice, pawn) - min(kept) - STEAL_COST

    def return_value(self, action):
        """Return the least useful object, and only one."""
        if action == FINISH_RETURN:
            return FINISH_RETURN_VALUE if self.returning else 0.0
        if action == RETURN_PAWN:
            return 1 - PAWN_VALUE
        return 1 - self.face_values[action - RETURN_DIE_0]
