"""How to Rob a Bank's components as data (spec section 2; values marked (default) there).

Replace a table here to use real component data; the rules read only these arrays.
``check_components`` runs on the tables at import and raises ``ComponentError`` when they
break the rulebook's totals (15 cards a deck, 10 tiles with 9 in play, 7 bags, ...).
"""

import numpy as np

from heist_envs.core.game import ComponentTable

NUM_PLAYERS_MIN, NUM_PLAYERS_MAX = 2, 4
MAX_SEATS = 4  # bank + 3 robbers
MAX_ROBBERS = 3
MAX_GUARDS = 3
NUM_ROUNDS = 3
NUM_CYCLES = 5  # cards planned and played per player and round
HAND_SIZE = 8
DECK_SIZE = 15
NUM_BAGS = 7
TARGET_2_3, TARGET_4 = 4, 5  # stolen bags the robbers need
ROBBER_COLOURS = ("yellow", "red", "green")

# ---- Geometry (spec section 3) ----------------------------------------------------------
N_ROOMS = 9  # room r = 3 * row + col, row 0 north, col 0 west
N, E, S, W = 0, 1, 2, 3
DIRECTION_NAMES = ("N", "E", "S", "W")
NO_WALL = -1


def _neighbour(r, d):
    row, col = divmod(r, 3)
    row += (-1, 0, 1, 0)[d]
    col += (0, 1, 0, -1)[d]
    return 3 * row + col if 0 <= row < 3 and 0 <= col < 3 else -1


NEIGHBOUR = np.array([[_neighbour(r, d) for d in range(4)] for r in range(N_ROOMS)], np.int8)

# ---- Room tiles (spec 2.2) ---------------------------------------------------------------
N_TILES = 10
TILE_NAMES = ("T1", "T2", "T3", "T4", "T5", "T6", "T7", "T8", "P23", "P4")
#: what a tile's printed symbol means, and the pieces on the board (the web table's legend)
SYMBOL_TEXTS = {
    "mask": "the robbers start the round in this room",
    "badge": "a guard starts the round here",
    "bag": "a bag is put here at the start of the round",
    "alarm": "the alarm starts the round here",
}
PIECE_TEXTS = {
    "T1-T8, P23, P4": "the room's tile (P23 is in play at 2-3 players, P4 at 4); "
    "a dark edge is a thick wall",
    "G0, G1, ...": "a guard (its number); faded and turned when knocked out",
    "Y, R, G (round)": "the yellow, red and green robber; faded and turned when knocked out; "
    "+n: carrying n bags",
    "$": "a bag on the floor; grey when locked",
    "s0-s11": "street spaces, clockwise from the north-west; ? a space the robbers may pick",
    "VAN": "the getaway vehicle: a bag thrown into it is stolen",
}
TILE_BAGS = np.array([0, 0, 1, 1, 1, 0, 0, 0, 1, 0], np.int8)
TILE_BADGES = np.array([0, 0, 0, 0, 0, 1, 1, 0, 0, 1], np.int8)
TILE_ALARM = np.array([0, 1, 0, 0, 0, 0, 0, 0, 0, 0], np.int8)
TILE_MASK = np.array([1, 0, 0, 0, 0, 0, 0, 0, 0, 0], np.int8)
TILE_WALL = np.array([-1, -1, N, -1, E, S, -1, W, -1, -1], np.int8)  # side at rotation 0
# Which player counts use the tile: index [0] for 2-3 players, [1] for 4 players.
TILE_IN_PLAY = np.array(
    [
        [1, 1, 1, 1, 1, 1, 1, 1, 1, 0],
        [1, 1, 1, 1, 1, 1, 1, 1, 0, 1],
    ],
    np.int8,
)

# ---- Cards (spec 2.3) --------------------------------------------------------------------
# Slot kinds, and the verbs (action families) each accepts.
MOVE, CRAWL, PICKUP, UNLOCK, SPRAY, SPRAY_OR_PICKUP, UNLOCK_OR_PICKUP = 0, 1, 2, 3, 4, 5, 6
GMOVE, LOCK, TACKLE, TACKLE_OR_LOCK = 7, 8, 9, 10
N_SLOT_KINDS = 11
SLOT_KIND_NAMES = (
    "Move",
    "Crawl",
    "Pick up",
    "Unlock",
    "Pepper spray",
    "Spray or Pick up",
    "Unlock or Pick up",
    "Guard move",
    "Lock",
    "Tackle",
    "Tackle or Lock",
)
V_MOVE, V_CRAWL, V_PICKUP, V_UNLOCK, V_SPRAY = 1, 2, 4, 8, 16
V_GMOVE, V_LOCK, V_TACKLE = 32, 64, 128
SLOT_VERBS = np.array(
    [
        V_MOVE,
        V_CRAWL,
        V_PICKUP,
        V_UNLOCK,
        V_SPRAY,
        V_SPRAY | V_PICKUP,
        V_UNLOCK | V_PICKUP,
        V_GMOVE,
        V_LOCK,
        V_TACKLE,
        V_TACKLE | V_LOCK,
    ],
    np.int16,
)
SLOT_IS_OR = np.array([0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 1], np.int8)
SLOT_MANDATORY = np.array([1, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0], np.int8)  # D13
SLOT_SIDE = np.array([1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0], np.int8)  # 0 bank, 1 robbers

BANK, ROBBERS = 0, 1  # sides; CARD_SLOTS and the names are indexed by side
SIDE_NAMES = ("bank", "robbers")  # the teams of Game.teams, in side order


def side_of(seat):
    """The side of a seat: the bank's seat 0, or the robbers'."""
    return BANK if seat == 0 else ROBBERS


N_CARD_TYPES = 8  # per side (PLAN_0..PLAN_7)
MAX_SLOTS = 3
CARD_NAMES = (
    ("Move", "Double move", "Lock", "Tackle", "Tackle or Lock"),
    (
        "Move",
        "Pick up",
        "Unlock",
        "Pepper spray",
        "Crawl",
        "Spray or Pick up",
        "Unlock or Pick up",
    ),
)
_BANK_CARDS = ((GMOVE,), (GMOVE, GMOVE), (LOCK,), (TACKLE,), (TACKLE_OR_LOCK,))
_ROBBER_CARDS = (
    (MOVE,),
    (PICKUP,),
    (UNLOCK,),
    (SPRAY,),
    (CRAWL,),
    (SPRAY_OR_PICKUP,),
    (UNLOCK_OR_PICKUP,),
)


def _slot_table(cards_by_side):
    table = np.full((2, N_CARD_TYPES, MAX_SLOTS), -1, np.int8)
    for side, cards in enumerate(cards_by_side):
        for t, slots in enumerate(cards):
            table[side, t, : len(slots)] = slots
    return table


CARD_SLOTS = _slot_table((_BANK_CARDS, _ROBBER_CARDS))  # [side, type, slot], -1 = empty
_BANK_DECK = [4, 3, 2, 3, 3, 0, 0, 0]
_ROBBER_DECK = [5, 2, 2, 2, 1, 2, 1, 0]
DECK_COUNTS = np.array([_BANK_DECK, _ROBBER_DECK, _ROBBER_DECK, _ROBBER_DECK], np.int8)  # per seat

# ---- Avenue (spec 2.5): street spaces clockwise from the north-west ---------------------
N_SPACES = 12
SPACE_ROOM = np.array([0, 1, 2, 2, 5, 8, 8, 7, 6, 6, 3, 0], np.int8)  # -1: a corner square
SPACE_SIDE = np.array([N, N, N, E, E, E, S, S, S, W, W, W], np.int8)
CORNER_ROOMS = (0, 2, 6, 8)


class ComponentError(ValueError):
    """Component tables that break the rulebook's totals."""


def faced_spaces(space_room, room):
    """F(room): the street spaces facing ``room``, in ring order."""
    return [i for i in range(len(space_room)) if space_room[i] == room]


def _ring_pair(space_room, spaces):
    """Two spaces of one street corner as (a, b), b the next clockwise after a."""
    n = len(space_room)
    a, b = spaces
    return (a, b) if (b - a) % n <= (a - b) % n else (b, a)


def vehicle_candidates(space_room, mask_room):
    """The vehicle's candidate spaces when the robbers start in ``mask_room`` (spec 4.2)."""
    n = len(space_room)
    faced = faced_spaces(space_room, mask_room)

    def distance(i):
        return min(min((i - f) % n, (f - i) % n) for f in faced)

    best = max(distance(i) for i in range(n))
    far = [i for i in range(n) if distance(i) == best]
    if len(far) == 1 and space_room[far[0]] < 0:  # a corner square: the spaces beside it
        far = [(far[0] - 1) % n, (far[0] + 1) % n]
    return _ring_pair(space_room, far) if len(far) == 2 else (far[0], -1)


def street_corner(space_room, corner_room):
    """The two street spaces of a corner room, (a, b) with b clockwise of a (spec 3.3)."""
    return _ring_pair(space_room, faced_spaces(space_room, corner_room))


def check_components(
    tile_bags=TILE_BAGS,
    tile_badges=TILE_BADGES,
    tile_alarm=TILE_ALARM,
    tile_mask=TILE_MASK,
    tile_wall=TILE_WALL,
    tile_in_play=TILE_IN_PLAY,
    card_slots=CARD_SLOTS,
    deck_counts=DECK_COUNTS,
    space_room=SPACE_ROOM,
    space_side=SPACE_SIDE,
):
    """Raise ``ComponentError`` unless the tables keep the rulebook's totals (spec 2, 1)."""

    def require(ok, what):
        if not ok:
            raise ComponentError(f"how_to_rob_a_bank components: {what}")

    tiles = (tile_bags, tile_badges, tile_alarm, tile_mask, tile_wall)
    require(all(len(t) == N_TILES for t in tiles), f"every tile table needs {N_TILES} entries")
    require(all(-1 <= w <= 3 for w in tile_wall), "a wall side is -1 (none) or 0..3 (N, E, S, W)")
    require(sum(w >= 0 for w in tile_wall) == 4, "exactly 4 tiles have a thick wall")
    require(np.shape(tile_in_play) == (2, N_TILES), "tile_in_play is [2, 10]")
    for i, (guards, target) in enumerate(((2, TARGET_2_3), (3, TARGET_4))):
        used = np.asarray(tile_in_play[i], bool)
        who = ("2-3", "4")[i]
        require(used.sum() == N_ROOMS, f"{N_ROOMS} tiles are in play at {who} players")
        require(np.asarray(tile_mask)[used].sum() == 1, f"one mask room at {who} players")
        require(np.asarray(tile_alarm)[used].sum() == 1, f"one alarm room at {who} players")
        badges = np.asarray(tile_badges)[used].sum()
        require(badges == guards, f"{guards} guard badges in play at {who} players")
        bags = int(np.asarray(tile_bags)[used].sum())
        require(
            1 <= bags <= NUM_BAGS - (target - 1),
            f"bags per round at {who} players must fit the {NUM_BAGS} tokens",
        )
    require(np.shape(card_slots) == (2, N_CARD_TYPES, MAX_SLOTS), "card_slots is [2, 8, 3]")
    for side in (BANK, ROBBERS):
        for t in range(N_CARD_TYPES):
            for kind in card_slots[side][t]:
                require(
                    kind == -1 or (0 <= kind < N_SLOT_KINDS and SLOT_SIDE[kind] == side),
                    f"card type {t} of side {side} holds a slot kind of the other side",
                )
    require(np.shape(deck_counts) == (MAX_SEATS, N_CARD_TYPES), "deck_counts is [4, 8]")
    for seat in range(MAX_SEATS):
        counts = np.asarray(deck_counts[seat])
        require((counts >= 0).all(), f"seat {seat}'s deck has a negative count")
        require(counts.sum() == DECK_SIZE, f"seat {seat}'s deck has {DECK_SIZE} cards")
        side = side_of(seat)
        for t in range(N_CARD_TYPES):
            if counts[t]:
                require(
                    any(kind >= 0 for kind in card_slots[side][t]),
                    f"seat {seat}'s deck holds card type {t}, which has no slot",
                )
    require(len(space_room) == len(space_side) >= 4, "space_room and space_side match")
    for i in range(len(space_room)):
        room = space_room[i]
        require(
            room == -1 or (0 <= room < N_ROOMS and _neighbour(room, space_side[i]) == -1),
            f"street space {i} must face its room across an outer side",
        )
    for room in range(N_ROOMS):
        row, col = divmod(room, 3)
        outer = (row != 1) + (col != 1)
        require(
            len(faced_spaces(space_room, room)) == outer,
            f"room {room} must face {outer} street space(s)",
        )


check_components()

CENTRE_ROOM = 4  # faces no street space: the bank picks a street corner (SETUP_CORNER)
# [mask room] -> candidate spaces (a, b) with b clockwise of a; (a, -1) when only one.
VEHICLE_CANDIDATES = np.array(
    [vehicle_candidates(SPACE_ROOM, r) if r != CENTRE_ROOM else (-1, -1) for r in range(N_ROOMS)],
    np.int8,
)
STREET_CORNERS = np.array([street_corner(SPACE_ROOM, c) for c in CORNER_ROOMS], np.int8)


def tile_symbols(tile) -> list[str]:
    """The symbols printed on a room tile: mask, alarm, bag, guard badge."""
    symbols = ["mask"] * TILE_MASK[tile] + ["alarm"] * TILE_ALARM[tile]
    return symbols + ["bag"] * TILE_BAGS[tile] + ["guard badge"] * TILE_BADGES[tile]


def component_tables() -> list[ComponentTable]:
    """The room tiles and each side's deck, for the docs page."""
    rows = []
    for t, name in enumerate(TILE_NAMES):
        symbols = tile_symbols(t)
        wall = TILE_WALL[t]
        counts = [label for i, label in enumerate(("2-3", "4")) if TILE_IN_PLAY[i, t]]
        rows.append(
            (
                f"`{name}`",
                ", ".join(symbols) or "nothing",
                DIRECTION_NAMES[wall] if wall >= 0 else "none",
                " and ".join(counts) + " players",
            )
        )
    tables = [
        ComponentTable(
            "Room tiles (nine in play; a thick wall's side as printed, before any turn):",
            ["tile", "symbols", "thick wall", "in play at"],
            rows,
        )
    ]
    for side, (who, seat) in enumerate((("The bank's", 0), ("Each robber's", 1))):
        rows = []
        for t, name in enumerate(CARD_NAMES[side]):
            slots = [SLOT_KIND_NAMES[k] for k in CARD_SLOTS[side, t] if k >= 0]
            rows.append((name, " + ".join(slots), int(DECK_COUNTS[seat, t])))
        tables.append(
            ComponentTable(f"{who} deck of 15 cards:", ["card", "actions", "in the deck"], rows)
        )
    return tables
