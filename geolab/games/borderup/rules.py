"""Border-Up's rules: the cards dealt, what counts as a border, and what a deal no hand can win
gives. See docs/rules-borderup.md for the reading of each field against the official Combo 1
tournament rules ("Game 1: Border-Up") and how geolab fills their gaps.
"""

from __future__ import annotations

from dataclasses import dataclass

from geolab.cards import N_CARDS
from geolab.errors import RulesError
from geolab.game import RulesBase
from geolab.games.groups import MIN_HAND


@dataclass(frozen=True)
class Rules(RulesBase):
    """Every number and choice of one game of Border-Up. Defaults are the text's, or geolab's
    decision where the text is silent (docs/rules-borderup.md)."""

    cards: int = 18
    four_corners: bool = False
    water: bool = False
    redeals: int = 10

    PRESETS = {
        "official": lambda: Rules(),
        "corners-water": lambda: Rules(four_corners=True, water=True),
    }
    DEFAULT = "official"
    HELP = {
        "cards": "GeoPlunge cards dealt to each team",
        "four_corners": "the Four Corners point contacts (AZ-CO, NM-UT) count as borders",
        "water": "water-only boundaries (IL-MI, MI-MN, NY-RI) count as borders",
        "redeals": "times the cards are dealt again when neither hand holds two disjoint border groups (then the "
                   "game is a tie, unraced)",
    }

    def validate(self) -> Rules:
        def need(ok: bool, message: str) -> None:
            if not ok:
                raise RulesError(f"rules: {message}")

        need(MIN_HAND <= self.cards <= N_CARDS // 2,
             f"cards must be within {MIN_HAND}-{N_CARDS // 2} (two hands from the {N_CARDS} cards)")
        need(0 <= self.redeals <= 100, "redeals must be within 0-100")
        return self
