"""Class GeoPower Double Choice: three-card hands as table indices (shared by the batch
engine, bots and the lab).
"""

from __future__ import annotations

import numpy as np

from geolab.cards import N_CARDS, RANKS


def _all_hands() -> np.ndarray:
    """The 19,600 three-card hands, sorted, in colex order so that
    index = a + C(b, 2) + C(c, 3) for a < b < c."""
    rows = [(a, b, c) for c in range(N_CARDS) for b in range(c) for a in range(b)]
    return np.array(rows, dtype=np.int8)


HANDS = _all_hands()
N_HANDS = len(HANDS)
HANDS.setflags(write=False)


def hand_index(sorted_hands: np.ndarray) -> np.ndarray:
    """Table row of each sorted 3-card hand."""
    a, b, c = (np.asarray(sorted_hands, dtype=np.int64)[:, i] for i in range(3))
    return a + b * (b - 1) // 2 + c * (c - 1) * (c - 2) // 6


def kept_sums() -> np.ndarray:
    """(19600, 3 discards, 3 categories): the round score of each hand after each discard."""
    r = RANKS[HANDS].astype(np.int16)  # hand, card, category
    return r.sum(axis=1, keepdims=True) - r
