"""Class GeoPower Double Choice: the equilibrium discard, what it gains, and the class game.

Writes results/classroom/: equilibrium.csv (model solution and simple rules' shortfalls per
group size and call), real_check.csv (the solution checked on real deals, and refined there by one best-response
step, then checked again on fresh deals), gains.csv (each
policy's round win rate on real deals against a field, paired with the equilibrium, 95% CIs
and n), class.csv (whole class games), bench.json, plots, summary.md and meta.json.

    python experiments/classroom.py [--seed 2026] [--out results/classroom] [--only real|bench]

--only reruns one part (the real-deal check, or bench.json) into an existing folder, rewrites
summary.md from the CSVs there, and notes the rerun in meta.json.

GEOLAB_SMALL=1 shrinks every sample size (for the tests and the notebook).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

import geolab
from geolab.bots.classroom.equilibrium import (
    best_response,
    equilibrium_table,
    model_exploitability,
    onehot,
    solve,
    values,
)
from geolab.bots.classroom.policies import (
    AverageRank,
    LearnedDiscard,
    OneCategory,
    RandomDiscard,
    WorstCategory,
    tabulate,
)
from geolab.games.classroom.batch import simulate
from geolab.games.classroom.offers.arena import bench
from geolab.games.classroom.offers.equilibrium import equilibrium_summary, group_play, refine_real
from geolab.games.classroom.rules import Rules
from geolab.lab.stats import mean_ci, wilson

SMALL = os.environ.get("GEOLAB_SMALL") == "1"
SIZES = list(range(2, 17))
N_GROUPS = 4_000 if SMALL else 400_000
N_GAMES = 2_000 if SMALL else 200_000
REAL_CHECKS = [(4, 40)] if SMALL else [(2, 10_000), (3, 10_000), (4, 10_000), (5, 10_000), (6, 10_000),
                                        (8, 4_000), (16, 1_000)]
CLASSES = [(10, 2), (16, 4), (17, 2), (20, 4), (25, 3), (32, 8), (32, 2)]
CALLS = {"top-dog": 1, "bottoms-up": 2}
P = Rules().geopower_p


def equilibrium_rows() -> pd.DataFrame:
    return pd.DataFrame(equilibrium_summary(P, SIZES))


def _check_cols(check, prefix: str) -> dict:
    return {f"win_{prefix}": check.win, f"exploitability_{prefix}": check.exploitability,
            f"exploitability_{prefix}_ci_low": check.exploitability_ci[0],
            f"exploitability_{prefix}_ci_high": check.exploitability_ci[1],
            f"exploitability_{prefix}_plugin": check.exploitability_plugin,
            f"exploitability_{prefix}_plugin_ci_high": check.exploitability_plugin_ci[1]}


def real_rows(seed: int) -> pd.DataFrame:
    """The model's equilibrium on real deals ("real"), and the policy one real-deal best
    response away from it, checked on fresh deals ("refined")."""
    rows = []
    for size, n in REAL_CHECKS:
        for call, name in enumerate(CALLS):
            eq = solve(size - 1, call, P)
            start = time.perf_counter()
            ref = refine_real(eq.policy, size - 1, call, P, n, seed)
            rows.append({
                "group_size": size, "call": name, "samples_per_hand": n,
                "win_model": eq.win, "exploitability_model": eq.exploitability,
                **_check_cols(ref.start, "real"), "hands_changed_real": ref.start.changed,
                **_check_cols(ref.check, "refined"), "hands_switched": ref.switched,
                "exploitability_refined_model": model_exploitability(ref.policy, size - 1, call, P),
                "seconds": time.perf_counter() - start,
            })
    return pd.DataFrame(rows)


def gain_rows(eq_table: np.ndarray, learned_table: np.ndarray, seed: int) -> pd.DataFrame:
    """One student plays each policy (paired on the same groups) in a field playing the
    equilibrium, or in a field playing the average-rank rule."""
    names = ["equilibrium", "one-category", "average", "worst-category", "learned", "random"]
    tables = {
        "equilibrium": eq_table, "one-category": tabulate(OneCategory()), "average": tabulate(AverageRank()),
        "worst-category": tabulate(WorstCategory()), "learned": learned_table, "random": tabulate(RandomDiscard()),
    }
    rows = []
    for size in SIZES:
        cand = np.stack([tables[n][:, size - 1] for n in names])
        for field in ("equilibrium", "average"):
            for call, mode in CALLS.items():
                wins, ties = group_play(cand, tables[field][:, size - 1], size, mode, Rules().geopower,
                                        N_GROUPS, seed)
                for j, name in enumerate(names):
                    diff = wins[:, 0].astype(float) - wins[:, j]
                    gain, lo, hi = mean_ci(diff)
                    w_lo, w_hi = wilson(int(wins[:, j].sum()), N_GROUPS)
                    rows.append({
                        "group_size": size, "call": call, "field": field, "policy": name, "n": N_GROUPS,
                        "win": wins[:, j].mean(), "win_ci_low": w_lo, "win_ci_high": w_hi,
                        "eq_gain": gain, "eq_gain_ci_low": lo, "eq_gain_ci_high": hi,
                        "tie_rate": ties.mean() if j == 0 else np.nan,
                    })
    return pd.DataFrame(rows)


def class_rows(eq_table: np.ndarray, seed: int) -> pd.DataFrame:
    rows = []
    for students, groups in CLASSES:
        for call in ("random", "top-dog", "bottoms-up"):
            rules = Rules(students=students, groups=groups, call=call).validate()
            batch = simulate(rules, eq_table[None], np.zeros(students, np.int64), N_GAMES, seed)
            sizes = np.array([len(g) for g in rules.groups_of() for _ in g])
            winners = np.stack([batch.group_win[:, list(g)].sum(axis=1) for g in rules.groups_of()], axis=1)
            for size in sorted(set(sizes)):
                seats = sizes == size
                champ = batch.champion[:, seats]
                lo, hi = wilson(int(champ.sum()), champ.size)
                rows.append({
                    "students": students, "groups": groups, "call": call, "starting_rounds": rules.rounds,
                    "group_size": int(size), "n": int(champ.size),
                    "champion": champ.mean(), "champion_ci_low": lo, "champion_ci_high": hi,
                    "group_win": batch.group_win[:, seats].mean(),
                    "group_tie_rate": float((winners > 1).mean()),
                    "championship_replay_rate": float((batch.championship_rounds > 1).mean()),
                    "mean_finalists": float(winners.sum(axis=1).mean()),
                })
    return pd.DataFrame(rows)


def bench_numbers(seed: int) -> dict:
    before = os.getloadavg()[0]
    out = bench(Rules(students=32, groups=8), 20_000 if SMALL else 400_000, 20 if SMALL else 300, 5, seed)
    eq = solve(3, 0, P)
    times = []
    for _ in range(5):
        start = time.perf_counter()
        best_response(values(onehot(eq.policy), 3, 0, P))
        times.append(time.perf_counter() - start)
    out["best_response_all_hands_seconds_median"] = float(np.median(times))
    out["load_average_1min_before"], out["load_average_1min_after"] = before, os.getloadavg()[0]
    out["cpus"] = os.cpu_count()
    out["created_utc"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    return out


def plots(gains: pd.DataFrame, classes: pd.DataFrame, out: Path) -> None:
    fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
    for ax, call in zip(axes, CALLS):
        part = gains[(gains.field == "equilibrium") & (gains.call == call) & (gains.policy != "equilibrium")]
        for name, g in part.groupby("policy"):
            ax.errorbar(g.group_size, 100 * g.eq_gain, yerr=100 * (g.eq_gain_ci_high - g.eq_gain), label=name,
                        marker="o", ms=3, capsize=2)
        ax.set(title=f"{call}: what switching to the equilibrium gains", xlabel="group size")
        ax.axhline(0, color="grey", lw=0.5)
    axes[0].set_ylabel("percentage points of P(win the group)")
    axes[1].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out / "gains_by_group_size.png", dpi=120)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(6, 4))
    eq = gains[(gains.field == "equilibrium") & (gains.policy == "equilibrium")]
    for call, g in eq.groupby("call"):
        ax.plot(g.group_size, 100 * g.win, marker="o", ms=3, label=f"P(win) {call}")
        ax.plot(g.group_size, 100 * g.tie_rate, ls="--", label=f"P(tie for first) {call}")
    ax.plot(SIZES, [100 / s for s in SIZES], color="grey", lw=0.8, label="1 / group size")
    ax.set(xlabel="group size", ylabel="%", title="Everyone plays the equilibrium")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out / "win_and_ties_by_group_size.png", dpi=120)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(7, 4))
    part = classes[classes.call == "random"].reset_index(drop=True)
    labels = [f"{r.students} in {r.groups}\n(group of {r.group_size})" for r in part.itertuples()]
    ax.bar(range(len(part)), 100 * part.champion, yerr=100 * (part.champion_ci_high - part.champion), capsize=2)
    ax.scatter(range(len(part)), 100 / part.students, color="black", marker="_", s=200, label="1 / students")
    ax.set_xticks(range(len(part)), labels, fontsize=7)
    ax.set(ylabel="P(champion) %", title="A student's chance to win the class game (all play the equilibrium)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out / "champion_by_class.png", dpi=120)
    plt.close(fig)


def summary(eq_rows: pd.DataFrame, real: pd.DataFrame, gains: pd.DataFrame, out: Path) -> None:
    field = gains[gains.field == "equilibrium"]
    lines = ["# Class GeoPower Double Choice: results", ""]
    lines.append("Teacher's rule (read off the equilibrium): **keep the two cards that are strongest together "
                 "in one category** — Top Dog: the pair with the lowest total in its best category; Bottoms Up: "
                 "the pair with the highest total in its worst category. Head to head (groups of 2) keep the two "
                 "best cards on average instead (the average rule is within 0.2 points there; see the table).")
    lines.append("")
    lines.append("Gain of the equilibrium over each rule, one student switching in a field that plays the "
                 f"equilibrium, real deals, percentage points (95% CI), n = {N_GROUPS:,} groups per cell:")
    lines.append("")
    lines.append("| group size | call | one-category | average | worst-category | learned | random |")
    lines.append("|---|---|---|---|---|---|---|")
    for (size, call), g in field.groupby(["group_size", "call"]):
        cells = {r.policy: f"{100 * r.eq_gain:.2f} ({100 * r.eq_gain_ci_low:.2f}, {100 * r.eq_gain_ci_high:.2f})"
                 for r in g.itertuples()}
        lines.append(f"| {size} | {call} | " + " | ".join(cells[p] for p in
                     ["one-category", "average", "worst-category", "learned", "random"]) + " |")
    lines.append("")
    lines.append("Model: exploitability of the equilibrium is exactly 0 for every size and call except "
                 + ", ".join(f"{r.group_size} {r.call} ({r.exploitability_model:.1e})"
                             for r in eq_rows.itertuples() if r.exploitability_model > 0) + ".")
    lines.append("")
    lines.append("Real deals (no card shared within a group), percentage points of P(win the round): "
                 "exploitability is the gain of a best response found by simulation, cross-fitted (chosen on "
                 "half the samples, valued on the other: biased down) with its 95% CI, and in-sample [biased up, "
                 "95% upper bound]; the truth lies between. 'Refined' is the model's equilibrium moved to its "
                 "simulated best response on real deals, then checked on fresh samples:")
    for r in real.itertuples():
        lines.append(f"- size {r.group_size} {r.call}: win {100 * r.win_real:.3f}% (model {100 * r.win_model:.3f}%); "
                     f"model equilibrium {100 * r.exploitability_real:.4f} ({100 * r.exploitability_real_ci_low:.4f}, "
                     f"{100 * r.exploitability_real_ci_high:.4f}) [{100 * r.exploitability_real_plugin:.4f}, "
                     f"{100 * r.exploitability_real_plugin_ci_high:.4f}]; refined ({r.hands_switched} hands switched) "
                     f"{100 * r.exploitability_refined:.4f} ({100 * r.exploitability_refined_ci_low:.4f}, "
                     f"{100 * r.exploitability_refined_ci_high:.4f}) [{100 * r.exploitability_refined_plugin:.4f}, "
                     f"{100 * r.exploitability_refined_plugin_ci_high:.4f}] "
                     f"(model: {100 * r.exploitability_refined_model:.4f}); "
                     f"{r.samples_per_hand:,} groups per hand, "
                     f"{r.seconds:.0f} s")
    (out / "summary.md").write_text("\n".join(lines) + "\n")


def _revision() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True,
                              cwd=Path(__file__).parent).stdout.strip()
    except OSError:
        return ""


def rerun_part(part: str, seed: int, out: Path, argv) -> None:
    """Rerun one part into a finished folder: the rest stays as the full run left it."""
    started = time.time()
    if part == "real":
        real_rows(seed).to_csv(out / "real_check.csv", index=False)
    else:  # keep the timed real-deal check (`real_check`) a full run does not write
        kept = {k: v for k, v in json.loads((out / "bench.json").read_text()).items() if k == "real_check"}
        (out / "bench.json").write_text(json.dumps(bench_numbers(seed) | kept, indent=1) + "\n")
    summary(pd.read_csv(out / "equilibrium.csv"), pd.read_csv(out / "real_check.csv"),
            pd.read_csv(out / "gains.csv"), out)
    meta = json.loads((out / "meta.json").read_text())
    meta.pop("real_check_regenerated", None)  # superseded by the list below
    meta.setdefault("reruns", []).append({
        "part": part, "command": " ".join(["python", "experiments/classroom.py", *argv]),
        "git_revision": _revision(), "date_utc": time.strftime("%Y-%m-%d %H:%M", time.gmtime()),
        "seconds": round(time.time() - started, 1), "load_average_1min_after": os.getloadavg()[0],
        "sizes": {"real_checks": REAL_CHECKS} if part == "real" else {}})
    (out / "meta.json").write_text(json.dumps(meta, indent=1) + "\n")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", type=Path, default=Path(__file__).parents[1] / "results" / "classroom")
    parser.add_argument("--only", choices=["real", "bench"], help="rerun one part into an existing folder")
    args = parser.parse_args(argv)
    argv = sys.argv[1:] if argv is None else argv
    out = args.out
    out.mkdir(parents=True, exist_ok=True)
    if args.only:
        rerun_part(args.only, args.seed, out, argv)
        return
    started = time.time()

    eq_table, _ = equilibrium_table(P)
    learned = LearnedDiscard(n_rounds=5_000 if SMALL else 40_000, random_state=args.seed).fit()
    eq_rows = equilibrium_rows()
    eq_rows.to_csv(out / "equilibrium.csv", index=False)
    real = real_rows(args.seed)
    real.to_csv(out / "real_check.csv", index=False)
    gains = gain_rows(eq_table, tabulate(learned), args.seed)
    gains.to_csv(out / "gains.csv", index=False)
    classes = class_rows(eq_table, args.seed)
    classes.to_csv(out / "class.csv", index=False)
    (out / "bench.json").write_text(json.dumps(bench_numbers(args.seed), indent=1) + "\n")
    plots(gains, classes, out)
    summary(eq_rows, real, gains, out)
    meta = {
        "command": " ".join(["python", "experiments/classroom.py", *argv]),
        "env": {"GEOLAB_SMALL": os.environ.get("GEOLAB_SMALL", "")},
        "seed": args.seed, "geolab_version": geolab.__version__, "git_revision": _revision(),
        "sizes": {"groups_per_cell": N_GROUPS, "class_games": N_GAMES, "real_checks": REAL_CHECKS,
                  "group_sizes": SIZES, "classes": CLASSES},
        "geopower_p": list(P), "seconds": round(time.time() - started, 1),
    }
    (out / "meta.json").write_text(json.dumps(meta, indent=1) + "\n")


if __name__ == "__main__":
    main()
