"""Dashing States' rules on hand-worked cases: a correct claim wins; a wrong order, a wrong
state, a wrong capital and an unused card left face-up each lose; shouts at the same time tie
unless only one claim holds; nobody shouting ties; only the first shout announces; the rules'
variants; records hold what was claimed and are refused on one line; the keyboard's words."""

from __future__ import annotations

import json

import numpy as np
import pytest

from geolab import maps
from geolab.cards import CAPITALS, NAMES, POSTAL, card
from geolab.errors import IllegalActionError, RecordError, RulesError
from geolab.game import MoveError
from geolab.games.dashing import records
from geolab.games.dashing.batch import Claims, faults
from geolab.games.dashing.reference import ENGINE, FAULTS, Deal, Row, Said, outcome, rows, sayings
from geolab.games.dashing.rules import Rules
from geolab.games.dashing.views import MAP_COLUMNS, MAP_INDENT, VIEWS, card_map, map_card
from geolab.stepwise import Claim, State

#: A's cards as dealt: Oregon, Idaho, Washington, Nevada, Montana (positions 0-4).
A_HAND = tuple(card(p) for p in "OR ID WA NV MT".split())
#: B's: Texas, California, New York, Florida, Georgia.
B_HAND = tuple(card(p) for p in "TX CA NY FL GA".split())
DEAL = Deal((A_HAND, B_HAND))
#: A's correct row: Idaho, Montana, Nevada, Oregon (positions 1, 4, 3, 0), Washington face-down.
A_ROW = Row((1, 4, 3, 0), True)
#: B's: California, Florida, Georgia, New York (1, 3, 4, 2), Texas face-down.
B_ROW = Row((1, 3, 4, 2), True)


def right(hand, row) -> list[Said]:
    """The correct announcement of a row: each card's state and capital."""
    return [Said(hand[p], hand[p]) for p in row.order]


class Team:
    """A team that shouts a given row at given seconds (None: no shout) and says given words."""

    def __init__(self, row, seconds, said=()):
        self.row, self.seconds, self.said = row, seconds, list(said)
        self.asked = 0

    def act(self, decision):
        if decision.timed:
            return Claim(self.row, self.seconds)
        self.asked += 1
        return self.said[decision.observation.place]


def play(a: Team, b: Team, rules=None, deal=DEAL):
    return ENGINE.play(rules or Rules(), deal, [a, b])


def test_the_map_deck_is_in_alphabetical_order_of_state_name_and_capitals_are_distinct():
    assert list(NAMES) == sorted(NAMES) and len(set(CAPITALS)) == 50
    assert len(rows(Rules())) == 240 and len(sayings(Rules())) == 51 * 51


# ----- the cases the text names ------------------------------------------------------------
def test_a_correct_first_claim_wins():
    a, b = Team(A_ROW, 9.0, right(A_HAND, A_ROW)), Team(B_ROW, 12.0, right(B_HAND, B_ROW))
    played = play(a, b)
    assert played.winner == 0 and played.first == (0,) and played.fault(0) is None
    assert a.asked == 4 and b.asked == 0  # only the first shout announces
    np.testing.assert_array_equal(played.scores(), [1, 0])


def test_a_wrong_order_loses_even_to_a_team_that_never_shouted():
    swapped = Row((4, 1, 3, 0), True)  # Montana before Idaho
    played = play(Team(swapped, 9.0, right(A_HAND, swapped)), Team(None, 30.0))
    assert played.fault(0) == "order" and played.winner == 1


def test_a_wrong_capital_loses():
    said = right(A_HAND, A_ROW)
    said[2] = Said(card("NV"), card("UT"))  # Nevada, Salt Lake City
    played = play(Team(A_ROW, 9.0, said), Team(B_ROW, 12.0, right(B_HAND, B_ROW)))
    assert played.fault(0) == "capital" and played.winner == 1


def test_a_wrong_state_loses_and_so_does_not_knowing_one():
    said = right(A_HAND, A_ROW)
    said[0] = Said(card("WY"), card("WY"))  # Idaho taken for Wyoming, with Wyoming's capital
    assert play(Team(A_ROW, 9.0, said), Team(None, 20.0)).fault(0) == "state"
    said[0] = Said(None, card("ID"))
    assert play(Team(A_ROW, 9.0, said), Team(None, 20.0)).winner == 1


def test_the_unused_card_left_face_up_loses():
    up = Row(A_ROW.order, False)
    played = play(Team(up, 9.0, right(A_HAND, up)), Team(B_ROW, 12.0))
    assert played.fault(0) == "face-up" and played.winner == 1
    # where the rules do not ask for it, the same claim holds
    loose = Rules(face_down=False)
    assert play(Team(up, 9.0, right(A_HAND, up)), Team(B_ROW, 12.0), loose).winner == 0


def test_shouts_at_the_same_time_tie_when_both_hold_and_one_holds_wins():
    a, b = Team(A_ROW, 10.0, right(A_HAND, A_ROW)), Team(B_ROW, 10.0, right(B_HAND, B_ROW))
    played = play(a, b)
    assert played.first == (0, 1) and played.winner is None and a.asked == b.asked == 4
    np.testing.assert_array_equal(played.scores(), [0.5, 0.5])
    wrong = right(B_HAND, B_ROW)
    wrong[3] = Said(card("NY"), card("NJ"))  # New York, Trenton
    assert play(Team(A_ROW, 10.0, right(A_HAND, A_ROW)), Team(B_ROW, 10.0, wrong)).winner == 0
    swapped = Row((4, 1, 3, 0), True)
    assert play(Team(swapped, 10.0, right(A_HAND, swapped)), Team(B_ROW, 10.0, right(B_HAND, B_ROW))).winner == 1
    both_wrong = play(Team(swapped, 10.0, right(A_HAND, swapped)), Team(B_ROW, 10.0, wrong))
    assert both_wrong.winner is None


def test_nobody_shouting_is_a_tie_and_a_later_shout_is_never_judged():
    played = play(Team(None, 20.0), Team(None, 25.0))
    assert played.first == () and played.winner is None and played.length == 25.0
    late_and_wrong = Row((0, 1, 2, 3), True)
    played = play(Team(A_ROW, 9.0, right(A_HAND, A_ROW)), Team(late_and_wrong, 9.5))
    assert played.winner == 0 and played.said[1] == ()


@pytest.mark.parametrize("seconds,correct,winner", [
    ((5.0, 7.0), (True, True), 0), ((5.0, 7.0), (False, True), 1), ((5.0, np.inf), (False, False), 1),
    ((np.inf, 3.0), (False, True), 1), ((4.0, 4.0), (True, True), -1), ((4.0, 4.0), (False, True), 1),
    ((4.0, 4.0), (False, False), -1), ((np.inf, np.inf), (False, False), -1),
])
def test_outcome_reads_the_text(seconds, correct, winner):
    assert outcome(Rules(), [seconds], [correct]).tolist() == [winner]


def test_a_window_makes_close_shouts_simultaneous():
    rules = Rules(simultaneous=0.5)
    assert outcome(rules, [(4.0, 4.4)], [(True, True)]).tolist() == [-1]
    assert outcome(rules, [(4.0, 4.6)], [(False, True)]).tolist() == [1]
    played = play(Team(A_ROW, 10.0, right(A_HAND, A_ROW)), Team(B_ROW, 10.3, right(B_HAND, B_ROW)), rules)
    assert played.first == (0, 1) and played.winner is None


# ----- variants ----------------------------------------------------------------------------
def test_either_direction_accepts_z_to_a():
    backwards = Row(tuple(reversed(A_ROW.order)), True)
    said = right(A_HAND, backwards)
    assert play(Team(backwards, 9.0, said), Team(None, 20.0)).fault(0) == "order"
    assert play(Team(backwards, 9.0, said), Team(None, 20.0), Rules(either_direction=True)).winner == 0


def test_names_only_asks_no_capital_and_none_asks_nothing():
    names = Rules.preset("names-only")
    said = [Said(A_HAND[p], None) for p in A_ROW.order]
    assert sayings(names)[0] == Said(0, None) and len(sayings(names)) == 51
    assert play(Team(A_ROW, 9.0, said), Team(None, 20.0), names).winner == 0
    silent = Team(A_ROW, 9.0)
    assert play(silent, Team(None, 20.0), Rules(announce="none")).winner == 0 and silent.asked == 0


def test_when_simultaneous_announcements_are_not_judged_only_the_rows_are():
    rules = Rules(simultaneous_announce=False)
    a, b = Team(A_ROW, 10.0), Team(Row((4, 1, 3, 0), True), 10.0)
    played = play(a, b, rules)
    assert played.winner == 0 and a.asked == b.asked == 0
    lone = Team(A_ROW, 9.0, right(A_HAND, A_ROW))  # a single first shout still announces
    assert play(lone, Team(None, 20.0), rules).winner == 0 and lone.asked == 4


def test_juniors_deal_four_cards_and_place_three():
    rules = Rules.preset("juniors")
    deal = Deal((A_HAND[:4], B_HAND[:4]))  # OR ID WA NV: Idaho, Nevada, Oregon (1, 3, 0)
    row = Row((1, 3, 0), True)
    said = [Said(deal.hands[0][p], None) for p in row.order]
    assert play(Team(row, 5.0, said), Team(None, 9.0), rules, deal).winner == 0


def test_rules_are_validated():
    for bad in ({"cards": 1}, {"cards": 8}, {"placed": 5}, {"placed": 0}, {"announce": "states"},
                {"simultaneous": -1.0}):
        with pytest.raises(RulesError):
            Rules.from_spec(bad)


# ----- the engine's checks and what a seat sees ---------------------------------------------
def test_a_race_is_asked_of_both_at_once_and_a_bad_deal_is_refused():
    state = State(ENGINE, Rules(), DEAL)
    assert state.node.race and state.to_move() == (0, 1)
    a, _ = state.decisions()
    assert a.kind == "claim" and len(a.legal) == 240 and a.observation.hand == A_HAND
    with pytest.raises(IllegalActionError):
        state.apply({0: Claim(Row((0, 0, 1, 2), True), 1.0), 1: Claim(None, 2.0)})
    with pytest.raises(IllegalActionError, match="dealt twice"):
        State(ENGINE, Rules(), Deal((A_HAND, A_HAND)))


def test_the_other_team_sees_the_first_row_and_what_is_said_never_the_face_down_card():
    state = State(ENGINE, Rules(), DEAL)
    state.apply({0: Claim(A_ROW, 9.0), 1: Claim(None, 20.0)})
    seen = state.observe(1)
    assert seen.shouts[0].cards == tuple(card(p) for p in "ID MT NV OR".split()) and seen.shouts[0].shown == ()
    assert state.decisions()[0].kind == "announce" and state.to_move() == (0,)
    state.apply({0: Said(card("ID"), card("ID"))})
    assert state.observe(1).said[0] == (Said(card("ID"), card("ID")),)
    rng = np.random.default_rng(0)
    hidden = set()
    for _ in range(20):  # B keeps its cards and A's row where it lies; A's face-down card is dealt anew
        other = state.resample(1, rng)
        theirs = other.deal.hands[0]
        assert other.deal.hands[1] == B_HAND and [theirs[p] for p in A_ROW.order] == [A_HAND[p] for p in A_ROW.order]
        assert theirs[2] not in B_HAND and other.observe(1) == state.observe(1)
        hidden.add(theirs[2])
    assert len(hidden) > 5


# ----- the batch engine's judge -------------------------------------------------------------
@pytest.mark.parametrize("row,said,expected", [
    (A_ROW, right(A_HAND, A_ROW), None),
    (Row((4, 1, 3, 0), True), right(A_HAND, Row((4, 1, 3, 0), True)), "order"),
    (Row(A_ROW.order, False), right(A_HAND, A_ROW), "face-up"),
    (A_ROW, [Said(card("WY"), card("WY"))] + right(A_HAND, A_ROW)[1:], "state"),
    (A_ROW, right(A_HAND, A_ROW)[:3] + [Said(card("OR"), card("WA"))], "capital"),
])
def test_the_batch_judge_finds_the_reference_engines_fault(row, said, expected):
    rules = Rules()
    played = play(Team(row, 9.0, said), Team(None, 20.0))
    assert played.fault(0) == expected
    claims = Claims(np.array([9.0]), np.array([True]), np.array([row.order]), np.array([row.face_down]),
                    np.array([[-1 if s.state is None else s.state for s in said]]),
                    np.array([[-1 if s.capital is None else s.capital for s in said]]))
    row_fault, said_fault = faults(rules, np.array([A_HAND]), claims)
    found = int(row_fault[0] or said_fault[0])
    assert found == (0 if expected is None else 1 + FAULTS.index(expected))


# ----- records -------------------------------------------------------------------------------
def test_a_record_holds_what_was_claimed_and_replays():
    said = right(A_HAND, A_ROW)
    said[1] = Said(card("MT"), card("WY"))  # Montana, Cheyenne: a wrong capital, kept as said
    played = play(Team(A_ROW, 9.25, said), Team(B_ROW, 12.5))
    record = json.loads(json.dumps(records.to_record(played)))
    assert record["hands"]["A"] == ["OR", "ID", "WA", "NV", "MT"]
    assert record["claims"]["A"] == [{"row": ["ID", "MT", "NV", "OR"], "face_down": True}, 9.25]
    assert record["said"] == {"A": [["ID", "Boise"], ["MT", "Cheyenne"], ["NV", "Carson City"], ["OR", "Salem"]]}
    assert record["result"] == {"winner": "B", "first": ["A"], "seconds": {"A": 9.25, "B": 12.5},
                                "faults": {"A": "capital"}}
    again = records.replay_game(record)
    assert again.said == played.said and again.claims == played.claims


@pytest.mark.parametrize("change,message", [
    (lambda r: r["claims"]["A"][0]["row"].__setitem__(0, "TX"), r"claims\.A\.row: TX is not one of A's cards"),
    (lambda r: r["claims"]["A"][0]["row"].pop(), r"claims\.A\.row: 3 cards, a row holds 4"),
    (lambda r: r["claims"]["A"].__setitem__(1, -2), r"claims\.A: seconds must be"),
    # issue 37: a whole number was accepted and written back as 9.0 (with no result to catch it)
    (lambda r: (r.pop("result"), r["claims"]["A"].__setitem__(1, 9)), r"claims\.A: seconds must be a real number"),
    (lambda r: r["said"]["A"][0].__setitem__(1, "Chicago"), r"said\.A\[0\]: 'Chicago' is not a state capital"),
    (lambda r: r["said"]["A"].pop(), r"said\.A: 3 recorded, A announces 4"),
    (lambda r: r["said"].__setitem__("B", [["TX", "Austin"]] * 4), r"said\.B: B did not announce"),
    (lambda r: r["hands"]["B"].__setitem__(0, "OR"), r"hands: card .* dealt twice"),
    (lambda r: r["result"].__setitem__("winner", "B"), r"result\.winner: the record says 'B'"),
])
def test_a_bad_record_is_one_line_naming_the_place(change, message):
    played = play(Team(A_ROW, 9.0, right(A_HAND, A_ROW)), Team(B_ROW, 12.0))
    record = json.loads(json.dumps(records.to_record(played)))
    change(record)
    from geolab.games.dashing.game import GAME

    with pytest.raises(RecordError, match=message) as error:
        GAME.replay(record)
    assert "\n" not in str(error.value)


# ----- the keyboard's words ------------------------------------------------------------------
def test_the_keyboard_reads_rows_and_announcements():
    state = State(ENGINE, Rules(), DEAL)
    race = state.decisions()[0]
    assert VIEWS.parse(race, "2 5 4 1") == A_ROW and VIEWS.parse(race, "2, 5, 4, 1 face-up") == Row(A_ROW.order, False)
    for bad in ("2 5 4", "2 5 4 4", "2 5 4 9", "ID MT NV OR"):
        with pytest.raises(MoveError):
            VIEWS.parse(race, bad)
    state.apply({0: Claim(A_ROW, 9.0), 1: Claim(None, 20.0)})
    say = state.decisions()[0]
    assert VIEWS.parse(say, "ID Boise") == VIEWS.parse(say, "idaho boise") == Said(card("ID"), card("ID"))
    assert VIEWS.parse(say, "West Virginia Charleston") == Said(card("WV"), card("WV"))
    assert VIEWS.parse(say, "new mexico santa fe") == Said(card("NM"), card("NM"))
    assert VIEWS.parse(say, "MN St Paul") == Said(card("MN"), card("MN"))
    assert VIEWS.parse(say, "? ?") == Said(None, None) and VIEWS.parse(say, "ID ?") == Said(card("ID"), None)
    with pytest.raises(MoveError, match="did you mean Boise"):
        VIEWS.parse(say, "ID Bosie")
    with pytest.raises(MoveError, match="capital too"):
        VIEWS.parse(say, "ID")


def test_the_map_marks_the_cards_by_number_and_names_no_state():
    """The character map: each card's state (by the outlines, `geolab.maps.raster`) drawn in
    its number, other land in dots; the cards' pictures: each card's state in red, titled by number."""
    lines = card_map(A_HAND)
    text = "\n".join(lines)
    assert set(text) <= set(" .\n12345") and not any(code in text for code in POSTAL)
    assert max(len(x) for x in lines) <= 79
    grid = maps.raster(MAP_COLUMNS)
    for r, line in enumerate(lines):
        for c, ch in enumerate(line[len(MAP_INDENT):]):
            if ch.isdigit():
                assert grid[r][c] == POSTAL[A_HAND[int(ch) - 1]]
    assert {ch for ch in text if ch.isdigit()} == set("12345")
    for n, c in enumerate(A_HAND):
        card = map_card(A_HAND, n)
        assert card.word == str(n + 1) and card.code is None and card.name is None
        assert maps.outlines()["states"][POSTAL[c]] in card.picture and f'fill="{maps.RED}"' in card.picture
        assert not any(name in card.picture for name in NAMES)
