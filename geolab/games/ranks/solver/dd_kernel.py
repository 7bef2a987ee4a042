"""Compiled core of the perfect-information (double dummy) Play the Ranks solver.

Why it is shaped this way:

* **Additive value.** Who wins a deal depends only on how many tricks each side takes and,
  at equal counts, who took the last trick (the early stop at ``end_at`` never changes the
  winner). So each trick is worth a weight to side A (2 per trick, 3 for the last trick when
  it breaks ties) and the winner is a monotone function of the weighted total. The value of
  the *remaining* tricks then depends only on the cards left and who leads, never on the
  score, so one transposition table serves every score and every question asked of a deal.
* **Boolean tests.** The search answers "can A reach at least g from here?" (a null-window
  alpha-beta). Exact values come from a few such tests; the table keeps lower and upper
  bounds of the exact value, valid for every later test on the same deal.
* **Direct-indexed table.** A state is (A's remaining cards, B's remaining cards, leader) as
  bitmasks over the two root hands, so the table is a plain array of 2^(2n+1) entries: no
  hashing, no collisions (n <= 10 cards a side).
* **No recursion.** The search keeps an explicit stack of frames, one per trick: numba's
  on-disk cache has crashed on recursive jitted functions, and without the cache every process
  compiles the search again. All functions here are ``cache=True``.
* **Pruning that mattered:** cards of one hand that compare the same way against every
  remaining opposing card in every category/base still to come are interchangeable (only
  one of them is tried); a lead whose set of beating answers is a superset of another lead
  of the same card is dominated; the leader's sure tricks bound the value; the last two
  tricks are scored exactly without search; leads are ordered by how few answers beat them.
  When a lead is valued on its own (`probe`), all its answers are first checked against the
  table and the bounds, so an answer that refutes it at once is found before any search.
* **Cost per position:** loops visit set bits only, the lowest found by a trailing-zero count
  (`_low`: one popcount, not a loop); answers come from each side's cards ordered weakest
  first once per deal (those that beat the lead, then the rest), not sorted per lead; leads
  are sorted as row numbers. Each array handed to an inlined helper would be an atomic
  reference-count increment and decrement, the biggest cost left, so `test` works on borrowed
  arrays (`_borrowed`); the helpers stay inlined. The batch kernels release the GIL, so a
  caller may run batches on threads.
* **Work limit.** Every position looked at spends one unit of `work[0]`; when it runs out a
  test says UNKNOWN and the search unwinds without storing anything, so a caller with a time
  cap gets "don't know" for a deal, never a wrong value.

Measurements and rejected variants: docs/perf.md (Solver).

Sides: 0 = A, 1 = B. Values are always from A's point of view.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.extending import intrinsic
from numba.np.arrayobj import populate_array

UNKNOWN_UB = 127  # "no upper bound stored" (values are at most 3 * tricks)
UNKNOWN = -1  # a test cut short by the work limit: neither yes (1) nor no (0)
UNKNOWN_LEVEL = -9  # `level` / batch outputs for a deal the work limit cut short
NO_LIMIT = 1 << 62  # a work budget that never runs out


@njit(cache=True, inline="always")
def popcount(x):
    """Bits set in a non-negative int64 (SWAR, no loop)."""
    v = np.uint64(x)
    v = v - ((v >> np.uint64(1)) & np.uint64(0x5555555555555555))
    v = (v & np.uint64(0x3333333333333333)) + ((v >> np.uint64(2)) & np.uint64(0x3333333333333333))
    v = (v + (v >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((v * np.uint64(0x0101010101010101)) >> np.uint64(56))


@intrinsic
def _borrowed(typingctx, arr):
    """The same array without its reference count: every array the search passes to an inlined
    helper was an atomic increment and decrement (most of the cost of a position); on a
    borrowed one they are no-ops. Only for arrays that outlive the borrower (the context)."""

    def codegen(context, builder, sig, args):
        src = context.make_array(sig.args[0])(context, builder, value=args[0])
        out = context.make_array(sig.return_type)(context, builder)
        populate_array(out, data=src.data, shape=src.shape, strides=src.strides, itemsize=src.itemsize, meminfo=None)
        return out._getvalue()

    return arr(arr), codegen


@njit(cache=True)
def build(ca, cb, T, w, tb, nb, follow_ties, ranks, work):
    """Per-deal tables for root hands `ca`, `cb` (global card ids, same length n).

    `w[t]`: weight of trick t to its winner; `tb[t, :nb[t]]`: the bases allowed at trick t.
    `work[0]`: the work budget left (positions searched), shared by every test on the context.
    Returns the context tuple every other function takes.
    """
    n = ca.shape[0]
    t0 = T - n
    cards = np.empty((2, n), np.int64)
    cards[0, :] = ca
    cards[1, :] = cb
    # distinct bases still to come
    uvals = np.empty(64, np.int64)
    U = 0
    for t in range(t0, T):
        for j in range(nb[t]):
            b = tb[t, j]
            found = False
            for u in range(U):
                if uvals[u] == b:
                    found = True
            if not found:
                uvals[U] = b
                U += 1
    maxnb = tb.shape[1]
    bidx = np.zeros((T, maxnb), np.int64)
    for t in range(t0, T):
        for j in range(nb[t]):
            for u in range(U):
                if uvals[u] == tb[t, j]:
                    bidx[t, j] = u
    # winmask[s, u, k, i]: opposing cards that s's card i beats when s leads it in k at base u
    winmask = np.zeros((2, U, 3, n), np.int64)
    for s in range(2):
        for u in range(U):
            b = uvals[u]
            for k in range(3):
                for i in range(n):
                    dl = abs(ranks[cards[s, i], k] - b)
                    m = 0
                    for j in range(n):
                        df = abs(ranks[cards[1 - s, j], k] - b)
                        follower_wins = df < dl or (df == dl and follow_ties)
                        if not follower_wins:
                            m |= 1 << j
                    winmask[s, u, k, i] = m
    anywin = np.zeros((2, T, n), np.int64)
    for s in range(2):
        for t in range(t0, T):
            for i in range(n):
                m = 0
                for j in range(nb[t]):
                    for k in range(3):
                        m |= winmask[s, bidx[t, j], k, i]
                anywin[s, t, i] = m
    # comparison views (category, base); bases 1 and 50 give the same order (reversed)
    vkey = np.empty(3 * 64, np.int64)
    V = 0
    view_of = np.zeros((U, 3), np.int64)
    for u in range(U):
        b = uvals[u]
        bk = 0 if (b == 1 or b == 50) else b
        for k in range(3):
            key = bk * 3 + k
            found = -1
            for v in range(V):
                if vkey[v] == key:
                    found = v
            if found < 0:
                vkey[V] = key
                found = V
                V += 1
            view_of[u, k] = found
    dview = np.zeros((2, V, n), np.int64)
    for v in range(V):
        bk = vkey[v] // 3
        k = vkey[v] % 3
        for s in range(2):
            for i in range(n):
                r = ranks[cards[s, i], k]
                dview[s, v, i] = r - 1 if bk == 0 else abs(r - bk)
    viewfrom = np.zeros(T + 1, np.int64)
    for t in range(T - 1, t0 - 1, -1):
        m = viewfrom[t + 1]
        for j in range(nb[t]):
            for k in range(3):
                m |= 1 << view_of[bidx[t, j], k]
        viewfrom[t] = m
    remw = np.zeros(T + 1, np.int64)
    for t in range(T - 1, -1, -1):
        remw[t] = remw[t + 1] + w[t]
    # static strength of a card, for move ordering only
    power = np.zeros((2, n), np.int64)
    for s in range(2):
        for i in range(n):
            p = 0
            for u in range(U):
                for k in range(3):
                    p += popcount(winmask[s, u, k, i])
            power[s, i] = p
    # each side's cards from weakest to strongest (ties: lower slot first), for answer ordering
    porder = np.zeros((2, n), np.int64)
    for s in range(2):
        for i in range(n):
            b = i - 1
            while b >= 0 and power[s, porder[s, b]] > power[s, i]:
                porder[s, b + 1] = porder[s, b]
                b -= 1
            porder[s, b + 1] = i
    size = 1 << (2 * n + 1)
    lb = np.zeros(size, np.int8)
    ub = np.full(size, UNKNOWN_UB, np.int8)
    D = n + 1
    M = n * 3 * maxnb
    fr = np.zeros((D, 10), np.int64)  # per-frame scalars, see FRAME_* below
    leads = np.zeros((D, M, 5), np.int64)  # card, category, base slot, beaters mask, order key
    lorder = np.zeros((D, M), np.int64)  # the rows of `leads` in the order they are tried
    follows = np.zeros((D, n), np.int64)
    ints = np.array([n, T], np.int64)
    keys = np.zeros(n, np.int64)  # scratch for `representatives`
    return (ints, w, nb, bidx, winmask, anywin, dview, viewfrom, remw, power, lb, ub, fr, leads, follows, keys, work,
            porder, lorder)


# frame scalar slots
F_SA, F_SB, F_LEADER, F_G, F_NM, F_MI, F_NF, F_FI, F_FREP = 0, 1, 2, 3, 4, 5, 6, 7, 8


@njit(cache=True, inline="always")
def _index(n, sA, sB, leader):
    return (((sA << n) | sB) << 1) | leader


@njit(cache=True, inline="always")
def _low(m):
    """Index of the lowest set bit of m > 0 (a trailing-zero count: popcount is one instruction)."""
    return popcount((m & -m) - 1)


# The hot helpers below take arrays one by one (not the context tuple): numba pays for every
# array taken out of a tuple, and these run millions of times.
@njit(cache=True, inline="always")
def last1(T, w, anywin, sA, sB, leader):
    """Exact value (to A) of the last trick: one card each."""
    t = T - 1
    own = sA if leader == 0 else sB
    opp = sB if leader == 0 else sA
    i = _low(own)
    leader_wins = (anywin[leader, t, i] & opp) != 0
    winner = leader if leader_wins else 1 - leader
    return w[t] if winner == 0 else 0


@njit(cache=True, inline="always")
def last2(T, w, nb, bidx, winmask, anywin, sA, sB, leader):
    """Exact value (to A) of the last two tricks, without search."""
    t = T - 2
    s = leader
    own = sA if s == 0 else sB
    opp = sB if s == 0 else sA
    best = -1
    j1 = _low(opp)
    j2 = _low(opp & ~(1 << j1))
    rest = own
    while rest:
        i = _low(rest)
        rest &= rest - 1
        x2 = _low(own & ~(1 << i))
        seen = 0  # which of the 4 beat patterns over the two answers were tried for this card
        for bj in range(nb[t]):
            u = bidx[t, bj]
            for k in range(3):
                beats = winmask[s, u, k, i] & opp
                pattern = ((beats >> j1) & 1) | (((beats >> j2) & 1) << 1)
                if (seen >> pattern) & 1:
                    continue
                seen |= 1 << pattern
                worst = 1 << 30
                for j in (j1, j2):
                    y2 = j2 if j == j1 else j1
                    if (beats >> j) & 1:
                        val = w[t] + (w[t + 1] if (anywin[s, t + 1, x2] >> y2) & 1 else 0)
                    else:
                        val = 0 if (anywin[1 - s, t + 1, y2] >> x2) & 1 else w[t + 1]
                    if val < worst:
                        worst = val
                if worst > best:
                    best = worst
    return best if s == 0 else w[t] + w[t + 1] - best


@njit(cache=True, inline="always")
def sure_tricks(T, w, nb, bidx, winmask, sA, sB, leader):
    """Weight of the tricks the leader wins by leading, in turn, cards no answer can beat."""
    s = leader
    own = sA if s == 0 else sB
    opp = sB if s == 0 else sA
    t = T - popcount(own)
    total = 0
    used = 0
    while t < T:
        found = -1
        rest = own & ~used
        while rest:
            i = _low(rest)
            rest &= rest - 1
            for bj in range(nb[t]):
                u = bidx[t, bj]
                for k in range(3):
                    if (opp & ~winmask[s, u, k, i]) == 0:
                        found = i
                        break
                if found >= 0:
                    break
            if found >= 0:
                break
        if found < 0:
            break
        used |= 1 << found
        total += w[t]
        t += 1
    return total


@njit(cache=True, inline="always")
def quick(n, T, w, nb, bidx, winmask, anywin, remw, lb, ub, sA, sB, leader, g):
    """1 if A surely reaches g from this lead node, 0 if surely not, -1 if a search is needed."""
    left = popcount(sA)
    t = T - left
    if g <= 0:
        return 1
    if g > remw[t]:
        return 0
    idx = _index(n, sA, sB, leader)
    if lb[idx] >= g:
        return 1
    if ub[idx] < g:
        return 0
    if left == 1:
        return 1 if last1(T, w, anywin, sA, sB, leader) >= g else 0
    if left == 2:
        return 1 if last2(T, w, nb, bidx, winmask, anywin, sA, sB, leader) >= g else 0
    q = sure_tricks(T, w, nb, bidx, winmask, sA, sB, leader)
    if leader == 0:
        if q >= g:
            return 1
    elif remw[t] - q < g:
        return 0
    return -1


@njit(cache=True, inline="always")
def representatives(dview, viewfrom, keys, s, own, opp, t):
    """A mask of `own` holding one card of each class of interchangeable cards.

    Two cards of one hand are interchangeable when no opposing card lies between them (or
    level with either) in any category/base order still to be played: then each wins and
    loses against exactly the same opposing cards, whoever leads.
    """
    rest = own
    while rest:
        keys[_low(rest)] = 0
        rest &= rest - 1
    vm = viewfrom[t]
    while vm:
        v = _low(vm)
        vm &= vm - 1
        oppd = 0
        rest = opp
        while rest:
            oppd |= 1 << dview[1 - s, v, _low(rest)]
            rest &= rest - 1
        rest = own
        while rest:
            i = _low(rest)
            rest &= rest - 1
            if keys[i] >= 0:
                dd = dview[s, v, i]
                if (oppd >> dd) & 1:
                    keys[i] = -1  # level with an opposing card: interchangeable with nothing
                else:
                    keys[i] = keys[i] * 16 + popcount(oppd & ((1 << dd) - 1))
    reps = 0
    rest = own
    while rest:
        i = _low(rest)
        rest &= rest - 1
        dup = False
        if keys[i] >= 0:
            r = reps
            while r:
                if keys[_low(r)] == keys[i]:
                    dup = True
                    break
                r &= r - 1
        if not dup:
            reps |= 1 << i
    return reps


@njit(cache=True, inline="always")
def _gen_leads(n, T, nb, bidx, winmask, power, dview, viewfrom, keys, fr, leads, lorder, d):
    sA, sB, s = fr[d, F_SA], fr[d, F_SB], fr[d, F_LEADER]
    own = sA if s == 0 else sB
    opp = sB if s == 0 else sA
    t = T - popcount(own)
    reps = representatives(dview, viewfrom, keys, s, own, opp, t)
    fr[d, F_FREP] = representatives(dview, viewfrom, keys, 1 - s, opp, own, t)
    m = 0
    for i in range(n):
        if not (reps >> i) & 1:
            continue
        first = m
        for bj in range(nb[t]):
            u = bidx[t, bj]
            for k in range(3):
                beat = opp & ~winmask[s, u, k, i]
                keep = True
                q = first
                while q < m:  # a lead of the same card beaten by fewer answers dominates
                    other = leads[d, q, 3]
                    if (other & beat) == other:
                        keep = False
                        break
                    if (beat & other) == beat:
                        m -= 1
                        for f in range(5):
                            leads[d, q, f] = leads[d, m, f]
                    else:
                        q += 1
                if keep:
                    leads[d, m, 0] = i
                    leads[d, m, 1] = k
                    leads[d, m, 2] = bj
                    leads[d, m, 3] = beat
                    leads[d, m, 4] = popcount(beat) * 4096 + power[s, i]
                    m += 1
    # order: fewest beating answers first, then the weaker card (a stable sort of row numbers)
    for a in range(m):
        c4 = leads[d, a, 4]
        b = a - 1
        while b >= 0 and leads[d, lorder[d, b], 4] > c4:
            lorder[d, b + 1] = lorder[d, b]
            b -= 1
        lorder[d, b + 1] = a
    fr[d, F_NM] = m
    fr[d, F_MI] = 0


@njit(cache=True, inline="always")
def _start_lead(n, porder, fr, leads, lorder, follows, d):
    """Order the follower's candidate answers to the current lead: cheap winners first (the
    weakest first among the answers that beat it, then among the others; no sort needed)."""
    f = 1 - fr[d, F_LEADER]
    beat = leads[d, lorder[d, fr[d, F_MI]], 3]
    reps = fr[d, F_FREP]
    m = 0
    for part in (reps & beat, reps & ~beat):
        for p in range(n):
            j = porder[f, p]
            if (part >> j) & 1:
                follows[d, m] = j
                m += 1
    fr[d, F_NF] = m
    fr[d, F_FI] = 0


@njit(cache=True)
def test(ctx, sA, sB, leader, g):
    """1 if A can make the remaining tricks worth at least `g` to it (both sides best), else 0;
    UNKNOWN once the work budget `work[0]` runs out (one unit per position looked at)."""
    ints, w, nb, bidx = _borrowed(ctx[0]), _borrowed(ctx[1]), _borrowed(ctx[2]), _borrowed(ctx[3])
    winmask, anywin, dview, viewfrom = _borrowed(ctx[4]), _borrowed(ctx[5]), _borrowed(ctx[6]), _borrowed(ctx[7])
    remw, power, lb, ub = _borrowed(ctx[8]), _borrowed(ctx[9]), _borrowed(ctx[10]), _borrowed(ctx[11])
    fr, leads, follows, keys = _borrowed(ctx[12]), _borrowed(ctx[13]), _borrowed(ctx[14]), _borrowed(ctx[15])
    work, porder, lorder = _borrowed(ctx[16]), _borrowed(ctx[17]), _borrowed(ctx[18])
    n, T = ints[0], ints[1]
    if work[0] < 0:
        return UNKNOWN
    r = quick(n, T, w, nb, bidx, winmask, anywin, remw, lb, ub, sA, sB, leader, g)
    if r >= 0:
        return r
    d = 0
    nA, nB, winner, g2 = sA, sB, leader, g
    while True:
        # open a frame for the lead node (nA, nB, winner) that needs g2
        fr[d, F_SA] = nA
        fr[d, F_SB] = nB
        fr[d, F_LEADER] = winner
        fr[d, F_G] = g2
        _gen_leads(n, T, nb, bidx, winmask, power, dview, viewfrom, keys, fr, leads, lorder, d)
        _start_lead(n, porder, fr, leads, lorder, follows, d)
        while True:
            # the next (lead, answer) pair of frame d
            s = fr[d, F_LEADER]
            mi = lorder[d, fr[d, F_MI]]
            i = leads[d, mi, 0]
            j = follows[d, fr[d, F_FI]]
            leader_wins = not ((leads[d, mi, 3] >> j) & 1)
            if s == 0:
                nA = fr[d, F_SA] & ~(1 << i)
                nB = fr[d, F_SB] & ~(1 << j)
            else:
                nB = fr[d, F_SB] & ~(1 << i)
                nA = fr[d, F_SA] & ~(1 << j)
            winner = s if leader_wins else 1 - s
            t = T - popcount(fr[d, F_SA])
            g2 = fr[d, F_G] - (w[t] if winner == 0 else 0)
            work[0] -= 1
            if work[0] < 0:
                return UNKNOWN
            r = quick(n, T, w, nb, bidx, winmask, anywin, remw, lb, ub, nA, nB, winner, g2)
            if r < 0:
                d += 1
                break  # search the child in a new frame
            res = r == 1
            while True:  # hand the result up until some frame has more to try
                p = fr[d, F_LEADER] == 0
                done = False
                frame_res = False
                if res != p:  # this answer refutes the lead: try the next lead
                    fr[d, F_MI] += 1
                    if fr[d, F_MI] == fr[d, F_NM]:
                        frame_res = not p
                        done = True
                    else:
                        _start_lead(n, porder, fr, leads, lorder, follows, d)
                else:
                    fr[d, F_FI] += 1
                    if fr[d, F_FI] == fr[d, F_NF]:  # no answer refutes it: the lead works
                        frame_res = p
                        done = True
                if not done:
                    break
                idx = _index(n, fr[d, F_SA], fr[d, F_SB], fr[d, F_LEADER])
                gg = fr[d, F_G]
                if frame_res:
                    if lb[idx] < gg:
                        lb[idx] = gg
                elif ub[idx] > gg - 1:
                    ub[idx] = gg - 1
                if d == 0:
                    return 1 if frame_res else 0
                d -= 1
                res = frame_res


@njit(cache=True)
def after_trick(ctx, sA, sB, leader, i, k, bj, j):
    """State after the leader leads its card i (category k, base slot bj) and the answer is j.

    Returns (A's cards, B's cards, next leader, value to A of this trick).
    """
    ints, w, bidx, winmask = ctx[0], ctx[1], ctx[3], ctx[4]
    T = ints[1]
    own = sA if leader == 0 else sB
    t = T - popcount(own)
    leader_wins = (winmask[leader, bidx[t, bj], k, i] >> j) & 1
    winner = leader if leader_wins else 1 - leader
    if leader == 0:
        nA, nB = sA & ~(1 << i), sB & ~(1 << j)
    else:
        nA, nB = sA & ~(1 << j), sB & ~(1 << i)
    return nA, nB, winner, (w[t] if winner == 0 else 0)


@njit(cache=True)
def classes(ctx, s, own, opp, rep):
    """rep[i]: the card standing for card i of `own` (side s's cards; interchangeable cards
    share one, so a move is valued once per class). Returns the mask of the standing cards."""
    ints, dview, viewfrom, keys = ctx[0], ctx[6], ctx[7], ctx[15]
    n, T = ints[0], ints[1]
    reps = representatives(dview, viewfrom, keys, s, own, opp, T - popcount(own))
    for i in range(n):
        rep[i] = i
        if (own >> i) & 1 and not (reps >> i) & 1:
            for r in range(i):
                if (reps >> r) & 1 and keys[r] == keys[i]:
                    rep[i] = r
                    break
    return reps


@njit(cache=True)
def probe(ctx, sA, sB, leader, i, k, bj, j, g):
    """Can A reach g: 1 / 0, or UNKNOWN past the work limit. Asked at the lead node (i < 0),
    after the lead (i, k, bj) whatever (B) or however (A) it is answered (j < 0), or after
    that lead and the answer j; the trick on the table counts."""
    if i < 0:
        return test(ctx, sA, sB, leader, g)
    if j >= 0:
        nA, nB, winner, gain = after_trick(ctx, sA, sB, leader, i, k, bj, j)
        return test(ctx, nA, nB, winner, g - gain)
    ints, bidx, winmask, power = ctx[0], ctx[3], ctx[4], ctx[9]
    n = ints[0]
    own = sA if leader == 0 else sB
    opp = sB if leader == 0 else sA
    t = ints[1] - popcount(own)
    reps = representatives(ctx[6], ctx[7], ctx[15], 1 - leader, opp, own, t)
    beat = opp & ~winmask[leader, bidx[t, bj], k, i]
    # one answer per interchangeable class, cheap winners of the trick first
    order = np.empty(n, np.int64)
    okey = np.empty(n, np.int64)
    m = 0
    for x in range(n):
        if (reps >> x) & 1:
            key = power[1 - leader, x] + (0 if (beat >> x) & 1 else 1 << 20)
            b = m - 1
            while b >= 0 and okey[b] > key:
                order[b + 1], okey[b + 1] = order[b], okey[b]
                b -= 1
            order[b + 1], okey[b + 1] = x, key
            m += 1
    # answers the table or the bounds settle come first: one that refutes ends it unsearched
    keep = 0
    for a in range(m):
        nA, nB, winner, gain = after_trick(ctx, sA, sB, leader, i, k, bj, order[a])
        r = quick(n, ints[1], ctx[1], ctx[2], bidx, winmask, ctx[5], ctx[8], ctx[10], ctx[11], nA, nB, winner,
                  g - gain)
        if r < 0:
            order[keep] = order[a]
            keep += 1
        elif (r == 0) == (leader == 0):
            return r
    unknown = False
    for a in range(keep):
        nA, nB, winner, gain = after_trick(ctx, sA, sB, leader, i, k, bj, order[a])
        r = test(ctx, nA, nB, winner, g - gain)
        if r == UNKNOWN:
            unknown = True
        elif (r == 0) == (leader == 0):  # this answer refutes the lead's claim
            return r
    return UNKNOWN if unknown else (1 if leader == 0 else 0)


@njit(cache=True)
def exact(ctx, sA, sB, leader, i, k, bj, j):
    """Exact value to A of the rest of the deal (from where `probe` asks), by bisection over
    tests; UNKNOWN past the work limit."""
    ints, remw = ctx[0], ctx[8]
    own = sA if leader == 0 else sB
    t = ints[1] - popcount(own)
    lo, hi = 0, remw[t]
    while lo < hi:
        mid = (lo + hi + 1) // 2
        r = probe(ctx, sA, sB, leader, i, k, bj, j, mid)
        if r == UNKNOWN:
            return UNKNOWN
        if r == 1:
            lo = mid
        else:
            hi = mid - 1
    return lo


@njit(cache=True)
def level(ctx, sA, sB, leader, i, k, bj, j, need_win, need_draw):
    """Outcome for A (1 win, 0 tie, -1 loss; UNKNOWN_LEVEL past the work limit), asked as in
    `probe`. `need_win` / `need_draw`: the remaining value A needs to win / not to lose."""
    r = probe(ctx, sA, sB, leader, i, k, bj, j, need_win)
    if r == 1:
        return 1
    if r == 0 and need_draw < need_win:
        r = probe(ctx, sA, sB, leader, i, k, bj, j, need_draw)
    if r == UNKNOWN:
        return UNKNOWN_LEVEL
    return 0 if r == 1 else -1


# ----- batches ------------------------------------------------------------------------------
# `work` (one-element array): the work budget of the whole call, spent deal after deal; the
# deals it does not cover read UNKNOWN_LEVEL (or UNKNOWN values). What is left stays in it.
@njit(cache=True, nogil=True)
def solve_many(CA, CB, leaders, need_win, need_draw, T, w, TB, NB, follow_ties, ranks, exact_too, work):
    """For each deal i: outcome level for A (1/0/-1) and, if `exact_too`, the exact value."""
    N = CA.shape[0]
    levels = np.full(N, UNKNOWN_LEVEL, np.int64)
    values = np.full(N, UNKNOWN, np.int64)
    full = (1 << CA.shape[1]) - 1
    # no lead on the table: -1, 0, 0, -1 as runtime int64s, not literals, so that level, exact,
    # probe and after_trick compile once for every batch kernel (a literal argument is a type
    # of its own to numba: each compiled again, about 12 s of a first run)
    none, zero = np.int64(-1), np.int64(0)
    for x in range(N):
        if work[0] < 0:
            break
        y = x if TB.shape[0] > 1 else 0
        ctx = build(CA[x], CB[x], T, w, TB[y], NB[y], follow_ties, ranks, work)
        levels[x] = level(ctx, full, full, leaders[x], none, zero, zero, none, need_win[x], need_draw[x])
        if exact_too:
            values[x] = exact(ctx, full, full, leaders[x], none, zero, zero, none)
    return levels, values


@njit(cache=True, nogil=True)
def score_leads_many(CA, CB, leaders, need_win, need_draw, T, w, TB, NB, follow_ties, ranks, exact_too, wanted, work):
    """Every wanted lead (card slot, category, base slot) of the leader in each deal, scored for A.

    out[x, i, k, bj]: the outcome level (1/0/-1) for A after that lead, or with `exact_too` the
    exact value to A; -99 where the base slot does not exist or wanted[i, k, bj] is False.
    Leads of interchangeable cards with the same beating answers are valued once; without
    `exact_too`, a lead of a card is also settled by the outcome of another lead of the same card
    beaten by a subset (it is no better for the leader) or a superset (no worse) of its answers.
    """
    N, n = CA.shape
    maxnb = TB.shape[2]
    out = np.full((N, n, 3, maxnb), -99, np.int64)
    full = (1 << n) - 1
    rep = np.empty(n, np.int64)
    none = np.int64(-1)  # no answer yet: a runtime int64, as in solve_many
    done = np.empty((n * 3 * maxnb, 3), np.int64)  # valued leads: standing card, beaters, result
    unknown = UNKNOWN if exact_too else UNKNOWN_LEVEL
    for x in range(N):
        y = x if TB.shape[0] > 1 else 0
        t = T - n
        if work[0] < 0:
            for i in range(n):
                for bj in range(NB[y][t]):
                    for k in range(3):
                        if wanted[i, k, bj]:
                            out[x, i, k, bj] = unknown
            continue
        ctx = build(CA[x], CB[x], T, w, TB[y], NB[y], follow_ties, ranks, work)
        s = leaders[x]
        classes(ctx, s, full, full, rep)
        winmask, bidx = ctx[4], ctx[3]
        nd = 0
        for i in range(n):
            for bj in range(NB[y][t]):
                for k in range(3):
                    if not wanted[i, k, bj]:
                        continue
                    r, beat = rep[i], full & ~winmask[s, bidx[t, bj], k, i]
                    lo, hi = -1, 1  # bounds on the leader's outcome (1 win, 0 tie, -1 loss)
                    for e in range(nd):
                        if done[e, 0] != r or done[e, 2] == unknown:
                            continue
                        mine = done[e, 2] if s == 0 else -done[e, 2]
                        if done[e, 1] == beat:
                            lo, hi = mine, mine
                        elif exact_too:
                            continue
                        elif (done[e, 1] & beat) == done[e, 1]:  # fewer beaters: no worse for the leader
                            hi = min(hi, mine)
                        elif (done[e, 1] & beat) == beat:
                            lo = max(lo, mine)
                    if lo == hi:
                        val = lo if s == 0 else -lo
                    elif exact_too:
                        val = exact(ctx, full, full, s, i, k, bj, none)
                    else:
                        val = level(ctx, full, full, s, i, k, bj, none, need_win[x], need_draw[x])
                    out[x, i, k, bj] = val
                    done[nd, 0], done[nd, 1], done[nd, 2] = r, beat, val
                    nd += 1
    return out


@njit(cache=True, nogil=True)
def score_follows_many(CA, CB, leaders, lead_slot, lead_k, lead_bj, need_win, need_draw, T, w, TB, NB,
                       follow_ties, ranks, exact_too, work):
    """Every answer of the follower to a lead on the table, in each deal, scored for A.

    The leader's hand still holds the lead card at `lead_slot`. out[x, j] as in
    `score_leads_many`; interchangeable answers are valued once.
    """
    N, n = CA.shape
    out = np.zeros((N, n), np.int64)
    full = (1 << n) - 1
    rep = np.empty(n, np.int64)
    for x in range(N):
        if work[0] < 0:
            out[x, :] = UNKNOWN if exact_too else UNKNOWN_LEVEL
            continue
        y = x if TB.shape[0] > 1 else 0
        ctx = build(CA[x], CB[x], T, w, TB[y], NB[y], follow_ties, ranks, work)
        s = leaders[x]
        i, k, bj = lead_slot[x], lead_k[x], lead_bj[x]
        classes(ctx, 1 - s, full, full, rep)
        for j in range(n):
            if rep[j] < j:
                out[x, j] = out[x, rep[j]]
            elif exact_too:
                out[x, j] = exact(ctx, full, full, s, i, k, bj, j)
            else:
                out[x, j] = level(ctx, full, full, s, i, k, bj, j, need_win[x], need_draw[x])
    return out
