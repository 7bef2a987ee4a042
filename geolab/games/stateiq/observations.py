"""State IQ on the step-wise state: fixed action indices, and a seat's observation (the
engine's `View`) as text and as a flat tensor (docs/rules-stateiq.md, "Step-wise state").

Actions: a guess of card c is index c (0-49); naming border state t as a clue is 50 + t.
"""

from __future__ import annotations

import numpy as np

from geolab.cards import N_CARDS, POSTAL, POWER_DECK
from geolab.errors import IllegalActionError
from geolab.game import Decision, shown
from geolab.games.stateiq.clues import LETTERS
from geolab.games.stateiq.reference import GUESSES, SIDES, View
from geolab.games.stateiq.rules import KINDS, Rules
from geolab.stepwise import checked, legal_index

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
    ok = isinstance(index, (int, np.integer)) and not isinstance(index, bool) and start <= index < start + N_CARDS
    i = legal_index(decision, int(index) - start) if ok else -1
    if i < 0:
        what = "border state" if decision.kind == "clue" else "guess"
        raise IllegalActionError(f"{decision.where}: index {shown(index)} names no {what} {SIDES[decision.seat]} "
                                 f"may make")
    return decision.legal[i]


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
SLOT = 1 + len(LETTERS) + N_CARDS + 1 + N_CARDS + 1
#: seat, own card, Power card, order (3 slots x 3 kinds), draw (2 x 50), first guesser, phase now
HEAD = 2 + N_CARDS + len(POWER_DECK) + 3 * len(KINDS) + 2 * N_CARDS + 2 + 2


def tensor_size(rules: Rules) -> int:
    return HEAD + 2 * GUESSES * SLOT


def observation_tensor(rules: Rules, seat: int, view: View) -> np.ndarray:
    """`view` as float32 values, `tensor_size` long: the blocks of `HEAD` (one-hot each; the
    draw zeros when the first guesser is given), then for each phase and each of its three
    slots the clue and the guess (`SLOT`)."""
    out = np.zeros(tensor_size(rules), np.float32)
    at = 0

    def one(size: int, index: int | None) -> None:
        nonlocal at
        if index is not None:
            out[at + index] = 1
        at += size

    one(2, seat)
    one(N_CARDS, view.card)
    one(len(POWER_DECK), view.power)
    for kind in view.order:
        one(len(KINDS), KINDS.index(kind))
    one(N_CARDS, None if view.draw is None else view.draw[0])
    one(N_CARDS, None if view.draw is None else view.draw[1])
    one(2, view.first)
    one(2, len(view.phases) - 1 if view.phases else None)
    for p in range(2):
        phase = view.phases[p] if p < len(view.phases) else None
        for k in range(GUESSES):
            clue = phase.clues[k] if phase is not None and k < len(phase.clues) else None
            one(1, None if clue is None else 0)
            one(len(LETTERS), LETTERS.index(clue.value) if clue is not None and isinstance(clue.value, str) else None)
            one(N_CARDS, clue.value if clue is not None and clue.kind == "B" and clue.value is not None else None)
            one(1, 0 if clue is not None and clue.value is None else None)
            guess = phase.guesses[k] if phase is not None and k < len(phase.guesses) else None
            one(N_CARDS, guess)
            one(1, 0 if guess is not None and phase.found == k + 1 else None)
    assert at == len(out)
    return out
