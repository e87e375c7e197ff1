"""How to Rob a Bank (Prospero Hall, Jumbo 2018): the bank's guards against a team of robbers.

=================  =====================================================
Import             ``from heist_envs import how_to_rob_a_bank_v0``
Agents             ``bank``, ``robber_yellow``, ``robber_red`` (2-3 players; the 2-player
                   game is the 3-player one, D31), plus ``robber_green`` at 4 players
Actions            ``Discrete(57)``: 0-7 plan a card of type k; 8-11 move N/E/S/W;
                   12-20 crawl to room r; 21 pick up; 22 unlock a bag; 23 unlock the alarm;
                   24 pepper spray; 25-26 vehicle counter-clockwise/clockwise; 27 throw;
                   28-30 pass to yellow/red/green; 31 trigger the alarm; 32-43 guard g
                   moves in direction d (32 + 4g + d); 44-46 guard g locks a bag; 47 lock
                   the alarm; 48-50 tackle yellow/red/green; 51 wake the guards; 52-55 the
                   vehicle's street corner at room 0/2/6/8; 56 end turn
Observation        ``Dict(observation=Box(float32, (OBS_SIZE,)), action_mask=Box(int8, (57,)))``,
                   parts named in ``LAYOUT``
Rewards            terminal team rewards: +1 to each seat of the winning side, -1 otherwise
Options            ``tile_layouts`` (fixes the rooms' tiles per round), ``hands`` (fixes the
                   round-1 draw), ``early_end`` (D26)
=================  =====================================================

Rules: ``docs/games/how_to_rob_a_bank.md`` (how to play); the kernel in :mod:`.rules` is
their single source. Rooms are ``3 * row + col`` from the north-west; street spaces run
clockwise from the north-west corner.
"""

import numpy as np

from heist_envs.core.breakdown import breakdown, part
from heist_envs.core.game import Game, Option

from . import rules
from .components import (
    DECK_COUNTS,
    HAND_SIZE,
    MAX_SEATS,
    N_CARD_TYPES,
    N_ROOMS,
    NUM_ROUNDS,
    ROBBER_COLOURS,
    ROBBERS,
    SIDE_NAMES,
    TILE_IN_PLAY,
    TILE_NAMES,
    side_of,
)
from .state import BANK_WINS, NO_WINNER, STOLEN

OPTIONS = {
    "tile_layouts": Option(
        None,
        "up to 3 tile layouts, one per round from round 1: each the 9 tiles in play (ids "
        "0-9 or names like 'T1', 'P23') for rooms 0-8; later rounds are shuffled; None "
        "shuffles every round",
    ),
    "hands": Option(
        None,
        "the round-1 hand of every seat (bank first): each a list of 8 card type ids of "
        "that seat's deck; None draws at random",
    ),
    "early_end": Option(False, "end the game as a bank win once the target is out of reach"),
}


def agent_names(num_players):
    """``bank`` then the robbers in seat order (D22): yellow, red, and green at 4 players."""
    robbers = 3 if num_players == 4 else 2
    return ["bank"] + [f"robber_{c}" for c in ROBBER_COLOURS[:robbers]]


def teams(num_players):
    """The bank is one side (team 0); every robber is on the other (team 1)."""
    return [side_of(p) for p in range(len(agent_names(num_players)))]


def check_tile_layouts(layouts, num_players):
    """The layouts as an int8 array [rounds, 9], or a ValueError saying what is allowed."""
    in_play = sorted(np.flatnonzero(TILE_IN_PLAY[1 if num_players == 4 else 0]).tolist())
    allowed = ", ".join(f"{TILE_NAMES[t]} ({t})" for t in in_play)
    if not isinstance(layouts, (list, tuple)) or not 1 <= len(layouts) <= NUM_ROUNDS:
        raise ValueError(
            f"how_to_rob_a_bank: tile_layouts must be a list of 1 to {NUM_ROUNDS} layouts, "
            f"got {layouts!r:.80}"
        )
    result = np.zeros((len(layouts), N_ROOMS), np.int8)
    for i, layout in enumerate(layouts):
        listed = isinstance(layout, (list, tuple))
        ids = [TILE_NAMES.index(t) if t in TILE_NAMES else t for t in layout] if listed else []
        valid = all(isinstance(t, (int, np.integer)) and not isinstance(t, bool) for t in ids)
        if not valid or sorted(int(t) for t in ids) != in_play:
            raise ValueError(
                f"how_to_rob_a_bank: tile layout {i + 1} must hold each tile in play at "
                f"{num_players} players exactly once, for rooms 0-8: {allowed}; got {layout!r}"
            )
        result[i] = ids
    return result


def is_card_type(value):
    return (
        isinstance(value, (int, np.integer))
        and not isinstance(value, bool)
        and 0 <= value < N_CARD_TYPES
    )


def check_hands(hands, num_players):
    """The hands as count vectors [seat, type], or a ValueError saying what is allowed."""
    seats = len(agent_names(num_players))
    if not isinstance(hands, (list, tuple)) or len(hands) != seats:
        raise ValueError(
            f"how_to_rob_a_bank: hands must be a list of one hand per seat ({seats} seats), "
            f"got {hands!r:.80}"
        )
    counts = np.zeros((MAX_SEATS, N_CARD_TYPES), np.int8)
    for p, hand in enumerate(hands):
        deck = DECK_COUNTS[p]
        ok = (
            isinstance(hand, (list, tuple))
            and len(hand) == HAND_SIZE
            and all(is_card_type(t) for t in hand)
        )
        if ok:
            counts[p] = np.bincount(np.asarray(hand, np.int64), minlength=N_CARD_TYPES)
            ok = (counts[p] <= deck).all()
        if not ok:
            raise ValueError(
                f"how_to_rob_a_bank: the hand of seat {p} must be {HAND_SIZE} card type ids "
                f"taken from its deck {dict(enumerate(deck.tolist()))}; got {hand!r}"
            )
    return counts


def setup(s, seed, options):
    n = int(s.num_players)
    s.early_end = 1 if options["early_end"] else 0
    s.n_fixed_layouts = 0
    s.fixed_hands = 0
    if options["tile_layouts"] is not None:
        layouts = check_tile_layouts(options["tile_layouts"], n)
        s.fixed_tiles[: len(layouts)] = layouts
        s.n_fixed_layouts = len(layouts)
    if options["hands"] is not None:
        s.fixed_hand[:] = check_hands(options["hands"], n)
        s.fixed_hands = 1
    rules.init(s, seed)


def scores(s):
    """Per seat: the team reward so far, the bags stolen and the robbers' target."""
    seats = int(s.n_seats)
    out = np.zeros(max(seats, int(s.num_players)), np.float32)
    rules.returns(s, out)
    stolen = int((s.bag_where == STOLEN).sum())
    winner = "none" if s.winner == NO_WINNER else SIDE_NAMES[s.winner]
    return {
        "return": out.tolist(),
        "stolen": [stolen] * seats,
        "target": [int(s.target)] * seats,
        "winner": [winner] * seats,
    }


def score_breakdown(s):
    """Who won and why: the robbers win the moment they have stolen the target's bags, the
    bank once round 3 ends without it (or earlier with ``early_end``, once out of reach)."""
    names = agent_names(int(s.num_players))
    sides = teams(int(s.num_players))
    stolen, target, last_round = int(s.stolen), int(s.target), int(s.round_num)
    robbers_won = int(s.winner) != BANK_WINS
    if robbers_won:
        text = f"The robbers win: they stole {stolen} bags, their target, in round {last_round}."
    elif last_round < NUM_ROUNDS:
        text = (
            f"The bank wins: after round {last_round} the robbers, with {stolen} of the "
            f"{target} bags they need, can no longer reach the target (early end)."
        )
    else:
        text = (
            f"The bank wins: the robbers stole {stolen} of the {target} bags they needed by the "
            f"end of round {NUM_ROUNDS}."
        )
    columns = [
        part("side", [SIDE_NAMES[side] for side in sides]),
        part("bags stolen", [stolen] * len(names), "bags the robbers drove away"),
        part("target", [target] * len(names), "4 bags at 2-3 players, 5 at 4"),
    ]
    winners = [p for p, side in enumerate(sides) if (side == ROBBERS) == robbers_won]
    return breakdown(s, columns, winners, text)


GAME = Game.from_package(
    __name__, title="How to Rob a Bank", default_players=4, side_names=SIDE_NAMES
)
