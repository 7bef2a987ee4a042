"""The Combo 1 tournament: pairings without repeats, standings, playoffs for the final's places,
the final, on the reference tournament and on the batch tournament; profiles and the command."""

from __future__ import annotations

import json

import numpy as np
import pytest

from geolab import records
from geolab.bots.combo1.registry import BOTS, seat
from geolab.errors import GeolabError, RulesError
from geolab.games.combo1.offers import tournament as lab
from geolab.games.combo1.tournament import (
    BYE,
    TournamentRules,
    advancing,
    after_knockout,
    check_teams,
    circle,
    knockout,
    play,
    points,
    swiss,
)


# ----- pairings ---------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3, 4, 5, 7, 8, 9, 12])
def test_circle_meets_every_opponent_once_before_any_twice(n):
    order = list(np.random.default_rng(n).permutation(n))
    cycle = n - 1 if n % 2 == 0 else n
    met: set = set()
    for r in range(cycle):
        pairs = circle(order, r)
        teams = [t for p in pairs for t in p if t != BYE]
        assert sorted(teams) == list(range(n))  # everyone plays or sits out once a round
        for a, b in pairs:
            if BYE not in (a, b):
                assert frozenset((a, b)) not in met
                met.add(frozenset((a, b)))
    assert len(met) == n * (n - 1) // 2
    assert {frozenset(p) for p in circle(order, cycle)} == {frozenset(p) for p in circle(order, 0)}  # again


def test_circle_alternates_seats():
    seats_a = np.zeros(8)
    for r in range(7):
        for a, _ in circle(list(range(8)), r):
            seats_a[a] += 1
    assert seats_a.min() >= 3 and seats_a.max() <= 4


def test_an_odd_count_gives_one_bye_a_round_to_each_team_in_turn():
    byes = [t for r in range(5) for a, b in circle(list(range(5)), r) for t in (a, b) if BYE in (a, b) and t != BYE]
    assert sorted(byes) == list(range(5))


def test_swiss_pairs_by_standing_and_avoids_rematches():
    order = [0, 1, 2, 3]
    standing = [3.0, 1.0, 2.0, 0.0]
    assert swiss(order, standing, [set(), set(), set(), set()], [0] * 4) == [(0, 2), (1, 3)]
    met = [{2}, set(), {0}, set()]
    assert swiss(order, standing, met, [0] * 4) == [(0, 1), (2, 3)]
    everyone = [{1, 2, 3}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}]
    assert swiss(order, standing, everyone, [0] * 4) == [(0, 2), (1, 3)]  # all met: the best left
    bye = swiss([0, 1, 2], [2.0, 1.0, 0.0], [set(), set(), set()], [0, 0, 1])
    assert bye[0] == (1, BYE)  # the lowest without a bye yet sits out


# ----- standings and the places in the final ---------------------------------------------------
def test_points_count_wins_and_the_draw_value():
    assert points(TournamentRules(), 0) == (1.0, 0.0) and points(TournamentRules(), 1) == (0.0, 1.0)
    assert points(TournamentRules(), None) == (0.0, 0.0)
    assert points(TournamentRules(draw_value=0.5), None) == (0.5, 0.5)


def test_advancing_needs_playoffs_only_where_the_cut_is_shared():
    assert advancing([5, 4, 3, 2], [3, 2, 1, 0]) == ([0, 1], [], 0)
    assert advancing([5, 3, 3, 2], [3, 2, 1, 0]) == ([0], [2, 1], 1)  # tied teams in the drawn order
    assert advancing([4, 4, 4, 1], [0, 1, 2, 3]) == ([], [0, 1, 2], 2)
    assert advancing([4, 4, 1, 1], [0, 1, 2, 3]) == ([0, 1], [], 0)  # two level at the top: both go


def test_a_knockout_plays_only_the_games_that_places_need():
    assert knockout([7, 2, 5], 1) == [(7, 2)]
    assert after_knockout([7, 2, 5], [(7, 2)], [1]) == [2, 5]
    assert knockout([2, 5], 1) == [(2, 5)]
    assert knockout([0, 1, 2], 2) == [(0, 1)]
    assert knockout([0, 1, 2, 3, 4], 1) == [(0, 1), (2, 3)]


def test_bad_team_counts_and_rules_are_one_line_errors():
    for n in (0, 1, 65, True, 2.5):
        with pytest.raises(RulesError, match="teams"):
            check_teams(n)
    with pytest.raises(RulesError, match="pairing"):
        TournamentRules(pairing="knockout").validate()
    with pytest.raises(RulesError, match="match.unfinished"):
        TournamentRules().replace(**{"match.unfinished": "maybe"})


# ----- the reference tournament -----------------------------------------------------------------
def _seats(specs, rules):
    bots = [BOTS.make(s, rules.match) for s in specs]
    return lambda t, match_rules, rng: seat(bots[t], match_rules, rng)


@pytest.mark.parametrize("pairing,n", [("circle", 4), ("swiss", 5)])
def test_the_reference_tournament_keeps_its_books(pairing, n):
    rules = TournamentRules(morning=2, afternoon=2, pairing=pairing)
    out = play(rules, n, _seats(["team", "team:speed=1.5", "team:tricks=random", "team:knowledge=0.5", "team"][:n],
                                rules), np.random.default_rng(5))
    rounds = [m for m in out.matches if m.round >= 0]
    assert len(rounds) == rules.rounds * ((n + 1) // 2)
    standing = [0.0] * n
    for m in rounds:
        if m.b == BYE:
            standing[m.a] += 1
        elif m.winner is not None:
            standing[m.winner] += 1
            assert m.played.rules.round == ("morning" if m.round < 2 else "afternoon")
    assert standing == out.standing
    final = out.matches[-1]
    assert final.round == -2 and final.played.rules.round == "final"
    assert out.champion in out.finalists and set(out.finalists) == {final.a, final.b}
    cut = sorted(out.standing, reverse=True)[1]
    assert all(out.standing[t] >= cut for t in out.finalists)
    for m in out.matches:
        if m.round == -1:
            assert m.played.rules.round == "playoff" and {m.a, m.b} <= {t for t in range(n) if out.standing[t] == cut}


# ----- profiles ---------------------------------------------------------------------------------
def test_the_ladder_cycles_and_numbers_its_teams():
    assert [p.name for p in lab.ladder(3)] == ["all-rounders", "sprinters", "scholars"]
    names = [p.name for p in lab.ladder(10)]
    assert names[0] == "all-rounders 1" and names[8] == "all-rounders 2" and len(set(names)) == 10


def test_profiles_load_from_json_and_csv_and_bad_files_are_one_line(tmp_path):
    good = tmp_path / "teams.json"
    good.write_text(json.dumps([{"name": "Hawks", "team": "team:speed=1.2"}, {"name": "Owls", "team": "team"}]))
    assert [p.name for p in lab.load_profiles(good)] == ["Hawks", "Owls"]
    csv = tmp_path / "teams.csv"
    csv.write_text("name,team\nHawks,team:speed=1.2\nOwls,team\n")
    assert lab.load_profiles(csv) == lab.load_profiles(good)
    cases = {"missing.json": None, "bad.json": "{not json", "dict.json": "{}", "twice.json":
             json.dumps([{"name": "A", "team": "team"}, {"name": "A", "team": "team"}]),
             "one.json": json.dumps([{"name": "A", "team": "team"}]), "cols.csv": "who,bot\nA,team\n",
             "blank.json": json.dumps([{"name": "A", "team": ""}, {"name": "B", "team": "team"}])}
    for name, text in cases.items():
        path = tmp_path / name
        if text is not None:
            path.write_text(text)
        with pytest.raises((GeolabError, RulesError)) as error:
            lab.load_profiles(path)
        assert "\n" not in str(error.value)
    with pytest.raises(GeolabError, match="team 'Owls'"):
        lab.teams(TournamentRules(), [lab.Profile("Hawks", "team"), lab.Profile("Owls", "team:speed=-1")])
    with pytest.raises(GeolabError, match="tricks"):
        lab.teams(TournamentRules(), [lab.Profile("Hawks", "team:tricks=oracle"), lab.Profile("Owls", "team")])


# ----- the batch tournament ---------------------------------------------------------------------
@pytest.fixture(scope="module")
def field():
    rules = TournamentRules(morning=1, afternoon=1)
    return rules, lab.ladder(5)


def test_the_batch_tournament_keeps_its_books(field):
    rules, profiles = field
    out = lab.tournaments(rules, profiles, 6, 3, workers=1, block=4)
    n, teams = out.standing.shape
    assert (n, teams) == (6, 5)
    for i in range(n):
        assert sorted(out.order[i]) == list(range(teams))
        assert out.byes[i].sum() == rules.rounds  # one bye a round, five teams
        assert np.allclose(out.standing[i], out.wins[i])  # draw_value 0: a point a win or bye
        assert out.wins[i].sum() + out.draws[i].sum() / 2 == rules.rounds * 3  # 2 matches + a bye a round
        assert out.champion[i] in out.finalists[i]
        cut = sorted(out.standing[i], reverse=True)[1]
        assert all(out.standing[i, t] >= cut for t in out.finalists[i])
        assert (out.games_won[i] <= out.games_played[i]).all()
        assert out.final_score[i].sum() <= out.final_games[i] - out.final_tiebreaks[i]
    assert (out.playoffs > 0).any()  # level teams at the cut played off


def test_the_numbers_do_not_depend_on_blocks_in_one_run_or_on_processes(field):
    rules, profiles = field
    one = lab.tournaments(rules, profiles, 4, 9, workers=1, block=2)
    two = lab.tournaments(rules, profiles, 4, 9, workers=2, block=2)
    parts = lab.tournaments(rules, profiles, 2, 9, workers=1, block=2)
    for name in ("standing", "champion", "finalists", "games_won", "playoffs"):
        assert np.array_equal(getattr(one, name), getattr(two, name))
        assert np.array_equal(getattr(one, name)[:2], getattr(parts, name))


def test_the_command_prints_standings_the_final_and_a_summary(tmp_path, capsys):
    from geolab.cli import main

    path = tmp_path / "teams.json"
    path.write_text(json.dumps([{"name": n, "team": s} for n, s in
                                [("Hawks", "team:speed=1.3"), ("Owls", "team"), ("Doves", "team:tricks=random")]]))
    saved = tmp_path / "tournament.json"
    assert main(["tournament", "--profiles", str(path), "--rules", "short", "--seed", "2", "--save", str(saved)]) \
        in (0, None)
    out = capsys.readouterr().out
    assert "Champion:" in out and "Hawks" in out and "Play the Ranks" in out
    assert "team:tricks=random" in out  # the profiles
    # issue 34, item 7: every round's pairings and results, whole points, the final's tie-breakers
    book = json.loads(saved.read_text())
    rounds = [s for s in book["rounds"] if s["stage"].startswith("round")]
    assert [s["stage"] for s in rounds] == [f"round {r}" for r in range(1, 5)]
    points = {t["name"]: 0 for t in book["teams"]}
    for stage in rounds:
        assert f"\nRound {stage['stage'].split()[1]} ({stage['kind']}):" in out
        assert len(stage["matches"]) == 2 and {m["a"] for m in stage["matches"]} | {m["b"] for m in stage["matches"]} \
            >= {"Hawks", "Owls", "Doves"}  # three teams: a match and a bye each round
        for m in stage["matches"]:
            assert f"  {m['text']}\n" in out
            if m["winner"] is not None:
                points[m["winner"]] += 1
    table = {row["team"]: row["points"] for row in book["standings"]}
    assert table == points and all(type(p) is int for p in table.values())
    assert book["final"]["text"] in out and "Final:" in out
    final = next(s for s in book["rounds"] if s["stage"] == "final")["matches"][0]
    breakers = [g for g in records.replay(book["records"][-1]["record"])["games"] if g["tiebreak"]]
    who = ", ".join("tie" if g["winner"] is None else final[g["winner"].lower()] for g in breakers)
    assert (f"Border-Up tie-breakers: {who}" in final["text"]) == bool(breakers)
    assert book["final"]["tiebreaks"] == len(breakers)
    # every match's record replays, and each one steps decision by decision
    played = [m for s in book["rounds"] for m in s["matches"] if m["b"] is not None]
    assert len(book["records"]) == len(played)
    assert [r["label"].split(": ", 1)[1] for r in book["records"]] == [m["text"] for m in played]
    for k, item in enumerate(book["records"]):
        assert records.replay(item["record"])["wins"] == dict(zip("AB", played[k]["games"]))
    assert main(["replay", str(saved), "--match", str(len(played)), "--moves", "--seat", "A"]) in (0, None)
    assert capsys.readouterr().out.rstrip().splitlines()[-1].startswith(("You won the match", "You lost the match",
                                                                          "Level at", "The match is level"))
    for bad in (["--moves"], ["--match", "99"]):
        assert main(["replay", str(saved), *bad]) == 2
        assert capsys.readouterr().err == f"geolab: error: this file holds {len(played)} records: name one with " \
                                          f"--match 1-{len(played)}\n"
    assert main(["tournament", "--profiles", str(path), "--rules", "short", "--repeat", "3", "--json",
                 "--workers", "1"]) in (0, None)
    summary = json.loads(capsys.readouterr().out)
    assert summary["tournaments"] == 3 and sum(t["titles"] for t in summary["teams"]) == 3
    for bad in (["--teams", "1"], ["--teams", "5", "--profiles", str(path)], ["--profiles", str(tmp_path / "no.json")],
                ["--set", "pairing=random"], ["--repeat", "0"], ["--repeat", "2", "--save", str(saved)]):
        try:
            code = main(["tournament", *bad])
        except SystemExit as stop:  # argparse's own refusals
            code = stop.code
        assert code == 2, bad
        err = capsys.readouterr().err
        assert err.count("\n") == 1, err
