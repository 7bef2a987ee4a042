"""Strength of the search bots on duplicate deals (each deal played twice, seats swapped).

Plays `bot` against `opponent` with the reference engine, one process per chunk of deals,
and writes results/search/<name>.csv (one row per game) and <name>.meta.json (command, seed,
n, win rate with its Wilson interval, decision times). `oracle` is the PEEKING oracle seat
(a ceiling, not a fair player). Usage:

    python experiments/search_strength.py --bot montecarlo --opponent greedy --deals 2000 --seed 1
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd

from geolab.bots.ranks.montecarlo import MonteCarloSeat
from geolab.bots.ranks.oracle import play_with_oracle
from geolab.bots.ranks.seats import GreedySeat, RandomSeat
from geolab.games.ranks.reference import deal_one, play
from geolab.games.ranks.rules import Rules
from geolab.lab.stats import wilson


def make_seat(spec: str, rng: np.random.Generator):
    """A fair seat from 'name' or 'name:key=value,...' (montecarlo, ismcts, greedy, random)."""
    name, _, params = spec.partition(":")
    kwargs = {}
    for item in filter(None, params.split(",")):
        key, _, value = item.partition("=")
        kwargs[key] = None if value == "none" else (float(value) if "." in value else int(value))
    if name == "montecarlo":
        return MonteCarloSeat(**kwargs)
    if name == "ismcts":
        from geolab.bots.ranks.ismcts import ISMCTSSeat

        return ISMCTSSeat(**kwargs)
    if name == "greedy":
        return GreedySeat()
    if name == "random":
        return RandomSeat(rng)
    raise SystemExit(f"unknown seat {spec!r}")


class Timed:
    """Times every decision of a seat (wall and thread CPU, in ms)."""

    def __init__(self, seat):
        self.seat, self.name, self.wall, self.cpu = seat, getattr(seat, "name", "?"), [], []

    def __getattr__(self, attr):
        method = getattr(self.seat, attr)

        def timed(view):
            w, c = time.perf_counter(), time.thread_time()
            out = method(view)
            self.wall.append((time.perf_counter() - w) * 1000)
            self.cpu.append((time.thread_time() - c) * 1000)
            return out

        return timed


def play_chunk(args) -> tuple[list[dict], list[float], list[float]]:
    rules_name, bot, opponent, seed, first, count = args
    rules = Rules.preset(rules_name)
    rows, wall, cpu = [], [], []
    for deal_no in range(first, first + count):
        rng = np.random.default_rng(np.random.SeedSequence([seed, deal_no]))
        deal = deal_one(rules, rng)
        lead = deal.drawn_first_lead() if rules.first_lead == "given" else None
        for bot_side in (0, 1):
            opp = make_seat(opponent, rng)
            if bot == "oracle":
                game = play_with_oracle(rules, deal.hands, bot_side, opp, lead, deal.power_bases)
            else:
                timed = Timed(make_seat(bot, rng))
                seats = [timed, opp] if bot_side == 0 else [opp, timed]
                game = play(rules, deal.hands, seats, lead, deal.power_bases)
                wall += timed.wall
                cpu += timed.cpu
            w = game.winner
            rows.append({"deal": deal_no, "bot_side": "AB"[bot_side], "winner": "tie" if w is None else "AB"[w],
                         "score": 0.5 if w is None else float(w == bot_side),
                         "tricks_bot": game.tricks_won[bot_side], "tricks_opp": game.tricks_won[1 - bot_side]})
    return rows, wall, cpu


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rules", default="combo1")
    p.add_argument("--bot", default="montecarlo")
    p.add_argument("--opponent", default="greedy")
    p.add_argument("--deals", type=int, default=2000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--procs", type=int, default=2)
    p.add_argument("--name", help="output name (default: <bot>_v_<opponent>_<rules>)")
    args = p.parse_args(argv)
    name = args.name or f"{args.bot.split(':')[0]}_v_{args.opponent.split(':')[0]}_{args.rules}"
    chunk = max(1, args.deals // (args.procs * 8))
    jobs = [(args.rules, args.bot, args.opponent, args.seed, first, min(chunk, args.deals - first))
            for first in range(0, args.deals, chunk)]
    start = time.time()
    rows, wall, cpu = [], [], []
    with ProcessPoolExecutor(args.procs) as pool:
        for r, w, c in pool.map(play_chunk, jobs):
            rows += r
            wall += w
            cpu += c
    table = pd.DataFrame(rows)
    out = Path("results/search")
    out.mkdir(parents=True, exist_ok=True)
    table.to_csv(out / f"{name}.csv", index=False)
    n, wins = len(table), float(table["score"].sum())
    lo, hi = wilson(wins, n)
    meta = {
        "command": "python " + " ".join(sys.argv),
        "rules": args.rules, "bot": args.bot, "opponent": args.opponent, "seed": args.seed,
        "deals": args.deals, "games": n, "win_rate": wins / n, "wilson95": [lo, hi],
        "bot_peeks": args.bot == "oracle",
        "seconds": time.time() - start,
    }
    if wall:
        meta["decision_ms"] = {
            "wall_mean": float(np.mean(wall)), "wall_p99": float(np.percentile(wall, 99)),
            "wall_max": float(np.max(wall)),
            "cpu_mean": float(np.mean(cpu)), "cpu_p99": float(np.percentile(cpu, 99)), "cpu_max": float(np.max(cpu)),
            "decisions": len(wall),
        }
    (out / f"{name}.meta.json").write_text(json.dumps(meta, indent=1) + "\n")
    print(json.dumps(meta, indent=1))


if __name__ == "__main__":
    main()
