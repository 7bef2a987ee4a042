"""GeoDouble for many matches at once: the batch engine.

The reference engine (`geolab.games.geodouble.reference.steps`) is the specification; this
engine plays the same matches as arrays whose first axis is the match, and must agree with it
round for round (``tests/test_geodouble_batch.py`` replays its matches there). Rounds are
played in turn, each for the matches still live: the race deals (dealt again where neither
hand holds a solution), the group finder (`geolab.games.groups_batch.find_batch`), the seats'
claims, `geolab.games.race.settle`, then stage 2 on Play the Ranks' own batch engine
(`geolab.games.ranks.batch.play_given`, the race winner leading) for the matches the race did
not end.

**The bots.** ``bots[s].race(rng, cards, solutions)`` gives seat s's claims for a block of
hands: the seconds of each (inf: no claim) and whether it is wrong; a claim that is not wrong
lays down the hand's first solution, which is the finder's example and the reference engine's
``decision.legal[0]``. ``bots[s].stage_policy(rules, scores)`` is a Play the Ranks batch policy
for one stage batch, whose game g stood at ``scores[g]`` (A's, B's: this round's race points
counted) when the stage began.

**Seeds.** Matches are dealt in blocks of `BLOCK`; block b's round r draws from generators of
``SeedSequence(seed, spawn_key=(b, r, ...))``, each for every match of the block whether or
not it is still live:

- ``(b, r, 0, a)``: race deal a (0, then each redeal): a key per match, whose counter stream
  (`geolab.common.counter_rng`) shuffles the 50 cards; A takes the first ``race_cards``, B the
  next (a key, not the shuffle's floats, so a redeal few matches need draws little);
- ``(b, r, 1)``: the coin, then the stage deal (`geolab.games.ranks.batch.dealt`: a fresh
  shuffle, and the key the heuristic bots hash their noise from);
- ``(b, r, 2, stream, s)``: seat s's claims, asked for every hand of the block (one not in a
  race as a hand without a solution), so a match's draws do not depend on the others'.

So every seating (``stream``) of a seed plays the same cards, and a run can start at any
multiple of `BLOCK`. The stage policies' ``rng`` (Play the Ranks' per-chunk generator, for
bots that need no chunk-independent results) comes from ``(c, r, 3, stream)``, c the chunk's
first block. Chunks are whole blocks and run on threads; neither changes a result.

**The table.** `Batch.scores`: the higher score wins the match, level scores share it;
``length``: rounds played; ``first``: the first round's dealer, which is the first race's
winner, or the coin where that race was void (so it always names a seat). Columns, each
seat's: ``points``, ``races`` (races won), ``stages`` (stages won) and ``declared``
(declarations made).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from geolab.common import chunks
from geolab.common.seeding import int_seed
from geolab.errors import IllegalActionError
from geolab.game import Batch, asking, bot_name, shares
from geolab.games import groups, groups_batch
from geolab.games.geodouble import records, reference
from geolab.games.geodouble.rules import Rules
from geolab.games.race import claim, deal_hands, settle
from geolab.games.ranks import batch as ranks
from geolab.lineup import checked_bots
from geolab.stepwise import Claim

#: Matches per seed block; a chunk is a whole number of blocks.
BLOCK = 4096
#: Default matches per chunk.
CHUNK = 65536
SEATS = reference.SEATS


def batch(rules: Rules, bots, n: int, seed, *, start: int = 0, stream: int = 0, chunk: int | None = None,
          threads: int | None = None) -> Batch:
    """Matches start .. start + n - 1 of the seed, ``bots[s]`` at seat s (module docstring)."""
    parts = _run(rules, bots, n, seed, start, stream, chunk, threads)
    cat = lambda name: np.concatenate([getattr(c, name) for c in parts])  # noqa: E731
    score, races, stages, declared = cat("score"), cat("races"), cat("stages"), cat("declared")
    columns = {}
    for s, side in enumerate("AB"):
        columns |= {f"points_{side}": score[:, s], f"races_{side}": races[:, s], f"stages_{side}": stages[:, s],
                    f"declared_{side}": declared[:, s]}
    return Batch(shares(score == score.max(axis=1, keepdims=True)), cat("rounds"), cat("first"), columns)


def batch_records(rules: Rules, bots, n: int, seed) -> list[dict]:
    """The first n matches of `batch` (stream 0) as records."""
    return [records.to_record(p) for p in played(rules, bots, n, seed)]


def played(rules: Rules, bots, n: int, seed, *, stream: int = 0) -> list[reference.Played]:
    """The first n matches of `batch` as the reference engine's `Played` matches."""
    return [c.played(i) for c in _run(rules, bots, n, seed, stream=stream, log=True) for i in range(c.m)]


def _run(rules: Rules, bots, n: int, seed, start: int = 0, stream: int = 0, chunk: int | None = None,
         threads: int | None = None, log: bool = False) -> list[_Chunk]:
    rules.validate()
    first, per, starts, _ = chunks.plan(n, start, chunk, BLOCK, CHUNK, bots, "matches",
                                        "a match needs two bots, one per seat")
    checked_bots(bots)
    seed, starts = int_seed(seed), starts or [0]  # no matches: one empty chunk, for the columns

    def one(b: int) -> _Chunk:
        return _Chunk(rules, bots, seed, first + b, min(per * BLOCK, n - b * BLOCK), stream, log).play()

    return chunks.run(one, starts, bots, threads)


def _by_block(rows: np.ndarray) -> list[tuple[int, np.ndarray]]:
    """Sorted chunk rows split by block: (the block in the chunk, its rows)."""
    if not len(rows):
        return []
    blocks = rows // BLOCK
    return [(int(part[0] // BLOCK), part) for part in np.split(rows, np.flatnonzero(np.diff(blocks)) + 1)]


def _arrays(deals: ranks.Deals) -> tuple:
    return deals.hands, deals.masks, deals.draw, deals.power, deals.keys


def _pick(deals: ranks.Deals, rows) -> ranks.Deals:
    return ranks.Deals(*(None if a is None else a[rows] for a in _arrays(deals)))


@dataclass
class _Round:
    """One round of a chunk, kept for records: rows are the chunk's matches."""

    live: np.ndarray  # bool: the match played this round
    dealt: list[np.ndarray]  # each race deal's hands as masks (m, 2); attempts[i] of them are match i's
    attempts: np.ndarray
    coin: np.ndarray
    solutions: np.ndarray  # (m, 2) each hand's solutions in the last race deal
    example: np.ndarray  # (m, 2, 2): each hand's first solution, border and capital group masks
    seconds: np.ndarray  # (m, 2): inf where no claim
    wrong: np.ndarray
    winner: np.ndarray  # -1: void
    staged: np.ndarray  # the rows that played stage 2, in order
    stage: ranks.Played

    def claim(self, i: int, s: int, give_up: float) -> Claim:
        solution = None
        if self.solutions[i, s]:
            solution = reference.Solution(*(groups.cards_of(int(g)) for g in self.example[i, s]))
        return claim(float(self.seconds[i, s]), bool(self.wrong[i, s]), solution, reference.WRONG, give_up)


class _Chunk:
    """m matches from block `b0` on, played round after round (`log`: every round kept)."""

    def __init__(self, rules: Rules, bots, seed: int, b0: int, m: int, stream: int, log: bool):
        self.rules, self.bots, self.seed, self.b0, self.m, self.stream = rules, bots, seed, b0, m, stream
        self.score = np.zeros((m, 2), np.int64)
        self.races = np.zeros((m, 2), np.int64)
        self.stages = np.zeros((m, 2), np.int64)
        self.declared = np.zeros((m, 2), np.int64)
        self.rounds = np.zeros(m, np.int64)
        self.first = np.zeros(m, np.int64)
        self.log: list[_Round] | None = [] if log else None

    def rng(self, b: int, r: int, *key: int) -> np.random.Generator:
        return np.random.default_rng(np.random.SeedSequence(self.seed, spawn_key=(self.b0 + b, r, *key)))

    def play(self) -> _Chunk:
        for r in range(self.rules.max_rounds):
            live = np.flatnonzero(self.score.max(axis=1) < self.rules.target)
            if not len(live):
                break
            self.round(r, live)
        return self

    def race_deals(self, r: int, live: np.ndarray):
        """Each live match's race deals until a hand holds a solution or the redeals run out:
        each hand's solutions and first solution in the last deal, the deals per match, and
        (logging) the hands of each deal."""
        rules, m = self.rules, self.m
        masks, dealt = np.zeros((m, 2), np.int64), []
        solutions, example = np.zeros((m, 2), np.int64), np.zeros((m, 2, 2), np.int64)
        attempts = np.zeros(m, np.int64)
        pending = live
        for a in range(rules.redeals + 1):
            for b, rows in _by_block(pending):
                keys = self.rng(b, r, 0, a).integers(0, 2**64, size=BLOCK, dtype=np.uint64)
                deal_hands(keys, rows - b * BLOCK, rows, rules.race_cards, masks)
            found = groups_batch.find_batch(masks[pending].ravel(), rules.four_corners, rules.water)
            solutions[pending] = found.geodouble.reshape(-1, 2)
            example[pending] = found.geodouble_example.reshape(-1, 2, 2)
            attempts[pending] += 1
            if self.log is not None:
                dealt.append(masks.copy())
            pending = pending[(solutions[pending] == 0).all(axis=1)]
            if not len(pending):
                break
        return solutions, example, attempts, dealt

    def claims(self, r: int, live: np.ndarray, solutions: np.ndarray):
        """Each seat's claims in the live matches: (m, 2) seconds (inf: none) and wrong."""
        seconds, wrong = np.full((self.m, 2), np.inf), np.zeros((self.m, 2), bool)
        cards = np.full(BLOCK, self.rules.race_cards)
        for b, rows in _by_block(live):
            k = np.zeros((BLOCK, 2), np.int64)
            k[rows - b * BLOCK] = solutions[rows]
            for s, bot in enumerate(self.bots):
                with asking("geodouble", bot, "race"):
                    t, w = bot.race(self.rng(b, r, 2, self.stream, s), cards, k[:, s])
                    t, w = np.asarray(t, float), np.asarray(w, bool)
                if t.shape != (BLOCK,) or w.shape != (BLOCK,):
                    raise IllegalActionError(f"geodouble: bot {bot_name(bot)!r}, race: expected the seconds and wrong "
                                             f"claims of {BLOCK} hands, got shapes {t.shape} and {w.shape}")
                seconds[rows, s], wrong[rows, s] = t[rows - b * BLOCK], w[rows - b * BLOCK]
        return seconds, wrong

    def round_deals(self, r: int, live: np.ndarray) -> tuple[np.ndarray, ranks.Deals]:
        """The coins (rows of the chunk) and the stage deals (rows of `live`) of the live matches."""
        coin, stage = np.zeros(self.m, np.int64), []
        for b, rows in _by_block(live):
            rng = self.rng(b, r, 1)
            coin[rows] = rng.integers(2, size=BLOCK)[rows - b * BLOCK]
            stage.append(_pick(ranks.dealt(self.rules.stage, rng, BLOCK), rows - b * BLOCK))
        return coin, ranks.Deals(*(None if a[0] is None else np.concatenate(a) for a in zip(*map(_arrays, stage))))

    def round(self, r: int, live: np.ndarray) -> None:
        rules = self.rules
        solutions, example, attempts, dealt = self.race_deals(r, live)
        coin, stage = self.round_deals(r, live)
        seconds, wrong = self.claims(r, live, solutions)
        winner = np.full(self.m, -1, np.int64)
        racing = live[(solutions[live] > 0).any(axis=1)]
        valid = np.isfinite(seconds[racing]) & ~wrong[racing] & (solutions[racing] > 0)
        winner[racing] = settle(seconds[racing], valid, coin[racing])
        won = racing[winner[racing] >= 0]
        self.score[won, winner[won]] += rules.race_points
        self.races[won, winner[won]] += 1
        dealer = np.where(winner >= 0, winner, coin)
        if r == 0:
            self.first[:] = dealer
        self.rounds[live] += 1
        goes_on = self.score[live].max(axis=1) < rules.target
        staged = live[goes_on]
        policies = []
        for bot in self.bots:
            with asking("geodouble", bot, "stage 2"):
                policies.append(bot.stage_policy(rules, self.score[staged]))
        rng = self.rng(0, r, 3, self.stream)
        played = ranks.play_given(rules.stage, policies, _pick(stage, goes_on), dealer[staged], rng)
        self.score[staged] += played.points
        decided = played.winner >= 0
        self.stages[staged[decided], played.winner[decided]] += 1
        if played.declarations is not None:
            self.declared[staged] += played.declarations
        if self.log is not None:
            self.log.append(_Round(np.isin(np.arange(self.m), live), dealt, attempts, coin, solutions, example,
                                   seconds, wrong, winner, staged, played))

    def played(self, i: int) -> reference.Played:
        """Match i as the reference engine's `Played` (needs `log`). A claim not made is
        written with the seconds its player searched before giving up, as the player's seat
        at the reference engine writes it."""
        give_up = [bot.give_up(self.rules.race_cards) for bot in self.bots]
        rounds = []
        for rnd in self.log:
            if not rnd.live[i]:
                break
            races = tuple(tuple(groups.cards_of(int(h)) for h in d[i]) for d in rnd.dealt[:rnd.attempts[i]])
            claims = tuple(rnd.claim(i, s, give_up[s]) for s in SEATS) if rnd.solutions[i].any() else None
            at = np.searchsorted(rnd.staged, i)
            stage = rnd.stage.game(int(at)) if at < len(rnd.staged) and rnd.staged[at] == i else None
            race = reference.RacePlayed(races, int(rnd.coin[i]), claims, int(rnd.winner[i]))
            rounds.append(reference.RoundPlayed(race, stage, self.rules.race_points))
        return reference.Played(self.rules, rounds)
