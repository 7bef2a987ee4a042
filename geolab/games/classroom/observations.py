"""Class GeoPower Double Choice: what a student may see when discarding."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from geolab.games.classroom.rules import Rules


def observe(hands, call, opponents) -> dict:
    """What a student may see when discarding: own cards (sorted, so order tells nothing),
    the call, and how many students compete in the round besides them. Nothing else."""
    hands = np.sort(np.asarray(hands, dtype=np.int64), axis=1)
    n = len(hands)
    return {
        "hand": hands,
        "call": np.broadcast_to(np.asarray(call, dtype=np.int64), (n,)).copy(),
        "opponents": np.broadcast_to(np.asarray(opponents, dtype=np.int64), (n,)).copy(),
    }


@dataclass(frozen=True)
class Seen:
    """A finished round as the whole class saw it: the call, the GeoPower card turned, each
    contest (a group, or the finalists) as (student, the cards it kept, sorted, their sum) in
    seat order, and the winners. The kept cards are shown to compare sums; no discard is."""

    stage: str
    call: int
    category: int
    contests: tuple[tuple[tuple[int, tuple[int, ...], int], ...], ...]
    winners: tuple[int, ...]


@dataclass(frozen=True)
class View:
    """One student's discard decision as the reference engine asks it (`geolab.game.Decision`
    observation), as plain values so that two views compare equal exactly when the student
    saw the same thing. Policies read only the three facts of `observe` (`batch`); the rest
    is what the class has seen too, for a person's screen: the rules, which round of the
    game this is (`round`, 0-based: the Starting Rounds, then the Championship and its
    replays), the students competing in it (`contest`, this one included) and every round
    finished before it (`history`)."""

    hand: tuple[int, ...]  # sorted
    call: int
    opponents: int
    rules: Rules
    round: int
    contest: tuple[int, ...]
    history: tuple[Seen, ...]

    def batch(self) -> dict:
        """The one-row observation a batched policy's ``act(obs, rng)`` reads."""
        return observe([self.hand], self.call, self.opponents)
