"""State IQ on the game interface (`geolab.game.Game`): the adapter the registry holds.

Seat 0 is team A, seat 1 team B. The reference engine (`reference`), the batch engine
(`batch`), action indices and observations (`observations`), records (`records`) and the
keyboard's words (`views`) are each a module of this package; this class only puts them
behind the one contract.
"""

from __future__ import annotations

from geolab.game import Packaged
from geolab.games.stateiq import batch as engine
from geolab.games.stateiq import observations, records
from geolab.games.stateiq.reference import Engine
from geolab.games.stateiq.rules import Rules
from geolab.games.stateiq.views import VIEWS


class StateIQGame(Engine, Packaged):
    title = "State IQ"
    record_game = records.GAME
    Rules = Rules
    length_unit = "guesses"
    first_means = "first guessing team"

    # ----- the batch engine, action indices, observations and records: their modules' (`Packaged`)
    batch_engine = engine
    observations = observations
    records = records

    # ----- at the keyboard ---------------------------------------------------------------
    views = VIEWS


GAME = StateIQGame()
