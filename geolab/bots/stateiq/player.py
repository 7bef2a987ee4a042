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
named, the order and the slot, which set every weight), computed for the batch by a compiled
loop, its answers remembered by the player, so a belief met before costs one look-up (the
engines mostly ask a few games at a time, where per-call cost is what counts). Only where no
state fits every clue (a guesser with gaps in its knowledge, whose belief then falls back to
the fewest contradictions) is a game's history read, and remembered the same way.
"""

from __future__ import annotations

import bisect
import math
from typing import NamedTuple

import numpy as np
from numba import njit

from geolab.bots.stateiq.equilibrium import Equilibria
from geolab.bots.stateiq.search import Guesser, HardGiver, phase_limit
from geolab.cards import N_CARDS
from geolab.game import BatchBot, Decision
from geolab.games.stateiq import clues as facts
from geolab.games.stateiq.batch import INDEX, KIND, LETTER, NONE, ORDERS, UNSEEN, Asked, asked_from, clue_of
from geolab.games.stateiq.clues import LETTERS
from geolab.games.stateiq.reference import GUESSES

CLUE_KINDS = ("equilibrium", "hard", "random")


class Weighted(NamedTuple):
    """Answers picked among with given chances (an equilibrium's mixed guess or border): the
    cards and their cumulative probabilities, the last 1."""

    cards: tuple[int, ...]
    cum: tuple[float, ...]

    def pick(self, u: float) -> int:
        return self.cards[min(bisect.bisect_right(self.cum, u), len(self.cards) - 1)]


class Player(BatchBot):
    """One State IQ player (module docstring)."""

    def __init__(self, rules, guesser: Guesser, clue: str, giver: HardGiver | None, guess: str | None = None,
                 equilibria: Equilibria | None = None):
        self.rules, self.guesser, self.clue, self.giver = rules, guesser, clue, giver
        #: how it guesses: ``equilibrium`` plays the solved phase's mixed guess (a guesser that
        #: knows every fact; one with gaps searches, as ``optimal``)
        self.guess = guess or guesser.guess
        self.equilibria = equilibria
        self.name = "player"
        self.tables = _Tables(guesser.know)  # what its guesser knows, as masks
        self.true = _Tables(giver.model.know) if giver is not None else None  # the hard clue-giver's model's
        #: by kind, the answers picked among for each `beliefs` row (8 columns) or, where no state
        #: fits, each history row (18): the same rows recur in every batch; a spec's copies share it
        self.answers: dict = {"guess": {}, "clue": {}, "mixed-guess": {}, "mixed-clue": {}}

    def act(self, asked: Asked, rng: np.random.Generator) -> np.ndarray:
        """A card for each game of `asked`: uniform among the answers this player picks among
        (the floor(u * count)-th, u one uniform a game), any legal card where it has none."""
        return _answer((self,), None, asked, rng)

    @staticmethod
    def together(players, which: np.ndarray) -> Players:
        """Players of a `geolab.lineup.Lineup` answering its games at once (`Players`)."""
        return Players(tuple(players), which)

    def options(self, asked: Asked) -> list:
        """For each game of `asked`, the answers it picks among (None: every legal one alike,
        a random clue-giver's)."""
        n = len(asked)
        if asked.kind == "clue" and self.clue == "random":
            return [None] * n
        if asked.kind == "clue" and self.clue == "equilibrium" or \
                asked.kind == "guess" and self.guess == "equilibrium" and self.guesser.know.perfect:
            options = self.mixed(asked)
            rest = [i for i, got in enumerate(options) if got is None]
            if rest and asked.kind == "guess":  # off the solved tree: the search's guesses
                for i, got in zip(rest, self.searched(asked.take(np.array(rest)))):
                    options[i] = got
            return options
        return self.searched(asked)

    def searched(self, asked: Asked) -> list:
        """`options` by the search (guesses) or the hard clue-giver, from each game's belief."""
        tables = self.tables if asked.kind == "guess" else self.true
        fast = beliefs(self.rules, asked, tables.fit, tables.nbr)
        memo, kind = self.answers[asked.kind], asked.kind

        def remembered(row: list[int], make) -> tuple[int, ...]:
            key = tuple(row)
            got = memo.get(key)
            if got is None:
                got = memo[key] = make(kind, row)
            return got

        rows = fast.tolist()
        slow = [i for i, row in enumerate(rows) if row[0] == 0]  # no state fits every clue: read the history
        options = [None if row[0] == 0 else remembered(row, self.from_belief) for row in rows]
        if slow:
            for i, row in zip(slow, _history(asked, slow).tolist()):
                options[i] = remembered(row, self.from_history)
        return options

    def mixed(self, asked: Asked) -> list:
        """For each game of `asked`, the equilibrium's mixed answer (`Weighted`), None where
        the game is off the solved tree (a guess the model never makes) or nothing is left.

        A guesser leaves out what it knows the card is not (its own card; in the second phase
        the other team's guesses), the model's guesser, which knows neither, may not."""
        guess = asked.kind == "guess"
        memo, out = self.answers["mixed-" + asked.kind], []
        clues, guesses, found = asked.clues.tolist(), asked.guesses.tolist(), asked.found.tolist()
        for i in range(len(asked)):
            p, k, card = int(asked.phase[i]), int(asked.slot[i]), int(asked.card[i])
            first = (found[i][0] or None) if p == 1 else None
            codes = tuple(clues[i][p][:k + 1 if guess else k])
            made = tuple(guesses[i][p][:k])
            if guess:
                out_of = 1 << card
                if p == 1 and not self.rules.futile_guesses:
                    out_of |= facts.mask_of(g for g in guesses[i][0] if g >= 0)
            else:
                out_of = card
            key = (int(asked.order[i]), p, first, codes, made, out_of)
            got = memo.get(key, False)
            if got is False:
                got = memo[key] = self._mixed(ORDERS[key[0]], p, first, codes, made, out_of, guess)
            out.append(got)
        return out

    def _mixed(self, order: str, phase: int, first: int | None, codes: tuple, made: tuple, out_of: int,
               guess: bool) -> Weighted | None:
        solution = self.equilibria.solution(order, phase, first)
        got = solution.guess.get((codes, made)) if guess else solution.clue.get((out_of, codes, made))
        if got is None:
            return None
        pairs = [(c, p) for c, p in zip(*got) if not (guess and out_of >> c & 1)]
        total = sum(p for _, p in pairs)
        if total <= 1e-9:
            return None
        cum = np.cumsum([p / total for _, p in pairs]).tolist()
        cum[-1] = 1.0
        return Weighted(tuple(c for c, _ in pairs), tuple(cum))

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


class Players(BatchBot):
    """Several players answering their games in one call, game i as ``players[which[i]]``
    would from one uniform a game drawn for all of them at once: what a lineup of players
    (`geolab.lineup.members`) is asked as, so a seat's decisions are one call, not one a spec."""

    def __init__(self, players: tuple, which: np.ndarray):
        self.players, self.which = players, which
        self.name = "players(" + " | ".join(p.name for p in players) + ")"

    def act(self, asked: Asked, rng: np.random.Generator) -> np.ndarray:
        return _answer(self.players, self.which, asked, rng)


def _answer(players, which: np.ndarray | None, asked: Asked, rng: np.random.Generator) -> np.ndarray:
    """Each game's answer (`Player.act`) by its player, ``players[which[i]]`` (None: one
    player, every game its own)."""
    n = len(asked)
    u = rng.random(n)
    legal = np.asarray(asked.legal, np.int64)
    if len(players) == 1:
        options = players[0].options(asked)
    else:
        options = [None] * n
        for k, player in enumerate(players):
            at = np.flatnonzero(which == k)
            if len(at):
                for i, got in zip(at.tolist(), player.options(asked.take(at))):
                    options[i] = got
    out = np.zeros(n, np.int64)
    bad = []
    for i, (got, x, mask) in enumerate(zip(options, u.tolist(), legal.tolist())):
        if isinstance(got, Weighted):
            a = got.pick(x)
        else:
            count = 0 if got is None else len(got)
            a = got[min(int(x * count), count - 1)] if count else -1
        if a < 0 or not mask >> a & 1:  # a random clue-giver, or nothing it believes possible: any legal answer
            bad.append(i)
        else:
            out[i] = a
    if bad:
        out[bad] = _nth_bits(legal[bad], u[bad])
    return out


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
    the guesser's card, except the one it found.

    A compiled loop over the games: the batches asked are mostly a few games, where numpy's
    per-call cost would be most of the time."""
    out = np.empty((len(asked), 8), np.int64)
    i64 = lambda a: np.asarray(a, np.int64)  # noqa: E731
    _beliefs(i64(asked.card), i64(asked.order), i64(asked.phase), i64(asked.slot), i64(asked.clues),
             i64(asked.guesses), i64(asked.found), fit_table, nbr, KIND, INDEX, _FUTURE_B, asked.kind == "guess",
             bool(rules.futile_guesses), out)
    return out


@njit(cache=True, nogil=True)
def _beliefs(card, order, phase, slot, clues, guesses, found, fit_table, nbr, kinds, indices, future_b, guess, futile,
             out):
    """`beliefs`, one game a row, into out (n, 8)."""
    for i in range(card.shape[0]):
        p, k, o = phase[i], slot[i], order[i]
        support = facts.ALL
        if guess:
            support &= ~(1 << card[i])
        for j in range(GUESSES):
            made, earlier = guesses[i, p, j], guesses[i, 0, j]
            if made >= 0 and j < k:
                support &= ~(1 << made)
            if not futile:
                if p == 1 and earlier >= 0:
                    support &= ~(1 << earlier)
            elif not guess and p == 1 and found[i, 0] == j + 1:  # the card it found, whatever else it guessed
                support &= ~(1 << max(earlier, 0))
        named, m = 0, 0
        for j in range(GUESSES):
            if not (j <= k if guess else j < k):
                continue
            kind, code = kinds[o, j], clues[i, p, j]
            if kind != 1:
                if code >= LETTER:
                    support &= fit_table[kind, indices[o, j], code - LETTER]
            elif 0 <= code < N_CARDS:
                support &= nbr[code]
                named |= 1 << code
                m += 1
            elif code == NONE:  # no more border states: those whose known borders are all named
                done = 0
                for c in range(N_CARDS):
                    if nbr[c] & ~named == 0:
                        done |= 1 << c
                support &= done
        first = found[i, 0] if p == 1 else 0
        # a guess at slot k needs the named borders if a border clue comes after it; a clue at
        # slot k names one itself, so it always does
        if guess and not future_b[o, k, first if first > 0 else GUESSES]:
            named = 0
        out[i, 0], out[i, 1], out[i, 2], out[i, 3] = support, m, k, o
        out[i, 4], out[i, 5], out[i, 6], out[i, 7] = p, first, named, 0 if guess else card[i]


def _history(asked: Asked, at: list[int]) -> np.ndarray:
    """Games `at`'s histories as rows: own card, order, phase, slot, clue and guess codes,
    finding guesses (`Player.from_history`)."""
    m = len(at)
    return np.column_stack([asked.card[at], asked.order[at], asked.phase[at], asked.slot[at],
                            asked.clues[at].reshape(m, -1), asked.guesses[at].reshape(m, -1), asked.found[at]]
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


@njit(cache=True, nogil=True)
def _nth_bits(masks: np.ndarray, u: np.ndarray) -> np.ndarray:
    """For each mask, one of its set bits, the floor(u * count)-th from the lowest (bit 0 for
    an empty mask)."""
    out = np.zeros(masks.shape[0], np.int64)
    for i in range(masks.shape[0]):
        count = 0
        for c in range(64):
            count += (masks[i] >> c) & 1
        want = min(np.int64(u[i] * count), count - 1)
        for c in range(64):
            want -= (masks[i] >> c) & 1
            if want < 0:
                out[i] = c
                break
    return out


class PlayerSeat:
    """A player at the reference engine (`geolab.game.Seat`): each decision asked as a batch of
    one game, from the seat's own observation."""

    def __init__(self, bot: Player, rules, rng: np.random.Generator):
        self.bot, self.rules, self.rng = bot, rules, rng
        self.name = bot.name or "player"

    def act(self, decision: Decision) -> int:
        return int(self.bot.act(asked_from(self.rules, decision), self.rng)[0])
