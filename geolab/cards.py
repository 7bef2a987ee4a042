"""The 50 GeoPlunge cards and the decks built on them: the one source of state facts.

A card is an integer 0..49, the states in alphabetical order of name; postal codes are the
human-facing names. Ranks are derived from the raw facts in ``geolab/data`` (see its
``SOURCES.md``), so every rank can be traced to a number.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from functools import cache
from importlib import resources

import numpy as np

from geolab.errors import GeolabError

N_CARDS = 50
SIZE, STATEHOOD, POPULATION = 0, 1, 2
CATEGORIES = ("size", "statehood", "population")
BORDER_KINDS = ("land", "four-corners", "water")


def _read_csv(name: str) -> list[dict[str, str]]:
    with resources.files("geolab.data").joinpath(name).open(newline="") as f:
        return list(csv.DictReader(f))


def _rank_descending(values: np.ndarray) -> np.ndarray:
    """Rank 1 = largest value; the data has no ties."""
    order = np.argsort(-values, kind="stable")
    ranks = np.empty(len(values), dtype=np.int8)
    ranks[order] = np.arange(1, len(values) + 1)
    return ranks


_STATES = _read_csv("states.csv")
NAMES: tuple[str, ...] = tuple(r["name"] for r in _STATES)
POSTAL: tuple[str, ...] = tuple(r["postal"] for r in _STATES)
CAPITALS: tuple[str, ...] = tuple(r["capital"] for r in _STATES)
LAND_AREA = np.array([int(r["land_area_sq_mi"]) for r in _STATES])
POPULATION_2010 = np.array([int(r["population_2010"]) for r in _STATES])
ADMITTED: tuple[str, ...] = tuple(r["admitted"] for r in _STATES)

#: int8 (50, 3): columns SIZE, STATEHOOD, POPULATION; 1 = best.
RANKS = np.stack(
    [
        _rank_descending(LAND_AREA),
        np.array([int(r["statehood"]) for r in _STATES], dtype=np.int8),
        _rank_descending(POPULATION_2010),
    ],
    axis=1,
)
RANKS.setflags(write=False)

_BY_POSTAL = {p: i for i, p in enumerate(POSTAL)}


def card(postal: str) -> int:
    """The card number of a postal code, with a clear error for an unknown one."""
    try:
        return _BY_POSTAL[postal.upper()]
    except (KeyError, AttributeError):
        raise GeolabError(f"unknown postal code {postal!r}") from None


def category(name: str) -> int:
    """The category index of 'size', 'statehood' or 'population'."""
    try:
        return CATEGORIES.index(name)
    except ValueError:
        raise GeolabError(
            f"unknown category {name!r} (expected one of {', '.join(CATEGORIES)})"
        ) from None


@cache
def borders(four_corners: bool = False, water: bool = False) -> np.ndarray:
    """Symmetric (50, 50) boolean adjacency: land borders, plus the optional contacts."""
    kinds = {"land"} | ({"four-corners"} if four_corners else set()) | ({"water"} if water else set())
    adjacency = np.zeros((N_CARDS, N_CARDS), dtype=bool)
    for row in _read_csv("borders.csv"):
        if row["kind"] in kinds:
            a, b = card(row["a"]), card(row["b"])
            adjacency[a, b] = adjacency[b, a] = True
    adjacency.setflags(write=False)
    return adjacency


def border_postals(c: int, four_corners: bool = False, water: bool = False) -> list[str]:
    return [POSTAL[j] for j in np.flatnonzero(borders(four_corners, water)[c])]


@dataclass(frozen=True)
class PowerCard:
    """A Power card: the State IQ clue order (upper right) and a Level 3 base (left corner)."""

    clues: str
    base: int


POWER_DECK: tuple[PowerCard, ...] = tuple(
    PowerCard(r["clues"], int(r["base"])) for r in _read_csv("power_cards.csv")
)
#: GeoPower deck as category indices, in the data file's order (shuffle before use).
GEOPOWER_DECK: tuple[int, ...] = tuple(
    category(r["category"]) for r in _read_csv("geopower_cards.csv") for _ in range(int(r["count"]))
)
#: The GeoPlunge deck and the Map deck: one card per state each.
GEOPLUNGE_DECK: tuple[int, ...] = tuple(range(N_CARDS))
MAP_DECK: tuple[int, ...] = tuple(range(N_CARDS))


def card_table(four_corners: bool = False, water: bool = False) -> list[dict]:
    """One dict per state, as `geolab cards --json` prints it."""
    return [
        {
            "card": i,
            "name": NAMES[i],
            "postal": POSTAL[i],
            "capital": CAPITALS[i],
            "size": int(RANKS[i, SIZE]),
            "statehood": int(RANKS[i, STATEHOOD]),
            "population": int(RANKS[i, POPULATION]),
            "land_area_sq_mi": int(LAND_AREA[i]),
            "admitted": ADMITTED[i],
            "population_2010": int(POPULATION_2010[i]),
            "borders": border_postals(i, four_corners, water),
        }
        for i in range(N_CARDS)
    ]
