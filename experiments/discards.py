"""Which card should you discard? Win probability of each of the 9 discards, Combo 1 and Battles.

Each sampled deal is played once for every card side A could discard (the same deal every
time: common random numbers), then played out by a fixed strong continuation on both sides
(the learned bot by default; side B discards as it likes). From the outcomes:

* `by_position.csv`: win rate when discarding the hand's k-th most useful card (k = 1..9);
* `rules_of_thumb.csv`: how often each rule of thumb picks a best discard, its win rate and
  its regret against the best discard in hindsight;
* `card_values.csv`: the value of holding each state's card: in the deals where A holds it,
  the win rate when keeping it (discarding another card) minus the win rate when discarding it;
* plots (PNG) and `meta.json`. Every number has its sample size and a 95% interval; the whole
  study runs on two seeds, and `meta.json` says which conclusions agree.

    python experiments/discards.py                   # 20,000 deals a form and seed
    python experiments/discards.py --deals 2000      # a quick look
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

import geolab.games.ranks.batch as rb
from geolab.bots.ranks.learning.features import FEATURES, max_candidates
from geolab.bots.ranks.learning.training import Forcing
from geolab.bots.ranks.registry import BOTS
from geolab.cards import CATEGORIES, POSTAL, RANKS
from geolab.common.seeding import int_seed
from geolab.game import BatchBot
from geolab.games.ranks.rules import Rules
from geolab.lab import plots
from geolab.lab.results import meta, save_figure, write_json, write_table
from geolab.lab.stats import mean_ci, wilson

FORMS = ("combo1", "battle1")
TABLES = ("rules_of_thumb", "by_position", "card_values")
BATCH = 8192
#: Discard rules of thumb computed from the ranks alone: hand ranks (n, 9, 3) -> column.
RANK_RULES = {
    "highest average rank": lambda r: r.mean(axis=2).argmax(axis=1),
    "most middling average": lambda r: np.abs(r.mean(axis=2) - 25.5).argmin(axis=1),
    "worst best rank": lambda r: r.min(axis=2).argmax(axis=1),
    "newest state (worst statehood)": lambda r: r[:, :, 1].argmax(axis=1),
    "oldest state (best statehood)": lambda r: r[:, :, 1].argmin(axis=1),
}
#: Bots whose own discard is a rule of thumb (the greedy one is "least useful").
BOT_RULES = {"greedy": "least useful (greedy)", "planner": "planner's plan", "counter": "counter",
             "learned": "learned bot"}


class DiscardBy(BatchBot):
    """One policy's discard, another's play: to read a bot's discard choice on the same deals."""

    def __init__(self, discarder, player):
        self.discarder, self.player = discarder, player
        self.name = f"{discarder.name}-discard"

    def act(self, obs, rng):
        return (self.discarder if obs.kind == "discard" else self.player).act(obs, rng)


def _score(played: rb.Played, side: int) -> np.ndarray:
    return np.where(played.winner < 0, 0.5, (played.winner == side).astype(float))


def play_deals(rules: Rules, deals: int, seed: int, continuation: str):
    """outcome (n, 9): A's score discarding its j-th card; hands (n, 9); features (n, 9, F);
    choice[name] (n,): the column each bot discards."""
    K, F = max_candidates(rules, "discard"), len(FEATURES["discard"])
    outcome, hands, X, choice = [], [], [], {b: [] for b in BOT_RULES}
    for b, child in enumerate(np.random.SeedSequence([seed, 7]).spawn(-(-deals // BATCH))):
        n = min(BATCH, deals - b * BATCH)
        game_seed = int_seed(child)
        cont = BOTS.make(continuation, Rules())
        record = {"reached": np.zeros(n, bool), "side": np.zeros(n, np.int64),
                  "X": np.zeros((n, K, F), np.float32), "valid": np.zeros((n, K), bool)}  # fmt: skip
        out = np.zeros((n, K))
        zeros = np.zeros(n, np.int64)
        for j in range(K):
            forced = Forcing(cont, "discard", zeros, zeros, j, record if j == 0 else None)
            played = rb.play(rules, (forced, cont), n, game_seed, chunk=n, threads=1)
            out[:, j] = _score(played, 0)
        hand = played.hands[:, 0, :].astype(np.int64)
        for bot in BOT_RULES:
            chosen = rb.play(rules, (DiscardBy(BOTS.make(bot, Rules()), cont), cont), n, game_seed, chunk=n, threads=1)
            choice[bot].append((hand == chosen.discards[:, 0, :1]).argmax(axis=1))
        assert record["valid"].all()
        outcome.append(out), hands.append(hand), X.append(record["X"])
    return (np.concatenate(outcome), np.concatenate(hands), np.concatenate(X),
            {k: np.concatenate(v) for k, v in choice.items()})  # fmt: skip


def _rate(values: np.ndarray) -> dict:
    low, high = wilson(float(values.sum()), len(values))
    return {"n": len(values), "rate": float(values.mean()) if len(values) else float("nan"), "ci_low": low,
            "ci_high": high}


def analyse(form: str, seed: int, outcome, hands, X, choice) -> dict[str, pd.DataFrame]:
    n, K = outcome.shape
    rows = np.arange(n)
    best = outcome.max(axis=1)
    matters = best > outcome.min(axis=1)
    ranks = RANKS.astype(np.int64)[hands]  # (n, 9, 3)
    picks = {name: rule(ranks) for name, rule in RANK_RULES.items()}
    picks.update({label: choice[bot] for bot, label in BOT_RULES.items()})
    thumb = []
    greedy = outcome[rows, choice["greedy"]]
    for name, col in picks.items():
        got = outcome[rows, col]
        regret, versus = mean_ci(best - got), mean_ci(got - greedy)
        win = _rate(got)
        hit, hit_m = _rate(got == best), _rate((got == best)[matters])
        thumb.append({"form": form, "seed": seed, "rule": name, "deals": n, "win_rate": win["rate"],
                      "win_ci_low": win["ci_low"], "win_ci_high": win["ci_high"],
                      "picks_best": hit["rate"], "picks_best_ci_low": hit["ci_low"],
                      "picks_best_ci_high": hit["ci_high"],
                      "deals_where_it_matters": hit_m["n"], "picks_best_where_it_matters": hit_m["rate"],
                      "pbm_ci_low": hit_m["ci_low"], "pbm_ci_high": hit_m["ci_high"],
                      "regret": regret[0], "regret_ci_low": regret[1], "regret_ci_high": regret[2],
                      "minus_greedy": versus[0], "minus_greedy_ci_low": versus[1],
                      "minus_greedy_ci_high": versus[2]})  # fmt: skip
    for name, got in (("random card (average of the 9)", outcome.mean(axis=1)), ("best in hindsight", best)):
        m = mean_ci(got)
        thumb.append({"form": form, "seed": seed, "rule": name, "deals": n, "win_rate": m[0], "win_ci_low": m[1],
                      "win_ci_high": m[2], "regret": float((best - got).mean())})  # fmt: skip
    # the k-th most useful card: usefulness (feature 0) high first, ties by card order
    useful = X[:, :, FEATURES["discard"].index("usefulness")]
    order = np.argsort(-useful, axis=1, kind="stable")
    position = []
    for k in range(K):
        m = mean_ci(outcome[rows, order[:, k]])
        position.append({"form": form, "seed": seed, "position": k + 1, "deals": n, "win_rate": m[0],
                         "ci_low": m[1], "ci_high": m[2]})  # fmt: skip
    # the value of holding each card: keep it (mean of the other discards) minus discard it
    keep = (outcome.sum(axis=1, keepdims=True) - outcome) / (K - 1)
    value = []
    for c in range(len(POSTAL)):
        where = hands == c
        if not where.any():
            continue
        v = mean_ci(keep[where] - outcome[where])
        value.append({"form": form, "seed": seed, "card": POSTAL[c], "deals": int(where.sum()), "value": v[0],
                      "ci_low": v[1], "ci_high": v[2], "win_if_discarded": float(outcome[where].mean()),
                      **{c_name: int(RANKS[c, k]) for k, c_name in enumerate(CATEGORIES)}})  # fmt: skip
    return {"rules_of_thumb": pd.DataFrame(thumb), "by_position": pd.DataFrame(position),
            "card_values": pd.DataFrame(value)}  # fmt: skip


def agreement(tables: dict[str, pd.DataFrame], seeds: tuple[int, int]) -> dict:
    """Do the two seeds tell the same story? Computed, per form."""
    out = {}
    thumb, values, pos = tables["rules_of_thumb"], tables["card_values"], tables["by_position"]
    for form in FORMS:
        named = thumb[(thumb.form == form) & thumb.picks_best.notna()]
        ranking = [list(named[named.seed == s].sort_values("win_rate", ascending=False).rule) for s in seeds]
        v = [values[(values.form == form) & (values.seed == s)].set_index("card").value for s in seeds]
        p = [pos[(pos.form == form) & (pos.seed == s)].set_index("position").win_rate for s in seeds]
        tied = []  # rules whose win-rate interval reaches the best rule's rate, per seed
        for s in seeds:
            part = named[named.seed == s]
            tied.append(set(part[part.win_ci_high >= part.win_rate.max()].rule))
        out[form] = {
            "best_rule": [r[0] for r in ranking],
            "best_rule_is_top_on_other_seed": ranking[0][0] in tied[1] and ranking[1][0] in tied[0],
            "worst_rule_same": ranking[0][-1] == ranking[1][-1],
            "worst_rule": [r[-1] for r in ranking],
            "rule_ranking_spearman": float(pd.Series(range(len(ranking[0])), index=ranking[0]).corr(
                pd.Series(range(len(ranking[1])), index=ranking[1]), method="spearman")),
            "card_value_correlation": float(v[0].corr(v[1])),
            "top5_cards": [list(x.sort_values(ascending=False).index[:5]) for x in v],
            "least_useful_position_best": [int(x.idxmax()) for x in p],
        }
    return out


def figures(tables: dict[str, pd.DataFrame], seed: int, out: Path) -> None:
    import matplotlib.pyplot as plt

    pos = tables["by_position"][tables["by_position"].seed == seed]
    fig, ax = plt.subplots(figsize=(7, 4))
    for form, part in pos.groupby("form"):
        ax.errorbar(part.position, part.win_rate, yerr=[part.win_rate - part.ci_low, part.ci_high - part.win_rate],
                    marker="o", capsize=3, label=form)  # fmt: skip
    ax.set_xticks(range(1, 10), ["1\nmost\nuseful", *map(str, range(2, 9)), "9\nleast\nuseful"])
    ax.set_xlabel("the card you discard (ranked by how close its best rank is to a base)")
    ax.set_ylabel("win rate")
    ax.set_title("Which card to throw away? Win rate by the card discarded\n"
                 f"{int(pos.deals.iloc[0]):,} deals per form, 95% CI")
    ax.grid(alpha=0.3)
    ax.legend()
    save_figure(fig, out / "win_by_discard.png")
    plots.close(fig)

    thumb = tables["rules_of_thumb"]
    thumb = thumb[(thumb.seed == seed) & thumb.picks_best.notna()]
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5), sharey=True)
    for ax, (form, part) in zip(axes, thumb.groupby("form")):
        part = part.sort_values("win_rate")
        y = np.arange(len(part))
        ax.errorbar(part.win_rate, y, xerr=[part.win_rate - part.win_ci_low, part.win_ci_high - part.win_rate],
                    fmt="o", capsize=3)  # fmt: skip
        ax.set_yticks(y, [f"{r}  (best {p:.0%})" for r, p in zip(part.rule, part.picks_best_where_it_matters)])
        ax.set_title(f"{form}: win rate of each discard rule")
        ax.set_xlabel(f"win rate, 95% CI, {int(part.deals.iloc[0]):,} deals")
        ax.grid(axis="x", alpha=0.3)
    fig.suptitle("(best x% = how often the rule picks a best card, in the deals where the choice matters)", y=0.0,
                 fontsize=9)
    fig.tight_layout()
    save_figure(fig, out / "rules_of_thumb.png")
    plots.close(fig)

    values = tables["card_values"][tables["card_values"].seed == seed]
    fig, axes = plt.subplots(1, 2, figsize=(13, 11))
    for ax, (form, part) in zip(axes, values.groupby("form")):
        part = part.sort_values("value")
        y = np.arange(len(part))
        ax.barh(y, part.value, xerr=[part.value - part.ci_low, part.ci_high - part.value], capsize=2, color="tab:blue")
        ax.set_yticks(y, [f"{c} (size {s}, st {h}, pop {p})" for c, s, h, p in
                          zip(part.card, part["size"], part.statehood, part.population)], fontsize=7)  # fmt: skip
        ax.axvline(0, color="grey", lw=0.8)
        ax.set_title(f"{form}: value of keeping each card\n(win rate keeping it minus discarding it; 95% CI)")
        ax.set_xlabel(f"win-rate points; about {int(part.deals.median()):,} deals per card")
    fig.tight_layout()
    save_figure(fig, out / "card_values.png")
    plots.close(fig)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20000, help="deals per form and seed (default 20000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--check-seed", type=int, default=2, help="the second seed the conclusions are checked on")
    parser.add_argument("--continuation", default="learned",
                        help="policy that plays after the discard, both sides (default learned)")
    parser.add_argument("--out", default="results/discards")
    parser.add_argument("--plots-only", action="store_true", help="redraw the plots from the tables in --out")
    args = parser.parse_args(argv)
    out, start = Path(args.out), time.perf_counter()
    if args.plots_only:
        figures({name: pd.read_csv(out / f"{name}.csv") for name in TABLES}, args.seed, out)
        return 0
    parts: dict[str, list[pd.DataFrame]] = {}
    for form in FORMS:
        for seed in (args.seed, args.check_seed):
            t = time.perf_counter()
            tables = analyse(form, seed, *play_deals(Rules.preset(form), args.deals, seed, args.continuation))
            for name, df in tables.items():
                parts.setdefault(name, []).append(df)
            print(f"{form} seed {seed}: {args.deals:,} deals x 13 plays in {time.perf_counter() - t:.1f} s", flush=True)
    tables = {name: pd.concat(dfs, ignore_index=True) for name, dfs in parts.items()}
    for name, df in tables.items():
        write_table(df.round(5), out, name)
    figures(tables, args.seed, out)
    check = agreement(tables, (args.seed, args.check_seed))
    write_json(meta(command=" ".join(["python", "experiments/discards.py", *sys.argv[1:]]), forms=list(FORMS),
                    deals_per_form_and_seed=args.deals, seeds=[args.seed, args.check_seed],
                    continuation=args.continuation, plays_per_deal="9 forced discards + 4 bot discards",
                    statistics="win rates: Wilson 95% CI (0/1 outcomes) or normal CI over deals; "
                               "regret and card values: normal 95% CI over deals",
                    second_seed_check=check, wall_seconds=round(time.perf_counter() - start, 1)),
               out / "meta.json")  # fmt: skip
    print(f"results in {out}/ ({time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
