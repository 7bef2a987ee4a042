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
results = lazy_module("geolab.lab.results")

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
    p.add_argument("--save", metavar="FILE",
                   help="one tournament: write it with every match's record (geolab replay FILE --match K)")
    p.set_defaults(run=run)


def run(args) -> None:
    from geolab.errors import GeolabError
    from geolab.games.combo1.tournament import TournamentRules

    rules = TournamentRules.preset(args.rules or TournamentRules.DEFAULT)
    if args.set:
        rules = rules.with_settings(args.set)
    profiles = lab.load_profiles(args.profiles) if args.profiles else lab.ladder(args.teams or 8)
    if args.profiles and args.teams is not None and args.teams != len(profiles):
        raise GeolabError(f"--teams {args.teams} but {args.profiles} lists {len(profiles)} teams")
    if args.repeat == 1:
        if args.save:
            results.check_writable(args.save, "file", "--save")
        _one(lab.reference(rules, profiles, args.seed), rules, profiles, args)
        return
    if args.save:
        raise GeolabError("--save writes one tournament's matches: not with --repeat")
    with progress.bar(args.repeat, unit="tournaments", enabled=None) as bar:
        played = lab.tournaments(rules, profiles, args.repeat, args.seed, workers=args.workers, progress=bar.update)
    _many(played, profiles, args)


def _one(out, rules, profiles, args) -> None:
    """One tournament, every match on the reference engine: the teams, each round's pairings
    and results, the standings, the playoffs, the final (and the file, with ``--save``)."""
    rounds, table, final = lab.rounds_of(out, profiles), lab.standings_of(out, profiles), lab.final_of(out, profiles)
    if args.save:
        results.write_json(lab.saved(out, profiles, rules, args.seed), args.save)
    if args.json:
        print_json({"seed": args.seed, "teams": [{"name": p.name, "team": p.team} for p in profiles],
                    "rounds": rounds, "standings": table, "final": final})
        return
    print(f"Combo 1 tournament, {len(profiles)} teams, seed {args.seed}; every match on the reference engine")
    print("Teams (profiles):")
    print_table([{"team": p.name, "profile": p.team} for p in profiles])
    print(f"Drawn order: {', '.join(profiles[t].name for t in out.order)}")
    def show(stage: dict) -> None:
        kind = "" if stage["kind"] == stage["stage"] else f" ({stage['kind']})"
        print(f"\n{stage['stage'].capitalize()}{kind}:")
        for m in stage["matches"]:
            print(f"  {m['text']}")

    for stage in (s for s in rounds if s["stage"].startswith("round")):
        show(stage)
    print(f"\nStandings after the rounds ({lab.points_words(rules)}); "
          f"games won by game ({', '.join(TITLES)}):")
    print_table(table)
    for stage in (s for s in rounds if not s["stage"].startswith("round")):
        show(stage)
    print()
    print(final["text"])
    if args.save:
        print(f"saved: {args.save} (each match: geolab replay {args.save} --match K [--moves])")


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
