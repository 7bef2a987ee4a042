"""Balance metrics of a rule variant, each with its 95% interval and sample size
(docs/balance.md says what each means and where it comes from).

All metrics come from running totals over duplicate deals (`geolab.lab.tables.Totals`): a
line-up's deals are played under every rotation of the seats, so per-deal values average out
the seat and the cards, and intervals are taken over deals.

- ``first_share`` / ``first_advantage``: what the first mover (first lead, first dealer)
  wins, and its gap to the fair share 1/seats: the seat advantage.
- ``seat_gap`` and ``balance``: the largest gap between the win shares of two positions
  counted from the first mover (Play the Ranks: leader and follower; Jumbled: seats from the
  first dealer), and Ludii's balance, 1 - that gap. Ludii numbers its players by move order;
  seat letters would not do here: where the first mover is drawn per deal and every deal is
  played under every rotation, the letters win alike by construction.
- ``a_share``: the first bot of the line-up's share of the wins, ``a_fair`` its fair share
  (the seats it holds / seats), ``skill_edge`` = a_share - a_fair (skill: in a line-up
  ``strong,weak`` the stronger bot's edge), ``upset_rate`` = 1 - a_share (how often the weaker
  bots win) and ``upset_ratio`` = upset_rate / (1 - a_fair), the weaker bots' wins over their
  fair share (luck: 1 when skill is worth nothing, 0 when they never win). A variant that
  changes the number of seats changes the fair shares, so skill is compared by the edge and
  the ratio, not by the raw shares. Empty (NaN) where every seat holds the same bot: self-play
  has no stronger bot.
- ``shared_rate``: games whose win is shared (ties, draws): decisiveness.
- ``mean_length``: tricks, rounds ... to the end (per-deal means over the rotations).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from geolab import registry
from geolab.game import split_bots
from geolab.lab import skill
from geolab.lab.series import Estimate
from geolab.lab.stats import moments_ci, wilson, z_value
from geolab.lab.tables import Totals, play_totals


def seat_gap_interval(totals: Totals, confidence: float = 0.95, kind: str = "position") -> tuple[float, float, float]:
    """The largest gap between the win shares of the positions counted from the first mover
    (`kind` "position"; "seat": between the seat letters) and a conservative interval for it:
    each position's interval at 1 - (1 - confidence) / seats (Bonferroni, so all hold together
    with at least `confidence`), then the gap lies in [max(0, max low - min high), max high -
    min low]."""
    seats = [key for k, key in totals.sums if k == kind]
    level = 1 - (1 - confidence) / len(seats)
    cis = [moments_ci(*totals.sums[(kind, s)], totals.deals, confidence=level) for s in seats]
    means, lows, highs = ([c[i] for c in cis] for i in range(3))
    return max(means) - min(means), max(0.0, max(lows) - min(highs)), max(highs) - min(lows)


#: The metrics of `metrics` that a goal may name, each with the prefix of its interval's columns
#: (``first`` -> first_ci_low, first_ci_high; `estimate` reads them).
INTERVALS = {"first_share": "first", "first_advantage": "first", "seat_gap": "gap", "balance": "balance",
             "a_share": "a", "skill_edge": "a", "upset_rate": "a", "upset_ratio": "a", "shared_rate": "shared",
             "mean_length": "length"}
#: The metrics that need a stronger bot: no value (NaN) where every seat holds the same bot.
SKILL = ("a_share", "skill_edge", "upset_rate", "upset_ratio")


def metrics(totals: Totals, confidence: float = 0.95) -> dict:
    """The metrics of one (variant, line-up) from its totals, each with its interval at
    `confidence` (the rule search asks for wider ones: several are read at once)."""
    seats = [key for kind, key in totals.sums if kind == "seat"]
    first, f_low, f_high = totals.interval(("first", 0), confidence)
    a, a_low, a_high = totals.interval(("bot", totals.names[0]), confidence)
    a_fair = totals.seating.count(totals.names[0]) / len(totals.seating)
    if len(totals.names) == 1:  # self-play: no stronger bot, so no skill or luck to read
        a = a_low = a_high = a_fair = math.nan
    shared_low, shared_high = wilson(totals.shared, totals.games, confidence)
    gap, gap_low, gap_high = seat_gap_interval(totals, confidence)
    length, l_low, l_high = totals.interval(("length", 0), confidence)
    return {
        "deals": totals.deals, "games": totals.games,
        "first_share": first, "first_ci_low": f_low, "first_ci_high": f_high, "fair_share": 1 / len(seats),
        "first_advantage": first - 1 / len(seats),
        "seat_gap": gap, "gap_ci_low": gap_low, "gap_ci_high": gap_high,
        "balance": 1 - gap, "balance_ci_low": 1 - gap_high, "balance_ci_high": 1 - gap_low,
        "a_share": a, "a_ci_low": a_low, "a_ci_high": a_high, "a_fair": a_fair, "skill_edge": a - a_fair,
        "upset_rate": 1 - a, "upset_ratio": (1 - a) / (1 - a_fair),
        "shared_rate": totals.shared / totals.games, "shared_ci_low": shared_low, "shared_ci_high": shared_high,
        "mean_length": length, "length_ci_low": l_low, "length_ci_high": l_high,
    }


def estimate(row: dict, column: str, prefix: str | None) -> Estimate:
    """One metric of a `metrics` row as an `Estimate` (no interval where `prefix` is None)."""
    if prefix is None:
        return Estimate(row[column], math.nan, math.nan, row["deals"])
    low, high = row[f"{prefix}_ci_low"], row[f"{prefix}_ci_high"]
    if column == "upset_rate":  # 1 - a_share
        low, high = 1 - high, 1 - low
    elif column == "skill_edge":  # a_share - a_fair
        low, high = low - row["a_fair"], high - row["a_fair"]
    elif column == "upset_ratio":  # (1 - a_share) / (1 - a_fair)
        low, high = (1 - high) / (1 - row["a_fair"]), (1 - low) / (1 - row["a_fair"])
    elif column == "first_advantage":  # first_share - fair
        low, high = low - row["fair_share"], high - row["fair_share"]
    return Estimate(row[column], low, high, row["deals"])


def line(line_up: str, metric: str, official: Estimate | None, variant: Estimate | None) -> dict:
    """One report-card line: both values, the difference and whether it is significant at 5%
    (a two-sample normal test on the two intervals; the variants play the same seeds, so
    their errors are positively correlated and the test is conservative). A side that does
    not apply (None) is NaN, and the line is then never significant."""
    nan = Estimate(math.nan, math.nan, math.nan, 0)
    off, var = official or nan, variant or nan
    z = z_value()
    se = math.hypot((off.high - off.low) / 2 / z, (var.high - var.low) / 2 / z)
    diff = var.value - off.value
    significant = bool(se > 0 and abs(diff) > z * se) if not math.isnan(se) and not math.isnan(diff) else False
    return {"line_up": line_up, "metric": metric, "official": off.value, "variant": var.value, "difference": diff,
            "ci_half_width": z * se if not math.isnan(se) else math.nan, "significant": significant,
            "n_official": off.n, "n_variant": var.n}


def compare(official: dict, variant: dict, name: str, column: str, prefix: str | None) -> dict:
    """`line` for a metric of two `metrics` rows (without the line-up)."""
    row = line("", name, estimate(official, column, prefix), estimate(variant, column, prefix))
    del row["line_up"]
    return row


def seat_line(entry) -> str:
    """The self-play line-up of the seat advantage: the game's first simulate bot at every seat."""
    return split_bots(entry.simulate_bots)[0]


def skill_line(entry) -> str | None:
    """The skill rung: the seat line's bot against random (or, with no random bot, the arena
    ladder's first non-search bot), stronger first; None where every bot of the ladder is a
    search bot (`skill_gap` says why)."""
    ladder = [b for b in split_bots(entry.arena_bots) if entry.bots.info(b.split(":")[0]).family not in ("search",)]
    if not ladder:
        return None
    weak = next((b for b in ladder if b.split(":")[0] == "random"), ladder[0])
    strong = seat_line(entry)
    return f"{strong},{weak}"


def skill_gap(entry) -> str | None:
    """Why the skill lines (skill edge, luck) have no value for this game, or None when they
    have one: no skill rung at all, or a rung that seats the same bot twice (self-play has no
    stronger bot)."""
    line_up = skill_line(entry)
    if line_up is None:
        return (f"no stronger/weaker pair: the skill rung pairs a non-search bot with random, and every {entry.name} "
                f"bot of the arena ladder ({entry.arena_bots}) is a search bot")
    strong, weak = split_bots(line_up)
    if strong != weak:
        return None
    return (f"no stronger/weaker pair: the skill rung seats the seat line's bot ({strong}) against random, and with "
            f"no random bot in the {entry.name} arena ladder against the ladder's first bot, here {weak} itself: "
            "self-play has no stronger bot")


def official_line(line_up: str, metric: str, official: Estimate | None) -> dict:
    """One line of the official rules' own card: the value, its 95% interval and sample size."""
    est = official or Estimate(math.nan, math.nan, math.nan, 0)
    return {"line_up": line_up, "metric": metric, "value": est.value, "ci_low": est.low, "ci_high": est.high,
            "n": est.n}


class Card:
    """Report-card lines as they are measured, and what could not be, with the reason; with
    `one_sided`, the official rules' own lines (`official_line`), else both sides' (`line`)."""

    def __init__(self, one_sided: bool = False):
        self.one_sided = one_sided
        self.rows: list[dict] = []
        self.notes: list[dict] = []
        self.blanks: list[dict] = []  # lines shown with no value ("-"), and why

    def line(self, line_up: str, metric: str, official: Estimate | None, variant: Estimate | None) -> None:
        self.rows.append(official_line(line_up, metric, official) if self.one_sided
                         else line(line_up, metric, official, variant))

    def blank(self, line_up: str, metric: str, reason: str) -> None:
        """Say why a line of the card is shown with no value."""
        self.blanks.append({"line_up": line_up, "metric": metric, "reason": reason})

    def add(self, line_up: str, metric: str, found: dict, get) -> None:
        """A line from `found` {"official": result or NotApplicable, "variant": ...} and
        `get(result)` -> Estimate (or None where the result has none)."""
        values = {}
        for side, result in found.items():
            if isinstance(result, skill.NotApplicable):
                values[side] = None
            else:
                values[side] = get(result)
        if all(v is None for v in values.values()):
            return
        self.line(line_up, metric, values["official"], values.get("variant"))

    def note(self, metric: str, line_up: str, found: dict) -> None:
        """Say why a metric is not measured under one or both rules (once if the same)."""
        reasons = {side: str(r) for side, r in found.items() if isinstance(r, skill.NotApplicable)}
        if not reasons:
            return
        if len(set(reasons.values())) == 1 and len(reasons) == len(found):
            self.notes.append({"metric": metric, "line_up": line_up, "rules": "both",
                               "reason": next(iter(reasons.values()))})
            return
        for side, reason in reasons.items():
            self.notes.append({"metric": metric, "line_up": line_up, "rules": side, "reason": reason})


def _try(function, *args, **kwargs):
    try:
        return function(*args, **kwargs)
    except skill.NotApplicable as error:
        return error


def report_card(game: str, official_rules, variant_rules=None, deals: int = 20_000, seed: int = 0,
                threads: int | None = None, *, skill_curve: bool = False, skill_share: bool = False,
                restricted: bool = False, search_deals: int = 200,
                strong: str | None = None) -> tuple[pd.DataFrame, dict]:
    """The variant beside the official rules on the same seeds: seat advantage and balance
    (self-play), skill and upsets (the skill rung), decisiveness and length, and where the
    rules play series to a points target, series length, lead changes and (with a bonus) how
    often the bonus decides the winner. Optionally: the skill curve and the skill share (on
    `search_deals` deals: they play search bots and the oracle) and restricted play (on
    `deals`). A metric that does not apply is listed in ``info["not_applicable"]`` with the
    reason, and a line shown with no value in ``info["blank"]`` with the reason.

    With no variant (None) it is the official rules' own card: each line's value with its
    95% interval (`official_line`), nothing played twice."""
    entry = registry.get(game)
    both = {"official": official_rules} if variant_rules is None else {"official": official_rules,
                                                                       "variant": variant_rules}
    seat, skill_up = seat_line(entry), skill_line(entry)
    found, frames = {}, {}
    for side, rules in both.items():
        kept: list | None = [] if skill.series_target(entry, rules) is not None else None
        found[(side, seat)] = play_totals(entry, rules, split_bots(seat), deals, seed, threads=threads, frames=kept)
        if skill_up is not None:
            found[(side, skill_up)] = play_totals(entry, rules, split_bots(skill_up), deals, seed, threads=threads)
        frames[side] = kept
    card = Card(one_sided=variant_rules is None)
    gap = skill_gap(entry)
    if skill_up is None:
        card.notes.append({"metric": "skill and luck", "line_up": "", "rules": "both", "reason": gap})
    for line_up, items in ((seat, [("first mover's win share", "first_share", "first"),
                                   ("first mover's advantage", "first_advantage", "first"),
                                   ("balance (1 - largest gap between positions from the first mover)", "balance",
                                    "balance"),
                                   ("shared wins (ties, draws)", "shared_rate", "shared"),
                                   (f"mean length ({entry.game.length_unit})", "mean_length", "length")]),
                           (skill_up, [("skill: stronger bot's win share - its fair share{fair}", "skill_edge", "a"),
                                       ("luck: weaker bots' win share / their fair share", "upset_ratio", "a")])):
        if line_up is None:
            continue
        rows = {side: metrics(found[(side, line_up)]) for side in both}
        fairs = sorted({row["a_fair"] for row in rows.values()}, key=lambda f: f != rows["official"]["a_fair"])
        fair = "" if any(map(math.isnan, fairs)) else " -> ".join(f"{f:.3f}" for f in fairs)
        fair = f" (fair {fair})" if fair else ""
        for name, column, prefix in items:
            ests = {side: estimate(row, column, prefix) for side, row in rows.items()}
            card.line(line_up, name.format(fair=fair), ests["official"], ests.get("variant"))
            if line_up == skill_up and gap is not None:
                card.blank(line_up, card.rows[-1]["metric"], gap)

    # series to a points target (the seat line's own games, in deal order)
    series = {side: _try(skill.series_stats, entry, both[side], pd.concat(frames[side], ignore_index=True))
              if frames[side] is not None else _try(skill.check_series, entry, both[side]) for side in both}
    card.note("series: lead changes, length, bonus", seat, series)
    card.add(seat, "series: games to the target", series, lambda s: s.games)
    card.add(seat, "series: lead changes a series", series, lambda s: s.lead_changes)
    card.add(seat, "series: comebacks (the winner was behind)", series, lambda s: s.comeback)
    bonus = {}
    for side, got in series.items():
        if isinstance(got, skill.NotApplicable) or got.bonus_paid is not None:
            bonus[side] = got  # no series: said above
        else:
            bonus[side] = skill.NotApplicable("these rules pay no bonus for a declaration or a shutout (bonus none)")
    card.note("the bonus decides", seat, {side: b for side, b in bonus.items()
                                          if not isinstance(series[side], skill.NotApplicable)})
    card.add(seat, "bonus paid (games won at a bonus level)", bonus, lambda s: s.bonus_paid)
    card.add(seat, "series: the bonus decides the winner", bonus, lambda s: s.bonus_flips)

    p = skill.plan(entry, strong)
    info = {"game": entry.name, "official": official_rules.to_spec(),
            "variant": None if variant_rules is None else variant_rules.to_spec(),
            "deals": deals, "seed": seed, "seat_line_up": seat, "skill_line_up": skill_up}
    if skill_curve:
        curves = {side: _try(skill.skill_curve, entry, rules, search_deals, seed, threads)
                  for side, rules in both.items()}
        card.note("skill curve", "", curves)
        rungs = next((c for c in curves.values() if not isinstance(c, skill.NotApplicable)), [])
        for i, rung in enumerate(rungs):
            card.add(f"{rung.high[1]},{rung.low[1]}",
                     f"skill curve: {rung.high[0]} over {rung.low[0]} (win share, fair {rung.fair:.3f})",
                     curves, lambda c, i=i: c[i].share)
        info["skill_curve"] = [spec for _, spec in p.curve]
    if skill_share:
        shares = {side: _try(skill.skill_share, entry, rules, search_deals, seed, threads, strong=p.strong)
                  for side, rules in both.items()}
        card.note("skill share", "", shares)
        oracle = f"{p.oracle} (peeks)" if p.oracle else None
        card.add(f"{p.strong},{p.beginner}", "learning effect: R(strong) - R(beginner)", shares,
                 lambda s: s.learning)
        if oracle:
            card.add(f"{oracle},{p.strong}", f"chance effect: R({skill.ORACLE}) - R(strong)", shares,
                     lambda s: s.chance)
            card.add(f"{p.strong},{p.beginner},{oracle}",
                     f"skill share: learning / (learning + chance), {skill.ORACLE} as the fictive player",
                     shares, lambda s: s.share)
        else:
            card.notes.append({"metric": "skill share", "line_up": "", "rules": "both",
                               "reason": f"no oracle registered for {entry.name} (no bot flagged peeks): the chance "
                                         "effect needs a player who knows the hidden chance outcomes"})
        info |= {"beginner": p.beginner, "strong": p.strong, "oracle": oracle}
    if skill_curve or skill_share:
        info["search_deals"] = search_deals
    if restricted:
        if not p.restrictions:
            card.notes.append({"metric": "restricted play", "line_up": "", "rules": "both",
                               "reason": f"no {entry.name} bot takes forbid= (a factory's restrictions)"})
        for r in p.restrictions:
            got = {side: _try(skill.restricted, entry, rules, r, deals, seed, threads) for side, rules in both.items()}
            card.note("restricted play", f"{r.spec},{r.bot}", got)
            card.add(f"{r.spec},{r.bot}", f"restricted play: forbid={r.choice} (win-rate cost)", got,
                     lambda x: x.cost)
            series_got = {side: (x if isinstance(x, skill.NotApplicable) or x.series_cost is not None
                                 else skill.NotApplicable("no series")) for side, x in got.items()}
            card.add(f"{r.spec},{r.bot}", f"restricted play: forbid={r.choice} (series win-rate cost)", series_got,
                     lambda x: x.series_cost)
        info["restricted"] = [r.spec for r in p.restrictions]
    info["not_applicable"] = card.notes
    info["blank"] = card.blanks
    return pd.DataFrame(card.rows), info


def plot(card: pd.DataFrame, title: str):
    """Each metric's value under both rules with its 95% interval half-width on the difference
    (the official rules' own card: each value with its 95% interval)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    def shown(x: float) -> str:
        return "-" if math.isnan(x) else f"{x:.3f}"

    fig, ax = plt.subplots(figsize=(10 if len(card) > 8 else 8, 0.55 * len(card) + 1.8))
    y = np.arange(len(card))[::-1]
    if "difference" not in card:  # one-sided: the official rules' values
        err = np.array([(card["value"] - card["ci_low"]).fillna(0), (card["ci_high"] - card["value"]).fillna(0)])
        ax.errorbar(card["value"], y, xerr=err, fmt="o", capsize=4, color="black")
        for yi, value in zip(y, card["value"]):
            ax.annotate(shown(value), (0 if math.isnan(value) else value, yi), xytext=(6, 6),
                        textcoords="offset points", fontsize=8)
        ax.set_yticks(y, card["metric"])
        ax.set_xlabel("the official rules' value (95% CI; - no value: see the card's notes)")
        ax.set_title(title)
        ax.grid(axis="x", alpha=0.3)
        return fig
    ax.errorbar(card["difference"], y, xerr=card["ci_half_width"].fillna(0), fmt="o", capsize=4,
                color="black")
    for yi, row in zip(y, card.itertuples()):
        ax.annotate(f"{shown(row.official)} -> {shown(row.variant)}{'  *' if row.significant else ''}", (0, yi),
                    xytext=(6, 6), textcoords="offset points", fontsize=8)
    ax.axvline(0, color="grey", lw=0.8, ls="--")
    ax.set_yticks(y, card["metric"])
    ax.set_xlabel("variant minus official (95% CI; * significant at 5%)")
    ax.set_title(title)
    ax.grid(axis="x", alpha=0.3)
    return fig
