"""When to declare GeoPlunging: the declaration policies a GeoDouble player names
(``player:declare=NAME``).

A policy answers for m rows at once, from a `Context`: what the deciding side may see when it
declares (its six cards kept, its two discards, whether it leads the first trick, the other's
declaration if already made) and the match score before the stage. Nothing else: no policy
sees the other's cards.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class Context(NamedTuple):
    """m declarations to make, one row each (arrays of m)."""

    rules: object  # the GeoDouble rules (the stage's are ``rules.stage``)
    hand: np.ndarray  # int64 mask: the six cards kept
    discards: np.ndarray  # int64 mask: the side's own discards
    leads: np.ndarray  # bool: the side deals and leads the first trick
    other: np.ndarray  # int8: the other's declaration (-1: not made yet, it declares second)
    mine: np.ndarray  # int64: the side's match score before the stage
    theirs: np.ndarray  # int64: the other's
    key: np.ndarray  # uint64: a random word per row, for randomised policies


class Never:
    """Never declares: the stage is worth its 5 points, or 10 if the other declares."""

    def __call__(self, ctx: Context, rng) -> np.ndarray:
        return np.zeros(len(ctx.hand), bool)


class Always:
    """Always declares."""

    def __call__(self, ctx: Context, rng) -> np.ndarray:
        return np.ones(len(ctx.hand), bool)


#: name -> (factory of the policy from the player's parameters, what it does)
POLICIES = {
    "never": (lambda rules, tricks, threshold, samples: Never(), "never declares"),
    "always": (lambda rules, tricks, threshold, samples: Always(), "always declares"),
}
