"""Duplicate seating and the tidy game table, once for every game.

A line-up names a bot per seat. Each deal is played under every distinct rotation of the
line-up (two seats: the bots swapped; n seats: turned one seat at a time), on the same cards,
so every bot holds every seat's cards and the luck of the deal cancels within it. Rotation r
plays on the game's stream r, so its own randomness is its own and reproducible.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd

from geolab import registry
from geolab.errors import GeolabError
from geolab.game import Batch
from geolab.interop.plugins import plugin_bots
from geolab.lab import MAX_GAMES, progress
from geolab.lab.stats import moments_ci
from geolab.registry import Entry


def lineup(names: Sequence[str], seats: int) -> list[str]:
    """A bot per seat: the names repeated around the table (``a,b`` at 4 seats: a b a b)."""
    if not names:
        raise GeolabError("--bots: name at least one bot")
    if len(names) > seats:
        raise GeolabError(f"--bots names {len(names)} bots for {seats} seats")
    return [names[s % len(names)] for s in range(seats)]


def rotations(seating: Sequence[str]) -> list[tuple[str, ...]]:
    """The distinct rotations of a seating, the seating itself first."""
    out: list[tuple[str, ...]] = []
    n = len(seating)
    for r in range(n):
        turned = tuple(seating[(s - r) % n] for s in range(n))
        if turned in out:
            break  # rotations repeat with the seating's period
        out.append(turned)
    return out


def duplicate(entry: Entry, rules, seating: Sequence[str], deals: int, seed, chunk: int | None = None,
              threads: int | None = None, bots: dict | None = None,
              start: int = 0) -> tuple[list[tuple[str, ...]], list[Batch]]:
    """Every rotation of `seating` on the same deals (`deals` of them from deal `start` on):
    the rotations and one `Batch` each. `bots` maps names to built bots (the rest are built)."""
    made = dict(bots or {})
    for name in seating:
        if name not in made:
            made[name] = entry.bots.make(name, rules)
    turns = rotations(seating)
    played = [entry.game.batch(rules, [made[b] for b in turn], deals, seed, start=start, stream=r, chunk=chunk,
                               threads=threads) for r, turn in enumerate(turns)]
    return turns, played


#: Deals a warm-up step plays (`warm_steps`): every kind of decision comes up, and once the
#: kernels are compiled the step costs milliseconds.
WARM_DEALS = 2


def warm_steps(entry: Entry, rules, lineups: Sequence[Sequence[str]]) -> list[tuple[str, Callable[[], object]]]:
    """The warm-up of a run that plays these line-ups (for `geolab.lab.progress.warm_up`): each
    bot alone at every seat, then each line-up, on `WARM_DEALS` duplicate deals of their own
    seed. A step compiles (or loads from numba's cache) the kernels of what it plays, so the
    run's own games, and its rates, no longer include them. The bots are built afresh, so a
    bot that keeps anything between calls starts the run as it would have without this."""
    seats = entry.game.seats(rules)
    lineups = [list(names) for names in lineups]
    alone = list(dict.fromkeys(name for names in lineups for name in names))
    plays = ([[name] for name in alone] if len(alone) > 1 else []) + lineups
    made = {name: entry.bots.make(name, rules) for name in alone}  # a bad bot is refused before any step
    seatings = [lineup(names, seats) for names in plays]

    def step(seating: list[str]) -> Callable[[], object]:
        return lambda: duplicate(entry, rules, seating, WARM_DEALS, 0, threads=1, bots=made)

    return [(" v ".join(names) if len(names) > 1 else f"{names[0]} v itself", step(seating))
            for names, seating in zip(plays, seatings)]


def warm_up(entry: Entry, rules, lineups: Sequence[Sequence[str]], enabled: bool = True):
    """`warm_steps` run by `geolab.lab.progress.warm_up` (its notice and progress on stderr),
    with a second process sharing the bots' own steps on a cold cache when there are three
    bots or more (the ladder lists the costliest, the search bots, last); a `Warmup`."""
    steps = warm_steps(entry, rules, lineups)
    bots = list(dict.fromkeys(name for names in lineups for name in names))
    alone = len(bots)
    # each bot's own step first, then each line-up, which builds on its bots' own steps
    needs = [[i] for i in range(alone)] + [[bots.index(name) for name in names] for names in lineups]
    helper = None
    if entry.name in registry.builtin() and alone >= 3:
        plan = json.dumps({"game": entry.name, "rules": rules.to_spec(), "lineups": [list(n) for n in lineups]})
        helper = [sys.executable, "-c", "import sys; from geolab.lab.tables import warm_helper; "
                                        "warm_helper(sys.argv[1], sys.argv[2])", plan]
    return progress.warm_up(steps, enabled=enabled, helper=helper, shared=alone if helper else 0,
                            needs=needs if helper else None)


def warm_helper(plan: str, folder: str) -> None:
    """The second process of `warm_up` (``python -c ...``): the same steps, the bots' own from
    the last backwards (`geolab.lab.progress.run_helper`)."""
    data = json.loads(plan)
    plugin_bots(data["game"], [name for names in data["lineups"] for name in names])
    entry = registry.get(data["game"])
    rules = entry.game.Rules.from_spec(data["rules"])
    alone = len({name for names in data["lineups"] for name in names})
    progress.run_helper(warm_steps(entry, rules, data["lineups"]), alone, folder)


def table(entry: Entry, turns: Sequence[tuple[str, ...]], played: Sequence[Batch], rules,
          first_deal: int = 0) -> pd.DataFrame:
    """One row a game: game, deal, rotation, bot_<seat>, score_<seat>, winner, length, first,
    then the game's own columns."""
    game = entry.game
    names = [game.seat_name(rules, s) for s in range(game.seats(rules))]
    frames = []
    for r, (turn, batch) in enumerate(zip(turns, played)):
        n = len(batch)
        columns: dict = {"deal": first_deal + np.arange(n), "rotation": np.full(n, r, np.int16)}
        for s, name in enumerate(names):
            columns[f"bot_{name}"] = pd.Categorical([turn[s]] * n, categories=sorted(set(turn)))
        for s, name in enumerate(names):
            columns[f"score_{name}"] = batch.scores[:, s]
        columns["winner"] = winner_labels(batch.scores > 0, names)
        columns["length"] = batch.length
        columns["first"] = np.asarray(names, dtype=object)[batch.first]
        columns.update(batch.columns)
        frames.append(pd.DataFrame(columns))
    out = pd.concat(frames, ignore_index=True)
    out.insert(0, "game", np.arange(len(out)))
    return out


def winner_labels(win: np.ndarray, names: Sequence[str]) -> pd.Categorical:
    """The seats that share each game's win, as "A" or "A+C" (a label per distinct set)."""
    keys = (win.astype(np.uint64) << np.arange(win.shape[1], dtype=np.uint64)).sum(axis=1)
    unique, inverse = np.unique(keys, return_inverse=True)
    labels = ["+".join(names[s] for s in range(len(names)) if int(u) >> s & 1) for u in unique]
    return pd.Categorical.from_codes(inverse.ravel(), categories=labels)


def seat_shares(batch: Batch, turn: Sequence[str], name: str) -> np.ndarray:
    """Bot `name`'s share of each game's win: the sum over the seats it holds."""
    return batch.scores[:, [s for s, b in enumerate(turn) if b == name]].sum(axis=1)


def bot_shares(turns: Sequence[tuple[str, ...]], played: Sequence[Batch]) -> dict[str, np.ndarray]:
    """Per bot, its share of each deal's wins averaged over the rotations (n deals)."""
    return {name: np.mean([seat_shares(b, t, name) for t, b in zip(turns, played)], axis=0)
            for name in dict.fromkeys(turns[0])}


#: Deals a simulation plays at once (rounded to the game's seed blocks): memory stays flat
#: however many deals are asked for, unless the whole table is kept.
PIECE = 1 << 20


def shared_wins(batch: Batch) -> np.ndarray:
    """(n,) bool: games whose win is shared between rivals (a tie, a draw): the game's own
    ``shared`` column where it has one (a team's win is split among its members but is not
    shared), else every game with no sole winner."""
    if "shared" in batch.columns:
        return np.asarray(batch.columns["shared"], bool)
    return batch.scores.max(axis=1) < 1


class Totals:
    """Running sums over deals, so a simulation's summary never needs all its games at once:
    per bot its per-deal win share, per seat, per position counted from the first mover
    (position 0 the first mover, 1 the next seat round the table, ...) and for the first mover
    the same, with the sums of squares that give intervals over deals. `seating` is the
    line-up's bot per seat (the fair share of a bot is the seats it holds)."""

    def __init__(self, seating: Sequence[str], seats: int):
        self.seating = list(seating)
        self.names = list(dict.fromkeys(seating))
        self.deals = self.games = self.shared = 0
        self.length = 0.0
        keys = [("bot", n) for n in self.names] + [("seat", s) for s in range(seats)] + \
            [("position", p) for p in range(seats)] + [("first", 0), ("length", 0)]
        self.sums = {key: np.zeros(2) for key in keys}

    def _add(self, key, per_deal: np.ndarray) -> None:
        self.sums[key] += (per_deal.sum(), (per_deal * per_deal).sum())

    def add(self, turns, played: Sequence[Batch]) -> None:
        for name, share in bot_shares(turns, played).items():
            self._add(("bot", name), share)
        scores = np.stack([b.scores for b in played])  # (rotations, deals, seats)
        seats = scores.shape[2]
        first = np.stack([b.first for b in played])  # (rotations, deals)
        for s in range(seats):
            self._add(("seat", s), scores[:, :, s].mean(axis=0))
            at = np.take_along_axis(scores, ((first + s) % seats)[:, :, None], axis=2)[:, :, 0]
            self._add(("position", s), at.mean(axis=0))
        self._add(("first", 0), np.mean([b.scores[np.arange(len(b)), b.first] for b in played], axis=0))
        self._add(("length", 0), np.mean([b.length for b in played], axis=0))
        self.deals += scores.shape[1]
        self.games += scores.shape[0] * scores.shape[1]
        self.shared += int(sum(shared_wins(b).sum() for b in played))
        self.length += float(sum(b.length.sum() for b in played))

    def interval(self, key, confidence: float = 0.95) -> tuple[float, float, float]:
        total, squares = self.sums[key]
        return moments_ci(total, squares, self.deals, confidence)

    def to_row(self) -> dict:
        """JSON-ready: what `from_rows` adds up again (a sweep's chunk file)."""
        return {"bots": self.names, "seating": self.seating, "deals": self.deals, "games": self.games,
                "shared": self.shared, "length": self.length,
                "sums": [[kind, key, float(v[0]), float(v[1])] for (kind, key), v in self.sums.items()]}

    @classmethod
    def from_rows(cls, rows: Sequence[dict]) -> Totals:
        """The totals of several chunks, added in the order given (so the sums repeat exactly)."""
        if not rows:
            raise GeolabError("no chunks to add up")
        seats = sum(1 for kind, *_ in rows[0]["sums"] if kind == "seat")
        out = cls(rows[0].get("seating", rows[0]["bots"]), seats)
        for row in rows:
            if {(kind, key) for kind, key, *_ in row["sums"]} != set(out.sums) or "seating" not in row:
                raise GeolabError("chunk totals from another version of geolab (they lack the seating or the "
                                  "positions from the first mover): run the sweep afresh in a new folder")
            out.deals += row["deals"]
            out.games += row["games"]
            out.shared += row["shared"]
            out.length += row["length"]
            for kind, key, total, squares in row["sums"]:
                out.sums[(kind, key)] += (total, squares)
        return out


def play_totals(entry: Entry, rules, names: Sequence[str], deals: int, seed: int, chunk: int | None = None,
                threads: int | None = None, frames: list | None = None) -> Totals:
    """`deals` deals under every rotation of the line-up, played in pieces of about `PIECE`
    deals; their running totals (and each piece's game table appended to `frames`, if given)."""
    game = entry.game
    seating = lineup(list(names), game.seats(rules))
    if deals < 1:
        raise GeolabError("--games must be at least 1")
    made = {name: entry.bots.make(name, rules) for name in dict.fromkeys(seating)}
    piece = max(1, PIECE // game.block) * game.block
    totals = Totals(seating, game.seats(rules))
    for start in range(0, deals, piece):
        n = min(piece, deals - start)
        turns, played = duplicate(entry, rules, seating, n, seed, chunk, threads, made, start)
        totals.add(turns, played)
        if frames is not None:
            frames.append(table(entry, turns, played, rules, first_deal=start))
    return totals


def check_simulate(entry: Entry, rules, names: Sequence[str], deals: int,
                   keep_table: bool = True) -> tuple[list[str], list[tuple[str, ...]]]:
    """`simulate`'s checks, before any play: the seating and its rotations."""
    seating = lineup(list(names), entry.game.seats(rules))
    turns = rotations(seating)
    if deals < 1:
        raise GeolabError("--games must be at least 1")
    if keep_table and deals * len(turns) > MAX_GAMES:
        raise GeolabError(f"--games: a table of {deals:,} deals x {len(turns)} rotations is more than "
                          f"{MAX_GAMES:,} games (leave out --out to summarise any number)")
    return seating, turns


def simulate(entry: Entry, rules, names: Sequence[str], deals: int, seed: int, chunk: int | None = None,
             threads: int | None = None, keep_table: bool = True) -> tuple[pd.DataFrame | None, dict]:
    """`play_totals`, then the game table (or None without `keep_table`) and a summary with
    each bot's share of the wins (95% interval over deals) against its fair share, each
    seat's, and what the first mover wins."""
    seating, turns = check_simulate(entry, rules, names, deals, keep_table)
    frames: list | None = [] if keep_table else None
    start_time = time.perf_counter()
    totals = play_totals(entry, rules, names, deals, seed, chunk, threads, frames)
    seconds = time.perf_counter() - start_time
    games = None
    if frames is not None:
        games = pd.concat(frames, ignore_index=True)
        games["game"] = np.arange(len(games))
    return games, summarise(entry, rules, seating, turns, totals, seconds)


def summarise(entry: Entry, rules, seating, turns, totals: Totals, seconds: float) -> dict:
    game = entry.game
    names = [game.seat_name(rules, s) for s in range(game.seats(rules))]
    rows = []
    for name in totals.names:
        mean, low, high = totals.interval(("bot", name))
        rows.append({"bot": name, "seats": seating.count(name), "win_share": mean, "ci_low": low, "ci_high": high,
                     "fair_share": seating.count(name) / len(seating)})
    seat_rows = []
    for s, seat in enumerate(names):
        mean, low, high = totals.interval(("seat", s))
        seat_rows.append({"seat": seat, "win_share": mean, "ci_low": low, "ci_high": high,
                          "fair_share": 1 / len(names)})
    f_mean, f_low, f_high = totals.interval(("first", 0))
    return {
        "game": game.name, "rules": rules.to_spec(), "deals": totals.deals, "rotations": len(turns),
        "games": totals.games, "seating": "duplicate: each deal under every rotation of the line-up",
        "bots": rows, "seats": seat_rows,
        "first_means": game.first_means,
        "first_win_share": f_mean, "first_ci": [f_low, f_high],
        "shared_rate": totals.shared / totals.games,
        "length_unit": game.length_unit, "mean_length": totals.length / totals.games,
        "seconds": seconds, "games_per_s": totals.games / seconds if seconds else float("nan"),
        "length_per_s": totals.length / seconds if seconds else float("nan"),
    }
