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
one gives the race to the other player (as Border-Up's text says, docs/race.md); claims at the same second
go to the one that is valid if only one is, else as the game's tie rule says (`TIE_RULES`:
GeoDouble's coin, or Border-Up's tie, where nobody wins).

The pieces every game of groups claims shares (GeoDouble's stage 1, Border-Up) live here too,
so no race is written twice: one race of `Claim` s settled (`settle_claims`) and who claimed first
(`first_claims`); a claim as the engines write it (`claim`, `RaceModel.seat_claim`); a claim in a
record (`claim_record`, `read_claim`, `read_hand`); and the batch engines' race deal
(`deal_hands`: two hands from a key per game).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import njit

from geolab.cards import N_CARDS, POSTAL
from geolab.common.counter_rng import below_high, draw64
from geolab.errors import RecordError
from geolab.game import param_range, record_cards, shown
from geolab.stepwise import Claim

#: What claims at the same second give when not exactly one of them holds: ``coin``, the
#: deal's coin picks the winner (GeoDouble); ``tie``, nobody wins (Border-Up's text: "the game
#: is a tie unless only one team immediately shows its 2 winning groups").
TIE_RULES = ("coin", "tie")
#: `settle`'s winner where nobody wins: nobody claimed, or a tie under the ``tie`` rule.
NOBODY = -1
#: Opponent levels: named search speeds of the one race model (the other parameters its
#: defaults), slowest first. On an 18-card Border-Up hand (a median of 26 solutions) the median
#: claim comes after about 48 s (beginner: beatable by a newcomer), 21 s (club) and 8 s
#: (expert: the defaults); docs/race.md.
LEVELS = {"beginner": 0.12, "club": 0.3, "expert": 1.0}


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
    def named(cls, name: str, speed: float = 1.0, error: float | None = None, level: str | None = None) -> RaceModel:
        """``human`` (the defaults) or ``perfect`` (no spread, no errors, no motor time: the
        expected checks alone, so only the cards decide), at this speed and error; a `level`
        (`LEVELS`) multiplies the speed by its own, and a level's name is the human model at it."""
        if name in LEVELS and level is None:
            name, level = "human", name
        speed = speed * level_speed(level)
        if name == "human":
            model = cls(speed=speed)
        elif name == "perfect":
            model = cls(speed=speed, base=0.0, spread=0.0, error=0.0)
        else:
            raise ValueError(f"race must be human, perfect or a level ({', '.join(LEVELS)}), got {name!r}")
        return model if error is None else cls(**{**model.__dict__, "error": error})

    def mean_seconds(self, cards, solutions) -> np.ndarray:
        """The expected seconds to a claim (a hand without a solution: to the end of the search)."""
        k = np.asarray(solutions, float)
        checks = (np.asarray(cards, float) + 1) / (k + 1) ** self.exponent
        checks = np.where(k > 0, checks, (np.asarray(cards, float) + 1) * self.patience)
        return self.base + self.per_card * checks / self.speed

    def seconds(self, rng: np.random.Generator, checks) -> np.ndarray:
        """Seconds to a claim after `checks` card-checks (any shape): ``base + per_card * checks
        / speed`` times a gamma of mean 1 and coefficient of variation `spread`, one draw per
        entry (none for spread 0). For a race whose work is not a search among groups: Dashing
        States identifies and sorts its cards (`geolab.bots.dashing.model`)."""
        checks = np.asarray(checks, float)
        g = np.ones(checks.shape) if self.spread == 0 else \
            rng.standard_gamma(1 / self.spread ** 2, checks.shape) * self.spread ** 2
        return self.base + self.per_card * checks / self.speed * g

    def sample(self, rng: np.random.Generator, cards, solutions) -> tuple[np.ndarray, np.ndarray]:
        """For each hand: the seconds of its claim (inf: no claim) and whether the claim is
        wrong. Draws, in this order, one uniform for the error and one gamma for the time per
        hand, so the same generator gives the same race."""
        k = np.asarray(solutions, np.int64)
        wrong = rng.random(k.shape) < self.error
        g = (np.ones(k.shape) if self.spread == 0
             else rng.standard_gamma(1 / self.spread ** 2, k.shape) * self.spread ** 2)
        mean = self.mean_seconds(cards, k)
        seconds = self.base + (mean - self.base) * g
        seconds = np.where((k > 0) | wrong, seconds, np.inf)
        return seconds, wrong

    def give_up(self, cards: int) -> float:
        """The seconds a player searches a hand without a solution before it stops (and makes
        no claim): what the engines record as the time of a claim not made."""
        return float(self.mean_seconds(cards, 0))

    def seat_claim(self, rng: np.random.Generator, cards: int, legal: Sequence, wrong) -> Claim:
        """The player's claim at a race asked of one seat (the reference engine), whose legal
        actions are the hand's solutions in the finder's order, then `wrong`: drawn as
        `sample` draws a batch's, the first solution when it is right (the batch engines lay
        the finder's example, which is that solution)."""
        k = len(legal) - 1
        seconds, wrong_claim = self.sample(rng, np.array([cards]), np.array([k]))
        return claim(float(seconds[0]), bool(wrong_claim[0]), legal[0] if k else None, wrong, self.give_up(cards))


def level_speed(level: str | None) -> float:
    """The search speed of an opponent level (`LEVELS`; None: 1, the model's own)."""
    if level is None:
        return 1.0
    if level not in LEVELS:
        raise ValueError(f"level must be one of {', '.join(LEVELS)}, got {level!r}")
    return LEVELS[level]


def claim(seconds: float, wrong_claim: bool, solution, wrong, give_up: float) -> Claim:
    """One player's claim as the engines write it from the race model's draw: none where the
    seconds are infinite (written with the `give_up` seconds it searched), `wrong` where the
    claim is wrong or the hand holds no solution, else `solution` (the hand's first)."""
    if not math.isfinite(seconds):
        return Claim(None, float(give_up))
    return Claim(wrong if wrong_claim or solution is None else solution, float(seconds))


def settle(seconds, valid, coin=None, *, tie: str = "coin") -> np.ndarray:
    """The winner of each race (0, 1; `NOBODY`, -1, where nobody wins): ``seconds`` (n, 2) of
    each seat's claim (inf: none), ``valid`` (n, 2) whether it holds, ``coin`` (n,) the
    tie-break (needed by the ``coin`` rule only). The earliest claim decides; a wrong first
    claim gives the race to the other seat; claims at the same second go to the valid one if
    only one is, else by `tie` (`TIE_RULES`): to the coin, or to nobody. Nobody claiming: nobody."""
    if tie not in TIE_RULES:
        raise ValueError(f"tie must be one of {', '.join(TIE_RULES)}, got {tie!r}")
    seconds, valid = np.asarray(seconds, float), np.asarray(valid, bool)
    if tie == "coin":
        if coin is None:
            raise ValueError("the coin tie rule needs the coin")
        tied_winner = np.asarray(coin, np.int64)
    else:
        tied_winner = np.full(len(seconds), NOBODY, np.int64)
    earliest = np.where(seconds[:, 0] < seconds[:, 1], 0, 1)
    tied = seconds[:, 0] == seconds[:, 1]
    rows = np.arange(len(earliest))
    won = np.where(valid[rows, earliest], earliest, 1 - earliest)
    one_valid = valid[:, 0] != valid[:, 1]
    won = np.where(tied, np.where(one_valid, np.where(valid[:, 0], 0, 1), tied_winner), won)
    return np.where(np.isinf(seconds).all(axis=1), NOBODY, won)


# ----- fitting a player's speed -----------------------------------------------------------------
#: The profile-likelihood interval's cut: half the 95 % quantile of chi-square with 1 degree of freedom.
PROFILE_CUT = 3.841458820694124 / 2
SPEED_BOUNDS = (1e-3, 100.0)  # `RaceModel`'s speed range, as searched


@dataclass(frozen=True)
class SpeedFit:
    """A player's search speed fitted to their timed races (`fit_speed`): the maximum
    likelihood estimate, its 95 % profile-likelihood interval, the claims it rests on and the
    races that ended before the player claimed (censored: they searched at least that long)."""

    speed: float
    low: float
    high: float
    claims: int
    censored: int


def fit_speed(cards, solutions, seconds, claimed, model: RaceModel | None = None) -> SpeedFit:
    """The speed under which `model`'s other parameters (default: the race model's defaults)
    make the player's races most likely, by maximum likelihood: each race a hand of ``cards``
    with ``solutions``, the player's ``seconds`` and whether they ``claimed`` then (a claim,
    right or wrong: the model draws its time alike) or stopped searching without one (the
    rival claimed first, or a pass: right-censored, the search lasting at least that long).
    With ``x = (seconds - base) / (per_card * checks)``, ``speed * x`` is the model's gamma of
    mean 1, so x is gamma of shape ``1 / spread**2`` and rate ``speed / spread**2``; a claim
    sooner than `base` counts as one a hundredth of a check after it. A 1-D fit: the interval
    is where twice the log-likelihood drop stays under chi-square(1)'s 95 % quantile. Needs at
    least one claim; anything else is a `ValueError` line."""
    from scipy.optimize import brentq, minimize_scalar
    from scipy.special import gammaincc, gammaln

    model = model or RaceModel()
    if model.spread <= 0:
        raise ValueError("fitting needs a race model with spread above 0")
    cards, k = np.asarray(cards, float), np.asarray(solutions, float)
    seconds, claimed = np.asarray(seconds, float), np.asarray(claimed, bool)
    if not (cards.shape == k.shape == seconds.shape == claimed.shape) or cards.ndim != 1:
        raise ValueError("cards, solutions, seconds and claimed must be lists of one length")
    if not np.all(np.isfinite(seconds)) or np.any(seconds < 0):
        raise ValueError("seconds must be finite and at least 0")
    checks = np.where(k > 0, (cards + 1) / (k + 1) ** model.exponent, (cards + 1) * model.patience)
    x = (seconds - model.base) / (model.per_card * checks)
    floor = 0.01 / checks
    events = np.maximum(x[claimed], floor[claimed])
    gone = x[~claimed & (x > 0)]  # a search stopped before `base` tells nothing of the speed
    if not len(events):
        raise ValueError("no timed claims to fit (a race the player never claimed in does not say how fast "
                         "they find one)")
    a = 1 / model.spread ** 2

    def loglik(speed: float) -> float:
        rate = a * speed
        value = np.sum(a * np.log(rate) + (a - 1) * np.log(events) - rate * events - gammaln(a))
        return float(value + np.sum(np.log(np.maximum(gammaincc(a, rate * gone), 1e-300))))

    lo, hi = np.log(SPEED_BOUNDS[0]), np.log(SPEED_BOUNDS[1])
    best = minimize_scalar(lambda u: -loglik(np.exp(u)), bounds=(lo, hi), method="bounded",
                           options={"xatol": 1e-7})
    u, top = float(best.x), -float(best.fun)

    def drop(v: float) -> float:
        return top - loglik(np.exp(v)) - PROFILE_CUT

    low = lo if drop(lo) <= 0 else brentq(drop, lo, u)
    high = hi if drop(hi) <= 0 else brentq(drop, u, hi)
    return SpeedFit(float(np.exp(u)), float(np.exp(low)), float(np.exp(high)), int(len(events)), int(len(gone)))


# ----- one race of claims ----------------------------------------------------------------------
def _seconds(c: Claim) -> float:
    return c.seconds if c.action is not None else math.inf


def settle_claims(claims: Sequence[Claim], wrong, coin: int | None = None, tie: str = "coin") -> int:
    """One race of two seats' `Claim` s settled (`settle`): a claim holds unless it is none or
    `wrong` (every other legal claim is a solution)."""
    seconds = [[_seconds(c) for c in claims]]
    valid = [[c.action is not None and c.action != wrong for c in claims]]
    return int(settle(seconds, valid, None if coin is None else [coin], tie=tie)[0])


def race_length(claims: Sequence[Claim]) -> float:
    """Seconds a race lasted: to the first claim, or (nobody claiming) until the later seat
    gave up its search (a claim not made is written with the seconds searched)."""
    made = [c.seconds for c in claims if c.action is not None]
    return float(min(made)) if made else float(max(c.seconds for c in claims))


def first_claims(claims: Sequence[Claim]) -> tuple[int, ...]:
    """The seats whose claim came first: both when at the same second, none when nobody
    claimed. Only these claims are made at the table; a later one is never seen."""
    t = [_seconds(c) for c in claims]
    if all(math.isinf(x) for x in t):
        return ()
    return tuple(s for s, x in enumerate(t) if x == min(t))


# ----- claims in records -----------------------------------------------------------------------
def claim_record(c: Claim, wrong, groups: Callable[[Any], Sequence[Sequence[int]]]) -> list:
    """A claim as records write it: ``[claim, seconds]``, the claim being its groups as lists
    of postal codes (``groups(action)``, in the game's order), ``"wrong"`` (a wrong claim whose
    cards were not kept: a bot's), ``{"wrong": [group, ...]}`` (a wrong claim with the cards it
    laid, `Claim.laid`: two groups of three, the smaller first, or six cards, each in card
    order) or null (none)."""
    if c.action is None:
        claimed = None
    elif c.action == wrong:
        claimed = {"wrong": [[POSTAL[x] for x in g] for g in c.laid]} if c.laid else "wrong"
    else:
        claimed = [[POSTAL[x] for x in g] for g in groups(c.action)]
    return [claimed, c.seconds]


def read_claim(value, where: str, wrong, make: Callable[[list[tuple[int, ...]]], Any], groups: int = 2,
               hand: Sequence[int] | None = None) -> Claim:
    """A record's ``[claim, seconds]`` (`claim_record`) read back: `groups` lists of three postal
    codes, each in card order as records write them, given to ``make`` (which refuses an order
    the game does not write with a `RecordError`), ``"wrong"``, a wrong claim with its cards
    (`read_laid`, of the seat's `hand` where given) or null; the seconds a real number at
    least 0 (``12.0``, as records write them: a whole number is not the same JSON). Anything
    else is one `RecordError` naming `where`."""
    if not isinstance(value, list) or len(value) != 2:
        raise RecordError(f"{where}: expected [claim, seconds]")
    claimed, seconds = value[0], read_seconds(value[1], where)
    if claimed is None:
        return Claim(None, seconds)
    if claimed == "wrong":
        return Claim(wrong, seconds)
    if isinstance(claimed, dict) and list(claimed) == ["wrong"]:
        return Claim(wrong, seconds, read_laid(claimed["wrong"], f"{where}.wrong", hand))
    if not (isinstance(claimed, list) and len(claimed) == groups
            and all(isinstance(g, list) and len(g) == 3 for g in claimed)):
        raise RecordError(f"{where}: a claim is {groups} lists of three postal codes, \"wrong\", "
                          "{\"wrong\": [its cards]} or null, "
                          f"got {shown(claimed)}")
    return Claim(make([read_hand(g, where) for g in claimed]), seconds)


def read_laid(value, where: str, hand: Sequence[int] | None = None) -> tuple[tuple[int, ...], ...]:
    """A wrong claim's cards as records write them (`claim_record`): two groups of three
    postal codes, the smaller first, or one of six, each in card order, no card twice, every
    card of `hand` where given; else one `RecordError` naming `where`."""
    if not (isinstance(value, list) and [len(g) if isinstance(g, list) else 0 for g in value] in ([3, 3], [6])):
        raise RecordError(f"{where}: a wrong claim's cards are two lists of three postal codes or one of six, "
                          f"got {shown(value)}")
    laid = tuple(read_hand(g, where) for g in value)
    if len(laid) == 2:
        if laid[0] >= laid[1]:
            raise RecordError(f"{where}: the smaller group comes first ({' '.join(POSTAL[c] for c in laid[1])} "
                              f"before {' '.join(POSTAL[c] for c in laid[0])}, in card order)")
        both = set(laid[0]) & set(laid[1])
        if both:
            raise RecordError(f"{where}: {POSTAL[min(both)]} is in both groups")
    if hand is not None:
        stray = [c for g in laid for c in g if c not in set(hand)]
        if stray:
            raise RecordError(f"{where}: {POSTAL[stray[0]]} is not in the team's hand")
    return laid


def read_seconds(value, where: str) -> float:
    """A claim's seconds as records write them: a real number at least 0 (``12.0``; a whole
    number is not the same JSON, so a record that wrote one would not be the record of its
    replay), else one `RecordError` naming `where`."""
    if not isinstance(value, float) or not math.isfinite(value) or value < 0:
        raise RecordError(f"{where}: seconds must be a real number at least 0 (such as 12.0), got {shown(value)}")
    return value


def read_hand(names, where: str, size: int | None = None) -> tuple[int, ...]:
    """Postal codes as records write a hand or a group: known, each once, in card order (the
    order of the states' names, as `geolab cards` lists them), `size` of them where given."""
    cards = tuple(record_cards(names, where))
    if size is not None and len(cards) != size:
        raise RecordError(f"{where}: {len(cards)} cards, expected {size}")
    for a, b in zip(cards, cards[1:]):
        if a == b:
            raise RecordError(f"{where}: {POSTAL[a]} is listed twice")
        if a > b:
            raise RecordError(f"{where}: {POSTAL[b]} comes before {POSTAL[a]} in card order (records list cards "
                              "in card order)")
    return cards


# ----- the batch engines' race deal ------------------------------------------------------------
@njit(cache=True, nogil=True)
def deal_hands(keys, picks, rows, k, masks):
    """Game picks[i] of a block dealt from its key: the partial shuffle of the 50 cards that
    `geolab.common.shuffle.shuffled_prefix` makes, swap j drawn from draw j of the key's
    counter stream (`geolab.common.counter_rng`); its first k cards are A's hand, the next k
    B's, into masks[rows[i]] as int64 card masks. A key per game, not the shuffle's floats, so a
    redeal that few games of a block need draws one word a game."""
    deck = np.empty(N_CARDS, np.int64)
    for i in range(rows.shape[0]):
        for c in range(N_CARDS):
            deck[c] = c
        for j in range(2 * k):
            pick = j + below_high(draw64(keys[picks[i]], j), N_CARDS - j)
            deck[j], deck[pick] = deck[pick], deck[j]
        for s in range(2):
            m = np.int64(0)
            for j in range(k):
                m |= np.int64(1) << deck[s * k + j]
            masks[rows[i], s] = m
