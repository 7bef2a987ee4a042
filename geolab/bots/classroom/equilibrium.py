"""The equilibrium discard of Class GeoPower Double Choice under the independence model: the
pure best-response solver the `equilibrium` bot plays from.

Each round is a symmetric one-shot game: every student of a group of k + 1 holds 3 cards,
hears the call, keeps 2, and the winner is decided by the sum in a random category. The
independence model treats the k opponents' hands as independent uniform 3-card hands; then
one histogram per category gives the chance that a kept pair is not beaten, and a best
response over all 19,600 hands x 3 discards is a few array lookups. Iterating best responses
finds a pure policy that is its own best response (exploitability exactly 0 under the model)
for every group size and call but one (see `solve`). The checks on real deals are in the lab
(`geolab.games.classroom.offers.equilibrium`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from geolab.games.classroom.batch import MAX_OPPONENTS, TABLE_SHAPE
from geolab.games.classroom.hands import kept_sums
from geolab.games.classroom.rules import BOTTOMS_UP, TOP_DOG

KEPT = kept_sums().astype(np.int64)  # (hand, discard, category) -> score
MAX_SCORE = 100
# Every function below takes `kept`, the (hands, 3, 3) kept-sum table of the hands an opponent
# draws from uniformly (default: the full deck's 19,600); a smaller deck's table is
# `KEPT[:comb(n, 3)]`, the hands of cards 0..n-1 (colex order puts them first).


def onehot(policy: np.ndarray) -> np.ndarray:
    probs = np.zeros((len(policy), 3))
    probs[np.arange(len(policy)), policy] = 1.0
    return probs


def average_start(call: int, kept: np.ndarray = KEPT) -> np.ndarray:
    """The average-rank discard (`AverageRank`) read off a kept-sum table: Top Dog keeps the
    pair with the lowest total over the categories, Bottoms Up the highest."""
    total = kept.sum(axis=2)
    return (total.argmin(axis=1) if call == TOP_DOG else total.argmax(axis=1)).astype(np.int8)


def not_beaten(probs: np.ndarray, call: int, kept: np.ndarray = KEPT) -> np.ndarray:
    """(3, MAX_SCORE): P(one opponent playing `probs` does not beat score s) per category.
    Ties do not beat (every tied student wins)."""
    out = np.empty((3, MAX_SCORE))
    for c in range(3):
        hist = np.bincount(kept[:, :, c].ravel(), weights=probs.ravel(), minlength=MAX_SCORE) / len(kept)
        # Top Dog: an opponent does not beat s when his score >= s; Bottoms Up, when <= s
        out[c] = hist[::-1].cumsum()[::-1] if call == TOP_DOG else hist.cumsum()
    return out


def values(probs: np.ndarray, k: int, call: int, p_cat, kept: np.ndarray = KEPT) -> np.ndarray:
    """(hands, 3): P(win the round) for each hand and discard against k opponents."""
    tail = not_beaten(probs, call, kept) ** k
    return sum(p_cat[c] * tail[c][kept[:, :, c]] for c in range(3))


def best_response(v: np.ndarray) -> np.ndarray:
    """The best discard per hand (the first on an exact tie, so the answer is unique)."""
    return v.argmax(axis=1).astype(np.int8)


@dataclass
class Equilibrium:
    opponents: int
    call: int
    policy: np.ndarray  # (hands,) int8 discard position in the sorted hand
    iterations: int
    exploitability: float  # model: mean over hands of (best value - policy value)
    win: float  # model: P(win the round) for a student when everyone plays `policy`


def solve(k: int, call: int, p_cat, start: np.ndarray | None = None, max_iter: int = 200,
          kept: np.ndarray = KEPT) -> Equilibrium:
    """Iterate best responses from `start` (default: keep the two best average ranks,
    `average_start`) until the policy is a best response to itself: exploitability exactly 0
    under the model.

    Where no pure symmetric equilibrium exists the iteration cycles through a few policies
    that differ in one or two nearly indifferent hands; then the member of the cycle with the
    smallest exploitability is returned, and its exploitability (about 1e-10) is reported.
    """
    policy = average_start(call, kept) if start is None else np.asarray(start, np.int8)
    rows = np.arange(len(kept))
    seen: dict[bytes, int] = {}
    visited: list[tuple[float, np.ndarray, float]] = []
    for it in range(1, max_iter + 1):
        v = values(onehot(policy), k, call, p_cat, kept)
        chosen = v[rows, policy]
        gain = float((v.max(axis=1) - chosen).mean())
        if np.all(chosen == v.max(axis=1)):
            return Equilibrium(k, call, policy, it, 0.0, float(chosen.mean()))
        key = policy.tobytes()
        if key in seen:
            cycle = visited[seen[key]:]
            gain, policy, win = min(cycle, key=lambda c: c[0])
            return Equilibrium(k, call, policy, it, gain, win)
        seen[key] = len(visited)
        visited.append((gain, policy, float(chosen.mean())))
        policy = best_response(v)
    raise RuntimeError(f"best responses did not settle in {max_iter} steps (k={k}, call={call})")


def model_exploitability(policy: np.ndarray, k: int, call: int, p_cat, kept: np.ndarray = KEPT) -> float:
    """How much a best-responding student gains, under the model, against `policy`."""
    v = values(onehot(policy), k, call, p_cat, kept)
    return float((v.max(axis=1) - v[np.arange(len(kept)), policy]).mean())


def equilibrium_table(p_cat, opponents=range(1, 16)) -> tuple[np.ndarray, list[Equilibrium]]:
    """The equilibrium as a lookup table for the batch engine, and the solution per entry.
    Opponent counts not solved copy the nearest solved one: by default groups of 2 to 16
    are solved, and the rare championship of more than 16 finalists (only through ties)
    plays the 16-student solution."""
    opponents = sorted(opponents)
    table = np.zeros(TABLE_SHAPE, np.int8)
    solved = []
    for call in (TOP_DOG, BOTTOMS_UP):
        for k in opponents:
            eq = solve(k, call, p_cat)
            solved.append(eq)
            table[call, k] = eq.policy
        for k in range(MAX_OPPONENTS + 1):
            if k not in opponents:
                table[call, k] = table[call, min(opponents, key=lambda j: (abs(j - k), j))]
    return table, solved


@cache
def table_for(geopower: tuple[int, int, int]) -> np.ndarray:
    """The equilibrium table for a GeoPower deck of these counts (solved once per deck, in
    about a second; read-only, shared by every bot that plays it)."""
    p = np.asarray(geopower, float)
    table = equilibrium_table(p / p.sum())[0]
    table.setflags(write=False)
    return table
