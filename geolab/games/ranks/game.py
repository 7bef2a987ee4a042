"""Play the Ranks on the game interface (`geolab.game.Game`): the adapter the registry holds.

Seat 0 is side A, seat 1 side B. The reference engine (`reference.Engine`: `steps`, chance,
`resample`, played by the one driver) asks four kinds of `Decision` whose observation is the
engine's `View` and whose legal actions are every discard set, both answers, every (card,
category, base) lead, every card; `observations` numbers them and turns views into text and
tensors.
"""

from __future__ import annotations

import numpy as np

from geolab.common.seeding import int_seed
from geolab.game import Batch, Packaged
from geolab.games.ranks import batch as engine
from geolab.games.ranks import observations, records
from geolab.games.ranks.reference import ByDecision, Engine, Game, exchange
from geolab.games.ranks.rules import Rules
from geolab.games.ranks.views import VIEWS


class RanksGame(Engine, Packaged):
    title = "Play the Ranks"
    record_game = records.GAME
    Rules = Rules
    length_unit = "tricks"
    first_means = "first lead"

    # ----- batch engine ------------------------------------------------------------------
    block = engine.BLOCK

    def _played(self, rules, bots, n, seed, start=0, stream=0, chunk=None, threads=None) -> engine.Played:
        return engine.Played.concatenate(list(engine.run(rules, bots, n, int_seed(seed), chunk=chunk or engine.CHUNK,
                                                         threads=threads, stream=stream, start=start)))

    def batch(self, rules, bots, n, seed, *, start=0, stream=0, chunk=None, threads=None) -> Batch:
        p = self._played(rules, bots, n, seed, start, stream, chunk, threads)
        scores = np.where(p.winner[:, None] < 0, 0.5, (p.winner[:, None] == np.arange(2)).astype(float))
        columns = {"tricks_A": p.tricks_won[:, 0], "tricks_B": p.tricks_won[:, 1],
                   "points_A": p.points[:, 0], "points_B": p.points[:, 1]}
        if p.declarations is not None:
            columns |= {"declared_A": p.declarations[:, 0], "declared_B": p.declarations[:, 1]}
        return Batch(scores, p.n_tricks.astype(np.int64), p.first_lead.astype(np.int64), columns)

    def batch_records(self, rules, bots, n, seed) -> list[dict]:
        p = self._played(rules, bots, n, seed)
        return [records.to_record(p.game(i)) for i in range(n)]

    def seat_policy(self, seat, name: str | None = None) -> engine.SeatPolicy:
        """A reference-engine seat (``act(decision)``, a `geolab.game.Seat`) as a policy of
        the batch engine: each row's View asked as the Decision the reference engine would
        ask (`reference.ByDecision`), one row at a time (`batch.SeatPolicy`)."""
        return engine.SeatPolicy(ByDecision(seat), name)

    def rollouts(self, rules, states, actions, seat, bots, rng, finish=True) -> tuple[np.ndarray, np.ndarray]:
        """Reference states played out on the batch engine, many at once (`batch.rollouts`)."""
        return engine.rollouts(rules, states, actions, seat, bots, rng, finish)

    def exchange(self, rules, deal, log, seat, rng):
        """One unseen card of the opponent's traded, symmetrically (`reference.exchange`)."""
        return exchange(rules, deal, log, seat, rng)

    # ----- action indices, observations and records: their modules' (`Packaged`) ---------
    observations = observations
    records = records

    # ----- at the keyboard ---------------------------------------------------------------
    views = VIEWS

    def series_target(self, rules: Rules) -> int | None:
        """A battle series runs to `target_points` (10 or 15); Combo 1 and GeoDouble's stage
        are one deal of a bigger game."""
        return rules.target_points

    def deal_points(self, played: Game) -> tuple[int, int]:
        return played.points

    def bonus_free_points(self, rules: Rules) -> int | None:
        """A win's points at the first level, where the rules pay a bonus for declaring or a shutout."""
        return None if rules.bonus == "none" else int(rules.win_points[0])


GAME = RanksGame()
