"""GeoDouble: a race for borders and capitals, then Play the Ranks, round after round to 50."""

from geolab.definition import GameDef

DEFINITION = GameDef(
    name="geodouble",
    title="GeoDouble",
    about=("Each round opens with a race for a border group and a capital, then a deal of Play the Ranks; rounds"
           " go on until one side reaches 50 points. Two players; several rounds, a quarter of an hour or more."),
    game="geolab.games.geodouble.game:GAME",
    players="geolab.bots.geodouble.registry:PLAYERS",
    decisions={"race": ("race", "give_up"), "stage": "stage_policy"},
    optional={"determinize"},
    features={"races", "stages"},
    offers={"bench": "geolab.games.geodouble.offers.bench:bench"},
)
