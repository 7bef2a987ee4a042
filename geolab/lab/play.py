"""A match at the keyboard: one loop for every registered game (`geolab play`).

A match is one game or, where the game plays a series (`Game.series_target`), games until a
seat's points reach the target with nobody level at the top. Game k is dealt from the seed's
k-th child and played on the reference engine: the person's seat is a `Person` (the game's
`Views` show the table and read the moves), every other seat a bot seated by the registry's
`Entry.seat`, so each sees only its own decisions' observations.

Every decision of every seat is logged as ``[seat, kind, index, label]``: its index in
``Decision.legal`` and the game's words for it (a race's claim adds its seconds; a claim of
nothing has index -1). The log is the session file: `geolab play --resume FILE` replays it on
the same deals and carries on from where it stopped; `geolab replay FILE` checks it move by
move (`replay_session`). The game is a `geolab.stepwise.State` stepped by this loop, so
``undo`` takes back the person's last played move and the bots' replies by rebuilding the
state from the log without them. A bot's randomness after a resume or an undo comes from its
stream as it stands, so the moves already made are kept exactly and later ones may differ.

A race (timed decisions) is a real race: the bots' claims are drawn before the person is
asked, and the earliest of them is the person's deadline (`Person.rivals`); a line that has
not arrived by then is no claim (`Terminal.read` waits with a timeout on a terminal; any other
keyboard is judged by the clock). ``moves``, ``hint`` and ``undo`` are refused at a race, and a
race claim is never taken back.
"""

from __future__ import annotations

import inspect
import sys
import textwrap
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from geolab import registry
from geolab.cards import POSTAL
from geolab.common.text import plural
from geolab.errors import GeolabError, RecordError
from geolab.game import INT63_MAX, Decision, MoveError, check_format, shown, split_bots
from geolab.stepwise import Claim, legal_index

SESSION_FORMAT = "geolab-session/1"
#: What a person may type at any prompt besides a move (the game's `Views.parse` reads moves).
COMMANDS = (
    ("help", "this help, and how to type the move asked for"),
    ("moves", "every legal move, in the game's words"),
    ("hint", "what the strongest bot that does not peek would play, and why"),
    ("undo", "take back your last move (and the bots' replies to it)"),
    ("board", "show the table again"),
    ("quit", "stop (asks first); the game is saved and --resume continues it"),
)
PERSON = "you"
WIDTH = 79  # the loop's own lines are wrapped to this; the views keep theirs within it


def wrapped(text: str, indent: str = "") -> list[str]:
    """`text` as lines of at most `WIDTH` characters, broken between words (later lines
    indented two more)."""
    return textwrap.wrap(text, WIDTH, initial_indent=indent, subsequent_indent=indent + "  ",
                         break_long_words=False, break_on_hyphens=False) or [""]


class Adjourned(GeolabError):
    """The person stopped the match (``quit``, the end of input or Ctrl-C): it is saved."""


class TakeBack(Exception):
    """The person asked to take back their last played move (``undo``)."""


class Unfinished(GeolabError):
    """A replayed log ran out before its game ended (a game stopped half-way)."""

    def __init__(self, decision: Decision):
        super().__init__("the log ends here")
        self.decision = decision


# ----- input and output ------------------------------------------------------------------
class TimeUp(Exception):
    """A read with a timeout that ran out before the person's line arrived (a race lost to
    the clock)."""


class Terminal:
    """The person's keyboard and screen: `read` a line (EOFError at the end of input; with a
    `timeout` in seconds, `TimeUp` when no whole line has come by then)."""

    def read(self, prompt: str, timeout: float | None = None) -> str:
        if timeout is None:
            return input(prompt)
        if timeout <= 0:
            raise TimeUp
        if not _can_wait(sys.stdin):  # no select on this input: read, and the caller checks the clock
            return input(prompt)
        import select

        sys.stdout.write(prompt)
        sys.stdout.flush()
        ready, _, _ = select.select([sys.stdin], [], [], timeout)
        if not ready:
            _drop_typed(sys.stdin)
            sys.stdout.write("\n")
            sys.stdout.flush()
            raise TimeUp
        line = sys.stdin.readline()
        if not line:
            raise EOFError
        return line.rstrip("\r\n")

    def write(self, line: str = "") -> None:
        print(line, flush=True)

    def say(self, text: str = "", indent: str = "") -> None:
        """A loop message, wrapped to the terminal's width."""
        for line in wrapped(text, indent):
            self.write(line)


def _can_wait(stream) -> bool:
    """Whether a read from `stream` can be given a deadline: a terminal where `select` works on
    it (POSIX). A pipe or a file is read whole lines at a time into Python's buffer, so `select`
    on it could miss lines already read; there the line is read and its lateness judged by the
    clock afterwards."""
    try:
        import select

        return hasattr(select, "select") and sys.platform != "win32" and stream.isatty() and stream.fileno() >= 0
    except (ImportError, AttributeError, OSError, ValueError):
        return False


def _drop_typed(stream) -> None:
    """Forget what the person typed of a line the clock cut off, so it does not run into the
    next prompt's line."""
    try:
        import termios

        termios.tcflush(stream.fileno(), termios.TCIFLUSH)
    except (ImportError, OSError, ValueError, AttributeError):
        pass


def _takes_timeout(io) -> bool:
    """Whether `io.read` takes a ``timeout`` (a test's keyboard may not)."""
    try:
        return "timeout" in inspect.signature(io.read).parameters
    except (TypeError, ValueError):
        return False


# ----- seats -------------------------------------------------------------------------------
class Person:
    """A person at the keyboard as a `geolab.game.Seat`: shows what happened since the last
    decision and the table, reads a move or a command, and asks again after any mistake.

    At a race (a timed decision) the play loop sets `rivals` before asking: the other seats'
    claims, already drawn, as ``(seat, Claim, words)``. The earliest of them that claims
    something is the person's deadline: if it passes before their line (or their Enter under
    ``--confirm``) arrives, the person is shown that claim (the views' ``called``, where they
    have it) and answers no claim, with the seconds that had passed. `clock` gives the seconds
    (a test may give its own)."""

    def __init__(self, views, io, hint: Callable[[Decision], object] | None = None, confirm: bool = False,
                 clock: Callable[[], float] = time.monotonic):
        self.views, self.io, self.hint, self.confirm, self.clock = views, io, hint, confirm, clock
        self.shown = 0  # lines of this game's events already printed
        self.rivals: tuple = ()

    def new_game(self) -> None:
        self.shown = 0

    def catch_up(self, lines: Sequence[str]) -> None:
        """Print the lines not yet printed this game."""
        for line in lines[self.shown:]:
            self.io.write(line)
        self.shown = max(self.shown, len(lines))

    def _since(self, started: float) -> float:
        """Seconds since `started`, to the millisecond (a person's race time)."""
        return round(self.clock() - started, 3)

    def _read(self, prompt: str, started: float | None = None, deadline: float | None = None) -> str:
        """A line; with a `deadline` (seconds after `started`), `TimeUp` once it has passed,
        whether the keyboard times out itself or the line came too late."""
        try:
            if deadline is None:
                return self.io.read(prompt)
            left = deadline - (self.clock() - started)
            if left <= 0:
                raise TimeUp
            text = self.io.read(prompt, timeout=left) if _takes_timeout(self.io) else self.io.read(prompt)
            if self.clock() - started > deadline:
                raise TimeUp
            return text
        except (EOFError, KeyboardInterrupt):
            self.io.write()
            raise Adjourned("input ended") from None

    def act(self, decision: Decision):
        """The person's move; at a race, their claim (None: ``pass``) with the seconds they
        took from the moment the table was shown, or no claim when another's came first."""
        views = self.views
        rivals, self.rivals = (self.rivals if decision.timed else ()), ()
        first = first_claim(rivals)
        deadline = None if first is None else float(first[1].seconds)
        self.catch_up(views.events(decision))
        for line in views.screen(decision):
            self.io.write(line)
        started = self.clock()
        pending, pending_text = None, ""
        while True:
            try:
                text = self._read(views.prompt(decision) if pending is None else
                                  "Enter: confirm, undo: choose again > ", started, deadline)
            except TimeUp:
                return self._too_late(decision, first, started)
            word = text.strip().lower()
            if decision.timed and word == "pass":
                return Claim(None, self._since(started))
            if not word:
                if pending is not None:
                    if decision.timed:
                        return race_claim(views, decision, pending, pending_text, self._since(started))
                    return pending
                continue
            if word in ("help", "?", "h"):
                self._help(decision)
            elif decision.timed and word in ("moves", "hint"):
                note = views.race_note(decision)
                self.say(f"no {word} in a race: it is yours to find" + (f"; {note}" if note else ""))
            elif word == "moves":
                labels = sorted(views.label(decision, a) for a in decision.legal)
                self.say(f"{plural(len(labels), 'legal move')}: " + ", ".join(labels))
            elif word == "undo":
                if pending is None:
                    if decision.timed:
                        self.say("no undo in a race: claim, or pass")
                        continue
                    raise TakeBack
                self.say("taken back: choose again")
                pending = None
            elif word == "hint":
                self._hint(decision)
            elif word in ("board", "show"):
                for line in views.screen(decision):
                    self.io.write(line)
            elif word in ("quit", "exit", "q"):
                try:
                    answer = self._read("Quit? The game is saved and geolab play --resume FILE continues it. [y/N] ",
                                        started, deadline)
                except TimeUp:
                    return self._too_late(decision, first, started)
                if answer.strip().lower() in ("y", "yes"):
                    raise Adjourned("quit")
                self.say("playing on")
            else:
                try:
                    action = views.parse(decision, text)
                except MoveError as error:
                    line = f"  {error}"
                    self.io.write(line + " (help)" if len(line) + 7 <= WIDTH else line)
                    continue
                if action not in decision.legal:  # a game's parser that let an illegal move through
                    self.say(f"{views.label(decision, action)} is not legal here (moves: the legal ones)")
                    continue
                said = views.note(decision, action, text)
                if said:
                    self.say(said)
                if not self.confirm:
                    if decision.timed:
                        return race_claim(views, decision, action, text, self._since(started))
                    return action
                pending, pending_text = action, text
                for line in wrapped(views.echo(decision, action, text), "  "):
                    self.io.write(line)

    def _too_late(self, decision: Decision, first, started: float) -> Claim:
        """The deadline passed: the first rival's claim shown, and no claim from the person."""
        for line in called_first(self.views, decision, first):
            self.say(line)
        return late_claim(first, self._since(started))

    def say(self, text: str) -> None:
        for line in wrapped(text, "  "):
            self.io.write(line)

    def _help(self, decision: Decision) -> None:
        for line in self.views.help(decision):
            self.io.write(f"  {line}")
        self.io.write("  commands:")
        for name, what in COMMANDS:
            self.io.write(f"    {name:<6} {what}")

    def _hint(self, decision: Decision) -> None:
        if self.hint is None:
            self.say("no hint bot for this game")
            return
        action = hinted(self.hint, decision)
        if action is None:
            self.say("the hint bot found no legal move here")
            return
        self.io.write(f"  hint: {self.views.label(decision, action)}")
        for line in wrapped(f"because {self.views.reason(decision, action)}", "    "):
            self.io.write(line)


def first_claim(rivals: Sequence) -> tuple | None:
    """The earliest of the other seats' claims at a race (``(seat, Claim, words)``, as
    `Person.rivals` holds them) that claims something: the person's deadline. None: no rival
    claims, so the person has all the time they want."""
    claims = sorted((r for r in rivals if r[1].action is not None), key=lambda r: r[1].seconds)
    return claims[0] if claims else None


def late_claim(first: tuple, seconds: float) -> Claim:
    """The person's answer when their claim came after `first` (the deadline): no claim, at
    the seconds that had passed (never before the rival's)."""
    return Claim(None, max(float(seconds), float(first[1].seconds)))


def called_first(views, decision: Decision, first: tuple) -> list[str]:
    """What the person is told when a rival's claim beat theirs: the views' ``called``."""
    seat, claim, words = first
    return views.called(decision, seat, claim, words)


def hinted(hint: Callable[[Decision], object], decision: Decision):
    """The legal action the hint bot suggests at `decision` (a race's claim unwrapped), or None."""
    action = hint(decision)
    if isinstance(action, Claim):
        action = action.action
    return action if legal_index(decision, action) >= 0 else None


def hint_seat(match: Match) -> Callable[[Decision], object] | None:
    """The match's hint: its game's hint bot (`registry.Entry.hint`) seated at the person's side
    on a stream of its own, built on first use; None where the game names no hint bot."""
    entry, seated = match.entry, []
    if entry.hint is None:
        return None

    def hint(decision: Decision):
        if not seated:
            bot = entry.bots.make(entry.hint, match.rules)
            seated.append(entry.seated(bot, match.rules, deal_stream(match.seed, 0, 1 << 20)))
        return seated[0].act(decision)

    return hint


def race_claim(views, decision: Decision, action, text: str, seconds: float) -> Claim:
    """The person's claim at a race: the action their `text` names, its seconds, and the cards
    it laid where the action does not say them (`Views.laid`: a wrong claim's groups)."""
    laid = () if action is None else views.laid(decision, action, text)
    return Claim(action, seconds, tuple(tuple(int(c) for c in g) for g in laid))


def laid_words(laid) -> str:
    """A claim's laid cards as a session logs them: postal codes, groups split by ``/``."""
    return " / ".join(" ".join(POSTAL[c] for c in group) for group in laid)


def logged(decision: Decision, action, views) -> list:
    """A move as the session logs it: ``[seat, kind, index, label]`` (+ seconds at a race, and
    the cards a wrong claim laid, `laid_words`, where it kept them)."""
    if decision.timed:
        claimed = action.action
        index = -1 if claimed is None else legal_index(decision, claimed)
        label = "pass" if claimed is None else views.label(decision, claimed)
        move = [decision.seat, decision.kind, index, label, float(action.seconds)]
        return move + [laid_words(action.laid)] if getattr(action, "laid", ()) else move
    return [decision.seat, decision.kind, legal_index(decision, action), views.label(decision, action)]


def scripted(move, decision: Decision, views, number: int):
    """The action a logged move names, checked: the right seat and decision, an index into
    the legal moves, and the same words (the log was made by this game and these rules)."""
    where = f"move {number + 1}"
    sizes = (5, 6) if decision.timed else (4,)
    if not (isinstance(move, list) and len(move) in sizes and type(move[0]) is int and isinstance(move[1], str)
            and type(move[2]) is int and isinstance(move[3], str)
            and (not decision.timed or (isinstance(move[4], (int, float)) and not isinstance(move[4], bool)
                                        and 0 <= move[4] < 1e9))
            and (len(move) < 6 or (isinstance(move[5], str) and 0 < len(move[5]) <= 300))):
        shape = "[seat, kind, index, label, seconds(, cards laid)]" if decision.timed else "[seat, kind, index, label]"
        raise RecordError(f"{where}: expected {shape}, got {shown(move)}")
    seat, kind, index, label = move[:4]
    if (seat, kind) != (decision.seat, decision.kind):
        raise RecordError(f"{where}: the log has seat {shown(seat)}'s {shown(kind)}, "
                          f"the game asks seat {decision.seat}'s {decision.kind!r}")
    if decision.timed and index == -1 and label == "pass":
        return Claim(None, float(move[4]))
    if not 0 <= index < len(decision.legal):
        raise RecordError(f"{where}: index {shown(index)} is not one of the {len(decision.legal)} legal moves")
    action = decision.legal[index]
    if views.label(decision, action) != label:
        raise RecordError(f"{where}: the log says {shown(label)}, but that move is "
                          f"{views.label(decision, action)!r} in this game")
    if not decision.timed:
        return action
    if len(move) < 6:
        return Claim(action, float(move[4]))
    try:
        claim = race_claim(views, decision, action, move[5], float(move[4]))
    except MoveError as error:
        raise RecordError(f"{where}: cards laid {shown(move[5])}: {error}") from None
    if not claim.laid or laid_words(claim.laid) != move[5]:
        raise RecordError(f"{where}: cards laid {shown(move[5])} are not what this claim lays, as logged")
    return claim


def play_game(game, rules, deal, seats: Sequence, script: deque, log: list, views, you: int | None = None,
              watch: Callable[[Decision, object], None] | None = None):
    """One game stepped on its `geolab.stepwise.State`: each decision from the script while it
    lasts (checked), then from its seat (None: the log ends here, `Unfinished`). Every move is
    appended to `log`, in the order the game asks. At a race the person at seat `you` is asked
    last, told the others' claims (`Person.rivals`: the earliest is their deadline). A
    `TakeBack` from the person rebuilds the state from the log up to the person's last move
    and asks them again; a race claim is never taken back (the cards have been seen). Returns
    the played game and whether the person decided anything live. ``watch(decision, action)``,
    where given, sees every move as it is logged (replayed or live), after an undo again from
    the game's first."""
    asked = False
    while True:
        state = game.state(rules, deal)
        try:
            while not state.is_over():
                answers: dict = {}
                decisions = state.decisions()
                done = 0  # decisions logged so far, in the order the game asks them

                def flush(decisions=decisions, answers=answers):  # this step's lists, bound (B023)
                    nonlocal done
                    while done < len(decisions) and decisions[done].seat in answers:
                        d, done = decisions[done], done + 1
                        action = answers[d.seat]
                        if legal_index(d, action.action if d.timed and isinstance(action, Claim) else action) >= 0 \
                                or (d.timed and isinstance(action, Claim) and action.action is None):
                            log.append(logged(d, action, views))
                            if watch is not None:
                                watch(d, action)

                live = []
                for d in decisions:
                    if script and not live:
                        answers[d.seat] = scripted(script.popleft(), d, views, len(log))
                        flush()
                    elif seats[d.seat] is None:
                        raise Unfinished(d)
                    else:
                        live.append(d)
                last = next((d for d in live if d.timed and d.seat == you), None)
                for d in live:  # the others first: at a race their claims are drawn before the person's
                    if d is not last:
                        asked |= d.seat == you
                        answers[d.seat] = seats[d.seat].act(d)
                        flush()
                if last is not None:
                    person = seats[you]  # a person's seat (Person, the web's) is told the rivals' claims
                    person.rivals = tuple(_rival(o, answers[o.seat], views) for o in decisions
                                          if o.seat != you and o.timed and isinstance(answers.get(o.seat), Claim))
                    asked = True
                    answers[you] = person.act(last)
                    flush()
                state.apply(answers)
            return state.played, asked
        except TakeBack:
            mine = [i for i, move in enumerate(log) if move[0] == you]
            if not mine:
                seats[you].say("nothing to undo yet: this is your first move of the game")
            elif len(log[mine[-1]]) >= 5:  # a race's claim: its cards are seen, its clock is gone
                seats[you].say("your last move was a race claim: a race is never run again")
            else:
                del log[mine[-1]:]
                seats[you].say("taken back: your last move and the replies to it")
                seats[you].new_game()
            script.clear()
            script.extend(log)
            del log[:]


def _rival(decision: Decision, claim: Claim, views) -> tuple:
    """Another seat's claim at a race as the person is told it: (seat, claim, its words)."""
    known = claim.action is not None and legal_index(decision, claim.action) >= 0
    words = views.label(decision, claim.action) if known else ""
    return (decision.seat, claim, words)


# ----- a match -------------------------------------------------------------------------------
@dataclass
class Match:
    """A match's identity (game, rules, seed, who sits where) and its log, one list of moves
    a game; `finished` once the match is decided."""

    entry: registry.Entry
    rules: object
    seed: int
    you: int
    bots: list  # a bot spec a seat, None at the person's
    games: list = field(default_factory=list)
    finished: bool = False
    played: list = field(default_factory=list)  # the finished games (not saved: the log is)

    @property
    def game(self):
        return self.entry.game

    def players(self) -> list[str]:
        return [PERSON if b is None else b for b in self.bots]

    def to_json(self) -> dict:
        return {"format": SESSION_FORMAT, "game": self.game.record_game, "rules": self.rules.to_spec(),
                "seed": self.seed, "players": self.players(), "you": self.you, "finished": self.finished,
                "games": self.games}


def seat_bots(entry, rules, you: int, vs: str) -> list:
    """A bot spec a seat from ``--vs``: one spec for every other seat, or one a seat in order."""
    seats = entry.game.seats(rules)
    if not 0 <= you < seats:
        names = ", ".join(entry.game.seat_name(rules, s) for s in range(seats))
        raise GeolabError(f"--seat: this game has seats {names}")
    specs = split_bots(vs)
    if len(specs) == 1:
        specs = specs * (seats - 1)
    if len(specs) != seats - 1:
        raise GeolabError(f"--vs: {plural(len(specs), 'bot')} for the {plural(seats - 1, 'other seat')} "
                          f"(give one bot for all, or {seats - 1}; change the seats with --set)")
    for spec in specs:
        info, _ = entry.bots.kwargs(spec)  # an unknown bot or parameter: one line naming the valid ones
        if info.peeks:
            raise GeolabError(f"--vs: {info.name} peeks at hidden cards; bots at the table see only their own seat")
    bots: list = list(specs)
    bots.insert(you, None)
    return bots


def fresh_seed() -> int:
    """A new deal seed, from the system's entropy (printed, so a deal can be played again)."""
    return int(np.random.SeedSequence().entropy % 2**32)


def new_match(entry, rules, you: int, vs: str | None = None, seed: int | None = None) -> Match:
    """A match not yet begun: the person at seat `you`, the bots `vs` names (`seat_bots`;
    default: the game's hint bot, else its simulate line-up), dealt from `seed` (default fresh)."""
    if entry.seat is None:
        raise GeolabError(f"{entry.name}: this game cannot be played at the keyboard yet")
    bots = seat_bots(entry, rules, you, vs or entry.hint or entry.simulate_bots)
    return Match(entry, rules, fresh_seed() if seed is None else seed, you, bots)


def restarted(done: Match) -> Match:
    """The same match (game, rules, seed, seats) with an empty log, to play its log again."""
    return Match(done.entry, done.rules, done.seed, done.you, done.bots)


def opponents(match: Match) -> str:
    """Who the person plays against, in a few words: each bot with its seats (or its count)."""
    game, rules = match.game, match.rules
    seats: dict[str, list[str]] = {}
    for s, spec in enumerate(match.bots):
        if spec is not None:
            seats.setdefault(spec, []).append(game.seat_name(rules, s))
    if len(seats) == 1 and sum(map(len, seats.values())) > 3:
        (spec, names), = seats.items()
        return f"{len(names)} {spec} bots ({names[0]}-{names[-1]})"
    return ", ".join(f"{'/'.join(names)}: {spec}" for spec, names in seats.items())


def deal_stream(seed: int, game: int, part: int = 0) -> np.random.Generator:
    """Game `game`'s deal (part 0) and its bot seats' streams (part 1 + seat)."""
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(game, part)))


def winner_of_series(totals: Sequence[int], target: int) -> int | None:
    best = max(totals)
    return totals.index(best) if best >= target and list(totals).count(best) == 1 else None


MAX_GAMES = 1000  # a series that has not ended by then never will (the rules are broken)


def play_match(match: Match, person: Person | None, say: Callable[[str], None], resumed: Sequence | None = None,
               fresh: int = 0, after_game: Callable[[], None] | None = None,
               watch: Callable[[int, Decision, object], None] | None = None):
    """Play (or, with ``person`` None, only replay) the match's games. ``resumed`` is a log to
    replay first (one list of moves a game); bots' streams after it are drawn with ``fresh``;
    ``after_game`` is called after each finished game (to save the match). Returns the
    decision the log stopped at when replaying an unfinished game, else None; an `Adjourned`
    person leaves the match unfinished with its log so far. ``watch(game number, decision,
    action)`` sees every move as it is logged (`play_game`)."""
    game, rules = match.game, match.rules
    entry, views = match.entry, game.views
    target = game.series_target(rules)
    seats = game.seats(rules)
    resumed = list(resumed or [])
    # a replay plays the logged moves only: no bot is built (or asked)
    bots = [None if spec is None or person is None else entry.bots.make(spec, rules) for spec in match.bots]
    totals = [0] * seats
    for k in range(MAX_GAMES):
        script = deque(resumed[k] if k < len(resumed) else [])
        log: list = []
        match.games.append(log)
        if person is not None:
            person.new_game()
        live = [person if b is None else entry.seated(b, rules, deal_stream(match.seed, k, 1 + s + fresh * seats))
                for s, b in enumerate(bots)] if person is not None else [None] * seats
        if person is not None and target is not None:
            say("")
            say(f"== game {k + 1} of the series ==")
        try:
            played, asked = play_game(game, rules, game.deal(rules, deal_stream(match.seed, k)), live, script, log,
                                      views, match.you,
                                      None if watch is None else (lambda d, a, k=k: watch(k, d, a)))
        except Unfinished as stop:
            return stop.decision
        if script:
            raise RecordError(f"game {k + 1}: {len(script)} logged moves after the game's end")
        match.played.append(played)
        if after_game is not None:
            after_game()
        if person is not None and asked:  # a game replayed whole was shown before
            person.catch_up(views.ending(played, match.you))
            if entry.review is not None:
                for line in entry.review(played, match.you):
                    say(line)
        if target is None:
            break
        for s, p in enumerate(game.deal_points(played)):
            totals[s] += int(p)
        if person is not None:
            say("series: " + ", ".join(f"{PERSON if s == match.you else game.seat_name(rules, s)} {t}"
                                      for s, t in enumerate(totals)) + f" (first to {target})")
        if winner_of_series(totals, target) is not None:
            break
        if k + 1 >= len(resumed) and person is None:
            return None  # a replayed log of a series that stopped between games
    else:
        raise GeolabError(f"the series did not end in {MAX_GAMES} games")
    if len(resumed) > len(match.games):
        raise RecordError(f"games: {len(resumed)} logged, the match ended after {len(match.games)}")
    match.finished = True
    if target is not None and person is not None:
        best = winner_of_series(totals, target)
        say("You won the series." if best == match.you else f"{game.seat_name(rules, best)} won the series.")
    return None


# ----- session files -------------------------------------------------------------------------
SESSION_KEYS = ("format", "game", "rules", "seed", "players", "you", "finished", "games")


def read_session(record) -> tuple[Match, list]:
    """A session file's match (with an empty log) and its logged games; any problem is one
    `RecordError` line."""
    check_format(record, SESSION_FORMAT)
    unknown = [k for k in record if k not in SESSION_KEYS]
    if unknown:
        raise RecordError(f"{shown(unknown[0])}: not a key of a session file (keys: {', '.join(SESSION_KEYS)})")
    missing = [k for k in SESSION_KEYS if k not in record]
    if missing:
        raise RecordError(f"{missing[0]}: missing")
    entry = registry.by_record(record["game"])
    try:
        rules = entry.game.Rules.from_spec(record["rules"]).validate()
    except GeolabError as error:
        raise RecordError(f"rules: {error}") from None
    seed, you, players, games = record["seed"], record["you"], record["players"], record["games"]
    if type(seed) is not int or not 0 <= seed <= INT63_MAX:
        raise RecordError(f"seed: expected a whole number 0..2**63-1, got {shown(seed)}")
    seats = entry.game.seats(rules)
    if not isinstance(players, list) or len(players) != seats or not all(isinstance(p, str) for p in players):
        raise RecordError(f"players: expected {seats} names")
    if type(you) is not int or not 0 <= you < seats or players[you] != PERSON:
        raise RecordError(f"you: expected the seat whose player is {PERSON!r}")
    bots = [None if s == you else p for s, p in enumerate(players)]
    for spec in filter(None, bots):
        try:
            entry.bots.kwargs(spec)
        except GeolabError as error:
            raise RecordError(f"players: {error}") from None
    if type(record["finished"]) is not bool:
        raise RecordError("finished: expected true or false")
    if not isinstance(games, list) or not all(isinstance(g, list) for g in games):
        raise RecordError("games: expected a list of move lists")
    return Match(entry, rules, seed, you, bots), games


def replay_session(record, watch: Callable[[int, Decision, object], None] | None = None) \
        -> tuple[Match, Decision | None]:
    """Check a session file move by move on the reference engine: the match (its finished
    games in ``played``) and the decision it stopped at (None when it stopped between games or
    the match is over). A file that says ``finished`` must hold a finished match. ``watch``
    sees every logged move as `play_match` replays it."""
    match, games = read_session(record)
    claimed = record["finished"]
    stopped = play_match(match, None, lambda line: None, games, watch=watch)
    if claimed and not match.finished:
        raise RecordError("finished: the file says true, but its match is not over")
    if not claimed and match.finished:
        raise RecordError("finished: the file says false, but its match is over")
    return match, stopped


def session_report(record) -> dict:
    """What `geolab replay` prints for a session file."""
    match, stopped = replay_session(record)
    game = match.game
    out = {"game": game.record_game, "rules": match.rules.to_spec(), "seed": match.seed, "players": match.players(),
           "finished": match.finished, "games": [game.report(p) for p in match.played]}
    if stopped is not None:
        out["next"] = f"game {len(match.played) + 1}: {game.seat_name(match.rules, stopped.seat)}'s {stopped.kind}"
    return out

