"""Determinized Monte Carlo set policy for Jumbled GeoPower Choice (rollouts with the
`Heuristic` for everybody)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numba
import numpy as np

from geolab.bots.jumbled.heuristics import Heuristic, heuristic_choice, rule_ints
from geolab.cards import N_CARDS
from geolab.games.jumbled.batch import legal_choice, next_category_probs, set_winners
from geolab.games.jumbled.observations import Observation
from geolab.games.jumbled.rules import RANKS64


@numba.njit(cache=True, nogil=True)
def _mc_row(hand, used, seat, call, s, cards_pub, turned, game, limits, rollout, u, ranks):
    """Choose by sampling: deal the unseen cards to the other hands (each keeping the cards it
    has already shown), draw the GeoPower cards still to come, then roll every legal choice
    out with the rollout heuristic for everybody; the same samples serve every choice.
    ``game`` = (team_of, deck, reuse, all_tied, pts_table) (teams, the GeoPower deck, its
    reuse, the set-tie rule, points by sets won), ``limits`` = `rule_ints`, ``rollout`` =
    (n_samples, single_at, reserve) of the rollout heuristic by call."""
    team_of, deck, reuse, all_tied, pts_table = game
    S, C, lo, hi = limits
    n_samples, roll_single, roll_reserve = rollout
    P, H = team_of.size, hand.size
    M = cards_pub.shape[2]
    seen = np.zeros(N_CARDS, np.bool_)
    for i in range(H):
        seen[hand[i]] = True
    hands = np.zeros((P, H), np.int8)
    base_used = np.zeros(P, np.int64)
    shown = np.zeros(P, np.int64)
    for q in range(P):
        for t in range(s):
            for m in range(M):
                c = cards_pub[t, q, m]
                if c >= 0:
                    seen[c] = True
                    if q != seat:
                        hands[q, shown[q]] = c
                        base_used[q] |= 1 << shown[q]
                        shown[q] += 1
    hands[seat] = hand
    base_used[seat] = used
    pool = np.empty(N_CARDS, np.int8)
    n_pool = 0
    for c in range(N_CARDS):
        if not seen[c]:
            pool[n_pool] = c
            n_pool += 1
    # sets already won this round count towards the bonus
    won_before = np.zeros(P, np.int64)
    totals = np.zeros(P, np.int64)
    won = np.zeros(P, np.bool_)
    for t in range(s):
        for q in range(P):
            tot = 0
            for m in range(M):
                c = cards_pub[t, q, m]
                if c >= 0:
                    tot += ranks[c, turned[t]]
            totals[q] = tot
        set_winners(totals, call, all_tied, won)
        for q in range(P):
            won_before[q] += won[q]
    actions = np.zeros(1 << H, np.int64)
    n_act = 0
    for m in range(1, 1 << H):
        if legal_choice(m, used, H, s, S, C, lo, hi):
            actions[n_act] = m
            n_act += 1
    value = np.zeros(n_act)
    draws = np.empty(S, np.int64)
    for t in range(s):
        draws[t] = turned[t]
    probs = np.empty(3)
    left = np.empty(3, np.int64)
    first_moves = np.zeros(P, np.int64)
    sim_used = np.zeros(P, np.int64)
    sim_won = np.zeros(P, np.int64)
    team_pts = np.zeros(team_of.max() + 1)
    scr_e = np.empty(H)
    scr_m = np.empty(H)
    D = deck.sum()
    for k in range(n_samples):
        uk = u[k]
        ui = 0
        need = 0  # the unseen cards, shuffled as far as the other hands need
        for q in range(P):
            if q != seat:
                need += H - shown[q]
        for i in range(need):
            j = i + int(uk[ui] * (n_pool - i))
            ui += 1
            c = pool[j]
            pool[j] = pool[i]
            pool[i] = c
        i = 0
        for q in range(P):
            if q != seat:
                for h in range(shown[q], H):
                    hands[q, h] = pool[i]
                    i += 1
        for c in range(3):
            left[c] = deck[c]
        for t in range(min(s, D)):
            left[draws[t]] -= 1
        for t in range(s, S):
            if reuse and t >= D:
                draws[t] = draws[t - D]
            else:
                n_left = left.sum()
                x = int(uk[ui] * n_left)
                ui += 1
                c = 0
                while x >= left[c]:
                    x -= left[c]
                    c += 1
                draws[t] = c
                left[c] -= 1
        next_category_probs(deck, draws, s, reuse, probs)
        for q in range(P):  # the others' choices on this set do not depend on ours
            if q != seat:
                first_moves[q] = heuristic_choice(
                    hands, q, base_used[q], call, s, limits, probs[0], probs[1], probs[2],
                    roll_single[call], roll_reserve[call], uk[ui + q], ranks, scr_e, scr_m)
        for a in range(n_act):
            for q in range(P):
                sim_used[q] = base_used[q]
                sim_won[q] = won_before[q]
            first_moves[seat] = actions[a]
            for t in range(s, S):
                if t > s:
                    next_category_probs(deck, draws, t, reuse, probs)
                for q in range(P):
                    mv = first_moves[q] if t == s else heuristic_choice(
                        hands, q, sim_used[q], call, t, limits, probs[0], probs[1], probs[2],
                        roll_single[call], roll_reserve[call], uk[ui + (t - s) * P + q], ranks,
                        scr_e, scr_m)
                    tot = 0
                    for h in range(H):
                        if (mv >> h) & 1:
                            tot += ranks[hands[q, h], draws[t]]
                    totals[q] = tot
                    sim_used[q] |= mv
                set_winners(totals, call, all_tied, won)
                for q in range(P):
                    sim_won[q] += won[q]
            team_pts[:] = 0.0
            for q in range(P):
                team_pts[team_of[q]] += pts_table[sim_won[q]]
            mine = team_pts[team_of[seat]]
            rival = -1e9
            for t in range(team_pts.size):
                if t != team_of[seat] and team_pts[t] > rival:
                    rival = team_pts[t]
            value[a] += mine - rival
        next_category_probs(deck, draws, s, reuse, probs)
    best = 0
    for a in range(1, n_act):
        if value[a] > value[best]:
            best = a
    return actions[best]


@numba.njit(cache=True, nogil=True)
def _mc_kernel(hands, used, seats, games, calls, s, cards_pub, turned, game, limits, rollout, u, ranks, out):
    """`_mc_row` for every row (``game``, ``limits``, ``rollout``: as it takes them)."""
    for r in range(hands.shape[0]):
        g = games[r]
        out[r] = _mc_row(hands[r], used[r], seats[r], calls[g], s, cards_pub[g], turned[g], game, limits, rollout,
                         u[r], ranks)


@dataclass
class MonteCarlo:
    """Determinized Monte Carlo: for each legal choice, average the round's outcome (own
    team's points minus the best rival team's) over ``samples`` deals of the unseen cards
    consistent with every card shown so far, and GeoPower draws from the cards not yet turned,
    with everybody (itself included, after this set) playing the ``rollout`` heuristic."""

    samples: int = 64
    rollout: Heuristic = field(default_factory=Heuristic)
    name: str = "mc"

    def act(self, obs: Observation, rng: np.random.Generator) -> np.ndarray:
        r = obs.rules
        out = np.zeros(len(obs), np.int64)
        P, H, S = r.players, r.cards_dealt, r.sets_per_round
        width = (P - 1) * H + S + P * S
        u = rng.random((len(obs), self.samples, width))
        pts = np.array([w * r.points_per_set + r.bonus[w] for w in range(S + 1)], float)
        _mc_kernel(obs.hand, np.ascontiguousarray(obs.used), obs.seat.astype(np.int64),
                   obs.game.astype(np.int64), obs.call, obs.set_index, obs.cards,
                   obs.turned.astype(np.int64),
                   (np.array(r.team_of, np.int64), np.array(r.geopower_deck, np.int64), r.used_to_bottom,
                    r.set_tie == "all-tied", pts), rule_ints(r),
                   (self.samples, np.array(self.rollout.single_at, np.int64), np.array(self.rollout.reserve)), u,
                   RANKS64, out)
        return out
