"""The Class oracle: a student who PEEKS at the GeoPower card before discarding.

It is van der Genugten and Borm's fictive player who knows the chance outcome (docs/balance.md,
"Skill share"): knowing the category to be turned, it keeps the two cards best in it (Top Dog:
the lowest kept sum; Bottoms Up: the highest), the best play whatever the classmates hold,
since a student's score is its own kept sum. It is a ceiling for the balance lab, never a fair
player: its table (`geolab.games.classroom.batch.PEEK_SHAPE`) is by category, which only a bot
that says it peeks may give, and it cannot sit at a table with a person.
"""

from __future__ import annotations

import numpy as np

from geolab.game import BatchBot
from geolab.games.classroom.batch import PEEK_SHAPE
from geolab.games.classroom.hands import kept_sums


def peeking_table() -> np.ndarray:
    """(3 categories, 2 calls, 32 opponent counts, 19600 hands) int8: the discard position
    that leaves the best kept sum in that category (the first of equals)."""
    kept = kept_sums()  # hand, discard, category
    table = np.empty(PEEK_SHAPE, np.int8)
    for k in range(3):
        table[k, 0] = kept[:, :, k].argmin(axis=1)[None, :]  # Top Dog: the lowest sum wins
        table[k, 1] = kept[:, :, k].argmax(axis=1)[None, :]  # Bottoms Up: the highest
    table.setflags(write=False)
    return table


class CategoryOracle(BatchBot):
    """Discards knowing the category that will be turned (see the module docstring)."""

    name = "oracle"
    peeks = True

    def discard_table(self, rules=None) -> np.ndarray:
        cache = self.__dict__.setdefault("_tables", {})
        if "table" not in cache:
            cache["table"] = peeking_table()
        return cache["table"]

    def act(self, obs, rng=None):
        raise NotImplementedError("the oracle peeks at the GeoPower card: it plays on the batch engine only")
