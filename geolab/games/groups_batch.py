"""The group finder over many hands at once: a numba kernel that the tests hold equal to the
plain finder (`geolab.games.groups.find`), for the batch engines of GeoDouble and Border-Up
(the layout and its measurements: docs/perf.md, Group finder)."""

from __future__ import annotations

import threading
from functools import cache
from typing import NamedTuple

import numba
import numpy as np
from numba import njit, prange

from geolab.cards import N_CARDS
from geolab.common.bits import lowest, popcount
from geolab.common.work_queue import take
from geolab.games.groups import Group, HandError, Solutions, border_groups, capital_groups, cards_of, mask

PIECE = 1024  # hands a worker takes from the shared counter at a time
#: The kernel runs on every core already, and numba's default (workqueue) threading layer
#: cannot run two parallel kernels at once: one caller's thread launches it at a time (the
#: batch engines of GeoDouble and Border-Up run their chunks on threads).
_KERNEL = threading.Lock()

BORDER_WORDS = 6  # words of 64 groups: room for the 323 border groups of every switch setting
CAPITAL_WORDS = 1  # the 64 capital groups


class Tables(NamedTuple):
    """Every group of the 50 cards as an int64 mask, in order, padded to whole words of 64
    with -1 (held by no hand: bit 63 is no card); and for each border group i, bitsets of the
    groups that share no card with it (bit k of word w: group 64 w + k)."""

    border: np.ndarray  # (64 BORDER_WORDS,)
    capital: np.ndarray  # (64 CAPITAL_WORDS,)
    border_apart: np.ndarray  # (64 BORDER_WORDS, BORDER_WORDS): border groups apart from border group i
    capital_apart: np.ndarray  # (64 BORDER_WORDS, CAPITAL_WORDS): capital groups apart from border group i


def _padded(found: list[Group], words: int) -> np.ndarray:
    assert len(found) <= 64 * words, f"{len(found)} groups do not fit in {words} words"
    out = np.full(64 * words, -1, np.int64)
    out[: len(found)] = [mask(g) for g in found]
    return out


def _apart(rows: np.ndarray, columns: np.ndarray) -> np.ndarray:
    """Bit k of row i: columns[k] shares no card with rows[i] (padding is never apart)."""
    bits = np.packbits((rows[:, None] & columns[None, :]) == 0, axis=1, bitorder="little")
    return bits.view("<i8").astype(np.int64)


@cache
def tables(four_corners: bool = False, water: bool = False) -> Tables:
    """The group masks under one switch setting, found once by the specification."""
    deck = range(N_CARDS)
    border = _padded(border_groups(deck, four_corners, water), BORDER_WORDS)
    capital = _padded(capital_groups(deck), CAPITAL_WORDS)
    return Tables(border, capital, _apart(border, border), _apart(border, capital))


class Batch(NamedTuple):
    """The finder's answer for n hands, one row a hand. Examples are pairs of group masks
    (0, 0 where there is no solution): GeoDouble's (border group, capital group), Border-Up's
    (smaller group, larger group), in the module's order."""

    border: np.ndarray  # (n,) border groups held
    capital: np.ndarray  # (n,) capital groups held
    geodouble: np.ndarray  # (n,) solutions
    geodouble_example: np.ndarray  # (n, 2)
    border_up: np.ndarray  # (n,) solutions
    border_up_example: np.ndarray  # (n, 2)

    def found(self, h: int) -> tuple[Solutions, Solutions]:
        """Row h's GeoDouble and Border-Up solutions as `find` gives them."""
        def one(count, example):
            return Solutions(int(count), (cards_of(example[0]), cards_of(example[1])) if count else None)

        return (one(self.geodouble[h], self.geodouble_example[h]),
                one(self.border_up[h], self.border_up_example[h]))


@njit(cache=True, nogil=True, inline="always")
def _held(outside, groups, words, out):
    """out[w], bit k: the hand (``outside`` = its complement) holds group 64 w + k. A fixed
    64-group loop without branches, which the compiler vectorises."""
    for w in range(words):
        bits = np.int64(0)
        for k in range(64):
            bits |= np.int64((groups[64 * w + k] & outside) == 0) << k
        out[w] = bits


@njit(cache=True, nogil=True, inline="always")
def _count(held, apart, i, words):
    """How many held groups share no card with border group i."""
    k = 0
    for w in range(words):
        k += popcount(held[w] & apart[i, w])
    return k


@njit(cache=True, nogil=True, inline="always")
def _first(held, apart, i, groups):
    """The first held group that shares no card with border group i (there is one)."""
    w = 0
    while not held[w] & apart[i, w]:
        w += 1
    return groups[64 * w + lowest(held[w] & apart[i, w])]


@njit(cache=True, nogil=True)
def _hands(lo, hi, hands, t, out):
    """Hands lo..hi-1, with the groups each holds as bitsets. Border-Up pairs are counted
    from both groups' side and halved; the first border group with a partner has only later
    partners (an earlier one would itself have come first), so its first is the example."""
    border, capital, border_apart, capital_apart = t
    held_b = np.empty(BORDER_WORDS, np.int64)
    held_c = np.empty(CAPITAL_WORDS, np.int64)
    for h in range(lo, hi):
        outside = ~hands[h]
        _held(outside, border, BORDER_WORDS, held_b)
        _held(outside, capital, CAPITAL_WORDS, held_c)
        nb = 0
        for w in range(BORDER_WORDS):
            nb += popcount(held_b[w])
        nc = 0
        for w in range(CAPITAL_WORDS):
            nc += popcount(held_c[w])
        doubles = ups = 0
        for w in range(BORDER_WORDS):
            rest = held_b[w]
            while rest:
                i = 64 * w + lowest(rest)
                rest &= rest - 1
                k = _count(held_c, capital_apart, i, CAPITAL_WORDS)
                if k and not doubles:
                    out.geodouble_example[h, 0] = border[i]
                    out.geodouble_example[h, 1] = _first(held_c, capital_apart, i, capital)
                doubles += k
                k = _count(held_b, border_apart, i, BORDER_WORDS)
                if k and not ups:
                    out.border_up_example[h, 0] = border[i]
                    out.border_up_example[h, 1] = _first(held_b, border_apart, i, border)
                ups += k
        out.border[h] = nb
        out.capital[h] = nc
        out.geodouble[h] = doubles
        out.border_up[h] = ups // 2


@njit(parallel=True, cache=True)
def _kernel(workers, next_piece, hands, t, out):
    """One parallel iteration per worker; each takes PIECE hands at a time (`take`), so a
    worker on a core other jobs slow down holds up no one."""
    pieces = (hands.shape[0] + PIECE - 1) // PIECE
    for _ in prange(workers):
        piece = take(next_piece)
        while piece < pieces:
            _hands(piece * PIECE, min(hands.shape[0], (piece + 1) * PIECE), hands, t, out)
            piece = take(next_piece)


def find_batch(hands: np.ndarray, four_corners: bool = False, water: bool = False) -> Batch:
    """The groups and solutions of every hand in ``hands``, (n,) int64 card masks (from any
    thread: one launches the kernel at a time)."""
    hands = np.ascontiguousarray(hands, np.int64)
    if hands.ndim != 1 or (hands.size and (hands.min() < 0 or hands.max() >> N_CARDS)):
        raise HandError(f"hands are a 1-d array of int64 masks of the {N_CARDS} cards")
    n = hands.shape[0]
    out = Batch(*(np.zeros((n, 2) if name.endswith("example") else n, np.int64) for name in Batch._fields))
    t = tables(four_corners, water)
    with _KERNEL:
        _kernel(numba.get_num_threads(), np.zeros(1, np.int64), hands, t, out)
    return out
