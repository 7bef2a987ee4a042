"""The focused Monte Carlo seat: layouts per decision kind, ties told apart by exact points."""

import numpy as np
import pytest

from geolab.bots.ranks.focus import FocusSeat
from geolab.games.ranks.reference import Lead
from geolab.games.ranks.rules import Rules
from geolab.games.ranks.solver.double_dummy import CUT_SHORT, OracleSolver


def test_each_decision_kind_gets_its_own_layouts():
    seat = FocusSeat(lead_k=12, lead_ms=None, follow_k=5, follow_ms=None, discard_k=3, discard_ms=None)

    def evaluate(rng, n, work):
        return np.ones((n, 2)), np.ones(n, np.bool_)

    counts = {kind: len(seat._sampled(np.random.default_rng(0), evaluate, 0.0, kind))
              for kind in ("lead", "follow", "discard", "declare")}
    assert counts == {"lead": 12, "follow": 5, "discard": 3, "declare": 3}


def test_tied_moves_are_told_apart_by_their_points():
    """Moves 0 and 2 tie at the best win share; move 2 forces more points on the fresh layouts.
    Without a tie-break the fallback (move 0) is played."""
    means = np.array([1.0, 0.5, 1.0])
    asked = []

    def margins(rng, tied, layouts, work):
        asked.append((tied.tolist(), layouts))
        return np.tile([5.0, 7.0], (layouts, 1))

    moves, fallback = ["a", "b", "c"], "a"
    plain = FocusSeat(lead_ms=None, tie_k=0)
    assert plain._choose(None, means, moves, fallback, margins, 0.0, "lead") == "a" and not asked
    seat = FocusSeat(lead_ms=None, tie_k=4)
    assert seat._choose(None, means, moves, fallback, margins, 0.0, "lead") == "c"
    assert asked == [([0, 2], 4)]
    # one best move: nothing to break, nothing solved
    assert seat._choose(None, np.array([1.0, 0.5]), ["a", "b"], "b", margins, 0.0, "lead") == "a"
    assert len(asked) == 1
    # with tie_within, a win share that close to the best counts as tied
    near = FocusSeat(lead_ms=None, tie_k=4, tie_within=0.1)

    def by_order(rng, tied, layouts, work):
        return np.tile(np.arange(len(tied), dtype=float), (layouts, 1))  # the last tied move forces most

    assert near._choose(None, np.array([1.0, 0.95, 0.5]), moves, fallback, by_order, 0.0, "lead") == "b"
    # every fresh layout cut short by the work limit: the plain pick
    cut = seat._choose(None, means, moves, fallback, lambda *a: np.full((4, 2), CUT_SHORT), 0.0, "lead")
    assert cut == "a"


@pytest.mark.parametrize("side", [0, 1])
def test_exact_points_agree_with_the_outcome(side):
    """Late in a Combo 1 deal (2 tricks each, 4 cards a side, 9 points left: 2 a trick, 3 the
    last), a lead or an answer wins for `side` exactly when it forces 5 of the 9 points."""
    rules = Rules.combo1()
    rng = np.random.default_rng(3)
    cards = rng.permutation(50)
    hand, led = cards[:4], int(cards[4])
    rows = np.stack([np.concatenate([[led], rng.choice(cards[5:], 3, replace=False)]) for _ in range(6)])
    solver = OracleSolver()
    to_lead = dict(leader=side)
    lead = Lead(led, 1, rules.allowed_bases(4)[0])
    to_answer = dict(leader=1 - side, lead=lead, lead_slots=np.zeros(len(rows), np.int64))
    for args in (to_lead, to_answer):
        level = solver.layout_scores(rules, side, hand, rows, tricks_won=(2, 2), **args)
        points = solver.layout_scores(rules, side, hand, rows, tricks_won=(2, 2), exact=True, **args)
        scored = level != -99
        assert scored.any() and (points[scored] >= 0).all() and (points[scored] <= 9).all()
        assert ((level == 1) == (points >= 5))[scored].all()
        assert (level == 1).any() and (level == -1).any()  # both outcomes are checked
