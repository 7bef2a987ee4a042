"""Jumbled GeoPower Choice: each round the dealer calls Top Dog or Bottoms Up, every player is
dealt 6 cards and lays 1 or 2 face down on each of 3 sets, and a GeoPower card names the
category that ranks them. `rules` holds the vocabulary and `Rules`, `reference` the shared
small rulings, the reference engine and its deals and views, `batch` the compiled batch engine
and the drivers that play it with policies, `observations` what a seat may see, `records` game
records, and `game` the adapter onto the game interface (`GAME`, which the registry holds).
"""

from geolab.definition import GameDef

DEFINITION = GameDef(
    name="jumbled",
    title="Jumbled GeoPower Choice",
    about=("Each round the dealer calls Top Dog or Bottoms Up, everyone lays five of six cards face down on "
           "three sets, and a turned GeoPower card names the category that ranks each set. Two to eight players "
           "(four by default), round after round to 50 points."),
    game="geolab.games.jumbled.game:GAME",
    players="geolab.bots.jumbled.registry:PLAYERS",
    decisions={"choose": "act", "call": "call"},
    optional={"determinize", "exchange"},
    features=frozenset(),
    offers={"bench": "geolab.games.jumbled.offers.study:offered"},
)
