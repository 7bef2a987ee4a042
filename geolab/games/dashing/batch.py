"""Dashing States for many games at once: the batch engine.

The reference engine (`geolab.games.dashing.reference.steps`) is the specification; this engine
plays the same games as arrays whose first axis is the game and must agree with it game for
game (``tests/test_dashing_batch.py`` replays its games there). A block's deals, both teams'
claims (`Claims`, one call of each bot a block), the judging of every claim and
`reference.outcome` are a few numpy passes each; nothing loops over games.

**The bots.** A bot is a batch policy: ``bots[s].act(obs, rng)`` gives seat s's `Claims` for
a block of hands (`Hands`: ``obs.hands`` (m, cards), each in the order dealt): every team's
shout (or the seconds it searched before giving up), its row and what it would announce. Only what the rules ask is used: the
announcement of a team that did not shout first is never made, nor recorded.

**Seeds.** Games are dealt in blocks of `BLOCK`; block b draws from generators of
``SeedSequence(seed, spawn_key=(b, ...))``: ``(b, 0)`` deals (``random((BLOCK, 2 * cards))``
through `geolab.games.ranks.reference.shuffled_prefix`, the reference engine's deal), ``(b, 1,
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

import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from geolab.cards import MAP_DECK
from geolab.common.seeding import int_seed
from geolab.errors import GeolabError, IllegalActionError
from geolab.game import Batch, asking, bot_name
from geolab.games.dashing import records, reference
from geolab.games.dashing.reference import FAULTS, Row, Said
from geolab.games.dashing.rules import Rules
from geolab.games.ranks.reference import shuffled_prefix
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
    if n < 0:
        raise GeolabError(f"games must be >= 0, got {n}")
    if len(bots) != 2:
        raise GeolabError("a game of Dashing States needs two bots, one per team")
    if start < 0 or start % BLOCK:
        raise GeolabError(f"start must be a whole number of blocks of {BLOCK}, got {start}")
    if chunk is not None and chunk < 1:
        raise GeolabError(f"chunk must be positive, got {chunk}")
    seed, first = int_seed(seed), start // BLOCK
    per = -(-(chunk or CHUNK) // BLOCK)
    starts = list(range(0, -(-n // BLOCK), per)) or [0]  # no games: one empty chunk, for the columns

    def one(b: int) -> _Chunk:
        return _Chunk(rules, bots, seed, first + b, min(per * BLOCK, n - b * BLOCK), stream, log).play()

    safe = all(getattr(b, "thread_safe", True) for b in bots)
    threads = 1 if not safe else max(1, min(threads or os.cpu_count() or 1, len(starts)))
    if threads == 1:
        return [one(b) for b in starts]
    with ThreadPoolExecutor(threads) as pool:
        return list(pool.map(one, starts))


def deal_block(rules: Rules, rng: np.random.Generator, m: int = BLOCK) -> np.ndarray:
    """int64 (m, 2, cards): m deals from one generator, each as `reference.deal_one` deals it
    (A's cards, then B's, in the order dealt)."""
    k = rules.cards
    return DECK[shuffled_prefix(rng.random((m, 2 * k)), len(DECK)).astype(np.int64)].reshape(m, 2, k)


def checked_claims(rules: Rules, bot, claims: Claims, m: int) -> Claims:
    """A bot's claims as arrays of the right shapes, each row a legal row and announcement."""
    p, k = rules.placed, rules.cards
    out = Claims(np.asarray(claims.seconds, float), np.asarray(claims.claimed, bool),
                 np.asarray(claims.order, np.int64), np.asarray(claims.face_down, bool),
                 np.asarray(claims.states, np.int64), np.asarray(claims.capitals, np.int64))
    shapes = [(out.seconds, (m,)), (out.claimed, (m,)), (out.order, (m, p)), (out.face_down, (m,)),
              (out.states, (m, p)), (out.capitals, (m, p))]
    if any(a.shape != shape for a, shape in shapes):
        raise IllegalActionError(f"dashing-states: bot {bot_name(bot)!r}: expected claims of {m} hands, got shapes "
                                 + ", ".join(str(a.shape) for a, _ in shapes))
    ordered = np.sort(out.order, axis=1)
    bad = ~(np.isfinite(out.seconds) & (out.seconds >= 0))
    bad |= out.claimed & (((out.order < 0) | (out.order >= k)).any(axis=1) | (np.diff(ordered, axis=1) == 0).any(axis=1))
    bad |= out.claimed & (((out.states < -1) | (out.states >= len(DECK))).any(axis=1)
                          | ((out.capitals < -1) | (out.capitals >= len(DECK))).any(axis=1))
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise IllegalActionError(f"dashing-states: bot {bot_name(bot)!r}: hand {i}'s claim is not legal (seconds "
                                 f"{out.seconds[i]!r}, row {out.order[i].tolist()}, states {out.states[i].tolist()}, "
                                 f"capitals {out.capitals[i].tolist()})")
    return out


def faults(rules: Rules, hands: np.ndarray, claims: Claims) -> tuple[np.ndarray, np.ndarray]:
    """For one seat's claims on its hands (m, cards): the row's fault and the announcement's
    (0: none, else 1 + the index in `FAULTS`), as `reference.row_fault` and
    `reference.said_fault` judge them."""
    cards = np.take_along_axis(hands, claims.order, axis=1)
    step = np.diff(cards, axis=1)
    ordered = (step > 0).all(axis=1)
    if rules.either_direction:
        ordered |= (step < 0).all(axis=1)
    row = np.where(rules.face_down & ~claims.face_down, 1 + FAULTS.index("face-up"),
                   np.where(~ordered, 1 + FAULTS.index("order"), 0))
    said = np.zeros(len(hands), np.int64)
    if rules.announce == "capitals":
        said = np.where((claims.capitals != cards).any(axis=1), 1 + FAULTS.index("capital"), said)
    if rules.announce != "none":
        said = np.where((claims.states != cards).any(axis=1), 1 + FAULTS.index("state"), said)
    return row, said


class _Chunk:
    """m games from block `b0` on (`log`: the deals and claims kept, for records)."""

    def __init__(self, rules: Rules, bots, seed: int, b0: int, m: int, stream: int, log: bool):
        self.rules, self.bots, self.seed, self.b0, self.m, self.stream, self.log = rules, bots, seed, b0, m, stream, log
        self.winner = np.zeros(m, np.int64)
        self.length = np.zeros(m)
        self.first = np.zeros(m, np.int64)
        self.seconds = np.full((m, 2), np.nan)
        self.fault = np.full((m, 2), -1, np.int8)
        self.hands = np.zeros((m, 2, rules.cards), np.int64) if log else None
        self.claims: list[list[Claims]] = []
        self.speakers = np.zeros((m, 2), bool) if log else None

    def rng(self, b: int, *key: int) -> np.random.Generator:
        return np.random.default_rng(np.random.SeedSequence(self.seed, spawn_key=(self.b0 + b, *key)))

    def play(self) -> _Chunk:
        for b in range(-(-self.m // BLOCK)):
            rows = slice(b * BLOCK, min(self.m, (b + 1) * BLOCK))
            self.block(b, rows, rows.stop - rows.start)
        return self

    def block(self, b: int, rows: slice, size: int) -> None:
        rules = self.rules
        hands = deal_block(rules, self.rng(b, 0))
        claims = []
        for s, bot in enumerate(self.bots):
            with asking("dashing-states", bot, "race"):
                made = bot.act(Hands(hands[:, s]), self.rng(b, 1, self.stream, s))
            claims.append(checked_claims(rules, bot, made, BLOCK))
        shout = np.stack([np.where(c.claimed, c.seconds, np.inf) for c in claims], axis=1)
        first = reference.first_shouts(rules, shout)
        both = first.all(axis=1)
        speaking = first & (rules.announce != "none") & ~(both & (not rules.simultaneous_announce))[:, None]
        fault = np.full((BLOCK, 2), -1, np.int64)
        for s in (0, 1):
            row, said = faults(rules, hands[:, s], claims[s])
            judged = np.where(row > 0, row, np.where(speaking[:, s], said, 0))
            fault[:, s] = np.where(first[:, s], judged, -1)
        winner = reference.outcome(rules, shout, fault == 0)
        gave_up = np.stack([c.seconds for c in claims], axis=1).max(axis=1)
        self.winner[rows] = winner[:size]
        self.length[rows] = np.where(first.any(axis=1), shout.min(axis=1), gave_up)[:size]
        self.first[rows] = np.where(first[:, 1] & ~first[:, 0], 1, 0)[:size]
        self.seconds[rows] = np.where(np.isfinite(shout), shout, np.nan)[:size]
        self.fault[rows] = fault[:size]
        if self.log:
            self.hands[rows] = hands[:size]
            self.speakers[rows] = speaking[:size]
            self.claims.append(claims)

    def played(self, i: int) -> reference.Played:
        """Game i as the reference engine's `Played` (needs `log`)."""
        rules = self.rules
        b, j = divmod(i, BLOCK)
        hands = tuple(tuple(int(c) for c in self.hands[i, s]) for s in (0, 1))
        claims, said = [], []
        for s in (0, 1):
            c = self.claims[b][s]
            row = Row(tuple(int(p) for p in c.order[j]), bool(c.face_down[j]))
            claims.append(Claim(row if c.claimed[j] else None, float(c.seconds[j])))
            spoken = ()
            if self.speakers[i, s]:
                spoken = tuple(Said(None if c.states[j, k] < 0 else int(c.states[j, k]),
                                    None if rules.announce != "capitals" or c.capitals[j, k] < 0
                                    else int(c.capitals[j, k])) for k in range(rules.placed))
            said.append(spoken)
        return reference.Played(rules, (hands[0], hands[1]), (claims[0], claims[1]), (said[0], said[1]))
