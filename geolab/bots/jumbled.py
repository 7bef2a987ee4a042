"""Policies for Jumbled GeoPower Choice: batched ``act(obs, rng) -> slot masks``.

Every set policy sees a `geolab.games.jumbled.Observation` and returns one uint slot mask per
row; every dealer-call policy sees a `CallObservation` and returns call indices. Kernels are
compiled with numba (``nogil`` so blocks can run on threads) and draw their randomness only
from uniforms taken from the ``rng`` they are handed.
"""

from __future__ import annotations

import pickle
import threading
from dataclasses import dataclass, field

import numba
import numpy as np

from geolab.cards import N_CARDS, RANKS
from geolab.errors import GeolabError
from geolab.games.jumbled import (
    RANKS64, TOP_DOG, CallObservation, Observation, Rules, call_index, legal_choice,
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
    card, computed once per batch as (states, call, kind, N_CARDS) integers: kind 0 the
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
def _heuristic_rounds_kernel(hands, order, calls, S, C, lo, hi, deck, reuse, all_tied, single_at,
                             reserve, u, pts_table, ranks, actions, points):
    """Whole rounds with `Heuristic` at every seat: the same choices as `_heuristic_choice`,
    with each card's key looked up in per-batch tables (`_key_tables`) instead of computed at
    every decision, and the picks found by branch-free integer minima; no allocation inside
    the loop over games."""
    G, P, H = hands.shape
    D = order.shape[1]
    keep = actions.shape[0] == G  # otherwise a one-game scratch row: only points are wanted
    tab = _key_tables(deck, S, reuse, ranks)
    d1, d2 = min(deck[1], S - 1) + 1, min(deck[2], S - 1) + 1
    base = (min(deck[0], S - 1) + 1) * d1 * d2
    draws = np.empty(S, np.int64)
    used = np.zeros(P, np.int64)
    n_played = np.zeros(P, np.int64)
    totals = np.zeros(P, np.int64)
    n_won = np.zeros(P, np.int64)
    key = np.empty(H, np.int64)
    big = np.int64(1) << 40
    for g in range(G):
        call = calls[g]
        sign = 1 if call == 0 else -1
        for t in range(S):
            draws[t] = order[g, t % D]
        used[:] = 0
        n_played[:] = 0
        n_won[:] = 0
        x0 = x1 = x2 = 0
        for t in range(S):
            if reuse and t >= D:
                st = base + draws[t - D]
            else:
                st = (x0 * d1 + x1) * d2 + x2
            cat = draws[t]
            after = S - t - 1
            for q in range(P):
                uq = used[q]
                left = C - n_played[q]
                kmin = max(lo, left - after * hi)
                kmax = min(hi, left - after * lo)
                sa = single_at[q, call]
                if sa >= 0:
                    small = t == sa
                else:
                    small = u[t, g, q] * (S - t) < 1.0
                k = kmin if small else kmax
                row = tab[st, call, np.int64(small)]
                if k <= 2 and not reserve[q, call]:
                    v1, v2 = big, big  # the two lowest (key | slot), branch-free
                    for i in range(H):
                        x = row[hands[g, q, i]] | i
                        x = big if (uq >> i) & 1 else x
                        lo1 = min(v1, x)
                        v2 = min(v2, max(v1, x))
                        v1 = lo1
                    p1, p2 = v1 & 15, v2 & 15
                    mv = 1 << p1
                    tot = ranks[hands[g, q, p1], cat]
                    if k == 2:
                        mv |= 1 << p2
                        tot += ranks[hands[g, q, p2], cat]
                else:
                    for i in range(H):
                        key[i] = big if (uq >> i) & 1 else row[hands[g, q, i]] | i
                    if reserve[q, call] and not small and (left - k) < after * hi:
                        ev_row = tab[st, call, 1]
                        best, n_free = big, 0
                        for i in range(H):
                            if not (uq >> i) & 1:
                                n_free += 1
                                best = min(best, ev_row[hands[g, q, i]] | i)
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
                        tot += ranks[hands[g, q, pick], cat]
                actions[g if keep else 0, t, q] = mv
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


_SCRATCH = threading.local()


def _scratch_uniforms(n: int) -> np.ndarray:
    """A reused per-thread float buffer of n values (fresh multi-megabyte arrays for every
    block cost page faults); its contents are overwritten by the caller at once."""
    buf = getattr(_SCRATCH, "u", None)
    if buf is None or buf.size < n:
        buf = _SCRATCH.u = np.empty(n)
    return buf[:n]


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
    pts = np.array([w * rules.points_per_set + rules.bonus[w] for w in range(S + 1)], np.int64)
    _heuristic_rounds_kernel(hands, order, np.ascontiguousarray(calls, np.int8), *_rule_ints(rules),
                             np.array(rules.geopower_deck, np.int64), rules.used_to_bottom,
                             rules.set_tie == "all-tied", np.array([bot.single_at] * P, np.int64),
                             np.array([bot.reserve] * P), u, pts, RANKS64, actions, points)
    return (actions if keep_actions else None), points


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
    if spec == "random":
        return RandomCall()
    if spec in ("top-dog", "bottoms-up"):
        return FixedCall(spec)
    raise GeolabError(f"unknown call policy {spec!r} (known: random, top-dog, bottoms-up)")

