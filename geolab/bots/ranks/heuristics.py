"""Batched Play the Ranks policies: `act(obs, rng) -> actions` over an `Observation`.

The contract (what each decision kind returns, how illegal actions are reported) is in
`geolab.games.ranks.batch`. Built-in policies run numba kernels over the rows and take their
randomness from ``obs.noise``, so results do not depend on how the games are chunked.
`geolab.bots.ranks.registry` builds one by name (``name:key=value,...``).
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np
from numba import njit

from geolab.cards import N_CARDS, RANKS
from geolab.common.bits import lowest, popcount
from geolab.common.counter_rng import GOLDEN, below_high, next64
from geolab.errors import GeolabError
from geolab.game import BatchBot
from geolab.games.ranks.batch import (
    DIST,
    Leads,
    Observation,
    future_bases,
    kernel_rules,
    noise_of,
    noise_salt,
    over,
    settle,
    statehood_first,
    trick_base,
    uselessness,
)  # fmt: skip
from geolab.games.ranks.rules import Rules

_R = RANKS.astype(np.int64)


@lru_cache(maxsize=64)
def _rules(rules: Rules):
    return kernel_rules(rules)


def _power(obs: Observation) -> np.ndarray:
    return np.zeros((len(obs), 2), np.int8) if obs.power_bases is None else obs.power_bases


def _as_action(kind: int, out, out_cat, out_base):
    """A per-row kernel's outputs as the action of decision kind 0..3 (discard, declare,
    lead, follow): `out` holds the cards (or the declaration as 0/1) column by column."""
    if kind == 0:
        return out
    if kind == 1:
        return out[:, 0] == 1
    if kind == 2:
        return Leads(out[:, 0], out_cat, out_base)
    return out[:, 0]


class Policy(BatchBot):
    """Base class: `act` sends each decision kind to the method of that name."""

    name = "policy"
    thread_safe = True

    def act(self, obs: Observation, rng: np.random.Generator):
        return getattr(self, obs.kind)(obs, rng)

    @property
    def fused(self):
        """(play_fused, (code, concede)) when `play_fused` plays this policy, else None: only
        the built-in policies in `FUSED`, not subclasses, which may decide otherwise."""
        code = FUSED.get(type(self))
        return None if code is None else (play_fused, (code, getattr(self, "concede", 0)))

    def __repr__(self) -> str:
        return self.name


# ----- random ------------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def _nth(hand, j):
    """The j-th card (0-based, card order) of a hand."""
    for _ in range(j):
        hand &= hand - 1
    return lowest(hand)


@njit(cache=True, nogil=True)
def random_card(hand, noise):
    """A card of the hand, uniformly at random from the word noise."""
    return _nth(hand, below_high(noise, popcount(hand)))


@njit(cache=True, nogil=True)
def random_cards(hand, noise, out):
    """Distinct cards of the hand, uniformly at random from the word noise, into out."""
    for j in range(out.shape[0]):
        c = random_card(hand, noise)
        out[j] = c
        hand &= ~(1 << c)
        noise = next64(noise)


@njit(cache=True, nogil=True)
def random_declare(noise):
    """Declare on one bit of noise (a word or an array of them)."""
    return (noise & np.uint64(1)) == 1


@njit(cache=True, nogil=True)
def random_lead(hand, noise, bases):
    """(card, category, base): a random card, then fresh bits for the category and base."""
    spin = noise * GOLDEN
    category = np.int64((spin >> np.uint64(40)) % np.uint64(3))
    which = np.int64((spin >> np.uint64(20)) & np.uint64(0xFFFFF)) % bases.shape[0]
    return random_card(hand, noise), category, np.int64(bases[which])


@njit(cache=True, nogil=True)
def _random_cards(hand, noise, out):
    for i in range(hand.shape[0]):
        random_cards(hand[i], noise[i], out[i])


@njit(cache=True, nogil=True)
def _random_lead(hand, noise, bases, card, category, base):
    for i in range(hand.shape[0]):
        card[i], category[i], base[i] = random_lead(hand[i], noise[i], bases[i])


class RandomPolicy(Policy):
    """Uniformly random among the legal choices: the floor every other bot must beat, and a
    model of a player who ignores the ranks altogether.
    """

    name = "random"

    def _cards(self, obs: Observation, k: int) -> np.ndarray:
        out = np.empty((len(obs), k), np.int64)
        _random_cards(obs.hand, obs.noise, out)
        return out

    def discard(self, obs, rng):
        return self._cards(obs, obs.rules.discards)

    def declare(self, obs, rng):
        return random_declare(obs.noise)

    def lead(self, obs, rng):
        m = len(obs)
        card, category, base = np.empty(m, np.int64), np.empty(m, np.int64), np.empty(m, np.int64)
        _random_lead(obs.hand, obs.noise, obs.bases, card, category, base)
        return Leads(card, category, base)

    def follow(self, obs, rng):
        return self._cards(obs, 1)[:, 0]

    @staticmethod
    def probabilities(decision) -> dict:
        """Its choice at a reference decision as what it is, uniform over the legal actions
        (the exact best response reads it: `geolab.bots.ranks.behaviour`)."""
        return {a: 1 / len(decision.legal) for a in decision.legal}


# ----- greedy ------------------------------------------------------------------------------
# The greedy kernels rank candidates by one integer key (distance, then card, then category,
# then base index, packed into bit fields) so each comparison is a branch-free min or max.
#: NEAR_K[c, b]: the first category in which card c lies nearest base b.
NEAR_K = np.abs(_R[:, :, None] - np.arange(N_CARDS + 1)).argmin(axis=1)


@njit(cache=True, nogil=True)
def _least_useful(hand, mask):
    """Key of the least useful card (largest uselessness, then lowest card): card = 63 - key & 63."""
    best, h = 0, hand
    while h:
        c = lowest(h)
        h &= h - 1
        best = max(best, uselessness(c, mask) * 64 + 63 - c)
    return best


@njit(cache=True, nogil=True)
def greedy_discard(hand, mask, out):
    """The least useful cards for the bases in `mask`, into out (as many as it holds)."""
    for j in range(out.shape[0]):
        c = 63 - (_least_useful(hand, mask) & 63)
        out[j] = c
        hand &= ~(1 << c)


@njit(cache=True, nogil=True)
def greedy_declare(hand, mask, win_tricks):
    """Declare with `win_tricks` cards within 3 of a base in `mask`."""
    near = 0
    while hand:
        c = lowest(hand)
        hand &= hand - 1
        near += uselessness(c, mask) <= 3
    return near >= win_tricks


@njit(cache=True, nogil=True)
def lead_key(c, b, j):
    """A lead (card c at base slot j, base b) as one integer: smaller = nearer the base, then
    lower card; its low bits carry card, category and slot for `unpack_lead`."""
    return ((DIST[c, b] * 64 + c) * 4 + NEAR_K[c, b]) * 64 + j


@njit(cache=True, nogil=True)
def unpack_lead(key):
    """(card, category, base slot) of a lead key (of `lead_key` or any key with that tail)."""
    return (key >> 8) & 63, (key >> 6) & 3, key & 63


@njit(cache=True, nogil=True)
def greedy_lead(hand, bases):
    """(card, category, base): the card, category and base (one of `bases`) nearest."""
    best = 1 << 62
    while hand:
        c = lowest(hand)
        hand &= hand - 1
        for j in range(bases.shape[0]):
            b = bases[j]
            best = min(best, lead_key(c, b, j))
    c, k, j = unpack_lead(best)
    return c, k, bases[j]


@njit(cache=True, nogil=True)
def nearest(hand, k, b):
    """The card of the hand nearest base b in category k (the lowest card on ties)."""
    best = 1 << 62
    while hand:
        c = lowest(hand)
        hand &= hand - 1
        best = min(best, abs(_R[c, k] - b) * 64 + c)
    return best & 63


@njit(cache=True, nogil=True)
def greedy_follow(hand, lead, k, b, hidden, later, follow_wins_ties):
    """The answer to `lead` (unused when hidden) in category k at base b; `later`: the bases
    of the tricks after this one."""
    h = hand
    if hidden:  # the card nearest the base in the named category
        return nearest(hand, k, b)
    d_lead = abs(_R[lead, k] - b) + follow_wins_ties  # a card wins below this distance
    best = 0  # the winning card farthest from the base: the cheapest win
    while h:
        c = lowest(h)
        h &= h - 1
        d = abs(_R[c, k] - b)
        best = max(best, (d < d_lead) * ((d + 1) * 64 + 63 - c))
    if best == 0:  # no winner: throw the least useful card
        best = _least_useful(hand, later)
    return 63 - (best & 63)


@njit(cache=True, nogil=True)
def _greedy_discard(hand, power, mode, masks, split, out):
    for i in range(hand.shape[0]):
        greedy_discard(hand[i], future_bases(mode, masks, split, power[i, 0], power[i, 1], 0), out[i])


@njit(cache=True, nogil=True)
def _greedy_declare(hand, power, win_tricks, mode, masks, split, out):
    for i in range(hand.shape[0]):
        out[i] = greedy_declare(hand[i], future_bases(mode, masks, split, power[i, 0], power[i, 1], 0), win_tricks)


@njit(cache=True, nogil=True)
def greedy_lead_rows(hand, bases, card, category, base):
    for i in range(hand.shape[0]):
        card[i], category[i], base[i] = greedy_lead(hand[i], bases[i])


@njit(cache=True, nogil=True)
def _greedy_follow(hand, lead, cat, base, hidden, t, power, follow_wins_ties, mode, masks, split, out):  # fmt: skip
    for i in range(hand.shape[0]):
        later = future_bases(mode, masks, split, power[i, 0], power[i, 1], t + 1)
        out[i] = greedy_follow(hand[i], lead[i], cat[i], base[i], hidden, later, follow_wins_ties)


class GreedyPolicy(Policy):
    """Take every trick you can as cheaply as you can, looking no further than this trick.

    Lead the card, category (and base) whose rank lies nearest the base; follow with the
    winning card farthest from the base, or, with no winner, throw the card least useful for
    the tricks to come; against a face-down lead, play the card nearest the base in the named
    category. Discard the least useful cards; declare with `win_tricks` cards within 3 of a
    base. The batched twin of `geolab.bots.ranks.seats.GreedySeat`, which is its executable
    specification (same choices, same tie-breaks: lowest card, then category, then base).
    """

    name = "greedy"

    def discard(self, obs, rng):
        kr = _rules(obs.rules)
        out = np.empty((len(obs), obs.rules.discards), np.int64)
        _greedy_discard(obs.hand, _power(obs), kr.mode, kr.base_masks, kr.split, out)
        return out

    def declare(self, obs, rng):
        kr = _rules(obs.rules)
        out = np.empty(len(obs), np.bool_)
        _greedy_declare(obs.hand, _power(obs), kr.win_tricks, kr.mode, kr.base_masks, kr.split, out)
        return out

    def lead(self, obs, rng):
        m = len(obs)
        card, category, base = np.empty(m, np.int64), np.empty(m, np.int64), np.empty(m, np.int64)
        greedy_lead_rows(obs.hand, obs.bases, card, category, base)
        return Leads(card, category, base)

    def follow(self, obs, rng):
        kr = _rules(obs.rules)
        out = np.empty(len(obs), np.int64)
        hidden = obs.lead_card is None
        lead = obs.lead_category if hidden else obs.lead_card  # unused when hidden
        _greedy_follow(obs.hand, lead, obs.lead_category, obs.lead_base, hidden, obs.trick, _power(obs),
                       kr.follow_wins_ties, kr.mode, kr.base_masks, kr.split, out)  # fmt: skip
        return out


# ----- planner -----------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def _plan(hand, t, mode, fixed, lead_bases, split, tricks, p0, p1, assign):
    """Give each card of the hand the base it will be played at: assign[c] (0 = spare).

    Fixed bases: each base has as many places as tricks left at it; the places are filled
    strongest pair first (card, base), so a card goes where it is worth most. When the lead
    chooses the base, each card goes to its nearest base and nothing is spare.
    """
    h = hand
    while h:
        c = lowest(h)
        h &= h - 1
        assign[c] = 0
        if mode == 1:
            best = 1 << 30
            for b in lead_bases:
                if DIST[c, b] < best:
                    best, assign[c] = DIST[c, b], b
    if mode == 1:
        return
    places = np.zeros(N_CARDS + 1, np.int64)
    for u in range(t, tricks):
        places[trick_base(mode, fixed, split, p0, p1, u)] += 1
    free = hand
    while free:
        best, pick, at = 1 << 30, -1, 0
        h = free
        while h:
            c = lowest(h)
            h &= h - 1
            for b in range(1, N_CARDS + 1):
                if places[b] and DIST[c, b] < best:
                    best, pick, at = DIST[c, b], c, b
        if pick < 0:
            return
        assign[pick] = at
        places[at] -= 1
        free &= ~(1 << pick)


@njit(cache=True, nogil=True)
def planner_decide(kind, hand, t, p0, p1, lead, k, now, hidden, bases, kr, assign, out):
    """One decision (kind: the index in `KINDS`) for one hand under the rules `kr`
    (`ranks.batch.KernelRules`): the discards, the declaration (1 or 0) or the card go to out;
    returns the lead's (category, base), else (0, 0). `now`: the base of the trick followed;
    `assign`: scratch of 50."""
    mode, fixed, lead_bases, masks, split, tricks, follow_wins_ties, win_tricks, _, _ = kr
    h = hand
    _plan(h, t, mode, fixed, lead_bases, split, tricks, p0, p1, assign)
    if kind == 0:  # discard the spare cards (or, with no spares, the farthest from any base)
        d = out.shape[0]
        j = 0
        while h and j < d:
            c = lowest(h)
            h &= h - 1
            if assign[c] == 0:
                out[j] = c
                j += 1
        h = hand
        for c in out[:j]:
            h &= ~(1 << c)
        while j < d:
            c = 63 - (_least_useful(h, future_bases(mode, masks, split, p0, p1, 0)) & 63)
            out[j] = c
            h &= ~(1 << c)
            j += 1
        return 0, 0
    if kind == 1:  # declare with win_tricks cards within 5 of the base they are kept for
        near = 0
        while h:
            c = lowest(h)
            h &= h - 1
            near += assign[c] > 0 and DIST[c, assign[c]] <= 5
        out[0] = near >= win_tricks
        return 0, 0
    if kind == 2:
        now = trick_base(mode, fixed, split, p0, p1, t)
    phase = 0  # the cards kept for this trick's base
    while h:
        c = lowest(h)
        h &= h - 1
        if mode == 1 or assign[c] == now:
            phase |= 1 << c
    if kind == 2:  # lead the strongest card kept for this base (any card if none is)
        pool = phase if phase else hand
        best = 1 << 62
        while pool:
            c = lowest(pool)
            pool &= pool - 1
            for j in range(bases.shape[0]):
                b = bases[j]
                if mode != 1 or assign[c] == b:
                    best = min(best, lead_key(c, b, j))
        c, k, j = unpack_lead(best)
        out[0] = c
        return k, np.int64(bases[j])
    if hidden:  # strongest card kept for this base in the named category
        pool = phase if phase else hand
        best = 1 << 62
        while pool:
            c = lowest(pool)
            pool &= pool - 1
            best = min(best, abs(_R[c, k] - now) * 64 + c)
        out[0] = best & 63
        return 0, 0
    limit = abs(_R[lead, k] - now) + follow_wins_ties
    pick = -1
    for pool in (phase, hand & ~phase if phase == 0 else 0):
        best = 0  # the cheapest winner: farthest from the base
        while pool:
            c = lowest(pool)
            pool &= pool - 1
            dd = abs(_R[c, k] - now)
            best = max(best, (dd < limit) * ((dd + 1) * 64 + 63 - c))
        if best:
            pick = 63 - (best & 63)
            break
    if pick < 0:  # no winner to spare: throw the weakest card kept for this base
        pool = phase if phase else hand
        best = -1
        while pool:
            c = lowest(pool)
            pool &= pool - 1
            key = DIST[c, assign[c] if assign[c] else now] * 64 + 63 - c
            if key > best:
                best, pick = key, c
    out[0] = pick
    return 0, 0


@njit(cache=True, nogil=True)
def _planner(kind, hand, t, power, lead, cat, base, hidden, bases, kr, outs):
    """`planner_decide` for every row; outs: (cards (m, width), categories (m,), bases (m,))."""
    out, out_cat, out_base = outs
    assign = np.zeros(N_CARDS, np.int64)
    for i in range(hand.shape[0]):
        out_cat[i], out_base[i] = planner_decide(kind, hand[i], t, power[i, 0], power[i, 1], lead[i], cat[i], base[i],
                                                 hidden, bases[i], kr, assign, out[i])  # fmt: skip


class PlannerPolicy(Policy):
    """Plan the whole hand: give every card the base where it is worth most, then stick to it.

    With bases fixed in advance (1 for tricks 1-4, 50 for 5-8; or the Power cards), the
    tricks still to play are places at their base; the cards are placed strongest pair first,
    so low ranks are saved for the base-1 tricks and high ranks for the base-50 ones. The
    cards with no place are discarded. It leads its strongest card kept for this trick's
    base; it follows with the cheapest winner kept for this base (a card kept for later is
    spent only when nothing is kept for now), or else throws the weakest card kept for now.
    Where the lead names the base, each card belongs to its nearest base.
    """

    name = "planner"

    def act(self, obs, rng):
        rules, kr, m = obs.rules, _rules(obs.rules), len(obs)
        kind = ("discard", "declare", "lead", "follow").index(obs.kind)
        width = rules.discards if kind == 0 else 1
        out, out_cat, out_base = np.zeros((m, width), np.int64), np.zeros(m, np.int64), np.zeros(m, np.int64)
        following, hidden = kind == 3, obs.lead_card is None
        lead = obs.lead_card if following and not hidden else np.zeros(m, np.int8)
        cat = obs.lead_category if following else np.zeros(m, np.int8)
        base = obs.lead_base if following else np.zeros(m, np.int8)
        bases = obs.bases if kind == 2 else np.zeros((m, 1), np.int8)
        _planner(kind, obs.hand, obs.trick, _power(obs), lead, cat, base, hidden, bases, kr, (out, out_cat, out_base))
        return _as_action(kind, out, out_cat, out_base)


# ----- counter -----------------------------------------------------------------------------
def _closer_masks(strict: bool) -> np.ndarray:
    """[k, b, c]: the cards other than c whose rank in category k is closer to base b
    (strictly, or at most as far)."""
    d = np.abs(_R.T[:, None, :] - np.arange(N_CARDS + 1)[None, :, None])  # (3, 51, 50)
    near = d[:, :, None, :] < d[:, :, :, None] if strict else d[:, :, None, :] <= d[:, :, :, None]
    near &= ~np.eye(N_CARDS, dtype=bool)
    return (near * (1 << np.arange(N_CARDS, dtype=np.int64))).sum(axis=3)


#: Cards that beat c when c leads in category k at base b (by the trick's tie rule); passed
#: to the kernels as an argument, as numba will not cache a function using a large global.
_BEATS_LEAD = np.stack([_closer_masks(True), _closer_masks(False)])  # [follow_wins_ties, k, b, c]


@njit(cache=True, nogil=True)
def _threats(c, k, b, unseen, beats):
    """How many unseen cards would beat card c led in category k at base b."""
    return popcount(unseen & beats[k, b, c])


@njit(cache=True, nogil=True)
def _worth(c, base_mask, unseen, beats):
    """A card's best prospect: the fewest unseen threats over categories and future bases."""
    best = 1 << 30
    while base_mask:
        b = lowest(base_mask)
        base_mask &= base_mask - 1
        for k in range(3):
            best = min(best, _threats(c, k, b, unseen, beats))
    return best


@njit(cache=True, nogil=True)
def _weakest(hand, base_mask, unseen, beats):
    """The card with the worst prospect (most threats; the lowest card on ties)."""
    best, pick, h = -1, -1, hand
    while h:
        c = lowest(h)
        h &= h - 1
        w = _worth(c, base_mask, unseen, beats)
        if w > best:
            best, pick = w, c
    return pick


@njit(cache=True, nogil=True)
def counter_decide(kind, hand, seen, t, p0, p1, lead, k, b, hidden, bases, kr, by_statehood, concede, beats,
                   out):  # fmt: skip
    """One decision (kind: the index in `KINDS`) for one hand that has seen `seen`, under the
    rules `kr` (`ranks.batch.KernelRules`): the discards, the declaration (1 or 0) or the card
    go to out; returns the lead's (category, base), else (0, 0)."""
    mode, masks, split, ties, win_tricks = kr.mode, kr.base_masks, kr.split, kr.follow_wins_ties, kr.win_tricks
    h = hand
    unseen = kr.deck & ~(h | seen)
    if kind == 0:  # discard the worst prospects; in battles, a low statehood among them
        future = future_bases(mode, masks, split, p0, p1, 0)
        for j in range(out.shape[0]):
            worst = _weakest(h, future, unseen, beats)
            pick = worst
            if by_statehood:
                floor = _worth(worst, future, unseen, beats) - 2
                rest = h
                while rest:
                    c = lowest(rest)
                    rest &= rest - 1
                    if _worth(c, future, unseen, beats) >= floor and _R[c, 1] < _R[pick, 1]:
                        pick = c
            out[j] = pick
            h &= ~(1 << pick)
        return 0, 0
    if kind == 1:  # declare with win_tricks cards that at most one unseen card can beat
        future = future_bases(mode, masks, split, p0, p1, 0)
        sure = 0
        while h:
            c = lowest(h)
            h &= h - 1
            sure += _worth(c, future, unseen, beats) <= 1
        out[0] = sure >= win_tricks
        return 0, 0
    if kind == 2:  # lead a sure winner, the one nearest losing; else the fewest threats
        best = 1 << 62
        while h:
            c = lowest(h)
            h &= h - 1
            for k in range(3):
                for j in range(bases.shape[0]):
                    b = bases[j]
                    n = _threats(c, k, b, unseen, beats)
                    dist = abs(_R[c, k] - b)
                    best = min(best, ((((n * 64 + (63 - dist if n == 0 else dist)) * 64 + c) * 4 + k) * 64 + j))
        c, k, j = unpack_lead(best)
        out[0] = c
        return k, np.int64(bases[j])
    later = future_bases(mode, masks, split, p0, p1, t + 1)
    if hidden:  # the best card here, unless too many unseen cards beat it: then concede
        best = 1 << 62
        while h:
            c = lowest(h)
            h &= h - 1
            best = min(best, abs(_R[c, k] - b) * 64 + c)
        c = best & 63
        out[0] = c if popcount(unseen & beats[k, b, c]) < concede else _weakest(hand, later, unseen, beats)
        return 0, 0
    unseen &= ~(1 << lead)
    limit = abs(_R[lead, k] - b) + ties
    winners = 0
    while h:
        c = lowest(h)
        h &= h - 1
        if abs(_R[c, k] - b) < limit:
            winners |= 1 << c
    # win with the card worth least later; with no winner, throw the card worth least later
    out[0] = _weakest(winners if winners else hand, later, unseen, beats)
    return 0, 0


@njit(cache=True, nogil=True)
def _counter(kind, hand, seen, t, power, lead, cat, base, hidden, bases, kr, by_statehood, concede, beats, outs):
    """`counter_decide` for every row; outs: (cards (m, width), categories (m,), bases (m,))."""
    out, out_cat, out_base = outs
    for i in range(hand.shape[0]):
        out_cat[i], out_base[i] = counter_decide(kind, hand[i], seen[i], t, power[i, 0], power[i, 1], lead[i], cat[i],
                                                 base[i], hidden, bases[i], kr, by_statehood, concede, beats,
                                                 out[i])  # fmt: skip


class CounterPolicy(Policy):
    """Count the cards: only unseen cards can beat you, so play what they cannot beat.

    It tracks the cards it has not seen (not in its hand or discards, not played, not a
    public discard) and scores a card by how many of them could beat it. It leads a sure
    winner when it has one — the one nearest to losing its sureness, keeping the stronger —
    and otherwise the card with the fewest unseen threats. It wins a trick with the winning
    card worth least for the tricks to come, throws its worst prospect when it cannot win,
    and against a face-down lead concedes (throws) when `concede` or more unseen cards beat
    its best answer. Its battle discard gives up a low-statehood card, to take the first
    lead, when that card is nearly as poor a prospect as its worst.
    """

    name = "counter"

    def __init__(self, concede: int = 3):
        if not isinstance(concede, int) or concede < 1:
            raise GeolabError(f"counter: concede must be a positive integer, got {concede!r}")
        self.concede = concede

    def act(self, obs, rng):
        rules, kr, m = obs.rules, _rules(obs.rules), len(obs)
        kind = ("discard", "declare", "lead", "follow").index(obs.kind)
        seen = obs.discards | obs.played[:, 0] | obs.played[:, 1]
        if obs.opponent_discards is not None:
            seen = seen | obs.opponent_discards
        out = np.zeros((m, rules.discards if kind == 0 else 1), np.int64)
        out_cat, out_base = np.zeros(m, np.int64), np.zeros(m, np.int64)
        following, hidden = kind == 3, obs.lead_card is None
        _counter(kind, obs.hand, seen, obs.trick, _power(obs),
                 obs.lead_card if following and not hidden else np.zeros(m, np.int8),
                 obs.lead_category if following else np.zeros(m, np.int8),
                 obs.lead_base if following else np.zeros(m, np.int8),
                 hidden, obs.bases if kind == 2 else np.zeros((m, 1), np.int8), kr,
                 rules.first_lead == "discard-statehood", self.concede, _BEATS_LEAD[int(kr.follow_wins_ties)],
                 (out, out_cat, out_base))  # fmt: skip
        return _as_action(kind, out, out_cat, out_base)


# ----- fused play ------------------------------------------------------------------------
#: The policies `play_fused` plays, by their code in it (see `FUSED`).
FUSED_RANDOM, FUSED_GREEDY, FUSED_PLANNER, FUSED_COUNTER = 0, 1, 2, 3


@njit(cache=True, nogil=True)
def _decide(kind, who, hand, seen, key, t, p0, p1, lead, k, b, bases, kr, choices, assign, out):
    """One decision of side `who` = (side, its policy's code, counter's concede) (not greedy:
    `_play_fused` calls it directly) for one hand, by the per-row function its `act` uses,
    under the rules `kr` and `choices` (`FusedChoices`): the discards, the declaration (1 or 0)
    or the card go to out; returns the lead's (category, base), else (0, 0)."""
    side, code, concede = who
    hidden, by_statehood, beats = choices.hidden, choices.by_discards, choices.beats
    if code == FUSED_PLANNER:
        return planner_decide(kind, hand, t, p0, p1, lead, k, b, hidden, bases, kr, assign, out)
    if code == FUSED_COUNTER:
        return counter_decide(kind, hand, seen, t, p0, p1, lead, k, b, hidden, bases, kr, by_statehood, concede, beats,
                              out)  # fmt: skip
    noise = noise_of(key, noise_salt(kind, t), side)
    if kind == 0:
        random_cards(hand, noise, out)
    elif kind == 1:
        out[0] = random_declare(noise)
    elif kind == 2:
        out[0], k, b = random_lead(hand, noise, bases)
        return k, b
    else:
        out[0] = random_card(hand, noise)
    return 0, 0


class FusedSeats(NamedTuple):
    """Who decides for each side of each game ((n, 2) arrays): the policy's code (`FUSED`)
    and counter's `concede`."""

    codes: np.ndarray
    concede: np.ndarray


class FusedDeals(NamedTuple):
    """What the deals add to the hands: the statehood draw (n, 2, 1), the Power-card bases
    (n, 2; zeros without them) and each game's random key."""

    draw: np.ndarray
    power: np.ndarray
    keys: np.ndarray


class FusedChoices(NamedTuple):
    """The rules' choices the fused kernel reads beside `KernelRules`: how the first lead is
    found (given: the draw; by_discards: the discards' statehood), whether sides declare,
    discards are public and leads face-down, and counter's table of the cards that beat a lead
    (`_BEATS_LEAD` for these rules' equal-distance rule)."""

    given: bool
    by_discards: bool
    declarations: bool
    public: bool
    hidden: bool
    beats: np.ndarray


class FusedState(NamedTuple):
    """A chunk's games as they are played (`ranks.batch`'s chunk arrays, written in place):
    the hands and discards as bitmasks, the discarded cards, the cards played, tricks won,
    the first lead, the declarations and the tricks played."""

    hand: np.ndarray
    disc: np.ndarray
    discarded: np.ndarray
    played: np.ndarray
    won: np.ndarray
    first: np.ndarray
    decl: np.ndarray
    n_tricks: np.ndarray


class FusedHistory(NamedTuple):
    """Every trick of every game (n, tricks): leader, lead card, category, base, answer, winner."""

    leader: np.ndarray
    lead: np.ndarray
    category: np.ndarray
    base: np.ndarray
    follow: np.ndarray
    winner: np.ndarray


@njit(cache=True, nogil=True)
def _play_fused(seats, deals, kr, choices, state, history):
    """Every game of a chunk, start to end, side s deciding by seats.codes[g, s] (`FusedSeats`)
    on `deals` (`FusedDeals`) under the rules `kr` (`ranks.batch.KernelRules`) and `choices`
    (`FusedChoices`), writing `state` (`FusedState`) and `history` (`FusedHistory`): what
    `_Chunk.play` does decision by decision, here a game at a time (no checks: these policies
    are legal). Greedy's decisions are called directly: `_decide`'s many arguments cost more
    than they do."""
    codes, concede = seats
    draw, power, keys = deals
    mode, fixed, lead_bases, masks, split, tricks, follow_wins_ties, win_tricks, end_at, _ = kr
    ties = 1 if follow_wins_ties else 0
    given, by_discards, declarations, public, hidden, _ = choices
    hand, disc, discarded, played, won, first, decl, n_tricks = state
    fixed_base, out = np.empty(1, np.int64), np.empty(1, np.int64)
    assign = np.zeros(N_CARDS, np.int64)
    for g in range(hand.shape[0]):
        p0, p1, key = power[g, 0], power[g, 1], keys[g]
        start = future_bases(mode, masks, split, p0, p1, 0)
        if given:
            first[g] = statehood_first(draw, g)
        if discarded.shape[2]:
            for s in range(2):
                if codes[g, s] == FUSED_GREEDY:
                    greedy_discard(hand[g, s], start, discarded[g, s])
                else:
                    _decide(0, (s, codes[g, s], concede[g, s]), hand[g, s], 0, key, 0, p0, p1, 0, 0, 0, fixed_base, kr,
                            choices, assign, discarded[g, s])  # fmt: skip
            for s in range(2):
                for c in discarded[g, s]:
                    hand[g, s] &= ~(1 << c)
                    disc[g, s] |= 1 << c
        if by_discards:
            first[g] = statehood_first(discarded, g)
        leader = np.int64(first[g])
        if declarations:
            for s in (leader, 1 - leader):
                if codes[g, s] == FUSED_GREEDY:
                    out[0] = greedy_declare(hand[g, s], start, win_tricks)
                else:
                    seen = disc[g, s] | (disc[g, 1 - s] if public else 0)
                    _decide(1, (s, codes[g, s], concede[g, s]), hand[g, s], seen, key, 0, p0, p1, 0, 0, 0, fixed_base,
                            kr, choices, assign, out)  # fmt: skip
                decl[g, s] = out[0]
        for t in range(tricks):
            bases = lead_bases
            if mode != 1:
                fixed_base[0] = trick_base(mode, fixed, split, p0, p1, t)
                bases = fixed_base
            other, shown = 1 - leader, played[g, 0] | played[g, 1]
            if codes[g, leader] == FUSED_GREEDY:
                a, k, b = greedy_lead(hand[g, leader], bases)
            else:
                seen = disc[g, leader] | shown | (disc[g, other] if public else 0)
                k, b = _decide(2, (leader, codes[g, leader], concede[g, leader]), hand[g, leader], seen, key, t, p0,
                               p1, 0, 0, 0, bases, kr, choices, assign, out)  # fmt: skip
                a = out[0]
            hand[g, leader] &= ~(1 << a)
            if codes[g, other] == FUSED_GREEDY:
                later = future_bases(mode, masks, split, p0, p1, t + 1)
                f = greedy_follow(hand[g, other], a, k, b, hidden, later, ties)
            else:
                seen = disc[g, other] | shown | (disc[g, leader] if public else 0)
                _decide(3, (other, codes[g, other], concede[g, other]), hand[g, other], seen, key, t, p0, p1, a, k,
                        b, bases, kr, choices, assign, out)  # fmt: skip
                f = out[0]
            hand[g, other] &= ~(1 << f)
            leader = settle(g, t, leader, a, f, k, b, played, won, n_tricks, history, ties)
            if over(won, g, t, tricks, end_at):
                break


def play_fused(chunk, codes: np.ndarray, concede: np.ndarray) -> None:
    """Play a `ranks.batch` chunk in one kernel call; side s of game g decides by the policy
    of code ``codes[g, s]`` (`FUSED`) with counter's ``concede[g, s]`` (a seat may seat
    different policies game by game: `geolab.lineup.Lineup`)."""
    rules, kr, deals = chunk.rules, chunk.kr, chunk.deals
    power = np.zeros((chunk.n, 2), np.int8) if deals.power is None else deals.power
    choices = FusedChoices(rules.first_lead == "given", rules.first_lead == "discard-statehood", rules.declarations,
                           rules.discards_public, rules.hidden_lead, _BEATS_LEAD[int(kr.follow_wins_ties)])
    state = FusedState(chunk.hand, chunk.disc, chunk.discarded, chunk.played, chunk.won, chunk.first, chunk.decl,
                       chunk.n_tricks)
    _play_fused(FusedSeats(np.ascontiguousarray(codes, np.int64), np.ascontiguousarray(concede, np.int64)),
                FusedDeals(deals.draw[:, :, None], power, deals.keys), kr, choices, state,
                FusedHistory(*chunk.history.values()))


# ----- the fused kernel's codes ----------------------------------------------------------
FUSED: dict[type[Policy], int] = {RandomPolicy: FUSED_RANDOM, GreedyPolicy: FUSED_GREEDY,
                                  PlannerPolicy: FUSED_PLANNER, CounterPolicy: FUSED_COUNTER}
