"""State IQ's batch engine against its reference engine: the same deals (by seed, for every
seating), every game's clues and guesses replayed there as records, given first guessers (a
tournament's), and the table's columns."""

from __future__ import annotations

import json

import numpy as np
import pytest

from geolab import registry
from geolab.errors import IllegalActionError
from geolab.game import BatchBot
from geolab.games.stateiq import batch as engine
from geolab.games.stateiq.game import GAME
from geolab.games.stateiq.reference import deal_arrays, deal_one

ENTRY = registry.get("state-iq")
LINEUPS = [("player", "player:clue=random"), ("player:guess=greedy,clue=random", "player:objective=game"),
           ("player:borders=0.6,capitals=0.6,postal=0.6,seed=3", "player:guess=random"),
           ("player:clue=hard,aim=miss", "player:borders=0.8,seed=1")]


@pytest.mark.parametrize("preset", ["official", "corners-water", "borders-only"])
@pytest.mark.parametrize("lineup", LINEUPS)
def test_every_batch_game_replays_on_the_reference_engine_to_its_table_row(preset, lineup):
    rules = GAME.Rules.preset(preset)
    bots = [ENTRY.bots.make(spec, rules) for spec in lineup]
    table = GAME.batch(rules, bots, 300, 7)
    for i, record in enumerate(GAME.batch_records(rules, bots, 300, 7)):
        played = GAME.replay(json.loads(json.dumps(record)))  # every clue and guess checked, the result too
        np.testing.assert_allclose(GAME.scores(played), table.scores[i])
        found = [played.found(s) or 0 for s in (0, 1)]
        assert [table.columns["found_A"][i], table.columns["found_B"][i]] == found
        made = {p.guesser: len(p.guesses) for p in played.phases}
        assert [table.columns["guesses_A"][i], table.columns["guesses_B"][i]] == [made[0], made[1]]
        assert table.length[i] == made[0] + made[1] and table.first[i] == played.first
        assert table.columns["power"][i] == played.deal.power + 1


def test_the_deals_are_the_reference_engines_and_the_same_for_every_seating():
    rules = GAME.Rules.preset("official")
    bots = [ENTRY.bots.make("player", rules)] * 2
    a = engine.played(rules, bots, 50, 3, stream=0)
    b = engine.played(rules, bots, 50, 3, stream=1)
    assert [g.deal for g in a] == [g.deal for g in b]
    rng = np.random.default_rng(np.random.SeedSequence(3, spawn_key=(0, 0)))
    cards, power, draw = deal_arrays(engine.BLOCK, rng)
    assert a[0].deal.cards == tuple(cards[0]) and a[0].deal.power == power[0] and a[0].deal.draw == tuple(draw[0])
    assert deal_one(np.random.default_rng(5)) == deal_one(np.random.default_rng(5))


def test_given_first_guessers_play_and_their_records_say_so():
    rules = GAME.Rules.preset("official")
    bots = [ENTRY.bots.make("player", rules), ENTRY.bots.make("player:clue=random", rules)]
    rng = np.random.default_rng(0)
    cards, power, _ = deal_arrays(40, rng)
    first = np.arange(40) % 2
    games = engine.play_given(rules, bots, cards, power, first, [np.random.default_rng(1), np.random.default_rng(2)])
    for i in range(40):
        played = games.game(i)
        assert played.first == first[i] and played.deal.first == first[i] and played.deal.draw is None
        record = GAME.to_record(played)
        assert record["first"] == "AB"[first[i]] and "draw" not in record
        GAME.replay(json.loads(json.dumps(record)))


class Cheat(BatchBot):
    """A bot that guesses its own state."""

    name = "cheat"

    def act(self, asked, rng):
        return asked.card.copy()


def test_a_bots_illegal_answer_is_refused_naming_the_decision():
    rules = GAME.Rules.preset("official")
    head = r"bot 'cheat', phase 1 \([AB] guesses\), "
    with pytest.raises(IllegalActionError, match=head + r"(guess|clue) 1: [A-Z]{2} is not legal"):
        GAME.batch(rules, [Cheat(), Cheat()], 10, 1)
    with pytest.raises(IllegalActionError, match=head + r"guess 1: [A-Z]{2} is not legal"):
        GAME.batch(GAME.Rules(clues="ABC"), [Cheat(), Cheat()], 10, 1)


def test_the_bench_reports_its_rates_beside_the_reference_engines():
    """Its keys, not its speed (`geolab bench state-iq`)."""
    from geolab.games.stateiq.offers.bench import bench as stateiq

    out = stateiq(GAME.Rules.preset("official"), 200, 1, 0, 1)
    for key in ("games_per_s", "reference_games_per_s", "ratio", "random_clues_games_per_s",
                "partial_knowledge_games_per_s", "guesses_per_game", "summary"):
        assert key in out
    assert out["games"] == 200 and out["ratio"] > 0 and 2 <= out["guesses_per_game"] <= 6
