"""Jumbled bots: every policy plays legally under varied rules; heuristics follow their
documented rules of thumb; the learned bot is reproducible and ships ready (building it never
trains); call policies answer as asked; the registry builds every bot by name."""

import numpy as np
import pytest

from geolab.bots.jumbled import learned as learned_module
from geolab.bots.jumbled.callers import FixedCall, RaceCall, RandomCall, call_policy
from geolab.bots.jumbled.heuristics import HEURISTICS, Heuristic, RandomBot
from geolab.bots.jumbled.learned import DEFAULT_MODEL, Learned
from geolab.bots.jumbled.montecarlo import MonteCarlo
from geolab.bots.jumbled.registry import BOTS, seat
from geolab.cards import card
from geolab.errors import GeolabError
from geolab.games.jumbled.batch import BatchRound, deal, play_game_batch
from geolab.games.jumbled.game import GAME
from geolab.games.jumbled.observations import CallObservation, observe
from geolab.games.jumbled.offers.study import field_arena
from geolab.games.jumbled.rules import Rules

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
    assert (call_policy("bottoms-up").call(obs, None) == 1).all()
    assert isinstance(call_policy("race"), RaceCall) and isinstance(call_policy("random"), RandomCall)
    only = CallObservation(Rules(calls=("bottoms-up",)).validate(), 0, np.arange(9), np.zeros(9, np.int64),
                           np.zeros((9, 4), np.int64))
    assert (RandomCall().call(only, np.random.default_rng(0)) == 1).all()
    for bad in ("sideways",):
        with pytest.raises(GeolabError, match="unknown call policy"):
            call_policy(bad)
        with pytest.raises(GeolabError, match="unknown call policy 'sideways'"):
            BOTS.make(f"heuristic:call={bad}", rules)
    bot = BOTS.make("montecarlo:samples=8", rules)
    assert bot.policy.samples == 8 and bot.name == "montecarlo:samples=8"
    assert (BOTS.make("first:call=bottoms-up", rules).call(obs, None) == 1).all()
    assert BOTS.make("reserve", rules).policy is HEURISTICS["reserve"]
    for bad, words in (("montecarlo:samples=0", "samples must be within 1-10,000"), ("montecarlo:samples=x", "samples"),
                       ("zzz", "unknown jumbled bot 'zzz'"), ("heuristic:samples=3", "unknown parameter 'samples'")):
        with pytest.raises(GeolabError, match=words):
            BOTS.make(bad, rules)


def test_every_registered_bot_plays_whole_games_with_its_call():
    rules = Rules(players=3).validate()
    for name in BOTS.names():
        spec = BOTS.info(name).example
        bots = [BOTS.make(f"{spec}{',' if ':' in spec else ':'}call=top-dog", rules), BOTS.make("heuristic", rules),
                BOTS.make("random", rules)]
        for record in GAME.batch_records(rules, bots, 3, 1):
            assert GAME.report(GAME.replay(record))["finished"]
            assert all(rd["call"] == "top-dog" for rd in record["rounds"][::3])  # seat A deals rounds 1, 4, ...


def test_the_shipped_learned_bot_loads_without_training(monkeypatch, tmp_path):
    assert DEFAULT_MODEL.is_file() and DEFAULT_MODEL.stat().st_size < 2_000_000

    def no_training(self, rules):
        raise AssertionError("building a bot must never train it")

    monkeypatch.setattr(Learned, "fit", no_training)
    rules = Rules().validate()
    bot = BOTS.make("learned", rules)
    assert bot.policy.meta_["rules"] == "standard" and bot.policy.meta_["format"] == learned_module.MODEL_FORMAT
    hands, order = deal(rules, np.random.default_rng(2), 50)
    rnd = BatchRound(rules, hands, order, np.arange(50, dtype=np.int8) % 2)
    obs = observe(rnd, np.repeat(np.arange(50), 4), np.tile(np.arange(4), 50),
                  np.zeros((50, 4), np.int64), np.zeros(50, np.int64), 0)
    a = bot.act(obs, np.random.default_rng(0))
    assert obs.legal_mask()[np.arange(len(a)), a].all()
    path = tmp_path / "copy.pkl"
    bot.policy.save(path)
    again = BOTS.make(f"learned:model={path}", rules)
    assert (again.act(obs, np.random.default_rng(9)) == a).all()
    for bad in (tmp_path / "missing.pkl", DOC_FILE):
        with pytest.raises(GeolabError, match="learned Jumbled model"):
            BOTS.make(f"learned:model={bad}", rules)


DOC_FILE = __file__  # a file that is not a model


def test_arena_rows_carry_sample_sizes_and_intervals():
    rules = Rules().validate()
    rows = field_arena(rules, ["random", "last"], "heuristic", n_deals=12, seed=1)
    for row in rows:
        assert row["games"] == 48 and row["deals"] == 12 and row["field"] == "heuristic"
        assert row["ci_low"] <= row["win_rate"] <= row["ci_high"]
        assert row["fair_share"] == 0.25
    built = field_arena(rules, {"random": BOTS.make("random", rules), "last": seat(HEURISTICS["last"])},
                        BOTS.make("heuristic", rules), n_deals=12, seed=1)
    assert [r["win_rate"] for r in built] == [r["win_rate"] for r in rows]
    with pytest.raises(GeolabError, match="named twice"):
        field_arena(rules, ["last", "last"], n_deals=2)
    with pytest.raises(GeolabError, match="individual play"):
        field_arena(Rules.preset("teams"), ["last"], n_deals=2)


def test_a_bot_seat_decides_on_the_reference_engine_as_the_bot_does_on_the_batch_engine():
    """Deterministic bots (fixed single-card sets, fixed or race calls) make the same game on
    both engines from the same deals: a batch record replayed as a reference game with the
    bots seated (`BotSeat`) writes the same record again."""
    from geolab.bots.jumbled.seats import BotSeat
    from geolab.cards import category
    from geolab.games.jumbled.reference import Deal, RoundDeal

    rules = Rules(players=3).validate()
    bots = [BOTS.make(s, rules) for s in ("first:call=top-dog", "last:call=bottoms-up", "middle:call=race")]
    for record in GAME.batch_records(rules, bots, 8, 4):
        fixed = []
        for rd in record["rounds"]:
            turned = [category(st["geopower"]) for st in rd["sets"]]
            rest = [c for c in range(3) for _ in range(rules.geopower_deck[c] - turned.count(c))]
            fixed.append(RoundDeal(tuple(tuple(card(x) for x in rd["deal"][s]) for s in "ABC"), tuple(turned + rest)))
        played = GAME.play(rules, Deal(0, tuple(fixed)), [BotSeat(b) for b in bots])
        assert GAME.to_record(played) == record
    seats = [BotSeat(BOTS.make(s, rules), np.random.default_rng(1))
             for s in ("montecarlo:samples=4", "learned", "random")]
    assert GAME.play(rules, GAME.deal(rules, np.random.default_rng(2)), seats).over
