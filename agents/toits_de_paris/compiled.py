"""Plays for the final score: card points plus the majority tokens it can win.

Les Toits de Paris's heuristic player, written once, in numba. A card is worth the change it
makes to the player's lead over the best opponent when the game is scored as it stands (card
points, colour and feather majorities, tie-breakers), plus a little for every card (majorities
are still open) and for a reserve draw, minus the loss of a police raid it would cause or risk.
It takes the best card each time, takes cards freely while they are worth anything (as the
leader, a little more for the card the others then cannot take), and picks the joker colour
that scores most. As the leader of a theft it keeps revealing while the expected share of cards
(from the arrows still unseen, looking ahead to the end of the theft) beats stopping now by
more than ``continue_margin``. How much each of these is worth is its table of :data:`WEIGHTS`
(:func:`load_weights`).

:func:`scores` values every legal action from the seat's observation and action mask alone;
:func:`act` plays the best (:func:`agents.compiled.best_with_ties_at_random`). Its parameters
are the weights (:func:`params`, in ``WEIGHT_NAMES`` order).
"""

import json
from pathlib import Path

import numba as nb
import numpy as np

from heist_envs.toits_de_paris import actions as A
from heist_envs.toits_de_paris import components as C
from heist_envs.toits_de_paris.observation import LAYOUT
from heist_envs.toits_de_paris.state import JOKER, LEADER_EXTRA, LEADER_FREE, THEFT

from ..compiled import best_with_ties_at_random

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


#: the parameter vector's entries: the weights, in this order (and each one's place in it)
WEIGHT_NAMES = tuple(WEIGHTS)
CARD_POTENTIAL = WEIGHT_NAMES.index("card_potential")
RESERVE_DRAW = WEIGHT_NAMES.index("reserve_draw")
BELL_RISK = WEIGHT_NAMES.index("bell_risk")
DENIAL = WEIGHT_NAMES.index("denial")
JOKER_OFFER = WEIGHT_NAMES.index("joker_offer")
JOKER_NOW = WEIGHT_NAMES.index("joker_now")
CONTINUE_MARGIN = WEIGHT_NAMES.index("continue_margin")
OTHERS_ON_STOP = WEIGHT_NAMES.index("others_on_stop")

# The observation's parts (per-seat blocks: rows of relative seats, the player's first).
_COLLECTIONS = LAYOUT["collections"].start
_COLOUR_COUNTS = LAYOUT["colour_counts"].start
_BELLS = LAYOUT["bells"].start
_FEATHERS = LAYOUT["feathers"].start
_CARD_VP = LAYOUT["card_vp"].start
_JOKERS = LAYOUT["jokers"].start  # the player's row first; its first entry: joker unused
_BOARD = LAYOUT["board"].start
_UNKNOWN = LAYOUT["unknown"].start
_INSPECTOR, _INSPECTOR_STOP = LAYOUT["inspector"].start, LAYOUT["inspector"].stop
_REVEALED, _REVEALED_STOP = LAYOUT["revealed"].start, LAYOUT["revealed"].stop
_PHASE, _PHASE_STOP = LAYOUT["phase"].start, LAYOUT["phase"].stop
_NUM_PLAYERS, _NUM_PLAYERS_STOP = LAYOUT["num_players"].start, LAYOUT["num_players"].stop

_TIEBREAK_CARDS = np.flatnonzero(C.CARD_TABLE[:, C.TIEBREAK])
_ARROW_COUNTS = C.CARD_FIELD_MAX[C.ARROWS] + 1  # a card shows 0..CARD_FIELD_MAX[C.ARROWS] arrows
_NOBODY = -1  # no seat holds the colour's tie-breaker; also "no extra card"


def params(weights=None) -> np.ndarray:
    """The heuristic's weights as :func:`act`'s parameters: float64, in ``WEIGHT_NAMES`` order.

    ``weights`` as :func:`load_weights` takes them: None (the hand-set ones), "tuned", the
    path of a JSON file with a ``weights`` table, or a dict."""
    table = load_weights(weights)
    return np.array([table[name] for name in WEIGHT_NAMES], dtype=np.float64)


@nb.njit(cache=True)
def act(obs, mask, params, rng):
    """The heuristic's move: the legal action of highest value, ties broken with ``rng``."""
    legal, values = scores(obs, mask, params)
    return best_with_ties_at_random(legal, values, rng)


@nb.njit(cache=True)
def _argmax(obs, start, stop):
    """The first position of the largest entry of ``obs[start:stop]`` (a one-hot's index)."""
    best = start
    for i in range(start + 1, stop):
        if obs[i] > obs[best]:
            best = i
    return best - start


@nb.njit(cache=True)
def _seat_rows(obs, start, n, width):
    """The first ``n`` rows (the seats at the table) of a [relative seat, width] block."""
    rows = np.empty((n, width), np.int64)
    for seat in range(n):
        for k in range(width):
            rows[seat, k] = np.int64(obs[start + seat * width + k])
    return rows


@nb.njit(cache=True)
def _seat_values(obs, start, n):
    """The first ``n`` entries (the seats at the table) of a [relative seat] block."""
    values = np.empty(n, np.int64)
    for seat in range(n):
        values[seat] = np.int64(obs[start + seat])
    return values


@nb.njit(cache=True)
def _board_card(obs, space):
    """The card on board space ``space + 1`` (its one-hot row), or -1 if it is empty."""
    start = _BOARD + space * C.NUM_CARDS
    card = _argmax(obs, start, start + C.NUM_CARDS)
    return card if obs[start + card] != 0 else -1


@nb.njit(cache=True)
def _arrow_odds(obs):
    """The odds of each arrow count on the next card: over the unknown cards."""
    arrows = np.zeros(_ARROW_COUNTS, np.int64)
    unknown = 0
    for card in range(C.NUM_CARDS):
        if obs[_UNKNOWN + card] != 0:
            arrows[C.CARD_TABLE[card, C.ARROWS]] += 1
            unknown += 1
    return arrows / max(1, unknown)


@nb.njit(cache=True)
def scores(obs, mask, params):
    """The legal moves and what each is worth to the player (it plays the best)."""
    legal = np.flatnonzero(mask)
    values = np.zeros(len(legal))
    phase = _argmax(obs, _PHASE, _PHASE_STOP)
    n = C.NUM_PLAYERS_MIN + _argmax(obs, _NUM_PLAYERS, _NUM_PLAYERS_STOP)
    if phase == THEFT:
        for k in range(len(legal)):
            if legal[k] == A.CONTINUE:
                values[k] = _continue_gain(obs, n, params)
        return legal, values
    owned = _seat_rows(obs, _COLLECTIONS, n, C.NUM_CARDS) > 0
    counts = _seat_rows(obs, _COLOUR_COUNTS, n, C.NUM_COLOURS)
    feathers = _seat_values(obs, _FEATHERS, n)
    vp = _seat_values(obs, _CARD_VP, n)
    base = _utility(counts, feathers, vp, _tb_holders(owned, _NOBODY))
    if phase == JOKER:
        for k in range(len(legal)):
            if legal[k] != A.DECLINE_JOKER:
                colour = legal[k] - A.JOKER_COLOUR_0
                values[k] = _joker_gain(colour, owned, counts, feathers, vp, base, params)
        return legal, values
    bells = _seat_rows(obs, _BELLS, n, C.NUM_COLOURS)
    joker_unused = obs[_JOKERS] > 0
    for k in range(len(legal)):
        if legal[k] != A.PASS:
            card = _board_card(obs, legal[k] - A.TAKE_SPACE_1)
            values[k] = _card_gain(
                card, owned, counts, bells, feathers, vp, joker_unused, base, params
            )
        if phase in (LEADER_FREE, LEADER_EXTRA):
            values[k] = values[k] + params[DENIAL] * (1.0 if legal[k] != A.PASS else 0.0)
    return legal, values


@nb.njit(cache=True)
def _tb_holders(owned, extra_card):
    """The seat holding each colour's tie-breaker (-1: none); the player if it gains
    ``extra_card`` and that is one."""
    holders = np.full(C.NUM_COLOURS, _NOBODY, np.int64)
    for card in _TIEBREAK_CARDS:
        colour = C.CARD_TABLE[card, C.COLOUR]
        for seat in range(owned.shape[0]):
            if owned[seat, card]:
                holders[colour] = seat
                break
        if card == extra_card:
            holders[colour] = 0
    return holders


@nb.njit(cache=True)
def _award(values, holder, high, low, out):
    """Majority tokens per seat for one category into ``out`` (the kernel's ranking, D22-D27)."""
    out[:] = 0.0
    keys = np.zeros(len(values), np.int64)
    first_key, second_key = 0, 0  # the two largest distinct ranking keys (0: none)
    for k in range(len(values)):
        if values[k] > 0:
            keys[k] = 2 * values[k] + (1 if k == holder else 0)
        if keys[k] > first_key:
            first_key, second_key = keys[k], first_key
        elif first_key > keys[k] > second_key:
            second_key = keys[k]
    first = np.sum(keys == first_key) if first_key > 0 else 0
    second = np.sum(keys == second_key) if second_key > 0 else 0
    if first == 1:
        for k in range(len(keys)):
            if keys[k] == first_key:
                out[k] = high
            elif second <= 2 and second_key > 0 and keys[k] == second_key:
                out[k] = low
    elif first == 2:
        for k in range(len(keys)):
            if keys[k] == first_key:
                out[k] = low


@nb.njit(cache=True)
def _utility(counts, feathers, vp, holders):
    """The player's final score minus the best opponent's, if the game ended now."""
    scores = vp.astype(np.float64)
    award = np.zeros(len(vp))
    for t in range(C.NUM_COLOURS):
        _award(counts[:, t], holders[t], C.TOKEN_HIGH[t], C.TOKEN_LOW[t], award)
        scores += award
    _award(feathers, _NOBODY, C.TOKEN_HIGH[C.WHITE], C.TOKEN_LOW[C.WHITE], award)
    scores += award
    return scores[0] - scores[1:].max()


@nb.njit(cache=True)
def _card_gain(card, owned, counts, bells, feathers, vp, joker_unused, base, params):
    """What gaining ``card`` is worth to the player now."""
    colour = C.CARD_TABLE[card, C.COLOUR]
    counts, feathers, vp = counts.copy(), feathers.copy(), vp.copy()
    counts[0, colour] += 1
    feathers[0] += C.CARD_TABLE[card, C.FEATHERS]
    vp[0] += C.CARD_TABLE[card, C.VP]
    holders = _tb_holders(owned, card)
    gain = params[CARD_POTENTIAL] + params[RESERVE_DRAW] * C.CARD_TABLE[card, C.RESERVE]
    card_bells = bells[0, colour] + C.CARD_TABLE[card, C.BELLS]
    if C.CARD_TABLE[card, C.BELLS] and card_bells >= C.RAID_BELLS:
        for lost in range(C.NUM_CARDS):  # the colour's cards in the collection, then the card
            if owned[0, lost] and C.CARD_TABLE[lost, C.COLOUR] == colour:
                feathers[0] -= C.CARD_TABLE[lost, C.FEATHERS]
                vp[0] -= C.CARD_TABLE[lost, C.VP]
        feathers[0] -= C.CARD_TABLE[card, C.FEATHERS]
        vp[0] -= C.CARD_TABLE[card, C.VP]
        counts[0, colour] = 0
        if holders[colour] == 0:
            holders[colour] = _NOBODY
        gain = params[RESERVE_DRAW] * C.CARD_TABLE[card, C.RESERVE] + params[JOKER_OFFER] * (
            1.0 if joker_unused else 0.0
        )
    elif card_bells == C.RAID_BELLS - 1:
        gain -= params[BELL_RISK] * counts[0, colour]
    return gain + _utility(counts, feathers, vp, holders) - base


@nb.njit(cache=True)
def _joker_gain(colour, owned, counts, feathers, vp, base, params):
    """What flipping the joker into ``colour`` now is worth to the agent."""
    counts = counts.copy()
    counts[0, colour] += 1
    after = _utility(counts, feathers, vp, _tb_holders(owned, _NOBODY))
    return after - base + params[JOKER_NOW]


@nb.njit(cache=True)
def _continue_gain(obs, n, params):
    """Expected share of cards from revealing on (best play after) minus stopping now,
    less the ``continue_margin``."""
    revealed = _argmax(obs, _REVEALED, _REVEALED_STOP)
    insp = 1 + _argmax(obs, _INSPECTOR, _INSPECTOR_STOP)
    arrow_odds = _arrow_odds(obs)
    others_on_stop = params[OTHERS_ON_STOP]
    stop = stop_value(revealed, n, others_on_stop) + params[CONTINUE_MARGIN]
    theft = theft_values(arrow_odds, n, others_on_stop)
    return reveal_value(revealed, insp, arrow_odds, n, theft) - stop


@nb.njit(cache=True)
def stop_value(revealed, n, others_on_stop):
    """The leader's share of cards on a stop after ``revealed`` cards (others' count against)."""
    need = np.int64(C.NEED[revealed])
    others = min(n - 1, revealed - need)
    extra = 1 if revealed - need - others > 0 else 0
    return need + extra - others_on_stop * others / (n - 1)


@nb.njit(cache=True)
def reveal_value(revealed, insp, arrow_odds, n, theft):
    """Expected share of cards from revealing one more card at (revealed, insp), best play
    after (``theft``: :func:`theft_values`)."""
    value = 0.0
    for arrows in range(len(arrow_odds)):
        odds = arrow_odds[arrows]
        if odds == 0:
            continue
        new_revealed, new_insp = revealed + 1, max(1, insp - arrows)
        if new_insp <= new_revealed:  # caught: the others share the cards left of the inspector
            outcome = -min(n - 1, new_insp - 1) / (n - 1)
        elif new_insp == new_revealed + 1:  # coup d'eclat: the leader takes them all
            outcome = float(new_revealed)
        else:
            outcome = theft[new_revealed, new_insp]
        value += odds * outcome
    return value


@nb.njit(cache=True)
def theft_values(arrow_odds, n, others_on_stop):
    """The leader's expected share at each (revealed, insp) of a theft still going on, with
    best play (reveal on or stop), worked back from the last card."""
    theft = np.zeros((C.INSP_START, C.INSP_START + 1))
    for revealed in range(C.INSP_START - 2, 0, -1):  # going on: revealed + 2 <= insp <= start
        for insp in range(revealed + 2, C.INSP_START + 1):
            reveal = reveal_value(revealed, insp, arrow_odds, n, theft)
            stop = stop_value(revealed, n, others_on_stop)
            theft[revealed, insp] = stop if stop > reveal else reveal
    return theft
