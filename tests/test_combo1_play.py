"""A Combo 1 match at the keyboard (`geolab play combo1`): the afternoon's choice screen and
how a choice is typed, and a race inside the match run as the game alone runs it (the bot's
claim is the person's deadline), on a scripted keyboard and a simulated clock."""

from __future__ import annotations

import re

import numpy as np
import pytest

from geolab import registry
from geolab.cards import POSTAL, card
from geolab.game import Decision, MoveError
from geolab.games.borderup.reference import solutions
from geolab.games.combo1.game import GAME
from geolab.games.combo1.reference import ENGINE, Deal, GamePlayed, GameSeen, deal_one
from geolab.games.combo1.rules import DASHING, Rules
from geolab.games.combo1.views import VIEWS
from geolab.lab.play import Match, Person, TimeUp, play_match, seat_bots
from geolab.stepwise import Claim, State

WIDTH = 79


def _choice(first_pick=None) -> Decision:
    rules = Rules(round="afternoon")
    draw = (POSTAL.index("NJ"), POSTAL.index("PA"))  # A drew the 3rd state, B the 2nd: B chooses first
    state = State(ENGINE, rules, Deal(deal_one(rules, np.random.default_rng(0)).games, draw))
    if first_pick is not None:
        state.apply({1: first_pick})
        return state.decision(0)
    return state.decision(1)


def test_the_choice_screen_shows_the_draw_who_chooses_and_the_open_games():
    first = _choice()
    lines = VIEWS.screen(first)
    text = "\n".join(lines)
    assert lines[0] == "Combo 1, an afternoon match; clock 0:00 of 12:00; games won A 0 - B (you) 0."
    assert "A drew NJ (3rd state), B drew PA (2nd): you choose first." in text
    assert "[1] Border-Up" in text and "[4] Play the Ranks" in text
    second = _choice(3)
    text = "\n".join(VIEWS.screen(second))
    assert "B chose Play the Ranks, played first; now you choose a different game" in text
    assert "[4]" not in text and "[3] Dashing States" in text
    assert all(len(x) <= WIDTH for x in VIEWS.screen(second) + VIEWS.help(second))


def test_a_choice_is_typed_by_number_or_name_and_a_chosen_game_is_refused():
    d = _choice(3)
    assert VIEWS.parse(d, "1") == 0 and VIEWS.parse(d, "state iq") == 1 and VIEWS.parse(d, "Dashing") == 2
    for g in d.legal:
        assert VIEWS.parse(d, VIEWS.label(d, g)) == g
    with pytest.raises(MoveError, match="Play the Ranks is chosen already"):
        VIEWS.parse(d, "ranks")
    with pytest.raises(MoveError, match="is not a game"):
        VIEWS.parse(d, "chess")
    assert VIEWS.reason(d, d.legal[0]).startswith("Border-Up comes first")


def test_the_story_names_both_teams_choices_once_both_are_made():
    """Issue 37, item 11: a person who chose first never learned which game the other team
    chose; the story's first line names both choices, from either seat."""
    d = _choice(3)
    assert VIEWS.events(d) == []  # one choice made: nothing to tell yet
    state = State(ENGINE, d.observation.rules, Deal(deal_one(d.observation.rules, np.random.default_rng(0)).games,
                                                    d.observation.choice_draw))
    state.apply({1: 3})
    state.apply({0: 0})
    told = {seat: " ".join(" ".join(VIEWS.events(state.decision(seat))).split()) for seat in (0, 1)}  # discards
    assert told[1].startswith("The afternoon's games: you chose Play the Ranks, played first; A chose Border-Up, "
                              "played second. Game 1, Play the Ranks, begins at 0:00")
    assert told[0].startswith("The afternoon's games: B chose Play the Ranks, played first; you chose Border-Up, "
                              "played second.")
    while not state.is_over():
        state.apply({d.seat: Claim(d.legal[0], 5.0) if d.timed else d.legal[0] for d in state.decisions()})
    ending = " ".join(" ".join(VIEWS.ending(state.played, 1)).split())
    assert ending.startswith("The afternoon's games: you chose Play the Ranks, played first; A chose Border-Up")
    morning = Rules(round="morning")
    start = State(ENGINE, morning, deal_one(morning, np.random.default_rng(0)))
    assert not any("chose" in line for line in VIEWS.events(start.decisions()[0]))


# ----- a race at the keyboard -----------------------------------------------------------------
class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Keyboard:
    """A person answering each race prompt by `answer(screen)`: (seconds, line) typed that long
    after the prompt; a read whose timeout is shorter runs the clock to it and is `TimeUp`."""

    def __init__(self, answer, clock: Clock):
        self.answer, self.clock, self.out, self.timeouts = answer, clock, [], []

    def read(self, prompt: str, timeout: float | None = None) -> str:
        self.out.append(prompt)
        assert prompt.startswith("GeoPlunge!"), prompt
        start = max(i for i, line in enumerate(self.out) if line.startswith("Combo 1,"))
        delay, line = self.answer(self.out[start:])
        if timeout is not None:
            self.timeouts.append(timeout)
            if delay > timeout:
                self.clock.now += timeout
                raise TimeUp
        self.clock.now += delay
        return line

    def write(self, line: str = "") -> None:
        self.out.append(line)


def _hand(screen: list[str]) -> tuple[int, ...]:
    start = next(i for i, line in enumerate(screen) if line.startswith("Your 18 cards:"))
    return tuple(sorted(card(w) for line in screen[start + 1:start + 7] for w in line.split()
                        if re.fullmatch(r"[A-Z]{2}", w)))


def _playoff(seed: int, answer) -> tuple[Match, Keyboard]:
    """A playoff (Border-Up, again while it ties) with the person at A against a team."""
    entry = registry.get("combo1")
    rules = Rules(round="playoff")
    m = Match(entry, rules, seed, 0, seat_bots(entry, rules, 0, "team"))
    clock = Clock()
    keys = Keyboard(answer, clock)
    play_match(m, Person(entry.game.views, keys, clock=clock), keys.write)
    return m, keys


def test_the_bots_claim_is_the_persons_deadline_in_a_race_of_the_match():
    m, keys = _playoff(1, lambda screen: (10_000.0, "pass"))
    assert m.finished
    played = m.played[0]
    first = played.games[0].played
    b = first.claims[1]
    assert b.action is not None and keys.timeouts[0] == pytest.approx(b.seconds)  # B's claim is the deadline
    assert "  Your time is up: no claim from you." in keys.out
    assert "Combo 1, a playoff, game 1: Border-Up; not timed; games won A (you) 0 - B 0." in keys.out
    claim = m.games[0][0]
    assert claim[:4] == [0, "claim", -1, "pass"] and claim[4] >= b.seconds
    assert re.search(r"You (won|lost) the match, \d-\d in games\.|level", keys.out[-1])
    assert all(len(line) <= WIDTH for line in keys.out)


def test_a_claim_typed_in_time_wins_the_race_of_the_match():
    def answer(screen):
        found = solutions(Rules().border_up, _hand(screen))
        return (0.5, " ".join(POSTAL[c] for g in found[0] for c in g)) if found else (0.5, "pass")

    m, keys = _playoff(1, answer)
    first = m.played[0].games[0]
    assert first.played.claims[0].seconds == pytest.approx(0.5) and first.winner == 0
    assert m.played[0].winner == 0 and keys.out[-1] == "You won the match, 1-0 in games."


def test_the_story_says_who_goes_first_and_why_and_which_games_count():
    from geolab.games.combo1.reference import GameSeen
    from geolab.games.combo1.rules import BORDER_UP, DASHING, RANKS, STATE_IQ
    from geolab.games.combo1.views import begin_line, end_line

    won_by_b = [GameSeen(BORDER_UP, 1, 56.0, True, False)]
    assert begin_line(Rules(), 0, 2, STATE_IQ, won_by_b, 56.0) == \
        "Game 2, State IQ, begins at 0:56: B guesses first (won Border-Up)."
    assert begin_line(Rules(), 0, 4, RANKS, [GameSeen(DASHING, 0, 47.0, True, False)], 183.0) == \
        "Game 4, Play the Ranks, begins at 3:03: you lead first (won Dashing States)."
    assert begin_line(Rules(), 0, 2, STATE_IQ, [GameSeen(BORDER_UP, None, 50.0, True, False)], 50.0) == \
        "Game 2, State IQ, begins at 0:50: a statehood draw decides who guesses first."
    late = GameSeen(STATE_IQ, None, 80.0, False, False)
    assert end_line(1, 6, late, 400.0) == \
        "Game 6, State IQ: a tie (1:20 long, to 8:00). It ended after the bell: it does not count."


# ----- every ending shown (issue 34, item 5) ---------------------------------------------------
def _random_match(rules: Rules, seed: int) -> State:
    """A match played to its end by random legal moves (races claimed at random seconds)."""
    rng = np.random.default_rng(seed)
    state = State(ENGINE, rules, deal_one(rules, rng))
    while not state.is_over():
        state.apply({d.seat: Claim(d.legal[int(rng.integers(len(d.legal)))], float(rng.exponential(20.0)))
                     if d.timed else d.legal[int(rng.integers(len(d.legal)))] for d in state.decisions()})
    return state


def test_each_game_ends_with_its_own_story_and_verdict_before_the_next_begins():
    """A finished game is told by its own views (the State IQ guesses and answers, Play the
    Ranks' last trick, a race's claims) between the match's line as it begins and as it ends;
    the events at the next game's first decision already hold it, and the ending continues
    the events."""
    from geolab.games.combo1.views import GAME_VIEWS, own

    rules = Rules(round="final", early_stop="never")
    for seat in (0, 1):
        state = _random_match(rules, 3)
        played = state.played
        told = VIEWS.ending(played, seat)
        at = 0
        for n, game in enumerate(played.games, start=1):
            begin = next(i for i, line in enumerate(told) if line.startswith(f"Game {n}, ") and "begins at" in line)
            mine = GAME_VIEWS[game.game].ending(own(game), seat)
            assert told[begin + 1:begin + 1 + len(mine)] == mine
            assert told[begin + 1 + len(mine)].startswith(f"Game {n}, ") and begin >= at
            at = begin + 1 + len(mine)
            assert re.search(r"\b(won|lost|tie)\b", mine[-1], re.IGNORECASE), mine[-1]  # its own verdict
        last = played.games[-1]
        assert [g.game for g in played.games][:4] == [0, 1, 2, 3]
        assert any(line.startswith(f"Trick {len(last.played.tricks)}, base") for line in mine)  # the last trick
    # the next game's first decision already tells the game before it to its verdict, in the
    # words kept for that seat alone (the view never holds a game as played: its hidden cards)
    state = State(GAME, rules, deal_one(rules, np.random.default_rng(3)))
    rng = np.random.default_rng(3)
    while len(state.observe(0).told) < 2:
        state.apply({d.seat: Claim(d.legal[0], float(rng.exponential(20.0))) if d.timed else d.legal[0]
                     for d in state.decisions()})
    d = state.decisions()[0]
    assert not any(isinstance(x, GamePlayed) for x in vars(d.observation).values() if isinstance(x, tuple))
    opening, words, _ = d.observation.told[0]
    lines = VIEWS.events(d)
    assert words and all(line in lines for line in words)
    first_game = next(iter(_finished(rules, state)))
    assert words == tuple(GAME_VIEWS[first_game.game].ending(own(first_game), d.seat)) and opening == first_game.draw
    assert State(ENGINE, rules, state.deal, state.log).observe(d.seat).told == ()  # stepped without words: none


def _finished(rules: Rules, state: State):
    """The games the match has finished so far, as played: the state's log played on to the end
    by first legal moves, its first games unchanged."""
    later = State(ENGINE, rules, state.deal, state.log)
    while not later.is_over():
        later.apply({d.seat: Claim(d.legal[0], 99.0) if d.timed else d.legal[0] for d in later.decisions()})
    return later.played.games


def test_state_iq_given_its_first_guesser_by_border_up_names_no_draw():
    """Issue 34: inside a match the State IQ opening named the statehood draw though the
    Border-Up winner guesses first; it names Border-Up now, in the game and in its ending."""
    rules = Rules(round="final", early_stop="never")
    checked = 0
    for seed in range(8):
        played = _random_match(rules, seed).played
        border_up, state_iq = played.games[0], played.games[1]
        if border_up.winner is None:
            continue
        for seat in (0, 1):
            text = "\n".join(VIEWS.ending(played, seat))
            part = text[text.index("Game 2, State IQ, begins"):text.index("Game 2, State IQ:")]
            assert "Statehood draw" not in part and "(given: it won Border-Up)" in part
        assert state_iq.played.deal.draw is not None  # the deal holds a draw the match did not make
        checked += 1
    assert checked >= 3


def test_play_the_ranks_opened_by_a_statehood_draw_names_the_cards():
    from geolab.games.combo1.rules import RANKS
    from geolab.games.combo1.views import begin_line

    draw = (POSTAL.index("MT"), POSTAL.index("PA"))  # Montana the 41st state, Pennsylvania the 2nd
    tie = [GameSeen(DASHING, None, 45.0, True, False)]
    assert begin_line(Rules(), 0, 4, RANKS, tie, 221.0, draw) == \
        "Game 4, Play the Ranks, begins at 3:41: by a statehood draw, A drew MT (41st state), B drew PA (2nd): " \
        "B leads first."
    state = State(ENGINE, Rules(), deal_one(Rules(), np.random.default_rng(0)))
    assert state.decisions()[0].observation.draw is None  # Border-Up: no draw
