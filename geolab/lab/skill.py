"""Skill and luck beyond one line-up (docs/balance.md): the skill curve of a search bot at
doubling sample counts, van der Genugten and Borm's skill share with the peeking oracle as the
player who knows the chance outcomes, restricted play (Jaffe et al.), and series to a points
target (lead changes, a bonus that decides the winner).

Everything is read from a game's registry entry, so every registered game gets what applies
to it, and what does not apply is said, with the reason:

- the skill curve uses the first bot registered with ``skill_curve=(spec with {n}, sample
  counts)`` (`geolab.game.Bots.add`; Play the Ranks and Jumbled: ``montecarlo``);
- the beginner is the first bot of family ``random``, the strong player ("optimal" in the
  literature) the first bot of the game's simulate line-up unless one is named, and the
  oracle the first bot registered with ``peeks=True``;
- restricted play uses every bot registered with ``restrictions`` (the values its ``forbid``
  parameter takes) and ``not_applicable(rules, choice)`` (why a choice is never open, or
  forced, under given rules);
- series need the game's points target (``series_target(rules)`` of the game, or a
  ``target_points`` rules field) and ``points_<seat>`` columns in its batch.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from geolab.game import BotInfo, split_bots
from geolab.lab.series import Estimate, flips, walk
from geolab.lab.stats import z_value
from geolab.lab.tables import bot_shares, duplicate, play_totals
from geolab.registry import Entry

#: What the report card says of the oracle wherever it is used (it sees hidden cards).
ORACLE = "oracle (peeks)"


class NotApplicable(Exception):
    """A metric that does not apply to a game or to its rules; the text says why."""


# ----- what a game offers ---------------------------------------------------------------------
@dataclass(frozen=True)
class Restriction:
    bot: str  # the unrestricted bot
    choice: str  # forbid=choice
    info: BotInfo = field(repr=False, compare=False)

    @property
    def spec(self) -> str:
        return f"{self.bot}:forbid={self.choice}"

    def reason(self, rules) -> str | None:
        """Why this restriction means nothing under `rules`, or None."""
        return self.info.not_applicable(rules, self.choice)


@dataclass(frozen=True)
class Plan:
    """The bots each metric uses for one game (see the module docstring)."""

    beginner: str | None
    strong: str
    oracle: str | None
    curve: tuple[tuple[str, str], ...]  # (label, bot spec), weakest first
    restrictions: tuple[Restriction, ...]


def plan(entry: Entry, strong: str | None = None) -> Plan:
    infos = [entry.bots.info(n) for n in entry.bots.names()]
    beginner = next((i.name for i in infos if i.family == "random"), None)
    oracle = next((i.name for i in infos if i.peeks), None)
    curve: tuple[tuple[str, str], ...] = ()
    for info in infos:
        if info.skill_curve:
            template, counts = info.skill_curve
            key = re.search(r"(\w+)=\{n\}", template)
            curve = tuple((f"{key.group(1) if key else 'n'}={n}", template.format(n=n)) for n in counts)
            break
    restrictions = tuple(Restriction(i.name, choice, i) for i in infos for choice in i.restrictions)
    return Plan(beginner, strong or split_bots(entry.simulate_bots)[0], oracle, curve, restrictions)


def fair(seating) -> float:
    """The fair share of the first bot of `seating`: the seats it holds over all seats."""
    return seating.count(seating[0]) / len(seating)


def alone(entry: Entry, rules, bot: str, field_bot: str) -> list[str]:
    """`bot` at one seat, `field_bot` at every other (the seating's rotations put it at each)."""
    return [bot] + [field_bot] * (entry.game.seats(rules) - 1)


# ----- the skill curve -----------------------------------------------------------------------
@dataclass(frozen=True)
class Rung:
    high: tuple[str, str]  # (label, spec)
    low: tuple[str, str]
    share: Estimate  # the higher rung's win share
    fair: float


def skill_curve(entry: Entry, rules, deals: int, seed: int, threads: int | None = None,
                curve: tuple[tuple[str, str], ...] | None = None) -> list[Rung]:
    """Each rung of the curve against the rung below on duplicate deals (the two bots seated
    alternately, every rotation): the higher rung's win share and its fair share."""
    curve = plan(entry).curve if curve is None else curve
    if len(curve) < 2:
        raise NotApplicable(f"no {entry.name} bot is marked with sample counts to double (a factory's skill_curve)")
    seats = entry.game.seats(rules)
    out = []
    for low, high in zip(curve, curve[1:]):
        totals = play_totals(entry, rules, [high[1], low[1]], deals, seed, threads=threads)
        value, lo, hi = totals.interval(("bot", high[1]))
        out.append(Rung(high, low, Estimate(value, lo, hi, totals.deals), -(-seats // 2) / seats))
    return out


# ----- van der Genugten and Borm's skill share -----------------------------------------------------
def per_deal(entry: Entry, rules, seating, deals: int, seed: int, threads: int | None = None) -> np.ndarray:
    """The first bot of `seating`'s share of each deal's wins, averaged over the rotations."""
    turns, played = duplicate(entry, rules, seating, deals, seed, threads=threads)
    return bot_shares(turns, played)[seating[0]]


def ratio(top: np.ndarray, bottom: np.ndarray) -> Estimate:
    """mean(top) / mean(bottom) over paired samples, with the delta-method interval of a ratio
    estimator (the per-sample residuals top - r * bottom, over n and |mean(bottom)|). NaN
    when the bottom's mean is not clearly above zero (nothing to share)."""
    top, bottom = np.asarray(top, float), np.asarray(bottom, float)
    n = len(top)
    if n < 2 or not bottom.mean() > 1e-12:
        return Estimate(math.nan, math.nan, math.nan, n)
    r = top.mean() / bottom.mean()
    se = (top - r * bottom).std(ddof=1) / math.sqrt(n) / bottom.mean()
    half = z_value() * se
    return Estimate(float(r), float(r - half), float(r + half), n)


@dataclass(frozen=True)
class SkillShare:
    beginner: str
    strong: str
    oracle: str | None
    learning: Estimate  # strong - beginner
    chance: Estimate | None  # oracle - strong
    share: Estimate | None  # learning / (learning + chance)


def skill_share(entry: Entry, rules, deals: int, seed: int, threads: int | None = None,
                strong: str | None = None) -> SkillShare:
    """van der Genugten and Borm's skill share on duplicate deals, every result a player's
    share of the wins with the strong player at every other seat (docs/balance.md):
    learning = R(strong) - R(beginner), chance = R(oracle) - R(strong), share = learning /
    (learning + chance). R(strong) is the fair share 1/seats exactly (self-play)."""
    p = plan(entry, strong)
    if p.beginner is None:
        raise NotApplicable(f"no beginner: no {entry.name} bot of family random")
    seats = entry.game.seats(rules)
    fair_share = 1 / seats
    beginner = per_deal(entry, rules, alone(entry, rules, p.beginner, p.strong), deals, seed, threads) \
        if p.beginner != p.strong else np.full(deals, fair_share)
    learning = fair_share - beginner
    if p.oracle is None:
        return SkillShare(p.beginner, p.strong, None, Estimate.of(learning), None, None)
    oracle = per_deal(entry, rules, alone(entry, rules, p.oracle, p.strong), deals, seed, threads)
    chance = oracle - fair_share
    return SkillShare(p.beginner, p.strong, p.oracle, Estimate.of(learning), Estimate.of(chance),
                      ratio(learning, learning + chance))


# ----- restricted play -----------------------------------------------------------------------
@dataclass(frozen=True)
class Restricted:
    restriction: Restriction
    cost: Estimate  # fair share - the restricted bot's win share
    share: Estimate
    fair: float
    series_cost: Estimate | None = None  # the same on series, where the rules play them


def restricted(entry: Entry, rules, restriction: Restriction, deals: int, seed: int,
               threads: int | None = None) -> Restricted:
    """The restricted bot at one seat, the same bot unrestricted at every other, on duplicate
    deals: its win share and the cost of the restriction (fair share minus that share)."""
    reason = restriction.reason(rules)
    if reason:
        raise NotApplicable(reason)
    seating = alone(entry, rules, restriction.spec, restriction.bot)
    target = series_target(entry, rules)
    frames: list | None = [] if target is not None else None
    totals = play_totals(entry, rules, seating, deals, seed, threads=threads, frames=frames)
    value, low, high = totals.interval(("bot", restriction.spec))
    share = Estimate(value, low, high, totals.deals)
    fair_share = fair(seating)
    cost = Estimate(fair_share - value, fair_share - high, fair_share - low, totals.deals)
    series_cost = None
    if frames:
        try:
            won = series_shares(entry, rules, pd.concat(frames, ignore_index=True), restriction.spec, target)
        except NotApplicable:  # no points to add up: the games' cost alone
            won = None
        if won is not None:
            series_cost = Estimate(fair_share - won.value, fair_share - won.high, fair_share - won.low, won.n)
    return Restricted(restriction, cost, share, fair_share, series_cost)


# ----- series --------------------------------------------------------------------------------
def series_target(entry: Entry, rules) -> int | None:
    """Points that win a series under `rules` (None: one game is the match)."""
    return entry.game.series_target(rules)


def check_series(entry: Entry, rules) -> int:
    """The series target, or NotApplicable saying why there are no series to measure."""
    target = series_target(entry, rules)
    if target is None:
        raise NotApplicable("these rules play one game as the match, not a series of games to a points target")
    return target


def _points(entry: Entry, rules, games: pd.DataFrame, rotation: int) -> np.ndarray:
    names = [entry.game.seat_name(rules, s) for s in range(entry.game.seats(rules))]
    columns = [f"points_{n}" for n in names]
    missing = [c for c in columns if c not in games.columns]
    if missing:
        raise NotApplicable(f"the {entry.name} batch engine gives no points per game ({missing[0]}), so series "
                            "cannot be added up")
    rows = games[games["rotation"] == rotation].sort_values("deal", kind="stable")
    return rows[columns].to_numpy(np.int64)


@dataclass(frozen=True)
class SeriesStats:
    target: int
    series: int  # series played out (the first rotation's)
    games: Estimate  # games a series
    lead_changes: Estimate  # per series
    comeback: Estimate  # share of series with at least one lead change
    bonus_paid: Estimate | None  # share of games won at a bonus level
    bonus_flips: Estimate | None  # share of series whose winner the bonus changes


def series_stats(entry: Entry, rules, games: pd.DataFrame) -> SeriesStats:
    """Series of the first rotation's games (self-play has only one), in deal order."""
    target = check_series(entry, rules)
    points = _points(entry, rules, games, 0)
    played = walk(points, target)
    changes = np.array([s.lead_changes for s in played], float)
    paid = flipped = None
    rows = games[games["rotation"] == 0].sort_values("deal", kind="stable")
    plain = unbonused(entry, rules, rows, points)
    if plain is not None:
        paid = Estimate.of((plain != points).any(axis=1))
        flipped = Estimate.of(flips(points, plain, target))
    return SeriesStats(target, len(played), Estimate.of([s.games for s in played]), Estimate.of(changes),
                       Estimate.of(changes > 0), paid, flipped)


def unbonused(entry: Entry, rules, games: pd.DataFrame, points: np.ndarray) -> np.ndarray | None:
    """The same games' points with every win paid at the bonus-free level and ties unchanged,
    where the rules pay a bonus (`geolab.game.Game.bonus_free_points`); else None. `games`: the
    game table rows of `points`, in the same order."""
    plain = entry.game.bonus_free_points(rules)
    if plain is None:
        return None
    names = [entry.game.seat_name(rules, s) for s in range(entry.game.seats(rules))]
    sole = games[[f"score_{n}" for n in names]].to_numpy() == 1  # the seat that won the game alone
    decided = sole.any(axis=1, keepdims=True)
    return np.where(sole, plain, np.where(decided, 0, points))


def series_shares(entry: Entry, rules, games: pd.DataFrame, bot: str, target: int) -> Estimate | None:
    """`bot`'s share of the series won, seating by seating (each rotation's games in deal
    order make their own series), pooled over the rotations."""
    names = [entry.game.seat_name(rules, s) for s in range(entry.game.seats(rules))]
    parts = []
    for r in sorted(games["rotation"].unique()):
        rows = games[games["rotation"] == r]
        seats = [s for s, n in enumerate(names) if rows[f"bot_{n}"].iloc[0] == bot]
        played = walk(_points(entry, rules, games, int(r)), target)
        parts.append([1.0 if s.winner in seats else 0.0 for s in played])
    return Estimate.pooled(parts) if parts else None
