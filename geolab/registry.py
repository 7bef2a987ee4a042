"""The registry: every game geolab plays, with its bots. Registering a game is one line here
(or one `register` call, as the tests do for their test-only game); the lab, the records and
the CLI find it through `entries`, `get` and `by_record` and need nothing else.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass

from geolab.errors import GeolabError, RecordError
from geolab.game import Bots, Game, Seat

#: name -> (title, module holding GAME, module holding the bots: BOTS, the SIMULATE and ARENA
#: line-ups, SEAT, HINT and optionally REVIEW, as `Entry` says); modules are imported on first
#: use, so the command line starts without them.
BUILTIN = {
    "ranks": ("Play the Ranks", "geolab.games.ranks.game", "geolab.bots.ranks.registry"),
    "jumbled": ("Jumbled GeoPower Choice", "geolab.games.jumbled.game", "geolab.bots.jumbled.registry"),
    "class": ("Class GeoPower Double Choice", "geolab.games.classroom.game", "geolab.bots.classroom.registry"),
}


@dataclass(frozen=True)
class Entry:
    """A registered game and its bots, with the line-ups the lab uses by default.

    For play at the keyboard: ``seat(bot, rules, rng)`` seats a built bot at the reference
    engine (a `geolab.game.Seat` that shows the bot only its own decision's observation);
    ``hint`` is the bot whose move ``hint`` suggests (the strongest that does not peek);
    ``review(played, seat)``, where a game has one, gives a person's costliest decisions of
    a played game, with the better move, as lines (Play the Ranks: the oracle's verdicts)."""

    game: Game
    bots: Bots
    simulate_bots: str
    arena_bots: str
    seat: Callable[..., Seat] | None = None
    hint: str | None = None
    review: Callable[..., list[str]] | None = None

    @property
    def name(self) -> str:
        return self.game.name


_ENTRIES: dict[str, Entry] = {}


def register(game: Game, bots: Bots, simulate_bots: str, arena_bots: str, seat: Callable[..., Seat] | None = None,
             hint: str | None = None, review: Callable[..., list[str]] | None = None) -> Entry:
    """Add a game (a test-only game, or one outside `BUILTIN`); returns its entry."""
    entry = Entry(game, bots, simulate_bots, arena_bots, seat, hint, review)
    _ENTRIES[game.name] = entry
    return entry


def unregister(name: str) -> None:
    _ENTRIES.pop(name, None)


def _load(name: str) -> Entry:
    _, game_module, bots_module = BUILTIN[name]
    game = importlib.import_module(game_module).GAME
    bots = importlib.import_module(bots_module)
    return register(game, bots.BOTS, bots.SIMULATE, bots.ARENA, getattr(bots, "SEAT", None),
                    getattr(bots, "HINT", None), getattr(bots, "REVIEW", None))


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
    """The game whose records carry ``"game": game_id`` (games already loaded are asked
    first, so reading one game's record imports no other game)."""
    for name in [*_ENTRIES, *(n for n in names() if n not in _ENTRIES)]:
        entry = get(name)
        if entry.game.record_game == game_id:
            return entry
    known = ", ".join(e.game.record_game for e in entries())
    raise RecordError(f"game: unknown game {game_id!r} (known: {known})")
