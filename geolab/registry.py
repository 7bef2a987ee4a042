"""The registry: every game geolab plays. A game joins by declaring its definition
(`geolab.definition.GameDef`, ``DEFINITION`` in its package under `geolab.games`) and one name
in `BUILTIN`, or by one `register` call, as the tests do for their test-only games. The lab,
the records, the table and the command line find it through `names`, `get`, `entries` and
`by_record`, and ask its entry what it has and offers; they need nothing else.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from geolab.definition import DefinitionError, GameDef, Players, load
from geolab.errors import GeolabError, RecordError

if TYPE_CHECKING:  # the contract's types only: listing the games imports no engine and no numpy
    from geolab.game import Game, Seat

#: The packages under `geolab.games` that declare a built-in game, in the order they are listed.
BUILTIN = ("ranks", "jumbled", "classroom", "geodouble", "borderup", "dashing", "stateiq", "combo1")


@dataclass(frozen=True)
class Entry:
    """A registered game: its definition, and its game and players loaded and checked.

    For play at the keyboard: ``seat(bot, rules, rng)`` seats a built bot at the reference
    engine (a `geolab.game.Seat` that shows the bot only its own decision's observation);
    ``hint`` is the bot whose move ``hint`` suggests (the strongest that does not peek);
    ``review(played, seat)``, where a game has one, gives a person's costliest decisions of
    a played game, with the better move, as lines (Play the Ranks: the oracle's verdicts);
    ``judge(played)``, where a game has one, the value of each move against the best one."""

    definition: GameDef
    game: Game
    players: Players

    name = property(lambda self: self.definition.name)
    title = property(lambda self: self.definition.title)
    bots = property(lambda self: self.players.bots)
    simulate_bots = property(lambda self: self.players.simulate)
    arena_bots = property(lambda self: self.players.arena)
    hint = property(lambda self: self.players.hint)
    seat = property(lambda self: self.players.seat)
    review = property(lambda self: self.players.review)
    judge = property(lambda self: self.players.judge)
    offers = property(lambda self: self.definition.offers)

    def has(self, what: str) -> bool:
        """Whether the game has an optional part or feature (`geolab.definition.OPTIONAL`, ``FEATURES``)."""
        return self.definition.has(what)

    def seated(self, bot, rules, rng) -> Seat:
        """A built bot at the reference engine, by the game's `seat`; a bot that peeks (its
        registry entry or its ``peeks`` says so) is refused, for every game alike: a table
        shows each seat only what it may see."""
        name = str(bot.name or "").split(":")[0]
        if bot.peeks or (name in self.bots and self.bots.info(name).peeks):
            raise GeolabError(f"{self.name}: bot {name or bot!r} peeks at hidden cards, so it cannot sit at a "
                              "table; geolab arena and geolab balance play it")
        if self.seat is None:
            raise GeolabError(f"{self.name}: this game seats no bot at the reference engine")
        return self.seat(bot, rules, rng)

    def offer(self, what: str) -> Callable | None:
        """The function the game offers for `what` (`geolab.definition.OFFERS`), imported now; None if none."""
        return _offered(self.definition, what)

    def with_bots(self, bots) -> Entry:
        """This entry with another bots registry (an adapter's bots added to a copy)."""
        return dataclasses.replace(self, players=dataclasses.replace(self.players, bots=bots))


_ENTRIES: dict[str, Entry] = {}
_DEFINITIONS: dict[str, GameDef] = {}


def register(definition: GameDef | Entry) -> Entry:
    """Add a game by its definition (loaded and checked now: a missing or mistyped part is
    one `DefinitionError` line), or put back an entry as it was; returns the entry."""
    entry = definition if isinstance(definition, Entry) else \
        Entry(definition, definition.load_game(), definition.load_players())
    _DEFINITIONS[entry.name] = entry.definition
    _ENTRIES[entry.name] = entry
    return entry


def unregister(name: str) -> None:
    _ENTRIES.pop(name, None)
    if name not in builtin():
        _DEFINITIONS.pop(name, None)


@functools.cache
def builtin() -> dict[str, GameDef]:
    """The built-in definitions by game name: importing a game's package loads only its
    definition, so listing the games imports no engine, bot or library."""
    declared = (importlib.import_module(f"geolab.games.{package}").DEFINITION for package in BUILTIN)
    return {found.name: found for found in declared}


def definition(name: str) -> GameDef:
    if name not in _DEFINITIONS:
        for known, found in builtin().items():
            _DEFINITIONS.setdefault(known, found)
    if name not in _DEFINITIONS:
        raise GeolabError(f"unknown game {name!r} (known: {', '.join(names())})")
    return _DEFINITIONS[name]


def names() -> list[str]:
    """The built-in games in `BUILTIN`'s order, then any other registered game by name."""
    return [*builtin(), *sorted(set(_DEFINITIONS) - set(builtin()))]


def title(name: str) -> str:
    return definition(name).title


def _offered(found: GameDef, what: str) -> Callable | None:
    target = found.offers.get(what)
    return None if target is None else load(target)


def offering(what: str) -> list[str]:
    """The games that offer `what`, known without importing any game (for the command line)."""
    return [n for n in names() if what in definition(n).offers]


def offer(name: str, what: str) -> Callable | None:
    """What game `name` offers for `what`, without loading the game itself."""
    return _offered(definition(name), what)


def get(name: str) -> Entry:
    if name not in _ENTRIES:
        register(definition(name))
    return _ENTRIES[name]


def entries() -> list[Entry]:
    return [get(n) for n in names()]


def by_record(game_id: Any) -> Entry:
    """The game whose records carry ``"game": game_id`` (games already loaded are asked
    first, so reading one game's record imports no other game)."""
    for name in [*_ENTRIES, *(n for n in names() if n not in _ENTRIES)]:
        entry = get(name)
        if entry.game.record_game == game_id:
            return entry
    known = ", ".join(e.game.record_game for e in entries())
    raise RecordError(f"game: unknown game {game_id!r} (known: {known})")


__all__ = ["BUILTIN", "DefinitionError", "Entry", "builtin", "by_record", "definition", "entries", "get", "names",
           "offer", "offering", "register", "title", "unregister"]
