"""Thief's Market's rules: the only place they live (how to play: docs/games/thiefs_market.md).

Plain functions over one state record, compiled by numba; with ``NUMBA_DISABLE_JIT=1`` the
same code runs as Python. Card effects are read from the card table's arrays
(``components``); each effect code has one function here.
"""

import numba as nb
import numpy as np

from heist_envs.core.game import RUNNING, TERMINATED, TRUNCATED
from heist_envs.core.rng import rand_below, seed_rng, shuffle

from .actions import (
    BUY_0,
    CONVERT_GEM_0,
    END_TURN,
    EXIT_STRATEGY,
    FINISH_RETURN,
    FINISH_TAKE,
    GAUNTLET,
    JEWELLER_0,
    LAA_REROLL_0,
    LAA_SKIP,
    PAY_DIE,
    PAY_GOLD,
    RETURN_DIE_0,
    RETURN_PAWN,
    SPEND_FOR_INFAMY_0,
    STEAL_1,
    TAKE_ALL,
    TAKE_DIE_0,
    TAKE_PAWN,
    TO_PURSE_0,
    WAIVE_0,
)
from .components import (
    BUILDING,
    CARD_COST,
    CARD_DECK,
    CARD_ICONS,
    CARD_VP,
    COMPASS,
    CONVERTER,
    DECK_A,
    DECK_C,
    DECK_KEPT,
    DICE_BY_PLAYERS,
    EFFECT,
    EXIT_STRATEGY_CARD,
    EXTRA_BUY_CARDS,
    GAIN_TOP_CARD,
    GOLD_FIRST,
    GOLD_SECOND,
    HENCHMAN,
    HENCHMAN_FIRST,
    HENCHMAN_SECOND,
    INFAMY_EQ_PILE_SIZE,
    INSURANCE_CARD,
    LUCKY_CARD,
    MASK,
    NUM_CARDS,
    NUM_DECKS,
    NUM_FACES,
    NUM_GEMS,
    NUM_PLAYERS_MAX,
    ON_BUY_CARDS,
    PA,
    PAWN_INFAMY_CARDS,
    PB,
    PURSE,
    ROW_SIZE,
    SAFEHOUSE,
    SPEND_DIE_FOR_INFAMY,
    SPENDER,
    STARTING_GOLD,
    STOLEN_INFAMY_CARDS,
    TREASURE_MAP,
    TURN_IN_GOLD_CARDS,
    TURN_IN_INFAMY_CARDS,
    VP_PER_INFAMY_PAIR,
    VP_PER_OTHER_CARD,
    VP_PER_WAND_PAIR,
    WAND,
)
from .state import (
    D_CHOOSE,
    D_RETURNING,
    D_TAKING,
    DISCARDED,
    EMPTY_SLOT,
    GAME_OVER,
    IN_CENTRE,
    IN_RETURN_BUFFER,
    NOBODY,
    NUM_STAGES,
    P_LAA,
    P_MAIN,
    P_PAY,
    P_WAIVE,
    TRIMMED,
    UNOWNED,
)

# The action ids each stage may offer: [STAGE_FIRST[stage], STAGE_END[stage]).
STAGE_FIRST = np.zeros(NUM_STAGES, np.int64)
STAGE_END = np.zeros(NUM_STAGES, np.int64)
for _stage, _first, _end in (
    (D_CHOOSE, TAKE_DIE_0, RETURN_DIE_0),
    (D_TAKING, TAKE_DIE_0, FINISH_TAKE + 1),
    (D_RETURNING, RETURN_DIE_0, FINISH_RETURN + 1),
    (P_LAA, LAA_REROLL_0, LAA_SKIP + 1),
    (P_MAIN, BUY_0, END_TURN + 1),
    (P_WAIVE, WAIVE_0, PAY_DIE),
    (P_PAY, PAY_DIE, PAY_GOLD + 1),
):
    STAGE_FIRST[_stage], STAGE_END[_stage] = _first, _end

# Columns of score_table (section 6).
CARD_POINTS, INFAMY_POINTS, HENCHMAN_AWARD, GOLD_AWARD, TOTAL, CARDS, TOKENS, HENCHMEN = range(8)
NUM_SCORE_COLUMNS = 8
SCORE_COLUMN_NAMES = (
    "card_vp",
    "infamy_vp",
    "henchman_award",
    "gold_award",
    "score",
    "cards",
    "tokens",
    "henchmen",
)


# Setup and round structure ------------------------------------------------------------------


@nb.njit(cache=True)
def init(s, seed):
    """Trim and shuffle the decks, deal row A, give 1 gold each, start round 1 (section 3)."""
    seed_rng(s, seed)
    n = s.num_players
    s.owner[:] = UNOWNED
    s.used[:] = 0
    s.deck[:] = -1
    cards = np.empty(NUM_CARDS, np.int8)
    for d in range(NUM_DECKS):
        k = 0
        for x in range(NUM_CARDS):
            if CARD_DECK[x] == d:
                cards[k] = x
                k += 1
        shuffle(s, cards, k)
        kept = DECK_KEPT[d]
        for i in range(k):
            if i < kept:
                s.deck[d, i] = cards[i]
            else:
                s.owner[cards[i]] = TRIMMED
        s.deck_size[d] = kept
    s.market[:] = EMPTY_SLOT
    fill_row(s, DECK_A)
    s.newest_row = DECK_A
    s.gold[:] = 0
    s.infamy[:] = 0
    for p in range(n):
        s.gold[p] = STARTING_GOLD
    s.pile[:] = 0
    s.ret_buf[:] = 0
    s.centre[:] = 0
    s.centre[0] = DICE_BY_PLAYERS[n]  # the dice in play; start_round rolls them
    s.steal_victim = NOBODY
    s.turns_done = 0
    s.buys_made = 0
    s.pending_card = -1
    s.need[:] = 0
    s.first_player = s.start_seat if s.start_seat >= 0 else rand_below(s, n)
    s.pawn_loc = s.first_player
    s.round_number = 0
    s.status = RUNNING
    start_round(s)


@nb.njit(cache=True)
def start_round(s):
    """Reset the once-per-round flags, roll every die, pawn to the centre (4.2)."""
    s.round_number += 1
    s.takes = 0
    s.steals = 0
    s.used[:] = 0
    s.snap_gem[:] = 0
    s.snap_size[:] = 0
    dice = 0
    for f in range(NUM_FACES):
        dice += s.centre[f]
        s.centre[f] = 0
    for _ in range(dice):
        s.centre[rand_below(s, NUM_FACES)] += 1
    s.pawn_loc = IN_CENTRE
    s.actor = s.first_player
    s.stage = D_CHOOSE


@nb.njit(cache=True)
def end_round(s):
    """Turn in purses and masks, dice to the centre, refill, end or go on (4.6)."""
    n = s.num_players
    for q in range(n):
        turn_in(s, q)
    for q in range(n):
        for f in range(NUM_FACES):
            s.centre[f] += s.pile[q, f]
            s.pile[q, f] = 0
    if refill_market(s):
        finish(s, TERMINATED)
    elif s.round_number >= s.max_rounds:
        finish(s, TRUNCATED)
    else:
        start_round(s)


@nb.njit(cache=True)
def finish(s, status):
    s.stage = GAME_OVER
    s.status = status
    s.actor = -1


@nb.njit(cache=True)
def turn_in(s, q):
    """Each purse die gives 1 gold and each mask die 1 infamy, plus the bonus cards (5.8)."""
    purses = s.pile[q, PURSE]
    masks = s.pile[q, MASK]
    s.gold[q] += purses
    s.infamy[q] += masks
    if purses >= 1:
        bonus_gold_on_turn_in(s, q)
    if masks >= 1:
        bonus_infamy_on_turn_in(s, q)


# Market (4.7) -------------------------------------------------------------------------------


@nb.njit(cache=True)
def draw(s, d):
    """The top card of deck d (the caller checks it is not empty)."""
    s.deck_size[d] -= 1
    x = s.deck[d, s.deck_size[d]]
    s.deck[d, s.deck_size[d]] = -1
    return x


@nb.njit(cache=True)
def fill_row(s, row):
    """Fill row's empty positions from its deck, lowest first; True if a hole remains."""
    hole = False
    for pos in range(ROW_SIZE):
        slot = row * ROW_SIZE + pos
        if s.market[slot] == EMPTY_SLOT:
            if s.deck_size[row] > 0:
                s.market[slot] = draw(s, row)
            else:
                hole = True
    return hole


@nb.njit(cache=True)
def refill_market(s):
    """Refill the newest row, opening the next deck's row if needed; True if the game ends."""
    row = s.newest_row
    if not fill_row(s, row):
        return False
    if row == DECK_C:
        return True
    s.newest_row = row + 1
    fill_row(s, row + 1)
    return False


# Divide the Loot (4.3, 4.4) -----------------------------------------------------------------


@nb.njit(cache=True)
def pile_size(s, q):
    """Objects in q's pile: dice plus the pawn (D1)."""
    size = np.int64(s.pawn_loc == q)
    for f in range(NUM_FACES):
        size += s.pile[q, f]
    return size


@nb.njit(cache=True)
def dice_in(counts):
    total = np.int64(0)
    for f in range(NUM_FACES):
        total += counts[f]
    return total


@nb.njit(cache=True)
def centre_objects(s):
    return dice_in(s.centre) + np.int64(s.pawn_loc == IN_CENTRE)


@nb.njit(cache=True)
def is_last(s):
    """Only one seat lacks a pile (that seat is the actor)."""
    without = 0
    for q in range(s.num_players):
        if pile_size(s, q) == 0:
            without += 1
    return without == 1


@nb.njit(cache=True)
def take(s, action):
    p = s.actor
    if action == TAKE_PAWN:
        s.pawn_loc = p
    else:
        f = action - TAKE_DIE_0
        s.centre[f] -= 1
        s.pile[p, f] += 1
    s.stage = D_TAKING


@nb.njit(cache=True)
def finish_take(s):
    s.takes += 1
    end_divide_action(s)


@nb.njit(cache=True)
def take_all(s):
    p = s.actor
    for f in range(NUM_FACES):
        s.pile[p, f] += s.centre[f]
        s.centre[f] = 0
    if s.pawn_loc == IN_CENTRE:
        s.pawn_loc = p
    finish_take(s)


@nb.njit(cache=True)
def steal(s, k):
    """The actor takes seat actor+k's whole pile, pawn included (D6)."""
    p = s.actor
    v = (p + k) % s.num_players
    for f in range(NUM_FACES):
        s.pile[p, f] += s.pile[v, f]
        s.pile[v, f] = 0
    if s.pawn_loc == v:
        s.pawn_loc = p
    infamy_when_stolen(s, v)
    s.steals += 1
    s.steal_victim = v
    s.stage = D_RETURNING


@nb.njit(cache=True)
def finish_return(s):
    """Returned dice go to the centre, rerolled unless the victim has the Appendage (D8)."""
    if lucky_appendage_keeps_faces(s, s.steal_victim):
        for f in range(NUM_FACES):
            s.centre[f] += s.ret_buf[f]
            s.ret_buf[f] = 0
    else:
        for f in range(NUM_FACES):
            for _ in range(s.ret_buf[f]):
                s.centre[rand_below(s, NUM_FACES)] += 1
            s.ret_buf[f] = 0
    if s.pawn_loc == IN_RETURN_BUFFER:
        s.pawn_loc = IN_CENTRE
    s.steal_victim = NOBODY
    end_divide_action(s)


@nb.njit(cache=True)
def end_divide_action(s):
    """Next: the first seat without a pile clockwise from the actor (D3), or end Divide."""
    n = s.num_players
    for i in range(1, n):
        q = (s.actor + i) % n
        if pile_size(s, q) == 0:
            s.actor = q
            s.stage = D_CHOOSE
            return
    end_divide(s)


@nb.njit(cache=True)
def end_divide(s):
    """The pawn holder goes first; snapshot; Eyepatch; then P_LAA or purchases (4.4)."""
    n = s.num_players
    h = s.pawn_loc
    s.first_player = h
    for q in range(n):
        for c in range(NUM_GEMS):
            s.snap_gem[q, c] = 1 if s.pile[q, c] >= 1 else 0
        s.snap_size[q] = pile_size(s, q)
    infamy_if_pawn(s, h)
    if LUCKY_CARD >= 0:
        o = s.owner[LUCKY_CARD]
        if o >= 0 and dice_in(s.pile[o]) >= 1:
            s.stage = P_LAA
            s.actor = o
            return
    start_purchases(s)


# Purchases (4.5) ----------------------------------------------------------------------------


@nb.njit(cache=True)
def start_purchases(s):
    s.actor = s.first_player
    s.turns_done = 0
    s.buys_made = 0
    s.pending_card = -1
    s.stage = P_MAIN


@nb.njit(cache=True)
def end_turn(s):
    s.turns_done += 1
    if s.turns_done == s.num_players:
        end_round(s)
    else:
        s.actor = (s.actor + 1) % s.num_players
        s.buys_made = 0
        s.stage = P_MAIN


@nb.njit(cache=True)
def owns(s, card, q):
    return card >= 0 and s.owner[card] == q


@nb.njit(cache=True)
def allowed_buys(s, q):
    """1, plus the extra purchases of q's cards, recomputed on demand (D17)."""
    return 1 + extra_buys_if_pile_has(s, q) + extra_buys_of_insurance(s, q)


@nb.njit(cache=True)
def shortfall(need, pile):
    """Gold needed on top of the gem dice to pay ``need`` (purse and mask never pay)."""
    short = np.int64(0)
    for c in range(NUM_GEMS):
        if need[c] > pile[c]:
            short += need[c] - pile[c]
    return short


@nb.njit(cache=True)
def shortfall_waiving(need, pile, waived):
    """shortfall(need - e_waived)."""
    short = np.int64(0)
    for c in range(NUM_GEMS):
        missing = np.int64(need[c]) - pile[c] - (c == waived)
        if missing > 0:
            short += missing
    return short


@nb.njit(cache=True)
def can_waive(need, pile, gold, c):
    return need[c] >= 1 and shortfall_waiving(need, pile, c) <= gold


@nb.njit(cache=True)
def affordable(s, q, card):
    """Payable now with q's gem dice and gold, with the Insurance waiver if q owns it (D32)."""
    need = CARD_COST[card]
    gold = s.gold[q]
    if owns(s, INSURANCE_CARD, q):
        for c in range(NUM_GEMS):
            if can_waive(need, s.pile[q], gold, c):
                return True
        return False
    return shortfall(need, s.pile[q]) <= gold


@nb.njit(cache=True)
def buy(s, slot):
    x = s.market[slot]
    s.market[slot] = EMPTY_SLOT
    s.pending_card = x
    for c in range(NUM_GEMS):
        s.need[c] = CARD_COST[x, c]
    if owns(s, INSURANCE_CARD, s.actor):
        s.stage = P_WAIVE
    else:
        enter_payment(s)


@nb.njit(cache=True)
def current_gem(s):
    for c in range(NUM_GEMS):
        if s.need[c] > 0:
            return c
    return -1


@nb.njit(cache=True)
def enter_payment(s):
    """Pay the next gem, or acquire the card once nothing is left to pay (4.5.2)."""
    if current_gem(s) >= 0:
        s.stage = P_PAY
    else:
        x = s.pending_card
        s.pending_card = -1
        s.stage = P_MAIN
        acquire(s, x, s.actor)


@nb.njit(cache=True)
def pay(s, action):
    p = s.actor
    c = current_gem(s)
    if action == PAY_DIE:
        s.pile[p, c] -= 1
        s.centre[c] += 1
    else:
        s.gold[p] -= 1
    s.need[c] -= 1
    enter_payment(s)


@nb.njit(cache=True)
def acquire(s, x, q):
    """A purchase: count it, take the card, on-purchase infamy, on-gain effects (4.5.3)."""
    s.buys_made += 1
    s.owner[x] = DISCARDED if EFFECT[x] == GAIN_TOP_CARD else q
    infamy_on_buy_with(s, x, q)
    if EFFECT[x] == GAIN_TOP_CARD:
        gain_top_card(s, q)
    else:
        on_gain(s, x, q)


@nb.njit(cache=True)
def on_gain(s, x, q):
    """Effects of gaining x, bought or free."""
    if EFFECT[x] == INFAMY_EQ_PILE_SIZE:
        infamy_eq_pile_size(s, q)


# Card effects (section 5), one function per effect code --------------------------------------


@nb.njit(cache=True)
def convert_die(s, card, from_face, to_face):
    """CONVERT_DIE: one die of ``from_face`` now shows ``to_face`` (5.1)."""
    p = s.actor
    s.pile[p, from_face] -= 1
    s.pile[p, to_face] += 1
    s.used[card] = 1


@nb.njit(cache=True)
def spend_die_for_infamy(s, card):
    """SPEND_DIE_FOR_INFAMY: a die of colour PA to the centre for PB infamy (5.2)."""
    p = s.actor
    s.pile[p, PA[card]] -= 1
    s.centre[PA[card]] += 1
    s.infamy[p] += PB[card]
    s.used[card] = 1


@nb.njit(cache=True)
def spend_die_for_gold(s, card):
    """SPEND_DIE_FOR_GOLD: a die of face PA to the centre for PB gold, spendable now (5.2)."""
    p = s.actor
    s.pile[p, PA[card]] -= 1
    s.centre[PA[card]] += 1
    s.gold[p] += PB[card]
    s.used[card] = 1


@nb.njit(cache=True)
def gold_for_infamy(s, card):
    """GOLD_FOR_INFAMY: pay PA gold, gain PB infamy; no use limit (5.3)."""
    p = s.actor
    s.gold[p] -= PA[card]
    s.infamy[p] += PB[card]


@nb.njit(cache=True)
def extra_buys_if_pile_has(s, q):
    """EXTRA_BUY_IF_PILE_HAS: +1 purchase per card whose colour was in the snapshot (5.4)."""
    extra = 0
    for card in EXTRA_BUY_CARDS:
        if s.owner[card] == q and s.snap_gem[q, PA[card]]:
            extra += 1
    return extra


@nb.njit(cache=True)
def extra_buys_of_insurance(s, q):
    """EXTRA_BUY_AND_DISCOUNT: +PA purchases every round; the waiver is the P_WAIVE step."""
    return PA[INSURANCE_CARD] if owns(s, INSURANCE_CARD, q) else 0


@nb.njit(cache=True)
def infamy_on_buy_with(s, x, q):
    """INFAMY_ON_BUY_WITH: +1 infamy per such card whose colour is in x's printed cost (D18)."""
    for card in ON_BUY_CARDS:
        if s.owner[card] == q and CARD_COST[x, PA[card]] >= 1:
            s.infamy[q] += 1


@nb.njit(cache=True)
def infamy_if_pawn(s, h):
    """INFAMY_IF_PAWN: the pawn holder at the end of Divide gains 1 infamy (5.7)."""
    for card in PAWN_INFAMY_CARDS:
        if s.owner[card] == h:
            s.infamy[h] += 1


@nb.njit(cache=True)
def infamy_when_stolen(s, v):
    """INFAMY_WHEN_STOLEN: 1 infamy each time v's pile is stolen (5.7)."""
    for card in STOLEN_INFAMY_CARDS:
        if s.owner[card] == v:
            s.infamy[v] += 1


@nb.njit(cache=True)
def lucky_appendage_keeps_faces(s, v):
    """LUCKY_APPENDAGE (a): dice returned from v's stolen pile keep their faces (D13).

    Part (b), the reroll at the start of Purchases, is the P_LAA stage (end_divide)."""
    return owns(s, LUCKY_CARD, v)


@nb.njit(cache=True)
def bonus_gold_on_turn_in(s, q):
    """BONUS_GOLD_ON_TURN_IN: +1 gold when q turns in purse dice (5.8)."""
    for card in TURN_IN_GOLD_CARDS:
        if s.owner[card] == q:
            s.gold[q] += 1


@nb.njit(cache=True)
def bonus_infamy_on_turn_in(s, q):
    """BONUS_INFAMY_ON_TURN_IN: +1 infamy when q turns in mask dice (5.8)."""
    for card in TURN_IN_INFAMY_CARDS:
        if s.owner[card] == q:
            s.infamy[q] += 1


@nb.njit(cache=True)
def gain_top_card(s, q):
    """GAIN_TOP_CARD: gain free the newest open deck's top card, if any (D20)."""
    d = s.newest_row
    if s.deck_size[d] > 0:
        y = draw(s, d)
        s.owner[y] = q
        on_gain(s, y, q)


@nb.njit(cache=True)
def infamy_eq_pile_size(s, q):
    """INFAMY_EQ_PILE_SIZE: infamy equal to q's end-of-Divide pile size (5.6)."""
    s.infamy[q] += s.snap_size[q]


@nb.njit(cache=True)
def icons_owned(s, q, icon):
    total = 0
    for x in range(NUM_CARDS):
        if s.owner[x] == q:
            total += CARD_ICONS[x, icon]
    return total


@nb.njit(cache=True)
def cards_owned(s, q):
    total = 0
    for x in range(NUM_CARDS):
        if s.owner[x] == q:
            total += 1
    return total


@nb.njit(cache=True)
def card_points(s, x, q):
    """End-game VP of card x owned by q: the printed VP plus its scoring effect (5.9)."""
    points = np.int64(CARD_VP[x])
    effect = EFFECT[x]
    if effect == SAFEHOUSE:
        points += PA[x] if icons_owned(s, q, BUILDING) == 1 else PB[x]
    elif effect == VP_PER_WAND_PAIR:
        points += PA[x] * (icons_owned(s, q, WAND) // 2)
    elif effect == VP_PER_OTHER_CARD:
        points += PA[x] * (cards_owned(s, q) - 1)
    elif effect == VP_PER_INFAMY_PAIR:
        points += PA[x] * (np.int64(s.infamy[q]) // 2)
    elif effect == TREASURE_MAP:
        rival = False
        for r in range(s.num_players):
            if r != q and icons_owned(s, r, COMPASS) >= 1:
                rival = True
        points += PB[x] if rival else PA[x]
    return points


# Legality and the action dispatch (8.2) -----------------------------------------------------


@nb.njit(cache=True)
def can_use(s, card, face):
    """An activated once-per-round ability: owned by the purchaser, unused, a die to use."""
    p = s.actor
    return (
        s.stage == P_MAIN
        and card >= 0
        and s.owner[card] == p
        and s.used[card] == 0
        and s.pile[p, face] >= 1
    )


@nb.njit(cache=True)
def is_legal(s, action):
    """Whether ``action`` is legal for the actor now (the table of spec 8.2)."""
    stage = s.stage
    p = s.actor
    if action <= TAKE_PAWN:
        taking = stage == D_TAKING or (stage == D_CHOOSE and not is_last(s))
        if action == TAKE_PAWN:
            return taking and s.pawn_loc == IN_CENTRE
        return taking and s.centre[action - TAKE_DIE_0] >= 1
    if action == TAKE_ALL:
        return stage == D_CHOOSE and is_last(s) and centre_objects(s) > 0
    if action == FINISH_TAKE:
        return stage == D_TAKING
    if action < RETURN_DIE_0:
        k = action - STEAL_1 + 1
        n = s.num_players
        return stage == D_CHOOSE and k < n and pile_size(s, (p + k) % n) >= 2
    if action <= RETURN_PAWN:
        if stage != D_RETURNING or pile_size(s, p) < 2:
            return False
        if action == RETURN_PAWN:
            return s.pawn_loc == p
        return s.pile[p, action - RETURN_DIE_0] >= 1
    if action == FINISH_RETURN:
        return stage == D_RETURNING and (dice_in(s.ret_buf) >= 1 or s.pawn_loc == IN_RETURN_BUFFER)
    if action < LAA_SKIP:
        return stage == P_LAA and s.pile[p, action - LAA_REROLL_0] >= 1
    if action == LAA_SKIP:
        return stage == P_LAA
    if action < WAIVE_0:
        x = s.market[action - BUY_0]
        return (
            stage == P_MAIN and x >= 0 and s.buys_made < allowed_buys(s, p) and affordable(s, p, x)
        )
    if action < PAY_DIE:
        return stage == P_WAIVE and can_waive(s.need, s.pile[p], s.gold[p], action - WAIVE_0)
    if action <= PAY_GOLD:
        if stage != P_PAY:
            return False
        c = current_gem(s)
        if action == PAY_DIE:
            return s.pile[p, c] >= 1
        return s.gold[p] >= 1 and (
            s.pile[p, c] < s.need[c] or shortfall(s.need, s.pile[p]) < s.gold[p]
        )
    if action < JEWELLER_0:
        j = action - CONVERT_GEM_0
        from_gem = j // 3
        to_gem = j % 3 + (j % 3 >= from_gem)
        return can_use(s, CONVERTER[from_gem, to_gem], from_gem)
    if action < TO_PURSE_0:
        return can_use(s, CONVERTER[PURSE, action - JEWELLER_0], PURSE)
    if action < SPEND_FOR_INFAMY_0:
        c = action - TO_PURSE_0
        return can_use(s, CONVERTER[c, PURSE], c)
    if action < GAUNTLET:
        c = action - SPEND_FOR_INFAMY_0
        return can_use(s, SPENDER[c], c)
    if action == GAUNTLET:
        return can_use(s, SPENDER[MASK], MASK)
    if action == EXIT_STRATEGY:
        return (
            stage == P_MAIN
            and owns(s, EXIT_STRATEGY_CARD, p)
            and s.gold[p] >= PA[EXIT_STRATEGY_CARD]
        )
    return stage == P_MAIN  # END_TURN


@nb.njit(cache=True)
def legal_mask(s, out):
    out[:] = 0
    if s.status != RUNNING:
        return
    for action in range(STAGE_FIRST[s.stage], STAGE_END[s.stage]):
        if is_legal(s, action):
            out[action] = 1


@nb.njit(cache=True)
def forced_action(s):
    """The only legal action of a sub-decision, or -1 (spec 8.1: D_CHOOSE and P_MAIN are
    always presented to the agent)."""
    if s.status != RUNNING or s.stage == D_CHOOSE or s.stage == P_MAIN:
        return -1
    found = -1
    for action in range(STAGE_FIRST[s.stage], STAGE_END[s.stage]):
        if is_legal(s, action):
            if found >= 0:
                return -1
            found = action
    return found


@nb.njit(cache=True)
def apply(s, action):
    """Play one legal decision and every automatic step and forced sub-decision after it."""
    play(s, action)
    forced = forced_action(s)
    while forced >= 0:
        play(s, forced)
        forced = forced_action(s)


@nb.njit(cache=True)
def play(s, action):
    p = s.actor
    if action <= TAKE_PAWN:
        take(s, action)
    elif action == TAKE_ALL:
        take_all(s)
    elif action == FINISH_TAKE:
        finish_take(s)
    elif action < RETURN_DIE_0:
        steal(s, action - STEAL_1 + 1)
    elif action < RETURN_PAWN:
        f = action - RETURN_DIE_0
        s.pile[p, f] -= 1
        s.ret_buf[f] += 1
    elif action == RETURN_PAWN:
        s.pawn_loc = IN_RETURN_BUFFER
    elif action == FINISH_RETURN:
        finish_return(s)
    elif action < LAA_SKIP:
        f = action - LAA_REROLL_0
        s.pile[p, f] -= 1
        s.pile[p, rand_below(s, NUM_FACES)] += 1
        start_purchases(s)
    elif action == LAA_SKIP:
        start_purchases(s)
    elif action < WAIVE_0:
        buy(s, action - BUY_0)
    elif action < PAY_DIE:
        s.need[action - WAIVE_0] -= 1
        enter_payment(s)
    elif action <= PAY_GOLD:
        pay(s, action)
    elif action < JEWELLER_0:
        j = action - CONVERT_GEM_0
        from_gem = j // 3
        to_gem = j % 3 + (j % 3 >= from_gem)
        convert_die(s, CONVERTER[from_gem, to_gem], from_gem, to_gem)
    elif action < TO_PURSE_0:
        to_gem = action - JEWELLER_0
        convert_die(s, CONVERTER[PURSE, to_gem], PURSE, to_gem)
    elif action < SPEND_FOR_INFAMY_0:
        c = action - TO_PURSE_0
        convert_die(s, CONVERTER[c, PURSE], c, PURSE)
    elif action <= GAUNTLET:
        face = MASK if action == GAUNTLET else action - SPEND_FOR_INFAMY_0
        card = SPENDER[face]
        if EFFECT[card] == SPEND_DIE_FOR_INFAMY:
            spend_die_for_infamy(s, card)
        else:
            spend_die_for_gold(s, card)
    elif action == EXIT_STRATEGY:
        gold_for_infamy(s, EXIT_STRATEGY_CARD)
    else:
        end_turn(s)


# End of game (section 6) --------------------------------------------------------------------


@nb.njit(cache=True)
def majority_award(values, n, first, second, out):
    """Add a majority award to ``out`` (D25): only values >= 1 compete; a tie for first gives
    each first - 1 and no second place; a lone second gets ``second``, tied seconds second - 1."""
    top = 0
    for q in range(n):
        top = max(top, values[q])
    if top < 1:
        return
    tied = 0
    for q in range(n):
        tied += values[q] == top
    if tied > 1:
        for q in range(n):
            if values[q] == top:
                out[q] += first - 1
        return
    runner_up = 0
    for q in range(n):
        if values[q] == top:
            out[q] += first
        elif values[q] > runner_up:
            runner_up = values[q]
    if second <= 0 or runner_up < 1:
        return
    tied = 0
    for q in range(n):
        tied += values[q] == runner_up
    for q in range(n):
        if values[q] == runner_up:
            out[q] += second if tied == 1 else second - 1


@nb.njit(cache=True)
def score_table(s, out):
    """Per seat: card VP, infamy VP, henchman and gold awards, total, cards, tokens, henchmen."""
    n = s.num_players
    out[:] = 0
    henchmen = np.zeros(NUM_PLAYERS_MAX, np.int64)
    gold = np.zeros(NUM_PLAYERS_MAX, np.int64)
    henchman_award = np.zeros(NUM_PLAYERS_MAX, np.int64)
    gold_award = np.zeros(NUM_PLAYERS_MAX, np.int64)
    for q in range(n):
        for x in range(NUM_CARDS):
            if s.owner[x] == q:
                out[q, CARD_POINTS] += card_points(s, x, q)
                out[q, CARDS] += 1
        henchmen[q] = icons_owned(s, q, HENCHMAN)
        gold[q] = s.gold[q]
    majority_award(henchmen, n, HENCHMAN_FIRST, HENCHMAN_SECOND, henchman_award)
    majority_award(gold, n, GOLD_FIRST, GOLD_SECOND, gold_award)
    for q in range(n):
        out[q, INFAMY_POINTS] = s.infamy[q]
        out[q, HENCHMAN_AWARD] = henchman_award[q]
        out[q, GOLD_AWARD] = gold_award[q]
        out[q, TOTAL] = (
            out[q, CARD_POINTS] + out[q, INFAMY_POINTS] + henchman_award[q] + gold_award[q]
        )
        out[q, TOKENS] = np.int64(s.infamy[q]) + s.gold[q]
        out[q, HENCHMEN] = henchmen[q]


@nb.njit(cache=True)
def returns(s, out):
    """+1 for every winner (score, then cards, then tokens; shared wins), -1 otherwise (D28);
    0 for everyone in a truncated or unfinished game (D23)."""
    n = s.num_players
    out[:] = 0.0
    if s.status != TERMINATED:
        return
    table = np.zeros((NUM_PLAYERS_MAX, NUM_SCORE_COLUMNS), np.int64)
    score_table(s, table)
    best = 0
    for q in range(1, n):
        if beats(table[q], table[best]):
            best = q
    for q in range(n):
        won = not beats(table[best], table[q])
        out[q] = 1.0 if won else -1.0


@nb.njit(cache=True)
def beats(a, b):
    """Row a ranks above row b: higher score, then more cards, then more tokens."""
    for column in (TOTAL, CARDS, TOKENS):
        if a[column] != b[column]:
            return a[column] > b[column]
    return False


# Hidden information (section 7) --------------------------------------------------------------


@nb.njit(cache=True)
def determinize(s, seat, seed):
    """Re-deal every deck's order and the trimmed cards; new RNG from ``seed`` (D33).

    Every seat sees the same things (the hidden part is hidden from all), so ``seat`` does
    not change what is re-dealt. Unowned cards in the market or being paid for are seen."""
    seed_rng(s, seed)
    seen = np.zeros(NUM_CARDS, np.bool_)
    for slot in range(s.market.shape[0]):
        if s.market[slot] >= 0:
            seen[s.market[slot]] = True
    if s.pending_card >= 0:
        seen[s.pending_card] = True
    unseen = np.empty(NUM_CARDS, np.int8)
    for d in range(NUM_DECKS):
        k = 0
        for x in range(NUM_CARDS):
            hidden = s.owner[x] == TRIMMED or (s.owner[x] == UNOWNED and not seen[x])
            if CARD_DECK[x] == d and hidden:
                unseen[k] = x
                k += 1
        shuffle(s, unseen, k)
        size = s.deck_size[d]
        for i in range(k):
            if i < size:
                s.deck[d, i] = unseen[i]
                s.owner[unseen[i]] = UNOWNED
            else:
                s.owner[unseen[i]] = TRIMMED
    seed_rng(s, rand_below(s, 1 << 62))
