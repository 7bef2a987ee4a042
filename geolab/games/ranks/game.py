"""Play the Ranks on the game interface (`geolab.game.Game`): the adapter the registry holds.

Seat 0 is side A, seat 1 side B. The reference engine's four decisions (discard, declare,
lead, follow) become `Decision` s whose observation is the engine's `View` and whose legal
actions are every discard set, both answers, every (card, category, base) lead, every card.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

from geolab.common.seeding import int_seed
from geolab.errors import IllegalActionError
from geolab.game import Batch, Decision, replayed
from geolab.games.ranks import batch as engine
from geolab.games.ranks import records
from geolab.games.ranks.reference import Deal, Game, Lead, View, deal_one, play
from geolab.games.ranks.rules import SIDES, Rules
from geolab.games.ranks.views import VIEWS


class _Asked:
    """A reference-engine seat that asks a `geolab.game.Seat` and checks its answer."""

    def __init__(self, seat, side: int):
        self.seat, self.side = seat, side

    def _ask(self, kind: str, view: View, legal: tuple):
        action = self.seat.act(Decision(self.side, kind, view, legal))
        try:
            ok = action in legal
        except TypeError:
            ok = False
        if not ok:
            raise IllegalActionError(f"trick {view.trick + 1}: {SIDES[self.side]}'s {kind} {action!r} is not legal "
                                     f"(legal: {', '.join(map(str, legal[:6]))}{', ...' if len(legal) > 6 else ''})")
        return action

    def discard(self, view: View):
        return self._ask("discard", view, tuple(combinations(sorted(view.hand), view.rules.discards)))

    def declare(self, view: View) -> bool:
        return self._ask("declare", view, (False, True))

    def lead(self, view: View) -> Lead:
        legal = tuple(Lead(c, k, b) for c in sorted(view.hand) for k in range(3) for b in view.allowed_bases())
        return self._ask("lead", view, legal)

    def follow(self, view: View) -> int:
        return self._ask("follow", view, tuple(sorted(view.hand)))


class RanksGame:
    name = "ranks"
    title = "Play the Ranks"
    record_game = records.GAME
    Rules = Rules
    length_unit = "tricks"
    first_means = "first lead"

    def seats(self, rules: Rules) -> int:
        return 2

    def seat_name(self, rules: Rules, seat: int) -> str:
        return SIDES[seat]

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

    # ----- reference engine --------------------------------------------------------------
    def deal(self, rules, rng) -> Deal:
        return deal_one(rules, rng)

    def redeal_hidden(self, rules, deal: Deal, seat: int, rng) -> Deal:
        """The opponent's hand dealt anew from the cards `seat` does not hold; the statehood
        draw and the Power cards are public, so they stay."""
        unseen = sorted(set(range(50)) - set(deal.hands[seat]) - set(deal.draw))
        other = tuple(sorted(int(c) for c in rng.choice(unseen, rules.hand_size, replace=False)))
        hands = (deal.hands[0], other) if seat == 0 else (other, deal.hands[1])
        return Deal(hands, deal.draw, deal.power_bases)

    def play(self, rules, deal: Deal, seats) -> Game:
        first = deal.drawn_first_lead() if rules.first_lead == "given" else None
        return play(rules, deal.hands, [_Asked(s, i) for i, s in enumerate(seats)], first, deal.power_bases)

    def scores(self, played: Game) -> np.ndarray:
        winner = played.winner
        return np.array([0.5, 0.5]) if winner is None else np.eye(2)[winner]

    def to_record(self, played: Game) -> dict:
        return records.to_record(played)

    def replay(self, record) -> Game:
        return replayed(record, records.GAME, records.replay_game, records.report, records.BODY_KEYS)

    def report(self, played: Game) -> dict:
        return records.report(played)

    # ----- at the keyboard ---------------------------------------------------------------
    views = VIEWS

    def series_target(self, rules: Rules) -> int | None:
        """A battle series runs to `target_points` (10 or 15); Combo 1 and GeoDouble's stage
        are one deal of a bigger game."""
        return rules.target_points

    def deal_points(self, played: Game) -> tuple[int, int]:
        return played.points


GAME = RanksGame()
