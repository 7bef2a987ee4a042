"""`geolab play GAME --vs BOT`: a person at the keyboard against bots, in any registered game.

The loop is `geolab.lab.play`; each game brings only its views (`Game.views`). Every match is
saved as a session file after each game and when the person stops, so it is never lost:
``geolab play --resume FILE`` continues it, ``geolab replay FILE`` checks it move by move and
``geolab solve FILE`` (Play the Ranks) values its decisions with the oracle.
"""

from __future__ import annotations

import contextlib
import json
import sys
import time
from pathlib import Path

from geolab import records, registry
from geolab.cli import args as argtypes
from geolab.common.lazy import lazy_module
from geolab.common.text import plural
from geolab.errors import GeolabError
from geolab.lab.play import (
    Adjourned,
    Match,
    Person,
    Terminal,
    hint_seat,
    new_match,
    opponents,
    play_match,
    replay_session,
    restarted,
)
from geolab.lab.results import check_writable, reason, rescue, write_json

tables = lazy_module("geolab.lab.tables")  # numba and pandas: only when a game is played


def register(commands) -> None:
    p = commands["top"].add_parser(
        "play", help="play a game against bots at the keyboard", description=__doc__.splitlines()[0],
        epilog="At any prompt: help, moves, hint, undo, board, quit. Games: " + ", ".join(registry.names()))
    p.add_argument("game", nargs="?", help="the game (geolab games lists them); not with --resume")
    p.add_argument("--vs", "--bot", dest="vs", help="the bots: one for every other seat, or one a seat in order "
                                                     "(default: the game's strongest bot; geolab bots GAME)")
    argtypes.rules_arguments(p)
    p.add_argument("--seat", "--side", dest="seat", help="your seat (default: the first, A or S1)")
    p.add_argument("--seed", type=argtypes.seed, help="deal seed (default: a fresh one, printed)")
    p.add_argument("--record", help="save the match to this file (default: ~/.geolab/games/GAME-SEED-TIME.json; "
                                    "with --resume, the resumed file)")
    p.add_argument("--resume", metavar="FILE", help="continue a saved match")
    p.add_argument("--confirm", action="store_true", help="wait for Enter after each move, so undo can take it "
                                                          "back before the bots reply")
    p.add_argument("--no-confirm", action="store_true", help="play each move as typed (the default)")
    p.set_defaults(run=run)


def _default_path(game: str, seed: int) -> Path:
    return Path.home() / ".geolab" / "games" / f"{game}-{seed}-{time.strftime('%Y%m%d-%H%M%S')}.json"


def _new_match(args) -> Match:
    if not args.game:
        raise GeolabError(f"name the game to play ({', '.join(registry.names())}) or give --resume FILE")
    entry = registry.get(args.game)
    if entry.seat is None:
        raise GeolabError(f"{args.game}: this game cannot be played at the keyboard yet")
    rules = argtypes.game_rules(entry, args).validate()
    names = [entry.game.seat_name(rules, s) for s in range(entry.game.seats(rules))]
    seat = (args.seat or names[0]).upper()
    if seat not in names:
        raise GeolabError(f"--seat: {args.seat!r} is not a seat of this game ({names[0]}-{names[-1]})")
    return new_match(entry, rules, names.index(seat), args.vs, args.seed)


def _resumed(args) -> tuple[Match, list]:
    if args.game or args.vs or args.rules or args.set or args.seed is not None:
        raise GeolabError("--resume continues a saved match as it was: give no game, --vs, --rules, --set or --seed")
    record = records.load(args.resume)
    done, _ = replay_session(record)  # the whole log checked before anyone plays on
    if done.finished:
        raise GeolabError(f"{args.resume}: this match is over (geolab replay {args.resume})")
    return restarted(done), record["games"]


def save(match: Match, path: Path) -> None:
    """Write the session atomically; if that fails, to a fallback the error names (a match
    played at the keyboard is never lost to a full disk or a folder that went away)."""
    session = match.to_json()
    try:
        write_json(session, path)
    except OSError as error:
        saved = rescue(session, "session")
        if saved is None:  # nowhere could be written: the session goes to the terminal
            print(json.dumps(session, indent=1), file=sys.stdout)
            where = "it is printed above"
        else:
            where = f"saved it to {saved} instead (geolab play --resume {saved})"
        raise GeolabError(f"{path}: cannot write the match ({reason(error)}); {where}") from None


def save_quietly(match: Match, path: Path) -> None:
    """Between games: write the match so far if the file can be written; if not, play on (the
    save at the end finds a fallback and says where)."""
    with contextlib.suppress(OSError):
        write_json(match.to_json(), path)


def run(args) -> int:
    match, resumed = _resumed(args) if args.resume else (_new_match(args), [])
    path = Path(args.record) if args.record else Path(args.resume) if args.resume else \
        _default_path(match.entry.name, match.seed)
    check_writable(str(path), "file", "--record")  # before a person plays a whole game
    entry, rules, game = match.entry, match.rules, match.game
    # compile before the game, with its notice: the table's bots, the hint bot in your seat
    tables.warm_up(entry, rules, [[b or entry.hint or entry.bots.names()[0] for b in match.bots]])
    io = Terminal()
    person = Person(game.views, io, hint_seat(match), confirm=args.confirm and not args.no_confirm)
    target = game.series_target(rules)
    spec = rules.to_spec()
    changed = (", ".join(f"{k}={json.dumps(v)}" for k, v in spec.items() if k != "preset")
               if isinstance(spec, dict) else "")
    io.say(f"{game.title} ({spec if isinstance(spec, str) else spec['preset'] + ': ' + changed}), seed {match.seed}")
    io.say(f"you are {game.seat_name(rules, match.you)}, against {opponents(match)}"
           + (f"; first to {target} points" if target else ""))
    io.say("Type help at any prompt (also moves, hint, undo, quit).")
    if resumed:
        io.say(f"resuming: {plural(sum(map(len, resumed)), 'move')} replayed")
        io.write(f"  from {args.resume}")
    code = 0
    try:
        play_match(match, person, io.say, resumed, fresh=1 + sum(map(len, resumed)),
                   after_game=lambda: save_quietly(match, path))
    except Adjourned as stop:
        code = 0 if str(stop) == "quit" else 1
    except KeyboardInterrupt:
        io.write()
        code = 130
    finally:
        save(match, path)
    if match.finished:  # commands on lines of their own, whole, so they can be copied
        io.write(f"saved: {path}")
        io.write(f"  see it again: geolab replay {path}")
        if entry.review:
            io.write(f"  the oracle's verdicts: geolab solve {path}")
    else:
        io.write("saved unfinished; continue it with:")
        io.write(f"  geolab play --resume {path}")
    return code
