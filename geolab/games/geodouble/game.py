"""GeoDouble on the game interface (`geolab.game.Game`): the adapter the registry holds.

Seat 0 is player A, seat 1 player B. The reference engine (`reference`: the match as steps,
holding Play the Ranks' own steps for stage 2), the batch engine (`batch`), action indices and
observations (`observations`), records (`records`) and the keyboard's words (`views`) are each
a module of this package; this class only puts them behind the one contract.
"""

from __future__ import annotations

from geolab.game import Packaged
from geolab.games.geodouble import batch as engine
from geolab.games.geodouble import observations, records
from geolab.games.geodouble.reference import Engine, Played
from geolab.games.geodouble.rules import Rules
from geolab.games.geodouble.views import VIEWS


class GeoDoubleGame(Engine, Packaged):
    title = "GeoDouble"
    record_game = records.GAME
    Rules = Rules
    length_unit = "rounds"
    first_means = "first race winner"

    # ----- the batch engine, action indices, observations and records: their modules' (`Packaged`)
    batch_engine = engine
    observations = observations
    records = records

    # ----- at the keyboard ---------------------------------------------------------------
    views = VIEWS

    def deal_points(self, played: Played) -> tuple[int, int]:
        return played.score


GAME = GeoDoubleGame()
