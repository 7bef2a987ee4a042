"""Every game is one declared definition, checked when it is registered: a missing or mistyped
part is one clear line, and listing the games loads none of them."""

from __future__ import annotations

import dataclasses
import subprocess
import sys

import pytest

from geolab import registry
from geolab.definition import FEATURES, OPTIONAL, DefinitionError, GameDef, Players


@pytest.mark.parametrize("name", registry.names())
def test_each_definition_is_true_to_its_game(name):
    entry = registry.get(name)
    assert entry.definition.name == entry.game.name == name
    for part in OPTIONAL:
        assert entry.has(part) == callable(getattr(entry.game, part, None))
    assert entry.has("stages") == bool(entry.game.Rules.stages())
    for what in entry.definition.offers:
        assert callable(entry.offer(what)), f"{name}: its {what} offer is not a function"


@pytest.mark.parametrize("name", registry.names())
def test_each_game_says_in_two_sentences_what_it_is_its_players_and_length(name):
    """The start page shows `about` under each game (issue 34, item 10)."""
    about = registry.definition(name).about
    sentences = [s for s in about.replace("; ", ", ").split(". ") if s]
    assert len(sentences) == 2 and about.endswith(".") and len(about) <= 320, about
    assert any(word in sentences[1].lower() for word in ("player", "team", "student", "class")), about


def test_the_features_say_which_games_race():
    racing = {name for name in registry.names() if registry.get(name).has("races")}
    assert {"border-up", "dashing-states", "geodouble", "combo1"} <= racing
    assert not racing & {"ranks", "jumbled", "class", "state-iq"}
    assert set(FEATURES) == {"races", "stages", "series"}


def _mini():
    return registry.get("mini")  # the minimal test-only game (tests/mini_game.py)


@pytest.mark.parametrize("change, words", [
    (dict(optional={"determinize", "seat_policy"}), "declares the optional part 'seat_policy', which its game lacks"),
    (dict(optional=frozenset()), "its game has 'determinize'; declare it"),
    (dict(features={"races", "stages"}), "'stages' feature must be declared exactly when"),
    (dict(name="other"), "its game calls itself 'mini'"),
    (dict(game="tests_nowhere:GAME"), "tests_nowhere:GAME: cannot be loaded"),
    (dict(players=object()), "players must be a geolab.definition.Players"),
    (dict(decisions={"play": "thread_safe"}), "'thread_safe' is an attribute of every BatchBot"),
])
def test_a_definition_that_does_not_fit_its_game_fails_at_registration_in_one_line(change, words):
    definition = dataclasses.replace(_mini().definition, **change)
    with pytest.raises(DefinitionError, match=words) as error:
        registry.register(definition)
    assert "\n" not in str(error.value)
    assert registry.get("mini").definition.name == "mini"  # the registered game is untouched


@pytest.mark.parametrize("change, words", [
    (dict(name="High Card"), "lower-case words"),
    (dict(optional={"teleport"}), "unknown optional part 'teleport'"),
    (dict(features={"dice"}), "unknown feature 'dice'"),
    (dict(offers={"bench": "no colon"}), "bench must be named as 'module:attribute'"),
    (dict(decisions={"dance": "act"}), "unknown decision kind 'dance'"),
    (dict(decisions=()), "declare the decision kinds its bots answer"),
    (dict(decisions={"play": "_act"}), "must name the public bot method"),
])
def test_a_mistyped_definition_fails_when_it_is_declared(change, words):
    with pytest.raises(DefinitionError, match=words):
        dataclasses.replace(_mini().definition, **change)


def test_players_must_name_the_games_own_bots():
    players = dataclasses.replace(_mini().players, arena="best,nobody")
    with pytest.raises(DefinitionError, match="the arena line-up names an unknown bot 'nobody'"):
        registry.register(dataclasses.replace(_mini().definition, players=players))
    assert isinstance(_mini().players, Players)


def test_listing_the_games_loads_no_engine_bot_or_library():
    code = ("import sys; from geolab import registry; names = registry.names(); "
            "titles = [registry.title(n) for n in names]; offers = registry.offering('bench'); "
            "heavy = sorted(m for m in sys.modules if m.startswith('geolab.bots') or m.count('.') > 2 "
            "and m.startswith('geolab.games.') or m in ('geolab.game', 'numpy', 'numba', 'pandas', 'matplotlib')); "
            "print(len(names), heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True) \
        .stdout.split(maxsplit=1)
    assert out == ["8", "[]\n"]


def test_a_game_defined_outside_geolab_registers_with_its_objects_and_unregisters():
    saved = _mini()
    entry = registry.register(GameDef("mini", "High Card again", saved.game, saved.players, optional={"determinize"},
                                      decisions=saved.definition.decisions))
    try:
        assert registry.get("mini") is entry and registry.title("mini") == "High Card again"
        registry.unregister("mini")
        assert "mini" not in registry.names()
    finally:
        registry.register(saved)
    assert registry.get("mini") is saved and registry.title("mini") == saved.title
