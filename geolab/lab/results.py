"""Result files: tidy tables (CSV + Parquet), meta.json and PNG plots, each written atomically.

A file is first written beside its target under a temporary name and then renamed over it, so
an interrupted run never leaves a half-written file.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from datetime import datetime, timezone
from pathlib import Path

import pandas as pd

from geolab import __version__


def _atomic(path: Path, write) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(fd)
    try:
        write(tmp)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return path


def write_table(df: pd.DataFrame, directory: Path, name: str) -> list[Path]:
    """`name.csv` and `name.parquet` in `directory`."""
    directory = Path(directory)
    return [
        _atomic(directory / f"{name}.csv", lambda tmp: df.to_csv(tmp, index=False)),
        _atomic(directory / f"{name}.parquet", lambda tmp: df.to_parquet(tmp, index=False)),
    ]


def write_json(obj, path: Path) -> Path:
    text = json.dumps(obj, indent=1, default=str) + "\n"
    return _atomic(Path(path), lambda tmp: Path(tmp).write_text(text))


def save_figure(fig, path: Path) -> Path:
    path = Path(path)
    return _atomic(path, lambda tmp: fig.savefig(tmp, format="png", dpi=120, bbox_inches="tight"))


def git_revision() -> str | None:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, timeout=5,
            cwd=Path(__file__).resolve().parent,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


def meta(**fields) -> dict:
    """The provenance every result directory carries, plus the run's own fields."""
    return {
        "geolab_version": __version__,
        "git_revision": git_revision(),
        "created_utc": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "python": sys.version.split()[0],
        "command": " ".join(["geolab", *sys.argv[1:]]) if Path(sys.argv[0]).name == "geolab" else None,
        **fields,
    }
