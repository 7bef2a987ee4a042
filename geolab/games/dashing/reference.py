"""Dashing States' reference engine: the game as the rule text reads, step by step.

**The deal.** Each team is dealt `Rules.cards` Map cards (`geolab.cards.MAP_DECK`: card c shows
state c in red) face-down, in the order dealt. A hand keeps that order: a card is named by its
*position* in it (0-based here, 1-5 at the keyboard), never sorted, since the cards' numbers
are in alphabetical order of state name and a sorted hand would be the answer.

**The race** (one `Ask` of both teams at once, timed decisions of kind ``claim``). Each team
answers with a `geolab.stepwise.Claim` of a `Row` and the seconds it took, or no claim: the
positions of the cards it laid, left to right, and whether it turned the unused card(s)
face-down before shouting. The earliest shout is first; shouts within `Rules.simultaneous`
seconds of each other are at the same time.

**The announcement** (decisions of kind ``announce``, one a place of the row, not timed: the
text has the first team announce *after* its shout). The first team to shout (both, at the
same time, when `Rules.simultaneous_announce`) names the state and the capital of each card of
its row, left to right: one `Said` a place. A claim is everything a team laid and said: its
`Row` and its `Said` s (`Played.said`); `fault` judges it exactly.

**Who wins** (`outcome`, shared with the batch engine): a correct first claim wins; a wrong one
gives the game to the other team, whether or not it shouted; shouts at the same time tie unless
exactly one claim is correct; nobody shouting is a tie.

**What a seat sees** (`View`): its own cards, its own claim once the race is settled, the first
shout(s) as the table saw them (the seconds, the cards laid face-up, and an unused card left
face-up), every announcement as it is made (spoken aloud), and the result at the end. It never
sees the other team's cards otherwise, nor a shout made after the first.
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

import numpy as np

from geolab.cards import MAP_DECK, N_CARDS
from geolab.common.shuffle import shuffled_prefix
from geolab.errors import IllegalActionError
from geolab.game import Decision
from geolab.games.dashing.rules import Rules
from geolab.games.race import race_length, settle
from geolab.stepwise import Ask, Claim, Determinized, State, draw_cards

SEATS = (0, 1)
SIDES = "AB"
#: Why a claim is wrong, in the order `fault` looks: an unused card left face-up, the row out
#: of alphabetical order, a state named wrongly, a capital named wrongly.
FAULTS = ("face-up", "order", "state", "capital")


class Row(NamedTuple):
    """A claim laid down: the positions in the hand of the cards placed, left to right, and
    whether the unused cards were turned face-down before the shout."""

    order: tuple[int, ...]
    face_down: bool = True


class Said(NamedTuple):
    """One place of an announcement: the state named (its card number, None: none) and the
    state whose capital was named (None: none)."""

    state: int | None
    capital: int | None


@cache
def rows(rules: Rules) -> tuple[Row, ...]:
    """Every claim a team can lay: each order of `placed` of its cards, unused cards turned
    face-down, then the same left face-up."""
    orders = tuple(itertools.permutations(range(rules.cards), rules.placed))
    return tuple(Row(o, True) for o in orders) + tuple(Row(o, False) for o in orders)


@cache
def sayings(rules: Rules) -> tuple[Said, ...]:
    """Everything a team can say for one card: any state or none, and (announcing capitals)
    any state's capital or none."""
    states = (*range(N_CARDS), None)
    capitals = states if rules.announce == "capitals" else (None,)
    return tuple(Said(s, c) for s in states for c in capitals)


def placed_cards(hand: Sequence[int], row: Row) -> tuple[int, ...]:
    return tuple(hand[p] for p in row.order)


def unused(rules: Rules, row: Row) -> tuple[int, ...]:
    """The positions of the cards a row leaves out, in hand order."""
    return tuple(p for p in range(rules.cards) if p not in row.order)


def in_order(rules: Rules, cards: Sequence[int]) -> bool:
    """Alphabetical order of state name, left to right (card numbers are in that order)."""
    up = all(a < b for a, b in zip(cards, cards[1:]))
    return up or (rules.either_direction and all(a > b for a, b in zip(cards, cards[1:])))


def row_fault(rules: Rules, hand: Sequence[int], row: Row) -> str | None:
    """What is wrong with a row as laid: ``face-up``, ``order`` or None."""
    if rules.face_down and not row.face_down:
        return "face-up"
    if not in_order(rules, placed_cards(hand, row)):
        return "order"
    return None


def said_fault(rules: Rules, hand: Sequence[int], row: Row, said: Sequence[Said]) -> str | None:
    """What is wrong with an announcement of a row: ``state`` (a card named as another
    state, or not named), ``capital`` or None. Every state is checked before any capital."""
    if rules.announce == "none":
        return None
    cards = placed_cards(hand, row)
    if len(said) != len(cards) or any(s.state != c for s, c in zip(said, cards)):
        return "state"
    if rules.announce == "capitals" and any(s.capital != c for s, c in zip(said, cards)):
        return "capital"
    return None


def fault(rules: Rules, hand: Sequence[int], row: Row, said: Sequence[Said] | None) -> str | None:
    """Why a claim is wrong (`FAULTS`), or None when it is correct; ``said`` None: the
    announcement is not judged (a shout at the same time under ``simultaneous_announce``
    false)."""
    wrong = row_fault(rules, hand, row)
    if wrong is None and said is not None:
        wrong = said_fault(rules, hand, row, said)
    return wrong


def first_shouts(rules: Rules, seconds: np.ndarray) -> np.ndarray:
    """bool (n, 2): the seats whose shout came first (both, when at the same time; none when
    nobody shouted). ``seconds`` (n, 2): inf where a seat did not shout."""
    seconds = np.asarray(seconds, float)
    lo = seconds.min(axis=1, keepdims=True)
    with np.errstate(invalid="ignore"):  # inf - inf where nobody shouted: not first
        return np.isfinite(seconds) & (seconds - lo <= rules.simultaneous)


def outcome(rules: Rules, seconds: np.ndarray, correct: np.ndarray) -> np.ndarray:
    """The winner of each game (0, 1; -1: a tie): ``seconds`` (n, 2) of each shout (inf:
    none), ``correct`` (n, 2) whether each claim holds as judged (only a first shout's
    matters). `geolab.games.race.settle` on the shouts, those at the same time given equal
    seconds; then a tie where both first claims agree, or nobody shouted."""
    seconds, correct = np.asarray(seconds, float), np.asarray(correct, bool)
    first = first_shouts(rules, seconds)
    both = first.all(axis=1)
    level = np.where(both[:, None], seconds.min(axis=1, keepdims=True), seconds)
    winner = settle(level, correct, np.zeros(len(seconds), np.int64))
    tie = (both & (correct[:, 0] == correct[:, 1])) | ~first.any(axis=1)
    return np.where(tie, -1, winner)


def announcers(rules: Rules, first: Sequence[bool]) -> tuple[int, ...]:
    """The seats that announce: the first shout's, or both at the same time when their
    announcements are judged; nobody when nothing is announced."""
    seats = tuple(s for s in SEATS if first[s])
    if rules.announce == "none" or (len(seats) == 2 and not rules.simultaneous_announce):
        return ()
    return seats


# ----- the deal ------------------------------------------------------------------------------
Hands = tuple[tuple[int, ...], tuple[int, ...]]


@dataclass(frozen=True)
class Deal:
    """Each team's Map cards in the order dealt (A's, B's)."""

    hands: Hands


def deal_one(rules: Rules, rng: np.random.Generator) -> Deal:
    """The canonical deal: the first 2 x `cards` cards of a shuffle of the Map deck
    (`geolab.common.shuffle.shuffled_prefix` on ``rng.random((1, 2 * cards))``), A's
    first; the batch engine deals its blocks so."""
    k = rules.cards
    order = [int(MAP_DECK[c]) for c in shuffled_prefix(rng.random((1, 2 * k)), len(MAP_DECK))[0]]
    return Deal((tuple(order[:k]), tuple(order[k:])))


def checked_hands(rules: Rules, deal) -> Hands:
    if not isinstance(deal, Deal) or len(deal.hands) != 2:
        raise IllegalActionError("deal: expected two hands of Map cards")
    seen: set[int] = set()
    for s, hand in enumerate(deal.hands):
        if len(hand) != rules.cards:
            raise IllegalActionError(f"deal: {SIDES[s]} has {len(hand)} cards, expected {rules.cards}")
        for c in hand:
            if isinstance(c, bool) or not isinstance(c, (int, np.integer)) or not 0 <= c < N_CARDS or c in seen:
                raise IllegalActionError(f"deal: card {c!r} is not a Map card or is dealt twice")
            seen.add(int(c))
    return (tuple(int(c) for c in deal.hands[0]), tuple(int(c) for c in deal.hands[1]))


# ----- what happened -------------------------------------------------------------------------
@dataclass(frozen=True)
class Played:
    """A game played by the reference engine: the hands, each team's answer to the race
    (a `Claim` of a `Row`, or of None) and what each announced (empty for a team that did not
    announce)."""

    rules: Rules
    hands: Hands
    claims: tuple[Claim, Claim]
    said: tuple[tuple[Said, ...], tuple[Said, ...]]

    def seconds(self) -> np.ndarray:
        return np.array([[c.seconds if c.action is not None else np.inf for c in self.claims]])

    @property
    def first(self) -> tuple[int, ...]:
        """The seats whose shout came first (both at the same time; none if nobody shouted)."""
        return tuple(s for s in SEATS if first_shouts(self.rules, self.seconds())[0, s])

    def judged(self, seat: int) -> bool:
        """Whether the seat's announcement is judged (it announced)."""
        return seat in announcers(self.rules, [s in self.first for s in SEATS])

    def fault(self, seat: int) -> str | None:
        """Why the seat's claim is wrong (None: correct). Meaningful for a first shout."""
        claim = self.claims[seat]
        if claim.action is None:
            return "none"
        said = self.said[seat] if self.judged(seat) or self.rules.announce == "none" else None
        return fault(self.rules, self.hands[seat], claim.action, said)

    @property
    def winner(self) -> int | None:
        correct = np.array([[s in self.first and self.fault(s) is None for s in SEATS]])
        w = int(outcome(self.rules, self.seconds(), correct)[0])
        return None if w < 0 else w

    def scores(self) -> np.ndarray:
        w = self.winner
        return np.array([0.5, 0.5]) if w is None else np.eye(2)[w]

    @property
    def length(self) -> float:
        """Seconds to the first shout (nobody shouting: until the later team gave up)."""
        return race_length(self.claims)


# ----- what a seat sees ----------------------------------------------------------------------
@dataclass(frozen=True)
class Shout:
    """A first shout as the table saw it: who, when, the row laid, its cards (face-up, in the
    row's order) and the unused cards left face-up (none when turned face-down)."""

    seat: int
    seconds: float
    row: Row
    cards: tuple[int, ...]
    shown: tuple[int, ...]


@dataclass(frozen=True)
class View:
    """What one seat may see at a node: its own cards (in the order dealt), its own answer to
    the race once settled, the first shout(s), what each team has announced so far, the place
    being announced now (None: not announcing), and at the end the winner (-1: a tie)."""

    rules: Rules
    seat: int
    hand: tuple[int, ...]
    own: Claim | None = None
    shouts: tuple[Shout, ...] = ()
    said: tuple[tuple[Said, ...], tuple[Said, ...]] = ((), ())
    place: int | None = None
    over: bool = False
    winner: int = -1

    @property
    def settled(self) -> bool:
        """The race is over (every view after the claims)."""
        return self.own is not None


def shouts_of(rules: Rules, hands: Hands, claims: Sequence[Claim], first: Sequence[bool]) -> tuple[Shout, ...]:
    out = []
    for s in SEATS:
        if first[s]:
            row = claims[s].action
            shown = () if row.face_down else tuple(hands[s][p] for p in unused(rules, row))
            out.append(Shout(s, float(claims[s].seconds), row, placed_cards(hands[s], row), shown))
    return tuple(out)


def final_view(played: Played, seat: int) -> View:
    """The seat's view of a finished game (what `State.observe` gives at the end)."""
    first = [s in played.first for s in SEATS]
    w = played.winner
    return View(played.rules, seat, played.hands[seat], played.claims[seat],
                shouts_of(played.rules, played.hands, played.claims, first), played.said, None, True,
                -1 if w is None else w)


# ----- the reference engine ------------------------------------------------------------------
def steps(rules: Rules, deal: Deal | None = None):
    """The game, as a generator of nodes (`geolab.stepwise`); returns the `Played` game.
    Without a deal, chance deals the Map cards one at a time, A's first."""
    rules.validate()
    if deal is None:
        cards = yield from draw_cards(MAP_DECK, 2 * rules.cards)
        hands: Hands = (tuple(cards[:rules.cards]), tuple(cards[rules.cards:]))
    else:
        hands = checked_hands(rules, deal)
    now: dict = {"claims": None, "first": (False, False), "said": ([], []), "place": None, "played": None}

    def observe(seat: int) -> View:
        claims, played = now["claims"], now["played"]
        if played is not None:
            return final_view(played, seat)
        said = (tuple(now["said"][0]), tuple(now["said"][1]))
        if claims is None:
            return View(rules, seat, hands[seat], said=said)
        return View(rules, seat, hands[seat], claims[seat], shouts_of(rules, hands, claims, now["first"]), said,
                    now["place"])

    legal = rows(rules)
    asked = yield Ask(tuple(Decision(s, "claim", observe(s), legal, "race", timed=True) for s in SEATS), observe)
    claims = (asked[0], asked[1])
    seconds = [[c.seconds if c.action is not None else np.inf for c in claims]]
    first = tuple(bool(f) for f in first_shouts(rules, np.array(seconds))[0])
    now.update(claims=claims, first=first)
    speakers = announcers(rules, first)
    for k in range(rules.placed if speakers else 0):
        now["place"] = k
        where = f"announcement, place {k + 1} of {rules.placed}"
        answers = yield Ask(tuple(Decision(s, "announce", observe(s), sayings(rules), where) for s in speakers),
                            observe)
        for s in speakers:
            now["said"][s].append(answers[s])
    played = Played(rules, hands, claims, (tuple(now["said"][0]), tuple(now["said"][1])))
    now["played"] = played
    return played


# ----- chance and hidden information -------------------------------------------------------
def deal_from_chance(rules: Rules, outcomes: Sequence[int]) -> Deal:
    """The deal a chance-stepped game's card outcomes make (A's cards, then B's), completed
    with the lowest cards left where chance has not yet dealt them."""
    got = [int(o) for o in outcomes][: 2 * rules.cards]
    left = [c for c in MAP_DECK if c not in got]
    cards = got + left[: 2 * rules.cards - len(got)]
    return Deal((tuple(cards[:rules.cards]), tuple(cards[rules.cards:])))


def max_length(rules: Rules) -> int:
    """The deal's cards, the race, and one announcement a place of the row."""
    return 2 * rules.cards + 1 + rules.placed


def resample(rules: Rules, deal: Deal, log: Sequence, seat: int, rng: np.random.Generator) -> Deal:
    """A deal `seat` cannot tell from this one after the log: its own cards kept, and the
    other team's cards dealt anew from the cards it has not seen, except the ones it has seen
    (laid face-up at a first shout, where they were), which stay in place. The log's answers
    stay legal: rows name positions and announcements any state."""
    other = 1 - seat
    hands = checked_hands(rules, deal)
    keep: dict[int, int] = {}
    race = next((answers for kind, answers in log if kind == "ask"), None)
    if race is not None:
        claims = (race[0], race[1])
        seconds = [[c.seconds if c.action is not None else np.inf for c in claims]]
        first = first_shouts(rules, np.array(seconds))[0]
        if first[other]:
            row = claims[other].action
            shown = row.order if row.face_down else range(rules.cards)
            keep = {p: hands[other][p] for p in shown}
    pool = [c for c in MAP_DECK if c not in hands[seat] and c not in keep.values()]
    fresh = iter(int(c) for c in rng.permutation(pool)[: rules.cards - len(keep)])
    theirs = tuple(keep[p] if p in keep else next(fresh) for p in range(rules.cards))
    return Deal((hands[0], theirs) if seat == 0 else (theirs, hands[1]))


def determinize(rules: Rules, seat: int, view: View, rng: np.random.Generator, game=None) -> State:
    """A state at the seat's node built from its `View` alone: its own cards, the other's drawn
    by `resample` around the cards the view shows (those of a first shout of the other's, in
    place), and the log of answers the view shows: its own claim, the other's where it shouted
    first (a shout the seat never saw, after the first, is no claim), every announcement.
    The state is of `game` (the registered one, whose action ids a search needs; default `ENGINE`)."""
    other = 1 - seat
    keep: dict[int, int] = {}
    log: list = []
    if view.own is not None:
        shouts = {s.seat: s for s in view.shouts}
        shout = shouts.get(other)
        theirs = Claim(None, view.own.seconds)
        if shout is not None:
            keep = dict(zip(shout.row.order, shout.cards))
            if not shout.row.face_down:
                keep.update(zip(unused(rules, shout.row), shout.shown))
            theirs = Claim(shout.row, shout.seconds)
        log.append(("ask", {seat: view.own, other: theirs}))
        speakers = announcers(rules, [s in shouts for s in SEATS])
        for k in range(len(view.said[speakers[0]]) if speakers else 0):
            log.append(("ask", {s: view.said[s][k] for s in speakers}))
    blank = iter(c for c in MAP_DECK if c not in view.hand and c not in keep.values())
    placeholder = tuple(keep[p] if p in keep else int(next(blank)) for p in range(rules.cards))
    deal = Deal((view.hand, placeholder) if seat == 0 else (placeholder, view.hand))
    return State(game or ENGINE, rules, resample(rules, deal, log, seat, rng), log)


class Engine(Determinized):
    """Dashing States' reference engine as a step-wise game (`geolab.stepwise.Determinized`)."""

    name = "dashing-states"
    reference = sys.modules[__name__]


ENGINE = Engine()
