"""Pinned outputs of the Play the Ranks kernels whose arguments were grouped into named tuples
(issue 24, item 4): the fused heuristic play (`heuristics._play_fused`) and the ISMCTS search
(`ismcts_kernel.search`) give, game for game and node for node, what they gave before (digests
recorded on the code before the change). The Class kernel's digests are in
tests/test_classroom_engines.py."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

import geolab.games.ranks.batch as rb
from geolab.bots.ranks.ismcts import ISMCTSSeat
from geolab.bots.ranks.registry import BOTS
from geolab.games.ranks.reference import Trick, View
from geolab.games.ranks.rules import Rules


def digest(*arrays) -> str:
    h = hashlib.sha256()
    for a in arrays:
        if a is not None:
            h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()[:16]


def played_digest(played) -> str:
    return digest(played.discards, played.first_lead, played.declarations, *played.history.values(),
                  played.n_tricks, played.tricks_won, played.winner, played.points)


#: (preset, line-up) -> digest of 600 games of seed 5: every heuristic pair the fused kernel
#: plays (greedy's decisions inlined, the others through `_decide`)
FUSED = {
    ("combo1", "greedy,greedy"): "26e98a9c489d55ef",
    ("combo1", "counter,planner"): "720fe2dfc1ba5abd",
    ("battle1", "greedy,random"): "c30e312c988ecd97",
    ("battle2", "counter,greedy"): "b00f7c7d6682789a",
    ("battle3", "planner,counter"): "2e46152d88b0a408",
    ("geodouble", "random,counter"): "26420887d7697945",
}


@pytest.mark.parametrize("preset, names", list(FUSED))
def test_fused_play_is_pinned(preset, names):
    rules = Rules.preset(preset)
    policies = [BOTS.make(n, rules) for n in names.split(",")]
    assert all(getattr(p, "fused", None) is not None for p in policies)  # the fused kernel plays them
    assert played_digest(rb.play(rules, policies, 600, seed=5)) == FUSED[(preset, names)]


def _views():
    combo, battle2, battle3 = Rules.combo1(), Rules.battle(2), Rules.battle(3)
    yield View(combo, 0, (3, 9, 17, 22, 30, 36, 41, 48), (5,), None, 0, (None, None), None, ())
    yield View(combo, 1, (4, 10, 18, 23, 31, 37, 42), (6,), None, 0, (None, None), None,
               (Trick(0, 12, 1, 1, 13, 0),), lead_category=2, lead_base=1, lead_card=20)
    yield View(battle2, 1, (3, 8, 21, 40, 44, 46), (2,), (9,), 0, (False, True), None,
               (Trick(0, 12, 1, 50, 13, 0), Trick(0, 14, 0, 1, 15, 1)), lead_category=2, lead_base=1, lead_card=None)
    yield View(battle2, 0, (1, 7, 19, 27, 33, 45), (2,), (9,), 0, (True, False), None,
               (Trick(0, 12, 1, 50, 13, 1), Trick(1, 14, 0, 1, 15, 0)))
    yield View(battle3, 0, (0, 11, 22, 33, 44, 47, 49, 16), (2,), (9,), 0, (None, None), (10, 30), ())


#: digests of the tree (every column, in node order) and the move of each view of `_views`
SEARCH = ["dc02ab14ca5474c2", "96de69bdec6a0e84", "99802260b0f1e895", "57079829c195d64e", "434d38f32c64fd74"]


@pytest.mark.parametrize("i", range(len(SEARCH)))
def test_ismcts_search_is_pinned(i):
    view = list(_views())[i]
    seat = ISMCTSSeat(iterations=3000, budget_ms=None, layouts=64, seed=7)
    move, tree = seat.search(view)
    assert digest(np.array([move]), *tree.values()) == SEARCH[i]
