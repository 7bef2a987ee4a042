"""Dashing States on the game interface (`geolab.game.Game`): the adapter the registry holds.

Seat 0 is team A, seat 1 team B. The reference engine (`reference`), the batch engine
(`batch`), action indices and observations (`observations`), records (`records`) and the
keyboard's words (`views`) are each a module of this package; this class only puts them
behind the one contract.
"""

from __future__ import annotations

from geolab.game import Packaged
from geolab.games.dashing import batch as engine
from geolab.games.dashing import observations, records
from geolab.games.dashing.reference import Engine
from geolab.games.dashing.rules import Rules
from geolab.games.dashing.views import VIEWS


class DashingStatesGame(Engine, Packaged):
    title = "Dashing States"
    record_game = records.GAME
    Rules = Rules
    length_unit = "seconds"
    first_means = "first to shout (A when at the same time or when nobody shouts)"

    # ----- the batch engine, action indices, observations and records: their modules' (`Packaged`)
    batch_engine = engine
    observations = observations
    records = records

    # ----- at the keyboard ---------------------------------------------------------------
    views = VIEWS


GAME = DashingStatesGame()
