"""Vault's components: a pile of gold bars."""

NUM_PLAYERS_MIN, NUM_PLAYERS_MAX = 2, 3
MIN_BARS, MAX_BARS = 5, 9  # the pile's size is drawn from this range
TAKES = (1, 2)  # bars a turn may take: action a takes TAKES[a]
