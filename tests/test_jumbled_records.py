"""Jumbled records: the documented worked example replays as written; every malformed or
illegal record is a `RecordError` naming the place, in one line (exit code 2 from
`geolab replay`: tests/test_jumbled_cli.py)."""

import copy
import json
import re
from pathlib import Path

import numpy as np
import pytest

from geolab import records
from geolab.errors import RecordError
from geolab.games.jumbled.game import GAME
from geolab.games.jumbled.records import replay_record

DOC = Path(__file__).parents[1] / "docs" / "records-jumbled.md"


def replay(record) -> dict:
    """The report of a record replayed through the game interface, which must agree with
    `replay_record` and with `geolab.records.replay` (what `geolab replay` runs)."""
    report = GAME.report(GAME.replay(record))
    assert replay_record(record) == report == records.replay(record)
    return report


def worked_example() -> dict:
    block = re.search(r"```json\n(.*?)```", DOC.read_text(), re.S).group(1)
    return json.loads(block)


def test_the_worked_example_replays_to_its_hand_worked_result():
    record = worked_example()
    report = replay(record)
    assert report["scores"] == {"A": 40, "B": 5} and report["winner"] is None
    first, second = report["rounds"]
    assert first["totals"][0] == {"A": 5, "B": 16}  # Texas + California v South Dakota, size
    assert first["set_winners"] == [["A"], ["A"], ["A"]] and first["points"] == {"A": 25, "B": 0}
    assert second["dealer"] == "B" and second["call"] == "bottoms-up"
    assert second["totals"] == [{"A": 93, "B": 59}, {"A": 50, "B": 80}, {"A": 85, "B": 48}]
    assert second["points"] == {"A": 15, "B": 5}


def test_the_worked_example_writes_itself_back_and_shares_the_unfinished_game():
    record = worked_example()
    played = GAME.replay(record)
    again = GAME.to_record(played)
    assert again["rounds"] == record["rounds"] and again["result"] == record["result"]
    assert GAME.replay(json.loads(json.dumps(again))).scores == played.scores
    assert np.allclose(GAME.scores(played), [0.5, 0.5])  # nobody has won yet: the share is even


def test_a_finished_game_names_its_winner_and_refuses_more_rounds():
    record = worked_example()
    sweep = copy.deepcopy(record["rounds"][0])
    sweep["dealer"] = "A"
    record["rounds"].append(sweep)  # A +25 -> 65, B 5: A wins
    record["result"] = {"winner": "A", "finished": True}
    assert replay(record)["scores"] == {"A": 65, "B": 5}
    assert GAME.scores(GAME.replay(record)).tolist() == [1.0, 0.0]
    record["rounds"].append(copy.deepcopy(record["rounds"][1]))
    record.pop("result")
    with pytest.raises(RecordError, match="round 4: the game was already over after round 3"):
        GAME.replay(record)


def change(path, value):
    record = worked_example()
    *keys, last = path
    target = record
    for k in keys:
        target = target[k]
    if value is DELETE:
        del target[last]
    else:
        target[last] = value
    return record


DELETE = object()
R1 = ["rounds", 0]
S2 = [*R1, "sets", 1]

BAD = [
    (change(["rules"], "fancy"), "rules: unknown rules preset 'fancy' (known: standard, teams)"),
    (change(["rules"], {"preset": "fancy", "players": 2}), "rules: unknown rules preset 'fancy'"),
    (change(["rules"], {"players": 2, "colour": "red"}), "rules: unknown field 'colour'"),
    (change(["rules"], {"players": 9}), "rules: cards_dealt=6 with players=9"),
    (change(["rules"], {"players": "2"}), "rules: players must be a whole number"),
    (change(["rules"], ["players", 2]), "rules: expected a preset name or an object of fields"),
    (change(["rounds"], []), "rounds: expected a non-empty list"),
    (change([*R1, "call"], "sideways"), "round 1: call must be one of top-dog, bottoms-up"),
    (change([*R1, "dealer"], "B"), "round 1: dealer is A"),
    (change([*R1, "deal", "A", 0], "XX"), "round 1: deal A: unknown postal code 'XX'"),
    (change([*R1, "deal", "B", 0], "TX"), "round 1: deal: TX is dealt twice"),
    (change([*R1, "deal", "A"], ["TX", "CA"]), "round 1: deal: A holds 2 cards, expected 6"),
    (change([*R1, "deal", "C"], ["ID"]), "round 1: deal: unknown seat 'C'"),
    (change([*R1, "deal", "B"], DELETE), "round 1: deal: seat B is missing"),
    (change([*S2, "plays", "B"], ["TX"]), "round 1: set 2: B played TX, which is not in the hand"),
    (change([*S2, "plays", "B"], ["SD"]), "round 1: set 2: B played SD, which is already played"),
    (change([*S2, "plays", "A"], ["DE", "WY", "NY"]), "round 1: set 2: A played 3 cards"),
    (change([*R1, "sets", 2, "plays", "A"], ["NY", "FL", "WY"]), "round 1: set 3: A played 3 cards"),
    (change([*S2, "geopower"], "weather"), "round 1: set 2: geopower must be one of"),
    (change([*S2, "plays"], DELETE), "round 1: set 2 plays: expected an object"),
    (change([*R1, "sets"], []), "round 1: sets: expected a list of 3 sets"),
    (change(["result"], {"winner": "B"}), "result.winner: the record says 'B', the replay gives None"),
    (change(["result"], {"scores": {"A": 45, "B": 5}}), "result.scores: the record says"),
    (change(["result"], {"margin": 3}), "result.margin: unknown key"),
    (change(["result"], [1]), "result: expected an object"),
    (change(["game"], "play-the-ranks"), "game: expected 'jumbled-geopower-choice'"),
]


@pytest.mark.parametrize("record, message", BAD, ids=[m.split(":")[0] + str(i) for i, (_, m) in enumerate(BAD)])
def test_bad_records_name_the_place(record, message):
    with pytest.raises(RecordError) as error:
        GAME.replay(record)
    assert message in str(error.value) and "\n" not in str(error.value)
    if not message.startswith("game"):  # a record of another game is geolab.records' to dispatch
        with pytest.raises(RecordError, match=re.escape(message)):
            records.replay(record)


def test_a_deck_cannot_turn_more_cards_of_a_category_than_it_holds():
    record = worked_example()
    record["rules"] = {"players": 2, "geopower_deck": [1, 1, 1]}
    record["rounds"][0]["sets"][1]["geopower"] = "size"
    with pytest.raises(RecordError, match="round 1: set 2: a size GeoPower card was turned more often"):
        GAME.replay(record)
    record["rules"] = {"players": 2, "geopower_deck": [1, 1, 0]}
    record["rounds"][0]["sets"][1]["geopower"] = "statehood"
    record["rounds"][0]["sets"][2]["geopower"] = "statehood"
    with pytest.raises(RecordError, match="round 1: set 3: the reused GeoPower deck must turn size again"):
        GAME.replay(record)
