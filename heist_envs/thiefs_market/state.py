"""Thief's Market's state record (spec 4.1)."""

import numpy as np

from heist_envs.core.game import state_dtype

from .components import (
    MAX_DECK,
    NUM_CARDS,
    NUM_DECKS,
    NUM_FACES,
    NUM_GEMS,
    NUM_PLAYERS_MAX,
    NUM_SLOTS,
)

# Stages (spec 8.1).
D_CHOOSE, D_TAKING, D_RETURNING, P_LAA, P_MAIN, P_WAIVE, P_PAY, GAME_OVER = range(8)
NUM_STAGES = 8
STAGE_NAMES = (
    "divide: take or steal",
    "divide: taking",
    "divide: returning stolen objects",
    "Lucky Animal Appendage reroll",
    "purchase turn",
    "Insurance Racket waiver",
    "payment",
    "game over",
)

# Pawn locations (pawn_loc); a seat index >= 0 means that seat's pile holds it.
IN_CENTRE = -1
IN_RETURN_BUFFER = -2

# Card owners (owner); a seat index >= 0 means that seat owns the card.
UNOWNED = -1  # in a deck or in the market
TRIMMED = -2  # removed to the box unseen at setup
DISCARDED = -3  # the Unlabeled Potion, boxed when bought

EMPTY_SLOT = -1
NOBODY = -1

# Fields are ordered so that the record has no padding bytes (a copied record then equals
# the original byte for byte): header (11 bytes), int8 scalars, int32s, int8 arrays.
STATE_DTYPE = state_dtype(
    [
        ("start_seat", np.int8),  # config: round 1's first player, -1 = random (D30)
        ("stage", np.int8),
        ("first_player", np.int8),  # pawn holder once Divide ends; acts first next round
        ("pawn_loc", np.int8),
        ("steal_victim", np.int8),  # seat whose pile was just stolen, NOBODY otherwise
        ("newest_row", np.int8),
        ("takes", np.int8),  # take actions this round (exactly P by its end: D11)
        ("steals", np.int8),  # steals this round
        ("turns_done", np.int8),  # purchase turns finished this round
        ("buys_made", np.int8),  # purchases in the current turn
        ("pending_card", np.int8),  # the card being paid for, -1 when none
        ("need", np.int8, (NUM_GEMS,)),  # gems still to pay for it
        ("centre", np.int8, (NUM_FACES,)),  # dice per face
        ("max_rounds", np.int32),  # config: truncate after this round (D23)
        ("round_number", np.int32),
        ("gold", np.int32, (NUM_PLAYERS_MAX,)),
        ("infamy", np.int32, (NUM_PLAYERS_MAX,)),
        ("pile", np.int8, (NUM_PLAYERS_MAX, NUM_FACES)),
        ("ret_buf", np.int8, (NUM_FACES,)),  # dice a thief is returning
        ("owner", np.int8, (NUM_CARDS,)),
        ("used", np.int8, (NUM_CARDS,)),  # once-per-round abilities used this round
        ("deck", np.int8, (NUM_DECKS, MAX_DECK)),  # the top card is deck[d, deck_size[d] - 1]
        ("deck_size", np.int8, (NUM_DECKS,)),
        ("market", np.int8, (NUM_SLOTS,)),  # card index per slot, EMPTY_SLOT when empty
        ("snap_gem", np.int8, (NUM_PLAYERS_MAX, NUM_GEMS)),  # end-of-Divide snapshot (D12)
        ("snap_size", np.int8, (NUM_PLAYERS_MAX,)),
    ]
)
assert STATE_DTYPE.itemsize == sum(STATE_DTYPE.fields[f][0].itemsize for f in STATE_DTYPE.names)
