"""experiments/strength.py, the strength study (issue 35, item 5): the exact-check part read
from the committed results, and the oracle-loss rows of a few games."""

import argparse
import importlib.util
import json
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).parents[1]


def _study():
    spec = importlib.util.spec_from_file_location("strength_study", ROOT / "experiments" / "strength.py")
    study = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(study)
    return study


def test_the_exact_checks_put_each_exploiter_row_beside_its_best_response(tmp_path):
    study = _study()
    source = ROOT / "results" / "strength"
    info = study.exact(argparse.Namespace(exact_dir=source), tmp_path)
    table = pd.read_csv(tmp_path / "exact_checks.csv")
    br = pd.read_csv(source / "exact" / "exact.csv")
    checked = pd.read_csv(source / "exploit" / "exact_check.csv")
    assert len(table) == len(br) and (tmp_path / "exact_checks.png").stat().st_size > 0
    joined = table.merge(checked, on=["variant", "target"])
    assert len(joined) == len(checked) and (joined["status"] == "checked").all()
    assert np.allclose(joined["edge_ratio_x"], joined["edge_ratio_y"])
    assert np.allclose(joined["exploiter_edge"], joined["exploiter_mean"] - 0.5)
    missing = json.loads((source / "exploit" / "meta.json").read_text()).get("missing", [])
    flagged = table[table["status"].str.startswith("missing")]
    assert sorted(f"{v}/{t}" for v, t in zip(flagged["variant"], flagged["target"])) == sorted(missing)
    assert info["missing"] == missing


def test_the_oracle_loss_rows_split_each_lead_into_card_and_category():
    study = _study()
    rows = study.losses_of(("greedy", "combo1", "random", 4, 0))
    assert set(rows["kind"]) == {"discard", "lead", "lead: card", "lead: category", "follow"}
    assert set(rows["seat"]) == {0, 1} and set(rows["deal"]) == {0, 1}
    assert (rows["lost"] >= 0).all() and rows["lost"].isin([0, 0.5, 1]).all()
    sums = rows.groupby(["deal", "seat", "kind"])["lost"].sum().unstack(fill_value=0)
    assert np.allclose(sums["lead"], sums["lead: card"] + sums["lead: category"])
    assert rows[rows["kind"].str.startswith("lead: ")]["tricks_lost"].isna().all()
