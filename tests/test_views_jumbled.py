"""Jumbled GeoPower Choice at the keyboard: every legal move has a label that reads back to it,
bad input is one line, screens fit 79 columns, the story only grows, the verdict is right, and
bots seated for play make the batch engine's games."""

import re
import time

import numpy as np
import pytest

from geolab import registry
from geolab.cards import POSTAL, RANKS, card, category
from geolab.errors import IllegalActionError
from geolab.game import MoveError
from geolab.games.jumbled.game import GAME
from geolab.games.jumbled.reference import Deal, RoundDeal
from geolab.games.jumbled.rules import Rules
from geolab.games.jumbled.views import WIDTH

ENTRY = registry.get("jumbled")
VIEWS = GAME.views
RULES = {
    "2p": Rules(players=2),
    "4p": Rules(),
    "8p": Rules(players=8),
    "teams": Rules.preset("teams"),
    "3p-teams": Rules(players=3, teams=(0, 0, 1)),
    "known-deck-all-tied": Rules(players=5, set_tie="all-tied", geopower_deck=(1, 1, 0), target=30),
    "4-sets": Rules(players=3, cards_dealt=8, cards_to_play=7, sets_per_round=4, max_cards_per_set=3,
                    bonus=(0, 0, 5, 10, 20), geopower_deck=(2, 1, 1), used_to_bottom=False, calls=("bottoms-up",)),
}


class Watch:
    """A seat that checks the views on every decision it is asked, then lets its bot answer."""

    def __init__(self, seat, check):
        self.seat, self.check, self.decisions = seat, check, []

    def act(self, decision):
        self.decisions.append(decision)
        self.check(decision)
        return self.seat.act(decision)


def seated(rules, spec, seed):
    return ENTRY.seat(ENTRY.bots.make(spec, rules), rules, np.random.default_rng(seed))


def play(rules, check, spec="random", seed=0):
    """A whole game with `spec` at every seat, every seat's decisions checked."""
    rules = rules.validate()
    seats = [Watch(seated(rules, spec, seed + p), check) for p in range(rules.players)]
    return GAME.play(rules, GAME.deal(rules, np.random.default_rng(seed)), seats), seats


def fits(lines):
    assert all(isinstance(x, str) and "\n" not in x and len(x) <= WIDTH for x in lines), \
        [x for x in lines if len(x) > WIDTH]


def numbers(decision, action):
    """The action as the screen's menu numbers."""
    if decision.kind == "call":
        return str(decision.legal.index(action) + 1)
    shown = sorted(decision.observation.left, key=lambda c: POSTAL[c])
    return " ".join(str(shown.index(c) + 1) for c in reversed(action))


def check_moves(decision):
    labels = [VIEWS.label(decision, a) for a in decision.legal]
    assert len(set(labels)) == len(labels)
    for action, label in zip(decision.legal, labels):
        assert VIEWS.parse(decision, label) == action
        assert VIEWS.parse(decision, f"  {label.lower()} ") == action
        assert VIEWS.parse(decision, numbers(decision, action)) == action
        if decision.kind == "choose":
            assert VIEWS.parse(decision, ",".join(reversed(label.split()))) == action
    fits(VIEWS.screen(decision))
    assert 2 <= len(VIEWS.help(decision)) <= 6
    fits(VIEWS.help(decision))
    assert isinstance(VIEWS.prompt(decision), str) and len(VIEWS.prompt(decision)) < 40
    fits(VIEWS.events(decision))
    reason = VIEWS.reason(decision, decision.legal[0])
    assert reason and "\n" not in reason


@pytest.mark.parametrize("name", RULES)
def test_every_legal_move_reads_back_from_its_label_and_its_menu_numbers(name):
    played, seats = play(RULES[name], check_moves, seed=3)
    assert played.over
    assert {d.kind for s in seats for d in s.decisions} == {"call", "choose"}
    for seat in range(played.rules.players):
        fits(VIEWS.ending(played, seat))


def test_the_story_only_grows_and_the_ending_continues_it():
    for name in ("4p", "teams", "known-deck-all-tied"):
        played, seats = play(RULES[name], lambda d: None, seed=5)
        for p, s in enumerate(seats):
            stories = [VIEWS.events(d) for d in s.decisions] + [VIEWS.ending(played, p)]
            for before, after in zip(stories, stories[1:]):
                assert after[: len(before)] == before and len(after) >= len(before)
            assert VIEWS.events(s.decisions[-1]) == VIEWS.events(s.decisions[-1])  # the same lines every time
            assert len(stories[-1]) > len(stories[-2])


def test_bad_input_is_one_line_that_says_how_to_type_it():
    rules = Rules().validate()
    asked = []
    play(rules, asked.append, seed=7)
    call = next(d for d in asked if d.kind == "call")
    first = next(d for d in asked if d.kind == "choose" and d.seat == 0)
    later = next(d for d in asked if d.kind == "choose" and d.seat == 0 and d.observation.set_index == 1)
    last = next(d for d in asked if d.kind == "choose" and d.seat == 0 and d.observation.set_index == 2)
    held = first.observation.left
    stranger = next(c for c in range(50) if c not in held)
    played_card = next(c for c in later.observation.hand if c not in later.observation.left)
    cases = [
        (call, "", "type 1 or top"), (call, "3", "not on the menu"), (call, "hello", "type 1 or top"),
        (call, "TX", "cards come after the call"),
        (first, "", "name 1 or 2 cards"), (first, "XX", "is not a card: type postal codes"),
        (first, "9", "not a card number"),
        (first, "0", "not a card number"), (first, f"{POSTAL[held[0]]} size", "name cards only"),
        (first, f"{POSTAL[held[0]]} {POSTAL[held[0]].lower()}", "named twice"),
        (first, "1 2 3", "lay 1 or 2 cards on this set, not 3"),
        (first, POSTAL[stranger], f"{POSTAL[stranger]} is not in your hand (you hold"),
        (later, POSTAL[played_card], f"you laid {POSTAL[played_card]} on set 1"),
        (last, " ".join(POSTAL[c] for c in last.observation.left), "on this set, not"),
    ]
    for decision, text, says in cases:
        with pytest.raises(MoveError) as error:
            VIEWS.parse(decision, text)
        message = str(error.value)
        assert says in message and "\n" not in message and len(message) <= WIDTH, (text, message)
    only = Rules(calls=("top-dog",)).validate()
    asked = []
    play(only, asked.append, seed=1)
    with pytest.raises(MoveError, match="do not allow Bottoms Up"):
        VIEWS.parse(next(d for d in asked if d.kind == "call"), "bottoms")


def test_a_screen_shows_the_hand_the_call_the_chances_and_the_plan():
    asked = []
    play(Rules(), asked.append, seed=2)
    d = next(d for d in asked if d.kind == "choose" and d.seat == 0 and d.observation.set_index == 1)
    view = d.observation
    text = "\n".join(VIEWS.screen(d))
    assert f"Round {view.round_index + 1}, set 2 of 3" in text
    called = {"top-dog": "Top Dog: the lowest total wins", "bottoms-up": "Bottoms Up: the highest total wins"}
    assert called[view.call] in text
    assert "+5 bonus for 2 sets a round, +10 for 3" in text and "first to 50 wins" in text
    turned = view.sets[0].category
    assert f"{['size', 'statehood', 'population'][turned]} {4 / 14:.0%}" in text
    for c in view.left:
        assert re.search(rf"^\s+\d+  {POSTAL[c]} ", text, re.M)
    for c in set(view.hand) - set(view.left):
        assert not re.search(rf"^\s+\d+  {POSTAL[c]} ", text, re.M)
    assert "to play over the 2 sets left" in text and "Still to play:" in text
    probs = view.probs()
    for pair in (a for a in d.legal if len(a) == 2):
        kept = [c for c in view.left if c not in pair]
        now = sum(float(probs[k]) * int(RANKS[c, k]) for c in pair for k in range(3)) / 2
        later = sum(float(probs[k]) * int(RANKS[c, k]) for c in kept for k in range(3)) / len(kept)
        if f"{now:.1f}" == f"{later:.1f}":
            kept_text = "cards as strong"
        else:
            kept_text = ("stronger" if (later < now) == (view.call == "top-dog") else "weaker") + " cards"
        assert VIEWS.reason(d, pair).endswith(f" {now:.1f} a card expected; keeps {kept_text} ({later:.1f})")
    call = next(d for d in asked if d.kind == "call")
    assert any("1  Top Dog" in x for x in VIEWS.screen(call)) and VIEWS.prompt(call) == "1 top dog / 2 bottoms up > "


class Fixed:
    """A seat that calls `call` and lays the given plays, then the first legal choice."""

    def __init__(self, call, plays):
        self.call, self.plays = call, iter(plays)

    def act(self, decision):
        return self.call if decision.kind == "call" else next(self.plays, decision.legal[0])


def two_hands(*codes):
    return tuple(tuple(card(x) for x in hand.split()) for hand in codes)


def test_a_set_in_the_story_gives_every_play_its_rank_and_says_who_won_and_why():
    rules = Rules(players=2, target=5).validate()
    rd = RoundDeal(two_hands("TX CA AK RI DE CT", "SD OH NY FL WA MT"), (0,) * 5 + (1,) * 5 + (2,) * 5)
    mine = [(card("TX"), card("CA")), (card("AK"),), (card("RI"), card("DE"))]
    theirs = [(card("SD"),), (card("OH"), card("NY")), (card("FL"), card("WA"))]
    played = GAME.play(rules, Deal(0, (rd,)), [Fixed("top-dog", mine), Fixed("top-dog", theirs)])
    lines = VIEWS.ending(played, 0)
    assert lines[0] == "Round 1: you deal and call Top Dog: the lowest total wins a set"
    assert lines[1] == "Round 1, set 1: GeoPower card SIZE (Top Dog: the lowest total wins)"
    assert lines[2:5] == ["  A (you)  TX 2 + CA 3 = 5", "  B        SD 16",
                          "  A (you) wins set 1: 5 is lower than every other total (next: B 16)"]
    assert "  A (you) wins set 2: 1 is lower than every other total (next: B 65)" in lines  # AK vs OH 35 + NY 30
    assert "  B wins set 3: 46 is lower than every other total (next: A 99)" in lines  # FL 26 + WA 20, RI 50 + DE 49
    assert lines[-3:] == ["Round 1 points: A (you) 15 (2 sets + 5 bonus), B 5 (1 set)",
                          "Score after round 1: A (you) 15, B 5; first to 5 wins",
                          "You won with 15 points after 1 round; B 5."]
    assert VIEWS.ending(played, 1)[-1] == "You lost: A won with 15 points after 1 round; you 5."
    assert GAME.deal_points(played) == (15, 5) and GAME.series_target(rules) is None


def test_a_tie_for_best_wins_nothing_and_the_story_says_so():
    rd = RoundDeal(two_hands("TX CA AK RI DE CT", "NM OH NY FL WA MT"), (0,) * 5 + (1,) * 5 + (2,) * 5)
    mine = [(card("TX"), card("CA"))]
    theirs = [(card("NM"),)]
    for tie, says in (("nobody", "  Tie for best at 5 (A, B): nobody wins the set"),
                      ("all-tied", "  A, B tie for best at 5 and each wins the set (the all-tied rule)")):
        rules = Rules(players=2, set_tie=tie).validate()
        played = GAME.play(rules, Deal(0, (rd,)), [Fixed("top-dog", mine), Fixed("top-dog", theirs)])
        lines = VIEWS.ending(played, 1)
        assert lines[1:5] == ["Round 1, set 1: GeoPower card SIZE (Top Dog: the lowest total wins)",
                              "  A        TX 2 + CA 3 = 5", "  B (you)  NM 5", says]


def test_verdicts_on_known_seeds():
    rules = Rules(players=3).validate()
    bots = ("first:call=top-dog", "last:call=bottoms-up", "middle:call=race")
    seats = [seated(rules, s, 0) for s in bots]
    played = GAME.play(rules, GAME.deal(rules, np.random.default_rng(4)), seats)
    scores, w = played.scores, played.winner
    order = sorted(range(3), key=lambda p: (-scores[p], p))
    for me in range(3):
        verdict = VIEWS.ending(played, me)[-1]
        rest = ", ".join(("you" if p == me else "ABC"[p]) + f" {scores[p]}" for p in order if p != w)
        rounds = f"after {len(played.rounds)} rounds"
        if me == w:
            assert verdict == f"You won with {scores[w]} points {rounds}; {rest}."
        else:
            assert verdict == f"You lost: {'ABC'[w]} won with {scores[w]} points {rounds}; {rest}."
    report = GAME.report(played)
    assert (report["winner"], report["scores"], report["rounds_played"]) == ("B", {"A": 45, "B": 50, "C": 20}, 7)
    assert VIEWS.ending(played, 0)[-1] == "You lost: B won with 50 points after 7 rounds; you 45, C 20."
    assert VIEWS.ending(played, 1)[-1] == "You won with 50 points after 7 rounds; A 45, C 20."
    teams = Rules.preset("teams")
    played = GAME.play(teams, GAME.deal(teams, np.random.default_rng(4)), [seated(teams, "first", p) for p in range(4)])
    t = played.team_scores()
    won, lost = (0, 1) if t[0] > t[1] else (1, 0)
    name = ["A+C", "B+D"]
    assert VIEWS.ending(played, won)[-1] == (f"Your team {name[won]} won with {t[won]} points after "
                                            f"{len(played.rounds)} rounds; {name[lost]} {t[lost]}.")
    assert VIEWS.ending(played, lost)[-1] == (f"Your team lost: {name[won]} won with {t[won]} points after "
                                             f"{len(played.rounds)} rounds; your team {name[lost]} {t[lost]}.")


def test_seated_bots_play_legally_and_make_the_batch_engines_games():
    """Deterministic bots (fixed single-card sets, fixed or race calls) seated through the
    registry's hook make, on the batch engine's deals, the batch engine's records."""
    rules = Rules(players=3).validate()
    specs = ("first:call=top-dog", "last:call=bottoms-up", "middle:call=race")
    for record in GAME.batch_records(rules, [ENTRY.bots.make(s, rules) for s in specs], 6, 4):
        fixed = []
        for rd in record["rounds"]:
            turned = [category(st["geopower"]) for st in rd["sets"]]
            rest = [c for c in range(3) for _ in range(rules.geopower_deck[c] - turned.count(c))]
            fixed.append(RoundDeal(tuple(tuple(card(x) for x in rd["deal"][s]) for s in "ABC"), tuple(turned + rest)))
        seats = [seated(rules, s, p) for p, s in enumerate(specs)]
        assert GAME.to_record(GAME.play(rules, Deal(0, tuple(fixed)), seats)) == record
    for spec in ("random", "montecarlo:samples=4", "learned", "heuristic"):
        try:
            play(Rules(players=4), lambda d: None, spec, seed=9)
        except IllegalActionError as error:  # pragma: no cover - the failure message
            pytest.fail(f"{spec}: {error}")


def test_the_hint_bot_answers_a_decision_well_under_a_second():
    rules = Rules(players=8).validate()
    asked = []
    play(rules, asked.append, seed=1)
    first = next(d for d in asked if d.kind == "choose")
    hint = ENTRY.seat(ENTRY.bots.make(ENTRY.hint, rules), rules, np.random.default_rng(0))
    hint.act(first)  # loads the compiled kernel
    start = time.perf_counter()
    action = hint.act(first)
    assert time.perf_counter() - start < 0.5
    assert action in first.legal and VIEWS.reason(first, action)
