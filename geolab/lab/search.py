"""Rule search: the rules that best meet a designer's goal, found by racing candidates on
duplicate deals (docs/rule-search.md).

A search spec is a sweep spec (game, base preset, line-ups, seed, chunk, deals) whose
``[search]`` table names a space of rules (integer ranges, choices, switches, stage fields,
constraints between fields) and whose ``[objective]`` names a report-card metric to maximise
or minimise subject to bounds on others. Candidates come from the whole grid of the space or,
for a space too large to list, in batches from Optuna's TPE sampler. Either way they are
judged by racing: every candidate plays the same seed blocks (common random numbers), round
after round, the deals a candidate has played doubling each round up to the spec's `deals`;
after each round a candidate whose objective interval is beaten by a candidate sure to meet
the bounds, or whose interval already lies outside a bound, is dropped. The intervals hold
together across every candidate, metric and round by a union bound (Bonferroni), so with
probability at least the stated confidence no drop is wrong. The chunks are the sweep's
(`geolab.lab.sweep.chunk_row`), one file each, so a killed search resumes to the same answer
and the answer does not depend on where the chunks ran.
"""

from __future__ import annotations

import ast
import itertools
import json
import math
import operator
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from geolab import registry
from geolab.errors import GeolabError, RulesError
from geolab.game import split_bots
from geolab.lab.balance import INTERVALS, SKILL, estimate, metrics
from geolab.lab.results import write_json
from geolab.lab.sweep import Pool, chunk_row, read_toml, spec_game, toml_value, warm_unit
from geolab.lab.tables import Totals, lineup

#: Most candidates a grid may list, and most a TPE search may propose.
MAX_CANDIDATES = 100_000
#: Combinations drawn to check that a space too large to list holds a candidate at all.
FEASIBILITY_DRAWS = 20_000
#: Candidates a round plays deeper, one after another, until one is sure to meet the bounds
#: (`search.champions`; 0: every candidate's deals double together, nobody ahead).
CHAMPIONS = 2
#: Proposals TPE may make in a row that the rules or the constraints refuse before giving up.
MAX_REFUSED = 1_000


# ----- the space ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Dimension:
    """One rules field searched: every value it may take (an integer range listed, the
    choices, or both switch positions)."""

    field: str
    kind: str  # "range", "choices" or "switch"
    values: tuple


@dataclass(frozen=True)
class Bound:
    """A bound on a metric of one line-up: low <= metric <= high (either side may be open)."""

    metric: str
    lineup: str
    low: float = -math.inf
    high: float = math.inf

    def text(self) -> str:
        if self.low > -math.inf and self.high < math.inf:
            return f"{self.low:g} <= {self.metric} <= {self.high:g} ({self.lineup})"
        return (f"{self.metric} >= {self.low:g}" if self.low > -math.inf else f"{self.metric} <= {self.high:g}") + \
            f" ({self.lineup})"


@dataclass(frozen=True)
class SearchSpec:
    game: str
    rules: str
    lineups: tuple[str, ...]
    dimensions: tuple[Dimension, ...]
    constraints: tuple[str, ...]
    metric: str
    sense: str  # "maximise" or "minimise"
    objective_lineup: str
    bounds: tuple[Bound, ...]
    deals: int = 100_000
    chunk: int = 4096
    seed: int = 0
    confidence: float = 0.95
    proposer: str = "grid"
    trials: int = 200
    batch: int = 20
    recheck: int = 20_000
    runners_up: int = 2
    champions: int = CHAMPIONS
    first_round: int | None = None
    raw: dict = field(default_factory=dict, compare=False)

    def entry(self):
        return registry.get(self.game)

    def base_rules(self):
        return self.entry().game.Rules.preset(self.rules)

    def chunk_size(self) -> int:
        block = self.entry().game.block
        return -(-self.chunk // block) * block

    def chunks(self) -> int:
        return -(-self.deals // self.chunk_size())

    def rounds(self) -> list[int]:
        """Chunks a candidate has played after each round: 1, 2, 4, ... up to all of them."""
        out, k = [], 1
        while k < self.chunks():
            out.append(k)
            k *= 2
        return out + [self.chunks()]

    def depths(self) -> list[int]:
        """Deals a candidate has played after each round: `first_round` deals if set (the start of
        the first chunk, played again within it by the candidates left), then 1, 2, 4, ... chunks
        up to `deals`. Fixed by the spec, never by the data: the union bound counts each."""
        size = self.chunk_size()
        return [self.first_round] * bool(self.first_round) + [min(k * size, self.deals) for k in self.rounds()]

    def quantities(self) -> list[tuple[str, str]]:
        """(metric, line-up) of every interval a round reads for each candidate."""
        return list(dict.fromkeys([(self.metric, self.objective_lineup)] + [(b.metric, b.lineup) for b in self.bounds]))


def _number(where: str, value, whole: bool = False):
    if isinstance(value, bool) or not isinstance(value, int | float) or (whole and not isinstance(value, int)):
        raise GeolabError(f"search spec: {where} must be a {'whole ' if whole else ''}number, got {value!r}")
    return value


def _dimension(name: str, text, Rules, kinds: dict[str, str]) -> Dimension:
    if name not in kinds:
        raise GeolabError(f"search.fields: unknown {Rules.__name__} field {name!r} of this game "
                          f"(fields: {', '.join(kinds)})")
    nullable = "None" in kinds[name]
    if text == "switch" or text == {"switch": True}:
        return Dimension(name, "switch", (False, True))
    if not isinstance(text, dict) or len(text) != 1:
        raise GeolabError(f"search.fields.{name}: write {{ range = [low, high] }}, {{ choices = [...] }} or \"switch\"")
    kind, value = next(iter(text.items()))
    if kind == "range":
        if not isinstance(value, list) or len(value) not in (2, 3):
            raise GeolabError(f"search.fields.{name}: range is [low, high] or [low, high, step]")
        low, high, *step = (_number(f"search.fields.{name}.range", v, whole=True) for v in value)
        step = step[0] if step else 1
        if step < 1 or low > high:
            raise GeolabError(f"search.fields.{name}: empty range {value} (low above high, or a step below 1)")
        return Dimension(name, "range", tuple(range(low, high + 1, step)))
    if kind == "choices":
        if not isinstance(value, list) or not value:
            raise GeolabError(f"search.fields.{name}: choices is a non-empty list of values")
        values = tuple(toml_value(v, nullable) for v in value)
        if len({json.dumps(v) for v in values}) != len(values):
            raise GeolabError(f"search.fields.{name}: a choice is listed twice")
        return Dimension(name, "choices", values)
    raise GeolabError(f"search.fields.{name}: unknown kind {kind!r} (range, choices, switch)")


def _bound(item, default_lineup: str, lineups: tuple[str, ...]) -> Bound:
    if not isinstance(item, dict) or "metric" not in item:
        raise GeolabError("objective.subject_to: each bound is a table with a metric and at_most, at_least or within")
    unknown = sorted(set(item) - {"metric", "lineup", "at_most", "at_least", "within"})
    if unknown:
        raise GeolabError(f"objective.subject_to: unknown key {unknown[0]!r} (metric, lineup, at_most, at_least, "
                          "within)")
    metric = _metric(item["metric"])
    low, high = -math.inf, math.inf
    if "within" in item:
        pair = item["within"]
        if not isinstance(pair, list) or len(pair) != 2:
            raise GeolabError(f"objective.subject_to: within is [low, high] for {metric}")
        low, high = (_number(f"within for {metric}", v) for v in pair)
    if "at_least" in item:
        low = max(low, _number(f"at_least for {metric}", item["at_least"]))
    if "at_most" in item:
        high = min(high, _number(f"at_most for {metric}", item["at_most"]))
    if low == -math.inf and high == math.inf:
        raise GeolabError(f"objective.subject_to: the bound on {metric} names no at_most, at_least or within")
    if low > high:
        raise GeolabError(f"objective.subject_to: no value of {metric} lies in [{low:g}, {high:g}] (impossible bound)")
    return Bound(metric, _lineup(item.get("lineup", default_lineup), lineups, metric), float(low), float(high))


def _metric(name) -> str:
    if name not in INTERVALS:
        raise GeolabError(f"objective: unknown metric {name!r} (metrics: {', '.join(INTERVALS)})")
    return name


def _lineup(text, lineups: tuple[str, ...], metric: str) -> str:
    if text not in lineups:
        raise GeolabError(f"objective: line-up {text!r} for {metric} is not one of bots ({', '.join(lineups)})")
    if metric in SKILL and len(set(split_bots(text))) == 1:
        raise GeolabError(f"objective: {metric} needs a stronger and a weaker bot, and line-up {text!r} is self-play")
    return text


def parse_search(data: dict, check: bool = True) -> SearchSpec:
    """A search spec from a parsed TOML object; every field, value, constraint, metric and
    bot checked, and the space shown to hold a candidate, before any work."""
    entry = spec_game(data, {"game", "rules", "bots", "deals", "seed", "chunk", "search", "objective"}, "search spec")
    Rules = entry.game.Rules
    rules = str(data.get("rules", Rules.DEFAULT))
    try:
        base = Rules.preset(rules)
    except RulesError as error:
        raise GeolabError(f"search spec: {error}") from None
    kinds = {row["field"]: row["type"] for row in base.describe()}
    bots = data.get("bots", [entry.simulate_bots])
    if isinstance(bots, str) or not bots or not all(isinstance(b, str) for b in bots):
        raise GeolabError("search spec: bots is a list of line-ups, e.g. [\"greedy\", \"greedy,random\"]")
    lineups = tuple(bots)
    for key in ("deals", "seed", "chunk"):
        if key in data and (_number(key, data[key], whole=True) < (0 if key == "seed" else 1)):
            raise GeolabError(f"search spec: {key} must be at least {0 if key == 'seed' else 1}, got {data[key]}")
    search = data.get("search")
    if not isinstance(search, dict) or not isinstance(search.get("fields"), dict) or not search["fields"]:
        raise GeolabError("search spec: name the fields searched in [search.fields] (e.g. end_at = { range = [4, 8] })")
    extra = sorted(set(search) - {"fields", "constraints", "proposer", "trials", "batch", "confidence", "recheck",
                                  "runners_up", "champions", "first_round"})
    if extra:
        raise GeolabError(f"search: unknown key {extra[0]!r}")
    dims = tuple(_dimension(name, text, Rules, kinds) for name, text in search["fields"].items())
    constraints = search.get("constraints", [])
    if not isinstance(constraints, list) or not all(isinstance(c, str) for c in constraints):
        raise GeolabError("search.constraints: a list of expressions over field names, e.g. [\"win_tricks < end_at\"]")
    for text in constraints:
        Expression(text, set(kinds))  # names and syntax checked here
    objective = data.get("objective")
    if not isinstance(objective, dict) or ("maximise" in objective) == ("minimise" in objective):
        raise GeolabError("objective: name one metric to maximise or minimise (maximise = \"skill_edge\")")
    sense = "maximise" if "maximise" in objective else "minimise"
    extra = sorted(set(objective) - {sense, "lineup", "subject_to"})
    if extra:
        raise GeolabError(f"objective: unknown key {extra[0]!r} (maximise or minimise, lineup, subject_to)")
    metric = _metric(objective[sense])
    objective_lineup = _lineup(objective.get("lineup", lineups[0]), lineups, metric)
    bounds = tuple(_bound(b, objective_lineup, lineups) for b in objective.get("subject_to", []))
    confidence = _number("search.confidence", search.get("confidence", 0.95))
    if not 0 < confidence < 1:
        raise GeolabError(f"search.confidence must lie between 0 and 1, got {confidence}")
    proposer = search.get("proposer", "grid")
    if proposer not in ("grid", "tpe"):
        raise GeolabError(f"search.proposer: grid or tpe, got {proposer!r}")
    numbers = {}
    for key, default, least in (("trials", 200, 1), ("batch", 20, 1), ("recheck", 20_000, 1), ("runners_up", 2, 0),
                                ("champions", CHAMPIONS, 0)):
        numbers[key] = _number(f"search.{key}", search.get(key, default), whole=True)
        if numbers[key] < least:
            raise GeolabError(f"search.{key} must be at least {least}, got {numbers[key]}")
    first_round = search.get("first_round")
    if first_round is not None:
        first_round = _number("search.first_round", first_round, whole=True)
    if numbers["trials"] > MAX_CANDIDATES:
        raise GeolabError(f"search.trials: at most {MAX_CANDIDATES:,}")
    spec = SearchSpec(game=entry.name, rules=rules, lineups=lineups, dimensions=dims, constraints=tuple(constraints),
                      metric=metric, sense=sense, objective_lineup=objective_lineup, bounds=bounds,
                      deals=int(data.get("deals", 100_000)), chunk=int(data.get("chunk", entry.game.block)),
                      seed=int(data.get("seed", 0)), confidence=float(confidence), proposer=proposer,
                      first_round=first_round, raw=data, **numbers)
    first_chunk = min(spec.chunk_size(), spec.deals)
    if first_round is not None and not 1 <= first_round < first_chunk:
        raise GeolabError(f"search.first_round must lie between 1 and the first chunk's deals (here "
                          f"{first_chunk:,}), less than it, got {first_round}")
    if check:
        for text in lineups:
            seating = lineup(split_bots(text), entry.game.seats(base))
            for name in dict.fromkeys(seating):
                entry.bots.make(name, base)
        Space(spec).check()
    return spec


def load_search(path) -> SearchSpec:
    return parse_search(read_toml(path, "search spec"))


# ----- constraints between fields, read safely -------------------------------------------------
_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.FloorDiv: operator.floordiv,
        ast.Mod: operator.mod, ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
        ast.Gt: operator.gt, ast.GtE: operator.ge, ast.In: lambda a, b: a in b, ast.NotIn: lambda a, b: a not in b,
        ast.USub: operator.neg, ast.Not: operator.not_}
_CALLS = {"len": len, "abs": abs, "min": min, "max": max, "sum": sum}
_WORDS = {"none": None, "true": True, "false": False}


class Expression:
    """A constraint between fields (``win_tricks < end_at``, ``len(bases) == tricks``,
    ``stage.end_at <= 6``, ``end_at == none or end_at > 4``), parsed with `ast` and walked
    here: names of fields, numbers, comparisons, and/or/not, + - * // %, indexing and len, abs,
    min, max, sum. Nothing else is evaluated (no Python `eval`)."""

    def __init__(self, text: str, names: set[str]):
        self.text = text
        try:
            self.tree = ast.parse(text, mode="eval").body
        except SyntaxError:
            raise GeolabError(f"search.constraints: {text!r} is not an expression over field names") from None
        inner = {id(n.value) for n in ast.walk(self.tree) if isinstance(n, ast.Attribute)}  # stage of stage.x
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Name | ast.Attribute) and id(node) not in inner and self._name(node) is not None:
                name = self._name(node)
                if name not in names and name.lower() not in _WORDS and name not in _CALLS:
                    raise GeolabError(f"search.constraints: {text!r} names {name!r}, not a field of these rules")

    @staticmethod
    def _name(node) -> str | None:
        if isinstance(node, ast.Name):
            return node.id
        if isinstance(node, ast.Attribute):
            inner = Expression._name(node.value)
            return None if inner is None else f"{inner}.{node.attr}"
        return None

    def __call__(self, values: dict) -> bool:
        try:
            return bool(self._eval(self.tree, values))
        except (TypeError, ValueError, ZeroDivisionError, IndexError) as error:
            raise GeolabError(f"search.constraints: {self.text!r} cannot be read for {values} ({error})") from None

    def _eval(self, node, values: dict):
        name = self._name(node)
        if name is not None:
            if name in values:
                return values[name]
            if name.lower() in _WORDS:
                return _WORDS[name.lower()]
            raise GeolabError(f"search.constraints: {self.text!r}: {name!r} is not a field")
        if isinstance(node, ast.Constant) and isinstance(node.value, int | float | str):
            return node.value
        if isinstance(node, ast.List | ast.Tuple):
            return [self._eval(e, values) for e in node.elts]
        if isinstance(node, ast.BoolOp):
            parts = (self._eval(v, values) for v in node.values)
            return all(parts) if isinstance(node.op, ast.And) else any(parts)
        if isinstance(node, ast.UnaryOp) and type(node.op) in _OPS:
            return _OPS[type(node.op)](self._eval(node.operand, values))
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            return _OPS[type(node.op)](self._eval(node.left, values), self._eval(node.right, values))
        if isinstance(node, ast.Compare) and all(type(op) in _OPS for op in node.ops):
            left = self._eval(node.left, values)
            for op, right_node in zip(node.ops, node.comparators):
                right = self._eval(right_node, values)
                if left is None or right is None:
                    ok = op.__class__ in (ast.Eq, ast.NotEq) and _OPS[type(op)](left, right)
                else:
                    ok = _OPS[type(op)](left, right)
                if not ok:
                    return False
                left = right
            return True
        if isinstance(node, ast.Subscript):
            return self._eval(node.value, values)[self._eval(node.slice, values)]
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _CALLS
                and not node.keywords):
            return _CALLS[node.func.id](*(self._eval(a, values) for a in node.args))
        raise GeolabError(f"search.constraints: {self.text!r}: {ast.unparse(node)!r} is not allowed "
                          "(fields, numbers, comparisons, and/or/not, + - * // %, [i], len abs min max sum)")


# ----- candidates -----------------------------------------------------------------------------
class Space:
    """The candidates of a spec: combinations of the dimensions' values that the rules accept
    and every constraint holds for."""

    def __init__(self, spec: SearchSpec):
        self.spec = spec
        self.base = spec.base_rules()
        names = {row["field"] for row in self.base.describe()}
        self.constraints = [Expression(text, names) for text in spec.constraints]

    def size(self) -> int:
        return math.prod(len(d.values) for d in self.spec.dimensions)

    def overrides(self, index: tuple[int, ...]) -> tuple[tuple[str, object], ...]:
        return tuple((d.field, d.values[i]) for d, i in zip(self.spec.dimensions, index))

    def why_not(self, overrides) -> str | None:
        """Why a combination is no candidate (the rules refuse it, or a constraint fails), or None."""
        try:
            rules = self.base.replace(**dict(overrides))
        except RulesError as error:
            return str(error)
        values = {row["field"]: row["value"] for row in rules.describe()}
        for c in self.constraints:
            if not c(values):
                return f"constraint {c.text!r}"
        return None

    def listed(self) -> list[tuple[tuple[str, object], ...]]:
        """Every candidate of the grid, in the order of the dimensions' values."""
        out = []
        for index in itertools.product(*(range(len(d.values)) for d in self.spec.dimensions)):
            overrides = self.overrides(index)
            if self.why_not(overrides) is None:
                out.append(overrides)
        return out

    def check(self) -> None:
        """Refuse a space with no candidate (one line naming why), before any work."""
        size = self.size()
        if self.spec.proposer == "grid":
            if size > MAX_CANDIDATES:
                raise GeolabError(f"search: the grid holds {size:,} combinations, more than {MAX_CANDIDATES:,}; "
                                  "use proposer = \"tpe\"")
            indexes = list(itertools.product(*(range(len(d.values)) for d in self.spec.dimensions)))
        else:
            rng = np.random.default_rng(self.spec.seed)
            draws = min(size, FEASIBILITY_DRAWS)
            indexes = ([tuple(int(rng.integers(len(d.values))) for d in self.spec.dimensions) for _ in range(draws)]
                       if size > FEASIBILITY_DRAWS else list(itertools.product(*(range(len(d.values))
                                                                                for d in self.spec.dimensions))))
        reasons: dict[str, int] = {}
        for index in indexes:
            why = self.why_not(self.overrides(index))
            if why is None:
                return
            reasons[why] = reasons.get(why, 0) + 1
        worst = max(reasons, key=reasons.get)
        drawn = "" if len(indexes) == size else f" of {len(indexes):,} drawn"
        raise GeolabError(f"search: no candidate{drawn} satisfies the space (impossible constraint): "
                          f"{worst} refuses {reasons[worst]:,} of {len(indexes):,}")


def name_of(overrides) -> str:
    """A candidate's name: its fields and values (``end_at=5,bases=[1,50,...]``)."""
    return ",".join(f"{k}={_shown(v)}" for k, v in overrides) or "official"


def _shown(value) -> str:
    return "none" if value is None else json.dumps(value, separators=(",", ":"))


# ----- one chunk ------------------------------------------------------------------------------
def run_chunk(game: str, rules: str, overrides: list, line_up: str, seed: int, start: int, n: int) -> dict:
    """One chunk of one candidate (runs in any process): `geolab.lab.sweep.chunk_row`."""
    entry = registry.get(game)
    played = entry.game.Rules.preset(rules).replace(**dict(overrides))
    return chunk_row(entry, played, line_up, seed, start, n)


def _warm(game: str, rules: str, lineups: list[str]) -> None:
    warm_unit({"game": game, "rules": rules, "deals": 1, "seed": 0, "chunk": 1, "objective": {},
               "lineups": lineups, "variants": {}})


# ----- racing ---------------------------------------------------------------------------------
@dataclass
class Candidate:
    index: int
    overrides: tuple
    status: str = "racing"  # racing, final, beaten, breaks <bound>, winner
    depth: int = 0  # deals of each line-up its intervals are read from (a depth of the schedule)
    played: int = 0  # chunks of each line-up on disk (a past best raced again replays none)
    probed: bool = False  # its first round's part of a chunk on disk (`first_round`)
    rows: dict = field(default_factory=dict)  # line-up -> metrics at the racing level
    dropped_round: int | None = None

    @property
    def name(self) -> str:
        return name_of(self.overrides)


class Search:
    """One search in its folder: the chunks on disk, the candidates, the rounds."""

    def __init__(self, spec: SearchSpec, out, pool: Pool, progress: Callable[[dict], None] | None = None):
        self.spec, self.out, self.pool, self.progress = spec, Path(out), pool, progress
        self.entry = spec.entry()
        self.candidates: list[Candidate] = []
        self.rounds: list[dict] = []
        self.spent = 0  # deals played (or read from disk) by all candidates, each line-up counted
        # TPE: every candidate proposed, and the best so far raced again with each batch
        self.planned = spec.trials + -(-spec.trials // spec.batch) if spec.proposer == "tpe" else None
        self.size = spec.chunk_size()

    # the union bound: every interval of every candidate, quantity and round at once
    def level(self, candidates: int) -> float:
        reads = candidates * len(self.spec.quantities()) * len(self.spec.depths())
        return 1 - (1 - self.spec.confidence) / reads

    def _path(self, kind: str, c: int, line: int, k: int) -> Path:
        return self.out / kind / f"c{c:06d}-l{line:03d}-k{k:06d}.json"

    def play(self, kind: str, wanted: list[tuple[Candidate, int]], seed: int, deals: int) -> dict:
        """The chunk rows of each (candidate, chunks), from disk or played; the totals of each
        candidate and line-up added in chunk order."""
        todo = []
        for cand, chunks in wanted:
            for line, text in enumerate(self.spec.lineups):
                for k in range(chunks):
                    if not self._path(kind, cand.index, line, k).is_file():
                        start = k * self.size
                        todo.append(((cand.index, line, k), run_chunk,
                                     (self.spec.game, self.spec.rules, [list(p) for p in cand.overrides], text, seed,
                                      start, min(self.size, deals - start))))

        by_index = {cand.index: cand for cand, _ in wanted}  # the official rules' re-check is no candidate

        def finished(key, row) -> None:
            c, line, k = key
            row = {"candidate": by_index[c].name, "lineup": self.spec.lineups[line], "chunk": k, **row}
            write_json(row, self._path(kind, c, line, k))

        if todo:
            self.pool.run(todo, finished)
        out = {}
        for cand, chunks in wanted:
            for line, text in enumerate(self.spec.lineups):
                rows = [json.loads(self._path(kind, cand.index, line, k).read_text()) for k in range(chunks)]
                if any(r["candidate"] != cand.name for r in rows):
                    raise GeolabError(f"{self.out}: chunk files of another search (candidate {cand.index} is not "
                                      f"{cand.name}); use a new --out")
                out[(cand.index, text)] = Totals.from_rows(rows)
        return out

    def estimate(self, cand: Candidate, metric: str, line_up: str):
        return estimate(cand.rows[line_up], metric, INTERVALS[metric])

    def oriented(self, cand: Candidate) -> tuple[float, float, float]:
        """The objective as larger-is-better: value, low, high."""
        e = self.estimate(cand, self.spec.metric, self.spec.objective_lineup)
        return (e.value, e.low, e.high) if self.spec.sense == "maximise" else (-e.value, -e.high, -e.low)

    def sure(self, cand: Candidate) -> bool:
        """Every bound met with the racing confidence (the whole interval inside it)."""
        for b in self.spec.bounds:
            e = self.estimate(cand, b.metric, b.lineup)
            if not (b.low <= e.low and e.high <= b.high):
                return False
        return True

    def breaks(self, cand: Candidate) -> Bound | None:
        """A bound the candidate's interval lies wholly outside, or None."""
        for b in self.spec.bounds:
            e = self.estimate(cand, b.metric, b.lineup)
            if e.high < b.low or e.low > b.high:
                return b
        return None

    def meets(self, cand: Candidate) -> bool:
        """Every bound met by the point estimate (how a uniform sweep reads its table)."""
        return all(b.low <= cand.rows[b.lineup][b.metric] <= b.high for b in self.spec.bounds)

    def deepen(self, wanted: list[tuple[Candidate, int]], level: float) -> None:
        """Play each candidate to its depth (deals; those on disk are read, not played) and read
        its intervals there; only depths of the schedule are ever asked for. The first round's
        part of a chunk (`first_round`) is a file of its own (`probe/`)."""
        spec, size, lines = self.spec, self.size, len(self.spec.lineups)
        wanted = [(c, d) for c, d in wanted if d != c.depth or not c.rows]
        probes = [(c, 1) for c, d in wanted if d == spec.first_round]
        whole = [(c, -(-d // size)) for c, d in wanted if d != spec.first_round]
        totals = self.play("probe", probes, spec.seed, spec.first_round) if probes else {}
        totals |= self.play("chunks", whole, spec.seed, spec.deals)
        for c, d in wanted:
            if d == spec.first_round and not c.probed:
                self.spent += lines * d
                c.probed = True
            elif d != spec.first_round and -(-d // size) > c.played:
                self.spent += lines * (d - min(c.played * size, spec.deals))
                c.played = -(-d // size)
            c.depth = d
            c.rows = {text: metrics(totals[(c.index, text)], level) for text in spec.lineups}

    def drop(self, alive: list[Candidate], r: int) -> None:
        """Drop, in round r, each candidate breaking a bound and each beaten by one sure to meet
        them all (each read at its own depth)."""
        sure = [c for c in alive if c.status == "racing" and self.sure(c)]
        best_low = max((self.oriented(c)[1] for c in sure), default=-math.inf)
        for c in alive:
            if c.status != "racing":
                continue
            broken = self.breaks(c)
            if broken is not None:
                c.status, c.dropped_round = f"breaks {broken.text()}", r
            elif self.oriented(c)[2] < best_low:
                c.status, c.dropped_round = "beaten", r

    def champion(self, alive: list[Candidate], r: int, level: float) -> Candidate | None:
        """Champion first: the most promising candidate (the best point estimate among those whose
        estimates meet the bounds) played deeper, depth after depth of the schedule, until it is
        sure to meet the bounds (and so beats every candidate whose interval lies below its lower
        end), breaks one, or has all its deals; then the next, `champions` in all. The deals go
        where the decision is still close instead of doubling every candidate while none is sure.
        Returns the last candidate played deeper (or the sure one at the top), or None."""
        schedule = self.spec.depths()
        tried: list[Candidate] = []
        while len(tried) < self.spec.champions:
            top = self.best_point([c for c in alive if c.status == "racing" and c not in tried])
            if top is None:
                return tried[-1] if tried else None
            if self.sure(top):
                return top
            tried.append(top)
            while top.status == "racing" and not self.sure(top) and top.depth < schedule[-1]:
                self.deepen([(top, next(d for d in schedule if d > top.depth))], level)
                self.drop(alive, r)
            if top.status == "racing" and self.sure(top):
                return top
        return tried[-1] if tried else None

    def race(self, field_: list[Candidate], total: int) -> None:
        """Race candidates round by round (`total`: the candidates the union bound covers): each
        round plays every candidate left to the round's depth (a champion already deeper keeps its
        depth), drops the bound-breaking and the beaten, then plays the champion deeper."""
        level = self.level(total)
        alive = [c for c in field_ if c.status == "racing"]
        for r, depth in enumerate(self.spec.depths()):
            if not alive:
                break
            before = self.spent
            self.deepen([(c, max(depth, c.depth)) for c in alive], level)
            self.drop(alive, r)
            field_spent = self.spent - before
            champ = self.champion(alive, r, level)
            alive = [c for c in alive if c.status == "racing"]
            self.rounds.append({"round": len(self.rounds), "deals_per_candidate": depth,
                                "alive": len(alive), "deals_spent": self.spent,
                                **self.champion_row(champ),
                                "champion_deals_spent": self.spent - before - field_spent, **self.best_so_far()})
            if self.progress:
                self.progress(self.status(alive))
            if len(alive) == 1 and self.sure(alive[0]):
                break
        for c in alive:
            c.status = "final"

    def champion_row(self, champ: Candidate | None) -> dict:
        """A round's champion in rounds.csv: its name, depth, and whether it ended sure, not sure
        (all its deals played) or dropped."""
        if champ is None:
            return {"champion": None, "champion_deals": 0, "champion_status": None}
        state = ("sure" if self.sure(champ) else "not sure") if champ.status == "racing" else champ.status
        return {"champion": champ.name, "champion_deals": champ.depth,
                "champion_status": state}

    def status(self, alive: list[Candidate]) -> dict:
        best = self.best([c for c in self.candidates if c.rows])
        last = self.rounds[-1] if self.rounds else {}
        return {"alive": len(alive), "deals": self.spent, "candidates": len(self.candidates),
                "best": None if best is None else best.name,
                "best_value": None if best is None else best.rows[self.spec.objective_lineup][self.spec.metric],
                "champion": last.get("champion"), "champion_deals": last.get("champion_deals"),
                "champion_status": last.get("champion_status")}

    def best_so_far(self) -> dict:
        """The best candidate after a round and its objective with the racing interval (the
        search plot's top-middle panel: how the answer settles as the deals grow)."""
        best = self.best([c for c in self.candidates if c.rows])
        if best is None:
            return {"best": None, "best_value": math.nan, "best_ci_low": math.nan, "best_ci_high": math.nan}
        e = self.estimate(best, self.spec.metric, self.spec.objective_lineup)
        return {"best": best.name, "best_value": e.value, "best_ci_low": e.low, "best_ci_high": e.high}

    def best_point(self, pool: list[Candidate]) -> Candidate | None:
        """The best objective point estimate among candidates whose estimates meet the bounds,
        whatever their depths; ties keep the candidate order."""
        ok = [c for c in pool if c.rows and self.meets(c)]
        return max(ok, key=lambda c: (self.oriented(c)[0], -c.index), default=None)

    def best(self, pool: list[Candidate]) -> Candidate | None:
        """The candidate a designer would pick from these: the most deals played, every bound
        met by the point estimate, then the best objective; ties keep the candidate order."""
        ok = [c for c in pool if c.rows and self.meets(c) and c.status in ("racing", "final", "winner")]
        if not ok:
            return None
        most = max(c.depth for c in ok)
        return max((c for c in ok if c.depth == most), key=lambda c: (self.oriented(c)[0], -c.index))

    def add(self, overrides) -> Candidate:
        cand = Candidate(len(self.candidates), tuple(overrides))
        self.candidates.append(cand)
        return cand


def run(spec: SearchSpec, out, workers: int = 1, scheduler: str | None = None, resume: bool = False,
        progress: Callable[[dict], None] | None = None) -> dict:
    """Run a search in `out` (chunks written as they finish; `resume` reads those on disk):
    the candidates, the rounds, the winner and runners-up re-checked on fresh deals."""
    out = Path(out)
    spec_file = out / "spec.json"
    if out.exists() and any(out.iterdir()):
        if not resume:
            raise GeolabError(f"{out}: exists and is not empty (use --resume to finish that search)")
        if not spec_file.is_file() or json.loads(spec_file.read_text()) != json.loads(json.dumps(spec.raw)):
            raise GeolabError(f"{out}: holds another search (its spec.json differs); resume it with its own spec")
    out.mkdir(parents=True, exist_ok=True)
    write_json(spec.raw, spec_file)
    warm = None
    if workers > 1 and not scheduler:
        import functools

        warm = functools.partial(_warm, spec.game, spec.rules, list(spec.lineups))
    with Pool(workers, scheduler, warm) as pool:
        search = Search(spec, out, pool, progress)
        if spec.proposer == "grid":
            listed = Space(spec).listed()
            for overrides in listed:
                search.add(overrides)
            search.race(search.candidates, len(search.candidates))
        else:
            propose(search)
        result = finish(search)
    return result


def uniform(spec: SearchSpec, overrides: list, out, workers: int = 1, scheduler: str | None = None) -> dict:
    """What a uniform sweep of the same candidates concludes: every candidate on all `deals`
    (`geolab.lab.sweep.run`, the same seed blocks), the best by point estimate among those
    whose point estimates meet the bounds. For the benchmark and the tests."""
    from geolab.lab import sweep

    data = {"game": spec.game, "rules": spec.rules, "bots": list(spec.lineups), "deals": spec.deals,
            "seed": spec.seed, "chunk": spec.chunk_size(),
            "variants": {f"c{i}": {k: "none" if v is None else v for k, v in o} for i, o in enumerate(overrides)}}
    plan = sweep.parse_spec(data)
    table = sweep.run(plan, out, workers=workers, scheduler=scheduler)
    best, value = None, -math.inf
    for i in range(len(overrides)):
        rows = {r["lineup"]: r for r in table[table["variant"] == f"c{i}"].to_dict("records")}
        if not all(b.low <= rows[b.lineup][b.metric] <= b.high for b in spec.bounds):
            continue
        v = rows[spec.objective_lineup][spec.metric] * (1 if spec.sense == "maximise" else -1)
        if v > value:
            best, value = i, v
    deals = len(overrides) * spec.deals * len(spec.lineups)
    return {"winner": None if best is None else name_of(overrides[best]), "index": best, "deals": deals}


def propose(search: Search) -> None:
    """Optuna's TPE proposes candidates in batches (its sampler seeded from the spec's seed);
    each batch is raced with the best candidate so far, and every candidate's objective (with
    how far it misses each bound, TPE's constraints) is told back in candidate order."""
    try:
        import optuna
    except ImportError:
        raise GeolabError("proposer = \"tpe\" needs Optuna: pip install 'geolab[search]'") from None
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    spec = search.spec
    space = Space(spec)
    dists = {d.field: optuna.distributions.IntDistribution(0, len(d.values) - 1) if d.kind == "range" else
             optuna.distributions.CategoricalDistribution(list(range(len(d.values)))) for d in spec.dimensions}
    # the bounds as TPE's constraints: Trial.set_constraint from Optuna 5, constraints_func before it
    modern = hasattr(optuna.trial.Trial, "set_constraint")
    old = {} if modern else {"constraints_func": lambda t: t.user_attrs["misses"]}
    sampler = optuna.samplers.TPESampler(seed=spec.seed, n_startup_trials=min(spec.batch, spec.trials), **old)
    study = optuna.create_study(direction="maximize", sampler=sampler)
    seen: dict[str, Candidate] = {}
    refused = 0
    while len(search.candidates) < spec.trials:
        batch: list[tuple[object, Candidate]] = []
        while len(batch) < min(spec.batch, spec.trials - len(search.candidates)):
            trial = study.ask(dists)
            overrides = space.overrides(tuple(trial.params[d.field] for d in spec.dimensions))
            key = name_of(overrides)
            if key in seen:  # asked again: the same answer, no deals
                batch.append((trial, seen[key]))
                continue
            if space.why_not(overrides) is not None:
                study.tell(trial, state=optuna.trial.TrialState.FAIL)
                refused += 1
                if refused > MAX_REFUSED:
                    raise GeolabError(f"search: TPE proposed {MAX_REFUSED:,} combinations the rules or constraints "
                                      "refuse; narrow the space")
                continue
            seen[key] = cand = search.add(overrides)
            batch.append((trial, cand))
            if len(search.candidates) >= spec.trials:
                break
        incumbent = search.best([c for c in search.candidates if c.rows])
        field_ = [c for _, c in batch if c.status == "racing"]
        if incumbent is not None and incumbent not in field_:
            incumbent.status = "racing"
            field_.append(incumbent)
        search.race(field_, search.planned)
        for trial, cand in batch:
            for i, miss in enumerate(misses(search, cand)):
                if modern:
                    trial.set_constraint(f"bound{i}", miss)
            trial.set_user_attr("misses", misses(search, cand))
            study.tell(trial, search.oriented(cand)[0])


def same_games(search: Search) -> dict[int, int | None]:
    """Per candidate, the first earlier candidate whose every quantity read the same on the same
    deals (rules that play the same games: Play the Ranks' end_at at or above win_tricks), or None."""
    first: dict[str, int] = {}
    out: dict[int, int | None] = {}
    for c in search.candidates:
        key = json.dumps([c.depth, [[c.rows[t][m] for m, t in search.spec.quantities()] if c.rows else c.index]])
        out[c.index] = first.setdefault(key, c.index) if c.rows else None
        if out[c.index] == c.index:
            out[c.index] = None
    return out


def misses(search: Search, cand: Candidate) -> list[float]:
    """How far the point estimate lies outside each bound (<= 0: inside), for TPE."""
    out = []
    for b in search.spec.bounds:
        v = cand.rows[b.lineup][b.metric]
        out.append(float(max(b.low - v, v - b.high)))
    return out


def finish(search: Search) -> dict:
    """The winner and runners-up re-checked on a fresh seed at 95% each, the tables, and the
    deals a uniform sweep would have played for the same confidence."""
    spec = search.spec
    ranked: list[Candidate] = []
    pool = [c for c in search.candidates if c.status == "final"]
    twins = same_games(search)
    while len(ranked) < 1 + spec.runners_up:  # runners-up that play other games than those picked
        pick = search.best([c for c in pool if c not in ranked and twins[c.index] is None])
        if pick is None:
            break
        ranked.append(pick)
    if ranked:
        ranked[0].status = "winner"
    fresh = int(np.random.SeedSequence([spec.seed, 1]).generate_state(1, np.uint32)[0])
    rechecked = []
    if ranked:
        size = search.size
        chunks = -(-spec.recheck // size)
        # the spec's base rules on the same fresh deals, the figures a recommendation stands beside;
        # a field given one value only is a setting of the study (players = 6), so the base has it too
        official = Candidate(len(search.candidates), tuple((d.field, d.values[0]) for d in spec.dimensions
                                                           if len(d.values) == 1))
        picked = ranked + [official]
        totals = search.play("recheck", [(c, chunks) for c in picked], fresh, spec.recheck)
        for place, c in enumerate(picked):
            base = c is official  # place 0, candidate -1: the base preset, searched or not
            row = {"place": 0 if base else place + 1, "candidate": -1 if base else c.index,
                   "name": ",".join([f"rules={spec.rules}"] + [name_of(c.overrides)] * bool(c.overrides)) if base
                   else c.name,
                   "overrides": json.dumps(dict(c.overrides)), "seed": fresh}
            for metric, text in spec.quantities():
                m = metrics(totals[(c.index, text)])
                e = estimate(m, metric, INTERVALS[metric])
                row |= {f"{metric}@{text}": e.value, f"{metric}@{text}_ci_low": e.low,
                        f"{metric}@{text}_ci_high": e.high, "deals": m["deals"]}
            rechecked.append(row)
    table = []
    for c in search.candidates:
        row = {"candidate": c.index, "name": c.name, "overrides": json.dumps(dict(c.overrides)), "status": c.status,
               "dropped_round": c.dropped_round, "deals": c.depth,
               "same_games_as": twins[c.index]}
        row |= {d.field: _shown(dict(c.overrides).get(d.field)) for d in spec.dimensions}
        for metric, text in spec.quantities():
            if c.rows:
                e = search.estimate(c, metric, text)
                row |= {f"{metric}@{text}": e.value, f"{metric}@{text}_ci_low": e.low,
                        f"{metric}@{text}_ci_high": e.high}
        table.append(row)
    uniform = len(search.candidates) * spec.deals * len(spec.lineups)
    winner_twins = [c.name for c in search.candidates if ranked and twins[c.index] == ranked[0].index]
    return {"candidates": pd.DataFrame(table), "rounds": pd.DataFrame(search.rounds), "same_as_winner": winner_twins,
            "recheck": pd.DataFrame(rechecked), "winner": ranked[0].name if ranked else None,
            "winner_overrides": dict(ranked[0].overrides) if ranked else None,
            "deals_spent": search.spent, "uniform_deals": uniform,
            "saving": uniform / search.spent if search.spent else math.nan,
            "racing_confidence_each": search.level(search.planned or len(search.candidates)),
            "fresh_seed": fresh}


def plot(result: dict, spec: SearchSpec):
    """The search on its top row (candidates racing, the best so far with its racing interval,
    deals spent against a uniform sweep's, over the rounds), and the objective against each
    field searched below."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    table, rounds = result["candidates"], result["rounds"]
    key = f"{spec.metric}@{spec.objective_lineup}"
    dims = spec.dimensions
    cols = 3
    rows = 1 + -(-len(dims) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.5 * cols, 3.4 * rows), squeeze=False)
    ax, best, spent = axes[0]
    if len(rounds):
        x = rounds["round"].to_numpy() + 1
        ax.step(np.r_[0, x], np.r_[len(table), rounds["alive"]], where="post", color="black")
        ax.set_xlabel("rounds played (a candidate's deals doubling each round)")
        ax.set_ylabel("candidates still racing")
        ax.set_title(f"{len(table):,} candidates", fontsize=9)
        if "best_value" in rounds:
            value = rounds["best_value"].to_numpy(float)
            err = [value - rounds["best_ci_low"].to_numpy(float), rounds["best_ci_high"].to_numpy(float) - value]
            best.errorbar(x, value, yerr=err, fmt="o-", color="tab:red", ms=4, capsize=3)
            changed = rounds["best"].ne(rounds["best"].shift())
            for r, name in zip(x[changed.to_numpy()], rounds["best"][changed]):
                best.annotate(f"{name}"[:40], (r, value[r - 1]), fontsize=5, rotation=20,
                              xytext=(2, 4), textcoords="offset points")
            best.set_xlabel("rounds played")
            best.set_ylabel(f"best so far: {spec.metric}", fontsize=7)
            best.set_title("the best candidate after each round (racing interval)", fontsize=9)
        else:
            best.axis("off")
        this = rounds["deals_spent"].diff().fillna(rounds["deals_spent"]).to_numpy(float)
        # tables written before champions have no such column (search_studies.py --replot)
        ahead = rounds["champion_deals_spent"].to_numpy(float) if "champion_deals_spent" in rounds else 0 * this
        spent.bar(x - 0.2, this - ahead, width=0.4, color="tab:blue", label="deals played to the round's depth")
        spent.bar(x + 0.2, ahead, width=0.4, color="tab:purple", label="deals the champion played ahead")
        spent.plot(x, rounds["deals_spent"], "o-", color="black", ms=3, label="deals spent so far")
        spent.axhline(result["uniform_deals"], color="tab:grey", ls="--", label="a uniform sweep")
        spent.set_yscale("log")
        spent.set_xlabel("rounds played")
        spent.set_ylabel("deals (every line-up counted)")
        spent.set_title(f"{result['deals_spent']:,} deals v {result['uniform_deals']:,} uniform "
                        f"({result['saving']:.1f}x fewer)", fontsize=9)
        spent.set_ylim(top=result["uniform_deals"] * 100)  # room for the legend above the uniform sweep's line
        spent.legend(fontsize=6, loc="upper right")
        ax.set_xticks(np.r_[0, x])  # whole rounds, however few
        best.set_xticks(x)
        spent.set_xticks(x)
    else:
        best.axis("off")
        spent.axis("off")
    colours = {"winner": "tab:red", "final": "tab:blue", "beaten": "tab:grey"}
    for i, d in enumerate(dims):
        a = axes[1 + i // cols][i % cols]
        labels = [_shown(v) for v in d.values]
        if key in table:
            x = table[d.field].map(lambda t, labels=labels: labels.index(t) if t in labels else -1)
            for status, part in table.assign(x=x).groupby(table["status"].str.split(" ").str[0]):
                err = [part[key] - part[f"{key}_ci_low"], part[f"{key}_ci_high"] - part[key]]
                a.errorbar(part["x"], part[key], yerr=err, fmt="o", ms=3, alpha=0.6, lw=0.6,
                           color=colours.get(status, "tab:orange"), label=status)
        if len(labels) <= 12:
            a.set_xticks(range(len(labels)), labels, rotation=45 if len(labels) > 4 else 0, fontsize=6, ha="right")
            a.set_xlabel(d.field)
        else:  # too many values to name: their order in the spec
            a.set_xlabel(f"{d.field} (the spec's choice number, of {len(labels)})")
        a.set_ylabel(spec.metric, fontsize=7)
        if i == 0:
            a.legend(fontsize=6)
    for j in range(len(dims), (rows - 1) * cols):
        axes[1 + j // cols][j % cols].axis("off")
    fig.suptitle(f"{spec.game}: {spec.sense} {spec.metric} ({spec.objective_lineup}); winner {result['winner']}",
                 fontsize=9)
    fig.tight_layout()
    return fig
