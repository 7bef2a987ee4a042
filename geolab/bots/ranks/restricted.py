"""Restricted play (Jaffe et al., AIIDE 2012): the greedy heuristic with one choice forbidden.

``greedy:forbid=CHOICE`` plays exactly as ``greedy`` except that one choice is taken out of
its legal actions wherever another legal action remains; the balance lab plays it against the
unrestricted greedy on duplicate deals, and the win-rate cost measures how much that choice is
worth to this heuristic (docs/balance.md, "Restricted play"). The choices:

- ``size``, ``statehood``, ``population``: never lead in that category (the lead names the
  category; the answer has no choice of it). Always applicable: two categories remain.
- ``base1``, ``base50``: never choose that base for a lead. Applicable only where the lead
  chooses the base (``base_mode = "lead"``, Level 2) among `lead_bases` holding it and another;
  with bases fixed by the rules or by Power cards no lead ever chooses one.
- ``declare``: never declare GeoPlunging. Applicable only where declarations are part of the
  rules (``declarations = true``: Level 2, GeoDouble).

The restricted bot does not re-plan around the restriction: its discards, answers and the rest
of its leads are greedy's. A subclass of `GreedyPolicy` is not in ``FUSED``, so it is asked
decision by decision and checked like any policy; plain ``greedy`` is untouched (the factory
returns `GreedyPolicy` itself when nothing is forbidden).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from geolab.bots.ranks.heuristics import GreedyPolicy, unpack_lead
from geolab.bots.restriction import checked
from geolab.cards import RANKS
from geolab.common.bits import lowest
from geolab.games.ranks.batch import Leads
from geolab.games.ranks.rules import Rules

_R = RANKS.astype(np.int64)

#: forbid=... -> what is forbidden, in words
CHOICES = {
    "size": "leading in size",
    "statehood": "leading in statehood",
    "population": "leading in population",
    "base1": "choosing base 1 for a lead",
    "base50": "choosing base 50 for a lead",
    "declare": "declaring GeoPlunging",
}
_CATEGORY = {"size": 0, "statehood": 1, "population": 2}
_BASE = {"base1": 1, "base50": 50}


def not_applicable(rules: Rules, forbid: str) -> str | None:
    """Why forbidding `forbid` means nothing under `rules` (the choice is never open to a
    player, or is forced), or None when it is a real choice there."""
    if forbid in _BASE:
        base = _BASE[forbid]
        if rules.base_mode != "lead":
            return (f"forbid={forbid}: these rules fix every trick's base (base_mode {rules.base_mode}), so no lead "
                    "chooses one")
        if base not in rules.lead_bases:
            return f"forbid={forbid}: base {base} is not among the lead's bases {list(rules.lead_bases)}"
        if len(rules.lead_bases) < 2:
            return f"forbid={forbid}: base {base} is the only base a lead may choose (forced, not a choice)"
    if forbid == "declare" and not rules.declarations:
        return "forbid=declare: these rules have no GeoPlunging declaration (declarations false)"
    return None


def check(rules: Rules, forbid: str) -> str:
    """`forbid` checked: a known choice that applies under `rules` (a ValueError otherwise)."""
    return checked(forbid, CHOICES, not_applicable(rules, forbid) if forbid in CHOICES else None)


@njit(cache=True, nogil=True)
def _lead_among(hand, bases, categories):
    """greedy's lead over the categories in the bitmask `categories` only: the (card,
    category, base slot) nearest the base, ties to the lowest card, category, base slot (the
    same key as `lead_key`; with every category allowed it is `greedy_lead`)."""
    best = np.int64(1) << 62
    while hand:
        c = lowest(hand)
        hand &= hand - 1
        for j in range(bases.shape[0]):
            b = bases[j]
            for k in range(3):
                if (categories >> k) & 1:
                    best = min(best, ((abs(_R[c, k] - b) * 64 + c) * 4 + k) * 64 + j)
    return unpack_lead(best)


@njit(cache=True, nogil=True)
def _lead_rows(hand, bases, categories, card, category, base):
    for i in range(hand.shape[0]):
        c, k, j = _lead_among(hand[i], bases[i], categories)
        card[i], category[i], base[i] = c, k, bases[i, j]


class RestrictedGreedy(GreedyPolicy):
    """`GreedyPolicy` with one choice forbidden (see the module docstring)."""

    def __init__(self, forbid: str):
        self.forbid = forbid
        self.name = f"greedy:forbid={forbid}"

    def declare(self, obs, rng):
        if self.forbid == "declare":
            return np.zeros(len(obs), np.bool_)
        return super().declare(obs, rng)

    def lead(self, obs, rng):
        if self.forbid not in _CATEGORY and self.forbid not in _BASE:
            return super().lead(obs, rng)
        categories = 0b111 & ~(1 << _CATEGORY[self.forbid]) if self.forbid in _CATEGORY else 0b111
        bases = obs.bases
        if self.forbid in _BASE:
            keep = bases[0] != _BASE[self.forbid]  # every row has the lead's bases (base_mode lead)
            if keep.any():
                bases = np.ascontiguousarray(bases[:, keep])
        m = len(obs)
        card, category, base = np.empty(m, np.int64), np.empty(m, np.int64), np.empty(m, np.int64)
        _lead_rows(obs.hand, bases, categories, card, category, base)
        return Leads(card, category, base)
