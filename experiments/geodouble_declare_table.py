"""Regenerate GeoDouble's stage-2 win table (``geolab/data/geodouble_declare.csv`` and
``geodouble_declare.json``), read by the ``threshold``, ``score`` and ``montecarlo`` declaration
policies (`geolab.bots.geodouble.estimate`, docs/geodouble-declare.md).

The table is fitted on simulated stages of the trick bot against itself on the Play the Ranks
batch engine (the ``geodouble`` preset), then checked on fresh deals from another seed: the
check's summary (Brier score, log loss, calibration error by situation) goes into the json.

    python experiments/geodouble_declare_table.py                      # the shipped table
    python experiments/geodouble_declare_table.py --games 100000 --out /tmp/table   # a quick look
    python experiments/geodouble_declare_table.py --compare 300000   # candidate strength features

``--compare N`` writes nothing: it plays N stages, fits a logistic regression of the result
on each candidate feature of the kept hand (and who leads) on half the hands and prints the
held-out log loss, the comparison behind the choice of feature in docs/geodouble-declare.md.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from geolab.bots.geodouble import estimate
from geolab.games.ranks.rules import Rules
from geolab.lab.results import git_revision

DATA = Path(__file__).resolve().parents[1] / "geolab" / "data"


def compare(games: int, seed: int, tricks: str) -> None:
    """Held-out log loss of the stage result on candidate features of the kept hand."""
    rules = Rules.preset("geodouble")
    st = estimate.Stages.play(rules, tricks, games, seed)
    lead_kept, follow_kept, lead_won = st.sides()
    kept = np.concatenate([lead_kept, follow_kept])
    lead = np.concatenate([np.ones(games), np.zeros(games)])
    y = np.concatenate([lead_won, ~lead_won]).astype(float)
    best = estimate.best_ranks(kept, rules.tricks).astype(float)
    held = np.random.default_rng(seed).random(len(y)) < 0.5
    by_rank = np.stack([(best == r).sum(axis=1) for r in range(1, int(best.max()) + 1)], axis=1)
    features = {
        "lead only": np.zeros((len(y), 0)),
        "sum of best ranks": best.sum(axis=1, keepdims=True),
        "sum of log best ranks": np.log(best).sum(axis=1, keepdims=True),
        "sorted best ranks": best,
        "sorted log best ranks (the table's)": np.log(best),
        "count of cards by best rank": by_rank,
        "one weight per card": estimate.cards(kept).astype(float),
    }
    for name, x in features.items():
        a = np.column_stack([x, lead])
        w = estimate.logistic(a[~held], y[~held])
        p = np.clip(1 / (1 + np.exp(-(w[0] + a[held] @ w[1:]))), 1e-9, 1 - 1e-9)
        loss = -np.mean(y[held] * np.log(p) + (1 - y[held]) * np.log(1 - p))
        print(f"{name:38s} held-out log loss {loss:.4f}  ({held.sum()} hands)")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=2_000_000, help="stages simulated for the fit")
    ap.add_argument("--seed", type=int, default=20260, help="seed of the fit's deals")
    ap.add_argument("--bins", type=int, default=40, help="strength bins (equal counts)")
    ap.add_argument("--tricks", default="greedy", help="the Play the Ranks bot on both sides")
    ap.add_argument("--check-games", type=int, default=500_000, help="fresh stages for the calibration check")
    ap.add_argument("--check-seed", type=int, default=20261, help="seed of the check's deals")
    ap.add_argument("--out", type=Path, default=DATA, help="folder to write the two files to")
    ap.add_argument("--compare", type=int, metavar="N", help="compare candidate features on N stages; write nothing")
    args = ap.parse_args(argv)
    if args.compare:
        compare(args.compare, args.seed + 100, args.tricks)
        return
    t0 = time.time()
    table = estimate.fit(Rules.preset("geodouble"), args.tricks, args.games, args.seed, args.bins)
    fresh = estimate.Stages.play(table.rules, args.tricks, args.check_games, args.check_seed)
    _, summary = estimate.calibration(table, fresh)
    table.meta.update({
        "regenerate": "python experiments/geodouble_declare_table.py " + " ".join(
            f"--{k.replace('_', '-')} {getattr(args, k)}" for k in ("games", "seed", "bins", "tricks", "check_games",
                                                                      "check_seed")),
        "git_revision": git_revision(),
        "calibration": {"games": args.check_games, "seed": args.check_seed,
                        "by_situation": summary.round(5).to_dict(orient="records")},
        "stage_outcomes": {"rows": "dealer wins, dealer loses", "columns": "declarers 0, 1, 2",
                           "p": estimate.stage_outcomes(table).round(5).tolist()},
    })
    args.out.mkdir(parents=True, exist_ok=True)
    for path in table.save(args.out):
        print("wrote", path)
    print(summary.round(4).to_string(index=False))
    print(f"{time.time() - t0:.1f} s")


if __name__ == "__main__":
    main()
