"""The oracle against brute-force minimax on small hands, for every preset's trick rules."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from brute_force import Brute

from geolab.errors import GeolabError
from geolab.games.ranks.reference import Lead, deal_one
from geolab.games.ranks.rules import Rules
from geolab.games.ranks.solver.double_dummy import CUT_SHORT, OracleSolver, Position

SOLVER = OracleSolver()


def small_rules(preset: str, n: int, **changes) -> Rules:
    """The preset's trick rules shrunk to n tricks (bases split as the preset splits them)."""
    base = Rules.preset(preset)
    bases = base.bases[: n // 2] + base.bases[-(n - n // 2) :] if base.base_mode == "fixed" else (1,) * n
    win = n // 2 + 1
    rules = dataclasses.replace(
        base,
        hand_size=n + min(base.discards, 1),
        discards=min(base.discards, 1),
        tricks=n,
        bases=bases,
        win_tricks=win,
        end_at=None if base.end_at is None else win,
        power_split=max(1, n // 2),
        **changes,
    )
    return rules.validate()


def _score(winner):
    return 1 if winner is None else (2 if winner == 0 else 0)


VARIANTS = [{}, {"last_trick_breaks_tie": False}, {"equal_distance": "follow"}]


@pytest.mark.parametrize("preset", ["combo1", "battle1", "battle2", "battle3", "geodouble"])
@pytest.mark.parametrize("n", [3, 4, 5])
def test_outcome_and_tricks_match_brute_force(preset, n):
    rng = np.random.default_rng(hash((preset, n)) % 2**32)
    for variant in VARIANTS:
        rules = small_rules(preset, n, **variant)
        for trial in range(3 if n < 5 else 1):
            deal = deal_one(rules, rng)
            hands = (deal.hands[0][:n], deal.hands[1][:n])
            leader = trial % 2
            brute = Brute(rules, deal.power_bases)
            pos = Position(rules, hands, leader, power_bases=deal.power_bases)
            assert _score(SOLVER.winner(pos)) == brute.win(hands[0], hands[1], leader, ())
            assert SOLVER.tricks(pos)[0] == brute.tricks(hands[0], hands[1], leader, ())


@pytest.mark.parametrize("preset", ["combo1", "battle2", "battle3", "geodouble"])
def test_every_move_value_matches_brute_force(preset):
    """Leads and answers, mid-deal with a score, including a lead on the table."""
    rng = np.random.default_rng(7)
    rules = small_rules(preset, 5, last_trick_breaks_tie=preset != "geodouble")
    for trial in range(3):
        deal = deal_one(rules, rng)
        a, b = deal.hands[0][:4], deal.hands[1][:4]  # one trick already played, won by A
        history = (0,)
        brute = Brute(rules, deal.power_bases)
        pos = Position(rules, (a, b), trial % 2, (1, 0), deal.power_bases)
        sol = SOLVER.solve(pos)
        assert len(sol.moves) == len(brute.leads(a, b, pos.leader, history))
        for m in sol.moves:
            assert _score(m.winner) == brute.after_lead(a, b, pos.leader, history, m.move, brute.win)
            assert m.tricks[0] == brute.after_lead(a, b, pos.leader, history, m.move, brute.tricks)
        assert _score(sol.winner) == brute.win(a, b, pos.leader, history)
        lead = sol.moves[trial * 2].move
        held = [list(a), list(b)]
        held[pos.leader].remove(lead.card)
        follow_pos = dataclasses.replace(pos, hands=(tuple(held[0]), tuple(held[1])), lead=lead)
        follow = SOLVER.solve(follow_pos)
        for m in follow.moves:
            assert _score(m.winner) == brute.after_follow(a, b, pos.leader, history, lead, m.move, brute.win)
            assert m.tricks[0] == brute.after_follow(a, b, pos.leader, history, lead, m.move, brute.tricks)


def test_batch_matches_one_by_one():
    rules = Rules.battle(3)
    rng = np.random.default_rng(3)
    from geolab.games.ranks.reference import deal_arrays

    hands, _, power = deal_arrays(rules, 6, rng)
    a, b = hands[:, 0, :8], hands[:, 1, :8]
    leaders = np.array([0, 1, 0, 1, 0, 1])
    batch = SOLVER.winners(rules, a, b, leaders, power)
    leads = SOLVER.lead_outcomes(rules, a, b, leaders, power)
    for i in range(6):
        pos = Position(rules, (tuple(a[i]), tuple(b[i])), int(leaders[i]), power_bases=tuple(power[i]))
        w = SOLVER.winner(pos)
        assert batch[i] == (-1 if w is None else w)
        best = leads[i][leads[i] > -99].max() if leaders[i] == 0 else leads[i][leads[i] > -99].min()
        assert best == (1 if w == 0 else -1 if w == 1 else 0)


@pytest.mark.parametrize("preset", ["combo1", "battle2", "battle3"])
def test_batch_split_over_two_threads_changes_nothing(preset, monkeypatch):
    """A big unlimited batch runs in two halves on two threads: same results, same work."""
    from geolab.games.ranks.reference import deal_arrays
    from geolab.games.ranks.solver import double_dummy

    rules = small_rules(preset, 6)
    hands, _, power = deal_arrays(rules, 9, np.random.default_rng(15))
    a, b = hands[:, 0, :6], hands[:, 1, :6]
    leaders = np.arange(9) % 2
    power = power if rules.base_mode == "power" else None
    solver = OracleSolver()
    one = solver.winners(rules, a, b, leaders, power), solver.lead_outcomes(rules, a, b, leaders, power)
    work = solver.work_done
    monkeypatch.setattr(double_dummy, "PARALLEL_MIN", 2)
    split = solver.winners(rules, a, b, leaders, power), solver.lead_outcomes(rules, a, b, leaders, power)
    assert np.array_equal(one[0], split[0]) and np.array_equal(one[1], split[1])
    assert solver.work_done == 2 * work


def test_bad_positions_are_clear_errors():
    rules = Rules.combo1()
    with pytest.raises(GeolabError, match="distinct"):
        Position(rules, ((1, 2), (2, 3)), 0).check()
    with pytest.raises(GeolabError, match="equal"):
        Position(rules, ((1, 2), (3,)), 0).check()
    with pytest.raises(GeolabError, match="tricks won"):
        Position(rules, ((1, 2), (3, 4)), 0, (0, 0)).check()
    with pytest.raises(GeolabError, match="not legal"):
        Position(rules, ((1,), (3, 4)), 0, (3, 3), lead=Lead(2, 0, 1)).check()
    with pytest.raises(GeolabError, match="already over"):
        Position(rules, ((1,), (3,)), 0, (6, 1)).check()
    with pytest.raises(GeolabError, match=r"\(N, 8\)"):
        SOLVER.winners(rules, np.zeros((1, 7)), np.zeros((1, 7)), [0])


def test_work_limit_stops_with_unknown_never_a_wrong_value():
    """A budget that runs out leaves results CUT_SHORT; every result it gives is the exact one."""
    from geolab.games.ranks.reference import deal_arrays

    rules = Rules.combo1()
    hands, _, _ = deal_arrays(rules, 12, np.random.default_rng(12))
    a, b = hands[:, 0, :8], hands[:, 1, :8]
    leaders = np.arange(12) % 2
    full = SOLVER.winners(rules, a, b, leaders)
    full_leads = SOLVER.lead_outcomes(rules, a, b, leaders)
    assert CUT_SHORT not in full and CUT_SHORT not in full_leads
    for budget in (0, 1, 300, 3000, 30000):
        cut = SOLVER.winners(rules, a, b, leaders, budget=budget)
        cut_leads = SOLVER.lead_outcomes(rules, a, b, leaders, budget=budget)
        assert np.array_equal(cut[cut != CUT_SHORT], full[cut != CUT_SHORT])
        assert np.array_equal(cut_leads[cut_leads != CUT_SHORT], full_leads[cut_leads != CUT_SHORT])
        if budget <= 300:
            assert cut[-1] == CUT_SHORT and (cut_leads[-1] != -99).all() and (cut_leads[-1] == CUT_SHORT).any()
    assert (SOLVER.winners(rules, a, b, leaders, budget=0) == CUT_SHORT).all()
    with pytest.raises(GeolabError, match="budget"):
        SOLVER.winners(rules, a, b, leaders, budget=-1)


def test_unused_work_limit_changes_nothing():
    """With room to spare the limit gives the unlimited results and does the same work."""
    from geolab.games.ranks.reference import deal_arrays

    rules = Rules.battle(2)
    hands, _, _ = deal_arrays(rules, 6, np.random.default_rng(13))
    a, b = hands[:, 0, :8], hands[:, 1, :8]
    leaders = np.arange(6) % 2
    before = SOLVER.work_done
    free = SOLVER.lead_outcomes(rules, a, b, leaders)
    used = SOLVER.work_done - before
    assert used > 0
    limited = SOLVER.lead_outcomes(rules, a, b, leaders, budget=used)
    assert np.array_equal(free, limited) and SOLVER.work_done - before == 2 * used
    # scores for side B flip sign, but a cut-short result stays recognisable
    full = SOLVER.layout_scores(rules, 1, b[0], a[:3], 1, (0, 0))
    cut = SOLVER.layout_scores(rules, 1, b[0], a[:3], 1, (0, 0), budget=0)
    assert (cut == CUT_SHORT).any() and np.array_equal(cut[cut != CUT_SHORT], full[cut != CUT_SHORT])


@pytest.mark.parametrize("preset", ["combo1", "battle2"])
def test_batch_lead_outcomes_match_single_positions(preset):
    """The batch shortcuts (interchangeable cards, leads settled by a dominating lead) agree
    with valuing every lead on its own."""
    rules = small_rules(preset, 6)
    rng = np.random.default_rng(14)
    for trial in range(3):
        deal = deal_one(rules, rng)
        a, b = deal.hands[0][:6], deal.hands[1][:6]
        out = SOLVER.lead_outcomes(rules, np.array([a]), np.array([b]), np.array([trial % 2]))[0]
        hand = (a, b)[trial % 2]
        for m in SOLVER.solve(Position(rules, (a, b), trial % 2)).moves:
            bj = rules.allowed_bases(0).index(m.move.base)
            assert out[hand.index(m.move.card), m.move.category, bj] == {0: 1, None: 0, 1: -1}[m.winner]
