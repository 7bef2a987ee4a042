"""The Combo 1 study: what wins a Combo 1 tournament, and what a coach should practise.

Everything is played by the batch engines (the match: `geolab.games.combo1.batch.play_block`;
the tournament: `geolab.games.combo1.offers.tournament.tournaments`), every random choice comes from
``--seed``, and every rate has its 95% interval (Wilson for shares, normal over deals for
paired means) and its sample size. Teams are compared on the same seeds: the same tournament
draws and deals for every variant of the test team, and each match deal played twice with the
seats swapped. The tables (CSV), plots (PNG) and ``meta.json`` (sizes, seconds, the command
that makes them again) go to ``results/combo1/``; ``notebooks/08_combo1_tournament.ipynb``
reads them.

Parts (``--parts``, all by default):

* ``length``: how many games a morning and an afternoon match play (default team v itself).
* ``strongest``: how often the strongest team wins the event (a field of one team strongest
  in every skill and seven default teams; the built-in ladder).
* ``practice``: what one unit of practice of each skill is worth (one test team among seven
  default teams, one knob at a time): title share, and the match score against a default team.
* ``afternoon``: the best afternoon game to pick against each ladder profile.
* ``picks``: the best afternoon first choice for each ladder team against each ladder team
  whose choice it does not know (the opponent choosing at random).
* ``balance``: a balance card for each Combo 1 game and for the match.

    python experiments/combo1.py            # the committed results: 473 s on 2 shared cores (238 s quiet, before picks)
    python experiments/combo1.py --quick    # tiny sizes (the notebook's fallback), about 15 s
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd

from geolab import registry
from geolab.bots.combo1.registry import BOTS
from geolab.common import chunks
from geolab.games.combo1.offers.tournament import LADDER, Profile, ladder, summary, tournaments
from geolab.games.combo1.rules import GAMES, TITLES, Rules
from geolab.games.combo1.tournament import TournamentRules
from geolab.lab import balance
from geolab.lab.results import ResultSet, meta
from geolab.lab.stats import mean_ci, wilson

OUT = Path("results/combo1")
PARTS = ("length", "strongest", "practice", "afternoon", "picks", "balance")
#: The team strongest in every skill: 30% faster than the default, full knowledge, and the best
#: fair Play the Ranks heuristic under the combo1 rules (planner: the `tricks` ladder below).
STRONG = "team:speed=1.3,knowledge=1,tricks=planner"
DEFAULT = "team"
#: One unit of practice per skill (a modelling choice, stated in the notebook): +0.1 race
#: speed (10% of the default 1.0), +0.1 trivia knowledge (10 points of the facts known, the
#: default 0.9), one rung of the Play the Ranks ladder (measured order under the combo1 rules).
SPEEDS = (0.9, 1.0, 1.1, 1.2, 1.3, 1.4, 1.5)
KNOWLEDGE = (0.6, 0.7, 0.8, 0.9, 1.0)
TRICKS = ("random", "greedy", "counter", "planner")
DEFAULTS = {"speed": 1.0, "knowledge": 0.9, "tricks": "greedy"}
UNIT = {"speed": "+0.1 race speed (10% faster at Border-Up and Dashing States)",
        "knowledge": "+0.1 knowledge (10 points more of the borders, capitals and postal codes known)",
        "tricks": "one rung of the Play the Ranks ladder random < greedy < counter < planner"}
#: The afternoon preferences studied: a first choice (the rest follow in the text's order).
CHOICES = GAMES
THEIRS = GAMES + ("random",)
#: The games' names in a plot's cell.
SHORT = {"border-up": "Border-Up", "state-iq": "State IQ", "dashing-states": "Dashing", "ranks": "Ranks"}

SIZES = {
    "full": {"matches": 16384, "strongest": 32768, "practice": 8192, "practice_matches": 16384, "afternoon": 4096,
             "picks": 4096, "deals": 100000, "match_deals": 16384},
    "quick": {"matches": 64, "strongest": 16, "practice": 16, "practice_matches": 64, "afternoon": 32, "picks": 32,
              "deals": 256, "match_deals": 32},
}
#: --quick studies fewer knob values (the notebook handles any).
QUICK_KNOBS = {"speed": (1.0, 1.2), "knowledge": (0.8, 0.9), "tricks": ("random", "greedy")}


def command(argv) -> str:
    return " ".join(["python", "experiments/combo1.py", *argv])


def share(k: float, n: int, prefix: str) -> dict:
    """A share with its Wilson interval, as three columns."""
    low, high = wilson(float(k), int(n))
    return {prefix: k / n if n else float("nan"), f"{prefix}_low": low, f"{prefix}_high": high}


def mean_row(values: np.ndarray, prefix: str) -> dict:
    mean, low, high = mean_ci(values)
    return {prefix: mean, f"{prefix}_low": low, f"{prefix}_high": high}


# ----- matches -------------------------------------------------------------------------------
def matches(rules: Rules, bots, n: int, seed: int, tag: tuple[int, ...], threads: int | None) -> dict:
    """n matches of ``bots`` (seat A, seat B) by the batch engine, block b keyed ``tag + (b,)``:
    the arrays winner (n,) and games, winners, counted, tiebreak (n, slots)."""
    from geolab.games.combo1.batch import BLOCK, play_block

    blocks = list(range(-(-n // BLOCK)))

    def one(b: int):
        return play_block(rules, bots, seed, tag + (b,), min(BLOCK, n - b * BLOCK))

    parts = chunks.run(one, blocks, bots, threads)
    out = {k: np.concatenate([getattr(p, k) for p in parts]).astype(np.int64) for k in ("winner", "games", "winners")}
    return out | {k: np.concatenate([getattr(p, k) for p in parts]).astype(bool) for k in ("counted", "tiebreak")}


def paired(rules: Rules, test, base, n: int, seed: int, tag: tuple[int, ...], threads: int | None) -> dict:
    """`test` against `base` on n deals, each played with `test` at seat A and at seat B (the
    same key: the same cards): its per-deal score (win 1, draw 1/2) and its wins, draws and
    losses over the 2n matches."""
    a = matches(rules, (test, base), n, seed, tag, threads)["winner"]
    b = matches(rules, (base, test), n, seed, tag, threads)["winner"]
    score_a = np.where(a == 0, 1.0, np.where(a < 0, 0.5, 0.0))
    score_b = np.where(b == 1, 1.0, np.where(b < 0, 0.5, 0.0))
    return {"per_deal": (score_a + score_b) / 2, "won": int((a == 0).sum() + (b == 1).sum()),
            "drawn": int((a < 0).sum() + (b < 0).sum()), "deals": n}


def score_row(p: dict, prefix: str = "score") -> dict:
    n = 2 * p["deals"]
    return {"deals": p["deals"], "matches": n, **mean_row(p["per_deal"], prefix), **share(p["won"], n, "won"),
            **share(p["drawn"], n, "drawn")}


def diff_row(values: np.ndarray) -> dict:
    """A paired difference (same seeds) with its interval over the pairs."""
    mean, low, high = mean_ci(values)
    return {"diff": mean, "diff_low": low, "diff_high": high}


def prefixed(row: dict, prefix: str) -> dict:
    return {k.replace("diff", prefix, 1): v for k, v in row.items()}


def make(spec: str, rules=None):
    return BOTS.make(spec, rules or Rules())


# ----- jobs ----------------------------------------------------------------------------------
class Runner:
    """Jobs on worker processes (State IQ's guessers search in Python, so threads share one
    core): each job is seeded by its arguments alone, so the results do not depend on the
    number of workers. One worker: each job runs when it is submitted."""

    def __init__(self, workers: int, threads: int | None):
        self.threads = threads
        self.pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) \
            if workers > 1 else None

    def submit(self, fn, *args):
        if self.pool is None:
            return Done(fn(*args, threads=self.threads))
        return self.pool.submit(fn, *args, threads=1)

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown()


class Done:
    def __init__(self, value):
        self.value = value

    def result(self):
        return self.value


def job_tournaments(specs: tuple, n: int, seed: int, threads: int | None = None):
    """n tournaments of the teams (name, spec), seeded by `seed` (`geolab.games.combo1.offers.tournament`; in
    this process: the study's jobs are the processes)."""
    return tournaments(TournamentRules(), [Profile(*p) for p in specs], n, seed, workers=1)


def job_paired(kind: str, test: str, base: str, n: int, seed: int, tag: tuple, threads: int | None = None) -> dict:
    return paired(Rules(round=kind), make(test), make(base), n, seed, tag, threads)


def job_matches(kind: str, a: str, b: str, n: int, seed: int, tag: tuple, threads: int | None = None) -> dict:
    return matches(Rules(round=kind), (make(a), make(b)), n, seed, tag, threads)


# ----- length --------------------------------------------------------------------------------
def part_length(sizes: dict, seed: int, runner: Runner, quick: bool):
    """Games a match plays: started, counted (a game still on at the bell is void), by game."""
    kinds = ("morning", "afternoon")
    jobs = {kind: runner.submit(job_matches, kind, DEFAULT, DEFAULT, sizes["matches"], seed, (1, r))
            for r, kind in enumerate(kinds)}
    return lambda: length_tables(jobs)


def length_tables(jobs: dict) -> dict:
    rows, dist = [], []
    for kind, job in jobs.items():
        got = job.result()
        started = got["games"] >= 0
        counted = started & got["counted"]
        n = len(got["winner"])
        measures = {"games started": started.sum(axis=1), "games counted": counted.sum(axis=1),
                    "void at the bell": (started & ~got["counted"]).sum(axis=1)}
        for g, title in enumerate(TITLES):
            measures[f"{title} counted"] = (counted & (got["games"] == g)).sum(axis=1)
        for name, values in measures.items():
            rows.append({"round": kind, "measure": name, "matches": n, **mean_row(values, "mean"),
                         "min": int(values.min()), "max": int(values.max())})
        values, counts = np.unique(measures["games counted"], return_counts=True)
        for v, c in zip(values, counts):
            dist.append({"round": kind, "games counted": int(v), "matches": int(c), "share": c / n})
        rows.append({"round": kind, "measure": "drawn matches", "matches": n,
                     **{k.replace("drawn", "mean"): v for k, v in share(int((got["winner"] < 0).sum()), n,
                                                                        "drawn").items()}})
    return {"length": pd.DataFrame(rows), "length_distribution": pd.DataFrame(dist)}


# ----- tournaments ---------------------------------------------------------------------------
def field_rows(name: str, played, profiles, n: int) -> list[dict]:
    table = summary(played, profiles)
    rows = []
    for row in table.to_dict("records"):
        t = [p.name for p in profiles].index(row["team"])
        finals = int((played.finalists == t).any(axis=1).sum())
        rows.append({"field": name, "team": row["team"], "spec": row["spec"], "tournaments": n,
                     **share(row["titles"], n, "title_share"), **share(finals, n, "final_share"),
                     "mean_points": row["mean points"],
                     **{f"{title} games won": row[f"{title} won"] for title in TITLES}})
    return rows


def facts(name: str, played) -> dict:
    """How tournaments of a field end: playoffs, the final's length, tie-breakers, coins."""
    n = len(played)
    return {"field": name, "tournaments": n,
            **share(int((played.playoffs.sum(axis=1) > 0).sum()), n, "with_playoffs"),
            **mean_row(played.playoffs.sum(axis=1) / 2, "playoff_matches"),
            **share(int(((played.final_games - played.final_tiebreaks) < 4).sum()), n, "final_stopped_early"),
            **share(int((played.final_tiebreaks > 0).sum()), n, "final_tiebreaker"),
            **share(int((played.coins > 0).sum()), n, "coin")}


def part_strongest(sizes: dict, seed: int, runner: Runner, quick: bool):
    n = sizes["strongest"]
    fields = {"one strongest + 7 default": [Profile("strongest", STRONG)] +
              [Profile(f"default {i}", DEFAULT) for i in range(1, 8)],
              "the ladder": ladder(len(LADDER))}
    jobs = {name: runner.submit(job_tournaments, tuple((p.name, p.team) for p in profiles), n, seed)
            for name, profiles in fields.items()}
    return lambda: strongest_tables(fields, jobs, n)


def strongest_tables(fields: dict, jobs: dict, n: int) -> dict:
    rows, ends = [], []
    for name, profiles in fields.items():
        played = jobs[name].result()
        rows += field_rows(name, played, profiles, n)
        ends.append(facts(name, played))
        if name.startswith("one"):  # the seven default teams together: each one's fair share
            d = [t for t, p in enumerate(profiles) if p.team == DEFAULT]
            titles = int(np.isin(played.champion, d).sum())
            rows.append({"field": name, "team": "any default (of 7)", "spec": DEFAULT, "tournaments": n,
                         **share(titles, n, "title_share")})
    return {"strongest": pd.DataFrame(rows), "tournament_facts": pd.DataFrame(ends)}


# ----- practice ------------------------------------------------------------------------------
def knob_values(quick: bool) -> dict:
    return QUICK_KNOBS if quick else {"speed": SPEEDS, "knowledge": KNOWLEDGE, "tricks": TRICKS}


def knob_spec(knob: str, value) -> tuple[str, float]:
    """The test team's spec and its units of practice from the default."""
    if value == DEFAULTS[knob]:
        return DEFAULT, 0.0
    if knob == "tricks":
        return f"team:tricks={value}", float(TRICKS.index(value) - TRICKS.index(DEFAULTS[knob]))
    return f"team:{knob}={value}", round((value - DEFAULTS[knob]) / 0.1, 6)


def part_practice(sizes: dict, seed: int, runner: Runner, quick: bool):
    """Each knob value: title share of the test team among seven defaults (same seeds for
    every value, so the differences to the default are paired by tournament), and its match
    score against a default team in the morning and the afternoon (paired by deal)."""
    n, m = sizes["practice"], sizes["practice_matches"]
    specs = {}
    for knob, values in knob_values(quick).items():
        for v in values:
            specs[(knob, v)] = knob_spec(knob, v)
    tours, games = {}, {}
    for spec in dict.fromkeys(s for s, _ in specs.values()):
        field = (("test", spec),) + tuple((f"default {i}", DEFAULT) for i in range(1, 8))
        tours[spec] = runner.submit(job_tournaments, field, n, seed)
        for r, kind in enumerate(("morning", "afternoon")):
            games[(spec, kind)] = runner.submit(job_paired, kind, spec, DEFAULT, m, seed, (2, r))
    return lambda: practice_tables(specs, tours, games, n, quick)


def practice_tables(specs: dict, tours: dict, games: dict, n: int, quick: bool) -> dict:
    champion = {spec: job.result().champion == 0 for spec, job in tours.items()}
    scores = {key: job.result() for key, job in games.items()}
    rows = []
    for (knob, v), (spec, units) in specs.items():
        head = {"knob": knob, "setting": str(v), "spec": spec, "units": units}
        won = champion[spec]
        title = share(int(won.sum()), n, "value")
        rows.append({**head, "measure": "title share", "n": n, "n_unit": "tournaments", **title,
                     **diff_row(won.astype(float) - champion[DEFAULT])})
        for kind in ("morning", "afternoon"):
            p = scores[(spec, kind)]
            rows.append({**head, "measure": f"{kind} match score v default", "n": p["deals"],
                         "n_unit": "deals (x2 seatings)", **mean_row(p["per_deal"], "value"),
                         **diff_row(p["per_deal"] - scores[(DEFAULT, kind)]["per_deal"]),
                         **share(p["won"], 2 * p["deals"], "won"), **share(p["drawn"], 2 * p["deals"], "drawn")})
    table = pd.DataFrame(rows)
    per_unit = []
    samples = {"title share": lambda spec: champion[spec].astype(float)}
    for kind in ("morning", "afternoon"):
        samples[f"{kind} match score v default"] = lambda spec, kind=kind: scores[(spec, kind)]["per_deal"]
    for knob, values in knob_values(quick).items():
        got = [specs[(knob, v)] for v in values]
        units = np.array([u for _, u in got])
        for measure, sample in samples.items():
            ys = np.stack([sample(spec) for spec, _ in got])  # (values, samples)
            base_y = sample(DEFAULT)
            for step in (1.0, -1.0):
                if step in units:
                    at = int(np.flatnonzero(units == step)[0])
                    per_unit.append({"knob": knob, "unit": UNIT[knob], "gain_of": f"{step:+.0f} unit",
                                     "to": str(values[at]), "measure": measure, "n": ys.shape[1],
                                     **prefixed(diff_row(ys[at] - base_y), "gain")})
            # the least-squares slope a sample (tournament or deal) over the studied range
            centred = units - units.mean()
            slope = centred @ (ys - ys.mean(axis=0)) / (centred @ centred)
            per_unit.append({"knob": knob, "unit": UNIT[knob], "gain_of": "slope over the range",
                             "to": f"{values[0]}..{values[-1]}", "measure": measure, "n": ys.shape[1],
                             **prefixed(diff_row(slope), "gain")})
    return {"practice": table, "practice_per_unit": pd.DataFrame(per_unit)}


# ----- afternoon -----------------------------------------------------------------------------
def with_prefer(spec: str, prefer: str) -> str:
    """A team spec with its afternoon preference replaced."""
    head, _, tail = spec.partition(":")
    keep = [p for p in split_params(tail) if not p.startswith("prefer=")]
    return f"{head}:{','.join(keep + [f'prefer={prefer}'])}"


def split_params(text: str) -> list[str]:
    """Top-level comma-separated parameters (brackets kept whole)."""
    out, depth, cur = [], 0, ""
    for ch in text:
        depth += ch == "["
        depth -= ch == "]"
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    return [p for p in out + [cur] if p]


def part_afternoon(sizes: dict, seed: int, runner: Runner, quick: bool):
    """Our default team, first choice X, against each ladder profile, first choice Y (or a
    random pick), in afternoon matches on the same deals for every (X, Y)."""
    n = sizes["afternoon"]
    # "wildcards" differs from the default team only by its random preference: that is Y=random
    opponents = [p for p in LADDER if "prefer=" not in p.team][:2 if quick else None]
    jobs = {(o.name, y, x): runner.submit(job_paired, "afternoon", with_prefer(DEFAULT, x), with_prefer(o.team, y),
                                          n, seed, (3,))
            for o in opponents for y in THEIRS for x in CHOICES}
    return lambda: afternoon_tables(opponents, jobs, n)


def afternoon_tables(opponents: list, jobs: dict, n: int) -> dict:
    rows, per_deal = [], {}
    for o in opponents:
        for y in THEIRS:
            for x in CHOICES:
                p = jobs[(o.name, y, x)].result()
                per_deal[(o.name, y, x)] = p["per_deal"]
                rows.append({"opponent": o.name, "opponent_spec": o.team, "theirs": y, "ours": x, **score_row(p)})
    table = pd.DataFrame(rows)
    best = []
    for o in opponents:
        for y in THEIRS + ("any of the four",):
            ys = GAMES if y == "any of the four" else (y,)
            mean = {x: np.mean([per_deal[(o.name, yy, x)] for yy in ys], axis=0) for x in CHOICES}
            order = sorted(CHOICES, key=lambda x: -mean[x].mean())
            b, second = order[0], order[1]
            d = mean_ci(mean[b] - mean[second])
            s = mean_ci(mean[b])
            best.append({"opponent": o.name, "theirs": y, "best": b, "score": s[0], "score_low": s[1],
                         "score_high": s[2], "second": second, "margin": d[0], "margin_low": d[1], "margin_high": d[2],
                         "worst": order[-1], "worst_score": float(mean[order[-1]].mean()), "deals": n})
    return {"afternoon": table, "afternoon_best": pd.DataFrame(best)}


def part_picks(sizes: dict, seed: int, runner: Runner, quick: bool):
    """Each ladder team, first choice X, against each ladder team choosing at random (a team
    whose choice it does not know), on the same deals for every X."""
    n = sizes["picks"]
    teams = [p for p in LADDER if "prefer=" not in p.team][:2 if quick else None]
    jobs = {(ours.name, theirs.name, x): runner.submit(job_paired, "afternoon", with_prefer(ours.team, x),
                                                        with_prefer(theirs.team, "random"), n, seed, (6,))
            for ours in teams for theirs in teams for x in CHOICES}
    return lambda: picks_table(teams, jobs, n)


def picks_table(teams: list, jobs: dict, n: int) -> dict:
    rows = []
    for ours in teams:
        for theirs in teams:
            score = {x: jobs[(ours.name, theirs.name, x)].result()["per_deal"] for x in CHOICES}
            order = sorted(CHOICES, key=lambda x: -score[x].mean())
            b, second = order[0], order[1]
            s, d = mean_ci(score[b]), mean_ci(score[b] - score[second])
            rows.append({"ours": ours.name, "ours_spec": ours.team, "opponent": theirs.name,
                         "opponent_spec": theirs.team, "best": b, "score": s[0], "score_low": s[1],
                         "score_high": s[2], "second": second, "margin": d[0], "margin_low": d[1],
                         "margin_high": d[2], "worst": order[-1], "worst_score": float(score[order[-1]].mean()),
                         **{f"score_{x}": float(score[x].mean()) for x in CHOICES}, "deals": n})
    return {"picks": pd.DataFrame(rows)}


# ----- balance -------------------------------------------------------------------------------
#: The metrics of the card: (line-up kind, name, `metrics` column, interval prefix).
CARD = (("self-play", "first mover's win share", "first_share", "first"),
        ("self-play", "seat A's win share", "seat_a", None),
        ("self-play", "shared wins (ties, draws)", "shared_rate", "shared"),
        ("self-play", "mean length", "mean_length", "length"),
        ("stronger v weaker", "stronger team's win share", "a_share", "a"),
        ("stronger v weaker", "skill edge (win share - 1/2)", "skill_edge", "a"),
        ("stronger v weaker", "luck: weaker's wins / fair share", "upset_ratio", "a"),
        ("stronger v weaker", "shared wins (ties, draws)", "shared_rate", "shared"),
        ("stronger v weaker", "mean length", "mean_length", "length"))


def card_lines() -> list[tuple[str, str, object, str, str]]:
    """(card, registered game, rules, stronger bot, weaker bot): each game as the teams play
    it, the stronger and weaker bots being `STRONG`'s and the default team's own bot for it."""
    rules = Rules()
    strong, weak = make(STRONG).games, make(DEFAULT).games
    out = [(GAMES[g], GAMES[g], rules.stage(g), strong[g].name, weak[g].name) for g in range(len(GAMES))]
    out += [("combo1 morning", "combo1", Rules(), STRONG, DEFAULT),
            ("combo1 afternoon", "combo1", Rules(round="afternoon"), STRONG, DEFAULT)]
    return out


def part_balance(sizes: dict, seed: int, runner: Runner, quick: bool):
    """Each game's card from `geolab.lab.balance.metrics` on duplicate deals (`play_totals`,
    every deal under both seatings): the default team's bot in self-play (seat advantage,
    ties, length) and the stronger bot against it (skill and luck)."""
    jobs = [runner.submit(job_card, i, sizes, seed) for i in range(len(card_lines()))]
    ladder_job = runner.submit(job_tricks_ladder, sizes, seed)
    return lambda: {"balance": pd.DataFrame([r for j in jobs for r in j.result()]),
                    "tricks_ladder": pd.DataFrame(ladder_job.result())}


def job_card(i: int, sizes: dict, seed: int, threads: int | None = None) -> list[dict]:
    """The card of `card_lines()[i]`."""
    from geolab.lab.tables import play_totals

    rows = []
    card, game, rules, strong, weak = card_lines()[i]
    entry = registry.get(game)
    deals = sizes["match_deals" if game == "combo1" else "deals"]
    found = {"self-play": play_totals(entry, rules, [weak], deals, seed, threads=threads),
             "stronger v weaker": play_totals(entry, rules, [strong, weak], deals, seed, threads=threads)}
    for kind, name, column, prefix in CARD:
        totals = found[kind]
        if column == "seat_a":
            value, low, high = totals.interval(("seat", 0))
        else:
            e = balance.estimate(balance.metrics(totals), column, prefix)
            value, low, high = e.value, e.low, e.high
        rows.append({"card": card, "game": game, "line_up": strong + " v " + weak if kind != "self-play" else weak,
                     "kind": kind, "metric": name, "value": value, "ci_low": low, "ci_high": high,
                     "deals": totals.deals, "games": totals.games, "first_means": entry.game.first_means,
                     "length_unit": entry.game.length_unit})
    return rows


def job_tricks_ladder(sizes: dict, seed: int, threads: int | None = None) -> list[dict]:
    """The Play the Ranks rungs of the tricks knob, each against greedy (combo1 rules)."""
    from geolab.lab.tables import play_totals

    ladder_rows = []
    entry, rules = registry.get("ranks"), Rules().ranks
    for bot in TRICKS:
        if bot == "greedy":
            continue
        e = balance.estimate(balance.metrics(play_totals(entry, rules, [bot, "greedy"], sizes["deals"], seed,
                                                         threads=threads)), "a_share", "a")
        ladder_rows.append({"bot": bot, "against": "greedy", "win_share": e.value, "ci_low": e.low, "ci_high": e.high,
                            "deals": e.n})
    return ladder_rows


# ----- plots ---------------------------------------------------------------------------------
def plots(tables: dict) -> dict:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figs = {}
    if "practice" in tables:
        t = tables["practice"]
        fig, axes = plt.subplots(1, 3, figsize=(15, 4.2))
        for ax, measure in zip(axes, ("title share", "morning match score v default",
                                      "afternoon match score v default")):
            for knob, part in t[t.measure == measure].groupby("knob", sort=False):
                part = part.sort_values("units")
                ax.errorbar(part.units, part["value"], yerr=[part["value"] - part.value_low,
                                                             part.value_high - part["value"]],
                            marker="o", capsize=3, label=knob)
            ax.axhline(1 / 8 if measure == "title share" else 0.5, color="grey", ls="--", lw=0.8)
            ax.set(xlabel="units of practice from the default team", ylabel=measure, title=measure)
            ax.grid(alpha=0.3)
        axes[0].legend()
        figs["practice.png"] = fig
    if "strongest" in tables:
        t = tables["strongest"]
        fig, axes = plt.subplots(1, 2, figsize=(13, 4.2))
        for ax, (name, part) in zip(axes, t.groupby("field", sort=False)):
            part = part[~part.team.str.startswith("any")]
            y = np.arange(len(part))[::-1]
            ax.barh(y, part.title_share, xerr=[part.title_share - part.title_share_low,
                                               part.title_share_high - part.title_share], capsize=3,
                    color="tab:blue", label="title")
            ax.scatter(part.final_share, y, color="tab:orange", zorder=3, label="reached the final")
            ax.axvline(1 / 8, color="grey", ls="--", lw=0.8)
            ax.set_yticks(y, part.team)
            ax.set(xlabel=f"share of {int(part.tournaments.iloc[0]):,} tournaments (95% CI)", title=name)
            ax.grid(axis="x", alpha=0.3)
        axes[0].legend()
        figs["strongest.png"] = fig
    if "afternoon" in tables:
        t = tables["afternoon"]
        opponents = list(dict.fromkeys(t.opponent))
        cols = 4
        rows = -(-len(opponents) // cols)
        fig, axes = plt.subplots(rows, cols, figsize=(16, 3.6 * rows), squeeze=False, constrained_layout=True)
        for k, (ax, o) in enumerate(zip(axes.flat, opponents)):
            grid = t[t.opponent == o].pivot(index="ours", columns="theirs", values="score").reindex(
                index=list(CHOICES), columns=list(THEIRS))
            ax.imshow(grid.values, cmap="RdBu", vmin=0.2, vmax=0.8)
            for (i, j), v in np.ndenumerate(grid.values):
                ax.text(j, i, "" if np.isnan(v) else f"{v:.2f}", ha="center", va="center", fontsize=8,
                        color="white" if abs(v - 0.5) > 0.2 else "black")
            ax.set_xticks(range(len(THEIRS)), [c.replace("-", "-\n") for c in THEIRS], fontsize=7)
            ax.set_yticks(range(len(CHOICES)), CHOICES if k % cols == 0 else [], fontsize=7)
            ax.set_title(f"v {o}")
            if k % cols == 0:
                ax.set_ylabel("our first choice")
            ax.set_xlabel("their first choice")
        for ax in list(axes.flat)[len(opponents):]:
            ax.axis("off")
        figs["afternoon.png"] = fig
    if "picks" in tables:
        t = tables["picks"]
        names = list(dict.fromkeys(t.ours))
        grid = t.pivot(index="ours", columns="opponent", values="score").reindex(index=names, columns=names)
        best = t.pivot(index="ours", columns="opponent", values="best").reindex(index=names, columns=names)
        fig, ax = plt.subplots(figsize=(10, 6.5), constrained_layout=True)
        ax.imshow(grid.values, cmap="RdBu", vmin=0.0, vmax=1.0)
        for (i, j), v in np.ndenumerate(grid.values):
            ax.text(j, i, f"{SHORT[best.values[i, j]]}\n{v:.2f}", ha="center", va="center", fontsize=8,
                    color="white" if abs(v - 0.5) > 0.3 else "black")
        ax.set_xticks(range(len(names)), names, rotation=30, ha="right")
        ax.set_yticks(range(len(names)), names)
        ax.set(xlabel="the opponent (choosing at random)", ylabel="our team",
               title=f"best afternoon first choice and our match score with it ({int(t.deals.iloc[0]):,} deals a cell)")
        figs["picks.png"] = fig
    if "length" in tables:
        t = tables["length_distribution"]
        fig, ax = plt.subplots(figsize=(7, 3.6))
        for kind, part in t.groupby("round", sort=False):
            ax.bar(part["games counted"] + (0.2 if kind == "afternoon" else -0.2), part.share, width=0.4, label=kind)
        ax.set(xlabel="games counted in a match (default team v itself)", ylabel="share of matches")
        ax.legend()
        ax.grid(axis="y", alpha=0.3)
        figs["length.png"] = fig
    return figs


# ----- main ----------------------------------------------------------------------------------
def main(argv=None) -> Path:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes (the notebook's test)")
    parser.add_argument("--parts", default=",".join(PARTS), help=f"comma-separated, of {', '.join(PARTS)}")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=2, help="threads of a job (one worker)")
    parser.add_argument("--workers", type=int, default=None, help="worker processes (default 2; --quick 1)")
    parser.add_argument("--scale", type=float, default=1.0, help="every size times this (e.g. 0.25 for a look)")
    parser.add_argument("--out", default=str(OUT), help="the result folder (replaced whole)")
    args = parser.parse_args(argv)
    parts = [p.strip() for p in args.parts.split(",") if p.strip()]
    unknown = [p for p in parts if p not in PARTS]
    if unknown:
        parser.error(f"unknown part(s) {', '.join(unknown)}; choose from {', '.join(PARTS)}")
    sizes = {k: max(1, round(v * args.scale)) for k, v in SIZES["quick" if args.quick else "full"].items()}
    workers = args.workers or (1 if args.quick else 2)
    tables, seconds = {}, {}
    start = time.perf_counter()
    runner = Runner(workers, args.threads)  # before any play: the workers fork a clean process
    try:
        finish = {}
        for part in parts:  # one worker: each part is played here, in turn
            finish[part] = globals()[f"part_{part}"](sizes, args.seed, runner, args.quick)
            if runner.pool is None:
                tables |= finish.pop(part)()
                seconds[part] = round(time.perf_counter() - start, 1)
        for part, done in finish.items():  # workers: every part's jobs are queued, then collected
            tables |= done()
            seconds[part] = round(time.perf_counter() - start, 1)  # ready after this many seconds
            print(f"{part}: ready after {seconds[part]} s", file=sys.stderr, flush=True)
    finally:
        runner.close()
    figs = plots(tables)
    out = Path(args.out)
    info = meta(command=command(argv), parts=parts, seed=args.seed, threads=args.threads, workers=workers,
                sizes=sizes, ready_after_seconds=seconds, wall_seconds=round(time.perf_counter() - start, 1),
                strong=STRONG, default=DEFAULT, units=UNIT,
                knobs={k: [str(v) for v in vs] for k, vs in knob_values(args.quick).items()},
                files=sorted([f"{n}.csv" for n in tables] + list(figs)))
    if out.exists() and (out / "meta.json").exists():  # an earlier run's set: replaced whole
        import shutil

        shutil.rmtree(out)
    with ResultSet(out) as rs:
        for name, df in tables.items():
            df.to_csv(rs.file(f"{name}.csv"), index=False)
        for name, fig in figs.items():
            fig.savefig(rs.file(name), format="png", dpi=100, bbox_inches="tight")
        rs.json(info, "meta.json")
    print(f"results: {rs.path}", file=sys.stderr)
    return rs.path


if __name__ == "__main__":
    main()
