"""OpenSpiel's search bots against geolab's on duplicate deals (-> results/search/openspiel_<game>_<rules>.json).

Each deal is played on the reference engine once with the OpenSpiel bot in every seat of a
two-seat table (the other seat the opponent), and the bot's mean win share is reported with
a 95% interval over deals. Games with more seats seat the opponent everywhere else.

    PYTHONPATH=. python experiments/openspiel_bots.py --game toy --rules duel \\
        --bots os-ismcts:sims=100,os-mcts:sims=50,worlds=2 --vs first,best --deals 100 --seed 7
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE / "tests"))  # the test-only game, the one converted to the step-wise state so far

import toy_game  # noqa: E402

from geolab import registry  # noqa: E402
from geolab.game import split_bots  # noqa: E402
from geolab.interop import openspiel  # noqa: E402
from geolab.lab.results import meta, write_json  # noqa: E402


def match(entry, rules, spec: str, opponent: str, deals: int, seed: int) -> tuple[float, float, float, float]:
    """(mean share, 95% low, 95% high, seconds) of `spec` against `opponent`."""
    game, seats = entry.game, entry.game.seats(rules)
    shares, start = [], time.perf_counter()
    for d in range(deals):
        deal = game.deal(rules, np.random.default_rng([seed, d]))
        total = 0.0
        for me in range(seats):
            table = [entry.seat(entry.bots.make(opponent, rules), rules, np.random.default_rng([seed + 1, d, s]))
                     for s in range(seats)]
            table[me] = entry.bots.make(spec, rules).seat(np.random.default_rng([seed, d, me]))
            total += float(game.scores(game.play(rules, deal, table))[me])
        shares.append(total / seats)
    mean, half = float(np.mean(shares)), 1.96 * float(np.std(shares, ddof=1)) / np.sqrt(deals)
    return mean, mean - half, mean + half, time.perf_counter() - start


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="toy")
    p.add_argument("--rules", default="duel", help="a preset")
    p.add_argument("--bots", default="os-ismcts:sims=100,os-mcts:sims=50,worlds=2")
    p.add_argument("--vs", default="first,best")
    p.add_argument("--deals", type=int, default=100)
    p.add_argument("--seed", type=int, default=7)
    args = p.parse_args()
    toy_game.install()
    openspiel.install()
    entry = registry.get(args.game)
    rules = entry.game.Rules.preset(args.rules)
    rows = []
    for spec in split_bots(args.bots):
        for opponent in split_bots(args.vs):
            mean, low, high, seconds = match(entry, rules, spec, opponent, args.deals, args.seed)
            rows.append({"bot": spec, "vs": opponent, "win_share": round(mean, 4),
                         "ci95": [round(low, 4), round(high, 4)],
                         "deals": args.deals, "games": args.deals * entry.game.seats(rules),
                         "seconds": round(seconds, 1)})
            print(f"{spec} v {opponent}: {mean:.3f} (95% CI {low:.3f}-{high:.3f}), {seconds:.0f} s")
    command = " ".join(["PYTHONPATH=. python", "experiments/openspiel_bots.py", *sys.argv[1:]])
    out = HERE / "results" / "search" / f"openspiel_{args.game}_{args.rules}.json"
    write_json({"meta": meta(regenerate=command, command=command, game=args.game, rules=args.rules, seed=args.seed,
                             seating="every deal once with the bot in each seat, the opponent in the others; "
                                     "the share is the mean over a deal's seatings, the interval over deals"),
                "results": rows}, out)
    print(f"-> {out}")


if __name__ == "__main__":
    main()
