"""Jumbled bots: every policy plays legally under varied rules; heuristics follow their
documented rules of thumb; the learned bot is reproducible; call policies answer as asked."""

import numpy as np
import pytest

from geolab.bots.jumbled import (
    HEURISTICS, FixedCall, Heuristic, Learned, MonteCarlo, RandomBot, RandomCall, make_bot, make_caller,
)
from geolab.cards import card
from geolab.errors import GeolabError
from geolab.games.jumbled import BatchRound, CallObservation, Rules, deal, observe, play_game_batch
from geolab.lab.jumbled import arena

RULES = [
    Rules(),
    Rules(players=2),
    Rules(players=8),
    Rules(players=4, teams=(0, 0, 1, 1)),
    Rules(players=3, geopower_deck=(1, 0, 1), set_tie="all-tied"),
    Rules(players=3, cards_dealt=8, cards_to_play=7, sets_per_round=4, max_cards_per_set=3,
          bonus=(0, 0, 5, 10, 20), geopower_deck=(2, 1, 1), used_to_bottom=False),
]


@pytest.fixture(scope="module")
def learned():
    return Learned(rounds=2000, max_iter=20, random_state=1).fit(Rules())


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.players}p-{r.sets_per_round}s-{r.teams}")
def test_every_bot_finishes_games_legally(rules):
    rules = rules.validate()
    bots = [RandomBot(), MonteCarlo(samples=4), *HEURISTICS.values()]
    seats = [bots[p % len(bots)] for p in range(rules.players)]
    callers = [RandomCall(), FixedCall("bottoms-up")] * rules.players
    batch = play_game_batch(rules, seats, callers[: rules.players], 6, np.random.default_rng(0),
                            np.random.default_rng(1))
    assert (batch.winner >= -1).all() and (batch.rounds >= 1).all()


def test_learned_bot_is_legal_and_reproducible(learned):
    rules = Rules().validate()
    again = Learned(rounds=2000, max_iter=20, random_state=1).fit(rules)
    hands, order = deal(rules, np.random.default_rng(2), 50)
    rnd = BatchRound(rules, hands, order, np.arange(50, dtype=np.int8) % 2)
    obs = observe(rnd, np.repeat(np.arange(50), 4), np.tile(np.arange(4), 50),
                  np.zeros((50, 4), np.int64), np.zeros(50, np.int64), 0)
    a, b = learned.act(obs, np.random.default_rng(0)), again.act(obs, np.random.default_rng(5))
    assert (a == b).all()
    assert obs.legal_mask()[np.arange(len(a)), a].all()
    with pytest.raises(GeolabError, match="must be fitted"):
        Learned().act(obs, np.random.default_rng(0))


def one_seat_obs(rules, hand, call, set_index=0, turned=()):
    """Seat A holding `hand` (postal codes) in a round whose earlier sets are given."""
    hands, order = deal(rules, np.random.default_rng(3), 1)
    others = [c for c in range(50) if c not in {card(p) for p in hand}]
    hands[0, 0] = [card(p) for p in hand]
    hands[0, 1:] = np.array(others[: (rules.players - 1) * rules.cards_dealt]).reshape(rules.players - 1, -1)
    order[0, : len(turned)] = turned
    return BatchRound(rules, hands, order, np.array([call], np.int8))


def act(bot, rnd, rules):
    obs = observe(rnd, np.array([0]), np.array([0]), np.zeros((1, rules.players), np.int64), np.zeros(1, np.int64), 0)
    return int(bot.act(obs, np.random.default_rng(0))[0])


def test_top_dog_small_set_gets_the_card_low_in_every_category_and_bottoms_up_mirrors():
    rules = Rules().validate()
    # mean ranks: CA 11.7 (lowest), DE 31.7, WY 34.3, SD 34.0, VT 35.3, HI 45.7 (highest)
    hand = ["CA", "DE", "WY", "SD", "VT", "HI"]
    first = Heuristic((0, 0), name="first")
    assert act(first, one_seat_obs(rules, hand, 0), rules) == 1 << 0  # Top Dog: CA alone
    assert act(first, one_seat_obs(rules, hand, 1), rules) == 1 << 5  # Bottoms Up: HI alone


def test_reserve_keeps_the_best_card_for_the_small_set():
    rules = Rules().validate()
    hand = ["CA", "TX", "NY", "DE", "WY", "HI"]
    last = Heuristic((2, 2), (True, True), name="last")
    loose = Heuristic((2, 2), (False, False), name="loose")
    # TX (2, 28, 2) has the lowest mean rank, and also the lowest worst rank (28)
    kept = act(last, one_seat_obs(rules, hand, 0), rules)
    assert kept == 0b101  # CA (worst 31) and NY (worst 30); TX (slot 1) is kept back
    assert act(loose, one_seat_obs(rules, hand, 0), rules) == 0b110  # without reserve: TX and NY


def test_call_policies_and_names():
    rules = Rules().validate()
    obs = CallObservation(rules, 0, np.arange(400), np.zeros(400, np.int64), np.zeros((400, 4), np.int64))
    calls = RandomCall().call(obs, np.random.default_rng(0))
    assert set(calls.tolist()) == {0, 1} and abs(calls.mean() - 0.5) < 0.1
    assert (make_caller("bottoms-up").call(obs, None) == 1).all()
    only = CallObservation(Rules(calls=("bottoms-up",)).validate(), 0, np.arange(9), np.zeros(9, np.int64),
                           np.zeros((9, 4), np.int64))
    assert (RandomCall().call(only, np.random.default_rng(0)) == 1).all()
    for bad in ("sideways",):
        with pytest.raises(GeolabError, match="unknown call policy"):
            make_caller(bad)
    assert make_bot("mc:8", rules).samples == 8
    for bad, words in (("mc:0", "positive integer"), ("mc:x", "positive integer"), ("zzz", "unknown bot")):
        with pytest.raises(GeolabError, match=words):
            make_bot(bad, rules)


def test_arena_rows_carry_sample_sizes_and_intervals():
    rows = arena(Rules().validate(), {"random": RandomBot(), "last": HEURISTICS["last"]}, HEURISTICS["heuristic"],
                 n_deals=12, seed=1, block=6)
    for row in rows:
        assert row["games"] == 48 and row["deals"] == 12
        assert row["ci_low"] <= row["win_rate"] <= row["ci_high"]
        assert row["fair_share"] == 0.25
