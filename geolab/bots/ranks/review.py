"""After a game at the keyboard: a person's costliest trick decisions, by the oracle.

The oracle sees both hands, so it judges play after the fact (`geolab.games.ranks.solver.analysis`): a
decision costs what best play from then on loses by it, first the result (a win or tie given
away), then tricks the person could have forced. `judge` values discards too (`review` lists
trick decisions only); declarations are not judged.
"""

from __future__ import annotations

from geolab.cards import POSTAL
from geolab.common.text import fit, plural
from geolab.definition import Judgement
from geolab.games.ranks.reference import Game, Lead
from geolab.games.ranks.solver.analysis import decisions, discard_decisions, positions
from geolab.games.ranks.solver.double_dummy import OracleSolver, rank_for
from geolab.games.ranks.views import lead_label

RESULT = {2: "wins", 1: "ties", 0: "loses"}
HEAD = "Review by the oracle (sees both hands; discards, declarations not judged):"
OUTCOME = {2: "the win", 1: "the tie"}
AFTER = {1: "gave a tie", 0: "lost it"}


def _move(game: Game, trick: int, move) -> str:
    if isinstance(move, Lead):
        return lead_label(game.rules, move, trick, game.power_bases)
    if isinstance(move, tuple):  # a discard
        return "discarding " + " ".join(POSTAL[c] for c in move)
    return POSTAL[move]


def costs(game: Game, seat: int, solver: OracleSolver | None = None) -> list[tuple[tuple[int, int], str]]:
    """((results lost, tricks lost), the line) for each of `seat`'s trick decisions that
    lost value, costliest first (then in the order played)."""
    solver = solver or OracleSolver()
    found = []
    for pos, played in positions(game):
        if pos.mover != seat:
            continue
        moves = solver.solve(pos).moves
        mine = next(m for m in moves if m.move == played)
        best = max(moves, key=lambda m: (rank_for(seat, m.winner), m.tricks[seat]))
        lost = (rank_for(seat, best.winner) - rank_for(seat, mine.winner), best.tricks[seat] - mine.tricks[seat])
        if lost <= (0, 0):
            continue
        t = pos.trick
        verb = "leading" if pos.lead is None else "answering with"
        better, made = _move(game, t, best.move), _move(game, t, played)
        if lost[0] > 0:
            text = (f"trick {t + 1}: {verb} {better} would have kept {OUTCOME[rank_for(seat, best.winner)]} "
                    f"(your {made} {AFTER[rank_for(seat, mine.winner)]})")
        else:
            text = (f"trick {t + 1}: {verb} {better} would have secured {plural(best.tricks[seat], 'trick')} "
                    f"(your {made}: {mine.tricks[seat]})")
        found.append((lost, t, text))
    found.sort(key=lambda x: (-x[0][0], -x[0][1], x[1]))
    return [(lost, text) for lost, _, text in found]


def review(game: Game, seat: int) -> list[str]:
    """`seat`'s two costliest decisions of a played game, with the better move, as lines."""
    found = costs(game, seat)
    if not found:
        return [HEAD, "  none of your leads and answers lost the result or a trick against best play."]
    return [HEAD] + [line for _, text in found[:2] for line in fit([f"  {text}"])]


def _value(game: Game, trick: int, side: int, move, value) -> str:
    return f"{_move(game, trick, move)}: {RESULT[rank_for(side, value.winner)]}, {plural(value.tricks[side], 'trick')}"


def judge(game: Game) -> list[Judgement]:
    """The oracle's value of every discard, lead and answer of a played game (each side's
    discard first, then the tricks in the order played; `geolab.definition.Players.judge`):
    the result and tricks the mover gets with best play after the move played, beside the best
    move's, and what the move lost (win share, and tricks it could have forced beyond; a
    lead's loss also split into its card and its category)."""
    out = []
    for d in discard_decisions(game) + decisions(game):
        def worth(m, side=d.side) -> tuple[int, int]:
            return (rank_for(side, m.winner), m.tricks[side])

        mine = d.played_value
        best = max(d.solution.moves, key=worth)
        if worth(mine) >= worth(best):
            words = f"oracle (sees both hands): best play ({_value(game, d.trick, d.side, d.played, mine)})"
        else:
            words = (f"oracle (sees both hands): played {_value(game, d.trick, d.side, d.played, mine)}; "
                     f"best {_value(game, d.trick, d.side, best.move, best)}")
        lost = (worth(best)[0] - worth(mine)[0]) / 2
        tricks = max(m.tricks[d.side] for m in d.solution.moves) - mine.tricks[d.side]
        out.append(Judgement(d.side, d.kind, words, lost, tricks, _lead_parts(d, worth) if d.kind == "lead" else ()))
    return out


def _lead_parts(d, worth) -> tuple[tuple[str, float], ...]:
    """A lead's loss split: the card (the best lead of any card against the best of the card
    played) and the category (and base, where the lead picks one) given that card."""
    best = max(worth(m)[0] for m in d.solution.moves)
    same = max(worth(m)[0] for m in d.solution.moves if m.move.card == d.played.card)
    return (("card", (best - same) / 2), ("category", (same - worth(d.played_value)[0]) / 2))
