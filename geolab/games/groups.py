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

Two finders, which the tests hold equal: `find` here, plain Python over every three cards of
the hand (the specification), and `geolab.games.groups_batch.find_batch`, a numba kernel over
many hands as int64 card masks (kept apart, so a referee's check imports no compiler). The
kernel tests the precomputed masks of every group of the 50 cards (`tables`, found once per
switch setting by the plain finder, in order) against each hand: a hand holds
a group when ``group & ~hand == 0``. What a hand holds becomes a bitset over the groups (bit
g: group g), so the partners of a held border group are the held bits of its precomputed
bitset of the groups disjoint from it, counted by popcount without visiting each pair. Bits are
visited in group order, so the first disjoint pair met is the example. (The layout's
measurements, and the variants tried: docs/perf.md, Group finder.)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from itertools import combinations

import numpy as np

from geolab.cards import CAPITALS, N_CARDS, borders, card
from geolab.errors import GeolabError

Group = tuple[int, int, int]
#: The fewest cards that can hold a winning combination: two groups of three.
MIN_HAND = 6
#: The cards of one group (a referee may check a single group: `parse_cards`).
GROUP = 3


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

    def wins(self) -> tuple[tuple[str, str, Solutions], ...]:
        """Each game's winning pairs in the hand: (key, what wins it, the solutions)."""
        return (("geodouble", "GeoDouble (border group + capital group)", self.geodouble),
                ("border_up", "Border-Up (two border groups)", self.border_up))


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
    """int64 masks of card arrays, one a row of the last axis ((n, k) -> (n,); each row k
    different cards)."""
    return np.bitwise_or.reduce(np.left_shift(np.int64(1), np.asarray(hands, np.int64)), axis=-1)


def random_hands(n: int, size: int = 18, seed: int = 0) -> np.ndarray:
    """(n,) int64 masks of n hands of `size` different cards dealt at random."""
    rng = np.random.default_rng(seed)
    out = np.empty(n, np.int64)
    for lo in range(0, n, 1 << 16):  # bounded memory: 2^16 shuffled decks at a time
        hi = min(n, lo + (1 << 16))
        out[lo:hi] = masks(np.argsort(rng.random((hi - lo, N_CARDS)), axis=1)[:, :size])
    return out


# ----- the batched finder -------------------------------------------------------------------
