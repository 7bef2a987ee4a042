"""The verbs games offer, each found in the definitions of the games that offer it: `geolab
train GAME`, `geolab equilibrium GAME`, and a game's own top-level verbs (``command``: `geolab
tournament`, `geolab bench solver`). Nothing here names a game."""

from __future__ import annotations

from geolab import registry

#: Verbs whose games each add their own parser (the offer's ``add(subparsers)``).
VERBS = {"train": "fit learned bots from simulated decisions", "equilibrium": "solve games for equilibrium play"}


def register(commands) -> None:
    for verb, text in VERBS.items():
        games = registry.offering(verb)
        if games:
            parser = commands["top"].add_parser(verb, help=text, description=text)
            sub = parser.add_subparsers(dest="game", required=True, parser_class=type(parser))
            for name in games:
                registry.offer(name, verb)(sub)
    for name in registry.offering("command"):
        registry.offer(name, "command")(commands)
