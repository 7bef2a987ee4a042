"""`geolab search`: racing on duplicate deals finds the uniform sweep's winner for fewer deals,
resumes to the same answer, does not depend on the workers, refuses bad specs in one line,
and searches any game through the same path. Small grids, few deals: the CPU budget of CI."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from geolab.cli import main
from geolab.errors import GeolabError
from geolab.lab import search
from geolab.lab.balance import metrics
from geolab.lab.tables import Totals

#: Play the Ranks, greedy self-play: where the base flips and when a deal stops, for the first
#: leader's best share (8 candidates, up to 16,384 deals each in 4 chunks: rounds of 1, 2, 4).
RANKS = {
    "game": "ranks", "rules": "combo1", "bots": ["greedy"], "deals": 16384, "chunk": 4096, "seed": 5,
    "search": {"recheck": 4096, "runners_up": 1,
               "fields": {"bases": {"choices": [[1, 1, 50, 50, 50, 50, 50, 50], [1, 1, 1, 50, 50, 50, 50, 50],
                                                [1, 1, 1, 1, 50, 50, 50, 50], [1, 1, 1, 1, 1, 1, 50, 50]]},
                          "end_at": {"range": [5, 6]}}},
    "objective": {"maximise": "first_share", "subject_to": [{"metric": "shared_rate", "at_most": 0.05}]},
}


def test_racing_finds_the_uniform_sweeps_winner_for_fewer_deals(tmp_path):
    spec = search.parse_search(RANKS)
    raced = search.run(spec, tmp_path / "race")
    listed = search.Space(spec).listed()
    assert len(listed) == 8
    sweep = search.uniform(spec, listed, tmp_path / "uniform")
    assert raced["winner"] == sweep["winner"] is not None
    assert raced["deals_spent"] < sweep["deals"] == raced["uniform_deals"] == 8 * 16384
    table = raced["candidates"]
    assert (table["status"] == "beaten").any() and (table["status"] == "winner").sum() == 1
    # a dropped candidate's interval is beaten by one sure to meet the bound, read at the racing level
    assert raced["racing_confidence_each"] == pytest.approx(1 - 0.05 / (8 * 2 * 3))
    winner = table[table["status"] == "winner"].iloc[0]
    assert winner["deals"] == 16384
    assert len(raced["recheck"]) == 3 and (raced["recheck"]["deals"] == 4096).all()
    # the base preset beside them on the same fresh deals: what a recommendation is compared with
    base = raced["recheck"].iloc[-1]
    assert (base["place"], base["candidate"], base["name"], base["overrides"]) == (0, -1, "rules=combo1", "{}")
    fresh = metrics(Totals.from_rows([search.run_chunk("ranks", "combo1", [], "greedy", raced["fresh_seed"], 0, 4096)]))
    assert base["first_share@greedy"] == fresh["first_share"] and base["shared_rate@greedy"] == fresh["shared_rate"]
    # the best so far after each round, with its racing interval: the last is the winner
    rounds = raced["rounds"]
    assert rounds["best"].iloc[-1] == raced["winner"]
    assert (rounds["best_ci_low"] <= rounds["best_value"]).all()
    assert (rounds["best_value"] <= rounds["best_ci_high"]).all()
    fig = search.plot(raced, spec)  # the top row's three panels all drawn: racing, best so far, deals
    assert all(a.axison and a.has_data() for a in fig.axes[:3])
    # end_at 5 and 6 play the same games under win_tricks 5: the runner-up is other rules
    twin = table[table["same_games_as"] == winner["candidate"]]
    assert list(twin["name"]) == raced["same_as_winner"] and len(twin) == 1
    assert raced["recheck"]["name"].iloc[1].split(",end_at")[0] != winner["name"].split(",end_at")[0]
    low, high = raced["recheck"][["first_share@greedy_ci_low", "first_share@greedy_ci_high"]].iloc[0]
    assert low < raced["recheck"]["first_share@greedy"].iloc[0] < high


#: The same 8 candidates, the shortest deals with the first lead within 0.47-0.53: nobody is
#: sure of the bound after the first round's 4,096 deals, so only a champion played deeper beats.
SHORTEST = {**RANKS, "objective": {"minimise": "mean_length",
                                   "subject_to": [{"metric": "first_share", "within": [0.47, 0.53]}]}}


def test_a_champion_played_deeper_drops_the_rest_before_the_last_round(tmp_path, capsys):
    plain = search.run(search.parse_search({**SHORTEST, "search": {**RANKS["search"], "champions": 0}}),
                       tmp_path / "plain")
    spec = search.parse_search(SHORTEST)
    raced = search.run(spec, tmp_path / "champion")
    assert raced["winner"] == plain["winner"] is not None
    assert raced["deals_spent"] < plain["deals_spent"]
    # the champion, played beyond the round's depth (on the schedule), became sure and beat the rest
    first = raced["rounds"].iloc[0]
    assert (first["champion"], first["champion_status"]) == (raced["winner"], "sure")
    assert first["champion_deals"] in spec.depths()
    assert first["champion_deals"] > first["deals_per_candidate"] == 4096
    assert first["champion_deals_spent"] == first["champion_deals"] - 4096
    assert len(raced["rounds"]) < len(spec.depths()) and first["alive"] == 1
    table = raced["candidates"]
    winner = table[table["status"] == "winner"].iloc[0]
    assert winner["deals"] == first["champion_deals"]
    assert (table[table["status"] != "winner"]["dropped_round"] == 0).all() and (table["status"] == "beaten").any()
    # without champions every candidate doubles together and nobody is played ahead
    assert plain["rounds"]["champion"].isna().all() and (plain["rounds"]["champion_deals_spent"] == 0).all()
    # the champion's deeper chunks lost and the search resumed on two workers: the same tables
    deeper = list((tmp_path / "champion" / "chunks").glob(f"c{winner['candidate']:06d}-l000-k00000[1-9].json"))
    assert len(deeper) == first["champion_deals"] // 4096 - 1
    for path in deeper:
        path.unlink()
    resumed = search.run(spec, tmp_path / "champion", workers=2, resume=True)
    for key in ("candidates", "rounds", "recheck"):
        pd.testing.assert_frame_equal(raced[key], resumed[key])
    # a first round of 1,024 deals, the start of the first chunk (a file of its own), one more depth
    # in the union bound: the same winner for fewer deals still
    data = {**SHORTEST, "search": {**RANKS["search"], "first_round": 1024}}
    probed = search.run(search.parse_search(data), tmp_path / "probed")
    assert search.parse_search(data).depths() == [1024, 4096, 8192, 16384]
    assert probed["winner"] == raced["winner"] and probed["deals_spent"] < raced["deals_spent"]
    assert probed["racing_confidence_each"] == pytest.approx(1 - 0.05 / (8 * 2 * 4))
    assert probed["rounds"]["deals_per_candidate"].iloc[0] == 1024
    probes = [json.loads(p.read_text()) for p in (tmp_path / "probed" / "probe").iterdir()]
    assert len(probes) == 8 and all(p["deals"] == 1024 and p["chunk"] == 0 for p in probes)
    # the progress line says where the champion stands
    path = tmp_path / "shortest.toml"
    path.write_text(toml(SHORTEST))
    assert main(["search", str(path), "--out", str(tmp_path / "cli")]) == 0
    assert f"champion sure at {first['champion_deals']:,} deals" in capsys.readouterr().err


def test_a_search_interrupted_resumes_to_the_same_answer_on_one_or_two_workers(tmp_path):
    spec = search.parse_search(RANKS)
    whole = search.run(spec, tmp_path / "whole")

    def stop(status):
        raise KeyboardInterrupt  # killed after the first round, its chunks on disk

    with pytest.raises(KeyboardInterrupt):
        search.run(spec, tmp_path / "cut", progress=stop)
    with pytest.raises(GeolabError, match="not empty"):
        search.run(spec, tmp_path / "cut")
    resumed = search.run(spec, tmp_path / "cut", workers=2, resume=True)
    for key in ("candidates", "rounds", "recheck"):
        pd.testing.assert_frame_equal(whole[key], resumed[key])
    assert resumed["winner"] == whole["winner"] and resumed["deals_spent"] == whole["deals_spent"]
    for path in (tmp_path / "whole" / "chunks").glob("*.json"):
        assert (tmp_path / "cut" / "chunks" / path.name).read_bytes() == path.read_bytes()


def test_a_search_on_a_dask_cluster_gives_the_same_answer(tmp_path):
    distributed = pytest.importorskip("dask.distributed")  # CI installs the dask extra, so this runs there
    spec = search.parse_search({**RANKS, "deals": 8192})
    local = search.run(spec, tmp_path / "local")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        on_dask = search.run(spec, tmp_path / "dask", scheduler=cluster.scheduler_address)
    for key in ("candidates", "rounds", "recheck"):
        pd.testing.assert_frame_equal(local[key], on_dask[key])


@pytest.mark.parametrize("change, message", [
    ({"search": {"fields": {"colour": "switch"}}}, "unknown Rules field 'colour'"),
    ({"search": {"fields": {"end_at": {"range": [7, 5]}}}}, "empty range"),
    ({"search": {"fields": {"end_at": {"range": [5, 7]}}, "constraints": ["end_at > 9"]}}, "impossible constraint"),
    ({"search": {"fields": {"end_at": {"range": [5, 7]}}, "constraints": ["__import__('os')"]}}, "not a field"),
    ({"search": {"fields": {"end_at": {"range": [5, 7]}}, "constraints": ["end_at ** 2 > 1"]}}, "not allowed"),
    ({"objective": {"maximise": "fun"}}, "unknown metric 'fun'"),
    ({"search": {"fields": {"end_at": {"range": [5, 7]}}, "champions": -1}}, "champions must be at least 0"),
    ({"search": {"fields": {"end_at": {"range": [5, 7]}}, "first_round": 4096}}, "first_round must lie between 1"),
    ({"objective": {"maximise": "skill_edge"}}, "self-play"),
    ({"objective": {"maximise": "balance", "subject_to": [{"metric": "shared_rate", "within": [0.2, 0.1]}]}},
     "impossible bound"),
])
def test_a_bad_spec_is_one_line_and_exit_2_before_any_work(tmp_path, capsys, change, message):
    data = {**RANKS, **change}
    path = tmp_path / "bad.toml"
    path.write_text(toml(data))
    assert main(["search", str(path), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1 and not (tmp_path / "out").exists()


def toml(data: dict) -> str:
    """A spec as TOML (JSON's values are TOML's, inline)."""
    def value(v):
        if isinstance(v, dict):
            return "{ " + ", ".join(f"{json.dumps(k)} = {value(x)}" for k, x in v.items()) + " }"
        if isinstance(v, list):
            return "[" + ", ".join(value(x) for x in v) + "]"
        return json.dumps(v)
    return "\n".join(f"{k} = {value(v)}" for k, v in data.items()) + "\n"


def test_a_second_game_is_searched_through_the_same_path(tmp_path, capsys):
    """Jumbled: the table's size, by the command; nothing in the search names the game."""
    spec = {"game": "jumbled", "bots": ["heuristic,random"], "deals": 4096, "chunk": 4096, "seed": 1,
            "search": {"recheck": 4096, "runners_up": 0,
                       "fields": {"players": {"range": [2, 3]}, "target": {"choices": [40]}}},
            "objective": {"maximise": "skill_edge"}}
    path = tmp_path / "jumbled.toml"
    path.write_text(toml(spec))
    assert main(["search", str(path), "--out", str(tmp_path / "out"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["candidates"] == 2 and out["winner"] and out["deals_spent"] <= out["uniform_deals"]
    assert {"candidates.csv", "rounds.csv", "recheck.csv", "search.png", "meta.json"} <= \
        {p.name for p in (tmp_path / "out").iterdir()}
    # a field given one value is a setting of the study: the base rules re-checked beside the winner have it
    base = pd.read_csv(tmp_path / "out" / "recheck.csv").iloc[-1]
    assert base["name"] == "rules=standard,target=40" and json.loads(base["overrides"]) == {"target": 40}


def test_tpe_proposals_repeat_from_the_seed(tmp_path):
    """Optuna's TPE proposes in batches, racing judges them; the same seed proposes the same
    candidates, so a search run again in its folder plays no new chunk and gives the same answer."""
    pytest.importorskip("optuna")  # CI installs the search extra, so this runs there
    data = {**RANKS, "search": {**RANKS["search"], "proposer": "tpe", "trials": 5, "batch": 3}}
    spec = search.parse_search(data)
    first = search.run(spec, tmp_path / "tpe")
    chunks = sorted(p.name for p in (tmp_path / "tpe" / "chunks").iterdir())
    again = search.run(spec, tmp_path / "tpe", resume=True)
    assert sorted(p.name for p in (tmp_path / "tpe" / "chunks").iterdir()) == chunks
    pd.testing.assert_frame_equal(first["candidates"], again["candidates"])
    assert 1 <= len(first["candidates"]) <= 5 and first["winner"] == again["winner"] is not None


def test_stage_fields_and_constraints_between_fields_pick_the_candidates():
    """A game made of games: its stage's fields searched as stage.field, constrained by name."""
    spec = search.parse_search({
        "game": "geodouble", "deals": 10,
        "search": {"fields": {"stage.end_at": {"choices": [5, 6, "none"]}, "stage.hand_size": {"range": [7, 9]}},
                   "constraints": ["stage.hand_size - stage.discards == 6", "stage.end_at != 5"]},
        "objective": {"minimise": "seat_gap"}})
    assert search.Space(spec).listed() == [(("stage.end_at", 6), ("stage.hand_size", 8)),
                                           (("stage.end_at", None), ("stage.hand_size", 8))]
