"""A record or a session replayed decision by decision (`geolab replay FILE --moves`).

One path for every registered game, naming none: a record is checked by its game's own
`Game.replay`, and the game that replay finishes on the reference engine (`stepwise.recording`)
is stepped again from its deal and log; a session file (`geolab play --save`) is stepped by
the play loop's own replay (`lab.play.replay_session`, which shows every logged move). Each
decision is shown as a table shows it: its seat, what that seat has seen happen since its
last decision (the game's `Views.events`), its table (`Views.screen`), the move played in the
game's words (`Views.label`; at a race with its seconds), and, where the game's players have
a judge (`geolab.definition.Players.judge`: Play the Ranks' oracle), the value of the move
played beside the best one. A game made of games (a Combo 1 match) is told game by game by
its own views. Each game ends with its ending from the side shown.

Pages are built once, forward, so stepping back shows exactly what stepping forward showed.
"""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from geolab import registry
from geolab.errors import GeolabError, RecordError
from geolab.game import Decision, check_format
from geolab.lab.play import SESSION_FORMAT, replay_session
from geolab.stepwise import Claim, State, recording


@dataclass
class Stepped:
    """One game of a file, decision by decision: its rules, ``(decision, answer)`` in the
    order the game asked them, and the played game (None: the log stops before its end)."""

    rules: object
    moves: list = field(default_factory=list)
    played: object = None


def stepped(record) -> tuple[registry.Entry, list[Stepped]]:
    """The registry entry and each game of a record or session file, stepped; anything a
    replay refuses is one `RecordError` line."""
    form = record.get("format") if isinstance(record, dict) else None
    if isinstance(form, str) and form.startswith(SESSION_FORMAT.split("/")[0] + "/"):
        return _session(record)
    check_format(record)
    entry = registry.by_record(record["game"])
    with recording() as plays:
        entry.game.replay(record)
    mine = [p for p in plays if isinstance(p.rules, entry.game.Rules)]  # not the games inside it
    if not mine:  # a game whose replay does not run the one driver
        raise RecordError(f"{entry.name}: this record cannot be stepped move by move")
    last = mine[-1]  # the record's own game (the games inside it were replayed before it)
    game = Stepped(last.rules, played=last.played)
    state = State(entry.game, last.rules, last.deal)  # the registered game: its views' words, whatever replayed it
    for kind, value in last.log:
        if kind == "chance":
            state.apply_chance(value)
            continue
        game.moves += [(d, value[d.seat]) for d in state.decisions()]
        state.apply(value)
    return entry, [game]


def _session(record) -> tuple[registry.Entry, list[Stepped]]:
    games: dict[int, list] = defaultdict(list)
    match, _ = replay_session(record, watch=lambda k, d, a: games[k].append((d, a)))
    out = [Stepped(match.rules, games[k], match.played[k] if k < len(match.played) else None)
           for k in range(max(len(match.played), max(games, default=-1) + 1))]
    return match.entry, out


def words(views, decision: Decision, action) -> str:
    """A move in the game's words; a race's claim with its seconds."""
    if isinstance(action, Claim):
        said = "no claim" if action.action is None else views.label(decision, action.action)
        return f"{said} at {action.seconds:.1f} s"
    return views.label(decision, action)


def judged(entry: registry.Entry, game: Stepped) -> dict:
    """The judge's words for each move it values, keyed by the move's place in ``game.moves``."""
    if entry.judge is None or game.played is None:
        return {}
    queues: dict = defaultdict(deque)
    for verdict in entry.judge(game.played):
        queues[verdict.seat, verdict.kind].append(verdict.words)
    out = {}
    for i, (d, _) in enumerate(game.moves):
        queue = queues.get((d.seat, d.kind))
        if queue:
            out[i] = queue.popleft()
    return out


def pages(entry: registry.Entry, games: Sequence[Stepped], seat: int | None = None) -> list[list[str]]:
    """The pages a replay shows: one a decision (only `seat`'s, where given), then each game's
    ending from `seat`'s side (the first seat's where none is given)."""
    game, views = entry.game, entry.game.views
    out: list[list[str]] = []
    for k, one in enumerate(games):
        rules = one.rules
        name = lambda s, rules=rules: game.seat_name(rules, s)  # noqa: E731
        head = f"game {k + 1} of {len(games)}, " if len(games) > 1 else ""
        shown: dict[int, int] = defaultdict(int)
        values = judged(entry, one)
        mine = [i for i, (d, _) in enumerate(one.moves) if seat is None or d.seat == seat]
        for n, i in enumerate(mine, start=1):
            d, action = one.moves[i]
            page = [f"== {head}decision {n} of {len(mine)}: {name(d.seat)}'s {d.kind}"
                    + (f", {d.where}" if d.where else "") + " =="]
            told = views.events(d)
            page += told[shown[d.seat]:]
            shown[d.seat] = max(shown[d.seat], len(told))
            page += views.screen(d)
            page.append(f">> {name(d.seat)} played: {words(views, d, action)}")
            if i in values:
                page.append(f">> {values[i]}")
            out.append(page)
        side = 0 if seat is None else seat
        if one.played is None:
            out.append([f"== {head}the log stops here: the game is not over =="])
            continue
        page = [f"== {head}the end, as {name(side)} saw it =="]
        page += views.ending(one.played, side)[shown[side]:]
        out.append(page)
    return out


def seat_index(entry: registry.Entry, rules, text: str) -> int:
    """The seat a ``--seat`` names (its name, any case), or a one-line error listing them."""
    names = [entry.game.seat_name(rules, s) for s in range(entry.game.seats(rules))]
    if text.upper() not in names:
        raise GeolabError(f"--seat: {text!r} is not a seat of this game ({', '.join(names)})")
    return names.index(text.upper())


KEYS = "Enter or n: next, p: back, q: quit > "


def step_through(shown: Sequence[Sequence[str]], read: Callable[[str], str], write: Callable[[str], None]) -> None:
    """The interactive stepper: one page at a time, forward (``n`` or Enter), back (``p``),
    ``q`` (or the end of input) to stop; past the last page it stops."""
    i = 0
    while 0 <= i < len(shown):
        for line in shown[i]:
            write(line)
        try:
            word = read(f"[{i + 1}/{len(shown)}] {KEYS}").strip().lower()
        except (EOFError, KeyboardInterrupt):
            write("")
            return
        if word in ("q", "quit"):
            return
        if word in ("p", "b", "back", "prev"):
            i = max(i - 1, 0)
        elif word in ("", "n", "next"):
            i += 1
        else:
            write(f"  {word!r}: type n (or Enter), p or q")
