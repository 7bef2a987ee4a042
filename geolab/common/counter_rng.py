"""Counter-based random streams for the compiled batch engines (splitmix64).

Every game gets its own stream, started from (block key, game index), so a game's random
draws never depend on which other games run, in what order or on which thread; any draw can
be made alone. Shared by every batch engine and compiled bot so all read one definition.
"""

from __future__ import annotations

import numpy as np
from numba import njit

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
LOW32 = np.uint64(0xFFFFFFFF)


@njit(cache=True, nogil=True, inline="always")
def mix64(z):
    """The splitmix64 finaliser: 64 well-mixed bits from a counter."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True, nogil=True, inline="always")
def game_stream(key, game):
    """The start of game ``game``'s stream under a block key; draw i is ``mix64(start + (i + 1) * golden)``."""
    return mix64(key + GOLDEN * np.uint64(game + 1))


@njit(cache=True, nogil=True, inline="always")
def draw64(start, i):
    """Draw i of a game's stream: any draw can be made alone, in any order."""
    return mix64(start + GOLDEN * np.uint64(i + 1))


@njit(cache=True, nogil=True, inline="always")
def next64(x):
    """One step of a stream kept as a word: a new well-spread word from x."""
    return mix64(x + GOLDEN)


@njit(cache=True, nogil=True, inline="always")
def below_high(x, n):
    """An integer in [0, n) from the high 32 bits of the word x."""
    return below32(x >> np.uint64(32), n)


@njit(cache=True, nogil=True, inline="always")
def below32(bits32, n):
    """An integer in [0, n) from 32 random bits (multiply-shift: bias below 1e-8 for n <= 50)."""
    return np.int64((bits32 * np.uint64(n)) >> np.uint64(32))
