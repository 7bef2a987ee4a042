"""A GeoDouble player: its race speed (`geolab.games.race.RaceModel`), the Play the Ranks bot
that plays its tricks, and its declaration policy (`geolab.bots.geodouble.declare`), in one
spec: ``player:speed=1.5,tricks=[montecarlo:k=8,budget_ms=none],declare=score``.

The engines ask it through two calls (the contract in `geolab.games.geodouble.batch`):
``race(rng, cards, solutions)`` draws its claims' seconds and errors, and
``stage_policy(scores)`` is a Play the Ranks batch policy for one stage-2 batch whose games
stood at ``scores[g]`` (A's, B's) before the stage: it plays the tricks as the trick bot and
declares as the declaration policy, which sees the score.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from geolab.bots.geodouble.declare import Context
from geolab.bots.ranks.seats import BotSeat
from geolab.game import BatchBot, Decision, asking
from geolab.games.geodouble.reference import WRONG
from geolab.games.race import RaceModel


class Player(BatchBot):
    """One GeoDouble player (module docstring)."""

    def __init__(self, race: RaceModel, tricks, declarer, declare_name: str):
        self.race_model, self.tricks, self.declarer, self.declare_name = race, tricks, declarer, declare_name
        self.name = "player"
        self.thread_safe = tricks.thread_safe and declarer.thread_safe

    def race(self, rng: np.random.Generator, cards, solutions) -> tuple[np.ndarray, np.ndarray]:
        """Each hand's claim: its seconds (inf: none) and whether it is wrong."""
        return self.race_model.sample(rng, cards, solutions)

    def give_up(self, cards: int) -> float:
        """The seconds it searches a hand of `cards` without a solution before it stops: what
        the batch engines record as the time of a claim not made."""
        return self.race_model.give_up(cards)

    def stage_policy(self, rules, scores: np.ndarray) -> StagePolicy:
        return StagePolicy(self, rules, np.asarray(scores, np.int64))


class StagePolicy(BatchBot):
    """A player as a Play the Ranks batch policy for one stage-2 batch: the trick bot's
    discards, leads and answers, the declaration policy's declarations (with the score)."""

    def __init__(self, player: Player, rules, scores: np.ndarray):
        self.player, self.rules, self.scores = player, rules, scores
        self.name = player.name
        self.thread_safe = player.thread_safe

    def act(self, obs, rng):
        if obs.kind != "declare":
            return self.player.tricks.act(obs, rng)
        g, side = obs.game, obs.side.astype(np.int64)
        other = obs.declarations[np.arange(len(g)), 1 - side]
        ctx = Context(self.rules, obs.hand, obs.discards, obs.first_lead == side, other.astype(np.int8),
                      self.scores[g, side], self.scores[g, 1 - side], obs.noise)
        with asking("geodouble", self.player, "declaration"):
            said = np.asarray(self.player.declarer(ctx, rng))
        return said.astype(bool) if said.dtype == np.bool_ or said.dtype.kind in "iu" else said


class PlayerSeat:
    """A player at the reference engine (`geolab.game.Seat`): the race by its speed model on
    its own hand (the first solution it finds is the finder's first; a wrong claim or none as
    the model draws), the stage by `StagePolicy` through Play the Ranks' own `BotSeat`, shown
    only its own stage View and the score."""

    def __init__(self, bot: Player, rules, rng: np.random.Generator):
        self.bot, self.rules, self.rng = bot, rules, rng
        self.name = bot.name or "player"

    def act(self, decision: Decision):
        view = decision.observation
        if decision.timed:  # every solution, then the wrong claim
            return self.bot.race_model.seat_claim(self.rng, len(view.race_hand), decision.legal, WRONG)
        policy = self.bot.stage_policy(self.rules, np.array([view.score], np.int64))
        inner = dataclasses.replace(decision, observation=view.stage)
        return BotSeat(policy, self.rules.stage, self.rng).act(inner)
