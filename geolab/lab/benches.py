"""`geolab bench GAME`: each game's speed benchmark behind one signature, and the parts they share.

A benchmark times a game's batch engine against its reference engine in the same run and
reports medians of several runs (these machines are shared and noisy). A game offers its
benchmark in its definition (``"bench"``: ``bench(rules, games, runs, seed, threads) -> dict``
with a ``summary`` line, in the game's own ``offers`` package); `run` finds it there, and a game
without one says so.
"""

from __future__ import annotations

import os
import resource
import statistics
import time

import numpy as np

from geolab import registry
from geolab.errors import GeolabError
from geolab.lab.progress import warm_up


def provenance(reference_games: int, threads, load: float, warmup: float, warmup_key: str = "jit_warmup_s") -> dict:
    """What every bench's record ends with: the reference games timed, the threads, the load
    average at the start and the end, the warm-up's seconds and the peak memory."""
    return {
        "reference_games": reference_games,
        "threads": threads or os.cpu_count(),
        "load_average_at_start": load,
        "load_average_at_end": os.getloadavg()[0],
        warmup_key: warmup,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def timed(call):
    """One call's result, its wall seconds and its CPU seconds (every thread of the process):
    what a bench takes of each batch-engine run."""
    start, start_cpu = time.perf_counter(), time.process_time()
    out = call()
    return out, time.perf_counter() - start, time.process_time() - start_cpu


def reference_per_s(engine, rules, bots, seat, deal, games: int, seed: int) -> float:
    """The reference engine's games a second, timed beside a batch engine in every bench: `games`
    games from one generator seeded `seed`, each dealt by ``deal(rng)`` and played by `bots`, each
    seated by ``seat(bot, rules, rng)``."""
    rng = np.random.default_rng(seed)
    start = time.perf_counter()
    for _ in range(games):
        seats = [seat(bot, rules, rng) for bot in bots]
        engine.play(rules, deal(rng), seats)
    return games / (time.perf_counter() - start)


def run(entry, rules, games: int | None, runs: int, seed: int, threads: int | None) -> dict:
    bench = entry.offer("bench")
    if bench is None:
        raise GeolabError(f"no benchmark for {entry.name!r} (benchmarks: {', '.join(registry.offering('bench'))})")
    return bench(rules, games, runs, seed, threads)


def race_game(entry, rules, specs, seat, reference_module, games: int, runs: int, seed: int, threads,
              reference_games: int = 400) -> dict:
    """A two-team game's batch engine, games a second (medians of `runs` runs), beside its
    reference engine (``reference_module.ENGINE`` on ``deal_one``, the bots at `seat`) measured
    in every run: the bench of Combo 1's race games."""
    bots = [entry.bots.make(spec, rules) for spec in specs]
    warmup = warm_up([(entry.name, lambda: entry.game.batch(rules, bots, 64, seed))])
    rates: dict[str, list[float]] = {k: [] for k in ("games", "cpu", "reference")}
    load = os.getloadavg()[0]
    for r in range(runs):
        _, wall, cpu = timed(lambda r=r: entry.game.batch(rules, bots, games, seed + r, threads=threads))
        rates["games"].append(games / wall)
        rates["cpu"].append(games / cpu)
        rates["reference"].append(reference_per_s(reference_module.ENGINE, rules, bots, seat,
                                                  lambda rng: reference_module.deal_one(rules, rng),
                                                  reference_games, seed + r))
    median = {k: statistics.median(v) for k, v in rates.items()}
    return {
        "summary": f"{entry.game.title}, {' v '.join(specs)}, {games:,} games a run, median of {runs} runs: "
                   f"{median['games']:,.0f} games/s, "
                   f"{median['games'] / median['reference']:,.0f}x the reference engine",
        "rules": rules.to_spec(),
        "bots": " v ".join(specs),
        "games": games,
        "runs": runs,
        "games_per_s": median["games"],
        "games_per_cpu_s": median["cpu"],
        "reference_games_per_s": median["reference"],
        "ratio": median["games"] / median["reference"],
        "runs_games_per_s": rates["games"],
        "runs_games_per_cpu_s": rates["cpu"],
        "runs_reference_games_per_s": rates["reference"],
        **provenance(reference_games, threads, load, warmup.seconds, "jit_warmup_s"),
    }


