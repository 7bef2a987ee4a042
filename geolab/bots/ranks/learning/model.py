"""A learned model on disk: one scikit-learn estimator per decision kind, plus its metadata.

`path.joblib` holds the estimators; `path.json` beside it holds the training metadata (rules,
seed, data size, held-out scores, geolab version, feature names). Loading reads the JSON
first, so a model trained for other rules or other features is refused with a clear error
before anything is unpickled. Load only model files you trust (joblib is pickle).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import joblib
import numpy as np
from numba import njit

from geolab import __version__
from geolab.bots.ranks.learning.features import FEATURES, Candidates
from geolab.errors import GeolabError
from geolab.games.ranks.rules import PRESETS, Rules

FORMAT = "geolab-learned-ranks/1"


class ModelError(GeolabError):
    """A learned-model file that is missing, malformed, or made for other rules or features."""


@njit(cache=True, nogil=True)
def _quadratic(X, valid, const, lin, quad, out):
    """out[i, j] = const + lin . x + x' quad x (quad upper-triangular) for valid candidates."""
    F = X.shape[2]
    for i in range(X.shape[0]):
        for j in range(X.shape[1]):
            if not valid[i, j]:
                continue
            s = const
            for f in range(F):
                xf = X[i, j, f]
                if xf != 0.0:
                    t = lin[f]
                    for g in range(f, F):
                        t += quad[f, g] * X[i, j, g]
                    s += xf * t
            out[i, j] = s


class Quadratic:
    """A fitted PolynomialFeatures (degree <= 2) > StandardScaler > Ridge pipeline as one
    quadratic form of the readable features.

    The pipeline is linear in its polynomial terms, so the scaler folds into the ridge
    coefficients: predict(x) = const + lin . x + x' quad x. Evaluating that in one compiled
    loop avoids the (rows x terms) arrays `predict` builds, which is what makes the bot fast;
    `test_learn` checks it against `predict`.
    """

    def __init__(self, pipeline):
        terms, scale, ridge = (pipeline.named_steps[k] for k in ("terms", "scale", "ridge"))
        powers = terms.powers_
        if powers.sum(axis=1).max() > 2:
            raise ModelError("learned models use polynomial terms of degree 1 or 2")
        coef = ridge.coef_ / scale.scale_
        F = powers.shape[1]
        self.const = float(ridge.intercept_ - (ridge.coef_ * scale.mean_ / scale.scale_).sum())
        self.lin, self.quad = np.zeros(F), np.zeros((F, F))
        for c, row in zip(coef, powers):
            f = np.repeat(np.arange(F), row)
            if len(f) == 1:
                self.lin[f[0]] += c
            else:
                self.quad[min(f), max(f)] += c

    def scores(self, cand: Candidates) -> np.ndarray:
        out = np.full(cand.valid.shape, -np.inf)
        _quadratic(cand.X, cand.valid, self.const, self.lin, self.quad, out)
        return out


@dataclass
class LearnedModel:
    """Estimators by decision kind, each predicting the advantage of a candidate action."""

    rules: Rules
    estimators: dict
    meta: dict

    def __post_init__(self):
        self._fast = {kind: Quadratic(est) for kind, est in self.estimators.items()}

    def scores(self, kind: str, cand: Candidates) -> np.ndarray:
        """(m, K) predicted advantage of each candidate; -inf where there is none."""
        if kind not in self._fast:
            raise ModelError(f"the model has no estimator for {kind} decisions (rules {self.rules.name})")
        return self._fast[kind].scores(cand)


def sidecar(path: Path) -> Path:
    return Path(path).with_suffix(".json")


def save(model: LearnedModel, path: Path) -> Path:
    """Write `path` (.joblib) and its JSON sidecar; returns the model path."""
    path = Path(path).with_suffix(".joblib")
    path.parent.mkdir(parents=True, exist_ok=True)
    meta = {"format": FORMAT, **model.meta, "rules": model.rules.to_spec(), "kinds": sorted(model.estimators),
            "features": {k: list(FEATURES[k]) for k in sorted(model.estimators)}}
    # written beside the targets, then renamed: an interrupted save leaves the old pair intact
    joblib.dump(model.estimators, path.with_name(path.name + ".tmp"), compress=3)
    sidecar(path).with_name(sidecar(path).name + ".tmp").write_text(json.dumps(meta, indent=1, default=str) + "\n")
    os.replace(path.with_name(path.name + ".tmp"), path)
    os.replace(sidecar(path).with_name(sidecar(path).name + ".tmp"), sidecar(path))
    return path


def load(path: Path, rules: Rules | None = None) -> LearnedModel:
    """Read a model; with `rules`, refuse one trained for any other rules."""
    path = Path(path).with_suffix(".joblib")
    if not path.is_file() or not sidecar(path).is_file():
        raise ModelError(f"no learned model at {path} (and its {sidecar(path).name}); "
                         "train one with `geolab train ranks`")
    try:
        meta = json.loads(sidecar(path).read_text())
        trained = Rules.from_spec(meta["rules"])
    except (ValueError, KeyError, GeolabError) as error:
        raise ModelError(f"{sidecar(path)}: not a learned-model description ({error})") from None
    if meta.get("format") != FORMAT:
        raise ModelError(f"{path}: format {meta.get('format')!r}, expected {FORMAT!r}")
    if rules is not None and trained != rules:
        raise ModelError(
            f"{path} was trained for rules {trained.to_spec()!r}, not {rules.to_spec()!r}; "
            f"train one with `geolab train ranks --rules {rules.name}`"
        )
    for kind in meta.get("kinds", []):
        if meta.get("features", {}).get(kind) != list(FEATURES[kind]):
            raise ModelError(f"{path}: its {kind} features differ from this geolab's ({__version__}); retrain it")
    return LearnedModel(trained, joblib.load(path), meta)


def default_path(rules: Rules) -> Path:
    """The model shipped with geolab for a preset (geolab/data/models/<preset>.joblib)."""
    if rules.name not in PRESETS or PRESETS[rules.name]() != rules:
        raise ModelError(f"no model ships for modified rules {rules.to_spec()!r}; give learned:model=PATH")
    return Path(str(resources.files("geolab.data").joinpath("models", f"{rules.name}.joblib")))
