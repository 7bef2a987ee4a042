"""Class GeoPower Double Choice: the `Rules` (a class in groups, three cards dealt, one
discarded, one hidden category) and the named presets. The rules' JSON form is the generic
one of `geolab.game.RulesBase` (`Rules.from_spec` / `to_spec`).

Rule decisions: docs/rules-classroom.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from geolab.cards import GEOPOWER_DECK, N_CARDS
from geolab.errors import RulesError
from geolab.game import RulesBase

TOP_DOG, BOTTOMS_UP = 0, 1
CALLS = ("top-dog", "bottoms-up")
CALL_MODES = ("random", "top-dog", "bottoms-up")
TIE_RULES = ("replay", "share")
#: Most groups any variant may have: two Starting Rounds split whole groups, trying each of
#: the 2**(groups - 1) splits (the text's classes have 2 to 8 groups).
MAX_GROUPS = 16
#: Most students any variant may have: the policy tables are indexed by opponents, 0 to 31.
MAX_STUDENTS = 32
#: Most GeoPower cards of one word (`Rules.geopower`): the deck has 5 of each; only the
#: proportions matter (a round turns one card from a full deck), and Jumbled caps its deck alike.
MAX_GEOPOWER_EACH = 50
STARTING, CHAMPIONSHIP = "starting", "championship"


def student_name(s: int) -> str:
    """Seat s is student ``S{s+1}`` (records, screens, errors)."""
    return f"S{s + 1}"


@dataclass(frozen=True)
class Rules(RulesBase):
    """Every number and choice of the rule text; defaults are the official values.

    `call` is the teacher's call policy: "random" (a fair coin each round: the text leaves
    the call free and a coin is a teacher with no pattern) or a fixed call for every round.
    `geopower` counts the Size, Statehood and Population cards in the GeoPower deck.
    `starting_rounds` None means "as the text says": one Starting Round when everyone fits
    in one deck (or `two_decks`), else two.
    """

    students: int = 20
    groups: int = 4
    min_students: int = 10
    max_students: int = 32
    min_groups: int = 2
    max_groups: int = 8
    min_group_size: int = 2
    max_per_round: int = 16
    starting_rounds: int | None = None
    two_decks: bool = False
    dealt: int = 3
    discarded: int = 1
    call: str = "random"
    geopower: tuple[int, int, int] = tuple(GEOPOWER_DECK.count(c) for c in range(3))
    championship_ties: str = "replay"

    #: "default" is the official rules with geolab's decided class of 20 in 4 groups; the
    #: others are the class sizes the text's own cases name: a small class (one Starting
    #: Round), a full class of 32 (two Starting Rounds) and a full class from two decks.
    PRESETS = {
        "default": lambda: Rules(),
        "small-class": lambda: Rules(students=10, groups=2),
        "full-class": lambda: Rules(students=32, groups=8),
        "two-decks": lambda: Rules(students=32, groups=8, two_decks=True),
    }
    DEFAULT = "default"
    HELP = {
        "students": "students in the class (the text: 10 to 32)",
        "groups": "groups the class is divided into, as equal as possible (the text: 2 to 8)",
        "min_students": "fewest students the game is for (the text: 10)",
        "max_students": "most students the game is for (the text: 32)",
        "min_groups": "fewest groups (the text: 2)",
        "max_groups": "most groups (the text: 8)",
        "min_group_size": "smallest group allowed (decided: 2; a group of one would win without playing)",
        "max_per_round": "most students one deck serves in a round (the text: 16, as 16 x 3 of the 50 cards)",
        "starting_rounds": "Starting Rounds played: null = as the text says (one if everyone fits in one deck "
                           "or two_decks, else two), or 1 or 2",
        "two_decks": "a class too big for one deck plays one Starting Round from two decks (the text's alternative)",
        "dealt": "cards dealt to each student a round (3; the batch engine plays 3-card hands only)",
        "discarded": "cards each student discards face-down (exactly 1)",
        "call": "the teacher's call each round: random (a fair coin), top-dog or bottoms-up",
        "geopower": "Size, Statehood and Population cards in the GeoPower deck (decided: 5 each)",
        "championship_ties": "tied finalists: replay (play the Championship again among them, decided) or "
                             "share (joint champions)",
    }

    def validate(self) -> Rules:
        """Raise `RulesError` naming the first impossible setting; return self when fine."""
        n, g = self.students, self.groups
        # every field in range first, whether or not these rules use it
        if not 2 <= self.min_groups <= self.max_groups <= MAX_GROUPS:
            raise RulesError(f"min_groups/max_groups: {self.min_groups}/{self.max_groups}; a class plays in 2 to "
                             f"{MAX_GROUPS} groups (min_groups <= max_groups)")
        if not 2 <= self.min_students <= self.max_students <= MAX_STUDENTS:
            raise RulesError(f"min_students/max_students: {self.min_students}/{self.max_students} must satisfy "
                             f"2 <= min_students <= max_students <= {MAX_STUDENTS} (the tables hold up to "
                             f"{MAX_STUDENTS - 1} opponents)")
        if not 1 <= self.min_group_size <= MAX_STUDENTS:
            raise RulesError(f"min_group_size: {self.min_group_size} must be within 1-{MAX_STUDENTS}")
        if len(self.geopower) != 3 or min(self.geopower) < 0 or sum(self.geopower) == 0:
            raise RulesError(f"geopower: {self.geopower} must be three card counts, not all zero")
        if max(self.geopower) > MAX_GEOPOWER_EACH:
            raise RulesError(f"geopower: {self.geopower}: at most {MAX_GEOPOWER_EACH} cards of each word "
                             "(the deck has 5)")
        if not self.min_students <= n <= self.max_students:
            raise RulesError(
                f"students: {n} is outside {self.min_students}-{self.max_students} "
                "(the game is for 10 to 32 students)"
            )
        if not self.min_groups <= g <= self.max_groups:
            raise RulesError(f"groups: {g} is outside {self.min_groups}-{self.max_groups}")
        if not 2 <= g <= MAX_GROUPS:
            raise RulesError(f"groups: {g}; a class plays in 2 to {MAX_GROUPS} groups (the Championship plays the "
                             "group winners, and a split into two Starting Rounds tries every split of the groups)")
        if n // g < max(1, self.min_group_size):
            raise RulesError(
                f"groups: {n} students in {g} groups leaves a group of {n // g}; "
                f"each group needs at least {self.min_group_size}"
            )
        if self.discarded != 1 or self.dealt < 2:
            raise RulesError(f"dealt/discarded: {self.dealt}/{self.discarded}; the game deals 2 or more and discards "
                             "exactly 1")
        if self.max_per_round < 2:
            raise RulesError(f"max_per_round: {self.max_per_round} must be at least 2 (a round needs two students)")
        if self.max_per_round * self.dealt > N_CARDS:
            raise RulesError(
                f"max_per_round x dealt: {self.max_per_round} students x {self.dealt} cards "
                f"= {self.max_per_round * self.dealt} is more than the {N_CARDS} cards of a deck"
            )
        if self.call not in CALL_MODES:
            raise RulesError(f"call: {self.call!r} is not one of {', '.join(CALL_MODES)}")
        if self.championship_ties not in TIE_RULES:
            raise RulesError(f"championship_ties: {self.championship_ties!r} is not one of {', '.join(TIE_RULES)}")
        if self.starting_rounds not in (None, 1, 2):
            raise RulesError(f"starting_rounds: {self.starting_rounds} must be 1, 2 or None")
        if self.starting_rounds == 2 and self.two_decks:
            raise RulesError("two_decks plays everyone in one Starting Round; do not also ask for two")
        if self.rounds == 1 and not self.two_decks and n > self.max_per_round:
            raise RulesError(
                f"{n} students in one Starting Round with one deck: at most {self.max_per_round} "
                "per round (play two Starting Rounds or set two_decks)"
            )
        largest = max(sum(self.group_sizes()[i] for i in part) for part in _halves(self.group_sizes()))
        if (self.rounds == 2 or self.two_decks) and largest > self.max_per_round:
            way = "deck" if self.two_decks else "Starting Round"
            raise RulesError(
                f"groups: {g} groups of {n} students cannot be split into two of at most "
                f"{self.max_per_round} students (one {way} would hold {largest}); use more groups"
            )
        return self

    @property
    def rounds(self) -> int:
        """How many Starting Rounds are played."""
        if self.starting_rounds is not None:
            return self.starting_rounds
        return 1 if self.students <= self.max_per_round or self.two_decks else 2

    @property
    def geopower_p(self) -> np.ndarray:
        counts = np.asarray(self.geopower, dtype=float)
        return counts / counts.sum()

    def group_sizes(self) -> tuple[int, ...]:
        """As equal as possible, the larger groups first."""
        q, r = divmod(self.students, self.groups)
        return tuple(q + 1 if i < r else q for i in range(self.groups))

    def groups_of(self) -> tuple[tuple[int, ...], ...]:
        """The students (0-based seats) of each group: consecutive seats."""
        edges = np.cumsum((0, *self.group_sizes()))
        return tuple(tuple(range(edges[i], edges[i + 1])) for i in range(self.groups))

    def round_plan(self) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """Starting Rounds -> decks -> group numbers. Two decks deal the two halves of the
        class from separate decks in one round (same call, same GeoPower card)."""
        all_groups = tuple(range(self.groups))
        if self.rounds == 2:
            first, second = _halves(self.group_sizes())
            return ((first,), (second,))
        if self.students > self.max_per_round:
            return (_halves(self.group_sizes()),)
        return ((all_groups,),)

    def championship_decks(self, finalists: list[int]) -> list[list[int]]:
        """Finalists in seat order, a new deck for every `max_per_round` of them (more than
        one deck only when ties bring more finalists than one deck can serve)."""
        k = self.max_per_round
        return [finalists[i : i + k] for i in range(0, len(finalists), k)]

    def next_round(self, rounds) -> tuple[str, list[list[int]], list[list[int]]] | None:
        """The round to play after the finished `rounds` (each with its ``stage`` and
        ``winners``): its stage, the students dealt from each deck (seat order) and the
        contests (a group each, or the finalists still in the race); None when the game is
        over. The Starting Rounds follow the plan; then the group winners play the
        Championship, and tied finalists replay it (or share the title)."""
        index = len(rounds)
        if index < self.rounds:
            groups, plan = self.groups_of(), self.round_plan()[index]
            return (STARTING, [[s for g in deck for s in groups[g]] for deck in plan],
                    [list(groups[g]) for deck in plan for g in deck])
        last = rounds[-1]
        if last.stage == CHAMPIONSHIP and (len(last.winners) == 1 or self.championship_ties == "share"):
            return None
        alive = sorted(s for r in rounds[: self.rounds] for s in r.winners) if last.stage == STARTING \
            else list(last.winners)
        return CHAMPIONSHIP, self.championship_decks(alive), [alive]


@cache
def _halves(sizes: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The split of whole groups into two parts whose larger part is smallest (cached: every
    batch simulation asks, and trying every split takes milliseconds at 8 groups)."""
    g, best = len(sizes), None
    for mask in range(2 ** (g - 1) - 1):
        first = (0, *(i for i in range(1, g) if mask >> (i - 1) & 1))
        second = tuple(i for i in range(g) if i not in first)
        load = max(sum(sizes[i] for i in first), sum(sizes[i] for i in second))
        if best is None or load < best[0]:
            best = (load, first, second)
    return best[1], best[2]

