"""Many Play the Ranks games between two batched policies, on duplicate deals, as counts.

Each deal is played twice with the seats swapped, so neither bot profits from better cards or
from the first lead. Only running totals are kept, chunk by chunk, so memory stays flat
however many games are played. `bench` times the batch engine against the reference engine.
"""

from __future__ import annotations

import os
import resource
import statistics
import time

import numpy as np

from geolab.bots.ranks import make_policy
from geolab.bots.ranks_seats import GreedySeat
from geolab.games import ranks, ranks_batch
from geolab.games.ranks import Rules
from geolab.lab.progress import Progress
from geolab.lab.stats import wilson


def simulate(rules: Rules, bots: tuple[str, str], deals: int, seed: int, chunk: int = ranks_batch.CHUNK,
             progress: bool | None = None, threads: int | None = None) -> dict:  # fmt: skip
    """Play `deals` deals twice each (bots[0] on side A, then on side B) and summarise."""
    policies = tuple(make_policy(b) for b in bots)
    wins, points = np.zeros(2, np.int64), np.zeros(2, np.int64)
    ties = lead_wins = tricks = 0
    start = time.perf_counter()
    with Progress(2 * deals, "games", enabled=progress) as bar:
        for swap in (False, True):
            first = 1 if swap else 0  # the side bots[0] plays
            for part in ranks_batch.run(rules, policies, deals, seed, chunk=chunk, swap=swap, threads=threads):
                w = part.winner
                wins += [np.count_nonzero(w == first), np.count_nonzero(w == 1 - first)]
                points += [part.points[:, first].sum(), part.points[:, 1 - first].sum()]
                ties += int(np.count_nonzero(w < 0))
                lead_wins += int(np.count_nonzero(w == part.first_lead))
                tricks += int(part.n_tricks.sum(dtype=np.int64))
                bar.update(len(part))
    seconds = time.perf_counter() - start
    games = 2 * deals
    rows = []
    for i, name in enumerate(bots):
        score = float(wins[i] + ties / 2) / games
        low, high = wilson(wins[i] + ties / 2, games)
        rows.append({"bot": name, "wins": int(wins[i]), "ties": ties, "losses": int(wins[1 - i]),
                     "win_rate": score, "ci_low": low, "ci_high": high, "points": int(points[i])})  # fmt: skip
    lead = float(lead_wins + ties / 2) / games
    return {
        "engine": "batch",
        "rules": rules.to_spec(),
        "seating": "duplicate: each deal played twice, seats swapped",
        "deals": deals,
        "games": games,
        "seed": seed,
        "bots": rows,
        "ties": ties,
        "first_lead_win_rate": lead,
        "first_lead_ci": list(wilson(lead_wins + ties / 2, games)),
        "avg_tricks": tricks / games,
        "seconds": seconds,
        "games_per_s": games / seconds,
        "tricks_per_s": tricks / seconds,
    }


def _reference_tricks_per_s(rules: Rules, games: int, seed: int) -> float:
    hands, draw, power = ranks.deal_arrays(rules, games, np.random.default_rng(seed))
    seats = [GreedySeat(), GreedySeat()]
    tricks, start = 0, time.perf_counter()
    for i in range(games):
        first = ranks.Deal((tuple(hands[i, 0]), tuple(hands[i, 1])), tuple(draw[i])).drawn_first_lead()
        tricks += len(ranks.play(rules, hands[i].tolist(), seats, first, None if power is None else power[i]).tricks)
    return tricks / (time.perf_counter() - start)


def bench(games: int = 2_000_000, runs: int = 5, reference_games: int = 400, seed: int = 0,
          threads: int | None = None) -> dict:  # fmt: skip
    """Greedy v greedy on Combo 1, deal and discard included: median tricks/s of `runs` runs,
    beside the reference engine's, measured in the same runs. Also tricks per CPU-second and
    the load average, since other processes on the machine take cores from the wall clock."""
    rules = Rules.combo1()
    greedy = make_policy("greedy")
    start = time.perf_counter()
    ranks_batch.play(rules, (greedy, greedy), 64, seed, block=64)  # compile or load the kernels
    warmup = time.perf_counter() - start
    batch, cpu, reference = [], [], []
    load = os.getloadavg()[0]
    for r in range(runs):
        tricks, start, start_cpu = 0, time.perf_counter(), time.process_time()
        for part in ranks_batch.run(rules, (greedy, greedy), games, seed + r, threads=threads):
            tricks += int(part.n_tricks.sum(dtype=np.int64))
        batch.append(tricks / (time.perf_counter() - start))
        cpu.append(tricks / (time.process_time() - start_cpu))
        reference.append(_reference_tricks_per_s(rules, reference_games, seed + r))
    fast, slow = statistics.median(batch), statistics.median(reference)
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
        "runs_reference_tricks_per_s": reference,
        "tricks_per_cpu_s": statistics.median(cpu),
        "threads": threads or os.cpu_count(),
        "load_average_at_start": load,
        "jit_warmup_s": warmup,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }
