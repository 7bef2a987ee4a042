"""Statistics for honest comparisons: intervals, paired tests, ratings, sample sizes."""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np


def z_value(confidence: float = 0.95) -> float:
    """Two-sided normal quantile: 1.96 for 95%."""
    return NormalDist().inv_cdf(0.5 + confidence / 2)


def wilson(successes: float, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (ties may count as half successes).

    Wilson rather than the normal approximation because it stays inside [0, 1] and keeps its
    coverage near 0 and 1 and for small n.
    """
    if n <= 0:
        return (float("nan"), float("nan"))
    z = z_value(confidence)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_ci(values: np.ndarray, confidence: float = 0.95) -> tuple[float, float, float]:
    """Mean and normal-approximation interval of a sample (for paired per-deal scores)."""
    values = np.asarray(values, dtype=float)
    n = len(values)
    mean = float(values.mean()) if n else float("nan")
    if n < 2:
        return mean, float("nan"), float("nan")
    half = z_value(confidence) * float(values.std(ddof=1)) / math.sqrt(n)
    return mean, mean - half, mean + half


def moments_ci(total: float, squares: float, n: int, confidence: float = 0.95) -> tuple[float, float, float]:
    """`mean_ci` from running sums (of the values and of their squares), for samples too
    large to hold at once."""
    if n < 1:
        return float("nan"), float("nan"), float("nan")
    mean = total / n
    if n < 2:
        return mean, float("nan"), float("nan")
    var = max(0.0, (squares - total * total / n) / (n - 1))
    half = z_value(confidence) * math.sqrt(var / n)
    return mean, mean - half, mean + half


def paired_scores(score_seat_a: np.ndarray, score_seat_b: np.ndarray) -> np.ndarray:
    """Per-deal score of one bot on duplicate deals: the mean of its two seatings (0, ½, 1).

    Each deal is played twice with seats swapped, so the luck of the cards cancels inside a
    deal; the deals are independent, so the interval is taken over deals, not games.
    """
    return (np.asarray(score_seat_a, float) + np.asarray(score_seat_b, float)) / 2


def duplicate_interval(per_deal: np.ndarray, games_per_deal: int = 2,
                       confidence: float = 0.95) -> tuple[float, float, float]:
    """Mean per-deal score on duplicate deals and a Wilson interval on its effective sample size.

    Each deal gives a score in [0, 1], the mean of its `games_per_deal` games (its seatings).
    Pairing makes a deal's games informative together, so the interval uses Kish's effective
    number of trials, n·p(1-p)/s², capped at the number of games (g·n): where the scores vary, it follows their
    real spread; where every deal scored the same (s² = 0), it falls back to the games, so a
    clean sweep still gets an honest, non-zero interval.
    """
    per_deal = np.asarray(per_deal, float)
    n = len(per_deal)
    if n == 0:
        return float("nan"), float("nan"), float("nan")
    p = float(per_deal.mean())
    var = float(per_deal.var(ddof=1)) if n > 1 else 0.0
    g = games_per_deal * n
    n_eff = g if var == 0 else min(g, n * p * (1 - p) / var)
    low, high = wilson(p * n_eff, n_eff, confidence) if n_eff > 0 else wilson(p * g, g, confidence)
    return p, low, high


def sample_size(p1: float, p0: float = 0.5, alpha: float = 0.05, power: float = 0.8, sd: float | None = None) -> int:
    """Games (or duplicate deals, given their per-deal `sd`) to tell win rate p1 from p0.

    Two-sided test at level `alpha` with the given power. Without `sd` each game is a
    Bernoulli trial: n = ((z_a sqrt(p0 q0) + z_b sqrt(p1 q1)) / (p1 - p0))^2.
    """
    if p1 == p0:
        raise ValueError("p1 must differ from p0")
    z_a, z_b = z_value(1 - alpha), NormalDist().inv_cdf(power)
    if sd is None:
        root_n = (z_a * math.sqrt(p0 * (1 - p0)) + z_b * math.sqrt(p1 * (1 - p1))) / abs(p1 - p0)
    else:
        root_n = (z_a + z_b) * sd / abs(p1 - p0)
    return math.ceil(root_n**2)


def bradley_terry(
    wins: np.ndarray, games: np.ndarray, anchor: int = 0, confidence: float = 0.95, prior: float = 0.5
) -> tuple[np.ndarray, np.ndarray]:
    """Bradley-Terry strengths (log-odds; P(i beats j) = sigmoid(t_i - t_j)) and their half-widths.

    `wins[i, j]`: games i won against j (ties as halves); `games[i, j]`: games between them.
    Fitted by Newton's method with t[anchor] = 0. `prior` pseudo-wins each way on every
    played pair keep a clean sweep finite. Intervals come from the observed information;
    duplicate deals make the games of a pair positively informative, so these are a little
    conservative.
    """
    wins = np.asarray(wins, float)
    games = np.asarray(games, float)
    k = len(games)
    played = games > 0
    w = wins + prior * played
    n = games + 2 * prior * played
    theta = np.zeros(k)
    free = np.array([i for i in range(k) if i != anchor])
    for _ in range(100):
        p = 1 / (1 + np.exp(-(theta[:, None] - theta[None, :])))
        grad = (w - n * p).sum(axis=1)
        info = n * p * (1 - p)
        hess = -info.copy()
        np.fill_diagonal(hess, info.sum(axis=1) - np.diag(info))
        step = np.linalg.solve(hess[np.ix_(free, free)], grad[free])
        theta[free] += step
        if np.max(np.abs(step)) < 1e-10:
            break
    p = 1 / (1 + np.exp(-(theta[:, None] - theta[None, :])))
    info = n * p * (1 - p)
    hess = -info
    np.fill_diagonal(hess, info.sum(axis=1) - np.diag(info))
    cov = np.zeros((k, k))
    cov[np.ix_(free, free)] = np.linalg.inv(hess[np.ix_(free, free)])
    return theta, z_value(confidence) * np.sqrt(np.diag(cov))


#: Elo points per unit of Bradley-Terry log-odds (400 / ln 10).
ELO_PER_LOGIT = 400 / math.log(10)
