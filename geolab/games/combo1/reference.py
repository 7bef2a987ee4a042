"""A Combo 1 match's reference engine: one round's match between two teams, as the text reads.

The match is a game made of games: it plays Border-Up, State IQ, Dashing States and Play the
Ranks by their own engines' steps (`geolab.stepwise.stage`), with their own rules
(`Rules.stage`), and keeps the clock and the games won.

**The schedule** (`Rules.round`). A morning match plays the four games in order (`Rules.order`), again and
again, while the round's clock runs; an afternoon match first draws a card each (the statehood
rank closer to 1 chooses first), each team chooses a game (kind ``choose``; the second a
different one), and the two alternate while the clock runs; the final plays the four games once,
stops early (`Rules.early_stop`), and a level final goes to Border-Up tie-breakers; a playoff
(the tournament's, for a place in the final) is one Border-Up game, played again while it ties.

**The clock** (`geolab.games.combo1.timing`). Each game lasts its setup, its race or its turns:
seconds that come from the game as played (a race's claims, the guesses, the tricks). A game
that ends after the bell does not count (`Rules.unfinished`), and the bell ends the match.

**Who goes first.** State IQ's first guesser is the winner of Border-Up, Play the Ranks' first
lead the winner of Dashing States (`first_player`): the latest of the match (on every schedule
the text gives, the game just before, where it was played at all); otherwise, or after a tie, a
statehood draw, the one each game's own deal holds.

**The deal** (`Deal`): for each game its deals in the order the match uses them (the i-th
Border-Up of the match plays ``deal.games[0][i]``), as many as the clock allows at most
(`slots`), and the afternoon's statehood draw. Stepped without a deal, chance deals each game
as it begins, after a one-outcome chance node that names the game (`MARK` + game, so the deal
a chance-stepped match made can be read back from its outcomes alone, `deal_from_chance`).

**What a seat sees** (`MatchView`): the clock, the games won, every game so far (which, who won,
its seconds, whether it counted), the choices, and the game being played as that game's own
view shows it to the seat.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

import numpy as np

from geolab.cards import N_CARDS, STATEHOOD
from geolab.cards import RANKS as CARD_RANKS
from geolab.errors import IllegalActionError
from geolab.game import Decision
from geolab.games.borderup import reference as border_up
from geolab.games.combo1 import timing
from geolab.games.combo1.rules import BORDER_UP, DASHING, GAMES, RANKS, STATE_IQ, TITLES, Rules
from geolab.games.dashing import reference as dashing
from geolab.games.ranks import reference as ranks
from geolab.games.stateiq import reference as state_iq
from geolab.stepwise import Ask, Chance, Claim, Determinized, Resampled, State, draw_cards, stage

SEATS = (0, 1)
SIDES = "AB"
ENGINES = (border_up.ENGINE, state_iq.ENGINE, dashing.ENGINE, ranks.ENGINE)
#: The game that decides who goes first at a game, where one does.
DECIDER = {STATE_IQ: BORDER_UP, RANKS: DASHING}
#: Chance outcomes that are not cards: MARK + g names game g beginning; DRAW, a statehood draw.
MARK = N_CARDS
DRAW = MARK + len(GAMES)


class Pick(int):
    """A game as an action (an afternoon choice), naming itself by its title."""

    def label(self) -> str:
        return TITLES[self]


# ----- the deal ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Deal:
    """A match's cards: each game's deals, in the order the match plays them, and the
    afternoon's statehood draw (A's card, B's)."""

    games: tuple[tuple, tuple, tuple, tuple]
    choice_draw: tuple[int, int] | None = None


def slots(rules: Rules) -> tuple[int, ...]:
    """How many games of each kind a match may begin at most: the schedule played with every
    game at its shortest (`timing.shortest`), over every afternoon choice."""
    if rules.regular:
        return (1 + rules.tiebreaks, *(int(g < rules.regular) for g in range(1, len(GAMES))))
    plans = [rules.order] if rules.round == "morning" else [(a, b) for a in GAMES for b in GAMES if a != b]
    most = [0] * len(GAMES)
    for plan in plans:
        count, clock, k = [0] * len(GAMES), 0.0, 0
        while clock < rules.seconds:
            g = GAMES.index(plan[k % len(plan)])
            count[g] += 1
            clock += timing.shortest(rules, g)
            k += 1
        most = [max(m, c) for m, c in zip(most, count)]
    return tuple(most)


def deal_one(rules: Rules, rng: np.random.Generator) -> Deal:
    """Every game's deals by its own engine (`slots` of each), then the afternoon draw."""
    games = tuple(tuple(ENGINES[g].deal(rules.stage(g), rng) for _ in range(n)) for g, n in enumerate(slots(rules)))
    draw = tuple(int(c) for c in rng.choice(N_CARDS, 2, replace=False)) if rules.round == "afternoon" else None
    return Deal(games, draw)


def drawn(draw: Sequence[int]) -> int:
    """The side whose drawn card has the statehood rank closer to 1."""
    return 0 if CARD_RANKS[draw[0], STATEHOOD] < CARD_RANKS[draw[1], STATEHOOD] else 1


# ----- what happened -------------------------------------------------------------------------
def winner_of(game: int, played) -> int | None:
    """A game's winner (None: a tie), whatever its engine calls a tie."""
    w = played.winner
    return None if w is None or w < 0 else int(w)


@dataclass(frozen=True)
class GamePlayed:
    """One game of the match: which (`GAMES` index), its place among the match's games of that
    kind (the deal it used), the inner game as its engine played it, when it began and how long
    it took, whether it counts (finished before the bell), who was given the first turn (None:
    a draw, or not the kind of game), whether it was a final's tie-breaker, and the statehood
    draw (A's card, B's) that gave the first turn where no game did (else None; the match's
    records keep it, as Play the Ranks' own record does not)."""

    game: int
    slot: int
    played: Any
    start: float
    seconds: float
    counted: bool = True
    first: int | None = None
    tiebreak: bool = False
    draw: tuple[int, int] | None = None

    @property
    def winner(self) -> int | None:
        return winner_of(self.game, self.played)

    @property
    def end(self) -> float:
        return self.start + self.seconds


@dataclass
class Played:
    """A match played by the reference engine: the afternoon's draw and choices, then its games."""

    rules: Rules
    chooser: int | None = None
    picks: tuple[int, ...] = ()
    games: list[GamePlayed] = field(default_factory=list)
    choice_draw: tuple[int, int] | None = None

    @property
    def wins(self) -> tuple[int, int]:
        """Games won by each team, of the games that count (tie-breakers apart)."""
        won = [g.winner for g in self.games if g.counted and not g.tiebreak]
        return (won.count(0), won.count(1))

    @property
    def winner(self) -> int | None:
        a, b = self.wins
        if a != b:
            return int(b > a)
        breaker = [g.winner for g in self.games if g.tiebreak and g.winner is not None]
        return breaker[-1] if breaker else None

    def scores(self) -> np.ndarray:
        w = self.winner
        return np.array([0.5, 0.5]) if w is None else np.eye(2)[w]

    @property
    def clock(self) -> float:
        return self.games[-1].end if self.games else 0.0


# ----- what a seat sees ----------------------------------------------------------------------
@dataclass(frozen=True)
class GameSeen:
    """A game of the match as both teams saw it end: which, who won, its seconds, whether it
    counted, whether it was a tie-breaker."""

    game: int
    winner: int | None
    seconds: float
    counted: bool
    tiebreak: bool


def seen(g: GamePlayed) -> GameSeen:
    return GameSeen(g.game, g.winner, g.seconds, g.counted, g.tiebreak)


class Told(NamedTuple):
    """A finished game as a seat was told it (`MatchView.told`): the statehood draw that opened
    it (or None), its ending's lines, and the facts shown beside them (`geolab.scene.Fact`)."""

    draw: tuple[int, int] | None
    lines: tuple[str, ...]
    facts: tuple = ()


@dataclass(frozen=True)
class MatchView:
    """What one seat may see at a node of the match (module docstring): ``game`` is the game
    being played (None before the first, at the choices), ``index`` how many games began
    before it, and ``inner`` that game's own view of the seat (None at the choices); ``draw``
    the statehood draw (A's card, B's, face up) that gave the game being played its first
    turn, where one did.

    ``told`` holds, for each finished game, a `Told`: the statehood draw that opened it (or
    None), its ending as this seat was told it, in words, and the facts its views show beside
    them (a race hand's map) (``steps``'s `tell`; empty when stepped without one): for the
    table's words only, so it is not part of the observation (its strings, tensors and equality
    leave it out). It never holds a game as played, which keeps hidden cards (Combo 1's Play
    the Ranks discards) that the seat never saw."""

    rules: Rules
    seat: int
    clock: float
    wins: tuple[int, int]
    past: tuple[GameSeen, ...]
    choice_draw: tuple[int, int] | None = None
    chooser: int | None = None
    picks: tuple[int, ...] = ()
    game: int | None = None
    index: int = 0
    inner: Any = None
    draw: tuple[int, int] | None = None
    told: tuple[Told, ...] = field(default=(), compare=False, repr=False)


# ----- the reference engine ------------------------------------------------------------------
def first_player(rules: Rules, past: Sequence, game: int) -> int | None:
    """Who takes the first turn at `game` (State IQ's guess, Play the Ranks' lead): the winner
    of the game that decides it (`DECIDER`), the latest of `past` (games with ``game`` and
    ``winner``); None: a draw decides."""
    decider = DECIDER.get(game)
    return next((g.winner for g in reversed(past) if g.game == decider), None)


def next_game(rules: Rules, games: Sequence[GamePlayed], picks: Sequence[int]) -> tuple[int, bool] | None:
    """The game the match plays next and whether it is a tie-breaker; None: the match is over."""
    k = len(games)
    if rules.round == "morning":
        return (rules.morning[k % len(GAMES)], False)
    if rules.round == "afternoon":
        return (picks[k % 2], False)
    regular = [g for g in games if not g.tiebreak]
    if len(regular) < rules.regular and not final_decided(rules, regular):
        return (len(regular), False)
    if Played(rules, games=list(games)).winner is None and len(games) - len(regular) < rules.tiebreaks:
        return (BORDER_UP, True)
    return None


def final_decided(rules: Rules, games: Sequence[GamePlayed]) -> bool:
    """Whether a final stops after its first three games (`Rules.early_stop`): a team won all
    three, or two of them and the third ended in a tie. ``decided`` reads "the third" as the
    third of those three games, in any order (then, and only then, the fourth game cannot
    change the champion: the other team can at best come within one); ``literal`` as game 3."""
    if rules.round != "final" or len(games) != 3 or rules.early_stop == "never":
        return False
    won = [g.winner for g in games]
    most = max(won.count(0), won.count(1))
    tied = won[2] is None if rules.early_stop == "literal" else None in won
    return most == 3 or (most == 2 and tied)


def with_first(game: int, deal, first: int | None):
    """A game's deal with its first turn given (unchanged where the draw it holds decides)."""
    if first is None:
        return deal
    return replace(deal, first=first) if game == STATE_IQ else replace(deal, first_lead=first)


def steps(rules: Rules, deal: Deal | None = None, tell: Callable[[GamePlayed, int], tuple] | None = None):
    """The match, as a generator of nodes (`geolab.stepwise`); returns the `Played` match.
    ``tell(game, seat)``: a finished game's ending for that seat, its lines and facts, kept in
    its later views (`MatchView.told`; the game's views give it, `geolab.games.combo1.game`)."""
    rules.validate()
    match = Played(rules)
    now: dict = {"game": None, "choice_draw": None, "draw": None}
    told: tuple[list, list] = ([], [])

    def observe(seat: int, inner=None) -> MatchView:
        return MatchView(rules, seat, match.clock, match.wins, tuple(seen(g) for g in match.games),
                         now["choice_draw"], match.chooser, match.picks, now["game"], len(match.games), inner,
                         now["draw"], tuple(told[seat]))

    if rules.round == "afternoon":
        if deal is None:
            yield Chance("draw", (DRAW,))
            draw = yield from draw_cards(range(N_CARDS), 2, "draw")
        else:
            draw = _checked_draw(deal.choice_draw, "deal: choice_draw")
        now["choice_draw"] = match.choice_draw = (int(draw[0]), int(draw[1]))
        match.chooser = drawn(draw)
        for seat in (match.chooser, 1 - match.chooser):
            legal = tuple(Pick(g) for g in range(len(GAMES)) if g not in match.picks)
            asked = yield Ask((Decision(seat, "choose", observe(seat), legal, "choice"),), observe)
            match.picks = (*match.picks, int(asked[seat]))
    used = [0] * len(GAMES)
    while (upcoming := next_game(rules, match.games, match.picks)) is not None:
        game, tiebreak = upcoming
        first = first_player(rules, match.games, game)
        now["game"] = game
        where = f"game {len(match.games) + 1} ({TITLES[game]})"
        if deal is None:
            inner_deal = yield from _chance_deal(rules, game, first)
        else:
            inner_deal = with_first(game, _slot(deal, game, used[game]), first)
        drew = game in DECIDER and first is None and inner_deal.draw is not None  # else its engine refuses it
        now["draw"] = draw = tuple(int(c) for c in inner_deal.draw) if drew else None
        played = yield from stage(ENGINES[game].steps(rules.stage(game), inner_deal), observe, where)
        start, seconds = match.clock, timing.seconds(rules, game, played)
        limit = rules.seconds
        counted = limit is None or start + seconds <= limit or rules.unfinished == "count"
        match.games.append(GamePlayed(game, used[game], played, start, seconds, counted, first, tiebreak, draw))
        for seat in SEATS if tell is not None else ():
            lines, facts = tell(match.games[-1], seat)
            told[seat].append(Told(draw, tuple(lines), tuple(facts)))
        used[game] += 1
        now["game"] = now["draw"] = None
        if limit is not None and match.clock >= limit:
            break
    return match


def _chance_deal(rules: Rules, game: int, first: int | None):
    """A game's deal as chance makes it: the game named (`MARK`), a statehood draw where one
    decides the first turn, then its cards (Border-Up's and Dashing States' by their own
    steps: None)."""
    yield Chance("game", (MARK + game,))
    draw = None
    if game in DECIDER and first is None:
        yield Chance("draw", (DRAW,))
        draw = tuple((yield from draw_cards(range(N_CARDS), 2, "draw")))
    if game == STATE_IQ:
        a, b = yield from draw_cards(range(N_CARDS), 2)
        power = yield Chance("power card", tuple(range(len(state_iq.POWER_DECK))))
        return state_iq.Deal((a, b), power, draw, first)
    if game == RANKS:
        h = rules.ranks.hand_size
        cards = yield from draw_cards(range(N_CARDS), 2 * h)
        return ranks.Deal((tuple(sorted(cards[:h])), tuple(sorted(cards[h:]))), draw, None, first)
    return None


def _slot(deal: Deal, game: int, k: int):
    if not isinstance(deal, Deal) or len(deal.games) != len(GAMES):
        raise IllegalActionError("deal: expected a Combo 1 match's deal (each game's deals)")
    if k >= len(deal.games[game]):
        raise IllegalActionError(f"deal: {TITLES[game]} deal {k + 1} is not dealt")
    return deal.games[game][k]


def _checked_draw(draw, where: str) -> tuple[int, int]:
    if draw is None or len(draw) != 2 or len({*draw}) != 2 or \
            not all(isinstance(c, (int, np.integer)) and not isinstance(c, bool) and 0 <= c < N_CARDS for c in draw):
        raise IllegalActionError(f"{where}: expected two different cards, got {draw!r}")
    return (int(draw[0]), int(draw[1]))


def answered(game: int, played, view, kind: str, seat: int, timed: bool):
    """What `seat` answered at one of the decisions of a played game of kind `game` (asked
    `kind`, with its own view `view` of that game): read back from the played game, for the logs
    and records that replay a match."""
    if game in (BORDER_UP, DASHING) and timed:
        return played.claims[seat]
    if game == DASHING:
        return played.said[seat][view.place]
    if game == STATE_IQ:
        n = len(view.phases) - 1
        phase, seen_phase = played.phases[n], view.phases[n]
        return phase.clues[len(seen_phase.clues)].value if kind == "clue" else phase.guesses[len(seen_phase.guesses)]
    if kind == "discard":
        return tuple(sorted(played.discards[seat]))
    if kind == "declare":
        return played.declarations[seat]
    trick = played.tricks[view.trick]
    return ranks.Lead(trick.lead, trick.category, trick.base) if kind == "lead" else trick.follow


# ----- chance and hidden information -------------------------------------------------------
def deal_from_chance(rules: Rules, outcomes: Sequence[int]) -> Deal:
    """The deal a chance-stepped match's outcomes make: the afternoon draw, then each game's
    outcomes after its `MARK` (its draw after a `DRAW`), read by its own engine (State IQ's
    and Play the Ranks' cards here, as `_chance_deal` draws them)."""
    outcomes = [int(o) for o in outcomes]
    choice_draw, segments, k = None, [], 0
    while k < len(outcomes):
        o = outcomes[k]
        if o == DRAW and not segments:
            choice_draw = _pad(outcomes[k + 1:k + 3], 2)
            k += 3
        elif MARK <= o < DRAW:
            segments.append((o - MARK, None, []))
            k += 1
        elif o == DRAW:
            segments[-1] = (segments[-1][0], _pad(outcomes[k + 1:k + 3], 2), segments[-1][2])
            k += 3
        elif segments:
            segments[-1][2].append(o)
            k += 1
        else:
            raise IllegalActionError(f"chance: outcome {o} before any game began")
    games: list[list] = [[] for _ in GAMES]
    for game, draw, got in segments:
        games[game].append(_segment_deal(rules, game, draw, got))
    if rules.round == "afternoon" and choice_draw is None:
        choice_draw = (0, 1)
    return Deal(tuple(tuple(g) for g in games), choice_draw)


def _pad(cards: list[int], n: int) -> tuple[int, ...]:
    return tuple(cards + [c for c in range(N_CARDS) if c not in cards][:n - len(cards)])


def _segment_deal(rules: Rules, game: int, draw, got: list[int]):
    if game == STATE_IQ:
        a, b = _pad(got[:2], 2)
        power = got[2] if len(got) > 2 else 0
        # cards dealt without a draw before them: the first guesser was given (`with_first`), and
        # no draw was made, as the match stepped by chance shows it
        return state_iq.Deal((a, b), power, draw if draw is not None or got else (0, 1), None)
    if game == RANKS:
        h = rules.ranks.hand_size
        cards = _pad(got, 2 * h)
        return ranks.Deal((tuple(sorted(cards[:h])), tuple(sorted(cards[h:]))), draw or (0, 1), None, None)
    return ENGINES[game].deal_from_chance(rules.stage(game), got)


def max_length(rules: Rules) -> int:
    """The choices (a draw and two picks), then every game the clock allows: its mark, a draw,
    and its own longest."""
    per = [1 + 3 + ENGINES[g].max_length(rules.stage(g)) for g in range(len(GAMES))]
    return 5 + sum(n * p for n, p in zip(slots(rules), per))


def split_log(rules: Rules, deal: Deal, log: Sequence) -> tuple[list, list[tuple[int, int, int | None, list]], bool]:
    """The log's answers split: the afternoon's choices, and for each game begun (in order)
    ``(game, slot, first, its answers)``, the game now being played included (its answers
    possibly none yet); and whether the match is over."""
    state = State(ENGINE, rules, deal)
    choices: list = []
    games: list[tuple[int, int, int | None, list]] = []

    def begin(game: int, past: Sequence[GameSeen]) -> None:
        games.append((game, sum(1 for g in games if g[0] == game), first_player(rules, past, game), []))

    def reach(view: MatchView) -> None:
        for j in range(len(games), view.index):  # games that asked nothing (a Border-Up nobody could win)
            begin(view.past[j].game, view.past[:j])
        if view.game is not None and len(games) == view.index:
            begin(view.game, view.past)

    for entry in log:
        if entry[0] != "ask":
            continue
        view = state.observe(state.to_move()[0])
        reach(view)
        (choices if view.game is None else games[view.index][3]).append(entry)
        state.apply(entry[1])
    reach(state.observe(state.to_move()[0] if state.to_move() else 0))
    return choices, games, state.is_over()


def resample(rules: Rules, deal: Deal, log: Sequence, seat: int, rng: np.random.Generator) -> Resampled:
    """A deal and log `seat` cannot tell from these: every game begun resampled by its own
    engine on its part of the log (a finished game that asked nothing, a Border-Up deal
    nobody could win, kept), every game not begun dealt afresh; the draws are public, and
    kept."""
    choices, begun, over = split_log(rules, deal, log)
    games = [list(g) for g in deal.games]
    new_log = list(choices)
    for i, (game, slot, first, answers) in enumerate(begun):
        if answers or (i == len(begun) - 1 and not over):
            inner = with_first(game, deal.games[game][slot], first)
            new = ENGINES[game].resample(rules.stage(game), inner, answers, seat, rng)
            games[game][slot], answers = (new.deal, list(new.log)) if isinstance(new, Resampled) else (new, answers)
            if game in DECIDER and first is None and games[game][slot].draw is None:  # the public draw, kept
                games[game][slot] = replace(games[game][slot], draw=inner.draw)
        new_log += answers
    for k in range(len(GAMES)):
        used = sum(1 for g in begun if g[0] == k)
        games[k][used:] = [ENGINES[k].deal(rules.stage(k), rng) for _ in games[k][used:]]
    return Resampled(Deal(tuple(tuple(g) for g in games), deal.choice_draw), tuple(new_log))


# ----- a state from a seat's view alone ------------------------------------------------------
#: Plays tried for a past game of Play the Ranks before giving up (random legal play, kept when
#: it ends as the seat saw that game end).
TRIES = 2000


def determinize(rules: Rules, seat: int, view: MatchView, rng: np.random.Generator, game=None) -> State:
    """A state at the seat's node built from its `MatchView` alone: the afternoon's draw and
    choices as shown; each past game (the view keeps only how it ended) played anew as one
    that ends the same way (`played_as_seen`: its winner and its seconds, so the clock, the
    games won and who goes first are the same); the game being played determinized by its own
    engine from its own view; the games still to come dealt afresh.
    The state is of `game` (the registered one, whose action ids a search needs; default `ENGINE`)."""
    log: list = []
    if view.chooser is not None:
        log += [("ask", {s: Pick(p)}) for s, p in zip((view.chooser, 1 - view.chooser), view.picks)]
    past = [played_as_seen(rules, g, first_player(rules, view.past[:j], g.game), rng) for j, g in enumerate(view.past)]
    if view.game is None and view.inner is not None:  # over: the view still shows the last game that asked
        j = max(j for j, (_, answers) in enumerate(past) if answers)
        past[j] = _final_as_seen(rules, seat, view.inner, view.past[j], first_player(rules, view.past[:j],
                                                                                       view.past[j].game), rng)
    games: list[list] = [[] for _ in GAMES]
    for g, (deal, answers) in zip(view.past, past):
        games[g.game].append(deal)
        log += answers
    if view.game is not None and view.inner is not None and len(view.past) == view.index:
        now = ENGINES[view.game].determinize(rules.stage(view.game), seat, view.inner, rng)
        games[view.game].append(now.deal if view.draw is None else replace(now.deal, draw=view.draw))
        log += [e for e in now.log if e[0] == "ask"]
    for k, n in enumerate(slots(rules)):
        games[k] += [ENGINES[k].deal(rules.stage(k), rng) for _ in range(n - len(games[k]))]
    return State(game or ENGINE, rules, Deal(tuple(tuple(g) for g in games), view.choice_draw), log)


def _driven(rules: Rules, game: int, deal, first: int | None, answer: Callable) -> tuple[State, float]:
    """Game `game` on `deal` (its first turn given as the match gives it), each decision
    answered by ``answer(state, decision)``; the finished state and its seconds."""
    state = State(ENGINES[game], rules.stage(game), with_first(game, deal, first))
    while not state.is_over():
        state.apply({d.seat: answer(state, d) for d in state.decisions()})
    return state, timing.seconds(rules, game, state.played)


def _race_at(rules: Rules, game: int, target: float, play: Callable[[float], tuple[State, float]]) -> State:
    """A race game whose claims come at r seconds (``play(r)``), r found so that the game takes
    exactly `target` seconds: its seconds grow with r, so bisect (floats are summed, so the
    first estimate may miss by a rounding)."""
    state, base = play(0.0)
    lo, hi = 0.0, max(target - base, 0.0)
    for _ in range(200):
        state, got = play(hi)
        if got == target:
            return state
        if got < target:
            lo, hi = hi, hi + max(target - got, 1e-9)
        else:
            break
    for _ in range(200):
        mid = (lo + hi) / 2
        state, got = play(mid)
        if got == target:
            return state
        lo, hi = (mid, hi) if got < target else (lo, mid)
    raise IllegalActionError(f"determinize: no {TITLES[game]} game takes {target} seconds")  # pragma: no cover


def _final_as_seen(rules: Rules, seat: int, inner, seen_game: GameSeen, first: int | None,
                   rng: np.random.Generator) -> tuple[object, list]:
    """The last game a finished match's view still shows, determinized by its own engine from
    that view; where nobody claimed at a race, the other's search (unseen) made as long as the
    game's seconds need."""
    game = seen_game.game
    now = ENGINES[game].determinize(rules.stage(game), seat, inner, rng)
    asks = [e for e in now.log if e[0] == "ask"]

    def play(r: float | None) -> tuple[State, float]:
        log = asks if r is None else [("ask", {**asks[0][1], 1 - seat: Claim(None, r)}), *asks[1:]]
        state = State(ENGINES[game], rules.stage(game), with_first(game, now.deal, first), log)
        return state, timing.seconds(rules, game, state.played)

    state, got = play(None)
    if got != seen_game.seconds:
        state = _race_at(rules, game, seen_game.seconds, play)
    return now.deal, [e for e in state.log if e[0] == "ask"]


def played_as_seen(rules: Rules, seen_game: GameSeen, first: int | None,
                   rng: np.random.Generator) -> tuple[object, list]:
    """A deal and log of a past game that ends as the seat saw it end (the same winner and the
    same seconds), drawn afresh: a race is won by a claim of the winner's at the second that
    makes its seconds (a tie: nobody claims until then); State IQ's guesses find the card at
    the guess that gives the winner and the guesses made; Play the Ranks is played at random
    until a play ends so."""
    game, target, winner = seen_game.game, seen_game.seconds, seen_game.winner
    stage_rules = rules.stage(game)
    if game == BORDER_UP and winner is None:  # no deal held a solution, where its seconds say so
        hands = [border_up.hand_anew(stage_rules, (), (), False, rng) for _ in range(stage_rules.redeals + 1)]
        dry = border_up.Deal(tuple((h, border_up.hand_anew(stage_rules, h, (), False, rng)) for h in hands))
        state, seconds = _driven(rules, game, dry, first, None)
        if seconds == target:
            return dry, []
    if game == BORDER_UP:
        hand = border_up.hand_anew(stage_rules, (), (), True, rng)
        rest = border_up.hand_anew(stage_rules, hand, (), None, rng)
        w = 0 if winner is None else winner
        deal = border_up.Deal(((hand, rest) if w == 0 else (rest, hand),))
        claim = None if winner is None else border_up.solutions(stage_rules, hand)[0]
        state = _race_at(rules, game, target, lambda r: _driven(
            rules, game, deal, first, lambda st, d: Claim(claim if d.seat == w else None, r)))
    elif game == DASHING:
        deal = ENGINES[game].deal(stage_rules, rng)
        state = _race_at(rules, game, target, lambda r: _driven(rules, game, deal, first, _dashing_win(winner, r)))
    elif game == STATE_IQ:
        state = _found_as_seen(rules, _state_iq_deals(rules, first, rng), first, seen_game, rng)
    else:
        state = _ranks_as_seen(rules, first, seen_game, rng)
    return state.deal, [e for e in state.log if e[0] == "ask"]


def _dashing_win(winner: int | None, r: float) -> Callable:
    """Dashing States' answers: the winner shouts a row of its cards in order at r seconds and
    names them right; the other never shouts (nobody, for a tie)."""
    def answer(state: State, d):
        hand = d.observation.hand
        stage_rules = state.rules
        order = tuple(sorted(range(stage_rules.cards), key=lambda p: hand[p])[:stage_rules.placed])
        if d.kind == "announce":
            card = hand[order[d.observation.place]]
            return dashing.Said(card, card if stage_rules.announce == "capitals" else None)
        return Claim(dashing.Row(order, True) if d.seat == winner else None, r)
    return answer


def _state_iq_deals(rules: Rules, first: int | None, rng: np.random.Generator) -> list:
    """State IQ deals for a past game, one for each first guesser it may have had (the given
    one; else the draw's, either way: the view does not keep the draw)."""
    deal = ENGINES[STATE_IQ].deal(rules.stage(STATE_IQ), rng)
    return [deal] if first is not None else [deal, replace(deal, draw=deal.draw[::-1])]


def _found_as_seen(rules: Rules, deals: list, first: int | None, seen_game: GameSeen,
                   rng: np.random.Generator) -> State:
    """State IQ played so that each phase finds the card at a chosen guess (or misses),
    every choice of guess tried in a random order until one ends as `seen_game`."""
    plans = [(a, b) for a in (1, 2, 3, None) for b in (1, 2, 3, None)]
    for k in rng.permutation(len(plans) * len(deals)):
        deal, plan = deals[k // len(plans)], plans[k % len(plans)]

        def answer(state: State, d, deal=deal, plan=plan):
            if d.kind == "clue":
                return d.legal[int(rng.integers(len(d.legal)))]
            phases = d.observation.phases
            target = state.deal.cards[1 - d.seat]
            if plan[len(phases) - 1] == len(phases[-1].guesses) + 1:
                return state_iq.STATES[target]
            wrong = [g for g in d.legal if g != target]
            return wrong[int(rng.integers(len(wrong)))]

        state, seconds = _driven(rules, STATE_IQ, deal, first, answer)
        if seconds == seen_game.seconds and winner_of(STATE_IQ, state.played) == seen_game.winner:
            return state
    raise IllegalActionError(f"determinize: no State IQ game ends as seen ({seen_game})")  # pragma: no cover


def _ranks_as_seen(rules: Rules, first: int | None, seen_game: GameSeen, rng: np.random.Generator) -> State:
    """Play the Ranks played at random (a fresh deal each try) until a play ends as `seen_game`."""
    for _ in range(TRIES):
        deal = ENGINES[RANKS].deal(rules.stage(RANKS), rng)
        state, seconds = _driven(rules, RANKS, deal, first, lambda st, d: d.legal[int(rng.integers(len(d.legal)))])
        if seconds == seen_game.seconds and winner_of(RANKS, state.played) == seen_game.winner:
            return state
    raise IllegalActionError(f"determinize: no Play the Ranks game ends as seen ({seen_game})")  # pragma: no cover


class Engine(Determinized):
    """A Combo 1 match's reference engine as a step-wise game (`geolab.stepwise.Determinized`)."""

    name = "combo1"
    reference = sys.modules[__name__]

    def chance_outcomes(self, rules: Rules) -> int:
        return DRAW + 1


ENGINE = Engine()
