"""Exact best response to a fixed Play the Ranks policy, on variants small enough to enumerate.

A *target* policy gives, at each of its decisions, the probability of each legal action (a
deterministic bot: one action with probability 1). The best response (BR) is the fair player
that knows that policy and the rules, sees only what its seat sees, and maximises its expected
win share (win 1, tie 1/2, loss 0) against it. It is computed exactly by walking the game from
the responder's side (`Walk`):

- chance deals the responder's hand, then the target's from the rest of the deck, uniformly,
  and the first lead (a fair coin where the rules give it from outside the deal: the
  statehood draw of two unseen cards gives either side the lead with probability 1/2,
  whatever the hands);
- a node of the walk is one responder information set: what its seat has seen (its hand, its
  discards, everything public) and, beside it, every hidden state of the target consistent
  with it (its cards, its hidden discards, a face-down lead) weighted by chance and by the
  target's action probabilities along the way (unnormalised reach);
- at a responder decision the value is the largest over its legal actions, every hidden state
  kept together (they are one information set); at a target decision each hidden state's
  action probabilities split the weights, grouped by what the responder then sees.

Observations have perfect recall, so each responder information set is visited once and the
action chosen there (`Response.strategy`) is a best response. The same walk with a responder
policy in place of the maximum gives the exact expected win share of any policy pair
(`exact_value`): what a registered bot gets against the target on every deal.

Play the Ranks is symmetric between the seats where the first lead is a fair coin, so its
value under equilibrium play is 1/2 for either seat; the target's **exploitability** is then
the BR's win share averaged over both seatings, minus 1/2 (`exploitability`).

Game layer: a policy is any callable from a `geolab.game.Decision` to action probabilities;
turning a registered bot into one is the bots' business (`geolab.bots.ranks.behaviour`).
Power-card bases (Level 3) are refused: they multiply the deals by 210.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from itertools import combinations
from math import comb
from typing import Any, NamedTuple

from geolab.errors import RulesError
from geolab.game import Decision
from geolab.games.ranks.reference import RANK, STATEHOOD, Lead, Trick, View, decision, is_over, outcome, trick_winner
from geolab.games.ranks.rules import Rules

#: A policy: the probability of each action it may take at a decision (those it never takes
#: may be left out). Deterministic bots give one action with probability 1.
Policy = Callable[[Decision], Mapping[Any, float]]

#: The most deals (both hands, both first leads) the walk takes on: beyond it the rules are
#: not an analysis variant, and the walk would run for hours.
MAX_DEALS = 2_000_000


def info_key(kind: str, view: View) -> tuple:
    """What a seat has seen at a decision of this kind, as a hashable key (a View without its
    rules; the kind tells apart the two Views that look alike where nobody discards)."""
    return (kind, view.side, view.hand, view.discards, view.opponent_discards, view.first_lead, view.declarations,
            view.history, view.lead_category, view.lead_base, view.lead_card)


def deals(rules: Rules) -> int:
    """Distinct deals the walk enumerates: both hands from the deck, times the first leads."""
    h = rules.hand_size
    return comb(rules.deck, h) * comb(rules.deck - h, h) * (2 if rules.first_lead == "given" else 1)


def check(rules: Rules) -> Rules:
    """`rules`, validated, or a one-line `RulesError` saying why the walk cannot take them."""
    rules.validate()
    if rules.base_mode == "power":
        raise RulesError(f"rules {rules.name}: exact best response does not take Power-card bases (base_mode power)")
    if deals(rules) > MAX_DEALS:
        raise RulesError(f"rules {rules.name}: {deals(rules):,} deals are too many to enumerate "
                         f"(at most {MAX_DEALS:,}: a smaller deck or hands, e.g. --rules tiny or small)")
    return rules


class Public(NamedTuple):
    """What the responder has seen: its hand, its discards, the target's discards where public,
    the first lead where known, the declarations, the tricks, the lead on the table (its card
    None while face-down), and the stage: ``discard``, ``declare`` (the ``said`` entries not
    None yet) or ``play``."""

    hand: tuple[int, ...]
    mine: tuple[int, ...] | None
    theirs: tuple[int, ...] | None
    first: int | None
    said: tuple[bool | None, bool | None]
    history: tuple[Trick, ...]
    lead: Lead | None
    stage: str


#: A hidden state of the target: its cards in hand, its discards, its face-down lead (or None).
Hidden = tuple[tuple[int, ...], tuple[int, ...], int | None]


@dataclass
class Response:
    """An exact best response (or a policy pair's exact value) for one responder seat."""

    rules: Rules
    responder: int
    value: float  # the responder's expected win share over every deal
    strategy: dict = field(default_factory=dict)  # info_key -> best action, at every set the target's play reaches
    target_sets: int = 0  # distinct target information sets the walk asked the policy about
    seconds: float = 0.0  # CPU seconds

    def act(self, d: Decision):
        """The BR as a `geolab.game.Seat`: its action at this decision (a set it never reaches
        against the target: the first legal action)."""
        return self.strategy.get(info_key(d.kind, d.observation), d.legal[0])


class Walk:
    """The responder's walk over every deal (module docstring). `respond` None: best response;
    else the responder plays that policy and the walk returns the pair's exact value."""

    def __init__(self, rules: Rules, target: Policy, responder: int, respond: Policy | None = None):
        self.rules, self.target, self.r, self.t = check(rules), target, responder, 1 - responder
        self.respond = respond
        self.asked: dict[tuple, Mapping] = {}  # target info_key -> its probabilities
        self.answers: dict[tuple, Mapping] = {}  # responder info_key -> its policy's probabilities
        self.strategy: dict[tuple, Any] = {}

    def run(self) -> Response:
        start = time.process_time()
        rules, h = self.rules, self.rules.hand_size
        cards = range(rules.deck)
        firsts = (0, 1) if rules.first_lead == "given" else (None,)
        weight = 1.0 / (comb(rules.deck, h) * comb(rules.deck - h, h) * len(firsts))
        total = 0.0
        for mine in combinations(cards, h):
            rest = [c for c in cards if c not in mine]
            for first in firsts:
                hidden = {(theirs, (), None): weight for theirs in combinations(rest, h)}
                total += self.value(Public(mine, None, None, first, (None, None), (), None, "discard"), hidden)
        return Response(rules, self.r, total, self.strategy, len(self.asked), time.process_time() - start)

    # ----- views, as the reference engine's `steps` builds them -----------------------------
    def leader(self, p: Public) -> int:
        return p.history[-1].winner if p.history else p.first

    def view(self, side: int, p: Public, x: Hidden | None) -> View:
        """`side`'s View: the responder's from `p`, the target's from `p` and its hidden state."""
        rules = self.rules
        if side == self.r:
            hand, mine, theirs, card = p.hand, p.mine, p.theirs, None if p.lead is None else p.lead.card
        else:
            hand, mine, theirs = x[0], x[1], p.mine
            card = None if p.lead is None else (x[2] if x[2] is not None else p.lead.card)
        shown = theirs if rules.discards_public and theirs is not None and p.stage != "discard" else None
        on_table = (None, None, None)
        if p.lead is not None:
            hide = rules.hidden_lead and side != self.leader(p)
            on_table = (p.lead.category, p.lead.base, None if hide else card)
        return View(rules, side, hand, mine or (), shown, p.first, p.said, None, p.history, *on_table)

    # ----- the walk ---------------------------------------------------------------------------
    def value(self, p: Public, hidden: dict[Hidden, float]) -> float:
        """The responder's win share summed over these hidden states, weighted by their reach."""
        rules = self.rules
        if p.stage == "discard":  # both at once: the target's view never holds the responder's
            return self.choose(p, hidden, "discard", lambda a: self.target_acts(
                p._replace(hand=_without(p.hand, *a), mine=tuple(a)), hidden, "discard", self.target_discarded))
        if p.stage == "declare":
            side = p.first if p.said[p.first] is None else 1 - p.first
            if side == self.r:
                return self.choose(p, hidden, "declare", lambda a: self.value(self.declared(p, side, a), hidden))
            return self.target_acts(p, hidden, "declare", lambda q, x, a: (self.declared(q, side, a), x))
        winners = [t.winner for t in p.history]
        if is_over(rules, winners):
            won = outcome(rules, winners)
            return (0.5 if won is None else float(won == self.r)) * sum(hidden.values())
        if p.lead is None:
            if self.leader(p) == self.r:
                return self.choose(p, hidden, "lead", lambda a: self.value(
                    p._replace(hand=_without(p.hand, a.card), lead=a), hidden))
            return self.target_acts(p, hidden, "lead", self.target_led)
        if self.leader(p) == self.r:
            return self.target_acts(p, hidden, "follow", lambda q, x, a: (self.settled(q, q.lead.card, a),
                                                                        (_without(x[0], a), x[1], None)))
        return self.choose(p, hidden, "follow", lambda a: self.followed(p._replace(hand=_without(p.hand, a)), a,
                                                                        hidden))

    def choose(self, p: Public, hidden: dict, kind: str, child: Callable[[Any], float]) -> float:
        """A responder decision: the best action's value, or its policy's expectation."""
        view = self.view(self.r, p, None)
        key = info_key(kind, view)
        if self.respond is not None:
            probs = self.answers.get(key)
            if probs is None:
                probs = self.answers[key] = self.respond(decision(kind, view))
            return sum(q * child(a) for a, q in probs.items() if q > 0)
        best, best_value = None, -1.0
        for a in decision(kind, view).legal:
            v = child(a)
            if v > best_value + 1e-12:
                best, best_value = a, v
        self.strategy[key] = best
        return best_value

    def target_acts(self, p: Public, hidden: dict, kind: str, after) -> float:
        """A target decision: each hidden state's action probabilities split its weight;
        `after(p, x, a)` gives what the responder sees then and the new hidden state."""
        groups: dict[Public, dict[Hidden, float]] = {}
        for x, w in hidden.items():
            for a, q in self.probabilities(kind, p, x).items():
                if q > 0:
                    seen, y = after(p, x, a)
                    part = groups.setdefault(seen, {})
                    part[y] = part.get(y, 0.0) + w * q
        return sum(self.value(seen, part) for seen, part in groups.items())

    def probabilities(self, kind: str, p: Public, x: Hidden) -> Mapping:
        view = self.view(self.t, p, x)
        key = info_key(kind, view)
        probs = self.asked.get(key)
        if probs is None:
            probs = self.asked[key] = self.target(decision(kind, view))
        return probs

    # ----- transitions ------------------------------------------------------------------------
    def target_discarded(self, p: Public, x: Hidden, a) -> tuple[Public, Hidden]:
        rules, theirs = self.rules, tuple(a)
        seen = p._replace(theirs=theirs if rules.discards_public else None,
                          stage="declare" if rules.declarations else "play")
        if rules.first_lead == "discard-statehood":  # public discards: the responder sees who leads
            pair = (p.mine, theirs) if self.r == 0 else (theirs, p.mine)
            best = [min(RANK[c][STATEHOOD] for c in d) for d in pair]
            seen = seen._replace(first=0 if best[0] < best[1] else 1)
        return seen, (_without(x[0], *theirs), theirs, None)

    def declared(self, p: Public, side: int, answer: bool) -> Public:
        said = (answer, p.said[1]) if side == 0 else (p.said[0], answer)
        return p._replace(said=said, stage="play" if None not in said else "declare")

    def target_led(self, p: Public, x: Hidden, a: Lead) -> tuple[Public, Hidden]:
        face_down = self.rules.hidden_lead
        shown = Lead(None, a.category, a.base) if face_down else a
        return p._replace(lead=shown), (_without(x[0], a.card), x[1], a.card if face_down else None)

    def followed(self, p: Public, follow: int, hidden: dict) -> float:
        """The responder has answered: the trick settles on each lead card it may be."""
        if p.lead.card is not None:
            return self.value(self.settled(p, p.lead.card, follow), hidden)
        total = 0.0
        for card in sorted({x[2] for x in hidden}):
            part = {(x[0], x[1], None): w for x, w in hidden.items() if x[2] == card}
            total += self.value(self.settled(p, card, follow), part)
        return total

    def settled(self, p: Public, lead_card: int, follow: int) -> Public:
        leader, lead = self.leader(p), p.lead
        winner = trick_winner(self.rules, leader, lead_card, follow, lead.category, lead.base)
        return p._replace(history=p.history + (Trick(leader, lead_card, lead.category, lead.base, follow, winner),),
                          lead=None)


def best_response(rules: Rules, target: Policy, responder: int) -> Response:
    """The exact best response to `target` from seat `responder` (0 = A, 1 = B), its value and
    strategy."""
    return Walk(rules, target, responder).run()


def exact_value(rules: Rules, target: Policy, responder: int, policy: Policy) -> float:
    """The exact expected win share of `policy` at seat `responder` against `target`."""
    return Walk(rules, target, responder, respond=policy).run().value


def exploitability(rules: Rules, target: Policy) -> dict:
    """The BR's value against `target` from each seat, their mean, and the exploitability
    (mean - 1/2: the game's value is 1/2 for either seat where the first lead is a coin; where
    the discards decide it the mean's edge over 1/2 is still what is reported), with the CPU."""
    seats = [best_response(rules, target, r) for r in (0, 1)]
    mean = (seats[0].value + seats[1].value) / 2
    return {"rules": rules.name, "br_A": seats[0].value, "br_B": seats[1].value, "br_mean": mean,
            "exploitability": mean - 0.5, "target_sets": sum(s.target_sets for s in seats),
            "br_sets": sum(len(s.strategy) for s in seats), "cpu_s": sum(s.seconds for s in seats)}


def _without(hand: tuple[int, ...], *cards: int) -> tuple[int, ...]:
    return tuple(c for c in hand if c not in cards)
