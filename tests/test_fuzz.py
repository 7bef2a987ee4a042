"""Bad-input fuzzing (issue 15): hypothesis mutates valid records of every registered game
(the minimal test-only High Card included), Rules specs and command lines, and holds geolab to its
promise about every input:

- a record: ``geolab replay FILE`` exits 0 only when the file is a valid record whose replay
  equals its claimed result, and then the record *is* the record of the game it replays to
  (`to_record` of the replay, up to the keys the formats document as optional); otherwise it
  exits 2 with exactly one line on stderr; never a traceback, always within `TIME_LIMIT`;
- a Rules spec: `Rules.from_spec` gives valid rules (which round-trip through their spec and
  play on both engines) or one short `RulesError` line, nothing else;
- a command line (simulate, arena, rules, bots on the minimal test-only game, small sizes): exit 0 or 2
  with one line, and 2 whenever a number is out of its range.

Sizes: by default (CI) a few hundred inputs, the file in well under a minute on 2 cores;
``pytest -m fuzz`` (or ``GEOLAB_FUZZ=large``) runs the large sizes, more than 10,000
generated inputs in all. The counts are printed at the end of the run
(docs/reliability.md, "Inputs").
"""

from __future__ import annotations

import contextlib
import copy
import functools
import io
import json
import os
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from people import RandomPerson

from geolab import records, registry
from geolab.cards import CATEGORIES, POSTAL
from geolab.cli import main
from geolab.errors import GeolabError, RulesError
from geolab.game import shown
from geolab.lab.play import Match, play_match, seat_bots
from geolab.lab.tables import lineup
from geolab.stepwise import RandomSeat as RandomLegal
from geolab.web.sessions import Store

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.fuzz

LARGE = os.environ.get("GEOLAB_FUZZ", "").lower() == "large"
GAMES = registry.names()
#: generated inputs per test (per game where the test is per game)
SIZES = {"records": 2500, "sessions": 600, "rules": 600, "cli": 600, "structure": 2500, "structure sessions": 300,
         "processes": 40} if LARGE else \
    {"records": 100, "sessions": 30, "rules": 40, "cli": 40, "structure": 100, "structure sessions": 12, "processes": 4}
#: the most one input may take (a replay, a Rules check with its games, a small command)
TIME_LIMIT = {"records": 10.0, "rules": 20.0, "cli": 60.0}
COUNTS: Counter = Counter()  # generated inputs, by test and game
OUTCOMES: Counter = Counter()  # what became of them
MUTATIONS: Counter = Counter()  # the structural changes made to records
SETTINGS = dict(deadline=None, database=None, derandomize=not LARGE,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture, HealthCheck.filter_too_much])


@pytest.fixture(scope="module", autouse=True)
def report_counts(request):
    start = time.perf_counter()
    yield
    line = (f"fuzz ({'large' if LARGE else 'small'}): {sum(COUNTS.values()):,} generated inputs "
            f"({', '.join(f'{k} {v:,}' for k, v in sorted(COUNTS.items()))}); outcomes "
            f"{', '.join(f'{k} {v:,}' for k, v in sorted(OUTCOMES.items()))}; record mutations "
            f"{', '.join(f'{k} {v:,}' for k, v in sorted(MUTATIONS.items()))}; {time.perf_counter() - start:.0f} s")
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    if reporter is not None:
        with capture.global_and_fixture_disabled() if capture else contextlib.nullcontext():
            reporter.write_line("")
            reporter.write_line(line)
    out = os.environ.get("GEOLAB_FUZZ_COUNTS")
    if out:
        Path(out).write_text(json.dumps({"large": LARGE, "counts": COUNTS, "outcomes": OUTCOMES, "mutations": MUTATIONS,
                                         "seconds": time.perf_counter() - start}) + "\n")


# ----- running the command line -----------------------------------------------------------
def geolab(argv: list[str]) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of the command line, in this process. A usage error's
    SystemExit counts as its code; any other exception escapes (a failure: a traceback)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as stop:
            code = stop.code
    return code, out.getvalue(), err.getvalue()


def assert_one_line_or_success(code: int, err: str, what) -> None:
    assert "Traceback" not in err, (what, err)
    assert code in (0, 2), (what, code, err)
    if code == 2:
        lines = err.strip().splitlines()
        assert len(lines) == 1 and "error" in lines[0], (what, err)


# ----- valid records to start from ---------------------------------------------------------
_BASES: dict[str, list[dict]] = {}


def base_records(game: str) -> list[dict]:
    """Valid records of `game`: random legal play on the reference engine under every preset,
    and the batch engine's games of its default line-up (JSON round-tripped)."""
    if game not in _BASES:
        entry = registry.get(game)
        out = []
        rng = np.random.default_rng(2024)
        for preset in entry.game.Rules.PRESETS:
            rules = entry.game.Rules.preset(preset)
            for _ in range(3):
                seats = [RandomLegal(rng) for _ in range(entry.game.seats(rules))]
                out.append(entry.game.to_record(entry.game.play(rules, entry.game.deal(rules, rng), seats)))
        rules = entry.game.Rules.preset(entry.game.Rules.DEFAULT)
        bots = [entry.bots.make(n, rules) for n in lineup(entry.simulate_bots.split(","), entry.game.seats(rules))]
        out += entry.game.batch_records(rules, bots, 3, 5)
        _BASES[game] = [json.loads(json.dumps(r)) for r in out]
    return _BASES[game]


# ----- the oracle: an accepted record is the record of the game it replays to ---------------
def _same(a, b) -> bool:
    """Equal as JSON, types included (true is not 1, 2.0 is not 2; -0.0 is 0.0)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a == b


def _ranks_optional(got: dict, canon: dict, report: dict, rules) -> None:
    """Play the Ranks' documented optional keys: ``first_lead`` where the discards decide it
    (agreeing), a trick's ``leader`` (agreeing) and ``base`` where the rules fix it (agreeing)."""
    if "first_lead" in got and "first_lead" not in canon:
        assert _same(got.pop("first_lead"), report["first_lead"]), "first_lead accepted but wrong"
    for t, (mine, theirs) in enumerate(zip(got.get("tricks", []), canon["tricks"])):
        if "leader" in mine:
            leader = report["first_lead"] if t == 0 else report["trick_winners"][t - 1]
            assert _same(mine.pop("leader"), leader), f"trick {t + 1}: a wrong leader accepted"
        if "base" in mine and "base" not in theirs:
            assert _same(mine.pop("base"), rules.base_of(t, got.get("power_bases"))), f"trick {t + 1}: wrong base"


def _jumbled_optional(got: dict, canon: dict, report: dict, rules) -> None:
    """Jumbled's optional ``dealer`` of a round (it follows from the round's number)."""
    for mine, theirs in zip(got.get("rounds", []), canon["rounds"]):
        if isinstance(mine, dict) and "dealer" not in mine:
            mine["dealer"] = theirs["dealer"]


OPTIONAL = {"ranks": _ranks_optional, "jumbled": _jumbled_optional}


def assert_is_the_record_of_its_replay(entry, record) -> None:
    """The no-wrong-acceptance check for a record geolab accepted."""
    played = entry.game.replay(copy.deepcopy(record))
    canon = json.loads(json.dumps(entry.game.to_record(played)))
    report = json.loads(json.dumps(entry.game.report(played)))
    got = copy.deepcopy(record)
    for key in ("seed", "players"):  # free envelope values, their types checked by check_envelope
        got.pop(key, None)
    claimed = got.pop("result", None)
    canon.pop("result", None)
    if claimed is not None:
        assert isinstance(claimed, dict) and set(claimed) <= set(report), "a result key the report lacks"
        for key, value in claimed.items():
            assert _same(value, report[key]), f"result.{key} accepted but the replay gives {report[key]!r}"
    Rules = entry.game.Rules
    rules = Rules.from_spec(canon.pop("rules"))
    assert "rules" in got, "a record without rules accepted"
    assert Rules.from_spec(got.pop("rules")) == rules, "the rules accepted are not the game's"
    OPTIONAL.get(entry.name, lambda *a: None)(got, canon, report, rules)
    assert _same(got, canon), "accepted a record that is not the record of the game it replays to"


# ----- mutations ----------------------------------------------------------------------------
ODD_VALUES = [None, True, False, 0, 1, -1, 2, 2.0, 1.5, -0.0, "", "A", "B", "x", "yes", "true", "1",
              [], {}, [1], [None], ["A"], {"A": 1}, 2**63 - 1, 2**63, -(2**63) - 1, 10**18, 1e300]
JSON = st.recursive(st.none() | st.booleans() | st.integers(-(10**20), 10**20)
                    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=6),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
                    max_leaves=6)


#: A whole number of more than 4,300 digits: Python will not print it (``str`` raises), so a
#: reader must check or `shown` it first. Only in-process: no record file holds one (`records.parse`).
UNPRINTABLE = st.integers(4301, 6000).map(lambda digits: 10 ** digits - 1) | st.just(-(7 ** 6000))
#: What structural fuzzing puts in place of any value: a list, an object, null, a bool, a float
#: (NaN and infinities only in-process), an odd whole number, a string, a wrong postal code.
STRUCTURE = {
    "list": st.lists(JSON, max_size=3),
    "object": st.dictionaries(st.text(max_size=5) | st.sampled_from(["A", "B", "game", "rules", "x"]), JSON,
                              max_size=3),
    "null": st.none(),
    "bool": st.booleans(),
    "float": st.sampled_from([1.5, -0.0, 2.0, 0.1, 1e300, -1e300]),
    "int": st.sampled_from([-1, 0, 1, 51, 2**63 - 1, 2**63, -(2**63) - 1, 10**19]) | st.integers(-(10**6), 10**6),
    "string": st.text(max_size=8) | st.sampled_from(["", "A", "B", "none", "wrong", "standard", "combo1", "size"]),
    "postal code": st.sampled_from(["XX", "ga", "G A", "NY ", "", "A", "usa"]),
}
IN_PROCESS = {**STRUCTURE, "huge int": UNPRINTABLE,
              "float": STRUCTURE["float"] | st.sampled_from([float("nan"), float("inf"), -float("inf")])}


def _children(value, path):
    keys = list(value) if isinstance(value, dict) else range(len(value)) if isinstance(value, list) else []
    return [(value, k, (*path, k)) for k in reversed(keys)]


def _places(value):
    """Every (container, key, path) in a JSON value, depth first (walked without recursion:
    a mutated value may be nested hundreds deep)."""
    stack = _children(value, ())
    while stack:
        container, key, path = stack.pop()
        yield container, key, path
        stack.extend(_children(container[key], path))


def _kind(path) -> tuple:
    """A place's kind: its path with list indices left out (``games.#.phases.#.guesser``)."""
    return tuple("#" if isinstance(k, int) else k for k in path)


def _pick(data, items, label):
    items = list(items)
    if not items:
        return None
    return items[data.draw(st.integers(0, len(items) - 1), label=label)]


def _place(data, record, label: str = "where", keep=lambda value: True):
    """A random (container, key) of the record: its kind drawn first, then one place of that
    kind, so a key met once (a Combo 1 game's ``game``, deep inside a nested record) is drawn
    as often as one met a thousand times (a postal code in a hand)."""
    places = [(c, k, path) for c, k, path in _places(record) if keep(c[k])]
    kinds = sorted({_kind(path) for _, _, path in places})
    kind = _pick(data, kinds, f"{label} kind")
    if kind is None:
        return None
    c, k, _ = _pick(data, [p for p in places if _kind(p[2]) == kind], label)
    return c, k


def _containers(record, kind):
    """The record and every list or object in it that is a `kind`."""
    return [record] * isinstance(record, kind) + [c[k] for c, k, _ in _places(record) if isinstance(c[k], kind)]


def _strings(record):
    return [(c, k) for c, k, _ in _places(record) if isinstance(c[k], str)]


def _nested(value, depth: int, as_object: bool):
    for _ in range(depth):
        value = {"x": value} if as_object else [value]
    return value


OPS = ["delete", "retype", "structure", "structure", "structure", "duplicate card", "foreign card", "swap", "add key",
       "tweak number", "swap string", "nest", "json value", "move value", "valid change"]


def mutate(data, record: dict, in_process: bool = False) -> dict:
    """One structural change of a record (a copy) at a random place (`_place`): any value
    replaced by a list, an object, null, a bool, a float, an odd number, a string, a wrong
    postal code (``structure``; `in_process` adds whole numbers of thousands of digits and
    NaN), nested deep, deleted, moved, or a key added; cards duplicated or foreign, lists
    shuffled, numbers nudged, strings swapped, arbitrary JSON; or a change the record stays
    valid under (``valid change``)."""
    record = copy.deepcopy(record)
    op = data.draw(st.sampled_from(OPS), label="op")
    MUTATIONS[op] += 1
    place = _place(data, record)
    if op == "delete":
        if place:
            del place[0][place[1]]
    elif op in ("retype", "json value", "structure"):
        if place:
            if op == "structure":
                values = IN_PROCESS if in_process else STRUCTURE
                kind = data.draw(st.sampled_from(sorted(values)), label="kind")
                MUTATIONS[f"structure: {kind}"] += 1
                value = data.draw(values[kind], label="value")
            else:
                value = data.draw(st.sampled_from(ODD_VALUES) if op == "retype" else JSON, label="value")
            place[0][place[1]] = value
    elif op == "duplicate card":
        cards = [(c, k) for c, k in _strings(record) if c[k] in POSTAL]
        a, b = _pick(data, cards, "from"), _pick(data, cards, "to")
        if a and b:
            b[0][b[1]] = a[0][a[1]]
    elif op == "foreign card":
        cards = [(c, k) for c, k in _strings(record) if c[k] in POSTAL]
        where = _pick(data, cards, "card")
        if where:
            held = {c[k] for c, k in cards}
            outside = [p for p in POSTAL if p not in held] or list(POSTAL)
            where[0][where[1]] = data.draw(st.sampled_from(outside + ["XX", "ga", "G A", "", "NY "]), label="card")
    elif op == "swap":
        target = _place(data, record, "list", keep=lambda v: isinstance(v, list) and len(v) >= 2)
        if target:
            items = target[0][target[1]]
            i, j = data.draw(st.integers(0, len(items) - 1)), data.draw(st.integers(0, len(items) - 1))
            items[i], items[j] = items[j], items[i]
    elif op == "add key":
        target = _pick(data, _containers(record, dict), "object")
        names = sorted({k for _, k, _ in _places(record) if isinstance(k, str)})
        key = data.draw(st.sampled_from(names + ["note", "base", "leader", "dealer", "first_lead", "geopower", "Z"])
                        | st.text(max_size=6), label="key")
        values = IN_PROCESS if in_process else STRUCTURE
        value = data.draw(st.sampled_from(ODD_VALUES) | st.one_of(*values.values()), label="value")
        target.setdefault(key, value)
    elif op == "tweak number":
        where = _place(data, record, "number",
                       keep=lambda v: isinstance(v, (int, float)) and not isinstance(v, bool) and abs(v) <= 2**64)
        if where:
            container, key = where
            v = container[key]
            container[key] = data.draw(st.sampled_from([v + 1, v - 1, -v, float(v), v + 0.5, 2**63, 10**19, 0]),
                                       label="number")
    elif op == "swap string":
        strings = _strings(record)
        where, other = _pick(data, strings, "where"), _pick(data, strings, "other")
        words = ["A", "B", "C", "S1", "S2", "top-dog", "bottoms-up", *CATEGORIES, "starting", "championship",
                 "combo1", "standard", "default", "border-up", "state-iq", "dashing-states", "play-the-ranks"]
        if where:
            where[0][where[1]] = other[0][other[1]] if data.draw(st.booleans()) else data.draw(st.sampled_from(words))
    elif op == "move value":  # a value of one place put in another (a hand where a trick belongs ...)
        other = _place(data, record, "from")
        if place and other:
            place[0][place[1]] = copy.deepcopy(other[0][other[1]])
    elif op == "valid change":  # changes a valid record stays valid under (the oracle's own check)
        change = data.draw(st.sampled_from(["drop result", "drop a result key", "seed", "players", "none"]))
        claimed = record.get("result")
        if change == "drop result":
            record.pop("result", None)
        elif change == "drop a result key" and isinstance(claimed, dict) and claimed:
            claimed.pop(data.draw(st.sampled_from(sorted(claimed))))
        elif change == "seed":
            record["seed"] = data.draw(st.integers(0, 2**63 - 1))
        elif change == "players":
            record["players"] = {"A": data.draw(st.text(max_size=8)), "B": "a person"}
    elif op == "nest":
        depth = data.draw(st.integers(1, 150 if in_process else 60), label="depth")
        if place and max((len(path) for _, _, path in _places(record)), default=0) < 100:
            place[0][place[1]] = _nested(place[0][place[1]], depth, data.draw(st.booleans(), label="as object"))
    return record


def to_text(data, record) -> bytes:
    """The record's JSON text, sometimes damaged as text: cut short, bytes that are not
    UTF-8, a number of thousands of digits, deep nesting, a byte-order mark, oversize."""
    text = json.dumps(record, indent=data.draw(st.sampled_from([None, 1]), label="indent")).encode()
    op = data.draw(st.sampled_from(["none", "none", "none", "truncate", "bad utf-8", "big number", "deep", "bom",
                                    "oversize"]), label="text op")
    if op == "truncate":
        text = text[: data.draw(st.integers(0, max(0, len(text) - 1)), label="cut")]
    elif op == "bad utf-8":
        at = data.draw(st.integers(0, len(text)), label="at")
        text = text[:at] + data.draw(st.sampled_from([b"\xff", b"\xc3\x28", b"\xe9", b"\x80\x80"])) + text[at:]
    elif op == "big number":
        digits = data.draw(st.integers(20, 6000), label="digits")
        text = text.replace(b'"format"', b'"seed": ' + b"7" * digits + b', "format"', 1) if data.draw(st.booleans()) \
            else text.replace(b"[", b"[" + b"9" * digits + b", ", 1)
    elif op == "deep":
        depth = data.draw(st.sampled_from([33, 100, 1000, 5000, 100_000]), label="depth")
        text = b"[" * depth + text + b"]" * depth
    elif op == "bom":
        text = b"\xef\xbb\xbf" + text
    elif op == "oversize":
        text = text[:-1] + b" " * (10 * 1024 * 1024) + text[-1:]
    return text


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=SIZES["records"], **SETTINGS)
@given(data=st.data())
def test_mutated_records_are_refused_in_one_line_or_are_valid_records(game, data, tmp_path_factory):
    entry = registry.get(game)
    bases = base_records(game)
    record = bases[data.draw(st.integers(0, len(bases) - 1), label="base")]
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        record = mutate(data, record)
    text = to_text(data, record)
    path = tmp_path_factory.mktemp("record") / "record.json"
    path.write_bytes(text)
    start = time.perf_counter()
    code, _, err = geolab(["replay", str(path)])
    seconds = time.perf_counter() - start
    COUNTS[f"records {game}"] += 1
    OUTCOMES["refused" if code == 2 else "accepted" if code == 0 else f"exit {code}"] += 1
    assert_one_line_or_success(code, err, record)
    assert seconds < TIME_LIMIT["records"], f"replay took {seconds:.1f} s"
    if code == 0:
        assert not err.strip(), err
        assert_is_the_record_of_its_replay(entry, records.load(path))
    path.unlink()


# ----- session files (matches played at the keyboard) -----------------------------------------
_SESSIONS: dict[str, list[dict]] = {}


def base_sessions(game: str) -> list[dict]:
    """Valid session files of `game`: finished matches of every preset against the game's
    first simulate bot, and the same cut short (a quit match)."""
    if game not in _SESSIONS:
        entry = registry.get(game)
        rng = np.random.default_rng(7)
        out = []
        for preset in entry.game.Rules.PRESETS:
            rules = entry.game.Rules.preset(preset)
            match = Match(entry, rules, int(rng.integers(1000)), 0,
                          seat_bots(entry, rules, 0, entry.simulate_bots.split(",")[0]))
            play_match(match, RandomPerson(entry.game.views, rng), lambda line: None)
            whole = match.to_json()
            cut = copy.deepcopy(whole)
            cut["finished"], cut["games"] = False, cut["games"][:1]
            cut["games"][0] = cut["games"][0][: len(cut["games"][0]) // 2]
            out += [whole, cut]
        _SESSIONS[game] = [json.loads(json.dumps(r)) for r in out]
    return _SESSIONS[game]


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=SIZES["sessions"], **SETTINGS)
@given(data=st.data())
def test_mutated_session_files_are_refused_in_one_line_or_replay(game, data, tmp_path_factory):
    bases = base_sessions(game)
    record = bases[data.draw(st.integers(0, len(bases) - 1), label="base")]
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        record = mutate(data, record)
    path = tmp_path_factory.mktemp("session") / "session.json"
    path.write_bytes(to_text(data, record))
    start = time.perf_counter()
    code, out, err = geolab(["replay", str(path)])
    seconds = time.perf_counter() - start
    COUNTS[f"sessions {game}"] += 1
    OUTCOMES["refused" if code == 2 else "accepted" if code == 0 else f"exit {code}"] += 1
    assert_one_line_or_success(code, err, record)
    assert seconds < TIME_LIMIT["records"], f"replay took {seconds:.1f} s"
    if code == 0:
        assert not err.strip() and "finished:" in out, err
    path.unlink()


# ----- structural fuzzing in-process: every reader, nested records too (issue 37) --------------
def one_line_or_success(read, what):
    """``read()``'s value, or None after a `GeolabError` of one short line; any other exception
    (a TypeError from a list used as a dict key, a ValueError from printing a huge number ...)
    escapes and fails the test, and hypothesis shrinks it to the smallest record."""
    try:
        return read()
    except GeolabError as error:
        text = str(error)
        assert text and "\n" not in text and len(text) < 1000, (what, text)
        return None


def _mutated(data, bases, in_process: bool = True) -> dict:
    record = bases[data.draw(st.integers(0, len(bases) - 1), label="base")]
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        record = mutate(data, record, in_process)
    return record


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=SIZES["structure"], **SETTINGS)
@given(data=st.data())
def test_structurally_mutated_records_replay_or_are_one_geolab_error(game, data):
    """Any value at any depth (nested game records included: a Combo 1 match's games, a
    GeoDouble round's stage) replaced by a list, an object, null, a
    whole number of thousands of digits, a bool, a float (NaN too), deep nesting, a string, a
    wrong postal code; keys dropped and added; then replayed in-process (what `geolab replay`,
    `geolab solve` and every reader call): a valid record of its replay, or one line."""
    entry = registry.get(game)
    record = _mutated(data, base_records(game))
    start = time.perf_counter()
    report = one_line_or_success(lambda: records.replay(copy.deepcopy(record)), record)
    seconds = time.perf_counter() - start
    COUNTS[f"structure {game}"] += 1
    OUTCOMES["structure refused" if report is None else "structure accepted"] += 1
    assert seconds < TIME_LIMIT["records"], f"replay took {seconds:.1f} s"
    if report is not None:
        assert_is_the_record_of_its_replay(entry, record)


#: The sweep's values by the type of the value they replace: a name (a dict key, a set member
#: in the reader) as a list or an object, a number (an index) of thousands of digits or out of
#: range, and so on. The first of each row is the small size; the large size takes them all.
SWEEP = {
    str: [[], {"A": 1}, 7, None, "", "XX"],
    int: [10 ** 5000, -1, 1.5, True, "1", 2**63, float("nan")],
    float: [10 ** 5000, -1.0, float("inf"), 3, None],
    bool: [1, "true", None],
    list: [{}, "x", [[[[[]]]]], [], None],
    dict: [[], "x", {}, None],
    type(None): [[], {}, 0, "x"],
}
SWEEP_SMALL = {kind: values[:2] for kind, values in SWEEP.items()}
DROP = object()  # the sweep's "delete the key (or the list item)"


def sweep_cases(record: dict, table: dict):
    """(path, value) for one place of every kind (`_kind`) of the record and each value its type
    takes in `table`, and each deleted: every key, at every depth, in every nested record."""
    seen = set()
    for _, _, path in _places(record):
        if _kind(path) in seen:
            continue
        seen.add(_kind(path))
        value = record
        for k in path:
            value = value[k]
        for bad in [*table.get(type(value), []), DROP]:
            yield path, bad


def _with(record: dict, path, value) -> dict:
    record = copy.deepcopy(record)
    container = record
    for k in path[:-1]:
        container = container[k]
    if value is DROP:
        del container[path[-1]]
    else:
        container[path[-1]] = value
    return record


@pytest.mark.parametrize("game", GAMES)
def test_every_place_of_every_record_takes_any_type_in_one_line(game):
    """The sweep behind the fuzzing (issue 37): one place of every kind in a record of the game
    (each preset's in the large size), nested records included, given a value of each wrong
    type in turn (`SWEEP`: a name as a list or an object, a number of 5,000 digits ...) or
    deleted, and replayed: a valid record of its replay, or one `GeolabError` line. It found
    Combo 1's ``games[k].game`` used as a dict key unchecked, which random mutation seldom
    reaches (one place of hundreds)."""
    entry = registry.get(game)
    bases = base_records(game)
    presets = {}
    for record in bases:  # the longest record of each rules spec: the most kinds of place
        key = json.dumps(record.get("rules"), sort_keys=True)
        if len(json.dumps(record)) > len(json.dumps(presets.get(key, {}))):
            presets[key] = record
    chosen = list(presets.values()) if LARGE else [max(presets.values(), key=lambda r: len(json.dumps(r)))]
    for record in chosen:
        for path, value in sweep_cases(record, SWEEP if LARGE else SWEEP_SMALL):
            bad = _with(record, path, value)
            COUNTS[f"sweep {game}"] += 1
            report = one_line_or_success(lambda bad=bad: records.replay(copy.deepcopy(bad)), (path, shown(value)))
            OUTCOMES["sweep refused" if report is None else "sweep accepted"] += 1
            if report is not None:
                assert_is_the_record_of_its_replay(entry, bad)


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=SIZES["structure sessions"], **SETTINGS)
@given(data=st.data())
def test_structurally_mutated_sessions_replay_resume_and_serve_or_are_one_line(game, data, tmp_path_factory):
    """A session file mutated as records are (`mutate`), read by each of its readers: `geolab
    replay` and the check `geolab play --resume` makes before anyone plays on (both
    `records.replay` -> `replay_session`), and the web's `Store` (its page, rebuilt from the
    file with the bots playing on, and its line in the list of games)."""
    record = _mutated(data, base_sessions(game))
    start = time.perf_counter()
    one_line_or_success(lambda: records.replay(copy.deepcopy(record)), record)
    COUNTS[f"structure sessions {game}"] += 1
    try:
        text = json.dumps(record).encode()
    except ValueError:  # a number too long to write: no file holds one (records.parse refuses them)
        text = None
    if text is not None:
        folder = tmp_path_factory.mktemp("web")
        (folder / f"{WEB_ID}.json").write_bytes(text)
        store = Store(folder)
        for read in (store.summary, store.page):
            one_line_or_success(functools.partial(read, WEB_ID), record)
    assert time.perf_counter() - start < TIME_LIMIT["records"] * 3


WEB_ID = "00000000000000aa"
#: The games a new process knows: geolab's own, not the test-only games conftest registers.
BUILTIN_GAMES = [g for g in GAMES if type(registry.get(g).game).__module__.startswith("geolab.")]


@settings(max_examples=SIZES["processes"], **SETTINGS)
@given(data=st.data())
def test_mutated_records_through_the_real_command_line(data, tmp_path_factory):
    """A handful of structurally mutated records of the built-in games (a new process knows
    no test-only game) through ``python3 -m geolab replay FILE``: exit 0 or 2, one line on
    stderr, no traceback."""
    game = data.draw(st.sampled_from(BUILTIN_GAMES), label="game")
    record = _mutated(data, base_records(game), in_process=False)
    path = tmp_path_factory.mktemp("process") / "record.json"
    path.write_bytes(to_text(data, record))
    done = subprocess.run([sys.executable, "-m", "geolab", "replay", str(path)], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    COUNTS[f"processes {game}"] += 1
    OUTCOMES[f"process exit {done.returncode}"] += 1
    assert_one_line_or_success(done.returncode, done.stderr, record)
    if done.returncode == 0:
        assert not done.stderr.strip()


# ----- Rules specs ---------------------------------------------------------------------------
def _field_values(current):
    """Values of a field's own type near its value (most of them), odd values, arbitrary JSON."""
    words = st.sampled_from(["random", "top-dog", "bottoms-up", "replay", "share", "nobody", "all-tied", "draw",
                             "another-round", "fixed", "lead", "power", "given", "discard-statehood", "declaration",
                             "shutout", "follow", "none"])
    if isinstance(current, bool):
        typed = st.booleans()
    elif isinstance(current, int):
        typed = st.integers(current - 3, current + 3) | st.integers(0, 60)
    elif current is None:
        typed = st.none() | st.integers(0, 60)
    elif isinstance(current, str):
        typed = words | st.just(current)
    elif isinstance(current, tuple) and current and isinstance(current[0], int):
        typed = st.builds(lambda i, v, cut: [v if j == i else x for j, x in enumerate(current)][: len(current) - cut],
                          st.integers(0, len(current) - 1), st.integers(0, 60), st.sampled_from([0, 0, 0, 1]))
    elif isinstance(current, tuple):
        typed = st.lists(words, max_size=3)
    else:
        typed = st.none()
    odd = st.sampled_from([None, True, False, "none", "x", 1.5, 2.0, [], [0], [1, 1], -1, 10**9 + 1, 10**30])
    return st.one_of(typed, typed, typed, odd, JSON)


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=SIZES["rules"], **SETTINGS)
@given(data=st.data())
def test_rules_specs_are_valid_rules_or_one_rules_error(game, data):
    entry = registry.get(game)
    Rules = entry.game.Rules
    default = Rules.preset(Rules.DEFAULT)
    names = Rules.field_names()
    chosen = data.draw(st.lists(st.sampled_from(names), min_size=1, max_size=4, unique=True), label="fields")
    spec = {f: data.draw(_field_values(getattr(default, f)), label=f) for f in chosen}
    if data.draw(st.integers(0, 4)) == 0:
        spec["preset"] = data.draw(st.sampled_from([*Rules.PRESETS, "nope", 3, None]), label="preset")
    if data.draw(st.integers(0, 9)) == 0:
        spec[data.draw(st.text(max_size=6), label="unknown field")] = 1
    COUNTS[f"rules {game}"] += 1
    start = time.perf_counter()
    try:
        rules = Rules.from_spec(spec)
    except RulesError as error:
        OUTCOMES["rules refused"] += 1
        text = str(error)
        assert "\n" not in text and len(text) < 600, text
        return
    OUTCOMES["rules valid"] += 1
    assert Rules.from_spec(json.loads(json.dumps(rules.to_spec()))) == rules
    # valid rules play on the batch engine (or say why not in one line) ...
    bots = [entry.bots.make(n, rules) for n in lineup(entry.simulate_bots.split(","), entry.game.seats(rules))]
    try:
        batch = entry.game.batch(rules, bots, 6, 1, threads=1)
        assert batch.scores.shape == (6, entry.game.seats(rules))
    except GeolabError as error:
        assert "\n" not in str(error)
    # ... and on the reference engine, whose record replays (a Jumbled game that scores nothing
    # plays every one of max_rounds rounds at about 14 ms each: those are left to the batch engine)
    if not (game == "jumbled" and rules.max_rounds > 30):
        rng = np.random.default_rng(0)
        played = entry.game.play(rules, entry.game.deal(rules, rng),
                                 [RandomLegal(rng) for _ in range(entry.game.seats(rules))])
        record = json.loads(json.dumps(entry.game.to_record(played)))
        assert records.replay(record) == json.loads(json.dumps(entry.game.report(played)))
    assert time.perf_counter() - start < TIME_LIMIT["rules"]


# ----- command lines -------------------------------------------------------------------------
def _number(valid, invalid):
    """(text, is it in range) for a numeric flag: in range three times in four."""
    ok = valid.map(lambda v: (str(v), True))
    return st.one_of(ok, ok, ok, st.sampled_from(invalid).map(lambda v: (v, False)))


FLAGS = {
    "--games": _number(st.integers(1, 40), ["0", "-1", "-10000000000000", str(10**13), str(2 * 10**9), "1e3", "x", ""]),
    "--seed": _number(st.integers(0, 2**63 - 1), ["-1", str(2**63), "9" * 30, "abc", "1.5", "9" * 5000]),
    "--threads": _number(st.integers(1, 2), ["0", "-3", "100000", "two"]),
    "--chunk": _number(st.integers(1, 10**9), ["0", "-1", str(10**10)]),
}
BOT_LISTS = ["random,best", "best,random", "random,best,best", "best,best,random", "random,best",
             "best,best", "best", "random,random",
             "nope,random", "best:greed=2,random", "random:x=1,best", "random,,best", "best:zzz=1,random",
             "random,best,random,best,random,best,random"]
SETTINGS_TEXT = ["seats=2", "seats=3", "hand=4", "category=2", "hand=1", "category=0", "seats=4", "hand=9",
                 "category=3", "category=x", "hand=none", "seats=true", "seats=" + "9" * 5000, "nofield=1", "=3",
                 "seats", "hand=[1,2]", "seats=2.0"]


@settings(max_examples=SIZES["cli"], **SETTINGS)
@given(data=st.data())
def test_command_lines_exit_0_or_2_with_one_line(data, tmp_path_factory):
    command = data.draw(st.sampled_from(["simulate", "simulate", "arena", "rules", "bots"]), label="command")
    argv, in_range = [command, "mini"], True
    if command in ("simulate", "arena"):
        flags = ["--games", "--seed", "--threads"] + (["--chunk"] if command == "simulate" else [])
        for flag in data.draw(st.lists(st.sampled_from(flags), unique=True), label="flags"):
            text, ok = data.draw(FLAGS[flag], label=flag)
            argv += [flag, text]
            in_range &= ok
        if command == "arena" and "--games" not in argv:
            argv += ["--games", "3"]
        if data.draw(st.booleans()):
            argv += ["--bots", data.draw(st.sampled_from(BOT_LISTS[:6]) | st.sampled_from(BOT_LISTS), label="bots")]
        if command == "arena" or data.draw(st.booleans()):  # the arena always writes: never into the work tree
            argv += ["--out", str(tmp_path_factory.mktemp("out") / "run")]
    if command in ("simulate", "arena", "rules"):
        if data.draw(st.booleans()):
            argv += ["--rules", data.draw(st.sampled_from(["duel", "trio", "duel", "trio", "nope", ""]),
                                          label="preset")]
        valid_or_not = st.sampled_from(SETTINGS_TEXT[:6]) | st.sampled_from(SETTINGS_TEXT)
        for text in data.draw(st.lists(valid_or_not, max_size=2), label="settings"):
            argv += ["--set", text]
    if data.draw(st.booleans()):
        argv.append("--json")
    if data.draw(st.integers(0, 9)) == 0:
        argv.append(data.draw(st.sampled_from(["--nope", "extra", "-x", "--games"]), label="junk"))
        in_range = None  # a usage error, or (--games without a value) one too
    COUNTS["cli mini"] += 1
    start = time.perf_counter()
    code, _, err = geolab(argv)
    seconds = time.perf_counter() - start
    OUTCOMES["cli exit 0" if code == 0 else "cli exit 2" if code == 2 else f"cli exit {code}"] += 1
    assert_one_line_or_success(code, err, argv)
    if in_range is False:
        assert code == 2, (argv, "a number out of range was accepted")
    assert seconds < TIME_LIMIT["cli"], f"{argv}: {seconds:.1f} s"


def test_the_large_size_is_at_least_ten_thousand_inputs():
    """What `pytest -m fuzz` promises (the sizes above, summed over the games)."""
    large = {"records": 2500, "rules": 600, "cli": 600}
    assert large["records"] * len(GAMES) + large["rules"] * len(GAMES) + large["cli"] >= 10_000
