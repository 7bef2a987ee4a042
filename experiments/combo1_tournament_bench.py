"""How fast whole Combo 1 tournaments run: one 8-team tournament on the batch path (median of
warm runs) beside the reference tournament in the same run, and many tournaments on processes.

    python experiments/combo1_tournament_bench.py [--runs 7] [--many 10000] [--workers 2]

Writes results/bench/combo1_tournament.json (the issue's targets: one tournament under 50 ms;
10,000 under a minute on 2 cores).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

import numpy as np

from geolab.bots.combo1.registry import SEAT
from geolab.games.combo1 import tournament
from geolab.games.combo1.tournament import TournamentRules
from geolab.games.combo1.tournament_batch import run
from geolab.lab import tournament as lab
from geolab.lab.results import meta, write_json

OUT = Path(__file__).resolve().parents[1] / "results" / "bench" / "combo1_tournament.json"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--many", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    rules, profiles = TournamentRules(), lab.ladder(8)
    bots = lab.teams(rules, profiles)
    load = os.getloadavg()[0]
    run(rules, bots, 4, 10_000, threads=1)  # compile the kernels and warm the State IQ memos
    one, reference = [], []
    for r in range(args.runs):
        start = time.perf_counter()
        run(rules, bots, 1, r, threads=1)
        one.append(time.perf_counter() - start)
        start = time.perf_counter()
        tournament.play(rules, len(bots), lambda t, match_rules, rng: SEAT(bots[t], match_rules, rng),
                        np.random.default_rng(r))
        reference.append(time.perf_counter() - start)
    start, cpu = time.perf_counter(), time.process_time()
    many = lab.tournaments(rules, profiles, args.many, 1, workers=args.workers)
    many_wall = time.perf_counter() - start
    one_ms, reference_ms = 1000 * statistics.median(one), 1000 * statistics.median(reference)
    result = meta(
        command=f"python experiments/combo1_tournament_bench.py --runs {args.runs} --many {args.many} "
                f"--workers {args.workers}",
        summary=f"one 8-team Combo 1 tournament (the ladder): {one_ms:,.0f} ms on the batch path (median of "
                f"{args.runs} warm runs), {reference_ms:,.0f} ms on the reference engine "
                f"({reference_ms / one_ms:.1f}x); {args.many:,} tournaments in {many_wall:,.1f} s on "
                f"{args.workers} processes ({args.many / many_wall:,.0f} a second, cold start included)",
        teams=[p.team for p in profiles], one_tournament_ms=one_ms, runs_one_tournament_ms=[1000 * x for x in one],
        reference_tournament_ms=reference_ms, runs_reference_tournament_ms=[1000 * x for x in reference],
        ratio=reference_ms / one_ms, many=args.many, many_workers=args.workers, many_wall_s=many_wall,
        many_per_s=args.many / many_wall, parent_cpu_s=time.process_time() - cpu,
        coins=int(many.coins.sum()), cores=os.cpu_count(), load_average_at_start=load,
        load_average_at_end=os.getloadavg()[0])
    write_json(result, OUT)
    print(result["summary"])
    print(f"load average {load:.1f} -> {result['load_average_at_end']:.1f}; written {OUT}")


if __name__ == "__main__":
    main()
