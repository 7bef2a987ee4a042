"""The replay and tournament pages' routes (`geolab.web.replays` says what they show): the
replay index with its upload form, a replay at a step, and a saved collection's page. Every
refused request is the app's one-line 4xx page, as everywhere else."""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse
from starlette.routing import Route

from geolab import records
from geolab.errors import GeolabError
from geolab.web import pages, replays
from geolab.web.sessions import BadRequest, TooLarge


def routes(store, render, refused) -> list[Route]:
    """The routes over the store's folder; `render` and `refused` are the app's."""
    kept = replays.Replays(store)

    async def upload_form(request: Request) -> dict[str, str]:
        """The upload form, read no further than `replays.MAX_UPLOAD` bytes."""
        size = request.headers.get("content-length")
        too_large = TooLarge(f"the file is too large (at most {replays.MAX_UPLOAD:,} bytes)")
        if size is not None and pages.whole(size, "Content-Length") > replays.MAX_UPLOAD:
            raise too_large
        body = bytearray()
        async for chunk in request.stream():
            body += chunk
            if len(body) > replays.MAX_UPLOAD:
                raise too_large
        return pages.form_fields(bytes(body), request.headers.get("content-type", ""))

    async def index(request: Request):
        def finished():
            rows = []
            for gid in store.ids()[:30]:
                try:
                    row = store.summary(gid)
                    if row["finished"]:  # an unfinished game's replay would show the bots' hands
                        rows.append(row)
                except GeolabError:  # a file this server did not write: not listed
                    continue
            return rows

        return render(request, "replays.html", games=await run_in_threadpool(finished), most=replays.MAX_UPLOAD)

    async def upload(request: Request):
        try:
            fields = await upload_form(request)
            if "record" not in fields:
                raise BadRequest("the form names no record")
            rid, collection = await run_in_threadpool(kept.upload, fields["record"])
        except GeolabError as error:
            return refused(request, error, "/replay")
        return RedirectResponse(f"/tournament/{rid}" if collection else f"/replay/u/{rid}", status_code=303)

    async def show(request: Request):
        kind, rid = request.path_params["kind"], request.path_params["rid"]
        query = request.query_params
        try:
            if kind not in replays.KINDS:
                raise BadRequest(f"no such replay: {kind[:8]!r} (g: a game played here, u: an upload)")
            match = pages.whole(query["match"], "match") if "match" in query else None
            step = pages.whole(query["step"], "step") if "step" in query else None
            replay = await run_in_threadpool(kept.replay, kind, rid, match)
            shown = await run_in_threadpool(replays.page, replay, f"/replay/{kind}/{rid}", step,
                                            query.get("seat"), match)
            back = f"/tournament/{rid}" if match is not None else (f"/g/{rid}" if kind == "g" else "/replay")
        except GeolabError as error:
            return refused(request, error, "/replay")
        return render(request, "replay.html", back=back, **shown)

    async def tournament(request: Request):
        rid = request.path_params["rid"]
        try:
            record = await run_in_threadpool(kept.file, "u", rid)
            if not records.is_collection(record):
                raise BadRequest("this file is one record, not a collection: open its replay")
            shown = replays.tournament(record)
        except GeolabError as error:
            return refused(request, error, "/replay")
        return render(request, "tournament.html", rid=rid, **shown)

    return [Route("/replay", index, methods=["GET"]),
            Route("/replay", upload, methods=["POST"]),
            Route("/replay/{kind}/{rid}", show, methods=["GET"]),
            Route("/tournament/{rid}", tournament, methods=["GET"])]
