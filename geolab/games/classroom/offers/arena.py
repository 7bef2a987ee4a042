"""Classroom studies beyond the generic lab: policy tables by name, the reference engine's
games, and the speed benchmark. Simulations and duplicate arenas of class bots are the
generic lab's (`geolab.lab.tables`, `geolab.lab.arena`); the bots come from the registry
(`geolab.bots.classroom.registry`). experiments/classroom.py and the CLI call these."""

from __future__ import annotations

import time

import numpy as np

from geolab.bots.classroom.policies import Student
from geolab.bots.classroom.registry import BOTS
from geolab.games.classroom.batch import simulate
from geolab.games.classroom.game import GAME
from geolab.games.classroom.numpy_engine import simulate_numpy
from geolab.games.classroom.rules import Rules
from geolab.lab.progress import warm_up


def policy(name: str, rules: Rules):
    """A class bot by its spec (``name`` or ``name:key=value``), from the registry."""
    return BOTS.make(name, rules)


def tables(names, rules: Rules) -> np.ndarray:
    """(P, 2, 32, 19600) int8: the batch engine's table of each named bot."""
    return np.stack([policy(n, rules).discard_table(rules) for n in names])


def reference_games(rules: Rules, names, n_games: int, seed: int):
    """Bots seated in turn (seat i plays names[i % len(names)]) on the reference engine (the
    one driver), deals and bots drawing from one numpy stream (so not the batch engine's
    deals: equal in distribution, checked exactly in the tests)."""
    objs = [policy(n, rules) for n in names]
    rng = np.random.default_rng(seed)
    seated = [Student(objs[i % len(objs)], rng) for i in range(rules.students)]
    return [GAME.play(rules, GAME.deal(rules, rng), seated) for _ in range(n_games)]


def bench(rules: Rules, n_games: int, n_reference: int, repeats: int, seed: int = 0) -> dict:
    """Student-hands per second: batch engine (median of `repeats`), the numpy engine
    alternating with it (batch, numpy, batch, numpy, ...: the same-run baseline, since this
    machine's speed drifts within seconds) and the reference engine in the same run, with the
    equilibrium table for every student. Batch counted two ways: one hand per student per
    game, and every hand the engine deals and scores (the finalists' hands in the
    Championship Round and its replays too)."""
    table = tables(["equilibrium"], rules)
    seats = np.zeros(rules.students, np.int64)
    warm = warm_up([("batch engine", lambda: simulate(rules, table, seats, 64, seed)),  # compiled before timing
                    ("numpy engine", lambda: simulate_numpy(rules, table, seats, 64, seed))])
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
        "jit_warmup_s": warm.seconds,
    }


def offered(rules, games, runs, seed, threads) -> dict:
    """What Class GeoPower Double Choice offers as ``bench`` (`geolab bench class`)."""
    out = bench(rules, games or 200_000, 200, runs, seed)
    return {"summary": f"equilibrium discards, {rules.students} students, student-hands/s, median of {runs} runs",
            **out}
