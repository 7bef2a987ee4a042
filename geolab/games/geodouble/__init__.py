"""GeoDouble: a race for borders and capitals, then Play the Ranks, round after round to 50."""

from geolab.definition import GameDef

DEFINITION = GameDef(
    name="geodouble",
    title="GeoDouble",
    game="geolab.games.geodouble.game:GAME",
    players="geolab.bots.geodouble.registry:PLAYERS",
    decisions={"race": ("race", "give_up"), "stage": "stage_policy"},
    optional={"determinize"},
    features={"races", "stages"},
    offers={"bench": "geolab.games.geodouble.offers.bench:bench"},
)
