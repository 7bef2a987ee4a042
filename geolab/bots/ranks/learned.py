"""The learned Play the Ranks bot: score every legal action with a fitted model, take the best.

`LearnedPolicy(model=PATH)` plays a model from `geolab train ranks`; without a path it plays
the small model geolab ships for the preset being played (``geolab/data/models/``). A model
trained for other rules is refused (`ModelError`) at the first decision. Decisions are
deterministic: equal scores go to the first candidate (lowest card, then category, base).
"""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np

from geolab.bots.ranks.learning import model as models
from geolab.bots.ranks.learning.features import candidates, public
from geolab.game import BatchBot
from geolab.games.ranks.batch import Leads, Observation
from geolab.games.ranks.rules import Rules


class LearnedPolicy(BatchBot):
    """Batched argmax over the candidates' predicted advantage (see `geolab.bots.ranks.learning`)."""

    thread_safe = True

    def __init__(self, model: str | None = None):
        if model is not None and not models.sidecar(Path(model).with_suffix(".joblib")).is_file():
            raise models.ModelError(f"no learned model at {model} (a .joblib and its .json from `geolab train ranks`)")
        self.path = model
        self.name = "learned" if model is None else f"learned:model={model}"
        self._models: dict[Rules, models.LearnedModel] = {}
        self._lock = threading.Lock()

    def model_for(self, rules: Rules) -> models.LearnedModel:
        with self._lock:
            if rules not in self._models:
                path = models.default_path(rules) if self.path is None else self.path
                self._models[rules] = models.load(path, rules)
            return self._models[rules]

    def act(self, obs: Observation, rng):
        rules = obs.rules
        cand = candidates(rules, public(obs))
        scores = self.model_for(rules).scores(obs.kind, cand)
        rows = np.arange(len(obs))
        if obs.kind == "discard":
            order = np.argsort(-scores, axis=1, kind="stable")[:, : rules.discards]
            return np.take_along_axis(cand.card, order, axis=1)
        best = scores.argmax(axis=1)
        if obs.kind == "declare":
            return best == 1
        if obs.kind == "follow":
            return cand.card[rows, best]
        return Leads(cand.card[rows, best], cand.category[rows, best], cand.base[rows, best])

    def __repr__(self) -> str:
        return self.name
