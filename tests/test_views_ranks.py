"""Play the Ranks at the keyboard: the views (screens, moves in words, the story), the bots
seated at the reference engine (`seat`) and the oracle's review (`review`)."""

import json
import re
from pathlib import Path

import numpy as np
import pytest

import geolab.games.ranks.batch as rb
from geolab import registry
from geolab.bots.ranks.heuristics import GreedyPolicy
from geolab.bots.ranks.registry import BOTS, HINT, review, seat
from geolab.bots.ranks.review import costs
from geolab.bots.ranks.seats import GreedySeat
from geolab.cards import POSTAL
from geolab.common.text import WIDTH
from geolab.errors import GeolabError
from geolab.game import Decision, MoveError
from geolab.games.ranks.game import GAME
from geolab.games.ranks.reference import Deal, Lead, Trick, View, trick_winner
from geolab.games.ranks.rules import PRESETS, Rules
from geolab.games.ranks.solver.analysis import positions
from geolab.games.ranks.solver.double_dummy import OracleSolver, rank_for
from geolab.games.ranks.views import VIEWS, trick_lines

RECORDS = Path(__file__).parent / "records"
HELP_INDENT = 2  # the play loop prints help lines indented by two


class Watcher:
    """A seat that plays `inner` and checks the views at every decision it is asked."""

    def __init__(self, inner, rng):
        self.inner, self.rng = inner, rng
        self.events: list[str] = []
        self.seen: list[tuple[Decision, list[str]]] = []  # each decision and its screen + events

    def act(self, decision: Decision):
        events = VIEWS.events(decision)
        assert events[: len(self.events)] == self.events, "events must only grow at their end"
        self.events = events
        screen = VIEWS.screen(decision)
        lines = events + screen + [VIEWS.prompt(decision)] + [" " * HELP_INDENT + h for h in VIEWS.help(decision)]
        too_wide = [line for line in lines if len(line) > WIDTH]
        assert not too_wide, too_wide
        labels = [VIEWS.label(decision, a) for a in decision.legal]
        assert len(set(labels)) == len(labels), labels
        for action, label in zip(decision.legal, labels):
            assert VIEWS.parse(decision, label) == action
            assert VIEWS.parse(decision, label.lower()) == action
        self._menu_numbers(decision, screen)
        action = self.inner.act(decision)
        reason = VIEWS.reason(decision, action)
        assert isinstance(reason, str) and reason and "\n" not in reason
        self.seen.append((decision, events + screen))
        return action

    @staticmethod
    def _menu_numbers(decision: Decision, screen: list[str]) -> None:
        """Number i of the screen's table names the card on its row."""
        rows = {int(m.group(1)): POSTAL.index(m.group(2)) for m in
                (re.match(r"^\s*(\d+)  ([A-Z]{2}) ", line) for line in screen) if m}
        view = decision.observation
        assert sorted(rows.values()) == sorted(view.hand)
        for i, c in rows.items():
            if decision.kind == "follow":
                assert VIEWS.parse(decision, str(i)) == c
            elif decision.kind == "lead":
                base = view.allowed_bases()[-1]
                text = f"{i} pop {base}" if len(view.allowed_bases()) > 1 else f"{i} pop"
                assert VIEWS.parse(decision, text) == Lead(c, 2, base)
            elif decision.kind == "discard" and view.rules.discards == 1:
                assert VIEWS.parse(decision, str(i)) == (c,)


def random_seats(rules, seed):
    rng = np.random.default_rng(seed)
    return [Watcher(seat(BOTS.make("random", rules), rules, rng), rng) for _ in range(2)]


def hidden_from(game, side: int, decision: Decision) -> set[int]:
    """The opponent's cards `side` may not see at `decision` (its hand, a hidden discard, a
    face-down lead)."""
    opp = 1 - side
    view = decision.observation
    held = set(game.hands[opp]) - (set(game.discards[opp]) if decision.kind != "discard" else set())
    for t in game.tricks[: view.trick]:
        held -= {t.lead, t.follow}
    if decision.kind == "follow" and view.lead_card is not None:
        held.discard(view.lead_card)
    hidden_discard = set(game.discards[opp]) if not game.rules.discards_public else set()
    return held | hidden_discard


def mentioned(lines) -> set[int]:
    return {POSTAL.index(w) for line in lines for w in re.findall(r"\b[A-Z]{2}\b", line) if w in POSTAL}


# ----- the views over whole games --------------------------------------------------------------
@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_legal_move_reads_back_and_every_screen_fits(preset):
    rules = Rules.preset(preset)
    for seed in range(6):
        seats = random_seats(rules, seed)
        game = GAME.play(rules, GAME.deal(rules, np.random.default_rng(seed)), seats)
        for side, player in enumerate(seats):
            ending = VIEWS.ending(game, side)
            assert ending[: len(player.events)] == player.events
            assert all(len(line) <= WIDTH for line in ending)
            for decision, lines in player.seen:  # nothing the seat may not see is ever named
                assert not mentioned(lines) & hidden_from(game, side, decision)
            hidden = set(game.discards[1 - side]) if not rules.discards_public else set()
            unplayed = set(game.hands[1 - side]) - set(game.discards[1 - side]) - \
                {c for t in game.tricks for c in (t.lead, t.follow)}
            assert not mentioned(ending) & (hidden | unplayed)


@pytest.mark.parametrize("preset", ["battle2"])
def test_a_face_down_lead_is_said_to_be_face_down(preset):
    rules = Rules.preset(preset)
    seats = random_seats(rules, 3)
    GAME.play(rules, GAME.deal(rules, np.random.default_rng(3)), seats)
    follows = [(d, lines) for s in seats for d, lines in s.seen if d.kind == "follow"]
    assert follows
    for decision, lines in follows:
        assert decision.observation.lead_card is None
        assert any("FACE-DOWN" in line for line in lines)
        assert "face-down" in " ".join(VIEWS.help(decision))


def test_trick_lines_fit_for_every_pair_category_and_base():
    for equal in ("lead", "follow"):
        rules = Rules.preset("battle3").replace(equal_distance=equal)
        for base in (1, 10, 20, 30, 50):
            for k in range(3):
                for a in range(50):
                    for b in range(50):
                        if a == b:
                            continue
                        w = trick_winner(rules, 0, a, b, k, base)
                        for me in (0, 1):
                            lines = trick_lines(rules, me, 8, Trick(0, a, k, base, b, w), [4, 4])
                            assert all(len(line) <= WIDTH for line in lines), lines


def test_trick_line_says_why():
    rules = Rules.preset("battle1")
    tx, ca = POSTAL.index("TX"), POSTAL.index("CA")
    lines = trick_lines(rules, 0, 3, Trick(0, tx, 0, 1, ca, 0), [2, 1])
    assert lines == ["Trick 3, base 1: you led TX for size, B played CA.",
                     "  TX (2nd) is closer to base 1 than CA (3rd): you win. Tricks: you 2, B 1."]


# ----- reading moves ---------------------------------------------------------------------------
def decision_at(preset: str, kind: str) -> Decision:
    """The first decision of `kind` for side A in greedy games (the first deal that has one)."""
    rules = Rules.preset(preset)
    found = []

    class Catch:
        def __init__(self, side):
            self.side, self.inner = side, seat(GreedyPolicy(), rules, np.random.default_rng(0))

        def act(self, decision):
            if self.side == 0 and decision.kind == kind and not found:
                found.append(decision)
            return self.inner.act(decision)

    seed = 0
    while not found:
        seed += 1
        GAME.play(rules, GAME.deal(rules, np.random.default_rng(seed)), [Catch(0), Catch(1)])
    return found[0]


def not_held(decision) -> str:
    return next(p for c, p in enumerate(POSTAL) if c not in decision.observation.hand
                and c != decision.observation.lead_card)


@pytest.mark.parametrize("preset,kind,text", [
    ("battle1", "discard", ""), ("battle1", "discard", "XX"), ("battle1", "discard", "99"),
    ("battle1", "discard", "1 2"), ("battle1", "discard", "1 size"), ("geodouble", "discard", "1"),
    ("geodouble", "discard", "1 1"), ("battle2", "declare", "maybe"), ("battle2", "declare", "y n"),
    ("battle1", "lead", ""), ("battle1", "lead", "1"), ("battle1", "lead", "size"), ("battle1", "lead", "1 2 size"),
    ("battle1", "lead", "1 size 50"), ("battle1", "lead", "1 size pop"), ("battle1", "lead", "1 xyz"),
    ("battle2", "lead", "1 pop"), ("battle2", "lead", "1 pop 20"), ("battle2", "lead", "1 pop 1 50"),
    ("battle1", "follow", ""), ("battle1", "follow", "1 2"), ("battle1", "follow", "1 2 size"),
    ("battle1", "follow", "0"), ("battle2", "follow", "hello"),
])
def test_bad_input_is_one_line_that_says_how(preset, kind, text):
    decision = decision_at(preset, kind)
    with pytest.raises(MoveError) as error:
        VIEWS.parse(decision, text)
    message = str(error.value)
    assert message and "\n" not in message and len(message) <= WIDTH, message


@pytest.mark.parametrize("kind", ["discard", "lead", "follow"])
def test_a_card_not_held_is_named(kind):
    decision = decision_at("battle1", kind)
    code = not_held(decision)
    text = {"discard": code, "lead": f"{code} size", "follow": code.lower()}[kind]
    with pytest.raises(MoveError, match=f"{code} is not in your hand \\(you hold "):
        VIEWS.parse(decision, text)


def test_the_words_a_person_types():
    decision = decision_at("battle2", "lead")
    hand = sorted(decision.observation.hand, key=lambda c: POSTAL[c])
    c = hand[0]
    for words, k in (("size", 0), ("s", 0), ("si", 0), ("statehood", 1), ("state", 1), ("st", 1),
                     ("population", 2), ("pop", 2), ("p", 2)):
        assert VIEWS.parse(decision, f"{POSTAL[c].lower()} {words.upper()} 50") == Lead(c, k, 50)
        assert VIEWS.parse(decision, f"1, {words}, 1") == Lead(c, k, 1)
    with pytest.raises(MoveError, match="say the base too"):
        VIEWS.parse(decision, f"{POSTAL[c]} pop")
    fixed = decision_at("battle1", "lead")
    c = sorted(fixed.observation.hand, key=lambda x: POSTAL[x])[1]
    base = fixed.observation.allowed_bases()[0]
    assert VIEWS.parse(fixed, f"{POSTAL[c]} pop {base}") == VIEWS.parse(fixed, "2 pop") == Lead(c, 2, base)
    declare = decision_at("battle2", "declare")
    assert [VIEWS.parse(declare, w) for w in ("y", "YES", "n", "no")] == [True, True, False, False]
    discard = decision_at("geodouble", "discard")
    cards = sorted(discard.observation.hand, key=lambda x: POSTAL[x])
    assert VIEWS.parse(discard, f"{POSTAL[cards[3]]}, 1") == tuple(sorted((cards[0], cards[3])))


def test_following_with_a_category_plays_the_card_and_says_the_category_is_the_leaders():
    """Issue 37, item 11: "MT size" at a follow was refused though the card is clear; the card
    is played and one line says the category is the leader's."""
    decision = decision_at("battle1", "follow")
    view = decision.observation
    c = sorted(view.hand, key=lambda x: POSTAL[x])[0]
    led = ("size", "statehood", "population")[view.lead_category]
    other = ("size", "statehood", "population")[(view.lead_category + 1) % 3]
    for text in (f"{POSTAL[c]} {led}", f"1 {other[:3]}", f"{POSTAL[c].lower()}, {other}"):
        assert VIEWS.parse(decision, text) == c
        note = VIEWS.note(decision, c, text)
        assert note and "\n" not in note and len(note) <= WIDTH and f"the leader's: {led}" in note, note
    assert VIEWS.note(decision, c, POSTAL[c]) is None
    assert VIEWS.note(decision_at("battle1", "lead"), c, f"{POSTAL[c]} size") is None


def test_the_second_declaration_offers_only_what_the_first_left_open():
    """Issue 37, item 11: after B declined, the declaration screen still offered 20 (both
    declaring); it now says what a win scores with and without A's declaration."""
    rules = PRESETS["geodouble"]()
    hand = tuple(sorted(POSTAL.index(p) for p in "AL DE FL IA ID IN".split()))
    discards = tuple(sorted(POSTAL.index(p) for p in "AK CA".split()))

    def screen(first: int, other) -> str:
        view = View(rules, 0, hand, discards, None, first, (None, other), None, ())
        return " ".join(" ".join(VIEWS.screen(Decision(0, "declare", view, (False, True)))).split())

    assert "A win scores 5 points, 10 if one side declares GeoPlunging, 20 if both do" in screen(0, None)
    declined = screen(1, False)
    assert "A win scores 5 points (B did not declare), 10 if you declare;" in declined and "20" not in declined
    declared = screen(1, True)
    assert "A win scores 10 points (B declared GeoPlunging), 20 if you declare too;" in declared
    assert " 5 points" not in declared


# ----- endings on known deals ------------------------------------------------------------------
@pytest.mark.parametrize("name,side,last", [
    ("battle1_variant_tie", 0, "Tie, 4-4: 1 point each."),
    ("geodouble_3_3_last_trick", 0, "You won the game 3-3 on the last trick, and 10 points."),
    ("geodouble_3_3_last_trick", 1, "You lost the game 3-3 on the last trick; A scores 10 points."),
    ("combo1_stops_at_six", 0, "You lost the game 1-6."),
    ("combo1_stops_at_six", 1, "You won the game 6-1."),
    ("battle2_both_declare", 1, "You won the battle 5-1 and 3 points."),
    ("battle1_shutout_bonus_variant", 0, "You lost the battle 0-5; B scores 3 points."),
])
def test_endings(name, side, last):
    record = json.loads((RECORDS / f"{name}.json").read_text())
    game = GAME.replay(record)
    ending = VIEWS.ending(game, side)
    assert ending[-1] == last
    assert GAME.deal_points(game) == game.points
    if len(game.tricks) < game.rules.tricks:
        assert "unplayed" in ending[-2]
    assert sum(line.startswith("Trick ") for line in ending) == len(game.tricks)


def test_series_targets():
    assert [GAME.series_target(Rules.preset(p)) for p in PRESETS] == [None, 10, 15, 10, None, None, None]


# ----- bots at the reference engine ------------------------------------------------------------
DETERMINISTIC = ["greedy", "planner", "counter", "learned", "montecarlo:k=4,budget_ms=none",
                 "ismcts:iterations=200,budget_ms=none,layouts=16"]
SEARCH = {"montecarlo:k=4,budget_ms=none", "ismcts:iterations=200,budget_ms=none,layouts=16"}


def batch_deal(rules, seed: int, i: int) -> Deal:
    d = rb.deal(rules, seed, 0, 1)
    power = None if d.power is None else (int(d.power[i, 0]), int(d.power[i, 1]))
    return Deal((tuple(int(c) for c in d.hands[i, 0]), tuple(int(c) for c in d.hands[i, 1])),
                (int(d.draw[i, 0]), int(d.draw[i, 1])), power)


def same_game(record: dict) -> dict:
    """A record with each side's discards in card order (the batch engine keeps the order a
    policy chose them in; the reference engine's legal discards are sorted)."""
    record = dict(record)
    record["discards"] = {s: sorted(v, key=POSTAL.index) for s, v in record["discards"].items()}
    return record


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("spec", DETERMINISTIC)
def test_seated_bots_play_as_in_the_batch_engine(preset, spec):
    rules = Rules.preset(preset)
    other = "counter" if spec == "greedy" else "greedy"
    n = 2 if spec in SEARCH else 16
    for bots in ((spec, other), (other, spec)):
        batch = GAME.batch_records(rules, [BOTS.make(b, rules) for b in bots], n, 5)
        for i, expected in enumerate(batch):
            rng = np.random.default_rng(i)
            seats = [seat(BOTS.make(b, rules), rules, rng) for b in bots]
            game = GAME.play(rules, batch_deal(rules, 5, i), seats)
            assert same_game(GAME.to_record(game)) == same_game(expected), (preset, bots, i)


FAIR = [BOTS.info(name).example for name in BOTS.names() if not BOTS.info(name).peeks]


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("spec", FAIR)
def test_every_bot_plays_legally_at_the_reference_engine(preset, spec):
    rules = Rules.preset(preset)
    rng = np.random.default_rng(7)
    for g in range(30 if spec == "random" else 3):
        seats = [seat(BOTS.make(spec, rules), rules, rng), seat(BOTS.make("random", rules), rules, rng)]
        game = GAME.play(rules, GAME.deal(rules, rng), seats[:: 1 if g % 2 else -1])  # an illegal move raises
        assert sum(game.tricks_won) == len(game.tricks)


def test_a_peeking_bot_is_not_seated_at_a_table():
    peeking = [name for name in BOTS.names() if BOTS.info(name).peeks]
    rules = Rules.preset("battle1")
    for name in peeking:
        with pytest.raises(GeolabError, match="peeks"):
            registry.get("ranks").seated(BOTS.make(name, rules), rules, np.random.default_rng(0))


class Spy(GreedyPolicy):
    """Greedy in the batch engine (not fused), checking each row's observation against the
    one rebuilt from that row's View."""

    checked = 0

    def act(self, obs, rng):
        for i in range(len(obs)):
            view = obs.view(i)
            one = rb.observation_of(view, obs.kind)
            assert one.view(0) == view
            assert (one.kind, one.trick) == (obs.kind, obs.trick)
            for name in ("side", "hand", "bases", "lead_category", "lead_base", "lead_card", "discards",
                         "opponent_discards", "played", "tricks_won", "first_lead", "declarations", "power_bases"):
                mine, theirs = getattr(one, name), getattr(obs, name)
                if theirs is None:
                    assert mine is None, name
                    continue
                assert mine.dtype == theirs.dtype and np.array_equal(mine[0], theirs[i]), name
            for name, column in obs.history().items():
                assert np.array_equal(one.history()[name][0], column[i]), name
            assert one._chunk.hand[0, 1 - view.side] == 0  # the opponent's hand is not there
            Spy.checked += 1
        return super().act(obs, rng)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_rebuilt_observation_is_the_batch_engines(preset):
    rules = Rules.preset(preset)
    Spy.checked = 0
    rb.play(rules, [Spy(), GreedyPolicy()], 40, 3)
    rb.play(rules, [GreedyPolicy(), Spy()], 40, 3)
    assert Spy.checked > 40 * rules.tricks


def test_hint_bot_does_not_peek_and_is_registered():
    from geolab import registry

    entry = registry.get("ranks")
    assert entry.hint == HINT and entry.seat is seat and entry.review is review
    assert BOTS.kwargs(HINT)[0].family == "search"
    assert "peek" not in HINT and "oracle" not in HINT


# ----- the review ------------------------------------------------------------------------------
class Blunder:
    """Greedy, except at the first trick's lead, where it plays `first` (when set)."""

    def __init__(self):
        self.greedy, self.first = GreedySeat(), None

    def act(self, decision):
        view = decision.observation
        if decision.kind == "lead" and view.trick == 0 and self.first is not None:
            return self.first
        return getattr(self.greedy, decision.kind)(view) if decision.kind != "discard" else \
            tuple(sorted(self.greedy.discard(view)))


def test_review_names_a_known_blunder_first():
    rules = Rules.preset("combo1")
    solver = OracleSolver()
    for seed in range(40):
        deal = GAME.deal(rules, np.random.default_rng(seed))
        if deal.drawn_first_lead() != 0:
            continue
        seats = [Blunder(), Blunder()]
        game = GAME.play(rules, deal, seats)
        pos, played = next(positions(game))
        moves = solver.solve(pos).moves
        best = max(moves, key=lambda m: (rank_for(0, m.winner), m.tricks[0]))
        worst = min(moves, key=lambda m: (rank_for(0, m.winner), m.tricks[0]))
        if rank_for(0, best.winner) == 2 and rank_for(0, worst.winner) == 0:
            break
    else:
        pytest.fail("no deal with a losing first lead in 40 seeds")
    seats[0].first = worst.move
    game = GAME.play(rules, deal, seats)
    lines = review(game, 0)
    assert lines[0].startswith("Review by the oracle (sees both hands")
    label = f"{POSTAL[worst.move.card]} {('size', 'state', 'pop')[worst.move.category]}"
    assert re.fullmatch(rf"  trick 1: leading [A-Z]{{2}} (size|state|pop) would have kept the win "
                        rf"\(your {label} lost it\)", lines[1]), lines
    assert len(lines) <= 3 and all(len(line) <= WIDTH for line in lines)
    assert costs(game, 0)[0][0][0] == 2  # a win given away counts first


def test_review_says_when_nothing_was_lost():
    rules = Rules.preset("battle1")
    for seed in range(40):
        deal = GAME.deal(rules, np.random.default_rng(seed))
        game = GAME.play(rules, deal, [seat(GreedyPolicy(), rules, np.random.default_rng(0))] * 2)
        if not costs(game, 0):
            assert review(game, 0)[1].startswith("  none of your leads and answers lost")
            return
    pytest.fail("greedy lost value in every one of 40 deals")
