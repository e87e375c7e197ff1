"""A rule-based Art Robbery player."""

import numpy as np

import heist_envs
from heist_envs.art_robbery.actions import GIVE_DOG, GIVE_TOKEN, TAKE_SLOT_0
from heist_envs.art_robbery.components import (
    BOSS_CARD,
    BOSS_SLOT,
    GREEDY_THIEF_CARD,
    GUARD_DOG_CARD,
    NUM_RAIDS,
    TOKEN_ALIBIS,
    TOKEN_VALUES,
    TOKENS_PER_RAID,
)
from heist_envs.art_robbery.observation import TOKEN_PLACES
from heist_envs.art_robbery.state import DOG, PLAY, TOKEN

LAYOUT = heist_envs.get_game("art_robbery").layout
CENTRE_PLACE, SEAT_PLACE = 0, 2  # token places: centre, box, then relative seats
NUMBER_SLOTS = [np.flatnonzero(TOKEN_VALUES[:BOSS_SLOT] == v) for v in range(BOSS_CARD)]
HIGH_SLOTS = np.flatnonzero(TOKEN_VALUES[:BOSS_SLOT] >= 4)  # the Number tokens that keep the Boss
# How much holding on to a card is worth, when playing it now would gain nothing.
KEEP_VALUE = np.array([0.0, 0.1, 0.2, 0.3, 0.5, 0.6, 0.8, 0.3, 1.2])
# An alibi dot's weight by the lead in alibis over the opponent with the fewest (0: no lead).
ALIBI_WEIGHT = (4.0, 2.0, 0.7, 0.3)


class HeuristicAgent:
    """Takes the loot that is worth most to it, minding the alibi count.

    Every card in hand is valued by the token it would take (or steal) now: the token's
    points, its alibi dots weighted by how close the agent is to having the fewest alibis
    (which loses everything at the end), a bonus for keeping the Boss token (a 4 or 5 of the
    raid alongside it) and, for a steal, the loss to the victim. A card that would take
    nothing is discarded, the least useful first (Greedy Thief and Boss cards are kept).
    The same values pick the token to take, and decide whether a stolen token is worth
    giving the Guard Dog away.
    """

    def __init__(self, seed=None):
        self.rng = np.random.default_rng(seed)

    def act(self, observation, action_mask) -> int:
        obs = np.asarray(observation)
        legal = np.flatnonzero(action_mask)
        phase = int(np.argmax(obs[LAYOUT["phase"]]))
        view = _View(obs)
        if phase == PLAY:
            scores = [view.card_value(t) - KEEP_VALUE[t] for t in legal]
        elif phase == TOKEN:
            scores = [view.take_value(a - TAKE_SLOT_0) for a in legal]
        elif phase == DOG:
            slot = int(np.argmax(obs[LAYOUT["pending_token"]]))
            give_dog = view.token_value(slot) >= view.dog_value() + 1.0
            scores = [float(a == (GIVE_DOG if give_dog else GIVE_TOKEN)) for a in legal]
        else:
            scores = [0.0] * len(legal)
        scores = np.asarray(scores, dtype=float) + 1e-6 * self.rng.random(len(legal))
        return int(legal[np.argmax(scores)])


class _View:
    """The observation decoded into what the valuation needs."""

    def __init__(self, obs):
        self.n = 2 + int(np.argmax(obs[LAYOUT["num_players"]]))
        self.raid = min(int(np.argmax(obs[LAYOUT["raid"]])), NUM_RAIDS - 1)
        places = obs[LAYOUT["tokens"]].reshape(NUM_RAIDS, TOKENS_PER_RAID, TOKEN_PLACES)
        # holder[slot]: -1 centre, -2 box or not out yet, else the relative seat.
        here = places[self.raid]
        self.holder = np.where(
            here[:, CENTRE_PLACE] == 1,
            -1,
            np.where(here[:, SEAT_PLACE:].any(axis=1), here[:, SEAT_PLACE:].argmax(axis=1), -2),
        )
        self.dog = int(np.argmax(obs[LAYOUT["dog"]])) - 1  # -1 centre, else relative seat
        self.values = obs[LAYOUT["loot_value"]][: self.n].astype(float)
        alibis = obs[LAYOUT["alibis"]][: self.n].astype(int)
        margin = alibis[0] - alibis[1:].min()
        # An alibi dot matters most while the agent risks having the fewest at the end.
        self.alibi_weight = ALIBI_WEIGHT[min(max(margin, 0), len(ALIBI_WEIGHT) - 1)]

    def holds_high(self, seat):
        return any(self.holder[i] == seat for i in HIGH_SLOTS)

    def token_value(self, slot):
        """What the token is worth to the agent once it holds it."""
        value = TOKEN_VALUES[slot] + self.alibi_weight * TOKEN_ALIBIS[self.raid, slot]
        if slot == BOSS_SLOT:
            value = 5.0 if self.holds_high(0) else 2.0
        elif slot in HIGH_SLOTS and self.holder[BOSS_SLOT] == 0 and not self.holds_high(0):
            value += 3.0  # it secures the Boss token already held
        return float(value)

    def loss_to(self, seat, slot):
        """What losing the token costs its holder (a steal hurts a rival)."""
        loss = float(TOKEN_VALUES[slot])
        if slot in HIGH_SLOTS and self.holder[BOSS_SLOT] == seat:
            loss += 2.0
        if self.values[seat] >= self.values.max():
            loss *= 1.5  # the leader is the rival to beat
        return loss

    def take_value(self, slot):
        seat = int(self.holder[slot])
        if seat == -1:
            return self.token_value(slot)
        gain = self.token_value(slot) + 0.5 * self.loss_to(seat, slot)
        if self.dog == seat:
            gain *= 0.5  # the holder may give the Guard Dog instead
        return gain

    def dog_value(self):
        held = [self.token_value(i) for i in range(TOKENS_PER_RAID) if self.holder[i] == 0]
        return 0.3 + 0.15 * sum(held)

    def card_value(self, card):
        if card == GUARD_DOG_CARD:
            return 0.0 if self.dog == 0 else self.dog_value()
        if card == GREEDY_THIEF_CARD:
            slots = np.flatnonzero(self.holder == -1)
        elif card == BOSS_CARD:
            slots = [BOSS_SLOT] if self.holder[BOSS_SLOT] in (-1, *range(1, self.n)) else []
        else:
            same = NUMBER_SLOTS[card]
            slots = [i for i in same if self.holder[i] == -1]
            slots = slots or [i for i in same if self.holder[i] > 0]
        return max((self.take_value(i) for i in slots), default=0.0)
