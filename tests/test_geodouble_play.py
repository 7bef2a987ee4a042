"""GeoDouble at the keyboard (`geolab play geodouble`): its views (the race screen, claims
typed as groups or six codes, wrong claims, one-line mistakes, stage 2 through Play the Ranks'
views) and the real race against the clock (the bot's claim is the person's deadline), with
scripted keyboards on a simulated clock, and one race at a pseudo-terminal."""

from __future__ import annotations

import itertools
import json
import re

import numpy as np
import pytest
from terminal import finish, spawn

from geolab import records, registry
from geolab.cards import POSTAL, card
from geolab.game import Decision, MoveError
from geolab.games.geodouble.reference import WRONG, MatchView, Solution, solutions
from geolab.games.geodouble.rules import Rules
from geolab.games.geodouble.views import VIEWS, claim_label
from geolab.games.ranks import reference as ranks
from geolab.lab.play import Adjourned, Match, Person, TimeUp, play_match, replay_session, seat_bots

WIDTH = 79
PROMPT = "GeoPlunge! 6 CARDS (or pass) > "


def cards(text: str) -> tuple[int, ...]:
    return tuple(sorted(card(p) for p in text.split()))


#: A hand of 18 with 37 solutions (docs/groups.md's), and one holding the brief's example.
RICH = cards("AL AK CA DE GA HI KY MD MA MN MS NH NM NY OH OR SC WV")
TEXT = cards("MD VA NC ME NY TX AL AK AZ CO DE FL HI ID IL IN IA KS")


def race(hand=RICH, rules=None) -> Decision:
    rules = rules or Rules()
    view = MatchView(rules, 0, 0, (0, 0), (), race_hand=hand, attempt=1)
    return Decision(0, "claim", view, (*solutions(rules, hand), WRONG), "round 1, race", timed=True)


# ----- the race's views ---------------------------------------------------------------------
def test_the_race_screen_shows_the_cards_not_their_capitals_or_borders():
    d = race()
    lines = VIEWS.screen(d)
    text = "\n".join(lines)
    assert lines[0] == "GeoDouble round 1: A (you) 0 - B 0, first to 50; the race winner deals."
    assert all(POSTAL[c] in text for c in RICH) and "Alaska" in text and "New Hampshire" in text
    assert not any(capital in text for capital in ("Montgomery", "Juneau", "Concord", "Annapolis"))
    assert not re.search(r"[A-Z]{2} borders", text) and not re.search(r"begin with [A-Z]\b", text)
    assert all(len(x) <= WIDTH for x in lines + VIEWS.help(d))
    example = re.search(r"Claim: '([A-Z /]+)'", text).group(1)
    codes = example.replace("/", " ").split()
    assert len(codes) == 6 and sum(card(c) in RICH for c in codes) <= 3


def test_a_claim_reads_as_two_groups_either_first_or_six_codes_in_any_order():
    d = race(TEXT)
    text = Solution(cards("MD VA NC"), cards("ME NY TX"))
    assert VIEWS.parse(d, "MD VA NC / ME NY TX") == text
    assert VIEWS.parse(d, "me ny tx / md va nc") == text  # capital group first
    assert VIEWS.parse(d, "TX NC me, VA ny MD") == text  # six codes: the split is found
    assert VIEWS.parse(d, "MD VA NC + ME NY TX") == text
    assert claim_label(text) == "MD NC VA / ME NY TX" and VIEWS.parse(d, claim_label(text)) == text
    for action in d.legal:
        assert VIEWS.parse(d, VIEWS.label(d, action)) == action


def test_six_cards_of_the_hand_that_hold_no_split_are_a_wrong_claim():
    d = race(TEXT)
    assert VIEWS.parse(d, "MD VA NC / AL AK AZ") == WRONG
    assert VIEWS.parse(d, "ME NY TX / MD VA AL") == WRONG  # a capital group, but no border group
    assert VIEWS.parse(d, "wrong claim") == WRONG and VIEWS.label(d, WRONG) == "wrong claim"
    assert "gives B the race" in " ".join(" ".join(VIEWS.help(d)).split())
    assert VIEWS.echo(d, WRONG, "MD VA NC AL AK AZ").startswith("-> wrong claim (MD VA NC AL AK AZ: no border")


@pytest.mark.parametrize("text, message", [
    ("MD VA NC ME NY ZZ", "'ZZ' is not a postal code"),
    ("MD VA NC ME NY OH", "OH is not in your hand"),
    ("MD VA NC ME NY", "a claim is six cards, two groups of three, not 5"),
    ("MD VA NC ME NY TX AL", "not 7"),
    ("MD VA NC ME NY MD", "MD is named twice"),
    ("MD VA / NC ME NY TX", "each group is three cards, not 2 and 4"),
    ("MD VA / NC ME / NY TX", "two groups at most"),
    ("1 2 3 4 5 6", "'1' is not a postal code: type the cards' postal codes"),
    ("", "a claim is six cards"),
])
def test_a_malformed_claim_is_one_line(text, message):
    with pytest.raises(MoveError, match=re.escape(message)) as error:
        VIEWS.parse(race(TEXT), text)
    assert "\n" not in str(error.value) and len(str(error.value)) < WIDTH


def test_examples_never_hand_over_a_claim():
    rng = np.random.default_rng(3)
    for _ in range(200):
        hand = tuple(sorted(rng.choice(50, 18, replace=False).tolist()))
        d = race(hand)
        shown = " ".join(VIEWS.screen(d) + VIEWS.help(d))
        for s in d.legal[:-1]:
            assert claim_label(s) not in shown


def test_the_declaration_screen_offers_only_the_points_still_open():
    """Issue 37, item 11: after B declined, GeoDouble's declaration screen still offered the
    20-point total; after B's answer only the two totals A's answer can still make are shown."""
    rules = Rules()
    hand, discards = cards("AL DE FL IA ID IN"), cards("AK CA")

    def shown(first: int, other) -> str:
        stage = ranks.View(rules.stage, 0, hand, discards, None, first, (None, other), None, ())
        d = Decision(0, "declare", MatchView(rules, 0, 1, (10, 35), (), stage=stage), (False, True), "declarations")
        return " ".join(" ".join(VIEWS.screen(d) + VIEWS.help(d)).split())

    assert "the stage winner scores 5, 10 if one of you declares, 20 if both do. Winning it makes you 15/20/30; B " \
           "winning makes B 40/45/55 (reaching 50)." in shown(0, None)
    declined = shown(1, False)
    assert "B did not declare, so the stage winner scores 5, 10 if you declare. Winning it makes you 15/20; B " \
           "winning makes B 40/45." in declined and "20 if both" not in declined and "/30" not in declined
    declared = shown(1, True)
    assert "B declared, so the stage winner scores 10, 20 if you declare too. Winning it makes you 20/30; B " \
           "winning makes B 45/55 (reaching 50)." in declared


# ----- a keyboard on a simulated clock ------------------------------------------------------
class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Keyboard:
    """A person who reads the screen: each prompt answered by `answer(kind, round, screen)`
    (kind: claim, discard, declare, lead, answer, confirm, quit), an answer a line or
    (seconds, line) typed that long after the prompt; a read with a timeout shorter than the
    delay runs the clock to it and raises `TimeUp` (the line is lost, as a terminal's is)."""

    KINDS = (("GeoPlunge!", "claim"), ("discard", "discard"), ("declare", "declare"), ("lead", "lead"),
             ("answer", "answer"), ("Enter: confirm", "confirm"), ("Quit?", "quit"))

    def __init__(self, answer, clock: Clock):
        self.answer, self.clock, self.out, self.timeouts = answer, clock, [], []

    def read(self, prompt: str, timeout: float | None = None) -> str:
        self.out.append(prompt)
        kind = next(k for start, k in self.KINDS if prompt.startswith(start))
        rounds = [int(m.group(1)) for line in self.out if (m := re.match(r"GeoDouble round (\d+):", line))]
        item = self.answer(kind, rounds[-1] if rounds else 1, self.screen())
        if item is None:
            raise EOFError
        delay, line = item if isinstance(item, tuple) else (0.0, item)
        if timeout is not None:
            self.timeouts.append(timeout)
            if delay > timeout:
                self.clock.now += timeout
                raise TimeUp
        self.clock.now += delay
        return line

    def write(self, line: str = "") -> None:
        self.out.append(line)

    def screen(self) -> list[str]:
        start = max((i for i, line in enumerate(self.out) if line.startswith("GeoDouble round")), default=0)
        return self.out[start:]

    @property
    def text(self) -> str:
        return "\n".join(self.out)


def hand_on(screen: list[str]) -> tuple[int, ...]:
    """The race hand as the screen shows it (the rows under "Your 18 cards:")."""
    start = next(i for i, line in enumerate(screen) if line.startswith("Your ") and line.endswith(" cards:"))
    codes = [w for line in screen[start + 1:start + 7] for w in line.split() if re.fullmatch(r"[A-Z]{2}", w)]
    return cards(" ".join(codes))


def right(hand) -> str | None:
    """A solution of the hand typed as six codes in a jumbled order, or None."""
    found = solutions(Rules(), hand)
    if not found:
        return None
    six = [POSTAL[c] for c in (*found[0].border, *found[0].capital)]
    return " ".join(six[::2] + six[1::2])


def wrong(hand) -> str:
    """Six cards of the hand that hold no solution."""
    sets = [{*s.border, *s.capital} for s in solutions(Rules(), hand)]
    six = next(c for c in itertools.combinations(hand, 6) if set(c) not in sets)
    return " ".join(POSTAL[c] for c in six)


def match(seed: int, vs: str = "player") -> Match:
    entry = registry.get("geodouble")
    rules = entry.game.Rules.preset("official")
    return Match(entry, rules, seed, 0, seat_bots(entry, rules, 0, vs))


def played(m: Match, answer, confirm=False, resumed=None) -> Keyboard:
    clock = Clock()
    keys = Keyboard(answer, clock)
    try:
        play_match(m, Person(m.game.views, keys, confirm=confirm, clock=clock), keys.write, resumed)
    except Adjourned:
        pass
    return keys


def stage_moves(kind: str, rnd: int):
    return {"discard": "1 2", "declare": "y" if rnd == 1 else "n", "lead": "1 size", "answer": "1",
            "confirm": "", "quit": "y"}[kind]


def claims_by_round(m: Match) -> list[list]:
    return [move for move in m.games[0] if move[1] == "claim"]


SEED = 6  # round 1: the person's hand holds a solution; round 4: B claims rightly


def test_a_whole_match_at_the_keyboard_claims_right_wrong_pass_too_late_then_plays_the_tricks():
    races = {1: ["twice", (0.4, "ZZ TX"), (0.3, "undo"), (0.2, "hint"), (0.2, "moves")]}

    def answer(kind, rnd, screen):
        if kind != "claim":
            return stage_moves(kind, rnd)
        hand = hand_on(screen)
        if races.get(rnd):
            said = races[rnd].pop(0)
            return (0.5, f"{POSTAL[hand[0]]} {POSTAL[hand[0]]}") if said == "twice" else said
        if rnd == 2:
            return 1.0, wrong(hand)
        if rnd == 3:
            return 2.0, "pass"
        if rnd == 4:
            return 10_000.0, right(hand) or "pass"  # far too late: B calls first
        return 1.5, right(hand) or "pass"

    m = match(SEED)
    keys = played(m, answer)
    text = keys.text
    assert m.finished and re.search(r"You (won|lost) the match \d+-\d+\.$", text)
    claims = claims_by_round(m)
    # a claim is [seat, kind, index, label, seconds]; a person's wrong claim adds the cards it laid
    assert len(claims) >= 4 and all(len(c) == (6 if c[0] == 0 and c[3] == "wrong claim" else 5) for c in claims)
    mine = [c for c in claims if c[0] == 0]
    theirs = [c for c in claims if c[0] == 1]
    # round 1: five mistakes or refusals, each one line, asked again each time; then the claim in time
    twice = POSTAL[m.played[0].rounds[0].race.races[-1][0][0]]
    assert "  'ZZ' is not a postal code (help)" in keys.out
    assert f"  {twice} is named twice: a claim is six different cards (help)" in keys.out
    assert "  no undo in a race: claim, or pass" in keys.out
    assert any(line.startswith("  no hint in a race: it is yours to find; geolab groups") for line in keys.out)
    assert any(line.startswith("  no moves in a race") for line in keys.out)
    assert keys.out.count(PROMPT) >= 6 + 3
    assert mine[0][2] >= 0 and mine[0][4] == pytest.approx(0.5 + 0.4 + 0.3 + 0.2 + 0.2 + 1.5)
    assert "Round 1, the race: You called GeoPlunge at 3.1 s:" in text and "You won the race: 10 points." in text
    # what the race teaches, told at the next decision (stage 2's discard), not only at the end
    hand1 = m.played[0].rounds[0].race.races[-1][0]
    clock = f"  The clock: you: called at 3.1 s; B: would have called at {theirs[0][4]:.1f} s."
    assert keys.out.index(clock) < keys.out.index("discard 2 CARDS > ")
    assert f"  Your hand held {len(solutions(Rules(), hand1))} solutions; the first 3:" in keys.out
    assert any(line.startswith("  B's claim would have been ") for line in keys.out)
    # round 2: a wrong claim gives B the race
    hand2 = m.played[0].rounds[1].race.races[-1][0]
    assert mine[1][2:4] == [len(solutions(Rules(), hand2)), "wrong claim"]
    laid = m.played[0].rounds[1].race.claims[0].laid  # the cards kept, as the log says them
    assert len(laid) == 1 and set(laid[0]) <= set(hand2) and mine[1][5] == " ".join(POSTAL[c] for c in laid[0])
    assert "Round 2, the race: You called GeoPlunge at 1.0 s with a wrong claim: " + mine[1][5] in \
        " ".join(text.split())
    assert f"  Your claim {mine[1][5]} was wrong:" in keys.out
    assert "B won the race (your wrong claim gives it): 10 points." in text
    # round 3: pass; round 4: B's claim is the deadline, and the person's line never arrives
    assert mine[2][2:4] == [-1, "pass"] and mine[2][4] == pytest.approx(2.0)
    assert mine[3][2:4] == [-1, "pass"] and mine[3][4] >= theirs[3][4]
    assert keys.timeouts and max(keys.timeouts) <= max(c[4] for c in theirs)
    b = m.played[0].rounds[3].race.claims[1]
    assert f"  B called GeoPlunge at {b.seconds:.1f} s: {claim_label(b.action)}." in keys.out
    assert "  Your time is up: no claim from you." in keys.out
    # stage 2: discards, declarations (round 1: yes), tricks, with the match line on every screen
    kinds = {move[1] for move in m.games[0]}
    assert kinds == {"claim", "discard", "declare", "lead", "follow"}
    assert "You declared GeoPlunging." in text and "Declaring changes only the points" in text
    assert re.search(r"Trick 6, base 1: .*\n.*Tricks: you \d, B \d\.\nStage 2: you (won|lost) \d-\d", text)
    assert re.search(r"Round over: you \+\d+, B \+\d+\. Score: A \(you\) \d+, B \d+\.", text)
    assert all(len(line) <= WIDTH for line in keys.out)
    # the session file replays move by move, and as a record
    again, stopped = replay_session(json.loads(json.dumps(m.to_json())))
    assert stopped is None and again.finished and again.games == m.games
    assert records.replay(m.to_json())["games"][0] == m.game.report(m.played[0])


def test_a_bot_wrong_claim_at_the_deadline_gives_the_person_the_race():
    m = match(SEED, "player:error=1")  # every claim of B's is wrong

    def answer(kind, rnd, screen):
        return (10_000.0, "pass") if kind == "claim" else stage_moves(kind, rnd) if rnd < 2 else None

    keys = played(m, answer)
    assert any(re.fullmatch(r"  B called GeoPlunge at \d+\.\d s, a wrong claim: the race is yours\.", line)
               for line in keys.out)
    assert "You won the race (B's wrong claim gives it): 10 points." in keys.text
    assert m.games[0][:2] == [[0, "claim", -1, "pass", m.games[0][1][4]], m.games[0][1]]
    assert m.games[0][1][3] == "wrong claim"


def test_confirm_shows_a_wrong_claim_before_enter_and_the_deadline_holds_for_enter():
    m = match(SEED)
    said = [(0.1, "wrong"), "six wrong"]
    confirms = [(0.1, "undo"), (10_000.0, "")]

    def answer(kind, rnd, screen):
        if rnd > 1:
            return None
        if kind == "claim":
            item = said.pop(0)
            return (0.2, wrong(hand_on(screen))) if item == "six wrong" else item
        if kind == "confirm":
            return confirms.pop(0) if confirms else (0.1, "")
        return stage_moves(kind, rnd)

    keys = played(m, answer, confirm=True)
    assert "  -> wrong claim (a claim you know is wrong): it gives B the race" in keys.out
    assert "  taken back: choose again" in keys.out
    assert any(line.startswith("  -> wrong claim (") and ": no border group + capital" in line for line in keys.out)
    assert "  Your time is up: no claim from you." in keys.out  # Enter came after B's call
    assert m.games[0][0][2:4] == [-1, "pass"]


def test_undo_in_stage_two_takes_back_the_trick_but_never_the_race():
    leads = []

    def answer(kind, rnd, screen):
        if kind == "claim":
            return 1.0, right(hand_on(screen)) or "pass"
        if kind == "discard" and not leads:
            leads.append("asked")
            return "undo"  # the last move is the race claim: refused
        if kind in ("lead", "answer") and len(leads) == 1:
            leads.append("played")
            return "2" if kind == "answer" else "2 pop"
        if kind in ("lead", "answer") and len(leads) == 2:
            leads.append("undone")
            return "undo"
        if rnd > 1:
            return None
        return stage_moves(kind, rnd)

    m = match(SEED)
    keys = played(m, answer)
    assert "  your last move was a race claim: a race is never run again" in keys.out
    assert "  taken back: your last move and the replies to it" in keys.out
    log = m.games[0]
    first_trick = next(move for move in log if move[0] == 0 and move[1] in ("lead", "follow"))
    assert first_trick[2] == 0  # played again as "1", nothing left of the move taken back
    assert [move[1] for move in log[:3]] == ["claim", "claim", "discard"]  # the race, once a seat
    again, stopped = replay_session(json.loads(json.dumps(m.to_json())))
    assert stopped is not None and again.games == m.games


def test_a_match_quit_in_stage_two_resumes_from_its_session_file_and_finishes():
    def quitting(kind, rnd, screen):
        if kind == "claim":
            return 1.0, right(hand_on(screen)) or "pass"
        if rnd == 2 and kind == "lead":
            return "quit"
        if rnd == 2 and kind == "answer":
            return "quit"
        return stage_moves(kind, rnd)

    m = match(SEED + 1)
    played(m, quitting)
    saved = json.loads(json.dumps(m.to_json()))
    assert saved["finished"] is False and saved["game"] == "geodouble"
    assert records.replay(saved)["next"].startswith("game 1: A's ")
    done, games = replay_session(saved)[0], saved["games"]
    again = Match(done.entry, done.rules, done.seed, done.you, done.bots)

    def playing(kind, rnd, screen):
        if kind == "claim":
            return 1.0, right(hand_on(screen)) or "pass"
        return stage_moves(kind, rnd)

    keys = played(again, playing, resumed=games)
    assert again.finished and again.games[0][:len(games[0])] == games[0]
    assert "Round 1, the race: You called GeoPlunge" in keys.text  # the match so far, shown again
    assert replay_session(json.loads(json.dumps(again.to_json())))[0].finished


@pytest.mark.usefixtures("rigs")
def test_the_toy_race_keeps_its_keyboard_without_a_timeout():
    """A keyboard whose read takes no timeout (the toy's tests) is judged by the clock."""
    entry = registry.get("toy")
    rules = entry.game.Rules.preset("race")
    m = Match(entry, rules, 3, 0, seat_bots(entry, rules, 0, "best"))

    class Plain:
        def __init__(self):
            self.out = []

        def read(self, prompt):
            self.out.append(prompt)
            return "1"

        def write(self, line=""):
            self.out.append(line)

    clock = Clock()
    plain = Plain()
    play_match(m, Person(entry.game.views, plain, clock=clock), plain.write)
    assert m.finished and m.games[0][0][2:4] == [0, POSTAL[m.played[0].hands[0][0]]]
    late = Match(entry, rules, 3, 0, seat_bots(entry, rules, 0, "best"))

    class Slow(Plain):
        def read(self, prompt):
            clock.now += 1000.0
            return super().read(prompt)

    slow = Slow()
    play_match(late, Person(entry.game.views, slow, clock=clock), slow.write)
    assert late.games[0][0][2:4] == [-1, "pass"] and any("claimed first, at" in line for line in slow.out)


# ----- at a pseudo-terminal -----------------------------------------------------------------
def _hand(child) -> tuple[int, ...]:
    child.expect(r"Your 18 cards:\r\n((?:  [^\r\n]*\r\n){6})")
    return cards(" ".join(re.findall(r"\b[A-Z]{2}\b", child.match.group(1))))


def test_a_race_at_a_pseudo_terminal_answered_in_time(tmp_path):
    record = tmp_path / "match.json"
    child = spawn("play", "geodouble", "--vs", "player:speed=0.05", "--seed", str(SEED), "--record", str(record),
                  home=tmp_path)
    child.logfile_read = open(tmp_path / "screen.txt", "w")
    claim = right(_hand(child))
    child.expect_exact(PROMPT)
    child.sendline("moves")
    child.expect("no moves in a race")
    child.expect_exact(PROMPT)
    child.sendline(claim)
    child.expect(r"Round 1, the race: You called GeoPlunge at \d+\.\d s: ")
    child.expect("You won the race: 10 points")
    child.expect_exact("discard 2 CARDS > ")
    child.sendline("quit")
    child.expect(r"\[y/N\] ")
    child.sendline("y")
    child.expect(r"geolab play --resume (\S+)")
    assert finish(child) == 0
    assert "Traceback" not in (tmp_path / "screen.txt").read_text()
    mine, theirs = json.loads(record.read_text())["games"][0][:2]
    assert mine[:2] == [0, "claim"] and mine[2] >= 0 and mine[4] < theirs[4]


def test_a_race_at_a_pseudo_terminal_lost_to_the_clock(tmp_path):
    record = tmp_path / "match.json"
    child = spawn("play", "geodouble", "--vs", "player:speed=4", "--seed", str(SEED), "--record", str(record),
                  home=tmp_path)  # a fast bot: its claim comes in seconds, so the test waits little
    child.expect_exact(PROMPT)
    child.send("MD VA")  # half a claim when B calls: dropped, it does not run into the next line
    child.expect(r"B called GeoPlunge at (\d+\.\d) s: [A-Z /]+\.\r\n\s+Your time is up: no claim from you\.",
                 timeout=60)
    child.expect_exact("discard 2 CARDS > ")
    child.sendline("quit")
    child.expect(r"\[y/N\] ")
    child.sendline("y")
    assert finish(child) == 0
    mine, theirs = json.loads(record.read_text())["games"][0][:2]
    assert mine[:4] == [0, "claim", -1, "pass"] and mine[4] >= theirs[4] and theirs[2] >= 0
