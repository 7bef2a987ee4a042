"""Speed of a random game stepped through the OpenSpiel adapter (-> results/bench/openspiel_step.json).

Each run plays ``--games`` games of every preset of every game on the step-wise state (the
test-only Top Rank game from tests/toy_game.py among them; ``--game NAME``, repeated, plays
only those) from `new_initial_state` to the end: chance outcomes drawn by their
probabilities, every seat's action uniform among its legal ids, through OpenSpiel's
`apply_action` (so each step crosses C++ and Python, as an OpenSpiel algorithm's would). It
reports the median over ``--runs`` of the milliseconds a game (wall time, and CPU time of the
process, steadier when other work shares the cores) and the microseconds an applied action,
and the same for a clone of a state halfway through (what tree search pays per simulation).
The target for Play the Ranks: under 5 ms a game.

    PYTHONPATH=. python experiments/openspiel_step_bench.py [--games 200] [--runs 7] [--game toy --game ranks]
"""

from __future__ import annotations

import argparse
import importlib.metadata
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE / "tests"))  # the test-only game

import toy_game  # noqa: E402

from geolab import registry  # noqa: E402
from geolab.interop import openspiel  # noqa: E402
from geolab.lab.results import meta, write_json  # noqa: E402


def one_run(game, games: int, seed: int) -> tuple[float, float, float, float]:
    """(seconds, actions applied, seconds of one clone a game halfway through, CPU seconds)
    for `games` games; the clones are left out of the first and the last."""
    rng = np.random.default_rng(seed)
    actions, clone_seconds, clone_cpu = 0, 0.0, 0.0
    start, cpu = time.perf_counter(), time.process_time()
    for _ in range(games):
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(int(outcomes[rng.choice(len(outcomes), p=probs)]))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.integers(len(legal)))])
            steps += 1
            if steps == game.max_game_length() // 2:
                t, c = time.perf_counter(), time.process_time()
                state.clone()
                clone_seconds += time.perf_counter() - t
                clone_cpu += time.process_time() - c
        actions += steps
    return (time.perf_counter() - start - clone_seconds, actions, clone_seconds,
            time.process_time() - cpu - clone_cpu)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=200, help="games a run (default 200)")
    p.add_argument("--runs", type=int, default=7, help="timed runs; medians are reported (default 7)")
    p.add_argument("--game", action="append", help="only this game (repeat for more; default: every game)")
    p.add_argument("--out", type=Path, default=HERE / "results" / "bench" / "openspiel_step.json")
    args = p.parse_args()
    toy_game.install()
    stepwise = [n for n in registry.names() if callable(getattr(registry.get(n).game, "steps", None))
                and (not args.game or n in args.game)]
    rows = []
    load_start = list(os.getloadavg())
    for name in stepwise:
        for preset in registry.get(name).game.Rules.PRESETS:
            game = openspiel.load(name, preset)
            one_run(game, 5, 0)  # warm: imports, caches
            runs = [one_run(game, args.games, 1 + r) for r in range(args.runs)]
            ms = [1000 * s / args.games for s, _, _, _ in runs]
            cpu = [1000 * c / args.games for _, _, _, c in runs]
            us = [1e6 * s / a for s, a, _, _ in runs]
            clone = [1e6 * c / args.games for _, _, c, _ in runs]
            rows.append({"game": name, "preset": preset, "games_per_run": args.games, "runs": args.runs,
                         "ms_per_game": round(statistics.median(ms), 3),
                         "ms_per_game_runs": [round(x, 3) for x in ms],
                         "cpu_ms_per_game": round(statistics.median(cpu), 3),
                         "actions_per_game": round(runs[0][1] / args.games, 2),
                         "us_per_action": round(statistics.median(us), 1),
                         "us_per_clone_halfway": round(statistics.median(clone), 1)})
            print(f"{name:8} {preset:10} {rows[-1]['ms_per_game']:8.3f} ms a game "
                  f"({rows[-1]['cpu_ms_per_game']:.3f} CPU)  "
                  f"{rows[-1]['actions_per_game']:6.1f} actions  {rows[-1]['us_per_action']:7.1f} us an action  "
                  f"{rows[-1]['us_per_clone_halfway']:7.1f} us a clone")
    skipped = [n for n in registry.names() if not callable(getattr(registry.get(n).game, "steps", None))]
    report = meta(
        regenerate="PYTHONPATH=. python experiments/openspiel_step_bench.py " + " ".join(sys.argv[1:]),
        command=" ".join(["python", "experiments/openspiel_step_bench.py", *sys.argv[1:]]),
        open_spiel=importlib.metadata.version("open_spiel"), cpus=os.cpu_count(),
        load_average_start=load_start, load_average_end=list(os.getloadavg()),
        measured="random games through the adapter: chance by its probabilities, actions uniform among the legal "
                 "ids, every step through OpenSpiel's apply_action; medians over the runs (ms_per_game wall time, "
                 "cpu_ms_per_game the process's CPU time); a clone halfway through timed apart (and left out of "
                 "both)",
        not_on_the_stepwise_state_yet=skipped, games=stepwise, target="ranks: under 5 ms a game")
    write_json({"meta": report, "results": rows}, args.out)
    print(f"-> {args.out}")


if __name__ == "__main__":
    main()
