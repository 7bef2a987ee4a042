"""Play the Ranks duplicate matches for the arena (reference engine, one-game seats)."""

from __future__ import annotations

import numpy as np

from geolab.bots.ranks_seats import make_seat
from geolab.games.ranks import Rules, deal_arrays, play
from geolab.lab.arena import Duplicate, DuplicateRunner


def runner(rules: Rules) -> DuplicateRunner:
    def duplicate(bot_a: str, bot_b: str, n: int, seed: np.random.SeedSequence) -> Duplicate:
        deal_seed, bot_seed = seed.spawn(2)
        hands, draw, power = deal_arrays(rules, n, np.random.default_rng(deal_seed))
        rng = np.random.default_rng(bot_seed)
        score = np.zeros((n, 2))
        lead_score = np.zeros((n, 2))
        tricks = np.zeros((n, 2), dtype=np.int8)
        for i in range(n):
            from geolab.cards import RANKS, STATEHOOD

            drawn = 0 if RANKS[draw[i, 0], STATEHOOD] < RANKS[draw[i, 1], STATEHOOD] else 1
            for side_of_a in (0, 1):
                seats = [make_seat(bot_a, rng), make_seat(bot_b, rng)]
                if side_of_a == 1:
                    seats.reverse()
                game = play(rules, hands[i].tolist(), seats, drawn if rules.first_lead == "given" else None,
                            None if power is None else power[i].tolist())
                w = game.winner
                score[i, side_of_a] = 0.5 if w is None else float(w == side_of_a)
                lead_score[i, side_of_a] = 0.5 if w is None else float(w == game.first_lead)
                tricks[i, side_of_a] = len(game.tricks)
        return Duplicate(score, lead_score, tricks)

    return duplicate
