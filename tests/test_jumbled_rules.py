"""Jumbled GeoPower Choice rules: settings, the rule-text example, ties, scoring, the race."""

import numpy as np
import pytest

from geolab.cards import SIZE, STATEHOOD, card
from geolab.errors import IllegalActionError, RulesError
from geolab.games.jumbled.batch import BatchRound, decide_winners
from geolab.games.jumbled.reference import Game, Round
from geolab.games.jumbled.rules import BOTTOMS_UP, TOP_DOG, Rules


def cards(text):
    return [card(p) for p in text.split()]


def test_defaults_are_the_official_game():
    r = Rules().validate()
    assert (r.cards_dealt, r.cards_to_play, r.sets_per_round) == (6, 5, 3)
    assert (r.min_cards_per_set, r.max_cards_per_set, r.points_per_set) == (1, 2, 5)
    assert r.bonus == (0, 0, 5, 10) and r.target == 50 and r.geopower_deck == (5, 5, 5)
    assert r.team_of == (0, 1, 2, 3) and Rules(teams=(0, 1, 0, 1)).validate().team_name(0) == "A+C"
    for players in range(2, 9):
        Rules(players=players).validate()


@pytest.mark.parametrize("settings, words", [
    ({"players": 9}, "needs 54 cards"),
    ({"players": 1}, "at least 2 players"),
    ({"cards_to_play": 7}, "more than cards_dealt"),
    ({"cards_to_play": 2}, "cannot be played in sets_per_round=3 sets"),
    ({"sets_per_round": 4, "cards_to_play": 5, "bonus": (0, 0, 5, 10, 20), "max_cards_per_set": 1}, "cannot be played"),
    ({"min_cards_per_set": 2, "max_cards_per_set": 1}, "1 <= min"),
    ({"min_cards_per_set": 0}, "1 <= min"),
    ({"max_cards_per_set": 7}, "more than the 6 cards"),
    ({"bonus": (0, 5, 10)}, "bonus needs 4"),
    ({"geopower_deck": (0, 0, 0)}, "at least one card"),
    ({"geopower_deck": (1, 1, 0), "used_to_bottom": False}, "without reuse"),
    ({"teams": (0, 1, 0)}, "names 3 seats"),
    ({"teams": (0, 2, 0, 2)}, "labels 0..T-1"),
    ({"teams": (0, 0, 0, 0)}, "T >= 2"),
    ({"calls": ("top-dog", "sideways")}, "calls must be"),
    ({"set_tie": "coin"}, "set_tie"),
    ({"final_tie": "coin"}, "final_tie"),
    ({"target": 0}, "target"),
    ({"cards_dealt": 17, "players": 2, "cards_to_play": 5}, "at most 16"),
    ({"players": 4.5}, "players must be a whole number"),
    ({"teams": ["a", "b", "a", "b"]}, "teams"),
    ({"geopower_deck": (5, 5)}, "geopower_deck must be a list of 3 values"),
])
def test_impossible_settings_are_refused_with_a_clear_message(settings, words):
    with pytest.raises(RulesError, match=words):
        Rules(**settings).validate()
    with pytest.raises(RulesError, match=words):
        Rules.from_spec({k: list(v) if isinstance(v, tuple) else v for k, v in settings.items()})


def test_presets_and_specs():
    assert Rules.preset("standard") == Rules() and Rules.DEFAULT == "standard"
    teams = Rules.preset("teams")
    assert teams.players == 4 and teams.team_of == (0, 1, 0, 1) and teams.team_name(0) == "A+C"
    assert Rules().to_spec() == "standard" and teams.to_spec() == "teams"
    two = Rules(players=2)
    assert two.to_spec() == {"preset": "standard", "players": 2}
    for spec in ({"players": 2}, {"preset": "standard", "players": 2}):  # what records hold
        assert Rules.from_spec(spec) == two
    assert Rules.from_spec({"players": 4, "teams": [0, 1, 0, 1]}) == teams
    assert Rules.from_spec({"preset": "teams", "target": 30}).to_spec() == {"preset": "teams", "target": 30}
    assert set(Rules.HELP) == {f["field"] for f in Rules().describe()}


def two_player_round(call, a_hand, b_hand, deck):
    r = Rules(players=2).validate()
    return Round(r, call, [cards(a_hand), cards(b_hand)], deck)


def test_rule_text_example_texas_and_california_beat_south_dakota_on_size():
    """Top Dog, Size: TX + CA = 2 + 3 = 5 against SD = 16; the lower total wins."""
    rnd = two_player_round(TOP_DOG, "TX CA NY FL DE WY", "SD AK RI VT PA NV", [SIZE] * 5 + [1] * 5 + [2] * 5)
    result = rnd.play_set([tuple(cards("TX CA")), tuple(cards("SD"))])
    assert result.category == SIZE and result.totals == [5, 16] and result.winners == [0]


def test_the_same_cards_under_bottoms_up_go_to_the_higher_total():
    rnd = two_player_round(BOTTOMS_UP, "TX CA NY FL DE WY", "SD AK RI VT PA NV", [SIZE] * 15)
    assert rnd.play_set([tuple(cards("TX CA")), tuple(cards("SD"))]).winners == [1]


def test_batch_engine_agrees_on_the_rule_text_example():
    r = Rules(players=2).validate()
    hands = np.array([[cards("TX CA NY FL DE WY"), cards("SD AK RI VT PA NV")]], np.int8)
    order = np.array([[SIZE] * 15], np.int8)
    rnd = BatchRound(r, hands, order, np.array([TOP_DOG], np.int8))
    assert rnd.step(np.array([[0b11, 0b1]])) == -1
    assert rnd.totals[0, 0].tolist() == [5, 16] and rnd.won[0, 0].tolist() == [True, False]


def test_a_tied_best_total_wins_nobody_unless_the_variant_says_so():
    hands = ["TX NY FL DE WY HI", "CA SD AK RI VT PA"]
    for set_tie, winners in (("nobody", []), ("all-tied", [0, 1])):
        r = Rules(players=2, set_tie=set_tie).validate()
        rnd = Round(r, TOP_DOG, [cards(hands[0]), cards(hands[1])], [STATEHOOD] * 15)
        # statehood: DE 1 + HI 50 = 51; PA 2 + AK 49 = 51
        result = rnd.play_set([tuple(cards("DE HI")), tuple(cards("PA AK"))])
        assert result.totals == [51, 51] and result.winners == winners


def test_round_points_are_five_a_set_plus_the_bonus_for_two_or_three():
    r = Rules(players=2).validate()
    rnd = Round(r, TOP_DOG, [cards("TX CA NY FL DE WY"), cards("SD AK RI VT PA NV")], [SIZE] * 15)
    rnd.play_set([tuple(cards("TX CA")), tuple(cards("SD"))])     # 5 v 16: A
    rnd.play_set([tuple(cards("WY")), tuple(cards("AK NV"))])     # 9 v 8: B
    rnd.play_set([tuple(cards("NY FL")), tuple(cards("RI PA"))])  # 56 v 82: A
    assert [s.winners for s in rnd.sets] == [[0], [1], [0]]
    assert rnd.points() == [15, 5]


def test_illegal_choices_are_refused_not_corrected():
    rnd = two_player_round(TOP_DOG, "TX CA NY FL DE WY", "SD AK RI VT PA NV", [SIZE] * 15)
    with pytest.raises(IllegalActionError, match="B played TX, which is not in the hand"):
        rnd.play_set([tuple(cards("CA")), tuple(cards("TX"))])
    with pytest.raises(IllegalActionError, match="played 3 cards"):
        rnd.play_set([tuple(cards("TX CA NY")), tuple(cards("SD"))])
    rnd.play_set([tuple(cards("TX CA")), tuple(cards("SD"))])
    rnd.play_set([tuple(cards("NY FL")), tuple(cards("AK RI"))])
    with pytest.raises(IllegalActionError, match="1-1 are allowed"):  # 4 played, exactly 1 may follow
        rnd.play_set([tuple(cards("DE WY")), tuple(cards("VT PA"))])
    with pytest.raises(IllegalActionError, match="already played"):
        rnd.play_set([tuple(cards("TX")), tuple(cards("VT"))])


def finish_round_with(game, a_points_sets):
    """Play a 2-player round where A wins the sets listed (by index) and B wins the others."""
    win, lose = cards("DE PA NJ"), cards("HI AK AZ")  # statehood 1 2 3 v 50 49 48
    a = [win[s] if s in a_points_sets else lose[s] for s in range(3)]
    b = [lose[s] if s in a_points_sets else win[s] for s in range(3)]
    spare = cards("NY FL TX CA WY SD")
    rnd = game.start_round(TOP_DOG, [a + spare[:3], b + spare[3:]], [STATEHOOD] * 15)
    rnd.play_set([(a[0],), (b[0],)])
    rnd.play_set([(a[1], spare[0]), (b[1], spare[3])])
    rnd.play_set([(a[2], spare[1]), (b[2], spare[4])])
    game.end_round()


def test_race_highest_total_wins_when_several_reach_the_target_and_a_tie_plays_on():
    game = Game(Rules(players=2))
    game.scores = [45, 40]
    finish_round_with(game, {0})  # A 1 set = 5 -> 50; B 2 sets = 15 -> 55
    assert game.winner == 1 and game.dealer == 1
    game = Game(Rules(players=2))
    game.scores = [45, 45]
    finish_round_with(game, {0})
    assert game.scores == [50, 60] and game.winner == 1
    tied = Game(Rules(players=2))
    tied.scores = [40, 50]
    finish_round_with(tied, {0, 1})  # A 15 -> 55; B 5 -> 55: tie at the top, another round
    assert tied.scores == [55, 55] and tied.winner is None
    draw = Game(Rules(players=2, final_tie="draw"))
    draw.scores = [40, 50]
    finish_round_with(draw, {0, 1})
    assert draw.winner == -1


def test_batch_race_rulings_match_the_reference():
    r = Rules(players=3, teams=(0, 1, 0)).validate()
    scores = np.array([[30, 49, 20], [25, 25, 10], [20, 50, 30], [0, 10, 5]])
    assert decide_winners(r, scores, 3).tolist() == [0, -2, -2, -2]
    assert decide_winners(Rules(players=3, teams=(0, 1, 0), final_tie="draw"), scores, 3).tolist() == [0, -2, -1, -2]
    assert decide_winners(Rules(players=3, teams=(0, 1, 0), max_rounds=3), scores, 3).tolist() == [0, -1, -1, -1]


def test_a_game_over_refuses_another_round():
    game = Game(Rules(players=2))
    game.scores = [50, 0]
    finish_round_with(game, {0, 1, 2})
    with pytest.raises(IllegalActionError, match="over"):
        game.start_round(TOP_DOG, [cards("TX CA NY FL DE WY"), cards("SD AK RI VT PA NV")], [0] * 15)
