"""Balance metrics of a rule variant, each with its 95% interval and sample size
(docs/balance.md says what each means and where it comes from).

All metrics come from running totals over duplicate deals (`geolab.lab.tables.Totals`): a
line-up's deals are played under every rotation of the seats, so per-deal values average out
the seat and the cards, and intervals are taken over deals.

- ``first_share`` / ``first_advantage``: what the first mover (first lead, first dealer)
  wins, and its gap to the fair share 1/seats: the seat advantage.
- ``seat_gap`` and ``balance``: the largest gap between two seats' win shares, and Ludii's
  balance, 1 - that gap (for two seats, 1 - |w_A - w_B|).
- ``a_share``: the first bot of the line-up's share of the wins (skill: in a line-up
  ``strong,weak`` it is the stronger bot's win rate; ``upset_rate`` = 1 - a_share, how often
  the weaker bot wins — luck).
- ``shared_rate``: games whose win is shared (ties, draws): decisiveness.
- ``mean_length``: tricks, rounds ... to the end (per-deal means over the rotations).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from geolab import registry
from geolab.game import split_bots
from geolab.lab.stats import wilson, z_value
from geolab.lab.tables import Totals, play_totals


def metrics(totals: Totals) -> dict:
    """The metrics of one (variant, line-up) from its totals, each with its interval."""
    seats = [key for kind, key in totals.sums if kind == "seat"]
    seat_share = [totals.interval(("seat", s))[0] for s in seats]
    first, f_low, f_high = totals.interval(("first", 0))
    a, a_low, a_high = totals.interval(("bot", totals.names[0]))
    shared_low, shared_high = wilson(totals.shared, totals.games)
    gap = max(seat_share) - min(seat_share)
    length, l_low, l_high = totals.interval(("length", 0))
    return {
        "deals": totals.deals, "games": totals.games,
        "first_share": first, "first_ci_low": f_low, "first_ci_high": f_high, "fair_share": 1 / len(seats),
        "first_advantage": first - 1 / len(seats),
        "seat_gap": gap, "balance": 1 - gap,
        "a_share": a, "a_ci_low": a_low, "a_ci_high": a_high, "upset_rate": 1 - a,
        "shared_rate": totals.shared / totals.games, "shared_ci_low": shared_low, "shared_ci_high": shared_high,
        "mean_length": length, "length_ci_low": l_low, "length_ci_high": l_high,
    }


def _half(row: dict, prefix: str) -> float:
    return (row[f"{prefix}_ci_high"] - row[f"{prefix}_ci_low"]) / 2


def compare(official: dict, variant: dict, name: str, column: str, prefix: str | None) -> dict:
    """One report-card line: both values, the difference and whether it is significant at 5%
    (a two-sample normal test on the two intervals; the variants play the same seeds, so
    their errors are positively correlated and the test is conservative)."""
    diff = variant[column] - official[column]
    if prefix is None:
        se = float("nan")
    else:
        z = z_value()
        se = math.hypot(_half(official, prefix) / z, _half(variant, prefix) / z)
    significant = bool(se > 0 and abs(diff) > z_value() * se) if not math.isnan(se) else False
    return {"metric": name, "official": official[column], "variant": variant[column], "difference": diff,
            "ci_half_width": z_value() * se if not math.isnan(se) else float("nan"), "significant": significant}


def seat_line(entry) -> str:
    """The self-play line-up of the seat advantage: the game's first simulate bot at every seat."""
    return split_bots(entry.simulate_bots)[0]


def skill_line(entry) -> str:
    """The skill rung: the strongest non-search bot of the arena ladder against random (or the
    ladder's first bot), stronger first."""
    ladder = [b for b in split_bots(entry.arena_bots) if entry.bots.info(b.split(":")[0]).family not in ("search",)]
    weak = next((b for b in ladder if b.split(":")[0] == "random"), ladder[0])
    strong = seat_line(entry)
    return f"{strong},{weak}"


def report_card(game: str, official_rules, variant_rules, deals: int, seed: int = 0,
                threads: int | None = None) -> tuple[pd.DataFrame, dict]:
    """The variant beside the official rules on the same seeds: seat advantage and balance
    (self-play), skill and upsets (the skill rung), decisiveness and length."""
    entry = registry.get(game)
    found = {(label, line): play_totals(entry, rules, split_bots(line), deals, seed, threads=threads)
             for label, rules in (("official", official_rules), ("variant", variant_rules))
             for line in (seat_line(entry), skill_line(entry))}
    rows = []
    for line, items in ((seat_line(entry), [("first mover's win share", "first_share", "first"),
                                            ("first mover's advantage", "first_advantage", "first"),
                                            ("balance (1 - largest seat gap)", "balance", None),
                                            ("shared wins (ties, draws)", "shared_rate", "shared"),
                                            (f"mean length ({entry.game.length_unit})", "mean_length", "length")]),
                        (skill_line(entry), [("skill: stronger bot's win share", "a_share", "a"),
                                             ("luck: the weaker bot wins", "upset_rate", "a")])):
        official, variant = metrics(found[("official", line)]), metrics(found[("variant", line)])
        for name, column, prefix in items:
            rows.append({"line_up": line, **compare(official, variant, name, column, prefix)})
    info = {"game": entry.name, "official": official_rules.to_spec(), "variant": variant_rules.to_spec(),
            "deals": deals, "seed": seed, "seat_line_up": seat_line(entry), "skill_line_up": skill_line(entry)}
    return pd.DataFrame(rows), info


def plot(card: pd.DataFrame, title: str):
    """Each metric's value under both rules with its 95% interval half-width on the difference."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 0.55 * len(card) + 1.8))
    y = np.arange(len(card))[::-1]
    ax.errorbar(card["difference"], y, xerr=card["ci_half_width"].fillna(0), fmt="o", capsize=4,
                color="black")
    for yi, row in zip(y, card.itertuples()):
        ax.annotate(f"{row.official:.3f} -> {row.variant:.3f}{'  *' if row.significant else ''}", (0, yi),
                    xytext=(6, 6), textcoords="offset points", fontsize=8)
    ax.axvline(0, color="grey", lw=0.8, ls="--")
    ax.set_yticks(y, card["metric"])
    ax.set_xlabel("variant minus official (95% CI; * significant at 5%)")
    ax.set_title(title)
    ax.grid(axis="x", alpha=0.3)
    return fig
