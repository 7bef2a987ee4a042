"""`geolab simulate|arena|bench|equilibrium class`: JSON output and exit codes (the generic
lab commands on Class, and its own equilibrium command)."""

import json
import re
from pathlib import Path

import pytest

from geolab.cli import main
from geolab.games.classroom.hands import N_HANDS


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_simulate_json(capsys):
    code, out, _ = run(capsys, "simulate", "class", "--games", "300", "--set", "students=17", "--set", "groups=3",
                       "--json")
    assert code == 0
    result = json.loads(out)
    (row,) = result["bots"]
    assert row["bot"] == "equilibrium" and row["seats"] == 17 and result["games"] == 300
    assert row["win_share"] == pytest.approx(1.0)  # every seat plays the same policy


def test_arena_on_duplicate_deals(capsys, tmp_path):
    code, out, _ = run(capsys, "arena", "class", "--games", "400", "--bots", "random,equilibrium",
                       "--seed", "4", "--out", str(tmp_path), "--json")
    assert code == 0
    (pair,) = json.loads(out)["pairs"]
    assert pair["a"] == "random" and pair["games"] == 400 * 2  # a and b alternate: two rotations
    assert pair["ci_high"] < 0.5  # the equilibrium discard beats random discards on the same deals


def test_bench_reports_both_engines_and_the_ratio(capsys):
    code, out, _ = run(capsys, "bench", "class", "--games", "2000", "--runs", "3", "--set", "students=32",
                       "--set", "groups=8", "--json")
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
    (["simulate", "class", "--set", "students=40"], "students: 40"),
    (["simulate", "class", "--set", "groups=9"], "groups: 9"),
    (["simulate", "class", "--set", "students=17", "--set", "groups=2", "--set", "starting_rounds=1"], "one deck"),
    (["arena", "class", "--bots", "random,clever"], "unknown class bot 'clever'"),
    (["arena", "class", "--bots", "random,random"], "named twice"),
    (["equilibrium", "class", "--sizes", "1"], "--sizes"),
    (["equilibrium", "class", "--sizes", "two"], "--sizes"),
    (["equilibrium", "class", "--check", "3"], "--check"),
    (["equilibrium", "class", "--refine", "1"], "--refine"),
])
def test_user_errors_are_one_line_and_exit_2(capsys, argv, words):
    code, _, err = run(capsys, *argv)
    assert code == 2 and words in err and err.count("\n") == 1


@pytest.mark.parametrize("argv", [["simulate", "class", "--games", "x"], ["bench", "class", "--call", "maybe"]])
def test_usage_errors_exit_2(capsys, argv):
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
