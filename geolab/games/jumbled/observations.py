"""Jumbled GeoPower Choice: observations, what one seat may see of a batch of rounds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from geolab.games.jumbled.reference import category_probs
from geolab.games.jumbled.rules import Rules

if TYPE_CHECKING:
    from geolab.games.jumbled.batch import BatchRound


@dataclass(frozen=True)
class Observation:
    """A batch of decision points; row i is one seat in one game.

    Own information per row: ``hand`` (R, H) and ``used`` (R,) slot bits already played. Public
    per game (index with ``game``): ``call``, ``dealer``, ``scores`` (seat scores before the
    round), ``cards`` (G, S, P, M) cards laid in finished sets (-1 elsewhere) and ``turned``
    (G, S) GeoPower categories turned so far (-1 for the future). No other hand and no
    unturned GeoPower card is reachable from here.
    """

    rules: Rules
    round_index: int
    set_index: int
    game: np.ndarray
    seat: np.ndarray
    hand: np.ndarray
    used: np.ndarray
    call: np.ndarray
    dealer: np.ndarray
    scores: np.ndarray
    cards: np.ndarray
    turned: np.ndarray

    def __len__(self) -> int:
        return len(self.seat)

    def probs(self) -> np.ndarray:
        """(R, 3) chance of each category on the card about to be turned."""
        return category_probs(self.rules, self.turned, self.set_index)[self.game]

    def legal_mask(self) -> np.ndarray:
        """(R, 2**H) bool: which slot masks are legal choices now."""
        r, H = self.rules, self.rules.cards_dealt
        masks = np.arange(1 << H)
        pop = np.array([bin(m).count("1") for m in masks])
        played = np.array([bin(int(u)).count("1") for u in self.used])
        after = r.sets_per_round - self.set_index - 1
        left = r.cards_to_play - played
        lo = np.maximum(r.min_cards_per_set, left - after * r.max_cards_per_set)
        hi = np.minimum(r.max_cards_per_set, left - after * r.min_cards_per_set)
        free = (masks[None, :] & self.used[:, None].astype(np.int64)) == 0
        return free & (pop[None, :] >= lo[:, None]) & (pop[None, :] <= hi[:, None]) & (masks[None, :] > 0)


@dataclass(frozen=True)
class CallObservation:
    """Before the deal: the dealer sees the scores and the round number, nothing else."""

    rules: Rules
    round_index: int
    game: np.ndarray
    seat: np.ndarray
    scores: np.ndarray

    def __len__(self) -> int:
        return len(self.seat)


def readonly(a: np.ndarray) -> np.ndarray:
    v = a.view()
    v.flags.writeable = False
    return v


def observe(rnd: BatchRound, game: np.ndarray, seat: np.ndarray, scores: np.ndarray,
            dealer: np.ndarray, round_index: int) -> Observation:
    """The observation of the listed (game, seat) rows at the current set."""
    return Observation(
        rnd.rules, round_index, rnd.set_index, game, seat,
        rnd.hands[game, seat], rnd.used[game, seat], readonly(rnd.calls), readonly(dealer),
        readonly(scores), readonly(rnd.cards), rnd.turned,
    )
