"""Class GeoPower Double Choice: the scoring and the **reference engine** (the specification),
a step-wise state (`geolab.stepwise`).

`steps(rules, deal)` is one class game as the rule text tells it, a generator: each round the
teacher's call, the deal, every student's discard at once (one `Ask`), the GeoPower card; then
the Championship Round and its replays. Given a `Deal` it reads chance from it; without one it
yields a `Chance` node wherever chance acts (the call when random, each card dealt, the GeoPower
card). The batch engine (`geolab.games.classroom.batch`) plays the same games for many classes
at once and is tested against this module. Rule decisions: docs/rules-classroom.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from geolab.cards import CATEGORIES, N_CARDS, RANKS
from geolab.game import Decision, shares
from geolab.games.classroom.observations import Seen, View, observation_string, observation_tensor, tensor_size
from geolab.games.classroom.rules import CALLS, CHAMPIONSHIP, TOP_DOG, Rules, student_name
from geolab.stepwise import Ask, Chance, Resampled, StepGame, checked, draw_cards, refuse


def score(kept, category: int) -> int:
    """The sum of the kept cards' ranks in the round's category."""
    return int(sum(int(RANKS[c, category]) for c in kept))


def round_winners(scores: dict[int, int], call: int) -> list[int]:
    """Lowest sum under Top Dog, highest under Bottoms Up; every tied student wins."""
    best = (min if call == TOP_DOG else max)(scores.values())
    return sorted(s for s, v in scores.items() if v == best)


# --- a deal: every chance event of a game, fixed before play --------------------------------

#: Championship attempts a `Deal` holds explicitly; replays after ties beyond these are dealt
#: from the deal's own seed (`Deal.later`), so a deal fixes any number of them.
CHAMPIONSHIP_AHEAD = 4
#: Championship attempts `max_length` and the observation tensor allow for. Ties are replayed
#: without end in principle; each attempt is tied about 1-5% of the time (measured: 400,000
#: games each of seven class sizes, calls and decks, three bots; the longest had 5), so even
#: at a tie rate of 30% a game would pass this bound with probability 0.3**24, below 1e-12.
ATTEMPTS_BOUND = 24
#: Chance outcomes share one numbering, so the outcomes alone say where a round's deal ends
#: (`deal_from_chance`): a card dealt is its card number (0-49), the teacher's call
#: ``CALL_OUTCOME + call``, the GeoPower card turned ``CATEGORY_OUTCOME + category``.
CALL_OUTCOME = N_CARDS
CATEGORY_OUTCOME = N_CARDS + len(CALLS)


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
    from who the finalists are, as at a real table. ``chance``: the outcomes a chance-stepped
    game had drawn when `deal_from_chance` made this deal (the rest is filler), else None."""

    starting: tuple[Dealt, ...]
    championship: tuple[Dealt, ...]
    later: int
    chance: tuple[int, ...] | None = None


def championship_deck_count(rules: Rules) -> int:
    """Decks a Championship attempt may need: one for every `max_per_round` finalists."""
    return -(-rules.students // rules.max_per_round)


def draw_call(rules: Rules, rng: np.random.Generator) -> int:
    """The teacher's call: a fair coin under ``call="random"`` (no draw for a fixed call)."""
    return int(rng.integers(2)) if rules.call == "random" else CALLS.index(rules.call)


def draw_round(rules: Rules, rng: np.random.Generator, decks: int) -> Dealt:
    """A round's call, decks and GeoPower card, drawn in that order."""
    call = draw_call(rules, rng)
    orders = tuple(tuple(int(c) for c in rng.permutation(N_CARDS)) for _ in range(decks))
    return Dealt(call, int(rng.choice(3, p=rules.geopower_p)), orders)


def deal_one(rules: Rules, rng: np.random.Generator) -> Deal:
    """One game's chance events from a numpy Generator."""
    rules.validate()
    starting = tuple(draw_round(rules, rng, len(plan)) for plan in rules.round_plan())
    later = tuple(draw_round(rules, rng, championship_deck_count(rules)) for _ in range(CHAMPIONSHIP_AHEAD))
    return Deal(starting, later, int(rng.integers(2**63)))


def dealt(rules: Rules, deal: Deal, index: int) -> Dealt:
    """Round `index`'s chance events in `deal` (a Starting Round, then the Championship
    attempts, those beyond the deal's own drawn from its seed)."""
    attempt = index - rules.rounds
    if attempt < 0:
        return deal.starting[index]
    if attempt < len(deal.championship):
        return deal.championship[attempt]
    return draw_round(rules, np.random.default_rng([deal.later, attempt]), championship_deck_count(rules))


# --- the game ---------------------------------------------------------------------------

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


def seen(rnd: RoundLog) -> Seen:
    """A finished round as the class saw it: the Selected Cards are shown to compare sums,
    the discards never are."""
    contests = tuple(tuple((s, tuple(sorted(c for c in rnd.hands[s] if c != rnd.discards[s])), rnd.scores[s])
                           for s in contest) for contest in rnd.contests)
    return Seen(rnd.stage, rnd.call, rnd.category, contests, tuple(rnd.winners))


class Table:
    """The class as it stands, which every observation reads (`view`): the rounds finished
    and, in the round being played, the call once said, each student's cards once its deck is
    dealt, and the discards once made."""

    def __init__(self, game: GameLog):
        self.game, self.history = game, ()
        self.call, self.hands, self.contest_of, self.discards = -1, {}, {}, {}

    def start(self, call: int, contests) -> None:
        self.call = call
        self.contest_of = {s: tuple(c) for c in contests for s in c}

    def finish(self, rnd: RoundLog) -> None:
        self.history += (seen(rnd),)
        self.call, self.hands, self.contest_of, self.discards = -1, {}, {}, {}

    def view(self, seat: int) -> View:
        """What student `seat` sees now: its own cards (none while it is not dealt), the call,
        who it competes against, every finished round, and its own discards."""
        contest = self.contest_of.get(seat, ())
        own = tuple(r.discards.get(seat, -1) for r in self.game.rounds)
        if seat in self.discards:
            own += (self.discards[seat],)
        return View(tuple(sorted(self.hands.get(seat, ()))), self.call, max(len(contest) - 1, 0), self.game.rules,
                    len(self.history), contest, self.history, own)


def geopower_node(rules: Rules, observe) -> Chance:
    """The GeoPower card turned: a category of the deck, with the deck's odds."""
    p = rules.geopower_p
    kinds = [c for c in range(len(CATEGORIES)) if rules.geopower[c]]
    return Chance("geopower", tuple(CATEGORY_OUTCOME + c for c in kinds), tuple(float(p[c]) for c in kinds), observe)


def observed(nodes, observe):
    """The chance nodes of `nodes` (`draw_cards`'s), each with `observe`: a seat is seen
    while cards are dealt too (the first to be dealt has its cards before the last is)."""
    try:
        node = next(nodes)
        while True:
            node = nodes.send((yield replace(node, observe=observe)))
    except StopIteration as stop:
        return stop.value


def play_round(rules: Rules, table: Table, stage: str, decks, contests, chance: Dealt | None):
    """One round: the call, the deal (a deck at a time, from its top in seat order), every
    student's discard at once, face-down (one `Ask`), then the GeoPower card; scored. Chance
    comes from `chance` (the deal's round) or, when None, is yielded."""
    index, k = len(table.history), rules.dealt
    if chance is not None:
        call = chance.call
    elif rules.call == "random":
        call = (yield Chance("call", (CALL_OUTCOME, CALL_OUTCOME + 1), observe=table.view)) - CALL_OUTCOME
    else:
        call = CALLS.index(rules.call)
    table.start(call, contests)
    hands = table.hands
    for j, students in enumerate(decks):
        if chance is not None:
            cards = chance.decks[j]
        else:
            cards = yield from observed(draw_cards(range(N_CARDS), len(students) * k), table.view)
        for i, s in enumerate(students):
            hands[s] = tuple(cards[i * k:(i + 1) * k])
    where = f"round {index + 1} ({stage})"
    decisions = []
    for contest in contests:
        for s in contest:
            view = table.view(s)
            decisions.append(Decision(s, "discard", view, view.hand, where))
    discards = yield Ask(tuple(decisions), table.view)
    table.discards = discards
    if chance is not None:
        category = chance.category
    else:
        category = (yield geopower_node(rules, table.view)) - CATEGORY_OUTCOME
    scores = {}
    for s, hand in hands.items():
        kept = list(hand)
        kept.remove(discards[s])
        scores[s] = score(kept, category)
    winners = [w for c in contests for w in round_winners({s: scores[s] for s in c}, call)]
    return RoundLog(stage, call, dict(hands), dict(discards), category, scores, contests, sorted(winners))


def steps(rules: Rules, deal: Deal | None = None):
    """One class game, step by step as the rule text tells it: the Starting Round(s), each
    group's winners to the Championship Round, tied finalists replaying it (or sharing the
    title). Yields an `Ask` a round (every student dealt discards at once) and, without a
    deal, the `Chance` nodes; returns the `GameLog`."""
    rules.validate()
    game = GameLog(rules)
    table = Table(game)
    while (plan := rules.next_round(game.rounds)) is not None:
        stage, decks, contests = plan
        chance = None if deal is None else dealt(rules, deal, len(game.rounds))
        game.rounds.append((yield from play_round(rules, table, stage, decks, contests, chance)))
        table.finish(game.rounds[-1])
        if len(game.rounds) == rules.rounds:
            won = {s for r in game.rounds for s in r.winners}
            game.group_winners = [[s for s in g if s in won] for g in rules.groups_of()]
    game.champions = game.rounds[-1].winners
    return game


# --- chance, stepped or redrawn -------------------------------------------------------------

def _filled(cards: Sequence[int]) -> tuple[int, ...]:
    """A deck order that deals `cards` first, the rest of the deck after them."""
    first = set(cards)
    return tuple(cards) + tuple(c for c in range(N_CARDS) if c not in first)


def deal_from_chance(rules: Rules, outcomes: Sequence[int]) -> Deal:
    """The deal a chance-stepped game's outcomes make (`CALL_OUTCOME`, `CATEGORY_OUTCOME`):
    round by round its call, its cards a deck at a time (a Starting Round's decks as planned, a
    Championship's `max_per_round` finalists a deck) and its GeoPower card. What chance has not
    decided yet is filler: the first call and category the rules allow, the rest of each deck
    in card order."""
    rules.validate()
    fixed = 0 if rules.call == "random" else CALLS.index(rules.call)
    first_kind = next(c for c in range(len(CATEGORIES)) if rules.geopower[c])
    rounds: list[list] = []  # [call, category, cards] a round, in play order
    for x in outcomes:
        if not rounds or rounds[-1][1] is not None:
            rounds.append([fixed, None, []])
        if x >= CATEGORY_OUTCOME:
            rounds[-1][1] = x - CATEGORY_OUTCOME
        elif x >= CALL_OUTCOME:
            rounds[-1][0] = x - CALL_OUTCOME
        else:
            rounds[-1][2].append(x)
    groups = rules.groups_of()
    starting, championship = [], []
    for index in range(max(len(rounds), rules.rounds)):
        call, category, cards = rounds[index] if index < len(rounds) else (fixed, None, [])
        if index < rules.rounds:
            sizes = [rules.dealt * sum(len(groups[g]) for g in deck) for deck in rules.round_plan()[index]]
        else:
            sizes = [rules.dealt * rules.max_per_round] * championship_deck_count(rules)
        edges = np.cumsum([0, *sizes])
        decks = tuple(_filled(cards[edges[j]:edges[j + 1]]) for j in range(len(sizes)))
        made = Dealt(call, first_kind if category is None else category, decks)
        (starting if index < rules.rounds else championship).append(made)
    filler = Dealt(fixed, first_kind, (_filled(()),) * championship_deck_count(rules))
    championship += [filler] * (CHAMPIONSHIP_AHEAD - len(championship))
    return Deal(tuple(starting), tuple(championship), 0, tuple(int(x) for x in outcomes))


def redeal(rules: Rules, deal: Deal, view: View, discards: dict[int, int], seat: int,
           rng: np.random.Generator) -> Deal:
    """`deal` as student `seat` knows it when it sees `view`, the rest dealt anew: every
    finished round as `deal` has it (`redraw_discards` has made its unseen discards anew); in
    the round being played the call once said, the seat's own cards and any discard already
    logged (`discards`) kept at their places in their decks, every other card of each deck
    shuffled anew, and the GeoPower card redrawn; every later round drawn afresh."""
    finished, k = len(view.history), rules.dealt
    kept = [dealt(rules, deal, index) for index in range(finished)]
    plan = rules.next_round(view.history)
    if plan is not None:
        now = dealt(rules, deal, finished)
        orders = []
        for j, order in enumerate(now.decks):
            students = plan[1][j] if j < len(plan[1]) else []
            places = {}
            for i, s in enumerate(students):
                slots = range(i * k, (i + 1) * k)
                if s == seat and view.hand:
                    places.update((p, order[p]) for p in slots)
                elif s in discards:
                    places.update((p, order[p]) for p in slots if order[p] == discards[s])
            rest = iter(int(c) for c in rng.permutation([c for c in range(N_CARDS) if c not in places.values()]))
            orders.append(tuple(places[p] if p in places else next(rest) for p in range(N_CARDS)))
        call = now.call if view.call >= 0 else draw_call(rules, rng)
        kept.append(Dealt(call, int(rng.choice(3, p=rules.geopower_p)), tuple(orders)))
    plans = rules.round_plan()
    starting = kept[: rules.rounds] + [draw_round(rules, rng, len(plans[r])) for r in range(len(kept), rules.rounds)]
    championship = kept[rules.rounds:]
    championship += [draw_round(rules, rng, championship_deck_count(rules))
                     for _ in range(max(CHAMPIONSHIP_AHEAD - len(championship), 0))]
    return Deal(tuple(starting), tuple(championship), int(rng.integers(2**63)))


def redraw_discards(rules: Rules, deal: Deal, view: View, asks: Sequence[dict], seat: int,
                    rng: np.random.Generator) -> tuple[Deal, list[dict]]:
    """The finished rounds as `seat` saw them, the others' discards chosen anew: in each,
    every student's Selected Cards stay where they were dealt (shown), the seat's own discard
    too; each other student's discard (never shown) and the undealt rest of each deck are
    dealt anew from the cards not shown. Returns the deal and the log's answers with those
    discards; later rounds are as in `deal`."""
    k, rounds, answers_out = rules.dealt, [], []
    for r in range(len(view.history)):
        now, students_of = dealt(rules, deal, r), rules.next_round(view.history[:r])[1]
        answers = dict(asks[r])
        orders = []
        for j, order in enumerate(now.decks):
            students = students_of[j] if j < len(students_of) else []
            hidden = {i * k + order[i * k:(i + 1) * k].index(answers[s]): s
                      for i, s in enumerate(students) if s != seat and s in answers}
            shown = {p: order[p] for p in range(len(students) * k) if p not in hidden}
            rest = iter(int(c) for c in rng.permutation([c for c in range(N_CARDS) if c not in shown.values()]))
            new = tuple(shown[p] if p in shown else next(rest) for p in range(N_CARDS))
            answers.update({s: new[p] for p, s in hidden.items()})
            orders.append(new)
        rounds.append(Dealt(now.call, now.category, tuple(orders)))
        answers_out.append(answers)
    starting = tuple(rounds[: rules.rounds]) + deal.starting[len(rounds[: rules.rounds]):]
    championship = tuple(rounds[rules.rounds:]) + deal.championship[max(len(rounds) - rules.rounds, 0):]
    return Deal(starting, championship, deal.later), answers_out


# --- the reference engine on the step-wise interface ------------------------------------------

class Engine(StepGame):
    """The reference engine as a step-wise game (`geolab.stepwise.State` steps it): the
    verbs of `geolab.game.Game` the specification answers. `ClassGame` adds the rest.

    Actions are cards: a discard's index is its card number (0-49), the same in every hand.
    Observations are `View` s (`geolab.games.classroom.observations`)."""

    def seat_name(self, rules: Rules, seat: int) -> str:
        return student_name(seat)

    def deal(self, rules: Rules, rng: np.random.Generator) -> Deal:
        return deal_one(rules, rng)

    def steps(self, rules: Rules, deal: Deal | None):
        return steps(rules, deal)

    def scores(self, played: GameLog) -> np.ndarray:
        champion = np.zeros((1, played.rules.students), bool)
        champion[0, played.champions] = True
        return shares(champion)[0]

    def deal_from_chance(self, rules: Rules, outcomes: Sequence[int]) -> Deal:
        return deal_from_chance(rules, outcomes)

    def chance_outcomes(self, rules: Rules) -> int:
        """Every chance outcome is below this: cards, then the calls, then the categories."""
        return CATEGORY_OUTCOME + 3

    def resample(self, rules: Rules, deal: Deal, log: Sequence, seat: int, rng: np.random.Generator) -> Deal:
        """`redeal` where the log stops, what `seat` sees there being its observation. The
        log of a chance-stepped game (its chance outcomes are those `deal_from_chance` made the
        deal from) is stepped as it was, without the deal's filler."""
        outcomes = tuple(v for kind, v in log if kind == "chance")
        stepped = deal.chance == outcomes and (bool(outcomes) or not log)
        state = self.state(rules, None if stepped else deal, log)
        asks = [answers for kind, answers in log if kind == "ask"]
        view = state.observe(seat)
        pending = asks[len(view.history)] if len(asks) > len(view.history) else {}
        seen, answers = redraw_discards(rules, deal, view, asks, seat, rng)
        return Resampled(redeal(rules, seen, view, pending, seat, rng),
                         tuple(("ask", a) for a in answers + asks[len(answers):]))

    def num_actions(self, rules: Rules) -> int:
        return N_CARDS

    def action_id(self, rules: Rules, decision: Decision, action) -> int:
        return int(checked(decision, action, student_name(decision.seat)))

    def action_of(self, rules: Rules, decision: Decision, index: int) -> int:
        if isinstance(index, (int, np.integer)) and not isinstance(index, (bool, np.bool_)) and index in decision.legal:
            return int(index)
        raise refuse(decision, index, student_name(decision.seat))

    def observation_string(self, rules: Rules, seat: int, observation: View) -> str:
        return observation_string(rules, seat, observation)

    def observation_tensor(self, rules: Rules, seat: int, observation: View) -> np.ndarray:
        return observation_tensor(rules, seat, observation, ATTEMPTS_BOUND)

    def tensor_size(self, rules: Rules) -> int:
        return tensor_size(rules, ATTEMPTS_BOUND)

    def max_length(self, rules: Rules) -> int:
        """Every Starting Round's call, cards, discards and GeoPower card, then
        `ATTEMPTS_BOUND` Championship attempts with every student a finalist."""
        calls = int(rules.call == "random")
        starting = rules.rounds * (calls + 1) + rules.students * (rules.dealt + 1)
        return starting + ATTEMPTS_BOUND * (calls + 1 + rules.students * (rules.dealt + 1))


ENGINE = Engine()
