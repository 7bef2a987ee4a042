"""People for the play tests: a person who plays at random without a screen."""

from __future__ import annotations

from geolab.lab.play import Person
from geolab.stepwise import RandomSeat


class RandomPerson(Person):
    """A person who plays a random legal move at once (no screen, no input)."""

    def __init__(self, views, rng):
        super().__init__(views, io=None)
        self.rng = rng

    def act(self, decision):
        return RandomSeat(self.rng).act(decision)

    def catch_up(self, lines) -> None:
        pass
