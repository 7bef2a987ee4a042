"""`geolab simulate|arena|bench jumbled`: Jumbled GeoPower Choice from the command line."""

from __future__ import annotations

import time
from pathlib import Path

import pandas as pd

from geolab.bots.jumbled import make_bot, make_caller
from geolab.cli import arena as arena_cli
from geolab.cli.output import print_json, print_table
from geolab.errors import GeolabError, RulesError
from geolab.games.jumbled import SEAT_LETTERS, Rules
from geolab.lab import jumbled as lab
from geolab.lab.arena import split_bots
from geolab.lab.results import meta, write_json, write_table
from geolab.lab.stats import wilson

#: The arena's default line-up: the heuristic family and the random floor (add mc:16 for the
#: Monte Carlo bot: about a thousand times slower).
ARENA_BOTS = "heuristic,reserve,first,middle,last,random"
CALLERS = "random,race,top-dog,bottoms-up"


def _rules_arguments(p, seed_and_json: bool = True) -> None:
    p.add_argument("--players", type=int, default=4, help="2-8 players (default 4)")
    p.add_argument("--teams", help="team label per seat, e.g. 0,1,0,1 (default: everyone alone)")
    p.add_argument("--target", type=int, default=50, help="points to win (default 50)")
    p.add_argument("--deck", default="5,5,5", help="GeoPower cards: size,statehood,population (default 5,5,5)")
    p.add_argument("--call", default="random", help="dealer's call policy: random, top-dog, bottoms-up, race")
    p.add_argument("--workers", type=int, default=1, help="threads (default 1)")
    if seed_and_json:
        p.add_argument("--seed", type=int, default=0)
        p.add_argument("--json", action="store_true", help="print one JSON object")


def _ints(text: str, what: str) -> tuple[int, ...]:
    try:
        return tuple(int(x) for x in text.split(","))
    except ValueError:
        raise GeolabError(f"{what}: expected comma-separated integers, got {text!r}") from None


def _rules(args) -> Rules:
    teams = _ints(args.teams, "--teams") if args.teams else None
    try:
        return Rules(players=args.players, teams=teams, target=args.target,
                     geopower_deck=_ints(args.deck, "--deck")).validate()
    except TypeError as error:
        raise RulesError(str(error)) from None


def _positive(value: int, flag: str) -> int:
    if value < 1:
        raise GeolabError(f"{flag} must be at least 1, got {value}")
    return value


def register(commands) -> None:
    p = commands["simulate"].add_parser("jumbled", help="Jumbled GeoPower Choice games between bots")
    _rules_arguments(p)
    p.add_argument("--bots", default="heuristic",
                   help="bots by seat, comma-separated, repeated to fill the table (default heuristic)")
    p.add_argument("--games", type=int, default=2000, help="games to the target (default 2000)")
    p.set_defaults(run=run_simulate)

    p = commands["arena"].add_parser("jumbled", help="every pair of bots on duplicate deals, ratings; or bots v a field")
    _rules_arguments(p, seed_and_json=False)
    arena_cli.add_arguments(p, default_bots=ARENA_BOTS, default_games=200)
    p.add_argument("--mode", choices=("pairs", "field", "calls"), default="pairs",
                   help="pairs: every pair shares tables half and half, seats swapped (default); "
                        "field: each bot in one seat against --field in the others, once per seat; "
                        "calls: seat A's dealer calls by each of --callers, --field at every seat. "
                        "--games counts deals a pair, deal streams, or games a call policy")
    p.add_argument("--field", default="heuristic",
                   help="--mode field: the bot in every other seat; --mode calls: the bot at every seat (default heuristic)")
    p.add_argument("--callers", default=CALLERS, help=f"--mode calls: call policies, the first the baseline (default {CALLERS})")
    p.set_defaults(run=run_arena)

    p = commands["bench"].add_parser("jumbled", help="rounds per second, batch v reference engine")
    p.add_argument("--rounds", type=int, default=1 << 19, help="rounds per timed run (default 524288)")
    p.add_argument("--repeats", type=int, default=5, help="timed runs; the median is reported (default 5)")
    p.add_argument("--workers", type=int, default=2, help="threads (default 2)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=run_bench)


def run_simulate(args) -> None:
    rules = _rules(args)
    names = [b.strip() for b in args.bots.split(",")]
    if len(names) > rules.players:
        raise GeolabError(f"--bots names {len(names)} bots for {rules.players} seats")
    bots = {n: make_bot(n, rules) for n in dict.fromkeys(names)}
    seats = [bots[names[p % len(names)]] for p in range(rules.players)]
    callers = [make_caller(args.call)] * rules.players
    n = _positive(args.games, "--games")
    start = time.perf_counter()
    games = lab.simulate_games(rules, seats, callers, n, args.seed, workers=_positive(args.workers, "--workers"))
    seconds = time.perf_counter() - start
    rows = []
    for t in range(rules.n_teams):
        wins = int((games.winner == t).sum())
        lo, hi = wilson(wins, n)
        members = [p for p in range(rules.players) if rules.team_of[p] == t]
        rows.append({"side": rules.team_name(t), "bots": "+".join(seats[p].name for p in members),
                     "wins": wins, "win_rate": wins / n, "ci_low": lo, "ci_high": hi,
                     "mean_points": float(games.scores[:, members].sum(axis=1).mean())})
    summary = {"game": "jumbled-geopower-choice", "players": rules.players, "games": n,
               "seed": args.seed, "draws": int((games.winner == -1).sum()),
               "mean_rounds": float(games.rounds.mean()), "max_rounds": int(games.rounds.max()),
               "games_per_s": n / seconds, "rounds_per_s": float(games.rounds.sum()) / seconds}
    if args.json:
        print_json({"sides": rows, **summary})
        return
    print(f"Jumbled GeoPower Choice, {rules.players} players, {n:,} games to {rules.target}, seed {args.seed}")
    print_table(rows)
    print(f"{summary['mean_rounds']:.2f} rounds a game (longest {summary['max_rounds']}); "
          f"{summary['draws']} draws; {summary['rounds_per_s']:,.0f} rounds/s")


def run_arena(args) -> None:
    rules = _rules(args)
    if rules.teams is not None:
        raise GeolabError("the arena seats bots, not teams; use individual play (no --teams)")
    workers = _positive(args.workers, "--workers")
    caller = make_caller(args.call)
    if args.mode == "calls":
        return _run_calls(args, rules, workers)
    names = split_bots(args.bots)
    if args.mode == "field":
        return _run_field(args, rules, names, caller, workers)
    bots = {n: make_bot(n, rules) for n in names}  # unknown names fail here, before any play
    spec = f"{rules.players}p-target{rules.target}-deck{'-'.join(map(str, rules.geopower_deck))}-call-{args.call}"
    arena_cli.run(args, "jumbled", spec, lab.pairs_runner(rules, bots, caller, workers),
                  f"Jumbled GeoPower Choice, {rules.players} players", block=lab.ARENA_BLOCK,
                  lead_name="the side at seat A (first dealer)", length="rounds",
                  settings={"rules_fields": rules.to_dict(), "call": args.call, "chunk": lab.PAIR_CHUNK,
                            "seating": "per deal two games: bot a at the even seats (A, C, ...) and b at the odd "
                                       "ones, then swapped; a game scores 1 for the bot whose seat wins, 1/2 a draw"})


def _run_calls(args, rules: Rules, workers: int) -> None:
    """What the dealer's call is worth: seat A calls by each policy in turn on the same deals."""
    names = [c.strip() for c in args.callers.split(",")]
    if len(set(names)) != len(names):
        raise GeolabError(f"--callers: a policy is named twice in {args.callers!r}")
    callers = {n: make_caller(n) for n in names}
    bot = make_bot(args.field, rules)
    rows = lab.call_value(rules, bot, callers, _positive(args.games, "--games"), args.seed, workers)
    if args.out:
        out = Path(args.out)
        write_table(pd.DataFrame(rows), out, "calls")
        write_json(meta(game="jumbled", mode="calls", rules_fields=rules.to_dict(), bot=args.field, callers=names,
                        games=args.games, seed=args.seed, seating="seat A calls by the policy, every other seat at random"),
                   out / "calls_meta.json")
    if args.json:
        print_json({"game": "jumbled-geopower-choice", "mode": "calls", "seed": args.seed, "rows": rows})
        return
    print(f"Jumbled GeoPower Choice, {rules.players} players, {args.field} at every seat: seat A's win rate when "
          f"it calls by each policy (the others call at random), {args.games:,} games each on the same deals, "
          f"seed {args.seed}")
    print_table(rows)


def _run_field(args, rules: Rules, names: list[str], caller, workers: int) -> None:
    """The one-v-field table: each bot in one seat, ``--field`` in the others, seats rotated."""
    if len(set(names)) != len(names):
        raise GeolabError(f"--bots: a bot is named twice in {args.bots!r}")
    challengers = {n: make_bot(n, rules) for n in names}
    field = make_bot(args.field, rules)
    rows = lab.arena(rules, challengers, field, _positive(args.games, "--games"), args.seed,
                     workers=workers, caller=caller)
    if args.json:
        print_json({"game": "jumbled-geopower-choice", "mode": "field", "seed": args.seed, "rows": rows})
        return
    print(f"Jumbled GeoPower Choice arena: each bot in one seat v {args.field} in the other "
          f"{rules.players - 1} ({SEAT_LETTERS[:rules.players]} in turn), {args.games} duplicate deal "
          f"streams, seed {args.seed}; fair share {1 / rules.players:.3f}")
    print_table([{k: r[k] for k in ("bot", "games", "wins", "win_rate", "ci_low", "ci_high", "mean_points")} for r in rows])


def run_bench(args) -> None:
    out = lab.bench(rounds=_positive(args.rounds, "--rounds"), repeats=_positive(args.repeats, "--repeats"),
                    workers=_positive(args.workers, "--workers"), seed=args.seed)
    if args.json:
        print_json(out)
        return
    print(f"Jumbled GeoPower Choice, default heuristic at every seat, {args.workers} workers, "
          f"median of {args.repeats} runs of {args.rounds:,} rounds")
    rows = [{"players": p, "batch_rounds_per_s": out[k], "stepwise_rounds_per_s": out[k.replace("rounds", "stepwise_rounds")],
             "reference_rounds_per_s": out[k.replace("rounds", "reference_rounds")], "ratio": out[k.replace("rounds_per_s", "ratio")]}
            for p, k in ((4, "rounds_per_s"), (8, "rounds_per_s_8p"))]
    print_table(rows)

