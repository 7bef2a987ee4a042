"""The Monte Carlo seat: legal moves in every preset, and it never reads hidden cards."""

from dataclasses import replace

import numpy as np
import pytest
from seat_games import two_games

from geolab.bots.ranks.montecarlo import MonteCarloSeat, play_log_likelihood, undominated_leads, unseen_cards
from geolab.bots.ranks.oracle import play_with_oracle
from geolab.bots.ranks.seats import GreedySeat
from geolab.games.ranks.reference import Trick, View, deal_one, play
from geolab.games.ranks.rules import Rules


def small_seat(**kw):
    return MonteCarloSeat(k=4, budget_ms=None, **kw)


@pytest.mark.parametrize("preset", ["combo1", "battle1", "battle2", "battle3", "geodouble"])
def test_plays_only_legal_moves(preset):
    """The reference engine raises on any illegal discard, declaration, lead or answer."""
    for _, game in two_games(preset, small_seat, {"infer": 0}):
        assert game.winner in (0, 1, None)


@pytest.mark.parametrize("preset", ["combo1", "battle2"])
def test_decisions_do_not_depend_on_hidden_cards(preset):
    """Same visible state, different opponent cards: the same decisions, move for move."""
    rules = Rules.preset(preset)
    rng = np.random.default_rng(9)
    deal = deal_one(rules, rng)
    mine = deal.hands[0]
    others = sorted(set(range(50)) - set(mine))
    seat = small_seat()
    views = []
    for _ in range(2):
        theirs = tuple(sorted(rng.choice(others, rules.hand_size, replace=False).tolist()))
        view = View(rules, 0, mine, (), None, 0 if rules.first_lead == "given" else None, (None, None),
                    deal.power_bases, ())
        views.append((seat.discard(view), theirs))
    assert views[0][0] == views[1][0] and views[0][1] != views[1][1]
    # mid-deal: a lead to answer (face-down under battle2) with a trick of history
    hand = mine[:7]
    history = (Trick(1, others[0], 0, 1, mine[8], 1),)
    lead_card = None if rules.hidden_lead else others[1]
    view = View(rules, 0, hand, (mine[7],), (others[2],) if rules.discards_public else None, 1,
                (False, False) if rules.declarations else (None, None), deal.power_bases, history,
                lead_category=2, lead_base=1, lead_card=lead_card)
    assert all(c not in unseen_cards(view) for c in hand + (mine[7], mine[8], others[0]))
    assert small_seat().follow(view) == seat.follow(replace(view))  # a fresh seat, same seed: same move


def test_inference_weights_read_only_public_play():
    rules = Rules.combo1()
    # B led New York's population at base 1 (rank 3): a hand holding CA (1) or TX (2) is less likely
    from geolab.cards import card

    history = (Trick(1, card("NY"), 2, 1, card("VT"), 1),)
    view = View(rules, 0, tuple(card(p) for p in ("WY", "ND", "SD", "MT", "AK", "NM", "NV")),
                (card("RI"),), None, 1, (None, None), None, history)
    with_ca = np.array([[card(p) for p in ("CA", "ME", "NH", "OR", "UT", "ID", "KS")]])
    without = np.array([[card(p) for p in ("MS", "ME", "NH", "OR", "UT", "ID", "KS")]])
    assert play_log_likelihood(view, with_ca, 1.0)[0] < play_log_likelihood(view, without, 1.0)[0]


def test_dominated_leads_keep_one_per_card():
    rules = Rules.battle(2)
    rng = np.random.default_rng(2)
    deal = deal_one(rules, rng)
    view = View(rules, 0, deal.hands[0][:8], deal.hands[0][8:], None, 0, (False, False), None, ())
    keep = undominated_leads(view, unseen_cards(view))
    assert keep.shape == (8, 3, 2) and keep.any(axis=(1, 2)).all()


def test_oracle_is_flagged_and_legal():
    rules = Rules.battle(3)
    rng = np.random.default_rng(5)
    deal = deal_one(rules, rng)
    game = play_with_oracle(rules, deal.hands, 1, GreedySeat(), None, deal.power_bases)
    assert game.winner in (0, 1, None)
    from geolab.bots.ranks.oracle import PeekingOracleSeat

    assert "peeking" in PeekingOracleSeat.name


def test_registered_as_batched_policies():
    from geolab.bots.ranks.registry import BOTS

    assert BOTS.make("montecarlo:k=4", Rules()).name == "montecarlo:k=4"


def test_sampling_seed_is_the_same_in_every_process():
    """`hash()` of a string is salted per process; the seat's seed must not be."""
    import subprocess
    import sys

    code = ("import numpy as np; from geolab.games.ranks.rules import Rules; "
            "from geolab.games.ranks.reference import deal_one, play; "
            "from geolab.bots.ranks.seats import GreedySeat; from geolab.bots.ranks.montecarlo import visible_key; "
            "keys = []\n"
            "class Spy(GreedySeat):\n"
            "    def follow(self, view):\n"
            "        keys.append(visible_key(view)); return super().follow(view)\n"
            "r = Rules.preset('battle2'); d = deal_one(r, np.random.default_rng(4)); "
            "play(r, d.hands, [GreedySeat(), Spy()], None, None); print(keys)")
    outputs = {
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                       env={**__import__("os").environ, "PYTHONHASHSEED": salt}).stdout
        for salt in ("1", "2", "3")
    }
    assert len(outputs) == 1 and outputs.pop().startswith("[")


@pytest.mark.parametrize("preset", ["combo1", "battle2"])
def test_a_tiny_cap_still_gives_legal_decisions(preset):
    """With no time to solve even one layout, every decision falls back to a legal move."""
    rules = Rules.preset(preset)
    rng = np.random.default_rng(6)
    deal = deal_one(rules, rng)
    lead = deal.drawn_first_lead() if rules.first_lead == "given" else None
    seat = MonteCarloSeat(budget_ms=1e-6, cap_ms=1e-6)
    game = play(rules, deal.hands, [seat, GreedySeat()], lead, deal.power_bases)
    assert game.winner in (0, 1, None) and len(game.tricks) > 0


def test_cut_short_layouts_are_dropped():
    """A layout the work limit cut short never enters the average, and sampling stops there."""
    import time

    calls = []

    def evaluate(rng, layouts, work):
        calls.append(work)
        if work is None:
            return np.ones(layouts), np.ones(layouts, np.bool_)
        return np.array([5.0, 7.0]), np.array([True, False])  # the second one was cut short

    assert small_seat()._sampled(np.random.default_rng(0), evaluate, 0.0, "lead").tolist() == [1.0] * 4
    assert calls == [None, None]  # budget_ms=None: no work limit, one layout then the other k - 1
    timed = MonteCarloSeat(k=4, budget_ms=5.0, cap_ms=20.0)
    assert timed._sampled(np.random.default_rng(0), evaluate, time.thread_time(), "lead").tolist() == [5.0]
    assert len(calls) == 3 and calls[2] > 0


def test_policy_inference_favours_layouts_where_the_lead_was_the_models_choice():
    """Policy-based inference (issue 35, item 4): B's opening lead weighs a layout in which the
    learned model would have led that very card above one in which it would have led another."""
    from geolab.bots.ranks.learned import LearnedPolicy
    from geolab.bots.ranks.policy_inference import PastDecision
    from geolab.cards import card

    rules = Rules.combo1()
    lead = card("NY")  # B led New York's population at base 1 (rank 3)
    history = (Trick(1, lead, 2, 1, card("VT"), 1),)
    view = View(rules, 0, tuple(card(p) for p in ("WY", "ND", "SD", "MT", "AK", "NM", "NV")),
                (card("RI"),), None, 1, (None, None), None, history)
    # two layouts of B's other cards: the model would have led New York from the first, and
    # from the second (the early East Coast states) a low statehood rank instead
    weak = [card(p) for p in ("AZ", "CA", "HI", "IL", "MD", "MS", "OH")]
    strong = [card(p) for p in ("AZ", "CA", "DE", "MD", "NJ", "NC", "SC")]
    pool = np.array([sorted(weak), sorted(strong)])
    model = LearnedPolicy()
    past = PastDecision(view, "lead", 0, np.array([sum(1 << c for c in h + [lead]) for h in (weak, strong)]), None)
    preferred = model.act(past, None)
    assert (int(preferred.card[0]), int(preferred.category[0]), int(preferred.base[0])) == (lead, 2, 1)
    assert int(preferred.card[1]) != lead
    seat = MonteCarloSeat(k=4, budget_ms=None, infer=0, infer_model="learned", infer_temperature=0.1)
    logw = seat.log_weights(view, pool)
    assert logw[0] > logw[1]
    assert (MonteCarloSeat(k=4, budget_ms=None, infer=0).log_weights(view, pool) == 0).all()
