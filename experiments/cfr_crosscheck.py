"""Cross-check geolab's Class equilibrium with OpenSpiel's CFR and NashConv on a small deck
(issue 21 item 10; docs/interop.md, "CFR cross-check").

The game is the independence model geolab's solver solves, written here as an OpenSpiel
Python game from the card ranks alone (not from geolab's hand tables): the deck is cards
0..n-1 of the 50, a hand is any 3 of them; chance deals each student a hand, independently and
uniformly; the students discard one after another, each seeing only its own hand (imperfect
information); chance turns the category with the GeoPower deck's odds; a student's return is
1 when nobody's kept sum beats its own (Top Dog: lower; Bottoms Up: higher), so every tied
student wins, which is what the solver maximizes. Ties all winning make the game general-sum,
so OpenSpiel's `exploitability` (constant-sum only) does not apply; `nash_conv` does.

    PYTHONPATH=. python experiments/cfr_crosscheck.py            # -> results/interop/cfr_crosscheck.{json,csv}
"""

from __future__ import annotations

import argparse
import csv
import itertools
import json
import multiprocessing
import subprocess
import sys
import time
from math import comb
from pathlib import Path

import numpy as np
import pyspiel
from open_spiel.python import policy as os_policy
from open_spiel.python.algorithms import cfr, expected_game_score, exploitability

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from geolab.bots.classroom.equilibrium import (  # noqa: E402
    KEPT,
    average_start,
    model_exploitability,
    onehot,
    solve,
    values,
)
from geolab.cards import RANKS  # noqa: E402
from geolab.games.classroom.hands import HANDS, hand_index  # noqa: E402
from geolab.games.classroom.rules import BOTTOMS_UP, TOP_DOG, Rules  # noqa: E402

NAME = "geolab_class_small"
CALLS = {"top-dog": TOP_DOG, "bottoms-up": BOTTOMS_UP}
#: geolab's policy must be an equilibrium as OpenSpiel measures it: its NashConv below this.
#: The solver claims exactly 0 (a pure policy that is its own best response), so what remains
#: is floating-point rounding of sums of a few thousand terms of size <= 1 (about 1e-15).
#: A pure policy that is not a best response to itself is exploitable by a whole number of
#: outcomes: with the official deck's equal odds at least 1 / (3 * hands**players), 2.7e-4 for
#: 35 hands and 2 students, 3.3e-4 for 10 hands and 3; 1e-9 separates the two cases widely.
TOLERANCE = 1e-9

_TYPE = pyspiel.GameType(
    short_name=NAME,
    long_name="Class GeoPower Double Choice, one round under the independence model, small deck",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=False,
    provides_observation_tensor=False,
    parameter_specification={"cards": 6, "players": 2, "call": "top-dog", "geopower": "5 5 5"},
)


class _Config:
    """A game's constants, shared (not copied) by every state copied from it."""

    def __init__(self, cards: int, players: int, call: str, geopower: str):
        self.cards, self.players, self.call = cards, players, call
        counts = np.array([float(x) for x in geopower.split()])
        self.p_cat = counts / counts.sum()
        self.hands = list(itertools.combinations(range(cards), 3))  # lexicographic, not geolab's order

    def __deepcopy__(self, memo):
        return self


class SmallClassGame(pyspiel.Game):
    """Parameters: `cards` n (the deck is cards 0..n-1), `players`, `call`, `geopower` (three
    counts separated by spaces). Actions are card numbers (the card discarded)."""

    def __init__(self, params=None):
        p = {**_TYPE.parameter_specification, **(params or {})}
        self.cfg = _Config(int(p["cards"]), int(p["players"]), str(p["call"]), str(p["geopower"]))
        info = pyspiel.GameInfo(num_distinct_actions=self.cfg.cards, max_chance_outcomes=max(len(self.cfg.hands), 3),
                                num_players=self.cfg.players, min_utility=0.0, max_utility=1.0,
                                max_game_length=self.cfg.players)
        super().__init__(_TYPE, info, p)

    def new_initial_state(self):
        return SmallClassState(self, self.cfg)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return _Observer()


class SmallClassState(pyspiel.State):
    """Deals (a hand index per student), discards (a card per student), then the category."""

    def __init__(self, game, cfg):
        super().__init__(game)
        self.g = cfg
        self.hands: list[int] = []
        self.discards: list[int] = []
        self.category = -1

    def current_player(self):
        if self.category >= 0:
            return pyspiel.PlayerId.TERMINAL
        if len(self.hands) < self.g.players or len(self.discards) == self.g.players:
            return pyspiel.PlayerId.CHANCE
        return len(self.discards)

    def _legal_actions(self, player):
        return list(self.g.hands[self.hands[player]])

    def chance_outcomes(self):
        if len(self.hands) < self.g.players:
            return [(h, 1 / len(self.g.hands)) for h in range(len(self.g.hands))]
        return [(c, float(p)) for c, p in enumerate(self.g.p_cat) if p > 0]

    def _apply_action(self, action):
        if len(self.hands) < self.g.players:
            self.hands.append(action)
        elif len(self.discards) < self.g.players:
            self.discards.append(action)
        else:
            self.category = action

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"hand {self.g.hands[action]}" if len(self.hands) < self.g.players else f"category {action}"
        return f"discard {action}"

    def is_terminal(self):
        return self.category >= 0

    def scores(self) -> list[int]:
        """Each student's kept sum in the turned category."""
        return [sum(int(RANKS[card, self.category]) for card in self.g.hands[h] if card != d)
                for h, d in zip(self.hands, self.discards)]

    def returns(self):
        if not self.is_terminal():
            return [0.0] * self.g.players
        s = self.scores()
        best = min(s) if self.g.call == "top-dog" else max(s)
        return [1.0 if x == best else 0.0 for x in s]  # every tied student wins

    def __str__(self):
        return f"hands {self.hands} discards {self.discards} category {self.category}"


class _Observer:
    """Information state: the student's own hand and, once made, its own discard."""

    def __init__(self):
        self.tensor = np.zeros(0, np.float32)
        self.dict = {}

    def set_from(self, state, player):
        pass

    def string_from(self, state, player):
        if len(state.hands) <= player:
            return f"p{player} waiting"
        own = f" | discard {state.discards[player]}" if len(state.discards) > player else ""
        return f"p{player} hand {state.g.hands[state.hands[player]]}{own}"


pyspiel.register_game(_TYPE, SmallClassGame)


def small_kept(n: int) -> np.ndarray:
    """geolab's kept-sum table of the hands of cards 0..n-1 (its first C(n, 3) rows)."""
    return KEPT[: comb(n, 3)]


def tabular(game, discard_of_hand) -> os_policy.TabularPolicy:
    """An OpenSpiel tabular policy playing a pure geolab discard table (a discard position in
    the sorted hand per geolab hand index) for every student."""
    pol = os_policy.TabularPolicy(game)
    pol.action_probability_array[:] = 0.0
    for key, row in pol.state_lookup.items():
        hand = tuple(int(x) for x in key.split("(")[1].split(")")[0].split(","))
        index = int(hand_index(np.array([hand]))[0])
        assert tuple(HANDS[index]) == hand
        pol.action_probability_array[row, hand[discard_of_hand[index]]] = 1.0
    return pol


def pure_search(game, k: int, c: int, p_cat, kept: np.ndarray) -> dict:
    """Every pure symmetric policy (3 ** hands of them) valued by geolab: how many are
    equilibria, and the least exploitable one, measured again by OpenSpiel."""
    exps = [(model_exploitability(np.array(pol, np.int8), k, c, p_cat, kept), pol)
            for pol in itertools.product(range(3), repeat=len(kept))]
    least, pol = min(exps)
    return {"policies": len(exps), "equilibria": sum(e == 0 for e, _ in exps), "least_exploitability": least,
            "least_policy": list(pol),
            "least_nash_conv_openspiel": float(exploitability.nash_conv(game, tabular(game, np.array(pol))))}


def crosscheck(n: int, players: int, call: str, iterations: int, checkpoints=(), search: bool = False) -> dict:
    """geolab's solution of the n-card deck against OpenSpiel's NashConv and CFR+; `search`
    also tries every pure symmetric policy (for 10 hands or fewer)."""
    k, c = players - 1, CALLS[call]
    p_cat = Rules().geopower_p
    game = pyspiel.load_game(NAME, {"cards": n, "players": players, "call": call,
                                    "geopower": " ".join(str(x) for x in Rules().geopower)})
    kept = small_kept(n)
    t0 = time.perf_counter()
    eq = solve(k, c, p_cat, kept=kept)
    t_solve = time.perf_counter() - t0

    t0 = time.perf_counter()
    geo = tabular(game, eq.policy)
    geo_nc = exploitability.nash_conv(game, geo, return_only_nash_conv=False)
    geo_values = expected_game_score.policy_value(game.new_initial_state(), [geo] * players)
    # a policy that is no equilibrium (the other call's average-rank discard) checks geolab's
    # valuation too, not only its fixed point: NashConv = players x geolab's exploitability
    start = average_start(1 - c, kept)
    start_nc = exploitability.nash_conv(game, tabular(game, start))
    v = values(onehot(eq.policy), k, c, p_cat, kept)
    strict = (v >= v.max(axis=1, keepdims=True) - 1e-12).sum(axis=1) == 1  # hands with one best discard
    searched = pure_search(game, k, c, p_cat, kept) if search and len(kept) <= 10 else None
    t_check = time.perf_counter() - t0

    t0 = time.perf_counter()
    solver = cfr.CFRPlusSolver(game)
    trace = []
    for it in range(1, iterations + 1):
        solver.evaluate_and_update_policy()
        if it in checkpoints or it == iterations:
            trace.append({"iteration": it, "nash_conv": float(exploitability.nash_conv(game, solver.average_policy())),
                          "seconds": round(time.perf_counter() - t0, 2)})
    avg = solver.average_policy()
    cfr_values = expected_game_score.policy_value(game.new_initial_state(), [avg] * players)
    # where CFR's average policy puts most of its probability elsewhere than geolab's discard,
    # and whether those hands are ones where geolab's discard is a strict best response
    off = 0.5 * np.abs(avg.action_probability_array - geo.action_probability_array).sum(axis=1) > 0.5
    strict_rows = np.zeros(len(off), bool)
    for key, row in geo.state_lookup.items():
        hand = tuple(int(x) for x in key.split("(")[1].split(")")[0].split(","))
        strict_rows[row] = strict[int(hand_index(np.array([hand]))[0])]
    t_cfr = time.perf_counter() - t0

    return {
        "cards": n, "deck": [int(x) for x in range(n)], "players": players, "opponents": k, "call": call,
        "hands": len(kept), "p_cat": [float(x) for x in p_cat],
        "hands_with_one_best_discard": int(strict.sum()),
        "info_states": len(geo.state_lookup),
        "geolab": {"iterations": eq.iterations, "model_exploitability": eq.exploitability, "win": eq.win,
                   "seconds": round(t_solve, 3)},
        "geolab_in_openspiel": {"nash_conv": float(geo_nc.nash_conv),
                                "player_improvements": [float(x) for x in geo_nc.player_improvements],
                                "values": [float(x) for x in geo_values],
                                "within_tolerance": bool(abs(geo_nc.nash_conv) < TOLERANCE)},
        "pure_symmetric_search": searched,
        "other_call_policy": {
            "nash_conv": float(start_nc),
            "geolab_players_x_model_exploitability": players * model_exploitability(start, k, c, p_cat, kept),
            "seconds_checks": round(t_check, 2)},
        "cfr_plus": {"iterations": iterations, "trace": trace, "nash_conv": trace[-1]["nash_conv"],
                     "values": [float(x) for x in cfr_values],
                     "info_states_mostly_off_geolab": int(off.sum()),
                     "of_which_geolab_strict": int((off & strict_rows).sum()),
                     "seconds": round(t_cfr, 2)},
    }


def _task(n, players, iterations, call):
    r = crosscheck(n, players, call, iterations, checkpoints={10, 25, 50, 100, 200, 300, 500}, search=True)
    print(n, players, call, "geolab NashConv", r["geolab_in_openspiel"]["nash_conv"], "CFR+",
          r["cfr_plus"]["nash_conv"], r["cfr_plus"]["seconds"], "s", flush=True)
    return r


def revision() -> str:
    out = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain"], capture_output=True, text=True).stdout
    return out.stdout.strip() + ("+dirty" if dirty.strip() else "")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--configs", default="6:2:200,5:3:40",
                    help="cards:players:CFR+ iterations, comma separated (each under both calls)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", default=str(ROOT / "results" / "interop"))
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    tasks = [(*(int(x) for x in spec.split(":")), call) for spec in args.configs.split(",") for call in CALLS]
    with multiprocessing.Pool(args.workers) as pool:
        rows = pool.starmap(_task, tasks)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    meta = {"command": "PYTHONPATH=. python experiments/cfr_crosscheck.py " + " ".join(argv or sys.argv[1:]),
            "revision": revision(), "openspiel": "2.0.2", "tolerance": TOLERANCE,
            "deck": "cards 0..n-1 of geolab.cards (the first n of the 50, geolab's card order)",
            "model": "independence model: each hand uniform over the C(n,3) hands, independently; ties all win",
            "cfr": "open_spiel.python.algorithms.cfr.CFRPlusSolver, average policy",
            "workers": args.workers, "seconds": round(time.perf_counter() - t0, 1)}
    (out / "cfr_crosscheck.json").write_text(json.dumps({"meta": meta, "results": rows}, indent=1) + "\n")
    (out / "meta.json").write_text(json.dumps(meta, indent=1) + "\n")  # how to regenerate the folder
    with open(out / "cfr_crosscheck.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["cards", "players", "call", "hands", "info_states", "geolab_win", "geolab_nash_conv_openspiel",
                    "other_call_nash_conv_openspiel", "other_call_players_x_geolab_exploitability", "cfr_iterations",
                    "cfr_nash_conv", "cfr_value_p0", "cfr_info_states_mostly_off_geolab", "of_which_geolab_strict",
                    "cfr_seconds"])
        for r in rows:
            w.writerow([r["cards"], r["players"], r["call"], r["hands"], r["info_states"], r["geolab"]["win"],
                        r["geolab_in_openspiel"]["nash_conv"], r["other_call_policy"]["nash_conv"],
                        r["other_call_policy"]["geolab_players_x_model_exploitability"], r["cfr_plus"]["iterations"],
                        r["cfr_plus"]["nash_conv"], r["cfr_plus"]["values"][0],
                        r["cfr_plus"]["info_states_mostly_off_geolab"], r["cfr_plus"]["of_which_geolab_strict"],
                        r["cfr_plus"]["seconds"]])


if __name__ == "__main__":
    main()
