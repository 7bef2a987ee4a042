"""Jumbled GeoPower Choice in the lab: seeded blocks, simulations, duplicate arena, benchmark.

Work is cut into fixed blocks of games (or rounds). Block b is seeded by the b-th child of
``SeedSequence(seed)``, and each block spawns its own deal and play streams, so a result
depends on (seed, block size) only, never on how many workers run the blocks or in which order.
"""

from __future__ import annotations

import os
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from geolab.bots.jumbled import Heuristic, RandomCall, heuristic_block, heuristic_rounds
from geolab.errors import GeolabError
from geolab.games.jumbled import (
    Game, Rules, block_keys, deal, deal_block, dealer_calls, play_game_batch, play_round_batch,
)
from geolab.lab.arena import Duplicate
from geolab.lab.stats import mean_ci, wilson


def _blocks(n: int, block: int) -> list[tuple[int, int]]:
    return [(start, min(block, n - start)) for start in range(0, n, block)]


def run_blocks(fn, n: int, block: int, seed, workers: int = 1) -> list:
    """``fn(size, SeedSequence)`` on every block, on ``workers`` threads; results in block order.

    ``seed`` is an int or a SeedSequence; a SeedSequence is copied, never spawned from, so
    asking again with the same one gives the same blocks."""
    if n < 1 or block < 1 or workers < 1:
        raise GeolabError("sizes, block and workers must be positive")
    spans = _blocks(n, block)
    root = (np.random.SeedSequence(seed.entropy, spawn_key=seed.spawn_key)
            if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed))
    seqs = root.spawn(len(spans))
    jobs = [(size, ss) for (_, size), ss in zip(spans, seqs)]
    if workers == 1:
        return [fn(size, ss) for size, ss in jobs]
    with ThreadPoolExecutor(workers) as pool:
        return list(pool.map(lambda job: fn(*job), jobs))


def _streams(ss: np.random.SeedSequence, n_configs: int = 1):
    """A block's deal seed and one play stream per configuration played on its deals (every
    configuration re-creates the deal stream from the same seed, so all see the same deals)."""
    deal_ss, play_ss = ss.spawn(2)
    return deal_ss, [np.random.default_rng(s) for s in play_ss.spawn(n_configs)]


@dataclass
class Games:
    """Results of many games, one row each."""

    winner: np.ndarray  # team index, -1 draw
    rounds: np.ndarray
    scores: np.ndarray  # (n, P)

    @classmethod
    def concat(cls, parts) -> "Games":
        return cls(*(np.concatenate([getattr(p, f) for p in parts]) for f in ("winner", "rounds", "scores")))


def simulate_games(rules: Rules, players, callers=None, n_games: int = 1000, seed: int = 0,
                   block: int = 1024, workers: int = 1) -> Games:
    """n games to the target with a fixed seating (``players[p]`` at seat p)."""
    rules = rules.validate()
    callers = callers or [RandomCall()] * rules.players
    _check_seats(rules, players, callers)

    def one(size, ss):
        deal_ss, (play_rng,) = _streams(ss)
        b = play_game_batch(rules, players, callers, size, np.random.default_rng(deal_ss), play_rng)
        return Games(b.winner, b.rounds, b.scores)

    return Games.concat(run_blocks(one, n_games, block, seed, workers))


def _check_seats(rules: Rules, players, callers) -> None:
    if len(players) != rules.players or len(callers) != rules.players:
        raise GeolabError(f"{len(players)} bots and {len(callers)} callers for {rules.players} seats")


def arena(rules: Rules, challengers: dict, field, n_deals: int = 200, seed: int = 0,
          block: int = 256, workers: int = 1, caller=None) -> list[dict]:
    """Each challenger takes one seat against ``field`` in every other seat, on the same deal
    streams (hands and GeoPower orders, round by round), once per seat (rotation); a table row
    per challenger with its win rate and a Wilson 95% interval over all its games."""
    rules = rules.validate()
    if rules.teams is not None:
        raise GeolabError("the arena seats one challenger against a field; use individual play (no --teams)")
    caller = caller or RandomCall()
    P, names = rules.players, list(challengers)

    def one(size, ss):
        deal_ss, play_rngs = _streams(ss, len(names) * P)
        out = {}
        for ci, name in enumerate(names):
            wins = np.zeros(size)
            points = np.zeros(size)
            rounds = np.zeros(size)
            for seat in range(P):
                players = [field] * P
                players[seat] = challengers[name]
                b = play_game_batch(rules, players, [caller] * P, size, np.random.default_rng(deal_ss),
                                    play_rngs[ci * P + seat])
                wins += b.winner == seat
                points += b.scores[:, seat]
                rounds += b.rounds
            out[name] = (wins, points, rounds)
        return out

    parts = run_blocks(one, n_deals, block, seed, workers)
    rows = []
    for name in names:
        wins = np.concatenate([p[name][0] for p in parts])
        points = np.concatenate([p[name][1] for p in parts])
        rounds = np.concatenate([p[name][2] for p in parts])
        games = n_deals * P
        lo, hi = wilson(wins.sum(), games)
        rows.append({"bot": name, "field": getattr(field, "name", "field"), "players": P,
                     "deals": n_deals, "games": games, "wins": int(wins.sum()),
                     "win_rate": wins.sum() / games, "ci_low": lo, "ci_high": hi,
                     "fair_share": 1 / P, "mean_points": points.sum() / games,
                     "mean_rounds": rounds.sum() / games})
    return rows


#: Deals per arena block (the unit a Ctrl-C keeps) and per thread job inside a block: together
#: with the seed they fix the deals.
ARENA_BLOCK = 1000
PAIR_CHUNK = 250


def pair_sides(players: int) -> np.ndarray:
    """``(2, players)`` bools: where bot a sits in the two games of a duplicate pair. Side 0 puts
    a at the even seats (A, C, ...) and b at the odd ones; side 1 swaps them, so over a pair
    each bot holds every seat's hands once and deals first once."""
    even = np.arange(players) % 2 == 0
    return np.stack([even, ~even])


def pairs_runner(rules: Rules, bots: dict, caller=None, workers: int = 1, chunk: int = PAIR_CHUNK):
    """A `geolab.lab.arena.DuplicateRunner` for P-player tables: bots a and b share a table half
    and half (`pair_sides`), on the same deal streams with the seats swapped. A game scores 1
    for a if one of a's seats wins it, ½ for a draw, 0 otherwise; identical bots score ½ in
    expectation whatever the seat advantages. The "lead" score is that of the side at seat A,
    the first dealer; the length is the game's rounds."""
    rules = rules.validate()
    if rules.teams is not None:
        raise GeolabError("the arena seats bots, not teams; use individual play (no --teams)")
    caller = caller or RandomCall()
    P = rules.players
    sides = pair_sides(P)

    def one(a, b, size, ss):
        deal_ss, play_rngs = _streams(ss, 2)
        score, lead, rounds = np.zeros((size, 2)), np.zeros((size, 2)), np.zeros((size, 2))
        for s in range(2):
            players = [bots[a] if sides[s, p] else bots[b] for p in range(P)]
            g = play_game_batch(rules, players, [caller] * P, size, np.random.default_rng(deal_ss), play_rngs[s])
            won = g.winner >= 0
            score[:, s] = np.where(won, sides[s][np.maximum(g.winner, 0)], 0.5)
            lead[:, s] = score[:, s] if sides[s, 0] else 1 - score[:, s]
            rounds[:, s] = g.rounds
        return score, lead, rounds

    def runner(a, b, n, ss):
        parts = run_blocks(lambda size, sub: one(a, b, size, sub), n, chunk, ss, workers)
        return Duplicate(*(np.concatenate([p[i] for p in parts]) for i in range(3)))

    return runner


def call_value(rules: Rules, bot, callers: dict, n_games: int = 10_000, seed: int = 0,
               workers: int = 1) -> list[dict]:
    """What the dealer's call is worth: ``bot`` at every seat, seat A calling with each of
    ``callers`` in turn and the other seats at random, on the same deal streams. A row per
    caller: seat A's win rate (Wilson 95%), and its per-game difference from the first caller's
    games on the same deals, with a normal 95% interval over the deals."""
    rules = rules.validate()
    names = list(callers)
    wins = {}
    for name in names:
        seats = [callers[name]] + [RandomCall()] * (rules.players - 1)
        wins[name] = (simulate_games(rules, [bot] * rules.players, seats, n_games, seed, workers=workers).winner == 0)
    rows = []
    for name in names:
        lo, hi = wilson(wins[name].sum(), n_games)
        diff, d_lo, d_hi = mean_ci(wins[name].astype(float) - wins[names[0]])
        rows.append({"caller": name, "games": n_games, "wins": int(wins[name].sum()),
                     "win_rate": wins[name].mean(), "ci_low": lo, "ci_high": hi, "fair_share": 1 / rules.players,
                     f"minus_{names[0]}": diff, "diff_ci_low": d_lo, "diff_ci_high": d_hi})
    return rows


def simulate_rounds(rules: Rules, players, callers=None, n_rounds: int = 100_000, seed: int = 0,
                    block: int = 16384, workers: int = 1, fused: bool | None = None) -> np.ndarray:
    """Independent single rounds from zero scores; (n, P) round points.

    Round i of block b is dealt by `deal_block` from the block's deal key, so every way of
    playing a seed sees the same deals. ``fused`` (default: whenever possible) uses the
    compiled loop that deals and plays each round when one heuristic sits at every seat
    (`heuristic_block`): the same decisions as the step-by-step engine given the same
    uniforms (tested), drawn from per-round counter streams, so its points are a different
    sample from the step-by-step run of the same seed.
    """
    rules = rules.validate()
    callers = callers or [RandomCall()] * rules.players
    _check_seats(rules, players, callers)
    can_fuse = isinstance(players[0], Heuristic) and all(b is players[0] for b in players)
    fused = can_fuse if fused is None else fused
    if fused and not can_fuse:
        raise GeolabError("the fused loop needs one heuristic object at every seat")

    random_calls = all(type(c) is RandomCall for c in callers)

    def one(size, ss):
        deal_key, play_key = block_keys(ss)
        if fused and random_calls:  # drawn inside the loop
            return heuristic_block(rules, players[0], size, deal_key, play_key).points
        dealer = np.arange(size) % rules.players
        zeros = np.zeros((size, rules.players), np.int64)
        play_rng = np.random.default_rng(play_key)
        if fused:
            calls = dealer_calls(rules, callers, dealer, zeros, 0, play_rng)
            return heuristic_block(rules, players[0], size, deal_key, play_key, calls=calls).points
        hands, order = deal_block(rules, deal_key, size)
        return play_round_batch(rules, players, callers, hands, order, zeros, dealer, 0, play_rng).points()

    return np.concatenate(run_blocks(one, n_rounds, block, seed, workers))


def reference_rounds_per_s(rules: Rules, bot: Heuristic, seconds: float = 0.5, seed: int = 0) -> dict:
    """Rounds per second of the plain-Python reference engine, two ways: ``engine`` replays
    decisions ``bot`` made in a batch (the engine alone: round set-up, three `play_set` calls
    with their legality checks, scoring); ``with_bot`` steps one seat at a time and asks ``bot``
    through one-row observations, as an interactive caller would."""
    from geolab.games.jumbled import BatchRound, observe

    rng = np.random.default_rng(seed)
    P, H, S = rules.players, rules.cards_dealt, rules.sets_per_round
    n_pool = 512
    hands, order = deal(rules, rng, n_pool)
    calls = dealer_calls(rules, [RandomCall()] * P, np.zeros(n_pool, np.int64), np.zeros((n_pool, P), np.int64), 0, rng)
    actions, _ = heuristic_rounds(rules, bot, hands, order, calls, rng)
    pool = [([list(map(int, h)) for h in hands[g]], [int(c) for c in order[g]], int(calls[g]),
             [[tuple(int(hands[g, p, i]) for i in range(H) if actions[g, s, p] >> i & 1) for p in range(P)]
              for s in range(S)]) for g in range(n_pool)]
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        h, o, call, sets = pool[n % n_pool]
        game = Game(rules)
        rnd = game.start_round(call, h, o)
        for choices in sets:
            rnd.play_set(choices)
        game.end_round()
        n += 1
    engine = n / (time.perf_counter() - start)

    n, start = 0, time.perf_counter()
    zero, no_dealer = np.zeros((1, P), np.int64), np.zeros(1, np.int64)
    while time.perf_counter() - start < seconds:
        h, o, call, _ = pool[n % n_pool]
        game = Game(rules)
        rnd = game.start_round(call, h, o)
        shadow = BatchRound(rules, np.array([h], np.int8), np.array([o], np.int8), np.array([call], np.int8))
        while not rnd.done:
            masks = [int(bot.act(observe(shadow, np.array([0]), np.array([p]), zero, no_dealer, 0), rng)[0])
                     for p in range(P)]
            shadow.step(np.array([masks]))
            rnd.play_set([tuple(h[p][i] for i in range(H) if masks[p] >> i & 1) for p in range(P)])
        game.end_round()
        n += 1
    return {"engine": engine, "with_bot": n / (time.perf_counter() - start)}


def bench(players: tuple[int, ...] = (4, 8), rounds: int = 1 << 20, repeats: int = 5,
          workers: int = 2, seed: int = 0, reference_seconds: float = 0.5) -> dict:
    """Median rounds per second of the default heuristic (fused loop and step-by-step engine),
    and of the reference engine in the same run (the ratio uses the engine-only rate). Also
    rounds per CPU-second of the process (all threads), which stays meaningful when other work
    shares the cores, and the load averages before and after (how busy the cores were)."""
    bot = Heuristic()
    out: dict = {"workers": workers, "repeats": repeats, "rounds": rounds, "bot": bot.name,
                 "cpus": os.cpu_count(), "load_average_before": list(os.getloadavg())}
    for P in players:
        rules = Rules(players=P).validate()
        simulate_rounds(rules, [bot] * P, n_rounds=2048, block=1024)  # compile before timing
        rates, cpu_rates, stepwise = [], [], []
        for r in range(repeats):
            wall, cpu = time.perf_counter(), time.process_time()
            simulate_rounds(rules, [bot] * P, n_rounds=rounds, seed=seed + r, workers=workers)
            rates.append(rounds / (time.perf_counter() - wall))
            cpu_rates.append(rounds / (time.process_time() - cpu))
            wall = time.perf_counter()
            simulate_rounds(rules, [bot] * P, n_rounds=rounds // 4, seed=seed + r, workers=workers, fused=False)
            stepwise.append(rounds // 4 / (time.perf_counter() - wall))
        ref = reference_rounds_per_s(rules, bot, reference_seconds, seed)
        suffix = "" if P == 4 else f"_{P}p"
        out[f"rounds_per_s{suffix}"] = float(np.median(rates))
        out[f"rounds_per_s{suffix}_runs"] = [float(x) for x in rates]
        out[f"rounds_per_cpu_s{suffix}"] = float(np.median(cpu_rates))
        out[f"rounds_per_cpu_s{suffix}_runs"] = [float(x) for x in cpu_rates]
        out[f"stepwise_rounds_per_s{suffix}"] = float(np.median(stepwise))
        out[f"reference_rounds_per_s{suffix}"] = ref["engine"]
        out[f"reference_with_bot_rounds_per_s{suffix}"] = ref["with_bot"]
        out[f"ratio{suffix}"] = float(np.median(rates)) / ref["engine"]
    out["load_average_after"] = list(os.getloadavg())
    return out
