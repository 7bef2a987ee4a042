"""Why the Play the Ranks batch engine is numba on bitmasks: two passes timed both ways.

Greedy's lead at base 1 (numpy over int8 card arrays v the numba kernel over int64 masks) and
the deal (`ranks.reference.deal_arrays` in numpy v the engine's kernel, floats drawn included), on
the same data, CPU time per row, best of 7. Writes results/bench/ranks_layout.json.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np

import geolab.games.ranks.batch as rb
import geolab.games.ranks.reference as ranks_ref
from geolab.bots.ranks.heuristics import NEAR_K, greedy_lead_rows
from geolab.games.ranks.rules import Rules
from geolab.lab.results import meta, write_json


def per_row(f, rows: int) -> float:
    best = float("inf")
    for _ in range(7):
        start = time.process_time()
        f()
        best = min(best, time.process_time() - start)
    return best / rows * 1e9


def main() -> dict:
    rules = Rules.combo1()
    deals = rb.deal(rules, 0, 0, 16)
    cards = deals.hands[:, 0, : rules.tricks].astype(np.int64)  # a hand of 8 as int8 card numbers
    masks = np.bitwise_or.reduce(np.left_shift(1, cards), axis=1)
    m = len(masks)
    bases = np.ones((m, 1), np.int8)
    out = [np.empty(m, np.int64) for _ in range(3)]

    def numpy_lead():
        c = cards[np.arange(m), rb.DIST[cards, 1].argmin(axis=1)]  # first minimum: lowest card
        return c, NEAR_K[c, 1]

    greedy_lead_rows(masks, bases, *out)
    c, k = numpy_lead()
    assert (c == out[0]).all() and (k == out[1]).all()
    hands, _, _ = ranks_ref.deal_arrays(rules, rb.BLOCK, rb.block_rng(0, 0))
    assert (hands == deals.hands[: rb.BLOCK]).all()

    def numpy_deal():
        return ranks_ref.deal_arrays(rules, m, rb.block_rng(0, 0))

    result = {
        "rows": m,
        "greedy_lead_ns": {"numpy_int8_arrays": per_row(numpy_lead, m),
                           "numba_bitmasks": per_row(lambda: greedy_lead_rows(masks, bases, *out), m)},
        "deal_ns": {"numpy_deal_arrays": per_row(numpy_deal, m),
                    "numba_deal": per_row(lambda: rb.deal(rules, 0, 0, 16), m)},
    }
    write_json({**result, "meta": meta(script="experiments/ranks_layout.py")}, Path("results/bench/ranks_layout.json"))
    return result


if __name__ == "__main__":
    print(main())
