"""Border-Up's batch engine against its reference engine: every game of a batch replayed there on
the same deals and claims gives the same winner, outcome and columns; deals dealt again and dry
games are played; the table does not depend on chunks, threads or where a run starts, and
gives every seating the same cards; `race_block` plays a block on a caller's own keys (as a
tournament holding Border-Up will)."""

from __future__ import annotations

import numpy as np
import pytest

from geolab.bots.borderup.registry import BOTS
from geolab.errors import BotError
from geolab.game import BatchBot
from geolab.game import replayed as replayed_record
from geolab.games.borderup import batch as engine
from geolab.games.borderup import records, reference
from geolab.games.borderup.rules import Rules

#: Hands of 6 or 8 cards seldom hold two border groups: deals are dealt again, some stay dry.
SPARSE = Rules(cards=6, redeals=2)
EIGHT = Rules(cards=8, redeals=1, four_corners=True, water=True)


def bots(rules, a="racer", b="racer:speed=1.5,error=0.2"):
    return [BOTS.make(a, rules), BOTS.make(b, rules)]


class Scripted:
    """A team that makes the claim a batch game made."""

    def __init__(self, game: reference.Played, seat: int):
        self.game, self.seat = game, seat

    def act(self, decision):
        return self.game.claims[self.seat]


def through_reference(rules: Rules, game: reference.Played) -> reference.Played:
    return reference.ENGINE.play(rules, reference.Deal(game.deals), [Scripted(game, s) for s in (0, 1)])


@pytest.mark.parametrize("rules", [Rules(), Rules.preset("corners-water"), SPARSE, EIGHT],
                         ids=["official", "corners-water", "sparse", "eight"])
def test_batch_agrees_with_the_reference_engine(rules):
    n, lineup = 300, bots(rules)
    table = engine.batch(rules, lineup, n, seed=3)
    games = engine.played(rules, lineup, n, seed=3)
    for i, game in enumerate(games):
        ref = through_reference(rules, game)
        assert ref == game  # deals, claims, winner
        last = ref.deals[-1]
        assert [len(reference.solutions(rules, h)) for h in last] == \
            [table.columns["solutions_A"][i], table.columns["solutions_B"][i]]
        if ref.claims is not None:  # the batch's claim lays the hand's first solution, as the seat does
            for s, side in enumerate("AB"):
                c = ref.claims[s]
                assert c.action in (None, reference.WRONG, *reference.solutions(rules, last[s])[:1])
                assert table.columns[f"wrong_{side}"][i] == (c.action == reference.WRONG)
                assert (c.action is None) == np.isinf(table.columns[f"seconds_{side}"][i])
        np.testing.assert_array_equal(ref.scores(), table.scores[i])
        assert table.length[i] == len(ref.deals)
        assert table.first[i] == (ref.first[0] if len(ref.first) == 1 else 0)


def test_deals_dealt_again_and_dry_games_are_played():
    games = engine.played(SPARSE, bots(SPARSE), 400, seed=3)
    outcomes = {g.outcome for g in games}
    assert {"held", "dry"} <= outcomes
    assert any(len(g.deals) > 1 and g.claims is not None for g in games)  # dealt again, then raced
    assert all(g.claims is None and g.winner == -1 and len(g.deals) == SPARSE.redeals + 1 for g in games
               if g.outcome == "dry")
    assert "wrong" in {g.outcome for g in engine.played(Rules(), bots(Rules()), 300, seed=1)}


def table_rows(table):
    return np.column_stack([table.scores, table.length, table.first, *table.columns.values()])


def test_chunks_threads_and_start_do_not_change_the_table(monkeypatch):
    monkeypatch.setattr(engine, "BLOCK", 64)
    rules, lineup = EIGHT, bots(EIGHT)
    whole = table_rows(engine.batch(rules, lineup, 300, seed=9, chunk=1000, threads=1))
    for chunk, threads in [(64, 1), (64, 2), (130, 2)]:
        np.testing.assert_array_equal(table_rows(engine.batch(rules, lineup, 300, 9, chunk=chunk, threads=threads)),
                                      whole)
    np.testing.assert_array_equal(table_rows(engine.batch(rules, lineup, 300 - 128, 9, start=128)), whole[128:])
    np.testing.assert_array_equal(table_rows(engine.batch(rules, lineup, 100, 9)), whole[:100])
    assert len(engine.batch(rules, lineup, 0, 9)) == 0


def test_every_seating_plays_the_same_cards():
    rules = Rules()
    a, b = bots(rules)
    straight = engine.played(rules, [a, b], 50, seed=4)
    swapped = engine.played(rules, [b, a], 50, seed=4, stream=1)
    assert [g.deals for g in straight] == [g.deals for g in swapped]
    assert [g.claims for g in straight] != [g.claims for g in swapped]


def test_a_block_plays_on_a_callers_own_keys_and_streams():
    rules = Rules()
    lineup = bots(rules)
    keys = lambda a: np.random.default_rng([7, a]).integers(0, 2**64, size=128, dtype=np.uint64)  # noqa: E731
    streams = lambda: [np.random.default_rng([8, s]) for s in (0, 1)]  # noqa: E731
    whole = engine.race_block(rules, lineup, keys, streams(), 128, keep=True)
    part = engine.race_block(rules, lineup, keys, streams(), 40)
    np.testing.assert_array_equal(part.winner, whole.winner[:40])  # a game's draws do not depend on the others
    np.testing.assert_array_equal(part.seconds, whole.seconds[:40])
    give_up = [b.race_model.give_up(rules.cards) for b in lineup]
    for i in range(128):
        game = whole.played(rules, i, give_up)
        assert through_reference(rules, game) == game


def test_a_bot_failing_in_the_race_is_one_line():
    class Broken(BatchBot):
        name = "broken"
        race_model = BOTS.make("racer", Rules()).race_model

        def race(self, rng, cards, solutions):
            raise RuntimeError("no stopwatch\nat all")

    rules = Rules()
    with pytest.raises(BotError) as error:
        engine.batch(rules, [bots(rules)[0], Broken()], 10, seed=0)
    assert str(error.value) == "border-up: bot 'broken' failed on the race: RuntimeError: no stopwatch at all"


@pytest.mark.parametrize("rules", [Rules(), SPARSE], ids=["official", "sparse"])
def test_batch_records_replay_with_their_results(rules):
    lineup = bots(rules)
    table = engine.batch(rules, lineup, 40, seed=6)
    for i, record in enumerate(engine.batch_records(rules, lineup, 40, seed=6)):
        game = replayed_record(record, records.GAME, records.replay_game, records.report, records.BODY_KEYS)
        np.testing.assert_array_equal(game.scores(), table.scores[i])
        assert record["result"]["deals"] == table.length[i]


def test_the_bench_reports_its_rates():
    from geolab.games.borderup.offers.bench import bench as borderup

    out = borderup(Rules(), 4096, 1, 0, 1)
    assert out["games"] == 4096 and len(out["runs_games_per_s"]) == 1
    assert out["ratio"] == pytest.approx(out["games_per_s"] / out["reference_games_per_s"])
    assert "games/s" in out["summary"]
