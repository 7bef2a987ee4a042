"""Card facts: every fact the rule texts state, and the shape of the tables."""

import json

import numpy as np
import pytest

from geolab import cards
from geolab.cards import POPULATION, RANKS, SIZE, STATEHOOD, card
from geolab.cli import main
from geolab.errors import GeolabError


def rank(postal, column):
    return int(RANKS[card(postal), column])


@pytest.mark.parametrize(
    "postal, column, expected",
    [
        ("AK", SIZE, 1), ("TX", SIZE, 2), ("CA", SIZE, 3), ("SD", SIZE, 16),
        ("DE", STATEHOOD, 1), ("GA", STATEHOOD, 4), ("AK", STATEHOOD, 49), ("NM", STATEHOOD, 47),
        ("HI", STATEHOOD, 50), ("NY", STATEHOOD, 11), ("CO", STATEHOOD, 38),
        ("CA", POPULATION, 1), ("ME", POPULATION, 41),
    ],
)
def test_rule_text_ranks(postal, column, expected):
    assert rank(postal, column) == expected


def test_rule_text_comparisons():
    assert rank("NY", POPULATION) < rank("CO", POPULATION)  # NY beats CO at base 1
    assert rank("AK", STATEHOOD) > rank("NM", STATEHOOD)  # AK beats NM at base 50
    assert rank("TX", SIZE) + rank("CA", SIZE) == 5  # Jumbled: 5 v South Dakota's 16
    # Level 2: Georgia loses at base 1 exactly to statehood 1, 2, 3.
    assert sorted(cards.POSTAL[c] for c in np.flatnonzero(RANKS[:, STATEHOOD] < rank("GA", STATEHOOD))) \
        == ["DE", "NJ", "PA"]
    # Level 2: Maine loses at base 50 exactly to population 42 and higher.
    assert (RANKS[:, POPULATION] > rank("ME", POPULATION)).sum() == 9


def test_ranks_are_permutations_of_1_to_50():
    assert RANKS.shape == (50, 3) and RANKS.dtype == np.int8
    for column in range(3):
        assert sorted(RANKS[:, column].tolist()) == list(range(1, 51))


def test_ranks_follow_the_raw_numbers():
    assert np.all(np.diff(cards.LAND_AREA[np.argsort(RANKS[:, SIZE])]) < 0)
    assert np.all(np.diff(cards.POPULATION_2010[np.argsort(RANKS[:, POPULATION])]) < 0)
    admitted = np.array(cards.ADMITTED)[np.argsort(RANKS[:, STATEHOOD])]
    assert list(admitted) == sorted(admitted)  # ND and SD share a day; ND is 39th by convention


def test_cards_are_alphabetical_with_unique_postals():
    assert list(cards.NAMES) == sorted(cards.NAMES) and len(set(cards.POSTAL)) == 50
    assert cards.CAPITALS[card("NY")] == "Albany" and cards.CAPITALS[card("CA")] == "Sacramento"


def test_borders():
    land = cards.borders()
    assert land.dtype == bool and land.shape == (50, 50)
    assert np.array_equal(land, land.T) and not land.diagonal().any()
    va = card("VA")
    assert land[va, card("MD")] and land[va, card("NC")]  # the Border-Up example
    assert not land[card("AK")].any() and not land[card("HI")].any()
    assert land[card("TN")].sum() == 8 and land[card("MO")].sum() == 8 and land[card("ME")].sum() == 1
    assert land.sum() // 2 == 105
    assert not land[card("AZ"), card("CO")] and cards.borders(four_corners=True)[card("AZ"), card("CO")]
    assert not land[card("MI"), card("MN")] and cards.borders(water=True)[card("MI"), card("MN")]
    assert cards.borders(four_corners=True, water=True).sum() // 2 == 110


def test_decks():
    assert len(cards.POWER_DECK) == 15
    assert sorted(p.base for p in cards.POWER_DECK) == sorted([1, 10, 20, 30, 50] * 3)
    assert {p.clues for p in cards.POWER_DECK} >= {"ABC", "ACB", "BAC", "BCA", "CAB", "CBA", "AAA", "BBB", "CCC"}
    assert sorted(cards.GEOPOWER_DECK) == [0] * 5 + [1] * 5 + [2] * 5
    assert len(cards.GEOPLUNGE_DECK) == len(cards.MAP_DECK) == 50


def test_unknown_postal_is_a_clear_error():
    with pytest.raises(GeolabError, match="unknown postal code 'XX'"):
        card("XX")


def test_cards_json(capsys):
    assert main(["cards", "--json"]) == 0
    table = json.loads(capsys.readouterr().out)
    assert len(table) == 50
    va = next(r for r in table if r["postal"] == "VA")
    assert {"name", "postal", "capital", "size", "statehood", "population", "borders"} <= set(va)
    assert va["capital"] == "Richmond" and {"MD", "NC"} <= set(va["borders"])
