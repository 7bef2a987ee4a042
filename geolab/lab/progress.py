"""Progress on stderr through tqdm: the games a run plays, and the numba kernels it compiles.

Every kernel is ``cache=True``: numba compiles it on its first call in a checkout (half a minute
on two cores for the default ladder) and loads it from its on-disk cache afterwards (a second or two).
A lab command warms up the kernels it needs before it plays (`warm_up`): one small call a step,
one step after another; when a step compiles, the command says so first, then shows which
kernel is compiling, with a tqdm bar over the steps on a terminal, one line a kernel otherwise.
`CompileWatch` hears numba's compile events, so a warm cache prints nothing and the rates a
command prints can leave the compilation out.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from numba.core import event
from tqdm import tqdm

NOTICE = "compiling numba kernels (first run only; cached afterwards)"


def bar(total: int, unit: str = "games", enabled: bool | None = None, stream=None) -> tqdm:
    """A tqdm bar on stderr (`with bar(n) as b: b.update(k)`), shown only on a terminal unless
    `enabled` says otherwise."""
    stream = stream or sys.stderr
    if enabled is None:
        enabled = _isatty(stream)
    return tqdm(total=total, unit=unit, file=stream, disable=not enabled, mininterval=0.5, leave=False,
                **_width(stream))


def _width(stream) -> dict:
    """tqdm's size options: follow the terminal, or 100 columns and 24 lines where it says it
    has none (a pseudo-terminal nobody sized, where tqdm would draw nothing)."""
    try:
        size = os.get_terminal_size(stream.fileno())
        if size.columns > 0 and size.lines > 0:
            return {"dynamic_ncols": True}
    except (AttributeError, OSError, ValueError):
        pass
    return {"ncols": 100, "nrows": 24}


def _isatty(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def kernel_name(dispatcher) -> str:
    """``solvers.dd_kernel.solve_many``: a kernel's module (without ``geolab.``) and name."""
    func = getattr(dispatcher, "py_func", None)
    if func is None:
        return str(dispatcher)
    module = func.__module__.removeprefix("geolab.")
    return f"{module}.{func.__qualname__}"


class CompileWatch(event.Listener):
    """Numba's compilations while it is installed (``with CompileWatch() as watch:``).

    A kernel called from Python compiles its callees inside its own compilation, so only the
    outermost ones count as `kernels` (their wall time is `seconds`); `functions` counts every
    function compiled, the callees and numba's own helpers included. Loading a kernel from
    the cache is not a compilation. `on_kernel(name)` is called as each kernel starts compiling.
    Numba compiles under one global lock, so events never interleave, whatever the threads.
    """

    def __init__(self, on_kernel: Callable[[str], None] | None = None):
        self.on_kernel = on_kernel
        self.kernels = self.functions = 0
        self.seconds = 0.0
        self._depth, self._start = 0, 0.0

    def on_start(self, ev) -> None:
        self._depth += 1
        if self._depth == 1:
            self._start = time.perf_counter()
            if self.on_kernel is not None:
                self.on_kernel(kernel_name(ev.data["dispatcher"]))

    def on_end(self, ev) -> None:
        self._depth -= 1
        self.functions += 1
        if self._depth == 0:
            self.kernels += 1
            self.seconds += time.perf_counter() - self._start

    def __enter__(self) -> CompileWatch:
        event.register("numba:compile", self)
        return self

    def __exit__(self, *exc) -> bool:
        event.unregister("numba:compile", self)
        return False


@dataclass
class Warmup:
    """What `warm_up` did: `seconds` of wall time (compiling, or loading from the cache),
    `kernels` compiled (0: everything came from the cache) and their `compile_seconds`."""

    seconds: float = 0.0
    kernels: int = 0
    compile_seconds: float = 0.0
    steps: int = 0

    @property
    def note(self) -> str:
        """For a line that prints a rate: what the rate leaves out."""
        if self.kernels:
            return f"compilation excluded: {self.seconds:.1f} s"
        return f"warm-up excluded: {self.seconds:.1f} s, kernels from the cache"


def cache_dir() -> str:
    """Where numba keeps the compiled kernels: NUMBA_CACHE_DIR, else next to the sources."""
    return os.environ.get("NUMBA_CACHE_DIR") or "__pycache__ next to the sources"


_warming = [0]  # warm_up calls running: they show their own progress, so `compile_notice` stays quiet


class compile_notice:
    """``with compile_notice():`` around a whole command: if numba compiles anything outside a
    `warm_up` (a command that does not warm up, or a kernel its warm-up did not reach), say
    so as the first kernel starts (`NOTICE`), then count the kernels: a tqdm counter on a
    terminal, one line a kernel otherwise; and how many and how long at the end."""

    def __init__(self, stream=None):
        self.stream = stream or sys.stderr
        self.tty = _isatty(self.stream)
        self.watch = CompileWatch(self._kernel)
        self.kernels, self.start = 0, 0.0
        self.shown: tqdm | None = None

    def _kernel(self, name: str) -> None:
        if _warming[0]:
            return
        if self.shown is None:
            self.stream.write(f"geolab: {NOTICE}\n")
            self.stream.flush()
            self.start = time.perf_counter()
            self.shown = tqdm(unit=" kernels", desc="geolab: compiling", file=self.stream, mininterval=0.5,
                              leave=False, disable=not self.tty, **_width(self.stream))
        self.kernels += 1
        if self.tty:
            self.shown.set_postfix_str(name, refresh=False)
            self.shown.update(1)
        else:
            self.stream.write(f"geolab: compiling kernel {self.kernels}: {name} "
                              f"({time.perf_counter() - self.start:.0f} s so far)\n")
            self.stream.flush()

    def __enter__(self) -> compile_notice:
        self.watch.__enter__()
        return self

    def __exit__(self, *exc) -> bool:
        self.watch.__exit__(*exc)
        if self.shown is not None:
            self.shown.close()
            self.stream.write(f"geolab: compiled {self.kernels} kernels in {time.perf_counter() - self.start:.0f} s; "
                              f"cached in {cache_dir()}\n")
            self.stream.flush()
        return False


class _Claims:
    """Steps shared by two processes warming up side by side: a step belongs to the one that
    first creates its file in a common folder (created exclusively, so never both)."""

    def __init__(self, folder: str):
        self.folder = folder

    def take(self, i: int) -> bool:
        try:
            os.close(os.open(os.path.join(self.folder, str(i)), os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            return False
        return True


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _start_helper(helper: Sequence[str], folder: str) -> subprocess.Popen | None:
    """The second process (``helper + [folder]``), quiet; None if it cannot start. It finds
    geolab where this process found it."""
    import geolab

    env = dict(os.environ)
    root = os.path.dirname(os.path.dirname(os.path.abspath(geolab.__file__)))
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [root, env.get("PYTHONPATH")]))
    try:
        return subprocess.Popen([*helper, folder], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, env=env)
    except OSError:
        return None


def run_helper(steps: Sequence[tuple[str, Callable[[], object]]], shared: int, folder: str) -> int:
    """The second process of `warm_up`: the first `shared` steps from the last backwards, each
    one it claims, until it meets one this process's parent has claimed. Returns the steps run."""
    claims, done = _Claims(folder), 0
    for i in reversed(range(shared)):
        if not claims.take(i):
            break
        steps[i][1]()
        done += 1
    return done


def warm_up(steps: Sequence[tuple[str, Callable[[], object]]], stream=None, enabled: bool = True,
            helper: Sequence[str] | None = None, shared: int = 0,
            needs: Sequence[Sequence[int]] | None = None) -> Warmup:
    """Run each step (label, call): a small call that compiles the kernels it needs, or loads
    them from numba's cache. Nothing is printed unless a step compiles (or when not
    `enabled`); then first `NOTICE`, then progress: a tqdm bar over the steps on a terminal
    (with the kernel compiling now), else one line a kernel as it starts compiling; and a last
    line with the count and time.

    With `helper` (the command of a process that rebuilds the same steps and calls
    `run_helper`, given a folder as its last argument) and a second core, compiling is shared:
    when the first kernel compiles (a cold cache), the helper starts on the first `shared`
    steps from the last one backwards while this process goes forwards, each step claimed by
    one of them. Where they meet, this process goes on with the steps that need none of the
    helper's (`needs[i]`: the shared steps step i builds on; by default a shared step needs
    itself, any other all of them), then waits for the helper and runs the rest. It runs every
    step, so nothing depends on the helper: what the helper compiled loads from the cache (if
    the helper failed, it compiles here)."""
    stream = stream or sys.stderr
    tty = _isatty(stream)
    start = time.perf_counter()
    shown: list[tqdm] = []
    current = {"step": 0, "label": ""}
    side: dict = {}  # the helper: "process", "claims", "folder"
    share = helper is not None and shared > 1 and _cores() > 1

    def line(postfix: str) -> None:
        if tty:
            shown[0].set_postfix_str(postfix)
        else:
            meter = tqdm.format_meter(current["step"], len(steps), time.perf_counter() - start,
                                      prefix="geolab: kernels", unit="step", postfix=postfix, ncols=0)
            stream.write(meter.strip() + "\n")
            stream.flush()

    def on_kernel(name: str) -> None:
        if share and not side:
            side["folder"] = tempfile.mkdtemp(prefix="geolab-warm-")
            side["claims"] = _Claims(side["folder"])
            for i in range(current["step"] + 1):  # the steps this process has begun are its own
                side["claims"].take(i)
            side["process"] = _start_helper(helper, side["folder"])
        if not enabled:
            return
        if not shown:
            stream.write(f"geolab: {NOTICE}\n")
            if side.get("process") is not None:
                stream.write("geolab: two processes compile side by side (a second one takes the last steps)\n")
            stream.flush()
            shown.append(tqdm(total=len(steps), initial=current["step"], unit="step", desc="geolab: kernels",
                              file=stream, mininterval=0.5, leave=False, disable=not tty, **_width(stream)))
        line(f"{current['label']}: {name}")

    def run(i: int) -> None:
        current["label"] = steps[i][0]
        if shown and tty:
            shown[0].set_postfix_str(current["label"], refresh=False)
        steps[i][1]()
        current["step"] += 1
        if shown:
            shown[0].update(1)

    def wanted(i: int) -> set[int]:
        if needs is not None:
            return set(needs[i])
        return {i} if i < shared else set(range(shared))

    _warming[0] += 1
    try:
        with CompileWatch(on_kernel) as watch:
            theirs: set[int] = set()  # the shared steps the helper has claimed
            later: list[int] = []  # steps that need them: after the helper
            for i in range(len(steps)):
                if side.get("process") is not None and not theirs and i < shared and not side["claims"].take(i):
                    theirs = set(range(i, shared))  # the helper went backwards down to i
                if wanted(i) & theirs:
                    later.append(i)
                else:
                    run(i)
            if later:
                process = side.pop("process")
                if process is not None and process.poll() is None:
                    if shown:
                        line(f"{steps[later[0]][0]}: waiting for the second process")
                    process.wait()
                for i in later:  # what the helper compiled loads from the cache
                    run(i)
    finally:
        _warming[0] -= 1
        if shown:
            shown[0].close()
        if side.get("process") is not None:  # done, or about to find nothing left (or this one failed)
            side["process"].terminate()
            side["process"].wait()
        if "folder" in side:
            shutil.rmtree(side["folder"], ignore_errors=True)
    seconds = time.perf_counter() - start
    if shown:
        stream.write(f"geolab: compiled {watch.kernels} kernels ({watch.functions} functions) in {seconds:.0f} s; "
                     f"cached in {cache_dir()}\n")
        stream.flush()
    return Warmup(seconds, watch.kernels, watch.seconds, len(steps))
