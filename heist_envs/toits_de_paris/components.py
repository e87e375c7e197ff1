"""Les Toits de Paris's components as data (rulebook counts; values marked (default) in the spec).

Replace a table here to use real component data; the rules read the card table and the token
values from the state record, which ``setup`` fills from these arrays (or from the
``card_table`` / ``token_values`` options).
"""

import numpy as np

from heist_envs.core.game import ComponentTable

NUM_PLAYERS_MIN, NUM_PLAYERS_MAX = 2, 4
NUM_COLOURS = 5
CARDS_PER_COLOUR = 18
NUM_CARDS = 90
RESERVE_SIZE = 15  # cards set aside face down at setup; the other 75 form the draw pile
DRAW_SIZE = NUM_CARDS - RESERVE_SIZE
NUM_SPACES = 7
INSP_START = 8  # the inspector's notch, right of space 7
RAID_BELLS = 3  # bell symbols in one colour that bring a police raid

COLOUR_NAMES = ("Jewellery", "Gold", "Paintings", "Gems", "Statues")  # (default) names
WHITE = 5  # the feathers' token set
NUM_TOKEN_SETS = 6
TOKEN_SET_NAMES = COLOUR_NAMES + ("White",)

# Cards the leader must take on a normal stop, indexed by the number of cards revealed (the
# number printed under the last card's space). Index 0 and 7 are never used for a normal stop.
NEED = np.array([0, 1, 1, 1, 2, 2, 4, 0], dtype=np.int8)

# The card table: one column per symbol, one row per card (id = 18 * colour + k).
CARD_FIELDS = ("colour", "arrows", "bells", "reserve", "feathers", "vp", "tiebreak")
COLOUR, ARROWS, BELLS, RESERVE, FEATHERS, VP, TIEBREAK = range(len(CARD_FIELDS))
#: Largest value each column accepts (the colour column: NUM_COLOURS - 1).
CARD_FIELD_MAX = (NUM_COLOURS - 1, 3, 3, 1, 3, 3, 1)

# Per-colour distribution, the same for each colour (default): kind, arrows, bells, reserve,
# feathers, vp, tiebreak.
COLOUR_CARDS = (
    ("A1", 1, 0, 0, 0, 0, 0),
    ("A1", 1, 0, 0, 0, 0, 0),
    ("A1B", 1, 1, 0, 0, 0, 0),
    ("A2", 2, 0, 0, 0, 0, 0),
    ("A2B", 2, 1, 0, 0, 0, 0),
    ("A3", 3, 0, 0, 0, 0, 0),
    ("R", 0, 0, 1, 0, 0, 0),
    ("R", 0, 0, 1, 0, 0, 0),
    ("F", 0, 0, 0, 1, 0, 0),
    ("F", 0, 0, 0, 1, 0, 0),
    ("V1", 0, 0, 0, 0, 1, 0),
    ("V1", 0, 0, 0, 0, 1, 0),
    ("V2", 0, 0, 0, 0, 2, 0),
    ("TB", 0, 0, 0, 0, 1, 1),
    ("P", 0, 0, 0, 0, 0, 0),
    ("P", 0, 0, 0, 0, 0, 0),
    ("PB", 0, 1, 0, 0, 0, 0),
    ("PB", 0, 1, 0, 0, 0, 0),
)
KIND_NAMES = tuple(row[0] for row in COLOUR_CARDS)

CARD_TABLE = np.array(
    [(colour,) + row[1:] for colour in range(NUM_COLOURS) for row in COLOUR_CARDS],
    dtype=np.int8,
)  # shape (NUM_CARDS, len(CARD_FIELDS))

# Reward tokens per set (colours 0..4, then white): 1 high and 2 low each (default values).
TOKEN_HIGH = np.array([5, 5, 5, 5, 5, 5], dtype=np.int8)
TOKEN_LOW = np.array([2, 2, 2, 2, 2, 2], dtype=np.int8)
HIGH_PER_SET, LOW_PER_SET = 1, 2


def card_id(colour: int, k: int) -> int:
    """The id of card ``k`` (0..17) of ``colour``."""
    return CARDS_PER_COLOUR * colour + k


def card_kind(row) -> str:
    """A card's kind from its symbols (one table row): "A2B", "R", "V1", "TB", "P", "PB"...

    The default kinds' names are exactly these labels.
    """

    def symbol(letter, count):
        return "" if count == 0 else letter if count == 1 else f"{letter}{count}"

    arrows = f"A{row[ARROWS]}" if row[ARROWS] else ""
    points = "TB" if row[TIEBREAK] else f"V{row[VP]}" if row[VP] else ""
    kind = arrows + symbol("R", row[RESERVE]) + symbol("F", row[FEATHERS]) + points
    return (kind or "P") + symbol("B", row[BELLS])


def card_text(row) -> str:
    """What a card's symbols do, for people (one table row)."""
    parts = []
    if row[ARROWS]:
        parts.append(f"{row[ARROWS]} arrow(s): the inspector moves {row[ARROWS]} space(s) left")
    if row[RESERVE]:
        parts.append("reserve: who gains it also draws the top reserve card")
    if row[FEATHERS]:
        parts.append("a feather: the most feathers win the White token")
    if row[TIEBREAK]:
        parts.append("the colour's tie-breaker: 1 VP, and ranks first in a tie for the colour")
    elif row[VP]:
        parts.append(f"{row[VP]} VP")
    if row[BELLS]:
        parts.append("a bell: 3 bells of one colour in a collection bring a police raid on it")
    return "; ".join(parts) or "a plain card: no symbol"


def card_label(card: int, table=CARD_TABLE) -> str:
    """The spec's notation of a card, e.g. "c1:A2"."""
    return f"c{table[card, COLOUR]}:{card_kind(table[card])}"


def check_components():
    """Assert the rulebook's totals (run at import)."""
    table = CARD_TABLE
    assert table.shape == (NUM_CARDS, len(CARD_FIELDS)) == (90, 7)
    assert NUM_COLOURS * CARDS_PER_COLOUR == NUM_CARDS
    assert (np.bincount(table[:, COLOUR], minlength=NUM_COLOURS) == CARDS_PER_COLOUR).all()
    assert RESERVE_SIZE == 15 and DRAW_SIZE == 75
    assert ((table[:, ARROWS] >= 0) & (table[:, ARROWS] <= 3)).all()
    assert (table[:, ARROWS] > 0).sum() == 30
    assert table[:, ARROWS].sum() == 50
    assert table[:, BELLS].sum() == 20
    assert table[:, RESERVE].sum() == 10
    assert table[:, FEATHERS].sum() == 10
    assert ((table[:, VP] > 0) & (table[:, TIEBREAK] == 0)).sum() == 15
    assert table[:, VP].sum() == 25
    for colour in range(NUM_COLOURS):
        assert table[(table[:, COLOUR] == colour), TIEBREAK].sum() == 1, "one tie-breaker a colour"
    assert (table[table[:, TIEBREAK] == 1, VP] == 1).all(), "a tie-breaker is worth 1 VP"
    assert (table[:, 1:].sum(axis=1) == 0).sum() == 10, "plain cards"
    assert all(card_kind(row) == KIND_NAMES[i % CARDS_PER_COLOUR] for i, row in enumerate(table))
    assert NUM_TOKEN_SETS == NUM_COLOURS + 1 == TOKEN_HIGH.size == TOKEN_LOW.size
    assert NUM_TOKEN_SETS * (HIGH_PER_SET + LOW_PER_SET) == 18
    assert NEED.size == INSP_START and (NEED[1:NUM_SPACES] <= np.arange(1, NUM_SPACES)).all()


check_components()


def component_tables() -> list[ComponentTable]:
    """A colour's cards and the reward tokens, for the docs page."""
    kinds: dict[tuple, int] = {}
    for row in COLOUR_CARDS:
        kinds[row] = kinds.get(row, 0) + 1
    return [
        ComponentTable(
            f"Each colour ({', '.join(COLOUR_NAMES)}) has the same 18 cards:",
            ["kind", "cards", *CARD_FIELDS[1:]],
            [(f"`{row[0]}`", count, *row[1:]) for row, count in kinds.items()],
        ),
        ComponentTable(
            "Reward tokens, one high and two low per category:",
            ["category", "high", "low"],
            [
                (name, int(high), int(low))
                for name, high, low in zip(TOKEN_SET_NAMES, TOKEN_HIGH, TOKEN_LOW, strict=True)
            ],
        ),
    ]
