"""GeoDouble's rules on hand-worked cases: the race and how it is settled, the stakes of a
stage (10 / 5 / 10 / 20), the match to 50, redeals and void races, the deal's checks, the
race model, and records refused on one line."""

from __future__ import annotations

import json

import numpy as np
import pytest

from geolab.cards import card
from geolab.errors import IllegalActionError, RecordError, RulesError
from geolab.games.geodouble import records
from geolab.games.geodouble.reference import ENGINE, WRONG, Deal, RoundDeal, Solution, solutions
from geolab.games.geodouble.rules import Rules
from geolab.games.race import RaceModel, settle
from geolab.stepwise import Claim, State


def cards(text: str) -> tuple[int, ...]:
    return tuple(sorted(card(p) for p in text.split()))


#: The groups doc's hand (37 GeoDouble solutions) and one of the other 32 cards with none.
RICH = cards("AL AK CA DE GA HI KY MD MA MN MS NH NM NY OH OR SC WV")
NONE = cards("AZ AR CT IL LA ME MI MO NJ NC ND PA TX UT VT VA WI WY")
STAGE = (cards("AK TX CA MT NM AZ NV CO"), cards("RI DE CT NJ NH VT MA MD"))


def a_deal(rules: Rules, races=((RICH, NONE),), coin=0, stage=STAGE) -> Deal:
    return Deal(tuple(RoundDeal(tuple(races), coin, stage) for _ in range(rules.max_rounds)))


class Script:
    """A seat that answers from a list of actions, in order; a race is answered by `claim`."""

    def __init__(self, claim, moves=()):
        self.claim, self.moves = claim, list(moves)

    def act(self, decision):
        if decision.timed:
            return self.claim(decision)
        if decision.kind == "discard":
            return decision.legal[0]
        if decision.kind == "declare":
            return self.moves.pop(0) if self.moves else False
        return decision.legal[0]


def first_solution(seconds):
    return lambda d: Claim(d.legal[0] if len(d.legal) > 1 else None, seconds)


# ----- the race -----------------------------------------------------------------------------
def test_the_texts_border_group_and_a_capital_group_make_the_one_solution():
    hand = cards("MD VA NC ME NY TX")
    # Virginia borders Maryland and North Carolina; Augusta, Albany, Austin
    assert solutions(Rules(), hand) == (Solution(cards("MD VA NC"), cards("ME NY TX")),)
    assert solutions(Rules(), cards("MD VA NC ME NY CA")) == ()


@pytest.mark.parametrize("seconds,valid,coin,winner", [
    ((5.0, 7.0), (True, True), 1, 0),  # the first claim holds: it wins
    ((5.0, 7.0), (False, True), 0, 1),  # a wrong first claim gives the race away
    ((5.0, np.inf), (False, False), 0, 1),  # ... even when the other never claims
    ((np.inf, 3.0), (False, True), 0, 1),
    ((4.0, 4.0), (True, True), 1, 1),  # simultaneous and both valid: the coin
    ((4.0, 4.0), (False, True), 0, 1),  # simultaneous, one valid: that one
    ((4.0, 4.0), (False, False), 0, 0),  # simultaneous, both wrong: the coin
    ((np.inf, np.inf), (False, False), 0, -1),  # nobody claimed: void
])
def test_a_race_is_settled_by_the_first_claim(seconds, valid, coin, winner):
    assert settle([seconds], [valid], [coin]).tolist() == [winner]


def test_a_race_is_asked_of_both_at_once_with_every_solution_and_a_wrong_claim():
    rules = Rules()
    state = State(ENGINE, rules, a_deal(rules))
    assert state.to_move() == (0, 1) and state.node.race
    a, b = state.decisions()
    assert a.legal[:-1] == solutions(rules, RICH) and a.legal[-1] == WRONG and len(a.legal) == 38
    assert b.legal == (WRONG,)  # B's hand holds none: it can only pass or claim wrongly
    assert a.observation.race_hand == RICH and b.observation.race_hand == NONE
    with pytest.raises(IllegalActionError, match="not legal"):
        state.apply({0: Claim(Solution(cards("MD VA NC"), cards("ME NY TX")), 1.0), 1: Claim(None, 2.0)})


def test_a_wrong_claim_loses_the_race_and_the_other_deals():
    rules = Rules(target=15)
    played = ENGINE.play(rules, a_deal(rules),
                         [Script(lambda d: Claim(WRONG, 1.0)), Script(lambda d: Claim(None, 9.0))])
    first = played.rounds[0]
    assert first.race.winner == 1 and first.dealer == 1 and first.stage.first_lead == 1
    assert first.points[1] >= 10


# ----- the stakes ---------------------------------------------------------------------------
@pytest.mark.parametrize("declared,stake", [((False, False), 5), ((True, False), 10), ((False, True), 10),
                                             ((True, True), 20)])
def test_the_stage_pays_5_10_or_20_and_the_race_10(declared, stake):
    rules = Rules()
    seats = [Script(first_solution(1.0), [declared[0]]), Script(first_solution(2.0), [declared[1]])]
    state = State(ENGINE, rules, a_deal(rules))
    while state.observe(0).round == 0 and not state.is_over():
        state.apply({d.seat: seats[d.seat].act(d) for d in state.decisions()})
    first = state.observe(0).past[0]
    stage = first.stage
    assert first.race.winner == 0 and stage.first_lead == 0 and stage.declarations == declared
    won = stage.tricks_won
    winner = 0 if won[0] >= 4 else 1 if won[1] >= 4 else stage.history[-1].winner
    expected = [10, 0]
    expected[winner] += stake
    assert first.points == tuple(expected) and state.observe(0).score == tuple(expected)


def test_the_dealer_declares_first_and_the_other_sees_it():
    rules = Rules()
    state = State(ENGINE, rules, a_deal(rules))
    state.apply({0: Claim(None, 5.0), 1: Claim(WRONG, 1.0)})  # B's wrong claim: A wins, A deals
    state.apply({d.seat: d.legal[0] for d in state.decisions()})  # discards
    assert state.to_move() == (0,) and state.decisions()[0].kind == "declare"
    assert state.observe(0).score == (10, 0) and state.observe(1).score == (10, 0)
    state.apply({0: True})
    second = state.decisions()[0]
    assert second.seat == 1 and second.observation.stage.declarations == (True, None)


def test_the_match_ends_the_moment_a_player_reaches_the_target():
    rules = Rules(target=30)
    played = ENGINE.play(rules, a_deal(rules), [Script(first_solution(1.0), [True] * 9),
                                                Script(first_solution(2.0), [True] * 9)])
    assert max(played.score) >= 30 and sum(1 for r in played.rounds if r.stage is None) <= 1
    before = [sum(r.points[s] for r in played.rounds[:-1]) for s in (0, 1)]
    assert max(before) < 30  # not over a round earlier
    # A wins every race (1 s against 2 s): a race at 20 takes A to 30 and ends it, no stage
    last = played.rounds[-1]
    if last.stage is None:
        assert last.race.winner == played.winner and played.score[played.winner] >= 30


def test_a_race_without_a_solution_is_dealt_again_and_after_the_redeals_is_void():
    rules = Rules(race_cards=6, redeals=1, target=15)
    dry = (cards("MA MN NH OK VT WY"), cards("IA KY NV NJ TN WV"))
    wet = (cards("MD VA NC ME NY TX"), cards("MA MN NH OK VT WY"))
    played = ENGINE.play(rules, a_deal(rules, races=(dry, wet)), [Script(first_solution(1.0)),
                                                                   Script(first_solution(2.0))])
    assert played.rounds[0].race.races == (dry, wet) and played.rounds[0].race.winner == 0
    void = ENGINE.play(rules, a_deal(rules, races=(dry, dry), coin=1), [Script(first_solution(1.0)),
                                                                        Script(first_solution(2.0))])
    first = void.rounds[0]
    assert first.race.claims is None and first.race.winner == -1 and first.dealer == 1
    assert first.points == first.stage.points  # no race points


def test_a_deal_the_rules_cannot_play_is_refused_naming_the_round():
    rules = Rules(race_cards=6, redeals=1)
    wet = (cards("MD VA NC ME NY TX"), cards("MA MN NH OK VT WY"))
    with pytest.raises(IllegalActionError, match="round 1: race 1 holds a solution"):
        State(ENGINE, rules, a_deal(rules, races=(wet, wet)))
    with pytest.raises(IllegalActionError, match="expected 6"):
        State(ENGINE, rules, a_deal(rules, races=((RICH, NONE),)))


def test_bad_rules_are_one_line_rules_errors():
    for bad in ({"target": 0}, {"race_cards": 5}, {"race_cards": 26}, {"redeals": -1},
                {"stage.first_lead": "discard-statehood"}):
        with pytest.raises(RulesError, match="^rules"):
            Rules().replace(**bad)
    assert Rules().replace(**{"stage.end_at": 5}).stage.end_at == 5


# ----- the race model -----------------------------------------------------------------------
def test_the_race_model_grows_with_cards_and_shrinks_with_solutions():
    m = RaceModel()
    t = m.mean_seconds([6, 12, 18, 18, 18], [1, 1, 1, 4, 30])
    assert t[0] < t[1] < t[2] and t[2] > t[3] > t[4] > m.base
    assert m.mean_seconds(18, 0) > t[2]  # no solution: the whole hand searched
    assert RaceModel(speed=2).mean_seconds(18, 1) - m.base == pytest.approx((t[2] - m.base) / 2)


def test_a_faster_player_wins_more_races_but_not_all_and_the_perfect_one_only_reads_the_cards():
    rng = np.random.default_rng(5)
    n = 20_000
    k = rng.integers(1, 40, (n, 2))
    fast, slow = RaceModel(speed=1.5), RaceModel()
    ta, wa = fast.sample(rng, np.full(n, 18), k[:, 0])
    tb, wb = slow.sample(rng, np.full(n, 18), k[:, 1])
    wins = settle(np.stack([ta, tb], 1), np.stack([~wa, ~wb], 1), np.zeros(n, int))
    rate = (wins == 0).mean()
    assert 0.55 < rate < 0.9
    perfect = RaceModel.named("perfect")
    t, wrong = perfect.sample(rng, np.full(4, 18), np.array([1, 2, 2, 0]))
    assert not wrong.any() and t[0] > t[1] == t[2] and np.isinf(t[3])


def test_race_model_parameters_are_checked():
    with pytest.raises(ValueError, match="speed"):
        RaceModel(speed=0)
    with pytest.raises(ValueError, match="error"):
        RaceModel(error=1.5)
    with pytest.raises(ValueError, match=r"human, perfect or a level \(beginner, club, expert\)"):
        RaceModel.named("fast")


# ----- records ------------------------------------------------------------------------------
def test_a_record_replays_and_tampering_is_one_line():
    rules = Rules()
    played = ENGINE.play(rules, a_deal(rules), [Script(first_solution(1.0), [True]), Script(first_solution(2.0))])
    record = json.loads(json.dumps(records.to_record(played)))
    assert records.report(records.replay_game(record)) == records.report(played)

    def refused(change, match):
        bad = json.loads(json.dumps(record))
        change(bad)
        with pytest.raises(RecordError, match=match):
            records.replay_game(bad)

    refused(lambda r: r["rounds"][0]["claims"]["A"].__setitem__(0, [["MD", "NC", "VA"], ["ME", "NY", "TX"]]),
            "not legal")
    refused(lambda r: r["rounds"][0]["claims"]["A"].__setitem__(0, [["MD", "VA", "NC"], ["ME", "NY", "TX"]]),
            r"claims.A: NC comes before VA in card order")  # records write one order, so one record a match
    refused(lambda r: r["rounds"][0]["claims"]["A"].__setitem__(1, 1), r"claims.A: seconds must be a real number")
    refused(lambda r: r["rounds"][0]["races"][0]["A"].reverse(), r"rounds\[0\].races\[0\].A: .* in card order")
    refused(lambda r: r["rounds"][0]["claims"]["A"].__setitem__(1, -1), r"rounds\[0\].claims.A: seconds")
    refused(lambda r: r["rounds"].pop(), "the match is not over")
    refused(lambda r: r["rounds"].append(r["rounds"][0]), "played after the match ended")
    refused(lambda r: r["rounds"][0].pop("claims"), "claims: missing")
    refused(lambda r: r["rounds"][0]["stage"].__setitem__("first_lead", "B"), r"^rounds\[0\].stage.trick 1: B")
    refused(lambda r: r["rounds"][0].__setitem__("extra", 1), "unknown key")


def test_a_monte_carlo_declarer_plays_its_rollouts_with_any_trick_bot():
    """Its rollouts keep the stage's rules, so a trick bot built for them only (learned) plays."""
    from geolab import registry

    entry = registry.get("geodouble")
    rules = Rules()
    bots = [entry.bots.make(spec, rules) for spec in ("player:tricks=learned,declare=montecarlo,samples=4",
                                                      "player:tricks=learned")]
    batch = entry.game.batch(rules, bots, 16, 3)
    assert np.allclose(batch.scores.sum(axis=1), 1) and (batch.columns["declared_A"] >= 0).all()
