"""Jumbled GeoPower Choice on the step-wise state (`geolab.stepwise`): stepping equals the
driver, fixed action indices, observations, resampling at every decision, chance nodes."""

from math import comb

import numpy as np
import pytest

from geolab.bots.jumbled.registry import BOTS, table_seat
from geolab.cards import N_CARDS, POSTAL
from geolab.errors import GeolabError, IllegalActionError
from geolab.games.jumbled.game import GAME
from geolab.games.jumbled.reference import Deal, RoundDeal
from geolab.games.jumbled.rules import Rules
from geolab.stepwise import State

RULES = {
    "standard": Rules.preset("standard"),
    "teams": Rules.preset("teams"),
    "2p-known-deck": Rules(players=2, geopower_deck=(1, 1, 0), target=20),  # set 3 turns set 1's card again
    "3-card-sets": Rules(players=3, cards_dealt=8, cards_to_play=7, sets_per_round=4, max_cards_per_set=3,
                         bonus=(0, 0, 5, 10, 20), geopower_deck=(2, 1, 1), used_to_bottom=False, target=30),
    "hand-slots": Rules(players=2, cards_dealt=9, cards_to_play=8, sets_per_round=2, max_cards_per_set=4,
                        bonus=(0, 0, 5), target=20),  # 4 cards a set: choices indexed by hand slots
}


def card(code):
    return POSTAL.index(code)


def random_answers(state, rng):
    return {d.seat: d.legal[int(rng.integers(len(d.legal)))] for d in state.decisions()}


def walk(rules, seed, deal=None):
    """A random game stepped to its end: the state at every decision, in order (each a clone),
    and the finished state. Chance, if stepped, draws from its own distribution."""
    rng = np.random.default_rng(seed)
    state = GAME.state(rules, GAME.deal(rules, rng) if deal == "dealt" else None)
    asked = []
    while not state.is_over():
        if state.is_chance():
            state.apply_chance(state.node.sample(rng))
        else:
            asked.append(state.clone())
            state.apply(random_answers(state, rng))
    return asked, state


def test_stepping_a_state_by_hand_is_the_driver_with_the_same_seats():
    rules = Rules(players=3).validate()
    bot = BOTS.make("heuristic", rules)
    for g in range(3):
        deal = GAME.deal(rules, np.random.default_rng(g))
        played = GAME.play(rules, deal, [table_seat(bot, rules, np.random.default_rng([g, p])) for p in range(3)])
        seats = [table_seat(bot, rules, np.random.default_rng([g, p])) for p in range(3)]
        state = State(GAME, rules, deal)
        while not state.is_over():
            state.apply({d.seat: seats[d.seat].act(d) for d in state.decisions()})
        assert GAME.to_record(state.played) == GAME.to_record(played)
        assert len(state.log) <= GAME.max_length(rules)


def test_a_round_is_the_call_then_one_simultaneous_ask_a_set_each_decision_saying_where():
    rules = Rules(players=3).validate()
    state = GAME.state(rules, GAME.deal(rules, np.random.default_rng(0)))
    assert state.to_move() == (0,) and state.decision(0).kind == "call" and state.decision(0).where == "round 1"
    state.apply({0: "bottoms-up"})
    for s in range(3):
        assert state.to_move() == (0, 1, 2) and {d.where for d in state.decisions()} == {f"set {s + 1} of round 1"}
        for d in state.decisions():
            assert state.observe(d.seat) == d.observation  # the node's views are its decisions' observations
        state.apply({d.seat: d.legal[-1] for d in state.decisions()})
    assert state.to_move() == (1,) and state.decision(1).where == "round 2"  # the deal passes left
    with pytest.raises(IllegalActionError, match="round 2: B's call 'sideways' is not legal"):
        state.apply({1: "sideways"})


def test_clone_is_independent_of_the_original():
    rules = Rules(players=2).validate()
    state = GAME.state(rules, GAME.deal(rules, np.random.default_rng(4)))
    state.apply({0: "top-dog"})
    copy = state.clone()
    before = copy.observe(0)
    state.apply({d.seat: d.legal[0] for d in state.decisions()})
    assert copy.observe(0) == before and copy.log == state.log[:1] and len(state.log) == 2
    copy.apply({d.seat: d.legal[1] for d in copy.decisions()})
    assert copy.observe(0).sets[0].plays != state.observe(0).sets[0].plays


@pytest.mark.parametrize("name", RULES)
def test_every_legal_action_has_a_fixed_index_in_range_unique_and_read_back(name):
    rules = RULES[name].validate()
    n = GAME.num_actions(rules)
    assert n <= 100_000
    asked, _ = walk(rules, 1, deal="dealt")
    for state in asked[:40]:
        for d in state.decisions():
            ids = [GAME.action_id(rules, d, a) for a in d.legal]
            assert all(0 <= i < n for i in ids) and len(set(ids)) == len(ids)
            assert [GAME.action_of(rules, d, i) for i in ids] == list(d.legal)
            spare = next(i for i in range(n) if i not in set(ids))
            with pytest.raises(IllegalActionError, match="names no legal"):
                GAME.action_of(rules, d, spare)


def test_a_choice_is_indexed_by_its_cards_whatever_the_hand():
    rules = Rules(players=2).validate()  # sets of 1 or 2 cards: 2 calls, 50 singles, 1,225 pairs
    assert GAME.num_actions(rules) == 2 + 50 + comb(50, 2)
    hand = tuple(card(x) for x in "TX CA NY FL DE WY".split())
    rd = RoundDeal((hand, tuple(card(x) for x in "SD AK RI VT PA NV".split())), (0,) * 5 + (1,) * 5 + (2,) * 5)
    state = GAME.state(rules, Deal(0, (rd,)))
    assert [GAME.action_id(rules, state.decision(0), c) for c in ("top-dog", "bottoms-up")] == [0, 1]
    state.apply({0: "top-dog"})
    d = state.decision(0)
    tx, ca = card("TX"), card("CA")
    assert GAME.action_id(rules, d, (tx,)) == 2 + tx
    assert GAME.action_id(rules, d, (tx, ca)) == 2 + 50 + comb(min(tx, ca), 1) + comb(max(tx, ca), 2)
    assert GAME.action_of(rules, d, 2 + 50 + comb(min(tx, ca), 1) + comb(max(tx, ca), 2)) == (tx, ca)  # dealt order
    for bad in (-1, GAME.num_actions(rules), 1.5, True):
        with pytest.raises(IllegalActionError):
            GAME.action_of(rules, d, bad)
    with pytest.raises(IllegalActionError, match="names no legal choose"):
        GAME.action_of(rules, d, 0)  # a call's index on a set choice
    with pytest.raises(IllegalActionError, match="is not legal"):
        GAME.action_id(rules, d, (card("SD"),))
    slots = RULES["hand-slots"].validate()
    assert GAME.num_actions(slots) == 2 + (1 << 9) - 1


@pytest.mark.parametrize("name", ["standard", "teams", "2p-known-deck", "3-card-sets"])
def test_resampling_at_every_decision_keeps_what_the_seat_saw_and_redeals_the_rest(name):
    rules = RULES[name].validate()
    rng = np.random.default_rng(7)
    asked, _ = walk(rules, 2, deal="dealt")
    size = GAME.tensor_size(rules)
    varied = 0
    for state in asked:
        for seat in range(rules.players):
            seen = state.observe(seat)
            text, tensor = GAME.observation_string(rules, seat, seen), GAME.observation_tensor(rules, seat, seen)
            assert tensor.shape == (size,) and tensor.dtype == np.float32
            others = set()
            for _ in range(3):
                other = state.resample(seat, rng)  # the log replayed on the new deal: still legal
                assert other.log == state.log and other.to_move() == state.to_move()
                assert other.observe(seat) == seen
                assert GAME.observation_string(rules, seat, other.observe(seat)) == text
                assert np.array_equal(GAME.observation_tensor(rules, seat, other.observe(seat)), tensor)
                r = seen.round_index
                others.add(tuple(other.deal.round(rules, r).hands[p] for p in range(rules.players) if p != seat))
            varied += len(others) > 1
    assert varied >= len(asked) * rules.players * 0.9  # the hidden cards really change


def test_resample_keeps_the_laid_cards_in_their_order_and_draws_the_rest_of_the_deck_anew():
    rules = Rules(players=2).validate()
    asked, _ = walk(rules, 3, deal="dealt")
    state = asked[3]  # round 1, set 3
    rng = np.random.default_rng(0)
    real = state.deal.round(rules, 0)
    decks = set()
    for _ in range(20):
        rd = state.resample(0, rng).deal.round(rules, 0)
        assert rd.hands[0] == real.hands[0] and rd.geopower[:2] == real.geopower[:2]
        assert sorted(rd.geopower) == sorted(real.geopower)
        assert len({c for h in rd.hands for c in h}) == 12
        for answers in (answers for kind, answers in state.log[1:] if kind == "ask"):
            laid = answers[1]
            assert [c for c in rd.hands[1] if c in laid] == list(laid)
        decks.add(rd.geopower[2:])
    assert len(decks) > 1


def test_resampling_before_anything_is_seen_keeps_nothing_and_a_bad_seat_is_one_line():
    rules = Rules().validate()
    rng = np.random.default_rng(3)
    deal = GAME.deal(rules, rng)
    assert GAME.resample(rules, deal, [], 0, rng).fixed == ()  # the first dealer has seen nothing
    with pytest.raises(GeolabError, match="seat 4: the seats are 0-3"):
        GAME.resample(rules, deal, [], 4, rng)


def test_chance_nodes_deal_card_by_card_and_turn_each_geopower_card_in_proportion():
    rules = Rules(players=2).validate()
    state = GAME.state(rules)
    assert not state.is_chance() and state.to_move() == (0,)  # the call comes before the deal
    state.apply({0: "top-dog"})
    rng = np.random.default_rng(1)
    for k in range(12):
        assert state.node.kind == "card" and len(state.node.outcomes) == N_CARDS - k
        state.apply_chance(state.node.sample(rng))
    state.apply({d.seat: d.legal[0] for d in state.decisions()})
    assert state.node.kind == "geopower" and state.node.probabilities() == (1 / 3, 1 / 3, 1 / 3)
    state.apply_chance(0)
    state.apply({d.seat: d.legal[0] for d in state.decisions()})
    assert state.node.outcomes == (0, 1, 2) and state.node.probs == (4 / 14, 5 / 14, 5 / 14)
    known = GAME.state(Rules(players=2, geopower_deck=(1, 1, 0)), None)
    known.apply({0: "top-dog"})
    for _ in range(12):
        known.apply_chance(known.node.outcomes[0])
    known.apply({d.seat: d.legal[0] for d in known.decisions()})
    known.apply_chance(1)
    known.apply({d.seat: d.legal[0] for d in known.decisions()})
    assert known.node.outcomes == (0,) and known.node.probs == (1.0,)  # only size is left
    known.apply_chance(0)
    known.apply({d.seat: d.legal[0] for d in known.decisions()})
    assert not known.is_chance() and known.observe(0).history[0][2][2].category == 1  # the deck came round again


@pytest.mark.parametrize("name", RULES)
def test_a_chance_stepped_game_ends_validly_and_its_outcomes_make_its_deal(name):
    rules = RULES[name].validate()
    for seed in range(2):
        asked, state = walk(rules, seed)
        played = state.played
        assert played.over and len(state.log) <= GAME.max_length(rules)
        for rnd in played.rounds:
            assert len({c for h in rnd.hands for c in h}) == rules.players * rules.cards_dealt
        record = GAME.to_record(played)
        assert GAME.report(GAME.replay(record)) == GAME.report(played)
        deal = GAME.deal_from_chance(rules, [v for kind, v in state.log if kind == "chance"])
        again = State(GAME, rules, deal, [e for e in state.log if e[0] == "ask"])
        assert again.is_over() and GAME.to_record(again.played) == record
        for at in asked[::7]:  # resampling a chance-stepped state
            seat = at.to_move()[0]
            assert at.resample(seat, np.random.default_rng(seed)).observe(seat) == at.observe(seat)


def test_chance_stepped_games_deal_as_the_seeded_deals_do():
    """The first GeoPower card and the cards dealt are uniform under both."""
    rules = Rules(players=2).validate()
    rng = np.random.default_rng(5)
    stepped, seeded = np.zeros(3), np.zeros(3)
    first_cards = np.zeros(N_CARDS)
    for _ in range(600):
        state = GAME.state(rules)
        state.apply({0: "top-dog"})
        while state.is_chance():
            state.apply_chance(state.node.sample(rng))
        first_cards[list(state.observe(0).hand)] += 1
        state.apply({d.seat: d.legal[0] for d in state.decisions()})
        stepped[state.node.sample(rng)] += 1
        seeded[GAME.deal(rules, rng).round(rules, 0).geopower[0]] += 1
    assert np.all(np.abs(stepped / 600 - 1 / 3) < 0.07) and np.all(np.abs(seeded / 600 - 1 / 3) < 0.07)
    assert first_cards.sum() == 3600 and first_cards.min() > 40 and first_cards.max() < 110


def test_a_record_in_any_card_order_replays_on_the_state_and_keeps_its_order():
    rules = Rules(players=2).validate()
    asked, state = walk(rules, 6, deal="dealt")
    record = GAME.to_record(state.played)
    first = record["rounds"][0]["sets"]
    pair = next(st for st in first if len(st["plays"]["A"]) == 2)
    pair["plays"]["A"].reverse()
    assert GAME.to_record(GAME.replay(record))["rounds"] == record["rounds"]
    assert GAME.report(GAME.replay(record)) == GAME.report(state.played)


def test_observation_text_and_tensor_say_what_the_seat_knows():
    rules = Rules(players=2).validate()
    hands = (tuple(card(x) for x in "TX CA NY FL DE WY".split()), tuple(card(x) for x in "SD AK RI VT PA NV".split()))
    state = GAME.state(rules, Deal(0, (RoundDeal(hands, (0,) * 5 + (1,) * 5 + (2,) * 5),)))
    text = GAME.observation_string(rules, 1, state.observe(1))
    assert text.splitlines()[0] == "Seat B: round 1, A to call" and "TX" not in text
    state.apply({0: "top-dog"})
    state.apply({0: (card("TX"), card("CA")), 1: (card("SD"),)})
    text = GAME.observation_string(rules, 1, state.observe(1))
    assert text.splitlines()[0] == "Seat B: round 1, set 2 of 3"
    assert "Dealt: SD AK RI VT PA NV" in text and "Held: AK RI VT PA NV" in text and "NY" not in text
    assert "  A        TX 2 + CA 3 = 5" in text
    tensor = GAME.observation_tensor(rules, 1, state.observe(1))
    P, S = 2, 3
    assert GAME.tensor_size(rules) == 2 * P + 2 + 1 + P + S + 1 + 100 + S * (3 + P * 51) == len(tensor)
    assert tensor[1] == 1 and tensor[P] == 1 and tensor[2 * P] == 1  # seat B, dealer A, Top Dog
    sets = 2 * P + 3 + P + S + 1 + 100
    assert tensor[sets] == 1 and tensor[sets + 3 + card("TX")] == 1 and tensor[sets + 3 + 50 + card("SD")] == 1
    assert tensor[sets + 3 + 100] == 1 and tensor[sets + 3 + 101] == 0  # A won set 1
    assert tensor[sets + 3 + 2 * 51:].sum() == 0  # sets 2 and 3 are still to come


def test_determinize_keeps_what_the_view_shows_and_deals_the_unseen_cards_uniformly():
    """Round 2, set 2 of a two-player game, from seat B's View alone: its hand, every laid card
    and turned GeoPower card stay; A's unplayed cards of this round are uniform over the
    cards B has not seen, and so are A's and B's own unplayed cards of round 1 (which the View
    does not keep); the state stands where the real one does."""
    rules = Rules(players=2).validate()
    rng = np.random.default_rng(21)
    asked, _ = walk(rules, 5, deal="dealt")
    state = next(s for s in asked if s.observe(1).round_index == 1 and s.observe(1).set_index == 1)
    view = state.observe(1)
    laid = {c for x in view.sets for play in x.plays for c in play}
    unseen = set(range(N_CARDS)) - set(view.hand) - laid
    counts, earlier = np.zeros(N_CARDS), set()
    for _ in range(600):
        other = GAME.determinize(rules, 1, view, rng)
        assert other.log == state.log and other.observe(1) == view
        now = other.deal.round(rules, 1)
        assert now.hands[1] == view.hand and now.geopower[0] == view.sets[0].category
        held = set(now.hands[0]) - laid
        assert held <= unseen and len(held) == rules.cards_dealt - len(view.sets[0].plays[0])
        counts[list(held)] += 1
        earlier.add(other.deal.round(rules, 0).hands)
    share = (rules.cards_dealt - len(view.sets[0].plays[0])) / len(unseen)
    assert all(abs(counts[c] / 600 - share) < 0.05 for c in unseen)
    assert counts[list(set(range(N_CARDS)) - unseen)].sum() == 0
    assert len(earlier) > 100  # round 1's unplayed cards are dealt anew too


def test_determinize_refuses_a_view_that_is_not_the_seats_in_one_line():
    rules = Rules(players=3).validate()
    asked, _ = walk(rules, 1, deal="dealt")
    view = asked[2].observe(0)
    with pytest.raises(GeolabError, match="not seat B's view"):
        GAME.determinize(rules, 1, view, np.random.default_rng(0))
    with pytest.raises(GeolabError, match="seat 3 is not at the table"):
        GAME.determinize(rules, 3, view, np.random.default_rng(0))
    with pytest.raises(GeolabError, match="under these rules"):
        GAME.determinize(Rules(players=3, target=30).validate(), 0, view, np.random.default_rng(0))


@pytest.mark.parametrize("name", ["2p-known-deck", "teams"])
def test_an_exchange_trades_one_unseen_card_and_is_as_likely_back(name):
    """Each exchange of a determinized deal keeps the seat's View and the log, trades exactly
    two cards of one round (one of them unseen in another seat's hand, the other neither
    laid nor the seat's own), reaches this round and earlier ones, and the number of moves
    from the new deal (and so the chance of the move back) is the number from the old."""
    rules = RULES[name].validate()
    rng = np.random.default_rng(9)
    asked, _ = walk(rules, 4, deal="dealt")
    rounds_traded = set()

    def moves(deal, log, seat):  # (x choices) x (y choices) as `exchange` counts them
        S = rules.sets_per_round
        asks = [a for kind, a in log if kind == "ask"]
        total = 0
        for r in range(-(-len(asks) // (1 + S))):
            hands = deal.round(rules, r).hands
            laid = {c for a in asks[r * (1 + S) + 1:(r + 1) * (1 + S)] for cards in a.values() for c in cards}
            for p, hand in enumerate(hands):
                if p != seat:
                    xs = [c for c in hand if c not in laid]
                    total += len(xs) * (N_CARDS - len(laid | set(hands[seat]) | set(hand)))
        return total

    for state in asked[1::3]:
        seat = state.to_move()[0]
        view = state.observe(seat)
        det = GAME.determinize(rules, seat, view, rng)
        new = GAME.exchange(rules, det.deal, det.log, seat, rng)
        assert list(new.log) == det.log and GAME.state(rules, new.deal, new.log).observe(seat) == view
        changed = [r for r in range(view.round_index + 1) if new.deal.round(rules, r) != det.deal.round(rules, r)]
        assert len(changed) == 1
        r = changed[0]
        before, after = det.deal.round(rules, r), new.deal.round(rules, r)
        diff = {c for h in before.hands for c in h} ^ {c for h in after.hands for c in h}
        moved = [(p, i) for p in range(rules.players) for i in range(rules.cards_dealt)
                 if before.hands[p][i] != after.hands[p][i]]
        assert len(diff) <= 2 and 1 <= len(moved) <= 2 and all(p != seat for p, _ in moved)
        assert moves(new.deal, new.log, seat) == moves(det.deal, det.log, seat)
        rounds_traded.add(r == view.round_index)
    assert rounds_traded == {True, False}


def test_random_states_its_probabilities_and_plays_by_them():
    """`random` (random call) says every decision is uniform over its legal actions, and its
    play at a reference decision matches; with a fixed call it states none (the call is sure)."""
    rules = Rules(players=2).validate()
    state = GAME.state(rules, GAME.deal(rules, np.random.default_rng(2)))
    call = state.decision(0)
    bot = BOTS.make("random", rules)
    assert bot.probabilities(call) == {c: 0.5 for c in call.legal}
    state.apply({0: "top-dog"})
    choose = state.decision(1)
    stated = bot.probabilities(choose)
    assert set(stated) == set(choose.legal) and sum(stated.values()) == pytest.approx(1.0)
    seat = table_seat(bot, rules, np.random.default_rng(3))
    counts = {a: 0 for a in choose.legal}
    for _ in range(2100):
        counts[seat.act(choose)] += 1
    assert all(abs(n / 2100 - stated[a]) < 0.03 for a, n in counts.items())  # 21 choices, 1/21 each
    assert BOTS.make("random:call=top-dog", rules).probabilities is None
