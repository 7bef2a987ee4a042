"""How likely a GeoDouble player is to win stage 2, and what a stage is worth to the match.

Two tables the declaration policies (`geolab.bots.geodouble.declare`) read:

**The win table** (`WinTable`, shipped as ``geolab/data/geodouble_declare.csv`` with
``geodouble_declare.json``). At base 1 on every trick a card is worth about its best rank over
the three categories (`BEST`), so a hand's strength is a weighted sum of the logs of its six
cards' best ranks, best card first (`strength`; the weights, fitted by logistic regression,
are in the json). Strength is cut into bins of equal count; each bin holds the chance the
side wins the stage

- ``lead``: when it deals and leads the first trick (and declares first);
- ``follow``: when it answers first, knowing nothing of the other's declaration;
- ``follow_declared`` / ``follow_silent``: when it answers first and the other (the dealer)
  declared / did not, **assuming the dealer declares exactly when its own ``lead`` chance is
  above 1/2** (`ASSUMED`);

and, for the dealer, how the other then answers (the same assumption one step on: the answerer
declares when its ``follow_declared`` or ``follow_silent`` chance is above 1/2):
``declared_reply`` = P(the other declares | the dealer declared), ``declared_reply_win`` =
P(the other declares and the dealer wins | the dealer declared); ``silent_reply``,
``silent_reply_win`` the same after a silent dealer. Every chance is an observed rate over
simulated stages of the trick bot against itself (greedy by default) on the Play the Ranks
batch engine, smoothed to rise with strength (``lead``, ``follow*``: weighted isotonic
regression). `fit` makes the table, `calibration` checks it on fresh deals; the script
``experiments/geodouble_declare_table.py`` regenerates the shipped files.

**The match value** (`match_values`): V[a, b], the chance of winning the match for a player
with a points against b at the start of a round, by dynamic programming over the scores: the
race is a coin flip (10 points, the winner deals), the stage goes as the win table says when
both players follow the assumed rule (`stage_outcomes`), the first to the target wins.
"""

from __future__ import annotations

import dataclasses
import json
from functools import lru_cache
from importlib import resources
from pathlib import Path

import numpy as np
from numba import njit

from geolab.cards import N_CARDS, RANKS
from geolab.common.counter_rng import GOLDEN, below_high, mix64, next64
from geolab.games.groups import masks
from geolab.games.ranks.rules import Rules as RanksRules

#: Each card's best rank over size, statehood and population (1 = best): its worth at base 1.
BEST = RANKS.min(axis=1).astype(np.int64)
TABLE_FILE, META_FILE = "geodouble_declare.csv", "geodouble_declare.json"
FORMAT = "geolab-geodouble-declare/1"
#: The declaration rule the table assumes of the other player, in words.
ASSUMED = ("the dealer declares when its lead chance is above 1/2; the answerer, when its chance given the "
           "dealer's declaration is above 1/2")
#: Fields of a stage's rules that change who wins (not what a win is worth): the table is
#: valid for rules that agree with its own on all of these.
PLAY_FIELDS = ("hand_size", "discards", "tricks", "bases", "base_mode", "lead_bases", "power_split",
               "discards_public", "first_lead", "hidden_lead", "win_tricks", "end_at", "last_trick_breaks_tie",
               "equal_distance")
COLUMNS = ("lead", "follow", "follow_declared", "follow_silent", "declared_reply", "declared_reply_win",
           "silent_reply", "silent_reply_win")
MONOTONE = ("lead", "follow", "follow_declared", "follow_silent")
#: Pseudo-counts pulling a sparse conditioned bin (``follow_declared``, ``follow_silent``)
#: towards the bin's ``follow`` rate before the isotonic smoothing.
PRIOR = 50.0


# ----- hands --------------------------------------------------------------------------------
def cards(mask: np.ndarray) -> np.ndarray:
    """bool (m, 50): the cards of each hand mask."""
    mask = np.asarray(mask, np.int64)
    return (mask[:, None] >> np.arange(N_CARDS)) & 1 == 1


def best_ranks(mask: np.ndarray, k: int) -> np.ndarray:
    """int (m, k): the best ranks of each hand's k best cards, best first (hands of k cards)."""
    mask = np.asarray(mask, np.int64)
    out = np.empty((len(mask), k), np.int16)
    step = 1 << 16  # bounded memory on large batches
    for i in range(0, len(mask), step):
        ranks = np.where(cards(mask[i:i + step]), BEST[None, :].astype(np.int16), np.int16(99))
        out[i:i + step] = np.sort(ranks, axis=1)[:, :k]
    return out


def strength(mask: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """float (m,): a hand's strength, ``log(best ranks, best first) @ weights`` (higher: stronger)."""
    return np.log(best_ranks(mask, len(weights))) @ weights


# ----- the win table --------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class WinTable:
    """Stage win chances by strength bin (module docstring). ``edges`` (bins + 1,) bound the
    bins (a strength below the first or above the last falls in the end bin); ``counts`` hold
    the simulated stages behind each column's bins; ``meta`` how it was made."""

    weights: np.ndarray
    edges: np.ndarray
    columns: dict
    counts: dict
    rules: RanksRules
    meta: dict

    def bins(self, s: np.ndarray) -> np.ndarray:
        return np.clip(np.searchsorted(self.edges, s, side="right") - 1, 0, len(self.edges) - 2)

    def strength(self, mask: np.ndarray) -> np.ndarray:
        return strength(mask, self.weights)

    def lookup(self, column: str, mask: np.ndarray) -> np.ndarray:
        """``column`` of each hand's bin."""
        return self.columns[column][self.bins(self.strength(mask))]

    def estimate(self, hand: np.ndarray, leads: np.ndarray, other: np.ndarray) -> np.ndarray:
        """The stage win chance of each row: ``lead`` when it leads; else ``follow_declared``,
        ``follow_silent`` or ``follow`` as the other declared, did not, or has not said."""
        b = self.bins(self.strength(hand))
        c = self.columns
        follow = np.where(other == 1, c["follow_declared"][b], np.where(other == 0, c["follow_silent"][b],
                                                                         c["follow"][b]))
        return np.where(leads, c["lead"][b], follow)

    def replies(self, hand: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """For dealers: (declared_reply, declared_reply_win, silent_reply, silent_reply_win)."""
        b = self.bins(self.strength(hand))
        return tuple(self.columns[k][b] for k in ("declared_reply", "declared_reply_win", "silent_reply",
                                                  "silent_reply_win"))

    def fits(self, rules: RanksRules) -> bool:
        """Are these stage rules ones the table was made for (same play, `PLAY_FIELDS`)?"""
        return all(getattr(rules, f) == getattr(self.rules, f) for f in PLAY_FIELDS)

    def check(self, rules: RanksRules, who: str) -> None:
        if not self.fits(rules):
            differ = [f for f in PLAY_FIELDS if getattr(rules, f) != getattr(self.rules, f)]
            raise ValueError(f"{who}: its win table was fitted for the {self.rules.name} stage; these stage rules "
                             f"differ in {', '.join(differ)} (fit one: experiments/geodouble_declare_table.py)")

    # -- files
    def frame(self):
        import pandas as pd

        data = {"bin": np.arange(len(self.edges) - 1), "low": self.edges[:-1], "high": self.edges[1:]}
        for k in COLUMNS:
            if k in self.counts:
                data[f"n_{k}"] = self.counts[k]
            data[k] = self.columns[k]
        return pd.DataFrame(data)

    def save(self, folder: Path) -> tuple[Path, Path]:
        folder = Path(folder)
        table, meta = folder / TABLE_FILE, folder / META_FILE
        self.frame().to_csv(table, index=False, float_format="%.6g")
        meta.write_text(json.dumps({**self.meta, "format": FORMAT, "weights": [float(w) for w in self.weights],
                                    "rules": dataclasses.asdict(self.rules)}, indent=1, default=_plain) + "\n")
        return table, meta

    @classmethod
    def read(cls, table_text: str, meta_text: str) -> WinTable:
        import io

        import pandas as pd

        meta = json.loads(meta_text)
        if meta.get("format") != FORMAT:
            raise ValueError(f"win table: format {meta.get('format')!r}, expected {FORMAT!r}")
        df = pd.read_csv(io.StringIO(table_text))
        edges = np.append(df["low"].to_numpy(float), df["high"].to_numpy(float)[-1])
        columns = {k: df[k].to_numpy(float) for k in COLUMNS}
        counts = {k: df[f"n_{k}"].to_numpy(np.int64) for k in COLUMNS if f"n_{k}" in df}
        fields = {f: tuple(v) if isinstance(v, list) else v for f, v in meta["rules"].items()}
        return cls(np.array(meta["weights"], float), edges, columns, counts, RanksRules(**fields).validate(), meta)


def _plain(value):
    return value.item() if hasattr(value, "item") else str(value)


@lru_cache(maxsize=1)
def shipped() -> WinTable:
    """The win table shipped in ``geolab/data`` (greedy against greedy, the geodouble stage)."""
    data = resources.files("geolab.data")
    return WinTable.read(data.joinpath(TABLE_FILE).read_text(), data.joinpath(META_FILE).read_text())


# ----- fitting --------------------------------------------------------------------------------
def logistic(x: np.ndarray, y: np.ndarray, iterations: int = 30) -> np.ndarray:
    """Maximum-likelihood logistic regression by Newton's method: coefficients of [1, x]."""
    a = np.column_stack([np.ones(len(x)), x])
    w = np.zeros(a.shape[1])
    for _ in range(iterations):
        p = 1 / (1 + np.exp(-(a @ w)))
        grad = a.T @ (y - p)
        hess = (a * (p * (1 - p))[:, None]).T @ a + 1e-9 * np.eye(a.shape[1])
        step = np.linalg.solve(hess, grad)
        w += step
        if np.abs(step).max() < 1e-10:
            break
    return w


def isotonic(y: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """The non-decreasing sequence nearest `y` in weighted least squares (pool adjacent violators)."""
    values, weights, sizes = [], [], []
    for v, w in zip(np.asarray(y, float), np.maximum(np.asarray(weight, float), 1e-12)):
        values.append(v), weights.append(w), sizes.append(1)
        while len(values) > 1 and values[-2] > values[-1]:
            w2 = weights[-2] + weights[-1]
            values[-2] = (values[-2] * weights[-2] + values[-1] * weights[-1]) / w2
            weights[-2], sizes[-2] = w2, sizes[-2] + sizes[-1]
            values.pop(), weights.pop(), sizes.pop()
    return np.repeat(values, sizes)


class Stages:
    """Simulated stages, one row per deal: each side's kept cards and discards (masks, (n, 2)),
    the first lead and the winner."""

    def __init__(self, kept: np.ndarray, discards: np.ndarray, first: np.ndarray, winner: np.ndarray):
        self.kept, self.discards, self.first, self.winner = kept, discards, first, winner

    @classmethod
    def play(cls, rules: RanksRules, tricks: str, games: int, seed: int) -> Stages:
        """`games` stages of the trick bot `tricks` (a Play the Ranks bot spec) on both sides."""
        from geolab.bots.ranks.registry import BOTS
        from geolab.games.ranks import batch

        bots = [BOTS.make(tricks, rules), BOTS.make(tricks, rules)]
        kept, discards, first, winner = [], [], [], []
        for p in batch.run(rules, bots, games, seed):
            d = masks(p.discards)
            kept.append(masks(p.hands) & ~d)
            discards.append(d)
            first.append(p.first_lead.astype(np.int64))
            winner.append(p.winner.astype(np.int64))
        return cls(*(np.concatenate(x) for x in (kept, discards, first, winner)))

    def sides(self):
        """(leader's kept, follower's kept, leader won)."""
        n = np.arange(len(self.first))
        return self.kept[n, self.first], self.kept[n, 1 - self.first], self.winner == self.first


def _rates(bins: np.ndarray, y: np.ndarray, count: int, where=None) -> tuple[np.ndarray, np.ndarray]:
    if where is not None:
        bins, y = bins[where], y[where]
    n = np.bincount(bins, minlength=count)
    s = np.bincount(bins, weights=y.astype(float), minlength=count)
    return s, n


def fit(rules: RanksRules | None = None, tricks: str = "greedy", games: int = 2_000_000, seed: int = 20260,
        bins: int = 40) -> WinTable:
    """The win table from `games` simulated stages of `tricks` against itself (module docstring)."""
    rules = rules or RanksRules.preset("geodouble")
    st = Stages.play(rules, tricks, games, seed)
    lead_kept, follow_kept, lead_won = st.sides()
    k = rules.tricks
    # strength: logistic regression of the win on the log best ranks (and who leads), both sides
    x = np.log(np.concatenate([best_ranks(lead_kept, k), best_ranks(follow_kept, k)])).astype(float)
    lead = np.concatenate([np.ones(games), np.zeros(games)])
    y = np.concatenate([lead_won, ~lead_won]).astype(float)
    coef = logistic(np.column_stack([x, lead]), y)
    weights = coef[1:1 + k]
    s_lead, s_follow = np.log(best_ranks(lead_kept, k)) @ weights, np.log(best_ranks(follow_kept, k)) @ weights
    edges = np.quantile(np.concatenate([s_lead, s_follow]), np.linspace(0, 1, bins + 1))
    edges[0], edges[-1] = edges[0] - 1e-9, edges[-1] + 1e-9
    table = WinTable(weights, edges, {}, {}, rules, {})
    b_lead, b_follow = table.bins(s_lead), table.bins(s_follow)
    columns, counts = {}, {}

    def monotone(name, s, n, prior=None):
        rate = (s + PRIOR * prior) / (n + PRIOR) if prior is not None else s / np.maximum(n, 1)
        columns[name], counts[name] = isotonic(rate, n + (PRIOR if prior is not None else 0)), n

    monotone("lead", *_rates(b_lead, lead_won, bins))
    monotone("follow", *_rates(b_follow, ~lead_won, bins))
    declared = columns["lead"][b_lead] > 0.5  # the dealer, by the assumed rule
    monotone("follow_declared", *_rates(b_follow, ~lead_won, bins, declared), columns["follow"])
    monotone("follow_silent", *_rates(b_follow, ~lead_won, bins, ~declared), columns["follow"])
    for said, name in ((True, "declared"), (False, "silent")):
        reply = columns["follow_declared" if said else "follow_silent"][b_follow] > 0.5
        s, n = _rates(b_lead, reply, bins)
        w, _ = _rates(b_lead, reply & lead_won, bins)
        columns[f"{name}_reply"], columns[f"{name}_reply_win"] = s / np.maximum(n, 1), w / np.maximum(n, 1)
    meta = {
        "what": "GeoDouble stage-2 win chance by hand strength (geolab.bots.geodouble.estimate)",
        "tricks": tricks, "games": games, "seed": seed, "bins": bins, "intercept": float(coef[0]),
        "lead_coefficient": float(coef[-1]), "strength": "log(best ranks of the 6 kept cards, best first) @ weights",
        "assumed": ASSUMED, "prior": PRIOR,
        "regenerate": f"python experiments/geodouble_declare_table.py --games {games} --seed {seed} --bins {bins} "
                      f"--tricks {tricks}",
    }
    return WinTable(weights, edges, columns, counts, rules, meta)


def calibration(table: WinTable, stages: Stages, groups: int = 10):
    """Predicted against observed win rates on `stages` (fresh deals): one row per situation
    (lead, follow, follow_declared, follow_silent) and decile of the prediction, with the
    situation's Brier score, log loss and expected calibration error (ECE: the mean absolute
    gap between predicted and observed, weighted by the rows of each decile)."""
    import pandas as pd

    lead_kept, follow_kept, lead_won = stages.sides()
    p_lead = table.lookup("lead", lead_kept)
    declared = p_lead > 0.5
    p_decl = table.lookup("follow_declared", follow_kept)
    p_silent = table.lookup("follow_silent", follow_kept)
    cases = {
        "lead": (p_lead, lead_won),
        "follow": (table.lookup("follow", follow_kept), ~lead_won),
        "follow_declared": (p_decl[declared], ~lead_won[declared]),
        "follow_silent": (p_silent[~declared], ~lead_won[~declared]),
        "second, given the declaration": (np.where(declared, p_decl, p_silent), ~lead_won),
    }
    rows, summary = [], []
    for name, (p, y) in cases.items():
        y = y.astype(float)
        order = np.argsort(p, kind="stable")
        parts = np.array_split(order, groups)
        gaps = []
        for g, part in enumerate(parts):
            if not len(part):
                continue
            pred, obs = p[part].mean(), y[part].mean()
            half = 1.96 * np.sqrt(max(obs * (1 - obs), 1e-12) / len(part))
            rows.append({"situation": name, "decile": g + 1, "n": len(part), "predicted": pred, "observed": obs,
                         "observed_low": obs - half, "observed_high": obs + half})
            gaps.append(abs(pred - obs) * len(part))
        q = np.clip(p, 1e-6, 1 - 1e-6)
        base = y.mean()
        summary.append({"situation": name, "n": len(y), "observed": base, "predicted": p.mean(),
                        "brier": float(np.mean((p - y) ** 2)), "brier_constant": float(base * (1 - base)),
                        "log_loss": float(-np.mean(y * np.log(q) + (1 - y) * np.log(1 - q))),
                        "ece": float(sum(gaps) / len(y))})
    return pd.DataFrame(rows), pd.DataFrame(summary)


# ----- what a stage is worth to the match ----------------------------------------------------
def stage_outcomes(table: WinTable) -> np.ndarray:
    """(2, 3): P(the dealer wins, loses) x (nobody, one, both declared), when both follow the
    assumed rule, over the table's dealer hands (each bin weighted by its count)."""
    c = table.columns
    n = table.counts.get("lead", np.ones(len(c["lead"])))
    p, out = c["lead"], np.zeros((2, 3))
    declared = p > 0.5
    for d in (0, 1):
        name = "declared" if d else "silent"
        q, w = c[f"{name}_reply"], c[f"{name}_reply_win"]
        m = n * (declared == d)
        win_both, win_one = w, np.clip(p - w, 0, 1)
        lose_both, lose_one = np.clip(q - w, 0, 1), np.clip(1 - p - q + w, 0, 1)
        out[0, d + 1] += (m * win_both).sum()
        out[0, d] += (m * win_one).sum()
        out[1, d + 1] += (m * lose_both).sum()
        out[1, d] += (m * lose_one).sum()
    return out / out.sum()


def match_values(target: int, race_points: int, win_points: tuple[int, int, int], outcomes: np.ndarray,
                 race: float = 0.5) -> np.ndarray:
    """V (target + pad, target + pad): the chance of winning the match with a points against b at
    the start of a round (1 once a >= target, 0 once b >= target; the pad leaves room for
    the most a round can add). A round: the race, won with chance `race`, is worth
    `race_points` and its winner deals (reaching the target ends the match at once); then the
    stage, with ``outcomes[0, k]`` and ``outcomes[1, k]`` the dealer's chances of winning and
    of losing it with k players declared (`stage_outcomes`), worth ``win_points[k]`` to its
    winner. Every round adds points, so V is filled from the highest totals down."""
    return _match_values(int(target), int(race_points), tuple(int(p) for p in win_points),
                         tuple(map(float, np.asarray(outcomes, float).ravel())), float(race))


@lru_cache(maxsize=32)
def _match_values(target, race_points, win_points, outcomes, race):
    o = np.array(outcomes).reshape(2, 3)
    pad = race_points + max(win_points) + 1
    size = target + pad
    v = np.zeros((size, size))
    v[target:, :] = 1.0  # a player at the target has won (the other cannot be there too)
    for total in range(2 * (target - 1), -1, -1):  # every round adds points: fill higher totals first
        for a in range(min(total, target - 1), max(-1, total - target), -1):
            b = total - a
            if b >= target:
                continue

            def stage(me, them, deals):
                # deals: the player deals (o[0] = dealer wins) or answers (dealer wins = player loses)
                win, lose = (o[0], o[1]) if deals else (o[1], o[0])
                return sum(win[k] * v[me + win_points[k], them] + lose[k] * v[me, them + win_points[k]]
                           for k in range(3))

            a2, b2 = a + race_points, b + race_points
            won_race = 1.0 if a2 >= target else stage(a2, b, True)
            lost_race = 0.0 if b2 >= target else stage(a, b2, False)
            v[a, b] = race * won_race + (1 - race) * lost_race
    v.setflags(write=False)  # cached: shared by every caller
    return v


def values_for(rules, table: WinTable) -> np.ndarray:
    """`match_values` for GeoDouble rules (their target, race points and stage points)."""
    return match_values(rules.target, rules.race_points, rules.stage.win_points, stage_outcomes(table))


# ----- Monte Carlo deals -----------------------------------------------------------------------
@njit(cache=True, nogil=True)
def sample_hands(own, keys, samples, size, out_masks, out_keys):
    """For each row i: `samples` hands of `size` cards drawn from the cards not in own[i]
    (out_masks (m, samples)) and a game key for each (out_keys), from keys[i] alone."""
    pool = np.empty(N_CARDS, np.int64)
    for i in range(own.shape[0]):
        k = 0
        for c in range(N_CARDS):
            if not (own[i] >> c) & 1:
                pool[k] = c
                k += 1
        x = mix64(keys[i] ^ GOLDEN)
        for j in range(samples):
            mask = 0
            for t in range(size):
                x = next64(x)
                r = t + below_high(x, k - t)
                pool[t], pool[r] = pool[r], pool[t]
                mask |= 1 << pool[t]
            out_masks[i, j] = mask
            x = next64(x)
            out_keys[i, j] = x


@njit(cache=True, nogil=True)
def sorted_cards(masks, out):
    """out (n, 2, size): the cards of masks (n, 2), in card order."""
    for g in range(masks.shape[0]):
        for s in range(2):
            m, j = masks[g, s], 0
            while m:
                c = 0
                while not (m >> c) & 1:
                    c += 1
                out[g, s, j] = c
                m &= ~(1 << c)
                j += 1
