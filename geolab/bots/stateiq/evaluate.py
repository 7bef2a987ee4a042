"""Exact outcomes of a State IQ phase for one held state: how a guesser fares against a
clue-giver, enumerated over every clue and every tied guess (no sampling).

`outcome` walks the phase for the state `s` the guesser must find: at a border clue the
clue-giver names a random border of `s` (each not yet named alike, among the true borders) or
the hard clue-giver's choice (its tied best alike); a letter clue is the card's; at each guess
the guesser picks uniformly among its options. It gives the chance of finding `s` at guess 1,
2 or 3 and of missing it, and every state that was ever in the guesser's belief (`Outcome.seen`),
which lets `averaged` take the mean over the guesser's own card exactly and cheaply: a guesser
whose own card never enters its belief plays as if it had no card to leave out.

With `model` set, the clues come from the guesser's own picture of the facts (letters it cannot
read uniform over the 26, borders among those it knows): the phase as the guesser expects it,
whose mean over the prior is the search's own value (`Solver.expected`).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from geolab.bots.stateiq.knowledge import ANY, Knowledge
from geolab.bots.stateiq.search import Costs, Guesser, HardGiver, Plan
from geolab.games.stateiq import clues as facts
from geolab.games.stateiq.clues import LETTERS, Clue
from geolab.games.stateiq.reference import GUESSES


@dataclass(frozen=True)
class Outcome:
    """Chances of finding the card at guess 1, 2, 3 and of missing it; the states the
    guesser's belief ever held."""

    found: tuple[Fraction, Fraction, Fraction]
    miss: Fraction
    seen: frozenset

    def cost(self, costs: Costs) -> Fraction:
        return sum(p * c for p, c in zip(self.found, costs)) + self.miss * costs[3]

    @property
    def within(self) -> Fraction:
        """The chance of finding the card at all (within the phase's guesses)."""
        return 1 - self.miss


def outcome(guesser: Guesser, s: int, prior: int, plan: Plan, limit: int, costs: Costs, rules,
            giver: HardGiver | None = None, model: Knowledge | None = None, giver_prior: int = facts.ALL,
            giver_costs: Costs | None = None, exact: bool = True) -> Outcome:
    """The exact outcome of one phase in which `guesser` (prior mask `prior`, `limit` guesses,
    `costs`) looks for `s` (module docstring); `giver` None: a random border, else the hard
    clue-giver, whose model guesser has the prior `giver_prior` (the first phase's: every state,
    since it does not know the guesser's card) and `giver_costs` (default: the first phase's).
    Chances are exact fractions, or (``exact`` false) floats, much faster where ties are many."""
    giver_costs = giver_costs or (giver.model.costs(0, None) if giver is not None else None)
    nbr = facts.neighbours(rules.four_corners, rules.water)
    seen: set[int] = set()
    memo: dict = {}
    num = Fraction if exact else float
    zero = (num(0),) * (GUESSES + 1)
    at = tuple(tuple(num(int(j == k)) for j in range(GUESSES + 1)) for k in range(GUESSES))
    lost = (num(0),) * GUESSES + (num(1),)

    def add(total, part, p):
        return tuple(x + p * y for x, y in zip(total, part))

    def clue(clues: tuple[Clue, ...], guessed: frozenset) -> tuple:
        """The chances of finding s at guess 1, 2, 3 and of a miss, from clue len(clues) on."""
        k = len(clues)
        kind, index = plan[k]
        if model is not None:
            total = zero
            for value, q in _modelled(model, s, kind, index, facts.named(clues)):
                total = add(total, guess((*clues, Clue(kind, index, value)), guessed), num(q))
            return total
        if kind != "B":
            return guess((*clues, facts.true_clue(s, kind, index)), guessed)
        left = facts.cards_of(nbr[s] & ~facts.named(clues))
        if not left:
            return guess((*clues, Clue("B", index, None)), guessed)
        picks = left if giver is None else giver.options(s, plan, clues, tuple(sorted(guessed)), giver_prior, limit,
                                                         giver_costs)
        total = zero
        for t in picks:
            total = add(total, guess((*clues, Clue("B", index, t)), guessed), num(1) / len(picks))
        return total

    def guess(clues: tuple[Clue, ...], guessed: frozenset) -> tuple:
        key = (clues, guessed)
        if key in memo:
            return memo[key]
        k = len(clues) - 1
        made = tuple(sorted(guessed))
        seen.update(c for c, _ in guesser.belief(prior, clues, made))
        options = guesser.options(prior, plan, clues, made, limit, costs) or \
            facts.cards_of(prior & ~facts.mask_of(made))
        total = zero
        q = num(1) / len(options)
        for g in options:
            if g == s:
                total = add(total, at[k], q)
            elif k + 1 == limit:
                total = add(total, lost, q)
            else:
                total = add(total, clue(clues, guessed | {g}), q)
        memo[key] = total
        return total

    result = clue((), frozenset())
    return Outcome((result[0], result[1], result[2]), result[3], frozenset(seen))


def _modelled(know: Knowledge, s: int, kind: str, index: int, named: int):
    """The clues `s` gives as `know` pictures them, with their chances."""
    d = know.scale(kind, index)
    for value, a in know.generate(s, kind, index, named):
        if value == ANY:
            for letter in LETTERS:
                yield letter, Fraction(a, d)
        else:
            yield value, Fraction(a, d)


def averaged(guesser: Guesser, s: int, plan: Plan, rules, giver: HardGiver | None = None,
             costs: Costs | None = None, exact: bool = True) -> Outcome:
    """The first phase's outcome for card `s`, averaged over the guesser's own card (each of the
    other 49 alike), exactly: the own cards that never enter the belief all play alike."""
    costs = costs or guesser.costs(0, None)
    base = outcome(guesser, s, facts.ALL, plan, GUESSES, costs, rules, giver, exact=exact)
    mixed = {g: outcome(guesser, s, facts.ALL & ~(1 << g), plan, GUESSES, costs, rules, giver, exact=exact)
             for g in sorted(base.seen - {s})}
    rest = 49 - len(mixed)
    parts = [*mixed.values()] + [base] * rest
    found = tuple(sum(o.found[k] for o in parts) / 49 for k in range(GUESSES))
    miss = sum(o.miss for o in parts) / 49
    return Outcome(found, miss, base.seen.union(*(o.seen for o in mixed.values())))
