"""Game records (``geolab-record/1``) of any registered game: read, validate, replay, write.

See ``docs/records.md``. The common envelope (``format``, ``game``, ``rules``...) is checked
here and by `geolab.game.check_envelope`; the body by the game's own `Game.replay`, which
plays the record on the reference engine and checks its claimed ``result``. `replay`,
`geolab solve` and every other reader take this one path.
"""

from __future__ import annotations

import json
from pathlib import Path

from geolab import registry
from geolab.errors import RecordError
from geolab.game import RECORD_FORMAT


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


def replay_played(record):
    """(registry entry, the reference engine's played game) of a valid record."""
    if not isinstance(record, dict):
        raise RecordError(f"record: expected a JSON object, got {type(record).__name__}")
    if record.get("format") != RECORD_FORMAT:
        raise RecordError(f"format: expected {RECORD_FORMAT!r}, got {record.get('format')!r}")
    entry = registry.by_record(record.get("game"))
    return entry, entry.game.replay(record)


def replay(record) -> dict:
    """Validate and replay a record; returns the outcome report, or raises `RecordError`."""
    entry, played = replay_played(record)
    return entry.game.report(played)


def dump(record: dict, path: str | Path) -> None:
    Path(path).write_text(json.dumps(record, indent=1) + "\n")
