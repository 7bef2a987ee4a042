"""State IQ on the step-wise state: fixed action indices, and a seat's observation (the
engine's `View`) as text and as a flat tensor (docs/rules-stateiq.md, "Step-wise state").

Actions: a guess of card c is index c (0-49); naming border state t as a clue is 50 + t.
"""

from __future__ import annotations

import numpy as np

from geolab.cards import N_CARDS, POSTAL, POWER_DECK
from geolab.game import Decision
from geolab.games.stateiq.clues import LETTERS
from geolab.games.stateiq.reference import GUESSES, SIDES, View
from geolab.games.stateiq.rules import KINDS, Rules
from geolab.observer import NO_ACTION, Layout, action_named
from geolab.stepwise import checked

#: The first clue index: guesses come first.
CLUE_IDS = N_CARDS


def num_actions(rules: Rules) -> int:
    return 2 * N_CARDS


def action_id(rules: Rules, decision: Decision, action) -> int:
    """A guess of card c is c; a clue naming border state t is 50 + t."""
    action = checked(decision, action, SIDES[decision.seat])
    return int(action) + (CLUE_IDS if decision.kind == "clue" else 0)


def action_of(rules: Rules, decision: Decision, index: int):
    """The legal action `index` names at `decision` (`action_id` backwards)."""
    start = CLUE_IDS if decision.kind == "clue" else 0
    what = "border state" if decision.kind == "clue" else "guess"
    return action_named(decision, index, lambda i: i - start if start <= i < start + N_CARDS else NO_ACTION, what,
                        SIDES[decision.seat])


# ----- observations ----------------------------------------------------------------------------
def observation_string(rules: Rules, seat: int, view: View) -> str:
    """Everything `view` holds: the seat and its card, the Power card and the order in play, the
    draw, the first guesser, then each phase's clues and guesses (a right guess marked ``!``)."""
    draw = "given" if view.draw is None else f"A {POSTAL[view.draw[0]]} B {POSTAL[view.draw[1]]}"
    parts = [SIDES[seat], f"card {POSTAL[view.card]}", f"power {view.power + 1} {POWER_DECK[view.power].clues}",
             f"order {view.order}", f"draw {draw}", f"first {SIDES[view.first]}"]
    for n, phase in enumerate(view.phases, start=1):
        rounds = []
        for k, clue in enumerate(phase.clues):
            guess = "" if k >= len(phase.guesses) else " " + POSTAL[phase.guesses[k]] + \
                ("!" if phase.found == k + 1 else "x")
            rounds.append(f"{clue.kind}{clue.index + 1}={clue.label()}{guess}")
        parts.append(f"phase {n} {SIDES[phase.guesser]} guesses: " + (", ".join(rounds) or "-"))
    return " | ".join(parts)


#: Per clue slot: given, a letter (26), a border card (50), no clue or no more borders; then the
#: guess (50 cards) and whether it was right.
SLOT = (("given", 1), ("letter", len(LETTERS)), ("border", N_CARDS), ("none", 1), ("guess", N_CARDS), ("right", 1))
#: seat, own card, Power card, order (3 slots x 3 kinds), draw (2 x 50), first guesser, phase now; then
#: each phase's slots
LAYOUT = Layout([("seat", 2), ("card", N_CARDS), ("power", len(POWER_DECK)),
                 *((f"order {k}", len(KINDS)) for k in range(3)), ("draw A", N_CARDS), ("draw B", N_CARDS),
                 ("first", 2), ("phase", 2),
                 *((f"{p} {k} {name}", size) for p in range(2) for k in range(GUESSES) for name, size in SLOT)])


def tensor_size(rules: Rules) -> int:
    return LAYOUT.size


def observation_tensor(rules: Rules, seat: int, view: View) -> np.ndarray:
    """`view` as float32 values, `tensor_size` long: the pieces of `LAYOUT` (one-hot each; the
    draw zeros when the first guesser is given), then for each phase and each of its three
    slots the clue and the guess (`SLOT`)."""
    out = LAYOUT.tensor()
    out.one("seat", seat)
    out.one("card", view.card)
    out.one("power", view.power)
    for k, kind in enumerate(view.order):
        out.one(f"order {k}", KINDS.index(kind))
    out.one("draw A", None if view.draw is None else view.draw[0])
    out.one("draw B", None if view.draw is None else view.draw[1])
    out.one("first", view.first)
    out.one("phase", len(view.phases) - 1 if view.phases else None)
    for p, phase in enumerate(view.phases):
        for k, clue in enumerate(phase.clues):
            slot = f"{p} {k}"
            out.one(f"{slot} given", 0)
            out.one(f"{slot} letter", LETTERS.index(clue.value) if isinstance(clue.value, str) else None)
            out.one(f"{slot} border", clue.value if clue.kind == "B" and clue.value is not None else None)
            out.one(f"{slot} none", 0 if clue.value is None else None)
        for k, guess in enumerate(phase.guesses):
            out.one(f"{p} {k} guess", guess)
            out.one(f"{p} {k} right", 0 if phase.found == k + 1 else None)
    return out.values
