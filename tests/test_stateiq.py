"""State IQ's rules on hand-worked cases: the clue orders (AAA, BBB, CCC among them), Maine's
one border, Hawaii and Alaska with none, who guesses first, the second team's stop, who wins,
the guesses offered, resampling what a seat cannot see, and records refused on one line."""

from __future__ import annotations

import json

import numpy as np
import pytest

from geolab.cards import POWER_DECK, card
from geolab.errors import IllegalActionError, RecordError, RulesError
from geolab.games.stateiq import clues as facts
from geolab.games.stateiq.clues import Clue
from geolab.games.stateiq.game import GAME
from geolab.games.stateiq.reference import ENGINE, STATES, Deal, phases_of, possible_cards, winner_of
from geolab.games.stateiq.rules import Rules
from geolab.stepwise import State

POWER = {p.clues: i for i, p in reversed(list(enumerate(POWER_DECK)))}  # an order -> a Power card of it


def deal(a: str, b: str, order: str, first: int = 0) -> Deal:
    return Deal((card(a), card(b)), POWER[order], None, first)


class Script:
    """A seat that names the first border it may and guesses from a list (then its first legal)."""

    def __init__(self, guesses=()):
        self.guesses = [card(g) for g in guesses]

    def act(self, decision):
        if decision.kind == "guess" and self.guesses:
            return self.guesses.pop(0)
        return decision.legal[0]


def labels(phase) -> list:
    return [c.label() for c in phase.clues]


# ----- the clue orders ----------------------------------------------------------------------
def test_a_clue_order_gives_each_kind_its_next_clue():
    assert facts.program("BAC") == (("B", 0), ("A", 0), ("C", 0))
    assert facts.program("AAA") == (("A", 0), ("A", 1), ("A", 2))
    assert facts.program("CCC") == (("C", 0), ("C", 1), ("C", 2))
    assert facts.program("BBB") == (("B", 0), ("B", 1), ("B", 2))
    assert sorted({p.clues for p in POWER_DECK}) == ["AAA", "ABC", "ACB", "BAC", "BBB", "BCA", "CAB", "CBA", "CCC"]


def test_the_aaa_card_gives_the_postal_codes_two_letters_then_no_clue_but_a_third_guess():
    played = ENGINE.play(Rules(), deal("NY", "TX", "AAA"), [Script(["OK", "AK", "AR"]), Script()])
    first = played.phases[0]
    assert labels(first) == ["T", "X", "-"] and first.found is None and len(first.guesses) == 3
    assert first.clues[2] == Clue("A", 2, None)
    record = GAME.to_record(played)
    assert record["phases"][0]["clues"] == ["T", "X", None]


def test_the_ccc_card_gives_the_capitals_first_three_letters():
    played = ENGINE.play(Rules(), deal("NY", "TX", "CCC"), [Script(["AL", "GA", "NJ"]), Script()])
    assert labels(played.phases[0]) == ["A", "U", "S"]  # Austin
    # Saint Paul and Des Moines: letters, not spaces or punctuation
    assert [facts.letter(card("MN"), "C", i) for i in range(3)] == ["S", "A", "I"]
    assert [facts.letter(card("IA"), "C", i) for i in range(3)] == ["D", "E", "S"]


def test_the_bbb_card_names_three_different_borders_each_asked_of_the_clue_giver():
    state = State(ENGINE, Rules(), deal("NY", "TX", "BBB"))
    asked = state.decisions()[0]
    assert asked.seat == 1 and asked.kind == "clue" and asked.legal == tuple(card(c) for c in ("AR", "LA", "NM", "OK"))
    state.apply({1: card("OK")})
    state.apply({0: card("KS")})  # wrong
    asked = state.decisions()[0]
    assert asked.kind == "clue" and card("OK") not in asked.legal and len(asked.legal) == 3
    state.apply({1: card("NM")})
    assert state.observe(0).phase.clues == (Clue("B", 0, card("OK")), Clue("B", 1, card("NM")))


def test_maine_has_one_border_then_no_more_border_states():
    state = State(ENGINE, Rules(), deal("NY", "ME", "BBB"))
    asked = state.decisions()[0]
    assert asked.kind == "clue" and asked.legal == (card("NH"),)  # asked even with one choice
    state.apply({1: card("NH")})
    state.apply({0: card("VT")})
    assert state.decisions()[0].kind == "guess"  # nothing left to name: no decision
    assert state.observe(0).phase.clues[1] == Clue("B", 1, None)
    assert Clue("B", 1, None).words() == "no more border states"
    # "no more" after NH tells the guesser the state has one border: only Maine fits
    fit = facts.consistent(state.observe(0).phase.clues)
    assert facts.cards_of(fit) == (card("ME"),)


@pytest.mark.parametrize("state_name", ["HI", "AK"])
def test_hawaii_and_alaska_have_no_border_state_to_name(state_name):
    played = ENGINE.play(Rules(), deal("TX", state_name, "BAC"), [Script(["GA", state_name]), Script()])
    first = played.phases[0]
    assert first.clues[0] == Clue("B", 0, None) and first.found == 2
    assert labels(first) == ["none", state_name[0]]  # then the postal code's first letter
    assert facts.cards_of(facts.consistent(first.clues[:1])) == (card("AK"), card("HI"))
    played = ENGINE.play(Rules(), deal("TX", state_name, "BBB"), [Script(["GA", "FL", "AL"]), Script()])
    assert labels(played.phases[0]) == ["none", "none", "none"]


# ----- who guesses first, the stop, who wins ----------------------------------------------
def test_the_statehood_draw_decides_who_guesses_first_unless_it_is_given():
    drawn = Deal((card("TX"), card("ME")), 0, (card("OH"), card("NY")))  # NY 11th beats OH 17th
    assert drawn.first_guesser() == 1
    assert Deal((card("TX"), card("ME")), 0, (card("DE"), card("HI"))).first_guesser() == 0
    assert Deal((card("TX"), card("ME")), 0, (card("OH"), card("NY")), first=0).first_guesser() == 0
    played = ENGINE.play(Rules(), drawn, [Script(), Script()])
    assert played.phases[0].guesser == 1 and played.phases[1].guesser == 0


@pytest.mark.parametrize("first_guesses, second_guesses, found, winner", [
    (["TX"], ["ME"], (1, 1), None),  # both in one: a tie
    (["TX"], ["VT"], (1, None), 0),  # the second team has one guess only
    (["OK", "TX"], ["ME"], (2, 1), 1),  # the second team wins with fewer
    (["OK", "TX"], ["VT", "ME"], (2, 2), None),
    (["OK", "TX"], ["VT", "MA"], (2, None), 0),  # stopped after two: it can no longer tie
    (["OK", "AR", "LA"], ["VT", "MA", "NH"], (None, None), None),  # neither: a tie
    (["OK", "AR", "LA"], ["VT", "MA", "ME"], (None, 3), 1),
])
def test_the_second_team_stops_once_the_game_is_decided_and_fewer_guesses_win(first_guesses, second_guesses,
                                                                               found, winner):
    played = ENGINE.play(Rules(), deal("ME", "TX", "ABC"), [Script(first_guesses), Script(second_guesses)])
    a, b = played.phases
    assert (a.found, b.found) == found and played.winner == winner
    limit = 3 if found[0] is None else found[0]
    assert len(b.guesses) == (b.found or limit)
    assert played.scores().tolist() == ([0.5, 0.5] if winner is None else np.eye(2)[winner].tolist())


def test_winner_of_reads_fewer_guesses_and_ties():
    assert winner_of(1, 2) == 0 and winner_of(3, 1) == 1 and winner_of(2, 2) is None
    assert winner_of(None, None) is None and winner_of(3, None) == 0 and winner_of(None, 1) == 1


# ----- the guesses offered ------------------------------------------------------------------
def test_a_team_is_not_offered_its_own_state_nor_a_repeat_unless_futile_guesses_are_allowed():
    state = State(ENGINE, Rules(), deal("NY", "TX", "ABC"))
    guess = state.decisions()[0]
    assert card("NY") not in guess.legal and len(guess.legal) == 49
    state.apply({0: card("TN")})
    state.apply({1: card("AR")})  # the border clue
    assert card("TN") not in state.decisions()[0].legal and len(state.decisions()[0].legal) == 48
    with pytest.raises(IllegalActionError, match="guess TN is not legal"):
        state.apply({0: STATES[card("TN")]})
    loose = State(ENGINE, Rules(futile_guesses=True), deal("NY", "TX", "ABC"))
    assert len(loose.decisions()[0].legal) == 50


def test_a_clue_must_be_an_unnamed_border_of_the_clue_givers_state():
    state = State(ENGINE, Rules(), deal("NY", "TX", "BBB"))
    for bad in (card("CA"), card("TX"), 99, "OK"):
        with pytest.raises(IllegalActionError):
            state.apply({1: bad})


def test_the_rules_check_a_fixed_clue_order_and_border_kinds():
    assert Rules.preset("borders-only").clues == "BBB"
    with pytest.raises(RulesError, match="clues must be three letters"):
        Rules(clues="ABD").validate()
    with pytest.raises(RulesError, match="clues"):
        Rules.from_spec({"clues": "AB"})
    corners = Rules(four_corners=True, water=True)
    played = ENGINE.play(corners, deal("NY", "AZ", "BBB"), [Script(), Script()])
    assert card("CO") in [c.value for c in played.phases[0].clues] or len(played.phases[0].clues) < 3
    state = State(ENGINE, corners, deal("NY", "AZ", "BBB"))
    assert card("CO") in state.decisions()[0].legal  # the Four Corners contact
    fixed = ENGINE.play(Rules(clues="CCC"), deal("NY", "TX", "ABC"), [Script(["AL", "GA", "NJ"]), Script()])
    assert fixed.order == "CCC" and labels(fixed.phases[0]) == ["A", "U", "S"]


# ----- hidden information ---------------------------------------------------------------------
def test_resampling_keeps_every_clue_true_and_every_wrong_guess_wrong():
    state = State(ENGINE, Rules(), deal("NY", "VT", "BBB"))
    state.apply({1: card("NH")})  # VT borders NH: so do ME and MA
    state.apply({0: card("ME")})  # wrong
    assert possible_cards(Rules(), state.deal, phases_of(Rules(), state.deal, state.log), 0) == (card("MA"), card("VT"))
    rng = np.random.default_rng(1)
    seen = {state.resample(0, rng).deal.cards[1] for _ in range(60)}
    assert seen == {card("MA"), card("VT")}
    # B knows A's card is not its own VT, nor ME: A never guesses its own state
    assert {state.resample(1, rng).deal.cards[0] for _ in range(300)} == set(range(50)) - {card("VT"), card("ME")}


def test_the_second_team_knows_the_first_never_guessed_its_own_state():
    state = State(ENGINE, Rules(), deal("NY", "VT", "BAC"))
    for seat, action in ((1, "MA"), (0, "VA"), (0, "WA"), (0, "VT")):  # a border of VT, then A's guesses
        state.apply({seat: card(action)})
    assert state.observe(0).phases[0].found == 3 and state.decisions()[0].kind == "clue"
    # phase 2, before its first clue: B knows A's card is not VT (its own), VA or WA
    options = possible_cards(Rules(), state.deal, phases_of(Rules(), state.deal, state.log), 1)
    assert set(options) == set(range(50)) - {card("VT"), card("VA"), card("WA")}


# ----- records --------------------------------------------------------------------------------
def a_record() -> dict:
    """A finds B's TX at its second guess; B, one guess from a tie after two wrong, stops."""
    played = ENGINE.play(Rules(), deal("ME", "TX", "BAC", first=0), [Script(["OK", "TX"]), Script(["VT", "MA"])])
    return json.loads(json.dumps(GAME.to_record(played)))


def test_a_record_names_every_clue_and_replays():
    record = a_record()
    assert record["cards"] == {"A": "ME", "B": "TX"} and record["power"] == POWER["BAC"] + 1 and record["first"] == "A"
    assert record["phases"] == [{"guesser": "A", "clues": ["AR", "T"], "guesses": ["OK", "TX"]},
                                {"guesser": "B", "clues": ["NH", "M"], "guesses": ["VT", "MA"]}]
    assert record["result"] == {"winner": "A", "first": "A", "clue_order": "BAC", "found_in": {"A": 2, "B": None},
                                "guesses_made": {"A": 2, "B": 2}}
    assert GAME.report(GAME.replay(record)) == record["result"]


@pytest.mark.parametrize("change, message", [
    (lambda r: r["phases"][0]["clues"].__setitem__(1, "X"),
     r"phases\[0\]\.clues\[1\]: the record says 'X', the game gives 'T' \(the postal code's first letter is T\)"),
    (lambda r: r["phases"][0]["clues"].__setitem__(0, "CA"),
     r"phase 1 \(A guesses\), clue 1: B's clue CA is not legal"),
    (lambda r: r["phases"][0]["clues"].__setitem__(0, "T"),
     r"phases\[0\]\.clues\[0\]: clue 1 is a border state B names"),
    (lambda r: r["phases"][0]["guesses"].append("AL") or r["phases"][0]["clues"].append("A"),
     r"phases\[0\]\.guesses: 3 recorded, the phase ended after 2 \(the card was found\)"),
    (lambda r: r["phases"][1]["guesses"].append("NH") or r["phases"][1]["clues"].append("A"),
     r"phases\[1\]\.guesses: 3 recorded, the phase ended after 2 \(the team could no longer win or tie\)"),
    (lambda r: r["phases"][0].__setitem__("guesser", "B"),
     r"phases\[0\]\.guesser: the record says B, but A guesses first"),
    (lambda r: r["cards"].__setitem__("B", "ME"), "cards: A and B hold the same card ME"),
    (lambda r: r.__setitem__("draw", {"A": "OH", "B": "NY"}), "draw: give either"),
    (lambda r: r.__setitem__("power", 16), "power: expected the Power card's number 1-15"),
    (lambda r: r["phases"][0]["guesses"].__setitem__(0, "ME"), r"A's guess ME is not legal"),
    (lambda r: r["phases"].pop(), r"phases: 1 recorded, the game is not over"),
    (lambda r: r["phases"][0].__setitem__("clues", ["AR"]), r"phases\[0\]: 1 clues for 2 guesses"),
    (lambda r: r["phases"][1]["guesses"].__setitem__(0, "ZZ"), r"phases\[1\]\.guesses\[0\]: unknown postal code 'ZZ'"),
])
def test_a_bad_record_is_one_line_naming_the_place(change, message):
    record = a_record()
    record.pop("result")
    change(record)
    with pytest.raises(RecordError, match=message) as error:
        GAME.replay(record)
    assert "\n" not in str(error.value)


def test_a_state_built_from_a_seats_observation_alone_is_at_the_same_node():
    rng = np.random.default_rng(3)
    for _ in range(40):
        state = State(ENGINE, Rules(), ENGINE.deal(Rules(), rng))
        for _ in range(int(rng.integers(0, 8))):
            if state.is_over():
                break
            d = state.decisions()[0]
            state.apply({d.seat: d.legal[int(rng.integers(len(d.legal)))]})
        if state.is_over():
            continue
        seat = state.to_move()[0]
        other = ENGINE.determinize(Rules(), seat, state.observe(seat), rng)
        assert other.observe(seat) == state.observe(seat) and other.decision(seat).legal == state.decision(seat).legal
