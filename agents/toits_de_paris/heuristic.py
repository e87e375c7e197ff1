"""A rule-based Les Toits de Paris player."""

import json
from pathlib import Path

import numpy as np

import heist_envs
from heist_envs.toits_de_paris.actions import (
    CONTINUE,
    DECLINE_JOKER,
    JOKER_COLOUR_0,
    PASS,
    TAKE_SPACE_1,
)
from heist_envs.toits_de_paris.components import (
    ARROWS,
    BELLS,
    CARD_FIELD_MAX,
    CARD_TABLE,
    COLOUR,
    FEATHERS,
    NEED,
    NUM_CARDS,
    NUM_COLOURS,
    NUM_PLAYERS_MAX,
    NUM_SPACES,
    RAID_BELLS,
    RESERVE,
    TIEBREAK,
    TOKEN_HIGH,
    TOKEN_LOW,
    VP,
)
from heist_envs.toits_de_paris.observation import JOKER_STATES
from heist_envs.toits_de_paris.state import JOKER, LEADER_EXTRA, LEADER_FREE, THEFT

LAYOUT = heist_envs.get_game("toits_de_paris").layout  # card symbols: the default CARD_TABLE
#: The valuation's weights, in score points (the hand-set defaults). ``weights="tuned"``
#: plays the ones CMA-ES learned against these (``experiments/train/weights.py``).
WEIGHTS = {
    "card_potential": 0.3,  # any card may still help win a majority later
    "reserve_draw": 0.6,  # a reserve symbol draws an unknown card
    "bell_risk": 0.3,  # per card of a colour one bell away from a police raid
    "denial": 0.1,  # a card the leader takes is one the others cannot
    "joker_offer": 1.0,  # a police raid on an agent with its character card unused offers a joker
    "joker_now": 0.5,  # flipping the joker now rather than keeping it for a later raid
    "continue_margin": 0.0,  # reveal on only if the expected share beats stopping by this
    "others_on_stop": 1.0,  # weight of the others' cards in the leader's share on a stop
}
TUNED_WEIGHTS = Path(__file__).resolve().parents[1] / "policies" / "toits_de_paris_tuned.json"


def load_weights(weights=None) -> dict:
    """The weights to play: None (the hand-set ones), "tuned" (the shipped learned ones), a
    path to a JSON file with a ``weights`` table, or a dict naming some of them."""
    if weights is None:
        return dict(WEIGHTS)
    if isinstance(weights, str):
        path = TUNED_WEIGHTS if weights == "tuned" else Path(weights)
        try:
            weights = json.loads(path.read_text())["weights"]
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise ValueError(
                f"cannot read heuristic weights from {path} ({error!r}); give weights=tuned, "
                "or a JSON file with a 'weights' table as experiments.train.weights writes"
            ) from None
    unknown = sorted(set(weights) - set(WEIGHTS))
    if unknown:
        raise ValueError(
            f"unknown heuristic weight(s) {', '.join(unknown)}; weights: {', '.join(WEIGHTS)}"
        )
    return {**WEIGHTS, **{name: float(value) for name, value in weights.items()}}


class HeuristicAgent:
    """Plays for the final score: card points plus the majority tokens it can win.

    A card is worth the change it makes to the agent's lead over the best opponent when the
    game is scored as it stands (card points, colour and feather majorities, tie-breakers),
    plus a little for every card (majorities are still open) and for a reserve draw, minus
    the loss of a police raid it would cause or risk. It takes the best card each time,
    takes cards freely while they are worth anything, and picks the joker colour that scores
    most. As leader it keeps revealing while the expected share of cards (from the arrows
    still unseen, looking ahead to the end of the theft) beats stopping now by more than
    ``continue_margin``. How much each of these is worth is its table of ``weights``
    (:func:`load_weights`).
    """

    def __init__(self, seed=None, weights=None):
        self.rng = np.random.default_rng(seed)
        self.weights = load_weights(weights)

    def act(self, observation, action_mask) -> int:
        legal, values = self.move_values(observation, action_mask)
        values = values + 1e-6 * self.rng.random(len(legal))  # ties broken at random
        return int(legal[np.argmax(values)])

    def move_values(self, observation, action_mask):
        """The legal moves and what each is worth to the agent (the best is played)."""
        obs = np.asarray(observation)
        legal = np.flatnonzero(action_mask)
        phase = int(np.argmax(obs[LAYOUT["phase"]]))
        view = _View(obs, self.weights)
        if phase == THEFT:
            values = [view.continue_gain() if a == CONTINUE else 0.0 for a in legal]
        elif phase == JOKER:
            values = [
                0.0 if a == DECLINE_JOKER else view.joker_gain(a - JOKER_COLOUR_0) for a in legal
            ]
        else:
            values = [
                0.0 if a == PASS else view.card_gain(view.board[a - TAKE_SPACE_1]) for a in legal
            ]
            if phase in (LEADER_FREE, LEADER_EXTRA):
                denial = self.weights["denial"]
                values = [v + denial * (a != PASS) for a, v in zip(legal, values, strict=True)]
        return legal, np.asarray(values, dtype=float)


class _View:
    """The observation decoded into what the valuation needs (relative seat 0 = the agent)."""

    def __init__(self, obs, weights):
        self.w = weights
        self.n = 2 + int(np.argmax(obs[LAYOUT["num_players"]]))
        n = self.n
        self.owned = obs[LAYOUT["collections"]].reshape(NUM_PLAYERS_MAX, NUM_CARDS)[:n] > 0
        self.counts = obs[LAYOUT["colour_counts"]].reshape(NUM_PLAYERS_MAX, NUM_COLOURS)[:n]
        self.bells = obs[LAYOUT["bells"]].reshape(NUM_PLAYERS_MAX, NUM_COLOURS)[:n]
        self.feathers = obs[LAYOUT["feathers"]][:n]
        self.vp = obs[LAYOUT["card_vp"]][:n]
        jokers = obs[LAYOUT["jokers"]].reshape(NUM_PLAYERS_MAX, JOKER_STATES)
        self.joker_unused = jokers[0, 0] > 0
        board = obs[LAYOUT["board"]].reshape(NUM_SPACES, NUM_CARDS)
        self.board = np.where(board.any(axis=1), board.argmax(axis=1), -1)
        self.insp = 1 + int(np.argmax(obs[LAYOUT["inspector"]]))
        self.revealed = int(np.argmax(obs[LAYOUT["revealed"]]))
        unknown = np.flatnonzero(obs[LAYOUT["unknown"]])
        arrows = np.bincount(CARD_TABLE[unknown, ARROWS], minlength=CARD_FIELD_MAX[ARROWS] + 1)
        self.arrow_odds = arrows / max(1, len(unknown))  # of the next card's arrow count
        self.base = self.utility(self.counts, self.feathers, self.vp, self.tb_holders())

    def tb_holders(self, extra_card=-1):
        holders = np.full(NUM_COLOURS, -1)
        for card in np.flatnonzero(CARD_TABLE[:, TIEBREAK]):
            seats = np.flatnonzero(self.owned[:, card])
            if len(seats):
                holders[CARD_TABLE[card, COLOUR]] = seats[0]
            if card == extra_card:
                holders[CARD_TABLE[card, COLOUR]] = 0
        return holders

    def utility(self, counts, feathers, vp, holders):
        """The agent's final score minus the best opponent's, if the game ended now."""
        scores = np.asarray(vp, dtype=float).tolist()
        categories = np.asarray(counts).T.tolist() + [np.asarray(feathers).tolist()]
        for t, values in enumerate(categories):
            holder = holders[t] if t < NUM_COLOURS else -1
            award = _award(values, holder, TOKEN_HIGH[t], TOKEN_LOW[t])
            scores = [score + tokens for score, tokens in zip(scores, award, strict=True)]
        return scores[0] - max(scores[1:])

    def card_gain(self, card):
        """What gaining ``card`` is worth to the agent now."""
        colour = CARD_TABLE[card, COLOUR]
        counts, feathers, vp = self.counts.copy(), self.feathers.copy(), self.vp.copy()
        counts[0, colour] += 1
        feathers[0] += CARD_TABLE[card, FEATHERS]
        vp[0] += CARD_TABLE[card, VP]
        holders = self.tb_holders(card)
        w = self.w
        gain = w["card_potential"] + w["reserve_draw"] * CARD_TABLE[card, RESERVE]
        bells = self.bells[0, colour] + CARD_TABLE[card, BELLS]
        if CARD_TABLE[card, BELLS] and bells >= RAID_BELLS:
            lost = [c for c in np.flatnonzero(self.owned[0]) if CARD_TABLE[c, COLOUR] == colour]
            lost.append(card)
            counts[0, colour] = 0
            feathers[0] -= CARD_TABLE[lost, FEATHERS].sum()
            vp[0] -= CARD_TABLE[lost, VP].sum()
            if holders[colour] == 0:
                holders[colour] = -1
            gain = (
                w["reserve_draw"] * CARD_TABLE[card, RESERVE] + w["joker_offer"] * self.joker_unused
            )
        elif bells == RAID_BELLS - 1:
            gain -= w["bell_risk"] * counts[0, colour]
        return gain + self.utility(counts, feathers, vp, holders) - self.base

    def joker_gain(self, colour):
        counts = self.counts.copy()
        counts[0, colour] += 1
        after = self.utility(counts, self.feathers, self.vp, self.tb_holders())
        return after - self.base + self.w["joker_now"]

    def continue_gain(self):
        """Expected share of cards from revealing on (best play after) minus stopping now,
        less the ``continue_margin``."""
        stop = self._stop_value(self.revealed) + self.w["continue_margin"]
        return self._reveal_value(self.revealed, self.insp, {}) - stop

    def _stop_value(self, n):
        need = int(NEED[n])
        others = min(self.n - 1, n - need)
        extra = 1 if n - need - others > 0 else 0
        return need + extra - self.w["others_on_stop"] * others / (self.n - 1)

    def _reveal_value(self, n, insp, memo):
        """Expected share of cards from revealing one more card at (n, insp), best play after."""
        value = 0.0
        for arrows, odds in enumerate(self.arrow_odds):
            if odds == 0:
                continue
            new_n, new_insp = n + 1, max(1, insp - arrows)
            if new_insp <= new_n:  # caught: the others share the cards left of the inspector
                outcome = -min(self.n - 1, new_insp - 1) / (self.n - 1)
            elif new_insp == new_n + 1:  # coup d'eclat: the leader takes them all
                outcome = float(new_n)
            else:
                outcome = self._theft_value(new_n, new_insp, memo)
            value += odds * outcome
        return value

    def _theft_value(self, n, insp, memo):
        """The leader's expected share at (n, insp) with best play: reveal on or stop."""
        if (n, insp) not in memo:
            memo[n, insp] = max(self._reveal_value(n, insp, memo), self._stop_value(n))
        return memo[n, insp]


def _award(values, holder, high, low):
    """Majority tokens per seat for one category (rules.award's ranking, D22-D27).

    Plain Python: the rows are at most five long, where numpy's per-call cost dominates."""
    keys = [2 * int(v) + (k == holder) if v > 0 else 0 for k, v in enumerate(values)]
    out = [0.0] * len(keys)
    ranked = sorted({key for key in keys if key > 0}, reverse=True)
    if not ranked:
        return out
    first = [k for k, key in enumerate(keys) if key == ranked[0]]
    if len(first) == 1:
        out[first[0]] = high
        second = [k for k, key in enumerate(keys) if len(ranked) > 1 and key == ranked[1]]
        if len(second) <= 2:
            for k in second:
                out[k] = low
    elif len(first) == 2:
        for k in first:
            out[k] = low
    return out
