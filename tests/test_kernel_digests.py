"""Pinned outputs of the Play the Ranks kernels whose arguments were grouped into named tuples
(issue 24, item 4): the fused heuristic play (`heuristics._play_fused`) and the ISMCTS search
(`ismcts_kernel.search`) give, game for game and node for node, what they gave before (digests
recorded on the code before the change). The Class kernel's digests are in
tests/test_classroom_engines.py. Issue 37, item 9 added the kernels it gave at most 16
arguments: the step-by-step Play the Ranks policies and trick settling, Jumbled's fused
rounds, per-decision heuristic and Monte Carlo, Dashing States' team choice, the learning
features and the Class kernel's traced deal (digests recorded before that change)."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

import geolab.games.ranks.batch as rb
from geolab.bots.ranks.ismcts import ISMCTSSeat
from geolab.bots.ranks.registry import BOTS
from geolab.game import BatchBot
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


# ----- issue 37, item 9: the kernels whose arguments were grouped to at most 16 -------------
# Digests recorded on the code before the change (commit 09d60cb).


class _Stepwise(BatchBot):
    """A built-in policy the fused kernel does not play (`Policy.fused` offers only the
    built-in classes), so each decision goes through its `act` kernel (`_planner`,
    `_counter`, ...) and the engine's `_resolve` / `settle`."""

    def __init__(self, policy):
        self.policy, self.name = policy, policy.name

    def act(self, obs, rng):
        return self.policy.act(obs, rng)


#: (preset, line-up) -> digest of 300 step-by-step games of seed 5
STEPWISE = {
    ("combo1", "counter,planner"): "9831739e5c2a7456",
    ("battle1", "planner,random"): "3da55ee7123566dd",
    ("battle2", "counter,greedy"): "6f8186641a45764c",
    ("battle3", "planner,counter"): "78575b4377e73b57",
    ("geodouble", "counter,planner"): "efb9ce62493822ef",
}


@pytest.mark.parametrize("preset, names", list(STEPWISE))
def test_stepwise_play_is_pinned(preset, names):
    rules = Rules.preset(preset)
    policies = [_Stepwise(BOTS.make(n, rules)) for n in names.split(",")]
    assert played_digest(rb.play(rules, policies, 300, seed=5)) == STEPWISE[(preset, names)]


#: (players, heuristic) -> digest of a traced block of 512 fused rounds, the untraced block's
#: points, and 256 step-by-step rounds of seed 4 (`heuristic_choice`)
JUMBLED = {
    (4, "heuristic"): "b1c310157eac4a62",
    (4, "reserve"): "bd5053be00156d2d",
    (8, "first"): "7264f345c66db3a9",
    (5, "last"): "d1dd2e9b9b1800fa",
    (3, "middle"): "83477b56e0822cc2",
}


@pytest.mark.parametrize("players, name", list(JUMBLED))
def test_jumbled_heuristic_kernels_are_pinned(players, name):
    from geolab.bots.jumbled.heuristics import HEURISTICS, heuristic_block
    from geolab.games.jumbled.offers.study import simulate_rounds
    from geolab.games.jumbled.rules import Rules as JRules

    rules, bot = JRules(players=players).validate(), HEURISTICS[name]
    traced = heuristic_block(rules, bot, 512, 11, 12, first=3, trace=True)
    bare = heuristic_block(rules, bot, 512, 11, 12, first=3)
    calls = heuristic_block(rules, bot, 64, 13, 14, calls=np.arange(64) % 2, trace=True)
    stepwise = simulate_rounds(rules, [name] * players, n_rounds=256, seed=4, fused=False)
    got = digest(*traced.__dict__.values(), bare.points, *calls.__dict__.values(), stepwise)
    assert got == JUMBLED[(players, name)]


#: digest of 48 rounds of seed 3, Monte Carlo (4 samples) against three heuristics
MONTECARLO = "0e76f11d8ce705b1"


def test_jumbled_montecarlo_kernel_is_pinned():
    from geolab.games.jumbled.offers.study import simulate_rounds
    from geolab.games.jumbled.rules import Rules as JRules

    rules = JRules(players=4).validate()
    points = simulate_rounds(rules, ["montecarlo:samples=4", "heuristic", "reserve", "first"], n_rounds=48, seed=3)
    assert digest(points) == MONTECARLO


#: rules -> digest of 2,000 Dashing States games of seed 9 (`model._choose`)
DASHING = {"official": "39811e3dfaf484a7", "names-only": "2da9494e07940d8f", "juniors": "6bf126307f3d731c"}


@pytest.mark.parametrize("preset", list(DASHING))
def test_dashing_team_choice_is_pinned(preset):
    from geolab.bots.dashing.registry import BOTS as DASH_BOTS
    from geolab.games.dashing import batch as dashing
    from geolab.games.dashing.rules import Rules as DRules

    rules = DRules.preset(preset)
    bots = [DASH_BOTS.make("team:face_up=0.05,error=0.1", rules), DASH_BOTS.make("team:speed=1.3,confuse=0.6", rules)]
    table = dashing.batch(rules, bots, 2000, seed=9, threads=1)
    assert digest(table.scores, *(table.columns[k] for k in sorted(table.columns))) == DASHING[preset]


#: rules -> digest of every learning feature (`learn.features`' kernels) of 60 games of seed 2
FEATURES = {"combo1": "fc42983fafd27545", "battle2": "764375878c5b15bc", "battle3": "a99218ea3623efad"}


@pytest.mark.parametrize("preset", list(FEATURES))
def test_learning_features_are_pinned(preset):
    from geolab.bots.ranks.learning.features import candidates, public

    rules = Rules.preset(preset)
    greedy, seen = BOTS.make("greedy", rules), []

    class Features(BatchBot):
        name = "features"

        def act(self, obs, rng):
            cand = candidates(obs.rules, public(obs))
            seen.append(digest(cand.card, cand.valid, cand.X, cand.category, cand.base))
            return greedy.act(obs, rng)

    rb.play(rules, [Features(), greedy], 60, seed=2)
    assert digest(np.array([int(s, 16) for s in seen], np.uint64)) == FEATURES[preset]


#: digest of 2,000 traced classes of seed 11 (`classroom.batch._deal`: the traced path)
CLASS_TRACED = "bbf90c8f00113ea3"


def test_classroom_traced_deal_is_pinned():
    from geolab.bots.classroom import policies as cp
    from geolab.games.classroom.batch import simulate
    from geolab.games.classroom.rules import Rules as ClassRules

    tables = np.stack([cp.tabulate(p) for p in (cp.AverageRank(), cp.WorstCategory(), cp.RandomDiscard())])
    rules = ClassRules(students=20, groups=4)
    b = simulate(rules, tables, np.arange(20) % 3, 2000, seed=11, trace=True)
    traced = (b.trace[k] for k in sorted(b.trace))
    assert digest(b.group_win, b.champion, b.championship_rounds, *traced) == CLASS_TRACED
