"""A Border-Up team: its race model (`geolab.games.race.RaceModel`: how fast it finds two
border groups in its hand and how often its claim is wrong), in one spec:
``racer:speed=1.5``, ``racer:error=0.1``, ``racer:race=perfect``.

The batch engine asks it through one call (the contract in `geolab.games.borderup.batch`,
the same as GeoDouble's stage 1): ``race(rng, cards, solutions)`` draws its claims' seconds and
errors for a block of hands. At the reference engine (`RacerSeat`) the same model draws one
claim on the team's own hand, and lays down the hand's first solution, as the batch engine does.
"""

from __future__ import annotations

import numpy as np

from geolab.game import BatchBot, Decision
from geolab.games.borderup.reference import WRONG
from geolab.games.race import RaceModel
from geolab.stepwise import Claim


class Racer(BatchBot):
    """One Border-Up team (module docstring)."""

    thread_safe = True

    def __init__(self, race: RaceModel):
        self.race_model = race
        self.name = "racer"

    def race(self, rng: np.random.Generator, cards, solutions) -> tuple[np.ndarray, np.ndarray]:
        """Each hand's claim: its seconds (inf: none) and whether it is wrong."""
        return self.race_model.sample(rng, cards, solutions)

    def give_up(self, cards: int) -> float:
        """The seconds it searches a hand of `cards` without a solution before it stops: what
        the batch engines record as the time of a claim not made."""
        return self.race_model.give_up(cards)


class RacerSeat:
    """A racer at the reference engine (`geolab.game.Seat`): its claim on its own hand, drawn by
    its race model (the first solution, a wrong claim or none), shown only its own `View`."""

    def __init__(self, bot: Racer, rules, rng: np.random.Generator):
        self.bot, self.rules, self.rng = bot, rules, rng
        self.name = bot.name or "racer"

    def act(self, decision: Decision) -> Claim:
        hand = decision.observation.hand
        return self.bot.race_model.seat_claim(self.rng, len(hand), decision.legal, WRONG)
