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
    python experiments/geodouble.py discards --deals 2000 --continuations montecarlo:k=6,budget_ms=none \
        --folder discards-montecarlo                     # the search bot as the continuation, ~25 min
    python experiments/geodouble.py all --small          # a quick look (what the notebook makes without results)
"""

from __future__ import annotations

import argparse
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
from geolab.games import groups
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
    t = groups.tables(four_corners, water)
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
        both = groups.find_batch(d.ravel(), corners, water)
        k = both.geodouble.reshape(n, 2)
        check = groups.find_batch(d[:2000, 0], corners, water).geodouble  # the kernel agrees on a sample
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
    labels, x = [], np.arange(len(SETTINGS))
    width = 0.27
    for i, (label, color) in enumerate((("both", "tab:green"), ("one", "tab:orange"), ("neither", "tab:red"))):
        part = dl[dl.hands_with_solution == label].set_index("setting").reindex(list(SETTINGS))
        ax.bar(x + (i - 1) * width, part.rate, width, color=color,
               label={"both": "both hands hold one", "one": "one hand holds one", "neither": "neither (redeal)"}[label])
        for xi, r in zip(x + (i - 1) * width, part.rate):
            ax.text(xi, r + 0.01, f"{r:.2%}" if r < 0.05 else f"{r:.1%}", ha="center", fontsize=7)
    ax.set_xticks(x, list(SETTINGS))
    ax.set(ylim=(0, 1), ylabel="share of deals", title=f"A deal's two hands: both, one or neither holds a solution\n"
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
        check = groups.find_batch(hands[:5000], corners, water).geodouble
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
            rows.append({"setting": name, "card": POSTAL[c], "capital": CAPITALS[c], "hands": n, "hands_holding": int(held),
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
                          "p_used_as_border / p_used_as_capital": "... using it in the border group / the capital group",
                          "p_key": "P(every solution of the hand uses it | the hand holds it); 0 when the hand has none",
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


class PairForced:
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


class DiscardBy:
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
            pos = np.sort((hand[:, :, None] == chosen.discards[:, 0, None, :]).any(axis=2).nonzero()[1].reshape(n, 2), axis=1)
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
        t = thumb[(thumb.continuation == cont) & (thumb.first_lead == "all") & thumb.picks_best_where_it_matters.notna()]
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
    fig, axes = plt.subplots(1, 2, figsize=(14, 5), sharey=False)
    for ax, c in zip(axes, thumb.continuation.unique()):
        part = thumb[(thumb.continuation == c) & (thumb.seed == seed) & (thumb.first_lead == "all")].sort_values("win_rate")
        yy = np.arange(len(part))
        colors = ["grey" if pd.isna(p) else "tab:blue" for p in part.picks_best_where_it_matters]
        ax.barh(yy, part.win_rate, color=colors,
                xerr=[part.win_rate - part.win_ci_low, part.win_ci_high - part.win_rate], capsize=2)
        ax.set_yticks(yy, [r if pd.isna(p) else f"{r}  (best {p:.0%})"
                           for r, p in zip(part.rule, part.picks_best_where_it_matters)], fontsize=8)
        ax.axvline(0.5, color="grey", ls="--", lw=0.8)
        ax.set(xlim=(0.2, 0.85), xlabel=f"side A's win rate, 95% CI; {int(part.deals.iloc[0]):,} deals",
               title=f"GeoDouble stage 2: which two cards to discard\ncontinuation: {c} on both sides (seed {seed})")
        ax.grid(axis="x", alpha=0.3)
    fig.suptitle("(best x% = how often the rule's pair is a best pair in hindsight, in the deals where the pair matters)",
                 y=0.0, fontsize=9)
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
        ax.set(xlabel="the better card you discard (rank by best rank, 1 = lowest)", ylabel="the worse card you discard",
               title=f"Side A's win rate by the pair it discards (continuation {c})\n{int(g.deals.sum()) // len(PAIRS):,} "
                     f"deals x 28 pairs; 95% CI half-width <= {float((g.ci_high - g.ci_low).max() / 2):.1%}")
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


# ----- the command line ------------------------------------------------------------------------
PARTS_A = ("solutions", "states", "discards")


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("part", choices=(*PARTS_A, "a", "all"), help="which part to run (a: part A; all: every part)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--check-seed", type=int, default=2, help="the discard study's second seed")
    parser.add_argument("--hands", type=int, default=2_000_000, help="deals (hands) a border setting (solutions, states)")
    parser.add_argument("--deals", type=int, default=50_000, help="stage-2 deals a seed and continuation (discards)")
    parser.add_argument("--continuations", default="learned,greedy", help="discard study's continuations")
    parser.add_argument("--folder", default=None, help="the discards part's folder under --out (default discards)")
    parser.add_argument("--small", action="store_true", help="tiny sizes (a quick look; the notebook without results)")
    parser.add_argument("--out", default=str(OUT))
    args = parser.parse_args(argv)
    if args.small:
        args.hands, args.deals = 20_000, 600
    out = Path(args.out)
    todo = PARTS_A if args.part in ("a", "all") else (args.part,)
    for part in todo:
        if part == "solutions":
            part_solutions(args.hands, args.seed, out / "solutions", argv)
        elif part == "states":
            part_states(args.hands, args.seed, out / "states", argv)
        elif part == "discards":
            part_discards(args.deals, (args.seed, args.check_seed), tuple(args.continuations.split(",")),
                          out / (args.folder or "discards"), argv)
    return 0


if __name__ == "__main__":
    sys.exit(main())
