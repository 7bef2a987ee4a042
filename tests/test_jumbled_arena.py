"""The Jumbled arena: every pair of bots shares P-player tables half and half on duplicate deals
(`geolab.lab.jumbled.pairs_runner` plugged into `geolab.lab.arena.run`), and the race caller."""

import json

import numpy as np
import pandas as pd
import pytest

from geolab.bots.jumbled import FixedCall, Heuristic, RaceCall, RandomBot, make_caller
from geolab.cli import main
from geolab.games.jumbled import CallObservation, Rules
from geolab.lab import arena
from geolab.lab.jumbled import pair_sides, pairs_runner


@pytest.mark.parametrize("players", [2, 3, 4, 5, 8])
def test_pair_sides_swap_every_seat(players):
    sides = pair_sides(players)
    assert sides.shape == (2, players)
    assert (sides[0] ^ sides[1]).all()  # each seat is a's in exactly one of the two games
    assert sides[0, 0] and not sides[1, 0]  # each bot deals first once
    assert sides[0].any() and sides[1].any()


def test_ratings_recover_the_order_and_identical_bots_split_evenly():
    bots = {"heuristic": Heuristic(), "twin": Heuristic(), "random": RandomBot()}
    result = arena.run(pairs_runner(Rules(), bots), list(bots), deals=300, seed=4, block=150, progress=False,
                       length="rounds")
    pairs = result.pairs_table().set_index(["a", "b"])
    assert (pairs["games"] == 600).all() and "avg_rounds" in pairs.columns
    strong = pairs.loc[("heuristic", "random")]
    assert strong.ci_low > 0.5 and strong.win_rate_a > 0.6
    same = pairs.loc[("heuristic", "twin")]
    assert same.ci_low < 0.5 < same.ci_high
    ratings = result.ratings_table().set_index("bot")
    assert ratings.loc["random", "anchor"] and ratings.loc["random", "rating"] == 0
    assert ratings.loc["heuristic", "ci_low"] > 0 and ratings.loc["twin", "ci_low"] > 0
    first = result.first_lead()
    assert first["games"] == 1800 and first["ci_low"] < first["win_rate"] < first["ci_high"]


def test_identical_bots_score_one_half_on_every_deal_with_odd_tables():
    """With the same bot on both sides and no randomness in it, the two games of a deal are the
    same game with the labels swapped (a fixed call, a heuristic with a fixed small set), so a's
    seats win exactly one of them (3 players: a holds two seats in one game and one in the other)."""
    bots = {"x": Heuristic(single_at=(0, 0), name="x"), "y": Heuristic(single_at=(0, 0), name="y")}
    d = pairs_runner(Rules(players=3), bots, FixedCall("top-dog"))("x", "y", 40, np.random.SeedSequence(1))
    assert (d.score.sum(axis=1) == 1).all()
    assert np.array_equal(d.tricks[:, 0], d.tricks[:, 1])


def test_same_numbers_however_chunked_or_threaded():
    bots = {"heuristic": Heuristic(), "random": RandomBot()}
    rules = Rules(players=5)
    ss = np.random.SeedSequence(11)
    one = pairs_runner(rules, bots, workers=1)("heuristic", "random", 600, ss)
    again = pairs_runner(rules, bots, workers=2)("heuristic", "random", 600, ss)  # same SeedSequence object
    for f in ("score", "lead_score", "tricks"):
        assert np.array_equal(getattr(one, f), getattr(again, f))
    runner = pairs_runner(rules, bots)
    short = arena.run(runner, list(bots), deals=300, seed=2, block=300, progress=False)
    longer = arena.run(runner, list(bots), deals=700, seed=2, block=300, progress=False)
    pair = ("heuristic", "random")
    assert np.array_equal(short.deals[pair].score, longer.deals[pair].score[:300])


def test_interrupt_keeps_finished_blocks():
    bots = {"heuristic": Heuristic(), "random": RandomBot()}
    inner, calls = pairs_runner(Rules(), bots), []

    def runner(a, b, n, seed):
        calls.append(n)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return inner(a, b, n, seed)

    result = arena.run(runner, list(bots), deals=200, seed=0, block=50, progress=False)
    assert result.interrupted and (result.pairs_table()["deals"] == 100).all()


def test_arena_cli_writes_tables_plots_and_meta(tmp_path, capsys):
    out = tmp_path / "run"
    argv = ["arena", "jumbled", "--bots", "heuristic,random", "--games", "40", "--players", "3",
            "--workers", "2", "--out", str(out), "--json"]
    assert main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    (pair,) = report["pairs"]
    assert pair["a"] == "heuristic" and pair["games"] == 80 and pair["ci_low"] <= pair["win_rate_a"] <= pair["ci_high"]
    assert {r["bot"] for r in report["ratings"]} == {"heuristic", "random"}
    for name in ("pairs.csv", "pairs.parquet", "ratings.csv", "ratings.parquet", "win_rates.png", "ladder.png", "meta.json"):
        assert (out / name).stat().st_size > 0
    meta = json.loads((out / "meta.json").read_text())
    assert meta["game"] == "jumbled" and meta["rules_fields"]["players"] == 3 and meta["call"] == "random"
    assert meta["first_lead_means"].startswith("the side at seat A")
    assert pd.read_csv(out / "pairs.csv")["avg_rounds"].iloc[0] == pytest.approx(pair["avg_rounds"])
    assert main(argv[:-3] + ["--out", str(tmp_path / "text")]) == 0
    text = capsys.readouterr().out
    assert "seat A (first dealer) wins" in text and "avg_rounds" in text


def test_race_caller_is_legal_and_a_function_of_the_scores():
    rules = Rules()
    caller = make_caller("race")
    assert isinstance(caller, RaceCall)
    scores = np.random.default_rng(0).integers(0, 10, (200, 4)) * 5
    seat = np.arange(200) % 4
    obs = CallObservation(rules, 3, np.arange(200), seat, scores)
    calls = caller.call(obs, np.random.default_rng(1))
    assert set(calls.tolist()) <= {0, 1} and len(set(calls.tolist())) == 2  # it does choose
    assert np.array_equal(calls, RaceCall().call(obs, np.random.default_rng(2)))
    # only the scores matter: the same scores seen from the same seat in another order of rows
    back = CallObservation(rules, 0, np.arange(200)[::-1], seat[::-1], scores)
    assert np.array_equal(caller.call(back, None), calls[::-1])
    only = Rules(calls=("bottoms-up",))
    assert (caller.call(CallObservation(only, 0, np.arange(200), seat, scores), None) == 1).all()


def test_race_caller_gambles_when_behind_and_plays_safe_when_ahead():
    """Bottoms Up spreads the round's points wider than Top Dog with the default heuristic
    (more two-set rounds), so a dealer far behind wants it and a clear leader does not."""
    rules = Rules()
    scores = np.array([[0, 40, 40, 40], [40, 0, 0, 0]])
    obs = CallObservation(rules, 0, np.arange(2), np.zeros(2, np.int64), scores)
    assert RaceCall().call(obs, None).tolist() == [1, 0]
    assert FixedCall("top-dog").call(obs, None).tolist() == [0, 0]


def test_race_caller_calls_bottoms_up_behind_and_top_dog_ahead_in_most_states():
    rng = np.random.default_rng(5)
    scores = rng.integers(0, 10, (4000, 4)) * 5
    seat = rng.integers(0, 4, 4000)
    calls = RaceCall().call(CallObservation(Rules(), 0, np.arange(4000), seat, scores), None)
    mine = scores[np.arange(4000), seat]
    best_other = np.where(np.arange(4)[None] == seat[:, None], -1, scores).max(axis=1)
    assert calls[mine < best_other].mean() > 0.9 and calls[mine > best_other].mean() < 0.1


def test_calls_mode_reports_each_policy_on_the_same_deals(tmp_path, capsys):
    out = tmp_path / "calls"
    assert main(["arena", "jumbled", "--mode", "calls", "--callers", "random,race,top-dog", "--games", "120",
                 "--players", "3", "--out", str(out), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    assert [r["caller"] for r in rows] == ["random", "race", "top-dog"]
    assert all(r["games"] == 120 and r["ci_low"] <= r["win_rate"] <= r["ci_high"] for r in rows)
    assert rows[0]["minus_random"] == 0 and rows[1]["diff_ci_low"] <= rows[1]["minus_random"] <= rows[1]["diff_ci_high"]
    assert pd.read_csv(out / "calls.csv")["wins"].tolist() == [r["wins"] for r in rows]
    meta = json.loads((out / "calls_meta.json").read_text())
    assert meta["callers"] == ["random", "race", "top-dog"] and meta["games"] == 120


@pytest.mark.parametrize("argv, words", [
    (["simulate", "jumbled", "--teams", "0,1,0,1", "--call", "race", "--games", "2"], "individual games"),
    (["simulate", "jumbled", "--players", "8", "--target", "400", "--call", "race", "--games", "2"], "cannot model"),
    (["arena", "jumbled", "--mode", "calls", "--callers", "race,race"], "named twice"),
    (["arena", "jumbled", "--mode", "calls", "--callers", "race,maybe"], "unknown call policy 'maybe'"),
    (["arena", "jumbled", "--mode", "calls", "--field", "nobody"], "unknown bot 'nobody'"),
])
def test_caller_mistakes_exit_2_with_one_line(argv, words, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1
