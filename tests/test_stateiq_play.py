"""State IQ at the keyboard: its views on hand-made decisions (the words typed, the one-line
refusals) and whole games through a pseudo-terminal as a person would play them."""

from __future__ import annotations

import json
import re

import pytest
from terminal import finish, play_by_hints, run, spawn

from geolab.cards import card
from geolab.game import MoveError
from geolab.games.stateiq.game import GAME
from geolab.games.stateiq.reference import ENGINE, Deal
from geolab.games.stateiq.rules import Rules
from geolab.stepwise import State

VIEWS = GAME.views
POWER = {p: i for i, p in reversed(list(enumerate(["ABC", "ACB", "BAC", "BCA", "CAB", "CBA", "ABC", "ACB", "BAC", "BCA",
                                                    "CAB", "CBA", "AAA", "BBB", "CCC"])))}


def at(order: str, *answers, a="NY", b="TX", rules=None) -> State:
    state = State(ENGINE, rules or Rules(), Deal((card(a), card(b)), POWER[order], None, 0))
    for seat, code in answers:
        state.apply({seat: card(code)})
    return state


def test_a_guess_is_typed_by_postal_code_or_name_and_impossible_ones_are_refused_in_one_line():
    state = at("ABC")
    d = state.decision(0)
    assert VIEWS.parse(d, "tx") == card("TX") and VIEWS.parse(d, "  New   Mexico ") == card("NM")
    assert VIEWS.parse(d, "texas") == card("TX")
    for text, message in (("NY", "NY is your own state"), ("narnia", "is not a state"), ("12", "is not a state")):
        with pytest.raises(MoveError, match=message):
            VIEWS.parse(d, text)
    state.apply({0: card("TN")})
    state.apply({1: card("AR")})
    with pytest.raises(MoveError, match="TN is guessed already"):
        VIEWS.parse(state.decision(0), "tennessee")
    loose = at("ABC", rules=Rules(futile_guesses=True)).decision(0)
    assert VIEWS.parse(loose, "NY") == card("NY")


def test_a_border_clue_is_typed_by_number_code_or_name_and_must_border_the_state():
    state = at("BBB")
    d = state.decision(1)
    assert [VIEWS.label(d, a) for a in d.legal] == ["AR", "LA", "NM", "OK"]
    assert VIEWS.parse(d, "3") == card("NM") and VIEWS.parse(d, "louisiana") == card("LA")
    for text, message in (("CA", "CA does not border TX"), ("TX", "your own state"), ("9", "not on the list")):
        with pytest.raises(MoveError, match=message):
            VIEWS.parse(d, text)
    state.apply({1: card("OK")})
    state.apply({0: card("KS")})
    with pytest.raises(MoveError, match="OK is named already"):
        VIEWS.parse(state.decision(1), "oklahoma")
    screen = "\n".join(VIEWS.screen(state.decision(1)))
    assert "named so far: OK" in screen and "1 AR Arkansas" in screen and "A's wrong guesses so far: KS" in screen


def test_the_story_tells_each_clue_and_guess_and_the_ending_the_verdict():
    state = at("BBB", (1, "NM"), (0, "AZ"), (1, "OK"), (0, "TX"))
    lines = VIEWS.events(state.decisions()[0])
    assert "Phase 1: you guess B's state." in lines and "  Clue 1 from B: a border state: New Mexico (NM)." in lines
    assert "  You guessed AZ (Arizona): wrong." in lines and "  You found B's state in 2 guesses." in lines
    while not state.is_over():
        d = state.decisions()[0]
        state.apply({d.seat: d.legal[0]})
    ending = VIEWS.ending(state.played, 0)
    assert ending[:len(lines)] == lines and (ending[-1] in ("You won.", "You lost.") or "A tie" in ending[-1])


def guess_line(state: State) -> str:
    """The guess decision's "Guess n of m ..." sentence, joined across its wrapped lines."""
    d = state.decisions()[0]
    assert d.kind == "guess"
    text = " ".join(line.strip() for line in VIEWS.screen(d))
    return text[text.index("Guess "):text.index("name a state")]


def test_each_guess_of_the_second_phase_says_what_it_decides():
    """Issue 37, item 11: "Guess 1 of 2 (you stop after it unless right ...)" was untrue of
    guess 1; each guess now says what it decides under the rules."""
    state = at("BBB", (1, "NM"), (0, "AZ"), (1, "OK"), (0, "TX"), (0, "PA"))  # A found TX in 2
    assert guess_line(state) == "Guess 1 of 2 (A found yours in 2 guesses: right now wins; guess 2 is your last): "
    state.apply({1: card("OH")})
    state.apply({0: card("NJ")})
    assert guess_line(state) == ("Guess 2 of 2 (your last: A found yours in 2 guesses, so right ties, wrong "
                                 "loses): ")
    first = at("BBB", (1, "NM"), (0, "TX"), (0, "PA"))  # A found TX in 1
    assert guess_line(first) == "Guess 1 of 1 (your last: A found yours in 1 guess, so right ties, wrong loses): "
    missed = at("BBB", (1, "NM"), (0, "AZ"), (1, "OK"), (0, "KS"), (1, "LA"), (0, "AR"), (0, "PA"))
    assert guess_line(missed) == "Guess 1 of 3 (A missed yours: right wins): "
    assert guess_line(at("BBB", (1, "NM"))) == "Guess 1 of 3: "  # the first phase: nothing to tie


# ----- at a pseudo-terminal -----------------------------------------------------------------
@pytest.mark.parametrize("seed, rules", [(2, []), (7, ["--rules", "borders-only"]), (4, ["--set", "clues=CCC"])])
def test_a_whole_game_played_by_the_hints_replays(tmp_path, seed, rules):
    record = tmp_path / "game.json"
    child = spawn("play", "state-iq", "--vs", "player", "--seed", str(seed), "--record", str(record), "--no-confirm",
                  *rules, home=tmp_path)
    child.logfile_read = open(tmp_path / "screen.txt", "w")
    moves = play_by_hints(child)
    child.close()
    screen = (tmp_path / "screen.txt").read_text()
    assert child.exitstatus == 0, screen[-2000:]
    assert moves >= 1 and re.search(r"You won\.|You lost\.|A tie: ", screen), screen[-2000:]
    assert "Traceback" not in screen
    assert json.loads(record.read_text())["finished"] is True
    replayed = run("replay", str(record), home=tmp_path)
    assert replayed.returncode == 0 and "finished: True" in replayed.stdout, replayed.stderr


def test_mistakes_help_and_undo_at_the_keyboard(tmp_path):
    """Seed 3: A holds NV and guesses first; B holds ME (the first clue is its postal code's M)."""
    child = spawn("play", "state-iq", "--vs", "player", "--seed", "3", "--confirm", home=tmp_path)
    child.expect(r"You hold NV \(Nevada\)")
    child.expect_exact("guess STATE > ")
    child.sendline("NV")
    child.expect("NV is your own state: guess B's")
    child.expect_exact("guess STATE > ")
    child.sendline("help")
    child.expect("its postal code \\('VT'\\) or its name")
    child.expect_exact("guess STATE > ")
    child.sendline("maryland")
    child.expect_exact("Enter: confirm, undo: choose again > ")
    child.sendline("undo")
    child.expect("taken back: choose again")
    child.sendline("maryland")
    child.expect_exact("Enter: confirm, undo: choose again > ")
    child.sendline("")
    child.expect(r"You guessed MD \(Maryland\): wrong")
    child.expect_exact("guess STATE > ")
    child.sendline("undo")
    child.expect("taken back: your last move and the replies to it")
    child.expect_exact("guess STATE > ")
    child.sendline("maine")
    child.expect_exact("Enter: confirm, undo: choose again > ")
    child.sendline("")
    child.expect(r"You guessed ME \(Maine\): right")
    child.expect(r"You found B's state in 1 guess")
    child.expect(r"You won\.|A tie: both found it in 1 guess")
    assert finish(child) == 0
