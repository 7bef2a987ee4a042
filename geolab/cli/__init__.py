"""The `geolab` command: one entry point, a subcommand per job.

Each topic module in this package adds its subcommands through ``register(commands)``, where
``commands`` maps a top-level verb (``simulate``, ``arena``, ``bench``) to the subparsers of
that verb's games, and ``commands["top"]`` is the top-level subparsers. `geolab.cli.lab`
adds every registered game to those verbs with the same flags. User mistakes
(`GeolabError`) become one line on stderr and exit code 2, never a traceback; Ctrl-C is
exit code 130 (docs/reliability.md).
"""

from __future__ import annotations

import argparse
import sys

from geolab import __version__
from geolab.errors import GeolabError


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage mistake is one line and exit code 2."""

    def error(self, message: str):
        print(f"{self.prog}: error: {message} (see --help)", file=sys.stderr)
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    from geolab.cli import (  # topic modules, each registers its verbs
        balance,
        cards,
        exploit,
        groups,
        lab,
        offers,
        play,
        racefit,
        replay,
        serve,
        solve,
    )

    parser = _Parser(prog="geolab", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"geolab {__version__}")
    top = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    commands = {"top": top}
    for verb, text in [
        ("simulate", "play many games between bots and print win rates"),
        ("arena", "duplicate matches between many bots, ratings, plots"),
        ("bench", "measure engine speed against the reference engine"),
    ]:
        verb_parser = top.add_parser(verb, help=text, description=text)
        commands[verb] = verb_parser.add_subparsers(dest="game", required=True, parser_class=_Parser)
    for module in (cards, groups, lab, exploit, balance, replay, play, racefit, serve, solve, offers):
        module.register(commands)
    return parser


#: The commands that may compile numba kernels: they say so on stderr when they do
#: (`geolab.lab.progress.compile_notice`; the lab commands also warm up with a progress bar).
COMPILING = {"simulate", "arena", "exploit", "bench", "balance", "sweep", "search", "equilibrium", "solve", "train",
             "play", "race-fit"}


def _plugin_bots(args) -> None:
    """Bot specs an optional adapter serves (``os-`` ...: `geolab.interop.plugins`), installed
    only when asked for."""
    from geolab.game import split_bots
    from geolab.interop.plugins import plugin_bots

    texts = [getattr(args, name, None) for name in ("bots", "vs", "strong")]
    specs = [spec for text in texts if text for spec in split_bots(text)]
    if specs:
        plugin_bots(args.game, specs)


def _run(args) -> int:
    _plugin_bots(args)
    if args.command not in COMPILING:
        return int(args.run(args) or 0)
    from geolab.lab.progress import compile_notice

    with compile_notice():
        return int(args.run(args) or 0)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)  # an argument out of range (geolab.cli.args) is a GeolabError
        return _run(args)
    except GeolabError as error:
        print(f"geolab: error: {error}", file=sys.stderr)
        return getattr(error, "exit_code", 2)  # 2, or 130 for an interrupt that leaves nothing to report
    except KeyboardInterrupt:
        print("geolab: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
