"""The batch engine, the fused loop and the reference engine agree exactly; observations hide
what they must; results do not depend on how the work is split."""

from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from geolab.bots.jumbled.callers import RandomCall
from geolab.bots.jumbled.heuristics import HEURISTICS, Heuristic, RandomBot, heuristic_block, heuristic_rounds
from geolab.bots.jumbled.montecarlo import MonteCarlo
from geolab.bots.jumbled.registry import BOTS
from geolab.cards import N_CARDS
from geolab.errors import IllegalActionError
from geolab.game import BatchBot
from geolab.games.jumbled.batch import (
    BatchRound,
    deal,
    deal_block,
    dealer_calls,
    play_game_batch,
    play_round_batch,
    turned_categories,
)
from geolab.games.jumbled.game import GAME
from geolab.games.jumbled.observations import observe
from geolab.games.jumbled.offers.study import simulate_rounds
from geolab.games.jumbled.records import batch_to_records, replay_record
from geolab.games.jumbled.reference import Game, category_probs
from geolab.games.jumbled.rules import Rules

VARIANTS = [
    Rules(),
    Rules(players=2),
    Rules(players=8),
    Rules(players=4, teams=(0, 1, 0, 1)),
    Rules(players=3, teams=(0, 0, 1)),
    Rules(players=5, set_tie="all-tied", geopower_deck=(1, 1, 0)),
    Rules(players=3, cards_dealt=8, cards_to_play=7, sets_per_round=4, max_cards_per_set=3,
          bonus=(0, 0, 5, 10, 20), geopower_deck=(2, 1, 1), used_to_bottom=False),
]


def mask_cards(hand, mask):
    return tuple(int(hand[i]) for i in range(len(hand)) if mask >> i & 1)


def reference_round(rules, rnd, g):
    """Replay game g of a finished BatchRound through the reference engine."""
    hands = [list(map(int, h)) for h in rnd.hands[g]]
    ref = Game(rules).start_round(int(rnd.calls[g]), hands, [int(c) for c in rnd_order(rules, rnd, g)])
    for s in range(rules.sets_per_round):
        ref.play_set([mask_cards(rnd.hands[g, p], int(rnd.actions[g, s, p])) for p in range(rules.players)])
    return ref


def rnd_order(rules, rnd, g):
    """A deck order that turns the cards the batch round turned."""
    turned = [int(c) for c in rnd.turned[g, : min(rules.sets_per_round, rules.deck_size)]]
    left = list(rules.geopower_deck)
    for c in turned:
        left[c] -= 1
    return turned + [c for c in range(3) for _ in range(left[c])]


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: f"{r.players}p-{r.sets_per_round}s")
def test_deals_are_valid(rules):
    hands, order = deal(rules.validate(), np.random.default_rng(1), 300)
    flat = hands.reshape(300, -1)
    assert flat.min() >= 0 and flat.max() < N_CARDS
    assert all(len(set(row)) == len(row) for row in flat.tolist())
    assert (np.sort(order, axis=1) == np.sort(order[:1], axis=1)).all()
    assert np.bincount(order[0], minlength=3).tolist() == list(rules.geopower_deck)


def test_deals_are_uniform_enough():
    hands, order = deal(Rules(), np.random.default_rng(2), 20000)
    counts = np.bincount(hands.ravel(), minlength=N_CARDS)
    expected = 20000 * 24 / N_CARDS
    assert np.abs(counts - expected).max() < 5 * np.sqrt(expected)
    first = np.bincount(order[:, 0], minlength=3) / 20000
    assert np.abs(first - 1 / 3).max() < 0.02


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: f"{r.players}p-{r.sets_per_round}s")
def test_batch_and_reference_agree_set_by_set(rules):
    rules = rules.validate()
    rng = np.random.default_rng(3)
    hands, order = deal(rules, rng, 150)
    bots = [RandomBot(), HEURISTICS["heuristic"], HEURISTICS["reserve"]]
    seats = [bots[p % 3] for p in range(rules.players)]
    rnd = play_round_batch(rules, seats, [RandomCall()] * rules.players, hands, order,
                           np.zeros((150, rules.players), np.int64), np.zeros(150, np.int64), 0, rng)
    points = rnd.points()
    for g in range(150):
        ref = reference_round(rules, rnd, g)
        for s, result in enumerate(ref.sets):
            assert result.category == rnd.turned[g, s]
            assert result.totals == rnd.totals[g, s].tolist()
            assert result.winners == np.flatnonzero(rnd.won[g, s]).tolist()
        assert ref.points() == points[g].tolist()


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 8))
def test_random_play_agrees_with_the_reference_for_any_seed(seed, players):
    rules = Rules(players=players).validate()
    rng = np.random.default_rng(seed)
    hands, order = deal(rules, rng, 8)
    rnd = play_round_batch(rules, [RandomBot()] * players, [RandomCall()] * players, hands, order,
                           np.zeros((8, players), np.int64), np.zeros(8, np.int64), 0, rng)
    for g in range(8):
        assert reference_round(rules, rnd, g).points() == rnd.points()[g].tolist()


@pytest.mark.parametrize("rules", [Rules(), Rules(players=3, teams=(0, 1, 1)), Rules(players=2, target=30)],
                         ids=["4p", "teams", "2p"])
def test_whole_games_written_as_records_replay_to_the_same_result(rules):
    rules = rules.validate()
    bots = [RandomBot(), HEURISTICS["heuristic"], HEURISTICS["first"]]
    seats = [bots[p % 3] for p in range(rules.players)]
    batch = play_game_batch(rules, seats, [RandomCall()] * rules.players, 40,
                            np.random.default_rng(4), np.random.default_rng(5), trace=True)
    for record, g in zip(batch_to_records(rules, batch, list(range(40))), range(40)):
        report = replay_record(record)
        assert report["finished"]
        assert report["rounds_played"] == batch.rounds[g]
        assert report["scores"] == record["result"]["scores"]
        assert report["winner"] == record["result"]["winner"]


def test_fused_loop_equals_the_step_by_step_engine():
    for rules in (Rules(), Rules(players=8), Rules(players=5, geopower_deck=(1, 1, 1))):
        rules = rules.validate()
        for bot in (HEURISTICS["heuristic"], HEURISTICS["last"]):
            P = rules.players
            hands, order = deal(rules, np.random.default_rng(6), 500)
            rng_a, rng_b = np.random.default_rng(7), np.random.default_rng(7)
            zeros, dealer = np.zeros((500, P), np.int64), np.arange(500) % P
            step = play_round_batch(rules, [bot] * P, [RandomCall()] * P, hands, order, zeros, dealer, 0, rng_a)
            calls = dealer_calls(rules, [RandomCall()] * P, dealer, zeros, 0, rng_b)
            actions, points = heuristic_rounds(rules, bot, hands, order, calls, rng_b)
            assert (actions == step.actions).all() and (points == step.points()).all()


@pytest.mark.parametrize("rules", [
    Rules(players=2), Rules(players=3, geopower_deck=(1, 1, 0)), Rules(players=4, geopower_deck=(2, 0, 1)),
    Rules(players=6, geopower_deck=(0, 4, 0)), Rules(players=4, bonus=(0, 0, 5, 10), set_tie="all-tied"),
    Rules(players=3, cards_dealt=9, cards_to_play=8, sets_per_round=5, bonus=(0, 1, 2, 3, 4, 5),
          geopower_deck=(2, 1, 1)),
    Rules(players=4, cards_dealt=7, cards_to_play=6, sets_per_round=2, min_cards_per_set=1,
          max_cards_per_set=3, bonus=(0, 0, 5)),
], ids=["2p", "reused-2-card-deck", "2-0-1", "one-category", "all-tied", "5-sets", "3-card-sets"])
def test_fused_tables_make_every_heuristic_choice_the_decision_path_makes(rules):
    """The fused loop looks card keys up in per-batch tables; every named heuristic, under
    odd decks (reused, one-category), more sets and wider sets, must choose exactly as the
    per-decision kernel does through observations."""
    rules = rules.validate()
    P = rules.players
    hands, order = deal(rules, np.random.default_rng(16), 400)
    zeros, dealer = np.zeros((400, P), np.int64), np.arange(400) % P
    for bot in HEURISTICS.values():
        rng_a, rng_b = np.random.default_rng(17), np.random.default_rng(17)
        step = play_round_batch(rules, [bot] * P, [RandomCall()] * P, hands, order, zeros, dealer, 0, rng_a)
        calls = dealer_calls(rules, [RandomCall()] * P, dealer, zeros, 0, rng_b)
        actions, points = heuristic_rounds(rules, bot, hands, order, calls, rng_b)
        assert (actions == step.actions).all() and (points == step.points()).all()


def test_results_do_not_depend_on_the_number_of_workers():
    rules = Rules().validate()
    names = ["heuristic", "random", "first", "heuristic"]
    bots = [BOTS.make(n, rules) for n in names]
    one = GAME.batch(rules, bots, 3000, 9, threads=1)
    two = GAME.batch(rules, bots, 3000, 9, chunk=64, threads=2)
    assert (one.scores == two.scores).all() and (one.length == two.length).all()
    assert all((one.columns[k] == two.columns[k]).all() for k in one.columns)
    a = simulate_rounds(rules, [bots[0]] * 4, n_rounds=3000, seed=1, block=512, workers=1)
    b = simulate_rounds(rules, [bots[0]] * 4, n_rounds=3000, seed=1, block=512, workers=2)
    assert (a == b).all()


def test_an_observation_shows_only_own_hand_and_public_facts():
    rules = Rules().validate()
    rng = np.random.default_rng(10)
    hands, order = deal(rules, rng, 1)
    rnd = BatchRound(rules, hands, order, np.array([0], np.int8))
    rnd.step(np.array([[0b11, 0b1, 0b11, 0b10]]))
    obs = observe(rnd, np.array([0]), np.array([2]), np.zeros((1, 4), np.int64), np.zeros(1, np.int64), 0)
    played = {int(c) for c in rnd.cards[0, 0].ravel() if c >= 0}
    visible = {int(c) for c in obs.hand.ravel()} | {int(c) for c in obs.cards.ravel() if c >= 0}
    assert visible == set(map(int, hands[0, 2])) | played
    assert obs.turned[0].tolist() == [int(order[0, 0]), -1, -1]  # the next card stays hidden
    assert not obs.cards.flags.writeable and not obs.scores.flags.writeable
    hidden_fields = {"hands", "_turns", "order"}
    assert not hidden_fields & set(vars(obs))


def test_reference_legal_choices_match_the_batch_legal_mask():
    rules = Rules(players=3).validate()
    rng = np.random.default_rng(14)
    hands, order = deal(rules, rng, 30)
    rnd = BatchRound(rules, hands, order, np.zeros(30, np.int8))
    refs = [Game(rules).start_round(0, [list(map(int, h)) for h in hands[g]], [int(c) for c in order[g]])
            for g in range(30)]
    for _ in range(rules.sets_per_round):
        obs = observe(rnd, np.arange(30), np.zeros(30, np.int64), np.zeros((30, 3), np.int64),
                      np.zeros(30, np.int64), 0)
        mask = obs.legal_mask()
        for g in range(30):
            legal = {sum(1 << list(hands[g, 0]).index(c) for c in choice) for choice in refs[g].legal(0)}
            assert legal == set(np.flatnonzero(mask[g]).tolist())
        actions = np.stack([RandomBot().act(observe(rnd, np.arange(30), np.full(30, p), np.zeros((30, 3), np.int64),
                                                    np.zeros(30, np.int64), 0), rng) for p in range(3)], axis=1)
        rnd.step(actions)
        for g in range(30):
            refs[g].play_set([mask_cards(hands[g, p], int(actions[g, p])) for p in range(3)])


def test_category_chances_follow_the_public_deck():
    rules = Rules(geopower_deck=(2, 1, 1)).validate()
    turned = np.array([[0, 0, -1], [2, 1, -1]])
    assert np.allclose(category_probs(rules, turned, 0), 0.25 * np.array([2, 1, 1]))
    assert np.allclose(category_probs(rules, turned, 2), [[0, 0.5, 0.5], [1, 0, 0]])
    reuse = Rules(geopower_deck=(1, 1, 0)).validate()  # third set turns the first card again
    assert np.allclose(category_probs(reuse, np.array([[1, 0, -1]]), 2), [[0, 1, 0]])
    assert turned_categories(reuse, np.array([[1, 0]])).tolist() == [[1, 0, 1]]


def test_monte_carlo_decisions_do_not_use_hidden_cards():
    """Swap the other seats' unplayed cards: MC's choice with the same rng cannot change."""
    rules = Rules().validate()
    hands, order = deal(rules, np.random.default_rng(11), 20)
    other = hands.copy()
    other[:, 1:] = hands[::-1, 1:]  # other games' hands for seats B-D
    clash = [g for g in range(20) if set(other[g, 1:].ravel()) & set(hands[g, 0])]
    other[clash] = hands[clash]
    order2 = order[::-1].copy()  # the unturned GeoPower cards differ too
    bot = MonteCarlo(samples=16)
    acts = []
    for h, o in ((hands, order), (other, order2)):
        rnd = BatchRound(rules, h, o, np.zeros(20, np.int8))
        obs = observe(rnd, np.arange(20), np.zeros(20, np.int64), np.zeros((20, 4), np.int64),
                      np.zeros(20, np.int64), 0)
        acts.append(bot.act(obs, np.random.default_rng(12)))
    assert (acts[0] == acts[1]).all()


class Cheater(BatchBot):
    name = "cheater"

    def act(self, obs, rng):
        return np.full(len(obs), 0b111)  # three cards: never legal with 1-2 per set


def test_an_illegal_policy_choice_raises_naming_the_policy_and_the_decision():
    rules = Rules().validate()
    hands, order = deal(rules, np.random.default_rng(13), 5)
    with pytest.raises(IllegalActionError, match=r"cheater: set 1 of round 1, game 0, seat B: .* 3 cards; 1-2"):
        play_round_batch(rules, [Heuristic(), Cheater(), Heuristic(), Heuristic()], [RandomCall()] * 4,
                         hands, order, np.zeros((5, 4), np.int64), np.zeros(5, np.int64), 0,
                         np.random.default_rng(0))


class BadCaller(BatchBot):
    name = "bad-caller"

    def call(self, obs, rng):
        return np.full(len(obs), 7)


def test_an_illegal_call_raises_naming_the_policy():
    rules = Rules().validate()
    hands, order = deal(rules, np.random.default_rng(13), 5)
    with pytest.raises(IllegalActionError, match="bad-caller: round 1, dealer call of game 0: 7"):
        play_round_batch(rules, [Heuristic()] * 4, [BadCaller()] * 4, hands, order,
                         np.zeros((5, 4), np.int64), np.zeros(5, np.int64), 0, np.random.default_rng(0))


def test_dealing_in_slices_draws_the_same_deals_as_one_draw(monkeypatch):
    import geolab.games.jumbled.batch as jumbled_batch

    rules = Rules(players=8).validate()
    one = jumbled_batch.deal(rules, np.random.default_rng(21), 2500)
    monkeypatch.setattr(jumbled_batch, "_DEAL_SLICE", 7)
    sliced = jumbled_batch.deal(rules, np.random.default_rng(21), 2500)
    monkeypatch.setattr(jumbled_batch, "_DEAL_SLICE", 1 << 20)
    whole = jumbled_batch.deal(rules, np.random.default_rng(21), 2500)
    for a, b, c in zip(one, sliced, whole):
        assert (a == b).all() and (a == c).all()


def test_points_alone_equal_the_points_with_actions():
    rules = Rules().validate()
    hands, order = deal(rules, np.random.default_rng(22), 700)
    calls = np.random.default_rng(23).integers(0, 2, 700).astype(np.int8)
    acts, full = heuristic_rounds(rules, HEURISTICS["heuristic"], hands, order, calls, np.random.default_rng(24))
    none, alone = heuristic_rounds(rules, HEURISTICS["heuristic"], hands, order, calls, np.random.default_rng(24),
                                   keep_actions=False)
    assert none is None and acts.shape == (700, 3, 4) and (full == alone).all()


# Counter-based dealing and the fused block loop ----------------------------------------------


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: f"{r.players}p-{r.sets_per_round}s")
def test_block_deals_are_valid_and_each_depends_only_on_its_index(rules):
    rules = rules.validate()
    hands, order = deal_block(rules, 99, 300)
    flat = hands.reshape(300, -1)
    assert flat.min() >= 0 and flat.max() < N_CARDS
    assert all(len(set(row)) == len(row) for row in flat.tolist())
    assert all(np.bincount(row, minlength=3).tolist() == list(rules.geopower_deck) for row in order)
    part_h, part_o = deal_block(rules, 99, 40, first=123)
    assert (part_h == hands[123:163]).all() and (part_o == order[123:163]).all()
    other, _ = deal_block(rules, 100, 300)
    assert (other != hands).any()


def test_block_deals_are_uniform_enough():
    hands, order = deal_block(Rules(), 5, 20000)
    counts = np.bincount(hands.ravel(), minlength=N_CARDS)
    expected = 20000 * 24 / N_CARDS
    assert np.abs(counts - expected).max() < 5 * np.sqrt(expected)
    seat_a = np.bincount(hands[:, 0].ravel(), minlength=N_CARDS)
    assert np.abs(seat_a - 20000 * 6 / N_CARDS).max() < 5 * np.sqrt(20000 * 6 / N_CARDS)
    for t in range(3):  # every GeoPower card turned is a third of each category
        share = np.bincount(order[:, t], minlength=3) / 20000
        assert np.abs(share - 1 / 3).max() < 0.02


class ReplayRng:
    """Hands `Heuristic.act` the uniforms a fused block drew, set by set."""

    def __init__(self, uniforms):
        self.sets = iter(uniforms)

    def random(self, n):
        u = next(self.sets).ravel()
        assert len(u) == n
        return u


class GivenCalls(BatchBot):
    name = "given-calls"

    def __init__(self, calls):
        self.calls = calls

    def call(self, obs, rng):
        return self.calls[obs.game]


@pytest.mark.parametrize("rules", [
    Rules(), Rules(players=8), Rules(players=2), Rules(players=5, geopower_deck=(1, 1, 1)),
    Rules(players=3, geopower_deck=(1, 1, 0), set_tie="all-tied"),
    Rules(players=3, cards_dealt=8, cards_to_play=7, sets_per_round=4, max_cards_per_set=3,
          bonus=(0, 0, 5, 10, 20), geopower_deck=(2, 1, 1), used_to_bottom=False),
], ids=["4p", "8p", "2p", "reused-3-card-deck", "reused-2-card-deck", "4-sets"])
def test_fused_block_equals_the_step_engine_and_the_reference_on_its_deals(rules):
    """The block loop deals and draws for itself; its trace (deals, calls, uniforms) replayed
    through the step-by-step engine with the per-decision heuristic gives every action and
    point again, and the reference engine scores every round the same."""
    rules = rules.validate()
    P, n = rules.players, 300
    for bot in HEURISTICS.values():
        got = heuristic_block(rules, bot, n, 31, 32, first=7, trace=True)
        hands, order = deal_block(rules, 31, n, first=7)
        assert (got.hands == hands).all() and (got.order == order).all()
        rnd = play_round_batch(rules, [bot] * P, [GivenCalls(got.calls)] * P, hands, order,
                               np.zeros((n, P), np.int64), np.arange(n) % P, 0, ReplayRng(got.uniforms))
        assert (rnd.actions == got.actions).all() and (rnd.points() == got.points).all()
        for g in range(0, n, 10):
            assert reference_round(rules, rnd, g).points() == got.points[g].tolist()
        assert (heuristic_block(rules, bot, n, 31, 32, first=7).points == got.points).all()


def test_fused_block_results_do_not_depend_on_how_the_block_is_cut():
    rules = Rules().validate()
    bot = HEURISTICS["heuristic"]
    whole = heuristic_block(rules, bot, 1000, 3, 4, trace=True)
    parts = [heuristic_block(rules, bot, 250, 3, 4, first=f, trace=True) for f in (0, 250, 500, 750)]
    for field in ("points", "hands", "order", "calls", "actions"):
        assert (np.concatenate([getattr(p, field) for p in parts]) == getattr(whole, field)).all()
    assert (np.concatenate([p.uniforms for p in parts], axis=1) == whole.uniforms).all()


def test_fused_block_calls_are_random_among_the_allowed_calls_or_given():
    rules = Rules().validate()
    bot = HEURISTICS["heuristic"]
    calls = heuristic_block(rules, bot, 20000, 1, 2, trace=True).calls
    assert set(calls.tolist()) == {0, 1} and abs(calls.mean() - 0.5) < 0.02
    only = Rules(calls=("bottoms-up",)).validate()
    assert (heuristic_block(only, bot, 500, 1, 2, trace=True).calls == 1).all()
    given = np.arange(500, dtype=np.int8) % 2
    assert (heuristic_block(rules, bot, 500, 1, 2, calls=given, trace=True).calls == given).all()


def test_simulate_rounds_fused_and_stepwise_agree_on_average_and_blocks_fix_the_result():
    rules = Rules().validate()
    bot = BOTS.make("heuristic", rules)
    fused = simulate_rounds(rules, [bot] * 4, n_rounds=6000, seed=3, block=1000)
    step = simulate_rounds(rules, [bot] * 4, n_rounds=6000, seed=3, block=1000, fused=False)
    assert fused.shape == step.shape == (6000, 4)
    assert abs(fused.mean() - step.mean()) < 0.3  # the same game; only the bots' coin flips differ
    cut = simulate_rounds(rules, [bot] * 4, n_rounds=2500, seed=3, block=1000, workers=2)
    assert (cut == fused[:2500]).all()


# The game interface (geolab.games.jumbled.game) ---------------------------------------------


def round_deals(records):
    return [[rd["deal"] for rd in record["rounds"]] for record in records]


def test_every_seating_plays_the_same_deals_round_by_round():
    rules = Rules().validate()
    one = GAME.batch_records(rules, [BOTS.make(n, rules) for n in ("heuristic", "random", "first", "last")], 30, 5)
    other = GAME.batch_records(rules, [BOTS.make(n, rules) for n in ("random", "last", "heuristic", "heuristic")],
                               30, 5)
    compared = 0
    for a, b in zip(round_deals(one), round_deals(other)):
        for x, y in zip(a, b):
            assert x == y
            compared += 1
    assert compared > 60
    assert round_deals(GAME.batch_records(rules, [BOTS.make("heuristic", rules)] * 4, 30, 6)) != round_deals(one)


def test_a_team_win_is_shared_by_its_members_and_rows_sum_to_one():
    rules = Rules.preset("teams")
    b = GAME.batch(rules, [BOTS.make("heuristic", rules)] * 4, 400, 2)
    assert np.allclose(b.scores.sum(axis=1), 1) and (b.first == 0).all() and (b.length >= 1).all()
    ac = b.scores[:, 0] > 0
    assert np.array_equal(b.scores[ac][:, [0, 2]], np.full((ac.sum(), 2), 0.5))
    assert (b.scores[ac][:, [1, 3]] == 0).all() and (b.scores[~ac][:, [1, 3]] == 0.5).all()
    points = np.stack([b.columns[f"points_{s}"] for s in "ABCD"], axis=1)
    ac_points, bd_points = points[:, [0, 2]].sum(axis=1), points[:, [1, 3]].sum(axis=1)
    assert (ac == (ac_points > bd_points)).all() and (np.maximum(ac_points, bd_points) >= 50).all()


class Scripted:
    """A reference-engine seat: the first legal action, every decision logged."""

    def __init__(self, log, illegal_at=None):
        self.log, self.illegal_at = log, illegal_at

    def act(self, decision):
        self.log.append(decision)
        if self.illegal_at == (decision.kind, len(self.log)):
            return decision.legal[0][:1] + decision.legal[0][:1]  # the same card twice
        return decision.legal[0]


def test_reference_decisions_are_the_dealers_call_then_every_seats_set_choice():
    rules = Rules(players=3).validate()
    deal = GAME.deal(rules, np.random.default_rng(1))
    log = []
    played = GAME.play(rules, deal, [Scripted(log)] * 3)
    first = deal.round(rules, 0)
    assert [(d.kind, d.seat) for d in log[:4]] == [("call", 0), ("choose", 0), ("choose", 1), ("choose", 2)]
    assert log[0].legal == rules.calls and log[0].observation.hand == () and log[0].observation.call is None
    assert log[2].observation.hand == first.hands[1] and log[2].observation.call == "top-dog"
    assert log[2].legal == tuple(c for k in (1, 2) for c in combinations(first.hands[1], k))  # 6 + 15
    assert log[4].observation.sets[0].category == played.rounds[0].sets[0].category  # set 2 sees set 1
    assert log[4].observation.sets[0].plays == tuple(played.rounds[0].sets[0].plays)
    assert played.over and len(played.rounds) == len([d for d in log if d.kind == "call"])
    assert [d.seat for d in log if d.kind == "call"][:4] == [0, 1, 2, 0]  # the deal passes left
    with pytest.raises(IllegalActionError, match="set 1 of round 1: B's choose"):
        GAME.play(rules, deal, [Scripted([]), Scripted([], ("choose", 1)), Scripted([])])


def test_redealing_the_hidden_cards_keeps_the_seats_own_hand_only():
    rules = Rules().validate()
    rng = np.random.default_rng(3)
    deal = GAME.deal(rules, rng)
    first = deal.round(rules, 0)
    for seat in (1, 2, 3):
        called = [("ask", {0: rules.calls[0]})]  # the first dealer's call: then set 1, every seat holding its hand
        other = GAME.resample(rules, deal, called, seat, rng).round(rules, 0)
        assert other.hands[seat] == first.hands[seat]
        assert all(other.hands[p] != first.hands[p] for p in range(4) if p != seat)
        assert len({c for h in other.hands for c in h}) == 24
        assert sorted(other.geopower) == sorted(first.geopower)
    assert GAME.resample(rules, deal, [], 0, rng).round(rules, 0) != first  # the first dealer has seen nothing
    assert deal.round(rules, 5) == deal.round(rules, 5) != deal.round(rules, 6)


def test_a_team_win_is_split_among_its_members_but_is_not_a_shared_win():
    from geolab import registry
    from geolab.lab.tables import Totals

    entry = registry.get("jumbled")
    rules = entry.game.Rules.preset("teams")
    bots = [entry.bots.make("heuristic", rules)] * 4
    batch = entry.game.batch(rules, bots, 64, 3)
    assert np.allclose(batch.scores[~batch.columns["draw"]].max(axis=1), 0.5)  # two members share a team's win
    totals = Totals(["heuristic"] * 4, 4)
    totals.add([("heuristic",) * 4], [batch])
    assert totals.shared == int(batch.columns["draw"].sum()) < 64
