"""Exact best response on the `tiny` analysis variant (issue 35, item 2), checked by an
independent recursion: the textbook best response over the reference engine's own step-wise
states (every deal, every history, information sets read from the engine's observations),
which must find the same value; the BR's strategy played on the reference engine against the
target on every deal must earn exactly that value; and no registered fair bot may do better."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

from geolab.bots.ranks.behaviour import Behaviour
from geolab.bots.ranks.registry import BOTS
from geolab.errors import RulesError
from geolab.games.ranks.reference import ENGINE, Deal
from geolab.games.ranks.rules import Rules
from geolab.games.ranks.solver.best_response import best_response, check, exact_value, exploitability, info_key

TINY = Rules.preset("tiny")


def _deals(rules):
    """Every deal of the variant with its probability (hands uniform, the first lead a coin)."""
    cards = range(rules.deck)
    out = []
    for a in combinations(cards, rules.hand_size):
        for b in combinations([c for c in cards if c not in a], rules.hand_size):
            out += [(Deal((a, b), None, None, first), 1.0) for first in (0, 1)]
    total = len(out)
    return [(d, w / total) for d, w in out]


def _textbook(rules, target, responder):
    """Best response by the book, on the engine's states: gather every history (with its
    chance-and-target reach) at each responder information set, then choose per set, deepest
    sets first, the action whose reach-weighted value is largest."""
    sets: dict = {}  # key -> list of (state, reach)

    def walk(state, reach):
        if state.is_over():
            return
        movers = state.to_move()
        if len(movers) == 2 or movers[0] == responder:  # the discards are at once: the target answers after
            d = state.decision(responder)
            sets.setdefault(info_key(d.kind, d.observation), []).append((state, reach, d))
            for a in d.legal:
                for child, r in expand(state, reach, d, a):
                    walk(child, r)
            return
        for a, q in target(state.decision(movers[0])).items():
            child = state.clone()
            child.apply({movers[0]: a})
            walk(child, reach * q)

    def expand(state, reach, d, a):
        """The responder's action a, then the target's simultaneous answer where there is one."""
        if len(state.to_move()) == 2:
            other = state.decision(1 - responder)
            for b, q in target(other).items():
                child = state.clone()
                child.apply({responder: a, 1 - responder: b})
                yield child, reach * q
        else:
            child = state.clone()
            child.apply({responder: a})
            yield child, reach

    best: dict = {}
    known: dict = {}

    def value(state):
        """The responder's expected score from a state, playing `best` (found on demand)."""
        key = (state.deal, repr(state.log))
        if key not in known:
            known[key] = worth(state)
        return known[key]

    def worth(state):
        if state.is_over():
            return float(state.scores()[responder])
        movers = state.to_move()
        if len(movers) == 2 or movers[0] == responder:
            d = state.decision(responder)
            a = choose(info_key(d.kind, d.observation))
            return sum(q * value(c) for c, q in expand(state, 1.0, d, a))
        d = state.decision(movers[0])
        total = 0.0
        for a, q in target(d).items():
            child = state.clone()
            child.apply({movers[0]: a})
            total += q * value(child)
        return total

    def choose(key):
        if key not in best:
            members = sets[key]
            scores = [sum(r * sum(q * value(c) for c, q in expand(s, 1.0, d, a)) for s, r, d in members)
                      for a in members[0][2].legal]
            best[key] = members[0][2].legal[int(np.argmax(scores))]
        return best[key]

    roots = [(ENGINE.state(rules, deal), w) for deal, w in _deals(rules)]
    for state, w in roots:
        walk(state, w)
    return sum(w * value(state) for state, w in roots)


def _played(rules, target, responder, seat_act):
    """The exact expected score of a responder `Seat.act` against the target on every deal,
    on the reference engine."""
    total = 0.0
    for deal, w in _deals(rules):
        def walk(state, reach):
            nonlocal total
            if state.is_over():
                total += reach * float(state.scores()[responder])
                return
            movers = state.to_move()
            mine = {responder: seat_act(state.decision(responder))} if responder in movers else {}
            others = [m for m in movers if m != responder]
            if not others:
                state.apply(mine)
                return walk(state, reach)
            for a, q in target(state.decision(others[0])).items():
                child = state.clone()
                child.apply({**mine, others[0]: a})
                walk(child, reach * q)
        walk(ENGINE.state(rules, deal), w)
    return total


def test_best_response_is_exact_on_tiny():
    target = Behaviour(BOTS.make("greedy", TINY), TINY)
    for responder in (0, 1):
        br = best_response(TINY, target, responder)
        assert br.value == pytest.approx(_textbook(TINY, target, responder), abs=1e-12)
        assert br.value == pytest.approx(_played(TINY, target, responder, br.act), abs=1e-12)
        for other in ("random", "greedy", "counter"):
            assert exact_value(TINY, target, responder, Behaviour(BOTS.make(other, TINY), TINY)) <= br.value + 1e-12


def test_exploitability_reads_both_seats_and_refuses_what_it_cannot_enumerate():
    target = Behaviour(BOTS.make("random", TINY), TINY)
    result = exploitability(TINY, target)
    assert result["br_mean"] == pytest.approx((result["br_A"] + result["br_B"]) / 2)
    assert result["exploitability"] == pytest.approx(result["br_mean"] - 0.5)
    assert 0 < result["exploitability"] < 0.5
    # random against random is an even game, exactly
    assert exact_value(TINY, target, 0, target) == pytest.approx(0.5)
    with pytest.raises(RulesError, match="too many to enumerate"):
        check(Rules.preset("combo1"))
    with pytest.raises(RulesError, match="Power-card"):
        check(Rules.from_spec({"preset": "tiny", "base_mode": "power"}))


def test_the_deck_deals_only_its_cards_on_both_engines():
    from geolab import registry
    from geolab.bots.ranks.seats import GreedySeat
    from geolab.errors import IllegalActionError
    from geolab.games.ranks.reference import deal_arrays, play

    game = registry.get("ranks").game
    hands, draw, _ = deal_arrays(TINY, 200, np.random.default_rng(1))
    assert hands.max() < TINY.deck and draw.max() < TINY.deck
    played = game.batch(TINY, [BOTS.make("greedy", TINY), BOTS.make("random", TINY)], 64, 3)
    assert len(played.scores) == 64
    with pytest.raises(IllegalActionError, match="6-card deck"):
        play(TINY, [(0, 1), (2, 9)], [GreedySeat(), GreedySeat()], first_lead=0)
    with pytest.raises(RulesError, match="deck of 5 cards"):
        TINY.replace(deck=5)
