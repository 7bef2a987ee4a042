"""Result files: tidy tables (CSV + Parquet), meta.json and PNG plots, written so that nothing
half-written is ever left where a result belongs (docs/reliability.md).

- A result *set* (a folder: ``simulate --out``, ``arena``) is written by `ResultSet`: every file
  goes into a fresh hidden folder beside the target (``.<name>.geolab-<pid>-<random>.tmp``, same
  filesystem), and one ``os.rename`` moves the whole folder into place. A run killed while
  writing leaves only that hidden folder, which the next write into the same parent removes.
- A single file (`write_json`, `save_figure`, `write_table` into an existing folder) is written
  beside its target under a temporary name and renamed over it (``os.replace``).
- `check_writable` checks an output path before any work, so a run never plays for an hour and
  then fails on its output path; `run_id` names default folders uniquely (time to the second,
  pid, a random suffix); `rescue` saves what the user must not lose when its own path fails.
- Files get ordinary permissions: ``0o666`` and folders ``0o777`` less the umask (``0o644`` and
  ``0o755`` under the usual umask 022), not the owner-only mode of ``mkstemp``/``mkdtemp``.
"""

from __future__ import annotations

import errno
import json
import os
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from geolab import __version__
from geolab.errors import GeolabError

if TYPE_CHECKING:  # tables are written with their own methods: pandas is the caller's import
    import pandas as pd

#: a temporary file or folder of ours older than this is stale even if its pid is alive (reused pid)
STALE_SECONDS = 3600
#: temporary names of this module: ``.<name>.geolab-<pid>-<random>.tmp``
TEMP = re.compile(r"^\..+\.geolab-(?P<pid>\d+)-[A-Za-z0-9_]+\.tmp$")
#: temporary names of earlier geolab versions (``mkstemp(prefix=".<name>.", suffix=".tmp")``): age only
OLD_TEMP = re.compile(r"^\..+\.[A-Za-z0-9_]{8}\.tmp$")


class WriteError(GeolabError):
    """An output path that cannot be written: one line for the user, exit code 2."""


def now() -> datetime:
    """The clock of run ids (a function, so tests can stop it)."""
    return datetime.now()


def run_id() -> str:
    """``YYYYmmdd-HHMMSS-<pid>-<6 hex>``: unique even for two runs started in the same second."""
    return f"{now():%Y%m%d-%H%M%S}-{os.getpid()}-{secrets.token_hex(3)}"


def _umask() -> int:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)  # no /proc: read it the portable way (set and restore)
    os.umask(mask)
    return mask


def file_mode() -> int:
    """What an ordinary new file gets: 0o666 less the umask (0o644 under umask 022)."""
    return 0o666 & ~_umask()


def folder_mode() -> int:
    """What an ordinary new folder gets: 0o777 less the umask (0o755 under umask 022)."""
    return 0o777 & ~_umask()


def reason(error: OSError) -> str:
    return error.strerror or str(error)


def _temp_prefix(name: str) -> str:
    return f".{name}.geolab-{os.getpid()}-"


def _pid_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True  # someone else's live process (or a number no process can have: keep it, age decides)
    except OSError:
        return True
    return True


def clean_stale(directory: Path, max_age: float = STALE_SECONDS) -> list[Path]:
    """Remove the temporary files and folders killed runs left in `directory`: ours whose pid is
    dead or that are older than `max_age` seconds, and older geolab's older than `max_age`.
    Never raises; returns what it removed."""
    removed = []
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return removed
    for entry in entries:
        ours, old = TEMP.match(entry.name), OLD_TEMP.match(entry.name)
        if not ours and not old:
            continue
        try:
            age = time.time() - entry.stat(follow_symlinks=False).st_mtime
            stale = age > max_age or (ours is not None and not _pid_alive(int(ours["pid"])))
            if not stale:
                continue
            if entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path)
            else:
                os.unlink(entry.path)
            removed.append(Path(entry.path))
        except OSError:
            continue
    return removed


_CLEANED: set[str] = set()


def _clean_once(directory: Path) -> None:
    """`clean_stale` on a folder the first time this process writes there (a sweep writing
    thousands of files into one folder scans it once, not once a file)."""
    key = os.path.abspath(directory)
    if key not in _CLEANED:
        _CLEANED.add(key)
        clean_stale(directory)


def _fsync(path, directory: bool = False) -> None:
    try:
        fd = os.open(path, os.O_RDONLY | (getattr(os, "O_DIRECTORY", 0) if directory else 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


# ----- checking a path before the work ------------------------------------------------------


def _nearest_existing(path: Path) -> Path:
    for candidate in (path, *path.parents):
        if os.path.lexists(candidate):
            return candidate
    return Path(".")


def _probe(folder: Path, shown: Path) -> None:
    """Create and remove a file in `folder`: the only honest test (root ignores modes, a
    read-only mount ignores them too)."""
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=_temp_prefix("probe"), suffix=".tmp")
    except OSError as error:
        raise WriteError(f"{shown}: cannot write in {folder} ({reason(error)})") from None
    os.close(fd)
    os.unlink(tmp)


def check_writable(path, kind: str = "file", flag: str | None = None, taken_ok: bool = False) -> Path:
    """Raise `WriteError` (one line) unless a `kind` ("file" or "folder") can be written at `path`.

    A file: not an existing folder or special file; its nearest existing ancestor is a folder we
    can write in (missing folders are created at write time). A folder: absent or an empty
    folder (an existing non-empty one is refused, never merged into or overwritten); its parent
    likewise (`taken_ok`: a taken folder is fine, for a default name `ResultSet` moves aside
    from). Nothing is created, except a probe file removed at once."""
    if kind not in ("file", "folder"):
        raise ValueError(f"kind must be 'file' or 'folder', not {kind!r}")
    label = f"{flag} {path}" if flag else str(path)
    try:
        path = Path(path)
        if not str(path) or "\0" in str(path):
            raise WriteError(f"{label}: not a usable path")
        if kind == "file":
            if path.is_dir():
                raise WriteError(f"{label}: is a folder; give a file name")
            if os.path.lexists(path) and not path.is_file():
                raise WriteError(f"{label}: exists and is not a regular file")
        else:
            if os.path.lexists(path) and not path.is_dir():
                raise WriteError(f"{label}: exists and is not a folder")
            if not taken_ok and path.is_dir() and any(os.scandir(path)):
                raise WriteError(f"{label}: the folder exists and is not empty; name a new folder "
                                 f"(results are never merged into or written over an old set)")
        ancestor = _nearest_existing(path.parent if path.name else path)
        if not ancestor.is_dir():
            raise WriteError(f"{label}: {ancestor} is not a folder")
        _probe(ancestor, label)
    except OSError as error:
        raise WriteError(f"{label}: cannot use this path ({reason(error)})") from None
    return path


# ----- single files ---------------------------------------------------------------------------


def _atomic(path: Path, write) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    _clean_once(path.parent)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=_temp_prefix(path.name), suffix=".tmp")
    os.close(fd)
    try:
        write(tmp)
        _fsync(tmp)
        os.chmod(tmp, file_mode())
        os.replace(tmp, path)
        _fsync(path.parent, directory=True)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return path


def write_table(df: pd.DataFrame, directory: Path, name: str) -> list[Path]:
    """`name.csv` and `name.parquet` in `directory`, each file atomically (for a whole set of
    files written as one, use `ResultSet`)."""
    directory = Path(directory)
    return [
        _atomic(directory / f"{name}.csv", lambda tmp: df.to_csv(tmp, index=False)),
        _atomic(directory / f"{name}.parquet", lambda tmp: df.to_parquet(tmp, index=False)),
    ]


def json_text(obj) -> str:
    return json.dumps(obj, indent=1, default=str) + "\n"


def write_json(obj, path: Path) -> Path:
    text = json_text(obj)
    return _atomic(Path(path), lambda tmp: Path(tmp).write_text(text))


def save_figure(fig, path: Path) -> Path:
    path = Path(path)
    return _atomic(path, lambda tmp: fig.savefig(tmp, format="png", dpi=120, bbox_inches="tight"))


def rescue(obj, stem: str = "unsaved") -> Path | None:
    """Save `obj` as JSON (atomically) somewhere it will be found when its own path failed:
    ``~/.geolab/unsaved/``, else the current folder, else the system's temporary folder.
    Returns the path, or None when nowhere could be written."""
    name = f"{stem}-{run_id()}.json"
    for folder in (Path.home() / ".geolab" / "unsaved", Path.cwd(), Path(tempfile.gettempdir())):
        try:
            return write_json(obj, folder / name)
        except (OSError, RuntimeError):  # RuntimeError: no home directory
            continue
    return None


# ----- result sets ----------------------------------------------------------------------------


class ResultSet:
    """A folder of result files that appears whole or not at all.

    ::

        with ResultSet(out) as rs:
            rs.table(pairs, "pairs"); rs.figure(fig, "ladder.png"); rs.json(info, "meta.json")
        rs.path  # where the set is

    Files go into a fresh hidden folder beside `target`; leaving the block without an error
    moves it into place with one ``os.rename``; an error (or Ctrl-C) removes it. The target must
    be absent or an empty folder; if another run took it meanwhile, the set goes to
    ``<target>-<run id>`` instead (`moved_aside`). An `OSError` becomes a one-line `WriteError`.
    """

    def __init__(self, target, run: str | None = None):
        self.target = Path(target)
        self.run_id = run or run_id()
        self.path = self.target
        self.moved_aside = False
        self.temp: Path | None = None

    def __enter__(self) -> ResultSet:
        parent = self.target.parent
        try:
            parent.mkdir(parents=True, exist_ok=True)
            clean_stale(parent)
            self.temp = Path(tempfile.mkdtemp(dir=parent, prefix=_temp_prefix(self.target.name), suffix=".tmp"))
        except OSError as error:
            raise WriteError(f"cannot write the results to {self.target}: {reason(error)}") from None
        return self

    def file(self, name: str) -> Path:
        """The temporary path of file `name` of the set (for writers not below)."""
        if self.temp is None:
            raise RuntimeError("ResultSet used outside its with block")
        return self.temp / name

    def table(self, df: pd.DataFrame, name: str) -> None:
        df.to_csv(self.file(f"{name}.csv"), index=False)
        df.to_parquet(self.file(f"{name}.parquet"), index=False)

    def json(self, obj, name: str) -> None:
        self.file(name).write_text(json_text(obj))

    def figure(self, fig, name: str) -> None:
        fig.savefig(self.file(name), format="png", dpi=120, bbox_inches="tight")

    def _commit(self) -> None:
        files, folders = file_mode(), folder_mode()
        for entry in self.temp.rglob("*"):
            if entry.is_dir():
                os.chmod(entry, folders)
            else:
                _fsync(entry)
                os.chmod(entry, files)
        os.chmod(self.temp, folders)
        _fsync(self.temp, directory=True)
        try:
            os.rename(self.temp, self.target)  # atomic; replaces only an empty folder
        except OSError as error:
            if error.errno not in (errno.EEXIST, errno.ENOTEMPTY, errno.ENOTDIR, errno.EISDIR):
                raise
            self.path = self.target.with_name(f"{self.target.name}-{self.run_id}")
            os.rename(self.temp, self.path)
            self.moved_aside = True
        self.temp = None
        _fsync(self.path.parent, directory=True)

    def __exit__(self, kind, error, trace) -> bool:
        try:
            if kind is None:
                self._commit()
        except OSError as failure:
            raise WriteError(f"cannot write the results to {self.target}: {reason(failure)}") from None
        finally:
            if self.temp is not None and self.temp.exists():
                shutil.rmtree(self.temp, ignore_errors=True)
        if isinstance(error, OSError):
            raise WriteError(f"cannot write the results to {self.target}: {reason(error)}") from None
        return False


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
        "created_utc": datetime.now(UTC).isoformat(timespec="seconds"),
        "python": sys.version.split()[0],
        "command": " ".join(["geolab", *sys.argv[1:]]) if Path(sys.argv[0]).name == "geolab" else None,
        **fields,
    }
