"""The learned bot beside the Monte Carlo bot: margin over the best heuristic, time per decision.

Both play the planner heuristic on the same duplicate deals (each deal twice, seats swapped),
and every call to a bot is timed. The Monte Carlo bot is a one-game seat (`SeatPolicy`), so
this runs on few deals; the learned bot's strength is measured at scale by `geolab arena`.
Writes `mc_comparison.csv` and `mc_meta.json` to results/learning/.

    python experiments/learned_vs_mc.py --deals 300
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

import geolab.games.ranks.batch as rb
from geolab.bots.ranks.montecarlo import MonteCarloSeat
from geolab.bots.ranks.registry import BOTS
from geolab.games.ranks.rules import Rules
from geolab.lab.results import meta, write_json, write_table
from geolab.lab.stats import mean_ci, paired_scores
from geolab.lab.timing import TimedPolicy


def match(rules: Rules, bot: TimedPolicy, opponent, deals: int, seed: int) -> np.ndarray:
    scores = []
    for swap in (False, True):
        played = rb.play(rules, (bot, opponent), deals, seed, swap=swap, threads=1)
        side = 1 if swap else 0
        scores.append(np.where(played.winner < 0, 0.5, (played.winner == side).astype(float)))
    return paired_scores(*scores)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="combo1")
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=4242)
    parser.add_argument("--opponent", default="planner")
    parser.add_argument("--out", default="results/learning")
    args = parser.parse_args(argv)
    rules, start = Rules.preset(args.rules), time.perf_counter()
    opponent = BOTS.make(args.opponent, Rules())
    bots = {"learned": TimedPolicy(BOTS.make("learned", Rules()), "learned"),
            "montecarlo": TimedPolicy(rb.SeatPolicy(MonteCarloSeat(seed=0)), "montecarlo")}  # fmt: skip
    rb.play(rules, (bots["learned"].policy, opponent), 64, args.seed + 1)  # compile outside the timing
    scores, rows = {}, []
    for name, bot in bots.items():
        scores[name] = match(rules, bot, opponent, args.deals, args.seed)
        win, low, high = mean_ci(scores[name])
        rows.append({"bot": name, "opponent": args.opponent, "rules": rules.name, "deals": args.deals,
                     "win_rate": win, "ci_low": low, "ci_high": high, "margin": win - 0.5,
                     "decisions": bot.decisions, "seconds": bot.seconds,
                     "us_per_decision": 1e6 * bot.seconds / bot.decisions})  # fmt: skip
        print(f"{name} v {args.opponent}: {win:.4f} [{low:.4f}, {high:.4f}] on {args.deals} deals; "
              f"{1e6 * bot.seconds / bot.decisions:,.1f} us a decision", flush=True)
    diff = mean_ci(scores["learned"] - scores["montecarlo"])
    table = pd.DataFrame(rows)
    ratio = table.set_index("bot").us_per_decision
    write_table(table.round(6), Path(args.out), "mc_comparison")
    write_json(meta(command=" ".join(["python", "experiments/learned_vs_mc.py", *sys.argv[1:]]), rules=rules.to_spec(),
                    deals=args.deals, seed=args.seed, opponent=args.opponent,
                    montecarlo="MonteCarloSeat(seed=0) defaults (k=48, budget_ms=14, cap_ms=40) via SeatPolicy",
                    learned_minus_montecarlo=list(diff),
                    time_ratio_mc_over_learned=float(ratio["montecarlo"] / ratio["learned"]),
                    statistics="per-deal duplicate score (two seatings), normal 95% CI over deals; "
                               "time: wall time inside act, one thread",
                    wall_seconds=round(time.perf_counter() - start, 1)),
               Path(args.out) / "mc_meta.json")  # fmt: skip
    print(f"learned - montecarlo: {diff[0]:+.4f} [{diff[1]:+.4f}, {diff[2]:+.4f}]; "
          f"Monte Carlo takes {ratio['montecarlo'] / ratio['learned']:,.0f}x longer a decision")
    return 0


if __name__ == "__main__":
    sys.exit(main())
