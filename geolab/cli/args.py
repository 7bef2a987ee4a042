"""The command line's numbers, checked where they are read: one ``type=`` function per kind
of argument, used by every command of `geolab.cli`, so every range is checked before any
work starts and every message reads the same: ``--games must be at least 1, got 0``,
``--threads must be at most 64 (the larger of 64 and 8 a core), got 500``.

A text that is not a number is argparse's usage error (``invalid int value``, exit 2); a
number out of range is a `GeolabError` (one line, exit 2, from `geolab.cli.main`). The
limits and why each is what it is:

- ``--seed``: 0..2**63-1, what numpy's `SeedSequence` takes (it refuses negative numbers)
  and what a record's ``seed`` holds.
- ``--games`` of ``simulate``: at most 10**9 deals (the summary keeps running totals, so only
  time limits it; with ``--out`` the table is also bounded by `geolab.lab.tables.MAX_GAMES`).
- ``--games`` of ``arena``: at most `MAX_GAMES` deals a pair (the arena keeps every game's
  score; `geolab.cli.lab` also bounds deals x pairs x seatings by it).
- ``--games`` of ``bench``: at most 10**7 (a timed run's games are held in memory).
- ``--chunk``: 1..10**9 (a chunk is cut to the games played, so it never costs memory).
- ``--threads``: 1..max(64, 8 x the machine's cores).
- the others are named with their commands below.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable

from geolab.errors import GeolabError
from geolab.lab import MAX_GAMES

SEED_MAX = 2**63 - 1
SUMMARY_GAMES = 10**9
BENCH_GAMES = 10**7
CHUNK_MAX = 10**9


def max_threads() -> int:
    """The most threads any command takes: 8 a core, and never less than 64."""
    return max(64, 8 * (os.cpu_count() or 1))


def _shown(value) -> str:
    text = f"{value:,}" if isinstance(value, int) else repr(value)
    return text if len(text) <= 40 else f"a number of {len(str(abs(value)))} digits"


def whole(flag: str, low: int, high: int | Callable[[], int] | None = None, why: str = "") -> Callable[[str], int]:
    """An argparse type: a whole number within low..high (high None: no upper limit).
    ``why`` says where the upper limit comes from, in the message."""

    def read(text: str) -> int:
        value = int(text)  # ValueError: argparse says "invalid int value"
        if value < low:
            raise GeolabError(f"{flag} must be at least {low:,}, got {_shown(value)}")
        top = high() if callable(high) else high
        if top is not None and value > top:
            reason = f" ({why})" if why else ""
            raise GeolabError(f"{flag} must be at most {top:,}{reason}, got {_shown(value)}")
        return value

    read.__name__ = "int"
    return read


def number(flag: str, low: float, high: float, low_open: bool = False) -> Callable[[str], float]:
    """An argparse type: a finite number within low..high (above low if ``low_open``)."""

    def read(text: str) -> float:
        value = float(text)  # ValueError: argparse says "invalid float value"
        if not math.isfinite(value):
            raise GeolabError(f"{flag} must be a finite number, got {text.strip()!r}")
        if value < low or (low_open and value == low) or value > high:
            side = f"above {low:g}" if low_open else f"at least {low:g}"
            raise GeolabError(f"{flag} must be {side} and at most {high:g}, got {value:g}")
        return value

    read.__name__ = "float"
    return read


#: ``--seed`` of every command
seed = whole("--seed", 0, SEED_MAX, "2**63-1: seeds are 63-bit whole numbers")
#: ``--threads`` of every command
threads = whole("--threads", 1, max_threads, "the larger of 64 and 8 a core")
#: ``--chunk`` of ``simulate``
chunk = whole("--chunk", 1, CHUNK_MAX, "a chunk is cut to the games played")
#: ``--games`` of ``simulate`` (deals, each under every rotation)
simulate_games = whole("--games", 1, SUMMARY_GAMES, "the most deals a summary plays")
#: ``--games`` of ``arena`` (duplicate deals a pair)
arena_games = whole("--games", 1, MAX_GAMES, "the arena keeps every game: geolab.lab.tables.MAX_GAMES")
#: ``--games`` of ``bench`` (games or rounds a timed run)
bench_games = whole("--games", 1, BENCH_GAMES, "a timed run's games are held in memory")
#: ``--runs`` of ``bench``
runs = whole("--runs", 1, 1000, "medians of more runs say nothing new")
#: ``--deals`` and ``--batch`` of ``bench solver``
solver_deals = whole("--deals", 1, 10**6, "each is timed on its own, about a millisecond each")
solver_batch = whole("--batch", 1, 10**7, "the batch's deals and answers are held in memory")
#: ``--samples``, ``--degree`` and ``--alpha`` of ``train ranks``
train_samples = whole("--samples", 50, 200_000, "every sample keeps each legal action's features in memory")
train_degree = whole("--degree", 1, 2, "the feature terms are linear or quadratic")
train_alpha = number("--alpha", 0.0, 1e6, low_open=True)
#: ``--check`` and ``--refine`` of ``equilibrium class``
equilibrium_check = whole("--check", 0, 100_000, "19,600 hands x 3 discards x this many groups are simulated")
equilibrium_refine = whole("--refine", 0, 1000, "each step is a new check on real deals")


def rules_arguments(p) -> None:
    """``--rules PRESET`` and repeated ``--set field=value``, for every command that plays."""
    p.add_argument("--rules", help="rules preset (see geolab rules GAME)")
    p.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE",
                   help="change one rules field (repeatable), e.g. --set end_at=none")


def game_rules(entry, args):
    """The rules ``--rules`` and ``--set`` name (the game's default preset without them)."""
    Rules = entry.game.Rules
    rules = Rules.preset(args.rules) if args.rules else Rules.preset(Rules.DEFAULT)
    return rules.with_settings(args.set) if args.set else rules
