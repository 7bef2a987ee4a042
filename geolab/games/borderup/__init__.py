"""Border-Up (Combo 1, game 1): a race to find two disjoint border groups in 18 cards."""

from geolab.definition import GameDef

DEFINITION = GameDef(
    name="border-up",
    title="Border-Up",
    game="geolab.games.borderup.game:GAME",
    players="geolab.bots.borderup.registry:PLAYERS",
    decisions={"race": ("race", "give_up")},
    optional={"determinize"},
    features={"races"},
    offers={"bench": "geolab.games.borderup.offers.bench:bench"},
)
