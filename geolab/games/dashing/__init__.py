"""Dashing States (Combo 1, game 3): a race to sort four Map cards and name them."""

from geolab.definition import GameDef

DEFINITION = GameDef(
    name="dashing-states",
    title="Dashing States",
    game="geolab.games.dashing.game:GAME",
    players="geolab.bots.dashing.registry:PLAYERS",
    decisions={"race": "act"},
    optional={"determinize"},
    features={"races"},
    offers={"bench": "geolab.games.dashing.offers.bench:bench"},
)
