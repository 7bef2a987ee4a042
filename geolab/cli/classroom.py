"""`geolab simulate|arena|bench|equilibrium class`: Class GeoPower Double Choice."""

from __future__ import annotations

import argparse

from geolab.cli.output import print_json, print_table
from geolab.errors import GeolabError
from geolab.games.classroom import CALL_MODES, TIE_RULES, Rules, rules_dict
from geolab.lab.progress import Progress

GAME = "class"


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive whole number, got {text!r}")
    return value


def _rules_args(p) -> None:
    p.add_argument("--students", type=int, default=20, help="10-32 (default 20)")
    p.add_argument("--groups", type=int, default=4, help="2-8 (default 4)")
    p.add_argument("--call", choices=CALL_MODES, default="random", help="the teacher's call each round")
    p.add_argument("--two-decks", action="store_true", help="one Starting Round from two decks")
    p.add_argument("--starting-rounds", type=int, choices=(1, 2), help="force one or two Starting Rounds")
    p.add_argument("--ties", choices=TIE_RULES, default="replay", help="championship ties")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true", help="one JSON object on stdout")


def _rules(args) -> Rules:
    return Rules(
        students=args.students, groups=args.groups, call=args.call, two_decks=args.two_decks,
        starting_rounds=args.starting_rounds, championship_ties=args.ties,
    ).validate()


def _ci(row: dict) -> dict:
    """A result row with its intervals as 'lo-hi' text, for the table view."""
    return {
        "policy": row["policy"], "n": row["n"],
        "group win": round(row["group_win"], 4),
        "group 95% CI": "{:.4f}-{:.4f}".format(*row["group_ci"]),
        "champion": round(row["champion"], 4),
        "champion 95% CI": "{:.4f}-{:.4f}".format(*row["champion_ci"]),
    }


def register(commands) -> None:
    p = commands["simulate"].add_parser(GAME, help="simulate class games (batch engine)")
    _rules_args(p)
    p.add_argument("--games", type=_positive, default=100_000)
    p.add_argument("--policies", default="equilibrium", help="comma list, seated in turn")
    p.add_argument("--engine", choices=("batch", "reference"), default="batch")
    p.set_defaults(run=run_simulate)

    p = commands["arena"].add_parser(GAME, help="discard policies on duplicate deals")
    _rules_args(p)
    p.add_argument("--games", type=_positive, default=20_000, help="deals (each played once per rotation)")
    p.add_argument("--policies", default="random,average,worst-category,one-category,learned,equilibrium")
    p.set_defaults(run=run_arena)

    p = commands["bench"].add_parser(GAME, help="batch engine v reference engine, student-hands/s")
    _rules_args(p)
    p.set_defaults(students=32, groups=8)
    p.add_argument("--games", type=_positive, default=200_000)
    p.add_argument("--reference-games", type=_positive, default=200)
    p.add_argument("--repeats", type=_positive, default=5)
    p.set_defaults(run=run_bench)

    if "equilibrium" not in commands:
        top = commands["top"].add_parser("equilibrium", help="solve games for equilibrium play")
        commands["equilibrium"] = top.add_subparsers(dest="game", required=True, parser_class=type(top))
    p = commands["equilibrium"].add_parser(GAME, help="the equilibrium discard per group size and call")
    p.add_argument("--sizes", default="2-16", help="group sizes, e.g. 4 or 2-16 or 3,5")
    p.add_argument("--check", type=int, default=0, help="simulated real groups per hand (even; 0 = model only)")
    p.add_argument("--refine", type=int, default=0,
                   help="best-response steps on real deals after the model's solution (needs --check)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=run_equilibrium)


def _progress(args, total: int, unit: str) -> Progress:
    return Progress(total, unit, enabled=None if not args.json else False)


def run_simulate(args) -> None:
    from geolab.lab.classroom_arena import parse_policies, reference_simulation, run_simulation

    rules, names = _rules(args), parse_policies(args.policies)
    if args.engine == "reference":
        rows, stats = reference_simulation(rules, names, args.games, args.seed)
    else:
        with _progress(args, args.games, "games") as bar:
            rows, stats = run_simulation(rules, names, args.games, args.seed, progress=bar)
    if args.json:
        print_json({"rules": rules_dict(rules), "seed": args.seed, "engine": args.engine, "policies": rows, **stats})
        return
    print_table([_ci(r) for r in rows])
    print(f"\n{stats['games']:,} games ({args.engine} engine); a tie in {stats['group_tie_rate']:.2%} of groups; "
          f"{stats['mean_finalists']:.2f} finalists on average; championship replayed in "
          f"{stats['championship_replay_rate']:.2%} of games")


def run_arena(args) -> None:
    from geolab.lab.classroom_arena import arena, parse_policies

    rules, names = _rules(args), parse_policies(args.policies)
    with _progress(args, args.games * len(names), "games") as bar:
        rows = arena(rules, names, args.games, args.seed, progress=bar)
    if args.json:
        print_json({"rules": rules_dict(rules), "seed": args.seed, "deals": args.games, "policies": rows})
        return
    print_table([_ci(r) for r in sorted(rows, key=lambda r: -r["group_win"])])
    print(f"\n{args.games:,} deals, each played {len(names)} times with the policies rotated one seat; "
          "n counts student-games (one class's students share deals, so intervals are optimistic)")


def run_bench(args) -> None:
    from geolab.lab.classroom_arena import bench

    result = bench(_rules(args), args.games, args.reference_games, args.repeats, args.seed)
    if args.json:
        print_json(result)
        return
    print(f"batch engine:     {result['batch_student_hands_per_s'] / 1e6:8.1f} M student-hands/s "
          f"(median of {args.repeats} x {args.games:,} games of {result['students']} students)")
    print(f"                  {result['batch_student_hands_per_cpu_s'] / 1e6:8.1f} M student-hands per CPU-second "
          "(all threads; steadier on shared cores)")
    print(f"                  {result['batch_hands_evaluated_per_s'] / 1e6:8.1f} M hands evaluated/s "
          f"(every hand dealt and scored, Championship included: {result['hands_evaluated_per_game']:.1f} a game)")
    print(f"numpy engine:     {result['numpy_student_hands_per_s'] / 1e6:8.1f} M student-hands/s, "
          f"{result['numpy_hands_evaluated_per_s'] / 1e6:.1f} M hands evaluated/s (alternating with the batch "
          f"runs; batch / numpy {result['batch_over_numpy']:.2f}x, run by run)")
    print(f"reference engine: {result['reference_student_hands_per_s'] / 1e6:8.4f} M student-hands/s "
          f"({args.reference_games} games)")
    print(f"ratio:            {result['ratio']:8.0f}x")


def _sizes(text: str) -> list[int]:
    try:
        sizes = set()
        for part in text.split(","):
            lo, _, hi = part.partition("-")
            sizes.update(range(int(lo), int(hi or lo) + 1))
    except ValueError:
        raise GeolabError(f"--sizes: cannot read {text!r} (try 4, 2-16 or 3,5)") from None
    if not sizes or min(sizes) < 2 or max(sizes) > 32:
        raise GeolabError(f"--sizes: group sizes must be within 2-32, got {text!r}")
    return sorted(sizes)


def run_equilibrium(args) -> None:
    from geolab.lab.classroom_equilibrium import equilibrium_summary

    sizes = _sizes(args.sizes)
    if args.check < 0 or args.check % 2:
        raise GeolabError(f"--check: expected an even number of simulated groups per hand, got {args.check}")
    if args.refine < 0 or (args.refine and not args.check):
        raise GeolabError(f"--refine: expected a number of steps >= 0, with --check, got {args.refine}")
    rows = equilibrium_summary(Rules().geopower_p, sizes, args.check, args.seed, args.refine)
    if args.json:
        print_json({"sizes": sizes, "check": args.check, "refine": args.refine, "seed": args.seed, "rows": rows})
        return
    print_table(rows)
