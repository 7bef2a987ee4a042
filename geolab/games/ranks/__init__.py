"""Play the Ranks: the two-side trick-taking core behind Combo 1, the State Ranking Battles
(Levels 1-3) and GeoDouble's second stage; each trick, the card closer to the trick's base in
the named category wins. `rules` holds the `Rules` and presets, `reference` the facts of a
trick, the dealing and the plain-Python reference engine (the specification), `batch` the
batch engine with its observations and the Seat bridge, `records` game records.
"""

from geolab.definition import GameDef

DEFINITION = GameDef(
    name="ranks",
    title="Play the Ranks",
    about=("A trick-taking game: each trick the leader names a category and a base, and the card whose rank in "
           "that category is closer to the base wins. Two players; first to five of the eight tricks, a few "
           "minutes."),
    game="geolab.games.ranks.game:GAME",
    players="geolab.bots.ranks.registry:PLAYERS",
    decisions=("discard", "declare", "lead", "follow"),  # each answered by act(obs, rng), obs.kind
    optional={"determinize", "seat_policy", "rollouts", "exchange"},
    features={"series"},
    offers={"bench": "geolab.games.ranks.offers.bench:offered",
            "solve": "geolab.games.ranks.offers.solve:solve",
            "train": "geolab.games.ranks.offers.train:add",
            "command": "geolab.games.ranks.offers.command:add"},
)
