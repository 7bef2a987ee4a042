"""Jumbled GeoPower Choice studies -> results/jumbled/ (CSV tables, PNG plots, meta.json).

    python experiments/jumbled.py [--seed 0] [--small] [--out results/jumbled]

1. plan: how the strongest bot (Monte Carlo) plays a hand, by call and player count: where it
   lays its single card, and which card (by its rank within the hand) it leaves out or plays
   alone; and what each fixed timing of the single earns against the default heuristic.
2. cards_value: how often a set is won with 1 card and with 2, by call and player count.
3. deck_size: the GeoPower deck's size (same mix) against the Monte Carlo bot's edge.
4. game_length: rounds to reach 50, by player count.
5. best_bot: how often the Monte Carlo and learned bots win against a heuristic field, 2/4/8 players
   (`geolab.games.jumbled.offers.study.field_arena`; the learned bot is trained here, at this study's size).
6. teams: two Monte Carlo partners against two heuristics, alternating and adjacent seats.
7. heuristic_fields: each heuristic against a field of each other (the exploitability matrix).
The learned bot used in 5 is saved with its training metadata as learned.pkl.
``--small`` (or GEOLAB_SMALL=1) shrinks every size for a quick check.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from geolab import __version__
from geolab.bots.jumbled.callers import FixedCall
from geolab.bots.jumbled.heuristics import HEURISTICS, Heuristic
from geolab.bots.jumbled.learned import Learned
from geolab.bots.jumbled.montecarlo import MonteCarlo
from geolab.bots.jumbled.registry import BOTS, seat
from geolab.cards import RANKS
from geolab.games.jumbled.batch import deal, play_round_batch
from geolab.games.jumbled.game import GAME
from geolab.games.jumbled.offers.study import field_arena
from geolab.games.jumbled.rules import CALLS, Rules
from geolab.lab.results import git_revision, save_figure, write_json
from geolab.lab.stats import wilson


def sizes(small: bool) -> dict:
    if small:
        return dict(plan_rounds=60, timing_rounds=4000, value_rounds=4000, deck_deals=6, length_games=400,
                    best_deals={2: 8, 4: 8, 8: 3}, team_deals=8, field_deals=20, mc_samples=16, learned_rounds=3000)
    return dict(plan_rounds=1500, timing_rounds=100_000, value_rounds=100_000, deck_deals=60, length_games=20_000,
                best_deals={2: 300, 4: 300, 8: 40}, team_deals=150, field_deals=500, mc_samples=64,
                learned_rounds=40_000)


def _hand_position(hand: np.ndarray, call: int) -> np.ndarray:
    """(G, H) rank of each card within its hand by mean rank, 1 = best under the call."""
    mean = RANKS[hand].mean(axis=2)
    score = mean if call == 0 else -mean
    return score.argsort(axis=1).argsort(axis=1) + 1


def plan_study(n: dict, seed: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The Monte Carlo bot's plans, and fixed single-card timings, against the default heuristic."""
    rows, timing = [], []
    base = HEURISTICS["heuristic"]
    for P in (2, 4, 8):
        rules = Rules(players=P).validate()
        for call in (0, 1):
            rng = np.random.default_rng([seed, P, call])
            G = n["plan_rounds"]
            hands, order = deal(rules, rng, G)
            seats = [MonteCarlo(samples=n["mc_samples"])] + [base] * (P - 1)
            rnd = play_round_batch(rules, seats, [FixedCall(CALLS[call])] * P, hands, order,
                                   np.zeros((G, P), np.int64), np.zeros(G, np.int64), 0, rng)
            acts = rnd.actions[:, :, 0]
            k = np.vectorize(lambda m: bin(m).count("1"))(acts)
            single_set = (k == 1).argmax(axis=1)
            pos = _hand_position(rnd.hands[:, 0], call)
            used = acts.sum(axis=1)
            left_slot = np.array([[i for i in range(6) if not u >> i & 1][0] for u in used])
            single_slot = np.log2(acts[np.arange(G), single_set]).astype(int)
            points = rnd.points()[:, 0]
            for what, values in (("single_set", single_set + 1), ("left_out_position", pos[np.arange(G), left_slot]),
                                 ("single_position", pos[np.arange(G), single_slot])):
                for v, count in zip(*np.unique(values, return_counts=True)):
                    rows.append({"players": P, "call": CALLS[call], "what": what, "value": int(v),
                                 "share": count / G, "rounds": G, "mean_points": float(points.mean())})
            for single_at in (0, 1, 2):
                bot = Heuristic((single_at, single_at), name=f"single-at-{single_at + 1}")
                G2 = n["timing_rounds"]
                h2, o2 = deal(rules, rng, G2)
                r2 = play_round_batch(rules, [bot] + [base] * (P - 1), [FixedCall(CALLS[call])] * P, h2, o2,
                                      np.zeros((G2, P), np.int64), np.zeros(G2, np.int64), 0, rng)
                pts = r2.points()
                margin = pts[:, 0] - pts[:, 1:].max(axis=1)
                timing.append({"players": P, "call": CALLS[call], "single_set": single_at + 1, "rounds": G2,
                               "mean_points": pts[:, 0].mean(), "field_mean_points": pts[:, 1:].mean(),
                               "mean_margin": margin.mean(), "margin_se": margin.std(ddof=1) / np.sqrt(G2)})
    return pd.DataFrame(rows), pd.DataFrame(timing)


def cards_value_study(n: dict, seed: int) -> pd.DataFrame:
    rows = []
    bot = HEURISTICS["heuristic"]
    for P in (2, 4, 8):
        rules = Rules(players=P).validate()
        for call in (0, 1):
            rng = np.random.default_rng([seed, 10, P, call])
            G = n["value_rounds"]
            hands, order = deal(rules, rng, G)
            rnd = play_round_batch(rules, [bot] * P, [FixedCall(CALLS[call])] * P, hands, order,
                                   np.zeros((G, P), np.int64), np.zeros(G, np.int64), 0, rng)
            k = np.zeros(rnd.actions.shape, int)
            for bit in range(rules.cards_dealt):
                k += (rnd.actions >> bit) & 1
            for cards in (1, 2):
                sel = k == cards
                wins = int(rnd.won[sel].sum())
                lo, hi = wilson(wins, int(sel.sum()))
                rows.append({"players": P, "call": CALLS[call], "cards": cards, "plays": int(sel.sum()),
                             "set_win_rate": wins / sel.sum(), "ci_low": lo, "ci_high": hi,
                             "fair_share": 1 / P})
    return pd.DataFrame(rows)


def deck_size_study(n: dict, seed: int) -> pd.DataFrame:
    rows = []
    for each in (1, 2, 5, 10, 50):
        rules = Rules(geopower_deck=(each, each, each)).validate()
        mc = BOTS.make(f"montecarlo:samples={n['mc_samples']}", rules)
        (row,) = field_arena(rules, {"mc": mc}, "heuristic", n["deck_deals"], seed)
        rows.append({"deck": 3 * each, **{k: row[k] for k in ("games", "win_rate", "ci_low", "ci_high",
                                                                "mean_points", "mean_rounds")}})
    return pd.DataFrame(rows)


def game_length_study(n: dict, seed: int) -> pd.DataFrame:
    rows = []
    for P in range(2, 9):
        rules = Rules(players=P).validate()
        games = GAME.batch(rules, [BOTS.make("heuristic", rules)] * P, n["length_games"], seed)
        for r, count in zip(*np.unique(games.length, return_counts=True)):
            rows.append({"players": P, "rounds": int(r), "games": int(count), "share": count / len(games.length)})
    return pd.DataFrame(rows)


def best_bot_study(n: dict, seed: int, learned: Learned) -> pd.DataFrame:
    rows = []
    for P, deals in n["best_deals"].items():
        rules = Rules(players=P).validate()
        challengers = {"mc": BOTS.make(f"montecarlo:samples={n['mc_samples']}", rules),
                       "random": BOTS.make("random", rules)}
        if P == 4:
            challengers["learned"] = seat(learned)
        for row in field_arena(rules, challengers, "heuristic", deals, seed, threads=2):
            rows.append(row)
    return pd.DataFrame(rows)


def teams_study(n: dict, seed: int) -> pd.DataFrame:
    rows = []
    for label, teams in (("alternating", (0, 1, 0, 1)), ("adjacent", (0, 0, 1, 1))):
        rules = Rules(players=4, teams=teams).validate()
        mc, h = BOTS.make(f"montecarlo:samples={n['mc_samples']}", rules), BOTS.make("heuristic", rules)
        wins = games = 0
        for team in (0, 1):  # the Monte Carlo pair sits on each team in turn, same deals
            members = [p for p in range(4) if teams[p] == team]
            seats = [mc if teams[p] == team else h for p in range(4)]
            g = GAME.batch(rules, seats, n["team_deals"], seed, stream=team, threads=2)
            wins += int(np.isclose(g.scores[:, members].sum(axis=1), 1).sum())
            games += len(g)
        lo, hi = wilson(wins, games)
        rows.append({"seating": label, "teams": "".join(map(str, teams)), "games": games,
                     "mc_team_win_rate": wins / games, "ci_low": lo, "ci_high": hi, "fair_share": 0.5})
    return pd.DataFrame(rows)


def heuristic_fields_study(n: dict, seed: int) -> pd.DataFrame:
    rows = []
    names = ["heuristic", "first", "middle", "last", "reserve"]
    for field in names:
        for row in field_arena(Rules().validate(), names + ["random"], field, n["field_deals"], seed, threads=2):
            rows.append({k: row[k] for k in ("bot", "field", "games", "win_rate", "ci_low", "ci_high")})
    return pd.DataFrame(rows)


def plots(out: Path, t: dict) -> None:
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.6), sharey=True)
    for ax, call in zip(axes, CALLS):
        d = t["timing"][t["timing"].call == call].pivot(index="single_set", columns="players", values="mean_margin")
        d.plot.bar(ax=ax, rot=0)
        ax.set(title=f"{call}: margin by set of the single card", xlabel="set with the single card",
               ylabel="round margin v best rival")
        ax.axhline(0, color="grey", lw=0.8)
    save_figure(fig, out / "single_timing.png")
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(6, 3.6))
    v = t["cards_value"]
    for (call, cards), d in v.groupby(["call", "cards"]):
        ax.errorbar(d.players, d.set_win_rate, yerr=[d.set_win_rate - d.ci_low, d.ci_high - d.set_win_rate],
                    marker="o", capsize=3, label=f"{call}, {cards} card{'s' if cards > 1 else ''}")
    ax.plot([2, 4, 8], [1 / 2, 1 / 4, 1 / 8], "k:", label="fair share")
    ax.set(xlabel="players", ylabel="set win rate", title="Winning a set with 1 or 2 cards")
    ax.legend(fontsize=8)
    save_figure(fig, out / "cards_value.png")
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(6, 3.6))
    d = t["deck_size"]
    ax.errorbar(d.deck, d.win_rate, yerr=[d.win_rate - d.ci_low, d.ci_high - d.win_rate], marker="o", capsize=3)
    ax.axhline(0.25, color="grey", ls=":")
    ax.set(xscale="log", xlabel="GeoPower cards (equal thirds)", ylabel="Monte Carlo win rate (4 players)",
           title="GeoPower deck size and the Monte Carlo edge")
    save_figure(fig, out / "deck_size.png")
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(6, 3.6))
    for P, d in t["game_length"].groupby("players"):
        ax.plot(d.rounds, d.share, marker=".", label=f"{P} players")
    ax.set(xlabel="rounds to 50", ylabel="share of games", title="First-to-50 game length (default heuristic)")
    ax.legend(fontsize=8)
    save_figure(fig, out / "game_length.png")
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(6, 3.6))
    for bot, d in t["best_bot"].groupby("bot"):
        ax.errorbar(d.players, d.win_rate, yerr=[d.win_rate - d.ci_low, d.ci_high - d.win_rate], marker="o",
                    capsize=3, label=bot)
    ax.plot([2, 4, 8], [1 / 2, 1 / 4, 1 / 8], "k:", label="fair share")
    ax.set(xlabel="players", ylabel="win rate v heuristic field", title="One bot against a field of heuristics")
    ax.legend(fontsize=8)
    save_figure(fig, out / "best_bot.png")
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(6, 4.2))
    m = t["heuristic_fields"].pivot(index="bot", columns="field", values="win_rate")
    im = ax.imshow(m.values, cmap="RdBu_r", vmin=0, vmax=0.5)
    ax.set_xticks(range(len(m.columns)), m.columns, rotation=30)
    ax.set_yticks(range(len(m.index)), m.index)
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            ax.text(j, i, f"{m.values[i, j]:.2f}", ha="center", va="center", fontsize=8)
    ax.set(xlabel="field (other 3 seats)", ylabel="challenger", title="Heuristic v field, 4 players (fair 0.25)")
    fig.colorbar(im)
    save_figure(fig, out / "heuristic_fields.png")
    plt.close(fig)


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--small", action="store_true", help="tiny sizes (also GEOLAB_SMALL=1)")
    p.add_argument("--out", default="results/jumbled")
    args = p.parse_args(argv)
    small = args.small or os.environ.get("GEOLAB_SMALL") == "1"
    n, out, seed = sizes(small), Path(args.out), args.seed
    start = time.perf_counter()
    learned = Learned(rounds=n["learned_rounds"], random_state=seed).fit(Rules())
    tables = {}
    tables["plan"], tables["timing"] = plan_study(n, seed)
    for name, study in (("cards_value", cards_value_study), ("deck_size", deck_size_study),
                        ("game_length", game_length_study), ("teams", teams_study),
                        ("heuristic_fields", heuristic_fields_study)):
        tables[name] = study(n, seed)
        print(f"{name}: {time.perf_counter() - start:.0f}s", file=sys.stderr)
    tables["best_bot"] = best_bot_study(n, seed, learned)
    out.mkdir(parents=True, exist_ok=True)
    for name, df in tables.items():
        df.to_csv(out / f"{name}.csv", index=False, float_format="%.5g")
    plots(out, tables)
    learned.save(out / "learned.pkl")
    write_json({
        "command": "python experiments/jumbled.py" + (" --small" if small else "") + f" --seed {seed}",
        "seed": seed, "small": small, "sizes": {k: v for k, v in n.items()}, "geolab_version": __version__,
        "git_revision": git_revision(), "seconds": round(time.perf_counter() - start, 1),
        "bots": {"field": "heuristic (mixed timing, no reserve)", "mc_samples": n["mc_samples"],
                 "learned_rounds": n["learned_rounds"]},
    }, out / "meta.json")


if __name__ == "__main__":
    main()
