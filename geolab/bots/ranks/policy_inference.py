"""Policy-based inference (Rebstock et al. 2019): how likely a sampled opponent hand makes the
opponent's observed play, under a learned policy model.

For each past decision of the opponent (its leads and answers, read from the public history)
the hand it held then is rebuilt on every sampled layout (the sampled cards now + the cards it
has played since, as `geolab.bots.ranks.montecarlo.play_log_likelihood` does), the learned
model scores every legal action of that decision from the opponent's side, and the layout
gains the log-probability of the action actually played under a softmax of those scores at
temperature `temperature`. Only public play and the sampled cards are read.

The features are computed from the opponent's side of the table with two approximations: its
own discards are unknown to us (so they count among the cards it has not seen), and the
features' greedy choice is greedy's on the rebuilt hand. One model call per past decision
scores all layouts at once (the feature kernels take one trick at a time).
"""

from __future__ import annotations

import numpy as np

from geolab.bots.ranks.learned import LearnedPolicy
from geolab.bots.ranks.learning.features import candidates, public
from geolab.games.groups import masks
from geolab.games.ranks.reference import View


class PastDecision:
    """The batch `Observation` the opponent saw at a past decision, one row per layout: the
    fields `geolab.bots.ranks.learning.features.public` and the greedy policy read."""

    def __init__(self, view: View, kind: str, trick: int, hands: np.ndarray, lead: tuple | None):
        m, rules, opp = len(hands), view.rules, 1 - view.side
        self.rules, self.kind, self.trick = rules, kind, trick
        self.side = np.full(m, opp, np.int8)
        self.hand = hands
        self.discards = np.zeros(m, np.int64)  # the opponent's own: hidden from us
        mine = sum(1 << c for c in view.discards) if rules.discards_public else 0
        self.opponent_discards = np.full(m, mine, np.int64) if rules.discards_public else None
        played, won = np.zeros(2, np.int64), np.zeros(2, np.int64)
        for t in view.history[:trick]:
            played[t.leader] |= 1 << t.lead
            played[1 - t.leader] |= 1 << t.follow
            if t.winner in (0, 1):
                won[t.winner] += 1
        self.played, self.tricks_won = np.tile(played, (m, 1)), np.tile(won, (m, 1))
        self.declarations = np.tile([-1 if d is None else int(d) for d in view.declarations], (m, 1))
        self.power_bases = None if view.power_bases is None else np.tile(np.array(view.power_bases, np.int8), (m, 1))
        self.bases = self.lead_category = self.lead_base = self.lead_card = None
        if kind == "lead":
            self.bases = np.tile(np.array(rules.allowed_bases(trick, view.power_bases), np.int8), (m, 1))
        else:
            card, category, base = lead
            self.lead_category, self.lead_base = np.full(m, category, np.int8), np.full(m, base, np.int8)
            self.lead_card = None if rules.hidden_lead else np.full(m, card, np.int8)

    def __len__(self) -> int:
        return len(self.hand)


def policy_log_likelihood(view: View, held_now: np.ndarray, model: LearnedPolicy, temperature: float) -> np.ndarray:
    """Log-likelihood of the opponent's observed leads and answers on each sampled hand
    (rows of `held_now`), under a softmax of `model`'s action scores at `temperature`."""
    opp, rules = 1 - view.side, view.rules
    m = len(held_now)
    logp = np.zeros(m)
    held = masks(held_now)
    later = 0
    estimator = model.model_for(rules)
    for leader, lead, k, b, follow, j in reversed(view.plays()):
        played = lead if leader == opp else follow
        hands = held | later | (1 << played)
        kind = "lead" if leader == opp else "follow"
        obs = PastDecision(view, kind, j, hands, None if kind == "lead" else (lead, k, b))
        cand = candidates(rules, public(obs))
        scores = estimator.scores(kind, cand) / temperature
        chosen = cand.card == played
        if kind == "lead":
            chosen &= (cand.category == k) & (cand.base == b)
        top = scores.max(axis=1)
        total = top + np.log(np.exp(scores - top[:, None]).sum(axis=1))
        logp += np.where(chosen, scores, 0.0).sum(axis=1) - total
        later |= 1 << played
    return logp
