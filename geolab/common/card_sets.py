"""Card sets as whole numbers: the combinatorial number system, which numbers the k-card
sets of the deck 0..C(50, k)-1 by their cards alone, so a set has the same number in every
hand (the fixed action indices of the step-wise state, `geolab.stepwise`)."""

from __future__ import annotations

from collections.abc import Iterable
from math import comb


def set_rank(cards: Iterable[int]) -> int:
    """The rank of a set of distinct cards among the sets of its size:
    C(c1, 1) + C(c2, 2) + ... + C(ck, k) for its cards c1 < c2 < ... < ck."""
    return sum(comb(c, i) for i, c in enumerate(sorted(cards), start=1))


def set_of(rank: int, k: int) -> tuple[int, ...]:
    """The k-card set of `set_rank` `rank`, in card order (`set_rank` backwards)."""
    cards = []
    for i in range(k, 0, -1):
        c = i - 1
        while comb(c + 1, i) <= rank:
            c += 1
        cards.append(c)
        rank -= comb(c, i)
    return tuple(reversed(cards))
