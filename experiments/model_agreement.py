"""The pilot behind the strength study's model of a search bot (docs/strength.md, part bounds):
how often each cheap bot makes the search bot's own move, at every decision with more than one
legal action of the search bot's games against greedy (Combo 1 rules, 10 seeded deals, both
seatings). A model the exploiter thinks with should make the target's moves; this says which
cheap bot does most often (it does not say which makes the exploiter strongest: its rollouts
need a strong bot too, and the study's pilot runs decide that).

    PYTHONPATH=. python3 experiments/model_agreement.py
"""

from __future__ import annotations

import time

import numpy as np

from geolab import registry

TARGETS = ["montecarlo:k=8,budget_ms=none", "montecarlo", "sequential", "ismcts:iterations=2000,budget_ms=none"]
MODELS = ["greedy", "counter", "planner", "learned"]


def agreement(target: str, deals: int = 10, seed: int = 7) -> tuple[int, dict]:
    """Decisions with a choice the target made, and each model's share of the same move."""
    entry = registry.get("ranks")
    rules = entry.game.Rules.preset("combo1")
    same, n = dict.fromkeys(MODELS, 0), 0
    for i in range(deals):
        deal = entry.game.deal(rules, np.random.default_rng([seed, i]))
        for me in (0, 1):
            seats = {s: entry.seat(entry.bots.make(s, rules), rules, np.random.default_rng([seed, i, 1]))
                     for s in [target, "greedy", *MODELS]}
            state = entry.game.state(rules, deal)
            while not state.is_over():
                act = {}
                for d in state.decisions():
                    act[d.seat] = seats[target if d.seat == me else "greedy"].act(d)
                    if d.seat == me and len(d.legal) > 1:
                        n += 1
                        for m in MODELS:
                            same[m] += seats[m].act(d) == act[d.seat]
                state.apply(act)
    return n, {m: same[m] / n for m in MODELS}


if __name__ == "__main__":
    for target in TARGETS:
        cpu = time.process_time()
        n, share = agreement(target)
        print(target, n, {m: round(v, 3) for m, v in share.items()}, f"{time.process_time() - cpu:.0f} CPU-s")
