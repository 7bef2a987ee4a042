"""What the dealer's call is worth in Jumbled GeoPower Choice (-> results/jumbled/arena_calls/).

The field bot sits at every seat; seat A calls Top Dog / Bottoms Up by each policy in turn
(`heuristic:call=NAME`), the others at random, on the same deals and play stream
(`geolab.games.jumbled.offers.study.call_value`). A row per call policy: seat A's win rate with a Wilson 95%
interval, and its per-deal difference from the first policy's games with a normal interval.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd

from geolab.games.jumbled.offers.study import call_value
from geolab.games.jumbled.rules import Rules
from geolab.lab.results import meta, write_json, write_table


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=200_000)
    p.add_argument("--callers", default="random,race,top-dog,bottoms-up", help="the first is the baseline")
    p.add_argument("--field", default="heuristic")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--out", default="results/jumbled/arena_calls")
    args = p.parse_args(argv)
    rules = Rules.preset("standard")
    callers = args.callers.split(",")
    rows = call_value(rules, args.field, callers, args.games, args.seed, args.threads)
    out = Path(args.out)
    write_table(pd.DataFrame(rows), out, "calls")
    write_json(meta(command=" ".join(["python", "experiments/jumbled_calls.py", *argv]), game="jumbled",
                    rules=rules.to_spec(), field=args.field, callers=callers, games=args.games, seed=args.seed,
                    seating="seat A calls by the policy, every other seat at random; the same deals for every policy"),
               out / "calls_meta.json")
    print(pd.DataFrame(rows).to_string(index=False))


if __name__ == "__main__":
    main()
