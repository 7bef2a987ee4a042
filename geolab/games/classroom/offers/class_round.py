"""``geolab class-round``: a teacher runs a real Class GeoPower Double Choice round at the
keyboard (what the class game offers as ``command``). The teacher types the students' names,
the groups (or how many), then each round's call, GeoPower card and every student's kept cards;
the rules judge each round as it is complete (`geolab.games.classroom.offers.teacher`), name the
champion and give the equilibrium advice. ``--from FILE`` types lines from a file first (a
class list made in advance, or a whole class for a test); ``--save FILE`` keeps the class
after every entry, and ``--open FILE`` reopens it where it stopped."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from pathlib import Path

from geolab import records
from geolab.common.text import plural
from geolab.errors import GeolabError
from geolab.games.classroom.offers.teacher import (
    FIXED,
    EntryError,
    Sheet,
    advice_lines,
    champion_line,
    count_words,
    from_json,
    judge,
    read_call,
    read_cards,
    read_category,
    read_names,
    round_lines,
    to_json,
)
from geolab.games.classroom.rules import STARTING, Rules
from geolab.games.classroom.views import stage_title
from geolab.lab.play import Terminal
from geolab.lab.results import check_writable, reason, write_json

HELP = (
    "At any prompt: undo takes back the last entry (again and again), quit stops (the class is saved; "
    "geolab class-round --open FILE goes on), help shows this.",
    "Cards: postal codes or state names, the two kept cards, then the discarded card after a slash if the "
    "student says it (CA TX / NY); the discard never counts, it only feeds the advice at the end.",
    "Calls: top dog (lowest sum wins) or bottoms up (highest). GeoPower card: size, statehood or population.",
)
MAX_SCRIPT = 1_000_000  # bytes of a --from file


class Stopped(Exception):
    """The teacher stopped (``quit``) or the input ended before the champion was named."""


class Keyboard:
    """The teacher's lines: those of a ``--from`` file first, each shown after its prompt as
    if typed (lines starting with # are notes, skipped), then the keyboard."""

    def __init__(self, io: Terminal, lines=()):
        self.io, self.lines = io, deque(line for line in lines if not line.lstrip().startswith("#"))

    def read(self, prompt: str) -> str:
        if self.lines:
            line = self.lines.popleft()
            self.io.write(prompt + line)
            return line
        return self.io.read(prompt)

    def write(self, line: str = "") -> None:
        self.io.write(line)

    def say(self, text: str, indent: str = "") -> None:
        self.io.say(text, indent)


def _next(sheet: Sheet, judged) -> tuple[str, Callable[[str], list[str]]]:
    """The prompt the sheet asks now and what reads its answer (returning lines to show)."""
    if not sheet.names_done:
        def names(line: str) -> list[str]:
            if line.strip():
                sheet.add_names(read_names(line))
                return []
            sheet.end_names()
            return [f"{plural(len(sheet.names), 'student')}."]
        return f"names, commas between ({len(sheet.names)} so far; empty line: done)> ", names
    if sheet.groups is None:
        def groups(line: str) -> list[str]:
            sheet.set_groups(line)
            return [f"Group {g + 1}: {', '.join(names)}" for g, names in enumerate(sheet.groups)]
        return f"groups: how many ({count_words(sheet.group_counts())}), or by name (Ana, Ben / Cy, Dee)> ", groups
    rules, plan, entered = sheet.rules, judged.plan, sheet.rounds[-1]
    stage = stage_title(rules, len(judged.history))
    if entered.call is None:
        return f"{stage}: call (top dog/bottoms up)> ", lambda line: sheet.enter_call(read_call(line)) or []
    if entered.category is None:
        def category(line: str) -> list[str]:
            sheet.enter_category(read_category(line))
            return ["Each student's two kept cards (codes or names), the discarded one after a slash if known: "
                    "CA TX / NY"]
        return f"{stage}: GeoPower card (size/statehood/population)> ", category
    seat = next(s for contest in plan[2] for s in contest if s not in entered.cards)
    where = (f"group {next(g for g, c in enumerate(rules.groups_of()) if seat in c) + 1}"
             if plan[0] == STARTING else "finalist")
    return (f"  {sheet.seats[seat]} ({where}) kept> ",
            lambda line: sheet.enter_cards(seat, read_cards(line), plan) or [])


def run_sheet(sheet: Sheet, io: Keyboard, save: Callable[[Sheet], None]) -> None:
    """The prompt loop: ask what the sheet lacks, judge each round once complete and show it,
    to the champion and the advice. A refused entry is one line and asked again; `save` runs
    after every entry kept. Raises `Stopped` on ``quit`` or the end of input."""
    shown = 0
    while True:
        judged = judge(sheet) if sheet.groups is not None else None
        done = len(judged.history) if judged else 0
        for index in range(min(shown, done), done):
            for line in round_lines(sheet, judged, index):
                text = line.lstrip()
                io.say(text, line[: len(line) - len(text)])
        shown = done
        if judged and judged.played is not None:
            io.write(champion_line(sheet, judged))
            io.write()
            io.write("Equilibrium advice:")
            for line in advice_lines(sheet, judged):
                io.say(line, "  ")
            return
        if judged and len(sheet.rounds) == done:
            sheet.start_round()
        prompt, enter = _next(sheet, judged)
        try:
            line = io.read(prompt)
        except EOFError:
            io.write()
            raise Stopped("the input ended") from None
        word = line.strip().lower()
        if word == "help":
            for text in HELP:
                io.say(text, "  ")
        elif word == "quit":
            raise Stopped("quit")
        elif word == "undo":
            taken = sheet.undo()
            io.write(f"  taken back: {taken}" if taken else "  nothing to take back")
            save(sheet)
        else:
            try:
                shown_lines = enter(line)
            except EntryError as error:
                io.write(f"  {error}")
                continue
            for text in shown_lines:
                io.say(text, "  ")
            save(sheet)


# ----- the command ------------------------------------------------------------------------------
def add(commands) -> None:
    """What Class GeoPower Double Choice offers as ``command``: `geolab class-round`."""
    p = commands["top"].add_parser(
        "class-round", help="run a Class GeoPower Double Choice round for a real class: names, cards, the judging",
        description=__doc__.split("\n\n")[0].replace("\n", " "))
    p.add_argument("--from", dest="script", metavar="FILE",
                   help="type these lines first, one answer a line (# starts a note); then the keyboard")
    p.add_argument("--save", metavar="FILE",
                   help="keep the class in this JSON file after every entry (default: ~/.geolab/classes/, "
                        "or the --open file)")
    p.add_argument("--open", metavar="FILE", help="reopen a saved class: show it, and go on where it stopped")
    p.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE",
                   help="change a rules field (geolab rules class), e.g. --set championship_ties=share; "
                        f"not {', '.join(FIXED)}, which the class decides")
    p.set_defaults(run=run)


def _settings(args) -> Rules:
    for setting in args.set:
        name = setting.partition("=")[0].strip()
        if name in FIXED:
            raise GeolabError(f"--set {setting}: {name} comes from the class entered, not from --set")
    return Rules().with_settings(args.set) if args.set else Rules()


def _script(path: str) -> list[str]:
    data = records.read_at_most(path, MAX_SCRIPT, GeolabError, name=f"--from {path}")
    try:
        return data.decode("utf-8").splitlines()
    except UnicodeDecodeError:
        raise GeolabError(f"--from {path}: not UTF-8 text") from None


def run(args) -> int:
    if args.open and args.set:
        raise GeolabError("--open keeps the saved class's rules: give no --set")
    sheet = from_json(records.load(args.open), args.open) if args.open else Sheet(_settings(args))
    lines = _script(args.script) if args.script else []
    path = Path(args.save or args.open or
                Path.home() / ".geolab" / "classes" / f"class-{time.strftime('%Y%m%d-%H%M%S')}.json")
    check_writable(str(path), "file", "--save")
    io = Keyboard(Terminal(), lines)
    io.say("Class GeoPower Double Choice, a round for a real class. Type help at any prompt (also undo, quit).")
    if args.open:
        io.write(f"reopened {args.open}")
    code = 0
    try:
        run_sheet(sheet, io, lambda s: _save(s, path, quietly=True))
    except Stopped as stop:
        io.write(f"stopped: {stop}")
        code = 0 if str(stop) == "quit" else 1
    except KeyboardInterrupt:
        io.write()
        code = 130
    finally:
        _save(sheet, path)
    if io.lines:
        io.write(f"{plural(len(io.lines), 'line')} of {args.script} not used: the class was over")
    io.write(f"saved: {path}")
    io.write(f"  reopen it: geolab class-round --open {path}")
    return code


def _save(sheet: Sheet, path: Path, quietly: bool = False) -> None:
    try:
        write_json(to_json(sheet), path)
    except OSError as error:
        if not quietly:
            raise GeolabError(f"--save {path}: cannot write the class ({reason(error)})") from None
