"""The Jumbled GeoPower Choice bots, registered once: name, factory, parameters, family.

A Jumbled bot plays both of a seat's kinds of decision on the batch engine: ``act(obs, rng)``
lays the set choices (its set policy) and ``call(obs, rng)`` makes the dealer's call (its call
policy, the ``call`` parameter every bot takes: random, top-dog, bottoms-up or race). Building
a bot never trains it: ``learned`` plays a saved model.
"""

from __future__ import annotations

import numpy as np

from geolab.bots.jumbled.callers import call_policy
from geolab.bots.jumbled.heuristics import HEURISTICS, RandomBot
from geolab.bots.jumbled.learned import Learned
from geolab.bots.jumbled.montecarlo import MonteCarlo
from geolab.bots.jumbled.seats import BotSeat
from geolab.definition import Players
from geolab.game import BatchBot, Bots, bot_name, param_range
from geolab.games.jumbled.rules import Rules

#: Most samples a Monte Carlo decision may take (each rolls every legal choice out).
MAX_SAMPLES = 10_000


class JumbledBot(BatchBot):
    """A seat's policies for the batch engine: ``policy`` for the set choices, ``caller`` for
    the dealer's call. Seats holding the same object are asked together, in one batch."""

    def __init__(self, policy, caller, name: str):
        self.policy, self.caller, self.name = policy, caller, name

    def act(self, obs, rng):
        return self.policy.act(obs, rng)

    def call(self, obs, rng):
        return self.caller.call(obs, rng)

    def __repr__(self) -> str:
        return f"JumbledBot({self.name!r})"


class UniformBot(JumbledBot):
    """`random` with the random call: every decision uniform over its legal actions (the set
    kernel draws uniformly among the legal slot masks, one a choice; the call among the calls
    allowed), which it states, so that the exploiter and exact analysis weigh its play by
    them, not by samples of it, and take no move of its as a default worth keeping."""

    @staticmethod
    def probabilities(decision) -> dict:
        return {a: 1 / len(decision.legal) for a in decision.legal}


def seat(policy, call: str = "random", name: str | None = None) -> JumbledBot:
    """Any set policy (a `Heuristic`, a `Learned` fitted in a study...) as a bot, with the
    call policy named by `call`."""
    return JumbledBot(policy, call_policy(call), name or bot_name(policy))


def random(rules: Rules, call: str = "random"):
    if call == "random":
        return UniformBot(RandomBot(), call_policy(call), "random")
    return seat(RandomBot(), call, "random")


def _heuristic(key: str):
    def factory(rules: Rules, call: str = "random"):
        return seat(HEURISTICS[key], call, key)

    factory.__name__ = factory.__qualname__ = key
    return factory


def heuristic(rules: Rules, call: str = "random", forbid: str | None = None):
    if forbid is None:
        return seat(HEURISTICS["heuristic"], call, "heuristic")
    from geolab.bots.jumbled.restricted import NoCall, NoPairs, check

    check(rules, forbid)
    if forbid == "pair":
        return seat(NoPairs(), call, f"heuristic:forbid={forbid}")
    bot = seat(HEURISTICS["heuristic"], call, f"heuristic:forbid={forbid}")
    bot.caller = NoCall(bot.caller, forbid)
    return bot


def _not_applicable(rules: Rules, forbid: str) -> str | None:
    from geolab.bots.jumbled.restricted import not_applicable

    return not_applicable(rules, forbid)


#: Restricted play (`geolab balance --restricted`, docs/balance.md): the choices ``forbid``
#: takes (geolab.bots.jumbled.restricted); `_not_applicable` says why one means nothing under given rules.
RESTRICTIONS = ("pair", "top-dog", "bottoms-up")


def montecarlo(rules: Rules, samples: int = 64, call: str = "random"):
    param_range("samples", samples, 1, MAX_SAMPLES)
    return seat(MonteCarlo(samples=samples), call, "montecarlo")


#: The skill curve (`geolab balance --skill-curve`): Monte Carlo at doubling sample counts.
SKILL_CURVE = ("montecarlo:samples={n}", (1, 2, 4, 8, 16))


def learned(rules: Rules, model: str | None = None, call: str = "random"):
    return seat(Learned.load(model), call, "learned")


BOTS = Bots("jumbled")
BOTS.add("random", random, "any legal set choice, uniformly", family="random")
BOTS.add("heuristic", heuristic,
         "one card on a set chosen at random among those left, the card best on average; pairs safe in every "
         "category still possible (the strongest rule of thumb; forbid=CHOICE: restricted play, one choice taken "
         "away: pair, top-dog, bottoms-up)", restrictions=RESTRICTIONS, not_applicable=_not_applicable)
BOTS.add("reserve", _heuristic("reserve"), "heuristic, keeping its best card back for the single-card set")
BOTS.add("first", _heuristic("first"), "lays its single card on set 1, keeping its best card for it")
BOTS.add("middle", _heuristic("middle"), "lays its single card on set 2, keeping its best card for it")
BOTS.add("last", _heuristic("last"), "lays its single card on set 3, keeping its best card for it")
BOTS.add("montecarlo", montecarlo,
         "samples the unseen cards and GeoPower draws, rolls every legal choice out with the heuristic",
         family="search", example="montecarlo:samples=4", skill_curve=SKILL_CURVE)
BOTS.add("learned", learned,
         "gradient-boosted action values over hand features (the shipped model unless model=PATH; trained on "
         "the standard rules)", family="learned")

#: `geolab simulate jumbled` and `geolab arena jumbled` line-ups by default: the heuristic
#: family and the random floor (Monte Carlo is far slower: docs/perf.md).
SIMULATE = "heuristic"
ARENA = "heuristic,reserve,first,middle,last,random"


def table_seat(bot, rules: Rules, rng: np.random.Generator) -> BotSeat:
    """A built bot at the reference engine (`geolab play`): it sees only its own decision's
    `View`, shown as the batch engine would show it, and draws from ``rng``."""
    return BotSeat(bot, rng)


#: The bot `hint` asks (`geolab play`): Monte Carlo is the strongest bot that sees only its own
#: seat, and more samples make it stronger; 1,024 samples keep a hint well within a person's
#: patience on the reference engine (win rates and timings: docs/perf.md, the hint bots).
HINT = "montecarlo:samples=1024"
PLAYERS = Players(BOTS, SIMULATE, ARENA, HINT, table_seat)
