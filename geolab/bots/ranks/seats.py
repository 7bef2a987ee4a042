"""One-game seats for the Play the Ranks reference engine: `random` and `greedy`, and
`BotSeat`, any batch policy seated at the reference engine (`geolab play`'s bots).

`RandomSeat` and `GreedySeat` decide one deal at a time from a `View`, for the reference
engine, records and tests. The batched policies in `geolab.bots.ranks.heuristics` implement
the same rules of thumb over arrays and must choose exactly what these choose (tests check it).
"""

from __future__ import annotations

import numpy as np

from geolab.cards import RANKS
from geolab.game import Decision, asking, bot_name
from geolab.games.ranks.batch import observation_of
from geolab.games.ranks.reference import Lead, View, trick_winner
from geolab.games.ranks.rules import Rules


def uselessness(c: int, bases: tuple[int, ...]) -> int:
    """How far the card's best rank lies from the nearest base still to come (large = useless)."""
    return min(abs(int(RANKS[c, k]) - b) for k in range(3) for b in set(bases))


class RandomSeat:
    """Uniformly random among the legal choices."""

    name = "random"

    def __init__(self, rng: np.random.Generator):
        self.rng = rng

    def discard(self, view: View):
        hand = list(view.hand)
        return [hand[i] for i in self.rng.choice(len(hand), view.rules.discards, replace=False)]

    def declare(self, view: View) -> bool:
        return bool(self.rng.integers(2))

    def lead(self, view: View) -> Lead:
        bases = view.allowed_bases()
        return Lead(
            int(self.rng.choice(view.hand)),
            int(self.rng.integers(3)),
            int(bases[self.rng.integers(len(bases))]),
        )

    def follow(self, view: View) -> int:
        return int(self.rng.choice(view.hand))


class GreedySeat:
    """Lead the most extreme rank for the base; answer with the cheapest winning card.

    Lead: the (card, category, base) whose rank lies nearest the base. Follow: of the cards
    that beat the lead, the one farthest from the base (the cheapest win); if none wins, or
    the lead is face-down, throw the card least useful for the tricks to come — unless the
    lead is hidden, then play the card nearest the base in the named category. Discard: the
    least useful cards over the whole deal. Declare when at least `win_tricks` cards have a
    rank within 3 of a base. Ties go to the lowest card number, then category, then base.
    """

    name = "greedy"

    def discard(self, view: View):
        bases = view.rules.future_bases(0, view.power_bases)
        order = sorted(view.hand, key=lambda c: (-uselessness(c, bases), c))
        return order[: view.rules.discards]

    def declare(self, view: View) -> bool:
        bases = view.rules.future_bases(0, view.power_bases)
        return sum(uselessness(c, bases) <= 3 for c in view.hand) >= view.rules.win_tricks

    def lead(self, view: View) -> Lead:
        best = min(
            (abs(int(RANKS[c, k]) - b), c, k, i)
            for c in view.hand
            for k in range(3)
            for i, b in enumerate(view.allowed_bases())
        )
        _, c, k, i = best
        return Lead(c, k, view.allowed_bases()[i])

    def follow(self, view: View) -> int:
        k, base = view.lead_category, view.lead_base
        if view.lead_card is None:
            return min(view.hand, key=lambda c: (abs(int(RANKS[c, k]) - base), c))
        leader = 1 - view.side
        winners = [c for c in view.hand if trick_winner(view.rules, leader, view.lead_card, c, k, base) == view.side]
        if winners:
            return min(winners, key=lambda c: (-abs(int(RANKS[c, k]) - base), c))
        bases = view.rules.future_bases(view.trick + 1, view.power_bases)
        return min(view.hand, key=lambda c: (-uselessness(c, bases), c))


class BotSeat:
    """A batch policy (``act(obs, rng)``) as a `geolab.game.Seat` of the reference engine.

    Each decision's `View` becomes the one-row observation the batch engine would show
    (`observation_of`: the opponent's hand is not in it), and the policy's batch action
    becomes the reference engine's action. The game key behind ``obs.noise`` is drawn from
    `rng` at every decision, so a randomised policy gets fresh randomness each time; a
    deterministic one chooses exactly what it chooses in the batch engine on the same deal."""

    def __init__(self, bot, rules: Rules, rng: np.random.Generator):
        self.bot, self.rules, self.rng = bot, rules, rng
        self.name = bot_name(bot)

    def act(self, decision: Decision):
        view, kind = decision.observation, decision.kind
        obs = observation_of(view, kind, int(self.rng.integers(0, 2**63)))
        where = f"trick {view.trick + 1} {kind}" if kind in ("lead", "follow") else kind
        with asking("ranks", self.bot, where):
            action = self.bot.act(obs, self.rng)
        if kind == "discard":
            return tuple(sorted(int(c) for c in np.asarray(action).reshape(-1)))
        if kind == "declare":
            return bool(np.asarray(action).reshape(-1)[0])
        if kind == "lead":
            base = obs.bases[0, 0] if action.base is None else np.asarray(action.base).reshape(-1)[0]
            return Lead(int(np.asarray(action.card).reshape(-1)[0]), int(np.asarray(action.category).reshape(-1)[0]),
                        int(base))
        return int(np.asarray(action).reshape(-1)[0])
