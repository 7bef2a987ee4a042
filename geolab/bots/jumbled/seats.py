"""A batch-engine Jumbled bot as a reference-engine seat (`geolab.game.Seat`).

`BotSeat` answers each `Decision` of `geolab.games.jumbled.game.GAME.play` by showing the bot
the decision's `View` as a one-row batch observation (`Observation` for a set choice,
`CallObservation` for the dealer's call), exactly as the batch engine would show it, and
turning its slot mask back into the cards of the hand.
"""

from __future__ import annotations

import numpy as np

from geolab.game import Decision, bot_name
from geolab.games.jumbled.observations import CallObservation, Observation, readonly
from geolab.games.jumbled.reference import View
from geolab.games.jumbled.rules import CALLS, call_index


def observation(view: View) -> Observation:
    """The one-row batch observation of a set decision's view."""
    r = view.rules
    P, S, M = r.players, r.sets_per_round, r.max_cards_per_set
    used = sum(1 << i for i, c in enumerate(view.hand) if c not in view.left)
    cards = np.full((1, S, P, M), -1, np.int8)
    turned = np.full((1, S), -1, np.int8)
    for s, seen in enumerate(view.sets):
        turned[0, s] = seen.category
        for p, play in enumerate(seen.plays):
            cards[0, s, p, : len(play)] = play
    one = np.zeros(1, np.int64)
    return Observation(r, view.round_index, view.set_index, one, np.array([view.seat], np.int64),
                       np.array([view.hand], np.int8), np.array([used], np.int64),
                       readonly(np.array([call_index(view.call)], np.int8)),
                       readonly(np.array([view.dealer], np.int64)),
                       readonly(np.array([view.scores], np.int64)), readonly(cards), turned)


def call_observation(view: View) -> CallObservation:
    """The one-row batch observation of the dealer's call."""
    return CallObservation(view.rules, view.round_index, np.zeros(1, np.int64), np.array([view.seat], np.int64),
                           readonly(np.array([view.scores], np.int64)))


class BotSeat:
    """A Jumbled bot (``act`` and ``call`` over batch observations) in the reference engine,
    drawing any randomness from ``rng``."""

    def __init__(self, bot, rng: np.random.Generator | None = None):
        self.bot, self.rng = bot, rng if rng is not None else np.random.default_rng()
        self.name = bot_name(bot)

    def act(self, decision: Decision):
        view = decision.observation
        if decision.kind == "call":
            return CALLS[int(np.asarray(self.bot.call(call_observation(view), self.rng))[0])]
        mask = int(np.asarray(self.bot.act(observation(view), self.rng))[0])
        return tuple(c for i, c in enumerate(view.hand) if mask >> i & 1)
