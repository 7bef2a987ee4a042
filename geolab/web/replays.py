"""Replays and tournaments in the browser, for every game alike: any record or session file
(a finished web game's, or one the person uploads) stepped decision by decision as `geolab
replay FILE --moves` steps it (`geolab.lab.moves.stepped`), each step the deciding seat's own
scene (`Views.scene`, read-only: the move played marked on its cards), its events, the move in
the game's words and, where the game has a judge (`Players.judge`), the move's value against
the best one; and a saved collection of records (`geolab tournament --save`) as a page of its
own words and tables, each record opening in its replay.

The step is in the URL (``?step=N``, and ``seat``, ``match``), so the browser's back button
and a bookmark work; an uploaded file is kept in the folder under its content's digest, so its
URL stays good. Nothing here reads a game's internals: only the views' words and scenes.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass

from geolab import records
from geolab.errors import GeolabError, RecordError
from geolab.lab.moves import judged, seat_index, stepped, words
from geolab.lab.results import write_json
from geolab.stepwise import Claim, legal_index
from geolab.web.sessions import ID, BadRequest, NotFound, Store

#: The largest file a person may upload (a saved tournament of 8 teams is about 1 MB).
MAX_UPLOAD = 8_000_000
KINDS = {"g": "a game played here", "u": "an uploaded file"}


@dataclass
class Replay:
    """One file's games stepped (`geolab.lab.moves.Stepped`), their judged moves, and where
    it came from."""

    entry: object
    games: list
    values: list
    source: str


class Replays:
    """The files a replay page opens: the server's games (``g``: a session file of the
    store) and uploads (``u``: ``replays/DIGEST.json`` in the folder); each file's stepped
    games are kept for the next step's page (a few files, the latest)."""

    KEEP = 6

    def __init__(self, store: Store):
        self.store = store
        self.folder = store.folder / "replays"
        self._kept: OrderedDict = OrderedDict()
        self._guard = threading.Lock()

    def upload(self, text: str) -> tuple[str, bool]:
        """Keep an uploaded file (checked: a record, a session or a collection of records)
        and say its id and whether it is a collection; a file that is none is one line."""
        if not text.strip():
            raise BadRequest("record: choose a record's file, or paste its JSON")
        record = records.parse(text.encode("utf-8"), "record")
        if not isinstance(record, dict):
            raise RecordError("record: not a record (a JSON object with a format)")
        if records.is_collection(record):
            records.collected(record)
            tournament(record)
        else:
            stepped(record)
        rid = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
        path = self.folder / f"{rid}.json"
        if not path.exists():
            self.folder.mkdir(parents=True, exist_ok=True)
            write_json(record, path)
        return rid, records.is_collection(record)

    def file(self, kind: str, rid: str) -> dict:
        """The file a replay URL names, read as every record is (`geolab.records.parse`)."""
        if kind == "g":
            return self.store.read(rid)
        if kind != "u" or not ID.fullmatch(rid):
            raise NotFound("no such replay: an uploaded file's id is 16 hexadecimal digits")
        try:
            data = (self.folder / f"{rid}.json").read_bytes()
        except FileNotFoundError:
            raise NotFound(f"no such replay: {rid}") from None
        record = records.parse(data, f"{rid}.json")
        if not isinstance(record, dict):
            raise RecordError(f"{rid}.json: not a record")
        return record

    def replay(self, kind: str, rid: str, match: int | None) -> Replay:
        """The file's games stepped (a collection's `match`-th record), judged once and kept."""
        key = (kind, rid, match, self._version(kind, rid))
        with self._guard:
            if key in self._kept:
                self._kept.move_to_end(key)
                return self._kept[key]
        whole = self.file(kind, rid)
        if kind == "g" and whole.get("finished") is not True:  # the bots' hands are in its replay
            raise BadRequest("the game is not over: its replay opens when it ends")
        if match is not None and not records.is_collection(whole):
            raise BadRequest("match: this file holds one record, not a collection of them")
        count = len(records.collected(whole)) if records.is_collection(whole) else 1
        if records.is_collection(whole) and match is None:
            raise BadRequest(f"this file holds {count} records: open its page, /tournament/{rid}")
        if match is not None and not 1 <= match <= count:
            raise BadRequest(f"match: expected a whole number from 1 to {count}, got {match}")
        record = records.chosen(whole, match)
        if not isinstance(record, dict):
            raise RecordError("record: not a record (a JSON object with a format)")
        entry, games = stepped(record)
        values = [judged(entry, g) for g in games]
        source = KINDS[kind] if match is None else f"match {match}, {records.collected(whole)[match - 1][0]}"
        out = Replay(entry, games, values, source)
        with self._guard:
            self._kept[key] = out
            while len(self._kept) > self.KEEP:
                self._kept.popitem(last=False)
        return out

    def _version(self, kind: str, rid: str):
        """A server game's file changes as it is played; an upload never does."""
        if kind != "g":
            return None
        try:
            stat = self.store.path(rid).stat()
        except FileNotFoundError:
            raise NotFound(f"no such game: {rid}") from None
        return stat.st_mtime_ns, stat.st_size


# ----- the steps -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Step:
    """One page of a replay: game `k`'s move `i` (a decision), or its end (``i`` None)."""

    k: int
    i: int | None


def steps(replay: Replay, seat: int | None) -> list[Step]:
    """Every decision (only `seat`'s where given), each game's end after its moves."""
    out = []
    for k, game in enumerate(replay.games):
        out += [Step(k, i) for i, (d, _) in enumerate(game.moves) if seat is None or d.seat == seat]
        out.append(Step(k, None))
    return out


def parts(replay: Replay, shown: list[Step]) -> list[dict]:
    """The game list: each game of a series, and within a game made of games (a match) each
    of its games, by the first part of its decisions' ``where``; each with its first step."""
    staged = replay.entry.has("stages")
    out: list[dict] = []
    for n, step in enumerate(shown, start=1):
        game = replay.games[step.k]
        head = f"game {step.k + 1}" if len(replay.games) > 1 else ""
        if staged and step.i is not None:
            inner = game.moves[step.i][0].where.split(", ")[0]
            head = ", ".join(filter(None, (head, inner)))
        elif step.i is None:
            head = ", ".join(filter(None, (head, "the end")))
        if head and (not out or out[-1]["title"] != head):
            out.append({"title": head, "step": n, "last": n})
        elif out:
            out[-1]["last"] = n
    return out if len(out) > 1 else []


def read_only(scene, marked: set[str]):
    """A scene to look at: no card selectable, no moves, the played cards marked."""
    def card(c):
        marks = c.marks + (("played",) if c.id in marked and "played" not in c.marks else ())
        return dataclasses.replace(c, selectable=False, marks=marks)

    piles = tuple(dataclasses.replace(p, cards=tuple(card(c) for c in p.cards)) for p in scene.piles)
    return dataclasses.replace(scene, piles=piles, moves=(), race=None)


def played_cards(views, decision, action, scene) -> set[str]:
    """The ids of the scene's cards the move played selects: its move's cards; at a race, the
    claim's cards, found by the words the claim is written in."""
    if not decision.timed:
        i = legal_index(decision, action)
        return set(scene.moves[i].cards) if 0 <= i < len(scene.moves) else set()
    claim = action.action if isinstance(action, Claim) else None
    if claim is None:
        return set()
    said = {w for w in re.split(r"[\s/+,]+", views.label(decision, claim).upper()) if w}
    return {c.id for c in scene.cards().values() if c.selectable and c.word and c.word.upper() in said}


def page(replay: Replay, base: str, number: int | None, seat_text: str | None, match: int | None) -> dict:
    """The replay page at step `number` (1-based; None: the first) from `seat_text`'s side
    (None: every seat's decisions, each from the deciding seat's side)."""
    entry = replay.entry
    game, views = entry.game, entry.game.views
    rules = replay.games[0].rules
    seat = None
    if seat_text:
        try:
            seat = seat_index(entry, rules, seat_text)
        except GeolabError as error:
            raise BadRequest(str(error).replace("--seat", "seat")) from None
    shown = steps(replay, seat)
    n = 1 if number is None else number
    if not 1 <= n <= len(shown):
        raise BadRequest(f"step: expected a whole number from 1 to {len(shown)}, got {n}")
    step = shown[n - 1]
    one = replay.games[step.k]
    name = lambda s: game.seat_name(one.rules, s)  # noqa: E731

    def href(to: int | None = None, side: str | None = "same") -> str:
        query = [("match", match)] if match is not None else []
        side = seat_text if side == "same" else side
        if side:
            query.append(("seat", side))
        query.append(("step", n if to is None else to))
        return base + "?" + "&".join(f"{k}={v}" for k, v in query)

    seats = [{"name": "every seat", "href": href(1, None), "on": seat is None}]
    seats += [{"name": name(s), "href": href(1, name(s)), "on": seat == s} for s in range(game.seats(rules))]
    head = f"game {step.k + 1} of {len(replay.games)}, " if len(replay.games) > 1 else ""
    out = {"title": game.title, "source": replay.source, "n": n, "total": len(shown), "seats": seats,
           "first": href(1), "prev": href(n - 1) if n > 1 else None, "next": href(n + 1) if n < len(shown) else None,
           "last": href(len(shown)), "parts": [{**p, "href": href(p["step"]), "on": p["step"] <= n <= p["last"]}
                                               for p in parts(replay, shown)]}
    if step.i is None:
        side = 0 if seat is None else seat
        if one.played is None:
            return {**out, "head": f"{head}the log stops here: the game is not over", "ending": [], "pictures": []}
        return {**out, "head": f"{head}the end, as {name(side)} saw it", "ending": views.ending(one.played, side),
                "pictures": views.pictures(one.played, side)}
    d, action = one.moves[step.i]
    mine = [i for i, (x, _) in enumerate(one.moves) if seat is None or x.seat == seat]
    told = views.events(d)
    before = [x for x, _ in one.moves[:step.i] if x.seat == d.seat]
    since = min(len(views.events(before[-1])), len(told)) if before else 0
    scene = views.scene(d)
    return {**out, "head": f"{head}decision {mine.index(step.i) + 1} of {len(mine)}: {name(d.seat)}'s {d.kind}"
                           + (f", {d.where}" if d.where else ""),
            "seat_name": name(d.seat), "old_events": told[:since], "new_events": told[since:],
            "scene": read_only(scene, played_cards(views, d, action, scene)),
            "played": words(views, d, action), "value": replay.values[step.k].get(step.i),
            "screen": views.screen(d)}


# ----- a collection of records (a saved tournament) ----------------------------------------------
def _text(value, where: str) -> str:
    if not isinstance(value, str):
        raise RecordError(f"{where}: expected a text")
    return value


def _scalar(value, where: str):
    if value is not None and not isinstance(value, (str, int, float)) or isinstance(value, bool):
        raise RecordError(f"{where}: expected a text or a number")
    return value


def tournament(record: dict) -> dict:
    """A collection's page as the file says it (`geolab tournament --save`: its teams, drawn
    order, rounds with their results, standings and final, in the lab's own words and
    tables; other collections: only their records): shapes checked, one line each."""
    listed = records.collected(record)
    out = {"what": _text(record.get("what", "a collection of records"), "what"),
           "seed": _scalar(record.get("seed"), "seed"), "records": [label for label, _ in listed],
           "teams": [], "order": [], "rounds": [], "standings": [], "columns": [], "final": None}
    for t, team in enumerate(_list(record, "teams")):
        if not isinstance(team, dict):
            raise RecordError(f"teams[{t}]: expected {{\"name\": ..., \"team\": ...}}")
        out["teams"].append({"name": _text(team.get("name"), f"teams[{t}].name"),
                             "team": _text(team.get("team"), f"teams[{t}].team")})
    out["order"] = [_text(x, f"order[{t}]") for t, x in enumerate(_list(record, "order"))]
    for r, stage in enumerate(_list(record, "rounds")):
        where = f"rounds[{r}]"
        if not isinstance(stage, dict) or not isinstance(stage.get("matches"), list):
            raise RecordError(f"{where}: expected {{\"stage\": ..., \"matches\": [...]}}")
        matches = []
        for m, match in enumerate(stage["matches"]):
            if not isinstance(match, dict):
                raise RecordError(f"{where}.matches[{m}]: expected an object")
            k = match.get("record")
            if k is not None and (type(k) is not int or not 1 <= k <= len(listed)):
                raise RecordError(f"{where}.matches[{m}].record: expected 1-{len(listed)}")
            matches.append({"text": _text(match.get("text"), f"{where}.matches[{m}].text"), "record": k})
        kind = stage.get("kind")
        out["rounds"].append({"stage": _text(stage.get("stage"), f"{where}.stage"),
                              "kind": None if kind is None else _text(kind, f"{where}.kind"), "matches": matches})
    # the standings stand after the rounds, before the playoffs and the final (as the command prints them)
    out["later"] = [s for s in out["rounds"] if not s["stage"].startswith("round")]
    out["rounds"] = [s for s in out["rounds"] if s["stage"].startswith("round")]
    for r, row in enumerate(_list(record, "standings")):
        if not isinstance(row, dict):
            raise RecordError(f"standings[{r}]: expected an object")
        if not out["columns"]:
            out["columns"] = list(row)
        if list(row) != out["columns"]:
            raise RecordError(f"standings[{r}]: not the columns of the first row")
        out["standings"].append([_scalar(v, f"standings[{r}].{c}") for c, v in row.items()])
    out["points"] = _text(record.get("points", ""), "points")
    final = record.get("final")
    if final is not None:
        if not isinstance(final, dict):
            raise RecordError("final: expected {\"text\": ...}")
        out["final"] = _text(final.get("text"), "final.text")
    return out


def _list(record: dict, key: str) -> list:
    value = record.get(key, [])
    if not isinstance(value, list):
        raise RecordError(f"{key}: expected a list")
    return value
