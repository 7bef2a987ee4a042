"""Conformance suites over the registry: every game and every bot keeps the contract of
`geolab.game`, and is tested here because it is registered (the test-only Top Rank game of
`toy_game` too). Models: OpenSpiel's random-simulation test, scikit-learn's check_estimator.
"""

from __future__ import annotations

import json
from dataclasses import fields

import numpy as np
import pytest

from geolab import registry
from geolab.errors import GeolabError, IllegalActionError, RecordError, RulesError
from geolab.game import BatchBot, coerce
from geolab.lab.tables import lineup
from geolab.stepwise import RandomSeat as RandomLegal

GAMES = registry.names()
#: (game, preset) pairs: every preset of every game
PRESETS = [(g, p) for g in GAMES for p in registry.get(g).game.Rules.PRESETS]
#: (game, bot) pairs: every registered bot of every game
BOTS = [(g, b) for g in GAMES for b in registry.get(g).bots.names()]


def _rules(game: str, preset: str):
    return registry.get(game).game.Rules.preset(preset)


def _same_record(a: dict, b: dict) -> None:
    assert json.loads(json.dumps(a)) == json.loads(json.dumps(b))


@pytest.mark.parametrize("game,preset", PRESETS)
def test_random_legal_play_ends_in_a_valid_outcome_and_its_record_replays(game, preset):
    entry, rules = registry.get(game), _rules(game, preset)
    rng = np.random.default_rng(7)
    for _ in range(4):
        deal = entry.game.deal(rules, rng)
        played = entry.game.play(rules, deal, [RandomLegal(rng) for _ in range(entry.game.seats(rules))])
        scores = entry.game.scores(played)
        assert scores.shape == (entry.game.seats(rules),)
        assert (scores >= 0).all() and scores.sum() == pytest.approx(1.0)
        record = json.loads(json.dumps(entry.game.to_record(played)))
        assert record["format"] == "geolab-record/1" and record["game"] == entry.game.record_game
        again = entry.game.replay(record)
        np.testing.assert_allclose(entry.game.scores(again), scores)
        _same_record(entry.game.to_record(again), record)
        assert entry.game.report(again) == entry.game.report(played)


@pytest.mark.parametrize("game,preset", PRESETS)
def test_an_illegal_action_is_refused(game, preset):
    entry, rules = registry.get(game), _rules(game, preset)

    class Illegal:
        def act(self, decision):
            return "not an action"

    with pytest.raises(IllegalActionError):
        entry.game.play(rules, entry.game.deal(rules, np.random.default_rng(1)),
                        [Illegal() for _ in range(entry.game.seats(rules))])


@pytest.mark.parametrize("game,preset", PRESETS)
def test_batch_engine_equals_reference_engine_on_the_same_deals_and_decisions(game, preset):
    entry, rules = registry.get(game), _rules(game, preset)
    names = lineup(entry.simulate_bots.split(","), entry.game.seats(rules))
    bots = [entry.bots.make(n, rules) for n in names]
    records = entry.game.batch_records(rules, bots, 12, 3)
    batch = entry.game.batch(rules, bots, 12, 3)
    assert len(records) == 12
    for i, record in enumerate(records):
        played = entry.game.replay(json.loads(json.dumps(record)))  # checks the claimed result too
        np.testing.assert_allclose(entry.game.scores(played), batch.scores[i])


@pytest.mark.parametrize("game", GAMES)
def test_same_seed_same_table_at_any_chunk_size_and_thread_count(game):
    entry = registry.get(game)
    rules = entry.game.Rules.preset(entry.game.Rules.DEFAULT)
    names = lineup(entry.simulate_bots.split(","), entry.game.seats(rules))
    bots = [entry.bots.make(n, rules) for n in names]
    one = entry.game.batch(rules, bots, 5000, 11, threads=1)
    other = entry.game.batch(rules, bots, 5000, 11, chunk=1, threads=2)
    for a, b in ((one.scores, other.scores), (one.length, other.length), (one.first, other.first)):
        np.testing.assert_array_equal(a, b)
    assert one.columns.keys() == other.columns.keys()
    for key in one.columns:
        np.testing.assert_array_equal(one.columns[key], other.columns[key])
    assert not np.array_equal(entry.game.batch(rules, bots, 5000, 12, threads=1).scores, one.scores)


def _leaf_fields(rules, prefix: str = ""):
    """(name, annotation, value) of every field, a stage's fields as ``stage.field``."""
    for f in fields(rules):
        value = getattr(rules, f.name)
        if f.name in rules.stages():
            yield from _leaf_fields(value, f"{prefix}{f.name}.")
        else:
            yield f"{prefix}{f.name}", f.type, value


def _bad_values(annotation: str, value):
    """Values of the wrong type for a field annotated `annotation` (currently `value`)."""
    candidates = ["7", 7.5, [7], True, 3, "yes", None, {"a": 1}, ["x"], [1.5]]
    if isinstance(value, tuple):
        candidates += [list(value) + ["x"], [str(v) for v in value]]
    bad = []
    for c in candidates:
        try:
            coerce(annotation, c, "x")
        except ValueError:
            bad.append(c)
    assert bad, f"no bad value found for {annotation}"
    return bad


@pytest.mark.parametrize("game", GAMES)
def test_bad_rules_values_of_every_field_are_rules_errors(game):
    Rules = registry.get(game).game.Rules
    rules = Rules.preset(Rules.DEFAULT)
    for name, annotation, value in _leaf_fields(rules):
        for bad in _bad_values(annotation, value):
            with pytest.raises(RulesError, match=name.replace(".", r"\.")):
                rules.replace(**{name: bad})
            with pytest.raises(RulesError):
                Rules.from_spec({name: bad})
    with pytest.raises(RulesError, match="unknown field"):
        Rules.from_spec({"no_such_field": 1})
    with pytest.raises(RulesError, match="unknown rules preset"):
        Rules.from_spec("no-such-preset")
    with pytest.raises(RulesError):
        Rules.from_spec(["a", "list"])
    for name in Rules.PRESETS:
        preset = Rules.preset(name)
        assert Rules.from_spec(preset.to_spec()) == preset
        assert Rules.from_spec(json.loads(json.dumps(preset.to_spec()))) == preset
    assert {row["field"] for row in rules.describe()} == {name for name, _, _ in _leaf_fields(rules)}
    assert all(row["meaning"] for row in rules.describe()), "every field says what it means (HELP)"


@pytest.mark.parametrize("game,bot", BOTS)
def test_every_bot_plays_only_legal_actions_and_repeats_itself_on_a_seed(game, bot):
    entry = registry.get(game)
    rules = entry.game.Rules.preset(entry.game.Rules.DEFAULT)
    example = entry.bots.info(bot).example
    names = lineup([example, entry.simulate_bots.split(",")[0]], entry.game.seats(rules))
    made = {n: entry.bots.make(n, rules) for n in set(names)}
    seats = [made[n] for n in names]
    for record in entry.game.batch_records(rules, seats, 6, 21):
        entry.game.replay(record)  # the reference engine checks every decision
    first = entry.game.batch(rules, seats, 40, 21, threads=1)
    again = entry.game.batch(rules, [entry.bots.make(n, rules) for n in names], 40, 21, threads=1)
    np.testing.assert_array_equal(first.scores, again.scores)


def _spied(bot, decisions, asked: set) -> None:
    """Each method the game declares, wrapped on this bot to note (kind, method) when called: a
    method that answers several kinds reads the kind from ``obs.kind`` (its first argument).
    A bot's fused kernel is set aside, so the engine asks the methods themselves."""
    if bot.fused is not None:
        bot.__class__ = type(type(bot).__name__, (type(bot),), {"fused": None})
    for method in {m for methods in decisions.values() for m in methods}:
        kinds = [k for k, methods in decisions.items() if method in methods]
        answer = getattr(bot, method)

        def spy(*args, _answer=answer, _method=method, _kinds=kinds):
            asked.add((_kinds[0] if len(_kinds) == 1 else args[0].kind, _method))
            return _answer(*args)

        setattr(bot, method, spy)


@pytest.mark.parametrize("game,bot", BOTS)
def test_every_bot_is_a_batch_bot_answering_each_decision_its_game_declares(game, bot):
    """The one batch-bot protocol: every registered bot builds to a `BatchBot` that declares
    whether it is thread-safe, and the batch engine asks it every decision kind its game
    declares (by the declared methods), under some preset, on a small batch."""
    entry = registry.get(game)
    decisions = entry.definition.decisions
    wanted = {(kind, m) for kind, methods in decisions.items() for m in methods}
    asked: set = set()
    for preset in entry.game.Rules.PRESETS:
        rules = _rules(game, preset)
        names = lineup([entry.bots.info(bot).example, entry.simulate_bots.split(",")[0]], entry.game.seats(rules))
        try:
            made = {n: entry.bots.make(n, rules) for n in set(names)}
        except GeolabError:  # a bot for other rules (a shipped model, a table of another form)
            continue
        mine = made[names[0]]
        assert isinstance(mine, BatchBot), f"{game} bot {bot}: {type(mine).__name__} is not a BatchBot"
        assert type(mine.thread_safe) is bool, f"{game} bot {bot}: thread_safe is not declared as a bool"
        _spied(mine, decisions, asked)
        entry.game.batch_records(rules, [made[n] for n in names], 2, 5)
        if wanted <= asked:
            break
    assert asked == wanted, f"{game} bot {bot}: declared but never asked {sorted(wanted - asked)}"


@pytest.mark.parametrize("game,bot", BOTS)
def test_bad_bot_parameters_are_refused_with_the_valid_ones(game, bot):
    entry = registry.get(game)
    rules = entry.game.Rules.preset(entry.game.Rules.DEFAULT)
    info = entry.bots.info(bot)
    with pytest.raises(GeolabError, match="valid"):
        entry.bots.make(f"{bot}:no_such_parameter=1", rules)
    for p in info.params:
        if p.type != "str":
            with pytest.raises(GeolabError, match=p.name):
                entry.bots.make(f"{bot}:{p.name}=[1, 2]", rules)
    with pytest.raises(GeolabError, match="unknown"):
        entry.bots.make(f"{bot}-no-such-bot", rules)


@pytest.mark.parametrize("game", GAMES)
def test_bots_document_their_parameters(game):
    for row in registry.get(game).bots.describe():
        assert row["summary"] and row["family"]
        if row["peeks"]:
            assert "oracle" in row["bot"] or "peek" in row["bot"]


def test_a_record_of_one_game_is_refused_by_another():
    entries = registry.entries()
    first = entries[0].game
    rules = first.Rules.preset(first.Rules.DEFAULT)
    rng = np.random.default_rng(0)
    record = first.to_record(first.play(rules, first.deal(rules, rng),
                                        [RandomLegal(rng) for _ in range(first.seats(rules))]))
    for other in entries[1:]:
        with pytest.raises(RecordError, match="game"):
            other.game.replay(record)


@pytest.mark.parametrize("game", [g for g in GAMES if registry.get(g).game.block <= 4096])
def test_a_batch_played_from_a_later_start_is_the_same_games(game):
    """Games start.. of a seed are the same whether played alone or after the games before them
    (so simulations can run in pieces with flat memory)."""
    entry = registry.get(game)
    rules = entry.game.Rules.preset(entry.game.Rules.DEFAULT)
    bots = [entry.bots.make(n, rules) for n in lineup(entry.simulate_bots.split(","), entry.game.seats(rules))]
    block = entry.game.block
    whole = entry.game.batch(rules, bots, 2 * block + 5, 4, stream=1)
    tail = entry.game.batch(rules, bots, block + 5, 4, start=block, stream=1)
    np.testing.assert_array_equal(whole.scores[block:], tail.scores)
    np.testing.assert_array_equal(whole.length[block:], tail.length)
    for key in whole.columns:
        np.testing.assert_array_equal(whole.columns[key][block:], tail.columns[key])


@pytest.mark.parametrize("game", GAMES)
def test_the_envelope_is_checked_the_same_way_for_every_game(game):
    entry = registry.get(game)
    rules = entry.game.Rules.preset(entry.game.Rules.DEFAULT)
    rng = np.random.default_rng(3)
    played = entry.game.play(rules, entry.game.deal(rules, rng),
                             [RandomLegal(rng) for _ in range(entry.game.seats(rules))])
    record = entry.game.to_record(played)
    names = {entry.game.seat_name(rules, s): "random" for s in range(entry.game.seats(rules))}
    entry.game.replay({**record, "seed": 12, "players": names})  # the optional common fields
    for change, where in [({"format": "geolab-record/2"}, "format"), ({"seed": -1}, "seed"),
                          ({"seed": "12"}, "seed"), ({"players": ["random"]}, "players"),
                          ({"game": ["list"]}, "game")]:
        with pytest.raises(RecordError, match=where):
            entry.game.replay({**record, **change})
    with pytest.raises(RecordError, match="record"):
        entry.game.replay([record])
