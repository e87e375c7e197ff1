"""What one seat may know, as a flat int16 vector with named parts (``LAYOUT``).

Seats are relative: index 0 is the observer, 1 the next seat clockwise, and so on; parts
per seat are laid out seat by seat (``[relative seat, ...]``). Everything but the decks'
order, the trimmed cards and the RNG is public (spec 7), other seats' infamy included (D19).
``LEGEND`` says how each part reads (its entries' labels, its seats), for the text view
(:mod:`heist_envs.core.layout`).
"""

import numba as nb
import numpy as np

from heist_envs.core.layout import (
    EACH_SEAT,
    build_layout,
    code,
    count,
    flag,
    legend,
    number,
    one_hot,
    player_count,
)

from .actions import slot_name
from .components import (
    CARD_TEXTS,
    DECK_LETTERS,
    FACE_NAMES,
    NUM_CARDS,
    NUM_DECKS,
    NUM_FACES,
    NUM_GEMS,
    NUM_PLAYERS_MAX,
    NUM_PLAYERS_MIN,
    NUM_SLOTS,
)
from .render import card_text
from .rules import allowed_buys, pile_size
from .state import DISCARDED, IN_CENTRE, IN_RETURN_BUFFER, NUM_STAGES, STAGE_NAMES

SEATS = NUM_PLAYERS_MAX

LAYOUT, OBS_SIZE = build_layout(
    [
        ("seat_in_game", SEATS),  # 1 for the relative seats that play
        ("gold", SEATS),
        ("infamy", SEATS),
        ("pile", SEATS * NUM_FACES),  # [seat, face] dice counts
        ("pile_size", SEATS),  # objects: dice plus the pawn
        ("has_pawn", SEATS),
        ("owned", SEATS * NUM_CARDS),  # [seat, card] 1 if owned
        ("snap_gem", SEATS * NUM_GEMS),  # [seat, gem] end-of-Divide snapshot
        ("snap_size", SEATS),
        ("allowed_buys", SEATS),  # purchases allowed this round from cards and snapshot
        ("centre", NUM_FACES),  # dice counts
        ("pawn_in_centre", 1),
        ("return_buffer", NUM_FACES),  # dice a thief is returning
        ("pawn_in_return_buffer", 1),
        ("steal_victim", SEATS),  # one-hot relative seat whose pile was just stolen
        ("takes", 1),  # take actions this round
        ("steals", 1),  # steals this round
        ("market", NUM_SLOTS * NUM_CARDS),  # [slot, card] one-hot, slot = 5 * row + position
        ("market_card", NUM_SLOTS),  # card id 1..49 per slot, 0 = empty
        ("used", NUM_CARDS),  # once-per-round abilities used this round
        ("discarded", NUM_CARDS),  # cards known to be in the box (the bought Potion)
        ("deck_sizes", NUM_DECKS),
        ("newest_row", NUM_DECKS),  # one-hot A, B, C
        ("round", 1),
        ("rounds_left", 1),  # before truncation (D23)
        ("stage", NUM_STAGES),  # one-hot (state.STAGE_NAMES)
        ("actor", SEATS),  # one-hot relative seat who decides now
        ("first_player", SEATS),  # one-hot relative seat: first to act, pawn holder after Divide
        ("turns_done", 1),  # purchase turns finished this round
        ("buys_made", 1),  # purchases in the current purchase turn
        ("pending_card", NUM_CARDS),  # one-hot card being paid for
        ("need", NUM_GEMS),  # gems still to pay for it
        ("num_players", NUM_PLAYERS_MAX - NUM_PLAYERS_MIN + 1),  # one-hot 3..5
    ]
)
OBS_DTYPE = np.int16

#: every card as the render writes it: name, cost in gems and VP ("Crown (1W 2B, 6 VP)");
#: where a card is on offer, with what it does
CARDS = tuple(card_text(x) for x in range(NUM_CARDS))
OFFERED = tuple(f"{card_text(x)} — {CARD_TEXTS[x]}" for x in range(NUM_CARDS))
SLOTS = tuple(slot_name(slot) for slot in range(NUM_SLOTS))
GEMS = FACE_NAMES[:NUM_GEMS]
DECKS = tuple(f"deck {letter}" for letter in DECK_LETTERS)
LEGEND = legend(
    LAYOUT,
    {
        "seat_in_game": count("players in the game", (EACH_SEAT,)),
        "gold": number("gold", (EACH_SEAT,)),
        "infamy": number("infamy", (EACH_SEAT,)),
        "pile": count("dice in each pile", (EACH_SEAT,), FACE_NAMES),
        "pile_size": number("objects in each pile (dice and the pawn)", (EACH_SEAT,)),
        "has_pawn": count("the first-player pawn is in the pile of", (EACH_SEAT,)),
        "owned": count("cards owned", (EACH_SEAT,), CARDS),
        "snap_gem": count("gem dice at the end of the divide", (EACH_SEAT,), GEMS),
        "snap_size": number("objects in each pile at the end of the divide", (EACH_SEAT,)),
        "allowed_buys": number("purchases allowed this round", (EACH_SEAT,)),
        "centre": count("dice in the centre", FACE_NAMES),
        "pawn_in_centre": flag("the first-player pawn is in the centre"),
        "return_buffer": count("dice a thief is returning", FACE_NAMES),
        "pawn_in_return_buffer": flag("the first-player pawn is being returned"),
        "steal_victim": one_hot("whose pile was just stolen", (EACH_SEAT,)),
        "takes": number("take actions this round"),
        "steals": number("steals this round"),
        "market": one_hot("market", SLOTS, OFFERED),
        "market_card": code("market card ids", (None, *map(str, range(1, NUM_CARDS + 1))), SLOTS),
        "used": count("once-a-round abilities used this round", CARDS),
        "discarded": count("cards in the box", CARDS),
        "deck_sizes": number("cards in the decks", DECKS),
        "newest_row": one_hot("newest market row", DECK_LETTERS),
        "round": number("round"),
        "rounds_left": number("rounds left before the game is cut short"),
        "stage": one_hot("stage", STAGE_NAMES),
        "actor": one_hot("who decides now", (EACH_SEAT,)),
        "first_player": one_hot("first player (the pawn holder after the divide)", (EACH_SEAT,)),
        "turns_done": number("purchase turns finished this round"),
        "buys_made": number("purchases in this purchase turn"),
        "pending_card": one_hot("card being paid for", OFFERED),
        "need": count("gems still to pay for it", GEMS),
        "num_players": player_count(NUM_PLAYERS_MIN, NUM_PLAYERS_MAX),
    },
    seats=NUM_PLAYERS_MAX,
    relative=True,
    players="num_players",
    notes=("Costs are in gems: G green, W white, B blue, R red.",),
)
_COUNT_MAX = 32767  # gold and infamy saturate in the int16 observation

_SEAT_IN_GAME = LAYOUT["seat_in_game"].start
_GOLD = LAYOUT["gold"].start
_INFAMY = LAYOUT["infamy"].start
_PILE = LAYOUT["pile"].start
_PILE_SIZE = LAYOUT["pile_size"].start
_HAS_PAWN = LAYOUT["has_pawn"].start
_OWNED = LAYOUT["owned"].start
_SNAP_GEM = LAYOUT["snap_gem"].start
_SNAP_SIZE = LAYOUT["snap_size"].start
_ALLOWED_BUYS = LAYOUT["allowed_buys"].start
_CENTRE = LAYOUT["centre"].start
_PAWN_IN_CENTRE = LAYOUT["pawn_in_centre"].start
_RETURN_BUFFER = LAYOUT["return_buffer"].start
_PAWN_IN_BUFFER = LAYOUT["pawn_in_return_buffer"].start
_STEAL_VICTIM = LAYOUT["steal_victim"].start
_TAKES = LAYOUT["takes"].start
_STEALS = LAYOUT["steals"].start
_MARKET = LAYOUT["market"].start
_MARKET_CARD = LAYOUT["market_card"].start
_USED = LAYOUT["used"].start
_DISCARDED = LAYOUT["discarded"].start
_DECK_SIZES = LAYOUT["deck_sizes"].start
_NEWEST_ROW = LAYOUT["newest_row"].start
_ROUND = LAYOUT["round"].start
_ROUNDS_LEFT = LAYOUT["rounds_left"].start
_STAGE = LAYOUT["stage"].start
_ACTOR = LAYOUT["actor"].start
_FIRST_PLAYER = LAYOUT["first_player"].start
_TURNS_DONE = LAYOUT["turns_done"].start
_BUYS_MADE = LAYOUT["buys_made"].start
_PENDING_CARD = LAYOUT["pending_card"].start
_NEED = LAYOUT["need"].start
_NUM_PLAYERS = LAYOUT["num_players"].start


@nb.njit(cache=True)
def observe(s, seat, out):
    n = np.int64(s.num_players)  # int64 index arithmetic: exact without the JIT too
    out[:] = 0
    for q in range(n):
        r = (q - seat) % n
        out[_SEAT_IN_GAME + r] = 1
        out[_GOLD + r] = min(s.gold[q], _COUNT_MAX)
        out[_INFAMY + r] = min(s.infamy[q], _COUNT_MAX)
        for f in range(NUM_FACES):
            out[_PILE + r * NUM_FACES + f] = s.pile[q, f]
        out[_PILE_SIZE + r] = pile_size(s, q)
        out[_HAS_PAWN + r] = s.pawn_loc == q
        for c in range(NUM_GEMS):
            out[_SNAP_GEM + r * NUM_GEMS + c] = s.snap_gem[q, c]
        out[_SNAP_SIZE + r] = s.snap_size[q]
        out[_ALLOWED_BUYS + r] = allowed_buys(s, q)
    for x in range(NUM_CARDS):
        holder = np.int64(s.owner[x])
        if holder >= 0:
            out[_OWNED + ((holder - seat) % n) * NUM_CARDS + x] = 1
        elif holder == DISCARDED:
            out[_DISCARDED + x] = 1
        out[_USED + x] = s.used[x]
    for f in range(NUM_FACES):
        out[_CENTRE + f] = s.centre[f]
        out[_RETURN_BUFFER + f] = s.ret_buf[f]
    out[_PAWN_IN_CENTRE] = s.pawn_loc == IN_CENTRE
    out[_PAWN_IN_BUFFER] = s.pawn_loc == IN_RETURN_BUFFER
    if s.steal_victim >= 0:
        out[_STEAL_VICTIM + (np.int64(s.steal_victim) - seat) % n] = 1
    out[_TAKES] = s.takes
    out[_STEALS] = s.steals
    for slot in range(NUM_SLOTS):
        x = np.int64(s.market[slot])
        if x >= 0:
            out[_MARKET + slot * NUM_CARDS + x] = 1
            out[_MARKET_CARD + slot] = x + 1
    for d in range(NUM_DECKS):
        out[_DECK_SIZES + d] = s.deck_size[d]
    out[_NEWEST_ROW + np.int64(s.newest_row)] = 1
    out[_ROUND] = s.round_number
    out[_ROUNDS_LEFT] = s.max_rounds - s.round_number
    out[_STAGE + np.int64(s.stage)] = 1
    if s.actor >= 0:
        out[_ACTOR + (np.int64(s.actor) - seat) % n] = 1
    out[_FIRST_PLAYER + (np.int64(s.first_player) - seat) % n] = 1
    out[_TURNS_DONE] = s.turns_done
    out[_BUYS_MADE] = s.buys_made
    if s.pending_card >= 0:
        out[_PENDING_CARD + np.int64(s.pending_card)] = 1
    for c in range(NUM_GEMS):
        out[_NEED + c] = s.need[c]
    out[_NUM_PLAYERS + n - NUM_PLAYERS_MIN] = 1
