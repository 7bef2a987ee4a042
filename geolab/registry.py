"""The registry: every game geolab plays, with its bots. Registering a game is one line here
(or one `register` call, as the tests do for their test-only game); the lab, the records and
the CLI find it through `entries`, `get` and `by_record` and need nothing else.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from geolab.errors import GeolabError, RecordError
from geolab.game import Bots, Game

#: name -> (title, module holding GAME, module holding BOTS, SIMULATE and ARENA line-ups);
#: modules are imported on first use, so the command line starts without them.
BUILTIN = {
    "ranks": ("Play the Ranks", "geolab.games.ranks.game", "geolab.bots.ranks.registry"),
    "jumbled": ("Jumbled GeoPower Choice", "geolab.games.jumbled.game", "geolab.bots.jumbled.registry"),
    "class": ("Class GeoPower Double Choice", "geolab.games.classroom.game", "geolab.bots.classroom.registry"),
}


@dataclass(frozen=True)
class Entry:
    """A registered game and its bots, with the line-ups the lab uses by default."""

    game: Game
    bots: Bots
    simulate_bots: str
    arena_bots: str

    @property
    def name(self) -> str:
        return self.game.name


_ENTRIES: dict[str, Entry] = {}


def register(game: Game, bots: Bots, simulate_bots: str, arena_bots: str) -> Entry:
    """Add a game (a test-only game, or one outside `BUILTIN`); returns its entry."""
    entry = Entry(game, bots, simulate_bots, arena_bots)
    _ENTRIES[game.name] = entry
    return entry


def unregister(name: str) -> None:
    _ENTRIES.pop(name, None)


def _load(name: str) -> Entry:
    _, game_module, bots_module = BUILTIN[name]
    game = importlib.import_module(game_module).GAME
    bots = importlib.import_module(bots_module)
    return register(game, bots.BOTS, bots.SIMULATE, bots.ARENA)


def names() -> list[str]:
    return list(dict.fromkeys([*BUILTIN, *_ENTRIES]))


def title(name: str) -> str:
    return _ENTRIES[name].game.title if name in _ENTRIES else BUILTIN[name][0]


def get(name: str) -> Entry:
    if name not in _ENTRIES:
        if name not in BUILTIN:
            raise GeolabError(f"unknown game {name!r} (known: {', '.join(names())})")
        _load(name)
    return _ENTRIES[name]


def entries() -> list[Entry]:
    return [get(n) for n in names()]


def by_record(game_id) -> Entry:
    """The game whose records carry ``"game": game_id``."""
    for entry in entries():
        if entry.game.record_game == game_id:
            return entry
    known = ", ".join(e.game.record_game for e in entries())
    raise RecordError(f"game: unknown game {game_id!r} (known: {known})")
