"""Two Play the Ranks bots head to head on duplicate deals, with each bot's CPU a decision
(issue 35, item 4: the new bot against montecarlo) -> OUT/deals.csv and OUT/meta.json.

Every deal is played twice, the bots swapped (both seatings, the same cards). The win share
of bot A is the mean over deals of its mean over the two games, with a 95% interval
(`geolab.lab.stats.duplicate_interval`); deals come in pieces of ``--piece``, piece k dealt
from child k of the seed, so a given seed and piece size always play the same deals. CPU is
the process's CPU time spent inside each bot's answers, divided by the decisions it answered
(the engine's own work is nobody's), so both bots are timed in the same run on the same
machine, under the same load.

    PYTHONPATH=. python3 experiments/head_to_head.py --a sequential --b montecarlo --deals 10000 \\
        --workers 2 --out results/strength/newbot
"""

from __future__ import annotations

import argparse
import csv
import os
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

import numpy as np

from geolab import registry
from geolab.game import BatchBot
from geolab.lab.results import meta, write_json
from geolab.lab.stats import duplicate_interval
from geolab.lab.tables import duplicate, seat_shares


class Timed(BatchBot):
    """A bot whose answers are timed (process CPU) and counted, per decision kind."""

    thread_safe = False  # one thread: process CPU time is then this bot's alone while it answers

    def __init__(self, bot, name: str | None = None):
        self.bot, self.name = bot, name or bot.name
        self.cpu, self.rows = defaultdict(float), defaultdict(int)

    def act(self, obs, rng):
        t = time.process_time()
        out = self.bot.act(obs, rng)
        self.cpu[obs.kind] += time.process_time() - t
        self.rows[obs.kind] += len(obs)
        return out

    def per_decision_ms(self) -> dict:
        kinds = {k: round(1000 * self.cpu[k] / self.rows[k], 3) for k in sorted(self.rows)}
        total = sum(self.rows.values())
        return {"all": round(1000 * sum(self.cpu.values()) / max(total, 1), 3), "decisions": total, **kinds}


_BOTS: dict = {}  # a worker's timed bots, built (and their kernels compiled) once


def _piece(a: str, b: str, rules_name: str, n: int, seed: np.random.SeedSequence, warm_seed: int):
    """One piece of deals in a worker: (per-deal shares of a, each bot's CPU and decisions)."""
    entry = registry.get("ranks")
    rules = entry.game.Rules.preset(rules_name)
    if not _BOTS:
        _BOTS.update({name: Timed(entry.bots.make(name, rules)) for name in (a, b)})
        duplicate(entry, rules, [a, b], 2, warm_seed, None, 1, _BOTS)  # compiles the kernels: not timed
    for bot in _BOTS.values():
        bot.cpu.clear(), bot.rows.clear()
    turns, played = duplicate(entry, rules, [a, b], n, seed, None, 1, _BOTS)
    shares = np.stack([seat_shares(p, t, a) for t, p in zip(turns, played)], axis=1)
    return shares, {name: (dict(bot.cpu), dict(bot.rows)) for name, bot in _BOTS.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--a", required=True, help="bot spec (the challenger)")
    ap.add_argument("--b", default="montecarlo", help="bot spec (the opponent)")
    ap.add_argument("--rules", default="combo1")
    ap.add_argument("--deals", type=int, default=1000, help="duplicate deals (two games each)")
    ap.add_argument("--piece", type=int, default=250, help="deals a piece (a worker's unit; results saved after each)")
    ap.add_argument("--workers", type=int, default=1, help="processes playing pieces (never changes the result)")
    ap.add_argument("--seed", type=int, default=35)
    ap.add_argument("--out", required=True)
    ap.add_argument("--quiet", action="store_true", help="no progress line after each piece")
    run(ap.parse_args())


def run(args: argparse.Namespace) -> dict:
    """Play the match `args` describes (the options above) and save it; returns meta.json's
    contents. Other studies (experiments/headroom.py) call it with their own arguments."""
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    counts = -(-args.deals // args.piece)
    seeds = np.random.SeedSequence(args.seed).spawn(counts)
    sizes = [min(args.piece, args.deals - k * args.piece) for k in range(counts)]
    timed = {name: Timed(None, name) for name in (args.a, args.b)}  # the workers' sums
    done: dict[int, np.ndarray] = {}
    wall, loads = time.perf_counter(), []
    with ProcessPoolExecutor(args.workers) as pool:
        futures = {pool.submit(_piece, args.a, args.b, args.rules, sizes[k], seeds[k], args.seed + 1): k
                   for k in range(counts)}
        for future in as_completed(futures):
            shares, spent = future.result()
            done[futures[future]] = shares
            for name, (cpu, rows) in spent.items():
                for kind in rows:
                    timed[name].cpu[kind] += cpu[kind]
                    timed[name].rows[kind] += rows[kind]
            loads.append(os.getloadavg()[0])
            per_deal = np.concatenate([done[k] for k in sorted(done)])
            mean, low, high = duplicate_interval(per_deal.mean(axis=1), per_deal.shape[1])
            if not args.quiet:
                print(f"{len(per_deal)} deals: {args.a} {mean:.4f} (95% {low:.4f}-{high:.4f}); CPU ms a decision "
                      f"{timed[args.a].per_decision_ms()['all']} v {timed[args.b].per_decision_ms()['all']}; "
                      f"load {loads[-1]:.1f}", flush=True)
            saved = _save(out, args, done, timed, wall, loads)
    return saved


def _save(out: Path, args, done: dict, bots: dict, wall: float, loads: list) -> dict:
    """deals.csv (the pieces finished so far, in order: piece, deal within it, a's two shares)
    and meta.json (returned)."""
    per_deal = np.concatenate([done[k] for k in sorted(done)])
    with open(out / "deals.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["piece", "deal", "a_share_seating_1", "a_share_seating_2"])
        w.writerows([k, i, *row] for k in sorted(done) for i, row in enumerate(done[k].tolist()))
    mean, low, high = duplicate_interval(per_deal.mean(axis=1), per_deal.shape[1])
    command = (f"PYTHONPATH=. python3 experiments/head_to_head.py --a '{args.a}' --b '{args.b}' "
               f"--rules {args.rules} --deals {args.deals} --piece {args.piece} --workers {args.workers} "
               f"--seed {args.seed} --out {args.out}")
    info = meta(
        what="bot a against bot b on duplicate deals, both seatings: a's win share (win 1, tie 1/2), its 95% "
             "interval (geolab.lab.stats.duplicate_interval over deals), and each bot's process CPU time a "
             "decision inside its own answers, per decision kind, measured in the same run",
        a=args.a, b=args.b, rules=args.rules, seed=args.seed, deals=len(per_deal), games=int(per_deal.size),
        complete=len(per_deal) == args.deals, pieces_done=sorted(done),
        win_share_a=round(mean, 4), ci95=[round(low, 4), round(high, 4)],
        cpu_ms_per_decision={args.a: bots[args.a].per_decision_ms(), args.b: bots[args.b].per_decision_ms()},
        cpu_s_in_bots={name: round(sum(bot.cpu.values()), 1) for name, bot in bots.items()},
        wall_s=round(time.perf_counter() - wall, 1), workers=args.workers,
        load_average=[round(x, 2) for x in (min(loads), float(np.median(loads)), max(loads))],
        machine="2 cores shared with other jobs: CPU times are this process's own, wall time is not",
        regenerate=command,
    )
    write_json(info, out / "meta.json")
    return info


if __name__ == "__main__":
    main()
