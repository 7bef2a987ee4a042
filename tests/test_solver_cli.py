"""`geolab solve` on records and the analysis helpers behind it."""

import json
from pathlib import Path

import numpy as np
import pytest

from geolab import records
from geolab.bots.ranks.seats import GreedySeat, RandomSeat
from geolab.cli import main
from geolab.games.ranks.records import replay_game, to_record
from geolab.games.ranks.reference import deal_one, play
from geolab.games.ranks.rules import Rules
from geolab.games.ranks.solver.analysis import deal_value, decisions, decisions_lost

RECORDS = Path(__file__).parent / "records"


@pytest.mark.parametrize("name",
                         ["combo1_five_then_three", "geodouble_3_3_last_trick", "battle3_equal_distance_lead_wins"])
def test_solve_json_on_a_record(name, capsys):
    path = RECORDS / f"{name}.json"
    assert main(["solve", "--json", str(path)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert "sees both hands" in report["solver"]
    assert report["winner"] in ("A", "B", None)
    game = replay_game(records.load(path))
    assert len(report["decisions"]) == 2 * len(game.tricks)
    for item in report["decisions"]:
        assert isinstance(item["optimal"], bool)
        assert item["played"] in [{k: v for k, v in m.items() if k not in ("winner", "tricks")} for m in item["moves"]]
        # the played move is optimal exactly when its outcome for the mover equals the best
        rank = {item["side"]: 2, None: 1}
        assert item["optimal"] == (rank.get(item["winner_after"], 0) == rank.get(item["best_winner"], 0))


def test_solve_text_output(capsys):
    assert main(["solve", str(RECORDS / "combo1_five_then_three.json")]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# oracle") and "decisions lost" in out


def test_solve_bad_record_is_one_line_exit_2(tmp_path, capsys):
    record = records.load(RECORDS / "combo1_five_then_three.json")
    record["tricks"][0]["lead"] = "ZZ"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record))
    assert main(["solve", str(bad)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "ZZ" in err


def test_winner_from_first_trick_is_consistent_with_the_decisions():
    """Best play from trick 1 wins for X iff X's first decision can keep the win."""
    rng = np.random.default_rng(11)
    for preset in ("combo1", "battle2", "geodouble"):
        rules = Rules.preset(preset)
        deal = deal_one(rules, rng)
        lead = deal.drawn_first_lead() if rules.first_lead == "given" else None
        game = play(rules, deal.hands, [GreedySeat(), RandomSeat(rng)], lead, deal.power_bases)
        game = replay_game(to_record(game))
        held = [tuple(c for c in game.hands[s] if c not in game.discards[s]) for s in (0, 1)]
        winner, tricks = deal_value(rules, held, game.first_lead, game.power_bases)
        first = decisions(game)[0]
        assert first.solution.winner == winner
        assert sum(tricks) == rules.tricks
        lost = decisions_lost(game)
        assert lost == tuple(sum(not d.optimal for d in decisions(game) if d.side == s) for s in (0, 1))
