"""Paired speed check of two checkouts (-> results/bench/interface_paired.json).

Runs `geolab bench ranks|jumbled|class|solver` alternately from a checkout made before a change
(``--before DIR``, e.g. ``git worktree add /tmp/before d277c5d``) and from this one, in pairs,
so the machine's drift hits both alike; reports each pair's ratio (after / before) of the
headline rate and the median ratio. The two checkouts name the bench flags differently (the
game interface made them the same for every game), so each side has its own command line.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]

#: bench -> (before's arguments, after's arguments, the rate compared); the CPU-time rate beside
#: it where the bench reports one (steadier than wall time when the host's cores drift)
BENCHES = {
    "ranks": (["bench", "ranks", "--games", "2000000", "--runs", "3"],
              ["bench", "ranks", "--games", "2000000", "--runs", "3"], "tricks_per_s"),
    "jumbled": (["bench", "jumbled", "--rounds", "524288", "--repeats", "3", "--workers", "2"],
                ["bench", "jumbled", "--games", "524288", "--runs", "3", "--threads", "2"], "rounds_per_s"),
    "class": (["bench", "class", "--games", "200000", "--repeats", "3"],
              ["bench", "class", "--rules", "full-class", "--games", "200000", "--runs", "3"],
              "batch_student_hands_per_s"),
    "solver": (["bench", "solver"], ["bench", "solver"], "cpu_ms_per_deal"),
}
CPU_RATES = {"ranks": "tricks_per_cpu_s", "jumbled": "rounds_per_cpu_s", "class": "batch_student_hands_per_cpu_s"}


def run_json(tree: Path, argv: list[str]) -> dict:
    """``python ARGV`` in a fresh process on the checkout `tree`, its printed JSON (the paired
    benches' one way to time a tree: old and new alike)."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    out = subprocess.run([sys.executable, *argv], cwd=tree, env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def run(tree: Path, argv: list[str]) -> dict:
    return run_json(tree, ["-m", "geolab", *argv, "--json"])


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--before", required=True, type=Path)
    p.add_argument("--pairs", type=int, default=3)
    p.add_argument("--only", nargs="*", default=list(BENCHES))
    p.add_argument("--out", type=Path, default=HERE / "results" / "bench" / "interface_paired.json")
    args = p.parse_args()
    report = {"command": " ".join(["python", "experiments/bench_pairs.py", *sys.argv[1:]]),
              "before": str(args.before), "load_average_start": list(os.getloadavg()), "benches": {}}
    for name in args.only:
        before_argv, after_argv, key = BENCHES[name]
        rows = []
        for i in range(args.pairs):
            order = [("before", args.before, before_argv), ("after", HERE, after_argv)]
            if i % 2:
                order.reverse()
            got = {side: run(tree, argv) for side, tree, argv in order}
            row = {"before": got["before"][key], "after": got["after"][key],
                   "after_over_before": got["after"][key] / got["before"][key]}
            if name in CPU_RATES:
                cpu = CPU_RATES[name]
                row |= {"before_cpu": got["before"][cpu], "after_cpu": got["after"][cpu],
                        "cpu_after_over_before": got["after"][cpu] / got["before"][cpu]}
            rows.append(row)
            print(name, rows[-1], flush=True)
        report["benches"][name] = {"rate": key, "pairs": rows,
                                   "median_after_over_before": statistics.median(r["after_over_before"] for r in rows),
                                   "median_cpu_after_over_before": statistics.median(
                                       r.get("cpu_after_over_before", float("nan")) for r in rows),
                                   "note": "lower is better" if "_ms" in key else "higher is better"}
    report["load_average_end"] = list(os.getloadavg())
    args.out.write_text(json.dumps(report, indent=1) + "\n")
    print(json.dumps({k: v["median_after_over_before"] for k, v in report["benches"].items()}))


if __name__ == "__main__":
    main()
