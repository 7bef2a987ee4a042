"""Class GeoPower Double Choice: the scoring and the **reference engine** (the specification).

The batch engine (`geolab.games.classroom.batch`) plays the same games for many classes at
once and is tested against this module. Rule decisions: docs/rules-classroom.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Protocol

import numpy as np

from geolab.cards import N_CARDS, RANKS
from geolab.errors import IllegalActionError
from geolab.game import asking, bot_name
from geolab.games.classroom.observations import Seen, observe
from geolab.games.classroom.rules import CALLS, CHAMPIONSHIP, STARTING, TOP_DOG, Rules


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


# --- a deal: every chance event of a game, fixed before play --------------------------------

#: Championship attempts a `Deal` holds explicitly; replays after ties beyond these are dealt
#: from the deal's own seed (`Deal.later`), so a deal fixes any number of them.
CHAMPIONSHIP_AHEAD = 4


@dataclass(frozen=True)
class Dealt:
    """One round's chance events: the teacher's call, the GeoPower card, and each deck's
    shuffled order (a full deck each; the students of deck j are dealt from its top, in seat
    order, `rules.dealt` cards each)."""

    call: int
    category: int
    decks: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class Deal:
    """Everything chance decides in one class game: each Starting Round, the first
    `CHAMPIONSHIP_AHEAD` Championship attempts (with decks enough for every student to be a
    finalist), and the seed of any later attempts. Who plays which championship cards follows
    from who the finalists are, as at a real table."""

    starting: tuple[Dealt, ...]
    championship: tuple[Dealt, ...]
    later: int


def championship_deck_count(rules: Rules) -> int:
    """Decks a Championship attempt may need: one for every `max_per_round` finalists."""
    return -(-rules.students // rules.max_per_round)


def draw_round(rules: Rules, rng: np.random.Generator, decks: int) -> Dealt:
    """A round's call, decks and GeoPower card, drawn in that order (as `RandomSource` does)."""
    mode = rules.call
    call = int(rng.integers(2)) if mode == "random" else CALLS.index(mode)
    orders = tuple(tuple(int(c) for c in rng.permutation(N_CARDS)) for _ in range(decks))
    return Dealt(call, int(rng.choice(3, p=rules.geopower_p)), orders)


def deal_one(rules: Rules, rng: np.random.Generator) -> Deal:
    """One game's chance events from a numpy Generator."""
    rules.validate()
    starting = tuple(draw_round(rules, rng, len(plan)) for plan in rules.round_plan())
    later = tuple(draw_round(rules, rng, championship_deck_count(rules)) for _ in range(CHAMPIONSHIP_AHEAD))
    return Deal(starting, later, int(rng.integers(2**63)))


def seat_place(rules: Rules, student: int) -> tuple[int, int, int]:
    """(Starting Round, deck in that round, place in that deck) of a student."""
    groups = rules.groups_of()
    for r, plan in enumerate(rules.round_plan()):
        for j, deck in enumerate(plan):
            members = [s for g in deck for s in groups[g]]
            if student in members:
                return r, j, members.index(student)
    raise ValueError(f"student {student} is not in the class")


def redeal_hidden(rules: Rules, deal: Deal, student: int, rng: np.random.Generator) -> Deal:
    """The deal as `student` knows it when it discards in its Starting Round, the rest dealt
    anew: it keeps its own three cards (at its place in its deck) and its round's call, and
    any Starting Round played before its own (played in front of it). Dealt anew: the other
    cards of its deck, any other deck of its round, its round's GeoPower card (turned after
    the discards), and every later round: calls, decks and GeoPower cards."""
    r0, j0, i0 = seat_place(rules, student)
    k = rules.dealt
    own = deal.starting[r0]
    mine = own.decks[j0][i0 * k:(i0 + 1) * k]
    rest = [int(c) for c in rng.permutation([c for c in range(N_CARDS) if c not in mine])]
    deck = tuple(rest[: i0 * k]) + tuple(mine) + tuple(rest[i0 * k:])
    decks = tuple(deck if j == j0 else tuple(int(c) for c in rng.permutation(N_CARDS))
                  for j in range(len(own.decks)))
    starting = list(deal.starting)
    starting[r0] = Dealt(own.call, int(rng.choice(3, p=rules.geopower_p)), decks)
    plans = rules.round_plan()
    for r in range(r0 + 1, len(starting)):
        starting[r] = draw_round(rules, rng, len(plans[r]))
    later = tuple(draw_round(rules, rng, championship_deck_count(rules)) for _ in range(CHAMPIONSHIP_AHEAD))
    return Deal(tuple(starting), later, int(rng.integers(2**63)))


class DealSource:
    """A `Deal` as the reference engine's `Source`."""

    def __init__(self, rules: Rules, deal: Deal):
        self.rules, self.chance = rules, deal

    def _round(self, index: int) -> Dealt:
        attempt = index - self.rules.rounds
        if attempt < 0:
            return self.chance.starting[index]
        if attempt < len(self.chance.championship):
            return self.chance.championship[attempt]
        rng = np.random.default_rng([self.chance.later, attempt])
        return draw_round(self.rules, rng, championship_deck_count(self.rules))

    def call(self, index, stage):
        return self._round(index).call

    def deal(self, index, stage, decks):
        orders, k = self._round(index).decks, self.rules.dealt
        return {s: orders[j][i * k:(i + 1) * k] for j, students in enumerate(decks) for i, s in enumerate(students)}

    def geopower(self, index, stage):
        return self._round(index).category


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


def seen(rnd: RoundLog) -> Seen:
    """A finished round as the class saw it: the Selected Cards are shown to compare sums,
    the discards never are."""
    contests = tuple(tuple((s, tuple(sorted(c for c in rnd.hands[s] if c != rnd.discards[s])), rnd.scores[s])
                           for s in contest) for contest in rnd.contests)
    return Seen(rnd.stage, rnd.call, rnd.category, contests, tuple(rnd.winners))


def play(rules: Rules, source: Source, chooser: Chooser, log: GameLog | None = None) -> GameLog:
    """One class game, step by step as the rule text tells it. `log` is the log to fill
    (empty, for these rules): a chooser that holds it sees the rounds finished so far, which
    the whole class has seen."""
    rules.validate()
    groups = rules.groups_of()
    log = GameLog(rules) if log is None else log
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
        policy = policies[student]
        with asking("class", policy, f"discard of round {index + 1}"):
            answer = np.asarray(policy.act(obs, rng))
        if answer.dtype.kind not in "iu" or answer.shape != (1,) or not 0 <= int(answer[0]) < obs["hand"].shape[1]:
            raise IllegalActionError(f"class: bot {bot_name(policy)!r}, discard of round {index + 1}: "
                                     f"{answer!r} is not one position 0-{obs['hand'].shape[1] - 1} of the hand")
        return int(obs["hand"][0, int(answer[0])])

    return choose
