"""`geolab bench ranks`: greedy v greedy on the batch engine beside the reference engine."""

from __future__ import annotations

import os
import resource
import statistics
import time

import numpy as np

from geolab.bots.ranks.registry import BOTS
from geolab.bots.ranks.seats import GreedySeat
from geolab.games.ranks import batch as engine
from geolab.games.ranks import reference
from geolab.games.ranks.rules import Rules
from geolab.lab.progress import warm_up


def _reference_tricks_per_s(rules: Rules, games: int, seed: int) -> float:
    hands, draw, power = reference.deal_arrays(rules, games, np.random.default_rng(seed))
    seats = [GreedySeat(), GreedySeat()]
    tricks, start = 0, time.perf_counter()
    for i in range(games):
        first = reference.Deal((tuple(hands[i, 0]), tuple(hands[i, 1])), tuple(draw[i])).drawn_first_lead()
        tricks += len(reference.play(rules, hands[i].tolist(), seats, first,
                                     None if power is None else power[i]).tricks)
    return tricks / (time.perf_counter() - start)


def bench(games: int = 2_000_000, runs: int = 5, reference_games: int = 400, seed: int = 0,
          threads: int | None = None) -> dict:  # fmt: skip
    """Greedy v greedy on Combo 1, deal and discard included: median tricks/s of `runs` runs,
    beside the reference engine's, measured in the same runs. Also tricks per CPU-second and
    the load average, since other processes on the machine take cores from the wall clock."""
    rules = Rules.combo1()
    greedy = BOTS.make("greedy", rules)
    warmup = warm_up([("greedy v greedy", lambda: engine.play(rules, (greedy, greedy), 64, seed, block=64))]).seconds
    batch, cpu, slow = [], [], []
    load = os.getloadavg()[0]
    for r in range(runs):
        tricks, start, start_cpu = 0, time.perf_counter(), time.process_time()
        for part in engine.run(rules, (greedy, greedy), games, seed + r, threads=threads):
            tricks += int(part.n_tricks.sum(dtype=np.int64))
        batch.append(tricks / (time.perf_counter() - start))
        cpu.append(tricks / (time.process_time() - start_cpu))
        slow.append(_reference_tricks_per_s(rules, reference_games, seed + r))
    fast, slow = statistics.median(batch), statistics.median(slow)
    return {
        "rules": "combo1",
        "bots": "greedy,greedy",
        "games": games,
        "runs": runs,
        "tricks_per_s": fast,
        "reference_tricks_per_s": slow,
        "ratio": fast / slow,
        "runs_tricks_per_s": batch,
        "reference_games": reference_games,
        "runs_reference_tricks_per_s": slow,
        "tricks_per_cpu_s": statistics.median(cpu),
        "threads": threads or os.cpu_count(),
        "load_average_at_start": load,
        "jit_warmup_s": warmup,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def offered(rules, games, runs, seed, threads) -> dict:
    """What Play the Ranks offers as ``bench`` (`geolab bench ranks`)."""
    out = bench(games or 2_000_000, runs, 400, seed, threads)
    return {"summary": f"greedy v greedy on Combo 1, {out['games']:,} games a run, median of {runs} runs", **out}
