"""Features a person can read, one row per candidate action, from public information only.

A learned policy scores every legal action of a decision and takes the best. This module
lists the candidates of each decision kind and describes each by a few numbers a player
would name: how close the card lies to the base, the chance it wins (counted over the cards
this side has not seen), what the card is worth later, whether the greedy rule of thumb
would pick it. `public(obs)` is the only place that reads an `Observation`, and it reads only
what the deciding side may see: its hand, its discards, public discards, played cards,
tricks won, the lead card when it is face-up, bases, declarations. Nothing else can leak in.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np
from numba import njit

from geolab.bots.ranks.heuristics import GreedyPolicy
from geolab.cards import N_CARDS, RANKS, STATEHOOD
from geolab.common.bits import lowest
from geolab.games.ranks.batch import Observation, future_bases, kernel_rules, uselessness
from geolab.games.ranks.rules import Rules

_R = RANKS.astype(np.int64)

FEATURES: dict[str, tuple[str, ...]] = {
    "discard": (
        "usefulness",  # 1 - distance of the card's best rank to the nearest base of the deal, /49
        "size_closeness", "statehood_closeness", "population_closeness",  # per category, same scale
        "second_best_closeness",  # its second-best category: a card good twice over is flexible
        "value_rank",  # 0 = the most useful card of the hand, 1 = the least
        "greedy_choice",  # 1 if greedy discards it
        "first_lead_chance",  # face-up discards: share of unseen cards with worse statehood
        "same_extreme_cover",  # other cards of the hand within 10 of this card's best extreme
        "near_extremes",  # categories within 5 of a base, /3
    ),
    "declare": (
        "declare",  # 1 for "declare", 0 for "do not" (every feature is 0 for "do not")
        "cards_within_3",  # cards within 3 of a base, / tricks needed to win
        "cards_within_8",
        "mean_usefulness",
        "greedy_choice",
        "other_declared",  # the side that spoke first declared
        "speaks_first",
    ),
    "lead": (
        "distance_to_base",  # |rank - base| / 49 in the named category
        "chance_unbeaten",  # P(no card of the opponent's hand beats it), over unseen cards
        "future_value",  # the card's usefulness for the tricks after this one
        "value_rank",
        "greedy_choice",
        "unbeaten_x_tricks_needed",  # chance_unbeaten x share of the tricks this side still needs
        "unbeaten_x_opponent_close",  # chance_unbeaten x how close the opponent is to winning
        "future_value_x_tricks_left",
        "high_base",  # the lead names base >= 26 (only a choice under Level 2)
        "beaters_share",  # share of the unseen cards that beat it
    ),
    "follow": (
        "chance_to_win",  # 1/0 against a face-up lead; against a face-down one, share of unseen cards it beats
        "distance_to_base",
        "future_value",
        "value_rank",
        "greedy_choice",
        "win_x_tricks_needed",
        "win_x_opponent_close",
        "win_x_future_value",  # spending a good card to win
        "future_value_x_tricks_left",
        "win_x_decisive",  # this trick can decide the deal
    ),
}


@dataclass
class Public:
    """What the deciding side may see, as arrays of m rows; sides are relative (0 = me)."""

    kind: str
    trick: int
    hand: np.ndarray  # int64 masks
    unseen: np.ndarray  # int64 masks: cards this side has not seen (opponent hand + hidden cards + deck)
    won: np.ndarray  # (m, 2) tricks won by me, by the opponent
    lead_card: np.ndarray  # (m,) face-up lead card, -1 when none or face-down
    lead_category: np.ndarray  # (m,) -1 when not following
    lead_base: np.ndarray
    bases: np.ndarray  # (m, nb) bases the lead may choose (lead), else (m, 1) zeros
    power: np.ndarray  # (m, 2) Power-card bases, zeros when the rules have none
    other_declared: np.ndarray  # (m,) -1 not said, 0, 1
    # (m, g): greedy's choice (discards: cards; lead: card, category, base; follow: card; declare: 0/1)
    greedy: np.ndarray

    def take(self, rows: np.ndarray) -> Public:
        return Public(self.kind, self.trick, *(getattr(self, f.name)[rows] for f in fields(self)[2:]))

    def __len__(self) -> int:
        return len(self.hand)


def _masks(cards: np.ndarray | None, m: int) -> np.ndarray:
    return np.zeros(m, np.int64) if cards is None else np.asarray(cards, np.int64)


def public(obs: Observation) -> Public:
    """The public part of an observation, with greedy's choice for the same decision."""
    m, rows = len(obs), np.arange(len(obs))
    side = obs.side.astype(np.int64)
    played = obs.played
    seen = obs.hand | _masks(obs.discards, m) | _masks(obs.opponent_discards, m)
    seen = seen | played[rows, 0] | played[rows, 1]
    lead_card = np.full(m, -1, np.int64)
    lead_category, lead_base = np.full(m, -1, np.int64), np.zeros(m, np.int64)
    if obs.kind == "follow":
        lead_category, lead_base = obs.lead_category.astype(np.int64), obs.lead_base.astype(np.int64)
        if obs.lead_card is not None:
            lead_card = obs.lead_card.astype(np.int64)
            seen = seen | (np.int64(1) << lead_card)
    won = obs.tricks_won.astype(np.int64)
    declared = obs.declarations.astype(np.int64)
    choice = GreedyPolicy().act(obs, None)
    if obs.kind == "lead":
        base = choice.base if choice.base is not None else obs.bases[:, 0]
        greedy = np.stack([choice.card, choice.category, base], axis=1).astype(np.int64)
    else:
        greedy = np.asarray(choice).astype(np.int64).reshape(m, -1)
    return Public(
        kind=obs.kind,
        trick=obs.trick,
        hand=obs.hand.astype(np.int64),
        unseen=np.int64((1 << obs.rules.deck) - 1) & ~seen,
        won=np.stack([won[rows, side], won[rows, 1 - side]], axis=1),
        lead_card=lead_card,
        lead_category=lead_category,
        lead_base=lead_base,
        bases=obs.bases.astype(np.int64) if obs.kind == "lead" else np.zeros((m, 1), np.int64),
        power=np.zeros((m, 2), np.int64) if obs.power_bases is None else obs.power_bases.astype(np.int64),
        other_declared=declared[rows, 1 - side],
        greedy=greedy,
    )


# ----- kernels -----------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def _count(mask):
    n = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n


@njit(cache=True, nogil=True)
def _value(c, mask):
    return 1.0 - uselessness(c, mask) / 49.0


@njit(cache=True, nogil=True)
def _value_rank(c, hand, mask):
    """Share of the other cards in the hand more useful than c (0 = c is the most useful)."""
    v, above, n, h = uselessness(c, mask), 0, 0, hand
    while h:
        x = lowest(h)
        h &= h - 1
        if x != c:
            n += 1
            above += uselessness(x, mask) < v
    return above / max(n, 1)


@njit(cache=True, nogil=True)
def _no_beater(unseen_n, beaters, held):
    """P(none of `held` cards drawn from `unseen_n`, `beaters` of them beating, is a beater)."""
    p = 1.0
    for i in range(held):
        if unseen_n - i <= 0:
            return 1.0
        p *= max(unseen_n - beaters - i, 0) / (unseen_n - i)
    return p


@njit(cache=True, nogil=True)
def _lead_kernel(hand, unseen, bases, won, power, greedy, t, kr, card, cat, base, valid, X):
    """The lead candidates' features under the rules `kr` (`ranks.batch.KernelRules`)."""
    mode, _, _, masks, split, T, fwt, win_tricks, _, _ = kr
    nb = bases.shape[1]
    below = np.zeros((3, nb, N_CARDS + 1), np.int64)  # below[k, q, d]: unseen cards nearer than d
    useless = np.zeros(N_CARDS, np.int64)
    for i in range(hand.shape[0]):
        future = future_bases(mode, masks, split, power[i, 0], power[i, 1], t + 1)
        need_me = (win_tricks - won[i, 0]) / win_tricks
        opp_close = won[i, 1] / win_tricks
        left = (T - t - 1) / T
        u_n = _count(unseen[i])
        below[:] = 0
        u = unseen[i]
        while u:
            x = lowest(u)
            u &= u - 1
            for k in range(3):
                for q in range(nb):
                    below[k, q, abs(_R[x, k] - bases[i, q]) + 1] += 1
        for k in range(3):
            for q in range(nb):
                for d in range(1, N_CARDS + 1):
                    below[k, q, d] += below[k, q, d - 1]
        h, n_hand = hand[i], 0
        while h:
            c = lowest(h)
            h &= h - 1
            useless[n_hand] = uselessness(c, future)
            n_hand += 1
        h, j, ci = hand[i], 0, 0
        while h:
            c = lowest(h)
            h &= h - 1
            fv = 1.0 - useless[ci] / 49.0
            above = 0
            for o in range(n_hand):
                above += useless[o] < useless[ci]
            vr = above / max(n_hand - 1, 1)
            ci += 1
            for k in range(3):
                for q in range(nb):
                    b = bases[i, q]
                    d = abs(_R[c, k] - b)
                    # nearer, or as near when ties go to the follower
                    beaters = below[k, q, d + 1] if fwt else below[k, q, d]
                    p = _no_beater(u_n, beaters, T - t)
                    card[i, j], cat[i, j], base[i, j], valid[i, j] = c, k, b, True
                    X[i, j, 0] = d / 49.0
                    X[i, j, 1] = p
                    X[i, j, 2] = fv
                    X[i, j, 3] = vr
                    X[i, j, 4] = c == greedy[i, 0] and k == greedy[i, 1] and b == greedy[i, 2]
                    X[i, j, 5] = p * need_me
                    X[i, j, 6] = p * opp_close
                    X[i, j, 7] = fv * left
                    X[i, j, 8] = b >= 26
                    X[i, j, 9] = beaters / max(u_n, 1)
                    j += 1


@njit(cache=True, nogil=True)
def _follow_kernel(hand, unseen, lead, cat, base, won, power, greedy, t, kr, card, valid, X):
    """The follow candidates' features under the rules `kr` (`ranks.batch.KernelRules`)."""
    mode, _, _, masks, split, T, fwt, win_tricks, _, _ = kr
    for i in range(hand.shape[0]):
        future = future_bases(mode, masks, split, power[i, 0], power[i, 1], t + 1)
        k, b = cat[i], base[i]
        need_me = (win_tricks - won[i, 0]) / win_tricks
        opp_close = won[i, 1] / win_tricks
        left = (T - t - 1) / T
        decisive = won[i, 0] + 1 >= win_tricks or won[i, 1] + 1 >= win_tricks or t == T - 1
        u_n = _count(unseen[i])
        h, j = hand[i], 0
        while h:
            c = lowest(h)
            h &= h - 1
            d = abs(_R[c, k] - b)
            if lead[i] >= 0:
                dl = abs(_R[lead[i], k] - b)
                win = 1.0 if d < dl or (d == dl and fwt) else 0.0
            else:  # face-down lead: the share of unseen cards this one beats
                beaten, u = 0, unseen[i]
                while u:
                    x = lowest(u)
                    u &= u - 1
                    du = abs(_R[x, k] - b)
                    beaten += d < du or (d == du and fwt)
                win = beaten / max(u_n, 1)
            fv = _value(c, future)
            card[i, j], valid[i, j] = c, True
            X[i, j, 0] = win
            X[i, j, 1] = d / 49.0
            X[i, j, 2] = fv
            X[i, j, 3] = _value_rank(c, hand[i], future)
            X[i, j, 4] = c == greedy[i, 0]
            X[i, j, 5] = win * need_me
            X[i, j, 6] = win * opp_close
            X[i, j, 7] = win * fv
            X[i, j, 8] = fv * left
            X[i, j, 9] = win * decisive
            j += 1


@njit(cache=True, nogil=True)
def _discard_kernel(hand, unseen, power, greedy, by_statehood, mode, masks, split, card, valid, X):
    for i in range(hand.shape[0]):
        deal_bases = future_bases(mode, masks, split, power[i, 0], power[i, 1], 0)
        h, j = hand[i], 0
        n_hand = _count(hand[i])
        u_n = _count(unseen[i])
        while h:
            c = lowest(h)
            h &= h - 1
            best_k, best_b, best_d = 0, 0, 1 << 30
            dk0, dk1, dk2 = 1 << 30, 1 << 30, 1 << 30
            m = deal_bases
            while m:
                b = lowest(m)
                m &= m - 1
                dk0, dk1, dk2 = min(dk0, abs(_R[c, 0] - b)), min(dk1, abs(_R[c, 1] - b)), min(dk2, abs(_R[c, 2] - b))
                for k in range(3):
                    if abs(_R[c, k] - b) < best_d:
                        best_k, best_b, best_d = k, b, abs(_R[c, k] - b)
            c0, c1, c2 = 1.0 - dk0 / 49.0, 1.0 - dk1 / 49.0, 1.0 - dk2 / 49.0
            second = max(min(c0, c1), min(max(c0, c1), c2))  # the median of the three
            cover, o = 0, hand[i]
            while o:
                x = lowest(o)
                o &= o - 1
                cover += x != c and abs(_R[x, best_k] - best_b) <= 10
            worse, u = 0, unseen[i]
            if by_statehood:
                while u:
                    x = lowest(u)
                    u &= u - 1
                    worse += _R[x, STATEHOOD] > _R[c, STATEHOOD]
            is_greedy = False
            for q in range(greedy.shape[1]):
                is_greedy |= greedy[i, q] == c
            card[i, j], valid[i, j] = c, True
            X[i, j, 0] = _value(c, deal_bases)
            X[i, j, 1] = c0
            X[i, j, 2] = c1
            X[i, j, 3] = c2
            X[i, j, 4] = second
            X[i, j, 5] = _value_rank(c, hand[i], deal_bases)
            X[i, j, 6] = is_greedy
            X[i, j, 7] = worse / max(u_n, 1)
            X[i, j, 8] = cover / max(n_hand - 1, 1)
            X[i, j, 9] = ((dk0 <= 5) + (dk1 <= 5) + (dk2 <= 5)) / 3
            j += 1


@njit(cache=True, nogil=True)
def _declare_kernel(hand, power, greedy, other, win_tricks, mode, masks, split, X):
    for i in range(hand.shape[0]):
        deal_bases = future_bases(mode, masks, split, power[i, 0], power[i, 1], 0)
        n3, n8, total, n, h = 0, 0, 0.0, 0, hand[i]
        while h:
            c = lowest(h)
            h &= h - 1
            u = uselessness(c, deal_bases)
            n3 += u <= 3
            n8 += u <= 8
            total += 1.0 - u / 49.0
            n += 1
        X[i, 1, 0] = 1.0
        X[i, 1, 1] = n3 / win_tricks
        X[i, 1, 2] = n8 / win_tricks
        X[i, 1, 3] = total / max(n, 1)
        X[i, 1, 4] = greedy[i, 0] == 1
        X[i, 1, 5] = other[i] == 1
        X[i, 1, 6] = other[i] < 0


# ----- candidates --------------------------------------------------------------------------
@dataclass
class Candidates:
    """The legal actions of m decisions, padded to K columns, with their features.

    `card` (m, K); for leads also `category` and `base`; for declarations the action is the
    column (0 = no, 1 = yes). `valid` (m, K) marks real candidates; `X` (m, K, F) float32.
    """

    card: np.ndarray
    valid: np.ndarray
    X: np.ndarray
    category: np.ndarray | None = None
    base: np.ndarray | None = None


def candidates(rules: Rules, p: Public) -> Candidates:
    """Every legal action of each row (a lead: every card x category x allowed base)."""
    kr = kernel_rules(rules)
    m, F = len(p), len(FEATURES[p.kind])
    if p.kind == "declare":
        X = np.zeros((m, 2, F), np.float32)
        _declare_kernel(p.hand, p.power, p.greedy, p.other_declared, kr.win_tricks, kr.mode, kr.base_masks, kr.split, X)
        return Candidates(np.tile(np.arange(2), (m, 1)), np.ones((m, 2), bool), X)
    if p.kind == "discard":
        K = rules.hand_size
        card, valid, X = np.zeros((m, K), np.int64), np.zeros((m, K), bool), np.zeros((m, K, F), np.float32)
        by_statehood = rules.first_lead == "discard-statehood"
        _discard_kernel(p.hand, p.unseen, p.power, p.greedy, by_statehood, kr.mode, kr.base_masks, kr.split, card,
                        valid, X)
        return Candidates(card, valid, X)
    if p.kind == "follow":
        K = rules.tricks
        card, valid, X = np.zeros((m, K), np.int64), np.zeros((m, K), bool), np.zeros((m, K, F), np.float32)
        _follow_kernel(p.hand, p.unseen, p.lead_card, p.lead_category, p.lead_base, p.won, p.power, p.greedy,
                       p.trick, kr, card, valid, X)  # fmt: skip
        return Candidates(card, valid, X)
    K = rules.tricks * 3 * p.bases.shape[1]
    card, cat, base = (np.zeros((m, K), np.int64) for _ in range(3))
    valid, X = np.zeros((m, K), bool), np.zeros((m, K, F), np.float32)
    _lead_kernel(p.hand, p.unseen, p.bases, p.won, p.power, p.greedy, p.trick, kr, card, cat, base, valid, X)
    return Candidates(card, valid, X, cat, base)


def max_candidates(rules: Rules, kind: str) -> int:
    """Columns of `candidates` for a decision kind under these rules."""
    if kind == "declare":
        return 2
    if kind == "discard":
        return rules.hand_size
    if kind == "follow":
        return rules.tricks
    return rules.tricks * 3 * (len(rules.lead_bases) if rules.base_mode == "lead" else 1)
