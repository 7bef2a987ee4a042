"""Statistics against textbook values."""

import math

import numpy as np
import pytest

from geolab.lab.stats import ELO_PER_LOGIT, bradley_terry, mean_ci, paired_scores, sample_size, wilson


def test_wilson_textbook_values():
    assert wilson(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson(10, 10) == pytest.approx((0.7225, 1.0), abs=1e-4)
    low, high = wilson(520, 1000)
    assert low == pytest.approx(0.4890, abs=1e-3) and high == pytest.approx(0.5508, abs=1e-3)
    assert all(math.isnan(x) for x in wilson(0, 0))


def test_sample_size_to_tell_52_from_50():
    assert sample_size(0.52) == pytest.approx(4903, abs=3)  # the classic ~4,900 games
    assert sample_size(0.55) == pytest.approx(783, abs=3)
    # Duplicate deals with per-deal sd 0.3 need fewer: ((1.96 + 0.8416) * 0.3 / 0.02)^2 = 1766.
    assert sample_size(0.52, sd=0.3) == pytest.approx(1766, abs=2)


def test_paired_scores_and_mean_ci():
    scores = paired_scores([1, 1, 0, 0.5], [0, 1, 0, 1])
    assert scores.tolist() == [0.5, 1.0, 0.0, 0.75]
    mean, low, high = mean_ci(np.array([0.0, 1.0] * 50))
    assert mean == 0.5 and high - 0.5 == pytest.approx(1.96 * 0.50252 / 10, abs=1e-3)


def test_bradley_terry_recovers_known_strengths():
    truth = np.array([0.0, 0.5, 1.2])
    n = 200_000
    p = 1 / (1 + np.exp(-(truth[:, None] - truth[None, :])))
    games = np.full((3, 3), n) - np.diag([n] * 3)
    wins = p * games
    theta, half = bradley_terry(wins, games, anchor=0)
    assert theta == pytest.approx(truth, abs=1e-3)
    assert half[0] == 0 and np.all(half[1:] > 0) and np.all(half[1:] < 0.02)
    # Two players, 60 wins in 100: strength logit(0.6) up to the prior's pull; interval ~ 1.96 / sqrt(n p q).
    theta, half = bradley_terry(np.array([[0, 40], [60, 0]]), np.array([[0, 100], [100, 0]]), prior=0)
    assert theta[1] == pytest.approx(math.log(1.5), abs=1e-9)
    assert half[1] == pytest.approx(1.96 / math.sqrt(100 * 0.24), abs=1e-3)
    assert ELO_PER_LOGIT * math.log(10) == pytest.approx(400)


def test_bradley_terry_clean_sweep_stays_finite():
    theta, half = bradley_terry(np.array([[0, 0], [50, 0]]), np.array([[0, 50], [50, 0]]))
    assert np.isfinite(theta).all() and theta[1] > 3


def test_duplicate_interval():
    from geolab.lab.stats import duplicate_interval

    # A clean sweep over 100 deals: the interval is Wilson's on the 200 games, not a point.
    mean, low, high = duplicate_interval(np.zeros(100))
    assert mean == 0 and low == 0 and high == pytest.approx(wilson(0, 200)[1]) and high > 0.01
    # Independent-looking games (scores 0, ½, 1 at 1:2:1): n_eff = n p q / s² = 100 * .25 / (.125 * 100/99) ≈ 198.
    scores = np.array([0.0] * 25 + [0.5] * 50 + [1.0] * 25)
    mean, low, high = duplicate_interval(scores)
    n_eff = 100 * 0.25 / scores.var(ddof=1)
    assert (low, high) == pytest.approx(wilson(0.5 * n_eff, n_eff))
    # Pairing that removes the deal's luck (every deal split ½): capped at the 2n games.
    assert duplicate_interval(np.full(100, 0.5))[1:] == pytest.approx(wilson(100, 200))
