"""experiments/strength.py, the strength study (issue 35, item 5): the exact-check part read
from the committed results, and the oracle-loss rows of a few games."""

import argparse
import json
from pathlib import Path

import numpy as np
import pandas as pd

from tests.experiment_scripts import load

ROOT = Path(__file__).parents[1]


def _study():
    return load("strength")


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


def test_the_bounds_part_measures_only_what_is_missing_and_the_ladder_shows_each_model(tmp_path, monkeypatch):
    """A bound's file, once there, is read, not re-measured (a new bot's bound is added alone);
    the ladder keeps its ratings and CPU and takes each bound, naming a model that is not the bot."""
    study = _study()
    monkeypatch.setattr(study, "BOUNDS", [study.Bound("greedy", None, 2, rules="tiny"),
                                          study.Bound("counter", "greedy", 2, rules="tiny"),
                                          study.Bound("counter", "random", 2, 1, rules="tiny", role="pilot")])
    ratings = pd.DataFrame({"bot": ["greedy", "counter", "random"], "rating": [300.0, 310.0, 0.0],
                            "ci_low": [250.0, 260.0, 0.0], "ci_high": [350.0, 360.0, 0.0],
                            "cpu_ms_per_decision": [0.001, 0.002, 0.001], "exploit_lb": [0.9, 0.9, 0.9]})
    ratings.to_csv(tmp_path / "ladder.csv", index=False)
    args = argparse.Namespace(workers=1, rules="tiny", deals=7)
    info = study.bounds(args, tmp_path)
    assert len(info["measured_now"]) == 3
    table = pd.read_csv(tmp_path / "bounds.csv")
    assert list(table["role"]) == ["ladder", "ladder", "pilot"]
    table = table[table["role"] == "ladder"].set_index("target")
    assert table.loc["greedy", "model"] == "greedy" and table.loc["counter", "model"] == "greedy"
    assert "model=greedy" in table.loc["counter", "exploiter"] and table.loc["counter", "games"] == 2

    def no_run(*a, **k):
        raise AssertionError("a bound with a file was measured again")

    monkeypatch.setattr(study.exploit, "measure", no_run)
    assert study.bounds(args, tmp_path)["measured_now"] == []
    ladder = pd.read_csv(tmp_path / "ladder.csv").set_index("bot")
    assert list(ladder["rating"]) == [300.0, 310.0, 0.0]  # the ratings kept as they were
    assert ladder.loc["greedy", "exploit_lb"] == table.loc["greedy", "lower_bound"]
    assert "modelled it as greedy" in ladder.loc["counter", "exploit_note"]
    assert "modelled" not in ladder.loc["greedy", "exploit_note"] and pd.isna(ladder.loc["random", "exploit_lb"])
    assert (tmp_path / "ladder.png").stat().st_size > 0
