"""State IQ: how hard each state is to find, under every Power card, with full and with partial
knowledge, and what the clue-giver's choice of border is worth -> results/state_iq/ (tidy
CSVs and Parquet, PNG figures, meta.json), summarised in docs/rules-stateiq.md ("What the
research found").

1. ``states``: for every held state and every clue order of the Power deck, the first guessing
   team's expected guesses (a miss counted as 4) and its chances of finding the state at guess
   1, 2, 3 and within 3, against a random border and against the hard clue-giver; the optimal
   guesser with full knowledge, averaged over its own card (each of the 49 others alike).
   Exact (`geolab.bots.stateiq.evaluate`): every clue and every tied guess enumerated, nothing
   sampled. ``deck``: the same over the 15 Power cards (each order by its cards).
2. ``orders``: each order's means over the held state (each alike), and what the hard
   clue-giver adds over a random border.
3. ``knowledge``: guessers that know a share of the border pairs, capitals or postal codes,
   drawn from seeds; per seed the exact means over states and own cards (floats), then the mean
   over seeds with a 95% t-interval (the seed, what the guesser happens to know, is the sampled
   part). ``knowledge_states``: each state's mean over seeds for the partial settings.
4. ``games``: whole games on the batch engine, each deal played with the seats both ways
   (duplicate): the share of the game a line-up's first player wins, with a 95% interval over
   deals; and how often the first guessing team wins.

    python experiments/state_iq.py            # the numbers in the doc
    python experiments/state_iq.py --small    # a quick look
"""

from __future__ import annotations

import argparse
import os
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

from geolab import registry
from geolab.bots.stateiq.evaluate import averaged
from geolab.bots.stateiq.knowledge import Knowledge
from geolab.bots.stateiq.search import Guesser, HardGiver, guess_costs
from geolab.cards import NAMES, POSTAL, POWER_DECK
from geolab.games.stateiq import clues as facts
from geolab.games.stateiq.rules import Rules
from geolab.lab.results import ResultSet, meta

OUT = Path(__file__).resolve().parents[1] / "results" / "state_iq"
ORDERS = sorted({p.clues for p in POWER_DECK})
CARDS = {o: sum(p.clues == o for p in POWER_DECK) for o in ORDERS}  # Power cards of each order
NUMBERS = {o: " ".join(str(i + 1) for i, p in enumerate(POWER_DECK) if p.clues == o) for o in ORDERS}
COSTS = guess_costs(4)
SETTINGS = {  # name -> (borders, capitals, postal)
    "borders 0.75": (0.75, 1.0, 1.0), "borders 0.5": (0.5, 1.0, 1.0),
    "capitals 0.75": (1.0, 0.75, 1.0), "capitals 0.5": (1.0, 0.5, 1.0),
    "postal 0.5": (1.0, 1.0, 0.5),
    "all 0.75": (0.75, 0.75, 0.75), "all 0.5": (0.5, 0.5, 0.5),
}


def old(**changes) -> str:
    """A spec of the search player these line-ups study (the default before the equilibrium
    player: ``player:guess=optimal,clue=hard,objective=guesses``), with changes."""
    fields = {"guess": "optimal", "clue": "hard", "objective": "guesses", **changes}
    return "player:" + ",".join(f"{k}={v}" for k, v in fields.items())


GAPS = {0.75: dict(borders=0.75, capitals=0.75, postal=0.75, seed=1), 0.5: dict(borders=0.5, capitals=0.5, postal=0.5,
                                                                               seed=1)}
LINEUPS = [  # (name, first bot, second bot): the first bot's share is reported
    ("hard v random clue-giver", old(), old(clue="random")),
    ("hard (miss) v random clue-giver", old(aim="miss"), old(clue="random")),
    ("hard v random clue-giver, greedy guessers", old(guess="greedy"), old(guess="greedy", clue="random")),
    ("optimal v greedy guesser, random borders", old(clue="random"), old(guess="greedy", clue="random")),
    ("optimal v random guesser, random borders", old(clue="random"), old(guess="random", clue="random")),
    ("optimal v greedy guesser, hard borders", old(), old(guess="greedy")),
    ("optimal v random guesser, hard borders", old(), old(guess="random")),
    ("game v guesses objective", old(objective="game"), old()),
    ("full v 0.75 knowledge", old(), old(**GAPS[0.75])),
    ("full v 0.5 knowledge", old(), old(**GAPS[0.5])),
]


def row(s: int, order: str, giver: str, o, **extra) -> dict:
    return {"state": POSTAL[s], "name": NAMES[s], "order": order, "power_cards": NUMBERS[order], "giver": giver,
            **extra,
            "expected": float(o.cost(COSTS)), "found_1": float(o.found[0]), "found_2": float(o.found[1]),
            "found_3": float(o.found[2]), "found": float(o.within), "miss": float(o.miss)}


def perfect(rules: Rules) -> pd.DataFrame:
    """Every state, order and clue-giver, full knowledge, exact: the optimal guesser (the one
    the hard clue-giver plays against) and the greedy one (which it does not model)."""
    optimal = Guesser(Knowledge())
    hard = HardGiver(rules, optimal)
    out = []
    for name, guesser in (("optimal", optimal), ("greedy", Guesser(Knowledge(), "greedy"))):
        for order in ORDERS:
            plan = facts.program(order)
            for s in range(50):
                out.append(row(s, order, "random", averaged(guesser, s, plan, rules), guesser=name))
                out.append(row(s, order, "hard", averaged(guesser, s, plan, rules, hard), guesser=name))
            print(f"full knowledge, {name} guesser, {order}: done", flush=True)
    return pd.DataFrame(out)


MEASURES = ["expected", "found_1", "found_2", "found_3", "found", "miss"]


def over_deck(states: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """The means over the 15 Power cards (each order weighed by its cards), by `keys`, which
    must hold the state (a mean over states is then `over_states`)."""
    w = states["order"].map(CARDS) / len(POWER_DECK)
    weighted = states[MEASURES].mul(w, axis=0)
    return weighted.groupby([states[k] for k in keys]).sum().reset_index()


def extremes(deck: pd.DataFrame, k: int = 8) -> pd.DataFrame:
    """The k hardest and k easiest states for the optimal guesser over the deck, against each
    clue-giver, with their rank (1: hardest)."""
    out = []
    for _giver, part in deck[deck.guesser == "optimal"].groupby("giver"):
        part = part.sort_values("expected", ascending=False).reset_index(drop=True)
        part["rank"] = np.arange(1, len(part) + 1)
        out.append(pd.concat([part.head(k).assign(end="hardest"), part.tail(k).assign(end="easiest")]))
    return pd.concat(out, ignore_index=True)


def one_seed(job) -> list[dict]:
    """One partial-knowledge guesser (setting, seed): each order and clue-giver's per-state
    outcomes, averaged over the guesser's own card (floats)."""
    name, seed = job
    borders, capitals, postal = SETTINGS[name]
    rules = Rules()
    guesser = Guesser(Knowledge(borders=borders, capitals=capitals, postal=postal, seed=seed))
    hard = HardGiver(rules, Guesser(Knowledge()))
    out = []
    for order in ORDERS:
        plan = facts.program(order)
        for s in range(50):
            for giver, g in (("random", None), ("hard", hard)):
                out.append(row(s, order, giver, averaged(guesser, s, plan, rules, g, exact=False), setting=name,
                               seed=seed))
    print(f"{name}, seed {seed}: done", flush=True)
    return out


def interval(values: np.ndarray) -> tuple[float, float, float]:
    """Mean and 95% t-interval over seeds."""
    values = np.asarray(values, float)
    m = values.mean()
    if len(values) < 2:
        return m, np.nan, np.nan
    half = stats.t.ppf(0.975, len(values) - 1) * values.std(ddof=1) / np.sqrt(len(values))
    return m, m - half, m + half


def knowledge(seeds: int, settings: list[str], workers: int) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    jobs = [(name, seed) for name in settings for seed in range(seeds)]
    with ProcessPoolExecutor(workers) as pool:
        rows = [r for part in pool.map(one_seed, jobs) for r in part]
    per_state = pd.DataFrame(rows)
    w = per_state["order"].map(CARDS) / len(POWER_DECK)
    per_state["w_expected"], per_state["w_found"] = per_state["expected"] * w, per_state["found"] * w
    # per seed: each order's mean over states, and the deck's
    by_order = per_state.groupby(["setting", "seed", "order", "giver"])[["expected", "found", "miss"]].mean()
    by_order = by_order.reset_index()
    deck = per_state.groupby(["setting", "seed", "giver"])[["w_expected", "w_found"]].sum().div(50).reset_index()
    deck = deck.rename(columns={"w_expected": "expected", "w_found": "found"}).assign(order="deck")
    seeds_table = pd.concat([by_order, deck], ignore_index=True)
    summary = []
    for (name, order, giver), part in seeds_table.groupby(["setting", "order", "giver"]):
        for what in ("expected", "found"):
            m, lo, hi = interval(part[what].to_numpy())
            summary.append({"setting": name, "order": order, "giver": giver, "measure": what, "mean": m, "low": lo,
                            "high": hi, "seeds": len(part)})
        if giver == "hard":
            other = seeds_table[(seeds_table.setting == name) & (seeds_table.order == order) &
                                (seeds_table.giver == "random")].sort_values("seed")
            diff = part.sort_values("seed")["expected"].to_numpy() - other["expected"].to_numpy()
            m, lo, hi = interval(diff)
            summary.append({"setting": name, "order": order, "giver": "hard - random", "measure": "expected",
                            "mean": m, "low": lo, "high": hi, "seeds": len(part)})
    states_mean = per_state.groupby(["setting", "state", "name", "giver"])[["w_expected", "w_found"]].sum()
    states_mean = (states_mean / seeds).reset_index().rename(columns={"w_expected": "expected", "w_found": "found"})
    return pd.DataFrame(summary), seeds_table, states_mean


def games(n: int, seed: int) -> pd.DataFrame:
    """Duplicate games of each line-up on the batch engine, and the first guesser's record."""
    entry = registry.get("state-iq")
    rules = entry.game.Rules.preset("official")
    out = []
    for name, a, b in LINEUPS:
        one = entry.game.batch(rules, [entry.bots.make(a, rules), entry.bots.make(b, rules)], n, seed, stream=0)
        two = entry.game.batch(rules, [entry.bots.make(b, rules), entry.bots.make(a, rules)], n, seed, stream=1)
        share = (one.scores[:, 0] + two.scores[:, 1]) / 2  # a's share of each deal, both seatings
        half = 1.96 * share.std(ddof=1) / np.sqrt(n)
        first_wins = np.concatenate([one.scores[np.arange(n), one.first], two.scores[np.arange(n), two.first]])
        ties = np.concatenate([one.scores[:, 0] == 0.5, two.scores[:, 0] == 0.5])
        fw = (first_wins == 1).mean()
        out.append({"lineup": name, "first": a, "second": b, "deals": n, "share": share.mean(),
                    "low": share.mean() - half, "high": share.mean() + half, "first_guesser_wins": fw,
                    "ties": ties.mean(), "second_guesser_wins": 1 - fw - ties.mean(),
                    "first_guesser_half_width": 1.96 * np.sqrt(fw * (1 - fw) / (2 * n)),
                    "mean_guesses": (one.length.mean() + two.length.mean()) / 2})
        print(f"{name}: {share.mean():.4f} [{share.mean() - half:.4f}, {share.mean() + half:.4f}]", flush=True)
    return pd.DataFrame(out)


def figures(states: pd.DataFrame, orders: pd.DataFrame, summary: pd.DataFrame):
    states, orders = states[states.guesser == "optimal"], orders[orders.guesser == "optimal"]
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figs = {}
    random = states[states.giver == "random"].pivot(index="state", columns="order", values="expected")
    deck = over_deck(states[states.giver == "random"], ["state"]).set_index("state")["expected"]
    random = random.loc[deck.sort_values().index]
    fig, ax = plt.subplots(figsize=(7, 11))
    im = ax.imshow(random.to_numpy(), aspect="auto", cmap="viridis", vmin=1, vmax=3)
    ax.set_xticks(range(len(ORDERS)), ORDERS)
    ax.set_yticks(range(len(random)), random.index, fontsize=7)
    ax.set_title("Expected guesses to find each state (full knowledge, random border)", fontsize=9)
    fig.colorbar(im, ax=ax, label="expected guesses (a miss counts 4)")
    figs["states.png"] = fig
    fig, ax = plt.subplots(figsize=(7, 3.5))
    x = np.arange(len(ORDERS))
    for k, giver in enumerate(("random", "hard")):
        part = orders[orders.giver == giver].set_index("order").loc[ORDERS]
        ax.bar(x + (k - 0.5) * 0.4, part["expected"], 0.4, label=f"{giver} border")
    ax.set_xticks(x, ORDERS)
    ax.set_ylim(1, 2.6)
    ax.set_ylabel("expected guesses")
    ax.set_title("By clue order: what the clue-giver's choice of border adds", fontsize=9)
    ax.legend()
    figs["orders.png"] = fig
    if len(summary):
        fig, ax = plt.subplots(figsize=(7, 3.5))
        part = summary[(summary.order == "deck") & (summary.measure == "expected")
                       & summary.giver.isin(["random", "hard"])]
        names = list(dict.fromkeys(part.setting))
        x = np.arange(len(names))
        for k, giver in enumerate(("random", "hard")):
            p = part[part.giver == giver].set_index("setting").loc[names]
            ax.errorbar(x + (k - 0.5) * 0.15, p["mean"], yerr=[p["mean"] - p["low"], p["high"] - p["mean"]], fmt="o",
                        capsize=3, label=f"{giver} border")
        ax.set_xticks(x, names, rotation=20, fontsize=8)
        ax.set_ylabel("expected guesses (deck)")
        ax.set_title("Guessers with partial knowledge (mean over seeds, 95% interval)", fontsize=9)
        ax.legend()
        figs["knowledge.png"] = fig
    return figs


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--small", action="store_true", help="few seeds and games, for a quick look")
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args(argv)
    sizes = dict(seeds=3, games=20_000, settings=["borders 0.5", "capitals 0.5", "all 0.75"]) if args.small else \
        dict(seeds=10, games=200_000, settings=list(SETTINGS))
    t0 = time.time()
    rules = Rules()
    states = perfect(rules)
    deck = over_deck(states, ["guesser", "state", "name", "giver"])
    orders = states.groupby(["guesser", "order", "power_cards", "giver"])[MEASURES].mean().reset_index()
    deck_mean = deck.groupby(["guesser", "giver"])[MEASURES].mean().reset_index().assign(order="deck",
                                                                                          power_cards="1-15")
    orders = pd.concat([orders, deck_mean], ignore_index=True)
    worth = orders.pivot(index=["guesser", "order"], columns="giver", values="expected")
    orders["hard_minus_random"] = [worth.loc[(g, o), "hard"] - worth.loc[(g, o), "random"]
                                   for g, o in zip(orders.guesser, orders.order)]
    print(orders.round(4).to_string(index=False), flush=True)
    ranked = extremes(deck)
    print(ranked.round(4).to_string(index=False), flush=True)
    t1 = time.time()
    summary, per_seed, states_partial = knowledge(sizes["seeds"], sizes["settings"], args.workers)
    print(summary[summary.order == "deck"].round(4).to_string(index=False), flush=True)
    t2 = time.time()
    table = games(sizes["games"], 2024)
    print(table.round(4).to_string(index=False), flush=True)
    t3 = time.time()
    with ResultSet(args.out) as rs:
        rs.table(states, "states")
        rs.table(deck, "deck")
        rs.table(ranked, "extremes")
        rs.table(orders, "orders")
        rs.table(summary, "knowledge")
        rs.table(per_seed, "knowledge_seeds")
        rs.table(states_partial, "knowledge_states")
        rs.table(table, "games")
        for name, fig in figures(states, orders, summary).items():
            rs.figure(fig, name)
        rs.json(meta(study="State IQ: states, clue orders, knowledge, the clue-giver's choice", sizes=sizes,
                     settings={k: SETTINGS[k] for k in sizes["settings"]}, seeds=list(range(sizes["seeds"])),
                     game_seed=2024, lineups=LINEUPS, miss_cost=COSTS[3], orders=CARDS,
                     seconds={"full knowledge": round(t1 - t0, 1), "partial knowledge": round(t2 - t1, 1),
                              "games": round(t3 - t2, 1)}), "meta.json")
    print("wrote", rs.path)


if __name__ == "__main__":
    main()
