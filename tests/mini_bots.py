"""High Card's bots (the minimal test-only game of `mini_game`), kept apart from the game as a
real game's are in ``geolab/bots/<game>/``: a `random` and a `best` bot, the seat that puts a
bot at the reference engine, and the `Players` the definition names (``mini_bots:PLAYERS``)."""

from __future__ import annotations

import numpy as np

from geolab.cards import RANKS
from geolab.definition import Players
from geolab.game import BatchBot, Bots


class RandomCard(BatchBot):
    """Plays any card it holds, uniformly."""

    def __init__(self, rules):
        self.name = "random"

    def act(self, obs, rng):
        hand = obs["hand"]  # (n, hand): the cards held, -1 where one was played
        return (rng.random(hand.shape) + 2 * (hand < 0)).argmin(axis=1)


class BestCard(BatchBot):
    """Plays its best card in the category (the lowest rank): it wins every round it can win
    now and keeps nothing back for later."""

    def __init__(self, rules):
        self.name = "best"

    def act(self, obs, rng):
        hand = obs["hand"]
        return np.where(hand >= 0, RANKS[np.maximum(hand, 0), obs["category"]], 99).argmin(axis=1)


class BotSeat:
    """A bot at the reference engine: shown only its decision's observation, as a batch of one."""

    def __init__(self, bot, rules, rng):
        self.bot, self.rng = bot, rng

    def act(self, decision):
        obs = decision.observation
        row = {"hand": np.array([obs["hand"]]), "category": obs["rules"].category}
        return obs["hand"][int(self.bot.act(row, self.rng)[0])]


BOTS = Bots("mini")
BOTS.add("random", RandomCard, "any card it holds", family="random")
BOTS.add("best", BestCard, "its best card in the category")
PLAYERS = Players(BOTS, simulate="best,random", arena="random,best", hint="best", seat=BotSeat)
