"""Paired bench of two checkouts' kernels (issue 24, item 4: arguments grouped into named tuples):
the fused heuristic play (Play the Ranks), the ISMCTS search and the Class batch kernel, each
timed in a fresh process of the old checkout, then of the new, pair after pair, so the shared
machine's drift cancels in each pair's ratio. A hand-run measurement, never a test.

    python experiments/kernel_args_bench.py OLD_CHECKOUT NEW_CHECKOUT [--pairs 7] [--only class] [--scale 2]
        [--out FILE.json]

Each process loads its checkout's kernels (compiled once per checkout beforehand), warms them
and reports CPU seconds of one thread (numba set to one thread): fused play of 200,000 Combo 1
deals, greedy v counter (rb.run, deal included); 5 ISMCTS searches of 20,000 iterations;
100,000 classes of 32 students in 8 groups, equilibrium discards.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

CHILD = r"""
import json, sys, time
import numba
numba.set_num_threads(1)
import numpy as np
import geolab.games.ranks.batch as rb
from geolab.bots.ranks.registry import BOTS
from geolab.bots.ranks.ismcts import ISMCTSSeat
from geolab.games.ranks.reference import Trick, View
from geolab.games.ranks.rules import Rules
from geolab.games.classroom.batch import simulate
from geolab.games.classroom.rules import Rules as ClassRules
from geolab.games.classroom.offers.arena import tables

def fused(games):
    rules = Rules.combo1()
    policies = [BOTS.make("greedy", rules), BOTS.make("counter", rules)]
    for _ in rb.run(rules, policies, games, 3, threads=1):
        pass

combo, battle2 = Rules.combo1(), Rules.battle(2)
VIEWS = [View(combo, 0, (3, 9, 17, 22, 30, 36, 41, 48), (5,), None, 0, (None, None), None, ()),
         View(combo, 1, (4, 10, 18, 23, 31, 37, 42), (6,), None, 0, (None, None), None,
              (Trick(0, 12, 1, 1, 13, 0),), lead_category=2, lead_base=1, lead_card=20),
         View(battle2, 1, (3, 8, 21, 40, 44, 46), (2,), (9,), 0, (False, True), None,
              (Trick(0, 12, 1, 50, 13, 0), Trick(0, 14, 0, 1, 15, 1)), lead_category=2, lead_base=1, lead_card=None),
         View(battle2, 0, (1, 7, 19, 27, 33, 45), (2,), (9,), 0, (True, False), None,
              (Trick(0, 12, 1, 50, 13, 1), Trick(1, 14, 0, 1, 15, 0))),
         View(Rules.battle(3), 0, (0, 11, 22, 33, 44, 47, 49, 16), (2,), (9,), 0, (None, None), (10, 30), ())]

def search(iterations):
    for view in VIEWS:
        ISMCTSSeat(iterations=iterations, budget_ms=None, layouts=64, seed=7).search(view)

crules = ClassRules(students=32, groups=8)
table = tables(["equilibrium"], crules)
seats = np.zeros(crules.students, np.int64)

def classes(n):
    simulate(crules, table, seats, n, 5)

def cpu(f, *a):
    start = time.process_time()
    f(*a)
    return time.process_time() - start

only, scale = sys.argv[1].split(","), float(sys.argv[2])
fused(4096); search(200); classes(512)  # load (or compile) and warm
SIZES = {"fused": (fused, 1_000_000), "ismcts": (search, 400_000), "class": (classes, 2_000_000)}
print(json.dumps({k: cpu(f, int(n * scale)) for k, (f, n) in SIZES.items() if k in only}))
"""


def one(checkout: str, only: str, scale: float) -> dict:
    env = dict(os.environ, PYTHONPATH=checkout)
    out = subprocess.run([sys.executable, "-c", CHILD, only, str(scale)], env=env, capture_output=True, text=True,
                         check=True, cwd=checkout)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("old")
    p.add_argument("new")
    p.add_argument("--pairs", type=int, default=7)
    p.add_argument("--only", default="fused,ismcts,class", help="the parts to time, comma-separated")
    p.add_argument("--scale", type=float, default=1.0, help="work a run, times the sizes above")
    p.add_argument("--out")
    args = p.parse_args()
    runs = []
    for i in range(args.pairs):
        old, new = one(args.old, args.only, args.scale), one(args.new, args.only, args.scale)
        runs.append({"old": old, "new": new, "load": os.getloadavg()[0]})
        print(f"pair {i + 1}: " + ", ".join(f"{k} {old[k]:.3f} s v {new[k]:.3f} s" for k in old), flush=True)
    summary = {}
    for k in runs[0]["old"]:
        summary[k] = {"old_median_cpu_s": statistics.median(r["old"][k] for r in runs),
                      "new_median_cpu_s": statistics.median(r["new"][k] for r in runs),
                      "median_ratio_new_over_old": statistics.median(r["new"][k] / r["old"][k] for r in runs)}
    result = {"what": __doc__.strip().splitlines()[0], "pairs": args.pairs, "only": args.only, "scale": args.scale,
              "when": time.strftime("%Y-%m-%d %H:%M"),
              "cpus": os.cpu_count(), "summary": summary, "runs": runs}
    print(json.dumps(summary, indent=1))
    if args.out:
        Path(args.out).write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
