"""GeoDouble's batch engine against its reference engine: every match of a small batch replayed
there on the same deals and decisions (race claims, discards, declarations, tricks) gives the
same race winners, tricks, points, rounds and score; and the table does not depend on chunks,
threads or where a run starts, and gives every seating the same cards."""

from __future__ import annotations

import numpy as np
import pytest

from geolab.bots.geodouble.registry import BOTS
from geolab.errors import BotError
from geolab.game import BatchBot
from geolab.game import replayed as replayed_record
from geolab.games.geodouble import batch as engine
from geolab.games.geodouble import records, reference
from geolab.games.geodouble.rules import Rules
from geolab.games.ranks.reference import Lead

VARIANT = Rules.preset("short").replace(four_corners=True, water=True, redeals=0)
#: Hands of 6 cards seldom hold a solution: races are dealt again, and some stay void.
SPARSE = Rules().replace(race_cards=6, redeals=2)


def bots(rules, a="player", b="player:declare=always,speed=1.5"):
    return [BOTS.make(a, rules), BOTS.make(b, rules)]


class Scripted:
    """A seat that makes the decisions a batch match made."""

    def __init__(self, match: reference.Played, seat: int):
        self.match, self.seat = match, seat

    def act(self, decision):
        view = decision.observation
        rnd = self.match.rounds[view.round]
        if decision.timed:
            return rnd.race.claims[self.seat]
        game = rnd.stage
        if decision.kind == "discard":
            return tuple(sorted(game.discards[self.seat]))
        if decision.kind == "declare":
            return game.declarations[self.seat]
        trick = game.tricks[view.stage.trick]
        return Lead(trick.lead, trick.category, trick.base) if decision.kind == "lead" else trick.follow


def through_reference(rules: Rules, match: reference.Played) -> reference.Played:
    """The batch match's deal and decisions played through the reference engine."""
    pad = reference.deal_round(rules, np.random.default_rng(0))  # rounds never reached
    rounds = [reference.RoundDeal(r.race.races, r.race.coin, pad.stage if r.stage is None else r.stage.hands)
              for r in match.rounds]
    deal = reference.Deal(tuple(rounds + [pad] * (rules.max_rounds - len(rounds))))
    return reference.Engine().play(rules, deal, [Scripted(match, s) for s in (0, 1)])


@pytest.mark.parametrize("rules", [Rules(), VARIANT, SPARSE], ids=["official", "variant", "sparse"])
def test_batch_agrees_with_the_reference_engine(rules):
    n, lineup = 60, bots(rules)
    table = engine.batch(rules, lineup, n, seed=3)
    matches = engine.played(rules, lineup, n, seed=3)
    for i, match in enumerate(matches):
        ref = through_reference(rules, match)
        assert len(ref.rounds) == len(match.rounds) == table.length[i]
        for mine, theirs in zip(match.rounds, ref.rounds):
            assert mine.race == theirs.race  # deals, coin, claims and winner
            assert (mine.stage is None) == (theirs.stage is None)
            if mine.stage is not None:
                assert mine.stage.tricks == theirs.stage.tricks
                assert mine.stage.declarations == theirs.stage.declarations
                assert mine.stage.points == theirs.stage.points
            assert mine.points == theirs.points
        assert ref.score == (table.columns["points_A"][i], table.columns["points_B"][i])
        np.testing.assert_array_equal(ref.scores(), table.scores[i])
        first = ref.rounds[0]
        assert table.first[i] == first.dealer
        for s, side in enumerate("AB"):
            assert table.columns[f"races_{side}"][i] == sum(r.race.winner == s for r in ref.rounds)
            assert table.columns[f"stages_{side}"][i] == sum(r.stage is not None and r.stage.winner == s
                                                              for r in ref.rounds)
            assert table.columns[f"declared_{side}"][i] == sum(r.stage is not None and r.stage.declarations[s]
                                                               for r in ref.rounds)


def test_redeals_and_void_races_are_played():
    matches = engine.played(SPARSE, bots(SPARSE), 60, seed=3)
    races = [r.race for m in matches for r in m.rounds]
    assert any(len(r.races) > 1 and r.claims is not None for r in races)  # dealt again, then raced
    assert any(r.claims is None and r.winner == -1 and len(r.races) == SPARSE.redeals + 1 for r in races)  # void


def test_a_race_can_end_the_match_before_stage_2():
    rules = Rules().replace(target=10)
    matches = engine.played(rules, bots(rules), 40, seed=1)
    ended = [m for m in matches if m.rounds[-1].stage is None]
    assert ended and all(max(m.score) >= 10 and m.rounds[-1].race.winner >= 0 for m in ended)


def table_rows(table):
    return np.column_stack([table.scores, table.length, table.first, *table.columns.values()])


def test_chunks_threads_and_start_do_not_change_the_table(monkeypatch):
    monkeypatch.setattr(engine, "BLOCK", 64)
    rules, lineup = VARIANT, bots(VARIANT)
    whole = table_rows(engine.batch(rules, lineup, 300, seed=9, chunk=1000, threads=1))
    for chunk, threads in [(64, 1), (64, 2), (130, 2)]:
        np.testing.assert_array_equal(table_rows(engine.batch(rules, lineup, 300, 9, chunk=chunk, threads=threads)),
                                      whole)
    np.testing.assert_array_equal(table_rows(engine.batch(rules, lineup, 300 - 128, 9, start=128)), whole[128:])
    np.testing.assert_array_equal(table_rows(engine.batch(rules, lineup, 100, 9)), whole[:100])


def test_every_seating_plays_the_same_cards():
    rules = Rules()
    a, b = bots(rules)
    straight = engine.played(rules, [a, b], 30, seed=4)
    swapped = engine.played(rules, [b, a], 30, seed=4, stream=1)
    for one, other in zip(straight, swapped):
        for x, y in zip(one.rounds, other.rounds):
            assert x.race.races == y.race.races and x.race.coin == y.race.coin
            if x.stage is not None and y.stage is not None:
                assert x.stage.hands == y.stage.hands


def test_a_bot_failing_in_the_race_is_one_line():
    class Broken(BatchBot):
        name = "broken"

        def __init__(self, bot):
            self.stage_policy = bot.stage_policy

        def race(self, rng, cards, solutions):
            raise RuntimeError("no stopwatch\nat all")

    rules = Rules()
    a, b = bots(rules)
    with pytest.raises(BotError) as error:
        engine.batch(rules, [a, Broken(b)], 10, seed=0)
    assert str(error.value) == "geodouble: bot 'broken' failed on the race: RuntimeError: no stopwatch at all"


@pytest.mark.parametrize("rules", [Rules(), SPARSE], ids=["official", "sparse"])
def test_batch_records_replay_with_their_results(rules):
    lineup = bots(rules)
    table = engine.batch(rules, lineup, 20, seed=6)
    for i, record in enumerate(engine.batch_records(rules, lineup, 20, seed=6)):
        match = replayed_record(record, records.GAME, records.replay_game, records.report, records.BODY_KEYS)
        assert len(match.rounds) == table.length[i]
        assert match.score == (table.columns["points_A"][i], table.columns["points_B"][i])


def test_the_bench_reports_its_rates():
    from geolab.games.geodouble.offers.bench import bench as geodouble

    out = geodouble(Rules(), 256, 1, 0, 1)
    assert out["games"] == 256 and len(out["runs_matches_per_s"]) == 1
    assert out["ratio_to_ranks_deals"] == pytest.approx(out["matches_per_s"] / out["ranks_deals_per_s"])
    assert "matches/s" in out["summary"]
