"""Dealer-call policies for Jumbled GeoPower Choice: each sees a
`geolab.games.jumbled.observations.CallObservation` and returns call indices. `call_policy`
makes one by name (the registry's ``call=`` parameter of every bot).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

import numba
import numpy as np

from geolab.bots.jumbled.heuristics import Heuristic
from geolab.errors import GeolabError
from geolab.games.jumbled.batch import play_round_batch
from geolab.games.jumbled.observations import CallObservation
from geolab.games.jumbled.rules import Rules, call_index


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
        for _ in range(k):
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

        from geolab.games.jumbled.batch import deal
        from geolab.games.jumbled.rules import CALLS

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


#: The call policies by name: ``call=NAME`` on any Jumbled bot.
CALL_POLICIES = ("random", "top-dog", "bottoms-up", "race")


def call_policy(name: str):
    """A dealer-call policy by name: random, top-dog, bottoms-up, race."""
    if name == "random":
        return RandomCall()
    if name in ("top-dog", "bottoms-up"):
        return FixedCall(name)
    if name == "race":
        return RaceCall()
    raise GeolabError(f"unknown call policy {name!r} (known: {', '.join(CALL_POLICIES)})")
