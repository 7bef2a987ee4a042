"""Every registered game's scene (`geolab.scene`, `Views.scene`), held to its contract on seeded
games of every preset: well formed, its moves exactly the legal actions (one each, labelled as
`Views.label` says, the cards it selects in the scene), none at a race, where the scene says
nothing drawn from the hand's solutions; and a face-down card never carries its state."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from geolab import registry
from geolab.definition import DefinitionError
from geolab.game import Views
from geolab.scene import Card, Move, Pile, Race, Scene, SceneError, check, hidden, state_card
from geolab.stepwise import Claim

GAMES = registry.names()


def decisions(name: str, seeds=range(2)):
    """Every decision of random legal games of every preset (a race answered at random seconds)."""
    game = registry.get(name).game
    for preset in game.Rules.PRESETS:
        rules = game.Rules.preset(preset)
        for seed in seeds:
            rng = np.random.default_rng(seed)
            state = game.state(rules, game.deal(rules, rng))
            while not state.is_over():
                answers = {}
                for d in state.decisions():
                    yield game, d
                    action = d.legal[int(rng.integers(len(d.legal)))]
                    answers[d.seat] = Claim(action, float(rng.random() * 10)) if d.timed else action
                state.apply(answers)


@pytest.mark.parametrize("name", GAMES)
def test_every_decisions_scene_is_well_formed_and_its_moves_are_the_legal_actions(name):
    kinds = set()
    for game, d in decisions(name, range(1 if registry.get(name).has("stages") else 2)):
        scene = game.views.scene(d)
        check(scene, d, game.views.label)  # the moves: a bijection with decision.legal
        kinds.add(d.kind)
        # a fact is whole, never a piece of a line the terminal wrapped (Jumbled's GeoPower odds
        # were two facts, "Next GeoPower card: size 38%, ...;" and "turned: state, state")
        assert not [f.text for f in scene.facts if f.text.rstrip().endswith((";", ","))], d.kind
        for c in scene.cards().values():
            if not c.face_up:
                assert c.code is None and c.name is None and c.ranks is None and not c.picture
            if c.kind == "map":
                assert c.code is None and c.name is None
        if d.timed:
            text = json.dumps(dataclasses.asdict(scene))
            labels = {game.views.label(d, a) for a in d.legal}  # the claims of groups: "AZ CA NV / IL IA NE"
            assert not scene.moves and not any(label in text for label in labels if "/" in label), d.kind
        else:
            assert len(scene.moves) == len(d.legal)
    assert kinds, f"{name}: no decision met"


def test_check_refuses_what_breaks_the_contract():
    ranks = registry.get("ranks").game
    rules = ranks.Rules.preset("battle1")
    d = ranks.state(rules, ranks.deal(rules, np.random.default_rng(3))).decisions()[0]
    good = ranks.views.scene(d)
    check(good, d, ranks.views.label)
    bare = dataclasses.replace(hidden("x"), code="TX")
    broken = {
        "moves are not the legal actions": dataclasses.replace(good, moves=good.moves[1:]),
        "shows its state": dataclasses.replace(good, piles=(*good.piles, Pile("table", "", (bare,)))),
        "is used twice": dataclasses.replace(good, piles=(*good.piles, good.piles[0])),
        "a race's shape": dataclasses.replace(good, race=Race((3, 3), "two groups")),
        "two moves select": dataclasses.replace(good, moves=tuple(dataclasses.replace(m, cards=good.moves[0].cards)
                                                                  for m in good.moves)),
        "not a selectable card": dataclasses.replace(good, moves=(Move(0, good.moves[0].label, ("nowhere",)),
                                                                  *good.moves[1:])),
    }
    for words, scene in broken.items():
        with pytest.raises(SceneError, match=words):
            check(scene, d, ranks.views.label)
    race = dataclasses.replace(d, timed=True)
    with pytest.raises(SceneError, match="lists no moves"):
        check(good, race)
    check(Scene("t", "claim", "", (Pile("hand", "", (state_card(0, "a", selectable=True),)),),
                race=Race((1,), "one card")), race)
    assert Card("m", kind="map", picture="<svg></svg>").code is None


def test_a_game_whose_views_lack_a_scene_fails_at_registration_in_one_line():
    mini = registry.get("mini")

    class Bare(type(mini.game.views)):
        scene = Views.scene  # the contract's stub, not a scene

    game = type("Bare", (type(mini.game),), {"views": Bare()})()
    with pytest.raises(DefinitionError, match="its views lack scene") as error:
        registry.register(dataclasses.replace(mini.definition, game=game))
    assert "\n" not in str(error.value) and registry.get("mini").game is mini.game
