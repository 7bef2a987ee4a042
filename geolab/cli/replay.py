"""`geolab replay FILE`: validate a game record with the reference engine and report."""

from __future__ import annotations

import json

from geolab import records
from geolab.cli.output import print_json


def register(commands) -> None:
    p = commands["top"].add_parser(
        "replay", help="validate a game record and print what happened", description=__doc__
    )
    p.add_argument("file", help="a geolab-record/1 JSON file, or a match saved by geolab play")
    p.add_argument("--json", action="store_true", help="print the outcome as one JSON object")
    p.set_defaults(run=run)


def run(args) -> None:
    outcome = records.replay(records.load(args.file))
    if args.json:
        print_json(outcome)
        return
    games = outcome.pop("games", None) if isinstance(outcome.get("games"), list) else None
    show(outcome)
    for k, game in enumerate(games or [], start=1):  # a session file: each finished game
        print(f"\n-- game {k}")
        show(game)


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
