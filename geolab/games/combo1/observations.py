"""A Combo 1 match on the step-wise state: fixed action indices, and a seat's observation (the
engine's `MatchView`) as text and as a flat tensor.

Actions: the afternoon choice of game g is index g (0-3); then each game's own indices (its
observations module, under the match's rules of that game, a race's "no claim" included), one
range after another in `GAMES` order, each offset by the ranges before it.

The tensor is the match's part (`HEAD`, and a block a game for every game the match may begin,
`slots`) followed by each game's own tensor block: the game being played fills its block with
its own tensor of the seat's view, the others are zeros.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from geolab.cards import N_CARDS, POSTAL
from geolab.errors import IllegalActionError
from geolab.game import Decision, shown
from geolab.games.borderup import observations as border_up
from geolab.games.borderup.reference import View as BorderUpView
from geolab.games.combo1.reference import SIDES, MatchView, slots
from geolab.games.combo1.rules import GAMES, ROUNDS, TITLES, Rules
from geolab.games.dashing import observations as dashing
from geolab.games.dashing.reference import View as DashingView
from geolab.games.ranks import observations as ranks
from geolab.games.ranks.reference import View as RanksView
from geolab.games.stateiq import observations as state_iq
from geolab.games.stateiq.reference import View as StateIQView
from geolab.stepwise import checked, legal_index

#: Each game's observations module, in `GAMES` order.
MODULES = (border_up, state_iq, dashing, ranks)
#: Each game's own view, in `GAMES` order.
VIEWS = (BorderUpView, StateIQView, DashingView, RanksView)
CHOICES = len(GAMES)


def now_view(view: MatchView):
    """The view of the game being played, or None. Between two games (the next game's chance
    nodes, when chance is stepped) a view names the next game but still holds the last one's
    view: that one is not the game being played."""
    if view.game is None or not isinstance(view.inner, VIEWS[view.game]):
        return None
    return view.inner


@lru_cache(maxsize=64)
def starts(rules: Rules) -> tuple[int, ...]:
    """Where each game's action range starts, then where the last one ends."""
    out = [CHOICES]
    for g, module in enumerate(MODULES):
        out.append(out[-1] + module.num_actions(rules.stage(g)))
    return tuple(out)


def num_actions(rules: Rules) -> int:
    return starts(rules)[-1]


def inner(decision: Decision) -> Decision:
    """A game's decision as that game asks it: its own view of the seat."""
    d = decision
    return Decision(d.seat, d.kind, d.observation.inner, d.legal, d.where, d.timed)


def action_id(rules: Rules, decision: Decision, action) -> int:
    """The fixed index of one of `decision`'s legal actions (at a race, None too)."""
    if decision.kind == "choose":
        return int(checked(decision, action, SIDES[decision.seat]))
    g = decision.observation.game
    return starts(rules)[g] + MODULES[g].action_id(rules.stage(g), inner(decision), action)


def action_of(rules: Rules, decision: Decision, index: int):
    """The legal action `index` names at `decision` (`action_id` backwards)."""
    whole = isinstance(index, (int, np.integer)) and not isinstance(index, bool)
    if decision.kind == "choose":
        i = legal_index(decision, int(index)) if whole and 0 <= index < CHOICES else -1
        if i < 0:
            raise IllegalActionError(f"{decision.where or 'choice'}: index {shown(index)} names no game "
                                     f"{SIDES[decision.seat]} may choose")
        return decision.legal[i]
    g = decision.observation.game
    at = starts(rules)
    if not (whole and at[g] <= index < at[g + 1]):
        raise IllegalActionError(f"{decision.where}: index {shown(index)} names no action of {TITLES[g]}, the game "
                                 "being played")
    return MODULES[g].action_of(rules.stage(g), inner(decision), int(index) - at[g])


# ----- observations ----------------------------------------------------------------------------
def clock_text(seconds: float) -> str:
    """Seconds as m:ss."""
    whole = int(seconds)
    return f"{whole // 60}:{whole % 60:02d}"


def _winner(w) -> str:
    return "tie" if w is None else f"{SIDES[w]} won"


def observation_string(rules: Rules, seat: int, view: MatchView) -> str:
    """Everything `view` holds: the seat, the round and clock, the games won, every game so
    far, the afternoon's draw and picks, then the game now being played as it shows it."""
    limit = "untimed" if rules.seconds is None else f"of {clock_text(rules.seconds)}"
    parts = [SIDES[seat], f"{rules.round} clock {clock_text(view.clock)} {limit}",
             f"wins A {view.wins[0]} B {view.wins[1]}"]
    if view.choice_draw is not None:
        parts.append(f"draw A {POSTAL[view.choice_draw[0]]} B {POSTAL[view.choice_draw[1]]}")
    if view.chooser is not None:
        picks = ", ".join(TITLES[p] for p in view.picks) or "none yet"
        parts.append(f"{SIDES[view.chooser]} chooses first; picks: {picks}")
    for n, g in enumerate(view.past, start=1):
        notes = "".join(((", tie-breaker" if g.tiebreak else ""), ("" if g.counted else ", after the bell")))
        parts.append(f"game {n} {TITLES[g.game]}: {_winner(g.winner)} in {g.seconds:.0f} s{notes}")
    if now_view(view) is not None:
        g = view.game
        drew = "" if view.draw is None else f" (first by draw A {POSTAL[view.draw[0]]} B {POSTAL[view.draw[1]]})"
        parts.append(f"now game {view.index + 1} {TITLES[g]}{drew}: "
                     + MODULES[g].observation_string(rules.stage(g), seat, view.inner))
    return " | ".join(parts)


#: The match part's blocks before the past games: seat 2, round 3, clock / round length 1,
#: games won 2, the draw 2 x 50, the first chooser 2, the picks 2 x 4, the game now 4.
HEAD = 2 + len(ROUNDS) + 1 + 2 + 2 * N_CARDS + 2 + 2 * CHOICES + CHOICES
#: One past game: its kind 4, its winner 3 (A, B, tie), counted 1, a tie-breaker 1.
PAST = CHOICES + 3 + 1 + 1
#: The clock's scale where the round is not timed (the final).
UNTIMED_SCALE = 3600.0


def _games(rules: Rules) -> int:
    return sum(slots(rules))


@lru_cache(maxsize=64)
def _inner_starts(rules: Rules) -> tuple[int, ...]:
    out = [HEAD + PAST * _games(rules)]
    for g, module in enumerate(MODULES):
        out.append(out[-1] + module.tensor_size(rules.stage(g)))
    return tuple(out)


def tensor_size(rules: Rules) -> int:
    return _inner_starts(rules)[-1]


def observation_tensor(rules: Rules, seat: int, view: MatchView) -> np.ndarray:
    """`view` as float32 values, `tensor_size` long (module docstring): the seat, the round
    (one-hot), the clock / the round's length (/ an hour in the final), the games won / the
    games the match may begin, the draw (one a card, A's then B's), the first chooser, the
    picks (one-hot, in order), the game now; then each past game's kind, winner, counted and
    tie-breaker; then each game's block."""
    out = np.zeros(tensor_size(rules), np.float32)
    k = 0

    def put(n: int, index: int | None = None, value: float = 1.0) -> None:
        nonlocal k
        if index is not None:
            out[k + index] = value
        k += n

    games = _games(rules)
    put(2, seat)
    put(len(ROUNDS), ROUNDS.index(rules.round))
    put(1, 0, view.clock / (rules.seconds or UNTIMED_SCALE))
    out[k:k + 2] = np.array(view.wins, np.float32) / games
    put(2)
    for s in (0, 1):
        put(N_CARDS, None if view.choice_draw is None else view.choice_draw[s])
    put(2, view.chooser)
    for p in range(2):
        put(CHOICES, view.picks[p] if p < len(view.picks) else None)
    put(CHOICES, view.game)
    for j in range(games):
        if j < len(view.past):
            g = view.past[j]
            out[k + g.game] = 1
            out[k + CHOICES + (2 if g.winner is None else g.winner)] = 1
            out[k + CHOICES + 3] = float(g.counted)
            out[k + CHOICES + 4] = float(g.tiebreak)
        put(PAST)
    if now_view(view) is not None:
        g, at = view.game, _inner_starts(rules)
        out[at[g]:at[g + 1]] = MODULES[g].observation_tensor(rules.stage(g), seat, view.inner)
    return out
