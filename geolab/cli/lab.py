"""The lab's commands for every registered game, with the same flags for all of them:
``geolab games``, ``bots GAME``, ``rules GAME``, ``simulate GAME``, ``arena GAME``,
``bench GAME``. Nothing here names a game: each is found in `geolab.registry`.
"""

from __future__ import annotations

import itertools
import re
import signal
import sys
from pathlib import Path

from geolab import registry
from geolab.cli import args as argtypes
from geolab.cli.output import print_json, print_table
from geolab.common.lazy import lazy_module
from geolab.errors import GeolabError
from geolab.game import parse_bot, split_bots

# the lab, imported when a command runs (not to read the arguments)
arena, benches, plots, tables, results = (lazy_module(f"geolab.lab.{m}") for m in ("arena", "benches", "plots",
                                                                                   "tables", "results"))
exploitation = lazy_module("geolab.lab.exploit")


def register(commands) -> None:
    top = commands["top"]
    p = top.add_parser("games", help="the games geolab plays")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=run_games)
    for verb, text in [("bots", "a game's bots and their parameters"),
                       ("rules", "every field of a game's rules, its value and what it means")]:
        parser = top.add_parser(verb, help=text, description=text)
        sub = parser.add_subparsers(dest="game", required=True, parser_class=type(parser))
        for name in registry.names():
            q = sub.add_parser(name, help=registry.title(name))
            q.add_argument("--json", action="store_true")
            if verb == "rules":
                argtypes.rules_arguments(q)
            q.set_defaults(run=run_bots if verb == "bots" else run_rules, game=name)
    for name in registry.names():
        title = registry.title(name)
        p = commands["simulate"].add_parser(name, help=title, description=f"{title}: {SIMULATE_TEXT}")
        argtypes.rules_arguments(p)
        p.add_argument("--bots", help="bots by seat, comma-separated, repeated around the table "
                                      "(name:key=value sets parameters; see geolab bots GAME)")
        p.add_argument("--games", type=argtypes.simulate_games, default=2000,
                       help="deals, each played under every rotation (default 2000)")
        _run_arguments(p)
        p.add_argument("--chunk", type=argtypes.chunk, help="games per chunk (never changes the result)")
        p.set_defaults(run=run_simulate, game=name)

        p = commands["arena"].add_parser(name, help=title, description=f"{title}: {ARENA_TEXT}")
        argtypes.rules_arguments(p)
        p.add_argument("--bots", help="comma-separated bots, at least two (default: the game's ladder)")
        p.add_argument("--games", type=argtypes.arena_games, default=100, help="duplicate deals per pair (default 100)")
        p.add_argument("--exploit", type=argtypes.whole("--exploit", 2, 1_000_000), metavar="N",
                       help="also N games of the exploiter against each fair bot (two-sided games): its "
                            "exploitability lower bound and 95%% interval in the table, CSV and ladder (off by "
                            "default: it costs far more than the arena)")
        p.add_argument("--exploit-model", metavar="SPEC",
                       help="with --exploit: the bot that stands for each target in the exploiter's head (default: "
                            "the target itself); the games are still played against the real target, so the bound "
                            "holds, only weaker; the table's exploit_model column names it")
        _run_arguments(p)
        p.set_defaults(run=run_arena, game=name)

        p = commands["bench"].add_parser(name, help=title, description=f"{title}: batch engine speed against "
                                         "the reference engine, measured in the same run")
        argtypes.rules_arguments(p)
        p.add_argument("--games", type=argtypes.bench_games,
                       help="games (or rounds) per timed run (default: the game's)")
        p.add_argument("--runs", type=argtypes.runs, default=5, help="timed runs; medians are reported (default 5)")
        p.add_argument("--seed", type=argtypes.seed, default=0)
        p.add_argument("--threads", type=argtypes.threads, help="threads (default: one per core)")
        p.add_argument("--out", help="also write the numbers to this JSON file (replaced atomically)")
        p.add_argument("--json", action="store_true")
        p.set_defaults(run=run_bench, game=name)


SIMULATE_TEXT = ("many games between bots on the batch engine; every deal is played under every "
                 "rotation of the seats, so each bot holds every seat's cards")
ARENA_TEXT = ("every pair of bots on the same duplicate deals: win rates with 95% intervals, "
              "Bradley-Terry ratings, CSV/Parquet/PNG and meta.json")


def _run_arguments(p) -> None:
    p.add_argument("--seed", type=argtypes.seed, default=0)
    p.add_argument("--threads", type=argtypes.threads, help="threads (default: one per core; never changes the result)")
    p.add_argument("--out", help="result folder: must not exist yet (or be empty); the set appears there whole "
                                 "or not at all (see docs/reliability.md)")
    p.add_argument("--json", action="store_true", help="print one JSON object")


def _positive(value, flag: str):
    if value is not None and value < 1:
        raise GeolabError(f"{flag} must be at least 1, got {value}")
    return value


def run_games(args) -> None:
    rows = [{"game": e.name, "title": e.game.title, "seats": e.game.seats(e.game.Rules.preset(e.game.Rules.DEFAULT)),
             "presets": ", ".join(e.game.Rules.PRESETS), "records": e.game.record_game, "bots": len(e.bots.names())}
            for e in registry.entries()]
    if args.json:
        print_json(rows)
        return
    print_table(rows)
    print("\nseats: at the default rules; presets: geolab rules GAME --rules PRESET; bots: geolab bots GAME")


def run_bots(args) -> None:
    entry = registry.get(args.game)
    rows = entry.bots.describe()
    if args.json:
        print_json(rows)
        return
    print(f"{entry.game.title}: bots (set a parameter with name:key=value; peeks = sees hidden cards)")
    print_table(rows)


def run_rules(args) -> None:
    entry = registry.get(args.game)
    rules = argtypes.game_rules(entry, args)
    rows = rules.describe()
    if args.json:
        print_json({"spec": rules.to_spec(), "fields": rows})
        return
    print(f"{entry.game.title}, rules {rules.to_spec()} (presets: {', '.join(type(rules).PRESETS)})")
    print_table(rows)


def _threads(args):
    return _positive(args.threads, "--threads")


def run_simulate(args) -> None:
    out = results.check_writable(args.out, "folder", "--out") if args.out else None  # before any work
    entry = registry.get(args.game)
    rules = argtypes.game_rules(entry, args)
    _positive(args.games, "--games")
    _positive(args.chunk, "--chunk")
    names = split_bots(args.bots or entry.simulate_bots)
    tables.check_simulate(entry, rules, names, args.games, keep_table=bool(args.out))
    warm = tables.warm_up(entry, rules, [names])  # compiled before the clock starts
    games, summary = tables.simulate(entry, rules, names, args.games, args.seed, args.chunk, _threads(args),
                                     keep_table=bool(args.out))
    summary["seed"] = args.seed
    failure = None
    if out is not None:
        try:
            with results.ResultSet(out) as written:
                written.table(games, "games")
                written.json(results.meta(run_id=written.run_id, **summary), "meta.json")
            summary["out"] = str(written.path)
            _moved_aside(written)
        except GeolabError as error:
            failure = error  # the summary is still printed: the numbers are not lost with the files
    if args.json:
        print_json(summary)
    else:
        game = entry.game
        print(f"{game.title}, rules {_spec_text(rules)}: {summary['deals']:,} deals x {summary['rotations']} "
              f"rotations = {summary['games']:,} games, seed {args.seed}; batch engine")
        print(SIMULATE_BOTS_COLUMNS)
        print_table(summary["bots"])
        print()
        print(SIMULATE_SEATS_COLUMNS)
        print_table(summary["seats"])
        low, high = summary["first_ci"]
        print(f"\n{game.first_means} wins {summary['first_win_share']:.4f} (95% CI {low:.4f}-{high:.4f}); "
              f"shared wins {summary['shared_rate']:.2%}; {summary['mean_length']:.3f} {game.length_unit} a game; "
              f"{summary['games_per_s']:,.0f} games/s ({warm.note})")
        if "out" in summary:
            print(f"games table and meta.json: {summary['out']}/")
    if failure is not None:
        raise failure


#: What the columns of each printed table mean (one line above the table; --json has the same keys).
SIMULATE_BOTS_COLUMNS = ("seats: how many seats the bot holds; win_share: its share of the wins (a tie or shared "
                         "win splits it), ci_low-ci_high its 95% CI over deals; fair_share: its share of the seats "
                         "(what it would win if skill did not matter)")
SIMULATE_SEATS_COLUMNS = ("seat: the seat, whichever bot holds it (the seats rotate); win_share, ci_low-ci_high, "
                          "fair_share: as above, so a seat above its fair share is an advantage")
ARENA_PAIRS_COLUMNS = ("win_rate_a: a's share of the wins against b (a tie counts half), ci_low-ci_high its 95% CI "
                       "over deals; deals: duplicate deals played; games: deals x seatings; ties: games tied; "
                       "avg_{length}: the game's mean length")
ARENA_RATINGS_COLUMNS = ("rating: Bradley-Terry strength in Elo points, the anchor bot = 0 (anchor True); 100 "
                         "points more = an expected 64% score against it, 400 more = ten times the odds; "
                         "ci_low-ci_high: its 95% CI (0 for the anchor); games: all its games; score: its share "
                         "of them won")
BENCH_COLUMNS = ("measure: what was timed (_per_s: a rate, the median of the timed runs; _per_cpu_s: per CPU "
                 "second of all threads, steadier when other work shares the cores; ratio: the batch engine's "
                 "rate over the reference engine's; load_average: the machine's 1-minute load; jit_warmup_s: "
                 "compiling or loading the kernels, before and outside the timed runs); value: its value")


def _moved_aside(written: results.ResultSet) -> None:
    if written.moved_aside:
        print(f"geolab: {written.target} was taken while this run wrote; its results are in {written.path}",
              file=sys.stderr)


def _spec_text(rules) -> str:
    spec = rules.to_spec()
    return spec if isinstance(spec, str) else ", ".join(f"{k}={v}" for k, v in spec.items())


def run_arena(args) -> int:
    entry = registry.get(args.game)
    game = entry.game
    rules = argtypes.game_rules(entry, args)
    spec = rules.to_spec()
    if args.out:
        out = Path(args.out)
    else:  # a fresh folder a run: time, pid and a random suffix, so runs in the same second never collide
        out = Path("results") / "arena" / (f"{results.run_id()}-{game.name}-"
                                           + re.sub(r"[^A-Za-z0-9]+", "-", str(spec)).strip("-"))
    # before any work
    results.check_writable(out, "folder", "--out" if args.out else "results folder", taken_ok=not args.out)
    _positive(args.games, "--games")
    names = split_bots(args.bots or entry.arena_bots)
    if len(names) < 2:
        raise GeolabError("the arena needs at least two bots")
    if len(set(names)) != len(names):
        raise GeolabError(f"--bots: a bot is named twice in {', '.join(names)}")
    built = {n: entry.bots.make(n, rules) for n in names}  # every mistake before any play
    if args.exploit_model and not args.exploit:
        raise GeolabError("--exploit-model needs --exploit N")
    if args.exploit:
        why = exploitation.refusal(entry, rules, None) or exploitation.model_refusal(entry, args.exploit_model)
        if why:
            raise GeolabError(f"--exploit: {why}")
        if args.exploit_model:
            entry.bots.make(args.exploit_model, rules)  # an unknown bot or parameter: one line before any play
    per_deal = len(tables.rotations(tables.lineup(names[:2], game.seats(rules))))
    total = args.games * len(names) * (len(names) - 1) // 2 * per_deal
    if total > tables.MAX_GAMES:  # the arena keeps every game's score: bounded before any play
        raise GeolabError(f"--games: {args.games:,} deals x {len(names) * (len(names) - 1) // 2} pairs x {per_deal} "
                          f"seatings is {total:,} games, more than {tables.MAX_GAMES:,} (geolab.lab.tables.MAX_GAMES)")
    runner = arena.pair_runner(entry, rules, built, threads=_threads(args))
    title = f"{game.title} ({_spec_text(rules)})"
    warm = tables.warm_up(entry, rules, list(itertools.combinations(names, 2)))  # before the clock starts
    previous = signal.getsignal(signal.SIGINT)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        result = arena.run(runner, names, args.games, args.seed, progress=None if not args.json else False,
                           length=game.length_unit, rotations_per_deal=per_deal)
    finally:
        signal.signal(signal.SIGINT, previous)
    pairs, ratings, lead = result.pairs_table(), result.ratings_table(), result.first_lead()
    bounds = exploitation.bounds(entry, rules, names, args.exploit, args.seed, args.exploit_model) \
        if args.exploit else None

    def family(name: str) -> str:
        return entry.bots.info(parse_bot(name)[0]).family

    reference = arena.ladder_reference(ratings, family)
    reference_means = "the best heuristic" if family(reference) == "heuristic" else "the best bot"
    relative = result.ratings_table(anchor=reference)  # the ladder plot's scale: differences to the reference
    if bounds is not None:
        ratings, relative = ratings.merge(bounds, on="bot", how="left"), relative.merge(bounds, on="bot", how="left")
    planned = args.games * len(names) * (len(names) - 1) // 2 * per_deal
    failure = None
    try:
        with results.ResultSet(out) as written:
            written.table(pairs, "pairs")
            written.table(ratings, "ratings")
            for name, fig in (("win_rates.png", plots.win_rate_heatmap(pairs, names, title)),
                              ("ladder.png", plots.rating_ladder(relative, title, reference_means))):
                try:
                    written.figure(fig, name)
                finally:
                    plots.close(fig)
            written.json(results.meta(
                run_id=written.run_id, game=game.name, rules=spec, bots=names, deals_per_pair=args.games,
                seed=args.seed, block=arena.BLOCK, games=result.games, games_planned=planned,
                exploit_games_per_bot=args.exploit, exploit_model=args.exploit_model or "each target itself",
                wall_seconds=round(result.seconds, 3),
                warmup_seconds=round(warm.seconds, 3),
                kernels_compiled=warm.kernels, interrupted=result.interrupted, first_lead=lead,
                first_means=game.first_means,
                seating=f"a and b alternate around the table; every deal under each of the {per_deal} rotations",
                statistics="win rates: mean of per-deal duplicate scores, Wilson 95% CI on the effective sample "
                           "size (Kish); ratings: Bradley-Terry on all games, Elo points, 95% CI from the "
                           "observed information"), "meta.json")
        out = written.path
        _moved_aside(written)
    except GeolabError as error:
        failure = error  # the report is still printed below: the numbers are not lost with the files
    games_per_s = result.games / result.seconds if result.seconds else float("nan")
    if args.json:
        print_json({"pairs": pairs.to_dict("records"), "ratings": ratings.to_dict("records"),
                    "first_lead": lead, "games": result.games, "games_per_s": games_per_s,
                    "interrupted": result.interrupted, "out": None if failure else str(out)})
    else:
        note = " (INTERRUPTED: partial results)" if result.interrupted else ""
        print(f"{title}: {len(names)} bots, {args.games:,} duplicate deals a pair, {per_deal} seatings a deal, "
              f"seed {args.seed}{note}")
        print(ARENA_PAIRS_COLUMNS.format(length=game.length_unit))
        print_table(pairs.drop(columns=["wins_a"]).to_dict("records"))
        print()
        anchor = ratings.loc[ratings["anchor"], "bot"].iloc[0]
        print(ARENA_RATINGS_COLUMNS.replace("the anchor bot", anchor))
        print_table(ratings.to_dict("records"))
        if bounds is not None:
            print(f"exploit_lb: the exploiter's win share - 1/2 against the bot over {args.exploit:,} duplicate games, "
                  "a LOWER bound on its exploitability; exploit_low-exploit_high: its 95% CI; exploit_model: the bot "
                  "that stood for it in the exploiter's head (where not the bot itself, a weaker bound); a bot that "
                  "peeks gets none (docs/strength.md)")
        print()
        print(f"{game.first_means} wins {lead['win_rate']:.3f} (95% CI {lead['ci_low']:.3f}-{lead['ci_high']:.3f}, "
              f"{lead['games']:,} games); {result.games:,} games in {result.seconds:.1f} s "
              f"({games_per_s:,.0f} games/s; {warm.note})")
        if failure is None:
            print(f"tables and plots: {out}/ (win_rates.png, ladder.png: ratings relative to {reference}, "
                  f"{reference_means}; "
                  "pairs.csv, ratings.csv, meta.json)")
    if failure is not None:
        raise failure
    if result.interrupted:
        print(f"geolab: interrupted: partial results ({result.games:,} of {planned:,} games, finished blocks "
              f"only) written to {out}/ (meta.json: \"interrupted\": true)", file=sys.stderr)
        return 130
    return 0


def run_bench(args) -> None:
    if args.out:
        results.check_writable(args.out, "file", "--out")  # before any work
    entry = registry.get(args.game)
    rules = argtypes.game_rules(entry, args)
    result = benches.run(entry, rules, games=_positive(args.games, "--games"), runs=_positive(args.runs, "--runs"),
                         seed=args.seed, threads=_threads(args))
    failure = None
    if args.out:
        try:
            # a bench that reports its rules (GeoDouble, Border-Up) gives the same spec: one key
            results.write_json(results.meta(**{"game": entry.name, "rules": rules.to_spec(), **result}), Path(args.out))
        except OSError as error:
            failure = GeolabError(f"--out {args.out}: cannot write ({results.reason(error)}); the numbers above are "
                                  "not saved")
    if args.json:
        print_json(result)
    else:
        print(f"{entry.game.title}: {result.pop('summary', 'speed')}")
        print(BENCH_COLUMNS)
        print_table([{"measure": k, "value": v} for k, v in result.items() if isinstance(v, (int, float, str))])
    if failure is not None:
        raise failure
