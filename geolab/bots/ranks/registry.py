"""The Play the Ranks bots, registered once: name, factory, parameters, family."""

from __future__ import annotations

from geolab.bots.ranks.heuristics import CounterPolicy, GreedyPolicy, PlannerPolicy, RandomPolicy
from geolab.bots.ranks.learned import LearnedPolicy
from geolab.game import INT63_MAX, Bots, param_range
from geolab.games.ranks.rules import Rules

#: The bots' parameter ranges (a parameter outside its range is refused, named, with the
#: range): search sizes that fit in memory, time budgets up to a minute a decision (the cap
#: up to ten), weights that mean something, and 63-bit seeds.
MAX_LAYOUTS = 10_000  # layouts a decision (montecarlo k, ismcts layouts): each is solved, and kept
MAX_ITERATIONS = 10_000_000  # ismcts keeps a table of this many entries
MAX_BUDGET_MS, MAX_CAP_MS = 60_000.0, 600_000.0


def random(rules: Rules):
    return RandomPolicy()


def greedy(rules: Rules):
    return GreedyPolicy()


def planner(rules: Rules):
    return PlannerPolicy()


def counter(rules: Rules, concede: int = 3):
    return CounterPolicy(concede=param_range("concede", concede, 1, 50))


def learned(rules: Rules, model: str | None = None):
    return LearnedPolicy(model=model)


def montecarlo(rules: Rules, k: int = 48, budget_ms: float | None = 12.0, cap_ms: float = 30.0, candidates: int = 3,
               infer: float = 1.5, oversample: int = 4, seed: int = 0):
    from geolab.bots.ranks.montecarlo import policy

    param_range("k", k, 1, MAX_LAYOUTS)
    param_range("budget_ms", budget_ms, 0, MAX_BUDGET_MS, low_open=True, none_ok=True)
    param_range("cap_ms", cap_ms, 0, MAX_CAP_MS, low_open=True)
    param_range("candidates", candidates, 1, 50)
    param_range("infer", infer, 0, 100)
    param_range("oversample", oversample, 1, 64)
    param_range("seed", seed, 0, INT63_MAX)
    return policy(k=k, budget_ms=budget_ms, cap_ms=cap_ms, candidates=candidates, infer=infer,
                  oversample=oversample, seed=seed)


def ismcts(rules: Rules, iterations: int = 100_000, budget_ms: float | None = 10.0, cap_ms: float = 40.0,
           exploration: float = 0.7, layouts: int = 128, infer: float = 1.5, seed: int = 0):
    from geolab.bots.ranks.ismcts import policy

    param_range("iterations", iterations, 1, MAX_ITERATIONS)
    param_range("budget_ms", budget_ms, 0, MAX_BUDGET_MS, low_open=True, none_ok=True)
    param_range("cap_ms", cap_ms, 0, MAX_CAP_MS, low_open=True)
    param_range("exploration", exploration, 0, 100)
    param_range("layouts", layouts, 1, MAX_LAYOUTS)
    param_range("infer", infer, 0, 100)
    param_range("seed", seed, 0, INT63_MAX)
    return policy(iterations=iterations, budget_ms=budget_ms, cap_ms=cap_ms, exploration=exploration,
                  layouts=layouts, infer=infer, seed=seed)


BOTS = Bots("ranks")
BOTS.add("random", random, "any legal card, category and base", family="random")
BOTS.add("greedy", greedy, "wins a trick as cheaply as it can, else throws its least useful card")
BOTS.add("planner", planner, "places each card at the base where it is worth most")
BOTS.add("counter", counter, "counts the unseen cards and leads sure winners")
BOTS.add("learned", learned, "scikit-learn model of each decision (geolab train ranks; shipped models by default)",
         family="learned")
BOTS.add("montecarlo", montecarlo, "samples the opponent's cards consistently with its play; the solver scores each",
         family="search", example="montecarlo:k=4,budget_ms=none")
BOTS.add("ismcts", ismcts, "information-set Monte Carlo tree search (compiled)", family="search",
         example="ismcts:iterations=200,budget_ms=none,layouts=16")

#: `geolab simulate ranks` and `geolab arena ranks` line-ups by default: the heuristics, the
#: learned bot and a Monte Carlo bot with a small fixed sample (6 layouts a decision, no time
#: budget, so its choices never depend on the machine's speed); the ladder runs in about a minute.
SIMULATE = "greedy,random"
ARENA = "random,greedy,planner,counter,learned,montecarlo:k=6,budget_ms=none"
