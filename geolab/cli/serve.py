"""`geolab serve`: play any registered game against the bots in a web browser.

A small local web app (`geolab.web`) over the same game interface and session files as
``geolab play``: every game in the folder is a session file, so ``geolab replay FILE`` and
``geolab play --resume FILE`` read it too. It needs the ``web`` extra (Starlette, uvicorn,
Jinja2): ``pip install -e ".[web]"``. Before it prints its address it plays one game of each
game (`geolab.web.warm`), so no person waits for a kernel to compile; ``--cold`` skips that.
"""

from __future__ import annotations

from pathlib import Path

from geolab.cli import args as argtypes
from geolab.errors import GeolabError

DEFAULT_FOLDER = Path.home() / ".geolab" / "web"
MISSING = 'geolab serve needs the web extra: pip install -e ".[web]"'


def register(commands) -> None:
    p = commands["top"].add_parser("serve", help="play any game against the bots in a web browser",
                                   description=__doc__.splitlines()[0])
    p.add_argument("--host", default="127.0.0.1", help="the address to listen on (default: 127.0.0.1, this "
                                                        "machine only)")
    p.add_argument("--port", type=argtypes.whole("--port", 1, 65535, "65535"), default=8765,
                   help="the port (default: 8765)")
    p.add_argument("--folder", default=str(DEFAULT_FOLDER), help="where the games are kept (default: ~/.geolab/web/)")
    p.add_argument("--cold", action="store_true",
                   help="serve at once, without first playing one game of each to compile what play needs "
                        "(the first moves of each game then wait for it)")
    p.set_defaults(run=run)


def run(args) -> int:
    try:
        import uvicorn

        from geolab.web.app import create_app
    except ImportError:
        raise GeolabError(MISSING) from None
    folder = Path(args.folder).expanduser()
    try:
        app = create_app(folder)
    except OSError as error:
        raise GeolabError(f"--folder: cannot use {folder} ({error.strerror or error})") from None
    host = f"[{args.host}]" if ":" in args.host else args.host
    if not args.cold:
        from geolab.web.sessions import entries
        from geolab.web.warm import warm

        print("geolab serve: getting every game ready (the first time, compiling takes a few minutes)", flush=True)
        warm(entries(), lambda line: print(line, flush=True))
    print(f"geolab serve: open http://{host}:{args.port}/ (games kept in {folder}; Ctrl-C stops)", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0
