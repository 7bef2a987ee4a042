"""What a State IQ guesser knows of the facts, and how it reads a clue with what it knows.

A guesser's knowledge is drawn once, from its seed (one uniform a fact, in a fixed order: the
50 capitals, the 50 postal codes, then every border pair of the widest border rules in card
order), and kept for every game it plays:

- ``capitals``: the chance it knows a state's capital. A capital it does not know cannot rule
  its state out: the state stays consistent with every C clue, each letter as likely to it as
  any other of the 26 (its likelihood 1/26, against 1 or 0 for a capital it knows).
- ``postal``: the chance it knows a state's postal code. Every code begins with its state's
  initial, which everyone knows, so the first letter (A's first clue) is always read right; a
  code it does not know keeps its state consistent with every second letter (AAA's second
  clue), likelihood 1/26.
- ``borders``: the chance it knows each border pair (of the rules' border kinds). A pair it
  does not know it takes for no border: when a state is named as a border, it keeps only the
  states it knows to border it, and "no more border states" keeps only those whose known
  borders are all named. So a gap here can rule the true state out.

How it weighs the states left (`Knowledge.likelihood`): it takes the clue-giver to name each
border it has not named yet alike (a random border), so a state that fits "NH is a border"
weighs 1 / (its borders not yet named); a letter fits with 1 (or 1/26 where it cannot check).
A clue its facts cannot explain for a state is a *contradiction*: the guesser keeps the states
with the fewest contradictions (with perfect knowledge: none, the states that fit every clue),
weighed by the clues they fit. Its consistent set is that set.

Weights are whole numbers: the likelihood of each clue kind has the denominator `scale`
(26 for a letter it may not know, the least common multiple of the border counts for a border),
so a belief's weights stay exact integers through every clue.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache

import numpy as np

from geolab.cards import N_CARDS, POSTAL
from geolab.games.stateiq import clues as facts
from geolab.games.stateiq.clues import LETTERS, Clue

#: The letters an unknown fact may be: each alike.
ALPHABET = len(LETTERS)
#: A branch of the clue tree for "every letter the known states do not give" (`generate`).
ANY = "*"


@cache
def _pairs() -> tuple[tuple[int, int], ...]:
    """Every border pair of the widest rules (four corners and water), in card order: the
    order knowledge is drawn in, so a seed knows the same land pairs under every rule."""
    wide = facts.neighbours(True, True)
    return tuple((a, b) for a in range(N_CARDS) for b in facts.cards_of(wide[a]) if a < b)


class Knowledge:
    """A guesser's facts (module docstring): which capitals, postal codes and border pairs it
    knows, under the rules' border kinds."""

    def __init__(self, four_corners: bool = False, water: bool = False, borders: float = 1.0, capitals: float = 1.0,
                 postal: float = 1.0, seed: int = 0):
        self.fractions = (borders, capitals, postal)
        rng = np.random.default_rng(seed)
        u_capital, u_postal, u_pairs = rng.random(N_CARDS), rng.random(N_CARDS), rng.random(len(_pairs()))
        self.capital_known = tuple(bool(u < capitals) for u in u_capital)
        self.postal_known = tuple(bool(u < postal) for u in u_postal)
        real = facts.neighbours(four_corners, water)
        known = [0] * N_CARDS
        for (a, b), u in zip(_pairs(), u_pairs):
            if real[a] >> b & 1 and u < borders:
                known[a] |= 1 << b
                known[b] |= 1 << a
        self.neighbours = tuple(known)
        self.perfect = all(self.capital_known) and all(self.postal_known) and self.neighbours == real
        self.border_scale = math.lcm(*range(1, max(bin(m).count("1") for m in real) + 1))
        self.key = (four_corners, water, borders, capitals, postal, seed if not self.perfect else None)
        self._masks = None
        self._scales = {(kind, index): self._scale(kind, index) for kind in "ABC" for index in range(3)}

    def knows(self, c: int, kind: str, index: int) -> bool:
        """Whether it can read state c's letter for this clue."""
        if kind == "A":
            return index == 0 or index >= 2 or self.postal_known[c]
        return self.capital_known[c]

    def scale(self, kind: str, index: int) -> int:
        """The denominator of this clue's likelihoods."""
        return self._scales[(kind, index)]

    def _scale(self, kind: str, index: int) -> int:
        if kind == "B":
            return self.border_scale
        if kind == "A" and (index == 0 or index >= 2):
            return 1
        known = self.postal_known if kind == "A" else self.capital_known
        return 1 if all(known) else ALPHABET

    def likelihood(self, c: int, clue: Clue, named_before: int) -> int:
        """The chance, to this guesser, that state c gives `clue` (after `named_before`), times
        `scale`; -1 where its facts contradict the clue."""
        d = self.scale(clue.kind, clue.index)
        if clue.kind == "B":
            left = self.neighbours[c] & ~named_before
            if clue.value is None:
                return d if left == 0 else -1
            return d // bin(left).count("1") if left >> clue.value & 1 else -1
        if not self.knows(c, clue.kind, clue.index):
            return d // ALPHABET
        return d if facts.letter(c, clue.kind, clue.index) == clue.value else -1

    def generate(self, c: int, kind: str, index: int, named: int) -> list[tuple[str | int | None, int]]:
        """The clues state c may give here, to this guesser, each with its likelihood times
        `scale`; `ANY` stands for every letter alike (a fact it cannot read)."""
        d = self.scale(kind, index)
        if kind == "B":
            left = facts.cards_of(self.neighbours[c] & ~named)
            return [(None, d)] if not left else [(t, d // len(left)) for t in left]
        if not self.knows(c, kind, index):
            return [(ANY, d // ALPHABET)]
        return [(facts.letter(c, kind, index), d)]

    def fitting(self, clue: Clue, named_before: int, among: int) -> int:
        """The states of `among` its facts do not contradict on `clue`, as a mask."""
        if clue.kind == "B":
            if clue.value is not None:
                return among & self.neighbours[clue.value]  # c borders t exactly when t borders c
            return facts.mask_of(c for c in facts.cards_of(among) if not self.neighbours[c] & ~named_before)
        key = (clue.kind, clue.index, clue.value)
        masks = self._letter_masks()
        return among & (masks.get(key, 0) | masks.get((clue.kind, clue.index, ANY), 0))

    def _letter_masks(self) -> dict:
        """(kind, index, letter) -> the states it knows give that letter; (kind, index, ANY) ->
        those whose letter it cannot read."""
        if getattr(self, "_masks", None) is None:
            masks: dict = {}
            for kind in "AC":
                for index in range(3):
                    for c in range(N_CARDS):
                        value = facts.letter(c, kind, index) if self.knows(c, kind, index) else ANY
                        masks[(kind, index, value)] = masks.get((kind, index, value), 0) | 1 << c
            self._masks = masks
        return self._masks

    def belief(self, prior: int, clues: Sequence[Clue], guessed: Sequence[int]) -> tuple[tuple[int, int], ...]:
        """The guesser's belief after a phase's clues and its wrong guesses: the states of the
        `prior` mask not guessed with the fewest contradictions, each with its weight (the
        product of its likelihoods, a contradicted clue counting as one)."""
        among = prior & ~facts.mask_of(guessed)
        fits, before = [], 0
        for clue in clues:  # each clue's fitting states, on its own
            fits.append(self.fitting(clue, before, among))
            if clue.kind == "B" and clue.value is not None:
                before |= 1 << clue.value
        level, left = 0, 0
        while among:  # the states contradicted by `level` clues, fewest first
            left = _exactly(among, fits, level)
            if left:
                break
            level += 1
        return tuple((c, self._weight(c, clues)[1]) for c in facts.cards_of(left))

    def _weight(self, c: int, clues: Sequence[Clue]) -> tuple[int, int]:
        """State c's contradictions and weight after `clues`."""
        level, weight, before = 0, 1, 0
        for clue in clues:
            a = self.likelihood(c, clue, before)
            if a < 0:
                level += 1
                weight *= self.scale(clue.kind, clue.index)
            else:
                weight *= a
            if clue.kind == "B" and clue.value is not None:
                before |= 1 << clue.value
        return level, weight


def _exactly(among: int, fits: Sequence[int], level: int) -> int:
    """The states of `among` outside exactly `level` of the masks `fits`, as a mask."""
    if level == 0:
        out = among
        for f in fits:
            out &= f
        return out
    counts = [0] * (len(fits) + 1)  # counts[j]: the states outside exactly j masks so far
    counts[0] = among
    for f in fits:
        counts = [(counts[j] & f) | (counts[j - 1] & ~f if j else 0) for j in range(len(counts))]
    return counts[level] if level < len(counts) else 0


def describe(know: Knowledge) -> str:
    """What it does not know, in a line (for docs and reports)."""
    missing = [POSTAL[c] for c in range(N_CARDS) if not know.capital_known[c]]
    return f"knows {sum(know.capital_known)} capitals, {sum(know.postal_known)} postal codes, " \
           f"{sum(bin(m).count('1') for m in know.neighbours) // 2} border pairs; capitals unknown: {' '.join(missing)}"
