"""Class GeoPower Double Choice: a class in groups, three cards dealt, one discarded, one
hidden category. The rules, the reference engine (the specification) and game records.

The batch engine lives in `geolab.games.classroom_batch`; it plays the same games for many
classes at once and is tested against this module. Rule decisions: docs/rules-classroom.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from functools import cache
from typing import Callable, Protocol

import numpy as np

from geolab.cards import CATEGORIES, GEOPOWER_DECK, N_CARDS, POSTAL, RANKS
from geolab.errors import RecordError, RulesError

TOP_DOG, BOTTOMS_UP = 0, 1
CALLS = ("top-dog", "bottoms-up")
CALL_MODES = ("random", "top-dog", "bottoms-up")
TIE_RULES = ("replay", "share")
STARTING, CHAMPIONSHIP = "starting", "championship"


@dataclass(frozen=True)
class Rules:
    """Every number and choice of the rule text; defaults are the official values.

    `call` is the teacher's call policy: "random" (a fair coin each round: the text leaves
    the call free and a coin is a teacher with no pattern) or a fixed call for every round.
    `geopower` counts the Size, Statehood and Population cards in the GeoPower deck.
    `starting_rounds` None means "as the text says": one Starting Round when everyone fits
    in one deck (or `two_decks`), else two.
    """

    students: int = 20
    groups: int = 4
    min_students: int = 10
    max_students: int = 32
    min_groups: int = 2
    max_groups: int = 8
    min_group_size: int = 2
    max_per_round: int = 16
    starting_rounds: int | None = None
    two_decks: bool = False
    dealt: int = 3
    discarded: int = 1
    call: str = "random"
    geopower: tuple[int, int, int] = tuple(GEOPOWER_DECK.count(c) for c in range(3))
    championship_ties: str = "replay"

    def validate(self) -> Rules:
        """Raise `RulesError` naming the first impossible setting; return self when fine."""
        n, g = self.students, self.groups
        if not self.min_students <= n <= self.max_students:
            raise RulesError(
                f"students: {n} is outside {self.min_students}-{self.max_students} "
                "(the game is for 10 to 32 students)"
            )
        if not self.min_groups <= g <= self.max_groups:
            raise RulesError(f"groups: {g} is outside {self.min_groups}-{self.max_groups}")
        if n // g < self.min_group_size:
            raise RulesError(
                f"groups: {n} students in {g} groups leaves a group of {n // g}; "
                f"each group needs at least {self.min_group_size}"
            )
        if self.discarded != 1 or self.dealt < 2:
            raise RulesError(f"dealt/discarded: {self.dealt}/{self.discarded}; the game deals 2 or more and discards exactly 1")
        if self.max_per_round * self.dealt > N_CARDS:
            raise RulesError(
                f"max_per_round: {self.max_per_round} students x {self.dealt} cards "
                f"= {self.max_per_round * self.dealt} is more than the {N_CARDS} cards of a deck"
            )
        if self.call not in CALL_MODES:
            raise RulesError(f"call: {self.call!r} is not one of {', '.join(CALL_MODES)}")
        if self.championship_ties not in TIE_RULES:
            raise RulesError(f"championship_ties: {self.championship_ties!r} is not one of {', '.join(TIE_RULES)}")
        if len(self.geopower) != 3 or min(self.geopower) < 0 or sum(self.geopower) == 0:
            raise RulesError(f"geopower: {self.geopower} must be three card counts, not all zero")
        if self.starting_rounds not in (None, 1, 2):
            raise RulesError(f"starting_rounds: {self.starting_rounds} must be 1, 2 or None")
        if self.starting_rounds == 2 and self.two_decks:
            raise RulesError("two_decks plays everyone in one Starting Round; do not also ask for two")
        if self.rounds == 1 and not self.two_decks and n > self.max_per_round:
            raise RulesError(
                f"{n} students in one Starting Round with one deck: at most {self.max_per_round} "
                "per round (play two Starting Rounds or set two_decks)"
            )
        largest = max(sum(self.group_sizes()[i] for i in part) for part in _halves(self.group_sizes()))
        if (self.rounds == 2 or self.two_decks) and largest > self.max_per_round:
            way = "deck" if self.two_decks else "Starting Round"
            raise RulesError(
                f"groups: {g} groups of {n} students cannot be split into two of at most "
                f"{self.max_per_round} students (one {way} would hold {largest}); use more groups"
            )
        return self

    @property
    def rounds(self) -> int:
        """How many Starting Rounds are played."""
        if self.starting_rounds is not None:
            return self.starting_rounds
        return 1 if self.students <= self.max_per_round or self.two_decks else 2

    @property
    def geopower_p(self) -> np.ndarray:
        counts = np.asarray(self.geopower, dtype=float)
        return counts / counts.sum()

    def group_sizes(self) -> tuple[int, ...]:
        """As equal as possible, the larger groups first."""
        q, r = divmod(self.students, self.groups)
        return tuple(q + 1 if i < r else q for i in range(self.groups))

    def groups_of(self) -> tuple[tuple[int, ...], ...]:
        """The students (0-based seats) of each group: consecutive seats."""
        edges = np.cumsum((0, *self.group_sizes()))
        return tuple(tuple(range(edges[i], edges[i + 1])) for i in range(self.groups))

    def round_plan(self) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """Starting Rounds -> decks -> group numbers. Two decks deal the two halves of the
        class from separate decks in one round (same call, same GeoPower card)."""
        all_groups = tuple(range(self.groups))
        if self.rounds == 2:
            first, second = _halves(self.group_sizes())
            return ((first,), (second,))
        if self.students > self.max_per_round:
            return (_halves(self.group_sizes()),)
        return ((all_groups,),)

    def championship_decks(self, finalists: list[int]) -> list[list[int]]:
        """Finalists in seat order, a new deck for every `max_per_round` of them (more than
        one deck only when ties bring more finalists than one deck can serve)."""
        k = self.max_per_round
        return [finalists[i : i + k] for i in range(0, len(finalists), k)]


@cache
def _halves(sizes: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The split of whole groups into two parts whose larger part is smallest (cached: every
    batch simulation asks, and trying every split takes milliseconds at 8 groups)."""
    g, best = len(sizes), None
    for mask in range(2 ** (g - 1) - 1):
        first = (0, *(i for i in range(1, g) if mask >> (i - 1) & 1))
        second = tuple(i for i in range(g) if i not in first)
        load = max(sum(sizes[i] for i in first), sum(sizes[i] for i in second))
        if best is None or load < best[0]:
            best = (load, first, second)
    return best[1], best[2]


PRESETS = {"default": Rules()}


def rules_from(spec) -> Rules:
    """Rules from a preset name or an object of fields (optionally with "preset")."""
    if isinstance(spec, str):
        if spec not in PRESETS:
            raise RulesError(f"unknown preset {spec!r} (known: {', '.join(PRESETS)})")
        return PRESETS[spec].validate()
    if not isinstance(spec, dict):
        raise RulesError("expected a preset name or an object of Rules fields")
    spec = dict(spec)
    base = rules_from(spec.pop("preset", "default"))
    names = {f.name for f in fields(Rules)}
    for key in spec:
        if key not in names:
            raise RulesError(f"unknown field {key!r}")
    if "geopower" in spec:
        spec["geopower"] = tuple(spec["geopower"])
    try:
        rules = Rules(**{**{f.name: getattr(base, f.name) for f in fields(Rules)}, **spec})
    except TypeError as error:
        raise RulesError(str(error)) from None
    return rules.validate()


def rules_dict(rules: Rules) -> dict:
    """The fields that differ from the default, as a record or results file writes them."""
    default = Rules()
    return {
        f.name: list(v) if isinstance(v := getattr(rules, f.name), tuple) else v
        for f in fields(Rules)
        if getattr(rules, f.name) != getattr(default, f.name)
    }


# --- observations -----------------------------------------------------------------------

def observe(hands, call, opponents) -> dict:
    """What a student may see when discarding: own cards (sorted, so order tells nothing),
    the call, and how many students compete in the round besides them. Nothing else."""
    hands = np.sort(np.asarray(hands, dtype=np.int64), axis=1)
    n = len(hands)
    return {
        "hand": hands,
        "call": np.broadcast_to(np.asarray(call, dtype=np.int64), (n,)).copy(),
        "opponents": np.broadcast_to(np.asarray(opponents, dtype=np.int64), (n,)).copy(),
    }


def score(kept, category: int) -> int:
    """The sum of the kept cards' ranks in the round's category."""
    return int(sum(int(RANKS[c, category]) for c in kept))


def round_winners(scores: dict[int, int], call: int) -> list[int]:
    """Lowest sum under Top Dog, highest under Bottoms Up; every tied student wins."""
    best = (min if call == TOP_DOG else max)(scores.values())
    return sorted(s for s, v in scores.items() if v == best)


# --- reference engine -------------------------------------------------------------------

class Source(Protocol):
    """Where a round's public random events and deal come from (a Generator or a record)."""

    def call(self, index: int, stage: str) -> int: ...
    def deal(self, index: int, stage: str, decks: list[list[int]]) -> dict[int, tuple[int, ...]]: ...
    def geopower(self, index: int, stage: str) -> int: ...


Chooser = Callable[[int, int, tuple[int, ...], int, int], int]
"""chooser(round_index, student, hand, call, opponents) -> the card the student discards."""


class RandomSource:
    """Teacher's calls, shuffled decks and GeoPower cards drawn from one numpy Generator."""

    def __init__(self, rules: Rules, rng: np.random.Generator):
        self.rules, self.rng = rules, rng

    def call(self, index, stage):
        mode = self.rules.call
        return int(self.rng.integers(2)) if mode == "random" else CALLS.index(mode)

    def deal(self, index, stage, decks):
        hands, k = {}, self.rules.dealt
        for students in decks:
            order = self.rng.permutation(N_CARDS)
            for i, s in enumerate(students):
                hands[s] = tuple(int(c) for c in order[i * k : (i + 1) * k])
        return hands

    def geopower(self, index, stage):
        return int(self.rng.choice(3, p=self.rules.geopower_p))


@dataclass
class RoundLog:
    stage: str
    call: int
    hands: dict[int, tuple[int, ...]]
    discards: dict[int, int]
    category: int
    scores: dict[int, int]
    contests: list[list[int]]
    winners: list[int]


@dataclass
class GameLog:
    rules: Rules
    rounds: list[RoundLog] = field(default_factory=list)
    group_winners: list[list[int]] = field(default_factory=list)
    champions: list[int] = field(default_factory=list)

    @property
    def finalists(self) -> list[int]:
        return sorted(s for w in self.group_winners for s in w)

    @property
    def championship_rounds(self) -> int:
        return sum(r.stage == CHAMPIONSHIP for r in self.rounds)


def _play_round(rules, index, stage, decks, contests, source, chooser) -> RoundLog:
    call = source.call(index, stage)
    hands = source.deal(index, stage, decks)
    discards = {}
    for contest in contests:
        for s in contest:
            discards[s] = chooser(index, s, tuple(sorted(hands[s])), call, len(contest) - 1)
    category = source.geopower(index, stage)
    scores = {}
    for s, hand in hands.items():
        kept = list(hand)
        kept.remove(discards[s])
        scores[s] = score(kept, category)
    winners = [w for c in contests for w in round_winners({s: scores[s] for s in c}, call)]
    return RoundLog(stage, call, hands, discards, category, scores, contests, sorted(winners))


def play(rules: Rules, source: Source, chooser: Chooser) -> GameLog:
    """One class game, step by step as the rule text tells it."""
    rules.validate()
    groups = rules.groups_of()
    log = GameLog(rules)
    winners_of = {}
    for plan in rules.round_plan():
        group_ids = [g for deck in plan for g in deck]
        decks = [[s for g in deck for s in groups[g]] for deck in plan]
        contests = [list(groups[g]) for g in group_ids]
        rnd = _play_round(rules, len(log.rounds), STARTING, decks, contests, source, chooser)
        log.rounds.append(rnd)
        for g in group_ids:
            winners_of[g] = [s for s in groups[g] if s in rnd.winners]
    log.group_winners = [winners_of[g] for g in range(rules.groups)]
    alive = log.finalists
    while True:
        decks = rules.championship_decks(alive)
        rnd = _play_round(rules, len(log.rounds), CHAMPIONSHIP, decks, [alive], source, chooser)
        log.rounds.append(rnd)
        if len(rnd.winners) == 1 or rules.championship_ties == "share":
            log.champions = rnd.winners
            return log
        alive = rnd.winners


def policy_chooser(policies, rng: np.random.Generator) -> Chooser:
    """Ask each student's policy (one per seat) through a one-row observation."""

    def choose(index, student, hand, call, opponents):
        obs = observe([hand], call, opponents)
        position = int(policies[student].act(obs, rng)[0])
        return int(obs["hand"][0, position])

    return choose


# --- records ----------------------------------------------------------------------------

GAME = "class-double-choice"


def student_name(s: int) -> str:
    return f"S{s + 1}"


def to_record(log: GameLog, with_result: bool = True) -> dict:
    """A `geolab-record/1` object for one played game."""
    record = {
        "format": "geolab-record/1",
        "game": GAME,
        "rules": rules_dict(log.rules),
        "rounds": [
            {
                "stage": r.stage,
                "call": CALLS[r.call],
                "deal": {student_name(s): [POSTAL[c] for c in h] for s, h in sorted(r.hands.items())},
                "discards": {student_name(s): POSTAL[c] for s, c in sorted(r.discards.items())},
                "geopower": CATEGORIES[r.category],
            }
            for r in log.rounds
        ],
    }
    if with_result:
        record["result"] = _result(log)
    return record


def _result(log: GameLog) -> dict:
    names = lambda ss: [student_name(s) for s in ss]  # noqa: E731
    return {
        "group_winners": [names(w) for w in log.group_winners],
        "champions": names(log.champions),
    }


class RecordSource:
    """Replays a record's rounds, checking each against the rules; errors name the place."""

    def __init__(self, rules: Rules, rounds):
        if not isinstance(rounds, list):
            raise RecordError("rounds: expected a list of rounds")
        self.rules, self.rounds = rules, rounds
        self.names = {student_name(s): s for s in range(rules.students)}

    def _round(self, index, stage) -> dict:
        if index >= len(self.rounds):
            raise RecordError(f"rounds: round {index + 1} ({stage}) is missing")
        rnd = self.rounds[index]
        if not isinstance(rnd, dict):
            raise RecordError(f"round {index + 1}: expected an object")
        if rnd.get("stage") != stage:
            raise RecordError(f"round {index + 1}: stage should be {stage!r}, got {rnd.get('stage')!r}")
        return rnd

    def _student(self, index, name) -> int:
        if name not in self.names:
            raise RecordError(f"round {index + 1}: unknown student {name!r} (S1-S{self.rules.students})")
        return self.names[name]

    def call(self, index, stage):
        value = self._round(index, stage).get("call")
        if value not in CALLS:
            raise RecordError(f"round {index + 1}: call {value!r} is not one of {', '.join(CALLS)}")
        if self.rules.call != "random" and value != self.rules.call:
            raise RecordError(f"round {index + 1}: call {value!r} but the rules fix {self.rules.call!r}")
        return CALLS.index(value)

    def deal(self, index, stage, decks):
        deal = self._round(index, stage).get("deal")
        if not isinstance(deal, dict):
            raise RecordError(f"round {index + 1}: deal must map students to cards")
        expected = {s for d in decks for s in d}
        got = {self._student(index, name) for name in deal}
        if got != expected:
            who = ", ".join(student_name(s) for s in sorted(got ^ expected))
            raise RecordError(f"round {index + 1}: the deal should be for {_names(expected)}; check {who}")
        hands = {}
        for deck in decks:
            holder = {}
            for s in deck:
                cards = deal[student_name(s)]
                if not isinstance(cards, list) or len(cards) != self.rules.dealt:
                    raise RecordError(f"round {index + 1}: {student_name(s)} must be dealt {self.rules.dealt} cards")
                hand = []
                for postal in cards:
                    c = _card(postal, f"round {index + 1}: {student_name(s)}")
                    if c in holder:
                        raise RecordError(f"round {index + 1}: {postal} dealt twice ({student_name(holder[c])} and {student_name(s)})")
                    holder[c] = s
                    hand.append(c)
                hands[s] = tuple(hand)
        self.hands = hands
        return hands

    def discard(self, index, student, hand, call, opponents):
        discards = self.rounds[index].get("discards")
        name = student_name(student)
        if not isinstance(discards, dict) or name not in discards:
            raise RecordError(f"round {index + 1}: {name}'s discard is missing")
        c = _card(discards[name], f"round {index + 1}: {name}")
        if c not in hand:
            raise RecordError(f"round {index + 1}: {name} discarded {discards[name]}, which is not in {name}'s hand")
        return c

    def geopower(self, index, stage):
        rnd = self.rounds[index]
        extra = set(rnd.get("discards", {})) - {student_name(s) for s in self.hands}
        if extra:
            raise RecordError(f"round {index + 1}: discards for students not in the round: {', '.join(sorted(extra))}")
        value = rnd.get("geopower")
        if value not in CATEGORIES:
            raise RecordError(f"round {index + 1}: geopower {value!r} is not one of {', '.join(CATEGORIES)}")
        if self.rules.geopower[CATEGORIES.index(value)] == 0:
            raise RecordError(f"round {index + 1}: the GeoPower deck has no {value} card")
        return CATEGORIES.index(value)


def _names(students) -> str:
    return ", ".join(student_name(s) for s in sorted(students))


def _card(postal, place: str) -> int:
    if not isinstance(postal, str) or postal.upper() not in POSTAL:
        raise RecordError(f"{place} holds {postal!r}, which is not a postal code")
    return POSTAL.index(postal.upper())


def replay_record(record: dict) -> dict:
    """Validate a class-double-choice record with the reference engine; a JSON-ready report."""
    try:
        rules = rules_from(record.get("rules", "default"))
    except RulesError as error:
        raise RecordError(f"rules: {error}") from None
    source = RecordSource(rules, record.get("rounds"))
    log = play(rules, source, source.discard)
    if len(source.rounds) > len(log.rounds):
        raise RecordError(f"round {len(log.rounds) + 1}: the game was over after round {len(log.rounds)}")
    report = {
        "groups": [[student_name(s) for s in g] for g in rules.groups_of()],
        "rounds": [
            {
                "stage": r.stage,
                "call": CALLS[r.call],
                "geopower": CATEGORIES[r.category],
                "scores": {student_name(s): v for s, v in sorted(r.scores.items())},
                "winners": [student_name(s) for s in r.winners],
            }
            for r in log.rounds
        ],
        **_result(log),
        "championship_rounds": log.championship_rounds,
    }
    stated = record.get("result")
    if stated is not None:
        if not isinstance(stated, dict):
            raise RecordError("result: expected an object")
        for key, value in stated.items():
            if key not in ("group_winners", "champions"):
                raise RecordError(f"result: unknown key {key!r} (group_winners, champions)")
            if value != report[key]:
                raise RecordError(f"result: {key} is {value}, but the game gives {report[key]}")
    return report


# --- hands as table indices (shared by the batch engine, bots and the lab) --------------

def _all_hands() -> np.ndarray:
    """The 19,600 three-card hands, sorted, in colex order so that
    index = a + C(b, 2) + C(c, 3) for a < b < c."""
    rows = [(a, b, c) for c in range(N_CARDS) for b in range(c) for a in range(b)]
    return np.array(rows, dtype=np.int8)


HANDS = _all_hands()
N_HANDS = len(HANDS)
HANDS.setflags(write=False)


def hand_index(sorted_hands: np.ndarray) -> np.ndarray:
    """Table row of each sorted 3-card hand."""
    a, b, c = (np.asarray(sorted_hands, dtype=np.int64)[:, i] for i in range(3))
    return a + b * (b - 1) // 2 + c * (c - 1) * (c - 2) // 6


def kept_sums() -> np.ndarray:
    """(19600, 3 discards, 3 categories): the round score of each hand after each discard."""
    r = RANKS[HANDS].astype(np.int16)  # hand, card, category
    return r.sum(axis=1, keepdims=True) - r

