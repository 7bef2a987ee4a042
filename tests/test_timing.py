"""`geolab.lab.timing.TimedPolicy`: the wall and process CPU time a policy spends deciding."""

import time

import numpy as np

from geolab.lab.timing import TimedPolicy


class Busy:
    """A policy that spends CPU (not a sleep) on each batch and answers 0 for every row."""

    name = "busy"

    def act(self, obs, rng):
        end = time.process_time() + 0.01
        while time.process_time() < end:
            pass
        return np.zeros(len(obs), dtype=np.int64)


class Idle:
    """A policy that waits without using the CPU."""

    name = "idle"

    def act(self, obs, rng):
        time.sleep(0.02)
        return np.zeros(len(obs), dtype=np.int64)


def test_cpu_time_counts_work_and_not_waiting():
    busy, idle = TimedPolicy(Busy()), TimedPolicy(Idle())
    for timed in (busy, idle):
        for rows in (3, 5):
            assert list(timed.act([None] * rows, None)) == [0] * rows
    assert busy.decisions == idle.decisions == 8
    assert busy.cpu_seconds >= 0.02 and busy.cpu_per_decision == busy.cpu_seconds / 8
    assert idle.seconds >= 0.04 and idle.cpu_seconds < idle.seconds / 2
    assert np.isnan(TimedPolicy(Busy()).cpu_per_decision)
