"""Sweeps: rule variants x line-ups x deals, cut into chunks, run anywhere, resumed exactly.

A sweep spec (TOML, or built in code) names a game, a base preset, the variants (each a set of
`Rules` overrides; a grid multiplies fields' values), the line-ups (bots by seat, as
``--bots``), the deals and the seed. The work is cut into chunks of whole seed blocks: chunk k
of every (variant, line-up) plays deals k*chunk .. of the seed, under every rotation of the
line-up (`geolab.lab.tables.duplicate`), so a chunk's numbers depend on the spec alone, never
on which worker ran it or when. A chunk keeps only running totals (`Totals`), which add up
exactly, and is written to its own file the moment it finishes; a sweep that is killed and
started again with ``--resume`` plays only the chunks that have no file, so its tables are
byte-identical to an uninterrupted run's. Executors: local processes (default) or a Dask
distributed cluster (``--scheduler ADDRESS``).
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import json
import tomllib
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from geolab import registry
from geolab.errors import GeolabError, RulesError
from geolab.game import split_bots
from geolab.lab.balance import metrics
from geolab.lab.results import write_json
from geolab.lab.tables import Totals, duplicate, lineup, warm_up

#: Most chunks one sweep may hold (a spec asking for more is refused before any work).
MAX_CHUNKS = 100_000


@dataclass(frozen=True)
class Variant:
    """A named set of rules overrides (the empty set is the base preset itself)."""

    name: str
    overrides: tuple[tuple[str, object], ...] = ()

    def rules(self, base):
        return base.replace(**dict(self.overrides)) if self.overrides else base


@dataclass(frozen=True)
class Spec:
    game: str
    rules: str
    variants: tuple[Variant, ...]
    lineups: tuple[str, ...]
    deals: int
    seed: int = 0
    chunk: int = 10_000
    objective: dict = field(default_factory=dict)

    def entry(self):
        return registry.get(self.game)

    def base_rules(self):
        Rules = self.entry().game.Rules
        return Rules.preset(self.rules or Rules.DEFAULT)

    def chunk_size(self) -> int:
        """`chunk` rounded up to whole seed blocks of the game."""
        block = self.entry().game.block
        return -(-self.chunk // block) * block if block <= self.chunk else block

    def units(self) -> list[tuple[int, int, int]]:
        """(variant index, line-up index, chunk index) of every chunk of work."""
        chunks = -(-self.deals // self.chunk_size())
        return [(v, line, k) for v in range(len(self.variants)) for line in range(len(self.lineups))
                for k in range(chunks)]

    def to_dict(self) -> dict:
        return {"game": self.game, "rules": self.rules, "deals": self.deals, "seed": self.seed, "chunk": self.chunk,
                "lineups": list(self.lineups), "objective": self.objective,
                "variants": {v.name: dict(v.overrides) for v in self.variants}}


def _variants(table: dict, grid: dict) -> list[Variant]:
    out = [Variant("official")]
    for name, overrides in table.items():
        if not isinstance(overrides, dict):
            raise GeolabError(f"variants.{name}: expected a table of field = value")
        out.append(Variant(str(name), tuple(sorted(overrides.items()))))
    if grid:
        keys = sorted(grid)
        for key in keys:
            if not isinstance(grid[key], list) or not grid[key]:
                raise GeolabError(f"grid.{key}: expected a non-empty list of values")
        for values in itertools.product(*(grid[k] for k in keys)):
            pairs = tuple(zip(keys, values))
            out.append(Variant(",".join(f"{k}={'none' if v is None else v}" for k, v in pairs), pairs))
    names = [v.name for v in out]
    if len(set(names)) != len(names):
        raise GeolabError(f"variants: a name is used twice in {', '.join(names)}")
    return out


def toml_value(value, nullable: bool = True):
    """TOML has no null: the text "none" stands for it in variants and grids, for a field
    that may be null (`nullable`); a text field whose values include "none" (Play the Ranks'
    ``bonus``) keeps the text."""
    if not nullable:
        return value
    if isinstance(value, str) and value.lower() == "none":
        return None
    if isinstance(value, list):
        return [toml_value(v) for v in value]
    return value


def _nullable(Rules, name: str) -> bool:
    """Whether a Rules field may be null (unknown fields count as nullable; the rules refuse them)."""
    kinds = {f.name: str(f.type) for f in dataclasses.fields(Rules)}
    return name not in kinds or "None" in kinds[name]


def spec_game(data: dict, known: set[str], what: str):
    """The registered game a spec (sweep, search) names, once its keys are all known ones."""
    unknown = sorted(set(data) - known)
    if unknown:
        raise GeolabError(f"{what}: unknown key {unknown[0]!r} (known: {', '.join(sorted(known))})")
    if "game" not in data:
        raise GeolabError(f"{what}: name the game (game = \"ranks\")")
    return registry.get(str(data["game"]))


def parse_spec(data: dict, check: bool = True) -> Spec:
    """A spec from a parsed TOML (or JSON) object; every variant is checked against the rules
    and every bot built once (`check`: off only for a chunk of a spec checked already)."""
    entry = spec_game(data, SPEC_KEYS, "sweep spec")
    Rules = entry.game.Rules
    variants = {k: {f: toml_value(v, _nullable(Rules, f)) for f, v in o.items()} if isinstance(o, dict) else o
                for k, o in data.get("variants", {}).items()}
    grid = {k: [toml_value(x, _nullable(Rules, k)) for x in v] if isinstance(v, list)
            else toml_value(v, _nullable(Rules, k)) for k, v in data.get("grid", {}).items()}
    bots = data.get("bots", [entry.simulate_bots])
    if isinstance(bots, str) or not bots or not all(isinstance(b, str) for b in bots):
        raise GeolabError("sweep spec: bots is a list of line-ups, e.g. [\"greedy\", \"planner,random\"]")
    for key in ("deals", "seed", "chunk"):
        if key in data and (isinstance(data[key], bool) or not isinstance(data[key], int) or data[key] < 0):
            raise GeolabError(f"sweep spec: {key} must be a whole number >= 0, got {data[key]!r}")
    spec = Spec(game=entry.name, rules=str(data.get("rules", entry.game.Rules.DEFAULT)),
                variants=tuple(_variants(variants, grid)), lineups=tuple(bots), deals=int(data.get("deals", 10_000)),
                seed=int(data.get("seed", 0)), chunk=int(data.get("chunk", 10_000)),
                objective=dict(data.get("objective", {})))
    if check:
        validate(spec)
    return spec


def read_toml(path, what: str) -> dict:
    """A TOML spec file's tables, or a one-line error naming the file and what it should be."""
    try:
        return tomllib.loads(Path(path).read_text())
    except OSError as error:
        raise GeolabError(f"{path}: cannot read ({error.strerror})") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise GeolabError(f"{path}: not a TOML {what} ({error})") from None


def load_spec(path) -> Spec:
    return parse_spec(read_toml(path, "sweep spec"))


def validate(spec: Spec) -> None:
    """Every variant's rules, every line-up's bots and the size, before any work."""
    if spec.deals < 1 or spec.chunk < 1:
        raise GeolabError("sweep spec: deals and chunk must be at least 1")
    base = spec.base_rules()
    entry = spec.entry()
    for v in spec.variants:
        try:
            rules = v.rules(base)
        except RulesError as error:
            raise GeolabError(f"variant {v.name!r}: {error}") from None
        for text in spec.lineups:
            seating = lineup(split_bots(text), entry.game.seats(rules))
            for name in dict.fromkeys(seating):
                entry.bots.make(name, rules)
    if len(spec.units()) > MAX_CHUNKS:
        raise GeolabError(f"sweep: {len(spec.units()):,} chunks is more than {MAX_CHUNKS:,}; raise chunk")


# ----- one chunk ------------------------------------------------------------------------------
def warm_unit(spec_dict: dict) -> None:
    """Compile (or load) the kernels the sweep's line-ups need (`geolab.lab.tables.warm_up`)."""
    spec = parse_spec(_as_spec_data(spec_dict), check=False)
    warm_up(spec.entry(), spec.base_rules(), [split_bots(line) for line in spec.lineups])


def run_unit(spec_dict: dict, unit: tuple[int, int, int]) -> dict:
    """Play one chunk and return its totals as a JSON-ready row (runs in any process)."""
    spec = parse_spec(_as_spec_data(spec_dict), check=False)
    v, line, k = unit
    variant, entry = spec.variants[v], spec.entry()
    size = spec.chunk_size()
    start = k * size
    row = chunk_row(entry, variant.rules(spec.base_rules()), spec.lineups[line], spec.seed, start,
                    min(size, spec.deals - start))
    return {"variant": variant.name, "lineup": spec.lineups[line], "chunk": k, **row}


def chunk_row(entry, rules, line_up: str, seed: int, start: int, n: int) -> dict:
    """The totals of deals start .. start + n of `seed` under every rotation of a line-up, as
    a JSON-ready row (`Totals.to_row`): one chunk of a sweep or of a rule search."""
    seating = lineup(split_bots(line_up), entry.game.seats(rules))
    turns, played = duplicate(entry, rules, seating, n, seed, bots=None, start=start, threads=1)
    totals = Totals(seating, entry.game.seats(rules))
    totals.add(turns, played)
    return totals.to_row()


def _as_spec_data(d: dict) -> dict:
    """`Spec.to_dict` back into parse_spec's input (variants already expanded: no grid)."""
    data = {k: d[k] for k in ("game", "rules", "deals", "seed", "chunk", "objective")}
    data["bots"] = d["lineups"]
    data["variants"] = {name: o for name, o in d["variants"].items() if name != "official"}
    return data


# ----- running a sweep ------------------------------------------------------------------------
def _chunk_path(out: Path, unit: tuple[int, int, int]) -> Path:
    return out / "chunks" / f"v{unit[0]:04d}-l{unit[1]:03d}-c{unit[2]:06d}.json"


def run(spec: Spec, out, workers: int = 1, scheduler: str | None = None, resume: bool = False,
        progress: Callable[[int, int], None] | None = None) -> pd.DataFrame:
    """Run every chunk not yet on disk, writing each as it finishes; then the summary table."""
    out = Path(out)
    spec_file = out / "spec.json"
    if out.exists() and any(out.iterdir()):
        if not resume:
            raise GeolabError(f"{out}: exists and is not empty (use --resume to finish that sweep)")
        if not spec_file.is_file() or json.loads(spec_file.read_text()) != spec.to_dict():
            raise GeolabError(f"{out}: holds another sweep (its spec.json differs); resume it with its own spec")
    out.mkdir(parents=True, exist_ok=True)
    write_json(spec.to_dict(), spec_file)
    todo = [u for u in spec.units() if not _chunk_path(out, u).is_file()]
    total, done = len(spec.units()), len(spec.units()) - len(todo)
    payload = spec.to_dict()

    def finished(unit, row) -> None:
        nonlocal done
        write_json(row, _chunk_path(out, unit))
        done += 1
        if progress:
            progress(done, total)

    if todo:
        with Pool(workers, scheduler, functools.partial(warm_unit, payload)) as pool:
            pool.run([(u, run_unit, (payload, u)) for u in todo], finished)
    table = summary(spec, out)
    table.to_csv(out / "summary.csv", index=False)
    return table


class Pool:
    """Where chunks run: this process (`workers` 1), local processes, or a Dask cluster
    (`scheduler`), kept open across calls of `run` (a rule search runs round after round).
    `warm` compiles the kernels first, in a process of its own, so that the workers load them
    from the cache, and are forked from a process that never ran OpenMP threads (GNU OpenMP
    aborts a child forked after them)."""

    def __init__(self, workers: int = 1, scheduler: str | None = None, warm: Callable[[], None] | None = None):
        self.workers, self.scheduler, self.warm = workers, scheduler, warm
        self.pool = self.client = None

    def __enter__(self) -> Pool:
        if self.scheduler:
            try:
                from dask.distributed import Client
            except ImportError:
                raise GeolabError("--scheduler needs Dask: pip install 'geolab[dask]'") from None
            try:
                self.client = Client(self.scheduler, timeout="10s")
            except (OSError, TimeoutError) as error:
                raise GeolabError(f"--scheduler {self.scheduler}: cannot connect ({error})") from None
        elif self.workers > 1:
            if self.warm is not None:
                with ProcessPoolExecutor(1) as warm:
                    warm.submit(self.warm).result()
            self.pool = ProcessPoolExecutor(self.workers)
        return self

    def __exit__(self, *exc) -> bool:
        if self.client is not None:
            self.client.close()
        if self.pool is not None:
            self.pool.shutdown(cancel_futures=True)
        return False

    def run(self, calls: Sequence[tuple[object, Callable, tuple]], finished: Callable[[object, dict], None]) -> None:
        """Each (key, function, arguments) called; `finished(key, result)` as each ends (in
        any order: whatever is added up from the results must be added in an order of its own).

        Calls go to the workers in tasks of up to `CALLS_A_TASK` (at least `TASKS_A_WORKER`
        tasks a worker while there are calls enough; calls dealt round-robin, so dear and cheap
        ones mix): a chunk can be a few milliseconds of play, and one task a chunk spent much of
        the workers' time on scheduling and messages."""
        if self.client is None and self.pool is None:
            for key, f, a in calls:
                finished(key, f(*a))
            return
        workers = len(self.client.scheduler_info()["workers"]) if self.client is not None else self.workers
        parts = max(1, min(len(calls), max(max(workers, 1) * TASKS_A_WORKER, -(-len(calls) // CALLS_A_TASK))))
        tasks = [list(calls[i::parts]) for i in range(parts)]
        if self.client is not None:
            from dask.distributed import as_completed as dask_completed

            futures = [self.client.submit(run_calls, task, pure=False) for task in tasks]
            done = dask_completed(futures)
        else:
            futures = [self.pool.submit(run_calls, task) for task in tasks]
            done = as_completed(futures)
        for future in done:
            for key, result in future.result():
                finished(key, result)


#: Tasks a worker is given a call of `Pool.run` at least (a few, so that the last ones balance
#: the load), and calls a task at most (so progress and a resumed run lose little).
TASKS_A_WORKER = 4
CALLS_A_TASK = 16


def run_calls(calls: Sequence[tuple[object, Callable, tuple]]) -> list[tuple[object, dict]]:
    """(key, result) of each call, in a worker: one task of `Pool.run`."""
    return [(key, f(*a)) for key, f, a in calls]


#: Keys that make a TOML file a sweep spec (anything else is a flat table of rules fields).
SPEC_KEYS = {"game", "rules", "variants", "grid", "bots", "deals", "seed", "chunk", "objective"}


def load_variant(path, game: str, name: str | None = None, official: str | None = None):
    """A variant from a TOML file (``geolab balance --variant``), read by the sweep spec's parser and
    checked as any sweep variant is (unknown field, wrong type, impossible combination):
    either a sweep spec for `game` (the variant named `name`, or its only one besides the
    official rules) or a flat table of rules fields (``end_at = "none"``; "none" is null).
    `official` (``--rules``): the preset the variant changes; a spec naming another is refused.
    Returns (the variant's name, its rules, the official rules it changes)."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text())
    except OSError as error:
        raise GeolabError(f"--variant {path}: cannot read ({error.strerror})") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise GeolabError(f"--variant {path}: not a TOML file ({error})") from None
    if not data:
        raise GeolabError(f"--variant {path}: empty (write rules fields, e.g. end_at = 5, or a sweep spec)")
    if not SPEC_KEYS & set(data):
        data = {"game": game, "variants": {path.stem: data}}
    if str(data.get("game", game)) != game:
        raise GeolabError(f"--variant {path}: a spec for game {data['game']!r}, not {game!r}")
    data = {"game": game, **{k: v for k, v in data.items() if k != "game"}}
    if official is not None:
        if "rules" in data and str(data["rules"]) != official:
            raise GeolabError(f"--variant {path}: changes rules {data['rules']!r}, but --rules is {official!r}")
        data["rules"] = official
    try:
        spec = parse_spec(data)
    except GeolabError as error:
        raise GeolabError(f"--variant {path}: {error}") from None
    named = [v for v in spec.variants if v.name != "official"]
    if name is not None:
        chosen = next((v for v in named if v.name == name), None)
        if chosen is None:
            raise GeolabError(f"--variant {path}: no variant {name!r} (variants: "
                              f"{', '.join(v.name for v in named) or 'none'})")
    elif len(named) == 1:
        chosen = named[0]
    else:
        raise GeolabError(f"--variant {path}: holds {len(named)} variants; pick one with --name "
                          f"({', '.join(v.name for v in named) or 'none'})")
    base = spec.base_rules()
    return chosen.name, chosen.rules(base), base


def load_chunks(spec: Spec, out) -> list[dict]:
    rows = []
    for unit in spec.units():
        path = _chunk_path(Path(out), unit)
        if not path.is_file():
            raise GeolabError(f"{path}: missing (run the sweep with --resume to finish it)")
        rows.append(json.loads(path.read_text()))
    return rows


def summary(spec: Spec, out) -> pd.DataFrame:
    """One row per (variant, line-up): the chunks' totals added up, then the metrics of
    `geolab.lab.balance.metrics` with their intervals."""
    rows = []
    chunks = load_chunks(spec, out)
    for variant in spec.variants:
        for text in spec.lineups:
            parts = [r for r in chunks if r["variant"] == variant.name and r["lineup"] == text]
            totals = Totals.from_rows(parts)
            rows.append({"variant": variant.name, "lineup": text,
                         "overrides": json.dumps(dict(variant.overrides)), **metrics(totals)})
    return pd.DataFrame(rows)


def rank(table: pd.DataFrame, objective: dict) -> pd.DataFrame:
    """Variants ranked by a stated objective: ``minimise`` a metric column (e.g.
    ``seat_gap``), subject to ``keep_at_least`` {metric: the official rules' value minus a
    tolerance} constraints. A row that does not measure a constrained metric (NaN: the skill
    columns of a self-play line-up) is not held to it. The best first; ties keep the spec's order."""
    key = objective.get("minimise", "seat_gap")
    if key not in table.columns:
        raise GeolabError(f"objective: unknown metric {key!r} (metrics: "
                          f"{', '.join(c for c in table.columns if c not in ('variant', 'lineup', 'overrides'))})")
    ok = pd.Series(True, index=table.index)
    official = table[table["variant"] == "official"]
    for metric, tolerance in objective.get("keep_at_least", {}).items():
        if metric not in table.columns:
            raise GeolabError(f"objective: unknown metric {metric!r}")
        floor = official[metric].min() - float(tolerance)
        ok &= table[metric].isna() | (table[metric] >= floor)
    ranked = table[ok].copy()
    ranked["order"] = np.arange(len(ranked))
    return ranked.sort_values([key, "order"], kind="stable").drop(columns="order").reset_index(drop=True)
