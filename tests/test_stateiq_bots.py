"""State IQ's bots: the guesser's search is optimal for its knowledge (checked against a brute
force on every Power card's clue order, every own card and every held state), hand-worked
guesses (Maine, Hawaii and Alaska, Honolulu's letters), how a gap in knowledge changes the
consistent set, the hard clue-giver against a random border, and the player's two paths (the
batch's masks and a game's history) giving the same answers."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from stateiq_brute import brute_value

from geolab import registry
from geolab.bots.stateiq.evaluate import averaged, outcome
from geolab.bots.stateiq.knowledge import Knowledge
from geolab.bots.stateiq.player import beliefs
from geolab.bots.stateiq.search import Guesser, HardGiver, Solver, game_costs, guess_costs
from geolab.cards import POWER_DECK, card
from geolab.games.stateiq import clues as facts
from geolab.games.stateiq.clues import Clue
from geolab.games.stateiq.rules import Rules

ORDERS = sorted({p.clues for p in POWER_DECK})
COSTS = guess_costs(4)
RULES = Rules()


def prior_without(*codes: str) -> int:
    return facts.ALL & ~facts.mask_of(card(c) for c in codes)


# ----- optimal for its knowledge ------------------------------------------------------------------
@pytest.mark.parametrize("order", ORDERS)
def test_the_search_equals_a_brute_force_for_every_own_card_and_its_play_reaches_it_on_every_state(order):
    """Full knowledge, every Power card order: the search's least expected guesses equal the
    brute force's for every own card; and the bot's own play, enumerated exactly state by state
    (a random border, tied guesses alike), averages to it."""
    know = Knowledge()
    solver, guesser = Solver(know), Guesser(know)
    plan = facts.program(order)
    for own in range(50):
        prior = facts.ALL & ~(1 << own)
        value = solver.expected(prior, plan, 3, COSTS)
        assert value == brute_value(know, facts.cards_of(prior), order, 3, COSTS), (order, own)
        if own % 7 == 0:
            states = [outcome(guesser, s, prior, plan, 3, COSTS, RULES) for s in facts.cards_of(prior)]
            assert all(sum(o.found) + o.miss == 1 for o in states)
            assert sum(o.cost(COSTS) for o in states) / 49 == value, (order, own)


@pytest.mark.parametrize("limit, costs", [(2, guess_costs(4)), (1, game_costs(1)), (2, game_costs(2)),
                                          (3, game_costs(None)), (3, guess_costs(10))])
def test_the_search_is_optimal_for_shorter_phases_and_the_game_objective(limit, costs):
    know = Knowledge()
    for order in ("BAC", "BBB", "CCC"):
        prior = prior_without("TX", "OK")
        assert Solver(know).expected(prior, facts.program(order), limit, costs) == \
            brute_value(know, facts.cards_of(prior), order, limit, costs)


@pytest.mark.parametrize("fractions, seed, orders, prior", [
    ((0.6, 1.0, 1.0), 1, ORDERS, None),  # border gaps: every order, the whole deck
    ((0.5, 1.0, 0.5), 2, ["AAA", "ABC", "BAC", "BBB"], None),
    ((1.0, 0.5, 1.0), 3, ["CCC", "CAB", "ABC"], "AL CT HI MT NH SC TX"),  # every letter a branch: few states
    ((0.4, 0.4, 0.4), 4, ["CBA", "ACB", "AAA"], "AK CA IA ME MD MA MN MO NH SD VT WI"),
])
def test_a_guesser_with_gaps_is_optimal_for_what_it_knows(fractions, seed, orders, prior):
    """Its search's value is the brute force's on its own picture of the facts, and its play,
    enumerated on that picture (letters it cannot read uniform, borders it does not know absent),
    averages to it."""
    borders, capitals, postal = fractions
    know = Knowledge(borders=borders, capitals=capitals, postal=postal, seed=seed)
    assert not know.perfect
    guesser = Guesser(know)
    mask = facts.ALL & ~(1 << card("KY")) if prior is None else facts.mask_of(card(c) for c in prior.split())
    for order in orders:
        plan = facts.program(order)
        value = guesser.solver.expected(mask, plan, 3, COSTS)
        assert value == brute_value(know, facts.cards_of(mask), order, 3, COSTS), order
        states = [outcome(guesser, s, mask, plan, 3, COSTS, RULES, model=know) for s in facts.cards_of(mask)]
        assert sum(o.cost(COSTS) for o in states) / len(states) == value, order


# ----- hand-worked guesses ------------------------------------------------------------------
def test_maine_under_bbb_is_found_at_once_the_likeliest_of_the_states_that_border_new_hampshire():
    guesser = Guesser(Knowledge())
    plan = facts.program("BBB")
    nh = (Clue("B", 0, card("NH")),)
    belief = dict(guesser.know.belief(prior_without("TX"), nh, ()))
    # ME, VT, MA border NH; a random border names NH for Maine always, for VT a third of the time
    assert set(belief) == {card("ME"), card("VT"), card("MA")}
    assert Fraction(belief[card("VT")], belief[card("ME")]) == Fraction(1, 3)
    assert Fraction(belief[card("MA")], belief[card("ME")]) == Fraction(1, 5)
    assert guesser.options(prior_without("TX"), plan, nh, (), 3, COSTS) == (card("ME"),)
    for giver in (None, HardGiver(RULES, guesser)):
        assert outcome(guesser, card("ME"), prior_without("TX"), plan, 3, COSTS, RULES, giver).found[0] == 1


@pytest.mark.parametrize("name, other", [("HI", "AK"), ("AK", "HI")])
def test_hawaii_and_alaska_are_told_apart_by_the_clue_after_no_border_states(name, other):
    guesser = Guesser(Knowledge())
    none = (Clue("B", 0, None),)
    assert guesser.options(prior_without("TX"), facts.program("BBB"), none, (), 3, COSTS) == (card("AK"), card("HI"))
    result = outcome(guesser, card(name), prior_without("TX"), facts.program("BBB"), 3, COSTS, RULES)
    assert result.found == (Fraction(1, 2), Fraction(1, 2), 0)  # two more "none"s say nothing: a coin, then sure
    # BAC: "none", then the postal code's first letter (A or H) tells them apart, so guess 1 is a coin
    result = outcome(guesser, card(name), prior_without("TX"), facts.program("BAC"), 3, COSTS, RULES)
    assert result.found == (Fraction(1, 2), Fraction(1, 2), 0)
    # the own card is the other one: the first guess is sure
    assert outcome(guesser, card(name), prior_without(other), facts.program("BBB"), 3, COSTS, RULES).found[0] == 1


def test_under_ccc_the_guesser_keeps_for_later_the_state_the_next_letter_will_single_out():
    """After "H": Hartford and Harrisburg share H-A-R, so no later letter tells CT from PA; HE is
    Helena alone, HO Honolulu alone: guess CT or PA first."""
    guesser = Guesser(Knowledge())
    h = (Clue("C", 0, "H"),)
    assert guesser.options(prior_without("TX"), facts.program("CCC"), h, (), 3, COSTS) == (card("CT"), card("PA"))
    result = outcome(guesser, card("HI"), prior_without("TX"), facts.program("CCC"), 3, COSTS, RULES)
    assert result.found == (0, 1, 0)


def test_the_second_guesser_playing_for_the_game_takes_its_best_single_chance():
    """When the first team found the card at guess 1, the second team has one guess: the game
    objective and the expected-guesses one both guess the likeliest state."""
    assert game_costs(1) == (-1, 0, 0, 0) and game_costs(2) == (-2, -1, 0, 0) and game_costs(None) == (-2, -2, -2, -1)
    guesser = Guesser(Knowledge(), objective="game")
    assert guesser.costs(0, None) == COSTS and guesser.costs(1, 1) == game_costs(1)
    nh = (Clue("B", 0, card("NH")),)
    assert guesser.options(prior_without("TX"), facts.program("BBB"), nh, (), 1, game_costs(1)) == (card("ME"),)


# ----- gaps in knowledge ------------------------------------------------------------------------
def test_a_capital_it_does_not_know_keeps_its_state_in_the_consistent_set_at_a_26th():
    know = Knowledge(capitals=0.0)
    belief = dict(know.belief(prior_without("TX"), (Clue("C", 0, "H"),), ()))
    assert len(belief) == 49 and len(set(belief.values())) == 1  # nothing ruled out, all alike
    half = Knowledge(capitals=0.5, seed=5)
    known = [c for c in range(50) if half.capital_known[c]]
    assert 15 < len(known) < 35
    belief = dict(half.belief(prior_without("TX"), (Clue("C", 0, "H"),), ()))
    for c in range(50):
        if c == card("TX"):
            continue
        if half.capital_known[c]:
            assert (c in belief) == (facts.letter(c, "C", 0) == "H")
        else:
            assert c in belief
    top = max(belief.values())
    assert all(belief[c] * 26 == top for c in belief if not half.capital_known[c])
    assert Knowledge(capitals=0.5, seed=5).capital_known == half.capital_known
    assert Knowledge(capitals=0.5, seed=6).capital_known != half.capital_known


def test_a_postal_code_it_does_not_know_still_starts_with_its_states_initial():
    know = Knowledge(postal=0.0)
    first = dict(know.belief(prior_without("TX"), (Clue("A", 0, "M"),), ()))
    assert set(first) == {c for c in range(50) if facts.letter(c, "A", 0) == "M"}  # the initial: known to all
    second = dict(know.belief(prior_without("TX"), (Clue("A", 0, "M"), Clue("A", 1, "E")), ()))
    assert set(second) == set(first)  # the second letter rules out nothing it cannot read


def test_a_border_it_does_not_know_drops_the_true_state_until_nothing_else_fits():
    """Without the NH-ME pair, "NH" leaves VT and MA only; "no more border states" after NH
    then contradicts both as well as Maine (VT and MA have more borders; Maine, to it, none
    named), so it falls back to the states of fewest contradictions."""
    real = Knowledge()
    know = Knowledge(borders=0.9, seed=0)
    pairs = {(a, b) for a in range(50) for b in range(a + 1, 50) if real.neighbours[a] >> b & 1}
    missing = {(a, b) for a, b in pairs if not know.neighbours[a] >> b & 1}
    assert 0 < len(missing) < len(pairs) // 4
    a, b = sorted(missing)[0]
    clue = Clue("B", 0, b)
    fits = {c for c, _ in know.belief(facts.ALL, (clue,), ())}
    assert a not in fits and fits == set(facts.cards_of(know.neighbours[b])) - {a}
    # a state it knows no border of at all, told "no more": its known-border states contradict
    lonely = Knowledge(borders=0.0)
    told = dict(lonely.belief(prior_without("TX"), (Clue("B", 0, card("NH")),), ()))
    assert len(told) == 49  # every state contradicts "NH": the fewest contradictions is one, for all


# ----- the hard clue-giver ----------------------------------------------------------------------
@pytest.mark.parametrize("order", ["BAC", "BBB", "ABC", "CBA"])
def test_the_hard_clue_giver_never_makes_its_model_guesser_do_better_than_a_random_border(order):
    guesser = Guesser(Knowledge())
    plan = facts.program(order)
    hard, miss = HardGiver(RULES, guesser), HardGiver(RULES, guesser, aim="miss")
    total = {"random": Fraction(0), "hard": Fraction(0)}
    for s in range(50):
        random = outcome(guesser, s, facts.ALL, plan, 3, COSTS, RULES)
        against = outcome(guesser, s, facts.ALL, plan, 3, COSTS, RULES, hard)
        assert against.cost(COSTS) >= random.cost(COSTS), s
        assert outcome(guesser, s, facts.ALL, plan, 3, COSTS, RULES, miss).miss >= random.miss
        total["random"] += random.cost(COSTS)
        total["hard"] += against.cost(COSTS)
    assert total["hard"] > total["random"]


def test_the_hard_clue_giver_names_the_border_that_leaves_texas_hardest():
    """Texas under BBB: AR, LA, NM, OK. NM borders AZ, CO, OK, TX; the clue-giver's choice is
    the one of most expected guesses, and it plays the rest of the phase the same way."""
    guesser = Guesser(Knowledge())
    giver = HardGiver(RULES, guesser)
    values = giver.values(card("TX"), facts.program("BBB"), (), (), facts.ALL, 3, COSTS)
    assert set(values) == {card(c) for c in ("AR", "LA", "NM", "OK")}
    best = giver.options(card("TX"), facts.program("BBB"), (), (), facts.ALL, 3, COSTS)
    assert all(values[t] == max(values.values()) for t in best)
    assert averaged(guesser, card("TX"), facts.program("BBB"), RULES, giver).cost(COSTS) > \
        averaged(guesser, card("TX"), facts.program("BBB"), RULES).cost(COSTS)


# ----- the player's two paths -------------------------------------------------------------------
@pytest.mark.parametrize("preset", ["official", "corners-water", "borders-only"])
@pytest.mark.parametrize("spec", ["player:guess=optimal,clue=hard,objective=guesses", "player:guess=greedy,clue=hard",
                                  "player:guess=optimal,objective=game,clue=hard,aim=miss",
                                  "player:clue=hard,borders=0.7,capitals=0.6,postal=0.5,seed=2"])
def test_the_batch_masks_give_the_answers_a_games_history_gives(preset, spec):
    """Every guess and clue of a batch of games, answered from the batch's belief masks
    (`beliefs`) and from each game's own history (`Guesser.options`, `HardGiver.options`):
    the same answers to pick among, for full knowledge and with gaps."""
    entry = registry.get("state-iq")
    rules = entry.game.Rules.preset(preset)
    bot = entry.bots.make(spec, rules)
    seen = {"guess": 0, "clue": 0}
    real = bot.act

    def checked(asked, rng):
        n = len(asked)
        tables = bot.tables if asked.kind == "guess" else bot.true
        fast = beliefs(rules, asked, tables.fit, tables.nbr)
        slow = np.column_stack([asked.card, asked.order, asked.phase, asked.slot, asked.clues.reshape(n, -1),
                                asked.guesses.reshape(n, -1), asked.found]).astype(np.int64)
        for i in range(0, n, 3):
            view = asked.kind
            if fast[i, 0] == 0:  # nothing fits every clue: the player reads the history itself
                continue
            a = bot.from_belief(view, [int(x) for x in fast[i]])
            b = bot.from_history(view, [int(x) for x in slow[i]]) if view == "guess" else _clue_options(bot, asked, i)
            assert sorted(a) == sorted(b), (view, slow[i])
            seen[view] += 1
        return real(asked, rng)

    bot.act = checked
    entry.game.batch(rules, [bot, entry.bots.make("player", rules)], 800, 9, threads=1)
    assert seen["guess"] > 200 and seen["clue"] > 20


def _clue_options(bot, asked, i):
    """The hard clue-giver's options for game i of `asked`, from its history."""
    from geolab.games.stateiq.batch import ORDERS, UNSEEN, clue_of

    p, k = int(asked.phase[i]), int(asked.slot[i])
    name = ORDERS[int(asked.order[i])]
    clues = tuple(clue_of(name, j, int(asked.clues[i, p, j])) for j in range(k) if asked.clues[i, p, j] != UNSEEN)
    guessed = tuple(int(g) for g in asked.guesses[i, p, :k])
    prior = facts.ALL
    first = int(asked.found[i, 0]) or None
    if p == 1:
        prior &= ~facts.mask_of(int(g) for g in asked.guesses[i, 0] if g >= 0)
    limit = 3 if p == 0 else (first or 3)
    return bot.giver.options(int(asked.card[i]), facts.program(name), clues, guessed, prior, limit,
                             bot.giver.model.costs(p, first))
