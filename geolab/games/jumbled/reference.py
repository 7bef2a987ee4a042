"""Jumbled GeoPower Choice: the small rulings both engines share, and the **reference
engine** (one game, step by step, as the rule text reads; the specification the batch engine
is tested against), with its deals (`Deal`: every round's cards, fixed by a seed) and what a
seat sees when it decides (`View`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations

import numpy as np

from geolab.cards import N_CARDS, POSTAL, RANKS
from geolab.errors import IllegalActionError
from geolab.games.jumbled.rules import BOTTOMS_UP, CALLS, SEAT_LETTERS, TOP_DOG, Rules


# --------------------------------------------------------------------------------------------
# Shared small rulings (plain Python, used by both engines' callers and by bots)
# --------------------------------------------------------------------------------------------


def cards_range(rules: Rules, set_index: int, played: int) -> tuple[int, int]:
    """How many cards a player may lay on this set so the round can still be completed."""
    after = rules.sets_per_round - set_index - 1
    left = rules.cards_to_play - played
    return (max(rules.min_cards_per_set, left - after * rules.max_cards_per_set),
            min(rules.max_cards_per_set, left - after * rules.min_cards_per_set))


def category_probs(rules: Rules, turned: np.ndarray, set_index: int) -> np.ndarray:
    """(G, 3) chance of each category for the card about to be turned, from public facts.

    The deck composition is public and the order is a fresh shuffle, so the next card is
    uniform over the cards not yet turned this cycle; once a reused deck comes round again
    the card is already known.
    """
    turned = np.asarray(turned).reshape(-1, rules.sets_per_round)
    counts = np.broadcast_to(np.array(rules.geopower_deck, float), (len(turned), 3)).copy()
    D = rules.deck_size
    if rules.used_to_bottom and set_index >= D:
        known = turned[:, set_index - D]
        out = np.zeros_like(counts)
        out[np.arange(len(turned)), known] = 1.0
        return out
    for s in range(set_index):
        np.subtract.at(counts, (np.arange(len(turned)), turned[:, s]), 1.0)
    return counts / counts.sum(axis=1, keepdims=True)


def _winners(rules: Rules, totals: list[int], call: int) -> list[int]:
    """Seats winning a set: the strictly best total, or the tied best under 'all-tied'."""
    best = min(totals) if call == TOP_DOG else max(totals)
    tied = [i for i, t in enumerate(totals) if t == best]
    return tied if len(tied) == 1 or rules.set_tie == "all-tied" else []


def round_points(rules: Rules, sets_won: int) -> int:
    return sets_won * rules.points_per_set + rules.bonus[sets_won]


# --------------------------------------------------------------------------------------------
# Reference engine: one game, step by step, as the rule text reads
# --------------------------------------------------------------------------------------------


class GeoPowerDeck:
    """The shuffled GeoPower deck of one round: turn the top card, then it goes to the bottom."""

    def __init__(self, rules: Rules, order: list[int]):
        self.cards, self.reuse = list(order), rules.used_to_bottom

    def turn(self) -> int:
        top = self.cards.pop(0)
        if self.reuse:
            self.cards.append(top)
        return top


@dataclass
class SetResult:
    category: int
    plays: list[tuple[int, ...]]
    totals: list[int]
    winners: list[int]


class Round:
    """One round after the call and the deal; `play_set` takes every seat's choice at once."""

    def __init__(self, rules: Rules, call: int, hands: list[list[int]], geopower: list[int]):
        self.rules, self.call = rules, call
        self.hands = [list(h) for h in hands]
        self.left = [list(h) for h in hands]
        self.deck = GeoPowerDeck(rules, geopower)
        self.sets: list[SetResult] = []

    @property
    def done(self) -> bool:
        return len(self.sets) == self.rules.sets_per_round

    def legal(self, seat: int) -> list[tuple[int, ...]]:
        played = len(self.hands[seat]) - len(self.left[seat])
        lo, hi = cards_range(self.rules, len(self.sets), played)
        return [c for k in range(lo, hi + 1) for c in combinations(self.left[seat], k)]

    def check(self, seat: int, cards: tuple[int, ...]) -> None:
        """Raise `IllegalActionError` unless `cards` is a legal choice for `seat` now."""
        where = f"set {len(self.sets) + 1}: {SEAT_LETTERS[seat]}"
        if self.done:
            raise IllegalActionError(f"{where} played after the round ended")
        for c in cards:
            if c not in self.left[seat]:
                held = "already played" if c in self.hands[seat] else "not in the hand"
                raise IllegalActionError(f"{where} played {POSTAL[c]}, which is {held}")
        if len(set(cards)) != len(cards):
            raise IllegalActionError(f"{where} played the same card twice")
        played = len(self.hands[seat]) - len(self.left[seat])
        lo, hi = cards_range(self.rules, len(self.sets), played)
        if not lo <= len(cards) <= hi:
            raise IllegalActionError(
                f"{where} played {len(cards)} cards; {lo}-{hi} are allowed here so that exactly "
                f"{self.rules.cards_to_play} are played in the round"
            )

    def play_set(self, choices: list[tuple[int, ...]]) -> SetResult:
        """All seats lay their cards face down, then the GeoPower card is turned."""
        if len(choices) != self.rules.players:
            raise IllegalActionError(f"set {len(self.sets) + 1}: {len(choices)} choices for {self.rules.players} seats")
        for seat, cards in enumerate(choices):
            self.check(seat, tuple(cards))
        for seat, cards in enumerate(choices):
            for c in cards:
                self.left[seat].remove(c)
        cat = self.deck.turn()
        totals = [int(sum(int(RANKS[c, cat]) for c in cards)) for cards in choices]
        result = SetResult(cat, [tuple(c) for c in choices], totals, _winners(self.rules, totals, self.call))
        self.sets.append(result)
        return result

    def points(self) -> list[int]:
        won = [sum(seat in s.winners for s in self.sets) for seat in range(self.rules.players)]
        return [round_points(self.rules, w) for w in won]


class Game:
    """The race to the target: rounds with a rotating dealer until one team is ahead on it."""

    def __init__(self, rules: Rules):
        self.rules = rules.validate()
        self.scores = [0] * rules.players
        self.rounds: list[Round] = []
        self.winner: int | None = None  # a team, or -1 for a draw
        self.dealer = 0

    @property
    def over(self) -> bool:
        return self.winner is not None

    def team_scores(self) -> list[int]:
        out = [0] * self.rules.n_teams
        for seat, s in enumerate(self.scores):
            out[self.rules.team_of[seat]] += s
        return out

    def start_round(self, call: int, hands: list[list[int]], geopower: list[int]) -> Round:
        if self.over:
            raise IllegalActionError("the game is over")
        if call not in (TOP_DOG, BOTTOMS_UP) or CALLS[call] not in self.rules.calls:
            raise IllegalActionError(f"round {len(self.rounds) + 1}: call {call!r} is not allowed")
        self.rounds.append(Round(self.rules, call, hands, geopower))
        return self.rounds[-1]

    def end_round(self) -> None:
        """Score the finished round, decide whether the race is over, pass the deal left."""
        rnd = self.rounds[-1]
        for seat, p in enumerate(rnd.points()):
            self.scores[seat] += p
        teams = self.team_scores()
        top = max(teams)
        if top >= self.rules.target:
            leaders = [t for t, s in enumerate(teams) if s == top]
            if len(leaders) == 1:
                self.winner = leaders[0]
            elif self.rules.final_tie == "draw":
                self.winner = -1
        if self.winner is None and len(self.rounds) >= self.rules.max_rounds:
            self.winner = -1
        self.dealer = (self.dealer + 1) % self.rules.players


# --------------------------------------------------------------------------------------------
# Deals and views for the reference engine
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RoundDeal:
    """One round's chance: each seat's hand (cards in the order dealt) and the shuffled
    GeoPower deck (categories, top first)."""

    hands: tuple[tuple[int, ...], ...]
    geopower: tuple[int, ...]


def deal_round(rules: Rules, rng: np.random.Generator) -> RoundDeal:
    """A fresh round: both decks shuffled, `cards_dealt` cards to every seat."""
    P, H = rules.players, rules.cards_dealt
    cards = rng.permutation(N_CARDS)[: P * H]
    deck = [c for c, k in enumerate(rules.geopower_deck) for _ in range(k)]
    order = rng.permutation(len(deck))
    return RoundDeal(tuple(tuple(int(c) for c in cards[p * H:(p + 1) * H]) for p in range(P)),
                     tuple(int(deck[i]) for i in order))


@dataclass(frozen=True)
class Deal:
    """Everything chance decides in a whole game: round r is ``fixed[r]`` when given, else
    dealt by `deal_round` from ``SeedSequence(seed, spawn_key=(r,))``, so a deal is a small,
    exact value however many rounds the game lasts."""

    seed: int
    fixed: tuple[RoundDeal, ...] = ()

    def round(self, rules: Rules, r: int) -> RoundDeal:
        if r < len(self.fixed):
            return self.fixed[r]
        return deal_round(rules, np.random.default_rng(np.random.SeedSequence(self.seed, spawn_key=(r,))))


@dataclass(frozen=True)
class SetSeen:
    """A finished set as everybody saw it: the GeoPower category, every seat's cards, the
    seats that won it."""

    category: int
    plays: tuple[tuple[int, ...], ...]
    winners: tuple[int, ...]


@dataclass(frozen=True)
class View:
    """What one seat knows when it decides (reference engine): the rules, its seat, the round
    (dealer, the call: None while the dealer is still to call), the scores before this round,
    its hand as dealt (empty before the deal) and the cards it still holds, this round's
    finished sets, and every earlier round's call and sets (``history``: (dealer, call, sets)
    per round). Others' unplayed cards and the GeoPower cards still to come are not here."""

    rules: Rules
    seat: int
    round_index: int
    dealer: int
    call: str | None
    scores: tuple[int, ...]
    set_index: int = 0
    hand: tuple[int, ...] = ()
    left: tuple[int, ...] = ()
    sets: tuple[SetSeen, ...] = ()
    history: tuple[tuple[int, str, tuple[SetSeen, ...]], ...] = field(default=())

    def probs(self) -> np.ndarray:
        """(3,) the chance of each category on the card about to be turned."""
        turned = np.full((1, self.rules.sets_per_round), -1, np.int64)
        turned[0, : len(self.sets)] = [x.category for x in self.sets]
        return category_probs(self.rules, turned, self.set_index)[0]


def seen_sets(rnd: Round) -> tuple[SetSeen, ...]:
    return tuple(SetSeen(x.category, tuple(tuple(p) for p in x.plays), tuple(x.winners)) for x in rnd.sets)
