"""`geolab class-round`: a teacher runs a real class's round (the class game's ``command``
offer, `geolab.games.classroom.offers`). A scripted class of 12 in 3 groups is judged as the
rules judge it (computed here from the card ranks alone), bad entries are one line and asked
again, a saved class reopens to the same class, and a malformed file is exit code 2."""

import io
import json

import numpy as np
import pytest

from geolab.bots.classroom.registry import BOTS
from geolab.cards import CATEGORIES, POSTAL, RANKS
from geolab.cli import main
from geolab.games.classroom.observations import observe
from geolab.games.classroom.offers.teacher import from_json, judge, to_json
from geolab.games.classroom.rules import Rules

NAMES = ["Ana", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ike", "Jo", "Kim", "Lu"]
#: (call, category, each player's cards: kept, kept[, discarded]) a round, in play order: a tie
#: in group 2, a tie in the Championship, then its replay
ROUNDS = [
    ("top dog", "size", ["AK TX / CA", "MT NM / SD", "RI DE", "MN NE", "CO WY / NV", "OR UT / KS", "ID AZ",
                         "HI VT", "ND MO / OK", "WA GA", "MI IA", "IL WI / FL"]),
    ("bottoms up", "population", ["WY AK / CA", "VT ND / SD", "HI DE / TX", "MT RI"]),
    ("top dog", "statehood", ["DE PA / NJ", "GA CT"]),
]


def script(rounds=ROUNDS) -> list[str]:
    lines = ["# the class list, typed in advance", ", ".join(NAMES[:6]), ", ".join(NAMES[6:]), "", "3"]
    for call, category, cards in rounds:
        lines += [call, category, *cards]
    return lines


def run(capsys, tmp_path, lines, *argv, name="class.json"):
    path = tmp_path / "typed.txt"
    path.write_text("".join(line + "\n" for line in lines))
    code = main(["class-round", "--from", str(path), "--save", str(tmp_path / name), *argv])
    out, err = capsys.readouterr()
    return code, out, err


def expected_rounds():
    """Who wins each round, from the ranks alone: the lowest (Top Dog) or highest (Bottoms Up)
    sum of the kept cards in each group, every tied student a winner; the group winners play
    the Championship, tied finalists play it again."""
    groups, players, out = [NAMES[0:4], NAMES[4:8], NAMES[8:12]], None, []
    for call, category, cards in ROUNDS:
        contests = groups if players is None else [players]
        typed = iter(cards)
        winners = []
        for contest in contests:
            sums = {}
            for name in contest:
                kept = [POSTAL.index(c) for c in next(typed).split("/")[0].split()]
                sums[name] = int(RANKS[kept, CATEGORIES.index(category)].sum())
            best = (min if call == "top dog" else max)(sums.values())
            winners.append([n for n in contest if sums[n] == best])
        out.append(winners)
        players = [n for w in winners for n in w]
    return out


def test_a_class_of_twelve_is_judged_as_the_rules_judge_it(capsys, tmp_path):
    code, out, err = run(capsys, tmp_path, script())
    assert code == 0 and err == ""
    expected = expected_rounds()
    # the class has what the test is for: a tie in a group, a tie in the Championship, a replay
    assert [len(w) for w in expected[0]] == [1, 2, 1] and len(expected[1][0]) == 2 and len(expected[2][0]) == 1
    sheet = from_json(json.loads((tmp_path / "class.json").read_text()))
    judged = judge(sheet)
    got = [[[sheet.seats[s] for s in rnd.winners if s in {x for x, _, _ in contest}] for contest in rnd.contests]
           for rnd in judged.history]
    assert got == expected
    tied = expected[0][1]
    assert f"{tied[0]} and {tied[1]} tie at" in out and "play the Championship again" in out
    finalists = [n for w in expected[0] for n in w]
    assert f"To the Championship: {', '.join(finalists[:-1])} and {finalists[-1]}." in out
    assert f"Class champion: {expected[-1][0][0]}." in out
    assert max(len(line) for line in out.splitlines() if str(tmp_path) not in line) <= 79


def test_the_advice_is_the_equilibrium_bots_discard(capsys, tmp_path):
    code, out, _ = run(capsys, tmp_path, script())
    bot = BOTS.make("equilibrium", Rules(students=12, groups=3))
    agreed = asked = 0
    for r, (call, _, cards) in enumerate(ROUNDS):
        opponents = 3 if r == 0 else len(cards) - 1
        for text in cards:
            if "/" not in text:
                continue
            hand = sorted(POSTAL.index(c) for c in text.replace("/", " ").split())
            best = hand[int(bot.act(observe([hand], int(call == "bottoms up"), opponents))[0])]
            said = text.split("/")[1].strip()
            asked += 1
            agreed += POSTAL[best] == said
            line = f"discarded {said}" + (": the equilibrium discard" if POSTAL[best] == said
                                          else f"; the equilibrium discards {POSTAL[best]}")
            assert line in " ".join(out.split())
    assert code == 0 and f"{agreed} of {asked} discards entered were the equilibrium's" in out
    assert "wins about" in out  # the hint's reason (ClassViews.reason), said for each


#: (a bad line, where it is typed: before the i-th line of the clean script, what the one line says)
BAD = [
    ("Ana", 2, "Ana is already in the class"),
    ("", 2, "6 students: the game is for 10 to 32"),
    ("7", 4, "7 groups: the rules allow 2-6 groups"),
    ("Ana, Ben, Cy, Dee, Eve / Fay, Gus, Hal / Ike, Jo, Kim, Lu", 4, "group sizes 5, 3, 4 differ by more than one"),
    ("top cat", 5, "'top cat' is not a call"),
    ("s", 6, "'s' is not a GeoPower card"),
    ("AK ZZ", 7, "'ZZ' is not a card"),
    ("AK", 7, "1 card: give the two kept cards"),
    ("AK TX CA NY", 7, "4 cards: give the two kept cards"),
    ("AK AK", 7, "AK is named twice"),
    ("MT TX / SD", 8, "TX is already Ana's (kept): each card is dealt once a deck"),
    ("RI CA", 9, "CA is already Ana's (discarded)"),
]


def test_bad_entries_are_one_line_and_asked_again_and_nothing_is_lost(capsys, tmp_path):
    clean = script()
    code, out, _ = run(capsys, tmp_path, clean, name="clean.json")
    assert code == 0
    noisy = list(clean)
    for line, before, _ in sorted(BAD, key=lambda b: -b[1]):
        noisy.insert(before, line)
    # a valid but wrong entry taken back with undo, then typed again
    noisy.insert(noisy.index("HI VT"), "HI SC")
    noisy.insert(noisy.index("HI VT"), "undo")
    code, out, _ = run(capsys, tmp_path, noisy, name="noisy.json")
    assert code == 0
    lines = out.splitlines()
    for bad, _, said in BAD:
        (i,) = [i for i, line in enumerate(lines) if said in line]
        asked = lines[i - 1].split("> ")[0]
        # the bad line typed, one line saying why, and the same question asked again
        assert lines[i - 1] == f"{asked}> {bad}" and lines[i].startswith("  ") and lines[i + 1].startswith(asked)
    assert "taken back: Hal's cards HI SC" in out
    assert json.loads((tmp_path / "noisy.json").read_text()) == json.loads((tmp_path / "clean.json").read_text())


def test_a_saved_class_reopens_where_it_stopped(capsys, tmp_path, monkeypatch):
    lines = script()
    code, whole, _ = run(capsys, tmp_path, lines, name="whole.json")
    assert code == 0
    saved = json.loads((tmp_path / "whole.json").read_text())
    assert saved["format"] == "geolab-class-round/1" and to_json(from_json(saved)) == saved
    # reopened when finished: the same judging and advice, nothing asked
    code, out, _ = run(capsys, tmp_path, [], "--open", str(tmp_path / "whole.json"), name="whole.json")
    def rows(text):  # every student's kept cards and sum in every round
        return [line for line in text.splitlines() if " + " in line and " = " in line]

    assert code == 0 and len(rows(whole)) == 12 + 4 + 2 and rows(out) == rows(whole)
    assert out.split("Class champion")[1] == whole.split("Class champion")[1]  # the champion and the advice
    # stopped in the Championship (the input ended): saved, exit 1; reopened with the rest: the same class
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    cut = lines.index("VT ND / SD")
    code, out, _ = run(capsys, tmp_path, lines[:cut], name="half.json")
    assert code == 1 and "stopped: the input ended" in out and "--open" in out
    half = json.loads((tmp_path / "half.json").read_text())
    assert half["rounds"][1]["cards"] == {"Ana": ["WY", "AK", "CA"]}
    code, out, _ = run(capsys, tmp_path, lines[cut:], "--open", str(tmp_path / "half.json"), name="half.json")
    assert code == 0 and json.loads((tmp_path / "half.json").read_text()) == saved


def corrupt(saved, how):
    data = json.loads(json.dumps(saved))
    if how == "format":
        data["format"] = "geolab-class-round/9"
    elif how == "card":
        data["rounds"][0]["cards"]["Ben"] = ["MT", "ZZ"]
    elif how == "twice":
        data["rounds"][0]["cards"]["Ben"] = ["MT", "AK"]
    elif how == "groups":
        data["groups"][0].append(data["groups"][1].pop())
    elif how == "student":
        data["rounds"][1]["cards"]["Cy"] = ["AL", "AR"]
    elif how == "after":
        data["rounds"].append({"call": "top-dog", "category": "size", "cards": {}})
    elif how == "unfinished":
        del data["rounds"][0]["cards"]["Lu"]
    elif how == "rules":
        data["rules"]["students"] = 13
    elif how == "field":
        data["teacher"] = "me"
    return json.dumps(data)


@pytest.mark.parametrize("how", ["json", "format", "card", "twice", "groups", "student", "after", "unfinished",
                                 "rules", "field"])
def test_a_malformed_save_file_is_one_line_and_exit_code_2(capsys, tmp_path, how):
    code, _, _ = run(capsys, tmp_path, script(), name="good.json")
    assert code == 0
    bad = tmp_path / "bad.json"
    bad.write_text("{not json" if how == "json" else corrupt(json.loads((tmp_path / "good.json").read_text()), how))
    code = main(["class-round", "--open", str(bad)])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and err.count("\n") == 1 and str(bad) in err and "Traceback" not in err


@pytest.mark.parametrize("argv", [["--set", "students=12"], ["--set", "call=top-dog"], ["--from", "missing.txt"],
                                  ["--set", "championship_ties=never"]])
def test_bad_arguments_are_exit_code_2(capsys, tmp_path, argv):
    code = main(["class-round", "--save", str(tmp_path / "c.json"), *argv])
    _, err = capsys.readouterr()
    assert code == 2 and err.count("\n") == 1


def test_groups_by_name_are_seated_larger_first(capsys, tmp_path):
    """The teacher's own groups: sizes 2 apart are refused; 2, 3, 2, 3, 2 are seated 3, 3, 2,
    2, 2 (as the rules seat groups, larger first)."""
    lines = script()[:5]
    lines[4:] = ["Ana, Ben / Cy, Dee, Eve / Fay, Gus, Hal / Ike, Jo, Kim, Lu",
                 "Ana, Ben / Cy, Dee, Eve / Fay, Gus / Hal, Ike, Jo / Kim, Lu", "quit"]
    code, out, _ = run(capsys, tmp_path, lines)
    assert code == 0 and "group sizes 2, 3, 3, 4 differ by more than one" in out
    assert "Group 1: Cy, Dee, Eve" in out and "Group 2: Hal, Ike, Jo" in out and "Group 5: Kim, Lu" in out
    assert [len(g) for g in json.loads((tmp_path / "class.json").read_text())["groups"]] == [3, 3, 2, 2, 2]


def test_a_shared_title_ends_the_class(capsys, tmp_path):
    code, out, _ = run(capsys, tmp_path, script(), "--set", "championship_ties=share")
    tied = expected_rounds()[1][0]
    assert code == 0 and f"Class champions (the title shared): {tied[0]} and {tied[1]}." in out
    assert "Championship replay" not in out and "4 lines of" in out  # the replay's lines were not needed


def test_at_a_terminal_a_refused_card_undo_and_quit_keep_the_class(tmp_path):
    """The prompt loop at a pseudo-terminal, after a class list typed in advance (--from)."""
    from terminal import finish, spawn

    (tmp_path / "list.txt").write_text(", ".join(NAMES) + "\n\n3\n")
    child = spawn("class-round", "--from", "list.txt", "--save", "mine.json", home=tmp_path)
    for typed, answer in [("call", "bottoms up"), ("GeoPower card", "pop"), ("Ana", "AK TX / CA"),
                          ("Ben", "ca mt"), ("already Ana's", "undo"), ("Ana", "Alaska, Texas / New York"),
                          ("Ben", "quit")]:
        child.expect(typed)
        if answer == "undo":
            child.expect("Ben .* kept> ")  # the refused card: one line, and Ben is asked again
        child.sendline(answer)
    assert finish(child) == 0
    saved = json.loads((tmp_path / "mine.json").read_text())
    assert saved["rounds"] == [{"call": "bottoms-up", "category": "population",
                                "cards": {"Ana": ["AK", "TX", "NY"]}}]


@pytest.mark.parametrize("students,groups,two_decks", [(10, 2, False), (20, 4, False), (17, 3, False),
                                                       (32, 8, True), (31, 6, False)])
def test_any_class_size_plays_to_a_champion_and_its_file_judges_the_same(students, groups, two_decks):
    """Random deals typed through the sheet (one or two Starting Rounds, two decks, ties
    replayed): a champion is named, the discards typed are the engine's, and the saved file
    reopens to the same judging."""
    from geolab.games.classroom.offers.teacher import Sheet, read_cards

    rng = np.random.default_rng(students)
    sheet = Sheet(Rules(two_decks=two_decks))
    sheet.add_names([f"Student {i}" for i in range(students)])
    sheet.end_names()
    sheet.set_groups(str(groups))
    while (judged := judge(sheet)).played is None:
        plan = judged.plan
        sheet.start_round()
        sheet.enter_call(int(rng.integers(2)))
        sheet.enter_category(int(rng.integers(3)))
        for deck in plan[1]:
            cards = rng.permutation(50)
            for i, s in enumerate(deck):
                hand = [POSTAL[c] for c in cards[3 * i:3 * i + 3]]
                typed = " ".join(hand[:2]) + (f" / {hand[2]}" if s % 2 else "")
                sheet.enter_cards(s, read_cards(typed), plan)
    assert judged.played.champions and len(judged.history) >= sheet.rules.rounds + 1
    for entered, rnd in zip(sheet.rounds, judged.played.rounds):
        assert all(rnd.discards[s] == cards[2] for s, cards in entered.cards.items() if len(cards) == 3)
    again = judge(from_json(json.loads(json.dumps(to_json(sheet)))))
    assert again.history == judged.history and again.played.champions == judged.played.champions
