"""A seat of a batch whose games are played by different bots: a tournament's round, where each
match of a block seats its own two teams.

Where a batch engine takes ``bots[s]`` for seat s, it may take a `Lineup` instead: game i at
that seat is played by ``lineup.bots[lineup.which[i]]``. The engine asks each bot for its own
games (`members`), one call each where it asked the seat once, every bot drawing from the
seat's generator in the lineup's order. So a block of many pairs of teams is one call of the
engine, not one a pair, and a bot's answer for a game is what it gives that game alone.

A bot class whose bots can answer many games of different bots at once says so with
``together(bots, which)``: a lineup of bots all of that class is then asked once, as the bot
it returns (which answers game i as ``bots[which[i]]`` would, drawing from the seat's
generator as that class documents). The State IQ player does: its per-call cost is what a
tournament's small batches pay.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from geolab.errors import GeolabError
from geolab.game import BatchBot, bot_name


@dataclass(frozen=True)
class Lineup:
    """Row i of the batch played by ``bots[which[i]]`` (module docstring)."""

    bots: tuple
    which: np.ndarray

    @property
    def name(self) -> str:
        return "lineup(" + " | ".join(bot_name(b) for b in self.bots) + ")"

    @property
    def thread_safe(self) -> bool:
        return all(b.thread_safe for b in self.bots)

    @staticmethod
    def of(bots: Sequence, labels: Sequence) -> Lineup:
        """The lineup that seats ``bots[i]`` at row i, bots of the same label playing as one
        (the first of them), in the order of their labels."""
        order = sorted(set(labels))
        first = {label: i for i, label in reversed(list(enumerate(labels)))}
        return Lineup(tuple(bots[first[label]] for label in order),
                      np.array([order.index(label) for label in labels], np.int64))


def members(bot, rows: np.ndarray) -> Iterator[tuple[object, np.ndarray]]:
    """The bots that play games `rows` at a seat, each with its positions among `rows`: `bot`
    itself at every position, or a `Lineup`'s bots that play any of them, in its order."""
    if not isinstance(bot, Lineup):
        yield bot, np.arange(len(rows))
        return
    which = bot.which[rows]
    if len(bot.bots) == 1:
        yield bot.bots[0], np.arange(len(rows))
        return
    kind = type(bot.bots[0])
    if kind.together is not None and all(type(b) is kind for b in bot.bots):
        yield kind.together(bot.bots, which), np.arange(len(rows))
        return
    order = np.argsort(which, kind="stable")
    ends = np.cumsum(np.bincount(which, minlength=len(bot.bots)))
    for k, member in enumerate(bot.bots):
        at = order[ends[k - 1] if k else 0:ends[k]]
        if len(at):
            yield member, at


def checked_bots(bots: Sequence) -> Sequence:
    """`bots` if each is a `geolab.game.BatchBot` (or a `Lineup` of them), else a one-line
    `GeolabError`: an engine reads only what that protocol declares."""
    for bot in bots:
        for member in each(bot):
            if not isinstance(member, BatchBot):
                raise GeolabError(f"{bot_name(member)!r} is not a bot (geolab.game.BatchBot)")
    return bots


def each(bot) -> tuple:
    """Every bot a seat holds (one, or a lineup's)."""
    return bot.bots if isinstance(bot, Lineup) else (bot,)
