"""What one seat may know, as a flat int8 vector with named parts (``LAYOUT``).

Seats are relative: index 0 is the observer, 1 the next seat clockwise, and so on. Perfect
recall of public events is kept as counts (cards each seat played, every token's holder).
``LEGEND`` says how each part reads (its entries' labels, its seats), for the text view
(:mod:`heist_envs.core.layout`).
"""

import numba as nb
import numpy as np

from heist_envs.core.layout import (
    EACH_SEAT,
    build_layout,
    count,
    flag,
    legend,
    number,
    one_hot,
    player_count,
)

from .actions import token_name
from .components import (
    CARD_NAMES,
    NUM_CARD_TYPES,
    NUM_PLAYERS_MAX,
    NUM_PLAYERS_MIN,
    NUM_RAIDS,
    RAID_NAMES,
    TOKEN_ALIBIS,
    TOKEN_VALUES,
    TOKENS_PER_RAID,
)
from .state import BOX, CENTRE, NOBODY, NUM_PHASES, PHASE_NAMES

# A token's location as one-hot: centre, box, then relative seats 0..4.
TOKEN_PLACES = 2 + NUM_PLAYERS_MAX

LAYOUT, OBS_SIZE = build_layout(
    [
        ("hand", NUM_CARD_TYPES),  # own card counts
        ("discard", NUM_CARD_TYPES),  # discard pile counts
        ("draw_pile_size", 1),
        ("raid", NUM_RAIDS),  # one-hot
        ("phase", NUM_PHASES),  # one-hot: play, token, dog, game over
        ("turn_player", NUM_PLAYERS_MAX),  # one-hot relative seat whose turn it is
        ("actor", NUM_PLAYERS_MAX),  # one-hot relative seat who decides now
        ("pending_card", NUM_CARD_TYPES),  # one-hot card played this turn
        ("pending_token", TOKENS_PER_RAID),  # one-hot slot being stolen (dog phase)
        ("offered", TOKENS_PER_RAID),  # slots offered (token phase)
        ("dog", 1 + NUM_PLAYERS_MAX),  # one-hot: centre, relative seats
        ("tokens", NUM_RAIDS * TOKENS_PER_RAID * TOKEN_PLACES),  # [raid, slot, place] one-hot
        ("played", NUM_PLAYERS_MAX * NUM_CARD_TYPES),  # [relative seat, card] counts
        ("loot_value", NUM_PLAYERS_MAX),  # token values held, relative seats
        ("alibis", NUM_PLAYERS_MAX),  # alibi dots held, relative seats
        ("reshuffled", 1),
        ("reshuffle_counts", NUM_CARD_TYPES),  # the pile's composition when last reshuffled
        ("drawn_since_reshuffle", NUM_CARD_TYPES),  # own draws from that pile
        ("num_players", NUM_PLAYERS_MAX - NUM_PLAYERS_MIN + 1),  # one-hot 2..5
    ]
)
OBS_DTYPE = np.int8


def token_text(raid, slot):
    """A token by raid and slot, with its alibi dots: "Sketches 0 token (slot 0) with 1 alibi"."""
    alibis = int(TOKEN_ALIBIS[raid, slot])
    dots = f" with {alibis} alibi" + "s" * (alibis > 1) if alibis else ""
    return token_name(slot, raid) + dots


SLOTS = tuple(token_name(slot) for slot in range(TOKENS_PER_RAID))
TOKENS = tuple(token_text(r, i) for r in range(NUM_RAIDS) for i in range(TOKENS_PER_RAID))
LEGEND = legend(
    LAYOUT,
    {
        "hand": count("your hand", CARD_NAMES),
        "discard": count("discard pile", CARD_NAMES),
        "draw_pile_size": number("cards in the draw pile"),
        "raid": one_hot(
            "raid", [f"{r + 1} of {NUM_RAIDS} ({name})" for r, name in enumerate(RAID_NAMES)]
        ),
        "phase": one_hot("phase", PHASE_NAMES),
        "turn_player": one_hot("whose turn", (EACH_SEAT,)),
        "actor": one_hot("who decides now", (EACH_SEAT,)),
        "pending_card": one_hot("card played this turn", CARD_NAMES),
        "pending_token": one_hot("token being stolen", SLOTS),
        "offered": count("tokens you may take", SLOTS),
        "dog": one_hot("Guard Dog pawn", ("centre", EACH_SEAT)),
        "tokens": one_hot("tokens", TOKENS, ("centre", "box", EACH_SEAT), by_value=True),
        "played": count("cards played", (EACH_SEAT,), CARD_NAMES),
        "loot_value": number("token points held", (EACH_SEAT,)),
        "alibis": number("alibi dots held", (EACH_SEAT,)),
        "reshuffled": flag("discard pile reshuffled into a new draw pile"),
        "reshuffle_counts": count("the draw pile's cards when last reshuffled", CARD_NAMES),
        "drawn_since_reshuffle": count("cards you drew from the current draw pile", CARD_NAMES),
        "num_players": player_count(NUM_PLAYERS_MIN, NUM_PLAYERS_MAX),
    },
    seats=NUM_PLAYERS_MAX,
    relative=True,
    players="num_players",
)
_COUNT_MAX = 127  # play counts saturate in the int8 observation

_HAND = LAYOUT["hand"].start
_DISCARD = LAYOUT["discard"].start
_PILE = LAYOUT["draw_pile_size"].start
_RAID = LAYOUT["raid"].start
_PHASE = LAYOUT["phase"].start
_TURN = LAYOUT["turn_player"].start
_ACTOR = LAYOUT["actor"].start
_CARD = LAYOUT["pending_card"].start
_PENDING = LAYOUT["pending_token"].start
_OFFERED = LAYOUT["offered"].start
_DOG = LAYOUT["dog"].start
_TOKENS = LAYOUT["tokens"].start
_PLAYED = LAYOUT["played"].start
_VALUE = LAYOUT["loot_value"].start
_ALIBIS = LAYOUT["alibis"].start
_RESHUFFLED = LAYOUT["reshuffled"].start
_RESHUFFLE = LAYOUT["reshuffle_counts"].start
_DRAWN = LAYOUT["drawn_since_reshuffle"].start
_NUM_PLAYERS = LAYOUT["num_players"].start


@nb.njit(cache=True, inline="always")
def relative(q, seat, n):
    """Seat q as seen from ``seat`` (0 = itself), without a division."""
    rel = q - seat
    return rel + n if rel < 0 else rel


@nb.njit(cache=True)
def observe(s, seat, out):
    n = np.int64(s.num_players)  # int64 index arithmetic (int8 overflows un-jitted)
    out[:] = 0
    for t in range(NUM_CARD_TYPES):
        out[_HAND + t] = s.hands[seat, t]
        out[_DISCARD + t] = s.discard[t]
        out[_RESHUFFLE + t] = s.reshuffle_counts[t]
        out[_DRAWN + t] = s.drawn_since[seat, t]
    out[_PILE] = s.deck_size
    if s.raid < NUM_RAIDS:
        out[_RAID + s.raid] = 1
    out[_PHASE + s.phase] = 1
    out[_TURN + relative(s.turn_player, seat, n)] = 1
    if s.actor >= 0:
        out[_ACTOR + relative(s.actor, seat, n)] = 1
    if s.pending_card >= 0:
        out[_CARD + s.pending_card] = 1
    if s.pending_token >= 0:
        out[_PENDING + s.pending_token] = 1
    for i in range(TOKENS_PER_RAID):
        out[_OFFERED + i] = s.offered[i]
    out[_DOG + (0 if s.dog == NOBODY else 1 + relative(s.dog, seat, n))] = 1
    for r in range(NUM_RAIDS):
        for i in range(TOKENS_PER_RAID):
            holder = s.token_loc[r, i]
            base = _TOKENS + (r * TOKENS_PER_RAID + i) * TOKEN_PLACES
            if holder == CENTRE:
                out[base] = 1
            elif holder == BOX:
                out[base + 1] = 1
            elif holder >= 0:
                rel = relative(np.int64(holder), seat, n)
                out[base + 2 + rel] = 1
                out[_VALUE + rel] += TOKEN_VALUES[i]
                out[_ALIBIS + rel] += TOKEN_ALIBIS[r, i]
    for q in range(n):
        rel = relative(q, seat, n)
        for t in range(NUM_CARD_TYPES):
            out[_PLAYED + rel * NUM_CARD_TYPES + t] = min(s.played[q, t], _COUNT_MAX)
    out[_RESHUFFLED] = s.reshuffled
    out[_NUM_PLAYERS + n - NUM_PLAYERS_MIN] = 1
