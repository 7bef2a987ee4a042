"""Paired bench of two checkouts' fused Play the Ranks play (issue 33, item 4: the fused loop
moved into the batch engine): for each preset and heuristic pair, CPU seconds of one thread to
play `--games` deals (rb.run, deal included), timed in a fresh process of the old checkout,
then of the new, pair after pair, so the shared machine's drift cancels in each pair's ratio.
A hand-run measurement, never a test.

    python experiments/fused_pairs_bench.py OLD_CHECKOUT NEW_CHECKOUT [--pairs 3] [--games 200000]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys

CHILD = r"""
import json, sys, time
import geolab.games.ranks.batch as rb
from geolab.bots.ranks.registry import BOTS
from geolab.games.ranks.rules import Rules
games, cases = int(sys.argv[1]), json.loads(sys.argv[2])
out = {}
for preset, names in cases:
    rules = Rules.preset(preset)
    policies = [BOTS.make(n, rules) for n in names.split(",")]
    assert all(p.fused is not None for p in policies)
    for _ in rb.run(rules, policies, 4096, 1, threads=1):  # load the kernels
        pass
    t = time.process_time()
    for _ in rb.run(rules, policies, games, 3, threads=1):
        pass
    out[preset + " " + names] = time.process_time() - t
print(json.dumps(out))
"""

CASES = [("combo1", "greedy,greedy"), ("combo1", "greedy,planner"), ("combo1", "planner,counter"),
         ("battle3", "greedy,greedy"), ("battle3", "greedy,planner"), ("battle3", "planner,counter")]


def child(checkout: str, games: int) -> dict[str, float]:
    done = subprocess.run([sys.executable, "-c", CHILD, str(games), json.dumps(CASES)], cwd=checkout,
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--pairs", type=int, default=3)
    ap.add_argument("--games", type=int, default=200000)
    args = ap.parse_args()
    runs: dict[str, list[tuple[float, float]]] = {}
    for _ in range(args.pairs):
        old, new = child(args.old, args.games), child(args.new, args.games)
        for case in old:
            runs.setdefault(case, []).append((old[case], new[case]))
    print(f"{args.games} deals, {args.pairs} pairs; CPU seconds of one thread, median (old, new, new/old range)")
    for case, pairs in runs.items():
        ratios = [n / o for o, n in pairs]
        print(f"{case:26s} {statistics.median(o for o, _ in pairs):.3f} {statistics.median(n for _, n in pairs):.3f} "
              f"{statistics.median(ratios):.3f} ({min(ratios):.3f}-{max(ratios):.3f})")


if __name__ == "__main__":
    main()
