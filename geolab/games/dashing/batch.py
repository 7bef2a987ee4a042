"""Dashing States for many games at once: the batch engine.

The reference engine (`geolab.games.dashing.reference.steps`) is the specification; this engine
plays the same games as arrays whose first axis is the game and must agree with it game for
game (``tests/test_dashing_batch.py`` replays its games there). A block's deals, both teams'
claims (`Claims`, one call of each bot a block), the judging of every claim and
`reference.outcome` are a few numpy passes each; nothing loops over games. `race_hands` is
that race on given hands, public so a game that holds Dashing States as a stage (the Combo 1
match) plays its games with its own deals and streams.

**The bots.** A bot is a batch policy: ``bots[s].act(obs, rng)`` gives seat s's `Claims` for
a block of hands (`Hands`: ``obs.hands`` (m, cards), each in the order dealt): every team's
shout (or the seconds it searched before giving up), its row and what it would announce. Only
what the rules ask is used: the announcement of a team that did not shout first is never made,
nor recorded.

**Seeds.** Games are dealt in blocks of `BLOCK`; block b draws from generators of
``SeedSequence(seed, spawn_key=(b, ...))``: ``(b, 0)`` deals (``random((BLOCK, 2 * cards))``
through `geolab.common.shuffle.shuffled_prefix`, the reference engine's deal), ``(b, 1,
stream, s)`` seat s's claims. So every seating (``stream``) of a seed plays the same cards, a
game's draws do not depend on the others', and a run can start at any multiple of `BLOCK`.
Chunks are whole blocks and run on threads; neither changes a result.

**The table.** `Batch.scores`: a correct first claim wins, a wrong one loses, a tie shares;
``length``: seconds to the first shout (nobody shouting: until the later team gave up);
``first``: the seat that shouted first (A at the same time, or when nobody did). Columns, each
seat's: ``seconds`` (of its shout; NaN: none) and ``fault`` (for a first shout: 0 correct, else
1 + its index in `reference.FAULTS`; -1 for a team that did not shout first).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from geolab.cards import MAP_DECK
from geolab.common import chunks
from geolab.common.seeding import int_seed
from geolab.errors import IllegalActionError
from geolab.game import Batch, asking, bot_name
from geolab.games.dashing import records, reference
from geolab.games.dashing.reference import Row, Said
from geolab.games.dashing.rules import ANNOUNCE, Rules
from geolab.lineup import checked_bots, members
from geolab.stepwise import Claim

#: Games per seed block; a chunk is a whole number of blocks.
BLOCK = 4096
#: Default games per chunk.
CHUNK = 65536
SIDES = reference.SIDES
DECK = np.array(MAP_DECK, np.int64)


@dataclass(frozen=True)
class Hands:
    """What a team sees at the race, for m games at once: its cards, (m, cards) in the order
    dealt (a batch policy's ``obs``)."""

    hands: np.ndarray


@dataclass
class Claims:
    """One team's answers to the race for m hands, what a bot's ``act`` returns:
    ``seconds`` (m,) of its shout, or where ``claimed`` is false the seconds it searched
    before giving up; ``order`` (m, placed) the positions of the cards laid, left to right;
    ``face_down`` (m,) whether the unused cards were turned face-down; ``states`` and
    ``capitals`` (m, placed) what it says for each place (a card number; -1: nothing)."""

    seconds: np.ndarray
    claimed: np.ndarray
    order: np.ndarray
    face_down: np.ndarray
    states: np.ndarray
    capitals: np.ndarray


def batch(rules: Rules, bots, n: int, seed, *, start: int = 0, stream: int = 0, chunk: int | None = None,
          threads: int | None = None) -> Batch:
    """Games start .. start + n - 1 of the seed, ``bots[s]`` at seat s (module docstring)."""
    parts = _run(rules, bots, n, seed, start, stream, chunk, threads)
    cat = lambda name: np.concatenate([getattr(p, name) for p in parts])  # noqa: E731
    winner, seconds, faults = cat("winner"), cat("seconds"), cat("fault")
    scores = np.where(winner[:, None] < 0, 0.5, (winner[:, None] == np.arange(2)).astype(float))
    columns = {}
    for s, side in enumerate(SIDES):
        columns |= {f"seconds_{side}": seconds[:, s], f"fault_{side}": faults[:, s]}
    return Batch(scores, cat("length"), cat("first"), columns)


def batch_records(rules: Rules, bots, n: int, seed) -> list[dict]:
    """The first n games of `batch` (stream 0) as records."""
    return [records.to_record(p) for p in played(rules, bots, n, seed)]


def played(rules: Rules, bots, n: int, seed, *, stream: int = 0) -> list[reference.Played]:
    """The first n games of `batch` as the reference engine's `Played` games."""
    return [p.played(i) for p in _run(rules, bots, n, seed, stream=stream, log=True) for i in range(p.m)]


def _run(rules: Rules, bots, n: int, seed, start: int = 0, stream: int = 0, chunk: int | None = None,
         threads: int | None = None, log: bool = False) -> list[_Chunk]:
    rules.validate()
    first, per, starts, _ = chunks.plan(n, start, chunk, BLOCK, CHUNK, bots,
                                        needs="a game of Dashing States needs two bots, one per team")
    checked_bots(bots)
    seed, starts = int_seed(seed), starts or [0]  # no games: one empty chunk, for the columns

    def one(b: int) -> _Chunk:
        return _Chunk(rules, bots, seed, first + b, min(per * BLOCK, n - b * BLOCK), stream, log).play()

    return chunks.run(one, starts, bots, threads)


def deal_block(rules: Rules, rng: np.random.Generator, m: int = BLOCK) -> np.ndarray:
    """int64 (m, 2, cards): m deals from one generator, each as `reference.deal_one` deals it
    (A's cards, then B's, in the order dealt): `_shuffled` is
    `geolab.common.shuffle.shuffled_prefix` compiled, on the same uniforms."""
    k = rules.cards
    out = np.empty((m, 2 * k), np.int64)
    _shuffled(rng.random((m, 2 * k)), len(DECK), out)
    return DECK[out].reshape(m, 2, k)


@njit(cache=True, nogil=True)
def _shuffled(u, size, out):
    """The first u.shape[1] cards of a partial Fisher-Yates shuffle of 0..size-1 per row:
    swap position j with j + floor(u[:, j] * (size - j))."""
    deck = np.empty(size, np.int64)
    for i in range(u.shape[0]):
        for c in range(size):
            deck[c] = c
        for j in range(u.shape[1]):
            pick = j + np.int64(u[i, j] * (size - j))
            deck[j], deck[pick] = deck[pick], deck[j]
            out[i, j] = deck[j]


def checked_claims(rules: Rules, bot, claims: Claims, m: int) -> Claims:
    """A bot's claims as arrays of the right shapes, each row a legal row and announcement."""
    p = rules.placed
    out = Claims(np.ascontiguousarray(claims.seconds, float), np.ascontiguousarray(claims.claimed, bool),
                 np.ascontiguousarray(claims.order, np.int64), np.ascontiguousarray(claims.face_down, bool),
                 np.ascontiguousarray(claims.states, np.int64), np.ascontiguousarray(claims.capitals, np.int64))
    shapes = [(out.seconds, (m,)), (out.claimed, (m,)), (out.order, (m, p)), (out.face_down, (m,)),
              (out.states, (m, p)), (out.capitals, (m, p))]
    if any(a.shape != shape for a, shape in shapes):
        raise IllegalActionError(f"dashing-states: bot {bot_name(bot)!r}: expected claims of {m} hands, got shapes "
                                 + ", ".join(str(a.shape) for a, _ in shapes))
    i = _first_illegal(out.seconds, out.claimed, out.order, out.states, out.capitals, rules.cards, len(DECK))
    if i >= 0:
        raise IllegalActionError(f"dashing-states: bot {bot_name(bot)!r}: hand {i}'s claim is not legal (seconds "
                                 f"{out.seconds[i]!r}, row {out.order[i].tolist()}, states {out.states[i].tolist()}, "
                                 f"capitals {out.capitals[i].tolist()})")
    return out


@njit(cache=True, nogil=True)
def _first_illegal(seconds, claimed, order, states, capitals, k, n):
    """The first hand whose seconds are not finite and at least 0, or whose claim lays a card
    outside the hand or twice, or names a state outside -1..n-1; -1 if none."""
    m, p = order.shape
    for i in range(m):
        if not (np.isfinite(seconds[i]) and seconds[i] >= 0):
            return i
        if not claimed[i]:
            continue
        for j in range(p):
            if order[i, j] < 0 or order[i, j] >= k or not -1 <= states[i, j] < n or not -1 <= capitals[i, j] < n:
                return i
            for q in range(j):
                if order[i, q] == order[i, j]:
                    return i
    return -1


def faults(rules: Rules, hands: np.ndarray, claims: Claims) -> tuple[np.ndarray, np.ndarray]:
    """For one seat's claims on its hands (m, cards): the row's fault and the announcement's
    (0: none, else 1 + the index in `FAULTS`), as `reference.row_fault` and
    `reference.said_fault` judge them."""
    m = len(hands)
    row, said = np.empty(m, np.int64), np.empty(m, np.int64)
    _faults(np.ascontiguousarray(hands, np.int64), claims.order, claims.face_down, claims.states, claims.capitals,
            rules.face_down, rules.either_direction, ANNOUNCE.index(rules.announce), row, said)
    return row, said


@njit(cache=True, nogil=True)
def _faults(hands, order, face_down, states, capitals, need_face_down, either, announce, row, said):
    """Row faults (1 face-up, 2 order) and announcement faults (3 state, 4 capital; every
    state before any capital); announce: 0 none, 1 names, 2 capitals."""
    m, p = order.shape
    for i in range(m):
        up, down = True, True
        for j in range(p - 1):
            a, b = hands[i, order[i, j]], hands[i, order[i, j + 1]]
            up &= a < b
            down &= a > b
        row[i] = 1 if need_face_down and not face_down[i] else 0 if up or (either and down) else 2
        wrong_state, wrong_capital = False, False
        for j in range(p):
            c = hands[i, order[i, j]]
            wrong_state |= states[i, j] != c
            wrong_capital |= capitals[i, j] != c
        said[i] = 0 if announce == 0 else 3 if wrong_state else 4 if announce == 2 and wrong_capital else 0


@njit(cache=True, nogil=True)
def _settle(shout, gave_up, row, said, window, announce, both_speak, winner, fault, first, length, speaking):
    """`reference.first_shouts`, `reference.announcers` and `reference.outcome` for each game:
    shout (m, 2) seconds (inf: none), the seats' row and announcement faults; out the winner
    (-1: a tie), each first shout's fault (-1: not first), the first seat, the seconds."""
    for i in range(shout.shape[0]):
        lo = min(shout[i, 0], shout[i, 1])
        f0 = np.isfinite(shout[i, 0]) and shout[i, 0] - lo <= window
        f1 = np.isfinite(shout[i, 1]) and shout[i, 1] - lo <= window
        both = f0 and f1
        for s in range(2):
            on = f0 if s == 0 else f1
            speaking[i, s] = on and announce and (both_speak or not both)
            judged = row[i, s] if row[i, s] > 0 else said[i, s] if speaking[i, s] else 0
            fault[i, s] = judged if on else -1
        if not (f0 or f1):
            winner[i] = -1
        elif both:
            winner[i] = -1 if (fault[i, 0] == 0) == (fault[i, 1] == 0) else 0 if fault[i, 0] == 0 else 1
        else:
            s = 0 if f0 else 1
            winner[i] = s if fault[i, s] == 0 else 1 - s
        first[i] = 1 if f1 and not f0 else 0
        length[i] = lo if f0 or f1 else gave_up[i]


@dataclass
class Raced:
    """Given hands raced: rows are games. ``claims`` are each seat's (`Claims`, rows as the
    hands); ``shout`` (m, 2) the seconds of each shout (inf: none); ``fault`` each first
    shout's (-1: not first); ``speaking`` the seats whose announcement is judged."""

    rules: Rules
    hands: np.ndarray
    claims: list[Claims]
    shout: np.ndarray
    winner: np.ndarray
    first: np.ndarray
    length: np.ndarray
    fault: np.ndarray
    speaking: np.ndarray

    def played(self, i: int) -> reference.Played:
        """Game i as the reference engine's `Played`."""
        rules = self.rules
        hands = tuple(tuple(int(c) for c in self.hands[i, s]) for s in (0, 1))
        claims, said = [], []
        for s in (0, 1):
            c = self.claims[s]
            row = Row(tuple(int(p) for p in c.order[i]), bool(c.face_down[i]))
            claims.append(Claim(row if c.claimed[i] else None, float(c.seconds[i])))
            spoken = ()
            if self.speaking[i, s]:
                spoken = tuple(Said(None if c.states[i, k] < 0 else int(c.states[i, k]),
                                    None if rules.announce != "capitals" or c.capitals[i, k] < 0
                                    else int(c.capitals[i, k])) for k in range(rules.placed))
            said.append(spoken)
        return reference.Played(rules, (hands[0], hands[1]), (claims[0], claims[1]), (said[0], said[1]))


def race_hands(rules: Rules, bots, hands: np.ndarray, streams) -> Raced:
    """Given hands (m, 2, cards) raced: seat s's claims from ``bots[s].act(Hands(...),
    streams[s])`` (one call a seat, or a `geolab.lineup.Lineup`'s bots each for its own
    hands), judged and settled. The piece a game holding Dashing
    States as a stage (the Combo 1 match) plays its games with, on its own deals and streams."""
    m = len(hands)
    claims, row, said = [], np.empty((m, 2), np.int64), np.empty((m, 2), np.int64)
    for s, seat in enumerate(bots):
        parts = []
        for bot, at in members(seat, np.arange(m)):
            with asking("dashing-states", bot, "race"):
                made = bot.act(Hands(hands[at, s]), streams[s])
            parts.append((at, checked_claims(rules, bot, made, len(at))))
        claims.append(parts[0][1] if len(parts) == 1 else _scattered(parts, m))
        row[:, s], said[:, s] = faults(rules, hands[:, s], claims[s])
    shout = np.stack([np.where(c.claimed, c.seconds, np.inf) for c in claims], axis=1)
    gave_up = np.maximum(claims[0].seconds, claims[1].seconds)
    winner, first, length = np.empty(m, np.int64), np.empty(m, np.int64), np.empty(m)
    fault, speaking = np.empty((m, 2), np.int64), np.empty((m, 2), np.bool_)
    _settle(shout, gave_up, row, said, rules.simultaneous, rules.announce != "none", rules.simultaneous_announce,
            winner, fault, first, length, speaking)
    return Raced(rules, hands, claims, shout, winner, first, length, fault, speaking)


def _scattered(parts, m: int) -> Claims:
    """Claims for m hands from the claims of several bots, each for its own rows."""
    fields = Claims.__dataclass_fields__
    out = {f: np.empty((m,) + getattr(parts[0][1], f).shape[1:], getattr(parts[0][1], f).dtype) for f in fields}
    for at, claims in parts:
        for f in fields:
            out[f][at] = getattr(claims, f)
    return Claims(**out)


class _Chunk:
    """m games from block `b0` on (`log`: each block's `Raced` games kept, for records)."""

    def __init__(self, rules: Rules, bots, seed: int, b0: int, m: int, stream: int, log: bool):
        self.rules, self.bots, self.seed, self.b0, self.m, self.stream, self.log = rules, bots, seed, b0, m, stream, log
        self.winner = np.zeros(m, np.int64)
        self.length = np.zeros(m)
        self.first = np.zeros(m, np.int64)
        self.seconds = np.full((m, 2), np.nan)
        self.fault = np.full((m, 2), -1, np.int8)
        self.raced: list[Raced] = []

    def rng(self, b: int, *key: int) -> np.random.Generator:
        return np.random.default_rng(np.random.SeedSequence(self.seed, spawn_key=(self.b0 + b, *key)))

    def play(self) -> _Chunk:
        for b in range(-(-self.m // BLOCK)):
            rows = slice(b * BLOCK, min(self.m, (b + 1) * BLOCK))
            self.block(b, rows, rows.stop - rows.start)
        return self

    def block(self, b: int, rows: slice, size: int) -> None:
        hands = deal_block(self.rules, self.rng(b, 0))
        raced = race_hands(self.rules, self.bots, hands, [self.rng(b, 1, self.stream, s) for s in (0, 1)])
        self.winner[rows] = raced.winner[:size]
        self.length[rows] = raced.length[:size]
        self.first[rows] = raced.first[:size]
        self.seconds[rows] = np.where(np.isfinite(raced.shout), raced.shout, np.nan)[:size]
        self.fault[rows] = raced.fault[:size]
        if self.log:
            self.raced.append(raced)

    def played(self, i: int) -> reference.Played:
        """Game i as the reference engine's `Played` (needs `log`)."""
        b, j = divmod(i, BLOCK)
        return self.raced[b].played(j)
