"""Dashing States (Combo 1, game 3): a race to sort four Map cards and name them."""

from geolab.definition import GameDef

DEFINITION = GameDef(
    name="dashing-states",
    title="Dashing States",
    about=("Each team is dealt five Map cards, each showing one state's outline; the first to lay four of them "
           "in alphabetical order of their states and name them with their capitals wins. Two players (or "
           "teams); a race of a minute or less."),
    game="geolab.games.dashing.game:GAME",
    players="geolab.bots.dashing.registry:PLAYERS",
    decisions={"race": "act"},
    optional={"determinize"},
    features={"races"},
    offers={"bench": "geolab.games.dashing.offers.bench:bench"},
)
