"""Series of games to a points target, read from the batch engine's games in deal order
(docs/balance.md, "Decisiveness: series"): how long a series lasts, how often its leader
changes, and how often a bonus decides who wins it.

A series adds up each seat's points game after game (the deals of one seating, in order)
until a seat has reached the target and is strictly ahead of every other seat (Play the
Ranks: `reference.score_series`, a tie at the target plays on). The next series starts with
the next deal, so series never share a deal and are independent samples. The batch engine's
games do not depend on a series score (no bot sees one), so a series of batch games is the
series the reference engine's `play_series` would play on the same deals.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from geolab.lab.stats import mean_ci, z_value


@dataclass(frozen=True)
class Series:
    """One series: where it starts (a deal index), the games it took, the winning seat and
    how many times its leader changed (see `lead_changes`)."""

    start: int
    games: int
    winner: int
    lead_changes: int


def _finished(score: np.ndarray, target: int) -> bool:
    top = score.max()
    return bool(top >= target and (score == top).sum() == 1)


def lead_changes(scores: np.ndarray) -> int:
    """Times the leader changes along running scores (games, seats): the leader is the seat
    strictly ahead of every other; a change is a new leader differing from the last one (a
    level score in between is no leader, and the first leader is no change). At least one
    change exactly when the winner was behind at some point (a comeback)."""
    last, changes = -1, 0
    for row in scores:
        top = row.max()
        if (row == top).sum() != 1:
            continue
        leader = int(row.argmax())
        if last >= 0 and leader != last:
            changes += 1
        last = leader
    return changes


def play_one(points: np.ndarray, target: int, start: int) -> Series | None:
    """The series starting at deal `start` of `points` (games, seats), or None when the
    deals run out before it is decided."""
    score = np.zeros(points.shape[1], np.int64)
    running = []
    for i in range(start, len(points)):
        score = score + points[i]
        running.append(score)
        if _finished(score, target):
            return Series(start, i - start + 1, int(score.argmax()), lead_changes(np.array(running)))
    return None


def walk(points: np.ndarray, target: int) -> list[Series]:
    """Every series of `points` (games in deal order, seats), one after another, until the
    deals run out (an unfinished last series is left out)."""
    points = np.asarray(points, np.int64)
    out, start = [], 0
    while start < len(points):
        series = play_one(points, target, start)
        if series is None:
            break
        out.append(series)
        start += series.games
    return out


def flips(points: np.ndarray, plain: np.ndarray, target: int) -> np.ndarray:
    """Series by series, whether the winner under `points` differs from the winner under
    `plain` (the same games scored another way, e.g. without a bonus), both started at the
    same deal; the next pair starts after the longer of the two. One bool a series pair."""
    points, plain = np.asarray(points, np.int64), np.asarray(plain, np.int64)
    out, start = [], 0
    while start < len(points):
        a, b = play_one(points, target, start), play_one(plain, target, start)
        if a is None or b is None:
            break
        out.append(a.winner != b.winner)
        start += max(a.games, b.games)
    return np.array(out, bool)


@dataclass(frozen=True)
class Estimate:
    """A mean with its 95% interval and its sample size."""

    value: float
    low: float
    high: float
    n: int

    @staticmethod
    def of(values) -> Estimate:
        values = np.asarray(values, float)
        mean, low, high = mean_ci(values) if len(values) else (math.nan, math.nan, math.nan)
        return Estimate(mean, low, high, len(values))

    @staticmethod
    def pooled(parts) -> Estimate:
        """The mean of several independent samples' means (one a seating), its interval from
        their variances: the seatings of a deal share its cards, which makes a bot's results
        in them negatively correlated when the cards decide, so this interval is conservative."""
        parts = [np.asarray(p, float) for p in parts]
        if not parts or any(len(p) < 2 for p in parts):
            return Estimate(math.nan, math.nan, math.nan, sum(len(p) for p in parts))
        mean = float(np.mean([p.mean() for p in parts]))
        se = math.sqrt(sum(p.var(ddof=1) / len(p) for p in parts)) / len(parts)
        half = z_value() * se
        return Estimate(mean, mean - half, mean + half, sum(len(p) for p in parts))
