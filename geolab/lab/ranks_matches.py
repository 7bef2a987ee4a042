"""Play the Ranks matches for the lab: plain games as a table, and duplicate deals for the arena."""

from __future__ import annotations

import numpy as np
import pandas as pd

from geolab.bots.ranks_seats import make_seat
from geolab.cards import RANKS, STATEHOOD
from geolab.games.ranks import SIDES, Rules, deal_arrays, play
from geolab.lab.arena import Duplicate, DuplicateRunner


def _games(rules: Rules, bot_a: str, bot_b: str, n: int, seed, swap: bool):
    """Yield (deal index, side of bot_a, Game) for n deals, each once or twice (seats swapped)."""
    deal_seed, bot_seed = np.random.SeedSequence(seed).spawn(2) if not isinstance(seed, np.random.SeedSequence) else seed.spawn(2)
    hands, draw, power = deal_arrays(rules, n, np.random.default_rng(deal_seed))
    rng = np.random.default_rng(bot_seed)
    for i in range(n):
        drawn = 0 if RANKS[draw[i, 0], STATEHOOD] < RANKS[draw[i, 1], STATEHOOD] else 1
        for side_of_a in (0, 1) if swap else (0,):
            seats = [make_seat(bot_a, rng), make_seat(bot_b, rng)]
            if side_of_a == 1:
                seats.reverse()
            game = play(rules, hands[i].tolist(), seats, drawn if rules.first_lead == "given" else None,
                        None if power is None else power[i].tolist())
            yield i, side_of_a, game


def play_games(rules: Rules, bot_a: str, bot_b: str, n: int, seed: int) -> pd.DataFrame:
    """n games, bot_a on side A: one row a game (winner, first lead, tricks, points)."""
    rows = []
    for _, _, game in _games(rules, bot_a, bot_b, n, seed, swap=False):
        w = game.winner
        rows.append({"winner": None if w is None else SIDES[w], "first_lead": SIDES[game.first_lead],
                     "tricks_played": len(game.tricks), "tricks_A": game.tricks_won[0],
                     "points_A": game.points[0], "points_B": game.points[1]})
    return pd.DataFrame(rows)


def runner(rules: Rules) -> DuplicateRunner:
    def duplicate(bot_a: str, bot_b: str, n: int, seed: np.random.SeedSequence) -> Duplicate:
        score = np.zeros((n, 2))
        lead_score = np.zeros((n, 2))
        tricks = np.zeros((n, 2), dtype=np.int8)
        for i, side_of_a, game in _games(rules, bot_a, bot_b, n, seed, swap=True):
            w = game.winner
            score[i, side_of_a] = 0.5 if w is None else float(w == side_of_a)
            lead_score[i, side_of_a] = 0.5 if w is None else float(w == game.first_lead)
            tricks[i, side_of_a] = len(game.tricks)
        return Duplicate(score, lead_score, tricks)

    return duplicate
