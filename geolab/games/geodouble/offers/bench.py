"""`geolab bench geodouble`: whole matches a second, beside Play the Ranks' stage and the reference engine."""

from __future__ import annotations

import os
import statistics
import time

from geolab.bots.geodouble.player import PlayerSeat
from geolab.bots.geodouble.registry import BOTS as MATCH_BOTS
from geolab.bots.ranks.registry import BOTS
from geolab.games.geodouble import batch as match_engine
from geolab.games.geodouble import reference as match_reference
from geolab.games.ranks import batch as engine
from geolab.lab.benches import provenance, reference_per_s, timed
from geolab.lab.progress import warm_up


def bench(rules, games, runs, seed, threads) -> dict:
    """Whole GeoDouble matches a second on the batch engine, greedy tricks, A never declaring
    and B always (medians of `runs` runs), beside Play the Ranks' greedy v greedy deals a
    second on the match's stage rules (its fused kernel: the ceiling for one stage game) and
    the reference engine's matches a second, each measured in every run."""
    games, reference_games = games or 1 << 19, 40
    specs = ("player:tricks=greedy,declare=never", "player:tricks=greedy,declare=always")
    bots = [MATCH_BOTS.make(spec, rules) for spec in specs]
    greedy = BOTS.make("greedy", rules.stage)
    warmup = warm_up([("geodouble", lambda: match_engine.batch(rules, bots, 64, seed)),
                      ("greedy v greedy", lambda: engine.play(rules.stage, (greedy, greedy), 64, seed, block=64))])
    rates: dict[str, list[float]] = {k: [] for k in ("matches", "cpu", "rounds", "deals", "reference")}
    load = os.getloadavg()[0]
    for r in range(runs):
        table, wall, cpu = timed(lambda r=r: match_engine.batch(rules, bots, games, seed + r, threads=threads))
        rates["matches"].append(games / wall)
        rates["cpu"].append(games / cpu)
        rates["rounds"].append(int(table.length.sum()) / wall)
        start = time.perf_counter()
        deals = sum(len(part) for part in engine.run(rules.stage, (greedy, greedy), games, seed + r, threads=threads))
        rates["deals"].append(deals / (time.perf_counter() - start))
        rates["reference"].append(reference_per_s(match_reference.Engine(), rules, bots, PlayerSeat,
                                                  lambda rng: match_reference.deal_one(rules, rng),
                                                  reference_games, seed + r))
    median = {k: statistics.median(v) for k, v in rates.items()}
    return {
        "summary": f"GeoDouble, greedy tricks, never v always declaring, {games:,} matches a run, median of {runs} "
                   f"runs: {median['matches']:,.0f} matches/s; Play the Ranks greedy v greedy {median['deals']:,.0f} "
                   f"deals/s on the stage rules",
        "rules": rules.to_spec(),
        "bots": " v ".join(specs),
        "games": games,
        "runs": runs,
        "matches_per_s": median["matches"],
        "matches_per_cpu_s": median["cpu"],
        "rounds_per_s": median["rounds"],
        "ranks_deals_per_s": median["deals"],
        "ratio_to_ranks_deals": median["matches"] / median["deals"],
        "reference_matches_per_s": median["reference"],
        "ratio": median["matches"] / median["reference"],
        "runs_matches_per_s": rates["matches"],
        "runs_ranks_deals_per_s": rates["deals"],
        "runs_reference_matches_per_s": rates["reference"],
        **provenance(reference_games, threads, load, warmup.seconds, "jit_warmup_s"),
    }
