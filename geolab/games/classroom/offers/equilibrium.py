"""The equilibrium discard of Class GeoPower Double Choice, and how it is checked.

The solver (best responses under the independence model: `solve`, `equilibrium_table`, ...)
lives with the bot that plays it, in `geolab.bots.classroom.equilibrium`, and is imported
from there. Real deals (no card shared within a group) are checked by simulation with the batch engine's
random streams, with cross-fitting so that simulation noise cannot pass for a gain.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numba
import numpy as np
from numba import njit, prange

from geolab.bots.classroom.equilibrium import KEPT, MAX_SCORE, Equilibrium, best_response, onehot, solve, values
from geolab.bots.classroom.policies import AverageRank, tabulate
from geolab.cards import N_CARDS
from geolab.common.counter_rng import game_stream
from geolab.common.work_queue import take
from geolab.games.classroom.batch import MAX_OPPONENTS, PIECE, below, block_keys, draw_category, hand_row, shuffle_top
from geolab.games.classroom.hands import HANDS, N_HANDS
from geolab.games.classroom.rules import BOTTOMS_UP, TOP_DOG

# --- real deals ---------------------------------------------------------------------------

@njit(parallel=True, cache=True)
def _real_values(hands, kept, opp_policy, k, call, p_cat, n_samples, key, out):
    """out[h, d, half]: P(win) of hand h discarding d, against k opponents dealt from the 47
    other cards and playing `opp_policy`; categories weighted exactly; samples split in two
    halves (even and odd samples) for cross-fitting.

    The inner loop has no branches: scores are signed so that the lowest always wins (Bottoms
    Up negates them), the opponents' best is a running minimum, and wins are integer counts
    (exact, so the sum does not depend on the order it is taken in)."""
    sign = 1 - 2 * call
    opp = np.empty((hands.shape[0], 3), np.int8)  # each opponent hand's signed score per category
    for row in range(hands.shape[0]):
        for cat in range(3):
            opp[row, cat] = sign * kept[row, opp_policy[row], cat]
    for h in prange(hands.shape[0]):
        deck = np.empty(N_CARDS - 3, np.int64)
        mine = np.empty((3, 3), np.int64)
        wins = np.zeros((2, 3, 3), np.int64)
        for d in range(3):
            for cat in range(3):
                mine[d, cat] = sign * kept[h, d, cat]
        state = game_stream(key, h)
        j = 0
        for card in range(N_CARDS):
            if card != hands[h, 0] and card != hands[h, 1] and card != hands[h, 2]:
                deck[j] = card
                j += 1
        for t in range(n_samples):
            # Fisher-Yates from whatever order the last sample left: still uniform, and
            # still reproducible, since one hand's samples run in order on one thread
            state = shuffle_top(deck, N_CARDS - 3, 3 * k, state)
            b0, b1, b2 = MAX_SCORE, MAX_SCORE, MAX_SCORE
            for o in range(k):
                a, b, c, row = hand_row(deck[3 * o], deck[3 * o + 1], deck[3 * o + 2])
                b0 = min(b0, np.int64(opp[row, 0]))
                b1 = min(b1, np.int64(opp[row, 1]))
                b2 = min(b2, np.int64(opp[row, 2]))
            half = t & 1
            for d in range(3):
                wins[half, d, 0] += mine[d, 0] <= b0
                wins[half, d, 1] += mine[d, 1] <= b1
                wins[half, d, 2] += mine[d, 2] <= b2
        for half in range(2):
            for d in range(3):
                out[h, d, half] = (p_cat[0] * wins[half, d, 0] + p_cat[1] * wins[half, d, 1]
                                   + p_cat[2] * wins[half, d, 2]) / (n_samples // 2)


def real_values(opp_policy: np.ndarray, k: int, call: int, p_cat, n_samples: int, seed: int = 0) -> np.ndarray:
    """(19600, 3, 2) simulated win chances on real deals; see `_real_values`."""
    if n_samples < 2 or n_samples % 2:
        raise ValueError("n_samples must be even and at least 2")
    out = np.zeros((N_HANDS, 3, 2))
    key, _ = block_keys(seed, 1000 * k + call)
    _real_values(HANDS.astype(np.int64), KEPT, np.asarray(opp_policy, np.int64), k, call,
                 np.asarray(p_cat, np.float64), n_samples, key, out)
    return out


@dataclass
class RealCheck:
    win: float  # P(win the round) on real deals when everyone plays the policy
    exploitability: float  # cross-fitted gain of the simulated best response, mean over hands
    exploitability_ci: tuple[float, float]
    changed: float  # share of hands whose simulated best response differs from the policy
    samples: int
    # in-sample gain of the simulated best response: biased up by the noise it picks, as the
    # cross-fitted one is biased down, so together they bracket the true exploitability
    exploitability_plugin: float
    exploitability_plugin_ci: tuple[float, float]
    best_response: np.ndarray  # (19600,) the simulated best response on all samples


def real_check(policy: np.ndarray, k: int, call: int, p_cat, n_samples: int, seed: int = 0) -> RealCheck:
    """Best response on real deals, chosen on one half of the samples, valued on the other."""
    from geolab.lab.stats import mean_ci

    v = real_values(policy, k, call, p_cat, n_samples, seed)
    rows = np.arange(N_HANDS)
    gains = []
    for pick, value in ((0, 1), (1, 0)):
        br = v[:, :, pick].argmax(axis=1)
        gains.append(v[rows, br, value] - v[rows, policy, value])
    mean, lo, hi = mean_ci((gains[0] + gains[1]) / 2)
    both = v.mean(axis=2)
    plug, plug_lo, plug_hi = mean_ci(both.max(axis=1) - both[rows, policy])
    br = best_response(both)
    return RealCheck(float(v[rows, policy].mean()), mean, (lo, hi), float((br != policy).mean()), n_samples,
                     plug, (plug_lo, plug_hi), br)


@dataclass
class Refined:
    """A policy moved towards the real-deal equilibrium, and its check on fresh samples."""

    policy: np.ndarray
    steps: int
    switched: int  # hands whose discard differs from the starting policy
    start: RealCheck  # the starting policy checked (its best response is the first step)
    check: RealCheck


def refine_real(policy: np.ndarray, k: int, call: int, p_cat, n_samples: int, seed: int = 0,
                steps: int = 1) -> Refined:
    """Best-response steps on real deals from `policy` (the model's equilibrium).

    The model treats opponents' hands as independent; on real deals no card is shared, which
    moves about 2% of hands' best discard (nearly indifferent hands) and leaves the model's
    equilibrium exploitable by about 0.01 points at group size 4. Each step replaces the
    policy by its simulated best response; every simulation uses its own seed, drawn from
    `SeedSequence(seed)`, so the last check is on samples the policy was never fitted to."""
    if steps < 1:
        raise ValueError("steps must be at least 1")
    seeds = [int(s.generate_state(1)[0]) for s in np.random.SeedSequence(seed).spawn(steps + 1)]
    start = check = real_check(policy, k, call, p_cat, n_samples, seeds[0])
    for step in range(steps):
        current = check.best_response
        check = real_check(current, k, call, p_cat, n_samples, seeds[step + 1])
    return Refined(current, steps, int((current != policy).sum()), start, check)


# --- groups on real deals: one seat tries other policies -----------------------------------

@njit(parallel=True, cache=True)
def _groups(workers, next_piece, cand, others, m, call_mode, counts, n, key, pkey, kept, wins, ties):
    """n groups of m dealt from one deck. Seat 0 plays each candidate table (paired: same
    deal, call and category); seats 1.. play `others`. wins[i, j]: did candidate j win;
    ties[i]: did the round under candidate 0 have more than one winner. Each worker takes
    the next PIECE groups until none are left (see `work_queue`)."""
    pieces = (n + PIECE - 1) // PIECE
    for _ in prange(workers):
        deck = np.empty(N_CARDS, np.int64)
        piece = take(next_piece)
        while piece < pieces:
            for i in range(piece * PIECE, min(n, (piece + 1) * PIECE)):
                dstate, pstate = game_stream(key, i), game_stream(pkey, i)
                if call_mode == 0:
                    dstate, call = below(dstate, 2)
                else:
                    call = call_mode - 1
                dstate, cat = draw_category(dstate, counts)
                for c in range(N_CARDS):
                    deck[c] = c
                dstate = shuffle_top(deck, N_CARDS, 3 * m, dstate)
                best, n_best = 0, 0
                for o in range(1, m):
                    a, b, c, row = hand_row(deck[3 * o], deck[3 * o + 1], deck[3 * o + 2])
                    d = others[call, row]
                    if d < 0:
                        pstate, d = below(pstate, 3)
                    v = kept[row, d, cat]
                    if o == 1 or (call == 0 and v < best) or (call == 1 and v > best):
                        best, n_best = v, 1
                    elif v == best:
                        n_best += 1
                a, b, c, row = hand_row(deck[0], deck[1], deck[2])
                for j in range(cand.shape[0]):
                    d = cand[j, call, row]
                    if d < 0:
                        pstate, d = below(pstate, 3)
                    v = kept[row, d, cat]
                    wins[i, j] = v <= best if call == 0 else v >= best
                    if j == 0:
                        ties[i] = (v == best) or (n_best > 1 and not wins[i, 0])
            piece = take(next_piece)


def group_play(candidates: np.ndarray, others: np.ndarray, group_size: int, call_mode: int,
               counts, n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Simulate n real groups; see `_groups`. candidates (C, 2, 19600), others (2, 19600);
    call_mode 0 random, 1 Top Dog, 2 Bottoms Up."""
    wins = np.zeros((n, len(candidates)), np.bool_)
    ties = np.zeros(n, np.bool_)
    key, pkey = block_keys(seed, 100 * group_size + call_mode)
    _groups(numba.get_num_threads(), np.zeros(1, np.int64), np.asarray(candidates, np.int64),
            np.asarray(others, np.int64), group_size, call_mode, np.asarray(counts, np.int64), n, key, pkey, KEPT,
            wins, ties)
    return wins, ties


def shortfalls(eq: Equilibrium, p_cat, rules: dict[str, np.ndarray]) -> dict[str, float]:
    """Under the model, how much less often a student wins the round playing each rule
    (discard tables for this call and opponent count) while the others play `eq`."""
    v = values(onehot(eq.policy), eq.opponents, eq.call, p_cat)
    rows = np.arange(N_HANDS)
    out = {}
    for name, table in rules.items():
        mine = v.mean(axis=1) if (table < 0).all() else v[rows, table]
        out[name] = float(eq.win - mine.mean())
    return out


def _check_columns(rc: RealCheck, prefix: str) -> dict:
    return {f"win_{prefix}": round(rc.win, 5), f"exploitability_{prefix}": round(rc.exploitability, 7),
            f"exploitability_{prefix}_ci": [round(float(x), 7) for x in rc.exploitability_ci],
            f"exploitability_{prefix}_plugin": round(rc.exploitability_plugin, 7),
            f"exploitability_{prefix}_plugin_ci": [round(float(x), 7) for x in rc.exploitability_plugin_ci],
            f"hands_changed_{prefix}": round(rc.changed, 4)}


def equilibrium_summary(p_cat, sizes, check: int = 0, seed: int = 0, refine: int = 0) -> list[dict]:
    """One row per group size and call: the solution, simple rules' shortfalls (model) and,
    with `check` simulated groups per hand, the real-deal win rate and exploitability; with
    `refine` steps as well, the same for the policy refined on real deals (`refine_real`)."""
    from geolab.bots.classroom.policies import OneCategory, RandomDiscard, WorstCategory

    simple = {"random": tabulate(RandomDiscard()), "average": tabulate(AverageRank()),
              "worst-category": tabulate(WorstCategory()), "one-category": tabulate(OneCategory())}
    rows = []
    for size in sizes:
        for call in (TOP_DOG, BOTTOMS_UP):
            eq = solve(size - 1, call, p_cat)
            short = shortfalls(eq, p_cat, {n: t[call, min(size - 1, MAX_OPPONENTS)] for n, t in simple.items()})
            row = {
                "group_size": size, "call": ("top-dog", "bottoms-up")[call], "iterations": eq.iterations,
                "win_model": round(eq.win, 5), "exploitability_model": eq.exploitability,
                **{f"shortfall_{n}": round(v, 5) for n, v in short.items()},
            }
            if check:
                start = time.perf_counter()
                if refine:
                    ref = refine_real(eq.policy, size - 1, call, p_cat, check, seed, refine)
                    row |= _check_columns(ref.start, "real") | _check_columns(ref.check, "refined")
                    row |= {"refine_steps": refine, "hands_switched": ref.switched}
                else:
                    row |= _check_columns(real_check(eq.policy, size - 1, call, p_cat, check, seed), "real")
                row |= {"samples_per_hand": check, "check_seconds": round(time.perf_counter() - start, 2)}
            rows.append(row)
    return rows
