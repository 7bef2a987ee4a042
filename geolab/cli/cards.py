"""`geolab cards`: the card table."""

from __future__ import annotations

import json

from geolab.cards import card_table
from geolab.cli.output import print_table


def register(commands) -> None:
    p = commands["top"].add_parser("cards", help="print the 50 cards and their ranks")
    p.add_argument("--json", action="store_true", help="a JSON list of 50 objects")
    p.add_argument("--four-corners", action="store_true", help="count AZ-CO and NM-UT as borders")
    p.add_argument("--water", action="store_true", help="count water-only boundaries as borders")
    p.set_defaults(run=run)


def run(args) -> None:
    table = card_table(four_corners=args.four_corners, water=args.water)
    if args.json:
        print(json.dumps(table, indent=1))
        return
    rows = [
        {
            "postal": r["postal"],
            "name": r["name"],
            "capital": r["capital"],
            "size": r["size"],
            "statehood": r["statehood"],
            "population": r["population"],
            "borders": " ".join(r["borders"]),
        }
        for r in table
    ]
    print_table(rows)
