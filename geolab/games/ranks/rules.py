"""Play the Ranks: the rules of every form (`Rules`, the named `PRESETS`) and their choices.

See docs/rules.md for the reading of each field against the rule texts. The reference engine
that plays them is `geolab.games.ranks.reference`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from geolab.cards import N_CARDS
from geolab.errors import RulesError
from geolab.game import RulesBase

SIDES = ("A", "B")
BASE_MODES = ("fixed", "lead", "power")
FIRST_LEADS = ("given", "discard-statehood")
BONUSES = ("none", "declaration", "shutout")
EQUAL_DISTANCE = ("lead", "follow")
#: Longest form name (`Rules.name`): it is printed in headers and error messages.
MAX_NAME = 40


@dataclass(frozen=True)
class Rules(RulesBase):
    """Every number and choice of one Play the Ranks form. Defaults are Combo 1, Level 1.

    `HELP` says what each field means; docs/rules.md reads each against the rule texts.
    """

    name: str = "combo1"
    deck: int = N_CARDS
    hand_size: int = 9
    discards: int = 1
    tricks: int = 8
    bases: tuple[int, ...] = (1, 1, 1, 1, 50, 50, 50, 50)
    base_mode: str = "fixed"
    lead_bases: tuple[int, ...] = (1, 50)
    power_split: int = 4
    discards_public: bool = False
    first_lead: str = "given"
    hidden_lead: bool = False
    declarations: bool = False
    win_tricks: int = 5
    end_at: int | None = 6
    last_trick_breaks_tie: bool = True
    equal_distance: str = "lead"
    win_points: tuple[int, int, int] = (1, 1, 1)
    bonus: str = "none"
    tie_points: int = 1
    target_points: int | None = None

    DEFAULT = "combo1"
    HELP = {
        "name": "the form's name (a preset's name, kept when fields are changed)",
        "deck": "cards in play: card numbers 0 to deck - 1 (the states in alphabetical order: AL, AK, AZ, ...); "
                "fewer than 50 only for the analysis variants (tiny, small) whose whole game tree can be enumerated",
        "hand_size": "cards dealt to each side (tricks + discards)",
        "discards": "cards each side discards before play",
        "tricks": "tricks in a deal when nobody stops it early",
        "bases": "base of each trick when base_mode is fixed (1: lowest rank wins, 50: highest); one a trick, "
                 "each 1-50, under every base_mode",
        "base_mode": "fixed: `bases`; lead: the lead picks one of lead_bases each trick (Level 2); "
                     "power: two Power cards give the bases of tricks 1..power_split and the rest (Level 3)",
        "lead_bases": "the bases a lead may choose (base_mode lead; each 1-50, no repeats, under every base_mode)",
        "power_split": "tricks played at the first Power card's base (base_mode power; 1 to tricks - 1 under every "
                       "base_mode)",
        "discards_public": "discards turned face-up (battles) or never shown (Combo 1)",
        "first_lead": "given: decided outside the deal (a statehood draw, GeoDouble's dealer); "
                      "discard-statehood: the discard with statehood closer to 1 leads",
        "hidden_lead": "the lead card is played face-down; the answer is chosen without seeing it (Level 2)",
        "declarations": "each side, first lead first, may declare GeoPlunging after the discards",
        "win_tricks": "tricks that win outright; at win_tricks - 1 each the last trick decides (if enabled)",
        "end_at": "the deal stops once a side has this many tricks (null: every trick is played)",
        "last_trick_breaks_tie": "an equal split of tricks goes to the last trick's winner",
        "equal_distance": "who wins when both cards are equally far from the base: lead or follow",
        "win_points": "points to the winner by bonus level (sides that declared, or 1 for a shutout)",
        "bonus": "none, declaration (GeoPlunging) or shutout",
        "tie_points": "points to each side for a tied deal",
        "target_points": "points that win a series of battles (null: a single game)",
    }

    # ----- presets -----------------------------------------------------------------------
    @classmethod
    def combo1(cls) -> Rules:
        """Combo 1, Level 1: hidden discard, bases 1 then 50, ends at 6 tricks."""
        return cls()

    @classmethod
    def battle(cls, level: int = 1) -> Rules:
        """State Ranking Battles, Level 1, 2 or 3."""
        level1 = cls(
            name="battle1",
            discards_public=True,
            first_lead="discard-statehood",
            end_at=5,
            win_points=(2, 2, 2),
            target_points=10,
        )
        if level == 1:
            return level1
        if level == 2:
            return replace(
                level1,
                name="battle2",
                base_mode="lead",
                hidden_lead=True,
                declarations=True,
                bonus="declaration",
                win_points=(2, 3, 3),
                target_points=15,
            )
        if level == 3:
            return replace(level1, name="battle3", base_mode="power")
        raise RulesError(f"battle level must be 1, 2 or 3, got {level}")

    @classmethod
    def geodouble(cls) -> Rules:
        """GeoDouble stage 2: 8 dealt, 2 discarded, 6 tricks at base 1, dealer leads first."""
        return cls(
            name="geodouble",
            hand_size=8,
            discards=2,
            tricks=6,
            bases=(1,) * 6,
            declarations=True,
            bonus="declaration",
            win_tricks=4,
            end_at=None,
            win_points=(5, 10, 20),
        )

    @classmethod
    def analysis(cls, name: str) -> Rules:
        """The cut-down analysis variants (not official rules): a deck, hands and tricks small
        enough that the exact best response to a bot can be enumerated
        (`geolab.games.ranks.solver.best_response`). Level 1 play otherwise: a given first
        lead, bases 1 then 50 (then 1), no discards shown.

        tiny: 6 cards, 2 each, 2 tricks (the second trick decides; the tests' variant).
        small: 8 cards, 3 each, 3 tricks, the first to 2 tricks wins."""
        if name == "tiny":
            return cls(name="tiny", deck=6, hand_size=2, discards=0, tricks=2, bases=(1, 50),
                       power_split=1, win_tricks=2, end_at=None)
        if name == "small":
            return cls(name="small", deck=8, hand_size=3, discards=0, tricks=3, bases=(1, 50, 1),
                       power_split=2, win_tricks=2, end_at=2)
        raise RulesError(f"no analysis variant {name!r} (tiny, small)")

    # ----- checks ------------------------------------------------------------------------
    def validate(self) -> Rules:
        """Raise `RulesError` naming the first impossible or inconsistent setting.

        Every field is checked for range and shape whatever the base mode: `bases`,
        `lead_bases` and `power_split` hold values a deal could use even where this form does
        not (a record or a variant changes `base_mode` alone), so none may hold a base that
        does not exist or a list of the wrong length."""

        def need(ok: bool, message: str) -> None:
            if not ok:
                raise RulesError(f"rules {self.name}: {message}")

        need(bool(self.name) and len(self.name) <= MAX_NAME and self.name.isprintable(),
             f"name must be 1-{MAX_NAME} printable characters, got {self.name[:MAX_NAME]!r}")
        need(self.tricks >= 1, "tricks must be at least 1")
        need(self.discards >= 0, "discards cannot be negative")
        need(
            self.hand_size == self.tricks + self.discards,
            f"hand_size ({self.hand_size}) must equal tricks + discards ({self.tricks} + {self.discards})",
        )
        need(1 <= self.deck <= N_CARDS, f"deck must be between 1 and {N_CARDS} cards, got {self.deck}")
        need(2 * self.hand_size + 2 <= self.deck,
             f"two hands of {self.hand_size} (+2 draw cards) exceed the deck of {self.deck} cards")
        need(self.base_mode in BASE_MODES, f"base_mode must be one of {', '.join(BASE_MODES)}")
        need(len(self.bases) == self.tricks, f"bases has {len(self.bases)} entries for {self.tricks} tricks "
                                             f"(one a trick, even when base_mode is not fixed)")
        need(all(1 <= b <= N_CARDS for b in self.bases), f"every entry of bases must be between 1 and {N_CARDS}")
        need(len(self.lead_bases) >= 1, "lead_bases must not be empty")
        need(all(1 <= b <= N_CARDS for b in self.lead_bases),
             f"every entry of lead_bases must be between 1 and {N_CARDS}")
        need(len(set(self.lead_bases)) == len(self.lead_bases), "lead_bases has duplicates")
        need(1 <= self.power_split <= max(1, self.tricks - 1),
             f"power_split ({self.power_split}) must be between 1 and tricks - 1 ({self.tricks - 1})")
        if self.base_mode == "power":
            need(self.power_split < self.tricks, "power_split must leave tricks for both Power cards")
        need(self.first_lead in FIRST_LEADS, f"first_lead must be one of {', '.join(FIRST_LEADS)}")
        need(
            self.first_lead != "discard-statehood" or self.discards >= 1,
            "the first lead comes from the discards, so at least one card must be discarded",
        )
        need(
            self.first_lead != "discard-statehood" or self.discards_public,
            "the first lead comes from the discards, so they must be public (discards_public)",
        )
        need(self.tricks // 2 < self.win_tricks <= self.tricks, "win_tricks must be a majority of the tricks")
        need(
            self.end_at is None or self.win_tricks <= self.end_at <= self.tricks,
            "end_at must lie between win_tricks and tricks (or be None)",
        )
        need(self.equal_distance in EQUAL_DISTANCE, f"equal_distance must be one of {', '.join(EQUAL_DISTANCE)}")
        need(self.bonus in BONUSES, f"bonus must be one of {', '.join(BONUSES)}")
        need(
            (self.bonus == "declaration") == self.declarations,
            "declarations and bonus='declaration' go together",
        )
        need(len(self.win_points) == 3 and all(p >= 0 for p in self.win_points), "win_points needs 3 values >= 0")
        need(self.tie_points >= 0, "tie_points cannot be negative")
        need(self.target_points is None or self.target_points > 0, "target_points must be positive")
        return self

    # ----- derived facts -----------------------------------------------------------------
    def base_of(self, trick: int, power_bases: Sequence[int] | None = None) -> int | None:
        """The base of trick `trick` (0-based), or None when the lead chooses it."""
        if self.base_mode == "fixed":
            return self.bases[trick]
        if self.base_mode == "power":
            return power_bases[0] if trick < self.power_split else power_bases[1]
        return None

    def allowed_bases(self, trick: int, power_bases: Sequence[int] | None = None) -> tuple[int, ...]:
        fixed = self.base_of(trick, power_bases)
        return self.lead_bases if fixed is None else (fixed,)

    def future_bases(self, start: int, power_bases: Sequence[int] | None = None) -> tuple[int, ...]:
        """The bases tricks start.. may be played at (past the last trick, the last trick's):
        what the heuristics keep cards for. The one Python statement of this rule; its numba
        twin is `geolab.games.ranks.batch.future_bases`."""
        if self.base_mode == "lead":
            return self.lead_bases
        bases = tuple(self.base_of(t, power_bases) for t in range(start, self.tricks))
        return bases or (self.base_of(self.tricks - 1, power_bases),)


PRESETS = Rules.PRESETS = {
    "combo1": Rules.combo1,
    "battle1": lambda: Rules.battle(1),
    "battle2": lambda: Rules.battle(2),
    "battle3": lambda: Rules.battle(3),
    "geodouble": Rules.geodouble,
    "tiny": lambda: Rules.analysis("tiny"),
    "small": lambda: Rules.analysis("small"),
}
