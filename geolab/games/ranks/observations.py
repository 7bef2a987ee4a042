"""Play the Ranks on the step-wise state: fixed action indices, and a seat's observation (the
engine's `View`) as text and as a flat tensor (docs/rules.md, "Step-wise state").

Action indices are fixed by the action itself wherever that stays small: a follow is its
card, a lead its card, category and (where the lead chooses it) base, a declaration its
answer, a discard of up to `CARD_SETS_UP_TO` cards the set of its cards. A larger discard is
numbered by its place among the hand's discards (the legal order: card-order combinations of
the hand), since its card sets would number in the hundreds of thousands or more.

Both forms of an observation hold everything the `View` holds, which is everything the seat
knows (its whole history), so each serves as its information state.
"""

from __future__ import annotations

from math import comb

import numpy as np

from geolab.cards import CATEGORIES, N_CARDS, POSTAL
from geolab.common.card_sets import set_of, set_rank
from geolab.common.text import codes
from geolab.errors import IllegalActionError
from geolab.game import Decision, shown
from geolab.games.ranks.reference import Lead, View
from geolab.games.ranks.rules import SIDES, Rules
from geolab.stepwise import checked, legal_index

#: Discards of at most this many cards are numbered by their card set (C(50, 3) = 19,600).
CARD_SETS_UP_TO = 3
#: Tensor blocks before the tricks: side 2, hand 50, own discards 50, public discards 50,
#: first lead 2, declarations 4, Power bases 2, the lead on the table 3 + 1 + 50.
HEAD = 2 + 3 * N_CARDS + 2 + 4 + 2 + 3 + 1 + N_CARDS
#: One finished trick: leader 2, lead card 50, category 3, base 1, answer 50, winner 2.
TRICK = 2 + N_CARDS + 3 + 1 + N_CARDS + 2


# ----- action indices -------------------------------------------------------------------------
def _bases(rules: Rules) -> int:
    """How many bases a lead may name: the lead bases where the lead chooses, else one."""
    return len(rules.lead_bases) if rules.base_mode == "lead" else 1


def _discard_count(rules: Rules) -> int:
    k = rules.discards
    return comb(N_CARDS, k) if k <= CARD_SETS_UP_TO else comb(rules.hand_size, k)


def _starts(rules: Rules) -> dict[str, int]:
    """Where each kind's indices start: follows 0-49, then leads, declarations, discards."""
    lead = N_CARDS
    declare = lead + N_CARDS * 3 * _bases(rules)
    return {"follow": 0, "lead": lead, "declare": declare, "discard": declare + 2}


def num_actions(rules: Rules) -> int:
    return _starts(rules)["discard"] + _discard_count(rules)


def action_id(rules: Rules, decision: Decision, action) -> int:
    """The fixed index of one of `decision`'s legal actions (`IllegalActionError` for any
    other)."""
    action = checked(decision, action, SIDES[decision.seat])
    start = _starts(rules)[decision.kind]
    if decision.kind == "follow":
        return start + action
    if decision.kind == "lead":
        slot = rules.lead_bases.index(action.base) if rules.base_mode == "lead" else 0
        return start + (action.card * 3 + action.category) * _bases(rules) + slot
    if decision.kind == "declare":
        return start + int(action)
    return start + (set_rank(action) if rules.discards <= CARD_SETS_UP_TO else decision.legal.index(action))


def _decoded(rules: Rules, decision: Decision, offset: int):
    """The action of `decision.kind` that an index `offset` past the kind's start names, or
    None where it names none."""
    kind = decision.kind
    if kind == "follow":
        return offset if offset < N_CARDS else None
    if kind == "lead":
        nb = _bases(rules)
        if offset >= N_CARDS * 3 * nb:
            return None
        slot, (card, category) = offset % nb, divmod(offset // nb, 3)
        bases = rules.lead_bases if rules.base_mode == "lead" else decision.observation.allowed_bases()
        return Lead(card, category, bases[slot])
    if kind == "declare":
        return (False, True)[offset] if offset < 2 else None
    if offset >= _discard_count(rules):
        return None
    if rules.discards <= CARD_SETS_UP_TO:
        return set_of(offset, rules.discards)
    return decision.legal[offset] if offset < len(decision.legal) else None


def action_of(rules: Rules, decision: Decision, index: int):
    """The legal action `index` names at `decision` (`action_id` backwards); an index that
    names none of its legal actions is an `IllegalActionError`."""
    start = _starts(rules)[decision.kind]
    ok = isinstance(index, (int, np.integer)) and not isinstance(index, bool) and index >= start
    action = _decoded(rules, decision, int(index) - start) if ok else None
    i = -1 if action is None else legal_index(decision, action)
    if i < 0:
        raise IllegalActionError(f"{decision.where}: index {shown(index)} names no legal {decision.kind} "
                                 f"of {SIDES[decision.seat]}")
    return decision.legal[i]


# ----- observations -----------------------------------------------------------------------------

def observation_string(rules: Rules, seat: int, view: View) -> str:
    """Everything `view` holds, one part per fact: ``A | hand AL AK ... | discarded TX |
    B's discards hidden | first lead A | ... | trick 1: A led NY size base 1, B answered CO,
    A won | on the table: A led a face-down card size base 50``."""
    other = SIDES[1 - view.side]
    parts = [SIDES[view.side], f"hand {codes(view.hand, 'none')}", f"discarded {codes(view.discards, 'none')}",
             f"{other}'s discards "
             + ("hidden" if view.opponent_discards is None else codes(view.opponent_discards, 'none')),
             "first lead " + ("not yet known" if view.first_lead is None else SIDES[view.first_lead])]
    if rules.declarations:
        said = {None: "not yet", True: "declared", False: "passed"}
        parts.append(", ".join(f"{SIDES[s]} {said[view.declarations[s]]}" for s in (0, 1)))
    if view.power_bases is not None:
        parts.append(f"Power bases {view.power_bases[0]}, {view.power_bases[1]}")
    for n, t in enumerate(view.history, start=1):
        parts.append(f"trick {n}: {SIDES[t.leader]} led {POSTAL[t.lead]} {CATEGORIES[t.category]} base {t.base}, "
                     f"{SIDES[1 - t.leader]} answered {POSTAL[t.follow]}, {SIDES[t.winner]} won")
    if view.lead_category is not None:
        leader = view.history[-1].winner if view.history else view.first_lead
        card = "a face-down card" if view.lead_card is None else POSTAL[view.lead_card]
        parts.append(f"on the table: {SIDES[leader]} led {card} {CATEGORIES[view.lead_category]} base {view.lead_base}")
    return " | ".join(parts)


def tensor_size(rules: Rules) -> int:
    return HEAD + TRICK * rules.tricks


def observation_tensor(rules: Rules, seat: int, view: View) -> np.ndarray:
    """`view` as float32 values, `tensor_size` long, in this order: the side (2, one-hot), the
    hand (50, one a card held), own discards (50), the opponent's public discards (50), the
    first lead once known (2, one-hot), the declarations (4: A declared, A passed, B declared,
    B passed), the Power bases / 50 (2), the lead on the table (its category 3, one-hot; its
    base / 50; its card 50, unless face-down); then each trick slot (rules.tricks of them, zero
    until played): leader 2, lead card 50, category 3, base / 50, answer 50, winner 2."""
    out = np.zeros(tensor_size(rules), np.float32)
    out[view.side] = 1
    at = 2
    for cards in (view.hand, view.discards, view.opponent_discards or ()):
        out[[at + c for c in cards]] = 1
        at += N_CARDS
    if view.first_lead is not None:
        out[at + view.first_lead] = 1
    at += 2
    for s in (0, 1):
        if view.declarations[s] is not None:
            out[at + 2 * s + (0 if view.declarations[s] else 1)] = 1
    at += 4
    if view.power_bases is not None:
        out[at:at + 2] = np.array(view.power_bases, np.float32) / N_CARDS
    at += 2
    if view.lead_category is not None:
        out[at + view.lead_category] = 1
        out[at + 3] = view.lead_base / N_CARDS
        if view.lead_card is not None:
            out[at + 4 + view.lead_card] = 1
    at += 4 + N_CARDS
    for t in view.history:
        out[at + t.leader] = 1
        out[at + 2 + t.lead] = 1
        out[at + 2 + N_CARDS + t.category] = 1
        out[at + 5 + N_CARDS] = t.base / N_CARDS
        out[at + 6 + N_CARDS + t.follow] = 1
        out[at + 6 + 2 * N_CARDS + t.winner] = 1
        at += TRICK
    return out
