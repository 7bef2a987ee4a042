"""A batch run in chunks of whole seed blocks, on threads: the part every batch engine shares
(checking the run's numbers, cutting it into chunks, running them), written once.

A game seeds its games by blocks (block b of a run from ``(seed, b)``, however the game
derives it); `plan` checks the run's numbers (one-line `GeolabError`s) and cuts it into chunks
of whole blocks, and `run` (a list) or `iterate` (an iterator, for runs too large to hold)
calls the game's ``one(first block of the chunk)`` for every chunk, in order, on threads. A
chunk's games depend on its blocks only, so neither the chunk size nor the thread count
changes a result. An engine whose kernel spreads a chunk over its own threads (numba's) runs
its chunks with ``threads=1``.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import NamedTuple

from geolab.errors import GeolabError


class Plan(NamedTuple):
    """A run cut into chunks: its first seed block, blocks a chunk, each chunk's first
    block (relative to `first`), and the run's number of blocks."""

    first: int
    per: int
    starts: list[int]
    blocks: int


def plan(n: int, start: int, chunk: int | None, block: int, default_chunk: int, bots: Sequence | None,
         unit: str = "games", needs: str = "a game needs two bots, one per seat", *, seats: int = 2,
         least: int = 0, stream: int = 0) -> Plan:
    """The run's numbers checked (one-line `GeolabError`s) and cut into chunks: n games (at
    least `least`) from game `start` (a whole number of blocks of `block` games) in chunks of
    `chunk` games (default `default_chunk`) rounded up to whole blocks. `bots` must hold one
    bot a seat (`needs` says so otherwise); None where the engine seats its own (policy
    tables). `stream` is the seating's stream number, never negative."""
    if n < least:
        raise GeolabError(f"{unit} must be at least {least}, got {n}")
    if bots is not None and len(bots) != seats:
        raise GeolabError(needs)
    if stream < 0:
        raise GeolabError(f"stream must be at least 0, got {stream}")
    if block < 1:
        raise GeolabError(f"block must be at least 1, got {block}")
    if start < 0 or start % block:
        raise GeolabError(f"start must be a whole number of blocks of {block}, got {start}")
    if chunk is not None and chunk < 1:
        raise GeolabError(f"chunk must be at least 1, got {chunk}")
    blocks = -(-n // block)
    per = -(-(chunk or default_chunk) // block)
    return Plan(start // block, per, list(range(0, blocks, per)), blocks)


def run(one: Callable, starts: Sequence[int], bots: Sequence, threads: int | None) -> list:
    """``one(start)`` for every chunk, in order, on threads (one if a bot is not thread-safe:
    every `geolab.game.BatchBot`, and a `geolab.lineup.Lineup` of them, declares it)."""
    return list(iterate(one, starts, bots, threads))


def iterate(one: Callable, starts: Sequence[int], bots: Sequence, threads: int | None) -> Iterator:
    """`run` yielding each chunk's result in order as soon as it and those before it are done,
    with at most two chunks a thread (and one) in flight, so a long run holds only those."""
    safe = all(b.thread_safe for b in bots)
    threads = 1 if not safe else max(1, min(threads or os.cpu_count() or 1, len(starts)))
    if threads == 1:
        return (one(b) for b in starts)
    return _threaded(one, starts, threads)


def _threaded(one: Callable, starts: Sequence[int], threads: int) -> Iterator:
    pool = ThreadPoolExecutor(threads)
    try:
        pending: deque = deque()
        for b in starts:
            pending.append(pool.submit(one, b))
            if len(pending) > 2 * threads:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    finally:  # a consumer that stops early (or a chunk that fails) leaves no chunk to start
        pool.shutdown(cancel_futures=True)
