"""A State IQ player: a guesser and a clue-giver in one spec
(``player:guess=optimal,clue=hard,borders=0.8,seed=3``).

Both engines ask it through one call, ``act(asked, rng)`` on a batch of decisions
(`geolab.games.stateiq.batch.Asked`): it finds, for each game, the answers it picks among
(`Guesser.options`, `HardGiver.options`, or every legal border for a random clue-giver) and
draws one uniformly. What it leaves out of its guesses' prior: its own card, and in the second
phase the other team's guesses of the first (a team never guesses its own state, unless the
rules allow futile guesses).

Games that share what decides the answer are answered once: that is the belief itself
(`beliefs`: the states that fit every clue by the player's facts, as a mask, with the borders
named, the order and the slot, which set every weight), computed for the whole batch with
masks. Only where no state fits every clue (a guesser with gaps in its knowledge, whose belief
then falls back to the fewest contradictions) is a game's history read, one distinct history
at a time.
"""

from __future__ import annotations

import math

import numpy as np

from geolab.bots.stateiq.search import Guesser, HardGiver, phase_limit
from geolab.cards import N_CARDS
from geolab.game import Decision
from geolab.games.stateiq import clues as facts
from geolab.games.stateiq.batch import INDEX, KIND, LETTER, NONE, ORDERS, UNSEEN, Asked, asked_from, clue_of
from geolab.games.stateiq.clues import LETTERS
from geolab.games.stateiq.reference import GUESSES

CLUE_KINDS = ("hard", "random")


class Player:
    """One State IQ player (module docstring)."""

    def __init__(self, rules, guesser: Guesser, clue: str, giver: HardGiver | None):
        self.rules, self.guesser, self.clue, self.giver = rules, guesser, clue, giver
        self.name = "player"
        self.tables = _Tables(guesser.know)  # what its guesser knows, as masks
        self.true = _Tables(giver.model.know) if giver is not None else None  # the hard clue-giver's model's

    def act(self, asked: Asked, rng: np.random.Generator) -> np.ndarray:
        """A card for each game of `asked`: uniform among the answers this player picks among."""
        n = len(asked)
        u = rng.random(n)
        if asked.kind == "clue" and self.clue == "random":
            return _nth_bits(asked.legal, u)
        guess = asked.kind == "guess"
        tables = self.tables if guess else self.true
        fast = beliefs(self.rules, asked, tables.fit, tables.nbr)
        slow = fast[:, 0] == 0  # no state fits every clue (a guesser with gaps): read the history
        out = np.zeros(n, np.int64)
        counts = np.zeros(n, np.int64)
        history = np.column_stack([asked.card, asked.order, asked.phase, asked.slot, asked.clues.reshape(n, -1),
                                   asked.guesses.reshape(n, -1), asked.found]).astype(np.int64)
        for where, columns, choose in ((~slow, fast, self.from_belief), (slow, history, self.from_history)):
            at = np.flatnonzero(where)
            if not len(at):
                continue
            rows, inverse = np.unique(columns[at], axis=0, return_inverse=True)
            inverse = inverse.reshape(-1)
            options = np.zeros((len(rows), 64), np.int64)
            count = np.zeros(len(rows), np.int64)
            for r, row in enumerate(rows):
                got = choose(asked.kind, [int(x) for x in row])
                options[r, :len(got)] = got
                count[r] = len(got)
            counts[at] = count[inverse]
            out[at] = options[inverse, np.minimum((u[at] * count[inverse]).astype(np.int64), count[inverse] - 1)]
        legal = (asked.legal >> out & 1) == 1
        bad = (counts == 0) | ~legal  # nothing it believes possible: any legal answer
        out[bad] = _nth_bits(asked.legal[bad], u[bad])
        return out

    def from_belief(self, kind: str, row: list[int]) -> tuple[int, ...]:
        """The answers picked among, from a row of `beliefs` (the states that fit every clue)."""
        support, m, k, order, phase, found, named, card = row
        first = found or None
        plan, limit = facts.program(ORDERS[order]), phase_limit(phase, first)
        if kind == "guess":
            belief = self.tables.belief(support, m, plan[:k + 1])
            return self.guesser.pick(belief, k, plan, named, limit, self.guesser.costs(phase, first))
        belief = self.true.belief(support, m, plan[:k])
        return self.giver.options_from(card, belief, k, plan, named, limit, self.giver.model.costs(phase, first))

    def from_history(self, kind: str, row: list[int]) -> tuple[int, ...]:
        """The guesses picked among, from a game's history (a guesser with gaps in its knowledge,
        when no state fits every clue)."""
        card, order, phase, slot = row[:4]
        clue_codes = np.array(row[4:4 + 2 * GUESSES]).reshape(2, GUESSES)
        guess_codes = np.array(row[4 + 2 * GUESSES:4 + 4 * GUESSES]).reshape(2, GUESSES)
        first = row[4 + 4 * GUESSES] or None
        name = ORDERS[order]
        clues = tuple(clue_of(name, k, int(clue_codes[phase, k])) for k in range(slot + 1)
                      if clue_codes[phase, k] != UNSEEN)
        guessed = tuple(int(g) for g in guess_codes[phase, :slot])
        prior = facts.ALL & ~(1 << card)
        if phase == 1 and not self.rules.futile_guesses:
            prior &= ~facts.mask_of(g for g in guess_codes[0] if g >= 0)
        return self.guesser.options(prior, facts.program(name), clues, guessed, phase_limit(phase, first),
                                    self.guesser.costs(phase, first))


def beliefs(rules, asked: Asked, fit_table: np.ndarray, nbr: np.ndarray) -> np.ndarray:
    """The batch's beliefs, as columns that decide the answer: the states that fit every clue
    by these facts (a mask: `fit_table` gives each letter's, `nbr` each state's known borders;
    0 where none does), the borders named (how many, and which where a border clue is still to
    come), the slot, the order, the phase, the first phase's finding guess (second phase), and
    for a clue the clue-giver's card. Given the order and the slot, they set every weight
    (`_Tables.belief`).

    A guesser's belief is the states that fit every clue given, but its own card, its guesses
    and (second phase) the other team's first-phase guesses. The hard clue-giver's model
    guesser, before the clue now asked, holds the states that fit the clues so far but the
    guesses made, and (second phase) the clue-giver's own first-phase guesses: it does not know
    the guesser's card, except the one it found."""
    n = len(asked)
    rows = np.arange(n)
    p, k = asked.phase, asked.slot
    guess = asked.kind == "guess"
    one = np.int64(1)
    support = np.full(n, facts.ALL, np.int64)
    if guess:
        support &= ~(one << asked.card)
    made = asked.guesses[rows, p]
    earlier = asked.guesses[:, 0]
    for j in range(GUESSES):
        support &= ~np.where((made[:, j] >= 0) & (j < k), one << np.maximum(made[:, j], 0), 0)
        if not rules.futile_guesses:
            support &= ~np.where((p == 1) & (earlier[:, j] >= 0), one << np.maximum(earlier[:, j], 0), 0)
        elif not guess:  # the card it found, whatever else it guessed
            found = (p == 1) & (asked.found[:, 0] == j + 1)
            support &= ~np.where(found, one << np.maximum(earlier[:, j], 0), 0)
    codes = asked.clues[rows, p]
    named = np.zeros(n, np.int64)
    m = np.zeros(n, np.int64)
    for j in range(GUESSES):
        given = j <= k if guess else j < k
        kind, index, code = KIND[asked.order, j], INDEX[asked.order, j], codes[:, j]
        fit = np.full(n, facts.ALL, np.int64)
        letter = given & (kind != 1) & (code >= LETTER)
        fit[letter] = fit_table[kind[letter], index[letter], code[letter] - LETTER]
        border = given & (kind == 1) & (code >= 0) & (code < N_CARDS)
        fit[border] = nbr[code[border]]
        nomore = given & (kind == 1) & (code == NONE)
        if nomore.any():
            done = (nbr[None, :] & ~named[nomore, None]) == 0
            fit[nomore] = (done * (one << np.arange(N_CARDS, dtype=np.int64))).sum(axis=1)
        support &= fit
        named |= np.where(border, one << np.where(border, code, 0), 0)
        m += border
    limit = np.where(p == 0, GUESSES, np.where(asked.found[:, 0] > 0, asked.found[:, 0], GUESSES))
    # a guess at slot k needs the named borders if a border clue comes after it; a clue at slot k
    # names one itself, so it always does
    future = _FUTURE_B[asked.order, k, limit] if guess else np.ones(n, np.int64)
    card = np.zeros(n, np.int64) if guess else asked.card
    return np.column_stack([support, m, k, asked.order, p, asked.found[:, 0] * (p == 1), named * future, card]
                           ).astype(np.int64)


class _Tables:
    """One guesser's facts as masks and weights: each letter's fitting states (those it knows
    give it, and those whose letter it cannot read), each state's known borders, and a belief's
    weights from its states, the borders named and the clues given."""

    def __init__(self, know):
        self.know = know
        self.fit = np.zeros((3, GUESSES, len(LETTERS)), np.int64)
        for kind_i, kind in ((0, "A"), (2, "C")):
            for index in range(GUESSES):
                for c in range(N_CARDS):
                    if not know.knows(c, kind, index):
                        self.fit[kind_i, index, :] |= 1 << c
                    elif facts.letter(c, kind, index) is not None:
                        self.fit[kind_i, index, LETTERS.index(facts.letter(c, kind, index))] |= 1 << c
        self.nbr = np.array(know.neighbours, np.int64)
        scale = know.border_scale
        degrees = [bin(m).count("1") for m in know.neighbours]
        #: each card's border weight once m borders are named (m = 0-3): scale**m over
        #: d (d - 1) ... (d - m + 1), d its known border count (0 where it cannot be)
        self.borders = tuple(tuple(scale ** m // math.prod(range(d - m + 1, d + 1)) if d >= m else 0
                                   for m in range(GUESSES + 1)) for d in degrees)
        self.memo: dict = {}

    def belief(self, support: int, m: int, given) -> tuple[tuple[int, int], ...]:
        """The weights of the states of `support` after the clue slots `given` (kind, index),
        m of them borders named: each letter it reads weighs the slot's scale, one it cannot
        1 (its 1/26), each border the share of its borders still unnamed."""
        key = (support, m, tuple(given))
        hit = self.memo.get(key)
        if hit is None:
            know = self.know
            letters = [(kind, index, know.scale(kind, index)) for kind, index in given if kind != "B"]
            out = []
            for c in facts.cards_of(support):
                w = self.borders[c][m]
                for kind, index, d in letters:
                    w *= d if know.knows(c, kind, index) else d // 26
                out.append((c, w))
            hit = self.memo[key] = tuple(out)
        return hit


def _tables():
    """Whether a border clue comes after slot k within a phase of `limit` guesses, by order."""
    future = np.zeros((len(ORDERS), GUESSES, GUESSES + 1), np.int64)
    for o, order in enumerate(ORDERS):
        for k in range(GUESSES):
            for limit in range(GUESSES + 1):
                future[o, k, limit] = int("B" in order[k + 1:limit])
    return future


_FUTURE_B = _tables()


def _nth_bits(masks: np.ndarray, u: np.ndarray) -> np.ndarray:
    """For each mask, one of its set bits, the floor(u * count)-th from the lowest."""
    bits = (masks[:, None] >> np.arange(64)) & 1
    count = bits.sum(axis=1)
    want = np.minimum((u * count).astype(np.int64), count - 1)
    return np.argmax(np.cumsum(bits, axis=1) > want[:, None], axis=1).astype(np.int64)


class PlayerSeat:
    """A player at the reference engine (`geolab.game.Seat`): each decision asked as a batch of
    one game, from the seat's own observation."""

    def __init__(self, bot: Player, rules, rng: np.random.Generator):
        self.bot, self.rules, self.rng = bot, rules, rng
        self.name = getattr(bot, "name", "player")

    def act(self, decision: Decision) -> int:
        return int(self.bot.act(asked_from(self.rules, decision), self.rng)[0])
