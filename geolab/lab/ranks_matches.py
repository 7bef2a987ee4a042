"""Play the Ranks matches for the lab, on the batch engine: games as a table, duplicate deals
for the arena."""

from __future__ import annotations

import numpy as np
import pandas as pd

from geolab.bots.ranks import make_policy
from geolab.games.ranks import SIDES, Rules
from geolab.games.ranks_batch import Played, run
from geolab.lab.arena import Duplicate, DuplicateRunner


def _int_seed(seed) -> int:
    """The batch engine takes an integer seed; a block's SeedSequence gives one."""
    if isinstance(seed, np.random.SeedSequence):
        return int(seed.generate_state(2, np.uint64)[0] >> np.uint64(1))
    return int(seed)


def play(rules: Rules, bot_a: str, bot_b: str, n: int, seed, swap: bool = False) -> Played:
    """n deals from `seed` with bot_a on side A (on side B with `swap`)."""
    policies = [make_policy(bot_a), make_policy(bot_b)]
    return Played.concatenate(list(run(rules, policies, n, _int_seed(seed), swap=swap)))


def _score(played: Played, side) -> np.ndarray:
    """The score (1 win, ½ tie, 0 loss) of `side` (a side, or one per game) in each game."""
    return np.where(played.winner < 0, 0.5, (played.winner == side).astype(float))


def play_games(rules: Rules, bot_a: str, bot_b: str, n: int, seed: int) -> pd.DataFrame:
    """n games, bot_a on side A: one row a game (winner, first lead, tricks, points)."""
    p = play(rules, bot_a, bot_b, n, seed)
    names = np.array(SIDES + (None,), dtype=object)  # index -1 (a tie) -> None
    return pd.DataFrame({
        "winner": names[p.winner], "first_lead": names[p.first_lead], "tricks_played": p.n_tricks,
        "tricks_A": p.tricks_won[:, 0], "points_A": p.points[:, 0], "points_B": p.points[:, 1],
    })


def runner(rules: Rules) -> DuplicateRunner:
    """Each deal twice, bot_a first on side A and then on side B, on the same cards."""

    def duplicate(bot_a: str, bot_b: str, n: int, seed: np.random.SeedSequence) -> Duplicate:
        games = [play(rules, bot_a, bot_b, n, seed, swap) for swap in (False, True)]
        score = np.stack([_score(games[0], 0), _score(games[1], 1)], axis=1)
        lead_score = np.stack([_score(g, g.first_lead) for g in games], axis=1)
        tricks = np.stack([g.n_tricks for g in games], axis=1)
        return Duplicate(score, lead_score, tricks)

    return duplicate


#: The default ladder: the heuristics, the learned bot, and a Monte Carlo bot with a small
#: fixed sample (6 layouts a decision, no time budget, so its choices never depend on the
#: machine's speed) so that the whole ladder runs in about a minute.
HEURISTICS = ("random", "greedy", "planner", "counter")
LEARNED = "learned"
SEARCH = "montecarlo:k=6,budget_ms=none"


def default_ladder(search: bool = True) -> list[str]:
    """The bots `geolab arena ranks` plays by default; `search=False` leaves out the slow one."""
    return [*HEURISTICS, LEARNED, *([SEARCH] if search else [])]
