"""Class GeoPower Double Choice as a step-wise state (`geolab.stepwise`): the one driver plays
the reference engine as before, actions are card numbers, observations never show a hidden
card, `resample` redraws exactly what a student has not seen, and a game stepped by chance
is a game like any other."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from geolab.bots.classroom.policies import AverageRank, RandomDiscard, Student, WorstCategory
from geolab.cards import N_CARDS, POSTAL, card
from geolab.errors import IllegalActionError
from geolab.games.classroom.game import GAME
from geolab.games.classroom.records import replay_state
from geolab.games.classroom.reference import ATTEMPTS_BOUND, CALL_OUTCOME, CATEGORY_OUTCOME
from geolab.games.classroom.rules import Rules

PRESETS = list(Rules.PRESETS)
#: beyond the presets: a fixed call, shared titles and an uneven GeoPower deck; four cards dealt
VARIANTS = [Rules.preset(p) for p in PRESETS] + [
    Rules(students=13, groups=3, call="bottoms-up", championship_ties="share"),
    Rules(students=12, groups=6, starting_rounds=2, call="top-dog", geopower=(1, 0, 4)),
    Rules(students=16, groups=4, dealt=4, max_per_round=12),
]
DOC = Path(__file__).parents[1] / "docs" / "records-classroom.md"


def _seats(rules: Rules, seed: int):
    """A class of heuristic students sharing one stream (the random one draws from it)."""
    rng = np.random.default_rng(seed)
    policies = [AverageRank(), RandomDiscard(), WorstCategory()]
    return [Student(policies[s % 3], rng) for s in range(rules.students)]


def _walk(rules: Rules, deal, seed: int):
    """Every state a random game passes through (random legal discards), the end included."""
    rng = np.random.default_rng(seed)
    state = GAME.state(rules, deal)
    states = [state.clone()]
    while not state.is_over():
        if state.is_chance():
            state.apply_chance(state.node.sample(rng))
        else:
            state.apply({d.seat: d.legal[int(rng.integers(len(d.legal)))] for d in state.decisions()})
        states.append(state.clone())
    return states


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: f"{r.students}s{r.groups}g-{r.call}-{r.dealt}")
def test_a_state_stepped_by_hand_is_the_game_the_driver_plays(rules):
    for seed in range(3):
        deal = GAME.deal(rules, np.random.default_rng(seed))
        played = GAME.play(rules, deal, _seats(rules, seed))
        state, seats = GAME.state(rules, deal), _seats(rules, seed)
        while not state.is_over():
            state.apply({d.seat: seats[d.seat].act(d) for d in state.decisions()})
        assert GAME.to_record(state.played) == GAME.to_record(played)
        assert len(state.log) == len(played.rounds)  # one Ask a round: the whole class discards at once
        np.testing.assert_array_equal(state.scores(), GAME.scores(played))


@pytest.mark.parametrize("preset", PRESETS)
def test_every_discard_is_its_card_number_and_reads_back(preset):
    rules = Rules.preset(preset)
    assert GAME.num_actions(rules) == N_CARDS
    for seed in range(3):
        for state in _walk(rules, GAME.deal(rules, np.random.default_rng(seed)), seed)[:-1]:
            for d in state.decisions():
                ids = [GAME.action_id(rules, d, a) for a in d.legal]
                assert ids == list(d.legal) and len(set(ids)) == len(ids)
                assert all(0 <= i < N_CARDS for i in ids)
                assert [GAME.action_of(rules, d, i) for i in ids] == list(d.legal)
                assert re.fullmatch(r"round \d+ \((starting|championship)\)", d.where)
                other = next(c for c in range(N_CARDS) if c not in d.legal)
                for bad in (other, -1, N_CARDS, True, 1.0, "AK"):
                    with pytest.raises(IllegalActionError, match="is not legal"):
                        GAME.action_of(rules, d, bad)
                refusal = re.escape(f"{d.where}: S{d.seat + 1}'s discard {other} is not legal")
                with pytest.raises(IllegalActionError, match=refusal):
                    GAME.action_id(rules, d, other)


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: f"{r.students}s{r.groups}g-{r.call}-{r.dealt}")
def test_resample_at_every_decision_keeps_what_the_student_saw_and_redraws_the_rest(rules):
    rng = np.random.default_rng(3)
    for seed in range(2):
        for state in _walk(rules, GAME.deal(rules, np.random.default_rng(seed)), seed)[:-1]:
            playing = set(state.to_move())
            for seat in range(rules.students):
                seen = state.observe(seat)
                text = GAME.observation_string(rules, seat, seen)
                tensor = GAME.observation_tensor(rules, seat, seen)
                assert tensor.dtype == np.float32 and tensor.shape == (GAME.tensor_size(rules),)
                others = [s for s in playing if s != seat]
                varied = False
                for _ in range(4):
                    other = state.resample(seat, rng)  # replays the log: every logged discard still legal
                    assert len(other.log) == len(state.log) and other.to_move() == state.to_move()
                    assert [a.get(seat) for _, a in other.log] == [a.get(seat) for _, a in state.log]
                    assert other.observe(seat) == seen
                    assert GAME.observation_string(rules, seat, other.observe(seat)) == text
                    np.testing.assert_array_equal(GAME.observation_tensor(rules, seat, other.observe(seat)), tensor)
                    varied |= any(other.observe(s).hand != state.observe(s).hand for s in others)
                assert varied or not others


def test_resample_keeps_finished_rounds_as_seen_and_the_own_cards_in_place():
    rules = Rules()  # two Starting Rounds: groups 1-2 (S1-S10), then 3-4 (S11-S20)
    deal = GAME.deal(rules, np.random.default_rng(4))
    state = GAME.state(rules, deal)
    state.apply({d.seat: d.legal[0] for d in state.decisions()})  # round 1 played
    played = state.log[0][1]
    new = GAME.resample(rules, deal, state.log, 15, np.random.default_rng(5))  # S16: sixth of round 2's deck
    other, log = new.deal, new.log
    old_deck, new_deck = deal.starting[0].decks[0], other.starting[0].decks[0]
    for s in range(10):  # round 1, played in front of S16: every Selected Card where it was dealt
        kept = [p for p in range(3 * s, 3 * s + 3) if old_deck[p] != played[s]]
        assert [new_deck[p] for p in kept] == [old_deck[p] for p in kept]
        assert log[0][1][s] in new_deck[3 * s:3 * s + 3]  # its discard, chosen anew, is of its new hand
    assert any(log[0][1][s] != played[s] for s in range(10)), "S16 never saw a discard of round 1"
    mine, theirs = deal.starting[1], other.starting[1]
    assert theirs.call == mine.call and theirs.decks[0][15:18] == mine.decks[0][15:18]
    assert theirs.decks[0][:15] != mine.decks[0][:15] and sorted(theirs.decks[0]) == list(range(N_CARDS))
    assert other.championship != deal.championship and other.later != deal.later
    # S3, who played round 1, knows its own discard there and keeps it through a resample
    seen = state.observe(2)
    assert seen.discards == (played[2],) and seen.hand == () and seen.contest == ()
    assert state.resample(2, np.random.default_rng(6)).observe(2) == seen
    assert state.resample(2, np.random.default_rng(6)).log[0][1][2] == played[2]


def test_a_game_stepped_by_chance_is_a_valid_game_its_outcomes_make_again():
    for rules in VARIANTS:
        for seed in range(3):
            states = _walk(rules, None, seed)
            end = states[-1]
            scores = end.scores()
            assert scores.sum() == pytest.approx(1) and (scores > 0).sum() == len(end.played.champions)
            assert len(end.log) <= GAME.max_length(rules)
            record = json.loads(json.dumps(GAME.to_record(end.played)))
            assert GAME.to_record(GAME.replay(record)) == record
            outcomes = [v for k, v in end.log if k == "chance"]
            asks = [e for e in end.log if e[0] == "ask"]
            again = GAME.state(rules, GAME.deal_from_chance(rules, outcomes), asks)
            assert GAME.to_record(again.played) == record
            for state in (s for s in states if s.to_move()):  # part-way: the outcomes so far, the rest filler
                so_far = [v for k, v in state.log if k == "chance"]
                deal = GAME.deal_from_chance(rules, so_far)
                assert deal.chance == tuple(so_far)
                there = GAME.state(rules, deal, [e for e in state.log if e[0] == "ask"])
                assert there.decisions() == state.decisions()
                assert all(there.observe(s) == state.observe(s) for s in range(rules.students))


def test_resample_of_a_game_stepped_by_chance_keeps_what_the_student_was_shown():
    rng = np.random.default_rng(10)
    for rules in (Rules(), Rules(students=32, groups=8, two_decks=True, call="top-dog")):
        for state in _walk(rules, None, 2)[:-1]:
            for seat in (0, 7, rules.students - 1):
                seen = state.observe(seat)  # every node shows the class as it stands, the first too
                other = state.resample(seat, rng)  # a dealt state, at the next discards: the log's replayed
                asks = [e for e in state.log if e[0] == "ask"]
                assert other.deal.chance is None and len(other.log) == len(asks)
                assert [a.get(seat) for _, a in other.log] == [a.get(seat) for _, a in asks]  # its own discards kept
                if state.to_move():
                    assert other.observe(seat) == seen
                elif seen.hand and state.node.kind == "card":  # dealt already, in this round
                    assert other.observe(seat).hand == seen.hand and other.observe(seat).call == seen.call


def test_chance_nodes_name_their_outcomes_with_the_rules_odds():
    rules = Rules(students=12, groups=6, starting_rounds=2, call="top-dog", geopower=(1, 0, 4))
    state = GAME.state(rules)
    assert state.node.kind == "card" and len(state.node.outcomes) == N_CARDS  # a fixed call is no chance event
    while state.is_chance():
        state.apply_chance(state.node.outcomes[0])
    assert len(state.log) == 6 * rules.dealt and all(d.observation.call == 0 for d in state.decisions())
    state.apply({d.seat: d.legal[0] for d in state.decisions()})
    turn = state.node
    assert turn.kind == "geopower" and turn.outcomes == (CATEGORY_OUTCOME, CATEGORY_OUTCOME + 2)
    assert turn.probabilities() == pytest.approx((0.2, 0.8))
    with pytest.raises(IllegalActionError, match="not a possible outcome"):
        state.apply_chance(CATEGORY_OUTCOME + 1)  # the deck has no statehood card
    call = GAME.state(Rules()).node
    assert call.kind == "call" and call.outcomes == (CALL_OUTCOME, CALL_OUTCOME + 1) and call.probs is None


def test_the_documented_record_replays_as_a_state_of_its_own_events():
    record = json.loads(re.findall(r"```json\n(.*?)```", DOC.read_text(), re.S)[0])
    state = replay_state(record)
    first, final = record["rounds"]
    dealt_first = [card(c) for s in range(10) for c in first["deal"][f"S{s + 1}"]]
    assert state.log[0] == ("chance", CALL_OUTCOME)  # top-dog
    assert [v for _, v in state.log[1:31]] == dealt_first
    assert state.log[31] == ("ask", {s: card(first["discards"][f"S{s + 1}"]) for s in range(10)})
    assert state.log[32] == ("chance", CATEGORY_OUTCOME)  # size
    assert state.log[33] == ("chance", CALL_OUTCOME + 1)  # bottoms-up
    assert [POSTAL[v] for _, v in state.log[34:40]] == final["deal"]["S1"] + final["deal"]["S10"]
    assert state.log[41] == ("chance", CATEGORY_OUTCOME + 2) and len(state.log) == 42  # population
    assert state.played.champions == [0]
    text = GAME.observation_string(state.rules, 0, state.observe(0)).splitlines()
    assert text[0] == "S1: the game is over after round 2"
    assert text[1].startswith("round 1 (starting) top-dog size: S1 NY+OR=40 S2 NM+SC=45") and text[1].endswith(
        "| won S1 S10 | discarded HI")
    assert text[2].endswith("| won S1 | discarded CA")


def test_the_observation_tensor_layout():
    rules = Rules(students=10, groups=2)
    state = GAME.state(rules, GAME.deal(rules, np.random.default_rng(8)))
    seen = state.observe(4)
    t = GAME.observation_tensor(rules, 4, seen)
    slots = rules.rounds + ATTEMPTS_BOUND
    assert GAME.tensor_size(rules) == 2 * N_CARDS + 2 + 2 * 10 + slots + slots * (5 + 3 * 10 + 2 * N_CARDS)
    assert sorted(np.flatnonzero(t[:N_CARDS])) == list(seen.hand)
    assert t[2 * N_CARDS + seen.call] == 1 and t[2 * N_CARDS:2 * N_CARDS + 2].sum() == 1
    contest = t[2 * N_CARDS + 2:2 * N_CARDS + 12]
    assert list(np.flatnonzero(contest)) == [0, 1, 2, 3, 4]  # group 1: S1-S5
    assert t[2 * N_CARDS + 12 + 4] == 1 and t[2 * N_CARDS + 22] == 1  # seat S5; round 1
    assert not t[2 * N_CARDS + 22 + slots:].any()  # nothing finished yet


def test_a_clone_is_independent_of_its_original():
    rules = Rules()
    state = GAME.state(rules, GAME.deal(rules, np.random.default_rng(9)))
    copy = state.clone()
    state.apply({d.seat: d.legal[0] for d in state.decisions()})
    assert copy.log == [] and copy.observe(0).history == () and len(state.observe(0).history) == 1
    copy.apply({d.seat: d.legal[1] for d in copy.decisions()})
    assert copy.log[0][1] != state.log[0][1] and len(state.log) == 1
    assert state.observe(0).discards == (state.log[0][1][0],) and copy.observe(0).discards == (copy.log[0][1][0],)
    again = state.clone()
    assert again.log == state.log and all(again.observe(s) == state.observe(s) for s in range(rules.students))


def test_max_length_counts_every_node_of_the_starting_rounds_and_the_bound_on_championship_attempts():
    # default: 2 x (call + GeoPower card) + 20 students x (3 cards + a discard); then each
    # attempt a call, a GeoPower card and every student a finalist: 2 + 20 x 4
    assert ATTEMPTS_BOUND == 24 and GAME.max_length(Rules()) == 84 + 24 * 82
    assert GAME.max_length(Rules(students=10, groups=2, call="top-dog")) == 1 + 40 + 24 * 41
