"""The State IQ player's compiled, memoised batch path against the plain numpy one it replaced:
on the decisions real batch games ask (recorded, then cut into many small batches with rows
repeated), `beliefs` gives the same columns and `Player.act` the same cards from the same
generator state, for perfect and partial knowledge, guesses and clues, futile guesses on and
off. The plain versions live here only, as the specification of the fast ones."""

from __future__ import annotations

import copy
from dataclasses import fields

import numpy as np
import pytest

from geolab import registry
from geolab.bots.stateiq.player import Weighted, beliefs
from geolab.bots.stateiq.registry import OLD_DEFAULT
from geolab.cards import N_CARDS
from geolab.games.stateiq import clues as facts
from geolab.games.stateiq.batch import INDEX, KIND, LETTER, NONE, ORDERS, Asked
from geolab.games.stateiq.reference import GUESSES
from geolab.games.stateiq.rules import Rules

ENTRY = registry.get("state-iq")
#: The search and hard-clue paths these tests pin: the old default and specs on its paths (the
#: equilibrium default's answers are looked up, not searched: tests/test_stateiq_equilibrium.py).
OLD = OLD_DEFAULT
GAPS = "player:clue=hard,borders=0.7,capitals=0.6,postal=0.5,seed=2"
CASES = [(Rules(), OLD, "player:guess=optimal,clue=random,objective=guesses"),
         (Rules(futile_guesses=True), OLD, GAPS),
         (Rules(futile_guesses=True), GAPS, "player:guess=greedy,clue=hard,objective=game"),
         (Rules.preset("corners-water"), GAPS, "player:guess=optimal,clue=hard,aim=miss"),
         (Rules.preset("borders-only"), "player:guess=greedy,clue=random", "player:clue=hard,borders=0.6,seed=1")]


def plain_beliefs(rules, asked: Asked, fit_table: np.ndarray, nbr: np.ndarray) -> np.ndarray:
    """`beliefs` as numpy masks over the whole batch (the former implementation)."""
    n = len(asked)
    rows = np.arange(n)
    p, k = asked.phase, asked.slot
    guess = asked.kind == "guess"
    one = np.int64(1)
    support = np.full(n, facts.ALL, np.int64)
    if guess:
        support &= ~(one << asked.card)
    made = asked.guesses[rows, p]
    earlier = asked.guesses[:, 0]
    for j in range(GUESSES):
        support &= ~np.where((made[:, j] >= 0) & (j < k), one << np.maximum(made[:, j], 0), 0)
        if not rules.futile_guesses:
            support &= ~np.where((p == 1) & (earlier[:, j] >= 0), one << np.maximum(earlier[:, j], 0), 0)
        elif not guess:
            found = (p == 1) & (asked.found[:, 0] == j + 1)
            support &= ~np.where(found, one << np.maximum(earlier[:, j], 0), 0)
    codes = asked.clues[rows, p]
    named = np.zeros(n, np.int64)
    m = np.zeros(n, np.int64)
    for j in range(GUESSES):
        given = j <= k if guess else j < k
        kind, index, code = KIND[asked.order, j], INDEX[asked.order, j], codes[:, j]
        fit = np.full(n, facts.ALL, np.int64)
        letter = given & (kind != 1) & (code >= LETTER)
        fit[letter] = fit_table[kind[letter], index[letter], code[letter] - LETTER]
        border = given & (kind == 1) & (code >= 0) & (code < N_CARDS)
        fit[border] = nbr[code[border]]
        nomore = given & (kind == 1) & (code == NONE)
        if nomore.any():
            done = (nbr[None, :] & ~named[nomore, None]) == 0
            fit[nomore] = (done * (one << np.arange(N_CARDS, dtype=np.int64))).sum(axis=1)
        support &= fit
        named |= np.where(border, one << np.where(border, code, 0), 0)
        m += border
    limit = np.where(p == 0, GUESSES, np.where(asked.found[:, 0] > 0, asked.found[:, 0], GUESSES))
    future = np.array([[[int("B" in o[s + 1:lim]) for lim in range(GUESSES + 1)] for s in range(GUESSES)]
                       for o in ORDERS])[asked.order, k, limit] if guess else np.ones(n, np.int64)
    card = np.zeros(n, np.int64) if guess else asked.card
    return np.column_stack([support, m, k, asked.order, p, asked.found[:, 0] * (p == 1), named * future, card]
                           ).astype(np.int64)


def plain_nth_bits(masks: np.ndarray, u: np.ndarray) -> np.ndarray:
    bits = (masks[:, None] >> np.arange(64)) & 1
    count = bits.sum(axis=1)
    want = np.minimum((u * count).astype(np.int64), count - 1)
    return np.argmax(np.cumsum(bits, axis=1) > want[:, None], axis=1).astype(np.int64)


def plain_act(bot, asked: Asked, rng: np.random.Generator, tally: dict) -> np.ndarray:
    """`Player.act` with `plain_beliefs`, `np.unique` over the rows and no memo of its own."""
    n = len(asked)
    u = rng.random(n)
    if asked.kind == "clue" and bot.clue == "random":
        return plain_nth_bits(asked.legal, u)
    tables = bot.tables if asked.kind == "guess" else bot.true
    fast = plain_beliefs(bot.rules, asked, tables.fit, tables.nbr)
    slow = fast[:, 0] == 0
    out, counts = np.zeros(n, np.int64), np.zeros(n, np.int64)
    history = np.column_stack([asked.card, asked.order, asked.phase, asked.slot, asked.clues.reshape(n, -1),
                               asked.guesses.reshape(n, -1), asked.found]).astype(np.int64)
    for where, columns, choose in ((~slow, fast, bot.from_belief), (slow, history, bot.from_history)):
        at = np.flatnonzero(where)
        if not len(at):
            continue
        rows, inverse = np.unique(columns[at], axis=0, return_inverse=True)
        inverse = inverse.reshape(-1)
        options, count = np.zeros((len(rows), 64), np.int64), np.zeros(len(rows), np.int64)
        for r, row in enumerate(rows):
            got = choose(asked.kind, [int(x) for x in row])
            options[r, :len(got)] = got
            count[r] = len(got)
        counts[at] = count[inverse]
        out[at] = options[inverse, np.minimum((u[at] * count[inverse]).astype(np.int64), count[inverse] - 1)]
    bad = (counts == 0) | ((asked.legal >> out & 1) != 1)
    out[bad] = plain_nth_bits(asked.legal[bad], u[bad])
    tally["slow"] += int(slow.sum())
    tally["bad"] += int(bad.sum())
    return out


def recorded(rules, specs, n: int, seed: int) -> list[tuple[object, Asked]]:
    """Every (bot, Asked) a batch run of n games asks, both seats."""
    bots = [ENTRY.bots.make(spec, rules) for spec in specs]
    seen = []
    for bot in bots:
        def keep(asked, rng, bot=bot, real=bot.act):
            seen.append((bot, copy.deepcopy(asked)))  # as asked, whatever the engine does next
            return real(asked, rng)
        bot.act = keep
    ENTRY.game.batch(rules, bots, n, seed, threads=1)
    for bot in bots:
        del bot.act
    return seen


def pieces(asked: Asked, rng: np.random.Generator, count: int) -> list[Asked]:
    """`count` small batches of the rows of `asked`, drawn with repeats (1-12 rows each), and
    one more whose legal answers are cut to a few cards, so that most of what the player would
    pick is not legal and it answers anything legal."""
    out = []
    for _ in range(count + 1):
        at = rng.integers(0, len(asked), rng.integers(1, 13))
        out.append(Asked(*(getattr(asked, f.name) if f.name in ("rules", "kind") else getattr(asked, f.name)[at]
                           for f in fields(Asked))))
    few = out[-1].legal & rng.integers(0, 2 ** 62, len(at)) & rng.integers(0, 2 ** 62, len(at))
    out[-1].legal = np.where(few != 0, few, out[-1].legal)
    return out


@pytest.mark.parametrize("rules, spec, other", CASES)
def test_the_compiled_beliefs_and_the_fast_act_agree_with_the_plain_numpy_ones(rules, spec, other):
    """Every recorded batch and small pieces of it: the same belief columns, the same cards."""
    cut = np.random.default_rng(5)
    tally = {"slow": 0, "bad": 0, "guess": 0, "clue": 0}
    for bot, whole in recorded(rules, (spec, other), 200, 3):
        for asked in [whole] + pieces(whole, cut, 3):
            if asked.kind == "guess" or bot.clue == "hard":
                tables = bot.tables if asked.kind == "guess" else bot.true
                np.testing.assert_array_equal(beliefs(rules, asked, tables.fit, tables.nbr),
                                              plain_beliefs(rules, asked, tables.fit, tables.nbr))
            seed = cut.integers(2 ** 32)
            got = bot.act(asked, np.random.default_rng(seed))
            assert got.dtype == np.int64 and got.shape == (len(asked),)
            np.testing.assert_array_equal(got, plain_act(bot, asked, np.random.default_rng(seed), tally))
            tally[asked.kind] += len(asked)
    assert tally["guess"] > 500 and tally["clue"] > 20 and tally["bad"] > 0
    if "borders=" in spec:  # gaps in its knowledge: some games read their history
        assert tally["slow"] > 0


def test_repeated_decisions_are_answered_from_the_memo_one_uniform_a_game():
    """The same decisions twice in one batch: each answered alike (from the same uniforms),
    each belief remembered, and the generator drawn once a game."""
    rules = Rules()
    bot, asked = next((b, a) for b, a in recorded(rules, (OLD, OLD), 40, 1) if a.kind == "guess")
    once = pieces(asked, np.random.default_rng(0), 1)[0]
    twice = Asked(*(getattr(once, f.name) if f.name in ("rules", "kind") else
                    np.concatenate([getattr(once, f.name)] * 2) for f in fields(Asked)))
    rng = np.random.default_rng(9)
    got = bot.act(twice, rng)
    np.testing.assert_array_equal(got, plain_act(bot, twice, np.random.default_rng(9), {"slow": 0, "bad": 0}))
    assert rng.random() == np.random.default_rng(9).random(len(twice) + 1)[-1]
    rows = beliefs(rules, twice, bot.tables.fit, bot.tables.nbr).tolist()
    assert all(bot.answers["guess"][tuple(r)] == bot.from_belief("guess", r) for r in rows)


@pytest.mark.parametrize("pair", [(OLD, GAPS), ("player", "player:guess=random,clue=hard")])
def test_players_together_answer_each_game_as_its_own_player_from_one_uniform_a_game(pair):
    """A lineup of players asked at once (`Players`, what `geolab.lineup.members` asks): game
    i's card is the one its own player picks with the i-th uniform of one draw for all (the
    equilibrium's mixed answers by their chances)."""
    rules = Rules(futile_guesses=True)
    asks = recorded(rules, pair, 120, 4)
    bots = list(dict.fromkeys(bot for bot, _ in asks))
    assert len(bots) == 2
    cut = np.random.default_rng(6)
    for kind in ("guess", "clue"):
        parts = [next(a for b, a in asks if b is bot and a.kind == kind and len(a) > 3) for bot in bots]
        mixed = Asked(rules, kind, *(np.concatenate([getattr(a, f.name) for a in parts]) for f in fields(Asked)
                                     if f.name not in ("rules", "kind")))
        which = np.concatenate([np.full(len(a), k) for k, a in enumerate(parts)])
        shuffle = cut.permutation(len(mixed))
        mixed, which = mixed.take(shuffle), which[shuffle]
        got = bots[0].together(bots, which).act(mixed, np.random.default_rng(7))
        u = np.random.default_rng(7).random(len(mixed))
        for i in range(len(mixed)):
            options = bots[which[i]].options(mixed.take(np.array([i])))[0]
            if isinstance(options, Weighted):
                pick = options.pick(u[i])
            else:
                pick = options[min(int(u[i] * len(options)), len(options) - 1)] if options else -1
            if pick < 0 or not mixed.legal[i] >> pick & 1:
                pick = plain_nth_bits(mixed.legal[i:i + 1], u[i:i + 1])[0]
            assert got[i] == pick, (kind, i)
        single = bots[0].together(bots[:1], np.zeros(len(parts[0]), np.int64)).act(parts[0], np.random.default_rng(8))
        np.testing.assert_array_equal(single, bots[0].act(parts[0], np.random.default_rng(8)))
