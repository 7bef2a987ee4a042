"""The compiled ISMCTS seat: legal in every preset and odd state, repeatable, blind to hidden
cards, its rollout is the greedy seats' game, and its tree's statistics add up."""

from dataclasses import replace

import numpy as np
import pytest
from seat_games import two_games

from geolab.bots.ranks.ismcts import ISMCTSSeat, _masks, deal_rules
from geolab.bots.ranks.ismcts_kernel import rollout
from geolab.bots.ranks.seats import GreedySeat
from geolab.errors import GeolabError
from geolab.games.ranks.reference import Lead, Trick, View, deal_one, outcome, play
from geolab.games.ranks.rules import Rules

PRESETS = ["combo1", "battle1", "battle2", "battle3", "geodouble"]


def small(**kw):
    return ISMCTSSeat(iterations=300, budget_ms=None, **kw)


@pytest.mark.parametrize("preset", PRESETS)
def test_rollout_is_greedy_against_greedy(preset):
    """From the first trick, the kernel's rollout ends as the reference engine's greedy game."""
    rules = replace(Rules.preset(preset), discards=0, hand_size=Rules.preset(preset).tricks, first_lead="given",
                    discards_public=False)
    rng = np.random.default_rng(11)
    for _ in range(40):
        deal = deal_one(rules, rng)
        lead = int(rng.integers(2))
        game = play(rules, deal.hands, [GreedySeat(), GreedySeat()], lead, deal.power_bases)
        winner = outcome(rules, game.trick_winners)
        hands = _masks(np.array(deal.hands))
        r0 = rollout(hands[0], hands[1], lead, -1, 0, 0, 0, 0, 0, -1, deal_rules(rules, deal.power_bases))
        assert r0 == (1 if winner is None else 2 * (winner == 0))  # half-points


@pytest.mark.parametrize("preset", PRESETS)
def test_plays_only_legal_moves(preset):
    """The reference engine raises on any illegal discard, declaration, lead or answer."""
    for rules, game in two_games(preset, small, {"exploration": 2.0}):
        assert len(game.tricks) >= rules.win_tricks


def test_plays_legal_moves_with_a_time_budget():
    rules = Rules.battle(2)
    deal = deal_one(rules, np.random.default_rng(6))
    game = play(rules, deal.hands, [ISMCTSSeat(budget_ms=2.0), GreedySeat()], None, deal.power_bases)
    assert game.winner in (0, 1, None)


def test_odd_states():
    """The last trick (lead and answer), a face-down Level 2 lead, GeoDouble's long deal."""
    combo = Rules.combo1()
    history = tuple(Trick(t % 2, 10 + t, 0, 1 if t < 4 else 50, 30 + t, t % 2) for t in range(7))
    last_lead = View(combo, 0, (5,), (6,), None, 0, (None, None), None, history)
    move = small().lead(last_lead)
    assert move.card == 5 and move.category in (0, 1, 2) and move.base == 50
    last_answer = replace(last_lead, side=1, hand=(7,), lead_category=2, lead_base=50, lead_card=5)
    assert small().follow(last_answer) == 7
    battle2 = Rules.battle(2)
    hidden = View(battle2, 1, (3, 8, 21, 40, 44), (2,), (9,), 0, (False, True), None,
                  (Trick(0, 12, 1, 50, 13, 0), Trick(0, 14, 0, 1, 15, 1)),
                  lead_category=2, lead_base=1, lead_card=None)
    assert small().follow(hidden) in hidden.hand
    lead = small().lead(replace(hidden, lead_category=None, lead_base=None))
    assert lead.card in hidden.hand and lead.base in battle2.lead_bases
    geodouble = Rules.geodouble()
    view = View(geodouble, 1, (0, 11, 22, 33, 44, 49), (1, 2), None, 1, (True, False), None, ())
    lead = small().lead(view)
    assert lead.card in view.hand and lead.base == 1


@pytest.mark.parametrize("preset", ["combo1", "battle2"])
def test_repeats_without_a_time_budget(preset):
    rules = Rules.preset(preset)
    deal = deal_one(rules, np.random.default_rng(8))
    lead = deal.drawn_first_lead() if rules.first_lead == "given" else None
    first = play(rules, deal.hands, [small(), GreedySeat()], lead, deal.power_bases)
    again = play(rules, deal.hands, [small(), GreedySeat()], lead, deal.power_bases)
    assert first.tricks == again.tricks and first.discards == again.discards


class Script:
    """Plays the recorded moves of one side, whatever else it holds."""

    def __init__(self, game, side):
        self.discards = game.discards[side]
        self.leads = [Lead(t.lead, t.category, t.base) for t in game.tricks if t.leader == side]
        self.follows = [t.follow for t in game.tricks if t.leader != side]

    def discard(self, view):
        return list(self.discards)

    def declare(self, view):
        return False

    def lead(self, view):
        return self.leads.pop(0)

    def follow(self, view):
        return self.follows.pop(0)


def test_never_reads_the_opponents_hidden_cards():
    """Combo 1 hides the discards: the opponent's discarded card swapped for another unseen
    card (same play otherwise) leaves every View, hence every decision, unchanged."""
    rules = Rules.combo1()
    deal = deal_one(rules, np.random.default_rng(21))
    first = play(rules, deal.hands, [ISMCTSSeat(iterations=2000, budget_ms=None), GreedySeat()], 0)
    spare = min(set(range(50)) - set(deal.hands[0]) - set(deal.hands[1]))
    swapped = tuple(sorted(spare if c == first.discards[1][0] else c for c in deal.hands[1]))
    changed = replace(first, discards=(first.discards[0], (spare,)))
    again = play(rules, (deal.hands[0], swapped), [ISMCTSSeat(iterations=2000, budget_ms=None), Script(changed, 1)], 0)
    assert swapped != deal.hands[1] and again.tricks == first.tricks


def _children(tree, node):
    child = int(tree["first_child"][node])
    while child >= 0:
        yield child
        child = int(tree["next_sibling"][child])


@pytest.mark.parametrize("preset,following", [("combo1", False), ("combo1", True), ("battle3", False),
                                               ("battle2", False), ("battle2", True)])
def test_tree_statistics_add_up(preset, following):
    """Root visits = iterations; below it a node's children share its visits less the one
    that created it (at most that under a face-down lead, where the hidden card decides
    whether the deal goes on); every child: available at least as often as visited, reward
    within [0, visits], distinct moves among siblings; the root's children are the seat's moves."""
    rules = Rules.preset(preset)
    deal = deal_one(rules, np.random.default_rng(3))
    hand = deal.hands[0][: rules.tricks]
    view = View(rules, 0, hand, deal.hands[0][rules.tricks :],
                deal.hands[1][rules.tricks :] if rules.discards_public else None, 0,
                (False, False) if rules.declarations else (None, None), deal.power_bases, ())
    if following:  # the opponent has led; under battle2 face-down
        view = replace(view, first_lead=1, lead_category=1, lead_base=view.allowed_bases()[0],
                       lead_card=None if rules.hidden_lead else deal.hands[1][0])
    seat = ISMCTSSeat(iterations=3000, budget_ms=None)
    code, tree = seat.search(view)
    visits, avail, reward = tree["visits"], tree["avail"], tree["reward"]
    assert visits[0] == 3000 and len(visits) <= 3001
    root_moves = [int(tree["move"][c]) for c in _children(tree, 0)]
    assert code in root_moves and visits[[*_children(tree, 0)]].sum() == 3000
    assert all(tree["mover"][c] == 0 for c in _children(tree, 0))
    for node in range(1, len(visits)):
        kids = [*_children(tree, node)]
        assert 1 <= visits[node] <= avail[node] and 0 <= reward[node] <= visits[node]
        if kids:
            below = int(visits[kids].sum())
            assert below <= visits[node] - 1 if rules.hidden_lead else below == visits[node] - 1
            moves = [int(tree["move"][c]) for c in kids]
            assert len(set(moves)) == len(moves)


def test_bad_parameters_are_user_errors():
    with pytest.raises(GeolabError):
        ISMCTSSeat(iterations=0)
    with pytest.raises(GeolabError):
        ISMCTSSeat(budget_ms=-1)
    from geolab.bots.ranks.registry import BOTS

    assert BOTS.make("ismcts:iterations=10,budget_ms=none", Rules()).name == "ismcts:iterations=10,budget_ms=none"
