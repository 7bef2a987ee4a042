"""Dashing States on the step-wise state: fixed action indices, and a seat's observation (the
engine's `View`) as text and as a flat tensor (docs/rules-dashing.md, "Step-wise state").

Indices: the rows first (`reference.rows`: each order of `placed` positions, face-down then
face-up), then claiming nothing, then the announcements (`reference.sayings`: state by state,
capital by capital, None last). A row names positions in the hand, so an index means the same
claim in every game.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from geolab.cards import CAPITALS, N_CARDS, POSTAL
from geolab.common.text import codes
from geolab.game import Decision
from geolab.games.dashing.reference import SIDES, Row, Said, View, rows, sayings
from geolab.games.dashing.rules import Rules
from geolab.observer import NO_ACTION, action_named
from geolab.stepwise import checked


@cache
def _index(rules: Rules) -> tuple[dict, dict]:
    return {r: i for i, r in enumerate(rows(rules))}, {s: i for i, s in enumerate(sayings(rules))}


def num_actions(rules: Rules) -> int:
    return len(rows(rules)) + 1 + len(sayings(rules))


def action_id(rules: Rules, decision: Decision, action) -> int:
    """The fixed index of one of `decision`'s legal actions (at the race, None too)."""
    by_row, by_said = _index(rules)
    if decision.timed:
        if action is None:
            return len(by_row)
        return by_row[checked(decision, action, SIDES[decision.seat])]
    return len(by_row) + 1 + by_said[checked(decision, action, SIDES[decision.seat])]


def action_of(rules: Rules, decision: Decision, index: int):
    """The legal action `index` names at `decision` (`action_id` backwards)."""
    legal_rows, legal_said = rows(rules), sayings(rules)

    def decode(i: int):
        if decision.timed:
            return None if i == len(legal_rows) else legal_rows[i] if 0 <= i < len(legal_rows) else NO_ACTION
        said = i - len(legal_rows) - 1
        return legal_said[said] if 0 <= said < len(legal_said) else NO_ACTION

    return action_named(decision, index, decode, decision.kind, SIDES[decision.seat])


# ----- observations ----------------------------------------------------------------------------
def row_text(row: Row) -> str:
    """A row by the positions of its cards, 1-based: ``3 1 5 2 face-down``."""
    return " ".join(str(p + 1) for p in row.order) + (" face-down" if row.face_down else " face-up")


def said_text(said: Said) -> str:
    state = "?" if said.state is None else POSTAL[said.state]
    capital = "?" if said.capital is None else CAPITALS[said.capital]
    return f"{state} {capital}"


def observation_string(rules: Rules, seat: int, view: View) -> str:
    """Everything `view` holds: the seat, its cards in the order dealt, its claim, the first
    shout(s), the announcements, the place being announced and the result."""
    parts = [SIDES[seat], f"cards {codes(view.hand, 'none')}"]
    if view.own is not None:
        own = "no shout" if view.own.action is None else row_text(view.own.action)
        parts.append(f"own {own} at {view.own.seconds:.3f} s")
    for shout in view.shouts:
        shown_cards = f", shown {codes(shout.shown, 'none')}" if shout.shown else ""
        parts.append(f"{SIDES[shout.seat]} shouted first at {shout.seconds:.3f} s: {row_text(shout.row)} "
                     f"{codes(shout.cards, 'none')}{shown_cards}")
    if view.settled and not view.shouts:
        parts.append("nobody shouted")
    for s in (0, 1):
        if view.said[s]:
            parts.append(f"{SIDES[s]} said " + ", ".join(said_text(x) for x in view.said[s]))
    if view.place is not None:
        parts.append(f"announcing place {view.place + 1}")
    if view.over:
        parts.append("over: " + ("a tie" if view.winner < 0 else f"{SIDES[view.winner]} won"))
    return " | ".join(parts)


def _sizes(rules: Rules) -> dict[str, int]:
    k, p = rules.cards, rules.placed
    side = 1 + p * N_CARDS + N_CARDS + p * 2 * (N_CARDS + 1)  # first, row cards, shown, said
    return {"seat": 2, "hand": k * N_CARDS, "own": 2 + p * k, "sides": 2 * side, "place": p, "end": 1 + 3}


def tensor_size(rules: Rules) -> int:
    return sum(_sizes(rules).values())


def observation_tensor(rules: Rules, seat: int, view: View) -> np.ndarray:
    """`view` as float32 values, `tensor_size` long: the seat (one-hot); each card of the hand
    by position (one-hot of its card); its own claim (claimed, face-down, each place's position
    one-hot); for A then B: shouted first, the row's cards by place, the unused cards shown,
    and each announced place (state one-hot of 51, capital one-hot of 51, the last for none);
    the place being announced (one-hot); over, and the result (A, B, tie)."""
    k, p, n = rules.cards, rules.placed, N_CARDS
    out = np.zeros(tensor_size(rules), np.float32)
    out[seat] = 1
    at = 2
    for i, c in enumerate(view.hand):
        out[at + i * n + c] = 1
    at += k * n
    if view.own is not None and view.own.action is not None:
        out[at] = 1
        out[at + 1] = view.own.action.face_down
        for place, pos in enumerate(view.own.action.order):
            out[at + 2 + place * k + pos] = 1
    at += 2 + p * k
    shouts = {s.seat: s for s in view.shouts}
    for s in (0, 1):
        if s in shouts:
            out[at] = 1
            for place, c in enumerate(shouts[s].cards):
                out[at + 1 + place * n + c] = 1
            for c in shouts[s].shown:
                out[at + 1 + p * n + c] = 1
        base = at + 1 + p * n + n
        for place, said in enumerate(view.said[s]):
            out[base + place * 2 * (n + 1) + (n if said.state is None else said.state)] = 1
            out[base + place * 2 * (n + 1) + n + 1 + (n if said.capital is None else said.capital)] = 1
        at = base + p * 2 * (n + 1)
    if view.place is not None:
        out[at + view.place] = 1
    at += p
    if view.over:
        out[at] = 1
        out[at + 1 + (view.winner if view.winner >= 0 else 2)] = 1
    return out
