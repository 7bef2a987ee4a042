"""Many Combo 1 tournaments at once: the batch tournament.

The tournament's steps are `geolab.games.combo1.tournament`'s (pairings, standings, who
advances, the knockout), and its matches are the match batch engine's
(`geolab.games.combo1.batch.play_block`), which agrees with the reference match engine game
for game. Tournaments are played in blocks of `BLOCK`; a block plays each stage of its
tournaments together, every pair of teams in the same match blocks (`play_block` with
``sides``, which plays each game once a slot, each seat a lineup of the teams' bots): under
circle pairings,
which do not depend on results, all the morning rounds at once, then all the afternoon rounds;
under swiss, a round at a time; then the playoffs, knockout round by knockout round, and the
finals.

**Seeds.** Tournament t draws its order of teams and its coins from ``SeedSequence(seed,
spawn_key=(t,))``; the p-th match block of block b's stage s from `play_block`'s key ``(b, s,
p)``. A block's results depend on the block alone, so blocks may run in any
order, on any number of threads; the tournaments of a block depend on how many of its
tournaments are played (a match block deals only as many deals as it plays matches, and its
seats are lineups of every team's bots: `geolab.lineup`), so a run of n tournaments gives its
first n the same numbers as any longer run only when n is a multiple of `BLOCK`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from geolab.common import chunks
from geolab.errors import GeolabError
from geolab.games.combo1.batch import BLOCK as MATCH_BLOCK
from geolab.games.combo1.batch import play_block
from geolab.games.combo1.rules import GAMES
from geolab.games.combo1.tournament import (
    BYE,
    TournamentRules,
    advancing,
    after_knockout,
    check_teams,
    knockout,
    pairs,
    points,
    through,
)

#: Tournaments per seed block.
BLOCK = 1024
#: Stage numbers in the match keys: the rounds' phases count from 0; then these.
PLAYOFF, FINAL = 1000, 2000


@dataclass
class Tournaments:
    """n tournaments of the same teams (rows: tournaments; team columns in the teams' order)."""

    rules: TournamentRules
    order: np.ndarray  # (n, T) the drawn order
    standing: np.ndarray  # (n, T) points
    wins: np.ndarray  # (n, T) matches won (byes included)
    draws: np.ndarray  # (n, T) matches drawn
    byes: np.ndarray  # (n, T)
    games_won: np.ndarray  # (n, T, 4) counted games won in the rounds, by game
    games_played: np.ndarray  # (n, T, 4) counted games played in the rounds, by game
    playoffs: np.ndarray  # (n, T) playoff matches played
    finalists: np.ndarray  # (n, 2) A's and B's team in the final
    champion: np.ndarray  # (n,)
    final_games: np.ndarray  # (n,) games the final played (tie-breakers included)
    final_score: np.ndarray  # (n, 2) the final's games won by A and B (tie-breakers apart)
    final_tiebreaks: np.ndarray  # (n,) Border-Up tie-breakers the final played
    coins: np.ndarray  # (n,) playoffs and finals decided by a coin after all their tie-breakers

    def __len__(self) -> int:
        return len(self.champion)

    @staticmethod
    def concatenate(parts: Sequence[Tournaments]) -> Tournaments:
        keys = [k for k in Tournaments.__dataclass_fields__ if k != "rules"]
        return Tournaments(parts[0].rules, *(np.concatenate([getattr(p, k) for p in parts]) for k in keys))


def run(rules: TournamentRules, bots: Sequence, n: int, seed: int, *, start: int = 0, threads: int | None = None,
        block: int = BLOCK) -> Tournaments:
    """Tournaments start .. start + n - 1 of `seed` (start: a whole number of blocks), of
    ``len(bots)`` teams (team i is ``bots[i]``, a Combo 1 team bot; module docstring), in blocks
    of `block` tournaments."""
    rules.validate()
    teams = check_teams(len(bots))
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise GeolabError(f"tournaments must be at least 1, got {n!r}")
    if isinstance(start, bool) or not isinstance(start, (int, np.integer)) or start < 0 or start % block:
        raise GeolabError(f"start must be a whole number of blocks of {block}, got {start!r}")
    first = start // block

    def one(b: int) -> Tournaments:
        return _block(rules, bots, teams, seed, first + b, block, min(block, n - b * block))

    return Tournaments.concatenate(chunks.run(one, list(range(-(-n // block))), bots, threads))


def _block(rules: TournamentRules, bots: Sequence, teams: int, seed: int, b: int, block: int, m: int) -> Tournaments:
    rngs = [np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(b * block + i,))) for i in range(m)]
    order = np.array([rng.permutation(teams) for rng in rngs], np.int64)
    out = Tournaments(rules, order, np.zeros((m, teams)), *(np.zeros((m, teams), np.int64) for _ in range(3)),
                      np.zeros((m, teams, len(GAMES)), np.int64), np.zeros((m, teams, len(GAMES)), np.int64),
                      np.zeros((m, teams), np.int64), np.zeros((m, 2), np.int64), np.zeros(m, np.int64),
                      np.zeros(m, np.int64), np.zeros((m, 2), np.int64), np.zeros(m, np.int64), np.zeros(m, np.int64))
    met = [[set() for _ in range(teams)] for _ in range(m)]

    def play(stage: int, match_rules, games: list[tuple[int, int, int]]) -> list:
        """The matches (tournament, team A, team B) in order, in match blocks of every pair at
        once: each its (winner seat or -1, games, winners, counted, tiebreak) rows of the
        engine's `Matches`."""
        results: list = []
        for piece, at in enumerate(range(0, len(games), MATCH_BLOCK)):
            part = games[at:at + MATCH_BLOCK]
            sides = np.array([(a, bb) for _, a, bb in part], np.int64).reshape(-1, 2)
            played = play_block(match_rules, bots, seed, (b, stage, piece), len(part), sides=sides, deals=len(part))
            results += [(int(played.winner[j]), played.games[j], played.winners[j], played.counted[j],
                         played.tiebreak[j]) for j in range(len(part))]
        return results

    phases = [[r] for r in range(rules.rounds)] if rules.pairing == "swiss" else \
        [list(range(rules.morning)), list(range(rules.morning, rules.rounds))]
    for phase_number, phase in enumerate(p for p in phases if p):
        games: list[tuple[int, int, int]] = []
        rounds_of: list[int] = []
        for i in range(m):
            for r in phase:
                for a, bb in pairs(rules, list(order[i]), r, out.standing[i], met[i], out.byes[i]):
                    if BYE in (a, bb):
                        team = a if bb == BYE else bb
                        out.standing[i, team] += 1.0
                        out.wins[i, team] += 1
                        out.byes[i, team] += 1
                        continue
                    games.append((i, a, bb))
                    rounds_of.append(r)
                    met[i][a].add(bb)
                    met[i][bb].add(a)
        kind_rules = {"morning": rules.round_rules(0), "afternoon": rules.round_rules(rules.morning)}
        by_kind: dict = defaultdict(list)
        for k, r in enumerate(rounds_of):
            by_kind["morning" if r < rules.morning else "afternoon"].append(k)
        for kind, ks in by_kind.items():
            results = play(phase_number, kind_rules[kind], [games[k] for k in ks])
            for k, (w, kinds, winners, counted, tiebreak) in zip(ks, results):
                i, a, bb = games[k]
                _tally(rules, out, i, a, bb, w, kinds, winners, counted, tiebreak)
    _finals(rules, out, rngs, m, play)
    return out


def _tally(rules: TournamentRules, out: Tournaments, i: int, a: int, b: int, w: int, kinds, winners, counted,
           tiebreak) -> None:
    pa, pb = points(rules, None if w < 0 else w)
    out.standing[i, a] += pa
    out.standing[i, b] += pb
    if w < 0:
        out.draws[i, a] += 1
        out.draws[i, b] += 1
    else:
        out.wins[i, (a, b)[w]] += 1
    real = (kinds >= 0) & counted & ~tiebreak
    for seat, team in ((0, a), (1, b)):
        np.add.at(out.games_played[i, team], kinds[real], 1)
        np.add.at(out.games_won[i, team], kinds[real & (winners == seat)], 1)


def _finals(rules: TournamentRules, out: Tournaments, rngs, m: int, play) -> None:
    """The playoffs, knockout round by knockout round across the block, then the finals."""
    state = []
    for i in range(m):
        sure, alive, need = advancing(list(out.standing[i]), list(out.order[i]))
        state.append((sure, alive, need))
    step = 0
    playoff = rules.stage_rules("playoff")
    while any(len(alive) > need for _, alive, need in state):
        games = [(i, a, bb) for i, (_, alive, need) in enumerate(state) if len(alive) > need
                 for a, bb in knockout(alive, need)]
        results = play(PLAYOFF + step, playoff, games)
        winners: dict = defaultdict(list)
        for (i, a, bb), (w, *_rest) in zip(games, results):
            out.playoffs[i, a] += 1
            out.playoffs[i, bb] += 1
            winners[i].append(_decided(w, rngs[i], out, i))
        for i, won in winners.items():
            sure, alive, need = state[i]
            state[i] = (sure, after_knockout(alive, knockout(alive, need), won), need)
        step += 1
    finals = [(i, *(sure + alive)[:2]) for i, (sure, alive, _) in enumerate(state)]
    results = play(FINAL, rules.stage_rules("final"), finals)
    for (i, a, bb), (w, kinds, winners, _counted, tiebreak) in zip(finals, results):
        out.finalists[i] = (a, bb)
        out.champion[i] = (a, bb)[_decided(w, rngs[i], out, i)]
        out.final_games[i] = int((kinds >= 0).sum())
        regular = (kinds >= 0) & ~tiebreak
        out.final_score[i] = [int((regular & (winners == s)).sum()) for s in (0, 1)]
        out.final_tiebreaks[i] = int(((kinds >= 0) & tiebreak).sum())


def _decided(w: int, rng: np.random.Generator, out: Tournaments, i: int) -> int:
    seat, coin = through(None if w < 0 else w, rng)
    out.coins[i] += coin
    return seat
