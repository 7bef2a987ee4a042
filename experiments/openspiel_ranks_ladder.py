"""OpenSpiel's search on Play the Ranks beside geolab's: a ladder on duplicate deals, with the
CPU time of every bot's decisions (-> results/search/openspiel_ranks/).

Every pair of ``--bots`` plays the same ``--deals`` duplicate deals on the batch engine, each
deal once with each bot in each seat (`geolab.lab.arena`: the deals, seatings, win rates and
their 95% intervals are the arena's, so ``geolab arena ranks --bots ... --games N --seed S``
plays the same games). Each bot is wrapped so that the CPU time of its own decisions
(``time.process_time`` around each call of its ``act``: the rows of one call are its
decisions, one per game asking) is added up per decision kind. Pairs run in ``--workers``
processes, each pair in one process, so a bot's time is never another process's; the win
rates do not depend on how the pairs are spread.

    PYTHONPATH=. python experiments/openspiel_ranks_ladder.py \\
        --bots os-ismcts:sims=200,montecarlo,greedy --deals 150 --seed 2026 --workers 2
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing
import os
import sys
import time
from collections import defaultdict
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parents[1]

from geolab import registry  # noqa: E402
from geolab.game import BatchBot, split_bots  # noqa: E402
from geolab.lab import arena  # noqa: E402
from geolab.lab.results import meta, save_figure, write_json  # noqa: E402

GAME = "ranks"


class CpuTimed(BatchBot):
    """A batch policy with the CPU time of its decisions added up by kind (process time, the
    calls of one process only: a pair's two bots take turns in it)."""

    thread_safe = False

    def __init__(self, policy, name: str):
        self.policy, self.name = policy, name
        self.seconds: dict[str, float] = defaultdict(float)
        self.decisions: dict[str, int] = defaultdict(int)

    def act(self, obs, rng):
        start = time.process_time()
        action = self.policy.act(obs, rng)
        self.seconds[obs.kind] += time.process_time() - start
        self.decisions[obs.kind] += len(obs)
        return action


def _entry():
    from geolab.interop import openspiel

    openspiel.install()
    return registry.get(GAME)


def play_pair(job: tuple) -> dict:
    """One pair on the deals, in this process: its Duplicate and each bot's CPU time."""
    a, b, rules_spec, deals, seed = job
    entry = _entry()
    rules = entry.game.Rules.from_spec(rules_spec)
    for name in (a, b):  # load the kernels and OpenSpiel outside the clock, on other deals
        warm = entry.bots.make(name if not name.startswith("os-") else name.split(":")[0] + ":sims=2", rules)
        entry.game.batch(rules, [warm, entry.bots.make("greedy", rules)], 1, seed + 1)
    timed = {n: CpuTimed(entry.bots.make(n, rules), n) for n in (a, b)}
    start = time.perf_counter()
    result = arena.run(arena.pair_runner(entry, rules, timed), [a, b], deals, seed, progress=False)
    return {"pair": (a, b), "duplicate": result.deals[(a, b)], "wall_seconds": time.perf_counter() - start,
            "cpu": {n: (dict(t.seconds), dict(t.decisions)) for n, t in timed.items()}, "pid": os.getpid()}


def cpu_table(parts: list[dict], bots: list[str]) -> pd.DataFrame:
    rows = []
    for bot in bots:
        seconds, decisions = defaultdict(float), defaultdict(int)
        for part in parts:
            if bot in part["cpu"]:
                for kind, s in part["cpu"][bot][0].items():
                    seconds[kind] += s
                for kind, n in part["cpu"][bot][1].items():
                    decisions[kind] += n
        total_s, total_n = sum(seconds.values()), sum(decisions.values())
        row = {"bot": bot, "decisions": total_n, "cpu_seconds": round(total_s, 3),
               "cpu_ms_per_decision": round(1000 * total_s / total_n, 4)}
        for kind in ("discard", "declare", "lead", "follow"):
            if decisions[kind]:
                row[f"{kind}_ms"] = round(1000 * seconds[kind] / decisions[kind], 4)
        rows.append(row)
    return pd.DataFrame(rows)


def plot(ratings: pd.DataFrame, cpu: pd.DataFrame, title: str):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    both = ratings.merge(cpu, on="bot")
    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    for _, row in both.iterrows():
        ax.errorbar(row.cpu_ms_per_decision, row.rating, yerr=[[row.rating - row.ci_low], [row.ci_high - row.rating]],
                    fmt="o", capsize=4)
        ax.annotate(row.bot, (row.cpu_ms_per_decision, row.rating), textcoords="offset points", xytext=(6, 6))
    ax.set_xscale("log")
    ax.set_xlabel("CPU ms a decision (log scale)")
    ax.set_ylabel(f"Bradley-Terry rating, Elo points ({both.loc[both.anchor, 'bot'].iloc[0]} = 0), 95% CI")
    ax.set_title(title, fontsize=10)
    ax.grid(alpha=0.3)
    lo, hi = both.cpu_ms_per_decision.min(), both.cpu_ms_per_decision.max()
    ax.set_xlim(lo / 3, hi * 6)
    return fig


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rules", default="combo1", help="a preset or spec")
    p.add_argument("--bots", default="os-ismcts:sims=200,montecarlo,greedy")
    p.add_argument("--deals", type=int, default=150, help="duplicate deals a pair")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--workers", type=int, default=2, help="processes, one pair each at a time")
    p.add_argument("--out", type=Path, default=HERE / "results" / "search" / "openspiel_ranks")
    args = p.parse_args(argv)
    entry = _entry()
    rules = entry.game.Rules.from_spec(args.rules)
    bots = split_bots(args.bots)
    for name in bots:
        entry.bots.make(name, rules)  # a bad spec fails before any play
    pairs = list(itertools.combinations(bots, 2))
    # the costliest pairs first, so the workers finish together
    order = sorted(pairs, key=lambda ab: -sum(n.startswith("os-") or n.startswith("montecarlo") for n in ab))
    jobs = [(a, b, rules.to_spec(), args.deals, args.seed) for a, b in order]
    load_start, start = list(os.getloadavg()), time.perf_counter()
    with multiprocessing.get_context("spawn").Pool(args.workers) as pool:
        parts = pool.map(play_pair, jobs, chunksize=1)
    wall = time.perf_counter() - start
    result = arena.ArenaResult(bots, {part["pair"]: part["duplicate"] for part in parts}, wall)
    result.deals = {ab: result.deals[ab] for ab in pairs}
    pairs_df = result.pairs_table()
    anchor = next((b for b in bots if b == "greedy"), bots[-1])
    ratings = result.ratings_table(anchor=anchor)
    cpu = cpu_table(parts, bots)
    args.out.mkdir(parents=True, exist_ok=True)
    pairs_df.round(4).to_csv(args.out / "pairs.csv", index=False)
    ratings.round(2).to_csv(args.out / "ratings.csv", index=False)
    cpu.to_csv(args.out / "cpu.csv", index=False)
    title = f"Play the Ranks ({rules.to_spec()}): {args.deals} duplicate deals a pair, seed {args.seed}"
    fig = plot(ratings, cpu, title)
    save_figure(fig, args.out / "ladder.png")
    import matplotlib.pyplot as plt

    plt.close(fig)
    command = " ".join(["PYTHONPATH=. python", "experiments/openspiel_ranks_ladder.py", *sys.argv[1:]])
    write_json(meta(
        command=command, regenerate=command, game=GAME, rules=rules.to_spec(), bots=bots, deals_per_pair=args.deals,
        seed=args.seed, games=result.games, workers=args.workers, cpus=os.cpu_count(),
        load_average_start=load_start, load_average_end=list(os.getloadavg()), wall_seconds=round(wall, 1),
        pair_wall_seconds={f"{a} v {b}": round(part["wall_seconds"], 1) for part in parts for a, b in [part["pair"]]},
        seating="every pair on the same duplicate deals (arena seeds: SeedSequence(seed), blocks of "
                f"{arena.BLOCK}), each deal with each bot in each seat; geolab arena {GAME} --bots {args.bots} "
                f"--games {args.deals} --seed {args.seed} plays the same deals and seatings (the same games "
                "where no bot has a time budget: montecarlo's default budget_ms may let it solve fewer layouts "
                "on a slower or busier machine)",
        statistics="win_rate_a: mean of per-deal duplicate scores, Wilson 95% CI on the effective sample size "
                   "(Kish), as geolab arena; ratings: Bradley-Terry on all games, Elo points, anchored at "
                   f"{anchor}",
        cpu="time.process_time around each call of a bot's act in the batch engine (a pair's games in one "
            "process, nothing else running in it), added up per decision kind and divided by the decisions "
            "(rows) asked; a decision with one legal action is asked too (os bots answer it without search); "
            "a batched bot (greedy) decides every game asking in one call, so its time a decision is amortized "
            "over them, while the search bots decide one game at a time",
        files={"pairs.csv": "one row a pair", "ratings.csv": "Bradley-Terry ratings",
               "cpu.csv": "CPU ms a decision, by bot and kind", "ladder.png": "rating against CPU ms a decision"}),
        args.out / "meta.json")
    print(pairs_df.round(3).to_string(index=False))
    print(ratings.round(1).to_string(index=False))
    print(cpu.to_string(index=False))
    print(f"{result.games} games in {wall:.0f} s -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
