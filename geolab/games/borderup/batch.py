"""Border-Up for many games at once: the batch engine.

The reference engine (`geolab.games.borderup.reference.steps`) is the specification; this
engine plays the same games as arrays whose first axis is the game, and must agree with it
game for game (``tests/test_borderup_batch.py`` and the conformance suite replay its games
there). A chunk of blocks is dealt (`geolab.games.race.deal_hands`: two hands from a key per
game), searched by the group finder (`geolab.games.groups_batch.find_batch`), dealt again where
neither hand holds a solution, raced by the seats' race models block by block and settled by
`geolab.games.race.settle` under the ``tie`` rule (`race_blocks`). `race_block` is one block
of it, public so a game that holds Border-Up as a stage (the Combo 1 tournament) plays its
Border-Up games with its own keys and streams.

**The bots.** A race bot answers two questions, the same for GeoDouble's stage 1, so one race
model serves both: ``bots[s].race(rng, cards, solutions)``, seat s's claims for a block of
hands (the seconds of each, inf for no claim, and whether it is wrong; a claim that is not
wrong lays down the hand's first solution, which is the finder's example and the reference
engine's ``decision.legal[0]``), and ``bots[s].give_up(cards)``, the seconds it searches a hand
without a solution (the time a record writes for a claim not made).

**Seeds.** Games are dealt in blocks of `BLOCK`; block b draws from generators of
``SeedSequence(seed, spawn_key=(b, ...))``, each for every game of the block:

- ``(b, 0, a)``: deal a (0, then each redeal): a key per game, whose counter stream shuffles
  the 50 cards (`geolab.common.counter_rng`); A takes the first `Rules.cards`, B the next;
- ``(b, 1, stream, s)``: seat s's claims, asked for every hand of the block (a game not raced
  as a hand without a solution), so a game's draws do not depend on the others'.

So every seating (``stream``) of a seed plays the same cards, and a run can start at any
multiple of `BLOCK`. Chunks are whole blocks and run on threads; neither changes a result.

**The table.** `Batch.scores`: 1 / 0 to the winner, 0.5 each at a tie; ``length``: the deals
(1 unless the cards were dealt again); ``first``: the team that claimed first (A where both
claimed at the same second or nobody claimed). Columns, each team's: ``solutions`` (in the
last deal), ``seconds`` (of its claim; inf where it made none or no race was run) and
``wrong`` (it made a wrong claim).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from geolab.common import chunks
from geolab.common.seeding import int_seed
from geolab.errors import IllegalActionError
from geolab.game import Batch, asking, bot_name
from geolab.games import groups, groups_batch
from geolab.games.borderup import records, reference
from geolab.games.borderup.rules import Rules
from geolab.games.race import claim, deal_hands, settle
from geolab.lineup import checked_bots, members

#: Games per seed block; a chunk is a whole number of blocks.
BLOCK = 4096
#: Default games per chunk.
CHUNK = 65536
SEATS = reference.SEATS


@dataclass
class Raced:
    """The games of one block, raced: rows are games. Hands are int64 card masks (A's, B's);
    ``dealt`` holds every deal's hands where kept (game i's first ``attempts[i]`` of them)."""

    attempts: np.ndarray  # (m,) deals per game
    solutions: np.ndarray  # (m, 2) each hand's solutions in the last deal
    example: np.ndarray  # (m, 2, 2) each hand's first solution, as two group masks (0 where none; kept only)
    seconds: np.ndarray  # (m, 2) each team's claim (inf: none, or no race was run)
    wrong: np.ndarray  # (m, 2) the claim made is wrong (a claim on a hand without a solution is)
    winner: np.ndarray  # (m,) -1: a tie
    dealt: list[np.ndarray] | None = None

    @property
    def raced(self) -> np.ndarray:
        return (self.solutions > 0).any(axis=1)

    def played(self, rules: Rules, i: int, give_up: Sequence[float]) -> reference.Played:
        """Game i as the reference engine's `Played` (needs ``dealt``). A claim not made is
        written with the seconds its team searched before giving up (`give_up`, a team's), as
        the team's seat at the reference engine writes it."""
        deals = tuple(tuple(groups.cards_of(int(h)) for h in d[i]) for d in self.dealt[:self.attempts[i]])
        claims = None
        if self.raced[i]:
            claims = tuple(claim(float(self.seconds[i, s]), bool(self.wrong[i, s]), self._solution(i, s),
                                 reference.WRONG, give_up[s]) for s in SEATS)
        return reference.Played(rules, deals, claims, int(self.winner[i]))

    def _solution(self, i: int, s: int) -> reference.Solution | None:
        if not self.solutions[i, s]:
            return None
        return reference.Solution(*(groups.cards_of(int(g)) for g in self.example[i, s]))


def race_blocks(rules: Rules, bots: Sequence, keys: Callable[[int, int], np.ndarray],
                streams: Callable[[int], Sequence[np.random.Generator]], sizes: Sequence[int], block: int,
                keep: bool = False) -> Raced:
    """The games of consecutive blocks, raced at once (rows: block 0's ``sizes[0]`` games, then
    block 1's ...). Deal a of block b's game i comes from ``keys(a, b)[i]`` (one uint64 key a
    game of the whole block, `block` of them), again until a hand holds a solution or the
    redeals run out; block b's claims from ``bots[s].race(streams(b)[s], ...)``, asked for every
    game of the block (`block` hands; a `geolab.lineup.Lineup` asks each of its bots for its
    own), so a game's draws never depend on how many games are played; then `settle` under the
    ``tie`` rule. ``keep``: every deal's hands kept (records).
    The finder and `settle` run once for all the blocks: their fixed costs are paid once."""
    m = int(sum(sizes))
    offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    masks = np.zeros((m, 2), np.int64)
    solutions, example = np.zeros((m, 2), np.int64), np.zeros((m if keep else 0, 2, 2), np.int64)
    attempts = np.zeros(m, np.int64)
    dealt: list[np.ndarray] | None = [] if keep else None
    pending = np.arange(m)
    for a in range(rules.redeals + 1):
        by_block = np.split(pending, np.searchsorted(pending, offsets[1:-1]))  # pending is sorted
        for b, rows in enumerate(by_block):
            if len(rows):
                deal_hands(np.asarray(keys(a, b), np.uint64), rows - offsets[b], rows, rules.cards, masks)
        rows = slice(None) if a == 0 else pending  # the first deal: every game, no gather or scatter
        found = groups_batch.find_batch(masks[rows].ravel(), rules.four_corners, rules.water)
        solutions[rows] = found.border_up.reshape(-1, 2)
        if keep:  # the claims laid down, for records (a table needs only their number)
            example[rows] = found.border_up_example.reshape(-1, 2, 2)
        attempts[rows] += 1
        if dealt is not None:
            dealt.append(masks.copy())
        pending = pending[(solutions[pending, 0] == 0) & (solutions[pending, 1] == 0)]
        if not len(pending):
            break
    raced = (solutions[:, 0] > 0) | (solutions[:, 1] > 0)
    seconds, wrong = np.full((m, 2), np.inf), np.zeros((m, 2), bool)
    cards = np.full(block, rules.cards)
    for b, size in enumerate(sizes):
        lo, hi = offsets[b], offsets[b + 1]
        seats = streams(b)
        for s, seat in enumerate(bots):
            k = np.zeros(block, np.int64)
            k[:size] = np.where(raced[lo:hi], solutions[lo:hi, s], 0)
            t, w = np.empty(block), np.empty(block, bool)
            for bot, at in members(seat, np.arange(block)):
                t[at], w[at] = _race(bot, seats[s], cards[at], k[at])
            seconds[lo:hi, s], wrong[lo:hi, s] = t[:size], w[:size]
    seconds[~raced] = np.inf  # no race: no claim (so `settle` gives nobody)
    claimed = np.isfinite(seconds)
    wrong = claimed & (wrong | (solutions == 0))  # a claim on a hand without a solution is wrong
    winner = settle(seconds, claimed & ~wrong, tie="tie")
    return Raced(attempts, solutions, example, seconds, wrong, winner, dealt)


def _race(bot, rng: np.random.Generator, cards: np.ndarray, k: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One bot's claims on these hands (seconds, wrong), checked for shape."""
    with asking("border-up", bot, "race"):
        t, w = bot.race(rng, cards, k)
        t, w = np.asarray(t, float), np.asarray(w, bool)
    if t.shape != k.shape or w.shape != k.shape:
        raise IllegalActionError(f"border-up: bot {bot_name(bot)!r}, race: expected the seconds and wrong "
                                 f"claims of {len(k)} hands, got shapes {t.shape} and {w.shape}")
    return t, w


def race_block(rules: Rules, bots: Sequence, keys: Callable[[int], np.ndarray], streams: Sequence[np.random.Generator],
               m: int, keep: bool = False) -> Raced:
    """Games 0..m-1 of one block (`race_blocks`): deal a of game i from ``keys(a)[i]``, the
    seats' claims from ``bots[s].race(streams[s], ...)`` for every game of the block (its size:
    ``len(keys(0))``). The piece a game holding Border-Up as a stage (the Combo 1 tournament)
    plays its Border-Up games with, on its own keys and streams."""
    return race_blocks(rules, bots, lambda a, b: keys(a), lambda b: streams, [m], len(keys(0)), keep)


def batch(rules: Rules, bots, n: int, seed, *, start: int = 0, stream: int = 0, chunk: int | None = None,
          threads: int | None = None) -> Batch:
    """Games start .. start + n - 1 of the seed, ``bots[s]`` at seat s (module docstring)."""
    parts = _run(rules, bots, n, seed, start, stream, chunk, threads)
    cat = lambda name: np.concatenate([getattr(p, name) for p in parts])  # noqa: E731
    seconds, wrong, solutions, winner = cat("seconds"), cat("wrong"), cat("solutions"), cat("winner")
    scores = np.full((len(winner), 2), 0.5)  # a tie shares the win
    for s in SEATS:
        scores[winner == s] = np.eye(2)[s]
    first = (seconds[:, 1] < seconds[:, 0]).astype(np.int64)
    columns = {}
    for s, side in enumerate(reference.SIDES):
        columns |= {f"solutions_{side}": solutions[:, s], f"seconds_{side}": seconds[:, s],
                    f"wrong_{side}": wrong[:, s]}
    return Batch(scores, cat("attempts"), first, columns)


def batch_records(rules: Rules, bots, n: int, seed) -> list[dict]:
    """The first n games of `batch` (stream 0) as records."""
    return [records.to_record(p) for p in played(rules, bots, n, seed)]


def played(rules: Rules, bots, n: int, seed, *, stream: int = 0) -> list[reference.Played]:
    """The first n games of `batch` as the reference engine's `Played` games."""
    give_up = [bot.give_up(rules.cards) for bot in bots]
    return [p.played(rules, i, give_up) for p in _run(rules, bots, n, seed, stream=stream, keep=True)
            for i in range(len(p.winner))]


def _run(rules: Rules, bots, n: int, seed, start: int = 0, stream: int = 0, chunk: int | None = None,
         threads: int | None = None, keep: bool = False) -> list[Raced]:
    """The chunks' `Raced` games, in order (a chunk: `per` blocks, raced at once)."""
    rules.validate()
    first, per, starts, blocks = chunks.plan(n, start, chunk, BLOCK, CHUNK, bots,
                                             needs="Border-Up needs two bots, one per team")
    checked_bots(bots)
    seed = int_seed(seed)

    def rng(b: int, *key: int) -> np.random.Generator:
        return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(first + b, *key)))

    def keys(a: int, b: int) -> np.ndarray:
        return rng(b, 0, a).integers(0, 2**64, size=BLOCK, dtype=np.uint64)

    def piece(c: int) -> Raced:
        """Blocks c .. c + per - 1: one chunk."""
        sizes = [min(BLOCK, n - b * BLOCK) for b in range(c, min(blocks, c + per))]
        return race_blocks(rules, bots, lambda a, b: keys(a, c + b),
                           lambda b: [rng(c + b, 1, stream, s) for s in SEATS], sizes, BLOCK, keep)

    if not starts:  # no games: an empty chunk, for the columns
        return [race_blocks(rules, bots, keys, lambda b: [rng(0, 1, stream, s) for s in SEATS], [], BLOCK)]
    return chunks.run(piece, starts, bots, threads)
