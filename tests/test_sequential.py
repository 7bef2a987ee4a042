"""The sequential Monte Carlo seat: it stops sampling once the layouts separate the best move."""

import numpy as np

from geolab.bots.ranks.sequential import NOT_SCORED, SequentialSeat, settled


def test_settled_needs_every_other_move_behind_by_z_standard_errors():
    rng = np.random.default_rng(1)
    clear = np.stack([np.ones(16), rng.integers(0, 2, 16) * 0.5], axis=1)  # move 0 wins everywhere
    assert settled(clear, 2.0)
    close = np.stack([np.tile([1.0, 0.0], 8), np.tile([0.0, 1.0], 8)], axis=1)  # equal means, different layouts
    assert not settled(close, 2.0)
    same = np.stack([np.tile([1.0, 0.0], 8)] * 2, axis=1)  # two moves that never differ
    assert settled(same, 2.0)
    # a lead the solver did not score is no rival, whatever its numbers
    leads = np.stack([np.ones(16), np.full(16, NOT_SCORED), np.zeros(16)], axis=1).reshape(16, 3, 1)
    assert settled(leads, 2.0)
    # one move (a declaration): decided when its chance of winning is clearly off one half
    assert settled(np.ones(8), 2.0) and not settled(np.tile([1.0, 0.0], 8), 2.0)


def test_samples_few_layouts_on_a_clear_move_and_up_to_k_on_a_close_one():
    seat = SequentialSeat(k=64, least=8, step=8, budget_ms=None)

    def layouts(pattern):
        def evaluate(rng, n, work):
            rows = np.array([pattern(i) for i in range(n)], float)
            return rows, np.ones(n, np.bool_)
        return evaluate

    clear = seat._sampled(np.random.default_rng(0), layouts(lambda i: (1.0, 0.0)), 0.0, "lead")
    close = seat._sampled(np.random.default_rng(0), layouts(lambda i: (i % 2, (i + 1) % 2)), 0.0, "lead")
    assert len(clear) == 8 and len(close) == 64
