"""A built Play the Ranks bot as a policy: its action probabilities at a reference decision,
what the exact best response (`geolab.games.ranks.solver.best_response`) walks against.

A bot's decision depends on its observation and on the randomness the engine hands it (the
game key behind ``obs.noise``, the generator). `Behaviour` seeds that randomness from the
observation itself (`montecarlo.visible_key`) and the given seed, so a bot is one fixed
strategy, the same at every visit of an information set, as a fair player's strategy is:

- the bots that use no randomness (greedy, planner, counter, learned, and montecarlo and
  ismcts without a clock: they seed their own sampling from what they see) are exactly that
  deterministic strategy, and the one they play in the batch engine;
- a bot that declares its probabilities (`probabilities(decision)`: random's uniform choice
  among the legal actions) is taken at its word, exactly;
- any other randomised bot is read by `samples` draws per decision (its empirical
  distribution: an estimate, and the report must say so).
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from geolab.bots.ranks.montecarlo import visible_key
from geolab.bots.ranks.seats import BotSeat
from geolab.game import Decision
from geolab.games.ranks.rules import Rules


class Behaviour:
    """`bot` as a `best_response.Policy`: ``behaviour(decision) -> {action: probability}``."""

    def __init__(self, bot, rules: Rules, seed: int = 0, samples: int = 1):
        self.bot, self.rules, self.seed, self.samples = bot, rules, int(seed), int(samples)
        self.exact = bot.probabilities is not None  # declared by `geolab.game.BatchBot`

    def __call__(self, decision: Decision) -> dict:
        if self.exact:
            return self.bot.probabilities(decision)
        key = visible_key(decision.observation)
        answers = Counter()
        for s in range(self.samples):
            rng = np.random.default_rng([self.seed & 0xFFFF_FFFF, s, key])
            answers[BotSeat(self.bot, self.rules, rng).act(decision)] += 1
        return {a: n / self.samples for a, n in answers.items()}
