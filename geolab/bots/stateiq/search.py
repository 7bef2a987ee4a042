"""The State IQ guesser's search over the clue tree, and the clue-giver that plays against it.

**The guesser** (`Guesser`) keeps its belief (`Knowledge.belief`: the states consistent with
every clue, weighed by how likely each makes the clues) and, at each guess, picks the guess that
minimises its expected cost to the end of the phase: a guess is right with its state's weight;
otherwise the next clue splits the states left into branches (the clue each state would give,
to the guesser's knowledge, a random border for B) and the search goes on in each. Costs are
whole numbers by guess: found at guess 1, 2, 3, or missed (``(1, 2, 3, miss)``: expected
guesses, a miss counted as `miss`); the second team's phase is shorter when the first team
found the card sooner (`horizon`), and the ``game`` objective scores it by the game instead
(`game_costs`). The tree is small (at most three clues, a few states in each branch) and is
searched exactly (`Solver.best`): weights and values are exact integers (each clue's
likelihoods share a denominator, `Knowledge.scale`), so ties are exact and the guesser picks
among tied guesses uniformly.

**The hard clue-giver** (`HardGiver`) names, at each border clue, the border that keeps its
state hardest to find: it plays out the phase against the perfect-knowledge guesser (its own
objective), for every border it may name now and later (its own later choices the best for it
again), and names the one of most expected cost to the guesser (``aim="guesses"``) or most
chance of a miss (``aim="miss"``). It does not know the guesser's own card, so its model
guesser leaves out only what both sides have seen: the clue-giver's own guesses of the other
phase (a team never guesses its own state) and, once found, the guesser's card.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from functools import cache

from geolab.bots.stateiq.knowledge import ALPHABET, ANY, Knowledge
from geolab.games.stateiq import clues as facts
from geolab.games.stateiq.clues import Clue
from geolab.games.stateiq.reference import GUESSES, horizon

Belief = tuple[tuple[int, int], ...]
Plan = tuple[tuple[str, int], ...]
Costs = tuple[int, int, int, int]


def guess_costs(miss: int = 4) -> Costs:
    """Expected guesses: found at guess k costs k, a miss costs `miss`."""
    return (1, 2, 3, miss)


def game_costs(first_found: int | None) -> Costs:
    """The second guesser's share of the game, negated and doubled (a win -2, a tie -1, a loss
    0): found before the first team's count wins, at it ties; a miss loses, or ties if the
    first team missed too."""
    if first_found is None:
        return (-2, -2, -2, -1)
    return tuple(-2 if k + 1 < first_found else -1 if k + 1 == first_found else 0 for k in range(GUESSES)) + (0,)


class Solver:
    """The exact search of one guesser's clue tree (module docstring), memoised by belief."""

    def __init__(self, know: Knowledge):
        self.know = know
        self.memo: dict = {}

    def scales(self, plan: Plan, start: int, end: int) -> int:
        """The product of the likelihood denominators of clue slots start .. end - 1."""
        return math.prod(self.know.scale(kind, index) for kind, index in plan[start:end])

    def branches(self, rest: Sequence[tuple[int, int]], kind: str, index: int,
                 named: int) -> list[tuple[int, Belief, int]]:
        """How the next clue splits the states `rest`: (how many clue values give this branch,
        its belief (weights times the clue's likelihoods), the borders named after it)."""
        return _split([(c, w, self.know.generate(c, kind, index, named)) for c, w in rest], kind, named)

    def best(self, belief: Belief, k: int, plan: Plan, named: int, limit: int,
             costs: Costs) -> tuple[int, tuple[int, ...]]:
        """The least expected cost from guess k (0-based) to the end of a phase of `limit`
        guesses, and every guess that reaches it, for `belief` (clue k given). The cost is
        scaled: times the total weight and the denominators of the clues still to come."""
        g = math.gcd(*(w for _, w in belief))
        canon = belief if g == 1 else tuple((c, w // g) for c, w in belief)
        future = plan[k + 1:limit]
        named = named if _border_in(future) else 0  # it matters only to a border clue to come
        key = (canon, future, named, limit - k, costs[k:limit], costs[3])
        hit = self.memo.get(key)
        if hit is None:
            hit = self.memo[key] = self._best(canon, k, plan, named, limit, costs)
        return hit[0] * g, hit[1]

    def _best(self, belief: Belief, k: int, plan: Plan, named: int, limit: int,
              costs: Costs) -> tuple[int, tuple[int, ...]]:
        miss = costs[3]
        if k == limit - 1:
            total = sum(w for _, w in belief)
            values = [(w * costs[k] + (total - w) * miss, c) for c, w in belief]
        else:
            later = self.scales(plan, k + 1, limit)
            kind, index = plan[k + 1]
            generate = self.know.generate
            # each state's clues, read once: a wrong guess of c leaves the others to split
            given = [(c, w, generate(c, kind, index, named)) for c, w in belief]
            wrong = _last_guesses(given, costs[k + 1], miss) if k + 2 == limit else \
                self._wrong_guesses(given, k, plan, named, limit, costs)
            values = [(w * costs[k] * later + after, c) for (c, w), after in zip(belief, wrong)]
        low = min(v for v, _ in values)
        return low, tuple(c for v, c in values if v == low)

    def _wrong_guesses(self, given, k: int, plan: Plan, named: int, limit: int, costs: Costs) -> list[int]:
        """For each state c of `given` (each with the clues it may give at slot k + 1), the cost
        after a wrong guess of c: the sum of `best` over the branches the clue splits the others
        into, each times its count (`_split`). The branches of all the states are made once: a
        branch c is not in is the same without c, so only the branches c is in are made again
        (all of them where c's clue is one the guesser cannot read, which is in every branch)."""
        kind = plan[k + 1][0]
        groups: dict = {}
        anys: list[tuple[int, int]] = []
        for c, w, clues in given:
            for value, a in clues:
                (anys if value == ANY else groups.setdefault(value, [])).append((c, w * a))
        after = {v: named | (1 << v) if kind == "B" and v is not None else named for v in groups}
        branch = {v: tuple(sorted(members + anys)) for v, members in groups.items()}

        def cost(b: Belief, v) -> int:
            return self.best(b, k + 1, plan, named if v is ANY else after[v], limit, costs)[0]

        whole = {v: cost(b, v) for v, b in branch.items()}
        total = sum(whole.values())
        spare = cost(tuple(anys), ANY) if anys else 0  # the branch of a letter no state is known to give
        out = []
        for c, _, clues in given:
            if clues[0][0] == ANY:
                rest = [x for x in given if x[0] != c]
                out.append(sum(count * self.best(b, k + 1, plan, a, limit, costs)[0]
                               for count, b, a in _split(rest, kind, named)) if rest else 0)
                continue
            value, kept = total, len(groups)
            for v, _ in clues:
                value -= whole[v]
                if len(groups[v]) == 1:  # c alone gave this clue: the branch is gone
                    kept -= 1
                else:
                    value += cost(tuple(x for x in branch[v] if x[0] != c), v)
            if anys and ALPHABET > kept:
                value += (ALPHABET - kept) * spare
            out.append(value)
        return out

    def expected(self, prior: int, plan: Plan, limit: int, costs: Costs) -> Fraction:
        """The least expected cost of a phase before its first clue, the card uniform over
        `prior` and the clues as the guesser expects them."""
        belief = tuple((c, 1) for c in facts.cards_of(prior))
        kind, index = plan[0]
        total = sum(count * self.best(b, 0, plan, after, limit, costs)[0]
                    for count, b, after in self.branches(belief, kind, index, 0))
        return Fraction(total, self.scales(plan, 0, limit) * len(belief))


def _split(rest, kind: str, named: int) -> list[tuple[int, Belief, int]]:
    """`Solver.branches` of states each given with the clues it may give (`Knowledge.generate`)."""
    groups: dict = {}
    anys: list[tuple[int, int]] = []
    for c, w, clues in rest:
        for value, a in clues:
            (anys if value == ANY else groups.setdefault(value, [])).append((c, w * a))
    out = []
    for value, members in groups.items():
        after = named | (1 << value) if kind == "B" and value is not None else named
        out.append((1, tuple(sorted(members + anys)), after))
    if anys and ALPHABET > len(groups):
        out.append((ALPHABET - len(groups), tuple(anys), named))
    return out


def _last_guesses(given, cost: int, miss: int) -> list[int]:
    """For each state c of `given` (in order), what the branches of the others cost at the
    phase's last guess, summed as `Solver.best` sums `_split` 's branches (each times its
    count): a branch of total weight T costs ``T * miss + w * (cost - miss)`` guessing a state of
    weight w, least at the w that minimises it, so no branch need be built or remembered. The
    branches of all the states are read once; leaving c out changes only those it is in."""
    gain = cost - miss
    groups: dict = {}  # clue value -> [total, least score, second least, states]; a score is w * gain
    anys = None  # the same for the states whose clue it cannot read (in every branch)
    for _c, w, clues in given:
        for value, a in clues:
            x = w * a
            t = anys if value == ANY else groups.get(value)
            if t is None:
                t = [0, _NONE, _NONE, 0]
                if value == ANY:
                    anys = t
                else:
                    groups[value] = t
            _add(t, x, x * gain)

    def least(t, other=None) -> int:
        if other is None or not other[3]:
            return t[0] * miss + t[1]
        return (t[0] + other[0]) * miss + min(t[1], other[1])

    whole = {value: least(t, anys) for value, t in groups.items()}
    total = sum(whole.values())
    out = []
    for _c, w, clues in given:
        if clues[0][0] == ANY:  # in every branch: each is read again without it
            rest = _without(anys, w * clues[0][1], w * clues[0][1] * gain)
            value = sum(least(t, rest) for t in groups.values())
            if rest[3] and ALPHABET > len(groups):
                value += (ALPHABET - len(groups)) * least(rest)
            out.append(value)
            continue
        value, kept = total, len(groups)
        for v, a in clues:
            t = groups[v]
            value -= whole[v]
            if t[3] == 1:
                kept -= 1
            else:
                value += least(_without(t, w * a, w * a * gain), anys)
        if anys is not None and ALPHABET > kept:
            value += (ALPHABET - kept) * least(anys)
        out.append(value)
    return out


#: Above every score: an empty slot of `_last_guesses`' least scores.
_NONE = float("inf")


def _add(t: list, x: int, score: int) -> None:
    t[0] += x
    t[3] += 1
    if score < t[1]:
        t[1], t[2] = score, t[1]
    elif score < t[2]:
        t[2] = score


def _without(t: list, x: int, score: int) -> list:
    """A branch's [total, least score, second least, states] without one state of `t` (its
    second least score no longer known, and no longer needed)."""
    return [t[0] - x, t[2] if score == t[1] else t[1], _NONE, t[3] - 1]


@cache
def _border_in(future: Plan) -> bool:
    return any(kind == "B" for kind, _ in future)


GUESS_KINDS = ("equilibrium", "optimal", "greedy", "random")


class Guesser:
    """A guesser: its knowledge, how it guesses (``optimal``: the search; ``greedy``: the most
    likely state now; ``random``: any state of its consistent set) and its costs."""

    def __init__(self, know: Knowledge, guess: str = "optimal", objective: str = "guesses", miss: int = 4):
        self.know, self.guess, self.objective, self.miss = know, guess, objective, miss
        self.solver = Solver(know)
        self.cache: dict = {}
        self.beliefs: dict = {}

    def costs(self, phase: int, first_found: int | None) -> Costs:
        return game_costs(first_found) if self.objective == "game" and phase == 1 else guess_costs(self.miss)

    def options(self, prior: int, plan: Plan, clues: tuple[Clue, ...], guessed: tuple[int, ...], limit: int,
                costs: Costs) -> tuple[int, ...]:
        """The guesses it picks among (uniformly) after these clues and wrong guesses."""
        key = (prior, plan, clues, guessed, limit, costs)
        hit = self.cache.get(key)
        if hit is None:
            hit = self.cache[key] = self._options(*key)
        return hit

    def belief(self, prior: int, clues: tuple[Clue, ...], guessed: tuple[int, ...]) -> Belief:
        """`Knowledge.belief`, remembered."""
        key = (prior, clues, guessed)
        hit = self.beliefs.get(key)
        if hit is None:
            hit = self.beliefs[key] = self.know.belief(prior, clues, guessed)
        return hit

    def _options(self, prior, plan, clues, guessed, limit, costs) -> tuple[int, ...]:
        belief = self.belief(prior, clues, guessed)
        if not belief:  # nothing left it may guess (only where the prior is spent): any legal guess
            return ()
        return self.pick(belief, len(clues) - 1, plan, facts.named(clues), limit, costs)

    def pick(self, belief: Belief, k: int, plan: Plan, named: int, limit: int, costs: Costs) -> tuple[int, ...]:
        """The guesses it picks among at guess k with `belief` (clue k given)."""
        if self.guess == "random":
            return tuple(c for c, _ in belief)
        if self.guess == "greedy":
            top = max(w for _, w in belief)
            return tuple(c for c, w in belief if w == top)
        return self.solver.best(belief, k, plan, named, limit, costs)[1]


class HardGiver:
    """The clue-giver that names the border hardest for its model guesser (module docstring).

    It plays the rest of the phase from the model guesser's belief, so games that reach the
    same belief (whatever the own cards and guesses that led there) share one search."""

    def __init__(self, rules, model: Guesser, aim: str = "guesses"):
        self.rules, self.model, self.aim = rules, model, aim
        self.nbr = facts.neighbours(rules.four_corners, rules.water)
        self.memo: dict = {}

    def scores(self) -> Costs:
        """What it maximises, by the guess that finds its card (1-3) and a miss."""
        return guess_costs(self.model.miss) if self.aim == "guesses" else (0, 0, 0, 1)

    def values(self, s: int, plan: Plan, clues: tuple[Clue, ...], guessed: tuple[int, ...], prior: int, limit: int,
               costs: Costs) -> dict[int, Fraction]:
        """Each border it may name now (clue len(clues)): the guesser's expected score after it;
        the model guesser's prior `prior`, its costs `costs`."""
        belief = self.model.know.belief(prior, clues, guessed)
        return self.values_from(s, belief, len(clues), plan, facts.named(clues), limit, costs)

    def values_from(self, s: int, belief: Belief, k: int, plan: Plan, named: int, limit: int,
                    costs: Costs) -> dict[int, Fraction]:
        """`values`, from the model guesser's belief before clue k."""
        g = math.gcd(*(w for _, w in belief))
        belief = tuple((c, w // g) for c, w in belief)
        key = ("values", s, belief, k, plan[k:limit], named, limit, costs)
        hit = self.memo.get(key)
        if hit is None:
            kind, index = plan[k]
            hit = self.memo[key] = {t: self._after(s, self._update(belief, Clue(kind, index, t), named), k, plan,
                                                   named | 1 << t, limit, costs)
                                    for t in facts.cards_of(self.nbr[s] & ~named)}
        return hit

    def options(self, s: int, plan: Plan, clues: tuple[Clue, ...], guessed: tuple[int, ...], prior: int, limit: int,
                costs: Costs) -> tuple[int, ...]:
        """The borders it names, each alike: those of the highest `values`."""
        return _top(self.values(s, plan, clues, guessed, prior, limit, costs))

    def options_from(self, s: int, belief: Belief, k: int, plan: Plan, named: int, limit: int,
                     costs: Costs) -> tuple[int, ...]:
        return _top(self.values_from(s, belief, k, plan, named, limit, costs))

    def _update(self, belief: Belief, clue: Clue, named_before: int) -> Belief:
        """The model guesser's belief after one more clue (its facts are the true ones)."""
        know = self.model.know
        weights = dict(belief)
        fit = know.fitting(clue, named_before, facts.mask_of(weights))
        return tuple((c, weights[c] * know.likelihood(c, clue, named_before)) for c in facts.cards_of(fit))

    def _after(self, s: int, belief: Belief, k: int, plan: Plan, named: int, limit: int,
               costs: Costs) -> Fraction | int:
        """The score once clue k is given and the model guesser holds `belief`: its guesses,
        each alike, then (if wrong) the next clue, its own best where it is a border."""
        g = math.gcd(*(w for _, w in belief))
        belief = tuple((c, w // g) for c, w in belief)
        key = (s, belief, k, plan[k + 1:limit], named, limit, costs)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        score = self.scores()
        options = self.model.solver.best(belief, k, plan, named, limit, costs)[1] if self.model.guess == "optimal" \
            else self.model.pick(belief, k, plan, named, limit, costs)
        total = 0  # whole while every term is (most searches end so): a Fraction only once one is
        for guess in options:
            if guess == s:
                total += score[k]
            elif k + 1 == limit:
                total += score[3]
            else:
                rest = tuple((c, w) for c, w in belief if c != guess)
                kind, index = plan[k + 1]
                if kind != "B":
                    clue = facts.true_clue(s, kind, index)
                    total += self._after(s, self._update(rest, clue, named), k + 1, plan, named, limit, costs)
                    continue
                left = facts.cards_of(self.nbr[s] & ~named)
                if not left:
                    total += self._after(s, self._update(rest, Clue("B", index, None), named), k + 1, plan, named,
                                         limit, costs)
                    continue
                total += max(self._after(s, self._update(rest, Clue("B", index, t), named), k + 1, plan,
                                         named | 1 << t, limit, costs) for t in left)
        self.memo[key] = value = total if len(options) == 1 else Fraction(total, len(options))
        return value


def _top(values: dict) -> tuple[int, ...]:
    if not values:
        return ()
    top = max(values.values())
    return tuple(t for t, v in values.items() if v == top)


def phase_limit(phase: int, first_found: int | None) -> int:
    """The guesses a phase allows."""
    return GUESSES if phase == 0 else horizon(first_found)
