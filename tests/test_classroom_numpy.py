"""The numpy batch engine plays exactly the kernel's games on the kernel's deals, and its own
random stream gives the same distribution of results."""

import numpy as np
import pytest
from scipy.stats import binom

from geolab.bots.classroom.policies import AverageRank, RandomDiscard, WorstCategory, tabulate
from geolab.cards import N_CARDS
from geolab.errors import GeolabError, RulesError
from geolab.games.classroom.batch import TABLE_SHAPE, TRACE_ATTEMPTS, score_tables, simulate
from geolab.games.classroom.numpy_engine import NumpySource, outcomes, score_table, simulate_numpy
from geolab.games.classroom.offers.arena import bench
from geolab.games.classroom.rules import Rules

# the last table picks a discard per call, opponents and hand at random, so a wrong number of
# opponents or a wrong call changes the scores
TABLES = np.stack([tabulate(p) for p in (AverageRank(), WorstCategory(), RandomDiscard())]
                  + [np.random.default_rng(8).integers(-1, 3, TABLE_SHAPE, dtype=np.int8)])
Z999 = 3.2905  # two-sided 99.9% normal quantile


class TraceSource:
    """The kernel's traced calls, GeoPower cards, deals and random discards, as a source for
    `outcomes`; it checks that each championship deck it is asked for shares no card."""

    def __init__(self, trace, rules):
        self.call, self.cat = trace["call"].astype(np.int64), trace["category"].astype(np.int64)
        self.hand, self.discard = trace["hand"], trace["discard"].astype(np.int64)
        self.per_deck = rules.max_per_round

    def calls(self, t, games):
        return self.call[games, t], self.cat[games, t]

    def starting(self, t, members):
        cards = self.hand[:, t][:, members]
        assert (cards >= 0).all()
        return cards

    def championship(self, t, games, g, s, slot):
        cards = self.hand[games[g], t, s]
        assert (cards >= 0).all() and (slot < self.per_deck).all()
        owner = np.repeat(np.cumsum(slot == 0), 3) * N_CARDS + cards.ravel()
        assert len(np.unique(owner)) == owner.size  # no card twice in one deck
        return cards

    def discards(self, t, games, students):
        return self.discard[games, t, students]


EXACT = [
    Rules(students=32, groups=8),
    Rules(students=17, groups=3, championship_ties="share"),
    Rules(students=32, groups=2, two_decks=True),
    Rules(students=10, groups=2),
    Rules(students=16, groups=3, call="top-dog"),
    Rules(students=25, groups=3, call="bottoms-up"),
    Rules(students=16, groups=8, max_per_round=8),  # two championship decks whenever a group ties
]


@pytest.mark.parametrize("rules", EXACT, ids=lambda r: f"{r.students}s{r.groups}g-{r.call}-{r.championship_ties}")
def test_outcomes_equal_the_kernel_on_its_traced_deals(rules):
    seats = np.arange(rules.students) % len(TABLES)
    kernel = simulate(rules, TABLES, seats, 2000, seed=rules.students, trace=True)
    keep = np.flatnonzero(kernel.championship_rounds <= TRACE_ATTEMPTS)
    assert len(keep) > 1990
    trace = {k: v[keep] for k, v in kernel.trace.items()}
    group_win, champion, rounds, dealt = outcomes(rules, score_table(TABLES), seats, TraceSource(trace, rules),
                                                  len(keep))
    assert (group_win == kernel.group_win[keep]).all()
    assert (champion == kernel.champion[keep]).all()
    assert (rounds == kernel.championship_rounds[keep]).all()
    assert (dealt == kernel.championship_hands[keep]).all()


def test_multi_deck_championships_are_in_the_exactness_test():
    rules = EXACT[-1]
    kernel = simulate(rules, TABLES, np.arange(16) % len(TABLES), 2000, seed=16)
    assert (kernel.group_win.sum(axis=1) > rules.max_per_round).mean() > 0.1


def test_score_table_equals_the_kernels():
    assert (score_table(TABLES) == score_tables(TABLES)).all()


def test_deals_are_fresh_decks_uniform_in_every_place():
    source = NumpySource(Rules(), np.random.default_rng(3), 0)
    cards = source.deal(40_000, 48).astype(np.int64)
    assert all(len(set(row)) == 48 for row in cards[:2000])
    assert (np.sort(cards, axis=1)[:, :-1] != np.sort(cards, axis=1)[:, 1:]).all()
    counts = np.stack([np.bincount(cards[:, p], minlength=N_CARDS) for p in (0, 23, 47)])
    lo, hi = binom.interval(0.999, 40_000, 1 / N_CARDS)
    assert lo <= counts.min() and counts.max() <= hi


class TiedFirst:
    """A Generator whose first draw has no random bits: every deal key ties."""

    def __init__(self):
        self.rng, self.draws = np.random.default_rng(1), 0

    def integers(self, *args, **kwargs):
        self.draws += 1
        return self.rng.integers(*args, **kwargs) * (self.draws > 1)


def test_decks_whose_keys_tie_are_shuffled_again():
    rng = TiedFirst()
    cards = NumpySource(Rules(), rng, 0).deal(5, 48)
    assert rng.draws == 2 and (np.sort(cards, axis=1)[:, 1:] != np.sort(cards, axis=1)[:, :-1]).all()
    assert (cards != np.arange(48)).any(axis=1).all()  # not the card order that broke the ties


def test_symmetric_field_each_student_wins_one_in_students():
    rules = Rules(students=20, groups=4)
    n = 20_000
    batch = simulate_numpy(rules, TABLES[:1], np.zeros(20, int), n, seed=5)
    assert (batch.champion.sum(axis=1) == 1).all()  # replays leave one champion
    lo, hi = binom.interval(0.999, n, 1 / rules.students)
    wins = batch.champion.sum(axis=0)
    assert lo <= wins.min() and wins.max() <= hi


@pytest.mark.parametrize("rules", [Rules(students=32, groups=8),
                                   Rules(students=17, groups=3, championship_ties="share")],
                         ids=["32s8g", "17s3g-share"])
def test_group_and_champion_rates_match_the_kernel(rules):
    seats = np.arange(rules.students) % len(TABLES)
    n = 20_000
    mine, theirs = simulate_numpy(rules, TABLES, seats, n, seed=9), simulate(rules, TABLES, seats, n, seed=9)
    for a, b in ((mine.group_win, theirs.group_win), (mine.champion, theirs.champion)):
        p, q = a.mean(axis=0), b.mean(axis=0)
        assert (np.abs(p - q) <= Z999 * np.sqrt((p * (1 - p) + q * (1 - q)) / n)).all()
    assert (mine.champion.sum(axis=1) >= 1).all()
    a, b = mine.championship_hands, theirs.championship_hands
    assert abs(a.mean() - b.mean()) <= Z999 * np.sqrt((a.var() + b.var()) / n)


def test_results_depend_on_seed_not_threads():
    rules = Rules(students=20, groups=4)
    seats = np.arange(20) % 3
    one = simulate_numpy(rules, TABLES, seats, 20_000, seed=4, threads=1)
    two = simulate_numpy(rules, TABLES, seats, 20_000, seed=4, threads=2)
    other = simulate_numpy(rules, TABLES, seats, 20_000, seed=5, threads=2)
    assert (one.group_win == two.group_win).all() and (one.champion == two.champion).all()
    assert (one.championship_hands == two.championship_hands).all()
    assert (one.group_win != other.group_win).any()
    assert simulate_numpy(rules, TABLES, seats, 0).group_win.shape == (0, 20)


def test_bad_input_raises_rules_error():
    rules = Rules()
    with pytest.raises(RulesError, match="shape"):
        simulate_numpy(rules, np.zeros((1, 2, 3), np.int8), np.zeros(20, int), 10)
    with pytest.raises(RulesError, match="seats"):
        simulate_numpy(rules, TABLES, np.full(20, 5), 10)
    with pytest.raises(RulesError, match="students"):
        simulate_numpy(Rules(students=9), TABLES, np.zeros(9, int), 10)
    with pytest.raises(RulesError, match="3-card"):
        simulate_numpy(Rules(dealt=2), TABLES, np.zeros(20, int), 10)
    with pytest.raises(GeolabError, match="n_games must be at least 0, got -1"):  # the run's numbers: common/chunks
        simulate_numpy(rules, TABLES, np.zeros(20, int), -1)


def test_bench_times_numpy_alternating_with_the_batch_engine():
    result = bench(Rules(students=10, groups=2), 500, 1, 3)
    assert len(result["numpy_seconds"]) == len(result["batch_seconds"]) == 3
    assert result["numpy_student_hands_per_s"] == pytest.approx(500 * 10 / np.median(result["numpy_seconds"]), rel=0.01)
    ratios = np.array(result["numpy_seconds"]) / np.array(result["batch_seconds"])
    assert ratios.min() * 0.99 <= result["batch_over_numpy"] <= ratios.max() * 1.01
    assert result["numpy_student_hands_per_cpu_s"] > 0
    # every hand dealt counts: one a student (10) plus the Championship Round's (2 finalists,
    # a few more after ties and replays), so about 1.2 hands a student
    assert 1.15 < result["numpy_hands_evaluated_per_s"] / result["numpy_student_hands_per_s"] < 1.4
