"""The batch engine against the reference engine: same deals, same decisions, same games."""

import json
from dataclasses import fields, replace

import numpy as np
import pytest

import geolab.games.ranks.batch as rb
import geolab.games.ranks.reference as ranks_ref
from geolab.bots.ranks.heuristics import FUSED, GreedyPolicy, Policy
from geolab.bots.ranks.registry import BOTS
from geolab.bots.ranks.seats import GreedySeat
from geolab.errors import GeolabError, IllegalActionError
from geolab.game import BatchBot
from geolab.games.ranks.records import replay_record, to_record
from geolab.games.ranks.rules import PRESETS, Rules

SMALL = {"block": 16, "chunk": 32}
#: The heuristic bots; the learned bot needs a trained model and is tested with it.
HEURISTICS = ("random", "greedy", "planner", "counter")


def sides(played: rb.Played, i: int) -> list[str]:
    return ["AB"[int(w)] for w in played.history["winner"][i, : played.n_tricks[i]]]


@pytest.mark.parametrize("preset", list(PRESETS))
def test_fast_dealer_is_deal_arrays(preset):
    rules = Rules.preset(preset)
    d = rb.deal(rules, 7, 3, 2, block=500)
    for b in (3, 4):
        rng = rb.block_rng(7, b)
        hands, draw, power = ranks_ref.deal_arrays(rules, 500, rng)
        part = slice((b - 3) * 500, (b - 2) * 500)
        assert (d.keys[part] == rng.integers(0, 2**63, size=500, dtype=np.int64)).all()  # then the keys
        assert (d.hands[part] == hands).all() and (d.draw[part] == draw).all()
        assert (power is None and d.power is None) or (d.power[part] == power).all()
    assert (np.bitwise_or.reduce(np.left_shift(1, d.hands.astype(np.int64)), axis=2) == d.masks).all()


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_bot_pairing_replays_through_the_reference_engine(preset):
    rules = Rules.preset(preset)
    for a in HEURISTICS:
        for b in HEURISTICS:
            played = rb.play(rules, (BOTS.make(a, Rules()), BOTS.make(b, Rules())), 24, seed=len(a) * 31 + len(b),
                             **SMALL)
            for i in range(len(played)):
                record = json.loads(json.dumps(to_record(played.game(i), result=False)))
                result = replay_record(record)
                assert result["trick_winners"] == sides(played, i)
                assert result["winner"] == (None if played.winner[i] < 0 else "AB"[played.winner[i]])
                assert result["points"] == {"A": int(played.points[i, 0]), "B": int(played.points[i, 1])}
                assert result["tricks_won"] == {"A": int(played.tricks_won[i, 0]), "B": int(played.tricks_won[i, 1])}
                assert result["first_lead"] == "AB"[played.first_lead[i]]


def _reference_games(rules: Rules, played: rb.Played, seats) -> list[ranks_ref.Game]:
    games = []
    for i in range(len(played)):
        draw = ranks_ref.Deal((tuple(played.hands[i, 0]), tuple(played.hands[i, 1])), tuple(played.draw[i]))
        first = draw.drawn_first_lead() if rules.first_lead == "given" else None
        power = None if played.power is None else played.power[i].tolist()
        games.append(ranks_ref.play(rules, played.hands[i].tolist(), seats, first, power))
    return games


@pytest.mark.parametrize("preset", list(PRESETS))
def test_batched_greedy_decides_as_greedy_seat(preset):
    rules = Rules.preset(preset)
    greedy = BOTS.make("greedy", Rules())
    played = rb.play(rules, (greedy, greedy), 64, seed=5, **SMALL)
    reference = _reference_games(rules, played, [GreedySeat(), GreedySeat()])
    assert [played.game(i) for i in range(len(played))] == reference
    # the Seat bridge gives the seat the reference engine's views: same games again
    bridged = rb.play(rules, (rb.SeatPolicy(GreedySeat()), greedy), 64, seed=5, **SMALL)
    assert [bridged.game(i) for i in range(len(played))] == reference


class _Spy:
    """A greedy seat that writes down every View it is shown."""

    def __init__(self, log: set):
        self.log, self.inner = log, GreedySeat()

    def _note(self, kind, view):
        self.log.add((kind, replace(view, discards=tuple(sorted(view.discards)))))
        return getattr(self.inner, kind)(view)

    def discard(self, view):
        return self._note("discard", view)

    def declare(self, view):
        return self._note("declare", view)

    def lead(self, view):
        return self._note("lead", view)

    def follow(self, view):
        return self._note("follow", view)


@pytest.mark.parametrize("preset", ["battle1", "battle2", "battle3", "geodouble"])
def test_views_are_the_reference_engines(preset):
    rules = Rules.preset(preset)
    batch_log, reference_log = set(), set()
    played = rb.play(rules, (rb.SeatPolicy(_Spy(batch_log)), rb.SeatPolicy(_Spy(batch_log))), 16, seed=2, **SMALL)
    _reference_games(rules, played, [_Spy(reference_log), _Spy(reference_log)])
    assert batch_log == reference_log and len(batch_log) > 16 * 6


def test_same_seed_same_games_whatever_the_chunks():
    rules = Rules.preset("battle2")
    bots = (BOTS.make("random", Rules()), BOTS.make("greedy", Rules()))
    runs = [
        rb.play(rules, bots, 150, seed=9, block=16, chunk=16, threads=1),
        rb.play(rules, bots, 150, seed=9, block=16, chunk=48, threads=2),
        rb.play(rules, bots, 150, seed=9, block=16, chunk=1000, threads=1),
    ]
    for other in runs[1:]:
        for name in ("hands", "discards", "first_lead", "declarations", "n_tricks", "winner", "points"):
            assert (getattr(other, name) == getattr(runs[0], name)).all(), name
        for k, v in runs[0].history.items():
            assert (other.history[k] == v).all(), k
    swapped = rb.play(rules, bots[::-1], 150, seed=9, block=16, chunk=48, stream=1)
    assert (swapped.hands == runs[0].hands).all()


class _Cheat(Policy):
    """Greedy, except for one bad decision of the given kind."""

    name = "cheat"

    def __init__(self, kind, bad):
        self.kind, self.bad, self.greedy = kind, bad, BOTS.make("greedy", Rules())

    def act(self, obs, rng):
        action = self.greedy.act(obs, rng)
        return self.bad(obs, action) if obs.kind == self.kind else action


def _not_in_hand(obs):
    legal = obs.legal_cards()
    return np.array([np.flatnonzero(~row)[0] for row in legal])


@pytest.mark.parametrize(
    "preset, kind, bad, message",
    [
        ("combo1", "follow", lambda obs, a: _not_in_hand(obs), "policy 'cheat', trick 1 follow, game "),
        ("combo1", "lead", lambda obs, a: a._replace(card=_not_in_hand(obs)), "which is not in its hand"),
        ("combo1", "lead", lambda obs, a: a._replace(category=a.category + 3), "named category"),
        ("combo1", "lead", lambda obs, a: a._replace(base=a.base * 0 + 50), "chose base 50; allowed: 1"),
        ("battle2", "lead", lambda obs, a: a._replace(base=None), "no base given"),
        ("geodouble", "discard", lambda obs, a: a[:, [0, 0]], "discarded"),
        ("geodouble", "declare", lambda obs, a: a.astype(int), "must be a bool array"),
        ("combo1", "follow", lambda obs, a: a.astype(float), "must be an integer array"),
    ],
)
def test_an_illegal_action_is_reported_not_corrected(preset, kind, bad, message):
    cheat = _Cheat(kind, bad)
    with pytest.raises(IllegalActionError, match="cheat") as error:
        rb.play(Rules.preset(preset), (BOTS.make("greedy", Rules()), cheat), 32, seed=1, **SMALL)
    assert message in str(error.value)


def test_observations_hide_what_the_seat_may_not_see():
    seen = {}

    class Peek(Policy):
        name = "peek"

        def act(self, obs, rng):
            for name in ("discards", "opponent_discards", "played", "first_lead", "declarations"):
                getattr(obs, name)  # read now, as a policy does
            seen.setdefault((obs.rules.name, obs.kind), obs)
            return BOTS.make("greedy", Rules()).act(obs, rng)

    for preset in ("combo1", "battle1", "battle2"):
        rules = Rules.preset(preset)
        rb.play(rules, (Peek(), Peek()), 16, seed=3, **SMALL)
    follow = seen[("battle2", "follow")]
    assert follow.lead_card is None and follow.view(0).lead_card is None and follow.lead_category is not None
    assert seen[("battle1", "follow")].lead_card is not None
    assert seen[("combo1", "lead")].opponent_discards is None \
        and seen[("combo1", "lead")].view(0).opponent_discards is None
    assert seen[("battle1", "discard")].opponent_discards is None  # made at the same time
    opp = seen[("battle1", "lead")]
    assert opp.opponent_discards is not None and (opp.opponent_discards != 0).all()
    lead = seen[("combo1", "lead")]
    assert (lead.hand & lead.played[:, 0] == 0).all() and (lead.hand & lead.discards == 0).all()


def test_the_registry_builds_every_heuristic_by_name():
    assert set(HEURISTICS) <= set(BOTS.names())
    assert BOTS.make("greedy", Rules()).name == "greedy" and BOTS.make("counter:concede=2", Rules()).concede == 2
    with pytest.raises(GeolabError, match="unknown ranks bot"):
        BOTS.make("nobody", Rules())
    with pytest.raises(GeolabError, match="unknown parameter 'depth'"):
        BOTS.make("greedy:depth=3", Rules())


VARIANTS = [
    {"preset": "battle3", "equal_distance": "follow", "bonus": "none", "end_at": None},
    {"preset": "battle2", "lead_bases": [1, 25, 50], "win_points": [2, 3, 4]},
    {"preset": "combo1", "bonus": "shutout", "win_points": [1, 2, 1], "last_trick_breaks_tie": False, "end_at": None},
    {"preset": "battle3", "hand_size": 12, "tricks": 10, "discards": 2, "bases": [1] * 5 + [50] * 5, "power_split": 3,
     "win_tricks": 6, "end_at": 6},
    {"preset": "geodouble", "bases": [1, 50, 25, 1, 50, 10], "discards_public": True,
     "first_lead": "discard-statehood"},
]


@pytest.mark.parametrize("spec", VARIANTS)
def test_rule_variants_replay_through_the_reference_engine(spec):
    rules = Rules.from_spec(spec)
    for a, b in [("greedy", "random"), ("counter", "planner")]:
        played = rb.play(rules, (BOTS.make(a, Rules()), BOTS.make(b, Rules())), 32, seed=4, **SMALL)
        for i in range(len(played)):
            result = replay_record(json.loads(json.dumps(to_record(played.game(i), result=False))))
            assert result["trick_winners"] == sides(played, i)
            assert result["points"] == {"A": int(played.points[i, 0]), "B": int(played.points[i, 1])}
    greedy = BOTS.make("greedy", Rules())
    played = rb.play(rules, (greedy, greedy), 32, seed=4, **SMALL)
    assert [played.game(i) for i in range(len(played))] == _reference_games(rules, played, [GreedySeat(), GreedySeat()])


class _Walked(BatchBot):
    """A policy behind a plain `act`, so the engine walks its decisions one by one."""

    def __init__(self, policy):
        self.policy, self.name = policy, policy.name

    def act(self, obs, rng):
        return self.policy.act(obs, rng)


@pytest.mark.parametrize("spec", list(PRESETS) + VARIANTS)
def test_the_fused_kernel_plays_the_games_of_the_decision_loop(spec):
    rules = Rules.from_spec(spec)
    names = [p.name for p in FUSED] + ["counter:concede=2"]
    for a in names:
        for b in names:
            bots = (BOTS.make(a, Rules()), BOTS.make(b, Rules()))
            assert rb._fused(bots, 1) is not None and rb._fused((_Walked(bots[0]), bots[1]), 1) is None
            for seed in (0, 1, 2):
                fused = rb.play(rules, bots, 80, seed, **SMALL)
                walked = rb.play(rules, tuple(_Walked(p) for p in bots), 80, seed, **SMALL)
                for f in fields(rb.Played):
                    x, y = getattr(fused, f.name), getattr(walked, f.name)
                    if f.name == "history":
                        assert x.keys() == y.keys() and all((x[k] == y[k]).all() for k in x), (a, b, seed, f.name)
                    elif isinstance(x, np.ndarray):
                        assert x.dtype == y.dtype and (x == y).all(), (a, b, seed, f.name)
                    else:
                        assert x == y, (a, b, seed, f.name)


def test_a_subclass_of_a_fused_policy_is_walked():
    class Sulky(GreedyPolicy):
        name = "sulky"

    assert Sulky().fused is None and BOTS.make("greedy", Rules()).fused is not None


@pytest.mark.parametrize("spec", list(PRESETS) + VARIANTS)
def test_the_base_rule_has_one_python_and_one_numba_statement(spec):
    """`Rules.future_bases` and `Rules.base_of` (Python) give what the kernels' `future_bases`
    and `trick_base` (numba) give, every start trick, with and without Power cards."""
    rules = Rules.from_spec(spec)
    kr = rb.kernel_rules(rules)
    for power in ((7, 44), (50, 1)) if rules.base_mode == "power" else (None,):
        p0, p1 = power or (0, 0)
        for start in range(rules.tricks + 1):
            mask = sum(1 << b for b in set(rules.future_bases(start, power)))
            assert rb.future_bases(kr.mode, kr.base_masks, kr.split, p0, p1, start) == mask, (power, start)
            if start < rules.tricks:
                assert rb.trick_base(kr.mode, kr.fixed, kr.split, p0, p1, start) == (rules.base_of(start, power) or 0)
