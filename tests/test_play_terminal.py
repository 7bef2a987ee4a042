"""`geolab play` driven through a pseudo-terminal as a person would (pexpect): the loop's
commands on the test-only game, then a whole game of every real kind."""

from __future__ import annotations

import json
import re

import pytest
from terminal import finish, play_by_hints, run, spawn

#: Top Rank and its match (the rigs: tests/conftest.py) are registered for every test here.
pytestmark = pytest.mark.usefixtures("rigs")

PROMPT = "play CARD > "
CONFIRM = "Enter: confirm, undo: choose again > "
VERDICT = r"You (won|lost|shared the win)\."
PROMPT_END_RE = r"> $"


def test_a_whole_toy_game_with_mistakes_help_hint_and_undo(tmp_path):
    record = tmp_path / "match.json"
    child = spawn("play", "toy", "--vs", "best", "--seed", "3", "--record", str(record), "--confirm", home=tmp_path,
                  toy=True)
    child.expect("you are A, against B/C: best")
    child.expect_exact(PROMPT)
    child.sendline("ZZ")
    child.expect("'ZZ' is not a card of your hand")
    child.expect_exact(PROMPT)
    child.sendline("help")
    child.expect(r"commands:\s+help ")
    child.expect_exact(PROMPT)
    child.sendline("hint")
    child.expect(r"hint: [A-Z]{2}\s+because it has the best size rank")
    child.expect_exact(PROMPT)
    child.sendline("2")
    child.expect_exact(CONFIRM)
    child.sendline("undo")
    child.expect("taken back")
    child.expect_exact(PROMPT)
    for _ in range(3):
        child.sendline("1")
        child.expect_exact(CONFIRM)
        child.sendline("")
    child.expect(VERDICT)
    child.expect("saved: ")
    assert finish(child) == 0
    session = json.loads(record.read_text())
    assert session["finished"] and len(session["games"][0]) == 9
    replayed = run("replay", str(record), home=tmp_path, toy=True)
    assert replayed.returncode == 0 and "finished: True" in replayed.stdout, replayed.stderr


def test_undo_takes_back_a_played_move_and_the_bots_replies(tmp_path):
    record = tmp_path / "match.json"
    child = spawn("play", "toy", "--vs", "best", "--seed", "3", "--record", str(record), home=tmp_path, toy=True)
    child.expect_exact(PROMPT)
    child.sendline("undo")
    child.expect("nothing to undo yet")
    child.sendline("1")
    child.expect(r"round 1 \(size\): you ")  # played, and the bots replied
    child.expect_exact(PROMPT)
    child.sendline("undo")
    child.expect("taken back: your last move and the replies to it")
    child.expect(r"round 1: size")  # round 1 asked again
    child.expect_exact(PROMPT)
    for _ in range(3):
        child.sendline("2" if _ == 0 else "1")
        if _ < 2:
            child.expect_exact(PROMPT)
    child.expect(VERDICT)
    assert finish(child) == 0
    session = json.loads(record.read_text())
    assert session["finished"] and len(session["games"][0]) == 9 and session["games"][0][0][2] == 1


def test_counts_agree_with_their_nouns(tmp_path):
    """Issue 37, item 11: "1 moves replayed" read wrong; a count of one takes the singular."""
    record = tmp_path / "match.json"
    child = spawn("play", "toy", "--rules", "duel", "--seat", "B", "--vs", "best", "--seed", "3", "--record",
                  str(record), home=tmp_path, toy=True)
    child.expect_exact(PROMPT)  # A (a bot) has played its first card, logged before B is asked
    child.sendline("quit")
    child.expect(r"\[y/N\] ")
    child.sendline("y")
    assert finish(child) == 0
    child = spawn("play", "--resume", str(record), home=tmp_path, toy=True)
    child.expect(r"resuming: (\d+ \w+) replayed")
    assert child.match.group(1) == "1 move"
    child.expect_exact(PROMPT)
    child.sendline("quit")
    child.expect(r"\[y/N\] ")
    child.sendline("y")
    assert finish(child) == 0


def test_quit_saves_and_resume_finishes_the_game(tmp_path):
    child = spawn("play", "toy", "--vs", "best", "--seed", "4", "--no-confirm", home=tmp_path, toy=True)
    child.expect_exact(PROMPT)
    child.sendline("1")
    child.expect_exact(PROMPT)
    child.sendline("quit")
    child.expect(r"Quit\? .*\[y/N\] ")
    child.sendline("n")
    child.expect("playing on")
    child.sendline("quit")
    child.expect(r"\[y/N\] ")
    child.sendline("y")
    child.expect(r"saved unfinished; continue it with:\s+geolab play --resume (\S+)")
    path = child.match.group(1)
    assert finish(child) == 0
    assert path.startswith(str(tmp_path / ".geolab" / "games"))
    child = spawn("play", "--resume", path, "--no-confirm", home=tmp_path, toy=True)
    child.expect("3 moves replayed")
    child.expect(r"round 1 \(size\): you ")  # the game so far, shown again
    for _ in range(2):
        child.expect_exact(PROMPT)
        child.sendline("1")
    child.expect(VERDICT)
    assert finish(child) == 0
    assert json.loads(open(path).read())["finished"] is True


def test_the_end_of_input_saves_the_match(tmp_path):
    child = spawn("play", "toy", "--vs", "first", "--seed", "5", "--no-confirm", home=tmp_path, toy=True)
    child.expect_exact(PROMPT)
    child.sendline("1")
    child.expect_exact(PROMPT)
    child.sendeof()
    child.expect("saved unfinished")
    assert finish(child) == 1


@pytest.mark.parametrize("argv, message", [
    (["play"], "name the game to play"),
    (["play", "toy", "--vs", "nobody"], "unknown toy bot"),
    (["play", "toy", "--seat", "Q"], "--seat: 'Q' is not a seat of this game"),
    (["play", "toy", "--set", "seats=9"], "seats: 9 is outside 2-6"),
    (["play", "--resume", "missing.json"], "cannot read"),
    (["play", "--resume", "x.json", "--vs", "best"], "--resume continues a saved match as it was"),
])
def test_bad_arguments_are_one_line_and_exit_2(tmp_path, argv, message):
    child = spawn(*argv, home=tmp_path, toy=True)
    out = child.read()
    child.close()
    assert child.exitstatus == 2 and re.search(re.escape(message), out) and "Traceback" not in out


# ----- a whole match of every real kind, played by the hints -------------------------------
@pytest.mark.parametrize("argv, verdict, moves", [
    (["ranks", "--rules", "battle1", "--vs", "planner"], r"(You|B) won the series\.", 20),
    (["ranks", "--rules", "battle2", "--vs", "counter", "--set", "target_points=4"], r"(You|B) won the series\.", 10),
    (["jumbled", "--set", "players=3", "--vs", "heuristic"], r"(You|Your team) (won|lost)|won with", 10),
    (["class", "--vs", "equilibrium", "--set", "students=10", "--set", "groups=2"],
     r"class champion|won group|won your group|lost", 1),
])
def test_a_whole_match_of_each_game_replays_and_solves(tmp_path, argv, verdict, moves):
    record = tmp_path / "match.json"
    child = spawn("play", *argv, "--seed", "2", "--record", str(record), "--no-confirm", home=tmp_path)
    child.logfile_read = open(tmp_path / "screen.txt", "w")
    made = play_by_hints(child)
    child.close()
    screen = (tmp_path / "screen.txt").read_text()
    assert child.exitstatus == 0, screen[-2000:]
    assert made >= moves and re.search(verdict, screen), screen[-2000:]
    assert "Traceback" not in screen
    session = json.loads(record.read_text())
    assert session["finished"] is True
    replayed = run("replay", str(record), home=tmp_path)
    assert replayed.returncode == 0 and "finished: True" in replayed.stdout, replayed.stderr
    if argv[0] == "ranks":
        assert "Review by the oracle (sees both hands" in screen
        solved = run("solve", str(record), home=tmp_path)
        assert solved.returncode == 0 and "oracle" in solved.stdout, solved.stderr


def test_a_ranks_deal_with_confirmation_undo_and_resume(tmp_path):
    child = spawn("play", "ranks", "--vs", "greedy", "--seed", "9", "--confirm", home=tmp_path)
    child.expect_exact("discard CARD > ")
    child.sendline("OH OH")
    child.expect("\r\n  [^\r\n]+\r\n")  # one line, then the prompt again
    child.expect_exact("discard CARD > ")
    child.sendline("1")
    child.expect_exact("Enter: confirm, undo: choose again > ")
    child.sendline("undo")
    child.expect("taken back")
    child.sendline("2")
    child.expect_exact("Enter: confirm, undo: choose again > ")
    child.sendline("")
    child.expect(PROMPT_END_RE)
    child.sendline("quit")
    child.expect(r"\[y/N\] ")
    child.sendline("y")
    child.expect(r"geolab play --resume (\S+)")
    path = child.match.group(1)
    assert finish(child) == 0
    child = spawn("play", "--resume", path, "--no-confirm", home=tmp_path)
    child.logfile_read = open(tmp_path / "screen.txt", "w")
    child.expect(r"resuming: \d+ moves replayed")
    play_by_hints(child)
    child.close()
    assert child.exitstatus == 0
    assert json.loads(open(path).read())["finished"] is True
