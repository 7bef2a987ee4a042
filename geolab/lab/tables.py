"""Duplicate seating and the tidy game table, once for every game.

A line-up names a bot per seat. Each deal is played under every distinct rotation of the
line-up (two seats: the bots swapped; n seats: turned one seat at a time), on the same cards,
so every bot holds every seat's cards and the luck of the deal cancels within it. Rotation r
plays on the game's stream r, so its own randomness is its own and reproducible.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import numpy as np
import pandas as pd

from geolab.errors import GeolabError
from geolab.game import Batch
from geolab.lab.stats import mean_ci
from geolab.registry import Entry

#: Most games one table may hold (about 1 GB of columns at 32 seats).
MAX_GAMES = 20_000_000


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
              threads: int | None = None, bots: dict | None = None) -> tuple[list[tuple[str, ...]], list[Batch]]:
    """Every rotation of `seating` on the same `deals`: the rotations and one `Batch` each."""
    made = dict(bots or {})
    for name in seating:
        if name not in made:
            made[name] = entry.bots.make(name, rules)
    turns = rotations(seating)
    played = [entry.game.batch(rules, [made[b] for b in turn], deals, seed, stream=r, chunk=chunk, threads=threads)
              for r, turn in enumerate(turns)]
    return turns, played


def table(entry: Entry, turns: Sequence[tuple[str, ...]], played: Sequence[Batch], rules) -> pd.DataFrame:
    """One row a game: game, deal, rotation, bot_<seat>, score_<seat>, winner, length, first,
    then the game's own columns."""
    game = entry.game
    names = [game.seat_name(rules, s) for s in range(game.seats(rules))]
    frames = []
    for r, (turn, batch) in enumerate(zip(turns, played)):
        n = len(batch)
        columns: dict = {"deal": np.arange(n), "rotation": np.full(n, r, np.int16)}
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


def simulate(entry: Entry, rules, names: Sequence[str], deals: int, seed: int, chunk: int | None = None,
             threads: int | None = None) -> tuple[pd.DataFrame, dict]:
    """`deals` deals under every rotation of the line-up: the game table and a summary with
    each bot's share of the wins (95% interval over deals) against its fair share, the win
    share of each seat, and what the first mover wins."""
    game = entry.game
    seating = lineup(list(names), game.seats(rules))
    turns = rotations(seating)
    if deals < 1:
        raise GeolabError("--games must be at least 1")
    if deals * len(turns) > MAX_GAMES:
        raise GeolabError(f"--games: {deals:,} deals x {len(turns)} rotations is more than {MAX_GAMES:,} games")
    start = time.perf_counter()
    turns, played = duplicate(entry, rules, seating, deals, seed, chunk, threads)
    seconds = time.perf_counter() - start
    games = table(entry, turns, played, rules)
    return games, summarise(entry, rules, seating, turns, played, seconds)


def summarise(entry: Entry, rules, seating, turns, played, seconds: float) -> dict:
    game = entry.game
    names = [game.seat_name(rules, s) for s in range(game.seats(rules))]
    per_bot = bot_shares(turns, played)
    rows = []
    for name in dict.fromkeys(seating):
        mean, low, high = mean_ci(per_bot[name])
        rows.append({"bot": name, "seats": seating.count(name), "win_share": mean, "ci_low": low, "ci_high": high,
                     "fair_share": seating.count(name) / len(seating)})
    scores = np.concatenate([b.scores for b in played])
    first = np.concatenate([b.first for b in played])
    first_share = scores[np.arange(len(first)), first]
    # a deal's rotations share its cards, so intervals are taken over deals
    per_deal_first = first_share.reshape(len(played), -1).mean(axis=0)
    f_mean, f_low, f_high = mean_ci(per_deal_first)
    per_seat = scores.reshape(len(played), -1, len(names)).mean(axis=0)
    seat_rows = []
    for s, seat in enumerate(names):
        mean, low, high = mean_ci(per_seat[:, s])
        seat_rows.append({"seat": seat, "win_share": mean, "ci_low": low, "ci_high": high,
                          "fair_share": 1 / len(names)})
    length = np.concatenate([b.length for b in played])
    n_games = len(length)
    return {
        "game": game.name, "rules": rules.to_spec(), "deals": len(played[0]), "rotations": len(turns),
        "games": n_games, "seating": "duplicate: each deal under every rotation of the line-up",
        "bots": rows, "seats": seat_rows,
        "first_means": game.first_means,
        "first_win_share": f_mean, "first_ci": [f_low, f_high],
        "shared_rate": float((scores.max(axis=1) < 1).mean()),
        "length_unit": game.length_unit, "mean_length": float(length.mean()),
        "seconds": seconds, "games_per_s": n_games / seconds if seconds else float("nan"),
        "length_per_s": float(length.sum()) / seconds if seconds else float("nan"),
    }
