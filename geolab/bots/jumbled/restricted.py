"""Restricted play (Jaffe et al., AIIDE 2012) for Jumbled GeoPower Choice: the heuristic with
one choice forbidden, ``heuristic:forbid=CHOICE`` (docs/balance.md, "Restricted play").

- ``pair``: never lay two cards on a set. Under the official rules (5 cards in 3 sets of 1 or
  2) every legal round lays a pair on two sets, so forbidding pairs leaves no legal play: not
  applicable. It is a real choice only where a round can be played both with and without a
  pair (``max_cards_per_set`` of 3 or more, e.g. 3 + 1 + 1 against 2 + 2 + 1).
- ``top-dog``, ``bottoms-up``: the dealer never makes that call (it makes the other one).
  Applicable where the rules allow both calls.

The restricted set policy is the mixed-timing heuristic (`Heuristic` with its defaults) with
the forbidden set size taken out: the same coin for the "small" set, the same card keys, the
smallest (small set) or largest allowed size that still lets the round be finished without the
forbidden size. It does not re-plan otherwise.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from geolab.bots.restriction import checked
from geolab.game import bot_name
from geolab.games.jumbled.observations import Observation
from geolab.games.jumbled.rules import CALLS, RANKS64, Rules, call_index

#: forbid=... -> what is forbidden, in words
CHOICES = {"pair": "laying two cards on a set", "top-dog": "calling Top Dog", "bottoms-up": "calling Bottoms Up"}


@lru_cache(maxsize=256)
def _sums(n: int, sizes: tuple[int, ...]) -> frozenset[int]:
    """Every total of n set sizes drawn from `sizes`."""
    totals = {0}
    for _ in range(n):
        totals = {t + k for t in totals for k in sizes}
    return frozenset(totals)


def _sizes(rules: Rules, forbid_pair: bool) -> tuple[int, ...]:
    return tuple(k for k in range(rules.min_cards_per_set, rules.max_cards_per_set + 1) if not (forbid_pair and k == 2))


def not_applicable(rules: Rules, forbid: str) -> str | None:
    """Why forbidding `forbid` means nothing under `rules` (never legal, or forced), or None."""
    S, C, lo, hi = rules.sets_per_round, rules.cards_to_play, rules.min_cards_per_set, rules.max_cards_per_set
    if forbid == "pair":
        with_pair = lo <= 2 <= hi and C - 2 in _sums(S - 1, _sizes(rules, False))
        without = C in _sums(S, _sizes(rules, True))
        if not with_pair:
            return f"forbid=pair: two cards on a set are never legal here ({C} cards in {S} sets of {lo}-{hi})"
        if not without:
            return (f"forbid=pair: every legal round lays two cards on some set ({C} cards in {S} sets of {lo}-{hi}), "
                    "so forbidding it leaves no legal play")
        return None
    if forbid not in rules.calls:
        return f"forbid={forbid}: the rules never allow that call (calls: {', '.join(rules.calls)})"
    if len(rules.calls) < 2:
        return f"forbid={forbid}: it is the only call the rules allow (forced, not a choice)"
    return None


def check(rules: Rules, forbid: str) -> str:
    """`forbid` checked: a known choice that applies under `rules` (a ValueError otherwise)."""
    return checked(forbid, CHOICES, not_applicable(rules, forbid) if forbid in CHOICES else None)


class NoPairs:
    """The mixed-timing heuristic, never laying two cards on a set (see the module docstring)."""

    name = "heuristic:forbid=pair"

    def act(self, obs: Observation, rng: np.random.Generator) -> np.ndarray:
        rules = obs.rules
        S, C, s = rules.sets_per_round, rules.cards_to_play, obs.set_index
        sizes = _sizes(rules, True)
        after = S - s - 1
        finishable = _sums(after, sizes)
        u = rng.random(len(obs))  # the heuristic's coin for the small set, one a row
        probs = obs.probs()
        calls = obs.call[obs.game]
        out = np.zeros(len(obs), np.int64)
        H = rules.cards_dealt
        for r in range(len(obs)):
            used = int(obs.used[r])
            free = [i for i in range(H) if not used >> i & 1]
            left = C - (H - len(free))
            ok = [k for k in sizes if k <= len(free) and left - k in finishable]
            small = u[r] * (S - s) < 1.0
            k = min(ok) if small else max(ok)
            ranks = RANKS64[obs.hand[r, free]].astype(float)
            if calls[r] != call_index(CALLS[0]):  # Bottoms Up: mirrored, lower is better
                ranks = 51 - ranks
            p = probs[r]
            ev = ranks @ p
            key = ev if small else (ranks * (p > 0)).max(axis=1) + 1e-3 * ev
            picks = np.argsort(key, kind="stable")[:k]
            out[r] = sum(1 << free[j] for j in picks)
        return out


class NoCall:
    """A call policy that never makes the call `forbid`: it makes the other one instead."""

    def __init__(self, caller, forbid: str):
        self.caller, self.forbid = caller, call_index(forbid)
        self.name = f"{bot_name(caller)}, never {forbid}"

    def call(self, obs, rng) -> np.ndarray:
        got = np.asarray(self.caller.call(obs, rng))
        return np.where(got == self.forbid, 1 - self.forbid, got).astype(np.int8)
