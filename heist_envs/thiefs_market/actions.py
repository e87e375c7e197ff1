"""Thief's Market's action table (spec 8.2, NUM_ACTIONS = 76); the ids are public API.

Faces f: 0 G, 1 W, 2 B, 3 R, 4 P (purse), 5 M (mask). Gem colours c: 0..3.
"""

from .components import (
    CARD_NAMES,
    CONVERTER,
    DECK_LETTERS,
    EXIT_STRATEGY_CARD,
    FACE_NAMES,
    INSURANCE_CARD,
    LUCKY_CARD,
    MASK,
    NUM_FACES,
    NUM_GEMS,
    NUM_SLOTS,
    PA,
    PB,
    PURSE,
    ROW_SIZE,
    SPENDER,
)

TAKE_DIE_0 = 0  # 0-5: take a die of face f from the centre
TAKE_PAWN = 6
TAKE_ALL = 7  # the last seat without a pile takes everything
FINISH_TAKE = 8
STEAL_1 = 9  # 9-12: steal the pile of seat actor + k, k = 1..4
RETURN_DIE_0 = 13  # 13-18: return a die of face f to the centre
RETURN_PAWN = 19
FINISH_RETURN = 20
LAA_REROLL_0 = 21  # 21-26: Lucky Animal Appendage rerolls a die of face f
LAA_SKIP = 27
BUY_0 = 28  # 28-42: buy the card in slot 5 * row + position
WAIVE_0 = 43  # 43-46: Insurance Racket waives one gem of colour c
PAY_DIE = 47
PAY_GOLD = 48
CONVERT_GEM_0 = 49  # 49-60: 49 + 3 * from + j, to = j if j < from else j + 1
JEWELLER_0 = 61  # 61-64: Legitimate Jeweller turns a purse die to colour c
TO_PURSE_0 = 65  # 65-68: turn a die of colour c to purse
SPEND_FOR_INFAMY_0 = 69  # 69-72: spend a die of colour c for infamy
GAUNTLET = 73  # spend a mask die for gold
EXIT_STRATEGY = 74  # pay gold for infamy
END_TURN = 75
NUM_ACTIONS = 76

MAX_STEAL = 4


def convert_gem_action(from_gem, to_gem):
    """The CONVERT_GEM action id turning a ``from_gem`` die into ``to_gem``."""
    j = to_gem if to_gem < from_gem else to_gem - 1
    return CONVERT_GEM_0 + 3 * from_gem + j


def convert_gem_faces(action):
    """(from, to) of a CONVERT_GEM action id."""
    from_gem, j = divmod(action - CONVERT_GEM_0, 3)
    return from_gem, (j if j < from_gem else j + 1)


def slot_name(slot):
    return f"{DECK_LETTERS[slot // ROW_SIZE]}-row slot {slot % ROW_SIZE}"


def _card_label(card, fallback):
    return CARD_NAMES[card] if card >= 0 else fallback


def action_name(action, s=None):
    """A readable name; with a state, the cards, seats and gems concerned are named."""
    action = int(action)
    if not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"thiefs_market: action {action} is out of range 0..{NUM_ACTIONS - 1}")
    if action < TAKE_PAWN:
        return f"take a {FACE_NAMES[action - TAKE_DIE_0]} die"
    if action == TAKE_PAWN:
        return "take the first-player pawn"
    if action == TAKE_ALL:
        return "take everything in the centre"
    if action == FINISH_TAKE:
        return "finish taking"
    if action < RETURN_DIE_0:
        k = action - STEAL_1 + 1
        if s is None:
            return f"steal pile of player +{k}"
        return f"steal pile of player {(int(s.actor) + k) % int(s.num_players)} (+{k})"
    if action < RETURN_PAWN:
        return f"return a {FACE_NAMES[action - RETURN_DIE_0]} die"
    if action == RETURN_PAWN:
        return "return the first-player pawn"
    if action == FINISH_RETURN:
        return "finish returning"
    laa = _card_label(LUCKY_CARD, "Lucky Animal Appendage")
    if action < LAA_SKIP:
        return f"{laa}: reroll a {FACE_NAMES[action - LAA_REROLL_0]} die"
    if action == LAA_SKIP:
        return f"{laa}: no reroll"
    if action < WAIVE_0:
        slot = action - BUY_0
        if s is None or s.market[slot] < 0:
            return f"buy {slot_name(slot)}"
        return f"buy {slot_name(slot)} ({CARD_NAMES[s.market[slot]]})"
    if action < PAY_DIE:
        insurance = _card_label(INSURANCE_CARD, "Insurance Racket")
        return f"{insurance}: waive a {FACE_NAMES[action - WAIVE_0]} gem"
    if action in (PAY_DIE, PAY_GOLD):
        means = "a die" if action == PAY_DIE else "1 gold"
        gem = "the current gem"
        if s is not None:
            for c in range(NUM_GEMS):
                if s.need[c] > 0:
                    gem = f"a {FACE_NAMES[c]} gem"
                    break
        return f"pay {gem} with {means}"
    if action < JEWELLER_0:
        from_gem, to_gem = convert_gem_faces(action)
        return _conversion_name(from_gem, to_gem)
    if action < TO_PURSE_0:
        return _conversion_name(PURSE, action - JEWELLER_0)
    if action < SPEND_FOR_INFAMY_0:
        return _conversion_name(action - TO_PURSE_0, PURSE)
    if action < GAUNTLET:
        c = action - SPEND_FOR_INFAMY_0
        card = SPENDER[c]
        return f"{_card_label(card, 'spend')}: spend a {FACE_NAMES[c]} die for {PB[card]} infamy"
    if action == GAUNTLET:
        card = SPENDER[MASK]
        return f"{_card_label(card, 'Gauntlet')}: spend a mask die for {PB[card]} gold"
    if action == EXIT_STRATEGY:
        card = EXIT_STRATEGY_CARD
        label = _card_label(card, "Exit Strategy")
        return f"{label}: pay {PA[card]} gold for {PB[card]} infamy"
    return "end purchase turn"


def _conversion_name(from_face, to_face):
    card = CONVERTER[from_face, to_face]
    return f"{_card_label(card, 'convert')}: {FACE_NAMES[from_face]}→{FACE_NAMES[to_face]}"


assert TAKE_DIE_0 + NUM_FACES == TAKE_PAWN and RETURN_DIE_0 + NUM_FACES == RETURN_PAWN
assert STEAL_1 + MAX_STEAL == RETURN_DIE_0 and BUY_0 + NUM_SLOTS == WAIVE_0
assert CONVERT_GEM_0 + NUM_GEMS * (NUM_GEMS - 1) == JEWELLER_0 and GAUNTLET + 3 == NUM_ACTIONS


#: Action kinds (name -> action ids), for studies and for restricting agents.
ACTION_KINDS = {
    "take a die": range(TAKE_DIE_0, TAKE_PAWN),
    "take the pawn": range(TAKE_PAWN, TAKE_ALL),
    "take everything": range(TAKE_ALL, FINISH_TAKE),
    "finish taking": range(FINISH_TAKE, STEAL_1),
    "steal": range(STEAL_1, RETURN_DIE_0),
    "return a die": range(RETURN_DIE_0, RETURN_PAWN),
    "return the pawn": range(RETURN_PAWN, FINISH_RETURN),
    "finish returning": range(FINISH_RETURN, LAA_REROLL_0),
    "reroll": range(LAA_REROLL_0, LAA_SKIP),
    "no reroll": range(LAA_SKIP, BUY_0),
    "buy a card": range(BUY_0, WAIVE_0),
    "waive a gem": range(WAIVE_0, PAY_DIE),
    "pay with a die": range(PAY_DIE, PAY_GOLD),
    "pay with gold": range(PAY_GOLD, CONVERT_GEM_0),
    "convert a gem": range(CONVERT_GEM_0, JEWELLER_0),
    "purse to gem": range(JEWELLER_0, TO_PURSE_0),
    "gem to purse": range(TO_PURSE_0, SPEND_FOR_INFAMY_0),
    "spend for infamy": range(SPEND_FOR_INFAMY_0, GAUNTLET),
    "gauntlet": range(GAUNTLET, EXIT_STRATEGY),
    "exit strategy": range(EXIT_STRATEGY, END_TURN),
    "end the purchase turn": range(END_TURN, NUM_ACTIONS),
}
