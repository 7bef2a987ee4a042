"""`geolab bench GAME`: the built-in games' speed benchmarks behind one signature.

A benchmark times a game's batch engine against its reference engine in the same run and
reports medians of several runs (these machines are shared and noisy). A game offers its
benchmark on its registry entry (``"bench"`` in `geolab.registry.Builtin.offers`:
``bench(rules, games, runs, seed, threads) -> dict`` with a ``summary`` line); `run` finds it
there, and a game without one says so.
"""

from __future__ import annotations

import os
import resource
import statistics
import time

import numpy as np

from geolab import registry
from geolab.bots.ranks.registry import BOTS
from geolab.bots.ranks.seats import GreedySeat
from geolab.errors import GeolabError
from geolab.games.ranks import batch as engine
from geolab.games.ranks import reference
from geolab.games.ranks.rules import Rules
from geolab.lab.progress import warm_up



def _provenance(reference_games: int, threads, load: float, warmup: float, warmup_key: str = "jit_warmup_s") -> dict:
    """What every bench's record ends with: the reference games timed, the threads, the load
    average at the start and the end, the warm-up's seconds and the peak memory."""
    return {
        "reference_games": reference_games,
        "threads": threads or os.cpu_count(),
        "load_average_at_start": load,
        "load_average_at_end": os.getloadavg()[0],
        warmup_key: warmup,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }

def _reference_tricks_per_s(rules: Rules, games: int, seed: int) -> float:
    hands, draw, power = reference.deal_arrays(rules, games, np.random.default_rng(seed))
    seats = [GreedySeat(), GreedySeat()]
    tricks, start = 0, time.perf_counter()
    for i in range(games):
        first = reference.Deal((tuple(hands[i, 0]), tuple(hands[i, 1])), tuple(draw[i])).drawn_first_lead()
        tricks += len(reference.play(rules, hands[i].tolist(), seats, first, None if power is None else power[i]).tricks)
    return tricks / (time.perf_counter() - start)


def bench(games: int = 2_000_000, runs: int = 5, reference_games: int = 400, seed: int = 0,
          threads: int | None = None) -> dict:  # fmt: skip
    """Greedy v greedy on Combo 1, deal and discard included: median tricks/s of `runs` runs,
    beside the reference engine's, measured in the same runs. Also tricks per CPU-second and
    the load average, since other processes on the machine take cores from the wall clock."""
    rules = Rules.combo1()
    greedy = BOTS.make("greedy", rules)
    warmup = warm_up([("greedy v greedy", lambda: engine.play(rules, (greedy, greedy), 64, seed, block=64))]).seconds
    batch, cpu, slow = [], [], []
    load = os.getloadavg()[0]
    for r in range(runs):
        tricks, start, start_cpu = 0, time.perf_counter(), time.process_time()
        for part in engine.run(rules, (greedy, greedy), games, seed + r, threads=threads):
            tricks += int(part.n_tricks.sum(dtype=np.int64))
        batch.append(tricks / (time.perf_counter() - start))
        cpu.append(tricks / (time.process_time() - start_cpu))
        slow.append(_reference_tricks_per_s(rules, reference_games, seed + r))
    fast, slow = statistics.median(batch), statistics.median(slow)
    return {
        "rules": "combo1",
        "bots": "greedy,greedy",
        "games": games,
        "runs": runs,
        "tricks_per_s": fast,
        "reference_tricks_per_s": slow,
        "ratio": fast / slow,
        "runs_tricks_per_s": batch,
        "reference_games": reference_games,
        "runs_reference_tricks_per_s": slow,
        "tricks_per_cpu_s": statistics.median(cpu),
        "threads": threads or os.cpu_count(),
        "load_average_at_start": load,
        "jit_warmup_s": warmup,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def ranks(rules, games, runs, seed, threads) -> dict:
    out = bench(games or 2_000_000, runs, 400, seed, threads)
    return {"summary": f"greedy v greedy on Combo 1, {out['games']:,} games a run, median of {runs} runs", **out}


def jumbled(rules, games, runs, seed, threads) -> dict:
    from geolab.lab.jumbled import bench as jumbled_bench

    out = jumbled_bench(rounds=games or 1 << 19, repeats=runs, workers=threads or 2, seed=seed)
    return {"summary": f"default heuristic at every seat, rounds/s at 4 and 8 players, median of {runs} runs", **out}


def classroom(rules, games, runs, seed, threads) -> dict:
    from geolab.lab.classroom_arena import bench as class_bench

    out = class_bench(rules, games or 200_000, 200, runs, seed)
    return {"summary": f"equilibrium discards, {rules.students} students, student-hands/s, median of {runs} runs",
            **out}


def geodouble(rules, games, runs, seed, threads) -> dict:
    """Whole GeoDouble matches a second on the batch engine, greedy tricks, A never declaring
    and B always (medians of `runs` runs), beside Play the Ranks' greedy v greedy deals a
    second on the match's stage rules (its fused kernel: the ceiling for one stage game) and
    the reference engine's matches a second, each measured in every run."""
    from geolab.bots.geodouble.player import PlayerSeat
    from geolab.bots.geodouble.registry import BOTS as MATCH_BOTS
    from geolab.games.geodouble import batch as match_engine
    from geolab.games.geodouble import reference as match_reference

    games, reference_games = games or 1 << 19, 40
    specs = ("player:tricks=greedy,declare=never", "player:tricks=greedy,declare=always")
    bots = [MATCH_BOTS.make(spec, rules) for spec in specs]
    greedy = BOTS.make("greedy", rules.stage)
    warmup = warm_up([("geodouble", lambda: match_engine.batch(rules, bots, 64, seed)),
                      ("greedy v greedy", lambda: engine.play(rules.stage, (greedy, greedy), 64, seed, block=64))])
    rates: dict[str, list[float]] = {k: [] for k in ("matches", "cpu", "rounds", "deals", "reference")}
    load = os.getloadavg()[0]
    for r in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        table = match_engine.batch(rules, bots, games, seed + r, threads=threads)
        wall, cpu = time.perf_counter() - start, time.process_time() - start_cpu
        rates["matches"].append(games / wall)
        rates["cpu"].append(games / cpu)
        rates["rounds"].append(int(table.length.sum()) / wall)
        start = time.perf_counter()
        deals = sum(len(part) for part in engine.run(rules.stage, (greedy, greedy), games, seed + r, threads=threads))
        rates["deals"].append(deals / (time.perf_counter() - start))
        rng = np.random.default_rng(seed + r)
        start = time.perf_counter()
        for _ in range(reference_games):
            seats = [PlayerSeat(bot, rules, rng) for bot in bots]
            match_reference.Engine().play(rules, match_reference.deal_one(rules, rng), seats)
        rates["reference"].append(reference_games / (time.perf_counter() - start))
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
        **_provenance(reference_games, threads, load, warmup.seconds, "jit_warmup_s"),
    }


def run(entry, rules, games: int | None, runs: int, seed: int, threads: int | None) -> dict:
    bench = entry.offer("bench")
    if bench is None:
        raise GeolabError(f"no benchmark for {entry.name!r} (benchmarks: {', '.join(registry.offering('bench'))})")
    return bench(rules, games, runs, seed, threads)


def borderup(rules, games, runs, seed, threads) -> dict:
    """Border-Up games a second on the batch engine, ``racer`` v ``racer:speed=1.5``, beside the
    reference engine with the same bots at its seats (`RacerSeat`)."""
    from geolab.bots.borderup.racer import RacerSeat
    from geolab.games.borderup import reference as race_reference

    return race_game(registry.get("border-up"), rules, ("racer", "racer:speed=1.5"), RacerSeat, race_reference,
                     games or 1 << 21, runs, seed, threads)


def dashing(rules, games, runs, seed, threads) -> dict:
    """Dashing States games a second on the batch engine, ``team`` v ``team:speed=1.5`` (the
    simulate line-up), beside the reference engine with the same bots seated (`TeamSeat`)."""
    from geolab.bots.dashing.registry import TeamSeat
    from geolab.games.dashing import reference as dashing_reference

    return race_game(registry.get("dashing-states"), rules, ("team", "team:speed=1.5"), TeamSeat, dashing_reference,
                     games or 1 << 20, runs, seed, threads)


def race_game(entry, rules, specs, seat, reference_module, games: int, runs: int, seed: int, threads,
              reference_games: int = 400) -> dict:
    """A two-team game's batch engine, games a second (medians of `runs` runs), beside its
    reference engine (``reference_module.ENGINE`` on ``deal_one``, the bots at `seat`) measured
    in every run: the bench of Combo 1's race games."""
    bots = [entry.bots.make(spec, rules) for spec in specs]
    warmup = warm_up([(entry.name, lambda: entry.game.batch(rules, bots, 64, seed))])
    rates: dict[str, list[float]] = {k: [] for k in ("games", "cpu", "reference")}
    load = os.getloadavg()[0]
    for r in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        entry.game.batch(rules, bots, games, seed + r, threads=threads)
        wall, cpu = time.perf_counter() - start, time.process_time() - start_cpu
        rates["games"].append(games / wall)
        rates["cpu"].append(games / cpu)
        rng = np.random.default_rng(seed + r)
        start = time.perf_counter()
        for _ in range(reference_games):
            seats = [seat(bot, rules, rng) for bot in bots]
            reference_module.ENGINE.play(rules, reference_module.deal_one(rules, rng), seats)
        rates["reference"].append(reference_games / (time.perf_counter() - start))
    median = {k: statistics.median(v) for k, v in rates.items()}
    return {
        "summary": f"{entry.game.title}, {' v '.join(specs)}, {games:,} games a run, median of {runs} runs: "
                   f"{median['games']:,.0f} games/s, {median['games'] / median['reference']:,.0f}x the reference engine",
        "rules": rules.to_spec(),
        "bots": " v ".join(specs),
        "games": games,
        "runs": runs,
        "games_per_s": median["games"],
        "games_per_cpu_s": median["cpu"],
        "reference_games_per_s": median["reference"],
        "ratio": median["games"] / median["reference"],
        "runs_games_per_s": rates["games"],
        "runs_games_per_cpu_s": rates["cpu"],
        "runs_reference_games_per_s": rates["reference"],
        **_provenance(reference_games, threads, load, warmup.seconds, "jit_warmup_s"),
    }


def stateiq(rules, games, runs, seed, threads) -> dict:
    """Whole State IQ games a second on the batch engine (medians of `runs` runs), for the
    default line-up (the hard clue-giver and the optimal guesser against a random clue-giver),
    random clue-givers on both sides, and a guesser with partial knowledge; beside the reference
    engine's games a second with the default line-up (its bots' `PlayerSeat`s), in every run.
    A first run warms the bots' memos (their searches), which the timed runs share."""
    from geolab.bots.stateiq.player import PlayerSeat
    from geolab.bots.stateiq.registry import BOTS as IQ_BOTS
    from geolab.games.stateiq import batch as iq_engine
    from geolab.games.stateiq import reference as iq_reference

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
        rng = np.random.default_rng(seed + r)
        start = time.perf_counter()
        for _ in range(reference_games):
            seats = [PlayerSeat(bot, rules, rng) for bot in bots["default"]]
            iq_reference.ENGINE.play(rules, iq_reference.deal_one(rng), seats)
        rates["reference"].append(reference_games / (time.perf_counter() - start))
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
        **_provenance(reference_games, threads, load, warmup, "warmup_s"),
    }


def combo1(rules, games, runs, seed, threads) -> dict:
    """Whole Combo 1 matches a second on the batch engine (medians of `runs` runs), ``team``
    v ``team:speed=1.5`` (the simulate line-up), beside the reference engine's matches a
    second with the same teams seated (`TeamSeat`), measured in every run, and `play_block` in
    blocks of 256 matches (a tournament's calls, one pair's matches). A first run warms the JIT
    and the State IQ bots' memos, which the timed runs share."""
    from geolab.bots.combo1.registry import BOTS as TEAMS
    from geolab.bots.combo1.registry import seat
    from geolab.games.combo1 import batch as match_engine
    from geolab.games.combo1 import reference as match_reference

    games, reference_games = games or 1 << 16, 10
    specs = ("team", "team:speed=1.5")
    bots = [TEAMS.make(spec, rules) for spec in specs]
    warmup = warm_up([("combo1", lambda: match_engine.batch(rules, bots, min(games, 1 << 14), seed + 1000,
                                                            threads=threads))])
    rates: dict[str, list[float]] = {k: [] for k in ("matches", "cpu", "games", "small", "reference")}
    small, blocks = 256, max(1, min(16, games // 256))  # a tournament's calls: one pair's matches of a block
    load = os.getloadavg()[0]
    for r in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        table = match_engine.batch(rules, bots, games, seed + r, threads=threads)
        wall, cpu = time.perf_counter() - start, time.process_time() - start_cpu
        rates["matches"].append(games / wall)
        rates["cpu"].append(games / cpu)
        rates["games"].append(int(table.length.sum()) / wall)
        start = time.perf_counter()
        for b in range(blocks):
            match_engine.play_block(rules, bots, seed + r, (1 << 20, b), small)
        rates["small"].append(blocks * small / (time.perf_counter() - start))
        rng = np.random.default_rng(seed + r)
        start = time.perf_counter()
        for _ in range(reference_games):
            seats = [seat(bot, rules, rng) for bot in bots]
            match_reference.ENGINE.play(rules, match_reference.deal_one(rules, rng), seats)
        rates["reference"].append(reference_games / (time.perf_counter() - start))
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
        **_provenance(reference_games, threads, load, warmup.seconds, "jit_warmup_s"),
    }
