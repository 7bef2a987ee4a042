"""Combo 1 matches, many at once: the batch engine.

The reference engine (`geolab.games.combo1.reference.steps`) is the specification; this engine
plays the same matches as arrays whose first axis is the match, and must agree with it game for
game (``tests/test_combo1_batch.py`` replays its matches there on their deal and log). It loops
over game slots: the j-th game of every live match at once, each of the four games played for
the rows whose j-th game it is by that game's own batch engine (Border-Up's `race_block`, State
IQ's and Play the Ranks' `play_given`, Dashing States' `race_hands`), on the round's schedule
(morning, afternoon, the final's early stop and tie-breakers, a playoff's Border-Up again while
it ties), the first turn given by the latest Border-Up / Dashing States winner,
else by the inner deal's own statehood draw. The clock is `geolab.games.combo1.timing`'s sums
on the inner arrays, in the same order of float operations, so the bell falls where the
reference engine's does.

**The bots.** Teams (`geolab.bots.combo1.team.Team`): ``bots[s].stage(g)`` plays game g by
that game's batch contract, ``bots[s].choose(rng, Choosing)`` the afternoon choices.

**Seeds.** A block of at most `BLOCK` matches (`play_block`) draws from generators of
``SeedSequence(seed, spawn_key=key + ...)``, `batch` giving block b the key ``(b,)``:

- ``key + (0,)``: the afternoon's statehood draw, for every match of the block;
- ``key + (1, g, k)``: the k-th deals of game g, a full block's worth as that game's own engine
  deals them (Border-Up: ``(1, 0, k, a)``, a key per match for deal a and each redeal), so a
  match's cards never depend on how many matches are played or which are still live (a
  tournament deals only its matches' worth: `play_block`'s ``deals``);
- ``key + (2, stream, g, k, s)``: seat s's decisions at the k-th game g (Play the Ranks: one
  generator, ``(2, stream, 3, k)``), asked for the matches that play it;
- ``key + (3, stream, step, s)``: seat s's afternoon choices (every match of the block asked).

A block of many pairs of teams (``sides``: a tournament's) plays each game once for all its
rows, each seat a `geolab.lineup.Lineup` of the teams' bots for that game (teams whose bots
share a spec seated as one bot), drawing from the same keys (a team's afternoon choices gain
the team's number), so a block needs one call of each inner engine a slot, however many pairs
it holds.

So every seating (``stream``) of a seed plays the same cards; a run can start at any multiple
of `BLOCK`; chunks are whole blocks and run on threads, neither changing a result. The inner
engines ask their bots for the matches that play a game, so a match's draws (never its cards)
depend on the other matches of its block: a run of n matches gives a longer run's first n only
when n is a multiple of `BLOCK`.

**The table.** `Batch.scores`: 1 / 0 to the team that won more games (a final's tie-breaker
deciding a level final), 0.5 each at a tie; ``length``: games played (counted or not);
``first``: the afternoon's first chooser, else the side that guessed first at the match's first
State IQ (A where none was played). Columns: each side's ``wins`` and wins per game
(``border_up_A`` ...), ``played_<game>``, ``void`` (games not counted), ``tiebreaks``,
``clock`` (seconds at the end) and, in the afternoon, ``pick_1`` / ``pick_2``.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, replace
from functools import lru_cache

import numba
import numpy as np

from geolab.cards import N_CARDS
from geolab.common import chunks
from geolab.common.seeding import int_seed
from geolab.errors import GeolabError, IllegalActionError
from geolab.game import Batch, asking, bot_name
from geolab.games.borderup import batch as border_up
from geolab.games.borderup import reference as border_up_ref
from geolab.games.combo1 import reference
from geolab.games.combo1.reference import DECIDER, GameSeen, Pick, drawn, final_decided, slots
from geolab.games.combo1.rules import BORDER_UP, DASHING, GAMES, RANKS, STATE_IQ, Rules
from geolab.games.dashing import batch as dashing
from geolab.games.dashing import reference as dashing_ref
from geolab.games.ranks import batch as ranks
from geolab.games.ranks import reference as ranks_ref
from geolab.games.stateiq import batch as state_iq
from geolab.games.stateiq import reference as state_iq_ref
from geolab.lineup import Lineup, checked_bots, members

#: Matches per seed block; a chunk is a whole number of blocks.
BLOCK = 4096
#: Default matches per chunk.
CHUNK = 8192
SEATS = reference.SEATS
COLUMN = tuple(g.replace("-", "_") for g in GAMES)
#: DRAWN[a, b]: the side a statehood draw of cards a (A's) and b (B's) gives (`reference.drawn`).
DRAWN = np.array([[drawn((a, b)) for b in range(N_CARDS)] for a in range(N_CARDS)], np.int8)


@lru_cache(maxsize=64)
def _slots(rules: Rules) -> tuple[int, ...]:
    """`reference.slots`, once for each rules (a tournament plays many blocks of few matches)."""
    return slots(rules)


@lru_cache(maxsize=64)
def _decided_table(rules: Rules) -> np.ndarray:
    """DECIDED[w0 + 1, w1 + 1, w2 + 1]: whether a final stops after games won by w0, w1, w2
    (-1 a tie), by `reference.final_decided` itself."""
    out = np.zeros((3, 3, 3), bool)
    for idx in np.ndindex(3, 3, 3):
        past = [GameSeen(g, None if w == 0 else w - 1, 0.0, True, False) for g, w in enumerate(idx)]
        out[idx] = final_decided(rules, past)
    return out


@dataclass(frozen=True)
class Choosing:
    """A batch of afternoon choices, one row a match: the games still open to the chooser
    (m, 4) and the game the other team chose (-1: this team chooses first). What a team's
    ``choose(rng, choosing)`` answers, in both engines (the reference engine's seat asks a
    batch of one)."""

    open: np.ndarray
    other: np.ndarray

    def __len__(self) -> int:
        return len(self.open)


@dataclass
class Kept:
    """One game kind at one slot, kept for records: its place among the match's games of that
    kind (k), the block's rows that played it, the inner engine's result for them (``inner``),
    each row's Border-Up give-up seconds by seat (``give_up``, (rows, 2)) and its deals (by
    position)."""

    game: int
    k: int
    rows: np.ndarray
    inner: object = None
    give_up: np.ndarray | None = None
    deals: tuple = ()
@dataclass
class Matches:
    """m matches of one block (or chunk): rows are matches, columns the games in play order
    (G = ``sum(slots(rules))``; -1 / 0 past a match's end)."""

    rules: Rules
    games: np.ndarray  # (m, G) int8 game kind, -1 past the end
    winners: np.ndarray  # (m, G) int8: 0, 1, -1 a tie
    seconds: np.ndarray  # (m, G) float64
    counted: np.ndarray  # (m, G) bool
    tiebreak: np.ndarray  # (m, G) bool
    first: np.ndarray  # (m, G) int8: the first turn given by Border-Up / Dashing States, -1 none
    starter: np.ndarray  # (m, G) int8: the side that took the first turn (given or drawn), -1 at races
    start: np.ndarray  # (m, G) float64: the clock when each game began
    chooser: np.ndarray  # (m,) int8, -1 unless afternoon
    draw: np.ndarray  # (m, 2) the afternoon's statehood draw, -1 unless afternoon
    picks: np.ndarray  # (m, 2) int8
    wins: np.ndarray  # (m, 2) int64
    winner: np.ndarray  # (m,) int8, -1 a tie
    kept: list[dict[int, Kept]] | None = None  # per slot, per game kind (keep=True)

    def __len__(self) -> int:
        return len(self.winner)

    def _inner(self, i: int, j: int):
        """Match i's j-th game: its kind, what was kept of it, its position there, the inner
        result and its give-up seconds by seat."""
        g = int(self.games[i, j])
        kept = self.kept[j][g]
        pos = int(np.searchsorted(kept.rows, i))
        give_up = () if kept.give_up is None else tuple(float(x) for x in kept.give_up[pos])
        return g, kept, pos, kept.inner, give_up

    def played(self, i: int) -> reference.Played:
        """Match i as the reference engine's `Played` (needs ``keep``)."""
        rules, out = self.rules, []
        for j in range(self.games.shape[1]):
            if self.games[i, j] < 0:
                break
            g, kept, pos, inner, give_up = self._inner(i, j)
            if g == BORDER_UP:
                p = inner.played(rules.border_up, pos, give_up)
            elif g == STATE_IQ:
                p = inner.game(pos)
                if self.first[i, j] >= 0:  # the reference's deal keeps its draw, the first guesser given
                    p = replace(p, deal=replace(p.deal, draw=kept.deals[pos].draw))
            elif g == DASHING:
                p = inner.played(pos)
            else:
                p = inner.game(pos)
            first = int(self.first[i, j])
            draw = tuple(int(c) for c in kept.deals[pos].draw) if first < 0 and g in DECIDER else None
            out.append(reference.GamePlayed(g, kept.k, p, float(self.start[i, j]), float(self.seconds[i, j]),
                                            bool(self.counted[i, j]), None if first < 0 else first,
                                            bool(self.tiebreak[i, j]), draw))
        chooser = None if self.chooser[i] < 0 else int(self.chooser[i])
        picks = () if chooser is None else (int(self.picks[i, 0]), int(self.picks[i, 1]))
        draw = None if chooser is None else (int(self.draw[i, 0]), int(self.draw[i, 1]))
        return reference.Played(rules, chooser, picks, out, draw)

    def deal(self, i: int) -> reference.Deal:
        """Match i's `reference.Deal`: each game's deals it used, in order (needs ``keep``)."""
        games: list[list] = [[] for _ in GAMES]
        for j in range(self.games.shape[1]):
            if self.games[i, j] < 0:
                break
            g, kept, pos, inner, give_up = self._inner(i, j)
            if g == BORDER_UP:
                games[g].append(border_up_ref.Deal(inner.played(self.rules.border_up, pos, give_up).deals))
            else:
                games[g].append(kept.deals[pos])
        draw = None if self.chooser[i] < 0 else (int(self.draw[i, 0]), int(self.draw[i, 1]))
        return reference.Deal(tuple(tuple(g) for g in games), draw)


# ----- one block -----------------------------------------------------------------------------
def play_block(rules: Rules, bots, seed: int, key: tuple[int, ...], m: int, *, stream: int = 0,
               keep: bool = False, sides: np.ndarray | None = None, deals: int | None = None) -> Matches:
    """m matches (at most `BLOCK`), ``bots[s]`` at seat s, every draw from
    ``SeedSequence(seed, spawn_key=key + ...)`` (module docstring); ``keep``: each inner game's
    result kept, for `Matches.played` and `Matches.deal`.

    ``sides`` (m, 2): match i between teams ``bots[sides[i, 0]]`` (seat A) and
    ``bots[sides[i, 1]]`` (a tournament's round: many pairs of teams in one block). Each game is
    then played once a slot, each seat a lineup of the teams' bots (`_Block.seated`); a team's
    afternoon choices gain the team's number in their key.

    ``deals``: how many deals (and draws) each game's generator deals, of which the block's m
    matches take the first m: a full `BLOCK` (None, the default) keeps a match's cards the same
    however many matches its block holds; a tournament, whose blocks are its rounds, deals just
    its matches (``deals=m``) and so deals no more than it plays."""
    rules.validate()
    deals = BLOCK if deals is None else deals
    if not 0 <= m <= deals <= BLOCK:
        raise GeolabError(f"a block holds 0-{BLOCK} matches and deals at least as many, got {m} and {deals}")
    if sides is None and len(bots) != 2:
        raise GeolabError("a Combo 1 match needs two teams (bot 'team'), one per seat")
    checked_bots(bots)
    if sides is not None:
        sides = np.asarray(sides, np.int64)
        if sides.shape != (m, 2) or (sides < 0).any() or (sides >= len(bots)).any():
            raise GeolabError(f"sides: expected ({m}, 2) team numbers below {len(bots)}")
    key = tuple(int(k) for k in key)

    def rng(*tail: int) -> np.random.Generator:
        return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=key + tail))

    with _one_numba_thread():
        return _Block(rules, bots, rng, m, stream, keep, sides, deals).play()


@contextmanager
def _one_numba_thread():
    """This thread's parallel kernels (Border-Up's group finder) on one worker while a block
    plays: a block's hands are too few to pay for waking the others (on a busy machine, far
    too few), and `batch` runs its chunks on threads of their own. Numba's setting is the
    calling thread's, so other threads keep theirs."""
    before = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        yield
    finally:
        numba.set_num_threads(before)


class _Block:
    """The state of one block of matches while its slots are played."""

    def __init__(self, rules: Rules, bots, rng, m: int, stream: int, keep: bool, sides: np.ndarray | None,
                 deals: int):
        self.rules, self.bots, self.rng, self.m, self.stream, self.sides = rules, bots, rng, m, stream, sides
        self.deals = deals
        self.most = _slots(rules)
        G = sum(self.most)
        self.out = Matches(
            rules, np.full((m, G), -1, np.int8), np.full((m, G), -1, np.int8), np.zeros((m, G)),
            np.zeros((m, G), bool), np.zeros((m, G), bool), np.full((m, G), -1, np.int8),
            np.full((m, G), -1, np.int8), np.zeros((m, G)), np.full(m, -1, np.int8), np.full((m, 2), -1, np.int64),
            np.full((m, 2), -1, np.int8), np.zeros((m, 2), np.int64), np.full(m, -1, np.int8),
            [] if keep else None)
        self.clock = np.zeros(m)
        self.used = np.zeros((m, len(GAMES)), np.int64)
        self.latest = np.full((m, len(GAMES)), -1, np.int8)  # the latest winner of each kind (-1: tie / none)

    def play(self) -> Matches:
        if self.rules.round == "afternoon":
            self.choose()
        decided = _decided_table(self.rules) if self.rules.seconds is None else None
        for j in range(self.out.games.shape[1]):
            kind, tiebreak = self.schedule(j, decided)
            rows = np.flatnonzero(kind >= 0)
            if not len(rows):
                break
            self.slot(j, rows, kind[rows], tiebreak[rows])
        self.finish()
        return self.out

    # -- the afternoon
    def choose(self) -> None:
        out, m = self.out, self.m
        r = self.rng(0)
        a, b = r.integers(N_CARDS, size=self.deals), r.integers(N_CARDS - 1, size=self.deals)
        out.draw[:] = np.stack([a, b + (b >= a)], axis=1)[:m]
        out.chooser[:] = DRAWN[out.draw[:, 0], out.draw[:, 1]]
        for step in (0, 1):
            who = out.chooser if step == 0 else 1 - out.chooser
            open_ = np.ones((m, len(GAMES)), bool)
            other = np.full(m, -1, np.int64)
            if step:
                open_[np.arange(m), out.picks[:, 0]] = False
                other = out.picks[:, 0].astype(np.int64)
            for s in SEATS:
                for t, bot, at in self.teams_at(s):
                    tail = () if self.sides is None else (t,)
                    with asking("combo1", bot, "choose"):
                        got = np.asarray(bot.choose(self.rng(3, self.stream, step, s, *tail),
                                                    Choosing(open_[at], other[at])))
                    if got.shape != (len(at),) or got.dtype.kind not in "iu":
                        raise IllegalActionError(f"combo1: bot {bot_name(bot)!r}, choose: expected {len(at)} games, "
                                                 f"got {got.dtype} {got.shape}")
                    mine = who[at] == s
                    ok = (got >= 0) & (got < len(GAMES)) & open_[at, np.clip(got, 0, 3)]
                    if (mine & ~ok).any():
                        raise IllegalActionError(f"combo1: bot {bot_name(bot)!r}, choose: game "
                                                 f"{got[mine & ~ok][0]} is not open")
                    out.picks[at[mine], step] = got[mine]

    def teams_at(self, s: int):
        """Seat s's teams and the block's rows each holds it in: ``(team number, team, rows)``."""
        if self.sides is None:
            yield 0, self.bots[s], np.arange(self.m)
            return
        for t in np.unique(self.sides[:, s]):
            yield int(t), self.bots[t], np.flatnonzero(self.sides[:, s] == t)

    def seated(self, g: int, rows: np.ndarray) -> tuple:
        """The bots that play game g at each seat in these rows: the two teams' own, or (a
        block of many pairs) a `Lineup` a seat, teams whose bots have the same name (spec)
        seated as one, since they play alike."""
        if self.sides is None:
            return tuple(b.stage(g) for b in self.bots)
        teams = [[self.bots[t].stage(g) for t in self.sides[rows, s]] for s in SEATS]
        return tuple(Lineup.of(bots, [bot_name(b) for b in bots]) for bots in teams)

    # -- the schedule
    def schedule(self, j: int, decided) -> tuple[np.ndarray, np.ndarray]:
        """Each match's j-th game (-1: over) and whether it is a tie-breaker (`next_game`)."""
        rules, out, m = self.rules, self.out, self.m
        tiebreak = np.zeros(m, bool)
        if rules.seconds is not None:
            live = self.clock < rules.seconds if j else np.ones(m, bool)
            kind = (np.full(m, rules.morning[j % len(GAMES)], np.int8) if rules.round == "morning"
                    else out.picks[:, j % 2].copy())
            return np.where(live, kind, -1).astype(np.int8), tiebreak
        if j < rules.regular:  # an untimed round's regular games: the final's four (it may stop after three)
            kind = np.full(m, j, np.int8)
            if j == 3:
                w = out.winners[:, :3].astype(np.int64) + 1
                kind[decided[w[:, 0], w[:, 1], w[:, 2]]] = -1
            return kind, tiebreak
        a, b = self.wins()
        broken = (out.tiebreak & (out.winners >= 0)).any(axis=1)
        more = (out.games[:, j - 1] >= 0) & (a == b) & ~broken & (out.tiebreak.sum(axis=1) < rules.tiebreaks)
        return np.where(more, BORDER_UP, -1).astype(np.int8), more

    def wins(self) -> tuple[np.ndarray, np.ndarray]:
        out = self.out
        scoring = out.counted & ~out.tiebreak
        return (scoring & (out.winners == 0)).sum(axis=1), (scoring & (out.winners == 1)).sum(axis=1)

    # -- one slot
    def slot(self, j: int, rows: np.ndarray, kind: np.ndarray, tiebreak: np.ndarray) -> None:
        rules, out = self.rules, self.out
        given = np.full(len(rows), -1, np.int8)
        for game, decider in DECIDER.items():
            at = kind == game
            given[at] = self.latest[rows[at], decider]
        winner, seconds, starter = np.empty(len(rows), np.int8), np.empty(len(rows)), np.full(len(rows), -1, np.int8)
        kept: dict[int, Kept] = {}
        for g in range(len(GAMES)):
            at = np.flatnonzero(kind == g)
            if not len(at):
                continue
            r = rows[at]
            k = int(self.used[r[0], g])
            assert (self.used[r, g] == k).all(), "a slot's games of one kind share their place"
            w, t, f, kept[g] = PLAYERS[g](self, k, r, given[at])
            winner[at], seconds[at], starter[at] = w, t, f
            self.used[r, g] += 1
        start = self.clock[rows]
        end = start + seconds
        limit = rules.seconds
        counted = np.ones(len(rows), bool) if limit is None or rules.unfinished == "count" else end <= limit
        self.clock[rows] = end
        out.games[rows, j], out.winners[rows, j], out.seconds[rows, j] = kind, winner, seconds
        out.counted[rows, j], out.tiebreak[rows, j], out.first[rows, j] = counted, tiebreak, given
        out.starter[rows, j], out.start[rows, j] = starter, start
        self.latest[rows, kind] = winner
        if out.kept is not None:
            out.kept.append(kept)

    def finish(self) -> None:
        out = self.out
        a, b = self.wins()
        out.wins[:, 0], out.wins[:, 1] = a, b
        out.winner[:] = np.where(a > b, 0, np.where(b > a, 1, -1))
        breaker = out.tiebreak & (out.winners >= 0)
        level = (a == b) & breaker.any(axis=1)
        if level.any():  # the tie-breaker that was won (the last: they stop at the first won)
            last = out.tiebreak.shape[1] - 1 - np.argmax(breaker[:, ::-1], axis=1)
            out.winner[level] = out.winners[level, last[level]]

    # -- the four games, each by its own batch engine: (winners, seconds, first turn, kept)
    def border_up(self, k: int, rows: np.ndarray, given: np.ndarray):
        rules, stage = self.rules, self.rules.border_up
        keys = {}

        def key(a: int) -> np.ndarray:
            if a not in keys:
                keys[a] = self.rng(1, BORDER_UP, k, a).integers(0, 2**64, size=self.deals, dtype=np.uint64)[rows]
            return keys[a]

        seats = self.seated(BORDER_UP, rows)
        streams = [self.rng(2, self.stream, BORDER_UP, k, s) for s in SEATS]
        raced = border_up.race_block(stage, seats, key, streams, len(rows), self.out.kept is not None)
        give_up = np.empty((len(rows), 2))
        for s, seat in enumerate(seats):
            for bot, at in members(seat, np.arange(len(rows))):
                give_up[at, s] = bot.give_up(stage.cards)
        claimed = np.isfinite(raced.seconds)
        made = claimed.any(axis=1)
        length = np.where(made, np.where(claimed, raced.seconds, np.inf).min(axis=1), give_up.max(axis=1))
        setup = rules.setup_border_up * raced.attempts
        seconds = np.where(raced.raced, setup + length + rules.check * made, setup)
        return raced.winner, seconds, -1, Kept(BORDER_UP, k, rows, raced, give_up)

    def state_iq(self, k: int, rows: np.ndarray, given: np.ndarray):
        rules = self.rules
        cards, power, draw = (a[rows] for a in state_iq_ref.deal_arrays(self.deals, self.rng(1, STATE_IQ, k)))
        first = np.where(given >= 0, given, DRAWN[draw[:, 0], draw[:, 1]]).astype(np.int64)
        kept_draw = np.where(given[:, None] >= 0, -1, draw)
        games = state_iq.play_given(rules.state_iq, self.seated(STATE_IQ, rows), cards, power, first,
                                    [self.rng(2, self.stream, STATE_IQ, k, s) for s in SEATS], kept_draw)
        n = np.arange(len(rows))
        found = np.zeros((len(rows), 2), np.int64)
        found[n, first] = games.found[:, 0]
        found[n, 1 - first] = games.found[:, 1]
        a, b = (np.where(found[:, s] > 0, found[:, s], state_iq_ref.GUESSES + 1) for s in SEATS)
        winner = np.where(a < b, 0, np.where(b < a, 1, -1))
        seconds = rules.setup_state_iq + rules.turn * (games.guesses >= 0).sum(axis=(1, 2))
        deals = ()
        if self.out.kept is not None:
            deals = tuple(state_iq_ref.Deal((int(c[0]), int(c[1])), int(p), (int(d[0]), int(d[1])), None)
                          for c, p, d in zip(cards, power, draw))
        return winner, seconds, first, Kept(STATE_IQ, k, rows, games, None, deals)

    def dashing(self, k: int, rows: np.ndarray, given: np.ndarray):
        rules = self.rules
        hands = dashing.deal_block(rules.dashing, self.rng(1, DASHING, k), self.deals)[rows]
        raced = dashing.race_hands(rules.dashing, self.seated(DASHING, rows), hands,
                                   [self.rng(2, self.stream, DASHING, k, s) for s in SEATS])
        per = rules.announce * rules.dashing.placed
        seconds = rules.setup_dashing + raced.length + per * raced.speaking.sum(axis=1)
        deals = ()
        if self.out.kept is not None:
            deals = tuple(dashing_ref.Deal(tuple(tuple(int(c) for c in h) for h in hand)) for hand in hands)
        return raced.winner, seconds, -1, Kept(DASHING, k, rows, raced, None, deals)

    def ranks(self, k: int, rows: np.ndarray, given: np.ndarray):
        rules = self.rules
        dealt = ranks.dealt(rules.ranks, self.rng(1, RANKS, k), self.deals)
        deals = ranks.Deals(*(None if a is None else a[rows] for a in
                              (dealt.hands, dealt.masks, dealt.draw, dealt.power, dealt.keys)))
        draw = deals.draw.astype(np.int64)
        first = np.where(given >= 0, given, DRAWN[draw[:, 0], draw[:, 1]]).astype(np.int64)
        played = ranks.play_given(rules.ranks, self.seated(RANKS, rows), deals, first,
                                  self.rng(2, self.stream, RANKS, k))
        seconds = rules.setup_ranks + rules.discard + rules.trick * played.n_tricks.astype(np.int64)
        kept = ()
        if self.out.kept is not None:
            power = deals.power
            kept = tuple(ranks_ref.Deal(tuple(tuple(int(c) for c in h) for h in deals.hands[i]),
                                        (int(draw[i, 0]), int(draw[i, 1])),
                                        None if power is None else (int(power[i, 0]), int(power[i, 1])), None)
                         for i in range(len(rows)))
        return played.winner, seconds, first, Kept(RANKS, k, rows, played, None, kept)


PLAYERS = (_Block.border_up, _Block.state_iq, _Block.dashing, _Block.ranks)


# ----- runs ----------------------------------------------------------------------------------
def batch(rules: Rules, bots, n: int, seed, *, start: int = 0, stream: int = 0, chunk: int | None = None,
          threads: int | None = None) -> Batch:
    """Matches start .. start + n - 1 of the seed, ``bots[s]`` at seat s (module docstring)."""
    parts = _run(rules, bots, n, seed, start, stream, chunk, threads)
    return table(rules, parts)


def table(rules: Rules, parts) -> Batch:
    """Blocks of `Matches` as one `Batch` (module docstring)."""
    width = max([int((p.games >= 0).sum(axis=1).max(initial=0)) for p in parts] + [1])  # columns any match used
    cat = lambda name: np.concatenate([getattr(p, name)[:, :width] for p in parts])  # noqa: E731
    whole = lambda name: np.concatenate([getattr(p, name) for p in parts])  # noqa: E731
    games, winners, counted, tiebreak = cat("games"), cat("winners"), cat("counted"), cat("tiebreak")
    winner, wins, chooser, starter = whole("winner").astype(np.int64), whole("wins"), whole("chooser"), cat("starter")
    m, n_games = len(winner), len(GAMES)
    scores = np.full((m, 2), 0.5)
    for s in SEATS:
        scores[winner == s] = np.eye(2)[s]
    siq = games == STATE_IQ
    first_siq = np.where(siq.any(axis=1), starter[np.arange(m), np.argmax(siq, axis=1)], 0)
    first = np.where(chooser >= 0, chooser, np.maximum(first_siq, 0)).astype(np.int64)
    row = np.arange(m)[:, None]
    # each match's games of each kind (played) and each side's wins of each kind, counted at once
    kind = np.where(games >= 0, games, n_games).astype(np.int64)
    played = _counts(row * (n_games + 1) + kind, m, n_games + 1)
    scoring = counted & ~tiebreak & (winners >= 0) & (games >= 0)
    code = np.where(scoring, kind * 2 + winners, 2 * n_games).astype(np.int64)
    won = _counts(row * (2 * n_games + 1) + code, m, 2 * n_games + 1)
    columns = {"wins_A": wins[:, 0], "wins_B": wins[:, 1]}
    for g, name in enumerate(COLUMN):
        columns[f"played_{name}"] = played[:, g]
        for s, side in enumerate(reference.SIDES):
            columns[f"{name}_{side}"] = won[:, 2 * g + s]
    columns["void"] = ((games >= 0) & ~counted).sum(axis=1)
    columns["tiebreaks"] = tiebreak.sum(axis=1)
    columns["clock"] = np.where(games >= 0, cat("seconds"), 0.0).sum(axis=1)
    if rules.round == "afternoon":
        picks = whole("picks")
        columns |= {"pick_1": picks[:, 0].astype(np.int64), "pick_2": picks[:, 1].astype(np.int64)}
    return Batch(scores, (games >= 0).sum(axis=1), first, columns)


def _counts(codes: np.ndarray, m: int, k: int) -> np.ndarray:
    """(m, k): how often each row's codes (row * k + code) hold each code."""
    return np.bincount(codes.ravel(), minlength=m * k).reshape(m, k)


def batch_records(rules: Rules, bots, n: int, seed) -> list[dict]:
    """The first n matches of `batch` (stream 0) as records."""
    from geolab.games.combo1 import records  # written alongside; imported here, where it is needed

    return [records.to_record(p) for p in played(rules, bots, n, seed)]


def played(rules: Rules, bots, n: int, seed, *, stream: int = 0) -> list[reference.Played]:
    """The first n matches of `batch` as the reference engine's `Played` matches."""
    return [p.played(i) for p in _run(rules, bots, n, seed, stream=stream, keep=True) for i in range(len(p))]


def replayable(rules: Rules, bots, n: int, seed, *, stream: int = 0) -> list[tuple[reference.Played, reference.Deal,
                                                                                    list]]:
    """The first n matches of `batch`, each as its `Played`, its `reference.Deal` and the log
    of answers (`log_of`) that replays it on ``reference.ENGINE.state(rules, deal, log)``."""
    out = []
    for p in _run(rules, bots, n, seed, stream=stream, keep=True):
        for i in range(len(p)):
            match, deal = p.played(i), p.deal(i)
            out.append((match, deal, log_of(rules, deal, match)))
    return out


def log_of(rules: Rules, deal: reference.Deal, match: reference.Played) -> list:
    """The answers (``("ask", {seat: action})`` entries) that make the reference engine play
    `match` on `deal`: each decision answered from the match's own games."""
    state = reference.ENGINE.state(rules, deal)
    while not state.is_over():
        state.apply({d.seat: _answer(match, d) for d in state.decisions()})
    return state.log


def _answer(match: reference.Played, decision):
    view = decision.observation
    if decision.kind == "choose":
        return Pick(match.picks[len(view.picks)])
    game = match.games[view.index]
    return reference.answered(game.game, game.played, view.inner, decision.kind, decision.seat, decision.timed)


def _run(rules: Rules, bots, n: int, seed, start: int = 0, stream: int = 0, chunk: int | None = None,
         threads: int | None = None, keep: bool = False) -> list[Matches]:
    """The blocks' `Matches`, in order (a chunk: `per` blocks, on one thread)."""
    rules.validate()
    first, per, starts, blocks = chunks.plan(n, start, chunk, BLOCK, CHUNK, bots, "matches",
                                             "a Combo 1 match needs two teams, one per seat")
    checked_bots(bots)
    seed = int_seed(seed)

    def piece(c: int) -> list[Matches]:
        return [play_block(rules, bots, seed, (first + b,), min(BLOCK, n - b * BLOCK), stream=stream, keep=keep)
                for b in range(c, min(blocks, c + per))]

    if not starts:  # no matches: an empty block, for the columns
        return [play_block(rules, bots, seed, (first,), 0, stream=stream)]
    return [m for part in chunks.run(piece, starts, bots, threads) for m in part]
