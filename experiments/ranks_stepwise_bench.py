"""Paired speed check of Play the Ranks' reference engine: this checkout against one from before
a change (``--before DIR``, e.g. ``git worktree add /tmp/before 4ecff07``, the callback loop
before the step-wise engine) -> results/bench/ranks_stepwise_paired.json.

Each run is a fresh process that plays the same deals with the same seats and reports the CPU
seconds of the games alone (steadier than wall time on a shared machine); runs alternate
before / after in pairs (the order swapped every other pair), and the figure is the median of
the pairs' ratios after / before (below 1: faster). Line-ups, each on combo1, battle2 and
geodouble: ``methods``, greedy v greedy method seats through ``reference.play`` (the lab
bench's reference path); ``decisions``, seats taking a random legal action through
``Game.play``; ``registry``, the registry's greedy v random at the reference engine (the seats
``geolab play`` gives bots).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from pathlib import Path

from bench_pairs import run_json

HERE = Path(__file__).resolve().parents[1]

#: One timed run: the same code works on both checkouts (their entry points did not change).
RUN = """
import json, sys, time
import numpy as np
from geolab import registry
from geolab.bots.ranks.seats import GreedySeat
from geolab.games.ranks.game import GAME
from geolab.games.ranks.reference import deal_one, play
from geolab.games.ranks.rules import Rules

lineup, preset, games = sys.argv[1], sys.argv[2], int(sys.argv[3])
rules = Rules.preset(preset)
rng = np.random.default_rng(0)
deals = [deal_one(rules, rng) for _ in range(games + 20)]


class RandomLegal:
    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)

    def act(self, decision):
        return decision.legal[int(self.rng.integers(len(decision.legal)))]


if lineup == "methods":
    seats = [GreedySeat(), GreedySeat()]
    def one(d):
        lead = d.drawn_first_lead() if rules.first_lead == "given" else None
        return play(rules, d.hands, seats, lead, d.power_bases)
else:
    if lineup == "decisions":
        seats = [RandomLegal(1), RandomLegal(2)]
    else:
        entry = registry.get("ranks")
        seats = [entry.seat(entry.bots.make(n, rules), rules, np.random.default_rng(s))
                 for s, n in enumerate(("greedy", "random"))]
    def one(d):
        return GAME.play(rules, d, seats)
for d in deals[:20]:  # imports, caches, compiled kernels: outside the timing
    one(d)
start = time.process_time()
tricks = sum(len(one(d).tricks) for d in deals[20:])
print(json.dumps({"cpu_s": time.process_time() - start, "tricks": tricks}))
"""
LINEUPS = {"methods": 2000, "decisions": 2000, "registry": 300}
PRESETS = ("combo1", "battle2", "geodouble")


def run(tree: Path, lineup: str, preset: str, games: int) -> dict:
    return run_json(tree, ["-c", RUN, lineup, preset, str(games)])


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--before", required=True, type=Path)
    p.add_argument("--pairs", type=int, default=5)
    p.add_argument("--out", type=Path, default=HERE / "results" / "bench" / "ranks_stepwise_paired.json")
    args = p.parse_args()
    report = {"command": " ".join(["python", "experiments/ranks_stepwise_bench.py", *sys.argv[1:]]),
              "before": str(args.before), "load_average_start": list(os.getloadavg()), "runs": {}}
    for lineup, games in LINEUPS.items():
        for preset in PRESETS:
            rows = []
            for i in range(args.pairs):
                order = [("before", args.before), ("after", HERE)]
                got = {side: run(tree, lineup, preset, games) for side, tree in (order[::-1] if i % 2 else order)}
                if got["before"]["tricks"] != got["after"]["tricks"]:
                    raise SystemExit(f"{lineup} {preset}: the two checkouts played different games")
                rows.append({"before_cpu_s": got["before"]["cpu_s"], "after_cpu_s": got["after"]["cpu_s"],
                             "after_over_before": got["after"]["cpu_s"] / got["before"]["cpu_s"]})
                print(lineup, preset, rows[-1], flush=True)
            report["runs"][f"{lineup} {preset}"] = {
                "games": games, "pairs": rows,
                "median_before_cpu_s": statistics.median(r["before_cpu_s"] for r in rows),
                "median_after_cpu_s": statistics.median(r["after_cpu_s"] for r in rows),
                "median_after_over_before": statistics.median(r["after_over_before"] for r in rows)}
    report["load_average_end"] = list(os.getloadavg())
    args.out.write_text(json.dumps(report, indent=1) + "\n")
    print(json.dumps({k: round(v["median_after_over_before"], 3) for k, v in report["runs"].items()}))


if __name__ == "__main__":
    main()
