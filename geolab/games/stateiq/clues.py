"""State IQ's clues: what each letter of a Power card's clue order asks of a state, and which
states fit the clues given (the true facts; a bot's own, partial facts live with the bot).

A clue order is three letters of A, B and C. The k-th letter of a kind is that kind's k-th
clue (`program`):

- A, the postal code: the first A is its first letter, the second A its second letter, a third
  A has no letter left, so it is no clue (AAA: "no further clue ... but a third guess");
- B, a border state: each B is one border state the clue-giver names, never one named before;
  when none is left the clue is "no more border states" (*decided*, docs/rules-stateiq.md);
- C, the capital: the k-th C is the k-th letter of the capital's name (spaces and punctuation
  skipped; every capital has at least three letters).

So ABC, BAC, ... give one clue of each kind, and AAA, BBB and CCC are the text's own cards.
A clue is a `Clue`: its kind, its number within the kind, and its value (a letter, a card, or
None: no letter left, or no more border states).

States are handled as 50-bit masks (bit c: card c) where sets are needed fast.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import NamedTuple

from geolab.cards import CAPITALS, N_CARDS, NAMES, POSTAL, borders

ALL = (1 << N_CARDS) - 1
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


class Clue(NamedTuple):
    """One clue: its kind (A, B, C), its number within the kind (0: the first), its value: a
    letter (A, C), a card (B), or None (A, C: no letter left, so no clue; B: no more border
    states)."""

    kind: str
    index: int
    value: str | int | None

    def label(self) -> str:
        """The clue as records and screens write it: a letter, a postal code, ``none`` (no more
        border states) or ``-`` (no clue)."""
        if self.value is None:
            return "none" if self.kind == "B" else "-"
        return POSTAL[self.value] if self.kind == "B" else self.value

    def words(self) -> str:
        """The clue in words, for people: "its capital's 2nd letter is A"."""
        nth = ("first", "second", "third")[self.index] if self.index < 3 else f"{self.index + 1}th"
        if self.kind == "B":
            if self.value is None:
                return "no border states" if self.index == 0 else "no more border states"
            return f"a border state: {NAMES[self.value]} ({POSTAL[self.value]})"
        what = "postal code" if self.kind == "A" else "capital"
        if self.value is None:
            return "no clue (the postal code has no letter left)" if self.kind == "A" else "no clue"
        return f"the {what}'s {nth} letter is {self.value}"


@cache
def program(order: str) -> tuple[tuple[str, int], ...]:
    """The (kind, number within the kind) of each of an order's three clues: "BAC" ->
    (("B", 0), ("A", 0), ("C", 0)); "CCC" -> (("C", 0), ("C", 1), ("C", 2))."""
    return tuple((kind, order[:j].count(kind)) for j, kind in enumerate(order))


@cache
def _capital_letters(c: int) -> str:
    return "".join(ch for ch in CAPITALS[c].upper() if ch.isalpha())


def letter(c: int, kind: str, index: int) -> str | None:
    """State c's letter for an A or C clue: its postal code's or capital's letter `index`, or
    None where none is left."""
    word = POSTAL[c] if kind == "A" else _capital_letters(c)
    return word[index] if index < len(word) else None


@cache
def neighbours(four_corners: bool = False, water: bool = False) -> tuple[int, ...]:
    """Each state's border states as a mask, under these border rules."""
    adjacency = borders(four_corners, water)
    return tuple(sum(1 << int(j) for j in range(N_CARDS) if adjacency[c, j]) for c in range(N_CARDS))


def cards_of(mask: int) -> tuple[int, ...]:
    """The cards of a mask, in card order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return tuple(out)


def mask_of(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return m


def named(clues: Sequence[Clue]) -> int:
    """The border states named so far, as a mask."""
    return mask_of(c.value for c in clues if c.kind == "B" and c.value is not None)


def fits(c: int, clue: Clue, named_before: int, four_corners: bool = False, water: bool = False) -> bool:
    """Whether state c could have given `clue` (true facts), after the borders `named_before`:
    its letter, one of its borders not yet named, or "no more" when every border is named."""
    if clue.kind != "B":
        return letter(c, clue.kind, clue.index) == clue.value
    left = neighbours(four_corners, water)[c] & ~named_before
    return left == 0 if clue.value is None else bool(left >> clue.value & 1)


def consistent(clues: Sequence[Clue], four_corners: bool = False, water: bool = False, among: int = ALL) -> int:
    """The states of `among` that fit every clue of a phase (in the order given), as a mask."""
    out, before = among, 0
    for clue in clues:
        out = mask_of(c for c in cards_of(out) if fits(c, clue, before, four_corners, water))
        if clue.kind == "B" and clue.value is not None:
            before |= 1 << clue.value
    return out


def true_clue(c: int, kind: str, index: int) -> Clue:
    """The clue state c gives for a letter kind (A or C): its letter, or no clue."""
    return Clue(kind, index, letter(c, kind, index))
