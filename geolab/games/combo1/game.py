"""A Combo 1 match on the game interface (`geolab.game.Game`): the adapter the registry holds.

Seat 0 is team A, seat 1 team B. The reference engine (`reference`: the match as steps, holding
the four games' own steps), the batch engine (`batch`), action indices and observations
(`observations`), records (`records`) and the keyboard's words (`views`) are each a module of
this package; this class only puts them behind the one contract.
"""

from __future__ import annotations

from geolab.game import Packaged
from geolab.games.combo1 import observations, records, reference
from geolab.games.combo1.reference import Engine, Played
from geolab.games.combo1.rules import Rules
from geolab.games.combo1.views import VIEWS, told


def _engine():
    """The batch engine, imported on first use (it compiles its kernels; the reference engine,
    records and play need none of it)."""
    from geolab.games.combo1 import batch

    return batch


class Combo1Game(Engine, Packaged):
    title = "Combo 1 match"
    record_game = records.GAME
    Rules = Rules
    length_unit = "games"
    first_means = "first to choose (the afternoon), else the first State IQ's first guesser (A where none)"

    # ----- the batch engine (imported on first use), action indices, observations and records:
    # their modules' (`Packaged`)
    observations = observations
    records = records

    @property
    def batch_engine(self):
        return _engine()

    def to_record(self, played: Played, seed: int | None = None, players=None) -> dict:
        return records.to_record(played, seed, players)

    # ----- at the keyboard ---------------------------------------------------------------
    views = VIEWS

    def steps(self, rules: Rules, deal):
        """The reference engine's steps, each finished game told to each seat by its own views
        (`MatchView.told`): the words a person reads at the next game's table."""
        return reference.steps(rules, deal, tell=told)

    def deal_points(self, played: Played) -> tuple[int, int]:
        return played.wins


GAME = Combo1Game()
