"""Plain-Python minimax straight from the reference engine's rule functions: the yardstick the
compiled solver is tested against. Exponential; small hands only."""

from __future__ import annotations

from functools import lru_cache

from geolab.games.ranks.reference import Lead, is_over, outcome, trick_winner
from geolab.games.ranks.rules import Rules


def _a_score(winner):
    """2 if A wins, 1 tie, 0 if B wins: A maximises, B minimises."""
    return 1 if winner is None else (2 if winner == 0 else 0)


def _canonical(history):
    """The trick winners in an order with the same counts and last winner (all the rule
    functions look at), so the memo shares positions reached by different paths."""
    if not history:
        return ()
    last = history[-1]
    rest = sorted(history[:-1])
    return tuple(rest) + (last,)


class Brute:
    """Best-play values of small deals: `win` (A's outcome score, the deal stopping where the
    rules stop it) and `tricks` (A's tricks, every trick played out)."""

    def __init__(self, rules: Rules, power_bases=None):
        self.rules, self.power_bases = rules, power_bases
        self.win = lru_cache(maxsize=None)(self._win)
        self.tricks = lru_cache(maxsize=None)(self._tricks)

    def _win(self, a, b, leader, history):
        if is_over(self.rules, list(history)):
            return _a_score(outcome(self.rules, list(history)))
        return self._trick(a, b, leader, history, self.win)

    def _tricks(self, a, b, leader, history):
        if len(history) == self.rules.tricks:
            return list(history).count(0)
        return self._trick(a, b, leader, history, self.tricks)

    def leads(self, a, b, leader, history):
        own = a if leader == 0 else b
        bases = self.rules.allowed_bases(len(history), self.power_bases)
        return [Lead(c, k, base) for c in own for k in range(3) for base in bases]

    def after_follow(self, a, b, leader, history, lead, f, rec):
        w = trick_winner(self.rules, leader, lead.card, f, lead.category, lead.base)
        na = tuple(x for x in a if x not in (lead.card, f))
        nb = tuple(x for x in b if x not in (lead.card, f))
        return rec(na, nb, w, _canonical(history + (w,)))

    def after_lead(self, a, b, leader, history, lead, rec):
        opp = b if leader == 0 else a
        pick = min if leader == 0 else max
        return pick(self.after_follow(a, b, leader, history, lead, f, rec) for f in opp)

    def _trick(self, a, b, leader, history, rec):
        pick = max if leader == 0 else min
        return pick(self.after_lead(a, b, leader, history, lead, rec) for lead in self.leads(a, b, leader, history))
