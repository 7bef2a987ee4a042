"""A minimal progress bar on stderr, shown only when stderr is a terminal or when forced."""

from __future__ import annotations

import sys
import time


class Progress:
    """`with Progress(total, "games") as bar: bar.update(k)`; silent when not wanted."""

    def __init__(self, total: int, unit: str = "games", enabled: bool | None = None, stream=None):
        self.total, self.unit, self.done = total, unit, 0
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.start = time.perf_counter()
        self._last = 0.0

    def __enter__(self):
        return self

    def update(self, k: int) -> None:
        self.done += k
        now = time.perf_counter()
        if self.enabled and (now - self._last > 0.2 or self.done >= self.total):
            self._last = now
            frac = self.done / self.total if self.total else 1.0
            rate = self.done / max(now - self.start, 1e-9)
            bar = "#" * int(30 * frac)
            self.stream.write(
                f"\r[{bar:<30}] {self.done:,}/{self.total:,} {self.unit} ({rate:,.0f}/s)"
            )
            self.stream.flush()

    def __exit__(self, *exc):
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()
        return False
