"""The group finder (geolab/games/groups.py): hand-made hands against the rule texts, the
batched finder against the plain one, and `geolab groups`."""

import json
from math import comb

import numpy as np
import pytest

from geolab.cards import borders, card
from geolab.cli import main
from geolab.games import groups, groups_batch
from geolab.games.groups import HandError, Solutions, find
from geolab.games.groups_batch import find_batch

SETTINGS = [(False, False), (True, False), (False, True), (True, True)]


def hand(text: str) -> tuple[int, ...]:
    return tuple(sorted(card(p) for p in text.split()))


def group(text: str) -> groups.Group:
    return hand(text)


#: hand -> (border groups, capital groups, GeoDouble solutions, Border-Up solutions), land borders
HANDS = {
    "MD VA NC": ([group("MD VA NC")], [], Solutions(0, None), Solutions(0, None)),  # the Border-Up text's example
    "AK HI ME FL WA TX": ([], [], Solutions(0, None), Solutions(0, None)),
    # four capitals in A (Annapolis, Augusta, Austin, Albany): four groups, one without MD
    "MD VA NC ME TX NY": ([group("MD VA NC")], [group(g) for g in ("ME MD NY", "ME MD TX", "ME NY TX", "MD NY TX")],
                          Solutions(1, (group("MD NC VA"), group("ME NY TX"))), Solutions(0, None)),
    # WA, OR and ID all border each other: one group, not three
    "MD VA NC WA OR ID": ([group("ID OR WA"), group("MD NC VA")], [], Solutions(0, None),
                          Solutions(1, (group("ID OR WA"), group("MD NC VA")))),
    # three Idaho groups, each disjoint from MD NC VA only; the example is the smallest pair
    "MD VA NC WA OR ID MT": ([group("ID MT OR"), group("ID MT WA"), group("ID OR WA"), group("MD NC VA")], [],
                             Solutions(0, None), Solutions(3, (group("ID MT OR"), group("MD NC VA")))),
}


@pytest.mark.parametrize("text", HANDS)
def test_hand_made_hands_in_both_finders(text):
    border, capital, geodouble, border_up = HANDS[text]
    found = find(hand(text))
    assert (list(found.border), list(found.capital), found.geodouble, found.border_up) == (
        border, capital, geodouble, border_up)
    batch = find_batch(np.array([groups.mask(hand(text))]))
    assert (batch.border[0], batch.capital[0]) == (len(border), len(capital))
    assert batch.found(0) == (geodouble, border_up)


def test_a_border_group_names_its_centers():
    assert groups.centers(hand("MD VA NC")) == [card("VA")]
    assert groups.centers(hand("WA OR ID")) == list(hand("WA OR ID"))
    assert groups.centers(hand("MD NC ID")) == []


def test_a_capital_group_is_three_capitals_with_one_first_letter():
    assert find(hand("CA MN OR")).capital == (hand("CA MN OR"),)  # Sacramento, Saint Paul, Salem
    assert find(hand("CA MN NY")).capital == ()  # Albany is not an S
    assert find(hand("CO ND ID")).capital == ()  # Denver, Bismarck, Boise: two B's are not three


@pytest.mark.parametrize("text, setting, center", [
    ("AZ CO WY", (True, False), "CO"),  # Four Corners: CO touches AZ at a point
    ("MI MN ND", (False, True), "MN"),  # water: MN and MI meet in Lake Superior
])
def test_the_switches_add_the_contacts_geolab_cards_has(text, setting, center):
    assert find(hand(text)).border == ()
    other = (not setting[0], not setting[1])
    assert find(hand(text), *other).border == ()
    assert find(hand(text), *setting).border == (hand(text),)
    assert groups.centers(hand(text), *setting) == [card(center)]


def test_a_switch_changes_the_solutions():
    cards = hand("MD VA NC MI MN ND")
    assert find(cards).border_up == Solutions(0, None)
    assert find(cards, water=True).border_up == Solutions(1, (group("MD NC VA"), group("MI MN ND")))
    masks = np.array([groups.mask(cards)])
    assert find_batch(masks).border_up[0] == 0 and find_batch(masks, water=True).border_up[0] == 1


def test_solutions_are_unordered_pairs_of_disjoint_groups():
    some = [(0, 1, 2), (0, 3, 6), (3, 4, 5), (6, 7, 8)]
    assert groups.solutions(some) == Solutions(3, ((0, 1, 2), (3, 4, 5)))
    assert groups.solutions(some[:2], some[2:]) == Solutions(2, ((0, 1, 2), (3, 4, 5)))
    assert groups.solutions(some[1:2], some[2:]) == Solutions(0, None)


@pytest.mark.parametrize("four_corners, water", SETTINGS)
def test_every_group_of_the_deck_once(four_corners, water):
    """A group with one center is counted once among its center's pairs of neighbours, a
    group of three mutual neighbours three times: that many, less twice the triangles."""
    adjacent = borders(four_corners, water).astype(np.int64)
    degrees = adjacent.sum(axis=1)
    triangles = np.trace(adjacent @ adjacent @ adjacent) // 6
    deck = range(50)
    found = groups.border_groups(deck, four_corners, water)
    assert len(found) == sum(comb(int(d), 2) for d in degrees) - 2 * triangles
    assert len(groups.capital_groups(deck)) == 64
    t = groups_batch.tables(four_corners, water)
    assert t.border[: len(found)].tolist() == [groups.mask(g) for g in found] and (t.border[len(found):] == -1).all()


@pytest.mark.parametrize("four_corners, water", SETTINGS)
def test_the_batched_finder_equals_the_plain_one_on_random_hands(four_corners, water):
    hands = groups.random_hands(3000, 18, seed=7 + 2 * four_corners + water)
    batch = find_batch(hands, four_corners, water)
    for h, m in enumerate(hands):
        found = find(groups.cards_of(m), four_corners, water)
        assert (batch.border[h], batch.capital[h]) == (len(found.border), len(found.capital))
        assert batch.found(h) == (found.geodouble, found.border_up)
    assert batch.geodouble.any() and batch.border_up.any() and not batch.border_up.all()


@pytest.mark.parametrize("size, n", [(6, 500), (12, 300), (30, 40), (50, 1)])
def test_the_finders_agree_at_other_hand_sizes(size, n):
    hands = groups.random_hands(n, size, seed=size)
    batch = find_batch(hands, four_corners=True, water=True)
    for h, m in enumerate(hands):
        found = find(groups.cards_of(m), four_corners=True, water=True)
        assert (batch.border[h], batch.capital[h], *batch.found(h)) == (
            len(found.border), len(found.capital), found.geodouble, found.border_up)


def test_hands_that_are_not_sets_of_cards_are_refused():
    with pytest.raises(HandError, match="twice"):
        find([1, 2, 2])
    with pytest.raises(HandError, match="0-49"):
        find([1, 2, 50])
    with pytest.raises(HandError, match="masks"):
        find_batch(np.array([1 << 50]))
    assert find_batch(np.zeros(0, np.int64)).border.shape == (0,)


def test_the_cli_prints_groups_and_solutions(capsys):
    assert main(["groups", "md", "VA", "NC", "ME", "TX", "NY"]) == 0
    out = capsys.readouterr().out
    assert "MD NC VA   VA borders MD and NC" in out and "ME NY TX   Augusta, Albany, Austin" in out
    assert "GeoDouble (border group + capital group): 1 solution, e.g. MD NC VA + ME NY TX" in out
    assert "Border-Up (two border groups): no solution" in out


def test_the_cli_json_and_switches(capsys):
    assert main(["groups", *"MD VA NC MI MN ND".split(), "--water", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["water"] and not report["four_corners"]
    assert {"cards": ["MI", "MN", "ND"], "centers": ["MN"]} in report["border_groups"]
    assert report["border_up"] == {"solutions": 1, "example": [["MD", "NC", "VA"], ["MI", "MN", "ND"]]}
    assert report["geodouble"] == {"solutions": 0, "example": None}
    assert main(["groups", *"CA MN OR MD VA NC".split(), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["capital_groups"] == [{"cards": ["CA", "MN", "OR"], "letter": "S"}]


@pytest.mark.parametrize("argv, words", [
    (["MD", "VA", "NC", "XX", "TX", "NY"], "unknown postal code 'XX'"),
    (["MD", "VA", "NC", "ME", "TX", "md"], "MD is named twice"),
    (["MD", "VA", "md"], "MD is named twice"),
    (["MD"], "give 3 cards (one group) or 6 or more (a hand: two groups of three), not 1"),
    (["MD", "VA"], "not 2"),
    (["MD", "VA", "NC", "ME"], "not 4"),
    (["MD", "VA", "NC", "ME", "TX"], "not 5"),
])
def test_the_cli_refuses_bad_hands_in_one_line(argv, words, capsys):
    assert main(["groups", *argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1 and words in captured.err


@pytest.mark.parametrize("argv, line", [
    (["md", "VA", "NC"], "MD NC VA: a border group (VA borders MD and NC); not a capital group (Annapolis, Raleigh, "
                         "Richmond)"),
    (["ME", "NY", "TX"], "ME NY TX: not a border group (no card borders both others); a capital group (Augusta, "
                         "Albany, Austin)"),
    (["WA", "OR", "ID"], "ID OR WA: a border group (each borders the other two); not a capital group (Boise, Salem, "
                         "Olympia)"),
    (["MD", "NC", "ID"], "ID MD NC: not a border group (no card borders both others); not a capital group (Boise, "
                         "Annapolis, Raleigh)"),
])
def test_the_cli_checks_one_group_of_three(argv, line, capsys):
    """Issue 37, item 12: three cards are one group to check, not a hand too small."""
    assert main(["groups", *argv]) == 0
    assert capsys.readouterr().out == line + "\n"


def test_one_group_follows_the_border_switches_and_prints_json(capsys):
    assert main(["groups", "AZ", "CO", "NM"]) == 0
    assert "AZ CO NM: a border group (NM borders AZ and CO)" in capsys.readouterr().out
    assert main(["groups", "AZ", "CO", "UT", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["border_group"] is True  # CO and AZ each border UT
    assert main(["groups", "AZ", "CO", "NM", "--four-corners", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report == {"group": ["AZ", "CO", "NM"], "four_corners": True, "water": False, "border_group": True,
                      "centers": ["AZ", "CO", "NM"], "capital_group": False, "letter": None}
    assert main(["groups", "CA", "MN", "OR", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["capital_group"] and report["letter"] == "S" and not report["border_group"]
    assert groups.check_group(hand("MD VA NC")).centers == (card("VA"),)
    with pytest.raises(HandError, match="a group is 3 cards"):
        groups.check_group(hand("MD VA NC ME"))
