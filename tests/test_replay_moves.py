"""`geolab replay FILE --moves` (issue 34, item 6): a record of every registered game, and a
session file, stepped decision by decision to its end; one seat's view; the stepper; the
oracle's value of each Play the Ranks move; and records that cannot be replayed."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from geolab import registry
from geolab.bots.ranks.review import costs
from geolab.cli import main
from geolab.games.ranks.solver.analysis import deal_value, decisions
from geolab.games.ranks.solver.double_dummy import OracleSolver, rank_for
from geolab.lab.moves import pages, step_through, stepped
from geolab.lab.play import Match, play_match, seat_bots
from geolab.stepwise import RandomSeat
from tests.people import RandomPerson


class Counting(RandomSeat):
    """A random seat that counts the decisions it is asked."""

    asked = 0

    def act(self, decision):
        Counting.asked += 1
        return super().act(decision)


def _record(name: str, seed: int = 1) -> tuple[dict, int]:
    """A record of one game of random legal play, and how many decisions the game asked."""
    entry = registry.get(name)
    rules = entry.game.Rules.preset(entry.game.Rules.DEFAULT)
    rng = np.random.default_rng(seed)
    Counting.asked = 0
    seats = [Counting(rng) for _ in range(entry.game.seats(rules))]
    played = entry.game.play(rules, entry.game.deal(rules, rng), seats)
    return json.loads(json.dumps(entry.game.to_record(played))), Counting.asked


#: Every registered game whose record replay steps its own game on the reference engine: the
#: built-in ones and the test-only Top Rank; the test-only Top Rank Match replays its inner
#: games only, and is the record that cannot be stepped (below).
STEPPED = [n for n in registry.names() if n != "toy-match"]


@pytest.mark.parametrize("name", STEPPED)
def test_replay_moves_steps_through_a_record_of_every_game_to_its_end(name, tmp_path, capsys):
    record, asked = _record(name)
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(record))
    assert main(["replay", str(path), "--moves"]) == 0
    out = capsys.readouterr().out.splitlines()
    heads = [line for line in out if line.startswith("== decision ")]
    assert len(heads) == asked  # every decision the game asked, once
    assert heads[-1].startswith(f"== decision {asked} of {asked}: ")
    entry, games = stepped(json.loads(path.read_text()))
    views, (game,) = entry.game.views, games
    assert len(game.moves) == asked
    d, action = game.moves[-1]
    assert all(line in out for line in views.screen(d))  # the deciding seat's own table
    end = out.index(f"== the end, as {entry.game.seat_name(game.rules, 0)} saw it ==")
    assert out[-1] == views.ending(game.played, 0)[-1] and end > out.index(heads[-1])  # the verdict, last
    later = [d for d, _ in game.moves if getattr(d.observation, "told", ())]
    if entry.has("stages") and name == "combo1":  # a match: each finished game told at the next one's table
        assert later and all(line in views.events(later[-1]) for line in later[-1].observation.told[-1][1])


def test_one_seats_view_and_the_endings_side():
    record, _ = _record("ranks", 4)
    entry, games = stepped(record)
    shown = pages(entry, games, seat=1)
    heads = [p[0] for p in shown[:-1]]
    assert heads and all(re.match(r"== decision \d+ of \d+: B's ", h) for h in heads)
    assert len(heads) == sum(d.seat == 1 for d, _ in games[0].moves)
    assert shown[-1][0] == "== the end, as B saw it ==" and shown[-1][-1] == \
        entry.game.views.ending(games[0].played, 1)[-1]


def test_the_oracle_values_every_discard_lead_and_answer_against_the_best():
    record, _ = _record("ranks", 2)
    entry, games = stepped(record)
    game = games[0]
    shown = pages(entry, games)
    judged = [line for page in shown for line in page if line.startswith(">> oracle")]
    valued = [d for d, _ in game.moves if d.kind in ("discard", "lead", "follow")]
    assert len(judged) == len(valued) > 0 and any(d.kind == "discard" for d in valued)
    worse = [line for line in judged if "; best " in line]
    verdicts = entry.judge(game.played)
    lost = [v for v in verdicts if (v.lost, v.tricks_lost) != (0, 0)]
    tricks_worse = len(costs(game.played, 0)) + len(costs(game.played, 1))  # the review's losing moves
    assert len(worse) == len(lost) == tricks_worse + sum(v.kind == "discard" for v in lost)
    assert all("best play (" in line for line in judged if line not in worse)


@pytest.mark.parametrize("seed", [2, 5, 7])
def test_a_leads_loss_splits_into_its_card_and_its_category(seed):
    """Each lead's loss = the card's part (best lead v best lead of the card played) + the
    category's (best lead of that card v the lead played), recomputed from the oracle here."""
    record, _ = _record("ranks", seed)
    entry, games = stepped(record)
    played = games[0].played
    leads = [v for v in entry.judge(played) if v.kind == "lead"]
    mine = [d for d in decisions(played) if d.kind == "lead"]
    assert len(leads) == len(mine) > 0
    for v, d in zip(leads, mine):
        rank = {m.move: rank_for(d.side, m.winner) for m in d.solution.moves}
        same = max(r for m, r in rank.items() if m.card == d.played.card)
        assert dict(v.parts) == {"card": (max(rank.values()) - same) / 2,
                                 "category": (same - rank[d.played]) / 2}
        assert sum(dict(v.parts).values()) == v.lost
    assert all(v.parts == () for v in entry.judge(played) if v.kind != "lead")


@pytest.mark.parametrize("seed", [2, 5])
def test_a_discards_judgement_is_the_deal_value_after_each_discard_it_could_have_made(seed):
    """The judge's discard loss, recomputed here from the oracle's value of the deal after
    every discard the side could have made (the other's as played)."""
    record, _ = _record("ranks", seed)
    entry, games = stepped(record)
    played = games[0].played
    verdicts = [v for v in entry.judge(played) if v.kind == "discard"]
    assert [v.seat for v in verdicts] == [0, 1]
    solver = OracleSolver()
    for v in verdicts:
        side = v.seat
        worth = []
        for card in played.hands[side]:
            mine = (card,)
            discards = (mine, played.discards[1]) if side == 0 else (played.discards[0], mine)
            hands = [sorted(set(played.hands[s]) - set(discards[s])) for s in (0, 1)]
            winner, tricks = deal_value(played.rules, hands, played.first_lead, played.power_bases, solver)
            worth.append((rank_for(side, winner), tricks[side], card))
        mine = next(w for w in worth if w[2] in played.discards[side])
        assert v.lost == (max(w[0] for w in worth) - mine[0]) / 2
        assert v.tricks_lost == max(w[1] for w in worth) - mine[1] >= 0


def test_a_session_series_replays_game_by_game(tmp_path):
    entry = registry.get("ranks")
    rules = entry.game.Rules.preset("battle1").replace(target_points=3)
    match = Match(entry, rules, 5, 0, seat_bots(entry, rules, 0, "greedy"))
    play_match(match, RandomPerson(entry.game.views, np.random.default_rng(0)), lambda line: None)
    assert match.finished and len(match.played) >= 2
    got, games = stepped(json.loads(json.dumps(match.to_json())))
    assert got.name == "ranks" and len(games) == len(match.played)
    shown = pages(got, games)
    ends = [p[0] for p in shown if "the end" in p[0]]
    assert ends == [f"== game {k + 1} of {len(games)}, the end, as A saw it ==" for k in range(len(games))]


def test_the_stepper_goes_forward_back_and_quits():
    shown = [[f"page {i}"] for i in range(4)]
    keys = iter(["", "n", "p", "x", "q"])
    out: list[str] = []
    step_through(shown, lambda prompt: next(keys), out.append)
    assert [line for line in out if line.startswith("page")] == ["page 0", "page 1", "page 2", "page 1", "page 1"]
    assert any("type n" in line for line in out)
    out.clear()
    step_through(shown, lambda prompt: "", out.append)  # Enter to the end: every page once
    assert out == ["page 0", "page 1", "page 2", "page 3"]


@pytest.mark.parametrize("args, message", [
    (["--seat", "Q"], "--seat: 'Q' is not a seat of this game (A, B)"),
    (["--json"], "--moves prints the moves for a person: not with --json"),
])
def test_bad_arguments_are_one_line(tmp_path, capsys, args, message):
    record, _ = _record("ranks")
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record))
    assert main(["replay", str(path), "--moves", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err


@pytest.mark.usefixtures("rigs")
def test_a_record_that_cannot_be_replayed_is_one_line_and_exit_2(tmp_path, capsys):
    assert set(registry.builtin()) <= set(STEPPED)
    record, _ = _record("state-iq")
    record["deal"] = "nonsense"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    assert main(["replay", str(path), "--moves"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("geolab: error:")
    record, _ = _record("toy-match")  # valid, but its replay never steps the match itself
    path.write_text(json.dumps(record))
    assert main(["replay", str(path)]) == 0
    capsys.readouterr()
    assert main(["replay", str(path), "--moves"]) == 2
    assert capsys.readouterr().err == "geolab: error: toy-match: this record cannot be stepped move by move\n"


def test_a_combo1_match_is_judged_game_by_game_by_each_games_own_judge():
    """The match's judge is its games' own: every discard, lead and answer of each Play the
    Ranks game of the match is valued, and nothing else."""
    record, _ = _record("combo1", 3)
    entry, (game,) = stepped(record)
    ranks = [g for g in game.played.games if g.game == 3]
    assert ranks  # the morning reaches Play the Ranks
    shown = pages(entry, [game])
    judged = [line for page in shown for line in page if line.startswith(">> oracle")]
    assert len(judged) == sum(2 * len(g.played.tricks) + 2 * bool(g.played.rules.discards) for g in ranks)
    for page in shown:
        if any(line.startswith(">> oracle") for line in page):
            assert "(Play the Ranks)" in page[0] and re.search(r"'s (discard|lead|follow)\b", page[0])
