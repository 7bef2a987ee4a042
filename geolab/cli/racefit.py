"""`geolab race-fit [FILE ...] [--folder DIR]`: the person's race speed fitted to their own timed
claims in saved sessions (`geolab.lab.racefit`), with its 95 % interval, and the bots that race
at it (docs/race.md, "Opponent levels")."""

from __future__ import annotations

from geolab.cli.output import print_json


def register(commands) -> None:
    p = commands["top"].add_parser(
        "race-fit", help="fit your race speed to your timed claims in saved sessions",
        description="Fit the race model's speed to your own timed claims (maximum likelihood, 95%% "
                    "profile-likelihood interval) in saved sessions: geolab play's files and geolab "
                    "serve's folder (default: ~/.geolab/games and ~/.geolab/web), and name the bots "
                    "that race at that speed (an even race).")
    p.add_argument("files", nargs="*", metavar="FILE", help="session files (default: the folders)")
    p.add_argument("--folder", action="append", metavar="DIR", help="a folder of session files (repeatable)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=run)


def run(args) -> int:
    from geolab import registry
    from geolab.lab.racefit import FOLDERS, read_races, spec_at, summary

    folders = args.folder or ([] if args.files else list(FOLDERS))
    races = read_races(args.files, folders)
    fitted = races.fit()
    bots = {e.name: spec_at(e, fitted.speed) for e in registry.entries() if e.name in races.games}
    if args.json:
        print_json({"speed": fitted.speed, "low": fitted.low, "high": fitted.high, "claims": fitted.claims,
                    "censored": fitted.censored, "sessions": races.sessions, "games": sorted(races.games),
                    "bots": {k: v for k, v in bots.items() if v}, "skipped": races.skipped})
        return 0
    print(summary(races, fitted))
    specs = [f"{v} ({k})" for k, v in bots.items() if v]
    if specs:
        print("race it evenly: " + ", ".join(specs))
    return 0
