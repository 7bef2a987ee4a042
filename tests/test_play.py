"""The play loop (`geolab.lab.play`) on the test-only game, and the views of every registered
game (`Game.views`) held to their contract: every legal move's words read back to it, screens
fit the terminal, events only grow, the ending continues them. A game is tested here by being
registered."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from people import RandomPerson

from geolab import records, registry
from geolab.errors import GeolabError, RecordError
from geolab.game import MoveError
from geolab.lab.play import Adjourned, Match, Person, play_match, replay_session, seat_bots
from geolab.stepwise import Claim

GAMES = registry.names()
PRESETS = [(g, p) for g in GAMES for p in registry.get(g).game.Rules.PRESETS]
#: (game, bot) pairs: every bot that may sit at a table (peeking bots may not)
TABLE_BOTS = [(g, b) for g in GAMES for b in registry.get(g).bots.names() if not registry.get(g).bots.info(b).peeks]
WIDTH = 79


class Script:
    """The person's keyboard: the lines given, then the end of input; everything written kept."""

    def __init__(self, lines):
        self.lines, self.out = list(lines), []

    def read(self, prompt: str) -> str:
        self.out.append(prompt)
        if not self.lines:
            raise EOFError
        return self.lines.pop(0)

    def write(self, line: str = "") -> None:
        self.out.append(line)

    @property
    def text(self) -> str:
        return "\n".join(self.out)


def toy_match(vs="best", seed=3, **rules):
    entry = registry.get("toy")
    r = entry.game.Rules.preset("standard").replace(**rules)
    return Match(entry, r, seed, 0, seat_bots(entry, r, 0, vs))


def play(match, lines, confirm=False, resumed=None):
    io = Script(lines)
    person = Person(match.game.views, io, hint=None, confirm=confirm)
    try:
        play_match(match, person, io.write, resumed)
    except Adjourned:
        pass
    return io


# ----- the loop ---------------------------------------------------------------------------
@pytest.mark.usefixtures("rigs")
def test_a_whole_game_is_shown_ends_with_a_verdict_and_its_session_replays():
    match = toy_match()
    io = play(match, ["1", "1", "1"])
    assert match.finished and len(match.played) == 1
    assert "round 1 (size)" in io.text and io.out[-1] in ("You won.", "You lost.", "You shared the win.")
    again, stopped = replay_session(json.loads(json.dumps(match.to_json())))
    assert stopped is None and again.finished
    assert records.replay(match.to_json())["games"] == [match.game.report(match.played[0])]


@pytest.mark.usefixtures("rigs")
def test_illegal_input_gets_one_line_and_the_prompt_again():
    match = toy_match()
    io = play(match, ["ZZ", "99", "", "1", "1", "1"])
    assert match.finished
    complaints = [line for line in io.out if "is not a card of your hand" in line]
    assert len(complaints) == 2 and all("\n" not in c for c in complaints)
    assert io.out.count("play CARD > ") >= 5  # asked again after each mistake (and the empty line)


@pytest.mark.usefixtures("rigs")
def test_undo_takes_back_an_unconfirmed_move_and_enter_confirms():
    match = toy_match()
    io = play(match, ["1", "undo", "2", "", "1", "", "1", ""], confirm=True)
    assert match.finished
    assert "  taken back: choose again" in io.out
    hand = match.played[0].hands[0]
    assert match.played[0].rounds[0][0] == hand[1]  # the second card, after the undo


@pytest.mark.usefixtures("rigs")
def test_undo_takes_back_a_played_move_and_the_bots_replies():
    match = toy_match()
    io = play(match, ["undo", "1", "undo", "2", "1", "1"])
    assert match.finished
    assert any(line.startswith("  nothing to undo yet") for line in io.out)
    assert "  taken back: your last move and the replies to it" in io.out
    hand = match.played[0].hands[0]
    assert match.played[0].rounds[0][0] == hand[1]  # round 1 was played again, with the second card
    log = match.games[0]
    assert len(log) == 3 * 3 and [m[0] for m in log[:3]] == [0, 1, 2]  # no trace of the move taken back
    again, _ = replay_session(json.loads(json.dumps(match.to_json())))
    assert again.played[0].rounds == match.played[0].rounds


@pytest.mark.usefixtures("rigs")
def test_undo_in_a_later_round_rebuilds_the_game_from_its_log():
    match = toy_match()
    io = play(match, ["1", "1", "undo", "undo", "2", "1", "1"])
    assert match.finished and io.text.count("taken back: your last move") == 2
    hand = match.played[0].hands[0]
    assert match.played[0].rounds[0][0] == hand[1]


@pytest.mark.usefixtures("rigs")
def test_a_race_at_the_keyboard_is_a_claim_with_the_persons_own_seconds():
    match = toy_match(race=True)
    io = play(match, ["1", "1", "1", "1"])
    assert match.finished and "race! claim your best size card, fast" in io.text
    claim = match.games[0][0]
    assert claim[:2] == [0, "race"] and len(claim) == 5 and 0 <= claim[4] < 5  # measured, and quick here
    assert match.played[0].race[0].action == match.played[0].hands[0][0]
    passed = toy_match(race=True)
    play(passed, ["pass", "1", "1", "1"])
    assert passed.games[0][0][2:4] == [-1, "pass"] and passed.played[0].race[0].action is None
    again, _ = replay_session(json.loads(json.dumps(passed.to_json())))
    assert again.played[0].race == passed.played[0].race


@pytest.mark.usefixtures("rigs")
def test_help_moves_hint_and_board_answer_without_moving():
    entry = registry.get("toy")
    match = toy_match()
    io = Script(["help", "moves", "hint", "board", "1", "1", "1"])
    hinted = []
    seat = entry.seated(entry.bots.make("best", match.rules), match.rules, np.random.default_rng(0))

    def hint(decision):
        hinted.append(decision)
        return seat.act(decision)

    play_match(match, Person(match.game.views, io, hint=hint, confirm=False), io.write)
    assert match.finished and len(hinted) == 1
    assert "  commands:" in io.out and any(line.startswith("    help ") for line in io.out)
    assert any(line.startswith("  3 legal moves: ") for line in io.out)
    hint = io.out.index(next(line for line in io.out if line.startswith("  hint: ")))
    assert io.out[hint + 1].startswith("    because it has the best size rank")


@pytest.mark.usefixtures("rigs")
def test_a_single_legal_move_is_counted_in_the_singular():
    io = play(toy_match(), ["1", "1", "moves", "1"])
    assert any(line.startswith("  1 legal move: ") for line in io.out)
    assert not any("1 legal moves" in line for line in io.out)


@pytest.mark.usefixtures("rigs")
def test_a_views_note_on_a_move_is_shown_as_it_is_played():
    """The optional ``note`` of a game's views (Play the Ranks: a category named at a follow)
    is said once the move is read."""
    match = toy_match()
    views = match.game.views

    class Noting:
        def __getattr__(self, name):
            return getattr(views, name)

        def note(self, decision, action, text):
            return f"noted: {text}" if text == "1 ok" else None

    io = Script(["1 ok", "1", "1"])

    def parse(decision, text):
        return views.parse(decision, text.split()[0])

    noting = Noting()
    noting.parse = parse
    play_match(match, Person(noting, io, hint=None, confirm=False), io.write)
    assert match.finished and io.out.count("  noted: 1 ok") == 1


def test_the_docs_cover_every_built_in_game():
    """Issue 37, item 10: docs/play.md tells how to play every built-in game at the keyboard,
    and the README's layout paragraph names every game's package."""
    root = Path(__file__).resolve().parents[1]
    play_doc = (root / "docs" / "play.md").read_text()
    readme = (root / "README.md").read_text()
    layout = " ".join(readme[readme.index("## Layout"):].split("\n## ")[0].split())
    for name, definition in registry.builtin().items():
        assert f"geolab play {name}" in play_doc, name
        package = definition.game.split(".")[2]
        assert f"`{package}`" in layout, package


@pytest.mark.usefixtures("rigs")
def test_quit_asks_first_and_a_quit_match_resumes_to_the_same_game():
    whole = toy_match()
    play(whole, ["1", "2", "1"])
    quitter = toy_match()
    io = play(quitter, ["1", "quit", "n", "2", "quit", "y"])
    assert "  playing on" in io.text and not quitter.finished
    saved = json.loads(json.dumps(quitter.to_json()))
    assert saved["finished"] is False and len(saved["games"][0]) == 2 * 3  # two rounds of three seats
    assert records.replay(saved)["next"] == "game 1: A's play"
    resumed, games = replay_session(saved)[0], saved["games"]
    again = Match(resumed.entry, resumed.rules, resumed.seed, resumed.you, resumed.bots)
    io = play(again, ["1"], resumed=games)
    assert again.finished and again.games == whole.games
    assert "round 1 (size)" in io.text  # the resumed game's history is shown before the move


@pytest.mark.usefixtures("rigs")
def test_the_end_of_input_adjourns_and_keeps_every_move():
    match = toy_match()
    play(match, ["1"])
    assert not match.finished and len(match.games[0]) == 3 + 0  # round 1's three cards (the bots' too)


@pytest.mark.usefixtures("rigs")
def test_a_series_plays_games_until_a_seat_reaches_the_target():
    match = toy_match(target=4)
    io = play(match, ["1"] * 60)
    assert match.finished and len(match.played) >= 2
    totals = np.sum([match.game.deal_points(p) for p in match.played], axis=0)
    assert totals.max() >= 4 and (totals == totals.max()).sum() == 1
    assert "== game 2 of the series ==" in io.text and "series: you " in io.text
    assert io.out[-1] in ("You won the series.", "B won the series.", "C won the series.")
    assert replay_session(match.to_json())[0].finished


@pytest.mark.usefixtures("rigs")
def test_seat_bots_reads_one_bot_for_all_or_one_a_seat():
    entry = registry.get("toy")
    rules = entry.game.Rules.preset("standard")
    assert seat_bots(entry, rules, 1, "best") == ["best", None, "best"]
    assert seat_bots(entry, rules, 0, "first,best") == [None, "first", "best"]
    with pytest.raises(GeolabError, match="3 bots for the 2 other seats"):
        seat_bots(entry, rules, 0, "first,best,best")
    with pytest.raises(GeolabError, match="unknown toy bot"):
        seat_bots(entry, rules, 0, "nobody")


@pytest.mark.parametrize("change, message", [
    (lambda s: s["games"][0][0].__setitem__(3, "XX"), "the log says 'XX'"),
    (lambda s: s["games"][0][0].__setitem__(2, 7), "index 7 is not one of the 3 legal moves"),
    (lambda s: s["games"][0][0].__setitem__(0, 1), "the log has seat 1's"),
    (lambda s: s["games"][0].append([0, "play", 0, "AL"]), "logged moves after the game's end"),
    (lambda s: s.__setitem__("finished", False), "finished: the file says false"),
    (lambda s: s.__setitem__("extra", 1), "not a key of a session file"),
    (lambda s: s.__setitem__("you", 1), "you: expected the seat"),
    (lambda s: s.__setitem__("seed", -1), "seed: expected"),
    (lambda s: s["players"].__setitem__(1, "nobody"), "players: unknown toy bot"),
    (lambda s: s["games"][0].__setitem__(0, "AL"), r"expected \[seat, kind, index, label\]"),
    (lambda s: s.__setitem__("format", "geolab-session/9"), "format: expected 'geolab-session/1'"),
    # issue 37: whole numbers of more than 4,300 digits (Python prints none) in a session read in-process
    (lambda s: s["games"][0][0].__setitem__(2, 7 ** 6000), "index a number of about 5071 digits is not one of"),
    (lambda s: s["games"][0][0].__setitem__(0, 7 ** 6000), "the log has seat a number of about 5071 digits's"),
    (lambda s: s.__setitem__("format", 7 ** 6000), "format: expected 'geolab-record/1', got a number of about"),
])
@pytest.mark.usefixtures("rigs")
def test_a_tampered_session_file_is_one_record_error(change, message):
    match = toy_match()
    play(match, ["1", "1", "1"])
    session = json.loads(json.dumps(match.to_json()))
    change(session)
    with pytest.raises(RecordError, match=message):
        records.replay(session)


# ----- every game's views -----------------------------------------------------------------
class Checker:
    """Plays random legal moves and checks the views at every decision of every seat."""

    def __init__(self, views, rng, events):
        self.views, self.rng, self.events = views, rng, events

    def act(self, decision):
        views = self.views
        labels = [views.label(decision, a) for a in decision.legal]
        assert len(set(labels)) == len(labels), f"two legal moves share words: {labels}"
        for action, label in zip(decision.legal, labels):
            assert views.parse(decision, label) == action, label
        lines = views.screen(decision) + views.help(decision) + [views.prompt(decision)]
        assert all(isinstance(x, str) and len(x) <= WIDTH for x in lines), [x for x in lines if len(x) > WIDTH]
        # a superscript, an Arabic-Indic 1, thousands of digits: each a line of the views', never a ValueError
        for junk in ("no such move 12345", "\u00b2", "\u0661", "1 \u00b2", "9" * 5000):
            with pytest.raises(MoveError):
                views.parse(decision, junk)
        seen = views.events(decision)
        before = self.events.get(decision.seat, [])
        assert seen[: len(before)] == before, "events must only grow"
        self.events[decision.seat] = seen
        action = decision.legal[int(self.rng.integers(len(decision.legal)))]
        assert isinstance(views.reason(decision, action), str)
        return Claim(action, float(self.rng.exponential(2.0))) if decision.timed else action


@pytest.mark.parametrize("game, preset", PRESETS)
def test_views_read_back_every_legal_move_and_the_ending_continues_the_events(game, preset):
    entry = registry.get(game)
    rules = entry.game.Rules.preset(preset)
    rng = np.random.default_rng(11)
    for _ in range(2):
        events: dict = {}
        seats = [Checker(entry.game.views, rng, events) for _ in range(entry.game.seats(rules))]
        played = entry.game.play(rules, entry.game.deal(rules, rng), seats)
        for seat in range(entry.game.seats(rules)):
            ending = entry.game.views.ending(played, seat)
            assert all(isinstance(x, str) and len(x) <= WIDTH for x in ending)
            assert ending[: len(events.get(seat, []))] == events.get(seat, [])
            assert len(ending) > len(events.get(seat, [])), "the ending adds at least the verdict"


@pytest.mark.parametrize("game", GAMES)
def test_every_game_seats_its_bots_and_names_a_hint_bot(game):
    entry = registry.get(game)
    assert entry.seat is not None and entry.hint is not None
    rules = entry.game.Rules.preset(entry.game.Rules.DEFAULT)
    rng = np.random.default_rng(5)
    bots = [entry.seated(entry.bots.make(entry.hint, rules), rules, np.random.default_rng(s))
            for s in range(entry.game.seats(rules))]
    played = entry.game.play(rules, entry.game.deal(rules, rng), bots)
    assert np.isclose(entry.game.scores(played).sum(), 1)
    assert not entry.bots.info(entry.hint.split(":")[0]).peeks, "a hint must not peek"


@pytest.mark.parametrize("game, bot", TABLE_BOTS)
def test_a_person_can_play_a_whole_match_against_every_bot(game, bot):
    entry = registry.get(game)
    rules = entry.game.Rules.preset(entry.game.Rules.DEFAULT)
    match = Match(entry, rules, 21, 0, seat_bots(entry, rules, 0, bot))
    play_match(match, RandomPerson(entry.game.views, np.random.default_rng(1)), lambda line: None)
    assert match.finished and match.played
    again, stopped = replay_session(json.loads(json.dumps(match.to_json())))
    assert stopped is None and again.games == match.games


@pytest.mark.parametrize("game", [g for g in GAMES if any(registry.get(g).bots.info(b).peeks
                                                          for b in registry.get(g).bots.names())])
def test_a_peeking_bot_may_not_sit_at_the_table(game):
    entry = registry.get(game)
    rules = entry.game.Rules.preset(entry.game.Rules.DEFAULT)
    peeker = next(b for b in entry.bots.names() if entry.bots.info(b).peeks)
    with pytest.raises(GeolabError, match="peeks at hidden cards"):
        seat_bots(entry, rules, 0, peeker)
    with pytest.raises(GeolabError, match="peeks at hidden cards, so it cannot sit at a table"):
        entry.seated(entry.bots.make(entry.bots.info(peeker).example, rules), rules, np.random.default_rng(0))
