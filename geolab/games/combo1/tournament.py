"""The Combo 1 tournament: rounds of matches, the standings, the playoffs and the final.

A tournament is a game made of matches (`geolab.games.combo1.reference`), each played under the
match's rules with the round's kind set: `TournamentRules.morning` morning rounds, then
`TournamentRules.afternoon` afternoon rounds, one match a team a round; then the two teams with
the most match wins meet in the final (round ``final``). Ties for a place in the final are
broken by Border-Up playoffs (round ``playoff``: one Border-Up game, again while it ties).

**Pairings** (`TournamentRules.pairing`). ``circle`` (the default): the round-robin circle
method over the teams in a drawn order, so no team meets an opponent twice before it has met
all the others (rounds past a full cycle start it again); ``swiss``: each round pairs the teams
by their standing, the best with the best it has not met. An odd number of teams gives a bye
each round, which counts as a match win (*decided*, docs/rules-combo1.md).

**Standings**: a match win is a point, a drawn match `TournamentRules.draw_value` (the text
counts matches *won*: 0 by default), a bye a point. If more teams than the places left share
the points at the cut for the final, they play playoffs, knockout in a drawn order, until the
places are filled. A playoff or final still tied after its tie-breakers goes to a coin.

This module is the tournament's specification: its pure steps (`pairs`, `points`,
`advancing`) serve both the reference tournament here (`play`: every match on the reference
engine, each team's seats made by the caller) and the batch tournament
(`geolab.games.combo1.tournament_batch`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from geolab.errors import RulesError
from geolab.game import RulesBase
from geolab.games.combo1.reference import ENGINE, Played
from geolab.games.combo1.rules import GAMES, Rules
from geolab.stepwise import play as play_match

PAIRINGS = ("circle", "swiss")
BYE = -1


@dataclass(frozen=True)
class TournamentRules(RulesBase):
    """Every number and choice of a Combo 1 tournament; its matches' rules as ``match`` (the
    round's kind is set per round). Defaults are the text's, or geolab's decision
    (docs/rules-combo1.md)."""

    match: Rules = field(default_factory=Rules)
    morning: int = 4
    afternoon: int = 4
    pairing: str = "circle"
    draw_value: float = 0.0

    PRESETS = {
        "official": lambda: TournamentRules(),
        "swiss": lambda: TournamentRules(pairing="swiss"),
        "short": lambda: TournamentRules(morning=2, afternoon=2),
    }
    DEFAULT = "official"
    HELP = {
        "morning": "morning rounds (20 minutes each: the four games in order until the bell)",
        "afternoon": "afternoon rounds (12 minutes each: two chosen games alternating until the bell)",
        "pairing": "circle (round-robin: no opponent twice before all are met) or swiss (by standing, no rematch "
                   "where one can be avoided)",
        "draw_value": "what a drawn match counts in the standings (a win counts 1; the text counts wins only)",
    }

    def validate(self) -> TournamentRules:
        self.match.validate()

        def need(ok: bool, message: str) -> None:
            if not ok:
                raise RulesError(f"rules: {message}")

        need(0 <= self.morning <= 20 and 0 <= self.afternoon <= 20 and self.morning + self.afternoon >= 1,
             "morning and afternoon must be within 0-20 rounds, at least one round in all")
        need(self.pairing in PAIRINGS, f"pairing must be one of {', '.join(PAIRINGS)}")
        need(0 <= self.draw_value <= 1, "draw_value must be within 0-1")
        return self

    @property
    def rounds(self) -> int:
        return self.morning + self.afternoon

    def round_rules(self, r: int) -> Rules:
        """The match rules of round r (0-based): morning, then afternoon."""
        return _with_round(self.match, "morning" if r < self.morning else "afternoon")

    def stage_rules(self, kind: str) -> Rules:
        """The match rules of the final or a playoff."""
        return _with_round(self.match, kind)


@lru_cache(maxsize=256)
def _with_round(match: Rules, kind: str) -> Rules:
    """The match rules with the round's kind set, made (and checked) once: a tournament asks
    for them round after round."""
    return match.replace(round=kind)


def check_teams(n: int) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or not 2 <= n <= 64:
        raise RulesError(f"teams: a tournament needs 2-64 teams, got {n!r}")
    return int(n)


# ----- pairings ------------------------------------------------------------------------------
def circle(order: Sequence[int], r: int) -> list[tuple[int, int]]:
    """Round r's pairs by the circle method over the teams in `order` (a bye, `BYE`, added for
    an odd count): the first place fixed, the others turned one place a round; a full cycle is
    len - 1 rounds, then it starts again. Seat A goes to the team of the pair that has been A
    less often in the rounds before (the first listed when level), so seats stay balanced; a
    bye is listed second."""
    places = list(order) + ([BYE] if len(order) % 2 else [])
    n = len(places)
    as_a: dict[int, int] = {t: 0 for t in places}
    for k in range(r + 1):
        turn = k % (n - 1)
        ring = places[1:]
        turned = [places[0], *ring[n - 1 - turn:], *ring[:n - 1 - turn]] if turn else places
        out = []
        for i in range(n // 2):
            a, b = turned[i], turned[n - 1 - i]
            if a == BYE or (b != BYE and as_a[b] < as_a[a]):
                a, b = b, a  # a bye is listed second
            as_a[a] += 1
            out.append((a, b))
    return out


def swiss(order: Sequence[int], standing: Sequence[float], met: Sequence[set[int]],
          byes: Sequence[int]) -> list[tuple[int, int]]:
    """A round's pairs by standing: teams ranked by points (then by the drawn `order`), each
    in turn paired with the best-ranked one it has not met (the best-ranked left if it has met
    them all); with an odd count the lowest-ranked team with the fewest byes sits out."""
    rank = sorted(order, key=lambda t: (-standing[t], list(order).index(t)))
    out = []
    if len(rank) % 2:
        out_team = min(reversed(rank), key=lambda t: byes[t])
        rank.remove(out_team)
        out.append((out_team, BYE))
    while rank:
        a = rank.pop(0)
        b = next((t for t in rank if t not in met[a]), rank[0])
        rank.remove(b)
        out.append((a, b))
    return out


def pairs(rules: TournamentRules, order: Sequence[int], r: int, standing, met, byes) -> list[tuple[int, int]]:
    """Round r's pairs (`circle` or, past the first round, `swiss`)."""
    if rules.pairing == "circle" or r == 0:
        return circle(order, r)
    return swiss(order, standing, met, byes)


# ----- standings ----------------------------------------------------------------------------
def points(rules: TournamentRules, winner: int | None) -> tuple[float, float]:
    """A match's standing points for its seats A and B."""
    if winner is None:
        return (rules.draw_value, rules.draw_value)
    return (1.0, 0.0) if winner == 0 else (0.0, 1.0)


def advancing(standing: Sequence[float], order: Sequence[int], places: int = 2) -> tuple[list[int], list[int], int]:
    """Who goes to the final on points: the teams sure of a place (more points than the cut),
    the teams tied at the cut who must play off, and how many of those go through. The tied
    teams are listed in the drawn `order` (the playoffs' order)."""
    ranked = sorted(standing, reverse=True)
    cut = ranked[places - 1]
    sure = [t for t in order if standing[t] > cut]
    tied = [t for t in order if standing[t] == cut]
    need = places - len(sure)
    if len(tied) == need:
        return sure + tied, [], 0
    return sure, tied, need


def knockout(alive: list[int], need: int) -> list[tuple[int, int]]:
    """The next playoff games among `alive` until `need` are left: as many pairs, in order, as
    teams must still go out (each game puts one out)."""
    games = min(len(alive) // 2, len(alive) - need)
    return [(alive[2 * i], alive[2 * i + 1]) for i in range(games)]


def after_knockout(alive: list[int], games: Sequence[tuple[int, int]], winners: Sequence[int]) -> list[int]:
    """The teams left after a playoff round: each game's winner, then those who sat it out."""
    played = {t for g in games for t in g}
    return [g[w] for g, w in zip(games, winners)] + [t for t in alive if t not in played]


# ----- what happened -------------------------------------------------------------------------
@dataclass(frozen=True)
class MatchResult:
    """One match of the tournament: its round (0-based; ``-1`` a playoff, ``-2`` the final),
    its teams (A's, B's; B is `BYE` for a bye), and the match as played (None for a bye)."""

    round: int
    a: int
    b: int
    played: Played | None
    winner: int | None  # the winning team (not seat); None a drawn match

    def games_won(self, team: int) -> np.ndarray:
        """Counted games won by `team` in this match, by game (`GAMES` order)."""
        out = np.zeros(len(GAMES), np.int64)
        if self.played is None:
            return out
        seat = 0 if team == self.a else 1
        for g in self.played.games:
            if g.counted and not g.tiebreak and g.winner == seat:
                out[g.game] += 1
        return out


@dataclass
class TournamentPlayed:
    """A tournament played: the drawn order of the teams, every match in order, the
    standings, the playoffs, the final and the champion."""

    rules: TournamentRules
    teams: int
    order: list[int]
    matches: list[MatchResult] = field(default_factory=list)
    standing: list[float] = field(default_factory=list)
    finalists: tuple[int, int] | None = None
    champion: int | None = None
    coins: int = 0  # playoffs and finals still tied after their tie-breakers, decided by a coin

    def round_matches(self, r: int) -> list[MatchResult]:
        return [m for m in self.matches if m.round == r]


# ----- the reference tournament ----------------------------------------------------------------
Seats = Callable[[int, Rules, np.random.Generator], object]


def play(rules: TournamentRules, teams: int, seat: Seats, rng: np.random.Generator) -> TournamentPlayed:
    """One tournament of `teams` teams, every match on the reference engine; ``seat(team,
    match_rules, rng)`` makes a team's seat (a `geolab.game.Seat`) for a match. Chance comes
    from `rng`: the drawn order, each match's deal, the coins."""
    rules.validate()
    n = check_teams(teams)
    order = [int(t) for t in rng.permutation(n)]
    out = TournamentPlayed(rules, n, order, standing=[0.0] * n)
    met: list[set[int]] = [set() for _ in range(n)]
    byes = [0] * n

    def match(r: int, a: int, b: int, match_rules: Rules) -> MatchResult:
        played = play_match(ENGINE, match_rules, ENGINE.deal(match_rules, rng),
                            [seat(a, match_rules, rng), seat(b, match_rules, rng)])
        w = played.winner
        return MatchResult(r, a, b, played, None if w is None else (a, b)[w])

    for r in range(rules.rounds):
        for a, b in pairs(rules, order, r, out.standing, met, byes):
            if BYE in (a, b):
                team = a if b == BYE else b
                out.matches.append(MatchResult(r, team, BYE, None, team))
                out.standing[team] += 1.0
                byes[team] += 1
                continue
            result = match(r, a, b, rules.round_rules(r))
            out.matches.append(result)
            pa, pb = points(rules, None if result.winner is None else int(result.winner == b))
            out.standing[a] += pa
            out.standing[b] += pb
            met[a].add(b)
            met[b].add(a)
    sure, alive, need = advancing(out.standing, order)
    playoff = rules.stage_rules("playoff")
    while len(alive) > need:
        games = knockout(alive, need)
        winners = []
        for a, b in games:
            result = match(-1, a, b, playoff)
            out.matches.append(result)
            winners.append(_through(result, rng, out))
        alive = after_knockout(alive, games, winners)
    a, b = (sure + alive)[:2]
    final = match(-2, a, b, rules.stage_rules("final"))
    out.matches.append(final)
    out.finalists = (a, b)
    out.champion = (a, b)[_through(final, rng, out)]
    return out


def through(seat: int | None, rng: np.random.Generator) -> tuple[int, bool]:
    """The seat that goes through a playoff or final, given its winning seat (None: still level
    after all its tie-breakers), and whether a coin decided it."""
    if seat is not None:
        return seat, False
    return int(rng.integers(2)), True


def _through(result: MatchResult, rng: np.random.Generator, out: TournamentPlayed) -> int:
    seat, coin = through(None if result.winner is None else int(result.winner == result.b), rng)
    out.coins += coin
    return seat
