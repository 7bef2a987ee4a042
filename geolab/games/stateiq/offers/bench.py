"""`geolab bench state-iq`: whole games a second for three line-ups, beside the reference engine."""

from __future__ import annotations

import os
import statistics
import time

from geolab.bots.stateiq.player import PlayerSeat
from geolab.bots.stateiq.registry import BOTS as IQ_BOTS
from geolab.games.stateiq import batch as iq_engine
from geolab.games.stateiq import reference as iq_reference
from geolab.lab.benches import provenance, reference_per_s


def bench(rules, games, runs, seed, threads) -> dict:
    """Whole State IQ games a second on the batch engine (medians of `runs` runs), for the
    default line-up (the hard clue-giver and the optimal guesser against a random clue-giver),
    random clue-givers on both sides, and a guesser with partial knowledge; beside the reference
    engine's games a second with the default line-up (its bots' `PlayerSeat`s), in every run.
    A first run warms the bots' memos (their searches), which the timed runs share."""
    games, reference_games = games or 200_000, 400
    lineups = {"default": ("player", "player:clue=random"),
               "random clues": ("player:clue=random", "player:clue=random"),
               "partial knowledge": ("player:borders=0.75,capitals=0.75,postal=0.75", "player")}
    bots = {k: [IQ_BOTS.make(spec, rules) for spec in v] for k, v in lineups.items()}
    start = time.perf_counter()
    for k in lineups:
        iq_engine.batch(rules, bots[k], min(games, 1 << 16), seed + 1000, threads=threads)
    warmup = time.perf_counter() - start
    rates: dict[str, list[float]] = {k: [] for k in (*lineups, "cpu", "reference", "guesses")}
    load = os.getloadavg()[0]
    for r in range(runs):
        for k in lineups:
            start, start_cpu = time.perf_counter(), time.process_time()
            table = iq_engine.batch(rules, bots[k], games, seed + r, threads=threads)
            wall = time.perf_counter() - start
            rates[k].append(games / wall)
            if k == "default":
                rates["cpu"].append(games / (time.process_time() - start_cpu))
                rates["guesses"].append(float(table.length.mean()))
        rates["reference"].append(reference_per_s(iq_reference.ENGINE, rules, bots["default"], PlayerSeat,
                                                  iq_reference.deal_one, reference_games, seed + r))
    median = {k: statistics.median(v) for k, v in rates.items()}
    return {
        "summary": f"State IQ, {' v '.join(lineups['default'])}, {games:,} games a run, median of {runs} runs: "
                   f"{median['default']:,.0f} games/s ({median['random clues']:,.0f} with random clue-givers, "
                   f"{median['partial knowledge']:,.0f} with partial knowledge); reference engine "
                   f"{median['reference']:,.0f} games/s",
        "bots": {k: " v ".join(v) for k, v in lineups.items()},
        "games": games,
        "runs": runs,
        "games_per_s": median["default"],
        "games_per_cpu_s": median["cpu"],
        "random_clues_games_per_s": median["random clues"],
        "partial_knowledge_games_per_s": median["partial knowledge"],
        "reference_games_per_s": median["reference"],
        "ratio": median["default"] / median["reference"],
        "guesses_per_game": median["guesses"],
        "runs_games_per_s": rates["default"],
        "runs_random_clues_games_per_s": rates["random clues"],
        "runs_partial_knowledge_games_per_s": rates["partial knowledge"],
        "runs_reference_games_per_s": rates["reference"],
        **provenance(reference_games, threads, load, warmup, "warmup_s"),
    }
