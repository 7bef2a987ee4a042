"""Training data by forced-action rollouts, and the fit of one model per decision kind.

The label of an action is what it is worth when the deal is then played out by a fixed
continuation policy (the planner heuristic by default) on both sides: for each sampled decision, the same
deal is replayed once per legal action, forcing that action and nothing else (the
continuation must be deterministic, so that every replay reaches the same decision; the
built-in heuristics and learned bots are). The outcome is the
deciding side's point margin, in units of a plain win. A model learns the *advantage* of an
action (its outcome minus the mean over the decision's actions), which is exactly what
choosing needs and removes the luck of the deal from the target.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import sklearn
from sklearn.linear_model import Ridge
from sklearn.metrics import r2_score
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import PolynomialFeatures, StandardScaler

import geolab.games.ranks.batch as rb
from geolab import __version__
from geolab.bots.ranks.learning.features import FEATURES, candidates, max_candidates, public
from geolab.bots.ranks.learning.model import LearnedModel
from geolab.bots.ranks.registry import BOTS
from geolab.common.seeding import int_seed
from geolab.errors import GeolabError
from geolab.game import BatchBot
from geolab.games.ranks.batch import KINDS, Leads
from geolab.games.ranks.rules import Rules

#: Games replayed together (one batch-engine chunk).
BATCH = 8192
#: The default continuation: the strongest plain heuristic when this was written.
CONTINUATION = "planner"
HELD_OUT = 0.2


def kinds_of(rules: Rules) -> list[str]:
    """The decision kinds these rules ask for."""
    return [k for k in KINDS if (k != "discard" or rules.discards) and (k != "declare" or rules.declarations)]


class Forcing(BatchBot):
    """The continuation policy, except at one decision per game, where it plays candidate j.

    The decision of game g is the `kind` decision at trick `trick[g]` of side `side[g]` (-1:
    whichever side makes it). With `record`, the decision's features are stored there.
    """

    def __init__(self, base, kind: str, trick: np.ndarray, side: np.ndarray, j: int, record: dict | None):
        self.base, self.kind, self.trick, self.side, self.j, self.record = base, kind, trick, side, j, record
        self.name = f"forced({base.name or 'policy'})"

    def act(self, obs, rng):
        action = self.base.act(obs, rng)
        if obs.kind != self.kind:
            return action
        g = obs.game
        rows = np.flatnonzero((self.trick[g] == obs.trick) & ((self.side[g] < 0) | (self.side[g] == obs.side)))
        if not len(rows):
            return action
        cand = candidates(obs.rules, public(obs).take(rows))
        if self.record is not None:
            games = g[rows]
            self.record["reached"][games] = True
            self.record["side"][games] = obs.side[rows]
            self.record["X"][games] = cand.X
            self.record["valid"][games] = cand.valid
        ok = cand.valid[:, self.j]
        r, j = rows[ok], self.j
        if obs.kind == "lead":
            card, cat, base = (np.array(a, np.int64, copy=True)
                               for a in (action.card, action.category,
                                         action.base if action.base is not None else obs.bases[:, 0]))
            card[r], cat[r], base[r] = cand.card[ok, j], cand.category[ok, j], cand.base[ok, j]
            return Leads(card, cat, base)
        action = np.array(action, copy=True)
        if obs.kind == "declare":
            action[r] = j == 1
        elif obs.kind == "follow":
            action[r] = cand.card[ok, j]
        else:  # discard card j, and the continuation's first choice among the other cards
            forced = cand.card[ok, j]
            first = np.where(action[r, 0] == forced, action[r, 1 % action.shape[1]], action[r, 0])
            action[r, 0] = forced
            if action.shape[1] > 1:
                action[r, 1] = first
        return action


@dataclass
class Decisions:
    """Labelled decisions of one kind: `X` (n, K, F), `valid` (n, K), `outcome` (n, K)."""

    kind: str
    X: np.ndarray
    valid: np.ndarray
    outcome: np.ndarray

    def __len__(self) -> int:
        return len(self.X)

    def take(self, rows) -> Decisions:
        return Decisions(self.kind, self.X[rows], self.valid[rows], self.outcome[rows])


def generate(rules: Rules, kind: str, states: int, seed: int, continuation: str = CONTINUATION) -> Decisions:
    """Sample `states` decisions of `kind` (one per game) and label every legal action."""
    rules.validate()
    base = BOTS.make(continuation, rules)
    K, F = max_candidates(rules, kind), len(FEATURES[kind])
    parts = []
    batches = np.random.SeedSequence([seed, KINDS.index(kind)]).spawn(-(-states // BATCH))
    for b, child in enumerate(batches):
        n = min(BATCH, states - b * BATCH)
        rng = np.random.default_rng(child)
        game_seed = int_seed(child)
        early = kind in ("discard", "declare")
        trick = np.zeros(n, np.int64) if early else rng.integers(0, rules.tricks, n)
        side = rng.integers(0, 2, n) if early else np.full(n, -1)
        record = {"reached": np.zeros(n, bool), "side": np.zeros(n, np.int64),
                  "X": np.zeros((n, K, F), np.float32), "valid": np.zeros((n, K), bool)}  # fmt: skip
        outcome = np.zeros((n, K))
        for j in range(K):
            policy = Forcing(base, kind, trick, side, j, record if j == 0 else None)
            played = rb.play(rules, (policy, policy), n, game_seed, chunk=n, threads=1)
            s = record["side"]
            margin = played.points[np.arange(n), s] - played.points[np.arange(n), 1 - s]
            outcome[:, j] = margin / rules.win_points[0]
        keep = record["reached"] & (record["valid"].sum(axis=1) >= 2)
        parts.append(Decisions(kind, record["X"][keep], record["valid"][keep], outcome[keep]))
    return Decisions(kind, *(np.concatenate([getattr(p, f) for p in parts]) for f in ("X", "valid", "outcome")))


def estimator(degree: int = 2, alpha: float = 1.0) -> Pipeline:
    """Polynomial terms of the readable features, standardised, ridge regression."""
    return Pipeline([
        ("terms", PolynomialFeatures(degree=degree, include_bias=False)),
        ("scale", StandardScaler()),
        ("ridge", Ridge(alpha=alpha)),
    ])  # fmt: skip


def _advantage(d: Decisions) -> np.ndarray:
    mean = (d.outcome * d.valid).sum(axis=1, keepdims=True) / d.valid.sum(axis=1, keepdims=True)
    return d.outcome - mean


def evaluate(est, d: Decisions) -> dict:
    """How the model's choices fare on labelled decisions, beside greedy's and the best's."""
    scores = np.full(d.valid.shape, -np.inf)
    scores[d.valid] = est.predict(d.X[d.valid])
    rows = np.arange(len(d))
    chosen = d.outcome[rows, scores.argmax(axis=1)]
    greedy_col = (d.X[:, :, FEATURES[d.kind].index("greedy_choice")] > 0.5) & d.valid
    greedy = d.outcome[rows, greedy_col.argmax(axis=1)] if d.kind != "declare" else \
        d.outcome[rows, d.X[:, 1, FEATURES["declare"].index("greedy_choice")].astype(int)]  # fmt: skip
    best = np.where(d.valid, d.outcome, -np.inf).max(axis=1)
    gain = chosen - greedy
    half = 1.96 * gain.std(ddof=1) / np.sqrt(len(gain)) if len(gain) > 1 else float("nan")
    adv = _advantage(d)
    return {
        "decisions": len(d),
        "best_action_rate": float(np.mean(chosen == best)),
        "greedy_best_action_rate": float(np.mean(greedy == best)),
        "margin_gain_over_greedy": float(gain.mean()),
        "margin_gain_ci": [float(gain.mean() - half), float(gain.mean() + half)],
        "advantage_r2": float(r2_score(adv[d.valid], scores[d.valid])),
    }


def fit(rules: Rules, samples: int, seed: int, continuation: str = CONTINUATION, degree: int = 2,
        alpha: float = 1.0, progress=None) -> LearnedModel:  # fmt: skip
    """Generate `samples` decisions per kind, fit one estimator per kind, score it held out."""
    if samples < 50:
        raise GeolabError(f"--samples must be at least 50, got {samples}")
    start = time.perf_counter()
    estimators, scores, sizes = {}, {}, {}
    for kind in kinds_of(rules):
        data = generate(rules, kind, samples, seed, continuation)
        order = np.random.default_rng(np.random.SeedSequence([seed, 99, KINDS.index(kind)])).permutation(len(data))
        cut = int(len(data) * (1 - HELD_OUT))
        train, test = data.take(np.sort(order[:cut])), data.take(np.sort(order[cut:]))
        spread = (np.where(train.valid, train.outcome, -np.inf).max(axis=1)
                  - np.where(train.valid, train.outcome, np.inf).min(axis=1))
        fit_on = train.take(np.flatnonzero(spread > 0))  # decisions where the action mattered
        est = estimator(degree, alpha).fit(fit_on.X[fit_on.valid], _advantage(fit_on)[fit_on.valid])
        estimators[kind] = est
        scores[kind] = evaluate(est, test)
        sizes[kind] = {"sampled": samples, "reached": len(data), "train": len(train),
                       "train_informative": len(fit_on), "held_out": len(test),
                       "rows": int(fit_on.valid.sum())}  # fmt: skip
        if progress:
            progress(kind, scores[kind])
    meta = {
        "geolab_version": __version__,
        "sklearn_version": sklearn.__version__,
        "seed": seed,
        "samples_per_kind": samples,
        "continuation": continuation,
        "estimator": {"degree": degree, "alpha": alpha, "steps": "PolynomialFeatures > StandardScaler > Ridge"},
        "label": "deciding side's point margin (in plain wins) after the action, continuation on both sides; "
                 "target = margin minus the decision's mean over its legal actions",
        "sizes": sizes,
        "held_out": scores,
        "train_seconds": round(time.perf_counter() - start, 2),
    }
    return LearnedModel(rules, estimators, meta)
