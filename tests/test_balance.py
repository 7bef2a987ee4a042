"""Balance metrics on rigged variants whose answers are known, the report card, and sweeps:
chunked, resumable (also after a SIGKILL), the same tables on 1 or 2 workers and on Dask."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from geolab import registry
from geolab.cli import main
from geolab.errors import GeolabError
from geolab.lab import balance, sweep
from geolab.lab.stats import moments_ci
from geolab.lab.tables import Totals, play_totals

#: Top Rank and its match (the rigs: tests/conftest.py) are registered for every test here.
pytestmark = pytest.mark.usefixtures("rigs")

HERE = Path(__file__).parent
SPEC = HERE / "sweeps" / "toy.toml"


def toy_rules(**overrides):
    Rules = registry.get("toy").game.Rules
    return Rules.preset("standard").replace(**overrides)


def test_a_variant_where_the_first_seat_always_wins_has_all_the_advantage():
    entry = registry.get("toy")
    m = balance.metrics(play_totals(entry, toy_rules(rigged="seat-a"), ["best"], 2000, 1))
    assert m["first_share"] == 1 and m["first_advantage"] == pytest.approx(2 / 3)
    assert m["balance"] == 0 and m["seat_gap"] == 1
    assert m["balance_ci_low"] == 0 and m["balance_ci_high"] == 0  # every deal the same: no doubt
    fair = balance.metrics(play_totals(entry, toy_rules(), ["best"], 4000, 1))
    assert fair["first_ci_low"] < 1 / 3 < fair["first_ci_high"]  # self-play, rotated: no seat is favoured
    assert fair["balance_ci_low"] < fair["balance"] <= fair["balance_ci_high"] == 1  # balanced: 1 is inside


def test_the_seat_gap_interval_is_bonferroni_over_the_seats():
    totals = Totals(["x"], 2)
    rng = np.random.default_rng(0)
    a = rng.random(400) < 0.6
    totals.sums[("seat", 0)] += (a.sum(), a.sum())
    totals.sums[("seat", 1)] += ((~a).sum(), (~a).sum())
    totals.deals = 400
    gap, low, high = balance.seat_gap_interval(totals, kind="seat")
    share, s_low, s_high = moments_ci(a.sum(), a.sum(), 400, confidence=0.975)
    assert gap == pytest.approx(2 * share - 1)
    assert low == pytest.approx(s_low - (1 - s_low)) and high == pytest.approx(s_high - (1 - s_high))


def test_balance_is_over_positions_from_the_first_mover_not_seat_letters():
    """rigged "first": the first mover is drawn per deal (the seat dealt the lowest card) and
    always wins. Every seat letter then wins its fair share, by the deal's symmetry; the
    positions counted from the first mover show the whole advantage."""
    entry = registry.get("toy")
    totals = play_totals(entry, toy_rules(rigged="first"), ["best"], 4000, 3)
    m = balance.metrics(totals)
    assert m["first_share"] == 1 and m["seat_gap"] == 1 and m["balance"] == 0
    assert m["gap_ci_low"] == 1 and m["balance_ci_high"] == 0
    letters, letters_low, _ = balance.seat_gap_interval(totals, kind="seat")
    assert letters < 0.06 and letters_low == 0  # the letters look balanced: what Ludii's numbering avoids
    for s in range(3):
        share, low, high = totals.interval(("seat", s))
        assert low < 1 / 3 < high


def test_the_card_reads_balance_over_positions(capsys):
    assert main(["balance", "toy", "--set", "rigged=first", "--games", "3000", "--json"]) == 0
    card = {r["metric"]: r for r in json.loads(capsys.readouterr().out)["metrics"]}
    row = card["balance (1 - largest gap between positions from the first mover)"]
    assert row["official"] > 0.9 and row["variant"] == 0 and row["significant"]


def test_a_variant_that_changes_only_the_seat_count_changes_no_skill():
    """rigged "deal" (the deal alone decides), 3 seats against 4: `best,first` holds 2 of 3
    seats and then 2 of 4, so its raw share falls from 2/3 to 1/2 while it has no skill in
    either; the card and the sweep columns read it against the fair share."""
    entry = registry.get("toy")
    three, four = toy_rules(rigged="deal"), toy_rules(rigged="deal", seats=4)
    m3, m4 = (balance.metrics(play_totals(entry, r, ["best", "first"], 2000, 4)) for r in (three, four))
    assert (m3["a_share"], m3["a_fair"]) == (pytest.approx(2 / 3), pytest.approx(2 / 3))
    assert (m4["a_share"], m4["a_fair"]) == (pytest.approx(1 / 2), pytest.approx(1 / 2))
    for m in (m3, m4):
        assert m["skill_edge"] == pytest.approx(0, abs=1e-12) and m["upset_ratio"] == pytest.approx(1)
    card, info = balance.report_card("toy", three, four, 2000, seed=4)
    rows = card.set_index("metric")
    skill = rows.loc["skill: stronger bot's win share - its fair share (fair 0.667 -> 0.500)"]
    luck = rows.loc["luck: weaker bots' win share / their fair share"]
    assert skill["official"] == pytest.approx(0, abs=1e-12) and skill["variant"] == pytest.approx(0, abs=1e-12)
    assert luck["official"] == pytest.approx(1) and luck["variant"] == pytest.approx(1)
    assert not skill["significant"] and not luck["significant"]
    # with skill (fair rules) the edge is positive at both seat counts
    fair3, fair4 = (balance.metrics(play_totals(entry, toy_rules(seats=n), ["best", "first"], 2000, 4))
                    for n in (3, 4))
    assert fair3["skill_edge"] > 0.05 and fair4["skill_edge"] > 0.05 and fair3["upset_ratio"] < 0.9


def test_a_variant_with_no_skill_gives_the_better_bot_only_its_fair_share():
    entry = registry.get("toy")
    # best holds seats A and C, first holds B: the fair share of best's seats is 2/3
    luck = balance.metrics(play_totals(entry, toy_rules(rigged="deal"), ["best", "first"], 6000, 2))
    assert luck["a_ci_low"] < 2 / 3 < luck["a_ci_high"]
    skill = balance.metrics(play_totals(entry, toy_rules(), ["best", "first"], 6000, 2))
    assert skill["a_ci_low"] > 2 / 3 + 0.05


def test_the_report_card_flags_the_rigged_change_and_not_the_null_one(capsys, tmp_path):
    assert main(["balance", "toy", "--set", "rigged=seat-a", "--games", "3000", "--out", str(tmp_path),
                 "--json"]) == 0
    card = {r["metric"]: r for r in json.loads(capsys.readouterr().out)["metrics"]}
    first = card["first mover's win share"]
    assert first["variant"] == 1 and first["significant"]
    assert {"balance.csv", "balance.png", "meta.json"} <= {p.name for p in tmp_path.iterdir()}
    assert main(["balance", "toy", "--set", "limit=none", "--games", "3000", "--json"]) == 0
    same = json.loads(capsys.readouterr().out)["metrics"]
    assert not any(r["significant"] for r in same) and all(r["difference"] == 0 for r in same)


def test_ranks_report_card_is_quick_and_narrow():
    rules = registry.get("ranks").game.Rules.preset("combo1")
    card, info = balance.report_card("ranks", rules, rules.replace(end_at=None), 20000)
    rows = card.set_index("metric")
    first = rows.loc["first mover's win share"]
    assert first["ci_half_width"] <= 0.01  # the seat advantage within one point at 20,000 deals
    # two positions, leader and follower, whose shares add to 1: the gap is the first lead's edge
    # twice over (the seat letters, A and B, would read about 1: every deal is played both ways)
    gap = rows.loc["balance (1 - largest gap between positions from the first mover)"]
    for side in ("official", "variant"):
        assert gap[side] == pytest.approx(1 - abs(2 * first[side] - 1)) and gap[side] < 0.99
    assert info["deals"] == 20000


def test_balance_mistakes_are_one_line(capsys):
    for argv, words in [(["balance", "toy", "--name", "x"], "--variant"),
                        (["balance", "toy", "--set", "seats=9"], "seats"),
                        (["balance", "toy", "--set", "rigged=x", "--games", "10"], "rigged")]:
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert words in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("game, words", [("dashing-states", "self-play"), ("combo1", "self-play"), ("ranks", None),
                                         ("state-iq", None)])
def test_with_no_variant_the_official_card_says_why_each_empty_line_is_empty(game, words, capsys):
    """Issue 37, item 8: `geolab balance GAME` alone prints the official rules' card; a line with
    no value ("-") is named, with the reason, under the table."""
    assert main(["balance", game, "--games", "40", "--threads", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["variant"] is None and out["official"] == registry.get(game).game.Rules.DEFAULT
    rows = out["metrics"]
    assert rows and all(set(r) == {"line_up", "metric", "value", "ci_low", "ci_high", "n"} for r in rows)
    assert rows[0]["metric"] == "first mover's win share" and rows[0]["n"] == 40
    empty = {(r["line_up"], r["metric"]) for r in rows if any(np.isnan(r[k]) for k in ("value", "ci_low", "ci_high"))}
    said = {(b["line_up"], b["metric"]): b["reason"] for b in out["blank"]}
    assert empty == set(said) and all(said.values())
    if words:  # the skill rung seats one bot twice: both skill lines are empty, for that reason
        assert len(empty) == 2 and all(words in reason for reason in said.values())
    assert main(["balance", game, "--games", "40", "--threads", "1"]) == 0
    text = capsys.readouterr().out
    assert "the official rules" in text and "ci_low" in text and "difference" not in text
    table = text.split("\n")[2:]
    dashes = [line for line in table if line.split()[-4:-1] == ["-", "-", "-"]]
    assert len(dashes) == len(empty)
    notes = [line for line in text.splitlines() if line.startswith("no value (-) in")]
    for (line_up, metric), reason in said.items():  # each "-" line is named under the table, with its reason
        assert any(f"{metric} ({line_up})" in note and reason in note for note in notes)


def test_a_game_whose_ladder_is_all_search_bots_has_a_card_without_skill_lines(capsys):
    """State IQ's arena ladder holds only search bots: the card (official or a variant's) says
    so instead of failing on the missing skill rung."""
    assert main(["balance", "state-iq", "--set", "water=true", "--games", "30", "--threads", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["skill_line_up"] is None and not any("skill" in r["metric"] for r in out["metrics"])
    reasons = {n["metric"]: n["reason"] for n in out["not_applicable"]}
    assert "search bot" in reasons["skill and luck"]


def test_sweep_spec_is_checked_before_any_work(tmp_path):
    with pytest.raises(GeolabError, match="unknown key"):
        sweep.parse_spec({"game": "toy", "colour": "red"})
    with pytest.raises(GeolabError, match="variant 'bad'"):
        sweep.parse_spec({"game": "toy", "variants": {"bad": {"seats": 99}}})
    with pytest.raises(GeolabError, match="unknown toy bot"):
        sweep.parse_spec({"game": "toy", "bots": ["nobody"]})
    with pytest.raises(GeolabError, match="not a TOML"):
        bad = tmp_path / "bad.toml"
        bad.write_text("game = [")
        sweep.load_spec(bad)


def test_sweep_tables_do_not_depend_on_workers(tmp_path):
    spec = sweep.load_spec(SPEC)
    assert [v.name for v in spec.variants] == ["official", "short", "no-ties", "best_low=True", "best_low=False"]
    one = sweep.run(spec, tmp_path / "one", workers=1)
    two = sweep.run(spec, tmp_path / "two", workers=2)
    assert (tmp_path / "one" / "summary.csv").read_bytes() == (tmp_path / "two" / "summary.csv").read_bytes()
    assert len(one) == 10 and (one["deals"] == 3000).all()
    pd.testing.assert_frame_equal(one, two)
    with pytest.raises(GeolabError, match="not empty"):
        sweep.run(spec, tmp_path / "one")
    best = sweep.rank(one, spec.objective)
    assert best["seat_gap"].is_monotonic_increasing and (best["a_share"].dropna() >= 0.05).all()
    skill = ["a_share", "a_ci_low", "a_ci_high", "a_fair", "skill_edge", "upset_rate", "upset_ratio"]
    alone = one[one["lineup"] == "best"]  # self-play: no stronger bot, so no skill or luck columns
    assert len(alone) == 5 and alone[skill].isna().all().all()
    assert "best" in set(best["lineup"])  # the a_share constraint does not drop the rows that cannot measure it
    pair = one[one["lineup"] == "best,first"]
    assert pair[skill].notna().all().all() and (pair["a_fair"] == 2 / 3).all()
    assert np.allclose(pair["skill_edge"], pair["a_share"] - 2 / 3)


def test_pool_sends_calls_in_tasks_and_reports_each_once():
    """Many calls go to the workers in a few tasks (`sweep.CALLS_A_TASK`): each key still comes
    back once, with its own result, as in one process."""
    import operator

    calls = [((i, "k"), operator.mul, (i, 3)) for i in range(2 * 4 * sweep.CALLS_A_TASK + 5)]
    got: dict = {}
    with sweep.Pool(workers=2) as pool:
        pool.run(calls, lambda key, result: got.setdefault(key, []).append(result))
    assert got == {(i, "k"): [3 * i] for i in range(len(calls))}
    alone: dict = {}
    sweep.Pool(workers=1).run(calls, lambda key, result: alone.setdefault(key, []).append(result))
    assert alone == got


def test_sweep_on_a_dask_local_cluster_gives_the_same_table(tmp_path):
    distributed = pytest.importorskip("dask.distributed")  # CI installs the dask extra, so this runs there
    spec = sweep.load_spec(SPEC)
    local = sweep.run(spec, tmp_path / "local", workers=1)
    # worker threads in this process: the test-only game is registered here (real games load by name)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        on_dask = sweep.run(spec, tmp_path / "dask", scheduler=cluster.scheduler_address)
    pd.testing.assert_frame_equal(local, on_dask)
    assert (tmp_path / "local" / "summary.csv").read_bytes() == (tmp_path / "dask" / "summary.csv").read_bytes()


def test_a_sweep_killed_half_way_resumes_to_the_same_bytes(tmp_path):
    spec = sweep.load_spec(SPEC)
    whole = tmp_path / "whole"
    sweep.run(spec, whole)
    killed = tmp_path / "killed"
    env = dict(os.environ, PYTHONPATH=str(HERE.parent) + os.pathsep + str(HERE))
    code = ("import sys, time, toy_game; toy_game.install()\n"
            "import geolab.lab.sweep as s\n"
            "play = s.run_unit\n"
            "s.run_unit = lambda *a: (time.sleep(0.2), play(*a))[1]  # slow chunks, to be killed mid-way\n"
            "from geolab.cli import main\n"
            f"sys.exit(main(['sweep', {str(SPEC)!r}, '--out', {str(killed)!r}]))")
    child = subprocess.Popen([sys.executable, "-c", code], env=env, stderr=subprocess.DEVNULL)
    chunks = killed / "chunks"
    deadline = time.time() + 120
    while time.time() < deadline and (not chunks.is_dir() or len(list(chunks.glob("*.json"))) < 5):
        time.sleep(0.05)
    child.send_signal(signal.SIGKILL)
    child.wait()
    done = len(list(chunks.glob("*.json")))
    assert 5 <= done < len(spec.units())
    assert not (killed / "summary.csv").exists()
    assert main(["sweep", str(SPEC), "--out", str(killed), "--resume", "--json"]) == 0
    assert (killed / "summary.csv").read_bytes() == (whole / "summary.csv").read_bytes()
    for path in (whole / "chunks").glob("*.json"):
        assert (killed / "chunks" / path.name).read_bytes() == path.read_bytes()
