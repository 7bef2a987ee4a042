"""Game records (``geolab-record/1``) of any registered game: read, validate, replay, write.

See ``docs/records.md``. The common envelope (``format``, ``game``, ``rules``...) is checked
here and by `geolab.game.check_envelope`; the body by the game's own `Game.replay`, which
plays the record on the reference engine and checks its claimed ``result``. `replay`,
`geolab solve` and every other reader take this one path, and every file is read by `load`:
UTF-8 JSON of at most `MAX_BYTES`, nested at most `MAX_DEPTH` deep, standard JSON only (no
NaN or Infinity, no key given twice, no number beyond what a record can hold).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

from geolab import registry
from geolab.errors import RecordError
from geolab.game import check_format, shown
from geolab.lab.play import SESSION_FORMAT, replay_session, session_report

#: The largest record file `load` reads (the longest real game's record is a few kilobytes).
MAX_BYTES = 10 * 1024 * 1024
#: The deepest nesting of lists and objects a record may have (real records: 5).
MAX_DEPTH = 32
#: The longest whole number a record holds: 2**63-1 has 19 digits.
MAX_DIGITS = 19


class _Refused(ValueError):
    """A JSON text that parses but is not a record's JSON (said in the message)."""


def _pairs(pairs):
    out = {}
    for key, value in pairs:
        if key in out:
            raise _Refused(f"the key {shown(key)} is given twice in one object")
        out[key] = value
    return out


def _constant(name):
    raise _Refused(f"{name} is not a JSON number")


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise _Refused(f"a number of {len(text.lstrip('-'))} digits; a record's numbers have at most {MAX_DIGITS}")
    return int(text)


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _Refused(f"the number {shown(text)} is too large")
    return value


def _depth(value) -> int:
    """How deeply lists and objects nest in a JSON value (walked without recursion)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            deepest = max(deepest, depth)
            if depth > MAX_DEPTH:
                break
            stack.extend((x, depth + 1) for x in (item.values() if isinstance(item, dict) else item))
    return deepest


def parse(text: str | bytes, where: str = "record"):
    """A record's JSON text (bytes must be UTF-8) as Python values; any problem is one
    `RecordError` line beginning with `where`."""
    if len(text) > MAX_BYTES:
        raise RecordError(f"{where}: {len(text):,} bytes; a record file holds at most {MAX_BYTES:,} (10 MB)")
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as error:
            raise RecordError(f"{where}: not UTF-8 text (byte {error.start}: {error.reason})") from None
    try:
        value = json.loads(text, object_pairs_hook=_pairs, parse_constant=_constant, parse_int=_int,
                           parse_float=_float)
    except json.JSONDecodeError as error:
        raise RecordError(f"{where}: malformed JSON at line {error.lineno}, column {error.colno}: "
                          f"{error.msg}") from None
    except _Refused as error:
        raise RecordError(f"{where}: {error}") from None
    except RecursionError:
        raise RecordError(f"{where}: nested more than {MAX_DEPTH} deep; a record is not") from None
    except ValueError as error:  # anything else json refuses (a number it cannot convert)
        raise RecordError(f"{where}: not a record's JSON ({shown(str(error))})") from None
    if _depth(value) > MAX_DEPTH:
        raise RecordError(f"{where}: nested more than {MAX_DEPTH} deep; a record is not")
    return value


def load(path: str | Path) -> dict:
    """Read a record file (see `parse`): a missing or unreadable file, one of more than
    `MAX_BYTES`, text that is not UTF-8 or not JSON are `RecordError` s naming the file."""
    return parse(read_at_most(path, MAX_BYTES, RecordError, "; a record file holds at most 10 MB"), str(path))


def read_at_most(path: str | Path, most: int, error: type[Exception] = RecordError, why: str = "",
                 name: str | None = None) -> bytes:
    """A file's bytes, reading no more than `most` + 1 of them: a file that cannot be read or is
    larger is one `error` line naming it (``name``, else the path)."""
    name = str(path) if name is None else name
    try:
        with open(path, "rb") as handle:
            data = handle.read(most + 1)
    except OSError as failure:
        raise error(f"{name}: cannot read ({failure.strerror or failure})") from None
    if len(data) > most:
        raise error(f"{name}: larger than {most:,} bytes{why}")
    return data


def replay_played(record):
    """(registry entry, the reference engine's played game) of a valid record."""
    check_format(record)
    entry = registry.by_record(record["game"])
    return entry, entry.game.replay(record)


def _is_session(record) -> bool:
    """A session file (any version: another one is refused by its own reader)."""
    form = record.get("format") if isinstance(record, dict) else None
    return isinstance(form, str) and form.startswith(SESSION_FORMAT.split("/")[0] + "/")


#: A file of several records, each with a label (`geolab tournament --save`: every match).
COLLECTION_FORMAT = "geolab-records/1"


def is_collection(record) -> bool:
    return isinstance(record, dict) and record.get("format") == COLLECTION_FORMAT


def collected(record) -> list[tuple[str, dict]]:
    """The labelled records of a collection file (``{"format": "geolab-records/1", "records":
    [{"label": ..., "record": {...}}, ...]}``, other keys free); a malformed one is one line."""
    listed = record.get("records")
    if not isinstance(listed, list) or not listed:
        raise RecordError("records: expected a list of {\"label\": ..., \"record\": {...}}")
    out = []
    for k, item in enumerate(listed):
        if not isinstance(item, dict) or not isinstance(item.get("label"), str) \
                or not isinstance(item.get("record"), dict):
            raise RecordError(f"records[{k}]: expected {{\"label\": text, \"record\": a record}}")
        out.append((item["label"], item["record"]))
    return out


def chosen(record, k: int | None):
    """The record a file names: itself, or the k-th (1-based) record of a collection; a
    collection without k, or k out of range, is one line."""
    if not is_collection(record):
        if k is not None:
            raise RecordError("--match: this file holds one record, not a collection of them")
        return record
    listed = collected(record)
    if k is None or not 1 <= k <= len(listed):
        raise RecordError(f"this file holds {len(listed)} records: name one with --match 1-{len(listed)}")
    return listed[k - 1][1]


def replay(record) -> dict:
    """Validate and replay a record, a session file (`geolab.lab.play`, a match played at the
    keyboard) or each record of a collection; returns the outcome report, or raises
    `RecordError`."""
    if is_collection(record):
        out = []
        for k, (label, one) in enumerate(collected(record)):
            try:
                out.append({"label": label, **replay(one)})
            except RecordError as error:
                raise RecordError(f"records[{k}].{error}") from None
        return {"records": len(out), "games": out}
    if _is_session(record):
        return session_report(record)
    entry, played = replay_played(record)
    return entry.game.report(played)


def game_records(record) -> list[dict]:
    """The game records a file holds: itself, or each finished game of a session file."""
    if _is_session(record):
        match, _ = replay_session(record)
        return [match.game.to_record(p) for p in match.played]
    return [record]


def dump(record: dict, path: str | Path) -> None:
    Path(path).write_text(json.dumps(record, indent=1) + "\n")
