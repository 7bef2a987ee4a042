"""Exact best response and exploitability of Play the Ranks bots on the analysis variants
(issue 35, item 2): results/strength/exact/exact.csv and meta.json.

For each variant and target bot: the exact best response's expected win share against the
bot from seat A and from seat B (every deal enumerated, `geolab.games.ranks.solver.best_response`),
their mean, the exploitability (mean - 1/2, the game's value for either seat), and the exact
win share of every other registered fair bot against the same target on the same deals (the
BR must beat them all), with the CPU seconds of the best responses.

    python3 experiments/exact_best_response.py [--variants tiny,small] [--targets random,greedy,...] [--out DIR]
"""

from __future__ import annotations

import argparse
import csv
import json
import platform
import time
from pathlib import Path

from geolab.bots.ranks.behaviour import Behaviour
from geolab.bots.ranks.registry import BOTS
from geolab.games.ranks.rules import Rules
from geolab.games.ranks.solver.best_response import deals, exact_value, exploitability

TARGETS = ("random,greedy,planner,counter,montecarlo:k=8,budget_ms=none,"
           "sequential:k=8,least=4,step=2,budget_ms=none,sequential:k=16,least=8,step=4,budget_ms=none")
OTHERS = "random,greedy,planner,counter"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variants", default="tiny,small")
    ap.add_argument("--targets", default=TARGETS, help="bot specs, ';'-separated when a spec has commas")
    ap.add_argument("--others", default=OTHERS, help="bots whose exact value against each target is listed")
    ap.add_argument("--out", default="results/strength/exact")
    args = ap.parse_args()
    targets = args.targets.split(";") if ";" in args.targets else _specs(args.targets)
    rows = []
    for variant in args.variants.split(","):
        rules = Rules.preset(variant)
        for spec in targets:
            target = Behaviour(BOTS.make(spec, rules), rules)
            result = exploitability(rules, target)
            others = {}
            for other in args.others.split(","):
                policy = Behaviour(BOTS.make(other, rules), rules)
                others[other] = sum(exact_value(rules, target, r, policy) for r in (0, 1)) / 2
            rows.append({"variant": variant, "deals": deals(rules), "target": spec, **result,
                         **{f"vs_{k}": v for k, v in others.items()}})
            print(json.dumps(rows[-1]), flush=True)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    fields = list(dict.fromkeys(k for row in rows for k in row))
    with open(out / "exact.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fields)
        w.writeheader()
        w.writerows(rows)
    (out / "meta.json").write_text(json.dumps({
        "what": "exact best response (BR) to each target bot on the analysis variants; br_A/br_B: the BR's "
                "expected win share (win 1, tie 1/2) from seat A/B over every deal; exploitability = mean - 1/2 "
                "(the symmetric game's value); vs_X: bot X's exact win share against the target, seats averaged; "
                "cpu_s: CPU seconds of both best responses (the target's decisions included)",
        "command": "python3 experiments/exact_best_response.py --variants " + args.variants
                   + " --targets '" + args.targets + "' --others " + args.others,
        "targets": "each bot's decisions with their randomness seeded from its observation "
                   "(geolab.bots.ranks.behaviour): deterministic strategies; random by its exact uniform "
                   "probabilities",
        "rules": {v: Rules.preset(v).to_spec() for v in args.variants.split(",")},
        "machine": platform.platform(), "python": platform.python_version(),
        "date": time.strftime("%Y-%m-%d"),
    }, indent=2) + "\n")


def _specs(text: str) -> list[str]:
    """Bot specs from a comma list, a parameter (``k=8``) joining the spec before it."""
    specs: list[str] = []
    for part in text.split(","):
        if "=" in part and ":" not in part and specs:
            specs[-1] += "," + part
        else:
            specs.append(part)
    return specs


if __name__ == "__main__":
    main()
