"""`geolab groups CODE ...`: a hand's border and capital groups and its winning pairs, for a
referee checking a GeoDouble or Border-Up claim (docs/groups.md)."""

from __future__ import annotations

from geolab.cards import CAPITALS, POSTAL
from geolab.cli.output import print_json
from geolab.common.lazy import lazy_module

groups = lazy_module("geolab.games.groups")  # numba: only when a hand is checked


def register(commands) -> None:
    p = commands["top"].add_parser(
        "groups", help="a hand's border and capital groups, GeoDouble and Border-Up solutions",
        description="A hand's border groups (one card borders both others), capital groups (capitals "
                    "with the same first letter), and its GeoDouble and Border-Up solutions (count, "
                    "and the first in card order).")
    p.add_argument("cards", nargs="+", metavar="CODE", help=f"postal codes, {groups.MIN_HAND} or more, each once")
    p.add_argument("--four-corners", action="store_true", help="count AZ-CO and NM-UT as borders")
    p.add_argument("--water", action="store_true", help="count water-only boundaries as borders")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=run)


def _codes(group) -> list[str]:
    return [POSTAL[c] for c in group]


def _why(group, contacts) -> str:
    hubs = groups.centers(group, **contacts)
    if len(hubs) == 3:
        return "each borders the other two"
    others = [POSTAL[c] for c in group if c != hubs[0]]
    return f"{POSTAL[hubs[0]]} borders {others[0]} and {others[1]}"


def _solution(name: str, found: groups.Solutions) -> str:
    if not found.count:
        return f"{name}: no solution"
    first, second = found.example
    noun = "solution" if found.count == 1 else "solutions"
    return f"{name}: {found.count} {noun}, e.g. {' '.join(_codes(first))} + {' '.join(_codes(second))}"


def run(args) -> None:
    hand = groups.parse_hand(args.cards)
    contacts = {"four_corners": args.four_corners, "water": args.water}
    found = groups.find(hand, **contacts)
    if args.json:
        print_json({
            "hand": _codes(hand), **contacts,
            "border_groups": [{"cards": _codes(g), "centers": _codes(groups.centers(g, **contacts))}
                              for g in found.border],
            "capital_groups": [{"cards": _codes(g), "letter": CAPITALS[g[0]][0]} for g in found.capital],
            **{name: {"solutions": s.count, "example": [_codes(g) for g in s.example] if s.count else None}
               for name, s in (("geodouble", found.geodouble), ("border_up", found.border_up))},
        })
        return
    borders = "land borders" + " + Four Corners" * args.four_corners + " + water" * args.water
    print(f"hand ({len(hand)} cards; {borders}): {' '.join(_codes(hand))}")
    print(f"border groups: {len(found.border)}")
    for g in found.border:
        print(f"  {' '.join(_codes(g))}   {_why(g, contacts)}")
    print(f"capital groups: {len(found.capital)}")
    for g in found.capital:
        print(f"  {' '.join(_codes(g))}   {', '.join(CAPITALS[c] for c in g)}")
    print(_solution("GeoDouble (border group + capital group)", found.geodouble))
    print(_solution("Border-Up (two border groups)", found.border_up))
