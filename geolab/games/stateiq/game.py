"""State IQ on the game interface (`geolab.game.Game`): the adapter the registry holds.

Seat 0 is team A, seat 1 team B. The reference engine (`reference`), the batch engine
(`batch`), action indices and observations (`observations`), records (`records`) and the
keyboard's words (`views`) are each a module of this package; this class only puts them
behind the one contract.
"""

from __future__ import annotations

import numpy as np

from geolab.game import Decision, replayed
from geolab.games.stateiq import batch as engine
from geolab.games.stateiq import observations, records
from geolab.games.stateiq.reference import Engine, Played, View
from geolab.games.stateiq.rules import Rules
from geolab.games.stateiq.views import VIEWS


class StateIQGame(Engine):
    title = "State IQ"
    record_game = records.GAME
    Rules = Rules
    length_unit = "guesses"
    first_means = "first guessing team"

    # ----- batch engine ------------------------------------------------------------------
    block = engine.BLOCK

    def batch(self, rules, bots, n, seed, *, start=0, stream=0, chunk=None, threads=None):
        return engine.batch(rules, bots, n, seed, start=start, stream=stream, chunk=chunk, threads=threads)

    def batch_records(self, rules, bots, n, seed) -> list[dict]:
        return engine.batch_records(rules, bots, n, seed)

    # ----- the step-wise state: action indices and observations ----------------------------
    def num_actions(self, rules: Rules) -> int:
        return observations.num_actions(rules)

    def action_id(self, rules: Rules, decision: Decision, action) -> int:
        return observations.action_id(rules, decision, action)

    def action_of(self, rules: Rules, decision: Decision, index: int):
        return observations.action_of(rules, decision, index)

    def observation_string(self, rules: Rules, seat: int, observation: View) -> str:
        return observations.observation_string(rules, seat, observation)

    def observation_tensor(self, rules: Rules, seat: int, observation: View) -> np.ndarray:
        return observations.observation_tensor(rules, seat, observation)

    def tensor_size(self, rules: Rules) -> int:
        return observations.tensor_size(rules)

    # ----- records -------------------------------------------------------------------------
    def to_record(self, played: Played) -> dict:
        return records.to_record(played)

    def replay(self, record) -> Played:
        return replayed(record, records.GAME, records.replay_game, records.report, records.BODY_KEYS)

    def report(self, played: Played) -> dict:
        return records.report(played)

    # ----- at the keyboard ---------------------------------------------------------------
    views = VIEWS

    def series_target(self, rules: Rules) -> int | None:
        """One game is the whole match (a Combo 1 game is scored win, loss or tie)."""
        return None

    def deal_points(self, played: Played) -> tuple[int, int]:
        return tuple(int(s == 1) for s in played.scores())


GAME = StateIQGame()
