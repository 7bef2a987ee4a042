"""Time per decision of any batched policy."""

from __future__ import annotations

import time

from geolab.game import BatchBot, bot_name


class TimedPolicy(BatchBot):
    """Wraps a policy and adds up the wall and process CPU time spent in `act` and the rows it
    decided (CPU: the figure that does not depend on how loaded a shared machine is).

    Not thread-safe on purpose: the engine then runs its chunks one after another, so the
    time measured is the policy's own and the counters are never raced.
    """

    thread_safe = False

    def __init__(self, policy, name: str | None = None):
        self.policy, self.name = policy, name or bot_name(policy)
        self.seconds, self.cpu_seconds, self.decisions = 0.0, 0.0, 0

    def act(self, obs, rng):
        start, cpu = time.perf_counter(), time.process_time()
        action = self.policy.act(obs, rng)
        self.seconds += time.perf_counter() - start
        self.cpu_seconds += time.process_time() - cpu
        self.decisions += len(obs)
        return action

    @property
    def seconds_per_decision(self) -> float:
        return self.seconds / self.decisions if self.decisions else float("nan")

    @property
    def cpu_per_decision(self) -> float:
        return self.cpu_seconds / self.decisions if self.decisions else float("nan")
