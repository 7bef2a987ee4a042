"""The Class GeoPower Double Choice bots, registered once: name, factory, parameters, family.

A class bot is a discard policy: ``act(obs, rng)`` over a batch of observations (own sorted
hand, the call, the number of opponents) and ``discard_table(rules)``, its lookup table for
the batch engine. Building a bot never trains it: `learned` loads a saved model (by default
the one geolab ships, ``geolab/data/models/class-learned.pkl``), `equilibrium` solves the
model game by best responses (about a second, once per GeoPower deck; no simulation).
"""

from __future__ import annotations

import copy
from functools import cache
from importlib import resources
from pathlib import Path

from geolab.bots.classroom.equilibrium import table_for
from geolab.bots.classroom.policies import (
    AverageRank,
    LearnedDiscard,
    OneCategory,
    RandomDiscard,
    Student,
    TablePolicy,
    WorstCategory,
)
from geolab.definition import Players
from geolab.game import Bots
from geolab.games.classroom.rules import Rules

#: The shipped learned model: `LearnedDiscard(random_state=0).fit()` (40,000 training rounds
#: against the average-rank field, 150 boosting iterations), saved with `save`; refit with
#: ``python -c "from geolab.bots.classroom.registry import fit_shipped_model; fit_shipped_model()"``.
SHIPPED_MODEL = "class-learned.pkl"


def shipped_model_path() -> Path:
    return Path(str(resources.files("geolab.data").joinpath("models", SHIPPED_MODEL)))


def fit_shipped_model(path: str | None = None) -> Path:
    """Fit the shipped model once (about 3 s) and save it; returns where it went."""
    out = Path(path) if path else shipped_model_path()
    LearnedDiscard(random_state=0).fit().save(out)
    return out


@cache
def _loaded(path: str) -> LearnedDiscard:
    return LearnedDiscard.load(path)


def random(rules: Rules):
    return RandomDiscard()


def average(rules: Rules):
    return AverageRank()


def worst_category(rules: Rules):
    return WorstCategory()


def one_category(rules: Rules):
    return OneCategory()


def learned(rules: Rules, model: str | None = None):
    path = shipped_model_path() if model is None else Path(model).expanduser()
    # a copy: its own name, the loaded model and its table shared with every other copy
    return copy.copy(_loaded(str(path.resolve())))


def oracle(rules: Rules):
    from geolab.bots.classroom.oracle import CategoryOracle

    return CategoryOracle()


def equilibrium(rules: Rules):
    return TablePolicy(table_for(rules.geopower), "equilibrium")


BOTS = Bots("class")
BOTS.add("random", random, "discards one of its three cards at random", family="random")
BOTS.add("average", average, "keeps the two cards with the best average rank over the three categories")
BOTS.add("worst-category", worst_category, "keeps the pair whose weakest category is best (guards the GeoPower card)")
BOTS.add("one-category", one_category, "keeps the pair strongest together in one category (the equilibrium's rule)")
BOTS.add("learned", learned, "gradient-boosted model of P(win the round) per discard (shipped model by default)",
         family="learned")
BOTS.add("equilibrium", equilibrium, "the symmetric equilibrium of each round under the independence model "
         "(best responses, per call and group size)", family="solver")
BOTS.add("oracle", oracle, "PEEKS at the GeoPower card before discarding and keeps the pair best in it: a ceiling "
         "(the balance lab's player who knows the chance outcome), never a fair player", family="oracle", peeks=True)

#: `geolab simulate class` and `geolab arena class` line-ups by default
SIMULATE = "equilibrium"
ARENA = "random,average,worst-category,one-category,learned,equilibrium"


def seat(bot, rules: Rules, rng) -> Student:
    """A classmate at `geolab play`: the bot answers each discard from its own `View` only
    (through the one-row observation its batched `act` reads), its randomness from `rng`
    (`geolab.registry.Entry.seated` refuses one that peeks)."""
    return Student(bot, rng)


#: `geolab play class`: the hint's bot (the strongest: it peeks at nothing and answers a
#: discard with one table lookup)
HINT = "equilibrium"
PLAYERS = Players(BOTS, SIMULATE, ARENA, HINT, seat)
