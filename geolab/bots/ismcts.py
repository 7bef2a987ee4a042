"""Information-set Monte Carlo tree search (SO-ISMCTS, Cowling, Powley & Whitehouse 2012).

A second search bot, to set against perfect-information Monte Carlo
(`geolab.bots.montecarlo`). PIMC solves every sampled layout as if the seat would then know
the opponent's cards, and averages ("strategy fusion"). ISMCTS instead grows one tree over
the seat's *information*: each iteration deals a fresh layout of the unseen cards (with the
same opponent-play inference as the Monte Carlo seat), walks the tree choosing only among the
moves legal in that layout (UCB1 with availability counts, so a move is judged by the
iterations in which it could have been played), adds one node, plays the deal out with a
fast greedy rollout and backs the result up. A move's statistics are thus shared across
layouts, and the seat's later choices cannot depend on the layout.

Trick decisions only: discards and declarations are delegated to a Monte Carlo seat.
Rollouts are plain Python, so with the default time budget a decision runs some hundreds of
iterations; `iterations` bounds the count and ``budget_ms=None`` makes runs repeat exactly.
"""

from __future__ import annotations

import math
import time

import numpy as np

from geolab.bots.montecarlo import MonteCarloSeat, undominated_leads, unseen_cards
from geolab.cards import RANKS
from geolab.errors import GeolabError
from geolab.games.ranks import Lead, Rules, View, is_over, outcome, trick_winner

_R = RANKS.astype(int).tolist()


class _Node:
    __slots__ = ("children", "visits", "avail", "reward")

    def __init__(self):
        self.children: dict = {}
        self.visits = 0
        self.avail = 0
        self.reward = 0.0


class _Deal:
    """One determinised deal in progress: both hands visible (a sampled layout)."""

    def __init__(self, rules: Rules, hands, leader, winners, power_bases, lead=None):
        self.rules, self.hands, self.leader = rules, [list(hands[0]), list(hands[1])], leader
        self.winners, self.power_bases, self.lead = list(winners), power_bases, lead

    def mover(self) -> int:
        return self.leader if self.lead is None else 1 - self.leader

    def moves(self) -> list:
        if self.lead is None:
            bases = self.rules.allowed_bases(len(self.winners), self.power_bases)
            return [Lead(c, k, b) for c in self.hands[self.leader] for k in range(3) for b in bases]
        return list(self.hands[1 - self.leader])

    def play(self, move) -> None:
        if self.lead is None:
            self.hands[self.leader].remove(move.card)
            self.lead = move
            return
        self.hands[1 - self.leader].remove(move)
        lead = self.lead
        winner = trick_winner(self.rules, self.leader, lead.card, move, lead.category, lead.base)
        self.winners.append(winner)
        self.leader, self.lead = winner, None

    def over(self) -> bool:
        return self.lead is None and is_over(self.rules, self.winners)

    def greedy_move(self):
        """Rollout policy: lead the rank nearest the base; answer with the cheapest winner,
        else throw the card farthest from every base."""
        if self.lead is None:
            bases = self.rules.allowed_bases(len(self.winners), self.power_bases)
            return min(((abs(_R[c][k] - b), c, k, b) for c in self.hands[self.leader] for k in range(3) for b in bases),
                       key=lambda x: x[:3])
        lead, me = self.lead, 1 - self.leader
        best, best_key = None, None
        for c in self.hands[me]:
            d = abs(_R[c][lead.category] - lead.base)
            wins = trick_winner(self.rules, self.leader, lead.card, c, lead.category, lead.base) == me
            key = (0, -d) if wins else (1, -min(min(abs(_R[c][k] - 1), abs(_R[c][k] - 50)) for k in range(3)))
            if best_key is None or key < best_key:
                best, best_key = c, key
        return best

    def rollout(self) -> int | None:
        while not self.over():
            m = self.greedy_move()
            self.play(Lead(m[1], m[2], m[3]) if isinstance(m, tuple) else m)
        return outcome(self.rules, self.winners)


class ISMCTSSeat:
    """SO-ISMCTS for leads and answers; discards and declarations by a Monte Carlo seat.

    iterations: at most this many per decision; budget_ms: CPU time per decision (None: run
    all iterations); exploration: the UCB1 constant; infer: opponent-play inference weight
    (as in `MonteCarloSeat`); seed: for the sampling.
    """

    name = "ismcts"

    def __init__(self, iterations: int = 2000, budget_ms: float | None = 10.0, exploration: float = 0.7,
                 infer: float = 1.5, seed: int = 0):
        if iterations < 1:
            raise GeolabError("ismcts: iterations must be at least 1")
        self.iterations, self.budget_ms, self.c = int(iterations), budget_ms, float(exploration)
        self.helper = MonteCarloSeat(k=16, budget_ms=budget_ms, infer=infer, seed=seed)

    def discard(self, view: View):
        return self.helper.discard(view)

    def declare(self, view: View) -> bool:
        return self.helper.declare(view)

    def lead(self, view: View) -> Lead:
        return self._search(view)

    def follow(self, view: View) -> int:
        return int(self._search(view))

    def _layouts(self, view: View, rng):
        """Endless determinisations: (opponent's cards now, the lead on the table or None)."""
        unseen = unseen_cards(view)
        n = len(view.hand)
        following = view.lead_category is not None
        hidden = following and view.lead_card is None
        count = n if (hidden or not following) else n - 1
        helper = self.helper
        while True:
            batch = helper._deal_inferred(rng, view, unseen, count, 16)
            for row in batch:
                opp = [int(c) for c in row]
                lead = None
                if following:
                    if hidden:
                        dist = [abs(_R[c][view.lead_category] - view.lead_base) for c in opp]
                        card = opp[int(np.argmin(np.array(dist) - rng.random(len(dist)) * 1e-3))]
                        opp.remove(card)
                    else:
                        card = view.lead_card
                    lead = Lead(card, view.lead_category, view.lead_base)
                yield opp, lead

    def _search(self, view: View):
        rng = self.helper._rng(view)
        me = view.side
        root = _Node()
        layouts = self._layouts(view, rng)
        start = time.thread_time()
        winners = [t.winner for t in view.history]
        root_moves = None  # at the root, leads dominated on every layout are left out
        if view.lead_category is None:
            keep = undominated_leads(view, unseen_cards(view))
            bases = view.allowed_bases()
            root_moves = [Lead(c, k, b) for i, c in enumerate(view.hand) for k in range(3)
                          for j, b in enumerate(bases) if keep[i, k, j]]
        for _ in range(self.iterations):
            opp, lead = next(layouts)
            hands = [None, None]
            hands[me], hands[1 - me] = list(view.hand), opp
            leader = me if lead is None else 1 - me
            deal = _Deal(view.rules, hands, leader, winners, view.power_bases, lead)
            path, node = [], root
            while not deal.over():  # selection among the moves legal in this layout
                legal = root_moves if node is root and root_moves is not None else deal.moves()
                for m in legal:
                    child = node.children.get(m)
                    if child is not None:
                        child.avail += 1
                untried = [m for m in legal if m not in node.children]
                mover = deal.mover()
                if untried:
                    m = untried[int(rng.integers(len(untried)))]
                    node.children[m] = child = _Node()
                    child.avail = 1
                    path.append((child, mover))
                    deal.play(m)
                    break
                m = max(legal, key=lambda x: self._ucb(node.children[x]))
                node = node.children[m]
                path.append((node, mover))
                deal.play(m)
            result = deal.rollout()
            for n, mover in path:
                n.visits += 1
                n.reward += 0.5 if result is None else float(result == mover)
            if self.budget_ms is not None and (time.thread_time() - start) * 1000 >= self.budget_ms:
                break
        best = max(root.children.items(), key=lambda kv: (kv[1].visits, kv[1].reward))
        return best[0]

    def _ucb(self, node: _Node) -> float:
        if node.visits == 0:
            return math.inf
        return node.reward / node.visits + self.c * math.sqrt(math.log(max(node.avail, 1)) / node.visits)


def policy(**params):
    """The seat as a batched policy (`make_policy("ismcts:iterations=500")`)."""
    from geolab.games.ranks_batch import SeatPolicy

    return SeatPolicy(ISMCTSSeat(**params))
