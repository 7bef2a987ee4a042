"""Rule-search studies (issue 36, item 5; docs/rule-search.md#studies): each spec of
experiments/search/ raced by `geolab.lab.search`, its tables, plot and meta.json written to
results/search/<study>/ (the chunk files are left out: rerun this command to regenerate them).

    python experiments/search_studies.py ranks-bases geodouble-race combo1-morning combo1-order
    python experiments/search_studies.py jumbled-bonus            # one search per player count, 2-8
    python experiments/search_studies.py class-groups             # one search per class size, 12-32
    python experiments/search_studies.py --replot ranks-bases     # search.png again from the committed tables

Each search's wall and CPU seconds (this process and its workers, `resource.getrusage`) and the
load average before and after go to meta.json: the machine is shared.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import sys
import time
import tomllib
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from geolab.lab import search  # noqa: E402
from geolab.lab.results import write_json  # noqa: E402

SPECS = ROOT / "experiments" / "search"
OUT = ROOT / "results" / "search"
#: Studies run once per value of one rules field (the spec names it with a single choice).
PER = {"jumbled-bonus": ("players", range(2, 9)), "class-groups": ("students", range(12, 33, 4))}


def cpu() -> float:
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def one(name: str, data: dict, out: Path, workers: int, command: str) -> dict:
    """Race one spec into `out` and keep its tables, plot and meta.json (not its chunks)."""
    spec = search.parse_search(data)
    if out.exists():
        shutil.rmtree(out)
    before, wall, used = os.getloadavg(), time.perf_counter(), cpu()
    result = search.run(spec, out, workers=workers)
    wall, used = time.perf_counter() - wall, cpu() - used
    for kind in ("chunks", "probe", "recheck"):  # no re-check when no candidate meets the bounds
        shutil.rmtree(out / kind, ignore_errors=True)
    for table in ("candidates", "rounds", "recheck"):
        result[table].to_csv(out / f"{table}.csv", index=False)
    fig = search.plot(result, spec)
    fig.savefig(out / "search.png", dpi=110, bbox_inches="tight")
    meta = {"study": name, "command": command, "regenerate": f"{command} (the chunk files are not kept)",
            "candidates": len(result["candidates"]), "deals_max": spec.deals, "chunk": spec.chunk_size(),
            "lineups": list(spec.lineups), "winner": result["winner"], "same_as_winner": result["same_as_winner"],
            "deals_spent": result["deals_spent"], "uniform_deals": result["uniform_deals"],
            "saving": result["saving"], "racing_confidence_each": result["racing_confidence_each"],
            "recheck_seed": result["fresh_seed"], "recheck_deals": spec.recheck,
            "wall_s": wall, "cpu_s": used, "workers": workers, "load_average_before": before,
            "load_average_after": os.getloadavg(), "cores": os.cpu_count(),
            "note": "shared machine: other jobs ran at the same time"}
    write_json(meta, out / "meta.json")
    print(json.dumps({k: meta[k] for k in ("study", "winner", "deals_spent", "saving", "wall_s", "cpu_s")}),
          flush=True)
    return meta


def replot(out: Path, spec: search.SearchSpec) -> None:
    """search.png again from the tables and meta.json on disk (no deals played)."""
    fields = {d.field: str for d in spec.dimensions}  # the values as the search shows them ("none", "[1,50]")
    m = json.loads((out / "meta.json").read_text())
    result = {"candidates": pd.read_csv(out / "candidates.csv", converters=fields),
              "rounds": pd.read_csv(out / "rounds.csv"), **{k: m[k] for k in ("winner", "deals_spent", "uniform_deals",
                                                                               "saving")}}
    search.plot(result, spec).savefig(out / "search.png", dpi=110, bbox_inches="tight")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("studies", nargs="+", help="spec names under experiments/search/")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--replot", action="store_true", help="redraw search.png from the committed tables only")
    args = parser.parse_args()
    for name in args.studies:
        data = tomllib.loads((SPECS / f"{name}.toml").read_text())
        command = f"python experiments/search_studies.py {name}"
        runs = [(data, OUT / name)]
        if name in PER:
            field, values = PER[name]
            runs = [({**data, "search": {**data["search"], "fields": {**data["search"]["fields"],
                                                                       field: {"choices": [value]}}}},
                     OUT / name / f"{field}-{value}") for value in values]
        for one_data, out in runs:
            if args.replot:
                replot(out, search.parse_search(one_data))
            else:
                one(name, one_data, out, args.workers, command)
