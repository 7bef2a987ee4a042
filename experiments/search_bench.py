"""Rule-search benchmark (issue 36): racing against a uniform sweep (not a test).

    python experiments/search_bench.py --grid small      # 36 candidates: racing and the uniform sweep, both run
    python experiments/search_bench.py --grid large      # 1,024 candidates: racing only (the sweep's deals counted)
    ... --grid large --uniform                           # ... and the uniform sweep too (about 10 CPU-minutes)
    python experiments/search_bench.py --dask            # a small search on a local Dask cluster, 1 v 2 workers
    ... --dask --dask-grid large --champions 0 --first-round 0   # a longer one, where start-up counts less
    ... --first-round 0 / --champions 0                  # the spec's first round or champions changed (0: none)

The spec is experiments/search/ranks-counting.toml (counter v greedy, skill edge subject to a
fair first lead and few ties, 102,400 deals at most a candidate); the large grid is every
pattern of bases 1 and 50 over the 8 tricks (256) x hidden_lead x last_trick_breaks_tie, end_at
at the official 6: 1,024 rules that play different games (until issue 36's studies it was the
256 patterns x end_at 5, 6, 7, none, three quarters of them twins: with win_tricks 5 every
end_at plays the same winners, so racing could not tell them apart and spent deals on each). Wall and CPU seconds
(this process and its children, `resource.getrusage`) go to results/search/rules/bench-<grid>.json
with the search's own tables under results/search/rules/<grid>/. The machine is shared: the
load average before and after is recorded.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import resource
import shutil
import sys
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from geolab.lab import search  # noqa: E402
from geolab.lab.results import write_json  # noqa: E402

SPEC = ROOT / "experiments" / "search" / "ranks-counting.toml"
OUT = ROOT / "results" / "search" / "rules"


def cpu() -> float:
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def spec_data(grid: str, first_round: int | None = None, champions: int | None = None) -> dict:
    """The spec of a grid; `first_round` and `champions` replace the spec's (first round 0: none)."""
    data = tomllib.loads(SPEC.read_text())
    if first_round == 0:
        data["search"].pop("first_round", None)
    elif first_round is not None:
        data["search"]["first_round"] = first_round
    if champions is not None:
        data["search"]["champions"] = champions
    if grid == "large":  # 1,024 rules that play different games (end_at kept: its values play twins)
        fields = data["search"]["fields"]
        del fields["end_at"]
        fields["bases"] = {"choices": [list(p) for p in itertools.product([1, 50], repeat=8)]}
        fields["hidden_lead"] = "switch"
        fields["last_trick_breaks_tie"] = "switch"
    return data


def timed(label: str, work) -> tuple[object, dict]:
    wall, used = time.perf_counter(), cpu()
    result = work()
    return result, {f"{label}_wall_s": time.perf_counter() - wall, f"{label}_cpu_s": cpu() - used}


def bench(grid: str, workers: int, uniform: bool, scratch: Path) -> dict:
    data = spec_data(grid, ARGS.first_round, ARGS.champions)
    spec = search.parse_search(data)
    listed = search.Space(spec).listed()
    out = OUT / grid
    if out.exists():
        shutil.rmtree(out)
    raced, times = timed("racing", lambda: search.run(spec, out, workers=workers))
    for kept in ("chunks", "probe", "recheck"):
        shutil.rmtree(out / kept, ignore_errors=True)
    for name in ("candidates", "rounds", "recheck"):
        raced[name].to_csv(out / f"{name}.csv", index=False)
    fig = search.plot(raced, spec)
    fig.savefig(out / "search.png", dpi=110, bbox_inches="tight")
    write_json(data, out / "spec.json")
    report = {"grid": grid, "candidates": len(listed), "workers": workers, "deals_max": spec.deals,
              "first_round": spec.first_round, "champions": spec.champions, "depths": spec.depths(),
              "lineups": list(spec.lineups), "winner": raced["winner"], "deals_spent": raced["deals_spent"],
              "uniform_deals": raced["uniform_deals"], "saving": raced["saving"],
              "racing_confidence_each": raced["racing_confidence_each"],
              "twins": int(raced["candidates"]["same_games_as"].notna().sum()),
              "rounds": raced["rounds"].to_dict("records"), **times}
    if uniform:
        swept, t = timed("uniform", lambda: search.uniform(spec, listed, scratch / f"uniform-{grid}", workers=workers))
        report |= {"uniform_winner": swept["winner"], "same_winner": swept["winner"] == raced["winner"], **t}
        report["cpu_ratio_uniform_over_racing"] = report["uniform_cpu_s"] / report["racing_cpu_s"]
    return report


def dask_ratio(scratch: Path) -> dict:
    """A search (`--dask-grid`, `--dask-deals` a candidate) on a local Dask cluster of 1 and of 2
    worker processes, each cluster warmed by one short untimed search (its workers load the
    kernels), then timed `--repeats` times: wall seconds, their medians and ratio."""
    from distributed import LocalCluster

    data = spec_data(ARGS.dask_grid, ARGS.first_round, ARGS.champions)
    data["deals"] = ARGS.dask_deals
    spec = search.parse_search(data)
    warm = spec_data("small", 0, 0)
    warm["deals"] = 4096
    warm = search.parse_search(warm)
    walls: dict[int, list[float]] = {1: [], 2: []}
    answers = set()
    for n in (1, 2):
        with LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
            search.run(warm, scratch / f"dask-warm-{n}", scheduler=cluster.scheduler_address)
            for repeat in range(ARGS.repeats):
                start = time.perf_counter()
                result = search.run(spec, scratch / f"dask-{n}-{repeat}", scheduler=cluster.scheduler_address)
                walls[n].append(time.perf_counter() - start)
                answers.add((result["winner"], result["deals_spent"]))
    median = {n: sorted(w)[len(w) // 2] for n, w in walls.items()}
    return {"grid": f"{ARGS.dask_grid}, {ARGS.dask_deals:,} deals a candidate", "champions": spec.champions,
            "first_round": spec.first_round, "deals_spent": sorted(answers)[0][1],
            "wall_s": walls, "median_wall_s": median,
            "speedup_2_over_1": median[1] / median[2], "same_answer": len(answers) == 1}


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--grid", choices=["small", "large"])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--no-uniform", action="store_true", help="small grid: skip the uniform sweep")
    parser.add_argument("--uniform", action="store_true", help="large grid: run the uniform sweep too")
    parser.add_argument("--dask-deals", type=int, default=32768, help="--dask: deals a candidate at most")
    parser.add_argument("--dask-grid", choices=["small", "large"], default="small", help="--dask: the grid searched")
    parser.add_argument("--dask", action="store_true")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--first-round", type=int, help="the first round's deals (0: whole chunks from the start)")
    parser.add_argument("--champions", type=int, help="candidates played deeper each round (0: none)")
    parser.add_argument("--scratch", default="/tmp/geolab-search-bench")
    ARGS = parser.parse_args()
    scratch = Path(ARGS.scratch)
    if scratch.exists():
        shutil.rmtree(scratch)
    scratch.mkdir(parents=True)
    OUT.mkdir(parents=True, exist_ok=True)
    before = os.getloadavg()
    if ARGS.grid:
        report = bench(ARGS.grid, ARGS.workers, (ARGS.grid == "small" and not ARGS.no_uniform) or ARGS.uniform,
                       scratch)
        name = f"bench-{ARGS.grid}.json"
    else:
        report = dask_ratio(scratch)
        name = "bench-dask.json"
    report |= {"command": "python experiments/search_bench.py " + " ".join(sys.argv[1:]),
               "load_average_before": before, "load_average_after": os.getloadavg(), "cores": os.cpu_count(),
               "note": "shared machine: other jobs ran at the same time"}
    write_json(report, OUT / name)
    print(json.dumps({k: v for k, v in report.items() if k != "rounds"}, indent=1, default=str))
