"""Jumbled GeoPower Choice in the lab: seeded blocks, simulations, duplicate arena, benchmark.

Work is cut into fixed blocks of games (or rounds). Block b is seeded by the b-th child of
``SeedSequence(seed)``, and each block spawns its own deal and play streams, so a result
depends on (seed, block size) only, never on how many workers run the blocks or in which order.
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from geolab.bots.jumbled import Heuristic, RandomCall, heuristic_rounds
from geolab.errors import GeolabError
from geolab.games.jumbled import (
    Game, Rules, deal, dealer_calls, play_game_batch, play_round_batch,
)
from geolab.lab.stats import wilson


def _blocks(n: int, block: int) -> list[tuple[int, int]]:
    return [(start, min(block, n - start)) for start in range(0, n, block)]


def run_blocks(fn, n: int, block: int, seed: int, workers: int = 1) -> list:
    """``fn(size, SeedSequence)`` on every block, on ``workers`` threads; results in block order."""
    if n < 1 or block < 1 or workers < 1:
        raise GeolabError("sizes, block and workers must be positive")
    spans = _blocks(n, block)
    seqs = np.random.SeedSequence(seed).spawn(len(spans))
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


def simulate_rounds(rules: Rules, players, callers=None, n_rounds: int = 100_000, seed: int = 0,
                    block: int = 16384, workers: int = 1, fused: bool | None = None) -> np.ndarray:
    """Independent single rounds from zero scores; (n, P) round points.

    ``fused`` (default: whenever possible) uses the compiled whole-round loop when one
    heuristic sits at every seat; it gives the same points as the step-by-step engine.
    """
    rules = rules.validate()
    callers = callers or [RandomCall()] * rules.players
    _check_seats(rules, players, callers)
    can_fuse = isinstance(players[0], Heuristic) and all(b is players[0] for b in players)
    fused = can_fuse if fused is None else fused
    if fused and not can_fuse:
        raise GeolabError("the fused loop needs one heuristic object at every seat")

    def one(size, ss):
        deal_ss, (play_rng,) = _streams(ss)
        hands, order = deal(rules, np.random.default_rng(deal_ss), size)
        dealer = np.arange(size) % rules.players
        zeros = np.zeros((size, rules.players), np.int64)
        if not fused:
            rnd = play_round_batch(rules, players, callers, hands, order, zeros, dealer, 0, play_rng)
            return rnd.points()
        calls = dealer_calls(rules, callers, dealer, zeros, 0, play_rng)
        return heuristic_rounds(rules, players[0], hands, order, calls, play_rng, keep_actions=False)[1]

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
    shares the cores."""
    bot = Heuristic()
    out: dict = {"workers": workers, "repeats": repeats, "rounds": rounds, "bot": bot.name}
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
        out[f"stepwise_rounds_per_s{suffix}"] = float(np.median(stepwise))
        out[f"reference_rounds_per_s{suffix}"] = ref["engine"]
        out[f"reference_with_bot_rounds_per_s{suffix}"] = ref["with_bot"]
        out[f"ratio{suffix}"] = float(np.median(rates)) / ref["engine"]
    return out
