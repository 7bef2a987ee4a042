"""GeoDouble's reference engine: the match as the rule text reads, step by step.

A round is a race (stage 1), then, unless the race brought a player to the target, a deal of
Play the Ranks (stage 2) played by Play the Ranks' own engine as a stage of the match
(`geolab.stepwise.stage`), with the race winner as dealer and first lead. Rounds go on until
a player reaches `Rules.target` (the match ends that moment) or `Rules.max_rounds` have been
played.

**The race.** Each player is dealt `race_cards` cards; if neither hand holds a GeoDouble
solution (a border group and a capital group, disjoint: `geolab.games.groups`), the race is
dealt again, up to `redeals` times (then it is void). Both players are then asked at once, a
timed decision: each answers with a `geolab.stepwise.Claim` of one of its hand's solutions
(laid face-up) or a wrong claim (`WRONG`), and its seconds, or no claim. The race is settled
by `geolab.games.race.settle_claims`: the earliest claim decides, a wrong one gives the race to the
other player, simultaneous claims go to the valid one, else to the round's coin. Nobody
claiming leaves the race void (no points; the coin deals).

**What a seat sees** (`MatchView`): the score, the rounds so far as it saw them, and now
either its race hand or its Play the Ranks `View`. Of a race it sees the first claim (both,
if simultaneous) and its own, never the other's hand.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import NamedTuple

import numpy as np

from geolab.cards import N_CARDS, POSTAL
from geolab.errors import IllegalActionError
from geolab.game import Decision
from geolab.games import groups
from geolab.games.geodouble.rules import Rules
from geolab.games.race import first_claims, settle_claims
from geolab.games.ranks import reference as ranks
from geolab.stepwise import Ask, Chance, Claim, Determinized, Resampled, State, draw_cards, stage

SEATS = (0, 1)


class Solution(NamedTuple):
    """A claim laid face-up: a border group and a capital group, each its three cards in card
    order. `WRONG` (both empty) is a claim that holds no winning combination."""

    border: tuple[int, ...]
    capital: tuple[int, ...]

    def label(self) -> str:
        if not self.border:
            return "a wrong claim"
        return " ".join(POSTAL[c] for c in self.border) + " + " + " ".join(POSTAL[c] for c in self.capital)


WRONG = Solution((), ())


@cache
def _solutions(hand: tuple[int, ...], four_corners: bool, water: bool) -> tuple[Solution, ...]:
    found = groups.find(hand, four_corners, water)
    return tuple(Solution(b, c) for b in found.border for c in found.capital if not set(b) & set(c))


def solutions(rules: Rules, hand: Sequence[int]) -> tuple[Solution, ...]:
    """Every GeoDouble solution of a hand, in the finder's order (border group, then capital)."""
    return _solutions(tuple(sorted(int(c) for c in hand)), rules.four_corners, rules.water)


# ----- the deal ------------------------------------------------------------------------------
Hands = tuple[tuple[int, ...], tuple[int, ...]]


@dataclass(frozen=True)
class RoundDeal:
    """One round's cards: the race deals in order (every one before the last held no solution
    in either hand, so it was dealt again), the coin (the seat that wins a tied race, and deals
    when the race is void) and the stage-2 hands."""

    races: tuple[Hands, ...]
    coin: int
    stage: Hands


@dataclass(frozen=True)
class Deal:
    """A match's cards, round by round (as many rounds as it may last: `Rules.max_rounds`)."""

    rounds: tuple[RoundDeal, ...]


def _hands(cards: Sequence[int], size: int) -> Hands:
    return (tuple(sorted(int(c) for c in cards[:size])), tuple(sorted(int(c) for c in cards[size:2 * size])))


def has_solution(rules: Rules, hands: Hands) -> bool:
    return any(solutions(rules, h) for h in hands)


def deal_round(rules: Rules, rng: np.random.Generator) -> RoundDeal:
    races = []
    while True:
        races.append(_hands(rng.permutation(N_CARDS), rules.race_cards))
        if has_solution(rules, races[-1]) or len(races) > rules.redeals:
            break
    coin = int(rng.integers(2))
    return RoundDeal(tuple(races), coin, _hands(rng.permutation(N_CARDS), rules.stage.hand_size))


def deal_one(rules: Rules, rng: np.random.Generator) -> Deal:
    return Deal(tuple(deal_round(rules, rng) for _ in range(rules.max_rounds)))


# ----- what happened -------------------------------------------------------------------------
@dataclass(frozen=True)
class RacePlayed:
    """A settled race: the race deals, the coin, each seat's claim (None where no race was
    asked: every deal without a solution) and the winner (-1: void)."""

    races: tuple[Hands, ...]
    coin: int
    claims: tuple[Claim, Claim] | None
    winner: int

    def first(self) -> tuple[int, ...]:
        """The seats whose claim came first (both when at the same second; none unclaimed)."""
        return () if self.claims is None else first_claims(self.claims)


@dataclass
class RoundPlayed:
    race: RacePlayed
    stage: ranks.Game | None  # None: the race ended the match
    race_points: int = 10

    @property
    def points(self) -> tuple[int, int]:
        pts = [0, 0]
        if self.race.winner >= 0:
            pts[self.race.winner] += self.race_points
        if self.stage is not None:
            pts = [pts[s] + self.stage.points[s] for s in SEATS]
        return (pts[0], pts[1])

    @property
    def dealer(self) -> int:
        return self.race.winner if self.race.winner >= 0 else self.race.coin


@dataclass
class Played:
    """A match played by the reference engine: its rounds, in order."""

    rules: Rules
    rounds: list[RoundPlayed] = field(default_factory=list)

    @property
    def score(self) -> tuple[int, int]:
        return score_of(self.rounds)

    @property
    def winner(self) -> int | None:
        a, b = self.score
        return None if a == b else int(b > a)

    def scores(self) -> np.ndarray:
        w = self.winner
        return np.array([0.5, 0.5]) if w is None else np.eye(2)[w]


def score_of(rounds: Sequence[RoundPlayed]) -> tuple[int, int]:
    a = sum(r.points[0] for r in rounds)
    b = sum(r.points[1] for r in rounds)
    return (a, b)


# ----- what a seat sees ----------------------------------------------------------------------
@dataclass(frozen=True)
class RaceSeen:
    """A settled race as a seat saw it: its own claim, the first claim(s) (the others were
    never made at the table), the winner (-1: void) and the seat's own race hands.

    ``rival`` is the other's claim, made at the table or not, told to the seat once the race
    is over for the lesson after it (`geolab.games.race_views.Lesson`: both clocks, the
    rival's claim): for the table's words only, as Combo 1's `told`, so it is not part of the
    observation (its strings, tensors and equality leave it out) and no bot reads it. None
    where no race was run, or in a view built without it."""

    hands: tuple[tuple[int, ...], ...]  # the seat's hand in each race deal
    own: Claim | None
    first: tuple[tuple[int, Claim], ...]
    winner: int
    rival: Claim | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class RoundSeen:
    race: RaceSeen
    stage: ranks.View | None  # the seat's Play the Ranks view at the end of the stage
    points: tuple[int, int]


@dataclass(frozen=True)
class MatchView:
    """What one seat may see at a node of the match: the score, the rounds so far, and the
    stage now being played (its race hand, or its Play the Ranks `View`)."""

    rules: Rules
    seat: int
    round: int
    score: tuple[int, int]  # now: this round's race points counted once it is settled
    past: tuple[RoundSeen, ...]
    race_hand: tuple[int, ...] | None = None  # during the race
    attempt: int = 0  # race deals so far this round, this one included
    race: RaceSeen | None = None  # this round's race, once settled
    stage: ranks.View | None = None  # during stage 2

    @property
    def dealer(self) -> int | None:
        if self.race is None:
            return None
        return self.race.winner if self.race.winner >= 0 else None


def race_seen(race: RacePlayed, seat: int) -> RaceSeen:
    own, rival = (None, None) if race.claims is None else (race.claims[seat], race.claims[1 - seat])
    first = tuple((s, race.claims[s]) for s in race.first())
    return RaceSeen(tuple(h[seat] for h in race.races), own, first, race.winner, rival)


# ----- the reference engine ------------------------------------------------------------------
def race_decision(rules: Rules, seat: int, view: MatchView, hand: Sequence[int], where: str) -> Decision:
    """The race as one seat is asked it: any solution of its hand, or a wrong claim."""
    return Decision(seat, "claim", view, (*solutions(rules, hand), WRONG), where, timed=True)


def steps(rules: Rules, deal: Deal | None = None):
    """The match, as a generator of nodes (`geolab.stepwise`); returns the `Played` match.
    Without a deal, chance deals each race, coin and stage as it comes."""
    rules.validate()
    rounds: list[RoundPlayed] = []
    now: dict = {"race": None, "hand": None, "attempt": 0, "stage_view": None}

    def seen(seat: int) -> tuple[RoundSeen, ...]:
        return tuple(RoundSeen(race_seen(r.race, seat), None if r.stage is None else final_view(r.stage, seat),
                               r.points) for r in rounds)

    def observe(seat: int, stage_view: ranks.View | None = None) -> MatchView:
        race, hand, score = now["race"], now["hand"], list(score_of(rounds))
        if race is not None and race.winner >= 0:  # this round's race, not yet in a finished round
            score[race.winner] += rules.race_points
        return MatchView(rules, seat, len(rounds), (score[0], score[1]), seen(seat),
                         None if hand is None else hand[seat], now["attempt"],
                         None if race is None else race_seen(race, seat), stage_view)

    for r in range(rules.max_rounds):
        if max(score_of(rounds)) >= rules.target:
            break
        given = None if deal is None else _round_of(deal, r)
        where = f"round {r + 1}"
        races: list[Hands] = []
        while True:
            if given is None:
                cards = yield from draw_cards(range(N_CARDS), 2 * rules.race_cards)
                hands = _hands(cards, rules.race_cards)
            else:
                if len(races) >= len(given.races):
                    raise IllegalActionError(f"deal: {where}'s race deals run out: race {len(races)} held no solution")
                hands = _checked_hands(given.races[len(races)], rules.race_cards, f"{where}, race {len(races) + 1}")
            races.append(hands)
            if has_solution(rules, hands) or len(races) > rules.redeals:
                break
        if given is not None and len(races) != len(given.races):
            raise IllegalActionError(f"deal: {where}: race {len(races)} holds a solution, so it is not dealt again")
        coin = (yield Chance("coin", SEATS)) if given is None else _seat(given.coin, f"deal: {where} coin")
        now.update(hand=races[-1], attempt=len(races), race=None, stage_view=None)
        claims, winner = None, -1
        if has_solution(rules, races[-1]):
            asked = yield Ask(tuple(race_decision(rules, s, observe(s), races[-1][s], f"{where}, race") for s in SEATS),
                              observe)
            claims = (asked[0], asked[1])
            winner = settle_claims(claims, WRONG, coin)
        race = RacePlayed(tuple(races), coin, claims, winner)
        now.update(hand=None, race=race)
        played = RoundPlayed(race, None, rules.race_points)
        if winner >= 0 and score_of(rounds)[winner] + rules.race_points >= rules.target:
            rounds.append(played)
            break
        dealer = played.dealer
        if given is None:
            cards = yield from draw_cards(range(N_CARDS), 2 * rules.stage.hand_size)
            stage_hands = _hands(cards, rules.stage.hand_size)
        else:
            stage_hands = given.stage
        stage_deal = ranks.Deal(stage_hands, None, None, dealer)
        played.stage = yield from stage(ranks.steps(rules.stage, stage_deal),
                                        lambda seat, view: observe(seat, view), f"{where}, stage 2")
        now.update(race=None)
        rounds.append(played)
    return Played(rules, rounds)


def final_view(game: ranks.Game, seat: int) -> ranks.View:
    """The seat's Play the Ranks view at the end of a stage: what it saw of the whole deal."""
    mine = set(game.hands[seat]) - set(game.discards[seat]) - {t.lead if t.leader == seat else t.follow
                                                                 for t in game.tricks}
    rules = game.rules
    theirs = game.discards[1 - seat] if rules.discards_public else None
    return ranks.View(rules, seat, tuple(sorted(mine)), tuple(sorted(game.discards[seat])), theirs,
                      game.first_lead, game.declarations or (None, None), game.power_bases, tuple(game.tricks))


def _round_of(deal: Deal, r: int) -> RoundDeal:
    if not isinstance(deal, Deal) or r >= len(deal.rounds):
        raise IllegalActionError(f"deal: round {r + 1} is not dealt")
    return deal.rounds[r]


def _seat(value, where: str) -> int:
    if value not in SEATS or isinstance(value, bool):
        raise IllegalActionError(f"{where}: expected 0 or 1, got {value!r}")
    return int(value)


def _checked_hands(hands, size: int, where: str) -> Hands:
    seen: set[int] = set()
    for s, hand in enumerate(hands):
        if len(hand) != size:
            raise IllegalActionError(f"deal: {where}: {'AB'[s]} has {len(hand)} cards, expected {size}")
        for c in hand:
            if not (isinstance(c, (int, np.integer)) and 0 <= c < N_CARDS) or c in seen:
                raise IllegalActionError(f"deal: {where}: card {c!r} is not a card or is dealt twice")
            seen.add(int(c))
    return (tuple(sorted(hands[0])), tuple(sorted(hands[1])))


# ----- chance and hidden information -------------------------------------------------------
def deal_from_chance(rules: Rules, outcomes: Sequence[int]) -> Deal:
    """The rounds a chance-stepped match's outcomes make, in the order `steps` draws them (each
    race deal, the coin, the stage hands); a round chance has only begun is completed with the
    lowest cards left, side A's coin and a race without a solution dealt again."""
    rounds, k = [], 0
    outcomes = [int(o) for o in outcomes]

    def take(count: int) -> list[int]:
        nonlocal k
        got = outcomes[k:k + count]
        k += len(got)
        left = [c for c in range(N_CARDS) if c not in got]
        return got + left[:count - len(got)]

    while k < len(outcomes):
        races = []
        while True:
            races.append(_hands(take(2 * rules.race_cards), rules.race_cards))
            if has_solution(rules, races[-1]) or len(races) > rules.redeals or k >= len(outcomes):
                break
        coin = outcomes[k] if k < len(outcomes) else 0
        k += k < len(outcomes)
        rounds.append(RoundDeal(tuple(races), coin, _hands(take(2 * rules.stage.hand_size), rules.stage.hand_size)))
    return Deal(tuple(rounds))


def max_length(rules: Rules) -> int:
    """Every round: its race deals (each of 2 x race_cards cards), the coin, the race, then
    the stage's deal and decisions."""
    race = (rules.redeals + 1) * 2 * rules.race_cards + 1 + 1
    return rules.max_rounds * (race + ranks.max_length(rules.stage) - (rules.stage.first_lead == "given"))


def split_log(rules: Rules, deal: Deal, log: Sequence) -> list[dict]:
    """The log's answers by round: ``{"race": claims or None, "stage": [answers...]}``, up to
    the round now being played (``"dealt"``: whether its stage hands are dealt yet)."""
    pad = deal_round(rules, np.random.default_rng(0))  # rounds after the log: never reached
    state = State(ENGINE, rules, Deal((*deal.rounds, *(pad,) * (rules.max_rounds - len(deal.rounds)))))
    parts: list[dict] = []
    for entry in log:
        if entry[0] != "ask":
            continue
        view = state.observe(state.to_move()[0])
        while len(parts) <= view.round:
            parts.append({"race": None, "stage": []})
        if view.stage is None:
            parts[view.round]["race"] = entry
        else:
            parts[view.round]["stage"].append(entry)
        state.apply(entry[1])
    if not state.is_over():  # the round now being played, though nothing of it may be logged yet
        view = state.observe(0)
        while len(parts) <= view.round:
            parts.append({"race": None, "stage": []})
        parts[view.round]["dealt"] = view.stage is not None  # its stage hands are dealt
    return parts


def resample(rules: Rules, deal: Deal, log: Sequence, seat: int, rng: np.random.Generator) -> Resampled:
    """A deal and log `seat` cannot tell from these: in every round begun, the other's race
    hands dealt anew (holding the cards of its shown claim, and a solution or none as the
    real hands did, so the race goes the same way) and the stage resampled by Play the Ranks
    (`geolab.games.ranks.reference.resample`) on its part of the log, or dealt afresh where it
    has not begun; rounds not begun are dealt afresh. The coins of rounds begun are public, and
    kept."""
    parts = split_log(rules, deal, log)
    other = 1 - seat
    rounds, new_log = [], []
    for r in range(rules.max_rounds):
        if r >= len(parts):
            rounds.append(deal_round(rules, rng))
            continue
        given, part = deal.rounds[r], parts[r]
        claim = None if part["race"] is None else part["race"][1][other]
        keep = (set() if claim is None or claim.action in (None, WRONG)
                else {*claim.action.border, *claim.action.capital})
        races = tuple(_race_anew(rules, hands, seat, keep if k == len(given.races) - 1 else set(), rng)
                      for k, hands in enumerate(given.races))
        stage_hands = given.stage
        if part["stage"] or part.get("dealt"):
            dealer = _dealer(rules, given, part)
            new = ranks.resample(rules.stage, ranks.Deal(given.stage, None, None, dealer), part["stage"], seat, rng)
            stage_hands = new.deal.hands
            part = {**part, "stage": list(new.log)}
        else:  # not dealt yet: chance still to come
            stage_hands = _hands(rng.permutation(N_CARDS), rules.stage.hand_size)
        rounds.append(RoundDeal(races, given.coin, stage_hands))
        new_log += ([part["race"]] if part["race"] is not None else []) + list(part["stage"])
    return Resampled(Deal(tuple(rounds)), tuple(new_log))


def _dealer(rules: Rules, given: RoundDeal, part: dict) -> int:
    if part["race"] is None:
        return given.coin
    claims = part["race"][1]
    w = settle_claims([claims[s] for s in SEATS], WRONG, given.coin)
    return w if w >= 0 else given.coin


def _race_anew(rules: Rules, hands: Hands, seat: int, keep: set, rng) -> Hands:
    """The other's race hand dealt anew around the seat's, with `keep`, holding a solution
    exactly when the real one did (rejection: about one hand in nine has none)."""
    theirs = hand_anew(rules, hands[seat], keep, bool(solutions(rules, hands[1 - seat])), rng)
    if theirs is None:
        return hands  # pragma: no cover - a hand so constrained that no redraw matches: keep it
    return (hands[0], theirs) if seat == 0 else (theirs, hands[1])


def hand_anew(rules: Rules, avoid, keep, wanted: bool | None, rng) -> tuple[int, ...] | None:
    """A race hand holding `keep`, none of `avoid`, drawn uniformly among those that hold a
    solution (`wanted` True), none (False) or either (None), by rejection; None where 10,000
    draws found none."""
    pool = [c for c in range(N_CARDS) if c not in avoid and c not in keep]
    for _ in range(10_000):
        theirs = tuple(sorted({*keep,
                               *(int(c) for c in rng.choice(pool, rules.race_cards - len(keep), replace=False))}))
        if wanted is None or bool(solutions(rules, theirs)) == wanted:
            return theirs
    return None  # pragma: no cover


def determinize(rules: Rules, seat: int, view: MatchView, rng: np.random.Generator, game=None) -> State:
    """A state at the seat's node built from its `MatchView` alone, round by round: its own
    race hands as seen (the earlier deals of the race now run: any two hands without a
    solution), the other's drawn around them (holding the cards of a claim of its seen first,
    a solution where the seat's own has none, none in a deal dealt again or a race not run),
    the coin where the race or the dealer shows it (else drawn), each stage determinized by
    Play the Ranks (`geolab.games.ranks.reference.determinized`) from the view of it, and the
    claims as seen (a claim of the other's the seat never saw, after its own: no claim). Rounds
    not begun, and a stage not dealt yet, are dealt afresh. The state is of `game` (the
    registered one, whose action ids a search needs; default `ENGINE`)."""
    other = 1 - seat
    rounds = [(r.race, r.stage) for r in view.past]
    if view.race_hand is not None:  # the race now run: its own hand, not yet settled
        rounds.append((None, None))
    elif view.race is not None and view.stage is not None:  # the stage now played
        rounds.append((view.race, view.stage))
    deals, log = [], []
    for race, stage_view in rounds:
        if race is None:
            mine = [*([None] * (view.attempt - 1)), view.race_hand]
        else:
            mine = list(race.hands)
        seen_first = dict(race.first) if race is not None else {}
        claim = seen_first.get(other)
        keep = (set() if claim is None or claim.action in (None, WRONG)
                else {*claim.action.border, *claim.action.capital})
        raced = race is None or race.own is not None
        races = []
        for k, hand in enumerate(mine):
            last = k == len(mine) - 1
            if hand is None:
                hand = hand_anew(rules, (), set(), False, rng)
            want = (None if solutions(rules, hand) else True) if last and raced else False
            theirs = hand_anew(rules, hand, keep if last else set(), want, rng)
            races.append((hand, theirs) if seat == 0 else (theirs, hand))
        coin = int(rng.integers(2))
        if race is not None and race.winner >= 0 and len(race.first) == 2:
            coin = race.winner  # claims at the same second: the coin may have decided
        elif race is not None and race.winner < 0 and stage_view is not None:
            coin = stage_view.first_lead  # a void race: the coin deals
        stage_hands = _hands(rng.permutation(N_CARDS), rules.stage.hand_size)
        if race is not None and race.own is not None:
            log.append(("ask", {seat: race.own, other: claim if claim is not None else Claim(None, race.own.seconds)}))
        if stage_view is not None:
            new = ranks.determinized(rules.stage, seat, stage_view, rng)
            stage_hands = new.deal.hands
            log += [e for e in new.log if e[0] == "ask"]
        deals.append(RoundDeal(tuple(races), coin, stage_hands))
    deals += [deal_round(rules, rng) for _ in range(rules.max_rounds - len(deals))]
    return State(game or ENGINE, rules, Deal(tuple(deals)), log)


class Engine(Determinized):
    """GeoDouble's reference engine as a step-wise game (`geolab.stepwise.Determinized`)."""

    name = "geodouble"
    reference = sys.modules[__name__]


ENGINE = Engine()
