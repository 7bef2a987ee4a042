"""Class GeoPower Double Choice at the keyboard: the views (`geolab.games.classroom.views`)
read back every move they name, explain mistakes in one line, fit 79 columns, tell the
rounds in a stable order and the right verdict; bots seated for play (`SEAT`) agree with
the batch engine on the same deals."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from geolab.bots.classroom import registry as class_bots
from geolab.cards import CATEGORIES, N_CARDS, NAMES, POSTAL, card
from geolab.game import Decision, MoveError
from geolab.games.classroom.game import GAME
from geolab.games.classroom.observations import View
from geolab.games.classroom.reference import CHAMPIONSHIP_AHEAD, Deal, Dealt, championship_deck_count, draw_round
from geolab.games.classroom.rules import CALLS, TOP_DOG, Rules
from geolab.games.classroom.views import WIDTH, win_chances

VIEWS = GAME.views
#: class sizes and group counts: one and two Starting Rounds, two decks, shared titles,
#: a call fixed either way, an uneven GeoPower deck
VARIANTS = [
    Rules(),
    Rules(students=10, groups=2),
    Rules(students=32, groups=8),
    Rules(students=32, groups=8, two_decks=True),
    Rules(students=13, groups=3, call="bottoms-up", championship_ties="share"),
    Rules(students=12, groups=6, starting_rounds=2, call="top-dog", geopower=(1, 0, 4)),
]


class Watched:
    """A seat that plays `inner` (or a random legal card) and keeps every decision it is asked."""

    def __init__(self, rng, inner=None):
        self.rng, self.inner, self.decisions = rng, inner, []

    def act(self, decision: Decision):
        self.decisions.append(decision)
        if self.inner is not None:
            action = self.inner.act(decision)
            assert action in decision.legal
            return action
        return decision.legal[int(self.rng.integers(len(decision.legal)))]


def _game(rules: Rules, seed: int, bot: str | None = None):
    """One game on the reference engine; the played game and every seat's decisions."""
    rng = np.random.default_rng(seed)
    inner = class_bots.BOTS.make(bot, rules) if bot else None
    seats = [Watched(rng, None if inner is None else class_bots.seat(inner, rules, rng))
             for _ in range(rules.students)]
    played = GAME.play(rules, GAME.deal(rules, rng), seats)
    return played, [s.decisions for s in seats]


@pytest.fixture(scope="module")
def games():
    return [(rules, *_game(rules, seed)) for rules in VARIANTS for seed in (1, 2)]


def test_every_label_reads_back_to_its_card_and_so_do_its_other_names(games):
    for _rules, _, decisions in games:
        for decision in (d for seat in decisions for d in seat):
            labels = [VIEWS.label(decision, a) for a in decision.legal]
            assert len(set(labels)) == len(labels)
            for i, a in enumerate(decision.legal):
                kept = [POSTAL[c] for c in decision.legal if c != a]
                for text in (labels[i], POSTAL[a], POSTAL[a].lower(), str(i + 1), f" discard {i + 1} ", NAMES[a],
                             NAMES[a].upper(), "keep " + " ".join(kept), "KEEP " + ", ".join(kept).lower()):
                    assert VIEWS.parse(decision, text) == a, (text, decision.legal)


def test_a_wrong_move_is_one_line_that_says_how_to_type_it(games):
    _, _, decisions = games[0]
    decision = decisions[0][0]
    hand = [POSTAL[c] for c in decision.legal]
    outside = next(p for p in POSTAL if p not in hand)
    cases = {"": "say which card to discard", "discard": "say which card", "zz": "'zz' is not a card",
             "7": "no card number 7", "0": "no card number 0",
             outside: f"{outside} is not in your hand: type {hand[0]}, {hand[1]} or {hand[2]}",
             "x" * 500: "'xxxxx ... is not a card", "1" * 5000: "no card number 1111...",
             f"{hand[0]} {hand[1]}": "discard one card", f"keep {hand[0]}": "keep names the 2 cards",
             f"keep {hand[0]} {hand[0]}": "keep names the 2 cards", "keep": "keep names the 2 cards",
             "Texas size": "is not"}
    for text, message in cases.items():
        with pytest.raises(MoveError) as caught:
            VIEWS.parse(decision, text)
        line = str(caught.value)
        # the play loop prints it indented by two, with " (help: how to type it)"
        assert message in line and "\n" not in line and len(line) <= WIDTH - 25, (text, line)
        assert all(code in line for code in hand) or "keep" in message, line  # how to type it, from the hand


def test_every_line_fits_79_columns(games):
    for _rules, played, decisions in games:
        for seat, asked in enumerate(decisions):
            for decision in asked:
                lines = VIEWS.screen(decision) + VIEWS.events(decision) + [f"  {h}" for h in VIEWS.help(decision)]
                lines.append(VIEWS.prompt(decision))
                assert all(len(line) <= WIDTH for line in lines), max(lines, key=len)
            assert all(len(line) <= WIDTH for line in VIEWS.ending(played, seat))


def test_the_screen_says_the_stage_the_group_the_call_and_what_each_discard_keeps(games):
    rules, _, decisions = games[0]
    first = decisions[6][0]  # S7, group 2 (S6-S10) of the default class
    lines = VIEWS.screen(first)
    screen = " ".join(" ".join(lines).split())
    assert "you are S7" in screen and "Starting Round 1 of 2" in screen and "group 2 is S6-S10" in screen
    assert "you and 4 classmates" in screen
    call = first.observation.call
    assert ("Top Dog: the lowest sum" if call == TOP_DOG else "Bottoms Up: the highest sum") in screen
    assert "turned after everyone has discarded" in screen
    for i, c in enumerate(first.legal, 1):
        assert any(line.startswith(f"  {i}  {POSTAL[c]}  {NAMES[c]}") for line in lines)
    final = next(d for seat in decisions for d in seat if d.observation.round == rules.rounds)
    text = " ".join(" ".join(VIEWS.screen(final)).split())
    assert "Championship Round: you won group" in text and "play for the title" in text


def test_events_only_grow_and_the_ending_continues_them(games):
    for _, played, decisions in games:
        for seat, asked in enumerate(decisions):
            before: list[str] = []
            for decision in asked:
                lines = VIEWS.events(decision)
                assert lines[: len(before)] == before and lines == VIEWS.events(decision)
                before = lines
            ending = VIEWS.ending(played, seat)
            assert ending[: len(before)] == before and len(ending) > len(before)


def test_the_ending_does_not_depend_on_hidden_discards(games):
    """Change every discard to another card (same kept cards, same sums): nothing shown changes."""
    for _, played, _ in games[:4]:
        other = dataclasses.replace(played, rounds=[])
        for rnd in played.rounds:
            hands, discards = {}, {}
            for s, hand in rnd.hands.items():
                kept = [c for c in hand if c != rnd.discards[s]]
                discards[s] = next(c for c in range(N_CARDS) if c not in hand)
                hands[s] = (*kept, discards[s])
            other.rounds.append(dataclasses.replace(rnd, hands=hands, discards=discards))
        for seat in range(played.rules.students):
            assert VIEWS.ending(other, seat) == VIEWS.ending(played, seat)


def _verdict(played, seat: int) -> str:
    ending = VIEWS.ending(played, seat)
    start = max(i for i, line in enumerate(ending) if not line.startswith("  "))
    return " ".join(line.strip() for line in ending[start:])


def test_verdicts_on_a_known_seed():
    """Default class, seed 1, the equilibrium everywhere: S17 wins group 4 and the title."""
    played, _ = _game(Rules(), 1, "equilibrium")
    assert played.group_winners == [[4], [8], [11], [16]] and played.champions == [16]
    assert _verdict(played, 16) == "You are the class champion: you won group 4 with 17 and the Championship with 42."
    assert _verdict(played, 11) == "You won group 3 but lost the Championship to S17 (sum 42 vs your 72)."
    assert _verdict(played, 5) == "S9 won your group (sum 11 vs your 59). Class champion: S17."


def test_verdicts_after_ties_in_a_group_and_in_the_championship():
    played, _ = _game(Rules(), 24, "equilibrium")  # S4 and S14 tie the final, S14 wins the replay
    assert [r.winners for r in played.rounds] == [[3, 5], [13, 18], [3, 13], [13]]
    assert _verdict(played, 13).startswith("You are the class champion: you won group 3 with")
    assert _verdict(played, 3).startswith("You won group 1 but lost the Championship replay to S14 "
                                          "(sum 51 vs your 50)")
    assert "S4 and S14 tied at 24 (your 85); S14 won in the end." in _verdict(played, 18)
    shared, _ = _game(Rules(championship_ties="share"), 24, "equilibrium")
    assert shared.champions == [3, 13]
    assert _verdict(shared, 3) == ("You share the class title with S14: you won group 1 with 5 and tied the "
                                   "Championship at 24.")
    tied, _ = _game(Rules(), 13, "equilibrium")  # S9 and S10 tie in group 2
    assert tied.group_winners[1] == [8, 9]
    lines = VIEWS.ending(tied, 8)
    assert any(line.startswith("You tied with S10 at 64 in group 2") for line in lines)
    assert _verdict(tied, 6) == "S9 and S10 tied to win your group (sum 64 vs your 36). Class champion: S13."


def test_every_verdict_names_the_right_outcome(games):
    for rules, played, _ in games:
        champions = played.champions
        for seat in range(rules.students):
            verdict = _verdict(played, seat)
            if seat in champions:
                assert verdict.startswith("You are the class champion" if len(champions) == 1 else "You share")
            elif seat in played.finalists:
                assert verdict.startswith("You won group")
            else:
                assert "your group" in verdict and "Class champion" in verdict


def test_the_hint_explains_from_the_view_only_and_mostly_agrees_with_its_count(games):
    hint = class_bots.BOTS.make(class_bots.HINT, Rules())
    seat = class_bots.seat(hint, Rules(), np.random.default_rng(0))
    agree = total = 0
    for rules, _, decisions in games[:2]:
        for decision in (d for asked in decisions for d in asked):
            action = seat.act(decision)
            line = VIEWS.reason(decision, action)
            kept = " ".join(POSTAL[c] for c in decision.legal if c != action)
            assert f"keeping {kept} (" in line and "%" in line and "\n" not in line
            chances = win_chances(decision.observation) @ rules.geopower_p
            assert ((0 <= chances) & (chances <= 1)).all()
            agree += int(np.argmax(chances) == decision.legal.index(action) or
                         chances.max() - chances[decision.legal.index(action)] < 0.02)
            total += 1
    assert agree >= 0.9 * total


def test_win_chances_of_a_sure_pair():
    """AK and TX are the two largest states: under Top Dog, if Size is turned nobody beats them."""
    hand = tuple(sorted(card(p) for p in ("AK", "TX", "RI")))
    view = View(hand, TOP_DOG, 4, Rules(), 0, tuple(range(5)), ())
    chances = win_chances(view)
    assert chances[hand.index(card("RI")), CATEGORIES.index("size")] == pytest.approx(1.0)
    assert win_chances(dataclasses.replace(view, opponents=0)) == pytest.approx(np.ones((3, 3)))


def _deal_of(rules: Rules, record: dict, rng) -> Deal | None:
    """The reference engine's `Deal` that deals a batch record's hands (None past the
    attempts a Deal holds)."""
    rounds = []
    for r in record["rounds"]:
        hands = {int(name[1:]) - 1: [card(p) for p in cards] for name, cards in r["deal"].items()}
        if r["stage"] == "starting":
            groups = rules.groups_of()
            plan = rules.round_plan()[len(rounds)]
            decks = [[s for g in deck for s in groups[g]] for deck in plan]
        else:
            decks = rules.championship_decks(sorted(hands))
            decks += [[]] * (championship_deck_count(rules) - len(decks))
        orders = []
        for students in decks:
            top = [c for s in students for c in hands[s]]
            orders.append(tuple(top + [int(c) for c in rng.permutation(N_CARDS) if c not in top]))
        rounds.append(Dealt(CALLS.index(r["call"]), CATEGORIES.index(r["geopower"]), tuple(orders)))
    starting, final = rounds[: rules.rounds], rounds[rules.rounds:]
    if len(final) > CHAMPIONSHIP_AHEAD:
        return None
    final += [draw_round(rules, rng, championship_deck_count(rules)) for _ in range(CHAMPIONSHIP_AHEAD - len(final))]
    return Deal(tuple(starting), tuple(final), 0)


def _public(record: dict) -> list:
    return [{**r, "deal": {s: sorted(h) for s, h in r["deal"].items()}} for r in record["rounds"]]


@pytest.mark.parametrize("rules", [Rules(), Rules(students=10, groups=2),
                                   Rules(students=32, groups=8, two_decks=True)])
def test_seated_bots_play_as_the_batch_engine_does_on_the_same_deals(rules):
    names = ["equilibrium", "average", "one-category", "worst-category", "learned"]
    made = {n: class_bots.BOTS.make(n, rules) for n in names}
    bots = [made[names[s % len(names)]] for s in range(rules.students)]
    rng = np.random.default_rng(4)
    compared = 0
    for record in GAME.batch_records(rules, bots, 6, 9):
        deal = _deal_of(rules, record, rng)
        if deal is None:
            continue
        seats = [Watched(rng, class_bots.seat(b, rules, np.random.default_rng(s))) for s, b in enumerate(bots)]
        played = GAME.to_record(GAME.play(rules, deal, seats))
        assert _public(played) == _public(record) and played["result"] == record["result"]
        compared += 1
    assert compared >= 5


def test_the_registry_seats_bots_and_hints_with_the_equilibrium():
    assert class_bots.HINT == "equilibrium" and class_bots.PLAYERS.seat is class_bots.seat
    assert GAME.series_target(Rules()) is None
    played, _ = _game(Rules(), 1, "equilibrium")
    assert GAME.deal_points(played) == tuple(int(s == 16) for s in range(20))
