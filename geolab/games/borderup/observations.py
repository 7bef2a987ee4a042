"""Border-Up on the step-wise state: fixed action indices, and a team's observation (the
engine's `View`) as text and as a flat tensor (docs/rules-borderup.md, "Step-wise state").

A claim is numbered by its pair of border groups among all the pairs of the 50 cards' border
groups (i < j their numbers in the finder's order: ``i * n - i * (i + 1) / 2 + j - i - 1``, n
the border groups of the 50 cards), then the wrong claim, then no claim at all.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from geolab.cards import N_CARDS
from geolab.common.text import codes
from geolab.game import Decision
from geolab.games import groups
from geolab.games.borderup.reference import OUTCOMES, SIDES, WRONG, Seen, Solution, View
from geolab.games.borderup.rules import Rules
from geolab.observer import NO_ACTION, Layout, action_named
from geolab.stepwise import checked


@cache
def _groups(four_corners: bool, water: bool) -> tuple[tuple[groups.Group, ...], dict, np.ndarray]:
    """The border groups of the 50 cards in order, their numbers, and where each group's row
    of pairs starts among the pair numbers."""
    border = tuple(groups.border_groups(range(N_CARDS), four_corners, water))
    n = len(border)
    starts = np.array([i * n - i * (i + 1) // 2 for i in range(n)], np.int64)
    return border, {g: i for i, g in enumerate(border)}, starts


def _pairs(rules: Rules) -> int:
    n = len(_groups(rules.four_corners, rules.water)[0])
    return n * (n - 1) // 2


def num_actions(rules: Rules) -> int:
    return _pairs(rules) + 2


def action_id(rules: Rules, decision: Decision, action) -> int:
    """The fixed index of one of `decision`'s legal claims, or of no claim (None)."""
    if action is None:
        return _pairs(rules) + 1
    action = checked(decision, action, SIDES[decision.seat])
    if action == WRONG:
        return _pairs(rules)
    _, number, starts = _groups(rules.four_corners, rules.water)
    i, j = number[action.first], number[action.second]
    return int(starts[i]) + j - i - 1


def action_of(rules: Rules, decision: Decision, index: int):
    """The legal claim `index` names at `decision` (`action_id` backwards); None for no claim."""
    pairs = _pairs(rules)
    border, _, starts = _groups(rules.four_corners, rules.water)

    def decode(i: int):
        if i == pairs + 1:
            return None
        if i == pairs:
            return WRONG
        if not 0 <= i < pairs:
            return NO_ACTION
        g = int(np.searchsorted(starts, i, side="right")) - 1
        return Solution(border[g], border[g + 1 + i - int(starts[g])])

    return action_named(decision, index, decode, "claim", SIDES[decision.seat])


# ----- observations ----------------------------------------------------------------------------

def claim_text(claim) -> str:
    if claim is None or claim.action is None:
        return "no claim"
    return f"{claim.action.label()} at {claim.seconds:.2f} s"


def result_text(result: Seen) -> str:
    if result.outcome == "dry":
        return "no deal held a solution: a tie, unraced"
    first = "; ".join(f"{SIDES[s]} claimed {claim_text(c)}" for s, c in result.first) or "nobody claimed"
    winner = "a tie" if result.winner < 0 else f"{SIDES[result.winner]} won"
    return f"own {claim_text(result.own)}, {first}, {winner} ({result.outcome})"


def observation_string(rules: Rules, seat: int, view: View) -> str:
    """Everything `view` holds: the team, each deal's hand (earlier ones were dealt again),
    and the game's end as the team saw it."""
    parts = [SIDES[seat]]
    for k, hand in enumerate(view.hands, start=1):
        parts.append(f"deal {k}: {codes(hand, 'none')}")
    if view.result is not None:
        parts.append(result_text(view.result))
    return " | ".join(parts)


#: Seconds beyond which a claim's time is read as this many (the tensor's scale).
SECONDS_SCALE = 600.0
#: The tensor's blocks, in order, with their sizes.
BLOCKS = (("seat", 2), ("hand", N_CARDS), ("earlier hands", N_CARDS), ("deal", 1), ("over", 1),
          ("outcome", len(OUTCOMES)), ("winner", 3), ("first", 2), ("own claim", 3), ("own seconds", 1),
          ("shown claim", N_CARDS), ("shown seconds", 1))
LAYOUT = Layout(BLOCKS)


def tensor_size(rules: Rules) -> int:
    return LAYOUT.size


def observation_tensor(rules: Rules, seat: int, view: View) -> np.ndarray:
    """`view` as float32 values (`BLOCKS`): the team (one-hot); its hand now (one a card); the
    cards of its hands in earlier deals; the deal number / (redeals + 1); once over: 1, how it
    ended (one-hot, `OUTCOMES`), the winner (A, B, nobody), which teams claimed first, its own
    claim (a solution, wrong, none: one-hot) and seconds / 600, the cards of the other's claim
    where it was laid face-up first, and that claim's seconds / 600."""
    out = LAYOUT.tensor()
    out.one("seat", seat)
    out.ones("hand", view.hand)
    for hand in view.hands[:-1]:
        out.ones("earlier hands", hand)
    out.put("deal", view.attempt / (rules.redeals + 1))
    result = view.result
    if result is None:
        return out.values
    out.put("over", 1)
    out.one("outcome", OUTCOMES.index(result.outcome))
    out.one("winner", result.winner if result.winner >= 0 else 2)
    for s, claim in result.first:
        out.one("first", s)
        if s != seat and claim.action is not None:
            out.ones("shown claim", [*claim.action.first, *claim.action.second])
            out.put("shown seconds", min(claim.seconds, SECONDS_SCALE) / SECONDS_SCALE)
    if result.own is not None:
        own = result.own
        out.one("own claim", 2 if own.action is None else 1 if own.action == WRONG else 0)
        out.put("own seconds", min(own.seconds, SECONDS_SCALE) / SECONDS_SCALE)
    return out.values
