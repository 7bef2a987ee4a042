"""Combo 1's bots, registered once. One bot, ``team``: a bot for each of the four games and an
afternoon choice policy, all in its spec; three numbers (race speed, trivia knowledge, the
Play the Ranks bot) are the coach's knobs, and any game's bot may be given whole."""

from __future__ import annotations

import numpy as np

from geolab.bots.borderup import registry as border_up_bots
from geolab.bots.combo1.team import Team, TeamSeat
from geolab.bots.dashing import registry as dashing_bots
from geolab.bots.ranks import registry as ranks_bots
from geolab.bots.stateiq import registry as state_iq_bots
from geolab.definition import Judgement, Players
from geolab.game import INT63_MAX, Bots, param_range
from geolab.games.combo1.rules import GAMES, TITLES
from geolab.games.race import level_speed

#: The afternoon preference a team has unless told: its longest game first (the most tricks to
#: win), then the races, then State IQ.
PREFER = "ranks/border-up/dashing-states/state-iq"
#: Each game's bot registry (its BOTS and its SEAT), in `GAMES` order.
GAME_BOTS = (border_up_bots, state_iq_bots, dashing_bots, ranks_bots)


def _prefer(text: str) -> tuple[int, ...] | None:
    if text == "random":
        return None
    names = [n.strip() for n in text.split("/") if n.strip()]
    unknown = [n for n in names if n not in GAMES]
    if unknown or len(set(names)) != len(names) or not names:
        raise ValueError(f"prefer must be games separated by / ({', '.join(GAMES)}), each once, or random; "
                         f"got {text!r}")
    return tuple(GAMES.index(n) for n in names) + tuple(g for g in range(len(GAMES)) if GAMES[g] not in names)


def team(rules, speed: float = 1.0, knowledge: float = 0.9, tricks: str = "greedy", prefer: str = PREFER,
         seed: int = 0, border_up: str | None = None, state_iq: str | None = None,
         dashing: str | None = None, level: str | None = None) -> Team:
    """speed: race speed at Border-Up and Dashing States (2: twice as fast); knowledge: the share
    of borders, capitals and postal codes it knows at State IQ (drawn from seed), and its chance
    of recognising a map and knowing a capital at Dashing States; tricks: a Play the Ranks bot
    spec (in brackets when it has parameters); prefer: its afternoon games by preference (games
    separated by /; the rest follow in the text's order) or random; border_up, state_iq,
    dashing: that game's bot spec whole, instead of the one speed and knowledge make; level: an
    opponent level, beginner, club or expert (a named speed, docs/race.md), which multiplies
    speed at both races."""
    param_range("speed", speed, 0, 100, low_open=True)
    param_range("knowledge", knowledge, 0, 1)
    param_range("seed", seed, 0, INT63_MAX)
    level_speed(level)  # an unknown level: one line naming the levels
    order = _prefer(prefer)
    paced = f"speed={speed}" + (f",race={level}" if level is not None else "")
    made = {
        "border-up": border_up or f"racer:{paced}",
        "state-iq": state_iq or f"player:borders={knowledge},capitals={knowledge},postal={knowledge},seed={seed}",
        "dashing-states": dashing or f"team:{paced},recognise={knowledge},capital={knowledge}",
        "ranks": tricks,
    }
    bots = []
    for g, name in enumerate(GAMES):
        known, spec = GAME_BOTS[g].BOTS, made[name]
        head = spec.split(":")[0]
        if head not in known:
            raise ValueError(f"{'tricks' if name == 'ranks' else name.replace('-', '_')}: {spec!r} is not a "
                             f"{TITLES[g]} bot ({', '.join(known.names())})")
        if known.info(head).peeks:
            raise ValueError(f"{spec!r} peeks at hidden cards; a Combo 1 team plays fair")
        bots.append(known.make(spec, rules.stage(g)))
    return Team(tuple(bots), order)


BOTS = Bots("combo1")
BOTS.add("team", team, "plays each game by that game's bot (its race speed, trivia knowledge and Play the Ranks "
                       "bot in one spec) and picks its afternoon games by a preference",
         family="model", example="team:speed=1.5,knowledge=0.6,tricks=random,prefer=border-up")

#: `geolab simulate combo1` and `geolab arena combo1` line-ups by default.
SIMULATE = "team,team:speed=1.5"
ARENA = "team,team:speed=1.5,team:knowledge=0.5,team:tricks=random,team:prefer=random"


def seat(bot: Team, rules, rng: np.random.Generator) -> TeamSeat:
    """A built team at the reference engine: each game's decisions by that game's own seat."""
    seats = tuple(GAME_BOTS[g].PLAYERS.seat(b, rules.stage(g), rng) for g, b in enumerate(bot.games))
    return TeamSeat(bot, rules, rng, seats)


def judge(played) -> list[Judgement]:
    """Each game's own judge, game by game (`geolab.definition.Players.judge`): the values of
    the moves of every game of the match whose game has one (Play the Ranks' oracle)."""
    out = []
    for g in played.games:
        inner = GAME_BOTS[g.game].PLAYERS.judge
        if inner is not None:
            out += inner(g.played)
    return out


HINT = "team"
PLAYERS = Players(BOTS, SIMULATE, ARENA, HINT, seat, judge=judge)
