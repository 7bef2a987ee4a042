"""Records: every rule-text example and hand-made record replays to its hand-worked result;
every malformed or illegal record gives exit code 2 and one line naming the place."""

import copy
import json
from pathlib import Path

import numpy as np
import pytest

from geolab import records, registry
from geolab.cli import main
from geolab.errors import RecordError
from geolab.lab.tables import lineup
from geolab.stepwise import RandomSeat

HERE = Path(__file__).parent / "records"
FIXTURES = sorted(HERE.glob("*.json"))


def test_there_are_the_promised_records():
    names = {p.stem for p in FIXTURES}
    text = {n for n in names if n.startswith("text_")}  # the rule texts' worked examples
    assert {"text_ny_v_co_population", "text_nm_v_ak_statehood", "text_co_v_ny_statehood_combo1_4_4",
            "text_georgia_base_1", "text_maine_base_50"} <= text
    assert len(names - text) >= 10  # hand-made games beyond the examples


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_fixture_replays_to_its_hand_worked_result(path, capsys):
    record = records.load(path)
    assert records.replay(record) == record["result"]
    assert main(["replay", "--json", str(path)]) == 0
    assert json.loads(capsys.readouterr().out) == record["result"]


def load(name):
    return json.loads((HERE / f"{name}.json").read_text())


def mutate(name, change):
    record = load(name)
    change(record)
    return record


def set_trick(i, key, value):
    def change(r):
        r["tricks"][i][key] = value
    return change


BAD = [
    ("unknown postal", "text_ny_v_co_population", lambda r: r["deal"]["A"].__setitem__(0, "XX"),
     "deal.A: unknown postal code 'XX'"),
    ("duplicate card", "text_ny_v_co_population", lambda r: r["deal"]["B"].__setitem__(0, "NY"),
     "deal: NY dealt twice"),
    ("wrong hand size", "text_ny_v_co_population", lambda r: r["deal"]["A"].pop(), "deal.A: expected 9 cards, got 8"),
    ("discard not held", "text_ny_v_co_population", lambda r: r["discards"].__setitem__("A", ["CO"]),
     "discards: A's discard (5,) is not legal"),
    ("card not in hand", "text_ny_v_co_population", set_trick(2, "follow", "NV"),
     "trick 3: B's follow 27 is not legal"),
    ("card played twice", "text_ny_v_co_population", set_trick(1, "lead", "NY"),
     "trick 2: A's lead NY size base 1 is not legal"),
    ("out of turn", "text_nm_v_ak_statehood", set_trick(5, "leader", "A"),
     "trick 6: A led out of turn; B has the lead"),
    ("fixed base contradicted", "text_nm_v_ak_statehood", set_trick(0, "base", 50),
     "trick 1: base 50 given, but these rules fix the base at 1"),
    ("illegal level 2 base", "text_georgia_base_1", set_trick(0, "base", 20),
     "trick 1: A's lead GA statehood base 20 is not legal"),
    ("missing level 2 base", "text_georgia_base_1", lambda r: r["tricks"][0].pop("base"), "trick 1: missing 'base'"),
    ("unknown category", "text_georgia_base_1", set_trick(0, "category", "height"),
     "trick 1: unknown category 'height'"),
    ("missing trick", "text_nm_v_ak_statehood", lambda r: r["tricks"].pop(), "trick 8: missing"),
    ("extra trick", "text_ny_v_co_population",
     lambda r: r["tricks"].append({"lead": "RI", "category": "size", "follow": "MD"}),
     "trick 7: the game was over after 6 tricks"),
    ("wrong result", "text_nm_v_ak_statehood", lambda r: r["result"].__setitem__("winner", "A"),
     "result.winner: the record says 'A', the replay gives 'B'"),
    ("first lead contradicts discards", "text_nm_v_ak_statehood", lambda r: r.__setitem__("first_lead", "B"),
     "first_lead: B given, but the discards give the lead to A"),
    ("first lead missing", "text_ny_v_co_population", lambda r: r.pop("first_lead"), "first_lead: missing"),
    ("declarations missing", "text_georgia_base_1", lambda r: r.pop("declarations"), "declarations: missing"),
    ("declarations where none", "text_ny_v_co_population",
     lambda r: r.__setitem__("declarations", {"A": True, "B": True}),
     "declarations: rules combo1 have no declarations"),
    ("bad rules", "text_ny_v_co_population", lambda r: r.__setitem__("rules", "combo9"), "rules: unknown rules preset"),
    ("bad power bases", "battle3_equal_distance_lead_wins", lambda r: r.__setitem__("power_bases", [10, 25]),
     "power_bases: expected two Power-card bases"),
    ("bad format", "text_ny_v_co_population", lambda r: r.__setitem__("format", "pbn"), "format: expected"),
    ("unknown game", "text_ny_v_co_population", lambda r: r.__setitem__("game", "chess"), "game: unknown game 'chess'"),
]


@pytest.mark.parametrize("what, name, change, message", BAD, ids=[b[0] for b in BAD])
def test_bad_record_is_one_clear_line_and_exit_2(what, name, change, message, tmp_path, capsys):
    record = mutate(name, change)
    with pytest.raises(RecordError) as caught:
        records.replay(copy.deepcopy(record))
    assert message in str(caught.value)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err and "Traceback" not in err


def test_malformed_json(tmp_path, capsys):
    path = tmp_path / "broken.json"
    path.write_text('{"format": "geolab-record/1",\n "game": }')
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert "malformed JSON at line 2" in err and err.count("\n") == 1


def test_missing_file(capsys):
    assert main(["replay", "/nonexistent/record.json"]) == 2
    assert "cannot read" in capsys.readouterr().err


def _a_record(name: str) -> dict:
    """A record of the registered game `name`: one game of random legal play on its reference engine."""
    entry = registry.get(name)
    rules = entry.game.Rules.preset(entry.game.Rules.DEFAULT)
    rng = np.random.default_rng(1)
    played = entry.game.play(rules, entry.game.deal(rules, rng),
                             [RandomSeat(rng) for _ in range(entry.game.seats(rules))])
    return json.loads(json.dumps(entry.game.to_record(played)))


@pytest.mark.parametrize("name", registry.names())
def test_a_record_without_rules_is_refused_for_every_game(name, tmp_path, capsys):
    """Issue 37: a record without ``rules`` was read under the game's default preset, though
    docs/records.md says the field is always there; every game writes it."""
    record = _a_record(name)
    assert "rules" in record
    records.replay(copy.deepcopy(record))
    del record["rules"]
    with pytest.raises(RecordError) as caught:
        records.replay(copy.deepcopy(record))
    assert str(caught.value).startswith("rules: missing") and "\n" not in str(caught.value)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "rules: missing" in err


def _nested_records(value):
    """Every record inside a JSON value (a dict with a ``format``), itself included."""
    if isinstance(value, dict):
        if "format" in value:
            yield value
        for v in value.values():
            yield from _nested_records(v)
    elif isinstance(value, list):
        for v in value:
            yield from _nested_records(v)


@pytest.mark.parametrize("name", registry.names())
def test_every_record_geolab_writes_carries_its_rules(name):
    """`to_record` and `batch_records` of every game, and the records nested in them (a Combo 1
    match's games, a GeoDouble round's stage), write ``rules``: a reader never guesses them."""
    entry = registry.get(name)
    rules = entry.game.Rules.preset(entry.game.Rules.DEFAULT)
    bots = [entry.bots.make(n, rules) for n in lineup(entry.simulate_bots.split(","), entry.game.seats(rules))]
    written = [_a_record(name), *json.loads(json.dumps(entry.game.batch_records(rules, bots, 2, 3)))]
    nested = [r for record in written for r in _nested_records(record)]
    assert len(nested) >= len(written) and all("rules" in r for r in nested)
    for record in written:
        records.replay(record)
