"""Class GeoPower Double Choice for many classes at once: a numba kernel.

Numba, not numpy, by measurement: a class game is a few hundred tiny steps (deal, look up a
discard, compare sums), which numpy vectorises poorly; the plain-numpy engine (`numpy_engine`)
is the benchmark's same-run baseline. Discard policies enter as lookup tables over all
19,600 hands (a policy sees only its hand, the call and the number of opponents, so any policy
is such a table); -1 marks "discard at random". Randomness: each game has its own splitmix64
streams, keyed by the game's block (a child of `SeedSequence(seed).spawn`) and its index in the
block, so results never depend on how the games are chunked or threaded, and duplicate runs
with swapped policies get the same deals. Deal streams and policy streams are separate for the
same reason. A run's numbers are checked, and the run cut into chunks (kernel calls), by every
engine's shared code (`geolab.common.chunks`).

How the kernel is laid out, and why (the figures and the variants tried: docs/perf.md, Class
batch kernel). Each simulation first turns the discard tables into score tables
(`score_tables`), so a student-hand is one load; the discard itself is worked out only for
traced games and random discards. The games run in a plain serial function (`_games`), which
indexes arrays instead of slicing them (no reference counting inside the loop), finds winners
without branches and takes a hand's table row from two small tables; its arguments travel in
named tuples (`Streams`, `Plan`, `Play`, `Outcomes`, `Trace`), unpacked once a call. The
parallel loop has one iteration per worker, and each worker takes the next PIECE games from a
shared counter (`work_queue.take`), so a worker on a slower core holds up no one. Helpers
inlined into the hand loop take scalars only (numba counts references to array arguments on
every call). None of this changes a random stream: the same seed gives the same games, draw
for draw (tests pin digests of the outputs).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

import numba
import numpy as np
from numba import njit, prange

from geolab.cards import CATEGORIES, N_CARDS, POSTAL, RANKS
from geolab.common import chunks
from geolab.common.counter_rng import GOLDEN, game_stream, mix64
from geolab.common.work_queue import take
from geolab.errors import IllegalActionError, RulesError
from geolab.game import envelope
from geolab.games.classroom.hands import kept_sums
from geolab.games.classroom.records import GAME
from geolab.games.classroom.rules import CALL_MODES, CALLS, CHAMPIONSHIP, STARTING, Rules, student_name

MAX_OPPONENTS = 31
N_ROWS = 19600  # three-card hands
TABLE_SHAPE = (2, MAX_OPPONENTS + 1, N_ROWS)
#: A peeking bot's table (`geolab.bots.classroom.oracle`): its discard for each GeoPower
#: category that will be turned, then as `TABLE_SHAPE`. The engine plays every table in this
#: form (`by_category`), so a fair table is the same for the three categories.
PEEK_SHAPE = (3,) + TABLE_SHAPE
BLOCK = 1 << 16  # games per seed block (block b is seeded by the b-th child of the seed)
PIECE = 256  # games a worker takes from the shared counter at a time
TRACE_ATTEMPTS = 8
_PAIRS = np.array([b * (b - 1) // 2 for b in range(N_CARDS)], np.int64)  # C(b, 2)
_TRIPLES = np.array([c * (c - 1) * (c - 2) // 6 for c in range(N_CARDS)], np.int64)  # C(c, 3)


@njit(cache=True, inline="always")
def below(state, n):
    """Advance a splitmix64 stream; return it and a uniform integer in [0, n).
    (Multiply-shift on 32 bits: bias below 1e-8 for n <= 50.)"""
    state = state + GOLDEN
    return state, np.int64(((mix64(state) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(cache=True, inline="always")
def draw_category(state, counts):
    state, u = below(state, counts[0] + counts[1] + counts[2])
    if u < counts[0]:
        return state, 0
    if u < counts[0] + counts[1]:
        return state, 1
    return state, 2


@njit(cache=True, inline="always")
def hand_row(x, y, z):
    """Sort three cards; return them and the hand's table row. Branch-free (min/max):
    random cards make branches mispredict. The row is a + C(b, 2) + C(c, 3) from two small
    tables (cheaper than the multiplications)."""
    a = min(x, min(y, z))
    c = max(x, max(y, z))
    b = x + y + z - a - c
    return a, b, c, a + _PAIRS[b] + _TRIPLES[c]


@njit(cache=True, inline="always")
def shuffle_top(deck, size, count, state):
    """Fisher-Yates for the first `count` places of deck[:size]; two places per 64-bit draw
    (the high and low 32 bits, multiply-shift: bias below 1e-8). Indexes are unsigned so numba
    drops its negative-index wraparound."""
    for p in range(0, count, 2):
        state = state + GOLDEN
        z = mix64(state)
        k = np.uint64(p) + (((z >> np.uint64(32)) * np.uint64(size - p)) >> np.uint64(32))
        deck[np.uint64(p)], deck[k] = deck[k], deck[np.uint64(p)]
        if p + 1 < count:
            k = np.uint64(p + 1) + (((z & np.uint64(0xFFFFFFFF)) * np.uint64(size - p - 1)) >> np.uint64(32))
            deck[np.uint64(p + 1)], deck[k] = deck[k], deck[np.uint64(p + 1)]
    return state


def by_category(tables) -> np.ndarray:
    """(P, 3, 2, 32, 19600): fair tables (P, 2, 32, 19600) repeated for each category; peeking
    tables as they are."""
    return tables if tables.ndim == 5 else np.ascontiguousarray(np.repeat(tables[:, None], 3, axis=1))


def score_tables(tables) -> np.ndarray:
    """Flat (2 calls, 3 categories, P, 32, 19600) int8 from fair or by-category tables
    (`by_category`): each policy's round score for every
    call, category, number of opponents and hand; -1 where the policy discards at random.
    One load replaces the discard lookup and three rank lookups per student-hand."""
    return _score_tables(by_category(tables), _kept_by_category())


@cache
def _kept_by_category() -> np.ndarray:
    """(category, hand, discard) int8 round scores, discard 3 = -1 (at random: -1 & 3 == 3)."""
    kept = np.full((3, N_ROWS, 4), -1, np.int8)
    kept[:, :, :3] = kept_sums().transpose(2, 0, 1)
    return kept


@njit(parallel=True, cache=True)
def _score_tables(tables, kept):
    n_pol, n_opp = tables.shape[0], tables.shape[3]
    per_call_cat = n_pol * n_opp * N_ROWS
    out = np.empty(6 * per_call_cat, np.int8)
    for call_cat in prange(6):
        call, cat = call_cat // 3, call_cat % 3
        i = call_cat * per_call_cat
        for p in range(n_pol):
            for opp in range(n_opp):
                for row in range(N_ROWS):
                    out[i + row] = kept[cat, row, tables[p, cat, call, opp, row] & 3]
                i += N_ROWS
    return out


@njit(cache=True, inline="always")
def _deal(deck, members, which, first, m, drawn, scores, offset, seat, opp_of, tables, ranks, dstate, pstate, out):
    """Deal a fresh deck to the m students members[which, first:first + m], discard by table,
    score. `drawn` is the round's (call, category, at); `out` is (score, trace, hands,
    discards), what the deal writes. A student's score is one load, scores[at + offset[s] +
    hand row]; the discard is worked out only for a traced game or a random discard (which
    draws from the policy stream). Hot indexes are unsigned: no negative-index wraparound."""
    call, cat, at = drawn
    score, trace, hands, discards = out
    for i in range(N_CARDS):
        deck[i] = i
    dstate = shuffle_top(deck, N_CARDS, 3 * m, dstate)
    for i in range(m):
        s = np.uint64(members[which, first + i])
        j = np.uint64(3 * i)
        a, b, c, row = hand_row(deck[j], deck[j + np.uint64(1)], deck[j + np.uint64(2)])
        v = np.int64(scores[np.uint64(at + offset[s] + row)])
        if v < 0 or trace:
            d = np.int64(tables[seat[s], cat, call, opp_of[s], row])
            if d < 0:
                pstate, d = below(pstate, 3)
            drop = a + (b - a) * (d >= 1) + (c - b) * (d >= 2)
            v = ranks[a, cat] + ranks[b, cat] + ranks[c, cat] - ranks[drop, cat]
            if trace:
                hands[s, 0], hands[s, 1], hands[s, 2] = a, b, c
                discards[s] = d
        score[s] = v
    return dstate, pstate


@njit(cache=True, inline="always")
def _call(dstate, call_mode):
    if call_mode == 0:
        return below(dstate, 2)
    return dstate, call_mode - 1


class Streams(NamedTuple):
    """The random streams of one block: the deal key, the policy key (random discards) and the
    block's first game (`block_keys`; game i of the block draws from stream start + i)."""

    key: np.uint64
    pkey: np.uint64
    start: int


class Plan(NamedTuple):
    """The rules' grouping and round plan as arrays (`_plan_arrays`): for each deck, its
    Starting Round, members (padded) and size; for each group, its round, first seat and size."""

    deck_round: np.ndarray
    deck_members: np.ndarray
    deck_size: np.ndarray
    group_round: np.ndarray
    group_first: np.ndarray
    group_size: np.ndarray


class Play(NamedTuple):
    """Who plays and how: each student's policy (`seat`), the policies' discard tables (by
    category) and score tables (`score_tables`), the ranks, the GeoPower deck's counts, the
    call mode (`CALL_MODES` index), students a Championship deck serves, and whether tied
    finalists share the title."""

    seat: np.ndarray
    tables: np.ndarray
    scores: np.ndarray
    ranks: np.ndarray
    counts: np.ndarray
    call_mode: int
    per_deck: int
    share_ties: bool


class Outcomes(NamedTuple):
    """Per game (rows of the block): group winners and champions by student, championship
    attempts and championship hands dealt over all attempts."""

    group_win: np.ndarray
    champion: np.ndarray
    champ_rounds: np.ndarray
    champ_hands: np.ndarray


class Trace(NamedTuple):
    """Whether to keep every round's call, category, hands and discards (`on`), and the arrays
    they go to (empty when off)."""

    on: bool
    call: np.ndarray
    category: np.ndarray
    hand: np.ndarray
    discard: np.ndarray


@njit(cache=True)
def _games(lo, hi, streams, plan, play, outcomes, traced):
    """Games lo..hi-1 of one kernel call, serially: a plain compiled loop (numba optimises the
    same loop worse as a parallel loop's body). Arrays are indexed, never sliced (a
    slice's reference count is an atomic shared by both threads), and winners are found
    without branches (who wins is a coin flip to the branch predictor). The named tuples are
    unpacked once a call, so the loops index plain arrays."""
    key, pkey, start = streams
    deck_round, deck_members, deck_size, group_round, group_first, group_size = plan
    seat, tables, scores, ranks, counts, call_mode, per_deck, share_ties = play
    group_win, champion, champ_rounds, champ_hands = outcomes
    trace, t_call, t_cat, t_hand, t_disc = traced
    students, n_groups = seat.shape[0], group_size.shape[0]
    n_rounds = group_round.max() + 1
    per_call_cat = tables.shape[0] * tables.shape[3] * N_ROWS
    deck = np.empty(N_CARDS, np.int64)
    score = np.zeros(students, np.int64)
    hands = np.zeros((students, 3), np.int64)
    discards = np.zeros(students, np.int64)
    group_opp = np.zeros(students, np.int64)
    final_opp = np.zeros(students, np.int64)
    group_offset = np.zeros(students, np.int64)
    final_offset = np.zeros(students, np.int64)
    alive = np.zeros((1, students), np.int64)
    won = np.zeros(students, np.int64)
    for grp in range(n_groups):
        for t in range(group_first[grp], group_first[grp] + group_size[grp]):
            group_opp[t] = group_size[grp] - 1
    for s in range(students):
        group_offset[s] = (seat[s] * tables.shape[3] + group_opp[s]) * N_ROWS
    for g in range(lo, hi):
        dstate = game_stream(key, start + g)
        pstate = game_stream(pkey, start + g)
        for r in range(n_rounds):
            dstate, call = _call(dstate, call_mode)
            dstate, cat = draw_category(dstate, counts)
            at = (call * 3 + cat) * per_call_cat
            for d in range(deck_round.shape[0]):
                if deck_round[d] == r:
                    dstate, pstate = _deal(deck, deck_members, d, 0, deck_size[d], (call, cat, at), scores,
                                           group_offset, seat, group_opp, tables, ranks, dstate, pstate,
                                           (score, trace, hands, discards))
            sign = 1 - 2 * call  # the best score is the lowest of sign * score
            for grp in range(n_groups):
                if group_round[grp] == r:
                    first, last = group_first[grp], group_first[grp] + group_size[grp]
                    best = sign * score[first]
                    for t in range(first + 1, last):
                        best = min(best, sign * score[t])
                    for t in range(first, last):
                        group_win[g, t] = sign * score[t] == best
            if trace:
                t_call[g, r], t_cat[g, r] = call, cat
                for d in range(deck_round.shape[0]):
                    if deck_round[d] == r:
                        for i in range(deck_size[d]):
                            s = deck_members[d, i]
                            t_hand[g, r, s] = hands[s]
                            t_disc[g, r, s] = discards[s]
        f = 0
        for s in range(students):
            alive[0, f] = s
            f += group_win[g, s]
        attempt, dealt = 0, 0  # dealt: championship hands over all attempts
        while True:
            dstate, call = _call(dstate, call_mode)
            dstate, cat = draw_category(dstate, counts)
            at = (call * 3 + cat) * per_call_cat
            for i in range(f):
                s = alive[0, i]
                final_opp[s] = f - 1
                final_offset[s] = (seat[s] * tables.shape[3] + f - 1) * N_ROWS
            for first in range(0, f, per_deck):
                dstate, pstate = _deal(deck, alive, 0, first, min(per_deck, f - first), (call, cat, at), scores,
                                       final_offset, seat, final_opp, tables, ranks, dstate, pstate,
                                       (score, trace, hands, discards))
            t = n_rounds + attempt
            if trace and t < t_call.shape[1]:
                t_call[g, t], t_cat[g, t] = call, cat
                for i in range(f):
                    t_hand[g, t, alive[0, i]] = hands[alive[0, i]]
                    t_disc[g, t, alive[0, i]] = discards[alive[0, i]]
            attempt += 1
            dealt += f
            sign = 1 - 2 * call
            best = sign * score[alive[0, 0]]
            for i in range(1, f):
                best = min(best, sign * score[alive[0, i]])
            w = 0
            for i in range(f):
                won[w] = alive[0, i]
                w += sign * score[alive[0, i]] == best
            if w == 1 or share_ties:
                for i in range(w):
                    champion[g, won[i]] = True
                break
            for i in range(w):
                alive[0, i] = won[i]
            f = w
        champ_rounds[g] = attempt
        champ_hands[g] = dealt


@njit(parallel=True, cache=True)
def _kernel(workers, next_piece, n, streams, plan, play, outcomes, traced):
    """Games 0..n-1 of a block from `streams.start` on (`_games` says what each tuple holds):
    one parallel iteration per worker, and each worker takes the next PIECE games (`take`)
    until none are left, so a worker on a core that other jobs slow down holds up no one."""
    pieces = (n + PIECE - 1) // PIECE
    for _ in prange(workers):
        piece = take(next_piece)
        while piece < pieces:
            _games(piece * PIECE, min(n, (piece + 1) * PIECE), streams, plan, play, outcomes, traced)
            piece = take(next_piece)


def _plan_arrays(rules: Rules) -> Plan:
    """The rules' grouping and round plan as the kernel's arrays."""
    groups = rules.groups_of()
    decks = [(r, [s for g in deck for s in groups[g]]) for r, rnd in enumerate(rules.round_plan()) for deck in rnd]
    deck_members = np.zeros((len(decks), rules.students), np.int64)
    for d, (_, members) in enumerate(decks):
        deck_members[d, : len(members)] = members
    group_round = np.zeros(rules.groups, np.int64)
    for r, rnd in enumerate(rules.round_plan()):
        for deck in rnd:
            group_round[list(deck)] = r
    return Plan(
        deck_round=np.array([r for r, _ in decks], np.int64),
        deck_members=deck_members,
        deck_size=np.array([len(m) for _, m in decks], np.int64),
        group_round=group_round,
        group_first=np.array([members[0] for members in groups], np.int64),  # groups are consecutive seats
        group_size=np.array(rules.group_sizes(), np.int64),
    )


def block_keys(seed: int, block: int, stream: int = 0) -> tuple[np.uint64, np.uint64]:
    """Deal and policy keys of one block of BLOCK games: the block-th child of the seed.
    Policy stream `stream` > 0 (another seating of the same deals) keys its random discards
    by that child's own child `stream` instead; the deal key never changes with it."""
    child = np.random.SeedSequence(seed, spawn_key=(block,))  # == SeedSequence(seed).spawn(...)[block]
    deal_key, policy_key = child.generate_state(2, np.uint64)
    if stream:
        policy_key = np.random.SeedSequence(seed, spawn_key=(block, stream)).generate_state(1, np.uint64)[0]
    return deal_key, policy_key


def discard_positions(table, what: str, error: type = IllegalActionError) -> np.ndarray:
    """A discard table as the kernels' int8 array, after checking what the cast to int8 would
    hide: whole numbers only (a float is not truncated), each -1 (at random) or a position 0-2
    (258 does not wrap to 2). Raises `error` naming `what` (whose table it is)."""
    try:
        raw = np.asarray(table)
    except (ValueError, TypeError):
        raw = np.asarray(None)
    if raw.dtype.kind not in "iu":
        raise error(f"{what}: expected discard positions as whole numbers, got {raw.dtype} of shape {raw.shape}")
    if raw.size and (raw.min() < -1 or raw.max() > 2):
        bad = raw[(raw < -1) | (raw > 2)].flat[0]
        raise error(f"{what}: holds {bad}; they hold discard positions 0-2, or -1 for a random discard")
    return np.ascontiguousarray(raw, dtype=np.int8)


def check_inputs(rules: Rules, tables, seats) -> tuple[np.ndarray, np.ndarray]:
    """What both batch engines (this one and `numpy_engine`) accept: valid rules with
    3-card hands, and policy tables and seats (returned as the engines' arrays). The run's
    numbers are `geolab.common.chunks.plan`'s to check."""
    rules.validate()
    if rules.dealt != 3:
        raise RulesError(f"dealt: the batch engine plays 3-card hands, not {rules.dealt}")
    tables = discard_positions(tables, "policy tables", RulesError)  # checked before int8 could wrap
    seats, students = np.asarray(seats, dtype=np.int64), rules.students
    if tables.shape[1:] not in (TABLE_SHAPE, PEEK_SHAPE):
        raise RulesError(f"policy tables must have shape (P, {', '.join(map(str, TABLE_SHAPE))}), or "
                         f"(P, {', '.join(map(str, PEEK_SHAPE))}) by category")
    if seats.shape != (students,) or seats.min() < 0 or seats.max() >= len(tables):
        raise RulesError(f"seats must give one policy number in 0..{len(tables) - 1} for each of {students} students")
    return tables, seats


@dataclass
class ClassBatch:
    """Outcomes of many class games (rows) for each student (columns)."""

    rules: Rules
    group_win: np.ndarray
    champion: np.ndarray
    championship_rounds: np.ndarray
    trace: dict | None = None
    championship_hands: np.ndarray | None = None  # hands dealt in the Championship Round, all attempts

    def record(self, i: int) -> dict:
        """Game i as a `geolab-record/1` object (needs `trace=True`)."""
        if self.trace is None:
            raise RulesError("this batch was simulated without trace=True")
        total = self.rules.rounds + int(self.championship_rounds[i])
        if total > self.trace["call"].shape[1]:
            raise RulesError(f"game {i} has more championship replays than the trace keeps")
        rounds = []
        for t in range(total):
            hands, discards = self.trace["hand"][i, t], self.trace["discard"][i, t]
            playing = [s for s in range(self.rules.students) if hands[s, 0] >= 0]
            rounds.append({
                "stage": STARTING if t < self.rules.rounds else CHAMPIONSHIP,
                "call": CALLS[self.trace["call"][i, t]],
                "deal": {student_name(s): [POSTAL[c] for c in hands[s]] for s in playing},
                "discards": {student_name(s): POSTAL[hands[s, discards[s]]] for s in playing},
                "geopower": CATEGORIES[self.trace["category"][i, t]],
            })
        groups = self.rules.groups_of()
        record = envelope(GAME, self.rules.to_spec(), {"rounds": rounds})
        record["result"] = {
            "group_winners": [[student_name(s) for s in g if self.group_win[i, s]] for g in groups],
            "champions": [student_name(s) for s in np.flatnonzero(self.champion[i])],
        }
        return record


def simulate(rules: Rules, tables, seats, n_games: int, seed: int = 0, trace: bool = False,
             chunk: int | None = None, first_game: int = 0, progress=None, stream: int = 0) -> ClassBatch:
    """Play games first_game .. first_game + n_games - 1 of the stream `seed`.

    `tables` (P, 2, 32, 19600) int8 discard positions per policy, call, number of opponents
    and hand (or (P, 3, 2, 32, 19600), by the category to be turned: a peeking policy's);
    `seats` the policy number of each student. Game i's deals depend only on
    (seed, i): the same seed with other tables or seats replays the same Starting Round
    deals (duplicate play), and any `chunk` (games a kernel call, default `BLOCK`) gives the
    same results. `stream` picks the random discards' stream (`block_keys`): 0 is the pinned
    one; the deals never change with it. The run is checked and cut by the shared
    `geolab.common.chunks` (a game is its own seed unit); the kernel spreads each chunk over
    numba's threads, so the chunks run one after another.
    """
    tables, seats = check_inputs(rules, tables, seats)
    _, per, starts, _ = chunks.plan(n_games, first_game, chunk, 1, BLOCK, None, "n_games", stream=stream)
    tables = by_category(tables)
    plan = _plan_arrays(rules)
    n, s = n_games, rules.students
    group_win = np.zeros((n, s), np.bool_)
    champion = np.zeros((n, s), np.bool_)
    champ_rounds = np.zeros(n, np.int64)
    champ_hands = np.zeros(n, np.int32)
    t = rules.rounds + TRACE_ATTEMPTS if trace else 0
    m = n if trace else 0
    t_call, t_cat = np.full((m, t), -1, np.int8), np.full((m, t), -1, np.int8)
    t_hand, t_disc = np.full((m, t, s, 3), -1, np.int8), np.full((m, t, s), -1, np.int8)
    counts = np.array(rules.geopower, np.int64)
    ranks = RANKS.astype(np.int64)
    play = Play(seats, tables, score_tables(tables), ranks, counts, CALL_MODES.index(rules.call), rules.max_per_round,
                rules.championship_ties == "share")

    def one(lo: int) -> None:
        """Games lo .. lo + per - 1 (relative to first_game): one kernel call a seed block they touch."""
        end = min(lo + per, n)
        while lo < end:
            block, local = divmod(first_game + lo, BLOCK)
            hi = min(end, lo + BLOCK - local)
            key, pkey = block_keys(seed, block, stream)
            rows = slice(lo, hi) if trace else slice(None)
            _kernel(numba.get_num_threads(), np.zeros(1, np.int64), hi - lo, Streams(key, pkey, local), plan, play,
                    Outcomes(group_win[lo:hi], champion[lo:hi], champ_rounds[lo:hi], champ_hands[lo:hi]),
                    Trace(trace, t_call[rows], t_cat[rows], t_hand[rows], t_disc[rows]))
            if progress is not None:
                progress.update(hi - lo)
            lo = hi

    chunks.run(one, starts, (), 1)
    traced = {"call": t_call, "category": t_cat, "hand": t_hand, "discard": t_disc} if trace else None
    return ClassBatch(rules, group_win, champion, champ_rounds, traced, champ_hands)
