"""`geolab simulate|arena|bench jumbled`: small runs succeed with the promised output; user
mistakes exit with code 2 and one line."""

import json

import pytest

from geolab.cli import main


def run_json(argv, capsys):
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_simulate_reports_every_side_with_intervals(capsys):
    out = run_json(["simulate", "jumbled", "--games", "60", "--bots", "heuristic,random", "--seed", "3", "--json"], capsys)
    assert out["games"] == 60 and len(out["sides"]) == 4
    assert sum(s["wins"] for s in out["sides"]) + out["draws"] == 60
    assert [s["bots"] for s in out["sides"]] == ["heuristic", "random", "heuristic", "random"]
    assert all(s["ci_low"] <= s["win_rate"] <= s["ci_high"] for s in out["sides"])
    assert out == run_json(["simulate", "jumbled", "--games", "60", "--bots", "heuristic,random", "--seed", "3",
                            "--json", "--workers", "2"], capsys) | {k: out[k] for k in ("games_per_s", "rounds_per_s")}


def test_simulate_teams_and_text_output(capsys):
    out = run_json(["simulate", "jumbled", "--games", "30", "--players", "6", "--teams", "0,1,2,0,1,2", "--json"], capsys)
    assert [s["side"] for s in out["sides"]] == ["A+D", "B+E", "C+F"]
    assert main(["simulate", "jumbled", "--games", "20", "--players", "2", "--deck", "3,2,1"]) == 0
    assert "2 players" in capsys.readouterr().out


def test_field_arena_compares_bots_on_duplicate_deals(capsys):
    out = run_json(["arena", "jumbled", "--mode", "field", "--bots", "first,random", "--games", "5", "--players", "3",
                    "--json"], capsys)
    assert [r["bot"] for r in out["rows"]] == ["first", "random"]
    assert all(r["games"] == 15 and r["deals"] == 5 for r in out["rows"])


def test_simulate_with_the_race_caller(capsys):
    out = run_json(["simulate", "jumbled", "--games", "20", "--call", "race", "--json"], capsys)
    assert sum(s["wins"] for s in out["sides"]) + out["draws"] == 20


def test_bench_reports_the_promised_keys(capsys):
    out = run_json(["bench", "jumbled", "--rounds", "4096", "--repeats", "1", "--workers", "1", "--json"], capsys)
    for key in ("rounds_per_s", "rounds_per_s_8p", "reference_rounds_per_s", "reference_rounds_per_s_8p",
                "ratio", "ratio_8p", "stepwise_rounds_per_s"):
        assert out[key] > 0
    assert out["ratio"] == pytest.approx(out["rounds_per_s"] / out["reference_rounds_per_s"])


def exit_code(argv):
    """main's return code, or the code of the SystemExit argparse raises for a usage error."""
    try:
        return main(argv)
    except SystemExit as stop:
        return stop.code


@pytest.mark.parametrize("argv, words", [
    (["simulate", "jumbled", "--players", "9"], "needs 54 cards"),
    (["simulate", "jumbled", "--teams", "0,1"], "teams names 2 seats"),
    (["simulate", "jumbled", "--teams", "a,b,c,d"], "--teams: expected comma-separated integers"),
    (["simulate", "jumbled", "--deck", "0,0,0"], "geopower_deck"),
    (["simulate", "jumbled", "--bots", "nobody"], "unknown bot 'nobody'"),
    (["simulate", "jumbled", "--bots", "a,b,c,d,e"], "names 5 bots for 4 seats"),
    (["simulate", "jumbled", "--games", "0"], "--games must be at least 1"),
    (["simulate", "jumbled", "--call", "maybe"], "unknown call policy"),
    (["arena", "jumbled", "--bots", "first,first"], "named twice"),
    (["arena", "jumbled", "--mode", "field", "--bots", "first,first"], "named twice"),
    (["arena", "jumbled", "--bots", "first,,random"], "empty name"),
    (["arena", "jumbled", "--bots", "first"], "at least two bots"),
    (["arena", "jumbled", "--bots", "first,nobody"], "unknown bot 'nobody'"),
    (["arena", "jumbled", "--players", "1", "--bots", "first,random"], "players"),
    (["arena", "jumbled", "--players", "9", "--bots", "first,random"], "needs 54 cards"),
    (["arena", "jumbled", "--games", "0", "--bots", "first,random"], "--games must be at least 1"),
    (["arena", "jumbled", "--teams", "0,1,0,1"], "individual play"),
    (["arena", "jumbled", "--bots", "mc:-3,random"], "positive integer"),
    (["arena", "jumbled", "--mode", "field", "--bots", "mc:-3"], "positive integer"),
    (["arena", "jumbled", "--mode", "ladder"], "invalid choice"),
    (["bench", "jumbled", "--repeats", "0"], "--repeats must be at least 1"),
    (["simulate", "jumbled", "--players", "four"], "invalid int value"),
])
def test_user_mistakes_exit_2_with_one_line(argv, words, capsys):
    assert exit_code(argv) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1
