"""Combo 1 tournaments for a coach: teams as profiles, one tournament match by match (the
reference tournament: its rounds' pairings and results, standings, final, and every match's
record), and many tournaments' summary (how often each profile wins the event, with
intervals, on the batch tournament).

A *profile* is a named team: a Combo 1 ``team`` bot spec (`geolab.bots.combo1.registry`), whose
knobs are race speed, trivia knowledge, the Play the Ranks bot and the afternoon preference.
Profiles come from a file (JSON: a list of ``{"name": ..., "team": "team:..."}``; CSV: columns
``name`` and ``team``) or from the built-in ladder (`LADDER`, cycled and numbered for more
teams than it has).
"""

from __future__ import annotations

import csv
import json
import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
import pandas as pd

from geolab.bots.combo1.registry import BOTS, seat
from geolab.errors import GeolabError, RulesError
from geolab.games.combo1.game import GAME
from geolab.games.combo1.rules import TITLES
from geolab.games.combo1.tournament import BYE, MatchResult, TournamentPlayed, TournamentRules, check_teams, play
from geolab.games.combo1.tournament_batch import BLOCK, Tournaments, run
from geolab.lab.stats import wilson
from geolab.records import COLLECTION_FORMAT


@dataclass(frozen=True)
class Profile:
    name: str
    team: str


#: The built-in teams: one strength each, against the default team.
LADDER = (
    Profile("all-rounders", "team"),
    Profile("sprinters", "team:speed=1.4"),
    Profile("scholars", "team:knowledge=1"),
    Profile("card sharps", "team:tricks=counter"),
    Profile("planners", "team:tricks=planner"),
    Profile("steady", "team:speed=0.85,knowledge=0.95"),
    Profile("rookies", "team:speed=0.8,knowledge=0.6,tricks=random"),
    Profile("wildcards", "team:prefer=random"),
)


def ladder(n: int) -> list[Profile]:
    """n teams from `LADDER` in order, numbered when it is used more than once."""
    n = check_teams(n)
    out = []
    for i in range(n):
        p = LADDER[i % len(LADDER)]
        out.append(Profile(p.name if n <= len(LADDER) else f"{p.name} {i // len(LADDER) + 1}", p.team))
    return out


def load_profiles(path: str | Path) -> list[Profile]:
    """Profiles from a JSON or CSV file (module docstring); a bad file is one line."""
    path = Path(path)
    try:
        text = path.read_text()
    except OSError as error:
        raise GeolabError(f"profiles: cannot read {path}: {error.strerror or error}") from None
    if path.suffix.lower() == ".csv":
        rows = list(csv.DictReader(text.splitlines()))
        if rows and not {"name", "team"} <= set(rows[0]):
            raise GeolabError(f"profiles: {path}: expected columns name and team")
    else:
        try:
            rows = json.loads(text)
        except json.JSONDecodeError as error:
            raise GeolabError(f"profiles: {path}: not JSON ({error.msg}, line {error.lineno})") from None
        if not isinstance(rows, list):
            raise GeolabError(f"profiles: {path}: expected a list of {{\"name\": ..., \"team\": ...}}")
    profiles = []
    for i, row in enumerate(rows, start=1):
        if not isinstance(row, dict) or not isinstance(row.get("name"), str) or not isinstance(row.get("team"), str) \
                or not row["name"].strip() or not row["team"].strip():
            raise GeolabError(f"profiles: {path}: team {i}: expected a name and a team spec (text)")
        profiles.append(Profile(row["name"].strip(), row["team"].strip()))
    names = [p.name for p in profiles]
    twice = next((n for n in names if names.count(n) > 1), None)
    if twice is not None:
        raise GeolabError(f"profiles: {path}: the name {twice!r} is used twice")
    check_teams(len(profiles))
    return profiles


def teams(rules: TournamentRules, profiles: Sequence[Profile]) -> list:
    """Each profile's team bot; a bad spec is one line naming the team."""
    out = []
    for p in profiles:
        try:
            out.append(BOTS.make(p.team, rules.match))
        except (GeolabError, RulesError, ValueError) as error:
            raise GeolabError(f"team {p.name!r}: {error}") from None
    return out


def summary(played: Tournaments, profiles: Sequence[Profile], confidence: float = 0.95) -> pd.DataFrame:
    """Many tournaments: how often each profile won the event and reached the final (with
    Wilson intervals over the tournaments), its mean points, and its share of games won by
    game."""
    n = len(played)
    rows = []
    for t, p in enumerate(profiles):
        titles = int((played.champion == t).sum())
        finals = int((played.finalists == t).any(axis=1).sum())
        lo, hi = wilson(titles, n, confidence)
        row = {"team": p.name, "spec": p.team, "tournaments": n, "titles": titles, "title share": titles / n,
               "title low": lo, "title high": hi, "final share": finals / n,
               "mean points": float(played.standing[:, t].mean())}
        for g, title in enumerate(TITLES):
            won, games = played.games_won[:, t, g].sum(), played.games_played[:, t, g].sum()
            row[f"{title} won"] = won / games if games else float("nan")
        rows.append(row)
    return pd.DataFrame(rows).sort_values("title share", ascending=False)


def tournaments(rules: TournamentRules, profiles: Sequence[Profile], n: int, seed: int, *,
                workers: int | None = None, progress: Callable[[int], None] | None = None,
                block: int = BLOCK) -> Tournaments:
    """n tournaments of these profiles, a block of `block` at a time (``progress(k)`` after each
    block of k), on `workers` processes (default: one a core, never more than the blocks). A
    block's tournaments depend on the block alone, so the numbers are the same however many
    processes play them. Processes, not threads: the State IQ search is Python."""
    teams(rules, profiles)  # a bad profile is refused here, in one line, before any process starts
    sizes = [min(block, n - start) for start in range(0, n, block)]
    workers = max(1, min(workers or os.cpu_count() or 1, len(sizes)))
    parts: list = []
    if workers == 1:
        for b, k in enumerate(sizes):
            parts.append(_blocks(rules, profiles, k, seed, b * block, block))
            if progress is not None:
                progress(k)
        return Tournaments.concatenate(parts)
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        futures = [pool.submit(_blocks, rules, profiles, k, seed, b * block, block) for b, k in enumerate(sizes)]
        for future, k in zip(futures, sizes):
            parts.append(future.result())
            if progress is not None:
                progress(k)
    return Tournaments.concatenate(parts)


def _blocks(rules: TournamentRules, profiles: Sequence[Profile], n: int, seed: int, start: int,
            block: int) -> Tournaments:
    """Tournaments start .. start + n - 1 (one process's share; its teams built here)."""
    return run(rules, _teams(rules, tuple(profiles)), n, seed, start=start, threads=1, block=block)


@cache
def _teams(rules: TournamentRules, profiles: tuple[Profile, ...]) -> list:
    return teams(rules, profiles)


# ----- one tournament, match by match (the coach's view) --------------------------------------
def reference(rules: TournamentRules, profiles: Sequence[Profile], seed: int) -> TournamentPlayed:
    """One tournament with every match played on the reference engine (so each match has its
    record), the teams seated as at a table; chance from ``default_rng(seed)``."""
    bots = teams(rules, profiles)
    return play(rules, len(profiles), lambda t, match_rules, rng: seat(bots[t], match_rules, rng),
                np.random.default_rng(seed))


def _points(x: float) -> int | float:
    return int(x) if float(x).is_integer() else float(x)


def points_words(rules: TournamentRules) -> str:
    """How the standings count, in words."""
    return f"a match won 1 point, drawn {rules.draw_value:g}, a bye 1"


def stage_name(m: MatchResult) -> str:
    return {-1: "playoff", -2: "final"}.get(m.round, f"round {m.round + 1}")


def match_line(m: MatchResult, profiles: Sequence[Profile]) -> str:
    """A match in one line: its teams (seat A first), the games won, who won; its Border-Up
    tie-breakers and who won each; a coin where every one tied."""
    a = profiles[m.a].name
    if m.b == BYE:
        return f"{a}: a bye (counts as a win)"
    b = profiles[m.b].name
    wins = m.played.wins
    result = "drawn" if m.winner is None else f"{profiles[m.winner].name} won"
    line = f"{a} (A) v {b} (B): {wins[0]}-{wins[1]} in games, {result}"
    breakers = [g for g in m.played.games if g.tiebreak]
    if breakers:
        who = ", ".join("tie" if g.winner is None else (a, b)[g.winner] for g in breakers)
        line += f"; Border-Up tie-breakers: {who}"
    if m.round < 0 and m.winner is None:
        line += "; still level: a coin decided"
    return line


def standings_of(out: TournamentPlayed, profiles: Sequence[Profile]) -> list[dict]:
    """The standings after the rounds: points (whole where the rules' draw value is), matches
    won, drawn, lost, byes, and games won by game; best first (ties in the drawn order)."""
    rows = []
    for t, p in enumerate(profiles):
        mine = [m for m in out.matches if m.round >= 0 and t in (m.a, m.b)]
        row = {"team": p.name, "points": _points(out.standing[t]),
               "won": sum(m.winner == t for m in mine if m.b != BYE),
               "drawn": sum(m.winner is None for m in mine), "lost": 0,
               "byes": sum(m.b == BYE for m in mine)}
        row["lost"] = len(mine) - row["won"] - row["drawn"] - row["byes"]
        won = sum((m.games_won(t) for m in mine), np.zeros(len(TITLES), np.int64))
        row.update({title: int(won[g]) for g, title in enumerate(TITLES)})
        rows.append(row)
    order = {t: i for i, t in enumerate(out.order)}
    ranked = sorted(range(len(profiles)), key=lambda t: (-out.standing[t], order[t]))
    return [rows[t] for t in ranked]


def final_of(out: TournamentPlayed, profiles: Sequence[Profile]) -> dict:
    """The final as a sentence and as numbers."""
    final = out.matches[-1]
    champion, loser = out.champion, (final.b if out.champion == final.a else final.a)
    wins = final.played.wins
    won, lost = (wins[0], wins[1]) if champion == final.a else (wins[1], wins[0])
    breakers = sum(g.tiebreak for g in final.played.games)
    how = f"{won}-{lost} in games"
    if breakers:
        how += f", then the Border-Up tie-breaker ({breakers} played)"
    if final.winner is None:
        how += ", then a coin (every tie-breaker tied)"
    text = f"Champion: {profiles[champion].name}, beating {profiles[loser].name} {how}."
    return {"text": text, "champion": profiles[champion].name, "runner_up": profiles[loser].name,
            "games": [won, lost], "tiebreaks": breakers}


def rounds_of(out: TournamentPlayed, profiles: Sequence[Profile]) -> list[dict]:
    """Every stage in order (the rounds with their kind, the playoffs, the final), each with
    its pairings and results."""
    stages: list[dict] = []
    for m in out.matches:
        name = stage_name(m)
        if not stages or stages[-1]["stage"] != name:
            stages.append({"stage": name, "kind": None, "matches": []})
        if m.played is not None:
            stages[-1]["kind"] = m.played.rules.round  # morning, afternoon, playoff or final
        stages[-1]["matches"].append({"a": profiles[m.a].name, "b": None if m.b == BYE else profiles[m.b].name,
                                      "winner": None if m.winner is None else profiles[m.winner].name,
                                      "games": None if m.played is None else list(m.played.wins),
                                      "text": match_line(m, profiles)})
    return stages


def match_record(m: MatchResult, profiles: Sequence[Profile]) -> dict:
    """A match's record (`geolab replay` reads it), its seats named by the teams."""
    record = GAME.to_record(m.played)
    record["players"] = {"A": f"{profiles[m.a].name} ({profiles[m.a].team})",
                         "B": f"{profiles[m.b].name} ({profiles[m.b].team})"}
    return record


def saved(out: TournamentPlayed, profiles: Sequence[Profile], rules: TournamentRules, seed: int) -> dict:
    """The tournament as a file of records (`geolab.records.COLLECTION_FORMAT`): every match's record, labelled with
    its stage and teams, then the teams, the rounds, the standings and the final;
    ``geolab replay FILE --match K`` replays match K."""
    played = [m for m in out.matches if m.played is not None]
    rounds = rounds_of(out, profiles)
    numbered = (m for stage in rounds for m in stage["matches"] if m["games"] is not None)
    for k, m in enumerate(numbered, start=1):  # each played match's place in `records`
        m["record"] = k
    return {"format": COLLECTION_FORMAT, "what": "a Combo 1 tournament (geolab tournament --save)",
            "rules": rules.to_spec(), "seed": seed,
            "teams": [{"name": p.name, "team": p.team} for p in profiles],
            "order": [profiles[t].name for t in out.order],
            "rounds": rounds, "points": points_words(rules), "standings": standings_of(out, profiles),
            "final": final_of(out, profiles),
            "records": [{"label": f"{stage_name(m)}: {match_line(m, profiles)}", "record": match_record(m, profiles)}
                        for m in played]}
