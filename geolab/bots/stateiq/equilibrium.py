"""A State IQ phase as the zero-sum game it is, solved exactly.

In a phase the clue-giver knows its state s and names the border clues; the guesser sees every
clue and its own guesses, and guesses. Neither choice is a best reply to a fixed other: a
clue-giver that names the border hardest for a known guesser is the easiest to read back, and a
guesser that always takes the guess best against a random border is the easiest to hide from
(the old default's weakness: a random guesser beat it). So both are played from the game's
equilibrium: the guesser mixes its guesses, the clue-giver its borders, each as the other's
best reply leaves it no gain.

**The game** (`PhaseGame`): s uniform over a prior (a set of states), the clue order's slots
up to a phase's `limit` guesses, the true facts (both sides know them), and the guesser's
payoff by the guess that finds s (first, second, third) or a miss (`payoff`, four numbers: a
share of the game, or minus the guesses). The guesser's options at each point are the states
that fit every clue and were not guessed (another guess is never better: it is never right
and tells nothing). The clue-giver is asked only where a border clue has a border left.

**The solution** (`solve`): the sequence-form linear program of the game (the guesser's
realisation plan against a clue-giver that best-replies state by state, Koller, Megiddo and
von Stengel's form), solved by scipy's HiGHS: its optimum is the guesser's equilibrium
strategy, its duals the clue-giver's, per state. `exploitability` plays each against a best
reply (`best_reply_to_guesser`, `best_reply_to_giver`) and gives the gap, zero at an exact
equilibrium (within the solver's tolerance, `TOLERANCE`). `solve_matrix` is the same for a
plain matrix game (tests and small hand checks).

Keys, so a player can look its answer up from a game's arrays (`geolab.games.stateiq.batch`
codes): a guesser's information set is ``(clue codes so far, guesses so far)`` (one clue more
than guesses), a clue-giver's ``(s, clue codes so far, guesses so far)`` (as many of each).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from scipy.optimize import linprog
from scipy.sparse import csr_matrix

from geolab.games.stateiq import clues as facts
from geolab.games.stateiq.batch import LETTER, NONE
from geolab.games.stateiq.clues import LETTERS
from geolab.games.stateiq.reference import GUESSES

#: A strategy's largest gain to a best reply that counts as none (HiGHS's optimality
#: tolerance is 1e-7 on values of order 1).
TOLERANCE = 1e-6
MISS = GUESSES  # the payoff index of a miss

Mixed = tuple[tuple[int, ...], tuple[float, ...]]  # cards and their probabilities


def letter_code(c: int, kind: str, index: int) -> int:
    """State c's clue code for a letter slot (`geolab.games.stateiq.batch` codes)."""
    value = facts.letter(c, kind, index)
    return NONE if value is None else LETTER + LETTERS.index(value)


@dataclass
class PhaseGame:
    """One phase's game (module docstring), its tree built once for the linear program and
    the best replies."""

    prior: int  # the states s may be, a mask
    order: str
    limit: int  # guesses in the phase
    payoff: tuple[float, float, float, float]  # the guesser's, found at guess 1-3 or missed
    nbr: tuple[int, ...]  # each state's borders (the rules' border kinds)
    #: guesser information set -> (its states (the options), the realisation-plan index of
    #: each option's sequence, the parent sequence's index or -1)
    infosets: dict = field(default_factory=dict)
    n_seq: int = 0

    def __post_init__(self):
        self.plan = facts.program(self.order)
        self.masks = {}  # (kind, index, code) -> states giving that letter
        for kind in "AC":
            for index in range(GUESSES):
                for c in range(len(self.nbr)):
                    key = (kind, index, letter_code(c, kind, index))
                    self.masks[key] = self.masks.get(key, 0) | 1 << c

    def states(self) -> tuple[int, ...]:
        return facts.cards_of(self.prior)

    def clue(self, s: int, k: int, codes: tuple, named: int, among: int):
        """The clues s may give at slot k: [(code, states of `among` that may give it, named
        after)], several only where s names a border (its choice), with `chooses`."""
        kind, index = self.plan[k]
        if kind == "B":
            left = self.nbr[s] & ~named
            if left:
                return [(t, among & self.nbr[t], named | 1 << t) for t in facts.cards_of(left)], True
            done = facts.mask_of(c for c in facts.cards_of(among) if not self.nbr[c] & ~named)
            return [(NONE, done, named)], False
        code = letter_code(s, kind, index)
        return [(code, among & self.masks[(kind, index, code)], named)], False

    def infoset(self, codes: tuple, guesses: tuple, among: int, parent: int):
        key = (codes, guesses)
        got = self.infosets.get(key)
        if got is None:
            options = facts.cards_of(among)
            got = self.infosets[key] = (options, tuple(range(self.n_seq, self.n_seq + len(options))), parent)
            self.n_seq += len(options)
        return got


@dataclass
class Solution:
    """A phase game's equilibrium: the guesser's mixed guess at each information set, the
    clue-giver's mixed border at each of its nodes, and the guesser's expected payoff."""

    game: PhaseGame
    value: float
    guess: dict  # (codes, guesses) -> Mixed
    clue: dict  # (s, codes, guesses) -> Mixed


def solve(game: PhaseGame) -> Solution:
    """The equilibrium of `game` by its sequence-form linear program (module docstring)."""
    rows, cols, vals, ub_keys = [], [], [], []  # the clue-giver's constraints V - child <= 0
    n_v = 0
    objective: dict = {}

    def expr(s, k, codes, guesses, named, among, parent) -> dict:
        """The guesser's realisation-weighted payoff for state s from clue k on, as a linear form
        over ('x', sequence) and ('v', clue-giver node) variables."""
        nonlocal n_v
        options, chooses = game.clue(s, k, codes, named, among)
        if not chooses:
            code, fit, after = options[0]
            return play(s, k, codes + (code,), guesses, after, fit, parent)
        v = n_v
        n_v += 1
        for t, fit, after in options:
            child = play(s, k, codes + (t,), guesses, after, fit, parent)
            row = len(ub_keys)
            ub_keys.append(((s, codes, guesses), t))
            rows.append(row), cols.append(("v", v)), vals.append(1.0)
            for var, a in child.items():
                rows.append(row), cols.append(var), vals.append(-a)
        return {("v", v): 1.0}

    def play(s, k, codes, guesses, named, among, parent) -> dict:
        options, seqs, _ = game.infoset(codes, guesses, among, parent)
        out: dict = {}
        for g, q in zip(options, seqs):
            if g == s:
                out[("x", q)] = out.get(("x", q), 0.0) + game.payoff[k]
            elif k + 1 < game.limit:
                for var, a in expr(s, k + 1, codes, guesses + (g,), named, among & ~(1 << g), q).items():
                    out[var] = out.get(var, 0.0) + a
            else:
                out[("x", q)] = out.get(("x", q), 0.0) + game.payoff[MISS]
        return out

    states = game.states()
    for s in states:
        for var, a in expr(s, 0, (), (), 0, game.prior, -1).items():
            objective[var] = objective.get(var, 0.0) + a / len(states)
    n_x = game.n_seq
    index = lambda var: var[1] if var[0] == "x" else n_x + var[1]  # noqa: E731
    n = n_x + n_v
    c = np.zeros(n)
    for var, a in objective.items():
        c[index(var)] -= a  # linprog minimises
    a_ub = csr_matrix((vals, (rows, [index(v) for v in cols])), shape=(len(ub_keys), n)) if ub_keys else None
    eq_rows, eq_cols, eq_vals, b_eq = [], [], [], []
    for r, (_options, seqs, parent) in enumerate(game.infosets.values()):
        for q in seqs:
            eq_rows.append(r), eq_cols.append(q), eq_vals.append(1.0)
        if parent >= 0:
            eq_rows.append(r), eq_cols.append(parent), eq_vals.append(-1.0)
        b_eq.append(0.0 if parent >= 0 else 1.0)
    a_eq = csr_matrix((eq_vals, (eq_rows, eq_cols)), shape=(len(b_eq), n))
    bounds = [(0, None)] * n_x + [(None, None)] * n_v
    result = linprog(c, A_ub=a_ub, b_ub=np.zeros(len(ub_keys)) if ub_keys else None, A_eq=a_eq, b_eq=b_eq,
                     bounds=bounds, method="highs")
    if result.status != 0:
        raise RuntimeError(f"State IQ equilibrium: the linear program failed ({result.message})")
    x = result.x[:n_x]
    guess = {}
    for key, (options, seqs, parent) in game.infosets.items():
        reach = 1.0 if parent < 0 else x[parent]
        guess[key] = _mixed(options, [x[q] for q in seqs], reach)
    lam = -result.ineqlin.marginals if ub_keys else np.zeros(0)
    by_node: dict = {}
    for (node, t), w in zip(ub_keys, lam.tolist()):
        by_node.setdefault(node, []).append((t, max(w, 0.0)))
    clue = {node: _mixed([t for t, _ in tw], [w for _, w in tw], sum(w for _, w in tw)) for node, tw in by_node.items()}
    return Solution(game, -float(result.fun), guess, clue)


def _mixed(cards, weights, total: float) -> Mixed:
    """Probabilities from realisation weights; uniform where the node is never reached (its
    play there cannot matter to its own value)."""
    if total <= 1e-12:
        return tuple(cards), tuple(1.0 / len(cards) for _ in cards)
    probs = [max(w, 0.0) / total for w in weights]
    norm = sum(probs)
    keep = [(c, p / norm) for c, p in zip(cards, probs) if p / norm > 1e-9]
    return tuple(c for c, _ in keep), tuple(p for _, p in keep)


def best_reply_to_guesser(solution: Solution, s: int) -> float:
    """The guesser's expected payoff against state s when the clue-giver, knowing the
    guesser's mixed strategy, names the borders worst for it."""
    game = solution.game

    def clue(k, codes, guesses, named, among) -> float:
        options, chooses = game.clue(s, k, codes, named, among)
        values = [guess(k, codes + (code,), guesses, after, fit) for code, fit, after in options]
        return min(values)

    def guess(k, codes, guesses, named, among) -> float:
        total = 0.0
        for g, p in zip(*solution.guess[(codes, guesses)]):
            if g == s:
                total += p * game.payoff[k]
            elif k + 1 < game.limit:
                total += p * clue(k + 1, codes, guesses + (g,), named, among & ~(1 << g))
            else:
                total += p * game.payoff[MISS]
        return total

    return clue(0, (), (), 0, game.prior)


def best_reply_to_giver(solution: Solution) -> float:
    """The guesser's expected payoff (s uniform over the prior) with every guess the best
    against the clue-giver's mixed strategy, each state's weight carried down the tree."""
    game = solution.game

    def clue(k, codes, guesses, named, among, weights: dict) -> float:
        children: dict = {}
        for s, w in weights.items():
            options, chooses = game.clue(s, k, codes, named, among)
            if chooses:
                mixed = dict(zip(*solution.clue[(s, codes, guesses)]))
                options = [(code, fit, after) for code, fit, after in options if code in mixed]
            else:
                mixed = {options[0][0]: 1.0}
            for code, fit, after in options:
                branch = children.setdefault(code, [fit, after, {}])
                branch[2][s] = w * mixed[code]
        return sum(guess(k, codes + (code,), guesses, after, fit, ws) for code, (fit, after, ws) in children.items())

    def guess(k, codes, guesses, named, among, weights: dict) -> float:
        total = sum(weights.values())
        best = -math.inf
        for g in facts.cards_of(among):
            value = weights.get(g, 0.0) * game.payoff[k]
            rest = {s: w for s, w in weights.items() if s != g}
            if rest:
                value += clue(k + 1, codes, guesses + (g,), named, among & ~(1 << g), rest) if k + 1 < game.limit \
                    else (total - weights.get(g, 0.0)) * game.payoff[MISS]
            best = max(best, value)
        return best

    states = game.states()
    return clue(0, (), (), 0, game.prior, {s: 1.0 / len(states) for s in states})


def exploitability(solution: Solution) -> float:
    """How far the solution is from an equilibrium: what the guesser gains over its guaranteed
    value by its best reply to the clue-giver, plus what the clue-giver gains over the value
    by its best reply to the guesser (zero at an equilibrium)."""
    states = solution.game.states()
    guaranteed = sum(best_reply_to_guesser(solution, s) for s in states) / len(states)
    return (best_reply_to_giver(solution) - solution.value) + (solution.value - guaranteed)


def solve_matrix(a) -> tuple[float, np.ndarray, np.ndarray]:
    """A matrix game's value and equilibrium strategies (the row player maximises ``a``):
    the row's by a linear program, the column's from its duals."""
    a = np.asarray(a, float)
    m, n = a.shape
    # variables: row strategy p (m), value v; maximise v s.t. v <= p . a[:, j] for every column j
    c = np.zeros(m + 1)
    c[-1] = -1.0
    a_ub = np.hstack([-a.T, np.ones((n, 1))])
    a_eq = np.hstack([np.ones((1, m)), np.zeros((1, 1))])
    result = linprog(c, A_ub=a_ub, b_ub=np.zeros(n), A_eq=a_eq, b_eq=[1.0],
                     bounds=[(0, None)] * m + [(None, None)], method="highs")
    p = np.clip(result.x[:m], 0, None)
    q = np.clip(-result.ineqlin.marginals, 0, None)
    return -float(result.fun), p / p.sum(), q / q.sum()


def game_payoff(first_found: int | None) -> tuple[float, float, float, float]:
    """The second guesser's share of the game by the guess that finds the card (a win 1, a tie
    1/2, a loss 0, against the first team's count `first_found`) or a miss."""
    if first_found is None:
        return (1.0, 1.0, 1.0, 0.5)
    return tuple(1.0 if k + 1 < first_found else 0.5 if k + 1 == first_found else 0.0
                 for k in range(GUESSES)) + (0.0,)


#: The second phase's cases: the first team's count (None: it missed).
FIRST_COUNTS = (1, 2, 3, None)


class Equilibria:
    """The equilibria of one rules' phases (the guesser knowing every fact, s any state), by
    clue order, each order's solved on its first need and kept (a few seconds for BBB, a tenth
    of one for the others).

    ``objective="game"``: the second phase pays the second guesser its share of the game
    (`game_payoff`, by the first team's count), and the first phase pays the first guesser
    what finding at each count is worth in the game: one minus the second phase's value after
    it (both teams play the equilibrium). ``objective="guesses"``: minus the guesses, a miss
    `miss`, in both phases (the second as long as the first team's count)."""

    def __init__(self, four_corners: bool, water: bool, objective: str = "game", miss: int = 4):
        self.nbr = facts.neighbours(four_corners, water)
        self.objective, self.miss = objective, miss
        self.solved: dict = {}

    def solution(self, order: str, phase: int, first_found: int | None) -> Solution:
        """The equilibrium of phase `phase` (0, 1) under `order`; in the second phase, after the
        first team found the card at guess `first_found` (None: it missed)."""
        got = self.solved.get(order)
        if got is None:
            got = self.solved[order] = self._solve(order)
        return got[(0, None) if phase == 0 else (1, first_found)]

    def _solve(self, order: str) -> dict:
        out = {}
        for first in FIRST_COUNTS:
            limit = GUESSES if first is None else first
            payoff = game_payoff(first) if self.objective == "game" else self._guesses()
            out[(1, first)] = solve(PhaseGame(facts.ALL, order, limit, payoff, self.nbr))
        if self.objective == "game":
            payoff = tuple(1.0 - out[(1, first)].value for first in FIRST_COUNTS)
        else:
            payoff = self._guesses()
        out[(0, None)] = solve(PhaseGame(facts.ALL, order, GUESSES, payoff, self.nbr))
        return out

    def _guesses(self) -> tuple[float, float, float, float]:
        return (-1.0, -2.0, -3.0, -float(self.miss))
