"""`geolab replay FILE`: validate a game record with the reference engine and report."""

from __future__ import annotations

from geolab import records
from geolab.cli.output import print_json


def register(commands) -> None:
    p = commands["top"].add_parser(
        "replay", help="validate a game record and print what happened", description=__doc__
    )
    p.add_argument("file", help="a geolab-record/1 JSON file")
    p.add_argument("--json", action="store_true", help="print the outcome as one JSON object")
    p.set_defaults(run=run)


def run(args) -> None:
    outcome = records.replay(records.load(args.file))
    if args.json:
        print_json(outcome)
        return
    for key, value in outcome.items():
        if isinstance(value, dict):
            value = ", ".join(f"{k} {v}" for k, v in value.items())
        elif isinstance(value, list):
            value = " ".join(map(str, value))
        print(f"{key:>14}: {value}")
