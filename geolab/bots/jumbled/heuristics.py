"""Set policies for Jumbled GeoPower Choice: batched ``act(obs, rng) -> slot masks``.

Every set policy sees a `geolab.games.jumbled.observations.Observation` and returns one uint
slot mask per row. Kernels are compiled with numba (``nogil`` so blocks can run on threads)
and draw their randomness only from uniforms taken from the ``rng`` they are handed; the one
exception, `heuristic_block`, deals and plays whole rounds from per-round counter streams and
can hand back every uniform it drew, so the step-by-step engine can replay its decisions.
This module holds the random bot, the rule-of-thumb `Heuristic` family and its fused
whole-round kernels.
"""

from __future__ import annotations

import functools
import threading
from dataclasses import dataclass

import numba
import numpy as np

from geolab.cards import N_CARDS
from geolab.common.bits import popcount
from geolab.common.counter_rng import LOW32, below32, draw64, game_stream
from geolab.games.jumbled.batch import deal_game, legal_choice, next_category_probs
from geolab.games.jumbled.observations import Observation
from geolab.games.jumbled.rules import RANKS64, Rules, call_index

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
def heuristic_choice(hands, r, used, call, s, limits, p0, p1, p2, single_at, reserve, u, ranks, e, m):
    """One decision of the rule-of-thumb family (see `Heuristic`) for the hand in row ``r``,
    given the chances p0..p2 of each category and the rules' ``limits`` (`rule_ints`); ``e``
    and ``m`` are scratch rows. Returns a slot mask. O(hand size), no allocation, few
    unpredictable branches: it runs in the hot loop."""
    S, C, lo, hi = limits
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
def _heuristic_kernel(hands, used, calls, s, limits, probs, single_at, reserve, u, ranks, out):
    e = np.empty(hands.shape[1])
    m = np.empty(hands.shape[1])
    for r in range(hands.shape[0]):
        c = calls[r]
        out[r] = heuristic_choice(hands, r, used[r], c, s, limits, probs[r, 0], probs[r, 1], probs[r, 2],
                                  single_at[c], reserve[c], u[r], ranks, e, m)


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


def rule_ints(rules: Rules) -> tuple[int, int, int, int]:
    """The kernels' ``limits``: sets a round, cards to play, fewest and most cards a set."""
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
                       *rule_ints(obs.rules), rng.random(len(obs)), out)
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
        _heuristic_kernel(obs.hand, np.ascontiguousarray(obs.used), calls, obs.set_index, rule_ints(obs.rules),
                          obs.probs(), np.array(self.single_at, np.int64), np.array(self.reserve),
                          rng.random(len(obs)), RANKS64, out)
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
    `heuristic_choice` picks is the integer minimum.

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
    loop keeps its values in registers. Returns (slot mask, rank total)."""
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
def _heuristic_rounds_kernel(hands, order, calls, u, shape, draws, game, seats_bot, ranks, actions, points):
    """Whole rounds with `Heuristic` at every seat: the same choices as `heuristic_choice`,
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

    The arguments come grouped: ``shape`` = (slots, seats, bare), ``draws`` = (keys, first,
    call_opts), ``game`` = (S, C, lo, hi, deck, reuse, all_tied, pts_table) (`rule_ints`, the
    GeoPower deck, its reuse, the set-tie rule, points by sets won) and ``seats_bot`` =
    (single_at, reserve, tab) (per seat and call, and `_flat_key_tables`).

    ``slots`` and ``seats`` are any tuples of lengths H (the hand size) and P: their lengths
    are part of the compiled type, so each (H, P) gets its own specialisation whose card and
    seat loops have constant trip counts (the card loop fully unrolled).

    ``bare`` is likewise a tuple whose length is a compile-time flag: non-empty for an untraced
    block (``keys`` given; hands, order, u and actions one-row scratch nobody reads), so that
    specialisation has no per-game row selects for them, never stores actions or uniforms and
    has no path for given deals.

    Measurements: docs/perf.md (Jumbled fused round kernels)."""
    slots, seats, bare = shape
    keys, first, call_opts = draws
    S, C, lo, hi, deck, reuse, all_tied, pts_table = game
    single_at, reserve, tab = seats_bot
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


def _run_fused(rules: Rules, bot: Heuristic, hands, order, calls, u, keys, first, call_opts,
               actions, points, bare: bool = False) -> None:
    S, P = rules.sets_per_round, rules.players
    shape = ((0,) * rules.cards_dealt, (0,) * P, (0,) if bare else ())
    game = (*rule_ints(rules), np.array(rules.geopower_deck, np.int64), rules.used_to_bottom,
            rules.set_tie == "all-tied",
            np.array([w * rules.points_per_set + rules.bonus[w] for w in range(S + 1)], np.int64))
    seats_bot = (np.array([bot.single_at] * P, np.int64), np.array([bot.reserve] * P),
                 _flat_key_tables(tuple(rules.geopower_deck), S, rules.used_to_bottom))
    _heuristic_rounds_kernel(hands, order, calls, u, shape, (keys, first, call_opts), game, seats_bot, RANKS64,
                             actions, points)


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


def heuristic_rounds(rules: Rules, bot: Heuristic, hands, order, calls, rng,
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


def heuristic_block(rules: Rules, bot: Heuristic, n: int, deal_key, play_key, first: int = 0,
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
