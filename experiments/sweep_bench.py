"""The sweep benchmark (-> results/bench/sweep.json): 20 Play the Ranks variants x greedy
self-play x 100,000 duplicate deals (experiments/sweeps/ranks20.toml), on 1 and 2 local
processes and on a Dask LocalCluster of 2 worker processes, alternately (``--repeats`` times),
plus one run killed half-way (SIGKILL) and resumed, whose summary must be byte-identical.

    python experiments/sweep_bench.py [--repeats 3]
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
SPEC = HERE / "experiments" / "sweeps" / "ranks20.toml"


def timed(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "geolab", "sweep", str(SPEC), *argv, "--json"], check=True,
                   stdout=subprocess.DEVNULL, cwd=HERE)
    return time.perf_counter() - start


def killed_and_resumed(tmp: Path, whole: Path) -> dict:
    out = tmp / "killed"
    child = subprocess.Popen([sys.executable, "-m", "geolab", "sweep", str(SPEC), "--out", str(out), "--json"],
                             stdout=subprocess.DEVNULL, cwd=HERE)
    chunks = out / "chunks"
    while child.poll() is None and (not chunks.is_dir() or len(list(chunks.glob("*.json"))) < 50):
        time.sleep(0.05)
    child.send_signal(signal.SIGKILL)
    child.wait()
    done = len(list(chunks.glob("*.json")))
    timed(["--out", str(out), "--resume"])
    same = (out / "summary.csv").read_bytes() == (whole / "summary.csv").read_bytes()
    return {"chunks_done_when_killed": done, "chunks": 100, "summary_byte_identical": same}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--out", type=Path, default=HERE / "results" / "bench" / "sweep.json")
    args = p.parse_args()
    from dask.distributed import LocalCluster

    runs = {"workers_1": [], "workers_2": [], "dask_2": []}
    load = list(os.getloadavg())
    with tempfile.TemporaryDirectory() as tmp, LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                                            dashboard_address=None) as cluster:
        tmp = Path(tmp)
        for r in range(args.repeats):
            for name, argv in (("workers_1", ["--workers", "1"]), ("workers_2", ["--workers", "2"]),
                               ("dask_2", ["--scheduler", cluster.scheduler_address])):
                runs[name].append(timed([*argv, "--out", str(tmp / f"{name}-{r}")]))
                print(name, round(runs[name][-1], 2), flush=True)
        first = (tmp / "workers_1-0" / "summary.csv").read_bytes()
        identical = all((tmp / f"{n}-{r}" / "summary.csv").read_bytes() == first
                        for n in runs for r in range(args.repeats))
        resume = killed_and_resumed(tmp, tmp / "workers_1-0")
    med = {k: statistics.median(v) for k, v in runs.items()}
    report = {
        "command": " ".join(["python", "experiments/sweep_bench.py", *sys.argv[1:]]),
        "spec": str(SPEC.relative_to(HERE)), "variants": 20, "deals_per_variant": 100_000,
        "games": 20 * 100_000, "lineup": "greedy self-play (one rotation)",
        "seconds": runs, "median_seconds": med,
        "speedup_2_workers": med["workers_1"] / med["workers_2"],
        "dask_overhead": med["dask_2"] / med["workers_2"],
        "summaries_identical_across_executors": identical, "kill_and_resume": resume,
        "load_average_before": load, "load_average_after": list(os.getloadavg()),
        "note": "wall seconds of the whole command (start-up and numba cache loading included), 2 cores",
    }
    args.out.write_text(json.dumps(report, indent=1) + "\n")
    print(json.dumps({k: report[k] for k in ("median_seconds", "speedup_2_workers", "dask_overhead",
                                             "summaries_identical_across_executors", "kill_and_resume")}))


if __name__ == "__main__":
    main()
