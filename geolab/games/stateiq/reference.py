"""State IQ's reference engine: one game as the rule text reads, step by step.

**The deal.** Each team holds one GeoPlunge card (A's and B's differ), the top Power card is
turned (its clue order serves both teams; `Rules.clues` may fix one instead), and the first
guessing team is given from outside: by the deal's ``first`` (the tournament: the team that
won Border-Up), else by the statehood draw (each team draws a card unseen; the statehood rank
closer to 1 guesses first; the drawn cards go back before the deal, so they say nothing about
the held ones).

**A phase.** The guessing team has up to three guesses; before guess k the clue-giving team
gives clue k of the order (`geolab.games.stateiq.clues`). A letter clue is a fact of the card;
a border clue is the clue-giver's decision (kind ``clue``: one of its state's border states not
named yet), asked whenever one is left (a single border too: the ask itself must not tell the
guesser how many are left), else "no more border states". Then the guesser decides (kind
``guess``: a state). A right guess ends the phase. Guesses that can never be right (the team's
own state, a state it already guessed this phase) are not offered unless
`Rules.futile_guesses`.

**The game.** The first team's phase, then the second's, with the same Power card. The second
team stops once the game is decided (the text): having found the card, or once it can no
longer find it in as few guesses as the first team (after n wrong guesses where the first team
took n); it has three guesses if the first team missed. Fewer guesses wins; the same number,
or neither team finding the card, is a tie.

**What a seat sees** (`View`): its own card, the Power card and its order, the draw, who
guesses first, and every clue and guess so far; never the other's card (unless a guess found
it: that guess is marked right).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from geolab.cards import N_CARDS, POSTAL, POWER_DECK, RANKS, STATEHOOD
from geolab.errors import IllegalActionError
from geolab.game import Decision
from geolab.games.stateiq import clues as facts
from geolab.games.stateiq.clues import Clue
from geolab.games.stateiq.rules import Rules
from geolab.stepwise import Ask, Chance, Determinized, State

SEATS = (0, 1)
SIDES = "AB"
GUESSES = 3


class Pick(int):
    """A state as an action (a guess, or a border named): a card number that names itself by
    its postal code in messages ("A's guess NY is not legal")."""

    def label(self) -> str:
        return POSTAL[self]


# ----- the deal ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Deal:
    """A game's cards: A's and B's held cards, the Power card turned (its index in
    `geolab.cards.POWER_DECK`), and who guesses first: ``first`` when given from outside,
    else the statehood draw (A's and B's drawn card)."""

    cards: tuple[int, int]
    power: int
    draw: tuple[int, int] | None = None
    first: int | None = None

    def first_guesser(self) -> int:
        """The given first guesser, else the side whose drawn card has statehood closer to 1."""
        if self.first is not None:
            return self.first
        return 0 if RANKS[self.draw[0], STATEHOOD] < RANKS[self.draw[1], STATEHOOD] else 1


def order_of(rules: Rules, deal: Deal) -> str:
    """The clue order in play: the rules' fixed one, else the Power card's."""
    return rules.clues or POWER_DECK[deal.power].clues


def deal_arrays(n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """n deals at once, as every engine deals them: cards (n, 2), Power card (n,), draw (n, 2);
    in that order, B's card and the second drawn card each uniform over the 49 not taken."""
    a = rng.integers(N_CARDS, size=n)
    b = rng.integers(N_CARDS - 1, size=n)
    b = b + (b >= a)
    power = rng.integers(len(POWER_DECK), size=n)
    d0 = rng.integers(N_CARDS, size=n)
    d1 = rng.integers(N_CARDS - 1, size=n)
    d1 = d1 + (d1 >= d0)
    return np.stack([a, b], axis=1), power, np.stack([d0, d1], axis=1)


def deal_one(rng: np.random.Generator) -> Deal:
    cards, power, draw = deal_arrays(1, rng)
    return Deal((int(cards[0, 0]), int(cards[0, 1])), int(power[0]), (int(draw[0, 0]), int(draw[0, 1])))


def checked_deal(deal) -> Deal:
    """The deal, or an `IllegalActionError` naming what is wrong with it."""
    if not isinstance(deal, Deal):
        raise IllegalActionError(f"deal: expected a State IQ Deal, got {type(deal).__name__}")

    def is_card(c) -> bool:
        return isinstance(c, (int, np.integer)) and not isinstance(c, bool) and 0 <= c < N_CARDS

    if len(deal.cards) != 2 or not all(map(is_card, deal.cards)) or deal.cards[0] == deal.cards[1]:
        raise IllegalActionError(f"deal: cards must be two different cards, got {deal.cards!r}")
    if not (isinstance(deal.power, (int, np.integer)) and not isinstance(deal.power, bool)
            and 0 <= deal.power < len(POWER_DECK)):
        raise IllegalActionError(f"deal: power must be a Power card 0-{len(POWER_DECK) - 1}, got {deal.power!r}")
    if deal.first is not None:
        if deal.first not in SEATS or isinstance(deal.first, bool):
            raise IllegalActionError(f"deal: first must be 0 or 1, got {deal.first!r}")
    elif deal.draw is None or len(deal.draw) != 2 or not all(map(is_card, deal.draw)) or deal.draw[0] == deal.draw[1]:
        raise IllegalActionError("deal: give the first guesser, or a statehood draw of two different cards")
    return deal


# ----- what happened -------------------------------------------------------------------------
@dataclass
class Phase:
    """One team's guessing: the clue before each guess, the guesses, and the guess that found
    the card (its number, 1-3), or None."""

    guesser: int
    clues: list[Clue] = field(default_factory=list)
    guesses: list[int] = field(default_factory=list)
    found: int | None = None

    @property
    def giver(self) -> int:
        return 1 - self.guesser


@dataclass
class Played:
    """A game played by the reference engine."""

    rules: Rules
    deal: Deal
    order: str
    phases: list[Phase]

    @property
    def first(self) -> int:
        return self.phases[0].guesser

    def found(self, side: int) -> int | None:
        """The guesses side took to find the other's card, or None."""
        return next(p.found for p in self.phases if p.guesser == side)

    @property
    def winner(self) -> int | None:
        return winner_of(self.found(0), self.found(1))

    def scores(self) -> np.ndarray:
        w = self.winner
        return np.array([0.5, 0.5]) if w is None else np.eye(2)[w]


def winner_of(a: int | None, b: int | None) -> int | None:
    """The side that found the other's card in fewer guesses (None: a tie)."""
    if a == b:
        return None
    if a is None or b is None:
        return 0 if b is None else 1
    return 0 if a < b else 1


def horizon(first_found: int | None) -> int:
    """The second team's guesses at most: as many as the first team took (it cannot win or tie
    after more), three if the first team missed."""
    return GUESSES if first_found is None else first_found


STATES = tuple(Pick(c) for c in range(N_CARDS))


# ----- what a seat sees ----------------------------------------------------------------------
@dataclass(frozen=True)
class PhaseSeen:
    """A phase as everyone saw it: the guesser, each clue and each guess, and the guess that
    found the card (its number), or None."""

    guesser: int
    clues: tuple[Clue, ...]
    guesses: tuple[int, ...]
    found: int | None


@dataclass(frozen=True)
class View:
    """What one seat may see at a node: its own card, the Power card (and the order in play),
    the draw, the first guesser, and the phases so far (all public)."""

    rules: Rules
    seat: int
    card: int
    power: int
    order: str
    draw: tuple[int, int] | None
    first: int
    phases: tuple[PhaseSeen, ...]

    @property
    def phase(self) -> PhaseSeen | None:
        """The phase now being played (or the last)."""
        return self.phases[-1] if self.phases else None

    def limit(self) -> int:
        """The guesses the current phase allows."""
        return GUESSES if len(self.phases) < 2 else horizon(self.phases[0].found)


def seen(phase: Phase) -> PhaseSeen:
    return PhaseSeen(phase.guesser, tuple(phase.clues), tuple(phase.guesses), phase.found)


def legal_guesses(rules: Rules, own: int, guessed: Sequence[int]) -> tuple[int, ...]:
    """The states a team may guess: any, or (the default) any but its own and those it guessed."""
    if rules.futile_guesses:
        return STATES
    return tuple(c for c in STATES if c != own and c not in guessed)


def legal_clues(rules: Rules, card: int, clues: Sequence[Clue]) -> tuple[int, ...]:
    """The border states the clue-giver may name: its state's, not named before this phase."""
    left = facts.neighbours(rules.four_corners, rules.water)[card] & ~facts.named(clues)
    return tuple(STATES[c] for c in facts.cards_of(left))


# ----- the reference engine ------------------------------------------------------------------
def steps(rules: Rules, deal: Deal | None = None):
    """The game as a generator of nodes (`geolab.stepwise`); returns the `Played` game.
    Without a deal, chance deals A's card, B's, the Power card and the first guesser."""
    rules.validate()
    if deal is None:
        a = yield Chance("card", tuple(range(N_CARDS)))
        b = yield Chance("card", tuple(c for c in range(N_CARDS) if c != a))
        power = yield Chance("power card", tuple(range(len(POWER_DECK))))
        first = yield Chance("first guesser", SEATS)
        deal = Deal((a, b), power, None, first)
    deal = checked_deal(deal)
    order = order_of(rules, deal)
    plan = facts.program(order)
    first = deal.first_guesser()
    phases: list[Phase] = []

    def observe(seat: int) -> View:
        return View(rules, seat, deal.cards[seat], deal.power, order, deal.draw, first, tuple(map(seen, phases)))

    for p in range(2):
        phase = Phase(first if p == 0 else 1 - first)
        phases.append(phase)
        target = deal.cards[phase.giver]
        who = f"phase {p + 1} ({SIDES[phase.guesser]} guesses)"
        for k in range(GUESSES if p == 0 else horizon(phases[0].found)):
            kind, index = plan[k]
            if kind == "B":
                left = legal_clues(rules, target, phase.clues)
                if left:
                    ask = Decision(phase.giver, "clue", observe(phase.giver), left, f"{who}, clue {k + 1}")
                    asked = yield Ask((ask,), observe)
                    clue = Clue("B", index, int(asked[phase.giver]))
                else:
                    clue = Clue("B", index, None)
            else:
                clue = facts.true_clue(target, kind, index)
            phase.clues.append(clue)
            legal = legal_guesses(rules, deal.cards[phase.guesser], phase.guesses)
            ask = Decision(phase.guesser, "guess", observe(phase.guesser), legal, f"{who}, guess {k + 1}")
            asked = yield Ask((ask,), observe)
            guess = int(asked[phase.guesser])
            phase.guesses.append(guess)
            if guess == target:
                phase.found = k + 1
                break
    return Played(rules, deal, order, phases)


# ----- chance and hidden information -------------------------------------------------------
def deal_from_chance(rules: Rules, outcomes: Sequence[int]) -> Deal:
    """The deal a chance-stepped game's outcomes make (A's card, B's, the Power card, the first
    guesser); what chance has not decided yet is its first possible outcome."""
    got = [int(o) for o in outcomes]
    if len(got) > 4:
        raise IllegalActionError(f"chance: {len(got)} outcomes, a deal takes 4")
    a = got[0] if len(got) > 0 else 0
    b = got[1] if len(got) > 1 else (1 if a == 0 else 0)
    power = got[2] if len(got) > 2 else 0
    first = got[3] if len(got) > 3 else 0
    return checked_deal(Deal((a, b), power, None, first))


def phases_of(rules: Rules, deal: Deal, log: Sequence) -> list[Phase]:
    """The phases the log's answers make on this deal."""
    state = State(ENGINE, rules, deal, [e for e in log if e[0] == "ask"])
    if state.is_over():
        return state.played.phases
    view = state.observe(0)
    return [Phase(p.guesser, list(p.clues), list(p.guesses), p.found) for p in view.phases]


def possible_cards(rules: Rules, deal: Deal, phases: Sequence[Phase], seat: int) -> tuple[int, ...]:
    """The cards the other side may hold, as `seat` has seen the game: not the seat's own; fitting
    every clue the other gave; not a wrong guess of the seat's (the one a right guess named);
    not a state the other guessed (it never guesses its own, unless `Rules.futile_guesses`)."""
    mask = _possible(rules, deal.cards[seat], phases, seat)
    assert mask >> deal.cards[1 - seat] & 1, "the real card fits what the seat has seen"
    return facts.cards_of(mask)


def _possible(rules: Rules, own: int, phases: Sequence, seat: int) -> int:
    mask = facts.ALL & ~(1 << own)
    for phase in phases:
        if phase.guesser == seat:
            mask = facts.consistent(phase.clues, rules.four_corners, rules.water, mask)
            if phase.found is not None:
                mask &= 1 << phase.guesses[-1]
            else:
                mask &= ~facts.mask_of(phase.guesses)
        elif not rules.futile_guesses:
            mask &= ~facts.mask_of(phase.guesses)
    return mask


def determinize(rules: Rules, seat: int, view: View, rng: np.random.Generator, game=None) -> State:
    """A state at the seat's node built from its observation alone: its own card, the other's
    drawn as `resample` draws it, the public Power card, draw and first guesser, and the log of
    every clue-giver's border and every guess the view shows.
    The state is of `game` (the registered one, whose action ids a search needs; default `ENGINE`)."""
    options = facts.cards_of(_possible(rules, view.card, view.phases, seat))
    theirs = int(options[int(rng.integers(len(options)))])
    cards = (view.card, theirs) if seat == 0 else (theirs, view.card)
    deal = Deal(cards, view.power, view.draw, None)
    if view.draw is None or deal.first_guesser() != view.first:  # a first guesser given over a draw (Combo 1)
        deal = Deal(cards, view.power, view.draw, view.first)
    log = []
    for phase in view.phases:
        for k, clue in enumerate(phase.clues):
            if clue.kind == "B" and clue.value is not None:
                log.append(("ask", {1 - phase.guesser: STATES[clue.value]}))
            if k < len(phase.guesses):
                log.append(("ask", {phase.guesser: STATES[phase.guesses[k]]}))
    return State(game or ENGINE, rules, deal, log)


def resample(rules: Rules, deal: Deal, log: Sequence, seat: int, rng: np.random.Generator) -> Deal:
    """A deal `seat` cannot tell from this one after the log: the other's card drawn anew,
    uniformly among the cards it may hold (`possible_cards`); the Power card, the draw and the
    first guesser are public and kept. Every decision of the log stays legal on it."""
    options = possible_cards(rules, deal, phases_of(rules, deal, log), seat)
    theirs = int(options[int(rng.integers(len(options)))])
    cards = (deal.cards[0], theirs) if seat == 0 else (theirs, deal.cards[1])
    return Deal(cards, deal.power, deal.draw, deal.first)


def max_length(rules: Rules) -> int:
    """Chance (two cards, the Power card, the first guesser), then per phase three clues and
    three guesses."""
    return 4 + 2 * 2 * GUESSES


class Engine(Determinized):
    """State IQ's reference engine as a step-wise game (`geolab.stepwise.Determinized`)."""

    name = "state-iq"
    reference = sys.modules[__name__]

    def deal(self, rules: Rules, rng: np.random.Generator) -> Deal:
        return deal_one(rng)


ENGINE = Engine()

