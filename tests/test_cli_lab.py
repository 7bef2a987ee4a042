"""The lab's commands are the same for every registered game, the minimal test-only one included:
`geolab games`, `bots`, `rules`, `simulate`, `arena`, `replay`, with the same flags."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pandas as pd
import pytest

from geolab import registry
from geolab.cli import main
from geolab.definition import DefinitionError

GAMES = registry.names()


def run_json(capsys, argv) -> dict:
    assert main(argv) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


def test_games_lists_every_registered_game(capsys):
    rows = run_json(capsys, ["games", "--json"])
    assert [r["game"] for r in rows] == GAMES and "mini" in GAMES
    assert main(["games"]) == 0 and "High Card" in capsys.readouterr().out


@pytest.mark.parametrize("game", GAMES)
def test_bots_and_rules_describe_themselves(game, capsys):
    entry = registry.get(game)
    bots = run_json(capsys, ["bots", game, "--json"])
    assert [b["bot"] for b in bots] == entry.bots.names()
    rules = run_json(capsys, ["rules", game, "--json"])
    assert {f["field"] for f in rules["fields"]} == {row["field"] for row in entry.game.Rules.preset(
        entry.game.Rules.DEFAULT).describe()}
    field = rules["fields"][0]
    assert main(["rules", game]) == 0 and field["field"] in capsys.readouterr().out


@pytest.mark.parametrize("game", GAMES)
def test_simulate_any_game_with_the_same_flags(game, capsys, tmp_path):
    entry = registry.get(game)
    out = tmp_path / "sim"
    summary = run_json(capsys, ["simulate", game, "--games", "60", "--seed", "3", "--out", str(out), "--json"])
    assert summary["deals"] == 60 and summary["games"] == 60 * summary["rotations"]
    shares = sum(r["win_share"] * 1 for r in summary["bots"])
    assert shares == pytest.approx(1.0)
    for row in summary["bots"]:
        assert row["ci_low"] <= row["win_share"] <= row["ci_high"]
    seats = entry.game.seats(entry.game.Rules.preset(entry.game.Rules.DEFAULT))
    assert len(summary["seats"]) == seats
    table = pd.read_parquet(out / "games.parquet")
    assert len(table) == summary["games"]
    core = {"game", "deal", "rotation", "winner", "length", "first"}
    assert core <= set(table.columns)
    scores = table[[c for c in table.columns if c.startswith("score_")]].to_numpy()
    np.testing.assert_allclose(scores.sum(axis=1), 1.0)
    assert json.loads((out / "meta.json").read_text())["seed"] == 3
    again = run_json(capsys, ["simulate", game, "--games", "60", "--seed", "3", "--json"])
    assert again["bots"] == summary["bots"]


@pytest.mark.parametrize("game", GAMES)
def test_simulate_changes_rules_with_set(game, capsys):
    entry = registry.get(game)
    rules = entry.game.Rules.preset(entry.game.Rules.DEFAULT)
    assert main(["simulate", game, "--games", "5", "--set", "no_such_field=1"]) == 2
    err = capsys.readouterr().err
    assert "no_such_field" in err and len(err.strip().splitlines()) == 1
    first = entry.game.Rules.field_names()[0]
    assert main(["simulate", game, "--games", "5", "--set", f"{first}=[[1]]"]) == 2
    assert first in capsys.readouterr().err
    assert rules.with_settings([]) == rules


@pytest.mark.usefixtures("rigs")
def test_toy_game_end_to_end_arena_and_replay(capsys, tmp_path):
    """The test-only game gets the arena, its files and replay without any code of its own."""
    out = tmp_path / "arena"
    report = run_json(capsys, ["arena", "toy", "--games", "300", "--seed", "1", "--out", str(out), "--json"])
    pairs = pd.DataFrame(report["pairs"]).set_index(["a", "b"])
    assert pairs.loc[("first", "best"), "win_rate_a"] < 0.5 < pairs.loc[("first", "best"), "ci_high"] + 0.5
    assert {"pairs.csv", "ratings.csv", "win_rates.png", "ladder.png", "meta.json"} <= {p.name for p in out.iterdir()}
    ratings = pd.DataFrame(report["ratings"]).set_index("bot")
    assert ratings.loc["best", "rating"] > ratings.loc["first", "rating"]
    toy = registry.get("toy")
    rules = toy.game.Rules.preset("duel")
    record = toy.game.batch_records(rules, [toy.bots.make("best", rules), toy.bots.make("first", rules)], 1, 0)[0]
    path = tmp_path / "toy.json"
    path.write_text(json.dumps(record))
    replayed = run_json(capsys, ["replay", "--json", str(path)])
    assert replayed == record["result"]
    record["result"]["winner"] = "nobody"
    path.write_text(json.dumps(record))
    assert main(["replay", str(path)]) == 2
    assert "result" in capsys.readouterr().err


@pytest.mark.parametrize("argv,words", [
    (["simulate", "toy", "--games", "0"], "--games"),
    (["simulate", "toy", "--bots", "best,first,best,first"], "seats"),
    (["simulate", "toy", "--bots", "nobody"], "unknown toy bot"),
    (["simulate", "toy", "--bots", "best:greed=2"], "greed"),
    (["simulate", "toy", "--bots", "best:greed=x"], "greed"),
    (["simulate", "toy", "--rules", "nope"], "unknown rules preset"),
    (["arena", "toy", "--bots", "best"], "at least two"),
    (["arena", "toy", "--bots", "best,best"], "named twice"),
    (["bench", "toy"], "no benchmark"),
])
@pytest.mark.usefixtures("rigs")
def test_user_mistakes_are_one_line_and_exit_2(argv, words, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert words in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("game", ["ranks", "jumbled"])
def test_a_simulation_in_pieces_gives_the_numbers_of_one_piece(game, monkeypatch):
    from geolab.lab import tables

    entry = registry.get(game)
    rules = entry.game.Rules.preset(entry.game.Rules.DEFAULT)
    whole_table, whole = tables.simulate(entry, rules, entry.simulate_bots.split(","), 9000, 2)
    monkeypatch.setattr(tables, "PIECE", entry.game.block)
    pieces_table, pieces = tables.simulate(entry, rules, entry.simulate_bots.split(","), 9000, 2)
    for key in ("first_win_share", "shared_rate", "mean_length", "games"):
        assert pieces[key] == pytest.approx(whole[key])
    for key in ("bots", "seats"):  # rows: the sums of squares add up in another order
        assert all(a == pytest.approx(b) for a, b in zip(pieces[key], whole[key]))
    assert pieces_table.sort_values(["deal", "rotation"]).drop(columns="game").reset_index(drop=True).equals(
        whole_table.sort_values(["deal", "rotation"]).drop(columns="game").reset_index(drop=True))
    no_table, summary = tables.simulate(entry, rules, entry.simulate_bots.split(","), 9000, 2, keep_table=False)
    assert no_table is None and summary["bots"] == pieces["bots"]


@pytest.mark.usefixtures("rigs")
def test_set_reaches_a_stages_rules_from_the_command_line(capsys):
    rules = run_json(capsys, ["rules", "toy-match", "--set", "stage.hand=4", "--json"])
    assert {"field": "stage.hand", "value": 4} in [{k: f[k] for k in ("field", "value")} for f in rules["fields"]]
    out = run_json(capsys, ["simulate", "toy-match", "--games", "20", "--set", "stage.rounds=2",
                            "--set", "stage.categories=[0,1]", "--json"])
    assert out
    assert main(["simulate", "toy-match", "--games", "5", "--set", "stage.seats=9"]) == 2
    err = capsys.readouterr().err.strip()
    assert "stage.seats: 9 is outside 2-6" in err and "\n" not in err


@pytest.mark.usefixtures("rigs")
def test_what_a_game_offers_is_on_its_entry_and_the_command_line_finds_it(capsys):
    assert registry.offering("bench")[:3] == ["ranks", "jumbled", "class"] and "toy" not in registry.offering("bench")
    assert registry.offering("solve") == ["ranks"] and registry.offering("equilibrium") == ["class"]
    assert main(["bench", "toy", "--runs", "1"]) == 2
    assert "no benchmark for 'toy'" in capsys.readouterr().err
    with pytest.raises(DefinitionError, match="toy: unknown offer 'fly'"):
        dataclasses.replace(registry.get("toy").definition, offers={"fly": "x:y"})
