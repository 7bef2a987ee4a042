"""Play the Ranks for many deals at once: the batch engine, its observations, the Seat bridge.

The reference engine (`geolab.games.ranks.reference.play`) is the specification; this engine plays the
same games for a batch of deals, with the state as arrays whose first axis is the batch, and
must agree with it trick for trick (``tests/test_ranks_batch.py`` replays its games through
the reference engine). Card sets are int64 bitmasks (bit c = card c): a hand is one word, so
removing a card, testing membership and copying a hand into an observation are single
operations. Inner loops are numba kernels; Python only walks the decisions of one chunk (or
not at all: see fused play).

**Seeds and chunks.** Games are dealt in blocks of `block` games (default `BLOCK`); block b is
dealt by ``reference.deal_arrays(rules, block, default_rng(SeedSequence(seed).spawn(b + 1)[b]))``
(through an equivalent faster kernel), and each game also draws a 64-bit key from that
generator. A chunk is a whole number of blocks, and every heuristic bot takes its randomness
from ``Observation.noise``, a hash of the game's key and the decision, so the same seed gives
the same games whatever the chunk size and however many threads run the chunks. Checking a
run's numbers, cutting it into chunks and running them on threads is every engine's shared
code (`geolab.common.chunks`); `run` yields the chunks as they finish, a few in flight.

**The policy contract.** A policy has a ``name`` and ``act(obs, rng)``. `obs` is one
`Observation` of m rows, all of one decision kind and one trick; row i is the game
``obs.game[i]`` seen by side ``obs.side[i]``. It returns, for that kind:

- ``"discard"``: int array (m, rules.discards) of cards from the hand, all different;
- ``"declare"``: bool array (m,);
- ``"lead"``: a `Leads` (card, category, base) of int arrays (m,); base may be None when the
  rules fix the base (then it is the fixed one), and must be one of ``obs.bases[i]``;
- ``"follow"``: int array (m,) of cards from the hand.

Anything else raises `IllegalActionError` naming the policy, the decision, the game and the
side; nothing is ever corrected. `rng` is a per-chunk generator for policies that do not need
chunk-independent results. A policy with ``thread_safe = False`` makes the engine run its
chunks one after another.

**Fused play.** A policy may offer ``fused = (kernel, seat)``: a kernel that plays whole
chunks for the policies it knows, and what it needs to know of this one (the built-in
heuristics random, greedy, planner and counter offer `geolab.bots.ranks.heuristics.play_fused`; see
``FUSED`` there; their subclasses do not). When both seats offer the same kernel,
`_Chunk.play` calls ``kernel(chunk, (seat_A, seat_B))`` instead of walking the decisions: one
numba call plays every game from the discards to the last trick, each decision by the same
per-row function the policy's `act` uses. It must leave exactly the `Played` the decision
loop would (``tests/test_ranks_batch.py`` compares them field by field, every preset and
pair); it skips the legality checks, as these policies only choose legal actions. So only
those built-in heuristics may offer it (no bot built from outside them does: a learned,
search or person's policy is always asked through `act` and checked), and an exception a
policy raises in `act` is a `BotError` naming the policy and the decision.

**One-game seats.** `SeatPolicy(seat)` plays any reference-engine `Seat` (Monte Carlo
search, a human) in the batch engine: for each row it builds ``obs.view(i)`` — the very
`View` the reference engine would give that seat (discards in card order) — and asks the
seat. The seat must decide from the View alone, as the rows of one call come from different
games; its answers are checked like any other policy's.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple

import numpy as np
from numba import njit

from geolab.cards import CATEGORIES, N_CARDS, POSTAL, POWER_DECK, RANKS, STATEHOOD
from geolab.common import chunks
from geolab.common.bits import lowest
from geolab.common.counter_rng import GOLDEN, mix64
from geolab.errors import GeolabError, IllegalActionError
from geolab.game import BatchBot, asking, bot_name
from geolab.games.ranks.reference import ENGINE, Game, Lead, Trick, View
from geolab.games.ranks.rules import BASE_MODES, BONUSES, SIDES, Rules
from geolab.lineup import each, members

#: Games per seed block; a chunk is a whole number of blocks.
BLOCK = 4096
#: Default games per chunk (about 10 MB of state and observations).
CHUNK = 65536
KINDS = ("discard", "declare", "lead", "follow")
_POWER_BASES = np.array([c.base for c in POWER_DECK], dtype=np.int8)
_R = RANKS.astype(np.int64)


class Peek(NamedTuple):
    """Hidden cards for a peeking policy (`Observation.peek`): the opponent's dealt hand and
    its cards now (bitmasks), and the lead card on the table (-1 when not following)."""

    dealt: np.ndarray
    held: np.ndarray
    lead: np.ndarray


class Leads(NamedTuple):
    """Lead actions of a batch: card, category and (where the lead chooses it) base."""

    card: np.ndarray
    category: np.ndarray
    base: np.ndarray | None = None


# ----- rules as numbers a kernel can read --------------------------------------------------
class KernelRules(NamedTuple):
    mode: int  # 0 fixed, 1 lead chooses, 2 power cards
    fixed: np.ndarray  # int64 (tricks,) bases when fixed, else zeros
    lead_bases: np.ndarray  # int64, the lead's choices (mode 1)
    base_masks: np.ndarray  # int64 (tricks + 1,): `future_bases` by start trick (modes 0, 1)
    split: int
    tricks: int
    follow_wins_ties: bool
    win_tricks: int
    end_at: int  # tricks + 1 when the deal always plays every trick
    deck: int  # bitmask of the cards in play (all 50 but in the analysis variants)


def kernel_rules(rules: Rules) -> KernelRules:
    def future(start: int) -> int:  # `Rules.future_bases` as a bitmask; Power-card bases: per game
        return 0 if rules.base_mode == "power" else sum(1 << b for b in set(rules.future_bases(start)))

    return KernelRules(
        mode=BASE_MODES.index(rules.base_mode),
        fixed=np.array(rules.bases if rules.base_mode == "fixed" else (0,) * rules.tricks, dtype=np.int64),
        lead_bases=np.array(rules.lead_bases, dtype=np.int64),
        base_masks=np.array([future(t) for t in range(rules.tricks + 1)], dtype=np.int64),
        split=rules.power_split,
        tricks=rules.tricks,
        follow_wins_ties=rules.equal_distance == "follow",
        win_tricks=rules.win_tricks,
        end_at=rules.tricks + 1 if rules.end_at is None else rules.end_at,
        deck=(1 << rules.deck) - 1,
    )


@njit(cache=True, nogil=True)
def future_bases(mode, base_masks, split, p0, p1, start):
    """Bitmask of the base values tricks start.. may be played at (bit b = base b): the numba
    statement of `Rules.future_bases` (past the last trick, the last trick's base). Only the
    Power-card bases differ from game to game."""
    if mode != 2:
        return base_masks[start]
    return (1 << p1) | ((1 << p0) if start < split else 0)


@njit(cache=True, nogil=True)
def trick_base(mode, fixed, split, p0, p1, t):
    """The base of trick t where the rules fix it (0 where the lead chooses): the numba
    statement of `Rules.base_of`, p0 and p1 the Power-card bases."""
    if mode == 2:
        return p0 if t < split else p1
    return fixed[t] if mode == 0 else 0


#: DIST[c, b]: how far card c's best rank lies from base b (b = 0..50; column 0 unused).
DIST = np.abs(_R[:, :, None] - np.arange(N_CARDS + 1)).min(axis=1)


@njit(cache=True, nogil=True)
def uselessness(c, base_mask):
    """How far card c's best rank lies from the nearest base in `base_mask`."""
    best = 1 << 30
    while base_mask:
        b = lowest(base_mask)
        base_mask &= base_mask - 1
        best = min(best, DIST[c, b])
    return best


# ----- dealing -----------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def _shuffled_prefix(u, size, deck, r):
    """`geolab.common.shuffle.shuffled_prefix` of row r of u, into deck[:k] (deck: scratch of `size`)."""
    for c in range(size):
        deck[c] = c
    for j in range(u.shape[1]):
        pick = j + int(u[r, j] * (size - j))
        deck[j], deck[pick] = deck[pick], deck[j]


@njit(cache=True, nogil=True)
def _deal(u, pu, power_bases, size, h, hands, masks, draw, power):
    """`reference.deal_arrays` from its floats: u (n, 2h + 2) for the cards of a deck of
    `size`, pu (n, 2) for the Power cards (n = 0 rows without them); hands sorted and as
    bitmasks."""
    deck = np.empty(max(size, power_bases.shape[0]), np.int64)
    for r in range(u.shape[0]):
        _shuffled_prefix(u, size, deck, r)
        for s in range(2):
            m = 0
            for j in range(h):
                m |= 1 << deck[s * h + j]
            masks[r, s] = m
            j = 0
            while m:
                hands[r, s, j] = lowest(m)
                m &= m - 1
                j += 1
        draw[r, 0], draw[r, 1] = deck[2 * h], deck[2 * h + 1]
    for r in range(pu.shape[0]):
        _shuffled_prefix(pu, power_bases.shape[0], deck, r)
        power[r, 0], power[r, 1] = power_bases[deck[0]], power_bases[deck[1]]


@dataclass
class Deals:
    """Dealt games: hands (n, 2, hand_size) sorted and as masks (n, 2), the statehood draw
    (n, 2), Power-card bases (n, 2) or None, and a random key per game."""

    hands: np.ndarray
    masks: np.ndarray
    draw: np.ndarray
    power: np.ndarray | None
    keys: np.ndarray

    def head(self, n: int) -> Deals:
        return Deals(*(None if a is None else a[:n] for a in (self.hands, self.masks, self.draw, self.power,
                                                              self.keys)))


def deal(rules: Rules, seed: int, start_block: int, n_blocks: int, block: int = BLOCK) -> Deals:
    """Deal blocks start_block.. of a seed: each block as ``reference.deal_arrays(rules, block,
    block_rng(seed, b))`` would (identical results, computed faster), then the game keys."""
    d = _empty(rules, n_blocks * block)
    for i in range(n_blocks):
        _deal_from(rules, block_rng(seed, start_block + i), d, slice(i * block, (i + 1) * block))
    return d


def dealt(rules: Rules, rng: np.random.Generator, n: int) -> Deals:
    """n games dealt from one generator as `deal` deals a block (a match's stage deals its
    games so, from a generator of its own)."""
    d = _empty(rules, n)
    _deal_from(rules, rng, d, slice(0, n))
    return d


def _empty(rules: Rules, n: int) -> Deals:
    h = rules.hand_size
    return Deals(
        np.empty((n, 2, h), np.int8),
        np.empty((n, 2), np.int64),
        np.empty((n, 2), np.int8),
        np.empty((n, 2), np.int8) if rules.base_mode == "power" else None,
        np.empty(n, np.uint64),
    )


def _deal_from(rules: Rules, rng: np.random.Generator, d: Deals, part: slice) -> None:
    """Rows `part` of `d` dealt from `rng`: the cards, the Power cards, then the keys."""
    h, size = rules.hand_size, part.stop - part.start
    power = d.power if d.power is not None else np.empty((0, 2), np.int8)  # no Power cards: no rows
    u = rng.random((size, 2 * h + 2))
    pu = rng.random((len(power[part]), 2))
    _deal(u, pu, _POWER_BASES, rules.deck, h, d.hands[part], d.masks[part], d.draw[part], power[part])
    d.keys[part] = rng.integers(0, 2**63, size=size, dtype=np.int64)


def block_rng(seed: int, b: int) -> np.random.Generator:
    """The generator of seed block b: child b of ``SeedSequence(seed)``."""
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(b,)))


# ----- observations ------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def _observe(rows, sides, hand, lead, cat, base, o_hand, o_lead, o_cat, o_base):
    """Each row's own hand; when following, the lead's category, base and (if shown) card."""
    following, shown = o_cat.shape[0] > 0, o_lead.shape[0] > 0
    for i in range(rows.shape[0]):
        g = rows[i]
        o_hand[i] = hand[g, sides[i]]
        if following:
            o_cat[i] = cat[g]
            o_base[i] = base[g]
        if shown:
            o_lead[i] = lead[g]


@njit(cache=True, nogil=True)
def noise_salt(kind, trick):
    """The decision's part of `noise_of`: kind is the index in `KINDS`."""
    return kind + 4 * trick


@njit(cache=True, nogil=True)
def noise_of(key, salt, side):
    """`Observation.noise` of one row: the game's key hashed with the decision and side."""
    return mix64(key ^ (np.uint64(salt * 4 + side + 1) * GOLDEN))


@njit(cache=True, nogil=True)
def _noise(keys, rows, sides, salt, out):
    for i in range(rows.shape[0]):
        out[i] = noise_of(keys[rows[i]], salt, sides[i])


def cards_of(mask) -> tuple[int, ...]:
    """The cards of a bitmask, in card order."""
    mask = int(mask)
    return tuple(c for c in range(N_CARDS) if mask >> c & 1)


class Observation:
    """What each deciding side may see, for m rows of one decision kind at one trick.

    Arrays have the batch on axis 0; sides are indexed absolutely (0 = A, 1 = B). Always
    there: ``game``, ``side``, ``hand`` (bitmask), ``bases`` (m, k) the bases the lead may
    choose (lead only), and when following ``lead_category``, ``lead_base`` and
    ``lead_card`` (None under a hidden lead). Read on first use, during `act`:
    ``discards`` (own, bitmask), ``opponent_discards`` (None unless the rules make discards
    public and they have been made), ``played`` (m, 2) cards each side has played in
    finished tricks, ``tricks_won`` (m, 2), ``first_lead`` (-1 while unknown),
    ``declarations`` (m, 2; -1 = not said), ``power_bases`` (m, 2) or None, ``noise`` (a
    random word per row for randomised policies); ``history()`` gives the finished tricks.
    The lazy fields copy only public or own information, and only what the engine would put
    in the reference `View`; reading them on first use keeps the per-decision cost to the
    hand for policies that need nothing else (greedy). Read them during `act`: the game moves
    on afterwards.
    """

    def __init__(self, chunk, kind, trick, game, side, hand, bases, lead_category, lead_base, lead_card):
        self.rules, self.kind, self.trick = chunk.rules, kind, trick
        self.game, self.side, self.hand, self.bases = game, side, hand, bases
        self.lead_category, self.lead_base, self.lead_card = lead_category, lead_base, lead_card
        self._chunk = chunk  # the engine's; read only through the properties below

    @cached_property
    def discards(self) -> np.ndarray:
        return self._chunk.disc[self.game, self.side]

    @cached_property
    def opponent_discards(self) -> np.ndarray | None:
        if not self.rules.discards_public or self.kind == "discard":
            return None
        return self._chunk.disc[self.game, 1 - self.side]

    @cached_property
    def played(self) -> np.ndarray:
        return self._chunk.played[self.game]

    @cached_property
    def tricks_won(self) -> np.ndarray:
        return self._chunk.won[self.game]

    @cached_property
    def first_lead(self) -> np.ndarray:
        return self._chunk.first[self.game]

    @cached_property
    def declarations(self) -> np.ndarray:
        return self._chunk.decl[self.game]

    @cached_property
    def power_bases(self) -> np.ndarray | None:
        return None if self._chunk.deals.power is None else self._chunk.deals.power[self.game]

    @cached_property
    def noise(self) -> np.ndarray:
        out = np.empty(len(self.game), np.uint64)
        _noise(self._chunk.deals.keys, self.game, self.side, noise_salt(KINDS.index(self.kind), self.trick), out)
        return out

    def __len__(self) -> int:
        return len(self.game)

    def peek(self) -> Peek:
        """What this side may NOT see, for a peeking policy only (one registered with
        ``peeks=True``, whose name says so: the oracle): the opponent's hand as dealt and the
        cards it holds now (bitmasks, (m,)), and when following the lead card even if it was
        played face down (-1 otherwise). No fair policy calls it; an observation built outside
        the engine (`observation_of`, from a reference-engine View) has no hidden cards to show,
        and says so."""
        chunk, opp = self._chunk, 1 - self.side
        dealt = chunk.deals.masks[self.game, opp]
        if not dealt.all():
            raise GeolabError("this observation holds no hidden cards (only the batch engine can show them to a "
                              "peeking bot)")
        lead = chunk.lead[self.game].astype(np.int64) if self.kind == "follow" else np.full(len(self), -1, np.int64)
        return Peek(dealt, chunk.hand[self.game, opp], lead)

    def history(self) -> dict[str, np.ndarray]:
        """The finished tricks: (m, trick) arrays leader, lead, category, base, follow, winner."""
        return {k: v[self.game, : self.trick] for k, v in self._chunk.history.items()}

    def legal_cards(self) -> np.ndarray:
        """bool (m, 50): the cards this side may play or discard (its hand)."""
        return (self.hand[:, None] >> np.arange(N_CARDS)) & 1 == 1

    def view(self, i: int) -> View:
        """Row i as the reference engine's `View` for the same seat at the same moment."""
        rules = self.rules
        tricks = ()
        if self.trick:
            h = {k: v[self.game[i], : self.trick] for k, v in self._chunk.history.items()}
            tricks = tuple(
                Trick(int(h["leader"][t]), int(h["lead"][t]), int(h["category"][t]), int(h["base"][t]),
                      int(h["follow"][t]), int(h["winner"][t]))  # fmt: skip
                for t in range(self.trick)
            )
        following = self.kind == "follow"
        return View(
            rules=rules,
            side=int(self.side[i]),
            hand=cards_of(self.hand[i]),
            discards=cards_of(self.discards[i]),
            opponent_discards=None if self.opponent_discards is None else cards_of(self.opponent_discards[i]),
            first_lead=None if self.first_lead[i] < 0 else int(self.first_lead[i]),
            declarations=tuple(None if d < 0 else bool(d) for d in self.declarations[i]),
            power_bases=None if self.power_bases is None else tuple(int(b) for b in self.power_bases[i]),
            history=tricks,
            lead_category=int(self.lead_category[i]) if following else None,
            lead_base=int(self.lead_base[i]) if following else None,
            lead_card=int(self.lead_card[i]) if following and self.lead_card is not None else None,
        )


def observation_of(view: View, kind: str, key: int = 0) -> Observation:
    """The one-row `Observation` the batch engine would give the seat of `view` at this
    `kind` of decision, so a batch policy can play at the reference engine
    (`geolab.bots.ranks.seats.BotSeat`). Only what the View holds goes in: the opponent's
    hand, a hidden discard and a face-down lead are zeros or absent, as in the engine's own
    observation. `key` stands for the game's random key (``noise`` is hashed from it)."""
    rules, side = view.rules, view.side
    mask = lambda cards: sum(1 << int(c) for c in cards)  # noqa: E731
    power = None if view.power_bases is None else np.array([view.power_bases], np.int8)
    # The dealt hands and the statehood draw are hidden or past: zeros (`peek` refuses them).
    deals = Deals(np.zeros((1, 2, rules.hand_size), np.int8), np.zeros((1, 2), np.int64), np.zeros((1, 2), np.int8),
                  power, np.array([key], np.uint64))  # fmt: skip
    chunk = _Chunk(rules, deals)
    chunk.hand[0, side] = mask(view.hand)
    chunk.disc[0, side] = mask(view.discards)
    chunk.disc[0, 1 - side] = mask(view.opponent_discards or ())
    chunk.first[0] = -1 if view.first_lead is None else view.first_lead
    chunk.decl[0] = [-1 if d is None else int(d) for d in view.declarations]
    chunk.won[0] = view.tricks_won
    for t, trick in enumerate(view.history):
        chunk.played[0, trick.leader] |= 1 << trick.lead
        chunk.played[0, 1 - trick.leader] |= 1 << trick.follow
        for name in ("leader", "lead", "category", "base", "follow", "winner"):
            chunk.history[name][0, t] = getattr(trick, name)
    following = kind == "follow"
    shown = following and view.lead_card is not None
    return Observation(
        chunk, kind, view.trick, np.zeros(1, np.int64), np.array([side], np.int8), chunk.hand[:, side].copy(),
        chunk.bases(view.trick, np.zeros(1, np.int64)) if kind == "lead" else None,
        np.array([view.lead_category], np.int8) if following else None,
        np.array([view.lead_base], np.int8) if following else None,
        np.array([view.lead_card], np.int8) if shown else None,
    )  # fmt: skip


# ----- checking and applying actions -------------------------------------------------------
@njit(cache=True, nogil=True)
def _take(rows, sides, cards, hand, disc, slot, discarding):
    """Take each row's cards out of its hand (into `disc`, or the card into slot[game]).

    Returns the first row with a card that is not a card, or not (any more) in its hand, and
    that card; (-1, 0) if all are legal. A card named twice is caught the second time.
    """
    for i in range(rows.shape[0]):
        g, s = rows[i], sides[i]
        for j in range(cards.shape[1]):
            c = cards[i, j]
            if c < 0 or c >= N_CARDS or not (hand[g, s] >> c) & 1:
                return i, c
            hand[g, s] &= ~(1 << c)
            if discarding:
                disc[g, s] |= 1 << c
            else:
                slot[g] = c
    return -1, 0


@njit(cache=True, nogil=True)
def _take_leads(rows, sides, cards, category, base, bases, hand, card_slot, cat_slot, base_slot):
    """Take each row's lead card, category and base; returns the first bad row (-1 if none)
    and what is wrong with it: 0 the card, 1 the category, 2 the base."""
    for i in range(rows.shape[0]):
        g, s, c = rows[i], sides[i], cards[i]
        if c < 0 or c >= N_CARDS or not (hand[g, s] >> c) & 1:
            return i, 0
        if category[i] < 0 or category[i] > 2:
            return i, 1
        ok = False
        for b in bases[i]:
            ok |= base[i] == b
        if not ok:
            return i, 2
        hand[g, s] &= ~(1 << c)
        card_slot[g], cat_slot[g], base_slot[g] = c, category[i], base[i]
    return -1, 0


@njit(cache=True, nogil=True)
def settle(g, t, ld, a, f, k, b, played, won, n_tricks, history, follow_wins_ties):
    """Settle trick t of game g (leader ld led a in category k at base b, f followed): the
    cards played, the count, the history (leader, lead, category, base, follow, winner: (n,
    tricks) each, in a tuple); returns the winner."""
    h_leader, h_lead, h_cat, h_base, h_follow, h_winner = history
    played[g, ld] |= 1 << a
    played[g, 1 - ld] |= 1 << f
    d_lead = abs(_R[a, k] - b)
    d_follow = abs(_R[f, k] - b)
    w = 1 - ld if d_follow < d_lead or (d_follow == d_lead and follow_wins_ties) else ld
    h_leader[g, t], h_lead[g, t], h_cat[g, t], h_base[g, t], h_follow[g, t], h_winner[g, t] = ld, a, k, b, f, w
    won[g, w] += 1
    n_tricks[g] = t + 1
    return w


@njit(cache=True, nogil=True)
def over(won, g, t, tricks, end_at):
    """Is game g over after trick t?"""
    return t + 1 == tricks or max(won[g, 0], won[g, 1]) >= end_at


@njit(cache=True, nogil=True)
def _resolve(rows, t, lead, cat, base, follow, leader, played, won, n_tricks, active, history, follow_wins_ties,
             end_at, tricks):  # fmt: skip
    """Settle trick t of every row (history: as `settle` takes it): who leads next, is it over."""
    for i in range(rows.shape[0]):
        g = rows[i]
        leader[g] = settle(g, t, leader[g], lead[g], follow[g], cat[g], base[g], played, won, n_tricks, history,
                           follow_wins_ties)  # fmt: skip
        if over(won, g, t, tricks, end_at):
            active[g] = False


@njit(cache=True, nogil=True)
def statehood_first(cards, g):
    """The first lead of game g from cards (n, 2, k) (the draw, or the discards): the side
    with the statehood closest to 1."""
    a = b = N_CARDS + 1
    for c in cards[g, 0]:
        a = min(a, _R[c, STATEHOOD])
    for c in cards[g, 1]:
        b = min(b, _R[c, STATEHOOD])
    return np.int8(a >= b)


@njit(cache=True, nogil=True)
def _first_leads(cards, first):
    for g in range(first.shape[0]):
        first[g] = statehood_first(cards, g)


@njit(cache=True, nogil=True)
def _outcome(won, n_tricks, h_winner, decl, win_tricks, breaks_tie, bonus, win_points, tie_points, winner, points):
    """`reference.outcome` and `reference.points` of every game (winner -1 for a tie)."""
    for g in range(won.shape[0]):
        a, b = won[g, 0], won[g, 1]
        if a >= win_tricks:
            w = 0
        elif b >= win_tricks:
            w = 1
        elif a == b:
            w = h_winner[g, n_tricks[g] - 1] if breaks_tie and n_tricks[g] > 0 else -1
        else:  # only when a variant plays past a majority that never came
            w = 0 if a > b else 1
        winner[g] = w
        if w < 0:
            points[g, 0] = points[g, 1] = tie_points
            continue
        level = 0
        if bonus == 1:  # declaration
            level = (decl[g, 0] == 1) + (decl[g, 1] == 1)
        elif bonus == 2:  # shutout
            level = won[g, 1 - w] == 0
        points[g, w] = win_points[level]
        points[g, 1 - w] = 0


# ----- one chunk ---------------------------------------------------------------------------
def _name(policy) -> str:
    return bot_name(policy)


def _fused(policies, n: int):
    """The fused kernel that plays every policy of both seats (a seat may be a
    `geolab.lineup.Lineup`), bound to each game's (code, concede) by side, or None."""
    offers = [(member, member.fused) for seat in policies for member in each(seat)]
    if any(o is None for _, o in offers) or len({id(o[0]) for _, o in offers}) != 1:
        return None
    kernel, offered = offers[0][1][0], {id(member): o[1] for member, o in offers}
    codes, concede = np.empty((n, 2), np.int64), np.empty((n, 2), np.int64)
    for s, seat in enumerate(policies):
        for member, at in members(seat, np.arange(n)):
            codes[at, s], concede[at, s] = offered[id(member)]
    return lambda chunk: kernel(chunk, codes, concede)


class _Chunk:
    """The whole state of a chunk of games, private to the engine (and its fused kernels)."""

    def __init__(self, rules: Rules, deals: Deals):
        n, T = len(deals.keys), rules.tricks
        self.rules, self.kr, self.deals, self.n = rules, kernel_rules(rules), deals, n
        self.hand = deals.masks.copy()  # (n, 2) int64
        self.disc = np.zeros((n, 2), np.int64)
        self.discarded = np.zeros((n, 2, rules.discards), np.int8)
        self.played = np.zeros((n, 2), np.int64)
        self.won = np.zeros((n, 2), np.int8)
        self.first = np.full(n, -1, np.int8)
        self.decl = np.full((n, 2), -1, np.int8)
        self.leader = np.zeros(n, np.int8)
        self.n_tricks = np.zeros(n, np.int8)
        self.active = np.ones(n, np.bool_)
        self.lead = np.zeros(n, np.int8)
        self.cat = np.zeros(n, np.int8)
        self.base = np.zeros(n, np.int8)
        self.follow = np.zeros(n, np.int8)
        # (n, T) views of trick-major arrays, so settling a trick writes contiguous rows
        self.history = {k: np.zeros((T, n), np.int8).T for k in ("leader", "lead", "category", "base", "follow",
                                                                 "winner")}

    def bases(self, t: int, rows: np.ndarray) -> np.ndarray:
        """(m, k) the bases the lead may choose at trick t."""
        kr = self.kr
        if kr.mode == 1:
            return np.tile(kr.lead_bases.astype(np.int8), (len(rows), 1))
        if kr.mode == 2:
            return self.deals.power[rows, 0 if t < kr.split else 1].reshape(-1, 1)
        return np.full((len(rows), 1), kr.fixed[t], np.int8)

    def observe(self, kind: str, t: int, rows: np.ndarray, sides: np.ndarray) -> Observation:
        m = len(rows)
        following = kind == "follow"
        shown = following and not self.rules.hidden_lead
        hand, lead = np.empty(m, np.int64), np.empty(m if shown else 0, np.int8)
        cat, base = np.empty(m if following else 0, np.int8), np.empty(m if following else 0, np.int8)
        _observe(rows, sides, self.hand, self.lead, self.cat, self.base, hand, lead, cat, base)
        return Observation(
            self, kind, t, rows, sides, hand, self.bases(t, rows) if kind == "lead" else None,
            cat if following else None, base if following else None, lead if shown else None,
        )  # fmt: skip

    # -- decisions: ask, check, apply
    def decide(self, kind: str, t: int, rows: np.ndarray, sides: np.ndarray, policies, rng) -> None:
        if policies[0] is policies[1]:
            seats = [(policies[0], rows, sides)]
        else:
            seats = [(policies[s], rows[sides == s], sides[sides == s]) for s in (0, 1)]
        groups = [(policy, r[at], s[at]) for seat, r, s in seats for policy, at in members(seat, r)]
        for policy, r, s in groups:
            if len(r):
                obs = self.observe(kind, t, r, s)
                with asking("ranks", policy, lambda: f"trick {t + 1} {kind}" if kind in ("lead", "follow") else kind):
                    action = policy.act(obs, rng)
                getattr(self, "_" + kind)(obs, action, policy)

    def _illegal(self, policy, obs: Observation, i: int, what: str):
        where = f"trick {obs.trick + 1} {obs.kind}" if obs.kind in ("lead", "follow") else obs.kind
        return IllegalActionError(
            f"policy {_name(policy)!r}, {where}, game {int(obs.game[i])}, side {SIDES[int(obs.side[i])]}: {what}"
        )

    def _ints(self, policy, obs, value, shape, what: str) -> np.ndarray:
        try:
            a = np.asarray(value)
        except (ValueError, TypeError):  # ragged lists, objects numpy cannot read
            a = np.asarray(None)
        if a.shape != shape or not np.issubdtype(a.dtype, np.integer):
            raise self._illegal(policy, obs, 0,
                                f"{what} must be an integer array of shape {shape}, got {a.dtype} {a.shape}")
        return a.astype(np.int64, copy=False)

    def _card_error(self, policy, obs, cards, i, c, verb):
        if not 0 <= c < N_CARDS:
            return self._illegal(policy, obs, i, f"{verb} {c}, which is not a card")
        if list(cards[i]).count(c) > 1:
            return self._illegal(policy, obs, i, f"{verb} {POSTAL[c]} twice")
        return self._illegal(policy, obs, i, f"{verb} {POSTAL[c]}, which is not in its hand")

    def _discard(self, obs, action, policy):
        cards = self._ints(policy, obs, action, (len(obs), self.rules.discards), "discards")
        i, c = _take(obs.game, obs.side, cards, self.hand, self.disc, self.lead, True)
        if i >= 0:
            raise self._card_error(policy, obs, cards, i, c, "discarded")
        self.discarded[obs.game, obs.side] = cards

    def _declare(self, obs, action, policy):
        try:
            said = np.asarray(action)
        except (ValueError, TypeError):
            said = np.asarray(None)
        if said.shape != (len(obs),) or said.dtype != np.bool_:
            raise self._illegal(policy, obs, 0,
                                f"declarations must be a bool array of shape ({len(obs)},), got {said.dtype} "
                                f"{said.shape}")
        self.decl[obs.game, obs.side] = said

    def _lead(self, obs, action, policy):
        if not isinstance(action, Leads):
            raise self._illegal(policy, obs, 0,
                                f"a lead must be a Leads(card, category, base), got {type(action).__name__}")
        m = len(obs)
        cards = self._ints(policy, obs, action.card, (m,), "lead cards")
        cat = self._ints(policy, obs, action.category, (m,), "lead categories")
        if action.base is None:
            if self.kr.mode == 1:
                raise self._illegal(policy, obs, 0, "no base given; these rules let the lead choose one")
            base = obs.bases[:, 0].astype(np.int64)
        else:
            base = self._ints(policy, obs, action.base, (m,), "lead bases")
        i, what = _take_leads(obs.game, obs.side, cards, cat, base, obs.bases, self.hand, self.lead, self.cat,
                              self.base)
        if i >= 0:
            if what == 0:
                raise self._card_error(policy, obs, cards[:, None], i, cards[i], "led")
            if what == 1:
                raise self._illegal(policy, obs, i, f"named category {cat[i]}; expected 0..2 ({', '.join(CATEGORIES)})")
            allowed = ", ".join(str(b) for b in obs.bases[i])
            chose = "gave no base" if base[i] < 0 else f"chose base {base[i]}"
            raise self._illegal(policy, obs, i, f"{chose}; allowed: {allowed}")

    def _follow(self, obs, action, policy):
        cards = self._ints(policy, obs, action, (len(obs),), "follow cards")
        i, c = _take(obs.game, obs.side, cards[:, None], self.hand, self.disc, self.follow, False)
        if i >= 0:
            raise self._card_error(policy, obs, cards[:, None], i, c, "played")

    # -- the game
    def play(self, policies, rng, tricks: int | None = None) -> Played:
        """Every game of the chunk, or (`tricks`) only its first so many tricks."""
        fused = _fused(policies, self.n) if tricks is None else None
        if fused is not None:
            fused(self)
            return Played.finish(self)
        rules, kr, n = self.rules, self.kr, self.n
        every = np.arange(n)
        zeros, ones = np.zeros(n, np.int8), np.ones(n, np.int8)
        if rules.first_lead == "given":
            _first_leads(self.deals.draw[:, :, None], self.first)
        if rules.discards:
            self.decide("discard", 0, np.concatenate([every, every]), np.concatenate([zeros, ones]), policies, rng)
        if rules.first_lead == "discard-statehood":
            _first_leads(self.discarded, self.first)
        if rules.declarations:
            self.decide("declare", 0, every, self.first.copy(), policies, rng)
            self.decide("declare", 0, every, 1 - self.first, policies, rng)
        self.leader[:] = self.first
        for t in range(kr.tricks if tricks is None else min(tricks, kr.tricks)):
            rows = np.flatnonzero(self.active)
            if not len(rows):
                break
            leaders = self.leader[rows]
            self.decide("lead", t, rows, leaders, policies, rng)
            self.decide("follow", t, rows, 1 - leaders, policies, rng)
            _resolve(rows, t, self.lead, self.cat, self.base, self.follow, self.leader, self.played, self.won,
                     self.n_tricks, self.active, tuple(self.history.values()), kr.follow_wins_ties, kr.end_at,
                     kr.tricks)  # fmt: skip
        return Played.finish(self)


# ----- results -----------------------------------------------------------------------------
@dataclass
class Played:
    """Every game of a batch: the deal, each decision, and the outcome, as arrays."""

    rules: Rules
    hands: np.ndarray  # (n, 2, hand_size) as dealt
    draw: np.ndarray
    power: np.ndarray | None
    discards: np.ndarray  # (n, 2, discards) in the order chosen
    first_lead: np.ndarray  # (n,)
    declarations: np.ndarray | None  # (n, 2) bool
    history: dict[str, np.ndarray]  # (n, tricks) each; valid up to n_tricks
    n_tricks: np.ndarray
    tricks_won: np.ndarray  # (n, 2)
    winner: np.ndarray  # (n,) 0, 1, or -1 for a tie
    points: np.ndarray  # (n, 2)

    @staticmethod
    def finish(chunk: _Chunk) -> Played:
        rules, n = chunk.rules, chunk.n
        winner, points = np.empty(n, np.int8), np.empty((n, 2), np.int64)
        _outcome(chunk.won, chunk.n_tricks, chunk.history["winner"], chunk.decl, rules.win_tricks,
                 rules.last_trick_breaks_tie, BONUSES.index(rules.bonus),
                 np.array(rules.win_points, np.int64), rules.tie_points, winner, points)  # fmt: skip
        declared = chunk.decl == 1 if rules.declarations else None
        won, h = chunk.won, chunk.history
        return Played(rules, chunk.deals.hands, chunk.deals.draw, chunk.deals.power, chunk.discarded, chunk.first,
                      declared, h, chunk.n_tricks, won, winner, points)  # fmt: skip

    def __len__(self) -> int:
        return len(self.winner)

    def game(self, i: int) -> Game:
        """Game i as a reference-engine `Game` (for records and replay)."""
        h = {k: v[i] for k, v in self.history.items()}
        g = Game(
            self.rules,
            (tuple(int(c) for c in self.hands[i, 0]), tuple(int(c) for c in self.hands[i, 1])),
            (tuple(int(c) for c in self.discards[i, 0]), tuple(int(c) for c in self.discards[i, 1])),
            int(self.first_lead[i]),
            None if self.declarations is None else (bool(self.declarations[i, 0]), bool(self.declarations[i, 1])),
            None if self.power is None else (int(self.power[i, 0]), int(self.power[i, 1])),
        )
        for t in range(int(self.n_tricks[i])):
            g.tricks.append(Trick(int(h["leader"][t]), int(h["lead"][t]), int(h["category"][t]), int(h["base"][t]),
                                  int(h["follow"][t]), int(h["winner"][t])))  # fmt: skip
        return g

    @staticmethod
    def concatenate(parts: Sequence[Played]) -> Played:
        first = parts[0]
        cat = lambda name: None if getattr(first, name) is None else np.concatenate([getattr(p, name) for p in parts])  # noqa: E731
        return Played(
            first.rules, cat("hands"), cat("draw"), cat("power"), cat("discards"), cat("first_lead"),
            cat("declarations"), {k: np.concatenate([p.history[k] for p in parts]) for k in first.history},
            cat("n_tricks"), cat("tricks_won"), cat("winner"), cat("points"),
        )  # fmt: skip


# ----- running many chunks -----------------------------------------------------------------
def run(
    rules: Rules,
    policies: Sequence,
    games: int,
    seed: int,
    chunk: int = CHUNK,
    block: int = BLOCK,
    threads: int | None = None,
    stream: int = 0,
    start: int = 0,
) -> Iterator[Played]:
    """Play `games` deals from deal `start` on (a whole number of blocks), yielding one
    `Played` per chunk, in order.

    `policies[s]` plays side s (A, B). The deals depend on the seed only; `stream` picks the
    per-chunk generator policies may draw from, so each seating of a duplicate match (the
    bots swapped: stream 1) has its own. Chunks are rounded up to a whole number of blocks;
    the last chunk is cut to `games`. The numbers are checked, and the chunks run on
    `threads` threads (default: one per core, one if a policy is not thread-safe), a few at a
    time, by `geolab.common.chunks`.
    """
    rules.validate()
    first, per, starts, total = chunks.plan(games, start, chunk, block, CHUNK, policies,
                                            needs="a game needs two policies, one per side", stream=stream)
    seats = tuple(policies)

    def one(b0: int) -> Played:
        nb = min(per, total - b0)
        deals = deal(rules, seed, first + b0, nb, block)
        cut = min(nb * block, games - b0 * block)
        deals = deals.head(cut)
        rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(first + b0, stream + 1)))
        return _Chunk(rules, deals).play(seats, rng)

    return chunks.iterate(one, starts, policies, threads)


def play(rules: Rules, policies: Sequence, games: int, seed: int, **options) -> Played:
    """All games of `run` in one `Played` (for small batches: tests, records, analysis)."""
    if games < 1:
        raise GeolabError(f"games must be at least 1, got {games}")
    return Played.concatenate(list(run(rules, policies, games, seed, **options)))


#: Row s: the statehood draw that gives side s the first lead (Delaware, 1st, to s; Pennsylvania, 2nd).
_EARLIEST = np.argsort(RANKS[:, STATEHOOD])[:2]
_LEAD_DRAW = np.array([_EARLIEST, _EARLIEST[::-1]], np.int8)


def play_given(rules: Rules, policies: Sequence, deals: Deals, first: np.ndarray, rng: np.random.Generator) -> Played:
    """These deals played in one chunk, side ``first[i]`` leading game i first: a match's
    stage, where the rules take the first lead from outside the deal (GeoDouble's dealer).
    The engine reads a given first lead from the statehood draw, so the deals' draw is
    replaced by one that gives it."""
    if rules.first_lead != "given":
        raise GeolabError(f"first leads are given only where the rules take them from outside the deal, "
                          f"not under first_lead={rules.first_lead!r}")
    if len(policies) != 2:
        raise GeolabError("a game needs two policies, one per side")
    given = Deals(deals.hands, deals.masks, _LEAD_DRAW[np.asarray(first, np.int64)], deals.power, deals.keys)
    return _Chunk(rules, given).play(tuple(policies), rng)


# ----- the bridge to one-game seats --------------------------------------------------------
class SeatPolicy(BatchBot):
    """Plays a reference-engine `Seat` in the batch engine, one row (one View) at a time."""

    thread_safe = False

    def __init__(self, seat, name: str | None = None):
        self.seat = seat
        self.name = name or getattr(seat, "name", type(seat).__name__)

    def act(self, obs: Observation, rng):
        views = [obs.view(i) for i in range(len(obs))]
        if obs.kind == "discard":
            chosen = [list(self.seat.discard(v)) for v in views]
            if any(len(c) != obs.rules.discards for c in chosen):
                return np.array(chosen, dtype=object)  # the engine names the wrong shape
            return np.array(chosen, dtype=np.int64).reshape(len(obs), obs.rules.discards)
        if obs.kind == "declare":
            said = [self.seat.declare(v) for v in views]
            return (np.array(said) if all(isinstance(s, (bool, np.bool_)) for s in said)
                    else np.array(said, dtype=object))
        if obs.kind == "lead":
            leads: list[Lead] = [self.seat.lead(v) for v in views]
            base = None
            if any(ld.base is not None for ld in leads) or obs.rules.base_mode == "lead":
                # as the reference engine: no base means the fixed one, where the base is fixed
                fixed = obs.rules.base_mode != "lead"
                base = np.array([obs.bases[i, 0] if ld.base is None and fixed else -1 if ld.base is None else ld.base
                                 for i, ld in enumerate(leads)])  # fmt: skip
            return Leads(np.array([ld.card for ld in leads]), np.array([ld.category for ld in leads]), base)
        return np.array([self.seat.follow(v) for v in views])


# ----- rollouts from reference states (the optional part `rollouts`) ------------------------
class Scripted(BatchBot):
    """One side's answers in rollouts from known states: the decisions made before the
    rollouts start, row by row (``script[(kind, trick)]``: an answer per row), then `bot`'s.
    With ``misses`` (an array, a count per row) it also asks `bot` at each scripted decision
    and counts the rows where it would have answered otherwise."""

    thread_safe = False

    def __init__(self, bot, script: dict, misses: np.ndarray | None = None):
        self.bot, self.script, self.misses, self.name = bot, script, misses, bot.name

    def act(self, obs: Observation, rng):
        answers = self.script.get((obs.kind, obs.trick))
        if answers is None:
            return self.bot.act(obs, rng)
        rows = obs.game
        if obs.kind == "lead":
            card, category, base = answers
            scripted = Leads(card[rows], category[rows], None if base is None else base[rows])
        else:
            scripted = answers[rows]
        if self.misses is not None:
            self.misses[rows] += ~_same(obs, self.bot.act(obs, rng), scripted)
        return scripted


def _same(obs: Observation, a, b) -> np.ndarray:
    """Per row, whether two answers of the batch engine are the same decision."""
    if obs.kind == "discard":
        return (np.sort(np.asarray(a, np.int64), axis=1) == np.sort(np.asarray(b, np.int64), axis=1)).all(axis=1)
    if obs.kind == "lead":
        same = (np.asarray(a.card) == b.card) & (np.asarray(a.category) == b.category)
        if a.base is not None and b.base is not None:
            same &= np.asarray(a.base) == b.base
        elif (a.base is None) != (b.base is None):  # one gives the fixed base, the other leaves it out
            given = a.base if a.base is not None else b.base
            same &= np.asarray(given) == obs.bases[:, 0]
        return same
    return np.asarray(a) == np.asarray(b)


def _answers(kind: str, actions: Sequence, rules: Rules):
    """Reference actions of one kind (a row each) as the batch engine's answers."""
    if kind == "discard":
        return np.array([list(a) for a in actions], np.int64).reshape(len(actions), rules.discards)
    if kind == "declare":
        return np.array(actions, bool)
    if kind == "lead":
        fixed = rules.base_mode != "lead"
        base = None if fixed and all(a.base is None for a in actions) else \
            np.array([-1 if a.base is None else a.base for a in actions], np.int64)
        return (np.array([a.card for a in actions], np.int64), np.array([a.category for a in actions], np.int64),
                base)
    return np.array(actions, np.int64)


def rollouts(rules: Rules, states: Sequence, actions: Sequence | None, seat: int, bots: Sequence,
             rng: np.random.Generator, finish: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """Row i: reference state ``states[i]`` (all at the same decision of `seat`, on the same
    public history: one seat's determinizations; a `Resampled` deal and log will do as well),
    `seat` plays ``actions[i]`` there, then
    ``bots[s]`` play side s to the end, all rows in one chunk of the batch engine. Returns
    `seat`'s win share per row. The log before the decision, and the action, are replayed by
    a script (`Scripted`); hidden choices (discards, a face-down lead) are each state's own.
    ``actions`` None: `seat`'s bot plays the decision too. Also returns, per row, how many
    of the other seat's decisions in the log its bot would have made otherwise; with
    ``finish`` False only those (the rows stop after the trick asked now, the win shares are
    meaningless)."""
    n = len(states)
    hands = np.array([[sorted(s.deal.hands[0]), sorted(s.deal.hands[1])] for s in states], np.int8)
    masks = np.array([[sum(1 << int(c) for c in h) for h in s.deal.hands] for s in states], np.int64)
    first = np.array([s.deal.given_lead() or 0 for s in states], np.int64)
    power = None if rules.base_mode != "power" else np.array([s.deal.power_bases for s in states], np.int8)
    deals = Deals(hands, masks, _LEAD_DRAW[first], power, rng.integers(0, 2**63, size=n, dtype=np.int64))
    scripts: list[dict] = [{}, {}]
    logs = [[e[1] for e in s.log if e[0] == "ask"] for s in states]
    kinds = _kinds(rules, states[0])
    for k, asked in enumerate(kinds):
        last = k == len(logs[0])
        for side, (kind, trick) in asked.items():
            if last and (side != seat or actions is None):
                continue  # the bots decide from here
            picks = list(actions) if last else [log[k][side] for log in logs]
            scripts[side][(kind, trick)] = _answers(kind, picks, rules)
    misses = np.zeros(n, np.int64)
    sides = tuple(Scripted(b, sc, None if s == seat else misses) for s, (b, sc) in enumerate(zip(bots, scripts)))
    now = max(trick + (kind in ("lead", "follow")) for kind, trick in kinds[-1].values()) if kinds[-1] else None
    played = _Chunk(rules, deals).play(sides, rng, None if finish else now)
    return np.where(played.winner < 0, 0.5, (played.winner == seat).astype(float)), misses


_KINDS: dict = {}  # what `_kinds` found, by the log's public face


def _kinds(rules: Rules, state) -> list[dict]:
    """Each ask of the state's log, and the one asked now: {side: (kind, trick)}. They follow
    from what the log shows every seat, so one seat's determinizations (the rollouts of one
    decision, a posterior chain's steps) replay it once."""
    key = (rules, state.deal.given_lead(), state.deal.power_bases, _public(rules, state.log))
    if key not in _KINDS:
        if len(_KINDS) > 4096:
            _KINDS.clear()
        _KINDS[key] = _replayed_kinds(rules, state)
    return _KINDS[key]


def _public(rules: Rules, log) -> tuple:
    """The log as both seats see it: a hidden discard as how many cards, a face-down lead on
    the table as its category and base (where the discards choose the first lead, they stay)."""
    hidden = not rules.discards_public and rules.first_lead != "discard-statehood"
    shown = []
    for k, (kind, value) in enumerate(log):
        if kind != "ask":
            shown.append((kind, value))
            continue
        row = []
        for side, a in sorted(value.items()):
            if hidden and isinstance(a, tuple) and not isinstance(a, Lead):
                a = len(a)
            elif isinstance(a, Lead) and rules.hidden_lead and k == len(log) - 1:
                a = (a.category, a.base)
            row.append((side, a))
        shown.append(tuple(row))
    return tuple(shown)


def _replayed_kinds(rules: Rules, state) -> list[dict]:
    kinds, replay = [], ENGINE.state(rules, state.deal)
    for kind, value in state.log:
        if kind == "chance":
            replay.apply_chance(value)
            continue
        kinds.append({d.seat: (d.kind, d.observation.trick) for d in replay.decisions()})
        replay.apply(value)
    return kinds + [{d.seat: (d.kind, d.observation.trick) for d in replay.decisions()}]
