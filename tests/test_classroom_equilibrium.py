"""The equilibrium discard: a best response to itself under the model, checked on real deals."""

import pickle
import shutil
from pathlib import Path

import numpy as np
import pytest

import geolab.bots.classroom.equilibrium as solver
import geolab.games.classroom.offers.equilibrium as lab
from geolab.bots.classroom.equilibrium import (
    KEPT,
    average_start,
    best_response,
    equilibrium_table,
    model_exploitability,
    solve,
    table_for,
    values,
)
from geolab.bots.classroom.policies import AverageRank, LearnedDiscard, RandomDiscard, TablePolicy, tabulate
from geolab.bots.classroom.registry import BOTS, shipped_model_path
from geolab.cards import N_CARDS
from geolab.common.counter_rng import game_stream
from geolab.errors import GeolabError
from geolab.games.classroom.batch import block_keys, hand_row, shuffle_top
from geolab.games.classroom.hands import HANDS, N_HANDS, kept_sums
from geolab.games.classroom.offers.equilibrium import (
    equilibrium_summary,
    group_play,
    real_check,
    real_values,
    refine_real,
)
from geolab.games.classroom.rules import BOTTOMS_UP, TOP_DOG, Rules

P = np.ones(3) / 3


@pytest.mark.parametrize("k", [1, 3, 9])
@pytest.mark.parametrize("call", [TOP_DOG, BOTTOMS_UP])
def test_solution_is_its_own_best_response(k, call):
    eq = solve(k, call, P)
    assert eq.exploitability == 0.0 and model_exploitability(eq.policy, k, call, P) == 0.0
    probs = np.eye(3)[eq.policy]
    v = values(probs, k, call, P)
    assert (v[np.arange(N_HANDS), eq.policy] == v.max(axis=1)).all()
    assert (best_response(v) == eq.policy).all()
    # a symmetric field wins 1 in k + 1, a little more because ties all win
    assert 1 / (k + 1) <= eq.win < 1 / (k + 1) + 0.02


def test_where_no_pure_equilibrium_exists_the_best_cycle_member_is_nearly_exact():
    eq = solve(8, BOTTOMS_UP, P)  # groups of 9 under Bottoms Up: best responses cycle
    assert 0 < eq.exploitability < 1e-9
    assert eq.exploitability == pytest.approx(model_exploitability(eq.policy, 8, BOTTOMS_UP, P), rel=1e-9)


def test_model_values_match_a_direct_count_against_one_opponent():
    kept = kept_sums().astype(int)
    policy = tabulate(AverageRank())[TOP_DOG, 1]
    opp = kept[np.arange(N_HANDS), policy]  # (hand, category): each opponent hand's score
    v = values(np.eye(3)[policy], 1, TOP_DOG, P)
    for h in (0, 777, 12345, N_HANDS - 1):
        for d in range(3):
            direct = np.mean([(kept[h, d, c] <= opp[:, c]).mean() for c in range(3)])
            assert v[h, d] == pytest.approx(direct, abs=1e-12)


def test_the_default_start_is_the_average_rank_table():
    for call in (TOP_DOG, BOTTOMS_UP):
        assert (average_start(call) == tabulate(AverageRank())[call, 1]).all()


@pytest.mark.parametrize("call", [TOP_DOG, BOTTOMS_UP])
def test_a_small_deck_solves_on_its_own_hand_table(call):
    """The first C(7, 3) rows are the hands of cards 0..6; the solver works on them alone."""
    n, k = 7, 1
    small = KEPT[: n * (n - 1) * (n - 2) // 6]
    assert HANDS[: len(small)].max() == n - 1
    eq = solve(k, call, P, kept=small)
    assert len(eq.policy) == len(small) and eq.exploitability == 0.0
    assert model_exploitability(eq.policy, k, call, P, kept=small) == 0.0
    opp = small[np.arange(len(small)), eq.policy]  # direct count against one opponent on this deck
    beaten = (lambda a, b: b < a) if call == TOP_DOG else (lambda a, b: b > a)
    v = values(np.eye(3)[eq.policy], k, call, P, kept=small)
    for h in range(len(small)):
        for d in range(3):
            direct = np.mean([1 - beaten(small[h, d, c], opp[:, c]).mean() for c in range(3)])
            assert v[h, d] == pytest.approx(direct, abs=1e-12)
    assert eq.win == pytest.approx(v[np.arange(len(small)), eq.policy].mean(), abs=1e-15)


def test_simple_rules_fall_short_and_the_shortfall_grows_with_the_group():
    rows = {(r["group_size"], r["call"]): r for r in equilibrium_summary(P, [2, 4, 8])}
    for call in ("top-dog", "bottoms-up"):
        assert rows[(8, call)]["shortfall_average"] > rows[(2, call)]["shortfall_average"] > 0
        assert all(rows[(s, call)]["shortfall_random"] > 0.05 for s in (2, 4, 8))


def test_equilibrium_table_covers_every_opponent_count():
    table, solved = equilibrium_table(P, opponents=[1, 3])
    assert len(solved) == 4 and all(e.exploitability == 0 for e in solved)
    assert (table[TOP_DOG, 2] == table[TOP_DOG, 1]).all() and (table[TOP_DOG, 31] == table[TOP_DOG, 3]).all()


def test_real_deals_agree_with_the_model_and_barely_exploit_it():
    eq = solve(3, TOP_DOG, P)
    check = real_check(eq.policy, 3, TOP_DOG, P, n_samples=40, seed=1)
    assert abs(check.win - eq.win) < 0.005
    assert check.exploitability_ci[0] < 0.001  # no real-deal best response gains a tenth of a point
    assert 0 <= check.changed < 0.2


def test_refining_on_real_deals_takes_the_simulated_best_response():
    eq = solve(3, TOP_DOG, P)
    ref = refine_real(eq.policy, 3, TOP_DOG, P, n_samples=40, seed=5)
    assert (ref.policy == ref.start.best_response).all()  # one step: the start's best response
    assert ref.switched == int((ref.policy != eq.policy).sum()) > 0
    assert ref.start.changed == ref.switched / N_HANDS
    assert ref.check.samples == 40 and ref.check.win != ref.start.win  # checked on other samples
    again = refine_real(eq.policy, 3, TOP_DOG, P, n_samples=40, seed=5, steps=2)
    assert (again.start.best_response == ref.policy).all()  # the same seed, the same first step
    assert (again.policy == ref.check.best_response).all() and again.steps == 2  # seeds are spawned children
    # the in-sample gain is never negative; the cross-fitted one can be
    assert ref.check.exploitability_plugin >= 0


def test_groups_on_real_deals_pair_the_candidates():
    eq = solve(3, TOP_DOG, P)
    eq_table = np.stack([eq.policy, eq.policy])
    avg = tabulate(AverageRank())[:, 3]
    rnd = tabulate(RandomDiscard())[:, 3]
    wins, ties = group_play(np.stack([eq_table, avg, rnd]), eq_table, 4, 1, (5, 5, 5), 60_000, seed=2)
    rates = wins.mean(axis=0)
    assert abs(rates[0] - eq.win) < 0.01
    assert rates[0] > rates[1] > rates[2]
    assert 0 < ties.mean() < 0.1


def test_learned_policy_beats_random_and_keeps_sklearn_conventions():
    learned = LearnedDiscard(n_rounds=4000, max_iter=30, random_state=3).fit()
    assert hasattr(learned, "model_") and learned.random_state == 3
    table = tabulate(learned)
    field = tabulate(AverageRank())[:, 3]
    cand = np.stack([table[:, 3], tabulate(RandomDiscard())[:, 3]])
    wins, _ = group_play(cand, field, 4, 0, (5, 5, 5), 40_000, seed=4)
    assert wins[:, 0].mean() > wins[:, 1].mean() + 0.03
    assert (TablePolicy(table).act({"hand": np.array([[0, 1, 2]]), "call": np.array([0]),
                                    "opponents": np.array([3])}) == table[0, 3, 0]).all()


@pytest.mark.parametrize("call", [TOP_DOG, BOTTOMS_UP])
def test_real_values_count_the_same_samples_as_a_plain_loop(call):
    """The branch-free kernel against a plain loop over the same dealt opponents."""
    k, n = 3, 30
    policy = tabulate(AverageRank())[call, k]
    kept = kept_sums().astype(int)
    v = real_values(policy, k, call, P, n, seed=5)
    key, _ = block_keys(5, 1000 * k + call)
    better = (lambda a, b: a < b) if call == TOP_DOG else (lambda a, b: a > b)
    for h in (0, 4321, N_HANDS - 1):
        deck = np.array([c for c in range(N_CARDS) if c not in HANDS[h]], np.int64)
        state, wins = game_stream(key, h), np.zeros((3, 2))
        for t in range(n):
            state = shuffle_top(deck, N_CARDS - 3, 3 * k, np.uint64(state))  # called from Python: keep it unsigned
            rows = [hand_row(*deck[3 * o: 3 * o + 3])[3] for o in range(k)]
            opp = [kept[row, policy[row]] for row in rows]
            for d in range(3):
                wins[d, t % 2] += sum(P[c] for c in range(3) if not any(better(s[c], kept[h, d, c]) for s in opp))
        assert v[h] == pytest.approx(wins / (n // 2), abs=1e-12)


def test_the_lab_checks_the_bots_solver_not_a_copy():
    source = Path(lab.__file__).read_text()
    for name in ("solve", "values", "best_response", "equilibrium_table", "model_exploitability", "onehot"):
        assert f"def {name}(" not in source
        assert getattr(lab, name, getattr(solver, name)) is getattr(solver, name)


def test_the_equilibrium_bot_plays_the_solved_table_of_its_geopower_deck():
    bot = BOTS.make("equilibrium", Rules())
    assert (bot.discard_table(Rules()) == equilibrium_table(P)[0]).all()
    skewed = Rules(geopower=(1, 0, 4))
    assert (BOTS.make("equilibrium", skewed).discard_table(skewed) == table_for((1, 0, 4))).all()
    assert not (table_for((1, 0, 4)) == table_for((5, 5, 5))).all()


def test_the_shipped_learned_model_loads_without_training_and_beats_random(tmp_path, monkeypatch):
    path = shipped_model_path()
    assert path.is_file() and path.stat().st_size < 2_000_000
    state = pickle.loads(path.read_bytes())
    assert state["params"] == {"n_rounds": 40_000, "field": "average", "max_opponents": 15, "max_iter": 150,
                               "random_state": 0}

    def no_training(self, rng=None):
        raise AssertionError("building a bot trained it")

    monkeypatch.setattr(LearnedDiscard, "fit", no_training)
    shutil.copy(path, tmp_path / "copy.pkl")
    assert BOTS.make(f"learned:model={tmp_path / 'copy.pkl'}", Rules()).name.startswith("learned:")
    bot = BOTS.make("learned", Rules())
    assert bot.name == "learned"
    table = bot.discard_table(Rules())
    assert BOTS.make("learned", Rules()).discard_table(Rules()) is table  # loaded and tabulated once
    field = tabulate(AverageRank())[:, 3]
    wins, _ = group_play(np.stack([table[:, 3], tabulate(RandomDiscard())[:, 3]]), field, 4, 0, (5, 5, 5),
                         40_000, seed=4)
    assert wins[:, 0].mean() > wins[:, 1].mean() + 0.03


def test_a_saved_learned_model_plays_as_it_did_and_bad_files_are_refused(tmp_path):
    learned = LearnedDiscard(n_rounds=4000, max_iter=30, random_state=3).fit()
    learned.save(tmp_path / "m.pkl")
    again = BOTS.make(f"learned:model={tmp_path / 'm.pkl'}", Rules())
    assert (again.discard_table(Rules()) == tabulate(learned)).all()
    (tmp_path / "bad.pkl").write_bytes(b"not a pickle")
    with pytest.raises(GeolabError, match="model"):
        BOTS.make(f"learned:model={tmp_path / 'bad.pkl'}", Rules())
    with pytest.raises(GeolabError, match="no such file"):
        BOTS.make(f"learned:model={tmp_path / 'none.pkl'}", Rules())
