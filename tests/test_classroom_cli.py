"""`geolab simulate|arena|bench|equilibrium class`: JSON output and exit codes."""

import json
import re
from pathlib import Path

import pytest

from geolab.games.classroom import N_HANDS

from geolab.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_simulate_json(capsys):
    code, out, _ = run(capsys, "simulate", "class", "--games", "300", "--students", "17", "--groups", "3", "--json")
    assert code == 0
    result = json.loads(out)
    (row,) = result["policies"]
    assert row["policy"] == "equilibrium" and row["n"] == 300 * 17
    assert row["group_ci"][0] <= row["group_win"] <= row["group_ci"][1]
    assert result["games"] == 300 and result["mean_finalists"] >= 3


def test_simulate_reference_engine_table(capsys):
    code, out, _ = run(capsys, "simulate", "class", "--games", "20", "--engine", "reference",
                       "--policies", "average,random")
    assert code == 0 and "reference engine" in out and "average" in out


def test_arena_on_duplicate_deals(capsys):
    code, out, _ = run(capsys, "arena", "class", "--games", "2000", "--policies", "random,equilibrium",
                       "--seed", "4", "--json")
    assert code == 0
    rows = {r["policy"]: r for r in json.loads(out)["policies"]}
    assert rows["random"]["n"] == rows["equilibrium"]["n"] == 2000 * 20
    assert rows["equilibrium"]["group_ci"][0] > rows["random"]["group_ci"][1]


def test_bench_reports_both_engines_and_the_ratio(capsys):
    code, out, _ = run(capsys, "bench", "class", "--games", "2000", "--reference-games", "3",
                       "--repeats", "3", "--json")
    result = json.loads(out)
    assert code == 0 and len(result["batch_seconds"]) == 3
    assert result["ratio"] == pytest.approx(
        result["batch_student_hands_per_s"] / result["reference_student_hands_per_s"])
    # 32 students in 8 groups: at least the 8 group winners play the Championship Round
    assert result["hands_evaluated_per_game"] >= 32 + 8


def test_equilibrium_summary(capsys):
    code, out, _ = run(capsys, "equilibrium", "class", "--sizes", "3,5", "--json")
    rows = json.loads(out)["rows"]
    assert code == 0 and [(r["group_size"], r["call"]) for r in rows] == [
        (3, "top-dog"), (3, "bottoms-up"), (5, "top-dog"), (5, "bottoms-up")]
    assert all(r["exploitability_model"] == 0 for r in rows)


def test_equilibrium_refined_on_real_deals(capsys):
    code, out, _ = run(capsys, "equilibrium", "class", "--sizes", "3", "--check", "20", "--refine", "1", "--json")
    rows = json.loads(out)["rows"]
    assert code == 0 and len(rows) == 2
    for r in rows:
        assert r["refine_steps"] == 1 and r["samples_per_hand"] == 20
        assert 0 < r["hands_switched"] < N_HANDS
        lo, hi = r["exploitability_refined_plugin_ci"]
        assert lo <= r["exploitability_refined_plugin"] <= hi and r["exploitability_refined_plugin"] >= 0


def test_replay_of_the_documented_record(capsys, tmp_path):
    doc = (Path(__file__).parents[1] / "docs" / "records-classroom.md").read_text()
    path = tmp_path / "class.json"
    path.write_text(re.findall(r"```json\n(.*?)```", doc, re.S)[0])
    code, out, _ = run(capsys, "replay", str(path), "--json")
    assert code == 0 and json.loads(out)["champions"] == ["S1"]


@pytest.mark.parametrize("argv, words", [
    (["simulate", "class", "--students", "40"], "students: 40"),
    (["simulate", "class", "--groups", "9"], "groups: 9"),
    (["simulate", "class", "--students", "17", "--groups", "2", "--starting-rounds", "1"], "one deck"),
    (["arena", "class", "--policies", "random,clever"], "unknown policy 'clever'"),
    (["arena", "class", "--policies", "random,random"], "named twice"),
    (["equilibrium", "class", "--sizes", "1"], "--sizes"),
    (["equilibrium", "class", "--sizes", "two"], "--sizes"),
    (["equilibrium", "class", "--check", "3"], "--check"),
    (["equilibrium", "class", "--refine", "1"], "--refine"),
])
def test_user_errors_are_one_line_and_exit_2(capsys, argv, words):
    code, _, err = run(capsys, *argv)
    assert code == 2 and words in err and err.count("\n") == 1


@pytest.mark.parametrize("argv", [["simulate", "class", "--games", "0"], ["bench", "class", "--call", "maybe"]])
def test_usage_errors_exit_2(capsys, argv):
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
