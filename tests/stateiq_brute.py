"""A brute-force State IQ guesser for the tests: the least expected cost of a phase by plain
expectimin over every (held state, clue) world, written from the rules and the guesser's
picture of the facts without the bot's shortcuts (no memo, no integer scaling, no grouping of
letters: every letter a branch, exact fractions).

At a guess it tries every state some world still holds (a guess no world holds costs a guess
and tells nothing, so it never does better than guessing a state that may be right, whose
cost is at most the later one: costs never fall with the guess number)."""

from __future__ import annotations

from fractions import Fraction

from geolab.cards import CAPITALS, N_CARDS, POSTAL

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def capital_letters(c: int) -> str:
    return "".join(ch for ch in CAPITALS[c].upper() if ch.isalpha())


def clue_chances(know, s: int, kind: str, index: int, named: tuple[int, ...]):
    """(clue value, chance) of what state s says, as the guesser `know` pictures it."""
    if kind == "A":
        if index >= 2:
            return [(None, Fraction(1))]
        if index == 1 and not know.postal_known[s]:
            return [(x, Fraction(1, 26)) for x in LETTERS]
        return [(POSTAL[s][index], Fraction(1))]
    if kind == "C":
        if not know.capital_known[s]:
            return [(x, Fraction(1, 26)) for x in LETTERS]
        return [(capital_letters(s)[index], Fraction(1))]
    left = [t for t in range(N_CARDS) if know.neighbours[s] >> t & 1 and t not in named]
    if not left:
        return [(None, Fraction(1))]
    return [(t, Fraction(1, len(left))) for t in left]


def brute_value(know, prior: list[int], order: str, limit: int, costs) -> Fraction:
    """The least expected cost (costs: found at guess 1, 2, 3, miss) of a phase of `limit`
    guesses of `order`'s clues, the held state uniform over `prior`."""
    kinds = [(kind, order[:j].count(kind)) for j, kind in enumerate(order)]

    def give(worlds, k: int) -> Fraction:
        kind, index = kinds[k]
        split: dict = {}
        for s, p, named in worlds:
            for value, q in clue_chances(know, s, kind, index, named):
                after = named + (value,) if kind == "B" and value is not None else named
                split.setdefault(value, []).append((s, p * q, after))
        return sum((guess(group, k) for group in split.values()), Fraction(0))

    def guess(worlds, k: int) -> Fraction:
        best = None
        for g in sorted({s for s, _, _ in worlds}):
            right = sum((p for s, p, _ in worlds if s == g), Fraction(0))
            wrong = [w for w in worlds if w[0] != g]
            value = right * costs[k]
            if wrong:
                value += sum((p for _, p, _ in wrong), Fraction(0)) * costs[3] if k + 1 == limit else give(wrong, k + 1)
            best = value if best is None or value < best else best
        return best

    return give([(s, Fraction(1, len(prior)), ()) for s in prior], 0)
