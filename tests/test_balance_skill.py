"""The balance metrics of issue 16 beyond one line-up, on variants whose answers are known:
van der Genugten and Borm's skill share (the peeking oracle as the player who knows the deal),
the skill curve, restricted play (Jaffe et al.), series to a points target (lead changes, the
Level 2 bonus deciding the winner), and `geolab balance --variant FILE.toml`; plus each formula
on numbers worked by hand."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest

from geolab import registry
from geolab.cli import main
from geolab.errors import GeolabError
from geolab.lab import skill
from geolab.lab.series import Estimate, flips, lead_changes, play_one, walk

#: Top Rank and its match (the rigs: tests/conftest.py) are registered for every test here.
pytestmark = pytest.mark.usefixtures("rigs")


def toy_rules(**overrides):
    return registry.get("toy").game.Rules.preset("standard").replace(**overrides)


def ranks_rules(preset: str, **overrides):
    return registry.get("ranks").game.Rules.preset(preset).replace(**overrides)


# ----- the formulas ---------------------------------------------------------------------------
def test_the_ratio_estimator_and_its_interval():
    rng = np.random.default_rng(0)
    learning = 0.2 + 0.1 * rng.standard_normal(4000)
    chance = 0.1 + 0.1 * rng.standard_normal(4000)
    share = skill.ratio(learning, learning + chance)
    assert share.value == pytest.approx(learning.mean() / (learning + chance).mean())
    assert share.low < 2 / 3 < share.high and share.high - share.low < 0.05 and share.n == 4000
    exact = skill.ratio(np.full(50, 0.25), np.full(50, 0.5))  # no spread: the interval is a point
    assert (exact.value, exact.low, exact.high) == (0.5, 0.5, 0.5)
    assert math.isnan(skill.ratio(np.zeros(50), np.zeros(50)).value)  # nothing to share: undefined


def test_lead_changes_count_new_leaders_only():
    running = np.array([[2, 0], [2, 2], [2, 4], [5, 4], [5, 6]])  # A, level, B, A, B
    assert lead_changes(running) == 3
    assert lead_changes(np.array([[2, 0], [2, 2], [4, 2]])) == 0  # A, level, A again: no change
    assert lead_changes(np.array([[0, 0], [1, 1]])) == 0


def test_series_add_up_to_the_target_and_play_on_from_a_tie():
    points = np.array([[2, 0], [0, 2], [2, 0], [2, 0], [0, 3], [0, 3]])
    first, second = walk(points, 4)
    assert (first.start, first.games, first.winner, first.lead_changes) == (0, 3, 0, 0)
    assert (second.start, second.games, second.winner, second.lead_changes) == (3, 3, 1, 1)
    tied = play_one(np.array([[3, 3], [1, 1], [2, 0]]), 4, 0)  # 4-4 at the target plays on
    assert (tied.games, tied.winner) == (3, 0)
    assert play_one(np.array([[1, 0]]), 4, 0) is None and walk(np.array([[1, 0]]), 4) == []


def test_series_agree_with_the_reference_engines_series_scoring():
    from geolab.games.ranks.reference import score_series

    rules = ranks_rules("battle2")
    rng = np.random.default_rng(3)
    for _ in range(20):
        points = np.array([(int(rng.choice([2, 3])), 0) if rng.random() < 0.5 else (0, int(rng.choice([2, 3])))
                           for _ in range(40)])
        mine, theirs = play_one(points, rules.target_points, 0), score_series(rules, [tuple(p) for p in points])
        assert (mine.winner, mine.games) == (theirs.winner, theirs.battles)


def test_a_bonus_flips_a_series_only_when_its_points_decide_it():
    bonus = np.array([[3, 0], [0, 2], [3, 0], [0, 2], [0, 2]])  # A: 3, 3, 6, 6, 6 / B: 0, 2, 2, 4, 6 ...
    plain = np.array([[2, 0], [0, 2], [2, 0], [0, 2], [0, 2]])
    assert flips(bonus, plain, 6).tolist() == [True]  # with the bonus A reaches 6 first; without, B does
    assert flips(plain, plain, 6).tolist() == [False]


def test_the_bonus_free_rescoring_pays_each_win_at_the_first_level():
    rules = ranks_rules("battle2")  # win_points (2, 3, 3), ties pay 1 each
    games = pd.DataFrame({"score_A": [1.0, 0.0, 0.5], "score_B": [0.0, 1.0, 0.5]})
    points = np.array([[3, 0], [0, 3], [1, 1]])
    plain = skill.unbonused(registry.get("ranks"), rules, games, points)
    assert plain.tolist() == [[2, 0], [0, 2], [1, 1]]
    assert skill.unbonused(registry.get("ranks"), ranks_rules("battle1"), games, points) is None  # no bonus


def test_pooled_estimates_average_the_seatings():
    pooled = Estimate.pooled([[1.0, 0.0] * 50, [1.0, 1.0, 0.0, 0.0] * 25])
    assert pooled.value == pytest.approx(0.5) and pooled.n == 200 and pooled.low < 0.5 < pooled.high


# ----- the skill share on rigged variants -----------------------------------------------------------
def test_no_skill_but_knowing_the_deal_pays_gives_a_skill_share_of_zero():
    # rigged "guess": a seat's first card must match the parity of the others' dealt ranks,
    # a coin to any fair seat, a certainty to the oracle when it holds such a card
    got = skill.skill_share(registry.get("toy"), toy_rules(rigged="guess"), 3000, 1)
    assert got.oracle == "oracle" and got.strong == "best" and got.beginner == "first"
    assert abs(got.learning.value) < 0.01 and got.learning.low < 0 < got.learning.high
    assert got.chance.low > 0.15
    assert got.share.low < 0 < got.share.high and abs(got.share.value) < 0.05


def test_a_game_where_the_best_play_needs_no_knowledge_has_a_skill_share_of_one():
    # one round: playing the best card is what the oracle would do too, deal by deal
    got = skill.skill_share(registry.get("toy"), toy_rules(rounds=1, categories=(0,)), 2000, 1)
    assert got.chance.value == 0 and got.chance.low == got.chance.high == 0
    assert got.learning.low > 0.1
    assert (got.share.value, got.share.low, got.share.high) == (1, 1, 1)


def test_a_game_the_deal_alone_decides_has_no_effect_to_share():
    got = skill.skill_share(registry.get("toy"), toy_rules(rigged="deal"), 2000, 1)
    assert got.learning.value == 0 and got.chance.value == 0 and math.isnan(got.share.value)


def test_the_official_toy_game_lies_between_skill_and_luck():
    got = skill.skill_share(registry.get("toy"), toy_rules(), 2000, 1)
    assert 0.2 < got.share.low < got.share.value < got.share.high < 0.8


def test_ranks_skill_share_uses_the_registered_peeking_oracle():
    entry = registry.get("ranks")
    assert entry.bots.info("oracle").peeks and skill.plan(entry).oracle == "oracle"
    got = skill.skill_share(entry, ranks_rules("combo1"), 40, 2)
    assert got.chance.value > 0.05 and got.learning.value > 0.4 and 0.5 < got.share.value < 1
    assert skill.plan(registry.get("jumbled")).oracle is None


def test_class_skill_share_uses_the_oracle_that_peeks_at_the_geopower_card():
    entry = registry.get("class")
    assert entry.bots.info("oracle").peeks and skill.plan(entry).oracle == "oracle"
    rules = entry.game.Rules.preset(entry.game.Rules.DEFAULT)
    got = skill.skill_share(entry, rules, 4000, 3)
    # knowing the category beats the equilibrium, which beats random; both effects are real
    assert got.chance.low > 0 and got.learning.low > 0 and 0 < got.share.low < got.share.high < 1


def test_the_oracle_peeks_only_on_the_batch_engine():
    from geolab.bots.ranks.seats import BotSeat  # how `geolab play` seats a bot at the reference engine

    entry, rules = registry.get("ranks"), ranks_rules("combo1")
    deal = entry.game.deal(rules, np.random.default_rng(1))
    with pytest.raises(GeolabError, match="peek"):  # refused when seated, or at its first decision
        seats = [BotSeat(entry.bots.make("oracle", rules), rules, np.random.default_rng(1)),
                 BotSeat(entry.bots.make("greedy", rules), rules, np.random.default_rng(2))]
        entry.game.play(rules, deal, seats)
    assert entry.bots.make("oracle", rules).peeks  # what a seat can read to refuse it


# ----- the skill curve --------------------------------------------------------------------------
def test_the_skill_curve_plays_each_rung_over_the_one_below():
    entry = registry.get("toy")
    with pytest.raises(skill.NotApplicable, match="sample counts"):
        skill.skill_curve(entry, toy_rules(), 100, 1)
    curve = (("greed=0", "best:greed=0"), ("greed=0.5", "best:greed=0.5"), ("greed=1", "best"))
    rungs = skill.skill_curve(entry, toy_rules(), 3000, 1, curve=curve)
    assert [(r.high[0], r.low[0]) for r in rungs] == [("greed=0.5", "greed=0"), ("greed=1", "greed=0.5")]
    assert all(r.fair == pytest.approx(2 / 3) and r.share.low > r.fair for r in rungs)  # a b a: 2 of 3 seats
    luck = skill.skill_curve(entry, toy_rules(rigged="deal"), 3000, 1, curve=curve)
    assert all(r.share.value == pytest.approx(2 / 3) for r in luck)  # no skill: every rung its fair share


def test_the_ranks_and_jumbled_curves_double_the_sample_with_no_clock():
    assert [s for _, s in skill.plan(registry.get("ranks")).curve] == [
        f"montecarlo:k={k},budget_ms=none" for k in (1, 2, 4, 8, 16)]
    assert [label for label, _ in skill.plan(registry.get("jumbled")).curve] == [
        f"samples={k}" for k in (1, 2, 4, 8, 16)]
    rungs = skill.skill_curve(registry.get("ranks"), ranks_rules("combo1"), 8, 0,
                              curve=skill.plan(registry.get("ranks")).curve[:2])
    assert len(rungs) == 1 and rungs[0].share.n == 8 and 0 <= rungs[0].share.value <= 1


# ----- restricted play --------------------------------------------------------------------------
def _toy_restriction():
    return next(r for r in skill.plan(registry.get("toy")).restrictions if r.choice == "top")


def test_restricted_play_costs_nothing_where_the_deal_decides_and_something_where_play_does():
    entry = registry.get("toy")
    luck = skill.restricted(entry, toy_rules(rigged="deal"), _toy_restriction(), 2000, 1)
    zero = pytest.approx(0, abs=1e-9)  # 1/3 in floating point
    assert (luck.cost.value, luck.cost.low, luck.cost.high) == (zero, zero, zero) and luck.fair == pytest.approx(1 / 3)
    play = skill.restricted(entry, toy_rules(), _toy_restriction(), 2000, 1)
    assert play.cost.low > 0.1 and play.share.value == pytest.approx(1 / 3 - play.cost.value)
    with pytest.raises(skill.NotApplicable, match="one card"):
        skill.restricted(entry, toy_rules(hand=1, rounds=1, categories=(0,)), _toy_restriction(), 100, 1)


def test_ranks_restrictions_apply_only_where_the_choice_is_open():
    entry = registry.get("ranks")
    found = {r.choice: r for r in skill.plan(entry).restrictions}
    assert set(found) == {"size", "statehood", "population", "base1", "base50", "declare"}
    combo1, battle2 = ranks_rules("combo1"), ranks_rules("battle2")
    assert "base_mode fixed" in found["base50"].reason(combo1) and "declaration" in found["declare"].reason(combo1)
    assert "base_mode power" in found["base50"].reason(ranks_rules("battle3"))
    assert all(found[c].reason(battle2) is None for c in found)
    with pytest.raises(GeolabError, match="does not apply"):
        entry.bots.make("greedy:forbid=base50", combo1)
    with pytest.raises(GeolabError, match="forbid must be one of"):
        entry.bots.make("greedy:forbid=colour", combo1)


def test_an_unrestricted_greedy_is_the_fused_greedy_itself():
    from geolab.bots.ranks.heuristics import GreedyPolicy

    entry, rules = registry.get("ranks"), ranks_rules("combo1")
    for spec in ("greedy", "greedy:forbid=none"):
        bot = entry.bots.make(spec, rules)
        assert type(bot) is GreedyPolicy and bot.fused is not None
    assert entry.bots.make("greedy:forbid=size", rules).fused is None  # asked decision by decision, checked


def test_the_restricted_lead_kernel_is_greedys_with_every_category_allowed():
    from geolab.bots.ranks.heuristics import greedy_lead
    from geolab.bots.ranks.restricted import _lead_among

    rng = np.random.default_rng(5)
    for _ in range(300):
        cards = rng.choice(50, int(rng.integers(1, 9)), replace=False)
        hand = np.int64(sum(1 << int(c) for c in cards))
        bases = np.array(rng.choice([1, 50, 25], int(rng.integers(1, 3)), replace=False), np.int64)
        c, k, j = _lead_among(hand, bases, 0b111)
        assert (c, k, bases[j]) == tuple(greedy_lead(hand, bases))
        c, k, j = _lead_among(hand, bases, 0b011)
        assert k != 2 and (hand >> c) & 1


def test_forbidden_choices_are_never_made():
    from geolab.games.ranks import batch as rb

    entry = registry.get("ranks")
    rules = ranks_rules("battle2")
    greedy = entry.bots.make("greedy", rules)
    for forbid, ok in (("population", lambda p: p.history["category"] != 2),
                       ("base50", lambda p: p.history["base"] != 50)):
        played = rb.play(rules, (entry.bots.make(f"greedy:forbid={forbid}", rules), greedy), 300, seed=4)
        tricks = np.arange(rules.tricks)[None, :] < played.n_tricks[:, None]
        mine = tricks & (played.history["leader"] == 0)
        assert mine.any() and ok(played)[mine].all()
    silent = rb.play(rules, (entry.bots.make("greedy:forbid=declare", rules), greedy), 300, seed=4)
    assert not silent.declarations[:, 0].any() and silent.declarations[:, 1].any()


def test_never_declaring_changes_no_game_but_costs_series():
    entry, rules = registry.get("ranks"), ranks_rules("battle2")
    declare = next(r for r in skill.plan(entry).restrictions if r.choice == "declare")
    got = skill.restricted(entry, rules, declare, 4000, 0)
    assert got.cost.value == 0 and got.cost.high == 0  # a declaration never changes who wins a game
    assert got.series_cost is not None and got.series_cost.low > 0  # but the points it forgoes lose series


def test_jumbled_pairs_are_forced_officially_and_forbiddable_with_bigger_sets():
    from geolab.games.jumbled.game import GAME as JUMBLED

    entry = registry.get("jumbled")
    pair = next(r for r in skill.plan(entry).restrictions if r.choice == "pair")
    standard = entry.game.Rules.preset("standard")
    assert "leaves no legal play" in pair.reason(standard)
    assert "never legal" in pair.reason(standard.replace(cards_to_play=3))
    bigger = standard.replace(max_cards_per_set=3)
    assert pair.reason(bigger) is None
    bot = entry.bots.make("heuristic:forbid=pair", bigger)
    laid = []
    act = bot.policy.act
    bot.policy.act = lambda obs, rng: (laid.append(out := act(obs, rng)), out)[1]
    JUMBLED.batch(bigger, [bot] + [entry.bots.make("heuristic", bigger) for _ in range(3)], 200, 1)
    counts = np.array([bin(int(m)).count("1") for part in laid for m in part])
    assert len(counts) and 2 not in counts and {1, 3} <= set(counts)


def test_jumbled_call_restrictions_make_the_other_call():
    from geolab.bots.jumbled.callers import RandomCall
    from geolab.bots.jumbled.restricted import NoCall
    from geolab.games.jumbled.observations import CallObservation

    rules = registry.get("jumbled").game.Rules.preset("standard")
    obs = CallObservation(rules, 0, np.arange(500), np.zeros(500, np.int64), np.zeros((500, 4), np.int64))
    calls = NoCall(RandomCall(), "top-dog").call(obs, np.random.default_rng(0))
    assert (calls == 1).all()
    only = rules.replace(calls=("bottoms-up",))
    assert "never allow" in skill.plan(registry.get("jumbled")).restrictions[1].reason(only)
    assert "only call" in skill.plan(registry.get("jumbled")).restrictions[2].reason(only)


# ----- series on Play the Ranks -------------------------------------------------------------------
def test_ranks_series_of_battles_and_the_level2_bonus():
    entry = registry.get("ranks")
    frames: list = []
    from geolab.lab.tables import play_totals

    rules = ranks_rules("battle2")
    play_totals(entry, rules, ["greedy"], 4000, 0, frames=frames)
    stats = skill.series_stats(entry, rules, pd.concat(frames))
    assert stats.target == 15 and stats.series > 300 and stats.games.value > 15 / 3
    assert stats.comeback.value == pytest.approx(np.mean([s.lead_changes > 0 for s in
                                                          walk(skill._points(entry, rules, pd.concat(frames), 0), 15)]))
    points = skill._points(entry, rules, pd.concat(frames), 0)
    assert stats.bonus_paid.value == pytest.approx((points.max(axis=1) == 3).mean())  # win_points (2, 3, 3)
    assert 0 < stats.bonus_paid.value < 1 and 0 < stats.bonus_flips.value < 0.5
    with pytest.raises(skill.NotApplicable, match="one game"):
        skill.check_series(entry, ranks_rules("combo1"))


# ----- the report card and its variant file -------------------------------------------------------
def test_the_report_card_says_what_it_did_not_measure_and_why(capsys):
    assert main(["balance", "toy", "--set", "rigged=guess", "--games", "1500", "--search-games", "1500",
                 "--all", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    rows = {r["metric"]: r for r in out["metrics"]}
    share = next(r for m, r in rows.items() if m.startswith("skill share"))
    assert "oracle (peeks)" in share["metric"] and "oracle (peeks)" in share["line_up"]
    assert share["significant"] and share["variant"] < 0.1 < share["official"]
    assert share["n_official"] == share["n_variant"] == 1500
    cost = rows["restricted play: forbid=top (win-rate cost)"]
    assert cost["official"] > 0.1 and cost["n_official"] == 1500
    reasons = {n["metric"]: n["reason"] for n in out["not_applicable"]}
    assert "sample counts" in reasons["skill curve"] and "one game" in reasons["series: lead changes, length, bonus"]
    assert main(["balance", "jumbled", "--set", "target=25", "--games", "200", "--search-games", "20",
                 "--skill-share"]) == 0
    assert "no oracle registered for jumbled" in capsys.readouterr().out


def test_a_variant_file_is_a_table_of_fields_or_a_sweep_spec(tmp_path, capsys):
    flat = tmp_path / "first-wins.toml"
    flat.write_text('rigged = "seat-a"\nlimit = "none"\n')
    assert main(["balance", "toy", "--variant", str(flat), "--games", "1000", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["variant_name"] == "first-wins" and out["variant"] == {"preset": "standard", "rigged": "seat-a"}
    first = next(r for r in out["metrics"] if r["metric"] == "first mover's win share")
    assert first["variant"] == 1 and first["significant"]
    spec = tmp_path / "spec.toml"
    spec.write_text('game = "toy"\nrules = "duel"\n[variants.short]\nrounds = 2\ncategories = [0, 1]\n'
                    '[variants.low]\nbest_low = false\n')
    assert main(["balance", "toy", "--variant", str(spec), "--name", "short", "--set", "ties=nobody", "--games", "500",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["official"] == "duel" and out["variant"]["rounds"] == 2 and out["variant"]["ties"] == "nobody"


def test_variant_file_mistakes_are_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    cases = [("game = [", ["--variant", str(bad)], "not a TOML"),
             ("colour = 3", ["--variant", str(bad)], "unknown field 'colour'"),
             ("rounds = 9", ["--variant", str(bad)], "rounds must be"),
             ('game = "ranks"\nend_at = 5', ["--variant", str(bad)], "not 'toy'"),
             ('[variants.a]\nrounds = 2\ncategories = [0, 1]\n[variants.b]\nties = "nobody"', ["--variant", str(bad)],
              "pick one with --name (a, b)"),
             ('[variants.a]\nties = "nobody"', ["--variant", str(bad), "--name", "zzz"], "no variant 'zzz'"),
             ('rules = "duel"\n[variants.a]\nties = "nobody"', ["--variant", str(bad), "--rules", "standard"],
              "but --rules is"),
             ("", ["--variant", str(tmp_path / "missing.toml")], "cannot read"),
             ("", ["--name", "a", "--set", "limit=none"], "give the file")]
    for text, argv, words in cases:
        bad.write_text(text)
        assert main(["balance", "toy", *argv, "--games", "10"]) == 2
        err = capsys.readouterr().err
        assert words in err and len(err.strip().splitlines()) == 1, (text, err)
