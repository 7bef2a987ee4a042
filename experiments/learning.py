"""Learning curve of the learned bot, and its speed: strength against the best heuristic as
the training data grows, and decisions per second beside the heuristics'.

For each training size a model is fitted (same seed, so the small sets are not cherry-picked)
and plays the planner heuristic on duplicate deals that no training run has seen (a separate
seed). Writes `learning_curve.csv`, `speed.csv`, `learning_curve.png` and `meta.json`.

    python experiments/learning.py                     # sizes up to 40,000 decisions per kind
    python experiments/learning.py --sizes 250,1000 --deals 2000
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

import geolab.games.ranks.batch as rb
from geolab.bots.ranks.learning import model, training
from geolab.bots.ranks.registry import BOTS
from geolab.games.ranks.rules import Rules
from geolab.lab import plots
from geolab.lab.results import meta, save_figure, write_json, write_table
from geolab.lab.stats import mean_ci, paired_scores
from geolab.lab.timing import TimedPolicy


def duplicate(rules: Rules, bot, opponent, deals: int, seed: int) -> tuple[float, float, float]:
    """Mean per-deal score of `bot` over both seatings, with its 95% interval."""
    scores = []
    for swap in (False, True):
        played = rb.play(rules, (bot, opponent), deals, seed, swap=swap)
        side = 1 if swap else 0
        scores.append(np.where(played.winner < 0, 0.5, (played.winner == side).astype(float)))
    return mean_ci(paired_scores(*scores))


def speed(rules: Rules, bots: list[str], games: int, seed: int) -> pd.DataFrame:
    """Decisions per second of each bot in self-play, one thread, compile time excluded."""
    rows = []
    for spec in bots:
        bot = BOTS.make(spec, Rules())
        rb.play(rules, (bot, bot), 512, seed, threads=1)  # compile and load first
        timed = TimedPolicy(bot)
        rb.play(rules, (timed, timed), games, seed, threads=1)
        rows.append({"bot": spec, "rules": rules.name, "games": games, "decisions": timed.decisions,
                     "policy_seconds": timed.seconds, "decisions_per_s": timed.decisions / timed.seconds,
                     "us_per_decision": 1e6 * timed.seconds / timed.decisions})  # fmt: skip
    return pd.DataFrame(rows)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="combo1")
    parser.add_argument("--sizes", default="250,500,1000,2000,5000,10000,20000,40000",
                        help="training decisions per kind, comma-separated")
    parser.add_argument("--seed", type=int, default=0, help="training seed")
    parser.add_argument("--deals", type=int, default=10000, help="duplicate deals per evaluation (default 10000)")
    parser.add_argument("--eval-seed", type=int, default=777)
    parser.add_argument("--opponent", default="planner")
    parser.add_argument("--speed-games", type=int, default=65536)
    parser.add_argument("--out", default="results/learning")
    args = parser.parse_args(argv)
    rules, out, start = Rules.preset(args.rules), Path(args.out), time.perf_counter()
    sizes = [int(s) for s in args.sizes.split(",")]
    opponent = BOTS.make(args.opponent, Rules())
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            fitted = training.fit(rules, n, args.seed)
            path = model.save(fitted, Path(tmp) / f"m{n}.joblib")
            win, low, high = duplicate(rules, BOTS.make(f"learned:model={path}", Rules()), opponent, args.deals,
                                       args.eval_seed)
            held = fitted.meta["held_out"]
            rows.append({"rules": rules.name, "samples_per_kind": n, "train_seconds": fitted.meta["train_seconds"],
                         "opponent": args.opponent, "deals": args.deals, "win_rate": win, "ci_low": low,
                         "ci_high": high,
                         **{f"{k}_best_action_rate": v["best_action_rate"] for k, v in held.items()}})  # fmt: skip
            print(f"{n:>6} decisions/kind: {win:.4f} [{low:.4f}, {high:.4f}] v {args.opponent} "
                  f"({fitted.meta['train_seconds']:.0f} s to train)", flush=True)  # fmt: skip
    curve = pd.DataFrame(rows)
    fast = speed(rules, ["learned", "planner", "counter", "greedy"], args.speed_games, args.eval_seed)
    print(fast.to_string(index=False))
    write_table(curve.round(5), out, "learning_curve")
    write_table(fast.round(3), out, "speed")

    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    ax.errorbar(curve.samples_per_kind, curve.win_rate,
                yerr=[curve.win_rate - curve.ci_low, curve.ci_high - curve.win_rate],
                marker="o", capsize=3)  # fmt: skip
    ax.axhline(0.5, color="grey", ls="--", lw=0.8)
    ax.set_xscale("log")
    ax.set_xlabel("training decisions per decision kind (each labelled by replaying every legal action)")
    ax.set_ylabel(f"win rate v {args.opponent}")
    ax.set_title(f"Learning curve, {rules.name}: learned bot v {args.opponent}\n"
                 f"{args.deals:,} duplicate deals a point, 95% CI")
    ax.grid(alpha=0.3)
    save_figure(fig, out / "learning_curve.png")
    plots.close(fig)
    write_json(meta(command=" ".join(["python", "experiments/learning.py", *sys.argv[1:]]), rules=rules.to_spec(),
                    sizes=sizes, train_seed=args.seed, eval_seed=args.eval_seed, deals=args.deals,
                    opponent=args.opponent, continuation=training.CONTINUATION, speed_games=args.speed_games,
                    statistics="win rate: mean of per-deal duplicate scores (two seatings), normal 95% CI over deals; "
                               "speed: policy time only, one thread, self-play",
                    wall_seconds=round(time.perf_counter() - start, 1)), out / "meta.json")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
