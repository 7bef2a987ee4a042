"""Shared test helper: short games of a search seat against simple seats, in the reference engine."""

import numpy as np

from geolab.bots.ranks.seats import GreedySeat, RandomSeat
from geolab.games.ranks.reference import deal_one, play
from geolab.games.ranks.rules import Rules


def two_games(preset: str, make_seat, second_kw: dict):
    """Two deals of `preset`: the seat (first) against random, then greedy against the seat
    built with `second_kw`. The reference engine raises on any illegal move, so playing them
    through checks every discard, declaration, lead and answer."""
    rules = Rules.preset(preset)
    rng = np.random.default_rng(4)
    games = []
    for g in range(2):
        deal = deal_one(rules, rng)
        lead = deal.drawn_first_lead() if rules.first_lead == "given" else None
        seats = [make_seat(), RandomSeat(rng)] if g == 0 else [GreedySeat(), make_seat(**second_kw)]
        games.append((rules, play(rules, deal.hands, seats, lead, deal.power_bases)))
    return games
