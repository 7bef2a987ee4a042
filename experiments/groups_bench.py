"""The group finder's benchmark (-> results/bench/groups.json): eighteen-card hands a second
on the batched finder (numba's threads, then one thread) and on the plain-Python finder,
timed in the same runs, with the ratio run by run; medians over the runs. Land borders.

    python experiments/groups_bench.py [--hands 2000000] [--plain 2000] [--runs 5]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

import numba
import numpy as np

from geolab.games import groups, groups_batch
from geolab.lab.results import meta

HERE = Path(__file__).resolve().parents[1]


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            return next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), "")
    except OSError:
        return platform.processor() or platform.machine()


def timed(work) -> tuple[float, float]:
    """Wall and CPU (the process's, every thread) seconds of work()."""
    wall, cpu = time.perf_counter(), time.process_time()
    work()
    return time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hands", type=int, default=2_000_000, help="hands the batched finder does in a run")
    p.add_argument("--plain", type=int, default=2_000, help="hands the plain finder does in a run")
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path, default=HERE / "results" / "bench" / "groups.json")
    args = p.parse_args()
    load_before = list(os.getloadavg())
    hands = groups.random_hands(args.hands, 18, args.seed)
    plain_hands = [groups.cards_of(m) for m in hands[: args.plain]]
    batch = groups_batch.find_batch(hands[: args.plain])  # compiles or loads the kernel, and checks it
    for h, cards in enumerate(plain_hands):
        found = groups.find(cards)
        assert batch.found(h) == (found.geodouble, found.border_up), h
    threads = numba.get_num_threads()
    runs = []
    for r in range(args.runs):
        run = {}
        for name, n in ((f"batched_{threads}_threads", threads), ("batched_1_thread", 1)):
            numba.set_num_threads(n)
            wall, cpu = timed(lambda: groups_batch.find_batch(hands))
            run[name] = {"hands_per_s": args.hands / wall, "hands_per_cpu_s": args.hands / cpu,
                         "cores_used": cpu / wall}
        numba.set_num_threads(threads)
        wall, cpu = timed(lambda: [groups.find(cards) for cards in plain_hands])
        run["plain"] = {"hands_per_s": args.plain / wall, "hands_per_cpu_s": args.plain / cpu, "cores_used": cpu / wall}
        run["ratio"] = run[f"batched_{threads}_threads"]["hands_per_s"] / run["plain"]["hands_per_s"]
        run["ratio_1_thread"] = run["batched_1_thread"]["hands_per_s"] / run["plain"]["hands_per_s"]
        run["load_average"] = list(os.getloadavg())
        runs.append(run)
        print(f"run {r}: batched {run[f'batched_{threads}_threads']['hands_per_s']:,.0f}/s "
              f"(1 thread {run['batched_1_thread']['hands_per_s']:,.0f}/s), "
              f"plain {run['plain']['hands_per_s']:,.0f}/s, "
              f"ratio {run['ratio']:,.0f}, load {run['load_average'][0]:.2f}", flush=True)

    def median(name, key=None):
        return statistics.median(run[name] if key is None else run[name][key] for run in runs)

    report = {
        "meta": meta(
            command=" ".join(["python", "experiments/groups_bench.py", *sys.argv[1:]]),
            machine={"cpus": os.cpu_count(), "numba_threads": threads, "processor": cpu_model(),
                     "numba": numba.__version__, "numpy": np.__version__},
            load_average_before=load_before, load_average_after=list(os.getloadavg()),
        ),
        "setting": {"hand_size": 18, "borders": "land", "batched_hands": args.hands, "plain_hands": args.plain,
                    "runs": args.runs, "seed": args.seed},
        "median": {
            **{name: {k: median(name, k) for k in ("hands_per_s", "hands_per_cpu_s", "cores_used")}
               for name in (f"batched_{threads}_threads", "batched_1_thread", "plain")},
            "ratio": median("ratio"), "ratio_1_thread": median("ratio_1_thread"),
        },
        "runs": runs,
        "note": "wall-clock rates of the finder alone (hands dealt before); ratio = batched / plain hands a "
                "second, run by run; CPU rates are the process's CPU seconds over every thread, cores_used = CPU "
                "seconds / wall seconds (below the thread count when other jobs hold cores)",
    }
    args.out.write_text(json.dumps(report, indent=1) + "\n")
    print(json.dumps(report["median"], indent=1))


if __name__ == "__main__":
    main()
