"""``geolab tournament``: a whole Combo 1 tournament (eight rounds, playoffs, the final) between
team profiles, or many of them and how often each profile wins the event."""

from __future__ import annotations

from geolab.cli import args as argtypes
from geolab.cli.output import print_json, print_table
from geolab.common.lazy import lazy_module
from geolab.games.combo1.rules import TITLES

# the tournament, its teams' bots and the progress bar: imported when it runs
lab = lazy_module("geolab.games.combo1.offers.tournament")
progress = lazy_module("geolab.lab.progress")

teams_count = argtypes.whole("--teams", 2, 64, "a tournament of at most 64 teams")
workers = argtypes.whole("--workers", 1, argtypes.max_threads, "the larger of 64 and 8 a core")
repeat = argtypes.whole("--repeat", 1, 10**7, "tournaments are summed as they finish, but each is kept in memory")


def add(commands) -> None:
    """What Combo 1 offers as ``command``: the top-level verb `geolab tournament`."""
    p = commands["top"].add_parser(
        "tournament", help="a Combo 1 tournament between team profiles: standings, the final, a summary",
        description="A Combo 1 tournament: four morning rounds (the four games in order until the bell), four "
                    "afternoon rounds (two chosen games), Border-Up playoffs for the final's places, and the "
                    "final. Teams are profiles (a team bot spec each: geolab bots combo1).")
    p.add_argument("--teams", type=teams_count, help="teams from the built-in ladder (default 8, or the profiles')")
    p.add_argument("--profiles", metavar="FILE",
                   help='teams from a JSON list of {"name": ..., "team": "team:..."} or a CSV with columns name, team')
    p.add_argument("--rules", help="tournament preset: official, swiss or short (default official)")
    p.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE",
                   help="change a tournament field (pairing, draw_value, morning, afternoon) or a match field as "
                        "match.FIELD (e.g. match.unfinished=count; see geolab rules combo1)")
    p.add_argument("--repeat", type=repeat, default=1, help="tournaments to play; above 1, a summary of how often "
                                                            "each team wins the event (default 1)")
    p.add_argument("--seed", type=argtypes.seed, default=0)
    p.add_argument("--workers", type=workers, help="processes (default: one a core; the numbers are the same for any)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=run)


def run(args) -> None:
    from geolab.games.combo1.tournament import TournamentRules

    rules = TournamentRules.preset(args.rules or TournamentRules.DEFAULT)
    if args.set:
        rules = rules.with_settings(args.set)
    profiles = lab.load_profiles(args.profiles) if args.profiles else lab.ladder(args.teams or 8)
    if args.profiles and args.teams is not None and args.teams != len(profiles):
        from geolab.errors import GeolabError
        raise GeolabError(f"--teams {args.teams} but {args.profiles} lists {len(profiles)} teams")
    with progress.bar(args.repeat, unit="tournaments", enabled=None if args.repeat > 1 else False) as bar:
        played = lab.tournaments(rules, profiles, args.repeat, args.seed, workers=args.workers, progress=bar.update)
    if args.repeat == 1:
        _one(played, profiles, args)
    else:
        _many(played, profiles, args)


def _one(played, profiles, args) -> None:
    table = lab.standings(played, profiles)
    final = lab.final_line(played, profiles)
    if args.json:
        print_json({"seed": args.seed, "standings": table.to_dict("records"), "final": final})
        return
    print(f"Combo 1 tournament, {len(profiles)} teams, seed {args.seed}: games won/played by game "
          f"({', '.join(TITLES)})")
    print_table(table.to_dict("records"))
    print()
    print(final["text"])


def _many(played, profiles, args) -> None:
    table = lab.summary(played, profiles)
    if args.json:
        print_json({"seed": args.seed, "tournaments": len(played), "teams": table.to_dict("records")})
        return
    rows = [{"team": r["team"], "titles": r["titles"], "title share": r["title share"],
             "95% interval": f"{r['title low']:.3f}-{r['title high']:.3f}", "finals": r["final share"],
             "mean points": r["mean points"], **{t: r[f"{t} won"] for t in TITLES}}
            for r in table.to_dict("records")]
    print(f"{len(played):,} Combo 1 tournaments, {len(profiles)} teams, seed {args.seed}: title share with its "
          "Wilson interval; share of games won by game")
    print_table(rows)
    coins = int(played.coins.sum())
    if coins:
        print(f"\n{coins} playoff or final match(es) still tied after every tie-breaker went to a coin")
