"""The step-wise state's contract, over the registry: every game and preset steps, copies,
indexes its actions, observes per seat and resamples what a seat cannot see, through the same
few verbs (`geolab.stepwise`). A game is tested here because it is registered."""

from __future__ import annotations

import json

import numpy as np
import pytest

from geolab import registry
from geolab.errors import GeolabError, IllegalActionError
from geolab.stepwise import Ask, Chance, Claim, State

GAMES = registry.names()
PRESETS = [(g, p) for g in GAMES for p in registry.get(g).game.Rules.PRESETS]
#: The presets the slowest test steps: a game's long forms (a Combo 1 morning or afternoon
#: match, hundreds of decisions, each resampled) only through its short ones (the final, the playoff).
LONG = {"combo1": ("morning", "afternoon")}
QUICK = [(g, p) for g, p in PRESETS if p not in LONG.get(g, ())]


def _setup(game, preset):
    entry = registry.get(game)
    return entry.game, entry.game.Rules.preset(preset)


def _random_answers(state: State, rng) -> dict:
    answers = {}
    for d in state.decisions():
        action = d.legal[int(rng.integers(len(d.legal)))]
        answers[d.seat] = Claim(action, float(rng.exponential(2.0))) if d.timed else action
    return answers


def _random_game(game, rules, rng, deal=None):
    """A state stepped to its end with random legal answers (and random chance outcomes when
    it has no deal); yields the state before every step."""
    state = game.state(rules, game.deal(rules, rng) if deal is None else deal)
    while not state.is_over():
        yield state
        state.apply(_random_answers(state, rng))
    yield state


def _seen(game, rules, state, seat) -> tuple:
    obs = state.observe(seat)
    return game.observation_string(rules, seat, obs), game.observation_tensor(rules, seat, obs).tobytes()


@pytest.mark.parametrize("game,preset", PRESETS)
def test_a_stepped_state_is_the_driven_game(game, preset):
    game, rules = _setup(game, preset)
    rng = np.random.default_rng(3)
    for _ in range(3):
        deal = game.deal(rules, rng)
        *_, end = _random_game(game, rules, rng, deal)
        assert end.is_over() and end.to_move() == () and end.decisions() == ()
        asks = [answers for kind, answers in end.log]
        script = [dict(a) for a in asks]
        played = game.play(rules, deal, [ScriptSeat(script) for _ in range(game.seats(rules))])
        assert game.report(played) == game.report(end.played)
        np.testing.assert_allclose(end.scores(), game.scores(played))
        assert len(end.log) <= game.max_length(rules)


class ScriptSeat:
    """Every seat shares one script of answers: a seat's answer is taken from the Ask at the
    head, and the Ask is dropped once each of its seats has answered."""

    def __init__(self, script: list):
        self.script = script

    def act(self, decision):
        head = self.script[0]
        action = head.pop(decision.seat)
        if not head:
            self.script.pop(0)
        return action


@pytest.mark.parametrize("game,preset", PRESETS)
def test_action_ids_are_fixed_unique_in_range_and_read_back(game, preset):
    game, rules = _setup(game, preset)
    n = game.num_actions(rules)
    assert 0 < n <= 200_000
    rng = np.random.default_rng(4)
    for state in _random_game(game, rules, rng):
        for d in state.decisions():
            ids = [game.action_id(rules, d, a) for a in d.legal]
            assert all(isinstance(i, int) and 0 <= i < n for i in ids)
            assert len(set(ids)) == len(ids), f"two legal actions share an id at {d.where}"
            for i, a in zip(ids, d.legal):
                assert game.action_of(rules, d, i) == a
            unused = next(i for i in range(n) if i not in ids and not (d.timed and i == game.action_id(rules, d, None)))
            with pytest.raises(IllegalActionError):
                game.action_of(rules, d, unused)


@pytest.mark.parametrize("game,preset", QUICK)
def test_observations_have_their_size_and_do_not_change_when_resampled(game, preset):
    game, rules = _setup(game, preset)
    rng = np.random.default_rng(5)
    varied = 0
    for state in _random_game(game, rules, rng):
        if state.is_over():
            break
        for d in state.decisions():
            obs = state.observe(d.seat)
            tensor = game.observation_tensor(rules, d.seat, obs)
            assert tensor.shape == (game.tensor_size(rules),) and tensor.dtype == np.float32
            assert np.isfinite(tensor).all()
            assert isinstance(game.observation_string(rules, d.seat, obs), str)
            other = state.resample(d.seat, rng)
            assert _seen(game, rules, other, d.seat) == _seen(game, rules, state, d.seat)
            assert other.decision(d.seat).legal == d.legal
            varied += other.deal_so_far() != state.deal_so_far()
    assert varied > 0, "resampling never changed a hidden card"


@pytest.mark.parametrize("game,preset", PRESETS)
def test_a_game_stepped_by_chance_is_a_valid_game_and_its_deal_replays_it(game, preset):
    game, rules = _setup(game, preset)
    rng = np.random.default_rng(6)
    state = game.state(rules, None)
    chance = 0
    while not state.is_over():
        if state.is_chance():
            node = state.node
            assert isinstance(node, Chance) and len(node.outcomes) == len(node.probabilities())
            assert sum(node.probabilities()) == pytest.approx(1.0)
            with pytest.raises(IllegalActionError):
                state.apply_chance(-1)
            state.apply_chance(node.sample(rng))
            chance += 1
        else:
            assert isinstance(state.node, Ask)
            state.apply(_random_answers(state, rng))
    assert chance > 0
    assert len(state.log) <= game.max_length(rules)
    deal = game.deal_from_chance(rules, [v for k, v in state.log if k == "chance"])
    again = game.state(rules, deal, [e for e in state.log if e[0] == "ask"])
    assert again.is_over() and game.report(again.played) == game.report(state.played)
    record = json.loads(json.dumps(game.to_record(state.played)))
    assert game.report(game.replay(record)) == game.report(state.played)


@pytest.mark.parametrize("game,preset", PRESETS)
def test_a_clone_is_independent_and_an_illegal_action_changes_nothing(game, preset):
    game, rules = _setup(game, preset)
    rng = np.random.default_rng(8)
    state = game.state(rules, game.deal(rules, rng))
    state.apply(_random_answers(state, rng))
    copy = state.clone()
    assert copy.log == state.log and copy.decisions() == state.decisions()
    before = list(state.log)
    with pytest.raises(IllegalActionError):
        state.apply({d.seat: "not an action" for d in state.decisions()})
    with pytest.raises(IllegalActionError):
        state.apply({})
    assert state.log == before
    if not copy.is_over():
        copy.apply(_random_answers(copy, rng))
        assert len(copy.log) == len(state.log) + 1 and state.log == before
    rewound = copy.rewound(1)
    assert rewound.log == before and rewound.decisions() == state.decisions()


@pytest.mark.usefixtures("rigs")
def test_a_race_refuses_a_plain_action_and_bad_seconds():
    game, rules = _setup("toy", "race")
    state = game.state(rules, game.deal(rules, np.random.default_rng(1)))
    d = state.decisions()[0]
    assert d.timed and state.node.race
    for bad in (d.legal[0], Claim(d.legal[0], -1.0), Claim(d.legal[0], float("nan")), Claim(99, 1.0)):
        with pytest.raises(IllegalActionError):
            state.apply({s: bad for s in state.to_move()})
    state.apply({s: Claim(None if s else d.legal[0], 1.0 + s) for s in state.to_move()})
    assert not state.is_over() and not state.decisions()[0].timed


@pytest.mark.usefixtures("rigs")
def test_the_fastest_true_claim_wins_the_race():
    game, rules = _setup("toy", "race")
    hands = [[0, 1, 2], [3, 4, 5], [6, 7, 8]]
    from geolab.cards import RANKS
    best = [min(h, key=lambda c: RANKS[c, 0]) for h in hands]
    wrong = [next(c for c in h if c != b) for h, b in zip(hands, best)]
    state = game.state(rules, hands)
    # A is fastest but wrong (out), C is true and faster than B: C wins one round
    state.apply({0: Claim(wrong[0], 0.5), 1: Claim(best[1], 3.0), 2: Claim(best[2], 2.0)})
    while not state.is_over():
        state.apply({d.seat: d.legal[0] for d in state.decisions()})
    plain = game.state(rules.replace(race=False), hands)
    while not plain.is_over():
        plain.apply({d.seat: d.legal[0] for d in plain.decisions()})
    np.testing.assert_array_equal(state.played.wins() - plain.played.wins(), [0, 0, 1])


# ----- games made of games ------------------------------------------------------------------
@pytest.mark.usefixtures("rigs")
def test_a_matchs_rules_hold_its_stages_rules_and_reach_inside_them():
    Rules = registry.get("toy-match").game.Rules
    rules = Rules.preset("best-of-3")
    changed = rules.with_settings(["stage.hand=4", "stage.limit=none", "wins=3"])
    assert changed.stage.hand == 4 and changed.stage.limit is None and changed.wins == 3
    assert rules.replace(**{"stage.rounds": 2, "stage.categories": [0, 1]}).stage.rounds == 2
    spec = changed.to_spec()
    assert spec["stage"] == {"preset": "standard", "hand": 4} \
        and Rules.from_spec(json.loads(json.dumps(spec))) == changed
    assert Rules.from_spec({"stage": "duel"}).stage == registry.get("toy").game.Rules.preset("duel")
    for bad, message in (({"stage.seats": 9}, "stage.seats: 9 is outside 2-6"),
                         ({"stage.nope": 1}, "stage: unknown field 'nope'"),
                         ({"wins.x": 1}, "'wins' is not a stage"), ({"stage": 7}, "stage: expected a preset name")):
        with pytest.raises(Exception) as caught:
            rules.replace(**bad)
        assert caught.type.__name__ == "RulesError" and "\n" not in str(caught.value)
        assert __import__("re").search(message, str(caught.value)), str(caught.value)
    assert "stage.hand" in {row["field"] for row in rules.describe()}


@pytest.mark.usefixtures("rigs")
def test_a_match_holds_its_games_states_and_its_record_nests_theirs():
    entry = registry.get("toy-match")
    game, rules = entry.game, entry.game.Rules.preset("best-of-3")
    rng = np.random.default_rng(2)
    *_, end = _random_game(game, rules, rng)
    played = end.played
    assert 2 <= len(played.games) <= rules.max_games and max(__import__("toy_match").game_wins(played.games)) >= 2 \
        or len(played.games) == rules.max_games
    record = json.loads(json.dumps(game.to_record(played)))
    assert [g["game"] for g in record["games"]] == ["top-rank"] * len(played.games)
    assert game.report(game.replay(record)) == game.report(played)
    tampered = json.loads(json.dumps(record))
    tampered["games"][0]["rounds"][0][0] = "ZZ"
    with pytest.raises(Exception, match=r"games\[0\]\.round 1: unknown postal code .ZZ."):
        game.replay(tampered)
    extra = json.loads(json.dumps(record))
    extra["games"].append(record["games"][0])
    extra.pop("result")
    with pytest.raises(Exception, match="after the match ended|not the match's"):
        game.replay(extra)


@pytest.mark.usefixtures("rigs")
def test_a_match_bot_delegates_each_game_to_a_stage_bot():
    entry = registry.get("toy-match")
    rules = entry.game.Rules.preset("best-of-3")
    bots = [entry.bots.make(spec, rules) for spec in ("stage:bot=best", "stage:bot=first", "stage:bot=first")]
    batch = entry.game.batch(rules, bots, 400, 1)
    assert batch.scores[:, 0].mean() > 0.5  # the best card beats the first card most matches
    inner = registry.get("toy").game.batch(rules.stage, [b.inner for b in bots], 400, 1)
    assert inner.scores[:, 0].mean() < batch.scores[:, 0].mean()  # a match amplifies the edge of one game


#: (game, preset) pairs of every game that can `determinize` (its short forms only, as `QUICK`).
DETERMINIZE = [(g, p) for g, p in QUICK if callable(getattr(registry.get(g).game, "determinize", None))]


@pytest.mark.parametrize("game,preset", DETERMINIZE)
def test_a_state_determinized_from_an_observation_alone_is_the_same_node_to_the_seat(game, preset):
    """At every decision of random play, the state a seat's observation determinizes shows it
    the same observation and the same legal actions (at the end, the same finished game); and
    it deals some unseen card anew."""
    game, rules = _setup(game, preset)
    varied = 0
    for seed in range(3):
        rng = np.random.default_rng(seed)
        for state in _random_game(game, rules, rng):
            for d in state.decisions():
                other = game.determinize(rules, d.seat, state.observe(d.seat), rng)
                assert other.observe(d.seat) == state.observe(d.seat), d.where
                assert other.decision(d.seat).legal == d.legal, d.where
                varied += other.deal_so_far() != state.deal_so_far()
            if state.is_over():
                for seat in range(game.seats(rules)):
                    other = game.determinize(rules, seat, state.observe(seat), rng)
                    assert other.is_over() and other.observe(seat) == state.observe(seat)
    assert varied > 0, "determinizing never dealt an unseen card anew"


@pytest.mark.parametrize("game,preset", DETERMINIZE)
def test_determinize_reads_the_observation_alone_and_refuses_a_seat_off_the_table(game, preset):
    """Two real states that differ only in what a seat cannot see (`State.resample`) give it
    the same observation, and `determinize` the same state from it under the same generator:
    so it never reads a hidden card. A seat the rules do not seat is a `GeolabError`."""
    game, rules = _setup(game, preset)
    rng, differed = np.random.default_rng(5), 0
    for k, state in enumerate(_random_game(game, rules, rng)):
        for d in state.decisions()[:1] if k % 3 == 0 and k < 30 else ():  # ten decisions: a long match is slow
            other = state.resample(d.seat, rng)
            assert other.observe(d.seat) == state.observe(d.seat), d.where
            differed += other.deal_so_far() != state.deal_so_far()
            a = game.determinize(rules, d.seat, state.observe(d.seat), np.random.default_rng(k))
            b = game.determinize(rules, d.seat, other.observe(d.seat), np.random.default_rng(k))
            assert (a.deal_so_far(), a.log) == (b.deal_so_far(), b.log), d.where
            with pytest.raises(GeolabError):
                game.determinize(rules, game.seats(rules), state.observe(d.seat), np.random.default_rng(k))
    assert differed > 0, "no resampled state differed from the real one"


def test_indexed_finds_what_tuple_index_finds_and_refuses_what_it_refuses():
    from geolab.stepwise import Indexed

    items = (3, "a", (1, 2), 3, 1.5)
    fast = Indexed(items)
    assert fast == items and isinstance(fast, tuple)
    for value in (3, "a", (1, 2), 1.5, True):  # True == 1 is not there; 1.5 is
        try:
            expected = items.index(value)
        except ValueError:
            expected = None
        try:
            got = fast.index(value)
        except ValueError:
            got = None
        assert got == expected, value
    with pytest.raises(ValueError):
        fast.index("b")
    assert fast.index(3, 1) == 3  # with bounds: tuple's own scan
