"""The action table (spec §7.2): 16 actions, the same for every agent; the ids are public API."""

from .components import COLOUR_NAMES, NUM_COLOURS, NUM_SPACES, card_label

STOP = 0  # THEFT: stop revealing cards
CONTINUE = 1  # THEFT: reveal the next card
TAKE_SPACE_1 = 2  # take the card on space s: action TAKE_SPACE_1 + s - 1 (2..8)
TAKE_SPACE_7 = TAKE_SPACE_1 + NUM_SPACES - 1
PASS = 9  # LEADER_FREE / LEADER_EXTRA: take no (more) card
JOKER_COLOUR_0 = 10  # JOKER: flip the character card into a joker of colour c: 10 + c (10..14)
DECLINE_JOKER = JOKER_COLOUR_0 + NUM_COLOURS
NUM_ACTIONS = 16

assert TAKE_SPACE_7 == 8 and DECLINE_JOKER == 15 == NUM_ACTIONS - 1


def take_action(space: int) -> int:
    """The action that takes the card on board space ``space`` (1..7)."""
    return TAKE_SPACE_1 + space - 1


def action_name(action: int, s=None) -> str:
    """A readable name; given a state, a take names the card on that space."""
    action = int(action)
    if not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"toits_de_paris: action {action} is out of range 0..{NUM_ACTIONS - 1}")
    if action == STOP:
        return "stop"
    if action == CONTINUE:
        return "continue (reveal next card)"
    if action <= TAKE_SPACE_7:
        space = action - TAKE_SPACE_1 + 1
        card = -1 if s is None else int(s.board[space])
        if card < 0:
            return f"take space {space}"
        return f"take space {space} ({card_label(card, s.card_table)})"
    if action == PASS:
        return "pass"
    if action == DECLINE_JOKER:
        return "decline joker"
    colour = action - JOKER_COLOUR_0
    return f"joker colour {colour} ({COLOUR_NAMES[colour]})"


#: Action kinds (name -> action ids), for studies and for restricting agents.
ACTION_KINDS = {
    "stop": range(STOP, CONTINUE),
    "continue": range(CONTINUE, TAKE_SPACE_1),
    "take a card": range(TAKE_SPACE_1, TAKE_SPACE_7 + 1),
    "pass": range(PASS, JOKER_COLOUR_0),
    "use the joker": range(JOKER_COLOUR_0, DECLINE_JOKER),
    "decline the joker": range(DECLINE_JOKER, NUM_ACTIONS),
}
