"""A learned set policy for Jumbled GeoPower Choice: an action-value model over hand-crafted
features, trained on simulated rounds.

`Learned().fit(rules)` trains one; `save` and `Learned.load` keep it (a pickle with its
training metadata: load only files you trust). geolab ships one small model,
`DEFAULT_MODEL` (``geolab/data/models/jumbled-learned.pkl``, made by
``python experiments/jumbled_learned_model.py``), which the registry's ``learned`` bot plays
unless given ``model=PATH``: building that bot never trains.
"""

from __future__ import annotations

import functools
import pickle
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import numpy as np

from geolab.bots.jumbled.callers import RandomCall
from geolab.bots.jumbled.heuristics import Heuristic
from geolab.cards import RANKS
from geolab.errors import GeolabError
from geolab.games.jumbled.batch import play_round_batch
from geolab.games.jumbled.observations import Observation
from geolab.games.jumbled.rules import TOP_DOG, Rules


def _features(obs: Observation) -> tuple[np.ndarray, np.ndarray]:
    """Features of every (row, candidate mask) pair and the legal mask (R, 2**H).

    Ranks are mirrored under Bottoms Up so that lower is better in every column.
    """
    r = obs.rules
    H = r.cards_dealt
    legal = obs.legal_mask()
    R, A = legal.shape
    calls = obs.call[obs.game].astype(int)
    rk = RANKS[obs.hand].astype(float)  # (R, H, 3)
    rk = np.where(calls[:, None, None] == TOP_DOG, rk, 51 - rk)
    p = obs.probs()
    e = (rk * p[:, None, :]).sum(axis=2)  # (R, H)
    bits = ((np.arange(A)[:, None] >> np.arange(H)[None, :]) & 1).astype(float)  # (A, H)
    free = 1 - ((obs.used[:, None].astype(np.int64) >> np.arange(H)[None, :]) & 1)  # (R, H)
    k = bits.sum(axis=1)
    cat_tot = np.einsum("ah,rhc->rac", bits, rk)  # (R, A, 3)
    possible = p > 0
    worst = np.where(possible[:, None, :], cat_tot, -np.inf).max(axis=2)
    exp_tot = cat_tot @ p[..., None]
    rest = free[:, None, :] * (1 - bits[None])  # cards kept after this choice
    n_rest = rest.sum(axis=2)
    rest_mean = (rest * e[:, None, :]).sum(axis=2) / np.maximum(n_rest, 1)
    rest_min = np.where(rest > 0, e[:, None, :], 99).min(axis=2)
    shown = (obs.cards[obs.game] >= 0).sum(axis=(1, 3))  # (R, P) cards shown per seat
    opp_small = ((shown < obs.set_index * r.max_cards_per_set).sum(axis=1)
                 - (shown[np.arange(R), obs.seat] < obs.set_index * r.max_cards_per_set))
    cols = [
        np.broadcast_to(calls[:, None], (R, A)), np.full((R, A), obs.set_index),
        np.broadcast_to(k[None], (R, A)), exp_tot[..., 0] / np.maximum(k, 1)[None], worst,
        cat_tot.min(axis=2), rest_mean, rest_min, n_rest,
        np.broadcast_to(opp_small[:, None] / (r.players - 1), (R, A)),
        np.full((R, A), r.players),
    ]
    return np.stack([np.asarray(c, float) for c in cols], axis=2), legal


class _Explorer:
    """Data collection: the base policy everywhere except one random set per round, where a
    random legal choice is taken and its features are logged."""

    name = "explorer"

    def __init__(self, base, explore_at: np.ndarray):
        self.base, self.explore_at, self.log = base, explore_at, []

    def act(self, obs, rng):
        out = self.base.act(obs, rng)
        pick = self.explore_at[obs.game] == obs.set_index
        if pick.any():
            X, legal = _features(obs)
            noise = rng.random(legal.shape) * legal
            choice = noise.argmax(axis=1)
            out = np.where(pick, choice, out)
            rows = np.flatnonzero(pick)
            self.log.append((obs.game[rows], obs.seat[rows], X[rows, choice[rows]]))
        return out


@dataclass
class Learned:
    """A fitted action-value model: gradient-boosted trees predict the round margin (own team's
    points minus the best rival's) of a set choice from hand-crafted features, trained on
    simulated rounds where the rest of the table plays ``base``; acts greedily on it."""

    base: Heuristic = field(default_factory=Heuristic)
    rounds: int = 20000
    max_iter: int = 100
    random_state: int = 0
    name: str = "learned"

    def fit(self, rules: Rules) -> Learned:
        from sklearn.ensemble import HistGradientBoostingRegressor
        from threadpoolctl import threadpool_limits

        rules = rules.validate()
        rng = np.random.default_rng(self.random_state)
        from geolab.games.jumbled.batch import deal

        X, y = [], []
        team = np.array(rules.team_of)
        for _ in range(max(1, self.rounds // 4096)):
            n = min(4096, self.rounds)
            hands, order = deal(rules, rng, n)
            explorer = _Explorer(self.base, rng.integers(0, rules.sets_per_round, n))
            seats = [explorer] + [self.base] * (rules.players - 1)
            rnd = play_round_batch(rules, seats, [RandomCall()] * rules.players, hands, order,
                                   np.zeros((n, rules.players), np.int64),
                                   np.zeros(n, np.int64), 0, rng)
            pts = rnd.points().astype(float)
            team_pts = np.stack([pts[:, team == t].sum(axis=1) for t in range(rules.n_teams)], 1)
            for g, seat, feats in explorer.log:
                mine = team_pts[g, team[seat]]
                rivals = np.where(np.arange(rules.n_teams)[None] == team[seat][:, None], -np.inf, team_pts[g])
                X.append(feats)
                y.append(mine - rivals.max(axis=1))
        with threadpool_limits(1):  # small data: threads only wait on each other (and on the lab's workers)
            self.model_ = HistGradientBoostingRegressor(max_iter=self.max_iter, random_state=self.random_state).fit(
                np.concatenate(X), np.concatenate(y))
        self.rules_ = rules
        return self

    def act(self, obs: Observation, rng: np.random.Generator) -> np.ndarray:
        if not hasattr(self, "model_"):
            raise GeolabError("the learned bot must be fitted (Learned().fit(rules)) before it plays")
        from threadpoolctl import threadpool_limits

        X, legal = _features(obs)
        R, A, F = X.shape
        with threadpool_limits(1):
            q = self.model_.predict(X.reshape(R * A, F)).reshape(R, A)
        return np.where(legal, q, -np.inf).argmax(axis=1)

    def save(self, path, **extra) -> None:
        """Pickle the fitted model with its training metadata (``extra`` adds to it)."""
        import sklearn

        from geolab import __version__

        meta = {"format": MODEL_FORMAT, "rules": self.rules_.to_spec(), "rounds": self.rounds,
                "max_iter": self.max_iter, "random_state": self.random_state, "base": self.base.name,
                "sklearn_version": sklearn.__version__, "geolab_version": __version__, **extra}
        with open(path, "wb") as f:
            pickle.dump({"model": self.model_, "meta": meta}, f, protocol=pickle.HIGHEST_PROTOCOL)

    @classmethod
    def load(cls, path=None, name: str = "learned") -> Learned:
        """A fitted bot from a file `save` wrote (default: the shipped `DEFAULT_MODEL`); a
        missing or unreadable file is a `GeolabError` naming it."""
        model, meta = _read(str(Path(path) if path is not None else DEFAULT_MODEL))
        bot = cls(rounds=int(meta["rounds"]), max_iter=int(meta["max_iter"]),
                  random_state=int(meta["random_state"]), name=name)
        bot.model_, bot.meta_ = model, meta
        bot.rules_ = Rules.from_spec(meta["rules"])
        return bot


MODEL_FORMAT = "geolab-learned-jumbled/1"
DEFAULT_MODEL = Path(str(resources.files("geolab.data").joinpath("models", "jumbled-learned.pkl")))


@functools.lru_cache(maxsize=8)
def _read(path: str):
    """(model, meta) of a saved model, read once per process (the model is only read from)."""
    try:
        with open(path, "rb") as f:
            data = pickle.load(f)
    except OSError as error:
        raise GeolabError(f"no learned Jumbled model at {path} ({error.strerror})") from None
    except Exception as error:  # not a pickle, or one of another format
        raise GeolabError(f"{path} is not a learned Jumbled model ({type(error).__name__})") from None
    if not isinstance(data, dict) or not isinstance(data.get("meta"), dict) or "model" not in data \
            or data["meta"].get("format") != MODEL_FORMAT:
        raise GeolabError(f"{path} is not a learned Jumbled model (format {MODEL_FORMAT})")
    return data["model"], data["meta"]
