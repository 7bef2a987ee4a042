"""The Play the Ranks bots, registered once: name, factory, parameters, family."""

from __future__ import annotations

from geolab.bots.ranks.heuristics import CounterPolicy, GreedyPolicy, PlannerPolicy, RandomPolicy
from geolab.bots.ranks.learned import LearnedPolicy
from geolab.bots.ranks.review import judge, review
from geolab.bots.ranks.seats import BotSeat
from geolab.definition import Players
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


def greedy(rules: Rules, forbid: str | None = None):
    if forbid is None:
        return GreedyPolicy()
    from geolab.bots.ranks.restricted import RestrictedGreedy, check

    return RestrictedGreedy(check(rules, forbid))


def _not_applicable(rules: Rules, forbid: str) -> str | None:
    from geolab.bots.ranks.restricted import not_applicable

    return not_applicable(rules, forbid)


#: Restricted play (`geolab balance --restricted`, docs/balance.md): the choices ``forbid``
#: takes (geolab.bots.ranks.restricted); `_not_applicable` says why one means nothing under given rules.
RESTRICTIONS = ("size", "statehood", "population", "base1", "base50", "declare")


def planner(rules: Rules):
    return PlannerPolicy()


def counter(rules: Rules, concede: int = 3):
    return CounterPolicy(concede=param_range("concede", concede, 1, 50))


def learned(rules: Rules, model: str | None = None):
    return LearnedPolicy(model=model)


def _layouts_checked(k, budget_ms, cap_ms, candidates, infer, oversample, seed) -> None:
    """The parameters every layout-sampling bot (montecarlo, sequential) shares, checked."""
    param_range("k", k, 1, MAX_LAYOUTS)
    param_range("budget_ms", budget_ms, 0, MAX_BUDGET_MS, low_open=True, none_ok=True)
    param_range("cap_ms", cap_ms, 0, MAX_CAP_MS, low_open=True)
    param_range("candidates", candidates, 1, 50)
    param_range("infer", infer, 0, 100)
    param_range("oversample", oversample, 1, 64)
    param_range("seed", seed, 0, INT63_MAX)


def montecarlo(rules: Rules, k: int = 48, budget_ms: float | None = 12.0, cap_ms: float = 30.0, candidates: int = 3,
               infer: float = 1.5, oversample: int = 4, seed: int = 0, infer_model: str | None = None,
               infer_temperature: float = 0.1):
    from geolab.bots.ranks.montecarlo import policy

    _layouts_checked(k, budget_ms, cap_ms, candidates, infer, oversample, seed)
    param_range("infer_temperature", infer_temperature, 0, 100, low_open=True)
    return policy(k=k, budget_ms=budget_ms, cap_ms=cap_ms, candidates=candidates, infer=infer,
                  oversample=oversample, seed=seed, infer_model=infer_model, infer_temperature=infer_temperature)


def sequential(rules: Rules, k: int = 80, least: int = 16, step: int = 16, z: float = 1.5,
               budget_ms: float | None = 12.0, cap_ms: float = 30.0, candidates: int = 3, infer: float = 3.0,
               oversample: int = 4, seed: int = 0):
    from geolab.bots.ranks.sequential import policy

    _layouts_checked(k, budget_ms, cap_ms, candidates, infer, oversample, seed)
    param_range("least", least, 2, MAX_LAYOUTS)
    param_range("step", step, 1, MAX_LAYOUTS)
    param_range("z", z, 0, 100)
    return policy(k=k, least=least, step=step, z=z, budget_ms=budget_ms, cap_ms=cap_ms, candidates=candidates,
                  infer=infer, oversample=oversample, seed=seed)


def focus(rules: Rules, lead_k: int = 48, lead_ms: float | None = 12.0, follow_k: int = 48,
          follow_ms: float | None = 12.0, discard_k: int = 4, discard_ms: float | None = 12.0, tie_k: int = 16,
          tie_within: float = 0.0, cap_ms: float = 30.0, candidates: int = 3, infer: float = 1.5, oversample: int = 4,
          seed: int = 0):
    from geolab.bots.ranks.focus import policy

    for kind, (k, ms) in {"lead": (lead_k, lead_ms), "follow": (follow_k, follow_ms),
                          "discard": (discard_k, discard_ms)}.items():
        param_range(f"{kind}_k", k, 1, MAX_LAYOUTS)
        param_range(f"{kind}_ms", ms, 0, MAX_BUDGET_MS, low_open=True, none_ok=True)
    param_range("tie_k", tie_k, 0, MAX_LAYOUTS)
    param_range("tie_within", tie_within, 0, 1)
    _layouts_checked(1, None, cap_ms, candidates, infer, oversample, seed)
    return policy(lead_k=lead_k, lead_ms=lead_ms, follow_k=follow_k, follow_ms=follow_ms, discard_k=discard_k,
                  discard_ms=discard_ms, tie_k=tie_k, tie_within=tie_within, cap_ms=cap_ms, candidates=candidates,
                  infer=infer, oversample=oversample, seed=seed)


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


def oracle(rules: Rules):
    from geolab.bots.ranks.oracle import OraclePolicy

    return OraclePolicy()


#: The skill curve (`geolab balance --skill-curve`): Monte Carlo at doubling sample counts, no
#: clock, so a result never depends on the machine's speed.
SKILL_CURVE = ("montecarlo:k={n},budget_ms=none", (1, 2, 4, 8, 16))

BOTS = Bots("ranks")
BOTS.add("random", random, "any legal card, category and base", family="random")
BOTS.add("greedy", greedy, "wins a trick as cheaply as it can, else throws its least useful card (forbid=CHOICE: "
         "restricted play, one choice taken away: size, statehood, population, base1, base50, declare)",
         restrictions=RESTRICTIONS, not_applicable=_not_applicable)
BOTS.add("planner", planner, "places each card at the base where it is worth most")
BOTS.add("counter", counter, "counts the unseen cards and leads sure winners")
BOTS.add("learned", learned, "scikit-learn model of each decision (geolab train ranks; shipped models by default)",
         family="learned")
BOTS.add("montecarlo", montecarlo, "samples the opponent's cards consistently with its play; the solver scores each",
         family="search", example="montecarlo:k=4,budget_ms=none", skill_curve=SKILL_CURVE)
BOTS.add("sequential", sequential, "montecarlo that solves layouts in small batches until the best move is clear "
         "(up to k), so close calls get more layouts in the same CPU a decision", family="search",
         example="sequential:k=4,least=2,step=2,budget_ms=none")
BOTS.add("focus", focus, "montecarlo that spends its CPU where decisions are lost: few layouts on discards (dear to "
         "sample, seldom costly), layouts and time per decision kind, and moves tied on wins told apart by the "
         "points they force on tie_k fresh layouts", family="search",
         example="focus:lead_k=4,lead_ms=none,follow_k=2,follow_ms=none,discard_k=2,discard_ms=none,tie_k=2")
BOTS.add("ismcts", ismcts, "information-set Monte Carlo tree search (compiled)", family="search",
         example="ismcts:iterations=200,budget_ms=none,layouts=16")
BOTS.add("oracle", oracle, "PEEKS at the opponent's cards (and a face-down lead) and plays the solver's best move: "
         "a ceiling, never a fair player", family="oracle", peeks=True)

#: `geolab simulate ranks` and `geolab arena ranks` line-ups by default: the heuristics, the
#: learned bot and a Monte Carlo bot with a small fixed sample (6 layouts a decision, no time
#: budget, so its choices never depend on the machine's speed).
SIMULATE = "greedy,random"
ARENA = "random,greedy,planner,counter,learned,montecarlo:k=6,budget_ms=none"

#: `geolab play ranks`: a bot at the reference engine sees only its decision's View (as the
#: one-row batch observation the batch engine would show); the hint is the Monte Carlo bot
#: with its default 48 layouts, always all solved (no clock, so a hint repeats exactly, and
#: quickly enough to wait for: timings in docs/perf.md, the hint bots); the review is the
#: oracle's (it sees both hands, and says so).
def seat(bot, rules: Rules, rng) -> BotSeat:
    """A built bot at the reference engine, shown only its own side's `View`
    (`geolab.registry.Entry.seated` refuses one that peeks)."""
    return BotSeat(bot, rules, rng)


HINT = "montecarlo:k=48,budget_ms=none"
PLAYERS = Players(BOTS, SIMULATE, ARENA, HINT, seat, review, judge)
