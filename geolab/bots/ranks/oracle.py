"""The PEEKING oracle seat: plays the solver's best move while seeing the opponent's cards.

It cheats by construction and exists only as a ceiling for fair bots (how much would
knowing the layout be worth?). Its name, `oracle-peeking`, says so wherever it is reported.
It reads hidden cards through a `Table`, which records the true deal and every decision the
opponent makes (discards and face-down leads), so it can only be played through a driver
that sets one up (`geolab.bots.ranks.oracle.play_with_oracle`) or, on the batch engine, as
`OraclePolicy` (the registry's ``oracle``, flagged ``peeks``), which reads the hidden cards
through `Observation.peek`; no fair interface gives it that.

Discards and declarations come before the deal is solved from the first trick. The oracle
discards the cards that leave it best off against the opponent's whole dealt hand, assuming
the opponent discards by the greedy rule (its real discard is chosen at the same time), and
declares when best play wins for it.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

from geolab.bots.ranks.seats import GreedySeat, uselessness
from geolab.cards import RANKS, STATEHOOD
from geolab.game import BatchBot
from geolab.games.ranks.batch import Leads, cards_of
from geolab.games.ranks.reference import Game, Lead, View, play
from geolab.games.ranks.rules import Rules
from geolab.games.ranks.solver.double_dummy import OracleSolver, Position, rank_for


class Table:
    """The true deal and the decisions seats made, for the oracle to peek at."""

    def __init__(self, hands):
        self.hands = (tuple(hands[0]), tuple(hands[1]))
        self.discards: list[tuple[int, ...]] = [(), ()]
        self.lead: Lead | None = None

    def held(self, side: int, view: View) -> tuple[int, ...]:
        """Cards `side` holds now (a lead on the table excluded)."""
        gone = set(self.discards[side])
        for t in view.history:
            gone.update((t.lead, t.follow))
        if self.lead is not None and view.lead_category is not None:
            gone.add(self.lead.card)
        return tuple(c for c in self.hands[side] if c not in gone)


class Recorded:
    """Wraps a seat so the table learns its discards and its (possibly face-down) leads."""

    def __init__(self, seat, table: Table, side: int):
        self.seat, self.table, self.side = seat, table, side
        self.name = getattr(seat, "name", type(seat).__name__)

    def discard(self, view):
        chosen = tuple(self.seat.discard(view))
        self.table.discards[self.side] = chosen
        return chosen

    def declare(self, view):
        return self.seat.declare(view)

    def lead(self, view):
        lead = self.seat.lead(view)
        base = lead.base if lead.base is not None else view.allowed_bases()[0]
        self.table.lead = Lead(int(lead.card), int(lead.category), int(base))
        return lead

    def follow(self, view):
        return self.seat.follow(view)


class PeekingOracleSeat:
    """Plays the oracle's best move with the opponent's cards in full view (cheats)."""

    name = "oracle-peeking"

    def __init__(self, table: Table):
        self.table = table
        self.solver = OracleSolver()
        self.greedy = GreedySeat()

    def _position(self, view: View, lead: Lead | None) -> Position:
        me = view.side
        hands = [(), ()]
        hands[me] = tuple(view.hand)
        hands[1 - me] = self.table.held(1 - me, view)
        leader = me if lead is None else 1 - me
        return Position(view.rules, (hands[0], hands[1]), leader, view.tricks_won, view.power_bases, lead)

    def _best(self, view: View, lead: Lead | None, fallback):
        sol = self.solver.solve(self._position(view, lead))
        good = sol.best_for(view.side)
        moves = [m.move for m in good]
        return fallback if fallback in moves else moves[0]

    def lead(self, view: View) -> Lead:
        g = self.greedy.lead(view)
        return self._best(view, None, Lead(g.card, g.category, g.base or view.allowed_bases()[0]))

    def follow(self, view: View) -> int:
        return int(self._best(view, self.table.lead, self.greedy.follow(view)))

    def discard(self, view: View):
        rules, me = view.rules, view.side
        opp_hand = list(self.table.hands[1 - me])
        bases = rules.future_bases(0, view.power_bases)
        thrown = sorted(opp_hand, key=lambda c: (-uselessness(c, bases), c))[: rules.discards]
        opp_keep = tuple(c for c in opp_hand if c not in thrown)
        best, best_rank = None, -1
        for option in combinations(view.hand, rules.discards):
            keep = tuple(c for c in view.hand if c not in option)
            if rules.first_lead == "given":
                leader = view.first_lead
            else:
                mine = min(int(RANKS[c, STATEHOOD]) for c in option)
                theirs = min(int(RANKS[c, STATEHOOD]) for c in thrown)
                leader = me if mine < theirs else 1 - me
            hands = (keep, opp_keep) if me == 0 else (opp_keep, keep)
            rank = rank_for(me, self.solver.winner(Position(rules, hands, leader, power_bases=view.power_bases)))
            if rank > best_rank:
                best, best_rank = list(option), rank
        self.table.discards[me] = tuple(best)
        return best

    def declare(self, view: View) -> bool:
        pos = self._position(view, None)
        pos = Position(view.rules, pos.hands, view.first_lead, (0, 0), view.power_bases)
        return self.solver.winner(pos) == view.side


def play_with_oracle(rules: Rules, hands, oracle_side: int, opponent, first_lead=None, power_bases=None) -> Game:
    """Play one deal with the peeking oracle on `oracle_side` against the seat `opponent`."""
    table = Table(hands)
    seats: list = [None, None]
    seats[oracle_side] = PeekingOracleSeat(table)
    seats[1 - oracle_side] = Recorded(opponent, table, 1 - oracle_side)
    return play(rules, hands, seats, first_lead, power_bases)


# ----- on the batch engine ----------------------------------------------------------------
class _Peeked:
    """One row's hidden cards, as the oracle's `Table` gives them (read through
    `Observation.peek`)."""

    def __init__(self, side: int, dealt: tuple[int, ...], held: tuple[int, ...], lead: Lead | None):
        self.hands = (dealt, ()) if side == 1 else ((), dealt)  # hands[1 - side]: the opponent's, as dealt
        self._held = held
        self.lead = lead
        self.discards: list[tuple[int, ...]] = [(), ()]

    def held(self, side: int, view: View) -> tuple[int, ...]:
        return self._held


class OraclePolicy(BatchBot):
    """The PEEKING oracle seat as a batch policy: each row's View, plus the opponent's cards
    and a face-down lead read through `Observation.peek` (the engine's one channel to hidden
    cards). It cheats by construction: registered as ``oracle`` with ``peeks=True``, a ceiling
    for fair bots and van der Genugten and Borm's fictive player who knows the chance outcomes
    (docs/balance.md). Deterministic: the solver's best move, greedy's among equals."""

    name = "oracle"
    peeks = True  # sees hidden cards: a seat at the reference engine (geolab play) refuses it
    thread_safe = False  # one solver, its tables reused row after row

    def __init__(self):
        self.seat = PeekingOracleSeat(Table(((), ())))

    def act(self, obs, rng):
        peek = obs.peek()
        kind, out = obs.kind, []
        for i in range(len(obs)):
            view = obs.view(i)
            lead = None
            if kind == "follow":
                lead = Lead(int(peek.lead[i]), int(obs.lead_category[i]), int(obs.lead_base[i]))
            self.seat.table = _Peeked(view.side, cards_of(peek.dealt[i]), cards_of(peek.held[i]), lead)
            out.append(getattr(self.seat, kind)(view))
        if kind == "discard":
            return np.array([sorted(c) for c in out], np.int64).reshape(len(obs), obs.rules.discards)
        if kind == "declare":
            return np.array([bool(d) for d in out], np.bool_)
        if kind == "lead":
            return Leads(np.array([ld.card for ld in out], np.int64), np.array([ld.category for ld in out], np.int64),
                         np.array([ld.base for ld in out], np.int64))
        return np.array([int(c) for c in out], np.int64)
