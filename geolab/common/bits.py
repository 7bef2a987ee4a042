"""Bit helpers for the compiled kernels: card, base and slot sets are integer bitmasks."""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros


@njit(cache=True, nogil=True)
def lowest(mask):
    """The lowest set bit of a non-empty card or base mask (the CPU's count of trailing zeros)."""
    return np.int64(trailing_zeros(mask))


@njit(cache=True, nogil=True)
def popcount(mask):
    """The number of set bits of a 64-bit word: the cards in a card mask, or the members of any
    bitset (all 64 bits count; the group finder's held-group words use the top bits too)."""
    mask = mask - ((mask >> 1) & 0x5555555555555555)
    mask = (mask & 0x3333333333333333) + ((mask >> 2) & 0x3333333333333333)
    mask = (mask + (mask >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (mask * 0x0101010101010101) >> 56
