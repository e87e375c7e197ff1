"""Art Robbery's state record."""

import numpy as np

from heist_envs.core.game import state_dtype

from .components import NUM_CARD_TYPES, NUM_CARDS, NUM_PLAYERS_MAX, NUM_RAIDS, TOKENS_PER_RAID

# Phases.
PLAY, TOKEN, DOG, GAME_OVER = 0, 1, 2, 3
NUM_PHASES = 4
PHASE_NAMES = ("play a card", "choose a token", "guard dog defence", "game over")

# Token locations (token_loc); a seat index >= 0 means that player holds it.
CENTRE = -1
BOX = -2
NOT_YET_OUT = -3  # a later raid's token
NOBODY = -1  # the Guard Dog pawn in the centre

STATE_DTYPE = state_dtype(
    [
        ("max_turns", np.int32),  # config: truncation after this many card plays (D9)
        ("phase", np.int8),
        ("raid", np.int8),
        ("turn_player", np.int8),  # whose turn it is (the actor differs in the DOG phase)
        ("turns", np.int32),  # card plays so far
        ("deck", np.int8, (NUM_CARDS,)),  # draw pile; the top card is deck[deck_size - 1]
        ("deck_size", np.int8),
        ("hands", np.int8, (NUM_PLAYERS_MAX, NUM_CARD_TYPES)),  # card counts per seat
        ("discard", np.int8, (NUM_CARD_TYPES,)),
        ("played", np.int16, (NUM_PLAYERS_MAX, NUM_CARD_TYPES)),  # cards each seat played
        ("token_loc", np.int8, (NUM_RAIDS, TOKENS_PER_RAID)),
        ("dog", np.int8),
        ("pending_card", np.int8),  # the card played this turn, -1 when none
        ("pending_token", np.int8),  # the slot being stolen in the DOG phase, -1 when none
        ("offered", np.int8, (TOKENS_PER_RAID,)),  # slots offered in the TOKEN phase
        ("reshuffled", np.int8),  # 1 once the discard was shuffled into a new pile
        ("reshuffle_counts", np.int8, (NUM_CARD_TYPES,)),  # the new pile's composition
        ("drawn_since", np.int8, (NUM_PLAYERS_MAX, NUM_CARD_TYPES)),  # draws since then
    ]
)
