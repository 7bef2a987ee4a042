"""Border-Up on the game interface (`geolab.game.Game`): the adapter the registry holds.

Seat 0 is team A, seat 1 team B. The reference engine (`reference`: one game as steps, which a
tournament may play as a stage), the batch engine (`batch`), action indices and observations
(`observations`), records (`records`) and the keyboard's words (`views`) are each a module of
this package; this class only puts them behind the one contract.
"""

from __future__ import annotations

from geolab.game import Packaged
from geolab.games.borderup import batch as engine
from geolab.games.borderup import observations, records
from geolab.games.borderup.reference import Engine
from geolab.games.borderup.rules import Rules
from geolab.games.borderup.views import VIEWS


class BorderUpGame(Engine, Packaged):
    title = "Border-Up"
    record_game = records.GAME
    Rules = Rules
    length_unit = "deals"
    first_means = "first to claim (A when both claim at the same second or neither does)"

    # ----- the batch engine, action indices, observations and records: their modules' (`Packaged`)
    batch_engine = engine
    observations = observations
    records = records

    # ----- at the keyboard ---------------------------------------------------------------
    views = VIEWS


GAME = BorderUpGame()
