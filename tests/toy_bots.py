"""Top Rank's bots (the test-only game of `toy_game`), kept apart from the game as a real
game's are in ``geolab/bots/<game>/``: a fair `first` and `best`, a peeking `oracle` (the
balance lab's fictive player who knows the deal), the seat that puts a bot at the reference
engine, and the `Players` the definition names (``toy_bots:PLAYERS``).
"""

from __future__ import annotations

import itertools

import numpy as np
from toy_game import round_winner, winners

from geolab.cards import RANKS
from geolab.definition import Players
from geolab.errors import IllegalActionError
from geolab.game import BatchBot, Bots
from geolab.stepwise import Claim

NAME = "toy"

class FirstCard(BatchBot):
    """Plays the first card it holds."""

    def __init__(self, rules):
        self.name = "first"

    def act(self, obs, rng):
        return (obs["hand"] >= 0).argmax(axis=1)

    def claim(self, obs, rng):
        """The race: claims its first card at once (one second): fast, and often wrong."""
        n = len(obs["hand"])
        return np.zeros(n, np.int64), np.ones(n)


class BestCard(BatchBot):
    """Plays its best card in the round's category, or (``greed`` below 1) a random one.
    ``forbid="top"`` (restricted play): never its best card while it holds another."""

    def __init__(self, rules, greed: float = 1.0, forbid: str | None = None, speed: float = 2.0):
        if not 0 <= greed <= 1:
            raise ValueError("greed must be within 0-1")
        if forbid is not None:
            if forbid != "top":
                raise ValueError(f"forbid must be top, got {forbid!r}")
            if self.not_applicable(rules, forbid):
                raise ValueError(f"does not apply: {self.not_applicable(rules, forbid)}")
        if not 0 < speed <= 60:
            raise ValueError("speed must be above 0 and at most 60 seconds")
        self.rules, self.greed, self.forbid, self.speed, self.name = rules, greed, forbid, speed, "best"

    def claim(self, obs, rng):
        """The race: claims its best card after a lognormal time around `speed` seconds (its
        speed model)."""
        hand = obs["hand"]
        rank = RANKS[hand, obs["category"]].astype(np.int64)
        best = (rank if self.rules.best_low else -rank).argmin(axis=1)
        return best, self.speed * np.exp(0.5 * rng.standard_normal(len(hand)))

    @staticmethod
    def not_applicable(rules, forbid):
        return "forbid=top: a hand of one card leaves no choice" if rules.hand < 2 else None

    def act(self, obs, rng):
        hand = obs["hand"]
        worst = 99 if self.rules.best_low else -1
        rank = np.where(hand >= 0, RANKS[np.maximum(hand, 0), obs["category"]], worst)
        best = rank.argmin(axis=1) if self.rules.best_low else rank.argmax(axis=1)
        noise = rng.random((len(hand), hand.shape[1])) + (hand < 0) * 2
        if self.forbid == "top":  # the best card out of reach while another is held, for the random play too
            rows = np.flatnonzero((hand >= 0).sum(axis=1) > 1)
            rank[rows, best[rows]] = worst
            noise[rows, best[rows]] += 4
            best = rank.argmin(axis=1) if self.rules.best_low else rank.argmax(axis=1)
        return np.where(rng.random(len(hand)) < self.greed, best, noise.argmin(axis=1))


class PeekingOracle(BatchBot):
    """PEEKS at every seat's cards (the engine shows them to a bot with ``peeks``) and plays
    the rest of the game out for every order of its own cards, the others playing their best
    card each round (the `best` bot), then plays the first card of the order that wins most:
    a ceiling for the fair bots (the balance lab's fictive player, who knows the deal)."""

    peeks = True

    def __init__(self, rules):
        self.rules, self.name = rules, "oracle"

    def claim(self, obs, rng):
        """The race: its best card, in a second and a half."""
        return BestCard(self.rules).claim(obs, rng)[0], np.full(len(obs["hand"]), 1.5)

    def act(self, obs, rng):
        if "hidden" not in obs:
            raise IllegalActionError("the toy oracle peeks: only the batch engine shows it the other seats' cards")
        rules, me, start = self.rules, obs["seat"], obs["round"]
        hidden, dealt = obs["hidden"], obs["dealt"]
        m, seats, hand = hidden.shape
        rows = np.arange(m)
        sign = 1 if rules.best_low else -1
        value, choice = np.full(m, -1.0), np.zeros(m, np.int64)
        for plan in itertools.permutations(range(hand), rules.rounds - start):
            held, wins = hidden.copy(), obs["wins"].copy()
            first = obs["first"] if start else None
            ok = np.ones(m, bool)
            for t, slot in enumerate(plan):
                k = rules.categories[start + t]
                live = np.ones(m, bool) if rules.limit is None else wins.max(axis=1) < rules.limit
                rank = np.where(held >= 0, sign * RANKS[np.maximum(held, 0), k].astype(np.int64), 10**6)
                pick = rank.argmin(axis=2)  # every other seat: its best card (what `best` plays)
                pick[:, me] = slot
                cards = held[rows[:, None], np.arange(seats)[None, :], pick]
                ok &= ~live | (cards[:, me] >= 0)
                held[rows[:, None], np.arange(seats)[None, :], pick] = np.where(live[:, None], -1, cards)
                winner = round_winner(rules, np.maximum(cards, 0), k)
                wins[rows[live], winner[live]] += 1
                if start + t == 0:
                    first = np.maximum(cards, 0)
            share = np.where(ok, winners(rules, wins, dealt, first)[:, me], -1.0)
            better = share > value
            value[better], choice[better] = share[better], plan[0]
        return choice


def make_bots() -> Bots:
    bots = Bots(NAME)
    bots.add("first", FirstCard, "the first card it holds", family="random")
    bots.add("best", BestCard, "its best card for the round", example="best:greed=0.5",
             restrictions=("top",), not_applicable=BestCard.not_applicable)
    bots.add("oracle", PeekingOracle, "PEEKS at every hand: its cheapest sure winner, else its worst card",
             family="oracle", peeks=True)
    return bots


class BotSeat:
    """A toy bot at the reference engine: shown its one-row observation."""

    def __init__(self, bot, rules, rng):
        self.bot, self.rng = bot, rng

    def act(self, decision):
        obs = decision.observation
        row = {"hand": np.array([obs["hand"]]), "category": obs["category"], "round": obs["round"]}
        if decision.timed:
            index, seconds = self.bot.claim(row, self.rng)
            return Claim(obs["hand"][int(index[0])] if index[0] >= 0 else None, float(seconds[0]))
        return obs["hand"][int(self.bot.act(row, self.rng)[0])]


BOTS = make_bots()
PLAYERS = Players(BOTS, simulate="best,first", arena="first,best,best:greed=0.5", hint="best", seat=BotSeat)


def bench(rules, games, runs, seed, threads) -> dict:
    """A stand-in benchmark (what a game offers as ``bench``), for the command line's tests."""
    return {"summary": "toy", "rounds_per_s": 1.0, "jit_warmup_s": 0.1}
