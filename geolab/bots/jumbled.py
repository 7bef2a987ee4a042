"""Policies for Jumbled GeoPower Choice: batched ``act(obs, rng) -> slot masks``.

Every set policy sees a `geolab.games.jumbled.Observation` and returns one uint slot mask per
row; every dealer-call policy sees a `CallObservation` and returns call indices. Kernels are
compiled with numba (``nogil`` so blocks can run on threads) and draw their randomness only
from uniforms taken from the ``rng`` they are handed; the one exception, `heuristic_block`,
deals and plays whole rounds from per-round counter streams and can hand back every uniform
it drew, so the step-by-step engine can replay its decisions.
"""

from __future__ import annotations

import functools
import pickle
import threading
from dataclasses import dataclass, field

import numba
import numpy as np

from geolab.cards import N_CARDS, RANKS
from geolab.errors import GeolabError
from geolab.games.counter_rng import LOW32, below32, draw64, game_stream
from geolab.games.jumbled import (
    RANKS64, TOP_DOG, CallObservation, Observation, Rules, call_index, deal_game, legal_choice,
    next_category_probs, play_round_batch, popcount, set_winners,
)

# --------------------------------------------------------------------------------------------
# Dealer-call policies
# --------------------------------------------------------------------------------------------


class RandomCall:
    """Calls Top Dog or Bottoms Up with equal chance (among the calls the rules allow)."""

    name = "random-call"

    def call(self, obs: CallObservation, rng: np.random.Generator) -> np.ndarray:
        allowed = np.array([call_index(c) for c in obs.rules.calls], np.int8)
        return allowed[rng.integers(0, len(allowed), len(obs))]


@dataclass
class FixedCall:
    """Always makes the same call: the baseline for measuring what the call is worth."""

    which: str = "top-dog"

    @property
    def name(self) -> str:
        return f"call-{self.which}"

    def call(self, obs: CallObservation, rng: np.random.Generator) -> np.ndarray:
        return np.full(len(obs), call_index(self.which), np.int8)


@numba.njit(cache=True, nogil=True)
def _race_rank(levels, binom, n_multi, buf):
    """Index of the state (levels[0]: the player of interest; levels[1:]: the others, any
    order) among the (own level, sorted multiset of the others' levels) states; ``buf`` is
    scratch for the sort."""
    n = levels.size - 1
    for i in range(n):  # insertion sort: a few values, no allocation
        x, j = levels[i + 1], i
        while j > 0 and buf[j - 1] > x:
            buf[j] = buf[j - 1]
            j -= 1
        buf[j] = x
    r = 0
    for i in range(n):
        r += binom[buf[i] + i, i + 1]
    return levels[0] * n_multi + r


@numba.njit(cache=True, nogil=True)
def _race_after(levels, probs, shape_pts, shape_k, g, target, value, binom, n_multi):
    """The player at ``levels[0]``'s chance to win after one more round that scores one of the
    shapes (probabilities ``probs``; shape 0 scores nothing and is left to the caller), each
    shape's points going to a uniformly random ordered set of distinct players. A round that
    ends the race counts 1 for a sole leader at or past the target, 1/n to each of n tied
    leaders there; otherwise ``value`` of the state reached."""
    P = levels.size
    nxt = np.empty(P, np.int64)
    buf = np.empty(P, np.int64)
    pick = np.zeros(shape_pts.shape[1], np.int64)
    total = 0.0
    for sh in range(1, probs.size):
        if probs[sh] == 0.0:
            continue
        k = shape_k[sh]
        n_tuples = 1
        for i in range(k):
            n_tuples *= P
        acc, count = 0.0, 0
        for code in range(n_tuples):  # every ordered k-tuple of distinct players
            c, distinct = code, True
            for i in range(k):
                pick[i] = c % P
                c //= P
                for j in range(i):
                    distinct = distinct and pick[j] != pick[i]
            if not distinct:
                continue
            count += 1
            nxt[:] = levels
            for i in range(k):
                nxt[pick[i]] += shape_pts[sh, i]
            top, n_top = nxt[0], 1
            for q in range(1, P):
                if nxt[q] > top:
                    top, n_top = nxt[q], 1
                elif nxt[q] == top:
                    n_top += 1
            if top * g >= target:
                acc += (1.0 / n_top) if nxt[0] == top else 0.0
            else:
                acc += value[_race_rank(nxt, binom, n_multi, buf)]
        total += probs[sh] * acc / count
    return total


@numba.njit(cache=True, nogil=True)
def _race_values(states, probs, shape_pts, shape_k, g, target, binom, n_multi):
    """Every state's chance to win the race, rounds drawn from ``probs`` for ever: states in
    order of falling total, so every state a scoring round reaches is already known, and a
    round that scores nothing (shape 0) only repeats the state."""
    value = np.zeros(states.shape[0])
    buf = np.empty(states.shape[1], np.int64)
    for i in range(states.shape[0]):
        s = states[i]
        v = _race_after(s, probs, shape_pts, shape_k, g, target, value, binom, n_multi)
        value[_race_rank(s, binom, n_multi, buf)] = v / (1.0 - probs[0])
    return value


@numba.njit(cache=True, nogil=True)
def _race_kernel(levels, probs, shape_pts, shape_k, g, target, value, binom, n_multi, allowed, out):
    """Per row (the dealer's levels first): the allowed call with the best chance to win."""
    buf = np.empty(levels.shape[1], np.int64)
    for r in range(levels.shape[0]):
        best, best_call = -1.0, allowed[0]
        for c in allowed:
            v = probs[c, 0] * value[_race_rank(levels[r], binom, n_multi, buf)] + _race_after(
                levels[r], probs[c], shape_pts, shape_k, g, target, value, binom, n_multi)
            if v > best + 1e-12:
                best, best_call = v, c
        out[r] = best_call


@dataclass
class RaceCall:
    """Calls what gives the dealer the best chance to win the race to the target.

    The dealer calls before the deal (rule J7), so the scores are all it knows, and the two
    calls are not alike: with the default heuristic Bottoms Up spreads a round's points wider
    than Top Dog (more two-set rounds), which a dealer behind wants and a leader does not. So
    the caller estimates, once per rules, how often each call gives each outcome shape (who
    wins how many sets: 5+5+5, 15+5, 25, ...) from ``table_rounds`` rounds with the default
    heuristic at every seat (seeded by ``random_state``); computes every score state's chance
    to win the race exactly under those shapes, dealt to random players, with later dealers
    calling at random; and calls whichever call maximises the dealer's chance after this
    round (Top Dog on equal chances). A deterministic function of the scores, it draws nothing
    from the game's rng. Individual play only; a score state past the target (a tie at the
    top plays on) is counted as shared by the tied leaders.
    """

    table_rounds: int = 32768
    random_state: int = 0
    max_states: int = 2_000_000
    name: str = "race"

    def __post_init__(self):
        self._model: dict = {}
        self._lock = threading.Lock()

    def _prepared(self, rules: Rules):
        with self._lock:
            if rules not in self._model:
                self._model[rules] = self._prepare(rules)
            return self._model[rules]

    def _prepare(self, rules: Rules):
        from dataclasses import replace
        from itertools import combinations_with_replacement
        from math import ceil, comb, gcd

        from geolab.games.jumbled import CALLS, deal

        if rules.teams is not None:
            raise GeolabError("the race caller plays individual games (no teams)")
        P, n = rules.players, self.table_rounds
        deal_ss, play_ss = np.random.SeedSequence(self.random_state).spawn(2)
        hands, order = deal(rules, np.random.default_rng(deal_ss), n)
        zeros, dealer = np.zeros((n, P), np.int64), np.arange(n, dtype=np.int64) % P
        both = replace(rules, calls=CALLS)  # both calls' shapes even where the rules allow one
        shapes, counts = {(): 0}, []
        for which in CALLS:  # the same deals and play stream under both calls
            pts = play_round_batch(both, [Heuristic()] * P, [FixedCall(which)] * P, hands, order, zeros,
                                   dealer, 0, np.random.default_rng(play_ss)).points()
            count: dict = {}
            for row in pts.tolist():
                key = tuple(sorted((x for x in row if x), reverse=True))
                shapes.setdefault(key, len(shapes))
                count[key] = count.get(key, 0) + 1
            counts.append(count)
        g = 0
        for key in shapes:
            for x in key:
                g = gcd(g, x)
        g = g or 1
        width = max(1, max(len(k) for k in shapes))
        shape_pts = np.zeros((len(shapes), width), np.int64)
        shape_k = np.zeros(len(shapes), np.int64)
        probs = np.zeros((2, len(shapes)))
        for key, i in shapes.items():
            shape_pts[i, :len(key)] = [x // g for x in key]
            shape_k[i] = len(key)
            for c in range(2):
                probs[c, i] = counts[c].get(key, 0) / n
        allowed = np.array([call_index(c) for c in rules.calls], np.int64)
        mix = probs[allowed].mean(axis=0)  # later dealers call at random among the allowed calls
        levels = ceil(rules.target / g)  # scores below the target, in units of g
        n_multi = comb(levels + P - 2, P - 1)
        if levels * n_multi > self.max_states or mix[0] >= 1:
            raise GeolabError(f"the race caller cannot model these rules ({levels * n_multi:,} score states)")
        binom = np.array([[comb(a, b) for b in range(P)] for a in range(levels + P)], np.int64)
        others = np.array(list(combinations_with_replacement(range(levels), P - 1)), np.int64).reshape(-1, P - 1)
        states = np.concatenate([np.repeat(np.arange(levels), len(others))[:, None],
                                 np.tile(others, (levels, 1))], axis=1)
        states = states[np.argsort(-states.sum(axis=1), kind="stable")]
        value = _race_values(states, mix, shape_pts, shape_k, g, rules.target, binom, n_multi)
        return probs, shape_pts, shape_k, g, value, binom, n_multi, allowed

    def call(self, obs: CallObservation, rng: np.random.Generator) -> np.ndarray:
        r = obs.rules
        probs, shape_pts, shape_k, g, value, binom, n_multi, allowed = self._prepared(r)
        scores = np.asarray(obs.scores[obs.game], np.int64)
        seat = np.asarray(obs.seat, np.int64)
        others = np.arange(r.players)[None, :] != seat[:, None]
        levels = np.concatenate([scores[np.arange(len(seat)), seat][:, None],
                                 scores[others].reshape(len(seat), -1)], axis=1) // g  # the dealer first
        out = np.full(len(seat), allowed[0], np.int64)
        inside = (levels * g < r.target).all(axis=1)  # past the target (a tie plays on): the first call
        if inside.any():
            part = np.zeros(int(inside.sum()), np.int64)
            _race_kernel(np.ascontiguousarray(levels[inside]), probs, shape_pts, shape_k, g, r.target, value,
                         binom, n_multi, allowed, part)
            out[inside] = part
        return out.astype(np.int8)


# --------------------------------------------------------------------------------------------
# Shared kernels
# --------------------------------------------------------------------------------------------


@numba.njit(cache=True, nogil=True, inline="always")
def _card_keys(a, b, d, p0, p1, p2, s0, s1, s2):
    """A card's two heuristic keys from its (mirrored) ranks a, b, d and the category chances:
    the expected rank, and the worst rank over the possible categories then the expected one.
    The one place these float expressions are written: the per-decision path and the fused
    loop's tables both call it, so they make bit-identical keys (hence identical choices)."""
    ev = p0 * a + p1 * b + p2 * d
    return ev, max(max(a * s0, b * s1), d * s2) + 1e-3 * ev


@numba.njit(cache=True, nogil=True)
def _heuristic_choice(hands, r, used, call, s, S, C, lo, hi, p0, p1, p2, single_at, reserve, u,
                      ranks, e, m):
    """One decision of the rule-of-thumb family (see `Heuristic`) for the hand in row ``r``,
    given the chances p0..p2 of each category; ``e`` and ``m`` are scratch rows. Returns a slot
    mask. O(hand size), no allocation, few unpredictable branches: it runs in the hot loop."""
    H = hands.shape[1]
    left = C - popcount(used)
    after = S - s - 1
    kmin = max(lo, left - after * hi)
    kmax = min(hi, left - after * lo)
    if single_at >= 0:
        small = s == single_at
    else:  # mixed timing: the small set is equally likely to be any set still to come
        small = u * (S - s) < 1.0
    k = kmin if small else kmax
    pending = (left - k) < after * hi  # a small set is still to come
    s0, s1, s2 = p0 > 0, p1 > 0, p2 > 0
    flip = call != 0  # Bottoms Up is mirrored so that lower is always better
    best, best_e, n_free = -1, 1e18, 0
    for i in range(H):
        if (used >> i) & 1:
            e[i] = 1e18
            m[i] = 1e18
            continue
        n_free += 1
        c = hands[r, i]
        a, b, d = ranks[c, 0], ranks[c, 1], ranks[c, 2]
        a = 51 - a if flip else a
        b = 51 - b if flip else b
        d = 51 - d if flip else d
        ev, mk = _card_keys(a, b, d, p0, p1, p2, s0, s1, s2)
        e[i] = ev
        m[i] = mk
        lower = ev < best_e
        best = i if lower else best
        best_e = ev if lower else best_e
    if reserve and pending and not small and n_free - 1 >= k:
        e[best] = 1e18
        m[best] = 1e18
    key = e if small else m
    mask = 0
    for _ in range(k):
        pick, kv = 0, key[0]
        for i in range(1, H):
            lower = key[i] < kv
            pick = i if lower else pick
            kv = key[i] if lower else kv
        mask |= 1 << pick
        key[pick] = 1e18
    return mask


@numba.njit(cache=True, nogil=True)
def _heuristic_kernel(hands, used, calls, s, S, C, lo, hi, probs, single_at, reserve, u, ranks, out):
    e = np.empty(hands.shape[1])
    m = np.empty(hands.shape[1])
    for r in range(hands.shape[0]):
        c = calls[r]
        out[r] = _heuristic_choice(hands, r, used[r], c, s, S, C, lo, hi, probs[r, 0], probs[r, 1],
                                   probs[r, 2], single_at[c], reserve[c], u[r], ranks, e, m)


@numba.njit(cache=True, nogil=True)
def _random_kernel(used, H, s, S, C, lo, hi, u, out):
    for r in range(used.size):
        n = 0
        for m in range(1, 1 << H):
            n += legal_choice(m, used[r], H, s, S, C, lo, hi)
        pick = int(u[r] * n)
        for m in range(1, 1 << H):
            if legal_choice(m, used[r], H, s, S, C, lo, hi):
                if pick == 0:
                    out[r] = m
                    break
                pick -= 1


def _rule_ints(rules: Rules) -> tuple[int, int, int, int]:
    return rules.sets_per_round, rules.cards_to_play, rules.min_cards_per_set, rules.max_cards_per_set


# --------------------------------------------------------------------------------------------
# Set policies
# --------------------------------------------------------------------------------------------


class RandomBot:
    """Uniformly random among the legal choices: the floor every other bot must clear."""

    name = "random"

    def act(self, obs: Observation, rng: np.random.Generator) -> np.ndarray:
        out = np.zeros(len(obs), np.int64)
        _random_kernel(np.ascontiguousarray(obs.used), obs.rules.cards_dealt, obs.set_index,
                       *_rule_ints(obs.rules), rng.random(len(obs)), out)
        return out


@dataclass
class Heuristic:
    """Rules of thumb with a planned "small" set (the one where a single card is laid).

    Under Top Dog a single card is the strong play, so the small set gets the card with the
    lowest expected rank over the GeoPower cards still possible (a low card is safe when the
    category is uncertain), and a pair set gets the two cards whose worst rank over the
    categories still possible is lowest, so the pair's total is low in all three. Bottoms Up is
    the mirror (ranks read as 51 - rank). ``single_at`` gives, per call, the index of the small
    set (-1: a random set, uniform over the sets left); ``reserve`` keeps the best card back
    for a small set still to come. The default, mixed timing without reserve, is the strongest
    of the family: a fixed timing is easily exploited and reserving loses the pair sets
    (results/jumbled/heuristic_fields.csv); an unplayed small set keeps flexibility for the
    end, when more GeoPower cards are known.
    """

    single_at: tuple[int, int] = (-1, -1)
    reserve: tuple[bool, bool] = (False, False)
    name: str = "heuristic"

    def act(self, obs: Observation, rng: np.random.Generator) -> np.ndarray:
        out = np.zeros(len(obs), np.int64)
        calls = obs.call[obs.game]
        _heuristic_kernel(obs.hand, np.ascontiguousarray(obs.used), calls, obs.set_index,
                          *_rule_ints(obs.rules), obs.probs(), np.array(self.single_at, np.int64),
                          np.array(self.reserve), rng.random(len(obs)), RANKS64, out)
        return out


#: The named heuristics offered on the command line (`--bots first,last,...`).
HEURISTICS = {
    "heuristic": Heuristic(),
    "reserve": Heuristic((-1, -1), (True, True), name="reserve"),
    "first": Heuristic((0, 0), (True, True), name="first"),
    "middle": Heuristic((1, 1), (True, True), name="middle"),
    "last": Heuristic((2, 2), (True, True), name="last"),
}


@numba.njit(cache=True, nogil=True)
def _dense_ranks(values, out):
    """``out[i]`` = how many distinct values are below ``values[i]`` (equal values, equal rank)."""
    order = np.argsort(values, kind="mergesort")
    r = 0
    for j in range(values.size):
        if j > 0 and values[order[j]] != values[order[j - 1]]:
            r += 1
        out[order[j]] = r


@numba.njit(cache=True, nogil=True)
def _key_tables(deck, S, reuse, ranks):
    """The heuristic's card keys for every category-chance state a round can reach, call and
    card, computed once per rule set as (states, call, kind, N_CARDS) integers: kind 0 the
    worst-rank key (pair sets), kind 1 the expected rank (the small set), each replaced by its
    dense rank among the 50 cards (equal floats share a rank) shifted left 4 bits, so that
    ``key | slot`` orders a hand exactly as (float key, slot) does: the first strict minimum
    `_heuristic_choice` picks is the integer minimum.

    The chances before set t depend only on how many cards of each category were turned
    before it (state index ``(x0 * d1 + x1) * d2 + x2`` with ``d_c = min(deck_c, S - 1) + 1``),
    or, once a reused deck comes round again, on the one known card (the last 3 states)."""
    d0, d1, d2 = min(deck[0], S - 1) + 1, min(deck[1], S - 1) + 1, min(deck[2], S - 1) + 1
    base = d0 * d1 * d2
    tab = np.zeros((base + 3, 2, 2, N_CARDS), np.int64)
    draws = np.zeros(S, np.int64)
    probs = np.empty(3)
    ev = np.empty(N_CARDS)
    mk = np.empty(N_CARDS)
    dense = np.empty(N_CARDS, np.int64)
    D = deck.sum()
    for st in range(base + 3):
        if st < base:
            x0, x1, x2 = st // (d1 * d2), (st // d2) % d1, st % d2
            t = x0 + x1 + x2
            if t > S - 1 or t >= D:
                continue  # unreachable: a reused deck is known by then, an unreused one is long enough
            for i in range(t):
                draws[i] = 0 if i < x0 else (1 if i < x0 + x1 else 2)
            next_category_probs(deck, draws, t, reuse, probs)
        else:
            probs[:] = 0.0
            probs[st - base] = 1.0
        p0, p1, p2 = probs[0], probs[1], probs[2]
        s0, s1, s2 = p0 > 0, p1 > 0, p2 > 0
        for call in range(2):
            for c in range(N_CARDS):
                a, b, d = ranks[c, 0], ranks[c, 1], ranks[c, 2]
                if call != 0:
                    a, b, d = 51 - a, 51 - b, 51 - d
                ev[c], mk[c] = _card_keys(a, b, d, p0, p1, p2, s0, s1, s2)
            _dense_ranks(mk, dense)
            for c in range(N_CARDS):
                tab[st, call, 0, c] = dense[c] << 4
            _dense_ranks(ev, dense)
            for c in range(N_CARDS):
                tab[st, call, 1, c] = dense[c] << 4
    return tab


@numba.njit(cache=True, nogil=True)
def _pick_general(hands, hg, q, uq, H, k, off, st, call, cat, small, reserving, tab, ranks, key, big):
    """`_heuristic_rounds_kernel`'s pick for a set of more than two cards or a seat that may
    keep its best card back: a separate function so that the common one- or two-card path's
    loop keeps its values in registers (~10% faster per round). Returns (slot mask, rank total)."""
    for i in range(H):
        key[i] = big if (uq >> i) & 1 else np.int64(tab[off + hands[hg, q, i]]) | i
    if reserving and not small:
        ev_off = ((st * 2 + call) * 2 + 1) * N_CARDS
        best, n_free = big, 0
        for i in range(H):
            if not (uq >> i) & 1:
                n_free += 1
                best = min(best, np.int64(tab[ev_off + hands[hg, q, i]]) | i)
        if n_free - 1 >= k:
            key[best & 15] = big
    mv = 0
    tot = 0
    for _ in range(k):
        pick = key[0]
        for i in range(1, H):
            pick = min(pick, key[i])
        pick &= 15
        mv |= 1 << pick
        key[pick] = big
        tot += ranks[hands[hg, q, pick], cat]
    return mv, tot


@numba.njit(cache=True, nogil=True)
def _heuristic_rounds_kernel(hands, slots, seats, bare, order, calls, u, keys, first, S, C, lo, hi, deck,
                             reuse, all_tied, single_at, reserve, call_opts, tab, pts_table, ranks,
                             actions, points):
    """Whole rounds with `Heuristic` at every seat: the same choices as `_heuristic_choice`,
    with each card's key looked up in the flat per-rules table of `_key_tables` instead of
    computed at every decision, the picks found by branch-free integer minima, and no
    allocation inside the loop over games.

    With ``keys`` empty the deals (``hands``, ``order``), ``calls`` and the timing uniforms
    ``u`` (S, G, P) are given. With ``keys`` = (deal key, play key) game i of the block is
    game ``first + i``: dealt by `deal_game` from the deal key, its call (when ``call_opts``
    is not empty: uniform among them) and timing uniforms drawn from its play stream (draw 0
    the call, draw 1 + t * ceil(P / 2) + q // 2 the uniforms of set t, two per draw), and each
    of hands, order, calls, u and actions is either written in full (G rows) or a one-row
    scratch.

    ``slots`` and ``seats`` are any tuples of lengths H (the hand size) and P: their lengths
    are part of the compiled type, so each (H, P) gets its own specialisation whose card and
    seat loops have constant trip counts (the card loop fully unrolled). Constant H: ~5-8% fewer
    CPU-seconds per round than H read from the array; constant P on top: ~7% fewer at 4 players,
    ~2-3% at 8 (paired medians of CPU time, 1 thread, 16,384-round blocks, untraced).

    ``bare`` is likewise a tuple whose length is a compile-time flag: non-empty for an untraced
    block (``keys`` given; hands, order, u and actions one-row scratch nobody reads), so that
    specialisation has no per-game row selects for them, never stores actions or uniforms and
    has no path for given deals: ~6% fewer CPU-seconds per round at 4 players, ~4% at 8, but
    ~9% more at 2 (2% fewer instructions there: code layout; paired medians, 1 thread, quiet)."""
    G = points.shape[0]
    H, P = len(slots), len(seats)  # compile-time constants (see above)
    D = order.shape[1]
    one_row = len(bare) > 0  # compile-time (see above)
    dealt = one_row or keys.size > 0
    draw_call = dealt and call_opts.size > 0
    n_turns = min(S, D - 1)
    half = (P + 1) >> 1
    d1, d2 = min(deck[1], S - 1) + 1, min(deck[2], S - 1) + 1
    base = (min(deck[0], S - 1) + 1) * d1 * d2
    scratch = np.empty(N_CARDS, np.int8)
    flat_hands = hands.reshape(hands.shape[0], P * H)  # as `deal_game` writes them
    used = np.zeros(P, np.int64)
    n_played = np.zeros(P, np.int64)
    totals = np.zeros(P, np.int64)
    n_won = np.zeros(P, np.int64)
    key = np.empty(H, np.int64)
    kbuf = np.empty(2, np.int64)
    plain = True  # every seat the default (coin-flip timing, no reserve): skip per-decision lookups
    for q in range(P):
        plain &= single_at[q, 0] < 0 and single_at[q, 1] < 0 and not reserve[q, 0] and not reserve[q, 1]
    big = np.int64(1) << 40
    z = np.uint64(0)
    two32 = np.uint64(1) << np.uint64(32)
    keep_u = not one_row and u.shape[1] == G
    for g in range(G):
        hg = 0 if one_row or hands.shape[0] != G else g
        og = 0 if one_row or order.shape[0] != G else g
        cg = g if calls.shape[0] == G else 0  # given calls are read even when bare
        ug = 0 if one_row or u.shape[1] != G else g
        ag = 0 if one_row or actions.shape[0] != G else g
        ps = np.uint64(0)
        if dealt:
            deal_game(game_stream(keys[0], first + g), P, H, n_turns, deck, scratch, flat_hands, hg, order, og)
            ps = game_stream(keys[1], first + g)
            if draw_call:
                calls[cg] = call_opts[below32(draw64(ps, 0) >> np.uint64(32), call_opts.size)]
        call = np.int64(calls[cg])
        sign = 1 if call == 0 else -1
        for q in range(P):  # a plain loop: no slice views made per round
            used[q] = 0
            n_played[q] = 0
            n_won[q] = 0
        x0 = x1 = x2 = 0
        top = 0  # t % D, counted: no division in the loop
        for t in range(S):
            if reuse and t >= D:
                st = base + order[og, t - D]
            else:
                st = (x0 * d1 + x1) * d2 + x2
            cat = order[og, top]
            top = 0 if top == D - 1 else top + 1
            after = S - t - 1
            for q in range(P):
                uq = used[q]
                left = C - n_played[q]
                kmin = max(lo, left - after * hi)
                kmax = min(hi, left - after * lo)
                sa = -1 if plain else single_at[q, call]
                if sa >= 0:
                    small = t == sa
                elif dealt:
                    if q & 1 == 0:
                        z = draw64(ps, 1 + t * half + (q >> 1))
                    bits = (z >> np.uint64(32)) if q & 1 == 0 else (z & LOW32)
                    small = bits * np.uint64(S - t) < two32  # exactly u * (S - t) < 1 for u = bits / 2**32
                    if keep_u:
                        u[t, g, q] = np.float64(bits) / two32
                else:
                    small = u[t, ug, q] * (S - t) < 1.0
                kbuf[0] = kmax  # read through memory: a select on the coin flip compiles to a
                kbuf[1] = kmin  # mispredicted branch
                k = kbuf[np.int64(small)]
                off = ((st * 2 + call) * 2 + np.int64(small)) * N_CARDS
                if k <= 2 and (plain or not reserve[q, call]):
                    v1, v2 = big, big  # the two lowest (key | slot), branch-free
                    uoff = np.uint64(off)  # unsigned: no negative-index check in the hot loop
                    for i in range(H):
                        x = np.int64(tab[uoff + np.uint64(hands[hg, q, i])]) | i
                        x = big if (uq >> i) & 1 else x
                        lo1 = min(v1, x)
                        v2 = min(v2, max(v1, x))
                        v1 = lo1
                    p1, p2 = v1 & 15, v2 & 15
                    pair = k - 1  # k is 1 or 2 (lo >= 1): a product, not a branch on the coin flip
                    mv = (1 << p1) | (pair << p2)
                    tot = ranks[np.uint64(hands[hg, q, p1]), cat] + pair * ranks[np.uint64(hands[hg, q, p2]), cat]
                else:
                    mv, tot = _pick_general(hands, hg, q, uq, H, k, off, st, call, cat, small,
                                            reserve[q, call] and (left - k) < after * hi, tab,
                                            ranks, key, big)
                if not one_row:
                    actions[ag, t, q] = mv
                used[q] = uq | mv
                n_played[q] += k
                totals[q] = sign * tot  # mirrored: the lowest always wins (set_winners' rule)
            best = totals[0]
            for q in range(1, P):
                best = min(best, totals[q])
            n_best = 0
            for q in range(P):
                n_best += totals[q] == best
            alone = n_best == 1 or all_tied
            for q in range(P):
                n_won[q] += (totals[q] == best) & alone
            if t < D:
                x0 += cat == 0
                x1 += cat == 1
                x2 += cat == 2
        for q in range(P):
            points[g, q] = pts_table[n_won[q]]


@functools.lru_cache(maxsize=64)
def _flat_key_tables(deck: tuple[int, int, int], S: int, reuse: bool) -> np.ndarray:
    """`_key_tables` for one rule set, flattened to int16 (small enough for the L1 cache);
    computed once per process and shared read-only by every thread."""
    tab = _key_tables(np.array(deck, np.int64), S, reuse, RANKS64).reshape(-1).astype(np.int16)
    tab.flags.writeable = False
    return tab


def _run_fused(rules: Rules, bot: "Heuristic", hands, order, calls, u, keys, first, call_opts,
               actions, points, bare: bool = False) -> None:
    S, P = rules.sets_per_round, rules.players
    _heuristic_rounds_kernel(
        hands, (0,) * rules.cards_dealt, (0,) * P, (0,) if bare else (), order, calls, u, keys, first, *_rule_ints(rules),
        np.array(rules.geopower_deck, np.int64),
        rules.used_to_bottom, rules.set_tie == "all-tied", np.array([bot.single_at] * P, np.int64),
        np.array([bot.reserve] * P), call_opts,
        _flat_key_tables(tuple(rules.geopower_deck), S, rules.used_to_bottom),
        np.array([w * rules.points_per_set + rules.bonus[w] for w in range(S + 1)], np.int64),
        RANKS64, actions, points)


_SCRATCH = threading.local()


def _scratch_uniforms(n: int) -> np.ndarray:
    """A reused per-thread float buffer of n values (fresh multi-megabyte arrays for every
    block cost page faults); its contents are overwritten by the caller at once."""
    buf = getattr(_SCRATCH, "u", None)
    if buf is None or buf.size < n:
        buf = _SCRATCH.u = np.empty(n)
    return buf[:n]


_NO_KEYS = np.zeros(0, np.uint64)
_NO_CALLS = np.zeros(0, np.int8)


def heuristic_rounds(rules: Rules, bot: "Heuristic", hands, order, calls, rng,
                     keep_actions: bool = True) -> tuple[np.ndarray | None, np.ndarray]:
    """Whole rounds in one compiled loop when one `Heuristic` sits at every seat: the same
    decisions and scores as `play_round_batch` with the same ``rng`` after the calls (it draws
    the same uniforms in the same order; a test checks it), without building observations
    between sets. Returns actions (G, S, P) (None unless ``keep_actions``) and round points
    (G, P)."""
    G, S, P = len(hands), rules.sets_per_round, rules.players
    u = _scratch_uniforms(S * G * P).reshape(S, G, P)
    rng.random(out=u)  # the same uniforms, in the same order, as one draw per set
    actions = np.zeros((G if keep_actions else 1, S, P), np.int64)
    points = np.zeros((G, P), np.int64)
    _run_fused(rules, bot, np.ascontiguousarray(hands, np.int8), np.ascontiguousarray(order, np.int8),
               np.ascontiguousarray(calls, np.int8), u, _NO_KEYS, 0, _NO_CALLS, actions, points)
    return (actions if keep_actions else None), points


@dataclass
class FusedRounds:
    """Rounds dealt and played in one compiled loop: points (n, P) int32 (as `BatchRound.points`
    gives them; small to gather from many blocks) and, when traced, all it
    takes to replay them: hands (n, P, H), GeoPower orders (n, D), calls (n,), the timing
    uniforms the heuristic drew (S, n, P; the ``rng.random`` draws of `Heuristic.act`, set by
    set) and actions (n, S, P)."""

    points: np.ndarray
    hands: np.ndarray | None = None
    order: np.ndarray | None = None
    calls: np.ndarray | None = None
    uniforms: np.ndarray | None = None
    actions: np.ndarray | None = None


def heuristic_block(rules: Rules, bot: "Heuristic", n: int, deal_key, play_key, first: int = 0,
                    calls=None, trace: bool = False) -> FusedRounds:
    """Rounds first .. first + n - 1 of a block, one `Heuristic` at every seat: dealt as
    `deal_block` deals them from ``deal_key`` and played in the compiled loop, every other
    random choice drawn from ``play_key``'s per-round streams, so round i depends only on
    (keys, i), never on how the block is cut or threaded. ``calls`` (n,) gives the dealers'
    calls; None draws each uniformly among the rules' calls (what `RandomCall` does)."""
    S, P, H, D = rules.sets_per_round, rules.players, rules.cards_dealt, rules.deck_size
    rows = n if trace else 1
    if calls is None:
        call_opts = np.array([call_index(c) for c in rules.calls], np.int8)
        calls = np.zeros(rows, np.int8)
    else:
        call_opts, calls = _NO_CALLS, np.ascontiguousarray(calls, np.int8)
    out = FusedRounds(np.zeros((n, P), np.int32), np.zeros((rows, P, H), np.int8), np.zeros((rows, D), np.int8),
                      calls, np.zeros((S, rows, P)), np.zeros((rows, S, P), np.int64))
    _run_fused(rules, bot, out.hands, out.order, out.calls, out.uniforms,
               np.array([deal_key, play_key], np.uint64), first, call_opts, out.actions, out.points, not trace)
    return out if trace else FusedRounds(out.points)


# --------------------------------------------------------------------------------------------
# Monte Carlo
# --------------------------------------------------------------------------------------------


@numba.njit(cache=True, nogil=True)
def _mc_row(hand, used, seat, call, s, cards_pub, turned, team_of, deck, reuse, all_tied,
            S, C, lo, hi, pts_table, n_samples, u, roll_single, roll_reserve, ranks):
    """Choose by sampling: deal the unseen cards to the other hands (each keeping the cards it
    has already shown), draw the GeoPower cards still to come, then roll every legal choice
    out with the rollout heuristic for everybody; the same samples serve every choice."""
    P, H = team_of.size, hand.size
    M = cards_pub.shape[2]
    seen = np.zeros(N_CARDS, np.bool_)
    for i in range(H):
        seen[hand[i]] = True
    hands = np.zeros((P, H), np.int8)
    base_used = np.zeros(P, np.int64)
    shown = np.zeros(P, np.int64)
    for q in range(P):
        for t in range(s):
            for m in range(M):
                c = cards_pub[t, q, m]
                if c >= 0:
                    seen[c] = True
                    if q != seat:
                        hands[q, shown[q]] = c
                        base_used[q] |= 1 << shown[q]
                        shown[q] += 1
    hands[seat] = hand
    base_used[seat] = used
    pool = np.empty(N_CARDS, np.int8)
    n_pool = 0
    for c in range(N_CARDS):
        if not seen[c]:
            pool[n_pool] = c
            n_pool += 1
    # sets already won this round count towards the bonus
    won_before = np.zeros(P, np.int64)
    totals = np.zeros(P, np.int64)
    won = np.zeros(P, np.bool_)
    for t in range(s):
        for q in range(P):
            tot = 0
            for m in range(M):
                c = cards_pub[t, q, m]
                if c >= 0:
                    tot += ranks[c, turned[t]]
            totals[q] = tot
        set_winners(totals, call, all_tied, won)
        for q in range(P):
            won_before[q] += won[q]
    actions = np.zeros(1 << H, np.int64)
    n_act = 0
    for m in range(1, 1 << H):
        if legal_choice(m, used, H, s, S, C, lo, hi):
            actions[n_act] = m
            n_act += 1
    value = np.zeros(n_act)
    draws = np.empty(S, np.int64)
    for t in range(s):
        draws[t] = turned[t]
    probs = np.empty(3)
    left = np.empty(3, np.int64)
    first_moves = np.zeros(P, np.int64)
    sim_used = np.zeros(P, np.int64)
    sim_won = np.zeros(P, np.int64)
    team_pts = np.zeros(team_of.max() + 1)
    scr_e = np.empty(H)
    scr_m = np.empty(H)
    D = deck.sum()
    for k in range(n_samples):
        uk = u[k]
        ui = 0
        need = 0  # the unseen cards, shuffled as far as the other hands need
        for q in range(P):
            if q != seat:
                need += H - shown[q]
        for i in range(need):
            j = i + int(uk[ui] * (n_pool - i))
            ui += 1
            c = pool[j]
            pool[j] = pool[i]
            pool[i] = c
        i = 0
        for q in range(P):
            if q != seat:
                for h in range(shown[q], H):
                    hands[q, h] = pool[i]
                    i += 1
        for c in range(3):
            left[c] = deck[c]
        for t in range(min(s, D)):
            left[draws[t]] -= 1
        for t in range(s, S):
            if reuse and t >= D:
                draws[t] = draws[t - D]
            else:
                n_left = left.sum()
                x = int(uk[ui] * n_left)
                ui += 1
                c = 0
                while x >= left[c]:
                    x -= left[c]
                    c += 1
                draws[t] = c
                left[c] -= 1
        next_category_probs(deck, draws, s, reuse, probs)
        for q in range(P):  # the others' choices on this set do not depend on ours
            if q != seat:
                first_moves[q] = _heuristic_choice(
                    hands, q, base_used[q], call, s, S, C, lo, hi, probs[0], probs[1], probs[2],
                    roll_single[call], roll_reserve[call], uk[ui + q], ranks, scr_e, scr_m)
        for a in range(n_act):
            for q in range(P):
                sim_used[q] = base_used[q]
                sim_won[q] = won_before[q]
            first_moves[seat] = actions[a]
            for t in range(s, S):
                if t > s:
                    next_category_probs(deck, draws, t, reuse, probs)
                for q in range(P):
                    mv = first_moves[q] if t == s else _heuristic_choice(
                        hands, q, sim_used[q], call, t, S, C, lo, hi, probs[0], probs[1], probs[2],
                        roll_single[call], roll_reserve[call], uk[ui + (t - s) * P + q], ranks,
                        scr_e, scr_m)
                    tot = 0
                    for h in range(H):
                        if (mv >> h) & 1:
                            tot += ranks[hands[q, h], draws[t]]
                    totals[q] = tot
                    sim_used[q] |= mv
                set_winners(totals, call, all_tied, won)
                for q in range(P):
                    sim_won[q] += won[q]
            team_pts[:] = 0.0
            for q in range(P):
                team_pts[team_of[q]] += pts_table[sim_won[q]]
            mine = team_pts[team_of[seat]]
            rival = -1e9
            for t in range(team_pts.size):
                if t != team_of[seat] and team_pts[t] > rival:
                    rival = team_pts[t]
            value[a] += mine - rival
        next_category_probs(deck, draws, s, reuse, probs)
    best = 0
    for a in range(1, n_act):
        if value[a] > value[best]:
            best = a
    return actions[best]


@numba.njit(cache=True, nogil=True)
def _mc_kernel(hands, used, seats, games, calls, s, cards_pub, turned, team_of, deck, reuse,
               all_tied, S, C, lo, hi, pts_table, n_samples, u, roll_single, roll_reserve,
               ranks, out):
    for r in range(hands.shape[0]):
        g = games[r]
        out[r] = _mc_row(hands[r], used[r], seats[r], calls[g], s, cards_pub[g], turned[g],
                         team_of, deck, reuse, all_tied, S, C, lo, hi, pts_table, n_samples,
                         u[r], roll_single, roll_reserve, ranks)


@dataclass
class MonteCarlo:
    """Determinized Monte Carlo: for each legal choice, average the round's outcome (own
    team's points minus the best rival team's) over ``samples`` deals of the unseen cards
    consistent with every card shown so far, and GeoPower draws from the cards not yet turned,
    with everybody (itself included, after this set) playing the ``rollout`` heuristic."""

    samples: int = 64
    rollout: Heuristic = field(default_factory=Heuristic)
    name: str = "mc"

    def act(self, obs: Observation, rng: np.random.Generator) -> np.ndarray:
        r = obs.rules
        out = np.zeros(len(obs), np.int64)
        P, H, S = r.players, r.cards_dealt, r.sets_per_round
        width = (P - 1) * H + S + P * S
        u = rng.random((len(obs), self.samples, width))
        pts = np.array([w * r.points_per_set + r.bonus[w] for w in range(S + 1)], float)
        _mc_kernel(obs.hand, np.ascontiguousarray(obs.used), obs.seat.astype(np.int64),
                   obs.game.astype(np.int64), obs.call, obs.set_index, obs.cards,
                   obs.turned.astype(np.int64), np.array(r.team_of, np.int64),
                   np.array(r.geopower_deck, np.int64), r.used_to_bottom, r.set_tie == "all-tied",
                   *_rule_ints(r), pts, self.samples, u, np.array(self.rollout.single_at, np.int64),
                   np.array(self.rollout.reserve), RANKS64, out)
        return out


# --------------------------------------------------------------------------------------------
# Learned
# --------------------------------------------------------------------------------------------


def _features(obs: Observation) -> tuple[np.ndarray, np.ndarray]:
    """Features of every (row, candidate mask) pair and the legal mask (R, 2**H).

    Ranks are mirrored under Bottoms Up so that lower is better in every column.
    """
    r = obs.rules
    H = r.cards_dealt
    legal = obs.legal_mask()
    R, A = legal.shape
    calls = obs.call[obs.game].astype(int)
    rk = RANKS[obs.hand].astype(float)  # (R, H, 3)
    rk = np.where(calls[:, None, None] == TOP_DOG, rk, 51 - rk)
    p = obs.probs()
    e = (rk * p[:, None, :]).sum(axis=2)  # (R, H)
    bits = ((np.arange(A)[:, None] >> np.arange(H)[None, :]) & 1).astype(float)  # (A, H)
    free = 1 - ((obs.used[:, None].astype(np.int64) >> np.arange(H)[None, :]) & 1)  # (R, H)
    k = bits.sum(axis=1)
    cat_tot = np.einsum("ah,rhc->rac", bits, rk)  # (R, A, 3)
    possible = p > 0
    worst = np.where(possible[:, None, :], cat_tot, -np.inf).max(axis=2)
    exp_tot = cat_tot @ p[..., None]
    rest = free[:, None, :] * (1 - bits[None])  # cards kept after this choice
    n_rest = rest.sum(axis=2)
    rest_mean = (rest * e[:, None, :]).sum(axis=2) / np.maximum(n_rest, 1)
    rest_min = np.where(rest > 0, e[:, None, :], 99).min(axis=2)
    shown = (obs.cards[obs.game] >= 0).sum(axis=(1, 3))  # (R, P) cards shown per seat
    opp_small = ((shown < obs.set_index * r.max_cards_per_set).sum(axis=1)
                 - (shown[np.arange(R), obs.seat] < obs.set_index * r.max_cards_per_set))
    cols = [
        np.broadcast_to(calls[:, None], (R, A)), np.full((R, A), obs.set_index),
        np.broadcast_to(k[None], (R, A)), exp_tot[..., 0] / np.maximum(k, 1)[None], worst,
        cat_tot.min(axis=2), rest_mean, rest_min, n_rest,
        np.broadcast_to(opp_small[:, None] / (r.players - 1), (R, A)),
        np.full((R, A), r.players),
    ]
    return np.stack([np.asarray(c, float) for c in cols], axis=2), legal


class _Explorer:
    """Data collection: the base policy everywhere except one random set per round, where a
    random legal choice is taken and its features are logged."""

    name = "explorer"

    def __init__(self, base, explore_at: np.ndarray):
        self.base, self.explore_at, self.log = base, explore_at, []

    def act(self, obs, rng):
        out = self.base.act(obs, rng)
        pick = self.explore_at[obs.game] == obs.set_index
        if pick.any():
            X, legal = _features(obs)
            noise = rng.random(legal.shape) * legal
            choice = noise.argmax(axis=1)
            out = np.where(pick, choice, out)
            rows = np.flatnonzero(pick)
            self.log.append((obs.game[rows], obs.seat[rows], X[rows, choice[rows]]))
        return out


@dataclass
class Learned:
    """A fitted action-value model: gradient-boosted trees predict the round margin (own team's
    points minus the best rival's) of a set choice from hand-crafted features, trained on
    simulated rounds where the rest of the table plays ``base``; acts greedily on it."""

    base: Heuristic = field(default_factory=Heuristic)
    rounds: int = 20000
    max_iter: int = 100
    random_state: int = 0
    name: str = "learned"

    def fit(self, rules: Rules) -> "Learned":
        from sklearn.ensemble import HistGradientBoostingRegressor
        from threadpoolctl import threadpool_limits

        rules = rules.validate()
        rng = np.random.default_rng(self.random_state)
        from geolab.games.jumbled import deal

        X, y = [], []
        team = np.array(rules.team_of)
        for _ in range(max(1, self.rounds // 4096)):
            n = min(4096, self.rounds)
            hands, order = deal(rules, rng, n)
            explorer = _Explorer(self.base, rng.integers(0, rules.sets_per_round, n))
            seats = [explorer] + [self.base] * (rules.players - 1)
            rnd = play_round_batch(rules, seats, [RandomCall()] * rules.players, hands, order,
                                   np.zeros((n, rules.players), np.int64),
                                   np.zeros(n, np.int64), 0, rng)
            pts = rnd.points().astype(float)
            team_pts = np.stack([pts[:, team == t].sum(axis=1) for t in range(rules.n_teams)], 1)
            for g, seat, feats in explorer.log:
                mine = team_pts[g, team[seat]]
                rivals = np.where(np.arange(rules.n_teams)[None] == team[seat][:, None], -np.inf, team_pts[g])
                X.append(feats)
                y.append(mine - rivals.max(axis=1))
        with threadpool_limits(1):  # small data: threads only wait on each other (and on the lab's workers)
            self.model_ = HistGradientBoostingRegressor(max_iter=self.max_iter, random_state=self.random_state).fit(
                np.concatenate(X), np.concatenate(y))
        self.rules_ = rules
        return self

    def act(self, obs: Observation, rng: np.random.Generator) -> np.ndarray:
        if not hasattr(self, "model_"):
            raise GeolabError("the learned bot must be fitted (Learned().fit(rules)) before it plays")
        from threadpoolctl import threadpool_limits

        X, legal = _features(obs)
        R, A, F = X.shape
        with threadpool_limits(1):
            q = self.model_.predict(X.reshape(R * A, F)).reshape(R, A)
        return np.where(legal, q, -np.inf).argmax(axis=1)

    def save(self, path) -> None:
        meta = {"rules": self.rules_.to_dict(), "rounds": self.rounds, "random_state": self.random_state}
        with open(path, "wb") as f:
            pickle.dump({"model": self.model_, "meta": meta}, f)


# --------------------------------------------------------------------------------------------
# Names for the command line
# --------------------------------------------------------------------------------------------


def make_bot(spec: str, rules: Rules):
    """A set policy from a name: random, heuristic, reserve, first, middle, last, mc,
    mc:SAMPLES, learned, learned:ROUNDS."""
    name, _, arg = spec.partition(":")
    try:
        if name == "random" and not arg:
            return RandomBot()
        if name in HEURISTICS and not arg:
            return HEURISTICS[name]
        if name == "mc":
            n = int(arg) if arg else 64
            if n < 1:
                raise ValueError
            return MonteCarlo(samples=n, name=spec)
        if name == "learned":
            n = int(arg) if arg else 20000
            if n < 1:
                raise ValueError
            return Learned(rounds=n, name=spec).fit(rules)
    except ValueError:
        raise GeolabError(f"bad bot {spec!r}: the number after ':' must be a positive integer") from None
    known = ", ".join(["random", *HEURISTICS, "mc[:N]", "learned[:N]"])
    raise GeolabError(f"unknown bot {spec!r} (known: {known})")


def make_caller(spec: str):
    """A dealer-call policy from a name: random, top-dog, bottoms-up, race."""
    if spec == "random":
        return RandomCall()
    if spec in ("top-dog", "bottoms-up"):
        return FixedCall(spec)
    if spec == "race":
        return RaceCall()
    raise GeolabError(f"unknown call policy {spec!r} (known: random, top-dog, bottoms-up, race)")

