"""The partial shuffle every deal starts from: the first cards of a shuffle of the deck, drawn
from uniform floats, so a compiled deal (the batch engines') and a plain one (the reference
engines') make the same cards from the same numbers."""

from __future__ import annotations

import numpy as np


def shuffled_prefix(u: np.ndarray, size: int) -> np.ndarray:
    """The first k = u.shape[1] cards of a shuffle of 0..size-1 per row, by a partial
    Fisher-Yates shuffle on the uniform floats u (n, k): for j = 0..k-1, swap position j
    with position j + floor(u[:, j] * (size - j))."""
    n, k = u.shape
    deck = np.tile(np.arange(size, dtype=np.int8), (n, 1))
    rows = np.arange(n)
    for j in range(k):
        pick = j + (u[:, j] * (size - j)).astype(np.int64)
        deck[rows, j], deck[rows, pick] = deck[rows, pick], deck[rows, j]
    return deck[:, :k]
