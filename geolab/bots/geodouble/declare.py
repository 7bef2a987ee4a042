"""When to declare GeoPlunging: the declaration policies a GeoDouble player names
(``player:declare=NAME``).

A policy answers for m rows at once, from a `Context`: what the deciding side may see when it
declares (its six cards kept, its two discards, whether it leads the first trick, the other's
declaration if already made) and the match score before the stage. Nothing else: no policy
sees the other's cards. It returns a bool array of shape (m,).

- ``never``, ``always``: as named.
- ``threshold``: declares when its stage win chance, read from the shipped win table
  (`geolab.bots.geodouble.estimate`: by hand strength, whether it leads, and the other's
  declaration), is above the player's ``threshold``.
- ``score``: declares when declaring raises its chance of winning the *match*: the same win
  chance, the stake it sets (5, 10 or 20 points) and the match value V(mine, theirs) of the
  score after the stage. As the dealer it declares first and assumes the other then declares
  when its own table chance is above 1/2 (`estimate.ASSUMED`); as the second it knows.
- ``montecarlo``: the same decision, its win chance (and the other's reply) from ``samples``
  deals of the other's cards played out by its trick bot (`geolab.bots.geodouble.rollouts`);
  as the second it keeps the deals in which the dealer, by the assumed rule, would have said
  what it said.

Docs: docs/geodouble-declare.md.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from geolab.bots.geodouble import estimate, rollouts


class Context(NamedTuple):
    """m declarations to make, one row each (arrays of m)."""

    rules: object  # the GeoDouble rules (the stage's are ``rules.stage``)
    hand: np.ndarray  # int64 mask: the six cards kept
    discards: np.ndarray  # int64 mask: the side's own discards
    leads: np.ndarray  # bool: the side deals and leads the first trick
    other: np.ndarray  # int8: the other's declaration (-1: not made yet, it declares second)
    mine: np.ndarray  # int64: the side's match score before the stage
    theirs: np.ndarray  # int64: the other's
    key: np.ndarray  # uint64: a random word per row, for randomised policies


class Declarer:
    """A declaration policy: ``policy(ctx, rng)`` -> (m,) bool; declares whether threads may share it."""

    thread_safe: bool = True

    def __call__(self, ctx: Context, rng) -> np.ndarray:
        raise NotImplementedError


class Never(Declarer):
    """Never declares: the stage is worth its 5 points, or 10 if the other declares."""

    def __call__(self, ctx: Context, rng) -> np.ndarray:
        return np.zeros(len(ctx.hand), bool)


class Always(Declarer):
    """Always declares."""

    def __call__(self, ctx: Context, rng) -> np.ndarray:
        return np.ones(len(ctx.hand), bool)


class Threshold(Declarer):
    """Declares when the win table's chance of winning the stage is above `threshold`."""

    def __init__(self, rules, threshold: float = 0.5, table: estimate.WinTable | None = None):
        self.table = table or estimate.shipped()
        self.table.check(rules.stage, "declare=threshold")
        self.threshold = float(threshold)

    def __call__(self, ctx: Context, rng) -> np.ndarray:
        return chance(self.table, ctx) > self.threshold


class Score(Declarer):
    """Declares when declaring raises its match-win chance (win table, match value table)."""

    def __init__(self, rules, table: estimate.WinTable | None = None):
        self.table = table or estimate.shipped()
        self.table.check(rules.stage, "declare=score")

    def __call__(self, ctx: Context, rng) -> np.ndarray:
        q_d, w_d, q_s, w_s = self.table.replies(ctx.hand)
        return by_value(ctx, estimate.values_for(ctx.rules, self.table), chance(self.table, ctx),
                        ((q_s, w_s), (q_d, w_d)))


class MonteCarlo(Declarer):
    """Plays `samples` deals of the other's cards out with its trick bot; declares as `Score`."""

    def __init__(self, rules, tricks, samples: int = 32, table: estimate.WinTable | None = None):
        self.tricks, self.samples = tricks, int(samples)
        self.table = table or estimate.shipped()
        self.table.check(rules.stage, "declare=montecarlo")
        self.thread_safe = tricks.thread_safe

    def estimate(self, ctx: Context):
        """(win chance, ((P(reply), P(reply and win)) after silence, after a declaration)) of
        each row from its rollouts; the replies by the assumed rule (for dealers)."""
        r = rollouts.play(ctx.rules.stage, self.tricks, ctx.hand | ctx.discards, ctx.discards, ctx.leads,
                          ctx.key, self.samples)
        t = self.table
        other = np.asarray(ctx.other)
        # the other as the dealer, by the assumed rule: keep the deals agreeing with what it said
        lead = t.lookup("lead", r.other_kept.ravel()).reshape(r.won.shape) > 0.5
        drop = (~np.asarray(ctx.leads, bool)[:, None] & (other[:, None] >= 0)) & (lead != (other[:, None] == 1))
        weight = np.where(drop, 0.0, 1.0)
        weight[weight.sum(axis=1) == 0] = 1.0  # no deal agrees: all of them
        p = (weight * r.won).sum(axis=1) / weight.sum(axis=1)
        replies = []
        for column in ("follow_silent", "follow_declared"):
            reply = t.lookup(column, r.other_kept.ravel()).reshape(r.won.shape) > 0.5
            replies.append((reply.mean(axis=1), (reply & r.won).mean(axis=1)))
        return p, tuple(replies)

    def __call__(self, ctx: Context, rng) -> np.ndarray:
        p, replies = self.estimate(ctx)
        return by_value(ctx, estimate.values_for(ctx.rules, self.table), p, replies)


def chance(table: estimate.WinTable, ctx: Context) -> np.ndarray:
    """Each row's stage win chance from the win table."""
    return table.estimate(ctx.hand, np.asarray(ctx.leads, bool), np.asarray(ctx.other))


def values_after(ctx: Context, values: np.ndarray, p: np.ndarray, replies) -> np.ndarray:
    """(m, 2): the match value of staying silent (column 0) and of declaring (column 1).

    Second (the other has said): the stake is ``win_points[other + declare]``, won with chance
    `p`. First (``other`` is -1): the other then declares with chance ``replies[d][0]`` and
    declares and loses to this side with ``replies[d][1]`` (d: this side declared), which set
    the stake at ``win_points[d + 1]``, else ``win_points[d]``. The value of a score is V of
    the next round's start (`estimate.match_values`)."""
    points = np.asarray(ctx.rules.stage.win_points, np.int64)
    last = ctx.rules.target - 1
    mine = np.clip(np.asarray(ctx.mine, np.int64), 0, last)
    theirs = np.clip(np.asarray(ctx.theirs, np.int64), 0, last)
    other = np.asarray(ctx.other).astype(np.int64)
    first = other < 0
    p = np.clip(np.asarray(p, float), 0, 1)
    out = np.empty((len(mine), 2))
    for d in (0, 1):
        s = points[np.clip(other, 0, 1) + d]
        second = p * values[mine + s, theirs] + (1 - p) * values[mine, theirs + s]
        q, w = (np.clip(np.asarray(x, float), 0, 1) for x in replies[d])
        w = np.minimum(w, np.minimum(p, q))
        one, two = points[d], points[d + 1]
        lead = (w * values[mine + two, theirs] + (p - w) * values[mine + one, theirs]
                + (q - w) * values[mine, theirs + two] + np.clip(1 - p - q + w, 0, 1) * values[mine, theirs + one])
        out[:, d] = np.where(first, lead, second)
    return out


def by_value(ctx: Context, values: np.ndarray, p: np.ndarray, replies) -> np.ndarray:
    """Declare where declaring is worth more to the match than silence (`values_after`)."""
    v = values_after(ctx, values, p, replies)
    return v[:, 1] > v[:, 0] + 1e-12


#: name -> (factory of the policy from the player's parameters, what it does)
POLICIES = {
    "never": (lambda rules, tricks, threshold, samples: Never(), "never declares"),
    "always": (lambda rules, tricks, threshold, samples: Always(), "always declares"),
    "threshold": (lambda rules, tricks, threshold, samples: Threshold(rules, threshold),
                  "declares when its table chance of winning the stage is above threshold"),
    "score": (lambda rules, tricks, threshold, samples: Score(rules),
              "declares when it raises its chance of winning the match (table chance, match value)"),
    "montecarlo": (lambda rules, tricks, threshold, samples: MonteCarlo(rules, tricks, samples),
                   "as score, its chance from samples deals of the other's cards played out by its trick bot"),
}
