"""What Play the Ranks offers with its oracle (a perfect-information solver that sees both hands;
everything it prints says so): ``solve``, the value of every decision of a record
(`geolab solve FILE`), and the timing behind `geolab bench solver` (`run_bench`)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import numpy as np

from geolab import records
from geolab.cards import CATEGORIES, POSTAL
from geolab.cli.output import format_table, print_json
from geolab.errors import GeolabError
from geolab.games.ranks.reference import Lead, deal_arrays
from geolab.games.ranks.rules import SIDES, Rules
from geolab.games.ranks.solver.analysis import decisions
from geolab.games.ranks.solver.double_dummy import PARALLEL_MIN, OracleSolver, Position
from geolab.lab.results import check_writable, reason, write_json

PEEK_NOTE = "oracle: perfect information, sees both hands"


def _side(side) -> str | None:
    return None if side is None else SIDES[side]


def _move(move) -> dict:
    if isinstance(move, Lead):
        return {"card": POSTAL[move.card], "category": CATEGORIES[move.category], "base": move.base}
    return {"card": POSTAL[move]}


def _move_text(move: dict) -> str:
    return f"{move['card']} {move['category']}@{move['base']}" if "category" in move else move["card"]


def solve(record: dict) -> tuple[dict, list[str]]:
    """What Play the Ranks offers as ``solve``: the oracle's JSON report of one record, and the
    same as lines a person reads."""
    report = solve_record(record)
    return report, report_lines(report)


def solve_record(record: dict) -> dict:
    """The oracle's JSON report of one Play the Ranks record (`geolab solve FILE --json`)."""
    entry, game = records.replay_played(record)  # the one validation path: envelope, body, result
    solver = OracleSolver()
    held = [tuple(c for c in game.hands[s] if c not in game.discards[s]) for s in (0, 1)]
    start = Position(game.rules, (held[0], held[1]), game.first_lead, power_bases=game.power_bases)
    items = []
    lost = {"A": 0, "B": 0}
    for d in decisions(game, solver):
        chosen = d.played_value
        if not d.optimal:
            lost[SIDES[d.side]] += 1
        items.append(
            {
                "trick": d.trick + 1,
                "side": SIDES[d.side],
                "kind": d.kind,
                "played": _move(d.played),
                "optimal": d.optimal,
                "winner_after": _side(chosen.winner),
                "best_winner": _side(d.solution.winner),
                "moves": [
                    {**_move(m.move), "winner": _side(m.winner), "tricks": {"A": m.tricks[0], "B": m.tricks[1]}}
                    for m in d.solution.moves
                ],
            }
        )
    tricks = solver.tricks(start)
    return {
        "solver": PEEK_NOTE,
        "rules": game.rules.name,
        "winner": _side(solver.winner(start)),
        "tricks": {"A": tricks[0], "B": tricks[1]},
        "played_winner": _side(game.winner),
        "decisions_lost": lost,
        "decisions": items,
    }


def report_lines(report: dict) -> list[str]:
    """The report as text: the verdict, then each decision with every move's value."""
    lines = []
    lines.append(f"# {report['solver']}")
    lines.append(
        f"best play from trick 1: winner {report['winner'] or 'tie'}, "
        f"forced tricks A {report['tricks']['A']} B {report['tricks']['B']}; "
        f"played: winner {report['played_winner'] or 'tie'}"
    )
    for item in report["decisions"]:
        mark = "ok" if item["optimal"] else "LOST"
        text = _move_text(item["played"])
        lines.append(f"\ntrick {item['trick']} {item['side']} {item['kind']}s {text}: {mark} (best: "
                     f"{item['best_winner'] or 'tie'})")
        rows = [
            {
                "move": _move_text(m),
                "winner": m["winner"] or "tie",
                "tricks A": m["tricks"]["A"],
                "tricks B": m["tricks"]["B"],
            }
            for m in item["moves"]
        ]
        lines.append(format_table(rows))
    lines.append(f"\ndecisions lost: A {report['decisions_lost']['A']}, B {report['decisions_lost']['B']}")
    return lines


def run_bench(args) -> None:
    """Time the oracle on full 8 v 8 Combo 1 deals from trick 1 (one core; the big batch on two threads)."""
    if args.out:
        check_writable(args.out, "file", "--out")  # before minutes of timing
    rules = Rules.combo1()
    solver = OracleSolver()
    rng = np.random.default_rng(args.seed)
    t0 = time.perf_counter()
    warm_h, _, _ = deal_arrays(rules, 2, rng)
    solver.winners(rules, warm_h[:, 0, :8], warm_h[:, 1, :8], np.zeros(2, np.int64))
    solver.lead_outcomes(rules, warm_h[:, 0, :8], warm_h[:, 1, :8], np.zeros(2, np.int64))
    jit_s = time.perf_counter() - t0

    hands, draw, _ = deal_arrays(rules, args.deals, rng)
    a, b = hands[:, 0, :8], hands[:, 1, :8]  # the first 8 of the 9 dealt: a full 8 v 8 deal
    leaders = rng.integers(0, 2, args.deals)
    load = os.getloadavg()[0]
    per_deal, per_score, cpu_deal, cpu_score = [], [], [], []
    for i in range(args.deals):
        t, c = time.perf_counter(), time.process_time()
        solver.winners(rules, a[i : i + 1], b[i : i + 1], leaders[i : i + 1])
        per_deal.append(time.perf_counter() - t)
        cpu_deal.append(time.process_time() - c)
        t, c = time.perf_counter(), time.process_time()
        solver.lead_outcomes(rules, a[i : i + 1], b[i : i + 1], leaders[i : i + 1])
        per_score.append(time.perf_counter() - t)
        cpu_score.append(time.process_time() - c)
    ms = np.array(per_deal) * 1000
    ms_all = np.array(per_score) * 1000
    cpu_ms, cpu_all = np.array(cpu_deal) * 1000, np.array(cpu_score) * 1000

    hands, _, _ = deal_arrays(rules, args.batch, rng)
    t, c = time.perf_counter(), time.process_time()
    solver.winners(rules, hands[:, 0, :8], hands[:, 1, :8], rng.integers(0, 2, args.batch))
    batch_s, batch_cpu = time.perf_counter() - t, time.process_time() - c
    report = {
        "solver": PEEK_NOTE,
        "rules": "combo1",
        "deals": args.deals,
        "seed": args.seed,
        "ms_per_deal": float(ms.mean()),
        "median_ms": float(np.median(ms)),
        "p99_ms": float(np.percentile(ms, 99)),
        "max_ms": float(ms.max()),
        "score_all_moves_ms_mean": float(ms_all.mean()),
        "score_all_moves_p99_ms": float(np.percentile(ms_all, 99)),
        "batch_deals": args.batch,
        "batch_seconds": batch_s,
        "batch_ms_per_deal": batch_s / max(args.batch, 1) * 1000,
        "batch_threads": 2 if args.batch >= PARALLEL_MIN else 1,
        "cpu_ms_per_deal": float(cpu_ms.mean()),
        "cpu_median_ms": float(np.median(cpu_ms)),
        "cpu_p99_ms": float(np.percentile(cpu_ms, 99)),
        "cpu_score_all_moves_ms_mean": float(cpu_all.mean()),
        "cpu_score_all_moves_p99_ms": float(np.percentile(cpu_all, 99)),
        "batch_cpu_seconds": batch_cpu,
        "load_average_start": load,
        "load_average_end": os.getloadavg()[0],
        "jit_load_seconds": jit_s,
        "note": "wall-clock unless cpu_ (process CPU time, all threads), one core a deal, Python call per deal "
        "included; the batch call splits over batch_threads threads; "
        "first 8 of 9 dealt cards a side; load_average: 1-minute load of the machine (2 cores)",
    }
    failure = None
    if args.out:
        try:
            write_json(report, Path(args.out))
        except OSError as error:
            failure = GeolabError(f"--out {args.out}: cannot write ({reason(error)}); the report above is not saved")
    if args.json:
        print_json(report)
    else:
        for key, value in report.items():
            print(f"{key:>24}: {value:.4g}" if isinstance(value, float) else f"{key:>24}: {value}")
    if failure is not None:
        raise failure
