"""Les Toits de Paris's state record."""

import numpy as np

from heist_envs.core.game import state_dtype

from .components import (
    CARD_FIELDS,
    INSP_START,
    NUM_CARDS,
    NUM_PLAYERS_MAX,
    NUM_TOKEN_SETS,
)

# Phases (the acting seat in brackets).
THEFT = 0  # the leader: stop or reveal another card
LEADER_MUST = 1  # the leader takes the cards a normal stop requires, one at a time
LEADER_FREE = 2  # the leader after a coup d'eclat: take a card or pass
OTHER_TAKE = 3  # each other player clockwise from the leader takes one card
LEADER_EXTRA = 4  # the leader may take one more card
JOKER = 5  # the raided player: flip the character card into a joker, or decline
GAME_OVER = 6
NUM_PHASES = 7
SHARING_OVER = 7  # transient, never seen at a decision: discard the board, end turn or game
PHASE_NAMES = (
    "theft",
    "leader must take",
    "leader takes freely",
    "others take",
    "leader extra card",
    "joker",
    "game over",
)

# Outcome of the theft phase.
NONE, NORMAL, COUP, CAUGHT = 0, 1, 2, 3
NUM_OUTCOMES = 4
OUTCOME_NAMES = ("none", "normal stop", "coup d'eclat", "caught")

# Where a card lies (card_loc); SEAT_0 + p is seat p's collection.
IN_DRAW, IN_RESERVE, ON_BOARD, DISCARDED, SEAT_0 = 0, 1, 2, 3, 4

EMPTY = -1  # a board space without a card

# Character cards (joker): UNUSED, a colour 0..4 once flipped into a joker, or GONE.
UNUSED = -1
GONE = -2

# Tokens awarded at the end (token_award).
NO_TOKEN, LOW_TOKEN, HIGH_TOKEN = 0, 1, 2

# Reward schemes (config reward_mode, option "reward").
REWARD_WIN, REWARD_SCORE = 0, 1

STATE_DTYPE = state_dtype(
    [
        # Config, written by setup.
        ("first_leader", np.int8),  # seat, or -1: drawn from the seeded RNG
        ("reward_mode", np.int8),
        ("card_table", np.int8, (NUM_CARDS, len(CARD_FIELDS))),  # components.CARD_TABLE
        ("token_high", np.int8, (NUM_TOKEN_SETS,)),
        ("token_low", np.int8, (NUM_TOKEN_SETS,)),
        # Piles: the reserve is deck[reserve_top:15] and the draw pile deck[draw_top:90],
        # each with its top card first.
        ("deck", np.int8, (NUM_CARDS,)),
        ("reserve_top", np.int8),
        ("draw_top", np.int8),
        ("card_loc", np.int8, (NUM_CARDS,)),  # IN_DRAW, IN_RESERVE, ON_BOARD, DISCARDED, SEAT_0+p
        ("joker", np.int8, (NUM_PLAYERS_MAX,)),  # UNUSED, GONE or the joker's colour
        # The turn.
        ("turn", np.int16),  # turns started so far
        ("leader", np.int8),
        ("phase", np.int8),
        ("board", np.int8, (INSP_START,)),  # card on spaces 1..7, EMPTY; index 0 unused
        ("n", np.int8),  # cards revealed this turn (spaces 1..n were filled)
        ("insp", np.int8),  # inspector position 1..8
        ("outcome", np.int8),
        ("need_left", np.int8),  # cards the leader still must take on a normal stop
        ("taker_offset", np.int8),  # OTHER_TAKE: the taker is (leader + taker_offset) mod N
        ("end_triggered", np.int8),  # the last draw-pile card was revealed
        # Resolving a gain (card effects) and resuming after a JOKER decision.
        ("pending_draws", np.int8),  # reserve draws owed to the gainer
        ("joker_offer", np.int8),  # a raid just happened to a player whose character is UNUSED
        ("gainer", np.int8),  # the player resolving the gain (the JOKER actor)
        ("resume_phase", np.int8),  # the phase whose TAKE is being resolved
        # Results, written at GAME_OVER.
        ("token_award", np.int8, (NUM_PLAYERS_MAX, NUM_TOKEN_SETS)),  # NO/LOW/HIGH_TOKEN
        ("score", np.int16, (NUM_PLAYERS_MAX,)),
    ]
)
