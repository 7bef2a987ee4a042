"""Class GeoPower Double Choice records: the documented example, and every error names its place."""

import copy
import json
import re
from pathlib import Path

import pytest

from geolab.errors import RecordError
from geolab.records import replay

DOC = Path(__file__).parents[1] / "docs" / "records-classroom.md"


def documented() -> tuple[dict, dict]:
    blocks = re.findall(r"```json\n(.*?)```", DOC.read_text(), re.S)
    return json.loads(blocks[0]), json.loads(blocks[1])


def test_worked_example_replays_to_the_documented_report():
    record, report = documented()
    out = replay(record)
    for key, value in report.items():
        assert out[key] == value
    starting, final = out["rounds"]
    assert starting["scores"]["S1"] == 40 and starting["scores"]["S2"] == 45  # rule text, Size
    assert final["scores"] == {"S1": 50, "S10": 45}  # rule text, Population, Bottoms Up


def test_the_result_is_optional():
    record, _ = documented()
    del record["result"]
    assert replay(record)["champions"] == ["S1"]


def _broken(change) -> dict:
    record, _ = documented()
    record = copy.deepcopy(record)
    change(record)
    return record


def _set(path, value):
    def change(record):
        target = record
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return change


TIED_FINAL = _set(["rounds", 1, "deal", "S10"], ["WI", "IA", "TX"])  # keeps 20 + 30 = 50, as S1


@pytest.mark.parametrize("change, message", [
    (_set(["rounds", 0, "deal", "S3"], ["CT", "DE", "XX"]), "round 1: S3 holds 'XX', which is not a postal code"),
    (_set(["rounds", 0, "deal", "S4"], ["MA", "NY", "MD"]), "round 1: NY dealt twice (S1 and S4)"),
    (_set(["rounds", 1, "discards", "S1"], "TX"), "round 2: S1 discarded TX, which is not in S1's hand"),
    (lambda r: r["rounds"][0]["discards"].pop("S7"), "round 1: S7's discard is missing"),
    (_set(["rounds", 1, "deal", "S2"], ["AK", "HI", "DE"]), "round 2: the deal should be for S1, S10; check S2"),
    (_set(["rules", "call"], "top-dog"), "round 2: call 'bottoms-up' but the rules fix 'top-dog'"),
    (_set(["rounds", 0, "geopower"], "area"), "round 1: geopower 'area'"),
    (_set(["rounds", 0, "call"], "top dogs"), "round 1: call 'top dogs'"),
    (_set(["rounds", 0, "stage"], "championship"), "round 1: stage should be 'starting'"),
    (_set(["rounds", 0, "deal", "S5"], ["KY", "OH"]), "round 1: S5 must be dealt 3 cards"),
    (lambda r: r["rounds"].append(copy.deepcopy(r["rounds"][1])), "round 3: the game was over after round 2"),
    (lambda r: r["rounds"].pop(), "rounds: round 2 (championship) is missing"),
    (_set(["result", "champions"], ["S10"]), "result: champions is ['S10'], but the game gives ['S1']"),
    (_set(["result", "winner"], "S1"), "result: unknown key 'winner'"),
    (_set(["rules", "students"], 40), "rules: students: 40 is outside"),
    (_set(["rules", "pupils"], 10), "rules: unknown field 'pupils'"),
    (_set(["rounds"], "none"), "rounds: expected a list"),
    (_set(["rounds", 0, "deal", "S11"], ["AK", "HI", "DE"]), "round 1: unknown student 'S11'"),
    (_set(["rounds", 0, "discards", "S12"], "AK"), "round 1: discards for students not in the round: S12"),
    (_set(["rules", "geopower"], [5, 5, 0]), "round 2: the GeoPower deck has no population card"),
])
def test_every_error_names_its_place(change, message):
    with pytest.raises(RecordError) as error:
        replay(_broken(change))
    assert str(error.value).startswith(message)
    assert "\n" not in str(error.value)


def test_a_tied_championship_must_be_replayed():
    def tie(record):
        TIED_FINAL(record)
        del record["result"]
    record = _broken(tie)
    with pytest.raises(RecordError, match=r"rounds: round 3 \(championship\) is missing"):
        replay(record)
    record["rules"]["championship_ties"] = "share"
    assert replay(record)["champions"] == ["S1", "S10"]
