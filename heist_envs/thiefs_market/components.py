"""Thief's Market's components as data (spec sections 2 and 3).

The 49 market cards are one table, ``CARD_TABLE``: one row per card with its deck, cost,
icons, printed VP and effect code with parameters. ``validate_card_table`` checks a table
against the rulebook's totals and the rules' needs, and raises a ValueError naming the bad
row; it runs on ``CARD_TABLE`` at import. The rules read only the arrays built from the table.
"""

from typing import NamedTuple

import numpy as np

from heist_envs.core.game import ComponentTable

NUM_PLAYERS_MIN, NUM_PLAYERS_MAX = 3, 5

# Dice faces (spec 2.1). Faces 0-3 are the gems, in the order G, W, B, R.
GREEN, WHITE, BLUE, RED, PURSE, MASK = 0, 1, 2, 3, 4, 5
NUM_FACES = 6
NUM_GEMS = 4
FACE_CODES = "GWBRPM"
FACE_NAMES = ("green", "white", "blue", "red", "purse", "mask")
DICE_IN_BOX = 13
DICE_BY_PLAYERS = np.array([0, 0, 0, 10, 11, 13], dtype=np.int8)  # indexed by player count

STARTING_GOLD = 1

# End-game majority awards (section 6): first and second place; gold has no second place.
HENCHMAN_FIRST, HENCHMAN_SECOND = 3, 1
GOLD_FIRST, GOLD_SECOND = 3, 0

# Decks and market (spec 2.2, 3, 4.7).
DECK_A, DECK_B, DECK_C = 0, 1, 2
NUM_DECKS = 3
DECK_LETTERS = "ABC"
DECK_TOTALS = (16, 19, 14)  # cards of each letter in the box
DECK_KEPT = np.array([13, 12, 11], dtype=np.int8)  # after the setup trim
MAX_DECK = 13
ROW_SIZE = 5
NUM_SLOTS = NUM_DECKS * ROW_SIZE  # slot = 5 * row + position

# Card icons (spec 2.3), in BGA order.
HENCHMAN, BUILDING, WAND, TOOLS, COMPASS, WISHLIST = 0, 1, 2, 3, 4, 5
NUM_ICONS = 6
ICON_NAMES = ("thief", "building", "wand", "tools", "compass", "wishlist")
ICON_TOTALS = (18, 4, 10, 9, 2, 7)  # wishlist 7 counts Big Haul (D31)
HENCHMAN_CARDS = 17

# Effect codes (spec 2.5).
VP = 0
CONVERT_DIE = 1
SPEND_DIE_FOR_INFAMY = 2
SPEND_DIE_FOR_GOLD = 3
GOLD_FOR_INFAMY = 4
EXTRA_BUY_IF_PILE_HAS = 5
EXTRA_BUY_AND_DISCOUNT = 6
INFAMY_ON_BUY_WITH = 7
INFAMY_IF_PAWN = 8
INFAMY_WHEN_STOLEN = 9
LUCKY_APPENDAGE = 10
BONUS_GOLD_ON_TURN_IN = 11
BONUS_INFAMY_ON_TURN_IN = 12
GAIN_TOP_CARD = 13
INFAMY_EQ_PILE_SIZE = 14
SAFEHOUSE = 15
VP_PER_WAND_PAIR = 16
VP_PER_OTHER_CARD = 17
VP_PER_INFAMY_PAIR = 18
TREASURE_MAP = 19
EFFECT_NAMES = (
    "VP",
    "CONVERT_DIE",
    "SPEND_DIE_FOR_INFAMY",
    "SPEND_DIE_FOR_GOLD",
    "GOLD_FOR_INFAMY",
    "EXTRA_BUY_IF_PILE_HAS",
    "EXTRA_BUY_AND_DISCOUNT",
    "INFAMY_ON_BUY_WITH",
    "INFAMY_IF_PAWN",
    "INFAMY_WHEN_STOLEN",
    "LUCKY_APPENDAGE",
    "BONUS_GOLD_ON_TURN_IN",
    "BONUS_INFAMY_ON_TURN_IN",
    "GAIN_TOP_CARD",
    "INFAMY_EQ_PILE_SIZE",
    "SAFEHOUSE",
    "VP_PER_WAND_PAIR",
    "VP_PER_OTHER_CARD",
    "VP_PER_INFAMY_PAIR",
    "TREASURE_MAP",
)
NUM_EFFECTS = len(EFFECT_NAMES)

G, W, B, R, P, M = GREEN, WHITE, BLUE, RED, PURSE, MASK


def faces(*fs):
    """A to-set: the bitmask over faces used by CONVERT_DIE."""
    return sum(1 << f for f in fs)


# CONVERT_DIE to-sets.
GWB, GWR, GBR, WBR, GWBR, PURSE_ONLY = (
    faces(G, W, B),
    faces(G, W, R),
    faces(G, B, R),
    faces(W, B, R),
    faces(G, W, B, R),
    faces(P),
)


class Card(NamedTuple):
    """One market card. ``cost`` like "1W 2R"; ``icons`` space-separated, repeated per icon."""

    id: int
    deck: str
    name: str
    cost: str
    icons: str
    vp: int
    effect: int
    pa: int = 0
    pb: int = 0


CARD_TABLE = (
    Card(1, "A", "Alchemical Lab", "2R", "wand", 0, CONVERT_DIE, R, GWB),
    Card(2, "A", "Bondsman", "2R", "thief", 0, CONVERT_DIE, R, PURSE_ONLY),
    Card(3, "A", "Coercion Coordinator", "1B", "thief", 0, SPEND_DIE_FOR_INFAMY, B, 1),
    Card(4, "A", "Corrupt Official", "1W", "thief", 0, EXTRA_BUY_IF_PILE_HAS, W),
    Card(5, "A", "Disgruntled Minion", "1R", "thief", 0, EXTRA_BUY_IF_PILE_HAS, R),
    Card(6, "A", "Fence", "2W", "thief", 0, CONVERT_DIE, W, PURSE_ONLY),
    Card(7, "A", "Glamer", "2B", "wand", 0, CONVERT_DIE, B, GWR),
    Card(8, "A", "Guy In a Trenchcoat", "1B", "thief", 0, EXTRA_BUY_IF_PILE_HAS, B),
    Card(9, "A", "Local Celebrity", "1W", "thief", 0, SPEND_DIE_FOR_INFAMY, W, 1),
    Card(10, "A", "Nearby Safehouse", "1G", "building", 0, SAFEHOUSE, 1, 2),
    Card(11, "A", "Necklace", "2W", "tools", 2, VP),
    Card(12, "A", "Pawnbroker", "2G", "thief", 0, CONVERT_DIE, G, PURSE_ONLY),
    Card(13, "A", "Philosopher's Stone", "2G", "wand", 0, CONVERT_DIE, G, WBR),
    Card(14, "A", "Public Relations Expert", "1G", "thief", 0, SPEND_DIE_FOR_INFAMY, G, 1),
    Card(15, "A", "Shadowy Hood", "2B", "wand", 2, VP),
    Card(16, "A", "Tailor", "1R", "thief", 0, SPEND_DIE_FOR_INFAMY, R, 1),
    Card(17, "B", "Anthropomorphic Water Buffalo", "1W 2R", "thief", 0, INFAMY_ON_BUY_WITH, R),
    Card(18, "B", "Bookie", "1W 1B", "thief", 0, CONVERT_DIE, B, PURSE_ONLY),
    Card(19, "B", "Brooch", "1G 1R", "tools", 3, VP),
    Card(20, "B", "Concealed Safehouse", "1W 1B", "building", 0, SAFEHOUSE, 2, 4),
    Card(21, "B", "Deceptive Bits of Colored Glass", "1G 1W", "tools", 0, CONVERT_DIE, W, GBR),
    Card(22, "B", "Easily Impressed Noble", "1G 2W", "thief", 0, INFAMY_ON_BUY_WITH, W),
    Card(23, "B", "Executive Assistant", "1G 1R", "thief thief", 0, EXTRA_BUY_IF_PILE_HAS, G),
    Card(24, "B", "Eyepatch of Command", "1W 1B 1R", "wand", 0, INFAMY_IF_PAWN),
    Card(25, "B", "Fortified Safehouse", "1W 1R", "building", 0, SAFEHOUSE, 2, 4),
    Card(26, "B", "Gauntlet of Evil Intent", "1G 1B 1R", "wand", 0, SPEND_DIE_FOR_GOLD, M, 1),
    Card(27, "B", "Imbalanced Scales", "1G 1W 1B", "tools", 0, BONUS_GOLD_ON_TURN_IN),
    Card(28, "B", "Legitimate Jeweller", "1G 1B 1R", "thief", 0, CONVERT_DIE, P, GWBR),
    Card(29, "B", "Lucky Animal Appendage", "1B 1R", "wand", 0, LUCKY_APPENDAGE),
    Card(30, "B", "Menacing Monocle", "1W 1R", "tools", 3, VP),
    Card(31, "B", "Provisioned Safehouse", "1B 1R", "building", 0, SAFEHOUSE, 2, 4),
    Card(32, "B", "Rumor-Monger", "2G 1W", "thief", 0, INFAMY_ON_BUY_WITH, G),
    Card(33, "B", "Sticky-Fingered Dockhand", "1G 2B", "thief", 0, INFAMY_ON_BUY_WITH, B),
    Card(34, "B", "Unlabeled Potion", "1B 1R", "wand", 0, GAIN_TOP_CARD),
    Card(35, "B", "Wicked Clutches", "1G 1W 1B", "wand", 0, INFAMY_WHEN_STOLEN),
    Card(36, "C", "Big Haul", "1G 1B", "wishlist", 0, INFAMY_EQ_PILE_SIZE),  # icon (default)
    Card(37, "C", "Collecting Golem", "2W 1R", "wand", 0, VP_PER_WAND_PAIR, 3),
    Card(38, "C", "Crown", "1W 2B", "tools", 6, VP),
    Card(39, "C", "Exit Strategy", "1G 1W 1R", "wishlist", 0, GOLD_FOR_INFAMY, 1, 2),
    Card(40, "C", "Fur Coat", "1B 1R", "tools", 4, VP),
    Card(41, "C", "Giant Belt Buckle", "2R", "tools", 4, VP),
    Card(42, "C", "Insurance Racket", "1G 1W 1R", "wishlist", 0, EXTRA_BUY_AND_DISCOUNT, 1, 1),
    Card(43, "C", "Island Estate", "1G 1W 1R", "wishlist", 0, BONUS_INFAMY_ON_TURN_IN),
    Card(44, "C", "Loyalty Program", "1G 1W 1B 1R", "wishlist", 0, VP_PER_OTHER_CARD, 1),
    Card(45, "C", "Political Campaign", "1G 1W 1B 1R", "wishlist", 0, VP_PER_INFAMY_PAIR, 1),
    Card(46, "C", "Scepter", "2W 1B", "tools", 6, VP),
    Card(47, "C", "The Heist", "1G 1W", "wishlist", 0, INFAMY_EQ_PILE_SIZE),
    Card(48, "C", "Treasure Map", "2G 1B", "compass", 0, TREASURE_MAP, 7, 5),
    Card(49, "C", "Treasure Map", "1G 2R", "compass", 0, TREASURE_MAP, 7, 5),
)
NUM_CARDS = 49

# Effects with no parameter, and effects the rules handle for a single card only.
_NO_PARAMETERS = (
    VP,
    INFAMY_IF_PAWN,
    INFAMY_WHEN_STOLEN,
    LUCKY_APPENDAGE,
    BONUS_GOLD_ON_TURN_IN,
    BONUS_INFAMY_ON_TURN_IN,
    GAIN_TOP_CARD,
    INFAMY_EQ_PILE_SIZE,
)
_AT_MOST_ONE_CARD = (GOLD_FOR_INFAMY, EXTRA_BUY_AND_DISCOUNT, LUCKY_APPENDAGE)


def parse_cost(text):
    """'1W 2R' -> [G, W, B, R] counts."""
    cost = [0] * NUM_GEMS
    for part in text.split():
        count, code = part[:-1], part[-1:]
        if not count.isdigit() or code not in FACE_CODES[:NUM_GEMS]:
            raise ValueError(f"bad cost {text!r}: use terms like '1W 2R' with gems G, W, B, R")
        cost[FACE_CODES.index(code)] += int(count)
    return cost


def parse_icons(text):
    """'thief thief' -> counts per icon, in ICON_NAMES order."""
    counts = [0] * NUM_ICONS
    for name in text.split():
        if name not in ICON_NAMES:
            raise ValueError(f"unknown icon {name!r}; allowed: {', '.join(ICON_NAMES)}")
        counts[ICON_NAMES.index(name)] += 1
    return counts


def _check_parameters(card, icons):
    """The effect's parameters make sense and fit the action table (spec 2.5, 8.2)."""
    code, pa, pb = card.effect, card.pa, card.pb
    if code in _NO_PARAMETERS:
        if pa or pb:
            return f"{EFFECT_NAMES[code]} takes no parameters, got pa={pa}, pb={pb}"
        if code == VP and card.vp <= 0:
            return "a VP card needs a positive VP value"
        return None
    if card.vp:
        return f"only VP cards print VP, got vp={card.vp} on {EFFECT_NAMES[code]}"
    if code == CONVERT_DIE:
        if not 0 <= pa < NUM_FACES or not 0 < pb < (1 << NUM_FACES) or pb >> pa & 1:
            return "CONVERT_DIE needs a face pa and a to-set pb of other faces"
        gem_to_gems = pa < NUM_GEMS and pb & ~GWBR == 0
        to_purse = pa < NUM_GEMS and pb == faces(PURSE)
        purse_to_gems = pa == PURSE and pb & ~GWBR == 0
        if not (gem_to_gems or to_purse or purse_to_gems):
            return "CONVERT_DIE must turn a gem into gems or purse, or a purse into gems"
    elif code in (SPEND_DIE_FOR_INFAMY, EXTRA_BUY_IF_PILE_HAS, INFAMY_ON_BUY_WITH):
        if not 0 <= pa < NUM_GEMS:
            return f"{EFFECT_NAMES[code]} needs a gem colour pa in 0..3, got {pa}"
        if code == SPEND_DIE_FOR_INFAMY and pb < 1:
            return "SPEND_DIE_FOR_INFAMY needs the infamy gained pb >= 1"
        if code != SPEND_DIE_FOR_INFAMY and pb:
            return f"{EFFECT_NAMES[code]} takes no pb, got {pb}"
    elif code == SPEND_DIE_FOR_GOLD:
        if pa != MASK or pb < 1:
            return "SPEND_DIE_FOR_GOLD spends a mask die (pa=5) for pb >= 1 gold"
    elif code == GOLD_FOR_INFAMY:
        if pa < 1 or pb < 1:
            return "GOLD_FOR_INFAMY needs gold paid pa >= 1 and infamy gained pb >= 1"
    elif code == EXTRA_BUY_AND_DISCOUNT:
        if pa < 0 or pb != 1:
            return "EXTRA_BUY_AND_DISCOUNT needs extra purchases pa >= 0 and waives pb = 1 gem"
    elif code == SAFEHOUSE:
        if pa < 0 or pb < 0 or icons[BUILDING] < 1:
            return "SAFEHOUSE needs VP values pa, pb >= 0 and its own building icon"
    elif code in (VP_PER_WAND_PAIR, VP_PER_OTHER_CARD, VP_PER_INFAMY_PAIR):
        if pa < 1 or pb:
            return f"{EFFECT_NAMES[code]} needs VP per unit pa >= 1 and no pb"
    elif code == TREASURE_MAP:
        if pa < 0 or pb < 0 or icons[COMPASS] < 1:
            return "TREASURE_MAP needs VP values pa, pb >= 0 and its own compass icon"
    else:
        return f"unknown effect code {code}; allowed: 0..{NUM_EFFECTS - 1}"
    return None


def validate_card_table(table):
    """Raise ValueError unless ``table`` is a consistent 49-card table (spec 2.3-2.5)."""
    if len(table) != NUM_CARDS:
        raise ValueError(f"the card table needs {NUM_CARDS} rows, got {len(table)}")
    deck_counts = [0] * NUM_DECKS
    icon_totals = [0] * NUM_ICONS
    henchman_cards = 0
    effect_counts = [0] * NUM_EFFECTS
    converts = set()
    spends = set()
    for i, card in enumerate(table):
        where = f"card table row {i} ({card.name!r})"
        if card.id != i + 1:
            raise ValueError(f"{where}: id must be {i + 1} (rows in id order), got {card.id}")
        if card.deck not in DECK_LETTERS:
            raise ValueError(f"{where}: deck must be one of A, B, C, got {card.deck!r}")
        try:
            cost = parse_cost(card.cost)
            icons = parse_icons(card.icons)
        except ValueError as error:
            raise ValueError(f"{where}: {error}") from None
        if sum(cost) < 1:
            raise ValueError(f"{where}: a card costs at least one gem")
        if card.vp < 0:
            raise ValueError(f"{where}: VP must be >= 0, got {card.vp}")
        if not 0 <= card.effect < NUM_EFFECTS:
            raise ValueError(f"{where}: unknown effect code {card.effect}")
        problem = _check_parameters(card, icons)
        if problem:
            raise ValueError(f"{where}: {problem}")
        if card.effect == CONVERT_DIE:
            for to in range(NUM_FACES):
                if card.pb >> to & 1:
                    if (card.pa, to) in converts:
                        raise ValueError(
                            f"{where}: two cards convert {FACE_CODES[card.pa]}->{FACE_CODES[to]};"
                            " each conversion has one action, so one card at most"
                        )
                    converts.add((card.pa, to))
        if card.effect in (SPEND_DIE_FOR_INFAMY, SPEND_DIE_FOR_GOLD):
            if card.pa in spends:
                raise ValueError(f"{where}: two cards spend {FACE_NAMES[card.pa]} dice")
            spends.add(card.pa)
        deck_counts[DECK_LETTERS.index(card.deck)] += 1
        icon_totals = [t + c for t, c in zip(icon_totals, icons, strict=True)]
        henchman_cards += icons[HENCHMAN] > 0
        effect_counts[card.effect] += 1
    if tuple(deck_counts) != DECK_TOTALS:
        raise ValueError(f"deck sizes A/B/C must be {DECK_TOTALS}, got {tuple(deck_counts)}")
    if tuple(icon_totals) != ICON_TOTALS:
        raise ValueError(
            f"icon totals {dict(zip(ICON_NAMES, icon_totals, strict=True))} differ from "
            f"the rulebook's {dict(zip(ICON_NAMES, ICON_TOTALS, strict=True))}"
        )
    if henchman_cards != HENCHMAN_CARDS:
        raise ValueError(f"henchman icons must sit on {HENCHMAN_CARDS} cards, not {henchman_cards}")
    for code in _AT_MOST_ONE_CARD:
        if effect_counts[code] > 1:
            raise ValueError(f"at most one {EFFECT_NAMES[code]} card, got {effect_counts[code]}")


def card_arrays(table):
    """The per-card arrays the rules read, from a validated table (index = id - 1)."""
    return (
        np.array([DECK_LETTERS.index(c.deck) for c in table], dtype=np.int8),
        np.array([parse_cost(c.cost) for c in table], dtype=np.int8),
        np.array([parse_icons(c.icons) for c in table], dtype=np.int8),
        np.array([c.vp for c in table], dtype=np.int8),
        np.array([c.effect for c in table], dtype=np.int8),
        np.array([c.pa for c in table], dtype=np.int8),
        np.array([c.pb for c in table], dtype=np.int8),
    )


def _card_lookups(effect, pa, pb):
    """Which card (index, or -1) powers each face-indexed ability of the action table."""
    converter = np.full((NUM_FACES, NUM_FACES), -1, dtype=np.int8)  # [from, to]
    spender = np.full(NUM_FACES, -1, dtype=np.int8)  # SPEND_DIE_FOR_INFAMY / _GOLD by face
    for x in range(len(effect)):
        if effect[x] == CONVERT_DIE:
            for to in range(NUM_FACES):
                if pb[x] >> to & 1:
                    converter[pa[x], to] = x
        elif effect[x] in (SPEND_DIE_FOR_INFAMY, SPEND_DIE_FOR_GOLD):
            spender[pa[x]] = x
    return converter, spender


def _cards_with(effect, code):
    return np.array([x for x in range(len(effect)) if effect[x] == code], dtype=np.int8)


def _the_card_with(effect, code):
    """The index of the one card with this effect, or -1 when no card has it."""
    cards = _cards_with(effect, code)
    return int(cards[0]) if len(cards) else -1


#: each effect's text, from the card's parameters (faces by name, a to-set as names)
EFFECT_TEXT = {
    "VP": "{vp} VP at the end",
    "CONVERT_DIE": "once a round: turn one {pa} die of your pile to {pb}",
    "SPEND_DIE_FOR_INFAMY": "once a round: spend one {pa} die of your pile for {pb} infamy",
    "SPEND_DIE_FOR_GOLD": "once a round: spend one {pa} die of your pile for {pb} gold",
    "GOLD_FOR_INFAMY": "in your purchase turn, as often as you like: pay {pa} gold for {pb} infamy",
    "EXTRA_BUY_IF_PILE_HAS": "+1 purchase in a round whose divide left a {pa} die in your pile",
    "EXTRA_BUY_AND_DISCOUNT": "+1 purchase every round; each later purchase costs one gem less "
    "(your choice)",
    "INFAMY_ON_BUY_WITH": "+1 infamy each time you buy a card with {pa} in its cost (this one "
    "included)",
    "INFAMY_IF_PAWN": "+1 infamy if you hold the pawn at the end of a divide",
    "INFAMY_WHEN_STOLEN": "+1 infamy each time your pile is stolen",
    "LUCKY_APPENDAGE": "dice given back from your stolen pile keep their faces; at the start "
    "of purchases you may reroll one die of your pile",
    "BONUS_GOLD_ON_TURN_IN": "+1 gold at the end of a round in which you turn in a purse die",
    "BONUS_INFAMY_ON_TURN_IN": "+1 infamy at the end of a round in which you turn in a mask die",
    "GAIN_TOP_CARD": "when bought it goes back to the box, and you gain the top card of the "
    "newest open deck for free",
    "INFAMY_EQ_PILE_SIZE": "when gained: 1 infamy per object your pile held at the end of "
    "this round's divide",
    "SAFEHOUSE": "at the end: {pa} VP if you own one building icon, {pb} VP with two or more",
    "VP_PER_WAND_PAIR": "at the end: {pa} VP per pair of wand icons you own",
    "VP_PER_OTHER_CARD": "at the end: {pa} VP per other card you own",
    "VP_PER_INFAMY_PAIR": "at the end: {pa} VP per 2 infamy",
    "TREASURE_MAP": "at the end: {pa} VP, or {pb} VP if another player owns a compass card",
}


def effect_text(card: Card) -> str:
    """What a Thief's Market card does, from its effect code and parameters."""
    code = EFFECT_NAMES[card.effect]
    pa, pb = card.pa, card.pb
    face_first = ("SPEND_DIE_FOR_INFAMY", "SPEND_DIE_FOR_GOLD", "EXTRA_BUY_IF_PILE_HAS")
    if code in ("CONVERT_DIE", "INFAMY_ON_BUY_WITH", *face_first):
        pa = FACE_NAMES[pa]
    if code == "CONVERT_DIE":
        to_faces = [FACE_NAMES[f] for f in range(NUM_FACES) if card.pb >> f & 1]
        pb = " or ".join(to_faces)
    return EFFECT_TEXT[code].format(vp=card.vp, pa=pa, pb=pb)


validate_card_table(CARD_TABLE)
CARD_NAMES = tuple(c.name for c in CARD_TABLE)
CARD_DECK, CARD_COST, CARD_ICONS, CARD_VP, EFFECT, PA, PB = card_arrays(CARD_TABLE)
CONVERTER, SPENDER = _card_lookups(EFFECT, PA, PB)
EXTRA_BUY_CARDS = _cards_with(EFFECT, EXTRA_BUY_IF_PILE_HAS)
ON_BUY_CARDS = _cards_with(EFFECT, INFAMY_ON_BUY_WITH)
PAWN_INFAMY_CARDS = _cards_with(EFFECT, INFAMY_IF_PAWN)
STOLEN_INFAMY_CARDS = _cards_with(EFFECT, INFAMY_WHEN_STOLEN)
TURN_IN_GOLD_CARDS = _cards_with(EFFECT, BONUS_GOLD_ON_TURN_IN)
TURN_IN_INFAMY_CARDS = _cards_with(EFFECT, BONUS_INFAMY_ON_TURN_IN)
EXIT_STRATEGY_CARD = _the_card_with(EFFECT, GOLD_FOR_INFAMY)
CARD_TEXTS = tuple(effect_text(c) for c in CARD_TABLE)  # what each card does, for people
INSURANCE_CARD = _the_card_with(EFFECT, EXTRA_BUY_AND_DISCOUNT)
LUCKY_CARD = _the_card_with(EFFECT, LUCKY_APPENDAGE)


def check_components():
    """Assert the rulebook's totals on the arrays (run at import)."""
    assert CARD_DECK.shape == (NUM_CARDS,)
    assert np.bincount(CARD_DECK, minlength=NUM_DECKS).tolist() == [16, 19, 14]
    assert CARD_ICONS.sum(axis=0).tolist() == [18, 4, 10, 9, 2, 7]
    assert (CARD_ICONS[:, HENCHMAN] > 0).sum() == 17
    assert DECK_KEPT.tolist() == [13, 12, 11] and DECK_KEPT.max() == MAX_DECK
    assert DICE_BY_PLAYERS[3:].tolist() == [10, 11, 13] and DICE_BY_PLAYERS.max() == DICE_IN_BOX
    assert (CARD_COST.sum(axis=1) >= 1).all()


check_components()


def component_tables() -> list[ComponentTable]:
    """The market cards with what each does, for the docs page."""
    return [
        ComponentTable(
            f"The {NUM_CARDS} market cards (costs in gems: `G` green, `W` white, `B` blue, "
            "`R` red; each card exists once, Treasure Map twice):",
            ["id", "deck", "card", "cost", "icons", "effect"],
            [
                (card.id, card.deck, card.name, card.cost, card.icons, effect_text(card))
                for card in CARD_TABLE
            ],
        )
    ]
