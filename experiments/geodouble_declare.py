"""GeoDouble's declaration policies on the Play the Ranks batch engine alone (issue 22 item 4)
-> results/geodouble_declare/ (tidy CSVs and meta.json), summarised in docs/geodouble-declare.md.

1. ``calibration``: the shipped win table's predicted against observed stage win rates on
   fresh deals (greedy against greedy, the ``geodouble`` stage), by situation and decile;
   ``calibration_summary``: Brier score, log loss and calibration error by situation.
2. ``mc_calibration``: the same for the Monte Carlo policy's own estimate (its rollouts) and,
   on the same rows, the table's.
3. ``declare_rates``: how often each policy declares at a few match scores, both sides the
   same GeoDouble player (greedy tricks) asked through `StagePolicy`, as the match engine
   asks it, on Play the Ranks deals (the first lead by the statehood draw: a coin flip).

    python experiments/geodouble_declare.py             # the numbers in the doc
    python experiments/geodouble_declare.py --small     # a quick look
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd

from geolab.bots.geodouble import declare as dc
from geolab.bots.geodouble import estimate
from geolab.bots.geodouble.registry import player
from geolab.bots.ranks.heuristics import GreedyPolicy
from geolab.games.geodouble.rules import Rules
from geolab.games.ranks import batch
from geolab.lab.results import ResultSet, meta

OUT = Path(__file__).resolve().parents[1] / "results" / "geodouble_declare"
SCORES = ((0, 0), (20, 20), (40, 40), (0, 40), (40, 0), (10, 30), (30, 10), (0, 45), (45, 0))
POLICIES = ("never", "always", "threshold", "threshold:0.65", "score", "montecarlo")


def summarise(name: str, p: np.ndarray, y: np.ndarray, groups: int = 10) -> tuple[list, dict]:
    y = y.astype(float)
    order = np.argsort(p, kind="stable")
    rows, gap = [], 0.0
    for g, part in enumerate(np.array_split(order, groups)):
        pred, obs = p[part].mean(), y[part].mean()
        rows.append({"estimate": name, "decile": g + 1, "n": len(part), "predicted": pred, "observed": obs,
                     "half_width": 1.96 * np.sqrt(max(obs * (1 - obs), 1e-12) / len(part))})
        gap += abs(pred - obs) * len(part)
    q = np.clip(p, 1e-3, 1 - 1e-3)
    return rows, {"estimate": name, "n": len(y), "observed": y.mean(), "predicted": p.mean(),
                  "brier": np.mean((p - y) ** 2), "log_loss": -np.mean(y * np.log(q) + (1 - y) * np.log(1 - q)),
                  "ece": gap / len(y)}


def mc_calibration(rules: Rules, games: int, seed: int, samples: tuple[int, ...]):
    """The Monte Carlo estimate against the outcome: every deal seen by its dealer (first, no
    declaration yet) and by the other (second, the dealer's declaration by the assumed rule)."""
    table = estimate.shipped()
    st = estimate.Stages.play(rules.stage, "greedy", games, seed)
    n = np.arange(games)
    lead_won = st.winner == st.first
    declared = table.lookup("lead", st.kept[n, st.first]) > 0.5
    keys = np.random.default_rng(seed).integers(0, 2**63, size=(games, 2)).astype(np.uint64)
    rows, summary = [], []
    for role, side, other, won in (("dealer", st.first, np.full(games, -1), lead_won),
                                   ("second", 1 - st.first, declared.astype(int), ~lead_won)):
        ctx = dc.Context(rules, st.kept[n, side], st.discards[n, side], np.full(games, role == "dealer"),
                         other.astype(np.int8), np.zeros(games, np.int64), np.zeros(games, np.int64), keys[n, side])
        r, s = summarise(f"table, {role}", dc.chance(table, ctx), won)
        rows += r
        summary.append(s)
        for k in samples:
            t0 = time.time()
            p, _ = dc.MonteCarlo(rules, GreedyPolicy(), k).estimate(ctx)
            r, s = summarise(f"montecarlo {k}, {role}", p, won)
            rows += r
            summary.append({**s, "seconds": time.time() - t0})
    return pd.DataFrame(rows), pd.DataFrame(summary)


def declare_rates(rules: Rules, games: int, mc_games: int, seed: int) -> pd.DataFrame:
    out = []
    for spec in POLICIES:
        name, _, threshold = spec.partition(":")
        bot = player(rules, declare=name, threshold=float(threshold or 0.5))
        n = mc_games if name == "montecarlo" else games
        for a, b in SCORES:
            scores = np.tile(np.array([a, b], np.int64), (n, 1))
            policy = bot.stage_policy(rules, scores)
            t0 = time.time()
            p = batch.play(rules.stage, [policy, policy], n, seed)
            seconds = time.time() - t0
            first, decl = p.first_lead.astype(int), p.declarations
            g = np.arange(n)
            dealer, second = decl[g, first], decl[g, 1 - first]
            score = np.array([a, b])
            for role, said, mine, theirs, where in (
                    ("dealer", dealer, score[first], score[1 - first], np.ones(n, bool)),
                    ("second after a declaration", second, score[1 - first], score[first], dealer),
                    ("second after silence", second, score[1 - first], score[first], ~dealer)):
                for me, them in sorted(set(zip(mine[where], theirs[where]))):
                    sel = where & (mine == me) & (theirs == them)
                    out.append({"policy": spec, "mine": me, "theirs": them, "role": role, "n": int(sel.sum()),
                                "declares": said[sel].mean() if sel.any() else np.nan})
            out.append({"policy": spec, "mine": a, "theirs": b, "role": "stake 10 or 20 (A's score first)", "n": n,
                        "declares": (dealer | second).mean()})
            out.append({"policy": spec, "mine": a, "theirs": b, "role": "stake 20 (A's score first)", "n": n,
                        "declares": (dealer & second).mean()})
            print(f"{spec:15s} {a:2d}-{b:2d}: {seconds:5.1f} s", flush=True)
    return pd.DataFrame(out)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--small", action="store_true", help="small samples, for a quick look")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    rules = Rules()
    sizes = dict(check=20_000, mc=500, rates=2000, mc_rates=500) if args.small else \
        dict(check=500_000, mc=20_000, rates=40_000, mc_rates=10_000)
    seeds = dict(check=7001, mc=7002, rates=7003)
    table = estimate.shipped()
    t0 = time.time()
    fresh = estimate.Stages.play(rules.stage, "greedy", sizes["check"], seeds["check"])
    calib, calib_summary = estimate.calibration(table, fresh)
    print(calib_summary.round(4).to_string(index=False), flush=True)
    mc_rows, mc_summary = mc_calibration(rules, sizes["mc"], seeds["mc"], (8, 32, 128))
    print(mc_summary.round(4).to_string(index=False), flush=True)
    rates = declare_rates(rules, sizes["rates"], sizes["mc_rates"], seeds["rates"])
    wide = rates.pivot_table(index=["role", "mine", "theirs"], columns="policy", values="declares", sort=False)
    print(wide[list(POLICIES)].round(3).to_string(), flush=True)
    with ResultSet(args.out) as rs:
        rs.table(calib, "calibration")
        rs.table(calib_summary, "calibration_summary")
        rs.table(mc_rows, "mc_calibration")
        rs.table(mc_summary, "mc_calibration_summary")
        rs.table(rates, "declare_rates")
        rs.json(meta(study="geodouble declaration policies", sizes=sizes, seeds=seeds, scores=SCORES,
                     policies=POLICIES, table=table.meta.get("regenerate"), seconds=round(time.time() - t0, 1)),
                "meta.json")
    print("wrote", rs.path)


if __name__ == "__main__":
    main()
