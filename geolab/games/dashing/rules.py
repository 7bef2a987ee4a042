"""Dashing States' rules: every number and choice of the race, defaulting to the Combo 1 text.

See docs/rules-dashing.md for the reading of each field against the official Combo 1 tournament
rules (Game 3) and how geolab fills their gaps.
"""

from __future__ import annotations

from dataclasses import dataclass

from geolab.cards import N_CARDS
from geolab.errors import RulesError
from geolab.game import RulesBase

#: What a team must announce after its shout: nothing, the states' names, or the names and
#: the capitals.
ANNOUNCE = ("none", "names", "capitals")
#: Most Map cards a team may be dealt: the row's orders are enumerated as legal actions.
MAX_CARDS = 7


@dataclass(frozen=True)
class Rules(RulesBase):
    """Every number and choice of one Dashing States game. Defaults are the text's."""

    cards: int = 5
    placed: int = 4
    face_down: bool = True
    announce: str = "capitals"
    either_direction: bool = False
    simultaneous: float = 0.0
    simultaneous_announce: bool = True

    PRESETS = {
        "official": lambda: Rules(),
        "names-only": lambda: Rules(announce="names"),
        "juniors": lambda: Rules(cards=4, placed=3, announce="names"),
    }
    DEFAULT = "official"
    HELP = {
        "cards": f"Map cards dealt to each team (2-{MAX_CARDS})",
        "placed": "cards a team lays in alphabetical order of state name (the rest are unused)",
        "face_down": "the unused cards must be turned face-down before the shout",
        "announce": "what the first team to shout then announces: none, names (the states), capitals (the states "
                    "and their capitals)",
        "either_direction": "a row in reverse alphabetical order (Z to A, left to right) counts as in order too",
        "simultaneous": "seconds within which two shouts are at the same time (0: only equal seconds)",
        "simultaneous_announce": "teams that shout at the same time announce too, and a team whose announcement is "
                                 "wrong has not completed the step (false: only the row is judged)",
    }

    def validate(self) -> Rules:
        def need(ok: bool, message: str) -> None:
            if not ok:
                raise RulesError(f"rules: {message}")

        need(2 <= self.cards <= MAX_CARDS, f"cards must be within 2-{MAX_CARDS} (each team's Map cards)")
        need(2 * self.cards <= N_CARDS, "cards: two hands must come from the 50 Map cards")
        need(1 <= self.placed < self.cards, f"placed must be within 1-{self.cards - 1}: fewer than the cards dealt, so "
                                             "at least one is unused")
        need(self.announce in ANNOUNCE, f"announce must be one of {', '.join(ANNOUNCE)}, got {self.announce!r}")
        need(0.0 <= self.simultaneous <= 60.0, f"simultaneous must be within 0-60 seconds, got {self.simultaneous!r}")
        return self
