"""Class GeoPower Double Choice for many classes at once in plain numpy: the same-run
baseline that `geolab bench class` measures the numba kernel (`classroom.batch`) against.

The same games as the kernel (same rules, inputs and outputs) vectorised across the games of
a block: every step is one numpy operation over all of them, and the Championship Round's
replays go on over the shrinking set of games still tied. Its random stream is its own, NOT
the kernel's: block b of `BLOCK` games draws from `Generator(SFC64(SeedSequence(seed).spawn
(...)[b]))` (SFC64: numpy's fastest generator), so results depend on (seed, n_games) and
not on the number of threads, and equal the kernel's in distribution only. The blocks are
checked, cut and run on threads by every engine's shared code (`geolab.common.chunks`). The outcome logic
(`outcomes`) takes its deals from a source, so the tests feed it the kernel's traced deals
and require identical results.

Speed: 32-bit sort keys, a hand-row lookup table instead of sorting the three cards, `np.take`
instead of fancy indexing, and group minima over contiguous rows, each kept because it
measured faster than the obvious numpy. Measurements: docs/perf.md (Class numpy engine).
"""

from __future__ import annotations

import itertools
from functools import cache

import numpy as np

from geolab.cards import N_CARDS
from geolab.common import chunks
from geolab.errors import RulesError
from geolab.games.classroom.batch import MAX_OPPONENTS, N_ROWS, ClassBatch, check_inputs
from geolab.games.classroom.hands import HANDS, kept_sums
from geolab.games.classroom.rules import CALL_MODES, Rules

BLOCK = 8192  # games per block: one stream and one unit of work; its arrays stay in cache
_OPP = MAX_OPPONENTS + 1
_CARD = np.arange(N_CARDS, dtype=np.uint32)
_LOW = np.uint32(63)  # a deal key's low 6 bits hold its card, the other 26 are random


def _row_table() -> np.ndarray:
    """Table row of the hand (x, y, z) in any order, at (x * 50 + y) * 50 + z: one 250 KB
    load instead of sorting three cards (faster in numpy)."""
    table = np.zeros(N_CARDS**3, np.int16)
    for x, y, z in itertools.permutations(HANDS.T.astype(np.int32)):
        table[(x * N_CARDS + y) * N_CARDS + z] = np.arange(N_ROWS)
    return table


_ROW = _row_table()
_KEPT = kept_sums()  # (hand, discard, category) -> round score


def hand_rows(cards: np.ndarray) -> np.ndarray:
    """Table row (a + C(b, 2) + C(c, 3), a < b < c) of each 3-card hand on the last axis,
    its cards in any order."""
    c = cards.astype(np.int32, copy=False)
    return np.take(_ROW, (c[..., 0] * N_CARDS + c[..., 1]) * N_CARDS + c[..., 2])


def score_table(tables: np.ndarray) -> np.ndarray:
    """Flat (2 calls, 3 categories, P, 32, 19600) int8 round scores, -1 where the policy
    discards at random: `batch.score_tables` in numpy, so a hand costs one load."""
    kept = _KEPT.astype(np.int8).reshape(N_ROWS * 3, 3)  # (hand, discard), category
    flat = np.arange(N_ROWS, dtype=np.int32) * 3 + np.maximum(tables, 0)
    random = tables < 0
    out = np.empty((2, 3) + tables.shape[:1] + tables.shape[2:], np.int8)
    for cat in range(3):
        by_call = kept[:, cat].take(flat)
        by_call[random] = -1
        out[:, cat] = by_call.transpose(1, 0, 2, 3)
    return out.ravel()


@cache
def _layout(rules: Rules):
    """Per Starting Round, its decks as (students, and per group its first place in the
    deck, first seat and size); and each seat's number of opponents in its group."""
    groups = rules.groups_of()
    rounds = []
    for plan in rules.round_plan():
        decks = []
        for deck in plan:
            members = [s for g in deck for s in groups[g]]
            spans = [(members.index(groups[g][0]), groups[g][0], len(groups[g])) for g in deck]
            decks.append((np.array(members), spans))
        rounds.append(decks)
    opponents = np.concatenate([np.full(len(g), len(g) - 1) for g in groups])
    return rounds, opponents


def _score(scores, cards, index, cat, t, games, students, source) -> np.ndarray:
    """Round scores (int8) of `cards` (..., 3): one score-table load each (`index`: the
    hand's offset in the table but for its row), then the source's discards where the table
    says random. `cat`, `games` and `students` broadcast to the shape of `index`."""
    v = np.take(scores, index + hand_rows(cards))
    if v.min() < 0:
        odd = np.nonzero(v < 0)
        g, s, c = (np.broadcast_to(a, v.shape)[odd] for a in (games, students, cat))
        v[odd] = _KEPT[hand_rows(cards[odd]), source.discards(t, g, s), c]
    return v


def outcomes(rules: Rules, scores: np.ndarray, seats: np.ndarray, source, n: int):
    """The outcomes of n games whose random events come from `source`:
    group_win (n, S) bool, champion (n, S) bool, championship_rounds (n,) int64 and
    championship_hands (n,) int32.

    `source` (a `NumpySource`, or a kernel trace in the tests) answers, for round t (the
    Starting Rounds, then one per Championship attempt) and game numbers in 0..n-1:
    `calls(t, games)` -> (call, category) per game; `starting(t, members)` -> (n, m, 3) cards
    of the students `members` (one deck) in every game; `championship(t, games, g, s, slot)`
    -> (k, 3) cards of finalist s[i] of game games[g[i]], dealt from place slot[i] of a deck
    (a new deck wherever slot is 0: `rules.championship_decks`); `discards(t, games,
    students)` -> sorted positions 0-2 for hands the tables leave to chance.
    """
    rounds, opponents = _layout(rules)
    students, per_call_cat = rules.students, len(scores) // 6
    itype = np.int32 if len(scores) < 2**31 else np.int64  # narrow indexes load faster
    start_base = ((seats * _OPP + opponents) * N_ROWS).astype(itype)
    everyone = np.arange(n)
    group_win = np.empty((n, students), np.bool_)
    for t, decks in enumerate(rounds):
        call, cat = source.calls(t, everyone)
        at = ((call * 3 + cat) * per_call_cat).astype(itype)
        for members, spans in decks:
            v = _score(scores, source.starting(t, members), at[:, None] + start_base[members], cat[:, None], t,
                       everyone[:, None], members, source)
            v *= (1 - 2 * call).astype(np.int8)[:, None]  # the best is the lowest, also under Bottoms Up
            v = np.ascontiguousarray(v.T)  # a group's minimum is then a minimum of whole rows (faster than reduceat)
            for place, seat, size in spans:
                group = v[place : place + size]
                group_win[:, seat : seat + size] = (group == group.min(axis=0)).T

    champion = np.zeros(n * students, np.bool_)
    attempts = np.zeros(n, np.int64)
    dealt = np.zeros(n, np.int32)
    alive, games, t = group_win, everyone, rules.rounds
    while games.size:
        where = np.flatnonzero(alive)  # finalists, game by game in seat order
        g, s = np.divmod(where, students)
        f = np.bincount(g, minlength=len(games))
        starts = np.cumsum(f) - f
        slot = (np.arange(len(g)) - starts[g]) % rules.max_per_round
        call, cat = source.calls(t, games)
        index = (((call * 3 + cat) * per_call_cat)[g] + (seats[s] * _OPP + f[g] - 1) * N_ROWS).astype(itype)
        v = _score(scores, source.championship(t, games, g, s, slot), index, cat[g], t, games[g], s, source)
        v *= (1 - 2 * call).astype(np.int8)[g]
        win = v == np.minimum.reduceat(v, starts)[g]
        done = (np.add.reduceat(win, starts, dtype=np.int64) == 1) | (rules.championship_ties == "share")
        attempts[games] += 1
        dealt[games] += f.astype(np.int32)
        crown = win & done[g]
        champion[games[g[crown]] * students + s[crown]] = True
        alive = np.zeros(alive.size, np.bool_)
        alive[where[win]] = True
        alive = alive.reshape(-1, students)[~done]
        games, t = games[~done], t + 1
    champion = champion.reshape(n, students)
    return group_win, champion, attempts, dealt


class NumpySource:
    """The random events of one block of n games from one numpy Generator: a fair coin or
    the fixed call, a GeoPower card by the deck's counts, fresh shuffled decks, random
    discards."""

    def __init__(self, rules: Rules, rng: np.random.Generator, n: int):
        self.rng, self.n, self.mode = rng, n, CALL_MODES.index(rules.call)
        self.cum = np.cumsum(rules.geopower)

    def calls(self, t, games):
        total, k = self.cum[-1], len(games)
        if self.mode == 0:  # one draw for the coin and the GeoPower card
            call, u = np.divmod(self.rng.integers(0, 2 * total, k), total)
        else:
            call, u = np.full(k, self.mode - 1), self.rng.integers(0, total, k)
        return call, np.searchsorted(self.cum, u, side="right")

    def deal(self, decks: int, count: int) -> np.ndarray:
        """The first `count` cards of `decks` shuffled decks, (decks, count) int32: sort
        keys of 26 random bits above the card (32-bit keys: numpy sorts them faster than
        64-bit ones or an argsort). A deck where a tie between keys could decide its first
        `count` cards is shuffled again, so deals are exactly uniform."""
        keys = self.rng.integers(0, 2**64, decks * N_CARDS // 2, np.uint64).view(np.uint32).reshape(decks, N_CARDS)
        keys &= ~_LOW
        keys |= _CARD
        keys.sort(axis=1)
        head = keys[:, : min(count + 1, N_CARDS)]
        near = head[:, 1:] ^ head[:, :-1]
        if near.min() <= _LOW:
            tied = np.flatnonzero((near <= _LOW).any(axis=1))
            keys[tied, :count] = self.deal(len(tied), count)
        return (keys[:, :count] & _LOW).view(np.int32)

    def starting(self, t, members):
        m = len(members)
        return self.deal(self.n, 3 * m).reshape(self.n, m, 3)

    def championship(self, t, games, g, s, slot):
        deck = np.cumsum(slot == 0) - 1  # every deck of every game, in turn
        places = int(slot.max()) + 1
        hands = self.deal(int(deck[-1]) + 1, 3 * places).reshape(-1, 3)
        return np.take(hands, deck * places + slot, axis=0)

    def discards(self, t, games, students):
        return self.rng.integers(0, 3, len(games))


def simulate_numpy(rules: Rules, tables, seats, n_games: int, seed: int = 0, threads: int | None = None) -> ClassBatch:
    """`batch.simulate` in numpy, on its own random stream (see the module
    docstring): same inputs, same checks, a ClassBatch without a trace. Blocks of games run
    on `threads` threads (default: every core; numpy releases the GIL in its loops)."""
    tables, seats = check_inputs(rules, tables, seats)
    _, _, starts, _ = chunks.plan(n_games, 0, BLOCK, BLOCK, BLOCK, None, "n_games")
    if tables.ndim != 4:
        raise RulesError("the numpy engine plays fair tables only, not a peeking (by category) one")
    scores = score_table(tables)
    n, s = n_games, rules.students
    batch = ClassBatch(rules, group_win=np.zeros((n, s), np.bool_), champion=np.zeros((n, s), np.bool_),
                       championship_rounds=np.zeros(n, np.int64), championship_hands=np.zeros(n, np.int32))
    seqs = np.random.SeedSequence(seed).spawn(len(starts))

    def block(b: int) -> None:
        lo, hi = b * BLOCK, min((b + 1) * BLOCK, n)
        source = NumpySource(rules, np.random.Generator(np.random.SFC64(seqs[b])), hi - lo)
        (batch.group_win[lo:hi], batch.champion[lo:hi], batch.championship_rounds[lo:hi],
         batch.championship_hands[lo:hi]) = outcomes(rules, scores, seats, source, hi - lo)

    chunks.run(block, starts, (), threads)
    return batch
