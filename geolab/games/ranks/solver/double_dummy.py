"""The oracle: exact Play the Ranks results under best play with BOTH hands visible.

"Double dummy", as bridge players say. Everything here peeks at the opponent's cards, which
is why the class is `OracleSolver`: it measures the best any player could do, explains
records (`geolab solve`), and evaluates the layouts a Monte Carlo bot samples; it is never a
fair player by itself.

Two questions are answered exactly:

* **winner**: each side maximises its chance to win, a tie (where the rules allow one) lying
  in between. Moves are scored by the winner they lead to.
* **tricks**: the most tricks each side can force if every trick is played out (the early
  stop at ``end_at`` never changes who wins, so the played-out count is the clean measure).

Under Level 2 the lead is played face-down; with perfect information that hides nothing, so
the oracle scores leads and answers as if the lead were visible. The compiled search lives in
`geolab.games.ranks.solver.dd_kernel`; this module turns rules and positions into its tables.
"""

from __future__ import annotations

import functools
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from geolab.cards import N_CARDS, RANKS
from geolab.errors import GeolabError
from geolab.games.ranks.reference import Lead, is_over
from geolab.games.ranks.rules import Rules
from geolab.games.ranks.solver import dd_kernel as K

MAX_CARDS = 10  # cards a side at the root: the table has 2^(2n+1) entries
CUT_SHORT = K.UNKNOWN_LEVEL  # a batch result the work limit (`budget`) left unknown
_RANKS = np.ascontiguousarray(RANKS, dtype=np.int64)


def _int64s(x) -> np.ndarray:
    """`x` as a C-contiguous, writable int64 array. A read-only view (`np.broadcast_to` of one
    hand over many layouts) is another numba type, so each batch kernel compiled once more
    for it (18 s of the ladder's first run); a copy of the hands costs microseconds."""
    a = np.ascontiguousarray(x, np.int64)
    return a if a.flags.writeable else a.copy()
OBJECTIVES = ("win", "tricks")


def trick_weights(rules: Rules, objective: str = "win") -> np.ndarray:
    """What each trick is worth to its winner.

    "win": 2 a trick, plus 1 for the last trick when it breaks ties, so the winner is the
    side with more than half the total. "tricks": 1 a trick.
    """
    if objective not in OBJECTIVES:
        raise GeolabError(f"unknown solver objective {objective!r} (known: {', '.join(OBJECTIVES)})")
    if objective == "tricks":
        return np.ones(rules.tricks, np.int64)
    w = np.full(rules.tricks, 2, np.int64)
    if rules.last_trick_breaks_tie:
        w[-1] += 1
    return w


def base_tables(rules: Rules, power_bases=None) -> tuple[np.ndarray, np.ndarray]:
    """(bases allowed at each trick as a (tricks, slots) array, number of slots per trick)."""
    if rules.base_mode == "power" and (power_bases is None or len(power_bases) != 2):
        raise GeolabError("these rules take their bases from two Power cards: give power_bases")
    allowed = [rules.allowed_bases(t, power_bases) for t in range(rules.tricks)]
    slots = max(len(a) for a in allowed)
    tb = np.zeros((rules.tricks, slots), np.int64)
    nb = np.zeros(rules.tricks, np.int64)
    for t, a in enumerate(allowed):
        tb[t, : len(a)] = a
        nb[t] = len(a)
    return tb, nb


def thresholds(rules: Rules, won_by_a: int, objective_weights: np.ndarray) -> tuple[int, int]:
    """Remaining value A needs (to win, not to lose), given the tricks A has already won.

    No trick already played can be the last one, so each counts 2 in the "win" weights.
    """
    total = int(objective_weights.sum())
    got = 2 * won_by_a
    return total // 2 + 1 - got, (total + 1) // 2 - got


@functools.lru_cache(maxsize=4096)
def _rule_arrays(rules: Rules, power_bases=None):
    """(win weights, bases (1, tricks, slots), slots (1, tricks), need to win, need not to lose
    from the start, all leads wanted): built once per rules, as in Python they cost about as
    much as a small search. Shared, so never written to."""
    w = trick_weights(rules, "win")
    need_win, need_draw = thresholds(rules, 0, w)
    if rules.base_mode == "power" and power_bases is None:  # the bases come with each deal
        return w, None, None, need_win, need_draw, np.ones((rules.tricks, 3, 1), np.bool_)
    tb, nb = base_tables(rules, power_bases)
    return w, tb[None], nb[None], need_win, need_draw, np.ones((rules.tricks, 3, tb.shape[1]), np.bool_)


# the winner (0 A, 1 B, -1 tie, CUT_SHORT) of each kernel outcome level, indexed by level - CUT_SHORT
_WINNER_OF_LEVEL = np.full(1 - K.UNKNOWN_LEVEL + 1, K.UNKNOWN_LEVEL, np.int64)
_WINNER_OF_LEVEL[[-1 - K.UNKNOWN_LEVEL, -K.UNKNOWN_LEVEL, 1 - K.UNKNOWN_LEVEL]] = (1, -1, 0)
PARALLEL_MIN = 4096  # unlimited batches at least this big are split over two threads


@dataclass(frozen=True)
class Position:
    """A point in a deal where a side must move, with every card visible.

    `hands`: the cards each side still holds (a lead on the table is not in its hand);
    `leader`: the side leading this trick; `lead`: the lead on the table when the other
    side is to answer, else None.
    """

    rules: Rules
    hands: tuple[tuple[int, ...], tuple[int, ...]]
    leader: int
    tricks_won: tuple[int, int] = (0, 0)
    power_bases: tuple[int, int] | None = None
    lead: Lead | None = None

    @property
    def trick(self) -> int:
        return self.rules.tricks - len(self.hands[1 - self.leader])

    @property
    def mover(self) -> int:
        return self.leader if self.lead is None else 1 - self.leader

    def check(self) -> Position:
        """Raise `GeolabError` unless this is a legal position with play still to come."""
        a, b = self.hands
        on_table = () if self.lead is None else (self.lead.card,)
        held = list(a) + list(b) + list(on_table)
        if len(set(held)) != len(held) or not all(0 <= c < N_CARDS for c in held):
            raise GeolabError("position: every card must be a distinct card number 0..49")
        sizes = [len(a), len(b)]
        if self.lead is not None:
            sizes[self.leader] += 1
        if sizes[0] != sizes[1] or sizes[0] == 0:
            raise GeolabError(f"position: the sides hold {sizes[0]} and {sizes[1]} cards; play needs equal, non-zero "
                              "hands")
        if sizes[0] > MAX_CARDS:
            raise GeolabError(f"position: the solver handles at most {MAX_CARDS} cards a side, got {sizes[0]}")
        if self.trick < 0:
            raise GeolabError(f"position: {sizes[0]} cards a side, but the rules play {self.rules.tricks} tricks")
        played = self.trick
        if sum(self.tricks_won) != played:
            raise GeolabError(f"position: tricks won {self.tricks_won} do not add up to the {played} played")
        if is_over(self.rules, [0] * self.tricks_won[0] + [1] * self.tricks_won[1]):
            raise GeolabError("position: the deal is already over")
        if self.lead is not None:
            allowed = self.rules.allowed_bases(self.trick, self.power_bases)
            if self.lead.category not in (0, 1, 2) or self.lead.base not in allowed:
                raise GeolabError(f"position: lead {self.lead} is not legal at trick {self.trick + 1}")
        return self


@dataclass(frozen=True)
class MoveValue:
    """One legal move and what best play makes of it afterwards.

    `winner`: 0, 1 or None (tie) under best play after the move; `tricks`: the most tricks
    A and B can then force (played out), tricks already won included.
    """

    move: Lead | int
    winner: int | None
    tricks: tuple[int, int]


@dataclass(frozen=True)
class Solution:
    winner: int | None
    tricks: tuple[int, int]
    moves: tuple[MoveValue, ...]

    def best_for(self, side: int) -> tuple[MoveValue, ...]:
        """The moves that give `side` its best outcome."""
        best = max(rank_for(side, m.winner) for m in self.moves)
        return tuple(m for m in self.moves if rank_for(side, m.winner) == best)


def rank_for(side: int, winner: int | None) -> int:
    """2 if `side` wins, 1 for a tie, 0 if it loses: bigger is better for `side`."""
    return 1 if winner is None else (2 if winner == side else 0)


def _level_winner(level: int) -> int | None:
    return 0 if level > 0 else (1 if level < 0 else None)


class OracleSolver:
    """Exact best-play outcomes and move values, seeing both hands (an oracle: it peeks).

    >>> from geolab.games.ranks.rules import Rules
    >>> pos = Position(Rules.combo1(), ((0, 1, 2, 3, 4, 5, 6, 7), tuple(range(8, 16))), leader=0)
    >>> OracleSolver().winner(pos) in (0, 1)
    True
    """

    name = "oracle"

    # ----- one position -------------------------------------------------------------------
    def _context(self, pos: Position, objective: str):
        """Kernel context with the hands laid out as root hands (lead card back in hand)."""
        rules = pos.rules
        hands = [list(pos.hands[0]), list(pos.hands[1])]
        slot = None
        if pos.lead is not None:
            hands[pos.leader].append(pos.lead.card)
            slot = len(hands[pos.leader]) - 1
        w = trick_weights(rules, objective)
        tb, nb = base_tables(rules, pos.power_bases)
        ctx = K.build(
            np.array(hands[0], np.int64), np.array(hands[1], np.int64), rules.tricks, w, tb, nb,
            rules.equal_distance == "follow", _RANKS, np.array([K.NO_LIMIT], np.int64),
        )
        return ctx, hands, slot, w, tb, nb

    def winner(self, pos: Position) -> int | None:
        """The side that wins under best play (None: a tie)."""
        pos.check()
        if pos.lead is not None:
            return self.solve(pos).winner
        ctx, hands, _, w, _, _ = self._context(pos, "win")
        need_win, need_draw = thresholds(pos.rules, pos.tricks_won[0], w)
        full = (1 << len(hands[0])) - 1
        return _level_winner(K.level(ctx, full, full, pos.leader, -1, 0, 0, -1, need_win, need_draw))

    def tricks(self, pos: Position) -> tuple[int, int]:
        """The most tricks A and B can each force, every trick played out."""
        pos.check()
        ctx, hands, slot, _, tb, _ = self._context(pos, "tricks")
        full = (1 << len(hands[0])) - 1
        if pos.lead is None:
            a = pos.tricks_won[0] + K.exact(ctx, full, full, pos.leader, -1, 0, 0, -1)
        else:
            a = pos.tricks_won[0] + K.exact(ctx, full, full, pos.leader, slot, pos.lead.category,
                                            self._slot(tb, pos.trick, pos.lead.base), -1)
        return a, pos.rules.tricks - a

    def solve(self, pos: Position) -> Solution:
        """Winner, forced tricks, and every legal move of the side to move, valued exactly."""
        pos.check()
        rules = pos.rules
        win_ctx, hands, slot, w, tb, nb = self._context(pos, "win")
        trk_ctx = self._context(pos, "tricks")[0]
        need_win, need_draw = thresholds(rules, pos.tricks_won[0], w)
        full = (1 << len(hands[0])) - 1
        s, t = pos.leader, pos.trick
        moves = []

        def value(i, k, bj, j) -> tuple[int | None, tuple[int, int]]:
            won = _level_winner(K.level(win_ctx, full, full, s, i, k, bj, j, need_win, need_draw))
            a = pos.tricks_won[0] + K.exact(trk_ctx, full, full, s, i, k, bj, j)
            return won, (a, rules.tricks - a)

        if pos.lead is None:
            for i, c in enumerate(hands[s]):
                for bj in range(nb[t]):
                    for k in range(3):
                        moves.append(MoveValue(Lead(c, k, int(tb[t, bj])), *value(i, k, bj, -1)))
        else:
            k, bj = pos.lead.category, self._slot(tb, t, pos.lead.base)
            for j, c in enumerate(hands[1 - s]):
                moves.append(MoveValue(c, *value(slot, k, bj, j)))
        best = max(rank_for(pos.mover, m.winner) for m in moves)
        winner = next(m.winner for m in moves if rank_for(pos.mover, m.winner) == best)
        forced = max(m.tricks[pos.mover] for m in moves)
        tricks = (forced, rules.tricks - forced) if pos.mover == 0 else (rules.tricks - forced, forced)
        return Solution(winner, tricks, tuple(moves))

    @staticmethod
    def _slot(tb: np.ndarray, t: int, base: int) -> int:
        return int(np.flatnonzero(tb[t] == base)[0])

    # ----- batches ------------------------------------------------------------------------
    # `budget` (None: no limit) caps the work of one call: positions searched, spent deal after
    # deal (a few thousand a deal on average; rates: docs/perf.md, Solver). Results it does not cover read
    # CUT_SHORT, never a wrong value. `work_done` adds up the work of every batch call.
    work_done = 0

    def winners(self, rules: Rules, hands_a, hands_b, leaders, power_bases=None, budget=None) -> np.ndarray:
        """Best-play outcome of many deals from their first trick: 0 A, 1 B, -1 tie (CUT_SHORT
        where `budget` ran out).

        `hands_a`, `hands_b`: (N, tricks) card arrays after the discards; `leaders`: (N,) the
        first lead; `power_bases`: (N, 2) where the rules use Power cards.
        """
        levels, _ = self._many(K.solve_many, rules, hands_a, hands_b, leaders, power_bases, budget)
        return _WINNER_OF_LEVEL[levels - K.UNKNOWN_LEVEL]

    def lead_outcomes(self, rules: Rules, hands_a, hands_b, leaders, power_bases=None, budget=None) -> np.ndarray:
        """Every first-trick lead scored: (N, tricks, 3, base slots) of 1 / 0 / -1 for A
        (win / tie / loss under best play after it), -99 for a base slot that does not exist,
        CUT_SHORT where `budget` ran out. Card axis follows the order of the leader's hand row."""
        return self._many(K.score_leads_many, rules, hands_a, hands_b, leaders, power_bases, budget)

    def _work(self, budget) -> np.ndarray:
        if budget is not None and budget < 0:
            raise GeolabError(f"budget: expected a non-negative work limit, got {budget}")
        return np.array([K.NO_LIMIT if budget is None else int(budget)], np.int64)

    def _spent(self, work: np.ndarray, budget) -> None:
        self.work_done += int((K.NO_LIMIT if budget is None else int(budget)) - max(int(work[0]), 0))

    def layout_scores(self, rules: Rules, side: int, hand, opp_hands, leader: int, tricks_won, power_bases=None,
                      lead: Lead | None = None, lead_slots=None, wanted=None, budget=None,
                      exact: bool = False) -> np.ndarray:
        """Score the moves of `side` (holding `hand`) on many layouts of the opponent's cards.

        `opp_hands`: (K, n) the opponent's cards in each layout. To lead (`lead` None): returns
        (K, len(hand), 3, base slots) outcomes for `side` (1 win, 0 tie, -1 loss, -99 no such
        base slot). To answer `lead`: the leader's rows hold the lead card at `lead_slots[x]`,
        and the result is (K, len(hand)). `wanted` (len(hand), 3, base slots) limits the leads
        scored (the others read -99); CUT_SHORT where `budget` ran out. With `exact`, each move
        reads instead the points (trick weights, `trick_weights`) `side` can force in the rest
        of the deal, a finer and dearer value (a margin, not just win or lose). Used by sampling
        bots; the caller decides what it may know (this method sees whatever layouts it is given).
        """
        opp = np.ascontiguousarray(opp_hands, np.int64)
        mine = np.broadcast_to(np.asarray(hand, np.int64), opp.shape)
        ca, cb = (mine, opp) if side == 0 else (opp, mine)
        ca, cb = _int64s(ca), _int64s(cb)
        n_layouts = opp.shape[0]
        if rules.base_mode == "power" and (power_bases is None or len(power_bases) != 2):
            raise GeolabError("these rules take their bases from two Power cards: give power_bases")
        w, tb, nb, _, _, all_leads = _rule_arrays(rules, None if power_bases is None else tuple(power_bases))
        need_win, need_draw = thresholds(rules, tricks_won[0], w)
        common = (np.full(n_layouts, need_win, np.int64), np.full(n_layouts, need_draw, np.int64), rules.tricks, w,
                  tb, nb, rules.equal_distance == "follow", _RANKS, exact)
        leaders = np.full(n_layouts, leader, np.int64)
        work = self._work(budget)
        if lead is None:
            if wanted is None:
                wanted = all_leads if ca.shape[1] == rules.tricks else np.ones((ca.shape[1], 3, tb.shape[2]), np.bool_)
            out = K.score_leads_many(ca, cb, leaders, *common, np.ascontiguousarray(wanted, np.bool_), work)
        else:
            t = rules.tricks - ca.shape[1]
            slots = np.ascontiguousarray(lead_slots, np.int64)
            out = K.score_follows_many(ca, cb, leaders, slots, np.full(n_layouts, lead.category, np.int64),
                                       np.full(n_layouts, self._slot(tb[0], t, lead.base), np.int64), *common, work)
        self._spent(work, budget)
        if exact:  # points A forces: to `side`'s points, and the kernel's unknown to CUT_SHORT
            left = int(w[rules.tricks - ca.shape[1]:].sum())
            mine = out if side == 0 else left - out
            return np.where(out == -99, out, np.where(out == K.UNKNOWN, CUT_SHORT, mine))
        if side == 1:
            out = np.where((out == -99) | (out == CUT_SHORT), out, -out)
        return out

    def _many(self, kernel, rules, hands_a, hands_b, leaders, power_bases, budget):
        ca, cb = _int64s(hands_a), _int64s(hands_b)
        if ca.ndim != 2 or ca.shape != cb.shape or ca.shape[1] != rules.tricks:
            raise GeolabError(f"hands: expected two (N, {rules.tricks}) arrays of cards")
        if ca.shape[1] > MAX_CARDS:
            raise GeolabError(f"the solver handles at most {MAX_CARDS} cards a side")
        n = ca.shape[0]
        w, tb, nb, need_win, need_draw, wanted = _rule_arrays(rules)
        if rules.base_mode == "power":
            pb = np.asarray(power_bases)
            if pb.shape != (n, 2):
                raise GeolabError("power_bases: expected an (N, 2) array for these rules")
            tables = [_rule_arrays(rules, (int(a), int(b))) for a, b in pb.tolist()]
            tb = np.concatenate([t[1] for t in tables]) if n else np.zeros((0, rules.tricks, 1), np.int64)
            nb = np.concatenate([t[2] for t in tables]) if n else np.zeros((0, rules.tricks), np.int64)
        extra = (wanted,) if kernel is K.score_leads_many else ()
        leaders = np.ascontiguousarray(leaders, np.int64)
        follow_ties = rules.equal_distance == "follow"

        def run(lo, hi, work):
            y = slice(lo, hi) if tb.shape[0] > 1 else slice(None)
            return kernel(ca[lo:hi], cb[lo:hi], leaders[lo:hi], np.full(hi - lo, need_win, np.int64),
                          np.full(hi - lo, need_draw, np.int64), rules.tricks, w, tb[y], nb[y], follow_ties,
                          _RANKS, False, *extra, work)

        if budget is not None or n < PARALLEL_MIN:
            work = self._work(budget)
            out = run(0, n, work)
            self._spent(work, budget)
            return out
        # no shared budget to spend in order: each half runs in its own thread (the kernels
        # release the GIL), and every deal gets the same answer as in one call
        half = n // 2
        works = [self._work(None), self._work(None)]
        with ThreadPoolExecutor(2) as pool:
            parts = list(pool.map(run, (0, half), (half, n), works))
        for work in works:
            self._spent(work, None)
        if kernel is K.score_leads_many:
            return np.concatenate(parts)
        return tuple(np.concatenate([p[i] for p in parts]) for i in range(len(parts[0])))
