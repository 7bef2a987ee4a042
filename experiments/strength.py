"""The strength study (issue 35, item 5): how strong, how costly and how far from unbeatable
every fair bot of the two-sided games is -> results/strength/ (CSVs, PNGs, meta.json).

Parts (each writes its own files and its entry in meta.json, which says how to regenerate it):

- ``ladder``: every fair Play the Ranks bot (Combo 1 rules) in one arena on the same duplicate
  deals (`geolab.lab.arena`): Bradley-Terry rating with its 95 % interval and process CPU a
  decision inside the bot's own answers (`geolab.lab.timing.TimedPolicy`, every decision of
  the arena), joined with each bot's exploitability lower bound from bounds.csv -> ladder.csv,
  ladder.png.
- ``bounds``: the exploiter's lower bound on every fair bot's exploitability (`BOUNDS`: Play the
  Ranks' ladder and GeoDouble's `player`), one file each under exploit/ (a file already there is
  read, not re-measured: a new bot's bound is added without re-running the others) collected
  in bounds.csv; then the ladder's exploit columns are rejoined from it (ratings and CPU kept
  as they are) -> bounds.csv, ladder.csv, ladder.png.
- ``exact``: the exact best response's edge on the analysis variants beside the exploiter's
  exact edge, read from the committed results/strength/exact/ and exploit/ (no new run)
  -> exact_checks.csv, exact_checks.png.
- ``loss``: where each bot loses, by the game's declared judge (`Players.judge`; Play the
  Ranks': the double-dummy oracle, which PEEKS at both hands): the mean win share and tricks
  lost a decision, by decision kind, over seeded duplicate games against a common opponent
  -> oracle_loss_peeking.csv, oracle_loss_peeking.png.
- ``others``: the exploiter's lower bound for State IQ's fair bot (GeoDouble's is in
  ``bounds``, with a cheap model) -> others.csv.

    PYTHONPATH=. python3 experiments/strength.py --part all --workers 2
"""

from __future__ import annotations

import argparse
import json
import re
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import NamedTuple

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
class Bound(NamedTuple):
    """One exploitability bound of the study: the target, the model that stands for it in the
    exploiter's head (None: the target itself), games (both seatings of half as many deals),
    seed, the exploiter's particles and draws, and its role: ``ladder`` (the ladder shows it)
    or ``pilot`` (the run that picked a model, kept in bounds.csv beside it)."""

    target: str
    model: str | None = None
    games: int = 800
    seed: int = 0
    game: str = "ranks"
    rules: str = "combo1"
    role: str = "ladder"
    particles: int = exploit.PARTICLES
    draws: int = exploit.DRAWS

    def settings(self) -> exploit.Settings:
        return exploit.Settings(particles=self.particles, draws=self.draws, model=self.model, seed=self.seed)


#: The search bots are modelled by a cheap bot: with the target itself in the exploiter's head
#: its rollouts run the target's search at every step (one game against
#: montecarlo:k=4,budget_ms=none cost about 15 CPU-s); the games are still played against the
#: real target, so the bound holds, only weaker. The pilot: `greedy` makes the search bots' own
#: move most often (86 % of montecarlo:k=8's choices, 20 games) but as the model it lost to every
#: one (400 games each, seed 0); `learned` did better on both bots tried (200 games, seed 0), so
#: the ladder's runs use it, on fresh deals (seed 35) so that the pick does not select its own luck.
SEARCH = ["montecarlo:k=8,budget_ms=none", "montecarlo", "sequential", "ismcts:iterations=2000,budget_ms=none"]
SEARCH_MODEL = "learned"
#: GeoDouble's player: the exploiter plays it on the reference engine, every rollout a whole
#: match; with the player itself as the model one deal (2 games) cost 138 CPU-s, with
#: declare=threshold 88 CPU-s; 2 particles of 8 draws make it about 4 times cheaper still.
GEODOUBLE_MODEL = "player:declare=threshold"
BOUNDS = [*[Bound(b) for b in ["random", "counter", "planner", "learned"]], Bound("greedy", games=2400),
          *[Bound(b, SEARCH_MODEL, 400, 35) for b in SEARCH],
          *[Bound(b, "greedy", 400, 0, role="pilot") for b in SEARCH],
          *[Bound(b, "learned", 200, 0, role="pilot") for b in SEARCH[::2]],
          Bound("player", GEODOUBLE_MODEL, 100, 0, game="geodouble", rules="official", particles=2, draws=8)]
#: The common opponent of the oracle-loss part (cheap, deterministic, mid-ladder).
OPPONENT = "greedy"
#: The other two-sided games' fair bots for the exploiter at their own default (the target
#: itself as the model). GeoDouble's `player` is in `BOUNDS` instead, with a cheap model: with
#: itself as the model one deal (2 games) took 138 CPU-s (about 2.3 CPU-hours for 200 games).
OTHERS = [("state-iq", "player")]
OTHERS_NOTE = "geodouble player: in bounds.csv, with a cheap model (itself as the model: 138 CPU-s a deal)"


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
    join_ladder(ratings, out, args)
    return {"what": LADDER_WHAT.format(rules=args.rules, deals=args.deals), "deals_per_pair": args.deals,
            "games": result.games, "bots": names}


LADDER_WHAT = ("Play the Ranks (rules {rules}): every fair bot in one arena on the same duplicate deals (every pair "
               "{deals} deals, both seatings: Bradley-Terry rating in Elo points anchored at random, 95 % CI), process "
               "CPU ms a decision inside the bot's own answers over all its arena decisions (unfused: the engine asks "
               "the bot's act; the machine was shared, 2 cores); the exploit_ columns are joined from bounds.csv "
               "(part bounds): the current exploiter's lower bound on the bot's exploitability (win share - 1/2, "
               "95 % CI over duplicate deals), exploit_model the bot that stood for it in the exploiter's head "
               "(where not the bot itself, a weaker bound)")
EXPLOIT_COLUMNS = ["exploit_lb", "exploit_low", "exploit_high", "exploit_games", "exploit_cpu_s", "exploit_model",
                   "exploit_note"]


def join_ladder(ratings: pd.DataFrame, out: Path, args) -> pd.DataFrame:
    """The ladder's ratings and CPU with each bot's bound from bounds.csv (none yet: NaN), its
    CSV and plot written."""
    path = out / "bounds.csv"
    known = pd.read_csv(path) if path.exists() else pd.DataFrame(columns=["game", "rules", "target"])
    known = known[(known["game"] == "ranks") & (known["rules"] == args.rules)]
    known = known[known["role"] == "ladder"] if "role" in known else known
    known = known.drop_duplicates("target", keep="last").set_index("target")  # one bound a bot: the last listed
    rows = []
    for name in ratings["bot"]:
        if name not in known.index:
            rows.append({"bot": name, "exploit_lb": np.nan, "exploit_low": np.nan, "exploit_high": np.nan,
                         "exploit_games": 0, "exploit_cpu_s": np.nan, "exploit_model": "",
                         "exploit_note": "not measured: no row in bounds.csv (part bounds)"})
            continue
        r = known.loc[name]
        modelled = r["model"] != name
        rows.append({"bot": name, "exploit_lb": r["lower_bound"], "exploit_low": r["ci_low"],
                     "exploit_high": r["ci_high"], "exploit_games": int(r["games"]), "exploit_cpu_s": r["cpu_s"],
                     "exploit_model": r["model"],
                     "exploit_note": "lower bound: the exploiter's win share - 1/2" + (
                         f"; the exploiter modelled it as {r['model']} (a weaker bound)" if modelled else "")})
    table = ratings.drop(columns=[c for c in EXPLOIT_COLUMNS if c in ratings.columns]).merge(pd.DataFrame(rows),
                                                                                            on="bot")
    table.to_csv(out / "ladder.csv", index=False)
    plot_ladder(table, out / "ladder.png", args)
    return table


def bound_file(out: Path, job: Bound) -> Path:
    """Where one bound's CSV lives: exploit/full_<target>[__<model>][_seed<seed>].csv (Play the
    Ranks), or exploit/<game>_<target>...; its meta.json beside it."""
    def slug(spec: str) -> str:
        return re.sub(r"[^A-Za-z0-9]+", "-", spec).strip("-")

    stem = ("full" if job.game == "ranks" else job.game.replace("-", "_")) + f"_{slug(job.target)}"
    return out / "exploit" / (stem + (f"__{slug(job.model)}" if job.model else "")
                              + (f"_seed{job.seed}" if job.seed else "") + ".csv")


def bounds(args, out: Path) -> dict:
    """Every `BOUNDS` row: read from its file under exploit/ where one is there, else measured
    (and its file written); all collected in bounds.csv; the ladder's exploit columns rejoined."""
    rows, measured = [], []
    for job in BOUNDS:
        path = bound_file(out, job)
        if not path.exists():
            entry = registry.get(job.game)
            rules = entry.game.Rules.preset(job.rules)
            row, _ = exploit.measure(entry, rules, job.target, job.games, job.seed, job.settings(),
                                     workers=args.workers)
            path.parent.mkdir(parents=True, exist_ok=True)
            pd.DataFrame([row]).to_csv(path, index=False)
            write_json(meta(**row, seed=job.seed, workers=args.workers,
                            command=f"PYTHONPATH=. python3 experiments/strength.py --part bounds --workers "
                                    f"{args.workers} (this row of BOUNDS; the file is read, not re-measured, while "
                                    "it exists)"), path.with_suffix(".meta.json"))
            measured.append(path.name)
            print(f"bounds: {job.game} {job.target} (model {job.model or 'itself'}) {row['lower_bound']:+.3f} "
                  f"({row['ci_low']:+.3f}..{row['ci_high']:+.3f}), {row['games']} games, {row['cpu_s']:.0f} CPU-s",
                  flush=True)
        row = pd.read_csv(path).iloc[0].to_dict()
        if pd.isna(row.get("model", np.nan)):
            row["model"] = job.target  # a file from before the model setting: the target itself
        rows.append({**row, "seed": json.loads(path.with_suffix(".meta.json").read_text()).get("seed"),
                     "role": job.role, "file": f"exploit/{path.name}"})
    table = pd.DataFrame(rows)[["game", "rules", "target", "model", "role", "deals", "games", "win_share",
                                "lower_bound", "ci_low", "ci_high", "cpu_s", "seed", "exploiter", "file"]]
    table.to_csv(out / "bounds.csv", index=False)
    if (out / "ladder.csv").exists():
        join_ladder(pd.read_csv(out / "ladder.csv"), out, args)
    return {"what": "the current exploiter's lower bound on every fair bot's exploitability (win share - 1/2, 95 % "
                    "CI over duplicate deals, both seatings; Wilson on Kish's effective size): Play the Ranks' "
                    "ladder bots and GeoDouble's player; model: the bot that stood for the target in the exploiter's "
                    "head (its posterior and rollouts; the games were played against the real target, so a model "
                    "other than the target gives a valid but weaker bound); file: the row's own CSV and meta.json "
                    "under exploit/ (read, not re-measured, while it exists); the ladder's exploit columns are "
                    "joined from here (role ladder; role pilot: the runs that picked the search bots' model)",
            "rows": len(table), "measured_now": measured, "search_model": SEARCH_MODEL,
            "geodouble_model": GEODOUBLE_MODEL}


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
    ax.text(0.99, 0.02, "LB below 0: this exploiter lost to the bot (exploitability is never below 0)",
            transform=ax.transAxes, fontsize=7, ha="right", color="dimgrey")
    ax.set_xscale("log")
    ax.set_xlabel("process CPU ms a decision, batch engine (log scale; shared 2-core machine)")
    ax.set_ylabel("Bradley-Terry rating, Elo points (random = 0), 95% CI")
    ax.set_title(f"Play the Ranks ({args.rules}): rating v CPU, labelled with the exploitability lower bound (LB)\n"
                 f"ratings: {args.deals} duplicate deals a pair; LB: the current exploiter, games n a bot; "
                 "'model X': the exploiter thought the bot plays as X (a weaker bound)", fontsize=9)
    ax.margins(x=0.15, y=0.25)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    save_figure(fig, path)
    plt.close(fig)


def bound(r) -> str:
    """The exploitability lower bound of a ladder row, in words (its model named where it is
    not the bot itself)."""
    if np.isnan(r["exploit_lb"]):
        return "LB not measured"
    model = "" if r["exploit_model"] == r["bot"] else f", model {short(r['exploit_model'])}"
    return (f"LB {r['exploit_lb']:+.3f} [{r['exploit_low']:+.3f}, {r['exploit_high']:+.3f}]\n"
            f"n={r['exploit_games']}{model}")


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
                     "status": "checked" if len(hit) else ("missing (not run: an hour or more of CPU)"
                                                            if label in missing else "no exploiter run"),
                     "exploiter": hit.iloc[0]["exploiter"] if len(hit) else ""})
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
                    "not run on; exploiter: the settings of the exploiter run (Settings.label)",
            "missing": missing,
            "sources": ["results/strength/exact/exact.csv", "results/strength/exploit/exact_check.csv"]}


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


PARTS = {"ladder": (ladder, ["ladder.csv", "ladder.png"]),
         "bounds": (bounds, ["bounds.csv", "ladder.csv", "ladder.png"]),
         "exact": (exact, ["exact_checks.csv", "exact_checks.png"]),
         "loss": (loss, ["oracle_loss_peeking.csv", "oracle_loss_peeking.png"]), "others": (others, ["others.csv"])}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--part", default="all", choices=[*PARTS, "all"])
    ap.add_argument("--rules", default="combo1")
    ap.add_argument("--deals", type=int, default=100, help="ladder: duplicate deals a pair")
    ap.add_argument("--loss-games", type=int, default=300, help="loss: games a bot (half as many deals, both seatings)")
    ap.add_argument("--other-games", type=int, default=200, help="others: exploiter games a bot")
    ap.add_argument("--seed", type=int, default=35)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--exact-dir", type=Path, default=Path("results/strength"))
    ap.add_argument("--out", type=Path, default=Path("results/strength"))
    args = ap.parse_args()
    for flag in ("deals", "loss_games", "other_games", "workers"):
        if getattr(args, flag) < 1:
            ap.error(f"--{flag.replace('_', '-')} must be at least 1")  # one line, exit code 2
    args.out.mkdir(parents=True, exist_ok=True)
    for part in PARTS if args.part == "all" else [args.part]:
        run, files = PARTS[part]
        cpu, wall = time.process_time(), time.perf_counter()
        info = run(args, args.out)
        info.update(files=files, seed=args.seed, rules=args.rules, wall_s=round(time.perf_counter() - wall, 1),
                    cpu_s_main_process=round(time.process_time() - cpu, 1),
                    regenerate=f"PYTHONPATH=. python3 experiments/strength.py --part {part} --rules {args.rules} "
                               f"--deals {args.deals} --loss-games "
                               f"{args.loss_games} --other-games {args.other_games} --seed {args.seed} "
                               f"--workers {args.workers}")
        path = args.out / "meta.json"
        study = json.loads(path.read_text()) if path.exists() else {}
        parts = study.get("parts", {})
        parts[part] = info
        if part == "bounds" and "ladder" in parts:  # the ladder's exploit columns were rejoined just now
            ladder_info = parts["ladder"]
            ladder_info["what"] = LADDER_WHAT.format(rules=args.rules, deals=ladder_info["deals_per_pair"])
            for key in ("exploit_games", "exploiter"):  # the earlier layout's: each bound's own row says now
                ladder_info.pop(key, None)
        for other in parts.values():  # a flag since removed (--exploit-games) left out of older commands
            other["regenerate"] = re.sub(r" --exploit-games \d+", "", other.get("regenerate", ""))
        write_json(meta(what="the strength study (issue 35, item 5): experiments/strength.py; each part's files, "
                             "what they hold and the command that regenerates them; notebooks/strength.ipynb "
                             "reads them", machine="2 cores shared with other jobs (CPU figures are process "
                             "CPU time; wall times depend on the load)", parts=dict(sorted(parts.items()))), path)


if __name__ == "__main__":
    main()
