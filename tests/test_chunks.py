"""The shared chunk runner (`geolab.common.chunks`): every batch engine checks its run's
numbers, cuts it into chunks and runs them on threads there, and nowhere else."""

from __future__ import annotations

import pathlib
import re
import threading
import time

import numpy as np
import pytest

import geolab
from geolab.bots.jumbled.registry import BOTS as JUMBLED_BOTS
from geolab.common import chunks
from geolab.errors import GeolabError
from geolab.game import BatchBot
from geolab.games.jumbled import game as jumbled
from geolab.games.jumbled.rules import Rules as JumbledRules


@pytest.mark.parametrize("args, options, words", [
    ((-1, 0, None, 4, 8, (1, 2)), {}, "games must be at least 0, got -1"),
    ((0, 0, None, 4, 8, (1, 2)), {"least": 1, "unit": "rounds"}, "rounds must be at least 1, got 0"),
    ((8, 0, None, 4, 8, (1,)), {"needs": "two, please"}, "two, please"),
    ((8, 0, None, 4, 8, (1, 2, 3)), {"seats": 4, "needs": "3 bots for 4 seats"}, "3 bots for 4 seats"),
    ((8, 0, None, 4, 8, (1, 2)), {"stream": -1}, "stream must be at least 0, got -1"),
    ((8, 0, None, 0, 8, (1, 2)), {}, "block must be at least 1, got 0"),
    ((8, 6, None, 4, 8, (1, 2)), {}, "start must be a whole number of blocks of 4, got 6"),
    ((8, -4, None, 4, 8, (1, 2)), {}, "start must be a whole number of blocks of 4, got -4"),
    ((8, 0, 0, 4, 8, (1, 2)), {}, "chunk must be at least 1, got 0"),
])
def test_plan_names_each_bad_number_in_one_line(args, options, words):
    with pytest.raises(GeolabError, match=re.escape(words)) as error:
        chunks.plan(*args, **options)
    assert "\n" not in str(error.value)


def test_plan_cuts_whole_blocks_from_the_start_block():
    assert chunks.plan(10, 8, 5, 4, 99, (1, 2)) == (2, 2, [0, 2], 3)  # chunks of 2 blocks, from block 2
    assert chunks.plan(10, 0, None, 4, 12, None) == (0, 3, [0], 3)  # the default chunk; no bots to count
    assert chunks.plan(0, 0, None, 4, 12, (1, 2)).starts == []


def test_iterate_yields_in_order_with_a_few_chunks_in_flight_and_stops_with_its_consumer():
    lock, started, running, most = threading.Lock(), [], [0], [0]

    def one(b):
        with lock:
            started.append(b)
            running[0] += 1
            most[0] = max(most[0], running[0])
        time.sleep(0.002 * (b % 3))  # out of order finishes
        with lock:
            running[0] -= 1
        return b * b

    assert list(chunks.iterate(one, range(40), (), 2)) == [b * b for b in range(40)]
    assert most[0] <= 2
    started.clear()
    it = chunks.iterate(one, range(1000), (), 2)
    assert [next(it) for _ in range(3)] == [0, 1, 4]
    it.close()  # the consumer stops: chunks not yet started never start
    assert len(started) <= 3 + 2 * 2 + 1
    assert chunks.run(one, range(5), (), 3) == [0, 1, 4, 9, 16]


class _OneThread(BatchBot):
    """A Jumbled bot that says it is not thread-safe, and notes the threads that ask it."""

    thread_safe = False

    def __init__(self, bot):
        self.bot, self.name, self.threads = bot, bot.name, set()

    def act(self, obs, rng):
        self.threads.add(threading.get_ident())
        return self.bot.act(obs, rng)

    def call(self, obs, rng):
        return self.bot.call(obs, rng)


def test_jumbled_runs_through_the_shared_runner(monkeypatch):
    """Jumbled's engine chunks and threads through `chunks` (before, its own pool ignored a
    bot's thread_safe), and its games stay the same at any chunk and thread count."""
    monkeypatch.setattr(jumbled, "BLOCK", 64)
    rules = JumbledRules().validate()
    base = JUMBLED_BOTS.make("heuristic", rules)
    alone = _OneThread(base)
    seats = [alone] + [base] * (rules.players - 1)
    one = jumbled.GAME.batch(rules, seats, 300, 5, chunk=64, threads=2)
    assert len(alone.threads) == 1
    again = jumbled.GAME.batch(rules, [base] * rules.players, 300, 5, chunk=128, threads=2)
    np.testing.assert_array_equal(one.scores, again.scores)
    with pytest.raises(GeolabError, match="start must be a whole number of blocks of 64"):
        jumbled.GAME.batch(rules, seats, 10, 5, start=10)


def test_no_batch_engine_runs_its_own_thread_pool():
    """Threads for a batch run come from `geolab.common.chunks` alone (the double-dummy
    solver splits one search in two; sweeps and tournaments use processes)."""
    root = pathlib.Path(geolab.__file__).parent
    own = sorted(str(p.relative_to(root)) for p in root.rglob("*.py") if "ThreadPoolExecutor" in p.read_text())
    assert own == ["common/chunks.py", "games/ranks/solver/double_dummy.py"]
