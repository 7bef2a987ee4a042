"""Arena plots: a win-rate heat map and a rating ladder, readable at a glance."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402


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


def rating_ladder(ratings: pd.DataFrame, title: str):
    """Bradley-Terry ratings in Elo points with 95% intervals, best at the top. Bots far below
    the rest get their own panel on the left, so the others' differences stay readable."""
    ratings = ratings.sort_values("rating")
    far = far_below(ratings)
    panels = [ratings[far], ratings[~far]] if far.any() else [ratings]
    fig, axes = plt.subplots(1, len(panels), sharey=True, figsize=(8 if len(panels) > 1 else 7, 0.5 * len(ratings) + 1.8),
                             gridspec_kw={"width_ratios": [1, 3][-len(panels):] if len(panels) > 1 else [1]},
                             squeeze=False)
    y = pd.Series(np.arange(len(ratings)), index=ratings.index)
    for ax, part in zip(axes[0], panels):
        err = [part["rating"] - part["ci_low"], part["ci_high"] - part["rating"]]
        ax.errorbar(part["rating"], y[part.index], xerr=err, fmt="o", capsize=4)
        lo, hi = float(part["ci_low"].min()), float(part["ci_high"].max())
        pad = max(hi - lo, 20) * 0.15
        ax.set_xlim(lo - pad, hi + pad)
        if lo - pad <= 0 <= hi + pad:
            ax.axvline(0, color="grey", lw=0.8, ls="--")
        ax.grid(axis="x", alpha=0.3)
    axes[0][0].set_yticks(np.arange(len(ratings)), ratings["bot"])
    anchor = ratings.loc[ratings["anchor"], "bot"]
    fig.supxlabel(f"rating (Elo points, {anchor.iloc[0] if len(anchor) else 'first bot'} = 0; "
                  "+400 = ten times the odds of winning)" + ("; left: bots far below the rest" if len(panels) > 1 else ""),
                  fontsize=9)
    fig.suptitle(f"{title}\nBradley-Terry ratings, 95% CI; {int(ratings['games'].sum() // 2):,} games", fontsize=11)
    fig.tight_layout()
    return fig


def close(fig) -> None:
    plt.close(fig)
