"""Les Toits de Paris (Christine Alcouffe & Ludovic Maublanc, Kyf Edition 2023): push-your-luck
card reveals past the inspector, sharing the loot, police raids and colour majorities.

=================  =====================================================
Import             ``from heist_envs import toits_de_paris_v0``
Agents             ``player_0`` ... ``player_{n-1}``, 2 to 4 players
Actions            ``Discrete(16)``: 0 stop; 1 continue (reveal the next card); 2-8 take the
                   card on board space 1-7; 9 pass; 10-14 turn the character card into a
                   joker of colour 0-4; 15 decline the joker
Observation        ``Dict(observation=Box(float32, (1294,)), action_mask=Box(int8, (16,)))``,
                   the public state with seats relative to the observer, parts named in
                   ``LAYOUT``
Rewards            terminal: 1/k to each of the k players with the top score, 0 otherwise;
                   option ``reward="score"``: the scores
Options            ``first_leader`` (seat or "random"), ``reward``, and for tests
                   ``deck_order``, ``card_table``, ``token_values``
=================  =====================================================

Rules: ``docs/games/toits_de_paris.md`` (how to play); the kernel in :mod:`.rules` is their
single source.
A raid can hand the decision to a player who is not the leader (the joker): the acting agent
(``s.actor``, ``agent_selection``) is then that player.
"""

import numpy as np

from heist_envs.core.breakdown import breakdown, part, ranking
from heist_envs.core.game import Game, Option

from . import rules
from .components import (
    CARD_FIELD_MAX,
    CARD_FIELDS,
    CARD_TABLE,
    COLOUR,
    NUM_CARDS,
    NUM_COLOURS,
    NUM_TOKEN_SETS,
    TIEBREAK,
    TOKEN_HIGH,
    TOKEN_LOW,
    TOKEN_SET_NAMES,
    VP,
)
from .state import REWARD_SCORE, REWARD_WIN, SEAT_0

REWARDS = {"win": REWARD_WIN, "score": REWARD_SCORE}

OPTIONS = {
    "first_leader": Option(0, 'the first leader\'s seat, or "random" (seeded) (D30)'),
    "reward": Option(
        "win", '"win": 1/k to each of k co-winners, 0 otherwise; "score": the scores (D28)'
    ),
    "deck_order": Option(
        None,
        "the 90 card ids 0-89 in deal order: the first 15 form the reserve, the other 75 the "
        "draw pile, each from its top; None shuffles",
    ),
    "card_table": Option(
        None,
        f"90 rows of {len(CARD_FIELDS)} integers ({', '.join(CARD_FIELDS)}) replacing the "
        "default card data; None keeps it",
    ),
    "token_values": Option(
        None, "two rows of 6 token values (high, then low; colours 0-4, then white); None keeps"
    ),
}


def setup(s, seed, options):
    n = int(s.num_players)
    first_leader = options["first_leader"]
    if isinstance(first_leader, str) and first_leader == "random":
        s.first_leader = -1
    elif is_int(first_leader) and 0 <= first_leader < n:
        s.first_leader = first_leader
    else:
        raise ValueError(
            f"toits_de_paris: first_leader must be a seat 0-{n - 1} or 'random', "
            f"got {first_leader!r}"
        )
    if not isinstance(options["reward"], str) or options["reward"] not in REWARDS:
        raise ValueError(
            f"toits_de_paris: reward must be one of {sorted(REWARDS)}, got {options['reward']!r}"
        )
    s.reward_mode = REWARDS[options["reward"]]
    table = CARD_TABLE
    if options["card_table"] is not None:
        table = check_card_table(options["card_table"])
    s.card_table[:] = table
    high, low = TOKEN_HIGH, TOKEN_LOW
    if options["token_values"] is not None:
        high, low = check_token_values(options["token_values"])
    s.token_high[:] = high
    s.token_low[:] = low
    rules.init(s, seed)
    if options["deck_order"] is not None:
        s.deck[:] = check_deck_order(options["deck_order"])
        rules.deal(s)


def is_int(value):
    return not isinstance(value, bool) and isinstance(value, (int, np.integer))


def int_table(value, shape, what):
    """``value`` as an int64 array of ``shape``, or a ValueError naming ``what`` is expected."""
    try:
        table = np.asarray(value)
    except (ValueError, TypeError):
        table = np.zeros(0)
    if table.shape != shape or not np.issubdtype(table.dtype, np.integer):
        raise ValueError(
            f"toits_de_paris: {what} must be integers of shape {shape}, got {value!r:.80}"
        )
    return table.astype(np.int64)


def check_deck_order(deck_order):
    """The deck order as an int8 array, or a ValueError saying why it is not one."""
    order = int_table(deck_order, (NUM_CARDS,), "deck_order")
    if sorted(order.tolist()) != list(range(NUM_CARDS)):
        raise ValueError(
            f"toits_de_paris: deck_order must be a permutation of the card ids 0-{NUM_CARDS - 1} "
            "(each exactly once)"
        )
    return order.astype(np.int8)


def check_card_table(card_table):
    """The card table as int8, or a ValueError saying which column is out of range."""
    table = int_table(card_table, CARD_TABLE.shape, "card_table")
    for column, (name, top) in enumerate(zip(CARD_FIELDS, CARD_FIELD_MAX, strict=True)):
        if table[:, column].min() < 0 or table[:, column].max() > top:
            raise ValueError(f"toits_de_paris: card_table column {name!r} must be within 0-{top}")
    tiebreakers = np.bincount(table[table[:, TIEBREAK] == 1, COLOUR], minlength=NUM_COLOURS)
    if tiebreakers.max() > 1:
        raise ValueError("toits_de_paris: card_table allows at most one tie-breaker per colour")
    return table.astype(np.int8)


def check_token_values(token_values):
    """(high, low) int8 arrays, or a ValueError."""
    values = int_table(token_values, (2, NUM_TOKEN_SETS), "token_values")
    if values.min() < 0 or values.max() > 100:
        raise ValueError("toits_de_paris: token_values must be within 0-100")
    return values[0].astype(np.int8), values[1].astype(np.int8)


def scores(s):
    """Per seat: the score, its card and token points, and the tokens (one letter a set,
    colours 0-4 then white: H high, L low, - none). Final once the game is over; before, what
    the collections would earn if it ended now."""
    n = int(s.num_players)
    awards = np.zeros_like(s.token_award)
    totals = np.zeros_like(s.score)
    rules.tally(s, awards, totals)
    card_points = [int(s.card_table[s.card_loc == SEAT_0 + p, VP].sum()) for p in range(n)]
    return {
        "score": totals[:n].tolist(),
        "card_points": card_points,
        "token_points": [int(totals[p]) - card_points[p] for p in range(n)],
        "tokens": ["".join("-LH"[a] for a in awards[p]) for p in range(n)],
    }


def score_breakdown(s):
    """Who won and why: card points, the majority tokens and their points, the score; ties
    are shared (section 5, D28)."""
    n = int(s.num_players)
    names = GAME.agent_names(n)
    parts = scores(s)
    tokens = [
        ", ".join(
            f"{TOKEN_SET_NAMES[t]} high ({int(s.token_high[t])})"
            if a == "H"
            else f"{TOKEN_SET_NAMES[t]} low ({int(s.token_low[t])})"
            for t, a in enumerate(awards)
            if a != "-"
        )
        or "none"
        for awards in parts["tokens"]
    ]
    columns = [
        part("card points", parts["card_points"], "victory points printed on the cards"),
        part(
            "majority tokens",
            tokens,
            "the most cards of a colour (of feathers for White) win its high token, the second "
            "most its low one; a colour's tie-breaker card ranks its holder first in a tie",
        ),
        part("token points", parts["token_points"]),
        part("score", parts["score"], "card points and token points"),
    ]
    winners, why = ranking(names, [("points", parts["score"])])
    return breakdown(s, columns, winners, why)


GAME = Game.from_package(
    __name__,
    title="Les Toits de Paris",
    default_players=4,
    obs_limit=NUM_CARDS * max(CARD_FIELD_MAX),  # counts of cards and sums of card symbols
)
