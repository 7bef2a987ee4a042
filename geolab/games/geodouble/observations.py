"""GeoDouble on the step-wise state: fixed action indices, and a seat's observation (the
engine's `MatchView`) as text and as a flat tensor (docs/rules-geodouble.md, "Step-wise state").

Stage-2 decisions keep Play the Ranks' own indices (`geolab.games.ranks.observations`). A race
claim comes after them: a solution is numbered by its border group and its capital group among
all such groups of the 50 cards (``border * capitals + capital``, in the finder's order), then
the wrong claim, then no claim at all.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from geolab.cards import N_CARDS
from geolab.common.text import codes
from geolab.game import Decision
from geolab.games import groups
from geolab.games.geodouble.reference import WRONG, MatchView, RaceSeen, Solution
from geolab.games.geodouble.rules import Rules
from geolab.games.ranks import observations as ranks
from geolab.observer import NO_ACTION, Layout, action_named
from geolab.stepwise import checked


@cache
def _groups(four_corners: bool, water: bool) -> tuple[dict, dict, int, int]:
    deck = range(N_CARDS)
    border = {g: i for i, g in enumerate(groups.border_groups(deck, four_corners, water))}
    capital = {g: i for i, g in enumerate(groups.capital_groups(deck))}
    return border, capital, len(border), len(capital)


def _claims_start(rules: Rules) -> int:
    return ranks.num_actions(rules.stage)


def num_actions(rules: Rules) -> int:
    _, _, nb, nc = _groups(rules.four_corners, rules.water)
    return _claims_start(rules) + nb * nc + 2


def _inner(decision: Decision) -> Decision:
    """A stage-2 decision as Play the Ranks asks it (its own View)."""
    return Decision(decision.seat, decision.kind, decision.observation.stage, decision.legal, decision.where)


def action_id(rules: Rules, decision: Decision, action) -> int:
    """The fixed index of one of `decision`'s legal actions (at a race, None too)."""
    if not decision.timed:
        return ranks.action_id(rules.stage, _inner(decision), action)
    border, capital, nb, nc = _groups(rules.four_corners, rules.water)
    start = _claims_start(rules) + nb * nc
    if action is None:
        return start + 1
    action = checked(decision, action, "AB"[decision.seat])
    if action == WRONG:
        return start
    return _claims_start(rules) + border[action.border] * nc + capital[action.capital]


def action_of(rules: Rules, decision: Decision, index: int):
    """The legal action `index` names at `decision` (`action_id` backwards)."""
    if not decision.timed:
        return ranks.action_of(rules.stage, _inner(decision), index)
    border, capital, nb, nc = _groups(rules.four_corners, rules.water)
    start = _claims_start(rules)

    def decode(i: int):
        if i == start + nb * nc + 1:
            return None
        if i == start + nb * nc:
            return WRONG
        if not start <= i < start + nb * nc:
            return NO_ACTION
        b, c = divmod(i - start, nc)
        return Solution(list(border)[b], list(capital)[c])

    return action_named(decision, index, decode, "claim", "AB"[decision.seat])


# ----- observations ----------------------------------------------------------------------------

def _race_text(race: RaceSeen) -> str:
    def claim(c) -> str:
        if c is None or c.action is None:
            return "no claim"
        return f"{c.action.label()} at {c.seconds:.2f} s"

    first = "; ".join(f"{'AB'[s]} claimed {claim(c)}" for s, c in race.first) or "nobody claimed"
    winner = "void" if race.winner < 0 else f"{'AB'[race.winner]} won"
    return (f"race hand {codes(race.hands[-1], 'none')} (deal {len(race.hands)}), own {claim(race.own)}, "
            f"{first}, {winner}")


def observation_string(rules: Rules, seat: int, view: MatchView) -> str:
    """Everything `view` holds: the seat, the score, each finished round (its race as the seat
    saw it, its stage as Play the Ranks shows it), then the stage now."""
    parts = ["AB"[seat], f"round {view.round + 1}", f"score A {view.score[0]} B {view.score[1]}"]
    for n, past in enumerate(view.past, start=1):
        stage = "" if past.stage is None else " / stage: " + ranks.observation_string(rules.stage, seat, past.stage)
        parts.append(f"round {n}: {_race_text(past.race)}{stage} / points {past.points[0]}-{past.points[1]}")
    if view.race_hand is not None:
        parts.append(f"racing, deal {view.attempt}: hand {codes(view.race_hand, 'none')}")
    if view.race is not None:
        parts.append(_race_text(view.race))
    if view.stage is not None:
        parts.append("stage: " + ranks.observation_string(rules.stage, seat, view.stage))
    return " | ".join(parts)


@cache
def _layout(rules: Rules) -> Layout:
    """The tensor's pieces: before the stage, seat 2, score 2, round 1, race hand 50, deal number
    1, this round's race winner 3 (A, B, void), racing 1, in stage 2 1; then the stage's own."""
    return Layout([("seat", 2), ("score", 2), ("round", 1), ("race hand", N_CARDS), ("deal", 1),
                   ("race winner", 3), ("racing", 1), ("in stage", 1), ("stage", ranks.tensor_size(rules.stage))])


def tensor_size(rules: Rules) -> int:
    return _layout(rules).size


def observation_tensor(rules: Rules, seat: int, view: MatchView) -> np.ndarray:
    """`view` as float32 values, `tensor_size` long: the seat (one-hot), the score / target,
    the round / max_rounds, the race hand (one a card, while racing), the race deal number /
    (redeals + 1), this round's race winner (A, B, void: one-hot once settled), racing (1),
    in stage 2 (1), then Play the Ranks' tensor of the stage view (zeros outside stage 2)."""
    out = _layout(rules).tensor()
    out.one("seat", seat)
    out.put("score", np.array(view.score, np.float32) / rules.target)
    out.put("round", view.round / rules.max_rounds)
    if view.race_hand is not None:
        out.ones("race hand", view.race_hand)
        out.put("racing", 1)
    out.put("deal", view.attempt / (rules.redeals + 1))
    if view.race is not None:
        out.one("race winner", view.race.winner if view.race.winner >= 0 else 2)
    if view.stage is not None:
        out.put("in stage", 1)
        out.put("stage", ranks.observation_tensor(rules.stage, seat, view.stage))
    return out.values
