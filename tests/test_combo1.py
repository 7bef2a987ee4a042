"""The Combo 1 match's reference engine, case by case against the official Combo 1
tournament rules (docs/rules-combo1.md): the morning's order until the bell, the afternoon's draw
and choices, who goes first at State IQ and Play the Ranks, the final's early stop and its
Border-Up tie-breaker, the timing model's seconds, and a chance-stepped match. Seats are
scripted (`Planned`): each game's winner is the one the test plans, by playing that game's
own moves."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from geolab.cards import POSTAL, RANKS, STATEHOOD
from geolab.errors import IllegalActionError, RulesError
from geolab.games.borderup.reference import WRONG, has_solution
from geolab.games.combo1.reference import ENGINE, Deal, GameSeen, Pick, deal_one, final_decided, first_player, slots
from geolab.games.combo1.rules import BORDER_UP, DASHING, GAMES, STATE_IQ, Rules
from geolab.games.combo1.rules import RANKS as PLAY_RANKS
from geolab.games.dashing.reference import Row, Said
from geolab.stepwise import Claim, State

MORNING = (BORDER_UP, STATE_IQ, DASHING, PLAY_RANKS)


class Planned:
    """A team whose games end as planned: ``wins[k]`` is the winner of the match's k-th game (0,
    1, or None: a tie; Play the Ranks cannot tie and is played at random), ``picks`` its
    afternoon choices in order. It reads the deal it is given for State IQ's hidden card (a
    scripted seat, not a fair one)."""

    def __init__(self, seat: int, deal: Deal, wins=(), picks=(), seed: int = 0):
        self.seat, self.deal, self.wins, self.picks = seat, deal, list(wins), list(picks)
        self.rng = np.random.default_rng([seed, seat])

    def act(self, decision):
        view = decision.observation
        if decision.kind == "choose":
            return self.picks.pop(0)
        want = self.wins[view.index] if view.index < len(self.wins) else "random"
        inner, legal, me = view.inner, decision.legal, self.seat
        if want == "random" or view.game == PLAY_RANKS:
            a = legal[int(self.rng.integers(len(legal)))]
            return Claim(a, float(self.rng.exponential(2.0))) if decision.timed else a
        if view.game == BORDER_UP:
            if want == me:
                solved = [a for a in legal if a != WRONG]
                return Claim(solved[0], 1.0) if solved else Claim(None, 5.0)
            return Claim(None, 5.0) if want is None else Claim(WRONG, 2.0)
        if view.game == STATE_IQ:
            if decision.kind == "clue":
                return legal[0]
            slot = sum(g.game == STATE_IQ for g in view.past)
            target = self.deal.games[STATE_IQ][slot].cards[1 - me]
            right = want is None or want == me
            return next(c for c in legal if (c == target) == right)
        # Dashing States: a correct row (four cards in card order, which is alphabetical) and the
        # right states and capitals; a tie: both at the same second
        row = Row(tuple(sorted(range(len(inner.hand)), key=lambda i: inner.hand[i])[:4]), True)
        if decision.timed:
            return Claim(row, 1.0) if want is None or want == me else Claim(None, 30.0)
        card = inner.hand[row.order[inner.place]]
        return Said(card, card)


def _play(rules: Rules, deal: Deal, wins=(), picks=((), ()), seed: int = 0):
    return ENGINE.play(rules, deal, [Planned(s, deal, wins, picks[s], seed) for s in (0, 1)])


def _deal(rules: Rules, seed: int) -> Deal:
    return deal_one(rules, np.random.default_rng(seed))


# ----- the morning -------------------------------------------------------------------------
def test_the_morning_plays_the_four_games_in_order_again_and_again_until_the_bell():
    rules = Rules(minutes=7)
    played = _play(rules, _deal(rules, 1), wins=[0, 1, 0, None] * 3)
    kinds = [g.game for g in played.games]
    assert kinds == [MORNING[k % 4] for k in range(len(kinds))] and len(kinds) > 4
    clock = 0.0
    for g in played.games:  # each game begins as the one before ends
        assert g.start == pytest.approx(clock)
        clock = g.end
    last = played.games[-1]
    assert last.start < 420 < last.end  # the bell rang during the last game, and no game began after it
    assert [g.counted for g in played.games] == [True] * (len(kinds) - 1) + [False]
    assert played.wins == tuple(sum(g.winner == s for g in played.games[:-1]) for s in (0, 1))
    # a minute later the same game ends on the bell (State IQ, 400 s to 480 s): it counts, and the match is over
    longer = _play(Rules(minutes=8), _deal(rules, 1), wins=[0, 1, 0, None] * 3)
    assert [g.game for g in longer.games] == kinds and longer.games[-1].end == 480.0
    assert all(g.counted for g in longer.games) and longer.wins == (4, 2)


def test_the_morning_plays_its_order_field_and_refuses_an_order_that_is_no_permutation():
    order = ("ranks", "dashing-states", "border-up", "state-iq")
    rules = Rules(minutes=9, order=order)
    played = _play(rules, _deal(rules, 1), wins=[0, 1, 0, None] * 4)
    kinds = [g.game for g in played.games]
    assert len(kinds) > 4 and kinds == [GAMES.index(order[k % 4]) for k in range(len(kinds))]
    # Play the Ranks first: no Dashing States before it gives the first lead, so the draw does
    assert played.games[0].first is None and played.games[0].draw is not None
    used = [sum(g.game == k for g in played.games) for k in range(4)]
    assert all(u <= s for u, s in zip(used, slots(rules)))  # the deal holds enough of each game
    with pytest.raises(RulesError, match="order must name each of"):
        Rules(order=("ranks", "ranks", "border-up", "state-iq")).validate()


def test_a_game_unfinished_at_the_bell_counts_under_unfinished_count():
    void, count = Rules(minutes=7), Rules(minutes=7, unfinished="count")
    deal, plan = _deal(void, 1), [0, 1, 0, None] * 3
    a, b = _play(void, deal, plan), _play(count, deal, plan)
    assert [g.game for g in a.games] == [g.game for g in b.games]
    assert not a.games[-1].counted and b.games[-1].counted and all(g.counted for g in b.games)
    last = b.games[-1].winner
    assert b.wins[0] - a.wins[0] == (last == 0) and b.wins[1] - a.wins[1] == (last == 1)


def test_slots_bound_the_games_a_round_may_begin():
    morning = Rules()
    # every game at its shortest: 45 + 20 + 30 + (45 + 20) = 160 s a cycle; after 7 cycles (1120 s)
    # Border-Up, State IQ and Dashing States begin at 1120, 1165 and 1185 s, before the bell
    assert slots(morning) == (8, 8, 8, 7)
    assert slots(Rules(round="final")) == (11, 1, 1, 1)
    played = _play(morning, _deal(morning, 2), wins=[0, 1, 0] * 20)
    used = [sum(g.game == k for g in played.games) for k in range(4)]
    assert all(u <= s for u, s in zip(used, slots(morning)))


# ----- the afternoon -------------------------------------------------------------------------
def _afternoon_deal(rules: Rules, a: int, b: int) -> Deal:
    return Deal(_deal(rules, 3).games, (a, b))


def test_the_statehood_draw_picks_the_first_chooser_and_the_games_alternate():
    rules = Rules(round="afternoon")
    a, b = POSTAL.index("PA"), POSTAL.index("NJ")  # A drew the 2nd state, B the 3rd: A is closer to 1
    assert (RANKS[a, STATEHOOD], RANKS[b, STATEHOOD]) == (2, 3)
    played = _play(rules, _afternoon_deal(rules, a, b), picks=((PLAY_RANKS,), (DASHING,)))
    assert played.chooser == 0 and played.picks == (PLAY_RANKS, DASHING)
    assert [g.game for g in played.games] == [(PLAY_RANKS, DASHING)[k % 2] for k in range(len(played.games))]
    flipped = _play(rules, _afternoon_deal(rules, b, a), picks=((DASHING,), (PLAY_RANKS,)))
    assert flipped.chooser == 1 and flipped.picks == (PLAY_RANKS, DASHING)  # B chose first


def test_the_second_chooser_cannot_choose_the_first_ones_game():
    rules = Rules(round="afternoon")
    state = State(ENGINE, rules, _afternoon_deal(rules, POSTAL.index("PA"), POSTAL.index("NJ")))
    first = state.decision(0)
    assert first.kind == "choose" and [int(g) for g in first.legal] == [0, 1, 2, 3]
    state.apply({0: STATE_IQ})
    second = state.decision(1)
    assert [int(g) for g in second.legal] == [BORDER_UP, DASHING, PLAY_RANKS]
    with pytest.raises(IllegalActionError, match="B's choose State IQ is not legal"):
        state.apply({1: Pick(STATE_IQ)})
    state.apply({1: BORDER_UP})
    assert state.observe(0).picks == (STATE_IQ, BORDER_UP) and state.observe(1).game == STATE_IQ


# ----- who goes first ------------------------------------------------------------------------
def test_the_border_up_winner_guesses_first_at_state_iq_and_a_tie_leaves_it_to_the_draw():
    rules = Rules(minutes=8)
    deal = _deal(rules, 4)
    for winner in (0, 1):
        played = _play(rules, deal, wins=[winner, 0, 0])
        assert played.games[0].winner == winner
        assert played.games[1].first == winner and played.games[1].played.first == winner
    tied = _play(rules, deal, wins=[None, 0, 0])
    assert tied.games[0].winner is None and tied.games[1].first is None
    drawn = deal.games[STATE_IQ][0]  # the statehood draw its own deal holds
    assert tied.games[1].played.first == drawn.first_guesser()


def test_the_first_turn_goes_to_the_latest_deciding_game_of_the_match():
    def seen(game, winner):
        return GameSeen(game, winner, 60.0, True, False)

    past = [seen(BORDER_UP, 0), seen(DASHING, 1)]
    assert first_player(Rules(), past, STATE_IQ) == 0  # the latest Border-Up of the match
    assert first_player(Rules(), past, PLAY_RANKS) == 1
    assert first_player(Rules(), [seen(BORDER_UP, None), seen(BORDER_UP, 1)][::-1], STATE_IQ) is None
    assert first_player(Rules(), past, DASHING) is None  # nobody is given Dashing States' first turn
    assert first_player(Rules(), [], STATE_IQ) is None  # no Border-Up yet: a draw


def test_the_dashing_states_winner_leads_first_at_play_the_ranks():
    rules = Rules(minutes=8)
    deal = _deal(rules, 6)
    for winner in (0, 1):
        played = _play(rules, deal, wins=[0, 0, winner])
        assert played.games[2].winner == winner
        assert played.games[3].first == winner and played.games[3].played.first_lead == winner
    tied = _play(rules, deal, wins=[0, 0, None])
    assert tied.games[2].winner is None and tied.games[3].first is None
    assert tied.games[3].played.first_lead == deal.games[PLAY_RANKS][0].drawn_first_lead()


# ----- the final -------------------------------------------------------------------------------
@pytest.mark.parametrize("plan, stops", [
    ([0, 0, 0], {"decided": True, "literal": True, "never": False}),          # 3-0
    ([1, 1, None], {"decided": True, "literal": True, "never": False}),       # win-win-tie
    ([0, None, 0], {"decided": True, "literal": False, "never": False}),      # win-tie-win: literal reading plays on
    ([None, 1, 1], {"decided": True, "literal": False, "never": False}),      # tie-win-win: likewise
    ([0, 1, 0], {"decided": False, "literal": False, "never": False}),        # 2-1 goes on
    ([0, None, None], {"decided": False, "literal": False, "never": False}),  # 1-0: the fourth game can level it
])
def test_the_final_stops_early_as_each_reading_says(plan, stops):
    for early_stop, stop in stops.items():
        rules = Rules(round="final", early_stop=early_stop)
        played = _play(rules, _deal(rules, 7), wins=plan)
        assert [g.winner for g in played.games[:3]] == plan
        assert len([g for g in played.games if not g.tiebreak]) == (3 if stop else 4), early_stop
        assert final_decided(rules, played.games[:3]) == stop
    default = _play(Rules.preset("final"), _deal(Rules(round="final"), 7), wins=plan)
    assert len([g for g in default.games if not g.tiebreak]) == (3 if stops["decided"] else 4)


def test_the_final_stops_exactly_when_the_fourth_game_cannot_change_the_champion():
    """Every way three games can go: the default reading stops the final exactly where no
    result of the fourth (a win either way, or a tie) changes who is champion."""
    rules = Rules(round="final")
    for plan in itertools.product((0, 1, None), repeat=3):
        past = [GameSeen(g, w, 60.0, True, False) for g, w in zip(MORNING, plan)]
        won = [plan.count(0), plan.count(1)]
        ahead = 0 if won[0] > won[1] else 1
        settled = all(won[ahead] + (w == ahead) > won[1 - ahead] + (w == 1 - ahead) for w in (0, 1, None))
        assert final_decided(rules, past) == settled, plan


def test_a_level_final_goes_to_border_up_tie_breakers_until_one_is_won():
    rules = Rules(round="final")
    for seed in range(40):  # A wins Border-Up, ties the rest but Play the Ranks, which B must win
        played = _play(rules, _deal(rules, seed), wins=[0, None, None, "random", None, None, 1], seed=seed)
        if played.games[3].winner == 1:
            break
    else:
        pytest.fail("no deal gave B Play the Ranks")
    kinds = [(g.game, g.tiebreak) for g in played.games]
    assert kinds == [(BORDER_UP, False), (STATE_IQ, False), (DASHING, False), (PLAY_RANKS, False)] + \
        [(BORDER_UP, True)] * 3
    assert played.wins == (1, 1) and played.winner == 1  # the third tie-breaker decides it
    assert [g.slot for g in played.games if g.game == BORDER_UP] == [0, 1, 2, 3]


def test_a_final_whose_tie_breakers_all_tie_is_a_tie():
    rules = Rules(round="final", tiebreaks=2)
    for seed in range(40):
        played = _play(rules, _deal(rules, seed), wins=[0, None, None, "random", None, None], seed=seed)
        if played.games[3].winner == 1:
            break
    assert len(played.games) == 6 and played.winner is None
    np.testing.assert_allclose(played.scores(), [0.5, 0.5])


# ----- the clock -------------------------------------------------------------------------------
def test_the_timing_model_gives_each_games_seconds():
    rules = Rules()
    deal = _deal(rules, 8)
    border = deal.games[BORDER_UP][0]
    assert len(border.deals) == 1 and has_solution(rules.border_up, border.deals[0]) and \
        any(len(h) for h in border.deals[0])
    played = _play(rules, deal, wins=[0, 0, 0])
    bu, iq, ds, pr = played.games[:4]
    # Border-Up: its setup, the race to A's claim at 1 s (B's wrong claim at 2 s comes later), the check
    assert bu.seconds == pytest.approx(45 + 1 + 10)
    # State IQ: A guesses first and right; B's one wrong guess ends it (it can no longer win): 2 turns
    assert sum(len(p.guesses) for p in iq.played.phases) == 2 and iq.seconds == pytest.approx(20 + 2 * 15)
    # Dashing States: the race to A's shout at 1 s, then A announces its 4 states and capitals
    assert ds.seconds == pytest.approx(30 + 1 + 4 * 4)
    # Play the Ranks: the discards and each trick played
    assert pr.seconds == pytest.approx(45 + 20 + 12 * len(pr.played.tricks))
    assert played.clock == pytest.approx(sum(g.seconds for g in played.games))


def test_a_border_up_nobody_claims_lasts_until_the_later_team_gives_up():
    rules = Rules(round="final")
    played = _play(rules, _deal(rules, 8), wins=[None, 0, 0])
    assert played.games[0].seconds == pytest.approx(45 + 5)  # both searched 5 s; no claim to check


# ----- chance and hidden information -----------------------------------------------------------
def _chance_stepped(rules: Rules, seed: int):
    """A match stepped by chance (no deal) with random legal answers; the states before each
    decision."""
    rng = np.random.default_rng(seed)
    state = State(ENGINE, rules, None)
    before = []
    while not state.is_over():
        if state.is_chance():
            state.apply_chance(state.node.sample(rng))
            continue
        before.append(state.clone())
        answers = {}
        for d in state.decisions():
            a = d.legal[int(rng.integers(len(d.legal)))]
            answers[d.seat] = Claim(a, float(rng.exponential(2.0))) if d.timed else a
        state.apply(answers)
    return state, before


@pytest.mark.parametrize("preset", ["afternoon", "final"])
def test_the_deal_a_chance_stepped_match_made_replays_it(preset):
    rules = Rules.preset(preset)
    state, _ = _chance_stepped(rules, 9)
    outcomes = [v for k, v in state.log if k == "chance"]
    deal = ENGINE.deal_from_chance(rules, outcomes)
    again = State(ENGINE, rules, deal, [e for e in state.log if e[0] == "ask"])
    assert again.is_over()
    assert [(g.game, g.winner, g.seconds) for g in again.played.games] == \
        [(g.game, g.winner, g.seconds) for g in state.played.games]
    assert again.played.choice_draw == state.played.choice_draw
    for seat in (0, 1):  # what each seat saw at the end, the draws it was shown included
        assert again.observe(seat) == state.observe(seat)


@pytest.mark.parametrize("preset, every", [("afternoon", 7), ("final", 3)])
def test_resampling_a_chance_stepped_match_keeps_what_the_seat_saw_and_redeals_the_rest(preset, every):
    rules = Rules.preset(preset)
    _, states = _chance_stepped(rules, 10)
    rng = np.random.default_rng(11)
    changed = 0
    for state in states[::every]:
        for d in state.decisions():
            other = state.resample(d.seat, rng)
            assert other.observe(d.seat) == state.observe(d.seat)
            assert other.decision(d.seat).legal == d.legal
            changed += other.deal_so_far() != state.deal_so_far()
    assert changed > 0


@pytest.mark.parametrize("preset", ["morning", "afternoon"])
def test_a_long_match_determinized_from_a_seats_view_is_at_the_same_node(preset):
    """A morning or afternoon match (the registry-wide test steps only the short forms): every
    eighth decision of random play and the end, determinized from a seat's view alone, show that
    seat the same view (past games played anew to end with the same winner and seconds, so the
    clock is the same to the second) and the same legal actions."""
    rules = Rules.preset(preset)
    rng = np.random.default_rng(11)
    state = ENGINE.state(rules, deal_one(rules, rng))
    k = 0
    while True:
        seats = (0, 1) if state.is_over() else state.to_move()
        if state.is_over() or k % 8 == 0:
            for seat in seats:
                other = ENGINE.determinize(rules, seat, state.observe(seat), rng)
                assert other.observe(seat) == state.observe(seat)
                assert other.is_over() if state.is_over() else other.decision(seat).legal == state.decision(seat).legal
        if state.is_over():
            break
        state.apply({d.seat: Claim(d.legal[int(rng.integers(len(d.legal)))], float(rng.exponential(20.0))) if d.timed
                     else d.legal[int(rng.integers(len(d.legal)))] for d in state.decisions()})
        k += 1
    assert len(state.played.games) > 4
