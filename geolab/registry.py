"""The registry: every game geolab plays, with its bots. Registering a game is one line here
(or one `register` call, as the tests do for their test-only game); the lab, the records and
the CLI find it through `entries`, `get` and `by_record` and need nothing else.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from collections.abc import Mapping
from dataclasses import dataclass, field

from geolab.errors import GeolabError, RecordError
from geolab.game import Bots, Game, Seat

@dataclass(frozen=True)
class Builtin:
    """A built-in game: its title, the module holding GAME, the module holding its bots (BOTS,
    the SIMULATE and ARENA line-ups, SEAT, HINT and optionally REVIEW, as `Entry` says), and
    what else it offers the lab and the command line (`Entry.offers`). Modules are imported on
    first use, so the command line starts without them."""

    title: str
    game: str
    bots: str
    offers: Mapping[str, str] = field(default_factory=dict)


#: name -> the game, its bots and its offers; one line each is how a game joins geolab.
BUILTIN = {
    "ranks": Builtin("Play the Ranks", "geolab.games.ranks.game", "geolab.bots.ranks.registry",
                     {"bench": "geolab.lab.benches:ranks", "solve": "geolab.cli.solve:solve_record",
                      "train": "geolab.cli.train:add_ranks"}),
    "jumbled": Builtin("Jumbled GeoPower Choice", "geolab.games.jumbled.game", "geolab.bots.jumbled.registry",
                       {"bench": "geolab.lab.benches:jumbled"}),
    "class": Builtin("Class GeoPower Double Choice", "geolab.games.classroom.game", "geolab.bots.classroom.registry",
                     {"bench": "geolab.lab.benches:classroom", "equilibrium": "geolab.cli.equilibrium:add_class"}),
    "geodouble": Builtin("GeoDouble", "geolab.games.geodouble.game", "geolab.bots.geodouble.registry",
                         {"bench": "geolab.lab.benches:geodouble"}),
    "border-up": Builtin("Border-Up", "geolab.games.borderup.game", "geolab.bots.borderup.registry",
                         {"bench": "geolab.lab.benches:borderup"}),
    "dashing-states": Builtin("Dashing States", "geolab.games.dashing.game", "geolab.bots.dashing.registry",
                              {"bench": "geolab.lab.benches:dashing"}),
    "state-iq": Builtin("State IQ", "geolab.games.stateiq.game", "geolab.bots.stateiq.registry",
                        {"bench": "geolab.lab.benches:stateiq"}),
    "combo1": Builtin("Combo 1 match", "geolab.games.combo1.game", "geolab.bots.combo1.registry",
                      {"bench": "geolab.lab.benches:combo1"}),
}
#: What a game may offer, and the signature of each (``module:function`` in `Builtin.offers`):
OFFERS = {
    "bench": "bench(rules, games, runs, seed, threads) -> dict with a summary line (geolab bench GAME)",
    "solve": "solve(record) -> the oracle's JSON report of a record (geolab solve FILE)",
    "train": "add(subparsers) adds the game's `geolab train GAME` parser (geolab train GAME)",
    "equilibrium": "add(subparsers) adds the game's `geolab equilibrium GAME` parser",
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
    offers: Mapping[str, str] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.game.name

    def seated(self, bot, rules, rng) -> Seat:
        """A built bot at the reference engine, by the game's `seat`; a bot that peeks (its
        registry entry or its ``peeks`` says so) is refused, for every game alike: a table
        shows each seat only what it may see."""
        name = str(getattr(bot, "name", "") or "").split(":")[0]
        if getattr(bot, "peeks", False) or (name in self.bots and self.bots.info(name).peeks):
            raise GeolabError(f"{self.name}: bot {name or bot!r} peeks at hidden cards, so it cannot sit at a "
                              "table; geolab arena and geolab balance play it")
        if self.seat is None:
            raise GeolabError(f"{self.name}: this game seats no bot at the reference engine")
        return self.seat(bot, rules, rng)

    def offer(self, what: str) -> Callable | None:
        """The function the game offers for `what` (`OFFERS`), imported now; None if none."""
        return _offered(self.offers.get(what))


_ENTRIES: dict[str, Entry] = {}


def register(game: Game, bots: Bots, simulate_bots: str, arena_bots: str, seat: Callable[..., Seat] | None = None,
             hint: str | None = None, review: Callable[..., list[str]] | None = None,
             offers: Mapping[str, str] | None = None) -> Entry:
    """Add a game (a test-only game, or one outside `BUILTIN`); returns its entry."""
    unknown = [k for k in offers or {} if k not in OFFERS]
    if unknown:
        raise ValueError(f"{game.name}: unknown offer {unknown[0]!r} (offers: {', '.join(OFFERS)})")
    entry = Entry(game, bots, simulate_bots, arena_bots, seat, hint, review, dict(offers or {}))
    _ENTRIES[game.name] = entry
    return entry


def unregister(name: str) -> None:
    _ENTRIES.pop(name, None)


def _offered(target: str | None) -> Callable | None:
    if target is None:
        return None
    module, _, function = target.partition(":")
    return getattr(importlib.import_module(module), function)


def _load(name: str) -> Entry:
    builtin = BUILTIN[name]
    game = importlib.import_module(builtin.game).GAME
    bots = importlib.import_module(builtin.bots)
    return register(game, bots.BOTS, bots.SIMULATE, bots.ARENA, getattr(bots, "SEAT", None),
                    getattr(bots, "HINT", None), getattr(bots, "REVIEW", None), builtin.offers)


def names() -> list[str]:
    return list(dict.fromkeys([*BUILTIN, *_ENTRIES]))


def title(name: str) -> str:
    return _ENTRIES[name].game.title if name in _ENTRIES else BUILTIN[name].title


#: Bot-name prefixes an optional adapter serves: (``module:function`` that adds them to every
#: game that can host them and returns those games' names, the extra that brings its library,
#: what a game needs to host them). Installed on first use (`plugin_bots`), so nothing
#: imports the library unless a spec names one of its bots.
BOT_PLUGINS = {"os-": ("geolab.interop.openspiel:install", "OpenSpiel's", "geolab[openspiel]",
                       "the game's determinize verb")}


def plugin_bots(game: str, specs) -> None:
    """Install the adapter bots `specs` name (``os-ismcts`` ...) for `game`; one line if the
    library is missing or the game cannot host them."""
    for prefix, (target, whose, extra, needs) in BOT_PLUGINS.items():
        if not any(str(spec).startswith(prefix) for spec in specs):
            continue
        try:
            install = _offered(target)
        except ImportError:
            raise GeolabError(f"the {prefix} bots are {whose}: pip install '{extra}'") from None
        if game not in install():
            raise GeolabError(f"{game}: the {prefix} bots need {needs}, which it does not have yet")


def offering(what: str) -> list[str]:
    """The games that offer `what`, known without importing any game (for the command line)."""
    return [n for n in names() if what in (_ENTRIES[n].offers if n in _ENTRIES else BUILTIN[n].offers)]


def offer(name: str, what: str) -> Callable | None:
    """What game `name` offers for `what`, without loading the game itself."""
    offers = _ENTRIES[name].offers if name in _ENTRIES else BUILTIN[name].offers
    return _offered(offers.get(what))


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
