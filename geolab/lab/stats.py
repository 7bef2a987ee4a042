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
