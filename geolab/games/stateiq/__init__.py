"""State IQ (Combo 1, game 2): each team guesses the state the other holds from the clues of a Power card."""

from geolab.definition import GameDef

DEFINITION = GameDef(
    name="state-iq",
    title="State IQ",
    about=("Each team holds one state and has up to three guesses at the other's, a clue before each: a letter "
           "of its postal code, one of its border states, or a letter of its capital. Two players (or teams); a "
           "few minutes."),
    game="geolab.games.stateiq.game:GAME",
    players="geolab.bots.stateiq.registry:PLAYERS",
    decisions=("clue", "guess"),
    optional={"determinize"},
    features=frozenset(),
    offers={"bench": "geolab.games.stateiq.offers.bench:bench"},
)
