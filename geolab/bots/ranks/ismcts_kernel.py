"""The compiled iteration loop of `geolab.bots.ranks.ismcts`: SO-ISMCTS over flat arrays.

The tree lives in preallocated int32 arrays indexed by node (0 = the root): the move that
leads to the node, the side that made it, the first child and the next sibling (children form
a linked list), and the statistics (visits, availability, reward for the side that moved). Each
iteration takes the next of the pre-sampled layouts (opponent hand, and the lead card when
the seat answers a lead), walks down choosing by UCB1 with availability counts among the
moves legal in that layout, adds one node, plays the deal out with the greedy heuristic of
`geolab.bots.ranks.heuristics` for both sides and backs up the outcome (win 1, tie 0.5, loss 0).
Everything is iterative (numba's on-disk cache crashes on recursive functions here) and
`search` can be called again on the same arrays to continue, so the caller can stop between
slices when its time is spent.

Moves are ints: a lead is ``(card * 3 + category) * n_bases + base slot``; an answer is the
card. Under a face-down lead the opponent's lead is keyed by ``category * n_bases + slot``
only, so the seat's answer node is shared by every card it might hide; the card is then the
opponent's nearest to the base in that category.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from geolab.bots.ranks.heuristics import greedy_follow, greedy_lead, nearest
from geolab.cards import RANKS
from geolab.common.bits import lowest, popcount
from geolab.common.counter_rng import below_high, next64

_R = RANKS.astype(np.int64)

#: Fields of the `stats` array: the counts that carry over from one slice to the next.
NODES, DONE = 0, 1


class Deal(NamedTuple):
    """The rules of the deal as the search plays them: each trick's bases (trick_bases[t, :n_bases[t]])
    and the bases after it (`later`, a bitmask, for greedy's answers), when the deal ends
    (tricks, end_at; win_tricks, breaks_tie: who won it) and how a trick is decided (ties: the
    follower wins equal distances; hidden: leads are face-down)."""

    trick_bases: np.ndarray
    n_bases: np.ndarray
    later: np.ndarray
    tricks: int
    end_at: int
    win_tricks: int
    breaks_tie: bool
    ties: int
    hidden: bool


class Root(NamedTuple):
    """The decision searched: side `me` holds `hand` (a bitmask) against opp_hands[x] in layout
    x; side `leader` leads trick `trick` (lead_cards[x] < 0) or has led card lead_cards[x] in
    `category` at `base`; won0, won1, last: tricks won so far and the last trick's winner;
    allowed[code]: the seat's root leads, n_allowed of them (or its hand's size when it answers)."""

    me: int
    hand: int
    opp_hands: np.ndarray
    lead_cards: np.ndarray
    leader: int
    category: int
    base: int
    trick: int
    won0: int
    won1: int
    last: int
    allowed: np.ndarray
    n_allowed: int


class Tree(NamedTuple):
    """The tree, one int32 array a field, indexed by node (0 = the root): the move into the node
    and the side that made it, the first child and the next sibling (-1: none), visits,
    availability, and the reward of the side that moved in half-points (win 2, tie 1)."""

    move: np.ndarray
    mover: np.ndarray
    first_child: np.ndarray
    next_sibling: np.ndarray
    visits: np.ndarray
    avail: np.ndarray
    reward: np.ndarray


class Work(NamedTuple):
    """What one search carries between slices besides the tree: UCB1's exploration constant and
    log_table[a] = log(a) (a up to the iterations), `stats` (nodes used, iterations done),
    rng_word (the random stream's state), scratch (zeros, one per move code, left as zeros) and
    path (room for the deepest walk)."""

    exploration: float
    log_table: np.ndarray
    stats: np.ndarray
    rng_word: np.ndarray
    scratch: np.ndarray
    path: np.ndarray


#: The tree's columns by name (`Tree`'s fields): one array per field, not one row per node.
TREE = Tree._fields


@njit(cache=True, nogil=True)
def _winner(leader, a, f, k, b, ties):
    """The side that takes the trick (as `ranks.reference.trick_winner`)."""
    d_lead = abs(_R[a, k] - b)
    d_follow = abs(_R[f, k] - b)
    return 1 - leader if d_follow < d_lead or (d_follow == d_lead and ties) else leader


@njit(cache=True, nogil=True)
def _score0(w0, w1, last, win_tricks, breaks_tie):
    """Side 0's reward for a finished deal in half-points: 2 win, 1 tie, 0 loss (as `ranks.reference.outcome`)."""
    if w0 >= win_tricks:
        return 2
    if w1 >= win_tricks:
        return 0
    if w0 == w1 and breaks_tie and w0 + w1 > 0:
        return 2 if last == 0 else 0
    if w0 != w1:
        return 2 if w0 > w1 else 0
    return 1


@njit(cache=True, nogil=True)
def rollout(hand0, hand1, leader, lc, lk, lb, t, w0, w1, last, deal):
    """Side 0's reward (half-points) when both sides play the rest of the deal (`Deal`) greedily
    (`GreedySeat`) from trick t, side `leader` to lead (or, lc >= 0, having led lc in category lk
    at base lb)."""
    trick_bases, n_bases, later, tricks, end_at, win_tricks, breaks_tie, ties, hidden = deal
    while t < tricks and max(w0, w1) < end_at:
        if lc < 0:
            lc, lk, lb = greedy_lead(hand0 if leader == 0 else hand1, trick_bases[t, : n_bases[t]])
            if leader == 0:
                hand0 &= ~(1 << lc)
            else:
                hand1 &= ~(1 << lc)
        f = greedy_follow(hand1 if leader == 0 else hand0, lc, lk, lb, hidden, later[t], ties)
        if leader == 0:
            hand1 &= ~(1 << f)
        else:
            hand0 &= ~(1 << f)
        last = _winner(leader, lc, f, lk, lb, ties)
        w0 += last == 0
        w1 += last == 1
        leader, lc, t = last, -1, t + 1
    return _score0(w0, w1, last, win_tricks, breaks_tie)


@njit(cache=True, nogil=True)
def search(iterations, root, deal, tree, work):
    """Run `iterations` more iterations on the tree (`Tree`; node 0 must exist) for the decision
    `root` (`Root`) under the rules of `deal` (`Deal`); `work` (`Work`) carries the counts and
    the random stream from one call to the next."""
    me, my_hand, opp_hands, lead_cards, leader0, k0, b0, t0, won0, won1, last0, root_allowed, n_root = root
    trick_bases, n_bases, later, tricks, end_at, win_tricks, breaks_tie, ties, hidden = deal
    move, mover, first_child, next_sibling, visits, avail, reward = tree
    exploration, log_table, stats, rng_word, scratch, path = work
    n_layouts = opp_hands.shape[0]
    rng = rng_word[0]
    for _ in range(iterations):
        x = stats[DONE] % n_layouts
        stats[DONE] += 1
        hand0 = my_hand if me == 0 else opp_hands[x]
        hand1 = opp_hands[x] if me == 0 else my_hand
        leader, t, w0, w1, last = leader0, t0, won0, won1, last0
        lc, lk, lb = lead_cards[x], k0, b0
        node, depth = 0, 0
        # selection and expansion, on the moves legal in this layout
        while t < tricks and max(w0, w1) < end_at:
            side = leader if lc < 0 else 1 - leader
            hand = hand0 if side == 0 else hand1
            nb = n_bases[t]
            blind = lc < 0 and hidden and side != me  # the opponent's face-down lead: (category, slot)
            if blind:
                legal = 3 * nb
            elif lc >= 0:
                legal = popcount(hand)
            else:
                legal = n_root if node == 0 else popcount(hand) * 3 * nb
            found, best, top = 0, -1, -1.0
            child = first_child[node]
            while child >= 0:  # the children legal here count one more availability; UCB1 on them
                m = move[child]
                if mover[child] != side:  # under a face-down lead the hidden card decides who moves next
                    ok = False
                elif node == 0 or blind:
                    ok = True
                elif lc < 0:
                    ok = (hand >> (m // (3 * nb))) & 1 == 1
                else:
                    ok = (hand >> m) & 1 == 1
                if ok:
                    a = avail[child] + 1
                    avail[child] = a
                    found += 1
                    inv = 1.0 / visits[child]
                    u = 0.5 * reward[child] * inv + exploration * np.sqrt(log_table[a] * inv)
                    if u > top:
                        best, top = child, u
                child = next_sibling[child]
            untried = legal - found
            if untried:  # expand a legal move without a child, uniformly at random
                child = first_child[node]
                while child >= 0:
                    scratch[move[child]] = mover[child] == side
                    child = next_sibling[child]
                rng = next64(rng)
                pick = below_high(rng, untried)
                chosen = -1
                if blind:
                    for m in range(3 * nb):
                        if not scratch[m]:
                            if pick == 0:
                                chosen = m
                            pick -= 1
                elif lc < 0:
                    h = hand
                    while h:
                        c = lowest(h)
                        h &= h - 1
                        for m in range(c * 3 * nb, (c + 1) * 3 * nb):
                            if not scratch[m] and (node != 0 or root_allowed[m]):
                                if pick == 0:
                                    chosen = m
                                pick -= 1
                else:
                    h = hand
                    while h:
                        c = lowest(h)
                        h &= h - 1
                        if not scratch[c]:
                            if pick == 0:
                                chosen = c
                            pick -= 1
                child = first_child[node]
                while child >= 0:  # leave scratch clean
                    scratch[move[child]] = 0
                    child = next_sibling[child]
                new = stats[NODES]
                stats[NODES] += 1
                move[new], mover[new], first_child[new] = chosen, side, -1
                next_sibling[new], first_child[node] = first_child[node], new
                visits[new], avail[new], reward[new] = 0, 1, 0
                best = new
            # play the move in this layout
            m = move[best]
            if lc < 0:
                if blind:
                    k, j = m // nb, m % nb
                    c = nearest(hand, k, trick_bases[t, j])
                else:
                    c, k, j = m // (3 * nb), (m // nb) % 3, m % nb
                lc, lk, lb = c, k, trick_bases[t, j]
            else:
                last = _winner(leader, lc, m, lk, lb, ties)
                w0 += last == 0
                w1 += last == 1
                leader, lc, t = last, -1, t + 1
                c = m
            if side == 0:
                hand0 &= ~(1 << c)
            else:
                hand1 &= ~(1 << c)
            node = best
            path[depth] = node
            depth += 1
            if untried:
                break
        r0 = rollout(hand0, hand1, leader, lc, lk, lb, t, w0, w1, last, deal)
        visits[0] += 1
        for d in range(depth):
            node = path[d]
            visits[node] += 1
            reward[node] += r0 if mover[node] == 0 else 2 - r0
    rng_word[0] = rng
