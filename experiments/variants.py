"""Rule-variant studies (issue 16, item 6) -> results/variants/<study>/ (tidy CSVs, PNG plots,
meta.json), read by notebooks/06_rule_variants.ipynb and summarised in docs/variants.md.

    python experiments/variants.py [--small] [--workers 2] [--only STUDY ...] [--work DIR] [--out results/variants]
    python experiments/variants.py --plots-only     # redraw the PNGs from the committed tables

Every study is one sweep spec, ``experiments/sweeps/variants-<study>.toml`` (``geolab sweep`` runs
the same spec and prints the same summary): the official rules and the variants, each played on
the same seeded duplicate deals (every rotation of each line-up) by ``geolab.lab.sweep`` in
chunks; the chunks' running totals are then read here into per-metric rows with 95% intervals.

Line-ups (named in every table): a bot alone at every seat (self-play) measures the seat
advantage, the balance between seats, ties and length; a strong bot against ``random``
(alternate seats) measures skill and upsets. Studies:

- Play the Ranks: ``ranks-flip`` (the trick after which the base flips from 1 to 50, Combo 1),
  ``ranks-hand`` (hand size and discards), ``ranks-ending`` (stop at 6 or 5 tricks or play all
  8; the last-trick tie rule), ``ranks-bonus`` (the three readings of the Level 2 bonus point,
  Battle 2; with series to 15 points from the game table), ``ranks-level3`` (the Power-card
  bases of Battle 3).
- Jumbled GeoPower Choice: ``jumbled-bonus``, ``jumbled-deck`` (GeoPower deck),
  ``jumbled-target``, ``jumbled-players`` (2 to 8), ``jumbled-teams``.
- Class GeoPower Double Choice: ``class-groups`` (group sizes, uneven splits), ``class-ties``
  (the championship tie rule).

Chunks go to a temporary folder unless ``--work DIR`` names one: then an interrupted run started
again with the same ``--work`` resumes every sweep where it stopped (`geolab.lab.sweep.run`).
``--small`` (or GEOLAB_SMALL=1) plays one seed block per line-up, for tests and the notebook.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.ticker import MaxNLocator

from geolab import __version__
from geolab.errors import RulesError
from geolab.game import split_bots
from geolab.games.ranks.reference import score_series
from geolab.lab import sweep
from geolab.lab.balance import metrics as sweep_metrics
from geolab.lab.balance import seat_gap_interval
from geolab.lab.results import git_revision, save_figure, write_json
from geolab.lab.stats import mean_ci, wilson, z_value
from geolab.lab.tables import Totals, lineup, rotations, simulate

HERE = Path(__file__).resolve().parents[1]
SWEEPS = HERE / "experiments" / "sweeps"
Z = z_value()


@dataclasses.dataclass(frozen=True)
class Study:
    name: str
    title: str
    labels: dict  # variant name -> label (the official rules first)
    reference: dict = dataclasses.field(default_factory=dict)  # variant -> the variant it is compared with

    def compared_with(self, variant: str) -> str:
        return self.reference.get(variant, "official")

    @property
    def spec_path(self) -> Path:
        return SWEEPS / f"variants-{self.name}.toml"


STUDIES = [
    Study("ranks-flip", "Play the Ranks (Combo 1): the trick after which the base flips from 1 to 50", {
        "official": "flip after trick 4 (official)", "flip-after-2": "flip after trick 2",
        "flip-after-3": "flip after trick 3", "flip-after-5": "flip after trick 5",
        "flip-after-6": "flip after trick 6", "no-flip-all-1": "no flip (base 1 throughout)",
        "alternate-1-50": "alternate 1, 50, 1, 50 ..."}),
    Study("ranks-hand", "Play the Ranks (Combo 1): hand size and hidden discards, 8 tricks", {
        "official": "9 dealt, 1 discarded (official)", "hand-8-discard-0": "8 dealt, no discard",
        "hand-10-discard-2": "10 dealt, 2 discarded", "hand-11-discard-3": "11 dealt, 3 discarded",
        "hand-12-discard-4": "12 dealt, 4 discarded", "hand-14-discard-6": "14 dealt, 6 discarded"}),
    Study("ranks-ending", "Play the Ranks (Combo 1): stopping early, and the last-trick tie rule", {
        "official": "stop at 6 tricks (official)", "end-at-5": "stop at 5 tricks",
        "end-none": "play all 8 tricks", "no-last-trick-tiebreak": "4-4 is a tie (no last-trick rule)"}),
    Study("ranks-bonus", "Play the Ranks (Battle Level 2): the three readings of the bonus point", {
        "official": "declaration: 3 if anyone declared (default)",
        "bonus-none": "no bonus: 2 a win", "bonus-shutout": "3 for a 5-0 shutout"}),
    Study("ranks-level3", "Play the Ranks (Battle Level 3): bases from two Power cards", {
        "official": "two Power cards, tricks 1-4 / 5-8 (official)", "split-2": "Power split 2 / 6",
        "split-3": "Power split 3 / 5", "split-5": "Power split 5 / 3", "split-6": "Power split 6 / 2",
        "ties-to-follow": "equal distance: follower wins", "fixed-1-then-50": "Level 1 bases (1 x4, 50 x4)"}),
    Study("jumbled-bonus", "Jumbled GeoPower Choice (4 players): the round bonus for 2 or 3 sets", {
        "official": "0/0/+5/+10 (official)", "bonus-none": "no bonus", "bonus-sweep-only": "+10 for 3 sets only",
        "bonus-flat-5": "+5 for 2 or 3 sets", "bonus-double": "+10 / +20 (doubled)"}),
    Study("jumbled-deck", "Jumbled GeoPower Choice (4 players): the GeoPower deck", {
        "official": "5+5+5 (geolab's deck)", "deck-1-1-1": "1+1+1", "deck-2-2-2": "2+2+2",
        "deck-10-10-10": "10+10+10", "deck-50-50-50": "50+50+50", "deck-7-4-4": "7+4+4 (size-heavy)",
        "deck-15-0-0": "15+0+0 (always size)", "deck-5-5-5-set-aside": "5+5+5, turned cards set aside"}),
    Study("jumbled-target", "Jumbled GeoPower Choice (4 players): the target score", {
        "official": "first to 50 (official)", "target-25": "first to 25", "target-35": "first to 35",
        "target-75": "first to 75", "target-100": "first to 100"}),
    Study("jumbled-players", "Jumbled GeoPower Choice: 2 to 8 players, everyone alone", {
        "players=2": "2 players", "players=3": "3 players", "official": "4 players (official)",
        "players=5": "5 players", "players=6": "6 players", "players=7": "7 players", "players=8": "8 players"}),
    Study("jumbled-teams", "Jumbled GeoPower Choice: playing in teams", {
        "official": "4 alone (official)", "teams-4p-2x2-alt": "4: 2 teams of 2, alternate seats",
        "teams-4p-2x2-adj": "4: 2 teams of 2, side by side", "teams-6p-2x3-alt": "6: 2 teams of 3, alternate",
        "teams-6p-3x2-alt": "6: 3 teams of 2, alternate", "teams-8p-2x4-alt": "8: 2 teams of 4, alternate",
        "teams-8p-4x2-alt": "8: 4 teams of 2, alternate"}),
    Study("class-groups", "Class GeoPower Double Choice: class and group sizes", {
        "official": "20 in 4 groups of 5 (official)", "s10-g5-size2": "10 in 5 groups of 2",
        "s24-g8-size3": "24 in 8 groups of 3", "s24-g6-size4": "24 in 6 groups of 4",
        "s24-g4-size6": "24 in 4 groups of 6", "s24-g3-size8": "24 in 3 groups of 8",
        "s24-g2-size12": "24 in 2 groups of 12", "s18-g4-sizes5544": "18 in 4 groups: 5,5,4,4",
        "s22-g4-sizes6655": "22 in 4 groups: 6,6,5,5", "s26-g4-sizes7766": "26 in 4 groups: 7,7,6,6"}),
    Study("class-ties", "Class GeoPower Double Choice: a tied championship, replayed or shared", {
        "official": "20 in 4 groups, replay (geolab's rule)", "share": "20 in 4 groups, share",
        "s24-g2-replay": "24 in 2 groups, replay", "s24-g2-share": "24 in 2 groups, share",
        "s24-g8-replay": "24 in 8 groups, replay", "s24-g8-share": "24 in 8 groups, share",
        "s32-g8-replay": "32 in 8 groups, replay", "s32-g8-share": "32 in 8 groups, share"},
        reference={"s24-g2-share": "s24-g2-replay", "s24-g8-share": "s24-g8-replay", "s32-g8-share": "s32-g8-replay"}),
]
BY_NAME = {s.name: s for s in STUDIES}

#: what each line-up's bots are (stated in every meta.json)
BOT_NOTES = {
    "greedy": "greedy: wins a trick as cheaply as it can, else throws its least useful card (heuristic)",
    "counter": "counter: counts the unseen cards and leads sure winners (heuristic)",
    "random": "random: any legal action, uniformly",
    "heuristic": "heuristic: Jumbled's strongest rule of thumb (single card on a random set)",
    "equilibrium": "equilibrium: the solved discard of Class Double Choice (best responses per call and group size)",
}

#: metric -> what it is (metrics.csv's `metric` column; every row has its 95% interval)
METRICS = {
    "first_share": "self-play: the first mover's (first lead, first dealer) win share; fair = 1/seats",
    "first_advantage": "self-play: first_share minus the fair share",
    "first_team_share": "self-play, teams: the first mover's team's win share (first_share x team size)",
    "seat_gap": "self-play: the largest gap between the win shares of two positions counted from the first mover "
                "(Play the Ranks: leader and follower; elsewhere the seats: the first mover is seat A) (interval: "
                "Bonferroni-adjusted position intervals, conservative)",
    "balance": "self-play: Ludii's balance, 1 - seat_gap (players numbered by move order)",
    "a_share": "skill line-up: the strong bot's share of the wins; fair = its seats / seats",
    "skill_edge": "skill line-up: a_share minus its fair share",
    "upset_rate": "skill line-up: the weaker bot's share of the wins, 1 - a_share (ties count half)",
    "seat_odds": "skill line-up: a strong seat's wins per weak seat's win, (a/n_strong) / ((1-a)/n_weak); 1 = no skill",
    "shared_rate": "games whose win is shared (ties, draws, joint champions); Wilson interval over games",
    "mean_length": "tricks, rounds or championship rounds a game, per-deal means",
}


# ----- specs and sweeps ------------------------------------------------------------------------
def load(study: Study, small: bool) -> sweep.Spec:
    spec = sweep.load_spec(study.spec_path)
    if small:
        block = max(spec.entry().game.block, 2048)
        spec = dataclasses.replace(spec, deals=block, chunk=block)
    return spec


def run_sweep(spec: sweep.Spec, work: Path, workers: int) -> None:
    """The study's sweep in `work` (resumed when it holds this spec's chunks already)."""
    sweep.run(spec, work, workers=workers, resume=True)


# ----- metrics from the chunks ----------------------------------------------------------------
def teams_of(rules) -> tuple | None:
    return getattr(rules, "teams", None)


def skill_measurable(rules, seating: list[str]) -> bool:
    """A strong-v-weak line-up measures skill unless a team holds both bots."""
    teams = teams_of(rules)
    if teams is None:
        return True
    for turn in rotations(seating):
        for label in set(teams):
            if len({turn[s] for s in range(len(turn)) if teams[s] == label}) > 1:
                return False
    return True


def row(metric, value, low, high, fair=float("nan")) -> dict:
    return {"metric": metric, "value": value, "ci_low": low, "ci_high": high, "fair": fair}


def lineup_metrics(entry, rules, text: str, totals: Totals) -> tuple[str, list[dict]]:
    """(role, metric rows) of one (variant, line-up)."""
    seats = entry.game.seats(rules)
    seating = lineup(split_bots(text), seats)
    m = sweep_metrics(totals)
    out: list[dict] = []
    teams = teams_of(rules)
    role = "self-play" if len(totals.names) == 1 else "skill"
    has_first = entry.name != "class"  # Class: nobody moves first (student S1)
    if role == "self-play":
        fair = 1 / seats
        if has_first:
            out.append(row("first_share", m["first_share"], m["first_ci_low"], m["first_ci_high"], fair))
            out.append(row("first_advantage", m["first_share"] - fair, m["first_ci_low"] - fair,
                           m["first_ci_high"] - fair, 0.0))
            if teams is not None:
                size, n_teams = list(teams).count(teams[0]), len(set(teams))
                out.append(row("first_team_share", size * m["first_share"], size * m["first_ci_low"],
                               size * m["first_ci_high"], 1 / n_teams))
        gap, low, high = seat_gap_interval(totals)
        out.append(row("seat_gap", gap, low, high, 0.0))
        out.append(row("balance", 1 - gap, 1 - high, 1 - low, 1.0))
    else:
        if skill_measurable(rules, seating):
            strong, weak = totals.names[0], totals.names[1]
            n_strong, n_weak = seating.count(strong), seating.count(weak)
            fair = n_strong / seats
            a, lo, hi = m["a_share"], m["a_ci_low"], m["a_ci_high"]
            out.append(row("a_share", a, lo, hi, fair))
            out.append(row("skill_edge", a - fair, lo - fair, hi - fair, 0.0))
            out.append(row("upset_rate", 1 - a, 1 - hi, 1 - lo, 1 - fair))

            def odds(x):
                return (x / n_strong) / ((1 - x) / n_weak) if x < 1 else float("inf")

            out.append(row("seat_odds", odds(a), odds(lo), odds(hi), 1.0))
    if teams is None:  # with teams a team's win is split among its members: Totals counts it as shared
        out.append(row("shared_rate", m["shared_rate"], m["shared_ci_low"], m["shared_ci_high"], 0.0))
    out.append(row("mean_length", m["mean_length"], m["length_ci_low"], m["length_ci_high"]))
    for r in out:
        r["deals"], r["games"] = m["deals"], m["games"]
    return role, out


def seat_rows(entry, rules, totals: Totals) -> list[dict]:
    """Each seat's win share with its 95% interval (self-play), with its group or team."""
    seats = entry.game.seats(rules)
    group = {}
    if entry.name == "class":
        for g, members in enumerate(rules.groups_of()):
            for s in members:
                group[s] = (g, len(members))
    teams = teams_of(rules)
    rows = []
    for s in range(seats):
        mean, low, high = totals.interval(("seat", s))
        r = {"seat": entry.game.seat_name(rules, s), "seat_index": s, "share": mean, "ci_low": low, "ci_high": high,
             "fair": 1 / seats, "deals": totals.deals}
        if s in group:
            r["group"], r["group_size"] = group[s]
        if teams is not None:
            r["team"] = teams[s]
        rows.append(r)
    return rows


def group_size_rows(seats: pd.DataFrame) -> pd.DataFrame:
    """Mean seat share by group size (Class), with a conservative interval: the mean of the
    seats' half-widths (the seats' errors are correlated; the mean of their standard errors
    bounds the standard error of their mean)."""
    rows = []
    for (variant, label, size), d in seats.dropna(subset=["group_size"]).groupby(["variant", "label", "group_size"]):
        half = ((d.ci_high - d.ci_low) / 2).mean()
        share = d.share.mean()
        rows.append({"variant": variant, "label": label, "group_size": int(size), "seats": len(d), "share": share,
                     "ci_low": share - half, "ci_high": share + half, "fair": d.fair.iloc[0],
                     "share_over_fair": share / d.fair.iloc[0], "deals": int(d.deals.iloc[0])})
    return pd.DataFrame(rows)


def analyse(study: Study, spec: sweep.Spec, work: Path) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Tidy metric rows (one per variant, line-up and metric, with the difference from the
    official rules) and seat rows (self-play), from the sweep's chunk files."""
    entry = spec.entry()
    base = spec.base_rules()
    chunks = sweep.load_chunks(spec, work)
    rows, seats = [], []
    for variant in spec.variants:
        rules = variant.rules(base)
        for text in spec.lineups:
            parts = [c for c in chunks if c["variant"] == variant.name and c["lineup"] == text]
            totals = Totals.from_rows(parts)
            role, found = lineup_metrics(entry, rules, text, totals)
            common = {"study": study.name, "game": entry.name, "variant": variant.name,
                      "label": study.labels.get(variant.name, variant.name),
                      "overrides": json.dumps(dict(variant.overrides)), "lineup": text, "role": role,
                      "rotations": len(rotations(lineup(split_bots(text), entry.game.seats(rules))))}
            rows += [{**common, **r} for r in found]
            if role == "self-play":
                seats += [{"study": study.name, "variant": variant.name, "label": common["label"], "lineup": text,
                           **r} for r in seat_rows(entry, rules, totals)]
    table = pd.DataFrame(rows)
    indexed = table.set_index(["variant", "lineup", "metric"])
    diffs, refs, ref_values = [], [], []
    for r in table.itertuples():
        ref = study.compared_with(r.variant)
        key = (ref, r.lineup, r.metric)
        refs.append(ref)
        ref_values.append(indexed.loc[key].value if key in indexed.index else float("nan"))
        o = indexed.loc[key] if key in indexed.index else None
        if o is None or r.metric in ("seat_gap", "balance") or not (np.isnan(r.fair) or r.fair == o.fair):
            diffs.append((float("nan"), float("nan"), False))  # no interval, or another fair share: compare the edges
            continue
        diff = r.value - o.value
        se = math.hypot((o.ci_high - o.ci_low) / (2 * Z), (r.ci_high - r.ci_low) / (2 * Z))
        half = Z * se
        diffs.append((diff, half, bool(se > 0 and abs(diff) > half)))
    table["compared_with"] = refs
    table["reference_value"] = ref_values
    table["difference"] = [d[0] for d in diffs]
    table["difference_ci_half"] = [d[1] for d in diffs]
    table["significant"] = [d[2] for d in diffs]
    return table, pd.DataFrame(seats)


# ----- Level 2 series (ranks-bonus) ------------------------------------------------------------
def series_rows(study: Study, spec: sweep.Spec, deals: int, seed: int) -> pd.DataFrame:
    """Series of battles to the preset's target (15), formed from consecutive duplicate deals of
    the game table (each battle a fresh shuffle, as the rules say; `score_series` scores them),
    in self-play, under each reading of the bonus; and what the bonus did: the same battles
    scored without it (2 a win) give the series to another side how often."""
    entry = spec.entry()
    base = spec.base_rules()
    plain = base.replace(bonus="none", declarations=False)
    rows = []
    for variant in spec.variants:
        rules = variant.rules(base)
        for text in spec.lineups:
            names = split_bots(text)
            if len(set(names)) != 1:
                continue
            games, _ = simulate(entry, rules, names, deals, seed, keep_table=True)
            games = games[games.rotation == 0].sort_values("deal")
            points = list(zip(games.points_A.astype(int), games.points_B.astype(int)))
            winner = np.where(games.score_A.to_numpy() == 1, 0, np.where(games.score_B.to_numpy() == 1, 1, -1))
            flat = [(plain.win_points[0], 0) if w == 0 else (0, plain.win_points[0]) if w == 1
                    else (plain.tie_points, plain.tie_points) for w in winner]
            bonus_paid = np.array([max(p) > rules.win_points[0] for p in points])
            if "declared_A" in games:  # battles with exactly one declaration: does the declarer win?
                da, db = games.declared_A.to_numpy(bool), games.declared_B.to_numpy(bool)
                one = da ^ db
                declarer_won = int(((da & (winner == 0)) | (db & (winner == 1)))[one].sum())
            lengths, changed, a_wins = [], [], []
            start = 0
            while True:
                try:
                    s = score_series(rules, (points[j] for j in range(start, len(points))))
                    f = score_series(plain, (flat[j] for j in range(start, len(flat))))
                except RulesError:  # the battles ran out: the last series is left unfinished
                    break
                lengths.append(s.battles)
                changed.append(s.winner != f.winner)
                a_wins.append(s.winner == 0)
                start += s.battles
            n = len(lengths)
            length, l_lo, l_hi = mean_ci(np.array(lengths, float))
            common = {"study": study.name, "variant": variant.name, "label": study.labels.get(variant.name),
                      "lineup": text, "battles_played": len(points), "series": n, "target": rules.target_points}
            pts = np.array([max(p) for p in points], float)
            mp, mp_lo, mp_hi = mean_ci(pts)
            rows.append({**common, "metric": "battles_per_series", "value": length, "ci_low": l_lo, "ci_high": l_hi})
            lo, hi = wilson(sum(changed), n)
            rows.append({**common, "metric": "bonus_changed_series_winner", "value": sum(changed) / n,
                         "ci_low": lo, "ci_high": hi})
            lo, hi = wilson(sum(a_wins), n)
            rows.append({**common, "metric": "side_a_wins_series", "value": sum(a_wins) / n, "ci_low": lo,
                         "ci_high": hi})
            lo, hi = wilson(int(bonus_paid.sum()), len(points))
            rows.append({**common, "metric": "battles_paying_the_bonus", "value": bonus_paid.mean(), "ci_low": lo,
                         "ci_high": hi})
            rows.append({**common, "metric": "winner_points_per_battle", "value": mp, "ci_low": mp_lo,
                         "ci_high": mp_hi})
            if "declared_A" in games:
                both = int((da & db).sum())
                lo, hi = wilson(both, len(points))
                rows.append({**common, "metric": "battles_both_declared", "value": both / len(points), "ci_low": lo,
                             "ci_high": hi})
                lo, hi = wilson(declarer_won, int(one.sum()))
                rows.append({**common, "metric": "lone_declarer_wins_battle", "value": declarer_won / one.sum(),
                             "ci_low": lo, "ci_high": hi, "battles_with_one_declarer": int(one.sum())})
    return pd.DataFrame(rows)


# ----- plots -----------------------------------------------------------------------------------
def _label(text: str, official: bool) -> str:
    return text + ("  \u25c0" if official else "")


def forest(ax, d: pd.DataFrame, order: list[str], labels: dict, scale: float, colour_of: dict, title: str,
           ref: float | None = None, show_labels: bool = True) -> None:
    """One metric: a row per variant, a point and 95% CI per line-up, the official value dotted."""
    y = {v: len(order) - 1 - i for i, v in enumerate(order)}
    lines = list(dict.fromkeys(d.lineup))
    offsets = np.linspace(-0.18, 0.18, len(lines)) if len(lines) > 1 else [0.0]
    for off, line in zip(offsets, lines):
        g = d[d.lineup == line]
        ys = np.array([y[v] for v in g.variant]) + off
        x = g.value.to_numpy() * scale
        err = np.vstack([(g.value - g.ci_low).clip(lower=0), (g.ci_high - g.value).clip(lower=0)]) * scale
        ax.errorbar(x, ys, xerr=err, fmt="o", ms=4, capsize=3, color=colour_of[line], label=line)
        off_row = g[g.variant == "official"]
        if len(off_row):
            ax.axvline(off_row.value.iloc[0] * scale, color=colour_of[line], ls=":", lw=0.9)
    if ref is not None:
        ax.axvline(ref * scale, color="grey", ls="--", lw=0.8)
    if show_labels:  # the other panels share these rows
        ax.set_yticks(list(y.values()), [_label(labels.get(v, v), v == "official") for v in y])
    ax.set_ylim(-0.6, len(order) - 0.4)
    ax.xaxis.set_major_locator(MaxNLocator(nbins=5))
    ax.set_title(title, fontsize=9)
    ax.grid(axis="x", alpha=0.3)
    ax.tick_params(axis="x", labelsize=8)


def panels_for(game: str) -> list[tuple[str, str, float, float | None]]:
    """(metric, title, scale, reference line) of a study's figure."""
    panels = []
    if game != "class":
        panels.append(("first_advantage", "seat advantage: first mover's\nwin share - fair share (pp)", 100, 0.0))
    if game != "ranks":
        panels.append(("seat_gap", "largest gap between seats (pp)\n(Bonferroni 95% CI)", 100, 0.0))
    if game == "ranks":  # two seats: upsets say it all (the strong bot's edge is 50 - upsets)
        panels.append(("upset_rate", "upsets: weaker bot's\nshare of the wins (%)", 100, None))
    else:  # the fair shares differ between rows: the edge over it, and a strong seat's odds
        panels += [("skill_edge", "skill: strong bot's win share\n- its fair share (pp)", 100, None),
                   ("seat_odds", "skill: a strong seat's wins\nper weak seat's win", 1, 1.0)]
    panels += [("shared_rate", "ties / shared wins (%)", 100, None),
               ("mean_length", "mean length", 1, None)]
    return panels


def study_figure(study: Study, table: pd.DataFrame, spec: sweep.Spec, per_row: int | None = None):
    """A study's panels side by side (`per_row` of them a row; default: one row), a row per variant."""
    entry = spec.entry()
    order = [v for v in study.labels if v in set(table.variant)] + \
            [v for v in dict.fromkeys(table.variant) if v not in study.labels]
    panels = [p for p in panels_for(entry.name) if p[0] in set(table.metric)]
    shared = table[table.metric == "shared_rate"]
    no_ties = len(shared) > 0 and bool((shared.value == 0).all())
    if no_ties:  # an empty panel: say so in the title instead
        panels = [p for p in panels if p[0] != "shared_rate"]
        note = "no tie or shared win in any variant and line-up (Wilson upper bounds in metrics.csv)"
        if set(shared.variant) != set(table.variant):
            note = ("no tie or draw in the variants without teams (Wilson upper bounds in metrics.csv); "
                    "not measured with teams")
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    colour_of = {line: colours[i % len(colours)] for i, line in enumerate(spec.lineups)}
    cols = min(per_row or len(panels), len(panels))
    rows = -(-len(panels) // cols)
    height = rows * (0.42 * len(order) + 1.3) + 1.0
    fig, axes = plt.subplots(rows, cols, figsize=(2.7 * cols + 3.2, height), sharey=True, squeeze=False)
    for i, (metric, title, scale, ref) in enumerate(panels):
        d = table[table.metric == metric]
        unit = entry.game.length_unit if metric == "mean_length" else None
        forest(axes.flat[i], d, order, study.labels, scale, colour_of,
               title if unit is None else f"mean length ({unit})", ref, show_labels=i % cols == 0)
    for ax in axes.flat[len(panels):]:
        ax.set_visible(False)
    handles = [plt.Line2D([], [], marker="o", ls="", color=colour_of[line]) for line in spec.lineups]
    fig.legend(handles, [line_name(line) for line in spec.lineups], loc="lower center", ncol=len(spec.lineups),
               fontsize=8, frameon=False, bbox_to_anchor=(0.5, -0.02))
    deals = int(table.deals.iloc[0])
    fig.suptitle(f"{study.title}\n{deals:,} duplicate deals per line-up (every rotation), seed {spec.seed}; "
                 "points: estimate and 95% CI; dotted: official value; \u25c0 official"
                 + (f"\n{note}" if no_ties else ""), fontsize=10)
    fig.tight_layout(rect=(0, 0.05 / rows, 1, 1))
    return fig


def line_name(text: str) -> str:
    bots = split_bots(text)
    if len(set(bots)) == 1:
        return f"{bots[0]} at every seat (self-play)"
    return f"{bots[0]} v {bots[1]} (alternate seats)"


def series_figure(study: Study, series: pd.DataFrame):
    metrics = [("battles_per_series", "battles to reach 15 points", 1),
               ("winner_points_per_battle", "points to the battle winner", 1),
               ("battles_paying_the_bonus", "battles paying the bonus (%)", 100),
               ("bonus_changed_series_winner", "series whose winner the bonus\nchanged (%)", 100)]
    order = [v for v in study.labels if v in set(series.variant)]
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    lines = list(dict.fromkeys(series.lineup))
    colour_of = {line: colours[i] for i, line in enumerate(lines)}
    fig, axes = plt.subplots(1, len(metrics), figsize=(17, 0.5 * len(order) + 2.4), sharey=True)
    for i, (ax, (metric, title, scale)) in enumerate(zip(axes, metrics)):
        forest(ax, series[series.metric == metric], order, study.labels, scale, colour_of, title,
               show_labels=i == 0)
    handles = [plt.Line2D([], [], marker="o", ls="", color=colour_of[line]) for line in lines]
    fig.legend(handles, [line_name(line) for line in lines], loc="lower center", ncol=len(lines), fontsize=8,
               frameon=False, bbox_to_anchor=(0.5, -0.04))
    n = int(series.battles_played.iloc[0])
    fig.suptitle(f"Battle Level 2 series to 15 points, self-play: {n:,} battles per line-up cut into consecutive "
                 "series (95% CIs); the bonus's effect is the same battles scored at 2 a win", fontsize=10)
    fig.tight_layout(rect=(0, 0.06, 1, 1))
    return fig


def seats_figure(study: Study, seats: pd.DataFrame, lineup_text: str):
    """Class: each student's win share (self-play) for the uneven splits and the official class."""
    pick = [v for v in ("official", "s18-g4-sizes5544", "s22-g4-sizes6655", "s26-g4-sizes7766")
            if v in set(seats.variant)]
    fig, axes = plt.subplots(1, len(pick), figsize=(4.2 * len(pick), 3.8), sharey=True)
    sizes = sorted(seats[seats.variant.isin(pick)].group_size.dropna().unique())
    colour = dict(zip(sizes, plt.get_cmap("viridis")(np.linspace(0, 0.85, len(sizes)))))
    for ax, v in zip(np.atleast_1d(axes), pick):
        d = seats[(seats.variant == v) & (seats.lineup == lineup_text)]
        for size, g in d.groupby("group_size"):
            err = 100 * np.vstack([g.share - g.ci_low, g.ci_high - g.share])
            ax.errorbar(g.seat_index + 1, 100 * g.share, yerr=err, fmt="o", ms=3, capsize=2, color=colour[size],
                        label=f"group of {int(size)}")
        ax.axhline(100 * d.fair.iloc[0], color="grey", ls="--", lw=0.8, label="fair share 1/students")
        ax.set(title=study.labels.get(v, v), xlabel="student (seat; groups are consecutive seats)")
        ax.legend(fontsize=7)
        ax.grid(alpha=0.3)
    np.atleast_1d(axes)[0].set_ylabel("student's chance to be champion (%)")
    fig.suptitle(f"Class: each student's championship chance with {lineup_text} at every seat, "
                 f"{int(seats.deals.iloc[0]):,} classes (95% CIs)", fontsize=10)
    fig.tight_layout()
    return fig


# ----- one study, all studies ------------------------------------------------------------------
def plot_study(study: Study, dest: Path, small: bool) -> None:
    """Draw a study's PNGs again from its tables in `dest` (no games played)."""
    spec = load(study, small)
    table = pd.read_csv(dest / "metrics.csv")
    figures = [(study_figure(study, table, spec), f"{study.name}.png")]
    if study.name == "class-groups":
        figures.append((seats_figure(study, pd.read_csv(dest / "seats.csv"), spec.lineups[0]), "seats.png"))
    if study.name == "ranks-bonus":
        figures.append((series_figure(study, pd.read_csv(dest / "series.csv")), "series.png"))
    for fig, name in figures:
        save_figure(fig, dest / name)
        plt.close(fig)


def run_study(study: Study, out: Path, work: Path, workers: int, small: bool) -> dict:
    start = time.perf_counter()
    spec = load(study, small)
    folder = work / study.name
    run_sweep(spec, folder, workers)
    swept = time.perf_counter() - start
    table, seats = analyse(study, spec, folder)
    dest = out / study.name
    dest.mkdir(parents=True, exist_ok=True)
    table.to_csv(dest / "metrics.csv", index=False, float_format="%.6g")
    seats.to_csv(dest / "seats.csv", index=False, float_format="%.6g")
    shutil.copyfile(folder / "summary.csv", dest / "sweep_summary.csv")
    fig = study_figure(study, table, spec)
    save_figure(fig, dest / f"{study.name}.png")
    plt.close(fig)
    extra = {}
    if study.name == "class-groups":
        sizes = group_size_rows(seats[seats.lineup == spec.lineups[0]])
        sizes.to_csv(dest / "group_sizes.csv", index=False, float_format="%.6g")
        fig = seats_figure(study, seats, spec.lineups[0])
        save_figure(fig, dest / "seats.png")
        plt.close(fig)
    if study.name == "ranks-bonus":
        n = max(spec.entry().game.block, 2048) if small else SERIES_DEALS
        series = series_rows(study, spec, n, spec.seed)
        series.to_csv(dest / "series.csv", index=False, float_format="%.6g")
        fig = series_figure(study, series)
        save_figure(fig, dest / "series.png")
        plt.close(fig)
        alone = [t for t in spec.lineups if len(set(split_bots(t))) == 1]
        extra["series"] = {"battles_per_line_up": n, "line_ups": alone,
                           "how": "series_rows: consecutive deals of geolab.lab.tables.simulate's game table "
                                  "(rotation 0), scored by geolab.games.ranks.reference.score_series"}
    seconds = time.perf_counter() - start
    info = {
        "study": study.name, "title": study.title,
        "command": f"python experiments/variants.py --only {study.name}" + (" --small" if small else ""),
        "sweep_command": f"geolab sweep {study.spec_path.relative_to(HERE)} --workers {workers}"
                         + ("  (--small shrinks deals and chunk)" if small else ""),
        "spec": spec.to_dict(), "spec_file": str(study.spec_path.relative_to(HERE)), "small": small,
        "line_ups": {t: {"role": "self-play (seat advantage, balance, ties, length)"
                         if len(set(split_bots(t))) == 1 else "strong v weak (skill, upsets)",
                         "bots": [BOT_NOTES.get(b.split(":")[0], b) for b in dict.fromkeys(split_bots(t))]}
                     for t in spec.lineups},
        "seating": "duplicate: each deal under every distinct rotation of the line-up; intervals over deals",
        "intervals": "95%: normal over per-deal values (moments_ci), Wilson for shared wins; seat_gap: "
                     "Bonferroni-adjusted seat intervals (conservative); differences: two-sample normal test "
                     "on the two intervals (the variants share seeds, so it is conservative)",
        "metrics": {m: METRICS[m] for m in dict.fromkeys(table.metric)},
        "files": sorted(p.name for p in dest.iterdir() if p.name != "meta.json"),
        "seconds": round(seconds, 1), "sweep_seconds": round(swept, 1), "workers": workers,
        "geolab_version": __version__, "git_revision": git_revision(), "geolab_package": _package(), **extra,
    }
    info["files"] = sorted(set(info["files"]) | {"meta.json"})
    write_json(info, dest / "meta.json")
    print(f"{study.name}: {seconds:.0f}s", file=sys.stderr, flush=True)
    return info


def _package() -> str:
    """Where the geolab that ran was imported from (relative to the repository when inside it)."""
    import geolab

    path = Path(geolab.__file__).resolve().parent
    return str(path.relative_to(HERE)) if path.is_relative_to(HERE) else str(path)


#: battles per self-play line-up in the Level 2 series (ranks-bonus)
SERIES_DEALS = 81920


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--small", action="store_true", help="one seed block per line-up (also GEOLAB_SMALL=1)")
    p.add_argument("--workers", type=int, default=2, help="local processes for the sweeps (default 2)")
    p.add_argument("--only", nargs="+", choices=list(BY_NAME), help="run only these studies")
    p.add_argument("--work", type=Path, help="keep the sweeps' chunks here (a re-run resumes them)")
    p.add_argument("--out", type=Path, default=HERE / "results" / "variants")
    p.add_argument("--plots-only", action="store_true", help="redraw the PNGs from the tables in --out")
    args = p.parse_args(argv)
    small = args.small or os.environ.get("GEOLAB_SMALL") == "1"
    chosen = [BY_NAME[n] for n in args.only] if args.only else STUDIES
    if args.plots_only:
        for s in chosen:
            plot_study(s, args.out / s.name, small)
        return
    start = time.perf_counter()
    temp = None
    if args.work is None:
        temp = tempfile.mkdtemp(prefix="geolab-variants-")
        work = Path(temp)
    else:
        work = args.work
    try:
        done = [run_study(s, args.out, work, args.workers, small) for s in chosen]
    finally:
        if temp is not None:
            shutil.rmtree(temp, ignore_errors=True)
    if args.only is None:
        write_json({
            "command": "python experiments/variants.py" + (" --small" if small else "")
                       + (f" --workers {args.workers}" if args.workers != 2 else ""),
            "studies": {d["study"]: {"title": d["title"], "seconds": d["seconds"], "spec_file": d["spec_file"]}
                        for d in done},
            "seconds": round(time.perf_counter() - start, 1), "workers": args.workers, "cpus": os.cpu_count(),
            "load_average_after": list(os.getloadavg()), "small": small, "geolab_version": __version__,
            "git_revision": git_revision(), "geolab_package": _package(),
            "created_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        }, args.out / "meta.json")
    print(f"all: {time.perf_counter() - start:.0f}s", file=sys.stderr)


if __name__ == "__main__":
    main()
