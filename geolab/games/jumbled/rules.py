"""Jumbled GeoPower Choice: the vocabulary (calls, seat letters) and the `Rules`.

Each round the dealer calls Top Dog (lower total wins a set) or Bottoms Up (higher wins), deals
6 cards to every player, and 3 sets follow: all players lay 1 or 2 cards face down at once,
then the top GeoPower card names the category that ranks them. Every decision the rules take
is written up in ``docs/rules-jumbled.md``.

Machine-facing vocabulary: a card is 0..49 (``geolab.cards``), a category 0..2, a call 0
(Top Dog) or 1 (Bottoms Up), and a set choice is a bitmask over the slots of the player's hand
(bit i = the i-th card dealt), so a whole batch of choices is one integer array.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from geolab.cards import N_CARDS, RANKS
from geolab.errors import RulesError
from geolab.game import RulesBase

GAME = "jumbled-geopower-choice"
TOP_DOG, BOTTOMS_UP = 0, 1
CALLS = ("top-dog", "bottoms-up")
SEAT_LETTERS = "ABCDEFGH"
MAX_SLOTS = 16  # a set choice is a uint16 slot mask
#: Most GeoPower cards of one word (`Rules.geopower_deck`): the physical deck has 5 of each;
#: at 50 of each the cards a round turns are already nearly independent draws (the deck study
#: in experiments/jumbled.py goes up to 50), so bigger decks say nothing new (docs/rules-jumbled.md J2).
MAX_GEOPOWER_EACH = 50
#: Most rounds `max_rounds` may allow: it is a lab safety cap, and a game that scores nothing
#: (points_per_set 0, no bonus) plays every one of them.
MAX_ROUNDS = 10_000
#: int64 copy of the rank table: kernels index it in their innermost loops.
RANKS64 = np.ascontiguousarray(RANKS, dtype=np.int64)


def call_index(name: str) -> int:
    try:
        return CALLS.index(name)
    except ValueError:
        raise RulesError(f"unknown call {name!r} (expected one of {', '.join(CALLS)})") from None


# --------------------------------------------------------------------------------------------
# Rules
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rules(RulesBase):
    """Every number and choice of the rule text; defaults are the official game (docs/rules-jumbled.md).

    ``teams`` gives each seat's team label (0, 1, ...), or None for everyone alone; any split
    is allowed. ``bonus[w]`` is the extra for winning ``w`` sets in one round. ``geopower_deck``
    counts size, statehood and population cards. ``set_tie``: "nobody" (a set needs a total
    strictly better than every other player's) or "all-tied" (every tied best player wins it).
    ``final_tie``: when teams tie at the top at or above the target, "another-round" or
    "draw". ``max_rounds`` is a lab safety cap (a game still tied then is a draw), not a rule.

    Presets: ``standard`` (the official game: 4 players, everyone alone) and ``teams`` (4
    players in two partnerships, partners opposite: A+C against B+D). Every field's type is
    checked at construction (`geolab.game.RulesBase`); `validate` checks ranges and consistency.
    """

    players: int = 4
    teams: tuple[int, ...] | None = None
    cards_dealt: int = 6
    cards_to_play: int = 5
    sets_per_round: int = 3
    min_cards_per_set: int = 1
    max_cards_per_set: int = 2
    points_per_set: int = 5
    bonus: tuple[int, ...] = (0, 0, 5, 10)
    target: int = 50
    geopower_deck: tuple[int, int, int] = (5, 5, 5)
    used_to_bottom: bool = True
    calls: tuple[str, ...] = CALLS
    set_tie: str = "nobody"
    final_tie: str = "another-round"
    max_rounds: int = 1000

    PRESETS = {"standard": lambda: Rules(), "teams": lambda: Rules(players=4, teams=(0, 1, 0, 1))}
    DEFAULT = "standard"
    HELP = {
        "players": "players at the table, 2-8 (seats A, B, ...; A deals first, the deal passes left)",
        "teams": "team label of each seat, e.g. [0, 1, 0, 1] (null: everyone plays alone)",
        "cards_dealt": "GeoPlunge cards dealt to each player every round",
        "cards_to_play": "cards each player must play over the round (exactly)",
        "sets_per_round": "sets played each round",
        "min_cards_per_set": "fewest cards a player lays on a set",
        "max_cards_per_set": "most cards a player lays on a set",
        "points_per_set": "points for winning a set",
        "bonus": "extra points for winning 0, 1, 2, ... sets in one round (one entry per count)",
        "target": "points a player or team needs to win the game",
        "geopower_deck": "GeoPower cards of each word: size, statehood, population",
        "used_to_bottom": "a turned GeoPower card goes to the bottom (false: set aside for the round)",
        "calls": "calls the dealer may make: top-dog (lower total wins), bottoms-up (higher wins)",
        "set_tie": "a tied best total on a set: nobody wins it, or all-tied (every tied player wins it)",
        "final_tie": "teams tied at the top at or past the target: another-round, or draw",
        "max_rounds": "lab safety cap: a game undecided after this many rounds is a draw (not a rule)",
    }

    def validate(self) -> Rules:
        """Raise `RulesError` naming the first impossible setting; return self when sound."""
        P, H, C, S = self.players, self.cards_dealt, self.cards_to_play, self.sets_per_round
        lo, hi = self.min_cards_per_set, self.max_cards_per_set
        if P < 2:
            raise RulesError(f"players={P}: the game needs at least 2 players")
        if H < 1 or P * H > N_CARDS:
            raise RulesError(
                f"cards_dealt={H} with players={P} needs {P * H} cards; the GeoPlunge deck holds {N_CARDS}"
            )
        if P > len(SEAT_LETTERS):
            raise RulesError(f"players={P}: at most {len(SEAT_LETTERS)} players (seats {SEAT_LETTERS})")
        if H > MAX_SLOTS:
            raise RulesError(f"cards_dealt={H}: at most {MAX_SLOTS} cards per hand are supported")
        if S < 1:
            raise RulesError(f"sets_per_round={S}: a round needs at least one set")
        if not 1 <= lo <= hi:
            raise RulesError(f"min_cards_per_set ({lo}) and max_cards_per_set ({hi}) must satisfy 1 <= min <= max")
        if hi > H:
            raise RulesError(f"max_cards_per_set={hi} is more than the {H} cards dealt")
        if C > H:
            raise RulesError(f"cards_to_play={C} is more than cards_dealt={H}")
        if not S * lo <= C <= S * hi:
            raise RulesError(
                f"cards_to_play={C} cannot be played in sets_per_round={S} sets of {lo}-{hi} cards "
                f"(possible totals: {S * lo}-{S * hi})"
            )
        if len(self.bonus) != S + 1 or any(b < 0 for b in self.bonus):
            raise RulesError(f"bonus needs {S + 1} non-negative entries (for 0..{S} sets won), got {self.bonus}")
        if self.points_per_set < 0 or self.target < 1:
            raise RulesError("points_per_set must be >= 0 and target >= 1")
        if len(self.geopower_deck) != 3 or any(n < 0 for n in self.geopower_deck) or sum(self.geopower_deck) < 1:
            raise RulesError("geopower_deck needs 3 non-negative counts with at least one card, got "
                             f"{self.geopower_deck}")
        if max(self.geopower_deck) > MAX_GEOPOWER_EACH:
            raise RulesError(f"geopower_deck: at most {MAX_GEOPOWER_EACH} cards of each word "
                             f"(the physical deck has 5), got {self.geopower_deck}")
        if not self.used_to_bottom and sum(self.geopower_deck) < S:
            raise RulesError(
                f"a GeoPower deck of {sum(self.geopower_deck)} cards without reuse "
                f"cannot turn a card for each of {S} sets"
            )
        if not self.calls or any(c not in CALLS for c in self.calls) or len(set(self.calls)) != len(self.calls):
            raise RulesError(f"calls must be distinct names among {CALLS}, got {self.calls}")
        if self.set_tie not in ("nobody", "all-tied"):
            raise RulesError(f"set_tie must be 'nobody' or 'all-tied', got {self.set_tie!r}")
        if self.final_tie not in ("another-round", "draw"):
            raise RulesError(f"final_tie must be 'another-round' or 'draw', got {self.final_tie!r}")
        if not 1 <= self.max_rounds <= MAX_ROUNDS:
            raise RulesError(f"max_rounds={self.max_rounds} must be within 1-{MAX_ROUNDS:,} (a lab safety cap)")
        if self.teams is not None:
            t = tuple(self.teams)
            if len(t) != P:
                raise RulesError(f"teams names {len(t)} seats but there are {P} players")
            if sorted(set(t)) != list(range(len(set(t)))) or len(set(t)) < 2:
                raise RulesError(f"teams must use labels 0..T-1 for T >= 2 teams, got {t}")
        return self

    # derived facts -------------------------------------------------------------------------
    @property
    def team_of(self) -> tuple[int, ...]:
        return tuple(self.teams) if self.teams is not None else tuple(range(self.players))

    @property
    def n_teams(self) -> int:
        return max(self.team_of) + 1

    @property
    def deck_size(self) -> int:
        return sum(self.geopower_deck)

    def team_name(self, team: int) -> str:
        return "+".join(SEAT_LETTERS[s] for s in range(self.players) if self.team_of[s] == team)
