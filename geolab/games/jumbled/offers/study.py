"""Jumbled GeoPower Choice in the lab: round simulations, the one-against-a-field arena, what
the dealer's call is worth, and the benchmark. Whole games, seatings and the pairwise arena are
the generic lab's (`geolab.lab.tables`, `geolab.lab.arena` over `geolab.games.jumbled.game.GAME`);
what is here is particular to this game. Bots are the registry's (`geolab.bots.jumbled.registry`),
built from specs or given built.

Round simulations come in fixed blocks of rounds: block b is seeded by the b-th child of
``SeedSequence(seed)``, so a result depends on (seed, block size) only, never on how many
workers run the blocks or in which order. The blocks are checked, cut and run on threads by
every engine's shared code (`geolab.common.chunks`), one block a chunk.
"""

from __future__ import annotations

import functools
import os
import time
from collections.abc import Mapping, Sequence

import numpy as np

from geolab.bots.jumbled.callers import RandomCall
from geolab.bots.jumbled.heuristics import Heuristic, heuristic_block, heuristic_rounds
from geolab.bots.jumbled.registry import BOTS, JumbledBot
from geolab.common import chunks
from geolab.common.seeding import sequence
from geolab.errors import GeolabError
from geolab.game import parse_bot
from geolab.games.jumbled.batch import block_keys, deal, deal_block, dealer_calls, play_round_batch
from geolab.games.jumbled.game import GAME
from geolab.games.jumbled.reference import Game
from geolab.games.jumbled.rules import SEAT_LETTERS, Rules
from geolab.lab.progress import warm_up
from geolab.lab.stats import mean_ci, wilson


def _built(rules: Rules, bot):
    """A bot from a registry spec, or the bot itself when already built."""
    return BOTS.make(bot, rules) if isinstance(bot, str) else bot


def with_call(spec: str, call: str) -> str:
    """A bot spec with its dealer's call policy set: ``heuristic`` -> ``heuristic:call=race``."""
    name, params = parse_bot(spec)
    if "call" in params:
        raise GeolabError(f"bot {spec!r}: the call policy is set here, not in the spec")
    return f"{spec}{',' if params else ':'}call={call}"


def field_arena(rules: Rules, challengers: Sequence[str] | Mapping[str, object], field="heuristic",
                n_deals: int = 200, seed: int = 0, threads: int | None = None) -> list[dict]:
    """Each challenger takes one seat against ``field`` in every other seat, on the same deals
    (`GAME.batch`: every round's hands and GeoPower order depend on the seed only), once per
    seat, each seating on its own play stream; a table row per challenger with its win rate
    and a Wilson 95% interval over all its games. Challengers and field are registry specs or
    built bots (a mapping names them)."""
    rules = rules.validate()
    if rules.teams is not None:
        raise GeolabError("the arena seats one challenger against a field; use individual play (no teams)")
    if isinstance(challengers, Mapping):
        built = dict(challengers)
    else:
        names = list(challengers)
        if len(set(names)) != len(names):
            raise GeolabError(f"a challenger is named twice in {', '.join(names)}")
        built = {n: _built(rules, n) for n in names}
    field_name = field if isinstance(field, str) else getattr(field, "name", "field")
    field = _built(rules, field)
    P = rules.players
    rows = []
    for ci, (name, bot) in enumerate(built.items()):
        wins = points = rounds = 0
        for s in range(P):
            seats = [field] * P
            seats[s] = bot
            b = GAME.batch(rules, seats, n_deals, seed, stream=ci * P + s, threads=threads)
            wins += int((b.scores[:, s] == 1).sum())
            points += float(b.columns[f"points_{SEAT_LETTERS[s]}"].sum())
            rounds += float(b.length.sum())
        games = n_deals * P
        lo, hi = wilson(wins, games)
        rows.append({"bot": name, "field": field_name, "players": P, "deals": n_deals, "games": games,
                     "wins": wins, "win_rate": wins / games, "ci_low": lo, "ci_high": hi, "fair_share": 1 / P,
                     "mean_points": points / games, "mean_rounds": rounds / games})
    return rows


def call_value(rules: Rules, field: str = "heuristic", callers: Sequence[str] = ("random", "race"),
               n_games: int = 10_000, seed: int = 0, threads: int | None = None) -> list[dict]:
    """What the dealer's call is worth: the ``field`` bot at every seat, seat A calling by each
    of ``callers`` in turn (``field:call=NAME``) and the other seats at random, on the same
    deals and play stream. A row per caller: seat A's (team's) win rate (Wilson 95%), and its
    per-game difference from the first caller's games on the same deals, with a normal 95%
    interval over the deals."""
    rules = rules.validate()
    names = list(callers)
    if len(set(names)) != len(names):
        raise GeolabError(f"a call policy is named twice in {', '.join(names)}")
    seat_a = {c: BOTS.make(with_call(field, c), rules) for c in names}  # every mistake before any play
    others = BOTS.make(with_call(field, "random"), rules)
    team_a = rules.team_of.count(rules.team_of[0])
    wins = {}
    for c in names:
        b = GAME.batch(rules, [seat_a[c]] + [others] * (rules.players - 1), n_games, seed, threads=threads)
        wins[c] = np.isclose(b.scores[:, 0], 1 / team_a) & ~b.columns["draw"]
    rows = []
    for name in names:
        lo, hi = wilson(wins[name].sum(), n_games)
        diff, d_lo, d_hi = mean_ci(wins[name].astype(float) - wins[names[0]])
        rows.append({"caller": name, "games": n_games, "wins": int(wins[name].sum()),
                     "win_rate": wins[name].mean(), "ci_low": lo, "ci_high": hi, "fair_share": 1 / rules.n_teams,
                     f"minus_{names[0]}": diff, "diff_ci_low": d_lo, "diff_ci_high": d_hi})
    return rows


def simulate_rounds(rules: Rules, bots: Sequence, n_rounds: int = 100_000, seed: int = 0,
                    block: int = 16384, workers: int = 1, fused: bool | None = None) -> np.ndarray:
    """Independent single rounds from zero scores, ``bots[p]`` at seat p (registry specs or
    built bots: set choices and the dealer's call); (n, P) round points.

    Round i of block b is dealt by `deal_block` from the block's deal key, so every way of
    playing a seed sees the same deals. ``fused`` (default: whenever possible) uses the
    compiled loop that deals and plays each round when one heuristic sits at every seat
    (`heuristic_block`): the same decisions as the step-by-step engine given the same
    uniforms (tested), drawn from per-round counter streams, so its points are a different
    sample from the step-by-step run of the same seed.
    """
    rules = rules.validate()
    made: dict = {}
    bots = [made.setdefault(b, _built(rules, b)) if isinstance(b, str) else b for b in bots]
    if len(bots) != rules.players:
        raise GeolabError(f"{len(bots)} bots for {rules.players} seats")
    policies = [b.policy if isinstance(b, JumbledBot) else b for b in bots]
    callers = [b.caller if isinstance(b, JumbledBot) else b for b in bots]
    can_fuse = isinstance(policies[0], Heuristic) and all(p is policies[0] for p in policies)
    fused = can_fuse if fused is None else fused
    if fused and not can_fuse:
        raise GeolabError("the fused loop needs one heuristic object at every seat")

    random_calls = all(type(c) is RandomCall for c in callers)
    _, _, starts, _ = chunks.plan(n_rounds, 0, block, block, block, None, "rounds", least=1)
    seqs = sequence(seed).spawn(len(starts))  # a SeedSequence is copied, never spawned from

    def one(b: int) -> np.ndarray:
        """Block b's round points."""
        size = min(block, n_rounds - b * block)
        deal_key, play_key = block_keys(seqs[b])
        if fused and random_calls:  # drawn inside the loop
            return heuristic_block(rules, policies[0], size, deal_key, play_key).points
        dealer = np.arange(size) % rules.players
        zeros = np.zeros((size, rules.players), np.int64)
        play_rng = np.random.default_rng(play_key)
        if fused:
            calls = dealer_calls(rules, bots, dealer, zeros, 0, play_rng)
            return heuristic_block(rules, policies[0], size, deal_key, play_key, calls=calls).points
        hands, order = deal_block(rules, deal_key, size)
        return play_round_batch(rules, bots, bots, hands, order, zeros, dealer, 0, play_rng).points()

    return np.concatenate(chunks.run(one, starts, bots, workers))


def reference_rounds_per_s(rules: Rules, bot, seconds: float = 0.5, seed: int = 0) -> dict:
    """Rounds per second of the plain-Python reference engine, two ways: ``engine`` replays
    decisions ``bot`` made in a batch (the engine alone: round set-up, three `play_set` calls
    with their legality checks, scoring); ``with_bot`` steps one seat at a time and asks ``bot``
    through one-row observations, as an interactive caller would. ``bot`` is a registry
    heuristic (or a `Heuristic`)."""
    from geolab.games.jumbled.batch import BatchRound
    from geolab.games.jumbled.observations import observe

    rng = np.random.default_rng(seed)
    P, H, S = rules.players, rules.cards_dealt, rules.sets_per_round
    n_pool = 512
    hands, order = deal(rules, rng, n_pool)
    calls = dealer_calls(rules, [RandomCall()] * P, np.zeros(n_pool, np.int64), np.zeros((n_pool, P), np.int64), 0, rng)
    actions, _ = heuristic_rounds(rules, bot.policy if isinstance(bot, JumbledBot) else bot, hands, order, calls, rng)
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
    out: dict = {"workers": workers, "repeats": repeats, "rounds": rounds, "bot": "heuristic",
                 "cpus": os.cpu_count(), "load_average_before": list(os.getloadavg())}
    made = {P: (Rules(players=P).validate(), BOTS.make("heuristic", Rules(players=P).validate())) for P in players}
    warm = warm_up([(f"{P} players{', step by step' if fused is False else ''}",
                     functools.partial(simulate_rounds, rules, [bot] * P, n_rounds=2048, block=1024, fused=fused))
                    for P, (rules, bot) in made.items() for fused in (None, False)])  # compiled before timing
    out["jit_warmup_s"] = warm.seconds
    for P, (rules, bot) in made.items():
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


def offered(rules, games, runs, seed, threads) -> dict:
    """What Jumbled offers as ``bench`` (`geolab bench jumbled`)."""
    out = bench(rounds=games or 1 << 19, repeats=runs, workers=threads or 2, seed=seed)
    return {"summary": f"default heuristic at every seat, rounds/s at 4 and 8 players, median of {runs} runs", **out}
