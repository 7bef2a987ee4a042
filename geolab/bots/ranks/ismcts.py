"""Information-set Monte Carlo tree search (SO-ISMCTS, Cowling, Powley & Whitehouse 2012).

A second search bot, to set against perfect-information Monte Carlo
(`geolab.bots.ranks.montecarlo`). PIMC solves every sampled layout as if the seat would then know
the opponent's cards, and averages ("strategy fusion"). ISMCTS instead grows one tree over
the seat's *information*: each iteration takes a layout of the unseen cards (sampled with
the Monte Carlo seat's opponent-play inference), walks the tree choosing only among the
moves legal in that layout (UCB1 with availability counts, so a move is judged by the
iterations in which it could have been played), adds one node, plays the deal out with the
greedy heuristic for both sides and backs the outcome up (win 1, tie 0.5, loss 0). A move's
statistics are thus shared across layouts, and the seat's later choices cannot depend on
the layout. The iterations run compiled (`geolab.bots.ranks.ismcts_kernel`).

Trick decisions only: discards and declarations are delegated to a Monte Carlo seat. What
the model simplifies under a face-down lead (Level 2): the opponent's nodes are keyed by the
seat's full move, so in the tree the opponent answers as if it saw the card; the opponent's
own face-down lead is chosen as (category, base) by the tree, its card being its nearest to
the base; and after such a trick the tree splits by who won it, not by the card revealed.

Time is the deciding thread's CPU time (as `MonteCarloSeat`), checked between slices of
iterations; ``budget_ms=None`` runs exactly `iterations`, so runs repeat exactly.
"""

from __future__ import annotations

import time
from functools import lru_cache

import numpy as np

from geolab.bots.ranks.montecarlo import MonteCarloSeat, undominated_leads, unseen_cards
from geolab.cards import RANKS
from geolab.errors import GeolabError
from geolab.games.ranks.reference import Lead, View
from geolab.games.ranks.rules import Rules


@lru_cache(maxsize=64)
def _trick_facts(rules: Rules, power_bases):
    """Per trick: the bases the lead may choose (padded), how many, and the bases still to
    come after it (a bitmask, as `ranks.batch.future_bases`)."""
    width = max(len(rules.allowed_bases(t, power_bases)) for t in range(rules.tricks))
    bases = np.zeros((rules.tricks, width), np.int64)
    count = np.zeros(rules.tricks, np.int64)
    later = np.zeros(rules.tricks, np.int64)
    for t in range(rules.tricks):
        allowed = rules.allowed_bases(t, power_bases)
        bases[t, : len(allowed)], count[t] = allowed, len(allowed)
        after = {b for u in range(t + 1, rules.tricks) for b in rules.allowed_bases(u, power_bases)}
        after = after or set(rules.allowed_bases(rules.tricks - 1, power_bases))
        later[t] = sum(1 << b for b in after)
    return bases, count, later


def deal_rules(rules: Rules, power_bases):
    """The rules of a deal as the search kernel reads them (`ismcts_kernel.Deal`)."""
    from geolab.bots.ranks.ismcts_kernel import Deal  # compiled on first use

    bases, n_bases, later = _trick_facts(rules, power_bases)
    end_at = rules.tricks + 1 if rules.end_at is None else rules.end_at
    return Deal(bases, n_bases, later, rules.tricks, end_at, rules.win_tricks, rules.last_trick_breaks_tie,
                int(rules.equal_distance == "follow"), rules.hidden_lead)


def _masks(cards: np.ndarray) -> np.ndarray:
    """Rows of cards as bitmasks."""
    return (np.int64(1) << cards.astype(np.int64)).sum(axis=1)


class ISMCTSSeat:
    """SO-ISMCTS for leads and answers; discards and declarations by a Monte Carlo seat.

    iterations: at most this many per decision; budget_ms: CPU time per decision (None: run
    all iterations, so runs repeat exactly); cap_ms: with a budget, never start a slice of
    iterations expected to end past this much CPU time (the deciding thread's, as
    `MonteCarloSeat`: on a busy machine wall time is longer); exploration: the UCB1 constant;
    layouts: sampled layouts per decision, used in turn; infer: opponent-play inference
    weight (as in `MonteCarloSeat`); seed: for the sampling.
    """

    name = "ismcts"

    def __init__(self, iterations: int = 100_000, budget_ms: float | None = 10.0, cap_ms: float = 40.0,
                 exploration: float = 0.7, layouts: int = 128, infer: float = 1.5, seed: int = 0):
        if iterations < 1 or layouts < 1:
            raise GeolabError("ismcts: iterations and layouts must be at least 1")
        if exploration < 0 or cap_ms <= 0 or (budget_ms is not None and budget_ms <= 0):
            raise GeolabError("ismcts: exploration cannot be negative, budget_ms and cap_ms must be positive")
        self.iterations, self.budget_ms, self.cap_ms = int(iterations), budget_ms, float(cap_ms)
        self.c, self.layouts, self.infer = float(exploration), int(layouts), float(infer)
        self.helper = MonteCarloSeat(k=16, budget_ms=budget_ms, infer=infer, seed=seed)
        self.log_table = np.log(np.maximum(np.arange(self.iterations + 2), 1))

    def discard(self, view: View):
        return self.helper.discard(view)

    def declare(self, view: View) -> bool:
        return self.helper.declare(view)

    def lead(self, view: View) -> Lead:
        bases = view.allowed_bases()
        nb = len(bases)
        code = self.search(view)[0]
        c, k, j = code // (3 * nb), (code // nb) % 3, code % nb
        return Lead(int(c), int(k), int(bases[j]))

    def follow(self, view: View) -> int:
        if len(view.hand) == 1:
            return view.hand[0]
        return int(self.search(view)[0])

    def _deal(self, rng, view: View, count: int):
        """(opponent hands as bitmasks, lead cards: -1 when the seat leads) per layout."""
        n = len(view.hand)
        unseen = unseen_cards(view)
        following, hidden = view.lead_category is not None, view.lead_card is None
        if not following:
            hands = self.helper._deal_inferred(rng, view, unseen, n, count)
            return _masks(hands), np.full(count, -1, np.int64)
        if not hidden:
            hands = self.helper._deal_inferred(rng, view, unseen, n - 1, count)
            return _masks(hands), np.full(count, view.lead_card, np.int64)
        # a face-down lead: one of the leader's n cards, likelier the nearer the base (as MonteCarloSeat)
        hands = self.helper._deal_inferred(rng, view, unseen, n, count)
        dist = np.abs(RANKS[hands, view.lead_category].astype(np.int64) - view.lead_base)
        keys = -self.infer * dist + rng.gumbel(size=dist.shape) if self.infer > 0 else rng.random(dist.shape)
        lead = hands[np.arange(count), np.argmax(keys, axis=1)]
        return _masks(hands) & ~(np.int64(1) << lead), lead

    def search(self, view: View):
        """Grow the tree for this decision; returns (the most visited root move's code, the
        tree's columns by name, cut to the nodes used, for tests and inspection)."""
        import geolab.bots.ranks.ismcts_kernel as kernel  # compiled on first use

        start = time.thread_time()
        rules, me = view.rules, view.side
        deal = deal_rules(rules, view.power_bases)
        following = view.lead_category is not None
        allowed = np.ones(1, np.bool_)  # the seat's root moves (codes): all answers; undominated leads
        if not following:
            keep = undominated_leads(view, unseen_cards(view))
            nb = deal.n_bases[view.trick]
            allowed = np.zeros(150 * nb, np.bool_)
            for i, c in enumerate(view.hand):
                allowed[c * 3 * nb : (c + 1) * 3 * nb] = keep[i].reshape(-1)
        rng = self.helper._rng(view)
        opp, lead_cards = self._deal(rng, view, min(self.layouts, self.iterations))
        won = view.tricks_won
        root = kernel.Root(me, int(_masks(np.array([view.hand]))[0]), opp, lead_cards, 1 - me if following else me,
                           view.lead_category if following else 0, view.lead_base if following else 0, view.trick,
                           won[0], won[1], view.history[-1].winner if view.history else -1, allowed,
                           int(allowed.sum()))  # fmt: skip
        tree = kernel.Tree(*(np.empty(self.iterations + 1, np.int32) for _ in kernel.TREE))
        for column, value in zip(tree, (-1, 1 - me, -1, -1, 0, 0, 0)):
            column[0] = value
        stats = np.array([1, 0], np.int64)
        work = kernel.Work(self.c, self.log_table, stats, np.array([rng.integers(0, 2**63)], np.uint64),
                           np.zeros(150 * deal.trick_bases.shape[1], np.int8), np.zeros(2 * rules.tricks + 2, np.int64))

        def run(count):
            kernel.search(count, root, deal, tree, work)

        if self.budget_ms is None:
            run(self.iterations)
        else:  # slices sized from the speed so far; stop at the budget or before the cap
            batch = 256
            while stats[kernel.DONE] < self.iterations:
                run(min(batch, self.iterations - int(stats[kernel.DONE])))
                cpu = (time.thread_time() - start) * 1000
                per = cpu / stats[kernel.DONE]
                if cpu >= self.budget_ms or cpu + per * 64 > self.cap_ms:
                    break
                batch = max(64, int(min(self.budget_ms - cpu, self.cap_ms - cpu) / per))
        tree = {name: values[: stats[kernel.NODES]] for name, values in tree._asdict().items()}
        children = []
        child = tree["first_child"][0]
        while child >= 0:
            children.append(child)
            child = tree["next_sibling"][child]
        # the most visited, then the best rewarded, then the lowest code
        best = max(children, key=lambda c: (tree["visits"][c], tree["reward"][c], -tree["move"][c]))
        tree["reward"] = tree["reward"] / 2
        return int(tree["move"][best]), tree


def policy(**params):
    """The seat as a batched policy (`make_policy("ismcts:budget_ms=10")`)."""
    from geolab.games.ranks.batch import SeatPolicy

    return SeatPolicy(ISMCTSSeat(**params))
