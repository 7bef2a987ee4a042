"""The web's games, each one session file in the folder (`geolab.lab.play.SESSION_FORMAT`, the
format of `geolab play`): the state is rebuilt from that log on every request, by the same
loop that plays at the keyboard (`play_match`), so a reload, a second tab or a restarted server
loses nothing, and ``geolab replay FILE`` / ``geolab play --resume FILE`` read the same file.

A request brings at most one answer of the person's; the bots answer live until the person is
asked again (`WebSeat` then stops the loop there: `Unfinished`), and the grown log is saved. A
race is judged here, not in the page: its clock starts when the race page is first served
(``ID.clock.json``) and a claim's seconds are measured on its arrival; the bots' claims are
drawn first, the earliest is the deadline, and a claim after it is no claim (`late_claim`).
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from geolab import records, registry
from geolab.errors import GeolabError, RecordError
from geolab.game import Decision, shown
from geolab.lab.play import (
    TakeBack,
    Unfinished,
    called_first,
    first_claim,
    hint_seat,
    hinted,
    late_claim,
    new_match,
    play_match,
    race_claim,
    read_session,
)
from geolab.lab.racefit import read_races
from geolab.lab.results import write_json
from geolab.stepwise import Claim

#: A game id: made here (`secrets.token_hex`), never by a page; anything else names no file.
ID = re.compile(r"[0-9a-f]{16}")
MAX_FILE = 10_000_000  # a session file larger than this is not one this server wrote


class BadRequest(GeolabError):
    """A request the game refuses (one line; the game goes on unharmed): `status` its HTTP code."""

    status = 400


class NotFound(BadRequest):
    status = 404


class Stale(BadRequest):
    status = 409


class TooLarge(BadRequest):
    status = 413


@dataclass(frozen=True)
class Typed:
    """A race claim as a request brings it: the action and the words it was read from (the
    cards a wrong claim laid are read from them, `geolab.lab.play.race_claim`)."""

    action: object
    text: str


class WebSeat:
    """The person's seat for one request: plays the request's `answer` (a function of the
    decision and, at a race, the rivals' claims) the first time it is asked, and stops the
    loop at the next decision, which it keeps (`waiting`) for the page to show."""

    def __init__(self, answer: Callable | None = None):
        self.answer, self.rivals, self.notes = answer, (), []
        self.waiting: tuple[Decision, tuple] | None = None
        self.moved = False

    def act(self, decision: Decision):
        rivals, self.rivals = self.rivals, ()
        if self.answer is not None:
            answer, self.answer, self.moved = self.answer, None, True
            self.notes.clear()  # what the rebuild said before the person's move is not what the move told
            return answer(decision, rivals)
        self.waiting = (decision, rivals)
        raise Unfinished(decision)

    def say(self, text: str) -> None:
        """A notice for the page: the keyboard's blank lines and ``== ... ==`` rules are layout
        of a terminal, so a page shows only the words."""
        text = text.strip().strip("=").strip()
        if text:
            self.notes.append(text)

    def new_game(self) -> None:
        """A game of the match begins: while the log is only being replayed, what was said of
        the earlier games (their headers, reviews, the series' score) is not this page's."""
        if not self.moved:
            self.notes.clear()

    def catch_up(self, lines) -> None:  # the page shows the events itself
        pass


@dataclass
class Page:
    """A game as one request finds it: the match (its finished games in ``played``), the
    decision the person must answer now (None once the match is over) with the rivals' claims
    at a race, every move of the current game as (decision, action), and the lines to tell."""

    id: str
    match: object
    decision: Decision | None
    rivals: tuple
    moves: list
    notes: list = field(default_factory=list)

    @property
    def length(self) -> int:
        """Moves logged in the whole match: every move a page sends carries it (a stale page's
        move is refused)."""
        return sum(map(len, self.match.games))

    @property
    def views(self):
        return self.match.game.views

    def last_decision(self) -> Decision | None:
        """The person's last decision in the current game (None before their first)."""
        mine = [d for d, _ in self.moves if d.seat == self.match.you]
        return mine[-1] if mine else None

    def since(self) -> int:
        """How many of the current game's event lines the person had seen at their last
        decision: the lines after it are what their move and the bots' replies did."""
        last = self.last_decision()
        return 0 if last is None else len(self.views.events(last))

    def pictures_seen(self) -> set[str]:
        """The pictures of the scene at the person's last decision (a race's lesson map, shown
        on the next scene after the race and kept on the table after it)."""
        last = self.last_decision()
        return set() if last is None else {f.picture for f in self.views.scene(last).facts if f.picture}


class Store:
    """The folder of games: one session file a game (``ID.json``), its race clock beside it
    (``ID.clock.json``), what its last move told the person (``ID.notes.json``) and, once over,
    each game's record (``ID-K.record.json``)."""

    def __init__(self, folder: Path):
        self.folder = Path(folder).expanduser()
        self.folder.mkdir(parents=True, exist_ok=True)
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()

    # ----- files ----------------------------------------------------------------------
    def path(self, gid: str, suffix: str = ".json") -> Path:
        if not isinstance(gid, str) or not ID.fullmatch(gid):
            raise NotFound("no such game: a game id is 16 hexadecimal digits")
        return self.folder / f"{gid}{suffix}"

    def lock(self, gid: str) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(gid, threading.Lock())

    def read(self, gid: str) -> dict:
        """The game's session file as JSON, read as every record file is (`geolab.records.parse`:
        its size, depth and numbers bounded), and a JSON object; else one `RecordError` line."""
        path = self.path(gid)
        try:
            data = path.read_bytes()[:MAX_FILE + 1]
        except FileNotFoundError:
            raise NotFound(f"no such game: {gid}") from None
        if len(data) > MAX_FILE:
            raise RecordError(f"{path.name}: not a session file (larger than {MAX_FILE:,} bytes)")
        record = records.parse(data, path.name)
        if not isinstance(record, dict):
            raise RecordError(f"{path.name}: not a session file (not a JSON object)")
        return record

    def ids(self) -> list[str]:
        """The games in the folder, the newest first."""
        files = [p for p in self.folder.glob("*.json") if ID.fullmatch(p.stem)]
        return [p.stem for p in sorted(files, key=lambda p: p.stat().st_mtime, reverse=True)]

    def summary(self, gid: str) -> dict:
        """A saved game's line in the list, from its file as it is (checked: `read_session`)."""
        record = self.read(gid)
        try:
            match, games = read_session(record)
        except GeolabError as error:
            raise RecordError(f"{gid}.json: {error}") from None
        return {"id": gid, "game": match.game.record_game, "finished": record["finished"],
                "moves": sum(map(len, games)), "seed": match.seed}

    # ----- the game ---------------------------------------------------------------------
    def create(self, entry, rules, you: int, vs: str | None, seed: int | None) -> str:
        match = new_match(entry, rules, you, vs, seed)
        gid = secrets.token_hex(8)
        write_json(match.to_json(), self.path(gid))
        with self.lock(gid):
            self._settled(gid)
        return gid

    def page(self, gid: str) -> Page:
        """The game as it stands, with what the last move or undo told the person while the
        game still stands where that left it (`_tell`)."""
        with self.lock(gid):
            page = self._settled(gid)
            page.notes = self._told(page) or page.notes
            return page

    def move(self, gid: str, length: int, choose: Callable[..., object]) -> Page:
        """Play the person's move: ``choose(decision, views, say)`` gives the legal action (at a
        race `Typed`, or None to pass), raising `BadRequest` for one it cannot read; what it
        ``say``s (the views' note on typed words) the page shows."""
        with self.lock(gid):
            page = self._current(gid, length)
            served = self.served(page)

            def answer(decision: Decision, rivals):
                action = choose(decision, page.views, seat.say)
                if not decision.timed:
                    return action
                seconds = round(max(0.0, time.time() - served), 3)
                first = first_claim(rivals)
                if first is not None and seconds > first[1].seconds:
                    seat.notes.extend(called_first(page.views, decision, first))
                    return late_claim(first, seconds)
                if isinstance(action, Typed):
                    return race_claim(page.views, decision, action.action, action.text, seconds)
                return Claim(action, seconds)

            seat = WebSeat(answer)
            return self._tell(self._settled(gid, seat))

    def race_state(self, gid: str, length: int) -> str:
        """Whether the race the page at `length` shows is still "open" or "over" (the game
        moved on, or by the server's clock a rival has claimed): all a race page may learn
        before it ends, never when a rival will claim."""
        with self.lock(gid):
            page = self._settled(gid)
            if page.decision is None or not page.decision.timed or page.length != length:
                return "over"
            first = first_claim(page.rivals)
            return "over" if first is not None and time.time() - self.served(page) > first[1].seconds else "open"

    def undo(self, gid: str, length: int) -> Page:
        with self.lock(gid):
            page = self._current(gid, length)
            if page.decision is None:
                raise BadRequest("the game is over: nothing to undo")
            if page.decision.timed:
                raise BadRequest("no undo in a race: claim, or pass")

            def take_back(decision, rivals):
                raise TakeBack

            return self._tell(self._settled(gid, WebSeat(take_back)))

    def hint(self, page: Page) -> tuple[object, str] | None:
        """The hint bot's move at the page's decision and why (None: no hint here)."""
        decision = page.decision
        if decision is None or decision.timed:
            return None
        hint = hint_seat(page.match)
        action = None if hint is None else hinted(hint, decision)
        return None if action is None else (action, page.views.reason(decision, action))

    def race_fit(self):
        """The person's race speed fitted to the races in this folder's sessions (the adaptive
        opponent level, `geolab.lab.racefit`), or None where they hold no timed claim."""
        races = read_races((), [self.folder])
        try:
            return races, races.fit()
        except GeolabError:
            return None

    def record(self, gid: str, k: int) -> Path:
        path = self.path(gid, f"-{k}.record.json")
        if not path.exists():
            raise NotFound(f"no record {k} of game {gid}: a game's records are saved when it ends")
        return path

    def review(self, page: Page) -> list[list[str]]:
        """The registry's review of each game the person played (the oracle's costliest
        decisions), computed once and kept beside the session (computed again when that file
        is not a list of lists of lines)."""
        entry = page.match.entry
        if entry.review is None:
            return []
        path = self.path(page.id, ".review.json")
        try:
            kept = json.loads(path.read_text())
            if isinstance(kept, list) and all(isinstance(g, list) and all(isinstance(x, str) for x in g) for g in kept):
                return kept
        except (OSError, ValueError, RecursionError):
            pass
        lines = [list(entry.review(played, page.match.you)) for played in page.match.played]
        write_json(lines, path)
        return lines

    def _tell(self, page: Page) -> Page:
        """Keep what a move or an undo told the person (``ID.notes.json``) for the page it
        redirects to: the page's notices are only ever the server's own, never a request's text."""
        write_json({"length": page.length, "notes": page.notes}, self.path(page.id, ".notes.json"))
        return page

    def _told(self, page: Page) -> list[str] | None:
        """The notes kept by `_tell`, if the game still stands at the length they were told at."""
        try:
            kept = json.loads(self.path(page.id, ".notes.json").read_text())
            if kept["length"] == page.length and all(isinstance(n, str) for n in kept["notes"]):
                return list(kept["notes"])
        except (OSError, ValueError, KeyError, TypeError):
            pass
        return None

    # ----- rebuilding -----------------------------------------------------------------------
    def _current(self, gid: str, length) -> Page:
        page = self._settled(gid)
        if type(length) is not int or length != page.length:
            raise Stale(f"this page is out of date (the game has {page.length} moves, the page knew {shown(length)}): "
                        "reload it")
        if page.decision is None:
            raise BadRequest("the game is over")
        return page

    def served(self, page: Page) -> float:
        """When the race page at this point of the game was first served (now, if never)."""
        if page.decision is None or not page.decision.timed:
            return time.time()
        path = self.path(page.id, ".clock.json")
        log = hashlib.sha256(json.dumps(page.match.games).encode()).hexdigest()  # this race, not another
        try:
            clock = json.loads(path.read_text())
            if clock["log"] == log and isinstance(clock["served"], float):
                return clock["served"]
        except (OSError, ValueError, KeyError, TypeError, RecursionError):
            pass
        served = time.time()
        write_json({"log": log, "served": served}, path)
        return served

    def _settled(self, gid: str, seat: WebSeat | None = None) -> Page:
        """Rebuild and play on until the person is asked (or the match ends); saved. A race's
        bot claims depend on the log's length when they are drawn (their streams are fresh
        after each request, as after a resume), so the rebuild is repeated until the log stops
        growing: then the claims a page shows are the ones its answer meets."""
        page = self._rebuilt(gid, seat)
        for _ in range(8):  # each pass logs the claims drawn before the person's; then none grow it
            if page.decision is None or not page.decision.timed:
                break
            again = self._rebuilt(gid, None)
            again.notes = page.notes
            page, grew = again, again.length != page.length
            if not grew:
                break
        if page.decision is not None and page.decision.timed:
            self.served(page)
        return page

    def _rebuilt(self, gid: str, seat: WebSeat | None) -> Page:
        record = self.read(gid)
        try:
            match, games = read_session(record)
        except GeolabError as error:
            raise RecordError(f"{gid}.json: {error}") from None
        before = sum(map(len, games))
        moves: dict[int, list] = {}

        def watch(k, decision, action):  # after an undo a game's moves are replayed from its first
            seen = moves.setdefault(k, [])
            del seen[len(match.games[k]) - 1:]
            seen.append((decision, action))

        seat = seat or WebSeat()
        person = None if record["finished"] else seat
        play_match(match, person, seat.say, games, fresh=1 + before, watch=watch)
        current = len(match.played) if not match.finished else len(match.played) - 1
        page = Page(gid, match, *(seat.waiting or (None, ())), moves.get(current, []), seat.notes)
        if not match.finished and seat.waiting is None:
            raise GeolabError(f"{gid}: the game stopped without asking the person")  # pragma: no cover
        if match.finished and not record["finished"] or page.length != before:
            write_json(match.to_json(), self.path(gid))
        if match.finished:
            for k, played in enumerate(match.played):
                path = self.path(gid, f"-{k + 1}.record.json")
                if not path.exists():
                    write_json(match.game.to_record(played), path)
        return page


def entries() -> list:
    """The games a person can sit at: every registered game whose bots can be seated."""
    return [e for e in registry.entries() if e.seat is not None]

