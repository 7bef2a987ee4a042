"""`geolab bench combo1`: whole matches a second, in blocks as a tournament plays them, beside the reference engine."""

from __future__ import annotations

import os
import statistics
import time

from geolab.bots.combo1.registry import BOTS as TEAMS
from geolab.bots.combo1.registry import seat
from geolab.games.combo1 import batch as match_engine
from geolab.games.combo1 import reference as match_reference
from geolab.lab.benches import provenance, reference_per_s, timed
from geolab.lab.progress import warm_up


def bench(rules, games, runs, seed, threads) -> dict:
    """Whole Combo 1 matches a second on the batch engine (medians of `runs` runs), ``team``
    v ``team:speed=1.5`` (the simulate line-up), beside the reference engine's matches a
    second with the same teams seated (`TeamSeat`), measured in every run, and `play_block` in
    blocks of 256 matches (a tournament's calls, one pair's matches). A first run warms the JIT
    and the State IQ bots' memos, which the timed runs share."""
    games, reference_games = games or 1 << 16, 10
    specs = ("team", "team:speed=1.5")
    bots = [TEAMS.make(spec, rules) for spec in specs]
    warmup = warm_up([("combo1", lambda: match_engine.batch(rules, bots, min(games, 1 << 14), seed + 1000,
                                                            threads=threads))])
    rates: dict[str, list[float]] = {k: [] for k in ("matches", "cpu", "games", "small", "reference")}
    small, blocks = 256, max(1, min(16, games // 256))  # a tournament's calls: one pair's matches of a block
    load = os.getloadavg()[0]
    for r in range(runs):
        table, wall, cpu = timed(lambda r=r: match_engine.batch(rules, bots, games, seed + r, threads=threads))
        rates["matches"].append(games / wall)
        rates["cpu"].append(games / cpu)
        rates["games"].append(int(table.length.sum()) / wall)
        start = time.perf_counter()
        for b in range(blocks):
            match_engine.play_block(rules, bots, seed + r, (1 << 20, b), small)
        rates["small"].append(blocks * small / (time.perf_counter() - start))
        rates["reference"].append(reference_per_s(match_reference.ENGINE, rules, bots, seat,
                                                  lambda rng: match_reference.deal_one(rules, rng),
                                                  reference_games, seed + r))
    median = {k: statistics.median(v) for k, v in rates.items()}
    return {
        "summary": f"Combo 1 ({rules.round}), {' v '.join(specs)}, {games:,} matches a run, median of {runs} runs: "
                   f"{median['matches']:,.0f} matches/s ({median['games']:,.0f} games/s; "
                   f"{median['small']:,.0f} matches/s in blocks of {small}), "
                   f"{median['matches'] / median['reference']:,.0f}x the reference engine",
        "rules": rules.to_spec(),
        "bots": " v ".join(specs),
        "games": games,
        "runs": runs,
        "matches_per_s": median["matches"],
        "matches_per_cpu_s": median["cpu"],
        "games_per_s": median["games"],
        "small_blocks_matches_per_s": median["small"],
        "small_block": small,
        "reference_matches_per_s": median["reference"],
        "ratio": median["matches"] / median["reference"],
        "runs_matches_per_s": rates["matches"],
        "runs_matches_per_cpu_s": rates["cpu"],
        "runs_reference_matches_per_s": rates["reference"],
        **provenance(reference_games, threads, load, warmup.seconds, "jit_warmup_s"),
    }
