"""Class GeoPower Double Choice on the game interface (`geolab.game.Game`): the adapter the
registry holds.

Seats are the students, seat s is student ``S{s+1}`` of the records; groups are consecutive
seats (`Rules.groups_of`). A bot is a discard policy and must give the batch engine its
lookup table: ``bot.discard_table(rules)`` -> (2 calls, 32 opponent counts, 19,600 hands)
int8 discard positions, -1 for "at random" (every bot of `geolab.bots.classroom` does; the
games layer never imports bots). The reference engine asks each student one `Decision` a
round it plays, ``kind="discard"``: its observation is a `View` (own sorted hand, the call,
the number of opponents, which policies read; and what the class has seen, for a person's
screen), its legal actions the cards of that hand; the answer is a card. The reference
engine is the step-wise state of `reference.Engine` (the class inherits its verbs): one
`geolab.stepwise.Ask` a round holds every dealt student's discard. At the keyboard (`views`)
a person is one student, the bots the classmates.

Nobody moves first (every student of a round discards at once, face-down), so `Batch.first`
is always seat 0, student S1, and ``first_means`` says so: the lab's "first mover" figures
are then S1's.
"""

from __future__ import annotations

import numba
import numpy as np

from geolab.common.seeding import int_seed
from geolab.errors import GeolabError, IllegalActionError
from geolab.game import Batch, Packaged, asking, bot_name, shares
from geolab.games.classroom import batch as engine
from geolab.games.classroom import records
from geolab.games.classroom.reference import Engine, GameLog
from geolab.games.classroom.rules import Rules, student_name
from geolab.games.classroom.views import ClassViews
from geolab.lineup import checked_bots


def _tables(rules: Rules, bots) -> tuple[np.ndarray, np.ndarray]:
    """One discard table per distinct bot (equal tables merged: the policy number never
    touches the random streams) and the seat -> table map."""
    if len(bots) != rules.students:
        raise GeolabError(f"class: {len(bots)} bots for {rules.students} students")
    by_bot: dict[int, int] = {}
    by_table: dict[bytes, int] = {}
    tables, seats = [], []
    for bot in bots:
        if id(bot) not in by_bot:
            checked_bots([bot])
            with asking("class", bot, "discard decision (its discard_table)"):
                made = bot.discard_table(rules)
            table = engine.discard_positions(made,
                                             f"class: bot {bot_name(bot)!r}'s discard table (its discard decision)")
            if table.shape == engine.PEEK_SHAPE and not bot.peeks:
                raise IllegalActionError(f"class: bot {bot_name(bot)!r}'s discard table depends on the GeoPower "
                                         "category, which only a bot that says it peeks (peeks = True) may see")
            if table.shape not in (engine.TABLE_SHAPE, engine.PEEK_SHAPE):
                raise IllegalActionError(f"class: bot {bot_name(bot)!r}'s discard table (its discard decision) has "
                                         f"shape {table.shape}, expected {engine.TABLE_SHAPE}")
            key = table.tobytes()
            if key not in by_table:
                by_table[key] = len(tables)
                tables.append(table)
            by_bot[id(bot)] = by_table[key]
        seats.append(by_bot[id(bot)])
    if any(t.shape == engine.PEEK_SHAPE for t in tables):  # one form for all: fair tables by category too
        tables = [t if t.shape == engine.PEEK_SHAPE else np.repeat(t[None], 3, axis=0) for t in tables]
    return np.stack(tables), np.array(seats, np.int64)


class ClassGame(Engine, Packaged):
    name = "class"
    title = "Class GeoPower Double Choice"
    record_game = records.GAME
    Rules = Rules
    length_unit = "championship rounds"  # the Championship Round and its replays after ties
    first_means = "student S1 (nobody moves first: a round's students discard at once)"

    def seats(self, rules: Rules) -> int:
        return rules.students

    # ----- batch engine ------------------------------------------------------------------
    #: games per seed unit: any game can start a piece (game i's deals depend on (seed, i))
    block = 1

    def _simulate(self, rules, bots, n, seed, start=0, stream=0, chunk=None, threads=None,
                  trace=False) -> engine.ClassBatch:
        tables, seats = _tables(rules, bots)
        before = numba.get_num_threads()
        if threads is not None:
            numba.set_num_threads(max(1, min(int(threads), numba.config.NUMBA_NUM_THREADS)))
        try:
            return engine.simulate(rules, tables, seats, n, int_seed(seed), trace=trace, chunk=chunk,
                                   first_game=start, stream=stream)
        finally:
            numba.set_num_threads(before)

    def batch(self, rules, bots, n, seed, *, start=0, stream=0, chunk=None, threads=None) -> Batch:
        """n class games on the numba engine, ``bots[s]`` at student s. Each game's deals
        come from (seed, game number) only: every seating of a seed plays the same Starting
        Round cards (the Championship's follow from who the finalists are). ``stream`` keys
        only the discards a table leaves to chance (the `random` bot's): the deterministic
        bots' tables make it irrelevant to them. Neither chunk nor threads change a result.

        Columns: ``group_win_S1`` ... (did each student win its group: bool), ``finalists``
        and ``championship_hands`` (hands dealt over the Championship Round and its replays);
        ``length`` counts the Championship Rounds played."""
        b = self._simulate(rules, bots, n, seed, start, stream, chunk, threads)
        columns = {f"group_win_{student_name(s)}": b.group_win[:, s] for s in range(rules.students)}
        columns["finalists"] = b.group_win.sum(axis=1).astype(np.int64)
        columns["championship_hands"] = b.championship_hands.astype(np.int64)
        return Batch(shares(b.champion), b.championship_rounds.astype(np.int64), np.zeros(n, np.int64), columns)

    def batch_records(self, rules, bots, n, seed) -> list[dict]:
        """The first n games of `batch` (stream 0) from the engine's trace, as records. (The
        trace keeps 8 Championship attempts a game; a game tied more often than that cannot
        be written and raises RulesError: about never, ties recur with a few percent each.)"""
        b = self._simulate(rules, bots, n, seed, trace=True)
        return [b.record(i) for i in range(n)]

    # ----- reference engine (the step-wise verbs: `reference.Engine`) ------------------------
    records = records  # to_record, replay, report: the module's (`Packaged`)

    # ----- at the keyboard ---------------------------------------------------------------
    #: a person is one student of the class, the bots the classmates (`geolab play class`)
    views = ClassViews()

    def series_target(self, rules: Rules) -> None:
        """One game is the match: a class plays to one champion."""
        return None

    def deal_points(self, played: GameLog) -> tuple[int, ...]:
        """1 for the champion (each joint champion, when ties are shared), 0 for the rest."""
        return tuple(int(s in played.champions) for s in range(played.rules.students))


GAME = ClassGame()
