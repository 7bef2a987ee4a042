"""Combo 1's batch engine against its reference engine: matches of every round (and rule
variants) replayed there on their deal and log of answers give the same games, winners,
seconds, counted flags, first turns and wins; the table does not depend on chunks, threads or
where a run starts, and gives every seating the same cards."""

from __future__ import annotations

import numpy as np
import pytest

from geolab.bots.combo1.registry import BOTS
from geolab.errors import GeolabError, IllegalActionError
from geolab.game import BatchBot
from geolab.games.borderup.rules import Rules as BorderUpRules
from geolab.games.combo1 import batch as engine
from geolab.games.combo1 import reference
from geolab.games.combo1.rules import GAMES, Rules

VARIANTS = {
    "morning": Rules.preset("morning"),
    "afternoon": Rules.preset("afternoon"),
    "final": Rules.preset("final"),
    "short": Rules(minutes=5),
    "count": Rules(minutes=5, unfinished="count"),
    "reordered": Rules(minutes=6, order=("ranks", "dashing-states", "state-iq", "border-up")),
    "literal": Rules(round="final", early_stop="literal"),
    "playoff": Rules.preset("playoff"),
}


def team(rules, spec="team"):
    return BOTS.make(spec, rules)


def lineup(rules, a="team", b="team:speed=1.5,knowledge=0.6,prefer=random"):
    return [team(rules, a), team(rules, b)]


def check_replays(rules, bots, n, seed):
    table = engine.batch(rules, bots, n, seed)
    matches = engine.replayable(rules, bots, n, seed)
    assert len(matches) == n
    for i, (match, deal, log) in enumerate(matches):
        state = reference.ENGINE.state(rules, deal, log)
        assert state.is_over()
        ref = state.played
        assert [g.game for g in ref.games] == [g.game for g in match.games]
        assert [g.winner for g in ref.games] == [g.winner for g in match.games]
        assert [g.counted for g in ref.games] == [g.counted for g in match.games]
        assert [g.first for g in ref.games] == [g.first for g in match.games]
        assert [g.draw for g in ref.games] == [g.draw for g in match.games]  # the draw that gave a first turn
        assert [g.tiebreak for g in ref.games] == [g.tiebreak for g in match.games]
        np.testing.assert_allclose([g.seconds for g in ref.games], [g.seconds for g in match.games], rtol=0, atol=1e-9)
        assert [g.played for g in ref.games] == [g.played for g in match.games]  # every inner game, as played
        assert (ref.chooser, ref.picks) == (match.chooser, match.picks)
        assert ref.wins == match.wins == (table.columns["wins_A"][i], table.columns["wins_B"][i])
        assert ref.winner == match.winner
        np.testing.assert_array_equal(ref.scores(), table.scores[i])
        assert table.length[i] == len(ref.games)
    return matches


@pytest.mark.parametrize("name", list(VARIANTS))
def test_batch_agrees_with_the_reference_engine(name):
    rules = VARIANTS[name]
    matches = check_replays(rules, lineup(rules), 24, seed=3)
    games = [g for m, _, _ in matches for g in m.games]
    if rules.seconds is not None:
        assert {g.game for g in games} >= ({0, 3} if rules.round == "afternoon" else set(range(len(GAMES))))
    if name in ("short", "morning"):
        assert any(not g.counted for g in games)  # the bell voids a game
    if name == "count":
        assert all(g.counted for g in games) and any(m.clock > rules.seconds for m, _, _ in matches)
    if name == "afternoon":  # a State IQ or Play the Ranks chosen without its deciding game before it: a draw
        assert any(g.first is None and g.game in reference.DECIDER for g in games)
        assert all((g.draw is not None) == (g.first is None and g.game in reference.DECIDER) for g in games)


def test_a_level_final_goes_to_tie_breakers():
    rules = Rules(round="final")
    matches = check_replays(rules, [team(rules), team(rules)], 48, seed=1)
    assert any(g.tiebreak for m, _, _ in matches for g in m.games)
    assert any(len(m.games) == 3 for m, _, _ in matches)  # stopped early


#: The first three games of a final that stop it by the default reading (either team's colours),
#: and whether the literal reading ("the third game": game 3) stops it too.
EARLY = {"win-win-tie": ((0, 0, None), True), "win-tie-win": ((0, None, 0), False),
         "tie-win-win": ((None, 0, 0), False)}


@pytest.mark.parametrize("early_stop", ["decided", "literal", "never"])
def test_the_final_stops_early_alike_on_both_engines(early_stop):
    """Finals with dry Border-Up hands (so its game often ties): each way of two wins and a tie
    stops the final on both engines under the default reading, only win-win-tie under the
    literal one, none under never."""
    rules = Rules(round="final", early_stop=early_stop, tiebreaks=1, border_up=BorderUpRules(cards=9, redeals=0))
    matches = check_replays(rules, [team(rules), team(rules, "team:speed=1.5,knowledge=0.6")], 48, seed=3)
    seen = set()
    for match, _, _ in matches:
        won = tuple(g.winner for g in match.games[:3])
        ahead = max((0, 1), key=won.count)
        colours = tuple(None if w is None else int(w != ahead) for w in won)
        regular = len([g for g in match.games if not g.tiebreak])
        for name, (plan, literal) in EARLY.items():
            if colours == plan:
                seen.add(name)
                stops = {"decided": True, "literal": literal, "never": False}[early_stop]
                assert regular == (3 if stops else 4), (name, early_stop)
    assert seen == set(EARLY), seen
    assert Rules(round="final").early_stop == "decided"


def test_a_tied_playoff_is_played_again():
    rules = Rules(round="playoff", tiebreaks=3, border_up=BorderUpRules(cards=8, redeals=0))  # dry hands tie
    matches = check_replays(rules, [team(rules), team(rules)], 60, seed=2)
    assert {g.game for m, _, _ in matches for g in m.games} == {0}
    assert any(len(m.games) > 1 for m, _, _ in matches)


def table_rows(table):
    return np.column_stack([table.scores, table.length, table.first, *table.columns.values()])


def test_chunks_threads_and_start_do_not_change_the_table(monkeypatch):
    monkeypatch.setattr(engine, "BLOCK", 32)
    rules = Rules(round="afternoon")
    bots = lineup(rules)
    whole = table_rows(engine.batch(rules, bots, 128, seed=9, chunk=1000, threads=1))
    for chunk, threads in [(32, 1), (32, 2), (70, 2)]:
        np.testing.assert_array_equal(table_rows(engine.batch(rules, bots, 128, 9, chunk=chunk, threads=threads)),
                                      whole)
    np.testing.assert_array_equal(table_rows(engine.batch(rules, bots, 64, 9, start=64)), whole[64:])
    assert not np.array_equal(table_rows(engine.batch(rules, bots, 128, 10)), whole)


def test_every_seating_plays_the_same_cards():
    rules = Rules(minutes=8)
    a, b = lineup(rules)
    straight = engine.replayable(rules, [a, b], 16, seed=4)
    swapped = engine.replayable(rules, [b, a], 16, seed=4, stream=1)
    compared = 0
    for (_, one, _), (_, other, _) in zip(straight, swapped):
        for x, y in zip(one.games, other.games):
            common = min(len(x), len(y))
            assert x[:common] == y[:common]
            compared += common
    assert compared > 16 * len(GAMES)


def test_the_table_counts_the_games():
    rules = Rules(round="afternoon")
    table = engine.batch(rules, lineup(rules), 64, seed=2)
    played = sum(table.columns[f"played_{g.replace('-', '_')}"] for g in GAMES)
    np.testing.assert_array_equal(played, table.length)
    for side in "AB":
        won = sum(table.columns[f"{g.replace('-', '_')}_{side}"] for g in GAMES)
        np.testing.assert_array_equal(won, table.columns[f"wins_{side}"])
    assert set(np.unique(table.columns["pick_1"])) <= set(range(len(GAMES)))
    assert (table.columns["pick_1"] != table.columns["pick_2"]).all()
    empty = engine.batch(rules, lineup(rules), 0, seed=2)
    assert len(empty) == 0 and set(empty.columns) == set(table.columns)


def test_bad_input_is_one_line():
    rules = Rules()
    with pytest.raises(GeolabError, match="two teams"):
        engine.batch(rules, lineup(rules)[:1], 4, seed=0)
    with pytest.raises(GeolabError, match="'object' is not a bot"):
        engine.batch(rules, [object(), object()], 4, seed=0)
    with pytest.raises(GeolabError, match="matches must be"):
        engine.batch(rules, lineup(rules), -1, seed=0)

    class Stubborn(BatchBot):  # always Border-Up, open or not
        name = "stubborn"

        def __init__(self, bot):
            self.stage = bot.stage

        def choose(self, rng, choosing):
            return np.zeros(len(choosing), np.int64)

    afternoon = Rules(round="afternoon")
    bots = [Stubborn(b) for b in lineup(afternoon)]
    with pytest.raises(IllegalActionError) as error:
        engine.batch(afternoon, bots, 16, seed=0)
    assert str(error.value) == "combo1: bot 'stubborn', choose: game 0 is not open"


def test_the_bench_reports_its_rates():
    from geolab.games.combo1.offers.bench import bench as combo1

    out = combo1(Rules(minutes=3), 64, 1, 0, 1)
    assert out["games"] == 64 and len(out["runs_matches_per_s"]) == 1
    assert out["ratio"] == pytest.approx(out["matches_per_s"] / out["reference_matches_per_s"])
    assert "matches/s" in out["summary"]


@pytest.mark.parametrize("preset", ["morning", "afternoon", "final"])
def test_a_block_of_many_pairs_agrees_with_the_reference_engine(preset):
    """A tournament's block: matches between many pairs of teams at once (``sides``), each game
    played by groups of the bots that play it; every match replays on the reference engine."""
    rules = Rules.preset(preset)
    bots = [team(rules, s) for s in ("team", "team:speed=1.4,knowledge=0.6,prefer=random",
                                     "team:tricks=random,prefer=state-iq", "team:knowledge=1,prefer=dashing-states")]
    rng = np.random.default_rng(4)
    sides = np.array([rng.choice(4, 2, replace=False) for _ in range(30)])
    block = engine.play_block(rules, bots, 7, (5,), len(sides), keep=True, sides=sides)
    for i in range(len(sides)):
        match, deal = block.played(i), block.deal(i)
        state = reference.ENGINE.state(rules, deal, engine.log_of(rules, deal, match))
        ref = state.played
        assert state.is_over() and [g.played for g in ref.games] == [g.played for g in match.games]
        assert [(g.game, g.winner, g.counted, g.first, g.draw) for g in ref.games] == \
            [(g.game, g.winner, g.counted, g.first, g.draw) for g in match.games]
        np.testing.assert_allclose([g.seconds for g in ref.games], [g.seconds for g in match.games], rtol=0, atol=1e-9)
        assert ref.winner == (None if block.winner[i] < 0 else block.winner[i])
    with pytest.raises(GeolabError, match="sides"):
        engine.play_block(rules, bots, 7, (5,), 2, sides=np.array([[0, 4], [1, 2]]))
