"""Class GeoPower Double Choice: a class in groups, three cards dealt to each student, one
discarded, one hidden category; group winners meet in a championship. `rules` holds the
`Rules` and presets, `reference` the scoring and the reference engine (the specification),
`observations` what a student sees, `records` game records, `hands` the three-card hand
tables, `batch` the numba batch engine, `numpy_engine` the same games in plain numpy, and
`game` the game on geolab's game interface (`GAME`, registered as ``class``).
"""

from geolab.definition import GameDef

DEFINITION = GameDef(
    name="class",
    title="Class GeoPower Double Choice",
    about=("Every student is dealt three cards, discards one, and the lowest (Top Dog) or highest (Bottoms Up) "
           "sum of the two kept cards in the turned category wins the group; group winners play a Championship. "
           "A whole class of 10 to 32 students, one seat yours and bots in the others; a few minutes."),
    game="geolab.games.classroom.game:GAME",
    players="geolab.bots.classroom.registry:PLAYERS",
    decisions={"discard": "discard_table"},  # the whole policy as a lookup table
    optional={"chance_outcomes"},
    features=frozenset(),
    offers={"bench": "geolab.games.classroom.offers.arena:offered",
            "equilibrium": "geolab.games.classroom.offers.command:add",
            "command": "geolab.games.classroom.offers.class_round:add"},
)
