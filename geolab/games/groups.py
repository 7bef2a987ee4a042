"""Border groups and capital groups in a hand: the one finder GeoDouble's stage 1 race and
Border-Up share (docs/groups.md).

A **border group** is three cards one of which borders both others (land borders; the
Four Corners and water-only contacts when switched on, as `geolab.cards.borders` has them);
a **capital group** is three cards whose capitals begin with the same letter. A group is a
set of three cards: three states that all border each other are one group. A hand wins
**GeoDouble** with a border group and a capital group, **Border-Up** with two border groups,
the two groups disjoint (six different cards). A solution is an unordered pair of disjoint
groups; the example given is the first solution in card order (below).

**Order.** A group is written as its three cards in increasing order (cards are numbered
alphabetically by state name) and groups are ordered as those triples, lexicographically. A
GeoDouble solution is (border group, capital group), a Border-Up solution (smaller group,
larger group); solutions are ordered as those pairs, and the example is the smallest.

Two finders, which the tests hold equal: `find`, plain Python over every three cards of the
hand (the specification), and `find_batch`, a numba kernel over many hands as int64 card
masks. The kernel tests the precomputed masks of every group of the 50 cards (`tables`,
found once per switch setting by the plain finder, in order) against each hand: a hand holds
a group when ``group & ~hand == 0``. What a hand holds becomes a bitset over the groups (bit
g: group g), so the partners of a held border group are the held bits of its precomputed
bitset of the groups disjoint from it, counted by popcount without visiting each pair. Bits are
visited in group order, so the first disjoint pair met is the example. (The layout's
measurements, and the variants tried: docs/perf.md, Group finder.)
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from typing import NamedTuple

import numba
import numpy as np
from numba import njit, prange

from geolab.cards import CAPITALS, N_CARDS, borders, card
from geolab.common.bits import lowest, popcount
from geolab.common.work_queue import take
from geolab.errors import GeolabError

Group = tuple[int, int, int]
#: The fewest cards that can hold a winning combination: two groups of three.
MIN_HAND = 6
#: The cards of one group (a referee may check a single group: `parse_cards`).
GROUP = 3
PIECE = 1024  # hands a worker takes from the shared counter at a time
#: The kernel runs on every core already, and numba's default (workqueue) threading layer
#: cannot run two parallel kernels at once: one caller's thread launches it at a time (the
#: batch engines of GeoDouble and Border-Up run their chunks on threads).
_KERNEL = threading.Lock()


class HandError(GeolabError):
    """A hand that is not a set of cards: an unknown or repeated card, or too few cards."""


# ----- the specification: plain Python, one hand ------------------------------------------
@cache
def neighbours(four_corners: bool = False, water: bool = False) -> tuple[frozenset[int], ...]:
    """Each card's bordering cards."""
    return tuple(frozenset(np.flatnonzero(row).tolist()) for row in borders(four_corners, water))


def centers(group: Iterable[int], four_corners: bool = False, water: bool = False) -> list[int]:
    """The cards of a group that border both others (none: not a border group)."""
    near = neighbours(four_corners, water)
    trio = set(group)
    return sorted(c for c in trio if trio - {c} <= near[c])


def border_groups(hand: Iterable[int], four_corners: bool = False, water: bool = False) -> list[Group]:
    """Every border group of the hand, each set of three once, in order."""
    near = neighbours(four_corners, water)
    return [(a, b, c) for a, b, c in combinations(sorted(hand), 3)
            if {b, c} <= near[a] or {a, c} <= near[b] or {a, b} <= near[c]]


def capital_groups(hand: Iterable[int]) -> list[Group]:
    """Every capital group of the hand, in order."""
    return [(a, b, c) for a, b, c in combinations(sorted(hand), 3)
            if CAPITALS[a][0] == CAPITALS[b][0] == CAPITALS[c][0]]


@dataclass(frozen=True)
class Solutions:
    """How many unordered pairs of disjoint groups win, and the smallest of them."""

    count: int
    example: tuple[Group, Group] | None


def solutions(first: list[Group], second: list[Group] | None = None) -> Solutions:
    """Disjoint pairs, one group from each list; of one list (``second`` None), its
    unordered pairs of two different groups."""
    pairs = combinations(first, 2) if second is None else ((a, b) for a in first for b in second)
    winning = [(a, b) for a, b in pairs if not set(a) & set(b)]
    return Solutions(len(winning), min(winning, default=None))


@dataclass(frozen=True)
class Found:
    """Everything a referee asks of one hand."""

    border: tuple[Group, ...]
    capital: tuple[Group, ...]
    geodouble: Solutions  # one border group and one capital group
    border_up: Solutions  # two border groups


def find(hand: Iterable[int], four_corners: bool = False, water: bool = False) -> Found:
    """The hand's groups and its GeoDouble and Border-Up solutions (the specification)."""
    cards = checked(hand)
    border = border_groups(cards, four_corners, water)
    capital = capital_groups(cards)
    return Found(tuple(border), tuple(capital), solutions(border, capital), solutions(border))


def checked(hand: Iterable[int]) -> tuple[int, ...]:
    """The hand's cards in order, refused if one is not a card or comes twice."""
    cards = list(hand)
    if any(not isinstance(c, (int, np.integer)) or not 0 <= c < N_CARDS for c in cards):
        raise HandError(f"cards are numbers 0-{N_CARDS - 1}, got {cards}")
    twice = sorted({c for c in cards if cards.count(c) > 1})
    if twice:
        raise HandError(f"card {twice[0]} is in the hand twice")
    return tuple(sorted(int(c) for c in cards))


def parse_cards(postals: Iterable[str]) -> tuple[int, ...]:
    """Cards from postal codes, as a referee types them: known codes, each once; three (one
    group to check) or six at least (a hand: a claim, or a whole hand of the race)."""
    codes = [p.upper() for p in postals]
    cards = [card(p) for p in codes]
    for p in codes:
        if codes.count(p) > 1:
            raise HandError(f"{p} is named twice")
    if len(cards) != GROUP and len(cards) < MIN_HAND:
        raise HandError(f"give {GROUP} cards (one group) or {MIN_HAND} or more (a hand: two groups of three), "
                        f"not {len(cards)}")
    return tuple(sorted(cards))


@dataclass(frozen=True)
class Checked:
    """One group of three as a referee asks of it: is it a border group (its centers: the
    cards bordering both others; none: not one) and a capital group (its capitals)."""

    cards: Group
    centers: tuple[int, ...]
    capital: bool

    @property
    def border(self) -> bool:
        return bool(self.centers)


def check_group(cards: Iterable[int], four_corners: bool = False, water: bool = False) -> Checked:
    """Whether three cards make a border group and a capital group, as both games define them."""
    trio = checked(cards)
    if len(trio) != GROUP:
        raise HandError(f"a group is {GROUP} cards, got {len(trio)}")
    return Checked(trio, tuple(centers(trio, four_corners, water)), bool(capital_groups(trio)))


# ----- masks --------------------------------------------------------------------------------
def mask(cards: Iterable[int]) -> int:
    """The int64 card mask of a set of cards (bit c = card c)."""
    return sum(1 << int(c) for c in set(cards))


def cards_of(m: int) -> tuple[int, ...]:
    """The cards of a mask, in order."""
    return tuple(c for c in range(N_CARDS) if m >> c & 1)


def masks(hands: np.ndarray) -> np.ndarray:
    """(n,) int64 masks of (n, k) card arrays (each row k different cards)."""
    return np.bitwise_or.reduce(np.left_shift(np.int64(1), np.asarray(hands, np.int64)), axis=1)


def random_hands(n: int, size: int = 18, seed: int = 0) -> np.ndarray:
    """(n,) int64 masks of n hands of `size` different cards dealt at random."""
    rng = np.random.default_rng(seed)
    out = np.empty(n, np.int64)
    for lo in range(0, n, 1 << 16):  # bounded memory: 2^16 shuffled decks at a time
        hi = min(n, lo + (1 << 16))
        out[lo:hi] = masks(np.argsort(rng.random((hi - lo, N_CARDS)), axis=1)[:, :size])
    return out


# ----- the batched finder -------------------------------------------------------------------
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
