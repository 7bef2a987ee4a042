"""The game interface: the one contract every game keeps, and the parts every game shares.

Everything above the games layer (bots' registries, the lab, records, play, the CLI, the
conformance tests) speaks only this contract, so a new game is one package and one line in
`geolab.registry`. The contract, in the order a game is used:

- `RulesBase`: a game's `Rules` is a frozen dataclass that inherits it. Every field is checked
  for type at construction (a string, float or list where an int belongs is a `RulesError`),
  named presets come from ``PRESETS``, one serialisation (`from_spec` / `to_spec`: a preset
  name, or ``{"preset": name, **overrides}``), `replace(**overrides)` and `with_settings`
  (``field=value`` texts from ``--set``); `validate()` checks ranges and consistency.
- `Bots`: one registry per game; a bot is built from ``name:key=value,...``, its parameters
  read from the factory's signature with their types and defaults. Building never trains.
- `Game`: the batch engine behind one call (`Game.batch`, one row a game with the common
  columns of `Batch`), the reference engine with per-seat `Decision` s (observation and legal
  actions) and a `Seat` that may be a bot or a person, and the game's record body.

Duplicate seating (every rotation of the seats over the same deals) is done once, above this
line, in `geolab.lab.tables`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import inspect
import json
import re
import typing
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, Protocol

import numpy as np

from geolab.cards import POSTAL
from geolab.errors import BotError, GeolabError, RecordError, RulesError

RECORD_FORMAT = "geolab-record/1"
SEAT_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
#: The largest whole number any Rules field holds (games bound their own fields further in
#: `validate`): beyond it a field is refused before any engine turns it into a machine integer.
RULES_INT_MAX = 10**9
#: Bot parameters and record seeds are 63-bit at most (numpy seeds, machine integers).
INT63_MAX = 2**63 - 1


def shown_key(key) -> str:
    """An object key for an error message: as it is when short and printable, else `shown`."""
    return key if isinstance(key, str) and len(key) <= 40 and key.isprintable() and key.strip() == key and key \
        else shown(key)


def shown(value, limit: int = 60) -> str:
    """`repr(value)` cut to `limit` characters, for error messages that must stay one short line."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10**30:
        return f"a number of about {int(abs(value).bit_length() * 0.30103) + 1} digits"
    try:
        text = repr(value)
    except (ValueError, RecursionError):  # a structure too deep (or an int too long) to print
        return f"a {type(value).__name__}"
    return text if len(text) <= limit else text[: limit - 4] + " ..."


# ----- typed values -------------------------------------------------------------------------
def _options(annotation: str) -> list[str]:
    return [part.strip() for part in annotation.split("|")]


def _scalar(kind: str, value, where: str):
    """`value` as `kind` ("int", "float", "bool", "str"), or a RulesError-free ValueError."""
    if kind == "int":
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
            raise ValueError(f"{where} must be a whole number, got {shown(value)}")
        return int(value)
    if kind == "float":
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
            raise ValueError(f"{where} must be a number, got {shown(value)}")
        value = float(value)
        if not np.isfinite(value):
            raise ValueError(f"{where} must be a finite number, got {shown(value)}")
        return value
    if kind == "bool":
        if not isinstance(value, (bool, np.bool_)):
            raise ValueError(f"{where} must be true or false, got {shown(value)}")
        return bool(value)
    if kind == "str":
        if not isinstance(value, str):
            raise ValueError(f"{where} must be a string, got {shown(value)}")
        return value
    raise TypeError(f"unsupported type {kind!r}")  # a programming error in a Rules class


def coerce(annotation: str, value, where: str):
    """`value` checked against a field's annotation text (``int``, ``int | None``,
    ``tuple[int, ...]``, ``tuple[int, int, int]``, ...); lists become tuples. Raises
    ValueError naming `where` and the expected type."""
    options = _options(annotation)
    if value is None:
        if "None" in options:
            return None
        raise ValueError(f"{where} must not be null")
    errors = []
    for option in (o for o in options if o != "None"):
        try:
            match = re.fullmatch(r"tuple\[(.*)\]", option)
            if not match:
                return _scalar(option, value, where)
            items = [i.strip() for i in match.group(1).split(",")]
            if not isinstance(value, (list, tuple)):
                raise ValueError(f"{where} must be a list, got {shown(value)}")
            if items[-1] == "...":
                kinds = [items[0]] * len(value)
            elif len(items) != len(value):
                raise ValueError(f"{where} must be a list of {len(items)} values, got {shown(list(value))}")
            else:
                kinds = items
            return tuple(_scalar(k, v, f"{where}[{i}]") for i, (k, v) in enumerate(zip(kinds, value)))
        except ValueError as error:
            errors.append(str(error))
    raise ValueError(errors[0] if len(errors) == 1 else f"{where}: expected {annotation}, got {shown(value)}")


def parse_value(text: str):
    """A command-line value: JSON where it reads as JSON (``5``, ``[1, 50]``, ``true``,
    ``null``), ``none`` for null, else the text itself."""
    text = text.strip()
    if text.lower() == "none":
        return None
    try:
        return json.loads(text)
    except (ValueError, RecursionError):  # not JSON, too deep, or a number of thousands of digits
        return text


def _type_name(annotation: str) -> str:
    return annotation.replace("tuple[int, ...]", "list of int").replace("tuple[str, ...]", "list of str")


# ----- Rules --------------------------------------------------------------------------------
class RulesBase:
    """What every game's frozen `Rules` dataclass inherits: typed fields, presets, specs.

    A subclass sets ``PRESETS`` (name -> a function returning the preset), ``DEFAULT`` (the
    preset a spec without one starts from) and ``HELP`` (field -> what it means), and writes
    `validate()` for ranges and consistency. Every whole number of a field (a list's too) is
    within +-`RULES_INT_MAX`, so no engine ever meets one its machine integers cannot hold."""

    PRESETS: ClassVar[Mapping[str, Callable[[], RulesBase]]] = {}
    DEFAULT: ClassVar[str] = ""
    HELP: ClassVar[Mapping[str, str]] = {}

    def __post_init__(self) -> None:
        stages = self.stages()
        for f in fields(self):
            if f.name in stages:  # another game's rules: an instance, a preset name or a spec
                value = getattr(self, f.name)
                if not isinstance(value, stages[f.name]):
                    try:
                        value = stages[f.name].from_spec(value)
                    except RulesError as error:
                        raise _within(f.name, stages[f.name], error) from None
                object.__setattr__(self, f.name, value)
                continue
            try:
                value = coerce(f.type, getattr(self, f.name), f.name)
            except ValueError as error:
                raise RulesError(f"rules: {error}") from None
            for item in value if isinstance(value, tuple) else (value,):
                if isinstance(item, int) and not isinstance(item, bool) and abs(item) > RULES_INT_MAX:
                    raise RulesError(f"rules: {f.name}: {shown(item)} is beyond the {RULES_INT_MAX:,} "
                                     "any rules field may hold")
            object.__setattr__(self, f.name, value)

    def validate(self):  # pragma: no cover - every game writes its own
        return self

    # ----- presets and specs -------------------------------------------------------------
    @classmethod
    def preset(cls, name: str):
        if not isinstance(name, str) or name not in cls.PRESETS:
            raise RulesError(f"unknown rules preset {name!r} (known: {', '.join(cls.PRESETS)})")
        return cls.PRESETS[name]().validate()

    @classmethod
    def field_names(cls) -> list[str]:
        return [f.name for f in fields(cls)]

    @classmethod
    def stages(cls) -> dict[str, type]:
        """The fields that hold another game's rules (a stage of a match), by field name:
        their values are that game's `Rules`, and ``stage.field`` names a field inside."""
        cached = cls.__dict__.get("_stages")
        if cached is None:
            hints = typing.get_type_hints(cls)
            cached = {f.name: hints[f.name] for f in fields(cls)
                      if isinstance(hints[f.name], type) and issubclass(hints[f.name], RulesBase)}
            cls._stages = cached
        return cached

    @classmethod
    def from_spec(cls, spec):
        """A preset name, or an object ``{"preset": name, field: value, ...}`` (the preset
        defaults to ``DEFAULT``); every field checked, then `validate`d."""
        if isinstance(spec, str):
            return cls.preset(spec)
        if not isinstance(spec, dict):
            raise RulesError(f"rules: expected a preset name or an object of fields, got {type(spec).__name__}")
        spec = dict(spec)
        base = cls.preset(spec.pop("preset", cls.DEFAULT))
        return base.replace(**spec)

    def replace(self, **overrides):
        """These rules with some fields changed (``stage.field`` reaches a stage's rules);
        unknown fields and bad values are `RulesError`s."""
        known = self.field_names()
        inner: dict[str, dict] = {}
        for key in [k for k in overrides if "." in k]:
            stage, _, rest = key.partition(".")
            if stage not in self.stages():
                raise RulesError(f"rules: {stage!r} is not a stage of these rules, so {key!r} names no field"
                                 + (f" (stages: {', '.join(self.stages())})" if self.stages() else ""))
            inner.setdefault(stage, {})[rest] = overrides.pop(key)
        unknown = [k for k in overrides if k not in known]
        if unknown:
            raise RulesError(f"rules: unknown field {unknown[0]!r} (fields: {', '.join(known)})")
        for stage, changes in inner.items():
            base = overrides.get(stage, getattr(self, stage))
            try:
                if not isinstance(base, self.stages()[stage]):
                    base = self.stages()[stage].from_spec(base)
                overrides[stage] = base.replace(**changes)
            except RulesError as error:
                raise _within(stage, self.stages()[stage], error) from None
        return dataclasses.replace(self, **overrides).validate()

    def with_settings(self, settings: Sequence[str]):
        """These rules with ``field=value`` texts applied (``--set end_at=none``)."""
        overrides = {}
        for text in settings:
            key, eq, value = text.partition("=")
            if not eq or not key.strip():
                raise RulesError(f"--set: expected field=value, got {shown(text)}")
            overrides[key.strip()] = self.setting(key.strip(), value)
        return self.replace(**overrides)

    @classmethod
    def setting(cls, name: str, text: str):
        """A field's value from its text (`parse_value`); ``none`` is null only for a field
        that may be null, and the word itself for one that may not (``bonus=none``)."""
        stage, dot, rest = name.partition(".")
        if dot and stage in cls.stages():
            return cls.stages()[stage].setting(rest, text)
        value = parse_value(text)
        kinds = {f.name: str(f.type) for f in fields(cls)}
        if value is None and name in kinds and "None" not in _options(kinds[name]):
            return text.strip()
        return value

    def to_spec(self):
        """The shortest spec `from_spec` turns back into these rules: a preset name, or the
        nearest preset and the fields that differ from it."""
        presets = {name: make() for name, make in self.PRESETS.items()}
        for name, rules in presets.items():
            if rules == self:
                return name

        def diff(other) -> dict:
            return {f.name: _plain(getattr(self, f.name)) for f in fields(self)
                    if getattr(self, f.name) != getattr(other, f.name)}

        name = min(presets, key=lambda n: len(diff(presets[n])))
        return {"preset": name, **diff(presets[name])}

    def describe(self) -> list[dict]:
        """Every field: its value, its type and what it means (``geolab rules GAME``); a
        stage's fields as ``stage.field``."""
        rows = []
        for f in fields(self):
            if f.name in self.stages():
                rows += [{**row, "field": f"{f.name}.{row['field']}"} for row in getattr(self, f.name).describe()]
            else:
                rows.append({"field": f.name, "value": _plain(getattr(self, f.name)), "type": _type_name(f.type),
                             "meaning": self.HELP.get(f.name, "")})
        return rows


def _within(stage: str, rules: type, error: RulesError) -> RulesError:
    """A stage's rules error as the match's: ``stage.field ...`` where it names a field."""
    inner = str(error).removeprefix("rules: ")
    first = re.split(r"[\s:\[]", inner, maxsplit=1)[0]
    return RulesError(f"rules: {stage}{'.' if first in rules.field_names() else ': '}{inner}")


def _plain(value):
    if isinstance(value, RulesBase):
        return value.to_spec()
    return list(value) if isinstance(value, tuple) else value


# ----- bots ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Param:
    """One parameter of a bot: ``name:key=value`` sets it."""

    name: str
    type: str
    default: Any


@dataclass(frozen=True)
class BotInfo:
    name: str
    factory: Callable
    summary: str
    family: str
    peeks: bool
    params: tuple[Param, ...]
    example: str  # a quick, seed-deterministic spec of this bot (the conformance tests play it)
    #: restricted play (the balance lab): the values the factory's ``forbid`` takes, and
    #: ``not_applicable(rules, choice)``: why a choice is never open (or forced) under rules, or None
    restrictions: tuple[str, ...] = ()
    not_applicable: Callable | None = None
    #: the skill curve (the balance lab): (a spec with ``{n}``, the sample counts), or None
    skill_curve: tuple[str, tuple[int, ...]] | None = None

    def row(self) -> dict:
        return {"bot": self.name, "family": self.family, "peeks": self.peeks, "summary": self.summary,
                "parameters": ", ".join(f"{p.name}: {_type_name(p.type)} = {p.default!r}" for p in self.params)}


def param_range(name: str, value, low, high, *, low_open: bool = False, none_ok: bool = False):
    """A bot parameter checked against its range (in a bot's factory): a ValueError naming the
    parameter and the allowed range, which `Bots.make` turns into a `GeolabError` naming the
    bot. ``low_open``: the value must be above `low`; ``none_ok``: None (no limit) is allowed."""
    if value is None and none_ok:
        return value
    if value is None or value < low or (low_open and value == low) or value > high:
        def num(x) -> str:
            return f"{int(x):,}" if float(x).is_integer() else f"{x:g}"

        allowed = f"above {num(low)} and at most {num(high)}" if low_open else f"within {num(low)}-{num(high)}"
        if none_ok:
            allowed += ", or none"
        raise ValueError(f"{name} must be {allowed}, got {shown(value)}")
    return value


def _outside_brackets(text: str) -> list[str]:
    """`text` split at the commas outside square brackets (``[...]`` holds another bot's
    spec, commas and all: ``tricks=[montecarlo:k=4,budget_ms=none]``)."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += (ch == "[") - (ch == "]")
        if ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    return parts + [text[start:]]


def split_bots(text: str) -> list[str]:
    """``a,b,mc:k=64,budget=10`` -> ``['a', 'b', 'mc:k=64,budget=10']``: a ``key=value``
    token without its own ``name:`` continues the bot before it; a bracketed value
    (``p:tricks=[mc:k=4,budget=1]``) is one token, whatever it holds."""
    bots: list[str] = []
    for token in (t.strip() for t in _outside_brackets(str(text))):
        if not token:
            raise GeolabError(f"--bots: empty name in {shown(text)}")
        if "=" in token and ":" not in token.split("[")[0] and bots:
            bots[-1] += "," + token
        else:
            bots.append(token)
    return bots


def parse_bot(spec: str) -> tuple[str, dict[str, str]]:
    """``name:key=value,key=value`` -> (name, {key: text}); a value in square brackets is
    another bot's spec, its text given without them."""
    name, _, text = str(spec).partition(":")
    params: dict[str, str] = {}
    for item in filter(None, (i.strip() for i in _outside_brackets(text))):
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise GeolabError(f"bot {shown(spec)}: expected key=value, got {shown(item)}")
        if key.strip() in params:
            raise GeolabError(f"bot {shown(spec)}: {shown(key.strip())} is given twice")
        value = value.strip()
        params[key.strip()] = value[1:-1].strip() if value.startswith("[") and value.endswith("]") and \
            not _json_list(value) else value
    return name.strip(), params


def _json_list(text: str) -> bool:
    """A bracketed value that is a JSON list (``[1, 50]``), not a bot's spec."""
    try:
        return isinstance(json.loads(text), list)
    except ValueError:
        return False


class Bots:
    """The bots of one game, by name; each built by ``factory(rules, **params)``.

    A factory's keyword parameters (after ``rules``) are the bot's parameters: their
    annotations give the types the spec's texts are read as, their defaults the defaults."""

    def __init__(self, game: str):
        self.game = game
        self._bots: dict[str, BotInfo] = {}

    def add(self, name: str, factory: Callable, summary: str, family: str = "heuristic",
            peeks: bool = False, example: str | None = None, *, restrictions: Sequence[str] = (),
            not_applicable: Callable | None = None, skill_curve: tuple[str, Sequence[int]] | None = None) -> None:
        """Register a bot; ``restrictions``, ``not_applicable`` and ``skill_curve`` declare
        what the balance lab may do with it (`BotInfo`)."""
        if peeks and "oracle" not in name and "peek" not in name:
            raise ValueError(f"bot {name!r} peeks, so its name must say so (oracle, peek)")
        target = factory.__init__ if isinstance(factory, type) else factory
        try:
            hints = typing.get_type_hints(target)
        except NameError:  # an annotation only a type checker can resolve: read its text
            hints = dict(getattr(target, "__annotations__", {}))
        params = []
        for p in list(inspect.signature(factory).parameters.values())[1:]:
            if p.kind in (p.VAR_KEYWORD, p.VAR_POSITIONAL):
                raise ValueError(f"bot {name!r}: name its parameters (no *args or **kwargs)")
            annotation = hints.get(p.name, str)
            text = annotation if isinstance(annotation, str) else _annotation_text(annotation)
            params.append(Param(p.name, text, p.default))
        if bool(restrictions) != (not_applicable is not None):
            raise ValueError(f"bot {name!r}: restrictions and not_applicable are declared together")
        curve = None if skill_curve is None else (skill_curve[0], tuple(skill_curve[1]))
        self._bots[name] = BotInfo(name, factory, summary, family, peeks, tuple(params), example or name,
                                   tuple(restrictions), not_applicable, curve)

    def __contains__(self, name: str) -> bool:
        return name in self._bots

    def names(self) -> list[str]:
        return list(self._bots)

    def info(self, name: str) -> BotInfo:
        if name not in self._bots:
            raise GeolabError(f"unknown {self.game} bot {name!r} (known: {', '.join(self._bots)})")
        return self._bots[name]

    def kwargs(self, spec: str) -> tuple[BotInfo, dict]:
        """The bot a spec names and its parameters read as their types."""
        name, texts = parse_bot(spec)
        info = self.info(name)
        by_name = {p.name: p for p in info.params}
        valid = ", ".join(f"{p.name} ({_type_name(p.type)}, default {p.default!r})" for p in info.params) or "none"
        kwargs = {}
        for key, text in texts.items():
            if key not in by_name:
                raise GeolabError(f"bot {shown(spec)}: unknown parameter {shown(key)} (valid: {valid})")
            value = parse_value(text)
            if by_name[key].type in ("str", "str | None") and value is not None:
                value = text
            if "float" in _options(by_name[key].type) and isinstance(value, int) and not isinstance(value, bool):
                value = float(value)
            try:
                kwargs[key] = coerce(by_name[key].type, value, key)
            except ValueError as error:
                raise GeolabError(f"bot {shown(spec)}: {error} (valid: {valid})") from None
        return info, kwargs

    def make(self, spec: str, rules):
        """The policy a spec names, for these rules. Its ``name`` is the spec."""
        info, kwargs = self.kwargs(spec)
        try:
            bot = info.factory(rules, **kwargs)
        except (ValueError, TypeError) as error:
            raise GeolabError(f"bot {shown(spec)}: {error}") from None
        try:
            bot.name = str(spec)
        except AttributeError:
            pass
        return bot

    def describe(self) -> list[dict]:
        return [b.row() for b in self._bots.values()]


class BatchBot:
    """A game's bot at its batch engine: the one protocol every game's bots keep.

    A bot answers a batch of observations (one row a game) for each decision kind its game
    declares (`geolab.definition.GameDef.decisions`: kind -> the method that answers it, from
    the vocabulary `geolab.definition.DECISIONS`); a method that answers several kinds reads
    the kind from ``obs.kind``. Engines call those methods and read only the attributes
    declared here, never a bot's own: a hook a game's engine may use is declared on this
    class, with the value that means "not offered".
    """

    #: the spec it was built from (`Bots.make` sets it)
    name: str = ""
    #: whether chunks may run on threads with it; a bot that is not says so (False)
    thread_safe: bool = True
    #: whether it sees hidden cards (a table refuses it; the registry entry says so too)
    peeks: bool = False
    #: a compiled kernel that plays this bot inside the engine's own loop, as
    #: ``(kernel, (code, concede))``, or None (Play the Ranks' heuristics offer one)
    fused: tuple | None = None
    #: ``together(bots, which)``: one bot that answers a `geolab.lineup.Lineup` of bots all of
    #: this class at once (row i as ``bots[which[i]]``), or None
    together: ClassVar[Callable | None] = None
    #: ``probabilities(decision) -> {action: probability}``: the bot's exact action probabilities
    #: at a reference `Decision`, where it can state them (a uniformly random bot), or None; an
    #: exploiter and the exact best response weigh its play by them rather than by samples
    probabilities: ClassVar[Callable | None] = None

    def act(self, obs, rng: np.random.Generator):
        """The answers to a batch of observations (``obs.kind`` names the decision where the
        game's `act` answers several kinds)."""
        raise NotImplementedError(f"{bot_name(self)} answers no decision by act")


def _annotation_text(annotation) -> str:
    if annotation is type(None):
        return "None"
    args = typing.get_args(annotation)
    if args and typing.get_origin(annotation) in (typing.Union, __import__("types").UnionType):
        return " | ".join(_annotation_text(a) for a in args)
    return getattr(annotation, "__name__", str(annotation))


def bot_name(bot) -> str:
    return str(getattr(bot, "name", None) or type(bot).__name__)


@contextlib.contextmanager
def asking(game: str, bot, decision):
    """Around a batch engine's call into a bot: an exception raised inside the bot becomes a
    one-line `BotError` naming the game, the bot and the decision (``decision`` is its text,
    or a function giving it). geolab's own errors (an illegal action the bot itself found, a
    bad record a seat read) and the end of a person's input (EOFError) pass through."""
    try:
        yield
    except (GeolabError, EOFError):
        raise
    except Exception as error:
        what = decision() if callable(decision) else decision
        text = " ".join(str(error).split()) or "no message"
        raise BotError(f"{game}: bot {bot_name(bot)!r} failed on the {what}: {type(error).__name__}: "
                       f"{text[:200]}") from error


# ----- the batch engine's table -------------------------------------------------------------
@dataclass
class Batch:
    """n games from the batch engine, as columns.

    ``scores[i, s]`` is seat s's share of game i's win: 1 for a sole winner, split equally
    between seats that share it (a tie, a draw, shared champions, a team), 0 otherwise, so
    every row sums to 1. ``length`` counts the game's unit (`Game.length_unit`), ``first`` is
    the seat that moved or dealt first; ``columns`` holds the game's own columns."""

    scores: np.ndarray
    length: np.ndarray
    first: np.ndarray
    columns: dict[str, np.ndarray] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.length)

    @staticmethod
    def concat(parts: Sequence[Batch]) -> Batch:
        return Batch(np.concatenate([p.scores for p in parts]), np.concatenate([p.length for p in parts]),
                     np.concatenate([p.first for p in parts]),
                     {k: np.concatenate([p.columns[k] for p in parts]) for k in parts[0].columns})


def shares(winners: np.ndarray) -> np.ndarray:
    """Bool winners (n, seats) -> win shares: each row's winners split 1 (none: all split it)."""
    winners = np.asarray(winners, bool)
    none = ~winners.any(axis=1)
    winners = winners | none[:, None]
    return winners / winners.sum(axis=1, keepdims=True)


# ----- the reference engine -----------------------------------------------------------------
@dataclass(frozen=True)
class Decision:
    """What one seat is asked: its `observation` (only what it may see) and the `legal`
    actions, in the game's own action form. `kind` names the decision (``"discard"``...)."""

    seat: int
    kind: str
    observation: Any
    legal: tuple
    where: str = ""  # where in the game, for error messages ("trick 3", "set 2 of round 1")
    timed: bool = False  # a race: answered with a `geolab.stepwise.Claim` (an action or None, and seconds)


class Seat(Protocol):
    """A decision maker in the reference engine: a bot or a person."""

    def act(self, decision: Decision) -> Any: ...


class MoveError(GeolabError):
    """A person's move that is not legal or not understood: one line that says why and how
    to type it; `geolab play` shows it and asks again."""


def typed_number(word: str) -> int | None:
    """A typed word as a menu's number (a card's, a line's), or None if it is not one: ASCII
    digits, at most 9 of them (no menu is longer). So a superscript or another script's digit
    (which `str.isdigit` accepts and `int` may refuse) and thousands of digits (past Python's
    int-string limit) are words a view refuses in its own line, never a ValueError."""
    return int(word) if word.isascii() and word.isdigit() and len(word) <= 9 else None


class Views(Protocol):
    """How a person sees and makes a game's decisions at the keyboard (`geolab play`): the
    game's own words, and no input or output, which the play loop does for every game. A
    game's views class inherits this one, so the race words have their plain defaults.

    Everything is built from the `Decision` the seat is asked (its observation and legal
    actions) or, at the end, from the played game, so a person sees exactly what a bot in the
    same seat would see, and only that."""

    def screen(self, decision: Decision) -> list[str]:
        """The table before a decision: the hand sorted, one card a line with its three ranks
        (numbered, for menu input), the trick / set / round, the base or call and what it
        means, the score."""

    def prompt(self, decision: Decision) -> str:
        """The short question on the input line (``"lead: CARD CATEGORY > "``)."""

    def help(self, decision: Decision) -> list[str]:
        """How to type this decision's moves, with examples from the seat's own hand."""

    def label(self, decision: Decision, action) -> str:
        """One legal action in words (``"TX size"``); `parse` reads it back to the same action,
        and play logs store it beside the action's index in ``decision.legal``."""

    def parse(self, decision: Decision, text: str):
        """The legal action a person's text names: a label, postal codes and words, or menu
        numbers of the screen. Anything else is a one-line `MoveError`."""

    def events(self, decision: Decision) -> list[str]:
        """Every public happening of the game so far as the seat saw it, one line each, in
        order (the play loop prints the lines it has not yet shown): each card played with its
        rank, who won and why."""

    def ending(self, played, seat: int) -> list[str]:
        """The finished game from `seat`'s side: every line `events` would give at the end,
        then the last lines (what happened after the seat's last decision) and the verdict
        ("you won 5-2")."""

    def reason(self, decision: Decision, action) -> str:
        """Why `action` is a good move, from what the seat sees (the hint's "because ...")."""

    def pictures(self, played, seat: int) -> list:
        """Pictures of the finished game from `seat`'s side, shown after it with its ending
        (the web's end page and a replay's last step): `geolab.scene.Picture` s, SVG made by
        `geolab.maps`, never from input (State IQ: the border states named as clues on a map;
        Border-Up and Dashing States: the race hand on a map). Optional: none by default."""
        return []

    def scene(self, decision: Decision):
        """The table as objects (`geolab.scene.Scene`): piles of cards, facts, the category in
        play, and the legal moves as cards selected plus an option; at a race no moves, only
        the claim's shape. Required of every game (`geolab.definition.VIEWS`)."""

    # ----- the race words: every game has them; a game with races words them its own way ---
    def echo(self, decision: Decision, action, text: str) -> str:
        """The line `--confirm` shows before Enter: the move as the game reads the person's text."""
        return f"-> {self.label(decision, action)}"

    def called(self, decision: Decision, seat: int, claim, words: str) -> list[str]:
        """What the play loop shows when a rival's claim came before the person's Enter."""
        return [f"{SEAT_LETTERS[seat]} claimed first, at {claim.seconds:.1f} s: {words}.",
                "Too late: no claim from you."]

    def race_note(self, decision: Decision) -> str:
        """What the loop adds when it refuses moves or a hint at a race ("" for nothing)."""
        return ""

    def note(self, decision: Decision, action, text: str) -> str | None:
        """One line the loop prints when the person's words asked for more than the move took
        (a follow that names a category: the category is the leader's); None for nothing."""
        return None

    def laid(self, decision: Decision, action, text: str) -> tuple:
        """The cards a race claim's `text` lays down where the action does not say them (a
        wrong claim of groups, `geolab.stepwise.Claim.laid`): groups of card numbers, each in
        card order; () for none. A `MoveError` for text that names no such cards."""
        return ()

    def race_search(self, decision: Decision) -> tuple[int, int] | None:
        """A race that is a search of a hand for solutions, as the race model reads it:
        (cards in the hand, solutions it holds); None for a race of another kind (the fit of a
        person's speed, `geolab.lab.racefit`, leaves it out)."""
        return None



class Game(Protocol):
    """What a game provides to the rest of geolab (see the module docstring)."""

    name: str  # the CLI's name: geolab simulate NAME
    title: str
    record_game: str  # the ``game`` of its records
    Rules: type
    length_unit: str  # what `Batch.length` counts: "tricks", "rounds", ...
    first_means: str  # what `Batch.first` is: "first lead", "first dealer", ...

    block: int  # games per seed block: `batch` may start at any multiple of it

    def seats(self, rules) -> int: ...
    def seat_name(self, rules, seat: int) -> str: ...

    def batch(self, rules, bots: Sequence, n: int, seed, *, start: int = 0, stream: int = 0,
              chunk: int | None = None, threads: int | None = None) -> Batch:
        """Games start .. start + n - 1 of the seed, ``bots[s]`` at seat s. A game's deal
        depends on (rules, seed, its number) only, so every seating of the same seed plays the
        same cards and a run can be played in pieces that start at multiples of `block`;
        ``stream`` picks the seating's own stream for any other randomness. Chunk size and
        threads never change the result."""

    def batch_records(self, rules, bots: Sequence, n: int, seed) -> list[dict]:
        """The first n games of `batch` (stream 0) as records with their ``result``, so the
        reference engine can replay the batch engine's deals and decisions."""

    def deal(self, rules, rng: np.random.Generator) -> Any:
        """One deal for the reference engine: everything chance decides before play."""

    # ----- the step-wise state (`geolab.stepwise`) ----------------------------------------
    def steps(self, rules, deal) -> Any:
        """The reference engine, as a generator of nodes (`geolab.stepwise.Ask`, and
        `geolab.stepwise.Chance` when ``deal`` is None) that returns the played game. Every
        `Decision` it asks names its ``where``; the generator receives ``{seat: action}``
        (already checked against ``Decision.legal``) or a chance outcome."""

    def play(self, rules, deal, seats: Sequence[Seat]) -> Any:
        """One game on the reference engine through the one driver (`geolab.stepwise.play`,
        inherited from `geolab.stepwise.StepGame`): ``seats[s]`` asked for seat s's
        decisions; returns the played game. An action not among ``Decision.legal`` is an
        `IllegalActionError` naming the decision."""

    def deal_from_chance(self, rules, outcomes: Sequence[int]) -> Any:
        """The deal a chance-stepped game's outcomes so far make (`steps` with deal None):
        what chance has not yet decided may be anything (`resample` redraws it)."""

    def resample(self, rules, deal, log: Sequence, seat: int, rng: np.random.Generator) -> Any:
        """A deal `seat` cannot tell from this one after the ``log`` so far (a
        `geolab.stepwise.State` log): every card it has not seen dealt anew, uniformly among
        the deals consistent with all it has seen (its own cards, every card played in front
        of it, what the rules show), and every chance event still to come drawn afresh; the
        log's decisions stay legal on it."""

    def determinize(self, rules, seat: int, observation, rng: np.random.Generator) -> Any:
        """A state the seat cannot tell from the real one, built from its observation alone
        (`State.observe`, which has perfect recall): a `geolab.stepwise.State` at the same
        node, whose deal gives `seat` its own cards and everything it has seen, and draws the
        rest uniformly from what it has not (as `resample`). A search bot starts from it, so
        it never reads the real deal. Optional: a game without it offers no such bots."""

    def seat_policy(self, seat, name: str) -> Any:
        """(Optional) a one-game `Seat` as a batch-engine bot, for games whose batch engine can
        show such a seat each decision (Play the Ranks, through its `SeatPolicy`): so search
        bots that work on states (OpenSpiel's) play in the arena too."""

    def rollouts(self, rules, states: Sequence, actions: Sequence | None, seat: int, bots: Sequence,
                 rng: np.random.Generator, finish: bool = True) -> tuple[np.ndarray, np.ndarray]:
        """(Optional) row i: reference state ``states[i]`` (one seat's determinizations, all at
        the same decision of `seat` on the same public history), `seat` plays ``actions[i]``
        (None: its bot's move), then the batch bots ``bots[s]`` play seat s to the end on the
        batch engine. Returns `seat`'s win share per row, and per row how many of the other
        seat's decisions in the state's log its bot would have made otherwise (its likelihood
        there, for a deterministic bot; with ``finish`` False only those are wanted, and the
        rows may stop once the log is replayed). The exploiter (`geolab.lab.exploit`) plays
        its rollouts and weighs its states so, where offered."""

    def exchange(self, rules, deal, log: Sequence, seat: int, rng: np.random.Generator) -> Any:
        """(Optional) a `geolab.stepwise.Resampled` deal and log `seat` cannot tell from this
        resampled pair (`determinize`'s), one of the others' unseen cards traded with another
        card `seat` has not seen, such that the move back is exactly as likely: the exploiter
        (`geolab.lab.exploit`) walks Markov chains of these moves to sample the opponent's
        cards from the likelihood of its play."""

    def chance_outcomes(self, rules) -> int:
        """(Optional) every chance outcome is below this; without it, a chance outcome is a
        card (below 50) or a smaller whole number."""

    def num_actions(self, rules) -> int:
        """How many action indices the game has under these rules (`action_id` < this)."""

    def action_id(self, rules, decision: Decision, action) -> int:
        """The fixed index of one of a decision's actions: the same action has the same index
        in every game under these rules."""

    def action_of(self, rules, decision: Decision, index: int) -> Any:
        """The legal action an index names (`action_id` backwards); an index that names no
        legal action here is an `IllegalActionError`."""

    def observation_string(self, rules, seat: int, observation) -> str:
        """A seat's observation (`State.observe`) as text a person can read. Observations
        hold the seat's whole history (perfect recall), so this is its information state."""

    def observation_tensor(self, rules, seat: int, observation) -> np.ndarray:
        """The same observation as a flat float32 vector of `tensor_size` values."""

    def tensor_size(self, rules) -> int: ...

    def max_length(self, rules) -> int:
        """An upper bound on a game's nodes: chance outcomes plus seat decisions (each seat's
        decision of a simultaneous node counted once)."""

    def scores(self, played) -> np.ndarray:
        """Win shares per seat of a played game, as in `Batch.scores`."""

    def to_record(self, played) -> dict:
        """The record of a played game (envelope, body, ``result``)."""

    def replay(self, record) -> Any:
        """A whole record checked (envelope, body, every decision, the claimed ``result``)
        and replayed on the reference engine; any problem is one `RecordError` line."""

    def report(self, played) -> dict:
        """What happened, JSON-ready (``geolab replay`` prints it)."""

    # ----- at the keyboard (`geolab play`) -------------------------------------------------
    views: Views

    def series_target(self, rules) -> int | None:
        """Points that win a series of games (a Play the Ranks battle series to 10), or None
        when one game is the whole match."""

    def deal_points(self, played) -> tuple[int, ...]:
        """Each seat's points toward the series from one played game."""

    def bonus_free_points(self, rules) -> int | None:
        """What a win is worth without a bonus, where these rules pay bonus levels (Play the
        Ranks' declarations and shutouts); None where they pay none. The balance card's
        "how often does the bonus decide the series" reads it."""


class OneGame:
    """The series verbs of a game whose one game is the whole match, written once: no series
    target, a point to a sole winner, no bonus levels (a game that plays series or pays
    bonuses writes its own)."""

    def series_target(self, rules) -> int | None:
        """One game is the whole match (a game that plays series says otherwise)."""
        return None

    def deal_points(self, played) -> tuple[int, ...]:
        """A point to the seat that won the game, none at a tie (a game scored otherwise says so)."""
        return tuple(int(s == 1) for s in self.scores(played))

    def bonus_free_points(self, rules) -> int | None:
        """No bonus levels (a game that pays them says otherwise)."""
        return None


class Packaged(OneGame):
    """The contract's verbs a game keeps in its package's own modules, delegated once: a game
    class sets ``observations`` (the module with num_actions, action_id, action_of,
    observation_string, observation_tensor and tensor_size) and ``records`` (the module with
    BODY_KEYS, to_record, replay_game and report; `replay` checks the envelope first, as every
    game's does, with the class's ``record_game``); and ``batch_engine`` (the module with
    BLOCK, batch and batch_records), where the game's batch verbs are its batch module's."""

    observations: Any = None
    records: Any = None
    record_game: str = ""
    batch_engine: Any = None

    @property
    def block(self) -> int:
        return self.batch_engine.BLOCK

    def batch(self, rules, bots, n, seed, *, start=0, stream=0, chunk=None, threads=None):
        return self.batch_engine.batch(rules, bots, n, seed, start=start, stream=stream, chunk=chunk, threads=threads)

    def batch_records(self, rules, bots, n, seed) -> list[dict]:
        return self.batch_engine.batch_records(rules, bots, n, seed)

    def num_actions(self, rules) -> int:
        return self.observations.num_actions(rules)

    def action_id(self, rules, decision: Decision, action) -> int:
        return self.observations.action_id(rules, decision, action)

    def action_of(self, rules, decision: Decision, index: int):
        return self.observations.action_of(rules, decision, index)

    def observation_string(self, rules, seat: int, observation) -> str:
        return self.observations.observation_string(rules, seat, observation)

    def observation_tensor(self, rules, seat: int, observation) -> np.ndarray:
        return self.observations.observation_tensor(rules, seat, observation)

    def tensor_size(self, rules) -> int:
        return self.observations.tensor_size(rules)

    def to_record(self, played) -> dict:
        return self.records.to_record(played)

    def replay(self, record):
        records = self.records
        return replayed(record, self.record_game, records.replay_game, records.report, records.BODY_KEYS)

    def report(self, played) -> dict:
        return self.records.report(played)


# ----- records ------------------------------------------------------------------------------
#: The keys every record may hold besides its game's body (`check_envelope`).
ENVELOPE_KEYS = ("format", "game", "rules", "seed", "players", "result")


#: postal code -> card, for reading records
CARD_OF = {p: c for c, p in enumerate(POSTAL)}


def record_cards(names, where: str) -> list[int]:
    """Postal codes as records write them (upper case), as card numbers; anything else is a
    `RecordError` naming the place."""
    if not isinstance(names, list):
        raise RecordError(f"{where}: expected a list of postal codes")
    for n in names:
        if not isinstance(n, str) or n not in CARD_OF:
            raise RecordError(f"{where}: unknown postal code {shown(n)}")
    return [CARD_OF[n] for n in names]


def record_object(value, where: str, keys: Sequence[str], holder: str = "it") -> dict:
    """A record's JSON object at `where` that holds only `keys`: anything else is a
    `RecordError` naming the place (``trick 3: unknown key 'x' (a trick holds lead, ...)``)."""
    if not isinstance(value, dict):
        raise RecordError(f"{where}: expected an object")
    for key in value:
        if key not in keys:
            raise RecordError(f"{where}: unknown key {shown(key)} ({holder} holds {', '.join(keys)})")
    return value


def record_choice(value, options: Collection[str], where: str, expected: str | None = None) -> str:
    """A record's word from a fixed set (a game's record name, a side, a pick ...): a string
    among `options` (a tuple, or the keys of a dict). Its type is checked before it is looked
    up, so a list or an object (no dict key, no set member) is one `RecordError` line too,
    ``where: expected one of ... (or `expected`), got ...``, never a TypeError."""
    if not isinstance(value, str) or value not in options:
        raise RecordError(f"{where}: expected {expected or 'one of ' + ', '.join(options)}, got {shown(value)}")
    return value


def record_whole(value, where: str, low: int, high: int) -> int:
    """A record's whole number within ``low..high`` (a JSON integer, not ``true`` or ``2.0``);
    bounded before it is used as an index or printed (an int of thousands of digits has no
    ``str``), else one `RecordError` line naming the place."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RecordError(f"{where}: expected a whole number within {low}..{high}, got {shown(value)}")
    return value


def record_rules(Rules: type, record: dict):
    """A record's ``rules`` (a preset name, or an object of fields over the preset it names),
    read as `Rules`; it is always written, so a record without it is refused as null is
    (a record is never read under rules it does not name). A problem is a `RecordError` that
    starts with ``rules:``."""
    if "rules" not in record:
        raise RecordError(f"rules: missing (a record names its rules: a preset such as {Rules.DEFAULT!r}, or "
                          "{\"preset\": name, field: value, ...})")
    try:
        return Rules.from_spec(record["rules"])
    except GeolabError as error:
        text = str(error)
        raise RecordError(text if text.startswith("rules:") else f"rules: {text}") from None


def check_format(record, expected: str = RECORD_FORMAT) -> dict:
    """What every reader checks first: a JSON object of this `format` naming its game."""
    if not isinstance(record, dict):
        raise RecordError(f"record: expected a JSON object, got {type(record).__name__}")
    if record.get("format") != expected:
        raise RecordError(f"format: expected {expected!r}, got {shown(record.get('format'))}")
    if not isinstance(record.get("game"), str):
        raise RecordError(f"game: expected the game's name, a string, got {shown(record.get('game'))}")
    return record


def check_envelope(record, game: str, body_keys: Sequence[str] | None = None) -> dict:
    """The common fields of a record: a JSON object of this `format` and `game`; where present,
    ``seed`` (the whole number the deal came from, 0..2**63-1) and ``players`` (seat name ->
    who sat there: a bot spec or a person's name). With `body_keys` (the game's own top-level
    keys), any other key is refused, named."""
    check_format(record)
    if record["game"] != game:
        raise RecordError(f"game: expected {game!r}, got {shown(record.get('game'))}")
    if body_keys is not None:
        known = (*ENVELOPE_KEYS, *body_keys)
        for key in record:
            if key not in known:
                raise RecordError(f"{shown_key(key)}: unknown key (a {game} record holds {', '.join(known)})")
    seed = record.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= INT63_MAX:
        raise RecordError(f"seed: expected a whole number within 0..2**63-1, got {shown(seed)}")
    players = record.get("players", {})
    if not (isinstance(players, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in players.items())):
        raise RecordError("players: expected an object of seat -> name (strings)")
    if "result" in record and not isinstance(record["result"], dict):
        raise RecordError(f"result: expected an object, got {shown(record['result'])}")
    return record


def json_equal(a, b) -> bool:
    """Equal as JSON values, types included: ``true`` is not ``1``, ``2.0`` is not the whole
    number ``2`` and ``0`` is not the real number ``0.0`` (reports write real numbers as
    such); ``-0.0`` equals ``0.0``. `b` is the reference (a report), `a` the claim."""
    if isinstance(b, (bool, np.bool_)):
        return isinstance(a, (bool, np.bool_)) and bool(a) == bool(b)
    if isinstance(b, (int, np.integer)):
        return isinstance(a, (int, np.integer)) and not isinstance(a, (bool, np.bool_)) and int(a) == int(b)
    if isinstance(b, (float, np.floating)):
        return isinstance(a, (float, np.floating)) and float(a) == float(b)
    if isinstance(b, (list, tuple)):
        return isinstance(a, (list, tuple)) and len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b))
    if isinstance(b, dict):
        return isinstance(a, dict) and a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in b)
    return type(a) is type(b) and a == b


def check_result(claimed, report: dict) -> None:
    """A record's claimed ``result`` against the replay's report, key by key (`json_equal`)."""
    if claimed is None:
        return
    if not isinstance(claimed, dict):
        raise RecordError("result: expected an object")
    for key, value in claimed.items():
        if key not in report:
            raise RecordError(f"result.{shown_key(key)}: unknown key (known: {', '.join(report)})")
        if not json_equal(value, report[key]):
            raise RecordError(f"result.{shown_key(key)}: the record says {shown(value)}, the replay gives "
                              f"{shown(report[key])}")


def replayed(record, game: str, replay_game: Callable, report: Callable, body_keys: Sequence[str] | None = None):
    """The one path every game's `Game.replay` takes: the envelope (with the game's own
    top-level `body_keys`, any other key refused), then the body on the reference engine
    (`replay_game(record)`), then the claimed ``result`` against `report`."""
    check_envelope(record, game, body_keys)
    played = replay_game(record)
    check_result(record.get("result"), report(played))
    return played


def envelope(game: str, rules_spec, body: dict, seed: int | None = None, players=None) -> dict:
    """A record: the common fields first, then the game's body."""
    head = {"format": RECORD_FORMAT, "game": game, "rules": rules_spec}
    if seed is not None:
        head["seed"] = int(seed)
    if players is not None:
        head["players"] = players
    return {**head, **body}
