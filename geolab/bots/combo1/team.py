"""A Combo 1 team: one bot of each of the four games and an afternoon choice policy, in one
spec (``team:speed=1.2,knowledge=0.8,tricks=[montecarlo:k=8],prefer=ranks/border-up``).

The engines ask it through each game's own contract, on its bot of that game
(``team.stage(g)``: a Border-Up racer, a State IQ player, a Dashing States team and a Play
the Ranks policy, built for the match's rules of that game), and through one call of its own:
``choose(rng, choosing)`` picks each match's afternoon game from a `Choosing` batch.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from geolab.game import BatchBot, Decision
from geolab.games.combo1.batch import Choosing  # the choice contract, the engine's (games layer)
from geolab.games.combo1.rules import GAMES


class Team(BatchBot):
    """One Combo 1 team (module docstring). ``prefer``: its games by preference (it picks the
    first one open), or None to pick uniformly among the open ones."""

    def __init__(self, games: tuple, prefer: tuple[int, ...] | None, spec: str = "team"):
        self.games, self.prefer, self.name = games, prefer, spec
        self.thread_safe = all(b.thread_safe for b in games)

    def stage(self, game: int) -> BatchBot:
        """The bot that plays game `game` (a `GAMES` index) of the match, by that game's own
        batch contract."""
        return self.games[game]

    def choose(self, rng: np.random.Generator, choosing: Choosing) -> np.ndarray:
        """Each match's game (a `GAMES` index) among those open (a uniform draw made per row
        whatever the policy, so a match's draws never depend on the policy)."""
        u = rng.random(len(choosing))
        if self.prefer is None:
            counts = choosing.open.sum(axis=1)
            nth = np.minimum((u * counts).astype(np.int64), counts - 1)
            return np.argmax(np.cumsum(choosing.open, axis=1) > nth[:, None], axis=1).astype(np.int64)
        order = np.array(self.prefer, np.int64)
        first = np.argmax(choosing.open[:, order], axis=1)
        return order[first]


class TeamSeat:
    """A team at the reference engine (`geolab.game.Seat`): its choices by `Team.choose` on a
    batch of one, every other decision by that game's own seat for its bot (`seats`), shown
    only the game's own view of the seat."""

    def __init__(self, bot: Team, rules, rng: np.random.Generator, seats: tuple):
        self.bot, self.rules, self.rng, self.seats = bot, rules, rng, seats
        self.name = bot.name or "team"

    def act(self, decision: Decision):
        view = decision.observation
        if decision.kind == "choose":
            legal = [int(g) for g in decision.legal]
            open_ = np.array([[g in legal for g in range(len(GAMES))]])
            other = np.array([view.picks[0] if view.picks else -1], np.int64)
            g = int(self.bot.choose(self.rng, Choosing(open_, other))[0])
            return decision.legal[legal.index(g)]
        return self.seats[view.game].act(replace(decision, observation=view.inner))
