"""The race model: how fast a player finds a winning combination in a hand, and who wins a
race of claims. Shared by every race of the family: GeoDouble's stage 1, Border-Up and
Dashing States (docs/race.md).

Which solutions a hand holds is exact (`geolab.games.groups`); how fast a player finds one is
sampled. The model reads a race as a visual search through the cards: in serial
self-terminating search the time to find a target grows linearly with the items to check,
and with k targets placed at random among n items the expected number of checks before the
first is (n + 1) / (k + 1) (Treisman and Gelade 1980, feature integration; Wolfe's Guided
Search, 1994 and 2021, for the linear slopes and the right-skewed spread of search times).
So a claim comes after

    seconds = base + per_card * (cards + 1) / (solutions + 1) ** exponent / speed * G

where G is a gamma draw of mean 1 and coefficient of variation `spread` (None of it for the
perfect model). With probability `error` the claim is wrong (a group that is not one, a card
used twice); a hand with no solution is searched to the end, (cards + 1) checks, and then
claimed falsely with probability `error` or not at all. A faster player wins races more often
but not always.

A race is settled by `settle`: the earliest claim decides. A valid first claim wins; a wrong
one gives the race to the other player (NOTES.md, from Border-Up); claims at the same second
go to the one that is valid if only one is, else to the tie-break (the deal's coin).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from geolab.game import param_range


@dataclass(frozen=True)
class RaceModel:
    """One player's speed and accuracy at a race, in seconds (module docstring)."""

    speed: float = 1.0  # search-speed multiplier: 2 checks cards twice as fast
    base: float = 3.0  # seconds to shout, lay down the groups and have them seen (no search)
    per_card: float = 1.5  # seconds to check one card (recall its borders, its capital)
    exponent: float = 0.5  # how the search shrinks with the solutions (1: independent targets; see docs/race.md)
    spread: float = 0.35  # coefficient of variation of the search time (0: always the mean)
    error: float = 0.03  # chance a claim is wrong
    #: How the player searches a hand without a solution: up to this many times the full scan,
    #: then claims falsely (with chance `error`) or gives up.
    patience: float = 1.0

    def __post_init__(self):
        param_range("speed", self.speed, 0, 100, low_open=True)
        param_range("base", self.base, 0, 600)
        param_range("per_card", self.per_card, 0, 60)
        param_range("exponent", self.exponent, 0, 3)
        param_range("spread", self.spread, 0, 3)
        param_range("error", self.error, 0, 1)
        param_range("patience", self.patience, 0, 100)

    @classmethod
    def named(cls, name: str, speed: float = 1.0, error: float | None = None) -> RaceModel:
        """``human`` (the defaults) or ``perfect`` (no spread, no errors, no motor time: the
        expected checks alone, so only the cards decide), at this speed and error."""
        if name == "human":
            model = cls(speed=speed)
        elif name == "perfect":
            model = cls(speed=speed, base=0.0, spread=0.0, error=0.0)
        else:
            raise ValueError(f"race must be human or perfect, got {name!r}")
        return model if error is None else cls(**{**model.__dict__, "error": error})

    def mean_seconds(self, cards, solutions) -> np.ndarray:
        """The expected seconds to a claim (a hand without a solution: to the end of the search)."""
        k = np.asarray(solutions, float)
        checks = (np.asarray(cards, float) + 1) / (k + 1) ** self.exponent
        checks = np.where(k > 0, checks, (np.asarray(cards, float) + 1) * self.patience)
        return self.base + self.per_card * checks / self.speed

    def sample(self, rng: np.random.Generator, cards, solutions) -> tuple[np.ndarray, np.ndarray]:
        """For each hand: the seconds of its claim (inf: no claim) and whether the claim is
        wrong. Draws, in this order, one uniform for the error and one gamma for the time per
        hand, so the same generator gives the same race."""
        k = np.asarray(solutions, np.int64)
        wrong = rng.random(k.shape) < self.error
        g = np.ones(k.shape) if self.spread == 0 else rng.standard_gamma(1 / self.spread ** 2, k.shape) * self.spread ** 2
        mean = self.mean_seconds(cards, k)
        seconds = self.base + (mean - self.base) * g
        seconds = np.where((k > 0) | wrong, seconds, np.inf)
        return seconds, wrong


def settle(seconds, valid, coin) -> np.ndarray:
    """The winner of each race (0, 1; -1 when nobody claimed): ``seconds`` (n, 2) of each
    seat's claim (inf: none), ``valid`` (n, 2) whether it holds, ``coin`` (n,) the tie-break.
    The earliest claim decides; a wrong first claim gives the race to the other seat; claims
    at the same second go to the valid one if only one is, else to the coin."""
    seconds, valid, coin = np.asarray(seconds, float), np.asarray(valid, bool), np.asarray(coin, np.int64)
    first = np.where(seconds[:, 0] < seconds[:, 1], 0, 1)
    tied = seconds[:, 0] == seconds[:, 1]
    rows = np.arange(len(first))
    winner = np.where(valid[rows, first], first, 1 - first)
    one_valid = valid[:, 0] != valid[:, 1]
    winner = np.where(tied, np.where(one_valid, np.where(valid[:, 0], 0, 1), coin), winner)
    return np.where(np.isinf(seconds).all(axis=1), -1, winner)
