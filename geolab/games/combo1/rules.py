"""A Combo 1 match's rules: which round it is played in, the four games' own rules, and the
clock that decides how many games fit in a round.

See docs/rules-combo1.md for the reading of each field against the official Combo 1 tournament
rules and how geolab fills their gaps.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from geolab.errors import RulesError
from geolab.game import RulesBase
from geolab.games.borderup.rules import Rules as BorderUpRules
from geolab.games.dashing.rules import Rules as DashingRules
from geolab.games.ranks.rules import Rules as RanksRules
from geolab.games.stateiq.rules import Rules as StateIQRules

#: The four games, in the morning rounds' order (the text's Games 1-4); a game is its index.
GAMES = ("border-up", "state-iq", "dashing-states", "ranks")
TITLES = ("Border-Up", "State IQ", "Dashing States", "Play the Ranks")
BORDER_UP, STATE_IQ, DASHING, RANKS = range(4)
ROUNDS = ("morning", "afternoon", "final", "playoff")
UNFINISHED = ("void", "count")
EARLY_STOP = ("decided", "literal", "never")


def _ranks() -> RanksRules:
    return RanksRules.preset("combo1")


@dataclass(frozen=True)
class Rules(RulesBase):
    """Every number and choice of one Combo 1 match. Defaults are the text's, or geolab's
    decision where the text is silent (docs/rules-combo1.md); the seconds are the timing
    model's, which nobody has measured at a table."""

    round: str = "morning"
    minutes: int | None = None
    order: tuple[str, ...] = GAMES
    unfinished: str = "void"
    early_stop: str = "decided"
    tiebreaks: int = 10
    border_up: BorderUpRules = field(default_factory=BorderUpRules)
    state_iq: StateIQRules = field(default_factory=StateIQRules)
    dashing: DashingRules = field(default_factory=DashingRules)
    ranks: RanksRules = field(default_factory=_ranks)
    setup_border_up: float = 45.0
    setup_state_iq: float = 20.0
    setup_dashing: float = 30.0
    setup_ranks: float = 45.0
    check: float = 10.0
    turn: float = 15.0
    announce: float = 4.0
    discard: float = 20.0
    trick: float = 12.0

    PRESETS = {
        "morning": lambda: Rules(),
        "afternoon": lambda: Rules(round="afternoon"),
        "final": lambda: Rules(round="final"),
        "playoff": lambda: Rules(round="playoff"),
    }
    DEFAULT = "morning"
    HELP = {
        "round": "morning (the four games in order, again and again until the bell), afternoon (each team "
                 "picks a game, the statehood draw picks first; the two alternate until the bell) or final (the "
                 "championship: the four games once, an early stop, a Border-Up tie-breaker) or playoff (one "
                 "Border-Up game, again while it ties: the tournament's playoff for a place in the final)",
        "order": "the morning's order of the four games, played again and again until the bell (the text's: "
                 "border-up, state-iq, dashing-states, ranks; the final keeps the text's)",
        "minutes": "the round's length (none: the text's, 20 in the morning and 12 in the afternoon; the final "
                   "is not timed)",
        "unfinished": "a game still being played at the bell: void (it does not count) or count",
        "early_stop": "the final stops after three games: decided (3-0, or two wins and a tie in any order: "
                      "exactly when the fourth game cannot change the champion; the text's 'the third game' read "
                      "as the third of those three), literal (3-0, or 2-0 with game 3 the tie) or never",
        "tiebreaks": "Border-Up tie-breakers a final or a playoff plays at most while they tie (then it is a tie)",
        "setup_border_up": "seconds to shuffle and deal a Border-Up game",
        "setup_state_iq": "seconds to deal a State IQ game and turn its Power card",
        "setup_dashing": "seconds to shuffle and deal a Dashing States game",
        "setup_ranks": "seconds to shuffle and deal a Play the Ranks game",
        "check": "seconds to check a Border-Up claim's groups",
        "turn": "seconds of one State IQ clue and guess",
        "announce": "seconds to announce one Dashing States state and capital",
        "discard": "seconds for Play the Ranks' discards",
        "trick": "seconds of one Play the Ranks trick",
    }

    @property
    def seconds(self) -> float | None:
        """The round's length in seconds (None: not timed, the final and a playoff)."""
        if self.round in ("final", "playoff"):
            return None
        return 60.0 * (self.minutes if self.minutes is not None else 20 if self.round == "morning" else 12)

    @property
    def regular(self) -> int:
        """The games an untimed round plays before its tie-breakers: the four of a final, a
        playoff's one Border-Up (0: a timed round, whose clock decides)."""
        return {"final": len(GAMES), "playoff": 1}.get(self.round, 0)

    @property
    def morning(self) -> tuple[int, ...]:
        """The morning's games in play order, as `GAMES` indexes."""
        return tuple(GAMES.index(g) for g in self.order)

    def setup(self, game: int) -> float:
        return (self.setup_border_up, self.setup_state_iq, self.setup_dashing, self.setup_ranks)[game]

    def stage(self, game: int):
        """The rules of game `game` (`GAMES`)."""
        return (self.border_up, self.state_iq, self.dashing, self.ranks)[game]

    def validate(self) -> Rules:
        for game in range(len(GAMES)):
            self.stage(game).validate()

        def need(ok: bool, message: str) -> None:
            if not ok:
                raise RulesError(f"rules: {message}")

        need(self.round in ROUNDS, f"round must be one of {', '.join(ROUNDS)}")
        need(self.minutes is None or 1 <= self.minutes <= 600, "minutes must be within 1-600, or none")
        need(sorted(self.order) == sorted(GAMES), f"order must name each of {', '.join(GAMES)} once")
        need(self.unfinished in UNFINISHED, f"unfinished must be one of {', '.join(UNFINISHED)}")
        need(self.early_stop in EARLY_STOP, f"early_stop must be one of {', '.join(EARLY_STOP)}")
        need(0 <= self.tiebreaks <= 100, "tiebreaks must be within 0-100")
        need(self.ranks.first_lead == "given", "ranks.first_lead must be given: Dashing States or a draw decides it")
        for name in ("setup_border_up", "setup_state_iq", "setup_dashing", "setup_ranks"):
            need(5 <= getattr(self, name) <= 3600, f"{name} must be within 5-3600 seconds")
        for name in ("check", "turn", "announce", "discard", "trick"):
            need(0 <= getattr(self, name) <= 3600, f"{name} must be within 0-3600 seconds")
        return self
