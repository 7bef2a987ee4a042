"""Perfect-information Monte Carlo for Play the Ranks: sample what is hidden, solve, average.

At each decision the seat deals the opponent's unseen cards at random (consistent with
everything it has observed: its own hand and discards, public discards, every card played,
and, under Level 2, that the face-down lead is one of the leader's cards), asks the oracle
for the exact best-play outcome of every legal action on each layout, and plays the action
with the best average (win 1, tie 0.5, loss 0). Only the sampled layouts are ever shown to
the solver, so the seat is a fair player: it never reads hidden cards.

Inference: layouts are weighted by how well they explain the opponent's play so far (a
soft model: players lead extreme cards and win tricks cheaply when they can), see
`play_log_likelihood`; ``infer=0`` samples uniformly. With ``infer_model`` (``learned``: the
model shipped for the rules, or a path from `geolab train ranks`) the weights also (or, with
``infer=0``, only) count the log-probability of the opponent's observed leads and answers
under that learned policy at ``infer_temperature`` (policy-based inference, Rebstock et al.
2019: `geolab.bots.ranks.policy_inference`).

Known weakness (the reason for `geolab.bots.ranks.ismcts`): each layout is solved as if the seat
would later know the opponent's cards ("strategy fusion"), and the opponent is assumed to
play perfectly against the true layout.

Cost control: `k` layouts at most; sampling stops early once `budget_ms` is spent, and never
starts a batch expected to pass `cap_ms`. Each batch also gets a work limit inside the solver
worth the time left before `cap_ms` (at the rate this seat has measured), so one hard layout
cannot overrun the cap: a layout the limit cuts short is dropped from the average. Times are
the deciding thread's CPU time, so other processes on a busy machine do not starve the search
(wall time can then be longer). With a time budget the number of layouts depends on machine
speed; pass ``budget_ms=None`` (no clock, no work limit: every decision solves its `k` layouts
in full) for runs that must repeat exactly. Randomness comes
from a hash of the seed and the visible state, so a decision never depends on hidden cards
nor on which other games share a batch.
"""

from __future__ import annotations

import hashlib
import time
from itertools import combinations

import numpy as np

from geolab.bots.ranks.seats import GreedySeat, uselessness
from geolab.cards import RANKS, STATEHOOD
from geolab.errors import GeolabError
from geolab.games.ranks.reference import Lead, View
from geolab.games.ranks.solver.double_dummy import CUT_SHORT, OracleSolver

WORK_PER_MS = 1000  # first guess of solver work per CPU ms (slow on purpose); then measured
WORK_SAFETY = 0.7  # a batch's work limit is this share of the time left at the measured rate


def unseen_cards(view: View) -> np.ndarray:
    """Cards of the deck the seat cannot place: not in its hand or discards, not public, not
    played."""
    known = set(view.hand) | set(view.discards) | set(view.opponent_discards or ())
    for trick in view.history:
        known.update((trick.lead, trick.follow))
    if view.lead_card is not None:
        known.add(view.lead_card)
    return np.array(sorted(set(range(view.rules.deck)) - known), np.int64)


def visible_key(view: View) -> int:
    """A hash of what the seat can see (never of hidden cards), to seed its sampling.

    A digest of the parts' text rather than `hash()`, which Python salts per process for
    strings: the same decision must get the same seed in every run."""
    history = tuple((t.leader, t.lead, t.category, t.base, t.follow) for t in view.history)
    parts = (view.rules.name, view.side, view.hand, view.discards, view.opponent_discards, view.first_lead,
             view.declarations, view.power_bases, history, view.lead_category, view.lead_base, view.lead_card)
    return int.from_bytes(hashlib.blake2b(repr(parts).encode(), digest_size=8).digest(), "little")


def undominated_leads(view: View, unseen: np.ndarray) -> np.ndarray:
    """(hand, 3, bases) mask of the leads worth scoring on every layout.

    A lead of card c is dominated by another lead of the same card when every unseen card
    that beats the second also beats the first: after either, the same cards remain, and each
    answer does at least as well against the first. So the first is never better anywhere.
    """
    bases = view.allowed_bases()
    follow_ties = view.rules.equal_distance == "follow"
    hand = view.hand
    keep = np.zeros((len(hand), 3, len(bases)), np.bool_)
    for i, c in enumerate(hand):
        sets = {}
        for bj, b in enumerate(bases):
            for k in range(3):
                mine = abs(int(RANKS[c, k]) - b)
                theirs = np.abs(RANKS[unseen, k].astype(np.int64) - b)
                beaten_by = frozenset(unseen[(theirs < mine) | ((theirs == mine) & follow_ties)].tolist())
                sets[(k, bj)] = beaten_by
        for (k, bj), mine in sets.items():
            dominated = any(other < mine or (other == mine and (k2, b2) < (k, bj))
                            for (k2, b2), other in sets.items() if (k2, b2) != (k, bj))
            keep[i, k, bj] = not dominated
    return keep


def play_log_likelihood(view: View, held_now: np.ndarray, beta: float) -> np.ndarray:
    """Log-weight of each sampled opponent hand (rows of `held_now`) given its past play.

    The model is generic and soft: a player tends to lead its most extreme card for the
    base, and to win a trick when it can, as cheaply as it can. Each past decision of the
    opponent costs `beta` for every better option that the layout says it passed over (a
    lead nearer the base; a win it declined; a cheaper winning card). Only public play is
    read: the opponent's cards then = the sampled cards now + the cards it played since.
    """
    opp = 1 - view.side
    rules = view.rules
    follow_ties = rules.equal_distance == "follow"
    logw = np.zeros(len(held_now))
    later: list[int] = []
    for leader, lead, k, b, follow, j in reversed(view.plays()):
        played = lead if leader == opp else follow
        then = np.concatenate([held_now, np.tile(np.array(later + [played], np.int64), (len(held_now), 1))], axis=1)
        ranks = RANKS[then].astype(np.int64)  # (M, cards, 3)
        if leader == opp:
            d_led = abs(int(RANKS[lead, k]) - b)
            better = sum((np.abs(ranks - base) < d_led).sum(axis=(1, 2))
                         for base in set(rules.allowed_bases(j, view.power_bases)))
            logw -= beta * better
        else:
            d_lead = abs(int(RANKS[lead, k]) - b)
            dist = np.abs(ranks[:, :, k] - b)
            wins = (dist < d_lead) | ((dist == d_lead) & follow_ties)
            d_f = abs(int(RANKS[follow, k]) - b)
            if d_f < d_lead or (d_f == d_lead and follow_ties):
                logw -= beta * (wins & (dist > d_f)).sum(axis=1)
            else:
                logw -= beta * wins.any(axis=1)
        later.append(played)
    return logw


def _score(outcome: np.ndarray) -> np.ndarray:
    """Win 1, tie 0.5, loss 0 from outcome levels 1 / 0 / -1."""
    return (outcome + 1) / 2


class MonteCarloSeat:
    """Perfect-information Monte Carlo search over sampled layouts, scored by the oracle.

    k: layouts at most per decision; budget_ms: stop sampling once this is spent (None: always
    k); cap_ms: never start a batch expected to end past this; candidates: discard options
    examined (the least useful cards of the hand); infer: weight of the hand-written play
    likelihood; oversample: layouts drawn per layout kept by inference; infer_model: a learned
    policy whose likelihood of the opponent's play also weights the layouts (None: none;
    ``learned``: the shipped model); infer_temperature: its softmax temperature; seed: for the
    sampling.
    """

    name = "montecarlo"

    def __init__(self, k: int = 48, budget_ms: float | None = 12.0, cap_ms: float = 30.0, candidates: int = 3,
                 infer: float = 1.5, oversample: int = 4, seed: int = 0, infer_model: str | None = None,
                 infer_temperature: float = 0.1):
        if k < 1 or candidates < 1 or oversample < 1 or infer_temperature <= 0:
            raise GeolabError("montecarlo: k, candidates and oversample must be at least 1, infer_temperature above 0")
        self.k, self.budget_ms, self.cap_ms = int(k), budget_ms, float(cap_ms)
        self.infer, self.oversample = float(infer), int(oversample)
        self.candidates, self.seed = int(candidates), int(seed)
        self.solver = OracleSolver()
        self.greedy = GreedySeat()
        self.work_per_ms = float(WORK_PER_MS)
        self.infer_policy, self.infer_temperature = None, float(infer_temperature)
        self._ranked = None  # this decision's ranked layouts: [count, layouts, next unused]
        if infer_model is not None:  # imported here: plain montecarlo needs no model code
            from geolab.bots.ranks.learned import LearnedPolicy

            try:
                self.infer_policy = LearnedPolicy(None if infer_model == "learned" else infer_model)
            except GeolabError as error:  # the parameter named: the bot has several
                raise GeolabError(f"montecarlo: infer_model: {error}") from None

    def _rng(self, view: View) -> np.random.Generator:
        """The decision's generator; called once at the start of every decision, which also
        drops the previous decision's ranked layouts (`_ranked`)."""
        self._ranked = None
        return np.random.default_rng([self.seed & 0xFFFF_FFFF, visible_key(view)])

    # ----- sampling and budgets -----------------------------------------------------------
    @staticmethod
    def _deal(rng: np.random.Generator, unseen: np.ndarray, count: int, layouts: int) -> np.ndarray:
        """`layouts` random sets of `count` cards from `unseen`, each sorted."""
        picks = np.argsort(rng.random((layouts, len(unseen))), axis=1)[:, :count]
        return np.sort(unseen[picks], axis=1)

    def _deal_inferred(self, rng, view: View, unseen: np.ndarray, count: int, layouts: int) -> np.ndarray:
        """Opponent hands weighted by how well they explain its play so far: draw
        `oversample` times as many uniform layouts and keep `layouts` of them by weighted
        sampling without replacement (Gumbel top-k)."""
        if self.infer <= 0 and self.infer_policy is None or not view.history and view.lead_card is None:
            return self._deal(rng, unseen, count, layouts)
        if self.infer_policy is not None:
            return self._next_ranked(rng, view, unseen, count, layouts)
        pool = self._deal(rng, unseen, count, layouts * self.oversample)
        keys = self.log_weights(view, pool) + rng.gumbel(size=len(pool))
        return pool[np.argsort(-keys)[:layouts]]

    def _next_ranked(self, rng, view: View, unseen: np.ndarray, count: int, layouts: int) -> np.ndarray:
        """The next `layouts` of the decision's ranked layouts. The learned policy costs a fixed
        time per past decision whatever the number of layouts, so the decision's layouts are
        drawn (`k` x `oversample`) and weighted once, ranked by Gumbel top-k, and handed out
        batch after batch in that order (sampling without replacement); a new pool is drawn
        only if they run out."""
        if self._ranked is None or self._ranked[0] != count or self._ranked[2] + layouts > len(self._ranked[1]):
            pool = self._deal(rng, unseen, count, max(self.k, layouts) * self.oversample)
            keys = self.log_weights(view, pool) + rng.gumbel(size=len(pool))
            self._ranked = [count, pool[np.argsort(-keys)], 0]
        start = self._ranked[2]
        self._ranked[2] += layouts
        return self._ranked[1][start: start + layouts]

    def log_weights(self, view: View, pool: np.ndarray) -> np.ndarray:
        """Log-weight of each sampled opponent hand (rows of `pool`): the hand-written play
        likelihood at `infer`, plus the learned policy's likelihood when `infer_model` is set."""
        logw = play_log_likelihood(view, pool, self.infer) if self.infer > 0 else np.zeros(len(pool))
        if self.infer_policy is not None:
            from geolab.bots.ranks.policy_inference import policy_log_likelihood

            logw += policy_log_likelihood(view, pool, self.infer_policy, self.infer_temperature)
        return logw

    def _limits(self, kind: str) -> tuple[int, float | None]:
        """Layouts at most and CPU budget (ms) for a decision of `kind` ("lead", "follow",
        "discard", "declare"): `k` and `budget_ms` for every kind here; a subclass may spend
        differently where the decisions are lost (`FocusSeat`)."""
        return self.k, self.budget_ms

    def _sampled(self, rng, evaluate, start: float, kind: str) -> np.ndarray | None:
        """Run `evaluate(rng, layouts, work_limit)` in batches until k layouts, the budget or the
        cap (`start`: the decision's thread time; k and the budget are `_limits(kind)`).
        `evaluate` returns (scores, solved), `solved` False for the layouts its work limit cut short.

        Returns the scores of the solved layouts stacked on the first axis (None if none was).
        A subclass may start with more than one layout (`first`), cap the batches (`step`) and
        stop once `_settled` says the layouts so far have decided the move; here none applies.
        """
        k, budget_ms = self._limits(kind)
        done, batch, parts = 0, self.first, []
        while done < k:
            batch = min(batch, k - done, self.step or k)
            if budget_ms is None:
                scores, solved = evaluate(rng, batch, None)
            else:
                left = self.cap_ms - (time.thread_time() - start) * 1000
                if left <= 0:
                    break
                t, work = time.thread_time(), self.solver.work_done
                scores, solved = evaluate(rng, batch, int(left * self.work_per_ms * WORK_SAFETY))
                ms, work = (time.thread_time() - t) * 1000, self.solver.work_done - work
                if work >= 1000 and ms > 0:  # the rate of this machine, now
                    self.work_per_ms = 0.5 * self.work_per_ms + 0.5 * work / ms
            parts.append(scores[solved])
            done += batch
            if not solved.all():  # the work limit ran out: so has the time
                break
            if self._settled(parts):
                break
            spent = (time.thread_time() - start) * 1000
            if budget_ms is None:
                batch = k
                continue
            per = spent / done
            if spent >= budget_ms or spent + per > self.cap_ms:
                break
            batch = max(1, int(min(budget_ms - spent, self.cap_ms - spent) / per))
        return np.concatenate(parts) if sum(len(p) for p in parts) else None

    #: layouts in the first batch (one: it measures the time a layout takes, cheaply)
    first: int = 1
    #: layouts a batch at most (None: as many as the budget allows)
    step: int | None = None

    def _settled(self, parts: list[np.ndarray]) -> bool:
        """Whether the layouts solved so far (`parts`: each batch's scores) decide the move,
        so sampling may stop before `k`: never, here (`SequentialSeat` asks)."""
        return False

    @staticmethod
    def _pick(means: np.ndarray, moves: list, fallback):
        """The best-scoring move; among equals, the fallback (a greedy move) if it is one."""
        best = means.max()
        good = [m for m, v in zip(moves, means) if v >= best - 1e-12]
        return fallback if fallback in good else good[0]

    #: fresh layouts on which moves tied at the best score are told apart by the points they
    #: force (0: no tie-break, the fallback or the first move; `FocusSeat` sets it)
    tie_k: int = 0
    #: moves this close to the best win share count as tied (0: only equals)
    tie_within: float = 0.0

    def _choose(self, rng, means: np.ndarray, moves: list, fallback, margins, start: float, kind: str):
        """`_pick`, except that several moves tied at the best win share (often: all win, or
        all lose, on every layout) are told apart, when `tie_k` > 0, by the mean points each
        forces on `tie_k` fresh layouts (`margins(rng, tied, layouts, work)`: one row a layout,
        CUT_SHORT where the work limit ran out): a wider margin survives more of the layouts
        not sampled, and leaves an imperfect opponent more ways to go wrong."""
        tied = np.flatnonzero(means >= means.max() - 1e-12 - self.tie_within)
        if self.tie_k and len(tied) > 1:
            work = None
            if self._limits(kind)[1] is not None:
                left = self.cap_ms - (time.thread_time() - start) * 1000
                work = int(max(left, 0) * self.work_per_ms * WORK_SAFETY)
            values = margins(rng, tied, self.tie_k, work)
            values = values[~(values == CUT_SHORT).any(axis=1)]
            if len(values):
                return self._pick(values.mean(axis=0), [moves[i] for i in tied], fallback)
        return self._pick(means, moves, fallback)

    # ----- decisions ----------------------------------------------------------------------
    def lead(self, view: View) -> Lead:
        start = time.thread_time()
        rules, hand = view.rules, view.hand
        n = len(hand)
        unseen = unseen_cards(view)
        bases = view.allowed_bases()
        greedy = self.greedy.lead(view)
        fallback = Lead(greedy.card, greedy.category, greedy.base or bases[0])
        wanted = undominated_leads(view, unseen)

        def evaluate(rng, layouts, work):
            opp = self._deal_inferred(rng, view, unseen, n, layouts)
            out = self.solver.layout_scores(rules, view.side, hand, opp, view.side, view.tricks_won,
                                            view.power_bases, wanted=wanted, budget=work)
            return out, ~(out == CUT_SHORT).any(axis=(1, 2, 3))

        def margins(rng, tied, layouts, work):
            mask = np.zeros(wanted.size, np.bool_)
            mask[tied] = True
            opp = self._deal_inferred(rng, view, unseen, n, layouts)
            out = self.solver.layout_scores(rules, view.side, hand, opp, view.side, view.tricks_won, view.power_bases,
                                            wanted=mask.reshape(wanted.shape), budget=work, exact=True)
            return out[:, :, :, : len(bases)].reshape(layouts, -1)[:, tied]

        rng = self._rng(view)
        scores = self._sampled(rng, evaluate, start, "lead")
        if scores is None:
            return fallback
        means = np.where(wanted, _score(scores[:, :, :, : len(bases)]).mean(axis=0), -1.0).reshape(-1)
        moves = [Lead(c, k, b) for c in hand for k in range(3) for b in bases]
        return self._choose(rng, means, moves, fallback, margins, start, "lead")

    def follow(self, view: View) -> int:
        start = time.thread_time()
        rules, hand = view.rules, view.hand
        n = len(hand)
        unseen = unseen_cards(view)
        leader = 1 - view.side
        lead = Lead(view.lead_card if view.lead_card is not None else -1, view.lead_category, view.lead_base)
        fallback = self.greedy.follow(view)

        def deal(rng, layouts):
            """The leader's hands, each holding the lead, and the lead's slot in each."""
            if view.lead_card is not None:  # the leader's other n - 1 cards, then the lead
                rest = self._deal_inferred(rng, view, unseen, n - 1, layouts)
                opp = np.concatenate([rest, np.full((layouts, 1), view.lead_card)], axis=1)
                return opp, np.full(layouts, n - 1)
            # face-down lead: one of the leader's n cards, likelier the nearer the base
            opp = self._deal_inferred(rng, view, unseen, n, layouts)
            dist = np.abs(RANKS[opp, view.lead_category].astype(np.int64) - view.lead_base)
            keys = -self.infer * dist + rng.gumbel(size=dist.shape) if self.infer > 0 else rng.random(dist.shape)
            return opp, np.argmax(keys, axis=1)

        def evaluate(rng, layouts, work):
            opp, slots = deal(rng, layouts)
            out = self.solver.layout_scores(rules, view.side, hand, opp, leader, view.tricks_won,
                                            view.power_bases, lead, slots, budget=work)
            return out, ~(out == CUT_SHORT).any(axis=1)

        def margins(rng, tied, layouts, work):
            opp, slots = deal(rng, layouts)
            out = self.solver.layout_scores(rules, view.side, hand, opp, leader, view.tricks_won,
                                            view.power_bases, lead, slots, budget=work, exact=True)
            return out[:, tied]

        rng = self._rng(view)
        scores = self._sampled(rng, evaluate, start, "follow")
        if scores is None:
            return int(fallback)
        return int(self._choose(rng, _score(scores).mean(axis=0), list(hand), fallback, margins, start, "follow"))

    def discard(self, view: View):
        start = time.thread_time()
        rules, hand = view.rules, list(view.hand)
        bases = rules.future_bases(0, view.power_bases)
        order = sorted(hand, key=lambda c: (-uselessness(c, bases), c))
        if rules.discards == 0:
            return []
        pool = order[: self.candidates + rules.discards - 1]
        options = [list(o) for o in combinations(pool, rules.discards)]
        if len(options) == 1:
            return options[0]
        unseen = unseen_cards(view)
        keeps = [tuple(c for c in hand if c not in o) for o in options]
        fallback = sorted(self.greedy.discard(view))

        def evaluate(rng, layouts, work):
            opp_full = self._deal(rng, unseen, rules.hand_size, layouts)
            # the opponent is modelled as discarding its least useful cards (the greedy rule)
            opp_keep = np.empty((layouts, rules.tricks), np.int64)
            opp_best_discard = np.empty(layouts, np.int64)
            for x, row in enumerate(opp_full):
                thrown = sorted(row.tolist(), key=lambda c: (-uselessness(c, bases), c))[: rules.discards]
                opp_keep[x] = [c for c in row if c not in thrown]
                opp_best_discard[x] = min(int(RANKS[c, STATEHOOD]) for c in thrown)
            out = np.empty((layouts, len(options)))
            solved = np.ones(layouts, np.bool_)
            for j, (option, keep) in enumerate(zip(options, keeps)):
                if rules.first_lead == "given":
                    leaders = np.full(layouts, view.first_lead)
                else:
                    mine = min(int(RANKS[c, STATEHOOD]) for c in option)
                    mine_first = mine < opp_best_discard
                    leaders = np.where(mine_first, view.side, 1 - view.side)
                mine_rows = np.broadcast_to(np.array(keep, np.int64), opp_keep.shape)
                a, b = (mine_rows, opp_keep) if view.side == 0 else (opp_keep, mine_rows)
                powers = None if view.power_bases is None else np.tile(view.power_bases, (layouts, 1))
                before = self.solver.work_done
                won = self.solver.winners(rules, a, b, leaders, powers, work)
                out[:, j] = np.where(won == view.side, 1.0, np.where(won == -1, 0.5, 0.0))
                solved &= won != CUT_SHORT
                if work is not None:  # the options share the batch's work limit
                    work = max(0, work - (self.solver.work_done - before))
            return out, solved

        scores = self._sampled(self._rng(view), evaluate, start, "discard")
        if scores is None:
            return fallback
        return self._pick(scores.mean(axis=0), options, fallback)

    def declare(self, view: View) -> bool:
        """Declare when the sampled chance of winning the deal is above one half (by the greedy
        rule if no layout could be solved in time)."""
        start = time.thread_time()
        rules, hand = view.rules, view.hand
        unseen = unseen_cards(view)

        def evaluate(rng, layouts, work):
            opp = self._deal(rng, unseen, rules.tricks, layouts)
            mine = np.broadcast_to(np.array(hand, np.int64), opp.shape)
            a, b = (mine, opp) if view.side == 0 else (opp, mine)
            powers = None if view.power_bases is None else np.tile(view.power_bases, (layouts, 1))
            won = self.solver.winners(rules, a, b, np.full(layouts, view.first_lead), powers, work)
            return np.where(won == view.side, 1.0, np.where(won == -1, 0.5, 0.0)), won != CUT_SHORT

        scores = self._sampled(self._rng(view), evaluate, start, "declare")
        return bool(self.greedy.declare(view)) if scores is None else bool(scores.mean() > 0.5)


def policy(**params):
    """The seat as a batched policy (`make_policy("montecarlo:k=32,budget_ms=14")`)."""
    from geolab.games.ranks.batch import SeatPolicy

    return SeatPolicy(MonteCarloSeat(**params))
