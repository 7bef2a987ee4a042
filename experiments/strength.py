"""The strength study (issue 35, item 5): how strong, how costly and how far from unbeatable
every fair bot of the two-sided games is -> results/strength/ (CSVs, PNGs, meta.json).

Parts (each writes its own files and its entry in meta.json, which says how to regenerate it):

- ``ladder``: every fair Play the Ranks bot (Combo 1 rules) in one arena on the same duplicate
  deals (`geolab.lab.arena`): Bradley-Terry rating with its 95 % interval, process CPU a
  decision inside the bot's own answers (`geolab.lab.timing.TimedPolicy`, every decision of
  the arena), and the exploiter's lower bound on its exploitability with its 95 % interval
  (`geolab.lab.exploit.measure`) -> ladder.csv, ladder.png.
- ``exact``: the exact best response's edge on the analysis variants beside the exploiter's
  exact edge, read from the committed results/strength/exact/ and exploit/ (no new run)
  -> exact_checks.csv, exact_checks.png.
- ``loss``: where each bot loses, by the game's declared judge (`Players.judge`; Play the
  Ranks': the double-dummy oracle, which PEEKS at both hands): the mean win share and tricks
  lost a decision, by decision kind, over seeded duplicate games against a common opponent
  -> oracle_loss_peeking.csv, oracle_loss_peeking.png.
- ``others``: the exploiter's lower bound for the fair bots of the other two-sided games whose
  bots it takes (State IQ; GeoDouble left out for its cost, see `OTHERS`) -> others.csv.

    PYTHONPATH=. python3 experiments/strength.py --part all --workers 2
"""

from __future__ import annotations

import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from geolab import registry
from geolab.lab import arena, exploit
from geolab.lab.results import meta, save_figure, write_json
from geolab.lab.stats import mean_ci
from geolab.lab.timing import TimedPolicy

#: The ladder: every registered fair Play the Ranks bot; the search bots at a small fixed
#: budget (no clock: the same play on any machine) and montecarlo, sequential also at their
#: defaults (a 12 ms wall-clock budget: their play depends on the machine's load).
LADDER = ["random", "greedy", "planner", "counter", "learned", "montecarlo:k=8,budget_ms=none", "montecarlo",
          "sequential", "ismcts:iterations=2000,budget_ms=none"]
#: Bots the exploiter plays in the ladder. The search bots are left out: its rollouts run the
#: target at every step, so one game against montecarlo:k=4,budget_ms=none (its cheapest fixed-k
#: form tried) cost 15 CPU-s, sequential:k=4 13 CPU-s (4 games each, measured on this machine):
#: a +-0.05 interval (about 400 games) would take 1.7 CPU-hours a bot.
EXPLOITED = ["random", "greedy", "planner", "counter", "learned"]
SEARCH_NOTE = "left out: the exploiter's rollouts run the target (about 15 CPU-s a game at montecarlo:k=4)"
#: The common opponent of the oracle-loss part (cheap, deterministic, mid-ladder).
OPPONENT = "greedy"
#: The other two-sided games' fair bots for the exploiter. GeoDouble's `player` is left out:
#: its exploiter plays on the reference engine with a Play the Ranks rollout inside every
#: stage: one deal (2 games) took 138 CPU-s on this machine (about 2.3 CPU-hours for 200 games).
OTHERS = [("state-iq", "player")]
OTHERS_NOTE = "geodouble player: left out, one deal (2 games) cost 138 CPU-s (200 games: about 2.3 CPU-hours)"


def fair(entry, rules, names):
    """The names the exploiter takes: fair bots (none that peeks) of a two-sided game."""
    return [n for n in names if exploit.refusal(entry, rules, n) is None]


def ladder(args, out: Path) -> dict:
    """Ratings and CPU from one arena, then each cheap bot's exploitability lower bound."""
    entry = registry.get("ranks")
    rules = entry.game.Rules.preset(args.rules)
    names = fair(entry, rules, LADDER)
    timed = {n: TimedPolicy(entry.bots.make(n, rules), n) for n in names}
    for n in names:  # each bot's kernels compiled before it is timed
        entry.game.batch(rules, [entry.bots.make(n, rules), entry.bots.make("random", rules)], 2, 1)
    start = time.perf_counter()
    result = arena.run(arena.pair_runner(entry, rules, timed, threads=1), names, args.deals, args.seed,
                       progress=False)
    ratings = result.ratings_table()
    ratings["cpu_ms_per_decision"] = [1000 * timed[b].cpu_per_decision for b in ratings["bot"]]
    ratings["decisions_timed"] = [timed[b].decisions for b in ratings["bot"]]
    print(f"ladder: arena {result.games:,} games in {time.perf_counter() - start:.0f} s", flush=True)
    rows = []
    for name in ratings["bot"]:
        if name not in EXPLOITED or not args.exploit_games:
            rows.append({"bot": name, "exploit_lb": np.nan, "exploit_low": np.nan, "exploit_high": np.nan,
                         "exploit_games": 0, "exploit_cpu_s": np.nan,
                         "exploit_note": SEARCH_NOTE if args.exploit_games else "not run"})
            continue
        row, _ = exploit.measure(entry, rules, name, args.exploit_games, args.seed, workers=args.workers)
        rows.append({"bot": name, "exploit_lb": row["lower_bound"], "exploit_low": row["ci_low"],
                     "exploit_high": row["ci_high"], "exploit_games": row["games"], "exploit_cpu_s": row["cpu_s"],
                     "exploit_note": "lower bound: the exploiter's win share - 1/2"})
        print(f"ladder: exploit {name} {row['lower_bound']:+.3f} ({row['ci_low']:+.3f}..{row['ci_high']:+.3f}), "
              f"{row['games']} games, {row['cpu_s']:.0f} CPU-s", flush=True)
    table = ratings.merge(pd.DataFrame(rows), on="bot")
    table.to_csv(out / "ladder.csv", index=False)
    plot_ladder(table, out / "ladder.png", args)
    return {"what": f"Play the Ranks (rules {args.rules}): every fair bot in one arena on the same duplicate deals "
                    f"(every pair {args.deals} deals, both seatings: Bradley-Terry rating in Elo points anchored at "
                    "random, 95 % CI), process CPU ms a decision inside the bot's own answers over all its arena "
                    "decisions (unfused: the engine asks the bot's act; the machine was shared, 2 cores), and the "
                    "exploiter's lower bound on its exploitability (win share - 1/2, 95 % CI over deals, "
                    f"exploit_games games, default exploiter settings); search bots not exploited: {SEARCH_NOTE}",
            "deals_per_pair": args.deals, "games": result.games, "exploit_games": args.exploit_games,
            "exploiter": exploit.Settings().label(), "bots": names}


def short(spec: str) -> str:
    """A bot spec as a plot label: the no-clock flag and long parameter names left out."""
    return spec.replace(",budget_ms=none", "").replace("iterations=", "it=")


#: Label offsets (points) and alignment on the ladder plot, cheapest bot first.
SPOTS_CHEAP = [(8, -26, "left"), (8, 12, "left")]
SPOTS_SEARCH = [(-10, -26, "right"), (-10, 22, "right"), (10, -4, "left"), (-10, 40, "right")]


def plot_ladder(table: pd.DataFrame, path: Path, args) -> None:
    """Rating against CPU a decision (log), each point labelled with its exploitability bound;
    random, far below the rest, is told in a corner so the others keep their scale."""
    fig, ax = plt.subplots(figsize=(10, 5.8))
    rest = table[table["rating"] > 0].sort_values("cpu_ms_per_decision").reset_index(drop=True)
    cheap = SPOTS_CHEAP * len(rest)
    slow = iter(SPOTS_SEARCH * len(rest))  # the search bots crowd together: spots tried on this ladder
    for i, r in rest.iterrows():
        x = r["cpu_ms_per_decision"]
        ax.errorbar(x, r["rating"], yerr=[[r["rating"] - r["ci_low"]], [r["ci_high"] - r["rating"]]], fmt="o",
                    color="tab:blue", capsize=3)
        dx, dy, ha = next(slow) if x > 1 else cheap[i]
        ax.annotate(f"{short(r['bot'])}\n{bound(r)}", (x, r["rating"]), textcoords="offset points",
                    xytext=(dx, dy), fontsize=7, ha=ha, arrowprops={"arrowstyle": "-", "color": "0.6"})
    for _, r in table[table["rating"] <= 0].iterrows():
        ax.text(0.01, 0.02, f"{short(r['bot'])} (not shown): rating {r['rating']:.0f}, "
                f"{r['cpu_ms_per_decision']:.4f} ms, {bound(r)}", transform=ax.transAxes, fontsize=7)
    ax.set_xscale("log")
    ax.set_xlabel("process CPU ms a decision, batch engine (log scale; shared 2-core machine)")
    ax.set_ylabel("Bradley-Terry rating, Elo points (random = 0), 95% CI")
    ax.set_title(f"Play the Ranks ({args.rules}): rating v CPU, labelled with the exploitability lower bound (LB)\n"
                 f"{args.deals} duplicate deals a pair; exploiter {args.exploit_games} games a bot; "
                 "search bots not exploited (cost)", fontsize=9)
    ax.margins(x=0.15, y=0.25)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    save_figure(fig, path)
    plt.close(fig)


def bound(r) -> str:
    """The exploitability lower bound of a ladder row, in words."""
    if np.isnan(r["exploit_lb"]):
        return "LB not measured"
    return f"LB {r['exploit_lb']:+.3f} [{r['exploit_low']:+.3f}, {r['exploit_high']:+.3f}]"


def exact(args, out: Path) -> dict:
    """The committed exact figures side by side (no run): the BR's edge, the exploiter's."""
    br = pd.read_csv(args.exact_dir / "exact" / "exact.csv")
    ex = pd.read_csv(args.exact_dir / "exploit" / "exact_check.csv")
    missing = json.loads((args.exact_dir / "exploit" / "meta.json").read_text()).get("missing", [])
    rows = []
    for _, r in br.iterrows():
        hit = ex[(ex["variant"] == r["variant"]) & (ex["target"] == r["target"])]
        mine = hit.iloc[0]["exploiter_mean"] - 0.5 if len(hit) else np.nan
        label = f"{r['variant']}/{r['target']}"
        rows.append({"variant": r["variant"], "target": r["target"], "deals": r["deals"],
                     "br_edge": r["br_mean"] - 0.5, "exploiter_edge": mine,
                     "edge_ratio": mine / (r["br_mean"] - 0.5) if len(hit) else np.nan,
                     "status": "checked" if len(hit) else ("missing (not run: tens of CPU-minutes)"
                                                            if label in missing else "no exploiter run")})
    table = pd.DataFrame(rows)
    table.to_csv(out / "exact_checks.csv", index=False)
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.8), sharey=True)
    for ax, variant in zip(axes, ["tiny", "small"]):
        t = table[table["variant"] == variant].reset_index(drop=True)
        x = np.arange(len(t))
        ax.bar(x - 0.2, t["br_edge"], 0.4, label="exact best response", color="tab:gray")
        ax.bar(x + 0.2, t["exploiter_edge"].fillna(0), 0.4, label="exploiter (exact)", color="tab:orange")
        ax.hlines(0.9 * t["br_edge"], x - 0.4, x + 0.4, colors="black", linestyles="dashed",
                  label="90 % of the BR's edge")
        for i, r in t.iterrows():
            if np.isnan(r["exploiter_edge"]):
                said = "not run (cost)" if r["status"].startswith("missing") else "BR only"
                ax.text(i + 0.2, 0.005, said, rotation=90, fontsize=7, ha="center", va="bottom")
        ax.set_xticks(x, [short(s).replace(",least=", "\nleast=") for s in t["target"]],
                      rotation=30, ha="right", fontsize=7)
        ax.set_title(f"{variant} ({int(t['deals'].iloc[0])} deals, every one enumerated)", fontsize=9)
        ax.grid(axis="y", alpha=0.3)
    axes[0].set_ylabel("edge over 1/2 (exact win share - 1/2)")
    axes[0].legend(fontsize=7)
    fig.suptitle("Exact exploitability on the analysis variants: best response v the exploiter", fontsize=10)
    fig.tight_layout()
    save_figure(fig, out / "exact_checks.png")
    plt.close(fig)
    return {"what": "exact best response edge (results/strength/exact/exact.csv: br_mean - 1/2) beside the "
                    "exploiter's exact edge (results/strength/exploit/exact_check.csv: exploiter_mean - 1/2) on the "
                    "analysis variants tiny and small, every deal enumerated (exact figures: no interval); "
                    "edge_ratio = exploiter / BR edge, the issue's target >= 0.9; status: rows the exploiter was "
                    "not run on", "missing": missing, "sources": ["results/strength/exact/exact.csv",
                                                                   "results/strength/exploit/exact_check.csv"]}


def losses_of(job) -> pd.DataFrame:
    """One bot's judged decisions against the common opponent: deal, seat, kind, lost, tricks."""
    name, rules_name, opponent, games, seed = job
    entry = registry.get("ranks")
    rules = entry.game.Rules.preset(rules_name)
    bot, other = entry.bots.make(name, rules), entry.bots.make(opponent, rules)
    rows = []
    for i in range(games // 2):
        deal_rng, bot_rng = (np.random.default_rng(s) for s in exploit.deal_seed(seed, i).spawn(2))
        deal = entry.game.deal(rules, deal_rng)
        for me in (0, 1):  # both seatings of the same deal
            seats = [entry.seat(bot, rules, bot_rng), entry.seat(other, rules, bot_rng)]
            played = entry.game.play(rules, deal, seats if me == 0 else seats[::-1])
            for v in entry.judge(played):
                if v.seat == me:  # the move, then its parts (a lead's card and category), tricks unsplit
                    rows += [(name, i, me, v.kind, v.lost, v.tricks_lost)]
                    rows += [(name, i, me, f"{v.kind}: {part}", lost, np.nan) for part, lost in v.parts]
    return pd.DataFrame(rows, columns=["bot", "deal", "seat", "kind", "lost", "tricks_lost"])


def loss(args, out: Path) -> dict:
    """Mean oracle loss a decision by kind, each bot against the common opponent."""
    entry = registry.get("ranks")
    names = fair(entry, entry.game.Rules.preset(args.rules), LADDER)
    jobs = [(n, args.rules, OPPONENT, args.loss_games, args.seed) for n in names]
    start = time.process_time()
    with ProcessPoolExecutor(args.workers) as pool:
        parts = list(pool.map(losses_of, jobs))
    decisions = pd.concat(parts, ignore_index=True)
    rows = []
    for (bot, kind), d in decisions.groupby(["bot", "kind"], sort=False):
        per_deal = d.groupby("deal")[["lost", "tricks_lost"]].mean()  # deals are the independent units
        mean, low, high = mean_ci(per_deal["lost"].to_numpy())
        tricks = per_deal["tricks_lost"].dropna().to_numpy()
        t_mean, t_low, t_high = mean_ci(tricks) if len(tricks) else (np.nan,) * 3
        rows.append({"bot": bot, "kind": kind, "decisions": len(d), "deals": len(per_deal),
                     "share_losing": float((d["lost"] > 0).mean()), "mean_lost": mean, "lost_low": max(low, 0.0),
                     "lost_high": high, "mean_tricks_lost": t_mean, "tricks_low": max(t_low, 0.0),
                     "tricks_high": t_high})  # a loss is never negative: the normal interval clipped at 0
    table = pd.DataFrame(rows)
    table.to_csv(out / "oracle_loss_peeking.csv", index=False)
    plot_loss(table, names, out / "oracle_loss_peeking.png", args)
    print(f"loss: {len(decisions):,} decisions judged, {time.process_time() - start:.0f} CPU-s here", flush=True)
    return {"what": f"WHERE EACH BOT LOSES, BY AN ORACLE THAT PEEKS: Play the Ranks (rules {args.rules}), each fair "
                    f"bot against {OPPONENT} on {args.loss_games // 2} seeded deals, both seatings ({args.loss_games} "
                    "games a bot); every decision of the bot judged by the game's declared judge (Players.judge: "
                    "the double-dummy oracle, which sees both hands): lost = win share lost against the oracle's "
                    "best move (1 a win given away, 1/2 a tie), tricks_lost = tricks it could have forced beyond; "
                    "mean over deals of the deal's mean a decision, 95 % CI over deals (normal, clipped at 0). "
                    "It is regret under perfect information, not exploitability: a move a fair player could not "
                    "know was wrong counts as lost. A discard is valued beside every other discard, the "
                    "opponent's as played; a lead's loss is also split (kinds 'lead: card', 'lead: category': "
                    "the best lead against the best lead of the card played, then that against the lead played; "
                    "they sum to 'lead'; tricks not split); "
                    "Combo 1 has no declarations (never judged: they change points, not the winner)",
            "opponent": OPPONENT, "games_per_bot": args.loss_games, "bots": names}


def plot_loss(table: pd.DataFrame, names, path: Path, args) -> None:
    kinds = [k for k in ("discard", "declare", "lead: card", "lead: category", "follow") if k in set(table["kind"])]
    fig, ax = plt.subplots(figsize=(10, 4.8))
    x = np.arange(len(names))
    width = 0.8 / len(kinds)
    for j, kind in enumerate(kinds):
        t = table[table["kind"] == kind].set_index("bot").reindex(names)
        ax.bar(x + (j - (len(kinds) - 1) / 2) * width, t["mean_lost"], width, label=kind,
               yerr=[t["mean_lost"] - t["lost_low"], t["lost_high"] - t["mean_lost"]], capsize=2)
    ax.set_xticks(x, [short(n) for n in names], rotation=25, ha="right", fontsize=8)
    ax.set_ylabel("win share lost a decision (95% CI over deals)\n(a lead = its card + its category)")
    ax.set_title(f"Where each bot loses, by the PEEKING double-dummy oracle (regret under perfect information)\n"
                 f"Play the Ranks ({args.rules}), {args.loss_games} games a bot against {OPPONENT}", fontsize=9)
    ax.legend(fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    save_figure(fig, path)
    plt.close(fig)


def others(args, out: Path) -> dict:
    """The exploiter's lower bound on the other two-sided games' fair bots (brief: few games)."""
    rows = []
    for game, bot in OTHERS:
        entry = registry.get(game)
        rules = entry.game.Rules.preset(entry.game.Rules.DEFAULT)
        row, _ = exploit.measure(entry, rules, bot, args.other_games, args.seed, workers=args.workers)
        rows.append(row)
        print(f"others: {game} {bot} {row['lower_bound']:+.3f} ({row['ci_low']:+.3f}..{row['ci_high']:+.3f}), "
              f"{row['games']} games, {row['cpu_s']:.0f} CPU-s", flush=True)
    pd.DataFrame(rows).to_csv(out / "others.csv", index=False)
    return {"what": "the exploiter (default settings) against the fair bots of the other two-sided games, default "
                    "rules, duplicate deals both seatings: win share, lower bound (share - 1/2) and 95 % CI over "
                    "deals, CPU seconds", "games": args.other_games, "left_out": OTHERS_NOTE}


PARTS = {"ladder": (ladder, ["ladder.csv", "ladder.png"]), "exact": (exact, ["exact_checks.csv", "exact_checks.png"]),
         "loss": (loss, ["oracle_loss_peeking.csv", "oracle_loss_peeking.png"]), "others": (others, ["others.csv"])}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--part", default="all", choices=[*PARTS, "all"])
    ap.add_argument("--rules", default="combo1")
    ap.add_argument("--deals", type=int, default=100, help="ladder: duplicate deals a pair")
    ap.add_argument("--exploit-games", type=int, default=400, help="ladder: exploiter games a cheap bot")
    ap.add_argument("--loss-games", type=int, default=300, help="loss: games a bot (half as many deals, both seatings)")
    ap.add_argument("--other-games", type=int, default=200, help="others: exploiter games a bot")
    ap.add_argument("--seed", type=int, default=35)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--exact-dir", type=Path, default=Path("results/strength"))
    ap.add_argument("--out", type=Path, default=Path("results/strength"))
    args = ap.parse_args()
    for flag in ("deals", "exploit_games", "loss_games", "other_games", "workers"):
        least = 0 if flag == "exploit_games" else 1
        if getattr(args, flag) < least:
            ap.error(f"--{flag.replace('_', '-')} must be at least {least}")  # one line, exit code 2
    args.out.mkdir(parents=True, exist_ok=True)
    for part in PARTS if args.part == "all" else [args.part]:
        run, files = PARTS[part]
        cpu, wall = time.process_time(), time.perf_counter()
        info = run(args, args.out)
        info.update(files=files, seed=args.seed, rules=args.rules, wall_s=round(time.perf_counter() - wall, 1),
                    cpu_s_main_process=round(time.process_time() - cpu, 1),
                    regenerate=f"PYTHONPATH=. python3 experiments/strength.py --part {part} --rules {args.rules} "
                               f"--deals {args.deals} --exploit-games {args.exploit_games} --loss-games "
                               f"{args.loss_games} --other-games {args.other_games} --seed {args.seed} "
                               f"--workers {args.workers}")
        path = args.out / "meta.json"
        study = json.loads(path.read_text()) if path.exists() else {}
        parts = study.get("parts", {})
        parts[part] = info
        write_json(meta(what="the strength study (issue 35, item 5): experiments/strength.py; each part's files, "
                             "what they hold and the command that regenerates them; notebooks/strength.ipynb "
                             "reads them", machine="2 cores shared with other jobs (CPU figures are process "
                             "CPU time; wall times depend on the load)", parts=dict(sorted(parts.items()))), path)


if __name__ == "__main__":
    main()
