"""State IQ's rules: the choices the text leaves to the table, as fields.

See docs/rules-stateiq.md for the reading of each field against the official Combo 1 tournament
rules ("Game 2: State IQ") and how geolab fills their gaps.
"""

from __future__ import annotations

from dataclasses import dataclass

from geolab.errors import RulesError
from geolab.game import RulesBase

#: The letters of a clue order: A the postal code, B a border state, C the capital.
KINDS = "ABC"


@dataclass(frozen=True)
class Rules(RulesBase):
    """Every choice of a State IQ game. Defaults are the text's (and geolab's decisions, docs/rules-stateiq.md)."""

    clues: str | None = None
    four_corners: bool = False
    water: bool = False
    futile_guesses: bool = False

    PRESETS = {
        "official": lambda: Rules(),
        "corners-water": lambda: Rules(four_corners=True, water=True),
        "borders-only": lambda: Rules(clues="BBB"),
    }
    DEFAULT = "official"
    HELP = {
        "clues": "the clue order of every game, three letters of A (postal code), B (border state), C (capital), "
                 "e.g. BAC or CCC; null: the order of the Power card turned (the text)",
        "four_corners": "the Four Corners point contacts (AZ-CO, NM-UT) count as borders",
        "water": "water-only boundaries (IL-MI, MI-MN, NY-RI) count as borders",
        "futile_guesses": "a team may also guess its own state or one it has guessed already (never right); "
                          "false: those guesses are not offered",
    }

    def validate(self) -> Rules:
        if self.clues is not None and (len(self.clues) != 3 or any(k not in KINDS for k in self.clues)):
            raise RulesError(f"rules: clues must be three letters of A, B, C (e.g. BAC, AAA) or null, "
                             f"got {self.clues[:20]!r}")
        return self
