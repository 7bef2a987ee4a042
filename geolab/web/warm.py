"""Make `geolab serve` ready before it says so: play one short game of every game through the
very path a person's requests take (new game, the page, a hint, a move, the review at the
end), so the compiled kernels that play needs are built or loaded from numba's cache before the
address is printed. On a fresh checkout that is where the first hint's and first move's wait
went (over a minute, with no sign on the page); afterwards it is a few seconds a game.

The games are played in a scratch folder that is removed afterwards; nothing of the person's
folder is touched. A game that fails to warm is reported and left to fail again, in its own
words, when a person opens it: warming is a courtesy, never a reason not to serve.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from geolab.errors import GeolabError
from geolab.web.sessions import Store

MOST_MOVES = 400  # a safety bound on one warm-up game: every game here ends far sooner


def warm(entries: Iterable, say: Callable[[str], None]) -> dict[str, float]:
    """Play one game of each entry with default bots, the person's seat answered by the hint
    bot (or the first legal move, or a pass at a race); say each game's seconds as it goes.
    Returns name -> seconds, the slowest single request of each game under ``name + "/most"``."""
    took: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="geolab-warm-") as scratch:
        store = Store(Path(scratch))
        for entry in entries:
            started = time.perf_counter()
            try:
                most = play_one(store, entry)
            except GeolabError as error:
                say(f"  {entry.name}: not warmed ({error})")
                continue
            took[entry.name] = time.perf_counter() - started
            took[entry.name + "/most"] = most
            say(f"  {entry.name}: ready in {took[entry.name]:.1f} s")
    return took


def play_one(store: Store, entry) -> float:
    """One game of `entry` in `store`, as the pages would play it; the slowest request's seconds."""
    rules = entry.game.Rules.preset(entry.game.Rules.DEFAULT)
    gid = store.create(entry, rules, 0, None, seed=1)
    most = 0.0
    for _ in range(MOST_MOVES):
        started = time.perf_counter()
        page = store.page(gid)
        if page.decision is None:
            store.review(page)
            return max(most, time.perf_counter() - started)
        hint = store.hint(page)
        action = None if page.decision.timed else (hint[0] if hint else page.decision.legal[0])
        store.move(gid, page.length, lambda decision, views, say, action=action: action)
        most = max(most, time.perf_counter() - started)
    raise GeolabError(f"did not end within {MOST_MOVES} moves")
