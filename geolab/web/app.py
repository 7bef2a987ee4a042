"""`geolab serve`'s pages: pick a game, its rules, seat, bots and seed, then play it, for every
registered game through its own views (`Game.views`), with no line of any one game's code.

Plain server-rendered forms: each legal move is a button (its ``index`` into
``Decision.legal``, labelled by ``views.label``); a decision with more than `MAX_BUTTONS`
legal moves is typed into a box read by ``views.parse``. Every move carries the log's length
and a stale one is refused. The state lives in the folder's session files
(`geolab.web.sessions`); a refused request is a 4xx page with a one-line reason.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from urllib.parse import parse_qsl, quote

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates

from geolab import registry
from geolab.errors import GeolabError
from geolab.game import MoveError
from geolab.lab.play import PERSON, first_claim, opponents, winner_of_series
from geolab.stepwise import legal_index
from geolab.web.sessions import BadRequest, NotFound, Page, Store, TooLarge, entries

HERE = Path(__file__).parent
MAX_BUTTONS = 60  # more legal moves than this: a text box (views.parse)
MAX_BODY = 16_384  # bytes of a form: every form here is a few short fields
MAX_FIELDS = 200  # a setup form holds one field a rules field (Class has the most)


def create_app(folder: Path) -> Starlette:
    """The app over the games folder `folder` (created if missing)."""
    store = Store(folder)
    templates = Jinja2Templates(directory=str(HERE / "templates"))

    def render(request: Request, name: str, status: int = 200, **context) -> HTMLResponse:
        return templates.TemplateResponse(request, name, context, status_code=status)

    def refused(request: Request, error: GeolabError, back: str | None = None) -> HTMLResponse:
        status = getattr(error, "status", 400)
        line = " ".join(str(error).split())[:300]
        return render(request, "error.html", status, reason=line, back=back)

    async def form(request: Request) -> dict[str, str]:
        """The posted form as field -> one value; too large, repeated or unreadable is a 4xx."""
        size = request.headers.get("content-length")
        if size is not None and not size.isdigit():
            raise BadRequest("a bad Content-Length")
        if size is not None and int(size) > MAX_BODY:
            raise TooLarge(f"the form is too large (at most {MAX_BODY:,} bytes)")
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY:
                raise TooLarge(f"the form is too large (at most {MAX_BODY:,} bytes)")
        kind = request.headers.get("content-type", "").split(";")[0].strip()
        if kind != "application/x-www-form-urlencoded":
            raise BadRequest("expected a form (application/x-www-form-urlencoded)")
        try:
            pairs = parse_qsl(body.decode("utf-8"), keep_blank_values=True, strict_parsing=bool(body),
                              max_num_fields=MAX_FIELDS)
        except (UnicodeDecodeError, ValueError):
            raise BadRequest("the form could not be read") from None
        fields: dict[str, str] = {}
        for key, value in pairs:
            if key in fields:
                raise BadRequest(f"the form gives {key[:40]!r} twice")
            fields[key] = value
        return fields

    def whole(fields: dict, key: str, what: str) -> int:
        text = fields.get(key, "").strip()
        if not text.isdigit() or len(text) > 18:
            raise BadRequest(f"{what}: expected a whole number, got {text[:20]!r}")
        return int(text)

    # ----- choosing a game ----------------------------------------------------------------
    async def index(request: Request):
        def saved():
            rows = []
            for gid in store.ids()[:30]:
                try:
                    rows.append(store.summary(gid))
                except GeolabError:
                    continue
            return rows

        games = [{"name": e.name, "title": e.game.title, "presets": list(e.game.Rules.PRESETS)} for e in entries()]
        return render(request, "index.html", games=games, saved=await run_in_threadpool(saved),
                      folder=str(store.folder))

    def setup(entry, preset: str) -> dict:
        rules = entry.game.Rules.preset(preset)
        seats = [entry.game.seat_name(rules, s) for s in range(entry.game.seats(rules))]
        table = [name for name in entry.bots.names() if not entry.bots.info(name).peeks]
        suggested = list(dict.fromkeys([*(filter(None, [entry.hint])), *entry.simulate_bots.split(","), *table]))
        return {"entry": entry, "preset": preset, "presets": list(entry.game.Rules.PRESETS),
                "fields": [{**row, "text": shown_value(row["value"])} for row in rules.describe()],
                "seats": seats, "bots": suggested, "default_bots": entry.hint or entry.simulate_bots,
                "bot_rows": [entry.bots.info(n).row() for n in table]}

    def game_entry(name: str):
        try:
            entry = registry.get(name)
        except GeolabError as error:
            raise NotFound(str(error)) from None
        if entry.seat is None:
            raise NotFound(f"{name}: this game cannot be played against bots yet")
        return entry

    async def new(request: Request):
        try:
            entry = game_entry(request.path_params["game"])
            preset = request.query_params.get("preset", entry.game.Rules.DEFAULT)
            return render(request, "new.html", **setup(entry, preset))
        except GeolabError as error:
            return refused(request, NotFound(str(error)) if not isinstance(error, BadRequest) else error, "/")

    async def create(request: Request):
        name = request.path_params["game"]
        try:
            entry = game_entry(name)
            fields = await form(request)
            preset = fields.get("preset", entry.game.Rules.DEFAULT)
            base = entry.game.Rules.preset(preset)
            settings = [f"{row['field']}={fields[key]}" for row in base.describe()
                        if (key := "set." + row["field"]) in fields
                        and fields[key].strip() != shown_value(row["value"])]
            rules = base.with_settings(settings).validate() if settings else base
            seats = [entry.game.seat_name(rules, s) for s in range(entry.game.seats(rules))]
            seat = fields.get("seat", seats[0]).strip().upper()
            if seat not in seats:
                raise BadRequest(f"seat: {seat[:20]!r} is not a seat of this game ({seats[0]}-{seats[-1]})")
            seed = whole(fields, "seed", "seed") if fields.get("seed", "").strip() else None
            if seed is not None and seed >= 2**63:
                raise BadRequest("seed: at most 2**63-1")
            vs = fields.get("bots", "").strip() or None
            gid = await run_in_threadpool(store.create, entry, rules, seats.index(seat), vs, seed)
        except GeolabError as error:
            return refused(request, error, f"/new/{name}" if name in registry.names() else "/")
        return RedirectResponse(f"/g/{gid}", status_code=303)

    # ----- playing ---------------------------------------------------------------------------
    async def show(request: Request):
        gid = request.path_params["gid"]
        try:
            page = await run_in_threadpool(store.page, gid)
            hint = None
            if request.query_params.get("hint") and page.decision is not None:
                hint = await run_in_threadpool(store.hint, page)
                if hint is None:
                    page.notes.append("no hint here" if not page.decision.timed else
                                      "no hint in a race: it is yours to find")
            note = request.query_params.get("note", "")[:300]
            if note:
                page.notes.insert(0, note)
            if page.decision is None:
                review = await run_in_threadpool(store.review, page)
                return render(request, "end.html", **ended(page, review))
            return render(request, "play.html", **playing(page, hint))
        except GeolabError as error:
            return refused(request, error, "/")

    async def move(request: Request):
        gid = request.path_params["gid"]
        try:
            fields = await form(request)
            length = whole(fields, "n", "n (the game's length this page knew)")
            page = await run_in_threadpool(store.move, gid, length, lambda d, views: chosen(d, views, fields))
        except GeolabError as error:
            return await again_with(request, gid, error)
        return RedirectResponse(f"/g/{gid}" + note_query(page), status_code=303)

    async def undo(request: Request):
        gid = request.path_params["gid"]
        try:
            fields = await form(request)
            page = await run_in_threadpool(store.undo, gid, whole(fields, "n", "n"))
        except GeolabError as error:
            return await again_with(request, gid, error)
        return RedirectResponse(f"/g/{gid}" + note_query(page), status_code=303)

    async def again(request: Request):
        """A new game with the same rules, seats and bots, dealt from a fresh seed."""
        gid = request.path_params["gid"]
        try:
            await form(request)
            page = await run_in_threadpool(store.page, gid)
            match = page.match
            vs = ",".join(b for b in match.bots if b is not None)
            new_id = await run_in_threadpool(store.create, match.entry, match.rules, match.you, vs, None)
        except GeolabError as error:
            return refused(request, error, "/")
        return RedirectResponse(f"/g/{new_id}", status_code=303)

    async def again_with(request: Request, gid: str, error: GeolabError):
        """A refused move: the game's page again, as it stands, with the reason, and a 4xx."""
        status = getattr(error, "status", 400)
        if isinstance(error, NotFound) or status == 404:
            return refused(request, error, "/")
        try:
            page = await run_in_threadpool(store.page, gid)
        except GeolabError:
            return refused(request, error, "/")
        line = " ".join(str(error).split())[:300]
        if page.decision is None:
            return refused(request, error, f"/g/{gid}")
        return render(request, "play.html", status, **playing(page, None, error=line))

    async def session_file(request: Request):
        try:
            path = store.path(request.path_params["gid"])
            if not path.exists():
                raise NotFound("no such game")
        except GeolabError as error:
            return refused(request, error, "/")
        return FileResponse(path, media_type="application/json", filename=f"geolab-session-{path.stem}.json")

    async def record_file(request: Request):
        gid, k = request.path_params["gid"], request.path_params["k"]
        try:
            path = store.record(gid, k)
        except GeolabError as error:
            return refused(request, error, "/")
        return FileResponse(path, media_type="application/json", filename=path.name)

    def playing(page: Page, hint, error: str | None = None) -> dict:
        match, decision, views = page.match, page.decision, page.views
        events = views.events(decision)
        since = min(page.since(), len(events))
        labels = [views.label(decision, a) for a in decision.legal]
        hinted = None if hint is None else {"index": decision.legal.index(hint[0]), "label": views.label(decision, hint[0]),
                                            "reason": hint[1]}
        race = None
        if decision.timed:
            served = store.served(page)
            first = first_claim(page.rivals)
            race = {"elapsed": round(time.time() - served, 3),
                    "deadline": None if first is None else float(first[1].seconds)}
        return {**header(page), "page": page, "decision": decision, "screen": views.screen(decision),
                "prompt": views.prompt(decision), "help": views.help(decision),
                "old_events": events[:since], "new_events": events[since:], "labels": labels,
                "buttons": len(labels) <= MAX_BUTTONS, "hint": hinted, "race": race, "error": error,
                "length": page.length, "undo": any(d.seat == match.you and not d.timed for d, _ in page.moves)}

    def ended(page: Page, review: list) -> dict:
        match, views = page.match, page.views
        games = []
        for k, played in enumerate(match.played):
            lines = views.ending(played, match.you)
            last = lines[min(page.since(), len(lines) - 1):] if k == len(match.played) - 1 else []
            games.append({"number": k + 1, "lines": lines, "last": last,
                          "review": review[k] if k < len(review) else [], "record": f"/g/{page.id}/record/{k + 1}"})
        verdict = games[-1]["lines"][-1] if games and games[-1]["lines"] else ""
        return {**header(page), "page": page, "games": games, "series": series(page), "verdict": verdict}

    def header(page: Page) -> dict:
        match = page.match
        game, rules = match.game, match.rules
        spec = rules.to_spec()
        return {"title": game.title, "id": page.id, "game_name": match.entry.name, "notes": page.notes,
                "rules": spec if isinstance(spec, str) else json.dumps(spec), "seed": match.seed,
                "you": game.seat_name(rules, match.you), "against": opponents(match),
                "series": series(page), "earlier": [{"number": k + 1, "lines": match.game.views.ending(p, match.you)}
                                                    for k, p in enumerate(match.played)] if page.decision else []}

    def series(page: Page) -> str | None:
        match = page.match
        game, rules = match.game, match.rules
        target = game.series_target(rules)
        if target is None:
            return None
        totals = [0] * game.seats(rules)
        for played in match.played:
            for s, p in enumerate(game.deal_points(played)):
                totals[s] += int(p)
        text = ", ".join(f"{PERSON if s == match.you else game.seat_name(rules, s)} {t}" for s, t in enumerate(totals))
        best = winner_of_series(totals, target)
        verdict = "" if best is None else (" -- you won the series" if best == match.you else
                                           f" -- {game.seat_name(rules, best)} won the series")
        return f"game {len(match.played) + (page.decision is not None)}; series: {text} (first to {target}){verdict}"

    routes = [
        Route("/", index),
        Route("/new/{game}", new, methods=["GET"]),
        Route("/new/{game}", create, methods=["POST"]),
        Route("/g/{gid}", show, methods=["GET"]),
        Route("/g/{gid}/move", move, methods=["POST"]),
        Route("/g/{gid}/undo", undo, methods=["POST"]),
        Route("/g/{gid}/again", again, methods=["POST"]),
        Route("/g/{gid}/session.json", session_file),
        Route("/g/{gid}/record/{k:int}", record_file),
        Mount("/static", StaticFiles(directory=str(HERE / "static")), name="static"),
    ]
    async def unrouted(request: Request, error: HTTPException):
        reason = {404: "no such page", 405: "this page takes no such request"}.get(error.status_code, error.detail)
        return render(request, "error.html", error.status_code, reason=reason, back="/")

    app = Starlette(routes=routes, exception_handlers={404: unrouted, 405: unrouted})
    app.state.store = store
    return app


def shown_value(value) -> str:
    """A rules field's value as the setup form shows it and ``--set`` reads it back."""
    if value is None:
        return "none"
    return value if isinstance(value, str) else json.dumps(value)


def chosen(decision, views, fields: dict):
    """The person's action from a move form: ``index`` (a button: its place in the legal
    moves), ``text`` (the box, read by the game's `Views.parse`), or ``pass`` (at a race)."""
    if "index" in fields:
        text = fields["index"].strip()
        if not text.isdigit() or int(text) >= len(decision.legal):
            raise BadRequest(f"move {text[:20]!r} is not one of the {len(decision.legal)} legal moves here")
        return decision.legal[int(text)]
    if "pass" in fields:
        if not decision.timed:
            raise BadRequest("pass is only a race's answer")
        return None
    if "text" in fields:
        text = fields["text"]
        if len(text) > 300:
            raise BadRequest("a move is a line of at most 300 characters")
        if decision.timed and text.strip().lower() == "pass":
            return None
        try:
            action = views.parse(decision, text)
        except MoveError as error:
            raise BadRequest(str(error)) from None
        if legal_index(decision, action) < 0:  # a game's parser that let an illegal move through
            raise BadRequest(f"{views.label(decision, action)} is not legal here")
        return action
    raise BadRequest("the form names no move (index, text or pass)")


def note_query(page: Page) -> str:
    """What the loop told the person during the request, carried to the page it redirects to."""
    text = " ".join(page.notes)[:300]
    return f"?note={quote(text)}" if text else ""
