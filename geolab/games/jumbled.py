"""Jumbled GeoPower Choice: rules, reference engine, batch engine, observations, records.

Each round the dealer calls Top Dog (lower total wins a set) or Bottoms Up (higher wins), deals
6 cards to every player, and 3 sets follow: all players lay 1 or 2 cards face down at once,
then the top GeoPower card names the category that ranks them. Every decision this module
rules on is written up in ``docs/rules-jumbled.md``; records in ``docs/records-jumbled.md``.

Machine-facing vocabulary: a card is 0..49 (``geolab.cards``), a category 0..2, a call 0
(Top Dog) or 1 (Bottoms Up), and a set choice is a bitmask over the slots of the player's hand
(bit i = the i-th card dealt), so a whole batch of choices is one integer array.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from itertools import combinations

import numba
import numpy as np

from geolab.cards import CATEGORIES, N_CARDS, POSTAL, RANKS, card, category
from geolab.errors import IllegalActionError, RecordError, RulesError
from geolab.games.counter_rng import LOW32, below32, draw64, game_stream

GAME = "jumbled-geopower-choice"
TOP_DOG, BOTTOMS_UP = 0, 1
CALLS = ("top-dog", "bottoms-up")
SEAT_LETTERS = "ABCDEFGH"
MAX_SLOTS = 16  # a set choice is a uint16 slot mask
#: int64 copy of the rank table: kernels index it in their innermost loops.
RANKS64 = np.ascontiguousarray(RANKS, dtype=np.int64)


def call_index(name: str) -> int:
    try:
        return CALLS.index(name)
    except ValueError:
        raise RulesError(f"unknown call {name!r} (expected one of {', '.join(CALLS)})") from None


# --------------------------------------------------------------------------------------------
# Rules
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rules:
    """Every number and choice of the rule text; defaults are the official game (NOTES.md).

    ``teams`` gives each seat's team label (0, 1, ...), or None for everyone alone; any split
    is allowed. ``bonus[w]`` is the extra for winning ``w`` sets in one round. ``geopower_deck``
    counts size, statehood and population cards. ``set_tie``: "nobody" (a set needs a total
    strictly better than every other player's) or "all-tied" (every tied best player wins it).
    ``final_tie``: when teams tie at the top at or above the target, "another-round" or
    "draw". ``max_rounds`` is a lab safety cap (a game still tied then is a draw), not a rule.
    """

    players: int = 4
    teams: tuple[int, ...] | None = None
    cards_dealt: int = 6
    cards_to_play: int = 5
    sets_per_round: int = 3
    min_cards_per_set: int = 1
    max_cards_per_set: int = 2
    points_per_set: int = 5
    bonus: tuple[int, ...] = (0, 0, 5, 10)
    target: int = 50
    geopower_deck: tuple[int, int, int] = (5, 5, 5)
    used_to_bottom: bool = True
    calls: tuple[str, ...] = CALLS
    set_tie: str = "nobody"
    final_tie: str = "another-round"
    max_rounds: int = 1000

    def validate(self) -> "Rules":
        """Raise `RulesError` naming the first impossible setting; return self when sound."""
        ints = [f.name for f in fields(self) if f.type == "int"]
        for name in ints:
            if not isinstance(getattr(self, name), (int, np.integer)) or isinstance(getattr(self, name), bool):
                raise RulesError(f"{name} must be an integer, got {getattr(self, name)!r}")
        P, H, C, S = self.players, self.cards_dealt, self.cards_to_play, self.sets_per_round
        lo, hi = self.min_cards_per_set, self.max_cards_per_set
        if P < 2:
            raise RulesError(f"players={P}: the game needs at least 2 players")
        if H < 1 or P * H > N_CARDS:
            raise RulesError(
                f"cards_dealt={H} with players={P} needs {P * H} cards; the GeoPlunge deck holds {N_CARDS}"
            )
        if H > MAX_SLOTS:
            raise RulesError(f"cards_dealt={H}: at most {MAX_SLOTS} cards per hand are supported")
        if S < 1:
            raise RulesError(f"sets_per_round={S}: a round needs at least one set")
        if not 1 <= lo <= hi:
            raise RulesError(f"cards per set must satisfy 1 <= min ({lo}) <= max ({hi})")
        if hi > H:
            raise RulesError(f"max_cards_per_set={hi} is more than the {H} cards dealt")
        if C > H:
            raise RulesError(f"cards_to_play={C} is more than cards_dealt={H}")
        if not S * lo <= C <= S * hi:
            raise RulesError(
                f"cards_to_play={C} cannot be played in {S} sets of {lo}-{hi} cards "
                f"(possible totals: {S * lo}-{S * hi})"
            )
        if len(self.bonus) != S + 1 or any(b < 0 for b in self.bonus):
            raise RulesError(f"bonus needs {S + 1} non-negative entries (for 0..{S} sets won), got {self.bonus}")
        if self.points_per_set < 0 or self.target < 1:
            raise RulesError("points_per_set must be >= 0 and target >= 1")
        if len(self.geopower_deck) != 3 or any(n < 0 for n in self.geopower_deck) or sum(self.geopower_deck) < 1:
            raise RulesError(f"geopower_deck needs 3 non-negative counts with at least one card, got {self.geopower_deck}")
        if not self.used_to_bottom and sum(self.geopower_deck) < S:
            raise RulesError(
                f"a GeoPower deck of {sum(self.geopower_deck)} cards without reuse cannot turn a card for each of {S} sets"
            )
        if not self.calls or any(c not in CALLS for c in self.calls) or len(set(self.calls)) != len(self.calls):
            raise RulesError(f"calls must be distinct names among {CALLS}, got {self.calls}")
        if self.set_tie not in ("nobody", "all-tied"):
            raise RulesError(f"set_tie must be 'nobody' or 'all-tied', got {self.set_tie!r}")
        if self.final_tie not in ("another-round", "draw"):
            raise RulesError(f"final_tie must be 'another-round' or 'draw', got {self.final_tie!r}")
        if self.max_rounds < 1:
            raise RulesError(f"max_rounds={self.max_rounds} must be at least 1")
        if self.teams is not None:
            t = tuple(self.teams)
            if len(t) != P:
                raise RulesError(f"teams names {len(t)} seats but there are {P} players")
            if sorted(set(t)) != list(range(len(set(t)))) or len(set(t)) < 2:
                raise RulesError(f"teams must use labels 0..T-1 for T >= 2 teams, got {t}")
        return self

    # derived facts -------------------------------------------------------------------------
    @property
    def team_of(self) -> tuple[int, ...]:
        return tuple(self.teams) if self.teams is not None else tuple(range(self.players))

    @property
    def n_teams(self) -> int:
        return max(self.team_of) + 1

    @property
    def deck_size(self) -> int:
        return sum(self.geopower_deck)

    def team_name(self, team: int) -> str:
        return "+".join(SEAT_LETTERS[s] for s in range(self.players) if self.team_of[s] == team)

    def to_dict(self) -> dict:
        d = asdict(self)
        return {k: list(v) if isinstance(v, tuple) else v for k, v in d.items()}

    @classmethod
    def from_dict(cls, d: dict) -> "Rules":
        """Rules from a JSON-like object of field overrides; unknown keys are errors."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(d) - known)
        if unknown:
            raise RulesError(f"unknown rules field {unknown[0]!r}")
        clean = {k: tuple(v) if isinstance(v, list) else v for k, v in d.items()}
        return cls(**clean).validate()


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
# Batch engine: G rounds at once, struct of arrays, compiled kernels
# --------------------------------------------------------------------------------------------


@numba.njit(cache=True, nogil=True)
def _deal_kernel(u, P, H, n_turns, power, deck, hands, order):
    """Partial Fisher-Yates on both decks from uniforms ``u`` (one row per deal): only the
    cards that can be seen (dealt, or turned this round) need to be placed at random. Each
    deal shuffles on from the card order ``deck`` the one before left (updated in place)."""
    G = hands.shape[0]
    D = power.size
    for g in range(G):
        i = 0
        for p in range(P):
            for h in range(H):
                j = i + np.int64(u[g, i] * (N_CARDS - i))
                c = deck[j]
                deck[j] = deck[i]
                deck[i] = c
                hands[g, p, h] = c
                i += 1
        for i in range(D):
            order[g, i] = power[i]
        for i in range(n_turns):
            j = i + np.int64(u[g, P * H + i] * (D - i))
            c = order[g, j]
            order[g, j] = order[g, i]
            order[g, i] = c


_DEAL_SLICE = 1024  # deals per slice of uniforms (~100-250 KB, stays in L2)


def deal(rules: Rules, rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """n independent deals: hands (n, P, H) int8 and shuffled GeoPower decks (n, D) int8.

    The draws come from ``rng`` in one block (uniform doubles, so each index is exact to
    2**-53); the deck beyond the cards a round can turn keeps its data order, unseen.
    """
    P, H, D = rules.players, rules.cards_dealt, rules.deck_size
    n_turns = min(rules.sets_per_round, D - 1)
    hands = np.empty((n, P, H), np.int8)
    order = np.empty((n, D), np.int8)
    power = np.array([c for c, k in enumerate(rules.geopower_deck) for _ in range(k)], np.int8)
    # The uniforms are drawn in cache-sized slices into one reused buffer: the same numbers in
    # the same order as one (n, P * H + n_turns) draw, without a multi-megabyte temporary.
    step = max(1, min(n, _DEAL_SLICE))
    buf = np.empty((step, P * H + n_turns))
    deck = np.arange(N_CARDS).astype(np.int8)
    for start in range(0, n, step):
        m = min(step, n - start)
        u = buf[:m]
        rng.random(out=u)
        _deal_kernel(u, P, H, n_turns, power, deck, hands[start:start + m], order[start:start + m])
    return hands, order


# Counter-based dealing (`geolab.games.counter_rng`): every game has its own stream, so a
# game's deal never depends on which other games are dealt, in what order or on which thread.
# Used by the lab's round simulations; `deal` above serves callers that hand over a numpy Generator.


@numba.njit(cache=True, nogil=True, inline="always")
def deal_game(start, P, H, n_turns, counts, deck, hands, g, order, og):
    """Deal a game from its stream ``start`` into ``hands[g]`` (flat: the P * H cards seat by
    seat) and ``order[og]``: a partial Fisher-Yates from the sorted deck for the P * H cards
    dealt (two places per 64-bit draw), then the GeoPower cards turned this round drawn from
    the category counts without replacement, the rest of the deck after them in category order
    (a shuffled deck read as far as the round can see it). ``deck`` is a scratch row of N_CARDS.

    A place is final once swapped, so the card goes straight to the hand (no copy loop), and
    the category picks and the fill are branch-free with fixed trip counts (the categories are
    coin flips to the branch predictor): ~21% (4 players) and ~25% (8) fewer CPU-seconds per
    deal than the copy loop and branchy fill (paired medians, 1 thread)."""
    for i in range(N_CARDS):
        deck[i] = i
    n = P * H
    for i in range(0, n, 2):  # unsigned places (no negative-index checks): ~25% faster
        z = draw64(start, i >> 1)
        a = np.uint64(i)
        j = a + (((z >> np.uint64(32)) * (np.uint64(N_CARDS) - a)) >> np.uint64(32))
        c = deck[j]
        deck[j] = deck[a]
        hands[g, a] = c
        if i + 1 < n:
            a += np.uint64(1)
            j = a + (((z & LOW32) * (np.uint64(N_CARDS) - a)) >> np.uint64(32))
            c = deck[j]
            deck[j] = deck[a]
            hands[g, a] = c
    c0, c1, c2 = counts[0], counts[1], counts[2]
    base = (n + 1) >> 1
    for t in range(n_turns):
        x = below32(draw64(start, base + t) >> np.uint64(32), c0 + c1 + c2)
        cat = np.int64(x >= c0) + np.int64(x >= c0 + c1)
        c0 -= cat == 0
        c1 -= cat == 1
        c2 -= cat == 2
        order[og, t] = cat
    for t in range(n_turns, order.shape[1]):
        order[og, t] = np.int64(t >= n_turns + c0) + np.int64(t >= n_turns + c0 + c1)


@numba.njit(cache=True, nogil=True)
def _deal_block_kernel(key, first, P, H, n_turns, counts, hands, order):
    deck = np.empty(N_CARDS, np.int8)
    flat = hands.reshape(hands.shape[0], P * H)
    for g in range(hands.shape[0]):
        deal_game(game_stream(key, first + g), P, H, n_turns, counts, deck, flat, g, order, g)


def block_keys(ss: np.random.SeedSequence) -> tuple[np.uint64, np.uint64]:
    """A block's deal key and play key (the play key drives whatever is random besides the deal)."""
    deal_key, play_key = ss.generate_state(2, np.uint64)
    return deal_key, play_key


def deal_block(rules: Rules, key, n: int, first: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Games first .. first + n - 1 of the block with deal key ``key``, as `deal` returns them;
    game i's deal depends only on (key, i)."""
    P, H, D = rules.players, rules.cards_dealt, rules.deck_size
    hands = np.empty((n, P, H), np.int8)
    order = np.empty((n, D), np.int8)
    _deal_block_kernel(np.uint64(key), first, P, H, min(rules.sets_per_round, D - 1),
                       np.array(rules.geopower_deck, np.int64), hands, order)
    return hands, order


def turned_categories(rules: Rules, order: np.ndarray) -> np.ndarray:
    """(n, S) the card turned on each set: the deck top, which then goes to the bottom."""
    idx = np.arange(rules.sets_per_round) % rules.deck_size
    return order[:, idx]


@numba.njit(cache=True, nogil=True)
def popcount(x):
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@numba.njit(cache=True, nogil=True)
def legal_choice(mask, used, H, s, S, C, lo, hi):
    """True when `mask` (slot bits) is a legal set choice for a hand with `used` slots played."""
    if mask <= 0 or mask >= (1 << H) or (mask & used) != 0:
        return False
    k = popcount(mask)
    after = S - s - 1
    left = C - popcount(used)
    return max(lo, left - after * hi) <= k <= min(hi, left - after * lo)


@numba.njit(cache=True, nogil=True)
def set_winners(totals, call, all_tied, won):
    """Mark in ``won`` the seats that win a set with these totals (compiled twin of `_winners`)."""
    P = totals.size
    best = totals[0]
    for p in range(1, P):
        if (totals[p] < best) if call == 0 else (totals[p] > best):
            best = totals[p]
    n = 0
    for p in range(P):
        n += totals[p] == best
    for p in range(P):
        won[p] = totals[p] == best and (n == 1 or all_tied)


@numba.njit(cache=True, nogil=True)
def next_category_probs(deck, draws, s, reuse, out):
    """Compiled twin of `category_probs` for one game: ``draws[:s]`` are the cards turned."""
    D = deck.sum()
    if reuse and s >= D:
        out[:] = 0.0
        out[draws[s - D]] = 1.0
        return
    for c in range(3):
        out[c] = deck[c]
    for t in range(s):
        out[draws[t]] -= 1.0
    out /= out.sum()


@numba.njit(cache=True, nogil=True)
def _step_kernel(hands, used, actions, turned, call, s, S, C, lo, hi, all_tied, ranks,
                 cards, totals, won):
    """Check, lay and score one set for every game; returns the first illegal g * P + p or -1."""
    G, P, H = hands.shape
    for g in range(G):
        for p in range(P):
            if not legal_choice(actions[g, p], used[g, p], H, s, S, C, lo, hi):
                return g * P + p
    tot = np.zeros(P, np.int64)
    win = np.zeros(P, np.bool_)
    for g in range(G):
        cat = turned[g, s]
        for p in range(P):
            a = actions[g, p]
            t = 0
            k = 0
            for i in range(H):
                if (a >> i) & 1:
                    c = hands[g, p, i]
                    t += ranks[c, cat]
                    cards[g, s, p, k] = c
                    k += 1
            tot[p] = t
            totals[g, s, p] = t
            used[g, p] |= a
        set_winners(tot, call[g], all_tied, win)
        won[g, s] = win
    return -1


class BatchRound:
    """G rounds in lockstep: the hidden state (hands, GeoPower order) and the public record."""

    def __init__(self, rules: Rules, hands: np.ndarray, order: np.ndarray, calls: np.ndarray):
        G, P, H = hands.shape
        S, M = rules.sets_per_round, rules.max_cards_per_set
        self.rules, self.G = rules, G
        self.hands = np.ascontiguousarray(hands, np.int8)
        self._turns = np.ascontiguousarray(turned_categories(rules, order), np.int8)  # hidden
        self.calls = np.ascontiguousarray(calls, np.int8)
        self.used = np.zeros((G, P), np.int64)
        self.actions = np.zeros((G, S, P), np.int64)
        self.cards = np.full((G, S, P, M), -1, np.int8)  # public once laid
        self.totals = np.zeros((G, S, P), np.int16)
        self.won = np.zeros((G, S, P), np.bool_)
        self.set_index = 0

    @property
    def turned(self) -> np.ndarray:
        """GeoPower categories turned so far (public); -1 for sets still to come."""
        out = np.full((self.G, self.rules.sets_per_round), -1, np.int8)
        out[:, : self.set_index] = self._turns[:, : self.set_index]
        return out

    def step(self, actions: np.ndarray) -> int:
        """Lay every seat's choice (G, P) and turn the GeoPower card; -1 or a bad flat index."""
        r, s = self.rules, self.set_index
        actions = np.ascontiguousarray(actions, np.int64)
        bad = _step_kernel(self.hands, self.used, actions, self._turns, self.calls, s,
                           r.sets_per_round, r.cards_to_play, r.min_cards_per_set,
                           r.max_cards_per_set, r.set_tie == "all-tied", RANKS64, self.cards,
                           self.totals, self.won)
        if bad < 0:
            self.actions[:, s] = actions
            self.set_index += 1
        return bad

    def points(self) -> np.ndarray:
        """(G, P) round points: sets won times points per set, plus the bonus."""
        r = self.rules
        table = np.array([round_points(r, w) for w in range(r.sets_per_round + 1)], np.int32)
        return table[self.won.sum(axis=1)]


# --------------------------------------------------------------------------------------------
# Observations: what one seat may see
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Observation:
    """A batch of decision points; row i is one seat in one game.

    Own information per row: ``hand`` (R, H) and ``used`` (R,) slot bits already played. Public
    per game (index with ``game``): ``call``, ``dealer``, ``scores`` (seat scores before the
    round), ``cards`` (G, S, P, M) cards laid in finished sets (-1 elsewhere) and ``turned``
    (G, S) GeoPower categories turned so far (-1 for the future). No other hand and no
    unturned GeoPower card is reachable from here.
    """

    rules: Rules
    round_index: int
    set_index: int
    game: np.ndarray
    seat: np.ndarray
    hand: np.ndarray
    used: np.ndarray
    call: np.ndarray
    dealer: np.ndarray
    scores: np.ndarray
    cards: np.ndarray
    turned: np.ndarray

    def __len__(self) -> int:
        return len(self.seat)

    def probs(self) -> np.ndarray:
        """(R, 3) chance of each category on the card about to be turned."""
        return category_probs(self.rules, self.turned, self.set_index)[self.game]

    def legal_mask(self) -> np.ndarray:
        """(R, 2**H) bool: which slot masks are legal choices now."""
        r, H = self.rules, self.rules.cards_dealt
        masks = np.arange(1 << H)
        pop = np.array([bin(m).count("1") for m in masks])
        played = np.array([bin(int(u)).count("1") for u in self.used])
        after = r.sets_per_round - self.set_index - 1
        left = r.cards_to_play - played
        lo = np.maximum(r.min_cards_per_set, left - after * r.max_cards_per_set)
        hi = np.minimum(r.max_cards_per_set, left - after * r.min_cards_per_set)
        free = (masks[None, :] & self.used[:, None].astype(np.int64)) == 0
        return free & (pop[None, :] >= lo[:, None]) & (pop[None, :] <= hi[:, None]) & (masks[None, :] > 0)


@dataclass(frozen=True)
class CallObservation:
    """Before the deal: the dealer sees the scores and the round number, nothing else."""

    rules: Rules
    round_index: int
    game: np.ndarray
    seat: np.ndarray
    scores: np.ndarray

    def __len__(self) -> int:
        return len(self.seat)


def _readonly(a: np.ndarray) -> np.ndarray:
    v = a.view()
    v.flags.writeable = False
    return v


def observe(rnd: BatchRound, game: np.ndarray, seat: np.ndarray, scores: np.ndarray,
            dealer: np.ndarray, round_index: int) -> Observation:
    """The observation of the listed (game, seat) rows at the current set."""
    return Observation(
        rnd.rules, round_index, rnd.set_index, game, seat,
        rnd.hands[game, seat], rnd.used[game, seat], _readonly(rnd.calls), _readonly(dealer),
        _readonly(scores), _readonly(rnd.cards), rnd.turned,
    )


# --------------------------------------------------------------------------------------------
# Driving batches with policies
# --------------------------------------------------------------------------------------------


def _name(policy) -> str:
    return getattr(policy, "name", type(policy).__name__)


def _describe_illegal(rules: Rules, hand, used: int, mask: int, s: int) -> str:
    H = rules.cards_dealt
    if not 0 < mask < (1 << H):
        return f"slot mask {mask} is not a non-empty subset of the {H} slots"
    cards = [POSTAL[hand[i]] for i in range(H) if mask >> i & 1]
    if mask & used:
        return f"{' '.join(cards)} includes a card already played"
    lo, hi = cards_range(rules, s, bin(used).count("1"))
    return f"{' '.join(cards)} is {len(cards)} cards; {lo}-{hi} are allowed here"


def _seat_groups(seats) -> list[tuple[object, list[int]]]:
    """Seats that share one policy object are asked together, in one batch."""
    groups: dict[int, tuple[object, list[int]]] = {}
    for i, pol in enumerate(seats):
        groups.setdefault(id(pol), (pol, []))[1].append(i)
    return list(groups.values())


def dealer_calls(rules: Rules, callers, dealer: np.ndarray, scores: np.ndarray, round_index: int,
                 rng: np.random.Generator) -> np.ndarray:
    """Ask each game's dealer (its seat's call policy) for Top Dog or Bottoms Up; checked."""
    rows = np.arange(len(dealer))
    calls = np.empty(len(dealer), np.int8)
    allowed = [call_index(c) for c in rules.calls]
    for caller, seats in _seat_groups(callers):
        sel = rows[np.isin(dealer, seats)]
        if not len(sel):
            continue
        obs = CallObservation(rules, round_index, sel, dealer[sel], _readonly(scores))
        got = np.asarray(caller.call(obs, rng))
        bad = ~np.isin(got, allowed) if got.shape == sel.shape else np.ones(len(sel), bool)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            shown = got.ravel()[i] if got.size > i else "nothing"
            raise IllegalActionError(
                f"{_name(caller)}: round {round_index + 1}, dealer call of game {sel[i]}: "
                f"{shown} is not one of {list(rules.calls)}"
            )
        calls[sel] = got
    return calls


def play_round_batch(rules: Rules, players, callers, hands, order, scores, dealer, round_index,
                     rng: np.random.Generator) -> BatchRound:
    """Play G rounds: the dealer's call, then every set, asking each policy once a set.

    ``players[p]`` and ``callers[p]`` are the set policy and dealer-call policy at seat p.
    Policies see only observations; whatever they return is checked, never corrected.
    """
    G, P = hands.shape[0], rules.players
    rows = np.arange(G)
    calls = dealer_calls(rules, callers, dealer, scores, round_index, rng)
    rnd = BatchRound(rules, hands, order, calls)
    groups = _seat_groups(players)
    for s in range(rules.sets_per_round):
        actions = np.zeros((G, P), np.int64)
        for policy, seats in groups:
            game = np.repeat(rows, len(seats))
            seat = np.tile(np.array(seats), G)
            obs = observe(rnd, game, seat, scores, dealer, round_index)
            got = np.asarray(policy.act(obs, rng))
            if got.shape != (len(seat),):
                raise IllegalActionError(
                    f"{_name(policy)}: set {s + 1} of round {round_index + 1}: returned shape {got.shape}, expected {(len(seat),)}"
                )
            actions[game, seat] = got
        bad = rnd.step(actions)
        if bad >= 0:
            g, p = divmod(bad, P)
            policy = players[p]
            why = _describe_illegal(rules, rnd.hands[g, p], int(rnd.used[g, p]), int(actions[g, p]), s)
            raise IllegalActionError(
                f"{_name(policy)}: set {s + 1} of round {round_index + 1}, game {g}, seat {SEAT_LETTERS[p]}: {why}"
            )
    return rnd


def _team_totals(rules: Rules, scores: np.ndarray) -> np.ndarray:
    onehot = np.eye(rules.n_teams, dtype=np.int64)[list(rules.team_of)]  # (P, T)
    return scores @ onehot


def decide_winners(rules: Rules, scores: np.ndarray, rounds_played: int) -> np.ndarray:
    """Per game: the winning team, -1 for a draw, -2 while the race goes on."""
    teams = _team_totals(rules, scores)
    top = teams.max(axis=1)
    n_top = (teams == top[:, None]).sum(axis=1)
    out = np.full(len(scores), -2, np.int64)
    reached = top >= rules.target
    out[reached & (n_top == 1)] = teams.argmax(axis=1)[reached & (n_top == 1)]
    if rules.final_tie == "draw":
        out[reached & (n_top > 1)] = -1
    if rounds_played >= rules.max_rounds:
        out[out == -2] = -1
    return out


@dataclass
class GameBatch:
    """Outcome of a batch of games (one row per game)."""

    winner: np.ndarray  # team, or -1 for a draw
    rounds: np.ndarray
    scores: np.ndarray  # (n, P) seat scores at the end
    trace: list | None = None  # per round: (active games, BatchRound, dealer) when traced


def play_game_batch(rules: Rules, players, callers, n: int, deal_rng: np.random.Generator,
                    play_rng: np.random.Generator, trace: bool = False) -> GameBatch:
    """n games to the target. Every round deals to all n games from ``deal_rng`` (finished
    games' deals are thrown away), so a game's deals do not depend on how others are played:
    that is what makes duplicate comparisons fair."""
    P = rules.players
    scores = np.zeros((n, P), np.int64)
    winner = np.full(n, -2, np.int64)
    rounds = np.zeros(n, np.int64)
    log = [] if trace else None
    r = 0
    while (winner == -2).any():
        hands, order = deal(rules, deal_rng, n)
        act = np.flatnonzero(winner == -2)
        dealer = np.full(len(act), r % P, np.int64)
        rnd = play_round_batch(rules, players, callers, hands[act], order[act], scores[act],
                               dealer, r, play_rng)
        scores[act] += rnd.points()
        rounds[act] += 1
        r += 1
        winner[act] = decide_winners(rules, scores[act], r)
        if log is not None:
            log.append((act, rnd, r - 1))
    return GameBatch(winner, rounds, scores, log)


# --------------------------------------------------------------------------------------------
# Records
# --------------------------------------------------------------------------------------------


def _mask_cards(hand, mask: int) -> list[int]:
    return [int(hand[i]) for i in range(len(hand)) if mask >> i & 1]


def batch_to_records(rules: Rules, batch: GameBatch, games: list[int]) -> list[dict]:
    """geolab-record/1 objects for some games of a traced batch (cards by postal code)."""
    out = []
    for g in games:
        rounds = []
        for act, rnd, r in batch.trace:
            hit = np.flatnonzero(act == g)
            if not len(hit):
                continue
            i = int(hit[0])
            seats = range(rules.players)
            rounds.append({
                "dealer": SEAT_LETTERS[r % rules.players],
                "call": CALLS[int(rnd.calls[i])],
                "deal": {SEAT_LETTERS[p]: [POSTAL[c] for c in rnd.hands[i, p]] for p in seats},
                "sets": [
                    {"plays": {SEAT_LETTERS[p]: [POSTAL[c] for c in _mask_cards(rnd.hands[i, p], int(rnd.actions[i, s, p]))]
                               for p in seats},
                     "geopower": CATEGORIES[int(rnd._turns[i, s])]}
                    for s in range(rules.sets_per_round)
                ],
            })
        w = int(batch.winner[g])
        out.append({
            "format": "geolab-record/1", "game": GAME,
            "rules": {k: v for k, v in rules.to_dict().items() if v != getattr(Rules(), k) or k == "players"},
            "rounds": rounds,
            "result": {"winner": rules.team_name(w) if w >= 0 else None,
                       "scores": {SEAT_LETTERS[p]: int(batch.scores[g, p]) for p in range(rules.players)}},
        })
    return out


def _record_rules(spec) -> Rules:
    if spec is None or spec == "standard":
        return Rules().validate()
    if isinstance(spec, str):
        raise RecordError(f"rules: unknown preset {spec!r} (known: standard)")
    if not isinstance(spec, dict):
        raise RecordError("rules: expected 'standard' or an object of Rules fields")
    spec = dict(spec)
    preset = spec.pop("preset", "standard")
    if preset != "standard":
        raise RecordError(f"rules: unknown preset {preset!r} (known: standard)")
    try:
        return Rules.from_dict(spec)
    except (RulesError, TypeError) as error:
        raise RecordError(f"rules: {error}") from None


def _cards(where: str, names) -> list[int]:
    if not isinstance(names, list):
        raise RecordError(f"{where}: expected a list of postal codes")
    try:
        return [card(n) for n in names]
    except Exception as error:  # GeolabError for an unknown code, AttributeError for a non-string
        raise RecordError(f"{where}: {error}") from None


def _seat_map(where: str, obj, rules: Rules) -> list:
    letters = SEAT_LETTERS[: rules.players]
    if not isinstance(obj, dict):
        raise RecordError(f"{where}: expected an object keyed by seat letters {', '.join(letters)}")
    extra = sorted(set(obj) - set(letters))
    if extra:
        raise RecordError(f"{where}: unknown seat {extra[0]!r} (seats are {', '.join(letters)})")
    missing = [s for s in letters if s not in obj]
    if missing:
        raise RecordError(f"{where}: seat {missing[0]} is missing")
    return [obj[s] for s in letters]


def _record_deck(rules: Rules, where: str, turned: list[int]) -> list[int]:
    """A GeoPower deck order that turns exactly the recorded cards, or a RecordError."""
    D = rules.deck_size
    first = turned[: min(D, len(turned))]
    left = list(rules.geopower_deck)
    for s, c in enumerate(first):
        if left[c] == 0:
            raise RecordError(f"{where} set {s + 1}: a {CATEGORIES[c]} GeoPower card was turned more often than the deck holds")
        left[c] -= 1
    for s in range(D, len(turned)):
        if turned[s] != turned[s - D]:
            raise RecordError(f"{where} set {s + 1}: the reused GeoPower deck must turn {CATEGORIES[turned[s - D]]} again")
    return first + [c for c in range(3) for _ in range(left[c])]


def replay_record(record: dict) -> dict:
    """Validate a Jumbled record with the reference engine and report what happened.

    Raises `RecordError` with one line naming the place of the first problem.
    """
    rules = _record_rules(record.get("rules"))
    rounds = record.get("rounds")
    if not isinstance(rounds, list) or not rounds:
        raise RecordError("rounds: expected a non-empty list of rounds")
    game = Game(rules)
    report_rounds = []
    for r, rd in enumerate(rounds):
        where = f"round {r + 1}:"
        if game.over:
            raise RecordError(f"{where} the game was already over after round {r}")
        if not isinstance(rd, dict):
            raise RecordError(f"{where} expected an object")
        dealer = SEAT_LETTERS[game.dealer]
        if rd.get("dealer", dealer) != dealer:
            raise RecordError(f"{where} dealer is {dealer} (the deal passes left), record says {rd.get('dealer')!r}")
        if rd.get("call") not in rules.calls:
            raise RecordError(f"{where} call must be one of {', '.join(rules.calls)}, got {rd.get('call')!r}")
        hands = [_cards(f"{where} deal {SEAT_LETTERS[p]}", h) for p, h in enumerate(_seat_map(f"{where} deal", rd.get("deal"), rules))]
        seen = {}
        for p, h in enumerate(hands):
            if len(h) != rules.cards_dealt:
                raise RecordError(f"{where} deal: {SEAT_LETTERS[p]} holds {len(h)} cards, expected {rules.cards_dealt}")
            for c in h:
                if c in seen:
                    raise RecordError(f"{where} deal: {POSTAL[c]} is dealt twice ({seen[c]} and {SEAT_LETTERS[p]})")
                seen[c] = SEAT_LETTERS[p]
        sets = rd.get("sets")
        if not isinstance(sets, list) or len(sets) != rules.sets_per_round:
            raise RecordError(f"{where} sets: expected a list of {rules.sets_per_round} sets")
        turned = []
        for s, st in enumerate(sets):
            if not isinstance(st, dict):
                raise RecordError(f"{where} set {s + 1}: expected an object with plays and geopower")
            try:
                turned.append(category(st.get("geopower")))
            except Exception:
                raise RecordError(f"{where} set {s + 1}: geopower must be one of {', '.join(CATEGORIES)}, got {st.get('geopower')!r}") from None
        rnd = game.start_round(call_index(rd["call"]), hands, _record_deck(rules, where, turned))
        for s, st in enumerate(sets):
            plays = [tuple(_cards(f"{where} set {s + 1} {SEAT_LETTERS[p]}", x))
                     for p, x in enumerate(_seat_map(f"{where} set {s + 1} plays", st.get("plays"), rules))]
            try:
                rnd.play_set(plays)
            except IllegalActionError as error:
                raise RecordError(f"{where} {error}") from None
        game.end_round()
        report_rounds.append({
            "dealer": dealer, "call": rd["call"],
            "set_winners": [[SEAT_LETTERS[w] for w in x.winners] for x in rnd.sets],
            "totals": [{SEAT_LETTERS[p]: t for p, t in enumerate(x.totals)} for x in rnd.sets],
            "points": {SEAT_LETTERS[p]: v for p, v in enumerate(rnd.points())},
        })
    team_scores = {rules.team_name(t): v for t, v in enumerate(game.team_scores())}
    report = {
        "winner": None if game.winner in (None, -1) else rules.team_name(game.winner),
        "finished": game.over,
        "scores": {SEAT_LETTERS[p]: v for p, v in enumerate(game.scores)},
        "team_scores": team_scores,
        "rounds_played": len(game.rounds),
        "rounds": report_rounds,
    }
    _check_result(record.get("result"), report)
    return report


def _check_result(claimed, report: dict) -> None:
    if claimed is None:
        return
    if not isinstance(claimed, dict):
        raise RecordError("result: expected an object")
    for key, value in claimed.items():
        if key not in report:
            raise RecordError(f"result: unknown key {key!r}")
        if report[key] != value:
            raise RecordError(f"result: {key} is {report[key]!r}, the record says {value!r}")

