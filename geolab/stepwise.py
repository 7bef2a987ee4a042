"""The step-wise game state: one state machine under every game, and the one driver.

A game writes its rules once, as a generator `Game.steps(rules, deal)` that yields *nodes*
and returns the played game:

- `Ask`: the seats that decide now, each with its `Decision` (one seat, or several at once
  for a simultaneous decision: they are asked together and their answers applied together,
  so nobody sees another's); the generator receives ``{seat: action}``. A race (``race``)
  is answered with a `Claim` a seat: an action and the seconds it took.
- `Chance`: an outcome chance picks (one card dealt, the GeoPower card turned); the
  generator receives it. A game yields these only when it is stepped without a deal
  (``deal=None``: OpenSpiel's chance nodes); given a deal, it reads chance from it.

`State` wraps the generator with its log (every answer, in order), so it can be copied
(`clone`: the same log replayed on a fresh generator), observed per seat at any node
(`observe`: built only from what that seat may see), and resampled (`resample`: the cards a
seat cannot see dealt anew, consistently with all it has seen). `play` is the one driver: it
asks the seats and applies their answers, for every game.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

import numpy as np

from geolab.errors import GeolabError, IllegalActionError
from geolab.game import Decision, shown


@dataclass(frozen=True)
class Chance:
    """A chance node: one of `outcomes` (whole numbers), with `probs` (None: all alike).
    `kind` names the event (``"card"``, ``"geopower"``, ``"call"``), for people and logs."""

    kind: str
    outcomes: tuple[int, ...]
    probs: tuple[float, ...] | None = None
    observe: Callable[[int], Any] | None = None

    def probabilities(self) -> tuple[float, ...]:
        return self.probs if self.probs is not None else (1.0 / len(self.outcomes),) * len(self.outcomes)

    def sample(self, rng: np.random.Generator) -> int:
        return int(self.outcomes[rng.choice(len(self.outcomes), p=self.probs)]) if self.probs is not None \
            else int(self.outcomes[int(rng.integers(len(self.outcomes)))])


def seated(game, rules, seat) -> int:
    """`seat`, if these rules seat it; else one `GeolabError` line (a state built for a seat
    the table does not have, as `determinize` is asked, would fail deep in the game)."""
    seats = game.seats(rules)
    if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < seats:
        raise GeolabError(f"{game.name}: seat {seat!r} is not at the table (these rules seat 0-{seats - 1})")
    return int(seat)


def draw_cards(pool: Sequence[int], k: int, kind: str = "card") -> Generator[Chance, int, list[int]]:
    """k cards dealt one at a time from `pool` without replacement, each uniform over the
    cards still there: the chance nodes of a deal (``cards = yield from draw_cards(...)``)."""
    left, drawn = list(pool), []
    for _ in range(k):
        card = yield Chance(kind, tuple(left))
        left.remove(card)
        drawn.append(card)
    return drawn


@dataclass(frozen=True)
class Resampled:
    """What `Game.resample` gives where a seat cannot see some of the others' own choices (a
    hidden discard, a card laid face-down): the new deal and the log with those choices made
    anew on it, so that a resampled state reveals nothing the seat has not seen. (A game whose
    log holds no such choice may return the deal alone.)"""

    deal: Any
    log: tuple


@dataclass(frozen=True)
class Claim:
    """A seat's answer to a race: what it claims and the seconds it took to claim it (a
    person's measured, a bot's drawn from its speed model). ``action`` None: no claim.
    ``laid``: the cards a wrong claim laid down, as groups of card numbers, where the action
    does not say them (a person's wrong claim of groups; a bot's wrong claim is modelled
    without cards), kept for the record and the lesson after the race."""

    action: Any
    seconds: float
    laid: tuple = ()


@dataclass(frozen=True)
class Ask:
    """The seats that decide now, in the order the rules ask them. `observe(seat)` is what
    any seat (deciding or not) may see at this node: a closure over the game's live state, so
    called after the end it shows the finished game. A race is an Ask of timed decisions
    (``Decision.timed``), answered with `Claim` s."""

    decisions: tuple[Decision, ...]
    observe: Callable[[int], Any]

    @property
    def seats(self) -> tuple[int, ...]:
        return tuple(d.seat for d in self.decisions)

    @property
    def race(self) -> bool:
        return any(d.timed for d in self.decisions)


Steps = Generator["Ask | Chance", Any, Any]


def stage(steps: Steps, observe: Callable[[int, Any], Any], where: str = "") -> Steps:
    """Another game's steps played as a stage of this one (``played = yield from stage(...)``):
    its nodes passed on with each observation wrapped by ``observe(seat, inner observation)``
    (the match score beside the stage's view, say) and ``where`` put before each decision's;
    answers and chance outcomes passed in unchanged. Returns the stage's played game."""
    try:
        node = next(steps)
        while True:
            inner = node.observe
            observed = None if inner is None else (lambda seat, inner=inner: observe(seat, inner(seat)))
            if isinstance(node, Ask):
                node = Ask(tuple(dataclasses.replace(d, observation=observe(d.seat, d.observation),
                                                     where=", ".join(filter(None, (where, d.where))))
                                 for d in node.decisions), observed)
            elif observed is not None:
                node = dataclasses.replace(node, observe=observed)
            node = steps.send((yield node))
    except StopIteration as stop:
        return stop.value


def legal_index(decision: Decision, action) -> int:
    """The position of `action` in ``decision.legal``, or -1 (an unhashable or alien value
    included, and a truth value or a real number equal to a whole-number action)."""
    try:
        i = decision.legal.index(action)
    except (ValueError, TypeError):
        return -1
    legal = decision.legal[i]
    if isinstance(action, (bool, np.bool_)) != isinstance(legal, (bool, np.bool_)) or \
            (isinstance(action, float) and not isinstance(legal, float)):
        return -1  # True is not card 1, nor 1.0 the whole number 1
    return i


def shown_action(action) -> str:
    text = getattr(action, "label", None)
    return text() if callable(text) else shown(action, 40)


def refuse(decision: Decision, action, seat_name: str | None = None) -> IllegalActionError:
    """The one error for an action a decision does not allow: names the decision, the seat,
    the action and some legal ones."""
    who = seat_name if seat_name is not None else f"seat {decision.seat}"
    where = f"{decision.where}: " if decision.where else ""
    legal = ", ".join(shown_action(a) for a in decision.legal[:6]) + (", ..." if len(decision.legal) > 6 else "")
    return IllegalActionError(f"{where}{who}'s {decision.kind} {shown_action(action)} is not legal (legal: {legal})")


def checked(decision: Decision, action, seat_name: str | None = None):
    """`action` as the legal value it equals, or the `refuse` error."""
    i = legal_index(decision, action)
    if i < 0:
        raise refuse(decision, action, seat_name)
    return decision.legal[i]


def legal_ids(game, rules, decision: Decision) -> list[int]:
    """The action ids a decision allows, sorted (`Game.action_id`): each legal action's, and
    at a race the id of claiming nothing. What the adapters' legal actions and masks are.
    Each id's check finds its action by a table made once (`Indexed`), not by a scan of the
    legal actions, so a decision of thousands (Dashing States' announcements) is not quadratic."""
    actions = (*decision.legal, None) if decision.timed else decision.legal
    try:
        decision = dataclasses.replace(decision, legal=Indexed(decision.legal))
    except TypeError:  # an unhashable legal action: the plain scan
        pass
    return sorted({game.action_id(rules, decision, a) for a in actions})


class Indexed(tuple):
    """A tuple whose `index` is a dictionary look-up (the first position of an equal value,
    as `tuple.index` gives it; ValueError where none)."""

    def __new__(cls, items):
        self = super().__new__(cls, items)
        self.positions = {}
        for i, a in enumerate(self):
            self.positions.setdefault(a, i)
        return self

    def index(self, value, *bounds):
        if bounds:
            return tuple.index(self, value, *bounds)
        try:
            return self.positions[value]
        except KeyError:
            raise ValueError(f"{value!r} is not in the tuple") from None


class RandomSeat:
    """A seat that plays any legal action, uniformly (at a race: a claim after an exponential
    time of mean two seconds): the baseline of random play, and the conformance tests' seat."""

    name = "random-legal"

    def __init__(self, rng: np.random.Generator):
        self.rng = rng

    def act(self, decision: Decision):
        action = decision.legal[int(self.rng.integers(len(decision.legal)))]
        return Claim(action, float(self.rng.exponential(2.0))) if decision.timed else action


class StepGame:
    """What every game inherits: its reference engine played by the one driver (`play`) and
    its states (`state`), from the game's own `steps`."""

    def play(self, rules, deal, seats: Sequence):
        """One game on the reference engine (`geolab.stepwise.play`)."""
        return play(self, rules, deal, seats)

    def state(self, rules, deal=None, log: Sequence = ()) -> State:
        return State(self, rules, deal, log)


class TwoSides(StepGame):
    """A game of two seats, A and B, whose verbs are its reference module's own functions
    (``reference``: the module with ``steps``, ``deal_one(rules, rng)``, ``deal_from_chance``,
    ``resample`` and ``max_length``, its played games having ``scores()``): what each such
    game's engine would otherwise spell out again."""

    reference: Any = None

    def seats(self, rules) -> int:
        return 2

    def seat_name(self, rules, seat: int) -> str:
        return "AB"[seat]

    def deal(self, rules, rng: np.random.Generator):
        return self.reference.deal_one(rules, rng)

    def steps(self, rules, deal):
        return self.reference.steps(rules, deal)

    def deal_from_chance(self, rules, outcomes: Sequence[int]):
        return self.reference.deal_from_chance(rules, outcomes)

    def resample(self, rules, deal, log: Sequence, seat: int, rng: np.random.Generator):
        return self.reference.resample(rules, deal, log, seat, rng)

    def max_length(self, rules) -> int:
        return self.reference.max_length(rules)

    def scores(self, played) -> np.ndarray:
        return played.scores()


class Determinized(TwoSides):
    """A `TwoSides` game whose reference module also builds a state from one seat's observation
    alone (``determinize(rules, seat, observation, rng, game)``): the optional part
    `geolab.game.Game.determinize`, delegated here once rather than in each such game."""

    def determinize(self, rules, seat: int, observation, rng: np.random.Generator) -> State:
        return self.reference.determinize(rules, seated(self, rules, seat), observation, rng, self)


class State:
    """One game in progress: rules, the deal (None: chance is stepped from outside), the log
    of every answer so far, and the node it stands at (`node`: an `Ask`, a `Chance`, or None
    when the game is over, its result in `played`).

    Log entries are ``("chance", outcome)`` and ``("ask", {seat: action})``; replaying a log
    on the same rules and deal gives the same state, which is how `clone` copies it and how a
    person's move is taken back."""

    def __init__(self, game, rules, deal=None, log: Sequence = ()):
        self.game, self.rules, self.deal = game, rules, deal
        self.log: list = []
        self.played = None
        self.node: Ask | Chance | None = None
        self._last_observe = None
        self._steps: Steps = game.steps(rules, deal)
        self._advance(None, first=True)
        for kind, value in log:
            if kind == "chance":
                self.apply_chance(value)
            else:
                self.apply(value)

    # ----- where the game stands -------------------------------------------------------
    def is_over(self) -> bool:
        return self.node is None

    def is_chance(self) -> bool:
        return isinstance(self.node, Chance)

    def to_move(self) -> tuple[int, ...]:
        """The seats that must decide now (empty at a chance node or the end)."""
        return self.node.seats if isinstance(self.node, Ask) else ()

    def decisions(self) -> tuple[Decision, ...]:
        return self.node.decisions if isinstance(self.node, Ask) else ()

    def decision(self, seat: int) -> Decision:
        for d in self.decisions():
            if d.seat == seat:
                return d
        raise GeolabError(f"seat {seat} has no decision now")

    def observe(self, seat: int):
        """What `seat` may see now (its observation: the game's own form, e.g. a `View`)."""
        observe = self.node.observe if self.node is not None and self.node.observe is not None else self._last_observe
        if observe is None:
            raise GeolabError("nothing to observe before the deal")
        return observe(seat)

    def scores(self) -> np.ndarray:
        """Win shares per seat (`geolab.game.Batch.scores`); only at the end."""
        if not self.is_over():
            raise GeolabError("the game is not over")
        return self.game.scores(self.played)

    # ----- moving ------------------------------------------------------------------------
    def apply(self, actions: Mapping[int, Any]) -> None:
        """Every deciding seat's action (a `Claim` each at a race), checked, then applied at
        once. An action not among its decision's legal ones is an `IllegalActionError`
        naming the decision; the state is then unchanged."""
        node = self.node
        if not isinstance(node, Ask):
            raise IllegalActionError("the game is over" if node is None else "chance moves now, not a seat")
        if sorted(actions) != sorted(node.seats):
            raise IllegalActionError(f"expected actions of seat(s) {', '.join(map(str, node.seats))}, "
                                     f"got {', '.join(map(str, sorted(actions))) or 'none'}")
        answers = {}
        for d in node.decisions:
            a = actions[d.seat]
            if d.timed:
                if not isinstance(a, Claim):
                    raise IllegalActionError(f"{d.kind}: a race is answered with a claim and its seconds")
                if isinstance(a.seconds, bool) or not isinstance(a.seconds, (int, float)) \
                        or not (np.isfinite(a.seconds) and a.seconds >= 0):
                    raise IllegalActionError(f"{d.kind}: seconds must be a finite number at least 0, "
                                             f"got {shown(a.seconds)}")
                if not (isinstance(a.laid, tuple) and all(isinstance(g, tuple) for g in a.laid)):
                    raise IllegalActionError(f"{d.kind}: a claim's laid cards are groups of card numbers, "
                                             f"got {shown(a.laid)}")
                answers[d.seat] = a if a.action is None else Claim(checked(d, a.action, self._name(d)),
                                                                   float(a.seconds), a.laid)
            else:
                answers[d.seat] = checked(d, a, self._name(d))
        self.log.append(("ask", answers))
        self._advance(answers)

    def apply_chance(self, outcome: int) -> None:
        node = self.node
        if not isinstance(node, Chance):
            raise IllegalActionError("no chance node here")
        if outcome not in node.outcomes:
            raise IllegalActionError(f"{node.kind}: {shown(outcome)} is not a possible outcome")
        self.log.append(("chance", int(outcome)))
        self._advance(int(outcome))

    def _name(self, decision: Decision) -> str:
        return self.game.seat_name(self.rules, decision.seat)

    def _advance(self, value, first: bool = False) -> None:
        if self.node is not None and self.node.observe is not None:
            self._last_observe = self.node.observe
        try:
            self.node = next(self._steps) if first else self._steps.send(value)
        except StopIteration as stop:
            self.node, self.played = None, stop.value
            plays = _PLAYS.get()
            if plays is not None:
                plays.append(Finished(self.game, self.rules, self.deal, tuple(self.log), self.played))

    # ----- copies ------------------------------------------------------------------------
    def clone(self) -> State:
        """The same game at the same node, independent of this one (the log replayed)."""
        return State(self.game, self.rules, self.deal, self.log)

    def rewound(self, entries: int) -> State:
        """The game as it stood after the first `entries` log entries (`undo`)."""
        return State(self.game, self.rules, self.deal, self.log[:entries])

    def resample(self, seat: int, rng: np.random.Generator) -> State:
        """The same game as `seat` knows it, every card it cannot see dealt anew,
        consistently with everything it has seen: the game's `resample` gives the new deal
        (and, where others chose unseen, their choices made anew: `Resampled`), and the log's
        decisions are replayed on it (a chance-stepped state's chance outcomes are then read
        from the new deal)."""
        new = self.game.resample(self.rules, self.deal_so_far(), self.log, seat, rng)
        deal, log = (new.deal, new.log) if isinstance(new, Resampled) else (new, self.log)
        return State(self.game, self.rules, deal, [e for e in log if e[0] == "ask"])

    def deal_so_far(self):
        """The deal this state plays: its own, or (stepped without one) the deal its chance
        outcomes so far make (`Game.deal_from_chance`)."""
        if self.deal is not None:
            return self.deal
        return self.game.deal_from_chance(self.rules, [v for k, v in self.log if k == "chance"])


#: Where a `State` tells the game it finished, inside `recording` (None: nowhere).
_PLAYS: ContextVar[list | None] = ContextVar("plays", default=None)


@dataclass(frozen=True)
class Finished:
    """A game a `State` finished (by `play` or stepped): the engine, rules and deal it stepped, its log (every answer,
    in order) and the played game, so the same game can be stepped again decision by
    decision (``State(game, rules, deal)`` and the log's answers)."""

    game: Any
    rules: Any
    deal: Any
    log: tuple
    played: Any


@contextlib.contextmanager
def recording() -> Iterator[list[Finished]]:
    """Within the block, every game a `State` finishes is appended to the list yielded: how a
    replay steps a record decision by decision, whatever game's record replays it."""
    plays: list[Finished] = []
    token = _PLAYS.set(plays)
    try:
        yield plays
    finally:
        _PLAYS.reset(token)


def play(game, rules, deal, seats: Sequence) -> Any:
    """The one driver: one game on the reference engine, ``seats[s]`` (a `geolab.game.Seat`)
    asked for seat s's decisions, in the order the rules ask them; returns the played game.
    Chance comes from the deal."""
    if len(seats) != game.seats(rules):
        raise GeolabError(f"{game.name}: {len(seats)} seats for {game.seats(rules)}")
    state = State(game, rules, deal)
    while not state.is_over():
        node = state.node
        if isinstance(node, Chance):
            raise GeolabError(f"{game.name}: the deal leaves a chance event open ({node.kind})")
        state.apply({d.seat: seats[d.seat].act(d) for d in node.decisions})
    return state.played
