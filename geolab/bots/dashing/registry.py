"""Dashing States' bots, registered once. One bot, ``team``: its knowledge of maps and
capitals and its speed (`geolab.bots.dashing.model`), all in its spec; ``race=perfect`` is the
perfect team."""

from __future__ import annotations

import numpy as np

from geolab.bots.dashing.model import Knowledge, Team
from geolab.definition import Players
from geolab.game import Bots, Decision, param_range
from geolab.games.dashing.batch import Hands
from geolab.games.dashing.reference import Row, Said
from geolab.games.race import RaceModel
from geolab.stepwise import Claim

#: What ``race=perfect`` sets, beside `RaceModel.named("perfect")`: every map and capital known,
#: no shout with a card face-up.
PERFECT = {"recognise": 1.0, "capital": 1.0, "face_up": 0.0}


def team(rules, race: str = "human", speed: float = 1.0, error: float | None = None,
         recognise: float | None = None, size: float = 1.0, capital: float | None = None, fame: float = 0.5,
         confuse: float = 0.3, misname: float = 0.3, face_up: float | None = None, slow: float = 0.5,
         sort: float = 2.0, base: float | None = None, per_card: float | None = None,
         spread: float | None = None) -> Team:
    """race: human, perfect (every map and capital known, no slips, no motor time, no spread), or
    an opponent level, beginner, club or expert (the human model at a named speed, docs/race.md);
    speed: card-checks faster by this factor; error: chance of a sorting slip; recognise: chance
    of recognising a median-sized state's map; size: log-odds lost per standard deviation
    smaller; capital: chance of knowing a median-population state's capital; fame: log-odds lost
    per standard deviation less populous; confuse: chance an unrecognised map is taken for a
    neighbour; misname: chance an unknown capital is taken for another; face_up: chance of
    shouting before turning the unused card face-down; slow: how much longer a smaller state's
    card takes; sort: the sorting's cost in card-checks; base, per_card, spread: the race
    model's seconds. Left out, a parameter takes the value of the race named
    (docs/rules-dashing.md, "Bots")."""
    param_range("speed", speed, 0, 100, low_open=True)
    param_range("error", error, 0, 1, none_ok=True)
    model = RaceModel.named(race, speed, error)
    timing = {k: v for k, v in {"base": base, "per_card": per_card, "spread": spread}.items() if v is not None}
    if timing:
        model = RaceModel(**{**model.__dict__, **timing})
    preset = PERFECT if race == "perfect" else {}
    chosen = {"recognise": recognise, "capital": capital, "face_up": face_up}
    filled = {k: v if v is not None else preset.get(k, getattr(Knowledge, k)) for k, v in chosen.items()}
    knowledge = Knowledge(size=size, fame=fame, confuse=confuse, misname=misname, slow=slow, sort=sort, **filled)
    return Team(rules, knowledge, model)


BOTS = Bots("dashing-states")
BOTS.add("team", team, "recognises maps and knows capitals by a knowledge model, races at its speed "
         "(race=perfect: knows everything, its cards' difficulty alone sets its time)", example="team:speed=1.5")

#: `geolab simulate dashing-states` and `geolab arena dashing-states` line-ups by default.
SIMULATE = "team,team:speed=1.5"
ARENA = "team,team:speed=1.5,team:recognise=0.75,team:capital=0.6,team:race=perfect"


class TeamSeat:
    """A team at the reference engine (`geolab.game.Seat`): its claim drawn by its model on
    its own cards, then its announcement from the beliefs that made the claim (beliefs drawn
    afresh where it never made that claim here: a resumed session, a hint)."""

    def __init__(self, bot: Team, rules, rng: np.random.Generator):
        self.bot, self.rules, self.rng = bot, rules, rng
        self.name = bot.name or "team"
        self.claimed: dict = {}  # hand -> (row order, states said by place, capitals said by place)
        self.believed: dict = {}  # hand -> (states by position, capitals by position)

    def act(self, decision: Decision):
        view = decision.observation
        hand = tuple(view.hand)
        if decision.timed:
            c = self.bot.act(Hands(np.array([hand])), self.rng)
            order = tuple(int(p) for p in c.order[0])
            self.claimed[hand] = (order, c.states[0].tolist(), c.capitals[0].tolist())
            return Claim(Row(order, bool(c.face_down[0])) if c.claimed[0] else None, float(c.seconds[0]))
        row, place = view.own.action, view.place
        if hand in self.claimed and self.claimed[hand][0] == row.order:
            state, capital = self.claimed[hand][1][place], self.claimed[hand][2][place]
        else:
            if hand not in self.believed:
                b = self.bot.beliefs(self.rng, np.array([hand]))
                self.believed[hand] = (b.states[0].tolist(), b.capitals[0].tolist())
            states, capitals = self.believed[hand]
            state, capital = states[row.order[place]], capitals[row.order[place]]
        if self.rules.announce != "capitals":
            capital = -1
        return Said(None if state < 0 else int(state), None if capital < 0 else int(capital))


def seat(bot, rules, rng) -> TeamSeat:
    """A built team at the reference engine, shown only its own view."""
    return TeamSeat(bot, rules, rng)


HINT = "team"
PLAYERS = Players(BOTS, SIMULATE, ARENA, HINT, seat)
