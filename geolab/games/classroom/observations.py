"""Class GeoPower Double Choice: what a student may see when discarding."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


def observe(hands, call, opponents) -> dict:
    """What a student may see when discarding: own cards (sorted, so order tells nothing),
    the call, and how many students compete in the round besides them. Nothing else."""
    hands = np.sort(np.asarray(hands, dtype=np.int64), axis=1)
    n = len(hands)
    return {
        "hand": hands,
        "call": np.broadcast_to(np.asarray(call, dtype=np.int64), (n,)).copy(),
        "opponents": np.broadcast_to(np.asarray(opponents, dtype=np.int64), (n,)).copy(),
    }


@dataclass(frozen=True)
class View:
    """One student's discard decision as the reference engine asks it (`geolab.game.Decision`
    observation): the same three facts as `observe`, as plain values so that two views
    compare equal exactly when the student saw the same thing."""

    hand: tuple[int, ...]  # sorted
    call: int
    opponents: int

    def batch(self) -> dict:
        """The one-row observation a batched policy's ``act(obs, rng)`` reads."""
        return observe([self.hand], self.call, self.opponents)
