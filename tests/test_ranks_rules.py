"""Play the Ranks rules: presets, validation, trick facts, series."""

import pytest

from geolab.cards import POPULATION, SIZE, STATEHOOD, card
from geolab.errors import RulesError
from geolab.games.ranks.reference import outcome, points, score_series, trick_winner
from geolab.games.ranks.rules import PRESETS, Rules


@pytest.mark.parametrize("name", list(PRESETS))
def test_presets_validate_and_round_trip(name):
    rules = Rules.preset(name).validate()
    assert rules.name == name and Rules.from_spec(rules.to_spec()) == rules


def test_preset_facts():
    combo, b1, b2, b3, gd = (Rules.preset(n) for n in ("combo1", "battle1", "battle2", "battle3", "geodouble"))
    assert combo.bases == (1,) * 4 + (50,) * 4 and not combo.discards_public and combo.end_at == 6
    assert b1.discards_public and b1.first_lead == "discard-statehood" and b1.end_at == 5 and b1.target_points == 10
    assert b2.hidden_lead and b2.base_mode == "lead" and b2.win_points == (2, 3, 3) and b2.target_points == 15
    assert b3.base_mode == "power"
    assert (gd.hand_size, gd.discards, gd.tricks, gd.win_tricks, gd.end_at) == (8, 2, 6, 4, None)
    assert gd.win_points == (5, 10, 20)


@pytest.mark.parametrize(
    "override, message",
    [
        ({"hand_size": 10}, "hand_size"),
        ({"bases": [1, 50]}, "bases has 2 entries"),
        ({"bases": [0] * 8}, "between 1 and 50"),
        ({"win_tricks": 4}, "majority"),
        ({"end_at": 3}, "end_at"),
        ({"base_mode": "wild"}, "base_mode"),
        ({"declarations": True}, "go together"),
        ({"hand_size": 30, "tricks": 29}, "exceed"),
        ({"first_lead": "discard-statehood"}, "must be public"),
        ({"colour": "red"}, "unknown field"),
    ],
)
def test_validate_rejects(override, message):
    with pytest.raises(RulesError, match=message):
        Rules.from_spec({"preset": "combo1", **override})


def test_unknown_preset():
    with pytest.raises(RulesError, match="unknown rules preset 'battle9'"):
        Rules.preset("battle9")


def test_rule_text_tricks():
    rules = Rules.preset("battle2")
    assert trick_winner(rules, 0, card("NY"), card("CO"), POPULATION, 1) == 0
    assert trick_winner(rules, 0, card("NM"), card("AK"), STATEHOOD, 50) == 1
    ga_beaten_by = {c for c in range(50)
                    if c != card("GA") and trick_winner(rules, 0, card("GA"), c, STATEHOOD, 1) == 1}
    assert ga_beaten_by == {card("DE"), card("PA"), card("NJ")}
    me_beaten_by = {c for c in range(50)
                    if c != card("ME") and trick_winner(rules, 0, card("ME"), c, POPULATION, 50) == 1}
    assert len(me_beaten_by) == 9 and card("NH") in me_beaten_by  # population 42..50


def test_equal_distance_goes_to_the_lead_by_default():
    b3 = Rules.preset("battle3")
    sc, nc = card("SC"), card("NC")  # statehood 8 and 12: both 2 from base 10
    assert trick_winner(b3, 0, sc, nc, STATEHOOD, 10) == 0
    assert trick_winner(Rules.from_spec({"preset": "battle3", "equal_distance": "follow"}),
                        0, sc, nc, STATEHOOD, 10) == 1
    assert trick_winner(b3, 1, card("TX"), card("AK"), SIZE, 1) == 0


def test_outcome_and_points():
    combo = Rules.combo1()
    assert outcome(combo, [0, 0, 0, 0, 1, 1, 1, 1]) == 1  # 4-4: the last trick decides
    assert outcome(combo, [1, 1, 1, 1, 0, 0, 0, 0]) == 0
    tie_rules = Rules.from_spec({"preset": "battle1", "last_trick_breaks_tie": False})
    assert outcome(tie_rules, [0, 0, 0, 0, 1, 1, 1, 1]) is None
    assert points(tie_rules, None, (False, False), (4, 4)) == (1, 1)
    b2 = Rules.preset("battle2")
    assert points(b2, 1, (True, False), (1, 5)) == (0, 3) and points(b2, 0, (False, False), (5, 0)) == (2, 0)
    gd = Rules.geodouble()
    assert [points(gd, 0, d, (4, 2))[0] for d in [(False, False), (True, False), (True, True)]] == [5, 10, 20]
    shutout = Rules.from_spec({"preset": "battle1", "bonus": "shutout", "win_points": [2, 3, 3]})
    assert points(shutout, 0, (False, False), (5, 0)) == (3, 0) and points(shutout, 0, (False, False), (5, 1)) == (2, 0)


def test_series():
    b1 = Rules.preset("battle1")
    result = score_series(b1, [(2, 0), (0, 2), (2, 0), (2, 0), (2, 0), (2, 0), (0, 2)])
    assert (result.winner, result.score, result.battles) == (0, (10, 2), 6)
    # 9-9 after a tie, then another tie at 10-10: play on until one side is ahead.
    result = score_series(b1, [(2, 0), (0, 2)] * 4 + [(1, 1), (1, 1), (0, 2)])
    assert (result.winner, result.score) == (1, (10, 12))
    with pytest.raises(RulesError, match="ran out"):
        score_series(b1, [(2, 0)])
    with pytest.raises(RulesError, match="no target_points"):
        score_series(Rules.combo1(), [(1, 0)])


def test_set_none_is_the_word_for_a_text_field_and_null_for_a_nullable_one():
    rules = Rules.preset("battle2").with_settings(["bonus=none", "declarations=false", "end_at=none"])
    assert rules.bonus == "none" and rules.end_at is None and rules.declarations is False
