"""Game records (``geolab-record/1``): load, validate and replay with the reference engines.

See ``docs/records.md``. Each game module that has records provides ``replay_record(record)``
returning a JSON-ready report; this module only parses files and dispatches on ``game``.
"""

from __future__ import annotations

import json
from pathlib import Path

from geolab.errors import RecordError

FORMAT = "geolab-record/1"


def _replayers():
    from geolab.games import classroom, jumbled, ranks_records

    return {
        "play-the-ranks": ranks_records.replay_record,
        "jumbled-geopower-choice": jumbled.replay_record,
        "class-double-choice": classroom.replay_record,
    }


def load(path: str | Path) -> dict:
    """Read a record file; malformed JSON is a `RecordError` naming line and column."""
    try:
        text = Path(path).read_text()
    except OSError as error:
        raise RecordError(f"{path}: cannot read ({error.strerror})") from None
    try:
        record = json.loads(text)
    except json.JSONDecodeError as error:
        raise RecordError(f"{path}: malformed JSON at line {error.lineno}, column {error.colno}: {error.msg}") from None
    return record


def replay(record) -> dict:
    """Validate and replay a record; returns the outcome report, or raises `RecordError`."""
    if not isinstance(record, dict):
        raise RecordError("record: expected a JSON object")
    if record.get("format") != FORMAT:
        raise RecordError(f"format: expected {FORMAT!r}, got {record.get('format')!r}")
    game = record.get("game")
    replayers = _replayers()
    if game not in replayers:
        raise RecordError(f"game: unknown game {game!r} (known: {', '.join(sorted(replayers))})")
    return replayers[game](record)


def dump(record: dict, path: str | Path) -> None:
    Path(path).write_text(json.dumps(record, indent=1) + "\n")
