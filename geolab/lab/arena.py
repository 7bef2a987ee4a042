"""The arena: every pair of bots on the same duplicate deals, win rates, ratings.

A pair sits around the table alternately (two seats: one each; n seats: a b a b ...), and each
deal is played under every rotation of that seating (`geolab.lab.tables`), so the luck of the
cards cancels within a deal; every pair plays the same deals (common random numbers). Deals
come in fixed blocks of `BLOCK`, block k seeded by `SeedSequence(seed).spawn(...)[k]`, so a
run's numbers depend only on its seed and size, never on how it is split or parallelised; a
Ctrl-C keeps every finished block. Any registered game plugs in through `pair_runner`.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from geolab.errors import GeolabError
from geolab.lab import progress as progress_bar
from geolab.lab.stats import ELO_PER_LOGIT, bradley_terry, duplicate_interval, wilson
from geolab.lab.tables import duplicate, lineup, seat_shares
from geolab.registry import Entry


@dataclass(frozen=True)
class Duplicate:
    """One pair on n duplicate deals, R rotations each. `score[i, r]`: bot a's share of the
    win (1 win, ½ tie, 0 loss) on deal i under rotation r; `first_score[i, r]`: the first
    mover's share in that game; `length[i, r]`: its length (tricks, rounds..., the game's
    `length_unit`)."""

    score: np.ndarray
    first_score: np.ndarray
    length: np.ndarray

    @staticmethod
    def concat(parts: Sequence[Duplicate]) -> Duplicate:
        return Duplicate(*(np.concatenate([getattr(p, f) for p in parts]) for f in ("score", "first_score", "length")))


#: runner(bot_a, bot_b, n_deals, seed_sequence) -> Duplicate
DuplicateRunner = Callable[[str, str, int, np.random.SeedSequence], Duplicate]


def pair_runner(entry: Entry, rules, bots: dict, chunk: int | None = None,
                threads: int | None = None) -> DuplicateRunner:
    """The runner of any registered game: a and b alternate around the table, every rotation
    of that seating on the same deals. `bots` maps each name to its built policy."""
    seats = entry.game.seats(rules)

    def run_pair(a: str, b: str, n: int, seed: np.random.SeedSequence) -> Duplicate:
        turns, played = duplicate(entry, rules, lineup([a, b], seats), n, seed, chunk, threads, bots)
        score = np.stack([seat_shares(p, t, a) for t, p in zip(turns, played)], axis=1)
        lead = np.stack([p.scores[np.arange(len(p)), p.first] for p in played], axis=1)
        length = np.stack([p.length for p in played], axis=1)
        return Duplicate(score, lead, length)

    return run_pair


@dataclass
class ArenaResult:
    bots: list[str]
    deals: dict[tuple[str, str], Duplicate] = field(default_factory=dict)
    seconds: float = 0.0
    interrupted: bool = False
    length: str = "tricks"  # what `Duplicate.length` counts in this game (the `avg_` column)

    @property
    def games(self) -> int:
        return sum(d.score.size for d in self.deals.values())

    def pairs_table(self) -> pd.DataFrame:
        rows = []
        for (a, b), d in self.deals.items():
            per_deal = d.score.mean(axis=1)
            mean, low, high = duplicate_interval(per_deal, d.score.shape[1])
            rows.append({
                "a": a, "b": b, "deals": len(per_deal), "games": d.score.size,
                "wins_a": int((d.score == 1).sum()), "ties": int((d.score == 0.5).sum()),
                "win_rate_a": mean, "ci_low": low, "ci_high": high,
                f"avg_{self.length}": float(d.length.mean()),
            })
        return pd.DataFrame(rows)

    def ratings_table(self, anchor: str | None = None) -> pd.DataFrame:
        """Bradley-Terry on all games, in Elo points, anchored at `anchor` (random if present)."""
        index = {b: i for i, b in enumerate(self.bots)}
        k = len(self.bots)
        wins, games = np.zeros((k, k)), np.zeros((k, k))
        for (a, b), d in self.deals.items():
            i, j = index[a], index[b]
            wins[i, j] += d.score.sum()
            wins[j, i] += (1 - d.score).sum()
            games[i, j] = games[j, i] = d.score.size
        if anchor is None:
            anchor = next((b for b in self.bots if b.split(":")[0] == "random"), self.bots[0])
        theta, half = bradley_terry(wins, games, anchor=index[anchor])
        total = games.sum(axis=1)
        rows = [
            {"bot": b, "rating": ELO_PER_LOGIT * theta[i], "ci_low": ELO_PER_LOGIT * (theta[i] - half[i]),
             "ci_high": ELO_PER_LOGIT * (theta[i] + half[i]), "games": int(total[i]),
             "score": wins[i].sum() / total[i] if total[i] else float("nan"), "anchor": b == anchor}
            for i, b in enumerate(self.bots)
        ]
        return pd.DataFrame(rows).sort_values("rating", ascending=False, ignore_index=True)

    def first_lead(self) -> dict:
        scores = np.concatenate([d.first_score.ravel() for d in self.deals.values()]) if self.deals else np.array([])
        low, high = wilson(scores.sum(), len(scores))
        return {"win_rate": float(scores.mean()) if len(scores) else float("nan"), "ci_low": low,
                "ci_high": high, "games": len(scores)}


def ladder_reference(ratings: pd.DataFrame, family: Callable[[str], str]) -> str:
    """The bot the ladder plot measures the others from: the best-rated heuristic
    (``family(bot) == "heuristic"``), else the best-rated bot. Its rating is the plot's 0 and
    the intervals are those of each bot's difference to it, so the close bots stay apart
    instead of sharing the spread of a far-off anchor such as random."""
    ordered = ratings.sort_values("rating", ascending=False, kind="stable")
    heuristic = [b for b in ordered["bot"] if family(b) == "heuristic"]
    return heuristic[0] if heuristic else str(ordered["bot"].iloc[0])


class NothingFinished(GeolabError):
    """Ctrl-C before the first block finished: nothing to report (exit code 130, not 2)."""

    exit_code = 130


#: Deals per seeded block: the unit of reproducibility (changing it changes the deals).
BLOCK = 10_000


def run(runner: DuplicateRunner, bots: Sequence[str], deals: int, seed: int, block: int = BLOCK,
        progress: bool | None = None, length: str = "tricks", rotations_per_deal: int = 2) -> ArenaResult:
    """Play every pair of `bots` on `deals` duplicate deals; Ctrl-C keeps finished blocks.
    `rotations_per_deal` only sizes the progress bar."""
    if len(bots) < 2:
        raise GeolabError("the arena needs at least two bots")
    if len(set(bots)) != len(bots):
        raise GeolabError(f"--bots: a bot is named twice in {', '.join(bots)}")
    if deals < 1:
        raise GeolabError("--games must be at least 1")
    pairs = list(itertools.combinations(bots, 2))
    sizes = [min(block, deals - start) for start in range(0, deals, block)]
    seeds = np.random.SeedSequence(seed).spawn(len(sizes))
    parts: dict[tuple[str, str], list[Duplicate]] = {p: [] for p in pairs}
    result = ArenaResult(list(bots), length=length)
    start = time.perf_counter()
    with progress_bar.bar(deals * len(pairs) * rotations_per_deal, "games", enabled=progress) as bar:
        try:
            for size, block_seed in zip(sizes, seeds):
                done = []
                for pair in pairs:  # a block counts only when every pair has played it
                    done.append(runner(pair[0], pair[1], size, block_seed))
                    bar.update(done[-1].score.size)
                for pair, part in zip(pairs, done):
                    parts[pair].append(part)
        except KeyboardInterrupt:
            result.interrupted = True
    result.seconds = time.perf_counter() - start
    result.deals = {p: Duplicate.concat(v) for p, v in parts.items() if v}
    if not result.deals:
        raise NothingFinished("interrupted before the first block finished: nothing to report")
    return result
