"""`geolab play ranks`: a human at the keyboard against any bot."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

from geolab.bots.ranks.registry import BOTS
from geolab.cli import args as argtypes
from geolab.bots.ranks.human import HumanSeat
from geolab.games.ranks.batch import SeatPolicy, play
from geolab.games.ranks.records import report, to_record
from geolab.games.ranks.rules import PRESETS, SIDES, Rules
from geolab.errors import GeolabError
from geolab.lab.results import check_writable, reason, rescue, write_json


def register(commands) -> None:
    p = commands["top"].add_parser("play", help="play a game against a bot at the keyboard")
    sub = p.add_subparsers(dest="game", required=True, parser_class=type(p))
    q = sub.add_parser("ranks", help="one deal of Play the Ranks against a bot")
    q.add_argument("--rules", default="combo1", choices=list(PRESETS))
    q.add_argument("--bot", default="planner", help=f"the opponent ({', '.join(BOTS.names())}; name:key=value)")
    q.add_argument("--side", default="A", choices=SIDES, help="your side")
    q.add_argument("--seed", type=argtypes.seed, help="deal seed (default: a fresh one, printed)")
    q.add_argument("--record", help="write the game as a record to this file (checked before the game; if it "
                                    "fails at the end anyway, the record is saved to ~/.geolab/unsaved/)")
    q.set_defaults(run=run)


def run(args) -> int:
    if args.record:
        check_writable(args.record, "file", "--record")  # before a person plays a whole game
    rules = Rules.preset(args.rules)
    bot = BOTS.make(args.bot, rules)
    seed = args.seed if args.seed is not None else int(np.random.SeedSequence().entropy % 2**32)
    print(f"Play the Ranks ({rules.name}) against {args.bot}, seed {seed}; rules: docs/rules.md")
    human = SeatPolicy(HumanSeat())
    try:
        seats = [human, bot] if args.side == "A" else [bot, human]
        played = play(rules, seats, 1, seed, stream=int(args.side == "B"), threads=1)
    except EOFError:
        print("\nno more input: game abandoned")
        return 1
    game = played.game(0)
    outcome = report(game)
    print(f"\nfirst lead {outcome['first_lead']}; winner: {outcome['winner'] or 'tie'}; "
          f"tricks A {outcome['tricks_won']['A']} - B {outcome['tricks_won']['B']}")
    if args.record:
        save_record(to_record(game), args.record)
    return 0


def save_record(record: dict, path: str) -> None:
    """Write the record atomically to `path`; if that fails, to a fallback the error names (a
    game played at the keyboard is never lost to a full disk or a folder that went away)."""
    try:
        write_json(record, Path(path))
    except OSError as error:
        saved = rescue(record, "record")
        if saved is None:  # nowhere could be written: the record goes to the terminal
            print(json.dumps(record, indent=1), file=sys.stdout)
            where = "it is printed above"
        else:
            where = f"saved it to {saved} instead (geolab replay {saved})"
        raise GeolabError(f"--record {path}: cannot write the record ({reason(error)}); {where}") from None
    print(f"record written to {path} (geolab replay {path})")
