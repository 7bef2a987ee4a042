"""Paired speed check of Jumbled's reference engine in two checkouts (hand-run; printed, and
recorded in docs/perf.md).

Plays the same N reference-engine games (`GAME.play`, standard rules, deals from seeds 0..N-1)
with the same seats in a checkout made before a change (``--before DIR``, e.g. ``git worktree
add /tmp/before 4ecff07``) and in this one, alternately, in pairs, so the machine's drift hits
both alike; reports the CPU seconds of each run, the medians and the ratio (after / before).
Seats: ``heuristic`` (the default bot, seated as `geolab play` seats it: the realistic cost)
and ``first`` (the first legal action, no bot: the engine and its driver alone).
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

#: One timed run, the same code in either checkout (both have `GAME.play` and the registry's seat).
RUN = """
import json, sys, time
import numpy as np
from geolab import registry
from geolab.bots.jumbled.registry import BOTS
from geolab.games.jumbled.game import GAME
from geolab.games.jumbled.rules import Rules

class First:
    def act(self, decision):
        return decision.legal[0]

seats_of, games = sys.argv[1], int(sys.argv[2])
rules = Rules().validate()
bot = BOTS.make("heuristic", rules)
deals = [GAME.deal(rules, np.random.default_rng(g)) for g in range(games)]

def seats(g):
    if seats_of == "first":
        return [First()] * rules.players
    return [registry.get("jumbled").seat(bot, rules, np.random.default_rng([g, p])) for p in range(rules.players)]

GAME.play(rules, deals[0], seats(0))  # imports and first calls outside the timing
cpu, rounds = time.process_time(), 0
for g, deal in enumerate(deals):
    rounds += len(GAME.play(rules, deal, seats(g)).rounds)
print(json.dumps({"cpu_s": time.process_time() - cpu, "rounds": rounds}))
"""


def run(tree: Path, seats: str, games: int) -> dict:
    return run_json(tree, ["-c", RUN, seats, str(games)])


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--before", required=True, type=Path)
    p.add_argument("--pairs", type=int, default=5)
    p.add_argument("--games", type=int, default=300)
    p.add_argument("--seats", nargs="*", default=["heuristic", "first"])
    args = p.parse_args()
    report = {"command": " ".join(["python", "experiments/jumbled_reference_paired.py", *sys.argv[1:]]),
              "load_average_start": list(os.getloadavg())}
    for seats in args.seats:
        before, after, rounds = [], [], set()
        for i in range(args.pairs):
            order = [(before, args.before), (after, HERE)]
            for times, tree in order if i % 2 == 0 else order[::-1]:
                got = run(tree, seats, args.games)
                times.append(got["cpu_s"])
                rounds.add(got["rounds"])
        if len(rounds) != 1:
            raise SystemExit(f"{seats}: the two checkouts played different games ({sorted(rounds)} rounds)")
        report[seats] = {"rounds": rounds.pop(), "before_cpu_s": before, "after_cpu_s": after,
                         "before_median": statistics.median(before), "after_median": statistics.median(after),
                         "ratio_after_over_before": statistics.median(after) / statistics.median(before)}
    report["load_average_end"] = list(os.getloadavg())
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
