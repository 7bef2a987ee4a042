"""GeoDouble's bots, registered once. One bot, ``player``: a race speed, a Play the Ranks bot
for the tricks and a declaration policy, all in its spec."""

from __future__ import annotations

from geolab.bots.geodouble.declare import POLICIES
from geolab.bots.geodouble.player import Player, PlayerSeat
from geolab.bots.ranks.registry import BOTS as RANKS_BOTS
from geolab.definition import Players
from geolab.game import Bots, param_range
from geolab.games.race import RaceModel


def player(rules, speed: float = 1.0, error: float | None = None, race: str = "human", tricks: str = "greedy",
           declare: str = "score", threshold: float = 0.5, samples: int = 32, level: str | None = None) -> Player:
    """speed: search-speed multiplier (2: twice as fast); error: chance a claim is wrong (default:
    the race model's); race: human or perfect (no spread, no errors, no motor time); tricks: a
    Play the Ranks bot spec (in brackets when it has parameters); declare: the declaration
    policy; threshold: its win-chance threshold; samples: its Monte Carlo deals; level: an
    opponent level, beginner, club or expert (a named speed, docs/race.md), which multiplies
    speed."""
    param_range("speed", speed, 0, 100, low_open=True)
    param_range("error", error, 0, 1, none_ok=True)
    param_range("threshold", threshold, 0, 1)
    param_range("samples", samples, 1, 10_000)
    if declare not in POLICIES:
        raise ValueError(f"declare must be one of {', '.join(POLICIES)}, got {declare!r}")
    if tricks.split(":")[0] not in RANKS_BOTS:
        raise ValueError(f"tricks must be a Play the Ranks bot ({', '.join(RANKS_BOTS.names())}), got {tricks!r}")
    if RANKS_BOTS.info(tricks.split(":")[0]).peeks:
        raise ValueError(f"tricks: {tricks!r} peeks at hidden cards; a GeoDouble player plays fair")
    trick_bot = RANKS_BOTS.make(tricks, rules.stage)
    declarer = POLICIES[declare][0](rules, trick_bot, threshold, samples)
    return Player(RaceModel.named(race, speed, error, level), trick_bot, declarer, declare)


BOTS = Bots("geodouble")
BOTS.add("player", player, "races at its speed, plays the tricks as a Play the Ranks bot, declares by a policy ("
         + "; ".join(f"{k}: {v[1]}" for k, v in POLICIES.items()) + ")",
         example="player:tricks=random,declare=always")

#: `geolab simulate geodouble` and `geolab arena geodouble` line-ups by default.
SIMULATE = "player,player:declare=never"
ARENA = ("player:declare=never,player:declare=always,player:declare=threshold,player,"
         "player:declare=montecarlo,samples=16")


def seat(bot, rules, rng) -> PlayerSeat:
    """A built player at the reference engine: its race on its own hand, its stage on its own
    View and the score."""
    return PlayerSeat(bot, rules, rng)


HINT = "player"
PLAYERS = Players(BOTS, SIMULATE, ARENA, HINT, seat)
