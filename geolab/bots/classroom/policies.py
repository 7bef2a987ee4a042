"""Discard policies for Class GeoPower Double Choice.

Each policy is batched: `act(obs, rng) -> positions`, where obs (see
`geolab.games.classroom.observations.observe`) holds a student's own sorted hand, the call and the number
of opponents, and nothing else. `tabulate` turns any deterministic policy into the lookup
table the batch engine plays from, and every policy gives its own table through
`discard_table(rules)` (what `geolab.games.classroom.game` asks of a class bot). `Student`
seats a policy at the reference engine (`geolab.game.Seat`).
"""

from __future__ import annotations

import pickle
from pathlib import Path

import numpy as np
from threadpoolctl import threadpool_limits

from geolab.cards import RANKS
from geolab.game import BatchBot
from geolab.games.classroom.batch import MAX_OPPONENTS, TABLE_SHAPE
from geolab.games.classroom.hands import HANDS, hand_index
from geolab.games.classroom.observations import observe
from geolab.games.classroom.rules import BOTTOMS_UP, TOP_DOG


def _kept(hands: np.ndarray) -> np.ndarray:
    """(n, 3 discards, 3 categories): the score each discard would leave."""
    r = RANKS[hands].astype(np.int64)
    return r.sum(axis=1, keepdims=True) - r


def _for_call(call, top_dog_pick, bottoms_up_pick) -> np.ndarray:
    return np.where(np.asarray(call) == TOP_DOG, top_dog_pick, bottoms_up_pick)


class Tabulated(BatchBot):
    """A policy's lookup table for the batch engine, made once per policy object (`tabulate`)
    and read-only. These policies see no rules, so `rules` does not change the table.
    ``random``: it discards at random (its table is all -1); ``opponents_seen``: the most
    opponents it tells apart (it is asked no further)."""

    random: bool = False
    opponents_seen: int = MAX_OPPONENTS

    def discard_table(self, rules=None) -> np.ndarray:
        cache = self.__dict__.setdefault("_tables", {})
        if "table" not in cache:
            table = tabulate(self)
            table.setflags(write=False)
            cache["table"] = table
        return cache["table"]


class Student:
    """A policy seated at the reference engine (`geolab.game.Seat`): asked a discard
    `Decision` (observation: a `View`; legal: the sorted hand), it answers with the card its
    batched `act` picks on the one-row observation."""

    def __init__(self, policy, rng: np.random.Generator | None = None):
        self.policy, self.rng = policy, rng if rng is not None else np.random.default_rng(0)

    def act(self, decision):
        position = int(self.policy.act(decision.observation.batch(), self.rng)[0])
        return decision.legal[position]


class RandomDiscard(Tabulated):
    """Discards one of the three cards uniformly: the floor every rule should beat."""

    name = "random"
    random = True

    def act(self, obs, rng):
        return rng.integers(0, obs["hand"].shape[1], len(obs["hand"]))


class AverageRank(Tabulated):
    """Top Dog: discard the card with the worst (highest) average rank, keeping the two lowest
    averages; Bottoms Up mirrors it. The rule a student would think of first."""

    name = "average"
    opponents_seen = 1

    def act(self, obs, rng=None):
        avg = RANKS[obs["hand"]].sum(axis=2)
        return _for_call(obs["call"], avg.argmax(axis=1), avg.argmin(axis=1))


class WorstCategory(Tabulated):
    """Guard against the unlucky GeoPower card: Top Dog, keep the pair whose worst category
    sum is lowest; Bottoms Up, keep the pair whose weakest category sum is highest."""

    name = "worst-category"
    opponents_seen = 1

    def act(self, obs, rng=None):
        kept = _kept(obs["hand"])
        return _for_call(obs["call"], kept.max(axis=2).argmin(axis=1), kept.min(axis=2).argmax(axis=1))


class OneCategory(Tabulated):
    """The teacher's rule read off the equilibrium: keep the two cards that are strongest
    together in one category — Top Dog, the pair with the lowest total in its best category;
    Bottoms Up, the pair with the highest total in its worst. A winner needs one extreme
    total, not three fair ones."""

    name = "one-category"
    opponents_seen = 1

    def act(self, obs, rng=None):
        kept = _kept(obs["hand"])
        return _for_call(obs["call"], kept.min(axis=2).argmin(axis=1), kept.max(axis=2).argmax(axis=1))


class TablePolicy(Tabulated):
    """Plays a lookup table (2 calls, 32 opponent counts, 19,600 hands) of discard positions
    in the sorted hand; the equilibrium policy is one."""

    def __init__(self, table: np.ndarray, name: str = "table"):
        self.table = np.asarray(table, dtype=np.int8)
        if self.table.shape != TABLE_SHAPE:
            raise ValueError(f"table must have shape {TABLE_SHAPE}")
        self.name = name

    def discard_table(self, rules=None) -> np.ndarray:
        return self.table

    def act(self, obs, rng=None):
        rows = hand_index(obs["hand"])
        opp = np.minimum(obs["opponents"], MAX_OPPONENTS)
        return self.table[obs["call"], opp, rows].astype(np.int64)


class LearnedDiscard(Tabulated):
    """A gradient-boosted model of P(win the round | kept scores per category, call,
    opponents), trained on simulated rounds; discards the card whose removal the model
    rates best. Learns only from play, never from the equilibrium tables.

    Training rounds: a random hand, a random call and group size, opponents' scores drawn
    from `field` (a policy) on independent random hands, and the outcome of all three
    discards under the same opponents and category (so each round gives three rows).
    """

    name = "learned"
    FORMAT = "geolab-class-learned/1"

    def __init__(self, n_rounds: int = 40_000, field=None, max_opponents: int = 15,
                 max_iter: int = 150, random_state: int = 0):
        self.n_rounds, self.field, self.max_opponents = n_rounds, field, max_opponents
        self.max_iter, self.random_state = max_iter, random_state
        self.opponents_seen = max_opponents
        self._tables = {}  # shared by copies (`copy.copy`): one table per fitted model

    def save(self, path) -> None:
        """Write the fitted model and how it was fitted (a pickle: load only files you trust)."""
        import sklearn

        if not hasattr(self, "model_"):
            raise ValueError("fit the model before saving it")
        field = self.field or AverageRank()
        state = {"format": self.FORMAT, "sklearn_version": sklearn.__version__,
                 "params": {"n_rounds": self.n_rounds, "field": field.name, "max_opponents": self.max_opponents,
                            "max_iter": self.max_iter, "random_state": self.random_state},
                 "model": self.model_}
        Path(path).write_bytes(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))

    @classmethod
    def load(cls, path) -> LearnedDiscard:
        """A fitted policy from `save` (ValueError naming the model if the file is not one)."""
        path = Path(path)
        if not path.is_file():
            raise ValueError(f"model {str(path)!r}: no such file (a model saved by LearnedDiscard.save)")
        try:
            state = pickle.loads(path.read_bytes())
        except Exception as error:  # any unpickling failure means: not a model file
            raise ValueError(f"model {str(path)!r}: not a saved class model ({error})") from None
        if not isinstance(state, dict) or state.get("format") != cls.FORMAT:
            raise ValueError(f"model {str(path)!r}: not a {cls.FORMAT} file")
        params = dict(state["params"])
        if params.pop("field") != AverageRank.name:
            raise ValueError(f"model {str(path)!r}: trained against a field this version cannot rebuild")
        policy = cls(**params)
        policy.model_ = state["model"]
        return policy

    def _features(self, kept, call, opponents):
        n = len(kept)
        return np.column_stack([kept, np.broadcast_to(call, (n,)), np.broadcast_to(opponents, (n,))])

    def _training_rows(self, rng):
        field = self.field or AverageRank()
        n = self.n_rounds
        call = rng.integers(0, 2, n)
        opponents = rng.integers(1, self.max_opponents + 1, n)
        category = rng.integers(0, 3, n)
        hands = np.sort(HANDS[rng.integers(0, len(HANDS), n)].astype(np.int64), axis=1)
        kept = _kept(hands)
        best_other = np.empty(n)
        for i in range(self.max_opponents):
            opp_hands = HANDS[rng.integers(0, len(HANDS), n)]
            obs = observe(opp_hands, call, opponents)
            pick = field.act(obs, rng)
            opp_score = _kept(obs["hand"])[np.arange(n), pick, category]
            active = i < opponents
            better = np.where(call == TOP_DOG, np.minimum(best_other, opp_score), np.maximum(best_other, opp_score))
            best_other = np.where(i == 0, opp_score, np.where(active, better, best_other))
        mine = kept[np.arange(n), :, category]  # (n, 3 discards)
        win = np.where(call[:, None] == TOP_DOG, mine <= best_other[:, None], mine >= best_other[:, None])
        x = np.concatenate([self._features(kept[:, d], call, opponents) for d in range(3)])
        return x, np.concatenate([win[:, d] for d in range(3)]).astype(int)

    def fit(self, rng=None):
        rng = rng if rng is not None else np.random.default_rng(self.random_state)
        from sklearn.ensemble import HistGradientBoostingClassifier  # slow to import; only this needs it

        x, y = self._training_rows(rng)
        self.model_ = HistGradientBoostingClassifier(max_iter=self.max_iter, random_state=self.random_state)
        with threadpool_limits(1):  # OpenMP threads thrash on shared cores; one is steadier
            self.model_.fit(x, y)
        self._tables = {}
        return self

    def act(self, obs, rng=None):
        kept = _kept(obs["hand"])
        opponents = np.minimum(obs["opponents"], self.max_opponents)
        x = np.concatenate([self._features(kept[:, d], obs["call"], opponents) for d in range(3)])
        # 1,225 kept pairs make far fewer distinct rows than hands: predict each once
        key = x @ np.array([100 * 100 * 2 * 32, 100 * 2 * 32, 2 * 32, 32, 1])
        _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
        with threadpool_limits(1):
            p = self.model_.predict_proba(x[first])[:, 1][inverse]
        return p.reshape(3, len(kept)).argmax(axis=0)


def tabulate(policy) -> np.ndarray:
    """The (2, 32, 19600) int8 table of a deterministic policy (all -1 for `random`).
    A policy that tells apart only up to `opponents_seen` opponents is asked only that far."""
    table = np.zeros(TABLE_SHAPE, dtype=np.int8)
    if policy.random:
        table[:] = -1
        return table
    if isinstance(policy, TablePolicy):
        return policy.table.copy()
    hands = HANDS.astype(np.int64)
    seen = min(policy.opponents_seen, MAX_OPPONENTS)
    counts = np.repeat(np.arange(1, seen + 1), len(hands))
    for call in (TOP_DOG, BOTTOMS_UP):
        picks = policy.act(observe(np.tile(hands, (seen, 1)), call, counts), None)
        table[call, 1 : seen + 1] = picks.reshape(seen, len(hands))
        table[call, seen + 1 :] = table[call, seen]
        table[call, 0] = table[call, 1]
    return table


POLICIES = {p.name: p for p in (RandomDiscard, AverageRank, WorstCategory, OneCategory, LearnedDiscard)}
