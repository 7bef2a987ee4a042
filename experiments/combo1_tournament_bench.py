"""How fast whole Combo 1 tournaments run: one 8-team tournament on the batch path (median of
warm runs) beside the reference tournament in the same run, and many tournaments on processes.

    python experiments/combo1_tournament_bench.py [--runs 7] [--many 10000] [--workers 2]

Writes results/bench/combo1_tournament.json (the issue's targets: one tournament under 50 ms;
10,000 under a minute on 2 cores).

    python experiments/combo1_tournament_bench.py --before DIR [--pairs 5]

instead times one tournament on this checkout and on one from before a change (``git worktree
add DIR REV``), each in a fresh process (4 tournaments to warm, then the median of 7), in pairs
whose order swaps every other pair, so the machine's drift hits both alike ->
results/bench/combo1_tournament_paired.json (each pair's ms and ratio after / before, and the
median ratio).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

import numpy as np
from bench_pairs import run_json

from geolab.bots.combo1.registry import seat
from geolab.games.combo1 import tournament
from geolab.games.combo1.offers import tournament as lab
from geolab.games.combo1.tournament import TournamentRules
from geolab.games.combo1.tournament_batch import run
from geolab.lab.results import meta, write_json

HERE = Path(__file__).resolve().parents[1]
OUT = HERE / "results" / "bench" / "combo1_tournament.json"
PAIRED = HERE / "results" / "bench" / "combo1_tournament_paired.json"

#: One tree's timing, in a fresh process: the same code works on both checkouts.
RUN = """
import json, statistics, time
from geolab.games.combo1.tournament import TournamentRules
from geolab.games.combo1.tournament_batch import run
from geolab.games.combo1.offers import tournament as lab
rules = TournamentRules()
bots = lab.teams(rules, lab.ladder(8))
run(rules, bots, 4, 10_000, threads=1)
times = []
for r in range(7):
    start = time.perf_counter()
    run(rules, bots, 1, r, threads=1)
    times.append(time.perf_counter() - start)
print(json.dumps({"ms": 1000 * statistics.median(times)}))
"""


def paired(before: Path, pairs: int) -> None:
    """One tournament's median ms, this checkout against `before`, in alternating pairs."""
    load, rows = os.getloadavg()[0], []
    for i in range(pairs):
        order = [("before", before), ("after", HERE)]
        got = {name: run_json(tree, ["-c", RUN])["ms"] for name, tree in (order if i % 2 == 0 else order[::-1])}
        rows.append({"before_ms": got["before"], "after_ms": got["after"],
                     "after_over_before": got["after"] / got["before"]})
        print(rows[-1], flush=True)
    result = meta(command=f"python experiments/combo1_tournament_bench.py --before {before} --pairs {pairs}",
                  summary=f"one 8-team tournament (4 to warm, median of 7, a fresh process each): "
                          f"{statistics.median(r['after_ms'] for r in rows):,.1f} ms after, "
                          f"{statistics.median(r['before_ms'] for r in rows):,.1f} ms before (median ratio "
                          f"{statistics.median(r['after_over_before'] for r in rows):.3f}, {pairs} pairs)",
                  before=str(before), pairs=rows,
                  median_after_over_before=statistics.median(r["after_over_before"] for r in rows),
                  cores=os.cpu_count(), load_average_at_start=load, load_average_at_end=os.getloadavg()[0])
    write_json(result, PAIRED)
    print(result["summary"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--many", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--before", type=Path, help="a checkout to compare one tournament's time with")
    parser.add_argument("--pairs", type=int, default=5)
    args = parser.parse_args()
    if args.before is not None:
        paired(args.before, args.pairs)
        return
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
        tournament.play(rules, len(bots), lambda t, match_rules, rng: seat(bots[t], match_rules, rng),
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
