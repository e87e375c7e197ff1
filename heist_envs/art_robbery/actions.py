"""Art Robbery's action table (spec section 8); the ids are public API."""

from .components import (
    BOSS_CARD,
    BOSS_SLOT,
    CARD_NAMES,
    GREEDY_THIEF_CARD,
    GUARD_DOG_CARD,
    NUM_CARD_TYPES,
    RAID_NAMES,
    TOKEN_VALUES,
)

PLAY_CARD_0 = 0  # 0-8: play a card of type 0-8
TAKE_SLOT_0 = 9  # 9-17: take token slot 0-8 of the current raid
GIVE_TOKEN = 18  # the Guard Dog holder gives up the stolen token
GIVE_DOG = 19  # ... or gives the Guard Dog pawn instead
NUM_ACTIONS = 20


def token_name(slot, raid=None):
    kind = "Boss token" if slot == BOSS_SLOT else f"{TOKEN_VALUES[slot]} token"
    where = f"{RAID_NAMES[raid]} " if raid is not None else ""
    return f"{where}{kind} (slot {slot})"


def action_name(action, s=None):
    """A readable name; with a state, the token's raid and current holder are named."""
    action = int(action)
    if not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"art_robbery: action {action} is out of range 0..{NUM_ACTIONS - 1}")
    if action < TAKE_SLOT_0:
        return f"play {CARD_NAMES[action - PLAY_CARD_0]}"
    if action < GIVE_TOKEN:
        slot = action - TAKE_SLOT_0
        if s is None:
            return f"take {token_name(slot)}"
        raid = int(s.raid)
        holder = int(s.token_loc[raid, slot])
        source = "from the centre" if holder < 0 else f"from player {holder}"
        return f"take {token_name(slot, raid)} {source}"
    if action == GIVE_TOKEN:
        return "give up the stolen token"
    return "give the Guard Dog instead"


assert TAKE_SLOT_0 == PLAY_CARD_0 + NUM_CARD_TYPES


#: Action kinds (name -> action ids), for studies and for restricting agents.
ACTION_KINDS = {
    "play a Number card": range(PLAY_CARD_0, PLAY_CARD_0 + BOSS_CARD),
    "play the Boss": range(PLAY_CARD_0 + BOSS_CARD, PLAY_CARD_0 + BOSS_CARD + 1),
    "play the Guard Dog": range(PLAY_CARD_0 + GUARD_DOG_CARD, PLAY_CARD_0 + GUARD_DOG_CARD + 1),
    "play the Greedy Thief": range(
        PLAY_CARD_0 + GREEDY_THIEF_CARD, PLAY_CARD_0 + GREEDY_THIEF_CARD + 1
    ),
    "take a token": range(TAKE_SLOT_0, GIVE_TOKEN),
    "give up the token": range(GIVE_TOKEN, GIVE_DOG),
    "give the Guard Dog": range(GIVE_DOG, NUM_ACTIONS),
}
