"""Learned bots: reproducible training, rules checks, legal play, and no hidden information."""

import json

import joblib
import numpy as np
import pytest

import geolab.games.ranks.batch as rb
from geolab.bots.ranks.learned import LearnedPolicy
from geolab.bots.ranks.learning import model, training
from geolab.bots.ranks.learning.features import candidates, public
from geolab.bots.ranks.registry import BOTS
from geolab.cli import main
from geolab.errors import GeolabError
from geolab.game import BatchBot
from geolab.games.ranks.records import replay_record, to_record
from geolab.games.ranks.rules import PRESETS, Rules

SMALL = {"block": 16, "chunk": 32}


@pytest.fixture(scope="module")
def combo1_model(tmp_path_factory):
    path = tmp_path_factory.mktemp("models") / "combo1.joblib"
    return model.save(training.fit(Rules.combo1(), 100, seed=3, continuation="greedy"), path)


def _coefs(path):
    return {k: est.named_steps["ridge"].coef_ for k, est in joblib.load(path).items()}


def test_same_seed_same_model(tmp_path, combo1_model):
    out = tmp_path / "again.joblib"
    argv = ["train", "ranks", "--rules", "combo1", "--samples", "100", "--seed", "3", "--continuation", "greedy"]
    assert main([*argv, "--out", str(out)]) == 0
    a, b = _coefs(combo1_model), _coefs(out)
    assert a.keys() == b.keys() == {"discard", "lead", "follow"}
    assert all(np.array_equal(a[k], b[k]) for k in a)
    meta = json.loads(out.with_suffix(".json").read_text())
    assert meta["seed"] == 3 and meta["samples_per_kind"] == 100 and meta["rules"] == "combo1"
    assert set(meta["held_out"]) == {"discard", "lead", "follow"} and meta["features"]["lead"][0] == "distance_to_base"
    other = training.fit(Rules.combo1(), 100, seed=4, continuation="greedy")
    assert not np.array_equal(other.estimators["lead"].named_steps["ridge"].coef_, a["lead"])


def test_fast_scores_equal_the_pipeline(combo1_model):
    fitted = model.load(combo1_model, Rules.combo1())
    seen = []

    class Check(BatchBot):
        name = "check"

        def act(self, obs, rng):
            cand = candidates(obs.rules, public(obs))
            fast = fitted.scores(obs.kind, cand)
            slow = fitted.estimators[obs.kind].predict(cand.X[cand.valid])
            np.testing.assert_allclose(fast[cand.valid], slow, rtol=1e-4, atol=1e-5)  # X is float32
            seen.append(obs.kind)
            return BOTS.make("greedy", Rules()).act(obs, rng)

    rb.play(Rules.combo1(), (Check(), Check()), 32, seed=1, **SMALL)
    assert {"discard", "lead", "follow"} <= set(seen)


def test_a_model_for_other_rules_is_refused(combo1_model, capsys):
    with pytest.raises(model.ModelError, match="trained for rules 'combo1', not 'battle1'"):
        model.load(combo1_model, Rules.battle(1))
    bot = LearnedPolicy(str(combo1_model))
    with pytest.raises(GeolabError, match="trained for rules"):
        rb.play(Rules.battle(1), (bot, BOTS.make("greedy", Rules())), 8, seed=0, **SMALL)
    code = main(["simulate", "ranks", "--rules", "battle1", "--games", "10", "--bots",
                 f"learned:model={combo1_model},greedy"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1 and "trained for rules" in err
    with pytest.raises(model.ModelError, match="no learned model"):
        model.load(combo1_model.with_name("missing.joblib"))


def test_cli_refuses_tiny_samples(capsys):
    assert main(["train", "ranks", "--samples", "10"]) == 2
    assert "--samples must be at least 50" in capsys.readouterr().err


@pytest.mark.parametrize("preset", list(PRESETS))
def test_learned_bot_plays_legally_and_replays(preset):
    rules = Rules.preset(preset)
    for pair in (("learned", "greedy"), ("planner", "learned")):
        played = rb.play(rules, tuple(BOTS.make(p, Rules()) for p in pair), 24, seed=11, **SMALL)
        for i in range(len(played)):
            result = replay_record(json.loads(json.dumps(to_record(played.game(i), result=False))))
            assert result["winner"] == (None if played.winner[i] < 0 else "AB"[played.winner[i]])
            assert result["tricks_won"] == {"A": int(played.tricks_won[i, 0]), "B": int(played.tricks_won[i, 1])}


def _lowest(mask: np.ndarray) -> np.ndarray:
    """The lowest card of each non-empty mask."""
    bit = mask & -mask
    return np.array([int(b).bit_length() - 1 for b in bit], np.int64)


class HiddenSwapSpy(BatchBot):
    """Before each decision, rearranges what the deciding side cannot see, and checks that its
    features do not move: an opponent card swapped with an undealt one, a hidden discard
    swapped into the opponent's hand, a face-down lead replaced by another unseen card."""

    name = "spy"

    def __init__(self):
        self.inner, self.checked = LearnedPolicy(), {}

    def act(self, obs, rng):
        chunk, rules = obs._chunk, obs.rules  # the engine's state: a test may look behind the curtain
        before = candidates(rules, public(obs))
        saved = {k: getattr(chunk, k).copy() for k in ("hand", "disc", "lead")}
        g, opp = obs.game, 1 - obs.side.astype(np.int64)
        every = np.int64((1 << 50) - 1)
        used = (chunk.hand[g, 0] | chunk.hand[g, 1] | chunk.disc[g, 0] | chunk.disc[g, 1]
                | chunk.played[g, 0] | chunk.played[g, 1])
        if obs.kind == "follow":
            used = used | (np.int64(1) << chunk.lead[g].astype(np.int64))
        deck = every & ~used
        x, y = _lowest(chunk.hand[g, opp]), _lowest(deck)
        chunk.hand[g, opp] = (chunk.hand[g, opp] & ~(np.int64(1) << x)) | (np.int64(1) << y)
        hidden_discard = not rules.discards_public and obs.kind != "discard"
        if hidden_discard:
            d, h = _lowest(chunk.disc[g, opp]), _lowest(chunk.hand[g, opp])
            chunk.disc[g, opp] = (chunk.disc[g, opp] & ~(np.int64(1) << d)) | (np.int64(1) << h)
            chunk.hand[g, opp] = (chunk.hand[g, opp] & ~(np.int64(1) << h)) | (np.int64(1) << d)
        if obs.kind == "follow" and rules.hidden_lead:
            chunk.lead[g] = x  # x left the opponent's hand: now unseen and undealt
        after = candidates(rules, public(chunk.observe(obs.kind, obs.trick, g, obs.side)))
        for k, v in saved.items():
            getattr(chunk, k)[:] = v
        assert np.array_equal(before.X, after.X) and np.array_equal(before.card, after.card)
        key = (obs.kind, hidden_discard, obs.kind == "follow" and rules.hidden_lead)
        self.checked[key] = self.checked.get(key, 0) + len(obs)
        return self.inner.act(obs, rng)


@pytest.mark.parametrize("preset", ["combo1", "battle2", "geodouble"])
def test_features_never_read_hidden_information(preset):
    spy = HiddenSwapSpy()
    rb.play(Rules.preset(preset), (spy, BOTS.make("greedy", Rules())), 64, seed=2, **SMALL)
    kinds = {k[0] for k in spy.checked}
    assert {"lead", "follow"} <= kinds
    if preset != "battle2":
        assert any(hidden for _, hidden, _ in spy.checked)  # hidden discards were moved
    else:
        assert any(lead for _, _, lead in spy.checked)  # face-down leads were replaced


def test_the_shipped_models_fit_their_presets():
    for preset in PRESETS:
        fitted = model.load(model.default_path(Rules.preset(preset)), Rules.preset(preset))
        assert set(fitted.estimators) == set(training.kinds_of(fitted.rules))
    with pytest.raises(model.ModelError, match="no model ships for modified rules"):
        model.default_path(Rules.from_spec({"preset": "combo1", "end_at": 5}))


def test_the_command_line_states_the_training_default_without_importing_it():
    from geolab.bots.ranks.learning import training
    from geolab.games.ranks.offers import train

    assert train.CONTINUATION == training.CONTINUATION
