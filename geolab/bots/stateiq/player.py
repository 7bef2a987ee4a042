"""A State IQ player: a guesser and a clue-giver in one spec
(``player:guess=optimal,clue=hard,borders=0.8,seed=3``).

Both engines ask it through one call, ``act(asked, rng)`` on a batch of decisions
(`geolab.games.stateiq.batch.Asked`): it reads each game's history (the games of a batch that
share one are answered once), finds the answers it picks among (`Guesser.options`,
`HardGiver.options`, or every legal border for a random clue-giver) and draws one uniformly
for each game. What it leaves out of its guesses' prior: its own card, and in the second
phase the other team's guesses of the first (a team never guesses its own state, unless the
rules allow futile guesses).
"""

from __future__ import annotations

import numpy as np

from geolab.bots.stateiq.search import Guesser, HardGiver, phase_limit
from geolab.game import Decision
from geolab.games.stateiq import clues as facts
from geolab.games.stateiq.batch import ORDERS, UNSEEN, Asked, asked_from, clue_of
from geolab.games.stateiq.reference import GUESSES

CLUE_KINDS = ("hard", "random")


class Player:
    """One State IQ player (module docstring)."""

    def __init__(self, rules, guesser: Guesser, clue: str, giver: HardGiver | None):
        self.rules, self.guesser, self.clue, self.giver = rules, guesser, clue, giver
        self.name = "player"

    def act(self, asked: Asked, rng: np.random.Generator) -> np.ndarray:
        """A card for each game of `asked`: uniform among the answers this player picks among."""
        n = len(asked)
        u = rng.random(n)
        if asked.kind == "clue" and self.clue == "random":
            return _nth_bits(asked.legal, u)
        columns = np.column_stack([asked.card, asked.order, asked.phase, asked.slot, asked.clues.reshape(n, -1),
                                   asked.guesses.reshape(n, -1), asked.found, asked.legal]).astype(np.int64)
        rows, inverse = np.unique(columns, axis=0, return_inverse=True)
        inverse = inverse.reshape(-1)
        options = np.zeros((len(rows), 64), np.int64)
        counts = np.zeros(len(rows), np.int64)
        for r, row in enumerate(rows):
            got = self.choices(asked.kind, row)
            options[r, :len(got)] = got
            counts[r] = len(got)
        pick = np.minimum((u * counts[inverse]).astype(np.int64), counts[inverse] - 1)
        return options[inverse, pick]

    def choices(self, kind: str, row: np.ndarray) -> tuple[int, ...]:
        """The answers picked among for one game, from its row of `act`'s columns."""
        card, order, phase, slot = (int(x) for x in row[:4])
        clue_codes = row[4:4 + 2 * GUESSES].reshape(2, GUESSES)
        guess_codes = row[4 + 2 * GUESSES:4 + 4 * GUESSES].reshape(2, GUESSES)
        found = row[4 + 4 * GUESSES:6 + 4 * GUESSES]
        legal = int(row[-1])
        name = ORDERS[order]
        plan = facts.program(name)
        first_found = int(found[0]) or None
        limit = phase_limit(phase, first_found)
        given = slot + 1 if kind == "guess" else slot
        clues = tuple(clue_of(name, k, int(clue_codes[phase, k])) for k in range(given) if clue_codes[phase, k] != UNSEEN)
        guessed = tuple(int(g) for g in guess_codes[phase, :slot])
        earlier = tuple(int(g) for g in guess_codes[0]) if phase == 1 else ()
        earlier = tuple(g for g in earlier if g >= 0)
        futile = self.rules.futile_guesses
        if kind == "guess":
            prior = facts.ALL & ~(1 << card)
            if not futile:
                prior &= ~facts.mask_of(earlier)
            got = self.guesser.options(prior, plan, clues, guessed, limit, self.guesser.costs(phase, first_found))
            got = tuple(c for c in got if legal >> c & 1)
        else:
            prior = facts.ALL
            if phase == 1:
                if not futile:
                    prior &= ~facts.mask_of(earlier)
                if first_found is not None:  # it found the guesser's card in the first phase
                    prior &= ~(1 << earlier[first_found - 1])
            model = self.giver.model
            got = self.giver.options(card, plan, clues, guessed, prior, limit, model.costs(phase, first_found))
            got = tuple(t for t in got if legal >> t & 1)
        return got or facts.cards_of(legal)


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
