"""How to Rob a Bank's action table (spec 7.2); the ids are public API."""

from .components import CARD_NAMES, CORNER_ROOMS, DIRECTION_NAMES, ROBBER_COLOURS

PLAN_0, PLAN_1, PLAN_2, PLAN_3, PLAN_4, PLAN_5, PLAN_6, PLAN_7 = range(0, 8)
MOVE_N, MOVE_E, MOVE_S, MOVE_W = range(8, 12)
CRAWL_0, CRAWL_1, CRAWL_2, CRAWL_3, CRAWL_4, CRAWL_5, CRAWL_6, CRAWL_7, CRAWL_8 = range(12, 21)
PICKUP = 21
UNLOCK_BAG = 22
UNLOCK_ALARM = 23
SPRAY = 24
VEHICLE_CCW = 25
VEHICLE_CW = 26
THROW = 27
PASS_TO_YELLOW, PASS_TO_RED, PASS_TO_GREEN = range(28, 31)
TRIGGER_ALARM = 31
(
    GUARD_0_MOVE_N,
    GUARD_0_MOVE_E,
    GUARD_0_MOVE_S,
    GUARD_0_MOVE_W,
    GUARD_1_MOVE_N,
    GUARD_1_MOVE_E,
    GUARD_1_MOVE_S,
    GUARD_1_MOVE_W,
    GUARD_2_MOVE_N,
    GUARD_2_MOVE_E,
    GUARD_2_MOVE_S,
    GUARD_2_MOVE_W,
) = range(32, 44)  # 32 + 4 * guard + direction
LOCK_BAG_0, LOCK_BAG_1, LOCK_BAG_2 = range(44, 47)
LOCK_ALARM = 47
TACKLE_YELLOW, TACKLE_RED, TACKLE_GREEN = range(48, 51)
WAKE_GUARDS = 51
CORNER_0, CORNER_2, CORNER_6, CORNER_8 = range(52, 56)
END_TURN = 56
NUM_ACTIONS = 57


def _plan_name(k, side=None):
    """``PLAN_k`` with both sides' card k; with the acting ``side`` known, "plan <its card>"."""
    if side is not None and k < len(CARD_NAMES[side]):
        return f"plan {CARD_NAMES[side][k]}"
    names = []
    for i, label in ((1, "robber"), (0, "bank")):
        if side is None or side == i:
            card = CARD_NAMES[i][k] if k < len(CARD_NAMES[i]) else "unused"
            names.append(card if side is not None else f"{label}: {card}")
    return f"PLAN_{k} ({' | '.join(names)})"


def action_name(action, s=None):
    """A readable name; with a state, a PLAN action is named by the acting side's card
    ("plan Tackle")."""
    a = int(action)
    if not 0 <= a < NUM_ACTIONS:
        raise ValueError(f"how_to_rob_a_bank: action {a} is out of range 0..{NUM_ACTIONS - 1}")
    if a < MOVE_N:
        side = None if s is None or s.actor < 0 else (0 if s.actor == 0 else 1)
        return _plan_name(a - PLAN_0, side)
    if a < CRAWL_0:
        return f"move {DIRECTION_NAMES[a - MOVE_N]}"
    if a < PICKUP:
        return f"crawl to room {a - CRAWL_0}"
    if a < PASS_TO_YELLOW:
        return {
            PICKUP: "pick up a bag",
            UNLOCK_BAG: "unlock a bag",
            UNLOCK_ALARM: "unlock the alarm",
            SPRAY: "pepper-spray a guard",
            VEHICLE_CCW: "vehicle counter-clockwise",
            VEHICLE_CW: "vehicle clockwise",
            THROW: "throw a bag into the vehicle",
        }[a]
    if a < TRIGGER_ALARM:
        return f"pass a bag to {ROBBER_COLOURS[a - PASS_TO_YELLOW]}"
    if a == TRIGGER_ALARM:
        return "trigger the alarm"
    if a < LOCK_BAG_0:
        g, d = divmod(a - GUARD_0_MOVE_N, 4)
        return f"guard {g} moves {DIRECTION_NAMES[d]}"
    if a < LOCK_ALARM:
        return f"guard {a - LOCK_BAG_0} locks a bag"
    if a == LOCK_ALARM:
        return "lock the alarm"
    if a < WAKE_GUARDS:
        return f"tackle {ROBBER_COLOURS[a - TACKLE_YELLOW]}"
    if a == WAKE_GUARDS:
        return "wake the guards"
    if a < END_TURN:
        return f"vehicle at the street corner of room {CORNER_ROOMS[a - CORNER_0]}"
    return "end turn"


#: Action kinds (name -> action ids), for studies and for restricting agents.
ACTION_KINDS = {
    "plan a card": range(PLAN_0, MOVE_N),
    "move": range(MOVE_N, CRAWL_0),
    "crawl": range(CRAWL_0, PICKUP),
    "pick up a bag": range(PICKUP, UNLOCK_BAG),
    "unlock a bag": range(UNLOCK_BAG, UNLOCK_ALARM),
    "unlock the alarm": range(UNLOCK_ALARM, SPRAY),
    "pepper-spray": range(SPRAY, VEHICLE_CCW),
    "move the vehicle": range(VEHICLE_CCW, THROW),
    "throw a bag": range(THROW, PASS_TO_YELLOW),
    "pass a bag": range(PASS_TO_YELLOW, TRIGGER_ALARM),
    "trigger the alarm": range(TRIGGER_ALARM, GUARD_0_MOVE_N),
    "move a guard": range(GUARD_0_MOVE_N, LOCK_BAG_0),
    "lock a bag": range(LOCK_BAG_0, LOCK_ALARM),
    "lock the alarm": range(LOCK_ALARM, TACKLE_YELLOW),
    "tackle": range(TACKLE_YELLOW, WAKE_GUARDS),
    "wake the guards": range(WAKE_GUARDS, CORNER_0),
    "place the vehicle": range(CORNER_0, END_TURN),
    "end turn": range(END_TURN, NUM_ACTIONS),
}
