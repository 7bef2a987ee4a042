"""Classroom studies on the batch engine: policy tables, duplicate arenas, simulation
summaries and the speed benchmark. The CLI and experiments/classroom.py call these."""

from __future__ import annotations

import time
from functools import cache

import numpy as np

from geolab.bots.classroom import POLICIES, LearnedDiscard, TablePolicy, tabulate
from geolab.errors import GeolabError
from geolab.games.classroom import RandomSource, Rules, play, policy_chooser
from geolab.games.classroom_batch import ClassBatch, simulate
from geolab.games.classroom_numpy import simulate_numpy
from geolab.lab.classroom_equilibrium import equilibrium_table
from geolab.lab.stats import wilson

POLICY_NAMES = ("random", "average", "worst-category", "one-category", "learned", "equilibrium")


@cache
def _equilibrium(geopower: tuple[int, int, int]) -> np.ndarray:
    p = np.asarray(geopower, float)
    return equilibrium_table(p / p.sum())[0]


@cache
def _learned(seed: int) -> LearnedDiscard:
    return LearnedDiscard(random_state=seed).fit()


def policy(name: str, rules: Rules, seed: int = 0):
    """A policy object by name (the learned one is trained on first use, with `seed`)."""
    if name not in POLICY_NAMES:
        raise GeolabError(f"unknown policy {name!r} (known: {', '.join(POLICY_NAMES)})")
    if name == "equilibrium":
        return TablePolicy(_equilibrium(rules.geopower), "equilibrium")
    if name == "learned":
        return _learned(seed)
    return POLICIES[name]()


def tables(names, rules: Rules, seed: int = 0) -> np.ndarray:
    return np.stack([tabulate(policy(n, rules, seed)) for n in names])


def parse_policies(text: str) -> list[str]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names:
        raise GeolabError("--policies: give at least one policy name")
    for n in names:
        if n not in POLICY_NAMES:
            raise GeolabError(f"--policies: unknown policy {n!r} (known: {', '.join(POLICY_NAMES)})")
    if len(set(names)) != len(names):
        raise GeolabError("--policies: a policy is named twice")
    return names


def _rows(names, wins: np.ndarray, n) -> list[dict]:
    """Per policy: group and championship win rates (Wilson 95%), with n[p] student-games
    (one per student seat per game: ties count as wins for everyone tied)."""
    rows = []
    for p, name in enumerate(names):
        group, champ = wilson(wins[p, 0], int(n[p])), wilson(wins[p, 1], int(n[p]))
        rows.append({
            "policy": name, "n": int(n[p]),
            "group_win": wins[p, 0] / n[p], "group_ci": list(group),
            "champion": wins[p, 1] / n[p], "champion_ci": list(champ),
        })
    return rows


def _wins(batch, seats, n_policies: int) -> np.ndarray:
    return np.array([[batch.group_win[:, seats == p].sum(), batch.champion[:, seats == p].sum()]
                     for p in range(n_policies)], dtype=float)


def class_stats(rules: Rules, batch) -> dict:
    """Ties and championship replays across the whole batch."""
    groups = rules.groups_of()
    winners = np.stack([batch.group_win[:, list(g)].sum(axis=1) for g in groups], axis=1)
    return {
        "games": len(batch.group_win),
        "group_tie_rate": float((winners > 1).mean()),
        "mean_finalists": float(winners.sum(axis=1).mean()),
        "championship_replay_rate": float((batch.championship_rounds > 1).mean()),
        "shared_championship_rate": float((batch.champion.sum(axis=1) > 1).mean()),
    }


def run_simulation(rules: Rules, names, n_games: int, seed: int, progress=None) -> tuple[list[dict], dict]:
    """Policies seated in turn (seat i plays names[i % len(names)]): rows per policy, and
    class statistics."""
    seats = np.arange(rules.students) % len(names)
    batch = simulate(rules, tables(names, rules, seed), seats, n_games, seed, progress=progress)
    n = np.bincount(seats, minlength=len(names)) * n_games
    return _rows(names, _wins(batch, seats, len(names)), n), class_stats(rules, batch)


def arena(rules: Rules, names, n_games: int, seed: int, progress=None) -> list[dict]:
    """Duplicate play: every deal is played len(names) times, the policies rotated one seat
    each time, so each policy sits in every seat on every deal."""
    table = tables(names, rules, seed)
    wins = np.zeros((len(names), 2))
    for r in range(len(names)):
        seats = (np.arange(rules.students) + r) % len(names)
        wins += _wins(simulate(rules, table, seats, n_games, seed, progress=progress), seats, len(names))
    return _rows(names, wins, [n_games * rules.students] * len(names))


def reference_games(rules: Rules, names, n_games: int, seed: int):
    """The same seating with the reference engine (its own numpy stream, so not the same
    deals as the batch engine: equal in distribution, checked exactly in the tests)."""
    objs = [policy(n, rules, seed) for n in names]
    seated = [objs[i % len(objs)] for i in range(rules.students)]
    rng = np.random.default_rng(seed)
    return [play(rules, RandomSource(rules, rng), policy_chooser(seated, rng)) for _ in range(n_games)]


def reference_simulation(rules: Rules, names, n_games: int, seed: int) -> tuple[list[dict], dict]:
    """`run_simulation` on the reference engine, for small checks by eye."""
    logs = reference_games(rules, names, n_games, seed)
    batch = ClassBatch(
        rules,
        np.array([[s in log.finalists for s in range(rules.students)] for log in logs]),
        np.array([[s in log.champions for s in range(rules.students)] for log in logs]),
        np.array([log.championship_rounds for log in logs]),
    )
    seats = np.arange(rules.students) % len(names)
    n = np.bincount(seats, minlength=len(names)) * n_games
    return _rows(names, _wins(batch, seats, len(names)), n), class_stats(rules, batch)


def bench(rules: Rules, n_games: int, n_reference: int, repeats: int, seed: int = 0) -> dict:
    """Student-hands per second: batch engine (median of `repeats`), the numpy engine
    alternating with it (batch, numpy, batch, numpy, ...: the same-run baseline, since this
    machine's speed drifts within seconds) and the reference engine in the same run, with the
    equilibrium table for every student. Batch counted two ways: one hand per student per
    game, and every hand the engine deals and scores (the finalists' hands in the
    Championship Round and its replays too)."""
    table = tables(["equilibrium"], rules, seed)
    seats = np.zeros(rules.students, np.int64)
    simulate(rules, table, seats, 64, seed)  # compile or load the kernel first
    simulate_numpy(rules, table, seats, 64, seed)
    times, cpu, hands, np_times, np_cpu, np_hands = [], [], [], [], [], []
    for r in range(repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        batch = simulate(rules, table, seats, n_games, seed + r)
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        hands.append(n_games * rules.students + int(batch.championship_hands.sum()))
        start, start_cpu = time.perf_counter(), time.process_time()
        baseline = simulate_numpy(rules, table, seats, n_games, seed + r)
        np_times.append(time.perf_counter() - start)
        np_cpu.append(time.process_time() - start_cpu)
        np_hands.append(n_games * rules.students + int(baseline.championship_hands.sum()))
    start = time.perf_counter()
    reference_games(rules, ["equilibrium"], n_reference, seed)
    ref_time = time.perf_counter() - start
    per_run = n_games * rules.students
    batch_rate = per_run / float(np.median(times))
    ref_rate = n_reference * rules.students / ref_time
    return {
        "students": rules.students, "groups": rules.groups,
        "batch_games": n_games, "repeats": repeats,
        "batch_seconds": [round(t, 4) for t in times],
        "batch_student_hands_per_s": batch_rate,
        # CPU seconds of all threads: steadier than wall time when other jobs share the cores
        "batch_student_hands_per_cpu_s": per_run / float(np.median(cpu)),
        "batch_hands_evaluated_per_s": float(np.median([h / t for h, t in zip(hands, times)])),
        "batch_hands_evaluated_per_cpu_s": float(np.median([h / t for h, t in zip(hands, cpu)])),
        "hands_evaluated_per_game": float(np.mean(hands)) / n_games,
        "reference_games": n_reference,
        "reference_student_hands_per_s": ref_rate,
        "ratio": batch_rate / ref_rate,
        "numpy_seconds": [round(t, 4) for t in np_times],
        "numpy_student_hands_per_s": per_run / float(np.median(np_times)),
        "numpy_student_hands_per_cpu_s": per_run / float(np.median(np_cpu)),
        "numpy_hands_evaluated_per_s": float(np.median([h / t for h, t in zip(np_hands, np_times)])),
        # each batch run against the numpy run right after it: the drift cancels in the ratio
        "batch_over_numpy": float(np.median([t_np / t for t, t_np in zip(times, np_times)])),
    }
