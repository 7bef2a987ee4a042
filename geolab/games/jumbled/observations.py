"""Jumbled GeoPower Choice: observations, what one seat may see of a batch of rounds; and,
for the step-wise state (`geolab.stepwise`), a seat's `View` as text and as a tensor and the
fixed index of every action (the scheme and the layout: docs/rules-jumbled.md, "Step-wise
state: actions, observations, resampling").
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb
from typing import TYPE_CHECKING

import numpy as np

from geolab.cards import N_CARDS, POSTAL
from geolab.common.card_sets import set_of, set_rank
from geolab.errors import IllegalActionError
from geolab.game import Decision, shown
from geolab.games.jumbled.reference import View, category_probs
from geolab.games.jumbled.rules import CALLS, SEAT_LETTERS, Rules
from geolab.games.jumbled.views import score_lines, story
from geolab.stepwise import legal_index, refuse

if TYPE_CHECKING:
    from geolab.games.jumbled.batch import BatchRound


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


def readonly(a: np.ndarray) -> np.ndarray:
    v = a.view()
    v.flags.writeable = False
    return v


def observe(rnd: BatchRound, game: np.ndarray, seat: np.ndarray, scores: np.ndarray,
            dealer: np.ndarray, round_index: int) -> Observation:
    """The observation of the listed (game, seat) rows at the current set."""
    return Observation(
        rnd.rules, round_index, rnd.set_index, game, seat,
        rnd.hands[game, seat], rnd.used[game, seat], readonly(rnd.calls), readonly(dealer),
        readonly(scores), readonly(rnd.cards), rnd.turned,
    )


# ----- the step-wise state's actions ----------------------------------------------------------
#: A set choice is indexed by its cards while choices of up to this many cards fit a moderate
#: number of indices (20,875 with three: 50 + 1,225 + 19,600); beyond, by its slots in the hand.
CARD_INDEXED_MAX = 3


def _sizes(rules: Rules) -> range:
    return range(1, rules.max_cards_per_set + 1)


def num_actions(rules: Rules) -> int:
    """The calls (`CALLS`), then every set choice: each set of 1..max_cards_per_set of the 50
    cards, or with more cards a set than `CARD_INDEXED_MAX`, each non-empty set of hand slots."""
    rules = rules.validate()
    if rules.max_cards_per_set <= CARD_INDEXED_MAX:
        return len(CALLS) + sum(comb(N_CARDS, k) for k in _sizes(rules))
    return len(CALLS) + (1 << rules.cards_dealt) - 1


def action_id(rules: Rules, decision: Decision, action) -> int:
    """A call's position in `CALLS`; a set choice of k cards c1 < ... < ck: after the calls and
    every choice of fewer cards, its rank C(c1, 1) + ... + C(ck, k) among the k-card sets of
    the deck (or, with more than `CARD_INDEXED_MAX` cards a set, its slot mask over the hand as
    dealt, less one). An action the decision does not allow is an `IllegalActionError`."""
    i = legal_index(decision, action)
    if i < 0:
        raise refuse(decision, action)
    action = decision.legal[i]
    if decision.kind == "call":
        return CALLS.index(action)
    if rules.max_cards_per_set <= CARD_INDEXED_MAX:
        before = sum(comb(N_CARDS, k) for k in range(1, len(action)))
        return len(CALLS) + before + set_rank(action)
    hand = decision.observation.hand
    return len(CALLS) + sum(1 << hand.index(c) for c in action) - 1


def action_of(rules: Rules, decision: Decision, index: int):
    """The legal action `index` names (`action_id` backwards), or an `IllegalActionError`."""
    if isinstance(index, bool) or not isinstance(index, (int, np.integer)) or not 0 <= index < num_actions(rules):
        raise IllegalActionError(f"{decision.where}: action index {shown(index)} is not within "
                                 f"0..{num_actions(rules) - 1}")
    index = int(index)
    if index < len(CALLS):
        action = CALLS[index] if decision.kind == "call" else None
    elif decision.kind == "call":
        action = None
    elif rules.max_cards_per_set <= CARD_INDEXED_MAX:
        action = _cards_in_hand(decision.observation.hand, _unranked(index - len(CALLS)))
    else:
        mask = index - len(CALLS) + 1
        action = tuple(c for i, c in enumerate(decision.observation.hand) if mask >> i & 1)
    if action is None or legal_index(decision, action) < 0:
        raise IllegalActionError(f"{decision.where}: action index {index} names no legal {decision.kind} "
                                 f"of {SEAT_LETTERS[decision.seat]}")
    return action


def _unranked(rank: int) -> set[int]:
    """The set of cards whose choice rank (`action_id` less the calls) is `rank`: past the
    sets of fewer cards, a `set_of` its size."""
    k = 1
    while rank >= comb(N_CARDS, k):
        rank -= comb(N_CARDS, k)
        k += 1
    return set(set_of(rank, k))


def _cards_in_hand(hand, cards: set[int]):
    """`cards` as a choice lists them, in the order dealt; None unless all are in the hand."""
    ordered = tuple(c for c in hand if c in cards)
    return ordered if len(ordered) == len(cards) else None


# ----- the step-wise state's observations -----------------------------------------------------
def tensor_size(rules: Rules) -> int:
    """`observation_tensor`'s length: 2P + 2 + 1 + P + (S + 1) + 2 x 50 + S x (3 + 51P)."""
    rules = rules.validate()
    P, S = rules.players, rules.sets_per_round
    return 2 * P + len(CALLS) + 1 + P + (S + 1) + 2 * N_CARDS + S * (3 + P * (N_CARDS + 1))


def observation_tensor(rules: Rules, seat: int, view: View) -> np.ndarray:
    """The view as float32, in this order: seat (one-hot, P), dealer (one-hot, P), the call
    (one-hot over `CALLS`; zeros while the dealer calls), the round number (0 first), each
    seat's points before the round over the target (P), the set being chosen (one-hot over
    0..S, S once the round is over), the hand as dealt and the cards still held (50 each, by
    card), then each of the S sets of the round (zeros until played): its GeoPower word
    (one-hot, 3), each seat's laid cards (50 each) and who won it (P)."""
    rules = rules.validate()
    P, S = rules.players, rules.sets_per_round
    out = np.zeros(tensor_size(rules), np.float32)
    out[seat] = 1
    out[P + view.dealer] = 1
    at = 2 * P
    if view.call is not None:
        out[at + CALLS.index(view.call)] = 1
    at += len(CALLS)
    out[at] = view.round_index
    out[at + 1:at + 1 + P] = np.array(view.scores, np.float32) / rules.target
    at += 1 + P
    out[at + view.set_index] = 1
    at += S + 1
    out[at + np.array(view.hand, np.int64)] = 1
    out[at + N_CARDS + np.array(view.left, np.int64)] = 1
    at += 2 * N_CARDS
    per_set = 3 + P * (N_CARDS + 1)
    for s, seen in enumerate(view.sets):
        base = at + s * per_set
        out[base + seen.category] = 1
        for p, play in enumerate(seen.plays):
            out[base + 3 + p * N_CARDS + np.array(play, np.int64)] = 1
        out[base + 3 + P * N_CARDS + np.array(seen.winners, np.int64)] = 1
    return out


def observation_string(rules: Rules, seat: int, view: View) -> str:
    """The view as text: the seat, where the game stands, the scores, its hand as dealt and
    what it still holds, then every public happening so far (`geolab.games.jumbled.views.story`:
    each round's call, every set's cards and winners, the points), earlier rounds first."""
    where = (f"round {view.round_index + 1}, {SEAT_LETTERS[view.dealer]} to call" if view.call is None
             else f"round {view.round_index + 1}, set {view.set_index + 1} of {rules.sets_per_round}"
             if view.set_index < rules.sets_per_round else f"round {view.round_index + 1} over")
    lines = [f"Seat {SEAT_LETTERS[seat]}: {where}", *score_lines(rules, view.scores, seat, "Score before the round:")]
    if view.call is not None:
        lines += [f"Dealt: {' '.join(POSTAL[c] for c in view.hand)}", f"Held: {' '.join(POSTAL[c] for c in view.left)}"]
    current = None if view.call is None else (view.dealer, view.call, view.sets)
    return "\n".join(lines + story(rules, seat, view.history, current))
