"""Border-Up's bots, registered once. One bot, ``racer``: a race model in its spec."""

from __future__ import annotations

from geolab.bots.borderup.racer import Racer, RacerSeat
from geolab.definition import Players
from geolab.game import Bots, param_range
from geolab.games.race import RaceModel


def racer(rules, speed: float = 1.0, error: float | None = None, race: str = "human",
          level: str | None = None) -> Racer:
    """speed: search-speed multiplier (2: twice as fast); error: chance a claim is wrong (default:
    the race model's, 0.03; none for the perfect model); race: human (the race model's defaults,
    docs/race.md) or perfect (no spread, no errors, no motor time: the cards alone decide);
    level: an opponent level, beginner, club or expert (a named speed, docs/race.md), which
    multiplies speed."""
    param_range("speed", speed, 0, 100, low_open=True)
    param_range("error", error, 0, 1, none_ok=True)
    return Racer(RaceModel.named(race, speed, error, level))


BOTS = Bots("border-up")
BOTS.add("racer", racer, "finds two border groups at its race model's speed and claims them (docs/race.md)",
         family="model", example="racer:level=beginner")

#: `geolab simulate border-up` and `geolab arena border-up` line-ups by default.
SIMULATE = "racer,racer:speed=1.5"
ARENA = "racer:speed=0.75,racer,racer:speed=1.5,racer:error=0.15,racer:race=perfect"


def seat(bot, rules, rng) -> RacerSeat:
    """A built racer at the reference engine: its claim on its own hand."""
    return RacerSeat(bot, rules, rng)


HINT = "racer"
PLAYERS = Players(BOTS, SIMULATE, ARENA, HINT, seat)
