"""Play the Ranks on the step-wise state (`geolab.stepwise`): the engine stepped node by node
plays the games `play` plays, action indices name each legal action once, observations are
blind to what a seat cannot see, `resample` keeps a seat's view and the log, `determinize`
builds a state from a View alone, chance can be stepped, a clone is its own game, and a seat
that answers Decisions plays the batch engine's Views as the engine would ask them.
Hand-worked cases pin the index scheme and the text."""

from collections import Counter

import numpy as np
import pytest

from geolab.errors import IllegalActionError
from geolab.games.ranks.game import GAME
from geolab.games.ranks.observations import HEAD, TRICK
from geolab.games.ranks.records import to_record
from geolab.games.ranks.reference import ByDecision, Deal, Lead, deal_one, decision, play
from geolab.games.ranks.rules import PRESETS, Rules
from geolab.stepwise import Ask, Chance, State

#: Every preset, and two variants for the other branches of the index scheme: discards
#: numbered within the hand (4 of 12) and a lead choosing among three bases.
RULES = {name: Rules.preset(name) for name in PRESETS} | {
    "discard4": Rules.preset("combo1").replace(hand_size=12, discards=4),
    "lead3": Rules.preset("battle2").replace(lead_bases=(1, 25, 50)),
}
CASES = list(RULES)


class RandomLegal:
    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)

    def act(self, decision):
        return decision.legal[int(self.rng.integers(len(decision.legal)))]


def decision_states(rules, deal, seed):
    """Every state of a random game at a decision node, then the finished one."""
    state, seats = GAME.state(rules, deal), [RandomLegal(seed), RandomLegal(seed + 1)]
    while not state.is_over():
        yield state
        state.apply({d.seat: seats[d.seat].act(d) for d in state.decisions()})
    yield state


def finished(rules, deal, seed) -> State:
    *_, state = decision_states(rules, deal, seed)
    return state


@pytest.mark.parametrize("case", CASES)
def test_a_state_stepped_by_hand_is_the_game_play_plays(case):
    rules, rng = RULES[case], np.random.default_rng(1)
    for g in range(3):
        deal = GAME.deal(rules, rng)
        state = finished(rules, deal, 10 * g)
        played = GAME.play(rules, deal, [RandomLegal(10 * g), RandomLegal(10 * g + 1)])
        assert state.played == played and to_record(state.played) == to_record(played)
        assert len(state.log) <= GAME.max_length(rules)


@pytest.mark.parametrize("case", CASES)
def test_every_legal_action_has_its_own_index_and_the_index_gives_it_back(case):
    rules, rng = RULES[case], np.random.default_rng(2)
    n = GAME.num_actions(rules)
    assert n <= 100_000
    kinds = set()
    for g in range(3):
        for state in decision_states(rules, GAME.deal(rules, rng), g):
            for d in state.decisions():
                kinds.add(d.kind)
                ids = [GAME.action_id(rules, d, a) for a in d.legal]
                assert all(0 <= i < n for i in ids) and len(set(ids)) == len(ids)
                assert [GAME.action_of(rules, d, i) for i in ids] == list(d.legal)
                for bad in sorted(set(range(-1, n + 1)) - set(ids))[:: max(1, n // 40)]:
                    with pytest.raises(IllegalActionError, match=d.where):
                        GAME.action_of(rules, d, bad)
                with pytest.raises(IllegalActionError):
                    GAME.action_id(rules, d, "not an action")
    asked = {"declare"} if rules.declarations else set()
    assert kinds == {"follow", "lead"} | asked | ({"discard"} if rules.discards else set())


def test_the_index_scheme_by_hand():
    combo1, battle2, geodouble = (Rules.preset(p) for p in ("combo1", "battle2", "geodouble"))
    assert [GAME.num_actions(r) for r in (combo1, battle2, geodouble)] == [252, 402, 1427]
    assert GAME.num_actions(RULES["discard4"]) == 202 + 495  # C(12, 4) discards, within the hand

    def decision(rules, deal, kind):
        return next(d for s in decision_states(rules, deal, 0) for d in s.decisions() if d.kind == kind)

    deal = Deal((tuple(range(9)), tuple(range(9, 18))), None, None, 0)  # A: cards 0-8 (AL..FL), B: 9-17 (GA..LA)
    follow = decision(combo1, deal, "follow")
    assert [GAME.action_id(combo1, follow, c) for c in follow.legal] == list(follow.legal)  # a follow: its card
    lead = decision(combo1, deal, "lead")
    assert GAME.action_id(combo1, lead, Lead(5, 2, 1)) == 50 + 5 * 3 + 2  # card 5, population, the fixed base
    battle = Deal(deal.hands, None)
    lead = decision(battle2, battle, "lead")
    assert GAME.action_of(battle2, lead, 50 + (lead.legal[-1].card * 3 + 2) * 2 + 1) == lead.legal[-1]
    assert lead.legal[-1].base == 50 and lead.legal[-1].category == 2
    assert GAME.action_id(battle2, decision(battle2, battle, "declare"), True) == 50 + 300 + 1
    discard = decision(geodouble, Deal((tuple(range(8)), tuple(range(8, 16))), None, None, 0), "discard")
    assert GAME.action_id(geodouble, discard, (2, 5)) == 202 + 2 + 10  # C(2, 1) + C(5, 2): the set's rank
    assert GAME.action_of(geodouble, discard, 202 + 12) == (2, 5)
    with pytest.raises(IllegalActionError, match="discards: index 1426 names no legal discard of A"):
        GAME.action_of(geodouble, discard, 1426)  # cards 48 and 49: not in A's hand


@pytest.mark.parametrize("case", CASES)
def test_observations_have_their_size_and_ignore_the_cards_a_seat_cannot_see(case):
    rules, rng = RULES[case], np.random.default_rng(3)
    size = GAME.tensor_size(rules)
    assert size == HEAD + TRICK * rules.tricks
    for state in decision_states(rules, GAME.deal(rules, rng), 4):
        for seat in (0, 1):
            view = state.observe(seat)
            text, tensor = GAME.observation_string(rules, seat, view), GAME.observation_tensor(rules, seat, view)
            assert tensor.shape == (size,) and tensor.dtype == np.float32 and text.startswith("AB"[seat])
            other = state.resample(seat, rng).observe(seat)
            assert GAME.observation_string(rules, seat, other) == text
            np.testing.assert_array_equal(GAME.observation_tensor(rules, seat, other), tensor)


def test_an_observation_by_hand():
    rules = Rules.preset("battle2")
    state = GAME.state(rules, Deal((tuple(range(9)), tuple(range(9, 18))), None))  # A: AL..FL, B: GA..LA
    state.apply({0: (7,), 1: (9,)})  # A discards DE (statehood 1st), B GA (4th): A leads
    state.apply({0: True})
    state.apply({1: False})
    state.apply({0: Lead(4, 2, 50)})  # CA face-down, population, base 50
    text = GAME.observation_string(rules, 1, state.observe(1))
    assert text == ("B | hand HI ID IL IN IA KS KY LA | discarded GA | A's discards DE | first lead A | "
                    "A declared, B passed | on the table: A led a face-down card population base 50")
    assert GAME.observation_string(rules, 0, state.observe(0)).endswith("on the table: A led CA population base 50")
    state.apply({1: 11})  # ID, population 39th: 11 from 50, CA (1st) 49: B wins
    tensor = GAME.observation_tensor(rules, 1, state.observe(1))
    assert tensor[1] == 1 and sorted(np.flatnonzero(tensor[2:52])) == [10, *range(12, 18)]
    assert np.flatnonzero(tensor[52:102]).tolist() == [9] and np.flatnonzero(tensor[102:152]).tolist() == [7]
    assert tensor[152] == 1 and tensor[154:158].tolist() == [1, 0, 0, 1]
    assert not tensor[160:HEAD].any()  # nothing on the table
    trick = tensor[HEAD:HEAD + TRICK]
    assert np.flatnonzero(trick).tolist() == [0, 2 + 4, 52 + 2, 55, 56 + 11, 106 + 1] and trick[55] == 1.0
    assert not tensor[HEAD + TRICK:].any()
    assert GAME.observation_string(rules, 1, state.observe(1)).endswith(
        "A declared, B passed | trick 1: A led CA population base 50, B answered ID, B won")


def put_down(log, side, rules=None) -> set:
    """The cards `side` discarded or played in a State log; given the rules, only those it
    showed its opponent (played face-up, discarded in public)."""
    cards = set()
    for k, (_, answers) in enumerate(log):
        a = answers.get(side)
        if isinstance(a, Lead):
            if rules is None or not (rules.hidden_lead and k == len(log) - 1):  # not face-down on the table
                cards.add(a.card)
        elif isinstance(a, tuple):
            if rules is None or rules.discards_public:
                cards.update(a)
        elif a is not None and not isinstance(a, bool):
            cards.add(a)
    return cards


def every_view(rules, rng, seed):
    """(state, seat) for both seats at every decision of two random games."""
    for g in range(2):
        for state in decision_states(rules, GAME.deal(rules, rng), seed + g):
            yield from ((state, seat) for seat in (0, 1))


def assert_alike(state, seat, draws) -> None:
    """Every state of `draws` (made for `seat` from `state`) shows it the same at the same
    node after its own moves, deals it its own hand and the opponent every card the draw's log
    puts down and the real game has shown; the opponent's hands vary where it holds a card
    `seat` has not seen."""
    shown = put_down(state.log, 1 - seat, state.rules)
    for other in draws:
        assert other.observe(seat) == state.observe(seat) and len(other.log) == len(state.log)
        assert [a.get(seat) for _, a in other.log] == [a.get(seat) for _, a in state.log]
        assert other.deal.hands[seat] == state.deal.hands[seat]
        assert put_down(other.log, 1 - seat) | shown <= set(other.deal.hands[1 - seat])
        if seat in state.to_move():
            assert other.decision(seat) == state.decision(seat)  # the same node, the same legal actions
    if len(shown) < state.rules.hand_size:
        assert len({o.deal.hands[1 - seat] for o in draws}) > 1


@pytest.mark.parametrize("case", CASES)
def test_resample_at_every_decision_keeps_the_view_and_the_seats_own_moves_and_deals_the_rest_anew(case):
    rng = np.random.default_rng(5)
    for state, seat in every_view(RULES[case], rng, 20):
        assert_alike(state, seat, [state.resample(seat, rng) for _ in range(4)])  # each replays its log on its deal


def test_resample_deals_the_unseen_cards_uniformly_and_chooses_a_hidden_discard_anew():
    rules, rng = Rules.preset("combo1"), np.random.default_rng(6)
    assert not rules.discards_public
    deal = GAME.deal(rules, rng)
    counts = Counter(c for _ in range(3000) for c in GAME.resample(rules, deal, [], 0, rng).deal.hands[1])
    unseen = set(range(50)) - set(deal.hands[0])  # the statehood draw is unseen too
    assert set(counts) == unseen
    assert all(abs(counts[c] / 3000 - 9 / 41) < 0.04 for c in unseen)
    state = GAME.state(rules, deal)
    state.apply({0: deal.hands[0][:1], 1: deal.hands[1][-1:]})
    discards = Counter()
    for _ in range(300):  # A never saw B's discard: each resample makes it anew, from B's new hand
        other = state.resample(0, rng)
        b = other.log[0][1][1]
        assert b[0] in other.deal.hands[1] and other.log[0][1][0] == deal.hands[0][:1]
        discards[b] += 1
    assert len(discards) > 30 and max(discards.values()) < 30
    assert GAME.resample(rules, deal, [], 0, rng).deal.first_lead == deal.drawn_first_lead()


def test_a_face_down_lead_is_chosen_anew_for_the_seat_that_follows_it():
    rules, rng = Rules.preset("battle2"), np.random.default_rng(8)
    assert rules.hidden_lead
    for state in decision_states(rules, GAME.deal(rules, rng), 3):
        follow = [d for d in state.decisions() if d.kind == "follow"]
        if not follow:
            continue
        seat = follow[0].seat
        lead = state.log[-1][1][1 - seat]
        cards = {state.resample(seat, rng).log[-1][1][1 - seat].card for _ in range(60)}
        assert len(cards) > 1  # B never saw the card: it varies over the resampled deals
        again = state.resample(seat, rng).log[-1][1][1 - seat]
        assert (again.category, again.base) == (lead.category, lead.base)
        break
    else:
        raise AssertionError("no follow to a face-down lead in the sample game")


@pytest.mark.parametrize("case", CASES)
def test_a_game_with_chance_stepped_plays_to_the_end_and_its_deal_replays_it(case):
    rules, rng = RULES[case], np.random.default_rng(7)
    for g in range(3):
        state, seats, kinds = GAME.state(rules), [RandomLegal(g), RandomLegal(g + 5)], []
        while not state.is_over():
            node = state.node
            if isinstance(node, Chance):
                kinds.append(node.kind)
                state.apply_chance(node.sample(rng))
            else:
                assert isinstance(node, Ask)
                state.apply({d.seat: seats[d.seat].act(d) for d in node.decisions})
        assert kinds == ["card"] * 2 * rules.hand_size + ["first lead"] * (rules.first_lead == "given") \
            + ["power card"] * 2 * (rules.base_mode == "power")
        assert len(state.log) <= GAME.max_length(rules)
        assert state.scores().sum() == pytest.approx(1.0)
        deal = state.deal_so_far()
        assert len(set(deal.hands[0]) | set(deal.hands[1])) == 2 * rules.hand_size
        again = State(GAME, rules, deal, [e for e in state.log if e[0] == "ask"])
        assert again.is_over() and again.played == state.played and again.observe(1) == state.observe(1)
    top = rules.deck - 1  # the deck's last card
    partial = GAME.deal_from_chance(rules, [top, top - 1])  # what chance has not dealt is filled in
    assert partial.hands[0][-2:] == (top - 1, top) \
        and len(set(partial.hands[0]) | set(partial.hands[1])) == 2 * rules.hand_size
    with pytest.raises(IllegalActionError, match="card: 49 is not a possible outcome"):
        GAME.deal_from_chance(rules, [49, 49])


def test_the_first_lead_is_either_side_alike_and_max_length_counts_every_node():
    rules = Rules.preset("combo1")
    state = GAME.state(rules)
    for c in range(18):
        state.apply_chance(c)
    assert state.node.kind == "first lead" and state.node.probabilities() == (0.5, 0.5)
    assert GAME.max_length(rules) == 18 + 1 + 2 + 16
    assert GAME.max_length(Rules.preset("battle3")) == 18 + 2 + 2 + 16
    assert GAME.max_length(Rules.preset("geodouble")) == 16 + 1 + 2 + 2 + 12


def test_a_clone_is_a_game_of_its_own():
    rules = Rules.preset("battle2")
    deal = GAME.deal(rules, np.random.default_rng(8))
    state = GAME.state(rules, deal, finished(rules, deal, 3).log[:6])
    copy, before, asked = state.clone(), state.observe(0), state.decisions()
    copy.apply({d.seat: d.legal[0] for d in copy.decisions()})
    assert len(copy.log) == len(state.log) + 1 and state.observe(0) == before and state.decisions() == asked
    state.apply({d.seat: d.legal[-1] for d in state.decisions()})
    assert copy.log[-1] != state.log[-1] and copy.clone().log == copy.log


def test_after_the_end_the_view_shows_the_finished_game_and_a_refusal_names_the_trick():
    rules = Rules.preset("combo1")
    state = finished(rules, GAME.deal(rules, np.random.default_rng(9)), 1)
    view = state.observe(1)
    assert view.history == tuple(state.played.tricks) and view.lead_category is None
    assert len(view.hand) == rules.tricks - len(state.played.tricks)
    state = GAME.state(rules, state.deal, state.log[:1])  # after the discards: the first lead
    with pytest.raises(IllegalActionError, match=r"^trick 1: [AB]'s lead [A-Z]{2} size base 50 is not legal"):
        state.apply({d.seat: Lead(d.legal[0].card, 0, 50) for d in state.decisions()})
    assert len(state.log) == 1


def test_method_seats_keep_their_discards_in_the_order_they_gave_them():
    rules = Rules.preset("geodouble")
    deal = deal_one(rules, np.random.default_rng(10))
    seen = []

    class Backwards:
        def discard(self, view):
            return view.hand[:2][::-1]

        def declare(self, view):
            return False

        def lead(self, view):
            seen.append(view.discards)
            return Lead(view.hand[0], 0)  # the base the rules fix is filled in

        def follow(self, view):
            seen.append(view.discards)
            return view.hand[0]

    game = play(rules, deal.hands, [Backwards(), Backwards()], deal.drawn_first_lead())
    assert game.discards == (deal.hands[0][:2][::-1], deal.hands[1][:2][::-1])
    assert set(seen) == set(game.discards)
    assert to_record(game)["discards"]["A"] == [to_record(game)["deal"]["A"][i] for i in (1, 0)]


@pytest.mark.parametrize("case", CASES)
def test_determinize_at_every_decision_builds_a_state_of_the_same_view_from_the_view_alone(case):
    rules, rng = RULES[case], np.random.default_rng(11)
    for state, seat in every_view(rules, rng, 30):
        view = state.observe(seat)
        assert_alike(state, seat, [GAME.determinize(rules, seat, view, rng) for _ in range(4)])


@pytest.mark.parametrize("case", ["combo1", "battle2"])
def test_determinize_never_reads_the_hidden_cards(case):
    """Two real games that differ only in what a seat cannot see (the opponent's cards, its
    hidden discard, a face-down lead) give that seat the same View, and determinize gives
    the same states from it under the same generator."""
    rules, rng = RULES[case], np.random.default_rng(12)
    differed = 0
    for state in decision_states(rules, GAME.deal(rules, rng), 40):
        for seat in (0, 1):
            other = state.resample(seat, rng)
            assert other.observe(seat) == state.observe(seat)
            differed += other.deal.hands[1 - seat] != state.deal.hands[1 - seat] or other.log != state.log
            for k in range(3):
                a = GAME.determinize(rules, seat, state.observe(seat), np.random.default_rng(k))
                b = GAME.determinize(rules, seat, other.observe(seat), np.random.default_rng(k))
                assert (a.deal, a.log) == (b.deal, b.log)
    assert differed > 10


def test_determinize_deals_the_unseen_cards_uniformly():
    rules, rng = Rules.preset("combo1"), np.random.default_rng(13)
    state = next(s for s in decision_states(rules, GAME.deal(rules, rng), 5) if len(s.log) == 5)  # trick 3, its lead
    seat = state.to_move()[0]
    view, shown = state.observe(seat), put_down(state.log, 1 - seat, rules)
    unseen = set(range(50)) - set(state.deal.hands[seat]) - shown
    counts = Counter(c for _ in range(2000) for c in GAME.determinize(rules, seat, view, rng).deal.hands[1 - seat])
    assert set(counts) == unseen | shown and all(counts[c] == 2000 for c in shown)
    share = (rules.hand_size - len(shown)) / len(unseen)
    assert all(abs(counts[c] / 2000 - share) < 0.05 for c in unseen)


def test_without_discards_determinize_stands_where_the_seat_decides():
    """With no discards (a variant) no empty discard is asked (it would be a node the first
    leader could not tell from the first lead): the game, and every determinized state, begins
    at the first lead."""
    rules, rng = Rules.preset("combo1").replace(hand_size=8, discards=0), np.random.default_rng(14)
    state = GAME.state(rules, GAME.deal(rules, rng))
    first = state.observe(0).first_lead
    for seat in (0, 1):
        det = GAME.determinize(rules, seat, state.observe(seat), rng)
        assert det.observe(seat) == state.observe(seat)
        assert [d.kind for d in det.decisions() if d.seat == seat] == (["lead"] if seat == first else [])
    assert [d.kind for d in state.decisions()] == ["lead"]


@pytest.mark.parametrize("case", CASES)
def test_the_decision_of_a_view_is_the_one_the_engine_asks(case):
    rules, rng = RULES[case], np.random.default_rng(15)
    for state in decision_states(rules, GAME.deal(rules, rng), 50):
        for d in state.decisions():
            assert decision(d.kind, d.observation) == d
    with pytest.raises(ValueError, match="no Play the Ranks decision"):
        decision("shuffle", state.observe(0))


class Middle:
    """A seat of Decisions: the middle legal action (the second seat: the one after it)."""

    def __init__(self, shift=0):
        self.shift, self.asked = shift, []

    def act(self, d):
        self.asked.append(d)
        return d.legal[(len(d.legal) // 2 + self.shift) % len(d.legal)]


@pytest.mark.parametrize("case", CASES)
def test_a_seat_of_decisions_plays_the_batch_engine_as_the_reference_engine(case):
    rules = RULES[case]
    batch = GAME.batch_records(rules, [GAME.seat_policy(Middle()), GAME.seat_policy(Middle(1))], 6, 16)
    for record in batch:
        game = GAME.replay(record)
        seats = [Middle(), Middle(1)]
        played = GAME.play(rules, Deal(game.hands, None, game.power_bases, game.first_lead), seats)
        assert to_record(played) == record
    assert ByDecision(Middle()).name == "Middle"
