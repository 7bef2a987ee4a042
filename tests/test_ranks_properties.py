"""Property tests over random deals and random legal play, for every preset."""

import json

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from geolab.bots.ranks.seats import GreedySeat, RandomSeat
from geolab.games.ranks.records import replay_record, to_record
from geolab.games.ranks.reference import deal_one, is_over, play, play_series
from geolab.games.ranks.rules import PRESETS, Rules


@settings(max_examples=60, deadline=None)
@given(preset=st.sampled_from(list(PRESETS)), seed=st.integers(0, 2**32 - 1), greedy=st.booleans())
def test_random_legal_play(preset, seed, greedy):
    rules = Rules.preset(preset)
    rng = np.random.default_rng(seed)
    deal = deal_one(rules, rng)
    seats = [GreedySeat() if greedy else RandomSeat(rng), RandomSeat(rng)]
    first = deal.drawn_first_lead() if rules.first_lead == "given" else None
    game = play(rules, deal.hands, seats, first, deal.power_bases)

    for side in (0, 1):
        played = [t.lead for t in game.tricks if t.leader == side] + [t.follow for t in game.tricks if t.leader != side]
        assert len(played) == len(set(played)), "a card was played twice"
        assert set(played) | set(game.discards[side]) <= set(deal.hands[side])
        assert not set(played) & set(game.discards[side])
    won = game.tricks_won
    assert sum(won) == len(game.tricks) and is_over(rules, game.trick_winners)
    assert all(not is_over(rules, game.trick_winners[:k]) for k in range(len(game.tricks)))
    if game.winner is not None:
        assert won[game.winner] >= won[1 - game.winner]
        assert won[game.winner] >= rules.win_tricks or game.trick_winners[-1] == game.winner
    leaders = [t.leader for t in game.tricks]
    assert leaders[0] == game.first_lead and leaders[1:] == game.trick_winners[:-1]
    record = json.loads(json.dumps(to_record(game)))
    assert replay_record(record) == record["result"]


def test_battle_series_reaches_its_target():
    for name in ("battle1", "battle2"):
        rules = Rules.preset(name)
        series, games = play_series(rules, [GreedySeat(), RandomSeat(np.random.default_rng(1))],
                                    np.random.default_rng(2))
        assert series.battles == len(games) and max(series.score) >= rules.target_points
        totals = np.sum([g.points for g in games], axis=0)
        assert tuple(totals) == series.score and series.winner == int(np.argmax(totals))
