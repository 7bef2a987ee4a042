"""The shared contract builders every game configures: a tensor by named pieces and an action id
read back (`geolab.observer`), and the record's writing, per-seat objects, scripted seats and
replay errors (`geolab.recorded`)."""

import numpy as np
import pytest

from geolab import registry
from geolab.errors import IllegalActionError, RecordError
from geolab.game import Decision
from geolab.observer import NO_ACTION, Layout, action_named
from geolab.recorded import Scripted, record_sides, replay_seats, written
from geolab.stepwise import Claim


def test_a_layout_places_each_piece_after_the_one_before_and_writes_only_inside_it():
    layout = Layout([("seat", 2), ("hand", 5), ("scale", 1)])
    assert (layout.size, layout.starts, layout.span("hand")) == (8, {"seat": 0, "hand": 2, "scale": 7}, slice(2, 7))
    out = layout.tensor()
    out.one("seat", 1)
    out.one("seat", None)  # nothing known: the piece stays zero
    out.ones("hand", [0, 4])
    out.put("scale", 0.5)
    assert out.values.dtype == np.float32
    assert out.values.tolist() == [0, 1, 1, 0, 0, 0, 1, 0.5]
    with pytest.raises(IndexError):  # an index past its piece never lands in the next one
        out.one("seat", 2)


def test_an_action_id_is_read_back_among_the_legal_actions_or_refused_in_one_line():
    def decode(i):
        return None if i == 9 else i if 0 <= i < 9 else NO_ACTION

    play = Decision(0, "play", None, (3, 5), "round 1")
    race = Decision(0, "race", None, (3, 5), "the race", timed=True)
    assert action_named(play, np.int64(5), decode, "card", "A") == 5
    assert action_named(race, 9, decode, "claim", "A") is None  # no claim, at a race only
    for index in (4, 9, 10, -1, True, 5.0, "5"):
        with pytest.raises(IllegalActionError, match=r"^round 1: index .* names no card A can make$"):
            action_named(play, index, decode, "card", "A")


@pytest.mark.usefixtures("rigs")
def test_every_game_with_a_card_action_map_round_trips_its_ids():
    game = registry.get("toy").game
    rules = game.Rules.preset("race")
    state = game.state(rules, game.deal(rules, np.random.default_rng(3)))
    decision = state.decision(1)
    for action in (*decision.legal, None):
        assert game.action_of(rules, decision, game.action_id(rules, decision, action)) == action
    with pytest.raises(IllegalActionError, match="^the race: B's race 0 is not legal"):
        game.action_id(rules, decision, next(c for c in range(50) if c not in decision.legal))


def test_a_record_names_its_seats_and_its_scripted_seats_say_where_it_runs_out():
    assert record_sides({"A": 1, "B": 2}, "x") == {"A": 1, "B": 2}
    with pytest.raises(RecordError, match=r"^deal: expected an object with keys A, B and C$"):
        record_sides({"A": [], "B": []}, "deal", "ABC")
    seat = Scripted(["x", "y"], "moves: 2 recorded, the game goes on")
    assert [seat.act(None), seat.left, seat.act(None), seat.left] == ["x", 1, "y", 0]
    with pytest.raises(RecordError, match="^moves: 2 recorded, the game goes on$"):
        seat.act(None)


@pytest.mark.usefixtures("rigs")
def test_a_replay_turns_a_refused_action_into_the_records_line():
    game = registry.get("toy").game
    rules = game.Rules.preset("race")
    hands = game.deal(rules, np.random.default_rng(0))
    seats = [Scripted([Claim(hands[s][0], 1.0), *hands[s]], "short") for s in range(3)]
    played = replay_seats(game, rules, hands, seats)
    assert written(game.record_game, played, {"n": 1}, game.report)["result"] == game.report(played)
    foreign = next(c for c in range(50) if all(c not in h for h in hands))
    seats = [Scripted([Claim(hands[s][0], 1.0), foreign, *hands[s]], "short") for s in range(3)]
    with pytest.raises(RecordError, match=r"^moves: round 1: A's play .* is not legal"):
        replay_seats(game, rules, hands, seats, lambda text: f"moves: {text}")
