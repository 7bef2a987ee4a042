"""Perfect-information Monte Carlo that spends its CPU where decisions are lost.

Two changes to `MonteCarloSeat`, both in how it spends the same CPU a decision:

* **Layouts per decision kind.** By the double-dummy judge (docs/strength.md, "Where each
  bot loses") a Monte Carlo player loses least on discards, which are its dearest decisions
  to sample (every layout is a whole deal, solved once per discard option; 13.7 ms at
  montecarlo's defaults). This seat gives discards 4 layouts and leads and answers
  montecarlo's 48; each kind's `k` and budget can be set.
* **Ties told apart by margin.** Several leads or answers often tie at the best win share
  (all win, or all lose, on every sampled layout), and montecarlo then plays the greedy move
  or the first. This seat solves the tied moves exactly on `tie_k` fresh layouts and plays
  the one forcing the most points (`MonteCarloSeat._choose`): a wide win survives layouts
  not sampled, and a narrow loss leaves an imperfect opponent more ways to go wrong.

Sampling, inference, solver, work limit and fallbacks are the Monte Carlo seat's, and so is
the fairness: only sampled layouts are ever solved. With every budget ``none`` it is
deterministic given what it sees.
"""

from __future__ import annotations

from geolab.bots.ranks.montecarlo import MonteCarloSeat
from geolab.errors import GeolabError


class FocusSeat(MonteCarloSeat):
    """Monte Carlo with layouts and budget set per decision kind.

    lead_k, lead_ms: layouts at most and CPU budget (ms) of a lead; follow_k, follow_ms: of an
    answer; discard_k, discard_ms: of a discard (and of a declaration); a budget of None means
    no clock (always all the layouts); tie_k: fresh layouts that tell apart leads or answers
    tied at the best win share by the points they force (0: none; `MonteCarloSeat._choose`);
    tie_within: win shares this close to the best count as tied;
    the rest as `MonteCarloSeat`.
    """

    name = "focus"

    def __init__(self, lead_k: int = 48, lead_ms: float | None = 12.0, follow_k: int = 48,
                 follow_ms: float | None = 12.0, discard_k: int = 4, discard_ms: float | None = 12.0,
                 tie_k: int = 16, tie_within: float = 0.0, cap_ms: float = 30.0, candidates: int = 3,
                 infer: float = 1.5, oversample: int = 4, seed: int = 0):
        if min(lead_k, follow_k, discard_k) < 1 or tie_k < 0:
            raise GeolabError("focus: lead_k, follow_k and discard_k must be at least 1, tie_k at least 0")
        super().__init__(k=max(lead_k, follow_k, discard_k), budget_ms=lead_ms, cap_ms=cap_ms,
                         candidates=candidates, infer=infer, oversample=oversample, seed=seed)
        self.limits = {"lead": (int(lead_k), lead_ms), "follow": (int(follow_k), follow_ms),
                       "discard": (int(discard_k), discard_ms), "declare": (int(discard_k), discard_ms)}
        self.tie_k, self.tie_within = int(tie_k), float(tie_within)

    def _limits(self, kind: str) -> tuple[int, float | None]:
        return self.limits[kind]


def policy(**params):
    """The seat as a batched policy (`make_policy("focus:lead_k=144")`)."""
    from geolab.games.ranks.batch import SeatPolicy

    return SeatPolicy(FocusSeat(**params))
