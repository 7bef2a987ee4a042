"""State IQ for many games at once: the batch engine.

The reference engine (`geolab.games.stateiq.reference.steps`) is the specification; this
engine plays the same games as arrays whose first axis is the game, and must agree with it
clue for clue (``tests/test_stateiq_batch.py`` and the conformance suite replay its games
there). A game is two phases of at most three slots; each slot is played for the games still
live: the clue (a letter looked up in a table, or the clue-giving bots asked for a border
state where one is left), then the guessing bots asked, their answers checked, right guesses
ending their phases.

**The bots.** ``bots[s].act(asked, rng)`` answers an `Asked`: seat s's decisions of one kind
for a batch of games, as cards (a guess, or the border state named). The reference engine's
seats ask the same call with one game (`asked_from`), so a bot plays alike in both engines.

**Seeds.** Games are dealt in blocks of `BLOCK`: block b's deals come from
``SeedSequence(seed, spawn_key=(b, 0))`` (`reference.deal_arrays`, every game of the block),
seat s's decisions from ``(b, 1, stream, s)``. So every seating (``stream``) of a seed plays the
same cards, a run can start at any multiple of `BLOCK`, and chunks (whole blocks, on threads)
never change a result.

**The table.** `Batch.scores`: fewer guesses wins, a tie shares; ``length``: guesses made in
all; ``first``: the first guessing side. Columns: ``found_A``/``found_B`` (the guesses a side
took to find the other's card, 0: not found), ``guesses_A``/``guesses_B`` (guesses made) and
``power`` (the Power card's number, 1-15).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from geolab.cards import N_CARDS, POSTAL, POWER_DECK, RANKS, STATEHOOD
from geolab.common import chunks
from geolab.common.seeding import int_seed
from geolab.errors import IllegalActionError
from geolab.game import Batch, Decision, asking, bot_name
from geolab.games.stateiq import clues as facts
from geolab.games.stateiq import records, reference
from geolab.games.stateiq.clues import LETTERS, Clue
from geolab.games.stateiq.reference import GUESSES, SEATS, SIDES, Deal, Phase, Played, View
from geolab.games.stateiq.rules import Rules
from geolab.lineup import checked_bots, members

BLOCK = 4096
CHUNK = 65536

#: Every clue order (three letters of A, B, C), by code; the Power cards' codes.
ORDERS = tuple(a + b + c for a in "ABC" for b in "ABC" for c in "ABC")
ORDER_CODE = {o: i for i, o in enumerate(ORDERS)}
POWER_ORDER = np.array([ORDER_CODE[p.clues] for p in POWER_DECK], np.int64)

#: Clue codes in `Asked.clues`: a border card 0-49, `NONE` (no more border states, or no clue),
#: `LETTER` + i (letter i of A-Z); `UNSEEN` where no clue has been given.
UNSEEN, NONE, LETTER = -1, N_CARDS, 100


def clue_code(clue: Clue) -> int:
    if clue.value is None:
        return NONE
    return int(clue.value) if clue.kind == "B" else LETTER + LETTERS.index(clue.value)


def clue_of(order: str, slot: int, code: int) -> Clue:
    kind, index = facts.program(order)[slot]
    if code == NONE:
        return Clue(kind, index, None)
    return Clue(kind, index, LETTERS[code - LETTER] if code >= LETTER else int(code))


def _tables():
    """KIND[order, slot] (0 A, 1 B, 2 C), INDEX[order, slot], and LETTER_CODES[kind 0 or 2,
    index 0-2, card]: each card's letter clue code."""
    kind = np.array([[("ABC").index(k) for k, _ in facts.program(o)] for o in ORDERS], np.int64)
    index = np.array([[i for _, i in facts.program(o)] for o in ORDERS], np.int64)
    codes = np.full((3, GUESSES, N_CARDS), NONE, np.int64)
    for k, name in ((0, "A"), (2, "C")):
        for i in range(GUESSES):
            for c in range(N_CARDS):
                codes[k, i, c] = clue_code(facts.true_clue(c, name, i))
    return kind, index, codes


KIND, INDEX, LETTER_CODES = _tables()


@dataclass
class Asked:
    """One seat's decisions of one kind (``"guess"`` or ``"clue"``) in a batch of games: for
    each, the seat's own card, the order in play (`ORDERS` code), the phase (0, 1) and slot
    (0-2) now, the clues and guesses of both phases so far ((n, 2, 3) codes, `UNSEEN` / -1
    where none yet), the guesses each phase took to find its card ((n, 2), 0: not found), who
    guesses first, and the legal answers as a card mask."""

    rules: Rules
    kind: str
    seat: np.ndarray
    card: np.ndarray
    order: np.ndarray
    phase: np.ndarray
    slot: np.ndarray
    clues: np.ndarray
    guesses: np.ndarray
    found: np.ndarray
    first: np.ndarray
    legal: np.ndarray

    def __len__(self) -> int:
        return len(self.card)

    def take(self, at: np.ndarray) -> Asked:
        """The decisions of games `at` alone."""
        return Asked(self.rules, self.kind, *(getattr(self, f)[at] for f in
                                              ("seat", "card", "order", "phase", "slot", "clues", "guesses", "found",
                                               "first", "legal")))


def asked_from(rules: Rules, decision: Decision) -> Asked:
    """A reference-engine decision as an `Asked` of one game."""
    view: View = decision.observation
    clues = np.full((1, 2, GUESSES), UNSEEN, np.int64)
    guesses = np.full((1, 2, GUESSES), -1, np.int64)
    found = np.zeros((1, 2), np.int64)
    for p, phase in enumerate(view.phases):
        for k, clue in enumerate(phase.clues):
            clues[0, p, k] = clue_code(clue)
        for k, g in enumerate(phase.guesses):
            guesses[0, p, k] = g
        found[0, p] = phase.found or 0
    p = len(view.phases) - 1
    slot = len(view.phases[p].guesses)
    return Asked(rules, decision.kind, np.array([decision.seat]), np.array([view.card]),
                 np.array([ORDER_CODE[view.order]]), np.array([p]), np.array([slot]), clues, guesses, found,
                 np.array([view.first]), np.array([facts.mask_of(decision.legal)], np.int64))


# ----- the engine ----------------------------------------------------------------------------
def batch(rules: Rules, bots, n: int, seed, *, start: int = 0, stream: int = 0, chunk: int | None = None,
          threads: int | None = None) -> Batch:
    """Games start .. start + n - 1 of the seed, ``bots[s]`` at seat s (module docstring)."""
    parts = _run(rules, bots, n, seed, start, stream, chunk, threads)
    cat = lambda name: np.concatenate([getattr(p, name) for p in parts])  # noqa: E731
    found, made = cat("found"), (cat("guesses") >= 0).sum(axis=2)
    first = cat("first")
    rows = np.arange(len(first))
    by_side = np.zeros((len(first), 2), np.int64)  # the guesses side s took, 0: not found
    made_side = np.zeros((len(first), 2), np.int64)
    for p in (0, 1):
        side = first if p == 0 else 1 - first
        by_side[rows, side] = found[:, p]
        made_side[rows, side] = made[:, p]
    a = np.where(by_side[:, 0] > 0, by_side[:, 0], GUESSES + 1)
    b = np.where(by_side[:, 1] > 0, by_side[:, 1], GUESSES + 1)
    tie = np.where(a == b, 0.5, 0.0)
    scores = np.stack([np.where(a < b, 1.0, tie), np.where(b < a, 1.0, tie)], axis=1)
    columns = {f"found_{s}": by_side[:, k] for k, s in enumerate(SIDES)} | \
              {f"guesses_{s}": made_side[:, k] for k, s in enumerate(SIDES)} | {"power": cat("power") + 1}
    return Batch(scores, made.sum(axis=1), first, columns)


def batch_records(rules: Rules, bots, n: int, seed) -> list[dict]:
    """The first n games of `batch` (stream 0) as records."""
    return [records.to_record(g) for g in played(rules, bots, n, seed)]


def played(rules: Rules, bots, n: int, seed, *, stream: int = 0) -> list[Played]:
    """The first n games of `batch` as the reference engine's `Played` games."""
    return [part.game(i) for part in _run(rules, bots, n, seed, stream=stream) for i in range(len(part.first))]


@dataclass
class Games:
    """One chunk's games: the deals, and each phase's clue codes, guesses and finding guess."""

    rules: Rules
    cards: np.ndarray
    power: np.ndarray
    draw: np.ndarray
    first: np.ndarray
    order: np.ndarray
    clues: np.ndarray
    guesses: np.ndarray
    found: np.ndarray

    def game(self, i: int) -> Played:
        """Game i as the reference engine's `Played`."""
        order = ORDERS[int(self.order[i])]
        given = self.draw[i, 0] < 0  # the first guesser was given, not drawn
        draw = None if given else (int(self.draw[i, 0]), int(self.draw[i, 1]))
        deal = Deal((int(self.cards[i, 0]), int(self.cards[i, 1])), int(self.power[i]), draw,
                    int(self.first[i]) if given else None)
        phases = []
        for p in (0, 1):
            made = [int(g) for g in self.guesses[i, p] if g >= 0]
            given = [clue_of(order, k, int(c)) for k, c in enumerate(self.clues[i, p][: len(made)])]
            phases.append(Phase(int(self.first[i]) if p == 0 else 1 - int(self.first[i]), given, made,
                                int(self.found[i, p]) or None))
        return Played(self.rules, deal, order, phases)


def _run(rules: Rules, bots, n: int, seed, start: int = 0, stream: int = 0, chunk: int | None = None,
         threads: int | None = None) -> list[Games]:
    rules.validate()
    first, per, starts, blocks = chunks.plan(n, start, chunk, BLOCK, CHUNK, bots)
    checked_bots(bots)
    seed, starts = int_seed(seed), starts or [0]

    def one(b0: int) -> Games:
        parts = [_block(rules, bots, seed, first + b, min(BLOCK, n - b * BLOCK), stream)
                 for b in range(b0, min(b0 + per, blocks))]
        if not parts:
            parts = [_block(rules, bots, seed, first, 0, stream)]
        return Games(rules, *(np.concatenate([getattr(p, k) for p in parts]) for k in
                              ("cards", "power", "draw", "first", "order", "clues", "guesses", "found")))

    return chunks.run(one, starts, bots, threads)


def _block(rules: Rules, bots, seed: int, b: int, m: int, stream: int) -> Games:
    """Block b's first m games: its deals, the statehood draw deciding who guesses first."""
    def rng(*key: int) -> np.random.Generator:
        return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(b, *key)))

    cards, power, draw = (a[:m] for a in reference.deal_arrays(BLOCK, rng(0)))
    first = np.where(RANKS[draw[:, 0], STATEHOOD] < RANKS[draw[:, 1], STATEHOOD], 0, 1).astype(np.int64)
    return play_given(rules, bots, cards, power, first, [rng(1, stream, s) for s in SEATS], draw)


def play_given(rules: Rules, bots, cards: np.ndarray, power: np.ndarray, first: np.ndarray, rngs,
               draw: np.ndarray | None = None) -> Games:
    """Games of given deals, slot by slot: cards (m, 2), the Power card (m,) and the first
    guessing side (m,) given (a tournament's Border-Up winners), seat s's decisions drawn from
    ``rngs[s]``; ``draw`` (m, 2) only to be kept for the records (None: the first guesser was
    given, and the records say so)."""
    rules.validate()
    m = len(cards)
    cards, power, first = (np.asarray(a, np.int64) for a in (cards, power, first))
    order = np.full(m, ORDER_CODE[rules.clues], np.int64) if rules.clues else POWER_ORDER[power]
    nbr = np.array(facts.neighbours(rules.four_corners, rules.water), np.int64)
    clues = np.full((m, 2, GUESSES), UNSEEN, np.int64)
    guesses = np.full((m, 2, GUESSES), -1, np.int64)
    found = np.zeros((m, 2), np.int64)
    rows = np.arange(m)
    everyone = np.int64(facts.ALL)
    for p in (0, 1):
        guesser = first if p == 0 else 1 - first
        giver = 1 - guesser
        target, own = cards[rows, giver], cards[rows, guesser]
        limit = np.full(m, GUESSES) if p == 0 else np.where(found[:, 0] > 0, found[:, 0], GUESSES)
        live = np.ones(m, bool)
        named = np.zeros(m, np.int64)
        guessed = np.zeros(m, np.int64)
        for k in range(GUESSES):
            live &= k < limit
            kind, index = KIND[order, k], INDEX[order, k]
            code = np.full(m, NONE, np.int64)
            letters = live & (kind != 1)
            code[letters] = LETTER_CODES[kind[letters], index[letters], target[letters]]
            left = nbr[target] & ~named
            asks = live & (kind == 1) & (left != 0)
            for s in SEATS:
                at = np.flatnonzero(asks & (giver == s))
                if len(at):
                    t = _ask(bots[s], "clue", rules, s, at, cards, order, p, k, clues, guesses, found, first, left[at],
                             rngs[s])
                    code[at] = t
                    named[at] |= np.int64(1) << t
            clues[live, p, k] = code[live]
            legal = everyone if rules.futile_guesses else everyone & ~(np.int64(1) << own) & ~guessed
            legal = np.broadcast_to(legal, (m,))
            for s in SEATS:
                at = np.flatnonzero(live & (guesser == s))
                if len(at):
                    g = _ask(bots[s], "guess", rules, s, at, cards, order, p, k, clues, guesses, found, first,
                             legal[at], rngs[s])
                    guesses[at, p, k] = g
                    guessed[at] |= np.int64(1) << g
            right = live & (guesses[:, p, k] == target)
            found[right, p] = k + 1
            live &= ~right
    draw = np.full((m, 2), -1, np.int64) if draw is None else draw
    return Games(rules, cards, power, draw, first, order, clues, guesses, found)


def _ask(bot, kind: str, rules: Rules, seat: int, at: np.ndarray, cards, order, p: int, k: int, clues, guesses, found,
         first, legal: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Seat `seat`'s answers (cards) for games `at`, checked against `legal`: each of its bots
    (`geolab.lineup.members`) asked for its own games."""
    answer = np.empty(len(at), np.int64)
    for member, pos in members(bot, at):
        rows = at[pos]
        answer[pos] = _ask_one(member, Asked(rules, kind, np.full(len(rows), seat), cards[rows, seat], order[rows],
                                             np.full(len(rows), p), np.full(len(rows), k), clues[rows], guesses[rows],
                                             found[rows], first[rows], np.ascontiguousarray(legal[pos], np.int64)),
                               seat, p, k, rng)
    return answer


def _ask_one(bot, asked: Asked, seat: int, p: int, k: int, rng: np.random.Generator) -> np.ndarray:
    n, kind = len(asked), asked.kind
    with asking("state-iq", bot, f"{kind} of phase {p + 1}, slot {k + 1}"):
        answer = np.asarray(bot.act(asked, rng))
    if answer.shape != (n,) or answer.dtype.kind not in "iu":
        raise IllegalActionError(f"state-iq: bot {bot_name(bot)!r}, {kind} {k + 1}: expected {n} cards, got "
                                 f"{answer.dtype} {answer.shape}")
    answer = answer.astype(np.int64)
    ok = (answer >= 0) & (answer < N_CARDS)
    ok[ok] &= (asked.legal[ok] >> answer[ok] & 1) == 1
    if not ok.all():
        a = int(answer[np.flatnonzero(~ok)[0]])
        guesser = SIDES[1 - seat if kind == "clue" else seat]
        raise IllegalActionError(f"state-iq: bot {bot_name(bot)!r}, phase {p + 1} ({guesser} guesses), {kind} {k + 1}: "
                                 f"{POSTAL[a] if 0 <= a < N_CARDS else a} is not legal")
    return answer
