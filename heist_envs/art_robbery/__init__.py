"""Art Robbery (Reiner Knizia, Helvetiq 2021): card play, taking and stealing loot tokens, alibis.

=================  =====================================================
Import             ``from heist_envs import art_robbery_v0``
Agents             ``player_0`` ... ``player_{n-1}``, 2 to 5 players
Actions            ``Discrete(20)``: 0-8 play a card of type 0-8 (Number 0-5, Boss, Guard
                   Dog, Greedy Thief); 9-17 take token slot 0-8 of the raid; 18 give up the
                   stolen token; 19 give the Guard Dog instead
Observation        ``Dict(observation=Box(float32, (OBS_SIZE,)), action_mask=Box(int8, (20,)))``,
                   parts named in ``LAYOUT``
Rewards            terminal: +1 for every winner (shared wins too), -1 otherwise, 0 if truncated
Options            ``max_turns`` (truncation, default 1000), ``deck_order`` (fixes the deal)
=================  =====================================================

Rules: ``docs/games/art_robbery.md`` (how to play); the kernel in :mod:`.rules` is their
single source.
"""

import numpy as np

from heist_envs.core.breakdown import breakdown, listed, part, ranking
from heist_envs.core.game import Game, Option

from . import rules
from .components import CARD_COUNTS, NUM_CARD_TYPES, NUM_CARDS, TWO_PLAYER_ALIBI_PENALTY

MAX_TURNS_LIMIT = np.iinfo(np.int32).max

OPTIONS = {
    "max_turns": Option(1000, "truncate the game after this many card plays (D9)"),
    "deck_order": Option(
        None,
        "the 55 card type ids (0-8) in draw order: seat 0's five cards first, then seat 1's, "
        "..., then the draw pile from its top; None shuffles",
    ),
}


def setup(s, seed, options):
    max_turns = options["max_turns"]
    valid = not isinstance(max_turns, bool) and isinstance(max_turns, (int, np.integer))
    if not valid or not 1 <= max_turns <= MAX_TURNS_LIMIT:
        raise ValueError(
            f"art_robbery: max_turns must be an integer 1 to {MAX_TURNS_LIMIT}, got {max_turns!r}"
        )
    s.max_turns = max_turns
    rules.init(s, seed)
    if options["deck_order"] is not None:
        order = check_deck_order(options["deck_order"])
        s.hands[:] = 0
        s.deck[:] = order[::-1]
        s.deck_size = NUM_CARDS
        rules.deal(s)


def check_deck_order(deck_order):
    """The deck order as an int8 array, or a ValueError saying why it is not one."""
    try:
        order = np.asarray(deck_order)
    except (ValueError, TypeError):
        order = np.zeros(0)
    if order.shape != (NUM_CARDS,) or not np.issubdtype(order.dtype, np.integer):
        raise ValueError(
            f"art_robbery: deck_order must be {NUM_CARDS} card type ids, got {deck_order!r:.80}"
        )
    in_range = order.min() >= 0 and order.max() < NUM_CARD_TYPES
    counts = np.bincount(order, minlength=NUM_CARD_TYPES) if in_range else None
    if counts is None or (counts != CARD_COUNTS).any():
        raise ValueError(
            "art_robbery: deck_order must hold each card type id 0-8 as often as the deck "
            f"does: {dict(enumerate(CARD_COUNTS.tolist()))}"
        )
    return order.astype(np.int8)


def scores(s):
    """Final scores (after the alibi penalty) and alibi totals per seat."""
    n = int(s.num_players)
    values = np.zeros(n, np.int64)
    alibis = np.zeros(n, np.int64)
    rules.final_scores(s, values, alibis)
    return {"score": values.tolist(), "alibis": alibis.tolist()}


def score_breakdown(s):
    """Who won and why: token points, the fewest-alibis penalty, the score, and most alibis
    breaking a tie on score (section 6)."""
    n = int(s.num_players)
    names = GAME.agent_names(n)
    points, alibis, score = np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64)
    rules.loot(s, points, alibis)
    rules.final_scores(s, score, alibis)
    fewest = alibis.min()
    caught = [names[p] for p in range(n) if alibis[p] == fewest]
    one = len(caught) == 1
    if n == 2:
        rule = f"the thief with fewer alibis loses {TWO_PLAYER_ALIBI_PENALTY} points (a tie: both)"
        penalty = f"{'loses' if one else 'lose'} {TWO_PLAYER_ALIBI_PENALTY} points"
    else:
        rule = "every thief tied for the fewest alibis scores 0"
        penalty = f"{'scores' if one else 'score'} 0"
    winners, why = ranking(names, [("points", score), ("alibis", alibis)])
    columns = [
        part("token points", points, "the values of the banked tokens (a kept Boss is 5)"),
        part("alibis", alibis, "alibi dots on the tokens; the most break a tie on score"),
        part("fewest-alibis penalty", score - points, rule),
        part("score", score, "token points and the penalty"),
    ]
    have = "has" if one else "have"
    text = f"{listed(caught)} {have} the fewest alibis ({fewest}) and {penalty}. {why}"
    return breakdown(s, columns, winners, text)


GAME = Game.from_package(__name__, title="Art Robbery", default_players=4)
