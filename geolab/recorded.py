"""What every game's records share beyond the envelope (`geolab.game.envelope`,
`check_envelope`): writing a played game with its ``result``, reading the per-seat objects a
body holds, the seat that answers what a record says, and the replay on the reference engine
whose every problem is one `RecordError` line. A game's ``records`` module configures these
with its own body; none writes them again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from geolab.errors import GeolabError, IllegalActionError, RecordError
from geolab.game import Decision, envelope
from geolab.stepwise import play


def written(game: str, played, body: dict, report: Callable, seed: int | None = None, players=None) -> dict:
    """The record of a played game (its ``rules`` are the played game's): the envelope, the
    game's `body`, then the ``result`` its `report` gives, which a replay checks."""
    record = envelope(game, played.rules.to_spec(), body, seed, players)
    record["result"] = report(played)
    return record


def record_sides(value, where: str, names: Sequence[str] = ("A", "B")) -> dict:
    """A body's object of one entry a seat (``{"A": ..., "B": ...}``), by the seats' names;
    anything else is one `RecordError` naming `where`."""
    if not isinstance(value, dict) or set(value) != set(names):
        keys = ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]
        raise RecordError(f"{where}: expected an object with keys {keys}")
    return value


class Scripted:
    """A seat at the reference engine that gives the answers a record holds for it, in order:
    the seat adapter every replay plays. Asked once more than the record holds, it says where
    the record runs out (`missing`); `left` counts the answers the game never asked for."""

    def __init__(self, answers: Sequence, missing: str):
        self.answers, self.missing, self.used = list(answers), missing, 0

    def act(self, decision: Decision):
        if self.used >= len(self.answers):
            raise RecordError(self.missing)
        self.used += 1
        return self.answers[self.used - 1]

    @property
    def left(self) -> int:
        return len(self.answers) - self.used


def replay_seats(game, rules, deal, seats: Sequence, illegal: Callable[[str], str] = str):
    """A record's game played on the reference engine by its recorded `seats`; an action the
    rules refuse is the record's `RecordError` (its line as ``illegal`` words it), and so is
    any other geolab error the deal raises."""
    try:
        return play(game, rules, deal, seats)
    except RecordError:
        raise
    except IllegalActionError as error:
        raise RecordError(illegal(str(error))) from None
    except GeolabError as error:
        raise RecordError(str(error)) from None
