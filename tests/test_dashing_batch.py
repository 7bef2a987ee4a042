"""Dashing States' batch engine against its reference engine: every game of small batches,
under the rules' variants, played there on the same deals and claims gives the same first
shouts, faults, winner, seconds and columns; the table does not depend on chunks, threads or
where a run starts; and the team model behaves as documented (a perfect team never errs and
its time is its cards' alone; a faster or more knowing team wins more)."""

from __future__ import annotations

import numpy as np
import pytest

from geolab.bots.dashing.model import SMALL
from geolab.bots.dashing.registry import BOTS, TeamSeat
from geolab.games.dashing import batch as engine
from geolab.games.dashing import reference
from geolab.games.dashing.reference import FAULTS
from geolab.games.dashing.rules import Rules

VARIANTS = {
    "official": Rules(),
    "window": Rules(simultaneous=1.5),
    "window-rows-only": Rules(simultaneous=1.5, simultaneous_announce=False),
    "names-only": Rules.preset("names-only"),
    "juniors": Rules.preset("juniors"),
    "loose": Rules(face_down=False, either_direction=True, announce="none"),
}


def lineup(rules, a="team:face_up=0.05,error=0.1", b="team:speed=1.3,confuse=0.6"):
    return [BOTS.make(a, rules), BOTS.make(b, rules)]


class Scripted:
    """A team that makes the claim and says the words a batch game recorded."""

    def __init__(self, played: reference.Played, seat: int):
        self.played, self.seat = played, seat

    def act(self, decision):
        if decision.timed:
            return self.played.claims[self.seat]
        return self.played.said[self.seat][decision.observation.place]


@pytest.mark.parametrize("name", list(VARIANTS))
def test_batch_agrees_with_the_reference_engine(name):
    rules = VARIANTS[name]
    n, bots = 400, lineup(rules)
    table = engine.batch(rules, bots, n, seed=5)
    games = engine.played(rules, bots, n, seed=5)
    firsts = set()
    for i, game in enumerate(games):
        ref = reference.ENGINE.play(rules, reference.Deal(game.hands), [Scripted(game, s) for s in (0, 1)])
        assert ref.said == game.said and ref.first == game.first and ref.winner == game.winner
        np.testing.assert_array_equal(ref.scores(), table.scores[i])
        assert table.length[i] == ref.length and table.first[i] == (1 if ref.first == (1,) else 0)
        for s, side in enumerate("AB"):
            fault = ref.fault(s)
            expected = -1 if s not in ref.first else 0 if fault is None else 1 + FAULTS.index(fault)
            assert table.columns[f"fault_{side}"][i] == expected, (i, side, fault)
            c = ref.claims[s]
            assert np.isnan(table.columns[f"seconds_{side}"][i]) if c.action is None \
                else table.columns[f"seconds_{side}"][i] == c.seconds
        firsts.add(ref.first)
    assert {(0,), (1,)} <= firsts
    if rules.simultaneous:
        assert (0, 1) in firsts  # the window made some shouts simultaneous


def test_every_fault_and_outcome_occurs_in_the_official_batch():
    rules = Rules()
    table = engine.batch(rules, lineup(rules), 20_000, seed=1)
    faults = np.concatenate([table.columns["fault_A"], table.columns["fault_B"]])
    assert set(np.unique(faults)) == {-1, 0, 1, 2, 3, 4}
    assert {0.0, 0.5, 1.0} <= set(np.unique(table.scores[:, 0]))


def test_the_table_does_not_depend_on_chunks_threads_or_the_start():
    rules = Rules()
    bots = lineup(rules)
    whole = engine.batch(rules, bots, 3 * engine.BLOCK, seed=9, threads=1)
    split = engine.batch(rules, bots, 3 * engine.BLOCK, seed=9, chunk=engine.BLOCK, threads=2)
    later = engine.batch(rules, bots, engine.BLOCK, seed=9, start=2 * engine.BLOCK)
    np.testing.assert_array_equal(whole.scores, split.scores)
    np.testing.assert_array_equal(whole.scores[2 * engine.BLOCK:], later.scores)
    for key in whole.columns:
        np.testing.assert_array_equal(whole.columns[key], split.columns[key])
    other = engine.batch(rules, bots, engine.BLOCK, seed=9, stream=1)
    assert not np.array_equal(other.columns["seconds_A"], whole.columns["seconds_A"][:engine.BLOCK])
    np.testing.assert_array_equal(engine.played(rules, bots, 3, 9, stream=1)[0].hands,
                                  engine.played(rules, bots, 3, 9)[0].hands)  # every seating, the same cards


def test_a_perfect_team_never_errs_and_its_cards_alone_set_its_time():
    rules = Rules()
    perfect = [BOTS.make("team:race=perfect", rules)] * 2
    table = engine.batch(rules, perfect, 5000, seed=2)
    assert (table.columns["fault_A"] <= 0).all() and (table.columns["fault_B"] <= 0).all()
    assert np.isfinite(table.columns["seconds_A"]).all()
    games = engine.played(rules, perfect, 50, seed=2)
    for g in games:  # the team with the easier cards (bigger states) shouts first
        t = [g.claims[s].seconds for s in (0, 1)]
        for s in (0, 1):  # per_card 1.5 x (each card's checks + 2 for the sorting), no motor time
            assert t[s] == pytest.approx(1.5 * (np.exp(0.5 * SMALL[list(g.hands[s])]).sum() + 2.0))
        assert t[0] != t[1] and g.winner == int(t[1] < t[0])
    again = engine.batch(rules, perfect, 5000, seed=3)
    assert not np.array_equal(again.columns["seconds_A"], table.columns["seconds_A"])


@pytest.mark.parametrize("stronger", ["team:speed=2", "team:recognise=0.98,capital=0.98", "team:race=perfect"])
def test_a_faster_or_more_knowing_team_wins_more(stronger):
    rules = Rules()
    table = engine.batch(rules, [BOTS.make(stronger, rules), BOTS.make("team", rules)], 20_000, seed=4)
    assert table.scores[:, 0].mean() > 0.6


def test_the_reference_seat_claims_and_announces_from_the_same_beliefs():
    rules = Rules()
    bot = BOTS.make("team:recognise=0.7,confuse=1,capital=0.7,misname=1,error=0", rules)
    rng = np.random.default_rng(0)
    for _ in range(200):
        deal = reference.deal_one(rules, rng)
        seats = [TeamSeat(bot, rules, rng), TeamSeat(bot, rules, rng)]
        played = reference.ENGINE.play(rules, deal, seats)
        for s in played.first:
            if not played.said[s]:
                continue
            row = played.claims[s].action
            # it sorted by the names it then says (no slips): its announcement is in alphabetical order
            named = [x.state for x in played.said[s]]
            assert named == sorted(named)
            assert all(x.state is not None and x.capital is not None for x in played.said[s])
            assert len(row.order) == rules.placed


def test_the_compiled_deal_is_the_reference_engines_shuffle():
    from geolab.common.shuffle import shuffled_prefix

    rules = Rules()
    dealt = engine.deal_block(rules, np.random.default_rng(7), 500)
    order = shuffled_prefix(np.random.default_rng(7).random((500, 10)), 50).astype(np.int64)
    np.testing.assert_array_equal(dealt.reshape(500, 10), order)
    one = reference.deal_one(rules, np.random.default_rng(8))
    assert one.hands == tuple(tuple(h) for h in engine.deal_block(rules, np.random.default_rng(8), 1)[0].tolist())
