"""`geolab serve`'s routes: pick a game, its rules, seat, bots and seed, then play it, for
every registered game through its own views (`Game.views`), with no line of any one game's code.

Server-rendered pages (`geolab.web.pages` says what each page shows): one template draws any
game's scene (`Views.scene`: cards, piles, facts), and a small script lets the person pick
cards and an option and confirm one legal move (its ``index`` into ``Decision.legal``); at a
race the page knows no move and posts the selected cards, which the server reads through
``views.parse``; the typed box (``views.parse``) stays as a fallback. A race page asks
``/g/ID/race`` only whether the race is still open. Every move carries the log's
length and a stale one is refused. The state lives in the folder's session files
(`geolab.web.sessions`); a refused request is a 4xx page with a one-line reason, and the game
goes on as it was.
"""

from __future__ import annotations

from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, RedirectResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates

from geolab import registry
from geolab.errors import GeolabError
from geolab.web import pages
from geolab.web.replay_routes import routes as replay_routes
from geolab.web.sessions import BadRequest, NotFound, Store, TooLarge, entries

HERE = Path(__file__).parent
MAX_BODY = 16_384  # bytes of a form: every form here is a few short fields


def create_app(folder: Path) -> Starlette:
    """The app over the games folder `folder` (created if missing)."""
    store = Store(folder)
    templates = Jinja2Templates(directory=str(HERE / "templates"))

    def render(request: Request, name: str, status: int = 200, **context) -> HTMLResponse:
        return templates.TemplateResponse(request, name, context, status_code=status)

    def refused(request: Request, error: GeolabError, back: str | None = "/") -> HTMLResponse:
        return render(request, "error.html", getattr(error, "status", 400), reason=pages.one_line(error), back=back)

    async def form(request: Request) -> dict[str, str]:
        """The posted form, read no further than `MAX_BODY` bytes (`pages.form_fields`)."""
        size = request.headers.get("content-length")
        if size is not None and pages.whole(size, "Content-Length") > MAX_BODY:
            raise TooLarge(f"the form is too large (at most {MAX_BODY:,} bytes)")
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY:
                raise TooLarge(f"the form is too large (at most {MAX_BODY:,} bytes)")
        return pages.form_fields(body, request.headers.get("content-type", ""))

    def game_entry(name: str):
        try:
            entry = registry.get(name)
        except GeolabError as error:
            raise NotFound(str(error)) from None
        if entry.seat is None:
            raise NotFound(f"{name}: this game cannot be played against bots yet")
        return entry

    # ----- choosing a game ----------------------------------------------------------------
    async def index(request: Request):
        def saved():
            rows = []
            for gid in store.ids()[:30]:
                try:
                    rows.append(store.summary(gid))
                except GeolabError:  # a file this server did not write: not listed
                    continue
            return rows

        return render(request, "index.html", **pages.index(entries(), await run_in_threadpool(saved),
                                                           str(store.folder)))

    async def new(request: Request):
        try:
            entry = game_entry(request.path_params["game"])
            preset = request.query_params.get("preset", entry.game.Rules.DEFAULT)
            fitted = await run_in_threadpool(store.race_fit) if pages.races_of(entry) else None
            return render(request, "new.html", **pages.setup(entry, preset, fitted))
        except GeolabError as error:
            return refused(request, error)

    async def create(request: Request):
        name = request.path_params["game"]
        try:
            entry = game_entry(name)
            fields = await form(request)
            rules = pages.chosen_rules(entry, fields)
            seats = [entry.game.seat_name(rules, s) for s in range(entry.game.seats(rules))]
            seat = fields.get("seat", seats[0]).strip().upper()
            if seat not in seats:
                raise BadRequest(f"seat: {seat[:20]!r} is not a seat of this game ({seats[0]}-{seats[-1]})")
            seed = pages.whole(fields["seed"], "seed") if fields.get("seed", "").strip() else None
            vs = fields.get("level", "").strip() or fields.get("bots", "").strip() or None
            gid = await run_in_threadpool(store.create, entry, rules, seats.index(seat), vs, seed)
        except GeolabError as error:
            return refused(request, error, f"/new/{name}" if name in registry.names() else "/")
        return RedirectResponse(f"/g/{gid}", status_code=303)

    # ----- playing ---------------------------------------------------------------------------
    async def show(request: Request):
        try:
            page = await run_in_threadpool(store.page, request.path_params["gid"])
            hint = None
            if request.query_params.get("hint") and page.decision is not None:
                hint = await run_in_threadpool(store.hint, page)
                if hint is None:
                    page.notes.append("no hint in a race: it is yours to find" if page.decision.timed else
                                      "no hint here")
            if page.decision is None:
                review = await run_in_threadpool(store.review, page)
                return render(request, "end.html", **pages.ended(page, review))
            served = store.served(page) if page.decision.timed else None
            return render(request, "play.html", **pages.playing(page, hint, served))
        except GeolabError as error:
            return refused(request, error)

    async def move(request: Request):
        gid = request.path_params["gid"]
        try:
            fields = await form(request)
            length = pages.whole(fields.get("n", ""), "n (the game's length this page knew)")
            await run_in_threadpool(store.move, gid, length, lambda d, views, say: pages.chosen(d, views, fields, say))
        except GeolabError as error:
            return await refused_move(request, gid, error)
        return RedirectResponse(f"/g/{gid}", status_code=303)

    async def race_state(request: Request):
        """A race page's one question while it runs: "open" or "over" (the server's clock)."""
        try:
            length = pages.whole(request.query_params.get("n", ""), "n (the game's length this page knew)")
            state = await run_in_threadpool(store.race_state, request.path_params["gid"], length)
        except GeolabError as error:
            return JSONResponse({"error": pages.one_line(error)}, status_code=getattr(error, "status", 400))
        return JSONResponse({"race": state}, headers={"Cache-Control": "no-store"})

    async def undo(request: Request):
        gid = request.path_params["gid"]
        try:
            fields = await form(request)
            await run_in_threadpool(store.undo, gid, pages.whole(fields.get("n", ""), "n"))
        except GeolabError as error:
            return await refused_move(request, gid, error)
        return RedirectResponse(f"/g/{gid}", status_code=303)

    async def again(request: Request):
        """A new game with the same rules, seats and bots, dealt from a fresh seed."""
        try:
            await form(request)
            match = (await run_in_threadpool(store.page, request.path_params["gid"])).match
            vs = ",".join(b for b in match.bots if b is not None)
            gid = await run_in_threadpool(store.create, match.entry, match.rules, match.you, vs, None)
        except GeolabError as error:
            return refused(request, error)
        return RedirectResponse(f"/g/{gid}", status_code=303)

    async def refused_move(request: Request, gid: str, error: GeolabError):
        """A refused move: the game's page again, as it stands, with the reason, and a 4xx."""
        if getattr(error, "status", 400) == 404:
            return refused(request, error)
        try:
            page = await run_in_threadpool(store.page, gid)
        except GeolabError:
            return refused(request, error)
        if page.decision is None:
            return refused(request, error, f"/g/{gid}")
        served = store.served(page) if page.decision.timed else None
        return render(request, "play.html", getattr(error, "status", 400),
                      **pages.playing(page, None, served, pages.one_line(error)))

    async def session_file(request: Request):
        try:
            path = store.path(request.path_params["gid"])
            if not path.exists():
                raise NotFound("no such game")
        except GeolabError as error:
            return refused(request, error)
        return FileResponse(path, media_type="application/json", filename=f"geolab-session-{path.stem}.json")

    async def record_file(request: Request):
        try:
            path = store.record(request.path_params["gid"], pages.whole(request.path_params["k"], "record"))
        except GeolabError as error:
            return refused(request, error)
        return FileResponse(path, media_type="application/json", filename=path.name)

    async def unrouted(request: Request, error: HTTPException):
        reason = {404: "no such page", 405: "this page takes no such request"}.get(error.status_code, error.detail)
        return render(request, "error.html", error.status_code, reason=reason, back="/")

    routes = [
        Route("/", index),
        Route("/new/{game}", new, methods=["GET"]),
        Route("/new/{game}", create, methods=["POST"]),
        Route("/g/{gid}", show, methods=["GET"]),
        Route("/g/{gid}/move", move, methods=["POST"]),
        Route("/g/{gid}/undo", undo, methods=["POST"]),
        Route("/g/{gid}/race", race_state, methods=["GET"]),
        Route("/g/{gid}/again", again, methods=["POST"]),
        Route("/g/{gid}/session.json", session_file),
        Route("/g/{gid}/record/{k}", record_file),
        *replay_routes(store, render, refused),
        Mount("/static", StaticFiles(directory=str(HERE / "static")), name="static"),
    ]
    app = Starlette(routes=routes, exception_handlers={404: unrouted, 405: unrouted})
    app.state.store = store
    return app
