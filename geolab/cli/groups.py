"""`geolab groups CODE ...`: a hand's border and capital groups and its winning pairs, for a
referee checking a GeoDouble or Border-Up claim; or, for three cards, whether they are one
border group and one capital group (docs/groups.md)."""

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
                    "and the first in card order); given three cards, whether they are a border group "
                    "and a capital group.")
    p.add_argument("cards", nargs="+", metavar="CODE",
                   help=f"postal codes, each once: {groups.GROUP} (one group) or {groups.MIN_HAND} or more (a hand)")
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


def _one_group(trio, contacts: dict, as_json: bool) -> None:
    """Three cards: is it a border group (and why), is it a capital group (the capitals)."""
    found = groups.check_group(trio, **contacts)
    capitals = ", ".join(CAPITALS[c] for c in trio)
    if as_json:
        print_json({"group": _codes(trio), **contacts, "border_group": found.border,
                    "centers": _codes(found.centers), "capital_group": found.capital,
                    "letter": CAPITALS[trio[0]][0] if found.capital else None})
        return
    border = f"a border group ({_why(trio, contacts)})" if found.border else \
        "not a border group (no card borders both others)"
    capital = f"a capital group ({capitals})" if found.capital else f"not a capital group ({capitals})"
    print(f"{' '.join(_codes(trio))}: {border}; {capital}")


def run(args) -> None:
    hand = groups.parse_cards(args.cards)
    contacts = {"four_corners": args.four_corners, "water": args.water}
    if len(hand) == groups.GROUP:
        _one_group(hand, contacts, args.json)
        return
    found = groups.find(hand, **contacts)
    if args.json:
        print_json({
            "hand": _codes(hand), **contacts,
            "border_groups": [{"cards": _codes(g), "centers": _codes(groups.centers(g, **contacts))}
                              for g in found.border],
            "capital_groups": [{"cards": _codes(g), "letter": CAPITALS[g[0]][0]} for g in found.capital],
            **{name: {"solutions": s.count, "example": [_codes(g) for g in s.example] if s.count else None}
               for name, _, s in found.wins()},
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
    for _, what, solutions in found.wins():
        print(_solution(what, solutions))
