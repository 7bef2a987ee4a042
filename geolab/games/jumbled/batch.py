"""Jumbled GeoPower Choice: the batch engine (G rounds at once, struct of arrays, compiled
kernels), its dealers, and the drivers that play batches of rounds and games with policies.
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np

from geolab.cards import N_CARDS, POSTAL
from geolab.common.bits import popcount
from geolab.common.counter_rng import LOW32, below32, draw64, game_stream
from geolab.errors import IllegalActionError
from geolab.game import asking, bot_name
from geolab.games.jumbled.observations import CallObservation, observe, readonly
from geolab.games.jumbled.reference import cards_range, round_points
from geolab.games.jumbled.rules import CALLS, RANKS64, SEAT_LETTERS, Rules, call_index

# --------------------------------------------------------------------------------------------
# Batch engine: G rounds at once, struct of arrays, compiled kernels
# --------------------------------------------------------------------------------------------


@numba.njit(cache=True, nogil=True)
def _deal_kernel(u, P, H, n_turns, power, deck, hands, order):
    """Partial Fisher-Yates on both decks from uniforms ``u`` (one row per deal): only the
    cards that can be seen (dealt, or turned this round) need to be placed at random. Each
    deal shuffles on from the card order ``deck`` the one before left (updated in place)."""
    G = hands.shape[0]
    D = power.size
    for g in range(G):
        i = 0
        for p in range(P):
            for h in range(H):
                j = i + np.int64(u[g, i] * (N_CARDS - i))
                c = deck[j]
                deck[j] = deck[i]
                deck[i] = c
                hands[g, p, h] = c
                i += 1
        for i in range(D):
            order[g, i] = power[i]
        for i in range(n_turns):
            j = i + np.int64(u[g, P * H + i] * (D - i))
            c = order[g, j]
            order[g, j] = order[g, i]
            order[g, i] = c


_DEAL_SLICE = 1024  # deals per slice of uniforms (~100-250 KB, stays in L2)


def deal(rules: Rules, rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """n independent deals: hands (n, P, H) int8 and shuffled GeoPower decks (n, D) int8.

    The draws come from ``rng`` in one block (uniform doubles, so each index is exact to
    2**-53); the deck beyond the cards a round can turn keeps its data order, unseen.
    """
    P, H, D = rules.players, rules.cards_dealt, rules.deck_size
    n_turns = min(rules.sets_per_round, D - 1)
    hands = np.empty((n, P, H), np.int8)
    order = np.empty((n, D), np.int8)
    power = np.array([c for c, k in enumerate(rules.geopower_deck) for _ in range(k)], np.int8)
    # The uniforms are drawn in cache-sized slices into one reused buffer: the same numbers in
    # the same order as one (n, P * H + n_turns) draw, without a multi-megabyte temporary.
    step = max(1, min(n, _DEAL_SLICE))
    buf = np.empty((step, P * H + n_turns))
    deck = np.arange(N_CARDS).astype(np.int8)
    for start in range(0, n, step):
        m = min(step, n - start)
        u = buf[:m]
        rng.random(out=u)
        _deal_kernel(u, P, H, n_turns, power, deck, hands[start:start + m], order[start:start + m])
    return hands, order


# Counter-based dealing (`geolab.common.counter_rng`): every game has its own stream, so a
# game's deal never depends on which other games are dealt, in what order or on which thread.
# Used by the lab's round simulations; `deal` above serves callers that hand over a numpy Generator.


@numba.njit(cache=True, nogil=True, inline="always")
def deal_game(start, P, H, n_turns, counts, deck, hands, g, order, og):
    """Deal a game from its stream ``start`` into ``hands[g]`` (flat: the P * H cards seat by
    seat) and ``order[og]``: a partial Fisher-Yates from the sorted deck for the P * H cards
    dealt (two places per 64-bit draw), then the GeoPower cards turned this round drawn from
    the category counts without replacement, the rest of the deck after them in category order
    (a shuffled deck read as far as the round can see it). ``deck`` is a scratch row of N_CARDS.

    A place is final once swapped, so the card goes straight to the hand (no copy loop), and
    the category picks and the fill are branch-free with fixed trip counts (the categories are
    coin flips to the branch predictor). Measurements: docs/perf.md (Jumbled batch engine)."""
    for i in range(N_CARDS):
        deck[i] = i
    n = P * H
    for i in range(0, n, 2):  # unsigned places: no negative-index checks
        z = draw64(start, i >> 1)
        a = np.uint64(i)
        j = a + (((z >> np.uint64(32)) * (np.uint64(N_CARDS) - a)) >> np.uint64(32))
        c = deck[j]
        deck[j] = deck[a]
        hands[g, a] = c
        if i + 1 < n:
            a += np.uint64(1)
            j = a + (((z & LOW32) * (np.uint64(N_CARDS) - a)) >> np.uint64(32))
            c = deck[j]
            deck[j] = deck[a]
            hands[g, a] = c
    c0, c1, c2 = counts[0], counts[1], counts[2]
    base = (n + 1) >> 1
    for t in range(n_turns):
        x = below32(draw64(start, base + t) >> np.uint64(32), c0 + c1 + c2)
        cat = np.int64(x >= c0) + np.int64(x >= c0 + c1)
        c0 -= cat == 0
        c1 -= cat == 1
        c2 -= cat == 2
        order[og, t] = cat
    for t in range(n_turns, order.shape[1]):
        order[og, t] = np.int64(t >= n_turns + c0) + np.int64(t >= n_turns + c0 + c1)


@numba.njit(cache=True, nogil=True)
def _deal_block_kernel(key, first, P, H, n_turns, counts, hands, order):
    deck = np.empty(N_CARDS, np.int8)
    flat = hands.reshape(hands.shape[0], P * H)
    for g in range(hands.shape[0]):
        deal_game(game_stream(key, first + g), P, H, n_turns, counts, deck, flat, g, order, g)


def block_keys(ss: np.random.SeedSequence) -> tuple[np.uint64, np.uint64]:
    """A block's deal key and play key (the play key drives whatever is random besides the deal)."""
    deal_key, play_key = ss.generate_state(2, np.uint64)
    return deal_key, play_key


def deal_block(rules: Rules, key, n: int, first: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Games first .. first + n - 1 of the block with deal key ``key``, as `deal` returns them;
    game i's deal depends only on (key, i)."""
    P, H, D = rules.players, rules.cards_dealt, rules.deck_size
    hands = np.empty((n, P, H), np.int8)
    order = np.empty((n, D), np.int8)
    _deal_block_kernel(np.uint64(key), first, P, H, min(rules.sets_per_round, D - 1),
                       np.array(rules.geopower_deck, np.int64), hands, order)
    return hands, order


def turned_categories(rules: Rules, order: np.ndarray) -> np.ndarray:
    """(n, S) the card turned on each set: the deck top, which then goes to the bottom."""
    idx = np.arange(rules.sets_per_round) % rules.deck_size
    return order[:, idx]


@numba.njit(cache=True, nogil=True)
def legal_choice(mask, used, H, s, S, C, lo, hi):
    """True when `mask` (slot bits) is a legal set choice for a hand with `used` slots played."""
    if mask <= 0 or mask >= (1 << H) or (mask & used) != 0:
        return False
    k = popcount(mask)
    after = S - s - 1
    left = C - popcount(used)
    return max(lo, left - after * hi) <= k <= min(hi, left - after * lo)


@numba.njit(cache=True, nogil=True)
def set_winners(totals, call, all_tied, won):
    """Mark in ``won`` the seats that win a set with these totals (compiled twin of `_winners`)."""
    P = totals.size
    best = totals[0]
    for p in range(1, P):
        if (totals[p] < best) if call == 0 else (totals[p] > best):
            best = totals[p]
    n = 0
    for p in range(P):
        n += totals[p] == best
    for p in range(P):
        won[p] = totals[p] == best and (n == 1 or all_tied)


@numba.njit(cache=True, nogil=True)
def next_category_probs(deck, draws, s, reuse, out):
    """Compiled twin of `category_probs` for one game: ``draws[:s]`` are the cards turned."""
    D = deck.sum()
    if reuse and s >= D:
        out[:] = 0.0
        out[draws[s - D]] = 1.0
        return
    for c in range(3):
        out[c] = deck[c]
    for t in range(s):
        out[draws[t]] -= 1.0
    out /= out.sum()


@numba.njit(cache=True, nogil=True)
def _step_kernel(hands, used, actions, turned, call, s, S, C, lo, hi, all_tied, ranks,
                 cards, totals, won):
    """Check, lay and score one set for every game; returns the first illegal g * P + p or -1."""
    G, P, H = hands.shape
    for g in range(G):
        for p in range(P):
            if not legal_choice(actions[g, p], used[g, p], H, s, S, C, lo, hi):
                return g * P + p
    tot = np.zeros(P, np.int64)
    win = np.zeros(P, np.bool_)
    for g in range(G):
        cat = turned[g, s]
        for p in range(P):
            a = actions[g, p]
            t = 0
            k = 0
            for i in range(H):
                if (a >> i) & 1:
                    c = hands[g, p, i]
                    t += ranks[c, cat]
                    cards[g, s, p, k] = c
                    k += 1
            tot[p] = t
            totals[g, s, p] = t
            used[g, p] |= a
        set_winners(tot, call[g], all_tied, win)
        won[g, s] = win
    return -1


class BatchRound:
    """G rounds in lockstep: the hidden state (hands, GeoPower order) and the public record."""

    def __init__(self, rules: Rules, hands: np.ndarray, order: np.ndarray, calls: np.ndarray):
        G, P, H = hands.shape
        S, M = rules.sets_per_round, rules.max_cards_per_set
        self.rules, self.G = rules, G
        self.hands = np.ascontiguousarray(hands, np.int8)
        self._turns = np.ascontiguousarray(turned_categories(rules, order), np.int8)  # hidden
        self.calls = np.ascontiguousarray(calls, np.int8)
        self.used = np.zeros((G, P), np.int64)
        self.actions = np.zeros((G, S, P), np.int64)
        self.cards = np.full((G, S, P, M), -1, np.int8)  # public once laid
        self.totals = np.zeros((G, S, P), np.int16)
        self.won = np.zeros((G, S, P), np.bool_)
        self.set_index = 0

    @property
    def turned(self) -> np.ndarray:
        """GeoPower categories turned so far (public); -1 for sets still to come."""
        out = np.full((self.G, self.rules.sets_per_round), -1, np.int8)
        out[:, : self.set_index] = self._turns[:, : self.set_index]
        return out

    def step(self, actions: np.ndarray) -> int:
        """Lay every seat's choice (G, P) and turn the GeoPower card; -1 or a bad flat index."""
        r, s = self.rules, self.set_index
        actions = np.ascontiguousarray(actions, np.int64)
        bad = _step_kernel(self.hands, self.used, actions, self._turns, self.calls, s,
                           r.sets_per_round, r.cards_to_play, r.min_cards_per_set,
                           r.max_cards_per_set, r.set_tie == "all-tied", RANKS64, self.cards,
                           self.totals, self.won)
        if bad < 0:
            self.actions[:, s] = actions
            self.set_index += 1
        return bad

    def points(self) -> np.ndarray:
        """(G, P) round points: sets won times points per set, plus the bonus."""
        r = self.rules
        table = np.array([round_points(r, w) for w in range(r.sets_per_round + 1)], np.int32)
        return table[self.won.sum(axis=1)]


# --------------------------------------------------------------------------------------------
# Driving batches with policies
# --------------------------------------------------------------------------------------------


def _name(policy) -> str:
    return bot_name(policy)


def _array(value) -> np.ndarray:
    """A policy's answer as an array (one numpy cannot read becomes an object array, refused)."""
    try:
        return np.asarray(value)
    except (ValueError, TypeError):
        return np.asarray(None)


def _describe_illegal(rules: Rules, hand, used: int, mask: int, s: int) -> str:
    H = rules.cards_dealt
    if not 0 < mask < (1 << H):
        return f"slot mask {mask} is not a non-empty subset of the {H} slots"
    cards = [POSTAL[hand[i]] for i in range(H) if mask >> i & 1]
    if mask & used:
        return f"{' '.join(cards)} includes a card already played"
    lo, hi = cards_range(rules, s, bin(used).count("1"))
    return f"{' '.join(cards)} is {len(cards)} cards; {lo}-{hi} are allowed here"


def _seat_groups(seats) -> list[tuple[object, list[int]]]:
    """Seats that share one policy object are asked together, in one batch."""
    groups: dict[int, tuple[object, list[int]]] = {}
    for i, pol in enumerate(seats):
        groups.setdefault(id(pol), (pol, []))[1].append(i)
    return list(groups.values())


def dealer_calls(rules: Rules, callers, dealer: np.ndarray, scores: np.ndarray, round_index: int,
                 rng: np.random.Generator) -> np.ndarray:
    """Ask each game's dealer (its seat's call policy) for Top Dog or Bottoms Up; checked."""
    rows = np.arange(len(dealer))
    calls = np.empty(len(dealer), np.int8)
    allowed = [call_index(c) for c in rules.calls]
    for caller, seats in _seat_groups(callers):
        sel = rows[np.isin(dealer, seats)]
        if not len(sel):
            continue
        obs = CallObservation(rules, round_index, sel, dealer[sel], readonly(scores))
        with asking("jumbled", caller, f"dealer's call of round {round_index + 1}"):
            got = _array(caller.call(obs, rng))
        if got.dtype.kind not in "iu":
            raise IllegalActionError(
                f"{_name(caller)}: round {round_index + 1}, dealer call: returned {got.dtype} values; a call is a "
                f"whole number ({', '.join(f'{i} {c}' for i, c in enumerate(CALLS))})"
            )
        bad = ~np.isin(got, allowed) if got.shape == sel.shape else np.ones(len(sel), bool)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            shown = got.ravel()[i] if got.size > i else "nothing"
            raise IllegalActionError(
                f"{_name(caller)}: round {round_index + 1}, dealer call of game {sel[i]}: "
                f"{shown} is not one of {list(rules.calls)}"
            )
        calls[sel] = got
    return calls


def play_round_batch(rules: Rules, players, callers, hands, order, scores, dealer, round_index,
                     rng: np.random.Generator) -> BatchRound:
    """Play G rounds: the dealer's call, then every set, asking each policy once a set.

    ``players[p]`` and ``callers[p]`` are the set policy and dealer-call policy at seat p.
    Policies see only observations; whatever they return is checked, never corrected.
    """
    G, P = hands.shape[0], rules.players
    rows = np.arange(G)
    calls = dealer_calls(rules, callers, dealer, scores, round_index, rng)
    rnd = BatchRound(rules, hands, order, calls)
    groups = _seat_groups(players)
    for s in range(rules.sets_per_round):
        actions = np.zeros((G, P), np.int64)
        for policy, seats in groups:
            game = np.repeat(rows, len(seats))
            seat = np.tile(np.array(seats), G)
            obs = observe(rnd, game, seat, scores, dealer, round_index)
            with asking("jumbled", policy, f"set {s + 1} of round {round_index + 1}"):
                got = _array(policy.act(obs, rng))
            if got.shape != (len(seat),):
                raise IllegalActionError(
                    f"{_name(policy)}: set {s + 1} of round {round_index + 1}: returned shape {got.shape}, expected "
                    f"{(len(seat),)}"
                )
            if got.dtype.kind not in "iu":  # a float mask would be truncated, an object one overflow
                raise IllegalActionError(
                    f"{_name(policy)}: set {s + 1} of round {round_index + 1}: returned {got.dtype} slot masks; "
                    "a set choice is a whole-number bit mask over the hand's slots"
                )
            actions[game, seat] = got
        bad = rnd.step(actions)
        if bad >= 0:
            g, p = divmod(bad, P)
            policy = players[p]
            why = _describe_illegal(rules, rnd.hands[g, p], int(rnd.used[g, p]), int(actions[g, p]), s)
            raise IllegalActionError(
                f"{_name(policy)}: set {s + 1} of round {round_index + 1}, game {g}, seat {SEAT_LETTERS[p]}: {why}"
            )
    return rnd


def _team_totals(rules: Rules, scores: np.ndarray) -> np.ndarray:
    onehot = np.eye(rules.n_teams, dtype=np.int64)[list(rules.team_of)]  # (P, T)
    return scores @ onehot


def decide_winners(rules: Rules, scores: np.ndarray, rounds_played: int) -> np.ndarray:
    """Per game: the winning team, -1 for a draw, -2 while the race goes on."""
    teams = _team_totals(rules, scores)
    top = teams.max(axis=1)
    n_top = (teams == top[:, None]).sum(axis=1)
    out = np.full(len(scores), -2, np.int64)
    reached = top >= rules.target
    out[reached & (n_top == 1)] = teams.argmax(axis=1)[reached & (n_top == 1)]
    if rules.final_tie == "draw":
        out[reached & (n_top > 1)] = -1
    if rounds_played >= rules.max_rounds:
        out[out == -2] = -1
    return out


@dataclass
class GameBatch:
    """Outcome of a batch of games (one row per game)."""

    winner: np.ndarray  # team, or -1 for a draw
    rounds: np.ndarray
    scores: np.ndarray  # (n, P) seat scores at the end
    trace: list | None = None  # per round: (active games, BatchRound, dealer) when traced


def play_game_batch(rules: Rules, players, callers, n: int, deal_rng: np.random.Generator,
                    play_rng: np.random.Generator, trace: bool = False) -> GameBatch:
    """n games to the target. Every round deals to all n games from ``deal_rng`` (finished
    games' deals are thrown away), so a game's deals do not depend on how others are played:
    that is what makes duplicate comparisons fair."""
    P = rules.players
    scores = np.zeros((n, P), np.int64)
    winner = np.full(n, -2, np.int64)
    rounds = np.zeros(n, np.int64)
    log = [] if trace else None
    r = 0
    while (winner == -2).any():
        hands, order = deal(rules, deal_rng, n)
        act = np.flatnonzero(winner == -2)
        dealer = np.full(len(act), r % P, np.int64)
        rnd = play_round_batch(rules, players, callers, hands[act], order[act], scores[act],
                               dealer, r, play_rng)
        scores[act] += rnd.points()
        rounds[act] += 1
        r += 1
        winner[act] = decide_winners(rules, scores[act], r)
        if log is not None:
            log.append((act, rnd, r - 1))
    return GameBatch(winner, rounds, scores, log)
