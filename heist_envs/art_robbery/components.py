"""Art Robbery's components as data (rulebook counts; values marked (default) in the spec).

Replace a table here to use real component data; the rules read only these arrays.
"""

import numpy as np

from heist_envs.core.game import ComponentTable

NUM_PLAYERS_MIN, NUM_PLAYERS_MAX = 2, 5
HAND_SIZE = 5
NUM_RAIDS = 4
TOKENS_PER_RAID = 9

# Card types (id = action id of playing it).
NUMBER_0, NUMBER_5 = 0, 5
BOSS_CARD = 6
GUARD_DOG_CARD = 7
GREEDY_THIEF_CARD = 8
NUM_CARD_TYPES = 9
CARD_NAMES = (
    "Number 0",
    "Number 1",
    "Number 2",
    "Number 3",
    "Number 4",
    "Number 5",
    "Boss",
    "Guard Dog",
    "Greedy Thief",
)
#: what each card does, for people (the rules page says more)
CARD_TEXTS = (
    *(
        f"take a token of value {v} from the centre; if none, steal one of this raid from "
        "another player" + (" (never the Boss token)" if v == NUMBER_5 else "")
        for v in range(NUMBER_0, NUMBER_5 + 1)
    ),
    "take this raid's Boss token (worth 5) from the centre or from whoever has it",
    "take the Guard Dog pawn; its holder, when stolen from, may hand over the dog instead",
    "take any one token from the centre, the Boss token included; never steals",
)
CARD_COUNTS = np.array([6, 6, 6, 6, 6, 6, 6, 6, 7], dtype=np.int8)
NUM_CARDS = 55

RAID_NAMES = ("Sketches", "Sculptures", "Antiques", "Paintings")

# Token slots 0-7 are Number tokens, slot 8 is the Boss token (scores 5, is not a Number: D7).
BOSS_SLOT = 8
TOKEN_VALUES = np.array([0, 0, 1, 1, 2, 3, 4, 5, 5], dtype=np.int8)  # (default)
TOKEN_ALIBIS = np.array(  # alibi dots per raid and slot (default)
    [
        [1, 1, 0, 0, 0, 0, 0, 0, 0],
        [1, 1, 1, 0, 0, 0, 0, 0, 0],
        [2, 1, 1, 0, 0, 0, 0, 0, 0],
        [2, 2, 1, 0, 0, 0, 0, 0, 0],
    ],
    dtype=np.int8,
)
BOSS_KEEP_MIN_VALUE = 4  # the Boss token is kept with a Number token of value >= 4 of its raid

# End-game alibi penalty: 3+ players lose everything, 2 players lose this many points.
TWO_PLAYER_ALIBI_PENALTY = 10


def check_components():
    """Assert the rulebook's totals (run at import)."""
    assert CARD_COUNTS.sum() == NUM_CARDS == 55
    assert CARD_COUNTS[: NUMBER_5 + 1].sum() == 36
    assert TOKEN_VALUES.shape == (TOKENS_PER_RAID,)
    assert TOKEN_ALIBIS.shape == (NUM_RAIDS, TOKENS_PER_RAID)
    assert (TOKEN_ALIBIS[:, TOKEN_VALUES == 0] > 0).all(), "every 0 token carries alibi dots"
    assert (np.diff(TOKEN_ALIBIS.sum(axis=1)) >= 0).all(), "alibi dots grow raid by raid"
    assert TOKEN_VALUES[BOSS_SLOT] == 5
    assert NUM_PLAYERS_MAX * HAND_SIZE <= NUM_CARDS - 30


check_components()


def component_tables() -> list[ComponentTable]:
    """The cards and the loot tokens, for the docs page."""
    values = ["Boss (5)" if k == BOSS_SLOT else int(v) for k, v in enumerate(TOKEN_VALUES)]
    return [
        ComponentTable(
            "Cards (one deck for the whole game):",
            ["card", "count"],
            [(name, int(n)) for name, n in zip(CARD_NAMES, CARD_COUNTS, strict=True)],
        ),
        ComponentTable(
            "Loot tokens of each raid, with their alibi dots:",
            ["token", *map(str, values)],
            [
                [f"alibis, raid {r + 1} ({name})", *map(int, TOKEN_ALIBIS[r])]
                for r, name in enumerate(RAID_NAMES)
            ],
        ),
    ]
