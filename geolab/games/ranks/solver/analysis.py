"""Analysis built on the oracle: what a deal is worth, and which decisions of a game lost value.

All of it looks at both hands (it is the oracle's view), so it judges play after the fact; a
move the oracle calls a mistake may have been the best a player could do without peeking.
A decision "loses" when its best-play outcome for the mover (win > tie > loss) is worse than
that of the mover's best move. A discard is valued by `discard_decisions`: the deal's
best-play outcome from the first trick after each discard the side could have made, the other
side's as it was. Declarations are not judged: they change the points, not who wins.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations

from geolab.games.ranks.reference import Game, Lead, discard_leader
from geolab.games.ranks.rules import Rules
from geolab.games.ranks.solver.double_dummy import MoveValue, OracleSolver, Position, Solution, rank_for


@dataclass(frozen=True)
class Decision:
    """One trick decision of a game, with the oracle's value of every alternative."""

    trick: int  # 0-based
    side: int
    kind: str  # "discard", "lead" or "follow"
    played: Lead | int | tuple[int, ...]  # a discard: its cards
    solution: Solution

    @property
    def played_value(self):
        return next(m for m in self.solution.moves if m.move == self.played)

    @property
    def optimal(self) -> bool:
        best = max(rank_for(self.side, m.winner) for m in self.solution.moves)
        return rank_for(self.side, self.played_value.winner) == best


def positions(game: Game) -> Iterator[tuple[Position, Lead | int]]:
    """Every trick decision of a played game: the position (all cards visible), the move made."""
    held = [set(game.hands[s]) - set(game.discards[s]) for s in (0, 1)]
    won = [0, 0]
    for trick in game.tricks:
        hands = (tuple(sorted(held[0])), tuple(sorted(held[1])))
        lead = Lead(trick.lead, trick.category, trick.base)
        yield Position(game.rules, hands, trick.leader, (won[0], won[1]), game.power_bases), lead
        held[trick.leader].discard(trick.lead)
        hands = (tuple(sorted(held[0])), tuple(sorted(held[1])))
        yield Position(game.rules, hands, trick.leader, (won[0], won[1]), game.power_bases, lead), trick.follow
        held[1 - trick.leader].discard(trick.follow)
        won[trick.winner] += 1


def decisions(game: Game, solver: OracleSolver | None = None) -> list[Decision]:
    """Every trick decision of the game, valued by the oracle."""
    solver = solver or OracleSolver()
    out = []
    for pos, played in positions(game):
        kind = "lead" if pos.lead is None else "follow"
        out.append(Decision(pos.trick, pos.mover, kind, played, solver.solve(pos)))
    return out


def discard_decisions(game: Game, solver: OracleSolver | None = None) -> list[Decision]:
    """Each side's discard, valued by the oracle beside every other discard it could have made
    (the other side's discard as played; the first lead as the rules give it for that pair of
    discards); none where the rules have no discards."""
    if not game.rules.discards:
        return []
    solver = solver or OracleSolver()
    out = []
    for side in (0, 1):
        values = []
        for mine in combinations(game.hands[side], game.rules.discards):
            discards = (mine, game.discards[1]) if side == 0 else (game.discards[0], mine)
            hands = tuple(tuple(sorted(set(game.hands[s]) - set(discards[s]))) for s in (0, 1))
            leader = discard_leader(discards) if game.rules.first_lead == "discard-statehood" else game.first_lead
            pos = Position(game.rules, hands, leader, power_bases=game.power_bases)
            values.append(MoveValue(tuple(mine), solver.winner(pos), solver.tricks(pos)))
        played = tuple(c for c in game.hands[side] if c in game.discards[side])
        best = max(values, key=lambda m, side=side: (rank_for(side, m.winner), m.tricks[side]))
        out.append(Decision(0, side, "discard", played, Solution(best.winner, best.tricks, tuple(values))))
    return out


def decisions_lost(game: Game, solver: OracleSolver | None = None) -> tuple[int, int]:
    """How many of A's and of B's decisions were worse than their best move (oracle's view)."""
    lost = [0, 0]
    for d in decisions(game, solver):
        lost[d.side] += not d.optimal
    return lost[0], lost[1]


def deal_value(
    rules: Rules, hands, first_lead: int, power_bases=None, solver: OracleSolver | None = None
) -> tuple[int | None, tuple[int, int]]:
    """Double-dummy value of a deal after the discards: (winner at best play, forced tricks)."""
    solver = solver or OracleSolver()
    pos = Position(rules, (tuple(hands[0]), tuple(hands[1])), first_lead, power_bases=power_bases)
    return solver.winner(pos), solver.tricks(pos)
