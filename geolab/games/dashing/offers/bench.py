"""`geolab bench dashing-states`: games a second on the batch engine beside the reference engine."""

from __future__ import annotations

from geolab import registry
from geolab.bots.dashing.registry import TeamSeat
from geolab.games.dashing import reference as dashing_reference
from geolab.lab.benches import race_game


def bench(rules, games, runs, seed, threads) -> dict:
    """Dashing States games a second on the batch engine, ``team`` v ``team:speed=1.5`` (the
    simulate line-up), beside the reference engine with the same bots seated (`TeamSeat`)."""
    return race_game(registry.get("dashing-states"), rules, ("team", "team:speed=1.5"), TeamSeat, dashing_reference,
                     games or 1 << 20, runs, seed, threads)
