"""Dashing States on the game interface (`geolab.game.Game`): the adapter the registry holds.

Seat 0 is team A, seat 1 team B. The reference engine (`reference`), the batch engine
(`batch`), action indices and observations (`observations`), records (`records`) and the
keyboard's words (`views`) are each a module of this package; this class only puts them
behind the one contract.
"""

from __future__ import annotations

import numpy as np

from geolab.game import Decision, replayed
from geolab.games.dashing import batch as engine
from geolab.games.dashing import observations, records
from geolab.games.dashing.reference import Engine, Played, View
from geolab.games.dashing.rules import Rules
from geolab.games.dashing.views import VIEWS


class DashingStatesGame(Engine):
    title = "Dashing States"
    record_game = records.GAME
    Rules = Rules
    length_unit = "seconds"
    first_means = "first to shout (A when at the same time or when nobody shouts)"

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
        """One game is the whole match (Combo 1 scores each game win / loss / tie)."""
        return None

    def deal_points(self, played: Played) -> tuple[int, int]:
        w = played.winner
        return (0, 0) if w is None else ((1, 0) if w == 0 else (0, 1))


GAME = DashingStatesGame()
