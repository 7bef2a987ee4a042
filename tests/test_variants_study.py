"""The rule-variant studies (experiments/variants.py): their sweep specs, the seat-gap interval,
the "none" text of a sweep spec, and a small run end to end."""

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from geolab.lab import sweep
from geolab.lab.tables import Totals
from tests.experiment_scripts import load

ROOT = Path(__file__).parents[1]


@pytest.fixture(scope="module")
def study():
    return load("variants")


def test_every_study_has_its_spec_and_a_label_for_each_variant(study):
    files = {p.name for p in (ROOT / "experiments" / "sweeps").glob("variants-*.toml")}
    assert files == {f"variants-{s.name}.toml" for s in study.STUDIES}
    for s in study.STUDIES:
        spec = sweep.load_spec(s.spec_path)  # every variant and line-up checked
        assert set(s.labels) == {v.name for v in spec.variants}, s.name
        assert any(len(set(line.split(","))) == 1 for line in spec.lineups), f"{s.name}: no self-play line-up"
        assert any(len(set(line.split(","))) > 1 for line in spec.lineups), f"{s.name}: no skill line-up"


def test_none_is_null_only_for_fields_that_may_be_null():
    spec = sweep.parse_spec({"game": "ranks", "rules": "battle2", "bots": ["greedy"], "deals": 10,
                             "variants": {"plain": {"bonus": "none", "declarations": False},
                                          "all": {"end_at": "none"}},
                             "grid": {"bonus": ["none", "shutout"], "declarations": [False]}})
    overrides = {v.name: dict(v.overrides) for v in spec.variants}
    assert overrides["plain"]["bonus"] == "none"  # a text value of the bonus field, not null
    assert overrides["all"]["end_at"] is None
    assert overrides["bonus=none,declarations=False"]["bonus"] == "none"
    assert spec.variants[1].rules(spec.base_rules()).bonus == "none"


def _totals(seat_scores: np.ndarray) -> Totals:
    """Totals of a self-play line-up from per-deal seat scores (deals, seats)."""
    seats = seat_scores.shape[1]
    t = Totals(["a"], seats)
    t.deals = t.games = len(seat_scores)
    for s in range(seats):
        for kind in ("seat", "position"):  # the first mover is always seat A here
            t.sums[(kind, s)] += (seat_scores[:, s].sum(), (seat_scores[:, s] ** 2).sum())
    return t


def test_seat_gap_interval(study):
    n = 4000
    always_a = np.zeros((n, 2))
    always_a[:, 0] = 1
    assert study.seat_gap_interval(_totals(always_a)) == (1.0, 1.0, 1.0)
    rng = np.random.default_rng(0)
    fair = np.eye(4)[rng.integers(0, 4, n)]  # a fair 4-seat game
    gap, low, high = study.seat_gap_interval(_totals(fair))
    assert low == 0.0 < gap < high < 0.08
    rigged = np.eye(4)[np.where(rng.random(n) < 0.5, 0, rng.integers(1, 4, n))]  # seat A wins half
    gap, low, high = study.seat_gap_interval(_totals(rigged))
    assert low <= 0.5 - 1 / 6 <= high and low > 0.25


def test_small_run_writes_tidy_tables_plots_and_meta(study, tmp_path):
    study.main(["--small", "--workers", "1", "--only", "ranks-ending", "ranks-bonus", "--out", str(tmp_path)])
    for name in ("ranks-ending", "ranks-bonus"):
        folder = tmp_path / name
        meta = json.loads((folder / "meta.json").read_text())
        assert meta["command"].startswith(f"python experiments/variants.py --only {name}")
        assert set(meta["files"]) <= {p.name for p in folder.iterdir()}
        assert (folder / f"{name}.png").stat().st_size > 10_000
        table = pd.read_csv(folder / "metrics.csv")
        assert {"variant", "lineup", "role", "metric", "value", "ci_low", "ci_high", "deals", "difference",
                "significant"} <= set(table.columns)
        assert (table.ci_low <= table.value + 1e-12).all() and (table.value <= table.ci_high + 1e-12).all()
        assert set(table.role) == {"self-play", "skill"}
    table = pd.read_csv(tmp_path / "ranks-ending" / "metrics.csv").set_index(["variant", "lineup", "metric"])
    # stopping at 5 or 6 tricks decides the same winner on every deal: only the length moves
    for line in ("greedy", "greedy,random"):
        for metric in ("first_share", "upset_rate") if line == "greedy" else ("upset_rate",):
            if (("official", line, metric)) in table.index:
                assert table.loc[("end-at-5", line, metric), "value"] == table.loc[("official", line, metric), "value"]
        assert table.loc[("end-at-5", line, "mean_length"), "value"] < table.loc[("official", line, "mean_length"),
                                                                                 "value"]
    series = pd.read_csv(tmp_path / "ranks-bonus" / "series.csv").set_index(["variant", "lineup", "metric"])
    assert series.loc[("bonus-none", "greedy", "bonus_changed_series_winner"), "value"] == 0
    assert series.loc[("bonus-none", "greedy", "battles_paying_the_bonus"), "value"] == 0
