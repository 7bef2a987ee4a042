"""GeoDouble's declaration policies (geolab.bots.geodouble.declare), their win table and match
value table (estimate) and the Monte Carlo rollouts: hand-made contexts, row independence,
shapes, and whole matches at the reference engine."""

from __future__ import annotations

import numpy as np
import pytest

from geolab.bots.geodouble import declare as dc
from geolab.bots.geodouble import estimate, rollouts
from geolab.bots.geodouble.player import PlayerSeat
from geolab.bots.geodouble.registry import player
from geolab.bots.ranks.heuristics import GreedyPolicy
from geolab.cards import N_CARDS, POSTAL
from geolab.games.geodouble.reference import Engine, deal_one
from geolab.games.geodouble.rules import Rules

RULES = Rules()
#: cards by best rank over the three categories, best first (ties by card)
ORDER = np.argsort(estimate.BEST, kind="stable")
NAMES = ("never", "always", "threshold", "score", "montecarlo")


def mask(cards) -> int:
    return sum(1 << int(c) for c in cards)


TOP = mask(ORDER[:6])  # AK CA DE PA TX and NJ or NY: best ranks 1, 1, 1, 2, 2, 3
TOP_DISCARDS = mask(ORDER[6:8])
WEAK = mask(ORDER[-6:])  # best ranks 22 to 40
WEAK_DISCARDS = mask(ORDER[-8:-6])


def context(hands, discards, leads, other, mine=0, theirs=0, keys=None, rules=RULES) -> dc.Context:
    m = len(hands)
    full = lambda x, dtype: np.broadcast_to(np.asarray(x, dtype), (m,)).copy()  # noqa: E731
    keys = np.arange(1, m + 1, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15) if keys is None else keys
    return dc.Context(rules, np.asarray(hands, np.int64), np.asarray(discards, np.int64), full(leads, bool),
                      full(other, np.int8), full(mine, np.int64), full(theirs, np.int64), np.asarray(keys, np.uint64))


def random_context(m: int, seed: int, mine=0, theirs=0) -> dc.Context:
    """m random hands (each discarding its two cards of worst best rank), half of them dealing."""
    rng = np.random.default_rng(seed)
    hands, discards = [], []
    for _ in range(m):
        cards = sorted(rng.permutation(N_CARDS)[:8], key=lambda c: (estimate.BEST[c], c))
        hands.append(mask(cards[:6]))
        discards.append(mask(cards[6:]))
    leads = rng.random(m) < 0.5
    other = np.where(leads, -1, rng.integers(0, 2, m))
    return context(hands, discards, leads, other, mine, theirs, rng.integers(0, 2**63, m).astype(np.uint64))


def build(name: str, samples: int = 32, threshold: float = 0.5):
    return dc.POLICIES[name][0](RULES, GreedyPolicy(), threshold, samples)


def test_top_cards_are_the_strongest():
    assert [POSTAL[c] for c in ORDER[:5]] == ["AK", "CA", "DE", "PA", "TX"]
    assert estimate.best_ranks(np.array([TOP, WEAK]), 6)[:, 0].tolist() == [1, 22]


# ----- threshold ----------------------------------------------------------------------------
@pytest.mark.parametrize("leads, other", [(True, -1), (False, 0), (False, 1)])
def test_threshold_declares_six_top_cards_not_six_weak_ones(leads, other):
    ctx = context([TOP, WEAK], [TOP_DISCARDS, WEAK_DISCARDS], leads, other)
    assert build("threshold")(ctx, None).tolist() == [True, False]
    p = dc.chance(estimate.shipped(), ctx)
    assert p[0] > 0.8 and p[1] < 0.25


def test_threshold_follows_its_parameter_and_the_other_declaration():
    ctx = random_context(400, 1)
    p = dc.chance(estimate.shipped(), ctx)
    assert (build("threshold", threshold=0.3)(ctx, None) == (p > 0.3)).all()
    assert build("threshold", threshold=0.7)(ctx, None).sum() < build("threshold", threshold=0.3)(ctx, None).sum()
    second = context([WEAK] * 2 + [TOP] * 2, [WEAK_DISCARDS] * 2 + [TOP_DISCARDS] * 2, False, [0, 1, 0, 1])
    p = dc.chance(estimate.shipped(), second)
    assert p[0] > p[1] and p[2] > p[3]  # a declared dealer is a stronger one


# ----- the tables ------------------------------------------------------------------------------
def test_shipped_table_fits_the_stage_and_is_monotone():
    table = estimate.shipped()
    assert table.fits(RULES.stage)
    for column in estimate.MONOTONE:
        assert (np.diff(table.columns[column]) >= 0).all(), column
    assert table.columns["lead"].mean() < table.columns["follow"].mean()  # at base 1 the first lead is a burden
    assert (table.columns["follow_declared"] <= table.columns["follow_silent"] + 1e-9).all()


def test_table_refuses_other_stage_rules():
    other = RULES.replace(**{"stage.bases": (1, 1, 1, 50, 50, 50)})
    with pytest.raises(ValueError, match="bases"):
        player(other, declare="score")
    player(RULES.replace(target=30, **{"stage.win_points": (5, 15, 30)}), declare="score")  # stakes only: fine


def test_table_round_trips_through_its_files(tmp_path):
    table = estimate.shipped()
    paths = table.save(tmp_path)
    again = estimate.WinTable.read(paths[0].read_text(), paths[1].read_text())
    assert again.rules == table.rules
    assert np.allclose(again.weights, table.weights)
    for k in estimate.COLUMNS:
        assert np.allclose(again.columns[k], table.columns[k], rtol=1e-5), k


def test_fit_and_calibration_on_a_small_sample():
    table = estimate.fit(games=40_000, seed=11, bins=10)
    _, summary = estimate.calibration(table, estimate.Stages.play(table.rules, "greedy", 40_000, 12))
    summary = summary.set_index("situation")
    assert (summary["ece"] < 0.03).all()
    assert (summary["brier"] < summary["brier_constant"]).all()  # better than the base rate


def test_isotonic():
    assert estimate.isotonic([0.1, 0.3, 0.2, 0.4], [1, 1, 1, 1]).tolist() == pytest.approx([0.1, 0.25, 0.25, 0.4])
    assert estimate.isotonic([0.5, 0.1], [3, 1]).tolist() == pytest.approx([0.4, 0.4])


def test_match_value_table():
    v = estimate.values_for(RULES, estimate.shipped())
    t = RULES.target
    inner = v[:t, :t]
    assert (np.diff(inner, axis=0) >= -1e-12).all()  # more points, higher value
    assert (np.diff(inner, axis=1) <= 1e-12).all()  # more for the other, lower
    assert np.allclose(inner + inner.T, 1)  # a symmetric game
    assert inner[0, 0] == pytest.approx(0.5)
    assert inner[t - 1, 0] > 0.95 and inner[0, t - 1] < 0.05
    assert (v[t:, :] == 1).all() and (v[:t, t:] == 0).all()
    outcomes = estimate.stage_outcomes(estimate.shipped())
    assert outcomes.sum() == pytest.approx(1) and outcomes[0].sum() < 0.5  # the dealer wins less often


# ----- score -----------------------------------------------------------------------------------
def test_score_gambles_behind_and_holds_back_ahead():
    behind, ahead = random_context(1000, 2, mine=5, theirs=35), random_context(1000, 2, mine=35, theirs=5)
    score = build("score")
    assert score(behind, None).mean() > score(ahead, None).mean() + 0.1
    # the same middling hand, the dealer: declares far behind, not far ahead
    middling = mask(ORDER[[3, 8, 12, 20, 27, 33]])
    rows = context([middling] * 2, [WEAK_DISCARDS] * 2, True, -1, [0, 40], [40, 0])
    assert 0.3 < dc.chance(estimate.shipped(), rows)[0] < 0.6
    assert score(rows, None).tolist() == [True, False]


def test_score_as_second_weighs_the_stakes():
    v = estimate.values_for(RULES, estimate.shipped())
    ctx = random_context(300, 3, mine=20, theirs=25)
    ctx = ctx._replace(leads=np.zeros(300, bool), other=np.full(300, 1, np.int8))
    said = build("score")(ctx, None)
    p = dc.chance(estimate.shipped(), ctx)
    ev = lambda s: p * v[20 + s, 25] + (1 - p) * v[20, 25 + s]  # noqa: E731
    assert (said == (ev(20) > ev(10) + 1e-12)).all()
    # a point that already wins the match is not worth a bigger stake
    won = ctx._replace(mine=np.full(300, 45), other=np.zeros(300, np.int8))
    assert not build("score")(won, None).any()


# ----- Monte Carlo ----------------------------------------------------------------------------
def test_montecarlo_agrees_with_threshold_on_clear_hands():
    ctx = context([TOP, WEAK, TOP, WEAK, TOP, WEAK], [TOP_DISCARDS, WEAK_DISCARDS] * 3, [True, True, False, False,
                  False, False], [-1, -1, 0, 0, 1, 1])
    mc = build("montecarlo", samples=64)
    p, _ = mc.estimate(ctx)
    assert (p[::2] > 0.8).all() and (p[1::2] < 0.2).all()
    assert mc(ctx, None).tolist() == build("threshold")(ctx, None).tolist() == [True, False] * 3


def test_montecarlo_estimate_tracks_the_table():
    ctx = random_context(600, 4)
    p, replies = build("montecarlo", samples=32).estimate(ctx)
    q = dc.chance(estimate.shipped(), ctx)
    assert np.corrcoef(p, q)[0, 1] > 0.8
    assert abs(p.mean() - q.mean()) < 0.03
    q_d, _, q_s, _ = estimate.shipped().replies(ctx.hand)
    assert abs(replies[1][0].mean() - q_d.mean()) < 0.05 and abs(replies[0][0].mean() - q_s.mean()) < 0.05


def test_rollouts_deal_only_unseen_cards_and_keep_the_discards():
    ctx = random_context(20, 5)
    own = ctx.hand | ctx.discards
    others = np.empty((20, 16), np.int64)
    keys = np.empty((20, 16), np.uint64)
    estimate.sample_hands(own, ctx.key, 16, 8, others, keys)
    assert not (others & own[:, None]).any()
    assert {bin(int(x)).count("1") for x in others.ravel()} == {8}
    assert len(set(others.ravel().tolist())) > 300  # fresh hands
    r = rollouts.play(RULES.stage, GreedyPolicy(), own, ctx.discards, ctx.leads, ctx.key, 16)
    assert r.won.shape == (20, 16) and not (r.other_kept & own[:, None]).any()
    assert {bin(int(x)).count("1") for x in r.other_kept.ravel()} == {6}
    assert ((r.other_kept & ~others) == 0).all()


# ----- every policy ---------------------------------------------------------------------------
@pytest.mark.parametrize("name", NAMES)
def test_every_policy_answers_bool_of_shape_m(name):
    policy = build(name, samples=8)
    for m in (0, 1, 7):
        said = policy(random_context(m, 6), np.random.default_rng(0))
        assert isinstance(said, np.ndarray) and said.dtype == np.bool_ and said.shape == (m,)


@pytest.mark.parametrize("name", NAMES)
def test_same_row_same_answer_whatever_the_batch(name):
    policy = build(name, samples=16)
    ctx = random_context(60, 7, mine=15, theirs=25)
    whole = policy(ctx, np.random.default_rng(1))
    order = np.random.default_rng(2).permutation(60)
    shuffled = policy(dc.Context(ctx.rules, *(np.asarray(x)[order] for x in ctx[1:])), np.random.default_rng(3))
    assert (shuffled == whole[order]).all()
    for i in (0, 17, 59):
        alone = policy(dc.Context(ctx.rules, *(np.asarray(x)[i:i + 1] for x in ctx[1:])), np.random.default_rng(4))
        assert alone[0] == whole[i]


def test_policies_are_registered_with_docstrings():
    for name in NAMES:
        assert name in dc.POLICIES
        policy = build(name, samples=4)
        assert type(policy).__doc__ and "\n" not in type(policy).__doc__.strip()


@pytest.mark.parametrize("name", NAMES)
def test_matches_at_the_reference_engine(name):
    for m in range(2):
        rng = np.random.default_rng(100 + m)
        bots = [player(RULES, declare=name, samples=8), player(RULES, declare="score")]
        seats = [PlayerSeat(bots[s], RULES, np.random.default_rng(200 + 10 * m + s)) for s in (0, 1)][:: 1 - 2 * m]
        played = Engine().play(RULES, deal_one(RULES, rng), seats)
        assert max(played.score) >= RULES.target or len(played.rounds) == RULES.max_rounds
        mine = 0 if m == 0 else 1  # the policy's seat
        said = [r.stage.declarations[mine] for r in played.rounds if r.stage is not None]
        assert said, "no stage was played"
        if name in ("never", "always"):
            assert set(said) == {name == "always"}


def test_montecarlo_rows_do_not_depend_on_how_the_games_are_split(monkeypatch):
    ctx = random_context(30, 8)
    policy = build("montecarlo", samples=16)
    whole = policy.estimate(ctx)[0]
    monkeypatch.setattr(rollouts, "GAMES_PER_CALL", 40)  # two rows an engine call
    assert (policy.estimate(ctx)[0] == whole).all()
