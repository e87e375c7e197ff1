"""How to Rob a Bank's state record."""

import numpy as np

from heist_envs.core.game import state_dtype

from .components import (
    BANK,
    MAX_GUARDS,
    MAX_ROBBERS,
    MAX_SEATS,
    MAX_SLOTS,
    N_CARD_TYPES,
    N_ROOMS,
    NUM_BAGS,
    NUM_CYCLES,
    NUM_ROUNDS,
    ROBBERS,
)

# Phases (spec 7.1).
SETUP_CORNER, SETUP_STREET, PLAN, ROB, GAME_OVER = 0, 1, 2, 3, 4
NUM_PHASES = 5
PHASE_NAMES = ("SETUP_CORNER", "SETUP_STREET", "PLAN", "ROB", "GAME_OVER")
#: the phases for people
PHASE_TITLES = (
    "setup: the bank picks the vehicle's street corner",
    "setup: the robbers pick the vehicle's street space",
    "planning",
    "robbing",
    "game over",
)

# Bag locations (bag_where); bag_at is then the room (FLOOR) or the robber (CARRIED).
SUPPLY, FLOOR, CARRIED, STOLEN = 0, 1, 2, 3

# Alarm states.
ON_UNLOCKED, ON_LOCKED, RINGING = 0, 1, 2
ALARM_NAMES = ("on, unlocked", "on, locked", "ringing")

# Winner: the winning side.
NO_WINNER, BANK_WINS, ROBBERS_WIN = -1, BANK, ROBBERS

STACK_SIZE = NUM_ROUNDS * NUM_CYCLES  # every card a seat plans over the game, in order

_FIELDS = [
    # player-count values (derived by init from num_players)
    ("n_seats", np.int8),  # bank + robbers: 3 at 2-3 players, 4 at 4 players
    ("n_robbers", np.int8),
    ("n_guards", np.int8),
    ("target", np.int8),
    ("bags_per_round", np.int8),
    # options (written by setup; all zero means none)
    ("early_end", np.int8),  # D26 option
    ("n_fixed_layouts", np.int8),  # rounds 1..n use fixed_tiles instead of a shuffle
    ("fixed_tiles", np.int8, (NUM_ROUNDS, N_ROOMS)),  # tile in each room, per round
    ("fixed_hands", np.int8),  # 1: the round-1 draw is fixed_hand
    ("fixed_hand", np.int8, (MAX_SEATS, N_CARD_TYPES)),
    # position
    ("phase", np.int8),
    ("round_num", np.int8),  # 1..3
    ("cycle", np.int8),  # 0..4 during ROB
    ("turn_seat", np.int8),  # whose ROB turn it is
    ("winner", np.int8),
    # board
    ("tile", np.int8, (N_ROOMS,)),  # tile id in each room
    ("rotation", np.int8, (N_ROOMS,)),  # clockwise quarter-turns from the enclosure fix
    ("wall", np.int8, (N_ROOMS,)),  # wall side of each room, -1 none
    ("mask_room", np.int8),
    ("alarm_room", np.int8),
    ("alarm", np.int8),
    ("bag_where", np.int8, (NUM_BAGS,)),
    ("bag_at", np.int8, (NUM_BAGS,)),
    ("bag_locked", np.int8, (NUM_BAGS,)),
    ("stolen", np.int8),
    ("guard_room", np.int8, (MAX_GUARDS,)),  # -1 for a guard not in play
    ("guard_awake", np.int8, (MAX_GUARDS,)),
    ("start_room", np.int8, (MAX_GUARDS,)),  # rooms at the start of the bank's turn
    ("robber_room", np.int8, (MAX_ROBBERS,)),  # -1 for a robber not in play
    ("robber_awake", np.int8, (MAX_ROBBERS,)),
    ("vehicle", np.int8),  # street space, -1 while unplaced
    ("veh_cand", np.int8, (2,)),  # SETUP_STREET candidates, -1 otherwise
    # cards, per seat (counts by card type of the seat's side)
    ("hand", np.int8, (MAX_SEATS, N_CARD_TYPES)),
    ("aside", np.int8, (MAX_SEATS, N_CARD_TYPES)),  # pool cards not in hand
    ("played", np.int8, (MAX_SEATS, N_CARD_TYPES)),
    ("stack", np.int8, (MAX_SEATS, STACK_SIZE)),  # planned types in order, -1 empty
    ("n_planned", np.int8, (MAX_SEATS,)),
    ("n_revealed", np.int8, (MAX_SEATS,)),
    # the turn being played
    ("card", np.int8),  # type of the revealed card, -1 none
    ("card_slots", np.int8, (MAX_SLOTS,)),
    ("slot_done", np.int8, (MAX_SLOTS,)),
    ("extra_used", np.int8),
    ("card_started", np.int8),
]


STATE_DTYPE = state_dtype(_FIELDS)
