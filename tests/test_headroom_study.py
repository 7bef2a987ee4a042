"""experiments/headroom.py, the headroom study against montecarlo (issue 35, item 4): its table
is read from the committed match folders, and its sample-scaled challengers are montecarlo's
own settings multiplied."""

import json
from pathlib import Path

import pandas as pd

from tests.experiment_scripts import load

ROOT = Path(__file__).parents[1]


def _study():
    return load("headroom")


def test_scaled_montecarlo_multiplies_layouts_budget_and_cap():
    study = _study()
    assert study.scaled(1) == "montecarlo:k=48,budget_ms=12,cap_ms=30"
    assert study.scaled(6) == "montecarlo:k=288,budget_ms=72,cap_ms=180"
    assert study.scaled(1 / 6) == "montecarlo:k=8,budget_ms=2,cap_ms=5"


def test_the_table_is_each_complete_match_folder_and_only_the_oracle_peeks(tmp_path):
    study = _study()
    source = study.OUT if study.OUT.is_absolute() else ROOT / study.OUT
    info = json.loads((source / "meta.json").read_text())
    for name in study.CHALLENGERS:  # the committed folders, copied, so the study writes its table here
        if (source / name / "meta.json").exists():
            (tmp_path / name).mkdir()
            (tmp_path / name / "meta.json").write_text((source / name / "meta.json").read_text())
    study.collect(tmp_path, info["deals"])
    table = pd.read_csv(tmp_path / "headroom.csv")
    committed = pd.read_csv(source / "headroom.csv")
    assert table.equals(committed) and (tmp_path / "headroom.png").stat().st_size > 0
    for row in table.itertuples():
        meta = json.loads((source / row.name / "meta.json").read_text())
        assert meta["complete"] and meta["seed"] == study.SEED and meta["b"] == study.BASE
        assert (meta["a"], meta["win_share_a"], meta["deals"]) == (row.challenger, row.win_share, row.deals)
        assert abs(row.cpu_ratio - row.cpu_ms / row.montecarlo_cpu_ms) < 1e-3
        assert row.peeks == (row.challenger == "oracle")
