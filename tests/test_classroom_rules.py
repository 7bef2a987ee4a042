"""Class GeoPower Double Choice: rules, validation, grouping and the rule text's examples."""

import numpy as np
import pytest

from geolab.cards import POPULATION, POSTAL, RANKS, SIZE, card
from geolab.errors import RulesError
from geolab.games.classroom.hands import HANDS, hand_index, kept_sums
from geolab.games.classroom.observations import observe
from geolab.games.classroom.reference import round_winners, score
from geolab.games.classroom.rules import BOTTOMS_UP, TOP_DOG, Rules


def ranked(category: int, rank: int) -> int:
    """The card with this rank in this category (looked up, never typed in)."""
    return int(np.flatnonzero(RANKS[:, category] == rank)[0])


def test_text_example_size_40_beats_45_under_top_dog():
    first = [ranked(SIZE, 10), ranked(SIZE, 30)]
    second = [ranked(SIZE, 5), ranked(SIZE, 40)]
    scores = {0: score(first, SIZE), 1: score(second, SIZE)}
    assert scores == {0: 40, 1: 45}
    assert round_winners(scores, TOP_DOG) == [0]


def test_text_example_population_50_is_worst_so_it_wins_bottoms_up():
    first = [ranked(POPULATION, 15), ranked(POPULATION, 35)]
    second = [ranked(POPULATION, 20), ranked(POPULATION, 25)]
    scores = {0: score(first, POPULATION), 1: score(second, POPULATION)}
    assert scores == {0: 50, 1: 45}
    assert round_winners(scores, BOTTOMS_UP) == [0]
    assert round_winners(scores, TOP_DOG) == [1]


def test_every_tied_student_wins():
    assert round_winners({3: 40, 5: 40, 7: 52}, TOP_DOG) == [3, 5]
    assert round_winners({3: 40, 5: 52, 7: 52}, BOTTOMS_UP) == [5, 7]


@pytest.mark.parametrize("kwargs, words", [
    ({"students": 9}, "students: 9"),
    ({"students": 40}, "students: 40"),
    ({"groups": 9}, "groups: 9"),
    ({"groups": 1}, "groups: 1"),
    ({"students": 17, "groups": 2, "starting_rounds": 1}, "17 students in one Starting Round with one deck"),
    ({"students": 10, "groups": 8}, "leaves a group of 1"),
    ({"students": 30, "groups": 3}, "cannot be split into two"),
    ({"students": 30, "groups": 3, "two_decks": True}, "one deck would hold 20"),
    ({"students": 20, "two_decks": True, "starting_rounds": 2}, "two_decks"),
    ({"call": "top dogs"}, "call: 'top dogs'"),
    ({"championship_ties": "coin"}, "championship_ties"),
    ({"geopower": (0, 0, 0)}, "geopower"),
    ({"discarded": 2}, "discards exactly 1"),
    ({"max_per_round": 17}, "51 is more than the 50 cards"),
])
def test_validate_names_the_problem(kwargs, words):
    with pytest.raises(RulesError, match=words):
        Rules(**kwargs).validate()


@pytest.mark.parametrize("students", range(10, 33))
def test_groups_as_equal_as_possible_and_rounds_hold_at_most_16(students):
    for groups in range(2, 9):
        rules = Rules(students=students, groups=groups)
        try:
            rules.validate()
        except RulesError:
            continue
        sizes = rules.group_sizes()
        assert sum(sizes) == students and max(sizes) - min(sizes) <= 1
        members = [s for g in rules.groups_of() for s in g]
        assert members == list(range(students))
        plan = rules.round_plan()
        assert len(plan) == (1 if students <= 16 else 2)
        assert sorted(g for rnd in plan for deck in rnd for g in deck) == list(range(groups))
        for rnd in plan:
            assert sum(sizes[g] for deck in rnd for g in deck) <= 16


def test_two_decks_play_one_round_split_like_two_rounds():
    rules = Rules(students=32, groups=8, two_decks=True).validate()
    (decks,) = rules.round_plan()
    assert len(decks) == 2 and all(sum(rules.group_sizes()[g] for g in d) == 16 for d in decks)
    assert rules.rounds == 1


def test_rules_from_spec_names_unknown_fields():
    assert Rules.from_spec({"students": 12, "groups": 3}).group_sizes() == (4, 4, 4)
    with pytest.raises(RulesError, match="unknown field 'pupils'"):
        Rules.from_spec({"pupils": 12})


def test_presets_are_the_text_s_class_sizes_and_specs_round_trip():
    assert Rules.preset("default") == Rules() and Rules.DEFAULT == "default"
    assert Rules.preset("small-class").rounds == 1
    assert Rules.preset("full-class").rounds == 2 and not Rules.preset("full-class").two_decks
    (decks,) = Rules.preset("two-decks").round_plan()
    assert len(decks) == 2
    # the fields that differ from the nearest preset, as records write them
    assert Rules(students=12, groups=3).to_spec() == {"preset": "default", "students": 12, "groups": 3}
    assert Rules.from_spec({"students": 10, "groups": 2}).to_spec() == "small-class"
    assert Rules.from_spec({"geopower": [1, 0, 4]}).geopower == (1, 0, 4)  # JSON lists become tuples
    with pytest.raises(RulesError, match="geopower"):
        Rules.from_spec({"geopower": [1, 0]})


def test_hand_table_indices_and_kept_sums():
    assert HANDS.shape == (19600, 3)
    assert (hand_index(HANDS) == np.arange(19600)).all()
    hand = sorted([card("TX"), card("CA"), card("AK")])
    kept = kept_sums()[hand_index(np.array([hand]))[0]]
    # discarding the first card keeps the other two: their size ranks are 1-3 in some order
    assert kept[0, SIZE] == RANKS[hand[1], SIZE] + RANKS[hand[2], SIZE]
    assert POSTAL[hand[0]] in ("AK", "CA", "TX")


def test_observation_holds_only_own_hand_call_and_opponents():
    obs = observe([[card("NY"), card("AK"), card("DE")]], BOTTOMS_UP, 3)
    assert set(obs) == {"hand", "call", "opponents"}
    assert list(obs["hand"][0]) == sorted([card("NY"), card("AK"), card("DE")])
