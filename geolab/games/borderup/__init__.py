"""Border-Up (Combo 1, game 1): a race to find two disjoint border groups in 18 cards."""

from geolab.definition import GameDef

DEFINITION = GameDef(
    name="border-up",
    title="Border-Up",
    about=("Each team races to find, among its own 18 cards, two groups of three states that border each other, "
           "sharing no card. Two players (or teams); one race of a minute or two."),
    game="geolab.games.borderup.game:GAME",
    players="geolab.bots.borderup.registry:PLAYERS",
    decisions={"race": ("race", "give_up")},
    optional={"determinize"},
    features={"races"},
    offers={"bench": "geolab.games.borderup.offers.bench:bench"},
)
