"""The GeoDouble study (issue 22, item 5): what the cards allow and what decides a match.

Each part writes a folder of `results/geodouble/` (tidy CSV + Parquet tables, PNG plots and a
`meta.json` with the command that makes it again); `notebooks/07_geodouble.ipynb` reads them and
`docs/geodouble-study.md` states the findings. Every random choice comes from `--seed`.

Part A (the cards and the Play the Ranks stage alone):

* ``solutions``: how often 18 cards hold a GeoDouble solution (a border group and a capital
  group, disjoint) under each border setting (land; + Four Corners; + water; both), how often
  both hands of a deal (two 18-card hands from one deck), one or neither hold one (neither: the
  race is dealt again), and the distribution of solution counts. The same deals under every
  setting, so the settings' differences are paired.
* ``states``: for each state, P(a hand holding it has a solution using it), the share of all
  solutions it is part of (as a border-group or a capital-group card), and how often it is in
  every solution of its hand (a key card).
* ``discards``: which two of eight cards to throw away in stage 2 (Play the Ranks, `geodouble`
  preset: base 1 on every trick, 6 tricks). Every deal is played once for each of side A's 28
  discard pairs (the same deal each time) and then played out by a fixed continuation on both
  sides (the learned bot, and greedy as a check; side B discards as the continuation likes).

Part B (the match, with the batch engine and the declaration policies):

* ``declare``, ``speed``, ``balance``: see their functions.

    python experiments/geodouble.py solutions            # 2,000,000 deals a setting, ~1 min
    python experiments/geodouble.py states
    python experiments/geodouble.py discards             # 50,000 deals x 2 seeds x 2 continuations
    python experiments/geodouble.py discards --deals 2000 --continuation montecarlo:k=6,budget_ms=none \
        --folder discards-montecarlo                     # the search bot as the continuation, ~25 min
    python experiments/geodouble.py declare --tricks learned --policies never,always,threshold,score \\
        --folder declare-learned                         # the same with learned tricks (montecarlo: see the doc)
    python experiments/geodouble.py all --small          # a quick look (what the notebook makes without results)
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from itertools import combinations
from pathlib import Path

import numba
import numpy as np
import pandas as pd
from numba import njit, prange

from geolab.cards import CAPITALS, CATEGORIES, N_CARDS, POSTAL, RANKS
from geolab.common.bits import lowest, popcount
from geolab.game import BatchBot
from geolab.games import groups, groups_batch
from geolab.lab.results import meta, save_figure, write_json, write_table
from geolab.lab.stats import mean_ci, wilson

OUT = Path("results/geodouble")
#: The border settings: name -> (four_corners, water).
SETTINGS = {"land": (False, False), "four-corners": (True, False), "water": (False, True), "both": (True, True)}
HAND = 18
CHUNK = 1 << 16


def command(argv) -> str:
    return " ".join(["python", "experiments/geodouble.py", *argv])


def rate_row(successes: float, n: int, prefix: str = "") -> dict:
    low, high = wilson(float(successes), int(n))
    return {f"{prefix}rate": successes / n if n else float("nan"), f"{prefix}ci_low": low, f"{prefix}ci_high": high}


# ----- deals ---------------------------------------------------------------------------------
def deals(n: int, seed: int, size: int = HAND) -> np.ndarray:
    """(n, 2) int64 card masks: two hands of `size` from one shuffled deck per deal."""
    rng = np.random.default_rng(np.random.SeedSequence([seed, 22, 5]))
    out = np.empty((n, 2), np.int64)
    for lo in range(0, n, CHUNK):
        hi = min(n, lo + CHUNK)
        order = np.argsort(rng.random((hi - lo, N_CARDS)), axis=1)
        out[lo:hi, 0] = groups.masks(order[:, :size])
        out[lo:hi, 1] = groups.masks(order[:, size:2 * size])
    return out


# ----- the per-card kernel -----------------------------------------------------------------
@njit(cache=True, nogil=True)
def _one(hand, border, capital, capital_apart, cnt_b, cnt_c):
    """Solutions of one hand and, per card, the solutions it is in as a border-group card
    (cnt_b) and as a capital-group card (cnt_c)."""
    outside = ~hand
    held_c = np.int64(0)
    for k in range(64):
        held_c |= np.int64((capital[k] & outside) == 0) << k
    for c in range(N_CARDS):
        cnt_b[c] = 0
        cnt_c[c] = 0
    total = 0
    if held_c == 0:
        return 0
    for i in range(border.shape[0]):
        if border[i] & outside:
            continue
        partners = held_c & capital_apart[i, 0]
        if not partners:
            continue
        k = popcount(partners)
        total += k
        m = border[i]
        while m:
            c = lowest(m)
            m &= m - 1
            cnt_b[c] += k
        while partners:
            j = lowest(partners)
            partners &= partners - 1
            m = capital[j]
            while m:
                c = lowest(m)
                m &= m - 1
                cnt_c[c] += 1
    return total


@njit(parallel=True, cache=True)
def _cards(hands, border, capital, capital_apart, workers, sol, acc):
    """sol[h]: solutions of hand h. acc (workers, 9, 50) float64 sums per card over the hands
    holding it: held, used (a solution uses it), as border card, as capital card, key (in every
    solution), x = solutions with it, x^2, x*y (y: the hand's solutions), x as border card."""
    n = hands.shape[0]
    per = (n + workers - 1) // workers
    for w in prange(workers):
        cnt_b = np.zeros(N_CARDS, np.int64)
        cnt_c = np.zeros(N_CARDS, np.int64)
        for h in range(w * per, min(n, (w + 1) * per)):
            y = _one(hands[h], border, capital, capital_apart, cnt_b, cnt_c)
            sol[h] = y
            m = hands[h]
            while m:
                c = lowest(m)
                m &= m - 1
                x = cnt_b[c] + cnt_c[c]
                acc[w, 0, c] += 1
                acc[w, 1, c] += x > 0
                acc[w, 2, c] += cnt_b[c] > 0
                acc[w, 3, c] += cnt_c[c] > 0
                acc[w, 4, c] += (y > 0) and (x == y)
                acc[w, 5, c] += x
                acc[w, 6, c] += x * x
                acc[w, 7, c] += x * y
                acc[w, 8, c] += cnt_b[c]


def card_sums(hands: np.ndarray, four_corners: bool, water: bool) -> tuple[np.ndarray, np.ndarray]:
    """Each hand's solution count and the per-card sums of `_cards`."""
    t = groups_batch.tables(four_corners, water)
    workers = numba.get_num_threads()
    sol = np.zeros(len(hands), np.int64)
    acc = np.zeros((workers, 9, N_CARDS))
    _cards(np.ascontiguousarray(hands, np.int64), t.border, t.capital, t.capital_apart, workers, sol, acc)
    return sol, acc.sum(axis=0)


# ----- part A1: how often a hand or a deal holds a solution ---------------------------------
def part_solutions(n: int, seed: int, out: Path, argv) -> dict:
    start = time.perf_counter()
    d = deals(n, seed)
    rows, dist, deal_rows, paired, per_hand = [], [], [], [], {}
    for name, (corners, water) in SETTINGS.items():
        t = time.perf_counter()
        both = groups_batch.find_batch(d.ravel(), corners, water)
        k = both.geodouble.reshape(n, 2)
        check = groups_batch.find_batch(d[:2000, 0], corners, water).geodouble  # the kernel agrees on a sample
        assert (check == k[:2000, 0]).all()
        a = k[:, 0]  # one hand a deal: n independent hands
        has = a > 0
        mean, lo, hi = mean_ci(a)
        q = np.quantile(a, [0.1, 0.25, 0.5, 0.75, 0.9])
        nb, nc = both.border.reshape(n, 2)[:, 0], both.capital.reshape(n, 2)[:, 0]
        rows.append({"setting": name, "four_corners": corners, "water": water, "hands": n,
                     **rate_row(has.sum(), n), "mean_solutions": mean, "mean_ci_low": lo, "mean_ci_high": hi,
                     "p10": q[0], "p25": q[1], "median": q[2], "p75": q[3], "p90": q[4], "max": int(a.max()),
                     "median_if_any": float(np.median(a[has])),
                     "mean_border_groups": float(nb.mean()), "mean_capital_groups": float(nc.mean()),
                     "no_capital_group": float((nc == 0).mean()), "no_border_group": float((nb == 0).mean())})
        per_hand[name] = has
        counts = np.bincount(a)
        for s, c in enumerate(counts):
            dist.append({"setting": name, "solutions": s, "hands": int(c), "share": c / n})
        holders = (k > 0).sum(axis=1)
        for label, value in (("both", 2), ("one", 1), ("neither", 0)):
            deal_rows.append({"setting": name, "deals": n, "hands_with_solution": label,
                              "count": int((holders == value).sum()), **rate_row((holders == value).sum(), n)})
        p0 = (holders == 0).mean()
        deal_rows.append({"setting": name, "deals": n, "hands_with_solution": "expected race deals a round",
                          "count": None, "rate": 1 / (1 - p0), "ci_low": None, "ci_high": None})
        print(f"solutions {name}: {n:,} deals in {time.perf_counter() - t:.1f} s: {has.mean():.4f} of hands, "
              f"neither {p0:.5f}", flush=True)
    for name in list(SETTINGS)[1:]:  # paired: the same hands under land borders and this setting
        gain = per_hand[name].astype(float) - per_hand["land"]
        m, lo, hi = mean_ci(gain)
        paired.append({"setting": name, "versus": "land", "hands": n, "difference": m, "ci_low": lo, "ci_high": hi,
                       "hands_gaining": int((gain > 0).sum()), "hands_losing": int((gain < 0).sum())})
    tables = {"hands": pd.DataFrame(rows), "deals": pd.DataFrame(deal_rows),
              "solution_counts": pd.DataFrame(dist), "paired": pd.DataFrame(paired)}
    for name, df in tables.items():
        write_table(df, out, name)
    figure_solutions(tables, out)
    info = meta(command=command(argv), part="solutions", deals=n, hands_per_setting=n, seed=seed,
                deal="two hands of 18 from one shuffled deck per deal (hand A alone for the hand tables)",
                settings={k: {"four_corners": v[0], "water": v[1]} for k, v in SETTINGS.items()},
                statistics="rates: Wilson 95% CI; mean solutions and paired differences: normal 95% CI over hands",
                wall_seconds=round(time.perf_counter() - start, 1))
    write_json(info, out / "meta.json")
    return info


def figure_solutions(tables: dict[str, pd.DataFrame], out: Path) -> None:
    import matplotlib.pyplot as plt

    dist, hands, dl = tables["solution_counts"], tables["hands"], tables["deals"]
    fig, axes = plt.subplots(1, 2, figsize=(13, 4.5))
    ax = axes[0]
    for name, part in dist.groupby("setting", sort=False):
        part = part[part.solutions <= 80]
        ax.step(part.solutions, part.share, where="mid", label=name, lw=1.2)
    n = int(hands.hands.iloc[0])
    ax.set(xlabel="GeoDouble solutions in an 18-card hand (0-80 shown)", ylabel="share of hands",
           title=f"How many solutions a hand holds\n{n:,} hands a setting (the same hands)")
    ax.grid(alpha=0.3)
    ax.legend()
    ax = axes[1]
    land = dl[(dl.setting == "land") & dl.ci_low.notna()]
    x = np.arange(len(SETTINGS))
    width = 0.27
    for i, (label, color) in enumerate((("both", "tab:green"), ("one", "tab:orange"), ("neither", "tab:red"))):
        part = dl[dl.hands_with_solution == label].set_index("setting").reindex(list(SETTINGS))
        ax.bar(x + (i - 1) * width, part.rate, width, color=color,
               label={"both": "both hands hold one", "one": "one hand holds one", "neither": "neither (redeal)"}[label])
        for xi, r in zip(x + (i - 1) * width, part.rate):
            ax.text(xi, r + 0.01, f"{r:.2%}" if r < 0.05 else f"{r:.1%}", ha="center", fontsize=7)
    ax.set_xticks(x, list(SETTINGS))
    ax.set(ylim=(0, 1), ylabel="share of deals",
           title=f"A deal's two hands: both, one or neither holds a solution\n"
                 f"{int(land.deals.iloc[0]):,} deals a setting; neither = redeal")
    ax.legend(fontsize=8)
    fig.tight_layout()
    save_figure(fig, out / "solutions.png")
    plt.close(fig)


# ----- part A2: which states make the solutions ---------------------------------------------
def part_states(n: int, seed: int, out: Path, argv) -> dict:
    start = time.perf_counter()
    hands = deals(n, seed + 1000)[:, 0]
    rows = []
    for name, (corners, water) in SETTINGS.items():
        t = time.perf_counter()
        sol, s = card_sums(hands, corners, water)
        check = groups_batch.find_batch(hands[:5000], corners, water).geodouble
        assert (check == sol[:5000]).all()
        y, y2 = float(sol.sum()), float((sol.astype(float) ** 2).sum())
        for c in range(N_CARDS):
            held = s[0, c]
            share = s[5, c] / y
            # share = sum x / sum y over all hands (x = 0 where the card is not held): a ratio
            # estimator; delta-method variance var(x - r y) / (n ybar^2)
            ybar = y / n
            var = (s[6, c] - 2 * share * s[7, c] + share ** 2 * y2) / n - (s[5, c] / n - share * ybar) ** 2
            half = 1.96 * np.sqrt(max(var, 0.0) / n) / ybar
            used = rate_row(s[1, c], held)
            rows.append({"setting": name, "card": POSTAL[c], "capital": CAPITALS[c], "hands": n,
                         "hands_holding": int(held),
                         "p_used": used["rate"], "p_used_ci_low": used["ci_low"], "p_used_ci_high": used["ci_high"],
                         "p_used_as_border": s[2, c] / held, "p_used_as_capital": s[3, c] / held,
                         "p_key": s[4, c] / held, "share_of_solutions": share,
                         "share_ci_low": share - half, "share_ci_high": share + half,
                         "share_as_border": s[8, c] / y, "share_as_capital": (s[5, c] - s[8, c]) / y,
                         "mean_solutions_with_it": s[5, c] / held})
        print(f"states {name}: {n:,} hands in {time.perf_counter() - t:.1f} s", flush=True)
    table = pd.DataFrame(rows)
    write_table(table, out, "states")
    figure_states(table, out)
    info = meta(command=command(argv), part="states", hands_per_setting=n, seed=seed + 1000,
                hand="hand A of a deal of two 18-card hands (the solutions part's deals with seed + 1000)",
                measures={"p_used": "P(the hand has a solution using the state | the hand holds it), Wilson 95% CI",
                          "p_used_as_border / p_used_as_capital":
                              "... using it in the border group / the capital group",
                          "p_key": "P(every solution of the hand uses it | the hand holds it); 0 when the hand has "
                                   "none",
                          "share_of_solutions": "solutions that contain the state / all solutions (over all hands; "
                                                "each solution has 6 cards, so the shares add to 6 and the uniform "
                                                "share is 12%); delta-method 95% CI",
                          "mean_solutions_with_it": "mean number of solutions containing it, in hands holding it"},
                wall_seconds=round(time.perf_counter() - start, 1))
    write_json(info, out / "meta.json")
    return info


def figure_states(table: pd.DataFrame, out: Path) -> None:
    import matplotlib.pyplot as plt

    part = table[table.setting == "land"].sort_values("p_used")
    y = np.arange(len(part))
    fig, axes = plt.subplots(1, 2, figsize=(13, 11), sharey=True)
    ax = axes[0]
    ax.barh(y, part.p_used_as_border, color="tab:blue", height=0.8, label="in a border group")
    ax.barh(y, part.p_used, color="none", edgecolor="black", lw=0.6, height=0.8, label="in any solution")
    ax.errorbar(part.p_used, y, xerr=[part.p_used - part.p_used_ci_low, part.p_used_ci_high - part.p_used],
                fmt="none", color="black", capsize=1.5, lw=0.6)
    ax.scatter(part.p_used_as_capital, y, color="tab:orange", s=12, zorder=3, label="in a capital group")
    ax.set_yticks(y, [f"{c} ({cap})" for c, cap in zip(part.card, part.capital)], fontsize=7)
    ax.set(xlim=(0, 1), xlabel="P(a hand holding the state has a solution using it)",
           title=f"Which states make GeoDouble solutions (land borders)\n{int(part.hands.iloc[0]):,} hands of 18, "
                 f"about {round(part.hands_holding.median(), -3):,.0f} holding each state; 95% CI")
    ax.grid(axis="x", alpha=0.3)
    ax.legend(fontsize=8, loc="lower right")
    ax = axes[1]
    ax.barh(y, part.share_as_border, color="tab:blue", height=0.8, label="as a border-group card")
    ax.barh(y, part.share_as_capital, left=part.share_as_border, color="tab:orange", height=0.8,
            label="as a capital-group card")
    ax.errorbar(part.share_of_solutions, y, xerr=[part.share_of_solutions - part.share_ci_low,
                                                  part.share_ci_high - part.share_of_solutions],
                fmt="none", color="black", capsize=1.5, lw=0.6)
    ax.axvline(6 / 50, color="grey", ls="--", lw=0.8, label="a card in every 6/50 of solutions (uniform)")
    ax.set(xlabel="share of all solutions that contain the state",
           title="...and its share of all the solutions (stacked by role)")
    ax.grid(axis="x", alpha=0.3)
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    save_figure(fig, out / "states.png")
    plt.close(fig)


# ----- part A3: which two cards to discard (stage 2) ----------------------------------------
DISCARD_TABLES = ("rules_of_thumb", "by_usefulness", "card_values")
PAIRS = tuple(combinations(range(8), 2))  # discard pairs by position in the sorted 8-card hand
BOT_RULES = {"greedy": "greedy bot's pair (two least useful)", "planner": "planner bot's pair",
             "counter": "counter bot's pair", "learned": "learned bot's pair"}


def _pair_rules(ranks: np.ndarray) -> dict[str, np.ndarray]:
    """Rules of thumb from the ranks alone: hand ranks (n, 8, 3) -> the pair's index (n,).
    At base 1 on every trick a card is as good as its best (lowest) rank."""
    best = ranks.min(axis=2)
    second = np.sort(ranks, axis=2)[:, :, 1]
    index = {p: i for i, p in enumerate(PAIRS)}

    def worst_two(score):  # the two positions with the highest score (ties: earlier card first)
        order = np.argsort(-score, axis=1, kind="stable")[:, :2]
        lo, hi = order.min(axis=1), order.max(axis=1)
        return np.array([index[(a, b)] for a, b in zip(lo, hi)])

    return {"two worst best ranks": worst_two(best + second / 100),
            "two highest average ranks": worst_two(ranks.mean(axis=2)),
            "two highest rank sums": worst_two(ranks.sum(axis=2) + best / 1000),
            "two newest states (statehood)": worst_two(ranks[:, :, 1].astype(float)),
            "two smallest states (size)": worst_two(ranks[:, :, 0].astype(float)),
            "two least populous (population)": worst_two(ranks[:, :, 2].astype(float)),
            "two best best ranks (a bad rule)": worst_two(-best - second / 100)}


class PairForced(BatchBot):
    """The continuation, except side A's discard: the pair at positions PAIRS[j] of its
    sorted hand."""

    def __init__(self, base, j: int):
        self.base, self.j = base, j
        self.name = f"pair{j}({base.name})"

    def act(self, obs, rng):
        action = self.base.act(obs, rng)
        if obs.kind != "discard":
            return action
        action = np.array(action, np.int64, copy=True)
        a = np.flatnonzero(obs.side == 0)
        held = ((obs.hand[a, None] >> np.arange(N_CARDS)) & 1).astype(bool)
        sorted_cards = np.nonzero(held)[1].reshape(len(a), obs.rules.hand_size)  # each row's cards in order
        p, q = PAIRS[self.j]
        action[a, 0], action[a, 1] = sorted_cards[:, p], sorted_cards[:, q]
        return action


class DiscardBy(BatchBot):
    """One policy's discard, another's play."""

    def __init__(self, discarder, player):
        self.discarder, self.player = discarder, player
        self.name = f"{discarder.name}-discard"

    def act(self, obs, rng):
        return (self.discarder if obs.kind == "discard" else self.player).act(obs, rng)


def play_pairs(deals_n: int, seed: int, continuation: str, batch: int = 8192):
    """outcome (n, 28): A's result (1 win, 0 loss) discarding pair j; hands (n, 8); first (n,)
    A leads the first trick; choice[bot] (n,): the pair each bot discards."""
    import geolab.games.ranks.batch as rb
    from geolab.bots.ranks.registry import BOTS
    from geolab.common.seeding import int_seed
    from geolab.games.ranks.rules import Rules

    rules = Rules.preset("geodouble")
    index = {p: i for i, p in enumerate(PAIRS)}
    outcome, hands, first, choice = [], [], [], {b: [] for b in BOT_RULES}
    for b, child in enumerate(np.random.SeedSequence([seed, 7]).spawn(-(-deals_n // batch))):
        n = min(batch, deals_n - b * batch)
        game_seed = int_seed(child)
        cont = BOTS.make(continuation, rules)
        out = np.zeros((n, len(PAIRS)))
        for j in range(len(PAIRS)):
            played = rb.play(rules, (PairForced(cont, j), cont), n, game_seed, chunk=n, threads=1)
            assert played.winner.min() >= 0  # base 1: no ties
            out[:, j] = played.winner == 0
        hand = played.hands[:, 0, :].astype(np.int64)
        assert (np.sort(played.discards[:, 0, :], axis=1) == hand[:, list(PAIRS[-1])]).all()  # forced as meant
        for bot in BOT_RULES:
            chosen = rb.play(rules, (DiscardBy(BOTS.make(bot, rules), cont), cont), n, game_seed, chunk=n, threads=1)
            gone = (hand[:, :, None] == chosen.discards[:, 0, None, :]).any(axis=2)
            pos = np.sort(gone.nonzero()[1].reshape(n, 2), axis=1)
            choice[bot].append(np.array([index[(a, c)] for a, c in pos]))
        outcome.append(out), hands.append(hand), first.append(played.first_lead == 0)
    return (np.concatenate(outcome), np.concatenate(hands), np.concatenate(first),
            {k: np.concatenate(v) for k, v in choice.items()})


def analyse_pairs(continuation: str, seed: int, outcome, hands, first, choice) -> dict[str, pd.DataFrame]:
    n, K = outcome.shape
    rows = np.arange(n)
    best = outcome.max(axis=1)
    matters = best > outcome.min(axis=1)
    ranks = RANKS.astype(np.int64)[hands]  # (n, 8, 3)
    picks = _pair_rules(ranks)
    picks.update({label: choice[bot] for bot, label in BOT_RULES.items()})
    greedy = outcome[rows, choice["greedy"]]
    thumb = []
    for lead_label, sel in (("all", np.ones(n, bool)), ("A leads first", first), ("B leads first", ~first)):
        for name, col in picks.items():
            got = outcome[rows, col][sel]
            regret, versus = mean_ci((best - outcome[rows, col])[sel]), mean_ci((outcome[rows, col] - greedy)[sel])
            win = rate_row(got.sum(), len(got))
            hit = rate_row((got == best[sel])[matters[sel]].sum(), int(matters[sel].sum()))
            thumb.append({"continuation": continuation, "seed": seed, "first_lead": lead_label, "rule": name,
                          "deals": int(sel.sum()), "win_rate": win["rate"], "win_ci_low": win["ci_low"],
                          "win_ci_high": win["ci_high"], "deals_where_it_matters": int(matters[sel].sum()),
                          "picks_best_where_it_matters": hit["rate"], "pbm_ci_low": hit["ci_low"],
                          "pbm_ci_high": hit["ci_high"], "regret": regret[0], "regret_ci_low": regret[1],
                          "regret_ci_high": regret[2], "minus_greedy": versus[0], "minus_greedy_ci_low": versus[1],
                          "minus_greedy_ci_high": versus[2]})
        for name, got in (("random pair (average of the 28)", outcome.mean(axis=1)), ("best in hindsight", best)):
            m = mean_ci(got[sel])
            thumb.append({"continuation": continuation, "seed": seed, "first_lead": lead_label, "rule": name,
                          "deals": int(sel.sum()), "win_rate": m[0], "win_ci_low": m[1], "win_ci_high": m[2],
                          "regret": float((best - got)[sel].mean())})
    # the pair by usefulness position: cards ranked by best rank (1 = most useful), ties by the second rank
    best_rank = ranks.min(axis=2) + np.sort(ranks, axis=2)[:, :, 1] / 100
    order = np.argsort(best_rank, axis=1, kind="stable")  # order[:, k] = position of the (k+1)-th most useful
    rank_of = np.argsort(order, axis=1)  # rank_of[:, pos] = usefulness rank (0 = most useful)
    by_rank, grid = [], {}
    for j, (p, q) in enumerate(PAIRS):
        u, v = rank_of[:, p], rank_of[:, q]
        lo, hi = np.minimum(u, v), np.maximum(u, v)
        for a in range(8):
            for b in range(a + 1, 8):
                sel = (lo == a) & (hi == b)
                if sel.any():
                    g = grid.setdefault((a, b), [0.0, 0])
                    g[0] += outcome[sel, j].sum()
                    g[1] += int(sel.sum())
    for (a, b), (wins, count) in sorted(grid.items()):
        r = rate_row(wins, count)
        by_rank.append({"continuation": continuation, "seed": seed, "useful_a": a + 1, "useful_b": b + 1,
                        "deals": count, "win_rate": r["rate"], "ci_low": r["ci_low"], "ci_high": r["ci_high"]})
    # the value of keeping each state: mean over the pairs that keep it minus over those that discard it
    value = []
    for c in range(N_CARDS):
        where_deal, where_pos = np.nonzero(hands == c)
        if not len(where_deal):
            continue
        drop = np.array([[p == pos or q == pos for (p, q) in PAIRS] for pos in range(8)])  # (8, 28)
        d = drop[where_pos]
        o = outcome[where_deal]
        keep = (o * ~d).sum(axis=1) / (~d).sum(axis=1)
        gone = (o * d).sum(axis=1) / d.sum(axis=1)
        v = mean_ci(keep - gone)
        value.append({"continuation": continuation, "seed": seed, "card": POSTAL[c], "deals": len(where_deal),
                      "value": v[0], "ci_low": v[1], "ci_high": v[2], "win_if_discarded": float(gone.mean()),
                      **{name: int(RANKS[c, k]) for k, name in enumerate(CATEGORIES)}})
    return {"rules_of_thumb": pd.DataFrame(thumb), "by_usefulness": pd.DataFrame(by_rank),
            "card_values": pd.DataFrame(value)}


def part_discards(n: int, seeds: tuple[int, int], continuations: tuple[str, ...], out: Path, argv) -> dict:
    start = time.perf_counter()
    parts: dict[str, list[pd.DataFrame]] = {}
    for cont in continuations:
        for seed in seeds:
            t = time.perf_counter()
            tables = analyse_pairs(cont, seed, *play_pairs(n, seed, cont))
            for name, df in tables.items():
                parts.setdefault(name, []).append(df)
            print(f"discards {cont} seed {seed}: {n:,} deals x 32 plays in {time.perf_counter() - t:.1f} s", flush=True)
    tables = {name: pd.concat(dfs, ignore_index=True) for name, dfs in parts.items()}
    for name, df in tables.items():
        write_table(df.round(5), out, name)
    figure_discards(tables, continuations[0], seeds[0], out)
    info = meta(command=command(argv), part="discards", rules="Play the Ranks, geodouble preset (8 dealt, 2 "
                "discarded, 6 tricks at base 1; win with 4, or 3-3 and the last trick); first lead: the statehood "
                "draw (A leads about half the deals: split in first_lead)", deals_per_seed=n, seeds=list(seeds),
                continuations=list(continuations), plays_per_deal="28 forced pairs + 4 bot discards",
                statistics="win rates: Wilson 95% CI (0/1) or normal CI over deals; regret, differences and card "
                           "values: normal 95% CI over deals (paired: the same deals)",
                second_seed_check=agreement(tables, seeds, continuations),
                wall_seconds=round(time.perf_counter() - start, 1))
    write_json(info, out / "meta.json")
    return info


def agreement(tables, seeds, continuations) -> dict:
    out = {}
    thumb, values = tables["rules_of_thumb"], tables["card_values"]
    for cont in continuations:
        t = thumb[(thumb.continuation == cont) & (thumb.first_lead == "all")
                  & thumb.picks_best_where_it_matters.notna()]
        ranking = [list(t[t.seed == s].sort_values("win_rate", ascending=False).rule) for s in seeds]
        v = [values[(values.continuation == cont) & (values.seed == s)].set_index("card").value for s in seeds]
        out[cont] = {"best_rule": [r[0] for r in ranking], "worst_rule": [r[-1] for r in ranking],
                     "rule_ranking_spearman": float(pd.Series(range(len(ranking[0])), index=ranking[0]).corr(
                         pd.Series(range(len(ranking[1])), index=ranking[1]), method="spearman")),
                     "card_value_correlation": float(v[0].corr(v[1])),
                     "top5_cards": [list(x.sort_values(ascending=False).index[:5]) for x in v]}
    return out


def figure_discards(tables, cont: str, seed: int, out: Path) -> None:
    import matplotlib.pyplot as plt

    thumb = tables["rules_of_thumb"]
    conts = list(thumb.continuation.unique())
    fig, axes = plt.subplots(1, len(conts), figsize=(7 * len(conts), 5), sharey=False, squeeze=False)
    for ax, c in zip(axes[0], conts):
        part = thumb[(thumb.continuation == c) & (thumb.seed == seed) & (thumb.first_lead == "all")]
        part = part.sort_values("win_rate")
        yy = np.arange(len(part))
        colors = ["grey" if pd.isna(p) else "tab:blue" for p in part.picks_best_where_it_matters]
        ax.barh(yy, part.win_rate, color=colors,
                xerr=[part.win_rate - part.win_ci_low, part.win_ci_high - part.win_rate], capsize=2)
        ax.set_yticks(yy, [r if pd.isna(p) else f"{r}  (best {p:.0%})"
                           for r, p in zip(part.rule, part.picks_best_where_it_matters)], fontsize=8)
        ax.axvline(0.5, color="grey", ls="--", lw=0.8)
        ax.set(xlim=(0.1, max(0.85, float(part.win_ci_high.max()) + 0.03)),
               xlabel=f"side A's win rate, 95% CI; {int(part.deals.iloc[0]):,} deals",
               title=f"GeoDouble stage 2: which two cards to discard\ncontinuation: {c} on both sides (seed {seed})")
        ax.grid(axis="x", alpha=0.3)
    fig.suptitle("(best x% = how often the rule's pair is a best pair in hindsight, in the deals where the pair "
                 "matters)", y=0.0, fontsize=9)
    fig.tight_layout()
    save_figure(fig, out / "rules_of_thumb.png")
    plt.close(fig)

    grid = tables["by_usefulness"]
    conts = list(grid.continuation.unique())
    fig, axes = plt.subplots(1, len(conts), figsize=(7.2 * len(conts), 5.4), squeeze=False)
    for ax, c in zip(axes[0], conts):
        g = grid[(grid.continuation == c) & (grid.seed == seed)]
        m = np.full((8, 8), np.nan)
        for r in g.itertuples():
            m[r.useful_b - 1, r.useful_a - 1] = r.win_rate
        im = ax.imshow(m, cmap="RdBu", vmin=0.15, vmax=0.85, origin="lower")
        for r in g.itertuples():
            ax.text(r.useful_a - 1, r.useful_b - 1, f"{r.win_rate:.0%}", ha="center", va="center", fontsize=7)
        ax.set_xticks(range(8), ["1\nbest", *map(str, range(2, 8)), "8\nworst"])
        ax.set_yticks(range(8), ["1 best", *map(str, range(2, 8)), "8 worst"])
        ax.set(xlabel="the better card you discard (rank by best rank, 1 = lowest)",
               ylabel="the worse card you discard",
               title=f"Side A's win rate by the pair it discards (continuation {c})\n"
                     f"{int(g.deals.sum()) // len(PAIRS):,} deals x 28 pairs; "
                     f"95% CI half-width <= {float((g.ci_high - g.ci_low).max() / 2):.1%}")
        fig.colorbar(im, ax=ax, shrink=0.8, label="side A's win rate")
    fig.tight_layout()
    save_figure(fig, out / "win_by_pair.png")
    plt.close(fig)

    values = tables["card_values"]
    v = values[(values.continuation == cont) & (values.seed == seed)].sort_values("value")
    fig, ax = plt.subplots(figsize=(7, 11))
    yy = np.arange(len(v))
    ax.barh(yy, v.value, xerr=[v.value - v.ci_low, v.ci_high - v.value], capsize=2,
            color=np.where(v.value > 0, "tab:blue", "tab:red"))
    ax.set_yticks(yy, [f"{c} (size {s}, st {h}, pop {p})" for c, s, h, p in
                       zip(v.card, v["size"], v.statehood, v.population)], fontsize=7)
    ax.axvline(0, color="grey", lw=0.8)
    ax.set(xlabel=f"win rate keeping it minus discarding it; ~{round(v.deals.median(), -2):,.0f} deals a state",
           title=f"GeoDouble stage 2: the value of keeping each state\n(continuation {cont}; 95% CI)")
    fig.tight_layout()
    save_figure(fig, out / "card_values.png")
    plt.close(fig)


# ----- part B: whole matches (the batch engine) ------------------------------------------------
def match_rules(preset: str = "official"):
    from geolab.games.geodouble.rules import Rules

    return Rules.preset(preset)


def race_defaults() -> dict:
    """The race model's parameters at speed 1 (`geolab.games.race.RaceModel`), for meta.json."""
    import dataclasses

    from geolab.games.race import RaceModel

    return dataclasses.asdict(RaceModel.named("human"))


def duplicate_matches(rules, a: str, b: str, n: int, seed: int, threads: int | None = None, raw: bool = False) -> dict:
    """`a` against `b` (GeoDouble player specs) on n duplicate matches: each match's cards played
    twice, seats swapped (streams 0 and 1 of the seed: the same race and stage deals, the same
    coins). Per deal: a's match score (mean of its two seatings), its share of the races and
    of the stages won, the rounds."""
    from geolab.bots.geodouble.registry import BOTS
    from geolab.games.geodouble import batch

    bots = BOTS.make(a, rules), BOTS.make(b, rules)
    one = batch.batch(rules, bots, n, seed, stream=0, threads=threads)
    two = batch.batch(rules, bots[::-1], n, seed, stream=1, threads=threads)
    if raw:
        return {"batches": (one, two)}
    col = lambda p, name, side: p.columns[f"{name}_{side}"].astype(float)  # noqa: E731
    races_a = col(one, "races", "A") + col(two, "races", "B")
    races_b = col(one, "races", "B") + col(two, "races", "A")
    stages_a = col(one, "stages", "A") + col(two, "stages", "B")
    stages_b = col(one, "stages", "B") + col(two, "stages", "A")
    return {"score": (one.scores[:, 0] + two.scores[:, 1]) / 2, "races": (races_a, races_b),
            "stages": (stages_a, stages_b), "rounds": (one.length + two.length) / 2,
            "first_score": (one.scores[np.arange(n), one.first] + two.scores[np.arange(n), two.first]) / 2,
            "declared": (col(one, "declared", "A") + col(two, "declared", "B"),
                         col(one, "declared", "B") + col(two, "declared", "A"))}


def duplicate_row(d: dict) -> dict:
    """The match win rate of a (duplicate interval: Kish's effective sample over deals), its
    share of the races and of the stages won (ratio over deals, normal 95% CI by the delta method)."""
    from geolab.lab.stats import duplicate_interval

    n = len(d["score"])
    rate, low, high = duplicate_interval(d["score"], 2)
    row = {"deals": n, "matches": 2 * n, "win_rate": rate, "ci_low": low, "ci_high": high,
           "mean_rounds": float(d["rounds"].mean())}
    for name in ("races", "stages"):
        x, y = d[name][0], d[name][0] + d[name][1]
        share = x.sum() / y.sum()
        half = 1.96 * np.sqrt(np.var(x - share * y, ddof=1) / n) / y.mean()
        row |= {f"{name}_share": share, f"{name}_ci_low": share - half, f"{name}_ci_high": share + half,
                f"{name}_per_match": float(y.mean() / 2)}
    return row


SPEEDS = (0.5, 0.67, 0.8, 0.9, 1.1, 1.25, 1.5, 2.0, 3.0)
TRICK_BOTS = ("random", "greedy", "learned")
SEARCH = "[montecarlo:k=6,budget_ms=none]"


def part_speed(n: int, n_search: int, seed: int, out: Path, argv, small: bool = False) -> dict:
    """How much stage-1 speed and stage-2 skill each decide the match, on duplicate matches
    (the official rules, declarations off: every player never declares):

    * speed: ``player:speed=s,tricks=learned`` against ``player:tricks=learned`` for each s;
    * skill: every pair of trick bots at the same speed (random, greedy, learned; the Monte
      Carlo bot against each on fewer matches: it costs ~25 ms a match);
    * the exchange rate: a weaker trick bot at speed s against the learned bot at speed 1.
    """
    start = time.perf_counter()
    rules = match_rules()
    rows = []

    def run(study: str, a: str, b: str, deals: int, **labels) -> None:
        t = time.perf_counter()
        row = {"study": study, "a": a, "b": b, **labels, **duplicate_row(duplicate_matches(rules, a, b, deals, seed))}
        rows.append(row)
        print(f"speed {study}: {a} v {b}: {row['win_rate']:.3f} ({deals:,} deals, {time.perf_counter() - t:.1f} s)",
              flush=True)

    for s in SPEEDS:
        run("speed", f"player:speed={s},tricks=learned,declare=never", "player:tricks=learned,declare=never", n,
            speed_ratio=s,
            tricks_a="learned", tricks_b="learned")
    for a, b in combinations(TRICK_BOTS, 2):
        run("tricks", f"player:tricks={b},declare=never", f"player:tricks={a},declare=never", n, speed_ratio=1.0,
            tricks_a=b, tricks_b=a)
    for b in TRICK_BOTS:
        run("tricks", f"player:tricks={SEARCH},declare=never", f"player:tricks={b},declare=never", n_search,
            speed_ratio=1.0,
            tricks_a="montecarlo", tricks_b=b)
    for weak in ("greedy", "random"):
        for s in SPEEDS if not small else SPEEDS[4:6]:
            run("exchange", f"player:speed={s},tricks={weak},declare=never", "player:tricks=learned,declare=never", n,
                speed_ratio=s,
                tricks_a=weak, tricks_b="learned")
    table = pd.DataFrame(rows)
    write_table(table, out, "matches")
    figure_speed(table, out)
    info = meta(command=command(argv), part="speed", rules="GeoDouble, official preset (land borders, to 50)",
                deals=n, deals_search=n_search, seed=seed, search_bot=SEARCH.strip("[]"),
                race_model={"name": "human", "defaults": race_defaults(), "speed": "as the spec gives it"},
                declarations="never (both players)",
                duplicate="each deal played twice, seats swapped, the same cards (streams 0 and 1 of the seed)",
                statistics="match win rate: duplicate_interval (Wilson on Kish's effective sample over deals); "
                           "race and stage shares: ratio over deals, delta-method normal 95% CI",
                wall_seconds=round(time.perf_counter() - start, 1))
    write_json(info, out / "meta.json")
    return info


def figure_speed(table: pd.DataFrame, out: Path) -> None:
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(17, 5))
    ax = axes[0]
    sp = table[table.study == "speed"].sort_values("speed_ratio")
    even = {"speed_ratio": 1.0, "win_rate": 0.5, "ci_low": 0.5, "ci_high": 0.5, "races_share": 0.5, "races_ci_low": 0.5,
            "races_ci_high": 0.5}
    sp = pd.concat([sp, pd.DataFrame([even])]).sort_values("speed_ratio")
    ax.errorbar(sp.speed_ratio, sp.win_rate, yerr=[sp.win_rate - sp.ci_low, sp.ci_high - sp.win_rate], marker="o",
                capsize=3, label="matches won")
    ax.errorbar(sp.speed_ratio, sp.races_share, marker="s", capsize=3, ls="--", label="races won",
                yerr=[sp.races_share - sp.races_ci_low, sp.races_ci_high - sp.races_share])
    ax.set_xscale("log")
    ax.xaxis.set_minor_formatter(plt.NullFormatter())
    ax.set_xticks([0.5, 0.67, 0.8, 1.0, 1.25, 1.5, 2.0, 3.0], ["0.5", "0.67", "0.8", "1", "1.25", "1.5", "2", "3"])
    ax.axhline(0.5, color="grey", lw=0.8)
    ax.set(xlabel="speed ratio (the player's search speed / the other's)", ylabel="share won (95% CI)", ylim=(0, 1),
           title=f"Speed, the same trick bot (learned)\n{int(table.deals.max()):,} duplicate matches a point")
    ax.grid(alpha=0.3)
    ax.legend()
    ax = axes[1]
    tr = table[table.study == "tricks"]
    labels = [f"{r.tricks_a} v {r.tricks_b}" for r in tr.itertuples()]
    y = np.arange(len(tr))
    ax.barh(y, tr.win_rate, xerr=[tr.win_rate - tr.ci_low, tr.ci_high - tr.win_rate], capsize=3, color="tab:green",
            label="matches won")
    ax.scatter(tr.stages_share, y, color="k", zorder=3, s=18, label="stages won")
    for yi, r in zip(y, tr.itertuples()):
        ax.text(0.02, yi, f"{r.deals:,} deals", va="center", fontsize=7, color="white")
    ax.set_yticks(y, labels)
    ax.axvline(0.5, color="grey", lw=0.8)
    ax.set(xlim=(0, 1), xlabel="share won by the first-named trick bot (95% CI)",
           title="Skill: trick bots at the same speed")
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=2)
    ax = axes[2]
    for weak, color in (("greedy", "tab:orange"), ("random", "tab:red")):
        ex = table[(table.study == "exchange") & (table.tricks_a == weak)].sort_values("speed_ratio")
        same = table[(table.study == "tricks") & (table.tricks_a == "learned") & (table.tricks_b == weak)]
        if len(same):  # speed 1: from the skill pairs (learned v weak), turned round
            r = same.iloc[0]
            ex = pd.concat([ex, pd.DataFrame([{"speed_ratio": 1.0, "win_rate": 1 - r.win_rate, "ci_low": 1 - r.ci_high,
                                               "ci_high": 1 - r.ci_low}])]).sort_values("speed_ratio")
        ax.errorbar(ex.speed_ratio, ex.win_rate, yerr=[ex.win_rate - ex.ci_low, ex.ci_high - ex.win_rate], marker="o",
                    capsize=3, color=color, label=f"{weak} tricks at speed s v learned at 1")
    ax.set_xscale("log")
    ax.xaxis.set_minor_formatter(plt.NullFormatter())
    ax.set_xticks([0.5, 0.67, 0.8, 1.0, 1.25, 1.5, 2.0, 3.0], ["0.5", "0.67", "0.8", "1", "1.25", "1.5", "2", "3"])
    ax.axhline(0.5, color="grey", lw=0.8)
    ax.set(xlabel="the weaker trick bot's speed ratio s", ylabel="its match win rate (95% CI)", ylim=(0, 1),
           title="How much speed makes up for weaker tricks")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    save_figure(fig, out / "speed_and_skill.png")
    plt.close(fig)


POLICIES = ("never", "always", "threshold", "score", "montecarlo")
#: Fourth-best card's best rank: the bins of the declaration chart (the win table's heaviest weight).
FOURTH_BINS = (0, 3, 5, 7, 9, 11, 13, 16, 20, 50)
#: Score difference bins (differences are multiples of 5): -45..-40, -35..-25, -20..-15, -10..-5, 0, 5..10, ...
DIFF_BINS = (-50, -37.5, -22.5, -12.5, -2.5, 2.5, 12.5, 22.5, 37.5, 50)
DIFF_LABELS = ("-45, -40", "-35..-25", "-20, -15", "-10, -5", "0 (level)", "+5, +10", "+15, +20", "+25..+35",
               "+40, +45")


class Recorder:
    """A declaration policy that writes down every context it is asked and what it said."""

    def __init__(self, policy, log: list):
        self.policy, self.log = policy, log
        self.thread_safe = policy.thread_safe

    def __call__(self, ctx, rng):
        said = np.asarray(self.policy(ctx, rng), bool)
        self.log.append({"hand": np.asarray(ctx.hand).copy(), "leads": np.asarray(ctx.leads, bool).copy(),
                         "other": np.asarray(ctx.other).copy(), "mine": np.asarray(ctx.mine).copy(),
                         "theirs": np.asarray(ctx.theirs).copy(), "declared": said.copy()})
        return said


def match_runner(rules, threads: int | None = None):
    """A `geolab.lab.arena` runner over GeoDouble players by spec: a and b on the same
    duplicate matches (`duplicate_matches`), rotation 0 = a at seat A."""
    from geolab.common.seeding import int_seed
    from geolab.lab.arena import Duplicate

    def run(a: str, b: str, n: int, seed) -> Duplicate:
        d = duplicate_matches(rules, a, b, n, int_seed(seed), threads=threads, raw=True)
        one, two = d["batches"]
        score = np.stack([one.scores[:, 0], two.scores[:, 1]], axis=1)
        first = np.stack([one.scores[np.arange(n), one.first], two.scores[np.arange(n), two.first]], axis=1)
        return Duplicate(score, first, np.stack([one.length, two.length], axis=1).astype(float))

    return run


def decisions(rules, spec: str, n: int, seed: int) -> pd.DataFrame:
    """Every declaration a player of `spec` makes against itself over n duplicate matches,
    with its context and the win table's chance."""
    from geolab.bots.geodouble import estimate
    from geolab.bots.geodouble.declare import Context, chance
    from geolab.bots.geodouble.registry import BOTS
    from geolab.games.geodouble import batch

    log: list = []
    bots = []
    for _ in range(2):
        bot = BOTS.make(spec, rules)
        bot.declarer = Recorder(bot.declarer, log)
        bots.append(bot)
    batch.batch(rules, bots, n, seed, stream=0, threads=1)
    batch.batch(rules, bots[::-1], n, seed, stream=1, threads=1)
    cat = {k: np.concatenate([row[k] for row in log]) for k in log[0]}
    table = estimate.shipped()
    ctx = Context(rules, cat["hand"], np.zeros_like(cat["hand"]), cat["leads"], cat["other"].astype(np.int8),
                  cat["mine"], cat["theirs"], np.zeros(len(cat["hand"]), np.uint64))
    ranks = estimate.best_ranks(cat["hand"], 6)
    role = np.where(cat["leads"], "dealer", np.where(cat["other"] == 1, "second, after a declaration",
                                                     "second, after silence"))
    return pd.DataFrame({"policy": spec, "role": role, "mine": cat["mine"], "theirs": cat["theirs"],
                         "difference": cat["mine"] - cat["theirs"], "fourth_best": ranks[:, 3],
                         "best_rank_sum": ranks.sum(axis=1), "chance": chance(table, ctx), "declared": cat["declared"]})


def part_declare(n: int, n_chart: int, seed: int, out: Path, argv, tricks: str = "greedy",
                 policies: tuple[str, ...] = POLICIES) -> dict:
    """Item 4: the declaration policies head to head (`geolab.lab.arena` on duplicate matches,
    the same trick bot and speed), and the score-aware and Monte Carlo policies' decisions by
    hand strength and score, as a chart for the table."""
    from geolab.lab import arena, plots

    start = time.perf_counter()
    rules = match_rules()
    specs = [f"player:tricks={tricks},declare={p}" for p in policies]
    names = dict(zip(specs, policies))
    result = arena.run(match_runner(rules), specs, n, seed, length="rounds", progress=False)
    pairs = result.pairs_table().replace({"a": names, "b": names})
    ratings = result.ratings_table(anchor=specs[0]).replace({"bot": names})
    write_table(pairs, out, "pairs")
    write_table(ratings, out, "ratings")
    fig = plots.win_rate_heatmap(pairs, list(policies), f"GeoDouble declaration policies ({tricks} tricks, speed 1)")
    save_figure(fig, out / "pairs.png")
    plots.close(fig)
    fig = plots.rating_ladder(ratings, f"GeoDouble declaration policies ({tricks} tricks, speed 1)", "never")
    save_figure(fig, out / "ratings.png")
    plots.close(fig)
    print(f"declare: {len(pairs)} pairs x {n:,} duplicate matches in {time.perf_counter() - start:.0f} s", flush=True)
    chart = pd.concat([decisions(rules, f"player:tricks={tricks},declare={p}", n_chart, seed + 1)
                       for p in ("score", "montecarlo", "threshold") if p in policies], ignore_index=True)
    chart["policy"] = chart.policy.str.extract(r"declare=(\w+)")[0]
    cells = declare_cells(chart)
    write_table(cells, out, "declare_chart")
    rates = (chart.groupby(["policy", "role"]).declared.agg(["mean", "size"]).reset_index()
             .rename(columns={"mean": "declare_rate", "size": "decisions"}))
    write_table(rates, out, "declare_rates")
    figure_declare(cells, chart, out, tricks)
    info = meta(command=command(argv), part="declare", rules="GeoDouble, official preset", tricks=tricks, speed=1.0,
                race_model={"name": "human", "defaults": race_defaults()},
                policies=list(policies), specs=specs, deals_per_pair=n, seed=seed,
                duplicate="geolab.lab.arena.run: each pair on the same duplicate matches (seats swapped, same cards), "
                          "every pair on the same deals (blocks of 10,000 seeded by SeedSequence(seed).spawn)",
                chart={"matches": n_chart, "seed": seed + 1, "line_ups": "each policy against itself",
                       "x": "the rank of the hand's fourth-best card (each card's best rank over size, statehood and "
                            "population; the six kept cards sorted best first)",
                       "y": "the score difference before the stage (mine - theirs, this round's race counted)"},
                statistics="pairs: duplicate_interval; ratings: Bradley-Terry, Elo points from never; chart cells: "
                           "share declaring with its count",
                wall_seconds=round(time.perf_counter() - start, 1))
    write_json(info, out / "meta.json")
    return info


def declare_cells(chart: pd.DataFrame) -> pd.DataFrame:
    c = chart.assign(fourth_bin=pd.cut(chart.fourth_best, FOURTH_BINS, right=True),
                     diff_bin=pd.cut(chart.difference, DIFF_BINS, right=False))
    g = c.groupby(["policy", "role", "fourth_bin", "diff_bin"], observed=True)
    cells = g.agg(decisions=("declared", "size"), declares=("declared", "sum"), chance=("chance", "mean")).reset_index()
    low, high = zip(*(wilson(k, m) for k, m in zip(cells.declares, cells.decisions)))
    cells["declare_rate"] = cells.declares / cells.decisions
    cells["ci_low"], cells["ci_high"] = low, high
    cells["fourth_lo"] = [i.left + 1 for i in cells.fourth_bin]
    cells["fourth_hi"] = [i.right for i in cells.fourth_bin]
    cells["difference"] = [DIFF_LABELS[DIFF_BINS.index(i.left)] for i in cells.diff_bin]
    return cells.drop(columns=["fourth_bin", "diff_bin"])


ROLES = ("dealer", "second, after silence", "second, after a declaration")


def figure_declare(cells: pd.DataFrame, chart: pd.DataFrame, out: Path, tricks: str = "greedy") -> None:
    import matplotlib.pyplot as plt

    pols = [p for p in ("score", "montecarlo") if p in set(cells.policy)]
    fig, axes = plt.subplots(len(pols), 3, figsize=(17, 5.6 * len(pols)), squeeze=False)
    fig.subplots_adjust(hspace=0.42, wspace=0.32)
    xs = [f"{a}-{b}" if b < 50 else f"{a}+" for a, b in zip(np.array(FOURTH_BINS[:-1]) + 1, FOURTH_BINS[1:])]
    ys = list(DIFF_LABELS)
    for row, pol in zip(axes, pols):
        for ax, role in zip(row, ROLES):
            part = cells[(cells.policy == pol) & (cells.role == role)]
            m = np.full((len(ys), len(xs)), np.nan)
            count = np.zeros_like(m)
            for r in part.itertuples():
                i = ys.index(r.difference)
                j = list(np.array(FOURTH_BINS[:-1]) + 1).index(r.fourth_lo)
                m[i, j], count[i, j] = r.declare_rate, r.decisions
            m[count < 30] = np.nan  # too few to show
            im = ax.imshow(m, cmap="RdYlGn", vmin=0, vmax=1, origin="lower", aspect="auto")
            for i in range(len(ys)):
                for j in range(len(xs)):
                    if np.isfinite(m[i, j]):
                        ax.text(j, i, f"{m[i, j]:.0%}", ha="center", va="center", fontsize=7)
            ax.set_xticks(range(len(xs)), xs, fontsize=8)
            ax.set_yticks(range(len(ys)), ys, fontsize=8)
            ax.set(xlabel="your 4th-best card's rank", ylabel="your score minus theirs",
                   title=f"{pol}: {role}\n({int(part.decisions.sum()):,} decisions)")
        fig.colorbar(im, ax=row, shrink=0.8, label="share that declare")
    fig.suptitle(f"When to declare GeoPlunging ({tricks} tricks): the share of decisions that declare, by hand and "
                 "score\n"
                 "(sort your six cards by their best rank over size, statehood and population, and read the fourth; "
                 "cells with under 30 decisions left blank)", y=1.01)
    save_figure(fig, out / "declare_chart.png")
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(7, 4.2))
    c = chart[chart.policy == pols[0]]
    for role, color in zip(ROLES, ("tab:blue", "tab:orange", "tab:green")):
        part = c[c.role == role].groupby("fourth_best").chance.agg(["mean", "size"])
        part = part[part["size"] >= 30]
        ax.plot(part.index, part["mean"], color=color, label=role)
    ax.axhline(0.5, color="grey", lw=0.8)
    ax.set(xlabel="rank of your 4th-best card", ylabel="stage win chance (the win table)", ylim=(0, 1),
           title="Your stage chance by your 4th-best card (the win table: greedy play)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    save_figure(fig, out / "chance_by_fourth.png")
    plt.close(fig)


#: The balance cards: the official rules against each variant (`geolab balance geodouble`).
VARIANTS = {
    "corners-water": ("four_corners=true", "water=true"),
    "race-points-5": ("race_points=5",),
    "no-geoplunging-bonus": ("stage.win_points=[5,5,5]",),
    "target-25": ("target=25",),
}


def part_balance(n: int, seed: int, out: Path, argv) -> dict:
    """Item 6: `geolab balance geodouble` report cards, the official rules against each of
    `VARIANTS`, each into its own folder (balance.csv, balance.png, meta.json), and all the
    cards' lines in one table."""
    import shutil
    import subprocess

    start = time.perf_counter()
    out.mkdir(parents=True, exist_ok=True)
    cards, commands = [], {}
    for name, sets in VARIANTS.items():
        folder = out / name
        if folder.exists():
            shutil.rmtree(folder)
        args = ["balance", "geodouble", *(x for s in sets for x in ("--set", s)), "--games", str(n),
                "--seed", str(seed), "--out", str(folder)]
        commands[name] = "geolab " + " ".join(args)
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "geolab", *args], check=True, stdout=subprocess.DEVNULL)
        card = pd.read_csv(folder / "balance.csv")
        cards.append(card.assign(card=name, changes=" ".join(sets)))
        print(f"balance {name}: {time.perf_counter() - t:.0f} s", flush=True)
    table = pd.concat(cards, ignore_index=True)
    write_table(table, out, "cards")
    info = meta(command=command(argv), part="balance", deals_per_line_up=n, seed=seed, commands=commands,
                race_model={"name": "human", "defaults": race_defaults()},
                cards={name: f"{name}/balance.csv, balance.png, meta.json" for name in VARIANTS},
                note="every card measures the official rules and its variant on the same seeds; the official "
                     "values repeat in every card",
                wall_seconds=round(time.perf_counter() - start, 1))
    write_json(info, out / "meta.json")
    return info


# ----- the command line ------------------------------------------------------------------------
PARTS_A = ("solutions", "states", "discards")
PARTS_B = ("speed", "declare", "balance")


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("part", choices=(*PARTS_A, *PARTS_B, "a", "b", "all"),
                        help="which part to run (a: part A; b: part B; all: every part)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--check-seed", type=int, default=2, help="the discard study's second seed")
    parser.add_argument("--hands", type=int, default=2_000_000,
                        help="deals (hands) a border setting (solutions, states)")
    parser.add_argument("--deals", type=int, default=50_000, help="stage-2 deals a seed and continuation (discards)")
    parser.add_argument("--matches", type=int, default=20_000, help="duplicate matches a pair (part B)")
    parser.add_argument("--balance-games", type=int, default=100_000,
                        help="duplicate deals a line-up of a balance card")
    parser.add_argument("--chart-matches", type=int, default=20_000,
                        help="duplicate self-play matches a policy for the declaration chart")
    parser.add_argument("--search-matches", type=int, default=5_000,
                        help="duplicate matches a pair with the search bot (part B)")
    parser.add_argument("--continuation", action="append", dest="continuations",
                        help="a continuation of the discard study (repeat it; default: learned, then greedy)")
    parser.add_argument("--folder", default=None,
                        help="the discards or declare part's folder under --out (default: the part's name)")
    parser.add_argument("--tricks", default="greedy", help="declare: every player's trick bot (default greedy)")
    parser.add_argument("--policies", default=",".join(POLICIES), help="declare: the declaration policies to meet")
    parser.add_argument("--plots-only", action="store_true",
                        help="discards: redraw its plots from the tables in its folder")
    parser.add_argument("--small", action="store_true", help="tiny sizes (a quick look; the notebook without results)")
    parser.add_argument("--out", default=str(OUT))
    args = parser.parse_args(argv)
    if args.small:
        args.hands, args.deals, args.matches, args.search_matches, args.chart_matches = 20_000, 600, 400, 20, 300
    out = Path(args.out)
    todo = {"a": PARTS_A, "b": PARTS_B, "all": PARTS_A + PARTS_B}.get(args.part, (args.part,))
    for part in todo:
        if part == "solutions":
            part_solutions(args.hands, args.seed, out / "solutions", argv)
        elif part == "states":
            part_states(args.hands, args.seed, out / "states", argv)
        elif part == "discards" and args.plots_only:
            folder = out / (args.folder or "discards")
            m = json.loads((folder / "meta.json").read_text())
            figure_discards({name: pd.read_csv(folder / f"{name}.csv") for name in DISCARD_TABLES},
                            m["continuations"][0], m["seeds"][0], folder)
        elif part == "discards":
            part_discards(args.deals, (args.seed, args.check_seed), tuple(args.continuations or ("learned", "greedy")),
                          out / (args.folder or "discards"), argv)
        elif part == "declare":
            part_declare(args.matches, args.chart_matches, args.seed, out / (args.folder or "declare"), argv,
                         tricks=args.tricks, policies=tuple(args.policies.split(",")))
        elif part == "balance":
            part_balance(args.matches if args.small else args.balance_games, args.seed, out / "balance", argv)
        elif part == "speed":
            part_speed(args.matches, args.search_matches, args.seed, out / "speed", argv, args.small)
    return 0


if __name__ == "__main__":
    sys.exit(main())
