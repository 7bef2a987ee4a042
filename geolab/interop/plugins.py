"""Bots that an optional adapter serves, installed only when a spec names one: importing
OpenSpiel is not free, and it is an extra."""

from __future__ import annotations

from geolab.definition import load
from geolab.errors import GeolabError

#: Bot-name prefixes an adapter serves: (``module:function`` that adds them to every game that
#: can host them and returns those games' names, whose library, the extra that brings it, what a
#: game needs to host them).
BOT_PLUGINS = {"os-": ("geolab.interop.openspiel:install", "OpenSpiel's", "geolab[openspiel]",
                       "the optional part determinize")}


def plugin_bots(game: str, specs) -> None:
    """Install the adapter bots `specs` name (``os-ismcts`` ...) for `game`; one line if the
    library is missing or the game cannot host them."""
    for prefix, (target, whose, extra, needs) in BOT_PLUGINS.items():
        if not any(str(spec).startswith(prefix) for spec in specs):
            continue
        try:
            install = load(target)
        except GeolabError:
            raise GeolabError(f"the {prefix} bots are {whose}: pip install '{extra}'") from None
        if game not in install():
            raise GeolabError(f"{game}: the {prefix} bots need {needs}, which it does not have yet")
