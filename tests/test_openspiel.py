"""The OpenSpiel adapter (`geolab.interop.openspiel`) over the registry: every game and preset
passes OpenSpiel's own random-simulation test, steps exactly as geolab's engine does, maps
its parameters to rules, resamples within an information state; the OpenSpiel search bots
play legal, repeatable moves from what their seat sees. Every test is over the registered
games (the minimal test-only High Card among them), so a game is covered by being registered."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is the optional extra geolab[openspiel] (CI installs it)")

from geolab import registry  # noqa: E402
from geolab.cli import main  # noqa: E402
from geolab.errors import GeolabError, RulesError  # noqa: E402
from geolab.game import Bots  # noqa: E402
from geolab.interop import openspiel as osp  # noqa: E402
from geolab.stepwise import Claim, State  # noqa: E402

GAMES = registry.names()
PRESETS = [(g, p) for g in GAMES for p in registry.get(g).game.Rules.PRESETS]
#: The presets the slowest suites step: a game's long forms (a Combo 1 morning or afternoon
#: match, hundreds of decisions) only through its short ones (the final, the playoff).
LONG = {"combo1": ("morning", "afternoon")}
QUICK = [(g, p) for g, p in PRESETS if p not in LONG.get(g, ())]


#: The presets whose games run shortest where the bound on length (`max_length`) does not tell
#: (measured: GeoDouble's short match 7 s against the official 46 s, Jumbled's teams 10 s against 22 s).
SHORT = {"geodouble": "short", "jumbled": "teams"}


def _shortest(game: str) -> str:
    entry = registry.get(game)
    return SHORT.get(game) or min((p for g, p in QUICK if g == game),
                                  key=lambda p: entry.game.max_length(entry.game.Rules.preset(p)))


#: OpenSpiel's own random-simulation test, on each game's shortest preset: it checks the
#: adapter's API (chance, returns, serialising), which a preset does not change; every preset's
#: play is checked against the engine move for move below (the slowest suite before: 4 minutes).
SIMULATED = [(g, _shortest(g)) for g in GAMES]


def _play_randomly(state, rng, decisions: int | None = None):
    """Random chance and random legal actions until the end, or until `decisions` seats'
    decisions have been made and a seat is to decide."""
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        elif decisions == 0:
            break
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
            decisions = None if decisions is None else decisions - 1
    return state


@pytest.mark.parametrize("game,preset", SIMULATED)
def test_openspiel_random_simulation_test_passes(game, preset):
    """OpenSpiel's C++ random-simulation test runs Python games too (its own Kuhn poker test
    does); with serialize it also round-trips states through their pickled form."""
    pyspiel.random_sim_test(osp.load(game, preset), num_sims=5, serialize=True, verbose=False)


@pytest.mark.parametrize("game,preset", QUICK)
def test_the_adapter_and_the_engine_agree_move_for_move(game, preset):
    """The same chance outcomes and actions through the adapter and through a geolab State
    stepped by hand (a simultaneous Ask applied once all have chosen; a race's claimants
    timed 1, 2, 3 ... seconds in the order chance drew): the same observations after every
    Ask, the same returns."""
    os_game = osp.load(game, preset)
    engine, rules = os_game.engine, os_game.rules
    for trial in range(4):
        rng = np.random.default_rng(trial)
        state, ref = os_game.new_initial_state(), State(engine, rules)
        history, pending, order = [], {}, []
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                action = int(rng.choice(outcomes, p=probs))
                if ref.is_chance():
                    ref.apply_chance(action)
                else:
                    order.append(action)
            else:
                seat = state.current_player()
                action = int(rng.choice(state.legal_actions()))
                pending[seat] = engine.action_of(rules, ref.decision(seat), action)
            state.apply_action(action)
            history.append(action)
            if ref.to_move() and len(pending) == len(ref.to_move()):
                claimants = [s for s in ref.to_move() if pending[s] is not None]
                if ref.node.race and len(order) < len(claimants) - 1:
                    continue
                if ref.node.race:
                    order += [s for s in claimants if s not in order]
                    ref.apply({s: Claim(a, float(order.index(s) + 1 if a is not None else len(claimants) + 1))
                               for s, a in pending.items()})
                else:
                    ref.apply(pending)
                pending, order = {}, []
                for s in range(engine.seats(rules)):
                    assert state.observation_string(s) == engine.observation_string(rules, s, ref.observe(s))
                    np.testing.assert_array_equal(state.observation_tensor(s)[: engine.tensor_size(rules)],
                                                  engine.observation_tensor(rules, s, ref.observe(s)))
        assert ref.is_over()
        assert state.returns() == [float(x) for x in ref.scores()]
        assert state.history() == history


@pytest.mark.parametrize("game,preset", PRESETS)
def test_every_preset_loads_as_itself_and_its_game_string_loads_it_again(game, preset):
    Rules = registry.get(game).game.Rules
    loaded = pyspiel.load_game(f"geolab_{game}", {"preset": preset})
    assert loaded.rules == Rules.preset(preset) == osp.load(game, preset).rules
    assert pyspiel.load_game(str(loaded)).rules == loaded.rules
    engine = loaded.engine
    assert loaded.num_players() == engine.seats(loaded.rules)
    assert loaded.num_distinct_actions() == engine.num_actions(loaded.rules)
    assert loaded.max_game_length() == engine.max_length(loaded.rules)
    assert (loaded.min_utility(), loaded.max_utility(), loaded.utility_sum()) == (0.0, 1.0, 1.0)


@pytest.mark.parametrize("game", GAMES)
def test_parameters_map_to_rules_fields(game):
    """Every field of every preset, set to another preset's value (where the rules allow it),
    reaches the rules through OpenSpiel's parameters, and back through the game's string."""
    Rules = registry.get(game).game.Rules
    presets = [Rules.preset(p) for p in Rules.PRESETS]
    tried = 0
    for base in presets:
        for f in dataclasses.fields(Rules):
            for other in presets:
                value = getattr(other, f.name)
                try:
                    wanted = base.replace(**{f.name: value})
                except RulesError:
                    continue
                loaded = pyspiel.load_game(f"geolab_{game}", osp.parameters(wanted))
                assert loaded.rules == wanted == pyspiel.load_game(str(loaded)).rules
                tried += 1
    assert tried


@pytest.mark.parametrize("game", GAMES)
def test_a_nullable_whole_number_never_takes_the_null_marker_as_a_value(game):
    """-1 stands for null in OpenSpiel's parameters (`NULL_INT`): no such field may be -1."""
    Rules = registry.get(game).game.Rules
    base = Rules.preset(Rules.DEFAULT)
    for f in dataclasses.fields(Rules):
        if f.type.replace(" ", "") in ("int|None", "None|int"):
            with pytest.raises(RulesError):
                base.replace(**{f.name: osp.NULL_INT})


@pytest.mark.usefixtures("rigs")
def test_the_toy_game_takes_a_preset_and_fields_lists_as_text():
    game = pyspiel.load_game(osp.register("toy"), {"preset": "duel", "hand": 4, "categories": "[2, 1, 0, 0]"})
    Rules = registry.get("toy").game.Rules
    assert game.rules == Rules.preset("duel").replace(hand=4, categories=(2, 1, 0, 0))
    assert pyspiel.load_game("geolab_toy(preset=duel,categories=[2 1 0 0],limit=2)").rules == \
        Rules.preset("duel").replace(categories=(2, 1, 0, 0), limit=2)
    assert osp.load("toy", preset="race", seats=4).rules == Rules.preset("race").replace(seats=4)


@pytest.mark.parametrize("params", [{"seats": 99}, {"preset": "no-such"}, {"categories": "[0 1"}])
@pytest.mark.usefixtures("rigs")
def test_a_bad_parameter_is_the_rules_one_line_error(params):
    with pytest.raises(RulesError) as error:
        pyspiel.load_game(osp.register("toy"), params)
    assert "\n" not in str(error.value) and str(error.value)


@pytest.mark.parametrize("game", GAMES)
def test_an_unknown_preset_is_a_one_line_rules_error_in_every_game(game):
    with pytest.raises(RulesError, match="unknown rules preset"):
        pyspiel.load_game(f"geolab_{game}", {"preset": "no-such-preset"})


@pytest.mark.parametrize("game,preset", PRESETS)
def test_resampling_keeps_the_players_information_state(game, preset):
    os_game = osp.load(game, preset)
    sampler = pyspiel.UniformProbabilitySampler(7, 0.0, 1.0)
    for trial in range(3):
        rng = np.random.default_rng(trial)
        state = _play_randomly(os_game.new_initial_state(), rng, int(rng.integers(os_game.max_game_length())))
        if state.is_terminal():
            continue
        player = state.current_player()
        for _ in range(5):
            other = state.resample_from_infostate(player, sampler)
            assert other.information_state_string(player) == state.information_state_string(player)
            assert other.information_state_tensor(player) == state.information_state_tensor(player)
            assert other.current_player() == player and other.legal_actions() == state.legal_actions()
            _play_randomly(other, rng)  # and it plays on to a valid end


def test_a_pending_choice_is_in_its_seats_information_state_only():
    """At a simultaneous node, the seat that has chosen sees its choice; the next seat does
    not, so its information state is the same whatever the first chose."""
    game = osp.load("mini", "duel")
    state = _play_randomly(game.new_initial_state(), np.random.default_rng(0), decisions=0)
    before = [state.information_state_string(s) for s in (0, 1)]
    after = []
    for action in state.legal_actions()[:2]:
        child = state.child(action)
        assert child.current_player() == 1 and child.information_state_string(1) == before[1]
        assert child.information_state_string(0) != before[0]
        after.append(child.information_state_string(0))
    assert after[0] != after[1]


# ----- the OpenSpiel bots ---------------------------------------------------------------------
@pytest.fixture
def restored_registry():
    """`install` re-registers entries: put every one back as it was after the test."""
    saved = registry.entries()
    yield
    for e in saved:
        registry.register(e)


def _bots(name: str) -> Bots:
    entry = registry.get(name)
    bots = Bots(name)
    assert osp.add_bots(bots, entry)
    return bots


def test_only_games_that_determinize_offer_the_bots(restored_registry):
    own = {name: registry.get(name).bots for name in GAMES}
    done = osp.install()
    for name in GAMES:
        offers = registry.get(name).has("determinize") and callable(registry.get(name).game.determinize)
        assert (name in done) == offers == ("os-ismcts" in registry.get(name).bots) \
            == ("os-mcts" in registry.get(name).bots)
        assert "os-ismcts" not in own[name]  # the game's own registry is left as it was
    assert "mini" in done
    assert osp.install() == done


def _duel_match(spec: str, deals: int, seed: int = 0) -> float:
    """The bot's mean win share against `first` on the duel preset, each deal played with
    the seats swapped (duplicate)."""
    entry = registry.get("toy")
    rules = entry.game.Rules.preset("duel")
    bots = _bots("toy")
    total = 0.0
    for d in range(deals):
        deal = entry.game.deal(rules, np.random.default_rng([seed, d]))
        for me in (0, 1):
            seats = [None, None]
            seats[me] = bots.make(spec, rules).seat(np.random.default_rng([seed, d, me]))
            seats[1 - me] = entry.seat(entry.bots.make("first", rules), rules, np.random.default_rng(d))
            played = entry.game.play(rules, deal, seats)
            entry.game.replay(entry.game.to_record(played))  # every decision legal, replayed
            total += float(entry.game.scores(played)[me])
    return total / (2 * deals)


@pytest.mark.parametrize("spec", ["os-ismcts:sims=20", "os-mcts:sims=10,worlds=2"])
@pytest.mark.usefixtures("rigs")
def test_the_bots_play_legal_moves_and_repeat_themselves_on_a_seed(spec):
    for preset in ("standard", "race"):
        entry = registry.get("toy")
        rules = entry.game.Rules.preset(preset)
        deal = entry.game.deal(rules, np.random.default_rng(3))

        def played(seed, entry=entry, rules=rules, deal=deal):
            seats = [_bots("toy").make(spec, rules).seat(np.random.default_rng([seed, s])) for s in range(rules.seats)]
            return entry.game.to_record(entry.game.play(rules, deal, seats))

        first = played(1)
        entry.game.replay(first)
        assert played(1) == first


@pytest.mark.usefixtures("rigs")
def test_the_bots_never_read_the_real_deal():
    """A seat asked the same decision on two deals that differ only in what it cannot see
    answers the same, from the same seed."""
    entry = registry.get("toy")
    rules = entry.game.Rules.preset("standard")
    rng = np.random.default_rng(5)
    state = entry.game.state(rules, entry.game.deal(rules, rng))
    state.apply({d.seat: d.legal[0] for d in state.decisions()})
    other = state.resample(0, rng)
    assert other.deal != state.deal
    for spec in ("os-ismcts:sims=20", "os-mcts:sims=10,worlds=2"):
        answers = [_bots("toy").make(spec, rules).seat(np.random.default_rng(9)).act(s.decision(0))
                   for s in (state, other)]
        assert answers[0] == answers[1]


@pytest.mark.usefixtures("rigs")
def test_ismcts_beats_the_first_card_bot_on_duplicate_duel_deals():
    assert _duel_match("os-ismcts:sims=100", deals=8) > 0.6


@pytest.mark.usefixtures("rigs")
def test_the_bots_refuse_bad_parameters_and_the_batch_engine():
    rules = registry.get("toy").game.Rules.preset("duel")
    for spec in ("os-ismcts:sims=1", "os-mcts:sims=1", "os-mcts:worlds=0", "os-ismcts:uct=-1", "os-mcts:seconds=100",
                 "os-ismcts:seed=-1"):
        with pytest.raises(GeolabError, match="must be"):
            _bots("toy").make(spec, rules)
    with pytest.raises(GeolabError, match="reference engine only"):
        registry.get("toy").game.batch(rules, [_bots("toy").make("os-ismcts", rules)] * 2, 2, 0)


@pytest.mark.parametrize("spec", ["os-ismcts:sims=5", "os-mcts:sims=3,worlds=2"])
def test_on_play_the_ranks_the_bots_play_the_batch_engine_legally_and_repeat_themselves(spec):
    """Play the Ranks seats one-game seats in its batch engine (`seat_policy`), so the bots
    play there: every decision legal (the records replayed), the same games again from the
    same seed, from fresh bots."""
    entry = registry.get("ranks")
    for preset in ("combo1", "battle2"):  # hidden discards; public ones, declarations, a face-down lead
        rules = entry.game.Rules.preset(preset)

        def table(rules=rules):
            return [_bots("ranks").make(spec, rules), entry.bots.make("greedy", rules)]

        records = entry.game.batch_records(rules, table(), 2, 3)
        for record in records:
            entry.game.replay(record)
        assert entry.game.batch_records(rules, table(), 2, 3) == records


def test_on_play_the_ranks_the_bots_never_read_the_real_deal():
    """The same decision on two deals that differ only in what the seat cannot see gets the
    same answer, from the same generator and, as in the batch engine, from the seed alone."""
    entry = registry.get("ranks")
    rules = entry.game.Rules.preset("battle2")
    rng = np.random.default_rng(4)
    state = entry.game.state(rules, entry.game.deal(rules, rng))
    while not (state.decisions() and state.decisions()[0].kind == "follow" and len(state.log) > 4):
        state.apply({d.seat: d.legal[int(rng.integers(len(d.legal)))] for d in state.decisions()})
    seat = state.to_move()[0]
    other = state.resample(seat, rng)
    assert other.deal != state.deal and other.log[-1] != state.log[-1]  # another hand, another face-down lead
    for spec in ("os-ismcts:sims=10", "os-mcts:sims=5,worlds=2"):
        for seat_rng in (lambda: np.random.default_rng(9), lambda: None):
            answers = [_bots("ranks").make(spec, rules).seat(seat_rng()).act(s.decision(seat)) for s in (state, other)]
            assert answers[0] == answers[1]


def test_the_command_line_adds_the_bots_when_a_spec_asks_for_them(restored_registry, capsys, tmp_path):
    assert main(["simulate", "mini", "--bots", "os-ismcts:sims=5,random", "--games", "2"]) == 2
    err = capsys.readouterr().err
    assert "reference engine only" in err and len(err.strip().splitlines()) == 1
    out = tmp_path / "arena"
    assert main(["arena", "ranks", "--bots", "os-ismcts:sims=3,greedy", "--games", "2", "--out", str(out)]) == 0
    assert "os-ismcts:sims=3" in capsys.readouterr().out and (out / "pairs.csv").exists()
    without = next((g for g in GAMES if not callable(getattr(registry.get(g).game, "determinize", None))), None)
    if without is not None:
        assert main(["simulate", without, "--bots", "os-mcts," + registry.get(without).simulate_bots.split(",")[0],
                     "--games", "2"]) == 2
        assert "determinize" in capsys.readouterr().err


@pytest.mark.parametrize("game,preset", [("border-up", "official"), ("dashing-states", "names-only"),
                                         ("state-iq", "official"), ("geodouble", "short"), ("combo1", "final"),
                                         ("jumbled", "teams")])
def test_ismcts_plays_whole_games_through_the_registry(restored_registry, game, preset):
    """The search bots need only `determinize`: races, State IQ, GeoDouble, a match of four
    games (Combo 1's final) and Jumbled's simultaneous sets at a table of four played to the
    end at the reference engine, ISMCTS at each seat in turn (the first two) against the
    game's own bot. (Dashing States names states only: with capitals, the 2,601
    announcements a place make each rollout slow.)"""
    osp.install()
    entry = registry.get(game)
    rules = entry.game.Rules.preset(preset)
    if game == "combo1":
        rules = dataclasses.replace(rules, dashing=dataclasses.replace(rules.dashing, announce="names"))
    other = entry.bots.make(entry.simulate_bots.split(",")[0], rules)
    for me in (0, 1):
        rng = np.random.default_rng(me)
        seats = [entry.seat(other, rules, rng) for _ in range(entry.game.seats(rules))]
        seats[me] = entry.bots.make("os-ismcts:sims=4", rules).seat(np.random.default_rng(me))
        played = entry.game.play(rules, entry.game.deal(rules, rng), seats)
        scores = entry.game.scores(played)
        assert scores.shape == (len(seats),) and scores.sum() == pytest.approx(1.0)
