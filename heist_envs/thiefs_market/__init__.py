"""Thief's Market (Dave Chalker, Tasty Minstrel Games 2016): divide rolled loot dice by taking
and stealing piles, then spend gems and gold on market cards; most VP wins.

=================  =====================================================
Import             ``from heist_envs import thiefs_market_v0``
Agents             ``player_0`` ... ``player_{n-1}``, 3 to 5 players
Actions            ``Discrete(76)``: 0-5 take a die of face G W B R P M; 6 take the pawn;
                   7 take everything (last seat); 8 finish taking; 9-12 steal the pile of
                   seat +1..+4; 13-18 return a die; 19 return the pawn; 20 finish returning;
                   21-26 Lucky Animal Appendage reroll; 27 no reroll; 28-42 buy market slot
                   5*row+position; 43-46 Insurance Racket waives a gem; 47 pay a die;
                   48 pay a gold; 49-60 convert a gem die to another gem; 61-64 purse to gem
                   (Legitimate Jeweller); 65-68 gem to purse; 69-72 spend a gem die for
                   infamy; 73 Gauntlet (mask die for gold); 74 Exit Strategy (gold for
                   infamy); 75 end the purchase turn
Observation        ``Dict(observation=Box(float32, (1283,)), action_mask=Box(int8, (76,)))``,
                   parts named in ``LAYOUT``
Rewards            terminal: +1 for every winner (shared wins too), -1 otherwise, 0 if truncated
Options            ``first_player`` (seat or "random"), ``max_rounds`` (truncation, default 40),
                   ``deck_order`` and ``dice`` (fix the deal and round 1's roll)
=================  =====================================================

Rules: ``docs/games/thiefs_market.md`` (how to play); the kernel in :mod:`.rules` is their
single source.
"""

import numpy as np

from heist_envs.core.breakdown import breakdown, part, ranking
from heist_envs.core.game import Game, Option

from . import rules
from .components import (
    CARD_DECK,
    DECK_A,
    DECK_KEPT,
    DECK_LETTERS,
    DICE_BY_PLAYERS,
    NUM_CARDS,
    NUM_FACES,
    NUM_PLAYERS_MAX,
    ROW_SIZE,
)
from .state import TRIMMED, UNOWNED

OPTIONS = {
    "first_player": Option(0, 'round 1\'s first player: a seat, or "random" (D30)'),
    "max_rounds": Option(40, "truncate the game after this many rounds (D23)"),
    "deck_order": Option(
        None,
        'fixes the decks: {"A": [...], "B": [...], "C": [...]} (any of the letters), each the '
        "ids (1-49) of the cards kept after the trim (13 A, 12 B, 11 C), top first; the first "
        "5 A cards make row A; unlisted cards of that letter are trimmed; None shuffles",
    ),
    "dice": Option(
        None,
        "round 1's roll as counts per face [G, W, B, R, P, M] summing to the dice in play "
        "(10, 11, 13 for 3, 4, 5 players); None rolls",
    ),
}

_MAX_ROUNDS_LIMIT = np.iinfo(np.int16).max


def _is_int(value):
    return not isinstance(value, bool) and isinstance(value, (int, np.integer))


def setup(s, seed, options):
    n = int(s.num_players)
    first = options["first_player"]
    if isinstance(first, str) and first == "random":
        s.start_seat = -1
    elif _is_int(first) and 0 <= first < n:
        s.start_seat = first
    else:
        raise ValueError(
            f'thiefs_market: first_player must be a seat 0..{n - 1} or "random", got {first!r}'
        )
    max_rounds = options["max_rounds"]
    if not _is_int(max_rounds) or not 1 <= max_rounds <= _MAX_ROUNDS_LIMIT:
        raise ValueError(
            f"thiefs_market: max_rounds must be an integer 1..{_MAX_ROUNDS_LIMIT}, "
            f"got {max_rounds!r}"
        )
    s.max_rounds = max_rounds
    rules.init(s, seed)
    if options["deck_order"] is not None:
        for d, order in check_deck_order(options["deck_order"]).items():
            set_deck(s, d, order)
    if options["dice"] is not None:
        s.centre[:] = check_dice(options["dice"], n)


def check_deck_order(deck_order):
    """{deck index: card indices top first}, or a ValueError saying what is wrong."""
    if not isinstance(deck_order, dict) or not set(deck_order) <= set(DECK_LETTERS):
        raise ValueError(
            'thiefs_market: deck_order must be a dict with keys among "A", "B", "C", '
            f"got {deck_order!r}"
        )
    orders = {}
    for letter, ids in deck_order.items():
        d = DECK_LETTERS.index(letter)
        kept = int(DECK_KEPT[d])
        deck_ids = [x + 1 for x in range(NUM_CARDS) if CARD_DECK[x] == d]
        ids = list(ids) if isinstance(ids, (list, tuple)) else [None]
        valid = (
            len(ids) == kept
            and all(_is_int(i) and i in deck_ids for i in ids)
            and len(set(ids)) == kept
        )
        if not valid:
            raise ValueError(
                f"thiefs_market: deck_order[{letter!r}] must list {kept} different card ids "
                f"of deck {letter} ({deck_ids[0]}-{deck_ids[-1]}), got {ids!r}"
            )
        orders[d] = [int(i) - 1 for i in ids]
    return orders


def set_deck(s, d, order):
    """At setup: make ``order`` (card indices, top first) deck d's kept cards, the rest
    trimmed; for deck A the first five make row A."""
    for x in range(NUM_CARDS):
        if CARD_DECK[x] == d:
            s.owner[x] = TRIMMED
    for x in order:
        s.owner[x] = UNOWNED
    if d == DECK_A:
        s.market[:ROW_SIZE] = order[:ROW_SIZE]
        order = order[ROW_SIZE:]
    s.deck[d, :] = -1
    s.deck[d, : len(order)] = order[::-1]
    s.deck_size[d] = len(order)


def check_dice(dice, num_players):
    """Round 1's centre as int8 face counts, or a ValueError."""
    total = int(DICE_BY_PLAYERS[num_players])
    counts = list(dice) if isinstance(dice, (list, tuple, np.ndarray)) else None
    if (
        counts is None
        or len(counts) != NUM_FACES
        or not all(_is_int(c) and c >= 0 for c in counts)
        or sum(counts) != total
    ):
        raise ValueError(
            f"thiefs_market: dice must be {NUM_FACES} counts [G, W, B, R, P, M] >= 0 summing "
            f"to {total} (the dice in play with {num_players} players), got {dice!r}"
        )
    return np.array(counts, dtype=np.int8)


def scores(s):
    """Per-seat final score with its parts and the tie-breakers (section 6)."""
    n = int(s.num_players)
    table = np.zeros((NUM_PLAYERS_MAX, rules.NUM_SCORE_COLUMNS), np.int64)
    rules.score_table(s, table)
    result = {name: table[:n, i].tolist() for i, name in enumerate(rules.SCORE_COLUMN_NAMES)}
    result["gold"] = s.gold[:n].tolist()
    result["infamy"] = s.infamy[:n].tolist()
    return result


#: the breakdown's columns: score-table column, label and what it counts (section 6)
BREAKDOWN_COLUMNS = (
    ("card_vp", "card VP", "victory points of the cards owned, end-game cards included"),
    ("infamy_vp", "infamy", "1 VP per infamy"),
    (
        "henchman_award",
        "henchmen",
        "most thief icons: 3 (tied: 2 each, no second place); second most: 1",
    ),
    ("gold_award", "gold", "most gold: 3 (tied: 2 each)"),
    ("score", "score", "the sum of the four"),
    ("cards", "cards owned", "first tie-breaker"),
    ("tokens", "tokens", "second tie-breaker: infamy + gold"),
)


def score_breakdown(s):
    """Who won and why: card VP, infamy and the two awards; ties go to the most cards owned,
    then the most infamy + gold, then are shared (section 6, D28)."""
    parts = scores(s)
    names = GAME.agent_names(int(s.num_players))
    columns = [part(label, parts[key], help) for key, label, help in BREAKDOWN_COLUMNS]
    keys = [
        ("points", parts["score"]),
        ("cards owned", parts["cards"]),
        ("tokens (infamy + gold)", parts["tokens"]),
    ]
    winners, text = ranking(names, keys)
    return breakdown(s, columns, winners, text)


GAME = Game.from_package(__name__, title="Thief's Market", default_players=4)
