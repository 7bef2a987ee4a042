"""`geolab replay FILE`: validate a game record with the reference engine and report; with
``--moves``, step through it decision by decision (`geolab.lab.moves`)."""

from __future__ import annotations

import json
import sys

from geolab import records
from geolab.cli.output import print_json
from geolab.errors import GeolabError


def register(commands) -> None:
    p = commands["top"].add_parser(
        "replay", help="validate a game record and print what happened, or step through its moves",
        description=__doc__
    )
    p.add_argument("file", help="a geolab-record/1 JSON file, or a match saved by geolab play")
    p.add_argument("--json", action="store_true", help="print the outcome as one JSON object")
    p.add_argument("--moves", action="store_true",
                   help="every decision: its seat, that seat's view, the move played and, where the game has a "
                        "judge (Play the Ranks' oracle), its value against the best move; on a terminal one "
                        "decision at a time (n or Enter: next, p: back, q: quit)")
    p.add_argument("--match", type=int, metavar="K",
                   help="the K-th record of a file holding several (geolab tournament --save: its matches)")
    p.add_argument("--seat", help="with --moves: only this seat's decisions and view (default: every seat's; "
                                  "the ending as the first seat saw it)")
    p.set_defaults(run=run)


def run(args) -> None:
    if args.seat is not None and not args.moves:
        raise GeolabError("--seat goes with --moves")
    if args.moves:
        if args.json:
            raise GeolabError("--moves prints the moves for a person: not with --json")
        return moves(args)
    loaded = records.load(args.file)
    outcome = records.replay(loaded if args.match is None else records.chosen(loaded, args.match))
    if args.json:
        print_json(outcome)
        return
    games = outcome.pop("games", None) if isinstance(outcome.get("games"), list) else None
    show(outcome)
    for k, game in enumerate(games or [], start=1):  # a session file's finished games, a collection's records
        print(f"\n-- {'record' if 'label' in game else 'game'} {k}")
        show(game)


def moves(args) -> None:
    from geolab.lab.moves import pages, seat_index, step_through, stepped

    entry, games = stepped(records.chosen(records.load(args.file), args.match))
    seat = None if args.seat is None else seat_index(entry, games[0].rules, args.seat)
    shown = pages(entry, games, seat)
    if sys.stdin.isatty() and sys.stdout.isatty():
        step_through(shown, input, print)
        return
    for page in shown:
        for line in page:
            print(line)


def show(outcome: dict) -> None:
    """One line a key; a list of structures (a game's rounds) one item a line, as JSON."""
    for key, value in outcome.items():
        if isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value):
            print(f"{key:>14}:")
            for item in value:
                print(" " * 16 + json.dumps(item, separators=(", ", ": ")))
            continue
        if isinstance(value, dict):
            value = ", ".join(f"{k} {v}" for k, v in value.items())
        elif isinstance(value, list):
            value = " ".join(map(str, value))
        print(f"{key:>14}: {value}")
