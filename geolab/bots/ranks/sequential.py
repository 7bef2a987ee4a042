"""Perfect-information Monte Carlo that samples until the move is decided (sequential sampling).

`MonteCarloSeat` solves up to its `k` layouts whatever the decision: as many on a move that
the first dozen layouts already settle as on a close call. This seat solves layouts in small
batches (`step`) and, from `least` layouts on, stops as soon as the layouts so far separate
the best move from every other: each other move trails it by at least `z` standard errors
of the paired difference (the same layouts score every move, so the difference is paired),
or never differs from it (the first batch is `least` layouts; montecarlo's first is one).
The layouts saved on clear decisions pay for many more (up to a larger `k`) on close ones,
in the same CPU a decision on average. Sampling, inference,
solver, budget and cap are the Monte Carlo seat's, and so is the fairness: only sampled
layouts are ever solved. With ``budget_ms=None`` it is deterministic given what it sees.
"""

from __future__ import annotations

import numpy as np

from geolab.bots.ranks.montecarlo import MonteCarloSeat
from geolab.errors import GeolabError

NOT_SCORED = -99  # the solver's mark of a lead it did not score (dominated, or no such base)


def settled(scores: np.ndarray, z: float) -> bool:
    """Whether the layouts' scores (one row a layout, the moves after) separate the best move.

    Each move's paired difference from the best (by mean) must be at least `z` standard errors
    above zero, or zero on every layout. A single move (a declaration: its chance of winning)
    is compared with one half. Moves marked `NOT_SCORED` are left out.
    """
    n = len(scores)
    flat = scores.reshape(n, -1).astype(float)
    flat = flat[:, ~(flat == NOT_SCORED).any(axis=0)]
    if n < 2 or flat.shape[1] == 0:
        return n >= 2
    if flat.shape[1] == 1:
        diff = np.where(flat.mean() >= 0.5, flat - 0.5, 0.5 - flat)
    else:
        diff = flat[:, [int(flat.mean(axis=0).argmax())]] - flat
    mean, sd = diff.mean(axis=0), diff.std(axis=0, ddof=1)
    return bool(np.all(mean * np.sqrt(n) >= z * sd))


class SequentialSeat(MonteCarloSeat):
    """Monte Carlo over sampled layouts, in batches of `step`, stopping once the move is clear.

    k: layouts at most; least: layouts before the first stop; z: standard errors that make a
    move clear; the rest as `MonteCarloSeat`.
    """

    name = "sequential"

    def __init__(self, k: int = 80, least: int = 16, step: int = 16, z: float = 1.5, budget_ms: float | None = 12.0,
                 cap_ms: float = 30.0, candidates: int = 3, infer: float = 3.0, oversample: int = 4, seed: int = 0):
        if least < 2 or step < 1:
            raise GeolabError("sequential: least must be at least 2 and step at least 1")
        super().__init__(k=k, budget_ms=budget_ms, cap_ms=cap_ms, candidates=candidates, infer=infer,
                         oversample=oversample, seed=seed)
        self.least, self.step, self.z = int(least), int(step), float(z)
        self.first = min(self.least, self.k)  # no stop can come before `least` layouts: solve them at once

    def _settled(self, parts: list[np.ndarray]) -> bool:
        done = sum(len(p) for p in parts)
        return done >= self.least and settled(np.concatenate(parts), self.z)


def policy(**params):
    """The seat as a batched policy (`make_policy("sequential:k=96")`)."""
    from geolab.games.ranks.batch import SeatPolicy

    return SeatPolicy(SequentialSeat(**params))
