"""A batch run in chunks of whole seed blocks, on threads: the part every two-seat batch engine
of the Combo 1 family and GeoDouble shares (checking the run's numbers, cutting it into chunks,
running them), written once. A chunk's games depend on its blocks only, so neither the chunk
size nor the thread count changes a result."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import NamedTuple

from geolab.errors import GeolabError


class Plan(NamedTuple):
    """A run cut into chunks: its first seed block, blocks a chunk, and each chunk's first
    block (relative to `first`)."""

    first: int
    per: int
    starts: list[int]
    blocks: int


def plan(n: int, start: int, chunk: int | None, block: int, default_chunk: int, bots: Sequence,
         unit: str = "games", needs: str = "a game needs two bots, one per seat") -> Plan:
    """The run's numbers checked (one-line `GeolabError`s) and cut into chunks."""
    if n < 0:
        raise GeolabError(f"{unit} must be >= 0, got {n}")
    if len(bots) != 2:
        raise GeolabError(needs)
    if start < 0 or start % block:
        raise GeolabError(f"start must be a whole number of blocks of {block}, got {start}")
    if chunk is not None and chunk < 1:
        raise GeolabError(f"chunk must be positive, got {chunk}")
    blocks = -(-n // block)
    per = -(-(chunk or default_chunk) // block)
    return Plan(start // block, per, list(range(0, blocks, per)), blocks)


def run(one: Callable, starts: Sequence[int], bots: Sequence, threads: int | None) -> list:
    """``one(start)`` for every chunk, in order, on threads (one if a bot is not thread-safe:
    every `geolab.game.BatchBot`, and a `geolab.lineup.Lineup` of them, declares it)."""
    safe = all(b.thread_safe for b in bots)
    threads = 1 if not safe else max(1, min(threads or os.cpu_count() or 1, len(starts)))
    if threads == 1:
        return [one(b) for b in starts]
    with ThreadPoolExecutor(threads) as pool:
        return list(pool.map(one, starts))
