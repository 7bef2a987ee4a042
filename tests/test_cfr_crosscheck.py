"""OpenSpiel's NashConv and CFR+ on a small-deck Class round against geolab's equilibrium
(experiments/cfr_crosscheck.py; docs/interop.md, "CFR cross-check")."""

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pyspiel", reason="the cross-check runs OpenSpiel (extra geolab[openspiel])")

from open_spiel.python.algorithms import cfr, exploitability

from geolab.bots.classroom.equilibrium import average_start, model_exploitability, solve
from geolab.games.classroom.rules import BOTTOMS_UP, TOP_DOG, Rules
from tests.experiment_scripts import load

ROOT = Path(__file__).resolve().parents[1]
xc = load("cfr_crosscheck")


@pytest.mark.parametrize("cards,players", [(5, 2), (4, 3)])
@pytest.mark.parametrize("call", ["top-dog", "bottoms-up"])
def test_geolabs_small_deck_equilibrium_is_one_for_openspiel(cards, players, call):
    r = xc.crosscheck(cards, players, call, iterations=3)
    assert r["hands"] == r["info_states"] // players == len(xc.small_kept(cards))
    assert r["geolab"]["model_exploitability"] == 0.0
    assert abs(r["geolab_in_openspiel"]["nash_conv"]) < xc.TOLERANCE
    assert r["geolab_in_openspiel"]["values"] == pytest.approx([r["geolab"]["win"]] * players, abs=1e-12)
    # a policy that is no equilibrium: OpenSpiel's NashConv is players x geolab's exploitability
    other = r["other_call_policy"]
    assert other["nash_conv"] > 0.01
    assert other["nash_conv"] == pytest.approx(other["geolab_players_x_model_exploitability"], abs=1e-12)
    assert r["cfr_plus"]["nash_conv"] > r["geolab_in_openspiel"]["nash_conv"]


def test_the_game_counts_ties_as_wins_and_deals_every_hand_alike():
    import pyspiel

    game = pyspiel.load_game(xc.NAME, {"cards": 4, "players": 2, "call": "top-dog"})
    state = game.new_initial_state()
    assert state.chance_outcomes() == [(h, 0.25) for h in range(4)]
    for action in (0, 0):  # both students hold cards 0, 1, 2
        state.apply_action(action)
    assert state.information_state_string(1) == "p1 hand (0, 1, 2)"
    state.apply_action(2)
    assert state.current_player() == 1 and state.information_state_string(1) == "p1 hand (0, 1, 2)"
    state.apply_action(2)
    outcomes = state.chance_outcomes()
    assert [c for c, _ in outcomes] == list(range(3))
    assert [p for _, p in outcomes] == pytest.approx(list(Rules().geopower_p))
    state.apply_action(0)
    assert state.returns() == [1.0, 1.0]  # the same kept cards tie: both win


def test_cfr_plus_average_policy_approaches_an_equilibrium():
    game = xc.pyspiel.load_game(xc.NAME, {"cards": 5, "players": 2, "call": "bottoms-up"})
    solver = cfr.CFRPlusSolver(game)
    conv = []
    for _ in range(3):
        for _ in range(4):
            solver.evaluate_and_update_policy()
        conv.append(exploitability.nash_conv(game, solver.average_policy()))
    assert conv[0] > conv[1] > conv[2] > 0


def test_the_tabular_policy_plays_geolabs_discards():
    game = xc.pyspiel.load_game(xc.NAME, {"cards": 5, "players": 2, "call": "top-dog"})
    eq = solve(1, TOP_DOG, Rules().geopower_p, kept=xc.small_kept(5))
    pol = xc.tabular(game, eq.policy)
    probs = pol.action_probability_array
    assert (probs.sum(axis=1) == 1).all() and set(np.unique(probs)) == {0.0, 1.0}
    row = pol.state_lookup["p1 hand (1, 3, 4)"]  # geolab's hand index of cards 1, 3, 4 is 1 + 3 + 4
    assert probs[row, (1, 3, 4)[eq.policy[8]]] == 1.0
    bad = average_start(BOTTOMS_UP, xc.small_kept(5))
    assert exploitability.nash_conv(game, xc.tabular(game, bad)) == pytest.approx(
        2 * model_exploitability(bad, 1, TOP_DOG, Rules().geopower_p, xc.small_kept(5)), abs=1e-12)
