"""Border-Up's reference engine: one game as the rule text reads, step by step.

**The deal.** Each team (A, B) is dealt `Rules.cards` GeoPlunge cards. If neither hand holds a
solution (two border groups with no card in common: `geolab.games.groups`), the cards are
dealt again, up to `Rules.redeals` times (*decided*; the text is silent, GeoDouble redeals);
a deal still without one is a tie, and no race is run.

**The race.** Both teams are asked at once, a timed decision: each answers with a
`geolab.stepwise.Claim` of one of its hand's solutions (two groups laid face-up, each its
three cards in card order, the smaller group first), a wrong claim (`WRONG`), or none, and
its seconds. `geolab.games.race.settle_claims` settles it under the ``tie`` rule: the earliest
claim decides; a wrong one gives the game to the other team (*text*: "Otherwise, the other
team wins this game"); claims at the same second tie unless only one holds (*text*), so two
wrong ones tie too; nobody claiming is a tie (*decided*: nobody wins).

**What a team sees** (`View`): its own hand in each deal, and once the game is over how it
went: its own claim, the first claim or claims (the only ones made at the table), the winner.
It never sees the other's hand, nor a claim the other would have made after the first.

The steps are written to be nested (`geolab.stepwise.stage`): the Combo 1 tournament plays
this game, and its playoffs and tie-breakers, as a stage of its own state.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import NamedTuple

import numpy as np

from geolab.cards import N_CARDS, POSTAL
from geolab.errors import IllegalActionError
from geolab.game import Decision
from geolab.games import groups, groups_batch
from geolab.games.borderup.rules import Rules
from geolab.games.race import NOBODY, first_claims, settle_claims
from geolab.stepwise import Ask, Claim, Determinized, Resampled, State, draw_cards

SEATS = (0, 1)
SIDES = "AB"
#: How a game ended (`Played.outcome`), in the order the views and tensors list them:
#: the first claim held (alone, or the only one holding of two at the same second); the first
#: claim was wrong, so the other team won; claims at the same second, both holding or both
#: wrong (a tie); nobody claimed (a tie); no deal held a solution (a tie, unraced).
OUTCOMES = ("held", "wrong", "tie", "unclaimed", "dry")


class Solution(NamedTuple):
    """A claim laid face-up: two border groups, each its three cards in card order, the smaller
    group first. `WRONG` (both empty) is a claim that holds no two border groups."""

    first: tuple[int, ...]
    second: tuple[int, ...]

    def label(self) -> str:
        if not self.first:
            return "a wrong claim"
        return " ".join(POSTAL[c] for c in self.first) + " + " + " ".join(POSTAL[c] for c in self.second)


WRONG = Solution((), ())


@lru_cache(maxsize=1 << 10)  # a game asks of its few hands again and again
def _solutions(hand: tuple[int, ...], four_corners: bool, water: bool) -> tuple[Solution, ...]:
    border = groups.border_groups(hand, four_corners, water)
    return tuple(Solution(a, b) for a, b in combinations(border, 2) if not set(a) & set(b))


def solutions(rules: Rules, hand: Sequence[int]) -> tuple[Solution, ...]:
    """Every solution of a hand, in the finder's order (by the smaller group, then the larger):
    the first is `geolab.games.groups`' example, the claim the batch engine lays down."""
    return _solutions(tuple(sorted(int(c) for c in hand)), rules.four_corners, rules.water)


# ----- the deal ------------------------------------------------------------------------------
Hands = tuple[tuple[int, ...], tuple[int, ...]]


@dataclass(frozen=True)
class Deal:
    """The cards of one game: every deal in order (each before the last held no solution in
    either hand, so the cards were dealt again)."""

    deals: tuple[Hands, ...]


def split(cards: Sequence[int], size: int) -> Hands:
    """A's hand (the first `size` cards) and B's (the next), each in card order."""
    return (tuple(sorted(int(c) for c in cards[:size])), tuple(sorted(int(c) for c in cards[size:2 * size])))


def has_solution(rules: Rules, hands: Hands) -> bool:
    return any(solutions(rules, h) for h in hands)


def deal_one(rules: Rules, rng: np.random.Generator) -> Deal:
    deals: list[Hands] = []
    while True:
        deals.append(split(rng.permutation(N_CARDS), rules.cards))
        if has_solution(rules, deals[-1]) or len(deals) > rules.redeals:
            return Deal(tuple(deals))


# ----- what happened -------------------------------------------------------------------------
@dataclass(frozen=True)
class Played:
    """A game played by the reference engine: its deals, each team's claim (None where no race
    was run) and the winner (`NOBODY`, -1: a tie)."""

    rules: Rules
    deals: tuple[Hands, ...]
    claims: tuple[Claim, Claim] | None
    winner: int

    @property
    def first(self) -> tuple[int, ...]:
        """The teams whose claim came first (both at the same second; none where nobody claimed)."""
        return () if self.claims is None else first_claims(self.claims)

    @property
    def outcome(self) -> str:
        """How the game ended (`OUTCOMES`)."""
        if self.claims is None:
            return "dry"
        first = self.first
        if not first:
            return "unclaimed"
        if self.winner == NOBODY:
            return "tie"
        return "held" if self.winner in first else "wrong"

    def scores(self) -> np.ndarray:
        return np.array([0.5, 0.5]) if self.winner == NOBODY else np.eye(2)[self.winner]


# ----- what a team sees ----------------------------------------------------------------------
@dataclass(frozen=True)
class Seen:
    """A finished game as one team saw it: its own claim (None where no race was run), the
    first claim or claims (the others were never made at the table), the winner, how it ended."""

    own: Claim | None
    first: tuple[tuple[int, Claim], ...]
    winner: int
    outcome: str


@dataclass(frozen=True)
class View:
    """What one team may see: its hand in each deal so far (the last is the one it races
    with), and once the game is over how it went (`result`)."""

    rules: Rules
    seat: int
    hands: tuple[tuple[int, ...], ...]
    result: Seen | None = None

    @property
    def hand(self) -> tuple[int, ...]:
        return self.hands[-1]

    @property
    def attempt(self) -> int:
        """Deals so far, this one included."""
        return len(self.hands)


def seen(played: Played, seat: int) -> Seen:
    own = None if played.claims is None else played.claims[seat]
    first = tuple((s, played.claims[s]) for s in played.first)
    return Seen(own, first, played.winner, played.outcome)


def final_view(played: Played, seat: int) -> View:
    """The team's view of the finished game."""
    return View(played.rules, seat, tuple(h[seat] for h in played.deals), seen(played, seat))


# ----- the reference engine ------------------------------------------------------------------
def race_decision(rules: Rules, seat: int, view: View, where: str = "race") -> Decision:
    """The race as one team is asked it: any solution of its hand, or a wrong claim."""
    return Decision(seat, "claim", view, (*solutions(rules, view.hand), WRONG), where, timed=True)


def steps(rules: Rules, deal: Deal | None = None):
    """One game, as a generator of nodes (`geolab.stepwise`); returns the `Played` game.
    Without a deal, chance deals each card as it comes."""
    rules.validate()
    deals: list[Hands] = []
    now: dict = {"played": None}

    def observe(seat: int) -> View:
        played = now["played"]
        return View(rules, seat, tuple(h[seat] for h in deals), None if played is None else seen(played, seat))

    while True:
        if deal is None:
            cards = yield from draw_cards(range(N_CARDS), 2 * rules.cards)
            hands = split(cards, rules.cards)
        else:
            hands = _given(deal, len(deals), rules.cards)
        deals.append(hands)
        if has_solution(rules, hands) or len(deals) > rules.redeals:
            break
    if deal is not None and len(deals) != len(deal.deals):
        raise IllegalActionError(f"deal: deal {len(deals)} holds a solution, so the cards are not dealt again")
    claims, winner = None, NOBODY
    if has_solution(rules, hands):
        asked = yield Ask(tuple(race_decision(rules, s, observe(s)) for s in SEATS), observe)
        claims = (asked[0], asked[1])
        winner = settle_claims(claims, WRONG, tie="tie")
    now["played"] = Played(rules, tuple(deals), claims, winner)
    return now["played"]


def _given(deal: Deal, k: int, size: int) -> Hands:
    """Deal k of a given deal, checked: two hands of `size` cards, no card twice."""
    if not isinstance(deal, Deal) or k >= len(deal.deals):
        raise IllegalActionError(f"deal: the deals run out: deal {k} held no solution, so the cards are dealt again")
    seen_cards: set[int] = set()
    hands = deal.deals[k]
    if len(hands) != 2:
        raise IllegalActionError(f"deal: deal {k + 1}: expected two hands")
    for s, hand in enumerate(hands):
        if len(hand) != size:
            raise IllegalActionError(f"deal: deal {k + 1}: {SIDES[s]} has {len(hand)} cards, expected {size}")
        for c in hand:
            if not (isinstance(c, (int, np.integer)) and not isinstance(c, bool) and 0 <= c < N_CARDS) \
                    or c in seen_cards:
                raise IllegalActionError(f"deal: deal {k + 1}: card {c!r} is not a card or is dealt twice")
            seen_cards.add(int(c))
    return (tuple(sorted(int(c) for c in hands[0])), tuple(sorted(int(c) for c in hands[1])))


# ----- chance and hidden information -------------------------------------------------------
def deal_from_chance(rules: Rules, outcomes: Sequence[int]) -> Deal:
    """The deals a chance-stepped game's outcomes make, in the order `steps` draws them; a deal
    chance has only begun is completed with the lowest cards left."""
    outcomes = [int(o) for o in outcomes]
    deals: list[Hands] = []
    k = 0
    while k < len(outcomes) or not deals:
        got = outcomes[k:k + 2 * rules.cards]
        k += len(got)
        got += [c for c in range(N_CARDS) if c not in got][:2 * rules.cards - len(got)]
        deals.append(split(got, rules.cards))
        if has_solution(rules, deals[-1]) or len(deals) > rules.redeals:
            break
    return Deal(tuple(deals))


def max_length(rules: Rules) -> int:
    """Every deal's cards (2 x cards a deal, each a chance node), then the race."""
    return (rules.redeals + 1) * 2 * rules.cards + 1


#: Candidate hands drawn at a time when a hand is dealt anew under a condition (`hand_anew`).
CANDIDATES = 256


def hand_anew(rules: Rules, avoid: Sequence[int], keep: Sequence[int], want: bool | None,
              rng: np.random.Generator) -> tuple[int, ...]:
    """A hand of `Rules.cards` cards drawn uniformly among those holding `keep`, avoiding
    `avoid`, and holding a solution (`want` True), none (False) or either (None): candidates
    are drawn `CANDIDATES` at a time, checked by the batched finder, and the first that fits
    taken (rejection, so uniform among the hands that fit)."""
    keep = sorted(set(int(c) for c in keep))
    pool = np.array([c for c in range(N_CARDS) if c not in set(avoid) and c not in set(keep)], np.int64)
    need = rules.cards - len(keep)
    for _ in range(1000):
        picks = pool[np.argsort(rng.random((CANDIDATES, len(pool))), axis=1)[:, :need]]
        if want is None:
            return tuple(sorted([*keep, *picks[0].tolist()]))
        masks = groups.masks(picks) | groups.mask(keep)
        fits = (groups_batch.find_batch(masks, rules.four_corners, rules.water).border_up > 0) == want
        if fits.any():
            return tuple(sorted([*keep, *picks[int(np.argmax(fits))].tolist()]))
    raise IllegalActionError("resample: no hand fits what the team has seen")  # pragma: no cover


def resample(rules: Rules, deal: Deal, log: Sequence, seat: int, rng: np.random.Generator) -> Resampled:
    """A deal and log `seat` cannot tell from these: the other team's hand in every deal dealt
    anew around the seat's own, uniformly among the hands consistent with what it has seen. In
    a deal dealt again, the other's hand held no solution (nor the seat's); in the last, it
    holds a solution where the seat's own holds none (else the cards would have been dealt
    again), and where no race was run it holds none; a claim of the other's that came first
    is laid face-up, so its cards stay in the other's hand. A claim of the other's the seat
    never saw (its own came first) is made anew on the new hand: the same seconds, and the new
    hand's first solution where the real one laid a solution (the wrong claim if it has none),
    so nothing the seat has not seen is kept."""
    other = 1 - seat
    asked = [entry[1] for entry in log if entry[0] == "ask"]
    claims = asked[0] if asked else None
    shown = claims is not None and other in first_claims((claims[0], claims[1]))
    new = []
    for k, hands in enumerate(deal.deals):
        mine = hands[seat]
        keep: tuple[int, ...] = ()
        if k < len(deal.deals) - 1 or not has_solution(rules, hands):
            want: bool | None = False
        else:
            want = None if solutions(rules, mine) else True
            action = claims[other].action if shown else None
            if action is not None and action != WRONG:
                keep = (*action.first, *action.second)
        theirs = hand_anew(rules, mine, keep, want, rng)
        new.append((mine, theirs) if seat == 0 else (theirs, mine))
    new_deal = Deal(tuple(new))
    if claims is None or shown:
        return Resampled(new_deal, tuple(log))
    claim = claims[other]
    if claim.action is not None and claim.action != WRONG:
        options = solutions(rules, new[-1][other])
        claim = Claim(options[0] if options else WRONG, claim.seconds)
    return Resampled(new_deal, (("ask", {seat: claims[seat], other: claim}),))


def determinize(rules: Rules, seat: int, view: View, rng: np.random.Generator, game=None) -> State:
    """A state at the seat's node built from its `View` alone: its own hand in every deal, the
    other's drawn as `resample` draws it (no solution in a deal dealt again, a solution in the
    last where the seat's own has none, none where no race was run, the cards of a claim of
    the other's laid face-up kept), and once the game is over the claims the view shows; a
    claim of the other's it never saw (its own came first, or nobody claimed) is no claim.
    The state is of `game` (the registered one, whose action ids a search needs; default `ENGINE`)."""
    other = 1 - seat
    result = view.result
    raced = result is None or result.outcome != "dry"
    claim = dict(result.first).get(other) if result is not None else None
    keep = () if claim is None or claim.action in (None, WRONG) else (*claim.action.first, *claim.action.second)
    new = []
    for k, mine in enumerate(view.hands):
        last = k == len(view.hands) - 1
        want: bool | None = (None if solutions(rules, mine) else True) if last and raced else False
        theirs = hand_anew(rules, mine, keep if last else (), want, rng)
        new.append((mine, theirs) if seat == 0 else (theirs, mine))
    log: tuple = ()
    if result is not None and result.own is not None:
        theirs_claim = claim if claim is not None else Claim(None, result.own.seconds)
        log = (("ask", {seat: result.own, other: theirs_claim}),)
    return State(game or ENGINE, rules, Deal(tuple(new)), log)


class Engine(Determinized):
    """Border-Up's reference engine as a step-wise game (`geolab.stepwise.Determinized`)."""

    name = "border-up"
    reference = sys.modules[__name__]


ENGINE = Engine()
