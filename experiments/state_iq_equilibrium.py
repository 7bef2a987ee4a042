"""State IQ's equilibrium default against every rival that came close, on duplicate deals.

    python experiments/state_iq_equilibrium.py [--deals 10000] [--seed 5]

For each line-up, `geolab simulate state-iq --bots player,RIVAL --games DEALS --seed SEED` (the
batch engine, every deal under both seatings): the default's share of the game with its 95%
interval over deals. The rivals are the baselines the issue names (``guess=random``,
``guess=greedy``), the old default, and the closest specs of an arena over all of them
(``geolab arena state-iq --games 2000 --seed 7``, listed in meta.json). Writes
results/state_iq/equilibrium/ (head_to_head.csv and .parquet, meta.json); about 3 minutes on
one core.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import pandas as pd

from geolab import registry
from geolab.bots.stateiq.registry import OLD_DEFAULT
from geolab.games.stateiq.rules import Rules
from geolab.lab.results import meta, write_json, write_table
from geolab.lab.tables import simulate

OUT = Path(__file__).resolve().parents[1] / "results" / "state_iq" / "equilibrium"
RIVALS = ("player:guess=random", "player:guess=greedy", OLD_DEFAULT, "player:clue=hard", "player:guess=optimal",
          "player:objective=guesses")
#: The arena that chose the rivals: every spec below, 2,000 duplicate deals a pair, seed 7.
ARENA = ("player", OLD_DEFAULT, "player:guess=random", "player:guess=greedy", "player:guess=random,clue=hard",
         "player:guess=greedy,clue=hard", "player:clue=hard", "player:guess=optimal", "player:objective=guesses",
         "player:clue=random", "player:guess=optimal,clue=hard,objective=game")
#: The files of this folder this script does not write: the arena's tables (its --out folder's
#: pairs.csv and ratings.csv) and the paired tournament bench.
FILES = {
    "arena": "arena_pairs.csv, arena_ratings.csv: the arena command's pairs.csv and ratings.csv",
    "bench": "bench_paired_wall.json: python experiments/combo1_tournament_bench.py --before DIR --pairs 5 (DIR: "
             "a worktree of the commit before the change); bench_paired_cpu.json: the same tournaments timed by "
             "CPU time (time.process_time) in fresh processes, 5 alternating pairs, the machine loaded by others",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    entry, rules, rows = registry.get("state-iq"), Rules(), []
    start = time.perf_counter()
    for rival in RIVALS:
        _, summary = simulate(entry, rules, ["player", rival], args.deals, args.seed, threads=1, keep_table=False)
        me = next(r for r in summary["bots"] if r["bot"] == "player")
        rows.append({"default": "player", "rival": rival, "deals": summary["deals"], "games": summary["games"],
                     "seed": args.seed, "share": me["win_share"], "ci_low": me["ci_low"], "ci_high": me["ci_high"],
                     "beats": me["ci_low"] > 0.5, "loses": me["ci_high"] < 0.5,
                     "command": f"python -m geolab simulate state-iq --bots player,{rival} --games {args.deals} "
                                f"--seed {args.seed}"})
        print(f"player v {rival}: {me['win_share']:.4f} ({me['ci_low']:.4f}-{me['ci_high']:.4f})", flush=True)
    table = pd.DataFrame(rows)
    write_table(table, OUT, "head_to_head")
    write_json(meta(command=f"python experiments/state_iq_equilibrium.py --deals {args.deals} --seed {args.seed}",
                    study="State IQ: the equilibrium default against its rivals, duplicate deals, both seatings",
                    default="player:guess=equilibrium,clue=equilibrium,objective=game", deals=args.deals,
                    seed=args.seed, games_per_lineup=2 * args.deals, interval="95%, over deals (geolab simulate)",
                    arena={"command": f"python -m geolab arena state-iq --bots {','.join(ARENA)} --games 2000 "
                                      f"--seed 7 --out DIR", "bots": list(ARENA), "files": FILES["arena"]},
                    bench=FILES["bench"],
                    seconds=time.perf_counter() - start), OUT / "meta.json")
    print(f"written {OUT}")


if __name__ == "__main__":
    main()
