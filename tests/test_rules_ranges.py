"""Every field of every game's Rules is checked for range and shape under every preset, whether
or not the preset uses the field (issue 24, item 1): a battle2 form, whose lead picks the base,
still refuses a `bases` list holding base 0 or the wrong number of tricks."""

from __future__ import annotations

import json
from dataclasses import fields
from pathlib import Path

import pytest

from geolab import registry
from geolab.cli import main
from geolab.errors import GeolabError, RulesError

RECORDS = Path(__file__).parent / "records"

#: Per game, per field: values of the right type that no form may hold. A field whose every
#: value of its type is possible (a bool) maps to () and is named in `TYPE_ONLY`: its type is
#: checked by the conformance suite (a wrong-typed value of every field is a RulesError).
OUT_OF_RANGE = {
    "ranks": {
        "name": ["", "x" * 41, "tab\there"],
        "deck": [0, 5, 51],
        "hand_size": [0, 7, 30],
        "discards": [-1, 3],
        "tricks": [0, 30],
        "bases": [[0] * 8, [51] * 8, [1] * 4, [1] * 6, [0, 0, 0, 0, 0, 0]],
        "base_mode": ["chosen"],
        "lead_bases": [[], [0, 50], [1, 51], [1, 1]],
        "power_split": [0, -1, 8, 99],
        "discards_public": (),
        "first_lead": ["coin"],
        "hidden_lead": (),
        "declarations": (),
        "win_tricks": [0, 4, 9],
        "end_at": [0, 9],
        "last_trick_breaks_tie": (),
        "equal_distance": ["none"],
        "win_points": [[-1, 1, 1], [1, 1, -2]],
        "bonus": ["double"],
        "tie_points": [-1],
        "target_points": [0, -5],
    },
    "jumbled": {
        "players": [1, 9],
        "teams": [[0, 0, 0, 0], [0, 1], [0, 2, 0, 2], [1, 2, 1, 2]],
        "cards_dealt": [0, 17],
        "cards_to_play": [0, 2, 7],
        "sets_per_round": [0, 6],
        "min_cards_per_set": [0, 3],
        "max_cards_per_set": [0, 7],
        "points_per_set": [-1],
        "bonus": [[0, 0, 5], [0, 0, -5, 10], [0, 0, 5, 10, 20]],
        "target": [0, -50],
        "geopower_deck": [[0, 0, 0], [-1, 5, 5], [51, 5, 5]],
        "used_to_bottom": (),
        "calls": [[], ["top-dog", "top-dog"], ["sideways"]],
        "set_tie": ["coin"],
        "final_tie": ["coin"],
        "max_rounds": [0, 10_001],
    },
    "class": {
        "students": [9, 33],
        "groups": [1, 9],
        "min_students": [1, 0, 40],
        "max_students": [5, 33],
        "min_groups": [1, 9],
        "max_groups": [1, 17],
        "min_group_size": [0, -1, 33],
        "max_per_round": [1, 17],
        "starting_rounds": [0, 3],
        "two_decks": (),
        "dealt": [1, 17],
        "discarded": [0, 2],
        "call": ["teacher"],
        "geopower": [[0, 0, 0], [-1, 5, 5], [51, 5, 5]],
        "championship_ties": ["coin"],
    },
    "mini": {
        "seats": [1, 4],
        "hand": [0, 9],
        "category": [-1, 3],
    },
    "geodouble": {  # a match: its stage holds Play the Ranks' rules, checked as Play the Ranks' (and first_lead given)
        "stage": [{"hand_size": 0}, {"first_lead": "discard-statehood"}, "no-such-preset"],
        "race_cards": [5, 26],
        "four_corners": (),
        "water": (),
        "race_points": [0, 1001],
        "target": [0, 10_001],
        "redeals": [-1, 101],
        "max_rounds": [0, 201],
    },
    "border-up": {
        "cards": [5, 26],
        "four_corners": (),
        "water": (),
        "redeals": [-1, 101],
    },
    "dashing-states": {
        "cards": [1, 8, 26],
        "placed": [0, 5],
        "face_down": (),
        "announce": ["states"],
        "either_direction": (),
        "simultaneous": [-0.5, 61.0],
        "simultaneous_announce": (),
    },
    "state-iq": {
        "clues": ["AB", "ABCA", "ABD", "abc", ""],
        "four_corners": (),
        "water": (),
        "futile_guesses": (),
    },
    "combo1": {  # a match of four games: each game's rules checked as that game's (Play the Ranks' first lead given)
        "round": ["noon", ""],
        "minutes": [0, 601],
        "order": [["ranks"], ["ranks", "ranks", "state-iq", "dashing-states"],
                  ["ranks", "state-iq", "dashing-states", "chess"]],
        "unfinished": ["half"],
        "early_stop": ["always"],
        "tiebreaks": [-1, 101],
        "border_up": [{"cards": 5}, "no-such-preset"],
        "state_iq": [{"clues": "AB"}, "no-such-preset"],
        "dashing": [{"placed": 0}, "no-such-preset"],
        "ranks": [{"hand_size": 0}, {"first_lead": "discard-statehood"}, "no-such-preset"],
        "setup_border_up": [4.0, 3601.0],
        "setup_state_iq": [4.0, 3601.0],
        "setup_dashing": [4.0, 3601.0],
        "setup_ranks": [4.0, 3601.0],
        "check": [-1.0, 3601.0],
        "turn": [-1.0, 3601.0],
        "announce": [-1.0, 3601.0],
        "discard": [-1.0, 3601.0],
        "trick": [-1.0, 3601.0],
    },
}
TYPE_ONLY = {("ranks", "discards_public"), ("ranks", "hidden_lead"), ("ranks", "declarations"),
             ("ranks", "last_trick_breaks_tie"), ("jumbled", "used_to_bottom"), ("class", "two_decks"),
             ("geodouble", "four_corners"), ("geodouble", "water"),
             ("border-up", "four_corners"), ("border-up", "water"),
             ("dashing-states", "face_down"), ("dashing-states", "either_direction"),
             ("dashing-states", "simultaneous_announce"),
             ("state-iq", "four_corners"), ("state-iq", "water"), ("state-iq", "futile_guesses")}


def test_the_table_names_every_field_of_every_registered_game():
    assert set(OUT_OF_RANGE) == set(registry.names())
    for game, table in OUT_OF_RANGE.items():
        Rules = registry.get(game).game.Rules
        assert list(table) == Rules.field_names(), game
        for name, values in table.items():
            assert bool(values) == ((game, name) not in TYPE_ONLY), (game, name)
            kind = next(f.type for f in fields(Rules) if f.name == name)
            if not values:
                assert kind == "bool", (game, name)


@pytest.mark.parametrize("game", list(OUT_OF_RANGE))
def test_every_field_out_of_range_is_refused_under_every_preset(game):
    Rules = registry.get(game).game.Rules
    for preset in Rules.PRESETS:
        rules = Rules.preset(preset)
        for name, values in OUT_OF_RANGE[game].items():
            for bad in values:
                if (tuple(bad) if isinstance(bad, list) else bad) == getattr(rules, name):
                    continue  # this preset's own value (geodouble's six bases at 1)
                with pytest.raises(RulesError, match=name) as error:
                    rules.replace(**{name: bad})
                assert "\n" not in str(error.value), (game, preset, name, bad)


def test_a_lead_chosen_base_form_refuses_impossible_fixed_bases():
    """The issue's case: battle2 picks bases by lead, yet base 0 and 6 entries for 8 tricks are refused."""
    Rules = registry.get("ranks").game.Rules
    with pytest.raises(RulesError, match="bases has 6 entries for 8 tricks"):
        Rules.from_spec({"preset": "battle2", "bases": [0, 0, 0, 0, 0, 0]})
    with pytest.raises(RulesError, match="every entry of bases"):
        Rules.from_spec({"preset": "battle2", "bases": [0] * 8})
    with pytest.raises(RulesError, match="power_split"):
        Rules.from_spec({"preset": "combo1", "power_split": 8})
    with pytest.raises(RulesError, match="lead_bases"):
        Rules.from_spec({"preset": "battle3", "lead_bases": [1, 1]})
    # a form that changes the number of tricks says the bases of every trick, whatever the mode
    ten = Rules.from_spec({"preset": "battle3", "hand_size": 12, "tricks": 10, "discards": 2, "bases": [1] * 10,
                           "win_tricks": 6, "end_at": 6})
    assert ten.tricks == 10 and ten.base_mode == "power"


@pytest.mark.parametrize("command", ["replay", "solve"])
def test_a_record_with_impossible_unused_bases_is_refused_in_one_line(command, tmp_path, capsys):
    record = json.loads((RECORDS / "battle2_both_declare.json").read_text())
    assert main(["replay", str(RECORDS / "battle2_both_declare.json")]) == 0
    capsys.readouterr()
    record["rules"] = {"preset": "battle2", "bases": [0, 0, 0, 0, 0, 0]}
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record))
    assert main([command, str(bad)]) == 2
    err = capsys.readouterr().err.strip()
    assert "bases" in err and len(err.splitlines()) == 1
    with pytest.raises(GeolabError, match="bases"):
        registry.get("ranks").game.replay(record)
