"""Arena plots: a win-rate heat map and a rating ladder, readable at a glance."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd


def win_rate_heatmap(pairs: pd.DataFrame, bots: list[str], title: str):
    """Row bot's win rate against the column bot, with its 95% interval in each cell."""
    k = len(bots)
    index = {b: i for i, b in enumerate(bots)}
    rate = np.full((k, k), np.nan)
    text = [["" for _ in bots] for _ in bots]
    for row in pairs.itertuples():
        i, j = index[row.a], index[row.b]
        rate[i, j], rate[j, i] = row.win_rate_a, 1 - row.win_rate_a
        text[i][j] = f"{row.win_rate_a:.1%}\n[{row.ci_low:.1%}, {row.ci_high:.1%}]"
        text[j][i] = f"{1 - row.win_rate_a:.1%}\n[{1 - row.ci_high:.1%}, {1 - row.ci_low:.1%}]"
    fig, ax = plt.subplots(figsize=(1.6 * k + 2.5, 1.2 * k + 1.5))
    image = ax.imshow(rate, cmap="RdBu", vmin=0, vmax=1)
    for i in range(k):
        for j in range(k):
            if text[i][j]:
                ax.text(j, i, text[i][j], ha="center", va="center", fontsize=8,
                        color="white" if abs(rate[i, j] - 0.5) > 0.3 else "black")
    ax.set_xticks(range(k), bots, rotation=30, ha="right")
    ax.set_yticks(range(k), bots)
    ax.set_xlabel("opponent")
    ax.set_ylabel("bot")
    deals = int(pairs["deals"].min()) if len(pairs) else 0
    seatings = int(pairs["games"].min() // max(deals, 1)) if len(pairs) else 0
    ax.set_title(f"{title}\nwin rate of row v column, 95% CI; {deals:,} duplicate deals (x{seatings} games) a pair")
    fig.colorbar(image, ax=ax, label="win rate")
    return fig


def far_below(ratings: pd.DataFrame) -> pd.Series:
    """The few bots (a quarter at most: random, usually) rated so far below the rest that one
    axis would squeeze the others into a sliver: more than twice the others' whole spread below
    the weakest of them."""
    ordered = ratings["rating"].sort_values()
    far = pd.Series(False, index=ratings.index)
    for k in range(1, min(max(1, len(ordered) // 4), len(ordered) - 2) + 1):  # two bots at least stay
        rest = ordered.iloc[k:]
        spread = max(float(rest.max() - rest.min()), 1.0)
        if float(rest.min() - ordered.iloc[k - 1]) > 2 * spread:
            far[ordered.index[:k]] = True
    return far


def rating_ladder(ratings: pd.DataFrame, title: str, anchor_means: str = "the reference"):
    """Bradley-Terry ratings in Elo points relative to the table's anchor bot (its 0; in
    `geolab arena`, the best heuristic), each with the 95% interval of its difference to the
    anchor, best at the top, value and interval written by each point. Bots far below the rest
    (`far_below`: random, usually) get their own panel on the left with its own scale, so the
    others' differences stay readable. `anchor_means` says what the anchor is ("the best
    heuristic")."""
    ratings = ratings.sort_values("rating", kind="stable")
    far = far_below(ratings)
    panels = [ratings[far], ratings[~far]] if far.any() else [ratings]
    anchor = ratings.loc[ratings["anchor"], "bot"]
    anchor = str(anchor.iloc[0]) if len(anchor) else None
    fig, axes = plt.subplots(1, len(panels), sharey=True,
                             figsize=(9 if len(panels) > 1 else 7.5, 0.55 * len(ratings) + 2),
                             gridspec_kw={"width_ratios": [1, 3] if len(panels) > 1 else [1]}, squeeze=False)
    y = pd.Series(np.arange(len(ratings)), index=ratings.index)
    for ax, part in zip(axes[0], panels):
        base = part[part["bot"] != anchor]
        err = [base["rating"] - base["ci_low"], base["ci_high"] - base["rating"]]
        ax.errorbar(base["rating"], y[base.index], xerr=err, fmt="o", capsize=4, color="tab:blue")
        if anchor in set(part["bot"]):
            ax.plot([0], [y[part.index[part["bot"] == anchor][0]]], "D", color="tab:red", zorder=3)
            ax.axvline(0, color="tab:red", lw=0.8, ls="--")
        lo, hi = float(part["ci_low"].min()), float(part["ci_high"].max())
        pad = max(hi - lo, 40) * 0.12
        ax.set_xlim(lo - pad, hi + pad)
        for i, row in part.iterrows():
            text = (f"0 ({anchor_means})" if row["bot"] == anchor else
                    f"{row['rating']:+.0f}  [{row['ci_low']:+.0f}, {row['ci_high']:+.0f}]")
            if "exploit_lb" in row.index:  # `geolab arena --exploit`: the exploitability lower bound
                text += ("; exploitable >= {:+.2f} [{:+.2f}, {:+.2f}]".format(
                    row["exploit_lb"], row["exploit_low"], row["exploit_high"]) if pd.notna(row["exploit_lb"])
                    else "; peeks: no exploitability")
                if str(row.get("exploit_model") or row["bot"]) != row["bot"]:  # a stand-in: a weaker bound
                    text += f" (model {row['exploit_model']})"
            ax.annotate(text, (row["rating"], y[i]), xytext=(0, 7), textcoords="offset points", ha="center",
                        va="bottom", fontsize=8)
        ax.grid(axis="x", alpha=0.3)
        ax.set_ylim(-0.6, len(ratings) - 0.4)
    axes[0][0].set_yticks(np.arange(len(ratings)), ratings["bot"])
    if len(panels) > 1:
        axes[0][0].set_title("far below the rest:\nits own scale", fontsize=9, color="dimgrey")
        axes[0][0].set_facecolor("#f4f4f4")
        axes[0][1].set_title("the rest", fontsize=9, color="dimgrey")
    what = f"{anchor} = 0" if anchor else "first bot = 0"
    fig.supxlabel(f"rating difference in Elo points ({what}; +100 = 64% expected score, +400 = ten times the odds)\n"
                  f"bars: 95% CI of each bot's difference to {anchor or 'it'}"
                  + ("; exploitable >=: the exploiter's win share - 1/2, a lower bound, 95% CI"
                     if "exploit_lb" in ratings.columns else ""), fontsize=9)
    fig.suptitle(f"{title}\nBradley-Terry ratings relative to {anchor or 'the first bot'} ({anchor_means}); "
                 f"{int(ratings['games'].sum() // 2):,} games", fontsize=11)
    fig.tight_layout()
    return fig


def close(fig) -> None:
    plt.close(fig)
