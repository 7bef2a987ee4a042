"""A seat of a batch played by different bots game by game (`geolab.lineup.Lineup`): each engine
that takes one plays every game as that game's own bot would, asking each bot for its own games
only, in the lineup's order from the seat's generator."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from geolab.bots.borderup.registry import BOTS as BORDER_UP_BOTS
from geolab.bots.dashing.registry import BOTS as DASHING_BOTS
from geolab.bots.ranks.registry import BOTS as RANKS_BOTS
from geolab.game import BatchBot
from geolab.games.borderup import batch as border_up
from geolab.games.borderup.rules import Rules as BorderUpRules
from geolab.games.dashing import batch as dashing
from geolab.games.dashing.rules import Rules as DashingRules
from geolab.games.ranks import batch as ranks
from geolab.games.ranks.rules import Rules as RanksRules
from geolab.games.stateiq import batch as state_iq
from geolab.games.stateiq import reference as state_iq_ref
from geolab.games.stateiq.rules import Rules as StateIQRules
from geolab.lineup import Lineup, each, members

M = 40


def _which(seed: int, k: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(k, size=M)


def test_bots_of_one_label_sit_as_one_in_the_order_of_their_labels():
    a, b, c = BatchBot(), BatchBot(), BatchBot()
    lineup = Lineup.of([a, b, c, b], ["y", "x", "y", "x"])
    assert lineup.bots == (b, a) and lineup.which.tolist() == [1, 0, 1, 0]
    got = [(bot, pos.tolist()) for bot, pos in members(lineup, np.array([3, 2, 0]))]
    assert got == [(b, [0]), (a, [1, 2])]
    assert [(bot, pos.tolist()) for bot, pos in members(a, np.array([5, 7]))] == [(a, [0, 1])]
    assert each(lineup) == (b, a) and each(a) == (a,)


@pytest.mark.parametrize("walked", [False, True])
def test_play_the_ranks_plays_each_game_as_its_own_pair_would(walked):
    rules = RanksRules.preset("combo1")
    names = ["greedy", "counter", "planner", "random"]
    pool = [RANKS_BOTS.make(n, rules) for n in names]
    if walked:  # a bot behind a plain act: the engine asks decision by decision
        pool = [type("Walked", (BatchBot,), {"name": p.name, "act": (lambda self, obs, rng, p=p: p.act(obs, rng))})()
                for p in pool]
    wa, wb = _which(1, 4), _which(2, 4)
    seats = (Lineup(tuple(pool), wa), Lineup(tuple(pool), wb))
    deals = ranks.dealt(rules, np.random.default_rng(3), M)
    first = np.random.default_rng(4).integers(2, size=M)
    together = ranks.play_given(rules, seats, deals, first, np.random.default_rng(5))
    for i in range(M):
        one = ranks.Deals(*(None if a is None else a[i:i + 1] for a in
                            (deals.hands, deals.masks, deals.draw, deals.power, deals.keys)))
        alone = ranks.play_given(rules, (pool[wa[i]], pool[wb[i]]), one, first[i:i + 1], np.random.default_rng(5))
        assert together.winner[i] == alone.winner[0] and (together.history["follow"][i] ==
                                                           alone.history["follow"][0]).all(), i


class _Lowest(BatchBot):
    """Guesses (or names) the lowest legal card: no randomness, so alone and together agree."""

    name = "lowest"

    def __init__(self, high: bool = False):
        self.high, self.seen = high, []

    def act(self, asked, rng):
        self.seen.append(len(asked))
        bits = (asked.legal[:, None] >> np.arange(64)) & 1
        return (63 - np.argmax(bits[:, ::-1], axis=1) if self.high else np.argmax(bits, axis=1)).astype(np.int64)


def test_state_iq_plays_each_game_as_its_own_pair_would_asking_each_bot_for_its_own():
    rules = StateIQRules()
    low, high = _Lowest(), _Lowest(high=True)
    wa, wb = _which(6, 2), _which(7, 2)
    cards, power, _ = state_iq_ref.deal_arrays(M, np.random.default_rng(8))
    first = np.random.default_rng(9).integers(2, size=M)
    rngs = [np.random.default_rng(10), np.random.default_rng(11)]
    together = state_iq.play_given(rules, (Lineup((low, high), wa), Lineup((low, high), wb)), cards, power, first,
                                   rngs)
    asked = sum(low.seen) + sum(high.seen)
    assert asked == int((together.guesses >= 0).sum()) + int(((together.clues >= 0) & (together.clues < 50)).sum())
    for i in range(M):
        pair = ((low, high)[wa[i]], (low, high)[wb[i]])
        alone = state_iq.play_given(rules, pair, cards[i:i + 1], power[i:i + 1], first[i:i + 1], rngs)
        assert (together.guesses[i] == alone.guesses[0]).all() and (together.clues[i] == alone.clues[0]).all(), i


def test_border_up_races_each_game_as_its_own_pair_would():
    rules = BorderUpRules()
    pool = [BORDER_UP_BOTS.make(f"racer:speed={s},race=perfect", rules) for s in (0.5, 1.0, 2.0)]
    wa, wb = _which(12, 3), _which(13, 3)
    keys = np.random.default_rng(14).integers(0, 2**64, size=(rules.redeals + 1, M), dtype=np.uint64)
    streams = [np.random.default_rng(15), np.random.default_rng(16)]
    together = border_up.race_block(rules, (Lineup(tuple(pool), wa), Lineup(tuple(pool), wb)), lambda a: keys[a],
                                    streams, M)
    for i in range(M):
        alone = border_up.race_block(rules, (pool[wa[i]], pool[wb[i]]), lambda a, i=i: keys[a][i:i + 1], streams, 1)
        assert together.winner[i] == alone.winner[0] and (together.seconds[i] == alone.seconds[0]).all(), i


def test_dashing_states_asks_each_bot_for_its_own_hands_in_the_lineups_order():
    rules = DashingRules()
    pool = [DASHING_BOTS.make(f"team:speed={s}", rules) for s in (0.7, 1.0, 1.5)]
    wa, wb = _which(17, 3), _which(18, 3)
    hands = dashing.deal_block(rules, np.random.default_rng(19), M)
    streams = [np.random.default_rng(20), np.random.default_rng(21)]
    copies = copy.deepcopy(streams)
    together = dashing.race_hands(rules, (Lineup(tuple(pool), wa), Lineup(tuple(pool), wb)), hands, streams)
    for s, which in enumerate((wa, wb)):
        for k, bot in enumerate(pool):
            at = np.flatnonzero(which == k)
            alone = bot.act(dashing.Hands(hands[at, s]), copies[s])
            assert np.array_equal(together.claims[s].seconds[at], alone.seconds), (s, k)
            assert np.array_equal(together.claims[s].order[at], alone.order), (s, k)
