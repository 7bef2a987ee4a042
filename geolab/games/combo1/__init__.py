"""Combo 1: a match of Border-Up, State IQ, Dashing States and Play the Ranks, and the tournament."""

from geolab.definition import GameDef

DEFINITION = GameDef(
    name="combo1",
    title="Combo 1 match",
    about=("The Combo 1 tournament match: Border-Up, State IQ, Dashing States and Play the Ranks in turn, the "
           "winner of each game choosing what comes next. Two teams; about half an hour at a real table."),
    game="geolab.games.combo1.game:GAME",
    players="geolab.bots.combo1.registry:PLAYERS",
    decisions={"stage": "stage", "choose": "choose"},
    optional={"chance_outcomes", "determinize"},
    features={"races", "stages"},
    offers={"bench": "geolab.games.combo1.offers.bench:bench",
            "command": "geolab.games.combo1.offers.command:add"},
)
