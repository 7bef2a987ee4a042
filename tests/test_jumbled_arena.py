"""The Jumbled arena: every pair of bots shares P-player tables on duplicate deals through the
generic lab (`geolab.lab.arena.pair_runner` over the registry's Jumbled game, every rotation
of the a-b seating on the same deals), what the dealer's call is worth, and the race caller."""

import numpy as np
import pytest

from geolab import registry
from geolab.bots.jumbled.callers import FixedCall, RaceCall, call_policy
from geolab.bots.jumbled.registry import BOTS
from geolab.errors import GeolabError
from geolab.games.jumbled.game import GAME
from geolab.games.jumbled.observations import CallObservation
from geolab.games.jumbled.offers.study import call_value
from geolab.games.jumbled.rules import Rules
from geolab.lab import arena
from geolab.lab.tables import lineup, rotations

ENTRY = registry.get("jumbled")


def runner(rules, bots: dict, threads=None):
    """The generic pair runner on Jumbled, ``bots`` mapping each name to a registry spec."""
    return arena.pair_runner(ENTRY, rules, {n: BOTS.make(spec, rules) for n, spec in bots.items()}, threads=threads)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 8])
def test_rotations_give_each_bot_every_seat_and_the_first_deal(players):
    """What the removed pair_sides promised, now the generic seating's: over a deal's
    rotations each of a and b holds every seat (so every seat's cards) and deals first."""
    turns = rotations(lineup(["a", "b"], players))
    assert ENTRY.game.seats(Rules(players=players)) == players
    for s in range(players):
        assert {t[s] for t in turns} == {"a", "b"}
    assert {t[0] for t in turns} == {"a", "b"}  # seat A is the first dealer


def test_ratings_recover_the_order_and_identical_bots_split_evenly():
    bots = {"heuristic": "heuristic", "twin": "heuristic", "random": "random"}
    result = arena.run(runner(Rules(), bots), list(bots), deals=300, seed=4, block=150, progress=False,
                       length="rounds")
    pairs = result.pairs_table().set_index(["a", "b"])
    assert (pairs["games"] == 600).all() and "avg_rounds" in pairs.columns
    strong = pairs.loc[("heuristic", "random")]
    assert strong.ci_low > 0.5 and strong.win_rate_a > 0.6
    same = pairs.loc[("heuristic", "twin")]
    assert same.ci_low < 0.5 < same.ci_high
    ratings = result.ratings_table().set_index("bot")
    assert ratings.loc["random", "anchor"] and ratings.loc["random", "rating"] == 0
    assert ratings.loc["heuristic", "ci_low"] > 0 and ratings.loc["twin", "ci_low"] > 0
    first = result.first_lead()
    assert first["games"] == 1800 and first["ci_low"] < first["win_rate"] < first["ci_high"]


def test_identical_bots_score_their_seat_share_on_every_deal_with_odd_tables():
    """With the same bot on both sides and no randomness in it (a fixed call, a heuristic with
    a fixed small set), a deal's rotations are the same game with the labels turned, so a's
    seats win exactly their share of it: at 3 players a holds two seats in every rotation
    and each seat in two of the three, so a's scores over the rotations sum to 2."""
    bots = {"x": "first:call=top-dog", "y": "first:call=top-dog"}
    d = runner(Rules(players=3), bots)("x", "y", 40, np.random.SeedSequence(1))
    assert d.score.shape == (40, 3)
    assert (d.score.sum(axis=1) == 2).all()
    assert np.array_equal(d.length[:, 0], d.length[:, 1]) and np.array_equal(d.length[:, 0], d.length[:, 2])
    assert (d.first_score == d.first_score[:, :1]).all()


def test_same_numbers_however_chunked_or_threaded():
    bots = {"heuristic": "heuristic", "random": "random"}
    rules = Rules(players=5)
    ss = np.random.SeedSequence(11)
    one = runner(rules, bots, threads=1)("heuristic", "random", 600, ss)
    again = runner(rules, bots, threads=2)("heuristic", "random", 600, ss)  # same SeedSequence object
    for f in ("score", "first_score", "length"):
        assert np.array_equal(getattr(one, f), getattr(again, f))
    made = [BOTS.make(n, rules) for n in ("heuristic", "random", "heuristic", "random", "heuristic")]
    a = GAME.batch(rules, made, 2100, 3, threads=1)
    b = GAME.batch(rules, made, 2100, 3, chunk=1, threads=2)
    assert np.array_equal(a.scores, b.scores) and np.array_equal(a.length, b.length)
    run = runner(rules, bots)
    short = arena.run(run, list(bots), deals=300, seed=2, block=300, progress=False)
    longer = arena.run(run, list(bots), deals=700, seed=2, block=300, progress=False)
    pair = ("heuristic", "random")
    assert np.array_equal(short.deals[pair].score, longer.deals[pair].score[:300])


def test_interrupt_keeps_finished_blocks():
    bots = {"heuristic": "heuristic", "random": "random"}
    inner, calls = runner(Rules(), bots), []

    def interrupted(a, b, n, seed):
        calls.append(n)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return inner(a, b, n, seed)

    result = arena.run(interrupted, list(bots), deals=200, seed=0, block=50, progress=False)
    assert result.interrupted and (result.pairs_table()["deals"] == 100).all()


def test_call_value_reports_each_policy_on_the_same_deals():
    rules = Rules(players=3)
    rows = call_value(rules, "heuristic", ["random", "race", "top-dog"], n_games=120, seed=0)
    assert [r["caller"] for r in rows] == ["random", "race", "top-dog"]
    assert all(r["games"] == 120 and r["ci_low"] <= r["win_rate"] <= r["ci_high"] for r in rows)
    assert rows[0]["minus_random"] == 0 and rows[1]["diff_ci_low"] <= rows[1]["minus_random"] <= rows[1]["diff_ci_high"]
    assert rows == call_value(rules, "heuristic", ["random", "race", "top-dog"], n_games=120, seed=0, threads=2)
    teams = call_value(Rules.preset("teams"), "heuristic", ["random", "top-dog"], n_games=60, seed=1)
    assert all(r["fair_share"] == 0.5 and 0 < r["win_rate"] < 1 for r in teams)


def test_race_caller_is_legal_and_a_function_of_the_scores():
    rules = Rules()
    caller = call_policy("race")
    assert isinstance(caller, RaceCall)
    scores = np.random.default_rng(0).integers(0, 10, (200, 4)) * 5
    seat = np.arange(200) % 4
    obs = CallObservation(rules, 3, np.arange(200), seat, scores)
    calls = caller.call(obs, np.random.default_rng(1))
    assert set(calls.tolist()) <= {0, 1} and len(set(calls.tolist())) == 2  # it does choose
    assert np.array_equal(calls, RaceCall().call(obs, np.random.default_rng(2)))
    # only the scores matter: the same scores seen from the same seat in another order of rows
    back = CallObservation(rules, 0, np.arange(200)[::-1], seat[::-1], scores)
    assert np.array_equal(caller.call(back, None), calls[::-1])
    only = Rules(calls=("bottoms-up",))
    assert (caller.call(CallObservation(only, 0, np.arange(200), seat, scores), None) == 1).all()


def test_race_caller_gambles_when_behind_and_plays_safe_when_ahead():
    """Bottoms Up spreads the round's points wider than Top Dog with the default heuristic
    (more two-set rounds), so a dealer far behind wants it and a clear leader does not."""
    rules = Rules()
    scores = np.array([[0, 40, 40, 40], [40, 0, 0, 0]])
    obs = CallObservation(rules, 0, np.arange(2), np.zeros(2, np.int64), scores)
    assert RaceCall().call(obs, None).tolist() == [1, 0]
    assert FixedCall("top-dog").call(obs, None).tolist() == [0, 0]


def test_race_caller_calls_bottoms_up_behind_and_top_dog_ahead_in_most_states():
    rng = np.random.default_rng(5)
    scores = rng.integers(0, 10, (4000, 4)) * 5
    seat = rng.integers(0, 4, 4000)
    calls = RaceCall().call(CallObservation(Rules(), 0, np.arange(4000), seat, scores), None)
    mine = scores[np.arange(4000), seat]
    best_other = np.where(np.arange(4)[None] == seat[:, None], -1, scores).max(axis=1)
    assert calls[mine < best_other].mean() > 0.9 and calls[mine > best_other].mean() < 0.1


@pytest.mark.parametrize("run, words", [
    (lambda: GAME.batch(Rules.preset("teams"), [BOTS.make("heuristic:call=race", Rules())] * 4, 2, 0),
     "individual games"),
    (lambda: GAME.batch(Rules(players=8, target=400), [BOTS.make("heuristic:call=race", Rules())] * 8, 2, 0),
     "cannot model"),
    (lambda: call_value(Rules(), "heuristic", ["race", "race"]), "named twice"),
    (lambda: call_value(Rules(), "heuristic", ["race", "maybe"]), "unknown call policy 'maybe'"),
    (lambda: call_value(Rules(), "nobody", ["race"]), "unknown jumbled bot 'nobody'"),
    (lambda: call_value(Rules(), "heuristic:call=race", ["random"]), "the call policy is set here"),
])
def test_caller_mistakes_are_one_line_errors(run, words):
    with pytest.raises(GeolabError, match=words) as error:
        run()
    assert "\n" not in str(error.value)
