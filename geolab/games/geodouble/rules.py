"""GeoDouble's rules: the match to 50, its race stage and the Play the Ranks stage it holds.

See docs/rules-geodouble.md for the reading of each field against the official GeoDouble rules
and how geolab fills their gaps.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from geolab.cards import N_CARDS
from geolab.errors import RulesError
from geolab.game import RulesBase
from geolab.games.groups import MIN_HAND
from geolab.games.ranks.rules import Rules as RanksRules


def _stage() -> RanksRules:
    return RanksRules.preset("geodouble")


@dataclass(frozen=True)
class Rules(RulesBase):
    """Every number and choice of a GeoDouble match. Defaults are the text's."""

    stage: RanksRules = field(default_factory=_stage)
    race_cards: int = 18
    four_corners: bool = False
    water: bool = False
    race_points: int = 10
    target: int = 50
    redeals: int = 10
    max_rounds: int = 20

    PRESETS = {
        "official": lambda: Rules(),
        "corners-water": lambda: Rules(four_corners=True, water=True),
        "short": lambda: Rules(target=25),
    }
    DEFAULT = "official"
    HELP = {
        "race_cards": "cards each player is dealt for the stage-1 race",
        "four_corners": "the Four Corners point contacts (AZ-CO, NM-UT) count as borders",
        "water": "water-only boundaries (IL-MI, MI-MN, NY-RI) count as borders",
        "race_points": "points for winning the stage-1 race",
        "target": "points that win the match; it ends the moment a player reaches them",
        "redeals": "times a round's race is dealt again when neither hand holds a solution (then the race is "
                   "void: no points, the coin deals)",
        "max_rounds": "rounds at most (then the higher score wins; level scores share the match)",
    }

    def validate(self) -> Rules:
        self.stage.validate()

        def need(ok: bool, message: str) -> None:
            if not ok:
                raise RulesError(f"rules: {message}")

        need(self.stage.first_lead == "given", "stage.first_lead must be given: the race winner deals and leads")
        need(MIN_HAND <= self.race_cards <= N_CARDS // 2,
             f"race_cards must be within {MIN_HAND}-{N_CARDS // 2} (two hands from the {N_CARDS} cards)")
        need(1 <= self.race_points <= 1000, "race_points must be within 1-1000")
        need(1 <= self.target <= 10_000, "target must be within 1-10000")
        need(0 <= self.redeals <= 100, "redeals must be within 0-100")
        need(1 <= self.max_rounds <= 200, "max_rounds must be within 1-200")
        return self
