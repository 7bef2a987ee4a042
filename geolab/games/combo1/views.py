"""A Combo 1 match at the keyboard (`geolab.game.Views`), for `geolab play combo1`.

Every screen of a game starts with the match line (the round, the clock against the round's
length, the games won, the game being played and its number), then that game's story so far
and its own screen: each of the four games is played at the keyboard by its own views
(`geolab.games.<game>.views`), handed its own view of the seat (``view.inner``), races
included: the play loop draws the bots' claims first and the earliest is the person's
deadline, as in the game played alone, and the game's own ``echo``, ``called`` and
``race_note`` words are passed on.

**The afternoon choice** (``choose``) is a screen of its own: the statehood draw, who chooses
first, the game already chosen and the games still open.

**The story** (`events`): in the afternoon, first a line naming both teams' choices (the
second chooser's is seen here first); a line as each game begins (who takes the first turn,
and what decided it: the game that gave it, or the statehood draw and its cards), and as it
ends, that game's own ending as its own views tell it from the seat's side (State IQ's clues,
guesses and answers, Play the Ranks' tricks to the last, a race's times and claims, and its
verdict; a race's lesson: both clocks, the rival's claim, the hand's solutions), then a line
with its winner, its minutes and whether it counted; lines are only ever added, as the play
loop needs. `ending` is the whole story and the match's verdict. The next game's scenes carry
the facts of the game before (a race hand's map: `told`), except at a race.

Inside a match State IQ's first guesser is given by Border-Up where Border-Up had a winner:
its deal's statehood draw was not made, so State IQ's views are shown the game without it.
"""

from __future__ import annotations

import dataclasses

from geolab.cards import POSTAL, STATEHOOD
from geolab.cards import RANKS as CARD_RANKS
from geolab.common.text import WIDTH
from geolab.game import Decision, MoveError, Views, typed_number
from geolab.games.borderup.views import VIEWS as BORDER_UP_VIEWS
from geolab.games.combo1.observations import clock_text
from geolab.games.combo1.reference import (
    DECIDER,
    SIDES,
    GamePlayed,
    MatchView,
    Played,
    Told,
    drawn,
    first_player,
    seen,
)
from geolab.games.combo1.rules import GAMES, RANKS, STATE_IQ, TITLES
from geolab.games.dashing.views import VIEWS as DASHING_VIEWS
from geolab.games.ranks.views import VIEWS as RANKS_VIEWS
from geolab.games.ranks.views import fit, ordinal, wrapped
from geolab.games.stateiq.views import VIEWS as STATE_IQ_VIEWS
from geolab.scene import Fact, Pile, Scene, state_card
from geolab.scene import moves as scene_moves

#: Each game's own views, in `GAMES` order.
GAME_VIEWS = (BORDER_UP_VIEWS, STATE_IQ_VIEWS, DASHING_VIEWS, RANKS_VIEWS)
#: Words a person may type for a game at the choice (besides its number and its title).
WORDS = {"border-up": 0, "border": 0, "borderup": 0, "state-iq": 1, "state": 1, "stateiq": 1, "iq": 1,
         "dashing-states": 2, "dashing": 2, "ranks": 3, "play-the-ranks": 3, "play": 3}


def _who(seat: int, me: int, capital: bool = False) -> str:
    if seat == me:
        return "You" if capital else "you"
    return SIDES[seat]


def inner(decision: Decision) -> Decision:
    """A game's decision as that game asks it: its own view of the seat (State IQ's without the
    statehood draw where the match gave the first guesser: no draw was made)."""
    view: MatchView = decision.observation
    mine = view.inner
    if view.game == STATE_IQ and view.draw is None and getattr(mine, "draw", None) is not None:
        mine = dataclasses.replace(mine, draw=None)
    return dataclasses.replace(decision, observation=mine)


def own(game: GamePlayed):
    """A finished game as its own views are to tell it: State IQ's without the statehood draw
    where the match gave the first guesser (as `inner`)."""
    played = game.played
    if game.game == STATE_IQ and game.draw is None and played.deal.draw is not None:
        played = dataclasses.replace(played, deal=dataclasses.replace(played.deal, draw=None))
    return played


def _views(decision: Decision):
    return GAME_VIEWS[decision.observation.game]


def _round_words(rules) -> str:
    if rules.seconds is None:
        return {"final": "the championship final", "playoff": "a playoff"}.get(rules.round, rules.round)
    return f"{'an' if rules.round[0] in 'aeiou' else 'a'} {rules.round} match"


def _wins(wins, me: int) -> str:
    return f"A{' (you)' if me == 0 else ''} {wins[0]} - B{' (you)' if me == 1 else ''} {wins[1]}"


def match_line(view: MatchView) -> str:
    """The line on top of every game's screen."""
    rules = view.rules
    clock = "not timed" if rules.seconds is None else f"clock {clock_text(view.clock)} of {clock_text(rules.seconds)}"
    now = "" if view.game is None else f", game {view.index + 1}: {TITLES[view.game]}"
    return f"Combo 1, {_round_words(rules)}{now}; {clock}; games won {_wins(view.wins, view.seat)}."


# ----- the story ----------------------------------------------------------------------------
def begin_line(rules, me: int, n: int, game: int, past, start: float, draw=None) -> str:
    """The line a game begins with: its number, when, and who takes the first turn and what
    decided it: the game that gave it, or the statehood draw (`draw`, A's card and B's, named
    here for Play the Ranks, whose own views do not name it; State IQ's name it)."""
    what = f"Game {n}, {TITLES[game]}, begins at {clock_text(start)}"
    if game not in DECIDER:
        return f"{what}."
    first = first_player(rules, past, game)
    verb, third = ("guess", "guesses") if game == STATE_IQ else ("lead", "leads")
    if first is not None:
        return f"{what}: {_who(first, me)} {verb if first == me else third} first (won {TITLES[DECIDER[game]]})."
    if game != RANKS or draw is None:
        return f"{what}: a statehood draw decides who {third} first."
    ranks = [int(CARD_RANKS[c, STATEHOOD]) for c in draw]
    first = drawn(draw)
    return (f"{what}: by a statehood draw, A drew {POSTAL[draw[0]]} ({ordinal(ranks[0])} state), B drew "
            f"{POSTAL[draw[1]]} ({ordinal(ranks[1])}): {_who(first, me)} {verb if first == me else third} first.")


def end_line(me: int, n: int, game, start: float) -> str:
    """The line a game (a `GameSeen`) ends with: its winner, its length, whether it counted."""
    result = "a tie" if game.winner is None else f"{_who(game.winner, me)} won"
    kind = ", the tie-breaker" if game.tiebreak else ""
    late = " It ended after the bell: it does not count." if not game.counted else ""
    return f"Game {n}, {TITLES[game.game]}{kind}: {result} ({clock_text(game.seconds)} long, to " \
           f"{clock_text(start + game.seconds)}).{late}"


def choice_line(me: int, chooser: int | None, picks) -> list[str]:
    """The afternoon's two choices, once both are made: each team's game, and which is played
    first (nothing in other rounds). Either team may have chosen last, unseen by the other
    until now."""
    if chooser is None or len(picks) < 2:
        return []
    second = 1 - chooser
    return [f"The afternoon's games: {_who(chooser, me)} chose {TITLES[picks[0]]}, played first; "
            f"{_who(second, me)} chose {TITLES[picks[1]]}, played second."]


def ending_lines(game: GamePlayed, me: int) -> tuple[str, ...]:
    """A finished game's ending from seat `me`'s side, by its own views."""
    return tuple(GAME_VIEWS[game.game].ending(own(game), me))


def told(game: GamePlayed, me: int) -> tuple[tuple[str, ...], tuple]:
    """What the match keeps of a finished game for seat `me` (`MatchView.told`): its ending's
    lines and its pictures (`Views.pictures`: a race hand's map, a State IQ clue map) as facts
    of the next game's table."""
    pictures = GAME_VIEWS[game.game].pictures(own(game), me)
    return ending_lines(game, me), tuple(Fact("map", p.caption, p.svg) for p in pictures)


def story(rules, me: int, past, endings, now: int | None, chooser: int | None = None, picks=(),
          draw=None) -> list[str]:
    """The afternoon's choices; each finished game (`past`, as both teams saw it end) begun,
    told to its end as seat `me` was told it (`endings`: a `Told` each, its opening draw and
    its ending's lines), and ended; and the first line of the game now begun (`draw`: the
    statehood draw that gives it its first turn, where one does)."""
    lines, start = choice_line(me, chooser, picks), 0.0
    for n, (game, kept) in enumerate(zip(past, endings), start=1):
        lines.append(begin_line(rules, me, n, game.game, past[:n - 1], start, kept.draw))
        lines += kept.lines
        lines.append(end_line(me, n, game, start))
        start += game.seconds
    if now is not None:
        lines.append(begin_line(rules, me, len(past) + 1, now, past, start, draw))
    return lines


def verdict(played: Played, me: int) -> list[str]:
    a, b = played.wins
    mine, theirs = (a, b) if me == 0 else (b, a)
    breakers = [g for g in played.games if g.tiebreak]
    w = played.winner
    if w is None:
        return [f"The match is level, {mine}-{theirs}: a tie."]
    verb = "won" if w == me else "lost"
    if mine == theirs and breakers:
        return [f"Level at {mine}-{theirs}; {_who(w, me)} won the Border-Up tie-breaker: you {verb} the match."]
    return [f"You {verb} the match, {mine}-{theirs} in games."]


# ----- the views ----------------------------------------------------------------------------
class Combo1Views(Views):
    """`geolab.game.Views` for a Combo 1 match: ``choose`` (the afternoon's games), then each
    game's own decisions by its own views."""

    def screen(self, decision: Decision) -> list[str]:
        view: MatchView = decision.observation
        if decision.kind == "choose":
            return fit([match_line(view)] + self._choosing(view, decision.legal))
        mine = inner(decision)
        return fit([match_line(view)] + _views(decision).events(mine) + _views(decision).screen(mine))

    def prompt(self, decision: Decision) -> str:
        if decision.kind == "choose":
            return "choose GAME > "
        return _views(decision).prompt(inner(decision))

    def help(self, decision: Decision) -> list[str]:
        if decision.kind != "choose":
            return _views(decision).help(inner(decision))
        first = decision.legal[0]
        return fit([f"Type a game's number or name: '{first + 1}' or '{TITLES[first]}'.",
                    "The two chosen games are played in turn, the first chooser's first, until the bell."], WIDTH - 2)

    def label(self, decision: Decision, action) -> str:
        if decision.kind == "choose":
            return TITLES[action]
        return _views(decision).label(inner(decision), action)

    def parse(self, decision: Decision, text: str):
        if decision.kind != "choose":
            return _views(decision).parse(inner(decision), text)
        words = "-".join(text.strip().lower().split())
        titles = {t.lower().replace(" ", "-"): g for g, t in enumerate(TITLES)}
        n = typed_number(words)
        g = n - 1 if n is not None else titles.get(words, WORDS.get(words))
        if g is None or not 0 <= g < len(GAMES):
            raise MoveError(f"'{text.strip()[:30]}' is not a game: type 1-4 or a name ('Border-Up', 'ranks')")
        for option in decision.legal:
            if option == g:
                return option
        raise MoveError(f"{TITLES[g]} is chosen already: choose another game")

    def events(self, decision: Decision) -> list[str]:
        view: MatchView = decision.observation
        return fit(story(view.rules, view.seat, view.past, view.told, view.game, view.chooser, view.picks, view.draw))

    def ending(self, played: Played, seat: int) -> list[str]:
        endings = [Told(g.draw, ending_lines(g, seat)) for g in played.games]
        lines = story(played.rules, seat, tuple(seen(g) for g in played.games), endings, None, played.chooser,
                      played.picks)
        return fit(lines + verdict(played, seat))

    def pictures(self, played: Played, seat: int) -> list:
        """Each finished game's own pictures (State IQ's clue map, a race hand's groups), captioned
        with the game."""
        return [dataclasses.replace(p, caption=f"Game {k} ({TITLES[g.game]}): {p.caption}")
                for k, g in enumerate(played.games, start=1)
                for p in GAME_VIEWS[g.game].pictures(own(g), seat)]

    def reason(self, decision: Decision, action) -> str:
        if decision.kind == "choose":
            return f"{TITLES[action]} comes first among the open games in the hint team's preference"
        return _views(decision).reason(inner(decision), action)

    # ----- the play loop's race words: the game being played's own (`geolab.game.Views`) -----
    def echo(self, decision: Decision, action, text: str) -> str:
        if decision.kind == "choose":
            return f"-> {self.label(decision, action)}"
        return _views(decision).echo(inner(decision), action, text)

    def called(self, decision: Decision, seat: int, claim, words: str) -> list[str]:
        return _views(decision).called(inner(decision), seat, claim, words)

    def race_note(self, decision: Decision) -> str:
        return _views(decision).race_note(inner(decision))

    def laid(self, decision: Decision, action, text: str) -> tuple:
        return () if decision.kind == "choose" else _views(decision).laid(inner(decision), action, text)

    def race_search(self, decision: Decision) -> tuple[int, int] | None:
        return None if decision.kind == "choose" else _views(decision).race_search(inner(decision))

    def note(self, decision: Decision, action, text: str) -> str | None:
        """The game's own line on words a move ignored, where it has one."""
        return None if decision.kind == "choose" else _views(decision).note(inner(decision), action, text)

    # ----- the scene (geolab.scene) ------------------------------------------------------------
    def scene(self, decision: Decision) -> Scene:
        """The game being played's own scene under the match's line and, while it is not a race,
        the facts of the game before it (a race's lesson on a map); at the afternoon's choice,
        the statehood draw's two cards and the open games as options."""
        view: MatchView = decision.observation
        match = Fact("match", match_line(view))
        if decision.kind != "choose":
            # the game before, over: its lesson's map (a race hand's), never on a race's own table
            before = view.told[-1].facts if view.told and not decision.timed else ()
            return _views(decision).scene(inner(decision)).with_facts([match, *before],
                                                                       f"Combo 1: {TITLES[view.game]}")
        draw = Pile("table", "The statehood draw (A, B)",
                    tuple(state_card(c, f"draw-{SIDES[s]}") for s, c in enumerate(view.choice_draw)))
        told = " ".join(line.strip() for line in self._choosing(view, ())[:-1])
        return Scene("Combo 1", "choose", self.prompt(decision), (draw,), (match, Fact("rule", told)),
                     moves=scene_moves(decision, self.label, lambda g: ((), (TITLES[g],))), options=("game",))

    # ----- parts ----------------------------------------------------------------------------
    @staticmethod
    def _choosing(view: MatchView, legal) -> list[str]:
        me, draw = view.seat, view.choice_draw
        ranks = [int(CARD_RANKS[c, STATEHOOD]) for c in draw]
        lines = wrapped(f"The statehood draw: A drew {POSTAL[draw[0]]} ({ordinal(ranks[0])} state), B drew "
                        f"{POSTAL[draw[1]]} ({ordinal(ranks[1])}): {_who(view.chooser, me)} "
                        f"{'choose' if view.chooser == me else 'chooses'} first.", 0)
        if view.picks:
            lines += wrapped(f"{_who(view.chooser, me, True)} chose {TITLES[view.picks[0]]}, played first; now you "
                             "choose a different game, played second.", 0)
        else:
            lines += wrapped("Choose the game played first; the other team then chooses a different one, and the "
                             "two alternate until the bell.", 0)
        lines.append("Open games:")
        lines += [f"  [{g + 1}] {TITLES[g]}" for g in legal]
        return lines


VIEWS = Combo1Views()
