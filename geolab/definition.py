"""A game's definition: everything one game is, declared once and checked when it is registered.

Each package under `geolab.games` declares one `GameDef` in its ``__init__`` (``DEFINITION``):
its name and title; its parts, loaded when first used (the `geolab.game.Game` object that holds
rules, step-wise reference, batch engine, observer, records and views; the `Players`: its bots,
line-ups, seat, hint and review); the optional parts its game has (`OPTIONAL`), named, never
probed; the facts surfaces ask about (`FEATURES`); the decision kinds its bots answer at the
batch engine and the methods answering them (`DECISIONS`; `geolab.game.BatchBot`); and its
offers (`OFFERS`), whose code lives in the game's own package. Everything above the games
layer asks a definition what a game has and offers (`geolab.registry.Entry.has`, ``offer``);
nothing there names a game.

Parts are ``"module:attribute"`` texts so that listing the games (``geolab --help``) imports
none of them; a test-only game may give the objects themselves.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from geolab.errors import GeolabError

#: The optional parts a game's `Game` may have, and what each gives the surfaces above.
OPTIONAL = {
    "determinize": "builds a state from one seat's observation alone: search bots (OpenSpiel's ISMCTS) play it",
    "seat_policy": "shows a one-game seat each decision of the batch engine: state-search bots play in the arena",
    "chance_outcomes": "bounds its chance outcomes itself (else a chance outcome is a card or smaller)",
    "rollouts": "plays many reference states out on its batch engine at once: the exploiter's fast path",
    "exchange": "trades one unseen card of a resampled deal, a move as likely back: the exploiter's posterior chains",
}
#: Facts about a game that surfaces ask, declared rather than discovered.
FEATURES = {
    "races": "some decisions are timed claims (a race): their answers are never listed, their clock is shown",
    "stages": "a game made of games: its rules hold the inner games' rules as stages (stage.field)",
    "series": "plays series of deals to a points target under some rules (the Play the Ranks battles)",
}
#: What a game may offer, and the signature of the function each names (``module:function``).
OFFERS = {
    "bench": "bench(rules, games, runs, seed, threads) -> dict with a summary line (geolab bench GAME)",
    "solve": "solve(record) -> the oracle's JSON report of a record (geolab solve FILE)",
    "train": "add(subparsers) adds the game's `geolab train GAME` parser",
    "equilibrium": "add(subparsers) adds the game's `geolab equilibrium GAME` parser",
    "command": "add(commands) adds the game's own top-level verbs (geolab tournament)",
}
#: The kinds of decision a game's bots answer at its batch engine (`geolab.game.BatchBot`): a
#: game declares the kinds its bots answer and the method that answers each (``decisions``).
DECISIONS = {
    "discard": "the cards each game discards (Play the Ranks: act; the Class game: its whole discard_table(rules))",
    "declare": "whether to declare (Play the Ranks under GeoDouble's rules)",
    "lead": "the card, category and base led to a trick",
    "follow": "the card that follows a lead",
    "choose": "a choice among the legal options (Jumbled: a card mask a set; Combo 1: the afternoon's game)",
    "play": "the card each game plays (the test-only Top Rank)",
    "call": "the dealer's call of the round (Jumbled)",
    "race": "a timed claim, with the seconds it took, and the seconds searched before giving up",
    "clue": "the border state a clue-giver names (State IQ)",
    "guess": "a guess of the other side's card (State IQ)",
    "stage": "the bot that plays an inner game of a game made of games (GeoDouble's tricks, Combo 1's games)",
}
#: What every `Game` provides (`geolab.game.Game`), checked at registration.
CONTRACT = ("name", "title", "record_game", "Rules", "length_unit", "first_means", "block", "views",
            "seats", "seat_name", "batch", "batch_records", "deal", "steps", "play", "state",
            "deal_from_chance", "resample", "num_actions", "action_id", "action_of", "observation_string",
            "observation_tensor", "tensor_size", "max_length", "scores", "to_record", "replay", "report",
            "series_target", "deal_points", "bonus_free_points")
#: What every game's views provide (`geolab.game.Views`), checked at registration: the words of
#: the keyboard and ``scene``, the structured table every renderer draws (`geolab.scene`).
VIEWS = ("screen", "prompt", "help", "label", "parse", "events", "ending", "reason", "scene")
_NAME = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")
_TARGET = re.compile(r"[a-zA-Z_][\w.]*:[a-zA-Z_]\w*")


class DefinitionError(GeolabError):
    """A game's definition that is missing a part or names one wrongly: one line, at registration."""


class Judgement(NamedTuple):
    """A judge's verdict on one move: who made it, the decision kind, the words shown beside
    it, and what it lost against the judge's best move: ``lost`` in win share (1 a win, ½ a
    tie) and ``tricks_lost`` (the game's own secondary measure, 0 where it has none)."""

    seat: int
    kind: str
    words: str
    lost: float
    tricks_lost: int = 0
    #: ``lost`` split by the parts of a move that is several choices at once, as (part, win share
    #: lost) pairs summing to ``lost`` (Play the Ranks' lead: its card, then its category)
    parts: tuple[tuple[str, float], ...] = ()


@dataclass(frozen=True)
class Players:
    """A game's bots and how the lab and the table use them: the registry (`geolab.game.Bots`),
    the line-ups `geolab simulate` and `geolab arena` play by default, the bot `hint` suggests
    with (the strongest that does not peek), ``seat(bot, rules, rng)`` that seats a built bot at
    the reference engine, and ``review(played, seat)``, a person's costliest decisions of a
    played game with the better move (where the game has one); ``judge(played)``, where the
    game has a solver, the value of each move played against the best one, as
    `Judgement`s (seat, kind, words, and the value lost against the best move) for every
    decision of each kind it judges, in the order the game asked them of each seat
    (`geolab replay FILE --moves` shows the words beside the moves; `experiments/strength.py`
    averages the losses)."""

    bots: Any
    simulate: str
    arena: str
    hint: str | None = None
    seat: Callable | None = None
    review: Callable | None = None
    judge: Callable | None = None


@dataclass(frozen=True)
class GameDef:
    """One game, declared: see the module docstring. ``game`` and ``players`` are
    ``"module:attribute"`` texts (or the objects, for a game defined outside geolab); ``about``
    is what the start page says of it: what the game is, then its players and length, in two
    sentences a newcomer reads before picking it."""

    name: str
    title: str
    game: Any
    players: Any
    about: str = ""
    optional: frozenset[str] = frozenset()
    features: frozenset[str] = frozenset()
    offers: Mapping[str, str] = field(default_factory=dict)
    #: the decision kinds its bots answer (`DECISIONS`), each with the method(s) answering it:
    #: ``{"race": ("race", "give_up")}``; a plain list of kinds means each is answered by ``act``
    decisions: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        decisions = self.decisions if isinstance(self.decisions, Mapping) else dict.fromkeys(self.decisions, "act")
        object.__setattr__(self, "decisions", {kind: (methods,) if isinstance(methods, str) else tuple(methods)
                                               for kind, methods in decisions.items()})
        object.__setattr__(self, "optional", frozenset(self.optional))
        object.__setattr__(self, "features", frozenset(self.features))
        object.__setattr__(self, "offers", dict(self.offers))
        if not isinstance(self.name, str) or not _NAME.fullmatch(self.name):
            raise DefinitionError(f"game {self.name!r}: a game's name is lower-case words joined by '-'")
        for kind, names, known in (("optional part", self.optional, OPTIONAL), ("feature", self.features, FEATURES),
                                   ("offer", self.offers, OFFERS)):
            for what in names:
                if what not in known:
                    raise DefinitionError(f"{self.name}: unknown {kind} {what!r} (known: {', '.join(known)})")
        if not self.decisions:
            raise DefinitionError(f"{self.name}: declare the decision kinds its bots answer (decisions; known: "
                                  f"{', '.join(DECISIONS)})")
        for kind, methods in self.decisions.items():
            if kind not in DECISIONS:
                raise DefinitionError(f"{self.name}: unknown decision kind {kind!r} (known: {', '.join(DECISIONS)})")
            if not methods or not all(isinstance(m, str) and m.isidentifier() and not m.startswith("_")
                                      for m in methods):
                raise DefinitionError(f"{self.name}: decision {kind!r} must name the public bot method(s) "
                                      f"answering it, got {methods!r}")
        for what, target in (("game", self.game), ("players", self.players), *self.offers.items()):
            if isinstance(target, str) and not _TARGET.fullmatch(target):
                raise DefinitionError(f"{self.name}: {what} must be named as 'module:attribute', got {target!r}")

    def has(self, what: str) -> bool:
        """Whether the game has this optional part or feature (`OPTIONAL`, `FEATURES`)."""
        if what not in OPTIONAL and what not in FEATURES:
            raise KeyError(f"{what!r} is neither an optional part nor a feature")
        return what in self.optional or what in self.features

    def load_game(self):
        """The `Game`, imported now and checked against the contract and this definition."""
        game = load(self.game)
        missing = [verb for verb in CONTRACT if not hasattr(game, verb)]
        if missing:
            raise DefinitionError(f"{self.name}: its game lacks {', '.join(missing)} (geolab.game.Game)")
        from geolab.game import Views  # the contract's stubs: a game's views must write their own

        lacking = [verb for verb in VIEWS if not callable(getattr(game.views, verb, None))
                   or getattr(type(game.views), verb, None) is getattr(Views, verb)]
        if lacking:
            raise DefinitionError(f"{self.name}: its views lack {', '.join(lacking)} (geolab.game.Views)")
        if game.name != self.name:
            raise DefinitionError(f"{self.name}: its game calls itself {game.name!r}")
        present = {part for part in OPTIONAL if callable(getattr(game, part, None))}
        for part in sorted(self.optional - present):
            raise DefinitionError(f"{self.name}: declares the optional part {part!r}, which its game lacks")
        for part in sorted(present - self.optional):
            raise DefinitionError(f"{self.name}: its game has {part!r}; declare it in the definition's optional parts")
        if ("stages" in self.features) != bool(game.Rules.stages()):
            raise DefinitionError(f"{self.name}: the 'stages' feature must be declared exactly when its rules "
                                  "hold other games' rules")
        return game

    def load_players(self) -> Players:
        """The `Players`, imported now and checked: every line-up and the hint name its bots."""
        players = load(self.players)
        if not isinstance(players, Players):
            raise DefinitionError(f"{self.name}: players must be a geolab.definition.Players, "
                                  f"got {type(players).__name__}")
        if players.bots.game != self.name:
            raise DefinitionError(f"{self.name}: its bots are registered as {players.bots.game!r}'s")
        from geolab.game import BatchBot, parse_bot, split_bots  # the bots' spec grammar and protocol

        for kind, methods in self.decisions.items():
            for method in methods:
                if hasattr(BatchBot, method) and method != "act":
                    raise DefinitionError(f"{self.name}: decision {kind!r}: {method!r} is an attribute of every "
                                          "BatchBot, not a decision method")

        for what, specs in (("simulate", players.simulate), ("arena", players.arena), ("hint", players.hint or "")):
            for spec in split_bots(specs) if specs else ():
                if parse_bot(spec)[0] not in players.bots:
                    raise DefinitionError(f"{self.name}: the {what} line-up names an unknown bot {spec!r}")
        return players


def load(target):
    """The object a ``"module:attribute"`` text names (imported now), or `target` itself."""
    if not isinstance(target, str):
        return target
    module, _, attribute = target.partition(":")
    try:
        return getattr(importlib.import_module(module), attribute)
    except (ImportError, AttributeError) as error:
        raise DefinitionError(f"{target}: cannot be loaded ({error})") from None
