"""`geolab bench border-up`: games a second on the batch engine beside the reference engine."""

from __future__ import annotations

from geolab import registry
from geolab.bots.borderup.racer import RacerSeat
from geolab.games.borderup import reference as race_reference
from geolab.lab.benches import race_game


def bench(rules, games, runs, seed, threads) -> dict:
    """Border-Up games a second on the batch engine, ``racer`` v ``racer:speed=1.5``, beside the
    reference engine with the same bots at its seats (`RacerSeat`)."""
    return race_game(registry.get("border-up"), rules, ("racer", "racer:speed=1.5"), RacerSeat, race_reference,
                     games or 1 << 21, runs, seed, threads)
