"""The PettingZoo adapter (`geolab.interop.pettingzoo`) over every registered game and preset:
PettingZoo's own API, seed and render tests, and the env against geolab's engine move for
move (observations, masks, final scores) on random games."""

from __future__ import annotations

import functools
import pickle

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the PettingZoo adapter needs the extra geolab[pettingzoo] (CI installs it)")

from pettingzoo.test import api_test, render_test, seed_test

from geolab import registry
from geolab.errors import GeolabError, IllegalActionError, RulesError
from geolab.interop import pettingzoo as pz
from geolab.stepwise import Claim

GAMES = registry.names()
#: (game, preset) pairs: every preset of every game
PRESETS = [(g, p) for g in GAMES for p in registry.get(g).game.Rules.PRESETS]
#: The presets the slowest suites step: a game's long forms (a Combo 1 morning or afternoon
#: match, hundreds of decisions) only through its short ones (the final, the playoff).
LONG = {"combo1": ("morning", "afternoon")}
QUICK = [(g, p) for g, p in PRESETS if p not in LONG.get(g, ())]

#: api_test's advice to environments outside PettingZoo's own lists: a Dict observation (the
#: classic card games' form, which it names one by one) and agents not called player_<n>
API_ADVICE = ["ignore:Observation is not a NumPy array", "ignore:Observation space for each agent probably",
              "ignore:We recommend agents to be named"]


def _ids(game, rules, decision) -> list[int]:
    """The ids of a decision's legal answers (no claim too, at a race)."""
    return sorted(game.action_id(rules, decision, a) for a in (*decision.legal, *((None,) * decision.timed)))


@pytest.mark.parametrize("game,preset", PRESETS)
@pytest.mark.filterwarnings(*API_ADVICE)
def test_pettingzoo_api_seed_and_render_tests_pass(game, preset):
    api_test(pz.env(game, preset), num_cycles=1000)
    seed_test(functools.partial(pz.env, game, preset))
    render_test(functools.partial(pz.env, game, preset))


@pytest.mark.parametrize("game,preset", QUICK)
def test_the_env_and_the_engine_agree_move_for_move(game, preset):
    """Random masked play: at every step every agent sees what the engine shows its seat at the
    same node (so no choice of a simultaneous decision shows before all are made), the mask is
    the legal ids, rewards are 0 until the end, and the returns are the engine's scores."""
    g, rules = registry.get(game).game, registry.get(game).game.Rules.preset(preset)
    for seed in range(3):
        env = pz.env(game, preset)
        env.reset(seed=seed)
        rng, pick = np.random.default_rng(seed), np.random.default_rng([seed, 1])
        state = g.state(rules, g.deal(rules, rng))
        answers, returns = {}, {}
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            assert not truncated
            if terminated:
                returns[agent] = reward
                env.step(None)
                continue
            assert reward == 0
            d = state.decisions()[len(answers)]
            assert env.possible_agents[d.seat] == agent
            for other in env.agents:
                seen, seat = env.observe(other), env.possible_agents.index(other)
                np.testing.assert_array_equal(seen["observation"],
                                              g.observation_tensor(rules, seat, state.observe(seat)))
                assert np.flatnonzero(seen["action_mask"]).tolist() == (_ids(g, rules, d) if other == agent else [])
            action = int(pick.choice(_ids(g, rules, d)))
            answers[d.seat] = g.action_of(rules, d, action)
            env.step(action)
            if len(answers) == len(state.decisions()):
                seconds = iter(pz.race_seconds(rng, len(answers)) if state.node.race else ())
                state.apply({x.seat: Claim(answers[x.seat], float(next(seconds))) if x.timed else answers[x.seat]
                             for x in state.decisions()})
                answers = {}
                assert env.unwrapped.geolab_state.log == state.log
        assert state.is_over() and not env.agents
        np.testing.assert_allclose([returns[a] for a in env.possible_agents], state.scores())
        assert sum(returns.values()) == pytest.approx(1.0)


def _masked_out(env) -> tuple[str, int]:
    """Plays the first legal id until an agent's mask forbids an id; that agent and the id."""
    for agent in env.agent_iter():
        mask = env.observe(agent)["action_mask"]
        if not mask.all():
            return agent, int(np.flatnonzero(mask == 0)[0])
        env.step(int(np.flatnonzero(mask)[0]))
    raise AssertionError("no decision forbids an id")


@pytest.mark.parametrize("game,preset", PRESETS)
def test_an_illegal_action_ends_the_game_with_a_penalty_and_the_raw_env_refuses_it(game, preset):
    env = pz.env(game, preset)
    env.reset(seed=3)
    agent, illegal = _masked_out(env)
    env.step(illegal)
    assert all(env.terminations.values()) and env.agents
    for a in env.agent_iter():
        assert env.last()[1] == (pz.ILLEGAL_REWARD if a == agent else 0)
        env.step(None)
    assert not env.agents
    env.reset(seed=3)
    with pytest.raises(AssertionError, match="action space"):
        env.step(env.action_space(env.agent_selection).n)

    raw = pz.GeolabEnv(game, preset)
    raw.reset(seed=3)
    agent, illegal = _masked_out(raw)
    before, log = raw.observe(agent), list(raw.geolab_state.log)
    for bad in (illegal, 1.5, None, True):
        with pytest.raises(IllegalActionError) as caught:
            raw.step(bad)
        assert "\n" not in str(caught.value)
    assert raw.agent_selection == agent and raw.geolab_state.log == log
    np.testing.assert_array_equal(raw.observe(agent)["observation"], before["observation"])


@pytest.mark.parametrize("game", GAMES)
def test_rules_come_as_rules_a_preset_a_spec_or_fields_and_mistakes_are_geolab_errors(game):
    Rules = registry.get(game).game.Rules
    default = Rules.preset(Rules.DEFAULT)
    for name in Rules.PRESETS:
        rules = Rules.preset(name)
        changed = {f: getattr(rules, f) for f in Rules.field_names() if getattr(rules, f) != getattr(default, f)}
        for made in (pz.env(game, rules), pz.env(game, name), pz.env(game, {"preset": name}), pz.env(game, **changed)):
            assert made.unwrapped.rules == rules
    for wrong, error in ((lambda: pz.env("no such game"), GeolabError),
                         (lambda: pz.env(game, "no such preset"), RulesError),
                         (lambda: pz.env(game, no_such_field=1), RulesError),
                         (lambda: pz.env(game, rules=3), RulesError),
                         (lambda: pz.env(game, render_mode="rgb_array"), GeolabError)):
        with pytest.raises(error) as caught:
            wrong()
        assert "\n" not in str(caught.value)


@pytest.mark.parametrize("game,preset", PRESETS)
def test_a_seed_reproduces_the_deal_and_render_shows_the_selected_agents_observation(game, preset):
    g, rules = registry.get(game).game, registry.get(game).game.Rules.preset(preset)
    env = pz.env(game, preset, seed=11, render_mode="ansi")
    env.reset()
    first = pickle.dumps(env.unwrapped.geolab_state.deal)  # the same bytes: the same deal, for any form of deal
    assert first == pickle.dumps(g.deal(rules, np.random.default_rng(11)))
    env.reset(seed=11)
    assert pickle.dumps(env.unwrapped.geolab_state.deal) == first
    seat = env.possible_agents.index(env.agent_selection)
    assert env.render() == g.observation_string(rules, seat, env.unwrapped.geolab_state.observe(seat))


def test_race_seconds_make_every_racer_equally_likely_first():
    rng = np.random.default_rng(0)
    draws = np.array([pz.race_seconds(rng, 3) for _ in range(3000)])
    assert (np.sort(draws, axis=1) == [1.0, 2.0, 3.0]).all()
    first = np.bincount(draws.argmin(axis=1), minlength=3)
    assert (abs(first - 1000) < 120).all(), first  # about 4.6 standard deviations
